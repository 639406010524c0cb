"""Bot strength: match win rates with 95% Wilson intervals, and CPU time per move.

Usage: python benchmarks/strength.py [--pair A B]... [--games N] [--players 2|4]
                                     [--seed S] [--log FILE]

Plays seeded matches between two bot specs (``A`` against ``B``; default: the strength
ladder below) exactly as :func:`chkobba.arena.tournament` seats them: seats alternate
between matches and each pair of matches shares its shuffles, so both bots deal first
equally often and see the same cards from both seats; every bot is seeded from the
seed and the match number. For each pairing it prints ``A``'s match win rate with its 95%
Wilson interval, both bots' points per deal, and the CPU seconds each bot spent per
decision (median and 90th percentile, decisions with a single legal move excluded),
measured inside the matches.

Long runs: ``--log FILE`` appends one JSON line per finished match and, when started
again, skips the matches already in the file (same pairing, seed and players), so a run
can be stopped and resumed, and a partial run still reports its matches with their
interval. Run it in the background at low priority on a shared machine::

    nice -n 10 python benchmarks/strength.py --pair expert ismcts:v1 --games 200 \\
        --log strength-expert-v1.jsonl > strength-expert-v1.txt 2>&1 &

The default ladder (each pairing ``--games`` matches, 2 players):
greedy vs random, ismcts:v1 vs greedy, expert vs greedy, expert vs ismcts:v1.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from chkobba.arena import play_match, subseed, wilson_interval
from chkobba.bots import BotSpec
from chkobba.moves import Move
from chkobba.views import PlayerView

LADDER = [
    ("greedy", "random"),
    ("ismcts:v1", "greedy"),
    ("expert", "greedy"),
    ("expert", "ismcts:v1"),
]


class Timed:
    """A bot that records the CPU time of every decision with a real choice."""

    def __init__(self, bot: Any, times: list[float]) -> None:
        self.bot = bot
        self.times = times

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        start = time.process_time()
        move: Move = self.bot.choose(view, legal)
        if len(legal) > 1:
            self.times.append(time.process_time() - start)
        return move


def play(specs: tuple[BotSpec, BotSpec], game: int, seed: int, players: int) -> dict[str, Any]:
    """Match number ``game`` of the pairing, seeded exactly as ``tournament`` does."""
    first, second = (0, 1) if game % 2 == 0 else (1, 0)
    bot_seed = subseed(seed, first, second, game)
    seats = [first, second] * (players // 2)
    times: tuple[list[float], list[float]] = ([], [])
    bots = [
        Timed(specs[entrant].build(subseed(bot_seed, seat)), times[entrant])
        for seat, entrant in enumerate(seats)
    ]
    result = play_match(bots, seed=subseed(seed, 0, 1, game // 2), players=players, dealer=0)
    return {
        "pair": [str(specs[0]), str(specs[1])],
        "seed": seed,
        "players": players,
        "game": game,
        "winner": seats[result.winner],  # 0: A won, 1: B won
        "points": [result.scores[seats.index(0)], result.scores[seats.index(1)]],
        "deals": result.deals,
        "times": [times[0], times[1]],
    }


def run_pair(
    specs: tuple[BotSpec, BotSpec], games: int, seed: int, players: int, log: Path | None
) -> list[dict[str, Any]]:
    """Play (or read back from ``log``) the pairing's matches, reporting progress."""
    key = ([str(specs[0]), str(specs[1])], seed, players)
    done: dict[int, dict[str, Any]] = {}
    if log is not None and log.exists():
        for line in log.read_text().splitlines():
            match = json.loads(line)
            if (match["pair"], match["seed"], match["players"]) == key:
                done[match["game"]] = match
    for game in range(games):
        if game in done:
            continue
        match = play(specs, game, seed, players)
        done[game] = match
        if log is not None:
            with log.open("a") as file:
                file.write(json.dumps(match) + "\n")
        finished = [done[g] for g in sorted(done) if g < games]
        print(f"  ... {summary(specs, finished)}", file=sys.stderr, flush=True)
    return [done[g] for g in range(games)]


def summary(specs: tuple[BotSpec, BotSpec], matches: list[dict[str, Any]]) -> str:
    """One line: A's wins, rate and interval, points per deal, CPU seconds per move."""
    wins = sum(match["winner"] == 0 for match in matches)
    low, high = wilson_interval(wins, len(matches))
    deals = sum(match["deals"] for match in matches) or 1
    points = [sum(match["points"][i] for match in matches) / deals for i in (0, 1)]
    times = [[t for match in matches for t in match["times"][i]] for i in (0, 1)]
    return (
        f"{specs[0]} vs {specs[1]}: {wins}/{len(matches)} = {wins / len(matches):.1%}"
        f" [95% CI {low:.1%}, {high:.1%}], points/deal {points[0]:.2f} vs {points[1]:.2f},"
        f" s/move {_times(times[0])} vs {_times(times[1])}"
    )


def _times(times: list[float]) -> str:
    if len(times) < 2:
        return "-"
    tenth = statistics.quantiles(times, n=10)[-1]
    return f"median {statistics.median(times):.3f} p90 {tenth:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pair", nargs=2, action="append", metavar=("A", "B"))
    parser.add_argument("--games", type=int, default=200, help="matches per pairing")
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--log", type=Path, default=None, help="JSON lines, one per match")
    args = parser.parse_args()
    for a, b in args.pair or LADDER:
        specs = (BotSpec.parse(a), BotSpec.parse(b))
        start = time.perf_counter()
        matches = run_pair(specs, args.games, args.seed, args.players, args.log)
        elapsed = time.perf_counter() - start
        head = f"{args.players} players, seed {args.seed}, {elapsed:.0f} s"
        print(f"{head}: {summary(specs, matches)}")


if __name__ == "__main__":
    main()
