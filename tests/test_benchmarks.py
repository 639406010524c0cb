"""The benchmark scripts' counting mode runs from a fresh process (issue #8)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PLAYOUTS = Path(__file__).parent.parent / "benchmarks" / "playouts.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    return subprocess.run(
        [sys.executable, str(PLAYOUTS), *args], capture_output=True, text=True, env=env, check=False
    )


@pytest.mark.parametrize("kind", ["step", "rollout"])
def test_only_plays_the_workload_silently(kind: str) -> None:
    # What callgrind counts: the workload alone, nothing printed, nothing timed.
    done = _run("--only", kind, "--warmup", "2", "--deals", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


def test_only_refuses_an_unknown_workload() -> None:
    done = _run("--only", "walk", "--deals", "1")
    assert done.returncode == 2
    assert "invalid choice: 'walk'" in done.stderr


def test_the_lazy_state_prototype_plays_the_engines_deals() -> None:
    # benchmarks/lazy_state.py's figures mean something only if its prototype plays
    # exactly the engine's deals: every final state equal, from the same seed.
    script = PLAYOUTS.parent / "lazy_state.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check", "--deals", "60", "--seed", "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    assert done.stdout == "60 deals, the same final states both ways: True\n"


@pytest.mark.parametrize("iterations", ["0", "3"])
def test_the_ismcts_speed_counts_run_as_its_docstring_says(iterations: str) -> None:
    # Its docstring counts instructions per iteration as the difference between a run
    # with K iterations and one with 0 (positions collected, no search): both must run.
    script = PLAYOUTS.parent / "ismcts_speed.py"
    args = [sys.executable, str(script), "--positions", "2", "--iterations", iterations]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert f"iterations={max(int(iterations), 1)}," in done.stdout
