"""Stop 74's review of the command in unusual terminals and environments: each test
fails on the code before its fix."""

from __future__ import annotations

import io
import re
import sys
import time
from pathlib import Path

import pytest

from chkobba.cli import main
from chkobba.cli.arguments import build_parser
from chkobba.cli.output import Output
from chkobba.cli.reading import LINE_LIMIT, EndlessLine, read_line
from tests.helpers import colour_terminal, run_cli


class _Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _ascii() -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding="ascii")


# --- what colour writes: the text as it is -------------------------------------------------


def test_colour_writes_emoji_codes_and_markup_as_they_are(monkeypatch: pytest.MonkeyPatch) -> None:
    # rich turned ':fire:' into an emoji in every styled line: a file's name, a profile's
    # name or a line typed was quoted as another text.
    colour_terminal(monkeypatch, columns=200)
    stream = _Terminal()
    out = Output(stream)
    assert out.rich is not None
    out.line("analysing ':fire:.json': 2 decisions", "bold")
    out.line("'QH:red_circle: x' is not a move", "red")
    out.table(["bot"], [[":x: [bold]me[/bold]"]])
    written = stream.getvalue()
    assert "':fire:.json'" in written and "'QH:red_circle: x'" in written
    assert ":x: [bold]me[/bold]" in written
    assert not {"🔥", "🔴", "❌"} & set(written)


# --- an ASCII output: cards in letters, any other suit or letter as its escape -------------


def test_an_ascii_output_writes_cards_in_letters_and_names_as_escapes() -> None:
    # Every suit symbol became a letter: 'I♥.json' was shown as 'IH.json', another file.
    out = Output(_ascii())
    said = out.writable("replaying 'I♥.json' (café ♥ maison): Q♥ x 2♦+6♠, 7♦…")
    assert said == "replaying 'I\\u2665.json' (caf\\xe9 \\u2665 maison): QH x 2D+6S, 7D..."
    # The program's own list of the symbols, and a card at the start of a line or after
    # a bracket, are still letters.
    assert out.writable("Q♥ (7♣) and ♠ ♥ ♦ ♣") == "QH (7C) and S H D C"


@pytest.mark.parametrize(
    ("name", "written"),
    # 'I♥.json' was shown as 'IH.json', and '7♦.json' (at first fixed for the former
    # only, the diff's review found) as '7D.json': the names of other files.
    [("I♥.json", "/I\\u2665.json'"), ("7♦.json", "/7\\u2666.json'")],
)
def test_replay_on_an_ascii_output_names_a_file_with_a_suit_as_it_is(
    name: str, written: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / name
    path.write_text(_records(1), encoding="utf-8")
    stdout = _ascii()
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    monkeypatch.setattr(sys, "stdin", io.StringIO())
    assert main(["replay", str(path), "--no-boards"]) == 0
    stdout.flush()
    shown = stdout.buffer.getvalue().decode("ascii")  # type: ignore[attr-defined]
    assert written in shown.splitlines()[0], shown.splitlines()[0]
    assert re.search(r"\b[A2-7QJK][SHDC]\b", shown)  # the cards played, in letters


# --- play's lines: bounded, a byte-order mark skipped, a codec's complaint one line --------


def test_read_line_gives_a_long_lines_start_and_lets_its_rest_go() -> None:
    stream = io.StringIO("1\n" + "2" * (3 * LINE_LIMIT) + "\nquit\n")
    assert read_line(stream) == ("1\n", False)
    assert read_line(stream) == ("2" * LINE_LIMIT, True)
    assert read_line(stream) == ("quit\n", False)
    assert read_line(stream) == ("", False)
    # A line of exactly the limit, with its end, is not too long.
    assert read_line(io.StringIO("3" * LINE_LIMIT + "\n")) == ("3" * LINE_LIMIT + "\n", False)


def test_read_line_refuses_a_line_without_end() -> None:
    with pytest.raises(EndlessLine, match="more than a million characters"):
        read_line(io.StringIO("\0" * (1024 * 1024 + 2 * LINE_LIMIT)))


def test_play_refuses_a_line_longer_than_any_move_and_asks_again() -> None:
    code, out, err = run_cli("play", "--seed", "3", stdin="1" * 5000 + "\n1\nquit\nn\n")
    assert (code, err) == (0, "")
    assert f"that line is longer than {LINE_LIMIT:,} characters, more than any move" in out
    assert "1" * 80 + "…\n" in out and "1" * 81 not in out  # the echo, cut
    assert "you play 5♦ and take 2♥ 3♥" in out  # the next line, played


def test_play_ends_with_one_line_on_endless_input() -> None:
    # < /dev/zero: a MemoryError's traceback, or all of memory, before.
    code, _, err = run_cli("play", "--seed", "3", stdin="\0" * (1024 * 1024 + 2 * LINE_LIMIT))
    assert code == 1
    assert err == (
        "chkobba play: error: standard input holds a line of more than a million "
        "characters: it is not lines typed\n"
    )


def test_play_skips_a_byte_order_mark_before_the_first_line() -> None:
    code, out, _ = run_cli("play", "--seed", "3", stdin="\ufeff1\nquit\nn\n")
    assert code == 0
    assert "is not a move" not in out
    assert "you play 5♦ and take 2♥ 3♥" in out


class _Complaining(io.StringIO):
    """A stream whose codec complains as UTF-16's does without its mark."""

    def readline(self, size: int | None = -1, /) -> str:
        raise UnicodeError("UTF-16 stream does not start with BOM")


def test_a_codecs_own_complaint_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdin", _Complaining())
    assert main(["play", "--seed", "3"]) == 1
    assert err.getvalue() == (
        "chkobba play: error: standard input or output cannot be used: UTF-16 stream does "
        "not start with BOM\n"
    )


# --- arguments ----------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["simulate", "--games", "1"], ["demo"]])
def test_bots_given_twice_seat_the_bots_of_both(command: list[str]) -> None:
    # argparse kept the last --bots only: simulate answered "give at least two bots".
    args = build_parser().parse_args([*command, "--bots", "greedy", "--bots", "random", "expert"])
    assert [str(spec) for spec in args.bots] == ["greedy", "random", "expert"]


def test_simulate_with_bots_given_twice_plays_them() -> None:
    code, out, err = run_cli(
        "simulate", "--games", "2", "--bots", "greedy", "--bots", "random", "--target", "1"
    )
    assert (code, err) == (0, "")
    assert "greedy" in out and "random" in out


# --- replay and analyse read standard input for - ----------------------------------------


def _records(games: int) -> str:
    """``games`` quick matches' records, one a line, as ``simulate --records -`` writes."""
    quick = f"simulate --games {games} --bots greedy random --target 1 --records -"
    code, out, _ = run_cli(*quick.split())
    assert code == 0
    return out


def _with_stdin(
    monkeypatch: pytest.MonkeyPatch, data: bytes | None
) -> tuple[io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdin", None if data is None else io.TextIOWrapper(io.BytesIO(data)))
    return out, err


def test_replay_reads_standard_input_for_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    out, err = _with_stdin(monkeypatch, _records(2).encode())
    assert main(["replay", "-", "--game", "2", "--no-boards"]) == 0
    assert err.getvalue() == ""
    assert out.getvalue().startswith("replaying standard input: 2 players, ")
    assert "game 1" in out.getvalue().splitlines()[1]  # the second match's tags (from 0)


def test_replay_names_standard_input_in_its_refusals(monkeypatch: pytest.MonkeyPatch) -> None:
    _, err = _with_stdin(monkeypatch, _records(2).encode())
    assert main(["replay", "-"]) == 1
    assert err.getvalue() == (
        "chkobba replay: error: standard input holds 2 records, one per line: choose one "
        "with --game N\n"
    )
    _, err = _with_stdin(monkeypatch, None)
    assert main(["replay", "-"]) == 1
    assert err.getvalue() == "chkobba replay: error: cannot read standard input: it is closed\n"


def test_analyse_reads_standard_input_for_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    out, err = _with_stdin(monkeypatch, _records(1).encode())
    assert main(["analyse", "-", "--bot", "expert:iterations=5"]) == 0
    assert err.getvalue() == ""
    assert out.getvalue().startswith("analysing standard input: ")


# --- the diff's review: names written as they are, pipes read line by line ---------------


class _Pipe(io.BytesIO):
    """A pipe's bytes: not seekable, and failing a test that reads past ``stop``."""

    def __init__(self, data: bytes, stop: bytes) -> None:
        super().__init__(data)
        self.stop = stop

    def seekable(self) -> bool:
        return False

    def _checked(self, data: bytes) -> bytes:
        assert self.stop not in data, "read past the game chosen"
        return data

    def read(self, size: int | None = -1, /) -> bytes:
        return self._checked(super().read(size))

    def readline(self, size: int | None = -1, /) -> bytes:
        return self._checked(super().readline(size))


def test_replay_of_a_pipe_stops_reading_at_the_game_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    # The pipe was read whole (up to 256 MiB) before its lines were looked at: a writer
    # still writing held the replay back, and more than 256 MiB was refused.
    data = (_records(2) + "the writer is still writing\n").encode()
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(_Pipe(data, b"still writing")))
    assert main(["replay", "-", "--game", "2", "--no-boards"]) == 0
    assert (err.getvalue(), out.getvalue()[:28]) == ("", "replaying standard input: 2 ")


def test_a_pipe_of_one_record_over_several_lines_still_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from chkobba import Record

    pretty = Record.from_json(_records(1)).to_json()  # (indented, over many lines)
    assert pretty.count("\n") > 3
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(_Pipe(pretty.encode(), b"\0")))
    assert main(["replay", "-", "--no-boards"]) == 0
    assert out.getvalue().startswith("replaying standard input: 2 players")


@pytest.mark.parametrize("mark", ["\ufeff", "ï»¿", "\udcef\udcbb\udcbf"])
def test_play_skips_a_byte_order_mark_as_any_encoding_reads_it(mark: str) -> None:
    # UTF-8's mark read as Windows' code page or Latin-1 reads (ï»¿), or by an ASCII
    # stream (bytes that are no text): it was refused as a move, or as no ASCII text.
    code, out, _ = run_cli("play", "--seed", "3", stdin=mark + "1\nquit\nn\n")
    assert code == 0
    assert "you play 5♦ and take 2♥ 3♥" in out


def test_a_line_of_the_limit_with_cr_lf_is_not_too_long() -> None:
    line = "5" * LINE_LIMIT + "\r\n"
    assert read_line(io.StringIO(line + "quit\n")) == (line, False)
    assert read_line(io.StringIO("5" * (LINE_LIMIT + 1) + "\r\n")) == ("5" * LINE_LIMIT, True)
    assert read_line(io.StringIO("5" * (LINE_LIMIT + 1))) == ("5" * LINE_LIMIT, True)
    assert read_line(io.StringIO("5" * LINE_LIMIT)) == ("5" * LINE_LIMIT, False)


def test_the_endless_lines_message_is_on_a_line_of_its_own() -> None:
    _, out, _ = run_cli("play", "--seed", "3", stdin="\0" * (1024 * 1024 + 2 * LINE_LIMIT))
    assert out.endswith("your move> \n")


@pytest.mark.out_of_process
@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX pseudo-terminal")
def test_play_at_a_terminal_edits_lines_and_recalls_them() -> None:
    pytest.importorskip("readline")
    from tests.test_cli_people import Terminal

    terminal = Terminal("play", "--seed", "3")
    terminal.expect("your move> ")
    terminal.send("2\x1b[D1\r")  # 2, Left, 1: "12" (it was '2\x1b[D1' is not a move)
    terminal.expect("12 is not a move number")
    terminal.send("\x1b[A\r")  # Up: the line typed before
    end = time.monotonic() + 60
    while terminal.output.count("12 is not a move number") < 2 and time.monotonic() < end:
        terminal._read(0.5)
    assert terminal.output.count("12 is not a move number") == 2, terminal.output
    terminal.send("quit\r")
    terminal.expect("Save the match as a record? [y/N] ")
    terminal.send("n\r")
    assert terminal.finish() == 0
