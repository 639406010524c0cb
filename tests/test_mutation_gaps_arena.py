"""Tests for the gaps a mutmut audit of ``arena.py`` found.

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to ``chkobba/arena.py`` that the rest of the suite let through
(tools/mutation/README.md). They pin the full text of the refusals (seats, seeds,
tournament arguments, ``wilson_interval``), a bot's long illegal move quoted up to 200
characters, the schedule's limit at exactly ``MATCH_LIMIT`` matches, ``WORKER_LIMIT``
workers allowed, names made unique (``random#2``, ``random#3``) and a spec named by its
text, every bot re-copied for every match, each match played with the seeds worked out
here with :func:`subseed`, the whole note added to a failing match's exception (two and
four players, a house profile, an executor, an exception of its own ``add_note`` and one
without it, as on Python 3.10), the head-to-head line of two bots that never met, and
Wilson bounds against closed forms and against an independent ``decimal`` computation,
down to the exact arithmetic taken when ``games`` is too large for a float.

Everything runs in this process, where a mutant is seen: the executor is a thread pool,
and the worker processes' branch runs on a stand-in for ``ProcessPoolExecutor`` (threads
too) that logs how it was made and shut down.
"""

from __future__ import annotations

import decimal
import re
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from decimal import Decimal
from fractions import Fraction
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chkobba import TUNISIAN, ChkobbaError, IllegalMoveError, Phase
from chkobba import arena as arena_module
from chkobba.arena import (
    MATCH_LIMIT,
    WORKER_LIMIT,
    HeadToHead,
    play_match,
    seat_bots,
    subseed,
    tournament,
    wilson_interval,
)
from chkobba.bots import GreedyBot, make_bot
from chkobba.bots import base as bots_base
from tests.helpers import long_shuffle, refusal

#: A house profile whose matches end after one deal: fast tournaments.
QUICK = attrs.evolve(TUNISIAN, name="quick", target=1)
#: The same with three players allowed.
QUICK3 = attrs.evolve(QUICK, players=(2, 3, 4))

#: How ``_add_match_note`` ends every note.
REPLAY_HOW = "with each seat's bot from spawn(seed) or BotSpec.build(seed) (other bots: a copy)"


def _expected_note(
    seed: int,
    game: int,
    entrants: tuple[int, int],
    names: tuple[str, str],
    players: int = 2,
    rules: str = "",
) -> str:
    """The note of a failed tournament match, with the seeds worked out from ``subseed``
    as the tournament's docs describe them: the shuffles' seed from the pair (lower
    entrant first) and ``game // 2``, each seat's bot from the match's own seed."""
    first, second = entrants
    pair_seed = subseed(seed, min(entrants), max(entrants), game // 2)
    bot_seed = subseed(seed, first, second, game)
    seats = []
    for seat in range(players):
        entrant = entrants[seat % 2]
        name = names[0] if entrant == first else names[1]
        # The test bots have no spawn: each match plays a copy of the one given.
        built = (
            "a copy of the bot given"
            if name in COPIED
            else f"built with seed {subseed(bot_seed, seat)}"
        )
        seats.append(f"seat {seat}: {name!r} (entrant {entrant}) {built}")
    return (
        f"in tournament match {game} ({', '.join(seats)}); to play it again: "
        f"play_match(bots, seed={pair_seed}, players={players}, dealer=0{rules}) {REPLAY_HOW}"
    )


#: The names of this file's bots without ``spawn``, which a tournament deep-copies.
COPIED = ("faulty", "diary", "liar")


def _without_seat_note(notes: object, seat: int) -> list[str]:
    """``notes`` less the one :func:`play_match` adds to a bot's error, which must name
    the faulty bot at ``seat`` (the match's move it was choosing depends on the deal)."""
    assert isinstance(notes, list)
    pattern = (
        rf"raised by bot faulty at seat {seat}, choosing the match's move \d+ \(phase (CUT|PLAY)\)"
    )
    ours = [note for note in notes if re.fullmatch(pattern, note)]
    assert len(ours) == 1, notes
    return [note for note in notes if note not in ours]


def _broke() -> RuntimeError:
    return RuntimeError("the bot broke")


class _FailsAtSeat:
    """Plays the first legal move, and raises ``make_error()`` when it is to move at
    ``seat``. It has no ``spawn``: a tournament deep-copies it for every match."""

    name = "faulty"

    def __init__(self, seat: int, make_error: Any = None) -> None:
        self.seat = seat
        self.make_error = make_error or _broke

    def choose(self, view: Any, legal: Any) -> Any:
        if view.player == self.seat:
            raise self.make_error()
        return legal[0]


class _Diary:
    """Writes down every seat it plays (in a list it holds), then plays the first move."""

    name = "diary"

    def __init__(self) -> None:
        self.diary: list[int] = []

    def choose(self, view: Any, legal: Any) -> Any:
        self.diary.append(view.player)
        return legal[0]


class _Answering:
    """Cuts, then answers every play with ``answer``."""

    name = "liar"

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0] if view.phase is Phase.CUT else self.answer


class _StaysHome:
    """A bot that cannot be pickled (its reason is its own text); ``spawn`` copies it."""

    name = "stay-at-home"

    def __reduce__(self) -> Any:
        raise TypeError("this bot stays in its process")

    def spawn(self, seed: int) -> _StaysHome:
        return _StaysHome()

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


# --- the refusals: the full text ---------------------------------------------------------


def test_the_seating_refusals_name_the_count_the_bots_and_what_is_wrong() -> None:
    one = [GreedyBot()]
    assert refusal(lambda: seat_bots(one, 2)) == "a 2-player match needs 2 bots, got 1"
    assert refusal(lambda: seat_bots(one * 3, 2)) == "a 2-player match needs 2 bots, got 3"
    assert refusal(lambda: seat_bots(one * 3, 4)) == (
        "a 4-player match needs 4 bots (or 2, seated as partners), got 3"
    )
    assert refusal(lambda: seat_bots(one * 5, 5)) == "a match has 2, 3 or 4 players, not 5"
    assert refusal(lambda: seat_bots(None, 2)) == (  # type: ignore[arg-type]
        "bots must be a collection, not None"
    )
    assert refusal(lambda: seat_bots([GreedyBot(), "greedy"], 2)) == (  # type: ignore[list-item]
        "'greedy' is not a bot: it has no choose(view, legal) method"
    )
    # play_match seats its entries the same way.
    assert refusal(lambda: play_match(["greedy"] * 3, seed=1, players=4)) == (
        "a 4-player match needs 4 bots (or 2, seated as partners), got 3"
    )


def test_an_entry_that_is_neither_a_bot_nor_a_spec_is_refused_whole() -> None:
    expected = (
        "5 is not a bot or a bot spec: it has no choose(view, legal) method, "
        "and it is not text such as 'greedy'"
    )
    assert refusal(lambda: tournament(["greedy", 5], games=1, seed=1)) == expected  # type: ignore[list-item]
    assert refusal(lambda: play_match(["greedy", 5], seed=1)) == expected  # type: ignore[list-item]


def test_the_seed_refusals_name_the_function_and_the_seed() -> None:
    assert refusal(lambda: play_match(["random", "random"], seed="x")) == (  # type: ignore[arg-type]
        "play_match: seed must be an integer, not 'x'"
    )
    assert refusal(lambda: tournament(["random", "random"], games=1, seed=1.0)) == (  # type: ignore[arg-type]
        "tournament: seed must be an integer, not 1.0"
    )
    assert refusal(lambda: tournament(["random", "random"], games=1, seed=10**5000)) == (
        "tournament: seed an integer of about 5001 digits is too large"
    )


def test_the_tournaments_refusals_are_whole() -> None:
    def refused(**arguments: Any) -> str:
        given = {"games": 1, "seed": 1, **arguments}
        bots = given.pop("bots", ["random", "greedy"])
        return refusal(lambda: tournament(bots, **given))

    assert refused(executor="dask") == "executor must be a concurrent.futures.Executor, not 'dask'"
    assert refused(workers=WORKER_LIMIT + 1) == (
        "workers must be an integer from 1 to 1,024, not 1025"
    )
    assert refused(games=0) == "games must be an integer from 1 to 1,000,000, not 0"
    assert refused(games=MATCH_LIMIT + 1) == (
        "games must be an integer from 1 to 1,000,000, not 1000001"
    )
    assert refused(rules="tunisian") == (
        "rules must be a Rules profile, not 'tunisian' (that profile is PROFILES['tunisian'])"
    )
    assert refused(bots=None) == "tournament: bots must be a collection, not None"
    assert refused(bots=["random"]) == "a tournament needs at least 2 bots, got 1"


def test_as_many_workers_as_the_limit_are_allowed() -> None:
    # One match runs in this process whatever ``workers`` says.
    result = tournament(["random", "greedy"], games=1, seed=1, workers=WORKER_LIMIT, rules=QUICK)
    assert len(result.matches) == 1


def test_the_schedule_may_hold_exactly_the_match_limit_and_no_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The limit is a million; six matches say the same of the comparison, in no time.
    monkeypatch.setattr(arena_module, "MATCH_LIMIT", 6)
    bots = ["random", "greedy", "random"]
    assert len(tournament(bots, games=2, seed=1, rules=QUICK).matches) == 6
    assert refusal(lambda: tournament(bots, games=3, seed=1, rules=QUICK)) == (
        "a tournament plays at most 6 matches; 3 games for each of 3 pairs of bots make 9 "
        "(play several tournaments)"
    )
    assert refusal(lambda: tournament([*bots, "greedy"], games=2, seed=1, rules=QUICK)) == (
        "a tournament plays at most 6 matches; 2 games for each of 6 pairs of bots make 12 "
        "(play several tournaments)"
    )
    assert refusal(lambda: tournament(bots[:2], games=7, seed=1, rules=QUICK)) == (
        "games must be an integer from 1 to 6, not 7"
    )


def test_the_wilson_refusals_quote_both_counts_and_z() -> None:
    assert refusal(lambda: wilson_interval(5, 3)) == (
        "wilson_interval: wins must be between 0 and games (3), not 5"
    )
    assert refusal(lambda: wilson_interval(-1, 10)) == (
        "wilson_interval: wins must be between 0 and games (10), not -1"
    )
    assert refusal(lambda: wilson_interval(1, 2, z=-1.0)) == (
        "wilson_interval: z must be a finite number >= 0, not -1.0"
    )


# --- a bot's illegal move --------------------------------------------------------------


@pytest.mark.parametrize(("cards", "whole"), [(20, True), (63, True), (64, False)])
def test_a_bots_long_move_is_quoted_up_to_200_characters(cards: int, whole: bool) -> None:
    move, quoted = long_shuffle(cards)
    assert len(quoted) == (3 * cards + 9 if whole else 200)
    message = refusal(lambda: play_match([_Answering(move), GreedyBot(seed=1)], seed=1, dealer=1))
    assert message == (
        f"bot liar at seat 0 chose {quoted}, which is not legal: "
        "Shuffle is not allowed in phase PLAY"
    )


def test_an_illegal_move_without_a_reason_is_named_without_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Only an engine whose legal moves and reasons disagree leaves no reason: pretend it.
    monkeypatch.setattr(bots_base, "illegal_reason", lambda state, move: None)
    with pytest.raises(IllegalMoveError) as caught:
        play_match([_Answering("7D"), GreedyBot(seed=1)], seed=1, dealer=1)
    assert str(caught.value) == "bot liar at seat 0 chose '7D', which is not legal"


# --- the bots of a tournament ----------------------------------------------------------


def test_names_are_made_unique_in_order_and_a_spec_is_named_by_its_text() -> None:
    result = tournament(["random", "random", "greedy", "random"], games=1, seed=1, rules=QUICK)
    assert [bot.name for bot in result.bots] == ["random", "random#2", "greedy", "random#3"]
    result = tournament(["ismcts:iterations=2", "random"], games=1, seed=1, rules=QUICK)
    assert [bot.name for bot in result.bots] == ["ismcts:iterations=2", "random"]


def test_every_match_plays_its_own_copy_of_a_bot_without_spawn() -> None:
    bot = _Diary()
    result = tournament([bot, "random"], games=4, seed=2, rules=QUICK)
    assert len(result.matches) == 4
    assert bot.diary == []  # deep copies played; the one given was never touched


def test_every_match_is_played_from_the_seeds_derived_for_it() -> None:
    specs = ["random", "greedy"]
    result = tournament(specs, games=4, seed=9, records=True, rules=QUICK)
    for match in result.matches:
        game = match.game
        first, second = (0, 1) if game % 2 == 0 else (1, 0)
        assert match.entrants == (first, second)
        bot_seed = subseed(9, first, second, game)
        bots = [make_bot(specs[first], seed=subseed(bot_seed, 0))]
        bots.append(make_bot(specs[second], seed=subseed(bot_seed, 1)))
        # Matches 2k and 2k + 1 share the shuffles' seed; each pair of matches its own.
        again = play_match(bots, seed=subseed(9, 0, 1, game // 2), dealer=0, rules=QUICK)
        assert match.record is not None
        assert match.record.moves == again.record.moves
    first_moves = [match.record.moves[0] for match in result.matches if match.record]
    assert first_moves[0] == first_moves[1] != first_moves[2] == first_moves[3]


# --- where the matches run -------------------------------------------------------------


class _Counting(ThreadPoolExecutor):
    """A thread pool that counts the matches given to it."""

    def __init__(self, max_workers: int) -> None:
        super().__init__(max_workers=max_workers)
        self.submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


def test_an_executor_given_runs_every_match() -> None:
    serial = tournament(["random", "greedy"], games=4, seed=3, rules=QUICK)
    with _Counting(max_workers=2) as pool:
        pooled = tournament(["random", "greedy"], games=4, seed=3, rules=QUICK, executor=pool)
    assert pool.submitted == 4
    assert pooled == serial


class _DyingPool(ThreadPoolExecutor):
    """A pool whose worker died: every match fails as a process pool's then do."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        future: Future[Any] = Future()
        future.set_exception(BrokenProcessPool("a child process terminated abruptly"))
        return future


def test_a_dead_worker_is_not_blamed_on_a_match() -> None:
    # Its note named whichever match was collected first, with a replay that replays
    # nothing: the worker's death is nobody's match.
    with _DyingPool(max_workers=1) as pool, pytest.raises(BrokenProcessPool) as caught:
        tournament(["random", "greedy"], games=2, seed=3, rules=QUICK, executor=pool)
    assert caught.value.__notes__ == [
        "a worker process of the tournament stopped unexpectedly (killed, out of memory, or"
        " failing to start: a script that plays with workers runs its tournament under"
        ' `if __name__ == "__main__":`, see docs/cluster.md)'
    ]


class _PoolStandIn(ThreadPoolExecutor):
    """In the place of ``ProcessPoolExecutor``: threads, and a log of what it was given."""

    def __init__(
        self, max_workers: int | None = None, mp_context: Any = None, initializer: Any = None
    ) -> None:
        super().__init__(max_workers=max_workers)
        self.given = (max_workers, mp_context, initializer)
        self.shutdowns: list[tuple[object, object]] = []
        self._processes: dict[int, Any] = {}  # what the tournament stops: none here

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shutdowns.append((wait, cancel_futures))
        super().shutdown(wait=wait, cancel_futures=cancel_futures)


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[_PoolStandIn]:
    """The stand-in pools the tournament makes, in order."""
    made: list[_PoolStandIn] = []

    def make(*args: Any, **kwargs: Any) -> _PoolStandIn:
        pool = _PoolStandIn(*args, **kwargs)
        made.append(pool)
        return pool

    monkeypatch.setattr(arena_module, "ProcessPoolExecutor", make)
    return made


def test_workers_run_in_a_spawned_pool_of_that_size_shut_down_after(
    pools: list[_PoolStandIn],
) -> None:
    bots = ["random", "greedy", "random"]
    serial = tournament(bots, games=2, seed=4, rules=QUICK)
    pooled = tournament(bots, games=2, seed=4, rules=QUICK, workers=3)
    assert pooled == serial
    (pool,) = pools
    workers, context, initializer = pool.given
    assert workers == 3
    assert context.get_start_method() == "spawn"
    assert initializer is arena_module._stop_matches_on_signals
    assert pool.shutdowns == [(True, False)]


def test_a_failure_in_the_pool_cancels_the_queued_matches_and_waits(
    pools: list[_PoolStandIn],
) -> None:
    with pytest.raises(RuntimeError, match="the bot broke") as caught:
        tournament([_FailsAtSeat(1), "greedy"], games=2, seed=6, rules=QUICK, workers=2)
    (pool,) = pools
    # Drops the queued matches (those this tournament submitted before an interrupt cut
    # its submissions short included) and stops the workers without waiting for theirs.
    assert pool.shutdowns == [(False, True)]
    # Game 1 seats the faulty bot at seat 1.
    assert _without_seat_note(getattr(caught.value, "__notes__", None), 1) == [
        _expected_note(6, 1, (1, 0), ("greedy", "faulty"), rules=", rules=<the quick profile>")
    ]


def test_bots_that_cannot_be_pickled_are_refused_before_any_pool(
    pools: list[_PoolStandIn],
) -> None:
    # The first match (entrants 0 and 1) holds the bot that cannot travel.
    with pytest.raises(ChkobbaError) as caught:
        tournament(["random", _StaysHome(), "greedy"], games=1, seed=1, workers=2, rules=QUICK)
    assert str(caught.value) == (
        "bot 'stay-at-home' (entrant 1) cannot be sent to worker processes (this bot stays in "
        "its process): use a bot spec, or a bot that pickles (its class defined at the top "
        "level of a module, not in a function or an interactive session)"
    )
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    assert pools == []


def test_a_bot_that_cannot_be_pickled_is_refused_whatever_its_place(
    pools: list[_PoolStandIn],
) -> None:
    """Found by the audit: only the first match's two bots were checked, so a third
    entrant that cannot travel failed in a worker, as that match's error."""
    with pytest.raises(ChkobbaError) as caught:
        tournament(["random", "greedy", _StaysHome()], games=1, seed=1, workers=2, rules=QUICK)
    assert str(caught.value) == (
        "bot 'stay-at-home' (entrant 2) cannot be sent to worker processes (this bot stays in "
        "its process): use a bot spec, or a bot that pickles (its class defined at the top "
        "level of a module, not in a function or an interactive session)"
    )
    assert pools == []


# --- the note on a failing match -------------------------------------------------------


def test_the_note_names_the_match_its_bots_and_seeds() -> None:
    # Game 0 seats the faulty bot (entrant 0) at 0; game 1, with the seats swapped, at 1.
    with pytest.raises(RuntimeError) as caught:
        tournament([_FailsAtSeat(1), "greedy"], games=4, seed=11)
    assert str(caught.value) == "the bot broke"
    assert _without_seat_note(getattr(caught.value, "__notes__", None), 1) == [
        _expected_note(11, 1, (1, 0), ("greedy", "faulty"))
    ]


def test_the_note_names_four_seats_and_a_house_profile() -> None:
    with pytest.raises(RuntimeError) as caught:
        tournament([_FailsAtSeat(3), "greedy"], games=2, seed=5, players=4, rules=QUICK)
    assert _without_seat_note(getattr(caught.value, "__notes__", None), 3) == [
        _expected_note(
            5, 1, (1, 0), ("greedy", "faulty"), players=4, rules=", rules=<the quick profile>"
        )
    ]


def test_the_note_names_the_first_bots_two_seats_with_three_players() -> None:
    # With 3 players the first bot of a match sits at seats 0 and 2: game 0 seats the
    # faulty bot (entrant 1) at seat 1.
    with pytest.raises(RuntimeError) as caught:
        tournament(["greedy", _FailsAtSeat(1)], games=2, seed=8, players=3, rules=QUICK3)
    assert _without_seat_note(getattr(caught.value, "__notes__", None), 1) == [
        _expected_note(
            8, 0, (0, 1), ("greedy", "faulty"), players=3, rules=", rules=<the quick profile>"
        )
    ]


def test_the_note_comes_from_an_executor_too() -> None:
    with ThreadPoolExecutor(max_workers=1) as pool, pytest.raises(RuntimeError) as caught:
        tournament([_FailsAtSeat(1), "greedy"], games=2, seed=11, executor=pool)
    assert _without_seat_note(getattr(caught.value, "__notes__", None), 1) == [
        _expected_note(11, 1, (1, 0), ("greedy", "faulty"))
    ]


class _OwnNotes(RuntimeError):
    """An exception whose ``add_note`` is its own: it keeps what it was given (and adds
    it to ``__notes__`` as Python 3.11's does, on 3.10 too)."""

    __notes__: list[str]

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.given: list[str] = []

    def add_note(self, note: str) -> None:
        self.given.append(note)
        self.__notes__ = [*getattr(self, "__notes__", ()), note]


def test_the_note_goes_through_the_exceptions_own_add_note() -> None:
    with pytest.raises(_OwnNotes) as caught:
        tournament([_FailsAtSeat(1, lambda: _OwnNotes("mine")), "greedy"], games=2, seed=11)
    expected = _expected_note(11, 1, (1, 0), ("greedy", "faulty"))
    assert _without_seat_note(caught.value.given, 1) == [expected]
    assert caught.value.given[0].startswith("raised by bot faulty")  # play_match's first
    assert getattr(caught.value, "__notes__", None) == caught.value.given


class _WithoutAddNote(RuntimeError):
    """An exception without ``add_note``, as every exception was before Python 3.11."""

    __notes__: list[str]

    @property
    def add_note(self) -> Any:
        raise AttributeError("add_note")


def _old_style(earlier: list[str] | None) -> _WithoutAddNote:
    error = _WithoutAddNote("old Python")
    if earlier is not None:
        error.__notes__ = list(earlier)  # how notes were added by hand before 3.11
    return error


@pytest.mark.parametrize("earlier", [None, ["the bot's own note"]])
def test_an_exception_without_add_note_gets_the_note_in_its_notes(
    earlier: list[str] | None,
) -> None:
    bot = _FailsAtSeat(1, lambda: _old_style(earlier))
    with pytest.raises(_WithoutAddNote) as caught:
        tournament([bot, "greedy"], games=2, seed=11)
    assert str(caught.value) == "old Python"
    expected = _expected_note(11, 1, (1, 0), ("greedy", "faulty"))
    notes = getattr(caught.value, "__notes__", None)
    assert _without_seat_note(notes, 1) == [*(earlier or []), expected]
    assert notes[-1] == expected  # type: ignore[index]


class _TupleNotes(RuntimeError):
    """An exception whose ``__notes__`` is a tuple, which Python 3.11's ``add_note``
    refuses with a TypeError."""


def test_an_exception_whose_notes_are_no_list_keeps_its_type_and_gets_the_note() -> None:
    """Found by the audit: ``add_note``'s TypeError replaced the bot's own error."""

    def broken() -> _TupleNotes:
        error = _TupleNotes("tuple notes")
        error.__notes__ = ("the bot's own note",)  # type: ignore[attr-defined]
        return error

    with pytest.raises(_TupleNotes) as caught:
        tournament([_FailsAtSeat(1, broken), "greedy"], games=2, seed=11)
    expected = _expected_note(11, 1, (1, 0), ("greedy", "faulty"))
    notes = getattr(caught.value, "__notes__", None)
    assert _without_seat_note(notes, 1) == ["the bot's own note", expected]
    assert notes[-1] == expected  # type: ignore[index]


# --- the lines of the table ------------------------------------------------------------


def test_two_bots_that_never_met_have_an_empty_head_to_head_line() -> None:
    result = tournament(["greedy", "random", "random"], games=2, seed=1, rules=QUICK)
    # A table put together from part of the matches (here: none between bots 1 and 2).
    part = attrs.evolve(
        result, matches=tuple(m for m in result.matches if set(m.entrants) != {1, 2})
    )
    lines = {(line.bot, line.opponent): line for line in part.head_to_head()}
    for pair in (("random", "random#2"), ("random#2", "random")):
        assert lines[pair] == HeadToHead(
            bot=pair[0],
            opponent=pair[1],
            games=0,
            wins=0,
            win_rate=0.0,
            ci_low=0.0,
            ci_high=1.0,
            points=0,
            opponent_points=0,
            deals=0,
            points_per_deal=0.0,
            opponent_points_per_deal=0.0,
        )
    assert (
        lines["greedy", "random"]
        == {(line.bot, line.opponent): line for line in result.head_to_head()}["greedy", "random"]
    )


def test_a_match_that_cannot_be_rated_is_quoted_whole() -> None:
    result = tournament(["greedy", "random"], games=2, seed=1, rules=QUICK)
    broken = attrs.evolve(result.matches[1], entrants=(1, 1), winner=0)
    assert refusal(lambda: attrs.evolve(result, matches=(result.matches[0], broken)).ratings()) == (
        "match 1 is not between two entrants, one of them the winner: entrants (1, 1), winner 0"
    )


# --- the Wilson interval ---------------------------------------------------------------


def test_the_wilson_interval_holds_the_rate_of_every_clean_sweep_and_shutout() -> None:
    """Found by the audit: rounding left the top of 6 wins of 6 at 0.9999999999999999
    (below its own win rate of 1) and the bottom of 0 of 11 at 2.8e-17, for 628 and 159
    of the game counts up to 1,999."""
    assert wilson_interval(6, 6)[1] == 1.0
    assert wilson_interval(0, 11)[0] == 0.0
    for games in range(1, 2000):
        assert wilson_interval(games, games)[1] == 1.0
        assert wilson_interval(0, games)[0] == 0.0


@given(st.integers(1, 10**9).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_the_wilson_interval_always_holds_the_win_rate(counts: tuple[int, int]) -> None:
    wins, games = counts
    low, high = wilson_interval(wins, games)
    assert 0.0 <= low <= wins / games <= high <= 1.0


@pytest.mark.parametrize("games", [5, 19, 23, 37])
def test_the_wilson_bounds_of_a_clean_sweep_and_of_no_wins(games: int) -> None:
    # Closed forms: with w = n the interval is [n / (n + z²), 1]; with w = 0, [0, z² / (n + z²)].
    # With these numbers of games the floats of centre + spread add up to
    # 1.0000000000000002: the top is clamped to 1.
    z = 1.96
    low, high = wilson_interval(games, games)
    assert low == pytest.approx(games / (games + z * z), rel=1e-12, abs=0)
    assert high == 1.0
    low, high = wilson_interval(0, games)
    assert low == 0.0
    assert high == pytest.approx(z * z / (games + z * z), rel=1e-12, abs=0)


def _wilson_decimal(wins: int, games: int, z: float) -> tuple[float, float]:
    """The Wilson interval in its textbook form, in decimal arithmetic of 200 digits:
    centre (p + z²/2n) / (1 + z²/n), half-width z √(p(1 - p)/n + z²/4n²) / (1 + z²/n)."""
    with decimal.localcontext() as context:
        context.prec = 200
        n, zed = Decimal(games), Decimal(z)  # Decimal(float) is the float's exact value
        p = Decimal(wins) / n
        shrink = 1 + zed * zed / n
        centre = (p + zed * zed / (2 * n)) / shrink
        spread = zed * (p * (1 - p) / n + zed * zed / (4 * n * n)).sqrt() / shrink
        return float(max(Decimal(0), centre - spread)), float(min(Decimal(1), centre + spread))


@pytest.mark.parametrize(
    ("wins", "games", "z"),
    [
        (10**20, 10**320, 1.96),  # a float holds neither games nor z² / games
        (10**20, 10**320, 1e10),  # z² as large as the wins
        (10**320 // 2, 10**320, 1e160),  # z² as large as the games
        (10**319, 10**320, 1e160),
        (3 * 10**25, 10**330, 5e12),
    ],
    ids=["z 1.96", "z² ~ wins", "z² ~ games, half won", "z² ~ games", "10**330 games"],
)
def test_the_wilson_bounds_past_a_floats_range_match_a_decimal_computation(
    wins: int, games: int, z: float
) -> None:
    low, high = wilson_interval(wins, games, z=z)
    expected_low, expected_high = _wilson_decimal(wins, games, z)
    assert 0 < expected_low < expected_high < 1
    assert low == pytest.approx(expected_low, rel=1e-12, abs=0)
    assert high == pytest.approx(expected_high, rel=1e-12, abs=0)


def test_the_wilson_bounds_past_a_floats_range_keep_their_clamps() -> None:
    low, high = wilson_interval(10**320, 10**320)
    assert low == pytest.approx(_wilson_decimal(10**320, 10**320, 1.96)[0], rel=1e-12, abs=0)
    assert high == 1.0
    low, high = wilson_interval(0, 10**320, z=1e160)
    assert low == 0.0
    assert high == pytest.approx(_wilson_decimal(0, 10**320, 1e160)[1], rel=1e-12, abs=0)


@pytest.mark.parametrize(
    "value",
    [
        Fraction(379077, 391664),  # 1 ulp low when the root was only rounded down
        Fraction(47086, 25815),
        Fraction(20309, 104002),
        Fraction(1, 4),  # exact roots stay exact
        Fraction(9, 10**10000),
        Fraction(10**400 + 1, 3),
    ],
)
def test_the_exact_square_root_is_correctly_rounded(value: Fraction) -> None:
    with decimal.localcontext() as context:
        context.prec = 100
        root = (Decimal(value.numerator) / Decimal(value.denominator)).sqrt()
    assert arena_module._sqrt(value) == float(root)
