"""The compact kernel: a profile's capture rules as precomputed tables over card numbers.

Internal (no public names): the fast paths of :func:`chkobba.rollout` and of the step API
read these tables instead of enumerating captures card by card. A card is its
:attr:`~chkobba.Card.index` (0-39, deck order, rank-major, so ``index // 4`` is its rank).

Every rule stays a lookup in the :class:`~chkobba.Rules` profile: :func:`kernel` turns a
profile into a :class:`Kernel` (once per profile, then cached), whose fields are plain
tuples indexed by card number.

Capture options depend only on the *multiset of values* on the table, so a table is
summarised by its signature: the sum of ``code_bit[code]`` over its cards, one count per
distinct capture value, each in as few bits as the profile's most common value needs (3
when every value has 4 cards, as in the Tunisian profile: its 10 counts then fit in 30
bits, one digit of a Python int, which keeps the hot loops' arithmetic on its fast path).
The options of a signature are enumerated once and kept; an option is a tuple of
positions in the table sorted by value, so the same entry serves every table of the same
values whatever their order or suits.

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

import itertools
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Any, TypeVar

from chkobba.cards import DECK, Card, Rank, Suit
from chkobba.errors import shown
from chkobba.rules import PLAYER_COUNTS, Rules
from chkobba.scoring import (
    PRIMIERA_VALUES,
    SEVEN_OF_DIAMONDS,
    DealScore,
    bermila,
    majority,
    unique_best,
)

__all__ = [
    "Kernel",
    "Options",
    "check_seating",
    "deal_hands",
    "deal_plan",
    "deal_points",
    "empty_hands",
    "is_void",
    "kernel",
    "points_two",
    "refill_plan",
    "score",
    "tally",
    "tally_counts",
]

T = TypeVar("T")
_COURTS = frozenset(i for i, rank in enumerate(Rank) if rank.value in "QJK")
_KING = tuple(Rank).index(Rank.KING)
_RANKS = len(Rank)

#: Per play key, the capture options: tuples of positions in the by-value table.
Options = tuple[tuple[tuple[int, ...], ...], ...]
#: A capture as the hot loop reads it: the signature's decrease (the taken cards' units),
#: the taken card's position in the by-value table and ``()``; for a sum, -1 and the
#: positions highest first (popping them in turn leaves the lower ones in place).
Capture = tuple[int, int, tuple[int, ...]]
#: A signature's entry: per play key the number of plays (1 for laying the card down when
#: it captures nothing), and the captures.
Entry = tuple[tuple[int, ...], tuple[tuple[Capture, ...], ...]]
#: Per sum, the groups of two or more cards of a table whose values add up to it.
_Groups = dict[int, tuple[Capture, ...]]


class Kernel:
    """A profile's capture rules as tables indexed by card number (see the module doc)."""

    __slots__ = (
        "_groups",
        "_most",
        "_rank_bit_at",
        "_singles",
        "_slots",
        "_unit",
        "_void_carry",
        "_void_top",
        "_width",
        "bit_at",
        "cache",
        "card_at",
        "card_of",
        "code",
        "code_bit",
        "code_of_card",
        "equal_single_first",
        "number_at",
        "number_of",
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
        # A count's width in a signature: a table holds at most every card of a value.
        self._width = max(self.values.count(v) for v in self.slot_values).bit_length()
        width = self._width
        self._unit = {v: 1 << (width * slot) for slot, v in enumerate(self.slot_values)}
        # Per slot: its value, where its count sits in a signature, and its unit there.
        self._slots = tuple(
            (v, width * slot, 1 << (width * slot)) for slot, v in enumerate(self.slot_values)
        )
        self._singles: dict[tuple[int, int, int], tuple[Capture, ...]] = {}
        # Each card's slot: the rank of its value among the profile's distinct values.
        slots = [self.slot_values.index(v) for v in self.values]
        #: Each card's code, ``slot * 64 + card``.
        self.code: tuple[int, ...] = tuple(s * 64 + c for c, s in enumerate(slots))
        size = 64 * len(self.slot_values)
        bits = [0] * size
        cards = [DECK[0]] * size  # codes of no card are never read
        numbers = [0] * size
        for card, slot in enumerate(slots):
            bits[self.code[card]] = 1 << (width * slot)
            cards[self.code[card]] = DECK[card]
            numbers[self.code[card]] = card
        #: By code: the card's unit in a table signature.
        self.code_bit: tuple[int, ...] = tuple(bits)
        #: By code: the card, and its number (for sorting codes in deck order).
        self.card_of: tuple[Card, ...] = tuple(cards)
        self.number_of: tuple[int, ...] = tuple(numbers)
        #: The same three lookups as functions, for ``map`` and ``sorted(key=...)``: a
        #: list's ``__getitem__`` is a plain builtin method, a tuple's a slot wrapper that
        #: costs about twice as much a call (2% of a random deal's instructions).
        self.card_at: Callable[[int], Card] = list(cards).__getitem__
        self.number_at: Callable[[int], int] = list(numbers).__getitem__
        self.bit_at: Callable[[int], int] = list(bits).__getitem__
        # The void-deal test (see voids): by code, the card's unit among rank counts packed
        # 3 bits apart; the ones added to those counts, and their top bits.
        rank_bits = [0] * size
        for card in range(len(DECK)):
            rank_bits[self.code[card]] = 1 << (3 * (card // 4))
        self._rank_bit_at: Callable[[int], int] = rank_bits.__getitem__
        tested = range(_RANKS) if rules.void_deal == "three_of_a_rank" else (_KING,)
        self._void_carry = sum(1 << (3 * rank) for rank in tested)
        self._void_top = 0 if rules.void_deal == "never" else self._void_carry << 2
        #: A card's code looked up by the card (a dict's ``__getitem__``, for ``map``:
        #: cheaper than ``code[card.index]`` in a comprehension of its own).
        self.code_of_card: Callable[[Card], int] = {
            card: self.code[card.index] for card in DECK
        }.__getitem__
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
        # The largest value that takes sums: no group of the table adds up beyond it.
        self._most = max((v for v, takes_sums in keys if takes_sums), default=0)
        #: Signature -> :data:`Entry`; read directly by the hot loops, filled by :meth:`entry`.
        self.cache: dict[int, Entry] = {}
        # Signature -> its groups of two or more cards by sum (up to the largest value that
        # takes sums): each table's are its smaller table's, extended by its top card.
        self._groups: dict[int, _Groups] = {0: {}}

    def signature(self, table: Iterable[int]) -> int:
        """The signature of a table of codes: the count of each value, packed in one int."""
        return sum(map(self.bit_at, table))

    def voids(self, table: Iterable[int]) -> bool:
        """Whether a dealt table of codes voids the deal (the profile's ``void_deal``).

        One sum (:func:`is_void` asks it for a table of card numbers): the table's count
        of each rank, 3 bits apart (a table holds at most 4 cards of a rank, so they never
        carry), plus 1 in each tested rank sets that rank's top bit exactly when it held 3
        or more.
        """
        return bool((sum(map(self._rank_bit_at, table)) + self._void_carry) & self._void_top)

    def options(self, signature: int) -> Options:
        """Per play key, every capture option on a table of this signature: positions in
        the table sorted by value (ascending)."""
        return tuple(
            tuple((at,) if at >= 0 else group[::-1] for _, at, group in captures)
            for captures in self.entry(signature)[1]
        )

    def entry(self, signature: int) -> Entry:
        """The plays per play key and the captures of a signature (cached: at most
        ``_KEPT`` tables, since hand-built states can hold any table and memory must stay
        bounded; play meets a few thousand)."""
        found = self.cache.get(signature)
        if found is None:
            if len(self.cache) >= _KEPT:
                self.clear()
            captures = self._captures(signature)
            found = self.cache[signature] = (tuple([len(c) or 1 for c in captures]), captures)
        return found

    def clear(self) -> None:
        """Forget the enumerated options (for benchmarks that want a cold start)."""
        # Another thread may be reading these: the groups are replaced whole, since
        # emptying them in place would drop, for a moment, the empty table's entry that
        # every listing's recursion ends on. The others are read with get, then filled.
        self.cache.clear()
        self._singles.clear()
        self._groups = {0: {}}

    def _captures(self, signature: int) -> tuple[tuple[Capture, ...], ...]:
        values: list[int] = []
        singles: dict[int, tuple[Capture, ...]] = {}  # by value
        mask = (1 << self._width) - 1
        for value, shift, unit in self._slots:
            count = signature >> shift & mask
            if count:
                # The same cards at the same places are the same captures: shared.
                key = (unit, len(values), count)
                found_singles = self._singles.get(key)
                if found_singles is None:
                    at = len(values)
                    found_singles = self._singles[key] = tuple(
                        [(unit, i, ()) for i in range(at, at + count)]
                    )
                singles[value] = found_singles
                values += [value] * count
        if not self._most or len(values) < 2:
            groups: _Groups = {}
        elif len(values) <= _EVERY_SUM_UP_TO:
            groups = self._sum_groups(signature, values)
        else:
            groups = self._groups_by_target(values)
        found = []
        for value, takes_sums in self.play_keys:
            captures = singles.get(value, ())
            if takes_sums and value in groups and not (captures and self.equal_single_first):
                captures += groups[value]
            found.append(captures)
        return tuple(found)

    def _sum_groups(self, signature: int, values: list[int]) -> _Groups:
        """Every group of two or more cards of the table (``values`` ascending) as a
        :data:`Capture`, by its sum up to the largest value that takes sums; memoised per
        signature."""
        found = self._groups.get(signature)
        if found is not None:
            return found
        # The groups without the top card, then those with it: with one other card, or
        # added to a smaller group.
        top = len(values) - 1
        value = values[top]
        unit = self._unit[value]
        below = values[:top]
        smaller = self._sum_groups(signature - unit, below)
        most = self._most - value
        if most < values[0]:  # no group with the top card adds up to a value that takes sums
            self._groups[signature] = smaller
            return smaller
        # Per sum: the top card with one other card (in table order), then with each
        # smaller group; appended to that sum's groups without the top card.
        added: dict[int, list[Capture]] = {}
        units = self._unit
        for at, other in enumerate(below):
            if other > most:
                break
            added.setdefault(other + value, []).append((unit + units[other], -1, (top, at)))
        for total, groups in smaller.items():
            if total <= most:
                into = added.setdefault(total + value, [])
                for delta, _, positions in groups:
                    into.append((delta + unit, -1, (top, *positions)))
        found = dict(smaller)
        for total, extra in added.items():
            found[total] = found.get(total, ()) + tuple(extra)
        self._groups[signature] = found
        return found

    def _groups_by_target(self, values: list[int]) -> _Groups:
        """:meth:`_sum_groups` for a large table: the groups of only the sums a card may
        take, each worked out down from its total, the same groups in the same order.

        Every sum up to the largest value that takes sums can mean about
        ``2 ** len(values)`` groups (a house profile with a card worth 1000 on a
        hand-built table of 30 cards: most of them add up to no card's value)."""
        prefix = list(itertools.accumulate(values, initial=0))  # the sum of values[:k]
        memo: dict[tuple[int, int], tuple[Capture, ...]] = {}
        found: _Groups = {}
        for value, takes_sums in self.play_keys:
            if takes_sums and value not in found:
                groups = self._groups_adding_to(values, len(values), value, prefix, memo)
                if groups:
                    found[value] = groups
        return found

    def _groups_adding_to(
        self,
        values: list[int],
        size: int,
        total: int,
        prefix: list[int],
        memo: dict[tuple[int, int], tuple[Capture, ...]],
    ) -> tuple[Capture, ...]:
        """The groups of two or more of ``values[:size]`` adding up to ``total``, in
        :meth:`_sum_groups`' order: those without the top card, then the top card with
        one other card (in table order), then with each smaller group."""
        if size < 2 or total > prefix[size] or total < values[0] + values[1]:
            return ()
        key = (size, total)
        found = memo.get(key)
        if found is None:
            top = size - 1
            value = values[top]
            unit = self._unit[value]
            rest = total - value
            pairs = tuple(
                (unit + self._unit[other], -1, (top, at))
                for at, other in enumerate(values[:top])
                if other == rest
            )
            longer = tuple(
                (delta + unit, -1, (top, *positions))
                for delta, _, positions in self._groups_adding_to(values, top, rest, prefix, memo)
            )
            found = self._groups_adding_to(values, top, total, prefix, memo) + pairs + longer
            memo[key] = found
        return found


_KERNELS: dict[Rules, Kernel] = {}
_KEPT = 1 << 16
#: The largest table whose groups are worked out for every sum at once (each such
#: table's groups remembered for the tables up to this size that extend it); past it,
#: only the sums a card may take. Real deals rarely lay more than a dozen cards.
_EVERY_SUM_UP_TO = 12
#: The most profiles whose kernels (and the tables other modules keep per kernel or per
#: profile) are kept: a server reading records of many house profiles must not grow
#: without bound. Past it the caches start afresh; the profiles in use rebuild theirs.
PROFILES_KEPT = 64
#: The caches other modules keep per kernel or per profile, emptied with the kernels: each
#: emptied alone, one would keep alive a kernel the others had dropped (up to 4 x 64).
_KEPT_WITH_KERNELS: list[dict[Any, Any]] = []

_Cache = TypeVar("_Cache", bound=dict[Any, Any])


def kept_with_kernels(cache: _Cache) -> _Cache:
    """Have ``cache`` (keyed by kernel or by profile) emptied when the kernels are, so
    that at most :data:`PROFILES_KEPT` kernels live; returns it."""
    _KEPT_WITH_KERNELS.append(cache)
    return cache


_last: Kernel | None = None


def kernel(rules: Rules) -> Kernel:
    """The :class:`Kernel` of a profile (built once per profile, while it is kept)."""
    global _last
    # Every call of a match passes the same Rules object: checked by identity first, it
    # skips hashing the profile (a Python-level __hash__, 1.2k instructions a call).
    last = _last
    if last is not None and last.rules is rules:
        return last
    found = _KERNELS.get(rules)
    if found is None:
        if len(_KERNELS) >= PROFILES_KEPT:
            _KERNELS.clear()
            for cache in _KEPT_WITH_KERNELS:
                cache.clear()
        found = _KERNELS[rules] = Kernel(rules)
    _last = found
    return found


def clear_caches() -> None:
    """Forget every profile's enumerated options."""
    for each in list(_KERNELS.values()):  # a copy: another thread may add a profile
        each.clear()


def deal_hands(
    order: Sequence[T], players: int, first: int, keep: bool | None
) -> tuple[tuple[tuple[T, ...], ...], tuple[T, ...], int]:
    """Deal the start of a deal from ``order``: (hands, table, next stock position).

    ``keep`` is the cut: ``True`` puts the top card in the first player's hand, ``False``
    on the table, ``None`` means the profile has no cut. Then one card at a time to each
    player in playing order from ``first`` until every hand holds 3, then the table up to
    4 (docs/rules.md, "The deal"; with no cut the same from the top of the order).
    """
    take, split, position = deal_plan(players, first, keep)
    *hands, table = split(take(order))
    return tuple(hands), table, position


def check_seating(players: object) -> None:
    """Refuse a player count that no profile deals to (:data:`~chkobba.rules.PLAYER_COUNTS`).

    The engine trusts a state's fields (:func:`~chkobba.check_state` is the full check,
    run only when something fails), except here, before anything is sized by the count:
    a hand-built state with ``players=10**5000`` would otherwise have a list built over
    ``range(players)`` fill the memory instead of failing. Called where a plan for a
    seating is first made, so it costs nothing per move.
    """
    if type(players) is not int or players not in PLAYER_COUNTS:
        raise ValueError(f"no profile deals to {shown(players)} players")


# The per-seating plans below are cached in dicts keyed by the count (and the first
# seat), and are looked up by ints only: 2.0 equals 2, so it would find the 2-player
# plans and a broken hand-built state would deal on. On a miss both are checked before
# anything is built or stored: a plan stored under (2, 0.0) would be found by every
# valid (2, 0) lookup after it, and its float slices fail on every real state.


def _check_seat(first: object, players: int) -> None:
    if type(first) is not int or not 0 <= first < players:
        raise ValueError(f"there is no seat {shown(first)} at {players} players")


_EMPTY_HANDS: dict[int, tuple[tuple[Card, ...], ...]] = {}


def empty_hands(players: int) -> tuple[tuple[Card, ...], ...]:
    """Every player's empty hand, ``((),) * players``, for a count :func:`check_seating` accepts."""
    found = _EMPTY_HANDS.get(players) if type(players) is int else None
    if found is None:
        check_seating(players)
        found = _EMPTY_HANDS[players] = ((),) * players
    return found


_REFILLS: dict[tuple[int, int], itemgetter[Any]] = {}


def refill_plan(players: int, first: int) -> itemgetter[Any]:
    """What splits a round's cards, dealt one at a time in playing order from ``first``,
    into the hands, seat by seat (a tuple of the hands: one C call)."""
    found = _REFILLS.get((players, first)) if type(first) is int is type(players) else None
    if found is None:
        check_seating(players)
        _check_seat(first, players)
        seats = [slice((p - first) % players, None, players) for p in range(players)]
        found = _REFILLS[players, first] = itemgetter(*seats)
    return found


#: How to deal (see :func:`deal_plan`): one getter of every dealt card, one that splits
#: those into the hands and the table, and the first position left in the stock.
DealPlan = tuple["itemgetter[Any]", "itemgetter[Any]", int]
_PLANS: dict[tuple[int, int, bool | None], DealPlan] = {}


def deal_plan(players: int, first: int, keep: bool | None) -> DealPlan:
    """How :func:`deal_hands` deals for this seating and cut: ``take(order)`` gives
    every dealt card, hand after hand and then the table, in a tuple; ``split`` of that
    (or of a list of it, for lists) gives each hand and then the table. Two C calls: far
    cheaper than a list per hand built in Python."""
    found = _PLANS.get((players, first, keep)) if type(first) is int is type(players) else None
    if found is None:
        found = _PLANS[players, first, keep] = _deal_plan(players, first, keep)
    return found


def _deal_plan(players: int, first: int, keep: bool | None) -> DealPlan:
    """Which positions of the order each hand and the table receive (docs/rules.md, "The deal")."""
    check_seating(players)
    _check_seat(first, players)
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
    ends = list(itertools.accumulate(map(len, [*hands, table]), initial=0))
    splits = [slice(start, end) for start, end in itertools.pairwise(ends)]
    return itemgetter(*itertools.chain(*hands, table)), itemgetter(*splits), position


def is_void(table: Sequence[int], rules: Rules) -> bool:
    """Whether the dealt table (card numbers) voids the deal under the profile's
    ``void_deal`` rule: :meth:`Kernel.voids` on the cards' codes, the one test of it."""
    k = kernel(rules)
    return k.voids(map(k.code.__getitem__, table))


# --- scoring a deal from its piles --------------------------------------------------------
# A card's tallies packed in one int: its diamond (bits 0-3), seven (4-6) and six (7-9)
# counts, then its rank bit among its suit's 10 (from bit 10, suit-major). A pile's sum
# of these holds all its tallies (each field is wide enough for the whole deck), so
# scoring a pile costs one sum in C and a few shifts and lookups.
_SUITS, _RANK_LIST = tuple(Suit), tuple(Rank)
_SEVENS_AT, _SIXES_AT, _HELD_AT = 4, 7, 10
_TALLY = {
    c: (c.suit is Suit.DIAMONDS)
    + ((c.rank is Rank.SEVEN) << _SEVENS_AT)
    + ((c.rank is Rank.SIX) << _SIXES_AT)
    + (1 << (_HELD_AT + 10 * _SUITS.index(c.suit) + _RANK_LIST.index(c.rank)))
    for c in DECK
}
_SEVEN_OF_DIAMONDS_BIT = _TALLY[SEVEN_OF_DIAMONDS] >> _HELD_AT << _HELD_AT
#: By the 10 rank bits of one suit: the best primiera value held (0 for none).
_PRIMIERA_BEST = tuple(
    max(
        (PRIMIERA_VALUES[rank] for at, rank in enumerate(_RANK_LIST) if held >> at & 1),
        default=0,
    )
    for held in range(1 << 10)
)


_Sides = tuple[int, ...]


def _side_tallies(
    tallies: Iterable[int],
) -> tuple[_Sides, _Sides, _Sides, _Sides, int | None]:
    """Per side, from its pile's :func:`tally`: diamonds, sevens, sixes and primiera sum
    (0 when a suit is missing); then the first side whose tally holds the 7♦ (``None``:
    none).

    One loop appending to four lists: cheaper than a 5-tuple per pile transposed with
    zip, or a comprehension per field (each a frame of its own), by about 4k
    instructions a 3-side deal.
    """
    diamonds: list[int] = []
    sevens: list[int] = []
    sixes: list[int] = []
    primiera: list[int] = []
    holder: int | None = None
    for side, held in enumerate(tallies):
        diamonds.append(held & 15)
        sevens.append(held >> _SEVENS_AT & 7)
        sixes.append(held >> _SIXES_AT & 7)
        primiera.append(_primiera_sum(held))
        if held & _SEVEN_OF_DIAMONDS_BIT and holder is None:
            holder = side
    return tuple(diamonds), tuple(sevens), tuple(sixes), tuple(primiera), holder


def score(
    piles: tuple[tuple[Card, ...], ...],
    sweeps: tuple[int, ...],
    rules: Rules,
    last_side: int | None,
    whole_deck: bool = False,
) -> DealScore:
    """:func:`~chkobba.score_deal` without input checks, for piles the engine built.

    The same categories from tallies counted in C: scoring's own helpers decide them,
    except for two sides, the common case, which take a shorter path of their own
    (tested to agree with :func:`~chkobba.score_deal` on random profiles). ``whole_deck``
    says that the piles hold each of the 40 cards exactly once (a deal the caller dealt
    itself from a whole deck, the leftovers given): two sides then count only the
    smaller pile.
    """
    if len(piles) == 2:
        return _score_two(piles, sweeps, rules, last_side, whole_deck)
    card_counts = tuple(map(len, piles))
    categories, counts, primiera = _categories(map(tally, piles), card_counts, rules, last_side)
    points = tuple([n + categories.count(side) for side, n in enumerate(sweeps)])
    return _deal_score(categories, sweeps, points, card_counts, counts, primiera)


def deal_points(
    tallies: Sequence[int],
    card_counts: Sequence[int],
    sweeps: Sequence[int],
    rules: Rules,
    last_side: int | None,
) -> tuple[int, ...]:
    """The deal points of each side from their piles' :func:`tally` and sizes (what
    :func:`score` would give in ``points``), for two or three sides."""
    if len(tallies) == 2:
        return points_two(tallies, card_counts, sweeps, rules, last_side)
    categories = _categories(tallies, tuple(card_counts), rules, last_side)[0]
    return tuple([n + categories.count(side) for side, n in enumerate(sweeps)])


_Counts = tuple[_Sides, _Sides, _Sides]


def _categories(
    tallies: Iterable[int], card_counts: _Sides, rules: Rules, last_side: int | None
) -> tuple[tuple[int | None, ...], _Counts, _Sides]:
    """The category winners (cards, diamonds, bermila, 7♦, primiera) of any number of
    sides from their piles' tallies and sizes, with each side's diamonds, sevens and
    sixes, and its primiera sum."""
    diamonds, sevens, sixes, primiera, holder = _side_tallies(tallies)
    categories = (
        majority(card_counts, _HALF_THE_CARDS, rules, last_side),
        majority(diamonds, _HALF_THE_DIAMONDS, rules, last_side),
        bermila(sevens, sixes) if rules.sevens_bermila else None,
        holder if rules.seven_of_diamonds else None,
        unique_best(primiera) if rules.primiera else None,
    )
    return categories, (diamonds, sevens, sixes), primiera


def _deal_score(
    winners: tuple[int | None, ...],
    sweeps: tuple[int, ...],
    points: tuple[int, ...],
    card_counts: tuple[int, ...],
    counts: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]],
    primiera: tuple[int, ...],
) -> DealScore:
    """The DealScore of these category ``winners`` (cards, diamonds, bermila, 7♦,
    primiera), built without ``DealScore.__init__`` (it only maps the fields' old names)
    by writing its instance dict at once; ``counts`` are the diamonds, sevens and sixes
    per side."""
    made = _new(DealScore)
    _set(
        made,
        "__dict__",
        {
            "cards_winner": winners[0],
            "diamonds_winner": winners[1],
            "bermila_winner": winners[2],
            "seven_of_diamonds_winner": winners[3],
            "chkobbas": sweeps,
            "points": points,
            "card_counts": card_counts,
            "diamond_counts": counts[0],
            "seven_counts": counts[1],
            "six_counts": counts[2],
            "primiera_winner": winners[4],
            "primiera_sums": primiera,
        },
    )
    return made


_new, _set = object.__new__, object.__setattr__
_TALLY_OF = _TALLY.__getitem__
_DECK_TALLY = sum(_TALLY.values())


def tally(pile: Iterable[Card]) -> int:
    """A pile's tallies packed in one int (see :func:`tally_counts`); the sum of its
    cards' tallies, so a pile's tally grows by each card's as it is captured."""
    return sum(map(_TALLY_OF, pile))


def tally_counts(held: int) -> tuple[int, int, int, bool]:
    """A :func:`tally`'s diamonds, sevens and sixes, and whether it holds the 7♦."""
    return (
        held & 15,
        held >> _SEVENS_AT & 7,
        held >> _SIXES_AT & 7,
        held & _SEVEN_OF_DIAMONDS_BIT != 0,
    )


def _score_two(
    piles: tuple[tuple[Card, ...], ...],
    sweeps: tuple[int, ...],
    rules: Rules,
    last_side: int | None,
    whole_deck: bool,
) -> DealScore:
    """:func:`score` for two sides: the categories compared side against side, without
    the general helpers' lists (this runs at the end of every rollout)."""
    first, second = piles
    card_counts = (len(first), len(second))
    if not whole_deck:
        one, two = tally(first), tally(second)
    elif card_counts[0] <= card_counts[1]:  # the tallies add up to the deck's
        one = tally(first)
        two = _DECK_TALLY - one
    else:
        two = tally(second)
        one = _DECK_TALLY - two
    won, diamonds, sevens, sixes, primiera = _categories_two(
        one, two, card_counts, rules, last_side
    )
    points = (sweeps[0] + won.count(0), sweeps[1] + won.count(1))
    return _deal_score(won, sweeps, points, card_counts, (diamonds, sevens, sixes), primiera)


def points_two(
    tallies: Sequence[int],
    card_counts: Sequence[int],
    sweeps: Sequence[int],
    rules: Rules,
    last_side: int | None,
) -> tuple[int, int]:
    """The deal points of two sides from their piles' :func:`tally` and sizes (what
    :func:`score` would give in ``points``)."""
    won = _categories_two(
        tallies[0], tallies[1], (card_counts[0], card_counts[1]), rules, last_side, sums=False
    )[0]
    return (sweeps[0] + won.count(0), sweeps[1] + won.count(1))


_Pair = tuple[int, int]
_HALF_THE_CARDS, _HALF_THE_DIAMONDS = len(DECK) // 2, len(DECK) // 8


def _categories_two(
    one: int,
    two: int,
    card_counts: _Pair,
    rules: Rules,
    last_side: int | None,
    sums: bool = True,
) -> tuple[tuple[int | None, ...], _Pair, _Pair, _Pair, _Pair]:
    """Two sides' category winners (cards, diamonds, bermila, 7♦, primiera) from their
    tallies, then their diamonds, sevens, sixes and primiera sums (worked out only when
    the profile scores primiera or ``sums`` asks for them: a DealScore shows them)."""
    diamonds = (one & 15, two & 15)
    sevens = (one >> _SEVENS_AT & 7, two >> _SEVENS_AT & 7)
    sixes = (one >> _SIXES_AT & 7, two >> _SIXES_AT & 7)
    primiera = (_primiera_sum(one), _primiera_sum(two)) if sums or rules.primiera else (0, 0)
    bermila_side = (
        (_better(sevens) if sevens[0] != sevens[1] else _better(sixes))
        if rules.sevens_bermila
        else None
    )
    seven_side = None
    if rules.seven_of_diamonds:
        if one & _SEVEN_OF_DIAMONDS_BIT:
            seven_side = 0
        elif two & _SEVEN_OF_DIAMONDS_BIT:
            seven_side = 1
    won = (
        _majority_two(card_counts, _HALF_THE_CARDS, rules, last_side),
        _majority_two(diamonds, _HALF_THE_DIAMONDS, rules, last_side),
        bermila_side,
        seven_side,
        _better(primiera) if rules.primiera else None,
    )
    return won, diamonds, sevens, sixes, primiera


def _primiera_sum(held: int) -> int:
    """The primiera sum of a pile's tallies: 0 when a suit is missing."""
    best = _PRIMIERA_BEST
    first, second = best[held >> 10 & 1023], best[held >> 20 & 1023]
    third, fourth = best[held >> 30 & 1023], best[held >> 40]
    return first + second + third + fourth if first and second and third and fourth else 0


def _better(values: tuple[int, int]) -> int | None:
    """The side with the higher of two values, ``None`` when they are equal."""
    one, two = values
    return 0 if one > two else 1 if two > one else None


def _majority_two(
    counts: tuple[int, int], half: int, rules: Rules, last_side: int | None
) -> int | None:
    """:func:`~chkobba.scoring.majority` for two sides."""
    one, two = counts
    if rules.majority == "more_than_half":
        if one > half or two > half:
            return 0 if one > half else 1
        tied = one == two == half
    else:
        if one != two:
            return 0 if one > two else 1
        tied = True
    # Two sides tied: the last capturer is one of them whenever there is one.
    return last_side if tied and rules.ties_to_last_capturer else None
