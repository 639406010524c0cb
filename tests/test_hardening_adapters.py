"""Bad input to the adapters' building blocks (features, observations, history): a
ChkobbaError naming it, never a raw TypeError, IndexError or ZeroDivisionError."""

from __future__ import annotations

import random

import attrs
import pytest

from chkobba import (
    DECK,
    ChkobbaError,
    Cut,
    apply,
    card,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.features import FEATURE_SIZE, feature_vector, options_by_card
from chkobba.history import HISTORY_SIZE, DealHistory
from chkobba.observations import OBSERVATION_SIZE, observation_vector, piece, player_returns
from chkobba.state import State
from chkobba.views import PlayerView


@pytest.fixture(scope="module")
def state() -> State:
    return apply(apply(new_match(), random_shuffle(random.Random(1))), Cut(keep=False))


@pytest.fixture(scope="module")
def view(state: State) -> PlayerView:
    return observe(state, state.current_player)  # type: ignore[arg-type]


# --- features ----------------------------------------------------------------------------


def test_feature_vector_names_wrong_arguments(state: State, view: PlayerView) -> None:
    legal = legal_moves(state)
    with pytest.raises(ChkobbaError, match="feature_vector: expected a PlayerView, got None"):
        feature_vector(None, None, legal)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="feature_vector: legal must be a collection"):
        feature_vector(view, None, None)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="pending must be a Card or None, not 'QH'"):
        feature_vector(view, "QH", legal)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="legal must hold moves only, not 'QH'"):
        feature_vector(view, None, ["QH"])  # type: ignore[list-item]
    assert len(feature_vector(view, None, legal)) == FEATURE_SIZE


def test_options_by_card_names_what_is_not_a_list_of_moves() -> None:
    with pytest.raises(ChkobbaError, match="options_by_card: legal must be a collection"):
        options_by_card(None)  # type: ignore[arg-type]


def test_the_table_sum_is_not_capped_at_one(state: State, view: PlayerView) -> None:
    # docs/adapters.md and docs/gymnasium.md quote this table and its 2.2.
    assert sorted(state.table) == sorted(map(card, ["6C", "3H", "5H", "QH"]))
    assert feature_vector(view, None, legal_moves(state))[0] == pytest.approx(2.2)


# --- observations ------------------------------------------------------------------------


def test_piece_names_a_wrong_vector_or_name(view: PlayerView) -> None:
    vector = observation_vector(view)
    with pytest.raises(ChkobbaError, match="piece: expected an observation vector, got None"):
        piece(None, "hand")  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"\['hand'\] is not an observation piece"):
        piece(vector, ["hand"])  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=f"has {OBSERVATION_SIZE} entries, not 10"):
        piece([0.0] * 10, "dealer")
    # Longer is fine: the observation with the features appended.
    assert piece(vector + [0.0] * FEATURE_SIZE, "dealer") == piece(vector, "dealer")


def test_player_returns_wants_a_real_boolean(state: State) -> None:
    with pytest.raises(ChkobbaError, match="single_deal must be True or False, not 'no'"):
        player_returns(state, "no")  # type: ignore[arg-type]
    assert player_returns(state, True) == player_returns(state, False) == (0.0, 0.0)


@pytest.mark.parametrize(
    "broken", [{"captured": ()}, {"phase": "play"}, {"cut_card": "7D"}, {"hand_sizes": None}]
)
def test_a_broken_hand_built_view_is_named(view: PlayerView, broken: dict[str, object]) -> None:
    bad = attrs.evolve(view, **broken)  # type: ignore[misc]
    with pytest.raises(ChkobbaError, match="observation_vector: the view is inconsistent"):
        observation_vector(bad)


def test_a_broken_view_in_feature_vector_is_named(state: State, view: PlayerView) -> None:
    bad = attrs.evolve(view, table=None)  # type: ignore[misc]
    with pytest.raises(ChkobbaError, match="feature_vector: the view is inconsistent"):
        feature_vector(bad, None, legal_moves(state))


# --- history -----------------------------------------------------------------------------


def test_history_vector_names_wrong_seats() -> None:
    history = DealHistory().started(DECK[:4], None).played(0, DECK[5], frozenset())
    with pytest.raises(ChkobbaError, match="players must be 2 to 4, not 0"):
        history.vector(0, 0)
    with pytest.raises(ChkobbaError, match="viewer must be a player from 0 to 1, not 2"):
        history.vector(2, 2)
    with pytest.raises(ChkobbaError, match="viewer must be a player from 0 to 1, not True"):
        history.vector(True, 2)  # type: ignore[arg-type]
    assert len(history.vector(1, 2)) == HISTORY_SIZE


def test_history_plays_are_checked() -> None:
    with pytest.raises(ChkobbaError, match="player must be a seat from 0 to 3, not 9"):
        DealHistory().played(9, DECK[0], frozenset())
    with pytest.raises(ChkobbaError, match=r"DealHistory\.played: expected a Card, got 'x'"):
        DealHistory().played(0, "x", frozenset())  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="capture must be a frozenset of cards, not None"):
        DealHistory().played(0, DECK[0], None)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="capture must hold cards only, not 'AS'"):
        DealHistory().played(0, DECK[0], frozenset({"AS"}))  # type: ignore[arg-type]


def test_history_starts_are_checked() -> None:
    with pytest.raises(ChkobbaError, match="started: table must be a collection, not None"):
        DealHistory().started(None, None)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="started: table must hold cards only, not 'AS'"):
        DealHistory().started(["AS"], None)  # type: ignore[list-item]
    with pytest.raises(ChkobbaError, match="exposed must be a Card or None, not 'AS'"):
        DealHistory().started(DECK[:4], "AS")  # type: ignore[arg-type]
    # A card laid twice was dropped by the set without a word.
    with pytest.raises(ChkobbaError) as caught:
        DealHistory().started([DECK[0], DECK[1], DECK[0]], None)
    assert str(caught.value) == "DealHistory.started: the table holds AS twice"


def test_a_hand_built_broken_history_is_named() -> None:
    broken = DealHistory(plays=(("x", DECK[0], frozenset()),))  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"DealHistory\.vector: a field of this history"):
        broken.vector(0, 2)


def test_a_broken_view_is_named_by_what_check_view_finds(view: PlayerView) -> None:
    bad = attrs.evolve(view, phase="play")  # type: ignore[misc]
    with pytest.raises(ChkobbaError, match=r"phase must be a Phase, not 'play' \(see check_view\)"):
        observation_vector(bad)
