"""Files of one record per line (``chkobba simulate --records``): read by the library
(``Record.load_lines``) and by ``chkobba replay``/``analyse --game N``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chkobba import Record, RecordError, records
from chkobba.cli import main, replay


@pytest.fixture(scope="module")
def lines(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "games.jsonl"
    assert (
        main(["simulate", "--games", "2", "--bots", "greedy", "random", "--records", str(path)])
        == 0
    )
    return path


def test_load_lines_reads_every_record_of_a_simulate_file(lines: Path) -> None:
    records = Record.load_lines(lines)
    texts = [line for line in lines.read_text("utf-8").splitlines() if line]
    assert len(records) == len(texts) == 2
    assert records == tuple(Record.from_json(text) for text in texts)
    assert records[0] != records[1]


def test_load_lines_names_the_line_that_is_not_a_record(tmp_path: Path, lines: Path) -> None:
    first = lines.read_text("utf-8").splitlines()[0]
    broken = tmp_path / "broken.jsonl"
    broken.write_text(f'{first}\n\n{{"format": "chkobba-record", "version": 2}}\n', "utf-8")
    with pytest.raises(RecordError, match=r"broken.jsonl', line 3: version 2 is not supported"):
        Record.load_lines(broken)


def test_replay_picks_a_game_of_a_file_of_records(
    tmp_path: Path, lines: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    second = tmp_path / "second.json"
    second.write_text(lines.read_text("utf-8").splitlines()[1], "utf-8")
    assert main(["replay", str(second), "--no-boards", "--no-step"]) == 0
    alone = capsys.readouterr().out.replace(str(second), "FILE")
    assert main(["replay", str(lines), "--game", "2", "--no-boards", "--no-step"]) == 0
    picked = capsys.readouterr().out.replace(str(lines), "FILE")
    assert picked == alone and "wins the match" in picked


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([], "holds 2 records, one per line: choose one with --game N"),
        (["--game", "3"], "holds 2 records: there is no game 3"),
    ],
)
def test_replay_and_analyse_ask_for_a_game_that_exists(
    lines: Path, arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for command in (["replay", str(lines), "--no-step"], ["analyse", str(lines)]):
        assert main([*command, *arguments]) == 1
        assert message in capsys.readouterr().err


def test_a_single_record_file_is_game_1(tmp_path: Path, lines: Path) -> None:
    single = tmp_path / "one.json"
    Record.load_lines(lines)[0].save(single)
    assert main(["replay", str(single), "--game", "1", "--no-boards", "--no-step"]) == 0
    assert main(["replay", str(single), "--game", "2", "--no-step"]) == 1


# --- the command reads files of records as the library does -------------------------------


def test_replay_numbers_lines_as_load_lines_does(
    tmp_path: Path, lines: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A record, a blank line, then a line that is no record: line 3 for both readers.
    first = lines.read_text("utf-8").splitlines()[0]
    broken = tmp_path / "broken.jsonl"
    broken.write_text(f"{first}\n\n{{}}\n", "utf-8")
    with pytest.raises(RecordError) as raised:
        Record.load_lines(broken)
    assert 'line 3: format must be "chkobba-record"' in str(raised.value)
    for command in ("replay", "analyse"):
        assert main([command, str(broken), "--game", "2"]) == 1
        assert capsys.readouterr().err == f"chkobba {command}: error: {raised.value}\n"


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> int:
    """FILE_LIMIT at 1 MiB, in the library and the command, so big files stay small."""
    limit = 1024 * 1024
    monkeypatch.setattr(records, "FILE_LIMIT", limit)
    monkeypatch.setattr(replay, "FILE_LIMIT", limit)
    return limit


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.usefixtures("small_limit")
def test_replay_refuses_an_endless_file_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "/dev/zero"]) == 1
    error = capsys.readouterr().err
    assert error == (
        "chkobba replay: error: '/dev/zero', line 1: the line is longer than 1 MiB, "
        "more than any record\n"
    )


def test_replay_reads_a_file_of_records_larger_than_the_bound(
    tmp_path: Path, lines: Path, small_limit: int, capsys: pytest.CaptureFixture[str]
) -> None:
    second = lines.read_text("utf-8").splitlines()[1]
    many = tmp_path / "many.jsonl"
    count = small_limit // len(second) + 2
    many.write_text(f"{second}\n" * count, "utf-8")
    assert main(["replay", str(many), "--game", str(count), "--no-boards", "--no-step"]) == 0
    assert "wins the match" in capsys.readouterr().out
    # Too large for one record, it can only be a file of records: its broken line is named.
    many.write_text(f"{{}}\n{second}\n" * count, "utf-8")
    assert main(["replay", str(many), "--game", "1"]) == 1
    assert "many.jsonl', line 1: format must be" in capsys.readouterr().err
    too_long = tmp_path / "long.jsonl"
    too_long.write_text(f"{second}\n{second}{' ' * small_limit}\n", "utf-8")
    assert main(["replay", str(too_long), "--game", "2"]) == 1
    error = capsys.readouterr().err
    assert error.endswith(
        "long.jsonl', line 2: the line is longer than 1 MiB, more than any record\n"
    )


@pytest.mark.out_of_process
@pytest.mark.skipif(not Path("/dev/stdin").exists(), reason="needs /dev/stdin")
def test_replay_reads_a_file_of_records_from_a_pipe(lines: Path) -> None:
    # Read once: a pipe cannot be read again after failing as a single record.
    result = subprocess.run(
        [sys.executable, "-m", "chkobba", "replay", "/dev/stdin", "--game", "2", "--no-step"],
        input=lines.read_bytes(),
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert b"wins the match" in result.stdout


SIMULATE = ["simulate", "--games", "2", "--bots", "greedy", "random"]


@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_simulate_writes_the_records_to_standard_output_for_a_dash(
    lines: Path,
    as_json: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([*SIMULATE, *as_json]) == 0
    summary = capsys.readouterr().out
    assert main([*SIMULATE, *as_json, "--records", "-"]) == 0
    written = capsys.readouterr()
    # The records alone on standard output, as --records FILE writes them; the summary
    # on standard error; and no file named '-'.
    assert written.out == lines.read_text("utf-8")
    assert written.err == summary
    assert list(tmp_path.iterdir()) == []


def test_with_records_on_standard_output_the_json_is_alone_on_standard_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    odd = ["simulate", "--games", "3", "--bots", "greedy", "random", "--json"]
    assert main(odd) == 0
    alone = capsys.readouterr()
    assert "note: " in alone.err  # the note on an odd number of games, beside the JSON
    assert main([*odd, "--records", "-"]) == 0
    written = capsys.readouterr()
    assert json.loads(written.err) == json.loads(alone.out)
    assert len(written.out.splitlines()) == 3


@pytest.mark.out_of_process
@pytest.mark.skipif(not Path("/dev/stdin").exists(), reason="needs /dev/stdin")
def test_simulate_records_pipe_into_replay(lines: Path) -> None:
    chkobba = [sys.executable, "-m", "chkobba"]
    simulate = subprocess.Popen([*chkobba, *SIMULATE, "--records", "-"], stdout=subprocess.PIPE)
    replayed = subprocess.run(
        [*chkobba, "replay", "/dev/stdin", "--game", "2", "--no-step"],
        stdin=simulate.stdout,
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert simulate.stdout is not None
    simulate.stdout.close()
    assert simulate.wait(timeout=300) == 0
    assert replayed.returncode == 0, replayed.stderr
    assert b"wins the match" in replayed.stdout
