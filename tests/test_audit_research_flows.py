"""What an audit of the adapters as researchers use them found (2026-12-04).

Vector environments stacked the per-side tuples of ``info`` into object arrays holding
``None``; an episode ended by an illegal action said no scores; PettingZoo's winner of a
single deal was ``None`` where Gymnasium's is ``-1``; and ``PolicyBot`` saw scores past
the cap that the environment's observation caps. Each test fails on the code before.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from chkobba import TUNISIAN, legal_moves, observe  # noqa: E402
from chkobba.bots.policy import policy_input  # noqa: E402
from chkobba.gymnasium import ENV_ID, SCORE_CAP, ChkobbaEnv  # noqa: E402
from chkobba.observations import piece  # noqa: E402
from chkobba.pettingzoo import env as pettingzoo_env  # noqa: E402

_PER_SIDE = (
    "points",
    "chkobbas",
    "card_counts",
    "diamond_counts",
    "seven_counts",
    "six_counts",
    "primiera_sums",
)


def _first_legal(mask: Any) -> int:
    return int(np.flatnonzero(mask)[0])


def test_a_vector_environment_stacks_every_deal_and_end_field_as_integers() -> None:
    envs = gymnasium.make_vec(
        ENV_ID, num_envs=3, vectorization_mode="sync", opponent="random", single_deal=True
    )
    _, info = envs.reset(seed=1)
    ended = None
    for _ in range(200):
        actions = np.array([_first_legal(mask) for mask in info["action_mask"]])
        _, _, terminated, _, info = envs.step(actions)
        if terminated.any():
            ended = terminated
            break
    envs.close()
    assert ended is not None
    deal = info["deal"]
    for name in _PER_SIDE:
        assert deal[name].dtype == np.int64 and deal[name].shape == (3, 2), name
    assert info["scores"].dtype == np.int64 and info["scores"].shape == (3, 2)
    assert info["winner"].dtype == np.int64
    assert (info["winner"][ended] == -1).all() and (info["_winner"] == ended).all()
    # The rows of the environments whose deal ended hold its points; the others zeros.
    points = deal["points"][ended]
    assert (points.sum(axis=1) > 0).all() and (deal["points"][~ended] == 0).all()


def test_an_episode_ended_by_an_illegal_action_says_the_scores_and_the_winner() -> None:
    env = ChkobbaEnv("random", illegal_action="terminate")
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == env.reward_range[0]
    assert info["scores"].tolist() == [0, 0] and info["winner"] == -1
    assert info["illegal_action"] == illegal


@pytest.mark.parametrize("single_deal", [True, False])
def test_pettingzoo_says_the_winner_as_gymnasium_does(single_deal: bool) -> None:
    game = pettingzoo_env(players=2, single_deal=single_deal)
    game.reset(seed=0)
    finals = []
    for _agent in game.agent_iter():
        observation, _, terminated, _, info = game.last()
        if terminated:
            finals.append(info)
            game.step(None)
            continue
        game.step(_first_legal(observation["action_mask"]))
    state = game.unwrapped.match_state
    expected = -1 if single_deal else state.winner
    for info in finals:
        assert type(info["winner"]) is int and info["winner"] == expected
        assert info["scores"].dtype == np.int64 and tuple(info["scores"]) == state.scores


def test_a_policy_bot_sees_the_environments_observation_past_the_score_cap() -> None:
    # A match to 1 point whose totals stay tied past four targets (seed 347: 5-5).
    env = ChkobbaEnv("greedy", rules=attrs.evolve(TUNISIAN, target=1))
    observation, info = env.reset(seed=347)
    capped = 0
    done = False
    while not done:
        position = env.position
        view = observe(position.state, env.learner)
        seen, mask = policy_input(view, legal_moves(position.state), position.pending)
        assert np.array_equal(seen, observation) and np.array_equal(mask, info["action_mask"])
        capped += max(view.scores) > SCORE_CAP * view.rules.target
        observation, _, done, _, info = env.step(_first_legal(info["action_mask"]))
    assert capped  # the scores went past the cap, and both capped them alike
    assert max(piece(observation.tolist(), "scores")) == SCORE_CAP
