"""Tests for the gaps a mutmut audit of ``records.py`` found (the audit of 2026-12-04).

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to the library that the rest of the suite let through (tools/mutation/README.md).
Most pin the full text of a refusal: a bad record's message names the field, the value
(as JSON, cut at 60 characters) and its kind.
"""

from __future__ import annotations

import codecs
import io
import itertools
import json
import os
import random
import stat
from pathlib import Path
from typing import Any

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
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
    records,
    rollout,
)
from chkobba.records import MOVE_LIMIT, read_record_lines

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
            "AS comes again as card 40 (index 39)",
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


# The second pass of the audit: the survivors left after the first.

_CUT_FIRST = Record(players=2, moves=[Cut(keep=True)])  # a cut before any shuffle: illegal
_LEADS = "no legal move leads from state 1 (index 0) to state 2 (index 1)"


def _states_message(states: Any) -> str:
    with pytest.raises(RecordError) as caught:
        Record.from_states(states)
    return str(caught.value)


def test_from_states_says_which_state_is_wrong_and_why() -> None:
    start = new_match(rules=CARD_RULES_PLUS)  # no cut: the deal is read from the hands
    dealt = apply(start, random_shuffle(random.Random(1)))
    broken = ": state 2 (index 1) is broken: inconsistent state: "
    assert _states_message("ab") == _STATES + "'ab'"
    assert _states_message(s for s in [start]).startswith(_STATES + "<generator object")
    assert _states_message([start, "st"]) == "state 2 (index 1) is not a State: 'st' (str)"
    assert _states_message([attrs.evolve(start, dealer=5)]) == (
        "state 1 (index 0): inconsistent state: dealer 5 is not a player from 0 to 1"
    )
    assert _states_message([new_match(), new_match()]) == _LEADS
    assert _states_message([start, attrs.evolve(dealt, hands=None)]) == (
        _LEADS + broken + "hands must be a tuple of card tuples, not None"
    )
    # Reading the deal from these hands fails before any move is tried.
    assert _states_message([start, attrs.evolve(dealt, hands=((), ()))]) == (
        _LEADS + broken + "AH is nowhere (6 of the 40 cards missing)"
    )


def test_from_states_never_fails_on_a_state_too_broken_to_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = new_match()

    def check(state: Any) -> Any:
        if state is not start:
            raise RuntimeError("a check that fails")
        return state

    monkeypatch.setattr(records, "check_state", check)
    odd = attrs.evolve(start, dealer=1)
    assert _states_message([start, odd]) == (
        _LEADS + ": state 2 (index 1) is broken (see check_state)"
    )


def test_a_move_that_would_not_read_back_is_refused_even_if_the_notation_read_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The last guard of ``_to_moves``: the notation refuses every such move today."""
    monkeypatch.setattr(records, "parse_move", lambda text: None)
    with pytest.raises(RecordError) as caught:
        Record(players=2, moves=[Play(card("7D"), frozenset([card("7D")]))])
    assert str(caught.value) == "move 1 (index 0): '7D x 7D' does not read back"


def test_a_record_refuses_rules_that_are_not_a_profile_and_endless_scores() -> None:
    with pytest.raises(RecordError) as caught:
        Record(players=2, rules="x")  # type: ignore[arg-type]
    assert str(caught.value) == "rules must be a Rules profile, not 'x'"
    with pytest.raises(RecordError, match="scores must be 2 whole numbers"):
        Record(players=2, scores=itertools.count())  # type: ignore[arg-type]


def test_records_that_differ_in_their_tags_hash_apart() -> None:
    hashes = {hash(Record(players=2, tags={"round": str(i)})) for i in range(20)}
    assert len(hashes) > 1


def test_every_reader_verifies_by_default(tmp_path: Path) -> None:
    data = _CUT_FIRST.to_dict()
    line = _CUT_FIRST.to_json(compact=True).encode("utf-8") + b"\n"
    assert Record.from_dict(data, verify=False) == _CUT_FIRST
    with pytest.raises(RecordError, match=r"^move 1 \(index 0\) \('keep'\) is not legal"):
        Record.from_dict(data)
    assert list(read_record_lines(io.BytesIO(line), "f", verify=False)) == [_CUT_FIRST]
    with pytest.raises(RecordError, match=r"^f, line 1: move 1 \(index 0\)"):
        list(read_record_lines(io.BytesIO(line), "f"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": NaN}', "a record holds no NaN: it is not standard JSON"),
        ('{"format": 1, "format": 1}', "field 'format' appears twice in one JSON object"),
    ],
)
def test_json_that_is_not_standard_is_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        Record.from_json(text)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**_BASE, "extra": 1}, "unknown field 'extra' (a record has " + ", ".join(_BASE) + ")"),
        ({k: v for k, v in _BASE.items() if k != "moves"}, "missing field 'moves'"),
        ({"format": ("a",)}, 'format must be "chkobba-record": it is ["a"] (tuple)'),
        ({"format": {1, 2}}, 'format must be "chkobba-record": it is {1, 2} (set)'),
    ],
)
def test_a_records_data_is_refused_by_name(data: dict[str, Any], message: str) -> None:
    """Data from Python, not from JSON, may hold a tuple or a set: named by its type."""
    with pytest.raises(RecordError) as caught:
        Record.from_dict(data)
    assert str(caught.value) == message


def test_a_long_file_name_is_cut_in_messages(tmp_path: Path) -> None:
    folder = tmp_path / ("d" * 120) / ("e" * 120)
    folder.mkdir(parents=True)
    empty, lines = folder / "empty.json", folder / "bad.jsonl"
    empty.write_bytes(b"")
    lines.write_bytes(b"[]\n")
    name = repr(str(empty))[:199] + "…"
    with pytest.raises(RecordError) as caught:
        Record.load(empty)
    assert str(caught.value) == f"{name}: the file is empty, not a record"
    with pytest.raises(RecordError) as caught:
        Record.load_lines(lines)
    assert str(caught.value) == (
        f"{repr(str(lines))[:199]}…, line 1: a record is a JSON object, not [] (a list)"
    )


def test_a_file_that_is_not_json_gets_no_hint(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("x", encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        Record.load(path)
    assert str(caught.value) == (
        f"{str(path)!r}: the record is not valid JSON: Expecting value: line 1 column 1 (char 0)"
    )


def test_files_and_lines_up_to_the_size_limit_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the limit a file (and a line) loads; one byte more is refused. The limit is
    lowered for the test: the real one is 256 MiB."""
    record = Record(players=2)
    text = record.to_json(compact=True).encode("utf-8") + b"\n"
    path, lines = tmp_path / "one.json", tmp_path / "all.jsonl"
    path.write_bytes(text)
    lines.write_bytes(text)
    monkeypatch.setattr(records, "FILE_LIMIT", len(text))
    assert Record.load(path) == record
    assert Record.load_lines(lines) == (record,)
    monkeypatch.setattr(records, "FILE_LIMIT", len(text) - 1)
    with pytest.raises(RecordError) as caught:
        Record.load(path)
    assert str(caught.value) == (
        f"{str(path)!r}: the file is larger than 0 MiB, more than any record "
        "(a file of one record per line reads with Record.load_lines)"
    )
    with pytest.raises(RecordError) as caught:
        Record.load_lines(lines)
    assert str(caught.value) == (
        f"{str(lines)!r}, line 1: the line is longer than 0 MiB, more than any record"
    )


def test_a_record_read_from_json_holds_up_to_the_move_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(records, "MOVE_LIMIT", 2)
    assert len(Record.from_json(_with(moves=["keep"] * 2), verify=False).moves) == 2
    with pytest.raises(RecordError) as caught:
        Record.from_json(_with(moves=["keep"] * 3), verify=False)
    assert str(caught.value) == "a record holds at most 2 moves, not 3"


def test_save_writes_beside_the_file_even_under_a_long_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The temporary file is in the target's folder (so os.replace never crosses file
    systems) and its name fits wherever the target's does: a name of 255 bytes, the
    most a file system allows, saves."""
    replaced: list[tuple[str, str]] = []
    real_replace = os.replace

    def replace(source: Any, target: Any) -> None:
        replaced.append((os.fspath(source), os.fspath(target)))
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.chdir(tmp_path.parent)
    record = Record(players=2)
    for name in ("r" * 250 + ".json", "é" * 122 + ".json"):
        path = tmp_path / name
        record.save(path)
        assert Record.load(path) == record
    assert [os.path.dirname(source) for source, _ in replaced] == [str(tmp_path)] * 2
    assert [os.path.basename(source)[:5] for source, _ in replaced] == [".rrrr", ".éééé"]
    assert sorted(os.listdir(tmp_path)) == sorted(["r" * 250 + ".json", "é" * 122 + ".json"])


def test_a_failed_save_raises_its_own_error_even_if_the_cleanup_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*args: Any) -> None:
        raise OSError("the disk is full")

    def cannot_remove(*args: Any) -> None:
        raise PermissionError("no")

    monkeypatch.setattr(os, "replace", fail)
    monkeypatch.setattr(os, "remove", cannot_remove)
    with pytest.raises(OSError, match=r"^the disk is full$"):
        Record(players=2).save(tmp_path / "one.json")
