"""Bot strength: match win rates with 95% Wilson intervals, and ISMCTS move times.

Usage: python benchmarks/strength.py [--games N] [--ismcts-games M] [--seed S]
                                     [--workers K] [--ismcts SPEC] [--skip-timing]

Plays seeded 2-player matches (pairs of matches share their shuffles with the seats
swapped, so both bots deal first and see the same cards from both seats) and prints each
bot's match win rate with its 95% confidence interval and its average points per deal:

* GreedyBot against RandomBot (target: GreedyBot wins at least 85% of matches);
* ISMCTSBot (default budget) against GreedyBot (target: at least 60%).

It also times ISMCTSBot's decisions (CPU time of this process) over positions from
random deals, the deal's first play being the slowest: the default budget should keep a
move under about half a second on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from chkobba import Cut, Phase, apply, legal_moves, new_match, observe, random_shuffle
from chkobba.arena import TournamentResult, tournament
from chkobba.bots import BotSpec


def progress(done: int, total: int) -> None:
    """A line on stderr every tenth of the way (long runs take a while)."""
    if done % max(1, total // 10) == 0 or done == total:
        print(f"  ... {done}/{total} matches", file=sys.stderr, flush=True)


def report(title: str, result: TournamentResult, target: float, elapsed: float) -> None:
    winner = result.bots[0]
    verdict = "meets" if winner.win_rate >= target else "MISSES"
    print(f"\n{title}: {len(result.matches)} matches, seed {result.seed}, {elapsed:.0f} s")
    for bot in result.bots:
        print(
            f"  {bot.name:<28} wins {bot.wins:>4}/{bot.games:<4} = {bot.win_rate:6.1%}"
            f"  95% CI [{bot.ci_low:.1%}, {bot.ci_high:.1%}]"
            f"  points/deal {bot.points_per_deal:.2f}"
        )
    print(f"  -> {winner.name} {verdict} the target of {target:.0%}")


def time_moves(spec: BotSpec, deals: int, seed: int) -> None:
    """CPU seconds per ISMCTS decision over the first plays of random deals."""
    rng = random.Random(seed)
    times, first = [], []
    for deal in range(deals):
        state = apply(new_match(), random_shuffle(rng))
        state = apply(state, Cut(keep=False))
        plays = 0
        while state.phase is Phase.PLAY and plays < 6:
            player = state.current_player
            assert player is not None
            legal = legal_moves(state)
            bot = spec.build(seed=deal)
            start = time.process_time()
            move = bot.choose(observe(state, player), legal)
            spent = time.process_time() - start
            if len(legal) > 1:
                times.append(spent)
                if plays == 0:
                    first.append(spent)
            state = apply(state, move)
            plays += 1
    print(f"\nISMCTS move time ({spec}), CPU seconds over {len(times)} decisions:")
    print(
        f"  median {statistics.median(times):.3f}  mean {statistics.mean(times):.3f}"
        f"  max {max(times):.3f}  first play of a deal: median {statistics.median(first):.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="greedy vs random matches")
    parser.add_argument("--ismcts-games", type=int, default=100, help="ismcts vs greedy matches")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ismcts", default="ismcts", help="the ISMCTS spec to measure")
    parser.add_argument("--skip-timing", action="store_true")
    args = parser.parse_args()
    ismcts = BotSpec.parse(args.ismcts)
    if not args.skip_timing:
        time_moves(ismcts, deals=10, seed=args.seed)
    if args.games:
        start = time.perf_counter()
        result = tournament(
            ["greedy", "random"], games=args.games, seed=args.seed, workers=args.workers
        )
        report("GreedyBot vs RandomBot", result, 0.85, time.perf_counter() - start)
    if args.ismcts_games:
        start = time.perf_counter()
        result = tournament(
            [ismcts, "greedy"],
            games=args.ismcts_games,
            seed=args.seed,
            workers=args.workers,
            progress=progress,
        )
        report("ISMCTSBot vs GreedyBot", result, 0.60, time.perf_counter() - start)


if __name__ == "__main__":
    main()
