"""The compact kernel: a profile's capture rules as precomputed tables over card numbers.

Internal (no public names): the fast paths of :func:`chkobba.rollout` and of the step API
read these tables instead of enumerating captures card by card. A card is its
:attr:`~chkobba.Card.index` (0-39, deck order, rank-major, so ``index // 4`` is its rank).

Every rule stays a lookup in the :class:`~chkobba.Rules` profile: :func:`kernel` turns a
profile into a :class:`Kernel` (once per profile, then cached), whose fields are plain
tuples indexed by card number.

Capture options depend only on the *multiset of values* on the table, so a table is
summarised by its signature: the sum of ``code_bit[code]`` over its cards, one 6-bit count
per distinct capture value (the counts stay below 64 with 40 cards). The options of a
signature are enumerated once and kept; an option is a tuple of positions in the table
sorted by value, so the same entry serves every table of the same values whatever their
order or suits.

The hot loops handle cards as *codes*, ``slot * 64 + card`` where the slot ranks the
card's value among the profile's values: sorting codes sorts by value, and ``code & 63``
is the card again.

>>> from chkobba import TUNISIAN, cards
>>> k = kernel(TUNISIAN)
>>> table = [k.code[c.index] for c in cards("2D 6S 5C")]
>>> queen = k.code[cards("QH")[0].index]       # Q = 8 takes 2 + 6
>>> [[str(DECK[sorted(table)[i] & 63]) for i in option]
...  for option in k.options(k.signature(table))[k.play_key[queen]]]
[['2D', '6S']]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Any, TypeVar

from chkobba.cards import DECK, Card, Rank, Suit
from chkobba.rules import Rules
from chkobba.scoring import (
    _SEVEN_OF_DIAMONDS,
    PRIMIERA_VALUES,
    DealScore,
    _bermila,
    _majority,
    _unique_best,
)

__all__ = ["Kernel", "Options", "deal_hands", "is_void", "kernel", "score"]

T = TypeVar("T")
_SLOT_WIDTH = 6
_COURTS = frozenset(i for i, rank in enumerate(Rank) if rank.value in "QJK")
_KING = tuple(Rank).index(Rank.KING)
_RANKS = len(Rank)

#: Per play key, the capture options: tuples of positions in the by-value table.
Options = tuple[tuple[tuple[int, ...], ...], ...]
#: A signature's entry: per play key the number of plays (1 for laying the card down when
#: it captures nothing), and the options.
Entry = tuple[tuple[int, ...], Options]


class Kernel:
    """A profile's capture rules as tables indexed by card number (see the module doc)."""

    __slots__ = (
        "cache",
        "code",
        "code_bit",
        "equal_single_first",
        "play_key",
        "play_keys",
        "rules",
        "slot_values",
        "values",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        #: Capture value of each card.
        self.values: tuple[int, ...] = rules.card_values
        self.slot_values: tuple[int, ...] = tuple(sorted(set(self.values)))
        # Each card's slot: the rank of its value among the profile's distinct values.
        slots = [self.slot_values.index(v) for v in self.values]
        #: Each card's code, ``slot * 64 + card``.
        self.code: tuple[int, ...] = tuple(s * 64 + c for c, s in enumerate(slots))
        size = 64 * len(self.slot_values)
        bits = [0] * size
        for card, slot in enumerate(slots):
            bits[self.code[card]] = 1 << (_SLOT_WIDTH * slot)
        #: By code: the card's unit in a table signature.
        self.code_bit: tuple[int, ...] = tuple(bits)
        # A play key is what decides a played card's options: its value and whether it may
        # take a sum (a court may not when courts_capture_sums is False).
        keys: list[tuple[int, bool]] = []
        play_key: list[int] = []
        for card, value in enumerate(self.values):
            key = (value, rules.courts_capture_sums or card // 4 not in _COURTS)
            if key not in keys:
                keys.append(key)
            play_key.append(keys.index(key))
        by_code = [0] * size
        for card, key_index in enumerate(play_key):
            by_code[self.code[card]] = key_index
        #: The (value, takes sums) of each play key, and each code's play key.
        self.play_keys: tuple[tuple[int, bool], ...] = tuple(keys)
        self.play_key: tuple[int, ...] = tuple(by_code)
        self.equal_single_first = rules.equal_single_first
        #: Signature -> :data:`Entry`; read directly by the hot loops, filled by :meth:`entry`.
        self.cache: dict[int, Entry] = {}

    def signature(self, table: Iterable[int]) -> int:
        """The signature of a table of codes: the count of each value, packed in one int."""
        bits = self.code_bit
        return sum(bits[c] for c in table)

    def options(self, signature: int) -> Options:
        """Per play key, every capture option on a table of this signature (cached)."""
        return self.entry(signature)[1]

    def entry(self, signature: int) -> Entry:
        """The plays per play key and the options of a signature (cached)."""
        found = self.cache.get(signature)
        if found is None:
            options = self._enumerate(signature)
            found = self.cache[signature] = (tuple(len(o) or 1 for o in options), options)
        return found

    def clear(self) -> None:
        """Forget the enumerated options (for benchmarks that want a cold start)."""
        self.cache.clear()

    def _enumerate(self, signature: int) -> Options:
        values: list[int] = []
        for slot, value in enumerate(self.slot_values):
            values.extend([value] * ((signature >> (_SLOT_WIDTH * slot)) & 63))
        sums = _sum_groups(values, max(v for v, _ in self.play_keys))
        options = []
        for value, takes_sums in self.play_keys:
            singles = tuple((i,) for i, v in enumerate(values) if v == value)
            groups = sums.get(value, ()) if takes_sums else ()
            if singles and self.equal_single_first:
                groups = ()
            options.append(singles + groups)
        return tuple(options)


def _sum_groups(values: Sequence[int], most: int) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Every group of two or more positions of ``values`` (ascending) by its sum <= most."""
    found: dict[int, list[tuple[int, ...]]] = {}

    def extend(start: int, total: int, chosen: tuple[int, ...]) -> None:
        for i in range(start, len(values)):
            reached = total + values[i]
            if reached > most:
                return  # values ascend: every later position overshoots too
            group = (*chosen, i)
            if chosen:
                found.setdefault(reached, []).append(group)
            extend(i + 1, reached, group)

    extend(0, 0, ())
    return {total: tuple(groups) for total, groups in found.items()}


_KERNELS: dict[Rules, Kernel] = {}


def kernel(rules: Rules) -> Kernel:
    """The :class:`Kernel` of a profile (built once per profile)."""
    found = _KERNELS.get(rules)
    if found is None:
        found = _KERNELS[rules] = Kernel(rules)
    return found


def clear_caches() -> None:
    """Forget every profile's enumerated options."""
    for each in _KERNELS.values():
        each.clear()


def deal_hands(
    order: Sequence[T], players: int, first: int, keep: bool | None
) -> tuple[list[list[T]], list[T], int]:
    """Deal the start of a deal from ``order``: (hands, table, next stock position).

    ``keep`` is the cut: ``True`` puts the top card in the first player's hand, ``False``
    on the table, ``None`` means the profile has no cut. Then one card at a time to each
    player in playing order from ``first`` until every hand holds 3, then the table up to
    4 (RULES.md §3; with no cut the same from the top of the order).
    """
    plan = _PLANS.get((players, first, keep))
    if plan is None:
        plan = _PLANS[players, first, keep] = _deal_plan(players, first, keep)
    takes, table, position = plan
    return [list(take(order)) for take in takes], list(table(order)), position


_PLANS: dict[tuple[int, int, bool | None], tuple[list[itemgetter[Any]], itemgetter[Any], int]] = {}


def _deal_plan(
    players: int, first: int, keep: bool | None
) -> tuple[list[itemgetter[Any]], itemgetter[Any], int]:
    """Which positions of the order each hand and the table receive (RULES.md §3)."""
    hands: list[list[int]] = [[] for _ in range(players)]
    table: list[int] = []
    position = 0
    if keep is not None:
        (hands[first] if keep else table).append(0)
        position = 1
    # One card at a time in playing order from the first player, passing over full hands.
    while any(len(hand) < 3 for hand in hands):
        for offset in range(players):
            hand = hands[(first + offset) % players]
            if len(hand) < 3:
                hand.append(position)
                position += 1
    while len(table) < 4:
        table.append(position)
        position += 1
    # Three and four positions: each itemgetter returns a tuple.
    return [itemgetter(*hand) for hand in hands], itemgetter(*table), position


def is_void(table: Sequence[int], rules: Rules) -> bool:
    """Whether the dealt table voids the deal under the profile's ``void_deal`` rule."""
    if rules.void_deal == "never":
        return False
    counts = [0] * _RANKS
    for c in table:
        counts[c // 4] += 1
    if rules.void_deal == "three_kings":
        return counts[_KING] >= 3
    return max(counts) >= 3


#: Card numbers back to cards.
CARDS = DECK


# --- scoring a deal from its piles --------------------------------------------------------
# A pile as one int, suit-major (10 bits per suit, by rank): the tallies of a suit are a
# lookup of its 10 bits, so scoring a pile costs one sum in C and a few lookups.
_SUITS, _RANK_LIST = tuple(Suit), tuple(Rank)
_DIAMONDS_AT = 10 * _SUITS.index(Suit.DIAMONDS)
_SEVEN_BIT, _SIX_BIT = 1 << _RANK_LIST.index(Rank.SEVEN), 1 << _RANK_LIST.index(Rank.SIX)
_SUIT_BIT = {c: 1 << (10 * _SUITS.index(c.suit) + _RANK_LIST.index(c.rank)) for c in DECK}
#: By the 10 rank bits of one suit: the best primiera value held (0 for none).
_PRIMIERA_BEST = tuple(
    max(
        (PRIMIERA_VALUES[rank] for at, rank in enumerate(_RANK_LIST) if held >> at & 1),
        default=0,
    )
    for held in range(1 << 10)
)


def _tallies(pile: tuple[Card, ...]) -> tuple[int, int, int, int]:
    """(diamonds, sevens, sixes, primiera sum: 0 when a suit is missing) of a pile."""
    held = sum(map(_SUIT_BIT.__getitem__, pile))
    suits = (held & 1023, held >> 10 & 1023, held >> 20 & 1023, held >> 30)
    best = [_PRIMIERA_BEST[s] for s in suits]
    return (
        bin(held >> _DIAMONDS_AT & 1023).count("1"),
        sum([s & _SEVEN_BIT for s in suits]) // _SEVEN_BIT,
        sum([s & _SIX_BIT for s in suits]) // _SIX_BIT,
        0 if 0 in best else sum(best),
    )


def score(
    piles: tuple[tuple[Card, ...], ...],
    sweeps: tuple[int, ...],
    rules: Rules,
    last_side: int | None,
) -> DealScore:
    """:func:`~chkobba.score_deal` without input checks, for piles the engine built.

    The same categories (scoring's own helpers decide them) from tallies counted in C.
    """
    card_counts = tuple(map(len, piles))
    diamond_counts, seven_counts, six_counts, primiera_sums = zip(
        *map(_tallies, piles), strict=True
    )
    categories = (
        _majority(card_counts, len(DECK) // 2, rules, last_side),
        _majority(diamond_counts, len(DECK) // 8, rules, last_side),
        _bermila(seven_counts, six_counts) if rules.sevens_bermila else None,
        next((s for s, pile in enumerate(piles) if _SEVEN_OF_DIAMONDS in pile), None)
        if rules.seven_of_diamonds
        else None,
        _unique_best(primiera_sums) if rules.primiera else None,
    )
    points = tuple([n + categories.count(side) for side, n in enumerate(sweeps)])
    made = object.__new__(DealScore)
    made.__attrs_init__(
        *categories[:4],
        sweeps,
        points,
        card_counts,
        diamond_counts,
        seven_counts,
        six_counts,
        categories[4],
        primiera_sums,
    )
    return made
