"""Steps per second of the game-AI adapters: PettingZoo, Gymnasium and OpenSpiel.

Usage::

    python benchmarks/env_steps.py [--env NAME ...] [--steps N] [--runs R] [--seed S]
                                   [--players P] [--warmup W] [--compare REV]
    python benchmarks/env_steps.py --only NAME [--warmup W] [--steps N] [--players P]

Each adapter is driven the way a learning loop drives it, every agent choosing uniformly
among the legal actions (a ``random.Random`` seeded with S, a fresh episode as the last
one ends), and the figure is the steps a second:

- ``pettingzoo``: ``env(players=P)`` (PettingZoo's wrappers included) through
  ``agent_iter``, ``last()`` (the observation and its action mask) and ``step``; a step
  is one player's action (a done agent's ``step(None)`` does not count);
- ``gymnasium``: ``ChkobbaEnv("random", players=P)``; a step is the learner's ``step``
  (its action, with the mask from ``info``), which also plays the random opponents'
  moves up to the learner's next turn: about twice a PettingZoo step's work with 2
  players;
- ``openspiel``: ``python_chkobba`` with ``players=P``; a step is the player to move
  reading its ``observation_tensor`` and applying an action. Chance nodes (the deal, card
  by card) are sampled from ``chance_outcomes`` and do not count.

An adapter whose extra is not installed is left out, with a line that says so (none
installed ends the script with status 1). After
``--warmup W`` steps of each (its imports and the engine's caches), each run plays N
steps of each adapter in turn; the last lines are the medians over the runs.

``--compare REV`` checks out the git revision REV in a temporary worktree and alternates
runs of this tree and of REV, each in a fresh process that imports ``chkobba`` from its
own ``src`` (as ``benchmarks/playouts.py --compare`` does), then prints both medians,
their ratio, and the median and spread of each run's own ratio.

Wall-clock rates drift on a shared machine; the figure that does not is the count of
instructions: ``--only NAME`` plays ``--warmup W`` steps and then ``--steps N`` of that
adapter and nothing else. Run it under callgrind for N and for 0 and divide the
difference by N (``docs/performance.md`` has the figures)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/env_steps.py --only pettingzoo --warmup 1000 --steps 2000

With ``PYTHONPATH=`` another tree's ``src`` the same command counts that revision.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from _args import at_least_zero, positive
from playouts import child_env, revision_tree, run_ratios

ENVS = ("pettingzoo", "gymnasium", "openspiel")
#: The package each adapter needs, beside numpy.
_NEEDS = {"pettingzoo": "pettingzoo", "gymnasium": "gymnasium", "openspiel": "pyspiel"}


def pettingzoo_decisions(decisions: int, seed: int, players: int) -> None:
    """``decisions`` random decisions through PettingZoo's AEC loop."""
    from chkobba.pettingzoo import env

    rng = random.Random(seed)
    game = env(players=players)
    game.reset(seed=seed)
    made = 0
    while made < decisions:
        for _agent in game.agent_iter():
            observation, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            game.step(rng.choice(observation["action_mask"].nonzero()[0].tolist()))
            made += 1
            if made == decisions:
                return
        game.reset()


def gymnasium_decisions(decisions: int, seed: int, players: int) -> None:
    """``decisions`` random steps of the learner (its opponents play inside them)."""
    from chkobba.gymnasium import ChkobbaEnv

    rng = random.Random(seed)
    environment = ChkobbaEnv("random", players=players, illegal_action="raise")  # masked steps
    _, info = environment.reset(seed=seed)
    made = 0
    while made < decisions:
        action = rng.choice(info["action_mask"].nonzero()[0].tolist())
        _, _, terminated, truncated, info = environment.step(action)
        made += 1
        if terminated or truncated:
            _, info = environment.reset()


def openspiel_decisions(decisions: int, seed: int, players: int) -> None:
    """``decisions`` random decisions of ``python_chkobba``, chance sampled."""
    import pyspiel

    import chkobba.openspiel  # noqa: F401 (registers python_chkobba)

    rng = random.Random(seed)
    game = pyspiel.load_game("python_chkobba", {"players": players})
    state = game.new_initial_state()
    made = 0
    while made < decisions:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            made += 1


WORKLOADS: dict[str, Callable[[int, int, int], None]] = {
    "pettingzoo": pettingzoo_decisions,
    "gymnasium": gymnasium_decisions,
    "openspiel": openspiel_decisions,
}


def installed(name: str) -> bool:
    """Whether the adapter ``name`` can run here (its extra is installed)."""
    return all(importlib.util.find_spec(module) for module in (_NEEDS[name], "numpy"))


def rate(name: str, decisions: int, seed: int, players: int) -> float:
    """Steps per second of one adapter (wall clock)."""
    start = time.perf_counter()
    WORKLOADS[name](decisions, seed, players)
    return decisions / (time.perf_counter() - start)


def one_run(names: list[str], steps: int, seed: int, players: int) -> dict[str, float]:
    """Steps per second of each adapter in ``names``, one after the other."""
    return {name: rate(name, steps, seed, players) for name in names}


def _child(tree: Path, args: argparse.Namespace, names: list[str], seed: int) -> dict[str, float]:
    """One run in a fresh process importing chkobba from ``tree``'s src."""
    command = [sys.executable, str(Path(__file__).resolve()), "--child", "--env", *names]
    command += [f"--steps={args.steps}", f"--seed={seed}", f"--players={args.players}"]
    command += [f"--warmup={args.warmup}"]
    done = subprocess.run(command, env=child_env(tree), capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return result


def compare(args: argparse.Namespace, names: list[str]) -> None:
    """Alternate runs of this tree and of revision ``args.compare``; print the ratios."""
    ours: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    with revision_tree(args.compare, "env_steps.py") as other:
        here = Path(__file__).resolve().parent.parent
        for run in range(args.runs):
            pair = [(ours, here), (theirs, other)]
            for results, tree in pair if run % 2 == 0 else pair[::-1]:
                results.append(_child(tree, args, names, args.seed + run))
            shown = (f"{n} {ours[-1][n]:,.0f} vs {theirs[-1][n]:,.0f}" for n in names)
            print(f"run {run + 1}: " + ", ".join(shown))
    print(
        f"medians of {args.runs} alternating runs ({args.steps} steps each, {args.players} "
        f"players), steps/s: this tree | {args.compare} | ratio | each run's ratio"
    )
    for name in names:
        mine, old = [r[name] for r in ours], [r[name] for r in theirs]
        best, base = statistics.median(mine), statistics.median(old)
        spread = run_ratios(mine, old)
        print(f"  {name:10} {best:8,.0f} | {base:8,.0f} | {best / base:5.2f}x | {spread}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--env", nargs="+", choices=ENVS, default=list(ENVS))
    parser.add_argument("--steps", type=at_least_zero, default=5000)
    parser.add_argument("--runs", type=positive, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument("--compare", metavar="REV", help="a git revision to run side by side")
    parser.add_argument("--only", choices=ENVS, help="one adapter alone, for callgrind")
    parser.add_argument("--warmup", type=at_least_zero, default=2000)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.steps == 0 and args.only is None:  # the base callgrind subtracts, with --only
        parser.error("argument --steps: 0 steps is a base to count with --only, not a timed run")
    if args.only is not None:
        WORKLOADS[args.only](args.warmup, args.seed + 1, args.players)
        if args.steps:
            WORKLOADS[args.only](args.steps, args.seed, args.players)
        return
    names = [name for name in args.env if installed(name)]
    for name in names:  # imports and caches filled before any run is timed
        WORKLOADS[name](args.warmup, args.seed - 1, args.players)
    if args.child:
        print(json.dumps(one_run(names, args.steps, args.seed, args.players)))
        return
    for name in sorted(set(args.env) - set(names)):
        print(f"{name}: not installed (pip install 'chkobba[{name}]')")
    if not names:  # nothing to measure is a failure, not an empty table
        raise SystemExit("env_steps.py: none of the adapters asked for is installed")
    if args.compare:
        compare(args, names)
        return
    runs = []
    for run in range(1, args.runs + 1):
        runs.append(one_run(names, args.steps, args.seed + run, args.players))
        print(f"run {run}: " + ", ".join(f"{n} {runs[-1][n]:,.0f}/s" for n in names))
    for name in names:
        print(f"{name}: median {statistics.median(r[name] for r in runs):,.0f} steps/s")


if __name__ == "__main__":
    main()
