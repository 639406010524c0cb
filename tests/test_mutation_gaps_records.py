"""Tests for the gaps a mutmut audit of ``records.py`` found (the audit of 2026-12-04).

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to the library that the rest of the suite let through (tools/mutation/README.md).
Most pin the full text of a refusal: a bad record's message names the field, the value
(as JSON, cut at 60 characters) and its kind.
"""

from __future__ import annotations

import codecs
import json
import os
import random
import stat
from pathlib import Path
from typing import Any

import pytest

from chkobba import (
    DECK,
    Cut,
    Phase,
    Play,
    Record,
    RecordError,
    Shuffle,
    apply,
    card,
    new_match,
    random_shuffle,
    rollout,
)
from chkobba.records import MOVE_LIMIT

_BASE: dict[str, Any] = json.loads(Record(players=2).to_json())


def _with(**fields: Any) -> str:
    record = dict(_BASE)
    record.update(fields)
    return json.dumps(record)


def _rules(**fields: Any) -> dict[str, Any]:
    rules = dict(_BASE["rules"])
    rules.update(fields)
    return rules


_STATES = "from_states needs a non-empty sequence of states, not "
_NOT_MOVE = "move 1 (index 0) must be move text, not "
_TAGS = "tags must be an object of texts, not "


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_with(moves=[True]), _NOT_MOVE + "true (a boolean)"),
        (_with(moves=[2.5]), _NOT_MOVE + "2.5 (a number)"),
        (_with(moves=[7]), _NOT_MOVE + "7 (a number)"),
        (_with(moves=[[1, 2]]), _NOT_MOVE + "[1, 2] (a list)"),
        (_with(moves=[{"a": 1}]), _NOT_MOVE + '{"a": 1} (an object)'),
        (_with(moves=[None]), _NOT_MOVE + "null"),
        (_with(moves=[10**61]), _NOT_MOVE + "an integer of about 62 digits (a number)"),
        (_with(moves=[10**60]), _NOT_MOVE + "1" + "0" * 56 + "... (a number)"),
        (_with(moves=[list(range(21))]), _NOT_MOVE + "[0, 1, 2, 3, 4, 5, 6, 7, ...] (a list)"),
        (
            _with(moves=[list(range(20))]),
            _NOT_MOVE + "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16... (a list)",
        ),
        (_with(moves="a"), 'moves must be a list of move texts, not "a" (text)'),
        (_with(tags="é" * 70), _TAGS + '"' + "é" * 56 + "... (text)"),
        (_with(tags="x" * 58), _TAGS + '"' + "x" * 58 + '" (text)'),
        (_with(tags="x" * 59), _TAGS + '"' + "x" * 56 + "... (text)"),
        (_with(tags=3), _TAGS + "3 (a number)"),
        (_with(rules=3), "rules must be an object, not 3 (a number)"),
        (_with(rules=_rules(name=3)), "rules name must be text, not 3 (a number)"),
        (_with(rules=_rules(players="a")), 'rules players must be a list, not "a" (text)'),
        (_with(rules=_rules(card_values=1)), "unknown field 'card_values' in rules"),
        (_with(scores="a"), 'scores must be a list of 2 or 3 whole numbers, not "a" (text)'),
        (_with(players=True), "players must be a whole number, not true (a boolean)"),
        (_with(dealer=2.0), "dealer must be a whole number, not 2.0 (a number)"),
    ],
)
def test_a_bad_records_message_names_the_field_the_value_and_its_kind(
    text: str, message: str
) -> None:
    with pytest.raises(RecordError) as caught:
        Record.from_json(text)
    assert str(caught.value) == message


def test_a_record_is_read_from_text() -> None:
    with pytest.raises(RecordError) as caught:
        Record.from_json(3)  # type: ignore[arg-type]
    assert str(caught.value) == "a record is read from JSON text, not 3 (a number)"


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ({"": "x"}, "a tag name must be non-empty text, not ''"),
        ({"a": 3}, "tag 'a' must be text, not 3"),
        (3, "tags must map names to text, not 3"),
        (
            {"\ud800": "x"},
            "a tag name holds '\\ud800' at 0, which UTF-8 cannot write (a lone surrogate)",
        ),
        (
            {"a": "\ud800"},
            "tag 'a' holds '\\ud800' at 0, which UTF-8 cannot write (a lone surrogate)",
        ),
    ],
)
def test_a_bad_tag_is_named(tags: Any, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        Record(players=2, tags=tags)
    assert str(caught.value) == message


def test_a_record_starts_at_a_matchs_start_and_says_where_it_was_given() -> None:
    cut = apply(new_match(), random_shuffle(random.Random(1)))
    after_one = rollout(apply(cut, Cut(keep=True)), random.Random(2))
    assert len(after_one.deal_scores) == 1 and after_one.phase is Phase.SHUFFLE
    after_two = rollout(apply(after_one, random_shuffle(random.Random(3))), random.Random(4))
    starts = "a record starts at the start of a match (a state from new_match), not in phase "
    for state, where in (
        (cut, "CUT after 0 deals"),
        (after_one, "SHUFFLE after 1 deal"),
        (after_two, f"{after_two.phase.name} after 2 deals"),
    ):
        with pytest.raises(RecordError) as caught:
            Record.from_moves(state, [])
        assert str(caught.value) == starts + where
    for call, message in (
        (lambda: Record.from_moves(3, []), "a record starts from a State, not 3"),
        (lambda: Record.from_states(3), _STATES + "3"),
        (
            lambda: Record.from_states([]),
            "from_states needs a non-empty sequence of states, not []",
        ),
    ):
        with pytest.raises(RecordError) as caught:
            call()
        assert str(caught.value) == message


def test_the_json_keeps_text_as_it_is_and_the_compact_form_has_no_spaces() -> None:
    record = Record(players=2, tags={"Event": "Tunis, été"})
    compact = record.to_json(compact=True)
    assert compact.startswith('{"format":"chkobba-record","version":1,"players":2,"dealer":0,')
    assert '"tags":{"Event":"Tunis, été"}' in compact and "\n" not in compact
    assert '"tags": {"Event": "Tunis, été"}' in record.to_json()


def test_a_file_of_several_records_points_to_load_lines(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    line = Record(players=2).to_json(compact=True)
    path.write_text(f"{line}\n{line}\n", encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        Record.load(path)
    assert str(caught.value) == (
        f"{str(path)!r}: the record is not valid JSON: Extra data: line 2 column 1 "
        f"(char {len(line) + 1}) (a file of one record per line reads with Record.load_lines)"
    )


def test_a_saved_record_gets_the_usual_permissions(tmp_path: Path) -> None:
    """A new file is created with mode 0o666 less the umask, like ``open``."""
    mask = os.umask(0o022)
    try:
        path = tmp_path / "one.json"
        Record(players=2).save(path)
    finally:
        os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


_ORDER = "shuffle AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S…"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"moves": "ab"}, "moves must be a sequence of moves, not 'ab'"),
        ({"moves": [3]}, "move 1 (index 0) is not a move (Shuffle, Cut or Play): 3"),
        (
            {"moves": [Play(card("7D"), frozenset([card("7D")]))]},
            "move 1 (index 0): '7D x 7D' is not a move: 7D cannot capture itself",
        ),
        (
            {"moves": [Shuffle(DECK[:39])]},
            f"move 1 (index 0): '{_ORDER} is not a move: a shuffle orders all 40 cards, "
            "this one has 39; missing KC",
        ),
        (
            {"moves": [Shuffle((*DECK[:39], DECK[0]))]},
            f"move 1 (index 0): '{_ORDER} is not a move: a shuffle names each card once; "
            "AS comes again at 39",
        ),
        ({"scores": "a"}, "scores must be whole numbers, one per side, not 'a'"),
        ({"scores": []}, "scores must be whole numbers, one per side, not []"),
        (
            {"scores": range(20)},
            "a record cannot start this way: scores must be 2 whole numbers, not "
            "(0, 1, 2, 3, 4, 5, 6, 7, ...)",
        ),
    ],
)
def test_a_records_moves_and_scores_are_refused_by_name(fields: Any, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        Record(players=2, **fields)
    assert str(caught.value) == message


def test_a_record_holds_up_to_the_move_limit() -> None:
    cut = Cut(keep=True)
    assert len(Record(players=2, moves=[cut] * MOVE_LIMIT).moves) == MOVE_LIMIT
    with pytest.raises(RecordError) as caught:
        Record(players=2, moves=[cut] * (MOVE_LIMIT + 1))
    assert str(caught.value) == f"a record holds at most {MOVE_LIMIT} moves"


def test_a_records_tags_cannot_change() -> None:
    tags = Record(players=2, tags={"a": "b"}).tags
    with pytest.raises(TypeError) as caught:
        tags["x"] = "y"  # type: ignore[index]
    assert str(caught.value) == "a record's tags cannot change: make a new Record with other tags"


def test_files_are_read_unverified_when_asked(tmp_path: Path) -> None:
    """``verify=False`` reaches the reader: a record whose moves are not legal in turn
    loads from a file and from a file of lines, and is refused with ``verify=True``."""
    wrong = Record(players=2, moves=[Cut(keep=True)])  # a cut before any shuffle
    one, lines = tmp_path / "one.json", tmp_path / "all.jsonl"
    wrong.save(one)
    lines.write_text(wrong.to_json(compact=True) + "\n", encoding="utf-8")
    assert Record.load(one, verify=False) == wrong
    assert Record.load_lines(lines, verify=False) == (wrong,)
    for read in (lambda: Record.load(one), lambda: Record.load_lines(lines)):
        with pytest.raises(RecordError):
            read()


def test_a_saved_record_read_as_lines_points_to_load(tmp_path: Path) -> None:
    """A file written by ``save`` (several lines, a byte-order mark or not) read with
    ``load_lines`` names the fix, unless records were read before the bad line."""
    record = Record(players=2)
    hint = " (a record saved over several lines reads with Record.load)"
    for prefix in (b"", codecs.BOM_UTF8):
        path = tmp_path / "saved.json"
        path.write_bytes(prefix + record.to_json().encode("utf-8"))
        with pytest.raises(RecordError) as caught:
            Record.load_lines(path)
        assert str(caught.value).endswith(hint)
    after = tmp_path / "after.jsonl"
    after.write_text(record.to_json(compact=True) + "\n{\n", encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        Record.load_lines(after)
    assert ", line 2: " in str(caught.value) and not str(caught.value).endswith(hint)
