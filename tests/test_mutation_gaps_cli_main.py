"""Tests for the gaps a mutmut audit of ``chkobba simulate`` and of ``chkobba.cli.main``
found.

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to ``chkobba/cli/simulate.py`` or ``chkobba/cli/__init__.py`` that the rest of the
suite let through (tools/mutation/README.md).

``simulate``: the whole table of two bots under the default rules, and with three bots
the head-to-head cross table and the ratings under a house target; the JSON indented by
two spaces; the note of an odd ``--games``; the progress bar's description, total and
every step; bold headings on a terminal and plain text with ``--no-colour``; the records
file (every match's record in game order, an existing file refused unless ``--force``,
``/dev/null`` written without it, the default of ``run_simulate`` itself); ``--workers``
reaching the worker pool and ``--scheduler`` reaching the Dask client, whose executor
plays the matches; SIGTERM during a tournament, and ``_end_by_sigterm`` handing the
signal on (status 143 when the handler lets the process live) after flushing the
standard streams, whichever of them is closed or broken.

``main``: a closed standard output or error, Ctrl-C (130), a broken pipe (0), standard
input that is not UTF-8, output the terminal's encoding cannot write, other
input/output failures (with and without ``strerror``), a standard error that fails in
turn; what the commands' glue passes on: ``play``'s drawn seed, ``--partner``,
``--auto``, a closed or odd standard input and a non-UTF-8 line, ``analyse --seed``,
``replay``'s stepping and ``--no-step``, ``demo``'s two partnerships, ``simulate``'s
refusals of one bot and of a player count the profile does not seat.

Everything runs in this process: the worker pool and the Dask module are stand-ins made
of threads, and SIGTERM goes to a Python handler the tests install (and remove).
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import secrets
import signal
import sys
import types
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import attrs
import pytest

from chkobba import TUNISIAN, cli
from chkobba import arena as arena_module
from chkobba.arena import tournament
from chkobba.bots.analysis import review_record
from chkobba.bots.ismcts import ISMCTSBot
from chkobba.bots.registry import BotSpec
from chkobba.cli import main
from chkobba.cli import simulate as simulate_module
from chkobba.cli.analyse import UsageError, run_analyse
from chkobba.cli.output import Output
from chkobba.cli.simulate import run_simulate
from chkobba.errors import ChkobbaError, shown
from chkobba.records import Record
from tests.helpers import TypedBytes, colour_terminal, run_cli, terminal_text

#: Matches that end after one deal: fast tournaments.
QUICK = attrs.evolve(TUNISIAN, target=1)

#: ``simulate --games 2 --bots greedy random --seed 3``: the whole output.
TWO_BOTS = (
    "2 matches, 2 players, seed 3 (win rates with 95% Wilson intervals)\n"
    "bot     games  wins  win rate  95% CI          points/deal\n"
    "greedy  2      2     100.0%    34.2% - 100.0%  2.80\n"
    "random  2      0     0.0%      0.0% - 65.8%    1.20\n"
)

#: ``simulate --games 2 --bots greedy random greedy --target 1``: the whole output.
THREE_BOTS_HEADING = (
    "6 matches, 2 players, tunisian rules to 1, seed 0 (win rates with 95% Wilson intervals)"
)
HEAD_TO_HEAD_HEADING = "head to head: the row's wins against the column, of their matches"
RATINGS_HEADING = (
    "Bradley-Terry ratings on the Elo scale, mean 0 (prior: a virtual win and loss per bot)"
)
THREE_BOTS = f"""{THREE_BOTS_HEADING}
bot       games  wins  win rate  95% CI         points/deal
greedy    4      2     50.0%     15.0% - 85.0%  2.20
random    4      1     25.0%     4.6% - 69.9%   1.25
greedy#2  4      3     75.0%     30.1% - 95.4%  1.80

{HEAD_TO_HEAD_HEADING}
bot       greedy     random      greedy#2
greedy    -          1/2 (50%)   1/2 (50%)
random    1/2 (50%)  -           0/2 (0%)
greedy#2  1/2 (50%)  2/2 (100%)  -

{RATINGS_HEADING}
bot       rating  std error
greedy#2  +92     107
greedy    +0      103
random    -92     107
"""
THREE_BOTS_ARGS = ("simulate", "--games", "2", "--bots", "greedy", "random", "greedy")

ODD_NOTE = (
    "note: with an odd --games (1) the first bot of each pair holds seat 0, and deals "
    "first, in one match more than the other: an even number balances them\n"
)


class _Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class _TerminalBytes(io.BytesIO):
    """Bytes behind a text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _streams(
    monkeypatch: pytest.MonkeyPatch, *, stdout: Any, stderr: Any, stdin: Any = None
) -> None:
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(sys, "stdin", stdin if stdin is not None else io.StringIO())


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment of a plain colour terminal, so that rich colours a terminal."""
    colour_terminal(monkeypatch, columns=200)


# --- simulate: what it prints ------------------------------------------------------------


def test_two_bots_print_the_heading_and_one_table() -> None:
    assert run_cli("simulate", "--games", "2", "--bots", "greedy", "random", "--seed", "3") == (
        0,
        TWO_BOTS,
        "",
    )


def test_three_bots_add_head_to_head_and_ratings_under_a_house_target() -> None:
    assert run_cli(*THREE_BOTS_ARGS, "--target", "1") == (0, THREE_BOTS, "")


def test_json_is_indented_by_two_spaces() -> None:
    code, out, err = run_cli(
        "simulate", "--games", "1", "--bots", "greedy", "random", "--target", "1", "--json"
    )
    assert (code, err) == (0, ODD_NOTE)
    assert out == json.dumps(json.loads(out), indent=2) + "\n"
    assert out.startswith('{\n  "players": 2,\n')


def test_an_odd_games_count_adds_a_note_after_the_table() -> None:
    code, out, err = run_cli(
        "simulate", "--games", "1", "--bots", "greedy", "random", "--target", "1", "--seed", "3"
    )
    assert (code, err) == (0, ODD_NOTE)
    assert out.startswith("1 match, 2 players, tunisian rules to 1, seed 3 (win rates")


def test_headings_are_bold_on_a_terminal(terminal: None, monkeypatch: pytest.MonkeyPatch) -> None:
    out, err = _Terminal(), _Terminal()
    _streams(monkeypatch, stdout=out, stderr=err)
    assert main([*THREE_BOTS_ARGS, "--target", "1"]) == 0
    for heading in (THREE_BOTS_HEADING, HEAD_TO_HEAD_HEADING, RATINGS_HEADING):
        assert f"\x1b[1m{heading}\x1b[0m\n" in terminal_text(out.getvalue())
    assert "playing matches" in err.getvalue()  # the progress bar, on a terminal


def test_no_colour_on_a_terminal_prints_plain_text_and_no_progress_bar(
    terminal: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, err = _Terminal(), _Terminal()
    _streams(monkeypatch, stdout=out, stderr=err)
    assert main([*THREE_BOTS_ARGS, "--target", "1", "--no-colour"]) == 0
    assert (out.getvalue(), err.getvalue()) == (THREE_BOTS, "")


class _Recording(Output):
    """An error stream that logs its progress bar: how it was made and every step."""

    def __init__(self, on_step: Callable[[], None] | None = None) -> None:
        super().__init__(io.StringIO(), colour=False)
        self.bars: list[tuple[int, str]] = []
        self.steps: list[tuple[int, int]] = []
        self.on_step = on_step

    @contextlib.contextmanager
    def progress(self, total: int, description: str) -> Iterator[Any]:
        self.bars.append((total, description))

        def advance(done: int, total: int) -> None:
            self.steps.append((done, total))
            if self.on_step is not None:
                self.on_step()

        yield advance


def _simulate(err: Output, bots: list[str], games: int, **options: Any) -> tuple[int, str]:
    out = io.StringIO()
    code = run_simulate(
        Output(out, colour=False),
        err,
        specs=[BotSpec.parse(bot) for bot in bots],
        games=games,
        players=2,
        workers=1,
        seed=0,
        as_json=False,
        rules=QUICK,
        **options,
    )
    return code, out.getvalue()


def test_the_progress_bar_counts_every_match_of_every_pair() -> None:
    err = _Recording()
    assert _simulate(err, ["greedy", "random", "greedy"], 2) == (0, THREE_BOTS)
    assert err.bars == [(6, "playing matches")]
    assert err.steps == [(done, 6) for done in range(1, 7)]


# --- analyse: its progress bar -----------------------------------------------------------


def _one_deal_record(tmp_path: Path) -> tuple[Path, Record]:
    match = arena_module.play_match(["greedy", "random"], seed=2, rules=QUICK)
    path = tmp_path / "deal.json"
    match.record.save(path)
    return path, match.record


def test_a_review_reports_its_progress_after_every_move(tmp_path: Path) -> None:
    # A review searches every play: 18 s for an ordinary match, and it printed nothing
    # until the end (review 78B). review_record calls progress(done, total) after each
    # move; chkobba analyse shows it as a bar on a terminal.
    _, record = _one_deal_record(tmp_path)
    steps: list[tuple[int, int]] = []
    bot = ISMCTSBot(iterations=5, seed=0)
    reviews = review_record(record, evaluator=bot, progress=lambda *step: steps.append(step))
    total = len(record.moves)
    assert steps == [(done, total) for done in range(1, total + 1)]
    assert reviews == review_record(record, evaluator=bot)  # the same review
    with pytest.raises(
        ChkobbaError, match="review_record: progress must be a function or None, not 3"
    ):
        review_record(record, evaluator=bot, progress=3)  # type: ignore[arg-type]


def test_analyse_shows_a_progress_bar_on_a_terminal_only(
    tmp_path: Path, terminal: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, record = _one_deal_record(tmp_path)
    args = ["analyse", str(path), "--bot", "ismcts:iterations=5", "--json"]
    plain = run_cli(*args)
    out, err = _Terminal(), _Terminal()
    _streams(monkeypatch, stdout=out, stderr=err)
    assert main(args) == 0
    assert "reviewing moves" in err.getvalue()
    assert out.getvalue() == plain[1]  # standard output is the same JSON
    assert plain[2] == ""  # no bar where standard error is no terminal
    recording = _Recording()
    run_analyse(
        Output(io.StringIO(), colour=False),
        str(path),
        seat=None,
        bot=BotSpec.parse("ismcts:iterations=5"),
        seed=0,
        flagged=3,
        as_json=True,
        err=recording,
    )
    assert recording.bars == [(len(record.moves), "reviewing moves")]
    assert recording.steps[-1] == (len(record.moves), len(record.moves))


# --- simulate: the records file -----------------------------------------------------------


def _quick_records(games: int) -> list[str]:
    result = tournament(["greedy", "random"], games=games, seed=0, records=True, rules=QUICK)
    return [match.record.to_json(compact=True) for match in result.matches if match.record]


def test_records_hold_every_match_in_game_order(tmp_path: Path) -> None:
    path = tmp_path / "matches.jsonl"
    args = ("simulate", "--games", "2", "--bots", "greedy", "random", "--target", "1")
    code, out, err = run_cli(*args, "--records", str(path))
    assert (code, err) == (0, "")
    assert out.startswith("2 matches, 2 players, tunisian rules to 1, seed 0 (win rates")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert lines == _quick_records(2)


def test_an_existing_records_file_is_refused_unless_forced(tmp_path: Path) -> None:
    path = tmp_path / "kept.jsonl"
    path.write_text("yesterday's data\n", encoding="utf-8")
    args = ("simulate", "--games", "1", "--bots", "greedy", "random", "--target", "1")
    code, out, err = run_cli(*args, "--records", str(path))
    assert (code, out) == (2, "")
    message = (
        f"chkobba simulate: error: argument --records: {shown(str(path), 200)} exists: "
        "give --force to replace it, or another file name"
    )
    assert message in err
    assert path.read_text(encoding="utf-8") == "yesterday's data\n"
    assert run_cli(*args, "--records", str(path), "--force")[0] == 0
    assert path.read_text(encoding="utf-8").splitlines() == _quick_records(1)


def test_run_simulate_refuses_an_existing_records_file_by_default(tmp_path: Path) -> None:
    path = tmp_path / "kept.jsonl"
    path.write_text("kept\n", encoding="utf-8")
    with pytest.raises(UsageError, match="exists: give --force to replace it"):
        _simulate(_Recording(), ["greedy", "random"], 1, records=str(path))
    assert path.read_text(encoding="utf-8") == "kept\n"


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_records_to_a_device_need_no_force() -> None:
    code, out, err = run_cli(
        "simulate",
        "--games",
        "2",
        "--bots",
        "greedy",
        "random",
        "--target",
        "1",
        "--records",
        "/dev/null",
    )
    assert (code, err) == (0, "")
    assert out.startswith("2 matches, 2 players, tunisian rules to 1, seed 0 (win rates")


# --- simulate: where the matches run -------------------------------------------------------


class _PoolStandIn(ThreadPoolExecutor):
    """In the place of a process pool or of a Dask executor: threads, and a log."""

    def __init__(
        self, max_workers: int | None = None, mp_context: Any = None, initializer: Any = None
    ) -> None:
        super().__init__(max_workers=max_workers)
        self.max_workers = max_workers
        self.submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


def test_workers_set_the_size_of_the_worker_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    pools: list[_PoolStandIn] = []

    def make(*args: Any, **kwargs: Any) -> _PoolStandIn:
        pools.append(_PoolStandIn(*args, **kwargs))
        return pools[-1]

    monkeypatch.setattr(arena_module, "ProcessPoolExecutor", make)
    code, out, _ = run_cli(*THREE_BOTS_ARGS, "--target", "1", "--workers", "2")
    assert (code, out) == (0, THREE_BOTS)
    assert [(pool.max_workers, pool.submitted) for pool in pools] == [(2, 6)]


def test_a_scheduler_runs_the_matches_on_the_dask_client_at_that_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clients: list[dict[str, Any]] = []

    class Client:
        def __init__(self, address: str, timeout: str) -> None:
            self.pool = _PoolStandIn(max_workers=2)
            clients.append({"address": address, "timeout": timeout, "pool": self.pool})

        def __enter__(self) -> Client:
            return self

        def __exit__(self, *exc: object) -> None:
            self.pool.shutdown()
            clients[-1]["closed"] = True

        def get_executor(self) -> _PoolStandIn:
            return self.pool

    distributed = types.ModuleType("distributed")
    distributed.Client = Client  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "distributed", distributed)
    address = "tcp://scheduler.example:8786"
    code, out, _ = run_cli(*THREE_BOTS_ARGS, "--target", "1", "--scheduler", address)
    assert (code, out) == (0, THREE_BOTS)
    [client] = clients
    assert (client["address"], client["timeout"], client["closed"]) == (address, "10s", True)
    assert client["pool"].submitted == 6


# --- simulate: SIGTERM ------------------------------------------------------------------------


@pytest.fixture
def sigterms() -> Iterator[list[int]]:
    """SIGTERM goes to a Python handler that logs it (the default would end pytest)."""
    received: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: received.append(signum))
    try:
        yield received
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_end_by_sigterm_flushes_and_hands_the_signal_on(
    sigterms: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    written = io.BytesIO()
    stdout = io.TextIOWrapper(written, encoding="utf-8")
    stdout.write("the last words")
    _streams(monkeypatch, stdout=stdout, stderr=io.StringIO())
    assert written.getvalue() == b""  # still buffered
    assert simulate_module._end_by_sigterm() == 143  # the handler let the process live
    assert sigterms == [signal.SIGTERM]
    assert written.getvalue() == b"the last words"


class _BrokenPipe(io.StringIO):
    def flush(self) -> None:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")


def _closed() -> io.TextIOWrapper:
    """A closed text stream: its ``flush`` raises ``ValueError``."""
    stream = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    stream.close()
    return stream


@pytest.mark.parametrize(
    "make", [lambda: None, _closed, _BrokenPipe], ids=["closed-None", "closed", "broken-pipe"]
)
def test_end_by_sigterm_hands_the_signal_on_whatever_the_streams(
    make: Callable[[], Any], sigterms: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    _streams(monkeypatch, stdout=make(), stderr=make())
    assert simulate_module._end_by_sigterm() == 143
    assert sigterms == [signal.SIGTERM]


def test_sigterm_during_a_tournament_stops_it_and_ends_by_sigterm(
    sigterms: list[int], tmp_path: Path
) -> None:
    handler = signal.getsignal(signal.SIGTERM)
    err = _Recording(on_step=lambda: signal.raise_signal(signal.SIGTERM))
    path = tmp_path / "cut.jsonl"
    code, out = _simulate(err, ["greedy", "random"], 2, records=str(path))
    assert (code, out) == (143, "")
    assert err.steps == [(1, 2)]  # the first match, then no other
    assert sigterms == [signal.SIGTERM]  # once, to the handler that was there before
    assert signal.getsignal(signal.SIGTERM) is handler
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    assert lines == _quick_records(2)[: len(lines)]  # whole lines, none after the first match
    assert path.exists() is bool(lines)  # a file it created and wrote nothing to is removed


# --- main: streams, failures and exit statuses --------------------------------------------


def test_a_closed_standard_output_is_reported_on_standard_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    err = io.StringIO()
    _streams(monkeypatch, stdout=None, stderr=err)
    assert main(["rules"]) == 1
    assert err.getvalue() == "chkobba: error: standard output is closed\n"


def test_a_closed_standard_error_fails_without_running(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    _streams(monkeypatch, stdout=out, stderr=None)
    assert main(["rules"]) == 1
    assert out.getvalue() == ""


class _CtrlC:
    """Standard input where every line read is interrupted by Ctrl-C."""

    def readline(self, size: int = -1) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_twice_in_play_ends_with_status_130() -> None:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, _CtrlC()
    try:
        code = main(["play", "--seed", "5"])
    finally:
        sys.stdout, sys.stderr, sys.stdin = old
    assert (code, err.getvalue()) == (130, "chkobba play: interrupted\n")
    assert "Interrupted: the match stops here (Ctrl-C again quits without saving)." in (
        out.getvalue()
    )


class _FailingOutput(io.StringIO):
    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def write(self, text: str, /) -> int:
        raise self.error


def test_a_broken_pipe_ends_quietly_with_status_0(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    _streams(monkeypatch, stdout=_FailingOutput(BrokenPipeError(errno.EPIPE, "x")), stderr=err)
    assert main(["rules"]) == 0
    assert err.getvalue() == ""


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (OSError(errno.EIO, "Input/output error"), "Input/output error"),
        (OSError("the disk is gone"), "the disk is gone"),
    ],
)
def test_an_output_failure_is_one_line_with_status_1(
    error: OSError, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    err = io.StringIO()
    _streams(monkeypatch, stdout=_FailingOutput(error), stderr=err)
    assert main(["rules"]) == 1
    assert err.getvalue() == f"chkobba rules: error: input/output failed: {said}\n"


@pytest.mark.parametrize(
    ("arguments", "name"),
    [(["--help"], "chkobba"), (["--version"], "chkobba"), (["play", "--help"], "chkobba play")],
)
@pytest.mark.parametrize(
    ("error", "status", "said"),
    [
        (OSError(errno.ENOSPC, "No space left on device"), 1, "No space left on device"),
        (OSError("the disk is gone"), 1, "the disk is gone"),
        (BrokenPipeError(errno.EPIPE, "x"), 0, None),
    ],
)
def test_help_and_version_fail_as_the_commands_do_when_their_output_cannot_be_written(
    arguments: list[str],
    name: str,
    error: OSError,
    status: int,
    said: str | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # argparse ignores a failed write: `chkobba --help > /dev/full` exited 0.
    err = io.StringIO()
    _streams(monkeypatch, stdout=_FailingOutput(error), stderr=err)
    with pytest.raises(SystemExit) as stopped:
        main(arguments)
    assert stopped.value.code == status
    expected = f"{name}: error: input/output failed: {said}\n" if said else ""
    assert err.getvalue() == expected


def test_output_the_encoding_cannot_write_is_one_line_with_status_1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The commands' own text never gets here any more (tests/test_cli_encodings.py: the
    # suits as letters, the rest escaped); a write elsewhere that fails still does.
    def fails(*_: object) -> int:
        raise UnicodeEncodeError("ascii", "caf\u00e9", 3, 4, "ordinal not in range(128)")

    err = io.StringIO()
    _streams(monkeypatch, stdout=io.StringIO(), stderr=err, stdin=io.StringIO())
    monkeypatch.setitem(cli._RUNNERS, "rules", fails)
    assert main(["rules"]) == 1
    assert err.getvalue() == "chkobba rules: error: cannot write 'é' in ascii\n"


def test_play_on_an_ascii_stream_writes_the_suits_as_letters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    written = io.BytesIO()
    stdout, err = io.TextIOWrapper(written, encoding="ascii"), io.StringIO()
    _streams(monkeypatch, stdout=stdout, stderr=err, stdin=io.StringIO("quit\n"))
    assert main(["play", "--seed", "5"]) == 0
    stdout.flush()
    assert err.getvalue() == ""
    assert "Cut card   6C (you alone see it)\n" in written.getvalue().decode("ascii")


@pytest.fixture
def record_file(tmp_path: Path) -> str:
    """A record of one quick match (one deal), as ``simulate --records`` writes it."""
    path = tmp_path / "one.jsonl"
    path.write_text(_quick_records(1)[0] + "\n", encoding="utf-8")
    return str(path)


def test_standard_input_that_is_not_utf8_is_one_line_with_status_1(
    record_file: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    err = io.StringIO()
    stdin = io.TextIOWrapper(_TerminalBytes(b"\xffq\n"), encoding="utf-8")
    _streams(monkeypatch, stdout=_Terminal(), stderr=err, stdin=stdin)
    assert main(["replay", record_file, "--no-colour"]) == 1
    assert err.getvalue() == "chkobba replay: error: standard input is not utf-8 text (byte 0xff)\n"


@pytest.mark.parametrize(
    "stderr",
    [
        lambda: _FailingOutput(OSError(errno.EIO, "Input/output error")),
        lambda: _FailingOutput(BrokenPipeError(errno.EPIPE, "Broken pipe")),
        # An ASCII stream that cannot write the file's name: a UnicodeEncodeError.
        lambda: io.TextIOWrapper(io.BytesIO(), encoding="ascii"),
    ],
    ids=["io-error", "broken-pipe", "ascii"],
)
def test_an_error_is_not_a_traceback_when_standard_error_fails_too(
    stderr: Callable[[], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    _streams(monkeypatch, stdout=io.StringIO(), stderr=stderr())
    assert main(["replay", "/nonexistent/r\u00e9cord.json"]) == 1


# --- main: the commands' glue --------------------------------------------------------------


def test_play_needs_a_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    _streams(monkeypatch, stdout=io.StringIO(), stderr=err)
    monkeypatch.setattr(sys, "stdin", None)
    assert main(["play", "--seed", "5"]) == 1
    assert err.getvalue() == (
        "chkobba play: error: standard input is closed: play reads your moves from it\n"
    )


class _Unreconfigurable(io.StringIO):
    def __init__(self, text: str, error: Exception) -> None:
        super().__init__(text)
        self.error = error

    def reconfigure(self, **options: Any) -> None:
        raise self.error


@pytest.mark.parametrize("error", [ValueError("detached"), OSError(errno.EBADF, "bad")])
def test_play_reads_a_standard_input_that_cannot_be_reconfigured(error: Exception) -> None:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, _Unreconfigurable("quit\n", error)
    try:
        code = main(["play", "--seed", "5"])
    finally:
        sys.stdout, sys.stderr, sys.stdin = old
    assert (code, err.getvalue()) == (0, "")
    assert "your move> quit\nYou quit the match.\n" in out.getvalue()


def test_play_refuses_a_line_that_is_not_utf8_and_reads_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(TypedBytes(b"\xff\nquit\n"), encoding="utf-8")  # at a terminal
    _streams(monkeypatch, stdout=out, stderr=err, stdin=stdin)
    assert main(["play", "--seed", "5"]) == 0
    assert err.getvalue() == ""
    assert "that line is not UTF-8 text (byte 0xff): type it again\n" in out.getvalue()
    assert "You quit the match." in out.getvalue()


def test_play_ends_at_a_piped_line_that_is_not_utf8(monkeypatch: pytest.MonkeyPatch) -> None:
    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(b"1\n\xe9t\xe9\nquit\n"), encoding="utf-8")
    _streams(monkeypatch, stdout=out, stderr=err, stdin=stdin)
    assert main(["play", "--seed", "5"]) == 1
    assert err.getvalue() == "chkobba play: error: standard input is not UTF-8 text (byte 0xe9)\n"
    assert "you cut" in out.getvalue() and "You quit" not in out.getvalue()
    assert out.getvalue().endswith("your move> \n")  # the prompt's line ends; no echo


def test_play_without_a_seed_keeps_a_63_bit_one_secret_until_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The seed deals every hidden card, and a seed below a million was found from the
    first screen by trying them all (review 78A): a drawn seed is 63 bits from the
    system's secrets, left off the first line and named once the match is stopped."""
    drawn: list[int] = []

    def randbits(bits: int) -> int:
        drawn.append(bits)
        return 2**bits - 1

    monkeypatch.setattr(secrets, "randbits", randbits)
    code, out, err = run_cli("play", stdin="quit\nn\n")
    assert (code, err, drawn) == (0, "", [63])
    top = 2**63 - 1
    assert out.startswith("You are player 0; player 1: greedy.\n")
    assert str(top) not in out.split("You quit the match.")[0]
    assert f"You quit the match.\nThe match's seed was {top}: --seed {top} deals it again.\n" in out
    # The seed named deals the same cards: the screen of --seed top is the same screen.
    code, again, err = run_cli("play", "--seed", str(top), stdin="quit\nn\n")
    assert (code, err) == (0, "")
    assert again.startswith(f"You are player 0; player 1: greedy; seed {top}.\n")
    assert f"seed was {top}" not in again
    first_screen = out.split("\n", 1)[1].split("You quit")[0]
    assert again.split("\n", 1)[1].split("You quit")[0] == first_screen


def test_play_names_a_secret_seed_at_the_end_of_input_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(secrets, "randbits", lambda bits: 12345)
    code, out, err = run_cli("play", stdin="")
    assert (code, err) == (0, "")
    assert out.endswith(
        "End of input: goodbye.\nThe match's seed was 12345: --seed 12345 deals it again.\n"
    )


def test_play_seats_the_partner_opposite() -> None:
    code, out, err = run_cli(
        "play",
        "--seed",
        "5",
        "--players",
        "4",
        "--partner",
        "random",
        "--opponent",
        "greedy",
        stdin="quit\n",
    )
    assert (code, err) == (0, "")
    assert out.startswith(
        "You are player 0; player 1: greedy, player 2: random (your partner), "
        "player 3: greedy; seed 5.\n"
    )


def test_play_auto_plays_a_forced_move() -> None:
    code, out, err = run_cli("play", "--seed", "5", "--auto", stdin="1\n1\n1\n1\n1\nquit\n")
    assert (code, err) == (0, "")
    assert "\nyour only move: 7♠ (auto is on)\nyou play 7♠\n" in out


def test_analyse_reviews_with_the_bot_built_from_seed(record_file: str) -> None:
    bot = "ismcts:iterations=8"
    code, out, err = run_cli(
        "analyse", record_file, "--bot", bot, "--seed", "7", "--seat", "0", "--json"
    )
    assert (code, err) == (0, "")
    record = Record.from_json(_quick_records(1)[0])
    evaluator = BotSpec.parse(bot).build(seed=7)
    assert isinstance(evaluator, ISMCTSBot)
    reviews = review_record(record, seats=(0,), evaluator=evaluator)
    assert json.loads(out)["moves"] == [review.to_dict() for review in reviews]


_STEP = "-- Enter: next move, d: to the end of the deal, a: all the rest, q: quit -- "


def test_replay_steps_on_a_terminal_unless_no_step(
    record_file: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _Terminal()
    _streams(monkeypatch, stdout=out, stderr=io.StringIO(), stdin=_Terminal("q\n"))
    assert main(["replay", record_file, "--no-colour"]) == 0
    assert out.getvalue().count(_STEP) == 1
    assert "moves" in out.getvalue().split("\n")[0]
    whole = _Terminal()
    _streams(monkeypatch, stdout=whole, stderr=io.StringIO(), stdin=_Terminal("q\n"))
    assert main(["replay", record_file, "--no-colour", "--no-step"]) == 0
    shown_first, after = out.getvalue().split(_STEP)
    assert after == "replay stopped\n"
    assert _STEP not in whole.getvalue()
    assert whole.getvalue().startswith(shown_first)
    assert whole.getvalue().endswith("the record is complete\n")


def test_demo_seats_two_bots_as_partnerships_at_four_players() -> None:
    code, out, err = run_cli(
        "demo", "--players", "4", "--bots", "greedy", "random", "--target", "1", "--seed", "1"
    )
    assert (code, err) == (0, "")
    assert out.startswith(
        "chkobba demo: 4 players (player 0: greedy, player 1: random, player 2: greedy, "
        "player 3: random), seed 1\n"
    )


def test_simulate_refuses_a_single_bot() -> None:
    code, out, err = run_cli("simulate", "--games", "1", "--bots", "greedy")
    assert (code, out) == (2, "")
    assert "chkobba simulate: error: argument --bots: give at least two bots" in err


def test_simulate_refuses_players_the_profile_does_not_seat() -> None:
    code, out, err = run_cli(
        "simulate", "--games", "1", "--bots", "greedy", "random", "--players", "3"
    )
    assert (code, out) == (2, "")
    assert (
        "chkobba simulate: error: argument --players: a match has 2 or 4 players, not 3 "
        "(the tunisian profile); for 3 players, use --rules cardrulesplus"
    ) in err


def test_a_standard_output_the_program_closed_is_reported_like_a_missing_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    err = io.StringIO()
    _streams(monkeypatch, stdout=_closed(), stderr=err)
    assert main(["rules"]) == 1
    assert err.getvalue() == "chkobba: error: standard output is closed\n"


def test_a_standard_error_the_program_closed_fails_without_running(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = io.StringIO()
    _streams(monkeypatch, stdout=out, stderr=_closed())
    assert main(["rules"]) == 1
    assert out.getvalue() == ""


def test_play_refuses_a_standard_input_the_program_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out, err = io.StringIO(), io.StringIO()
    _streams(monkeypatch, stdout=out, stderr=err, stdin=_closed())
    assert main(["play", "--seed", "5"]) == 1
    assert err.getvalue() == (
        "chkobba play: error: standard input is closed: play reads your moves from it\n"
    )
