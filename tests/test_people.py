"""The library's "for people" items: records that tell the story, states as JSON, typed
accessors and short messages (issue #11)."""

from __future__ import annotations

import copy
import json
import pickle
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import (
    ChkobbaError,
    Cut,
    Game,
    Phase,
    Play,
    PlayerView,
    Record,
    State,
    apply,
    card,
    cards,
    legal_moves,
    observe,
)
from chkobba.arena import tournament
from chkobba.bots import GreedyBot
from chkobba.bots.registry import BotSpec, bot_options
from chkobba.deals import RecordedDeal
from tests.helpers import stacked_shuffle
from tests.strategies import History, examples, histories, states, views

# --- state.mover -------------------------------------------------------------------------


@given(states())
def test_mover_is_the_current_player_or_an_error(state: State) -> None:
    if state.current_player is None:
        with pytest.raises(ChkobbaError, match=f"nobody is to move in phase {state.phase.name}"):
            _ = state.mover
        with pytest.raises(ChkobbaError, match="nobody is to move"):
            _ = observe(state, 0).mover
    else:
        assert state.mover == state.current_player
        # The typed accessor is what makes this line pass mypy --strict.
        assert observe(state, state.mover).mover == state.mover


# --- short messages ----------------------------------------------------------------------


def test_a_view_where_a_state_is_needed_gets_a_short_message() -> None:
    # apply needs the whole state; the message says which functions take a view.
    state = Game(seed=1).deal()
    with pytest.raises(ChkobbaError) as raised:
        apply(observe(state, 0), Cut(True))  # type: ignore[arg-type]
    message = str(raised.value)
    assert "expected a State, got a PlayerView" in message
    assert "legal_moves" in message and "apply needs the State" in message
    assert len(message) < 200


def test_other_wrong_arguments_are_named_briefly() -> None:
    with pytest.raises(
        ChkobbaError, match=r"legal_moves: expected a State or a PlayerView, got 42 \(int\)$"
    ):
        legal_moves(42)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"observe: expected a State, got 'x' \(str\)$"):
        observe("x", 0)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"got \[0, 0, .*\.\.\.\] \(list\)$"):
        legal_moves([0] * 100)  # type: ignore[arg-type]


def test_cards_reads_commas_like_parse_move() -> None:
    assert cards("7D,QH") == cards("7D QH") == cards(" 7D , QH ,") == (card("7D"), card("QH"))
    assert cards(",") == ()


# --- records: tags, deals, who played --------------------------------------------------


def test_record_tags_are_a_json_ready_dict_that_cannot_change() -> None:
    record = Record(players=2, tags={"player1": "greedy", "event": "club"})
    assert json.dumps(record.tags) == '{"event": "club", "player1": "greedy"}'
    assert isinstance(record.tags, dict)
    with pytest.raises(TypeError, match="cannot change"):
        record.tags["event"] = "x"  # type: ignore[index]
    with pytest.raises(TypeError, match="cannot change"):
        record.tags.update(event="x")  # type: ignore[attr-defined]
    assert record.tags == {"event": "club", "player1": "greedy"}
    assert pickle.loads(pickle.dumps(record)) == record
    assert copy.deepcopy(record) == record and hash(copy.copy(record)) == hash(record)


def _cut_short(moves: int) -> st.SearchStrategy[History]:
    return histories(max_moves=moves)


# Most matches of 400 moves end; shorter ones stop inside a deal (the last branch).
@settings(max_examples=examples(30), deadline=None)
@given(st.one_of(histories(max_moves=400), st.integers(1, 150).flatmap(_cut_short)))
def test_deals_split_the_record_and_name_every_player(history: History) -> None:
    record = Record.from_moves(history.states[0], history.moves)
    players = record.players_of_moves()
    assert players == tuple(s.current_player for s in history.states[:-1])
    deals = record.deals()
    assert [m.move for d in deals for m in d.moves] == list(record.moves)
    assert [m.index for d in deals for m in d.moves] == list(range(len(record.moves)))
    scored = [d.score for d in deals if d.score is not None]
    assert scored == list(history.last.deal_scores)
    for number, deal in enumerate(deals, start=1):
        assert isinstance(deal, RecordedDeal) and deal.number == number
        start = history.states[deal.first_index]
        assert start.is_chance and deal.dealer == start.dealer
        assert deal.moves[0].player is None and deal.moves[0].index == deal.first_index
        assert all(m.player == players[m.index] for m in deal.moves)
        end = history.states[deal.first_index + len(deal.moves)]
        assert deal.scores == end.scores
        assert not (deal.voided and deal.score is not None)
        if deal is not deals[-1]:
            assert deal.finished
    # Only the last deal may be unfinished, and then the record stops inside it.
    if deals and not deals[-1].finished:
        assert history.last.phase in (Phase.CUT, Phase.PLAY)


def test_a_voided_deal_is_told_apart() -> None:
    void = stacked_shuffle(hands=["2S 3S 4S", "2H 3H 4H"], table="AS AH AC 2D")
    game = Game(seed=1)
    game.play(void)
    game.play(Cut(keep=False))
    assert game.state.is_chance  # three aces: void
    game.deal()
    first, second = game.record().deals()
    assert first.voided and first.score is None and first.finished
    assert [m.player for m in first.moves] == [None, 1]
    assert second.number == 2 and second.dealer == first.dealer
    assert not second.finished and not second.voided


def test_a_record_with_an_illegal_move_says_which_in_deals() -> None:
    record = Record(players=2, moves=[Cut(keep=True)])
    with pytest.raises(ChkobbaError, match=r"move 1 \(index 0\)"):
        record.deals()
    with pytest.raises(ChkobbaError, match=r"move 1 \(index 0\)"):
        record.players_of_moves()


# --- states and views as JSON ----------------------------------------------------------


def _through_json(data: dict[str, Any]) -> Any:
    return json.loads(json.dumps(data))


@given(states())
def test_a_state_round_trips_through_json(state: State) -> None:
    data = state.to_dict()
    assert data["format"] == "chkobba-state" and data["version"] == 1
    text = json.dumps(data)
    assert State.from_dict(json.loads(text)) == state
    loaded = json.loads(text)
    State.from_dict(loaded)
    assert loaded == json.loads(text)  # the input is never changed


@given(views())
def test_a_view_round_trips_and_shows_no_hidden_card(view: PlayerView) -> None:
    data = view.to_dict()
    assert data["format"] == "chkobba-view"
    assert "stock" not in data and "hands" not in data
    shown = set(json.dumps(data).replace('"', " ").replace(",", " ").split())
    hidden = {str(c) for c in view.unseen()}
    assert not (shown & hidden)
    assert PlayerView.from_dict(_through_json(data)) == view


def _state_data() -> dict[str, Any]:
    game = Game(seed=3)
    game.deal()
    game.play("expose")
    return _through_json(game.state.to_dict())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "chkobba-record"}, 'state format must be "chkobba-state"'),
        ({"version": 2}, "state version must be 1"),
        ({"version": True}, "state version must be 1"),
        ({"phase": "dance"}, 'phase must be one of "shuffle", "cut", "play", "over"'),
        ({"players": "2"}, "players must be a whole number"),
        ({"players": 3}, "a match has 2 or 4 players, not 3"),
        ({"table": "7D"}, "table must be a list"),
        ({"table": ["8D"]}, "table[0]: '8D' is not a card"),
        ({"table": [7]}, "table[0] must be a card's text"),
        ({"stock": []}, "is nowhere"),
        ({"dealer": 5}, "dealer 5 is not a player from 0 to 1"),
        ({"current_player": None}, "current_player must be a player in phase play"),
        ({"winner": 0}, 'winner must be set exactly when the phase is "over"'),
        ({"scores": [0, 0, 0]}, "scores must have 2 entries"),
        ({"rules": {"name": "x"}}, "rules: missing field 'capture_values'"),
        ({"rules": "tunisian"}, "rules must be an object"),
        ({"extra": 1}, "unknown field 'extra'"),
        ({"deal_scores": [{}]}, "deal_scores[0]: missing field"),
    ],
)
def test_bad_state_data_is_named(change: dict[str, Any], message: str) -> None:
    data = {**_state_data(), **change}
    before = copy.deepcopy(data)
    with pytest.raises(ChkobbaError) as raised:
        State.from_dict(data)
    assert message in str(raised.value)
    assert data == before


def test_missing_fields_and_non_objects_are_named() -> None:
    data = _state_data()
    del data["hands"]
    with pytest.raises(ChkobbaError, match="missing field 'hands'"):
        State.from_dict(data)
    with pytest.raises(ChkobbaError, match=r"state must be an object"):
        State.from_dict([1, 2])
    with pytest.raises(ChkobbaError, match='view format must be "chkobba-view"'):
        PlayerView.from_dict(_state_data())


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)


@settings(max_examples=examples(150))
@given(st.sampled_from(sorted(_state_data())), json_values)
def test_any_corrupt_field_raises_only_chkobba_error(name: str, value: Any) -> None:
    data = {**_state_data(), name: value}
    try:
        state = State.from_dict(data)
    except ChkobbaError:
        return
    assert state.to_dict() == data  # what loads is exactly what was given


def test_a_loaded_state_plays_on() -> None:
    data = _state_data()
    state = State.from_dict(data)
    move = legal_moves(state)[0]
    assert isinstance(move, Play)
    assert apply(state, move).phase is Phase.PLAY


# --- bots ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ismcts:iters=5", "ismcts has no option 'iters'; its options are iterations, "),
        ("greedy:seed=3", "the seed is not a bot option"),
        ("random:depth=2", "random has no option 'depth'; it takes no options"),
        ("ismcts:iterations=5,iterations=6", "option 'iterations' is given twice"),
    ],
)
def test_bot_spec_errors_name_the_valid_options(text: str, message: str) -> None:
    with pytest.raises(ChkobbaError) as raised:
        BotSpec.parse(text)
    assert message in str(raised.value)
    assert "__init__" not in str(raised.value) and "keyword argument" not in str(raised.value)


def test_bot_options_come_from_the_bot() -> None:
    assert "iterations" in bot_options("ismcts")
    assert bot_options("random") == ()


class MyBot(GreedyBot):
    """A custom bot: its ``name`` is what a tournament table shows."""

    name = "mine"


class Anonymous:
    def choose(self, view: PlayerView, legal: tuple[Any, ...]) -> Any:
        return legal[0]


def test_tournaments_show_a_bots_name_never_an_object_repr() -> None:
    table = tournament([MyBot(seed=1), Anonymous()], games=2, seed=1)
    assert [line.name for line in table.bots] == ["mine", "Anonymous"]


# --- documentation of public fields -----------------------------------------------------


def test_play_fields_and_bot_name_are_documented() -> None:
    doc = Play.__doc__ or ""
    assert "card:" in doc and "capture:" in doc
    from chkobba.bots.base import Bot

    assert "name" in (Bot.__doc__ or "")


# --- optional extras -------------------------------------------------------------------


#: Each adapter's packages, in the order it imports them, and the framework it adapts to.
_FRAMEWORK = {"pettingzoo": "pettingzoo", "openspiel": "pyspiel", "gymnasium": "gymnasium"}
_EXTRA_PACKAGES = {
    "pettingzoo": ["gymnasium", "numpy", "pettingzoo"],
    "openspiel": ["numpy", "pyspiel"],
    "gymnasium": ["gymnasium", "numpy"],
}


def _import_error_without(module: str, blocked: list[str]) -> str:
    """The last line of the error importing ``chkobba.<module>`` with ``blocked`` hidden."""
    code = f"import sys; sys.modules.update(dict.fromkeys({blocked!r})); import chkobba.{module}"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 1
    return result.stderr.strip().splitlines()[-1]


@pytest.mark.out_of_process
@pytest.mark.parametrize("module", sorted(_EXTRA_PACKAGES))
def test_an_adapter_without_its_extra_says_what_to_install(module: str) -> None:
    # Every package of the extra hidden: the error names the first one the adapter needs,
    # whatever this environment has installed.
    packages = _EXTRA_PACKAGES[module]
    last = _import_error_without(module, packages)
    assert last.startswith("ModuleNotFoundError: ")
    assert f"install chkobba[{module}]" in last and packages[0] in last


@pytest.mark.out_of_process
@pytest.mark.parametrize("module", sorted(_EXTRA_PACKAGES))
def test_an_adapter_names_the_one_package_missing(module: str) -> None:
    # Only the framework itself hidden (the others installed, as with the extra).
    framework = _FRAMEWORK[module]
    for other in _EXTRA_PACKAGES[module]:
        if other != framework:
            pytest.importorskip(other)
    last = _import_error_without(module, [framework])
    assert last.startswith("ModuleNotFoundError: ")
    assert f"install chkobba[{module}]" in last and framework in last
