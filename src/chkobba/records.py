"""Game records: a whole match as data, saved as versioned JSON and checked by replay.

A :class:`Record` holds how a match started (players, dealer, starting scores, rules)
and every move from then on, the shuffles included, so :meth:`Record.replay` rebuilds
every state exactly. The JSON format is described in ``docs/records.md``; its JSON
Schema ships with the package (:meth:`Record.json_schema`).

>>> import random
>>> rng = random.Random(4)
>>> state = new_match()
>>> moves = []
>>> while not state.deal_scores:
...     move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
...     moves.append(move)
...     state = apply(state, move)
>>> record = Record(players=2, dealer=0, moves=moves, tags={"event": "doctest"})
>>> record.replay()[-1] == state
True
>>> Record.from_json(record.to_json()) == record
True
"""

from __future__ import annotations

import codecs
import collections
import functools
import itertools
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, BinaryIO, NoReturn

import attrs

from chkobba._describe import (
    first_unknown,
    int_converter,
    integral,
    json_kind,
    json_shown,
    kind_against,
    move_number,
    plain_flag,
)
from chkobba._files import write_atomically
from chkobba._json import BYTES_LIKE, bad_byte, file_name, strict_loads, utf8_text
from chkobba.cards import DECK, Rank
from chkobba.checks import check_state
from chkobba.deals import RecordedDeal, players_of_moves, split_deals
from chkobba.engine import apply, illegal_reason, legal_moves, subclass_problem
from chkobba.errors import (
    ChkobbaError,
    IllegalMoveError,
    NotationError,
    RecordError,
    shown,
    shown_path,
)
from chkobba.moves import Cut, Move, Play, Shuffle
from chkobba.notation import parse_move
from chkobba.rules import PLAYER_COUNTS, TUNISIAN, Rules, not_a_profile, reading_a_document
from chkobba.snapshots import as_read, shipped_schema
from chkobba.state import Phase, State, new_match, sides_of

__all__ = ["FILE_LIMIT", "FORMAT", "MOVE_LIMIT", "VERSION", "Record"]

#: The ``format`` field of every record file.
FORMAT = "chkobba-record"
#: The version of the JSON format this library writes and reads.
VERSION = 1
#: The most moves a record holds. A match has no fixed length (void deals and tied totals
#: play on), but a match to 21 takes a few hundred moves and one to the highest target
#: (10000) some hundred thousand; the limit bounds the memory a record file can claim.
MOVE_LIMIT = 1_000_000
#: The largest record file that :meth:`Record.load` reads, and the longest line of a file
#: of records (:meth:`Record.load_lines`): 256 MiB. The longest record the library
#: writes, :data:`MOVE_LIMIT` moves each as long as a shuffle (127 characters, 135 bytes a
#: line in :meth:`Record.to_json`), takes about 129 MiB; the rest is room for tags and
#: for moves spelled out by hand. Without a bound, a wrong path (a device, a huge log)
#: would be read whole until the memory runs out.
FILE_LIMIT = 256 * 1024 * 1024

_FIELDS = ("format", "version", "players", "dealer", "scores", "rules", "tags", "moves")
_REQUIRED = ("format", "version", "players", "dealer", "scores", "moves")
# Every field of a profile; a record of 0.1.0 has only the first three, and the others
# then take the Tunisian values (which were the only rules then).
_RULES_FIELDS = tuple(field.name for field in attrs.fields(Rules) if field.init)
_RULES_REQUIRED = ("name", "capture_values", "target")
_RULES_TUPLES = ("capture_values", "players")


#: The moves' own classes (a subclass of Cut or Play is refused, as the engine refuses it).
_MOVE_CLASSES = frozenset({Shuffle, Cut, Play})


def _to_moves(moves: Iterable[Move]) -> tuple[Move, ...]:
    # (A mapping would give its keys alone, silently: refused like text.)
    if isinstance(moves, (str, bytes, Mapping)) or not isinstance(moves, Iterable):
        raise RecordError(f"moves must be a sequence of moves, not {shown(moves)}")
    try:
        found = tuple(itertools.islice(moves, MOVE_LIMIT + 1))
    except TypeError:  # iterable by its type, not by its value (a 0-d numpy array)
        raise RecordError(f"moves must be a sequence of moves, not {shown(moves)}") from None
    if len(found) > MOVE_LIMIT:
        raise RecordError(f"a record holds at most {MOVE_LIMIT} moves")
    for index, move in enumerate(found):
        if not isinstance(move, (Shuffle, Cut, Play)):
            raise RecordError(
                f"{move_number(index)} is not a move (Shuffle, Cut or Play): {shown(move)}"
            )
        if type(move) not in _MOVE_CLASSES:  # saved, it would read back as another move
            subclassed = subclass_problem(move)
            if subclassed is not None:
                raise RecordError(f"{move_number(index)}: {subclassed}")
        if not _reads_back(move):
            _refuse_unreadable(move, index)
    return found


def _reads_back(move: Move) -> bool:
    """Whether the text of ``move`` reads back: the constructors accept a shuffle of other
    than the 40 cards and a card that captures itself, which the notation refuses, and a
    record must load again from the file it saves."""
    if isinstance(move, Play):
        return move.card not in move.capture
    if isinstance(move, Shuffle):
        return len(move.order) == len(DECK) and len(frozenset(move.order)) == len(DECK)
    return True


def _refuse_unreadable(move: Move, index: int) -> NoReturn:
    """The RecordError for a move that :func:`_reads_back` refuses, with the reason the
    notation gives when the record is read."""
    try:
        parse_move(str(move))
    except NotationError as error:
        raise RecordError(f"{move_number(index)}: {error}") from None
    raise RecordError(f"{move_number(index)}: {shown(str(move))} does not read back")


def _to_scores(scores: Sequence[int] | None) -> tuple[int, ...]:
    if scores is None:
        return ()  # a new match: zeros, one per side, once the players are known
    found = None
    if not isinstance(scores, (str, bytes, Mapping)) and isinstance(scores, Iterable):
        # More sides than any match: refused later. Numpy's integers are taken as ints,
        # as new_match takes them.
        found = tuple(integral(score) for score in itertools.islice(scores, 16))
    if not found:  # (an empty one too: no scores is None, as in new_match)
        raise RecordError(f"scores must be whole numbers, one per side, not {shown(scores)}")
    return found


class _Tags(dict[str, str]):
    """A record's tags: a dict (so ``json.dumps(record.tags)`` works) that cannot change,
    kept sorted by name, hashable and picklable."""

    __slots__ = ()

    def __init__(self, items: Iterable[tuple[str, str]]) -> None:
        super().__init__(sorted(items))

    def _frozen(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a record's tags cannot change: make a new Record with other tags")

    __setitem__ = __delitem__ = _frozen
    clear = pop = popitem = setdefault = update = _frozen
    __ior__ = _frozen

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Tags, (tuple(self.items()),))

    def __copy__(self) -> _Tags:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> _Tags:
        return self


def _to_tags(tags: Mapping[str, str] | None) -> Mapping[str, str]:
    if tags is None:
        tags = {}
    if not isinstance(tags, Mapping):
        raise RecordError(f"tags must map names to text, not {shown(tags)}")
    for name, value in tags.items():
        if not isinstance(name, str) or not name:
            raise RecordError(f"a tag name must be non-empty text, not {shown(name)}")
        if not isinstance(value, str):
            raise RecordError(f"tag {shown(name)} must be text, not {shown(value)}")
        _check_encodable(name, "a tag name")
        _check_encodable(value, f"tag {shown(name)}")
    # Sorted, so that equal records write the same JSON; immutable, so a record stays frozen.
    return tags if isinstance(tags, _Tags) else _Tags(tags.items())


def _check_encodable(text: str, what: str) -> None:
    """Refuse text that UTF-8 cannot write (lone surrogates), so that save() never fails."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise RecordError(
            f"{what} holds {shown(text[error.start : error.end])} at {error.start}, "
            "which UTF-8 cannot write (a lone surrogate)"
        ) from None


def _not_a_start(state: State) -> str:
    """Why ``state``, which passed check_state, is not the new match a record begins at."""
    reason = "a record starts at the start of a match (a state from new_match)"
    done = len(state.deal_scores)
    if state.phase is not Phase.SHUFFLE or done:
        deals = f"{done} deal{'' if done == 1 else 's'}"
        return f"{reason}, not in phase {state.phase.name} after {deals}"
    # Before any deal check_state leaves one thing free: the order of the stock.
    return f"{reason}: its stock must hold the 40 cards in deck order (AS AH AD AC 2S ...)"


@attrs.frozen
class Record:
    """A match from its start: how it began and every move, shuffles included.

    Fields:
        players: 2, 3 or 4, as the rules allow.
        dealer: the first dealer.
        scores: each side's total when the record starts (zeros for a new match, the
            default; a match resumed from other totals starts from them).
        moves: every move in order, from the first shuffle on.
        rules: the rules profile (default :data:`~chkobba.TUNISIAN`).
        tags: free text about the match, by name, like the tags of a chess PGN file
            (``docs/records.md`` suggests ``event``, ``site``, ``date``, ``player0`` …).

    Building a record checks its start (players, dealer, scores, rules) and that every
    move is a move whose text reads back (not a shuffle of other than the 40 cards, nor
    a card that captures itself), so a saved record always loads again; whether the
    moves are legal is what :meth:`replay` checks. Bad fields raise
    :class:`~chkobba.RecordError`.

    >>> record = Record(players=4, dealer=3, scores=(10, 12))  # a match resumed at 10-12
    >>> record.start().scores, record.start().dealer, record.moves
    ((10, 12), 3, ())
    >>> Record(players=2, moves=[Cut(keep=True)]).final()  # built, but the cut is not legal
    Traceback (most recent call last):
    ...
    chkobba.errors.RecordError: move 1 (index 0) ('keep') is not legal: ... in phase SHUFFLE
    """

    # numpy's integers as ints, as new_match takes them; anything else as it is, for the
    # record's start to refuse
    players: int = attrs.field(converter=int_converter)
    dealer: int = attrs.field(default=0, converter=int_converter)
    scores: tuple[int, ...] = attrs.field(default=None, converter=_to_scores)
    moves: tuple[Move, ...] = attrs.field(default=(), converter=_to_moves)
    rules: Rules = TUNISIAN
    tags: Mapping[str, str] = attrs.field(default=None, converter=_to_tags)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise RecordError(not_a_profile(self.rules))
        if not self.scores and type(self.players) is int and self.players in PLAYER_COUNTS:
            # A new match: zeros, one per side (other player counts are refused below).
            object.__setattr__(self, "scores", (0,) * sides_of(self.players))
        try:
            self.start()
        except ChkobbaError as error:
            raise RecordError(f"a record cannot start this way: {error}") from None

    @classmethod
    def from_moves(
        cls, start: State, moves: Iterable[Move], tags: Mapping[str, str] | None = None
    ) -> Record:
        """The record of ``moves`` played from ``start``, the state of a new match.

        ``start`` must be what :func:`~chkobba.new_match` returns (with any players,
        dealer, starting scores and rules): a record always begins at a match's start.
        Raises :class:`~chkobba.RecordError` for another start, or for what ``Record``
        itself refuses (a move that is not a move, tags that are not text).

        >>> import random
        >>> moves = [random_shuffle(random.Random(3)), Cut(keep=True)]
        >>> record = Record.from_moves(new_match(), moves, tags={"event": "club night"})
        >>> len(record.moves), record.final().phase
        (2, <Phase.PLAY: 'play'>)
        """
        if not isinstance(start, State):
            raise RecordError(f"a record starts from a State, not {shown(start)}")
        try:  # a state built by hand is named for what is wrong with it
            check_state(start)
        except ChkobbaError as error:
            raise RecordError(f"a record cannot start from this state: {error}") from None
        record = cls(
            players=start.players,
            dealer=start.dealer,
            scores=start.scores,
            moves=moves,
            rules=start.rules,
            tags=tags,
        )
        if record.start() != start:
            raise RecordError(_not_a_start(start))
        return record

    @classmethod
    def from_states(cls, states: Sequence[State], tags: Mapping[str, str] | None = None) -> Record:
        """The record of a sequence of states, each one move after the one before.

        ``states[0]`` is the start of a match; the move between two states is worked out
        (the shuffle is the order a ``CUT`` state holds in its stock). Where two moves
        give the same state (keep and expose when the deal is void either way), the
        first legal one is taken. A pair that no legal move connects raises
        :class:`~chkobba.RecordError` naming both states (``state 2 (index 1)``).
        """
        if isinstance(states, (str, bytes)) or not isinstance(states, Sequence) or not states:
            raise RecordError(
                f"from_states needs a non-empty sequence of states, not {shown(states)}"
            )
        for index, state in enumerate(states):
            if not isinstance(state, State):
                raise RecordError(
                    f"{move_number(index, 'state')} is not a State: "
                    f"{kind_against(state, 'a State')}"
                )
        try:
            # The first state is one this library did not make; each later one must equal
            # the one the engine makes from the one before, so checking the first checks
            # them all (a later one is checked only when no move leads to it).
            check_state(states[0])
        except ChkobbaError as error:
            raise RecordError(f"{move_number(0, 'state')}: {error}") from None
        moves = [_move_between(states[i], states[i + 1], i) for i in range(len(states) - 1)]
        return cls.from_moves(states[0], moves, tags=tags)

    def start(self) -> State:
        """The state before the first move."""
        return new_match(self.players, dealer=self.dealer, scores=self.scores, rules=self.rules)

    def replay(self) -> tuple[State, ...]:
        """The start state and the state after every move (``len(moves) + 1`` states).

        A move that is not legal raises :class:`~chkobba.RecordError` naming it as people
        count and as code indexes (``move 6 (index 5)``), its text and the engine's reason.
        """
        return tuple(self._states())

    def final(self) -> State:
        """The state after the last move (it checks every move, like :meth:`replay`,
        holding one state at a time)."""
        # deque(maxlen=1) keeps the last state only (a starred assignment keeps them all).
        return collections.deque(self._states(), maxlen=1)[0]

    def _states(self) -> Iterator[State]:
        """The start state, then the state after each move, as :meth:`replay` lists them."""
        state = self.start()
        yield state
        for index, move in enumerate(self.moves):
            try:
                state = apply(state, move)
            except IllegalMoveError as error:
                raise RecordError(
                    f"{move_number(index)} ({shown(str(move), 200)}) is not legal: {error}"
                ) from None
            yield state

    def deals(self) -> tuple[RecordedDeal, ...]:
        """The record deal by deal: each deal's dealer, its moves with the player of each,
        and its :class:`~chkobba.DealScore` (or ``voided``); see :mod:`chkobba.deals`.

        It replays the record, so an illegal move raises :class:`~chkobba.RecordError`.
        """
        return split_deals(self.replay(), self.moves)

    def players_of_moves(self) -> tuple[int | None, ...]:
        """Who made each move, by index: a player, or ``None`` for a shuffle (chance).

        It replays the record, so an illegal move raises :class:`~chkobba.RecordError`.
        """
        return players_of_moves(self.replay())

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data (the object that :meth:`to_json` writes)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "players": self.players,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "rules": _rules_out(self.rules),
            "tags": dict(self.tags),
            "moves": [str(move) for move in self.moves],
        }

    def to_json(self, *, compact: bool = False) -> str:
        """The record as JSON text (format version 1, moves in canonical notation).

        The default layout puts one field, one rule and one move on each line, so records
        read well and diff well, and ends with a newline, as the file :meth:`save` writes
        (the ``to_json`` of states, views and profiles does not); ``compact=True`` writes
        one line with no spaces and no newline, a line of a JSON Lines file.
        """
        data = self.to_dict()
        if plain_flag("compact", compact):
            return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        fields = [
            f"  {json.dumps(name)}: {_one_per_line(value) if name == 'rules' else _one_line(value)}"
            for name, value in data.items()
            if name != "moves"
        ]
        moves = ",\n".join(f"    {json.dumps(m, ensure_ascii=False)}" for m in data["moves"])
        fields.append(f'  "moves": [\n{moves}\n  ]' if moves else '  "moves": []')
        return "{\n" + ",\n".join(fields) + "\n}\n"

    @classmethod
    def from_dict(cls, data: object, *, verify: bool = True) -> Record:
        """Read a record from JSON data; see :meth:`from_json`."""
        verify = plain_flag("verify", verify)  # None would turn the replay off unseen
        if not isinstance(data, dict):
            raise RecordError(f"a record is a JSON object, not {json_kind(data)}")
        # Format and version first: a newer file may have fields this version lacks.
        form = data.get("format")
        if not isinstance(form, str) or form != FORMAT:  # the type first: see versioned_fields
            found = json_kind(form) if "format" in data else "missing"
            raise RecordError(f"format must be {json_shown(FORMAT)}: it is {found}")
        version = data.get("version")
        if type(version) is not int:
            found = json_kind(version) if "version" in data else "missing"
            raise RecordError(f"version must be the whole number {VERSION}: it is {found}")
        if version != VERSION:
            newer = " (newer than this library reads)" if version > VERSION else ""
            raise RecordError(
                f"version {shown(version)} is not supported{newer}: this library reads {VERSION}"
            )
        _check_fields(data)
        record = cls(
            players=_whole(data, "players"),
            dealer=_whole(data, "dealer"),
            scores=_wholes(data, "scores", (2, 3)),
            moves=_moves(data["moves"]),
            rules=_rules(data["rules"]) if "rules" in data else TUNISIAN,
            tags=_tags(data["tags"]) if "tags" in data else None,
        )
        if verify:
            record.final()  # every move checked, one state held at a time
        return record

    @classmethod
    def from_json(
        cls, text: str | bytes | bytearray | memoryview, *, verify: bool = True
    ) -> Record:
        """Read a record from JSON text; every problem raises :class:`~chkobba.RecordError`.
        The text is a ``str``, or UTF-8 in ``bytes``, a ``bytearray`` or a ``memoryview``.

        With ``verify`` (the default) the moves are replayed, so a record that loads is a
        legal match; ``verify=False`` loads a record without playing it (to inspect a
        broken one: :meth:`replay` then says which move is wrong). Moves may be written in
        any form that :func:`~chkobba.parse_move` reads without a state.

        >>> Record.from_json('{"format": "chkobba-record", "version": 2}')
        Traceback (most recent call last):
        ...
        chkobba.errors.RecordError: version 2 is not supported (newer than this library ...
        """
        verify = plain_flag("verify", verify)  # before the text: a bad flag is no bad record
        if isinstance(text, BYTES_LIKE):
            text = _decoded(text)
        if not isinstance(text, str):
            raise RecordError(f"a record is read from JSON text, not {json_kind(text)}")
        # One behaviour everywhere: a leading byte-order mark is allowed and skipped.
        text = text.removeprefix("\ufeff")
        try:
            data = strict_loads(text, RecordError, "a record")
        except RecordError:
            raise
        except (ValueError, RecursionError) as error:
            # JSONDecodeError and UnicodeDecodeError are ValueErrors.
            raise RecordError(f"the record is not valid JSON: {error}") from None
        return cls.from_dict(data, verify=verify)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record to a file as UTF-8 JSON, atomically.

        The text goes to a new file beside ``path``, which then replaces ``path`` in one
        step (:func:`os.replace`): a failure leaves the old file as it was, never a
        partial or empty one. An existing file keeps its permissions. A device or a pipe
        (``/dev/null``, ``/dev/stdout``, a FIFO) is written to instead, as a shell's ``>``
        does: a file renamed over it would replace the device itself (and a FIFO waits
        for a reader, as with ``>``). Errors of the file system are :class:`OSError`, as
        with :func:`open`.

        >>> import pathlib, tempfile
        >>> record = Record(players=2, tags={"event": "doctest"})
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = pathlib.Path(folder) / "match.json"
        ...     record.save(path)
        ...     Record.load(path) == record
        True
        """
        write_atomically(_path(path), self.to_json().encode("utf-8"))

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, verify: bool = True) -> Record:
        """Read a record from a file written by :meth:`save` (see :meth:`from_json`).

        ``path`` is a ``str`` or an :class:`os.PathLike` (never a file descriptor). A
        file that cannot be opened raises :class:`OSError` (``FileNotFoundError`` …); a
        file that is not a record raises :class:`~chkobba.RecordError` naming it. A
        UTF-8 byte-order mark is allowed.
        """
        path = _path(path)
        verify = plain_flag("verify", verify)
        name = shown_path(path)
        with open(path, "rb") as file:
            raw = read_at_most(file, FILE_LIMIT + 1)  # one byte more tells a file too large
        if len(raw) > FILE_LIMIT:
            raise RecordError(
                f"{name}: the file is larger than {_limit_text()}, more than any record "
                "(a file of one record per line reads with Record.load_lines)"
            )
        if not raw.strip():
            raise RecordError(f"{name}: the file is empty, not a record")
        try:
            return cls.from_json(raw, verify=verify)
        except RecordError as error:
            hint = ""
            if "Extra data" in str(error):  # what a file of several records gives
                hint = " (a file of one record per line reads with Record.load_lines)"
            raise RecordError(f"{name}: {error}{hint}") from None

    @classmethod
    def load_lines(cls, path: str | os.PathLike[str], *, verify: bool = True) -> tuple[Record, ...]:
        """Read the records of a JSON Lines file: one record per line, as ``chkobba
        simulate --records`` (and ``to_json(compact=True)``, one per line) writes them.

        Blank lines are skipped; a line is at most :data:`FILE_LIMIT` bytes, the file of
        any length. A line that is not a record raises
        :class:`~chkobba.RecordError` naming the file and the line (see :meth:`load` for
        ``path`` and the file system's errors, :meth:`from_json` for ``verify``).

        >>> import pathlib, tempfile
        >>> line = Record(players=2).to_json(compact=True)
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = pathlib.Path(folder) / "matches.jsonl"
        ...     _ = path.write_text(f"{line}\\n\\n{line}\\n", encoding="utf-8")
        ...     len(Record.load_lines(path))
        2
        """
        path = _path(path)
        verify = plain_flag("verify", verify)
        name = shown_path(path)
        with open(path, "rb") as file:
            return tuple(read_record_lines(file, name, verify=verify))

    @classmethod
    def iter_lines(cls, path: str | os.PathLike[str], *, verify: bool = True) -> Iterator[Record]:
        """The records of a JSON Lines file one at a time, as :meth:`load_lines` reads
        them: for a file too large to hold (a dataset of a million matches), whose
        records are used and let go one by one. The arguments are checked at once; the
        file is opened at the first record asked for and closed after the last (or when
        the iterator is closed or dropped), and a line that is not a record raises
        :class:`~chkobba.RecordError` when it is reached, the records before it given.

        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> path = os.path.join(folder, "matches.jsonl")
        >>> with open(path, "w", encoding="utf-8") as out:
        ...     _ = out.write(Record(players=2).to_json(compact=True) + "\\n")
        >>> [record.players for record in Record.iter_lines(path)]
        [2]
        """
        path = _path(path)
        verify = plain_flag("verify", verify)
        return _records_of_file(path, shown_path(path), verify)

    @staticmethod
    def json_schema() -> dict[str, Any]:
        """The JSON Schema of the record format, shipped in the package.

        >>> Record.json_schema()["properties"]["version"]["const"]
        1
        """
        return shipped_schema("record.schema.json")


def _records_of_file(path: str | os.PathLike[str], name: str, verify: bool) -> Iterator[Record]:
    with open(path, "rb") as file:
        yield from read_record_lines(file, name, verify=verify)


# Shared with chkobba.cli.replay (not in __all__).
def read_at_most(file: BinaryIO, limit: int) -> bytes:
    """The first ``limit`` bytes of ``file`` (all of a shorter one), read a chunk at a
    time: ``file.read(limit)`` would set aside ``limit`` bytes (256 MiB for a record)
    before reading a small file."""
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = file.read(min(left, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


_CHUNK = 1024 * 1024


# Shared with chkobba.cli.replay (not in __all__), so that the command and the library
# read a file of records alike and number its lines alike.
def read_record_lines(file: BinaryIO, name: str, *, verify: bool = True) -> Iterator[Record]:
    """The records of a JSON Lines ``file`` (opened in binary), one by one as they are
    read. A line that is not a record raises :class:`~chkobba.RecordError` naming ``name``
    and the line's number (from 1, blank lines counted, as an editor counts them)."""
    for reader in record_line_readers(file, name, verify=verify):
        yield reader()


def record_line_readers(
    file: BinaryIO, name: str, *, verify: bool = True
) -> Iterator[Callable[[], Record]]:
    """What reads each record of a JSON Lines ``file``, one per line that is not blank,
    as :func:`read_record_lines` reads it: a caller that wants one record of many (``chkobba
    replay --game N``) counts the lines before it without parsing them."""
    lines = iter(functools.partial(file.readline, FILE_LIMIT + 1), b"")
    first = True
    for number, line in enumerate(lines, 1):
        if not _blank(line):
            yield functools.partial(_numbered_record, line, number, name, verify, first)
            first = False
        if len(line) > FILE_LIMIT:
            # Nothing after a line longer than any record is read: its rest would be
            # taken for lines of their own, and a stream may never end it (/dev/zero).
            raise RecordError(f"{name}, line {number}: {_too_long()}")


def _blank(line: bytes) -> bool:
    """Whether a line of a JSON Lines file holds nothing (one that cannot be read is not
    blank: reading its record says why)."""
    if len(line) > FILE_LIMIT:
        return False
    try:
        return not _decoded(line).strip()
    except RecordError:
        return False


def _numbered_record(line: bytes, number: int, name: str, verify: bool, first: bool) -> Record:
    try:
        return _line_record(line, verify)
    except RecordError as error:
        hint = ""
        if first and line.removeprefix(codecs.BOM_UTF8).strip() == b"{":
            # How a record saved by save() starts.
            hint = " (a record saved over several lines reads with Record.load)"
        raise RecordError(f"{name}, line {number}: {error}{hint}") from None


def _line_record(line: bytes, verify: bool) -> Record:
    """The record on one line of a JSON Lines file (not a blank one: those are skipped)."""
    if len(line) > FILE_LIMIT:
        raise RecordError(_too_long())
    text = _decoded(line).rstrip("\r\n")
    try:
        return Record.from_json(text, verify=verify)
    except RecordError as error:
        # The decoder counts lines within the text, always line 1 here: the file's line
        # number is the caller's, so only the column is worth saying.
        message = _WITHIN_LINE.sub(r" at column \1", str(error))
        raise RecordError(message) from None


#: Where the JSON decoder says it stopped, within a one-line text (its "Unterminated
#: string starting at: line 1 column 7 (char 6)" becomes "... starting at column 7").
_WITHIN_LINE = re.compile(r"(?: at)?: line 1 column (\d+) \(char \d+\)$")


def _too_long() -> str:
    return f"the line is longer than {_limit_text()}, more than any record"


def _limit_text() -> str:
    return f"{FILE_LIMIT // (1024 * 1024)} MiB"


def _one_line(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _one_per_line(fields: dict[str, Any]) -> str:
    """A JSON object with one field on each line, indented inside the record."""
    lines = ",\n".join(f"    {json.dumps(name)}: {_one_line(v)}" for name, v in fields.items())
    return "{\n" + lines + "\n  }"


def _move_between(before: State, after: State, index: int) -> Move:
    """The move from ``before`` (checked, or made by the engine) to ``after``."""
    try:
        move = _found_move(before, after)
    except (ValueError, TypeError, LookupError, AttributeError):
        move = None  # the shuffle read from a broken ``after`` failed: check_state says why
    if move is not None:
        return move
    reason = ""
    try:
        check_state(after)
    except ChkobbaError as error:
        reason = f": {move_number(index + 1, 'state')} is broken: {error}"
    except Exception:  # a state too broken even to check: say so, never fail here
        reason = f": {move_number(index + 1, 'state')} is broken (see check_state)"
    raise RecordError(
        f"no legal move leads from {move_number(index, 'state')} "
        f"to {move_number(index + 1, 'state')}{reason}"
    )


def _found_move(before: State, after: State) -> Move | None:
    candidates: Sequence[Move] = legal_moves(before)
    if before.is_chance and after.phase is Phase.CUT:
        candidates = (Shuffle(after.stock),)
    elif before.is_chance and not before.rules.cut:
        candidates = (
            _dealt_shuffle(after) if after.phase is Phase.PLAY else _voiding_shuffle(after),
        )
    for move in candidates:
        if illegal_reason(before, move) is None and apply(before, move) == after:
            return move
    return None


def _path(path: object) -> str | os.PathLike[str]:
    return file_name(path, RecordError, "a record file")


def _decoded(raw: bytes | bytearray | memoryview) -> str:
    try:
        return utf8_text(raw)
    except UnicodeDecodeError as error:
        raise RecordError(f"the record is not UTF-8 text: {bad_byte(error)}") from None
    except ValueError:  # a memoryview released before the call: no bytes to read
        raise RecordError("a record cannot be read from a released memoryview") from None


def _dealt_shuffle(after: State) -> Shuffle:
    """The shuffle that a profile without the cut dealt into ``after``: the hands one card
    at a time from the first player, then the table, then the stock."""
    players, first = after.players, after.cutter
    hands = [after.hands[(first + i) % players][i // players] for i in range(3 * players)]
    return Shuffle((*hands, *after.table, *after.stock))


def _voiding_shuffle(after: State) -> Shuffle:
    """A shuffle that voids the deal: four kings on the table. Every voiding shuffle
    leads to the same state, so a record may hold any of them."""
    kings = [c for c in DECK if c.rank is Rank.KING]
    others = [c for c in DECK if c.rank is not Rank.KING]
    dealt = 3 * after.players
    return Shuffle((*others[:dealt], *kings, *others[dealt:]))


def _check_fields(data: dict[str, Any]) -> None:
    _check_keys(data, _FIELDS, _REQUIRED, f" (a record has {', '.join(_FIELDS)})", "")


def _check_keys(
    data: dict[str, Any],
    allowed: tuple[str, ...],
    required: tuple[str, ...],
    unknown_hint: str,
    where: str,
) -> None:
    """Refuse the first unknown key, then the first missing one, naming where they are."""
    unknown = first_unknown(data, allowed)
    if unknown is not None:
        raise RecordError(f"unknown field {unknown}{where}{unknown_hint}")
    missing = [name for name in required if name not in data]
    if missing:
        raise RecordError(f"missing field {shown(missing[0])}{where}")


def _whole(data: dict[str, Any], name: str) -> int:
    value = data[name]
    if type(value) is not int:
        raise RecordError(f"{name} must be a whole number, not {json_kind(value)}")
    return value


def _wholes(data: dict[str, Any], name: str, lengths: tuple[int, ...]) -> tuple[int, ...]:
    value = data[name]
    if not isinstance(value, list) or len(value) not in lengths:
        sizes = " or ".join(map(str, lengths))
        raise RecordError(f"{name} must be a list of {sizes} whole numbers, not {json_kind(value)}")
    for item in value:
        if type(item) is not int:
            raise RecordError(f"{name} must hold whole numbers, not {json_kind(item)}")
    return tuple(value)


def _moves(value: object) -> tuple[Move, ...]:
    if not isinstance(value, list):
        raise RecordError(f"moves must be a list of move texts, not {json_kind(value)}")
    if len(value) > MOVE_LIMIT:
        raise RecordError(f"a record holds at most {MOVE_LIMIT} moves, not {len(value)}")
    moves = []
    for index, text in enumerate(value):
        if not isinstance(text, str):
            raise RecordError(f"{move_number(index)} must be move text, not {json_kind(text)}")
        try:
            moves.append(parse_move(text))
        except NotationError as error:
            raise RecordError(f"{move_number(index)}: {error}") from None
    return tuple(moves)


def _rules_out(rules: Rules) -> dict[str, Any]:
    """The whole profile as JSON data, every field by name (tuples as lists)."""
    return {
        name: list(value) if isinstance(value, tuple) else value
        for name, value in attrs.asdict(rules, filter=lambda field, _: field.init).items()
    }


def _rules(value: object) -> Rules:
    if not isinstance(value, dict):
        raise RecordError(f"rules must be an object, not {json_kind(value)}")
    _check_keys(value, _RULES_FIELDS, _RULES_REQUIRED, "", " in rules")
    fields = dict(value)
    if not isinstance(fields["name"], str):
        raise RecordError(f"rules name must be text, not {json_kind(fields['name'])}")
    for name in _RULES_TUPLES:
        if name in fields:
            if not isinstance(fields[name], list):
                raise RecordError(f"rules {name} must be a list, not {json_kind(fields[name])}")
            fields[name] = tuple(fields[name])
    try:
        # Rules checks every field (type and value) and names the one that is wrong.
        with reading_a_document():
            return Rules(**fields)
    except ChkobbaError as error:
        raise RecordError(f"rules: {as_read(str(error), Rules, value, fields)}") from None


def _tags(value: object) -> Mapping[str, str]:
    if not isinstance(value, dict):
        raise RecordError(f"tags must be an object of texts, not {json_kind(value)}")
    return value
