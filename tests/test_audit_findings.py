"""What an adversarial audit of the public API found (2026-12-03).

Each test is a reproducer: a public function let a raw ``TypeError`` or
``AttributeError`` escape, hung on an endless iterable, read a mapping's keys as data,
or reported an infinite loss. Now each refuses its input with a
:class:`~chkobba.ChkobbaError` naming it and the reason, or reports what it knows.
"""

from __future__ import annotations

import itertools
import math
import pathlib
import random
from typing import Any

import attrs
import pytest

from chkobba import (
    ChkobbaError,
    NotationError,
    Play,
    Record,
    RecordError,
    Rules,
    Shuffle,
    capture_options,
    card,
    cards,
    format_cards,
    new_match,
    random_shuffle,
)
from chkobba.actions import capture_choices
from chkobba.arena import MATCH_LIMIT, WORKER_LIMIT, play_match, tournament
from chkobba.bots import make_bot
from chkobba.bots.analysis import MoveReview, MoveValue, review_record, worst
from chkobba.cli import main
from chkobba.views import complete_state


class _BytesPath:
    """A path-like object whose name is bytes (``os.fspath`` allows them)."""

    name = b"no-such-profile.json"

    def __fspath__(self) -> bytes:
        return self.name


class _NulBytesPath(_BytesPath):
    name = b"a\0b.json"


@pytest.mark.parametrize("path", [None, 3, b"profile.json", ["a.json"]])
def test_rules_load_names_what_is_no_file_name(path: Any) -> None:
    # os.fspath raised a bare TypeError here, as Record.load did not.
    with pytest.raises(ChkobbaError, match=r"^a rule profile's file is named by a str or an"):
        Rules.load(path)
    with pytest.raises(RecordError, match=r"^a record file is named by a str or an"):
        Record.load(path)


def test_rules_load_refuses_a_nul_in_a_path_like_name(tmp_path: pathlib.Path) -> None:
    with pytest.raises(ChkobbaError, match=r"a\\x00b\.json': a file name cannot hold a NUL"):
        Rules.load(tmp_path / "a\0b.json")
    # A name in bytes from __fspath__ is the file system's to judge, as open() does.
    with pytest.raises(FileNotFoundError):
        Rules.load(_BytesPath())  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="a file name cannot hold a NUL"):
        Rules.load(_NulBytesPath())  # type: ignore[arg-type]


@pytest.mark.parametrize("view", [None, 3, "view", new_match(), Rules()])
def test_complete_state_refuses_what_is_no_view(view: Any) -> None:
    expected = r"^complete_state: expected a PlayerView or a PublicView, got "
    with pytest.raises(ChkobbaError, match=expected):
        complete_state(view, ((), ()), ())


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("phase", None, "phase must be a Phase, not None"),
        ("phase", "PLAY", "phase must be a Phase, not 'PLAY'"),
        ("deal_scores", None, "deal_scores must be a tuple of DealScore, not None"),
        ("deal_scores", 3, "deal_scores must be a tuple of DealScore, not 3"),
    ],
)
def test_record_from_moves_names_a_broken_start(field: str, value: object, reason: str) -> None:
    # Building the message for a start that is no new match read start.phase.name and
    # len(start.deal_scores) before: AttributeError and TypeError.
    start = attrs.evolve(new_match(), **{field: value})
    with pytest.raises(RecordError, match=f"^a record cannot start from this state: .*{reason}"):
        Record.from_moves(start, [])
    # A new match of any seating still starts a record.
    assert Record.from_moves(new_match(4, dealer=2), []).dealer == 2


@pytest.mark.parametrize(
    ("table", "played", "message"),
    [
        ("QH 2D 6S", "QH", "QH cannot be both played and on the table"),
        ("4D 4D 2S", "QH", "the table holds 4D twice"),
        ("AS " * 22, "KH", "the table holds AS twice"),
    ],
)
def test_capture_options_refuses_a_table_no_deal_makes(
    table: str, played: str, message: str
) -> None:
    # A table of 22 aces listed 646,646 "sums" in 2.6 s; 40 would not have finished.
    with pytest.raises(ChkobbaError, match=f"^capture_options: {message}$"):
        capture_options(cards(table), card(played))
    assert capture_options(cards("2D 6S 5C"), card("QH")) == (frozenset(cards("2D 6S")),)


def test_capture_choices_of_a_card_on_the_table_are_none() -> None:
    # It went through capture_options, which listed the card "taking" itself: 5C x 5C.
    state = attrs.evolve(new_match(), table=cards("2D 6S 5C"))
    assert capture_choices(state, card("5C")) == ()
    assert capture_choices(state, card("QH")) == (frozenset(cards("2D 6S")),)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Play("QH", itertools.count()), "a capture has more than 1000 items"),
        (lambda: Play("QH", range(10**18)), "a capture has more than 1000 items"),
        (lambda: Shuffle(itertools.count()), "a shuffle has more than 1000 items"),
        (
            lambda: Shuffle(itertools.repeat(card("AS"), 10**8)),
            "a shuffle has more than 1000 items",
        ),
        (lambda: format_cards(itertools.count()), "format_cards: the group has more than 1000"),
        (lambda: Play("QH", {card("2D"): 1}), "a capture must be a collection of items, not a"),
        (lambda: format_cards({card("2D"): 1}), "the group must be a collection of items, not"),
    ],
)
def test_card_collections_are_read_with_a_bound(build: Any, message: str) -> None:
    # Each of these hung, filled the memory or read a mapping's keys before.
    with pytest.raises(NotationError, match=message):
        build()


def test_card_collections_within_the_bound_still_read() -> None:
    assert Play("QH", iter(cards("2D 6S"))) == Play("QH", "2D 6S")
    assert format_cards(iter(cards("6S 2D")), "+") == "2D+6S"
    order = random_shuffle(random.Random(1)).order
    assert Shuffle(iter(order)) == Shuffle(order)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"scores": {5: "a", 7: "b"}}, "scores must be whole numbers, one per side, not {5: "),
        ({"scores": []}, r"scores must be whole numbers, one per side, not \[\]"),
        ({"moves": {random_shuffle(random.Random(1)): 1}}, "moves must be a sequence of moves"),
    ],
)
def test_record_refuses_mappings_and_empty_scores(arguments: Any, message: str) -> None:
    # A mapping's keys were read as the scores or the moves; no scores meant zeros.
    with pytest.raises(RecordError, match=message):
        Record(players=2, **arguments)
    assert Record(players=2).scores == (0, 0)
    assert Record(players=2, scores=(3, 4)).scores == (3, 4)


def test_tournament_refuses_more_matches_than_it_can_hold() -> None:
    # games=10**26 built the whole schedule in memory until the machine ran out.
    with pytest.raises(ChkobbaError, match=r"^games must be an integer from 1 to 1,000,000"):
        tournament(["random", "greedy"], games=MATCH_LIMIT + 1, seed=1)
    with pytest.raises(ChkobbaError, match=r"^workers must be an integer from 1 to 1,024"):
        tournament(["random", "greedy"], games=2, seed=1, workers=WORKER_LIMIT + 1)
    with pytest.raises(
        ChkobbaError,
        match=r"^a tournament plays at most 1,000,000 matches; 500,000 games for each of 3 "
        r"pairs of bots make 1,500,000",
    ):
        tournament(["random", "greedy", "random"], games=500_000, seed=1)


@pytest.mark.parametrize(
    ("option", "value", "most"),
    [("--games", "99999999999999999999999999", MATCH_LIMIT), ("--workers", "5000", WORKER_LIMIT)],
)
def test_simulate_refuses_too_many_games_or_workers_as_usage(
    option: str, value: str, most: int, capsys: pytest.CaptureFixture[str]
) -> None:
    games = [] if option == "--games" else ["--games", "2"]
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", *games, option, value, "--bots", "random", "random"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert f"argument {option}: {value} must be at most {most}" in err
    assert "Traceback" not in err


def _reviews() -> list[MoveReview]:
    record = play_match(["greedy", "random"], seed=1).record
    return review_record(record, evaluator=make_bot("ismcts:iterations=1", seed=0))


def test_a_move_the_search_never_tried_loses_nothing_known() -> None:
    # With one iteration most moves are never tried (value -inf): their loss was inf, and
    # worst() flagged them as the game's worst moves. A search bot's review searches such
    # a play again (stop 72), so an evaluator of one's own leaves it untried.
    record = play_match(["greedy", "random"], seed=1).record
    reviews = review_record(record, evaluator=_HalfTried())
    untried = [review for review in reviews if math.isnan(review.loss)]
    assert untried
    for review in untried:
        played = next(item for item in review.ranked if item.move == review.played)
        assert played.value == -math.inf
        assert review.to_dict()["loss"] is None
    assert all(not math.isnan(review.loss) for review in worst(reviews, len(reviews)))
    assert math.inf not in [review.loss for review in reviews]
    # A search bot's own review knows every played move's loss: it searched it again.
    assert not any(math.isnan(review.loss) for review in _reviews())


def test_a_known_loss_is_still_the_gap_to_the_best() -> None:
    best, played = Play("QH", "2D 6S"), Play("5D")
    review = MoveReview(0, 0, played, (MoveValue(best, 1.25), MoveValue(played, -0.5)))
    assert review.loss == 1.75
    assert worst([review]) == [review]


def test_analyse_says_not_tried_instead_of_inf(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.json"
    play_match(["greedy", "random"], seed=1).record.save(path)
    assert main(["analyse", "--bot", "ismcts:iterations=1", "--worst", "2", str(path)]) == 0
    out = capsys.readouterr().out
    assert "not tried  " in out  # moves the search never tried, in a play's list
    assert "(not tried)" not in out  # a play it never tried is searched again
    assert "inf" not in out


class _HalfTried:
    """An evaluator whose search tried only the first legal move."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def evaluate(self, view: Any, legal: tuple[Any, ...]) -> dict[Any, float]:
        return {move: (0.5 if i == 0 else -math.inf) for i, move in enumerate(legal)}


def test_the_hint_says_not_tried_instead_of_inf(monkeypatch: pytest.MonkeyPatch) -> None:
    from chkobba import Cut, apply, legal_moves, observe
    from chkobba.bots import analysis

    state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    legal = legal_moves(state)
    assert len(legal) >= 2
    monkeypatch.setattr(analysis, "ExpertBot", _HalfTried)
    text = analysis.hint_text(observe(state, state.current_player), legal)
    assert text.startswith(f"{legal[0]} (+0.50 points), then {legal[1]} (not tried)")
