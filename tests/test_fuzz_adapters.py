"""The adapters driven by hypothesis: random legal actions mixed with wrong ones.

Every wrong action (an id the mask rules out, one outside the action space, something
that is not an id) must raise a ChkobbaError and leave the episode exactly as it was;
every legal one must be taken; the cards stay a consistent partition after every step
(check_state); and the episode ends. Skipped without the pettingzoo, gymnasium or
openspiel extras.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chkobba import ChkobbaError, IllegalMoveError, check_state
from tests.strategies import examples, seatings, seeds, wrong_actions

np = pytest.importorskip("numpy")

# Each example plays a whole deal (40 to 60 steps, a few wrong actions among them).
_FUZZ = settings(
    max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
_STEPS = 1000  # far more than a deal takes: an episode that does not end fails


@_FUZZ
@given(seating=seatings(), seed=seeds(), data=st.data())
def test_pettingzoo_refuses_wrong_actions_and_finishes(
    seating: tuple[str, int], seed: int, data: st.DataObject
) -> None:
    pytest.importorskip("pettingzoo")
    from chkobba.pettingzoo import env

    rules, players = seating
    game = env(players=players, rules=rules, single_deal=True)
    game.reset(seed=seed)
    for _ in game.agent_iter(max_iter=_STEPS):
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        mask = observation["action_mask"]
        if data.draw(st.booleans(), label="try a wrong action first"):
            wrong = data.draw(wrong_actions(mask), label="wrong action")
            before = game.match_state, game.agent_selection, game.position
            with pytest.raises(ChkobbaError):
                game.step(wrong)
            assert (game.match_state, game.agent_selection, game.position) == before
        game.step(data.draw(st.sampled_from(np.flatnonzero(mask).tolist()), label="action"))
        check_state(game.match_state)
    assert not game.agents, "the deal did not end"
    assert game.match_state.deal_scores  # it was scored


@_FUZZ
@given(
    seating=seatings(),
    seed=seeds(),
    illegal=st.sampled_from(("raise", "terminate")),
    data=st.data(),
)
def test_gymnasium_refuses_wrong_actions_and_finishes(
    seating: tuple[str, int], seed: int, illegal: str, data: st.DataObject
) -> None:
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    rules, players = seating
    game = ChkobbaEnv(players=players, rules=rules, single_deal=True, illegal_action=illegal)
    game.reset(seed=seed)
    for _ in range(_STEPS):
        mask = game.action_masks()
        legal = np.flatnonzero(mask).tolist()
        if data.draw(st.booleans(), label="try a wrong action first"):
            wrong = data.draw(wrong_actions(mask), label="wrong action")
            before = game.match_state
            if illegal == "terminate" and type(wrong) is int:
                # Any integer the mask rules out, in the action space or not, ends the
                # episode at the lowest reward (docs/gymnasium.md: check_env needs every
                # id to be a valid input), the match untouched; nothing is taken after it.
                _, reward, terminated, _, info = game.step(wrong)
                assert (terminated, reward, info["illegal_action"]) == (
                    True,
                    game.reward_range[0],
                    wrong,
                )
                assert game.match_state == before
                with pytest.raises(ChkobbaError, match="the episode is over"):
                    game.step(legal[0])
                return
            with pytest.raises(ChkobbaError):
                game.step(wrong)
            assert game.match_state == before
        _, _, terminated, truncated, _ = game.step(data.draw(st.sampled_from(legal)))
        check_state(game.match_state)
        if terminated or truncated:
            break
    else:
        pytest.fail("the deal did not end")
    assert game.match_state.deal_scores
    with pytest.raises(ChkobbaError, match="the episode is over"):
        game.step(0)


@_FUZZ
@given(seating=seatings(), data=st.data())
def test_openspiel_refuses_wrong_actions_and_finishes(
    seating: tuple[str, int], data: st.DataObject
) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import chkobba.openspiel  # noqa: F401  (registers python_chkobba)

    rules, players = seating
    # Chance outcomes come from hypothesis too, so it can deal void deals again and again:
    # max_shuffles bounds the episode (a match stopped by it is terminal).
    params = {"rules": rules, "players": players, "single_deal": True, "max_shuffles": 2}
    game = pyspiel.load_game("python_chkobba", params)
    state = game.new_initial_state()
    for _ in range(_STEPS):
        if state.is_terminal():
            break
        if state.is_chance_node():
            legal = [action for action, _ in state.chance_outcomes()]
        else:
            legal = state.legal_actions()
        mask = [action in legal for action in range(game.num_distinct_actions())]
        if data.draw(st.booleans(), label="try a wrong action first"):
            wrong = data.draw(wrong_actions(mask, ids_only=True), label="wrong action")
            before = _openspiel_snapshot(state)
            with pytest.raises(ChkobbaError):
                state.apply_action(wrong)
            assert _openspiel_snapshot(state) == before
        state.apply_action(data.draw(st.sampled_from(legal), label="action"))
        if state.match_state is not None:
            check_state(state.match_state)
    else:
        pytest.fail("the deal did not end")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.apply_action(0)


def _openspiel_snapshot(state: Any) -> tuple[Any, ...]:
    """What a refused action must not change: the match, who moves, and every player's
    information state."""
    players = range(state.get_game().num_players())
    return (
        state.match_state,
        state.position,
        state.current_player(),
        state.history(),
        [state.information_state_string(player) for player in players],
    )
