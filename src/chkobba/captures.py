"""Capture enumeration: *equal single before sum*.

A played card of value *v* captures **one** table card of value *v* when any exists (the
player chooses which); only when none exists may it capture a group of two or more table
cards whose values sum to *v* (the player chooses the group). Nothing else is a capture.

>>> capture_options(cards("2D 6S"), card("QH")) == (frozenset(cards("2D 6S")),)  # Q=8: 2+6
True
>>> capture_options(cards("2D 6S"), card("JH"))   # J=9 cannot
()
>>> capture_options(cards("5C 2D 3S 5H"), card("5D"))  # equal singles beat the sum 2+3
(frozenset({card('5C')}), frozenset({card('5H')}))
>>> [format_cards(option, "+") for option in capture_options(cards("AS 2S 3S 4S"), card("KD"))]
['AS+2S+3S+4S']
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from chkobba.cards import DECK, Card
from chkobba.errors import ChkobbaError
from chkobba.rules import TUNISIAN, Rules

__all__ = ["Capture", "capture_options", "clear_caches", "options_for_value"]

Capture = frozenset[Card]


def capture_options(
    table: Iterable[Card], played: Card, rules: Rules = TUNISIAN
) -> tuple[Capture, ...]:
    """Every capture the ``played`` card may make from ``table``; ``()`` when none.

    One option per equal single when any exists, otherwise every group of two or more
    table cards summing to the played card's value. Options come in a fixed order (table
    order for singles, then by first differing table position for groups), so the result
    is deterministic for a given table.
    """
    if not isinstance(played, Card):
        raise ChkobbaError(f"capture_options: {played!r} is not a card")
    laid = tuple(table)
    strangers = [c for c in laid if not isinstance(c, Card)]
    if strangers:
        raise ChkobbaError(f"capture_options: {strangers[0]!r} on the table is not a card")
    if not isinstance(rules, Rules):
        raise ChkobbaError(f"capture_options: {rules!r} is not a Rules profile")
    return options_for_value(laid, rules.card_values[played.index], rules)


@functools.lru_cache(maxsize=1 << 15)
def options_for_value(table: tuple[Card, ...], value: int, rules: Rules) -> tuple[Capture, ...]:
    """:func:`capture_options` for a card of capture ``value``, on a table given as a tuple.

    The engine's hot path; cached on the exact table (``legal_moves`` and ``apply`` ask
    the same question about the same table).
    """
    values = rules.card_values
    singles = tuple(_SINGLETONS[c] for c in table if values[c.index] == value)
    if singles:
        return singles
    # Only cards worth less than the played card can be part of a sum. Sorting them by
    # value makes the cache key canonical, so the subset search runs once per multiset.
    smaller = sorted((c for c in table if values[c.index] < value), key=lambda c: values[c.index])
    if len(smaller) < 2:
        return ()
    groups = _sum_groups(tuple(values[c.index] for c in smaller), value)
    if not groups:
        return ()
    # Report groups in table order, whatever order the search found them in.
    position = {c: i for i, c in enumerate(table)}
    options = [sorted((smaller[i] for i in group), key=position.__getitem__) for group in groups]
    options.sort(key=lambda option: [position[c] for c in option])
    return tuple(frozenset(option) for option in options)


@functools.lru_cache(maxsize=1 << 16)
def _sum_groups(values: tuple[int, ...], target: int) -> tuple[tuple[int, ...], ...]:
    """Index groups of two or more of ``values`` (sorted ascending) summing to ``target``."""
    found: list[tuple[int, ...]] = []

    def extend(start: int, remaining: int, chosen: tuple[int, ...]) -> None:
        for i in range(start, len(values)):
            v = values[i]
            if v > remaining:
                return  # sorted: every later value is too large as well
            if v < remaining:
                extend(i + 1, remaining - v, (*chosen, i))
            elif chosen:  # a sum needs two or more cards
                found.append((*chosen, i))

    extend(0, target, ())
    return tuple(found)


_SINGLETONS = {c: frozenset((c,)) for c in DECK}


def clear_caches() -> None:
    """Empty the capture caches (for benchmarks that want a cold start)."""
    options_for_value.cache_clear()
    _sum_groups.cache_clear()
