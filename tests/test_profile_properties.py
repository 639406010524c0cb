"""Properties of random matches under random rule profiles (the profiles issue, #9).

Every profile drawn by :func:`tests.strategies.rule_profiles` (every field random) and
every player count it allows, from any first dealer and totals: the 40 cards stay
partitioned, ``apply`` leaves its input unchanged, the match totals are the starting
totals plus the deal scores, every match ends, and ``legal_moves`` is exactly what a
brute-force reading of the profile's capture rules allows.
"""

from __future__ import annotations

import itertools
import random

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import (
    DECK,
    Move,
    Phase,
    Play,
    Rank,
    Rules,
    State,
    apply,
    legal_moves,
    new_match,
    random_shuffle,
)
from tests.helpers import where_cards_are
from tests.strategies import examples, rule_profiles

COURTS = (Rank.QUEEN, Rank.JACK, Rank.KING)
MOVE_LIMIT = 20_000  # far beyond any match of these targets; reaching it fails the test


def random_match(rules: Rules, seed: int, moves: list[Move] | None = None) -> list[State]:
    """The states of a random match (``moves``, when given, receives the moves played),
    from a random first dealer and, one match in two, random totals short of the target.
    Every ``apply`` is checked to leave its input unchanged."""
    rng = random.Random(seed)
    players = rng.choice(rules.players)
    sides = 3 if players == 3 else 2
    scores = [rng.randrange(rules.target) for _ in range(sides)] if rng.random() < 0.5 else None
    state = new_match(players, dealer=rng.randrange(players), scores=scores, rules=rules)
    states = [state]
    while not state.is_over and len(states) < MOVE_LIMIT:
        move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        before = attrs.asdict(state, recurse=False)
        after = apply(state, move)
        assert attrs.asdict(state, recurse=False) == before, f"apply({move}) changed its input"
        state = after
        states.append(state)
        if moves is not None:
            moves.append(move)
    return states


def brute_force_plays(state: State) -> set[Play]:
    """Every legal play, straight from the rules' words, by trying every table subset."""
    rules, table = state.rules, state.table
    plays: set[Play] = set()
    for held in state.hands[state.current_player]:  # type: ignore[index]
        value = rules.value(held)
        singles = [frozenset((c,)) for c in table if rules.value(c) == value]
        sums_allowed = rules.courts_capture_sums or held.rank not in COURTS
        groups = [
            frozenset(group)
            for size in range(2, len(table) + 1)
            for group in itertools.combinations(table, size)
            if sums_allowed and sum(rules.value(c) for c in group) == value
        ]
        options = singles if singles and rules.equal_single_first else singles + groups
        plays.update(Play(held, option) for option in options)
        if not options:
            plays.add(Play(held))
    return plays


@settings(max_examples=examples(60), deadline=None)
@given(rule_profiles(), st.integers(0, 2**32 - 1))
def test_random_matches_of_random_profiles(rules: Rules, seed: int) -> None:
    states = random_match(rules, seed)
    final = states[-1]
    assert final.is_over, "the match did not end"
    sides = final.sides
    for state in states:
        assert sorted(where_cards_are(state)) == sorted(DECK)
        assert len(state.captured) == len(state.chkobbas) == len(state.scores) == sides
        if state.phase is Phase.PLAY:
            assert set(legal_moves(state)) == brute_force_plays(state)
            assert len(legal_moves(state)) == len(set(legal_moves(state)))
        if state.phase is Phase.CUT:
            assert rules.cut
    # And the converse: with the cut every shuffle (so every deal) goes through CUT; without
    # it a shuffle deals at once.
    after_shuffles = [b.phase for a, b in itertools.pairwise(states) if a.phase is Phase.SHUFFLE]
    assert after_shuffles  # every match is shuffled at least once
    if rules.cut:
        assert set(after_shuffles) == {Phase.CUT}
        cuts = sum(s.phase is Phase.CUT for s in states)
        assert cuts >= len(final.deal_scores)
    else:  # dealt at once: play starts, or the deal is void and shuffled again
        assert set(after_shuffles) <= {Phase.PLAY, Phase.SHUFFLE}
    start = states[0].scores
    assert final.scores == tuple(
        start[side] + sum(score.points[side] for score in final.deal_scores)
        for side in range(sides)
    )
    best = max(final.scores)
    assert best >= rules.target and final.scores.count(best) == 1
    assert final.scores[final.winner] == best  # type: ignore[index]
    for score in final.deal_scores:
        assert len(score.points) == sides
        assert sum(score.points) == sum(score.chkobbas) + sum(
            w is not None for w in score.winners.values()
        )
        if not rules.primiera:
            assert score.primiera_winner is None
        if not rules.sevens_bermila:
            assert score.bermila_winner is None
        if not rules.seven_of_diamonds:
            assert score.seven_of_diamonds_winner is None


@settings(max_examples=examples(30), deadline=None)
@given(rule_profiles(), st.integers(0, 2**32 - 1))
def test_no_sweep_with_the_last_card_unless_the_profile_counts_it(rules: Rules, seed: int) -> None:
    moves: list[Move] = []
    states = random_match(rules, seed, moves)
    for before, move, after in zip(states[:-1], moves, states[1:], strict=True):
        if before.phase is not Phase.PLAY or len(after.deal_scores) == len(before.deal_scores):
            continue
        # ``after`` ends a deal: did its last play take every card on the table?
        assert isinstance(move, Play)
        swept = bool(move.capture) and set(move.capture) == set(before.table)
        side = before.side_of(before.current_player)  # type: ignore[arg-type]
        gained = after.deal_scores[-1].chkobbas[side] - before.chkobbas[side]
        assert gained == int(swept and rules.last_card_chkobba)
        other = [s for s in range(before.sides) if s != side]
        assert all(after.deal_scores[-1].chkobbas[s] == before.chkobbas[s] for s in other)
