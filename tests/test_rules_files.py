"""A rule profile as JSON text and as a file: ``Rules.to_json``, ``Rules.from_json`` and
``Rules.save``, the writers beside ``to_dict``, ``from_dict`` and ``load`` (docs/rules.md,
"A profile is also data")."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings

from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    ChkobbaError,
    Record,
    RecordError,
    Rules,
    State,
    new_match,
)
from chkobba.cli.rules import profile_json
from tests.helpers import written_to_a_fifo
from tests.strategies import examples, rule_profiles


@settings(max_examples=examples(100), deadline=None)
@given(rule_profiles())
def test_a_profile_goes_through_json_text_unchanged(rules: Rules) -> None:
    text = rules.to_json()
    assert Rules.from_json(text) == rules
    assert json.loads(text) == rules.to_dict()
    assert text == profile_json(rules)  # what `chkobba rules` prints


def test_the_text_has_one_field_a_line() -> None:
    lines = TUNISIAN.to_json().splitlines()
    assert lines[0] == "{" and lines[-1] == "}"
    assert lines[1:-1] == [
        f"  {json.dumps(name)}: {json.dumps(value)}" + ("," if i < len(lines) - 3 else "")
        for i, (name, value) in enumerate(TUNISIAN.to_dict().items())
    ]


def test_save_writes_what_load_reads_and_the_command_prints(tmp_path: Path) -> None:
    path = tmp_path / "house.json"
    CARD_RULES_PLUS.save(path)
    assert path.read_text(encoding="utf-8") == CARD_RULES_PLUS.to_json() + "\n"
    assert Rules.load(path) == CARD_RULES_PLUS
    TUNISIAN.save(str(path))  # over the old file, by a str
    assert Rules.load(path) == TUNISIAN


def test_a_failed_save_leaves_the_old_file_and_names_the_file_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "house.json"
    CARD_RULES_PLUS.save(path)
    os.chmod(path, 0o640)

    def failing_replace(source: str, destination: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="No space left") as failed:
        TUNISIAN.save(path)
    assert failed.value.filename == str(path)  # not the temporary file's
    assert Rules.load(path) == CARD_RULES_PLUS
    assert [p.name for p in tmp_path.iterdir()] == ["house.json"]  # no temporary left
    monkeypatch.undo()
    TUNISIAN.save(path)
    assert os.stat(path).st_mode & 0o777 == 0o640  # permissions kept


def test_save_writes_into_a_pipe_instead_of_replacing_it(tmp_path: Path) -> None:
    # A FIFO of its own, not /dev/null: a mutant that took the device for a file would
    # rename a file over the machine's /dev/null (tools/mutation/README.md).
    written = written_to_a_fifo(tmp_path / "pipe", TUNISIAN.save)
    assert written == (TUNISIAN.to_json() + "\n").encode("utf-8")


@pytest.mark.parametrize("path", [3, None, b"house.json", 2.5])
def test_save_takes_only_str_or_pathlike(path: object) -> None:
    with pytest.raises(ChkobbaError, match=r"rule profile's file is named by a str or an os\."):
        TUNISIAN.save(path)  # type: ignore[arg-type]


def test_save_into_a_folder_is_an_oserror_naming_it(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError) as failed:
        TUNISIAN.save(tmp_path)
    assert failed.value.filename == str(tmp_path)
    assert failed.value.errno == errno.EISDIR


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", r"^the rule profile is not valid JSON: Expecting property name"),
        ("[" * 100_000, r"^the rule profile is not valid JSON"),
        ('{"name": "a", "name": "b"}', r"^field 'name' appears twice in one JSON object$"),
        ('{"name": "house"}', r"^rules: missing field 'capture_values'$"),
        ("[]", r"^rules must be an object, not \[\] \(a list\)$"),
        ("NaN", r"^a rule profile holds no NaN: it is not standard JSON$"),
        ('{"target": -Infinity}', r"^a rule profile holds no -Infinity: it is not standard JSON$"),
    ],
)
def test_from_json_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ChkobbaError, match=message):
        Rules.from_json(text)


_PLAYERS = (
    "players must be a tuple of the player counts a match may have, each of 2, 3 or 4 at "
    "most once, in increasing order: (2, 4), or [2, 4] in JSON; got "
)


@pytest.mark.parametrize(
    ("field", "value", "quoted"),
    [
        ("players", [], _PLAYERS + "[]"),
        ("players", [4, 2], _PLAYERS + "[4, 2]"),
        ("target", None, "target must be a positive integer, at most 10000, got null"),
        ("cut", "yes", 'cut must be true or false, got "yes"'),
        (
            "void_deal",
            False,
            'void_deal must be one of "three_of_a_rank", "three_kings", "never", got false',
        ),
    ],
)
def test_a_profile_read_from_json_quotes_the_value_as_the_json_wrote_it(
    field: str, value: object, quoted: str
) -> None:
    """The profile's checks quote what they were given (a tuple, None), but a profile's
    file, a state's profile and a record's profile quote the field as its JSON wrote it."""
    data = {**TUNISIAN.to_dict(), field: value}
    with pytest.raises(ChkobbaError) as from_file:
        Rules.from_json(json.dumps(data))
    assert str(from_file.value) == f"rules: {quoted}"
    state = json.loads(new_match().to_json())
    with pytest.raises(ChkobbaError) as from_state:
        State.from_json(json.dumps({**state, "rules": data}))
    assert str(from_state.value) == f"rules: {quoted}"
    record = json.loads(Record(players=2, moves=()).to_json())
    with pytest.raises(RecordError) as from_record:
        Record.from_json(json.dumps({**record, "rules": data}))
    assert str(from_record.value) == f"rules: {quoted}"
    # Python callers keep Python's words.
    given: dict[str, Any] = {field: tuple(value) if isinstance(value, list) else value}
    with pytest.raises(ChkobbaError) as from_python:
        attrs.evolve(TUNISIAN, **given)
    assert "got [" not in str(from_python.value) and "got null" not in str(from_python.value)


@pytest.mark.parametrize(
    ("field", "value", "from_json", "from_python"),
    [
        (
            "cut",
            "yes",
            'cut must be true or false, got "yes"',
            "cut must be True or False, got 'yes'",
        ),
        (
            "majority",
            "all",
            'majority must be one of "more_than_half", "most", got "all"',
            "majority must be one of 'more_than_half', 'most', got 'all'",
        ),
    ],
)
def test_a_profile_read_from_json_says_what_it_expects_in_json_words(
    field: str, value: str, from_json: str, from_python: str
) -> None:
    """What a field may hold is written as its JSON would write it (``true``, ``"most"``)
    when the field came from JSON, and as Python writes it when a Python caller gave it."""
    with pytest.raises(ChkobbaError) as read:
        Rules.from_json(json.dumps({**TUNISIAN.to_dict(), field: value}))
    assert str(read.value) == f"rules: {from_json}"
    with pytest.raises(ChkobbaError) as given:
        attrs.evolve(TUNISIAN, **{field: value})  # type: ignore[arg-type]
    assert str(given.value) == from_python


class _Zero:
    """An integer of another type, as numpy's are: the profile takes it as 0."""

    def __index__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "Zero()"


def test_a_field_converted_before_its_check_is_quoted_as_the_data_held_it() -> None:
    # The check quotes the converted value (got 0); the data held Zero(). (Found by the
    # mutation audit of stop 66: as_read without the converter's call left "got 0".)
    with pytest.raises(ChkobbaError) as refused:
        Rules.from_dict({**TUNISIAN.to_dict(), "target": _Zero()})
    assert str(refused.value) == (
        "rules: target must be a positive integer, at most 10000, got Zero()"
    )


def test_from_json_takes_only_text() -> None:
    with pytest.raises(ChkobbaError, match=r"^Rules\.from_json takes JSON text, not 7$"):
        Rules.from_json(7)  # type: ignore[arg-type]
    assert Rules.from_json(TUNISIAN.to_json().encode()) == TUNISIAN  # or UTF-8 bytes
