"""Random playouts: the step API (``legal_moves`` + ``apply``) and ``rollout``, side by side.

Usage::

    python benchmarks/playouts.py [--deals N] [--runs R] [--seed S] [--players P]
                                  [--rules NAME] [--workers K] [--compare REV [--installed]]
    python benchmarks/playouts.py --only step|rollout [--warmup W] [--deals N]
                                  [--players P] [--rules NAME]

Each run measures four figures, in deals per second, each over N whole random deals
(shuffle, cut, every play, scoring) from fresh matches:

- ``step cold`` / ``step warm``: a loop of ``apply(state, rng.choice(legal_moves(state)))``
  (and ``random_shuffle`` at the chance node), the way a user drives the engine, with the
  engine's caches emptied first (cold) or filled by a previous N deals (warm);
- ``rollout cold`` / ``rollout warm``: ``chkobba.rollout(new_match(P), rng)`` N times.

``--rules NAME`` plays under the named profile (``chkobba.PROFILES``: ``tunisian``, the
default, or ``cardrulesplus``); ``--players P`` must be a count it allows (Tunisian: 2
or 4; CardRulesPlus: 2, 3 or 4). Every deal has 36 plays whatever the seating (the
four cards first laid on the table are the only ones never played), plus a shuffle, a
cut in profiles with one, and a reshuffle per voided deal: per play, the cost of a
deal is its cost divided by 36, which compares seatings and profiles fairly.

The last lines are the medians over the runs. With ``--workers K`` the deals of each figure
are split over K processes (the engine is pure, so playouts parallelise perfectly).

``--compare REV`` checks out the git revision REV in a temporary worktree and alternates
runs of this tree and of REV, each in a fresh process that imports ``chkobba`` from its
own ``src`` (so machine drift hits both alike), then prints both medians and their ratio,
and the median and spread of each run's own ratio (its two sides measured seconds
apart: steadier when the machine's speed drifts between runs, and the spread shows how
far to trust the figure). A revision without ``rollout`` shows ``n/a`` there. With
``--installed`` this side imports the ``chkobba`` installed in the running interpreter
instead of this tree's ``src``: run it with the Python of a venv holding the compiled
build (``CHKOBBA_MYPYC=1``, see the README) to compare that build with REV's pure Python.

Wall-clock rates on a shared machine drift by tens of percent from minute to minute. For a
figure that does not drift, count instructions instead (valgrind's callgrind counts the
same total on every run): ``--only step`` (or ``rollout``) plays ``--warmup W`` deals and
then ``--deals N`` deals of that workload and nothing else; run it under
``PYTHONHASHSEED=0 valgrind --tool=callgrind`` for N and for 0 and divide the difference
by N (``docs/performance.md`` has the figures)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python benchmarks/playouts.py --only rollout --warmup 2000 --deals 300

With ``PYTHONPATH=`` another tree's ``src`` the same command counts that revision.
Between two revisions, a difference under about 2% may be the memory layout alone: the
cards hash by identity and CPython's type attribute cache is indexed by addresses too, so
anything that allocates differently (other code, other arguments, other environment
variables, the hash seed) moves them, which changes dict and cache collisions. Compare
medians over a few layouts, launched the same way: the figures of
``docs/performance.md`` are medians over ``PYTHONHASHSEED=0`` to ``3`` (one revision's
``rollout`` gave 387.9k to 395.3k instructions per deal over those four, another's
409.1k to 410.4k).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from _args import at_least_zero, positive

import chkobba
from chkobba import PROFILES, TUNISIAN, Phase, Rules, apply, legal_moves, new_match, random_shuffle
from chkobba.engine import clear_caches

_SHUFFLE = Phase.SHUFFLE
FIGURES = ("step cold", "step warm", "rollout cold", "rollout warm")


def play_deals(deals: int, seed: int, players: int = 2, rules: Rules = TUNISIAN) -> int:
    """Play ``deals`` complete random deals with the step API; return the moves applied."""
    rng = random.Random(seed)
    choose = rng.choice
    moves = 0
    for _ in range(deals):
        state = new_match(players, rules=rules)
        while not state.deal_scores:
            if state.phase is _SHUFFLE:
                state = apply(state, random_shuffle(rng))
            else:
                state = apply(state, choose(legal_moves(state)))
            moves += 1
    return moves


def rollout_deals(deals: int, seed: int, players: int = 2, rules: Rules = TUNISIAN) -> int:
    """Play ``deals`` complete random deals with ``chkobba.rollout``; return ``deals``."""
    rollout = chkobba.rollout  # type: ignore[attr-defined,unused-ignore]
    rng = random.Random(seed)
    start = new_match(players, rules=rules)
    for _ in range(deals):
        rollout(start, rng)
    return deals


WORKLOADS: dict[str, Callable[[int, int, int, Rules], int]] = {
    "step": play_deals,
    "rollout": rollout_deals,
}


def _job(job: tuple[str, int, int, int, str, bool]) -> float:
    """Seconds for one workload in this process (caches emptied, then warmed if asked);
    the profile travels by name (a worker process looks it up in its own chkobba)."""
    kind, deals, seed, players, name, warm = job
    rules = PROFILES[name]
    clear_caches()
    if warm:
        WORKLOADS[kind](deals, seed + 1, players, rules)
    start = time.perf_counter()
    WORKLOADS[kind](deals, seed, players, rules)
    return time.perf_counter() - start


def timed(
    kind: str, deals: int, seed: int, players: int, rules: str, workers: int, warm: bool
) -> float:
    """Deals per second of one workload (wall clock; warm-up excluded)."""
    if workers == 1:
        return deals / _job((kind, deals, seed, players, rules, warm))
    shares = [deals // workers + (w < deals % workers) for w in range(workers)]
    jobs = [(kind, share, seed * 1000 + w, players, rules, warm) for w, share in enumerate(shares)]
    with multiprocessing.Pool(workers) as pool:
        pool.map(_job, [(kind, 1, 0, players, rules, False)] * workers)  # start-up excluded
        return deals / max(pool.map(_job, jobs))  # the slowest worker ends the run


def one_run(
    deals: int, seed: int, players: int, workers: int, rules: str = TUNISIAN.name
) -> dict[str, float | None]:
    """The four figures of one run (``None`` where this chkobba has no ``rollout``)."""
    figures: dict[str, float | None] = {}
    for name in FIGURES:
        kind, temperature = name.split()
        if kind == "rollout" and not hasattr(chkobba, "rollout"):
            figures[name] = None
            continue
        warm = temperature == "warm"
        figures[name] = timed(kind, deals, seed, players, rules, workers, warm)
    return figures


def _shown(rate: float | None) -> str:
    return "     n/a" if rate is None else f"{rate:8.0f}"


def _median(rates: list[float | None]) -> float | None:
    known = [r for r in rates if r is not None]
    return statistics.median(known) if known else None


def _child(tree: Path | None, args: argparse.Namespace, seed: int) -> dict[str, float | None]:
    """One run in a fresh process importing chkobba from ``tree``'s src (``None``: the
    chkobba installed in this interpreter)."""
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        f"--deals={args.deals}",
        f"--seed={seed}",
        f"--players={args.players}",
        f"--rules={args.rules}",
        f"--workers={args.workers}",
    ]
    done = subprocess.run(command, env=child_env(tree), capture_output=True, text=True)
    if done.returncode != 0:
        # The revision's own error (a profile or seating it does not have, say), not a
        # traceback of this process that hides it.
        where = "this tree" if tree is None else str(tree)
        lines = done.stderr.strip().splitlines() or ["(no message)"]
        raise SystemExit(f"playouts.py: a run of {where} failed: {lines[-1]}")
    result: dict[str, float | None] = json.loads(done.stdout.splitlines()[-1])
    return result


def child_env(tree: Path | None) -> dict[str, str]:
    """The environment of a child process that imports chkobba from ``tree``'s src
    (``None``: the chkobba installed in the interpreter)."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    if tree is not None:
        env["PYTHONPATH"] = str(tree / "src")
    return env


def _imported(tree: Path | None) -> str:
    """Which chkobba a child imports, and whether its rollout loop is compiled."""
    code = "import chkobba._kernel as k; print(k.__file__)"
    where = subprocess.run(
        [sys.executable, "-c", code],
        env=child_env(tree),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return f"{where} ({'compiled' if not where.endswith('.py') else 'pure Python'})"


@contextlib.contextmanager
def revision_tree(revision: str, script: str) -> Iterator[Path]:
    """A temporary git worktree of ``revision`` of this repository, removed afterwards; a
    revision git does not know ends ``script`` with a usage error, not git's traceback."""
    here = Path(__file__).resolve().parent.parent
    known = subprocess.run(
        ["git", "-C", str(here), "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    if known.returncode != 0:
        print(
            f"{script}: error: --compare {revision!r} is not a revision of {here}", file=sys.stderr
        )
        raise SystemExit(2)  # argparse's status for a usage error
    with tempfile.TemporaryDirectory() as scratch:
        other = Path(scratch) / "rev"
        subprocess.run(
            ["git", "-C", str(here), "worktree", "add", "--detach", str(other), revision],
            check=True,
            capture_output=True,
        )
        try:
            yield other
        finally:
            subprocess.run(
                ["git", "-C", str(here), "worktree", "remove", "--force", str(other)],
                check=False,
                capture_output=True,
            )


def compare(args: argparse.Namespace) -> None:
    """Alternate runs of this tree and of revision ``args.compare``; print the ratios."""
    with revision_tree(args.compare, "playouts.py") as other:
        ours: list[dict[str, float | None]] = []
        theirs: list[dict[str, float | None]] = []
        this_tree = None if args.installed else Path(__file__).resolve().parent.parent
        print(f"this side: {_imported(this_tree)}")
        for run in range(args.runs):
            seed = args.seed + run
            pair: list[tuple[list[dict[str, float | None]], Path | None]]
            pair = [(ours, this_tree), (theirs, other)]
            for results, tree in pair if run % 2 == 0 else pair[::-1]:
                results.append(_child(tree, args, seed))
            print(
                f"run {run + 1}: "
                + "  ".join(
                    f"{name} {_shown(ours[-1][name])} vs {_shown(theirs[-1][name])}"
                    for name in FIGURES
                )
            )
    print(
        f"medians of {args.runs} alternating runs ({args.deals} deals each, "
        f"{_seating(args)}), deals/s: this tree | {args.compare} | ratio | "
        "each run's ratio: median (lowest-highest)"
    )
    for name in FIGURES:
        mine = [r[name] for r in ours]
        old = [r[name] for r in theirs]
        best, base = _median(mine), _median(old)
        ratio = f"{best / base:5.2f}x" if best and base else "  n/a"
        print(f"  {name:13} {_shown(best)} | {_shown(base)} | {ratio} | {run_ratios(mine, old)}")
    old_step = [r["step warm"] for r in theirs]
    new_rollout = [r["rollout warm"] for r in ours]
    best, base = _median(new_rollout), _median(old_step)
    if best and base:
        print(
            f"  rollout warm (this tree) / step warm ({args.compare}): "
            f"{best / base:5.2f}x | {run_ratios(new_rollout, old_step)}"
        )


def run_ratios(mine: Sequence[float | None], old: Sequence[float | None]) -> str:
    """The ratio of each run's two figures (measured a few seconds apart), as median
    (lowest-highest): steadier than the ratio of two medians when the machine's speed
    drifts between runs, and the spread shows how far to trust it."""
    ratios = sorted(a / b for a, b in zip(mine, old, strict=True) if a and b)
    if not ratios:
        return "n/a"
    return f"{statistics.median(ratios):.2f}x ({ratios[0]:.2f}-{ratios[-1]:.2f}x)"


def _seating(args: argparse.Namespace) -> str:
    """The players (and the profile, when not the default) the summary line names."""
    shown = f"{args.players} players"
    return shown if args.rules == TUNISIAN.name else f"{shown}, {args.rules}"


def check_seating(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse a player count the profile does not allow, as a usage error (exit 2)."""
    allowed = PROFILES[args.rules].players
    if args.players not in allowed:
        counts = ", ".join(map(str, allowed))
        parser.error(f"the {args.rules} profile plays with {counts} players, not {args.players}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--deals", type=at_least_zero, default=3000)
    parser.add_argument("--runs", type=positive, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument(
        "--rules", default=TUNISIAN.name, choices=sorted(PROFILES), help="the rule profile"
    )
    parser.add_argument("--workers", type=positive, default=1)
    parser.add_argument("--compare", metavar="REV", help="a git revision to run side by side")
    parser.add_argument(
        "--installed",
        action="store_true",
        help="with --compare: this side imports the installed chkobba, not this tree's src",
    )
    parser.add_argument(
        "--only",
        choices=sorted(WORKLOADS),
        help="play --warmup deals, then --deals deals, of this workload and nothing else "
        "(for counting instructions under callgrind)",
    )
    parser.add_argument("--warmup", type=at_least_zero, default=0, help="with --only: deals first")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    check_seating(parser, args)
    if args.deals == 0 and not args.only:  # 0 is the base callgrind subtracts, with --only
        parser.error("argument --deals: 0 deals is a base to count with --only, not a timed run")
    if args.only:
        rules = PROFILES[args.rules]
        WORKLOADS[args.only](args.warmup, args.seed + 1, args.players, rules)
        WORKLOADS[args.only](args.deals, args.seed, args.players, rules)
        return
    if args.child:
        print(json.dumps(one_run(args.deals, args.seed, args.players, args.workers, args.rules)))
        return
    if args.compare:
        compare(args)
        return
    runs = []
    for run in range(args.runs):
        runs.append(one_run(args.deals, args.seed + run, args.players, args.workers, args.rules))
        print(f"run {run + 1}: " + "  ".join(f"{n} {_shown(runs[-1][n])}" for n in FIGURES))
    processes = f"{args.workers} process{'es' if args.workers > 1 else ''}"
    print(
        f"medians of {args.runs} runs ({args.deals} deals each, {_seating(args)}, "
        f"{processes}), deals/s: "
        + ", ".join(
            f"{name} {_shown(_median([r[name] for r in runs])).strip()}" for name in FIGURES
        )
    )


if __name__ == "__main__":
    main()
