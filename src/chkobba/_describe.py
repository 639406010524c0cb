"""Short descriptions of wrong arguments, for error messages.

A message names what was expected and what came instead, never a whole repr: a
``PlayerView`` or a ``State`` prints as hundreds of characters.

>>> print(wrong_type("legal_moves", "a State", 42))
legal_moves: expected a State, got 42 (int)

Moves are numbered the way people count, from 1, with the index code uses beside it:

>>> move_number(5)
'move 6 (index 5)'
"""

from __future__ import annotations

import contextlib
import enum
import itertools
import json
import math
import numbers
import operator
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar, cast

from chkobba.errors import QUOTE_LIMIT, ChkobbaError, shown

__all__ = [
    "add_note",
    "bot_label",
    "bot_name",
    "cut",
    "finite_at_least_zero",
    "finite_number",
    "first_unknown",
    "int_converter",
    "integer_count",
    "integral",
    "json_kind",
    "json_shown",
    "kind_against",
    "missing_extra",
    "move_number",
    "not_an_int",
    "one_line",
    "plain_flag",
    "plain_integer",
    "reset_options",
    "reset_seed",
    "shown_kind",
    "twice",
    "wrong_type",
]

_LIMIT = 60

#: What to use instead, when a caller passes one of the library's types in the wrong place.
_INSTEAD = {
    "PlayerView": (
        "a view hides the other hands: legal_moves, is_legal, illegal_reason, parse_move "
        "and render accept a view, apply needs the State"
    ),
    "PublicView": (
        "a public view shows no hand: render and its JSON methods accept it, a player's "
        "moves need the State or that player's view"
    ),
}

#: The names of the library's classes that its messages show by name alone (see
#: :func:`shown_kind`): a class of one's own so named is said to be of its own module.
_LOOKALIKES = frozenset({"State", *_INSTEAD})


class TextEnumType(enum.EnumMeta):
    """The metaclass of the enums looked up by text (``Suit``, ``Rank``, ``Phase``):
    anything but text or a member goes straight to the class's ``_missing_``, which
    raises the library's error. Enum's own refusal would first write the value whole,
    which fails for an integer of 5,000 digits or a list nested 100,000 deep."""

    def __call__(cls, value: Any, *args: Any, **kwargs: Any) -> Any:
        if not args and not kwargs and not isinstance(value, (str, cls)):
            return cast("type[enum.Enum]", cls)._missing_(value)
        return super().__call__(value, *args, **kwargs)


def shown_kind(value: object) -> str:
    """``value`` as a message quotes it, with its type: ``42 (int)``; a library object
    whose repr is long (a ``State``, a ``PlayerView``) is named by its type alone."""
    kind = type(value).__name__
    if kind in _INSTEAD or kind == "State":
        return f"a {kind}"
    text = shown(value)
    return f"a {kind}" if len(text) > _LIMIT else f"{text} ({kind})"


def kind_against(value: object, expected: str) -> str:
    """:func:`shown_kind`, saying why a value of a class named as expected is refused,
    where "expected a State, got a State" would say nothing: its class is another
    module's, or another load of the library's module (``importlib.reload``, IPython's
    ``%autoreload``)."""
    kind = type(value)
    if kind.__module__ == "builtins":  # "a list of hands" names no class
        return shown_kind(value)
    named = re.search(rf"\ban? {re.escape(kind.__name__)}\b", expected)
    own = not kind.__module__.startswith("chkobba.")
    if named is None and not (own and kind.__name__ in _LOOKALIKES):
        return shown_kind(value)
    if own:  # a class of one's own, named as the one expected or as another of ours
        return f"a {kind.__name__} of {kind.__module__}, not of chkobba"
    return (
        f"a {kind.__name__} of another load of {kind.__module__} (a reloaded module "
        "defines its classes anew, and the library holds those of its first load: "
        "reload none of chkobba's modules, or restart)"
    )


def json_kind(value: object) -> str:
    """How a value read from JSON reads in an error message: as JSON text, with its JSON
    kind, for the readers of records, states, views, outcomes and profiles.

    >>> json_kind(None), json_kind(True), json_kind([]), json_kind({"a": 1})
    ('null', 'true (a boolean)', '[] (a list)', '{"a": 1} (an object)')
    """
    if value is None:
        return "null"
    kinds = {bool: "a boolean", int: "a number", float: "a number", str: "text", list: "a list"}
    kind = "an object" if isinstance(value, dict) else kinds.get(type(value), type(value).__name__)
    return f"{json_shown(value)} ({kind})"


def json_shown(value: object) -> str:
    """A JSON value as JSON text, cut like :func:`~chkobba.errors.shown` (and as cheaply).
    A character that would not show (a zero-width space, a variation selector) is written
    as JSON's escape of it, as ``shown`` escapes it in Python's words.

    >>> json_shown(None), json_shown(()), json_shown("7D")
    ('null', '[]', '"7D"')
    >>> print(json_shown("most\ufe0f"), json_shown(["\u200b", "été"]))
    "most\ufe0f" ["\u200b", "été"]
    """
    if isinstance(value, str):
        value = value[: QUOTE_LIMIT + 1]
    small = not isinstance(value, (list, tuple, dict)) or len(value) <= 20
    if small and not (isinstance(value, int) and abs(value) > 10**60):
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            text = shown(value)
    else:
        text = shown(value)
    if text.isascii():
        return text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 3] + "..."
    # Escaped a character at a time from the start, so that no more of the text is looked
    # at than can be shown, and the cut never splits an escape (or a surrogate pair).
    pieces, size = [], 0
    for character in itertools.islice(text, QUOTE_LIMIT + 1):
        pieces.append(_json_escaped(character))
        size += len(pieces[-1])
        if size > QUOTE_LIMIT:
            break
    if size <= QUOTE_LIMIT and len(pieces) == len(text):
        return "".join(pieces)
    kept, size = [], 0
    for piece in pieces:
        size += len(piece)
        if size > QUOTE_LIMIT - 3:
            break
        kept.append(piece)
    return "".join(kept) + "..."


def _json_escaped(ch: str) -> str:
    # json.dumps escapes the controls below U+0020 only; these would show nothing, or
    # merge with the quote beside them (see chkobba.errors.shown).
    if ch.isprintable() and not unicodedata.category(ch).startswith("M"):
        return ch
    return json.dumps(ch)[1:-1]  # JSON's \u escape: two of them (a pair) beyond U+FFFF


def json_choices(choices: Iterable[str]) -> str:
    """Text choices as a JSON reader's message lists them, each as JSON writes it.

    >>> json_choices(("shuffle", "cut"))
    '"shuffle", "cut"'
    """
    return ", ".join(map(json.dumps, choices))


def wrong_type(function: str, expected: str, value: object) -> str:
    """The message for ``function`` given ``value`` where it expects ``expected``."""
    message = f"{function}: expected {expected}, got {kind_against(value, expected)}"
    kind = type(value)
    # The library's views only: a class of one's own of that name is not what it says.
    instead = _INSTEAD.get(kind.__name__) if kind.__module__.startswith("chkobba.") else None
    return f"{message} ({instead})" if instead else message


def not_an_int(name: str, value: object) -> ChkobbaError | None:
    """The refusal of ``value`` as ``name`` (a count or a seat) when it is no int, else
    None: ``2.0`` or ``True`` is refused for its type, not as a wrong count. (Integers of
    other types were made ints by :func:`integral` before.)

    >>> not_an_int("players", 2.0)
    ChkobbaError('players must be an int, not 2.0 (float)')
    """
    if type(value) is int:
        return None
    return ChkobbaError(f"{name} must be an int, not {shown_kind(value)}")


_Value = TypeVar("_Value")


def integral(value: _Value) -> _Value:
    """``value`` as a plain ``int`` when it is an integer of another integral type
    (numpy's, an ``IntEnum``'s: what :func:`operator.index` takes; a bool counts nothing),
    else ``value`` itself, for the check that follows to judge.

    A count, a seat or a seed may come from numpy (``rng.integers``, an array's item):
    taken as the int it is, it is what the state keeps and what JSON writes.

    >>> from http import HTTPStatus
    >>> integral(True), integral(2.0), integral(HTTPStatus.OK), type(integral(HTTPStatus.OK))
    (True, 2.0, 200, <class 'int'>)
    """
    number = integer_count(value)
    return value if number is None else cast("_Value", number)


def int_converter(value: int) -> int:
    """:func:`integral` typed as an attrs converter of an ``int`` field (``Record``'s
    players, ``Rules``' target): what a type checker shows as the field's type."""
    return integral(value)


def twice(card: object, first: str, second: str) -> str:
    """A card found in ``first`` and again in ``second``, which may be the same place.

    >>> twice("3C", "hands[0]", "table"), twice("3C", "hands[0]", "hands[0]")
    ('3C is in two places (hands[0] and table)', '3C is twice in hands[0]')
    """
    if first == second:
        return f"{card} is twice in {first}"
    return f"{card} is in two places ({first} and {second})"


def first_unknown(keys: Iterable[object], known: Iterable[str]) -> str | None:
    """The first of ``keys`` not ``known``, shown (names in order, then other keys): the
    unknown field a reader names. Keys of any kind, a dict built in Python may hold them."""
    unknown = set(keys) - set(known)
    if not unknown:
        return None
    names = sorted(key for key in unknown if isinstance(key, str))
    return shown(names[0]) if names else min(map(shown, unknown))


def one_line(text: str) -> str:
    """``text`` with each character that is not printable (a newline, a terminal's escape
    code) written as its escape: a message stays one line and moves no terminal.

    >>> print(one_line("unrecognized arguments: a\\nb \\x1b[2J é ♦"))
    unrecognized arguments: a\\nb \\x1b[2J é ♦
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def move_number(index: int, what: str = "move") -> str:
    """``move 6 (index 5)``: the one way messages name the move at ``moves[index]``."""
    return f"{what} {index + 1} (index {index})"


def missing_extra(error: ImportError, module: str, extra: str) -> ModuleNotFoundError:
    """The error for ``module`` whose optional ``extra`` is not installed."""
    return ModuleNotFoundError(
        f"{module} needs {error.name or 'a package'}, which is not installed: "
        f"install chkobba[{extra}] (in a clone of chkobba: pip install -e '.[{extra}]')",
        name=error.name,
    )


def finite_number(name: str, value: object) -> float:
    """``value`` as a float if it is a finite real number (numpy's included, a bool
    not), else a :class:`~chkobba.ChkobbaError` naming the option.

    >>> finite_number("deal_reward", 1)
    1.0
    >>> finite_number("deal_reward", "1")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: deal_reward must be a finite number, not '1'
    >>> finite_number("deal_reward", 10**400)
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: deal_reward must be a finite number, not an integer of about ...
    """
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise ChkobbaError(f"{name} must be a finite number, not {shown(value)}")
    try:
        number = float(value)
    except OverflowError:  # an integer too large for a float
        number = math.inf
    if not math.isfinite(number):
        raise ChkobbaError(f"{name} must be a finite number, not {shown(value)}")
    return number


def finite_at_least_zero(value: object) -> bool:
    """Whether ``value`` is a finite real number >= 0 (numpy's included, a bool not, an
    integer too large for a float not).

    >>> finite_at_least_zero(0), finite_at_least_zero(1.5), finite_at_least_zero(-1)
    (True, True, False)
    >>> [finite_at_least_zero(v) for v in (True, float("inf"), 10**400)]
    [False, False, False]
    """
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value) and float(value) >= 0
    except OverflowError:  # an integer too large for a float
        return False


def plain_integer(value: object) -> object:
    """``value`` as an ``int`` if it is an integer (numpy's included, a bool not), else
    ``value`` itself, for the check that follows to refuse with its own message.

    The adapters take action ids, seats, dealers and player counts drawn with numpy
    (``rng.integers``), while the core checks for a plain ``int``.

    >>> plain_integer(3), plain_integer(True), plain_integer(2.0), plain_integer("alternate")
    (3, True, 2.0, 'alternate')
    """
    if type(value) is int:  # the common case, first: adapters step with it
        return value
    if isinstance(value, bool) or _is_numpy_bool(value):  # numpy < 2.3 gives them __index__
        return value
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return value


def plain_flag(name: str, value: object) -> bool:
    """``value`` as a bool: True or False (numpy's too), or the 0 and 1 callers pass.

    Anything else is refused: ``bool("no")`` is True, the opposite of what was meant.

    >>> plain_flag("single_deal", 1), plain_flag("single_deal", False)
    (True, False)
    >>> plain_flag("single_deal", "no")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: single_deal must be True or False, not 'no'
    """
    if isinstance(value, bool) or _is_numpy_bool(value):
        return bool(value)
    number = plain_integer(value)
    if type(number) is int and number in (0, 1):
        return bool(number)
    raise ChkobbaError(f"{name} must be True or False, not {shown(value)}")


def integer_count(value: object) -> int | None:
    """``value`` as a Python int if it is an integer of any integral type (numpy's
    included: what :func:`operator.index` takes), else None: also for ``True``/``False``
    and numpy's booleans, which are not counts.

    >>> integer_count(3), integer_count(True), integer_count(2.0)
    (3, None, None)
    """
    number = plain_integer(value)
    if isinstance(number, bool) or not isinstance(number, int):
        return None
    return int(number)


def _is_numpy_bool(value: object) -> bool:
    """Whether ``value`` is numpy's boolean scalar (``np.bool_``), without importing numpy
    (its name is ``bool`` from numpy 2 on)."""
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    return type(value).__module__ == "numpy" and kind == "b" and getattr(value, "ndim", 1) == 0


def reset_seed(seed: object) -> int | None:
    """An environment reset's seed as Gymnasium's seeding takes it: None or an int >= 0.

    Checked first, so that a bad seed is a ChkobbaError (Gymnasium raises its own
    ``gymnasium.error.Error``, no ValueError) and changes nothing; numpy's integers,
    which Gymnasium refuses, are converted.
    """
    number = plain_integer(seed)
    if seed is not None and (type(number) is not int or number < 0):
        raise ChkobbaError(f"reset: seed must be None or an integer >= 0, not {shown(seed)}")
    return number  # type: ignore[return-value]


def reset_options(options: object, known: Iterable[str] | None = None) -> Mapping[str, Any]:
    """An environment reset's options: a mapping, ``{}`` for None; with ``known``, one
    whose keys are all among them.

    >>> reset_options({"singel_deal": True}, known=("single_deal", "dealer"))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: reset: unknown option 'singel_deal' (the options are ...)
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ChkobbaError(f"reset: options must be a dict or None, not {shown(options)}")
    if known is not None:
        names = tuple(known)
        unknown = first_unknown(options, names)
        if unknown is not None:
            raise ChkobbaError(
                f"reset: unknown option {unknown} (the options are {', '.join(map(repr, names))})"
            )
    return options


def bot_name(bot: object) -> str:
    """A bot's name wherever it is shown (tables, records, messages): its ``name`` (the
    Bot protocol's optional text) without surrounding blanks, else its class name (a
    ``name`` that is blank or no text counts as none), never its ``repr``
    (``<__main__.MyBot object at 0x…>``)."""
    try:
        name = getattr(bot, "name", None)
    except Exception:  # a broken property must not hide the real error
        name = None
    return name.strip() if isinstance(name, str) and name.strip() else type(bot).__name__


def bot_label(bot: object) -> str:
    """How messages name a bot: :func:`bot_name`, cut to a quote's length."""
    return cut(bot_name(bot))


def cut(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` if it has at most ``limit`` characters, else its start ending with ``…``.

    >>> cut("a" * 70)
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…'
    >>> cut("a" * 60) == "a" * 60, len(cut("a" * 61))
    (True, 60)
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def add_note(error: BaseException, note: str) -> None:
    """Add ``note`` to ``error``, which goes on with its type unchanged: Python 3.11's
    ``add_note`` (a traceback prints the note under the error), else the same
    ``__notes__`` list for code that reads it (Python 3.10, or an error whose
    ``__notes__`` is no list, which ``add_note`` refuses with a TypeError).

    >>> error = RuntimeError("the bot's own bug")
    >>> error.__notes__ = ("a tuple",)
    >>> add_note(error, "in match 3")
    >>> error.__notes__
    ['a tuple', 'in match 3']
    """
    method = getattr(error, "add_note", None)
    if callable(method):
        try:
            method(note)
            return
        except TypeError:
            pass
    try:
        earlier = list(getattr(error, "__notes__", ()))
    except TypeError:  # not even iterable: replaced
        earlier = []
    with contextlib.suppress(AttributeError, TypeError):  # an error that takes no attribute
        error.__notes__ = [*earlier, note]  # type: ignore[attr-defined,unused-ignore]
