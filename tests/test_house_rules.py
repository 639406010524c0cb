"""House profiles through every feature (the house-rules user study): the corners where a
profile made with ``attrs.evolve`` or ``Rules(...)`` used to go wrong."""

from __future__ import annotations

import random

import attrs
import pytest

from chkobba import (
    TUNISIAN,
    ChkobbaError,
    Cut,
    State,
    apply,
    legal_moves,
    new_match,
    random_shuffle,
)
from chkobba.bots.endgame import Solver, move_values, solve

HOUSE = attrs.evolve(TUNISIAN, name="house", target=16)


def test_open_spiel_refuses_a_profile_object_with_a_chkobba_error() -> None:
    # A Rules object as the "rules" parameter used to escape as a raw TypeError
    # ("'Rules' object is not iterable") from OpenSpiel's own parameter handling.
    # (pyspiel.load_game converts its parameters before the game sees them, so there
    # the TypeError is OpenSpiel's own.)
    pytest.importorskip("pyspiel")
    import chkobba.openspiel

    with pytest.raises(ChkobbaError, match=r"rules must be a profile name .*the house profile"):
        chkobba.openspiel.ChkobbaGame({"rules": HOUSE})


def _last_round(seed: int) -> State:
    state = apply(new_match(), random_shuffle(random.Random(seed)))
    state = apply(state, Cut(keep=False))
    while state.stock:
        state = apply(state, legal_moves(state)[0])
    return state


def test_one_solver_solves_the_same_cards_under_two_profiles_apart() -> None:
    # The solver's transposition table kept positions by their cards only, so a solver
    # reused for the same cards under another profile answered the first profile's value.
    no_bermila = attrs.evolve(TUNISIAN, name="no bermila", sevens_bermila=False, target=16)
    for seed in range(50):
        tunisian = _last_round(seed)
        house = attrs.evolve(tunisian, rules=no_bermila)
        if solve(tunisian) != solve(house):
            break
    else:
        pytest.fail("no position where the bermila changes the endgame's value")
    solver = Solver()
    assert solver.solve(tunisian) == solve(tunisian)
    assert solver.solve(house) == solve(house)
    assert solver.move_values(house) == move_values(house)
