"""The exception tree of the library, and :func:`shown`, how its messages quote input.

Every error a user can provoke with bad input is a :class:`ValueError`, so callers that
only care about "bad input" catch that; callers that care about *why* catch the subclass.
Malformed text and illegal moves are kept apart: ``"8D"`` is not a card at all
(:class:`NotationError`), while playing ``7D`` from a hand that lacks it is a well-formed
move that the rules forbid (:class:`IllegalMoveError`).

A message names the input it refuses, but never all of a huge one: :func:`shown` quotes at
most :data:`QUOTE_LIMIT` characters, and never fails itself.

>>> from chkobba.errors import shown
>>> shown("QH x 2Z")
"'QH x 2Z'"
>>> shown("A" * 1_000_000)
"'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA…"
>>> len(shown("\\0" * 1_000_000))
60
>>> shown(10**5000)
'an integer of about 5001 digits'
"""

from __future__ import annotations

import itertools
import os
import re
import reprlib
import types
import unicodedata
from collections.abc import Mapping
from typing import Any

__all__ = [
    "QUOTE_LIMIT",
    "ChkobbaError",
    "IllegalMoveError",
    "NotationError",
    "RecordError",
    "StaleMoveError",
    "items_of",
    "shown",
    "shown_path",
]

#: The most characters of an input that an error message quotes.
QUOTE_LIMIT = 60
# Beyond this many bits, repr() of an int is slow or refused (Python's int-to-text limit).
_INT_BITS = 64 * 3
_MESSAGE_LIMIT = 4000
# The most items a collection argument may hold (cards, piles, bots...): far above any real
# use, far below what would hang.
_ITEMS_LIMIT = 100_000


class ChkobbaError(ValueError):
    """Base class of every error raised by the library for bad input.

    A message longer than a few thousand characters is cut in the middle, a safety net
    for messages that list many things (the quoting itself goes through :func:`shown`).

    Catch it (or :class:`ValueError`) for any bad input, whatever the subclass:

    >>> try:
    ...     new_match(5)
    ... except ChkobbaError as error:
    ...     print(type(error).__name__, isinstance(error, ValueError), error)
    ChkobbaError True a match has 2 or 4 players, not 5 (the tunisian profile)
    >>> issubclass(NotationError, ChkobbaError), issubclass(RecordError, ChkobbaError)
    (True, True)
    """

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], str) and len(args[0]) > _MESSAGE_LIMIT:
            text = args[0]
            half = _MESSAGE_LIMIT // 2
            args = (f"{text[:half]} … {text[-half:]}",)
        super().__init__(*args)


class NotationError(ChkobbaError):
    """Text that is not a card, a list of cards or a move in the notation.

    >>> parse_move("QH x 2D+8S")
    Traceback (most recent call last):
    ...
    chkobba.errors.NotationError: 'QH x 2D+8S' is not a move: '8S' is not a card: ...
    >>> Suit("X")  # the enums refuse an unknown value the same way
    Traceback (most recent call last):
    ...
    chkobba.errors.NotationError: 'X' is not a suit's value: ...
    """


class IllegalMoveError(ChkobbaError):
    """A move that the rules do not allow in the given state.

    >>> import random
    >>> state = apply(new_match(), random_shuffle(random.Random(1)))
    >>> state = apply(state, Cut(keep=False))
    >>> apply(state, Play("7D"))  # well-formed, but not in the mover's hand
    Traceback (most recent call last):
    ...
    chkobba.errors.IllegalMoveError: 7D is not in player 1's hand
    """


class StaleMoveError(IllegalMoveError):
    """A move sent for a position of a :class:`~chkobba.Game` that is gone: another move
    was played, or one undone, since (:meth:`Game.play <chkobba.Game.play>` with
    ``revision=``). A server may tell the player so, or drop it, rather than call the
    move illegal.

    >>> game = Game(seed=7)
    >>> _ = game.deal()
    >>> sent = game.revision
    >>> _ = game.play("keep", revision=sent)
    >>> game.play("keep", revision=sent)
    Traceback (most recent call last):
    ...
    chkobba.errors.StaleMoveError: the move answers revision 1; the game is at revision 2
    """


class RecordError(ChkobbaError):
    """A game record that cannot be read, or that holds a move that is not legal.

    A record's moves are checked for legality when it is replayed:

    >>> record = Record(players=2, moves=[Cut(keep=True)])
    >>> record.replay()
    Traceback (most recent call last):
    ...
    chkobba.errors.RecordError: move 1 (index 0) ('keep') is not legal: Cut is not allowed ...
    """


class _ShortRepr(reprlib.Repr):
    """reprlib's bounded repr, which describes a huge integer inside a container too
    (``repr`` of one refuses to write more than 4300 digits)."""

    def repr_int(self, x: int, level: int) -> str:
        return _huge_int(x) or super().repr_int(x, level)

    def repr_instance(self, x: object, level: int) -> str:
        text = _class_named(x)
        if text is None:
            try:
                text = repr(x)
            except Exception:  # as reprlib does: a broken __repr__ names the class
                text = f"<{type(x).__name__} object>"
        # Only a representation in angle brackets loses its addresses: quoted text (a
        # subclass of str comes here, not to repr_str) and what another repr quotes
        # (ValueError('<x at 0x1>')) stay as they are.
        if text.startswith("<"):
            text = _ADDRESS.sub(r"<\1>", text)
        # Cut at the end, as `cut` does, where reprlib would drop the middle
        # ("ISMCTSBot(iterations=5, explo...erence=0, …"): the start reads whole.
        return text if len(text) <= self.maxother else text[: self.maxother - 1] + "…"


def _class_named(value: object) -> str | None:
    """An object with the default ``repr`` named by its class, without the address that
    says nothing to the reader (and changes from run to run); ``None`` for another."""
    kind = type(value)
    if kind.__repr__ is not object.__repr__:
        return None
    module = kind.__module__
    prefix = f"{module}." if isinstance(module, str) and module != "builtins" else ""
    return f"<{prefix}{kind.__qualname__} object>"


def _huge_int(value: int) -> str | None:
    """A huge integer described without writing it, or ``None`` for a normal one."""
    if value.bit_length() <= _INT_BITS:
        return None
    # Count the digits without writing the number: log10(2) per bit.
    digits = int(value.bit_length() * 0.30102999566398120) + 1
    return f"{'a negative' if value < 0 else 'an'} integer of about {digits} digits"


def _short_repr() -> reprlib.Repr:
    short = _ShortRepr()
    short.maxstring = short.maxother = QUOTE_LIMIT + 2
    short.maxlevel = 3
    short.maxlist = short.maxtuple = short.maxset = short.maxdict = 8
    short.maxfrozenset = short.maxdeque = short.maxarray = 8
    return short


_SHORT = _short_repr()
#: A ``repr`` that ends with an address, such as ``<function f at 0x7f3a2c1d0e50>``:
#: in angle brackets, without quotes, names in brackets inside (``<lambda>``) allowed.
_ADDRESS = re.compile(r"<((?:[^<>'\"]|<[^<>'\"]*>)*) at 0x[0-9a-fA-F]+>")


def shown(value: object, limit: int = QUOTE_LIMIT) -> str:
    """How an error message quotes ``value``: its ``repr``, at most ``limit`` characters.

    Longer text is cut and ends with ``…``; a huge integer is described, not written;
    a value whose ``repr`` fails is named by its type. The cost is bounded whatever the
    size of ``value`` (strings and bytes are cut before they are quoted). A character
    that would not show is escaped: ``repr`` escapes controls and zero-width spaces, and
    combining marks (a variation selector) are escaped too.

    >>> from chkobba.errors import shown
    >>> print(shown("7D\u200b"), shown("7D\ufe0f"))
    '7D\u200b' '7D\ufe0f'

    An object with the default ``repr`` is named by its class, and a representation
    ``<... at 0x...>`` (a function's, a generator's, a memoryview's) is shown without the
    address: it changes from run to run and says nothing to the reader.

    >>> shown([object()])
    '[<object object>]'
    >>> shown((len, lambda: 1, memoryview(b"")))
    '(<built-in function len>, <function <lambda>>, <memory>)'
    """
    try:
        text = _quote(value, limit)
    except Exception:  # a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__} object>"
    if not text.isascii():
        text = "".join(map(_mark_escaped, text))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown_path(path: str | os.PathLike[str], limit: int = 200) -> str:
    r"""How an error message quotes a file's name: as :func:`shown`, except that a
    backslash is written once, so a Windows path reads as it was typed and can be
    pasted back (``shown`` writes ``'C:\\Users'``, as Python would).

    >>> from chkobba.errors import shown_path
    >>> print(shown_path("C:\\Users\\me\\match.json"))
    'C:\Users\me\match.json'

    A name that needs other escapes (a control character, a quote of each kind) keeps
    every backslash doubled, as :func:`shown` writes it, so that its escapes read as
    escapes:

    >>> print(shown_path("a\\b\n"))
    'a\\b\n'
    """
    name = os.fspath(path)
    head = name[: limit + 1] if isinstance(name, str) else ""
    if "\\" not in head:
        return shown(name, limit)
    quoted = shown(head, 2 * limit + 2)  # uncut: each backslash is two characters here
    if quoted.count("\\") != 2 * head.count("\\"):
        return shown(name, limit)
    text = quoted.replace("\\\\", "\\") + ("…" if len(name) > len(head) else "")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _mark_escaped(ch: str) -> str:
    # repr() escapes the characters that do not print, but counts combining marks (a
    # variation selector, U+FE0F; the grapheme joiner, U+034F) as printing: alone in a
    # message they show nothing, or merge with the quote before them.
    if unicodedata.category(ch).startswith("M"):
        return f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}"
    return ch


def _quote(value: object, limit: int) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        huge = _huge_int(value)
        if huge is not None:
            return huge
    if isinstance(value, (str, bytes, bytearray)):
        # Cut before quoting: repr() of a megabyte of NULs would be four megabytes.
        return repr(value[: limit + 1]) + ("…" if len(value) > limit else "")
    if isinstance(value, types.ModuleType):  # its repr holds a path of this machine
        return f"the module {value.__name__}"
    return _class_named(value) or _SHORT.repr(value)


def items_of(
    value: object, what: str, limit: int = _ITEMS_LIMIT, error: type[ChkobbaError] = ChkobbaError
) -> tuple[Any, ...]:
    """The items of a collection argument, or a :class:`ChkobbaError` (or ``error``, a
    subclass) naming ``what``.

    Text is not a collection of items here: a string where cards or piles belong is a
    mistake, not a sequence of characters; nor is a mapping, whose keys alone a loop
    would read (``scores={0: 5, 1: 7}`` is not the scores 5 and 7).

    >>> import itertools
    >>> from chkobba.errors import items_of
    >>> items_of([1, 2], "scores")
    (1, 2)
    >>> items_of(None, "score_deal: captured")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: score_deal: captured must be a collection, not None
    >>> items_of(itertools.count(), "scores", limit=5)
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: scores has more than 5 items: count(...)
    """
    if isinstance(value, Mapping):  # iterating would read its keys alone, silently
        raise error(f"{what} must be a collection of items, not a mapping: {shown(value)}")
    if not isinstance(value, (str, bytes, bytearray)):
        try:
            # At most one item past the limit: an endless iterator, or a collection as big
            # as ``ipaddress.ip_network("::/0")``, must not hang or fill the memory.
            items = tuple(itertools.islice(value, limit + 1))  # type: ignore[call-overload]
        except TypeError:
            pass
        else:
            if len(items) > limit:
                raise error(f"{what} has more than {limit} items: {shown(value)}")
            return items
    raise error(f"{what} must be a collection, not {shown(value)}")
