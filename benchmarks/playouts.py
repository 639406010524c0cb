"""Random playouts: complete deals driven by ``legal_moves`` + ``apply``.

Usage::

    python benchmarks/playouts.py [--deals N] [--runs R] [--seed S] [--players P] [--workers K]

Each run plays N whole deals (shuffle, cut, every play, scoring) from fresh matches,
choosing uniformly among the legal moves, and prints deals/s and moves/s; the last line
is the median over the runs. With ``--workers K`` the N deals are split over K processes
(the engine is pure, so playouts parallelise perfectly); the default is one process.
The capture cache starts empty in every run.

Wall-clock rates on a shared machine drift by tens of percent from minute to minute. For a
figure that does not drift, count instructions instead (valgrind's callgrind counts the
same total on every run): run ``play_deals`` for 0 and for 150 deals under
``valgrind --tool=callgrind`` and divide the difference by 150 (about 2.8 million
instructions per 2-player deal at the time of writing).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import time

from chkobba import Phase, apply, legal_moves, new_match, random_shuffle
from chkobba.engine import clear_caches

_SHUFFLE = Phase.SHUFFLE


def play_deals(deals: int, seed: int, players: int = 2) -> int:
    """Play ``deals`` complete random deals; return the number of moves applied."""
    clear_caches()
    rng = random.Random(seed)
    choose = rng.choice
    moves = 0
    for _ in range(deals):
        state = new_match(players)
        while not state.deal_scores:
            if state.phase is _SHUFFLE:
                state = apply(state, random_shuffle(rng))
            else:
                state = apply(state, choose(legal_moves(state)))
            moves += 1
    return moves


def _job(job: tuple[int, int, int]) -> int:
    return play_deals(*job)


def timed_run(deals: int, seed: int, players: int, workers: int) -> tuple[float, float]:
    """One run: (deals per second, moves per second), wall clock."""
    if workers == 1:
        start = time.perf_counter()
        moves = play_deals(deals, seed, players)
        elapsed = time.perf_counter() - start
        return deals / elapsed, moves / elapsed
    shares = [deals // workers + (w < deals % workers) for w in range(workers)]
    jobs = [(share, seed * 1000 + w, players) for w, share in enumerate(shares)]
    with multiprocessing.Pool(workers) as pool:
        pool.map(_job, [(1, 0, players)] * workers)  # start-up is not part of the figure
        start = time.perf_counter()
        moves = sum(pool.map(_job, jobs))
        elapsed = time.perf_counter() - start
    return deals / elapsed, moves / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    deal_rates, move_rates = [], []
    for run in range(args.runs):
        deal_rate, move_rate = timed_run(args.deals, args.seed + run, args.players, args.workers)
        deal_rates.append(deal_rate)
        move_rates.append(move_rate)
        print(f"run {run + 1}: {deal_rate:8.0f} deals/s {move_rate:9.0f} moves/s")
    print(
        f"median of {args.runs} runs ({args.deals} deals each, {args.players} players, "
        f"{args.workers} process{'es' if args.workers > 1 else ''}): "
        f"{statistics.median(deal_rates):.0f} deals/s, "
        f"{statistics.median(move_rates):.0f} moves/s"
    )


if __name__ == "__main__":
    main()
