"""Tests for what a review of the game analysis found (stop 72).

A player learning from ``chkobba analyse`` checked its values against a brute force of
their own (the endgame's were exact) and across seeds. Each test fails on the code
before its fix:

- before the endgame a play the search soon left was valued from a few dozen
  iterations, so the review flagged as a mistake of more than a point a play that a
  longer search rates as good as the best (seed 1), and rated it the best at another
  seed: the review now searches such a play again, and the best, each on its own;
- ``MoveReview`` and ``MoveValue`` took anything (a played move missing from the
  ranking gave a bare ``StopIteration``), ``rank_moves`` ranked a move listed twice
  twice and met an evaluator's class with a raw ``TypeError``;
- the hint and the review ordered tied moves differently, and a 3-player review called
  its values "minus the opponents'" where they are minus the other sides' mean;
- ``analyse --json`` did not say which seed and game it reviewed.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from chkobba import (
    CARD_RULES_PLUS,
    ChkobbaError,
    Play,
    Record,
    State,
    apply,
    card,
    legal_moves,
    observe,
    parse_move,
)
from chkobba.arena import play_match, tournament
from chkobba.bots import ExpertBot, ISMCTSBot
from chkobba.bots.analysis import RECHECK, MoveReview, MoveValue, rank_moves, review_record
from tests.helpers import run_cli


@pytest.fixture(scope="module")
def noisy() -> tuple[Record, State]:
    """Game 9 of ``chkobba simulate --games 10 --bots greedy random``, before its move
    66: player 0 holds 2♥ and 4♥, and the search of seed 67 soon leaves 4♥."""
    record = tournament(["greedy", "random"], games=9, seed=0, records=True).matches[8].record
    assert record is not None
    state = record.start()
    for move in record.moves[:66]:
        state = apply(state, move)
    return record, state


def test_a_play_the_search_soon_left_is_searched_again_before_it_is_flagged(
    noisy: tuple[Record, State],
) -> None:
    record, state = noisy
    view, legal = observe(state, 0), legal_moves(state)
    assert {str(move) for move in legal} == {"2H", "4H"} and str(record.moves[66]) == "4H"
    first = rank_moves(view, legal, seed=67)  # what the review of seed 1 asks at index 66
    assert MoveReview(66, 0, record.moves[66], first).loss > 1.0  # the noise: 22 iterations
    short = Record(players=2, dealer=record.dealer, moves=record.moves[:67])
    review = review_record(short, seats=(0,), seed=1)[-1]
    assert review.index == 66 and review.loss < RECHECK  # as good as 2H, searched again
    bot = ExpertBot(seed=67)
    bot.evaluate(view, legal)  # the review's bot, after its first search
    again = {move: bot.value_of(view, move) for move in (record.moves[66], first[0].move)}
    assert {item.move: item.value for item in review.ranked} == again


def test_value_of_searches_only_the_move_given(noisy: tuple[Record, State]) -> None:
    _, state = noisy
    view = observe(state, 0)
    bot = ISMCTSBot(iterations=200, seed=3)
    value = bot.value_of(view, parse_move("4H"))
    assert -6.0 < value < 6.0
    assert ISMCTSBot(iterations=200, seed=3).value_of(view, parse_move("4H")) == value
    with pytest.raises(ChkobbaError, match=r"ISMCTSBot\.value_of: .*7D is not in player 0's hand"):
        bot.value_of(view, Play(card("7D")))


def test_value_of_is_exact_in_an_endgame_expert_solves() -> None:
    state = play_match(["greedy", "greedy"], seed=4).record.start()
    record = play_match(["greedy", "greedy"], seed=4).record
    for move in record.moves:  # on to a last round with a choice
        if state.phase.name == "PLAY" and not state.stock and len(legal_moves(state)) > 1:
            break
        state = apply(state, move)
    view, legal = observe(state, state.mover), legal_moves(state)
    bot = ExpertBot(seed=1)
    assert bot.solves(view)
    values = bot.evaluate(view, legal)
    assert {move: bot.value_of(view, move) for move in legal} == values


# --- the values' types ------------------------------------------------------------------

TAKE, LAY = parse_move("QH x 2D+6S"), parse_move("5C")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: MoveValue("x", 1.0), "MoveValue: 'x' is not a move"),
        (lambda: MoveValue(TAKE, "y"), "MoveValue: value must be a number, not 'y'"),
        (lambda: MoveValue(TAKE, True), "MoveValue: value must be a number, not True"),
        (
            lambda: MoveReview(0, 0, parse_move("KS"), (MoveValue(LAY, 1.0),)),
            "MoveReview: the move played, KS, is not ranked",
        ),
        (lambda: MoveReview(0, 0, LAY, ()), "MoveReview: ranked holds no move"),
        (
            lambda: MoveReview(0, 0, LAY, (MoveValue(LAY, 1.0), MoveValue(LAY, 0.0))),
            "MoveReview: ranked holds 5C twice",
        ),
        (
            lambda: MoveReview(0, 0, LAY, (LAY,)),
            "MoveReview: ranked holds Play(card('5C')), not a MoveValue",
        ),
        (lambda: MoveReview("a", 0, LAY, (MoveValue(LAY, 1.0),)), "MoveReview: index must be"),
        (lambda: MoveReview(0, -1, LAY, (MoveValue(LAY, 1.0),)), "MoveReview: player must be"),
        (lambda: MoveReview(0, 0, "c", (MoveValue(LAY, 1.0),)), "MoveReview: 'c' is not a move"),
    ],
)
def test_reviews_and_values_are_checked(make: object, message: str) -> None:
    with pytest.raises(ChkobbaError) as caught:
        make()  # type: ignore[operator]
    assert str(caught.value).startswith(message)


def test_a_review_still_takes_ints_and_any_sequence_of_values() -> None:
    review = MoveReview(2, 1, LAY, [MoveValue(TAKE, 2), MoveValue(LAY, -1)])
    assert review.ranked == (MoveValue(TAKE, 2), MoveValue(LAY, -1)) and review.loss == 3


def test_rank_moves_refuses_a_move_listed_twice_and_an_evaluators_class(
    noisy: tuple[Record, State],
) -> None:
    _, state = noisy
    view, legal = observe(state, 0), legal_moves(state)
    with pytest.raises(ChkobbaError) as caught:
        rank_moves(view, (*legal, legal[0]))
    assert str(caught.value) == f"rank_moves: legal lists {legal[0]} twice"
    with pytest.raises(ChkobbaError) as caught:
        rank_moves(view, legal, ExpertBot)  # type: ignore[arg-type]
    assert str(caught.value) == (
        f"rank_moves: {ExpertBot!r} is a class, not an evaluator: pass an instance such as "
        "ExpertBot()"
    )


# --- the command line -------------------------------------------------------------------


def test_analyse_json_says_the_seed_and_the_game(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    records = tournament(["greedy", "random"], games=2, seed=3, records=True).matches
    path.write_text("".join(m.record.to_json(compact=True) + "\n" for m in records if m.record))
    code, text, err = run_cli("analyse", str(path), "--game", "2", "--seed", "7", "--json",
                              "--bot", "ismcts:iterations=20", "--seat", "0")  # fmt: skip
    assert (code, err) == (0, "")
    data = json.loads(text)
    assert (data["game"], data["seed"], data["seat"], data["bot"]) == (
        2,
        7,
        0,
        "ismcts:iterations=20",
    )


def test_a_three_player_review_says_its_values_are_against_the_others_mean(
    tmp_path: Path,
) -> None:
    path = tmp_path / "three.json"
    result = play_match(["greedy", "random", "random"], seed=2, players=3, rules=CARD_RULES_PLUS)
    short = Record(
        players=3,
        dealer=result.record.dealer,
        moves=result.record.moves[:12],
        rules=CARD_RULES_PLUS,
    )
    short.save(path)
    code, text, _ = run_cli("analyse", str(path), "--bot", "ismcts:iterations=10")
    assert code == 0
    assert (
        "values: the mover's side's expected deal points minus the mean of the other sides'" in text
    )
    two = tmp_path / "two.json"
    Record(players=2, moves=play_match(["greedy", "random"], seed=2).record.moves[:12]).save(two)
    code, text, _ = run_cli("analyse", str(two), "--bot", "ismcts:iterations=10")
    assert "values: the mover's side's expected deal points minus the opponents'\n" in text


def test_nan_losses_stay_unknown_for_an_evaluator_of_ones_own(
    noisy: tuple[Record, State],
) -> None:
    record, _ = noisy

    class LastOnly:
        def evaluate(self, view: object, legal: tuple[object, ...]) -> dict[object, float]:
            return {move: (0.5 if move == legal[-1] else -math.inf) for move in legal}

    short = Record(players=2, dealer=record.dealer, moves=record.moves[:67])
    review = review_record(short, seats=(0,), evaluator=LastOnly())[-1]  # type: ignore[arg-type]
    assert review.index == 66 and math.isnan(review.loss)


# --- found by the review of this stop's diff -------------------------------------------


class _Scaled(ISMCTSBot):
    """A search bot with values of its own (ten times the search's): the recheck's
    values, on the search's scale, must not be mixed into its ranking."""

    def evaluate(self, view: Any, legal: Any) -> dict[Any, float]:
        return {move: value * 10 for move, value in super().evaluate(view, legal).items()}

    def spawn(self, seed: int | None) -> _Scaled:
        return _Scaled(iterations=self.iterations, seed=seed)


def test_a_subclass_with_its_own_evaluate_keeps_its_values(noisy: tuple[Record, State]) -> None:
    record, state = noisy
    short = Record(players=2, dealer=record.dealer, moves=record.moves[:67])
    review = review_record(short, seats=(0,), evaluator=_Scaled(iterations=100, seed=1))[-1]
    view, legal = observe(state, 0), legal_moves(state)
    assert review.ranked == rank_moves(view, legal, _Scaled(iterations=100, seed=1 + 66))


def test_rank_moves_names_a_legal_entry_that_is_no_move(noisy: tuple[Record, State]) -> None:
    _, state = noisy
    view, legal = observe(state, 0), legal_moves(state)

    class Anything:
        def evaluate(self, view: object, legal: tuple[object, ...]) -> dict[object, float]:
            return dict.fromkeys(legal, 0.0)

    with pytest.raises(ChkobbaError) as caught:
        rank_moves(view, ("x", *legal), Anything())  # type: ignore[arg-type]
    assert str(caught.value) == "rank_moves: legal holds 'x', which is not a move"


def test_a_reviews_data_is_plain_for_numpy_values() -> None:
    np = pytest.importorskip("numpy")
    ranked = (MoveValue(TAKE, np.float32(1.5)), MoveValue(LAY, np.float32(-0.25)))
    review = MoveReview(np.int64(3), np.int32(1), LAY, ranked)
    data = review.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert (type(data["index"]), type(data["loss"])) == (int, float)
