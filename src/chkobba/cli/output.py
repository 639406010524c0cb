"""Terminal output with optional colour: ``rich`` when it is installed and the stream is a
terminal, plain text otherwise (pipes, logs, tests, or no ``cli`` extra installed).

Only the command line imports this module; the library itself never imports ``rich``.
"""

from __future__ import annotations

import codecs
import contextlib
import itertools
import os
import re
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

__all__ = [
    "PLAIN_FORMS",
    "Output",
    "encoding_name",
    "escaped",
    "is_closed",
    "is_terminal",
    "plain_forms",
]


def _rich_console(stream: TextIO) -> Any:
    try:
        from rich.console import Console
    except ImportError:
        return None
    # No markup and no emoji codes: a file name, a profile's name or a line typed is
    # written as it is (":fire:.json" is not shown as "🔥.json"). NO_COLOR is decided
    # by Output (set and not empty): rich before 14 also took an empty one for "no colour".
    return Console(
        file=stream, highlight=False, soft_wrap=True, markup=False, emoji=False, no_color=False
    )


class Output:
    """Lines, tables and progress bars on one stream, coloured only on a terminal."""

    def __init__(self, stream: TextIO, *, colour: bool | None = None) -> None:
        self.stream = stream
        if colour is None:
            # no-color.org: set and not empty (an empty NO_COLOR leaves colour on)
            colour = is_terminal(stream) and not os.environ.get("NO_COLOR")
        self.rich = _rich_console(stream) if colour else None
        self.plain = plain_forms(stream)

    def writable(self, text: str) -> str:
        """``text`` as the stream's encoding can write it: on a stream without the suit
        symbols, a card's in the notation's letters (:data:`PLAIN_FORMS`), an ellipsis as
        three dots, and any other character it lacks (a tag's or a name's ``é``, a suit
        in a file's name, on an ASCII terminal) as its escape, ``\\xe9``, rather than
        an error that ends the command."""
        if not self.plain:
            return text
        return escaped(_plain_cards(_offered_once(text), self.plain), self.stream)

    def literal(self, text: str) -> str:
        """``text`` given by someone else (a file's name, a tag, a profile's name), for a
        line: on a stream without the suit symbols, every character the encoding lacks
        as its escape, so that no suit in it is taken for a card's and written as a
        letter (``'7♦.json'`` is not ``'7D.json'``, another file).

        >>> import io
        >>> from chkobba.cli.output import Output
        >>> out = Output(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
        >>> print(out.writable(f"replaying {out.literal(repr('7♦.json'))}: 7♦"))
        replaying '7\\u2666.json': 7D
        """
        return escaped(text, self.stream) if self.plain else text

    def line(self, text: str = "", style: str | None = None) -> None:
        """Write one line (``style`` is a rich style, ignored without colour)."""
        text = self.writable(text)
        if self.rich is not None and style:
            self.rich.print(text, style=style, markup=False, highlight=False)
        else:
            self.stream.write(text + "\n")
            self.stream.flush()

    def prompt(self, text: str) -> None:
        """Write a prompt without a newline."""
        self.stream.write(self.writable(text))
        self.stream.flush()

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        """A table: rich's on a terminal, aligned plain text otherwise."""
        if self.rich is not None:
            from rich.table import Column, Table

            table = Table(*(Column(header, overflow="fold") for header in headers))
            for row in rows:
                table.add_row(*row)
            # Too wide for the terminal, rich would fold cells (3.1 over 7, a number read
            # row by row as two), or cut them with an ellipsis; a dumb terminal (an editor's
            # shell, a speech setup) shows the box drawing as clutter. The plain table then,
            # which the terminal wraps with every value whole.
            unbounded = self.rich.options.update_width(_WIDEST)  # measured as it would be
            fits = self.rich.measure(table, options=unbounded).maximum <= self.rich.width
            if fits and not self.rich.is_dumb_terminal:
                self.rich.print(table)
                return
        # Rows of any length, as rich takes them: a short one is padded with empty cells,
        # a long one adds columns.
        lines = [[str(cell) for cell in row] for row in (headers, *rows)]
        widths = [max(map(len, column)) for column in itertools.zip_longest(*lines, fillvalue="")]
        for line in lines:
            line += [""] * (len(widths) - len(line))
            cells = (cell.ljust(width) for cell, width in zip(line, widths, strict=True))
            self.line("  ".join(cells).rstrip())

    @contextlib.contextmanager
    def progress(self, total: int, description: str) -> Iterator[Any]:
        """A progress bar on a terminal; yields ``advance(done, total)``."""
        if self.rich is None:
            yield lambda done, total: None
            return
        from rich.progress import Progress, TimeElapsedColumn

        # The speed is averaged over the whole run (rich's default, the last 30 seconds,
        # leaves no estimate at all once a match takes longer), and the time elapsed
        # shows that a slow first match is under way.
        columns = (*Progress.get_default_columns(), TimeElapsedColumn())
        with Progress(
            *columns, console=self.rich, transient=True, speed_estimate_period=_RUN_SECONDS
        ) as bar:
            task = bar.add_task(description, total=total)
            yield lambda done, total: bar.update(task, completed=done)


#: A width no table reaches: a table is measured against it, not against the terminal's
#: (a measure bounded by the terminal's width says every table fits).
_WIDEST = 1_000_000

#: The progress bar's speed is the mean over this many seconds: a whole run, in practice.
_RUN_SECONDS = 7 * 24 * 3600.0


#: What a stream whose encoding lacks a character the commands write gets instead: a
#: suit as the notation's letter (``Q♥`` is written ``QH``, which ``play`` reads back),
#: an ellipsis as three dots.
PLAIN_FORMS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "…": "..."}


#: A card offered in letters or in symbols ("QH or Q♥"): its symbol form, once letters,
#: would offer the same card twice.
_CARD_BOTH_WAYS = re.compile(r"\b([A2-7QJK])([SHDC]) or \1([♠♥♦♣])")


def _offered_once(text: str) -> str:
    """``text`` without the symbols offered beside the letters ("S H D C or ♠ ♥ ♦ ♣",
    "S H D C (or ♠ ♥ ♦ ♣)", "QH or Q♥"), for a stream that would write them as the same
    letters again. Only those exact alternatives go: a player's own "7C or 7C" is written
    as typed.

    >>> _offered_once("a suit (S H D C or ♠ ♥ ♦ ♣), as in QH or Q♥; 7C or 7♥")
    'a suit (S H D C), as in QH; 7C or 7♥'
    >>> _offered_once("suits S H D C (or ♠ ♥ ♦ ♣).")  # the help's way
    'suits S H D C.'
    """
    text = text.replace("S H D C or ♠ ♥ ♦ ♣", "S H D C").replace(" (or ♠ ♥ ♦ ♣)", "")
    return _CARD_BOTH_WAYS.sub(
        lambda both: both[1] + both[2] if PLAIN_FORMS[both[3]] == both[2] else both[0], text
    )


#: A card written with its suit symbol (``Q♥``), or the help's list of the symbols: what
#: a stream without them gets in letters. A suit elsewhere (``I♥.json``) is another's
#: text, written as its escape.
_SYMBOL_CARD = re.compile(r"(?<!\w)[A2-7QJK][♠♥♦♣]|♠ ♥ ♦ ♣")


def _plain_cards(text: str, plain: dict[int, str]) -> str:
    """``text`` with the cards written with suit symbols that ``plain`` replaces written in
    letters, and its ellipses as three dots (when ``plain`` replaces them).

    >>> plain = {ord(char): letters for char, letters in PLAIN_FORMS.items()}
    >>> _plain_cards("Q♥ x 2♦+6♠ in I♥.json, A♣…", plain)
    'QH x 2D+6S in I♥.json, AC...'
    """
    text = _SYMBOL_CARD.sub(lambda card: card[0].translate(plain), text)
    return text.replace("…", plain.get(ord("…"), "…"))


def encoding_name(stream: object) -> str:
    """The name of ``stream``'s encoding for a message: ``UTF-8``, ``ASCII``, ``CP1252``
    (``UTF-8`` for a stream that names none, as a test's ``StringIO``).

    >>> import io
    >>> from chkobba.cli.output import encoding_name
    >>> encoding_name(io.TextIOWrapper(io.BytesIO(), encoding="us-ascii"))
    'ASCII'
    >>> encoding_name(io.StringIO())
    'UTF-8'
    """
    name = getattr(stream, "encoding", None)
    if not isinstance(name, str):
        return "UTF-8"
    try:
        return codecs.lookup(name).name.upper()
    except LookupError:  # an encoding Python does not know: as the stream names it
        return name


def plain_forms(stream: TextIO) -> dict[int, str]:
    """The characters of :data:`PLAIN_FORMS` that ``stream``'s encoding cannot write (an
    ASCII terminal, a Windows console's code page, a file redirected under a legacy
    locale), for ``str.translate``; empty for UTF-8.

    >>> import io
    >>> from chkobba.cli.output import plain_forms
    >>> ascii_stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    >>> "Q♥ 7♦ …".translate(plain_forms(ascii_stream))
    'QH 7D ...'
    >>> plain_forms(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    {}
    """
    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str):
        return {}
    lacking = {}
    for char, plain in PLAIN_FORMS.items():
        try:
            char.encode(encoding)
        except (UnicodeEncodeError, LookupError):
            lacking[ord(char)] = plain
    return lacking


def escaped(text: str, stream: object) -> str:
    """``text`` with what ``stream``'s encoding lacks written as escapes, as Python's own
    standard error writes them: a line is never lost to the encoding, and a file or a
    card is named as it is, never with another character in its place.

    >>> import io
    >>> from chkobba.cli.output import escaped
    >>> print(escaped("café Q♥", io.TextIOWrapper(io.BytesIO(), encoding="latin-1")))
    café Q\\u2665
    >>> print(escaped("café Q♥", io.StringIO()))  # no encoding: as it is
    café Q♥
    """
    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str):
        return text
    try:
        return text.encode(encoding, "backslashreplace").decode(encoding)
    except LookupError:  # an encoding Python does not know: write it as it is
        return text


def is_terminal(stream: TextIO | None) -> bool:
    """True when ``stream`` is an interactive terminal (not a pipe, a file or a test).

    >>> import io
    >>> from chkobba.cli.output import is_terminal
    >>> is_terminal(io.StringIO()), is_terminal(None)
    (False, False)
    """
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and not is_closed(stream) and isatty())


def is_closed(stream: TextIO | None) -> bool:
    """True when there is no ``stream`` to use: ``None`` (a shell's ``>&-`` leaves that)
    or a stream the program has closed (whose every use would raise ``ValueError``).

    >>> import io
    >>> from chkobba.cli.output import is_closed
    >>> stream = io.StringIO()
    >>> is_closed(stream), is_closed(None)
    (False, True)
    >>> stream.close()
    >>> is_closed(stream)
    True
    """
    return stream is None or getattr(stream, "closed", False) is True
