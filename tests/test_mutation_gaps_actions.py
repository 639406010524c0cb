"""Tests for the gaps a mutmut audit of ``actions.py`` found (the audit of 2026-12-04).

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to the library that the rest of the suite let through (tools/mutation/README.md).
They pin the bound of the capture ids under each profile and a card that reaches it,
what a pending card accepts, :func:`~chkobba.actions.describe` at the edges of the id
ranges, the pending line of the board, and the full text of the refusals (each names
the function, the value and the ids that would do).
"""

from __future__ import annotations

import random

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    ChkobbaError,
    Cut,
    IllegalMoveError,
    Move,
    Play,
    Rules,
    State,
    apply,
    card,
    cards,
    new_match,
    observe,
    random_shuffle,
    render,
)
from chkobba.actions import (
    FIRST_CAPTURE,
    KEEP,
    NUM_ACTIONS,
    Position,
    action_ids,
    advance,
    capture_choices,
    describe,
    legal_actions,
    max_capture_options,
    move_for,
    num_actions,
    render_position,
    step,
)
from tests.helpers import arranged, dealt

# The worst tables: every capture value below the king's once, plus the repeats the
# first four table cards can bring (two aces and two twos under the Tunisian profile,
# where three of a rank void the deal; four aces under CardRulesPlus, J=8 Q=9, where only
# three kings do). The king (10) then has the documented bound of options.
WORST = [
    (TUNISIAN, "AS AH 2S 2H 3S 4S 5S 6S 7S QS JS", 28),
    (CARD_RULES_PLUS, "AS AH AD AC 2S 3S 4S 5S 6S 7S JS QS", 56),
]


def _worst(rules: Rules, table: str) -> State:
    """Player 1 to move, holding the king that has the most options on ``table``."""
    return arranged(hands=["KH", "KD"], table=table, rules=rules)


def _pending_qh() -> Position:
    """QH played on 2D 6S 3C 5H, its two sums (2D+6S, 3C+5H) still to choose from."""
    state = apply(apply(new_match(), random_shuffle(random.Random(2))), Cut(keep=False))
    state = attrs.evolve(state, table=cards("2D 6S 3C 5H"), hands=(cards("AS"), cards("QH")))
    position = step(Position(state), card("QH").index)
    assert position.pending is card("QH")
    return position


# --- the bound of the capture ids ------------------------------------------------------------


@pytest.mark.parametrize(("rules", "table", "bound"), WORST)
def test_the_bound_is_what_a_king_on_the_worst_table_can_take(
    rules: Rules, table: str, bound: int
) -> None:
    # 28 and 56 are the documented bounds (max_capture_options' docstring).
    state = _worst(rules, table)
    assert len(capture_choices(state, card("KD"))) == max_capture_options(rules) == bound
    assert num_actions(rules) == FIRST_CAPTURE + bound


def test_the_bound_counts_no_sum_where_none_reaches_the_value() -> None:
    # Every card worth 1: a card is laid only on an empty table, so the table holds at
    # most the four first cards, and a played card takes any one of them; no group of
    # two or more sums to 1, so with sums allowed beside singles there are still 4.
    ones = Rules(name="all ones", capture_values=(1,) * 10, equal_single_first=False)
    assert max_capture_options(ones) == 4
    state = arranged(hands=["5S", "5H"], table="AS 2S 3S 4S", rules=ones)
    assert capture_choices(state, card("5H")) == tuple(frozenset({c}) for c in cards("AS 2S 3S 4S"))


@pytest.mark.parametrize(("rules", "table", "bound"), WORST)
def test_a_card_with_as_many_options_as_the_bound_is_played(
    rules: Rules, table: str, bound: int
) -> None:
    """The bound is inclusive: every option gets an id, the last one ``num_actions - 1``
    (over 69 under CardRulesPlus), and choosing it captures that option."""
    state = _worst(rules, table)
    position = step(Position(state), card("KD").index)
    assert position.pending is card("KD")
    last = num_actions(rules) - 1
    assert legal_actions(position) == tuple(range(FIRST_CAPTURE, last + 1))
    # In deck order the last option is the one whose first card comes latest: no ace,
    # two or three can be in it, so it is 4S+6S.
    assert describe(position, last) == "KD x 4S+6S"
    after, move = advance(position, last)
    assert move == Play(card("KD"), cards("4S 6S"))
    assert after.pending is None
    assert set(after.state.table) == set(cards(table)) - set(cards("4S 6S"))


def test_ids_beyond_the_tunisian_space_choose_captures_under_a_larger_profile() -> None:
    state = _worst(CARD_RULES_PLUS, WORST[1][1])
    position = Position(state)
    with pytest.raises(IllegalMoveError) as error:
        move_for(position, 97)
    assert str(error.value) == (
        "action 97 chooses a capture, but no card is waiting for one (phase PLAY)"
    )
    with pytest.raises(IllegalMoveError) as error:
        move_for(position, 98)
    assert str(error.value) == "action 98 is not an id from 0 to 97"


# --- out-of-range ids and the choice of a pending card ----------------------------------------


def test_an_id_out_of_range_names_the_range() -> None:
    position = _pending_qh()
    with pytest.raises(IllegalMoveError) as error:
        step(position, NUM_ACTIONS)
    assert str(error.value) == "action 70 is not an id from 0 to 69"


@pytest.mark.parametrize("action", [KEEP, FIRST_CAPTURE + 2, card("QH").index])
def test_a_pending_card_names_the_ids_of_its_choices(action: int) -> None:
    with pytest.raises(IllegalMoveError) as error:
        step(_pending_qh(), action)
    assert str(error.value) == (
        f"action {action}: QH was played and its capture must be chosen with an id from 42 to 43"
    )


def test_a_pending_card_takes_only_its_own_captures_as_moves() -> None:
    position = _pending_qh()
    assert action_ids(position, Play(card("QH"), cards("2D 6S"))) == (FIRST_CAPTURE,)
    assert action_ids(position, Play(card("QH"), cards("3C 5H"))) == (FIRST_CAPTURE + 1,)
    refused: list[tuple[Move, str]] = [
        (Play(card("QD"), cards("2D 6S")), "QD x 2D+6S"),  # another 8, an option of QH's
        (Play(card("QH"), cards("2D 3C")), "QH x 2D+3C"),  # not one of QH's options
        (Play(card("QH"), ()), "QH"),
        (Cut(keep=True), "keep"),
    ]
    for move, text in refused:
        with pytest.raises(IllegalMoveError) as error:
            action_ids(position, move)
        assert str(error.value) == f"{text} cannot be made: QH waits for its capture"


def test_outside_the_play_phase_a_card_id_is_a_plain_play() -> None:
    # The hand-built table of the docstrings, in the SHUFFLE phase: the card's captures
    # are not read (QH would have two, 7C one); apply refuses the play for the phase.
    position = Position(attrs.evolve(new_match(), table=cards("6S 2D 3C 5H")))
    assert move_for(position, card("QH").index) == Play(card("QH"), ())
    assert move_for(position, card("7C").index) == Play(card("7C"), ())
    with pytest.raises(IllegalMoveError) as error:
        step(position, card("QH").index)
    assert str(error.value) == "Play is not allowed in phase SHUFFLE"


# --- describe ---------------------------------------------------------------------------


def test_describe_names_every_choice_of_a_pending_card_and_only_those() -> None:
    position = _pending_qh()
    assert [describe(position, a) for a in range(FIRST_CAPTURE, FIRST_CAPTURE + 3)] == [
        "QH x 2D+6S",
        "QH x 3C+5H",
        "capture option 2",
    ]


def test_describe_numbers_capture_options_within_the_profiles_bound() -> None:
    tunisian = Position(new_match())
    assert [describe(tunisian, a) for a in (42, 69, 70, -1, 10**6)] == [
        "capture option 0",
        "capture option 27",
        "action 70",
        "action -1",
        "action 1000000",
    ]
    larger = Position(new_match(rules=CARD_RULES_PLUS))
    assert [describe(larger, a) for a in (97, 98)] == ["capture option 55", "action 98"]


# --- the board ----------------------------------------------------------------------------


def test_render_position_adds_a_line_for_the_pending_card_only() -> None:
    position = _pending_qh()
    assert render_position(position) == (
        render(position.state) + "\nPending    Q♥ waits for its capture choice"
    )
    plain = Position(position.state)
    assert render_position(plain) == render(plain.state)


# --- refusals of arguments ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("legal_actions", lambda p: legal_actions(p)),
        ("action_ids", lambda p: action_ids(p, Cut(keep=True))),
        ("step", lambda p: step(p, KEEP)),
        ("advance", lambda p: advance(p, KEEP)),
        ("move_for", lambda p: move_for(p, KEEP)),
        ("describe", lambda p: describe(p, KEEP)),
        ("render_position", lambda p: render_position(p)),
    ],
)
def test_each_function_names_itself_and_what_it_got_for_a_position(name: str, call: object) -> None:
    with pytest.raises(ChkobbaError) as error:
        call("QH")  # type: ignore[operator]
    assert str(error.value) == f"{name}: expected a Position, got 'QH' (str)"
    with pytest.raises(ChkobbaError) as error:
        call(new_match())  # type: ignore[operator]
    assert str(error.value) == (
        f"{name}: expected a Position, got a State (Position(state) is the position of a State)"
    )


def test_wrong_arguments_are_quoted_as_given() -> None:
    with pytest.raises(ChkobbaError) as error:
        Position(42)  # type: ignore[arg-type]
    assert str(error.value) == "Position: expected a State, got 42 (int)"
    with pytest.raises(ChkobbaError) as error:
        capture_choices(42, card("QH"))  # type: ignore[arg-type]
    assert str(error.value) == "capture_choices: expected a State or a PlayerView, got 42 (int)"
    with pytest.raises(ChkobbaError) as error:
        action_ids(Position(new_match()), "QH")  # type: ignore[arg-type]
    assert str(error.value) == "action_ids: expected a Move, got 'QH'"


def test_the_shuffle_has_no_action_id() -> None:
    shuffle = random_shuffle(random.Random(1))
    with pytest.raises(IllegalMoveError) as error:
        action_ids(Position(new_match()), shuffle)
    assert str(error.value) == f"{shuffle} has no action id: the shuffle is a chance event"


def test_a_pending_card_without_a_choice_is_refused_with_its_count() -> None:
    # Player 1 holds 4D (no 4 on the table, no two cards sum to 4), KH (only 2D+3C+5C
    # make 10) and QS (2D+6S or 3C+5C: the one card that may be pending).
    state = dealt(hands=["QH 5D AC", "4D QS KH"], table="2D 6S 3C 5C")
    assert Position(state, pending=card("QS")).pending is card("QS")
    for played, count in [("4D", "no"), ("KH", "1")]:
        with pytest.raises(ChkobbaError) as error:
            Position(state, pending=card(played))
        assert str(error.value) == (
            f"Position: {played} cannot be pending: "
            f"{played} has {count} capture option, nothing to choose"
        )


def test_a_held_cards_choices_come_from_the_listed_plays_without_capture_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The adapters' step reads each card's captures from the plays the state lists once
    # (and apply reads again); capture_options answers only what they do not tell: a
    # view, or a card the mover does not hold.
    state = arranged(current=1, hands=("AS 2S 3S", "QH 4C 5H"), table="2D 6S 3C 5C")
    asked: list[str] = []

    def capture_options(table: object, played: object, rules: Rules) -> tuple[object, ...]:
        asked.append(str(played))
        return ()

    monkeypatch.setattr("chkobba.actions.capture_options", capture_options)
    held = {c: capture_choices(state, card(c)) for c in ("QH", "4C", "5H")}
    assert held == {
        "QH": (frozenset(cards("2D 6S")), frozenset(cards("3C 5C"))),
        "4C": (),  # laid: nothing to take
        "5H": (frozenset(cards("5C")),),
    }
    assert asked == []
    assert capture_choices(state, card("AS")) == ()  # not the mover's: asked
    assert capture_choices(observe(state, 1), card("QH")) == ()  # a view: asked (patched)
    assert asked == ["AS", "QH"]
