"""Tests for the gaps a mutmut audit of ``cli/output.py`` and ``cli/saving.py`` found.

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to those modules that the rest of the suite let through (tools/mutation/README.md).

``Output``: plain lines (an empty one by default) and plain tables aligned under headers
wider than their cells; with rich, the text written as typed (no markup read from a file
name in brackets), on the given stream, never wrapped, and rich's table; on a terminal,
colour by default (red for a ``red`` line, nothing for an unstyled one, no highlighting of
numbers), plain text again under ``NO_COLOR``; ``is_terminal`` of a terminal, a file and
``None``. ``offer_save``: every question asked, word for word; declining, end of input and
Enter for the dated default; an existing file replaced only when the player says yes (in
any case); a folder, a missing folder and a NUL in the name reported (in red) and the name
asked again; long names quoted up to 200 characters; the path returned once saved.

Everything runs in this process: questions come from a scripted ``ask``, files go to
``tmp_path``, and a terminal is a ``StringIO`` that says it is one.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from chkobba.cli.output import Output, is_closed, is_terminal
from chkobba.cli.saving import offer_save
from chkobba.records import Record
from tests.helpers import colour_terminal, terminal_text

SAVE = "Save the match as a record? [y/N] "
DEFAULT = "chkobba-2026-11-30-1542.json"
NAME = f"File name (Enter: {DEFAULT}; no: do not save): "
RED, END = "\x1b[31m", "\x1b[0m"
RICH_TABLE = (
    "┏━━━━━━━━┳━━━━━━━━━━┓\n"
    "┃ bot    ┃ win rate ┃\n"
    "┡━━━━━━━━╇━━━━━━━━━━┩\n"
    "│ greedy │ 1        │\n"
    "│ random │ 10       │\n"
    "└────────┴──────────┘\n"
)
PLAIN_TABLE = "bot     win rate\ngreedy  1\nrandom  10\n"


class _Terminal(io.StringIO):
    """A stream that says it is an interactive terminal."""

    def isatty(self) -> bool:
        return True


class _Script:
    """An ``ask`` that answers from a script, keeps the questions, and ends the input
    (``EOFError``) when the script runs out."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.questions: list[str] = []

    def __call__(self, question: str) -> str:
        self.questions.append(question)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


@pytest.fixture
def terminal_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """An 80-column 256-colour terminal, with no variable forcing colour on or off."""
    colour_terminal(monkeypatch, "xterm-256color", columns=80, lines=25)


def _table(out: Output) -> None:
    out.table(["bot", "win rate"], [["greedy", "1"], ["random", "10"]])


def _save(out: Output, *answers: str) -> tuple[str | None, list[str]]:
    """``offer_save`` of an empty record with the scripted answers: the path saved to
    and the questions asked."""
    ask = _Script(*answers)
    return offer_save(out, ask, Record(players=2), DEFAULT), ask.questions


# --- Output: plain text --------------------------------------------------------------------


def test_plain_lines_ignore_styles_and_an_empty_line_is_empty() -> None:
    stream = io.StringIO()
    out = Output(stream, colour=False)
    out.line()
    out.line("styled", "red")
    assert stream.getvalue() == "\nstyled\n"


def test_plain_tables_align_columns_under_headers_wider_than_their_cells() -> None:
    stream = io.StringIO()
    out = Output(stream, colour=False)
    _table(out)
    out.table(["bot", "rating"], [])
    assert stream.getvalue() == PLAIN_TABLE + "bot  rating\n"


def test_plain_tables_pad_short_rows_and_widen_for_long_ones_as_rich_does() -> None:
    stream = io.StringIO()
    Output(stream, colour=False).table(["a", "b", "c"], [["xx"], ["1", "2", "3", "four"]])
    assert stream.getvalue() == "a   b  c\nxx\n1   2  3  four\n"


def test_is_terminal_of_a_terminal_a_file_and_none() -> None:
    assert is_terminal(_Terminal()) is True
    assert is_terminal(io.StringIO()) is False
    assert is_terminal(None) is False


def test_a_closed_stream_is_closed_and_no_terminal() -> None:
    closed = io.StringIO()
    closed.close()  # isatty() of a closed stream raises ValueError
    assert (is_closed(closed), is_terminal(closed)) == (True, False)
    assert (is_closed(None), is_closed(io.StringIO()), is_closed(_Terminal())) == (
        True,
        False,
        False,
    )


# --- Output: rich --------------------------------------------------------------------------


def test_rich_writes_text_as_typed_on_one_line_to_its_stream(
    terminal_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = io.StringIO()  # not a terminal: rich's layout, without colour codes
    out = Output(stream, colour=True)
    name = "could not save '[bold]x[/bold].json': " + " ".join(["no such folder"] * 10)
    out.line(name, "red")
    _table(out)
    assert stream.getvalue() == name + "\n" + RICH_TABLE
    assert capsys.readouterr().out == ""  # all of it on the stream, none on stdout


def test_a_table_too_wide_for_the_terminal_is_written_plain_with_every_value_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Found by a review: two bot specs cut to "ismcts:iterations=1…" read the same, and at
    # 40 columns "100.0%" became "10…"; folded instead (stop 75), a number read row by row
    # became two ("3.1" over "7", review 80F). A table too wide is now the plain one, each
    # row on one line, which the terminal wraps whole.
    colour_terminal(monkeypatch, "xterm-256color", columns=40, lines=25)
    stream = io.StringIO()
    names = ["ismcts:iterations=10,exploration=0.3", "ismcts:iterations=10,exploration=0.9"]
    Output(stream, colour=True).table(
        ["bot", "win rate", "points/deal"], [[name, "100.0%", "12.75"] for name in names]
    )
    lines = stream.getvalue().splitlines()
    assert "…" not in stream.getvalue() and not any("│" in line for line in lines)
    assert [line.split() for line in lines] == [
        ["bot", "win", "rate", "points/deal"],
        *([name, "100.0%", "12.75"] for name in names),
    ]


def test_a_table_that_fits_is_drawn_in_its_box(monkeypatch: pytest.MonkeyPatch) -> None:
    colour_terminal(monkeypatch, "xterm-256color", columns=80, lines=25)
    stream = io.StringIO()
    Output(stream, colour=True).table(["bot", "win rate"], [["greedy", "100.0%"]])
    assert "│ greedy │ 100.0%   │" in stream.getvalue()


def test_a_dumb_terminal_gets_the_plain_table(monkeypatch: pytest.MonkeyPatch) -> None:
    # Review 80F: TERM=dumb (an editor's shell, a speech setup) had the box drawing.
    colour_terminal(monkeypatch, "dumb", columns=80, lines=25)
    stream = _Terminal()  # rich tells a dumb terminal only on a stream that is one
    Output(stream, colour=True).table(["bot", "win rate"], [["greedy", "100.0%"]])
    lines = terminal_text(stream.getvalue()).splitlines()
    assert lines == ["bot     win rate", "greedy  100.0%"]


def test_an_empty_no_color_leaves_colour_on(
    terminal_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # no-color.org: only a NO_COLOR that is set and not empty turns colour off.
    monkeypatch.setenv("NO_COLOR", "")
    stream = _Terminal()
    Output(stream).line("x", "red")
    assert terminal_text(stream.getvalue()) == f"{RED}x{END}\n"


def test_a_terminal_gets_colour_by_default(terminal_env: None) -> None:
    stream = _Terminal()
    out = Output(stream)
    out.line("player 1 scores 3 points", "red")
    out.line("plain 3")
    assert terminal_text(stream.getvalue()) == f"{RED}player 1 scores 3 points{END}\nplain 3\n"


def test_no_color_on_a_terminal_gives_plain_text(
    terminal_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    stream = _Terminal()
    out = Output(stream)
    out.line("x", "red")
    _table(out)
    assert stream.getvalue() == "x\n" + PLAIN_TABLE


# --- offer_save: the questions and the answers ---------------------------------------------


def test_declining_asks_once_and_saves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    stream = io.StringIO()
    saved, questions = _save(Output(stream, colour=False), "N")
    assert saved is None and questions == [SAVE]
    assert stream.getvalue() == "not saved\n" and not list(tmp_path.iterdir())


@pytest.mark.parametrize("answers", [(), ("y",)])
def test_end_of_input_saves_nothing(answers: tuple[str, ...]) -> None:
    stream = io.StringIO()
    assert _save(Output(stream, colour=False), *answers)[0] is None
    assert stream.getvalue() == "not saved\n"


def test_enter_saves_under_the_default_name_and_stops_asking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    stream = io.StringIO()
    saved, questions = _save(Output(stream, colour=False), "Yes", "")
    assert saved == DEFAULT and questions == [SAVE, NAME]
    assert stream.getvalue() == f"saved the record to '{DEFAULT}'\n"
    assert Record.load(tmp_path / DEFAULT) == Record(players=2)


def test_an_existing_file_is_replaced_only_when_the_player_says_yes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken.json").write_text("keep me", encoding="utf-8")
    replace = "'taken.json' exists: replace it? [y/N] "
    stream = io.StringIO()
    out = Output(stream, colour=False)
    saved, questions = _save(out, "y", "taken.json", "n", "taken.json", "")
    assert saved is None and questions == [SAVE, NAME, replace, NAME, replace, NAME]
    assert (tmp_path / "taken.json").read_text(encoding="utf-8") == "keep me"
    saved, questions = _save(out, "y", "taken.json", "Y")
    assert saved == "taken.json" and questions == [SAVE, NAME, replace]
    assert Record.load(tmp_path / "taken.json") == Record(players=2)


def test_files_that_cannot_be_written_are_reported_and_the_name_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("", encoding="utf-8")
    stream = io.StringIO()
    answers = ("y", "folder", "missing/x.json", "file/x.json", "a\0b.json", "m.json")
    saved, questions = _save(Output(stream, colour=False), *answers)
    assert saved == "m.json" and questions == [SAVE] + [NAME] * 5
    assert stream.getvalue().splitlines() == [
        "could not save 'folder': Is a directory; choose another name",
        "could not save 'missing/x.json': No such file or directory; choose another name",
        "could not save 'file/x.json': Not a directory; choose another name",
        "could not save the record: 'a\\x00b.json': a file name cannot hold a NUL character;"
        " choose another name",
        "saved the record to 'm.json'",
    ]


def test_long_names_are_quoted_up_to_200_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    long = "x" * 194 + ".json"  # 201 characters quoted: one too many
    (tmp_path / long).write_text("old", encoding="utf-8")
    missing = "missing/" + "y" * 186 + ".json"
    stream = io.StringIO()
    saved, questions = _save(Output(stream, colour=False), "y", missing, long, "y")
    cut = "'" + "x" * 194 + ".jso…"
    assert saved == long and questions[-1] == f"{cut} exists: replace it? [y/N] "
    assert stream.getvalue().splitlines() == [
        f"could not save '{missing[:198]}…: No such file or directory; choose another name",
        f"saved the record to {cut}",
    ]


def test_failures_to_save_are_red_on_a_terminal(
    terminal_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    stream = _Terminal()
    _save(Output(stream), "y", "missing/x.json", "a\0b.json", "no")
    assert terminal_text(stream.getvalue()).splitlines() == [
        f"{RED}could not save 'missing/x.json': No such file or directory;"
        f" choose another name{END}",
        f"{RED}could not save the record: 'a\\x00b.json': a file name cannot hold a NUL"
        f" character; choose another name{END}",
        "not saved",
    ]
