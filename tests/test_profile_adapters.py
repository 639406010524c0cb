"""Actions, observations, rewards and the PettingZoo and OpenSpiel adapters under every
profile and player count (the profiles issue, #9)."""

from __future__ import annotations

import random
import warnings
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import CARD_RULES_PLUS, TUNISIAN, ChkobbaError, Rules, new_match, observe
from chkobba.actions import (
    FIRST_CAPTURE,
    NUM_ACTIONS,
    Position,
    capture_choices,
    legal_actions,
    max_capture_options,
    num_actions,
    step,
)
from chkobba.observations import observation_bounds, observation_vector, piece, player_returns
from tests.helpers import random_history, whole_match
from tests.strategies import examples, rule_profiles


def test_the_tunisian_action_space_is_unchanged() -> None:
    assert max_capture_options(TUNISIAN) == 28 and num_actions(TUNISIAN) == NUM_ACTIONS == 70
    assert max_capture_options(CARD_RULES_PLUS) >= 28
    with pytest.raises(ChkobbaError, match="must be a Rules profile"):
        max_capture_options("tunisian")  # type: ignore[arg-type]


def test_a_free_choice_adds_the_singles_to_the_sums() -> None:
    free = attrs.evolve(TUNISIAN, equal_single_first=False)
    assert max_capture_options(free) > max_capture_options(TUNISIAN)
    assert max_capture_options(Rules(capture_values=(1,) * 10)) == 4  # four equal singles


@settings(max_examples=examples(30), deadline=None)
@given(rule_profiles(), st.integers(0, 2**32 - 1))
def test_every_capture_choice_has_an_id(rules: Rules, seed: int) -> None:
    players = random.Random(seed).choice(rules.players)
    states, _ = random_history(seed, players, rules=rules, max_moves=400)
    most = max_capture_options(rules)
    for state in states:
        if state.current_player is None or state.phase.name != "PLAY":
            continue
        position = Position(state)
        for played in state.hands[state.current_player]:
            assert len(capture_choices(state, played)) <= most
        for action in legal_actions(position):
            after = step(position, action)
            assert all(a < num_actions(rules) for a in legal_actions(after))


def test_three_player_observations_see_every_side() -> None:
    states, _ = whole_match(4, 3, rules=CARD_RULES_PLUS)
    low, high = observation_bounds(CARD_RULES_PLUS)
    for state in states[1::5]:
        for player in range(3):
            vector = observation_vector(observe(state, player))
            assert all(lo <= x <= hi for lo, x, hi in zip(low, vector, high, strict=True))
            assert piece(vector, "three_players") == [1.0]
            for name, side in (("our_pile", 0), ("their_pile", 1), ("third_pile", 2)):
                owner = (player + side) % 3
                bits = piece(vector, name)
                assert {i for i, bit in enumerate(bits) if bit} == {
                    c.index for c in state.captured[owner]
                }
            assert piece(vector, "third_score") == [state.scores[(player + 2) % 3] / 11]
    final = states[-1]
    for player in range(3):
        vector = observation_vector(observe(final, player))
        won = [piece(vector, "winner")[0], piece(vector, "winner")[1], *piece(vector, "third_won")]
        assert won.index(1.0) == (final.winner - player) % 3  # type: ignore[operator]


def test_two_sides_leave_the_third_side_pieces_empty() -> None:
    states, _ = random_history(4, 4, rules=CARD_RULES_PLUS)
    for state in states[::9]:
        vector = observation_vector(observe(state, 1))
        for name in ("three_players", "third_pile", "third_chkobbas", "third_score", "third_won"):
            assert not any(piece(vector, name)), name


def test_returns_are_zero_sum_for_every_player_count() -> None:
    for players in (2, 3, 4):
        states, _ = whole_match(players, players, rules=CARD_RULES_PLUS)
        final = states[-1]
        match = player_returns(final)
        assert sum(match) == pytest.approx(0.0)
        assert max(match) == 1.0
        assert [r == 1.0 for r in match] == [
            final.side_of(p) == final.winner for p in range(players)
        ]
        deal = player_returns(final, single_deal=True)
        assert sum(deal) == pytest.approx(0.0)
    assert player_returns(new_match(3, rules=CARD_RULES_PLUS)) == (0.0, 0.0, 0.0)


def test_two_side_deal_returns_are_the_point_difference() -> None:
    states, _ = whole_match(8, 2)
    final = states[-1]
    points = final.deal_scores[-1].points
    assert player_returns(final, single_deal=True) == (
        points[0] - points[1],
        points[1] - points[0],
    )


# --- PettingZoo ------------------------------------------------------------------------


def _pettingzoo() -> Any:
    pytest.importorskip("pettingzoo")
    import chkobba.pettingzoo

    return chkobba.pettingzoo


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test_card_rules_plus(
    players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    adapter = _pettingzoo()
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice (e.g. unbounded score boxes)
        for seed in range(6):
            game = adapter.env(players, single_deal=seed != 0, rules="cardrulesplus")
            api_test(game, num_cycles=400)
    assert capsys.readouterr().out.count("Passed API test") == 6


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_seed_test_card_rules_plus(players: int) -> None:
    adapter = _pettingzoo()
    from pettingzoo.test import seed_test

    seed_test(lambda: adapter.env(players, rules=CARD_RULES_PLUS), num_cycles=200)


def test_pettingzoo_spaces_follow_the_profile() -> None:
    adapter = _pettingzoo()
    game = adapter.env(3, rules=CARD_RULES_PLUS)
    game.reset(seed=1)
    assert game.action_space("player_2").n == num_actions(CARD_RULES_PLUS)
    assert game.unwrapped.match_state.rules == CARD_RULES_PLUS
    assert len(game.possible_agents) == 3
    with pytest.raises(ChkobbaError, match="2 or 4 players, not 3"):
        adapter.env(3)
    with pytest.raises(ChkobbaError, match="no rule profile is named 'house'"):
        adapter.env(2, rules="house")


def test_pettingzoo_three_player_rewards() -> None:
    adapter = _pettingzoo()
    game = adapter.env(3, rules=CARD_RULES_PLUS)
    game.reset(seed=3)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        action = None if terminated or truncated else _sample(game, agent, observation)
        game.step(action)
    winner = game.unwrapped.match_state.winner
    assert totals == {f"player_{p}": 1.0 if p == winner else -0.5 for p in range(3)}


def _sample(game: Any, agent: str, observation: dict[str, Any]) -> int:
    return int(game.action_space(agent).sample(observation["action_mask"]))


# --- OpenSpiel -------------------------------------------------------------------------


def _load(**params: Any) -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    import chkobba.openspiel

    return pyspiel.load_game(chkobba.openspiel.GAME_NAME, params)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_open_spiel_random_sim_test_card_rules_plus(players: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    one_deal = _load(players=players, rules="cardrulesplus", single_deal=True)
    pyspiel.random_sim_test(one_deal, num_sims=3, serialize=True, verbose=False)
    match = _load(players=players, rules="cardrulesplus")
    pyspiel.random_sim_test(match, num_sims=1, serialize=True, verbose=False)


def test_open_spiel_parameters_choose_the_profile_and_target() -> None:
    game = _load(players=3, rules="cardrulesplus", target=21)
    assert game.rules == attrs.evolve(CARD_RULES_PLUS, target=21)
    assert game.num_distinct_actions() == num_actions(CARD_RULES_PLUS)
    assert _load().rules == TUNISIAN and _load().num_distinct_actions() == NUM_ACTIONS
    assert _load(rules="cardrulesplus").rules == CARD_RULES_PLUS
    assert _load(single_deal=True, rules="cardrulesplus").max_utility() == 2 + 1 + 18
    with pytest.raises(ValueError, match="no rule profile is named 'house'"):
        _load(rules="house")
    for target in (-1, 10_001):  # 0 is the default: the message offers it
        with pytest.raises(ValueError, match=r"target must be 0 \(the profile's\) or 1 to 10000"):
            _load(target=target)
    with pytest.raises(ValueError, match="2 or 4 players, not 3"):
        _load(players=3)


def test_open_spiel_deals_without_a_cut_into_the_information_state() -> None:
    game = _load(players=3, rules="cardrulesplus", single_deal=True)
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        state.apply_action(rng.choice(outcomes))
    table = state.match_state.table
    text = state.information_state_string(state.current_player())
    assert "table " + " ".join(str(c) for c in sorted(table)) in text
    assert state.match_state.phase.name == "PLAY"  # no cut: the first player plays
    assert all(a < FIRST_CAPTURE - 2 for a in state.legal_actions())  # cards, no keep/expose


@pytest.mark.parametrize("players", [2, 3])
def test_the_gymnasium_env_plays_card_rules_plus(players: int) -> None:
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    env = ChkobbaEnv("random", players=players, rules=CARD_RULES_PLUS, features=True)
    assert env.action_space.n == num_actions(CARD_RULES_PLUS)
    rng = random.Random(players)
    for seed in range(3):
        observation, _ = env.reset(seed=seed)
        done = False
        while not done:
            assert env.observation_space.contains(observation)
            action = rng.choice([a for a, ok in enumerate(env.action_masks()) if ok])
            observation, _, done, _, _ = env.step(action)
    assert env.match_state.rules == CARD_RULES_PLUS
