"""Mutations of valid inputs: byte-level ones and JSON-structure-aware ones.

The JSON mutator parses the input, changes one part of its tree (replaces a value with an
interesting one or with a part of another seed, drops or adds a field, swaps, duplicates,
wraps or unwraps values, nudges numbers, edits strings) and writes it back, sometimes
with a text-level twist that no tree can hold (a key written twice, a huge integer,
``NaN``, deep nesting, a byte-order mark). Most results are still JSON, and most are
still *almost* a valid document, which is where the readers' checks are.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from chkobba import DECK

_STRINGS: list[str] = [
    "",
    " ",
    "\0",
    "\ud800",
    "\ufeff",
    "é",
    "7♦",
    "x" * 300,
    "keep",
    "expose",
    "shuffle",
    "QH x 2D+6S",
    "chkobba-record",
    "chkobba-state",
    "chkobba-view",
    "chkobba-outcome",
    "tunisian",
    "cardrulesplus",
    "shuffle",
    "cut",
    "play",
    "over",
    "three_kings",
    "never",
    "most",
    *(str(c) for c in DECK[::3]),
]
_FIELDS = [
    "format",
    "version",
    "players",
    "dealer",
    "scores",
    "rules",
    "tags",
    "moves",
    "name",
    "capture_values",
    "target",
    "cut",
    "phase",
    "hands",
    "table",
    "stock",
    "captured",
    "chkobbas",
    "current_player",
    "last_capturer",
    "winner",
    "deal_scores",
    "player",
    "hand",
    "hand_sizes",
    "stock_size",
    "cut_card",
    "kind",
    "card",
    "capture",
    "points",
    "winners",
]
_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    3,
    4,
    5,
    7,
    10,
    21,
    39,
    40,
    41,
    255,
    10_000,
    10_001,
    2**31,
    2**63,
    -(2**63),
    10**30,
    0.5,
    1.0,
    -0.0,
    1e308,
    [],
    {},
    [0, 0],
    [0, 0, 0],
    [None],
    [[]],
    [2, 4],
    list(range(1, 11)),
]
# Text-level replacements of one number: what JSON allows but Python reads oddly, and
# what only Python's json reads.
_NUMBERS = [
    "1" + "0" * 5000,
    "-" + "9" * 400,
    "1e999",
    "-1e999",
    "1E+2",
    "0.0",
    "-0",
    "NaN",
    "Infinity",
]
_NUMBER = re.compile(rb"-?\d+(\.\d+)?([eE][-+]?\d+)?")


class JsonMutator:
    """Mutates JSON inputs; ``splice`` holds parsed seeds to take parts from."""

    def __init__(self, splice: list[Any]) -> None:
        self.splice = splice

    def mutate(self, data: bytes, rng: random.Random) -> bytes | None:
        """A mutation of ``data``, or ``None`` when it is not JSON (mutate its bytes)."""
        try:
            tree = json.loads(data.decode("utf-8-sig"))
        except (ValueError, RecursionError):
            return None
        try:
            for _ in range(rng.choice((1, 1, 1, 2, 3))):
                tree = self._tree_op(tree, rng)
            text = _dump(tree, rng).encode("utf-8", "surrogatepass")
        except Exception:  # a tree too deep to walk, a number too big for a
            # float...: a failing mutator would stop libFuzzer, so mutate the bytes instead
            return None
        if rng.random() < 0.15:
            text = _text_op(text, rng)
        return text

    def _tree_op(self, tree: Any, rng: random.Random) -> Any:
        nodes = list(_nodes(tree, ()))
        path, node = rng.choice(nodes)
        op = rng.randrange(10)
        if op == 0:
            return _set(tree, path, self._value(rng))
        if op == 1 and self.splice:
            donor = rng.choice(self.splice)
            return _set(tree, path, _copy(rng.choice(list(_nodes(donor, ())))[1]))
        if op == 2:  # a part of the same document elsewhere (a copy: never a cycle)
            return _set(tree, path, _copy(rng.choice(nodes)[1]))
        if op == 3 and isinstance(node, dict) and node:
            node.pop(rng.choice(list(node)))
            return tree
        if op == 4 and isinstance(node, dict):
            node[rng.choice(_FIELDS)] = self._value(rng)
            return tree
        if op == 5 and isinstance(node, list) and node:
            _list_op(node, rng)
            return tree
        if op == 6 and isinstance(node, dict) and len(node) > 1:
            a, b = rng.sample(list(node), 2)
            node[a], node[b] = node[b], node[a]
            return tree
        if op == 7:
            node = _copy(node)
            if rng.random() < 0.2:  # deep nesting inside the document, where json reads it
                for _ in range(rng.choice((20, 300, 700))):
                    node = [node]
                return _set(tree, path, node)
            return _set(tree, path, [node] if rng.random() < 0.7 else {"x": node})
        if op == 8 and isinstance(node, (int, float)) and not isinstance(node, bool):
            return _set(tree, path, _nudged(node, rng))
        if op == 9 and isinstance(node, str):
            return _set(tree, path, _edited(node, rng))
        return _set(tree, path, self._value(rng))

    def _value(self, rng: random.Random) -> Any:
        pick = rng.random()
        if pick < 0.5:
            return _copy(rng.choice(_VALUES))
        if pick < 0.8:
            return rng.choice(_STRINGS)
        return [rng.choice(_STRINGS) for _ in range(rng.randrange(6))]


def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _nodes(tree: Any, path: tuple[Any, ...]) -> Any:
    yield path, tree
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from _nodes(value, (*path, key))
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            yield from _nodes(value, (*path, index))


def _set(tree: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = tree
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return tree


def _list_op(node: list[Any], rng: random.Random) -> None:
    op = rng.randrange(6)
    if op == 0:
        del node[rng.randrange(len(node))]
    elif op == 1:
        node.insert(rng.randrange(len(node) + 1), rng.choice(node))
    elif op == 2 and len(node) > 1:
        i, j = rng.sample(range(len(node)), 2)
        node[i], node[j] = node[j], node[i]
    elif op == 3:
        del node[rng.randrange(len(node)) :]
    elif op == 4:
        node.reverse()
    else:
        node.extend(node[: rng.randrange(len(node) + 1)])


def _nudged(number: float, rng: random.Random) -> Any:
    choices = [number + 1, number - 1, -number, number * 2, number * 10**6, 0]
    if abs(number) < 1e300:
        choices.append(float(number))
    return rng.choice(choices)


def _edited(text: str, rng: random.Random) -> str:
    op = rng.randrange(6)
    where = rng.randrange(len(text) + 1)
    if op == 0:
        return text.swapcase()
    if op == 1:
        return (
            text[:where]
            + chr(rng.choice((0, 9, 32, 0x200B, 0xFE0F, 0x2666, 0xD800)))
            + text[where:]
        )
    if op == 2:
        return text[:where]
    if op == 3:
        return text[:where] + text[where + 1 :]
    if op == 4:
        return text + " " + text
    return rng.choice(_STRINGS)


def _dump(tree: Any, rng: random.Random) -> str:
    if rng.random() < 0.5:
        return json.dumps(tree, separators=(",", ":"), ensure_ascii=rng.random() < 0.3)
    return json.dumps(tree, indent=rng.choice((None, 1, 2)), ensure_ascii=rng.random() < 0.3)


def _text_op(text: bytes, rng: random.Random) -> bytes:
    op = rng.randrange(5)
    if op == 0:  # a key written twice
        start = text.find(b"{")
        if start >= 0:
            field = rng.choice(_FIELDS).encode()
            return (
                text[: start + 1] + b'"' + field + b'": 1, "' + field + b'": 2,' + text[start + 1 :]
            )
    if op == 1:
        found = list(_NUMBER.finditer(text))
        if found:
            match = rng.choice(found)
            return text[: match.start()] + rng.choice(_NUMBERS).encode() + text[match.end() :]
    if op == 2:
        depth = rng.choice((50, 1000, 100_000))
        return b"[" * depth + text + b"]" * depth
    if op == 3:
        return b"\xef\xbb\xbf" + text
    return text + rng.choice((b"\n", b" {}", b"x", b"\n" + text))


def byte_mutation(data: bytes, rng: random.Random, max_size: int) -> bytes:
    """A byte-level mutation for the fallback engine (atheris has libFuzzer's own)."""
    buffer = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 4, 8))):
        op = rng.randrange(6)
        where = rng.randrange(len(buffer) + 1)
        if op == 0 and buffer:
            buffer[min(where, len(buffer) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            buffer[where:where] = bytes([rng.randrange(256)])
        elif op == 2 and buffer:
            del buffer[where : where + rng.randrange(1, 9)]
        elif op == 3 and buffer:
            start = rng.randrange(len(buffer))
            buffer[where:where] = buffer[start : start + rng.randrange(1, 33)]
        elif op == 4 and buffer:
            buffer[min(where, len(buffer) - 1)] = rng.choice(b'\x00\xff"{}[],:0 -9eE\\')
        else:
            buffer[where:where] = rng.choice(
                (b"\xef\xbb\xbf", b"\xed\xa0\x80", b"\xc3", b"x", b"+")
            )
    return bytes(buffer[:max_size])
