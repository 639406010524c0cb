"""Tests for the gaps a mutmut audit of ``render.py`` found (the audit of 2026-12-04).

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to ``render.py`` that the rest of the suite let through (tools/mutation/README.md).
The boards are whole texts for hand-built positions, worked out from the position: a
four-player deal just scored (sides named long in the scores and piles, short in the last
deal's summary, every category won, a winner named by side), the last round of a deal
(the stock shown empty while play goes on, an empty hand, the last take in a view, a pile
holding one six), and what ``render`` says of a broken position. One test switches the
rendering off with ``monkeypatch`` to reach a guard only a bug in the library could trip.
"""

from __future__ import annotations

import importlib

import attrs
import pytest

from chkobba import TUNISIAN, ChkobbaError, State, apply, observe, parse_move, render
from tests.helpers import arranged

render_module = importlib.import_module("chkobba.render")  # ``chkobba.render`` is the function

#: Tunisian rules with the primiera point too, so the last deal has all five categories.
PRIMIERA = attrs.evolve(TUNISIAN, name="primiera", primiera=True)

# The two piles of a four-player deal whose last card, the dealer's K♣, is laid on an
# empty table and goes to side 0 (player 2 took last). Side 0: the 7♦, every spade, Q♥
# J♥ K♥ and seven clubs; side 1: nine diamonds, 7♥ 7♣, 6♥ 6♣ and the small hearts and
# diamonds, no spade.
SIDE_0 = "7D AS 2S 3S 4S 5S 6S 7S QS JS KS QH JH KH AC 2C 3C 4C 5C QC JC"
SIDE_1 = "AD 2D 3D 4D 5D 6D QD JD KD 7H 7C 6H 6C AH 2H 3H 4H 5H"


def _last_play(side_0: str, side_1: str, scores: tuple[int, int]) -> State:
    """The four-player deal above after its last card is played: scored by the engine."""
    state = arranged(
        4,
        dealer=3,
        current=3,
        hands=["", "", "", "KC"],
        table="",
        stock="",
        captured=(side_0, side_1),
        chkobbas=(1, 0),
        scores=scores,
        last_capturer=2,
        rules=PRIMIERA,
    )
    return apply(state, parse_move("KC", state))


def test_a_four_player_deal_just_scored_seen_by_the_next_dealer() -> None:
    # Side 0 ends with 22 cards (21 + the K♣), side 1 with 18: cards to side 0. Diamonds
    # 1-9: side 1. Sevens 2-2 (7♦ 7♠ against 7♥ 7♣), sixes 1-3 (6♠ against 6♦ 6♥ 6♣):
    # bermila to side 1. The 7♦: side 0. Primiera: side 0 has every suit, 7♠ 21 + K♥ 10 +
    # 7♦ 21 + A♣ 16 = 68; side 1 has no spade, 0: side 0. With side 0's chkobba the deal
    # gives 4 to side 0 and 2 to side 1; player 0 deals next and shuffles.
    state = _last_play(SIDE_0, SIDE_1, (0, 0))
    assert render(observe(state, 0)) == "\n".join(
        [
            "Chkobba: 4 players, primiera rules, match to 21 (seen by player 0)",
            "Scores     side 0 (players 0+2): 4   side 1 (players 1+3): 2",
            "Dealer     player 0 (you)",
            "Turn       player 0 (you), the dealer, to shuffle",
            "Table      (empty)",
            "Piles      side 0 (players 0+2): 22 cards, 1 diamond, 2 sevens, 1 six, the 7♦,"
            " 1 chkobba",
            "           side 1 (players 1+3): 18 cards, 9 diamonds, 2 sevens, 3 sixes, 0 chkobbas",
            "Last deal  deal 1: side 0 +4, side 1 +2",
            "           cards 22-18: side 0",
            "           diamonds 1-9: side 1",
            "           bermila (sevens 2-2, sixes 1-3): side 1",
            "           7♦: side 0",
            "           primiera 68-0: side 0",
            "           chkobbas 1-0",
        ]
    )


def test_a_four_player_match_won_names_the_winning_side_and_a_tied_category_nobody() -> None:
    # As above with 2♣ 3♣ in side 1's pile: 20 cards each, the cards go to nobody. Side 0
    # still takes the 7♦, the primiera (7♠ 21 + K♥ 10 + 7♦ 21 + A♣ 16 = 68) and its
    # chkobba, 3 points; side 1 the diamonds and the bermila, 2. From 19-3 that is 22-5:
    # side 0 passes 21 and wins, and the dealer stays player 3.
    side_0 = SIDE_0.replace(" 2C 3C", "")
    side_1 = SIDE_1 + " 2C 3C"
    state = _last_play(side_0, side_1, (19, 3))
    assert render(state) == "\n".join(
        [
            "Chkobba: 4 players, primiera rules, match to 21",
            "Scores     side 0 (players 0+2): 22   side 1 (players 1+3): 5",
            "Dealer     player 3",
            "Turn       the match is over",
            "Table      (empty)",
            "Piles      side 0 (players 0+2): 20 cards, 1 diamond, 2 sevens, 1 six, the 7♦,"
            " 1 chkobba",
            "           side 1 (players 1+3): 20 cards, 9 diamonds, 2 sevens, 3 sixes, 0 chkobbas",
            "Last deal  deal 1: side 0 +3, side 1 +2",
            "           cards 20-20: nobody",
            "           diamonds 1-9: side 1",
            "           bermila (sevens 2-2, sixes 1-3): side 1",
            "           7♦: side 0",
            "           primiera 68-0: side 0",
            "           chkobbas 1-0",
            "Winner     side 0 (players 0+2), 22-5",
        ]
    )


def _last_round() -> State:
    """The last round of a two-player deal: the stock is empty, player 1 (who leads) has
    played all three cards, player 0 holds the 5♣ over a 2♦ on the table. Player 0 has
    taken 7♠ 6♠ A♦, player 1 everything else and the last take."""
    return arranged(
        hands=["5C", ""],
        table="2D",
        stock="",
        captured=("7S 6S AD", ""),
        rest_side=1,
        last_capturer=1,
        current=0,
    )


def test_the_last_round_shows_an_empty_stock_and_an_empty_hand() -> None:
    # Player 1's pile: 40 - 5♣ 2♦ - 7♠ 6♠ A♦ = 35 cards; 8 diamonds (all but A♦ 2♦),
    # 3 sevens (7♦ among them), 3 sixes. Player 0's pile has exactly one six.
    assert render(_last_round()) == "\n".join(
        [
            "Chkobba: 2 players, tunisian rules, match to 21",
            "Scores     player 0: 0   player 1: 0",
            "Dealer     player 0",
            "Turn       player 0 to play",
            "Table      2♦",
            "Hands      player 0: 5♣",
            "           player 1: (empty)",
            "Stock      0 cards",
            "Last take  player 1",
            "Piles      player 0: 3 cards, 1 diamond, 1 seven, 1 six, 0 chkobbas",
            "           player 1: 35 cards, 8 diamonds, 3 sevens, 3 sixes, the 7♦, 0 chkobbas",
        ]
    )


def test_the_last_round_from_the_seat_of_the_player_to_play() -> None:
    assert render(_last_round(), 0) == "\n".join(
        [
            "Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)",
            "Scores     player 0: 0   player 1: 0",
            "Dealer     player 0 (you)",
            "Turn       player 0 (you) to play",
            "Table      2♦",
            "Hands      player 0 (you): 5♣",
            "           player 1: 0 cards",
            "Stock      0 cards",
            "Last take  player 1",
            "Piles      player 0: 3 cards, 1 diamond, 1 seven, 1 six, 0 chkobbas",
            "           player 1: 35 cards, 8 diamonds, 3 sevens, 3 sixes, the 7♦, 0 chkobbas",
        ]
    )


def test_the_last_round_from_the_seat_of_the_player_with_no_card_left() -> None:
    assert render(observe(_last_round(), 1)) == "\n".join(
        [
            "Chkobba: 2 players, tunisian rules, match to 21 (seen by player 1)",
            "Scores     player 0: 0   player 1: 0",
            "Dealer     player 0",
            "Turn       player 0 to play",
            "Table      2♦",
            "Hands      player 0: 1 card",
            "           player 1 (you): (empty)",
            "Stock      0 cards",
            "Last take  player 1 (you)",
            "Piles      player 0: 3 cards, 1 diamond, 1 seven, 1 six, 0 chkobbas",
            "           player 1: 35 cards, 8 diamonds, 3 sevens, 3 sixes, the 7♦, 0 chkobbas",
        ]
    )


# --- what render says of a position it cannot show -----------------------------------------


def test_render_quotes_what_is_not_a_position() -> None:
    with pytest.raises(ChkobbaError) as caught:
        render("state")  # type: ignore[arg-type]
    assert str(caught.value) == "render: 'state' is not a State, a PlayerView or a PublicView"


def test_a_broken_view_is_named_with_the_error_it_raised() -> None:
    view = attrs.evolve(observe(_last_round(), 0), table=("2D",))
    with pytest.raises(ChkobbaError) as caught:
        render(view)
    assert str(caught.value) == (
        "render: this PlayerView is not consistent "
        "(AttributeError: \"'str' object has no attribute 'symbol'\")"
    )


def test_a_broken_state_is_named_by_check_state() -> None:
    state = attrs.evolve(_last_round(), table=("2D",))
    with pytest.raises(ChkobbaError, match=r"\(see check_state\)$") as caught:
        render(state)
    assert "is not a State" not in str(caught.value)


def test_an_error_rendering_a_sound_state_escapes_as_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # check_state finds nothing wrong, so the error is a bug and is raised unchanged.
    def failing(state: State, deal: int | None) -> str:
        raise RuntimeError("a bug")

    monkeypatch.setattr(render_module, "_render_state", failing)
    with pytest.raises(RuntimeError, match=r"^a bug$"):
        render(_last_round())
