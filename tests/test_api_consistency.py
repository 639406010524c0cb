"""Consistency across the public API (a review of 2026-12-05): the same question asked of
related objects gets the same answer, and related functions take the same arguments.

* A :class:`~chkobba.PlayerView` answers the seat and phase questions a
  :class:`~chkobba.State` answers (``side_of``, ``cutter``, ``is_chance``, ``is_over``):
  a client that holds only its view asked ``view.is_over`` and met an ``AttributeError``.
* :func:`~chkobba.bots.analysis.hint_text` takes the evaluator :func:`rank_moves` takes, in
  the same place (its third argument was the seed, so an evaluator given there was
  refused as a seed).
* :class:`~chkobba.bots.analysis.Evaluator` can be checked with ``isinstance``, as
  :class:`~chkobba.bots.Bot` can (it raised ``TypeError``).
* PettingZoo's ``env`` takes ``deal_reward`` by keyword only, as ``raw_env`` does.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    ChkobbaError,
    Phase,
    PlayerView,
    State,
    apply,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.bots import ExpertBot, GreedyBot, ISMCTSBot
from chkobba.bots.analysis import Evaluator, hint_text, points_text, rank_moves


def _match_states(players: int, seed: int, rules: Any = TUNISIAN) -> list[State]:
    """Every state of a random match, its end included."""
    rng = random.Random(seed)
    state = new_match(players, rules=rules)
    states = [state]
    while not state.is_over:
        if state.is_chance:
            state = apply(state, random_shuffle(rng))
        else:
            state = apply(state, rng.choice(legal_moves(state)))
        states.append(state)
    return states


@pytest.mark.parametrize(
    ("players", "rules"), [(2, TUNISIAN), (4, TUNISIAN), (3, CARD_RULES_PLUS)], ids=str
)
def test_a_view_answers_the_seat_and_phase_questions_as_its_state_does(
    players: int, rules: Any
) -> None:
    states = _match_states(players, seed=players, rules=rules)
    assert states[-1].phase is Phase.OVER and any(s.is_chance for s in states[1:])
    for state in [*states[:: max(1, len(states) // 60)], states[-1]]:
        for viewer in range(players):
            view = observe(state, viewer)
            assert (view.is_chance, view.is_over) == (state.is_chance, state.is_over)
            assert view.cutter == state.cutter
            assert [view.side_of(p) for p in range(players)] == [
                state.side_of(p) for p in range(players)
            ]
            assert view.side_of(viewer) == view.side


def test_a_views_sides_are_seats_modulo_the_sides() -> None:
    assert [observe(new_match(4), 1).side_of(p) for p in range(4)] == [0, 1, 0, 1]
    three = observe(new_match(3, rules=CARD_RULES_PLUS), 2)
    assert [three.side_of(p) for p in range(3)] == [0, 1, 2]
    assert [observe(new_match(2, dealer=d), 0).cutter for d in (0, 1)] == [1, 0]
    assert [observe(new_match(4, dealer=d), 0).cutter for d in range(4)] == [1, 2, 3, 0]


@pytest.mark.parametrize(
    ("player", "message"),
    [
        (2, "there is no player 2 in a 2-player match"),
        (-1, "there is no player -1 in a 2-player match"),
        (True, "player must be an int, not True (bool)"),
        (1.0, "player must be an int, not 1.0 (float)"),
        ("0", "player must be an int, not '0' (str)"),
    ],
    ids=repr,
)
def test_a_view_refuses_a_seat_that_is_not_there_as_the_state_does(
    player: object, message: str
) -> None:
    state = new_match(2)
    for asked in (observe(state, 0).side_of, state.side_of):
        with pytest.raises(ChkobbaError) as caught:
            asked(player)  # type: ignore[arg-type]
        assert str(caught.value) == message
    assert observe(state, 1).side_of(1) == 1  # the last seat is there


def test_a_broken_views_seat_questions_name_what_is_wrong() -> None:
    view = observe(new_match(2), 0)
    broken = attrs.evolve(view, players="2")  # type: ignore[arg-type]  # a hand-built view
    with pytest.raises(ChkobbaError, match=r"^inconsistent view: players must be") as caught:
        broken.side_of(0)
    assert not isinstance(caught.value, TypeError)
    with pytest.raises(ChkobbaError, match=r"^inconsistent view: dealer must be"):
        _ = attrs.evolve(view, dealer="x").cutter  # type: ignore[arg-type]


def test_a_views_phase_questions() -> None:
    state = new_match(2)
    assert (observe(state, 0).is_chance, observe(state, 0).is_over) == (True, False)
    dealt = apply(state, random_shuffle(random.Random(1)))
    assert (observe(dealt, 1).is_chance, observe(dealt, 1).is_over) == (False, False)
    over = _match_states(2, seed=5)[-1]
    assert (observe(over, 0).is_chance, observe(over, 0).is_over) == (False, True)
    assert isinstance(observe(over, 0), PlayerView)


# --- The analysis functions take the same arguments ---------------------------------------


def _position() -> tuple[PlayerView, tuple[Any, ...]]:
    state = apply(new_match(), random_shuffle(random.Random(4)))
    state = apply(state, legal_moves(state)[1])  # expose
    return observe(state, state.mover), legal_moves(state)


def test_hint_text_takes_the_evaluator_rank_moves_takes() -> None:
    view, legal = _position()
    bot = ISMCTSBot(iterations=20, seed=1)
    ranked = rank_moves(view, legal, ISMCTSBot(iterations=20, seed=1))
    texts = [f"{item.move} ({points_text(item.value)})" for item in ranked[:2]]
    assert hint_text(view, legal, bot, top=2) == f"{texts[0]}, then {texts[1]}"
    same = ISMCTSBot(iterations=20, seed=1)
    assert hint_text(view, legal, evaluator=same, top=2) == f"{texts[0]}, then {texts[1]}"
    # The seed is the default ExpertBot's, in the same place as rank_moves' seed.
    expert = rank_moves(view, legal, ExpertBot(seed=3))[0]
    assert hint_text(view, legal, None, 3, 1) == f"{expert.move} ({points_text(expert.value)})"


def test_hint_text_refuses_an_evaluator_that_cannot_evaluate() -> None:
    view, legal = _position()
    with pytest.raises(ChkobbaError, match=r"^rank_moves: GreedyBot"):
        hint_text(view, legal, GreedyBot(seed=1))  # type: ignore[arg-type]


def test_an_unseeded_default_evaluator_is_allowed() -> None:
    view, legal = _position()
    assert {item.move for item in rank_moves(view, legal, seed=None)} == set(legal)
    assert hint_text(view, legal, seed=None, top=1).endswith(" points)")


def test_evaluators_can_be_checked_with_isinstance() -> None:
    assert isinstance(ExpertBot(seed=1), Evaluator)
    assert isinstance(ISMCTSBot(seed=1), Evaluator)
    assert not isinstance(object(), Evaluator)

    class Exact:
        def evaluate(self, view: PlayerView, legal: tuple[Any, ...]) -> dict[Any, float]:
            return dict.fromkeys(legal, 0.0)

    assert isinstance(Exact(), Evaluator)


# --- PettingZoo ---------------------------------------------------------------------------


def test_pettingzoo_env_takes_deal_reward_by_keyword_as_raw_env_does() -> None:
    pytest.importorskip("pettingzoo")
    from chkobba.pettingzoo import env, raw_env

    for make in (env, raw_env):
        with pytest.raises(TypeError):
            make(2, None, False, TUNISIAN, 1.0)  # type: ignore[call-arg]
        assert make(2, None, False, TUNISIAN, deal_reward=1.0) is not None
