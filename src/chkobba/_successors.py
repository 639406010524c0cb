"""The states a legal play leads to: :func:`play`, and :func:`end_deal` after the last.

Internal: :func:`chkobba.apply` checks a move, then calls :func:`play`;
:func:`chkobba.rollout` ends each deal with :func:`end_deal`. Nothing here checks its
input (the callers did), and its functions are only ever called with the types they
declare, so the module can be compiled with mypyc (``CHKOBBA_MYPYC=1``, see the README)
without changing what a caller sees.
"""

from __future__ import annotations

import itertools
import operator
from typing import TypeVar

from chkobba import _kernel
from chkobba.cards import Card
from chkobba.rules import Rules
from chkobba.state import HAND_SIZE, Phase, State, from_fields, match_winner

__all__ = ["end_deal", "play"]

T = TypeVar("T")
_SHUFFLE, _OVER = Phase.SHUFFLE, Phase.OVER
_INDEX = operator.attrgetter("index")
_new, _set = object.__new__, object.__setattr__


def play(state: State, played: Card, capture: frozenset[Card]) -> State:
    """The state after a legal play (the step API's innermost code: plain and direct)."""
    fields = state.__dict__
    # The successor is a copy of this state's instance dict in which only what the play
    # changes is rewritten: a key-sharing copy costs far less than State.__init__. The
    # memos are reset (see State). Every tuple is built in as few allocations as it can:
    # they dominate the cost of a play.
    successor = fields.copy()
    player: int = fields["current_player"]
    hands: tuple[tuple[Card, ...], ...] = fields["hands"]
    held = hands[player]
    # _without, its two commonest cases written out: a call costs more than the test.
    if held[0] is played:
        hand = held[1:]
    elif held[-1] is played:
        hand = held[:-1]
    else:
        hand = _without(held, played)
    if len(hands) == 2:  # (_with, written out for the commonest seating)
        hands = (hand, hands[1]) if player == 0 else (hands[0], hand)
    else:
        hands = _with(hands, player, hand)
    round_over = not hand and not any(hands)
    last_card = round_over and not fields["stock"]
    table: tuple[Card, ...] = fields["table"]
    if capture:
        captured: tuple[tuple[Card, ...], ...] = fields["captured"]
        chkobbas: tuple[int, ...] = fields["chkobbas"]
        side = player % len(chkobbas)
        if len(capture) == 1:  # the common capture: one card
            (taken,) = capture
            table = _without(table, taken)
            pile = captured[side] + (played, taken)  # one allocation of the whole pile
        else:
            table = tuple(itertools.filterfalse(capture.__contains__, table))
            pile = captured[side] + (played, *sorted(capture, key=_INDEX))
        if len(captured) == 2:
            successor["captured"] = (pile, captured[1]) if side == 0 else (captured[0], pile)
        else:
            successor["captured"] = _with(captured, side, pile)
        # A sweep, unless made with the deal's last card (where the profile says so).
        if not table and (not last_card or fields["rules"].last_card_chkobba):
            successor["chkobbas"] = _with(chkobbas, side, chkobbas[side] + 1)
        successor["last_capturer"] = player
    else:
        table = table + (played,)  # noqa: RUF005 (one allocation; unpacking builds a list)
    if last_card:
        return end_deal(
            state,
            table,
            successor["captured"],
            successor["chkobbas"],
            successor["last_capturer"],
        )
    if round_over:
        # Everyone is out of cards: three more each, in playing order; the cutter leads.
        players: int = fields["players"]
        next_player = state.cutter
        stock: tuple[Card, ...] = fields["stock"]
        dealt = stock[: HAND_SIZE * players]
        successor["stock"] = stock[HAND_SIZE * players :]
        hands = _kernel.refill_plan(players, next_player)(dealt)
    else:
        next_player = player + 1 if player + 1 < fields["players"] else 0
    successor["current_player"] = next_player
    successor["hands"] = hands
    successor["table"] = table
    # from_fields(successor), written out: this runs once per play, and the call alone
    # costs about 4% of a random deal's instructions.
    successor["_attrs_cached_hash"] = None
    successor["_legal_plays"] = None
    made = _new(State)
    _set(made, "__dict__", successor)
    return made


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``cards`` less ``card`` (which it holds), in one allocation where it can.

    Found by identity (each card is a singleton): ``cards.index(card)`` would compare it
    with ``==`` to every card before it, and a card's ``==`` goes through the Python-level
    comparison slot its ordering methods install, about ten identity tests' worth each.
    """
    if cards[0] is card:
        return cards[1:]
    if cards[-1] is card:
        return cards[:-1]
    at = 1
    while cards[at] is not card:
        at += 1
    return cards[:at] + cards[at + 1 :]


def end_deal(
    state: State,
    table: tuple[Card, ...],
    captured: tuple[tuple[Card, ...], ...],
    chkobbas: tuple[int, ...],
    last_capturer: int | None,
    whole_deck: bool = False,
) -> State:
    """The state after the deal's last play: leftovers given, the deal scored.

    Shared by :func:`~chkobba.apply` and :func:`chkobba.rollout`: ``state`` is any state
    of the deal, for its rules, players, dealer and match totals. ``whole_deck`` says
    that ``captured`` and ``table`` hold each of the 40 cards exactly once (a rollout
    that dealt the deal itself), which lets the scoring count less.
    """
    side = None if last_capturer is None else last_capturer % len(captured)  # a pile a side
    if side is not None and table:
        # Leftovers go to the last capturer's side: never a chkobba. With no capture at
        # all in the deal they stay on the table, belonging to nobody.
        captured = _with(captured, side, captured[side] + table)
        table = ()
    fields = state.__dict__
    rules: Rules = fields["rules"]
    deal_score = _kernel.score(captured, chkobbas, rules, side, whole_deck and not table)
    before, points = fields["scores"], deal_score.points
    if len(before) == 2:  # two sides (a rollout's every deal): no map to build
        scores: tuple[int, ...] = (before[0] + points[0], before[1] + points[1])
    else:
        scores = tuple(map(operator.add, before, points))
    target = rules.target
    winner = None if max(scores) < target else match_winner(scores, target)
    # Built like a play's successor (see play): a copy of the instance dict, rewritten.
    successor = fields.copy()
    successor["phase"] = _SHUFFLE if winner is None else _OVER
    if winner is None:  # the cutter deals next
        successor["dealer"] = (fields["dealer"] + 1) % fields["players"]
    successor["current_player"] = None
    successor["hands"] = _kernel.empty_hands(fields["players"])
    successor["table"] = table
    successor["stock"] = ()
    successor["captured"] = captured
    successor["chkobbas"] = chkobbas
    successor["scores"] = scores
    successor["last_capturer"] = last_capturer
    successor["winner"] = winner
    successor["deal_scores"] = (*fields["deal_scores"], deal_score)
    return from_fields(successor)


def _with(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with the one at ``index`` replaced (two sides or players: directly)."""
    if len(values) == 2:
        return (value, values[1]) if index == 0 else (values[0], value)
    # Three or four hands (every play of a 3- or 4-player deal), three piles: a list copy
    # with one item set costs about 40% less than joining two slices around the value.
    # ``index`` is always in range here (the caller has just read ``values[index]``).
    changed = [*values]
    changed[index] = value
    return tuple(changed)
