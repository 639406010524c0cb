"""ISMCTS's default-policy rollout on the kernel (``chkobba.bots._policy_rollout``).

Its plays must be legal, its rewards exactly those the search would read from the state
that ``apply`` gives for the same plays, its candidate plays exactly ``legal_moves``, and
its choice the policy's (the best score, up to the random tie-break).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import (
    Phase,
    Play,
    State,
    apply,
    legal_moves,
    new_match,
    random_shuffle,
)
from chkobba._kernel import kernel
from chkobba.bots import ISMCTSBot
from chkobba.bots._policy_rollout import _plays, _Tables, capture_score, lay_score, policy_rewards
from chkobba.bots.greedy import WORTH
from chkobba.bots.ismcts import REWARD_SCALE, _rewards
from chkobba.bots.sampling import determinize
from chkobba.views import observe
from tests.helpers import play_positions
from tests.strategies import examples, seeds


def _play_positions(seed: int, sides: int = 2) -> Iterator[State]:
    """The play positions of one random deal of a random profile, with ``sides`` sides."""
    return (state for state, _ in play_positions(1, seed) if state.sides == sides)


@settings(max_examples=examples(60), deadline=None)
@given(
    seeds(), st.sampled_from([0.0, 0.1, 1.0]), st.sampled_from([0, 1, 6]), st.sampled_from([2, 3])
)
def test_rewards_are_those_of_the_replayed_plays(
    seed: int, epsilon: float, horizon: int, sides: int
) -> None:
    # play_positions draws the profile and the seating: the first seed from ``seed`` on
    # that deals ``sides`` sides.
    positions = next(filter(None, (list(_play_positions(seed + i, sides)) for i in range(500))))
    for index, state in enumerate(positions):
        if index % 5:
            continue
        played: list[Play] = []
        rng = random.Random(seed + index)
        rewards = policy_rewards(state, rng, epsilon, horizon, REWARD_SCALE, moves=played)
        end = state
        for move in played:
            end = apply(end, move)  # raises if a play is illegal
        assert not horizon or len(played) <= horizon
        # Played on to the deal's end, or stopped at a (positive) horizon mid-deal.
        assert end.phase is not Phase.PLAY or (horizon > 0 and len(played) == horizon)
        assert rewards == _rewards(end, len(state.deal_scores))


@settings(max_examples=examples(40), deadline=None)
@given(seeds())
def test_the_candidates_are_the_legal_moves_and_the_choice_is_the_best(seed: int) -> None:
    for state in _play_positions(seed):
        check_candidates_and_choice(state, seed)


def check_candidates_and_choice(state: State, seed: int) -> None:
    """The policy's candidate plays of ``state`` are its legal moves, each once, and with
    epsilon 0 the one play it makes scores best, up to the 0.01 tie-break."""
    k = kernel(state.rules)
    code, card_of = k.code, k.card_of
    table = sorted(code[c.index] for c in state.table)
    hand = [code[c.index] for c in state.hands[state.mover]]
    plays = _plays(k, hand, k.entry(k.signature(table))[1])
    decoded = [
        Play(card_of[c], frozenset(card_of[table[at]] for at in taken or ())) for c, taken in plays
    ]
    assert len(decoded) == len(set(decoded))
    assert set(decoded) == set(legal_moves(state))
    made: list[Play] = []
    policy_rewards(state, random.Random(seed), 0.0, 1, REWARD_SCALE, moves=made)
    scores = {move: policy_score(state, move) for move in decoded}
    assert scores[made[0]] >= max(scores.values()) - 0.01


def policy_score(state: State, move: Play) -> float:
    """The policy's score of a move, written out from its documented rule."""
    values = state.rules.card_values
    if move.capture:
        taken = [WORTH[c.index] for c in move.capture]
        return capture_score(WORTH[move.card.index], taken, len(move.capture) == len(state.table))
    table_sum = sum(values[c.index] for c in state.table) + values[move.card.index]
    return lay_score(WORTH[move.card.index], table_sum)


def test_the_policy_scores() -> None:
    # Any capture beats any lay; a sweep adds one; a sweepable table costs half a point.
    assert capture_score(0.0, [], False) > lay_score(0.0, 11)
    assert capture_score(0.5, [0.25, 0.25], True) == 12.0
    assert lay_score(0.5, 10) == -1.0 and lay_score(0.5, 11) == -0.5


def test_it_steps_aside_where_it_does_not_apply() -> None:
    start = new_match()
    assert policy_rewards(start, random.Random(1), 0.1, 6, REWARD_SCALE) is None
    cut = apply(start, random_shuffle(random.Random(1)))
    assert cut.phase is Phase.CUT
    assert policy_rewards(cut, random.Random(1), 0.1, 6, REWARD_SCALE) is None


def test_three_sides_play_on_the_kernel_too() -> None:
    # A reward per side, not None.
    three = next(s for seed in range(50) for s in _play_positions(seed, sides=3))
    rewards = policy_rewards(three, random.Random(1), 0.1, 6, REWARD_SCALE)
    assert rewards is not None and len(rewards) == 3
    assert sum(rewards) == pytest.approx(0.0)  # points against the others' mean


def test_the_tables_follow_the_profile() -> None:
    k = kernel(new_match().rules)
    tables = _Tables(k)
    for card in range(40):
        assert tables.value[k.code[card]] == k.values[card]
        assert tables.worth[k.code[card]] == WORTH[card]


@pytest.mark.parametrize("players", [2, 4])
def test_ismcts_still_chooses_legal_moves_reproducibly(players: int) -> None:
    rng = random.Random(players)
    state = new_match(players)
    while state.phase is not Phase.PLAY:
        cut = state.phase is Phase.CUT
        state = apply(state, rng.choice(legal_moves(state)) if cut else random_shuffle(rng))
    view = observe(state, state.current_player)  # type: ignore[arg-type]
    legal = legal_moves(state)
    first = ISMCTSBot(iterations=60, seed=3).choose(view, legal)
    assert first in legal and first == ISMCTSBot(iterations=60, seed=3).choose(view, legal)
    assert determinize(view, random.Random(1)).phase is Phase.PLAY
