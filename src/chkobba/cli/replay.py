"""``chkobba replay FILE``: show every move of a record and the board after it."""

from __future__ import annotations

from chkobba.cli.narrate import describe
from chkobba.cli.output import Output
from chkobba.engine import apply
from chkobba.errors import ChkobbaError, IllegalMoveError, shown
from chkobba.moves import Shuffle
from chkobba.records import Record
from chkobba.render import render

__all__ = ["CommandError", "run_replay"]


class CommandError(ChkobbaError):
    """A failure a command reports in one line (exit status 1)."""


def run_replay(out: Output, path: str, *, boards: bool = True) -> int:
    """Replay the record at ``path``; a corrupt one stops at its first illegal move."""
    # The file name as a message shows it: quoted, control characters escaped.
    name = shown(path, 200)
    try:
        with open(path, "rb") as file:
            raw = file.read()
    except OSError as error:
        raise CommandError(f"cannot read {name}: {error.strerror or error}") from None
    try:
        # Bytes, read as Record.load reads them: UTF-8, a byte-order mark allowed.
        record = Record.from_json(raw, verify=False)
    except ChkobbaError as error:
        raise CommandError(f"{name} is not a valid record: {error}") from None
    state = record.start()
    out.line(f"replaying {name}: {record.players} players, {len(record.moves)} moves", "bold")
    for index, move in enumerate(record.moves):
        try:
            after = apply(state, move)
        except IllegalMoveError as error:
            raise CommandError(f"{name}: move {index + 1} ({move}) is illegal: {error}") from None
        shuffle = isinstance(move, Shuffle)
        out.line(f"{index + 1}. {'shuffle' if shuffle else move}", style="bold")
        for text in describe(state, move, after):
            out.line("   " + text)
        if boards and not shuffle:
            for text in render(after).splitlines():
                out.line("   " + text, style="dim")
        state = after
    if state.is_over:
        out.line(f"the record is complete: side {state.winner} won {_pair(state.scores)}")
    else:
        out.line(f"the record ends in phase {state.phase.name}, scores {_pair(state.scores)}")
    return 0


def _pair(values: tuple[int, ...]) -> str:
    return "-".join(str(v) for v in values)
