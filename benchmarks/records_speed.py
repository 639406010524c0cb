"""Reading and writing records: CPU microseconds per move.

Usage::

    python benchmarks/records_speed.py [--matches N] [--runs R] [--seed S]

Plays N random 2-player matches (default 100, each with random bots, from the seed),
keeps each record as one line of JSON, as ``chkobba simulate`` writes them to a file,
then times reading them all back (``Record.from_json`` with ``verify=False``, which
reads the moves, and with ``verify=True``, which also replays them) and writing them
(``to_json(compact=True)``), R times each (default 5), and prints the median CPU time
per move of each. Deterministic in what it reads for a given seed; run it on two
revisions (``PYTHONPATH=src`` of each), alternating, to compare.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from _args import positive

from chkobba import Record
from chkobba.arena import play_match


def recorded(matches: int, seed: int) -> list[str]:
    """The records of ``matches`` random matches, each as one line of JSON."""
    return [
        play_match(["random", "random"], seed=seed + number).record.to_json(compact=True)
        for number in range(matches)
    ]


def per_move(work: Callable[[], object], moves: int, runs: int) -> float:
    """The median CPU microseconds per move of ``runs`` runs of ``work``."""
    seconds = []
    for _ in range(runs):
        start = time.process_time()
        work()
        seconds.append(time.process_time() - start)
    return statistics.median(seconds) / moves * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--matches", type=positive, default=100)
    parser.add_argument("--runs", type=positive, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    lines = recorded(args.matches, args.seed)
    records = [Record.from_json(line, verify=False) for line in lines]
    moves = sum(len(record.moves) for record in records)
    print(f"{len(lines)} records, {moves:,} moves (median CPU µs a move of {args.runs} runs)")
    for name, work in (
        (
            "from_json(verify=False)",
            lambda: [Record.from_json(line, verify=False) for line in lines],
        ),
        ("from_json(verify=True)", lambda: [Record.from_json(line) for line in lines]),
        ("to_json(compact=True)", lambda: [r.to_json(compact=True) for r in records]),
    ):
        print(f"  {name:<24} {per_move(work, moves, args.runs):6.2f}")


if __name__ == "__main__":
    main()
