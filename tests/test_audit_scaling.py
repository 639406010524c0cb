"""What an audit of the APIs' scaling found (stop 54), each fixed with its test here.

The costs are counted (calls of the costly part), never timed: a test's result must not
depend on the machine's speed.

- A view checked at every move (``legal_moves(view)``, ``Game.play(text, seat=...)``,
  ``parse_move(text, view)``, ``view.to_dict()``) checked every deal score of the match
  again each time: a whole match played through views was quadratic in its deals (3.4 ms a
  call after 700 deals). A deal score found sound is now remembered, by identity, for as
  long as it lives: the states of a match share the scores of its earlier deals.
- ``Game.deal()`` went through every move of the match to find the shuffles played (so
  that a restarted generator deals no order twice): quadratic over a long match, 63% of
  a 755-deal game's time. The game keeps the shuffles played as moves come and go.
- ``chkobba simulate --records`` kept every record in memory while it wrote it: the
  tournament's ``records="stream"`` gives each record to ``on_match`` only.
- ``Record.final()`` and a verified load kept every state of the match to give the last.
- Every move read from text was a new ``Play``: lays and single captures are now shared.

Stop 55:

- ``chkobba replay``/``analyse --game N`` read every record of a file of records, and
  kept them all, to give one; and every record file was read through
  ``file.read(FILE_LIMIT + 1)``, which sets 256 MiB aside first. Records are now read
  one at a time up to the one chosen, and files a chunk at a time.
"""

from __future__ import annotations

import contextlib
import gc
import io
import random
import tracemalloc
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import attrs
import pytest

from chkobba import (
    TUNISIAN,
    ChkobbaError,
    Phase,
    Play,
    Record,
    RecordError,
    apply,
    check_state,
    checks,
    legal_moves,
    new_match,
    observe,
    parse_move,
    random_shuffle,
)
from chkobba.arena import play_match, tournament
from chkobba.cli.replay import load_record
from chkobba.game import Game
from chkobba.records import read_at_most
from chkobba.rollouts import rollout

LONG = attrs.evolve(TUNISIAN, target=200)


def _late_state(deals: int, seed: int = 1) -> Any:
    """A state of a long match after ``deals`` scored deals, a play to make."""
    rng = random.Random(seed)
    state = new_match(rules=LONG)
    while len(state.deal_scores) < deals:
        state = rollout(state, rng)
    while state.phase is not Phase.PLAY:
        chance = state.phase is Phase.SHUFFLE
        state = apply(state, random_shuffle(rng) if chance else rng.choice(legal_moves(state)))
    return state


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many deal scores the checks looked at, field by field."""
    seen: list[int] = []
    original = checks._deal_score

    def counting(name: str, score: Any, sides: int) -> Any:
        seen.append(id(score))
        return original(name, score, sides)

    monkeypatch.setattr(checks, "_deal_score", counting)
    return seen


def test_a_views_deal_scores_are_checked_once_not_at_every_move(counted: list[int]) -> None:
    state = _late_state(30)
    for _ in range(5):
        legal_moves(observe(state, state.current_player))
    later = apply(state, legal_moves(state)[0])
    legal_moves(observe(later, later.current_player))  # type: ignore[arg-type]
    # 30 scores, each checked once, whatever the number of views and moves.
    assert len(counted) == len(set(counted)) == 30


def test_a_score_is_checked_again_for_another_number_of_sides(counted: list[int]) -> None:
    state = _late_state(3)
    check_state(state)
    score = state.deal_scores[0]
    three = attrs.evolve(LONG, players=(2, 3))
    other = attrs.evolve(state, rules=three, players=3, deal_scores=(score,))
    problems = list(checks._seats(other))  # every problem of the seats' part, not the first
    assert "deal_scores[0].chkobbas must be 3 whole numbers >= 0, one per side" in problems[-1]
    assert counted.count(id(score)) == 2  # sound for 2 sides, looked at again for 3


def test_a_broken_copy_of_a_sound_score_is_still_refused() -> None:
    state = _late_state(3)
    check_state(state)
    broken = attrs.evolve(state.deal_scores[0], points=(9, 9))
    with pytest.raises(ChkobbaError, match=r"deal_scores\[0\]\.points \(9, 9\) are not"):
        check_state(attrs.evolve(state, deal_scores=(broken, *state.deal_scores[1:])))


def test_a_freed_score_is_forgotten() -> None:
    state = _late_state(2, seed=5)
    check_state(state)
    keys = {id(score) for score in state.deal_scores}
    assert keys <= set(checks._SOUND)
    assert id(state.deal_scores[-1]) in checks._SOUND_RUNS  # the match's run of scores
    del state
    gc.collect()
    assert not keys & set(checks._SOUND)
    assert not keys & set(checks._SOUND_RUNS)


class _EqualToAll:
    """Not a deal score, but equal to anything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


def test_a_run_of_sound_scores_vouches_for_those_very_scores_only() -> None:
    # The run was first matched by equality, and an equal score need not be sound:
    # float points (1.0 == 1), a bool count, objects equal to anything were accepted
    # once the true state had been checked, refused before (review 78G). Identity only.
    state = _late_state(3, seed=7)
    first = state.deal_scores[0]
    forged = [
        attrs.evolve(first, points=tuple(float(p) for p in first.points)),
        attrs.evolve(first, chkobbas=tuple(bool(c) for c in first.chkobbas)),
        _EqualToAll(),
    ]
    for fake in forged:
        broken = attrs.evolve(state, deal_scores=(fake, *state.deal_scores[1:]))
        view = attrs.evolve(observe(state, 0), deal_scores=broken.deal_scores)
        for _ in range(2):
            check_state(state)  # the true run remembered
            legal_moves(observe(state, 0))
            with pytest.raises(ChkobbaError, match=r"deal_scores"):
                check_state(broken)
            with pytest.raises(ChkobbaError, match=r"deal_scores"):
                legal_moves(view)


def test_a_run_holding_its_last_score_twice_is_not_kept_alive() -> None:
    state = _late_state(1, seed=9)
    (score,) = state.deal_scores
    twice = attrs.evolve(state, deal_scores=(score, score))
    with contextlib.suppress(ChkobbaError):
        check_state(twice)
    key = id(score)
    del state, twice, score
    gc.collect()
    assert key not in checks._SOUND_RUNS


def test_the_table_of_runs_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # A caller keeping the last score of many matches keeps each match's run with it:
    # the table forgets them all when it holds _RUNS_KEPT.
    monkeypatch.setattr(checks, "_RUNS_KEPT", 4)
    kept = [_late_state(2, seed=seed) for seed in range(10)]
    for state in kept:
        check_state(state)
        assert len(checks._SOUND_RUNS) <= 4


class _CountedLookups(dict):  # type: ignore[type-arg]
    """The table of sound scores, counting the lookups of one score in it."""

    lookups = 0

    def get(self, *args: Any) -> Any:
        _CountedLookups.lookups += 1
        return super().get(*args)


def test_a_views_checks_go_through_the_matchs_scores_once_not_once_a_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each score was remembered as sound, but every check still went through all of
    # them in Python: a match played through views was quadratic in its deals (review
    # 78B: 651 microseconds a legal_moves(view) after 3,000 deals, 34 after 10). The run
    # of scores is remembered whole: a check looks one score up when a deal adds it.
    state = _late_state(40)
    table = _CountedLookups(checks._SOUND)
    monkeypatch.setattr(checks, "_SOUND", table)
    _CountedLookups.lookups = 0
    rng, deals = random.Random(3), len(state.deal_scores)
    while len(state.deal_scores) < deals + 3:
        if state.current_player is not None and state.phase is not Phase.SHUFFLE:
            legal_moves(observe(state, state.current_player))
        chance = state.phase is Phase.SHUFFLE
        state = apply(state, random_shuffle(rng) if chance else rng.choice(legal_moves(state)))
    # 40 lookups for the first check at most (none if the run was known already), then
    # one for each of the 3 deals added, over about 120 checks.
    assert _CountedLookups.lookups <= 40 + 3


class _CountedMoves(list):  # type: ignore[type-arg]
    """A game's list of moves that counts how often it is gone through."""

    walks = 0

    def __iter__(self) -> Any:
        _CountedMoves.walks += 1
        return super().__iter__()


def test_a_deal_does_not_go_through_the_matchs_moves() -> None:
    game, rng = Game(seed=3, rules=LONG), random.Random(2)
    game._moves = _CountedMoves(game._moves)
    while len(game.state.deal_scores) < 12:
        if game.state.is_chance:
            game.deal()
        else:
            game.play(rng.choice(game.legal_moves))
    assert _CountedMoves.walks == 0


def test_an_undone_shuffle_may_be_dealt_again() -> None:
    # A generator started again (as Game.from_record's with the match's seed) draws the
    # same orders: one still played is passed over (tests/test_game.py), and one undone
    # is no longer played, so it may come again.
    game = Game(seed=7)
    game.deal()
    first = game.moves[0]
    game.undo()
    game._rng = random.Random(7)  # started again: its first draw is the undone deal's
    game.deal()
    assert game.moves == (first,)


# --- records streamed to on_match -----------------------------------------------------


def test_streamed_records_reach_on_match_and_are_not_kept() -> None:
    """``simulate --records`` kept every record in memory while writing it (19 kB a
    match): with ``records="stream"`` the result's summaries hold none, and nothing else
    keeps one once ``on_match`` has had it."""
    seen: list[Any] = []
    alive: list[Any] = []

    def on_match(summary: Any) -> None:
        seen.append(summary.record.to_json(compact=True))
        alive.append(weakref.ref(summary.record))

    streamed = tournament(
        ["greedy", "random"], games=6, seed=2, records="stream", on_match=on_match
    )
    kept = tournament(["greedy", "random"], games=6, seed=2, records=True)
    assert seen == [match.record.to_json(compact=True) for match in kept.matches]  # type: ignore[union-attr]
    assert all(match.record is None for match in streamed.matches)
    assert streamed.matches == tuple(attrs.evolve(m, record=None) for m in kept.matches)
    gc.collect()
    assert [ref() for ref in alive] == [None] * 6


def test_streamed_records_need_on_match() -> None:
    with pytest.raises(ChkobbaError) as caught:
        tournament(["greedy", "random"], games=1, seed=1, records="stream")
    assert str(caught.value) == (
        "tournament: records='stream' gives every record to on_match, and there is none"
    )


def test_streamed_records_are_let_go_while_an_executor_runs() -> None:
    # A finished future holds its result: the tournament lets go of each once reported,
    # so that records do not pile up while a long run goes on.
    alive: list[Any] = []
    most_alive: list[int] = []

    def on_match(summary: Any) -> None:
        most_alive.append(sum(ref() is not None for ref in alive))
        alive.append(weakref.ref(summary.record))

    with ThreadPoolExecutor(max_workers=2) as pool:
        result = tournament(
            ["greedy", "random"],
            games=12,
            seed=3,
            records="stream",
            executor=pool,
            on_match=on_match,
        )
    assert len(result.matches) == 12
    assert max(most_alive) <= 2, most_alive  # (the last one or two may still be in hand)
    gc.collect()
    assert [ref() for ref in alive] == [None] * 12


# --- a record checked without keeping its states ----------------------------------------


def _long_record() -> Record:
    result = play_match(["random", "random"], seed=4, rules=attrs.evolve(TUNISIAN, target=120))
    assert len(result.record.moves) > 1500
    return result.record


def _peak(function: Any) -> int:
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_final_and_a_verified_load_hold_one_state_at_a_time() -> None:
    """``Record.final()`` and ``from_json`` (which checks every move) built the tuple of
    every state of the match (about 850 bytes a move) to keep the last one."""
    record = _long_record()
    text = record.to_json()
    every_state = _peak(record.replay)
    assert record.final() == record.replay()[-1]
    assert _peak(record.final) * 10 < every_state
    loaded = _peak(lambda: Record.from_json(text, verify=False))
    assert _peak(lambda: Record.from_json(text)) < loaded + every_state // 4
    with pytest.raises(RecordError, match=r"move 2 \(index 1\)"):
        attrs.evolve(record, moves=(record.moves[0], record.moves[0])).final()


# --- moves read from text share the common plays ----------------------------------------


def test_lays_and_single_captures_read_from_text_are_shared() -> None:
    """Each move read from a record was a new ``Play`` (and a new frozenset for its
    capture): 1,000 records took 50 MB. A lay or a single capture, most of a match's
    moves, is now the one the engine lists as legal."""
    assert parse_move("AS") is parse_move("as") == Play("AS")  # one object, equal to a new one
    single = parse_move("QH x 2D")
    assert single is parse_move("QH x 2D") and single == Play("QH", "2D")
    assert parse_move("QH x 2D+6S") == Play("QH", "2D 6S")  # a sum: built each time
    record = _long_record()
    loaded = Record.from_json(record.to_json(), verify=False)
    plays = [move for move in loaded.moves if isinstance(move, Play) and len(move.capture) < 2]
    assert len({id(move) for move in plays}) < len(plays) // 2
    state = loaded.start()
    for move in loaded.moves[:200]:
        if isinstance(move, Play) and len(move.capture) < 2:
            assert any(move is legal for legal in legal_moves(state))
        state = apply(state, move)


def test_the_moves_a_rollout_lists_share_the_lays_and_single_captures() -> None:
    # rollout(..., moves=a_list) built a Play and a frozenset for every move: 315 bytes a
    # move kept, against 69 for the moves legal_moves lists (review 78B). Its lays and
    # single captures are the engine's own, as parse_move's are.
    moves: list[Any] = []
    rng = random.Random(8)
    first = rollout(new_match(), rng, until="match", moves=moves)
    plays = [move for move in moves if isinstance(move, Play) and len(move.capture) < 2]
    assert len(plays) > 200
    assert all(move is parse_move(str(move)) for move in plays)
    state = new_match()
    for move in moves:
        if isinstance(move, Play) and len(move.capture) < 2:
            assert any(move is legal for legal in legal_moves(state))
        state = apply(state, move)
    assert state == first


# --- a file of records read one record at a time ----------------------------------------


def _records_file(tmp_path: Any, games: int = 6) -> Any:
    table = tournament(["greedy", "random"], games=games, seed=5, records=True)
    path = tmp_path / "matches.jsonl"
    lines = [match.record.to_json(compact=True) for match in table.matches]  # type: ignore[union-attr]
    path.write_text("\n".join(lines[:3]) + "\n\n" + "\n".join(lines[3:]) + "\n", encoding="utf-8")
    return path


def test_iter_lines_gives_what_load_lines_gives_one_at_a_time(tmp_path: Any) -> None:
    """``Record.load_lines`` holds every record of the file (about 18 kB each, once
    read): ``Record.iter_lines`` gives them one by one, for datasets too large to hold."""
    path = _records_file(tmp_path)
    assert tuple(Record.iter_lines(path)) == Record.load_lines(path)
    assert tuple(Record.iter_lines(str(path), verify=False)) == Record.load_lines(path)
    alive = []
    for record in Record.iter_lines(path):
        alive.append(weakref.ref(record))
        del record
        gc.collect()
        assert sum(ref() is not None for ref in alive) <= 1  # the last one, if any


def test_iter_lines_checks_its_arguments_at_once_and_names_a_bad_line(tmp_path: Any) -> None:
    with pytest.raises(ChkobbaError, match="verify must be True or False"):
        Record.iter_lines(tmp_path / "x.jsonl", verify="yes")  # type: ignore[arg-type]
    with pytest.raises(RecordError):
        Record.iter_lines(5)  # type: ignore[arg-type]
    path = _records_file(tmp_path)
    with path.open("a", encoding="utf-8") as out:
        out.write("not a record\n")
    records = Record.iter_lines(path)
    given = [next(records) for _ in range(6)]
    assert given == list(Record.load_lines(_records_file(tmp_path)))
    with pytest.raises(RecordError, match=r"matches\.jsonl', line 8: "):
        next(records)


# --- replay and analyse --game N keep only the record chosen (stop 55) --------------------


def _many_records(tmp_path: Any, copies: int) -> Any:
    """A file of ``copies`` times the six records of :func:`_records_file`."""
    text = _records_file(tmp_path).read_text("utf-8")
    path = tmp_path / f"many{copies}.jsonl"
    path.write_text(text * copies, encoding="utf-8")
    return path


def test_replay_and_analyse_keep_only_the_game_chosen(tmp_path: Any) -> None:
    """``chkobba replay``/``analyse --game N`` read every record of the file and kept them
    all (69 MB for a file of 2,000 matches, 28 MB now) to give one."""
    few, many = _many_records(tmp_path, 2), _many_records(tmp_path, 20)
    wanted = Record.load_lines(few)[-1]
    assert load_record(str(few), "few", 12) == wanted == load_record(str(many), "many", 120)
    one = _peak(lambda: load_record(str(few), "few", 12))
    assert _peak(lambda: load_record(str(many), "many", 120)) < one * 1.5
    assert one < 1024 * 1024  # a record is tens of kB, nothing near the file's bound
    with pytest.raises(ChkobbaError, match=r"'many' holds 120 records: there is no game 121"):
        load_record(str(many), "'many'", 121)
    with pytest.raises(ChkobbaError, match=r"'few' holds 12 records, one per line: choose"):
        load_record(str(few), "'few'", None)


def test_replay_stops_reading_at_the_game_chosen(tmp_path: Any) -> None:
    """The lines after game N are not read: a file being written, or broken further on,
    gives its first games."""
    path = _records_file(tmp_path)
    sixth = Record.load_lines(path)[5]
    with path.open("a", encoding="utf-8") as out:
        out.write("not a record\n")
    assert load_record(str(path), "'m'", 6) == sixth
    with pytest.raises(ChkobbaError, match=r"'m', line 8: "):
        load_record(str(path), "'m'", 7)


@pytest.mark.parametrize("lines", [False, True])
def test_a_small_record_file_is_read_without_setting_aside_the_files_bound(
    tmp_path: Any, lines: bool
) -> None:
    """``file.read(FILE_LIMIT + 1)`` set aside 256 MiB before reading a record of a few
    kB (``Record.load``, and ``replay`` of a record saved over several lines)."""
    record = Record.load_lines(_records_file(tmp_path))[0]
    path = tmp_path / "one.json"
    if lines:
        path.write_text("\n" + record.to_json(compact=True) + "\n", encoding="utf-8")
    else:
        record.save(path)
    assert _peak(lambda: Record.load(path, verify=False)) < 4 * 1024 * 1024
    assert _peak(lambda: load_record(str(path), "'one'")) < 4 * 1024 * 1024
    assert load_record(str(path), "'one'") == record == Record.load(path)


def test_read_at_most_reads_up_to_its_bound_a_chunk_at_a_time() -> None:
    data = bytes(range(256)) * 9000  # 2.2 MiB: three chunks
    assert read_at_most(io.BytesIO(data), len(data) + 1) == data
    assert read_at_most(io.BytesIO(data), 1_500_000) == data[:1_500_000]
    assert read_at_most(io.BytesIO(data), 0) == b""
    assert read_at_most(io.BytesIO(b""), 10) == b""
