"""The command's usability audit: files it must not clobber, errors that name their
command and point to the fix, hints a player can follow, help pages that say what each
command does."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from chkobba import Record
from chkobba.cli import main

DOCS = Path(__file__).resolve().parent.parent / "docs"
SIMULATE = ["simulate", "--games", "2", "--bots", "greedy", "random"]


def _usage_error(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    """The one line a bad argument writes (status 2)."""
    with pytest.raises(SystemExit) as exit:
        main(args)
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


# --- 1. simulate --records does not replace a file unasked ---------------------------------


def test_simulate_refuses_to_replace_a_records_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    kept = tmp_path / "keep.json"
    kept.write_text("a saved game\n", encoding="utf-8")
    err = _usage_error(capsys, [*SIMULATE, "--records", "keep.json"])
    assert err == (
        "chkobba simulate: error: argument --records: 'keep.json' exists: give --force to "
        "replace it, or another file name (see chkobba simulate --help)\n"
    )
    assert kept.read_text(encoding="utf-8") == "a saved game\n"
    assert err.strip() in (DOCS / "cli.md").read_text(encoding="utf-8")


def test_simulate_force_replaces_a_records_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "keep.json"
    kept.write_text("a saved game\n", encoding="utf-8")
    assert main([*SIMULATE, "--records", str(kept), "--force"]) == 0
    assert len(Record.load_lines(kept)) == 2


@pytest.mark.skipif(os.name != "posix", reason="/dev/null")
def test_simulate_writes_records_to_a_device_without_force(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Like the shell's noclobber: a device holds nothing to lose.
    assert main([*SIMULATE, "--records", os.devnull]) == 0
