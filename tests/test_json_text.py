"""Every value with a JSON format reads and writes it as text too: ``to_json`` and
``from_json`` of :class:`State`, :class:`PlayerView`, :class:`MoveOutcome` and
:class:`Rules` (as :class:`Record` always has). The text round-trips, has one field a
line or, compact, one line; it is ASCII; and it is read strictly, every problem a
:class:`ChkobbaError` naming what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import (
    TUNISIAN,
    ChkobbaError,
    MoveOutcome,
    PlayerView,
    Record,
    RecordError,
    Rules,
    State,
    apply_with_outcome,
    card,
    cards,
    new_match,
    observe,
)
from tests.helpers import random_history
from tests.strategies import examples, profile_states, rule_profiles, seeds

#: Each class with a JSON format, and a value of it.
VALUES: dict[str, Callable[[], Any]] = {
    "State": lambda: new_match(rules=attrs.evolve(TUNISIAN, name="maison à 16", target=16)),
    "PlayerView": lambda: observe(new_match(players=4), 2),
    "MoveOutcome": lambda: MoveOutcome("play", player=1, card=card("QH"), captured=cards("2D 6S")),
    "Rules": lambda: attrs.evolve(TUNISIAN, name="maison à 16", target=16),
}
#: Each class, and how its messages name the document it reads.
NAMED = [
    ("State", "the state"),
    ("PlayerView", "the view"),
    ("MoveOutcome", "the outcome"),
    ("Rules", "the rule profile"),
]
CLASSES: dict[str, Any] = {
    "State": State,
    "PlayerView": PlayerView,
    "MoveOutcome": MoveOutcome,
    "Rules": Rules,
}


def _both_forms(value: Any) -> None:
    """``value``'s two texts read back to it and hold its ``to_dict()``, in their layouts."""
    kind = type(value)
    pretty, compact = value.to_json(), value.to_json(compact=True)
    assert kind.from_json(pretty) == value
    assert kind.from_json(compact) == value
    assert json.loads(pretty) == json.loads(compact) == json.loads(json.dumps(value.to_dict()))
    lines = pretty.splitlines()
    assert len(lines) == len(value.to_dict()) + 2  # the braces, and a field on each line
    assert [line[2:].partition(":")[0] for line in lines[1:-1]] == [
        json.dumps(name) for name in value.to_dict()
    ]
    assert "\n" not in compact
    assert compact == json.dumps(value.to_dict(), separators=(",", ":"))  # no spaces
    assert pretty.isascii() and compact.isascii()


# --- the texts round-trip -------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(VALUES))
def test_each_value_reads_back_from_both_its_texts(name: str) -> None:
    value = VALUES[name]()
    _both_forms(value)
    assert type(value) is CLASSES[name]


@pytest.mark.parametrize("name", sorted(VALUES))
def test_each_value_reads_back_from_utf8_bytes_with_or_without_a_byte_order_mark(
    name: str,
) -> None:
    value = VALUES[name]()
    for text in (value.to_json(), value.to_json(compact=True)):
        data = text.encode("utf-8")
        for form in (data, bytearray(data), b"\xef\xbb\xbf" + data, "\ufeff" + text):
            assert CLASSES[name].from_json(form) == value
        # What a socket's recv_into fills: a bytearray, read through a memoryview of it.
        received = bytearray(len(data) + 10)
        received[: len(data)] = data
        assert CLASSES[name].from_json(memoryview(received)[: len(data)]) == value
    # Non-ASCII text, as a hand-written file or another library may send it.
    unescaped = json.dumps(value.to_dict(), ensure_ascii=False).encode("utf-8")
    assert CLASSES[name].from_json(unescaped) == value


@pytest.mark.parametrize(("name", "what"), NAMED)
@pytest.mark.parametrize(
    ("data", "where"),
    [
        (b"\xff{}", "byte 0 is 0xff"),
        (b'{"name": "caf\xe9"}', "byte 13 is 0xe9"),
        # After a byte-order mark, still counted from the first byte (the mark's 3 too).
        (b'\xef\xbb\xbf{"name": "caf\xe9"}', "byte 16 is 0xe9"),
    ],
)
def test_bytes_that_are_not_utf8_are_refused_saying_where(
    name: str, what: str, data: bytes, where: str
) -> None:
    with pytest.raises(ChkobbaError) as error:
        CLASSES[name].from_json(data)
    assert str(error.value) == f"{what} is not UTF-8 text: {where}"


def test_a_non_ascii_name_is_written_as_an_escape_and_read_back() -> None:
    text = VALUES["Rules"]().to_json(compact=True)
    assert '"maison \\u00e0 16"' in text
    assert Rules.from_json(text).name == "maison à 16"


@settings(max_examples=examples(40))
@given(profile_states())
def test_every_state_and_each_seats_view_reads_back_from_its_text(state: State) -> None:
    _both_forms(state)
    for seat in range(state.players):
        _both_forms(observe(state, seat))


@settings(max_examples=examples(30))
@given(rule_profiles())
def test_every_profile_reads_back_from_its_text(rules: Rules) -> None:
    _both_forms(rules)


@settings(max_examples=examples(5))
@given(seeds())
def test_every_outcome_of_a_random_match_reads_back_from_its_text(seed: int) -> None:
    states, moves = random_history(seed, (2, 4)[seed % 2])
    for before, move in zip(states, moves, strict=False):
        _both_forms(apply_with_outcome(before, move)[1])


def test_the_pretty_text_is_what_to_dict_holds_one_field_a_line() -> None:
    what = VALUES["MoveOutcome"]()
    assert what.to_json().splitlines()[:4] == [
        "{",
        '  "format": "chkobba-outcome",',
        '  "version": 1,',
        '  "kind": "play",',
    ]
    assert what.to_json().endswith('\n  "winner": null\n}')


# --- the texts are read strictly ----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CLASSES))
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": 1, "a": 2}', "^field 'a' appears twice in one JSON object$"),
        ('{"a": NaN}', " holds no NaN: it is not standard JSON$"),
        ('{"a": -Infinity}', " holds no -Infinity: it is not standard JSON$"),
        ('{"format": ', " is not valid JSON: Expecting value: line 1 column 12 "),
        ("[" * 100_000 + "]" * 100_000, " is not valid JSON: "),
        ("[]", "(is|must be) (a JSON|an) object"),
    ],
)
def test_text_that_is_not_the_format_is_refused_saying_why(
    name: str, text: str, message: str
) -> None:
    with pytest.raises(ChkobbaError, match=message) as error:
        CLASSES[name].from_json(text)
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize(("name", "what"), NAMED)
def test_a_document_is_named_in_its_own_words(name: str, what: str) -> None:
    with pytest.raises(ChkobbaError, match=f"^{what} is not valid JSON: "):
        CLASSES[name].from_json("{")
    article = "an" if what == "the outcome" else "a"
    noun = what.removeprefix("the ")
    with pytest.raises(ChkobbaError, match=f"^{article} {noun} holds no NaN"):
        CLASSES[name].from_json("NaN")
    # Found by a review: past Python's int-from-text limit the message was Python's own
    # ("Exceeds the limit (4300 digits) ...; use sys.set_int_max_str_digits()").
    with pytest.raises(
        ChkobbaError, match=f"^{article} {noun} holds a number of 5,000 digits, too large to read$"
    ):
        CLASSES[name].from_json('{"version": ' + "7" * 5000 + "}")
    # Found by a fuzzing review: a number past a float's range was quoted as "Infinity".
    for number, said in (("1e309", "1e309"), ("-" + "9" * 400 + ".5", "-" + "9" * 36 + "...")):
        with pytest.raises(ChkobbaError) as error:
            CLASSES[name].from_json('{"version": ' + number + "}")
        assert str(error.value) == f"{article} {noun} holds a number too large to read: {said}"


def test_a_record_with_a_number_too_large_to_read_says_so() -> None:
    with pytest.raises(
        RecordError, match=r"^a record holds a number of 4,301 digits, too large to read$"
    ):
        Record.from_json('{"players": -' + "2" * 4301 + "}")
    assert Record.from_json(Record(players=2).to_json()) == Record(players=2)  # ints as ever


@pytest.mark.parametrize(("name", "what"), NAMED)
def test_a_memoryview_is_read_as_its_bytes_and_refused_once_released(name: str, what: str) -> None:
    with pytest.raises(ChkobbaError) as error:
        CLASSES[name].from_json(memoryview(b'{"name": "caf\xe9"}'))
    assert str(error.value) == f"{what} is not UTF-8 text: byte 13 is 0xe9"
    released = memoryview(VALUES[name]().to_json().encode())
    released.release()
    with pytest.raises(ChkobbaError) as error:
        CLASSES[name].from_json(released)
    assert str(error.value) == f"{name}.from_json cannot read a released memoryview"


def test_a_record_reads_from_every_kind_of_bytes_and_refuses_a_released_memoryview() -> None:
    record = Record(players=2, tags={"site": "Sfax ♦ صفاقس"})
    data = record.to_json().encode("utf-8")
    for form in (data, bytearray(data), memoryview(data), memoryview(b"\xef\xbb\xbf" + data)):
        assert Record.from_json(form) == record
    with pytest.raises(RecordError) as error:
        Record.from_json(memoryview(b'{"name": "caf\xe9"}'))
    assert str(error.value) == "the record is not UTF-8 text: byte 13 is 0xe9"
    released = memoryview(data)
    released.release()
    with pytest.raises(RecordError) as error:
        Record.from_json(released)
    assert str(error.value) == "a record cannot be read from a released memoryview"


@pytest.mark.parametrize("name", sorted(CLASSES))
@pytest.mark.parametrize("text", [None, {"format": "chkobba-state"}, 7, [b"{}"]])
def test_what_is_not_text_is_refused_naming_the_method(name: str, text: object) -> None:
    with pytest.raises(ChkobbaError) as error:
        CLASSES[name].from_json(text)
    assert str(error.value) == f"{name}.from_json takes JSON text, not {text!r}"


@pytest.mark.parametrize("name", sorted(VALUES))
@pytest.mark.parametrize("compact", ["yes", None, 2])
def test_compact_is_a_flag(name: str, compact: object) -> None:
    with pytest.raises(ChkobbaError, match=f"^compact must be True or False, not {compact!r}$"):
        VALUES[name]().to_json(compact=compact)
    assert VALUES[name]().to_json(compact=1) == VALUES[name]().to_json(compact=True)


def test_a_hidden_card_is_only_in_the_states_text_never_a_views() -> None:
    states, _ = random_history(3, 2, max_moves=4)
    state = states[-1]
    hidden = {str(c) for c in state.hands[0]}
    assert all(c in state.to_json() for c in hidden)
    view_text = observe(state, 1).to_json()
    assert not any(f'"{c}"' in view_text for c in hidden)


# --- any text: a value or a ChkobbaError, never another exception --------------------------


@st.composite
def _damaged_text(draw: st.DrawFn) -> tuple[str, str]:
    """A class's name and its value's text with a few characters cut out, replaced or
    added (most such texts are broken JSON, some are documents with a wrong field)."""
    name = draw(st.sampled_from(sorted(VALUES)))
    text = VALUES[name]().to_json(compact=draw(st.booleans()))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 4))
        added = draw(st.text(alphabet='{}[]",:0123456789.eE-+ tfnul\\\x00é', max_size=4))
        text = text[:at] + added + text[at + cut :]
    return name, text


@st.composite
def _damaged_bytes(draw: st.DrawFn) -> tuple[str, bytes]:
    """A damaged text in UTF-8, with a few bytes then cut out, replaced or added (so
    some are not UTF-8), or any bytes at all."""
    name, text = draw(_damaged_text())
    data = text.encode("utf-8")
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(max_size=3)) + data[at + draw(st.integers(0, 2)) :]
    return name, data


@settings(max_examples=examples(300))
@given(
    st.one_of(
        _damaged_text(),
        _damaged_bytes(),
        st.tuples(st.sampled_from(sorted(VALUES)), st.text() | st.binary()),
    )
)
def test_any_text_reads_to_a_value_or_a_chkobba_error(
    named_text: tuple[str, str | bytes],
) -> None:
    name, text = named_text
    try:
        value = CLASSES[name].from_json(text)
    except ChkobbaError:
        return
    assert type(value) is CLASSES[name]
    assert CLASSES[name].from_json(value.to_json()) == value
