"""Scoring under every profile field, for 2 and 3 sides (the profiles issue, #9)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    Card,
    ChkobbaError,
    DealScore,
    Rank,
    Rules,
    Suit,
    card,
    cards,
    score_deal,
)

MOST = attrs.evolve(TUNISIAN, majority="most")
TIES = attrs.evolve(TUNISIAN, ties_to_last_capturer=True)
MOST_TIES = attrs.evolve(MOST, ties_to_last_capturer=True)
PRIMIERA = attrs.evolve(TUNISIAN, primiera=True)
# The sevens and sixes last, the 7D last of the diamonds: small piles hold none of them.
_LATE = (Rank.SIX, Rank.SEVEN)
DIAMONDS = sorted((c for c in DECK if c.suit is Suit.DIAMONDS), key=lambda c: c.rank is Rank.SEVEN)
PLAIN = sorted((c for c in DECK if c.suit is not Suit.DIAMONDS), key=lambda c: c.rank in _LATE)


def piles(*counts: int, diamonds: Sequence[int] = ()) -> tuple[tuple[Card, ...], ...]:
    """Piles with these card counts, dealt in side order from the plain cards, then the
    diamonds; with ``diamonds``, side i holds exactly ``diamonds[i]`` of them."""
    suit, plain = list(DIAMONDS), list(PLAIN)
    made = []
    for side, n in enumerate(counts):
        if diamonds:
            pile = suit[: diamonds[side]] + plain[: n - diamonds[side]]
        else:
            pile = (plain + suit)[:n]
        assert len(pile) == n, "more cards than the deck holds"
        made.append(tuple(pile))
        suit = [c for c in suit if c not in pile]
        plain = [c for c in plain if c not in pile]
    return tuple(made)


def score(
    made: tuple[tuple[Card, ...], ...], rules: Rules = TUNISIAN, last: int | None = None
) -> DealScore:
    return score_deal(made, (0,) * len(made), rules, last_capturer_side=last)


# --- majority --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "half", "most"),
    [
        ((21, 19), 0, 0),
        ((19, 18), None, 0),  # 3 leftovers to nobody: the most, but not more than half
        ((20, 20), None, None),
        ((15, 14, 6), None, 0),
        ((6, 14, 15), None, 2),
        ((14, 14, 6), None, None),
        ((22, 9, 9), 0, 0),
    ],
)
def test_cards_majority(counts: tuple[int, ...], half: int | None, most: int | None) -> None:
    made = piles(*counts)
    assert score(made).cards_winner == half
    assert score(made, MOST).cards_winner == most


@pytest.mark.parametrize(
    ("diamonds", "half", "most"),
    [((6, 3), 0, 0), ((4, 3), None, 0), ((3, 3, 3), None, None), ((1, 4, 3), None, 1)],
)
def test_diamonds_majority(diamonds: tuple[int, ...], half: int | None, most: int | None) -> None:
    made = piles(*(10,) * len(diamonds), diamonds=diamonds)
    assert score(made).diamond_counts == diamonds
    assert score(made).diamonds_winner == half
    assert score(made, MOST).diamonds_winner == most


# --- ties_to_last_capturer --------------------------------------------------------------


def test_an_even_split_goes_to_the_last_capturer() -> None:
    even = piles(20, 20, diamonds=(5, 5))
    for last in (0, 1):
        assert score(even, TIES, last=last).cards_winner == last
        assert score(even, TIES, last=last).diamonds_winner == last
        assert score(even, TUNISIAN, last=last).cards_winner is None
        assert score(even, TUNISIAN, last=last).diamonds_winner is None
    assert score(even, TIES, last=None).cards_winner is None
    uneven = piles(20, 20, diamonds=(6, 4))
    assert score(uneven, TIES, last=1).diamonds_winner == 0


def test_more_than_half_has_no_tie_when_cards_went_to_nobody() -> None:
    short = piles(19, 19)  # two leftovers to nobody: not a tie, nobody has more than half
    assert score(short, TIES, last=0).cards_winner is None
    three = piles(15, 15, 10)
    assert score(three, TIES, last=0).cards_winner is None


def test_a_most_tie_goes_to_the_last_capturer_only_if_among_the_leaders() -> None:
    made = piles(14, 14, 12)
    assert score(made, MOST_TIES, last=1).cards_winner == 1
    assert score(made, MOST_TIES, last=0).cards_winner == 0
    assert score(made, MOST_TIES, last=2).cards_winner is None  # side 2 is not tied on top
    assert score(made, MOST, last=1).cards_winner is None


def test_ties_to_the_last_capturer_never_decide_the_bermila() -> None:
    # Sevens 2-2, sixes 2-2: a tied bermila stays nobody's.
    a = cards("7S 7H 6S 6H")
    b = cards("7C 7D 6C 6D")
    made = (a, b)
    assert score(made, MOST_TIES, last=0).bermila_winner is None


# --- sevens_bermila ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("made", "winner"),
    [
        ((cards("7S 7H 6S"), cards("7C 6H 6C")), 0),
        ((cards("7S 6S"), cards("7C 6H 6C")), 1),
        ((cards("7S 6S"), cards("7C 6H")), None),
        ((cards("7S 7H 6S"), cards("7C 7D 6H 6C"), cards("6D")), 1),
        ((cards("7S 7H 6S 6H"), cards("7C 7D 6C 6D"), ()), None),
        # Side 2 has the most sixes but is not among the sides tied on sevens.
        ((cards("7S 7H 6S"), cards("7C 7D"), cards("6H 6C 6D")), 0),
        ((cards("7S"), cards("7H"), cards("7C 6S")), 2),
    ],
)
def test_bermila(made: tuple[tuple[Card, ...], ...], winner: int | None) -> None:
    assert score(made).bermila_winner == winner
    assert score(made, attrs.evolve(TUNISIAN, sevens_bermila=False)).bermila_winner is None


def test_no_bermila_under_card_rules_plus() -> None:
    made = (cards("7S 7H 6S"), cards("7C 6H 6C"))
    assert score(made, CARD_RULES_PLUS).bermila_winner is None
    assert score(made, CARD_RULES_PLUS).points == (0, 0)


# --- seven_of_diamonds -------------------------------------------------------------------


@pytest.mark.parametrize("side", [0, 1, 2])
def test_seven_of_diamonds(side: int) -> None:
    made = [(), (), ()]
    made[side] = (card("7D"),)
    assert score(tuple(made)).seven_of_diamonds_winner == side
    off = attrs.evolve(TUNISIAN, seven_of_diamonds=False)
    assert score(tuple(made), off).seven_of_diamonds_winner is None
    assert score(((), (), ())).seven_of_diamonds_winner is None


# --- primiera ----------------------------------------------------------------------------


def test_primiera_sums_the_best_card_of_each_suit() -> None:
    a = cards("7S 6H AC 5D 2S")  # 21 + 18 + 16 + 15
    b = cards("6S 7H 7C KD")  # 18 + 21 + 21 + 10
    made = (a, b)
    result = score(made, PRIMIERA)
    assert result.primiera_sums == (70, 70)
    assert result.primiera_winner is None
    made = (a, (*b[:3], card("4D")))  # 18 + 21 + 21 + 14 = 74
    assert score(made, PRIMIERA).primiera_winner == 1
    assert score(made, PRIMIERA).primiera == 1
    assert score(made, TUNISIAN).primiera_winner is None


# RULES.md part II: per suit the best card counts 7=21, 6=18, A=16, 5=15, 4=14, 3=13,
# 2=12, Q/J/K=10.
PRIMIERA_TABLE = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12}
PRIMIERA_TABLE.update(dict.fromkeys("QJK", 10))


@pytest.mark.parametrize("rank", sorted(PRIMIERA_TABLE))
def test_every_rank_has_its_primiera_value(rank: str) -> None:
    # Four of one rank, one per suit: the sum is four times the rank's value, and against
    # four of another rank the higher value wins. (The fast scorer reads the same table,
    # and test_fast_core checks it against score_deal.)
    other = "K" if PRIMIERA_TABLE[rank] > 10 else "A"
    four, others = (cards(" ".join(r + s for s in "SHCD")) for r in (rank, other))
    result = score((four, others), PRIMIERA)
    value, other_value = PRIMIERA_TABLE[rank], PRIMIERA_TABLE[other]
    assert result.primiera_sums == (4 * value, 4 * other_value)
    assert result.primiera_winner == (0 if value > other_value else 1)


def test_a_side_missing_a_suit_cannot_win_the_primiera() -> None:
    a = cards("7S 7H 7C")  # no diamond: 63 would beat anything small, but it cannot count
    b = cards("2S 2H 2C 2D")  # 48
    result = score((a, b), PRIMIERA)
    assert result.primiera_sums == (0, 48)
    assert result.primiera_winner == 1
    assert score((a, cards("2S 2H 2C")), PRIMIERA).primiera_winner is None


def test_primiera_with_three_sides() -> None:
    a = cards("7S 7H 7C 7D")  # 84
    b = cards("6S 6H 6C 6D")  # 72
    c = cards("AS AH AC AD")  # 64
    result = score((a, b, c), PRIMIERA)
    assert result.primiera_sums == (84, 72, 64) and result.primiera_winner == 0
    assert result.points[0] == 2 + 1  # the 7D, the bermila (4 sevens) and the primiera


# --- points, sides and the DealScore names ------------------------------------------------


def test_three_side_points_add_categories_and_chkobbas() -> None:
    made = piles(14, 13, 13, diamonds=(4, 3, 3))  # side 2 holds every seven
    result = score_deal(made, (1, 0, 2), MOST)
    assert result.card_counts == (14, 13, 13) and result.seven_counts == (0, 0, 4)
    assert (result.cards_winner, result.diamonds_winner) == (0, 0)
    assert result.seven_of_diamonds_winner == 2 and result.bermila_winner == 2
    assert result.points == (3, 0, 4)
    assert result.sides == 3
    assert score_deal(made, (1, 0, 2), TUNISIAN).points == (1, 0, 4)  # no majority at all


def test_three_side_ties_score_nobody() -> None:
    made = piles(14, 14, 12, diamonds=(4, 4, 2))
    result = score_deal(made, (0, 0, 0), MOST)
    assert result.card_counts == (14, 14, 12) and result.diamond_counts == (4, 4, 2)
    assert result.cards_winner is None and result.diamonds_winner is None
    tied = score_deal(made, (0, 0, 0), MOST_TIES, last_capturer_side=1)
    assert tied.cards_winner == 1 and tied.diamonds_winner == 1


def test_card_rules_plus_scores_the_worked_example_without_the_bermila() -> None:
    a = cards("7D 7S 6S 6H 6C AD 2D 3D 4D 5D AS AH AC 2S 2H 2C 3S 3H 3C 4S 4H 4C")
    b = tuple(c for c in DECK if c not in a)
    assert score_deal((a, b), (1, 0)).points == (5, 0)
    assert score_deal((a, b), (1, 0), CARD_RULES_PLUS).points == (4, 0)


def test_the_winner_names_and_their_old_aliases() -> None:
    a = cards("7D 7S 6S 6H 6C AD 2D 3D 4D 5D AS AH AC 2S 2H 2C 3S 3H 3C 4S 4H 4C")
    b = tuple(c for c in DECK if c not in a)
    result = score_deal((a, b), (0, 0))
    assert result.winners == {
        "cards": 0,
        "diamonds": 0,
        "bermila": 0,
        "seven_of_diamonds": 0,
        "primiera": None,
    }
    with pytest.warns(DeprecationWarning) as warned:
        aliases = (result.cards, result.diamonds, result.bermila, result.seven_of_diamonds)
    assert aliases == (
        result.cards_winner,
        result.diamonds_winner,
        result.bermila_winner,
        result.seven_of_diamonds_winner,
    )
    assert [str(w.message).split(" is ")[0] for w in warned] == [
        "DealScore.cards",
        "DealScore.diamonds",
        "DealScore.bermila",
        "DealScore.seven_of_diamonds",
    ]
    assert all(w.filename == __file__ for w in warned)  # the caller's line, not ours
    assert result.primiera == result.primiera_winner  # named like the others: no warning
    with pytest.warns(DeprecationWarning) as warned:
        old = DealScore(
            cards=0,
            diamonds=None,
            bermila=1,
            seven_of_diamonds=0,
            chkobbas=(0, 0),
            points=(2, 1),
            card_counts=(21, 19),
            diamond_counts=(5, 5),
            seven_counts=(1, 3),
            six_counts=(2, 2),
        )
    assert len(warned) == 4 and all(w.filename == __file__ for w in warned)
    assert old.cards_winner == 0 and old.bermila_winner == 1 and old.diamonds_winner is None
    with pytest.raises(ChkobbaError, match="old name"):
        DealScore(cards=0, cards_winner=0)


@pytest.mark.parametrize("module", ["chkobba.state", "chkobba.scoring"])
def test_the_old_sides_constant_warns_for_its_last_release(module: str) -> None:
    imported = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=rf"{module}\.SIDES is deprecated") as warned:
        assert imported.SIDES == 2
    assert warned[0].filename == __file__  # the caller's line
    assert "SIDES" not in imported.__all__  # a star import does not warn
    with pytest.raises(AttributeError, match="has no attribute 'SIDE'"):
        imported.SIDE  # noqa: B018
