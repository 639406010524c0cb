"""Stop 75's reviews (portability, files going wrong): each test fails on the code before
its fix."""

from __future__ import annotations

import io
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from chkobba import TUNISIAN, Record, RecordError, Rules
from chkobba._files import write_atomically
from chkobba.cli import main
from chkobba.errors import ChkobbaError, shown, shown_path
from tests.helpers import run_cli

# --- a Windows path in a message reads as it was typed ------------------------------------

WINDOWS = "C:\\Users\\me\\match.json"
#: Names with a backslash, and symbolic links, as POSIX file systems take them.
_POSIX_NAMES = pytest.mark.skipif(sys.platform == "win32", reason="a POSIX file name")
#: A device that is always full (Linux has it; macOS has none).
_FULL_DEVICE = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")


def test_a_windows_path_is_quoted_with_single_backslashes() -> None:
    assert shown(WINDOWS) == "'C:\\\\Users\\\\me\\\\match.json'"  # as Python writes it
    assert shown_path(WINDOWS) == "'C:\\Users\\me\\match.json'"
    assert shown_path(Path("plain.json")) == "'plain.json'"


@pytest.mark.parametrize(
    "name",
    [
        "a\\b\n",  # a control character: its escape must stay apart from the backslashes
        'it\'s "x"\\y',  # both quotes: repr escapes one of them
        "a\\b\u200b",  # a zero-width space, escaped by repr
        "a\\b\ufe0f",  # a combining mark, escaped by shown
    ],
)
def test_a_path_needing_other_escapes_keeps_its_backslashes_doubled(name: str) -> None:
    assert shown_path(name) == shown(name)


def test_a_long_path_is_cut_as_shown_cuts_it() -> None:
    name = "C:\\" + "d\\" * 150
    assert len(shown_path(name)) <= 200
    assert shown_path(name).startswith("'C:\\d\\d\\")
    assert shown_path(name).endswith("…")


@_POSIX_NAMES
def test_record_load_names_a_file_with_a_backslash_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "a\\b.json"  # a file name may hold a backslash on Linux and macOS
    path.write_bytes(b"")
    with pytest.raises(RecordError) as caught:
        Record.load(path)
    assert f"'{path}'" in str(caught.value)


@_POSIX_NAMES
def test_rules_load_names_a_file_with_a_backslash_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "house\\rules.json"
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(ChkobbaError) as caught:
        Rules.load(path)
    assert f"'{path}'" in str(caught.value)


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["replay", WINDOWS], "cannot read 'C:\\Users\\me\\match.json'"),
        (["demo", "--rules", WINDOWS], "'C:\\Users\\me\\match.json' is neither a rule profile"),
    ],
)
def test_the_command_names_a_windows_path_as_typed(
    command: list[str],
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO())
    try:
        status = main(command)
    except SystemExit as refused:  # the parser refuses --rules
        status = refused.code
    assert status in (1, 2)
    assert said in capsys.readouterr().err


# --- a saved file's bytes are what was given, on Windows too -------------------------------

_FAKE_BINARY = 1 << 29  # no flag of this machine's open(): stands for Windows' O_BINARY


def test_a_save_opens_its_file_in_binary_mode_where_the_system_has_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flags: list[int] = []
    real_open = os.open

    def opening(path: str, flag: int, mode: int = 0o777) -> int:
        flags.append(flag)
        return real_open(path, flag & ~_FAKE_BINARY, mode)

    monkeypatch.setattr(os, "O_BINARY", _FAKE_BINARY, raising=False)
    monkeypatch.setattr(os, "open", opening)
    write_atomically(tmp_path / "a.json", b"{}\n")
    TUNISIAN.save(tmp_path / "rules.json")
    assert len(flags) == 2
    assert all(flag & _FAKE_BINARY for flag in flags)
    assert (tmp_path / "a.json").read_bytes() == b"{}\n"


# --- files going wrong ----------------------------------------------------------------------

_SIMULATE = ("simulate", "--games", "2", "--bots", "greedy", "random", "--records")


def test_a_record_cut_short_is_told_at_its_column_once(tmp_path: Path) -> None:
    line = Record(players=2, dealer=0, moves=()).to_json(compact=True)
    path = tmp_path / "cut.jsonl"
    path.write_text(line[:-20] + "\n", encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        Record.load_lines(path)
    assert str(caught.value).endswith("not valid JSON: Unterminated string starting at column 416")


@_FULL_DEVICE
def test_a_save_to_a_full_device_names_the_file() -> None:
    with pytest.raises(OSError) as caught:
        TUNISIAN.save("/dev/full")
    assert caught.value.filename == "/dev/full"


def test_a_save_to_no_name_is_refused_as_open_refuses_it() -> None:
    with pytest.raises(FileNotFoundError):  # was IsADirectoryError: '' read as this folder
        TUNISIAN.save("")


def test_a_save_refused_by_its_folder_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_open = os.open

    def refusing(path: str, flag: int, mode: int = 0o777) -> int:
        if path.endswith(".tmp"):  # the folder refuses a new file; the file is writable
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, flag, mode)

    monkeypatch.setattr(os, "open", refusing)
    with pytest.raises(PermissionError) as caught:
        TUNISIAN.save(tmp_path / "rules.json")
    assert caught.value.filename == str(tmp_path / "rules.json")
    assert f"a save first writes a new file in '{tmp_path}'" in str(caught.value)


def test_a_rule_profile_given_a_record_names_what_the_file_is(tmp_path: Path) -> None:
    path = tmp_path / "rec.json"
    Record(players=2, dealer=0, moves=()).save(path)
    with pytest.raises(ChkobbaError, match="is a 'chkobba-record' file, not a rule profile"):
        Rules.load(path)


def test_a_rule_profile_given_a_file_of_records_names_what_it_holds(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"  # what simulate --records writes
    line = Record(players=2, dealer=0, moves=()).to_json(compact=True)
    path.write_text(f"{line}\n{line}\n", encoding="utf-8")
    with pytest.raises(ChkobbaError, match="holds 'chkobba-record' lines, not a rule profile"):
        Rules.load(path)


@_FULL_DEVICE
def test_simulate_names_the_records_file_when_its_writes_fail() -> None:
    code, _, err = run_cli(*_SIMULATE, "/dev/full")
    assert code == 1
    assert "cannot write records to '/dev/full': No space left on device" in err


@_POSIX_NAMES
def test_simulate_says_a_link_loop_is_one(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    path = str(tmp_path / "a")
    code, _, err = run_cli(*_SIMULATE, path)
    assert code == 1
    assert "Too many levels of symbolic links" in err
    assert "--force" not in err


_HOLD = """
import fcntl, sys
held = open(sys.argv[1], "a")
fcntl.lockf(held.fileno(), fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


@pytest.mark.out_of_process
@pytest.mark.skipif(sys.platform == "win32", reason="no advisory locks on Windows")
def test_simulate_refuses_a_records_file_another_run_writes(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    path.write_text("old\n", encoding="utf-8")
    other = subprocess.Popen(  # another run, writing to the file
        [sys.executable, "-c", _HOLD, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert other.stdout is not None and other.stdout.readline() == "held\n"
        code, _, err = run_cli(*_SIMULATE, str(path), "--force")
    finally:
        other.communicate("")
    assert code == 1
    assert "another run is writing to it" in err
    assert path.read_text(encoding="utf-8") == "old\n"  # left as it was
    code, _, _ = run_cli(*_SIMULATE, str(path), "--force")
    assert code == 0  # once the other run is done
    assert len(Record.load_lines(path)) == 2


@pytest.mark.skipif(sys.platform == "win32", reason="no advisory locks on Windows")
def test_a_job_wrapped_in_flock_on_its_records_file_runs(tmp_path: Path) -> None:
    import fcntl

    path = tmp_path / "out.jsonl"  # as `flock out.jsonl chkobba simulate ... out.jsonl`
    with open(path, "a", encoding="utf-8") as wrapper:
        fcntl.flock(wrapper.fileno(), fcntl.LOCK_EX)
        code, _, err = run_cli(*_SIMULATE, str(path), "--force")
    assert (code, err) == (0, "")
    assert len(Record.load_lines(path)) == 2


def test_a_run_refused_by_the_lock_leaves_the_file_it_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chkobba.cli import simulate
    from chkobba.cli.replay import CommandError

    def taken(stream: object, path: str) -> None:  # another run took it in the meantime
        raise CommandError(f"cannot write records to '{path}': another run is writing to it")

    monkeypatch.setattr(simulate, "_lock", taken)
    path = tmp_path / "new.jsonl"
    code, _, err = run_cli(*_SIMULATE, str(path))
    assert code == 1 and "another run" in err
    assert path.exists()  # the other run's file now: removing it lost its records


def test_an_idle_worker_of_a_living_parent_takes_sigterm_as_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from chkobba import arena

    monkeypatch.setattr(arena, "_worker_stopping", False)
    monkeypatch.setattr(arena, "_worker_in_match", False)
    monkeypatch.setattr(arena, "_worker_orphaned", False)
    arena._worker_interrupted(signal.SIGTERM, None)  # the pool ends it: leaving broke the pool
    assert arena._worker_stopping
    monkeypatch.setattr(arena, "_worker_orphaned", True)
    with pytest.raises(SystemExit):  # no parent left to end it
        arena._worker_interrupted(signal.SIGTERM, None)


_ORPHAN = """
import multiprocessing
from chkobba.arena import tournament

def progress(done, total):
    if done == 1:
        print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)

if __name__ == "__main__":
    tournament(["greedy", "random"], games=20000, seed=1, workers=2, progress=progress)
"""


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            return not any(line.startswith("State:\tZ") for line in status)
    except FileNotFoundError:
        return False


@pytest.mark.out_of_process
@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_the_workers_of_a_killed_tournament_end_too(tmp_path: Path) -> None:
    script = tmp_path / "orphan.py"
    script.write_text(_ORPHAN, encoding="utf-8")
    parent = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    workers = [int(pid) for pid in parent.stdout.readline().split()]  # type: ignore[union-attr]
    assert len(workers) == 2
    parent.kill()  # nothing can stop its workers now but themselves
    parent.wait()
    parent.stdout.close()  # type: ignore[union-attr]
    deadline = time.monotonic() + 20
    while any(map(_running, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if _running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "the workers outlived their killed parent"


# --- time ------------------------------------------------------------------------------------


def test_the_progress_bar_estimates_the_time_left_of_slow_matches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("rich")
    import rich.progress

    from chkobba.cli.output import Output

    bars: list[rich.progress.Progress] = []

    class Kept(rich.progress.Progress):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            bars.append(self)

    monkeypatch.setattr(rich.progress, "Progress", Kept)
    out = Output(io.StringIO(), colour=True)
    assert out.rich is not None
    now = [1000.0]
    out.rich.get_time = lambda: now[0]  # type: ignore[method-assign]
    with out.progress(10, "playing matches") as advance:
        (bar,) = bars
        for done in range(1, 6):
            now[0] += 31.0  # a match of a search bot (rich's default kept 30 s of them)
            advance(done, 10)
        left = bar.tasks[0].time_remaining
        assert left is not None and abs(left - 5 * 31.0) < 1.0
        assert any(isinstance(c, rich.progress.TimeElapsedColumn) for c in bar.columns)


def _first_choice(seed: int) -> tuple[Any, tuple[Any, ...]]:
    """A 2-player view at the first play of a match with more than one legal move."""
    from chkobba import legal_moves, observe

    state = _first_choice_state(seed)
    return observe(state, state.mover), legal_moves(state)


def _first_choice_state(seed: int) -> Any:
    from chkobba import Phase, apply, legal_moves, new_match, random_shuffle

    rng = random.Random(seed)
    state = new_match(2)
    while True:
        if state.phase is Phase.SHUFFLE:
            state = apply(state, random_shuffle(rng))
            continue
        legal = legal_moves(state)
        if state.phase is Phase.PLAY and len(legal) > 1:
            return state
        state = apply(state, legal[0])


@pytest.mark.parametrize("name", ["ismcts", "expert"])
def test_a_timed_decision_counts_reading_the_opponent_in_its_time(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chkobba.bots import base
    from chkobba.bots.registry import make_bot

    now = [0.0]
    monkeypatch.setattr(base, "clock", lambda: now[0])
    bot = make_bot(f"{name}:inference=2,seconds=1")
    observe = bot._model.observe  # type: ignore[attr-defined]

    def slow(view: object) -> None:  # reading the plays takes the whole second
        now[0] += 1.0
        observe(view)

    iterations = [0]
    iterate = bot._iterate  # type: ignore[attr-defined]

    def counted(*args: Any) -> Any:
        iterations[0] += 1
        now[0] += 0.1
        return iterate(*args)

    monkeypatch.setattr(bot._model, "observe", slow)  # type: ignore[attr-defined]
    monkeypatch.setattr(bot, "_iterate", counted)
    view, legal = _first_choice(5)
    assert bot.choose(view, legal) in legal
    assert iterations[0] == 1  # the time was up after the first (it ran ten before)
    assert "_decision" not in vars(bot)  # nothing of the decision stays on the bot


def test_a_refused_timed_choice_leaves_the_bot_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    import pickle

    from chkobba import observe
    from chkobba.bots import base
    from chkobba.bots.ismcts import ISMCTSBot

    now = [0.0]
    monkeypatch.setattr(base, "clock", lambda: now[0])
    bot = ISMCTSBot(seconds=1, seed=3)
    view, legal = _first_choice(5)
    before = pickle.dumps(bot)
    other_seat = observe(_first_choice_state(5), 1 - view.player)
    with pytest.raises(ChkobbaError):
        bot.choose(other_seat, legal)  # not that seat's turn: refused
    assert pickle.dumps(bot) == before
    now[0] += 5.0  # long after: a search of its own gets a whole second
    visits = [0]
    iterate = bot._iterate

    def counted(*args: Any) -> Any:
        visits[0] += 1
        now[0] += 0.1
        return iterate(*args)

    monkeypatch.setattr(bot, "_iterate", counted)
    bot.search(view)
    assert visits[0] >= 10  # (the refused call's clock, left behind, allowed one)


def test_an_exact_endgame_counts_reading_the_opponent_in_its_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from chkobba import Phase, apply, legal_moves, new_match, observe, random_shuffle
    from chkobba.bots import base, expert

    rng = random.Random(11)
    state = new_match(2)
    while not (
        state.phase is Phase.PLAY and 0 < len(state.stock) <= 6 and len(legal_moves(state)) > 1
    ):
        if state.phase is Phase.SHUFFLE:
            state = apply(state, random_shuffle(rng))
        else:
            state = apply(state, rng.choice(legal_moves(state)))
    now = [0.0]
    monkeypatch.setattr(base, "clock", lambda: now[0])
    bot = expert.ExpertBot(endgame=12, budget=10**6, inference=2, seconds=1)
    observe_plays = bot._model.observe

    def slow(view: object) -> None:
        now[0] += 1.0  # reading the plays takes the whole second
        observe_plays(view)

    samples = [0]
    solve = expert.Solver.move_values

    def counted(solver: Any, sample: Any) -> Any:
        samples[0] += 1
        now[0] += 0.1
        return solve(solver, sample)

    monkeypatch.setattr(bot._model, "observe", slow)
    monkeypatch.setattr(expert.Solver, "move_values", counted)
    view = observe(state, state.mover)
    assert bot.solves(view)
    assert bot.choose(view, legal_moves(state)) in legal_moves(state)
    assert samples[0] == 1  # the time was up after the first sample (it solved ten before)


def test_a_played_match_is_dated_by_its_start(monkeypatch: pytest.MonkeyPatch) -> None:
    import datetime
    import types

    from chkobba.cli import play
    from chkobba.cli.output import Output

    today = [datetime.date(2026, 3, 8)]
    clock = types.SimpleNamespace(date=types.SimpleNamespace(today=lambda: today[0]))
    monkeypatch.setattr(play, "datetime", clock)
    match = play._Match(
        Output(io.StringIO(), colour=False), io.StringIO(), players=2, specs={}, seed=5, auto=False
    )
    today[0] = datetime.date(2026, 3, 9)  # played past midnight
    assert match.record_tags()["date"] == "2026-03-08"


# --- interpreter limits: one line, the cause named ---------------------------------------


def test_simulate_says_a_killed_worker_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures.process import BrokenProcessPool

    from chkobba.cli import simulate

    def killed(*args: object, **kwargs: object) -> object:
        raise BrokenProcessPool("A process in the process pool was terminated abruptly")

    monkeypatch.setattr(simulate, "tournament", killed)
    # (A bot's own RuntimeError, noted with its match, is no such thing: its traceback.)
    code, _, err = run_cli("simulate", "--games", "2", "--bots", "greedy", "random")
    assert code == 1
    assert err == (
        "chkobba simulate: error: a worker process stopped unexpectedly (killed? out of memory?)\n"
    )


def test_a_command_out_of_memory_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chkobba.cli import replay

    def too_big(*args: object) -> object:
        raise MemoryError

    monkeypatch.setattr(replay, "_pick", too_big)
    path = tmp_path / "one.json"
    Record(players=2, dealer=0, moves=()).save(path)
    assert run_cli("replay", str(path)) == (1, "", "chkobba replay: error: out of memory\n")


def test_workers_without_semaphores_are_named_with_the_way_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import multiprocessing.synchronize

    from chkobba.arena import tournament

    def refused(*args: object, **kwargs: object) -> None:  # AWS Lambda: no /dev/shm
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(multiprocessing.synchronize.SemLock, "__init__", refused)
    with pytest.raises(OSError) as caught:
        tournament(["greedy", "random"], games=2, seed=1, workers=2)
    assert "workers=1 plays without them" in caught.value.__notes__[-1]
    code, _, err = run_cli(
        "simulate", "--games", "2", "--bots", "greedy", "random", "--workers", "2"
    )
    assert code == 1
    assert err == (
        "chkobba simulate: error: worker processes cannot start: Function not implemented "
        "(--workers 1 plays without them)\n"
    )


@pytest.mark.out_of_process
def test_a_worker_thread_that_cannot_start_is_the_error_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import concurrent.futures.process

    from chkobba.arena import tournament

    def refused(self: object) -> None:  # a low `ulimit -u`
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(concurrent.futures.process._ExecutorManagerThread, "start", refused)
    with pytest.raises(RuntimeError, match="can't start new thread") as caught:
        tournament(["greedy", "random"], games=2, seed=1, workers=2)  # stopping it raised another
    assert "workers=1 plays without them" in caught.value.__notes__[-1]


_ROOT = Path(__file__).resolve().parent.parent
_SCRIPTS = sorted(
    path.relative_to(_ROOT).as_posix()
    for folder in ("benchmarks", "examples", "tools")
    for path in (_ROOT / folder).rglob("*.py")
    if "__doc__" in path.read_text(encoding="utf-8")
    and "ArgumentParser(" in path.read_text(encoding="utf-8")
)


@pytest.mark.parametrize("script", _SCRIPTS)
def test_every_script_helps_without_its_docstrings(
    script: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -OO script --help``: docstrings are gone, ``__doc__`` is None."""
    from tests.helpers import load_script

    try:
        module = load_script(_ROOT / script, f"_oo_{Path(script).stem}")
    except (ImportError, SystemExit) as missing:  # an optional package this run lacks
        pytest.skip(f"{script} does not load here: {missing}")
    try:
        module.__doc__ = None
        monkeypatch.setattr(sys, "argv", [script, "--help"])
        with pytest.raises(SystemExit) as exit_:
            module.main()
        assert exit_.value.code in (0, None)
        assert "usage:" in capsys.readouterr().out
    finally:
        sys.modules.pop(module.__name__, None)


def test_a_bots_own_error_in_a_match_keeps_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    from chkobba.bots.greedy import GreedyBot

    def broken(*args: object) -> object:
        raise RuntimeError("internal invariant broken")

    monkeypatch.setattr(GreedyBot, "pick", broken)
    with pytest.raises(RuntimeError, match="internal invariant broken"):
        run_cli("simulate", "--games", "2", "--bots", "greedy", "random")
