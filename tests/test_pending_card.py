"""A pending card given beside a view (``observation_vector``, ``feature_vector``,
``policy_input``, ``action_mask``) is one a position seen so can have, or is refused as
:class:`~chkobba.actions.Position` refuses it.

Found by a review: a card on the table, in the stock, or in the other seat's hand was
taken as pending, and the observation then showed it both on the table and pending, with
an all-zero action mask that leaves a masked policy no action.
"""

from __future__ import annotations

import random

import pytest

from chkobba import (
    Card,
    ChkobbaError,
    Cut,
    PlayerView,
    State,
    apply,
    card,
    cards,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.actions import Position
from chkobba.bots.policy import action_mask, policy_input
from chkobba.features import feature_vector
from chkobba.observations import observation_vector, piece


def _state() -> State:
    # Table AD 4D 5D 6D; player 1 (to move) holds 7C QS KC: KC takes AD+4D+5D or 4D+6D.
    state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=True))
    assert state.current_player == 1 and set(state.table) == set(cards("AD 4D 5D 6D"))
    assert state.hands == (cards("7D 6C KD"), cards("QS 7C KC"))
    return state


def _refusals(view: PlayerView, pending: Card) -> list[str]:
    """What each of the three functions that take a view says of ``pending``."""
    legal = legal_moves(_state())
    said = []
    for call in (
        lambda: observation_vector(view, pending),
        lambda: feature_vector(view, pending, legal),
        lambda: policy_input(view, legal, pending),
    ):
        with pytest.raises(ChkobbaError) as refused:
            call()
        said.append(str(refused.value))
    return said


@pytest.mark.parametrize(
    ("seat", "pending", "reason"),
    [
        (1, "AD", "it lies on the table"),
        (0, "6D", "it lies on the table"),
        (1, "5D", "it lies on the table"),
        (1, "6H", "it is not in the hand of player 1, who moves"),  # in the stock
        (1, "KD", "it is not in the hand of player 1, who moves"),  # in player 0's hand
        (0, "KD", "it is in player 0's hand, and player 1 moves"),
        (1, "QS", "it has no capture options, nothing to choose"),
        (1, "7C", "it has 1 capture option, nothing to choose"),  # AD+6D only
    ],
)
def test_a_card_no_position_can_have_pending_is_refused(
    seat: int, pending: str, reason: str
) -> None:
    state = _state()
    if pending == "6H":
        assert card("6H") in state.stock
    view = observe(state, seat)
    played = card(pending)
    assert _refusals(view, played) == [
        f"{function}: {pending} cannot be pending: {reason}"
        for function in ("observation_vector", "feature_vector", "observation_vector")
    ]
    with pytest.raises(ChkobbaError, match=f"^Position: {pending} cannot be pending: "):
        Position(state, played)  # the same cards as Position refuses


def test_a_card_in_a_pile_and_a_phase_without_plays_are_refused() -> None:
    state = _state()
    taken = apply(state, legal_moves(state)[-1])  # KC takes a group
    assert any(taken.captured)
    piled = next(c for pile in taken.captured for c in pile if c not in taken.table)
    said = _refusals(observe(taken, 0), piled)
    assert said[0] == f"observation_vector: {piled} cannot be pending: it lies in a pile"
    cutting = apply(new_match(), random_shuffle(random.Random(4)))
    assert _refusals(observe(cutting, 1), card("KC"))[1] == (
        "feature_vector: KC cannot be pending: nothing is played in phase CUT"
    )


@pytest.mark.parametrize("seat", [0, 1])
def test_a_pending_card_of_the_mover_is_shown_to_every_seat(seat: int) -> None:
    state = _state()
    position = Position(state, card("KC"))
    view = observe(state, seat)
    vector = observation_vector(view, position.pending)
    assert piece(vector, "pending")[card("KC").index] == 1.0
    observation, mask = policy_input(view, legal_moves(state), position.pending)
    assert len(observation) == len(vector) and sum(mask) == 2  # its two capture options


def test_action_mask_refuses_a_pending_card_without_a_choice_among_the_legal_moves() -> None:
    legal = legal_moves(_state())
    assert sum(action_mask(legal, card("KC"))) == 2
    for pending, options in (("QS", "no capture options"), ("7C", "1 capture option")):
        with pytest.raises(
            ChkobbaError,
            match=(
                f"^action_mask: {pending} cannot be pending: the legal moves give it "
                f"{options}, nothing to choose$"
            ),
        ):
            action_mask(legal, card(pending))
    with pytest.raises(ChkobbaError, match="the legal moves give it no capture options"):
        action_mask(legal, card("KD"))  # not the mover's: no legal move plays it
