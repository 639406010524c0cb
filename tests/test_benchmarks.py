"""The benchmark scripts' counting mode runs from a fresh process (issue #8)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import chkobba

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


@pytest.mark.parametrize("kind", ["step", "rollout"])
@pytest.mark.parametrize(("rules", "players"), [("cardrulesplus", "3"), ("tunisian", "4")])
def test_only_plays_any_profile_and_seating(kind: str, rules: str, players: str) -> None:
    # The counting mode measures the other profiles and seatings too (issue: "the fast
    # paths must serve them too"), as silently as the default one.
    done = _run("--only", kind, "--rules", rules, "--players", players, "--deals", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


def test_a_seating_the_profile_does_not_allow_is_a_usage_error() -> None:
    done = _run("--only", "step", "--players", "3", "--deals", "1")
    assert done.returncode == 2
    assert "the tunisian profile plays with 2, 4 players, not 3" in done.stderr


def test_the_workloads_start_from_the_chosen_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    # --rules reaches the matches the workloads play (not only the argument parser).
    spec = importlib.util.spec_from_file_location("playouts_under_test", PLAYOUTS)
    assert spec is not None and spec.loader is not None
    playouts = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(playouts)
    started: list[tuple[int, str]] = []

    def recorded(players: int, *, rules: chkobba.Rules) -> chkobba.State:
        started.append((players, rules.name))
        return chkobba.new_match(players, rules=rules)

    monkeypatch.setattr(playouts, "new_match", recorded)
    for kind in ("step", "rollout"):
        playouts._WORKLOADS[kind](1, 0, 3, chkobba.CARD_RULES_PLUS)
    assert started == [(3, "cardrulesplus")] * 2


def test_same_play_checks_the_digests_it_wrote(tmp_path: Path) -> None:
    # benchmarks/same_play.py is the differential check behind speed changes: the digests
    # it writes must check out against the same tree, and a wrong size is refused.
    script = PLAYOUTS.parent / "same_play.py"
    saved = tmp_path / "digests.json"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, str(script), "--deals", *args]
        return subprocess.run(command, capture_output=True, text=True, check=False)

    assert run("2", "--write", str(saved)).returncode == 0
    done = run("2", "--check", str(saved))
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.fullmatch(r"(\d+) workloads of 2 deals: \1 the same\n", done.stdout)
    assert run("3", "--check", str(saved)).returncode == 1
