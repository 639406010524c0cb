"""Gaps a mutation audit of checks.py, observations.py, history.py, deals.py and
bots/inference.py found at stop 80 (review 80A: 79 mutants, 67 caught): each test fails
with the mutant it names and passes without it.

- I20: the hand readers read a view where the opponent is to move (after the bot's own
  sweep) and raised ``IndexError`` from its empty table;
- I17: ``OpponentModel.weight`` went through the decisions oldest first, leaving the later
  plays out of the hands the earlier ones came from;
- I06, I08: views of two deals, or a whole round apart, read as one opponent play;
- I19: the cap on ``exp(score / temperature)`` lowered from where a float overflows;
- C15: ``check_state`` let a pile hold more chkobbas than half its cards;
- C01: ``check_state`` refused scores exactly at ``HELD_SCORE_LIMIT``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator

import attrs
import pytest

from chkobba import (
    ChkobbaError,
    Phase,
    PlayerView,
    State,
    apply,
    check_state,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.bots.inference import HandInference, OpponentModel
from chkobba.state import HELD_SCORE_LIMIT


def _readers() -> tuple[HandInference, OpponentModel]:
    return HandInference(sweep=0.1, capture=0.5), OpponentModel(temperature=0.3, noise=0.1)


def _random_match(seed: int) -> Iterator[State]:
    """Every state of a match of random moves, from its start."""
    rng = random.Random(seed)
    state = new_match()
    yield state
    while state.phase is not Phase.OVER:
        legal = legal_moves(state)
        state = apply(
            state, random_shuffle(rng) if state.phase is Phase.SHUFFLE else rng.choice(legal)
        )
        yield state


def _seat_one_views(seed: int) -> list[PlayerView]:
    """Seat 1's views at each of its plays in a random match."""
    return [
        observe(state, 1)
        for state in _random_match(seed)
        if state.phase is Phase.PLAY and state.current_player == 1
    ]


# --- I20 --------------------------------------------------------------------------------


def _own_sweep() -> tuple[PlayerView, PlayerView]:
    """Seat 0's views before and after a sweep of its own that leaves seat 1 to move."""
    for seed in range(200):
        states = list(_random_match(seed))
        for before, after in itertools.pairwise(states):
            if (
                before.phase is Phase.PLAY is after.phase
                and before.current_player == 0
                and before.table
                and not after.table
                and len(after.stock) == len(before.stock)
            ):
                return observe(before, 0), observe(after, 0)
    raise AssertionError("no sweep found")


def test_a_view_with_the_opponent_to_move_after_a_sweep_is_no_opponent_play() -> None:
    last, view = _own_sweep()
    assert view.current_player == 1 and not view.table
    for reader in _readers():
        reader.observe(last)
        reader.observe(view)  # IndexError from view.table[-1] with I20
    inference, model = _readers()
    assert not inference.suspicions and not model.decisions


# --- I06, I08 ----------------------------------------------------------------------------


def test_views_of_two_deals_or_a_round_apart_are_no_opponent_play() -> None:
    pairs = 0
    for seed in range(12):
        views = _seat_one_views(seed)
        for last in views:
            for view in views:
                next_deal = len(view.deal_scores) == len(last.deal_scores) + 1
                round_apart = (
                    len(view.deal_scores) == len(last.deal_scores)
                    and last.stock_size - view.stock_size == 12
                )
                if not (next_deal or round_apart):
                    continue
                pairs += 1
                inference, model = _readers()
                for reader in (inference, model):
                    reader.observe(last)
                    reader.observe(view)
                assert not model.decisions and not inference.suspicions, (last, view)
    assert pairs > 1000  # I06 read 49 of about a million such pairs, I08 4,675 of 95,508


# --- I17 ----------------------------------------------------------------------------------


def _model_after_two_plays(temperature: float = 0.3) -> tuple[OpponentModel, PlayerView]:
    """A model that has seen two plays of the opponent in one round, and the bot's view."""
    for seed in range(100):
        model = OpponentModel(temperature=temperature, noise=0.1)
        for view in _seat_one_views(seed):
            model.observe(view)
            if len(model.decisions) >= 2:
                return model, view
    raise AssertionError("no round with two opponent plays seen")


def _weight_by_definition(model: OpponentModel, hand: tuple[object, ...]) -> float:
    """The docstring's likelihood: each play came from the hand held now plus the cards
    played since (that play's own card included)."""
    weight = 1.0
    for index, decision in enumerate(model.decisions):
        held = set(hand) | {later.played for later in model.decisions[index:]}
        mass = math.fsum(decision.mass.get(c, 0.0) for c in held)
        count = sum(decision.count.get(c, 1) for c in held)
        weight *= model.noise / count + (1.0 - model.noise) / mass
    return weight


def test_each_play_is_weighed_against_the_hand_it_came_from() -> None:
    model, view = _model_after_two_plays()
    hands, _ = model.posterior(view)
    for hand in hands[:: max(1, len(hands) // 200)]:
        assert model.weight(hand) == pytest.approx(_weight_by_definition(model, hand), rel=1e-12)


# --- I19 ----------------------------------------------------------------------------------


def test_a_much_better_play_weighs_as_exp_says_until_a_float_would_overflow() -> None:
    # At a temperature of 0.01 a play a point better than the one made weighs e^100: the
    # cap (700) is where exp() overflows, not lower.
    model, _ = _model_after_two_plays(temperature=0.01)
    largest = max(max(decision.mass.values()) for decision in model.decisions)
    assert largest > math.exp(40)


# --- C15, C01 -----------------------------------------------------------------------------


def _with_a_pile_of_two() -> State:
    for seed in range(200):
        for state in _random_match(seed):
            if (
                state.phase is Phase.PLAY
                and len(state.captured[0]) == 2
                and state.chkobbas == (0, 0)
            ):
                return state
    raise AssertionError("no pile of two cards found")


def test_a_pile_holds_at_most_one_chkobba_for_every_two_cards() -> None:
    state = _with_a_pile_of_two()
    check_state(attrs.evolve(state, chkobbas=(1, 0)))  # one capture of two cards, a sweep
    with pytest.raises(ChkobbaError, match=r"side 0 has 2 chkobba\(s\) but only 2 captured cards"):
        check_state(attrs.evolve(state, chkobbas=(2, 0)))


def test_scores_at_the_highest_a_state_may_hold_are_held() -> None:
    at_limit = attrs.evolve(new_match(scores=(30, 30)), scores=(HELD_SCORE_LIMIT, HELD_SCORE_LIMIT))
    check_state(at_limit)
    with pytest.raises(ChkobbaError, match="scores must be at most"):
        check_state(attrs.evolve(at_limit, scores=(HELD_SCORE_LIMIT + 1, 0)))
