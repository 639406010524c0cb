"""The same play before and after a speed change: a digest of many seeded deals.

A change to the engine's fast paths must leave every result as it was: the same states,
the same moves, the same random draws and the same errors. This script plays seeded
workloads for every profile and seating below and writes one digest per workload; run
it with one tree's ``src`` to write the digests and with the other's to check them::

    PYTHONPATH=/old/tree/src python benchmarks/same_play.py --write before.json
    PYTHONPATH=src python benchmarks/same_play.py --check before.json

The workloads, per profile and player count (``--deals N`` sets their size):

- ``rollout``: ``chkobba.rollout`` of a fresh deal, every dealer in turn, with its moves;
- ``match``: ``rollout(..., until="match")`` from a fresh match (N / 10 matches);
- ``step``: whole deals through ``legal_moves`` and ``apply``, every state and every
  list of legal moves;
- ``midway``: ``rollout`` from a state part-way through a step deal (any player to
  move, any round, hands of any size);
- ``score``: ``score_deal`` of random piles (for 2 or 3 sides) with a random last
  capturer, and its errors for piles no deal makes.

Each digest covers the results' ``repr`` (a State's names every field, a DealScore's
too) and the random generator's state afterwards, so one extra or missing draw shows.
The profiles are the two named ones and house profiles that switch on what those
leave off (primiera, ties to the last capturer, a cut with three players, courts that
take no sums, duplicated capture values).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from typing import Any

import attrs
from _args import positive

import chkobba
from chkobba import CARD_RULES_PLUS, DECK, TUNISIAN, Phase, Rules, State, new_match

_HOUSES = (
    Rules(
        name="house-primiera",
        players=(2, 3, 4),
        primiera=True,
        ties_to_last_capturer=True,
        majority="most",
        last_card_chkobba=True,
    ),
    Rules(
        name="house-cut-three",
        players=(2, 3, 4),
        courts_capture_sums=False,
        equal_single_first=False,
        void_deal="never",
    ),
    attrs.evolve(
        CARD_RULES_PLUS,
        name="house-plus",
        sevens_bermila=True,
        primiera=True,
        ties_to_last_capturer=True,
        majority="more_than_half",
    ),
    Rules(name="house-values", capture_values=(1, 2, 3, 4, 5, 6, 7, 8, 8, 8), players=(2, 3, 4)),
)
PROFILES = (TUNISIAN, CARD_RULES_PLUS, *_HOUSES)
_Feed = Callable[[str], None]


def _rollouts(rules: Rules, players: int, deals: int, feed: _Feed) -> None:
    rng = random.Random(f"rollout {rules.name} {players}")
    for deal in range(deals):
        moves: list[chkobba.Move] = []
        start = new_match(players, dealer=deal % players, rules=rules)
        feed(repr(chkobba.rollout(start, rng, moves=moves)))
        feed(repr(moves))
    feed(repr(rng.getstate()))


def _matches(rules: Rules, players: int, deals: int, feed: _Feed) -> None:
    rng = random.Random(f"match {rules.name} {players}")
    for _ in range(max(deals // 10, 1)):
        feed(repr(chkobba.rollout(new_match(players, rules=rules), rng, until="match")))
    feed(repr(rng.getstate()))


def _step_deal(start: State, rng: random.Random) -> Iterator[State]:
    """The states of one random deal through the step API, from ``start`` to its end."""
    state = start
    while not state.deal_scores:
        if state.phase is Phase.SHUFFLE:
            state = chkobba.apply(state, chkobba.random_shuffle(rng))
        else:
            state = chkobba.apply(state, rng.choice(chkobba.legal_moves(state)))
        yield state


def _steps(rules: Rules, players: int, deals: int, feed: _Feed) -> None:
    rng = random.Random(f"step {rules.name} {players}")
    for deal in range(deals):
        for state in _step_deal(new_match(players, dealer=deal % players, rules=rules), rng):
            feed(repr(state))
            feed(repr(chkobba.legal_moves(state)))
    feed(repr(rng.getstate()))


def _midway(rules: Rules, players: int, deals: int, feed: _Feed) -> None:
    rng = random.Random(f"midway {rules.name} {players}")
    for deal in range(deals):
        states = list(_step_deal(new_match(players, dealer=deal % players, rules=rules), rng))
        playing = [s for s in states if s.phase is Phase.PLAY]
        middle = playing[rng.randrange(len(playing))]
        moves: list[chkobba.Move] = []
        feed(repr(chkobba.rollout(middle, rng, moves=moves)))
        feed(repr(moves))
    feed(repr(rng.getstate()))


def _scores(rules: Rules, players: int, deals: int, feed: _Feed) -> None:
    sides = rules.sides(players)
    rng = random.Random(f"score {rules.name} {players}")
    for _ in range(deals):
        cards = list(DECK)
        rng.shuffle(cards)
        cuts = sorted(rng.sample(range(41), sides - 1))
        piles = [cards[a:b] for a, b in zip([0, *cuts], [*cuts, 40], strict=True)]
        sweeps = [rng.randrange(4) for _ in range(sides)]
        last = rng.choice([None, *range(sides)])
        feed(repr(chkobba.score_deal(piles, sweeps, rules, last_capturer_side=last)))
    feed(repr(rng.getstate()))
    broken: list[tuple[object, object, object]] = [
        ([list(DECK[:20])] * 2, [0, 0], None),  # a card in two piles
        ([list(DECK[:10])] * 4, [0] * 4, None),  # four sides
        ([list(DECK[:20]), list(DECK[20:])], [0, -1], None),
        ([list(DECK[:20]), list(DECK[20:])], [0, 0], sides),
    ]
    for bad_piles, bad_sweeps, bad_last in broken:
        try:
            chkobba.score_deal(bad_piles, bad_sweeps, rules, last_capturer_side=bad_last)  # type: ignore[arg-type]
        except chkobba.ChkobbaError as error:
            feed(f"{type(error).__name__}: {error}")


WORKLOADS: dict[str, Callable[[Rules, int, int, _Feed], None]] = {
    "rollout": _rollouts,
    "match": _matches,
    "step": _steps,
    "midway": _midway,
    "score": _scores,
}


def _feeder(digest: hashlib._Hash) -> _Feed:
    """What a workload calls with each result's text: it goes into ``digest``."""

    def feed(text: str) -> None:
        digest.update(text.encode())

    return feed


def digests(deals: int) -> dict[str, str]:
    """Per ``profile/players/workload``: the SHA-256 of everything it produced."""
    found = {}
    for rules in PROFILES:
        for players in rules.players:
            for name, workload in WORKLOADS.items():
                digest = hashlib.sha256()
                workload(rules, players, deals, _feeder(digest))
                found[f"{rules.name}/{players}/{name}"] = digest.hexdigest()
    return found


def _saved(parser: argparse.ArgumentParser, path: str) -> dict[str, Any]:
    """The digests a ``--write`` run left in ``path``; a usage error if it holds none."""
    try:
        with open(path, encoding="utf-8") as saved:
            expected = json.load(saved)
    except (OSError, ValueError) as error:
        parser.error(f"--check {path}: {error}")
    if (
        not isinstance(expected, dict)
        or not isinstance(expected.get("deals"), int)
        or not isinstance(expected.get("digests"), dict)
    ):
        parser.error(f"--check {path}: not a file of digests written by --write")
    return expected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", metavar="FILE", help="write the digests to FILE")
    mode.add_argument("--check", metavar="FILE", help="compare the digests with FILE's")
    parser.add_argument("--deals", type=positive, default=200, help="deals per workload")
    args = parser.parse_args()
    if args.write is not None and not args.write.strip():
        parser.error("--write: expected a file name")
    expected = None if args.check is None else _saved(parser, args.check)  # before playing
    found = digests(args.deals)
    if expected is None:
        try:
            with open(args.write, "w", encoding="utf-8") as out:
                json.dump({"deals": args.deals, "digests": found}, out, indent=1)
        except OSError as error:
            sys.exit(f"cannot write the digests to {args.write}: {error.strerror}")
        print(f"{len(found)} workloads of {args.deals} deals written to {args.write}")
        return
    if expected["deals"] != args.deals:
        sys.exit(f"{args.check} holds digests of {expected['deals']} deals: pass --deals")
    differ = [name for name, digest in found.items() if expected["digests"].get(name) != digest]
    missing = sorted(set(expected["digests"]) - set(found))
    for name in [*differ, *missing]:
        print(f"differs: {name}")
    print(f"{len(found)} workloads of {args.deals} deals: {len(found) - len(differ)} the same")
    sys.exit(1 if differ or missing else 0)


if __name__ == "__main__":
    main()
