"""The loop behind :func:`chkobba.rollout`: a deal played out on the compact kernel.

Internal, and the part of a rollout that runs per card: cards as codes, each table's
capture options looked up by its signature (see :mod:`chkobba._kernel`), a
:class:`~chkobba.State` built only at the end. :mod:`chkobba.rollouts` checks the
caller's arguments and calls :func:`play_deal` once per deal. Its functions are only
ever called with the types they declare, so the module can be compiled with mypyc
(``CHKOBBA_MYPYC=1``, see the README) without changing what a caller sees.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Any

from chkobba._kernel import PROFILES_KEPT, Kernel, deal_plan, kept_with_kernels, kernel, refill_plan
from chkobba._plays import shared_play
from chkobba._successors import end_deal
from chkobba.cards import Card
from chkobba.errors import ChkobbaError
from chkobba.moves import Cut, Move, Play, Shuffle
from chkobba.state import Phase, State, sides_of

__all__ = ["play_deal"]

_CUT, _PLAY = Phase.CUT, Phase.PLAY


# Uniform whole numbers below ``n`` come from 30 random bits by rejection: a draw under
# the largest multiple of ``n`` that fits (``_LIMITS[n]``), taken modulo ``n``. Exactly
# uniform, and cheaper than ``int(rng.random() * n)`` (a float and a call); 30 bits stay
# one digit of a Python int, which keeps the arithmetic on its fast paths.
_BITS = 30
_LIMITS = tuple((1 << _BITS) - (1 << _BITS) % n if n else 0 for n in range(1024))
_Draw = Callable[[int], int]


def _limit(n: int) -> int:
    """``_LIMITS[n]`` for any ``n`` from 1 to ``2**30``."""
    return (1 << _BITS) - (1 << _BITS) % n


def _below(getrandbits: _Draw, limit: int) -> int:
    """A uniform draw of 30 bits below ``limit``."""
    while True:
        drawn = getrandbits(_BITS)
        if drawn < limit:
            return drawn


# Every draw below this is under the limit of any count of plays up to 2**20, so only the
# draws above it need the exact check. With values from 1 to 10 (both named profiles) no
# hand comes near: a card of value 10 has at most 1,702 captures on a 40-card table, so
# even 40 cards in hand have under 70,000 plays. Only a house profile with far larger
# values, on a hand-built table no deal reaches, could list more (and listing them would
# exhaust memory first).
_SAFE = (1 << _BITS) - (1 << 20)


def _redraw(getrandbits: _Draw, drawn: int, n: int) -> int:
    """``drawn`` (at least ``_SAFE``) if it is under ``n``'s limit, else a new draw."""
    limit = _LIMITS[n] if n < len(_LIMITS) else _limit(n)
    return drawn if drawn < limit else _below(getrandbits, limit)


def _uniform(getrandbits: _Draw, n: int) -> int:
    """A uniform whole number from 0 to ``n - 1``."""
    return _below(getrandbits, _limit(n)) % n


_Triple = tuple[int, int, int, int, int, int, int]
#: Per kernel, how :func:`_shuffled` shuffles its cards' codes (see :func:`_shuffle_plan`).
_SHUFFLES: dict[Kernel, tuple[tuple[tuple[int, ...], ...], int, tuple[_Triple, ...]]] = (
    kept_with_kernels({})
)


def _shuffle_plan(
    codes: tuple[int, ...],
) -> tuple[tuple[tuple[int, ...], ...], int, tuple[_Triple, ...]]:
    """The steps of :func:`_shuffled` after the first card: card ``i`` (from 1) may go to
    any of ``i + 1`` places. Three steps share one draw: 40 x 39 x 38 places fit in 30
    bits many times over, so the draws cost a third as many calls. Each step is (code,
    how many places it may go) thrice, then the limit of their product.

    The first three steps place cards among at most four, in 24 ways: those orders
    are listed once, and the first draw picks one (the same order the three insertions
    would make from the same draw), then the other steps follow.
    """
    steps = list(enumerate(codes[1:], 2))
    if len(steps) % 3 or not steps:
        raise ChkobbaError(f"a shuffle of {len(codes)} cards does not split into threes")
    triples = []
    for at in range(0, len(steps), 3):
        (p1, c1), (p2, c2), (p3, c3) = steps[at : at + 3]
        triples.append((c1, p1, c2, p2, c3, p3, _limit(p1 * p2 * p3)))
    c1, p1, c2, p2, c3, p3, first_limit = triples[0]
    firsts = []
    for drawn in range(p1 * p2 * p3):
        order = [codes[0]]
        order.insert(drawn % p1, c1)
        order.insert(drawn // p1 % p2, c2)
        order.insert(drawn // p1 // p2 % p3, c3)
        firsts.append(tuple(order))
    return tuple(firsts), first_limit, tuple(triples[1:])


def _shuffled(rng: random.Random, k: Kernel) -> list[int]:
    """A uniformly random order of the 40 cards, as codes.

    Inside-out Fisher-Yates: each card in turn goes to a uniform place among those
    before it and after them all, so every order comes from exactly one set of places.
    Three cards' places come from one uniform draw below a multiple of the product of
    their counts, read as the digits of a mixed-radix number (exactly uniform too).
    """
    plan = _SHUFFLES.get(k)
    if plan is None:
        if len(_SHUFFLES) >= PROFILES_KEPT:  # bounded like the kernels they are keyed by
            _SHUFFLES.clear()
        plan = _SHUFFLES[k] = _shuffle_plan(k.code)
    firsts, limit, steps = plan
    getrandbits = rng.getrandbits
    drawn = getrandbits(_BITS)
    if drawn >= limit:
        drawn = _below(getrandbits, limit)
    order = list(firsts[drawn % len(firsts)])
    insert = order.insert
    for c1, p1, c2, p2, c3, p3, limit in steps:
        drawn = getrandbits(_BITS)
        if drawn >= limit:
            drawn = _below(getrandbits, limit)
        insert(drawn % p1, c1)
        drawn //= p1
        insert(drawn % p2, c2)
        insert(drawn // p2 % p3, c3)
    return order


def play_deal(state: State, rng: random.Random, moves: list[Move] | None) -> State:
    """Play the rest of the current deal from ``state`` (not over); return its end."""
    rules, players = state.rules, state.players
    cutter = state.cutter
    k = kernel(rules)
    code_of_card = k.code_of_card
    dealt_here = False  # whether this deal's 40 cards came from our own shuffle
    if state.phase is _PLAY:
        hands = [list(map(code_of_card, hand)) for hand in state.hands]
        table = list(map(code_of_card, state.table))
        stock = list(map(code_of_card, state.stock))
        piles = [list(pile) for pile in state.captured]
        chkobbas = list(state.chkobbas)
        last: int | None = state.last_capturer
        player: int = state.current_player  # type: ignore[assignment]
    else:
        order = list(map(code_of_card, state.stock)) if state.phase is _CUT else None
        while True:
            if order is None:
                order = _shuffled(rng, k)
                dealt_here = True
                if moves is not None:
                    moves.append(Shuffle(map(k.card_at, order)))
            keep = None
            if rules.cut:
                keep = rng.getrandbits(1) == 1
                if moves is not None:
                    moves.append(Cut(keep))
            take, split, position = deal_plan(players, cutter, keep)
            *hands, table = split(list(take(order)))  # lists: the hands lose cards in play
            if not k.voids(table):
                break
            order = None
        stock = order[position:]
        sides = sides_of(players)
        piles = [[] for _ in range(sides)]
        chkobbas = [0] * sides
        last = None
        player = cutter
    deal = (hands, table, stock, piles, chkobbas, last, player)
    return _play_out(state, k, rng, moves, deal, cutter, dealt_here)


def _pick_any(
    hand: list[int], counts: tuple[int, ...], play_key: tuple[int, ...], getrandbits: _Draw
) -> tuple[int, int]:
    """For a hand of any size: move a card to the front, chosen in proportion to its
    number of plays, and return it with that number (then a uniform play of that card
    is a uniform play of the hand)."""
    if not hand:
        raise ChkobbaError("rollout: the player to move has no card (a state built by hand?)")
    sizes = [counts[play_key[c]] for c in hand]
    pick = _uniform(getrandbits, sum(sizes))
    at = 0
    while pick >= sizes[at]:
        pick -= sizes[at]
        at += 1
    hand.insert(0, hand.pop(at))
    return hand[0], sizes[at]


#: A turn: the player to move and the size of their hand then (every turn takes one card,
#: so the sizes are known ahead and the loop needs no ``len`` per play).
_Turn = tuple[int, int]
#: Per (players, cutter): a whole round's turns, and what splits its cards into the hands
#: (one C call, see :func:`chkobba._kernel.deal_plan`).
_ROUNDS: dict[tuple[int, int], tuple[list[_Turn], itemgetter[Any]]] = {}
#: What a deal in play is made of: hands, table (in the order laid), stock, piles by side,
#: chkobbas by side, last capturer and the player to move; cards as codes, except in the
#: piles (cards: they go into the State as they are).
_Deal = tuple[
    Sequence[list[int]], list[int], list[int], list[list[Card]], list[int], "int | None", int
]


def _round(players: int, cutter: int) -> tuple[list[_Turn], itemgetter[Any]]:
    found = _ROUNDS.get((players, cutter)) if type(cutter) is int is type(players) else None
    if found is None:
        seats = refill_plan(players, cutter)
        turns = _sized([(cutter + i) % players for i in range(3 * players)], [3] * players)
        found = _ROUNDS[players, cutter] = (turns, seats)
    return found


def _in_turn(player: int, players: int, count: int) -> list[int]:
    """``count`` turns in playing order from ``player`` (a function of its own: in the
    loop's function, a comprehension would make ``player`` a slower closure cell)."""
    return [(player + i) % players for i in range(count)]


def _sized(movers: list[int], sizes: list[int]) -> list[_Turn]:
    """Each of ``movers`` with the size of their hand at that turn, from the hands' ``sizes``
    now (a hand built by hand may run out first: its size 0 is refused when it comes)."""
    left = list(sizes)
    turns = []
    for player in movers:
        turns.append((player, left[player]))
        left[player] -= 1
    return turns


def _play_out(
    state: State,
    k: Kernel,
    rng: random.Random,
    moves: list[Move] | None,
    deal: _Deal,
    cutter: int,
    whole_deck: bool,
) -> State:
    """Play the deal to its end; return the state :func:`~chkobba.apply` would give.
    ``cutter`` leads each round; ``whole_deck``: the deal holds each of the 40 cards
    once (it was dealt here)."""
    hands, table, stock, piles, chkobbas, last, player = deal
    rules, players = state.rules, state.players
    cache, entry_of, play_key, code_bit = k.cache, k.entry, k.play_key, k.code_bit
    # The rest of this round, in turn from the player to move; then whole rounds. First:
    # _round refuses a player count no profile deals to before anything is sized by it.
    round_turns, seats = _round(players, cutter)
    pile_of = piles * (players // len(piles))  # partners share a pile
    sweep_last = rules.last_card_chkobba
    getrandbits = rng.getrandbits
    record = moves is not None
    number_at, card_at, card_of = k.number_at, k.card_at, k.card_of
    # The table sorted by code is sorted by value: capture positions index it directly.
    # ``laid`` keeps the order the cards were laid, for the leftovers at the end.
    laid = table
    table = sorted(table)
    signature = k.signature(table)
    round_size = len(round_turns)
    if whole_deck:  # dealt here: a whole round, the cutter first
        turns = round_turns
    else:
        sizes = list(map(len, hands))
        if player == round_turns[0][0] and sizes.count(3) == players:
            turns = round_turns
        else:
            movers = _in_turn(player, players, max(sum(sizes), 1))
            turns = _sized(movers, sizes)
    position, stock_size = 0, len(stock)
    bits, safe = _BITS, _SAFE  # locals: read on every play
    while True:
        for player, size in turns:
            hand = hands[player]
            try:
                counts, entry = cache[signature]
            except KeyError:
                counts, entry = entry_of(signature)
            # Uniform over every (card, capture) pair: pick one of all the hand's plays.
            if size == 3:
                a, b, c = hand
                first = counts[play_key[a]]
                second = first + counts[play_key[b]]
                total = second + counts[play_key[c]]
            elif size == 2:
                a, b = hand
                first = counts[play_key[a]]
                second = total = first + counts[play_key[b]]
            elif size == 1:
                a = hand[0]
                first = second = total = counts[play_key[a]]
            else:  # a hand built by hand may hold more than 3 cards (or none)
                a, first = _pick_any(hand, counts, play_key, getrandbits)
                second = total = first
            pick = getrandbits(bits)
            if pick >= safe:  # rarely: maybe in the biased top of the range
                pick = _redraw(getrandbits, pick, total)
            pick %= total
            if pick < first:
                played = a
                del hand[0]
            elif pick < second:
                played = b
                del hand[1]
                pick -= first
            else:
                played = c
                del hand[2]
                pick -= second
            captures = entry[play_key[played]]
            if captures:
                delta, at, group = captures[pick]
                signature -= delta
                if at >= 0:
                    taken = table.pop(at)
                    pile_of[player].extend((card_of[played], card_of[taken]))
                    if record:
                        moves.append(_play(k, played, (taken,)))  # type: ignore[union-attr]
                else:  # a sum: popped highest position first, in the pile in deck order
                    taken_group = sorted(map(table.pop, group), key=number_at)
                    pile_of[player].extend(map(card_at, (played, *taken_group)))
                    if record:
                        moves.append(_play(k, played, taken_group))  # type: ignore[union-attr]
                # A sweep, unless made with the deal's last card (where the profile says so).
                if not signature and (sweep_last or position < stock_size or any(hands)):
                    chkobbas[player % len(piles)] += 1
                last = player
            else:
                insort(table, played)
                laid.append(played)
                signature += code_bit[played]
                if record:
                    moves.append(_play(k, played, ()))  # type: ignore[union-attr]
        if position >= stock_size:
            break
        # Everyone is out of cards: three more each, in playing order; the cutter leads.
        dealt = stock[position : position + round_size]
        position += round_size
        hands = seats(dealt)  # a tuple of lists
        if len(dealt) == round_size:
            turns = round_turns
        else:  # a short stock (a state built by hand): fewer cards, in the same order
            movers = [mover for mover, _ in round_turns[: len(dealt)]]
            turns = _sized(movers, [len(hand) for hand in hands])
    # The cards left on the table, in the order laid, go to the last capturer's side (as
    # end_deal would give them, without rebuilding that pile's tuple); with no capture
    # in the whole deal they stay on the table.
    leftovers = map(card_at, filter(set(table).__contains__, laid))
    on_table: tuple[Card, ...] = ()
    if last is None:
        on_table = tuple(leftovers)
    else:
        pile_of[last].extend(leftovers)
    captured = tuple(map(tuple, piles))
    return end_deal(state, on_table, captured, tuple(chkobbas), last, whole_deck)


def _play(k: Kernel, played: int, group: Iterable[int]) -> Play:
    # The lays and single captures built once, which legal_moves lists and parse_move
    # gives: a list of a million deals' moves holds one of each, not one per move.
    card_of = k.card_of
    return shared_play(card_of[played], frozenset([card_of[c] for c in group]))
