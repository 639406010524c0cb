"""The JSON Schemas of the state and view formats (chkobba-state, chkobba-view) and their
field tables in docs/snapshots.md: what the library writes validates, hand-made bad
documents do not, and the tables list exactly the schemas' fields."""

from __future__ import annotations

import copy
import functools
import json
import random
import re
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    ChkobbaError,
    Cut,
    Phase,
    PlayerView,
    Record,
    Rules,
    State,
    apply,
    legal_moves,
    new_match,
    observe,
    public_view,
    random_shuffle,
)
from chkobba.scoring import DealScore
from tests.helpers import random_history, schema_validator, shipped_schema
from tests.strategies import examples, profile_states, seeds

SNAPSHOTS_MD = Path(__file__).resolve().parent.parent / "docs" / "snapshots.md"
KINDS = ("state", "view", "public_view")


def errors(kind: str, data: object) -> list[Any]:
    return list(schema_validator(kind).iter_errors(data))


def _inlined(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            return _inlined(defs[node["$ref"].removeprefix("#/$defs/")], defs)
        return {k: _inlined(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inlined(v, defs) for v in node]
    return node


@functools.cache
def fast_validator(kind: str) -> Any:
    """The same schema with its references written out: jsonschema resolves a reference
    at every use, so this validates the thousands of documents of whole matches about 2.5
    times faster. The bad documents below check that it judges like the shipped one."""
    jsonschema = pytest.importorskip("jsonschema")
    loaded = shipped_schema(kind)
    return jsonschema.Draft202012Validator(_inlined(loaded, loaded["$defs"]))


def as_json(data: dict[str, Any]) -> Any:
    return json.loads(json.dumps(data))


def assert_valid(state: State) -> None:
    """The state and the view of every seat validate, as JSON text would carry them."""
    assert list(fast_validator("state").iter_errors(as_json(state.to_dict()))) == []
    for player in range(state.players):
        view = as_json(observe(state, player).to_dict())
        assert list(fast_validator("view").iter_errors(view)) == []
    watched = as_json(public_view(state).to_dict())
    assert list(fast_validator("public_view").iter_errors(watched)) == []


def a_state() -> State:
    """A 4-player state in mid-deal (both piles, a chkobba, a last capturer)."""
    states, _ = random_history(2, 4, max_moves=12)
    return states[-1]


# --- the schemas themselves ---------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_the_shipped_schemas_are_valid_json_schemas(kind: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    loaded = shipped_schema(kind)
    jsonschema.Draft202012Validator.check_schema(loaded)
    assert loaded["$schema"] == Record.json_schema()["$schema"]
    assert loaded["properties"]["format"]["const"] == f"chkobba-{kind.replace('_', '-')}"
    assert loaded["properties"]["version"]["const"] == 1
    state = a_state()
    written = {
        "state": state.to_dict(),
        "view": observe(state, 1).to_dict(),
        "public_view": public_view(state).to_dict(),
    }[kind]
    # Every field the library writes is required, in the order it writes them.
    assert loaded["required"] == list(written) == list(loaded["properties"])


def _objects(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        found = [node] if "properties" in node else []
        return found + [o for v in node.values() for o in _objects(v)]
    if isinstance(node, list):
        return [o for v in node for o in _objects(v)]
    return []


@pytest.mark.parametrize("kind", KINDS)
def test_every_object_of_the_formats_is_closed_and_complete(kind: str) -> None:
    objects = _objects(shipped_schema(kind))
    assert len(objects) == 3  # the document, the rules and a deal score
    for node in objects:
        assert node["additionalProperties"] is False
        assert node["required"] == list(node["properties"])


def test_the_two_schemas_share_their_common_fields_and_definitions() -> None:
    state, view = shipped_schema("state"), shipped_schema("view")
    assert state["$defs"] == view["$defs"]
    common = set(state["properties"]) & set(view["properties"]) - {"format"}
    assert common == set(state["properties"]) - {"format", "hands", "stock"}
    for name in common:
        assert state["properties"][name] == view["properties"][name], name
    # A spectator's view is a player's without the viewer's own fields.
    public = shipped_schema("public_view")
    assert public["$defs"] == view["$defs"]
    assert set(view["properties"]) - set(public["properties"]) == {"player", "hand", "cut_card"}
    for name in set(public["properties"]) - {"format"}:
        assert public["properties"][name] == view["properties"][name], name


def test_the_nested_objects_are_the_python_values_fields() -> None:
    defs = shipped_schema("state")["$defs"]
    assert defs["rules"]["required"] == [f.name for f in attrs.fields(Rules) if f.init]
    assert defs["deal_score"]["required"] == [f.name for f in attrs.fields(DealScore) if f.init]
    # The same rules object as a record's, every key required here.
    assert defs["rules"]["properties"] == Record.json_schema()["properties"]["rules"]["properties"]
    assert defs["card"]["pattern"] == "^[A2-7QJK][SHDC]$"


# --- what the library writes validates ----------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rules"),
    [(2, TUNISIAN), (4, TUNISIAN)] + [(n, CARD_RULES_PLUS) for n in (2, 3, 4)],
    ids=["2-tunisian", "4-tunisian", "2-cardrulesplus", "3-cardrulesplus", "4-cardrulesplus"],
)
@settings(max_examples=examples(3))
@given(seed=seeds(), behind=st.integers(1, 4))
def test_every_state_and_view_of_random_matches_validates(
    players: int, rules: Rules, seed: int, behind: int
) -> None:
    # Whole matches, kept short: every side starts a few points from the target.
    scores = [rules.target - behind - side % 2 for side in range(rules.sides(players))]
    states, _ = random_history(seed, players, dealer=seed % players, scores=scores, rules=rules)
    assert states[-1].phase is Phase.OVER
    for state in states:
        assert_valid(state)


@settings(max_examples=examples(30))
@given(profile_states())
def test_states_and_views_of_random_profiles_validate(state: State) -> None:
    assert_valid(state)


# --- what the schemas reject --------------------------------------------------------------


# (kind, where, change): ``where`` is a path of keys into the document, ``change`` the new
# value there, or DELETE to remove it. Each makes a document that the format forbids.
DELETE = object()
BAD: list[tuple[str, tuple[Any, ...], Any]] = [
    # a missing field
    ("state", ("stock",), DELETE),
    ("view", ("cut_card",), DELETE),
    ("state", ("rules", "primiera"), DELETE),
    ("view", ("deal_scores", 0, "primiera_sums"), DELETE),
    # an extra field
    ("state", ("stock_size",), 24),
    ("view", ("stock",), []),
    ("view", ("hands",), [[], [], [], []]),
    ("state", ("rules", "colour"), "red"),
    ("view", ("deal_scores", 0, "cards"), 0),  # a Python alias, not a field of the format
    # a wrong type
    ("state", ("players",), "4"),
    ("state", ("current_player",), "3"),
    ("view", ("scores",), "0-0"),
    ("view", ("stock_size",), 24.5),
    ("state", ("winner",), False),
    ("state", ("phase",), "PLAY"),
    ("view", ("deal_scores", 0, "points"), [1, "2"]),
    ("state", ("rules", "cut"), 1),
    # a card that is not a card's text
    ("state", ("table", 0), "10D"),
    ("state", ("stock", 0), "7"),
    ("state", ("hands", 0, 0), 7),
    ("state", ("captured", 1), ["XX"]),
    ("view", ("hand", 0), "7D "),  # the readers forgive spaces and lower case; the
    ("view", ("table", 0), "7d"),  # format does not
    ("view", ("cut_card",), "ZZ"),
    # a card and a newline: Python's re lets $ match before it, ECMA-262's does not, so
    # only the card's maxLength makes every validator refuse it
    ("view", ("hand", 0), "7D\n"),
    # out of range, or the same card twice in one place
    ("state", ("version",), 2),
    ("view", ("format",), "chkobba-state"),
    ("state", ("players",), 5),
    ("state", ("dealer",), 4),
    ("state", ("winner",), 3),
    ("state", ("scores",), [0, 0, 0, 0]),
    ("view", ("hand_sizes",), [3]),
    ("view", ("hand_sizes", 0), 4),
    ("state", ("hands", 0), ["AS", "2S", "3S", "4S"]),
    ("state", ("table",), ["7D", "7D"]),
    ("view", ("deal_scores", 0, "cards_winner"), 3),
    # one count more than there can be (each chkobba takes two cards or more)
    ("state", ("chkobbas", 0), 21),
    ("view", ("chkobbas", 1), 21),
    ("state", ("deal_scores", 0, "card_counts", 0), 41),
    ("view", ("deal_scores", 0, "diamond_counts", 1), 11),
    ("state", ("deal_scores", 0, "seven_counts", 0), 5),
    ("view", ("deal_scores", 0, "six_counts", 0), 5),
    # a profile's name must be printable with a character that is not blank, and its
    # player counts increasing (the schemas were looser than the readers)
    ("state", ("rules", "name"), " "),
    ("view", ("rules", "name"), "a\tb"),
    ("state", ("rules", "name"), "house\n"),
    ("view", ("rules", "name"), "house\u2028"),
    ("state", ("rules", "players"), [4, 2]),
    ("view", ("rules", "players"), [2, 2]),
    ("state", ("rules", "players"), []),
]


#: Card text that the readers accept (the notation forgives case and spaces).
FORGIVEN = ("7D ", "7d", "7D\n")


def _changed(data: dict[str, Any], where: tuple[Any, ...], change: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    node: Any = data
    for key in where[:-1]:
        node = node[key]
    if change is DELETE:
        del node[where[-1]]
    else:
        node[where[-1]] = change
    return data


@pytest.mark.parametrize(("kind", "where", "change"), BAD)
def test_the_schemas_reject_what_the_formats_forbid(
    kind: str, where: tuple[Any, ...], change: Any
) -> None:
    states, _ = random_history(2, 4)
    # A state in play after a deal: every field of the documents holds something.
    state = next(s for s in states if s.deal_scores and s.phase is Phase.PLAY and s.table)
    good = as_json(state.to_dict() if kind == "state" else observe(state, 1).to_dict())
    assert errors(kind, good) == []
    bad = _changed(good, where, change)
    assert errors(kind, bad) != []
    assert list(fast_validator(kind).iter_errors(bad)) != []
    if change not in FORGIVEN:
        # The readers refuse it too: the schemas accept nothing that they refuse.
        with pytest.raises(ChkobbaError):
            (State if kind == "state" else PlayerView).from_dict(bad)


# --- docs/snapshots.md --------------------------------------------------------------------


def _section(heading: str) -> str:
    text = SNAPSHOTS_MD.read_text(encoding="utf-8")
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _table(heading: str) -> list[dict[str, str]]:
    """The rows of the first table under ``heading``, by column name."""
    lines = [line for line in _section(heading).splitlines() if line.startswith("|")]
    columns = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = []
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows.append(dict(zip(columns, cells, strict=True)))
    return rows


def _json_blocks(heading: str) -> list[Any]:
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", _section(heading), re.S)]


TABLES = [
    ("Format `chkobba-state`, version 1", "state", None),
    ("Format `chkobba-view`, version 1", "view", None),
    ("Format `chkobba-public-view`, version 1", "public_view", None),
    ("Deal scores", "state", "deal_score"),
]


@pytest.mark.parametrize(("heading", "kind", "definition"), TABLES)
def test_the_field_tables_list_exactly_the_schemas_fields(
    heading: str, kind: str, definition: str | None
) -> None:
    loaded = shipped_schema(kind)
    node = loaded if definition is None else loaded["$defs"][definition]
    rows = _table(heading)
    assert [row["field"] for row in rows] == [f"`{name}`" for name in node["properties"]]
    for row in rows:
        spec = node["properties"][row["field"].strip("`")]
        types = spec.get("type", [])
        # The null column agrees with the schema, and so does the per column.
        nullable = "null" in types or {"type": "null"} in spec.get("anyOf", [])
        assert (row["null"] != "never") == nullable, row["field"]
        assert ("null" in row["JSON type"]) == nullable, row["field"]
        if row["per"] == "side":
            bound = ("minItems", "maxItems") if "array" in types else ("minimum", "maximum")
            limits = (2, 3) if "array" in types else (0, 2)
            assert (spec.get(bound[0]), spec.get(bound[1])) in (limits, (None, 3)), row
        elif row["per"] == "player":
            bound = ("minItems", "maxItems") if "array" in types else ("minimum", "maximum")
            limits = (2, 4) if "array" in types else (0, 3)
            assert (spec.get(bound[0]), spec.get(bound[1])) == limits, row
        else:
            assert row["per"] == "", row


def test_the_rules_keys_the_docs_list_are_the_schemas() -> None:
    named = re.findall(r"`(\w+)`", _section("The rules object"))
    assert [n for n in named if n != "rules"] == shipped_schema("state")["$defs"]["rules"][
        "required"
    ]


def test_the_documented_examples_validate_and_are_what_the_library_writes() -> None:
    (state_data,) = _json_blocks("Format `chkobba-state`, version 1")
    (view_data,) = _json_blocks("Format `chkobba-view`, version 1")
    assert errors("state", state_data) == []
    assert errors("view", view_data) == []
    # The recipe of docs/snapshots.md's doctests.
    rng = random.Random(2)
    state = apply(apply(new_match(4), random_shuffle(rng)), Cut(keep=True))
    for _ in range(6):
        state = apply(state, rng.choice(legal_moves(state)))
    assert state_data == as_json(state.to_dict())
    assert State.from_dict(state_data) == state
    while not (state.deal_scores and state.phase is Phase.CUT):
        move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        state = apply(state, move)
    assert view_data == as_json(observe(state, 2).to_dict())
    assert PlayerView.from_dict(view_data) == observe(state, 2)


# --- strict validators ----------------------------------------------------------------------

#: The type each keyword applies to: a strict validator (Ajv's strictTypes) refuses a
#: keyword in a subschema that does not say that type, where a lax one ignores it.
_KEYWORD_TYPES = {
    "minItems": "array",
    "maxItems": "array",
    "uniqueItems": "array",
    "items": "array",
    "minimum": "integer",
    "maximum": "integer",
    "pattern": "string",
    "maxLength": "string",
    "minLength": "string",
}


#: Subschemas that apply to the same value as their parent (so its type holds there).
_SAME_VALUE = ("not", "allOf", "anyOf", "oneOf", "if", "then", "else")


def _typeless_keywords(node: Any, where: str, known: frozenset[str] = frozenset()) -> list[str]:
    """Where a keyword sits in a subschema without the type it applies to, the types of
    the schemas around it that apply to the same value included (as Ajv counts them)."""
    if isinstance(node, list):
        return [
            p
            for i, item in enumerate(node)
            for p in _typeless_keywords(item, f"{where}/{i}", known)
        ]
    if not isinstance(node, dict):
        return []
    types = node.get("type", [])
    types = known | set(types if isinstance(types, list) else [types])
    if "number" in types:
        types |= {"integer"}
    found = [
        f"{where}/{keyword}"
        for keyword, needed in _KEYWORD_TYPES.items()
        if keyword in node and needed not in types
    ]
    for key, value in node.items():
        if key in _SAME_VALUE:
            found += _typeless_keywords(value, f"{where}/{key}", frozenset(types))
        elif key == "propertyNames":  # the names of an object are strings
            found += _typeless_keywords(value, f"{where}/{key}", frozenset({"string"}))
        elif key not in ("const", "enum", "default", "examples"):
            found += _typeless_keywords(value, f"{where}/{key}")
    return found


@pytest.mark.parametrize("name", ["state", "view", "record", "rules", "outcome"])
def test_every_keyword_of_a_shipped_schema_sits_beside_its_type(name: str) -> None:
    assert _typeless_keywords(shipped_schema(name), "#") == []
