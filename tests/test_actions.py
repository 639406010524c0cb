"""The shared action encoding (chkobba.actions) and observation vectors (chkobba.observations)."""

from __future__ import annotations

import itertools
import math
import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chkobba import (
    DECK,
    ChkobbaError,
    Cut,
    IllegalMoveError,
    Phase,
    Play,
    State,
    apply,
    capture_options,
    card,
    cards,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.actions import (
    EXPOSE,
    FIRST_CAPTURE,
    KEEP,
    MAX_CAPTURE_OPTIONS,
    NUM_ACTIONS,
    Position,
    action_ids,
    capture_choices,
    describe,
    legal_actions,
    max_capture_options,
    move_for,
    num_actions,
    step,
)
from chkobba.observations import (
    LAYOUT,
    OBSERVATION_SIZE,
    observation_bounds,
    observation_vector,
    piece,
)
from tests.helpers import dealt
from tests.strategies import profile_states


def random_positions(seed: int, players: int, deals: int = 1) -> list[Position]:
    """Every decision position of ``deals`` random deals played through action ids."""
    rng = random.Random(seed)
    position = Position(new_match(players, dealer=rng.randrange(players)))
    seen: list[Position] = []
    while len(position.state.deal_scores) < deals and not position.state.is_over:
        if position.state.phase is Phase.SHUFFLE:
            position = Position(apply(position.state, random_shuffle(rng)))
            continue
        seen.append(position)
        position = step(position, rng.choice(legal_actions(position)))
    return seen


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    found: list[Position] = []
    for seed in range(30):
        found += random_positions(seed, 2 if seed % 2 else 4)
    return found


def test_the_ids_cover_cards_cuts_and_capture_choices() -> None:
    assert (KEEP, EXPOSE, FIRST_CAPTURE) == (40, 41, 42)
    assert NUM_ACTIONS == FIRST_CAPTURE + MAX_CAPTURE_OPTIONS
    assert [describe(Position(new_match()), i) for i in (0, 2, 39, KEEP, EXPOSE)] == [
        "play AS",
        "play AD",
        "play KC",
        "keep",
        "expose",
    ]


def _groups_summing_to(values: list[int], target: int) -> int:
    return sum(
        1
        for size in range(2, len(values) + 1)
        for group in itertools.combinations(range(len(values)), size)
        if sum(values[i] for i in group) == target
    )


def test_max_capture_options_is_the_worst_table() -> None:
    # A table holds each value at most twice, with at most two repeated values (see the
    # constant's comment); the worst played value over every such table is the bound.
    worst = 0
    for first, second in itertools.combinations_with_replacement(range(1, 10), 2):
        table = [*range(1, 10), first, *([second] if second != first else [])]
        for value in range(1, 11):
            worst = max(worst, _groups_summing_to([v for v in table if v < value], value))
    assert worst == MAX_CAPTURE_OPTIONS


def test_a_king_on_the_worst_table_has_the_maximum_options() -> None:
    table = cards("AS AH 2S 2H 3S 4S 5S 6S 7S QS JS")
    state = attrs.evolve(new_match(), table=table)
    assert len(capture_choices(state, card("KD"))) == MAX_CAPTURE_OPTIONS


def test_a_table_beyond_the_bound_is_refused_not_misnumbered() -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(2))), Cut(keep=False))
    crowded = cards("AS AH AD 2S 2H 2D 3S 3H 4S 5S 6S 7S QS JS")  # not reachable in play
    state = attrs.evolve(state, table=crowded, hands=(cards("KH"), cards("KD")))
    assert len(capture_choices(state, card("KD"))) > MAX_CAPTURE_OPTIONS
    with pytest.raises(ValueError, match="the action encoding numbers at most 28"):
        step(Position(state), card("KD").index)


@given(st.permutations(cards("AS 2H 3C 4D 5S 6H 7C QD")), st.sampled_from(cards("KH 7D 6D QH")))
def test_capture_choices_do_not_depend_on_table_order(table: list[object], played: object) -> None:
    reference = capture_choices(
        attrs.evolve(new_match(), table=cards("AS 2H 3C 4D 5S 6H 7C QD")), played
    )  # type: ignore[arg-type]
    assert capture_choices(attrs.evolve(new_match(), table=tuple(table)), played) == reference  # type: ignore[arg-type]
    keys = [sorted(c.index for c in option) for option in reference]
    assert keys == sorted(keys)


def test_legal_actions_are_exactly_the_core_legal_moves(positions: list[Position]) -> None:
    for position in (p for p in positions if p.pending is None):
        moves = set(legal_moves(position.state))
        reached = set()
        for action in legal_actions(position):
            after = step(position, action)
            if after.pending is None:
                reached.add(_move_between(position, action))
            else:
                for choice in legal_actions(after):
                    reached.add(
                        Play(
                            after.pending,
                            capture_choices(position.state, after.pending)[choice - FIRST_CAPTURE],
                        )
                    )
        assert reached == moves


def _move_between(position: Position, action: int) -> object:
    if action in (KEEP, EXPOSE):
        return Cut(keep=action == KEEP)
    played = DECK[action]
    choices = capture_choices(position.state, played)
    return Play(played, choices[0] if choices else frozenset())


def test_action_ids_round_trip_every_legal_move(positions: list[Position]) -> None:
    for position in positions[:400]:
        if position.pending is not None:
            moves = [m for m in legal_moves(position.state) if m.card is position.pending]  # type: ignore[union-attr]
            assert sorted(action_ids(position, m) for m in moves) == [
                (a,) for a in legal_actions(position)
            ]
            continue
        for move in legal_moves(position.state):
            after = position
            for action in action_ids(position, move):
                after = step(after, action)
            assert after == Position(apply(position.state, move))


def test_two_step_plays_happen_and_stay_with_the_same_player(positions: list[Position]) -> None:
    pending = [p for p in positions if p.pending is not None]
    assert pending, "random deals should meet cards with several capture options"
    for position in pending:
        ids = legal_actions(position)
        assert ids == tuple(range(FIRST_CAPTURE, FIRST_CAPTURE + len(ids)))
        assert 2 <= len(ids) <= MAX_CAPTURE_OPTIONS
        assert position.state.phase is Phase.PLAY


def test_illegal_ids_raise_and_are_never_mapped(positions: list[Position]) -> None:
    for position in positions[::7]:
        legal = set(legal_actions(position))
        for action in range(NUM_ACTIONS):
            if action not in legal:
                with pytest.raises(IllegalMoveError):
                    step(position, action)
    for bad in (-1, NUM_ACTIONS, 2.0, "3"):
        with pytest.raises(IllegalMoveError, match="id"):
            step(positions[0], bad)  # type: ignore[arg-type]


def test_illegal_ids_carry_the_core_reason() -> None:
    state = apply(new_match(), random_shuffle(random.Random(5)))
    with pytest.raises(IllegalMoveError, match="Play is not allowed in phase CUT"):
        step(Position(state), 0)
    state = apply(state, Cut(keep=False))
    absent = next(c for c in DECK if c not in state.hands[state.current_player])  # type: ignore[index]
    with pytest.raises(IllegalMoveError, match=f"{absent} is not in player 1's hand"):
        step(Position(state), absent.index)
    with pytest.raises(IllegalMoveError, match="no card is waiting"):
        step(Position(state), FIRST_CAPTURE)


def test_a_card_not_in_hand_is_refused_even_with_several_options() -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(2))), Cut(keep=False))
    state = attrs.evolve(state, table=cards("2D 6S 3C 5H"), hands=(cards("AS"), cards("7C")))
    with pytest.raises(IllegalMoveError, match="QH is not in player 1's hand"):
        step(Position(state), card("QH").index)


def test_pending_step_refuses_other_ids() -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(2))), Cut(keep=False))
    state = attrs.evolve(state, table=cards("2D 6S 3C 5H"), hands=(cards("AS"), cards("QH")))
    position = step(Position(state), card("QH").index)
    assert position.pending is card("QH")
    assert describe(position, FIRST_CAPTURE + 1) == "QH x 3C+5H"
    for action in (card("QH").index, KEEP, FIRST_CAPTURE + 2):
        with pytest.raises(IllegalMoveError, match="capture must be chosen"):
            step(position, action)


def test_steps_accept_numpy_style_integers() -> None:
    class Index:
        def __index__(self) -> int:
            return EXPOSE

    position = Position(apply(new_match(), random_shuffle(random.Random(1))))
    assert step(position, Index()) == step(position, EXPOSE)  # type: ignore[arg-type]


def test_positions_copy_as_themselves() -> None:
    import copy

    position = Position(new_match())
    assert copy.deepcopy(position) is position and copy.copy(position) is position


# --- observations -------------------------------------------------------------------


def test_observation_layout_adds_up() -> None:
    assert sum(size for _, size in LAYOUT) == OBSERVATION_SIZE
    low, high = observation_bounds()
    assert len(low) == len(high) == OBSERVATION_SIZE
    assert all(math.isinf(x) for x in piece(high, "scores")) and high[0] == 1.0
    assert piece(high, "chkobbas") == [3.5, 3.5]
    with pytest.raises(ValueError, match="not an observation piece"):
        piece([0.0] * OBSERVATION_SIZE, "nope")


def test_observations_hold_only_visible_cards(positions: list[Position]) -> None:
    low, high = observation_bounds()
    for position in positions:
        state = position.state
        for player in range(state.players):
            view = observe(state, player)
            vector = observation_vector(view, position.pending)
            assert len(vector) == OBSERVATION_SIZE
            assert all(lo <= x <= hi for lo, x, hi in zip(low, vector, high, strict=True))
            visible = {*view.hand, *view.table, *view.captured[0], *view.captured[1]}
            if view.cut_card is not None:
                visible.add(view.cut_card)
            if position.pending is not None:
                visible.add(position.pending)
            for name in ("hand", "table", "our_pile", "their_pile", "cut_card", "pending"):
                shown = {DECK[i] for i, bit in enumerate(piece(vector, name)) if bit}
                assert shown <= visible, name
            assert {DECK[i] for i, bit in enumerate(piece(vector, "hand")) if bit} == set(
                state.hands[player]
            )


def test_observations_are_egocentric() -> None:
    state = apply(new_match(4, dealer=2), random_shuffle(random.Random(3)))
    for player in range(4):
        vector = observation_vector(observe(state, player))
        assert piece(vector, "current_player").index(1.0) == (3 - player) % 4
        assert piece(vector, "dealer").index(1.0) == (2 - player) % 4
        assert piece(vector, "phase") == [0.0, 1.0, 0.0, 0.0]
        assert piece(vector, "four_players") == [1.0]


def test_observation_sides_swap_with_the_viewer() -> None:
    state = attrs.evolve(new_match(), scores=(7, 14), chkobbas=(1, 3))
    assert piece(observation_vector(observe(state, 0)), "scores") == [7 / 21, 14 / 21]
    assert piece(observation_vector(observe(state, 1)), "scores") == [14 / 21, 7 / 21]
    assert piece(observation_vector(observe(state, 1)), "chkobbas") == [0.3, 0.1]


# --- bad input: a ChkobbaError naming it, never a raw TypeError (hardening) ----------------


def _cut_done() -> Position:
    state = apply(new_match(), random_shuffle(random.Random(1)))
    return Position(apply(state, Cut(keep=False)))


@pytest.mark.parametrize("function", [step, move_for, describe])
def test_a_huge_action_is_described_not_written(function: object) -> None:
    position = _cut_done()
    try:
        text = function(position, 10**5000)  # type: ignore[operator]
    except IllegalMoveError as error:
        text = str(error)
    assert "an integer of about 5001 digits" in text


def test_a_bool_is_not_an_action_id() -> None:
    with pytest.raises(IllegalMoveError, match="action True is not an integer id"):
        step(_cut_done(), True)


@pytest.mark.parametrize("function", [max_capture_options, num_actions])
@pytest.mark.parametrize("rules", [[1], {}, None])
def test_rules_that_are_not_a_profile_are_named(function: object, rules: object) -> None:
    name = function.__name__  # type: ignore[attr-defined]
    with pytest.raises(ChkobbaError, match=f"{name}: rules must be a Rules profile, not "):
        function(rules)  # type: ignore[operator]


def test_a_position_needs_a_state_and_a_card() -> None:
    state = _cut_done().state
    with pytest.raises(ChkobbaError, match="Position: expected a State, got None"):
        Position(None)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="pending must be a Card or None, not 'QH'"):
        Position(state, pending="QH")  # type: ignore[arg-type]
    # Only a card advance() could leave pending: the mover's, with captures to choose.
    choosing = dealt(hands=["QH 5D AC", "3D QS KH"], table="2D 6S 3C 5C")
    mover = choosing.hands[choosing.current_player]
    held = next(c for c in mover if len(capture_choices(choosing, c)) > 1)
    assert Position(choosing, pending=held).pending is held
    lone = next(c for c in mover if len(capture_choices(choosing, c)) < 2)
    absent = next(c for c in choosing.table if c not in mover)
    for card_, reason in [
        (lone, "has (no|1) capture option, nothing to choose"),
        (absent, "is not in player .'s hand"),
    ]:
        with pytest.raises(ChkobbaError, match=f"Position: {card_} cannot be pending: .*{reason}"):
            Position(choosing, pending=card_)
    with pytest.raises(ChkobbaError, match="Play is not allowed in phase SHUFFLE"):
        Position(new_match(), pending=card("QH"))


def test_capture_choices_reads_a_players_view_as_its_state() -> None:
    # A user interface holds only its view: the table and the rules are all it needs.
    position = _cut_done()
    state = position.state
    for player in range(state.players):
        view = observe(state, player)
        for played in DECK:
            assert capture_choices(view, played) == capture_choices(state, played)


@given(profile_states(phases=[Phase.PLAY]))
def test_capture_choices_of_a_state_are_its_cards_capture_options_in_deck_order(
    state: State,
) -> None:
    # A state answers from its listed legal plays (shared with apply), a view from
    # capture_options: the two must agree for every card, held or not.
    mover = state.hands[state.mover]
    view = observe(state, state.mover)
    for played in DECK:
        choices = capture_choices(state, played)
        assert choices == capture_choices(view, played)
        if played in state.table:
            assert choices == ()
            continue
        options = capture_options(state.table, played, state.rules)
        assert choices == tuple(sorted(options, key=lambda o: sorted(c.index for c in o)))
        if played in mover:
            listed = {play.capture for play in state.legal_plays if play.card is played}
            assert listed == (set(choices) or {frozenset()})


def test_capture_choices_and_action_ids_name_wrong_arguments() -> None:
    position = _cut_done()
    with pytest.raises(
        ChkobbaError, match="capture_choices: expected a State or a PlayerView, got None"
    ):
        capture_choices(None, card("QH"))  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="capture_choices: expected a Card, got 'QH'"):
        capture_choices(position.state, "QH")  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="action_ids: expected a Move, got None"):
        action_ids(position, None)  # type: ignore[arg-type]
