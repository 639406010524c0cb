"""Bytes per retained State: the memory of many distinct states kept alive at once.

Usage::

    python benchmarks/state_memory.py [--states N] [--seed S]

Plays random 2-player deals with ``legal_moves`` + ``apply`` and keeps every state it
reaches (all distinct: each one is a step further) until it holds N of them (default
100,000), measuring with :mod:`tracemalloc` the memory they retain, including what they
share (a state's tuples and the piles it shares with its predecessors). Prints the bytes
per state. Deterministic for a given seed; run it on two revisions (``PYTHONPATH=src``
of each) to compare. The ``captured`` piles are read once per kept state, so that states
which build them on first use are measured with them built.
"""

from __future__ import annotations

import argparse
import random
import tracemalloc

from _args import positive

from chkobba import Phase, State, apply, legal_moves, new_match, random_shuffle


def kept_states(count: int, seed: int) -> list[State]:
    """``count`` states of random deals, in the order they were reached."""
    rng = random.Random(seed)
    states: list[State] = []
    while len(states) < count:
        state = new_match()
        while not state.deal_scores and len(states) < count:
            if state.phase is Phase.SHUFFLE:
                state = apply(state, random_shuffle(rng))
            else:
                state = apply(state, rng.choice(legal_moves(state)))
            states.append(state)
    return states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--states", type=positive, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    kept_states(200, args.seed + 1)  # import-time and cache allocations are not counted
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    states = kept_states(args.states, args.seed)
    for state in states:
        state.captured  # noqa: B018 - materialise what a reader of the state would see
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    print(f"{len(states)} states retained: {(after - before) / len(states):.0f} bytes per state")


if __name__ == "__main__":
    main()
