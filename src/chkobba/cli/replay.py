"""``chkobba replay FILE``: show every move of a record and the board after it.

On a terminal the replay waits for Enter after each move (``d`` skips to the next deal,
``a`` shows the rest, ``q`` stops), so a long record does not scroll past; through a pipe,
or with ``--no-step``, it prints everything. ``--deal N`` shows one deal.
"""

from __future__ import annotations

import functools
import io
import sys
from collections.abc import Callable, Iterator
from typing import BinaryIO, TextIO, cast

from chkobba._describe import cut, move_number, one_line
from chkobba.cli.narrate import counted, describe
from chkobba.cli.output import Output, is_terminal
from chkobba.cli.reading import read_line
from chkobba.engine import apply
from chkobba.errors import ChkobbaError, IllegalMoveError, shown, shown_path
from chkobba.moves import Shuffle
from chkobba.records import FILE_LIMIT, Record, read_at_most, record_line_readers
from chkobba.render import render
from chkobba.state import Phase, State

__all__ = ["CommandError", "run_replay"]

_STEP_PROMPT = "-- Enter: next move, d: to the end of the deal, a: all the rest, q: quit -- "


class CommandError(ChkobbaError):
    """A failure a command reports in one line (exit status 1)."""


class _Stop(Exception):
    """The reader asked to stop the replay."""


class _Pager:
    """Waits for the reader after each move, on a terminal only."""

    def __init__(self, out: Output, stdin: TextIO | None) -> None:
        self.out = out
        self.stdin = stdin
        terminal = stdin is not None and is_terminal(stdin) and is_terminal(out.stream)
        self.mode = "move" if terminal else "all"

    def pause(self, deal_ends: bool) -> None:
        """After a move: wait in ``move`` mode, or at a deal's end in ``deal`` mode."""
        if self.mode == "all" or (self.mode == "deal" and not deal_ends) or self.stdin is None:
            return
        self.out.prompt(_STEP_PROMPT)
        try:
            answer, _ = read_line(self.stdin)  # (a line too long: a step, as any other)
        except KeyboardInterrupt:  # Ctrl-C ends the command: its message on a line of its own
            self.out.line()
            raise
        if not answer:  # end of input: show the rest
            self.out.line()
            self.mode = "all"
            return
        choice = answer.strip().lower()
        if choice in ("q", "quit"):
            raise _Stop
        self.mode = {"a": "all", "d": "deal"}.get(choice[:1], "move")


def run_replay(
    out: Output,
    path: str,
    *,
    boards: bool = True,
    deal: int | None = None,
    stdin: TextIO | None = None,
    game: int | None = None,
) -> int:
    """Replay the record at ``path`` (only deal number ``deal`` when given, from 1); a
    corrupt record stops at its first illegal move. ``stdin`` is read to step through the
    moves when it and the output are terminals. ``game`` picks a record (from 1) of a file
    holding one per line, as ``simulate --records`` writes."""
    name = record_name(path)
    record = load_record(path, name, game)
    if path == STANDARD_INPUT:  # it held the record: there are no steps to read there
        stdin = None
    deals = sum(isinstance(move, Shuffle) for move in record.moves)
    if deal is not None and deal > deals:
        raise CommandError(f"{name} has {counted(deals, 'deal')}: there is no deal {deal}")
    out.line(
        f"replaying {out.literal(name)}: {record.players} players, "
        f"{counted(len(record.moves), 'move')}, {counted(deals, 'deal')}",
        "bold",
    )
    tags = tag_line(record)
    if tags is not None:
        out.line(out.literal(tags))
    pager = _Pager(out, stdin)
    try:
        state = _show(out, name, record, boards=boards, deal=deal, pager=pager)
    except _Stop:
        out.line("replay stopped")
        return 0
    if deal is not None:
        out.line(f"end of deal {deal}; match {_pair(state.scores)}")
    elif state.is_over:
        out.line("the record is complete")
    else:
        out.line(f"the record ends in phase {state.phase.name}, scores {_pair(state.scores)}")
    return 0


# Shared with chkobba.cli.analyse (not in __all__): the record at ``path``, read as
# replay reads it; a file that cannot be read or is no record raises CommandError.
def tag_line(record: Record) -> str | None:
    """The record's tags on one line (``None`` without any), as a game viewer shows a
    PGN's headers: who sat where, the event, the seed. Each value is cut to a quote's
    length and its characters that are not printable written as escapes."""
    if not record.tags:
        return None
    shown_tags = (
        f"{cut(one_line(name))} {cut(one_line(value))}" for name, value in record.tags.items()
    )
    return "tags: " + ", ".join(shown_tags)


#: The file name that reads standard input (``simulate --records - | replay -``).
STANDARD_INPUT = "-"


def record_name(path: str) -> str:
    """How messages name the file at ``path``: quoted, control characters escaped, or
    ``standard input`` for ``-``."""
    return "standard input" if path == STANDARD_INPUT else shown_path(path)


def load_record(path: str, name: str, game: int | None = None) -> Record:
    """The record in the file at ``path`` (standard input for ``-``): a record file, or
    game number ``game`` (from 1) of a JSON Lines file holding one record per line
    (``simulate --records``). The records before it are counted, not read (nor checked),
    and reading stops at it, so the lines after game ``game`` are not read either."""
    if path == STANDARD_INPUT:
        stdin = _standard_input()
        if stdin is None:
            raise CommandError("cannot read standard input: it is closed")
        try:
            return _pick(_records_in(stdin, name), name, game)
        except OSError as error:
            raise CommandError(f"cannot read {name}: {error.strerror or error}") from None
    if "\0" in path:  # open() would raise a ValueError that names no file
        raise CommandError(f"cannot read {name}: a file name cannot hold a NUL character")
    try:
        with open(path, "rb") as file:
            return _pick(_records_in(file, name), name, game)
    except OSError as error:
        raise CommandError(f"cannot read {name}: {error.strerror or error}") from None


def _standard_input() -> BinaryIO | None:
    """Standard input's bytes: its buffer, or the text of a stream that has none (a
    program's ``io.StringIO`` in its place) as UTF-8; ``None`` when it is closed (the
    shell's ``<&-`` leaves ``sys.stdin`` None)."""
    stream = sys.stdin
    if stream is None or stream.closed:
        return None
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        return io.BytesIO(stream.read().encode("utf-8", "surrogateescape"))
    return None if buffer.closed else buffer


def _pick(records: Iterator[Callable[[], Record]], name: str, game: int | None) -> Record:
    """Game number ``game`` of ``records`` (which hold at least one), or the only one:
    the record that its reader reads. The others are counted, for the message, not read
    (a file of a million matches is counted in a second, where reading took minutes)."""
    if game is None:
        only = next(records)
        others = sum(1 for _ in records)
        if others:
            raise CommandError(
                f"{name} holds {others + 1} records, one per line: choose one with --game N"
            )
        return only()
    held = 0
    for held, reader in enumerate(records, 1):
        if held == game:
            return reader()
    raise CommandError(f"{name} holds {counted(held, 'record')}: there is no game {game}")


def _records_in(file: BinaryIO, name: str) -> Iterator[Callable[[], Record]]:
    """What reads the record of a record file, or each record of a file of one record per
    line (the library's readers, so lines are numbered as Record.load_lines numbers them),
    one at a time; the first record of such a file is read at once. A file that fits
    :data:`~chkobba.records.FILE_LIMIT` is first tried whole as one record; a pipe, which
    cannot be read again, is then read from those bytes."""
    if file.seekable() and _starts_with_a_record(file):
        # A file of records (or one record on one line): never held whole. Its first
        # line is a record, so the message for a broken first record is never needed.
        return _lines_of_records(file, name, "", first_named=True)
    if not file.seekable():
        # A pipe (simulate --records - | replay -): read line by line as well when its
        # first line is a record, so that reading stops at the game chosen.
        first = file.readline(FILE_LIMIT + 1)
        if _is_record(first):
            rejoined = cast(BinaryIO, _Rejoined(first, file))  # (it reads lines, all they need)
            return _lines_of_records(rejoined, name, "", first_named=True)
        head = first + read_at_most(file, FILE_LIMIT + 1 - len(first))
    else:
        head = read_at_most(file, FILE_LIMIT + 1)
    whole = len(head) <= FILE_LIMIT
    if whole and not head.strip():  # as Record.load says it, not as JSON's "line 1 column 1"
        raise CommandError(f"{name} is empty, not a record")
    if whole:
        try:
            # Bytes, read as Record.load reads them: UTF-8, a byte-order mark allowed.
            return iter((functools.partial(_same, Record.from_json(head, verify=False)),))
        except ChkobbaError as error:
            refused = f"{name} is not a valid record: {error}"
    else:
        # Larger than any record: only a file of many records, read again line by line.
        refused = f"{name} is larger than {FILE_LIMIT // (1024 * 1024)} MiB, more than any record"
    lines: BinaryIO
    if file.seekable():  # read again, line by line, rather than held whole
        del head
        file.seek(0)
        lines = file
    elif whole:
        lines = io.BytesIO(head)
    else:
        raise CommandError(refused)
    # Too large for one record, the file can only be one of records: its first line too
    # is named when it is broken.
    return _lines_of_records(lines, name, refused, first_named=not whole)


def _starts_with_a_record(file: BinaryIO) -> bool:
    """Whether the first line of the seekable ``file`` is a record; the file is then
    read again from its start."""
    first = file.readline(FILE_LIMIT + 1)
    file.seek(0)
    return _is_record(first)


def _is_record(line: bytes) -> bool:
    try:
        Record.from_json(line, verify=False)
    except ChkobbaError:
        return False
    return True


class _Rejoined(io.RawIOBase):
    """A pipe whose first line was read to look at it: that line, then the rest."""

    def __init__(self, first: bytes, rest: BinaryIO) -> None:
        super().__init__()
        self._first: bytes | None = first
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1, /) -> bytes:
        if self._first is not None:
            line, self._first = self._first, None
            return line
        return self._rest.readline(-1 if size is None else size)


def _lines_of_records(
    lines: BinaryIO, name: str, refused: str, *, first_named: bool
) -> Iterator[Callable[[], Record]]:
    """What reads each record of a file of one record per line. The first is read at
    once: when it is broken (unless ``first_named``) or there is none, the file is taken
    for a broken record file, and ``refused`` says why; a later broken line is named when
    its reader reads it."""
    readers = record_line_readers(lines, name, verify=False)
    first = next(readers, None)
    try:
        record = first() if first is not None else None
    except ChkobbaError as error:
        if first_named:
            raise CommandError(str(error)) from None
        record = None
    if record is None:
        raise CommandError(refused)
    yield functools.partial(_same, record)
    try:
        for reader in readers:
            yield functools.partial(_read, reader)
    except ChkobbaError as error:  # a line the reading cannot go past (longer than any)
        raise CommandError(str(error)) from None


def _same(record: Record) -> Record:
    return record


def _read(reader: Callable[[], Record]) -> Record:
    try:
        return reader()
    except ChkobbaError as error:
        raise CommandError(str(error)) from None


def _show(
    out: Output, name: str, record: Record, *, boards: bool, deal: int | None, pager: _Pager
) -> State:
    state = record.start()
    number = 0
    scored: int | None = None  # the number of the last deal scored, as dealt
    moves = record.moves
    for index, move in enumerate(moves):
        shuffle = isinstance(move, Shuffle)
        if shuffle:
            number += 1
        if deal is not None and number > deal:
            break
        try:
            after = apply(state, move)
        except IllegalMoveError as error:
            raise CommandError(
                # As Record.replay names it (analyse's message): a shuffle's 40 cards whole
                f"{name}: {move_number(index)} ({shown(str(move), 200)}) is not legal: {error}"
            ) from None
        if len(after.deal_scores) > len(state.deal_scores):
            scored = number or None
        if deal is None or number == deal:
            out.line(f"{index + 1}. {'shuffle' if shuffle else move}", style="bold")
            for text in describe(state, move, after, deal=number):
                out.line("   " + text)
            # A shuffle that deals the hands (a profile without a cut) shows them; one
            # that waits for the cut leaves that to the cut's board.
            if boards and (not shuffle or after.phase is Phase.PLAY):
                for text in render(after, deal=scored).splitlines():
                    out.line("   " + text, style="dim")
            last = index + 1 == len(moves) or isinstance(moves[index + 1], Shuffle)
            if not shuffle:
                pager.pause(deal_ends=last)
        state = after
    return state


def _pair(values: tuple[int, ...]) -> str:
    return "-".join(str(v) for v in values)
