"""Found by a fuzz of the command line and its files (stop 52): an error must be one line
that moves no terminal, a failed run must leave no empty file behind, and saving to a
device must write to it, not replace it."""

from __future__ import annotations

import os
import stat
import sys
import threading
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from chkobba import Record
from chkobba._describe import one_line
from chkobba.cli import main
from tests.helpers import written_to_a_fifo


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["rules", "tunisian", "a\nb.json"], "unrecognized arguments: a\\nb.json"),
        (["demo", "\x1b]0;pwned\x07\x1b[2J"], "unrecognized arguments: \\x1b]0;pwned\\x07\\x1b[2J"),
    ],
)
def test_argparse_errors_escape_the_arguments_they_quote(
    argv: list[str], shown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # argparse quoted the arguments as typed: a newline made two lines, an escape code
    # reached the terminal.
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err and "\x07" not in err
    assert f"error: {shown} (see chkobba " in err


@pytest.fixture
def unreachable_dask(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Dask's ``distributed`` whose client refuses every address as the real one refuses
    one without a port. With the real one, a CI run on a loaded machine failed inside
    ``distributed`` (its event loop did not start within its 10 seconds, an
    ``AssertionError``): these tests are about the records file and the error line, not
    about Dask, which tests/test_distributed.py runs for real."""

    class Client:
        def __init__(self, address: str, timeout: str) -> None:
            raise ValueError(f"missing port number in address {address!r}")

    distributed = types.ModuleType("distributed")
    distributed.Client = Client  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "distributed", distributed)
    yield


def _simulate_to(records: Path) -> list[str]:
    """A short simulate that writes its records to ``records``."""
    return ["simulate", "--games", "2", "--bots", "random", "greedy", "--records", str(records)]


@pytest.mark.usefixtures("unreachable_dask")
def test_a_commands_error_escapes_what_it_quotes(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--games", "1", "--bots", "random", "greedy", "--scheduler", "a\nb"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        "chkobba simulate: error: cannot reach the Dask scheduler at 'a\\nb'"
    )


def test_one_line_escapes_only_what_is_not_printable() -> None:
    assert one_line("é ♦ 7D, 'x'") == "é ♦ 7D, 'x'"
    assert one_line("a\nb\tc\x1b[2J\u200b\udc80") == "a\\nb\\tc\\x1b[2J\\u200b\\udc80"


@pytest.mark.usefixtures("unreachable_dask")
@pytest.mark.parametrize("force", [[], ["--force"]])
def test_a_failed_simulate_leaves_no_records_file_it_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], force: list[str]
) -> None:
    # It created the file, failed to reach the scheduler, and left it empty: the same
    # command, run again, was then refused ("exists: give --force"). With --force too.
    records = tmp_path / "left.jsonl"
    argv = _simulate_to(records)
    assert main([*argv, *force, "--scheduler", "bogus"]) == 1
    assert not records.exists()
    if not force:
        assert main(argv) == 0
        assert len(records.read_text().splitlines()) == 2
    capsys.readouterr()


@pytest.mark.usefixtures("unreachable_dask")
@pytest.mark.parametrize("held", ["", "yesterday's records\n"])
def test_a_failed_simulate_keeps_a_file_that_was_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], held: str
) -> None:
    # Found by a review: --force emptied the file as it was opened, so a run refused
    # before its first match (a scheduler it cannot reach) lost yesterday's records.
    records = tmp_path / "kept.jsonl"
    records.write_text(held)
    argv = _simulate_to(records)
    assert main([*argv, "--force", "--scheduler", "bogus"]) == 1
    assert records.read_text() == held  # not created by this run: not removed, not emptied
    assert main([*argv, "--force"]) == 0  # replaced once there are records to write
    assert len(records.read_text().splitlines()) == 2
    assert "yesterday" not in records.read_text()
    capsys.readouterr()


@pytest.mark.parametrize(
    ("failure", "said"),
    [
        (TypeError("TLS expects a `ssl_context` argument"), "TLS expects a `ssl_context` argument"),
        (None, "no answer in 0.2 s (is a Dask scheduler listening there?)"),
    ],
)
def test_a_scheduler_that_fails_otherwise_or_never_answers_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    failure: Exception | None,
    said: str,
) -> None:
    # Found by a review: tls:// and ucx:// addresses failed with a TypeError, shown as a
    # traceback, and a peer that answered but was no scheduler (an HTTP server) kept the
    # command waiting for good, past Dask's own timeout.
    from chkobba.cli import simulate

    class Client:
        def __init__(self, address: str, timeout: str) -> None:
            if failure is not None:
                raise failure
            threading.Event().wait(5)  # longer than the command waits

    distributed = types.ModuleType("distributed")
    distributed.Client = Client  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "distributed", distributed)
    monkeypatch.setattr(simulate, "CONNECT_SECONDS", 0.2)
    argv = ["simulate", "--games", "1", "--bots", "random", "greedy", "--scheduler", "tls://h:1"]
    assert main(argv) == 1
    assert capsys.readouterr().err == (
        f"chkobba simulate: error: cannot reach the Dask scheduler at 'tls://h:1': {said}\n"
    )


def test_saving_a_record_to_a_pipe_writes_to_it_instead_of_replacing_it(tmp_path: Path) -> None:
    # Record.save renamed a new file over the target: a FIFO (or a device, as root)
    # became an ordinary file, and the save said it had succeeded.
    record = Record(players=2)
    assert written_to_a_fifo(tmp_path / "pipe", record.save) == record.to_json().encode("utf-8")


def test_saving_a_record_to_dev_null_leaves_the_device() -> None:
    Record(players=2).save("/dev/null")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_saving_a_record_through_a_link_to_a_device_leaves_both(tmp_path: Path) -> None:
    link = tmp_path / "out"
    link.symlink_to("/dev/null")
    Record(players=2).save(link)
    assert link.is_symlink() and stat.S_ISCHR(os.stat("/dev/null").st_mode)
