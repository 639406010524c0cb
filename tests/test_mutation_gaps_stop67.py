"""Tests for the gaps a mutmut audit of the spectator's view found (the audit of
2026-12-06, stop 67: commit 96d975d; tools/mutation/README.md).

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to the library that the rest of the suite let through. ``public_view`` reads a
state from seat 0's view, so a broken state that only seat 0's view fails on (the
cutter's cut card of an empty stock) is refused, and when ``check_state`` cannot check
it either the message names the failure. A view's methods (``cutter``, ``side_of``,
``unseen``), on a view so broken that ``check_view`` or ``check_public_view`` fails too,
name the failure and the kind of view. ``PublicView.from_dict`` names a card that is
both on the table and in a pile before the whole check, ``to_json`` writes one field a
line by default, and ``render`` refuses a seat for a public view. The board of a public
view, which only ``render``'s doctests showed, is pinned here too.
"""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

from chkobba import (
    Cut,
    PlayerView,
    PublicView,
    Rules,
    Shuffle,
    State,
    apply,
    new_match,
    observe,
    public_view,
    render,
)
from tests.helpers import SUIT_MAJOR, refusal


class _Unsided(Rules):
    """A profile that fails to say how many sides play: no check can check it."""

    def sides(self, players: int) -> int:
        raise RuntimeError("no sides")


def _in_play() -> State:
    """The first deal of a suit-major shuffle, kept: 7♠ Q♠ J♠ K♠ on the table."""
    return apply(apply(new_match(), Shuffle(SUIT_MAJOR)), Cut(keep=True))


# --- public_view of a broken state --------------------------------------------------------


def test_public_view_reads_seat_0_and_refuses_a_cut_card_of_an_empty_stock() -> None:
    """Player 0 cuts (dealer 1): its view takes the top of the stock, which is empty,
    so the state is refused (seat 1's view would not fail). (public_view 6)"""
    state = apply(new_match(dealer=1), Shuffle(SUIT_MAJOR))
    assert state.current_player == 0
    broken = attrs.evolve(state, stock=())
    assert refusal(lambda: public_view(broken)) == (
        "inconsistent state: AS is nowhere (40 of the 40 cards missing) (see check_state)"
    )


def test_public_view_of_a_state_too_broken_to_check_names_the_failure() -> None:
    """check_state fails too (its profile cannot count its sides): the message names the
    IndexError public_view met. (public_view 6 and 8)"""
    state = apply(new_match(dealer=1), Shuffle(SUIT_MAJOR))
    broken = attrs.evolve(state, stock=(), rules=_Unsided())
    assert refusal(lambda: public_view(broken)) == (
        "inconsistent state (IndexError; see check_state)"
    )


# --- a view's methods, when even its check fails --------------------------------------------


def _too_broken_to_check(view: PlayerView | PublicView) -> list[str]:
    """What cutter, side_of and unseen say of ``view`` with a profile no check can check
    and the field each of them reads broken."""
    unsided = attrs.evolve(view, rules=_Unsided())
    no_dealer = attrs.evolve(unsided, dealer=None)  # type: ignore[arg-type]
    no_players = attrs.evolve(unsided, players=None)  # type: ignore[arg-type]
    no_table = attrs.evolve(unsided, table=None)  # type: ignore[arg-type]
    return [
        refusal(lambda: no_dealer.cutter),
        refusal(lambda: no_players.side_of(0)),
        refusal(no_table.unseen),
    ]


def test_a_public_views_methods_name_the_failure_when_its_check_fails_too() -> None:
    """(_broken 2, 4, 9, 10; _cutter 5, _side_of 9, _unseen 7)"""
    message = "inconsistent public view (TypeError; see check_public_view)"
    assert _too_broken_to_check(public_view(_in_play())) == [message] * 3


def test_a_players_views_methods_name_the_failure_when_its_check_fails_too() -> None:
    """(_broken 12, 14, 19, 20)"""
    message = "inconsistent view (TypeError; see check_view)"
    assert _too_broken_to_check(observe(_in_play(), 0)) == [message] * 3


# --- PublicView's JSON ----------------------------------------------------------------------


def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(public_view(_in_play()).to_json())
    return data


@pytest.mark.parametrize("side", [0, 1])
def test_from_dict_names_a_card_on_the_table_and_in_a_pile(side: int) -> None:
    """The reader's own check, before check_public_view's: "public view:", the table
    named. (public_view_from_dict 15, 16, 19, 24, 30, 31)"""
    data = _data()
    assert data["table"] == ["7S", "QS", "JS", "KS"] and data["captured"] == [[], []]
    captured: list[list[str]] = [[], []]
    captured[side] = ["QS"]
    bad = {**data, "captured": captured}
    message = f"public view: QS is in two places (table and captured[{side}])"
    assert refusal(lambda: PublicView.from_dict(bad)) == message
    assert refusal(lambda: PublicView.from_json(json.dumps(bad))) == message


def test_to_json_writes_one_field_a_line_by_default() -> None:
    """(PublicView.to_json 1)"""
    seen = public_view(_in_play())
    text = seen.to_json()
    assert text == seen.to_json(compact=False) != seen.to_json(compact=True)
    assert text.startswith('{\n  "format": "chkobba-public-view",\n  "version": 1,\n')
    assert PublicView.from_json(text) == seen


# --- render ---------------------------------------------------------------------------------


@pytest.mark.parametrize("player", [0, 1])
def test_render_refuses_a_seat_for_a_public_view(player: int) -> None:
    """A public view is nobody's: no seat is accepted, not even player 0. (render 7, 8, 9)"""
    seen = public_view(_in_play())
    assert refusal(lambda: render(seen, player)) == (
        f"render: a PublicView is no player's view, not player {player}'s"
    )


def test_the_board_of_a_public_view_shows_no_hand() -> None:
    """(_render_view 3, 14 to 18; render.py's doctests catch them too)"""
    assert render(public_view(_in_play())) == "\n".join(
        [
            "Chkobba: 2 players, tunisian rules, match to 21 (public view)",
            "Scores     player 0: 0   player 1: 0",
            "Dealer     player 0",
            "Turn       player 1 to play",
            "Table      7♠ Q♠ J♠ K♠",
            "Hands      player 0: 3 cards",
            "           player 1: 3 cards",
            "Stock      30 cards",
            "Piles      player 0: 0 cards, 0 chkobbas",
            "           player 1: 0 cards, 0 chkobbas",
        ]
    )
