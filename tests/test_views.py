"""Player views: exactly what one seat may know (issue 2, "observe")."""

from __future__ import annotations

import random
from collections.abc import Iterator
from enum import Enum
from typing import Any

import attrs
import pytest
from hypothesis import given

from chkobba import (
    DECK,
    Card,
    ChkobbaError,
    Cut,
    Phase,
    Play,
    PlayerView,
    Shuffle,
    State,
    apply,
    illegal_reason,
    is_legal,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.views import complete_state
from tests.helpers import SUIT_MAJOR, whole_match
from tests.strategies import states, views


def cards_in(value: Any) -> Iterator[Card]:
    """Every card reachable from a value: through attrs fields, tuples, sets and dicts."""
    if isinstance(value, Card):
        yield value
    elif value is None or isinstance(value, (int, str, Enum)):
        return
    elif attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            yield from cards_in(getattr(value, field.name))
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            yield from cards_in(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from cards_in(key)
            yield from cards_in(item)


def hidden_from(state: State, player: int) -> set[Card]:
    """The cards ``player`` must not see: other hands and the stock, bar the cut card."""
    hidden = {c for p, hand in enumerate(state.hands) if p != player for c in hand}
    hidden.update(state.stock)
    if state.phase is Phase.CUT and player == state.current_player:
        hidden.discard(state.stock[0])
    return hidden


def cut_state(players: int = 2, dealer: int = 0) -> State:
    return apply(new_match(players, dealer=dealer), Shuffle(SUIT_MAJOR))


def test_only_the_cutter_sees_the_cut_card() -> None:
    state = cut_state(4, dealer=2)
    assert state.current_player == 3
    views = [observe(state, p) for p in range(4)]
    assert views[3].cut_card == SUIT_MAJOR[0]
    assert [v.cut_card for v in views[:3]] == [None, None, None]
    for p in range(3):
        assert SUIT_MAJOR[0] not in set(cards_in(views[p]))
        assert views[p].unseen() == DECK
    assert SUIT_MAJOR[0] not in views[3].unseen()
    assert len(views[3].unseen()) == 39
    assert all(v.stock_size == 40 and v.hand == () for v in views)


def test_a_kept_card_is_the_cutters_alone() -> None:
    state = apply(cut_state(2, dealer=0), Cut(keep=True))
    kept = SUIT_MAJOR[0]
    assert kept in observe(state, 1).hand
    assert observe(state, 1).cut_card is None  # it is simply in hand now
    assert kept not in set(cards_in(observe(state, 0)))
    assert kept in observe(state, 0).unseen()


def test_an_exposed_card_is_public() -> None:
    state = apply(cut_state(2, dealer=0), Cut(keep=False))
    for p in (0, 1):
        assert observe(state, p).table[0] == SUIT_MAJOR[0]


def test_a_view_holds_the_public_facts_and_the_own_hand() -> None:
    state = apply(cut_state(4, dealer=1), Cut(keep=False))
    view = observe(state, 0)
    assert isinstance(view, PlayerView)
    assert view.player == 0 and view.players == 4 and view.side == 0
    assert observe(state, 3).side == 1
    assert view.hand == state.hands[0]
    assert view.hand_sizes == (3, 3, 3, 3)
    assert view.table == state.table
    assert view.stock_size == len(state.stock) == 24
    assert view.phase is Phase.PLAY and view.dealer == 1 and view.current_player == 2
    assert view.captured == state.captured and view.chkobbas == state.chkobbas
    assert view.scores == state.scores and view.deal_scores == state.deal_scores
    assert view.winner is None and view.last_capturer is None and view.cut_card is None
    assert view.rules == state.rules
    # What player 0 cannot see: the three other hands and the stock.
    assert set(view.unseen()) == set(DECK) - set(view.hand) - set(view.table)
    assert list(view.unseen()) == sorted(view.unseen())


def test_bad_arguments_are_rejected() -> None:
    state = new_match()
    for bad in (2, -1):
        with pytest.raises(ChkobbaError, match="no player"):
            observe(state, bad)
    for wrong in ("0", None):
        with pytest.raises(ChkobbaError, match="player must be an int"):
            observe(state, wrong)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="expected a State"):
        observe("state", 0)  # type: ignore[arg-type]


def check_view(state: State, player: int) -> None:
    view = observe(state, player)
    assert not set(cards_in(view)) & hidden_from(state, player)
    assert view.hand == state.hands[player]
    assert view.hand_sizes == tuple(len(h) for h in state.hands)
    assert view.stock_size == len(state.stock)
    if state.phase in (Phase.CUT, Phase.PLAY):
        assert set(view.unseen()) == hidden_from(state, player)


@given(states())
def test_a_view_never_holds_a_hidden_card(state: State) -> None:
    for player in range(state.players):
        check_view(state, player)


@pytest.mark.parametrize("players", [2, 4])
def test_no_view_of_a_whole_match_holds_a_hidden_card(players: int) -> None:
    states_, _moves = whole_match(players, players)
    for state in states_:
        for player in range(players):
            check_view(state, player)


@given(views())
def test_what_a_player_sees_and_does_not_see_make_the_deck(view: PlayerView) -> None:
    assert view.hand_sizes[view.player] == len(view.hand)
    assert view.side == view.player % 2
    seen = [*view.hand, *view.table, *(c for pile in view.captured for c in pile)]
    if view.cut_card is not None:
        seen.append(view.cut_card)
    assert len(set(seen)) == len(seen)
    if view.phase in (Phase.CUT, Phase.PLAY):
        assert not set(view.unseen()) & set(seen)
        assert len(view.unseen()) + len(seen) == 40
        others = sum(view.hand_sizes) - len(view.hand)
        assert len(view.unseen()) == others + view.stock_size - (view.cut_card is not None)
    else:
        assert view.unseen() == ()


@given(states())
def test_complete_state_inverts_observe_given_the_hidden_cards(state: State) -> None:
    for player in range(state.players):
        view = observe(state, player)
        rebuilt = complete_state(view, state.hands, state.stock)
        assert rebuilt == state
        assert observe(rebuilt, player) == view


@given(states())
def test_a_view_judges_its_players_moves_as_the_state_does(state: State) -> None:
    # A client holding only its view gets its own legal moves and the state's reasons;
    # when another player (or nobody) is to move, no moves and a reason saying so.
    moves = list(legal_moves(state))
    if state.phase is Phase.PLAY:
        hand = state.hands[state.current_player]  # type: ignore[index]
        moves += [Play(held) for held in hand] + [Play(held, state.table) for held in hand]
    moves += [Cut(keep=True), random_shuffle(random.Random(0))]
    for player in range(state.players):
        view = observe(state, player)
        if state.current_player == player:
            assert legal_moves(view) == legal_moves(state)
            for move in moves:
                assert illegal_reason(view, move) == illegal_reason(state, move)
                assert is_legal(view, move) == is_legal(state, move)
        else:
            assert legal_moves(view) == ()
            for move in moves:
                reason = illegal_reason(view, move)
                assert reason is not None and not is_legal(view, move)
                assert reason.startswith(("it is player", f"player {player} is not to move"))


def test_a_view_says_why_its_player_may_not_move() -> None:
    view = observe(new_match(), 1)
    assert illegal_reason(view, random_shuffle(random.Random(1))) == (
        "player 1 is not to move: the next move is the shuffle, drawn by whoever runs the match"
    )
    state = apply(apply(new_match(), random_shuffle(random.Random(1))), Cut(keep=False))
    other = observe(state, 1 - state.mover)
    assert illegal_reason(other, legal_moves(state)[0]) == (
        f"it is player {state.mover}'s turn, not player {1 - state.mover}'s"
    )
    with pytest.raises(ChkobbaError, match="legal_moves: expected a State or a PlayerView"):
        legal_moves(None)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="apply needs the State"):
        apply(other, legal_moves(state)[0])  # type: ignore[arg-type]
