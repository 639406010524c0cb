"""Random playouts at kernel speed: :func:`rollout`.

A rollout plays random moves from any state of a match to the end of the deal (or of the
match) on the compact kernel (cards as numbers, capture options precomputed per table of
values, see :mod:`chkobba._kernel`), and builds a :class:`~chkobba.State` only at the end.
The result is exactly the state that :func:`~chkobba.apply` gives for the same moves;
pass ``moves=[]`` to get them.

>>> import random
>>> from chkobba import apply, new_match
>>> played = []
>>> end = rollout(new_match(), random.Random(5), moves=played)
>>> len(end.deal_scores), end.scores == end.deal_scores[0].points
(1, True)
>>> state = new_match()
>>> for move in played:
...     state = apply(state, move)
>>> state == end
True
>>> rollout(new_match(), random.Random(5)) == end   # same seed, same deal
True
"""

from __future__ import annotations

import random
from typing import Literal

from chkobba import engine
from chkobba._kernel import CARDS, deal_hands, is_void, kernel
from chkobba.errors import ChkobbaError, shown
from chkobba.moves import Cut, Move, Play, Shuffle
from chkobba.state import Phase, State

__all__ = ["rollout"]

_SHUFFLE, _CUT, _PLAY, _OVER = Phase.SHUFFLE, Phase.CUT, Phase.PLAY, Phase.OVER
_UNTIL = ("deal", "match")


def rollout(
    state: State,
    rng: random.Random,
    *,
    until: Literal["deal", "match"] = "deal",
    moves: list[Move] | None = None,
) -> State:
    """Play uniformly random moves from ``state`` to the end of the deal or the match.

    - ``until="deal"``: stop when the current deal is scored (the result has one more
      entry in ``deal_scores``) or the match is over; a voided deal is dealt again.
      ``until="match"``: play on to the end of the match.
    - Shuffles are drawn from ``rng``, the cutter keeps or exposes with probability ½ (in
      profiles with a cut), and every play is uniform among :func:`~chkobba.legal_moves`
      of its state (each pair of card and capture is one outcome).
    - The returned state is exactly what :func:`~chkobba.apply` gives for the moves
      played; ``moves``, when given a list, receives them in order.
    - The same ``rng`` state gives the same result. A state that is already over comes
      back unchanged.

    Stable for callers that need speed (search bots): it takes any state, reachable or
    built by hand, and checks nothing about the moves it chooses itself, since it only
    ever chooses legal ones.
    """
    if not isinstance(state, State):
        raise ChkobbaError(f"rollout: {shown(state)} is not a State")
    if until not in _UNTIL:
        raise ChkobbaError(f"rollout: until must be 'deal' or 'match', not {shown(until)}")
    if moves is not None and not isinstance(moves, list):
        raise ChkobbaError(f"rollout: moves must be a list to append to, not {shown(moves)}")
    while state.phase is not _OVER:
        state = _deal(state, rng, moves)
        if until == "deal":
            break
    return state


def _shuffled(rng: random.Random, code: tuple[int, ...]) -> list[int]:
    """A uniformly random order of the 40 cards, as codes."""
    # Fisher-Yates on rng.random(): about twice as fast as rng.shuffle's getrandbits.
    random_ = rng.random
    order = list(code)
    for i in range(39, 0, -1):
        j = int(random_() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return order


def _deal(state: State, rng: random.Random, moves: list[Move] | None) -> State:
    """Play the rest of the current deal from ``state`` (not over); return its end."""
    rules, players = state.rules, state.players
    cutter = state.cutter
    code = kernel(rules).code
    if state.phase is _PLAY:
        hands = [[code[c.index] for c in hand] for hand in state.hands]
        table = [code[c.index] for c in state.table]
        stock = [code[c.index] for c in state.stock]
        piles = [[c.index for c in pile] for pile in state.captured]
        chkobbas = list(state.chkobbas)
        last: int | None = state.last_capturer
        player: int = state.current_player  # type: ignore[assignment]
    else:
        order = [code[c.index] for c in state.stock] if state.phase is _CUT else None
        while True:
            if order is None:
                order = _shuffled(rng, code)
                if moves is not None:
                    moves.append(Shuffle([CARDS[c & 63] for c in order]))
            keep = None
            if rules.cut:
                keep = rng.random() < 0.5
                if moves is not None:
                    moves.append(Cut(keep))
            hands, table, position = deal_hands(order, players, cutter, keep)
            if not is_void([c & 63 for c in table], rules):
                break
            order = None
        stock = order[position:]
        sides = state.sides
        piles = [[] for _ in range(sides)]
        chkobbas = [0] * sides
        last = None
        player = cutter
    return _play_out(state, rng, moves, hands, table, stock, piles, chkobbas, last, player)


def _pick_any(
    hand: list[int], counts: tuple[int, ...], play_key: tuple[int, ...], uniform: float
) -> tuple[int, int]:
    """Remove and return one card of ``hand`` and its option, uniform over all plays."""
    if not hand:
        raise ChkobbaError("rollout: the player to move has no card (a state built by hand?)")
    sizes = [counts[play_key[c]] for c in hand]
    pick = int(uniform * sum(sizes))
    at = 0
    while pick >= sizes[at]:
        pick -= sizes[at]
        at += 1
    return hand.pop(at), pick


def _play_out(
    state: State,
    rng: random.Random,
    moves: list[Move] | None,
    hands: list[list[int]],
    table: list[int],
    stock: list[int],
    piles: list[list[int]],
    chkobbas: list[int],
    last: int | None,
    player: int,
) -> State:
    rules, players = state.rules, state.players
    cutter, sides = state.cutter, len(piles)
    k = kernel(rules)
    cache, entry_of = k.cache, k.entry
    next_seat = (*range(1, players), 0)
    play_key, code_bit = k.play_key, k.code_bit
    sweep_last = rules.last_card_chkobba
    random_ = rng.random
    signature = sum(code_bit[c] for c in table)
    in_hands = sum(len(hand) for hand in hands)
    position, round_size, stock_size = 0, 3 * players, len(stock)
    while True:
        hand = hands[player]
        try:
            counts, entry = cache[signature]
        except KeyError:
            counts, entry = entry_of(signature)
        # Uniform over every (card, capture) pair: pick one of all the hand's plays.
        if len(hand) == 3:
            first, second = counts[play_key[hand[0]]], counts[play_key[hand[1]]]
            pick = int(random_() * (first + second + counts[play_key[hand[2]]]))
            if pick < first:
                played = hand.pop(0)
            elif pick < first + second:
                played = hand.pop(1)
                pick -= first
            else:
                played = hand.pop(2)
                pick -= first + second
        elif len(hand) == 2:
            first = counts[play_key[hand[0]]]
            pick = int(random_() * (first + counts[play_key[hand[1]]]))
            if pick < first:
                played = hand.pop(0)
            else:
                played = hand.pop(1)
                pick -= first
        elif len(hand) == 1:
            played = hand.pop()
            pick = int(random_() * counts[play_key[played]])
        else:  # a hand built by hand may hold more than 3 cards
            played, pick = _pick_any(hand, counts, play_key, random_())
        in_hands -= 1
        last_card = not in_hands and position == stock_size
        options = entry[play_key[played]]
        if options:
            chosen = options[pick]
            side = player % sides
            if len(chosen) == 1:  # one card: codes sorted are the table sorted by value
                taken = sorted(table)[chosen[0]]
                table.remove(taken)
                signature -= code_bit[taken]
                piles[side] += (played & 63, taken & 63)
            else:
                by_value = sorted(table)
                group = [by_value[i] for i in chosen]
                for c in group:
                    table.remove(c)
                    signature -= code_bit[c]
                piles[side] += [played & 63, *sorted([c & 63 for c in group])]
            if not table and (sweep_last or not last_card):
                chkobbas[side] += 1
            last = player
            if moves is not None:
                group = piles[side][-len(chosen) :]
                moves.append(Play(CARDS[played & 63], frozenset([CARDS[c] for c in group])))
        else:
            table.append(played)
            signature += code_bit[played]
            if moves is not None:
                moves.append(Play(CARDS[played & 63]))
        if last_card:
            break
        player = next_seat[player]
        if not in_hands:
            # Everyone is out of cards: three more each, in playing order; the cutter leads.
            player = cutter
            dealt = stock[position : position + round_size]
            position += round_size
            for p in range(players):
                hands[p] = dealt[(p - cutter) % players :: players]
            in_hands = round_size
    card_of = CARDS.__getitem__
    return engine.end_deal(
        state,
        tuple([CARDS[c & 63] for c in table]),
        tuple([tuple(map(card_of, pile)) for pile in piles]),
        tuple(chkobbas),
        last,
    )
