"""chkobba.deals on the edges: a record with no deal yet, and wrong arguments."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from chkobba import ChkobbaError, Game, Record, new_match, random_shuffle
from chkobba.deals import players_of_moves, split_deals

START = new_match()
SHUFFLE = random_shuffle(random.Random(1))


def test_a_record_with_no_moves_has_no_deals() -> None:
    assert Record(players=2).deals() == ()
    assert Record(players=4, dealer=3).players_of_moves() == ()
    # A game not yet dealt: what a program shows before the first shuffle.
    assert Game().record().deals() == ()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: split_deals([], [SHUFFLE]),
            r"len\(states\) is 0 and len\(moves\) 1: states holds one",
        ),
        (lambda: split_deals([START], [SHUFFLE]), r"len\(states\) is 1 and len\(moves\) 1"),
        (lambda: split_deals(None, []), "split_deals: states must be a collection, not None"),
        (lambda: split_deals([START], 7), "split_deals: moves must be a collection, not 7"),
        (lambda: split_deals([START], "shuffle"), "split_deals: moves must be a collection"),
        (lambda: split_deals([START, 3], [SHUFFLE]), r"states\[1\]: expected a State, got 3"),
        (lambda: split_deals([START, START], ["keep"]), r"moves\[0\]: expected a move"),
        (lambda: players_of_moves(None), "players_of_moves: states must be a collection"),
        (lambda: players_of_moves([START, "x"]), r"players_of_moves: states\[1\]: expected a"),
        (lambda: players_of_moves(itertools.count()), "states has more than 1000001 items"),
    ],
)
def test_wrong_arguments_are_named(call: Callable[[], object], message: str) -> None:
    with pytest.raises(ChkobbaError, match=message):
        call()


def test_a_checked_split_matches_the_record() -> None:
    game = Game(seed=2)
    while len(game.state.deal_scores) < 2:
        game.deal() if game.is_chance else game.play(game.legal_moves[0])
    record = game.record()
    states = record.replay()
    assert split_deals(list(states), list(record.moves)) == record.deals()
    assert players_of_moves(list(states)) == record.players_of_moves()
