"""The single-agent Gymnasium environment (chkobba.gymnasium); skipped without gymnasium."""

from __future__ import annotations

import copy
import pickle
import warnings
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import gymnasium  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from chkobba import (  # noqa: E402
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    ChkobbaError,
    IllegalMoveError,
    Phase,
    Play,
    card,
    legal_moves,
    observe,
)
from chkobba.actions import (  # noqa: E402
    FIRST_CAPTURE,
    KEEP,
    advance,
    capture_choices,
    legal_actions,
    num_actions,
    render_position,
)
from chkobba.bots import GreedyBot, RandomBot  # noqa: E402
from chkobba.features import FEATURE_SIZE, feature_vector  # noqa: E402
from chkobba.gymnasium import ENV_ID, ChkobbaEnv, deal_info  # noqa: E402
from chkobba.observations import OBSERVATION_SIZE, observation_vector  # noqa: E402
from tests.helpers import dealt  # noqa: E402
from tests.strategies import examples, rule_profiles  # noqa: E402


class _LegalSamples(spaces.Discrete):  # type: ignore[misc]
    """Discrete(70) whose unmasked ``sample()`` draws a legal action of the env's position."""

    def __init__(self, env: ChkobbaEnv) -> None:
        super().__init__(env.action_space.n)
        self.env = env

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        if mask is None and probability is None and self.env.action_masks().any():
            mask = self.env.action_masks().astype(np.int8)
        return super().sample(mask)


def _random_episode(env: Any, seed: int) -> list[tuple[Any, ...]]:
    """Masked random actions from a seeded reset; every (reward, done, info) on the way."""
    _, info = env.reset(seed=seed)
    env.action_space.seed(seed)
    steps, done = [], False
    while not done:
        _, reward, done, truncated, info = env.step(env.action_space.sample(info["action_mask"]))
        assert truncated is False
        steps.append((reward, done, info))
    return steps


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"players": 4, "features": True}, {"single_deal": True, "seat": 1, "opponent": "random"}],
)
def test_check_env_passes(kwargs: dict[str, Any]) -> None:
    # check_env samples actions without masks, one of them before a seeded reset: with
    # illegal_action="terminate" every id is a valid input; the space samples legal ids.
    made = gymnasium.make(ENV_ID, illegal_action="terminate", render_mode="ansi", **kwargs)
    env = made.unwrapped
    env.action_space = _LegalSamples(env)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any checker warning fails the test
        check_env(env, skip_render_check=False)


def test_registered_and_made_through_gymnasium() -> None:
    assert ENV_ID in gymnasium.registry
    env = gymnasium.make(ENV_ID, opponent="random", players=4, illegal_action="terminate")
    assert isinstance(env.unwrapped, ChkobbaEnv) and env.unwrapped.players == 4
    check_env(env.unwrapped)  # renders every mode through the spec


def test_the_observation_space_is_finite_and_holds_every_observation() -> None:
    for features in (False, True):
        env = ChkobbaEnv("random", features=features)
        space = env.observation_space
        assert np.isfinite(space.high).all() and np.isfinite(space.low).all()
        assert space.shape == (OBSERVATION_SIZE + (FEATURE_SIZE if features else 0),)
        observation, info = env.reset(seed=1)
        done = False
        while not done:
            assert observation in space
            observation, _, done, _, info = env.step(env.action_space.sample(info["action_mask"]))
        assert observation in space


def test_masks_and_observations_are_the_learners() -> None:
    env = ChkobbaEnv("greedy", players=4, seat=2, features=True)
    observation, info = env.reset(seed=5)
    done, checked = False, 0
    while not done:
        position = env.position
        assert position.current_player == 2 and info["seat"] == 2 and info["side"] == 0
        legal = list(legal_actions(position))
        assert np.flatnonzero(info["action_mask"]).tolist() == legal
        assert np.flatnonzero(env.action_masks()).tolist() == legal
        view = observe(position.state, 2)
        expected = observation_vector(view, position.pending)
        expected += feature_vector(view, position.pending, legal_moves(position.state))
        assert observation.tolist() == pytest.approx(expected)
        checked += 1
        observation, _, done, _, info = env.step(legal[-1])
    assert checked > 20 and not env.action_masks().any()


def test_features_give_the_table_sum_and_what_each_action_takes() -> None:
    env = ChkobbaEnv("random", features=True, single_deal=True)
    observation, info = env.reset(seed=8)
    done = False
    while not done:
        state, pending = env.position.state, env.position.pending
        extra = observation[OBSERVATION_SIZE:]
        assert extra[0] * 10 == pytest.approx(sum(state.rules.value(c) for c in state.table))
        counts, sweeps = extra[1:71], extra[71:141]
        for action in np.flatnonzero(info["action_mask"]):
            if pending is not None:
                option = capture_choices(state, pending)[action - FIRST_CAPTURE]
                assert counts[action] * 10 == pytest.approx(len(option))
                assert sweeps[action] == (option == frozenset(state.table))
            elif action < len(DECK):
                options = capture_choices(state, DECK[action])
                assert counts[action] * 10 == pytest.approx(max(map(len, options), default=0))
        assert not counts[info["action_mask"] == 0].any()
        observation, _, done, _, info = env.step(env.action_space.sample(info["action_mask"]))


def test_features_of_a_two_step_play() -> None:
    state = dealt(hands=["4C 5C 6C", "QH 2C 3C"], table="2D 6S 3D 5H")
    view, legal = observe(state, 1), legal_moves(state)
    before = feature_vector(view, None, legal)
    assert before[0] == pytest.approx(1.6)  # 2 + 6 + 3 + 5
    assert before[1 + card("QH").index] == pytest.approx(0.2)  # its larger option: 2 cards
    assert before[1 + card("2C").index] == pytest.approx(0.1)  # takes 2D
    assert not any(before[71:])  # nothing sweeps
    during = feature_vector(view, card("QH"), legal)
    counts = during[1:71]
    assert counts[FIRST_CAPTURE] == counts[FIRST_CAPTURE + 1] == pytest.approx(0.2)
    assert sum(1 for value in counts if value) == 2


@pytest.mark.parametrize("bad", ["1", None, float("nan"), float("-inf"), False])
def test_a_bad_deal_reward_is_refused(bad: object) -> None:
    with pytest.raises(ChkobbaError, match="deal_reward must be a finite number"):
        ChkobbaEnv("random", deal_reward=bad)  # type: ignore[arg-type]


def test_numpy_numbers_are_deal_rewards() -> None:
    assert ChkobbaEnv("random", deal_reward=np.float32(0.5)).deal_reward == 0.5
    assert ChkobbaEnv("random", deal_reward=np.int64(2)).deal_reward == 2.0


def test_seats_alternate_and_a_seeded_reset_starts_again() -> None:
    env = ChkobbaEnv("random", players=4)
    seats = [env.reset(seed=1)[1]["seat"]] + [env.reset()[1]["seat"] for _ in range(4)]
    assert seats == [0, 1, 2, 3, 0]
    assert env.reset(seed=9)[1]["seat"] == 0
    assert env.reset(options={"seat": 3})[1]["seat"] == 3
    fixed = ChkobbaEnv("random", seat=1)
    assert {fixed.reset(seed=s)[1]["seat"] for s in range(4)} == {1}
    with pytest.raises(ChkobbaError, match="seat"):
        ChkobbaEnv(seat=2)
    with pytest.raises(ChkobbaError, match="seat option"):
        env.reset(options={"seat": 7})


def test_numpy_integers_choose_the_seat_and_the_dealer() -> None:
    # A seat or a dealer drawn with numpy (rng.integers) is an integer like any other.
    env = ChkobbaEnv("random", seat=np.int64(1))
    assert type(env.seat) is int and env.reset(seed=0)[1]["seat"] == 1
    alternate = ChkobbaEnv("random", players=4)
    _, info = alternate.reset(seed=0, options={"seat": np.int64(2), "dealer": np.int8(3)})
    assert info["seat"] == 2 and alternate.match_state.dealer == 3
    for bad in (True, np.True_, 1.0):
        with pytest.raises(ChkobbaError, match="seat"):
            ChkobbaEnv(seat=bad)  # type: ignore[arg-type]
        with pytest.raises(ChkobbaError, match="seat option"):
            alternate.reset(options={"seat": bad})
        with pytest.raises(ChkobbaError, match="dealer"):
            alternate.reset(options={"dealer": bad})


def test_a_numpy_integer_sets_the_player_count() -> None:
    # A player count read from a numpy array or a config is an integer like any other.
    env = ChkobbaEnv("random", players=np.int64(4))  # type: ignore[arg-type]
    assert type(env.players) is int and env.players == 4
    assert env.reset(seed=0)[0].shape == env.observation_space.shape
    for bad in (np.True_, 4.0, np.float64(2.0)):
        with pytest.raises(ChkobbaError, match="players"):
            ChkobbaEnv("random", players=bad)  # type: ignore[arg-type]


def test_single_deal_persists_across_plain_resets() -> None:
    env = ChkobbaEnv("random")
    env.reset(seed=2, options={"single_deal": True})
    for _ in range(3):
        _random_episode(env, seed=None)  # type: ignore[arg-type]
        assert len(env.match_state.deal_scores) == 1
    env.reset(options={"single_deal": False})
    assert env.single_deal is False


def test_single_deal_reward_is_the_point_difference() -> None:
    env = ChkobbaEnv("greedy", single_deal=True, seat=1)
    for seed in range(3):
        steps = _random_episode(env, seed)
        reward, _, info = steps[-1]
        points = env.match_state.deal_scores[-1].points
        assert reward == points[1] - points[0] == info["deal"]["points"][1] - points[0]
        assert [r for r, _, _ in steps[:-1]] == [0.0] * (len(steps) - 1)


def test_whole_match_rewards_with_and_without_deal_rewards() -> None:
    for scale in (0.0, 0.1):
        env = ChkobbaEnv("random", deal_reward=scale, seat=0)
        steps = _random_episode(env, seed=4)
        state = env.match_state
        assert state.phase is Phase.OVER
        deal_infos = [info["deal"] for _, _, info in steps if "deal" in info]
        assert [str(deal) for deal in deal_infos] == [
            str(deal_info(score)) for score in state.deal_scores
        ]
        assert all(-1 <= deal["cards_winner"] <= 1 for deal in deal_infos)
        margins = sum(s.points[0] - s.points[1] for s in state.deal_scores)
        win = 1.0 if state.winner == 0 else -1.0
        assert sum(r for r, _, _ in steps) == pytest.approx(win + scale * margins)
        final = steps[-1][2]
        assert tuple(final["scores"].tolist()) == state.scores and final["winner"] == state.winner


def test_the_target_comes_from_the_rules() -> None:
    env = ChkobbaEnv("random", rules=attrs.evolve(TUNISIAN, target=5))
    _random_episode(env, seed=3)
    assert env.match_state.is_over and max(env.match_state.scores) >= 5
    assert len(env.match_state.deal_scores) <= 3
    with pytest.raises(ChkobbaError, match="rules must be a Rules profile"):
        ChkobbaEnv(rules=5)  # type: ignore[arg-type]


def test_a_profile_can_be_named_as_in_the_other_adapters() -> None:
    env = ChkobbaEnv("random", players=3, rules="cardrulesplus")
    assert env.rules is CARD_RULES_PLUS and env.action_space.n == num_actions(CARD_RULES_PLUS)
    assert ChkobbaEnv(rules="tunisian").rules is TUNISIAN
    with pytest.raises(ChkobbaError, match="no rule profile is named 'house'"):
        ChkobbaEnv(rules="house")


@pytest.mark.parametrize(
    "opponent", ["greedy", "ismcts:iterations=5", GreedyBot(seed=3), RandomBot(seed=1)]
)
def test_the_same_seed_replays_the_same_episode(opponent: Any) -> None:
    def trace() -> list[Any]:
        env = ChkobbaEnv(opponent, single_deal=True)
        _random_episode(env, seed=11)
        return list(env.match_state.deal_scores)

    assert trace() == trace()


def test_a_policy_callable_is_an_opponent() -> None:
    calls = []

    def lowest(observation: Any, mask: Any) -> int:
        calls.append(observation.shape)
        return int(np.flatnonzero(mask)[0])

    env = ChkobbaEnv(lowest, single_deal=True, features=True)
    _random_episode(env, seed=2)
    assert calls and set(calls) == {(OBSERVATION_SIZE + FEATURE_SIZE,)}
    with pytest.raises(ChkobbaError, match="not a bot"):
        ChkobbaEnv(42)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="not a bot"):
        ChkobbaEnv("nobody")


def test_illegal_actions_raise_or_terminate() -> None:
    env = ChkobbaEnv("random", seat=0, illegal_action="raise")
    _, info = env.reset(seed=3)
    before = env.position
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError):
        env.step(illegal)
    assert env.position is before
    assert ChkobbaEnv("random").illegal_action == "terminate"  # the default (stop 81)
    ending = ChkobbaEnv("random", seat=0)
    ending.reset(seed=3)
    _, reward, done, _, info = ending.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, illegal)
    with pytest.raises(ChkobbaError, match="reset"):
        ending.step(KEEP)
    with pytest.raises(ChkobbaError, match="illegal_action"):
        ChkobbaEnv(illegal_action="ignore")


def test_deepcopy_and_pickle_keep_the_episode() -> None:
    env = ChkobbaEnv("greedy", single_deal=True)
    _, info = env.reset(seed=6)
    for _ in range(5):
        _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    for clone in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert clone.position == env.position and clone.learner == env.learner

        def finish(e: ChkobbaEnv, info: dict[str, Any]) -> Any:
            done = False
            while not done:
                _, reward, done, _, info = e.step(int(np.flatnonzero(info["action_mask"])[-1]))
            return reward, e.match_state

        assert finish(clone, dict(info)) == finish(copy.deepcopy(env), dict(info))


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = ChkobbaEnv("random", render_mode="ansi")
    env.reset(seed=1)
    assert env.render().startswith("Chkobba: 2 players")  # type: ignore[union-attr]
    human = ChkobbaEnv("random", render_mode="human")
    _, info = human.reset(seed=1)
    human.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "Chkobba: 2 players" in capsys.readouterr().out
    with pytest.raises(ChkobbaError, match="render_mode"):
        ChkobbaEnv(render_mode="rgb_array")


def test_stable_baselines3_make_vec_env_falls_back_without_a_render_mode() -> None:
    # SB3's make_vec_env(env_id) asks for render_mode="rgb_array" and makes the env
    # again without it on a TypeError (what it takes for "no such render mode"). The
    # refusal stays a ChkobbaError, so it is a ValueError too.
    def make_vec_env_one(env_id: str, env_kwargs: dict[str, Any]) -> Any:
        kwargs = {"render_mode": "rgb_array", **env_kwargs}
        try:
            return gymnasium.make(env_id, **kwargs)
        except TypeError:
            return gymnasium.make(env_id, **env_kwargs)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gymnasium.make warns of the unknown mode first
        env = make_vec_env_one(ENV_ID, {"opponent": "random", "single_deal": True})
    assert env.unwrapped.render_mode is None
    observation, _ = env.reset(seed=0)
    assert observation.shape == (OBSERVATION_SIZE,)
    with pytest.raises(ChkobbaError, match="render_mode") as caught:
        ChkobbaEnv(render_mode="rgb_array")
    assert isinstance(caught.value, TypeError)


def test_a_module_qualified_id_and_the_mask_method_through_wrappers() -> None:
    # "module:id" imports chkobba.gymnasium itself (worker processes, config files);
    # Gymnasium's wrappers do not forward methods: get_wrapper_attr or unwrapped does.
    env = gymnasium.wrappers.RecordEpisodeStatistics(
        gymnasium.make(f"chkobba.gymnasium:{ENV_ID}", opponent="random")
    )
    _, info = env.reset(seed=0)
    mask = info["action_mask"].astype(bool)
    assert (env.get_wrapper_attr("action_masks")() == mask).all()
    assert (env.unwrapped.action_masks() == mask).all()
    with pytest.raises(AttributeError):
        env.action_masks()


def test_vector_envs_keep_single_deals() -> None:
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: ChkobbaEnv("random", single_deal=True) for _ in range(2)]
    )
    _, info = envs.reset(seed=0)
    finished = 0
    for _ in range(200):
        masks = info["action_mask"]
        actions = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in masks]
        _, _, done, _, info = envs.step(np.array(actions))
        finished += int(done.sum())
    assert finished >= 4
    for env in envs.envs:
        assert env.single_deal and len(env.match_state.deal_scores) <= 1


@settings(max_examples=examples(15), deadline=None)
@given(rule_profiles(players=[2]), st.integers(0, 2**16))
def test_every_profile_runs_with_a_policy_opponent_of_its_action_space(
    rules: Any, seed: int
) -> None:
    sizes: set[int] = set()

    def lowest(observation: Any, mask: Any) -> int:
        sizes.add(len(mask))
        return int(np.flatnonzero(mask)[0])

    env = ChkobbaEnv(lowest, rules=rules, single_deal=True, features=True)
    steps = _random_episode(env, seed)
    assert steps[-1][1] and env.action_space.n == num_actions(rules)
    assert sizes <= {num_actions(rules)} and len(env.match_state.deal_scores) == 1


@pytest.mark.parametrize("mode", ["raise", "terminate"])
@pytest.mark.parametrize("action", ["abc", None, [1], float("nan"), float("inf"), True, 3.0])
def test_an_action_that_is_not_an_integer_is_refused_in_every_mode(
    mode: str, action: object
) -> None:
    env = ChkobbaEnv("random", illegal_action=mode)
    env.reset(seed=1)
    before = env.position
    with pytest.raises(ChkobbaError, match="is not an integer id") as raised:
        env.step(action)
    assert type(raised.value) is ChkobbaError  # not an illegal move: the episode goes on
    assert env.position is before
    env.step(np.int64(np.flatnonzero(env.action_masks())[0]))  # the episode goes on


def test_a_huge_action_follows_the_illegal_action_mode() -> None:
    env = ChkobbaEnv("random", illegal_action="raise")
    env.reset(seed=1)
    with pytest.raises(IllegalMoveError, match="an integer of about 5001 digits"):
        env.step(10**5000)
    ending = ChkobbaEnv("random")
    ending.reset(seed=1)
    _, reward, done, _, info = ending.step(10**5000)
    assert (reward, done, info["illegal_action"] == 10**5000) == (-1.0, True, True)


@pytest.mark.parametrize("options", ["single_deal", [1]])
def test_reset_options_must_be_a_dict(options: object) -> None:
    env = ChkobbaEnv("random")
    with pytest.raises(ChkobbaError, match="options must be a dict or None"):
        env.reset(options=options)  # type: ignore[arg-type]


def test_human_rendering_prints_each_board_once(capsys: pytest.CaptureFixture[str]) -> None:
    env = ChkobbaEnv("random", render_mode="human")
    _, info = env.reset(seed=1)
    # The reset shows the opening board too, as Gymnasium's environments do (the audit
    # of an RL user's flows found that it showed nothing until the first step).
    opening = capsys.readouterr().out
    assert opening == render_position(env.position) + "\n"
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    out = capsys.readouterr().out
    assert out.count("Chkobba: 2 players") == 1
    assert "None" not in out.splitlines()


@pytest.mark.parametrize(
    ("kwargs", "lowest"),
    [
        ({"single_deal": True}, -22.0),
        ({"single_deal": True, "players": 4}, -22.0),
        ({"single_deal": True, "rules": CARD_RULES_PLUS}, -21.0),
        ({"single_deal": True, "rules": CARD_RULES_PLUS, "players": 3}, -15.0),
        ({}, -1.0),
        ({"deal_reward": 0.5}, -12.0),
        ({"deal_reward": -0.5}, -12.0),
    ],
)
def test_an_illegal_action_gets_the_lowest_reward_a_step_can_give(
    kwargs: dict[str, Any], lowest: float
) -> None:
    # A single deal used to end at -1 on an illegal id while a legal deal can end at -22
    # (a legal deal against greedy averaged about -2): forfeiting paid. Now the penalty
    # is the bottom of reward_range, which a legal deal reaches (test_openspiel plays one).
    env = ChkobbaEnv("greedy", seat=0, illegal_action="terminate", **kwargs)
    assert env.reward_range == (lowest, -lowest)
    _, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info["illegal_action"]) == (lowest, True, illegal)


def test_every_legal_single_deal_reward_is_within_reward_range() -> None:
    env = ChkobbaEnv("greedy", single_deal=True)
    low, high = env.reward_range
    for seed in range(30):
        _, info = env.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            _, reward, done, _, info = env.step(env.action_space.sample(info["action_mask"]))
        assert low < reward < high


def test_the_reward_range_follows_the_single_deal_reset_option() -> None:
    env = ChkobbaEnv("random", illegal_action="terminate")
    assert env.reward_range == (-1.0, 1.0)
    env.reset(seed=1, options={"single_deal": True})
    assert env.reward_range == (-22.0, 22.0)
    _, reward, _, _, _ = env.step(int(np.flatnonzero(env.action_masks() == 0)[0]))
    assert reward == -22.0
    env.reset(seed=1, options={"single_deal": False})
    assert env.reward_range == (-1.0, 1.0)


def test_the_documented_check_env_call_passes(capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 12: "check_env passes". The plain call on the environment as registered failed
    # on the first illegal sample while the default was illegal_action="raise" (until
    # stop 81); under the default "terminate" it passes, as docs/gymnasium.md shows.
    docs = (Path(__file__).parent.parent / "docs" / "gymnasium.md").read_text(encoding="utf-8")
    shown_call = '>>> env = gymnasium.make("chkobba/Chkobba-v0")\n>>> check_env(env.unwrapped)'
    assert shown_call in docs
    env = gymnasium.make("chkobba/Chkobba-v0")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    assert capsys.readouterr().out.startswith("Chkobba: 2 players, tunisian rules, match to 21")
    with pytest.raises(IllegalMoveError):  # the other mode fails the check, as documented
        check_env(gymnasium.make("chkobba/Chkobba-v0", illegal_action="raise").unwrapped)


# --- a refused reset changes nothing ---------------------------------------------------


def _everything(env: ChkobbaEnv) -> tuple[Any, ...]:
    """What a reset may change: the episode, the generator, the seat rotation, the mode."""
    return (
        env.learner,
        env.single_deal,
        env.position,
        env.np_random.bit_generator.state,
        env.np_random_seed,
        env._next_seat,
        env._done,
        env._deals,
        env.reward_range,
    )


def _play_out(env: ChkobbaEnv, info: dict[str, Any]) -> list[Any]:
    """The rest of the episode with the first legal action: observations and rewards."""
    seen, done = [], False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        observation, reward, done, _, info = env.step(action)
        seen.append((observation.tobytes(), reward, info["seat"]))
    return seen


@pytest.mark.parametrize(
    ("seed", "options", "message"),
    [
        (None, {"single_deal": True, "dealer": 99}, "dealer must be a player from 0 to 1"),
        (7, {"single_deal": True, "dealer": 99}, "dealer must be a player from 0 to 1"),
        (7, {"single_deal": True, "seat": 5}, "the seat option must be 0 to 1, not 5"),
        (7, {"seat": 1, "single_deal": "no"}, "the single_deal option must be True or False"),
        (-1, {"single_deal": True}, "seed must be None or an integer >= 0, not -1"),
    ],
)
def test_a_refused_reset_changes_nothing(
    seed: int | None, options: dict[str, Any], message: str
) -> None:
    # The fuzz audit's case: the refused reset had reseeded, moved the seat rotation and
    # the learner and set single_deal, and the old episode went on for the other seat.
    env = ChkobbaEnv("random", seat="alternate")
    _, info = env.reset(seed=1)
    untouched, before = copy.deepcopy(env), _everything(env)
    with pytest.raises(ChkobbaError, match=message):
        env.reset(seed=seed, options=options)
    assert _everything(env) == before
    assert _play_out(env, dict(info)) == _play_out(untouched, dict(info))


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True, np.float64(2.0), [1]])
def test_a_bad_seed_is_a_chkobba_error(bad: object) -> None:
    # Gymnasium's own check raises gymnasium.error.Error, which is no ValueError.
    with pytest.raises(ChkobbaError, match="reset: seed must be None or an integer >= 0, not"):
        ChkobbaEnv("random").reset(seed=bad)  # type: ignore[arg-type]


def test_a_numpy_integer_is_a_seed() -> None:
    # Gymnasium refuses numpy's integers; a seed drawn with rng.integers is converted.
    one, other = ChkobbaEnv("random"), ChkobbaEnv("random")
    assert one.reset(seed=np.int64(5))[0].tobytes() == other.reset(seed=5)[0].tobytes()
    assert one.match_state == other.match_state and one.np_random_seed == 5


@pytest.mark.parametrize("bad", ["no", "False", None, 2, -1, 0.0, 1.0, np.float64(1.0)])
def test_single_deal_is_a_boolean_not_any_truthy_value(bad: object) -> None:
    # bool("no") is True: a string, None, a float or another number is refused.
    with pytest.raises(ChkobbaError, match=r"^single_deal must be True or False, not "):
        ChkobbaEnv("random", single_deal=bad)  # type: ignore[arg-type]
    env = ChkobbaEnv("random")
    with pytest.raises(ChkobbaError, match="the single_deal option must be True or False, not "):
        env.reset(seed=1, options={"single_deal": bad})
    assert env.single_deal is False


def test_features_is_a_flag_too() -> None:
    with pytest.raises(ChkobbaError, match="features must be True or False, not 'no'"):
        ChkobbaEnv("random", features="no")  # type: ignore[arg-type]  # bool("no") is True
    assert ChkobbaEnv("random", features=np.True_).features is True
    assert ChkobbaEnv("random", features=0).features is False


def test_single_deal_takes_numpy_booleans_and_zero_and_one() -> None:
    with pytest.raises(ChkobbaError, match="single_deal must be True or False, not 'no'"):
        ChkobbaEnv("random", single_deal="no")  # type: ignore[arg-type]
    for value, meant in [(np.True_, True), (np.False_, False), (1, True), (0, False)]:
        env = ChkobbaEnv("random", single_deal=value)
        assert env.single_deal is meant
        env.reset(seed=1, options={"single_deal": np.int64(1 - meant)})
        assert env.single_deal is (not meant)


# --- an opponent's failure undoes the call ---------------------------------------------


class _Failing:
    """Plays the first legal move until armed, then fails as ``how`` says."""

    name = "failing"

    def __init__(self, how: str) -> None:
        self.how, self.armed = how, False

    def choose(self, view: Any, legal: Any) -> Any:
        if not self.armed:
            return legal[0]
        if self.how == "crash":
            raise RuntimeError("the bot crashed")
        return Play(next(card for card in DECK if card not in view.hand))  # not its card


def _failing_env(how: str) -> tuple[ChkobbaEnv, Any]:
    """An env whose opponent fails as ``how`` says once armed (``arm(True)``)."""
    if how == "policy":
        armed = [False]

        def policy(observation: Any, mask: Any) -> int:
            return int(np.flatnonzero(mask == 0 if armed[0] else mask)[0])  # a masked id

        return ChkobbaEnv(policy, seat=0), lambda on: armed.__setitem__(0, on)
    bot = _Failing(how)
    return ChkobbaEnv(bot, seat=0), lambda on: setattr(bot, "armed", on)


_FAILURES = [
    ("illegal", ChkobbaError, r"^the opponent failing at seat 1 chose '\w+', which is not legal"),
    ("policy", ChkobbaError, r"^the opponent policy at seat 1 failed: .*which is masked"),
    ("crash", RuntimeError, "the bot crashed"),
]


@pytest.mark.parametrize(("how", "error", "message"), _FAILURES)
def test_an_opponent_failing_in_step_undoes_the_step(how: str, error: type, message: str) -> None:
    # The audit's case: the learner's action stayed applied, the episode went on at the
    # opponent's seat (its hand in the mask, the learner's next step playing it), and the
    # opponent's illegal move raised IllegalMoveError, as an illegal id of the learner's.
    env, arm = _failing_env(how)
    env.reset(seed=1, options={"dealer": 1})
    _, _, _, _, info = env.step(KEEP)  # the learner cuts, then plays first
    ids = [int(i) for i in np.flatnonzero(info["action_mask"])]
    whole = next(i for i in ids if advance(env.position, i)[0].pending is None)  # one step
    untouched, before = copy.deepcopy(env), _everything(env)
    arm(True)
    with pytest.raises(error, match=message) as raised:
        env.step(whole)
    assert not isinstance(raised.value, IllegalMoveError)
    if how == "crash":  # its own type, and a note (Python 3.11+) naming the opponent
        notes = getattr(raised.value, "__notes__", ["raised by the opponent failing at seat 1"])
        assert any(note.startswith("raised by the opponent failing at seat 1") for note in notes)
    assert _everything(env) == before and env.match_state.current_player == 0
    arm(False)
    assert _play_out(env, dict(info)) == _play_out(untouched, dict(info))


class _FailingInTheSecondDeal(_Failing):
    """Fails at its first choice of the second deal: after a step has shuffled."""

    def choose(self, view: Any, legal: Any) -> Any:
        self.armed = self.armed or bool(view.deal_scores)
        return super().choose(view, legal)


def test_an_opponent_failing_after_the_steps_shuffle_puts_the_generator_back() -> None:
    # The step drew a whole new deal from np_random before the opponent failed: the undo
    # must give the generator back its state from before that draw.
    bot = _FailingInTheSecondDeal("crash")
    env = ChkobbaEnv(bot, seat=0)
    _, info = env.reset(seed=4, options={"dealer": 1})
    while True:
        untouched, before = copy.deepcopy(env), _everything(env)
        action = int(np.flatnonzero(info["action_mask"])[0])
        try:
            _, _, done, _, info = env.step(action)
        except RuntimeError:
            break
        assert not done
    assert bot.armed  # it saw the second deal: the failed step had ended one and shuffled
    assert _everything(env) == before  # the generator's state included
    assert _everything(env) == _everything(untouched)


@pytest.mark.parametrize(("how", "error", "message"), _FAILURES)
def test_an_opponent_failing_in_reset_undoes_the_reset(how: str, error: type, message: str) -> None:
    env, arm = _failing_env(how)
    _, info = env.reset(seed=1, options={"dealer": 1})  # the learner cuts: no opponent move
    untouched, before = copy.deepcopy(env), _everything(env)
    arm(True)
    with pytest.raises(error, match=message):
        env.reset(seed=2, options={"dealer": 0})  # the opponent cuts first
    assert _everything(env) == before
    arm(False)
    assert _play_out(env, dict(info)) == _play_out(untouched, dict(info))
