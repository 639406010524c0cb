"""PettingZoo for researchers: persistent single_deal, copies mid-episode, deal breakdowns."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from chkobba.gymnasium import deal_info  # noqa: E402
from chkobba.pettingzoo import env, raw_env  # noqa: E402


def _first_legal(game: Any, agent: str) -> int:
    return int(np.flatnonzero(game.observe(agent)["action_mask"])[0])


def test_the_single_deal_option_persists_across_plain_resets() -> None:
    game = raw_env(players=2)
    game.reset(seed=1, options={"single_deal": True})
    for _ in range(3):
        for agent in game.agent_iter():
            _, _, terminated, _, _ = game.last()
            game.step(None if terminated else _first_legal(game, agent))
        assert len(game.match_state.deal_scores) == 1
        game.reset()
    game.reset(options={"single_deal": False})
    assert game.single_deal is False


@pytest.mark.parametrize("wrapped", [False, True])
def test_deepcopy_and_pickle_keep_the_episode(wrapped: bool) -> None:
    game = env(players=4) if wrapped else raw_env(players=4)
    game.reset(seed=3)
    for _ in range(9):
        game.step(_first_legal(game, game.agent_selection))
    for clone in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert clone.unwrapped.position == game.unwrapped.position
        assert clone.agent_selection == game.agent_selection

        def finish(g: Any) -> Any:
            for agent in g.agent_iter():
                _, _, terminated, _, _ = g.last()
                g.step(None if terminated else _first_legal(g, agent))
            return g.unwrapped.match_state

        assert finish(clone) == finish(copy.deepcopy(game))


def test_every_deal_ends_with_its_breakdown_in_every_info() -> None:
    game = raw_env(players=2)
    game.reset(seed=4)
    reported, final = [], {}
    for agent in game.agent_iter():
        _, _, terminated, _, info = game.last()
        if terminated:
            final = info
            game.step(None)
            continue
        game.step(_first_legal(game, agent))
        deals = [info.get("deal") for info in game.infos.values()]
        assert [str(deal) for deal in deals] == [str(deals[0])] * 2  # the same for every agent
        if deals[0] is not None:
            reported.append(deals[0])
    state = game.match_state
    assert [str(deal) for deal in reported] == [str(deal_info(s)) for s in state.deal_scores]
    assert len(reported) > 1 and final["winner"] == state.winner
