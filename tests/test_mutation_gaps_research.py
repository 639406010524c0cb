"""Tests for the gaps a mutmut audit of the researchers' modules found (2026-12-04).

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to ``observations.py``, ``features.py``, ``history.py`` or ``rollouts.py`` that
the rest of the suite let through (tools/mutation/README.md). A few reach a guard that
only a bug in the library could trip (an error escaping on a state or view that the
checks pass); they switch the check off with ``monkeypatch`` to say what the guard does.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from chkobba import (
    TUNISIAN,
    Cut,
    Play,
    apply,
    card,
    cards,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
    rollout,
)
from chkobba import features as features_module
from chkobba import observations as observations_module
from chkobba import rollouts as rollouts_module
from chkobba.actions import FIRST_CAPTURE, NUM_ACTIONS
from chkobba.features import FEATURE_SIZE, feature_bounds, feature_vector, options_by_card
from chkobba.history import DealHistory
from chkobba.observations import (
    LAYOUT,
    OBSERVATION_SIZE,
    deal_reward_option,
    observation_bounds,
    observation_vector,
    piece,
    player_returns,
)
from tests.helpers import arranged, refusal

#: Where each piece of the observation starts.
LAYOUT_START = {name: int(piece(range(OBSERVATION_SIZE), name)[0]) for name, _ in LAYOUT}


def _cut() -> Any:
    """A first deal just cut (kept): the next player leads."""
    return apply(apply(new_match(), random_shuffle(random.Random(1))), Cut(keep=True))


# observations.py


def test_piece_names_what_it_refuses() -> None:
    names = ", ".join(name for name, _ in LAYOUT)
    assert refusal(lambda: piece([0.0] * OBSERVATION_SIZE, "x")) == (
        f"'x' is not an observation piece: {names}"
    )
    assert refusal(lambda: piece("abc", "hand")) == (
        "piece: expected an observation vector, got 'abc'"
    )
    # (the rerun of 2026-12-05, after piece learnt to refuse entries that are no numbers)
    vector: list[Any] = [0.0] * OBSERVATION_SIZE
    vector[LAYOUT_START["dealer"]] = "x"
    assert refusal(lambda: piece(vector, "dealer")) == (
        "piece: the dealer piece holds 'x', not a number"
    )


def test_deal_reward_option_names_the_value_it_refuses() -> None:
    # (the rerun of 2026-12-05)
    assert refusal(lambda: deal_reward_option(-1e7)) == (
        "deal_reward must be from -1,000,000 to 1,000,000 (the rewards must stay finite), "
        "not -10000000.0"
    )


def test_observation_bounds_count_every_chkobba_a_deal_can_hold() -> None:
    """36 plays a deal; the last one sweeps only where the profile counts it."""
    offsets, at = {}, 0
    for name, size in LAYOUT:
        offsets[name] = (at, at + size)
        at += size
    for rules, most in ((TUNISIAN, 3.5), (attrs.evolve(TUNISIAN, last_card_chkobba=True), 3.6)):
        low, high = observation_bounds(rules)
        assert low == [0.0] * OBSERVATION_SIZE
        for name, (start, end) in offsets.items():
            if name in ("scores", "third_score"):
                expected = float("inf")
            elif name in ("chkobbas", "third_chkobbas"):
                expected = most
            else:
                expected = 1.0
            assert high[start:end] == [expected] * (end - start), name
    assert refusal(lambda: observation_bounds(3)) == (  # type: ignore[arg-type]
        "observation_bounds: rules must be a Rules profile, not 3"
    )


def test_a_broken_view_is_named_by_what_check_view_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _cut()
    broken = attrs.evolve(observe(state, state.current_player), hand=None)
    assert refusal(lambda: observation_vector(broken)) == (
        "observation_vector: the view is inconsistent: hand must be a tuple of cards, "
        "not None (see check_view)"
    )

    # Were check_view to pass it (a bug), the error that escaped is named instead, and
    # a check_view that fails on it does not hide that error either.
    def passes(view: Any) -> Any:
        return view

    def fails(view: Any) -> Any:
        raise RuntimeError("a check that fails")

    for check in (passes, fails):
        monkeypatch.setattr(observations_module, "check_view", check)
        assert refusal(lambda: observation_vector(broken)) == (
            "observation_vector: the view is inconsistent: TypeError (see check_view)"
        )


def test_player_returns_names_a_broken_state_and_lets_a_bug_through(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert refusal(lambda: player_returns(3)) == "player_returns: expected a State, got 3 (int)"  # type: ignore[arg-type]
    broken = attrs.evolve(_cut(), players="2")
    assert refusal(lambda: player_returns(broken)) == (
        "inconsistent state: players must be a whole number, not '2' (see check_state)"
    )

    def fails(state: Any, single_deal: bool) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(observations_module, "_returns", fails)
    with pytest.raises(RuntimeError, match=r"^a bug$"):
        player_returns(_cut())


# features.py


def test_feature_bounds_are_exact() -> None:
    low, high = feature_bounds()
    assert low == [0.0] * FEATURE_SIZE
    assert high == [22.0] + [4.0] * NUM_ACTIONS + [1.0] * NUM_ACTIONS


def test_options_come_in_deck_order_whatever_the_order_of_the_moves() -> None:
    king = card("KH")
    later, earlier = frozenset([card("4S"), card("6S")]), frozenset([card("AS"), card("JS")])
    found = options_by_card([Play(king, later), Play(king, earlier)])
    assert found == {king: [earlier, later]}


def _features(view: Any, pending: Any, legal: Any) -> tuple[float, list[float], list[float]]:
    # With a pending card, the counting itself: these tests give pending cards that no
    # position has (a card with one capture, a king with dozens of options made up),
    # which feature_vector refuses (tests/test_pending_card.py).
    if pending is None:
        vector = feature_vector(view, pending, legal)
    else:
        vector = features_module._feature_vector(view, pending, legal)
    return vector[0], vector[1 : 1 + NUM_ACTIONS], vector[1 + NUM_ACTIONS :]


def test_features_count_captures_and_sweeps_of_every_card_and_of_a_pending_one() -> None:
    """The player to move holds 7D 3C 4C, the table 3H 4H: 7D sweeps, 3C and 4C take one."""
    state = arranged(hands=["KS KC QS", "7D 3C 4C"], table="3H 4H")
    view, legal = observe(state, state.current_player), legal_moves(state)
    table_sum, counts, sweeps = _features(view, None, legal)
    assert table_sum == pytest.approx(0.7)
    taken = {card("7D").index: 0.2, card("3C").index: 0.1, card("4C").index: 0.1}
    assert counts == [taken.get(action, 0.0) for action in range(NUM_ACTIONS)]
    assert sweeps == [float(action == card("7D").index) for action in range(NUM_ACTIONS)]
    # While a card waits for its capture, only its options count, as capture ids;
    # every card is tried, the last one of the moves too.
    for text, size, sweep in (("7D", 0.2, 1.0), ("3C", 0.1, 0.0), ("4C", 0.1, 0.0)):
        _, counts, sweeps = _features(view, card(text), legal)
        assert counts == [size if a == FIRST_CAPTURE else 0.0 for a in range(NUM_ACTIONS)]
        assert sweeps == [sweep if a == FIRST_CAPTURE else 0.0 for a in range(NUM_ACTIONS)]


def test_capture_ids_past_the_layout_have_no_feature() -> None:
    """A house profile can give a card more options than the Tunisian action space has
    capture ids: the options past the last id are left out, not an error."""
    state = arranged(hands=["KS KC QS", "7D 3C 4C"], table="3H 4H")
    view, king = observe(state, state.current_player), card("KH")
    room = NUM_ACTIONS - FIRST_CAPTURE
    others = [c for c in state.stock if c is not king][: room + 1]
    legal = [Play(king, frozenset([c])) for c in others]
    _, counts, _ = _features(view, king, legal)
    assert counts == [0.1 if a >= FIRST_CAPTURE else 0.0 for a in range(NUM_ACTIONS)]


def test_feature_vector_names_what_it_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _cut()
    view = observe(state, state.current_player)
    broken = attrs.evolve(view, table=None)
    assert refusal(lambda: feature_vector(3, None, [])) == (  # type: ignore[arg-type]
        "feature_vector: expected a PlayerView, got 3 (int)"
    )
    assert refusal(lambda: feature_vector(broken, None, legal_moves(state))) == (
        "feature_vector: the view is inconsistent: table must be a tuple of cards, "
        "not None (see check_view)"
    )
    monkeypatch.setattr(observations_module, "check_view", lambda view: view)
    assert features_module.broken_view is observations_module.broken_view
    assert refusal(lambda: feature_vector(broken, None, legal_moves(state))) == (
        "feature_vector: the view is inconsistent: TypeError (see check_view)"
    )


# history.py


def test_a_history_of_several_plays_reads_back_from_its_repr() -> None:
    history = (
        DealHistory()
        .played(2, card("7D"), frozenset())
        .played(1, card("7S"), frozenset([card("7D")]))
    )
    text = repr(history)
    assert text == (
        "DealHistory(first_table=frozenset(), exposed=None, plays=((2, card('7D'), "
        "frozenset()), (1, card('7S'), frozenset(cards('7D')))))"
    )
    assert eval(text, {"DealHistory": DealHistory, "card": card, "cards": cards}) == history


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda h: h.started(3, None),
            "DealHistory.started: table must be a collection, not 3",
        ),
        (
            lambda h: h.started([3], None),
            "DealHistory.started: table must hold cards only, not 3",
        ),
        (
            lambda h: h.played(4, card("7D"), frozenset()),
            "DealHistory.played: player must be a seat from 0 to 3, not 4",
        ),
        (
            lambda h: h.played(0, card("7D"), {card("7S")}),
            "DealHistory.played: capture must be a frozenset of cards, not {card('7S')}",
        ),
        (
            lambda h: h.played(0, card("7D"), frozenset([3])),
            "DealHistory.played: capture must hold cards only, not 3",
        ),
        (
            lambda h: DealHistory(first_table=frozenset([3])).vector(0, 2),
            "DealHistory.vector: a field of this history is not what it should be "
            "(AttributeError); build one with started() and played()",
        ),
        (
            lambda h: h.played(2, card("7D"), frozenset()).vector(0, 2),
            "DealHistory.vector: play 1 (7D) is by player 2, but only players 0 to 1 play",
        ),
    ],
)
def test_a_history_names_what_it_refuses(call: Any, message: str) -> None:
    assert refusal(lambda: call(DealHistory())) == message


@pytest.mark.parametrize(("players", "viewer", "seen_at"), [(4, 3, 2), (3, 2, 2), (4, 1, 0)])
def test_the_history_places_a_player_counting_from_the_viewer(
    players: int, viewer: int, seen_at: int
) -> None:
    """Player 1 plays 7D; the viewer sees the seat ``seen_at`` places after its own."""
    vector = DealHistory().played(1, card("7D"), frozenset()).vector(viewer, players)
    at = card("7D").index * 8
    assert vector[at : at + 4] == [float(seat == seen_at) for seat in range(4)]


# rollouts.py


def test_rollout_names_a_wrong_argument() -> None:
    state = _cut()
    assert refusal(lambda: rollout(state, random.Random(1), until="x")) == (  # type: ignore[arg-type]
        "rollout: until must be 'deal' or 'match', not 'x'"
    )
    assert refusal(lambda: rollout(state, random.Random(1), moves=())) == (  # type: ignore[arg-type]
        "rollout: moves must be a list to append to, not ()"
    )


def test_a_failed_rollout_leaves_the_moves_list_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The state breaks only when the deal is scored, after moves were appended; the
    moves already in the list stay, those of the failed rollout go."""
    before = [Cut(keep=False)]
    moves = list(before)
    broken = attrs.evolve(_cut(), deal_scores=None)
    assert refusal(lambda: rollout(broken, random.Random(1), moves=moves)) == (
        "inconsistent state: deal_scores must be a tuple of DealScore, not None (see check_state)"
    )
    assert moves == before

    # An error on a state that check_state passes (a bug) comes through as itself.
    def fails(*args: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(rollouts_module, "play_deal", fails)
    with pytest.raises(RuntimeError, match=r"^a bug$"):
        rollout(_cut(), random.Random(1), moves=moves)
    assert moves == before
