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
    observe,
    random_shuffle,
)
from chkobba.bots.endgame import Solver, move_values, solve
from chkobba.features import feature_bounds, feature_vector
from chkobba.observations import OBSERVATION_SIZE
from tests.helpers import arranged

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


def test_the_table_sum_feature_stays_within_its_bound_under_large_house_values() -> None:
    # feature_bounds() assumed values of 1 to 10 (at most 22 for the table sum), and the
    # Gymnasium environment clipped a larger house table sum to it without a word.
    big_kings = attrs.evolve(
        TUNISIAN, name="kings 100", capture_values=(1, 2, 3, 4, 5, 6, 7, 8, 9, 100)
    )
    state = arranged(hands=["AS 2S 3S", "4S 5S 6S"], table="KS KH KD QS", rules=big_kings)
    view = observe(state, 1)
    table_sum = feature_vector(view, None, legal_moves(state))[0]
    assert table_sum == 30.8
    low, high = feature_bounds(big_kings)
    assert low[0] == 0.0 and table_sum <= high[0] == 4 * 145 / 10
    assert feature_bounds(TUNISIAN) == feature_bounds() and feature_bounds()[1][0] == 22.0
    with pytest.raises(
        ChkobbaError,
        match=r"feature_bounds: .* not 'tunisian' \(that profile is PROFILES\['tunisian'\]\)",
    ):
        feature_bounds("tunisian")  # type: ignore[arg-type]


def test_the_gymnasium_box_holds_a_large_house_table_sum() -> None:
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    big_kings = attrs.evolve(TUNISIAN, capture_values=(1, 2, 3, 4, 5, 6, 7, 8, 9, 100))
    env = ChkobbaEnv("random", rules=big_kings, features=True)
    assert env.observation_space.high[OBSERVATION_SIZE] == pytest.approx(58.0)
    tunisian = ChkobbaEnv("random", features=True)
    assert tunisian.observation_space.high[OBSERVATION_SIZE] == pytest.approx(22.0)
