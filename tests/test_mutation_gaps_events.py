"""Tests for the gaps a mutmut audit of ``events.py`` and ``game.py`` found (the audit of
2026-12-04).

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to the library that the rest of the suite let through (tools/mutation/README.md).
Most pin the full text of a refusal: a hand-built :class:`~chkobba.events.MoveOutcome`
names the field and the value it got, an outcome's data names the field, the value and
its type, and a :class:`~chkobba.Game` says what was wrong with the call. The rest pin
that a hand-built outcome takes lists for its card fields, that a game rebuilt from a
record keeps the record's profile, and where the generator of a game resumed with a seed
goes on when the recorded shuffles are not the seed's draws.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    ChkobbaError,
    Game,
    IllegalMoveError,
    Phase,
    Record,
    card,
    cards,
    random_shuffle,
)
from chkobba.events import MoveOutcome
from chkobba.records import MOVE_LIMIT
from chkobba.scoring import DealScore

# --- MoveOutcome built by hand ------------------------------------------------------------

_PLAY = {"kind": "play", "player": 0, "card": card("7D")}
_CUT = {"kind": "cut", "player": 1, "keep": True, "dealt_table": cards("2D 6S AS AC")}
_SCORE = DealScore(0, 0, None, 0, (1, 0), (4, 0), (22, 18), (6, 4), (3, 1), (2, 2))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"kind": "deal"},
            "MoveOutcome: kind must be one of shuffle, cut, play, not 'deal'",
        ),
        (
            {**_PLAY, "player": -1},
            "MoveOutcome: player must be a whole number from 0 to 3 or None, not -1",
        ),
        ({**_PLAY, "chkobba": 1}, "MoveOutcome: chkobba must be True or False, not 1"),
        ({**_CUT, "keep": "yes"}, "MoveOutcome: keep must be a bool or None, not 'yes'"),
        # Text is not a sequence of cards: it is refused as given, not split into letters.
        (
            {**_CUT, "dealt_table": "2D"},
            "MoveOutcome: dealt_table must be a tuple of cards, not '2D'",
        ),
        ({**_PLAY, "leftovers": None}, "MoveOutcome: leftovers must be a tuple of cards, not None"),
        ({**_PLAY, "captured": "2D"}, "MoveOutcome: captured must be a set of cards, not '2D'"),
        ({**_PLAY, "captured": None}, "MoveOutcome: captured must be a set of cards, not None"),
        (
            {**_CUT, "exposed": card("2D")},
            "MoveOutcome: exposed is the card of a cut with keep=False",
        ),
        (
            {**_CUT, "keep": False},
            "MoveOutcome: exposed is the card of a cut with keep=False",
        ),
    ],
)
def test_a_hand_built_outcome_names_the_field_and_the_value_it_refuses(
    fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(ChkobbaError) as error:
        MoveOutcome(**fields)
    assert str(error.value) == message


def test_a_hand_built_outcome_takes_lists_for_its_card_fields_and_holds_tuples_and_sets() -> None:
    cut = MoveOutcome("cut", player=1, keep=True, dealt_table=list(cards("2D 6S AS AC")))
    assert cut.dealt_table == cards("2D 6S AS AC")
    assert type(cut.dealt_table) is tuple
    assert cut == MoveOutcome(**_CUT)
    last = MoveOutcome(
        "play",
        player=0,
        card=card("7D"),
        captured=[card("7S")],
        leftovers=list(cards("3C 4C")),
        leftovers_side=0,
        deal_score=_SCORE,
    )
    assert last.leftovers == cards("3C 4C")
    assert type(last.leftovers) is tuple
    assert last.captured == frozenset(cards("7S"))
    assert type(last.captured) is frozenset


def test_a_deal_score_whose_points_are_a_list_is_refused_for_its_side_count() -> None:
    # (The audit of 2026-12-05: the points' type decides the side count before the score
    # is checked field by field.)
    listed = attrs.evolve(_SCORE, points=[4, 0])
    with pytest.raises(ChkobbaError) as error:
        MoveOutcome("play", player=0, card=card("7D"), deal_score=listed)
    assert str(error.value) == (
        "MoveOutcome: deal_score.points must be 2 or 3 whole numbers, one per side, not [4, 0]"
    )


# --- MoveOutcome read from data -------------------------------------------------------------

_GOOD = MoveOutcome("play", player=1, card=card("QH"), captured=cards("2D 6S")).to_dict()
_LAST = MoveOutcome(
    "play", player=0, card=card("7D"), leftovers=cards("3C 7D"), leftovers_side=1, deal_score=_SCORE
).to_dict()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {**_GOOD, "kind": "deal"},
            'kind must be one of "shuffle", "cut", "play", not "deal" (text)',
        ),
        ({**_GOOD, "chkobba": 1}, "chkobba must be true or false, not 1 (a number)"),
        ({**_GOOD, "void": "yes"}, 'void must be true or false, not "yes" (text)'),
        ({**_GOOD, "keep": 1}, "keep must be true or false, not 1 (a number)"),
        ({**_GOOD, "deal_score": 5}, "deal_score must be an object, not 5 (a number)"),
        (
            {**_LAST, "deal_score": {**_LAST["deal_score"], "points": "4 1"}},
            'deal_score.points must be a list, not "4 1" (text)',
        ),
        (
            {**_LAST, "deal_score": {**_LAST["deal_score"], "cards_winner": 0.5}},
            "deal_score.cards_winner must be a whole number or null, not 0.5 (a number)",
        ),
    ],
)
def test_outcome_data_names_the_field_and_the_value_it_refuses(
    data: dict[str, Any], message: str
) -> None:
    with pytest.raises(ChkobbaError) as error:
        MoveOutcome.from_dict(data)
    assert str(error.value) == message


def test_outcome_data_with_a_deal_score_reads_back() -> None:
    # (The bad deal scores above differ from this one in one field only.)
    outcome = MoveOutcome.from_dict(_LAST)
    assert outcome.deal_score == _SCORE
    assert outcome.to_dict() == _LAST


# --- Game: the refusals -------------------------------------------------------------------


def _message(error: pytest.ExceptionInfo[BaseException]) -> str:
    return str(error.value)


def test_a_game_names_a_seed_that_is_not_a_whole_number() -> None:
    with pytest.raises(ChkobbaError) as error:
        Game(seed="7")  # type: ignore[arg-type]
    assert _message(error) == "Game: seed must be a whole number or None, not '7'"


def test_from_record_names_what_is_not_a_record() -> None:
    with pytest.raises(ChkobbaError) as error:
        Game.from_record("record")  # type: ignore[arg-type]
    assert _message(error) == "Game.from_record: 'record' is not a Record"


def test_play_names_what_is_not_a_move() -> None:
    game = Game()
    with pytest.raises(IllegalMoveError) as error:
        game.play(5)  # type: ignore[arg-type]
    assert _message(error) == "5 is not a move (expected Shuffle, Cut, Play or text)"
    assert game.moves == ()


def test_play_names_a_seat_that_is_not_a_player() -> None:
    with pytest.raises(ChkobbaError) as error:
        Game().play("QH", seat=2)
    assert _message(error) == "Game.play: seat must be a player from 0 to 1, not 2"


def test_a_seat_that_plays_before_the_deal_is_told_the_shuffle_is_the_games() -> None:
    with pytest.raises(IllegalMoveError) as error:
        Game().play("QH", seat=0)
    assert _message(error) == (
        "player 0 cannot move: nobody is to move before the deal "
        "(the shuffle is the game's, Game.deal)"
    )


def test_deal_names_an_rng_that_is_not_a_random_generator() -> None:
    with pytest.raises(ChkobbaError) as error:
        Game().deal(5)  # type: ignore[arg-type]
    assert _message(error) == "Game.deal: rng must be a random.Random, not 5"


def test_deal_outside_a_shuffle_names_the_phase() -> None:
    game = Game(seed=1)
    game.deal()
    with pytest.raises(IllegalMoveError) as error:
        game.deal()
    assert _message(error) == (
        "there is nothing to deal in phase CUT: a shuffle comes only before a deal"
    )
    assert len(game.moves) == 1


def test_undo_at_the_start_says_there_is_nothing_to_undo() -> None:
    with pytest.raises(ChkobbaError) as error:
        Game().undo()
    assert _message(error) == "there is no move to undo: the game is at its start"


# --- Game.from_record -----------------------------------------------------------------------


def test_from_record_builds_a_match_only_the_records_profile_allows() -> None:
    # Three players: CardRulesPlus allows them, the default (Tunisian) profile does not.
    record = Record(players=3, rules=CARD_RULES_PLUS)
    game = Game.from_record(record)
    assert game.state.players == 3
    assert game.state.rules == CARD_RULES_PLUS
    assert game.phase is Phase.SHUFFLE
    assert game.moves == ()


def _to_next_shuffle(game: Game, rng: random.Random) -> None:
    """Play random moves until the next shuffle."""
    for _ in range(MOVE_LIMIT):
        if game.is_chance:
            return
        assert not game.is_over
        game.play(rng.choice(game.legal_moves))
    raise AssertionError(f"no shuffle in {MOVE_LIMIT} moves")


def _seed_draws(seed: int, count: int) -> list[Any]:
    rng = random.Random(seed)
    return [random_shuffle(rng) for _ in range(count)]


def test_a_resumed_game_stops_its_seed_at_the_first_draw_that_differs() -> None:
    # Two deals, neither from the seed: the seed's first draw is tried against the first
    # recorded shuffle, differs, and the generator goes on from there; it is not tried
    # against the second recorded shuffle too.
    game, moves = Game(seed=7), random.Random(0)
    for other in (123, 456):
        game.deal(random.Random(other))
        _to_next_shuffle(game, moves)
    record = game.record()
    draws = _seed_draws(7, 3)
    assert not set(draws) & set(record.moves)
    resumed = Game.from_record(record, seed=7)
    resumed.deal()
    assert resumed.moves[-1] == draws[1]


def test_a_resumed_game_goes_past_the_draws_that_match_and_the_first_that_does_not() -> None:
    # The seed dealt the first deal, another generator the second: the seed's first draw
    # matches and the second differs, so the next deal is the seed's third draw.
    game, moves = Game(seed=7), random.Random(0)
    game.deal()
    _to_next_shuffle(game, moves)
    game.deal(random.Random(123))
    _to_next_shuffle(game, moves)
    record = game.record()
    draws = _seed_draws(7, 3)
    assert record.moves[0] == draws[0]
    assert draws[1] not in record.moves
    resumed = Game.from_record(record, seed=7)
    resumed.deal()
    assert resumed.moves[-1] == draws[2]
