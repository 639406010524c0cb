"""The cut is a decision, and ``chkobba analyse`` reviews it (stop 81).

Issue 13 asks ``chkobba analyse RECORD`` to show, "for every move of a chosen seat (or
all)", the best bot's value of each legal move and to flag the moves that lost the most,
and ``play``'s ``hint`` to use the same evaluation. The hint has rated the cut (``keep``
or ``expose``) since it was written; the review passed it over with the shuffles and the
forced plays, so a cutter who exposed a 7♦ was never told. These tests pin the cut's
review wherever reviews go: :func:`~chkobba.bots.analysis.review_record`, the text and
``--json`` of ``chkobba analyse``, ``--seat``, ``--worst`` and its marks,
:func:`~chkobba.bots.analysis.worst`, and the values ``hint`` shows for the same position
and seed. Shuffles and forced plays stay unreviewed, and the plays' reviews keep the values
they had before the cut was reviewed (each position has a bot of its own, seeded with the
seed plus the move's index).
"""

from __future__ import annotations

import io
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    Cut,
    Move,
    Phase,
    Record,
    Shuffle,
    apply,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.arena import play_match, subseed
from chkobba.bots import ExpertBot, ISMCTSBot
from chkobba.bots.analysis import MoveReview, MoveValue, hint_text, rank_moves, review_record, worst
from chkobba.cli import main
from chkobba.cli import play as play_module
from tests.helpers import run_cli

KEEP, EXPOSE = Cut(keep=True), Cut(keep=False)
#: A shuffle with the 7♦ on top, cut by player 1 (the first dealer is player 0): keeping
#: it is worth a point more than exposing it, by ExpertBot's reckoning at seed 0.
SEVEN_OF_DIAMONDS = random_shuffle(random.Random(2))
#: A shuffle with the Q♠ on top: the two cuts are worth about the same.
QUEEN_OF_SPADES = random_shuffle(random.Random(4))


def _cut_only(shuffle: Shuffle, cut: Cut) -> Record:
    return Record(players=2, moves=[shuffle, cut])


def _deal_start(shuffle: Shuffle, cut: Cut, plays: int) -> Record:
    """The shuffle, the cut and ``plays`` plays (each the last legal move)."""
    moves: list[Move] = [shuffle, cut]
    state = apply(apply(new_match(), shuffle), cut)
    for _ in range(plays):
        moves.append(legal_moves(state)[-1])
        state = apply(state, moves[-1])
    return Record(players=2, moves=moves)


def _values(review: MoveReview) -> list[tuple[str, float]]:
    return [(str(item.move), item.value) for item in review.ranked]


class _Flat:
    """An evaluator that rates every move alike (cheap: for what a review covers)."""

    def evaluate(self, view: Any, legal: tuple[Move, ...]) -> dict[Move, float]:
        return dict.fromkeys(legal, 0.0)


# --- review_record: the cutter's choice, both cuts ranked ----------------------------------


def test_the_cutters_choice_is_reviewed_with_both_cuts_ranked() -> None:
    record = _deal_start(QUEEN_OF_SPADES, EXPOSE, plays=2)
    cutter = record.start().cutter
    reviews = review_record(record, seed=0)
    cut = reviews[0]
    assert (cut.index, cut.player, cut.played) == (1, cutter, EXPOSE)
    assert {item.move for item in cut.ranked} == {KEEP, EXPOSE} and len(cut.ranked) == 2
    assert [item.value for item in cut.ranked] == sorted(
        (item.value for item in cut.ranked), reverse=True
    )
    assert cut.best.move == KEEP and 0 < cut.loss < 0.25  # close: no recheck
    # Then the plays, as before.
    assert all(not isinstance(review.played, Cut) for review in reviews[1:])
    assert [review.index for review in reviews[1:]] == [2, 3]


def test_a_bad_cut_is_searched_again_and_lost_a_point() -> None:
    """Exposing the 7♦: the first search tried the expose a few times, a loss of 1.57;
    rechecked by a search committed to each cut, as a play is, it loses 1.00."""
    [exposed] = review_record(_cut_only(SEVEN_OF_DIAMONDS, EXPOSE), seed=0)
    state = apply(new_match(), SEVEN_OF_DIAMONDS)
    view = observe(state, 1)
    first = rank_moves(view, legal_moves(state), seed=1)  # seed 0 + the cut's index
    assert [str(item.move) for item in first] == ["keep", "expose"]
    assert first[0].value - first[1].value > 1.5
    # The same bot searches on: the move played, then the best.
    bot = ExpertBot(seed=1)
    assert bot.evaluate(view, legal_moves(state)) == {item.move: item.value for item in first}
    again = {EXPOSE: bot.value_of(view, EXPOSE), KEEP: bot.value_of(view, KEEP)}
    assert _values(exposed) == [("keep", again[KEEP]), ("expose", again[EXPOSE])]
    assert round(exposed.loss, 3) == 1.002


def test_every_deals_cut_is_reviewed_and_shuffles_and_forced_plays_are_not() -> None:
    record = play_match(["greedy", "greedy"], seed=3, rules=attrs.evolve(TUNISIAN, target=5)).record
    state, expected, cuts = record.start(), [], 0
    for index, move in enumerate(record.moves):
        if state.phase is Phase.CUT:
            cuts += 1
            expected.append((index, state.cutter, move))
        elif state.phase is Phase.PLAY and len(legal_moves(state)) > 1:
            expected.append((index, state.current_player, move))
        state = apply(state, move)
    assert cuts >= 2
    reviews = review_record(record, evaluator=_Flat())
    assert [(r.index, r.player, r.played) for r in reviews] == expected
    assert sum(isinstance(r.played, Cut) for r in reviews) == cuts
    assert not any(isinstance(r.played, Shuffle) for r in reviews)


def test_a_four_player_cut_is_reviewed_for_its_cutter() -> None:
    record = play_match(["greedy"] * 4, seed=2, players=4, rules=attrs.evolve(TUNISIAN, target=1))
    start = record.record.start()
    reviews = review_record(record.record, evaluator=ISMCTSBot(iterations=8, seed=1))
    cut = reviews[0]
    assert isinstance(cut.played, Cut) and (cut.index, cut.player) == (1, start.cutter)
    assert {item.move for item in cut.ranked} == {KEEP, EXPOSE}


def test_a_profile_without_the_cut_reviews_plays_alone() -> None:
    record = play_match(["greedy", "greedy"], seed=1, rules=attrs.evolve(CARD_RULES_PLUS, target=1))
    reviews = review_record(record.record, evaluator=_Flat())
    assert reviews and not any(isinstance(r.played, Cut) for r in reviews)


def test_the_progress_counts_every_move_and_the_cut_is_among_the_reviewed() -> None:
    done: list[tuple[int, int]] = []
    reviews = review_record(
        _cut_only(QUEEN_OF_SPADES, KEEP), evaluator=_Flat(), progress=lambda *at: done.append(at)
    )
    assert done == [(1, 2), (2, 2)]
    assert [(r.index, r.played) for r in reviews] == [(1, KEEP)]


def test_the_plays_reviews_keep_their_values() -> None:
    """What the plays' reviews of this record were before the cut was reviewed (their
    seeds are the seed plus their own index, whatever is reviewed before them)."""
    reviews = review_record(_deal_start(QUEEN_OF_SPADES, EXPOSE, plays=6), seed=0)
    plays = [review.to_dict() for review in reviews if not isinstance(review.played, Cut)]
    assert [
        (r["index"], r["played"], r["loss"], [(m["move"], m["value"]) for m in r["moves"]])
        for r in plays
    ] == [
        (
            2,
            "KD x AD+4D+5D",
            0.0,
            [("KD x AD+4D+5D", 0.922), ("KC x AD+4D+5D", 0.666), ("7C", 0.107)],
        ),
        (3, "6D", 0.131, [("6C", -0.794), ("6D", -0.925), ("7D", -1.863)]),
        (4, "KC", 0.0, [("KC", 1.093), ("7C", 0.969)]),
        (5, "6C x 6D", 0.0, [("6C x 6D", -0.973), ("7D", -1.342)]),
    ]


# --- seats and worst() -------------------------------------------------------------------


def test_a_seat_filter_leaves_out_the_cut_of_another_seat() -> None:
    record = _deal_start(QUEEN_OF_SPADES, KEEP, plays=4)
    cutter = record.start().cutter
    other = 1 - cutter
    everything = review_record(record, seed=0)
    theirs = review_record(record, seats=[other], seed=0)
    assert theirs and not any(isinstance(r.played, Cut) for r in theirs)
    assert theirs == [r for r in everything if r.player == other]
    mine = review_record(record, seats=[cutter], seed=0)
    assert mine[0] == everything[0] and mine[0].played == KEEP
    assert mine == [r for r in everything if r.player == cutter]


def test_worst_flags_a_bad_cut_before_smaller_losses() -> None:
    [exposed] = review_record(_cut_only(SEVEN_OF_DIAMONDS, EXPOSE), seed=0)
    [kept] = review_record(_cut_only(SEVEN_OF_DIAMONDS, KEEP), seed=0)
    assert kept.loss == 0.0 and exposed.loss > 0.5
    small = MoveReview(
        3, 0, KEEP, (MoveValue(EXPOSE, 0.5), MoveValue(KEEP, 0.25))
    )  # a hand-made cut that lost a quarter
    assert worst([kept, small, exposed]) == [exposed, small]
    assert worst([kept, small, exposed], count=1) == [exposed]


def test_a_move_review_and_its_values_hold_a_cut() -> None:
    review = MoveReview(1, 1, EXPOSE, [MoveValue(KEEP, 1.25), MoveValue(EXPOSE, 0.25)])
    assert review.best == MoveValue(KEEP, 1.25) and review.loss == 1.0
    assert review.to_dict() == {
        "index": 1,
        "player": 1,
        "played": "expose",
        "best": "keep",
        "loss": 1.0,
        "moves": [{"move": "keep", "value": 1.25}, {"move": "expose", "value": 0.25}],
    }


# --- chkobba analyse: text, --json, --seat, --worst -------------------------------------


@pytest.fixture
def cut_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``cut.json`` as docs/cli.md describes it, in the current folder."""
    monkeypatch.chdir(tmp_path)
    _cut_only(SEVEN_OF_DIAMONDS, EXPOSE).save("cut.json")
    return tmp_path / "cut.json"


def _page_block(holding: str) -> list[str]:
    page = (Path(__file__).parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```text\n(.*?)^```$", page, flags=re.M | re.S)
    (body,) = [body for body in blocks if holding in body]
    return str(body).splitlines()


def test_analyse_prints_the_cut_as_the_page_shows_it(cut_json: Path) -> None:
    typed, *shown = _page_block("$ chkobba analyse cut.json")
    assert typed == "$ chkobba analyse cut.json"
    code, out, err = run_cli("analyse", "cut.json", "--no-colour")
    assert (code, err) == (0, "")
    assert out.splitlines() == shown
    assert shown[2] == (
        "2. player 1 played expose with 7♦ on top (loses 1.00 points)  <- lost the most"
    )


def test_analyse_marks_a_bad_cut_a_mistake_with_worst_0(cut_json: Path) -> None:
    code, out, _ = run_cli("analyse", "cut.json", "--no-colour", "--worst", "0")
    assert code == 0
    assert "2. player 1 played expose with 7♦ on top (loses 1.00 points)  <- a mistake\n" in out
    assert "moves that lost the most" not in out


def test_analyse_json_gives_the_cut(cut_json: Path) -> None:
    code, out, _ = run_cli("analyse", "cut.json", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["moves"] == [
        {
            "index": 1,
            "player": 1,
            "played": "expose",
            "best": "keep",
            "loss": 1.002,
            "moves": [{"move": "keep", "value": 1.353}, {"move": "expose", "value": 0.351}],
            "top": "7D",  # the card the cutter saw (the narration's "exposes 7♦")
        }
    ]
    assert data["worst"] == [1]


def test_analyse_seat_excludes_or_keeps_the_cutter(cut_json: Path) -> None:
    code, out, _ = run_cli("analyse", "cut.json", "--no-colour", "--seat", "0")
    assert code == 0 and out.splitlines()[0] == "analysing 'cut.json': 0 decisions"
    assert "expose" not in out
    whole = json.loads(run_cli("analyse", "cut.json", "--json")[1])
    cutter = json.loads(run_cli("analyse", "cut.json", "--json", "--seat", "1")[1])
    assert cutter["moves"] == whole["moves"] and cutter["worst"] == [1]
    assert json.loads(run_cli("analyse", "cut.json", "--json", "--seat", "0")[1])["moves"] == []


# --- the hint's values -------------------------------------------------------------------


def test_the_review_of_a_cut_values_it_as_the_hint_does() -> None:
    """Where no recheck is asked (the cut played was the best, or close), the review's
    values are the hint's for the same position and seed."""
    state = apply(new_match(), SEVEN_OF_DIAMONDS)
    [kept] = review_record(_cut_only(SEVEN_OF_DIAMONDS, KEEP), seed=0)
    assert kept.loss == 0.0
    hint = hint_text(observe(state, 1), legal_moves(state), seed=1)
    assert hint == "keep (+1.40 points), then expose (-0.17 points)"
    assert kept.ranked == rank_moves(observe(state, 1), legal_moves(state), seed=1)
    [close] = review_record(_cut_only(QUEEN_OF_SPADES, EXPOSE), seed=7)
    queen = apply(new_match(), QUEEN_OF_SPADES)
    assert close.ranked == rank_moves(observe(queen, 1), legal_moves(queen), seed=8)


def test_the_review_gives_the_cut_the_values_plays_hint_showed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``chkobba play --seed 23``: you cut first (the 3♦ on top), ask for a hint, keep, quit
    and save; the review of the saved record, with the seed that gives the cut's position
    the hint's seed, ranks both cuts with the hint's values."""
    monkeypatch.chdir(tmp_path)
    ranked: list[tuple[MoveValue, ...]] = []
    real = play_module.rank_moves

    def recorded(*args: Any, **kwargs: Any) -> tuple[MoveValue, ...]:
        ranked.append(real(*args, **kwargs))
        return ranked[-1]

    monkeypatch.setattr(play_module, "rank_moves", recorded)
    monkeypatch.setattr(sys, "stdin", io.StringIO("hint\nkeep\nquit\ny\nplayed.json\n"))
    assert main(["play", "--no-colour", "--seed", "23"]) == 0
    out = capsys.readouterr().out
    [hint] = [line for line in out.splitlines() if line.startswith("hint: ")]
    assert hint.startswith("hint: expose (+0.42 points), then keep (+0.29 points)")
    record = Record.load("played.json")
    assert record.moves[1] == KEEP and len(record.moves) == 2
    # The hint seeds its bot with subseed(seed, moves made); the review, seed + index.
    [review] = review_record(record, seed=subseed(23, 1) - 1)
    assert (review.index, review.player, review.played) == (1, 0, KEEP)
    assert 0 < review.loss < 0.25  # no recheck: the evaluation alone
    assert len(ranked) == 1 and review.ranked == ranked[0]
    assert [(move, round(value, 2)) for move, value in _values(review)] == [
        ("expose", 0.42),
        ("keep", 0.29),
    ]
