"""Tests for the gaps a mutmut audit of ``snapshots.py`` found (the audit of 2026-12-04).

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to the library that the rest of the suite let through (tools/mutation/README.md).
Most pin the full text of a refusal of ``State.from_dict`` or ``PlayerView.from_dict``:
the message names the field (with its index inside a list), the value and its kind, or,
for fields that do not agree with each other, the format (``state:`` or ``view:``) and
the places involved. One reaches a guard that only a bug in the library could trip (an
error escaping ``state_to_dict`` on a state that ``check_state`` passes); it breaks a
writer with ``monkeypatch`` to say what the guard does.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from chkobba import (
    ChkobbaError,
    Cut,
    PlayerView,
    Rules,
    State,
    apply,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba import snapshots as snapshots_module
from chkobba.snapshots import state_to_dict, view_to_dict

# --- states and views to break -------------------------------------------------------------


def _as_json(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` as a program in another language would send it back."""
    result: dict[str, Any] = json.loads(json.dumps(data))
    return result


def _cut() -> State:
    """Player 1 is to cut a fresh 2-player deal; the stock holds the 40 cards, 2H first."""
    return apply(new_match(), random_shuffle(random.Random(3)))


def _play() -> State:
    """Player 1 is to play the first card: hands 5D 7D QC and 2H 4D AC, the table 7C JC
    4H 3H, the 30 other cards in the stock."""
    return apply(_cut(), Cut(keep=True))


def _scored() -> State:
    """A 2-player match after its first deal: one deal score, phase shuffle."""
    state = new_match()
    rng = random.Random(1)
    while not state.deal_scores:
        state = apply(state, random_shuffle(rng) if state.is_chance else legal_moves(state)[0])
    return state


# The data to break is built on first use, not while pytest collects the module: an engine
# that raises fails the tests that use it, not the collection of every test here.


@functools.cache
def cut_data() -> dict[str, Any]:
    return _as_json(_cut().to_dict())


@functools.cache
def play_data() -> dict[str, Any]:
    return _as_json(_play().to_dict())


@functools.cache
def scored_data() -> dict[str, Any]:
    return _as_json(_scored().to_dict())


@functools.cache
def cutter_data() -> dict[str, Any]:
    """The cutter's view (player 1 sees the cut card, 2H); hand and table are empty."""
    return _as_json(observe(_cut(), 1).to_dict())


@functools.cache
def player_data() -> dict[str, Any]:
    """Player 1's view as they play the first card: hand 2H 4D AC, table 7C JC 4H 3H."""
    return _as_json(observe(_play(), 1).to_dict())


class Lazy:
    """A test's argument built when the test runs (by :func:`built`), not while pytest
    collects the tests. It has no ``__name__``: pytest names the case by the argument's
    name and index, as it named the dict or object given before."""

    def __init__(self, build: Callable[[], object]) -> None:
        self.build = build

    def __repr__(self) -> str:
        return "Lazy(...)"


def changed(data: Callable[[], dict[str, Any]], **fields: Any) -> Lazy:
    """``{**data(), **fields}``, built when the test runs."""
    return Lazy(lambda: {**data(), **fields})


def built(value: object) -> Any:
    """``value``, or what it builds if it is :class:`Lazy`."""
    return value.build() if isinstance(value, Lazy) else value


def _state_error(data: object) -> str:
    with pytest.raises(ChkobbaError) as caught:
        State.from_dict(data)
    return str(caught.value)


def _view_error(data: object) -> str:
    with pytest.raises(ChkobbaError) as caught:
        PlayerView.from_dict(data)
    return str(caught.value)


def test_the_states_to_break_are_the_ones_described() -> None:
    """The cards the tests below move around are where the helpers' docstrings say."""
    cut, play, scored, cutter, player = (
        cut_data(),
        play_data(),
        scored_data(),
        cutter_data(),
        player_data(),
    )
    assert cut["stock"][0] == "2H"
    assert play["hands"] == [["5D", "7D", "QC"], ["2H", "4D", "AC"]]
    assert play["table"] == ["7C", "JC", "4H", "3H"]
    assert "QD" in play["stock"] and "KH" in play["stock"]
    assert (cutter["player"], cutter["cut_card"], cutter["hand"]) == (1, "2H", [])
    assert (player["player"], player["hand"]) == (1, ["2H", "4D", "AC"])
    assert scored["phase"] == "shuffle"
    assert len(scored["deal_scores"]) == 1


# --- the envelope: an object, its format, its version ----------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (3, "state must be an object (what to_dict returns), not 3 (a number)"),
        ([], "state must be an object (what to_dict returns), not [] (a list)"),
        (changed(cut_data, format="x"), 'state format must be "chkobba-state", not "x" (text)'),
        (
            changed(cut_data, format="chkobba-view"),
            'state format must be "chkobba-state", not "chkobba-view" (text)',
        ),
        (
            changed(cut_data, version=2),
            "state version must be 1 (this library's), not 2 (a number)",
        ),
        (
            changed(cut_data, version=True),
            "state version must be 1 (this library's), not true (a boolean)",
        ),
        (
            changed(cut_data, version="1"),
            'state version must be 1 (this library\'s), not "1" (text)',
        ),
    ],
)
def test_a_state_envelope_is_refused_naming_what_came(data: object, message: str) -> None:
    """The message names the format without its ``chkobba-`` prefix, then the value
    that came and its kind."""
    assert _state_error(built(data)) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (None, "view must be an object (what to_dict returns), not null"),
        (changed(cutter_data, format=7), 'view format must be "chkobba-view", not 7 (a number)'),
        (
            changed(cutter_data, version=1.0),
            "view version must be 1 (this library's), not 1.0 (a number)",
        ),
    ],
)
def test_a_view_envelope_is_refused_naming_what_came(data: object, message: str) -> None:
    assert _view_error(built(data)) == message


# --- one field's value ------------------------------------------------------------------------


def _deal_score(**fields: Any) -> dict[str, Any]:
    return {**scored_data(), "deal_scores": [{**scored_data()["deal_scores"][0], **fields}]}


_CARD = 'must be a card\'s text such as "7D", not'


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (changed(cut_data, players="2"), 'players must be a whole number, not "2" (text)'),
        (changed(cut_data, dealer=0.0), "dealer must be a whole number, not 0.0 (a number)"),
        (
            changed(cut_data, current_player="a"),
            'current_player must be a whole number, not "a" (text)',
        ),
        (changed(cut_data, winner=True), "winner must be a whole number, not true (a boolean)"),
        (changed(cut_data, table=3), "table must be a list, not 3 (a number)"),
        (changed(cut_data, table=[3]), f"table[0] {_CARD} 3 (a number)"),
        (
            Lazy(lambda: {**cut_data(), "stock": [*cut_data()["stock"][:2], None]}),
            f"stock[2] {_CARD} null",
        ),
        (changed(cut_data, chkobbas=3), "chkobbas must be a list, not 3 (a number)"),
        (changed(cut_data, scores=[0, "a"]), 'scores[1] must be a whole number, not "a" (text)'),
        (changed(cut_data, captured=3), "captured must be a list, not 3 (a number)"),
        (changed(cut_data, captured=[[], 3]), "captured[1] must be a list, not 3 (a number)"),
        (changed(cut_data, hands=[[], ["7D", 3]]), f"hands[1][1] {_CARD} 3 (a number)"),
        (
            changed(cut_data, phase="x"),
            'phase must be one of "shuffle", "cut", "play", "over", not "x" (text)',
        ),
        (changed(cut_data, deal_scores=3), "deal_scores must be a list, not 3 (a number)"),
        (changed(cut_data, deal_scores=[3]), "deal_scores[0] must be an object, not 3 (a number)"),
        (
            Lazy(lambda: _deal_score(cards_winner=True)),
            "deal_scores[0].cards_winner must be a whole number or null, not true (a boolean)",
        ),
        (
            Lazy(lambda: _deal_score(points="ab")),
            'deal_scores[0].points must be a list, not "ab" (text)',
        ),
        (
            Lazy(lambda: _deal_score(chkobbas=[[1], 0])),
            "deal_scores[0].chkobbas[0] must be a whole number, not [1] (a list)",
        ),
    ],
)
def test_a_bad_state_field_is_refused_naming_the_field_the_value_and_its_kind(
    data: Lazy, message: str
) -> None:
    assert _state_error(built(data)) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (changed(player_data, player="1"), 'player must be a whole number, not "1" (text)'),
        (changed(player_data, hand=[3]), f"hand[0] {_CARD} 3 (a number)"),
        (changed(player_data, hand_sizes=3), "hand_sizes must be a list, not 3 (a number)"),
        (
            changed(player_data, hand_sizes=[3, "a"]),
            'hand_sizes[1] must be a whole number, not "a" (text)',
        ),
        (changed(player_data, stock_size=None), "stock_size must be a whole number, not null"),
        (changed(cutter_data, cut_card=3), f"cut_card {_CARD} 3 (a number)"),
        (changed(cutter_data, cut_card=["2H"]), f'cut_card {_CARD} ["2H"] (a list)'),
    ],
)
def test_a_bad_view_field_is_refused_naming_the_field_the_value_and_its_kind(
    data: Lazy, message: str
) -> None:
    assert _view_error(built(data)) == message


_TARGET = "rules: target must be a positive integer, at most 10000, got "
_NAME = "rules: name must be printable text, not blank, of at most 60 characters, got "


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("target", [[1]], _TARGET + "[[1]]"),
        ("target", [[[[1]]]], _TARGET + "[[[[1]]]]"),
        ("name", [[["a"]]], _NAME + '[[["a"]]]'),
        ("target", None, _TARGET + "null"),
        ("target", True, _TARGET + "true"),
        ("name", "", _NAME + '""'),
    ],
)
def test_rules_values_are_quoted_as_the_json_wrote_them(
    name: str, value: object, message: str
) -> None:
    """The profile's checks, shared with Python callers, quote the value they were given
    (a tuple, None); a field read from JSON is quoted as the JSON wrote it."""
    assert _state_error({**cut_data(), "rules": {**cut_data()["rules"], name: value}}) == message


def test_rules_values_are_read_as_tuples_three_levels_deep() -> None:
    """A profile holds flat tuples at most, so a list in a rules field is read as a tuple,
    down to three levels; deeper lists stay lists (which every field refuses) so that
    reading never recurses as deep as the JSON goes."""
    assert snapshots_module._from_plain([[1]]) == ((1,),)
    assert snapshots_module._from_plain([[[1]]]) == (((1,),),)
    assert snapshots_module._from_plain([[[[1]]]]) == ((([1],),),)
    assert snapshots_module._from_plain([[["a"]], 2]) == ((("a",),), 2)


# --- fields that do not agree with each other ---------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"chkobbas": [0]}, "chkobbas must have 2 entries, one per side"),
        ({"dealer": 2}, "dealer 2 is not a player from 0 to 1"),
        ({"dealer": -1}, "dealer -1 is not a player from 0 to 1"),
        ({"current_player": 2}, "current_player 2 is not a player from 0 to 1"),
        ({"last_capturer": 2}, "last_capturer 2 is not a player from 0 to 1"),
        ({"winner": 2}, "winner 2 is not a side"),
        ({"winner": -1}, "winner -1 is not a side"),
        ({"phase": "shuffle"}, "current_player must be null in phase shuffle"),
        ({"phase": "over"}, "current_player must be null in phase over"),
        ({"current_player": None}, "current_player must be a player in phase cut"),
        (
            {"phase": "over", "current_player": None},
            'winner must be set exactly when the phase is "over"',
        ),
    ],
)
def test_fields_that_disagree_are_named_with_the_format(
    fields: dict[str, Any], problem: str
) -> None:
    """Players, sides, seats and phase are checked against each other before the cards;
    with 2 players, seats run from 0 to 1 and sides too (a seat equal to ``players``
    is one too many)."""
    assert _state_error({**cut_data(), **fields}) == "state: " + problem
    assert _view_error({**cutter_data(), **fields}) == "view: " + problem


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (changed(cut_data, table=["2H"]), "state: 2H is in two places (stock and table)"),
        (changed(cut_data, hands=[["2H"], []]), "state: 2H is in two places (stock and hands[0])"),
        (
            changed(cut_data, captured=[[], ["2H"]]),
            "state: 2H is in two places (stock and captured[1])",
        ),
        (
            Lazy(lambda: {**play_data(), "table": [*play_data()["table"], "5D"]}),
            "state: 5D is in two places (table and hands[0])",
        ),
    ],
)
def test_a_card_in_two_places_of_a_state_names_both(data: Lazy, message: str) -> None:
    """The places are named in the order stock, table, hands, captured piles (in the
    play state, 5D is in hands[0])."""
    assert _state_error(built(data)) == message


def test_a_card_in_no_place_of_a_state_is_named_with_the_count() -> None:
    """Every one of the 40 cards must be somewhere: the first missing one in deck order
    (A 2 3 ... K, and within a rank S H D C: QD comes before KH) is named, with how many
    are missing."""
    one = {**play_data(), "stock": [c for c in play_data()["stock"] if c != "KH"]}
    assert _state_error(one) == "state: KH is nowhere (1 card(s) missing)"
    two = {**play_data(), "stock": [c for c in play_data()["stock"] if c not in ("KH", "QD")]}
    assert _state_error(two) == "state: QD is nowhere (2 card(s) missing)"


def test_a_state_holds_one_hand_per_player() -> None:
    """With 2 players and every card in the stock, one or three hands are refused."""
    message = "state: hands must hold 2 hands, one per player"
    assert _state_error({**cut_data(), "hands": [[]]}) == message
    assert _state_error({**cut_data(), "hands": [[], [], []]}) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            Lazy(lambda: {**player_data(), "table": [*player_data()["table"], "2H"]}),
            "view: 2H is in two places (hand and table)",
        ),
        (
            changed(player_data, captured=[["4D"], []]),
            "view: 4D is in two places (hand and captured[0])",
        ),
        (
            changed(player_data, captured=[[], ["JC"]]),
            "view: JC is in two places (table and captured[1])",
        ),
        (changed(cutter_data, table=["2H"]), "view: 2H is in two places (table and cut_card)"),
        (changed(cutter_data, hand=["2H"]), "view: 2H is in two places (hand and cut_card)"),
        (
            changed(cutter_data, captured=[["2H"], []]),
            "view: 2H is in two places (captured[0] and cut_card)",
        ),
    ],
)
def test_a_card_a_view_shows_in_two_places_names_both(data: Lazy, message: str) -> None:
    """A view shows the viewer's hand, the table, every pile and, to the cutter, the cut
    card: a card in two of them is named with both (the hidden cards are not listed,
    so no card is missing)."""
    assert _view_error(built(data)) == message


@pytest.mark.parametrize("player", [2, 3, -1])
def test_a_view_of_a_player_not_at_the_table_is_refused(player: int) -> None:
    """With 2 players a view is player 0's or player 1's."""
    message = f"view: player {player} is not at this table"
    assert _view_error({**player_data(), "player": player}) == message


# --- the writers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (3, "state_to_dict: state must be a State, not 3 (int)"),
        (
            Lazy(lambda: observe(_cut(), 0)),
            "state_to_dict: state must be a State, not a PlayerView",
        ),
    ],
)
def test_state_to_dict_refuses_what_is_not_a_state(value: object, message: str) -> None:
    value = built(value)
    with pytest.raises(ChkobbaError) as caught:
        state_to_dict(value)  # type: ignore[arg-type]
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("view", "view_to_dict: view must be a PlayerView, not 'view' (str)"),
        (Lazy(_cut), "view_to_dict: view must be a PlayerView, not a State"),
    ],
)
def test_view_to_dict_refuses_what_is_not_a_view(value: object, message: str) -> None:
    value = built(value)
    with pytest.raises(ChkobbaError) as caught:
        view_to_dict(value)  # type: ignore[arg-type]
    assert str(caught.value) == message


class _Seat(int):
    """A seat of an int type of one's own: JSON writes it, but no state holds it."""


class _Unsided(Rules):
    """A profile that fails to say how many sides play: check_state cannot check it."""

    def sides(self, players: int) -> int:
        raise RuntimeError("no sides")


def test_state_to_dict_on_a_broken_state_names_what_check_state_finds() -> None:
    """A hand-built state whose phase is text cannot be written; the error says why. So
    for one that JSON could write but that would not read back (a seat of an int type of
    its own): what is written reads back."""
    broken = attrs.evolve(_play(), phase="play")
    with pytest.raises(ChkobbaError) as caught:
        state_to_dict(broken)
    assert str(caught.value) == "inconsistent state: phase must be a Phase, not 'play'"
    with pytest.raises(ChkobbaError, match=r"^inconsistent state: dealer must be a whole number"):
        state_to_dict(attrs.evolve(_play(), dealer=_Seat(1)))


def test_an_error_escaping_state_to_dict_on_a_sound_state_is_raised_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only a bug in the library can make writing a state that check_state passes fail;
    the writer of ``scores`` is broken here to reach that guard. The error is raised
    as it came, not blamed on the state; when check_state cannot check the state either
    (a profile that fails to count its sides), the message names the error's type."""

    bug = LookupError("a bug")

    def broken(value: object) -> object:
        raise bug

    _, read = snapshots_module._STATE["scores"]
    monkeypatch.setitem(snapshots_module._STATE, "scores", (broken, read))
    with pytest.raises(LookupError) as escaped:
        state_to_dict(_play())
    assert escaped.value is bug
    with pytest.raises(ChkobbaError) as caught:
        state_to_dict(attrs.evolve(_play(), rules=_Unsided()))
    assert str(caught.value) == "inconsistent state (RuntimeError; see check_state)"
