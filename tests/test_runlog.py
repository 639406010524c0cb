"""The match logs of the long benchmark runs (``--log FILE`` of ``benchmarks/strength.py``,
``oracle_bound.py`` and ``estimate_ab.py``, read and written by ``benchmarks/_runlog.py``):
stop 75's review of files going wrong. Each test fails on the code before the fix, where
``--log /dev/full`` was read until the memory ran out, a last line cut short or a blank
line ended every resume in a ``JSONDecodeError``, a log that could not be written was
found after the first match, and Ctrl-C ended in a traceback.

The scripts run in this process (their matches replaced by stand-ins where the promise is
about the log); the one test that starts a process reads a device under a memory limit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chkobba.bots import ISMCTSBot
from tests.helpers import ab_match, bounded_memory, load_script

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
_LOADED: dict[str, Any] = {}


def bench(name: str) -> Any:
    if name not in _LOADED:
        _LOADED[name] = load_script(BENCHMARKS / f"{name}.py", f"runlog_test_{name}")
    return _LOADED[name]


def run(name: str, args: list[str], monkeypatch: pytest.MonkeyPatch) -> object:
    """``python benchmarks/NAME.py ARGS`` in this process: its exit status (a Ctrl-C that
    gets out of the script, which Python would print as a traceback: ``"traceback"``)."""
    monkeypatch.setattr(sys, "argv", [f"{name}.py", *args])
    try:
        bench(name).main()
    except SystemExit as stop:
        return 0 if stop.code is None else stop.code
    except KeyboardInterrupt:
        return "traceback"
    return 0


def _lines(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def _untimed(matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """strength.py's lines without their CPU times (which no two runs share)."""
    return [{k: v for k, v in match.items() if k != "times"} for match in matches]


# --- stand-ins for the matches: each script's play, recorded ---------------------------------


_REAL_PLAY: dict[str, Any] = {}


def _stand_ins(name: str, monkeypatch: pytest.MonkeyPatch, stop_at: int | None = None) -> list[int]:
    """Replace the script's matches by quick stand-ins; the games played, in order. With
    ``stop_at``, that game is interrupted (Ctrl-C) instead of played."""
    played: list[int] = []
    module = bench(name)

    def note(game: int) -> None:
        if game == stop_at:
            raise KeyboardInterrupt
        played.append(game)

    if name == "strength":
        real = _REAL_PLAY.setdefault(name, module.play)

        def play_strength(*args: Any) -> dict[str, Any]:
            note(args[1])
            match: dict[str, Any] = real(*args)
            match["times"] = [[], []]  # the same bytes every run
            return match

        monkeypatch.setattr(module, "play", play_strength)
    elif name == "oracle_bound":

        def play_oracle(game: int, *args: Any) -> dict[str, object]:
            note(game)
            return {"game": game, "oracle_won": game != 1, "scores": [21, 3]}

        monkeypatch.setattr(module, "play", play_oracle)
    else:

        def play_ab(
            old: Any, game: int, seed: int, players: int, iterations: int, rules: Any
        ) -> Any:
            note(game)
            return ab_match(game, seed, players, iterations)

        monkeypatch.setattr(module, "old_search", lambda rev: ISMCTSBot)
        monkeypatch.setattr(module, "play", play_ab)
    return played


_ARGS = {
    "strength": ["--pair", "greedy", "random", "--games", "3"],
    "oracle_bound": ["--games", "3", "--iterations", "5"],
    "estimate_ab": ["--games", "3", "--players", "2"],
}
SCRIPTS = sorted(_ARGS)


def _one_line(text: str) -> str:
    lines = text.splitlines()
    assert len(lines) == 1, text
    return lines[0]


# --- a log that cannot serve is refused before any match -------------------------------------


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_folder_for_the_log_is_refused_before_any_match(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    played = _stand_ins(name, monkeypatch)
    assert run(name, [*_ARGS[name], "--log", str(tmp_path)], monkeypatch) == 2
    said = _one_line(capsys.readouterr().err)
    assert said == f"{name}.py: error: --log '{tmp_path}': is a folder, not a regular file"
    assert played == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("name", SCRIPTS)
def test_a_device_for_the_log_is_refused_before_it_is_read(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # (In this process the old code read /dev/full until the memory ran out; here the
    # helper itself is checked first, so that the old code fails without reading it.)
    runlog = load_script(BENCHMARKS / "_runlog.py", "runlog_test_helper")
    monkeypatch.setattr(sys, "argv", [f"{name}.py"])
    with pytest.raises(SystemExit) as stop:
        runlog.read(Path("/dev/full"))
    assert stop.value.code == 2
    said = "--log '/dev/full': is a device, not a regular file"
    assert _one_line(capsys.readouterr().err) == f"{name}.py: error: {said}"
    played = _stand_ins(name, monkeypatch)
    with bounded_memory():  # a script reading the log whole again fails, not the machine
        assert run(name, [*_ARGS[name], "--log", "/dev/full"], monkeypatch) == 2
    assert _one_line(capsys.readouterr().err) == f"{name}.py: error: {said}"
    assert played == []


@pytest.mark.out_of_process
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_strength_refuses_dev_full_without_reading_it() -> None:
    # The reviewer's command: the old script read the device until the OOM killer fired.
    # Here under a 2 GiB address-space limit, so that the old code fails fast.
    resource = pytest.importorskip("resource")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "strength.py"), *_ARGS["strength"], "--log", "/dev/full"],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    said = "strength.py: error: --log '/dev/full': is a device, not a regular file\n"
    assert done.stderr == said


@pytest.mark.parametrize("name", SCRIPTS)
@pytest.mark.parametrize("where", ["missing/log.jsonl", "file/log.jsonl"])
def test_a_log_that_cannot_be_opened_is_refused_before_any_match(
    name: str,
    where: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "file").write_text("not a folder\n")
    played = _stand_ins(name, monkeypatch)
    log = tmp_path / where
    assert run(name, [*_ARGS[name], "--log", str(log)], monkeypatch) == 2
    said = _one_line(capsys.readouterr().err)
    assert said.startswith(f"{name}.py: error: --log '{log}': cannot open it")
    reason = "No such file or directory" if where.startswith("missing") else "Not a directory"
    assert said.endswith(reason)
    assert played == [] and not log.exists()


def test_a_log_in_a_read_only_folder_is_refused_before_any_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    played = _stand_ins("strength", monkeypatch)
    runlog = sys.modules[bench("strength").read.__module__]

    def read_only(path: object, mode: str = "r", *args: object, **kwargs: object) -> object:
        if "a" in mode:  # the folder refuses a new file (as it does to any user but root)
            raise PermissionError(13, "Permission denied", str(path))
        return open(path, mode, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(runlog, "open", read_only, raising=False)
    code = run("strength", [*_ARGS["strength"], "--log", str(tmp_path / "x.jsonl")], monkeypatch)
    assert code == 2 and played == []
    assert _one_line(capsys.readouterr().err).endswith(
        "cannot open it to append: Permission denied"
    )


def test_a_log_larger_than_the_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    runlog = sys.modules[bench("strength").read.__module__]  # the scripts' own helper
    assert runlog.LIMIT == 256 * 1024 * 1024
    log = tmp_path / "big.jsonl"
    log.write_text('{"game": 0}\n' * 100)
    monkeypatch.setattr(runlog, "LIMIT", 1000)
    played = _stand_ins("strength", monkeypatch)
    assert run("strength", [*_ARGS["strength"], "--log", str(log)], monkeypatch) == 2
    said = _one_line(capsys.readouterr().err)
    assert said.startswith(f"strength.py: error: --log '{log}': is larger than ")
    assert said.endswith(" MiB, more than any run's log") and played == []


# --- resuming: blank lines, a last line cut short, a broken line -----------------------------


def test_strength_resumes_a_log_whose_last_line_was_cut_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "s.jsonl"
    args = ["--pair", "greedy", "random", "--games", "3", "--log", str(log)]
    assert run("strength", args, monkeypatch) == 0
    first = capsys.readouterr().out
    whole = log.read_bytes()
    lines = whole.splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:2]) + lines[2][:40])  # killed while writing match 2
    played = _stand_ins("strength", monkeypatch)
    assert run("strength", args, monkeypatch) == 0
    out, err = capsys.readouterr()
    assert out.split(", s/move")[0] == first.split(", s/move")[0]  # the same but its times
    said = [line for line in err.splitlines() if not line.startswith("  ...")]
    assert said == [
        f"strength.py: --log '{log}': its last line, line 3, was cut short (an interrupted "
        "write): cut off, 2 matches kept"
    ]
    assert played == [2]
    assert _untimed(_lines(log)) == _untimed([json.loads(line) for line in lines])
    assert log.read_bytes().startswith(b"".join(lines[:2]))


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_last_line_cut_short_is_cut_off_and_its_match_played_again(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "log.jsonl"
    played = _stand_ins(name, monkeypatch)
    assert run(name, [*_ARGS[name], "--log", str(log)], monkeypatch) == 0
    full, first = log.read_bytes(), capsys.readouterr().out
    log.write_bytes(full[:-9])  # the last line without its end
    played.clear()
    assert run(name, [*_ARGS[name], "--log", str(log)], monkeypatch) == 0
    assert played == [2]
    assert log.read_bytes() == full  # the new line starts where the broken one did
    assert "was cut short (an interrupted write)" in capsys.readouterr().err
    played.clear()
    assert run(name, [*_ARGS[name], "--log", str(log)], monkeypatch) == 0
    assert played == [] and capsys.readouterr().out.splitlines()[-1] == first.splitlines()[-1]


@pytest.mark.parametrize("name", SCRIPTS)
def test_blank_lines_are_skipped(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "log.jsonl"
    played = _stand_ins(name, monkeypatch)
    assert run(name, [*_ARGS[name], "--log", str(log)], monkeypatch) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    lines = log.read_text().splitlines()
    log.write_text("\n" + lines[0] + "\n\n  \n" + "\n".join(lines[1:]) + "\n\n")
    played.clear()
    assert run(name, [*_ARGS[name], "--log", str(log)], monkeypatch) == 0
    assert played == [] and capsys.readouterr().out.splitlines() == [last]


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_whole_last_line_without_its_newline_is_kept_and_the_next_starts_a_line(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "log.jsonl"
    played = _stand_ins(name, monkeypatch)
    assert run(name, [*_ARGS[name], "--log", str(log)], monkeypatch) == 0
    full = log.read_bytes()
    log.write_bytes(full[:-1])
    more = [*_ARGS[name][:-1], "4"] if name == "strength" else [*_ARGS[name], "--games", "4"]
    played.clear()
    assert run(name, [*more, "--log", str(log)], monkeypatch) == 0
    assert played == [3] and len(_lines(log)) == 4
    assert log.read_bytes().startswith(full)


@pytest.mark.parametrize("name", SCRIPTS)
@pytest.mark.parametrize(
    ("broken", "why"),
    [
        ('{"game": ', "Expecting value, column 10"),
        ("[1, 2]", "not a JSON object"),
        ("\udcff", "'utf-8' codec can't decode byte 0xff"),
    ],
)
def test_a_broken_line_before_the_last_is_refused_by_its_number(
    name: str,
    broken: str,
    why: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    log = tmp_path / "log.jsonl"
    played = _stand_ins(name, monkeypatch)
    assert run(name, [*_ARGS[name], "--log", str(log)], monkeypatch) == 0
    lines = log.read_bytes().splitlines(keepends=True)
    bad = broken.encode("utf-8", "surrogateescape")
    log.write_bytes(lines[0] + b"\n" + bad + b"\n" + b"".join(lines[1:]))
    kept = log.read_bytes()
    capsys.readouterr()
    played.clear()
    assert run(name, [*_ARGS[name], "--log", str(log)], monkeypatch) == 2
    said = _one_line(capsys.readouterr().err)
    assert said.startswith(f"{name}.py: error: --log '{log}': line 3 is not a match's JSON line (")
    assert why in said and said.endswith("): mend or delete it")
    assert played == [] and log.read_bytes() == kept


# --- writing: a flushed line a match; a failed write; Ctrl-C -------------------------------


def test_a_failed_write_ends_the_run_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    runlog = load_script(BENCHMARKS / "_runlog.py", "runlog_test_helper")
    monkeypatch.setattr(sys, "argv", ["strength.py"])
    with pytest.raises(SystemExit) as stop:
        runlog.append(tmp_path, {"game": 0})  # a folder: its open fails
    assert stop.value.code == 1
    said = _one_line(capsys.readouterr().err)
    assert said.startswith(f"strength.py: error: --log '{tmp_path}': cannot write the match: ")
    assert said.endswith("it holds 0 matches, run the same command again to resume")


@pytest.mark.parametrize("name", SCRIPTS)
def test_ctrl_c_ends_the_run_in_one_line_with_status_130_and_the_run_resumes(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "log.jsonl"
    played = _stand_ins(name, monkeypatch, stop_at=2)
    assert run(name, [*_ARGS[name], "--log", str(log)], monkeypatch) == 130
    said = [line for line in capsys.readouterr().err.splitlines() if not line.startswith("  ...")]
    assert said == [
        f"interrupted: 2 matches logged in '{log}' (2 this time); run the same command "
        "again to resume"
    ]
    assert played == [0, 1] and [m["game"] for m in _lines(log)] == [0, 1]
    played = _stand_ins(name, monkeypatch)
    assert run(name, [*_ARGS[name], "--log", str(log)], monkeypatch) == 0
    assert played == [2] and [m["game"] for m in _lines(log)] == [0, 1, 2]


def test_ctrl_c_without_a_log_says_nothing_is_kept(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stand_ins("strength", monkeypatch, stop_at=1)
    assert run("strength", _ARGS["strength"], monkeypatch) == 130
    said = [line for line in capsys.readouterr().err.splitlines() if not line.startswith("  ...")]
    assert said == ["interrupted: no --log, so the matches played are not kept"]


def test_a_line_of_another_scripts_log_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "o.jsonl"
    log.write_text('{"game": 0, "knows": "hands"}\n', encoding="utf-8")  # oracle_bound's
    played = _stand_ins("strength", monkeypatch)
    assert run("strength", [*_ARGS["strength"], "--log", str(log)], monkeypatch) == 2
    said = _one_line(capsys.readouterr().err)
    assert said.endswith("line 1 has no 'pair': a log of another script?"), said
    assert played == []
