"""Tests for the gaps a mutmut audit of ``cards.py``, ``moves.py``, ``notation.py``,
``views.py``, ``checks.py``, ``deals.py`` and ``_shuffle.py`` found.

Like ``tests/test_mutation_gaps.py``: each test here fails with at least one single-point
change to the library that the rest of the suite let through (tools/mutation/README.md,
the audit of 2026-12-03); each docstring names the rule or the behaviour it pins.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
import pytest
from hypothesis import given

from chkobba import (
    DECK,
    Card,
    ChkobbaError,
    Cut,
    IllegalMoveError,
    NotationError,
    Play,
    PlayerView,
    Rules,
    State,
    apply,
    card,
    cards,
    format_cards,
    legal_moves,
    new_match,
    observe,
    parse_move,
    random_shuffle,
    rollout,
)
from chkobba.checks import broken_state, check_state
from chkobba.deals import split_deals
from chkobba.errors import shown
from chkobba.records import MOVE_LIMIT
from chkobba.views import check_view, complete_state, seat_state
from tests.strategies import a_card, views

# --- states and views to break -------------------------------------------------------------


def _cut() -> State:
    """Player 1 is to cut a fresh deal; the stock holds the 40 shuffled cards."""
    return apply(new_match(), random_shuffle(random.Random(1)))


def _play() -> State:
    """Player 1 is to play the first card of a deal: 30 cards in the stock."""
    return apply(_cut(), Cut(keep=True))


def _laid() -> State:
    """The first play of a deal, a card laid that took nothing."""
    state = _play()
    return apply(state, next(move for move in legal_moves(state) if not move.capture))  # type: ignore[union-attr]


def _after_deal() -> State:
    """A deal played out and scored: back to the shuffle, the table swept up."""
    return rollout(_play(), random.Random(2))


def _over() -> State:
    """A match played to its end."""
    return rollout(new_match(), random.Random(5), until="match")


def _call(function: Callable[..., object], *args: object) -> str:
    """The message of the error ``function(*args)`` raises."""
    with pytest.raises(ChkobbaError) as raised:
        function(*args)
    return str(raised.value)


# --- cards.py: the order of the cards ------------------------------------------------------


@given(a_card(), a_card())
def test_cards_compare_in_deck_order_with_all_four_operators(one: Card, other: Card) -> None:
    """Cards are ordered as DECK lists them (``Card.index``), strictly by < and >, and
    inclusively by <= and >=: a card is not less than itself but at most itself."""
    assert (one < other) is (one.index < other.index)
    assert (one <= other) is (one.index <= other.index)
    assert (one > other) is (one.index > other.index)
    assert (one >= other) is (one.index >= other.index)


@pytest.mark.parametrize("other", [5, "7D", None])
def test_a_card_compared_with_a_non_card_is_a_type_error(other: object) -> None:
    """A card is comparable only with a card: each operator declines anything else, so
    Python raises its TypeError (no AttributeError from inside the card)."""
    seven = card("7D")
    comparisons: tuple[Callable[[], object], ...] = (
        lambda: seven < other,  # type: ignore[operator]
        lambda: seven <= other,  # type: ignore[operator]
        lambda: seven > other,  # type: ignore[operator]
        lambda: seven >= other,  # type: ignore[operator]
    )
    for compare in comparisons:
        with pytest.raises(TypeError):
            compare()


# --- cards.py: reading and writing cards ---------------------------------------------------


def test_card_text_of_exactly_200_characters_is_read() -> None:
    """A card's text may have up to 200 characters (spaces around the card), that length
    included; one more is too long."""
    assert card(" " * 99 + "7D" + " " * 99) is card("7D")
    longer = " " * 100 + "7D" + " " * 99
    with pytest.raises(NotationError) as raised:
        card(longer)
    assert str(raised.value) == f"{shown(longer)} is not a card: it is too long"


_CARD_TEXT = [
    (7, "7 is not a card: expected text such as '7D'"),
    ("\u200b\u200b7D", r"'\u200b\u200b7D' is not a card: 7D is preceded by '\u200b\u200b'"),
    ("7D'", "\"7D'\" is not a card: 7D is followed by '\\''"),
    ("7D\\", r"'7D\\' is not a card: 7D is followed by '\\'"),
    ("7D x", "'7D x' is not a card: 7D is followed by ' x'"),
    ("7D\U000e0001", r"'7D\U000e0001' is not a card: 7D is followed by '\U000e0001'"),
]


@pytest.mark.parametrize(("text", "message"), _CARD_TEXT)
def test_card_names_what_surrounds_a_card_with_invisible_characters_escaped(
    text: object, message: str
) -> None:
    """card()'s message quotes the text and says what is wrong with it: up to two
    invisible characters before a card, or what follows one; a quote or a backslash is
    escaped, a space is shown as it is, a character past U+FFFF as its \\U escape."""
    assert _call(card, text) == message


def test_a_long_tail_after_a_card_is_quoted_up_to_the_limit() -> None:
    """What follows a card is quoted up to QUOTE_LIMIT (60) characters, then counted."""
    message = _call(card, "7D" + "y" * 100)
    assert message.endswith(f" is not a card: 7D is followed by '{'y' * 60}…' (40 more characters)")


_FORMAT_CARDS = [
    (
        lambda: cards(7),  # type: ignore[arg-type]
        "7 is not a list of cards: expected text such as '2D 6S'",
    ),
    (
        lambda: format_cards(cards("7D"), 5),  # type: ignore[arg-type]
        "format_cards: the separator must be text, not 5",
    ),
    (
        lambda: format_cards("7D 6S"),  # type: ignore[arg-type]
        "format_cards: '7D 6S' is not a collection of cards",
    ),
    (
        lambda: format_cards(5),  # type: ignore[arg-type]
        "format_cards: 5 is not a collection of cards",
    ),
    (
        lambda: format_cards([card("7D"), "6S"]),  # type: ignore[list-item]
        "format_cards: '6S' is not a card",
    ),
]


@pytest.mark.parametrize(("call", "message"), _FORMAT_CARDS)
def test_cards_and_format_cards_name_what_they_refuse(
    call: Callable[[], object], message: str
) -> None:
    """cards() reads only text; format_cards() writes only a collection of cards with a
    text separator: the message quotes what it was given instead (text is no collection)."""
    assert _call(call) == message


# --- moves.py ------------------------------------------------------------------------------

_MOVES = [
    (
        lambda: Play(5),  # type: ignore[arg-type]
        "a played card is a Card or card text ('QH'), not 5",
    ),
    (lambda: Play("QH", cards("2D 6S 6S")), "a capture names each card once; 6S comes twice"),
    (
        lambda: Play("QH", frozenset({2})),  # type: ignore[arg-type]
        "a capture holds 2, which is not a card: give cards or card texts, "
        "or the whole capture as text ('2D 6S')",
    ),
    (
        lambda: random_shuffle(5),  # type: ignore[arg-type]
        "random_shuffle: rng must be a random.Random, not 5",
    ),
]


@pytest.mark.parametrize(("call", "message"), _MOVES)
def test_moves_refuse_what_is_not_a_move_by_name(call: Callable[[], object], message: str) -> None:
    """A Play is a card and a capture of distinct cards, a frozenset included (a frozenset
    of text is no capture); the repeated card named is the one that comes twice.
    random_shuffle draws only from a random.Random."""
    assert _call(call) == message


def test_plays_are_unequal_exactly_when_they_are_not_equal() -> None:
    """``!=`` is the negation of ``==``: the same card taking the same cards, in any
    order, is the same play; another card or another capture is another play; a play is
    unequal to anything that is not a play."""
    assert not Play("QH", "2D 6S") != Play("QH", "6S 2D")  # noqa: SIM202
    assert Play("QH", "2D") != Play("KH", "2D")
    assert Play("QH", "2D") != Play("QH", "6S")
    assert Play("QH") != "QH"


# --- notation.py ---------------------------------------------------------------------------


def test_a_move_text_of_exactly_1000_characters_is_read() -> None:
    """parse_move reads text of up to MOVE_TEXT_LIMIT (1000) characters, that length
    included; a longer text is refused, quoted, before any work on it."""
    assert parse_move("QH" + " " * 998) == Play("QH")
    longer = "QH" + " " * 999
    assert _call(parse_move, longer) == (
        f"{shown(longer)} is not a move: it has 1001 characters; a move has at most 1000"
    )


_ORDER = " ".join(str(c) for c in DECK)
_TOO_MANY = "KH x " + _ORDER
_MOVE_TEXT = [
    (5, "5 is not a move: expected text such as 'QH x 2D+6S'"),
    (
        "QH x 2D x 6S",
        "'QH x 2D x 6S' is not a move: it has more than one capture mark; write one, as in "
        "QH x 2D+6S",
    ),
    (
        "8D",
        "'8D' is not a move: '8D' is not a card: 8 is not a rank of the 40-card deck "
        "(A 2 3 4 5 6 7 Q J K)",
    ),
    ("QH x ", "'QH x ' is not a move: no captured card follows the capture mark"),
    ("QH x 2D++6S", "'QH x 2D++6S' is not a move: a captured card is missing next to a + or ,"),
    (_TOO_MANY, f"{shown(_TOO_MANY)} is not a move: a capture takes at most 39 cards, not 40"),
]


@pytest.mark.parametrize(("text", "message"), _MOVE_TEXT)
def test_parse_move_quotes_the_whole_text_and_the_reason(text: object, message: str) -> None:
    """A NotationError from parse_move starts with the whole text it was given (not the
    word that failed), then says why it is no move."""
    assert _call(parse_move, text) == message


@pytest.mark.parametrize(
    ("missing", "listed"),
    [(2, "KD KC"), (8, "JS JH JD JC KS KH KD KC"), (9, "9 cards")],
)
def test_a_short_shuffle_lists_up_to_eight_missing_cards(missing: int, listed: str) -> None:
    """A shuffle orders all 40 cards: one that lacks some lists them, separated by spaces,
    when there are at most 8, and counts them beyond."""
    text = "shuffle " + " ".join(str(c) for c in DECK[:-missing])
    assert _call(parse_move, text) == (
        f"{shown(text)} is not a move: a shuffle orders all 40 cards, this one has "
        f"{40 - missing}; missing {listed}"
    )


def test_parse_move_names_a_state_argument_that_is_no_state() -> None:
    """parse_move judges a move in a State or a PlayerView, nothing else."""
    assert _call(parse_move, "QH", 5) == (
        "parse_move: expected a State or a PlayerView, got 5 (int)"
    )


def test_a_shuffle_read_from_a_view_is_refused_with_the_whole_reason() -> None:
    """No player chooses the deck order (docs/notation.md): the refusal quotes the text
    and says who draws the shuffle."""
    text = "shuffle " + _ORDER
    with pytest.raises(IllegalMoveError) as raised:
        parse_move(text, observe(_cut(), 0))
    assert str(raised.value) == (
        f"{shown(text)} is not player 0's to play: a shuffle is the chance move, drawn by "
        "whoever runs the match (Game.deal, random_shuffle), never by a player"
    )


# --- deals.py ------------------------------------------------------------------------------


def test_split_deals_reads_records_of_up_to_a_million_moves() -> None:
    """split_deals reads as many moves as a record may hold (MOVE_LIMIT), not fewer: a
    list of 100,001 moves is read, and only then found not to match its states."""
    assert MOVE_LIMIT > 100_001
    moves = [Cut(keep=True)] * 100_001
    assert _call(split_deals, [new_match()], moves) == (
        "split_deals: len(states) is 1 and len(moves) 100001: states holds one more, the "
        "start and then the state after each move"
    )


def test_split_deals_names_a_move_that_is_no_move() -> None:
    """Each move is a Shuffle, a Cut or a Play; another item is named with its index."""
    assert _call(split_deals, [new_match(), new_match()], [5]) == (
        "split_deals: moves[0]: expected a move (Shuffle, Cut or Play), got 5 (int)"
    )


# --- views.py ------------------------------------------------------------------------------


class _Unsided(Rules):
    """A profile that fails to say how many sides play: check_state cannot check it."""

    def sides(self, players: int) -> int:
        raise RuntimeError("no sides")


def test_observe_names_the_player_and_the_match() -> None:
    """There is no player 5 in a 2-player match: the message says both."""
    assert _call(observe, _play(), 5) == "there is no player 5 in a 2-player match"


def test_observe_on_a_broken_state_names_what_check_state_finds() -> None:
    """observe on a hand-built state it fails on raises what check_state finds wrong."""
    state = _play()
    broken = attrs.evolve(state, hands=state.hands[:1])
    assert _call(observe, broken, 1) == (
        "inconsistent state: hands must hold 2 hands, one per player, not 1 (see check_state)"
    )


def test_a_state_too_broken_to_check_is_named_by_the_failure() -> None:
    """When even check_state fails on the state observe failed on, the error names the
    failure of observe (an IndexError: the cutter's view of an empty stock)."""
    broken = attrs.evolve(_cut(), rules=_Unsided(), stock=())
    assert _call(observe, broken, 1) == "inconsistent state (IndexError; see check_state)"
    found = broken_state(broken, KeyError("x"))
    assert isinstance(found, ChkobbaError)
    assert str(found) == "inconsistent state (KeyError; see check_state)"


def _view() -> PlayerView:
    """Player 1's view as it plays the first card: 3 cards in hand, 4 on the table."""
    return observe(_play(), 1)


def _cutter_in_play() -> PlayerView:
    """Player 1's view in play, holding as its cut card the first card of the table."""
    view = _view()
    return attrs.evolve(view, cut_card=view.table[0])


_VIEWS = [
    (
        lambda: attrs.evolve(_view(), rules="x"),  # type: ignore[arg-type]
        "rules must be a Rules profile, not 'x'",
    ),
    (lambda: attrs.evolve(_view(), player=2), "player must be a player from 0 to 1, not 2"),
    (
        lambda: attrs.evolve(_view(), captured=((),)),
        "captured must be 2 card tuples, one per side, not ((),)",
    ),
    (
        lambda: attrs.evolve(_view(), table=("x",)),  # type: ignore[arg-type]
        "table holds 'x', which is not a card",
    ),
    (
        lambda: attrs.evolve(_view(), table=_view().table + _view().hand[:1]),
        f"{_view().hand[0]} is in two places (hand and table)",
    ),
    (
        _cutter_in_play,
        f"{_view().table[0]} is in two places (table and cut_card)",
    ),
    (
        lambda: attrs.evolve(observe(_cut(), 0), cut_card=_cut().stock[0]),
        "cut_card must be set exactly in the cutter's view in phase CUT, not "
        f"{_cut().stock[0]} in player 0's view in CUT",
    ),
]


@pytest.mark.parametrize(("view", "message"), _VIEWS)
def test_check_view_names_the_field_and_the_value(
    view: Callable[[], PlayerView], message: str
) -> None:
    """check_view names what is wrong with a hand-built view: the field, the value, the
    two places a shown card is in; a viewer one past the last player is no player."""
    assert _call(check_view, view()) == f"inconsistent view: {message}"


@given(views())
def test_seat_state_knows_only_the_viewers_hand_and_the_table(view: PlayerView) -> None:
    """seat_state (what legal_moves and parse_move judge a view's moves in) holds the
    viewer's own hand, no other hand and no stock: the view's public facts only."""
    state = seat_state(view)
    for player, hand in enumerate(state.hands):
        assert hand == (view.hand if player == view.player else ())
    assert state.stock == ()
    assert state.table == view.table


def test_complete_state_names_a_view_that_is_no_view() -> None:
    """complete_state builds a state from a PlayerView only."""
    assert _call(complete_state, 5, (), ()) == (
        "complete_state: expected a PlayerView or a PublicView, got 5 (int)"
    )


# --- checks.py: each check and its message -------------------------------------------------


def _stock_of_27() -> State:
    """A play state whose stock lost 3 cards to side 0's pile: not a whole round."""
    state = _play()
    return attrs.evolve(
        state, stock=state.stock[3:], captured=(state.stock[:3], ()), last_capturer=0
    )


def _leftovers_after_a_capture() -> State:
    """After a deal, a card of the last capturer's pile is back on the table."""
    state = _after_deal()
    side = state.side_of(state.last_capturer)  # type: ignore[arg-type]
    piles = list(state.captured)
    moved, piles[side] = piles[side][0], piles[side][1:]
    return attrs.evolve(state, captured=tuple(piles), table=(moved,))


def _deal_score(**fields: object) -> State:
    """After a deal, its score changed."""
    state = _after_deal()
    score = attrs.evolve(state.deal_scores[0], **fields)  # type: ignore[misc]
    return attrs.evolve(state, deal_scores=(score,))


def _over_with_the_other_winner() -> State:
    """A finished match credited to the side that lost it."""
    state = _over()
    return attrs.evolve(state, winner=1 - state.winner)  # type: ignore[operator]


_M = new_match()
_CHECKS: list[tuple[Callable[[], State], str]] = [
    (
        lambda: attrs.evolve(_M, rules="x"),  # type: ignore[arg-type]
        "rules must be a Rules profile, not 'x'",
    ),
    (
        lambda: attrs.evolve(_M, table=[]),  # type: ignore[arg-type]
        "table must be a tuple of cards, not []",
    ),
    (
        lambda: attrs.evolve(_M, stock=(*DECK[:-1], "x")),  # type: ignore[arg-type]
        "stock holds 'x', which is not a card",
    ),
    (
        lambda: attrs.evolve(_M, hands=[(), ()]),  # type: ignore[arg-type]
        "hands must be a tuple of card tuples, not [(), ()]",
    ),
    (
        lambda: attrs.evolve(_M, hands=((), ("x",))),  # type: ignore[arg-type]
        "hands[1] holds 'x', which is not a card",
    ),
    (
        lambda: attrs.evolve(_M, scores=(0, -1)),
        "scores must be a tuple of whole numbers >= 0, not (0, -1)",
    ),
    (
        lambda: attrs.evolve(_M, players=2.0),  # type: ignore[arg-type]
        "players must be a whole number, not 2.0",
    ),
    (
        lambda: attrs.evolve(_M, winner="a"),  # type: ignore[arg-type]
        "winner must be a whole number or None, not 'a'",
    ),
    (lambda: attrs.evolve(_M, dealer=2), "dealer 2 is not a player from 0 to 1"),
    (lambda: attrs.evolve(_M, winner=2), "winner 2 is not a side from 0 to 1"),
    (
        lambda: _deal_score(cards_winner=2),
        "deal_scores[0].cards_winner must be a side from 0 to 1 or None, not 2",
    ),
    (
        lambda: _deal_score(chkobbas=(-5, 2)),
        "deal_scores[0].chkobbas must be 2 whole numbers >= 0, one per side, not (-5, 2)",
    ),
    (
        lambda: _deal_score(points=(9, 0)),
        "deal_scores[0].points (9, 0) are not the chkobbas plus the categories won, (4, 1)",
    ),
    (lambda: attrs.evolve(_M, table=DECK[:1]), "AS is in two places (stock and table)"),
    (lambda: attrs.evolve(_M, current_player=0), "current_player must be None in phase SHUFFLE"),
    (
        lambda: attrs.evolve(_play(), current_player=None),
        "current_player must be a player in phase PLAY",
    ),
    (
        lambda: attrs.evolve(_M, winner=0),
        "winner must be set exactly in phase OVER, not 0 in SHUFFLE",
    ),
    (
        lambda: attrs.evolve(_cut(), chkobbas=(1, 0)),
        "in phase CUT nobody has captured yet (chkobbas, last_capturer)",
    ),
    (
        lambda: attrs.evolve(_cut(), last_capturer=0),
        "in phase CUT nobody has captured yet (chkobbas, last_capturer)",
    ),
    (
        _stock_of_27,
        "the stock holds 27 cards, not a whole number of rounds (6 cards each)",
    ),
    (
        lambda: attrs.evolve(_after_deal(), deal_scores=()),
        "the stock is empty after a deal, but no deal has been scored",
    ),
    (
        _leftovers_after_a_capture,
        "after a deal the table holds leftovers only when nobody captured",
    ),
    (_over_with_the_other_winner, "scores (15, 24) do not make side 0 the winner"),
    (
        lambda: attrs.evolve(_after_deal(), scores=(0, 0)),
        "side 0 scored 4 in its deals but has a total of 0",
    ),
    (
        lambda: attrs.evolve(_play(), chkobbas=(1, 0)),
        "1 chkobba(s) but only 0 card(s) played this deal",
    ),
    (
        lambda: attrs.evolve(_laid(), chkobbas=(1, 0)),
        "side 0 has 1 chkobba(s) but only 0 captured cards",
    ),
    (
        lambda: attrs.evolve(_after_deal(), last_capturer=None),
        "captured cards lie in a pile, but last_capturer is None",
    ),
]


@pytest.mark.parametrize(("state", "message"), _CHECKS)
def test_check_state_names_the_first_inconsistency_in_full(
    state: Callable[[], State], message: str
) -> None:
    """check_state's message names the field or the place and quotes the value: a seat,
    a side or a deal score's winner one past the last is out of range; a stock of 27
    cards is no whole number of 6-card rounds; the CUT phase comes before any capture,
    whatever shows it; leftovers on the table after a deal mean nobody captured."""
    assert _call(check_state, state()) == f"inconsistent state: {message}"


def test_check_state_and_broken_state_name_what_is_no_state() -> None:
    """check_state checks a State only, and broken_state names anything else."""
    assert _call(check_state, 5) == "check_state: expected a State, got 5 (int)"
    found = broken_state(5, IndexError())
    assert isinstance(found, ChkobbaError)
    assert str(found) == "5 is not a State"


# --- a library bug the audit found (fixed: parse_move now checks the view) ----------------
# parse_move judged a move from a PlayerView in seat_state(view) without check_view, where
# legal_moves, illegal_reason and is_legal check the view first: a hand-built view whose
# players was no number failed with a raw TypeError (a huge number built a tuple that long,
# until the memory ran out), and a move was accepted from an inconsistent view.


def _view_without_players() -> tuple[str, PlayerView]:
    view = _view()
    return str(view.hand[0]), attrs.evolve(view, players=None)  # type: ignore[arg-type]


def _cut_view_with_a_number_for_piles() -> tuple[str, PlayerView]:
    return "keep", attrs.evolve(observe(_cut(), 1), captured=5)  # type: ignore[arg-type]


@pytest.mark.parametrize("built", [_view_without_players, _cut_view_with_a_number_for_piles])
def test_parse_move_refuses_an_inconsistent_view_as_legal_moves_does(
    built: Callable[[], tuple[str, PlayerView]],
) -> None:
    """A PlayerView works in place of the state in parse_move (docs/notation.md); a
    hand-built view is named for what is wrong with it, as legal_moves names it."""
    text, view = built()
    expected = _call(legal_moves, view)
    assert expected.startswith("inconsistent view: ")
    assert _call(parse_move, text, view) == expected
