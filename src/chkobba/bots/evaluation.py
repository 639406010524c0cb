"""A static estimate of a deal in progress: side 0's expected points minus side 1's.

Search cannot always afford to play every sample to the end of the deal, so it scores
positions with :func:`deal_estimate`. Chkobbas already made count exactly. Each scoring
category counts as the probability side 0 wins it minus the probability side 1 does,
estimated with a normal approximation: the cards still out (hands, table, stock) are
assumed to split evenly on average, so a lead of a few cards is worth more the fewer
cards remain. A decided category (21 cards, 6 diamonds, the 7♦ in a pile) counts fully.

>>> from chkobba.bots.evaluation import deal_estimate
>>> a = cards("7D 7S 6S 6H 6C AD 2D 3D 4D 5D AS AH AC 2S 2H 2C 3S 3H 3C 4S 4H 4C")
>>> b = [c for c in DECK if c not in a]
>>> round(deal_estimate((a, b), (1, 0)), 2)   # the worked example: exactly 5 - 0
5.0
>>> deal_estimate(((), ()), (0, 0))
0.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from chkobba.cards import Card, Rank, Suit

__all__ = ["deal_estimate"]

_SEVEN_OF_DIAMONDS = Card(Rank.SEVEN, Suit.DIAMONDS)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _majority(mine: int, theirs: int, total: int, need: int) -> float:
    """P(side 0 ends with >= need) - P(side 1 does), the rest splitting evenly."""
    rest = total - mine - theirs
    spread = 0.5 * math.sqrt(rest) + 0.25

    def reaches(have: int) -> float:
        if have >= need:
            return 1.0
        if have + rest < need:
            return 0.0
        return _phi((have + rest / 2 - need + 0.5) / spread)

    return reaches(mine) - reaches(theirs)


def _bermila(sevens: tuple[int, int], sixes: tuple[int, int]) -> float:
    lead = (sevens[0] - sevens[1]) + 0.25 * (sixes[0] - sixes[1])
    rest = (4 - sevens[0] - sevens[1]) + 0.25 * (4 - sixes[0] - sixes[1])
    if rest == 0:
        return float((lead > 0) - (lead < 0))
    return 2.0 * _phi(lead / (0.7 * math.sqrt(rest) + 0.1)) - 1.0


def deal_estimate(captured: Sequence[Sequence[Card]], chkobbas: Sequence[int]) -> float:
    """Side 0's expected deal points minus side 1's, from the piles and chkobbas so far."""
    piles = (tuple(captured[0]), tuple(captured[1]))
    counts = (len(piles[0]), len(piles[1]))
    diamonds = tuple(sum(c.suit is Suit.DIAMONDS for c in pile) for pile in piles)
    sevens = tuple(sum(c.rank is Rank.SEVEN for c in pile) for pile in piles)
    sixes = tuple(sum(c.rank is Rank.SIX for c in pile) for pile in piles)
    if _SEVEN_OF_DIAMONDS in piles[0]:
        seven_of_diamonds = 1.0
    elif _SEVEN_OF_DIAMONDS in piles[1]:
        seven_of_diamonds = -1.0
    else:
        seven_of_diamonds = 0.0
    return (
        chkobbas[0]
        - chkobbas[1]
        + _majority(counts[0], counts[1], 40, 21)
        + _majority(diamonds[0], diamonds[1], 10, 6)
        + _bermila((sevens[0], sevens[1]), (sixes[0], sixes[1]))
        + seven_of_diamonds
    )
