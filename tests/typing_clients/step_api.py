"""A typed game server's core: the step API, moves, phases, views, notation and errors."""

from __future__ import annotations

import random
from typing import Literal

from typing_extensions import assert_type

from chkobba import (
    Card,
    ChkobbaError,
    Cut,
    DealScore,
    IllegalMoveError,
    Move,
    NotationError,
    Phase,
    Play,
    PlayerView,
    Rank,
    Shuffle,
    State,
    Suit,
    apply,
    card,
    cards,
    format_cards,
    illegal_reason,
    is_legal,
    legal_moves,
    new_match,
    observe,
    parse_move,
    random_shuffle,
)


def describe(move: Move) -> str:
    # Exhaustive over the three move types: no fall-through return is needed.
    match move:
        case Play(card=played, capture=taken):
            return f"{played} takes {format_cards(taken, '+')}" if taken else f"{played} laid"
        case Cut(keep=keep):
            return "keeps" if keep else "exposes"
        case Shuffle(order=order):
            return f"shuffles {len(order)} cards"


def whose_turn(phase: Phase) -> str:
    if phase is Phase.SHUFFLE:
        return "chance"
    if phase is Phase.CUT:
        return "the cutter"
    if phase is Phase.PLAY:
        return "a player"
    assert_type(phase, Literal[Phase.OVER])
    return "nobody"


def play_a_match(seed: int) -> tuple[int, ...]:
    rng = random.Random(seed)
    state = new_match(players=2)
    assert_type(state, State)
    while not state.is_over:
        if state.is_chance:
            state = apply(state, random_shuffle(rng))
            continue
        view = observe(state, state.mover)  # mover: an int, no None check
        assert_type(view, PlayerView)
        moves = legal_moves(view)
        assert_type(moves, tuple[Move, ...])
        state = apply(state, rng.choice(moves))
    last = state.deal_scores[-1]
    assert_type(last, DealScore)
    assert_type(last.points, tuple[int, ...])
    assert_type(last.cards_winner, int | None)
    assert_type(state.winner, int | None)
    return state.scores


def plays_in_hand(state: State) -> list[Card]:
    # State.legal_plays is typed as plays: no isinstance needed for .card.
    return [play.card for play in state.legal_plays]


def seen_by(view: PlayerView) -> str:
    assert_type(view.hand, tuple[Card, ...])
    assert_type(view.cut_card, Card | None)
    assert_type(view.unseen(), tuple[Card, ...])
    assert_type(view.mover, int)
    return format_cards(view.hand) + " / " + format_cards(sorted(view.unseen()))


def ask(state: State, text: str) -> State:
    try:
        move = parse_move(text, state)
        assert_type(move, Move)
        return apply(state, move)
    except IllegalMoveError as error:
        assert_type(error, IllegalMoveError)
        print("illegal:", error)
    except NotationError as error:
        print("not a move:", error)
    except ChkobbaError as error:
        print("refused:", error)
    reason = illegal_reason(state, Play(card("5C")))
    assert_type(reason, str | None)
    assert_type(is_legal(state, Cut(keep=True)), bool)
    return state


def cards_and_text() -> str:
    seven = card("7D")
    assert_type(seven.rank, Rank)
    assert_type(seven.suit, Suit)
    group = cards("2D 6S QH")
    assert_type(group, tuple[Card, ...])
    moves: list[Move] = [Play(seven, group[:2]), Play("QH", "2D 6S"), Play(seven, {group[0]})]
    return format_cards({seven, group[0]}, "+") + " ".join(map(str, moves))
