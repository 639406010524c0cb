"""Microseconds a call through a player's view, after few and after many deals.

Usage::

    python benchmarks/view_scaling.py [--deals N ...] [--calls N] [--seed S]

A game server checks the view of the seat that moves at every move
(``Game.play(text, seat=)``, ``legal_moves(view)``, ``parse_move(text, view)``), and a
view carries every deal score of its match: a check that goes through them all makes
a long match quadratic. For each count of deals (default 10, 300, 1,000 and 3,000),
this plays random deals of a match to 10,000 until that many are scored, deals the next
one to a play, and times ``legal_moves(view)``, ``parse_move(text, view)`` and
``check_view(view)`` there: the best of 5 runs of ``--calls`` calls each (default 30),
in microseconds a call. Flat columns mean the cost of a call does not grow with the
match. Deterministic deals for a given seed; the times are the clock's.
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Callable

import attrs
from _args import positive

from chkobba import (
    TUNISIAN,
    Phase,
    apply,
    legal_moves,
    new_match,
    observe,
    parse_move,
    random_shuffle,
    rollout,
)
from chkobba.views import check_view

LONG = attrs.evolve(TUNISIAN, name="long", target=10_000)


def microseconds(call: Callable[[], object], calls: int) -> float:
    """The best of 5 runs of ``calls`` calls, in microseconds a call."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        best = min(best, (time.perf_counter() - start) / calls)
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--deals", type=positive, nargs="+", default=[10, 300, 1000, 3000])
    parser.add_argument("--calls", type=positive, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    match = new_match(rules=LONG)
    print("deals  legal_moves(view)  parse_move(text, view)  check_view   (µs a call)")
    for deals in sorted(args.deals):
        while len(match.deal_scores) < deals and match.phase is not Phase.OVER:
            match = rollout(match, rng)
        state = match
        while state.phase is not Phase.PLAY:
            chance = state.phase is Phase.SHUFFLE
            state = apply(state, random_shuffle(rng) if chance else rng.choice(legal_moves(state)))
        view = observe(state, state.mover)
        text = str(legal_moves(state)[0])
        calls: list[Callable[[], object]] = [
            functools.partial(legal_moves, view),
            functools.partial(parse_move, text, view),
            functools.partial(check_view, view),
        ]
        times = [microseconds(call, args.calls) for call in calls]
        row = "  ".join(f"{t:>{w}.1f}" for t, w in zip(times, (17, 22, 10), strict=True))
        print(f"{len(state.deal_scores):>5}  {row}")


if __name__ == "__main__":
    main()
