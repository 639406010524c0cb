"""Findings of stop 81's reviews: the code read against the brief's standards (one
function decides legality; no raw exception from a public helper) and the issues' words
checked as an outside test suite would.

Each test failed on the code before its fix.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from chkobba import (
    ChkobbaError,
    Cut,
    IllegalMoveError,
    Play,
    Record,
    RecordError,
    Shuffle,
    State,
    apply,
    illegal_reason,
    is_legal,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.arena import _stop_workers
from chkobba.state import match_winner


class MyShuffle(Shuffle):
    pass


class MyCut(Cut):
    pass


class MyPlay(Play):
    pass


def _positions() -> tuple[State, State, State]:
    start = new_match()
    cut = apply(start, random_shuffle(random.Random(1)))
    return start, cut, apply(cut, Cut(keep=False))


def _subclassed(state: State) -> Any:
    if state.phase.name == "SHUFFLE":
        return MyShuffle(random_shuffle(random.Random(1)).order)
    if state.phase.name == "CUT":
        return MyCut(keep=True)
    listed = legal_moves(state)[0]
    assert isinstance(listed, Play)
    return MyPlay(listed.card, listed.capture)


@pytest.mark.parametrize("index", [1, 2])
def test_a_subclass_of_a_move_is_refused_everywhere_alike(index: int) -> None:
    # A MyCut was not among legal_moves, yet is_legal said True and apply played it; a
    # MyPlay of a listed play was refused as "JS cannot take 3H+6C: it can take 3H+6C".
    # Moves compare by exact class, so the one answer that agrees with the list is no.
    state = _positions()[index]
    move = _subclassed(state)
    base = type(move).__mro__[1].__name__
    assert move not in legal_moves(state)
    assert is_legal(state, move) is False
    reason = illegal_reason(state, move)
    assert reason == (
        f"a {type(move).__name__} of {__name__} is a subclass of {base}, not a move: "
        f"give a {base} itself, as legal_moves lists them"
    )
    with pytest.raises(IllegalMoveError) as refused:
        apply(state, move)
    assert str(refused.value) == reason
    # A record refuses it too: saved, it read back as the plain move, another record.
    with pytest.raises(RecordError, match=r"^move 2 \(index 1\): a My"):
        Record(players=2, moves=[random_shuffle(random.Random(1)), move])


def test_a_subclass_of_a_shuffle_plays_as_in_0_1_0() -> None:
    # Chance: legal_moves never lists a shuffle, so nothing disagrees with the list.
    start = new_match()
    move = _subclassed(start)
    assert isinstance(move, MyShuffle)
    assert is_legal(start, move) and illegal_reason(start, move) is None
    assert apply(start, move) == apply(start, Shuffle(move.order))
    assert Record(players=2, moves=[move]).moves == (move,)


@pytest.mark.parametrize(
    ("name", "shown"), [("A" * 1000, "A" * 59 + "…"), ("X\x1b[2J\nY", "X\\x1b[2J\\nY")]
)
def test_a_subclass_is_named_shortened_and_escaped(name: str, shown: str) -> None:
    # The class's name went whole into the message: a million characters, or a terminal's
    # escape code and a line break.
    state = _positions()[1]
    reason = illegal_reason(state, type(name, (Cut,), {})(keep=True))
    assert reason == (
        f"a {shown} of {__name__} is a subclass of Cut, not a move: give a Cut itself, "
        "as legal_moves lists them"
    )


def test_a_subclass_of_a_play_is_refused_through_a_view_too() -> None:
    state = _positions()[2]
    view = observe(state, state.current_player)  # type: ignore[arg-type]
    move = _subclassed(state)
    assert is_legal(view, move) is False
    assert "is a subclass of Play, not a move" in str(illegal_reason(view, move))


@pytest.mark.parametrize(
    ("scores", "target"),
    [
        ((), 21),
        (None, 21),
        ((21, 18), None),
        ("21", 21),
        ((21, "18"), 21),
        (("9", "18"), "21"),  # compared as text, side 0 "won" with 9 of 21
        ({0: 21, 1: 3}, 21),  # its keys were compared
        ((True, False), 1),
        ((21.0, 3), 21),
        ({21, 3}, 21),
    ],
)
def test_match_winner_refuses_totals_it_cannot_read(scores: Any, target: Any) -> None:
    # match_winner((), 21) raised "max() arg is an empty sequence", and None a TypeError.
    with pytest.raises(ChkobbaError, match=r"^match_winner: expected a tuple of totals"):
        match_winner(scores, target)


def test_match_winner_still_reads_good_totals() -> None:
    assert match_winner((21, 18), 21) == 0
    assert match_winner((23, 23), 21) is None
    assert match_winner((10, 9), 21) is None
    assert match_winner((9, 12, 11), 11) == 1
    assert match_winner([5, 21], 21) == 1  # a list of totals too


def test_match_winner_reads_numpy_totals() -> None:
    np = pytest.importorskip("numpy")
    # ChkobbaEnv's info["scores"] is an int64 array: refused as "no tuple of totals".
    assert match_winner(np.array([21, 18]), 21) == 0
    assert match_winner((np.int64(3), np.int64(11)), np.int64(11)) == 1


def test_the_openspiel_first_chance_node_names_its_outcome() -> None:
    pytest.importorskip("pyspiel")
    import pyspiel

    import chkobba.openspiel  # noqa: F401  (registers the game)

    state = pyspiel.load_game("python_chkobba").new_initial_state()
    # It said "dealer must be a player from 0 to 1, not 2", new_match's words, where
    # the later chance nodes say "chance outcome 45 is not a card left to deal".
    with pytest.raises(IllegalMoveError, match=r"^chance outcome 2 is not a dealer: "):
        state.apply_action(2)
    assert state.is_chance_node() and state.history() == []
    state.apply_action(1)
    assert not state.is_chance_node() or state.chance_outcomes()[0][1] == pytest.approx(1 / 40)


class _PoolWithoutProcesses:
    """An executor of another Python, without CPython's private ``_processes``."""

    def __init__(self) -> None:
        self.shut = False

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shut = True


def test_stopping_workers_of_a_pool_without_cpythons_attributes() -> None:
    # It read pool._processes directly (AttributeError), where the manager thread next
    # to it was read with getattr.
    pool = _PoolWithoutProcesses()
    _stop_workers(pool)  # type: ignore[arg-type]
    assert pool.shut
