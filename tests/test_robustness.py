"""Hardening (#10): every reproducer of the issue, and fuzzing of the public entry points.

Whatever the input, the library answers with a value or a :class:`ChkobbaError` subclass
(never a bare ``TypeError``/``KeyError``/``IndexError``, never a hang), does not change
its input, and quotes at most about 60 characters of it in a message.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chkobba import (
    DECK,
    Card,
    ChkobbaError,
    Cut,
    NotationError,
    Play,
    Shuffle,
    card,
    cards,
    format_cards,
    parse_move,
    random_shuffle,
)
from chkobba.errors import QUOTE_LIMIT, shown
from chkobba.notation import MOVE_TEXT_LIMIT

# --- how messages quote input (#10 item 7) ----------------------------------------------

HUGE: list[Any] = [10**5000, -(10**5000), "\0" * 1_000_000, "x" * 1_000_000, b"\xff" * 10**6]


@pytest.mark.parametrize("value", HUGE, ids=["int", "-int", "nul", "text", "bytes"])
def test_shown_quotes_at_most_the_limit_whatever_the_value(value: object) -> None:
    assert len(shown(value)) <= QUOTE_LIMIT


def test_shown_survives_a_broken_repr() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    assert shown(Broken()).startswith("<Broken ")
    assert shown([10**5000]) == "<list object>"


def test_a_huge_integer_is_described_not_written() -> None:
    assert shown(10**5000) == "an integer of about 5001 digits"
    assert shown(12345) == "12345"


def test_very_long_messages_are_cut_in_the_middle() -> None:
    error = ChkobbaError("a" * 100_000 + "END")
    assert len(str(error)) < 5000 and str(error).endswith("END")


# --- move constructors: one rule (#10 item 4) ---------------------------------------------


def test_card_text_is_converted_by_every_move_constructor() -> None:
    assert Play("QH", "2D 6S") == Play(card("QH"), cards("2D 6S"))
    assert Play("AD") == Play(card("AD"))
    assert repr(Play("AD")) == "Play(card('AD'))"
    assert Play(card("QH"), "QH").capture == frozenset(cards("QH"))
    assert Shuffle(format_cards(DECK)) == Shuffle(DECK)
    assert Shuffle(list(DECK)).order == DECK


@pytest.mark.parametrize(
    ("build", "fragment"),
    [
        (lambda: Play(card("QH"), card("2D")), "a capture is text"),
        (lambda: Play(card("QH"), [card("2D"), "6S"]), "'6S', which is not a card"),
        (lambda: Play(card("QH"), [card("2D"), card("2D")]), "2D comes twice"),
        (lambda: Play(card("QH"), b"2D"), "a capture is text"),
        (lambda: Play(None), "a played card is a Card"),
        (lambda: Play("8D"), "8 is not a rank"),
        (lambda: Play(card("QH"), 5), "a capture is text"),
        (lambda: Shuffle(None), "a shuffle is text"),
        (lambda: Shuffle(5), "a shuffle is text"),
        (lambda: Shuffle((*DECK[:39], "KC")), "'KC', which is not a card"),
        (lambda: Cut(keep="yes"), "must be True or False"),
        (lambda: Cut(keep=1), "must be True or False"),
        (lambda: Cut(keep=10**5000), "an integer of about 5001 digits"),
        (lambda: Card([], []), "Card needs a Rank and a Suit"),
        (lambda: Card("7", "D"), "Card needs a Rank and a Suit"),
    ],
)
def test_anything_else_is_refused_at_construction(build: Any, fragment: str) -> None:
    with pytest.raises(NotationError) as raised:
        build()
    assert fragment in str(raised.value)


def test_a_move_prints_whatever_it_holds() -> None:
    # No move can be built that str() or repr() cannot write (mixed captures are refused).
    for move in (Play("QH", "2D 6S"), Shuffle(DECK), Cut(keep=True)):
        assert str(move) and repr(move)


# --- notation: linear, bounded, strict (#10 items 1 and 8) ---------------------------------


def test_a_dangling_separator_is_an_empty_card() -> None:
    for text in ("QH x 2D+", "QH x +2D", "QH x 2D++6S", "QH x 2D,,6S", "QH x 2D, "):
        with pytest.raises(NotationError, match="a captured card is missing"):
            parse_move(text)
    assert parse_move("QH x 2D + 6S") == parse_move("QH x 2D, 6S") == Play("QH", "2D 6S")


def test_a_capture_of_40_cards_is_refused_before_reading_them() -> None:
    text = "QH x " + "+".join(["AS"] * 40)
    with pytest.raises(NotationError, match="at most 39 cards"):
        parse_move(text)


def test_move_text_longer_than_the_limit_is_refused_at_once() -> None:
    text = "QH x " + "+".join(["AS"] * 60_000)
    with pytest.raises(NotationError, match=f"a move has at most {MOVE_TEXT_LIMIT}") as raised:
        parse_move(text)
    assert len(str(raised.value)) < 200


def test_the_longest_forgiving_shuffle_is_within_the_limit() -> None:
    spaced = "shuffle  " + ",  ".join(c.symbol for c in DECK)
    assert len(spaced) < MOVE_TEXT_LIMIT
    assert parse_move(spaced) == Shuffle(DECK)


def test_long_captures_are_read_in_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    # Count the card reads instead of timing: a capture of n cards reads each card once.
    import chkobba.notation as notation

    calls = 0
    real = notation.card

    def counting(text: str) -> Card:
        nonlocal calls
        calls += 1
        return real(text)

    monkeypatch.setattr(notation, "card", counting)
    parse_move("KC x " + "+".join(str(c) for c in DECK[:39]))
    assert calls == 40


# --- public helpers raise ChkobbaError on wrong types (#10 item 5) --------------------------


def test_helpers_refuse_wrong_types() -> None:
    for build in (
        lambda: format_cards(None),  # type: ignore[arg-type]
        lambda: format_cards(cards("2D"), None),  # type: ignore[arg-type]
        lambda: format_cards([1, 2]),  # type: ignore[list-item]
        lambda: random_shuffle(None),  # type: ignore[arg-type]
        lambda: card(10**5000),  # type: ignore[arg-type]
        lambda: cards(None),  # type: ignore[arg-type]
    ):
        with pytest.raises(ChkobbaError):
            build()


# --- fuzzing ----------------------------------------------------------------------------

ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(),
    st.binary(),
    st.lists(st.text(max_size=4), max_size=5),
    st.sampled_from(DECK),
    st.lists(st.sampled_from(DECK), max_size=5),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
)


def _only_chkobba_errors(call: Any, *args: Any) -> None:
    before = copy.deepcopy(args)
    try:
        call(*args)
    except ChkobbaError as error:
        assert len(str(error)) < 5000
    assert args == before


@given(ANYTHING, ANYTHING)
def test_move_constructors_take_anything(first: object, second: object) -> None:
    _only_chkobba_errors(Play, first, second)
    _only_chkobba_errors(Play, first)
    _only_chkobba_errors(Shuffle, first)
    _only_chkobba_errors(Cut, first)
    _only_chkobba_errors(Card, first, second)


@given(ANYTHING, ANYTHING)
def test_card_helpers_take_anything(first: object, second: object) -> None:
    _only_chkobba_errors(card, first)
    _only_chkobba_errors(cards, first)
    _only_chkobba_errors(format_cards, first)
    _only_chkobba_errors(format_cards, first, second)
    _only_chkobba_errors(random_shuffle, first)


_MOVE_ALPHABET = st.sampled_from(
    [*"AQJK234567SHDCshdc♠♥♦♣xX:+, \t\n\0", "\u00d7", "keep", "shuffle"]
)


@given(st.one_of(st.text(), st.lists(_MOVE_ALPHABET).map("".join), ANYTHING))
def test_parse_move_takes_anything(text: object) -> None:
    _only_chkobba_errors(parse_move, text)


def test_parse_move_round_trips_random_moves() -> None:
    rng = random.Random(3)
    for _ in range(50):
        move = Play(rng.choice(DECK), frozenset(rng.sample(DECK, rng.randrange(4))) - {DECK[0]})
        if move.card in move.capture:
            continue
        assert parse_move(str(move)) == move
