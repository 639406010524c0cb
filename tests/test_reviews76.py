"""Fixes from the reviews of stop 76 (the package as distributed, the dependency versions,
what the suite never ran, this stop's own diff)."""

from __future__ import annotations

import random
import runpy
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import attrs
import pytest

from chkobba import (
    TUNISIAN,
    ChkobbaError,
    IllegalMoveError,
    Phase,
    State,
    apply,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
    render,
    rollout,
)
from chkobba._describe import integer_count, plain_flag, plain_integer
from chkobba.actions import Position, advance, legal_actions, move_for, step
from chkobba.arena import seat_bots, tournament
from chkobba.bots import PolicyBot, RandomBot
from chkobba.bots.policy import policy_input
from chkobba.checks import check_state

ROOT = Path(__file__).resolve().parent.parent


# === setup.py: the compiled build never quietly becomes the pure one ======================


def _compiled_build() -> Callable[[], dict[str, Any]]:
    if not (ROOT / "setup.py").is_file():
        pytest.skip("no setup.py in this copy of the tree (mutmut's copies src, tests, docs)")
    pytest.importorskip("setuptools")  # setup.py's import (venvs of 3.12 on come without)
    # Not run as __main__, so setup() is not called: only the function is wanted.
    namespace = runpy.run_path(str(ROOT / "setup.py"), run_name="setup_under_test")
    build: Callable[[], dict[str, Any]] = namespace["compiled_build"]
    return build


_BUILDS = ["bdist_wheel", "bdist_egg", "build", "build_ext", "install", "develop", "editable_wheel"]


@pytest.mark.parametrize("command", _BUILDS)
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
    assert str(stopped.value) == (
        "CHKOBBA_MYPYC=1 asks for the compiled build, which needs mypy (its mypyc) where the "
        "package is built: pip and `python -m build` fetch it in an isolated build; with "
        "--no-build-isolation, install mypy>=1.8 first"
    )


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


# === chkobba.openspiel survives a reload (IPython's %autoreload) ==========================

_RELOADED = """
import importlib, pyspiel
import chkobba.openspiel as module
from chkobba import ChkobbaError


def play(state, moves):
    for _ in range(moves):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])


before = pyspiel.load_game("python_chkobba").new_initial_state()  # a state made before
play(before, 3)
importlib.reload(module)
game = pyspiel.load_game("python_chkobba")
state = game.new_initial_state()
observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False), None)
play(state, 12)
observer.set_from(state, 0)
print(state.current_player(), len(state.history()))
observer.set_from(before, 0)  # the reloaded observer reads it too
print(observer.string_from(before, 0) == before.observation_string(0))


class Mine(module.ChkobbaState):  # a user's subclass is a state
    pass


mine = Mine(game)
play(mine, 5)
observer.set_from(mine, 0)
print("subclass plays")


class ChkobbaGame:  # the same name in another module is no game
    pass


for bad in (None, "python_chkobba", ChkobbaGame()):
    try:
        module.ChkobbaState(bad)
    except ChkobbaError as error:
        print(error)
"""


@pytest.mark.out_of_process
def test_the_openspiel_game_plays_after_its_module_is_reloaded() -> None:
    # pyspiel keeps the first class registered; the reloaded module's check took the games
    # it makes for something else: "ChkobbaState needs a python_chkobba game (a
    # ChkobbaGame), not python_chkobba(...)".
    pytest.importorskip("pyspiel")
    done = subprocess.run(
        [sys.executable, "-c", _RELOADED], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    moved, read, subclass, *refused = done.stdout.splitlines()
    assert (moved.split()[1], read, subclass) == ("12", "True", "subclass plays")
    assert refused[0] == "ChkobbaState needs a python_chkobba game (a ChkobbaGame), not None"
    assert len(refused) == 3
    assert all(line.startswith("ChkobbaState needs a python_chkobba game") for line in refused)


# === a tournament on an executor that refuses the matches =================================


def test_a_shut_down_executor_is_named_as_what_refused_the_tournament() -> None:
    pool = ThreadPoolExecutor(1)
    pool.shutdown()
    with pytest.raises(RuntimeError, match="cannot schedule new futures") as refused:
        tournament([RandomBot(), RandomBot()], games=2, executor=pool, seed=1)
    notes = getattr(refused.value, "__notes__", [])
    assert notes == ["tournament(executor=...): the executor given refused the matches"]


def test_without_numpy_a_policy_sees_plain_lists_and_a_mask_of_0s_and_1s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The docstring said "float32 / int8 arrays"; without numpy the mask came as 1.0/0.0.
    state = apply(new_match(), random_shuffle(random.Random(4)))
    state = apply(state, legal_moves(state)[0])
    view = observe(state, 1)
    monkeypatch.setitem(sys.modules, "numpy", None)  # importing it raises ImportError
    observation, mask = policy_input(view, legal_moves(state))
    assert type(observation) is list and {type(x) for x in observation} == {float}
    assert type(mask) is list and {type(x) for x in mask} == {int} and set(mask) == {0, 1}
    assert tuple(i for i, allowed in enumerate(mask) if allowed) == legal_actions(Position(state))


# === what a branch-coverage run found reachable and untested ===============================

_CUT = apply(new_match(), random_shuffle(random.Random(1)))  # player 1 cuts
_NEW = new_match()


@pytest.mark.parametrize(
    ("state", "message"),
    [
        (attrs.evolve(_CUT, current_player=0), "the cutter is player 1, not player 0"),
        (
            attrs.evolve(_CUT, stock=_CUT.stock[1:], table=_CUT.stock[:1]),
            "in phase CUT the stock holds the 40 shuffled cards, not 39",
        ),
        (
            attrs.evolve(_NEW, stock=_NEW.stock[3:], hands=(_NEW.stock[:3], ())),
            "hands must be empty in phase SHUFFLE",
        ),
        (
            attrs.evolve(_NEW, stock=_NEW.stock[3:], table=_NEW.stock[:3]),
            "between deals the stock holds all 40 cards (a new match, a void deal) or none "
            "(after a deal), not 37",
        ),
    ],
    ids=["cutter", "cut-stock", "shuffle-hands", "between-deals-stock"],
)
def test_check_state_names_a_hand_built_cut_or_shuffle_that_cannot_be(
    state: State, message: str
) -> None:
    assert _CUT.phase is Phase.CUT and _CUT.current_player == 1
    with pytest.raises(ChkobbaError) as refused:
        check_state(state)
    assert str(refused.value) == f"inconsistent state: {message}"


def test_a_profile_without_the_seven_of_diamonds_shows_no_row_for_it() -> None:
    # RULES.md part II's profiles may score no 7♦: the board names no such category, and
    # the deal's categories shown still add up to its points.
    rules = attrs.evolve(TUNISIAN, seven_of_diamonds=False)
    state = rollout(new_match(rules=rules), random.Random(3))
    board = render(state)
    assert "7♦" not in board
    assert "deal 1: player 0 +4, player 1 +1" in board
    assert board.endswith(
        "           cards 25-15: player 0\n"
        "           diamonds 4-6: player 1\n"
        "           bermila (sevens 3-1, sixes 4-0): player 0\n"
        "           chkobbas 2-0"
    )
    with_it = render(rollout(new_match(), random.Random(3)))  # the same cards, 7♦ scored
    assert "           7♦: player 1\n" in with_it and "player 1 +2" in with_it


def test_seat_bots_refuses_a_player_count_given_as_text() -> None:
    with pytest.raises(ChkobbaError, match=r"^players must be an int, not '2' \(str\)$"):
        seat_bots([RandomBot(), RandomBot()], "2")  # type: ignore[arg-type]


def test_an_old_numpy_boolean_is_no_action_of_the_step_api() -> None:
    # chkobba.actions checked for Python's bool only: np.True_ played action 1 (the A♥).
    position = Position(apply(new_match(), random_shuffle(random.Random(3))))
    for call in (move_for, step, advance):
        with pytest.raises(IllegalMoveError, match=r"^action np\.True_ is not an integer id$"):
            call(position, OLD_TRUE)
