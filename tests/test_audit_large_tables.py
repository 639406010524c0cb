"""Found by the long-run soak audit (stop 52): a house profile with a card worth far more
than the others (capture values up to 1000 are allowed) made the capture kernel list
every subset of a table whose values add up to less than that card. On a hand-built
table of 30 cards that is about 2**30 groups: `legal_moves` never returned.

Past a dozen cards the kernel now works out only the sums a card may take. These tests
pin that the two ways give the same captures in the same order, and that large tables
of such profiles list their plays.
"""

from __future__ import annotations

import itertools

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import DECK, TUNISIAN, Card, Rules, _kernel, capture_options, card
from chkobba.captures import hand_plays, sum_groups
from tests.strategies import examples, rule_profiles

BIG_KING = attrs.evolve(TUNISIAN, name="big king", capture_values=(1, 2, 3, 4, 5, 6, 7, 8, 9, 1000))


def _captures(rules: Rules, table: list[Card], every_sum_up_to: int) -> object:
    fresh = _kernel.Kernel(rules)  # nothing remembered from other tables
    signature = fresh.signature(fresh.code[c.index] for c in table)
    before = _kernel._EVERY_SUM_UP_TO
    _kernel._EVERY_SUM_UP_TO = every_sum_up_to
    try:
        return fresh._captures(signature)
    finally:
        _kernel._EVERY_SUM_UP_TO = before


@pytest.mark.parametrize("size", [13, 20, 30, 36])
def test_a_large_table_of_a_profile_with_a_card_worth_1000_lists_its_plays(size: int) -> None:
    table = tuple(c for c in DECK if c.rank.name != "KING")[:size]
    king = card("KS")
    plays = hand_plays((king,), table, BIG_KING)
    assert [str(play) for play in plays] == ["KS"]  # no group of small cards adds up to 1000
    seven = card("7S") if card("7S") not in table else card("7D")
    if seven not in table:
        listed = {play.capture for play in hand_plays((seven,), table, BIG_KING)}
        assert listed == set(capture_options(table, seven, BIG_KING))


def test_a_large_tunisian_table_takes_the_same_groups_as_the_reference() -> None:
    # Tables past a dozen cards take the new path under the default profile too.
    table = tuple(c for c in DECK if c.rank.name in ("ACE", "TWO", "THREE", "FOUR"))[:14]
    for played in (card("KS"), card("JH"), card("7D"), card("5C")):
        groups = {play.capture for play in hand_plays((played,), table, TUNISIAN)}
        expected = {
            frozenset(group)
            for size in range(2, len(table) + 1)
            for group in itertools.combinations(table, size)
            if sum(TUNISIAN.value(c) for c in group) == TUNISIAN.value(played)
        }
        assert groups == expected and groups


def test_capture_options_stops_a_search_the_rest_of_the_table_cannot_complete() -> None:
    # capture_options' own search (captures.sum_groups) tried every subset of a table
    # adding up to less than the target: a king worth 1000 on 30 small cards never
    # returned.
    table = tuple(c for c in DECK if c.rank.name != "KING")[:30]
    assert capture_options(table, card("KS"), BIG_KING) == ()
    assert sum_groups(tuple(range(1, 31)), 10**6) == ()
    assert sum_groups((2, 6, 5, 3), 8) == ((0, 1), (2, 3))


@st.composite
def _valued_profiles(draw: st.DrawFn) -> Rules:
    """Profiles with capture values up to 1000 (the house profiles that motivated the
    change), every flag drawn."""
    values = tuple(draw(st.lists(st.integers(1, 1000), min_size=10, max_size=10)))
    if draw(st.booleans()):  # a few small values, so that many groups add up
        values = (*[draw(st.integers(1, 12)) for _ in range(9)], values[9])
    return attrs.evolve(
        TUNISIAN,
        name="house",
        capture_values=values,
        equal_single_first=draw(st.booleans()),
        courts_capture_sums=draw(st.booleans()),
    )


@settings(max_examples=examples(300), deadline=None)
@given(
    st.one_of(rule_profiles(), _valued_profiles()),
    st.lists(st.sampled_from(DECK), min_size=2, max_size=13, unique=True),
)
def test_the_sums_a_card_may_take_give_every_sums_captures(rules: Rules, table: list[Card]) -> None:
    # Random profiles (the named ones' values and values up to 10) and house profiles
    # with values up to 1000, every flag drawn.
    every_sum = _captures(rules, table, every_sum_up_to=len(DECK))
    by_target = _captures(rules, table, every_sum_up_to=1)
    assert by_target == every_sum


def test_capture_options_of_small_cards_before_a_large_one_end() -> None:
    # Pruning by what the rest of the table adds up to did not stop this: one card worth
    # 999 after the small ones keeps that sum high (found by the review of stop 52).
    big = attrs.evolve(TUNISIAN, name="big", capture_values=(1, 2, 3, 4, 5, 6, 7, 8, 999, 1000))
    small = tuple(c for c in DECK if c.rank.name not in ("KING", "JACK"))[:30]
    options = capture_options((*small, card("JH")), card("KS"), big)
    assert {len(option) for option in options} == {2} and len(options) == 4  # JH + an ace
