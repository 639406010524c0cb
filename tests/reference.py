"""The straightforward rules, kept as the reference the fast core must agree with (#8).

These are the engine's play step and legal plays as they were before the fast core (main
after the profiles issue): tuples rebuilt on every move, capture options worked out here
card by card from RULES.md (an equal single first, else every group of two or more
summing to the card: a plain search of the table, sharing no code with the library's
captures), the deal scored by the checked :func:`~chkobba.score_deal`. Slow and plain on
purpose; only tests use them.
"""

from __future__ import annotations

import itertools
import operator
from typing import TypeVar

from chkobba import Card, Phase, Play, Rank, Rules, State, score_deal
from chkobba.state import HAND_SIZE, match_winner

T = TypeVar("T")
_INDEX = operator.attrgetter("index")


def reference_plays(state: State) -> tuple[Play, ...]:
    """Every legal play of the player to move: each card with each option, or alone."""
    if state.phase is not Phase.PLAY:
        return ()
    plays: list[Play] = []
    for held in state.hands[state.mover]:
        options = reference_options(state.table, held, state.rules)
        plays.extend([Play(held, option) for option in options] if options else [Play(held)])
    return tuple(plays)


_COURTS = (Rank.QUEEN, Rank.JACK, Rank.KING)


def reference_options(table: tuple[Card, ...], played: Card, rules: Rules) -> list[frozenset[Card]]:
    """What ``played`` may take from ``table``: each equal single (in table order), and,
    when there is none (or the profile lets a sum be chosen instead), every group of two
    or more cards summing to its value, in the lexicographic order of their positions;
    a court takes no sum where the profile says so."""
    value = rules.value(played)
    values = [rules.value(card) for card in table]
    singles = [
        frozenset([card]) for card, worth in zip(table, values, strict=True) if worth == value
    ]
    if singles and rules.equal_single_first:
        return singles
    if played.rank in _COURTS and not rules.courts_capture_sums:
        return singles
    groups: list[tuple[int, ...]] = []

    def extend(start: int, chosen: tuple[int, ...], total: int) -> None:
        # Depth first, positions increasing: a group comes before the groups it begins.
        for at in range(start, len(values)):
            reached = total + values[at]
            if reached == value and chosen:
                groups.append((*chosen, at))
            if reached < value:  # every value is positive: a larger total never comes back
                extend(at + 1, (*chosen, at), reached)

    extend(0, (), 0)
    return singles + [frozenset(table[at] for at in group) for group in groups]


def reference_play(state: State, move: Play) -> State:
    """The state after a legal ``move`` (the pre-#8 ``engine._play``)."""
    played, capture = move.card, move.capture
    player = state.mover
    hands = list(state.hands)
    hand = hands[player]
    at = hand.index(played)
    hands[player] = hand[:at] + hand[at + 1 :]
    stock = state.stock
    last_card = not stock and not any(hands)
    captured, chkobbas, last_capturer = state.captured, state.chkobbas, state.last_capturer
    if capture:
        side = player % state.sides
        table = tuple(itertools.filterfalse(capture.__contains__, state.table))
        pile = (*captured[side], played, *sorted(capture, key=_INDEX))
        captured = _with(captured, side, pile)
        if not table and (not last_card or state.rules.last_card_chkobba):
            chkobbas = _with(chkobbas, side, chkobbas[side] + 1)
        last_capturer = player
    else:
        table = (*state.table, played)
    if last_card:
        return _end_deal(state, table, captured, chkobbas, last_capturer)
    next_player = (player + 1) % state.players
    if not any(hands):
        next_player = state.cutter
        dealt = stock[: HAND_SIZE * state.players]
        stock = stock[HAND_SIZE * state.players :]
        players = state.players
        hands = [dealt[(p - next_player) % players :: players] for p in range(players)]
    return State(
        rules=state.rules,
        phase=Phase.PLAY,
        players=state.players,
        dealer=state.dealer,
        current_player=next_player,
        hands=tuple(hands),
        table=table,
        stock=stock,
        captured=captured,
        chkobbas=chkobbas,
        scores=state.scores,
        last_capturer=last_capturer,
        winner=None,
        deal_scores=state.deal_scores,
    )


def _end_deal(
    state: State,
    table: tuple[Card, ...],
    captured: tuple[tuple[Card, ...], ...],
    chkobbas: tuple[int, ...],
    last_capturer: int | None,
) -> State:
    side = None if last_capturer is None else last_capturer % state.sides
    if side is not None and table:
        captured = _with(captured, side, captured[side] + table)
        table = ()
    deal_score = score_deal(captured, chkobbas, state.rules, last_capturer_side=side)
    scores = tuple(map(operator.add, state.scores, deal_score.points))
    winner = match_winner(scores, state.rules.target)
    over = winner is not None
    return State(
        rules=state.rules,
        phase=Phase.OVER if over else Phase.SHUFFLE,
        players=state.players,
        dealer=state.dealer if over else state.cutter,
        current_player=None,
        hands=((),) * state.players,
        table=table,
        stock=(),
        captured=captured,
        chkobbas=chkobbas,
        scores=scores,
        last_capturer=last_capturer,
        winner=winner,
        deal_scores=(*state.deal_scores, deal_score),
    )


def _with(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1 :])
