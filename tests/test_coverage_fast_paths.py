"""The engine's fast paths, where the other suites do not look.

* ``apply`` and ``rollout`` leave their input state exactly as it was, memos included
  (the cached hash and the listed plays in the instance dict), for every profile and
  player count (3 included) and every phase, whether the input's memos were filled or
  empty.
* On a state nobody listed (an unpickled copy, or one read back by ``State.from_dict``:
  no memo shared), ``State.legal_plays``, ``illegal_reason`` and ``apply`` agree with
  ``legal_moves`` and with a brute-force reading of the capture rules: of every card in
  hand with every subset of the table, ``apply`` accepts exactly the legal ones. Checked
  in later deals, their last rounds included, at 2, 3 and 4 players.
* ``rollout`` from ``CUT``, ``PLAY`` and ``SHUFFLE`` states of every profile and player
  count records moves that replay through ``apply`` to its result, and
  ``until="match"`` plays the match to its end.
* The search bots' policy rollout (``chkobba.bots._policy_rollout``) from positions of
  later deals, dealt by any player, for 2, 3 and 4 players: what
  ``tests/test_policy_rollout.py`` checks on first deals (plays that replay through
  ``apply`` to the same rewards, candidates that are the legal moves, the policy's
  choice); and a deal in which nobody captured ends as ``apply`` scores it.
"""

from __future__ import annotations

import copy
import itertools
import pickle
import random
from collections.abc import Callable
from typing import Literal

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chkobba import (
    DECK,
    Card,
    IllegalMoveError,
    Move,
    Phase,
    Play,
    Rank,
    Rules,
    State,
    apply,
    capture_options,
    card,
    illegal_reason,
    legal_moves,
    random_shuffle,
    rollout,
)
from chkobba.bots._policy_rollout import policy_rewards
from chkobba.bots.ismcts import REWARD_SCALE, _rewards
from tests.helpers import replayed
from tests.strategies import examples, later_deals, profile_states, rule_profiles, seeds
from tests.test_policy_rollout import check_candidates_and_choice

PLAYER_COUNTS = (2, 3, 4)
UNTILS: tuple[Literal["deal", "match"], ...] = ("deal", "match")
#: The instance dict's memos: attrs' cached hash and the listed plays (see State).
MEMOS = ("_attrs_cached_hash", "_legal_plays")
RANKS = tuple(Rank)
COURTS = (Rank.QUEEN, Rank.JACK, Rank.KING)


def memo_free(state: State) -> State:
    """A copy of ``state`` that nobody has asked anything: a pickle holds no memo."""
    fresh: State = pickle.loads(pickle.dumps(state))
    assert all(fresh.__dict__[name] is None for name in MEMOS)
    return fresh


def calls_to_try(state: State, seed: int) -> list[tuple[str, Callable[[State], State]]]:
    """What is asked of ``state``, named: ``apply`` of every legal move (of a random
    shuffle at the chance node), and ``rollout`` to the deal's end and to the match's."""
    moves = [random_shuffle(random.Random(seed))] if state.is_chance else legal_moves(state)
    calls = [(f"apply({move})", applying(move)) for move in moves]
    return calls + [(f"rollout(until={until!r})", rolling(until, seed)) for until in UNTILS]


def applying(move: Move) -> Callable[[State], State]:
    return lambda given: apply(given, move)


def rolling(until: Literal["deal", "match"], seed: int) -> Callable[[State], State]:
    return lambda given: rollout(given, random.Random(seed), until=until)


def assert_as_it_was(state: State, fields: dict[str, object], reference: State, what: str) -> None:
    """``state`` after ``what``: its fields as in ``fields`` (a copy of its instance
    dict taken before), its memos empty or right, and equal to ``reference`` (a copy
    taken before) in hash, value and listed moves."""
    now = state.__dict__
    memos = set(MEMOS)  # a memo may be missing (a State() not yet asked) and filled later
    assert now.keys() | memos == fields.keys() | memos, f"{what} changed its input's names"
    for name, value in fields.items():
        if name in memos and value is None:
            continue  # an empty memo may be filled: checked below
        assert now.get(name) == value, f"{what} changed its input's {name}"
    hashed, plays = now.get("_attrs_cached_hash"), now.get("_legal_plays")
    assert hashed in (None, hash(reference)), f"{what} changed the hash memo"
    assert plays in (None, legal_moves(reference)), f"{what} changed the plays memo"
    assert hash(state) == hash(reference)
    assert state == reference and reference == state
    assert legal_moves(state) == legal_moves(reference)


# Invariant: apply (of every legal move) and rollout (to the deal's end and the match's)
# change nothing in the state given, neither its fields nor its memos, filled or empty.
@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=examples(15), deadline=None)
@given(data=st.data(), seed=seeds())
def test_apply_and_rollout_leave_their_input_as_it_was(
    players: int, data: st.DataObject, seed: int
) -> None:
    # Every phase drawn on purpose: a walk stopped at random reaches a CUT state in
    # under 1% of draws, and a cut that wrote its input's plays memo passed (review 78C).
    phases = data.draw(st.sampled_from([None, (Phase.CUT,), (Phase.PLAY,)]), label="phases")
    state = data.draw(profile_states(phases=phases, players=players), label="state")
    hash(state)
    legal_moves(state)  # both memos filled (the plays' only in phase PLAY)
    deep, pickled = copy.deepcopy(state), memo_free(state)
    for what, call in calls_to_try(state, seed):
        for given_state in (state, memo_free(state)):  # memos filled, and memos empty
            fields = dict(given_state.__dict__)
            call(given_state)
            assert_as_it_was(given_state, fields, deep, what)
            assert given_state == pickled


def rank_value(rules: Rules, held: Card) -> int:
    """A card's capture value, read from the profile's values by rank (A 2 … 7 Q J K)."""
    return rules.capture_values[RANKS.index(held.rank)]


def brute_force_captures(rules: Rules, table: tuple[Card, ...], held: Card) -> set[frozenset[Card]]:
    """RULES.md §4 read literally, every subset of the table tried: one equal card when
    any (first, when the profile gives the equal single priority), else (or also) a
    group of two or more summing to the value, unless a court may take no sums."""
    value = rank_value(rules, held)
    singles = {frozenset((c,)) for c in table if rank_value(rules, c) == value}
    if held.rank in COURTS and not rules.courts_capture_sums:
        return singles
    if singles and rules.equal_single_first:
        return singles
    groups = {
        frozenset(group)
        for size in range(2, len(table) + 1)
        for group in itertools.combinations(table, size)
        if sum(rank_value(rules, c) for c in group) == value
    }
    return singles | groups


def check_unlisted_plays(state: State) -> None:
    """The plays of a state nobody listed, every way the engine gives them, against the
    brute force: every card in hand with every subset of the table (empty included).
    Each way has a copy of its own, so that none reads a memo another one filled: the
    first call of each works the plays out on its copy, the later ones read what it kept,
    and the last line compares what each kept."""
    rules, table = state.rules, state.table
    hand = state.hands[state.mover]
    expected: set[Play] = set()
    for held in hand:
        captures = brute_force_captures(rules, table, held) or {frozenset()}  # or lay it
        expected.update(Play(held, capture) for capture in captures)
    listed = legal_moves(memo_free(state))
    assert set(listed) == expected
    asked, applied = memo_free(state), State.from_dict(state.to_dict())
    assert applied.__dict__.get("_legal_plays") is None
    for held in hand:
        for size in range(len(table) + 1):
            for subset in itertools.combinations(table, size):
                move = Play(held, frozenset(subset))
                legal = move in expected
                assert (illegal_reason(asked, move) is None) == legal, move
                if legal:
                    assert apply(applied, move) == apply(state, move), move
                else:
                    with pytest.raises(IllegalMoveError):
                        apply(applied, move)
    assert asked.legal_plays == applied.legal_plays == listed  # as their first calls left them


# Invariant: on a state nobody listed, legal_plays, illegal_reason and apply allow exactly
# the plays legal_moves lists and the brute force finds, in later deals: every state of
# their last rounds (where the stock is empty), and every fifth of the others.
@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=examples(25), deadline=None)
@given(data=st.data())
def test_unlisted_states_allow_exactly_the_brute_force_plays(
    players: int, data: st.DataObject
) -> None:
    walked = data.draw(later_deals(players), label="later deals")
    plays = [s for s in walked if s.phase is Phase.PLAY]
    last_rounds = [s for s in plays if not s.stock]
    assert last_rounds, "250 moves from the first deal's end reach a later deal's last round"
    for state in last_rounds + [s for s in plays if s.stock][::5]:
        check_unlisted_plays(state)


# Invariant: a rollout from CUT, PLAY or SHUFFLE records moves that replay through apply
# to its result; until="deal" scores one deal more, until="match" ends the match (few
# examples: nothing outside a rollout can stop one that never ends, so it would hang).
@pytest.mark.parametrize("phase", [Phase.CUT, Phase.PLAY, Phase.SHUFFLE])
@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=examples(8), deadline=None)
@given(data=st.data(), seed=seeds())
def test_rollouts_from_every_phase_replay_and_finish(
    players: int, phase: Phase, data: st.DataObject, seed: int
) -> None:
    start = data.draw(profile_states(phases=(phase,), players=players), label="start")
    assert start.phase is phase and start.players == players
    for until in UNTILS:
        played: list[Move] = []
        end = rollout(start, random.Random(seed), until=until, moves=played)
        assert replayed(start, played) == end
        if until == "match":
            assert end.phase is Phase.OVER and end.winner is not None
        else:
            assert end.is_over or len(end.deal_scores) == len(start.deal_scores) + 1
            assert end.phase in (Phase.SHUFFLE, Phase.OVER)


# Invariant: from positions of later deals (any dealer, refills to come), the policy
# rollout's plays replay through apply to a state with its rewards; its candidates are
# legal_moves and its one-move choice scores best (as tests/test_policy_rollout.py on
# first deals).
@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=examples(10), deadline=None)
@given(
    data=st.data(),
    seed=seeds(),
    epsilon=st.sampled_from([0.0, 0.1, 1.0]),
    horizon=st.sampled_from([1, 6]),
)
def test_policy_rollout_from_later_deals_replays_to_its_rewards(
    players: int, data: st.DataObject, seed: int, epsilon: float, horizon: int
) -> None:
    walked = data.draw(later_deals(players), label="later deals")
    positions = [s for s in walked if s.phase is Phase.PLAY][data.draw(st.integers(0, 3)) :: 4]
    for index, state in enumerate(positions):
        for steps in (0, horizon):  # to the deal's end (refills dealt), or a few moves
            played: list[Play] = []
            rng = random.Random(seed + index)
            rewards = policy_rewards(state, rng, epsilon, steps, REWARD_SCALE, moves=played)
            end = replayed(state, played)
            assert not steps or len(played) <= steps
            assert end.phase is not Phase.PLAY or (steps > 0 and len(played) == steps)
            assert rewards == _rewards(end, len(state.deal_scores))
        check_candidates_and_choice(state, seed)


SEVEN_OF_DIAMONDS = card("7D")


# Invariant: a deal in which nobody captured leaves its leftovers to nobody, in the policy
# rollout's rewards as in apply's deal score. Play never gets there (a card that finds a
# card of its rank on the table must capture, so a table nobody takes from holds at most
# the four dealt and one laid card a rank: 36 plays are never all lays), so the position
# is built by hand: the deal's last card to play, the other cards in the piles, nobody
# the last capturer (check_state would call it broken). The 7D lies among the leftovers
# and the profile scores it, so a side given them would gain its point.
@settings(max_examples=examples(20), deadline=None)
@given(data=st.data(), players=st.sampled_from(PLAYER_COUNTS))
def test_policy_rollout_scores_a_deal_nobody_captured_in_as_apply_does(
    data: st.DataObject, players: int
) -> None:
    rules = data.draw(rule_profiles(players=(players,)), label="rules")
    rules = attrs.evolve(rules, seven_of_diamonds=True)
    others = [c for c in DECK if c is not SEVEN_OF_DIAMONDS]
    last = data.draw(st.sampled_from(others), label="last card")
    rest = data.draw(st.lists(st.sampled_from(others), max_size=3, unique=True), label="table")
    table = (SEVEN_OF_DIAMONDS, *(c for c in rest if c is not last))
    assume(not capture_options(table, last, rules))
    sides = 2 if players == 4 else players
    owners = data.draw(st.lists(st.integers(0, sides - 1), min_size=40, max_size=40))
    piled = [c for c in DECK if c is not last and c not in table]
    dealer = data.draw(st.integers(0, players - 1), label="dealer")
    state = State(
        rules=rules,
        phase=Phase.PLAY,
        players=players,
        dealer=dealer,
        current_player=dealer,  # the last to play in every round
        hands=tuple((last,) if p == dealer else () for p in range(players)),
        table=table,
        stock=(),
        captured=tuple(
            tuple(c for c, o in zip(piled, owners, strict=False) if o == s) for s in range(sides)
        ),
        chkobbas=(0,) * sides,
        scores=(0,) * sides,
        last_capturer=None,
        winner=None,
        deal_scores=(),
    )
    played: list[Play] = []
    rewards = policy_rewards(state, random.Random(0), 0.1, 0, REWARD_SCALE, moves=played)
    end = replayed(state, played)
    assert played == [Play(last)] and set(end.table) == {*table, last}
    assert end.deal_scores[-1].seven_of_diamonds_winner is None
    assert rewards == _rewards(end, 0)
