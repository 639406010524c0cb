"""Every legal play of a hand on a table: :func:`hand_plays`, the step API's innermost code.

Internal; :mod:`chkobba.captures` is its public face (it re-exports :func:`hand_plays`
and documents the capture rules). Its functions check nothing: their callers (the
engine, notation, and whoever calls the re-exported, documented-unchecked
:func:`~chkobba.captures.hand_plays`) pass the types they declare, so the module can be
compiled with mypyc (``CHKOBBA_MYPYC=1``, see the README) without changing what a
caller sees.
"""

from __future__ import annotations

from typing import Any

from chkobba._kernel import PROFILES_KEPT, Capture, kept_with_kernels, kernel
from chkobba.cards import DECK, Card
from chkobba.moves import Play
from chkobba.rules import TUNISIAN, Rules

__all__ = ["clear_caches", "hand_plays"]


def hand_plays(hand: tuple[Card, ...], table: tuple[Card, ...], rules: Rules) -> tuple[Play, ...]:
    """Every legal play of a hand on a table: the single authority on legal plays.

    Each card goes with each of its capture options, or alone when it captures nothing.
    :attr:`State.legal_plays <chkobba.State.legal_plays>`, :func:`~chkobba.legal_moves`
    and :func:`~chkobba.apply` all rely on it. The plays come in the order of
    :func:`~chkobba.capture_options` for each card in hand order.

    The engine's hot path: no input checks (the hand and the table are tuples of
    distinct cards, ``rules`` a :class:`~chkobba.Rules`); :func:`~chkobba.legal_moves`
    is the checked way to list a state's plays.

    >>> [str(play) for play in hand_plays(cards("QH 5D"), cards("2D 6S 5C"), TUNISIAN)]
    ['QH x 2D+6S', '5D x 5C']
    """
    # The kernel's entry for the table's values gives each card's captures at once; only
    # a card with several options needs them put in capture_options' order. This is the
    # innermost code of every playout and of every search.
    recent_rules, lookup = _RECENT  # one read of one tuple: no thread can split the pair
    if recent_rules is not rules:
        lookup = _lookup(rules)
    bit_of = lookup.bit_of
    signature = 0
    for laid in table:
        signature += bit_of[laid]
    entry = lookup.cache.get(signature)
    if entry is None:
        entry = lookup.kernel.entry(signature)
    options, key_of = entry[1], lookup.key_of
    by_value: list[Card] | None = None  # the table sorted as the kernel's positions read it
    plays: list[Play] = []
    for held in hand:
        captures = options[key_of[held]]
        if not captures:
            plays.append(_LAY[held])
            continue
        if by_value is None:
            by_value = sorted(table, key=lookup.code_key)
        if len(captures) == 1:
            at = captures[0][1]
            if at >= 0:
                plays.append(_TAKE_ONE[held][by_value[at]])
            else:
                plays.append(Play(held, frozenset(map(by_value.__getitem__, captures[0][2]))))
        else:
            plays += _in_table_order(held, captures, by_value, table)
    return tuple(plays)


def _in_table_order(
    held: Card, captures: tuple[Capture, ...], by_value: list[Card], table: tuple[Card, ...]
) -> list[Play]:
    """A card's plays from its kernel captures, in :func:`~chkobba.capture_options`'
    order: the single cards in table order, then the groups in lexicographic order of
    their table positions."""
    # Where each by-value position sits in the table (looked up by the cards' identity
    # hash: ``table.index`` would compare each card with ``==`` to the cards before it,
    # a Python-level comparison slot per card); then one pass over the captures (plain
    # loops and ``map``: a generator expression per group cost twice as much).
    at_in_table = dict(zip(table, range(len(table)), strict=True))
    place = list(map(at_in_table.__getitem__, by_value))
    singles: list[int] = []
    groups: list[list[int]] = []
    for _, at, group in captures:
        if at >= 0:
            singles.append(place[at])
        else:
            groups.append(sorted(map(place.__getitem__, group)))
    singles.sort()
    groups.sort()
    take = _TAKE_ONE[held]
    return [take[table[at]] for at in singles] + [
        Play(held, frozenset(map(table.__getitem__, group))) for group in groups
    ]


class _Lookup:
    """A profile's capture rules as lookups by card, for :func:`hand_plays`: the
    :class:`~chkobba._kernel.Kernel` of the profile, read through dicts keyed by card."""

    __slots__ = ("bit_of", "cache", "code_key", "kernel", "key_of")

    def __init__(self, rules: Rules) -> None:
        self.kernel = kernel(rules)
        #: The kernel's entries by table signature (its own dict, filled by its entry()).
        self.cache = self.kernel.cache
        codes = self.kernel.code
        #: Each card's unit in a table signature.
        self.bit_of = {c: self.kernel.code_bit[codes[c.index]] for c in DECK}
        #: A card's code, the key that sorts a table as the kernel's positions read it.
        self.code_key = self.kernel.code_of_card
        #: Each card's play key: where its captures sit in a kernel entry.
        self.key_of = {c: self.kernel.play_key[codes[c.index]] for c in DECK}


_LOOKUPS: dict[Rules, _Lookup] = kept_with_kernels({})
#: The last profile asked for and its lookups, replaced as a whole.
_RECENT: tuple[Any, Any] = (None, None)


def _lookup(rules: Rules) -> _Lookup:
    """The lookups of a profile (equal profiles share them), remembered as the most recent:
    hashing a Rules runs Python code, checking identity with the last one does not."""
    global _RECENT
    found = _LOOKUPS.get(rules)
    if found is None:
        if len(_LOOKUPS) >= PROFILES_KEPT:  # bounded like the kernels they read
            _LOOKUPS.clear()
        found = _LOOKUPS[rules] = _Lookup(rules)
    _RECENT = (rules, found)
    return found


_lookup(TUNISIAN)


# Plays that recur in every deal are built once: laying a card down, and taking one card.
_LAY = {c: Play(c) for c in DECK}
_TAKE_ONE = {c: {t: Play(c, frozenset((t,))) for t in DECK if t is not c} for c in DECK}


def shared_play(played: Card, capture: frozenset[Card]) -> Play:
    """The play of ``played`` taking ``capture`` (a card other than ``played``'s): the one
    built at import for a lay or a single capture, which most moves are, else a new one.
    Moves read from text share them as the listed legal plays do, so a file of records
    holds one of each instead of one per move."""
    if not capture:
        return _LAY[played]
    if len(capture) == 1:
        (taken,) = capture
        return _TAKE_ONE[played][taken]
    return Play(played, capture)


def clear_caches() -> None:
    """Empty the tables hand_plays reads (for benchmarks that want a cold start)."""
    for lookup in list(_LOOKUPS.values()):  # a copy: another thread may add a profile
        lookup.kernel.clear()
