"""Reading JSON strictly, for the files people write by hand (records and rule profiles)
and the text a program receives (states, views, outcomes); writing it the same way for
every value.

:func:`file_name` checks what names such a file before anything opens it: ``open`` and
``os.fspath`` would raise a bare ``TypeError`` or ``ValueError`` that names no argument.

:func:`json.loads` keeps the last of a key given twice and reads ``NaN`` and
``Infinity``, none of which standard JSON allows; a file holding them is most likely
wrong, so it is refused with the caller's error, naming what is wrong.

>>> strict_loads('{"a": 1, "a": 2}', ChkobbaError, "a rule profile")
Traceback (most recent call last):
...
chkobba.errors.ChkobbaError: field 'a' appears twice in one JSON object
>>> strict_loads('[1, NaN]', ChkobbaError, "a rule profile")
Traceback (most recent call last):
...
chkobba.errors.ChkobbaError: a rule profile holds no NaN: it is not standard JSON
"""

from __future__ import annotations

import codecs
import json
import math
import os
import re
from typing import Any

from chkobba.errors import ChkobbaError, shown

__all__ = [
    "BYTES_LIKE",
    "bad_byte",
    "document_text",
    "file_name",
    "read_document",
    "strict_loads",
    "utf8_text",
]


def strict_loads(text: str, error: type[ChkobbaError], what: str) -> Any:
    """``json.loads(text)``, raising ``error`` for a key twice in one object or a
    non-standard constant (``what`` names the document); text that is no JSON raises
    :class:`json.JSONDecodeError` (a ``ValueError``) as ``json.loads`` does."""

    def each_key_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for name, value in pairs:
            if name in found:
                raise error(f"field {shown(name)} appears twice in one JSON object")
            found[name] = value
        return found

    def no_constant(name: str) -> object:
        raise error(f"{what} holds no {name}: it is not standard JSON")

    def finite(number: str) -> float:  # (a hook for the rare fractions and exponents only)
        value = float(number)
        if math.isinf(value):  # 1e309: else quoted back as "Infinity", which it never held
            shown_number = number if len(number) <= 40 else f"{number[:37]}..."
            raise error(f"{what} holds a number too large to read: {shown_number}")
        return value

    try:
        return json.loads(
            text,
            object_pairs_hook=each_key_once,
            parse_constant=no_constant,
            parse_float=finite,
        )
    except ValueError as problem:
        # Past Python's int-from-text limit (4,300 digits) json says so with Python's
        # advice (sys.set_int_max_str_digits); said here in the document's terms. (Not a
        # parse_int hook: a Python call for every number of every document.)
        digits = _TOO_MANY_DIGITS.search(str(problem))
        if digits is None or isinstance(problem, json.JSONDecodeError):
            raise
        count = int(digits.group(1))
        raise error(f"{what} holds a number of {count:,} digits, too large to read") from None


_TOO_MANY_DIGITS = re.compile(r"integer string conversion: value has (\d+) digits")


def file_name(path: object, error: type[ChkobbaError], what: str) -> str | os.PathLike[str]:
    """``path`` if it names a file (a ``str`` or an :class:`os.PathLike` of one, without
    a NUL), else ``error`` naming it; ``what`` names the file (``"a record file"``).

    >>> file_name(None, ChkobbaError, "a rule profile's file")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: a rule profile's file is named by a str or an os.PathLike, not None
    """
    if isinstance(path, str) or (isinstance(path, os.PathLike) and not isinstance(path, bytes)):
        try:
            name = os.fspath(path)
        except TypeError:  # a __fspath__ that returns neither str nor bytes
            raise error(f"{shown(path)} does not name a file") from None
        # The operating system cannot name a file with a NUL: os and open raise a bare
        # ValueError that does not say which name.
        if ("\0" if isinstance(name, str) else b"\0") in name:
            raise error(f"{shown(name, 200)}: a file name cannot hold a NUL character")
        try:
            os.fsencode(name)
        except UnicodeEncodeError as problem:  # a lone surrogate, say: the same bare error
            raise error(
                f"{shown(name, 200)}: the file system cannot name a file with "
                f"{shown(problem.object[problem.start : problem.end])} ({problem.encoding})"
            ) from None
        return path
    raise error(f"{what} is named by a str or an os.PathLike, not {shown(path)}")


#: The bytes-like values the readers take as UTF-8 text (a socket's ``recv`` gives
#: ``bytes``, its ``recv_into`` fills a ``bytearray`` seen through a ``memoryview``).
BYTES_LIKE = (bytes, bytearray, memoryview)


def utf8_text(raw: bytes | bytearray | memoryview) -> str:
    """``raw`` as text: UTF-8, a leading byte-order mark skipped. Bytes that are not UTF-8
    raise :class:`UnicodeDecodeError` whose ``start`` counts from the first byte of
    ``raw``, the mark included (the ``utf-8-sig`` codec counts from after it).

    >>> utf8_text(b"\\xef\\xbb\\xbf{}")
    '{}'
    >>> try:
    ...     utf8_text(b'\\xef\\xbb\\xbf{"a\\xff"}')
    ... except UnicodeDecodeError as error:
    ...     print(bad_byte(error))
    byte 6 is 0xff
    """
    data = bytes(raw)  # a released memoryview raises ValueError here
    body = data.removeprefix(codecs.BOM_UTF8)
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as error:
        mark = len(data) - len(body)
        start, end = error.start + mark, error.end + mark
        raise UnicodeDecodeError("utf-8", data, start, end, error.reason) from None


def bad_byte(error: UnicodeDecodeError) -> str:
    """Where UTF-8 text went wrong, for a message: ``byte 6 is 0xff``."""
    return f"byte {error.start} is {error.object[error.start]:#04x}"


def document_text(data: dict[str, Any], compact: bool) -> str:
    """A value's JSON object as text: one field a line (a field's value on its line), or
    with ``compact`` one line without spaces. ASCII only (``\\u`` escapes), so the text
    goes through any encoding.

    >>> print(document_text({"name": "house", "players": [2, 4]}, compact=False))
    {
      "name": "house",
      "players": [2, 4]
    }
    >>> document_text({"name": "house", "players": [2, 4]}, compact=True)
    '{"name":"house","players":[2,4]}'
    """
    if compact:
        return json.dumps(data, separators=(",", ":"))
    fields = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in data.items()]
    return "{\n" + ",\n".join(fields) + "\n}"


def read_document(text: object, caller: str, what: str) -> Any:
    """``text`` read by :func:`strict_loads`, every problem a :class:`ChkobbaError`:
    what is neither a ``str`` nor UTF-8 bytes (``bytes``, ``bytearray`` or
    ``memoryview``; naming ``caller``), and text that is not JSON (``what`` names the
    document with its article, as ``"a rule profile"``). A leading byte-order mark is
    skipped, as :meth:`Record.from_json <chkobba.Record.from_json>` skips it.

    >>> read_document('{"format": ', "State.from_json", "a state")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: the state is not valid JSON: Expecting value: line 1 ...
    >>> read_document(b"\\xef\\xbb\\xbf{}", "State.from_json", "a state")
    {}
    >>> read_document(b'{"name": "\\xe9"}', "State.from_json", "a state")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: the state is not UTF-8 text: byte 10 is 0xe9
    >>> read_document(None, "State.from_json", "a state")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: State.from_json takes JSON text, not None
    """
    noun = what.partition(" ")[2]
    if isinstance(text, BYTES_LIKE):
        try:
            text = utf8_text(text)
        except UnicodeDecodeError as error:
            raise ChkobbaError(f"the {noun} is not UTF-8 text: {bad_byte(error)}") from None
        except ValueError:  # a memoryview released before the call: no bytes to read
            raise ChkobbaError(f"{caller} cannot read a released memoryview") from None
    if not isinstance(text, str):
        raise ChkobbaError(f"{caller} takes JSON text, not {shown(text)}")
    try:
        return strict_loads(text.removeprefix("\ufeff"), ChkobbaError, what)
    except ChkobbaError:  # a ValueError too, already saying what is wrong
        raise
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise ChkobbaError(f"the {noun} is not valid JSON: {error}") from None
