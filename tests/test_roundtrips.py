"""Reprs and text forms round-trip, like python-chess's ``Move`` and ``Piece``.

A repr that looks like code evaluates back to an equal value (with the names of
:mod:`chkobba` and of the value's module); text forms read back through their parser;
pickle and deepcopy keep the value and its hash. Values come from random matches of
random profiles (3 players included) and from the strategies of ``tests/strategies.py``.

What other suites already check is not repeated here: moves' reprs
(``test_notation``), card reprs and pickles (``test_cards``), the JSON of states and
views of the default profile (``test_people``), records of the named profiles
(``test_profile_records``).
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

import chkobba
from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    Cut,
    DealScore,
    Phase,
    Play,
    PlayerView,
    Record,
    Rules,
    Shuffle,
    State,
    apply,
    card,
    legal_moves,
    new_match,
    observe,
    parse_move,
    random_shuffle,
)
from chkobba.actions import Position
from chkobba.bots.analysis import MoveReview, MoveValue, review_record
from chkobba.bots.policy import PolicyBot
from chkobba.bots.registry import BotSpec, make_bot
from chkobba.history import DealHistory
from chkobba.rules import profile
from tests.helpers import random_history
from tests.strategies import bot_specs, examples, profile_states, rule_profiles

NAMES: dict[str, Any] = {
    **vars(chkobba),
    "BotSpec": BotSpec,
    "DealHistory": DealHistory,
    "MoveReview": MoveReview,
    "MoveValue": MoveValue,
    "Position": Position,
}


def evaluated(value: object) -> Any:
    """``eval(repr(value))`` with the library's names."""
    return eval(repr(value), dict(NAMES))


def assert_same(copied: object, value: object) -> None:
    """Equal, and (for a hashable value) with an equal hash."""
    assert copied == value
    assert hash(copied) == hash(value)


def assert_copies(value: object) -> None:
    """Pickle, deepcopy and copy keep the value and its hash."""
    assert_same(pickle.loads(pickle.dumps(value)), value)
    assert_same(copy.deepcopy(value), value)
    assert_same(copy.copy(value), value)


# --- reprs of the values that hold a Phase -------------------------------------------------


def test_a_state_repr_is_code_for_the_same_state() -> None:
    state = apply(new_match(), random_shuffle(random.Random(1)))
    assert "phase=Phase.CUT," in repr(state)
    assert_same(evaluated(state), state)


def test_a_view_repr_is_code_for_the_same_view() -> None:
    view = observe(apply(new_match(), random_shuffle(random.Random(1))), 1)
    assert "phase=Phase.CUT," in repr(view)
    assert_same(evaluated(view), view)


def test_a_position_repr_is_code_for_the_same_position() -> None:
    state = apply(new_match(), random_shuffle(random.Random(2)))
    position = Position(state)
    assert_same(evaluated(position), position)


def test_the_phase_keeps_its_own_repr() -> None:
    assert repr(Phase.PLAY) == "<Phase.PLAY: 'play'>"


@settings(max_examples=examples(40), deadline=None)
@given(profile_states(), st.data())
def test_states_and_views_of_any_profile_round_trip(state: State, data: st.DataObject) -> None:
    assert_same(evaluated(state), state)
    assert_copies(state)
    assert_same(State.from_dict(json.loads(json.dumps(state.to_dict()))), state)
    view = observe(state, data.draw(st.integers(0, state.players - 1)))
    assert_same(evaluated(view), view)
    assert_copies(view)
    assert_same(PlayerView.from_dict(json.loads(json.dumps(view.to_dict()))), view)
    for score in state.deal_scores[-2:]:
        assert isinstance(score, DealScore)
        assert_same(evaluated(score), score)
        assert_copies(score)


#: A state of each phase with a move (CUT as often as the others: random walks rarely stop
#: on the one CUT state of a deal).
_MOVING_STATES = st.sampled_from((Phase.SHUFFLE, Phase.CUT, Phase.PLAY)).flatmap(
    lambda phase: profile_states(phases=(phase,))
)


@settings(max_examples=examples(40), deadline=None)
@given(_MOVING_STATES, st.data())
def test_moves_of_any_profile_read_back(state: State, data: st.DataObject) -> None:
    assert not state.is_over
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
    assert isinstance(move, {Phase.SHUFFLE: Shuffle, Phase.CUT: Cut, Phase.PLAY: Play}[state.phase])
    assert_same(parse_move(str(move)), move)
    assert_same(parse_move(str(move), state), move)
    if not state.is_chance:
        assert_same(parse_move(str(move), observe(state, state.mover)), move)
    assert_same(evaluated(move), move)
    assert_copies(move)


# --- rules and records ---------------------------------------------------------------------


@settings(max_examples=examples(60), deadline=None)
@given(rule_profiles())
def test_any_profile_round_trips(rules: Rules) -> None:
    again = evaluated(rules)
    assert_same(again, rules)
    assert again.card_values == rules.card_values
    assert_copies(rules)


def test_the_named_profiles_read_back_by_name() -> None:
    for rules in (TUNISIAN, CARD_RULES_PLUS):
        assert profile(rules.name) is rules
        assert_same(evaluated(rules), rules)


@settings(max_examples=examples(15), deadline=None)
@given(rule_profiles(), st.integers(0, 2**32 - 1), st.data())
def test_records_of_any_profile_round_trip(rules: Rules, seed: int, data: st.DataObject) -> None:
    players = data.draw(st.sampled_from(rules.players))
    states, moves = random_history(seed, players, max_moves=300, rules=rules)
    tags = data.draw(st.dictionaries(st.sampled_from("abc"), st.text("xyz é", max_size=4)))
    record = Record.from_moves(states[0], moves, tags=tags)
    assert_same(Record.from_json(record.to_json()), record)
    assert_same(Record.from_json(record.to_json(compact=True)), record)
    assert_same(evaluated(record), record)
    assert_copies(record)


# --- bot specs and reviews -----------------------------------------------------------------


@settings(max_examples=examples(60), deadline=None)
@given(bot_specs())
def test_a_bot_spec_round_trips_through_its_text_and_its_repr(spec: BotSpec) -> None:
    assert_same(BotSpec.parse(str(spec)), spec)
    assert_same(evaluated(spec), spec)
    assert_copies(spec)


def test_a_bot_spec_with_options_has_a_repr_that_reads_back() -> None:
    spec = BotSpec.parse("ismcts:iterations=50")
    assert repr(spec) == "BotSpec.parse('ismcts:iterations=50')"
    assert evaluated(spec) == spec
    assert repr(BotSpec.parse("greedy")) == "BotSpec('greedy')"


def test_a_move_value_of_a_move_never_tried_has_a_repr_that_reads_back() -> None:
    never = MoveValue(Play(card("7D")), float("-inf"))
    assert "value=float('-inf')" in repr(never)
    assert evaluated(never) == never


def test_move_reviews_round_trip_through_their_repr() -> None:
    states, moves = random_history(5, max_moves=60)
    record = Record.from_moves(states[0], moves)
    reviews = review_record(record, evaluator=make_bot("ismcts:iterations=2", seed=1))
    assert reviews
    for review in reviews:
        assert_same(evaluated(review), review)
        assert_copies(review)


def test_deal_histories_round_trip_through_their_repr() -> None:
    history = DealHistory().started([card("7D"), card("3S")], card("AS"))
    history = history.played(1, card("3C"), frozenset({card("3S")}))
    assert_same(evaluated(history), history)
    assert_copies(history)
    assert attrs.evolve(history) == history


def test_a_policy_bot_repr_keeps_its_settings() -> None:
    def greedy_policy(observation: object, mask: Any) -> int:
        return int(list(mask).index(1))

    bot = PolicyBot(greedy_policy, features=True, name="mine")
    assert repr(bot) == "PolicyBot(greedy_policy, features=True, name='mine')"
    again = eval(repr(bot), {"PolicyBot": PolicyBot, "greedy_policy": greedy_policy})
    assert (again.fn, again.features, again.name) == (bot.fn, bot.features, bot.name)
    assert repr(PolicyBot(greedy_policy)) == "PolicyBot(greedy_policy)"
