"""Lines typed or piped to the commands that ask (``play``'s moves, ``replay``'s steps):
bounded, so that endless input (``< /dev/zero``) is refused rather than held in memory,
and edited with the arrow keys and a history at a terminal that offers it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TextIO

from chkobba.errors import ChkobbaError

__all__ = [
    "LINE_LIMIT",
    "EndlessLine",
    "UnreadableInput",
    "can_edit",
    "edited_line",
    "read_line",
    "without_mark",
]

#: The most characters of a line that are read: a move, even a capture of every card or
#: a move list's line pasted whole, takes a few dozen.
LINE_LIMIT = 4096
#: The most characters of a line too long that are read and let go, looking for its
#: end: past them the input is no lines typed (``/dev/zero``), and the command ends.
_SKIP_LIMIT = 1024 * 1024


class EndlessLine(ChkobbaError):
    """Standard input holds a line longer than any typed: the command ends, saying so."""


class UnreadableInput(ChkobbaError):
    """Piped standard input holds a line that is not text in its encoding: nobody can
    type it again, so the command ends, saying so (at a terminal it is a slip)."""


def read_line(stream: TextIO) -> tuple[str, bool]:
    """One line of ``stream`` with its end (``""`` at the end of input), and whether it
    was longer than :data:`LINE_LIMIT`: then only its first characters are given, and
    the rest of the line is read and let go, a piece at a time, up to a mebibyte; a line
    longer still raises :class:`EndlessLine`.

    >>> import io
    >>> from chkobba.cli.reading import read_line
    >>> stream = io.StringIO("QH\\n" + "x" * 5000 + "\\nquit\\n")
    >>> read_line(stream)
    ('QH\\n', False)
    >>> text, too_long = read_line(stream)
    >>> len(text), too_long
    (4096, True)
    >>> read_line(stream), read_line(stream)
    (('quit\\n', False), ('', False))
    """
    text = stream.readline(LINE_LIMIT + 2)  # (a line of the limit, and CR LF)
    ended = text.endswith("\n") or len(text) < LINE_LIMIT + 2  # (or the input's end)
    if ended and len(text.rstrip("\r\n")) <= LINE_LIMIT:
        return text, False
    if not ended:
        _skip_rest(stream, len(text))
    return text[:LINE_LIMIT], True


def _skip_rest(stream: TextIO, skipped: int) -> None:
    """Read the rest of a line too long, and let it go, a piece at a time."""
    while (rest := stream.readline(LINE_LIMIT)) and not rest.endswith("\n"):
        skipped += len(rest)
        if skipped > _SKIP_LIMIT:
            raise EndlessLine(
                "standard input holds a line of more than a million characters: it is not "
                "lines typed"
            )


def can_edit(stream: TextIO, out: TextIO) -> bool:
    """Whether a line read from ``stream`` can be edited as it is typed: Python's
    ``input`` on the process's own terminal, with ``readline`` where the platform has it
    (the arrow keys, Ctrl-A/E, the lines typed before with Up)."""
    if stream is not sys.stdin or out is not sys.stdout:
        return False
    # The real descriptors, not what a stream says of itself: input() edits only there.
    with contextlib.suppress(AttributeError, OSError, ValueError):
        return os.isatty(stream.fileno()) and os.isatty(out.fileno())
    return False


def edited_line(prompt: str) -> str:
    """One line typed at the process's own terminal after ``prompt`` (where
    :func:`can_edit`), with its end (``""`` at the end of input), read by ``input``
    with its line editing."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (input() edits lines once it is imported)
    try:
        return input(prompt) + "\n"
    except EOFError:
        return ""


#: A byte-order mark as standard input's encoding reads it: UTF-8's, Windows' code page's
#: or Latin-1's (``ï»¿``), or an ASCII stream's bytes that are no text.
_MARKS = ("\ufeff", "\xef\xbb\xbf", "\udcef\udcbb\udcbf")


def without_mark(line: str) -> str:
    """``line`` without a byte-order mark before it (a file saved by Notepad, piped in).

    >>> from chkobba.cli.reading import without_mark
    >>> without_mark("\\ufeff1\\n"), without_mark("ï»¿QH\\n"), without_mark("QH\\n")
    ('1\\n', 'QH\\n', 'QH\\n')
    """
    for mark in _MARKS:
        if line.startswith(mark):
            return line[len(mark) :]
    return line
