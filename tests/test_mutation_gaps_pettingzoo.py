"""Tests for the gaps a mutmut audit of ``pettingzoo.py`` found (the audit of 2026-12-04).

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to ``chkobba/pettingzoo.py`` that the rest of the suite let through
(tools/mutation/README.md). They pin a fresh environment before its first reset (every
agent listed, no generator and no seed yet, the match about to start with the right
number of players, no reward shaping by default), the constructor's arguments as
``EzPickle`` records them, the spaces (dtypes and bounds, built without a warning), the
full text of the refusals and of the warning of ``render()`` without a render mode, the
first ``reset()`` without a seed and a later one that continues the generator, the
rewards right after a reset, the agent selected after a reset and at every turn (the
player to move, not always ``player_0``), and the order in which done agents are stepped
with ``None`` (``player_0`` first). Every episode here is seeded, and a short one: a
single deal, or a match to one point.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import attrs
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils import EzPickle  # noqa: E402

from chkobba import TUNISIAN, new_match  # noqa: E402
from chkobba.pettingzoo import env, raw_env  # noqa: E402
from chkobba.rules import profile  # noqa: E402
from tests.helpers import refusal  # noqa: E402

#: Tunisian rules with a match to one point: a whole-match episode of a single deal.
ONE_POINT = attrs.evolve(TUNISIAN, target=1)


def _first_legal(game: Any, agent: str) -> int:
    return int(np.flatnonzero(game.observe(agent)["action_mask"])[0])


def _play_out(game: Any) -> list[tuple[str, float, bool]]:
    """The rest of the episode with the first legal action: every (agent, reward, done)
    that ``last()`` gives, the done agents' ``None`` steps included."""
    seen = []
    for agent in game.agent_iter():
        _, reward, terminated, truncated, _ = game.last()
        seen.append((agent, reward, terminated or truncated))
        game.step(None if terminated or truncated else _first_legal(game, agent))
    return seen


# --- a fresh environment ---------------------------------------------------------------


def test_a_fresh_environment_lists_every_agent_and_has_no_generator_yet() -> None:
    game = raw_env(players=4)
    assert game.agents == ["player_0", "player_1", "player_2", "player_3"]
    assert game.agents == game.possible_agents and game.agents is not game.possible_agents
    assert game.num_agents == game.max_num_agents == 4
    assert game.np_random is None and game.np_random_seed is None
    assert game.deal_reward == 0.0 and game.single_deal is False


def test_a_fresh_environment_holds_the_match_about_to_start() -> None:
    for players, rules in [(2, "tunisian"), (3, "cardrulesplus"), (4, "tunisian")]:
        game = raw_env(players=players, rules=rules, render_mode="ansi")
        assert game.match_state == new_match(players, rules=profile(rules))
        assert game.match_state.players == players
        assert game.position.pending is None
        board = game.render()
        assert board is not None and board.startswith(f"Chkobba: {players} players")


def test_raw_env_pays_no_deal_reward_by_default() -> None:
    # A match to one point ends with its first deal: only the match's +1 and -1.
    game = raw_env(rules=ONE_POINT)
    game.reset(seed=0)
    seen = _play_out(game)
    state = game.match_state
    assert state.is_over and len(state.deal_scores) == 1
    assert state.deal_scores[0].points[0] != state.deal_scores[0].points[1]
    final = {agent: reward for agent, reward, done in seen if done}
    winner = f"player_{state.winner}"
    assert final == {agent: 1.0 if agent == winner else -1.0 for agent in game.possible_agents}
    assert all(reward == 0.0 for _, reward, done in seen if not done)


# --- EzPickle's record of the arguments ------------------------------------------------


def test_ezpickle_records_every_constructor_argument() -> None:
    # EzPickle is the Gymnasium way to rebuild a fresh environment from its arguments
    # (pickle and deepcopy of raw_env keep the episode instead, through __getstate__).
    game = raw_env(3, "ansi", True, "cardrulesplus", deal_reward=0.5)
    state = EzPickle.__getstate__(game)
    assert state == {
        "_ezpickle_args": (3, "ansi", True, "cardrulesplus"),
        "_ezpickle_kwargs": {"deal_reward": 0.5},
    }
    fresh = raw_env.__new__(raw_env)
    EzPickle.__setstate__(fresh, state)
    assert (fresh.players, fresh.render_mode, fresh.single_deal) == (3, "ansi", True)
    assert (fresh.rules, fresh.deal_reward) == (profile("cardrulesplus"), 0.5)


# --- spaces ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rules"), [(2, "tunisian"), (3, "cardrulesplus")])
def test_the_spaces_are_float32_observations_and_an_int8_mask_of_0_and_1(
    players: int, rules: str
) -> None:
    game = raw_env(players=players, rules=rules)
    actions = int(game.action_space("player_0").n)
    for agent in game.possible_agents:
        space = game.observation_space(agent)
        observation, mask = space["observation"], space["action_mask"]
        assert observation.dtype == np.float32
        assert observation.low.dtype == observation.high.dtype == np.float32
        assert mask.dtype == np.int8 and mask.shape == (actions,)
        assert (mask.low == 0).all() and (mask.high == 1).all()
        assert mask.low.dtype == mask.high.dtype == np.int8


def test_building_the_environment_warns_of_nothing() -> None:
    # Bounds in float64 would make Gymnasium's Box warn that their precision is lowered.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for players, rules in [(2, "tunisian"), (3, "cardrulesplus"), (4, "tunisian")]:
            env(players=players, rules=rules)
            raw_env(players=players, rules=rules, single_deal=True, deal_reward=0.5)


# --- refusals and warnings -------------------------------------------------------------


def test_a_render_mode_refused_is_quoted() -> None:
    assert refusal(lambda: raw_env(render_mode="rgb_array")) == (
        "render_mode must be None, 'human' or 'ansi', not 'rgb_array'"
    )
    assert refusal(lambda: raw_env(render_mode="")) == (
        "render_mode must be None, 'human' or 'ansi', not ''"
    )


def test_an_unknown_agent_is_refused_with_every_agent_listed() -> None:
    game = raw_env()
    game.reset(seed=1)
    assert refusal(lambda: game.observe("player_9")) == (
        "observe: 'player_9' is not an agent of this game (player_0, player_1)"
    )
    three = raw_env(players=3, rules="cardrulesplus")
    assert refusal(lambda: three.action_space("x")) == (
        "action_space: 'x' is not an agent of this game (player_0, player_1, player_2)"
    )


def test_render_without_a_render_mode_warns_in_so_many_words() -> None:
    game = raw_env()
    game.reset(seed=1)
    with pytest.warns(UserWarning) as caught:
        assert game.render() is None
    assert len(caught) == 1
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(caught[0].message))  # Gymnasium's colours
    assert text == "WARN: render() was called without a render_mode"


# --- resets ----------------------------------------------------------------------------


def test_the_first_reset_without_a_seed_draws_a_generator() -> None:
    game = raw_env()
    game.reset()
    assert isinstance(game.np_random, np.random.Generator)
    assert type(game.np_random_seed) is int
    assert game.agent_selection in game.possible_agents and game.last()[2] is False


def test_a_reset_without_a_seed_continues_the_generator() -> None:
    one, other = raw_env(players=4), raw_env(players=4)
    for game in (one, other):
        game.reset(seed=5)
        game.reset()
        assert game.np_random_seed == 5
    assert one.position == other.position
    assert one.np_random is not None and other.np_random is not None
    assert one.np_random.bit_generator.state == other.np_random.bit_generator.state
    fresh = raw_env(players=4)
    fresh.reset(seed=5)
    assert one.position != fresh.position  # the second episode, not the first again


def test_every_reward_is_zero_right_after_a_reset() -> None:
    game = raw_env(players=4)
    game.reset(seed=2)
    assert game.rewards == dict.fromkeys(game.possible_agents, 0.0)
    assert game.last()[1] == 0.0
    _play_out(game)
    game.reset(seed=3)
    assert game.rewards == dict.fromkeys(game.possible_agents, 0.0)
    assert all(type(reward) is float for reward in game.rewards.values())


# --- who is selected -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_the_cutter_at_the_dealers_right_is_selected_after_a_reset(players: int) -> None:
    game = raw_env(players=players)
    for dealer in range(players):
        game.reset(seed=1, options={"dealer": dealer})
        assert game.agent_selection == f"player_{(dealer + 1) % players}"


def test_the_agent_selected_is_always_the_player_to_move() -> None:
    game = raw_env(players=4, single_deal=True)
    game.reset(seed=6, options={"dealer": 0})
    acted = set()
    for agent in game.agent_iter():
        _, _, terminated, _, _ = game.last()
        if terminated:
            game.step(None)
            continue
        assert agent == f"player_{game.match_state.current_player}"
        assert game.observe(agent)["action_mask"].any()
        acted.add(agent)
        game.step(_first_legal(game, agent))
    assert acted == set(game.possible_agents)


@pytest.mark.parametrize("players", [2, 4])
def test_the_done_agents_step_none_from_player_0_on(players: int) -> None:
    game = raw_env(players=players, single_deal=True)
    game.reset(seed=4, options={"dealer": 0})
    seen = _play_out(game)
    done = [agent for agent, _, finished in seen if finished]
    assert done == game.possible_agents
    assert game.agents == []
