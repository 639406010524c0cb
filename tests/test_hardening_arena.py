"""Bad input to the bot registry and the move reviews: a ChkobbaError naming it."""

from __future__ import annotations

import math
import random
import re
from typing import Any

import pytest

from chkobba import (
    ChkobbaError,
    Cut,
    IllegalMoveError,
    Phase,
    Play,
    apply,
    card,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.arena import play_match, tournament
from chkobba.bots import BotSpec, ExpertBot, GreedyBot, RandomBot
from chkobba.bots.analysis import MoveReview, MoveValue, hint_text, rank_moves, review_record, worst
from chkobba.bots.registry import BOT_TYPES, bot_options

NOT_A_BOT = "is not a bot: choose from expert, greedy, ismcts, random"


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("nope", (), f"'nope' {NOT_A_BOT}"),
        (None, (), f"None {NOT_A_BOT}"),
        (["greedy"], (), f"\\['greedy'\\] {NOT_A_BOT}"),
        ("ismcts", "iterations", "options must be a collection, not 'iterations'"),
        ("ismcts", 5, "options must be a collection, not 5"),
        ("ismcts", [("iterations",)], r"option \('iterations',\) is not a \(key, value\) pair"),
        ("ismcts", [(5, 1)], "option name 5 is not text"),
        ("ismcts", [("iterations", "5")], "option 'iterations' must be a finite number"),
        ("ismcts", [("iterations", 10**5000)], "not an integer of about 5001 digits"),
        ("ismcts", [("exploration", float("inf"))], "must be a finite number"),
        ("ismcts", [("iters", 5)], "'ismcts:iters=5': ismcts has no option 'iters'"),
        ("ismcts", [("seed", 5)], "the seed is not a bot option"),
        ("ismcts", [("horizon", 1), ("horizon", 2)], "option 'horizon' is given twice"),
        ("ismcts", [("iterations", 0)], "iterations must be a positive integer, not 0"),
    ],
)
def test_a_spec_built_directly_is_checked_like_parsed_text(
    name: Any, options: Any, message: str
) -> None:
    with pytest.raises(ChkobbaError, match=message):
        BotSpec(name, options)


def test_a_spec_built_directly_that_is_valid_is_unchanged() -> None:
    spec = BotSpec("ismcts", [["iterations", 5]])  # type: ignore[list-item]
    assert spec == BotSpec.parse("ismcts:iterations=5")
    assert str(spec) == "ismcts:iterations=5"
    assert spec.build(seed=2).iterations == 5  # type: ignore[attr-defined]


def test_bot_options_of_an_unknown_bot() -> None:
    with pytest.raises(ChkobbaError, match=f"'nope' {NOT_A_BOT}"):
        bot_options("nope")
    with pytest.raises(ChkobbaError, match=f"None {NOT_A_BOT}"):
        bot_options(None)  # type: ignore[arg-type]


def test_a_spec_refuses_integers_with_absurd_digit_counts() -> None:
    with pytest.raises(ChkobbaError, match="has 900 digits, at most 18"):
        BotSpec.parse("ismcts:iterations=" + "9" * 900)
    with pytest.raises(ChkobbaError, match="has 19 digits, at most 18"):
        BotSpec.parse("ismcts:iterations=-" + "1_" * 18 + "1")
    assert BotSpec.parse("ismcts:iterations=1_000").options == (("iterations", 1000),)


def test_whatever_the_bot_refuses_is_a_chkobba_error(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = BotSpec.parse("greedy")

    def fragile(**options: Any) -> GreedyBot:
        raise OverflowError("too big")

    monkeypatch.setitem(BOT_TYPES, "greedy", fragile)
    with pytest.raises(ChkobbaError, match="greedy: too big"):
        spec.build(seed=1)
    with pytest.raises(ChkobbaError, match="greedy: too big"):
        BotSpec.parse("greedy")


@pytest.fixture(scope="module")
def position() -> tuple[Any, Any]:
    state = apply(apply(new_match(), random_shuffle(random.Random(1))), Cut(keep=False))
    return observe(state, state.current_player), legal_moves(state)


class Fixed:
    """An evaluator that rates the moves in legal order, fast."""

    def evaluate(self, view: object, legal: tuple[Any, ...]) -> dict[Any, float]:
        return {move: -float(i) for i, move in enumerate(legal)}


@pytest.mark.parametrize("top", [0, -1, "x", True])
def test_hint_text_needs_a_positive_top(position: Any, top: Any) -> None:
    with pytest.raises(ChkobbaError, match=f"hint_text: top must be an integer >= 1, not {top!r}"):
        hint_text(*position, top=top)


def test_rank_moves_checks_its_arguments(position: Any) -> None:
    view, legal = position
    with pytest.raises(ChkobbaError, match="rank_moves: 5 cannot evaluate moves"):
        rank_moves(view, legal, 5)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="rank_moves: expected a PlayerView, got None"):
        rank_moves(None, legal)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="rank_moves: legal must be a collection"):
        rank_moves(view, None)  # type: ignore[arg-type]

    class Forgetful:
        def evaluate(self, view: object, legal: object) -> dict[Any, float]:
            return {}

    with pytest.raises(ChkobbaError, match=r"must give a number \(not NaN\) for every legal"):
        rank_moves(view, legal, Forgetful())

    class Undecided:
        def evaluate(self, view: object, legal: Any) -> dict[Any, float]:
            return {move: math.nan if i == 1 else float(i) for i, move in enumerate(legal)}

    with pytest.raises(ChkobbaError, match=r"not NaN"):  # it left the order arbitrary
        rank_moves(view, legal, Undecided())
    assert [item.move for item in rank_moves(view, list(legal), Fixed())] == list(legal)


@pytest.fixture(scope="module")
def record() -> Any:
    return play_match([GreedyBot(seed=1), RandomBot(seed=2)], seed=3).record


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"record": None}, "review_record: expected a Record, got None"),
        ({"seats": 5}, "review_record: seats must be a collection, not 5"),
        ({"seats": [9]}, r"review_record: seat 9 is not a player of the record \(0 to 1\)"),
        ({"seats": ["a"]}, "review_record: seat 'a' is not a player"),
        ({"seats": [True]}, "review_record: seat True is not a player"),
        ({"evaluator": 5}, "review_record: 5 cannot evaluate moves"),
    ],
)
def test_review_record_checks_its_arguments(
    record: Any, arguments: dict[str, Any], message: str
) -> None:
    given = {"record": record, "evaluator": Fixed(), **arguments}
    with pytest.raises(ChkobbaError, match=message):
        review_record(given.pop("record"), **given)


def test_review_record_reviews_only_decisions_with_a_choice(record: Any) -> None:
    reviews = review_record(record, seats=[1], evaluator=Fixed())
    assert reviews and {review.player for review in reviews} == {1}
    assert all(len(review.ranked) > 1 for review in reviews)
    assert review_record(record, seats=[], evaluator=Fixed()) == []


def _review(loss: float) -> MoveReview:
    view_state = apply(apply(new_match(), random_shuffle(random.Random(1))), Cut(keep=False))
    first, second = legal_moves(view_state)[:2]
    return MoveReview(0, 0, second, (MoveValue(first, loss), MoveValue(second, 0.0)))


@pytest.mark.parametrize(
    ("reviews", "count", "message"),
    [
        ([], -1, "worst: count must be an integer >= 0, not -1"),
        ([], "x", "worst: count must be an integer >= 0, not 'x'"),
        (None, 3, "worst: reviews must be a collection, not None"),
        ([5], 3, "worst: 5 is not a MoveReview"),
    ],
)
def test_worst_checks_its_arguments(reviews: Any, count: Any, message: str) -> None:
    with pytest.raises(ChkobbaError, match=message):
        worst(reviews, count)


def test_worst_keeps_its_results() -> None:
    reviews = [_review(1.0), _review(3.0), _review(0.0), _review(2.0)]
    assert [r.loss for r in worst(reviews, 2)] == [3.0, 2.0]
    assert [r.loss for r in worst(iter(reviews))] == [3.0, 2.0, 1.0]
    assert worst(reviews, 0) == []


def test_an_expert_still_evaluates_by_default(position: Any) -> None:
    view, legal = position
    ranked = rank_moves(view, legal, ExpertBot(iterations=4, seed=0))
    assert {item.move for item in ranked} == set(legal)


class Layer:
    """A bot that always lays its first card down, even when that card must capture."""

    def __init__(self) -> None:
        self.views: list[Any] = []

    def choose(self, view: Any, legal: tuple[Any, ...]) -> Any:
        self.views.append(view)
        return legal[0] if view.phase is Phase.CUT else Play(view.hand[0])


class NamedLayer(Layer):
    name = "my layer"


def test_an_illegal_bot_move_names_the_bot_the_move_and_the_reason() -> None:
    bot = Layer()
    with pytest.raises(IllegalMoveError) as caught:
        play_match([bot, GreedyBot(seed=1)], seed=1)
    message = str(caught.value)
    view = bot.views[-1]
    played = view.hand[0]
    assert message.startswith(f"bot Layer at seat 0 chose '{played}', which is not legal: ")
    assert f"which is not legal: {played} must capture: it can take " in message
    assert "object at 0x" not in message and "Play(" not in message
    # The reason names only what the bot's seat sees: its own hand and the table.
    named = {card(text) for text in re.findall(r"\b[A2-7QJK][SHDC]\b", message)}
    assert named and named <= {*view.hand, *view.table}


def test_an_illegal_bot_move_names_the_bot_by_its_name() -> None:
    with pytest.raises(IllegalMoveError, match=r"^bot my layer at seat 1 chose '\w\w', which"):
        play_match([GreedyBot(seed=1), NamedLayer()], seed=1)
    with pytest.raises(IllegalMoveError, match=r"^bot my layer at seat 0 chose "):
        tournament([NamedLayer(), "greedy"], games=1, seed=1)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (None, "chose None, which is not legal: None is not a move"),
        ("7D", "chose '7D', which is not legal: '7D' is not a move"),
        (Cut(keep=True), "chose 'keep', which is not legal: Cut is not allowed in phase PLAY"),
    ],
)
def test_a_bot_that_answers_no_legal_move_is_told_why(answer: object, message: str) -> None:
    class Stubborn:
        def choose(self, view: Any, legal: tuple[Any, ...]) -> object:
            return legal[0] if view.phase is Phase.CUT else answer

    with pytest.raises(IllegalMoveError, match=f"^bot Stubborn at seat 0 {re.escape(message)}"):
        play_match([Stubborn(), GreedyBot(seed=1)], seed=1, dealer=1)


def test_a_numpy_integer_seed_plays_the_same_match_and_tournament() -> None:
    # Every count of the library takes numpy's integers; a seed read from an array did not.
    numpy = pytest.importorskip("numpy")
    seed = numpy.int64(7)
    assert play_match(["greedy", "random"], seed=seed) == play_match(["greedy", "random"], seed=7)
    result = tournament(["greedy", "random"], games=numpy.int64(2), seed=seed)
    assert type(result.seed) is int
    assert result == tournament(["greedy", "random"], games=2, seed=7)
    # games and workers too: "games must be an integer ..., not np.int64(2)" refused one.
    assert tournament(["greedy", "random"], games=2, seed=7, workers=numpy.int8(1)) == result
    with pytest.raises(ChkobbaError, match="play_match: seed must be an integer, not "):
        play_match(["greedy", "random"], seed=numpy.bool_(True))  # type: ignore[arg-type]
