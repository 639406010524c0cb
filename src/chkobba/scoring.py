"""Scoring one deal: the four categories plus chkobbas (Tunisian profile).

Per deal a side scores 1 for more than 20 cards (karta), 1 for more than 5 diamonds
(dinari), 1 for the bermila (more sevens; if equal, more sixes), 1 for the seven of
diamonds (7ayya) and 1 per chkobba. A tied category earns nothing.

The worked example of the rules (side 0 has 22 cards, 6 diamonds, the 7♦, two sevens,
three sixes and one chkobba):

>>> a = cards("7D 7S 6S 6H 6C AD 2D 3D 4D 5D AS AH AC 2S 2H 2C 3S 3H 3C 4S 4H 4C")
>>> b = [c for c in DECK if c not in a]
>>> score = score_deal((a, b), (1, 0))
>>> score.points
(5, 0)
>>> score.cards, score.diamonds, score.bermila, score.seven_of_diamonds
(0, 0, 0, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from chkobba.cards import Card, Rank, Suit
from chkobba.errors import ChkobbaError

__all__ = ["DealScore", "score_deal"]

SIDES = 2
_SEVEN_OF_DIAMONDS = Card(Rank.SEVEN, Suit.DIAMONDS)


@attrs.frozen
class DealScore:
    """The score of one completed deal.

    Each category names the side that won it, or ``None`` when nobody did (a tie, or for
    the 7♦ a card that went to no side). ``points`` is each side's total for the deal,
    chkobbas included. The ``*_counts`` fields keep the tallies behind the categories.
    """

    cards: int | None
    diamonds: int | None
    bermila: int | None
    seven_of_diamonds: int | None
    chkobbas: tuple[int, ...]
    points: tuple[int, ...]
    card_counts: tuple[int, ...]
    diamond_counts: tuple[int, ...]
    seven_counts: tuple[int, ...]
    six_counts: tuple[int, ...]


def score_deal(captured: Sequence[Sequence[Card]], chkobbas: Sequence[int]) -> DealScore:
    """Score a deal from each side's captured pile and chkobba count.

    Raises :class:`~chkobba.errors.ChkobbaError` for inputs that cannot come from a
    deal: not two sides, something that is not a card, a card in two piles, a negative
    chkobba count.
    """
    piles = tuple(tuple(pile) for pile in captured)
    sweeps = tuple(chkobbas)
    _check(piles, sweeps)
    card_counts = tuple(len(pile) for pile in piles)
    diamond_counts = tuple(sum(c.suit is Suit.DIAMONDS for c in pile) for pile in piles)
    seven_counts = tuple(sum(c.rank is Rank.SEVEN for c in pile) for pile in piles)
    six_counts = tuple(sum(c.rank is Rank.SIX for c in pile) for pile in piles)
    categories = (
        _more_than(card_counts, 20),
        _more_than(diamond_counts, 5),
        _bermila(seven_counts, six_counts),
        next((side for side, pile in enumerate(piles) if _SEVEN_OF_DIAMONDS in pile), None),
    )
    points = tuple(
        sweeps[side] + sum(winner == side for winner in categories) for side in range(SIDES)
    )
    return DealScore(
        *categories,
        chkobbas=sweeps,
        points=points,
        card_counts=card_counts,
        diamond_counts=diamond_counts,
        seven_counts=seven_counts,
        six_counts=six_counts,
    )


def _more_than(counts: tuple[int, ...], half: int) -> int | None:
    # "More than half" rather than "more than the other side": with leftovers that went
    # to nobody, 20-18 cards is still no point.
    return next((side for side, n in enumerate(counts) if n > half), None)


def _bermila(sevens: tuple[int, ...], sixes: tuple[int, ...]) -> int | None:
    if sevens[0] != sevens[1]:
        return 0 if sevens[0] > sevens[1] else 1
    if sixes[0] != sixes[1]:
        return 0 if sixes[0] > sixes[1] else 1
    return None


def _check(piles: tuple[tuple[Card, ...], ...], sweeps: tuple[int, ...]) -> None:
    if len(piles) != SIDES or len(sweeps) != SIDES:
        raise ChkobbaError(
            f"score_deal needs {SIDES} piles and {SIDES} chkobba counts, "
            f"got {len(piles)} and {len(sweeps)}"
        )
    seen: set[Card] = set()
    for pile in piles:
        for c in pile:
            if not isinstance(c, Card):
                raise ChkobbaError(f"score_deal: {c!r} in a pile is not a card")
            if c in seen:
                raise ChkobbaError(f"score_deal: {c} is in the piles twice")
            seen.add(c)
    for n in sweeps:
        if type(n) is not int or n < 0:
            raise ChkobbaError(f"score_deal: chkobba count {n!r} is not a whole number >= 0")
