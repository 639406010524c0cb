"""Fixes from the reviews of stop 76 (packaging, dependency bounds, what the suite never ran)."""

from __future__ import annotations

import random
import runpy
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from chkobba import (
    ChkobbaError,
    IllegalMoveError,
    apply,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba._describe import integer_count, plain_flag, plain_integer
from chkobba.bots import PolicyBot

ROOT = Path(__file__).resolve().parent.parent


# === setup.py: the compiled build never quietly becomes the pure one ======================


def _compiled_build() -> Callable[[], dict[str, Any]]:
    if not (ROOT / "setup.py").is_file():
        pytest.skip("no setup.py in this copy of the tree (mutmut's copies src, tests, docs)")
    # Not run as __main__, so setup() is not called: only the function is wanted.
    namespace = runpy.run_path(str(ROOT / "setup.py"), run_name="setup_under_test")
    build: Callable[[], dict[str, Any]] = namespace["compiled_build"]
    return build


@pytest.mark.parametrize("command", ["bdist_wheel", "editable_wheel", "build_ext", "install"])
def test_a_compiled_build_without_mypyc_stops_with_what_to_install(
    monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    # Without build isolation setuptools ignores setup_requires, so a build asked for with
    # CHKOBBA_MYPYC=1 and no mypy installed made the pure package and said nothing.
    compiled_build = _compiled_build()
    monkeypatch.setenv("CHKOBBA_MYPYC", "1")
    monkeypatch.setitem(sys.modules, "mypyc.build", None)  # importing it raises ImportError
    monkeypatch.setattr(sys, "argv", ["setup.py", command, "--dist-dir", "x"])
    with pytest.raises(SystemExit) as stopped:
        compiled_build()
    message = str(stopped.value)
    assert message.startswith("CHKOBBA_MYPYC=1 asks for the compiled build, which needs mypy")
    assert "with --no-build-isolation, install mypy>=1.8 first" in message


@pytest.mark.parametrize("command", ["egg_info", "dist_info", "sdist"])
def test_asked_what_the_compiled_build_needs_it_names_mypy(
    monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    # pip's isolated build first runs setup.py to ask for the build's requirements (the
    # egg_info command), installs them, then builds: that first question must not stop.
    compiled_build = _compiled_build()
    monkeypatch.setenv("CHKOBBA_MYPYC", "1")
    monkeypatch.setitem(sys.modules, "mypyc.build", None)
    monkeypatch.setattr(sys, "argv", ["setup.py", command])
    assert compiled_build() == {"setup_requires": ["mypy>=1.8", "attrs>=23.1"]}


@pytest.mark.parametrize("value", [None, "", "0", "yes"])
def test_the_default_build_is_pure_python_whatever_is_installed(
    monkeypatch: pytest.MonkeyPatch, value: str | None
) -> None:
    compiled_build = _compiled_build()
    if value is None:
        monkeypatch.delenv("CHKOBBA_MYPYC", raising=False)
    else:
        monkeypatch.setenv("CHKOBBA_MYPYC", value)
    monkeypatch.setitem(sys.modules, "mypyc.build", None)
    monkeypatch.setattr(sys, "argv", ["setup.py", "bdist_wheel"])
    assert compiled_build() == {}


# === numpy's booleans before numpy 2.3 are no integers ====================================


class _NumpyBoolBefore23:
    """numpy's boolean scalar as numpy before 2.3 makes it (the only numpy Python 3.10
    has; CI's is newer): of module numpy, dtype kind "b", no dimensions, and an
    ``__index__`` that gives 1 (with a DeprecationWarning), so ``operator.index`` took it
    for the integer 1."""

    __module__ = "numpy"
    dtype = SimpleNamespace(kind="b")
    ndim = 0

    def __index__(self) -> int:
        return 1

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "np.True_"


OLD_TRUE: Any = _NumpyBoolBefore23()


def test_an_old_numpy_boolean_is_not_taken_for_an_integer() -> None:
    # docs/gymnasium.md: "a seat or a dealer may be a numpy integer ... not a bool".
    assert plain_integer(OLD_TRUE) is OLD_TRUE
    assert integer_count(OLD_TRUE) is None
    assert plain_flag("features", OLD_TRUE) is True  # a flag, where a bool is wanted


def test_an_old_numpy_boolean_is_no_seat_dealer_or_action_of_the_gymnasium_env() -> None:
    gymnasium = pytest.importorskip("chkobba.gymnasium")
    with pytest.raises(ChkobbaError, match="seat"):
        gymnasium.ChkobbaEnv("random", seat=OLD_TRUE)
    with pytest.raises(ChkobbaError, match="players"):
        gymnasium.ChkobbaEnv("random", players=OLD_TRUE)
    env = gymnasium.ChkobbaEnv("random")
    with pytest.raises(ChkobbaError, match="dealer"):
        env.reset(seed=0, options={"dealer": OLD_TRUE})
    for mode in ("raise", "terminate"):
        # "An action that is not an integer at all (... True) ... raises ChkobbaError in
        # both modes": before, it played (or, terminating, ended the episode on) action 1.
        env = gymnasium.ChkobbaEnv("random", illegal_action=mode)
        env.reset(seed=11)
        before = env.match_state
        with pytest.raises(ChkobbaError, match=r"action np\.True_ .* not an integer id"):
            env.step(OLD_TRUE)
        assert env.match_state == before


def test_an_old_numpy_boolean_is_no_dealer_or_player_count_of_the_pettingzoo_env() -> None:
    pettingzoo = pytest.importorskip("chkobba.pettingzoo")
    with pytest.raises(ChkobbaError, match="players"):
        pettingzoo.env(players=OLD_TRUE)
    aec = pettingzoo.env()
    with pytest.raises(ChkobbaError, match="dealer"):
        aec.reset(seed=0, options={"dealer": OLD_TRUE})


def test_a_policy_answering_an_old_numpy_boolean_plays_no_action_1() -> None:
    state = apply(new_match(), random_shuffle(random.Random(3)))
    state = apply(state, legal_moves(state)[0])
    seat = state.current_player
    assert seat is not None
    legal = legal_moves(state)
    with pytest.raises(IllegalMoveError, match=r"the policy returned np\.True_, not an action id"):
        PolicyBot(lambda o, m: OLD_TRUE).choose(observe(state, seat), legal)
