"""The command line on a stream that cannot write the suit symbols (found in stop 54).

An ASCII terminal, a Windows console's code page or a file redirected under a legacy
locale (``PYTHONIOENCODING=cp1252``) cannot encode ``♠ ♥ ♦ ♣``: every command that shows
a card stopped at the first one ("chkobba demo: error: cannot write '\\u2660' in
ascii"). Such a stream now gets the notation's letters (``Q♥`` is written ``QH``, which
``play`` reads back), three dots for an ellipsis, and any other character it lacks as
its escape; the error line escapes what it cannot write. A UTF-8 stream is unchanged.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import attrs
import pytest

from chkobba import TUNISIAN, Record
from chkobba.arena import play_match
from chkobba.cli import main
from chkobba.cli.output import PLAIN_FORMS, Output, encoding_name, plain_forms
from chkobba.cli.play import _Match
from chkobba.cli.reading import UnreadableInput
from tests.helpers import TypedBytes


def _stream(encoding: str) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding=encoding, write_through=True)


def _written(stream: io.TextIOWrapper) -> str:
    buffer = stream.buffer
    assert isinstance(buffer, io.BytesIO)
    return buffer.getvalue().decode(stream.encoding)


@pytest.mark.parametrize("encoding", ["ascii", "cp1252", "latin-1"])
def test_a_stream_without_the_suits_gets_the_notations_letters(encoding: str) -> None:
    stream = _stream(encoding)
    out = Output(stream, colour=False)
    out.line("player 1 plays Q♥ and takes 2♦ 6♠ A♣")
    out.prompt("player 0 (expert) is thinking…")
    dots = "…" if encoding == "cp1252" else "..."  # cp1252 has the ellipsis
    assert _written(stream) == (
        "player 1 plays QH and takes 2D 6S AC\nplayer 0 (expert) is thinking" + dots
    )


def test_a_utf8_stream_keeps_the_symbols() -> None:
    stream = _stream("utf-8")
    Output(stream, colour=False).line("Q♥ x 2♦+6♠ …")
    assert _written(stream) == "Q♥ x 2♦+6♠ …\n"
    assert plain_forms(stream) == {}


def test_only_what_the_encoding_lacks_is_replaced() -> None:
    # cp1252 has the ellipsis but no suit.
    lacking = plain_forms(_stream("cp1252"))
    assert lacking == {ord(c): PLAIN_FORMS[c] for c in "♠♥♦♣"}
    assert plain_forms(io.StringIO()) == {}  # no encoding: text, not bytes


def test_the_demo_runs_whole_on_an_ascii_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    stdout, stderr = _stream("ascii"), _stream("ascii")
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    assert main(["demo", "--seed", "1", "--no-colour"]) == 0
    text = _written(stdout)
    assert "player 1 cuts and exposes JS\ntable: JS 3H 5H 2D\n" in text
    assert text.rstrip().endswith("player 1 wins the match 15-23 after 9 deals")
    assert _written(stderr) == ""


def test_an_error_line_on_an_ascii_stream_escapes_what_it_cannot_write(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A file name is quoted as it is (its ♥ is no card), escaped where the stream lacks
    # it, as Python's own standard error does; a strict stream does not lose the line.
    stderr = _stream("ascii")
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(sys, "stdout", _stream("ascii"))
    assert main(["replay", "/nonexistent/Q♥.json"]) == 1
    assert _written(stderr) == (
        "chkobba replay: error: cannot read '/nonexistent/Q\\u2665.json': "
        "No such file or directory\n"
    )


def test_other_characters_the_stream_lacks_are_escaped_not_fatal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A tag or a bot's name with an accent stopped ``replay`` on an ASCII terminal."""
    record = attrs.evolve(play_match(["greedy", "random"], seed=1).record, tags={"event": "Café ♥"})
    path = tmp_path / "match.json"
    path.write_text(record.to_json(), encoding="utf-8")
    stdout, stderr = _stream("ascii"), _stream("ascii")
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    assert main(["replay", str(path), "--no-boards", "--no-colour"]) == 0
    # Its ♥ is no card: escaped, not a letter (stop 74).
    assert _written(stdout).splitlines()[1] == "tags: event Caf\\xe9 \\u2665"
    assert _written(stderr) == ""


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_records_on_standard_output_are_utf8_whatever_its_encoding(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, encoding: str
) -> None:
    """Found by a review: ``--records -`` wrote in the stream's encoding, so a profile named
    with an accent gave Latin-1 bytes, which ``replay /dev/stdin`` refused as no UTF-8
    (or, under ASCII, no records at all). Records are UTF-8, as in a file."""
    house = tmp_path / "ete.json"
    rules = attrs.evolve(TUNISIAN, name="maison été", target=3)
    house.write_text(rules.to_json(), encoding="utf-8")
    stdout, stderr = _stream(encoding), _stream(encoding)
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    args = ["simulate", "--games", "2", "--bots", "greedy", "random", "--rules", str(house)]
    assert main([*args, "--records", "-", "--no-colour"]) == 0
    buffer = stdout.buffer
    assert isinstance(buffer, io.BytesIO)
    records = buffer.getvalue().decode("utf-8").splitlines()
    assert len(records) == 2
    assert {Record.from_json(line).rules for line in records} == {rules}
    assert "rules to 3" in _written(stderr)  # the table went to standard error


# --- found by a newcomer's walk through the docs (2026-12-06) -----------------------------


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
def test_a_hint_offering_letters_or_symbols_offers_the_letters_once(encoding: str) -> None:
    """Once the symbols are letters, "as in QH or Q♥" read "as in QH or QH"."""
    stream = _stream(encoding)
    out = Output(stream, colour=False)
    out.line("'q' is not a whole card: a card is a rank and a suit, as in QH or Q♥")
    out.line("a card is a rank (A 2 3 4 5 6 7 Q J K) then a suit (S H D C or ♠ ♥ ♦ ♣)")
    out.line("keep or expose; 7D or 7♥")  # two forms that differ stay
    # Text that merely repeats itself is no offer of symbols: a player's line, a tag, a
    # list of captures (a review found the first fix deleting them).
    out.line("'7C or 7C'; tags: White Ali or Ali; 3D+3C+4H or 4H+6S; QH or QH")
    assert _written(stream) == (
        "'q' is not a whole card: a card is a rank and a suit, as in QH\n"
        "a card is a rank (A 2 3 4 5 6 7 Q J K) then a suit (S H D C)\n"
        "keep or expose; 7D or 7H\n"
        "'7C or 7C'; tags: White Ali or Ali; 3D+3C+4H or 4H+6S; QH or QH\n"
    )
    utf8 = _stream("utf-8")
    Output(utf8, colour=False).line("as in QH or Q♥ (S H D C or ♠ ♥ ♦ ♣)")
    assert _written(utf8) == "as in QH or Q♥ (S H D C or ♠ ♥ ♦ ♣)\n"


@pytest.mark.parametrize(
    ("encoding", "typed", "refusal"),
    [
        ("utf-8", b"6\xff", "that line is not UTF-8 text (byte 0xff)"),
        ("ascii", "6♣".encode(), "that line is not ASCII text (byte 0xe2)"),
        ("latin-1", b"6\xff", None),  # every byte is Latin-1 text: read, then not a card
    ],
)
def test_play_names_the_encoding_a_line_it_cannot_read_is_not_in(
    encoding: str, typed: bytes, refusal: str | None
) -> None:
    """``play`` called a line of UTF-8 (``6♣``) "not UTF-8 text" when it read standard
    input as ASCII: it names the encoding it reads in. Typed at a terminal the line is
    a slip, typed again; from a pipe, where nobody can type it again, it ends the
    command (issue 10: "undecodable streams get a one-line error and exit 1")."""
    stdout = io.StringIO()
    for stream in (TypedBytes, io.BytesIO):
        stdin = io.TextIOWrapper(
            stream(typed + b"\nQH\n"), encoding=encoding, errors="surrogateescape"
        )
        match = _Match(Output(stdout, colour=False), stdin, players=2, specs={}, seed=5, auto=False)
        if refusal is None:
            assert match.read("> ") == typed.decode(encoding)
        elif stream is TypedBytes:
            assert match.read("> ") == "QH"
            assert f"{refusal}: type it again\n" in stdout.getvalue()
        else:
            with pytest.raises(UnreadableInput) as ended:
                match.read("> ")
            piped = refusal.replace("that line", "standard input")
            assert str(ended.value) == piped


def test_an_encodings_name_in_a_message() -> None:
    assert encoding_name(_stream("utf8")) == "UTF-8"
    assert encoding_name(_stream("us-ascii")) == "ASCII"
    assert encoding_name(_stream("windows-1252")) == "CP1252"
    assert encoding_name(io.StringIO()) == "UTF-8"  # text: nothing to decode

    class Named:
        encoding = "no-such-codec"

    assert encoding_name(Named()) == "no-such-codec"
