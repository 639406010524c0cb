"""The JSON Schemas of a rule profile (``rules.schema.json``, ``Rules.json_schema()``) and
of a move's outcome (``outcome.schema.json``, ``MoveOutcome.json_schema()``): what the
library writes validates, what its readers refuse the schemas refuse too where a schema
can say it, and a hand-built outcome refuses what no move does.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import (
    CARD_RULES_PLUS,
    PROFILES,
    TUNISIAN,
    ChkobbaError,
    MoveOutcome,
    Record,
    Rules,
    State,
    apply_with_outcome,
    card,
    cards,
)
from chkobba.scoring import DealScore
from tests.helpers import random_history, schema_validator, shipped_schema
from tests.strategies import examples, rule_profiles, seeds

#: Each schema by name, and the method that returns it.
SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    "rules": Rules.json_schema,
    "outcome": MoveOutcome.json_schema,
}


def valid(name: str, data: object) -> bool:
    return not list(schema_validator(name).iter_errors(data))


def as_json(data: dict[str, Any]) -> Any:
    return json.loads(json.dumps(data))


# --- the schemas themselves ---------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_each_schema_is_a_valid_schema_and_its_class_returns_a_fresh_copy(name: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    loaded = shipped_schema(name)
    jsonschema.Draft202012Validator.check_schema(loaded)
    assert loaded["$schema"] == Record.json_schema()["$schema"]
    assert loaded["$id"] == f"urn:chkobba:{name}:1"
    given_back = SCHEMAS[name]()
    assert given_back == loaded
    given_back["required"].clear()  # the caller's to keep: the next call is whole again
    assert SCHEMAS[name]() == loaded


def test_the_rules_schema_is_the_rules_object_of_the_snapshot_and_record_schemas() -> None:
    profile = shipped_schema("rules")
    inner = State.json_schema()["$defs"]["rules"]
    for key in ("type", "additionalProperties", "required", "properties"):
        assert profile[key] == inner[key]
    assert profile["required"] == list(TUNISIAN.to_dict()) == list(profile["properties"])
    assert profile["required"] == [f.name for f in attrs.fields(Rules) if f.init]
    assert profile["properties"] == Record.json_schema()["properties"]["rules"]["properties"]


def test_the_outcome_schema_lists_every_field_written_and_shares_the_snapshot_definitions() -> None:
    outcome = shipped_schema("outcome")
    written = MoveOutcome("play", player=0, card=card("7D")).to_dict()
    assert outcome["required"] == list(written) == list(outcome["properties"])
    assert outcome["additionalProperties"] is False
    assert outcome["$defs"] == {
        name: State.json_schema()["$defs"][name] for name in ("card", "deal_score")
    }
    assert outcome["properties"]["kind"]["enum"] == ["shuffle", "cut", "play"]


# --- what the library writes validates -------------------------------------------------------


@settings(max_examples=examples(50))
@given(rule_profiles())
def test_every_profile_validates_as_data_and_as_the_text_of_its_file(rules: Rules) -> None:
    assert valid("rules", as_json(rules.to_dict()))
    assert valid("rules", json.loads(rules.to_json()))


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_the_named_profiles_validate(name: str) -> None:
    assert valid("rules", as_json(PROFILES[name].to_dict()))


@settings(max_examples=examples(6))
@given(
    rules=st.one_of(st.sampled_from((TUNISIAN, CARD_RULES_PLUS)), rule_profiles()),
    seed=seeds(),
    choice=st.integers(0, 2),
)
def test_every_outcome_of_random_matches_validates(rules: Rules, seed: int, choice: int) -> None:
    players = rules.players[choice % len(rules.players)]
    states, moves = random_history(seed, players, rules=rules, max_moves=400)
    for before, move in zip(states, moves, strict=False):
        _, what = apply_with_outcome(before, move)
        assert valid("outcome", as_json(what.to_dict())), what


# --- what the schemas refuse, the readers refuse --------------------------------------------

_SCORE = DealScore(0, 0, None, 0, (1, 0), (4, 0), (22, 18), (6, 4), (3, 1), (2, 2))
_BASES = {
    "shuffle": MoveOutcome("shuffle").to_dict(),
    "cut": MoveOutcome(
        "cut", player=1, keep=False, exposed=card("2D"), dealt_table=cards("2D 6S AS AC")
    ).to_dict(),
    "play": MoveOutcome("play", player=1, card=card("QH"), captured=cards("2D 6S")).to_dict(),
    "last": MoveOutcome(
        "play",
        player=0,
        card=card("7D"),
        leftovers=cards("3C 7D"),
        leftovers_side=1,
        deal_score=_SCORE,
        winner=0,
    ).to_dict(),
}

# (base, changes): each makes an outcome that no move has.
BAD_OUTCOMES: list[tuple[str, dict[str, Any]]] = [
    # the document
    ("play", {"format": "chkobba-state"}),
    ("play", {"version": 2}),
    ("play", {"kind": "deal"}),
    ("play", {"after": {}}),
    # a field's own value
    ("play", {"player": 4}),
    ("play", {"player": "1"}),
    ("play", {"card": "10D"}),
    ("play", {"captured": ["2D", "2D"]}),
    ("last", {"leftovers_side": 3}),
    ("last", {"winner": 3}),
    ("last", {"deal_score": {**_BASES["last"]["deal_score"], "points": [1, "2"]}}),
    # a shuffle shows no play and no cutter
    ("shuffle", {"player": 0}),
    ("shuffle", {"captured": ["2D"]}),
    ("shuffle", {"keep": True}),
    # a cut has its cutter, decision and table, and nothing of a play
    ("cut", {"player": None}),
    ("cut", {"keep": None, "exposed": None}),
    ("cut", {"dealt_table": [], "exposed": None, "keep": True}),
    ("cut", {"card": "7D"}),
    ("cut", {"refilled": True}),
    # a play has its player and card, and nothing of a cut
    ("play", {"card": None}),
    ("play", {"player": None}),
    ("play", {"keep": True}),
    ("play", {"dealt_table": ["2D"]}),
    ("play", {"void": True}),
    # exposed exactly when a cut exposed its card
    ("cut", {"exposed": None}),
    ("cut", {"keep": True}),
    # what a flag needs
    ("shuffle", {"void": True}),
    ("play", {"chkobba": True, "captured": []}),
    ("last", {"chkobba": True, "captured": ["2C"]}),
    ("play", {"leftovers": ["3C"]}),
    ("play", {"leftovers_side": 0}),
    ("play", {"winner": 0}),
    ("last", {"refilled": True}),
    ("last", {"leftovers": []}),
]


@pytest.mark.parametrize(("base", "changes"), BAD_OUTCOMES)
def test_the_outcome_schema_and_reader_refuse_what_no_move_has(
    base: str, changes: dict[str, Any]
) -> None:
    good = as_json(_BASES[base])
    assert valid("outcome", good)
    assert MoveOutcome.from_dict(good).to_dict() == good
    bad = {**copy.deepcopy(good), **changes}
    assert not valid("outcome", bad)
    with pytest.raises(ChkobbaError):
        MoveOutcome.from_dict(bad)


def _card_texts(max_size: int) -> st.SearchStrategy[list[str]]:
    texts = ["2D", "6S", "AS", "AC", "3C", "7D", "QH"]
    return st.lists(st.sampled_from(texts), max_size=max_size, unique=True)


@st.composite
def _near(
    draw: st.DrawFn, bases: list[dict[str, Any]], values: dict[str, st.SearchStrategy[Any]]
) -> dict[str, Any]:
    """A document of ``bases`` with up to two fields drawn anew from ``values``: about a
    quarter are still documents the reader accepts, the rest differ from one in a field
    or two (the cases where a schema and a reader may disagree)."""
    data: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(bases)))
    for name in draw(st.lists(st.sampled_from(sorted(values)), max_size=2, unique=True)):
        data[name] = draw(values[name])
    return data


_SCORE_DATA = as_json(_BASES["last"]["deal_score"])
_OUTCOME_BASES = [
    as_json(data)
    for data in (
        *_BASES.values(),
        MoveOutcome("shuffle", dealt_table=cards("KS KH KD 3S"), void=True).to_dict(),
        MoveOutcome(
            "cut", player=0, keep=True, dealt_table=cards("AS AH AD 3S"), void=True
        ).to_dict(),
        MoveOutcome("play", player=3, card=card("5S"), refilled=True).to_dict(),
        MoveOutcome(
            "play", player=2, card=card("KD"), captured=cards("AH JD"), chkobba=True
        ).to_dict(),
        MoveOutcome(
            "play", player=1, card=card("AD"), captured=cards("AC"), deal_score=_SCORE
        ).to_dict(),
        MoveOutcome(
            "play", player=2, card=card("AD"), leftovers=cards("AD 5S"), deal_score=_SCORE
        ).to_dict(),
    )
]
#: Values of each field, those the format has and some it has not. Cards are canonical
#: text: the reader forgives lower case and spaces, the schema does not.
_OUTCOME_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "kind": st.sampled_from(["shuffle", "cut", "play", "deal"]),
    "player": st.one_of(st.none(), st.integers(-1, 4)),
    "keep": st.sampled_from([None, True, False, 0]),
    "exposed": st.one_of(st.none(), st.sampled_from(["2D", "AS", "7D"])),
    "dealt_table": _card_texts(4),
    "void": st.sampled_from([True, False, None]),
    "card": st.one_of(st.none(), st.sampled_from(["AS", "7D", "10D"])),
    "captured": _card_texts(2),
    "chkobba": st.booleans(),
    "refilled": st.booleans(),
    "leftovers": _card_texts(2),
    "leftovers_side": st.one_of(st.none(), st.integers(0, 3)),
    "deal_score": st.sampled_from([None, _SCORE_DATA, {}]),
    "winner": st.one_of(st.none(), st.integers(0, 3)),
}


@settings(max_examples=examples(400))
@given(_near(_OUTCOME_BASES, _OUTCOME_VALUES))
def test_the_outcome_schema_accepts_every_outcome_the_reader_accepts(data: dict[str, Any]) -> None:
    try:
        MoveOutcome.from_dict(data)
    except ChkobbaError:
        return  # (a schema cannot see every tie between fields: it may accept it)
    assert valid("outcome", data)


_RULES_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "name": st.sampled_from(["house", " ", "", "a" * 61, "x\ty", 7]),
    "capture_values": st.sampled_from(
        [list(TUNISIAN.capture_values), [1] * 10, [0] * 10, [1] * 9, [1001] * 10, "1-10"]
    ),
    "target": st.sampled_from([1, 21, 10_000, 0, 10_001, True, "21"]),
    "players": st.sampled_from([[2, 4], [3], [2, 3, 4], [4, 2], [2, 2], [], [5], 2]),
    "cut": st.sampled_from([True, False, 1]),
    "void_deal": st.sampled_from(["three_of_a_rank", "three_kings", "never", "all"]),
    "equal_single_first": st.sampled_from([True, False, None]),
    "majority": st.sampled_from(["more_than_half", "most", "half"]),
    "primiera": st.sampled_from([True, False, "yes"]),
}
_RULES_BASES = [as_json(PROFILES[name].to_dict()) for name in sorted(PROFILES)]


@settings(max_examples=examples(300))
@given(_near(_RULES_BASES, _RULES_VALUES))
def test_the_rules_schema_and_reader_agree_on_every_profile(data: dict[str, Any]) -> None:
    try:
        Rules.from_dict(data)
        accepted = True
    except ChkobbaError:
        accepted = False
    # Both ways, for every value drawn: the reader's str.isprintable is stricter than the
    # schema's pattern only for names beyond these, and 21.0 is the test below.
    assert valid("rules", data) == accepted


def test_a_whole_number_written_with_a_fraction_validates_and_the_readers_refuse_it() -> None:
    # JSON Schema's integer is any number without a fractional part, 21.0 included; the
    # readers take a count only as an integer, as the record's reader always has.
    profile = {**as_json(TUNISIAN.to_dict()), "target": 21.0}
    assert valid("rules", profile)
    with pytest.raises(ChkobbaError, match="target must be a positive integer"):
        Rules.from_dict(profile)
    outcome = {**as_json(_BASES["play"]), "player": 1.0}
    assert valid("outcome", outcome)
    with pytest.raises(ChkobbaError, match="player must be"):
        MoveOutcome.from_dict(outcome)


def test_a_profile_file_missing_a_field_or_with_another_is_refused_by_both() -> None:
    good = as_json(TUNISIAN.to_dict())
    missing = {k: v for k, v in good.items() if k != "primiera"}
    extra = {**good, "$schema": "urn:chkobba:rules:1"}
    for bad in (missing, extra):
        assert not valid("rules", bad)
        with pytest.raises(ChkobbaError):
            Rules.from_dict(bad)


# --- a hand-built outcome refuses what no move does ----------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"leftovers": cards("3C"), "leftovers_side": 1},
            "MoveOutcome: leftovers is set without deal_score",
        ),
        (
            {"refilled": True, "deal_score": _SCORE},
            "MoveOutcome: refilled is set with deal_score: a deal's last play deals no hands",
        ),
        (
            {"captured": cards("7D 2C")},
            "MoveOutcome: 7D is the card played and among captured",
        ),
        (
            {"captured": cards("2C 3C"), "leftovers": cards("AS 3C 2C"), "deal_score": _SCORE},
            "MoveOutcome: 2C is among captured and leftovers",
        ),
        (
            {"leftovers": cards("3C"), "leftovers_side": 3, "deal_score": _SCORE},
            "MoveOutcome: leftovers_side must be a whole number from 0 to 2 or None, not 3",
        ),
        (
            {"leftovers": cards("3C"), "leftovers_side": 2, "deal_score": _SCORE},
            "MoveOutcome: leftovers_side 2 is not a side from 0 to 1",
        ),
        (
            {
                "captured": cards("2C"),
                "chkobba": True,
                "leftovers": cards("3C"),
                "deal_score": _SCORE,
            },
            "MoveOutcome: chkobba is set with leftovers: a sweep leaves none",
        ),
        (
            {"leftovers": cards("3C"), "leftovers_side": 1, "deal_score": _SCORE},
            "MoveOutcome: 7D, laid by the deal's last play, must be among leftovers",
        ),
        (
            {"deal_score": _SCORE},
            "MoveOutcome: 7D, laid by the deal's last play, must be among leftovers",
        ),
        (
            {
                "captured": cards("2C"),
                "leftovers": cards("3C 7D"),
                "leftovers_side": 0,
                "deal_score": _SCORE,
            },
            "MoveOutcome: 7D captured, so it cannot be among leftovers",
        ),
        (
            {
                "captured": cards("2C"),
                "leftovers": cards("3C"),
                "leftovers_side": 1,
                "deal_score": _SCORE,
            },
            "MoveOutcome: leftovers_side must be 0, the side of player 0, who captured last, not 1",
        ),
        (
            {"captured": cards("2C"), "leftovers": cards("3C"), "deal_score": _SCORE},
            "MoveOutcome: leftovers_side must be 0, the side of player 0, who captured last, "
            "not None",
        ),
        (
            {"deal_score": _SCORE, "winner": 3},
            "MoveOutcome: winner must be a whole number from 0 to 2 or None, not 3",
        ),
        (
            {"deal_score": _SCORE, "winner": 2},
            "MoveOutcome: winner 2 is not a side from 0 to 1",
        ),
    ],
)
def test_a_hand_built_play_refuses_what_no_play_does(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ChkobbaError) as error:
        MoveOutcome("play", player=0, card=card("7D"), **fields)
    assert str(error.value) == message
    data = {**MoveOutcome("play", player=0, card=card("7D")).to_dict(), **_plain(fields)}
    with pytest.raises(ChkobbaError) as read:
        MoveOutcome.from_dict(data)
    assert str(read.value) == "outcome: " + message


def _plain(fields: dict[str, Any]) -> dict[str, Any]:
    """Hand-built fields as an outcome's data holds them."""
    plain: dict[str, Any] = {}
    for name, value in fields.items():
        if isinstance(value, DealScore):
            value = as_json(
                MoveOutcome(
                    "play", player=0, card=card("AS"), captured=cards("2S"), deal_score=value
                ).to_dict()
            )["deal_score"]
        elif isinstance(value, (tuple, frozenset)):
            value = [str(c) for c in value]
        plain[name] = value
    return plain


def test_a_last_play_scored_for_three_sides_is_by_one_of_three_players() -> None:
    three = DealScore(
        0, 0, None, 0, (0, 0, 0), (3, 0, 0), (22, 10, 8), (6, 2, 2), (2, 1, 1), (2, 1, 1)
    )
    fields: dict[str, Any] = {"card": card("7D"), "captured": cards("2C"), "deal_score": three}
    assert MoveOutcome("play", player=2, **fields).deal_score == three
    message = "MoveOutcome: player 3 is not a player from 0 to 2"
    with pytest.raises(ChkobbaError) as error:
        MoveOutcome("play", player=3, **fields)
    assert str(error.value) == message
    data = {**MoveOutcome("play", player=2, **fields).to_dict(), "player": 3}
    with pytest.raises(ChkobbaError) as read:
        MoveOutcome.from_dict(data)
    assert str(read.value) == "outcome: " + message
