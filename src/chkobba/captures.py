"""Capture enumeration: *equal single before sum*, and the profiles' variants of it.

A played card of value *v* captures **one** table card of value *v* when any exists (the
player chooses which); only when none exists may it capture a group of two or more table
cards whose values sum to *v* (the player chooses the group). Nothing else is a capture.
Two profile fields change this: with ``equal_single_first=False`` every equal single and
every sum group is an option; with ``courts_capture_sums=False`` a played Q, J or K takes
only an equal single.

>>> capture_options(cards("2D 6S"), card("QH")) == (frozenset(cards("2D 6S")),)  # Q=8: 2+6
True
>>> capture_options(cards("2D 6S"), card("JH"))   # J=9 cannot
()
>>> capture_options(cards("5C 2D 3S 5H"), card("5D"))  # equal singles beat the sum 2+3
(frozenset({card('5C')}), frozenset({card('5H')}))
>>> [format_cards(option, "+") for option in capture_options(cards("AS 2S 3S 4S"), card("KD"))]
['AS+2S+3S+4S']
>>> import attrs
>>> free = attrs.evolve(TUNISIAN, equal_single_first=False)
>>> [format_cards(option, "+") for option in capture_options(cards("5C 2D 3S"), card("5D"), free)]
['5C', '2D+3S']
>>> capture_options(cards("2D 6S"), card("QH"), attrs.evolve(TUNISIAN, courts_capture_sums=False))
()
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable

from chkobba import _plays
from chkobba._plays import hand_plays
from chkobba.cards import DECK, Card, Rank, format_cards
from chkobba.errors import ChkobbaError, items_of, shown
from chkobba.rules import TUNISIAN, Rules, not_a_profile

__all__ = [
    "COURTS",
    "Capture",
    "capture_options",
    "clear_caches",
    "hand_plays",
    "options_for_card",
    "options_for_value",
    "sum_groups",
]

#: A capture: the set of table cards a play takes.
Capture = frozenset[Card]


def capture_options(
    table: Iterable[Card], played: Card, rules: Rules = TUNISIAN
) -> tuple[Capture, ...]:
    """Every capture the ``played`` card may make from ``table``; ``()`` when none.

    One option per equal single when any exists, otherwise every group of two or more
    table cards summing to the played card's value (as ``rules`` say: see the module
    docstring). Options come in a fixed order (table order for singles, then by first
    differing table position for groups), so the result is deterministic for a given table.

    ``rules`` defaults to the Tunisian profile: in a match of another profile pass its
    rules (``state.rules``), since card values differ (a queen is 8 here, 9 in
    CardRulesPlus). :func:`~chkobba.legal_moves` and
    :func:`chkobba.actions.capture_choices` read the rules from the state or view.

    >>> table = cards("AS 2S 3S 4S 6H")
    >>> [format_cards(option, "+") for option in capture_options(table, card("KD"))]
    ['AS+2S+3S+4S', 'AS+3S+6H', '4S+6H']
    >>> options = capture_options(cards("2D 6S"), card("JH"), CARD_RULES_PLUS)  # J=8 there
    >>> [format_cards(option, "+") for option in options]
    ['2D+6S']
    >>> capture_options(cards("2D 6S QH"), card("QH"))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: capture_options: QH cannot be both played and on the table
    """
    if not isinstance(played, Card):
        raise ChkobbaError(f"capture_options: {shown(played)} is not a card")
    laid = items_of(table, "capture_options: the table")
    strangers = [c for c in laid if not isinstance(c, Card)]
    if strangers:
        raise ChkobbaError(f"capture_options: {shown(strangers[0])} on the table is not a card")
    # Each card is one of a kind: a table holding one twice, or the played card itself,
    # comes from no deal (and a table of repeats could list millions of "sums").
    if played in laid:
        raise ChkobbaError(f"capture_options: {played} cannot be both played and on the table")
    repeated = sorted(c for c, n in Counter(laid).items() if n > 1)
    if repeated:
        raise ChkobbaError(f"capture_options: the table holds {format_cards(repeated)} twice")
    if not isinstance(rules, Rules):
        raise ChkobbaError(f"capture_options: {not_a_profile(rules)}")
    return options_for_card(laid, played, rules)


def options_for_card(table: tuple[Card, ...], played: Card, rules: Rules) -> tuple[Capture, ...]:
    """:func:`capture_options` on a table given as a tuple, without input checks.

    >>> from chkobba.captures import options_for_card
    >>> table = cards("2D 6S QC")
    >>> options_for_card(table, card("QH"), TUNISIAN) == capture_options(table, card("QH"))
    True
    >>> [format_cards(option, "+") for option in options_for_card(table, card("QH"), TUNISIAN)]
    ['QC']
    """
    sums = rules.courts_capture_sums or played.rank not in COURTS
    return options_for_value(table, rules.card_values[played.index], rules, sums=sums)


#: The court cards: with ``courts_capture_sums=False`` they take only an equal single.
COURTS = frozenset((Rank.QUEEN, Rank.JACK, Rank.KING))


def options_for_value(
    table: tuple[Card, ...], value: int, rules: Rules, *, sums: bool = True
) -> tuple[Capture, ...]:
    """:func:`capture_options` for a card of capture ``value``, on a table given as a tuple.

    ``sums=False`` leaves out the sum groups (a court card when courts take no sums).
    The engine's hot path: no input checks.

    >>> from chkobba.captures import options_for_value
    >>> table = cards("2D 6S 5C 3H")
    >>> [format_cards(option, "+") for option in options_for_value(table, 8, TUNISIAN)]
    ['2D+6S', '3H+5C']
    >>> options_for_value(table, 8, TUNISIAN, sums=False)
    ()
    """
    values = rules.card_values
    singles = tuple([_SINGLETONS[c] for c in table if values[c.index] == value])
    if not sums or (singles and rules.equal_single_first):
        return singles
    on_table = tuple([values[c.index] for c in table])
    groups = tuple([frozenset([table[i] for i in g]) for g in sum_groups(on_table, value)])
    return singles + groups


@functools.lru_cache(maxsize=1 << 16)
def sum_groups(values: tuple[int, ...], target: int) -> tuple[tuple[int, ...], ...]:
    """Positions of every group of two or more ``values`` that sum to ``target``.

    Groups come in lexicographic order of positions. Cached per value tuple: tables
    repeat their values far more often than their cards, so this is mostly a lookup.
    The engine's hot path: no input checks (``values`` a tuple of positive integers).

    >>> from chkobba.captures import sum_groups
    >>> sum_groups((2, 6, 5, 3), 8)
    ((0, 1), (2, 3))
    """
    # What the values from each position on add up to: a search whose remaining total
    # they cannot reach stops. And each (position, remaining total) is searched once:
    # a table of small cards before one large card (a house card worth 999) would else
    # try every subset of the small ones, again and again.
    within = list(itertools.accumulate(reversed(values), initial=0))[::-1]
    known: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}

    def completions(start: int, remaining: int) -> tuple[tuple[int, ...], ...]:
        """Every increasing run of positions from ``start`` on whose values add up to
        ``remaining`` (a single position included), in lexicographic order."""
        found = known.get((start, remaining))
        if found is None:
            runs: list[tuple[int, ...]] = []
            for i in range(start, len(values)):
                if within[i] < remaining:
                    break
                v = values[i]
                if v == remaining:
                    runs.append((i,))
                elif v < remaining:
                    runs += [(i, *rest) for rest in completions(i + 1, remaining - v)]
            found = known[(start, remaining)] = tuple(runs)
        return found

    return tuple([run for run in completions(0, target) if len(run) > 1])  # two cards or more


_SINGLETONS = {c: frozenset((c,)) for c in DECK}


def clear_caches() -> None:
    """Empty the capture caches (for benchmarks that want a cold start).

    The caches only save time: results are the same before and after.

    >>> from chkobba.captures import clear_caches, sum_groups
    >>> sum_groups((2, 6, 5, 3), 8)
    ((0, 1), (2, 3))
    >>> clear_caches()
    >>> sum_groups.cache_info().currsize
    0
    >>> sum_groups((2, 6, 5, 3), 8)
    ((0, 1), (2, 3))
    """
    sum_groups.cache_clear()
    _plays.clear_caches()
