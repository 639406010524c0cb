"""Same values, same bytes: pickles and reprs do not depend on where the cards live.

Cards are singletons that hash by identity, so a frozenset of cards iterates (and so
pickles and prints) in an order set by the cards' addresses, which change from one
process to the next. The values that hold such sets pickle and print them in deck order.
"""

from __future__ import annotations

import pickle
import pickletools
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chkobba import DECK, Card, ChkobbaError, MoveOutcome, Play, card, cards
from chkobba.bots.inference import Suspicion
from chkobba.cards import cards_set_repr
from chkobba.history import DealHistory

SRC = str(Path(__file__).resolve().parent.parent / "src")

# Prints the cards' set order (the control) and the pickles' digest, after ``junk``
# objects allocated before the import have moved the cards elsewhere in memory.
_PROBE = """
import hashlib, pickle, sys
# Objects of several sizes: with one size alone, CPython 3.12 put the cards at the
# same addresses whatever the count (its allocator keeps a pool per size class).
junk = [[None] * (i % 16) for i in range(int(sys.argv[1]))]
junk += [object() for _ in range(int(sys.argv[1]))]
from chkobba import DECK, MoveOutcome, Play, cards
from chkobba.bots.inference import Suspicion
from chkobba.history import DealHistory
history = DealHistory().started(cards("5C 7H 2D 6S"), None)
history = history.played(0, cards("QH")[0], frozenset(cards("2D 6S")))
values = [
    Play("QH", "AH 2D 5C 6S"),
    history,
    Suspicion(frozenset(cards("7D 7S 7H 7C")), 0.25),
    MoveOutcome("play", 0, card=cards("KC")[0], captured=cards("AH 2D 3H 4S")),
]
print(" ".join(str(c) for c in frozenset(DECK)))
print(hashlib.sha256(pickle.dumps(values, protocol=4)).hexdigest())
print(repr(values))
"""


def _probe(junk: int, code: str = _PROBE) -> list[str]:
    """The lines ``code`` prints in a fresh process, after ``junk`` objects."""
    done = subprocess.run(
        [sys.executable, "-c", code, str(junk)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": SRC, "PYTHONHASHSEED": "0"},
    )
    return done.stdout.splitlines()


@pytest.mark.out_of_process
def test_pickles_and_reprs_are_the_same_in_every_process() -> None:
    first = _probe(0)
    # Another process whose cards sit elsewhere: their set order (the control) differs.
    others = [_probe(junk) for junk in (100_000, 7, 12_345)]
    moved = [other for other in others if other[0] != first[0]]
    assert moved, "no process put the cards at other addresses: the test proves nothing"
    for other in moved:
        assert other[1:] == first[1:]


def _holds_a_set(data: bytes) -> bool:
    """Whether a pickle builds a set (by opcode under protocol 4 and later, by name before)."""
    return any(
        "FROZENSET" in op.name or (op.name.endswith("GLOBAL") and "frozenset" in str(arg))
        for op, arg, _ in pickletools.genops(data)
    )


def test_sets_of_cards_pickle_and_print_in_deck_order() -> None:
    play = Play("QH", "6S 2D")
    assert pickle.loads(pickle.dumps(play)) == play
    assert not _holds_a_set(pickle.dumps(play))  # a tuple in deck order instead
    history = DealHistory().started(cards("6S 5C"), card("7D"))
    history = history.played(1, card("JH"), frozenset(cards("5C")))
    assert pickle.loads(pickle.dumps(history)) == history
    assert repr(history) == (
        "DealHistory(first_table=frozenset(cards('5C 6S')), exposed=card('7D'), "
        "plays=((1, card('JH'), frozenset(cards('5C'))),))"
    )
    namespace = {"DealHistory": DealHistory, "card": card, "cards": cards}
    assert eval(repr(history), namespace) == history
    outcome = MoveOutcome("play", 0, card=card("KC"), captured=cards("3H 7C"), chkobba=True)
    assert pickle.loads(pickle.dumps(outcome)) == outcome
    assert not _holds_a_set(pickle.dumps(outcome))  # (found by a review, stop 72)
    suspicion = Suspicion(frozenset(cards("7S 7D")), 0.5)
    assert repr(suspicion) == "Suspicion(cards=frozenset(cards('7S 7D')), chance=0.5)"
    assert pickle.loads(pickle.dumps(suspicion)) == suspicion
    assert cards_set_repr(frozenset(DECK)).startswith("frozenset(cards('AS AH AD AC 2S")
    assert all(isinstance(c, Card) for c in eval(cards_set_repr(frozenset(DECK))))


# The same for an OpenSpiel state's serialize(): its deal history holds sets of cards.
_SPIEL_PROBE = """
import hashlib, random, sys
# Objects of several sizes: with one size alone, CPython 3.12 put the cards at the
# same addresses whatever the count (its allocator keeps a pool per size class).
junk = [[None] * (i % 16) for i in range(int(sys.argv[1]))]
junk += [object() for _ in range(int(sys.argv[1]))]
import pyspiel
from chkobba import DECK
import chkobba.openspiel
game = pyspiel.load_game("python_chkobba", {"players": 2})
state, rng = game.new_initial_state(), random.Random(1)
for _ in range(60):
    if state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))
print(" ".join(str(c) for c in frozenset(DECK)))
print(hashlib.sha256(state.serialize().encode()).hexdigest())
"""


@pytest.mark.out_of_process
def test_openspiel_serialize_is_the_same_in_every_process() -> None:
    pytest.importorskip("pyspiel")
    first = _probe(0, _SPIEL_PROBE)
    others = [_probe(junk, _SPIEL_PROBE) for junk in (100_000, 12_345)]
    moved = [other for other in others if other[0] != first[0]]
    assert moved, "no process put the cards at other addresses: the test proves nothing"
    assert all(other[1] == first[1] for other in moved)


def test_play_score_names_a_capture_in_deck_order() -> None:
    from chkobba.bots.greedy import play_score

    capture = frozenset(cards("4C 3S 2S AS"))
    with pytest.raises(ChkobbaError, match=r" taking AS\+2S\+3S\+4C \(expected cards"):
        play_score(cards("AS 2S 3S 4C KD"), card("KS"), capture, cards("5S 6S"), 1, None)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="play_score: cannot score None on None taking None"):
        play_score(None, None, None, None, 3, None)  # type: ignore[arg-type]


def test_an_openspiel_states_copies_serialize_as_it_does_to_the_end() -> None:
    """Found by a review (stop 72): a clone, a deep copy or a deserialized state gave
    another serialize() than its original, to the end of the match (the copy held the
    profile twice where the original shared one, and unpickling interned the log's
    words apart from the attribute names they were shared with)."""
    pyspiel = pytest.importorskip("pyspiel")
    import copy
    import random

    import chkobba.openspiel  # noqa: F401  (registers python_chkobba)

    game = pyspiel.load_game("python_chkobba")
    state, rng = game.new_initial_state(), random.Random(1)

    def step(*states: Any) -> None:
        if states[0].is_chance_node():
            action = rng.choice(states[0].chance_outcomes())[0]
        else:
            action = rng.choice(states[0].legal_actions())
        for each in states:
            each.apply_action(action)

    for _ in range(60):
        step(state)
    copies = [state.clone(), copy.deepcopy(state), game.deserialize_state(state.serialize())]
    assert all(each.serialize() == state.serialize() for each in copies)
    while not state.is_terminal():
        step(state, *copies)
    assert all(each.serialize() == state.serialize() for each in copies)
