"""Cards and their notation (RULES.md §2)."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chkobba import (
    DECK,
    Card,
    ChkobbaError,
    NotationError,
    Play,
    Rank,
    Suit,
    card,
    cards,
    format_cards,
    parse_move,
)
from tests.strategies import a_card, distinct_cards


def test_the_deck_is_a_french_deck_without_8_9_10() -> None:
    assert len(DECK) == 40
    assert len(set(DECK)) == 40
    assert {str(c)[:-1] for c in DECK} == set(["A", "2", "3", "4", "5", "6", "7", "Q", "J", "K"])
    assert {c.suit for c in DECK} == set(Suit)
    for rank in Rank:
        assert sum(c.rank is rank for c in DECK) == 4
    assert [s.value for s in Suit] == ["S", "H", "D", "C"]
    assert Suit.DIAMONDS.symbol == "♦"


def test_deck_order_is_rank_major() -> None:
    assert format_cards(DECK[:6]) == "AS AH AD AC 2S 2H"
    assert [str(c) for c in DECK[-4:]] == ["KS", "KH", "KD", "KC"]
    assert list(DECK) == sorted(DECK)


@given(a_card())
def test_notation_round_trips(c: Card) -> None:
    assert card(str(c)) is c
    assert card(str(c).lower()) is c
    assert card(c.symbol) is c
    assert card(f"  {c}\n") is c
    assert Card(c.rank, c.suit) is c


def test_notation_examples() -> None:
    assert card("7D").rank is Rank.SEVEN and card("7D").suit is Suit.DIAMONDS
    assert card("QH").rank is Rank.QUEEN and card("QH").suit is Suit.HEARTS
    assert str(card("q♥")) == "QH"
    assert str(card("k♣")) == "KC"
    assert str(card("a♠")) == "AS"
    assert str(card("J♦")) == "JD"
    assert card("7D").symbol == "7♦"


@pytest.mark.parametrize("text", ["8D", "10H", "", "7X", "9S", "D7", "7", "QQ", "7DD", "1S"])
def test_bad_card_text_is_rejected_naming_the_text(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        card(text)
    assert repr(text) in str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, ChkobbaError)


def test_bad_card_text_says_why() -> None:
    with pytest.raises(NotationError, match="8 is not a rank"):
        card("8D")
    with pytest.raises(NotationError, match="X is not a suit"):
        card("7X")
    with pytest.raises(NotationError, match="empty"):
        card("")


def test_non_text_is_rejected() -> None:
    with pytest.raises(NotationError):
        card(7)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        cards(None)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        Card("7", "D")  # type: ignore[arg-type]


def test_cards_reads_whitespace_separated_text() -> None:
    assert cards("2D 6S") == (card("2D"), card("6S"))
    assert cards("  2D\t6S\nQH ") == (card("2D"), card("6S"), card("QH"))
    assert cards("") == ()
    with pytest.raises(NotationError, match="'8D'"):
        cards("2D 8D")


def test_format_cards_writes_deck_order() -> None:
    assert format_cards(cards("6S 2D"), "+") == "2D+6S"
    assert format_cards(cards("KC 2H AS")) == "AS 2H KC"
    assert format_cards(frozenset(cards("QH 7D"))) == "7D QH"
    assert format_cards(()) == ""


@given(distinct_cards(), st.sampled_from([" ", ",", ", ", "+"]))
def test_format_cards_reads_back(group: tuple[Card, ...], separator: str) -> None:
    # "+" too: error messages and move notation write captures as 2D+6S.
    assert cards(format_cards(group, separator)) == tuple(sorted(group))


def test_a_capture_as_messages_write_it_reads_back() -> None:
    assert cards("2D+6S") == cards("2D 6S")
    assert Play("QH", "2D+6S") == Play(card("QH"), cards("2D 6S"))


def test_cards_survive_copy_and_pickle_as_the_same_objects() -> None:
    seven = card("7D")
    assert copy.copy(seven) is seven
    assert copy.deepcopy(seven) is seven
    assert pickle.loads(pickle.dumps(seven)) is seven
    assert pickle.loads(pickle.dumps(DECK)) == DECK


def test_repr_is_evaluable() -> None:
    assert repr(card("7D")) == "card('7D')"
    assert eval(repr(card("QH")), {"card": card}) is card("QH")


@pytest.mark.parametrize("selector", ["\ufe0f", "\ufe0e"])
def test_a_variation_selector_after_a_suit_symbol_is_read(selector: str) -> None:
    # Phone keyboards write the emoji 7♦️ as 7, ♦, U+FE0F.
    assert card("7♦" + selector) is card("7D")
    assert card(" q♥" + selector + " ") is card("QH")
    assert card("K♧" + selector) is card("KC")
    assert cards(f"2♦{selector} 6♠{selector}") == cards("2D 6S")
    assert parse_move(f"Q♥{selector} x 6♠{selector}+2♦{selector}") == parse_move("QH x 2D+6S")
    # Only after a symbol: after a letter, or alone, it is still refused.
    for text in ("7D" + selector, selector + "7♦", "7" + selector, "7♦" + selector * 2):
        with pytest.raises(NotationError):
            card(text)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("7DD", "7D is followed by 'D'"),
        ("7dd", "7D is followed by 'd'"),
        ("QHX", "QH is followed by 'X'"),
        ("7D\x00", "7D is followed by '\\x00'"),
        ("7D\u200b", "7D is followed by '\\u200b'"),
        ("7D\ufe0f", "7D is followed by '\\ufe0f'"),
        ("\u200b7D", "7D is preceded by '\\u200b'"),
        ("7♦\ufe0fX", "7♦ is followed by 'X'"),
        ("7\x00", "'\\x00' is not a suit"),
        ("7\u200b", "'\\u200b' is not a suit"),
        # str.upper() read the long s as S and the dotless i as I: only ASCII changes case.
        ("7\u017f", "\u017f is not a suit"),
        ("\u0131D", "\u0131 is not a rank"),
        # Neither a rank nor a suit at either end: no piece of the text is blamed
        # ('hello' was "HELL is not a rank").
        ("hello", "a card is a rank (A 2 3 4 5 6 7 Q J K) then a suit (S H D C or ♠ ♥ ♦ ♣)"),
        ("10", "a card is a rank (A"),
        ("\u0131\u0131", "a card is a rank (A"),
        # The messages that were already right stay as they were.
        ("8D", "8 is not a rank of the 40-card deck (A 2 3 4 5 6 7 Q J K)"),
        ("10D", "10 is not a rank of the 40-card deck"),
        ("7Z", "Z is not a suit (S H D C or ♠ ♥ ♦ ♣)"),
        ("QQ", "Q is not a suit"),
        ("7", "a card is a rank and a suit, e.g. 7D"),
        ("", "the text is empty"),
    ],
)
def test_bad_card_text_says_what_is_really_wrong(text: str, reason: str) -> None:
    with pytest.raises(NotationError) as caught:
        card(text)
    assert str(caught.value).split(" is not a card: ", 1)[1].startswith(reason)


def test_a_long_tail_is_quoted_short_and_escaped() -> None:
    with pytest.raises(NotationError) as caught:
        card("7D" + "\u200b" * 150)
    message = str(caught.value)
    assert "7D is followed by '\\u200b" in message and "more characters" in message
    assert "\u200b" not in message and len(message) < 300
