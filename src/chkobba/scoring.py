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

from chkobba.cards import DECK, Card, Rank, Suit
from chkobba.errors import ChkobbaError

__all__ = ["DealScore", "score_deal"]

SIDES = 2
_SEVEN_OF_DIAMONDS = Card(Rank.SEVEN, Suit.DIAMONDS)
_SEVEN_OF_DIAMONDS_ALONE = frozenset((_SEVEN_OF_DIAMONDS,))
_DIAMONDS = frozenset(c for c in DECK if c.suit is Suit.DIAMONDS)
_SEVENS = frozenset(c for c in DECK if c.rank is Rank.SEVEN)
_SIXES = frozenset(c for c in DECK if c.rank is Rank.SIX)


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
    return _score(piles, sweeps)


def _score(piles: tuple[tuple[Card, ...], ...], sweeps: tuple[int, ...]) -> DealScore:
    # Set intersections count in C: this runs at the end of every deal of every playout.
    card_counts = (len(piles[0]), len(piles[1]))
    diamond_counts = (len(_DIAMONDS.intersection(piles[0])), len(_DIAMONDS.intersection(piles[1])))
    seven_counts = (len(_SEVENS.intersection(piles[0])), len(_SEVENS.intersection(piles[1])))
    six_counts = (len(_SIXES.intersection(piles[0])), len(_SIXES.intersection(piles[1])))
    categories = (
        _more_than(card_counts, 20),
        _more_than(diamond_counts, 5),
        _bermila(seven_counts, six_counts),
        0
        if _SEVEN_OF_DIAMONDS_ALONE.intersection(piles[0])
        else 1
        if _SEVEN_OF_DIAMONDS_ALONE.intersection(piles[1])
        else None,
    )
    points = (
        sweeps[0] + categories.count(0),
        sweeps[1] + categories.count(1),
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
    for n in sweeps:
        if type(n) is not int or n < 0:
            raise ChkobbaError(f"score_deal: chkobba count {n!r} is not a whole number >= 0")
    everything = [c for pile in piles for c in pile]
    for c in everything:
        if not isinstance(c, Card):
            raise ChkobbaError(f"score_deal: {c!r} in a pile is not a card")
    if len(set(everything)) != len(everything):
        twice = sorted(c for c in set(everything) if everything.count(c) > 1)
        raise ChkobbaError(f"score_deal: {twice[0]} is in the piles twice")
