"""Properties over random matches (hypothesis), and the worked example of RULES.md §7.

Random matches come from :mod:`tests.strategies`: seeded random play for 2 and 4 players,
from random first dealers and resumed scores.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Iterator, Sequence
from itertools import combinations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chkobba import (
    DECK,
    TUNISIAN,
    Card,
    Cut,
    IllegalMoveError,
    Move,
    Phase,
    Play,
    Shuffle,
    State,
    apply,
    capture_options,
    card,
    cards,
    illegal_reason,
    is_legal,
    legal_moves,
)
from tests.helpers import MOVE_LIMIT, arranged, random_history, where_cards_are
from tests.strategies import History, cut_states, histories, moves_in, shuffles, states


def reference_captures(table: Sequence[Card], played: Card) -> set[frozenset[Card]]:
    """The priority rule read literally: equal singles if any, else every group of two or
    more table cards summing to the played value (a pruned search over subsets)."""
    value = TUNISIAN.value(played)
    singles = {frozenset((c,)) for c in table if TUNISIAN.value(c) == value}
    if singles:
        return singles
    found: set[frozenset[Card]] = set()

    def grow(start: int, chosen: tuple[Card, ...], total: int) -> None:
        if total == value and len(chosen) >= 2:
            found.add(frozenset(chosen))
        for i in range(start, len(table)):
            worth = TUNISIAN.value(table[i])
            if total + worth <= value:  # every value is positive: larger sums never shrink
                grow(i + 1, (*chosen, table[i]), total + worth)

    grow(0, (), 0)
    return found


def transitions(history: History) -> Iterator[tuple[State, Move, State]]:
    yield from zip(history.states, history.moves, history.states[1:], strict=False)


# --- the 40 cards, purity, values ------------------------------------------------------------


@given(histories())
def test_the_40_cards_are_always_partitioned_exactly(history: History) -> None:
    for state in history.states:
        assert sorted(where_cards_are(state)) == list(DECK)


@given(histories())
def test_apply_never_mutates_its_input(history: History) -> None:
    rng = random.Random(history.seed)
    for index, (state, move, after) in enumerate(transitions(history)):
        # Every field is an immutable value (see the next test), so holding on to the
        # field objects themselves is a complete snapshot; a deep copy double-checks it.
        names = list(attrs.fields_dict(State))
        fields = [getattr(state, n) for n in names]
        before_hash = hash(state)
        deep = copy.deepcopy(state) if index % 25 == 0 else None
        # The state's memos (its legal plays, its hash) outside the fields: what apply
        # may fill, never change. A cut that wrote the deal's plays into its input's memo
        # passed the field checks alone (review 78C).
        fresh = attrs.evolve(state)  # the same fields, no memo filled
        memos = {k: v for k, v in vars(state).items() if k not in names and v is not None}
        assert apply(state, move) == after  # pure: the same input gives the same output
        if state.phase is Phase.PLAY:
            # A rejected move leaves the state untouched as well.
            with pytest.raises(IllegalMoveError):
                apply(state, Cut(keep=rng.random() < 0.5))
        assert all(getattr(state, n) is v for n, v in zip(names, fields, strict=True))
        assert all(vars(state)[k] is v for k, v in memos.items())
        assert state.legal_plays == fresh.legal_plays
        assert legal_moves(state) == legal_moves(fresh)
        assert hash(state) == before_hash
        if deep is not None:
            assert state == deep


@given(states())
def test_states_are_made_of_immutable_values(state: State) -> None:
    for name in ("hands", "table", "stock", "captured", "chkobbas", "scores", "deal_scores"):
        assert isinstance(getattr(state, name), tuple), name
    assert all(isinstance(hand, tuple) for hand in state.hands)
    assert all(isinstance(pile, tuple) for pile in state.captured)


@given(st.integers(0, 2**32 - 1), st.sampled_from((2, 4)), st.integers(0, 120))
def test_states_hash_and_compare_by_value(seed: int, players: int, steps: int) -> None:
    one, moves = random_history(seed, players, max_moves=steps)
    two, _ = random_history(seed, players, max_moves=steps)
    last_one, last_two = one[-1], two[-1]
    assert last_one == last_two and hash(last_one) == hash(last_two)
    assert {last_one: "seen"}[last_two] == "seen"
    assert len(set(one) | set(two)) == len(set(one))
    revived = pickle.loads(pickle.dumps(last_one))
    assert revived == last_one and hash(revived) == hash(last_one)
    if len(one) > 1:
        assert one[-2] != last_one  # every move changes the state
    # Every state of the walk, hashed before its successor is made, and each successor
    # hashes as a copy made afresh: a successor must not inherit its predecessor's memo
    # of the hash (stop 74's review planted that; only a test of the fast core's
    # internals saw it).
    state = one[0]
    for move in moves:
        hash(state)  # memoized, before the successor is made
        state = apply(state, move)
        assert hash(state) == hash(attrs.evolve(state))


# --- legality ---------------------------------------------------------------------------------


def candidate_plays(state: State, rng: random.Random) -> Iterator[Play]:
    """Every hand card with every subset of the table (sampled above 10 table cards), a few
    cards that are not in hand, and captures naming cards that are not on the table."""
    hand = state.hands[state.current_player]  # type: ignore[index]
    table = state.table
    if len(table) <= 10:
        groups = [g for size in range(len(table) + 1) for g in combinations(table, size)]
    else:
        groups = [g for size in range(4) for g in combinations(table, size)]
        groups += [tuple(rng.sample(table, rng.randint(4, len(table)))) for _ in range(200)]
    for held in hand:
        for group in groups:
            yield Play(held, group)
    elsewhere = [c for c in DECK if c not in hand and c not in table]
    for stranger in rng.sample(elsewhere, min(3, len(elsewhere))):
        yield Play(stranger)
        if hand:
            yield Play(hand[0], (stranger,))
            if table:
                yield Play(hand[0], (stranger, table[0]))
    for held in table[:2]:
        yield Play(held)


def assert_legality_agrees(state: State, move: Move, legal: set[Move]) -> None:
    reason = illegal_reason(state, move)
    assert (reason is None) == (move in legal), (str(move), reason)
    assert is_legal(state, move) == (reason is None)
    if reason is None:
        apply(state, move)
    else:
        with pytest.raises(IllegalMoveError) as caught:
            apply(state, move)
        assert str(caught.value) == reason


# A state of a random walk is seldom at the cut (one state a deal), so cut states are
# drawn on purpose too: a run once met none in 100 examples.
@given(st.one_of(states(), cut_states()), st.integers(0, 1000))
def test_legal_moves_are_exactly_the_legal_moves(state: State, salt: int) -> None:
    rng = random.Random(salt)
    listed = legal_moves(state)
    legal = set(listed)
    assert len(legal) == len(listed)  # no move twice
    for move in listed:
        assert illegal_reason(state, move) is None
        apply(state, move)
    other_phase: list[Move] = [Cut(keep=True), Cut(keep=False), Shuffle(DECK)]
    if state.phase is Phase.PLAY:
        hand = state.hands[state.current_player]  # type: ignore[index]
        assert hand, "nobody plays from an empty hand"
        for move in candidate_plays(state, rng):
            assert_legality_agrees(state, move, legal)
        for held in hand:
            wanted = reference_captures(state.table, held)
            theirs = {m.capture for m in listed if isinstance(m, Play) and m.card is held}
            assert theirs == (wanted or {frozenset()})
    elif state.phase is Phase.CUT:
        assert listed == (Cut(keep=True), Cut(keep=False))
        other_phase = [*(Play(c) for c in DECK[:5]), Shuffle(DECK)]
    elif state.phase is Phase.SHUFFLE:
        assert listed == ()
        other_phase = [Cut(keep=True), Cut(keep=False), Play(DECK[0])]
        shuffled = list(DECK)
        rng.shuffle(shuffled)
        assert is_legal(state, Shuffle(shuffled))  # the chance move is not listed
    else:
        assert listed == ()
        other_phase = [Cut(keep=True), Play(DECK[0]), Shuffle(DECK)]
    for move in other_phase:
        assert_legality_agrees(state, move, legal)


@given(states(phases=(Phase.SHUFFLE,)), shuffles())
def test_every_shuffle_is_accepted_at_the_chance_node(state: State, shuffle: Shuffle) -> None:
    after = apply(state, shuffle)
    assert after.phase is Phase.CUT and after.stock == shuffle.order


@given(histories())
def test_every_play_state_of_a_match_lists_the_plain_readings_captures(history: History) -> None:
    # Every play state of a whole match, where the test above checks one drawn state: a
    # capture bug shows in few positions (an equal card beside a sum of three, a sum of
    # four), which one drawn state seldom meets (stop 74's review planted two such bugs
    # that it missed in 11 runs of 11).
    for state in history.states:
        if state.phase is not Phase.PLAY:
            continue
        listed = legal_moves(state)
        for held in state.hands[state.current_player]:  # type: ignore[index]
            wanted = reference_captures(state.table, held)
            theirs = {m.capture for m in listed if isinstance(m, Play) and m.card is held}
            assert theirs == (wanted or {frozenset()}), (state.table, held)


@given(histories())
def test_every_capture_obeys_the_priority_rule(history: History) -> None:
    for state, move, _after in transitions(history):
        if isinstance(move, Play):
            wanted = reference_captures(state.table, move.card)
            if wanted:
                assert move.capture in wanted
                singles = [c for c in state.table if TUNISIAN.value(c) == TUNISIAN.value(move.card)]
                if singles:
                    assert len(move.capture) == 1
            else:
                assert move.capture == frozenset()


@given(histories())
def test_chkobbas_are_sweeps_except_with_the_last_card(history: History) -> None:
    for state, move, after in transitions(history):
        if not isinstance(move, Play):
            continue
        side = state.side_of(state.current_player)  # type: ignore[arg-type]
        gained = [a - b for a, b in zip(after.chkobbas, state.chkobbas, strict=True)]
        if after.phase is Phase.PLAY:
            swept = bool(move.capture) and not after.table
            assert gained[side] == int(swept) and gained[1 - side] == 0
        else:  # the deal ended with this card: never a chkobba
            assert gained == [0, 0]


# --- deals and matches ------------------------------------------------------------------------


@given(histories())
def test_matches_terminate(history: History) -> None:
    # The walk stops after MOVE_LIMIT moves (far beyond any real match) and hands back the
    # unfinished match, so a match that never ends fails here instead of hanging.
    assert history.finished, f"{history!r} is not over after {len(history.moves)} moves"
    assert len(history.moves) < MOVE_LIMIT
    deals = len(history.last.deal_scores)
    voids = sum(
        1
        for s, a in zip(history.states, history.states[1:], strict=False)
        if s.phase is Phase.CUT and a.phase is Phase.SHUFFLE
    )
    plays = sum(isinstance(m, Play) for m in history.moves)
    assert plays == 36 * deals  # every deal plays 36 cards, whatever the player count
    assert len(history.moves) == plays + 2 * (deals + voids)


@given(histories())
def test_totals_only_grow_and_equal_the_sum_of_the_deal_scores(history: History) -> None:
    start = history.scores
    for state, _move, after in transitions(history):
        assert all(b >= a for a, b in zip(state.scores, after.scores, strict=True))
        assert after.deal_scores[: len(state.deal_scores)] == state.deal_scores
        if after.scores != state.scores:
            assert len(after.deal_scores) == len(state.deal_scores) + 1
    for state in history.states:
        for side in (0, 1):
            earned = sum(score.points[side] for score in state.deal_scores)
            assert state.scores[side] == start[side] + earned
    assert history.finished, f"{history!r} is not over after {len(history.moves)} moves"
    last = history.last
    target = last.rules.target
    winner = last.winner
    assert winner is not None
    assert last.scores[winner] >= target and last.scores[winner] > last.scores[1 - winner]


def reference_winner(scores: tuple[int, ...], target: int) -> int | None:
    """RULES.md §6 read literally."""
    reached = [side for side in (0, 1) if scores[side] >= target]
    if len(reached) == 1:
        return reached[0]
    if len(reached) == 2 and scores[0] != scores[1]:
        return 0 if scores[0] > scores[1] else 1
    return None


@given(histories())
def test_each_deal_end_decides_the_match_as_the_rules_say(history: History) -> None:
    for state, _move, after in transitions(history):
        if len(after.deal_scores) > len(state.deal_scores):
            winner = reference_winner(after.scores, after.rules.target)
            assert after.winner == winner
            assert after.phase is (Phase.SHUFFLE if winner is None else Phase.OVER)
            if winner is None:
                assert after.dealer == (state.dealer + 1) % state.players


Hands = list[tuple[Card, ...]]


def reference_deal(
    order: Sequence[Card], keep: bool, players: int, dealer: int
) -> tuple[Hands, tuple[Card, ...], list[Hands]]:
    """The first hands, the table and the hands of every refill, dealt from ``order`` by
    RULES.md §3 and §4 and written independently of the engine."""
    cutter = (dealer + 1) % players
    rest = list(order[1:])
    hands: list[list[Card]] = [[] for _ in range(players)]
    table: list[Card] = []
    (hands[cutter] if keep else table).append(order[0])
    seat = cutter
    while any(len(h) < 3 for h in hands):
        if len(hands[seat]) < 3:  # a full hand is passed over
            hands[seat].append(rest.pop(0))
        seat = (seat + 1) % players
    while len(table) < 4:
        table.append(rest.pop(0))
    first = [tuple(h) for h in hands]
    refills: list[Hands] = []
    while rest:
        hands = [[] for _ in range(players)]
        for i in range(3 * players):
            hands[(cutter + i) % players].append(rest.pop(0))
        refills.append([tuple(h) for h in hands])
    return first, tuple(table), refills


@given(histories(max_moves=200))
def test_every_round_is_dealt_from_the_shuffle_as_the_rules_say(history: History) -> None:
    order: Sequence[Card] = ()
    refills: list[Hands] = []
    for state, move, after in transitions(history):
        if isinstance(move, Shuffle):
            order = move.order
        elif isinstance(move, Cut) and after.phase is Phase.PLAY:
            first, table, refills = reference_deal(order, move.keep, state.players, state.dealer)
            assert list(after.hands) == first and after.table == table
        elif isinstance(move, Play) and state.stock and sum(map(len, state.hands)) == 1:
            # The last card of a round: everyone gets three more, the cutter leads.
            assert list(after.hands) == refills.pop(0)
            assert after.current_player == after.cutter
        if after.phase is Phase.SHUFFLE and after.deal_scores:
            assert refills == []  # every refill happened


@given(histories(max_moves=400))
def test_the_turn_and_the_hands_follow_the_rules(history: History) -> None:
    for state in history.states:
        if state.phase is Phase.PLAY:
            sizes = [len(h) for h in state.hands]
            cutter = state.cutter
            mover = state.current_player
            assert mover is not None
            # Players from the cutter up to the mover have played one card fewer.
            played = (mover - cutter) % state.players
            expected = [
                max(sizes) - (1 if (p - cutter) % state.players < played else 0)
                for p in range(state.players)
            ]
            assert sizes == expected
            assert len(state.stock) % (3 * state.players) == 0
        else:
            assert state.current_player is None or state.phase is Phase.CUT


# --- the worked example of RULES.md §7, verbatim ---------------------------------------------

#: Side A's pile before the example's play: with QH 2D 6S (the sweep) and KC (the leftover)
#: it makes 22 cards, 6 diamonds, the 7D, two sevens and three of the four sixes.
A_BEFORE = "7D 7S 6H 6C AD 3D 4D 5D AS AH AC 2S 2H 2C 3S 3H 3C 4S"


def worked_example(scores: tuple[int, int], b_chkobbas: int = 0) -> State:
    """Mid-deal the table holds only 2D and 6S; A (player 0, the cutter) holds QH."""
    return arranged(
        dealer=1,
        hands=["QH", "KC"],
        table="2D 6S",
        stock="",
        captured=[A_BEFORE, ""],
        chkobbas=(0, b_chkobbas),
        scores=scores,
        last_capturer=1,
    )


def test_worked_example_verbatim() -> None:
    state = worked_example((17, 9))
    assert capture_options(state.table, card("QH")) == (frozenset(cards("2D 6S")),)
    assert capture_options(state.table, card("JH")) == ()  # J (9) could not
    swept = apply(state, Play(card("QH"), cards("2D 6S")))
    assert swept.table == () and swept.chkobbas == (1, 0)
    end = apply(swept, Play(card("KC")))  # B's last card; the leftover goes to A
    score = end.deal_scores[-1]
    assert score.card_counts[0] == 22 and score.diamond_counts[0] == 6
    assert score.seven_counts == (2, 2) and score.six_counts == (3, 1)
    assert card("7D") in end.captured[0]
    assert tuple(score.winners.values())[:4] == (0, 0, 0, 0)
    assert score.chkobbas == (1, 0)
    assert score.points == (5, 0)
    assert end.scores == (22, 9)
    assert end.is_over and end.winner == 0


@pytest.mark.parametrize(
    ("b_start", "b_chkobbas", "phase", "winner"),
    [(20, 1, Phase.OVER, 0), (19, 3, Phase.SHUFFLE, None), (20, 3, Phase.OVER, 1)],
)
def test_worked_example_when_the_other_side_reaches_21_too(
    b_start: int, b_chkobbas: int, phase: Phase, winner: int | None
) -> None:
    state = worked_example((17, b_start), b_chkobbas)
    end = apply(apply(state, Play(card("QH"), cards("2D 6S"))), Play(card("KC")))
    assert end.scores == (22, b_start + b_chkobbas)
    assert end.phase is phase and end.winner == winner


@given(st.data())
def test_a_drawn_legal_move_keeps_the_deck_whole(data: st.DataObject) -> None:
    state = data.draw(states().filter(lambda s: not s.is_over))
    move = data.draw(moves_in(state))
    after = apply(state, move)
    assert sorted(where_cards_are(after)) == list(DECK)
    assert all(b >= a for a, b in zip(state.scores, after.scores, strict=True))
