"""Bots as action-id actors and policies as bots (chkobba.bots.policy)."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings

from chkobba import (
    ChkobbaError,
    Cut,
    IllegalMoveError,
    Phase,
    Play,
    apply,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.actions import EXPOSE, FIRST_CAPTURE, KEEP, Position, legal_actions, step
from chkobba.arena import play_match, tournament
from chkobba.bots import BotActions, GreedyBot, PolicyBot, RandomBot
from chkobba.bots.policy import action_mask, policy_input
from chkobba.features import FEATURE_SIZE, options_by_card
from chkobba.observations import OBSERVATION_SIZE
from tests.helpers import dealt
from tests.strategies import cut_states, examples, play_states


def dealt_start(seed: int) -> Any:
    """A new match after a random shuffle: the cutter is to keep or expose."""
    return apply(new_match(), random_shuffle(random.Random(seed)))


def _random_policy(seed: int) -> Any:
    rng = random.Random(seed)

    def policy(observation: Any, mask: Any) -> int:
        return rng.choice([i for i, allowed in enumerate(mask) if allowed])

    return policy


@settings(max_examples=examples(60), deadline=None)
@given(play_states() | cut_states())
def test_the_mask_of_the_legal_moves_is_the_legal_ids(state: Any) -> None:
    position = Position(state)
    mask = action_mask(legal_moves(state))
    assert [i for i, allowed in enumerate(mask) if allowed] == list(legal_actions(position))
    for played, options in options_by_card(legal_moves(state)).items():
        if len(options) > 1:
            pending = step(position, played.index)
            mask = action_mask(legal_moves(state), played)
            assert [i for i, a in enumerate(mask) if a] == list(legal_actions(pending))


def test_the_pending_mask_of_a_card_with_several_captures_is_its_option_ids() -> None:
    # The property above meets such a card in a few of its examples only (none in some
    # runs): here 40 of them, found by playing random deals.
    rng = random.Random(82)
    checked = 0
    while checked < 40:
        state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=rng.random() < 0.5))
        while state.phase is Phase.PLAY:
            legal = legal_moves(state)
            for played, options in options_by_card(legal).items():
                if len(options) > 1:
                    pending = step(Position(state), played.index)
                    mask = action_mask(legal, played)
                    allowed = [i for i, a in enumerate(mask) if a]
                    assert allowed == list(legal_actions(pending))
                    assert allowed == list(range(FIRST_CAPTURE, FIRST_CAPTURE + len(options)))
                    checked += 1
            state = apply(state, rng.choice(legal))


def test_a_policy_bot_makes_two_step_plays_with_the_encodings_option_ids() -> None:
    state = dealt(hands=["4C 5C 6C", "QH 2C 3C"], table="2D 6S 3D 5H")
    queries: list[tuple[int, ...]] = []

    def last_option(observation: Any, mask: Any) -> int:
        allowed = tuple(i for i, a in enumerate(mask) if a)
        queries.append(allowed)
        return 29 if 29 in allowed else allowed[-1]  # 29 is QH

    move = PolicyBot(last_option).choose(observe(state, 1), legal_moves(state))
    position = step(step(Position(state), 29), FIRST_CAPTURE + 1)
    assert Position(apply(state, move)) == position
    assert queries[1] == (FIRST_CAPTURE, FIRST_CAPTURE + 1)
    assert isinstance(move, Play) and move.card.index == 29


def test_a_policy_bot_sees_the_observation_and_optional_features() -> None:
    state = dealt(hands=["4C 5C 6C", "QH 2C 3C"], table="2D 6S 3D 5H")
    for features, size in ((False, OBSERVATION_SIZE), (True, OBSERVATION_SIZE + FEATURE_SIZE)):
        observation, mask = policy_input(observe(state, 1), legal_moves(state), None, features)
        assert len(observation) == size and len(mask) == 70
    cut = dealt_start(1)
    assert PolicyBot(lambda o, m: KEEP).choose(observe(cut, 1), legal_moves(cut)) == Cut(True)


def test_a_policy_bot_rejects_masked_or_nonsense_ids() -> None:
    state = dealt(hands=["4C 5C 6C", "QH 2C 3C"], table="2D 6S 3D 5H")
    view, legal = observe(state, 1), legal_moves(state)
    with pytest.raises(IllegalMoveError, match="masked"):
        PolicyBot(lambda o, m: EXPOSE).choose(view, legal)
    with pytest.raises(IllegalMoveError, match="not an action id"):
        PolicyBot(lambda o, m: "QH").choose(view, legal)
    with pytest.raises(ChkobbaError, match="not callable"):
        PolicyBot(42)  # type: ignore[arg-type]


def test_policy_bots_play_tournaments_with_seat_swaps_and_intervals() -> None:
    bot = PolicyBot(_random_policy(1), name="mine")
    serial = tournament([bot, "greedy"], games=4, seed=3)
    assert [b.name for b in serial.bots] == ["mine", "greedy"]
    assert [m.entrants for m in serial.matches] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert serial.bots[0].ci_low <= serial.bots[0].win_rate <= serial.bots[0].ci_high
    # A policy that ignores its rng: the same results on a thread pool as serially.
    first = PolicyBot(lambda o, m: max(range(70), key=lambda i: (m[i], -i)), name="first")
    with ThreadPoolExecutor(2) as pool:
        pooled = tournament([first, "random"], games=4, seed=3, executor=pool)
    assert pooled == tournament([first, "random"], games=4, seed=3)


def test_bot_actions_play_the_bots_moves_through_ids() -> None:
    for seed in range(4):
        state = apply(dealt_start(seed), Cut(keep=seed % 2 == 0))
        through_ids, direct = Position(state), state
        actors = [BotActions(GreedyBot(seed=7)), BotActions(GreedyBot(seed=8))]
        bots = [GreedyBot(seed=7), GreedyBot(seed=8)]
        while direct.phase is Phase.PLAY:
            player: int = direct.current_player  # type: ignore[assignment]
            move = bots[player].choose(observe(direct, player), legal_moves(direct))
            direct = apply(direct, move)
            through_ids = step(through_ids, actors[player](through_ids))
            if through_ids.pending is not None:
                through_ids = step(through_ids, actors[player](through_ids))
            assert through_ids.state == direct


def test_bot_actions_choose_a_capture_for_a_card_pending_from_elsewhere() -> None:
    state = dealt(hands=["4C 5C 6C", "QH 2C 3C"], table="2D 6S 3D 5H")
    pending = step(Position(state), 29)
    action = BotActions(RandomBot(seed=1))(pending)
    assert action in (FIRST_CAPTURE, FIRST_CAPTURE + 1)
    with pytest.raises(ChkobbaError, match="not a bot"):
        BotActions(object())  # type: ignore[arg-type]
    over = play_match([RandomBot(seed=1), RandomBot(seed=2)], seed=1).record.final()
    with pytest.raises(ChkobbaError, match="nobody is to move"):
        BotActions(RandomBot(seed=1))(Position(over))
