"""ISMCTS search speed: iterations per CPU second on fixed positions.

Usage::

    python benchmarks/ismcts_speed.py [SPEC] [--positions N] [--iterations K]
                                      [--players P] [--rules NAME]

Collects ``N`` positions (default 24: the first play of rounds that leave at least one
refill, from seeded random deals), then lets the bot ``SPEC`` (default
``ismcts:iterations=800,exploration=0.7,epsilon=0.1,horizon=6``, the 0.1.0 defaults; the
``iterations`` option is replaced by ``K`` when given) choose a move at each and prints
the iterations per CPU second. The positions depend only on the seed, so two revisions
(``PYTHONPATH=<rev>/src``) search the same positions. ``--players`` and ``--rules`` pick
the seating and the profile (``chkobba.PROFILES``; default 2-player Tunisian): with
``--players 3 --rules cardrulesplus`` the search plays three sides.

For a figure that does not drift with the machine's load, count instructions instead:
``PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null python
benchmarks/ismcts_speed.py SPEC --positions 4 --iterations 200`` and the same with
``--iterations 0`` give, by their difference over ``4 * 200``, the instructions per
iteration (the run with 0 collects the
positions and builds the bot, searches nothing, and says so). The count moves a little
with the memory layout (see ``playouts.py``): take the median over a few hash seeds
(``PYTHONHASHSEED=0`` to ``3``) to compare two revisions.
"""

from __future__ import annotations

import argparse
import random
import time

from _args import at_least_zero, bot_spec, positive

from chkobba import (
    PROFILES,
    TUNISIAN,
    Cut,
    Phase,
    Rules,
    State,
    apply,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.bots import make_bot

V1 = "ismcts:iterations=800,exploration=0.7,epsilon=0.1,horizon=6"


def positions(count: int, seed: int = 11, players: int = 2, rules: Rules = TUNISIAN) -> list[State]:
    """``count`` positions: the first play of a round with a refill still to come."""
    rng = random.Random(seed)
    found: list[State] = []
    round_size = 3 * players
    while len(found) < count:
        state = apply(new_match(players, rules=rules), random_shuffle(rng))
        if state.phase is Phase.CUT:
            state = apply(state, Cut(keep=False))
        while state.phase is Phase.PLAY and len(found) < count:
            in_hands = sum(map(len, state.hands))
            if in_hands == round_size and len(state.stock) >= round_size:
                found.append(state)
            state = apply(state, rng.choice(legal_moves(state)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("spec", nargs="?", type=bot_spec, default=V1)
    parser.add_argument("--positions", type=positive, default=24)
    parser.add_argument("--iterations", type=at_least_zero, default=None)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rules", default=TUNISIAN.name, choices=sorted(PROFILES))
    args = parser.parse_args()
    rules = PROFILES[args.rules]
    if args.players not in rules.players:
        parser.error(f"{rules.name} is played by {rules.players}, not {args.players}")
    spec = args.spec
    search = args.iterations != 0  # 0: the same work without the searches (callgrind's base)
    if args.iterations is not None:
        options = [o for o in spec.partition(":")[2].split(",") if o and "iterations" not in o]
        # A bot needs at least one iteration; with --iterations 0 it is built, never asked.
        count = f"iterations={max(args.iterations, 1)}"
        asked = f"{spec.partition(':')[0]}:{','.join([f'iterations={args.iterations}', *options])}"
        spec = f"{spec.partition(':')[0]}:{','.join([count, *options])}"
    bot = make_bot(spec, 1)
    if not isinstance(getattr(bot, "iterations", None), int):
        parser.error(f"{args.spec!r} does not search: give an ismcts or expert spec")
    found = positions(args.positions, players=args.players, rules=rules)
    start = time.process_time()
    for state in found:
        if search:
            bot.choose(observe(state, state.current_player), legal_moves(state))  # type: ignore[arg-type,unused-ignore]
    spent = time.process_time() - start
    if not search:  # a rate of 0 would read as a measurement
        print(f"{asked}: {len(found)} positions and the bot, no search (--iterations 0)")
        return
    rate = len(found) * bot.iterations / spent if spent else float("nan")
    print(f"{spec}: {rate:.0f} iterations per CPU second ({spent / len(found):.3f} s per move)")


if __name__ == "__main__":
    main()
