"""The match logs the long benchmark runs share (``--log FILE`` of ``strength.py``,
``oracle_bound.py`` and ``estimate_ab.py``): one JSON line per finished match, read back
to resume a stopped run.

A log that cannot serve is refused before any match is played, with one line and status
2: a path that is not a regular file (a device, a folder), a file larger than 256 MiB, a
file that cannot be opened for appending (its folder missing or read-only), a broken
line before the last (named by its number). Blank lines are skipped. A last line cut
short (the run killed while writing it, a full disk) is an interrupted write: it is said
in one line on standard error and cut off, so that the next match starts a line of its
own. Each match is appended and flushed as it ends; Ctrl-C ends a run with one line
saying how many matches the log holds, and status 130.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

from chkobba.errors import shown_path

#: The largest log read back (256 MiB: far more than any run's matches).
LIMIT = 256 * 1024 * 1024

#: By log: the matches it held when last read, those appended since, and those appended
#: since the run began (for the line that Ctrl-C prints).
_HELD: dict[Path, int] = {}
_SINCE: dict[Path, int] = {}
_WRITTEN: dict[Path, int] = {}


def _refuse(log: Path, reason: str, status: int = 2) -> NoReturn:
    print(f"{Path(sys.argv[0]).name}: error: --log {shown_path(log)}: {reason}", file=sys.stderr)
    raise SystemExit(status)


def read(log: Path | None, needs: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The matches of ``log`` (none when there is no log, or no file yet), after checking
    that the next match can be appended to it; a log that cannot serve is refused (status
    2), a last line cut short is cut off. ``needs``: the fields each of the script's
    lines has (a line without them is another script's: refused)."""
    if log is None:
        return []
    try:
        found = os.stat(log)
    except FileNotFoundError:
        raw = b""
    except OSError as error:  # a parent that is a file, a folder not to be searched
        _refuse(log, f"cannot open it: {error.strerror}")
    else:
        if not stat.S_ISREG(found.st_mode):
            _refuse(log, f"is {_kind(found.st_mode)}, not a regular file")
        if found.st_size > LIMIT:
            _refuse(log, _too_large())
        raw = _contents(log)
    lines = raw.split(b"\n")
    tail = lines.pop()  # after the last newline: b"" when the file ends with one
    numbered = [(n, _match(log, n, line)) for n, line in enumerate(lines, 1) if line.strip()]
    matches = [match for _, match in numbered]
    ending = b""
    if tail.strip():
        try:
            numbered.append((len(lines) + 1, _parsed(tail)))
        except ValueError:
            # The run was stopped while writing this line: its match is played again.
            print(
                f"{Path(sys.argv[0]).name}: --log {shown_path(log)}: its last line, "
                f"line {len(lines) + 1}, was cut short (an interrupted write): cut off, "
                f"{_matches(len(matches))} kept",
                file=sys.stderr,
            )
            _cut(log, len(raw) - len(tail))
        else:
            ending = b"\n"  # a whole last line without its newline: the next starts anew
    elif tail:
        ending = b"\n"
    for number, match in numbered:
        missing = [field for field in needs if field not in match]
        if missing:
            _refuse(log, f"line {number} has no {missing[0]!r}: a log of another script?")
    matches = [match for _, match in numbered]
    try:
        with open(log, "ab") as file:  # created when missing: refused now, not after a match
            file.write(ending)
    except OSError as error:
        _refuse(log, f"cannot open it to append: {error.strerror}")
    _HELD[log], _SINCE[log] = len(matches), 0
    return matches


def _contents(log: Path) -> bytes:
    try:
        with open(log, "rb") as file:
            raw = file.read(LIMIT + 1)  # one byte more tells a file too large
    except OSError as error:
        _refuse(log, f"cannot read it: {error.strerror}")
    if len(raw) > LIMIT:  # grown since it was looked at
        _refuse(log, _too_large())
    return raw


def _too_large() -> str:
    return f"is larger than {LIMIT / 1024 / 1024:g} MiB, more than any run's log"


def _kind(mode: int) -> str:
    """What a path that is not a regular file is, for the refusal."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    return "a socket" if stat.S_ISSOCK(mode) else "a special file"


def _parsed(line: bytes) -> dict[str, Any]:
    match = json.loads(line)  # UnicodeDecodeError and JSONDecodeError are ValueErrors
    if not isinstance(match, dict):
        raise ValueError("not a JSON object")
    return match


def _match(log: Path, number: int, line: bytes) -> dict[str, Any]:
    try:
        return _parsed(line)
    except json.JSONDecodeError as error:
        why = f"{error.msg}, column {error.colno}"
    except ValueError as error:  # not UTF-8, or not an object
        why = str(error)
    _refuse(log, f"line {number} is not a match's JSON line ({why}): mend or delete it")


def _cut(log: Path, size: int) -> None:
    try:
        os.truncate(log, size)
    except OSError as error:
        _refuse(log, f"cannot cut off its broken last line: {error.strerror}")


def append(log: Path, match: dict[str, Any]) -> None:
    """Write ``match`` as the log's next line, flushed; a failed write (a full disk) ends
    the run with one line (status 1), the line it left cut off when the run resumes."""
    try:
        with open(log, "a", encoding="utf-8") as file:
            file.write(json.dumps(match) + "\n")
            file.flush()
    except OSError as error:
        _refuse(
            log,
            f"cannot write the match: {error.strerror}; it holds {_matches(_held(log))}, "
            "run the same command again to resume",
            status=1,
        )
    _SINCE[log] = _SINCE.get(log, 0) + 1
    _WRITTEN[log] = _WRITTEN.get(log, 0) + 1


def _held(log: Path) -> int:
    return _HELD.get(log, 0) + _SINCE.get(log, 0)


def _matches(count: int) -> str:
    return f"{count} match" if count == 1 else f"{count} matches"


@contextlib.contextmanager
def interruptible(log: Path | None) -> Iterator[None]:
    """Ctrl-C inside ends the run with one line and status 130, not a traceback."""
    if log is not None:
        _WRITTEN[log] = 0
    try:
        yield
    except KeyboardInterrupt:
        if log is None:
            said = "interrupted: no --log, so the matches played are not kept"
        else:
            said = (
                f"interrupted: {_matches(_held(log))} logged in {shown_path(log)} "
                f"({_WRITTEN[log]} this"
                " time); run the same command again to resume"
            )
        print(said, file=sys.stderr, flush=True)
        raise SystemExit(130) from None
