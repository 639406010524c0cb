"""Capture enumeration: equal single first, sums of two or more only otherwise (RULES.md §4)."""

from __future__ import annotations

from itertools import combinations

import attrs
import pytest
from hypothesis import given

from chkobba import (
    TUNISIAN,
    Card,
    ChkobbaError,
    Rules,
    capture_options,
    card,
    cards,
    format_cards,
)
from tests.strategies import captures, table_and_card


def options(table: str, played: str) -> list[str]:
    """The capture options as sorted notation, e.g. ``['2D+6S']``."""
    return sorted(format_cards(o, "+") for o in capture_options(cards(table), card(played)))


def reference_options(table: tuple[Card, ...], played: Card) -> set[frozenset[Card]]:
    """A brute-force reading of the rule, independent of the library's search."""
    value = TUNISIAN.value(played)
    singles = {frozenset((c,)) for c in table if TUNISIAN.value(c) == value}
    if singles:
        return singles
    return {
        frozenset(group)
        for size in range(2, len(table) + 1)
        for group in combinations(table, size)
        if sum(TUNISIAN.value(c) for c in group) == value
    }


def test_worked_example_queen_takes_two_and_six_but_jack_cannot() -> None:
    assert options("2D 6S", "QH") == ["2D+6S"]
    assert options("2D 6S", "JH") == []


def test_courts_capture_sums() -> None:
    assert options("AS 2S 3S 4S", "KD") == ["AS+2S+3S+4S"]  # K=10 takes 1+2+3+4
    assert options("4S 5H", "JD") == ["4S+5H"]  # J=9
    assert options("2D 6S", "KD") == []  # 8 is not 10
    assert options("QS 2H", "KD") == ["2H+QS"]  # a court on the table counts its value


def test_an_equal_single_beats_every_sum() -> None:
    assert options("5C 2D 3S", "5D") == ["5C"]
    assert options("QS 2D 6S", "QH") == ["QS"]  # not 2+6
    assert options("7S AH 6H 3C 4C", "7D") == ["7S"]


def test_each_equal_single_is_an_option_of_its_own() -> None:
    assert options("5C 2D 3S 5H", "5D") == ["5C", "5H"]
    assert options("KS KH KC", "KD") == ["KC", "KH", "KS"]


def test_a_single_card_of_another_value_is_never_a_capture() -> None:
    assert options("6S", "7D") == []
    assert options("AS", "2D") == []


def test_every_sum_group_is_an_option() -> None:
    assert options("AS 2S 3S 4S 5S", "7D") == ["2S+5S", "3S+4S", "AS+2S+4S"]
    assert options("AS 2S 3S 4S 5S 6S", "6D") == ["6S"]  # equal single, sums ignored
    assert options("AS 2S 3S AH", "4D") == ["AH+3S", "AS+3S", "AS+AH+2S"]


def test_sums_only_use_two_or_more_cards_and_never_the_whole_when_too_much() -> None:
    assert options("AS AH", "2D") == ["AS+AH"]
    assert options("KS QS", "KD") == ["KS"]
    assert options("", "KD") == []
    assert options("KS QS JS", "7D") == []  # everything is worth more than 7


def in_order(table: str, played: str, rules: Rules = TUNISIAN) -> list[str]:
    """The capture options in the order capture_options gives them, e.g. ``['5C', '2D+3S']``
    (each group written in table order)."""
    laid = cards(table)
    return [
        "+".join(str(c) for c in laid if c in option)
        for option in capture_options(laid, card(played), rules)
    ]


def test_options_come_in_the_documented_order() -> None:
    # Singles in table order.
    assert in_order("5H 2D 5S 3S 5C", "5D") == ["5H", "5S", "5C"]
    assert in_order("KS KH KC", "KD") == ["KS", "KH", "KC"]
    # Groups by their table positions, compared at the first position where they differ:
    # positions (0, 1, 3) before (1, 4) before (2, 3), whatever the group sizes.
    assert in_order("AS 2S 3S 4S 5S", "7D") == ["AS+2S+4S", "2S+5S", "3S+4S"]
    # The same cards laid the other way: (0, 3), then (1, 2) before (1, 3, 4).
    assert in_order("5S 4S 3S 2S AS", "7D") == ["5S+2S", "4S+3S", "4S+2S+AS"]
    # A list, a tuple: the same table, the same order.
    table = cards("5S 4S 3S 2S AS")
    assert capture_options(list(table), card("7D")) == capture_options(table, card("7D"))
    # Where singles and groups are both options, the singles come first.
    free = attrs.evolve(TUNISIAN, equal_single_first=False)
    assert in_order("AS 5H 2D 4C 5C 3S", "5D", free) == ["5H", "5C", "AS+4C", "2D+3S"]
    assert in_order("4C 3S AS 5C 2D", "5D", free) == ["5C", "4C+AS", "3S+2D"]


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(ChkobbaError):
        capture_options(cards("2D"), "QH")  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError):
        capture_options(["2D"], card("QH"))  # type: ignore[list-item]
    with pytest.raises(ChkobbaError):
        capture_options(cards("2D"), card("QH"), rules="tunisian")  # type: ignore[arg-type]


@given(table_and_card(max_size=10))
def test_options_match_the_brute_force_reading_of_the_rule(
    drawn: tuple[tuple[Card, ...], Card],
) -> None:
    table, played = drawn
    found = capture_options(table, played)
    assert len(set(found)) == len(found)  # no option twice
    assert set(found) == reference_options(table, played)


@given(table_and_card(max_size=10))
def test_options_do_not_depend_on_table_order(drawn: tuple[tuple[Card, ...], Card]) -> None:
    table, played = drawn
    assert set(capture_options(table, played)) == set(capture_options(table[::-1], played))


@given(captures())
def test_a_capture_is_one_equal_card_or_a_sum_of_two_or_more(
    drawn: tuple[tuple[Card, ...], Card, frozenset[Card]],
) -> None:
    table, played, capture = drawn
    value = TUNISIAN.value(played)
    assert capture <= set(table)
    if len(capture) == 1:
        assert TUNISIAN.value(next(iter(capture))) == value
    elif capture:
        assert sum(TUNISIAN.value(c) for c in capture) == value
        assert all(TUNISIAN.value(c) != value for c in table)
    else:
        assert capture_options(table, played) == ()
