"""Game records: building, replaying, the JSON format, its schema, and robustness."""

from __future__ import annotations

import copy
import functools
import json
import pickle
import random
import re
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chkobba import (
    TUNISIAN,
    Cut,
    Move,
    Play,
    Record,
    RecordError,
    Rules,
    State,
    apply,
    card,
    illegal_reason,
    legal_moves,
    new_match,
    random_shuffle,
    records,
)
from tests.helpers import random_history, whole_match
from tests.strategies import History, histories

Game = tuple[tuple[State, ...], tuple[Move, ...]]


# Played on first use, not when the module is collected: an engine that raises fails the
# tests that play, rather than the collection of every test here.
@functools.cache
def short() -> Game:
    """A shuffle, a cut and a few plays."""
    return random_history(11, max_moves=6)


@functools.cache
def match() -> Game:
    """A whole 2-player match."""
    return whole_match(12)


DELETE = object()
TUNISIAN_DATA = {"name": "tunisian", "capture_values": list(range(1, 11)), "target": 21}


def record_of(history: History) -> Record:
    return Record(
        players=history.players,
        dealer=history.dealer,
        scores=history.scores,
        moves=history.moves,
    )


def short_record() -> Record:
    return Record(players=2, moves=short()[1], tags={"event": "tests", "player0": "Amira"})


def match_record() -> Record:
    return Record(players=2, moves=match()[1])


# --- the Record value ----------------------------------------------------------------------


def test_replay_gives_the_start_and_every_state() -> None:
    states, moves = match()
    assert match_record().replay() == states
    assert len(states) == len(moves) + 1
    assert match_record().final() == states[-1]
    assert states[-1].is_over


def test_defaults_are_a_new_tunisian_match() -> None:
    record = Record(players=4)
    assert (record.dealer, record.scores, record.moves, record.rules) == (0, (0, 0), (), TUNISIAN)
    assert dict(record.tags) == {}
    assert record.replay() == (new_match(4),)


def test_records_are_frozen_hashable_values() -> None:
    a = Record(players=2, moves=list(short()[1]), tags={"b": "2", "a": "1"})
    b = Record(players=2, moves=short()[1], tags={"a": "1", "b": "2"})
    assert a == b and hash(a) == hash(b)
    assert a != attrs.evolve(a, tags={"a": "1"})
    assert isinstance(a.moves, tuple)
    assert list(a.tags) == ["a", "b"]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        a.players = 4  # type: ignore[misc]
    with pytest.raises(TypeError):
        a.tags["c"] = "3"  # type: ignore[index]
    assert "tags={'a': '1', 'b': '2'}" in repr(a)


def test_records_pickle_and_copy() -> None:
    record = short_record()
    assert pickle.loads(pickle.dumps(record)) == record
    assert copy.deepcopy(record) == record
    assert hash(pickle.loads(pickle.dumps(record))) == hash(record)


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"players": 3}, "2 or 4 players, not 3"),
        ({"players": True}, "players must be an int, not True (bool)"),
        ({"players": 2, "dealer": 2}, "dealer must be a player from 0 to 1"),
        ({"players": 2, "dealer": -1}, "dealer must be a player"),
        ({"players": 2, "scores": (21, 3)}, "already decide"),
        ({"players": 2, "scores": (1, 2, 3)}, "scores must be 2 whole numbers"),
        ({"players": 2, "scores": (True, 0)}, "scores must be 2 whole numbers"),
        ({"players": 2, "scores": "00"}, "scores must be whole numbers, one per side"),
        ({"players": 2, "moves": "keep"}, "moves must be a sequence of moves"),
        ({"players": 2, "moves": 5}, "moves must be a sequence of moves"),
        ({"players": 2, "moves": [Cut(True), "keep"]}, "move 2 (index 1) is not a move"),
        ({"players": 2, "rules": "tunisian"}, "rules must be a Rules profile"),
        ({"players": 2, "tags": [("a", "b")]}, "tags must map names to text"),
        ({"players": 2, "tags": {"": "x"}}, "a tag name must be non-empty text"),
        ({"players": 2, "tags": {"round": 3}}, "tag 'round' must be text"),
    ],
)
def test_bad_fields_raise_record_error(fields: dict[str, Any], fragment: str) -> None:
    with pytest.raises(RecordError) as raised:
        Record(**fields)
    assert fragment in str(raised.value)


def test_from_moves_takes_the_start_state_of_a_match() -> None:
    start = new_match(4, dealer=3, scores=(5, 7))
    moves = random_history(3, 4, dealer=3, scores=(5, 7), max_moves=4)[1]
    record = Record.from_moves(start, moves, tags={"event": "club night"})
    assert (record.players, record.dealer, record.scores) == (4, 3, (5, 7))
    assert record.replay()[0] == start
    assert record.tags["event"] == "club night"


def test_from_moves_refuses_a_state_that_is_not_a_match_start() -> None:
    states = short()[0]
    with pytest.raises(RecordError, match="at the start of a match"):
        Record.from_moves(states[2], ())
    with pytest.raises(RecordError, match="starts from a State"):
        Record.from_moves("start", ())  # type: ignore[arg-type]


@given(histories(max_moves=120))
def test_from_states_works_out_the_moves(history: History) -> None:
    record = Record.from_states(history.states, tags={"event": "x"})
    assert record.replay() == history.states
    # The moves are those played, except where two moves give the same state: when the
    # deal is void whether the cutter keeps or exposes, either cut is the same move.
    for before, found, played in zip(history.states[:-1], record.moves, history.moves, strict=True):
        assert found == played or apply(before, found) == apply(before, played)
    assert record.tags == {"event": "x"}


def test_from_states_refuses_states_that_do_not_follow() -> None:
    states = short()[0]
    leads = r"no legal move leads from state 2 \(index 1\) to state 3 \(index 2\)"
    with pytest.raises(RecordError, match=leads):
        Record.from_states([states[0], states[1], states[3]])
    with pytest.raises(RecordError, match=r"state 2 \(index 1\) is not a State"):
        Record.from_states([states[0], "state"])
    with pytest.raises(RecordError, match="non-empty sequence of states"):
        Record.from_states([])
    with pytest.raises(RecordError, match="at the start of a match"):
        Record.from_states(states[2:])
    assert Record.from_states(states[:1]) == Record(players=2)


@given(st.data())
def test_a_record_with_one_illegal_move_fails_at_that_index(data: st.DataObject) -> None:
    states, moves = match()
    index = data.draw(st.integers(0, len(moves) - 1))
    state = states[index]
    bad = data.draw(st.sampled_from(_illegal_moves(state)))
    broken = Record(players=2, moves=(*moves[:index], bad, *moves[index + 1 :]))
    with pytest.raises(RecordError) as raised:
        broken.replay()
    message = str(raised.value)
    assert message.startswith(f"move {index + 1} (index {index}) ({str(bad)!r}) is not legal: ")
    assert message.endswith(_reason(state, bad))


def _illegal_moves(state: Any) -> list[Move]:
    legal = set(legal_moves(state))
    candidates: list[Move] = [
        Cut(keep=True),
        Play(card("KD")),
        Play(card("AS"), frozenset([card("KC")])),
        random_shuffle(random.Random(0)),
    ]
    return [m for m in candidates if m not in legal and not (state.is_chance and _is_shuffle(m))]


def _is_shuffle(move: Move) -> bool:
    return not isinstance(move, (Cut, Play))


def _reason(state: Any, move: Move) -> str:
    reason = illegal_reason(state, move)
    assert reason is not None
    return reason


def test_moves_after_the_end_of_the_match_are_illegal() -> None:
    moves = (*match()[1], Cut(keep=True))
    last = rf"move {len(moves)} \(index {len(moves) - 1}\)"
    with pytest.raises(RecordError, match=rf"{last} \('keep'\).*phase OVER"):
        Record(players=2, moves=moves).replay()


# --- JSON round trips ----------------------------------------------------------------------


@given(histories())
def test_every_match_survives_json_and_replays_to_the_same_end(history: History) -> None:
    record = record_of(history)
    for text in (record.to_json(), record.to_json(compact=True)):
        loaded = Record.from_json(text)
        assert loaded == record
        assert loaded.replay()[-1] == history.last
    assert json.loads(record.to_json()) == record.to_dict()


def test_the_json_layout() -> None:
    text = short_record().to_json()
    lines = text.splitlines()
    assert lines[:6] == [
        "{",
        '  "format": "chkobba-record",',
        '  "version": 1,',
        '  "players": 2,',
        '  "dealer": 0,',
        '  "scores": [0, 0],',
    ]
    # One rule per line, every field of the profile.
    assert lines[6] == '  "rules": {'
    assert lines[7] == '    "name": "tunisian",'
    rules_end = lines.index("  },")
    assert len(lines[7:rules_end]) == len(Record.from_json(text).to_dict()["rules"])
    assert lines[rules_end + 1] == '  "tags": {"event": "tests", "player0": "Amira"},'
    assert lines[rules_end + 2] == '  "moves": ['
    assert lines[-2:] == ["  ]", "}"]
    assert text.endswith("}\n")
    # One move per line, in canonical notation.
    moves = lines[rules_end + 3 : -2]
    assert [json.loads(line.rstrip(",")) for line in moves] == [str(m) for m in short()[1]]


def test_an_empty_record_and_non_ascii_tags_round_trip() -> None:
    record = Record(players=4, dealer=1, tags={"site": "Sfax ♦ صفاقس"})
    assert '"moves": []' in record.to_json()
    assert "صفاقس" in record.to_json()
    assert Record.from_json(record.to_json()) == record
    assert Record.from_json(record.to_json().encode("utf-8")) == record


def test_another_rules_profile_round_trips_and_is_replayed_with() -> None:
    short = Rules(name="short", target=5)
    moves = random_history(4, max_moves=400)[1]
    start = new_match(rules=short)
    played = [start]
    for move in moves:
        if played[-1].is_over:
            break
        played.append(apply(played[-1], move))
    assert played[-1].is_over and max(played[-1].scores) < TUNISIAN.target
    record = Record.from_moves(start, moves[: len(played) - 1])
    loaded = Record.from_json(record.to_json())
    assert loaded.rules == short
    assert loaded.replay() == tuple(played)


def test_rules_and_tags_are_optional_on_input() -> None:
    data = short_record().to_dict()
    del data["rules"], data["tags"]
    record = Record.from_json(json.dumps(data))
    assert record.rules == TUNISIAN
    assert dict(record.tags) == {}


def test_moves_may_be_written_in_forgiving_notation() -> None:
    data = short_record().to_dict()
    data["moves"] = [m.lower().replace(" x ", " : ") for m in data["moves"]]
    assert Record.from_json(json.dumps(data)) == short_record()


def test_verify_false_loads_an_illegal_record_for_inspection() -> None:
    data = short_record().to_dict()
    data["moves"][3] = "KD x AS"
    text = json.dumps(data)
    with pytest.raises(RecordError, match=r"^move 4 \(index 3\) \('KD x AS'\) is not legal: "):
        Record.from_json(text)
    loaded = Record.from_json(text, verify=False)
    with pytest.raises(RecordError, match=r"^move 4 \(index 3\)"):
        loaded.replay()


def test_save_and_load(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    match_record().save(path)
    assert Record.load(path) == match_record()
    assert Record.load(str(path)) == match_record()
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert Record.load(bom) == match_record()
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe{}")
    with pytest.raises(RecordError, match="is not UTF-8 text"):
        Record.load(bad)
    # A bad byte after a byte-order mark is named by its place in the file, the mark's
    # three bytes counted.
    bad.write_bytes(b"\xef\xbb\xbf" + path.read_bytes()[:20] + b"\xe9")
    with pytest.raises(RecordError, match=r"is not UTF-8 text: byte 23 is 0xe9$"):
        Record.load(bad)
    truncated = tmp_path / "truncated.json"
    truncated.write_text(match_record().to_json()[:500], encoding="utf-8")
    with pytest.raises(RecordError, match=r"truncated\.json.*not valid JSON"):
        Record.load(truncated)


def test_a_file_read_the_wrong_way_says_which_reader_fits(tmp_path: Path) -> None:
    saved = tmp_path / "match.json"
    match_record().save(saved)  # one record over several lines
    lines = tmp_path / "games.jsonl"
    compact = match_record().to_json(compact=True)
    lines.write_text(f"{compact}\n{compact}\n", encoding="utf-8")
    assert Record.load_lines(lines) == (match_record(), match_record())
    with pytest.raises(RecordError, match=r"line 1: .*\(a record saved over .* Record\.load\)$"):
        Record.load_lines(saved)
    with pytest.raises(RecordError, match=r"\(a file of one record per line .*\.load_lines\)$"):
        Record.load(lines)
    for blank in ("", " \n\n"):
        empty = tmp_path / "empty.json"
        empty.write_text(blank, encoding="utf-8")
        with pytest.raises(RecordError, match=r"empty\.json': the file is empty, not a record$"):
            Record.load(empty)
        assert Record.load_lines(empty) == ()  # no line, no record


def test_a_file_larger_than_any_record_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(records, "FILE_LIMIT", 1024 * 1024)  # 1 MiB, not 256, to stay quick
    big = tmp_path / "big.json"
    # A good record padded past the bound: read whole, it would load.
    big.write_bytes(match_record().to_json().encode() + b" " * 1024 * 1024)
    with pytest.raises(RecordError, match=r"big\.json': the file is larger than 1 MiB, more"):
        Record.load(big)
    compact = match_record().to_json(compact=True).encode()
    lines = tmp_path / "big.jsonl"
    lines.write_bytes(compact + b"\n\n" + compact + b" " * 1024 * 1024 + b"\n")
    with pytest.raises(RecordError, match=r"big\.jsonl', line 3: the line is longer than 1 MiB"):
        Record.load_lines(lines)
    # A file of many records may be larger than the bound: only each line is bounded.
    many = tmp_path / "many.jsonl"
    count = 1024 * 1024 // len(compact) + 2
    many.write_bytes((compact + b"\n") * count)
    assert many.stat().st_size > records.FILE_LIMIT
    assert Record.load_lines(many, verify=False) == (match_record(),) * count


def test_load_lines_splits_at_newlines_only(tmp_path: Path) -> None:
    # JSON keeps a line or paragraph separator in text as it is (ensure_ascii=False):
    # a line ends at a newline, as JSON Lines says, not where str.splitlines would split.
    tagged = Record(players=2, tags={"event": "a\u2028b\x85c"})
    lines = tmp_path / "tagged.jsonl"
    lines.write_bytes(f"{tagged.to_json(compact=True)}\r\n\n{{}}".encode())
    with pytest.raises(RecordError, match=r"tagged\.jsonl', line 3: format must be"):
        Record.load_lines(lines)
    lines.write_bytes(f"\ufeff{tagged.to_json(compact=True)}\r\n\n".encode())
    assert Record.load_lines(lines) == (tagged,)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_file_is_not_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(records, "FILE_LIMIT", 1024 * 1024)
    with pytest.raises(RecordError, match=r"^'/dev/zero': the file is larger than 1 MiB"):
        Record.load("/dev/zero")
    with pytest.raises(RecordError, match=r"^'/dev/zero', line 1: the line is longer than 1 MiB"):
        Record.load_lines("/dev/zero")


def test_the_file_bound_fits_the_longest_record_written() -> None:
    # MOVE_LIMIT moves, each a shuffle (the longest move text), one per line as to_json
    # writes them: the bound leaves room to spare.
    shuffle = random_shuffle(random.Random(1))
    line = f"    {json.dumps(str(shuffle))},\n"
    assert records.MOVE_LIMIT * len(line) * 1.9 < records.FILE_LIMIT


# --- malformed input ----------------------------------------------------------------------


def corrupt(**changes: Any) -> str:
    data = short_record().to_dict()
    for name, value in changes.items():
        if value is DELETE:
            del data[name]
        else:
            data[name] = value
    return json.dumps(data)


class Corrupt:
    """:func:`corrupt` of ``changes``, written when a test asks for its :meth:`text` (a
    parameter that plays nothing while the tests are collected)."""

    def __init__(self, **changes: Any) -> None:
        self.changes = changes

    def __repr__(self) -> str:
        return f"Corrupt(**{self.changes!r})"

    def text(self) -> str:
        return corrupt(**self.changes)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("chkobba", "not valid JSON"),
        ("[]", "a record is a JSON object, not [] (a list)"),
        ("null", "a record is a JSON object, not null"),
        ('"record"', "a record is a JSON object"),
        ("[" * 100_000, "not valid JSON"),
        ('{"format": "chkobba-record", "version": NaN}', "no NaN"),
        ('{"format": "chkobba-record", "version": 1, "dealer": -Infinity}', "no -Infinity"),
        ('{"a": 1, "a": 2}', "field 'a' appears twice"),
        (Corrupt(format="pgn"), 'format must be "chkobba-record": it is "pgn" (text)'),
        (Corrupt(format=DELETE), 'format must be "chkobba-record": it is missing'),
        (Corrupt(version=2), "version 2 is not supported (newer than this library reads)"),
        (Corrupt(version=0), "version 0 is not supported: this library reads 1"),
        (Corrupt(version="1"), 'version must be the whole number 1: it is "1" (text)'),
        (Corrupt(version=True), "version must be the whole number 1: it is true (a boolean)"),
        (Corrupt(version=1.0), "version must be the whole number 1: it is 1.0 (a number)"),
        (Corrupt(version=DELETE), "version must be the whole number 1: it is missing"),
        (Corrupt(winner=0), "unknown field 'winner'"),
        (Corrupt(players=DELETE), "missing field 'players'"),
        (Corrupt(dealer=DELETE), "missing field 'dealer'"),
        (Corrupt(scores=DELETE), "missing field 'scores'"),
        (Corrupt(moves=DELETE), "missing field 'moves'"),
        (Corrupt(players=3), "2 or 4 players, not 3"),
        (Corrupt(players="2"), 'players must be a whole number, not "2" (text)'),
        (Corrupt(players=True), "players must be a whole number, not true (a boolean)"),
        (Corrupt(players=None), "players must be a whole number, not null"),
        (Corrupt(dealer=2), "dealer must be a player from 0 to 1"),
        (Corrupt(dealer=2.5), "dealer must be a whole number"),
        (Corrupt(scores=[0]), "scores must be a list of 2 or 3 whole numbers"),
        (Corrupt(scores={"0": 0}), "scores must be a list of 2 or 3 whole numbers"),
        (Corrupt(scores=[0, False]), "scores must hold whole numbers, not false (a boolean)"),
        (Corrupt(scores=[0, -1]), "scores must be 2 whole numbers >= 0"),
        (Corrupt(scores=[30, 22]), "already decide"),
        (Corrupt(rules=None), "rules must be an object, not null"),
        (Corrupt(rules={"name": "tunisian"}), "missing field 'capture_values' in rules"),
        (Corrupt(rules={**TUNISIAN_DATA, "ko": True}), "unknown field 'ko' in rules"),
        (Corrupt(rules={**TUNISIAN_DATA, "name": 5}), "rules name must be text"),
        (Corrupt(rules={**TUNISIAN_DATA, "target": 0}), "target must be a positive integer"),
        (Corrupt(rules={**TUNISIAN_DATA, "target": True}), "target must be a positive integer"),
        (Corrupt(rules={**TUNISIAN_DATA, "capture_values": [1] * 9}), "capture_values must be"),
        (Corrupt(rules={**TUNISIAN_DATA, "capture_values": "1"}), "capture_values must be a list"),
        (Corrupt(rules={**TUNISIAN_DATA, "players": [2, 5]}), "rules: players must be"),
        (Corrupt(rules={**TUNISIAN_DATA, "players": 2}), "rules players must be a list"),
        (Corrupt(rules={**TUNISIAN_DATA, "void_deal": "sometimes"}), "rules: void_deal must be"),
        (Corrupt(rules={**TUNISIAN_DATA, "majority": None}), "rules: majority must be one of"),
        (Corrupt(rules={**TUNISIAN_DATA, "cut": 1}), "rules: cut must be true or false"),
        (Corrupt(rules={**TUNISIAN_DATA, "primiera": "yes"}), "rules: primiera must be"),
        (Corrupt(rules={**TUNISIAN_DATA, "card_values": []}), "unknown field 'card_values'"),
        (Corrupt(players=3, scores=[0, 0, 0]), "2 or 4 players, not 3"),
        (Corrupt(scores=[0, 0, 0]), "scores must be 2 whole numbers"),
        (Corrupt(tags=None), "tags must be an object of texts, not null"),
        (Corrupt(tags={"round": 3}), "tag 'round' must be text"),
        (Corrupt(tags={"": "x"}), "a tag name must be non-empty text"),
        (Corrupt(moves="keep"), 'moves must be a list of move texts, not "keep" (text)'),
        (Corrupt(moves=[None]), "move 1 (index 0) must be move text, not null"),
        (Corrupt(moves=["shuffle AS"]), "move 1 (index 0): 'shuffle AS' is not a move"),
        (Corrupt(moves=["keep"]), "move 1 (index 0) ('keep') is not legal: Cut is not allowed"),
    ],
)
def test_malformed_records_raise_record_error_with_a_clear_message(
    text: str | Corrupt, fragment: str
) -> None:
    if isinstance(text, Corrupt):
        text = text.text()
    with pytest.raises(RecordError) as raised:
        Record.from_json(text)
    assert fragment in str(raised.value)


@pytest.mark.parametrize("value", [None, 5, ["{}"], {"format": "chkobba-record"}])
def test_from_json_refuses_what_is_not_text(value: object) -> None:
    with pytest.raises(RecordError, match="read from JSON text"):
        Record.from_json(value)  # type: ignore[arg-type]


def test_every_truncation_of_a_record_raises_record_error() -> None:
    text = short_record().to_json()
    body = text.rstrip()
    for end in range(len(body)):
        with pytest.raises(RecordError):
            Record.from_json(text[:end])


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=6,
)


# Deferred: the record's fields are read when the test runs, not while it is collected.
@given(st.deferred(lambda: st.sampled_from(sorted(short_record().to_dict()))), json_values)
def test_any_single_field_corruption_loads_or_raises_record_error(
    field: str, value: object
) -> None:
    try:
        record = Record.from_json(corrupt(**{field: value}))
    except RecordError:
        return
    # It was a valid value after all: the record is whole and consistent.
    assert Record.from_json(record.to_json()) == record
    record.replay()


@given(st.data())
def test_any_single_move_corruption_raises_record_error(data: st.DataObject) -> None:
    moves = [str(m) for m in short()[1]]
    index = data.draw(st.integers(0, len(moves) - 1))
    original = moves[index]
    moves[index] = data.draw(
        st.one_of(
            st.text(max_size=10),
            st.just(original[:-1]),
            st.just(original + " 7D"),
            json_values,
        ).filter(lambda v: v != original)
    )
    try:
        Record.from_json(corrupt(moves=moves))
    except RecordError as error:
        # The corrupt move, or a later one that no longer follows, is named.
        named = re.match(r"move \d+ \(index (\d+)\)", str(error))
        assert named is not None and int(named.group(1)) >= index


@given(st.one_of(st.text(), st.binary()))
def test_arbitrary_input_raises_only_record_error(text: str | bytes) -> None:
    with pytest.raises(RecordError):
        Record.from_json(text)


# --- the JSON Schema ----------------------------------------------------------------------


def test_the_shipped_schema_is_a_valid_json_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = Record.json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["format"] == {
        "description": "Always the text chkobba-record.",
        "const": "chkobba-record",
    }
    assert set(schema["properties"]) == set(short_record().to_dict())
    assert schema["required"] == ["format", "version", "players", "dealer", "scores", "moves"]


@given(histories(max_moves=60))
def test_real_records_validate_against_the_shipped_schema(history: History) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(Record.json_schema())
    data = json.loads(record_of(history).to_json())
    assert list(validator.iter_errors(data)) == []


@pytest.mark.parametrize(
    "changes",
    [
        {"version": 2},
        {"format": "pgn"},
        {"players": 5},
        {"scores": [0, 0, 0, 0]},
        {"rules": {**TUNISIAN_DATA, "void_deal": "sometimes"}},
        {"rules": {**TUNISIAN_DATA, "cut": 1}},
        {"winner": 0},
        {"scores": [0]},
        {"tags": {"round": 3}},
        {"moves": ["qh x 2d+6s"]},  # the reader accepts it, the format asks for canonical text
        {"moves": ["keep "]},
        {"rules": {"name": "tunisian"}},
        {"rules": {**TUNISIAN_DATA, "name": " "}},  # printable, not blank, as the reader
        {"rules": {**TUNISIAN_DATA, "name": "house\n"}},
        {"rules": {**TUNISIAN_DATA, "players": [4, 2]}},  # increasing, as the reader
    ],
)
def test_the_schema_rejects_what_the_format_forbids(changes: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(Record.json_schema())
    data = short_record().to_dict()
    data.update(changes)
    assert list(validator.iter_errors(data)) != []
