"""Counts, seats and seeds of any integral type: numpy's, an ``IntEnum``'s, anything
:func:`operator.index` takes, kept as the plain ``int`` it is (docs/api.md, "Starting a
match"). A bool and a float are still refused for their type.

Each function is called with such an integer and with the plain int, and must give the
same result, holding plain ints (what JSON writes).
"""

from __future__ import annotations

import enum
import random
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    ChkobbaError,
    Cut,
    Game,
    Play,
    Record,
    Rules,
    apply,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
    score_deal,
)
from chkobba.arena import play_match, tournament
from chkobba.bots import ExpertBot, GreedyBot, ISMCTSBot, RandomBot
from chkobba.bots.analysis import hint_text, review_record, worst
from chkobba.bots.policy import action_mask
from chkobba.history import DealHistory

try:
    import numpy
except ImportError:  # pragma: no cover - numpy is an optional extra
    numpy = None  # type: ignore[assignment]


class Index:
    """An integer of a type of one's own: it has ``__index__`` and nothing else."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"Index({self.value})"


def int_enum(value: int) -> enum.IntEnum:
    """``value`` as the member of an ``IntEnum`` of its own."""
    return enum.IntEnum("Counted", [("VALUE", value)]).VALUE  # type: ignore[attr-defined,no-any-return]


def _kinds() -> list[Callable[[int], Any]]:
    kinds: list[Callable[[int], Any]] = [Index, int_enum]
    if numpy is not None:
        kinds += [numpy.int64, numpy.int8, numpy.uint16]
    return kinds


KINDS = pytest.mark.parametrize("kind", _kinds(), ids=lambda kind: kind.__name__)


def _dealt(players: int = 2, seed: int = 3) -> Any:
    state = apply(new_match(players), random_shuffle(random.Random(seed)))
    return apply(state, Cut(keep=True))


def _plain(value: object) -> bool:
    """Whether no integer in ``value`` (a tuple of them, or one value) is of another type
    than int: a float or text is no integer, and a bool is what it is."""
    if isinstance(value, tuple):
        return all(_plain(item) for item in value)
    return not hasattr(value, "__index__") or type(value) in (int, bool)


@KINDS
def test_new_match_takes_the_count_the_dealer_and_the_scores(kind: Callable[[int], Any]) -> None:
    made = new_match(kind(3), dealer=kind(2), scores=(kind(4), 0, kind(9)), rules=CARD_RULES_PLUS)
    assert made == new_match(3, dealer=2, scores=(4, 0, 9), rules=CARD_RULES_PLUS)
    assert _plain(tuple(getattr(made, name) for name in ("players", "dealer", "scores")))
    assert (
        made.to_json() == new_match(3, dealer=2, scores=(4, 0, 9), rules=CARD_RULES_PLUS).to_json()
    )


@KINDS
def test_observe_and_side_of_take_a_seat(kind: Callable[[int], Any]) -> None:
    state = _dealt(4)
    for seat in range(4):
        view = observe(state, kind(seat))
        assert view == observe(state, seat) and type(view.player) is int
        assert state.side_of(kind(seat)) == seat % 2 == view.side_of(kind(seat))


@KINDS
def test_a_seat_of_another_type_is_still_checked(kind: Callable[[int], Any]) -> None:
    state = _dealt(2)
    with pytest.raises(ChkobbaError, match=r"^there is no player 3 in a 2-player match$"):
        observe(state, kind(3))
    with pytest.raises(ChkobbaError, match=r"^there is no player 3 in a 2-player match$"):
        state.side_of(kind(3))
    with pytest.raises(ChkobbaError, match=r"^there is no player 3 in a 2-player match$"):
        observe(state, 0).side_of(kind(3))
    with pytest.raises(ChkobbaError, match=r"^a match has 2 or 4 players, not 3"):
        new_match(kind(3))


@pytest.mark.parametrize("bad", [True, 1.0, "1", None])
def test_a_bool_a_float_or_text_is_no_seat(bad: object) -> None:
    state = _dealt(2)
    for call in (lambda: observe(state, bad), lambda: state.side_of(bad)):  # type: ignore[arg-type]
        with pytest.raises(ChkobbaError, match=r"^player must be an int, not "):
            call()
    with pytest.raises(ChkobbaError, match=r"^players must be an int, not "):
        new_match(bad)  # type: ignore[arg-type]


def test_numpys_boolean_is_no_seat() -> None:
    numpy_ = pytest.importorskip("numpy")
    true = numpy_.bool_(True)  # shown "np.True_ (bool)", before numpy 2 "True (bool_)"
    shown = re.escape(f"{true!r} ({type(true).__name__})")
    with pytest.raises(ChkobbaError, match=rf"^player must be an int, not {shown}$"):
        observe(_dealt(2), true)


@KINDS
def test_a_game_takes_its_seed_the_sending_seat_and_a_move_number(
    kind: Callable[[int], Any],
) -> None:
    game, plain = Game(kind(2), dealer=kind(1), seed=kind(7)), Game(2, dealer=1, seed=7)
    for each in (game, plain):
        each.deal()
    assert game.state == plain.state
    cutter = game.state.current_player
    assert cutter is not None
    assert game.play("keep", seat=kind(cutter)) == plain.play("keep", seat=cutter)
    assert game.move_outcome(kind(1)) == plain.move_outcome(1)
    last = Index(-1)
    assert game.move_outcome(last) == plain.move_outcome(-1)  # type: ignore[arg-type]
    with pytest.raises(
        ChkobbaError, match=r"^Game.play: seat must be a player from 0 to 1, not 5$"
    ):
        game.play("keep", seat=kind(5))


@KINDS
def test_a_record_takes_what_new_match_takes(kind: Callable[[int], Any]) -> None:
    record = Record(players=kind(4), dealer=kind(3), scores=(kind(10), kind(12)))
    assert record == Record(players=4, dealer=3, scores=(10, 12))
    assert _plain((record.players, record.dealer, record.scores))
    assert Record.from_json(record.to_json()) == record


@KINDS
def test_play_match_and_tournament_take_the_count_and_the_dealer(
    kind: Callable[[int], Any],
) -> None:
    result = play_match(["greedy", "random"], seed=kind(5), players=kind(4), dealer=kind(1))
    assert result == play_match(["greedy", "random"], seed=5, players=4, dealer=1)
    assert type(result.record.players) is int and type(result.record.dealer) is int
    table = tournament(["greedy", "random"], games=kind(1), seed=kind(2), players=kind(4))
    assert table == tournament(["greedy", "random"], games=1, seed=2, players=4)
    assert table.players == 4 and type(table.players) is int


@KINDS
def test_the_bots_take_their_seed_and_options(kind: Callable[[int], Any]) -> None:
    state = _dealt(2)
    view, legal = observe(state, state.mover), legal_moves(state)
    for made, plain in (
        (RandomBot(seed=kind(4)), RandomBot(seed=4)),
        (GreedyBot(seed=kind(4)), GreedyBot(seed=4)),
        (
            ISMCTSBot(iterations=kind(30), horizon=kind(2), inference=kind(1), seed=kind(4)),
            ISMCTSBot(iterations=30, horizon=2, inference=1, seed=4),
        ),
        (
            ExpertBot(iterations=kind(30), endgame=kind(6), budget=kind(50), seed=kind(4)),
            ExpertBot(iterations=30, endgame=6, budget=50, seed=4),
        ),
    ):
        assert made.options() == plain.options() and made.seed == plain.seed == 4
        assert _plain(tuple(made.options().values())) and type(made.seed) is int
        assert made.choose(view, legal) == plain.choose(view, legal)


@KINDS
def test_the_analysis_takes_its_seed_seats_and_counts(kind: Callable[[int], Any]) -> None:
    record = play_match(["greedy", "greedy"], seed=1).record
    record = Record(players=2, dealer=record.dealer, moves=record.moves[:8])
    reviews = review_record(record, seats=[kind(1)], seed=kind(2))  # the default evaluator
    assert reviews == review_record(record, seats=[1], seed=2)
    assert reviews and {review.player for review in reviews} == {1}
    assert worst(reviews, count=kind(1)) == worst(reviews, count=1)
    state = _dealt(2)
    view, legal = observe(state, state.mover), legal_moves(state)
    assert hint_text(view, legal, seed=kind(1), top=kind(2)) == hint_text(
        view, legal, seed=1, top=2
    )


@KINDS
def test_a_deal_history_takes_the_seats_and_the_count(kind: Callable[[int], Any]) -> None:
    state = _dealt(2)
    history = DealHistory().started(state.table, None)
    play = legal_moves(state)[0]
    assert isinstance(play, Play)
    assert history.played(kind(state.mover), play.card, play.capture) == history.played(
        state.mover, play.card, play.capture
    )
    assert history.vector(kind(1), kind(2)) == history.vector(1, 2)


@KINDS
def test_a_profile_takes_its_numbers(kind: Callable[[int], Any]) -> None:
    values = tuple(kind(v) for v in TUNISIAN.capture_values)
    made = attrs.evolve(
        TUNISIAN, target=kind(16), capture_values=values, players=(kind(2), kind(4))
    )
    assert made == attrs.evolve(TUNISIAN, target=16)
    assert _plain((made.target, made.capture_values, made.players))
    assert Rules.from_json(made.to_json()) == made


@KINDS
def test_score_deal_takes_the_chkobbas_and_the_side(kind: Callable[[int], Any]) -> None:
    piles = (DECK[:20], DECK[20:])
    house = attrs.evolve(TUNISIAN, ties_to_last_capturer=True)
    made = score_deal(piles, (kind(2), kind(0)), house, last_capturer_side=kind(1))
    assert made == score_deal(piles, (2, 0), house, last_capturer_side=1)
    assert _plain(made.chkobbas) and made.points[0] >= 2


@KINDS
def test_action_mask_takes_the_size(kind: Callable[[int], Any]) -> None:
    legal = legal_moves(_dealt(2))
    assert action_mask(legal, None, kind(80)) == action_mask(legal, None, 80)


@pytest.mark.parametrize("seconds", [Fraction(1, 2), *([numpy.float32(0.5)] if numpy else [])])
def test_a_time_limit_of_any_real_type(seconds: object) -> None:
    # numpy's float64 is a float; its float32 is not, and was refused as no number.
    assert ISMCTSBot(seconds=seconds).seconds == 0.5  # type: ignore[arg-type]
    assert ISMCTSBot(exploration=seconds).exploration == 0.5  # type: ignore[arg-type]


def test_numpy_arrays_are_refused_by_name_not_by_numpy() -> None:
    # Found by a review: numpy's own TypeError ("iteration over a 0-d array") or
    # ValueError ("the truth value of an array ... is ambiguous") came out instead.
    numpy_ = pytest.importorskip("numpy")
    from chkobba.bots.analysis import points_text
    from chkobba.events import MoveOutcome

    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: Record(2, moves=numpy_.array(1)), "^moves must be a sequence of moves, not "),
        (
            lambda: Record.from_moves(new_match(), numpy_.array(1)),
            "^moves must be a sequence of moves, not ",
        ),
        (
            lambda: MoveOutcome(numpy_.array(["play", "cut"])),
            "^MoveOutcome: kind must be one of shuffle, cut, play, not ",
        ),
        (
            lambda: tournament(["random", "random"], games=2, seed=1, records=numpy_.array([1, 2])),
            "^tournament: records must be True, False or 'stream', not ",
        ),
        (
            lambda: points_text(1.0, numpy_.array(["+", "-"])),
            "^points_text: sign must be ",
        ),
    ]
    for call, said in cases:
        with pytest.raises(ChkobbaError, match=said):
            call()


@KINDS
def test_the_deal_estimates_and_the_endgame_take_counts(kind: Callable[[int], Any]) -> None:
    from chkobba.bots.endgame import deal_difference
    from chkobba.bots.evaluation import deal_estimate, side_estimates

    piles = (DECK[:6], DECK[6:10])
    assert deal_estimate(piles, (kind(1), kind(0))) == deal_estimate(piles, (1, 0))
    assert side_estimates(piles, (kind(1), kind(0))) == side_estimates(piles, (1, 0))
    state = _dealt(2)
    assert deal_difference(state, kind(0)) == deal_difference(state, 0)
