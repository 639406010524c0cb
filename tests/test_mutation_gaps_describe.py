"""Tests for the gaps a mutmut audit of the message helpers found (2026-12-04).

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to ``errors.py``, ``_describe.py`` or ``_json.py`` that the rest of the suite let
through (tools/mutation/README.md). How messages quote a value is set up when
``chkobba.errors`` is imported, where mutmut cannot switch a mutant on; these tests pin
it for every kind of collection.
"""

from __future__ import annotations

import collections
import importlib
import os
import sys
from typing import Any

import pytest

from chkobba import ChkobbaError, IllegalMoveError, Phase, Play, Record, RecordError
from chkobba._describe import missing_extra, one_line, reset_options
from chkobba.arena import play_match
from chkobba.bots import GreedyBot
from chkobba.errors import shown

_EIGHT = "0, 1, 2, 3, 4, 5, 6, 7, ..."


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (list(range(9)), f"[{_EIGHT}]"),
        (tuple(range(9)), f"({_EIGHT})"),
        (set(range(9)), f"{{{_EIGHT}}}"),
        (frozenset(range(9)), f"frozenset({{{_EIGHT}}})"),
        (collections.deque(range(9)), f"deque([{_EIGHT}])"),
        ({i: i for i in range(9)}, "{0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, ...}"),
        (list(range(8)), "[0, 1, 2, 3, 4, 5, 6, 7]"),
        ([[[[1]]]], "[[[[...]]]]"),
        ([[[1]]], "[[[1]]]"),
        # A text inside a collection is cut to 62 characters around "..." (29 before,
        # 30 after, quotes included); the whole is then cut to 60 with "…".
        (["x" * 70], "['" + "x" * 28 + "..." + "x" * 26 + "…"),
    ],
)
def test_messages_quote_at_most_eight_items_three_levels_deep(value: object, text: str) -> None:
    assert shown(value) == text


class _Long:
    def __repr__(self) -> str:
        return "<" + "y" * 68 + ">"


def test_a_long_repr_inside_a_collection_is_cut_at_its_end() -> None:
    # Cut to 62 characters ("<" and 60 y's and "…"; reprlib dropped the middle until
    # stop 82), then the whole to 60.
    assert shown([_Long()]) == "[<" + "y" * 57 + "…"
    assert shown([_Long()], 100) == "[<" + "y" * 60 + "…]"


class _NoPath:
    def __fspath__(self) -> Any:
        return 3

    def __repr__(self) -> str:
        return "<no path>"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (_NoPath(), "<no path> does not name a file"),
        (3, "a record file is named by a str or an os.PathLike, not 3"),
    ],
)
def test_a_file_name_that_is_no_name_is_refused_as_given(path: Any, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        Record.load(path)
    assert str(caught.value) == message


def test_a_long_file_name_with_a_nul_is_cut_in_the_message(tmp_path: Any) -> None:
    long = os.fspath(tmp_path / ("n" * 300 + "\0.json"))
    with pytest.raises(RecordError) as caught:
        Record.load(long)
    assert str(caught.value) == f"{repr(long)[:199]}…: a file name cannot hold a NUL character"


def test_an_adapter_without_its_package_names_the_extra_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``None`` in ``sys.modules`` makes ``import gymnasium`` fail as if it were absent."""
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    monkeypatch.delitem(sys.modules, "chkobba.gymnasium", raising=False)
    with pytest.raises(ModuleNotFoundError) as caught:
        importlib.import_module("chkobba.gymnasium")
    assert str(caught.value) == (
        "chkobba.gymnasium needs gymnasium, which is not installed: install "
        "chkobba[gymnasium] (in a clone of chkobba: pip install -e '.[gymnasium]')"
    )
    assert caught.value.name == "gymnasium"


def test_an_import_error_without_a_name_names_a_package() -> None:
    # An ImportError raised by hand inside a dependency may carry no name; only the
    # helper itself reaches that case without breaking an installed package.
    error = missing_extra(ImportError("broken"), "chkobba.openspiel", "openspiel")
    assert str(error) == (
        "chkobba.openspiel needs a package, which is not installed: install "
        "chkobba[openspiel] (in a clone of chkobba: pip install -e '.[openspiel]')"
    )
    assert error.name is None


def test_reset_options_must_be_a_mapping() -> None:
    # Shared by the adapters' reset(); tested here without their optional packages.
    assert reset_options(None) == {}
    with pytest.raises(ChkobbaError) as caught:
        reset_options(3)
    assert str(caught.value) == "reset: options must be a dict or None, not 3"


class _Layer:
    """A bot that lays its first card down, even when that card must capture."""

    name: Any = None

    def choose(self, view: Any, legal: tuple[Any, ...]) -> Any:
        return legal[0] if view.phase is Phase.CUT else Play(view.hand[0])


def _illegal_message(bot: Any) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        play_match([bot, GreedyBot(seed=1)], seed=1)
    return str(caught.value)


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("n" * 60, "n" * 60),
        ("n" * 61, "n" * 59 + "…"),
        ("  padded  ", "padded"),
        ("   ", "_Layer"),
        (None, "_Layer"),
    ],
)
def test_a_bot_is_named_by_its_name_cut_at_sixty_characters(name: Any, label: str) -> None:
    bot = _Layer()
    bot.name = name
    assert _illegal_message(bot).startswith(f"bot {label} at seat 0 chose ")


def test_a_bot_whose_name_fails_is_named_by_its_class() -> None:
    class Broken(_Layer):
        @property
        def name(self) -> str:  # type: ignore[override]
            raise RuntimeError("no name")

    assert _illegal_message(Broken()).startswith("bot Broken at seat 0 chose ")


def test_one_line_escapes_only_what_cannot_be_printed() -> None:
    # A suit symbol or an accent is printable and stays; a line break is escaped.
    assert one_line("Q♥ x 2D, café\n") == "Q♥ x 2D, café\\n"
