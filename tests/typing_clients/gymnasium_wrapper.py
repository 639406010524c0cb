"""A typed reinforcement-learning wrapper: the environment's spaces and options, sized
without a cast (checked only where Gymnasium is installed)."""

from __future__ import annotations

from gymnasium import spaces
from typing_extensions import assert_type

from chkobba import Move, PlayerView
from chkobba.gymnasium import ChkobbaEnv


class Lowest:
    """An opponent of one's own."""

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        return legal[0]


def network_sizes() -> tuple[int, int]:
    env = ChkobbaEnv(Lowest(), seat="alternate", illegal_action="terminate", features=True)
    assert_type(env.action_space, spaces.Discrete)
    assert_type(env.observation_space, spaces.Box)
    low, high = env.observation_space.low, env.observation_space.high
    print(low.dtype, high.dtype)
    return int(env.action_space.n), env.observation_space.shape[0]


def typos() -> None:
    ChkobbaEnv("random", illegal_action="ignore")  # type: ignore[arg-type]
    ChkobbaEnv("random", seat="north")  # type: ignore[arg-type]
    ChkobbaEnv("random", seat=1)
