"""A static estimate of a deal in progress: each side's expected points against the others'.

Search cannot always afford to play every sample to the end of the deal, so it scores
positions with :func:`deal_estimate` (two sides: side 0's expected points minus side
1's) or :func:`side_estimates` (two or three sides: each side's expected points minus the
mean of the others'). Chkobbas already made count exactly. Each scoring category the
profile plays (:attr:`Rules.categories <chkobba.Rules.categories>`) counts as the
probability each side wins it, the cards still out (hands, table, stock) assumed to split
evenly at random, so a lead of a few cards is worth more the fewer cards remain; a
decided category (21 cards, 6 diamonds, the 7♦ in a pile) counts fully. With two sides
the chances come from a normal approximation, with three from the exact split. Two
things are left out: the primiera (of house profiles), which counts only once the deal
is scored, and a tie that goes to the last capturer, counted as going to nobody.

>>> from chkobba.bots.evaluation import deal_estimate, side_estimates
>>> a = cards("7D 7S 6S 6H 6C AD 2D 3D 4D 5D AS AH AC 2S 2H 2C 3S 3H 3C 4S 4H 4C")
>>> b = [c for c in DECK if c not in a]
>>> round(deal_estimate((a, b), (1, 0)), 2)   # the worked example: exactly 5 - 0
5.0
>>> round(deal_estimate((a, b), (1, 0), CARD_RULES_PLUS), 2)   # no bermila there
4.0
>>> deal_estimate(((), ()), (0, 0))
0.0
>>> [round(e, 2) for e in side_estimates(((), (), ()), (1, 0, 0), CARD_RULES_PLUS)]
[1.0, -0.5, -0.5]
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

from chkobba._describe import integral
from chkobba._kernel import tally, tally_counts
from chkobba.cards import DECK, Card
from chkobba.errors import ChkobbaError, items_of, shown
from chkobba.rules import TUNISIAN, Rules, not_a_profile
from chkobba.scoring import bermila

__all__ = ["deal_estimate", "pile_tally", "side_estimates", "tally_estimate"]


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


#: The most arguments :func:`_majority` and :func:`_bermila` remember (each). Their
#: arguments are small counts (a deal gives at most 41 x 41 card counts, 11 x 11 diamond
#: counts and 5**4 sevens and sixes), so the search, which scores every rollout with
#: them, finds the value instead of working it out; the bound keeps memory flat for a
#: caller passing anything else.
_ESTIMATES_KEPT = 4096


@functools.lru_cache(maxsize=_ESTIMATES_KEPT)
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


@functools.lru_cache(maxsize=_ESTIMATES_KEPT)
def _bermila(sevens: tuple[int, int], sixes: tuple[int, int]) -> float:
    lead = (sevens[0] - sevens[1]) + 0.25 * (sixes[0] - sixes[1])
    rest = (4 - sevens[0] - sevens[1]) + 0.25 * (4 - sixes[0] - sixes[1])
    if rest == 0:
        return float((lead > 0) - (lead < 0))
    return 2.0 * _phi(lead / (0.7 * math.sqrt(rest) + 0.1)) - 1.0


def deal_estimate(
    captured: Sequence[Sequence[Card]], chkobbas: Sequence[int], rules: Rules = TUNISIAN
) -> float:
    """Side 0's expected deal points minus side 1's, from the piles and chkobbas so far,
    counting the categories ``rules`` plays.

    ``captured`` holds the two sides' piles (distinct cards), ``chkobbas`` their counts;
    anything else raises :class:`~chkobba.ChkobbaError`.

    >>> from chkobba.bots.evaluation import deal_estimate
    >>> mine, theirs = cards("7D 5D 6S"), cards("KS QS 3C 2C")   # early in a deal
    >>> round(deal_estimate((mine, theirs), (0, 0)), 2)     # the 7♦ is a decided point
    1.92
    >>> round(deal_estimate((mine, theirs), (0, 1)), 2)     # their chkobba counts exactly
    0.92
    >>> deal_estimate((mine, mine), (0, 0))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: deal_estimate: the piles hold 7D twice
    """
    (first, second), counts = _checked("deal_estimate", captured, chkobbas, rules, _TWO)
    return tally_estimate(tally(first), tally(second), len(first), len(second), counts, rules)


def side_estimates(
    captured: Sequence[Sequence[Card]], chkobbas: Sequence[int], rules: Rules = TUNISIAN
) -> tuple[float, ...]:
    """Each side's expected deal points minus the mean of the other sides', from the
    piles and chkobbas so far, counting the categories ``rules`` plays: for two sides
    ``(e, -e)`` where ``e`` is :func:`deal_estimate`, for three the chances of the split
    of the cards still out.

    ``captured`` holds the sides' piles (two or three, distinct cards), ``chkobbas`` their
    counts; anything else raises :class:`~chkobba.ChkobbaError`.

    >>> from chkobba.bots.evaluation import side_estimates
    >>> mine, theirs = cards("7D 5D 6S"), cards("KS QS 3C 2C")
    >>> [round(e, 2) for e in side_estimates((mine, theirs), (0, 1))]   # (e, -e)
    [0.92, -0.92]
    >>> side_estimates((mine,), (0,))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: side_estimates: needs two or three sides' piles and ...
    """
    piles, counts = _checked("side_estimates", captured, chkobbas, rules, _TWO_OR_THREE)
    return tallies_estimates(list(map(tally, piles)), list(map(len, piles)), counts, rules)


#: The numbers of sides an estimate serves, and how a message names them.
_TWO = ((2,), "two")
_TWO_OR_THREE = ((2, 3), "two or three")


def _checked(
    function: str,
    captured: object,
    chkobbas: object,
    rules: object,
    sides: tuple[tuple[int, ...], str],
) -> tuple[tuple[tuple[Card, ...], ...], tuple[int, ...]]:
    """The piles and chkobbas of as many ``sides`` as allowed, checked: as many of each,
    distinct cards, counts in range."""
    if not isinstance(rules, Rules):
        raise ChkobbaError(f"{function}: {not_a_profile(rules)}")
    piles = items_of(captured, f"{function}: captured", 3)
    # numpy's integers too, as score_deal takes them
    counts = tuple(integral(n) for n in items_of(chkobbas, f"{function}: chkobbas", 3))
    allowed, named = sides
    if len(piles) != len(counts) or len(piles) not in allowed:
        raise ChkobbaError(
            f"{function}: needs {named} sides' piles and chkobbas, got {len(piles)} and "
            f"{len(counts)}"
        )
    checked = tuple(items_of(pile, f"{function}: a pile", len(DECK)) for pile in piles)
    _check_distinct_cards(f"{function}: the piles hold", (c for pile in checked for c in pile))
    for count in counts:
        if type(count) is not int or not 0 <= count <= len(DECK):
            raise ChkobbaError(
                f"{function}: a chkobba count must be an integer from 0 to {len(DECK)}, "
                f"not {shown(count)}"
            )
    return checked, counts


def _check_distinct_cards(holder: str, held: Iterable[object]) -> None:
    """Refuse anything ``held`` that is not a card, and a card held twice, the message
    starting with ``holder`` ("deal_estimate: the piles hold")."""
    seen: set[Card] = set()
    for c in held:
        if not isinstance(c, Card):
            raise ChkobbaError(f"{holder} {shown(c)}, not a card")
        if c in seen:
            raise ChkobbaError(f"{holder} {c} twice")
        seen.add(c)


def pile_tally(pile: Iterable[Card]) -> int:
    """A pile's counts packed in one int, as :func:`tally_estimate` takes it: its cards,
    diamonds, sevens and sixes, and whether it holds the 7♦. A pile's tally is the sum of
    its cards' tallies, so a search keeps it up to date by adding each card's as the
    card is captured. ``pile`` holds distinct cards; anything else raises
    :class:`~chkobba.ChkobbaError`.

    >>> from chkobba.bots.evaluation import pile_tally
    >>> pile_tally(cards("7D 6S")) == pile_tally(cards("7D")) + pile_tally(cards("6S"))
    True
    >>> pile_tally([]), pile_tally(cards("7D")) != pile_tally(cards("7S"))
    (0, True)
    >>> pile_tally(cards("7D 7D"))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: pile_tally: the pile holds 7D twice
    """
    checked = items_of(pile, "pile_tally: pile", len(DECK))
    _check_distinct_cards("pile_tally: the pile holds", checked)
    return tally(checked)


def tally_estimate(
    first: int,
    second: int,
    first_size: int,
    second_size: int,
    chkobbas: Sequence[int],
    rules: Rules = TUNISIAN,
) -> float:
    """:func:`deal_estimate` from each pile's :func:`pile_tally` and size (what a search
    keeps instead of the piles). Arguments of the wrong kind (a tally that
    is no tally, chkobbas that are not two numbers) raise :class:`~chkobba.ChkobbaError`;
    numbers of the right kind are taken as they come, unchecked (a negative pile size
    too): the search calls this at the end of every rollout.

    >>> from chkobba.bots.evaluation import deal_estimate, pile_tally, tally_estimate
    >>> mine, theirs = cards("7D 5D 6S"), cards("KS QS 3C 2C")
    >>> tallies = pile_tally(mine), pile_tally(theirs)
    >>> estimate = tally_estimate(*tallies, len(mine), len(theirs), (0, 1))
    >>> round(estimate, 2), estimate == deal_estimate((mine, theirs), (0, 1))
    (0.92, True)
    """
    # A try, not checks: the search calls this at the end of every rollout. The terms are
    # added in the order of the Tunisian profile's categories, so its estimate is the
    # same float as before the profiles were read.
    try:
        diamonds, sevens, sixes, seven_of_diamonds = tally_counts(first)
        their_diamonds, their_sevens, their_sixes, their_seven = tally_counts(second)
        estimate = (
            chkobbas[0]
            - chkobbas[1]
            + _majority(first_size, second_size, 40, 21)
            + _majority(diamonds, their_diamonds, 10, 6)
        )
        if rules.sevens_bermila:
            estimate += _bermila((sevens, their_sevens), (sixes, their_sixes))
        if rules.seven_of_diamonds:
            estimate += 1.0 if seven_of_diamonds else -1.0 if their_seven else 0.0
        return estimate
    except (TypeError, IndexError, KeyError, ValueError, OverflowError, AttributeError):
        if not isinstance(rules, Rules):  # checked only on failure: free on the hot path
            raise ChkobbaError(f"tally_estimate: {not_a_profile(rules)}") from None
        raise ChkobbaError(
            f"tally_estimate: no pair of piles has tallies {shown(first)} and {shown(second)},"
            f" sizes {shown(first_size)} and {shown(second_size)} and chkobbas {shown(chkobbas)}"
            f" (under {shown(rules)})"
        ) from None


def tallies_estimates(
    tallies: Sequence[int], sizes: Sequence[int], chkobbas: Sequence[int], rules: Rules
) -> tuple[float, ...]:
    """:func:`side_estimates` from each pile's tally and size, unchecked (the search's
    rollouts keep tallies): two sides through :func:`tally_estimate`, three through the
    exact chances of the split of the cards still out. Not in ``__all__``: the search's
    own path (:mod:`chkobba.bots.ismcts` scores its rollouts with it, per iteration),
    for arguments a deal made; ``rules`` has no default, so a search always counts its
    own profile's categories."""
    if len(tallies) == 2:
        estimate = tally_estimate(tallies[0], tallies[1], sizes[0], sizes[1], chkobbas, rules)
        return (estimate, -estimate)
    diamonds, sevens, sixes, holds = zip(*map(tally_counts, tallies), strict=True)
    chances = [
        _split_chances(tuple(sizes), len(DECK), rules),
        _split_chances(diamonds, _DIAMONDS, rules),
    ]
    if rules.sevens_bermila:
        chances.append(_bermila_chances(sevens, sixes))
    if rules.seven_of_diamonds:
        chances.append(holds)  # decided: True (1) for the side holding it
    expected = list(map(sum, zip(chkobbas, *chances, strict=True)))
    total, others = sum(expected), len(expected) - 1
    return tuple([e - (total - e) / others for e in expected])


_DIAMONDS = len(DECK) // 4
#: Per (counts so far, how many there are, majority rule): each side's chance of the
#: category. Bounded: cleared when full (a match meets a few thousand).
_SPLITS: dict[tuple[tuple[int, ...], int, str], tuple[float, ...]] = {}
_BERMILAS: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[float, ...]] = {}
_KEPT = 1 << 16


def _ways(rest: int) -> tuple[tuple[int, int, int, int], ...]:
    """Every way ``rest`` cards go to three sides, ``(a, b, c)`` each, with its weight
    (of ``3 ** rest``: each card to each side alike)."""
    # Remembered for the counts a deal has (0 to 40 cards out) only: the unchecked
    # tallies_estimates may be given others, and each would be kept (2.9 MB for 200).
    return _dealt_ways(rest) if 0 <= rest <= len(DECK) else _all_ways(rest)


def _all_ways(rest: int) -> tuple[tuple[int, int, int, int], ...]:
    return tuple(
        (a, b, rest - a - b, math.comb(rest, a) * math.comb(rest - a, b))
        for a in range(rest + 1)
        for b in range(rest - a + 1)
    )


_dealt_ways = functools.cache(_all_ways)  # called with 0 to 40 only: 41 entries at most


def _splits(have: tuple[int, ...], rest: int) -> list[tuple[tuple[int, int, int], int]]:
    """Every way ``rest`` more go to three sides holding ``have``, with its weight."""
    first, second, third = have
    return [((first + a, second + b, third + c), w) for a, b, c, w in _ways(rest)]


def _split_chances(have: tuple[int, ...], total: int, rules: Rules) -> tuple[float, ...]:
    """Each of three sides' chance of the cards (or diamonds) category: ``have`` so far,
    of ``total``, the rest split at random."""
    key = (have, total, rules.majority)
    found = _SPLITS.get(key)
    if found is None:
        rest = total - sum(have)
        wins = _split_wins(have, rest, total // 2, rules.majority == "more_than_half")
        if len(_SPLITS) >= _KEPT:
            _SPLITS.clear()
        found = _SPLITS[key] = tuple([w / 3**rest for w in wins])
    return found


def _split_wins(have: tuple[int, ...], rest: int, half: int, more_than_half: bool) -> list[int]:
    """Each of three sides' weight (of ``3 ** rest``) in the splits of ``rest`` more that
    win it the category: what :func:`~chkobba.scoring.majority` decides, with no last
    capturer (its tie-break is not known ahead), counted without a call per split.

    With "more than half" at most one side passes half, so each side's weight is its own
    binomial tail: each card still out is its with chance 1/3. With "most", a side wins
    the splits where it alone has the most. Whole numbers either way: the chances are
    the same floats as from calling ``majority`` on every split."""
    if more_than_half:
        tails = [math.comb(rest, x) * 2 ** (rest - x) for x in range(rest + 1)]
        return [sum(tails[max(half + 1 - held, 0) :]) for held in have]
    first, second, third = have
    wins = [0, 0, 0]
    for a, b, c, weight in _ways(rest):
        x, y, z = first + a, second + b, third + c
        if x > y and x > z:
            wins[0] += weight
        elif y > x and y > z:
            wins[1] += weight
        elif z > x and z > y:
            wins[2] += weight
    return wins


def _bermila_chances(sevens: tuple[int, ...], sixes: tuple[int, ...]) -> tuple[float, ...]:
    """Each of three sides' chance of the bermila: the sevens and sixes still out split
    at random."""
    key = (sevens, sixes)
    found = _BERMILAS.get(key)
    if found is None:
        wins = [0] * len(sevens)
        rest_sevens, rest_sixes = 4 - sum(sevens), 4 - sum(sixes)
        for final_sevens, seven_weight in _splits(sevens, rest_sevens):
            for final_sixes, six_weight in _splits(sixes, rest_sixes):
                winner = bermila(final_sevens, final_sixes)
                if winner is not None:
                    wins[winner] += seven_weight * six_weight
        if len(_BERMILAS) >= _KEPT:
            _BERMILAS.clear()
        found = _BERMILAS[key] = tuple([w / 3 ** (rest_sevens + rest_sixes) for w in wins])
    return found
