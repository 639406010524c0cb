"""Scoring one deal (RULES.md §5) and the worked example (§7)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given

from chkobba import DECK, Card, ChkobbaError, DealScore, Rank, Suit, card, cards, score_deal
from tests.strategies import deal_piles

SEVEN_D = card("7D")


def split(side0: Sequence[Card], nobody: Sequence[Card] = ()) -> tuple[tuple[Card, ...], ...]:
    """Side 0 gets ``side0``, nobody gets ``nobody``, side 1 gets every other card."""
    rest = tuple(c for c in DECK if c not in side0 and c not in nobody)
    return tuple(side0), rest


def pick(
    n: int, *, suit: Suit | None = None, rank: Rank | None = None, avoid: Sequence[Card] = ()
) -> list[Card]:
    found = [
        c
        for c in DECK
        if (suit is None or c.suit is suit) and (rank is None or c.rank is rank) and c not in avoid
    ]
    assert len(found) >= n
    return found[:n]


def pile(*, total: int, diamonds: int, sevens: int, sixes: int, seven_d: bool) -> list[Card]:
    """A pile of ``total`` cards with exactly these counts (sevens include 7D if held)."""
    chosen: list[Card] = []
    if seven_d:
        chosen.append(SEVEN_D)
    chosen += pick(sevens - len(chosen), rank=Rank.SEVEN, avoid=[SEVEN_D])
    chosen += pick(sixes, rank=Rank.SIX, avoid=[card("6D")])
    have_d = sum(c.suit is Suit.DIAMONDS for c in chosen)
    plain = [c for c in DECK if c.rank not in (Rank.SIX, Rank.SEVEN)]
    chosen += [c for c in plain if c.suit is Suit.DIAMONDS][: diamonds - have_d]
    chosen += [c for c in plain if c.suit is not Suit.DIAMONDS][: total - len(chosen)]
    assert len(chosen) == total and len(set(chosen)) == total
    return chosen


def test_the_worked_example_scores_five() -> None:
    a = pile(total=22, diamonds=6, sevens=2, sixes=3, seven_d=True)
    score = score_deal(split(a), (1, 0))
    assert score.card_counts == (22, 18)
    assert score.diamond_counts == (6, 4)
    assert score.seven_counts == (2, 2)
    assert score.six_counts == (3, 1)
    assert tuple(score.winners.values())[:4] == (0, 0, 0, 0)
    assert score.points == (5, 0)
    # 1+1+1+1+1: the four categories and the chkobba; each chkobba is one point more.
    assert score.chkobbas == (1, 0)
    assert score_deal(split(a), (0, 0)).points == (4, 0)
    assert score_deal(split(a), (3, 2)).points == (7, 2)


@pytest.mark.parametrize(
    ("count", "winner"), [(21, 0), (22, 0), (40, 0), (20, None), (19, 1), (0, 1)]
)
def test_cards_need_more_than_20(count: int, winner: int | None) -> None:
    a = DECK[:count]
    assert score_deal(split(a), (0, 0)).cards_winner == winner


def test_cards_20_18_with_leftovers_to_nobody_is_no_point() -> None:
    a = pick(20, suit=None)
    nobody = [c for c in DECK if c not in a][:2]
    piles = (tuple(a), tuple(c for c in DECK if c not in a and c not in nobody))
    assert score_deal(piles, (0, 0)).cards_winner is None


@pytest.mark.parametrize(("count", "winner"), [(6, 0), (10, 0), (5, None), (4, 1), (0, 1)])
def test_diamonds_need_more_than_5(count: int, winner: int | None) -> None:
    a = pick(count, suit=Suit.DIAMONDS)
    assert score_deal(split(a), (0, 0)).diamonds_winner == winner


@pytest.mark.parametrize(
    ("sevens", "sixes", "winner"),
    [
        ((3, 1), (0, 4), 0),  # more sevens wins, whatever the sixes
        ((4, 0), (0, 4), 0),
        ((1, 3), (4, 0), 1),
        ((2, 2), (3, 1), 0),  # equal sevens: more sixes
        ((2, 2), (1, 3), 1),
        ((2, 2), (2, 2), None),  # equal sevens and sixes: nobody
    ],
)
def test_bermila_is_most_sevens_then_most_sixes(
    sevens: tuple[int, int], sixes: tuple[int, int], winner: int | None
) -> None:
    a = pick(sevens[0], rank=Rank.SEVEN) + pick(sixes[0], rank=Rank.SIX)
    assert score_deal(split(a), (0, 0)).bermila_winner == winner


def test_bermila_is_not_only_the_seven_of_diamonds() -> None:
    # The other rule set calls the 7D alone "bermila"; here it is the sevens count.
    a = pick(3, rank=Rank.SEVEN, avoid=[SEVEN_D])
    score = score_deal(split(a), (0, 0))
    assert score.bermila_winner == 0
    assert score.seven_of_diamonds_winner == 1


def test_seven_of_diamonds() -> None:
    assert score_deal(split([SEVEN_D]), (0, 0)).seven_of_diamonds_winner == 0
    assert score_deal(split([card("7S")]), (0, 0)).seven_of_diamonds_winner == 1
    # Leftovers that went to nobody: the 7D scores for no side.
    assert score_deal(split([], nobody=[SEVEN_D]), (0, 0)).seven_of_diamonds_winner is None


def test_each_chkobba_is_a_point() -> None:
    base = score_deal(split(pile(total=20, diamonds=5, sevens=2, sixes=2, seven_d=False)), (0, 0))
    swept = score_deal(split(pile(total=20, diamonds=5, sevens=2, sixes=2, seven_d=False)), (3, 2))
    assert swept.chkobbas == (3, 2)
    assert swept.points == (base.points[0] + 3, base.points[1] + 2)


def test_every_category_tied_scores_nothing_but_chkobbas() -> None:
    a = pile(total=20, diamonds=5, sevens=1, sixes=2, seven_d=False)
    nobody = [SEVEN_D, next(c for c in pick(4, rank=Rank.SEVEN) if c not in a and c != SEVEN_D)]
    piles = split(a, nobody)
    score = score_deal(piles, (0, 1))
    assert score.card_counts == (20, 18)
    assert score.diamond_counts == (5, 4)
    assert score.seven_counts == (1, 1)
    assert score.six_counts == (2, 2)
    assert tuple(score.winners.values())[:4] == (None,) * 4
    assert score.points == (0, 1)


def test_one_side_can_take_every_category() -> None:
    score = score_deal((DECK, ()), (0, 0))
    assert score.points == (4, 0)
    assert score.card_counts == (40, 0)


@given(deal_piles())
def test_points_are_the_categories_won_plus_chkobbas(
    drawn: tuple[tuple[tuple[Card, ...], tuple[Card, ...]], tuple[int, int], tuple[Card, ...]],
) -> None:
    piles, sweeps, _nobody = drawn
    score = score_deal(piles, sweeps)
    assert isinstance(score, DealScore)
    for side in (0, 1):
        mine, theirs = piles[side], piles[1 - side]

        def count(group: Sequence[Card], what: object) -> int:
            return sum(c.rank is what or c.suit is what for c in group)

        sevens = (count(mine, Rank.SEVEN), count(theirs, Rank.SEVEN))
        sixes = (count(mine, Rank.SIX), count(theirs, Rank.SIX))
        won = [
            len(mine) > 20,
            count(mine, Suit.DIAMONDS) > 5,
            sevens[0] > sevens[1] or (sevens[0] == sevens[1] and sixes[0] > sixes[1]),
            SEVEN_D in mine,
        ]
        assert score.points[side] == sum(won) + sweeps[side]
    assert sum(score.points) <= 4 + sum(sweeps)


def test_bad_input_is_rejected() -> None:
    a, b = split(cards("AS 2S"))
    with pytest.raises(ChkobbaError, match="2 or 3 piles"):
        score_deal((a, b, ()), (0, 0))
    with pytest.raises(ChkobbaError, match="2 or 3 piles"):
        score_deal((a, b, (), ()), (0, 0, 0, 0))
    with pytest.raises(ChkobbaError, match="2 or 3 piles"):
        score_deal((a,), (0,))
    with pytest.raises(ChkobbaError, match="last_capturer_side"):
        score_deal((a, b), (0, 0), last_capturer_side=2)
    with pytest.raises(ChkobbaError, match="rules"):
        score_deal((a, b), (0, 0), "tunisian")  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="twice"):
        score_deal((a, a), (0, 0))
    with pytest.raises(ChkobbaError, match="chkobba count"):
        score_deal((a, b), (-1, 0))
    with pytest.raises(ChkobbaError, match="not a card"):
        score_deal((["AS"], ()), (0, 0))  # type: ignore[list-item]
