"""``Game.move_outcome(index=-1)``: what a move of a game did, for a server to send every
player: the same :class:`MoveOutcome` that :func:`apply_with_outcome` gave when the move
was played, for any move of the game, after an undo, and in a game rebuilt from its
record; an index that names no move is refused, naming the moves there are.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from chkobba import (
    CARD_RULES_PLUS,
    ChkobbaError,
    Game,
    MoveOutcome,
    Rules,
    apply_with_outcome,
)
from tests.strategies import examples, rule_profiles, seeds


def _played(game: Game, rng: random.Random, moves: int) -> list[MoveOutcome]:
    """Play up to ``moves`` random moves into ``game``; the outcomes, as told at each move
    by apply_with_outcome on the state before it."""
    told = []
    for _ in range(moves):
        if game.is_over:
            break
        before = game.state
        if game.is_chance:
            game.deal(rng)
        else:
            game.play(rng.choice(game.legal_moves))
        told.append(apply_with_outcome(before, game.moves[-1])[1])
        assert game.move_outcome() == told[-1]  # what a server sends after each move
    return told


@settings(max_examples=examples(20))
@given(rules=rule_profiles(), seed=seeds())
def test_every_move_of_a_game_has_the_outcome_told_when_it_was_played(
    rules: Rules, seed: int
) -> None:
    rng = random.Random(seed)
    game = Game(players=rules.players[seed % len(rules.players)], seed=seed, rules=rules)
    told = _played(game, rng, 120)
    count = len(game.moves)
    assert [game.move_outcome(i) for i in range(count)] == told
    assert [game.move_outcome(i - count) for i in range(count)] == told
    rebuilt = Game.from_record(game.record())
    assert [rebuilt.move_outcome(i) for i in range(count)] == told


@settings(max_examples=examples(10))
@given(seeds())
def test_after_an_undo_the_last_outcome_is_the_move_before(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(seed=seed, rules=CARD_RULES_PLUS)
    told = _played(game, rng, 30)
    for back in range(1, len(told)):
        game.undo()
        assert game.move_outcome() == told[-1 - back]
    game.undo()
    with pytest.raises(ChkobbaError, match="none yet"):
        game.move_outcome()


@pytest.mark.parametrize(
    ("moves", "index", "message"),
    [
        (0, -1, "Game.move_outcome: no move -1: the moves played are none yet"),
        (0, 0, "Game.move_outcome: no move 0: the moves played are none yet"),
        (2, 2, "Game.move_outcome: no move 2: the moves played are from 0 to 1 (or -1 to -2)"),
        (2, -3, "Game.move_outcome: no move -3: the moves played are from 0 to 1 (or -1 to -2)"),
        # Not an int: refused for its type (1.0 read "no move 1.0: ... from 0 to 1").
        (2, True, "Game.move_outcome: index must be an int, not True (bool)"),
        (2, 1.0, "Game.move_outcome: index must be an int, not 1.0 (float)"),
        (2, "1", "Game.move_outcome: index must be an int, not '1' (str)"),
        (2, None, "Game.move_outcome: index must be an int, not None (NoneType)"),
    ],
)
def test_an_index_that_names_no_move_is_refused(moves: int, index: object, message: str) -> None:
    game = Game(seed=3)
    _played(game, random.Random(3), moves)
    with pytest.raises(ChkobbaError) as error:
        game.move_outcome(index)  # type: ignore[arg-type]
    assert str(error.value).startswith(message)
    assert len(game.moves) == moves  # the game is as it was


def test_the_outcomes_hold_public_facts_only_for_every_seat() -> None:
    # A kept cut card is never in an outcome: a server may send each one to everyone.
    game = Game(seed=8)
    game.deal()
    game.play("keep")
    kept = game.history[1].stock[0]
    assert str(kept) not in game.move_outcome().to_json()
    assert game.move_outcome().keep is True
