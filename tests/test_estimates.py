"""The search's estimate of a deal in progress (``chkobba.bots.evaluation``).

It counts the categories the profile plays and no other, is exact once every card is in
a pile, and with three sides takes each category's chances from the exact split of the
cards still out.
"""

from __future__ import annotations

import itertools

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import CARD_RULES_PLUS, DECK, TUNISIAN, Card, Rules, card, cards, score_deal
from chkobba.bots._policy_rollout import side_rewards
from chkobba.bots.evaluation import _split_chances, deal_estimate, side_estimates
from chkobba.errors import ChkobbaError
from chkobba.scoring import majority
from tests.strategies import rule_profiles, side_piles

Piles = tuple[tuple[Card, ...], ...]


@settings(max_examples=150, deadline=None)
@given(rule_profiles(), st.sampled_from([2, 3]), st.data())
def test_a_finished_deal_is_estimated_exactly(
    rules: Rules, sides: int, data: st.DataObject
) -> None:
    # Every card in a pile: each category is decided, and the estimate is the deal's
    # points against the others' (the primiera is not estimated: profiles without it).
    rules = attrs.evolve(rules, primiera=False)
    piles, chkobbas = data.draw(side_piles(sides, out=False))
    points = score_deal(piles, chkobbas, rules).points
    assert side_estimates(piles, chkobbas, rules) == pytest.approx(side_rewards(points, 1.0))
    if sides == 2:
        assert deal_estimate(piles, chkobbas, rules) == pytest.approx(points[0] - points[1])


def _swapped(piles: Piles, one: Card, other: Card) -> Piles:
    """``piles`` with the two cards trading places."""
    trade = {one: other, other: one}
    return tuple(tuple(trade.get(c, c) for c in pile) for pile in piles)


@settings(max_examples=150, deadline=None)
@given(rule_profiles(), st.sampled_from([2, 3]), st.data())
def test_a_category_the_profile_does_not_play_weighs_nothing(
    rules: Rules, sides: int, data: st.DataObject
) -> None:
    piles, chkobbas = data.draw(side_piles(sides))
    estimate = side_estimates(piles, chkobbas, rules)
    held = {c: side for side, pile in enumerate(piles) for c in pile}
    # A seven for a six of the same suit, not a diamond: only the bermila can tell.
    if not rules.sevens_bermila:
        for suit in "SHC":
            one, other = card("7" + suit), card("6" + suit)
            moved = _swapped(piles, one, other)
            assert side_estimates(moved, chkobbas, rules) == pytest.approx(estimate)
    # The 7♦ for the 5♦ with the bermila off too: only the 7♦ category can tell.
    if not rules.seven_of_diamonds and not rules.sevens_bermila:
        moved = _swapped(piles, card("7D"), card("5D"))
        assert side_estimates(moved, chkobbas, rules) == pytest.approx(estimate)
    # Where the profile plays it, the 7♦ changing sides does count.
    if rules.seven_of_diamonds and held.get(card("7D")) != held.get(card("5D")):
        moved = _swapped(piles, card("7D"), card("5D"))
        assert side_estimates(moved, chkobbas, rules) != pytest.approx(estimate)


def test_the_named_profiles() -> None:
    # The worked example of the rules: side 0 takes cards, diamonds, bermila and the 7♦.
    a = cards("7D 7S 6S 6H 6C AD 2D 3D 4D 5D AS AH AC 2S 2H 2C 3S 3H 3C 4S 4H 4C")
    piles = (a, tuple(c for c in DECK if c not in a))
    assert deal_estimate(piles, (1, 0)) == pytest.approx(5.0)
    assert deal_estimate(piles, (1, 0), TUNISIAN) == pytest.approx(5.0)
    assert deal_estimate(piles, (1, 0), CARD_RULES_PLUS) == pytest.approx(4.0)  # no bermila


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=3, max_size=3),
    st.integers(0, 6),
    st.sampled_from([TUNISIAN, CARD_RULES_PLUS]),
)
def test_three_sides_chances_are_those_of_every_split(
    have: list[int], rest: int, rules: Rules
) -> None:
    # Brute force: each card still out goes to each side alike, 3 ** rest ways.
    total = sum(have) + rest
    wins = [0, 0, 0]
    for owners in itertools.product(range(3), repeat=rest):
        final = tuple(have[side] + owners.count(side) for side in range(3))
        winner = majority(final, total // 2, rules, None)
        if winner is not None:
            wins[winner] += 1
    chances = _split_chances(tuple(have), total, rules)
    assert chances == pytest.approx([w / 3**rest for w in wins])


@settings(max_examples=100, deadline=None)
@given(rule_profiles(), st.data())
def test_three_sides_are_treated_alike(rules: Rules, data: st.DataObject) -> None:
    piles, chkobbas = data.draw(side_piles(3))
    estimate = side_estimates(piles, chkobbas, rules)
    assert sum(estimate) == pytest.approx(0.0, abs=1e-9)
    for order in itertools.permutations(range(3)):
        turned = side_estimates(
            tuple(piles[i] for i in order), tuple(chkobbas[i] for i in order), rules
        )
        assert turned == pytest.approx(tuple(estimate[i] for i in order))


def test_side_estimates_checks_its_arguments() -> None:
    with pytest.raises(ChkobbaError, match="side_estimates: needs two or three sides'"):
        side_estimates(((),), (0,))
    with pytest.raises(ChkobbaError, match="side_estimates: captured has more than 3 items"):
        side_estimates(((), (), (), ()), (0, 0, 0, 0))
    with pytest.raises(ChkobbaError, match="got 3 and 2"):
        side_estimates(((), (), ()), (0, 0))
    with pytest.raises(ChkobbaError, match="side_estimates: rules must be a Rules profile"):
        side_estimates(((), ()), (0, 0), "tunisian")  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="deal_estimate: needs two sides'"):
        deal_estimate(((), (), ()), (0, 0, 0))
