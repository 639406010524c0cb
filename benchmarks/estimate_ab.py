"""The search's estimate, before and after: ISMCTS against the same search of a revision.

Usage::

    python benchmarks/estimate_ab.py [--rev REV] [--players 2|3] [--games N] [--seed S]
                                     [--iterations K] [--log FILE]

Loads ``chkobba/bots/evaluation.py``, ``_policy_rollout.py`` and ``ismcts.py`` as they
were at the git revision ``REV`` (default ``abaffff``, the last before the estimate read the
profile) beside this tree's modules, and plays CardRulesPlus matches (to 11) between
this tree's ``ISMCTSBot`` (``--iterations``, default 800, the 0.1.0 options otherwise)
and the old one (its defaults). The old search is the whole old rollout and reward:
with three sides it scored a rollout stopped mid-deal by the chkobbas alone, and with two
it counted the bermila, which CardRulesPlus does not score (for everything else the old
modules import this tree's).

The new search takes one seat and the old one every other seat, its seat turning with
each match; each group of ``--players`` consecutive matches shares its shuffles. Every
bot and match is seeded from ``--seed`` and the match number. It prints the new
search's match win rate (even strength: 1/2 with 2 players, 1/3 with 3) with its 95%
Wilson interval, the points per deal of its side and the mean of the others', and both
searches' median CPU seconds per decision. ``--log FILE`` appends one JSON line per match
(with ``--rev``) and resumes from the lines of the same revision and settings. A log
that cannot serve is refused before the first match, a last line cut short is cut off,
and Ctrl-C ends the run with one line (status 130), as ``strength.py`` does. The
figures of docs/strength.md ("Three players, and the other profile")::

    python benchmarks/estimate_ab.py --players 3 --games 150 --seed 2026
    python benchmarks/estimate_ab.py --players 3 --games 150 --seed 2027 --iterations 650
    python benchmarks/estimate_ab.py --players 2 --games 200 --seed 2026
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from _args import positive
from _runlog import append, interruptible, read

from chkobba import CARD_RULES_PLUS, Rules
from chkobba.arena import play_match, subseed, wilson_interval
from chkobba.bots import ISMCTSBot

ROOT = Path(__file__).resolve().parent.parent


#: The modules of the old search, loaded in this order: each imports the one before.
OLD_MODULES = ("evaluation", "_policy_rollout", "ismcts")


def old_search(rev: str) -> type[ISMCTSBot]:
    """The ``ISMCTSBot`` class of revision ``rev``, with that revision's rollout and
    estimate (this tree's modules for everything else)."""
    saved = {f"chkobba.bots.{name}": sys.modules[f"chkobba.bots.{name}"] for name in OLD_MODULES}
    try:
        with tempfile.TemporaryDirectory(prefix="chkobba-ab-") as folder:
            for name in OLD_MODULES:
                source = subprocess.run(
                    ["git", "show", f"{rev}:src/chkobba/bots/{name}.py"],
                    cwd=ROOT,
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                path = Path(folder) / f"old_{name}.py"
                path.write_text(source)
                # The next old module's imports find this one in its place.
                sys.modules[f"chkobba.bots.{name}"] = _load(f"old_{name}", path)
            old: type[ISMCTSBot] = sys.modules["chkobba.bots.ismcts"].ISMCTSBot
    finally:
        sys.modules.update(saved)
    return old


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: strength.py's bot wrapper that times each decision with a real choice.
Timed = _load("strength_timed", ROOT / "benchmarks" / "strength.py").Timed


def play(
    old: type[ISMCTSBot], game: int, seed: int, players: int, iterations: int, rules: Rules
) -> dict[str, Any]:
    """Match number ``game``: the new search at seat ``game % players``."""
    seat = game % players
    new_times: list[float] = []
    old_times: list[float] = []
    bots = [
        Timed(ISMCTSBot(iterations=iterations, seed=subseed(seed, game, s)), new_times)
        if s == seat
        else Timed(old(seed=subseed(seed, game, s)), old_times)
        for s in range(players)
    ]
    result = play_match(
        bots, seed=subseed(seed, game // players), players=players, dealer=0, rules=rules
    )
    sides = len(result.scores)
    return {
        "game": game,
        "seed": seed,
        "players": players,
        "iterations": iterations,
        "new_seat": seat,
        "new_won": result.winner is not None and result.winner % sides == seat % sides,
        "scores": list(result.scores),
        "deals": result.deals,
        "new_times": new_times,
        "old_times": old_times,
    }


def summary(matches: list[dict[str, Any]]) -> str:
    """The new search's wins, interval, points per deal and both searches' times."""
    wins = sum(match["new_won"] for match in matches)
    low, high = wilson_interval(wins, len(matches))
    deals = sum(match["deals"] for match in matches) or 1
    mine = sum(m["scores"][m["new_seat"] % len(m["scores"])] for m in matches)
    others = sum(
        (sum(m["scores"]) - m["scores"][m["new_seat"] % len(m["scores"])]) / (len(m["scores"]) - 1)
        for m in matches
    )
    new = [t for m in matches for t in m["new_times"]]
    old = [t for m in matches for t in m["old_times"]]
    even = 1 / len(matches[0]["scores"])
    return (
        f"new won {wins}/{len(matches)} = {wins / len(matches):.1%} (even: {even:.1%})"
        f" [95% CI {low:.1%}, {high:.1%}], points/deal {mine / deals:.2f} vs"
        f" {others / deals:.2f}, s/move median {_median(new)} vs {_median(old)}"
    )


def _median(times: list[float]) -> str:
    return f"{statistics.median(times):.3f}" if times else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--rev", default="abaffff")
    parser.add_argument("--players", type=int, choices=(2, 3), default=3)
    parser.add_argument("--games", type=positive, default=150)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--iterations", type=positive, default=800)
    parser.add_argument("--log", type=Path, default=None)
    args = parser.parse_args()
    with interruptible(args.log):
        _run(parser, args)


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    try:
        old = old_search(args.rev)
    except subprocess.CalledProcessError as error:  # git knows no such revision or file
        parser.error(f"--rev {args.rev}: {error.stderr.strip() or 'git show failed'}")
    except OSError as error:  # no git at all
        parser.error(f"--rev {args.rev}: cannot run git: {error}")
    # A line resumes only a run against the same revision with the same settings.
    key = (args.rev, args.seed, args.players, args.iterations)
    done: dict[int, dict[str, Any]] = {}
    # A log that cannot serve is refused here, before any match.
    for match in read(args.log, ("seed", "players", "iterations", "game")):
        if (match.get("rev"), match["seed"], match["players"], match["iterations"]) == key:
            done[match["game"]] = match
    for game in range(args.games):
        if game not in done:
            done[game] = play(old, game, args.seed, args.players, args.iterations, CARD_RULES_PLUS)
            done[game]["rev"] = args.rev
            if args.log is not None:
                append(args.log, done[game])
            print(f"  ... {summary([done[g] for g in sorted(done)])}", file=sys.stderr, flush=True)
    print(summary([done[g] for g in range(args.games)]))


if __name__ == "__main__":
    main()
