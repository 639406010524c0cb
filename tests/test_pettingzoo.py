"""The PettingZoo AEC adapter (chkobba.pettingzoo); skipped without the pettingzoo extra."""

from __future__ import annotations

import copy
import pickle
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import pettingzoo  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402
from pettingzoo.utils import conversions, wrappers  # noqa: E402

from chkobba import DECK, ChkobbaError, IllegalMoveError, Phase, observe  # noqa: E402
from chkobba.actions import EXPOSE, KEEP, NUM_ACTIONS, legal_actions  # noqa: E402
from chkobba.observations import observation_vector, piece  # noqa: E402
from chkobba.pettingzoo import ENV_ID, env, raw_env  # noqa: E402


class _OffsetSeeds(raw_env):  # type: ignore[misc]
    """The real environment, with every seed shifted: api_test always seeds 0 first."""

    offset = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=None if seed is None else seed + self.offset, options=options)


def _api_env(players: int, seed: int, single_deal: bool) -> Any:
    raw = _OffsetSeeds(players, single_deal=single_deal)
    raw.offset = seed
    for i, agent in enumerate(raw.possible_agents):
        raw.action_space(agent).seed(seed * 10 + i)  # vary the sampled actions too
    return wrappers.OrderEnforcingWrapper(raw)


@pytest.mark.parametrize("players", [2, 4])
def test_api_test_over_fifty_seeds(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    # One-deal episodes keep this fast; every fifth seed plays a whole match.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice (e.g. unbounded score boxes)
        for seed in range(50):
            api_test(_api_env(players, seed, single_deal=seed % 5 != 0), num_cycles=600)
    assert capsys.readouterr().out.count("Passed API test") == 50


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("single_deal", [False, True])
def test_seed_test(players: int, single_deal: bool) -> None:
    seed_test(lambda: env(players, single_deal=single_deal), num_cycles=300)


def test_registered_with_pettingzoo() -> None:
    assert ENV_ID == "chkobba/chkobba-v0"
    assert ENV_ID in pettingzoo.aec_registry
    made = pettingzoo.make("aec", ENV_ID, players=4)
    made.reset(seed=1)
    assert made.possible_agents == ["player_0", "player_1", "player_2", "player_3"]


def _play(game: Any, choose: Any) -> list[str]:
    """Step through an episode; returns the agents in the order they acted."""
    acted = []
    for agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        acted.append(agent)
        game.step(choose(agent, observation))
    return acted


def _random_choice(game: Any) -> Any:
    return lambda agent, observation: game.action_space(agent).sample(observation["action_mask"])


def _episode_totals(game: Any) -> dict[str, float]:
    """Play the episode out with random legal actions; each agent's summed rewards."""
    totals = dict.fromkeys(game.unwrapped.possible_agents, 0.0)
    for agent in game.agent_iter():
        _, reward, terminated, _, _ = game.last()
        totals[agent] += reward
        game.step(None if terminated else _random_choice(game)(agent, game.observe(agent)))
    return totals


def test_masks_are_the_legal_actions_and_observations_are_the_views() -> None:
    game = env(players=4)
    game.reset(seed=11)
    raw = game.unwrapped
    checked = 0
    for agent in game.agent_iter():
        observation, _, terminated, _, _ = game.last()
        if terminated:
            game.step(None)
            continue
        position = raw.position
        assert np.flatnonzero(observation["action_mask"]).tolist() == list(legal_actions(position))
        for other in raw.possible_agents:
            seen = raw.observe(other)
            player = raw.possible_agents.index(other)
            expected = observation_vector(observe(position.state, player), position.pending)
            assert seen["observation"].tolist() == pytest.approx(expected)
            if other != agent:
                assert not seen["action_mask"].any()
            hand = {DECK[i] for i in np.flatnonzero(piece(seen["observation"], "hand"))}
            assert hand == set(position.state.hands[player])
        checked += 1
        game.step(game.action_space(agent).sample(observation["action_mask"]))
    assert checked > 100


def test_match_rewards_are_plus_and_minus_one_by_side() -> None:
    for players in (2, 4):
        game = env(players=players)
        game.reset(seed=5)
        raw = game.unwrapped
        totals = _episode_totals(game)
        state = raw.match_state
        assert state.phase is Phase.OVER
        for player, agent in enumerate(raw.possible_agents):
            assert totals[agent] == (1.0 if player % 2 == state.winner else -1.0)
        assert sum(totals.values()) == 0


def test_every_reward_is_a_float_after_every_step() -> None:
    # AECEnv's own _clear_rewards writes the int 0; a learner may check the type.
    game = env(players=2, deal_reward=0.1)
    game.reset(seed=3)
    raw = game.unwrapped
    steps = 0
    for agent in game.agent_iter():
        _, reward, terminated, _, _ = game.last()
        assert type(reward) is float
        game.step(None if terminated else _random_choice(game)(agent, game.observe(agent)))
        steps += 1
        kinds = {
            type(value) for value in (*raw.rewards.values(), *raw._cumulative_rewards.values())
        }
        assert kinds <= {float}, (steps, raw.rewards)
    assert steps > 36


@pytest.mark.parametrize(
    ("players", "rules"), [(2, "tunisian"), (3, "cardrulesplus"), (4, "tunisian")]
)
def test_deal_rewards_pay_each_deals_points_difference(players: int, rules: str) -> None:
    game = env(players=players, rules=rules, deal_reward=0.25)
    game.reset(seed=11)
    raw = game.unwrapped
    totals = _episode_totals(game)
    state = raw.match_state
    assert state.is_over and len(state.deal_scores) > 1
    sides = state.sides
    for player, agent in enumerate(raw.possible_agents):
        side = player % sides
        margins = [
            score.points[side] - (sum(score.points) - score.points[side]) / (sides - 1)
            for score in state.deal_scores
        ]
        final = 1.0 if side == state.winner else -1.0 / (sides - 1)
        assert totals[agent] == pytest.approx(final + 0.25 * sum(margins))
    assert sum(totals.values()) == pytest.approx(0.0)


def test_single_deal_episodes_ignore_deal_rewards() -> None:
    shaped, plain = env(single_deal=True, deal_reward=3.0), env(single_deal=True)
    for game in (shaped, plain):
        game.reset(seed=9)
        for agent in game.agent_iter():
            _, _, terminated, _, _ = game.last()
            game.step(None if terminated else _random_choice(game)(agent, game.observe(agent)))
    assert shaped.unwrapped.rewards == plain.unwrapped.rewards


@pytest.mark.parametrize("bad", ["1", None, float("nan"), float("inf"), True])
def test_a_bad_deal_reward_is_refused(bad: object) -> None:
    with pytest.raises(ChkobbaError, match="deal_reward must be a finite number"):
        raw_env(deal_reward=bad)  # type: ignore[arg-type]


def test_single_deal_rewards_are_the_point_difference() -> None:
    game = env(players=2, single_deal=True)
    game.reset(seed=9)
    rewards: dict[str, float] = {}
    for agent in game.agent_iter():
        _, reward, terminated, _, info = game.last()
        if terminated:
            rewards[agent] = reward
            assert tuple(info["scores"].tolist()) == game.unwrapped.match_state.scores
        game.step(None if terminated else _random_choice(game)(agent, game.observe(agent)))
    points = game.unwrapped.match_state.deal_scores[0].points
    assert len(game.unwrapped.match_state.deal_scores) == 1
    assert rewards == {"player_0": points[0] - points[1], "player_1": points[1] - points[0]}


def test_reset_options_choose_the_dealer_and_the_episode() -> None:
    game = env(players=4, single_deal=False)
    game.reset(seed=2, options={"dealer": 3, "single_deal": True})
    assert game.unwrapped.match_state.dealer == 3
    assert game.agent_selection == "player_0"  # the cutter sits at the dealer's right
    _play(game, _random_choice(game))
    assert len(game.unwrapped.match_state.deal_scores) == 1


def test_a_numpy_integer_chooses_the_dealer() -> None:
    # A dealer drawn with numpy (rng.integers) is an integer like any other.
    game = raw_env(players=4)
    game.reset(seed=0, options={"dealer": np.int64(3)})
    assert game.match_state.dealer == 3
    for bad in (True, np.True_, 1.0):
        with pytest.raises(ChkobbaError, match="dealer"):
            game.reset(options={"dealer": bad})


def test_a_numpy_integer_sets_the_player_count() -> None:
    game = raw_env(players=np.int64(4))  # type: ignore[arg-type]
    assert type(game.players) is int and game.players == 4
    game.reset(seed=0)
    assert len(game.agents) == 4
    for bad in (np.True_, 4.0):
        with pytest.raises(ChkobbaError, match="players"):
            raw_env(players=bad)  # type: ignore[arg-type]


def test_the_same_seed_replays_the_same_episode() -> None:
    def trace(seed: int) -> list[Any]:
        game = env(players=2, single_deal=True)
        game.reset(seed=seed)
        seen: list[Any] = []

        def first_legal(agent: str, observation: dict[str, Any]) -> int:
            seen.append(observation["observation"].tobytes())
            return int(np.flatnonzero(observation["action_mask"])[0])

        _play(game, first_legal)
        return seen

    assert trace(4) == trace(4)
    assert trace(4) != trace(5)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    game = env(players=2)
    game.reset(seed=3)
    before = game.unwrapped.position
    for action in (0, NUM_ACTIONS, -1):
        with pytest.raises(IllegalMoveError):
            game.step(action)
    assert game.unwrapped.position is before
    game.step(np.int64(EXPOSE))
    assert game.unwrapped.match_state.phase is Phase.PLAY
    with pytest.raises(IllegalMoveError, match="Cut is not allowed in phase PLAY"):
        game.step(KEEP)
    with pytest.raises(ValueError, match="must act"):
        game.step(None)


def test_render_modes() -> None:
    game = env(players=2, render_mode="ansi")
    game.reset(seed=1)
    text = game.render()
    assert text.startswith("Chkobba: 2 players") and "Turn" in text
    quiet = env(players=2)
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert quiet.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="2 or 4 players"):
        raw_env(players=3)


def test_environments_pickle() -> None:
    game = raw_env(players=4, single_deal=True)
    copy = pickle.loads(pickle.dumps(game))
    assert (copy.players, copy.single_deal) == (4, True)
    copy.reset(seed=2)
    game.reset(seed=2)
    assert copy.match_state == game.match_state


def test_human_render_prints(capsys: pytest.CaptureFixture[str]) -> None:
    game = env(players=2, render_mode="human")
    game.reset(seed=1)
    game.step(KEEP)
    assert "Chkobba: 2 players" in capsys.readouterr().out


def test_unknown_agents_are_named_with_the_real_ones() -> None:
    game = raw_env()
    game.reset(seed=1)
    with pytest.raises(ChkobbaError, match=r"observe: 'player_9' is not an agent .*player_1"):
        game.observe("player_9")
    with pytest.raises(ChkobbaError, match="observation_space: 'x' is not an agent"):
        game.observation_space("x")
    with pytest.raises(ChkobbaError, match=r"action_space: \[1\] is not an agent"):
        game.action_space([1])  # type: ignore[arg-type]


def test_a_huge_or_boolean_action_is_refused_and_named() -> None:
    game = raw_env()
    game.reset(seed=1)
    before = game.position
    with pytest.raises(IllegalMoveError, match="an integer of about 5001 digits"):
        game.step(10**5000)
    with pytest.raises(IllegalMoveError, match="action True is not an integer id"):
        game.step(True)
    assert game.position is before


def test_raw_env_before_reset_and_after_the_episode_says_call_reset() -> None:
    # The audit's case: AttributeError ('agent_selection') before the first reset, and
    # KeyError ('player_0') from step and last once every agent was done.
    game = raw_env(single_deal=True)
    for name, call in [
        ("step", lambda: game.step(KEEP)),
        ("observe", lambda: game.observe("player_0")),
        ("last", lambda: game.last()),
        ("agent_iter", lambda: next(iter(game.agent_iter()))),
    ]:
        with pytest.raises(ChkobbaError, match=f"^{name}: no episode has started: call reset"):
            call()
    game.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            with pytest.raises(
                ChkobbaError, match=r"player_\d is done: its only valid action is None, not 5"
            ):
                game.step(5)
            game.step(None)
        else:
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert game.agents == [] and list(game.agent_iter()) == []
    finished = game.position
    for call in (lambda: game.step(None), lambda: game.step(3), lambda: game.last()):
        with pytest.raises(ChkobbaError, match=r"the episode is over .*: call reset\(\)"):
            call()
    assert game.position is finished and game.observe("player_1")["action_mask"].sum() == 0
    game.reset(seed=4)
    assert game.last()[2] is False


@pytest.mark.parametrize("options", ["single_deal", [1]])
def test_reset_options_must_be_a_dict(options: object) -> None:
    with pytest.raises(ChkobbaError, match="options must be a dict or None"):
        raw_env().reset(options=options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("players", "rules"), [(2, "tunisian"), (3, "cardrulesplus"), (4, "tunisian")]
)
def test_the_turn_based_parallel_conversion_passes_parallel_api_test(
    players: int, rules: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # One agent acts at a time (twice in a row in a two-step play): aec_to_parallel
    # refuses the environment, turn_based_aec_to_parallel applies the acting agent's action.
    with pytest.raises(AssertionError, match="is_parallelizable"):
        conversions.aec_to_parallel(env(players=players, rules=rules))
    parallel_api_test(
        conversions.turn_based_aec_to_parallel(env(players=players, rules=rules)), num_cycles=2000
    )
    game = conversions.turn_based_aec_to_parallel(env(players=players, rules=rules))
    observations, _ = game.reset(seed=1)
    returns = dict.fromkeys(game.possible_agents, 0.0)
    while game.agents:
        actions = {
            agent: int(np.flatnonzero(seen["action_mask"])[0])
            for agent, seen in observations.items()
            if seen["action_mask"].any()
        }
        observations, rewards, _, _, _ = game.step(actions)
        for agent, reward in rewards.items():
            returns[agent] += reward
    assert sum(returns.values()) == pytest.approx(0) and max(returns.values()) == 1


# --- a refused reset changes nothing ---------------------------------------------------


def _everything(game: Any) -> tuple[Any, ...]:
    """What a reset may change: the episode, every agent's dicts, the generator, the mode."""
    return (
        game.single_deal,
        game._episode_single_deal,
        game.position,
        game.np_random.bit_generator.state,
        game.np_random_seed,
        game.agent_selection,
        game.agents,
        game.rewards,
        game._cumulative_rewards,
        game.terminations,
        game.truncations,
        game.infos,
    )


def _first_legal_trace(game: Any) -> list[Any]:
    """The rest of the episode with the first legal action: every agent's last()."""
    seen: list[Any] = []

    def first_legal(agent: str, observation: dict[str, Any]) -> int:
        seen.append((agent, observation["observation"].tobytes(), game.rewards[agent]))
        return int(np.flatnonzero(observation["action_mask"])[0])

    _play(game, first_legal)
    return [*seen, game.rewards, game.position]


@pytest.mark.parametrize(
    ("seed", "options", "message"),
    [
        (None, {"single_deal": True, "dealer": 7}, "dealer must be a player from 0 to 1"),
        (5, {"single_deal": True, "dealer": 7}, "dealer must be a player from 0 to 1"),
        (5, {"dealer": 1, "single_deal": "no"}, "the single_deal option must be True or False"),
        (-1, {"single_deal": True}, "seed must be None or an integer >= 0, not -1"),
    ],
)
def test_a_refused_reset_changes_nothing(
    seed: int | None, options: dict[str, Any], message: str
) -> None:
    # The fuzz audit's case: the refused reset had set single_deal for this very episode.
    game = raw_env()
    game.reset(seed=3)
    game.step(KEEP)
    untouched, before = copy.deepcopy(game), copy.deepcopy(_everything(game))
    with pytest.raises(ChkobbaError, match=message):
        game.reset(seed=seed, options=options)
    assert _everything(game) == before
    assert _first_legal_trace(game) == _first_legal_trace(untouched)


@pytest.mark.parametrize("bad", [-1, 1.5, "x", True, np.float64(2.0)])
def test_a_bad_seed_is_a_chkobba_error(bad: object) -> None:
    # Gymnasium's seeding raises gymnasium.error.Error, which is no ValueError.
    with pytest.raises(ChkobbaError, match="reset: seed must be None or an integer >= 0, not"):
        raw_env().reset(seed=bad)  # type: ignore[arg-type]


def test_a_numpy_integer_is_a_seed() -> None:
    one, other = raw_env(), raw_env()
    one.reset(seed=np.int64(5))
    other.reset(seed=5)
    assert one.position == other.position and one.np_random_seed == 5


@pytest.mark.parametrize("bad", ["no", "False", None, 2, 0.0, 1.0])
def test_single_deal_is_a_boolean_not_any_truthy_value(bad: object) -> None:
    with pytest.raises(ChkobbaError, match=r"^single_deal must be True or False, not "):
        env(single_deal=bad)  # type: ignore[arg-type]
    game = raw_env()
    with pytest.raises(ChkobbaError, match="the single_deal option must be True or False, not "):
        game.reset(seed=1, options={"single_deal": bad})
    assert game.single_deal is False


def test_single_deal_takes_numpy_booleans_and_zero_and_one() -> None:
    with pytest.raises(ChkobbaError, match="single_deal must be True or False, not 'no'"):
        raw_env(single_deal="no")  # type: ignore[arg-type]
    for value, meant in [(np.True_, True), (np.False_, False), (1, True), (0, False)]:
        game = raw_env(single_deal=value)
        assert game.single_deal is meant
        game.reset(seed=1, options={"single_deal": np.int64(1 - meant)})
        assert game.single_deal is game._episode_single_deal is (not meant)


@pytest.mark.parametrize(("target", "ended"), [(21, False), (1, True)])
def test_after_a_single_deal_the_winner_is_minus_1_unless_the_deal_reached_the_target(
    target: int, ended: bool
) -> None:
    """As docs/adapters.md says (a review of 2026-12-06 found it said -1 always)."""
    import attrs

    from chkobba import TUNISIAN

    game = raw_env(single_deal=True, rules=attrs.evolve(TUNISIAN, target=target))
    game.reset(seed=0)
    for _agent in game.agent_iter():
        observation, _, terminated, _, info = game.last()
        if terminated:
            state = game.match_state
            assert state.winner is not None if ended else state.winner is None
            assert info["winner"] == (state.winner if ended else -1)
            assert info["scores"].tolist() == list(state.scores)
            break
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))
    else:
        raise AssertionError("the episode did not end")
