"""States and player views as JSON-ready data: what a server or a web page sends.

:meth:`State.to_dict <chkobba.State.to_dict>` gives a dict of plain JSON values (cards in
their notation, ``"7D"``), with a ``format`` and a ``version``;
:meth:`State.from_dict <chkobba.State.from_dict>` reads it back, checking every field and
that the 40 cards are each in exactly one place, so what it returns is a state the
engine can play on. :meth:`PlayerView.to_dict <chkobba.PlayerView.to_dict>` is what one
seat may be sent: it never holds a card of another hand or of the stock.

docs/snapshots.md lists every field of both formats (which are per side, which per
player, when each is null). Both are described by JSON Schemas (draft 2020-12) shipped in
the package, ``chkobba/state.schema.json`` and ``chkobba/view.schema.json``; read them
with ``importlib.resources.files("chkobba").joinpath("state.schema.json")``.

>>> import json, random
>>> state = apply(new_match(), random_shuffle(random.Random(3)))
>>> data = state.to_dict()
>>> data["format"], data["version"], data["phase"], data["current_player"]
('chkobba-state', 1, 'cut', 1)
>>> State.from_dict(json.loads(json.dumps(data))) == state
True
>>> view = observe(state, 0).to_dict()
>>> view["format"], view["hand"], view["stock_size"]
('chkobba-view', [], 40)
>>> State.from_dict({**data, "table": ["7D"]})
Traceback (most recent call last):
...
chkobba.errors.ChkobbaError: state: 7D is in two places (stock and table)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from chkobba._describe import (
    first_unknown,
    json_choices,
    json_kind,
    json_shown,
    kind_against,
    twice,
)
from chkobba.cards import DECK, Card, card
from chkobba.checks import broken_state, check_state
from chkobba.errors import ChkobbaError, shown
from chkobba.rules import Rules, reading_a_document
from chkobba.scoring import DealScore
from chkobba.state import Phase, State
from chkobba.views import PlayerView, PublicView, check_public_view, check_view

__all__ = [
    "PUBLIC_VIEW_FORMAT",
    "STATE_FORMAT",
    "VERSION",
    "VIEW_FORMAT",
    "public_view_from_dict",
    "public_view_to_dict",
    "state_from_dict",
    "state_to_dict",
    "view_from_dict",
    "view_to_dict",
]

#: The ``format`` field of a state's data.
STATE_FORMAT = "chkobba-state"
#: The ``format`` field of a player view's data.
VIEW_FORMAT = "chkobba-view"
#: The ``format`` field of a public (spectator's) view's data.
PUBLIC_VIEW_FORMAT = "chkobba-public-view"
#: The version of the three formats that this library writes and reads.
VERSION = 1

# --- values: out (to JSON data) and in (from it, checked) ----------------------------
# The readers without an underscore (bad_field, cards_in, attrs_in, check_keys...) are
# shared with chkobba.events, whose outcome format reads the same kinds of values; they
# are not in __all__.

Out = Callable[[Any], Any]
In = Callable[[str, Any], Any]


def bad_field(where: str, value: object, expected: str) -> ChkobbaError:
    """The refusal of a value read from JSON, quoted as JSON: ``not null``."""
    return ChkobbaError(f"{where} must be {expected}, not {json_kind(value)}")


def _not_a(function: str, argument: str, value: object, expected: str) -> ChkobbaError:
    """The refusal of a Python argument, quoted as Python: ``not None (NoneType)``."""
    return ChkobbaError(
        f"{function}: {argument} must be {expected}, not {kind_against(value, expected)}"
    )


def _int_in(where: str, value: Any) -> int:
    if type(value) is not int:
        raise bad_field(where, value, "a whole number")
    return value


def optional_int_in(where: str, value: Any) -> int | None:
    return None if value is None else _int_in(where, value)


def _list_in(where: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise bad_field(where, value, "a list")
    return value


def _ints_in(where: str, value: Any) -> tuple[int, ...]:
    return tuple(_int_in(f"{where}[{i}]", v) for i, v in enumerate(_list_in(where, value)))


def _card_in(where: str, value: Any) -> Card:
    if not isinstance(value, str):
        raise bad_field(where, value, 'a card\'s text such as "7D"')
    try:
        return card(value)
    except ChkobbaError as error:
        raise ChkobbaError(f"{where}: {error}") from None


def optional_card_in(where: str, value: Any) -> Card | None:
    return None if value is None else _card_in(where, value)


def cards_in(where: str, value: Any) -> tuple[Card, ...]:
    return tuple(_card_in(f"{where}[{i}]", v) for i, v in enumerate(_list_in(where, value)))


def _piles_in(where: str, value: Any) -> tuple[tuple[Card, ...], ...]:
    return tuple(cards_in(f"{where}[{i}]", v) for i, v in enumerate(_list_in(where, value)))


def _phase_in(where: str, value: Any) -> Phase:
    # Only text is looked up: the enum's own error would quote any other value whole
    # (a deeply nested list overflows the stack there).
    if isinstance(value, Phase):  # (a dict built in Python may hold the member itself)
        return value
    try:
        if isinstance(value, str):
            return Phase(value)
    except ValueError:
        pass
    raise bad_field(where, value, f"one of {json_choices(p.value for p in Phase)}") from None


def _plain(value: Any) -> Any:
    """A field value as JSON data: tuples become lists, cards their text."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Card):
        return str(value)
    return value


# What attrs_in reads (a Rules, a DealScore) holds flat tuples of numbers at most. Lists
# nested deeper than this stay lists, which every field refuses: converting them level by
# level would recurse as deep as the JSON goes, a RecursionError at a few hundred levels.
_PLAIN_DEPTH = 3


def _from_plain(value: Any, depth: int = _PLAIN_DEPTH) -> Any:
    if isinstance(value, list) and depth > 0:
        return tuple(_from_plain(v, depth - 1) for v in value)
    return value


def attrs_out(value: Any) -> dict[str, Any]:
    """Every constructor field of an attrs value (a Rules, a DealScore) as JSON data."""
    return {f.name: _plain(getattr(value, f.name)) for f in attrs.fields(type(value)) if f.init}


def attrs_in(kind: type[Any]) -> In:
    """Read an attrs value field by field; its own validators check the values."""
    names = tuple(f.name for f in attrs.fields(kind) if f.init)

    def read(where: str, value: Any) -> Any:
        if not isinstance(value, dict):
            raise bad_field(where, value, "an object")
        check_keys(where, value, names)
        given = {name: _from_plain(value[name]) for name in names}
        try:
            with reading_a_document():
                return kind(**given)
        except (ChkobbaError, TypeError) as error:
            raise ChkobbaError(f"{where}: {as_read(str(error), kind, value, given)}") from None

    return read


def as_read(
    message: str, kind: type[Any], read: Mapping[str, Any], given: Mapping[str, Any]
) -> str:
    """A validator's ``message`` about a field of ``kind`` (a Rules, a DealScore) read from
    JSON, in JSON's words: the validators, shared with Python callers, quote the value
    they were given (``got ()``, ``got None``) and the values they expect as Python
    writes them (``True or False``, ``'most'``); for a field read from JSON those are
    ``got []``, ``got null``, ``true or false`` and ``"most"``. ``read`` holds the fields
    as JSON gave them, ``given`` as they were passed to ``kind``."""
    name = message.partition(" ")[0]
    field = attrs.fields_dict(kind).get(name)
    if field is None or name not in read or name not in given:
        return message
    value, convert = given[name], field.converter
    try:
        if callable(convert):  # (the profiles' converters are plain functions)
            value = convert(value)
    except Exception:  # (they convert what they can and pass on the rest)
        return message
    as_python = f"got {shown(value)}"
    if not message.endswith(as_python):
        return message
    expected = message[: -len(as_python)].replace("True or False", "true or false")
    return _QUOTED_WORD.sub(r'"\1"', expected) + f"got {json_shown(read[name])}"


#: A word the profile's checks quote as Python does, a choice such as ``'most'``.
_QUOTED_WORD = re.compile(r"'(\w+)'")


def _deal_scores_in(where: str, value: Any) -> tuple[DealScore, ...]:
    items = _list_in(where, value)
    return tuple(deal_score_in(f"{where}[{i}]", item) for i, item in enumerate(items))


_read_deal_score = attrs_in(DealScore)


def deal_score_in(where: str, value: Any) -> DealScore:
    """A deal score as :meth:`DealScore.to_dict <chkobba.DealScore.to_dict>` writes one,
    every field required: each winner a whole number or ``null``, each tally a list of
    whole numbers (whether they make a sound score is for the reader of the whole to
    check). A refusal names the field, or the list's item, as the state's fields are."""
    score: DealScore = _read_deal_score(where, value)
    for name, field in attrs_out(score).items():
        path = f"{where}.{name}"
        if name.endswith("_winner"):
            if field is not None and type(field) is not int:
                raise bad_field(path, field, "a whole number or null")
        elif not isinstance(field, list):
            raise bad_field(path, field, "a list")
        else:
            for index, item in enumerate(field):
                if type(item) is not int:
                    raise bad_field(f"{path}[{index}]", item, "a whole number")
    return score


_SHARED: dict[str, tuple[Out, In]] = {
    "rules": (attrs_out, attrs_in(Rules)),
    "phase": (lambda phase: phase.value, _phase_in),
    "players": (_plain, _int_in),
    "dealer": (_plain, _int_in),
    "current_player": (_plain, optional_int_in),
    "table": (_plain, cards_in),
    "captured": (_plain, _piles_in),
    "chkobbas": (_plain, _ints_in),
    "scores": (_plain, _ints_in),
    "last_capturer": (_plain, optional_int_in),
    "winner": (_plain, optional_int_in),
    "deal_scores": (lambda scores: [s.to_dict() for s in scores], _deal_scores_in),
}
_STATE: dict[str, tuple[Out, In]] = {
    **_SHARED,
    "hands": (_plain, _piles_in),
    "stock": (_plain, cards_in),
}
_SIZES: dict[str, tuple[Out, In]] = {
    "hand_sizes": (_plain, _ints_in),
    "stock_size": (_plain, _int_in),
}
_PUBLIC: dict[str, tuple[Out, In]] = {**_SHARED, **_SIZES}
_VIEW: dict[str, tuple[Out, In]] = {
    **_SHARED,
    "player": (_plain, _int_in),
    "hand": (_plain, cards_in),
    **_SIZES,
    "cut_card": (_plain, optional_card_in),
}


def check_keys(where: str, data: dict[str, Any], names: tuple[str, ...]) -> None:
    unknown = first_unknown(data, names)
    if unknown is not None:
        raise ChkobbaError(f"{where}: unknown field {unknown}")
    missing = [name for name in names if name not in data]
    if missing:
        raise ChkobbaError(f"{where}: missing field {shown(missing[0])}")


def _write(value: Any, form: str, codecs: dict[str, tuple[Out, In]]) -> dict[str, Any]:
    data: dict[str, Any] = {"format": form, "version": VERSION}
    data.update({name: out(getattr(value, name)) for name, (out, _) in codecs.items()})
    return data


def versioned_fields(
    data: object, form: str, names: tuple[str, ...], version: int = VERSION
) -> dict[str, Any]:
    """The fields of ``data`` once its envelope is checked: an object of format ``form``
    at this library's version, holding exactly ``names`` besides (shared with
    chkobba.events, whose outcome format has the same envelope)."""
    where = form.removeprefix("chkobba-").replace("-", " ")  # "public view"
    if not isinstance(data, dict):
        raise bad_field(where, data, "an object (what to_dict returns)")
    # Types first: a value of another type may compare in its own way (a numpy array's
    # != gives an array, whose truth is an error).
    for name in ("format", "version"):
        if name not in data:  # not "must be 1, not None": the data holds no None
            raise ChkobbaError(f"{where}: missing field {name!r}")
    found = data.get("format")
    if not isinstance(found, str) or found != form:
        raise bad_field(f"{where} format", found, json_shown(form))
    if type(data.get("version")) is not int or data.get("version") != version:
        raise bad_field(f"{where} version", data.get("version"), f"{version} (this library's)")
    fields = {k: v for k, v in data.items() if k not in ("format", "version")}
    check_keys(where, fields, names)
    return fields


def _read(data: object, form: str, codecs: dict[str, tuple[Out, In]]) -> dict[str, Any]:
    fields = versioned_fields(data, form, tuple(codecs))
    return {name: read(name, fields[name]) for name, (_, read) in codecs.items()}


# --- the public functions ---------------------------------------------------------------


def state_to_dict(state: State) -> dict[str, Any]:
    """``state`` as JSON-ready data (see :meth:`State.to_dict <chkobba.State.to_dict>`).

    Cards are written in their notation, hands and piles as lists of them. A state built
    by hand is checked first (see :func:`~chkobba.check_state`), so what is written reads
    back:

    >>> import random
    >>> from chkobba.snapshots import state_to_dict
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    >>> data = state_to_dict(state)
    >>> data == state.to_dict(), data["hands"], data["table"]
    (True, [['5D', '7D', 'QC'], ['2H', '4D', 'AC']], ['7C', 'JC', '4H', '3H'])
    """
    if not isinstance(state, State):
        raise _not_a("state_to_dict", "state", state, "a State")
    # A state built by hand can hold anything (a numpy integer, a card as text) that JSON
    # cannot write or that state_from_dict would refuse: what is written reads back.
    try:
        return _write(check_state(state), STATE_FORMAT, _STATE)
    except ChkobbaError:
        raise
    except Exception as error:  # a profile of one's own that fails, or a bug
        raise broken_state(state, error) from None


def state_from_dict(data: object) -> State:
    """The :class:`~chkobba.State` that :func:`state_to_dict` wrote, checked.

    Every problem raises :class:`~chkobba.ChkobbaError` naming the field: a wrong type, an
    unknown or missing field, text that is not a card, rules that are not a profile, or
    fields that no match can reach together (a card in two places or in none, a player
    who does not exist, someone to move in a phase where nobody moves).

    >>> from chkobba.snapshots import state_from_dict, state_to_dict
    >>> start = new_match(4, dealer=2)
    >>> state_from_dict(state_to_dict(start)) == start
    True
    >>> state_from_dict({**state_to_dict(start), "version": 2})
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: state version must be 1 (this library's), not 2 (a number)
    """
    fields = _read(data, STATE_FORMAT, _STATE)
    _check_table(fields, "state")
    _check_cards(
        "state",
        {"stock": fields["stock"], "table": fields["table"]}
        | {f"hands[{i}]": hand for i, hand in enumerate(fields["hands"])}
        | _piles_named(fields),
    )
    if len(fields["hands"]) != fields["players"]:
        raise ChkobbaError(f"state: hands must hold {fields['players']} hands, one per player")
    # A state read from data is one the engine did not make: the whole check.
    return check_state(State(**fields))


def view_to_dict(view: PlayerView) -> dict[str, Any]:
    """``view`` as JSON-ready data (see :meth:`PlayerView.to_dict
    <chkobba.PlayerView.to_dict>`).

    It holds the hand sizes and the stock size, never the hidden cards; a hand-built
    view is checked first (see :func:`~chkobba.views.check_view`):

    >>> import attrs, random
    >>> from chkobba.snapshots import view_to_dict
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    >>> data = view_to_dict(observe(state, 0))
    >>> data["hand"], data["hand_sizes"], data["stock_size"], "hands" in data, "stock" in data
    (['5D', '7D', 'QC'], [3, 3], 30, False, False)
    >>> view_to_dict(attrs.evolve(observe(state, 0), hand=cards("KH")))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: inconsistent view: hand_sizes[0] is 3, but the hand holds 1
    """
    if not isinstance(view, PlayerView):
        raise _not_a("view_to_dict", "view", view, "a PlayerView")
    # A view built by hand can hold anything; sent to a seat, it must be one observe gives.
    return _write(check_view(view), VIEW_FORMAT, _VIEW)


def view_from_dict(data: object) -> PlayerView:
    """The :class:`~chkobba.PlayerView` that :func:`view_to_dict` wrote, checked like
    :func:`state_from_dict`, as far as a view shows (see :func:`~chkobba.views.check_view`).

    What a client reads from the JSON a server sent:

    >>> import json, random
    >>> from chkobba.snapshots import view_from_dict
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    >>> data = json.loads(json.dumps(observe(state, 0).to_dict()))
    >>> view_from_dict(data) == observe(state, 0)
    True
    >>> view_from_dict({**data, "hand": ["5D", "7D", "7C"]})
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: view: 7C is in two places (hand and table)
    """
    fields = _read(data, VIEW_FORMAT, _VIEW)
    _check_table(fields, "view")
    seen = {"hand": fields["hand"], "table": fields["table"]} | _piles_named(fields)
    if fields["cut_card"] is not None:
        seen["cut_card"] = (fields["cut_card"],)
    _check_cards("view", seen, complete=False)
    if not 0 <= fields["player"] < fields["players"]:
        raise ChkobbaError(f"view: player {shown(fields['player'])} is not at this table")
    # A view read from data is one observe did not make: the whole check.
    return check_view(PlayerView(**fields))


def public_view_to_dict(view: PublicView) -> dict[str, Any]:
    """``view`` as JSON-ready data (see :meth:`PublicView.to_dict
    <chkobba.PublicView.to_dict>`): the hand sizes and the stock size, no card of a hand
    or of the stock. A hand-built view is checked first (see
    :func:`~chkobba.views.check_public_view`).

    >>> import random
    >>> from chkobba.snapshots import public_view_to_dict
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    >>> data = public_view_to_dict(public_view(state))
    >>> data["format"], data["hand_sizes"], data["stock_size"], data["table"]
    ('chkobba-public-view', [3, 3], 30, ['7C', 'JC', '4H', '3H'])
    """
    if not isinstance(view, PublicView):
        raise _not_a("public_view_to_dict", "view", view, "a PublicView")
    return _write(check_public_view(view), PUBLIC_VIEW_FORMAT, _PUBLIC)


def public_view_from_dict(data: object) -> PublicView:
    """The :class:`~chkobba.PublicView` that :func:`public_view_to_dict` wrote, checked
    like :func:`view_from_dict` (see :func:`~chkobba.views.check_public_view`): what a
    spectator's client reads.

    >>> import json
    >>> from chkobba.snapshots import public_view_from_dict
    >>> data = json.loads(public_view(new_match()).to_json())
    >>> public_view_from_dict(data) == public_view(new_match())
    True
    >>> public_view_from_dict({**data, "hand": []})
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: public view: unknown field 'hand'
    """
    fields = _read(data, PUBLIC_VIEW_FORMAT, _PUBLIC)
    _check_table(fields, "public view")
    _check_cards("public view", {"table": fields["table"]} | _piles_named(fields), complete=False)
    # A view read from data is one public_view did not make: the whole check.
    return check_public_view(PublicView(**fields))


# --- consistency -----------------------------------------------------------------------


def _check_table(fields: dict[str, Any], where: str) -> None:
    """Players, sides, seats and phase agree with each other."""
    rules: Rules = fields["rules"]
    players = fields["players"]
    try:
        sides = rules.sides(players)
    except ChkobbaError as error:
        raise ChkobbaError(f"{where}: {error}") from None
    for name in ("captured", "chkobbas", "scores"):
        if len(fields[name]) != sides:
            raise ChkobbaError(f"{where}: {name} must have {sides} entries, one per side")
    for name in ("dealer", "current_player", "last_capturer"):
        seat = fields[name]
        if seat is not None and not 0 <= seat < players:
            raise ChkobbaError(
                f"{where}: {name} {shown(seat)} is not a player from 0 to {players - 1}"
            )
    if fields["winner"] is not None and not 0 <= fields["winner"] < sides:
        raise ChkobbaError(f"{where}: winner {shown(fields['winner'])} is not a side")
    phase = fields["phase"]
    moving = phase in (Phase.CUT, Phase.PLAY)
    if (fields["current_player"] is not None) != moving:
        expected = "a player" if moving else "null"
        raise ChkobbaError(f"{where}: current_player must be {expected} in phase {phase.value}")
    if (fields["winner"] is not None) != (phase is Phase.OVER):
        raise ChkobbaError(f'{where}: winner must be set exactly when the phase is "over"')


def _piles_named(fields: dict[str, Any]) -> dict[str, tuple[Card, ...]]:
    """The piles of data read, each named as a message names it: ``captured[0]``..."""
    return {f"captured[{i}]": pile for i, pile in enumerate(fields["captured"])}


def _check_cards(where: str, places: dict[str, tuple[Card, ...]], complete: bool = True) -> None:
    """Each card in one place at most, and with ``complete`` all 40 of them."""
    found: dict[Card, str] = {}
    for place, group in places.items():
        for one in group:
            if one in found:
                raise ChkobbaError(f"{where}: {twice(one, found[one], place)}")
            found[one] = place
    missing = [c for c in DECK if c not in found]
    if complete and missing:
        raise ChkobbaError(f"{where}: {missing[0]} is nowhere ({len(missing)} card(s) missing)")


def shipped_schema(name: str) -> dict[str, Any]:
    """The JSON Schema file ``name`` shipped in the package (``state.schema.json``,
    ``view.schema.json``, ``public_view.schema.json``, ``record.schema.json``,
    ``rules.schema.json``, ``outcome.schema.json``, ``deal_score.schema.json``), parsed:
    a new dict at every call, for the caller to keep."""
    # Imported here: importlib.resources is a tenth of `import chkobba`'s time, and only
    # the schemas need it.
    from importlib import resources

    text = resources.files("chkobba").joinpath(name).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
