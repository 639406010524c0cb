"""The text board: exact layouts, every phase, and views that never show a hidden card."""

from __future__ import annotations

import pickle
import random
import re

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    Card,
    ChkobbaError,
    Cut,
    Phase,
    State,
    apply,
    cards,
    new_match,
    observe,
    parse_move,
    render,
    rollout,
)
from tests.helpers import dealt, random_history, stacked_shuffle, whole_match
from tests.strategies import states


def opening() -> State:
    return dealt(hands=["3C 6C 7C", "QH 4C 5C"], table="2D 6S AS AC")


def test_the_whole_board_of_a_deal_in_play() -> None:
    state = apply(opening(), parse_move("4C x 2D+AS+AC"))
    assert render(state) == "\n".join(
        [
            "Chkobba: 2 players, tunisian rules, match to 21",
            "Scores     player 0: 0   player 1: 0",
            "Dealer     player 0",
            "Turn       player 0 to play",
            "Table      6♠",
            "Hands      player 0: 3♣ 6♣ 7♣",
            "           player 1: 5♣ Q♥",
            "Stock      30 cards",
            "Last take  player 1",
            "Piles      player 0: 0 cards, 0 chkobbas",
            "           player 1: 4 cards, 1 diamond, 0 sevens, 0 sixes, 0 chkobbas",
        ]
    )


def test_a_players_board_shows_only_that_hand() -> None:
    state = opening()
    assert render(state, 0) == "\n".join(
        [
            "Chkobba: 2 players, tunisian rules, match to 21 (seen by player 0)",
            "Scores     player 0: 0   player 1: 0",
            "Dealer     player 0 (you)",
            "Turn       player 1 to play",
            "Table      2♦ 6♠ A♠ A♣",
            "Hands      player 0 (you): 3♣ 6♣ 7♣",
            "           player 1: 3 cards",
            "Stock      30 cards",
            "Piles      player 0: 0 cards, 0 chkobbas",
            "           player 1: 0 cards, 0 chkobbas",
        ]
    )
    assert render(state, 0) == render(observe(state, 0))
    assert render(observe(state, 1), 1) == render(state, 1)


def test_the_cut_card_is_shown_to_the_cutter_and_to_the_omniscient_board_only() -> None:
    order = stacked_shuffle(hands=["3C 6C 7C", "QH 4C 5C"], table="2D 6S AS AC")
    cutting = apply(new_match(), order)
    assert cutting.phase is Phase.CUT
    assert "Cut card   2♦\n" in render(cutting)
    assert "Cut card   2♦ (you alone see it)" in render(cutting, 1)
    assert "Turn       player 1 (you) to cut: keep or expose" in render(cutting, 1)
    assert "2♦" not in render(cutting, 0)
    assert "Cut card" not in render(cutting, 0)


def test_a_new_match_board() -> None:
    assert render(new_match(4, dealer=3, scores=(4, 9))) == "\n".join(
        [
            "Chkobba: 4 players, tunisian rules, match to 21",
            "Scores     side 0 (players 0+2): 4   side 1 (players 1+3): 9",
            "Dealer     player 3",
            "Turn       player 3, the dealer, to shuffle",
            "Table      (empty)",
            "Stock      40 cards",
            "Piles      side 0 (players 0+2): 0 cards, 0 chkobbas",
            "           side 1 (players 1+3): 0 cards, 0 chkobbas",
        ]
    )


def test_between_deals_the_last_deal_is_scored_on_the_board() -> None:
    states, _moves = random_history(21)
    after = next(s for s in states if s.deal_scores)
    board = render(after)
    score = after.deal_scores[0]
    assert "Turn       player 1, the dealer, to shuffle" in board
    assert f"Last deal  deal 1: player 0 +{score.points[0]}, player 1 +{score.points[1]}" in board
    counts = "-".join(map(str, score.card_counts))
    assert f"cards {counts}: " in board
    assert "Winner" not in board
    assert "Hands" not in board


def test_the_end_of_the_match_names_the_winner() -> None:
    final = whole_match(22)[0][-1]
    board = render(final)
    total = "-".join(map(str, final.scores))
    assert board.splitlines()[-1] == f"Winner     player {final.winner}, {total}"
    assert "Turn       the match is over" in board
    assert f"Last deal  deal {len(final.deal_scores)}: " in board


def test_four_players_are_named_by_side() -> None:
    state = dealt(4, hands=["AS AH AD", "2S 2H 2D", "3S 3H 3D", "4S 4H 4D"], table="5S 6H 7D KC")
    board = render(state)
    assert "Hands      player 0: A♠ A♥ A♦" in board
    assert "           player 3: 4♠ 4♥ 4♦" in board
    assert "Piles      side 0 (players 0+2): 0 cards, 0 chkobbas" in board


def test_the_pile_line_counts_diamonds_sevens_sixes_and_the_seven_of_diamonds() -> None:
    state = dealt(hands=["KH 4C 5C", "3C 6C 7C"], table="7D 6S 6D AC")
    state = apply(state, parse_move("7C", state))  # 7C takes 7D, the equal card first
    assert "player 1: 2 cards, 1 diamond, 2 sevens, 0 sixes, the 7♦, 0 chkobbas" in render(state)


def test_the_pile_line_counts_only_what_the_profile_scores() -> None:
    # CardRulesPlus has no bermila: its pile line names no sevens or sixes, only the
    # diamonds and the 7♦; without the 7♦ point, the 7♦ is not singled out either.
    plus = dealt(hands=["KH 4C 5C", "3C 6C 7C"], table="7D 6S 6D AC", rules=CARD_RULES_PLUS)
    plus = apply(plus, parse_move("7C", plus))
    assert "player 1: 2 cards, 1 diamond, the 7♦, 0 chkobbas" in render(plus)
    assert "player 1: 2 cards, 1 diamond, the 7♦, 0 chkobbas" in render(plus, 0)
    plain = attrs.evolve(CARD_RULES_PLUS, name="plain", seven_of_diamonds=False)
    state = dealt(hands=["KH 4C 5C", "3C 6C 7C"], table="7D 6S 6D AC", rules=plain)
    state = apply(state, parse_move("7C", state))
    assert "player 1: 2 cards, 1 diamond, 0 chkobbas" in render(state)


@pytest.mark.parametrize("thing", [None, "state", 3, new_match])
def test_render_refuses_what_is_not_a_position(thing: object) -> None:
    with pytest.raises(ChkobbaError, match="is not a State, a PlayerView or a PublicView"):
        render(thing)  # type: ignore[arg-type]


def test_a_view_is_rendered_only_for_its_own_player() -> None:
    view = observe(opening(), 0)
    with pytest.raises(ChkobbaError, match="belongs to player 0, not 1"):
        render(view, 1)
    with pytest.raises(ChkobbaError, match="there is no player 2"):
        render(opening(), 2)


# --- properties ---------------------------------------------------------------------------


def _symbols(group: tuple[Card, ...] | list[Card]) -> list[str]:
    return [c.symbol for c in group]


def hidden_from(state: State, player: int) -> list[Card]:
    """The cards ``player`` may not see in ``state`` (worked out from the state itself)."""
    if state.phase in (Phase.SHUFFLE, Phase.OVER):
        return list(state.stock)  # a fresh or voided deal: the stock is face down
    hidden = [c for p, hand in enumerate(state.hands) if p != player for c in hand]
    stock = list(state.stock)
    if state.phase is Phase.CUT and player == state.current_player:
        stock = stock[1:]  # the cutter looks at the top card
    return hidden + stock


def shown_cards(board: str) -> set[str]:
    """The card symbols a board shows, leaving out the last deal's category label "7♦:"
    (a category's name, not a card's place)."""
    return set(re.findall(r"[A2-7QJK][♠♥♦♣]", re.sub(r"(?m)^ +7♦: ", "", board)))


@given(states(), st.data())
def test_a_view_shows_no_hidden_card(state: State, data: st.DataObject) -> None:
    player = data.draw(st.integers(0, state.players - 1))
    shown = shown_cards(render(observe(state, player)))
    assert shown.isdisjoint(_symbols(hidden_from(state, player)))
    assert shown <= set(_symbols(list(DECK)))


def test_a_voided_deal_after_a_scored_one_hides_every_card() -> None:
    # Hypothesis found it: the last deal's summary (its "7♦:" row) stays on the board
    # while a voided deal has gathered every card, the 7♦ too, face down in the stock.
    scored = rollout(new_match(), random.Random(3))
    three_kings = stacked_shuffle(
        dealer=scored.dealer, hands=["AS AH AD", "2S 2H 2D"], table="KS KH KD 3S"
    )
    voided = apply(apply(scored, three_kings), Cut(keep=False))
    assert voided.phase is Phase.SHUFFLE and voided.deal_scores == scored.deal_scores
    board = render(observe(voided, 0))
    assert "7♦: " in board  # the label is there
    assert shown_cards(board) == set()  # and no card
    assert shown_cards(board.replace("7♦: ", "7♦ ")) == {"7♦"}  # the oracle still sees cards


@given(states())
def test_boards_are_plain_deterministic_text(state: State) -> None:
    board = render(state)
    assert "\x1b" not in board
    assert board == render(pickle.loads(pickle.dumps(state)))
    assert all(line == line.rstrip() for line in board.splitlines())
    for player in range(state.players):
        assert render(state, player) == render(observe(state, player))


@given(states())
def test_the_omniscient_board_shows_every_card_in_hand_and_on_the_table(state: State) -> None:
    board = render(state)
    for c in state.table:
        assert c.symbol in board
    if state.phase is Phase.PLAY:
        for c in (c for hand in state.hands for c in hand):
            assert c.symbol in board
        assert f"Turn       player {state.current_player} to play" in board


def test_hands_are_shown_in_deck_order() -> None:
    state = dealt(hands=["KC 3C AS", "QH 4C 5C"], table="2D 6S AH AC")
    assert "player 0: A♠ 3♣ K♣" in render(state)
    assert cards("KC 3C AS") == state.hands[0]  # the state keeps its own order
