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

from chkobba._kernel import tally, tally_counts
from chkobba.cards import DECK, Card
from chkobba.errors import ChkobbaError, items_of, shown

__all__ = ["deal_estimate", "tally_estimate"]


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
    """Side 0's expected deal points minus side 1's, from the piles and chkobbas so far.

    ``captured`` holds the two sides' piles (distinct cards), ``chkobbas`` their counts;
    anything else raises :class:`~chkobba.ChkobbaError`.
    """
    piles = items_of(captured, "deal_estimate: captured", 3)
    counts = items_of(chkobbas, "deal_estimate: chkobbas", 3)
    if len(piles) != 2 or len(counts) != 2:
        raise ChkobbaError(
            f"deal_estimate: needs two sides' piles and chkobbas, got {len(piles)} and "
            f"{len(counts)}"
        )
    first, second = (items_of(pile, "deal_estimate: a pile", len(DECK)) for pile in piles)
    seen: set[Card] = set()
    for c in first + second:
        if not isinstance(c, Card):
            raise ChkobbaError(f"deal_estimate: the piles hold {shown(c)}, not a card")
        if c in seen:
            raise ChkobbaError(f"deal_estimate: the piles hold {c} twice")
        seen.add(c)
    for count in counts:
        if type(count) is not int or not 0 <= count <= len(DECK):
            raise ChkobbaError(
                f"deal_estimate: a chkobba count must be an integer from 0 to {len(DECK)}, "
                f"not {shown(count)}"
            )
    return deal_estimate_unchecked((first, second), counts)


def deal_estimate_unchecked(captured: Sequence[Sequence[Card]], chkobbas: Sequence[int]) -> float:
    """:func:`deal_estimate` of a state's own piles and chkobbas, unchecked: for the
    search (:mod:`chkobba.bots.ismcts` scores rollouts with it, per iteration). Not in
    ``__all__``; anything else calls :func:`deal_estimate`."""
    first, second = tuple(captured[0]), tuple(captured[1])
    return tally_estimate(tally(first), tally(second), len(first), len(second), chkobbas)


def tally_estimate(
    first: int, second: int, first_size: int, second_size: int, chkobbas: Sequence[int]
) -> float:
    """:func:`deal_estimate` from each pile's :func:`~chkobba._kernel.tally` and size
    (what a search keeps instead of the piles); arguments no pair of piles could have
    raise :class:`~chkobba.ChkobbaError`."""
    # A try, not checks: the search calls this at the end of every rollout.
    try:
        diamonds, sevens, sixes, seven_of_diamonds = tally_counts(first)
        their_diamonds, their_sevens, their_sixes, their_seven = tally_counts(second)
        return (
            chkobbas[0]
            - chkobbas[1]
            + _majority(first_size, second_size, 40, 21)
            + _majority(diamonds, their_diamonds, 10, 6)
            + _bermila((sevens, their_sevens), (sixes, their_sixes))
            + (1.0 if seven_of_diamonds else -1.0 if their_seven else 0.0)
        )
    except (TypeError, IndexError, KeyError, ValueError, OverflowError):
        raise ChkobbaError(
            f"tally_estimate: no pair of piles has tallies {shown(first)} and {shown(second)},"
            f" sizes {shown(first_size)} and {shown(second_size)} and chkobbas {shown(chkobbas)}"
        ) from None
