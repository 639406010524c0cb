"""A data scientist's study of tournaments: failures and interrupts with worker processes,
the note that says which match failed, ``chkobba simulate`` under SIGTERM, and
``wilson_interval`` with numpy's integers."""

from __future__ import annotations

import importlib
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from chkobba import ChkobbaError
from chkobba.arena import MatchSummary, play_match, tournament, wilson_interval
from chkobba.bots import GreedyBot
from chkobba.cli import main
from chkobba.records import Record
from tests.helpers import local_cluster

# Worker processes are spawned: they import a bot by its module, so the bots live in a
# module written to a folder on sys.path (the children inherit the parent's path).
BOTS = textwrap.dedent(
    """
    import fcntl

    from chkobba.bots import GreedyBot


    class Counted:
        '''A greedy bot that adds a line to ``counter`` for every match it is built for,
        and raises in the ``fail_at``-th match it is built for (1 = the first).'''

        name = "counted"

        def __init__(self, counter, fail_at=0, number=0, seed=0):
            self.counter, self.fail_at, self.number = counter, fail_at, number
            self.inner = GreedyBot(seed=seed)

        def spawn(self, seed):
            with open(self.counter, "a+", encoding="utf-8") as stream:
                fcntl.flock(stream, fcntl.LOCK_EX)  # one number per match, in any process
                stream.write("match\\n")
                stream.flush()
                stream.seek(0)
                number = len(stream.read().splitlines())
            return type(self)(self.counter, self.fail_at, number, seed)

        def choose(self, view, legal):
            if self.number == self.fail_at > 0:
                raise RuntimeError(f"counted bot failed in its match number {self.number}")
            return self.inner.choose(view, legal)


    class Engined:
        '''A bot that drives an engine process (``sleep``), started once per worker
        process and stopped by an exit handler, as such wrappers do; it notes each
        engine's pid and its ignored signals (``SigIgn``) in ``folder``, and raises in
        a match of ``fail_at`` or more plays.'''

        name = "engined"
        engine = None

        def __init__(self, folder, fail_at=0):
            self.folder, self.fail_at, self.plays = folder, fail_at, 0

        def choose(self, view, legal):
            import atexit, subprocess, time
            if Engined.engine is None:
                Engined.engine = subprocess.Popen(["sleep", "1000"])
                atexit.register(Engined.engine.kill)
                time.sleep(0.05)  # (exec'd by now)
                status = open(f"/proc/{Engined.engine.pid}/status").read()
                ignored = [line for line in status.splitlines() if line.startswith("SigIgn")]
                with open(f"{self.folder}/{Engined.engine.pid}", "w") as note:
                    note.write(ignored[0])
            self.plays += 1
            if self.fail_at and self.plays >= self.fail_at:
                raise RuntimeError("the engine broke")
            time.sleep(0.01)
            return legal[0]
    """
)


@pytest.fixture
def bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    pytest.importorskip("fcntl")  # the bots number their matches under a POSIX file lock
    folder = tmp_path / "bots"
    folder.mkdir()
    name = f"study_bots_{os.getpid()}_{id(tmp_path)}"
    (folder / f"{name}.py").write_text(BOTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    module = importlib.import_module(name)
    yield module
    sys.modules.pop(name, None)


#: At most this many of a tournament's 200 matches start when one of the first few fails.
LOOSE = 60


def started(counter: Path) -> int:
    return len(counter.read_text(encoding="utf-8").splitlines()) if counter.exists() else 0


# --- 1. a failure or an interrupt with workers > 1 stops the queued matches ------------


@pytest.mark.out_of_process
def test_a_failing_bot_with_two_workers_stops_the_queued_matches(bots: Any, tmp_path: Path) -> None:
    counter = tmp_path / "started.txt"
    with pytest.raises(RuntimeError, match="failed in its match number"):
        tournament([bots.Counted(str(counter), fail_at=5), "greedy"], games=200, seed=1, workers=2)
    # The old pool ran all 200 matches before the error came out; now only the matches
    # already handed to the two workers (and their short queue) run after the failure,
    # and those the workers start while the parent takes the error (a loose bound: a
    # match of greedy bots takes milliseconds, the machine may be busy).
    assert 5 <= started(counter) <= LOOSE


@pytest.mark.out_of_process
def test_an_interrupt_in_the_parent_stops_the_queued_matches(bots: Any, tmp_path: Path) -> None:
    counter = tmp_path / "started.txt"

    def interrupt(done: int, total: int) -> None:
        if done == 3:  # what Ctrl-C or `kill -INT` of the parent alone raises there
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tournament(
            [bots.Counted(str(counter)), "greedy"], games=200, seed=1, workers=2, progress=interrupt
        )
    assert 3 <= started(counter) <= LOOSE


def test_a_failure_on_an_executor_cancels_the_tournaments_futures(
    bots: Any, tmp_path: Path
) -> None:
    counter = tmp_path / "started.txt"
    with ThreadPoolExecutor(max_workers=2) as pool, pytest.raises(RuntimeError, match="failed"):
        tournament(
            [bots.Counted(str(counter), fail_at=4), "greedy"],
            games=200,
            seed=1,
            executor=pool,
        )
    # Leaving the pool's block waits for whatever was left queued: nothing, now (it was
    # 200 matches).
    assert 4 <= started(counter) <= LOOSE


# --- 2. the error says which match failed, and how to play it again --------------------


def test_a_failing_match_is_named_in_a_note_that_replays_it(bots: Any, tmp_path: Path) -> None:
    counter = tmp_path / "started.txt"
    with pytest.raises(RuntimeError) as caught:
        tournament([bots.Counted(str(counter), fail_at=6), "greedy"], games=10, seed=3)
    assert type(caught.value) is RuntimeError  # the type is unchanged
    seat_note, note = caught.value.__notes__  # play_match's, then the tournament's
    assert re.fullmatch(
        r"raised by bot counted at seat 1, choosing the match's move \d+ \(phase (CUT|PLAY)\)",
        seat_note,
    )
    assert "in tournament match 5 " in note and "'counted' (entrant 0)" in note
    # The note's seeds play the match again: the same moves as the tournament's match 5
    # with a bot that does not fail.
    seeds = [int(seed) for seed in re.findall(r"built with seed (\d+)", note)]
    match_seed = int(re.search(r"play_match\(bots, seed=(\d+), players=2, dealer=0\)", note)[1])  # type: ignore[index]
    again = play_match([GreedyBot(seed=s) for s in seeds], seed=match_seed, dealer=0)
    fine = tournament(
        [bots.Counted(str(tmp_path / "other.txt")), "greedy"], games=10, seed=3, records=True
    )
    assert fine.matches[5].record is not None
    assert again.record.moves == fine.matches[5].record.moves


@pytest.mark.out_of_process
def test_the_note_comes_back_from_worker_processes(bots: Any, tmp_path: Path) -> None:
    counter = tmp_path / "started.txt"
    with pytest.raises(RuntimeError) as caught:
        tournament([bots.Counted(str(counter), fail_at=1), "greedy"], games=2, seed=3, workers=2)
    assert any("in tournament match" in note for note in caught.value.__notes__)


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.out_of_process)])
def test_on_match_keeps_the_finished_matches_before_a_failure(
    bots: Any, tmp_path: Path, workers: int
) -> None:
    kept: list[MatchSummary] = []
    with pytest.raises(RuntimeError) as caught:
        tournament(
            [bots.Counted(str(tmp_path / "c.txt"), fail_at=7), "greedy"],
            games=20,
            seed=1,
            workers=workers,
            on_match=kept.append,
        )
    failed = int(re.search(r"in tournament match (\d+)", caught.value.__notes__[-1])[1])  # type: ignore[index]
    games = [summary.game for summary in kept]
    # In game order, every match before the failed one (serially); with workers, a prefix
    # of them (a match before it may still have been running when it failed).
    assert games == list(range(len(games)))
    assert games == list(range(6)) if workers == 1 else len(games) <= failed


@pytest.mark.out_of_process
def test_a_failure_on_a_dask_cluster_cancels_the_tournaments_futures(
    bots: Any, tmp_path: Path
) -> None:
    distributed = pytest.importorskip("distributed")
    cloudpickle = pytest.importorskip("cloudpickle")
    cloudpickle.register_pickle_by_value(bots)  # the workers cannot import the module
    counter = tmp_path / "started.txt"
    with (
        local_cluster(distributed) as cluster,
        distributed.Client(cluster) as client,
    ):
        with pytest.raises(RuntimeError, match="failed") as caught:
            tournament(
                [bots.Counted(str(counter), fail_at=4), "greedy"],
                games=200,
                seed=1,
                executor=client.get_executor(),
            )
        assert any("in tournament match" in note for note in caught.value.__notes__)
        time.sleep(0.5)  # a cancelled future that still ran would have started by now
    assert 4 <= started(counter) <= LOOSE


# --- 3. SIGTERM to `chkobba simulate --workers 2` leaves no process behind ------------------


def children(pid: int) -> set[int]:
    listed = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True
    )
    return {int(word) for word in listed.stdout.split()}


def alive(pids: set[int]) -> set[int]:
    """The processes of ``pids`` still running (a zombie, exited but not yet reaped by
    whoever adopted it, has gone)."""
    listed = subprocess.run(
        ["ps", "-o", "pid=,stat=", "-p", ",".join(map(str, pids))],
        capture_output=True,
        text=True,
        check=False,
    )
    rows = [line.split() for line in listed.stdout.splitlines() if line.strip()]
    return {int(row[0]) for row in rows if not row[1].startswith("Z")}


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.out_of_process
@pytest.mark.skipif(sys.platform != "linux", reason="ps --ppid and process signals")
def test_sigterm_shuts_simulate_and_its_workers_down(tmp_path: Path) -> None:
    records = tmp_path / "matches.jsonl"
    command = [sys.executable, "-m", "chkobba", "simulate", "--games", "500"]
    command += ["--bots", "greedy", "random", "--workers", "2", "--records", str(records)]
    with (tmp_path / "out").open("w") as out, (tmp_path / "err").open("w") as err:
        process = subprocess.Popen(command, stdout=out, stderr=err)
    workers: set[int] = set()
    try:
        assert wait_for(lambda: records.exists() and records.stat().st_size > 0, 120)
        workers = children(process.pid)
        assert len(workers) >= 2  # the two workers (and multiprocessing's resource tracker)
        process.send_signal(signal.SIGTERM)
        status = process.wait(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert status == -signal.SIGTERM  # ended by SIGTERM as before: 143 in a shell
    # Before, the workers went on playing all 1000 matches, adopted by PID 1.
    left = set() if wait_for(lambda: not alive(workers), 30) else alive(workers)
    for pid in left:  # this test's own processes: not left behind even when it fails
        os.kill(pid, signal.SIGKILL)
    assert not left, "worker processes outlived simulate"
    text = records.read_text(encoding="utf-8")
    assert text.endswith("\n")
    lines = text.splitlines()
    assert 1 <= len(lines) < 1000
    assert [Record.from_json(line).tags["game"] for line in lines] == [
        str(game) for game in range(len(lines))
    ]
    said = (tmp_path / "err").read_text(encoding="utf-8")
    assert "Traceback" not in said
    # The resource tracker (among the children, gone now) reported the pool's semaphores
    # as leaked in about a third of such runs before (stop 73).
    assert "leaked semaphore" not in said


def test_simulate_puts_the_sigterm_handler_back(capsys: pytest.CaptureFixture[str]) -> None:
    before = signal.getsignal(signal.SIGTERM)
    assert main(["simulate", "--games", "2", "--bots", "greedy", "random", "--json"]) == 0
    assert signal.getsignal(signal.SIGTERM) == before
    assert json.loads(capsys.readouterr().out)["games"] == 2


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM cannot be raised in-process")
def test_a_second_sigterm_does_not_break_off_the_shutdown_of_the_first() -> None:
    # The first SIGTERM raises where the tournament runs; the cleanup that follows (the
    # workers' shutdown, here the finally block) runs to its end even if another comes.
    from chkobba.cli.simulate import _terminate_as_interrupt, _Terminated

    cleaned = []
    with pytest.raises(_Terminated), _terminate_as_interrupt():
        try:
            signal.raise_signal(signal.SIGTERM)
        finally:
            signal.raise_signal(signal.SIGTERM)  # before: _Terminated again, right here
            cleaned.append(True)
    assert cleaned == [True]


# --- 4. wilson_interval takes numpy's integers ---------------------------------------------


def test_wilson_interval_takes_any_integral_type_and_gives_python_floats() -> None:
    np = pytest.importorskip("numpy")
    expected = wilson_interval(3, 4)
    assert wilson_interval(np.int64(3), np.int64(4)) == expected  # type: ignore[arg-type]
    assert wilson_interval(3, np.uint16(4)) == expected  # type: ignore[arg-type]
    bounds = wilson_interval(np.int32(3), 4, z=np.float64(1.96))  # type: ignore[arg-type]
    assert bounds == expected and all(type(bound) is float for bound in bounds)
    assert all(type(b) is float for b in wilson_interval(1, 2, z=np.float32(1.0)))
    for refused in (np.float64(3.0), np.bool_(True), True, 3.0):
        with pytest.raises(ChkobbaError, match="wins must be an integer"):
            wilson_interval(refused, 4)


# --- 5. an odd number of games does not balance the seats ----------------------------------


def test_simulate_notes_that_an_odd_number_of_games_leaves_the_seats_unbalanced(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--games", "3", "--bots", "greedy", "random"]) == 0
    assert "odd --games (3)" in capsys.readouterr().err
    assert main(["simulate", "--games", "2", "--bots", "greedy", "random"]) == 0
    assert "odd" not in capsys.readouterr().err
    table = tournament(["greedy", "random"], games=3, seed=1)
    assert [match.entrants[0] for match in table.matches] == [0, 1, 0]  # 0 deals first twice


# --- 4. Ctrl-C to `chkobba simulate --workers 2` stops it and its workers at once -----------


def _busy_workers(pid: int) -> set[int]:
    """The worker processes of ``pid`` (not multiprocessing's resource tracker) once each
    has spent over a second of CPU time, which importing the package does not: by then
    every one plays a match. Empty before."""
    workers = set()
    for child in children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return set()
        if b"resource_tracker" not in command:
            workers.add(child)
            if int(fields[11]) < os.sysconf("SC_CLK_TCK"):  # its user time, in ticks
                return set()
    return workers if len(workers) == 2 else set()


@pytest.mark.out_of_process
@pytest.mark.skipif(sys.platform != "linux", reason="process groups, ps and /proc")
@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_stops_simulate_and_its_workers_at_once(tmp_path: Path, presses: int) -> None:
    # Found by a review: Ctrl-C reaches every process of the terminal's job, so each worker
    # printed a traceback, and the parent waited for the matches running (minutes with a
    # search bot: a second Ctrl-C then hung it). A worker now takes Ctrl-C as the end of
    # its match, quietly, and exits. The command runs in a process group of its own, as a
    # terminal's job does, and the signal goes to the whole group, as a terminal sends it.
    command = [sys.executable, "-m", "chkobba", "simulate", "--games", "40", "--workers", "2"]
    command += ["--bots", "greedy", "expert:seconds=1"]  # a match takes minutes
    with (tmp_path / "out").open("w") as out, (tmp_path / "err").open("w") as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, start_new_session=True)
    workers: set[int] = set()
    try:
        assert wait_for(lambda: bool(_busy_workers(process.pid)), 120)
        workers = _busy_workers(process.pid)
        for _ in range(presses):
            os.killpg(process.pid, signal.SIGINT)
            time.sleep(0.2)
        status = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        left = set() if wait_for(lambda: not alive(workers), 30) else alive(workers)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
    assert status == 130
    assert not left, "worker processes outlived simulate"
    assert (tmp_path / "err").read_text(encoding="utf-8") == "chkobba simulate: interrupted\n"


@pytest.mark.out_of_process
@pytest.mark.skipif(sys.platform != "linux", reason="/proc and process signals")
def test_a_stopped_tournament_lets_its_workers_exit_and_stop_what_they_started(
    bots: Any, tmp_path: Path
) -> None:
    # Found by a review of the change that stops the workers at once: terminated, they
    # skipped their exit handlers, so a bot's engine process outlived the tournament;
    # and SIGINT ignored in the workers passed to the engines they started. The workers
    # now stop their matches on SIGINT and exit as workers do.
    folder = tmp_path / "engines"
    folder.mkdir()
    with pytest.raises(RuntimeError, match="the engine broke"):
        tournament([bots.Engined(str(folder), fail_at=40), "greedy"], games=8, seed=1, workers=2)
    notes = {int(path.name): path.read_text() for path in folder.iterdir()}
    left = set() if wait_for(lambda: not alive(set(notes)), 30) else alive(set(notes))
    for pid in left:  # this test's own processes: not left behind even when it fails
        os.kill(pid, signal.SIGKILL)
    assert notes, "no engine started"
    assert not left, "engine processes outlived the tournament"
    for ignored in notes.values():  # SigIgn is a hexadecimal mask; SIGINT is bit 2
        assert not int(ignored.split()[1], 16) & (1 << (signal.SIGINT - 1))
