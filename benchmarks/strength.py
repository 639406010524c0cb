"""Bot strength: match win rates with 95% Wilson intervals, and CPU time per move.

Usage: python benchmarks/strength.py [--pair A B]... [--games N] [--rules NAME]
                                     [--players 2|3|4] [--seed S] [--log FILE]

Plays seeded matches between two bot specs (``A`` against ``B``; default: the strength
ladder below). With 2 or 4 players it seats them exactly as
:func:`chkobba.arena.tournament` does: seats alternate between matches and each pair of
matches shares its shuffles, so both bots deal first equally often and see the same
cards from both seats; every bot is seeded from the seed and the match number. For each
pairing it prints ``A``'s match win rate with its 95% Wilson interval, both bots' points
per deal, and the CPU seconds each bot spent per decision (median and 90th percentile,
decisions with a single legal move excluded), measured inside the matches.

``--rules NAME`` plays under the named profile (``chkobba.PROFILES``: ``tunisian``, the
default, or ``cardrulesplus``); ``--players P`` must be a count it allows (Tunisian: 2
or 4; CardRulesPlus: 2, 3 or 4). With 3 players there are three sides: ``A`` takes one
seat and ``B`` the other two (each seat its own bot). ``A``'s seat rotates 0, 1, 2 over
consecutive matches and each group of three matches shares its shuffles, so ``A`` plays
the same cards from every seat. A match counts as won when ``A``'s side wins, so even
strength is a 1/3 win rate (the summary prints it); ``B``'s points are the mean of its
two sides' totals (the log keeps every side's total too, under ``scores``). This
seating is not :func:`~chkobba.arena.tournament`'s (which gives the first bot of a
3-player match two seats): it measures one bot against a table of the other.

Long runs: ``--log FILE`` appends one JSON line per finished match and, when started
again, skips the matches already in the file (same pairing, seed, players and profile;
a line without ``rules`` is a Tunisian one), so a run can be stopped and resumed, and a
partial run still reports its matches with their interval. A log that cannot serve (a
device or a folder, a folder that is missing or read-only, a broken line before the last)
is refused in one line before the first match (status 2); a last line cut short (the run
killed while writing it, a full disk) is cut off, and its match played again. Ctrl-C ends
the run with one line saying how many matches the log holds (status 130). Run it in the
background at low priority on a shared machine::

    nice -n 10 python benchmarks/strength.py --pair expert ismcts:v1 --games 200 \\
        --log strength-expert-v1.jsonl > strength-expert-v1.txt 2>&1 &

The default ladder (each pairing ``--games`` matches, 2 players):
greedy vs random, ismcts:v1 vs greedy, expert vs greedy, expert vs ismcts:v1.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

from _args import bot_spec, positive
from _runlog import append, interruptible, read

from chkobba import PROFILES, TUNISIAN, Rules
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


class Seating(NamedTuple):
    """Who sits where in one match, and the seeds that play it."""

    seats: tuple[int, ...]  # the entrant at each seat: 0 for A, 1 for B
    a_seat: int  # A's seat (with 4 players, the first of A's two)
    match_seed: int  # the shuffles: shared by the matches of a group
    bot_seed: int  # the bots: each seat's is subseed(bot_seed, seat)


def seating(game: int, seed: int, players: int) -> Seating:
    """Match number ``game``'s seats and seeds.

    With 2 or 4 players, exactly as ``tournament`` (and every earlier log): A and B
    swap seats between matches ``2k`` and ``2k + 1``, which share their shuffles. With
    3 players A sits alone at seat ``game % 3`` and matches ``3k`` to ``3k + 2`` share
    their shuffles, so A plays the same cards from every seat. The bots' seed is each
    match's own, derived from the entrants at seats 0 and 1 as ``tournament`` does.
    """
    if players == 3:
        a_seat, group = game % 3, 3
        seats = tuple(0 if seat == a_seat else 1 for seat in range(3))
    else:
        a_seat, group = game % 2, 2
        seats = (a_seat, 1 - a_seat) * (players // 2)
    return Seating(
        seats=seats,
        a_seat=a_seat,
        match_seed=subseed(seed, 0, 1, game // group),
        bot_seed=subseed(seed, seats[0], seats[1], game),
    )


def play(
    specs: tuple[BotSpec, BotSpec], game: int, seed: int, players: int, rules: Rules = TUNISIAN
) -> dict[str, Any]:
    """Match number ``game`` of the pairing under ``rules``, seated by :func:`seating`."""
    seated = seating(game, seed, players)
    times: tuple[list[float], list[float]] = ([], [])
    bots = [
        Timed(specs[entrant].build(subseed(seated.bot_seed, seat)), times[entrant])
        for seat, entrant in enumerate(seated.seats)
    ]
    result = play_match(bots, seed=seated.match_seed, players=players, dealer=0, rules=rules)
    # Seat s plays for side s % sides, so the first seats name every side's entrant.
    by_side = seated.seats[: len(result.scores)]
    b_points = [points for who, points in zip(by_side, result.scores, strict=True) if who == 1]
    return {
        "pair": [str(specs[0]), str(specs[1])],
        "seed": seed,
        "players": players,
        "rules": rules.name,
        "game": game,
        "seats": list(seated.seats),
        "winner": by_side[result.winner],  # 0: A's side won, 1: a B side won
        "points": [result.scores[seated.a_seat], _mean(b_points)],  # B: mean of its sides
        "scores": list(result.scores),  # every side's total, side by side
        "deals": result.deals,
        "times": [times[0], times[1]],
    }


def _mean(points: list[int]) -> float | int:
    """The mean of B's sides' totals: with 2 or 4 players its one total, as before."""
    return points[0] if len(points) == 1 else sum(points) / len(points)


def run_pair(
    specs: tuple[BotSpec, BotSpec],
    games: int,
    seed: int,
    players: int,
    log: Path | None,
    rules: Rules = TUNISIAN,
) -> list[dict[str, Any]]:
    """Play (or read back from ``log``) the pairing's matches, reporting progress."""
    done = _logged(log, ([str(specs[0]), str(specs[1])], seed, players, rules.name))
    for game in range(games):
        if game in done:
            continue
        match = play(specs, game, seed, players, rules)
        done[game] = match
        if log is not None:
            append(log, match)
        finished = [done[g] for g in sorted(done) if g < games]
        print(f"  ... {summary(specs, finished, players)}", file=sys.stderr, flush=True)
    return [done[g] for g in range(games)]


def _logged(log: Path | None, key: tuple[Any, ...]) -> dict[int, dict[str, Any]]:
    """The matches of ``log`` with this (pair, seed, players, profile), by match number.

    Lines written before ``--rules`` existed have no ``rules``: they are Tunisian ones.
    A log that cannot serve is refused, a last line cut short cut off (``_runlog.read``).
    """
    done: dict[int, dict[str, Any]] = {}
    for match in read(log, ("pair", "seed", "players", "game")):
        rules = match.get("rules", TUNISIAN.name)
        if (match["pair"], match["seed"], match["players"], rules) == key:
            done[match["game"]] = match
    return done


def summary(specs: tuple[BotSpec, BotSpec], matches: list[dict[str, Any]], players: int) -> str:
    """One line: A's wins, rate and interval, points per deal, CPU seconds per move."""
    wins = sum(match["winner"] == 0 for match in matches)
    low, high = wilson_interval(wins, len(matches))
    deals = sum(match["deals"] for match in matches) or 1
    points = [sum(match["points"][i] for match in matches) / deals for i in (0, 1)]
    times = [[t for match in matches for t in match["times"][i]] for i in (0, 1)]
    # With 3 sides A wins a third of its matches against itself: say so next to the rate.
    even = "" if players != 3 else f" (even: {1 / 3:.1%})"
    return (
        f"{specs[0]} vs {specs[1]}: {wins}/{len(matches)} = {wins / len(matches):.1%}{even}"
        f" [95% CI {low:.1%}, {high:.1%}], points/deal {points[0]:.2f} vs {points[1]:.2f},"
        f" s/move {_times(times[0])} vs {_times(times[1])}"
    )


def _times(times: list[float]) -> str:
    if len(times) < 2:
        return "-"
    tenth = statistics.quantiles(times, n=10)[-1]
    return f"median {statistics.median(times):.3f} p90 {tenth:.3f}"


def _check_seating(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse a player count the profile does not allow, as a usage error (exit 2)."""
    allowed = PROFILES[args.rules].players
    if args.players not in allowed:
        counts = ", ".join(map(str, allowed))
        parser.error(f"the {args.rules} profile plays with {counts} players, not {args.players}")


def _head(args: argparse.Namespace, elapsed: float) -> str:
    """The summary line's start: the seating (and the profile, when not the default)."""
    shown = f"{args.players} players"
    if args.rules != TUNISIAN.name:
        shown += f", {args.rules}"
    return f"{shown}, seed {args.seed}, {elapsed:.0f} s"


def main() -> None:
    # --help shows the whole docstring: the seatings and the log are explained there.
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pair", nargs=2, type=bot_spec, action="append", metavar=("A", "B"))
    parser.add_argument("--games", type=positive, default=200, help="matches per pairing")
    parser.add_argument(
        "--rules", default=TUNISIAN.name, choices=sorted(PROFILES), help="the rule profile"
    )
    parser.add_argument(
        "--players",
        type=int,
        choices=(2, 3, 4),
        default=2,
        help="a count the profile allows; with 3, A plays alone against two B seats",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--log", type=Path, default=None, help="JSON lines, one per match")
    args = parser.parse_args()
    _check_seating(parser, args)
    rules = PROFILES[args.rules]
    with interruptible(args.log):
        read(args.log)  # a log that cannot serve is refused before the first match
        for a, b in args.pair or LADDER:
            specs = (BotSpec.parse(a), BotSpec.parse(b))
            start = time.perf_counter()
            matches = run_pair(specs, args.games, args.seed, args.players, args.log, rules)
            elapsed = time.perf_counter() - start
            print(f"{_head(args, elapsed)}: {summary(specs, matches, args.players)}")


if __name__ == "__main__":
    main()
