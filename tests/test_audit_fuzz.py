"""Found by a systematic fuzz of every public callable (stop 52): bad input raised a raw
TypeError, IndexError, RecursionError or OverflowError, filled the memory, or hung.

Each case now raises a :class:`~chkobba.ChkobbaError` that names what is wrong.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import attrs
import pytest

from chkobba import (
    TUNISIAN,
    ChkobbaError,
    Cut,
    MoveOutcome,
    Record,
    RecordError,
    Rules,
    State,
    actions,
    apply,
    apply_with_outcome,
    card,
    cards,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
    render,
)
from chkobba.bots.endgame import deal_difference
from chkobba.bots.greedy import play_score
from chkobba.bots.ismcts import rollout as policy_rollout
from chkobba.cards import DECK
from chkobba.observations import OBSERVATION_SIZE, cap_scores
from chkobba.views import PlayerView

BROKEN = r"^inconsistent state: "


def _dealt() -> State:
    return apply(apply(new_match(), random_shuffle(random.Random(1))), Cut(keep=False))


@pytest.mark.parametrize(
    "table", [None, [1, 2], itertools.count()], ids=["None", "list", "endless"]
)
def test_the_action_encoding_names_a_broken_table(table: Any) -> None:
    # actions' capture choices read the table before anything checked it: a TypeError,
    # and on an endless iterable a hang that no timer could interrupt.
    state = _dealt()
    held = state.hands[state.mover][0]
    broken = attrs.evolve(state, table=table)
    expected = r"^inconsistent state: table must be a tuple of cards, not .* \(see check_state\)$"
    with pytest.raises(ChkobbaError, match=expected):
        actions.capture_choices(broken, held)
    with pytest.raises(ChkobbaError, match=expected):
        actions.step(actions.Position(broken), held.index)
    view: PlayerView = attrs.evolve(observe(state, state.mover), table=table)
    with pytest.raises(ChkobbaError, match=r"^inconsistent view: table must be .*check_view\)$"):
        actions.capture_choices(view, held)


def test_apply_with_outcome_names_a_broken_state_that_apply_plays_on() -> None:
    state = _dealt()
    other = 1 - state.mover  # the other player's hand is a card, not a tuple of cards
    hands: Any = tuple(h if p != other else h[0] for p, h in enumerate(state.hands))
    broken = attrs.evolve(state, hands=hands)
    move = legal_moves(state)[0]
    apply(broken, move)  # plays on, as documented for some broken states
    message = rf"^{BROKEN}hands\[{other}\] must be a tuple of cards, not card\("
    with pytest.raises(ChkobbaError, match=message):
        apply_with_outcome(broken, move)


@pytest.mark.parametrize(
    ("read", "data"),
    [
        (Rules.from_dict, TUNISIAN.to_dict()),
        (State.from_dict, new_match().to_dict()),
    ],
    ids=["rules", "state"],
)
def test_unknown_keys_of_mixed_types_are_named(read: Any, data: dict[Any, Any]) -> None:
    # The unknown keys were sorted to name the first: str and int do not compare.
    with pytest.raises(ChkobbaError, match=r": unknown field 'x'$"):
        read({**data, "x": 1, 2: 3})
    with pytest.raises(ChkobbaError, match=r": unknown field 2$"):
        read({**data, 2: 3, None: 4})


def test_a_record_with_unknown_keys_of_mixed_types_names_one() -> None:
    data = Record(players=2).to_dict()
    data["rules"] = {**data["rules"], "x": 1, None: 2}
    with pytest.raises(RecordError, match=r"^unknown field 'x' in rules"):
        Record.from_dict(data)


def test_a_deeply_nested_phase_is_refused_by_name() -> None:
    nested: list[Any] = []
    for _ in range(5000):
        nested = [nested]
    with pytest.raises(ChkobbaError, match=r"^phase must be one of 'shuffle', 'cut', 'play'"):
        State.from_dict({**new_match().to_dict(), "phase": nested})


def test_a_record_version_too_long_to_print_is_described() -> None:
    data = {**Record(players=2).to_dict(), "version": 10**5000}
    with pytest.raises(RecordError, match=r"^version an integer of about 5001 digits is not"):
        Record.from_dict(data)


def test_a_numpy_array_as_format_or_version_is_refused_by_name() -> None:
    numpy = pytest.importorskip("numpy")
    array = numpy.array([1, 2])
    for key in ("format", "version"):
        with pytest.raises(RecordError, match=rf"^{key} must be .*: it is array\(\[1, 2\]\)"):
            Record.from_dict({**Record(players=2).to_dict(), key: array})
        with pytest.raises(ChkobbaError, match=rf"^state {key} must be .*not array\(\[1, 2\]\)"):
            State.from_dict({**new_match().to_dict(), key: array})


def test_render_describes_a_score_too_long_to_print() -> None:
    huge = attrs.evolve(_dealt(), scores=(10**5000, 10**5000))
    board = render(huge)
    assert "Scores     player 0: an integer of about 5001 digits   player 1: an integer" in board


def test_end_info_checks_its_state() -> None:
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import end_info

    with pytest.raises(ChkobbaError, match=r"^end_info: expected a State, got None"):
        end_info(None)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=rf"{BROKEN}scores must be a tuple of whole numbers"):
        end_info(attrs.evolve(new_match(), scores=(None, None)))  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"^end_info: \(1180591620717411303424, 0\) do not fit"):
        end_info(attrs.evolve(new_match(), scores=(2**70, 0)))


@pytest.mark.parametrize("deal_scores", [None, ("x",)])
def test_deal_difference_names_broken_deal_scores(deal_scores: object) -> None:
    with pytest.raises(ChkobbaError, match=rf"{BROKEN}deal_scores must be a tuple of DealScore"):
        deal_difference(attrs.evolve(new_match(), deal_scores=deal_scores), 0)  # type: ignore[arg-type]


def test_play_score_refuses_endless_iterables_without_filling_the_memory() -> None:
    seven = card("7D")
    with pytest.raises(ChkobbaError, match=r"^play_score: cannot score card\('7D'\) on count\("):
        play_score(itertools.count(), seven, frozenset(), DECK, 3, TUNISIAN)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"^play_score: cannot score card\('7D'\) on \(card"):
        endless: Any = itertools.count()
        play_score(cards("2D 3S"), seven, frozenset(), endless, 3, TUNISIAN)
    # The whole deck, the played card among it, is still a pool of unseen cards.
    assert play_score(cards("2D 3S"), seven, frozenset(), DECK, 3, TUNISIAN) < 0


def test_a_move_outcome_with_unhashable_captured_cards_names_the_field() -> None:
    with pytest.raises(ChkobbaError, match=r"^MoveOutcome: captured must be a set of cards, not"):
        MoveOutcome("play", player=0, card=card("7D"), captured=[["2D"]])


def test_the_policy_rollout_names_a_broken_state() -> None:
    broken = attrs.evolve(_dealt(), hands=((), ()))
    with pytest.raises(ChkobbaError, match=rf"{BROKEN}.* is nowhere"):
        policy_rollout(broken, random.Random(0), 0.1, 2)


@pytest.mark.parametrize("vector", [None, [], "abc", (9.0,) * 400, [None] * 400])
def test_cap_scores_refuses_what_is_no_observation(vector: object) -> None:
    message = rf"^cap_scores: expected an observation, a list of at least {OBSERVATION_SIZE} "
    with pytest.raises(ChkobbaError, match=message):
        cap_scores(vector)  # type: ignore[arg-type]
