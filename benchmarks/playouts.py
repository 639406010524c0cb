"""Random playouts: complete 2-player deals driven by ``legal_moves`` + ``apply``.

Usage: python benchmarks/playouts.py [--deals N] [--runs R] [--seed S] [--players P]

Each run plays N whole deals (shuffle, cut, every play, scoring) from fresh matches,
choosing uniformly among the legal moves; the script prints deals/s and moves/s for each
run and the median over the runs. The capture caches start empty in every run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from chkobba import Phase, apply, legal_moves, new_match, random_shuffle
from chkobba.engine import clear_caches


def play_deals(deals: int, rng: random.Random, players: int) -> int:
    """Play ``deals`` complete random deals; return the number of moves applied."""
    moves = 0
    for _ in range(deals):
        state = new_match(players)
        while not state.deal_scores:
            if state.phase is Phase.SHUFFLE:
                state = apply(state, random_shuffle(rng))
            else:
                state = apply(state, rng.choice(legal_moves(state)))
            moves += 1
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    args = parser.parse_args()
    deal_rates, move_rates = [], []
    for run in range(args.runs):
        clear_caches()
        rng = random.Random(args.seed + run)
        start = time.perf_counter()
        moves = play_deals(args.deals, rng, args.players)
        elapsed = time.perf_counter() - start
        deal_rates.append(args.deals / elapsed)
        move_rates.append(moves / elapsed)
        print(f"run {run + 1}: {deal_rates[-1]:8.0f} deals/s {move_rates[-1]:9.0f} moves/s")
    print(
        f"median of {args.runs} runs ({args.deals} deals each, {args.players} players): "
        f"{statistics.median(deal_rates):.0f} deals/s, "
        f"{statistics.median(move_rates):.0f} moves/s"
    )


if __name__ == "__main__":
    main()
