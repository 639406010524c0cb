"""Stop 75's reviews (portability, files going wrong): each test fails on the code before
its fix."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from chkobba import TUNISIAN, Record, RecordError, Rules
from chkobba._files import write_atomically
from chkobba.cli import main
from chkobba.errors import ChkobbaError, shown, shown_path

# --- a Windows path in a message reads as it was typed ------------------------------------

WINDOWS = "C:\\Users\\me\\match.json"


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


def test_record_load_names_a_file_with_a_backslash_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "a\\b.json"  # a file name may hold a backslash on Linux and macOS
    path.write_bytes(b"")
    with pytest.raises(RecordError) as caught:
        Record.load(path)
    assert f"'{path}'" in str(caught.value)


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
