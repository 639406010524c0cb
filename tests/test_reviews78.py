"""Findings of the stop-78 reviews, each pinned by a test that fails without its fix."""

from __future__ import annotations

import io
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from chkobba import PlayerView, arena
from chkobba.bots.registry import BotSpec
from chkobba.cli import demo, play
from chkobba.cli.output import Output
from tests.helpers import run_cli

GREEDY = BotSpec.parse("greedy")


def _seeds_drawn(monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], list[int]]:
    """The seeds the bots are built with, and those the hints rank with, from now on."""
    bots: list[int] = []
    hints: list[int] = []
    build, rank = BotSpec.build, play.rank_moves

    def built(spec: BotSpec, *args: Any, seed: int | None = None, **kwargs: Any) -> Any:
        bots.append(seed)  # type: ignore[arg-type]
        return build(spec, *args, seed=seed, **kwargs)

    def ranked(*args: Any, seed: int, **kwargs: Any) -> Any:
        hints.append(seed)
        return rank(*args, seed=seed, **kwargs)

    monkeypatch.setattr(BotSpec, "build", built)
    monkeypatch.setattr(play, "rank_moves", ranked)
    return bots, hints


@pytest.mark.parametrize("seed", [0, -1, -3, -5, 7])
def test_bots_and_hints_draw_apart_from_the_deck(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The deck of a match with seed s is dealt from random.Random(s), which is also
    # random.Random(-s). A bot seeded seed * 10 + seat drew the deck's own numbers at seat
    # 0 of seed 0 (demo), and a hint seeded seed + moves did at move -2 * seed (play
    # --seed -5, the hint at move 10): samples of the hidden cards like the true ones
    # (review 78D). Every bot and hint of a match now draws from a seed of its own.
    bots, hints = _seeds_drawn(monkeypatch)
    demo.run_demo(Output(io.StringIO()), seed=seed, players=4, specs=[GREEDY] * 4)
    typed = io.StringIO("hint\n1\n" * 10 + "quit\nn\n")
    play.run_play(Output(io.StringIO()), typed, players=4, opponent=GREEDY, seed=seed)
    assert len(bots) == 4 + 3 and len(hints) > 6
    drawn = [abs(s) for s in bots + hints]
    assert abs(seed) not in drawn
    assert len(set(drawn[4:])) == len(drawn) - 4  # play's bots and hints, each its own


class _CountingPool(ThreadPoolExecutor):
    """A thread pool that counts the matches waiting on it (submitted, not yet done)."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.waiting = self.most = 0
        self.lock = threading.Lock()

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            self.waiting += 1
            self.most = max(self.most, self.waiting)
        future = super().submit(*args, **kwargs)
        future.add_done_callback(self._done)
        return future

    def _done(self, _: object) -> None:
        with self.lock:
            self.waiting -= 1


def test_a_tournament_submits_a_window_of_matches_not_all_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every match was submitted before the first result: about 2 kB a future, 2.5 GB and
    # 75 s before the first match of a million (review 78B). A window of them waits on
    # the executor, the next submitted as one finishes; the result is the same.
    monkeypatch.setattr(arena, "_SUBMITTED_AT_ONCE", 6)
    alone = arena.tournament(["random", "greedy"], games=30, seed=4)
    with _CountingPool() as pool:
        windowed = arena.tournament(["random", "greedy"], games=30, seed=4, executor=pool)
    assert 1 <= pool.most <= 6
    assert windowed == alone


def test_a_review_judges_each_play_from_its_movers_view(monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/cli.md: "Each play is judged from its mover's seat, with what that player could
    # see then": a record holds every hand, the review reads only the mover's view.
    from chkobba.bots import ISMCTSBot, analysis

    record = arena.play_match(["greedy", "random"], seed=6).record
    judged: list[tuple[int, int]] = []
    rank = analysis.rank_moves

    def spied(view: Any, legal: Any, *args: Any, **kwargs: Any) -> Any:
        assert isinstance(view, PlayerView)
        judged.append((view.player, len(view.hand)))
        return rank(view, legal, *args, **kwargs)

    monkeypatch.setattr(analysis, "rank_moves", spied)
    reviews = analysis.review_record(record, evaluator=ISMCTSBot(iterations=3, seed=0))
    assert [player for player, _ in judged] == [review.player for review in reviews]
    assert len(reviews) > 10


def test_an_odd_games_count_at_3_players_notes_the_two_seats() -> None:
    # At 3 players the first bot of a match holds two of the three seats (98 of 150
    # matches won between two random bots): the note spoke only of seat 0 and the deal
    # (review 78E).
    args = ["simulate", "--games", "1", "--bots", "random", "random", "--target", "1"]
    code, _, err = run_cli(*args, "--players", "3", "--rules", "cardrulesplus")
    assert (code, err) == (
        0,
        "note: with an odd --games (1) the first bot of each pair holds two of the three "
        "seats, and deals first, in one match more than the other (between equal bots, two "
        "seats win about two matches in three): an even number balances them\n",
    )
    code, _, err = run_cli(*args)
    assert code == 0 and err.startswith("note: with an odd --games (1) the first bot of each ")
    assert "holds seat 0" in err
