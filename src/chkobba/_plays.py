"""Every legal play of a hand on a table: :func:`hand_plays`, the step API's innermost code.

Internal; :mod:`chkobba.captures` is its public face (it re-exports :func:`hand_plays`,
:func:`sum_groups` and :data:`COURTS`, and documents the capture rules). Its functions are
called only by the engine with the types they declare, so the module can be compiled
with mypyc (``CHKOBBA_MYPYC=1``, see the README) without changing what a caller sees.
"""

from __future__ import annotations

import functools
from typing import Any

from chkobba.cards import DECK, Card, Rank
from chkobba.moves import Play
from chkobba.rules import TUNISIAN, Rules

__all__ = ["COURTS", "clear_caches", "hand_plays", "sum_groups"]

#: The court cards: with ``courts_capture_sums=False`` they take only an equal single.
COURTS = frozenset((Rank.QUEEN, Rank.JACK, Rank.KING))


@functools.lru_cache(maxsize=1 << 16)
def sum_groups(values: tuple[int, ...], target: int) -> tuple[tuple[int, ...], ...]:
    """Positions of every group of two or more ``values`` that sum to ``target``.

    Groups come in lexicographic order of positions. Cached per value tuple: tables
    repeat their values far more often than their cards, so this is mostly a lookup.

    >>> sum_groups((2, 6, 5, 3), 8)
    ((0, 1), (2, 3))
    """
    found: list[tuple[int, ...]] = []

    def extend(start: int, remaining: int, chosen: tuple[int, ...]) -> None:
        for i in range(start, len(values)):
            v = values[i]
            if v < remaining:
                extend(i + 1, remaining - v, (*chosen, i))
            elif v == remaining and chosen:  # a sum needs two or more cards
                found.append((*chosen, i))

    extend(0, target, ())
    return tuple(found)


def hand_plays(hand: tuple[Card, ...], table: tuple[Card, ...], rules: Rules) -> tuple[Play, ...]:
    """Every legal play of a hand on a table: the single authority on legal plays.

    Each card goes with each of its capture options, or alone when it captures nothing.
    :attr:`State.legal_plays <chkobba.State.legal_plays>`, :func:`~chkobba.legal_moves`
    and :func:`~chkobba.apply` all rely on it. The plays come in the order of
    :func:`~chkobba.capture_options` for each card in hand order.

    >>> [str(play) for play in hand_plays(cards("QH 5D"), cards("2D 6S 5C"), TUNISIAN)]
    ['QH x 2D+6S', '5D x 5C']
    """
    # Written as plain loops over prebuilt plays and per-profile lookups: this is the
    # innermost code of every playout and of every search.
    recent = _RECENT
    lookup = recent[1] if recent[0] is rules else _lookup(rules)
    value_of, sum_key = lookup.value_of, lookup.sum_key
    on_table = []
    for laid in table:
        on_table.append(value_of[laid])
    summable = None
    plays: list[Play] = []
    for held in hand:
        value = value_of[held]
        if value in on_table:  # one play per equal table card, in table order
            take = _TAKE_ONE[held]
            for laid in table:
                if value_of[laid] == value:
                    plays.append(take[laid])
            if lookup.equal_single_first:
                continue
            single = True
        else:
            single = False
        if summable is None:
            # The values some group of two or more table cards sums to: one lookup per
            # multiset of values, so the group search runs only where a group exists.
            by_values = tuple(sorted(on_table))
            summable = lookup.summable.get(by_values)
            if summable is None:
                summable = lookup.remember(by_values)
        if sum_key[held] in summable:
            for group in sum_groups(tuple(on_table), value):
                plays.append(Play(held, frozenset(map(table.__getitem__, group))))
        elif not single:
            plays.append(_LAY[held])
    return tuple(plays)


_KEPT = 1 << 16


class _Lookup:
    """A profile's capture rules as lookups by card, for :func:`hand_plays`."""

    __slots__ = ("equal_single_first", "most", "sum_key", "summable", "value_of")

    def __init__(self, rules: Rules) -> None:
        values = rules.card_values
        self.value_of = {c: values[c.index] for c in DECK}
        # The value a card may take as a sum; 0 (no group sums to it) for a court card
        # when courts take only equal singles.
        self.sum_key = {
            c: values[c.index] if rules.courts_capture_sums or c.rank not in COURTS else 0
            for c in DECK
        }
        self.equal_single_first = rules.equal_single_first
        self.most = max(values)
        #: Sorted table values -> the values some group of two or more of them sums to.
        self.summable: dict[tuple[int, ...], frozenset[int]] = {}

    def remember(self, values: tuple[int, ...]) -> frozenset[int]:
        """:meth:`sums` of ``values``, kept (at most ``_KEPT`` tables: hand-built states can
        hold any table, and memory must stay bounded)."""
        if len(self.summable) >= _KEPT:
            self.summable.clear()
        found = self.summable[values] = self.sums(values)
        return found

    def sums(self, values: tuple[int, ...]) -> frozenset[int]:
        """The totals <= the highest card value of groups of two or more ``values``."""
        totals: set[int] = set()
        most = self.most

        def extend(start: int, total: int, count: int) -> None:
            for i in range(start, len(values)):
                reached = total + values[i]
                if reached > most:
                    return  # ascending values: every later one overshoots too
                if count:
                    totals.add(reached)
                extend(i + 1, reached, count + 1)

        extend(0, 0, 0)
        return frozenset(totals)


_LOOKUPS: dict[Rules, _Lookup] = {}
#: The last profile asked for and its lookups.
_RECENT: list[Any] = [None, None]


def _lookup(rules: Rules) -> _Lookup:
    """The lookups of a profile (equal profiles share them), remembered as the most recent:
    hashing a Rules runs Python code, checking identity with the last one does not."""
    found = _LOOKUPS.get(rules)
    if found is None:
        found = _LOOKUPS[rules] = _Lookup(rules)
    _RECENT[:] = [rules, found]
    return found


_lookup(TUNISIAN)


# Plays that recur in every deal are built once: laying a card down, and taking one card.
_LAY = {c: Play(c) for c in DECK}
_TAKE_ONE = {c: {t: Play(c, frozenset((t,))) for t in DECK if t is not c} for c in DECK}


def clear_caches() -> None:
    """Empty the capture caches (for benchmarks that want a cold start)."""
    sum_groups.cache_clear()
    for lookup in _LOOKUPS.values():
        lookup.summable.clear()
