"""Saving a match played with ``chkobba play``: the questions, the retries, the file.

The player is asked whether to save; a file name is offered (dated, in the current
folder); a file that exists is only replaced when the player says so; a file that cannot
be written is reported and the name asked again, until the record is saved or the
player declines. Nothing here reads the terminal directly: questions go through ``ask``.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable

from chkobba.cli.output import Output
from chkobba.errors import ChkobbaError, shown_path
from chkobba.records import Record

__all__ = ["default_name", "offer_save"]

_YES = ("y", "yes")
_DECLINE = ("n", "no", "cancel")

#: Asks a question and returns the answer, stripped; raises EOFError at the end of input.
Ask = Callable[[str], str]


def default_name(now: datetime.datetime | None = None) -> str:
    """The file name offered by default: ``chkobba-2026-11-30-1542.json``.

    >>> import datetime
    >>> from chkobba.cli.saving import default_name
    >>> default_name(datetime.datetime(2026, 3, 9, 7, 5))  # without it: the local time now
    'chkobba-2026-03-09-0705.json'
    """
    now = now or datetime.datetime.now()
    return f"chkobba-{now:%Y-%m-%d-%H%M}.json"


def offer_save(out: Output, ask: Ask, record: Record, default: str) -> str | None:
    """Ask whether to save ``record`` and where; returns the path saved to, or ``None``."""
    try:
        if ask("Save the match as a record? [y/N] ").lower() not in _YES:
            out.line("not saved")
            return None
        while True:
            path = _ask_path(out, ask, default)
            if path is None:
                out.line("not saved")
                return None
            if _save(out, record, path):
                return path
    except EOFError:
        out.line("not saved")
        return None


def _ask_path(out: Output, ask: Ask, default: str) -> str | None:
    """A path the player agreed to write to, or ``None`` when they decline."""
    while True:
        answer = ask(f"File name (Enter: {default}; no: do not save): ")
        if answer.lower() in _DECLINE:
            return None
        path = os.path.expanduser(answer or default)
        if not os.path.lexists(path):  # (a link to nothing exists too: it is asked about)
            return path
        if os.path.isdir(path):
            return path  # writing reports it, and the name is asked again
        if os.path.islink(path):  # a save writes through a link: say where it goes
            where = out.literal(shown_path(os.path.realpath(path)))
            question = f"{out.literal(shown_path(path))} is a link to {where}: write there?"
        else:
            question = f"{out.literal(shown_path(path))} exists: replace it?"
        if ask(f"{question} [y/N] ").lower() in _YES:
            return path


def _save(out: Output, record: Record, path: str) -> bool:
    try:
        record.save(path)
    except OSError as error:
        reason = error.strerror or error
        out.line(
            f"could not save {out.literal(shown_path(path))}: {reason}; choose another name", "red"
        )
        return False
    except ChkobbaError as error:  # a name no file can have (a NUL): the error names it
        out.line(f"could not save the record: {error}; choose another name", "red")
        return False
    out.line(f"saved the record to {out.literal(shown_path(path))}")
    return True
