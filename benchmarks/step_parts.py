"""What each part of a step-API play costs, one part at a time (issue #8).

Usage::

    python benchmarks/step_parts.py [--deals N] [--seed S]
    python benchmarks/step_parts.py --only PART [--deals N] [--reps R] [--seed S]

The script plays N random 2-player Tunisian deals (``benchmarks/playouts.py``'s loop:
``apply(state, rng.choice(legal_moves(state)))``) and records every play with the state
it was made in. Then it replays the recorded plays ``R`` times through one part of a
step only:

- ``loop``: the bare loop over the recorded plays (the floor under every other part);
- ``hand_plays``: listing the mover's legal plays (``chkobba._plays.hand_plays``);
- ``play``: making the successor of the play (``chkobba._successors.play``, the deal's
  end and scoring included when the play is the last);
- ``apply``: the public ``apply``, given the state whose legal plays are already listed
  (as they are after ``legal_moves``): the check and the successor;
- ``legal_moves``: the public ``legal_moves`` on a state whose listed plays were first
  forgotten (``forget`` alone is that forgetting);
- ``forget``: forgetting each state's listed plays, the overhead of ``legal_moves``' row;
- ``choice``: ``random.Random.choice`` among the listed plays, as the loop draws;
- ``listed``: the public ``legal_moves`` on a state whose plays are already listed (the
  call alone: the floor under any ``legal_moves``);
- ``copy``: a new ``State`` equal to the one played from, made the engine's cheapest way
  (a copy of its instance dict, ``chkobba.state.from_fields``): the floor under any
  successor that holds the public fields, before a rule changes one of them;
- ``shell``: a new ``State`` whose instance dict holds two entries only (the profile and
  the phase), made the same way: the floor under a successor that would hold a compact
  form and decode its public fields when read.

``loop``, ``choice``, ``listed`` and ``copy`` together, and a deal's shuffle, cut and
deal, are what the step API's loop costs with rules that cost nothing.

Without ``--only`` it times every part in this process and prints nanoseconds per play
(clock figures: they drift with the machine's load). With ``--only PART`` it replays
that part and prints nothing, for a count that does not drift: run it under callgrind
for ``--reps R`` and for ``--reps 0`` and divide the difference by R times the plays
(10,800 for 300 deals)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/step_parts.py --only hand_plays --deals 300 --reps 3

``docs/performance.md`` has the counts (under Python 3.11 and 3.13).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from _args import at_least_zero, positive

from chkobba import Phase, Play, State, apply, legal_moves, new_match, random_shuffle
from chkobba._plays import hand_plays
from chkobba._successors import play
from chkobba.state import from_fields

Recorded = list[tuple[State, Play]]


def recorded_plays(deals: int, seed: int) -> Recorded:
    """Every play of ``deals`` random 2-player deals, with the state it was made in."""
    rng = random.Random(seed)
    plays: Recorded = []
    for _ in range(deals):
        state = new_match()
        while not state.deal_scores:
            if state.phase is Phase.SHUFFLE:
                state = apply(state, random_shuffle(rng))
                continue
            move = rng.choice(legal_moves(state))
            if isinstance(move, Play):
                plays.append((state, move))
            state = apply(state, move)
    return plays


def _loop(plays: Recorded, rng: random.Random) -> None:
    for _state, _move in plays:
        pass


def _hand_plays(plays: Recorded, rng: random.Random) -> None:
    for state, _move in plays:
        fields = state.__dict__
        hand_plays(fields["hands"][fields["current_player"]], fields["table"], fields["rules"])


def _play(plays: Recorded, rng: random.Random) -> None:
    for state, move in plays:
        play(state, move.card, move.capture)


def _apply(plays: Recorded, rng: random.Random) -> None:
    for state, move in plays:
        apply(state, move)


def _legal_moves(plays: Recorded, rng: random.Random) -> None:
    for state, _move in plays:
        state.__dict__["_legal_plays"] = None
        legal_moves(state)


def _forget(plays: Recorded, rng: random.Random) -> None:
    for state, _move in plays:
        state.__dict__["_legal_plays"] = None


def _choice(plays: Recorded, rng: random.Random) -> None:
    for state, _move in plays:
        rng.choice(state.__dict__["_legal_plays"])  # listed when recorded


def _listed(plays: Recorded, rng: random.Random) -> None:
    for state, _move in plays:
        legal_moves(state)  # listed when recorded


def _copy(plays: Recorded, rng: random.Random) -> None:
    for state, _move in plays:
        from_fields(state.__dict__.copy())


def _shell(plays: Recorded, rng: random.Random) -> None:
    for state, _move in plays:
        fields = state.__dict__
        from_fields({"rules": fields["rules"], "phase": fields["phase"]})


PARTS: dict[str, Callable[[Recorded, random.Random], None]] = {
    "loop": _loop,
    "hand_plays": _hand_plays,
    "play": _play,
    "apply": _apply,
    "choice": _choice,
    "listed": _listed,
    "copy": _copy,
    "shell": _shell,
    # In this order: each state's plays stay listed until forget, and legal_moves lists
    # them again (apply and choice read them).
    "forget": _forget,
    "legal_moves": _legal_moves,
}


def replay(part: str, plays: Recorded, reps: int, seed: int) -> None:
    """Replay ``plays`` ``reps`` times through ``part`` alone."""
    rng = random.Random(seed)
    run = PARTS[part]
    for _ in range(reps):
        run(plays, rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=positive, default=300)
    parser.add_argument("--reps", type=at_least_zero, default=3)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--only", choices=sorted(PARTS))
    args = parser.parse_args()
    plays = recorded_plays(args.deals, args.seed)
    if args.only is not None:
        replay(args.only, plays, args.reps, args.seed)
        return
    print(f"{len(plays)} plays of {args.deals} deals, {args.reps} replays each part")
    for part in PARTS:
        started = time.perf_counter()
        replay(part, plays, args.reps, args.seed)
        elapsed = time.perf_counter() - started
        print(f"  {part:12s} {elapsed / max(1, args.reps * len(plays)) * 1e9:8.0f} ns a play")


if __name__ == "__main__":
    main()
