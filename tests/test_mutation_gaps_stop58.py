"""Gaps found by a fault-planting audit of three recent functions (by hand, one fault at
a time, against the test files that exercise them; tools/mutation/README.md).

What was audited: ``ChkobbaState._restore_history`` in ``chkobba/openspiel.py`` (with
the sentinel ``_BEFORE_THE_FIRST_DEAL`` it checked then and its calls in ``_act``,
``history_vector`` and ``voided_vector``), which repairs OpenSpiel states 0.1.0
serialized; ``pile_tally`` and ``_check_distinct_cards`` (and its callers) in
``chkobba/bots/evaluation.py``. 48 single-point faults were planted: flipped and
dropped conditions, off-by-one limits and slices, dropped calls, swapped values, other
exceptions and reworded messages. Most were caught by ``tests/test_data_0_1_0.py``,
``tests/test_estimates.py`` and ``tests/test_hardening_bots.py``; a few change nothing
observable (a tally is a sum, so the order of its cards is no matter; replaying a state
that has not been dealt yet, or one whose history is an equal empty one, gives the same
values). Five faults changed behaviour and no test caught them:

- ``voided_vector`` not repairing the state itself: the information-state tensor reads
  ``history_vector`` first, which repairs both, so only a direct call showed the voided
  cards of a 0.1.0 state as none;
- ``pile_tally`` taking up to 41 items, so a 41-card pile was refused as a card held
  twice rather than as too many items (and a 40-card pile, a whole deck, was only
  reached by a random test);
- ``pile_tally`` tallying its argument rather than the items it read from it: an
  iterator, read once by the check, tallied as an empty pile;
- ``side_estimates`` checking only the first two of three piles for cards and cards
  held twice;
- the repair dropping one card of the voided ones (the A♠, card 0): the one fixture
  with a voided card voids another, so a state of 0.1.0's form is built here (a state
  of this version with the fresh state's history and voided cards, what OpenSpiel's
  deserialization leaves of a 0.1.0 state) with the A♠ voided.

One bug was found, and mended: the repair rested on the identity of the sentinel,
which a copy of the state does not keep, so a clone, child, deep copy or pickle of a
0.1.0 state made before the state was first read or played on never repaired itself,
and its ``information_state_tensor`` showed no history and no voided card until the
next shuffle, as before the fix that CHANGELOG.md announces ("such a state now replays
its actions for them"). The state now marks a history its own deals kept with a flag
(``_history_kept``), which every copy keeps; the last test checks each way of copying.
"""

from __future__ import annotations

import copy
import itertools
import json
import pickle
import re
from pathlib import Path
from typing import Any

import pytest

from chkobba import DECK, ChkobbaError, card, cards
from chkobba.bots.evaluation import pile_tally, side_estimates
from chkobba.history import DealHistory

OPENSPIEL_0_1_0 = Path(__file__).parent / "data" / "text_0_1_0" / "openspiel.json"


# --- pile_tally and the distinct-cards check -------------------------------------------


def test_pile_tally_takes_a_whole_deck_and_refuses_a_card_more() -> None:
    """A pile holds at most the 40 cards: a whole deck tallies as the sum of its cards',
    and one item more is refused as too many items before any card is read twice."""
    assert pile_tally(DECK) == sum(pile_tally([c]) for c in DECK)
    message = "pile_tally: pile has more than 40 items: "
    with pytest.raises(ChkobbaError, match=f"^{re.escape(message)}"):
        pile_tally([*DECK, DECK[0]])
    with pytest.raises(ChkobbaError, match=f"^{re.escape(message)}"):
        pile_tally(itertools.cycle(DECK))


def test_pile_tally_tallies_an_iterator_it_reads_once() -> None:
    """``pile`` is any iterable of cards: an iterator, read once by the check, is
    tallied from what was read, not from the spent iterator."""
    pile = cards("7D 6S 5H")
    expected = pile_tally(pile)
    assert expected != 0
    assert pile_tally(iter(pile)) == expected
    assert pile_tally(c for c in pile) == expected


@pytest.mark.parametrize(
    ("captured", "message"),
    [
        (((), (), cards("7D 7D")), "side_estimates: the piles hold 7D twice"),
        ((cards("7D"), (), cards("7D")), "side_estimates: the piles hold 7D twice"),
        (((), cards("5H"), cards("5H")), "side_estimates: the piles hold 5H twice"),
        (((), (), [card("7D"), "x"]), "side_estimates: the piles hold 'x', not a card"),
    ],
)
def test_side_estimates_checks_the_third_pile_too(captured: Any, message: str) -> None:
    with pytest.raises(ChkobbaError, match=f"^{re.escape(message)}$"):
        side_estimates(captured, (0, 0, 0))


# --- OpenSpiel states 0.1.0 serialized -------------------------------------------------


def _pyspiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    import chkobba.openspiel  # noqa: F401 (registers python_chkobba)

    return pyspiel


def _games() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(OPENSPIEL_0_1_0.read_text("utf-8"))
    return games


def _voided_game() -> int:
    """The index of the fixture whose serialized state has a voided card."""
    return next(
        index
        for index, game in enumerate(_games())
        if game["game"] == "python_chkobba(max_shuffles=3)"
    )


def _deserialized(index: int) -> tuple[Any, Any]:
    """0.1.0's serialized state of game ``index`` read now, and the same state replayed."""
    pyspiel, game = _pyspiel(), _games()[index]
    point = next(point for point in game["points"] if "game_and_state" in point)
    _, loaded = pyspiel.deserialize_game_and_state(point["game_and_state"])
    replayed = pyspiel.load_game(game["game"]).new_initial_state()
    for action in game["actions"][: point["step"]]:
        replayed.apply_action(action)
    return loaded, replayed


def test_the_voided_cards_of_a_0_1_0_state_read_first_as_a_vector() -> None:
    """``voided_vector`` repairs the state itself: read before anything else, it gives
    the cards exposed in the voided deal, not none."""
    loaded, replayed = _deserialized(_voided_game())
    expected = replayed.voided_vector()
    assert sum(expected) == 1.0
    assert loaded.voided_vector() == expected
    assert loaded.information_state_tensor(0) == replayed.information_state_tensor(0)


def test_a_state_of_0_1_0s_form_repairs_a_voided_ace_of_spades() -> None:
    """A deal voided with the A♠ exposed (card 0), then a new deal: a state left with
    a fresh state's history and voided cards, as OpenSpiel's deserialization leaves a
    state 0.1.0 serialized, repairs both, whether read first or played on."""
    from chkobba.actions import EXPOSE
    from tests.helpers import stacked_shuffle

    pyspiel = _pyspiel()
    hands = ["7D 5H KS", "6C 4H JD"]
    void = stacked_shuffle(2, dealer=0, hands=hands, table="AS AH AD AC", keep=False)
    actions = [0, *(c.index for c in void.order), EXPOSE, *range(40)]
    states = []
    for _ in range(2):
        state = pyspiel.load_game("python_chkobba").new_initial_state()
        for action in actions:
            state.apply_action(action)
        states.append(state)
    intact, old = states
    old._history, old._voided, old._history_kept = DealHistory(), frozenset(), False
    assert intact.voided_vector() == [1.0] + [0.0] * 39
    assert old.voided_vector() == intact.voided_vector()
    for state in states:
        state.apply_action(state.legal_actions()[0])
    for player in range(2):
        assert old.information_state_tensor(player) == intact.information_state_tensor(player)


@pytest.mark.parametrize("how", ["clone", "child", "deepcopy", "pickle"])
def test_a_copy_of_a_0_1_0_state_has_the_information_state_tensor(how: str) -> None:
    """CHANGELOG.md: a state 0.1.0 serialized "now replays its actions for them" (its
    deal history and voided cards); a copy of such a state is such a state."""
    loaded, replayed = _deserialized(_voided_game())
    if how == "child":
        action = replayed.legal_actions()[0]
        copied, replayed = loaded.child(action), replayed.child(action)
    elif how == "clone":
        copied = loaded.clone()
    elif how == "deepcopy":
        copied = copy.deepcopy(loaded)
    else:
        copied = pickle.loads(pickle.dumps(loaded))
    for player in range(replayed.get_game().num_players()):
        tensor = copied.information_state_tensor(player)
        assert tensor == replayed.information_state_tensor(player)
