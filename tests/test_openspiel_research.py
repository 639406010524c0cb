"""OpenSpiel for researchers: information-state tensors, CFR's chance reach, evaluate_bots."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import evaluate_bots, outcome_sampling_mccfr  # noqa: E402

import chkobba.openspiel  # noqa: E402, F401  (registers python_chkobba)
from chkobba import DECK, card, cards  # noqa: E402
from chkobba.history import HISTORY_SIZE, PER_CARD, DealHistory  # noqa: E402
from chkobba.observations import OBSERVATION_SIZE  # noqa: E402


def _decisions(players: int, seed: int, single_deal: bool = True) -> list[Any]:
    """Every decision state of one random game."""
    game = pyspiel.load_game("python_chkobba", {"players": players, "single_deal": single_deal})
    rng, state, seen = random.Random(seed), game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            seen.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return seen


def test_the_game_provides_an_information_state_tensor_of_fixed_size() -> None:
    game = pyspiel.load_game("python_chkobba", {"single_deal": True})
    assert game.get_type().provides_information_state_tensor
    size = OBSERVATION_SIZE + HISTORY_SIZE + 2 * len(DECK)  # + voided, kept
    assert game.information_state_tensor_shape() == [size]
    for state in _decisions(2, seed=1)[:10]:
        assert len(state.information_state_tensor(0)) == size


@pytest.mark.parametrize("players", [2, 4])
def test_within_a_deal_the_tensor_determines_the_information_state(players: int) -> None:
    # Perfect recall within a deal: two different information states of one player never
    # share a tensor (tensors are egocentric, so different players' may coincide).
    strings_of: dict[tuple[int, tuple[float, ...]], str] = {}
    states = [s for seed in range(6) for s in _decisions(players, seed)]
    for state in states:
        for player in range(players):
            tensor = (player, tuple(state.information_state_tensor(player)))
            text = state.information_state_string(player)
            assert strings_of.setdefault(tensor, text) == text
    assert len(strings_of) > 100


def test_the_history_orders_plays_and_captures() -> None:
    history = DealHistory().started(cards("AS 2S 3S 4S"), exposed=card("4S"))
    history = history.played(0, card("5D"), frozenset(cards("AS 4S")))
    history = history.played(1, card("3D"), frozenset(cards("3S")))
    vector = history.vector(viewer=1, players=2)

    def entries(name: str) -> list[float]:
        at = card(name).index * PER_CARD
        return vector[at : at + PER_CARD]

    assert entries("5D") == [0.0, 1.0, 0.0, 0.0, 1 / 40, 0.0, 0.0, 0.0]  # the other player
    assert entries("3D") == [1.0, 0.0, 0.0, 0.0, 2 / 40, 0.0, 0.0, 0.0]  # the viewer
    assert entries("AS")[5:] == [1 / 40, 1.0, 0.0]
    assert entries("4S")[5:] == [1 / 40, 1.0, 1.0]
    assert entries("3S")[5:] == [2 / 40, 1.0, 0.0]


def _chance_reach(state: Any) -> float:
    """The product of the chance probabilities along ``state``'s history, in doubles."""
    game, reach = state.get_game(), 1.0
    replay = game.new_initial_state()
    for action in state.history():
        if replay.is_chance_node():
            reach *= dict(replay.chance_outcomes())[action]
        replay.apply_action(action)
    return reach


def test_chance_reach_is_representable_for_one_deal_and_underflows_for_a_match() -> None:
    # The documented claim (docs/adapters.md): one shuffle is 1/40! ~ 1e-48 of chance
    # reach, so a single deal is fine and the 7th shuffle of a match underflows to 0.
    deal = _decisions(2, seed=3)[-1]
    assert 0 < _chance_reach(deal) == pytest.approx(1 / (2 * math.factorial(40)), rel=1e-9)
    match = [s for s in _decisions(2, seed=3, single_deal=False) if s.match_state is not None]
    shuffles = {len(s.match_state.deal_scores): s for s in match}
    late = next(s for s in match if s._shuffles >= 7)
    assert _chance_reach(late) == 0.0
    assert _chance_reach(shuffles[min(shuffles)]) > 0


def test_outcome_sampling_mccfr_on_single_deals_stays_finite() -> None:
    game = pyspiel.load_game("python_chkobba", {"single_deal": True})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(20):
        solver.iteration()
    tables = np.concatenate([np.ravel(v) for v in solver._infostates.values()])
    assert tables.size > 0 and np.isfinite(tables).all()


def test_evaluate_bots_runs_ismcts_with_the_restart_workaround() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "openspiel_ismcts.py"
    spec = importlib.util.spec_from_file_location("openspiel_ismcts", path)
    example = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(example)  # type: ignore[union-attr]
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_chkobba", {"single_deal": True})
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    plain = ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=rng)
    opponent = pyspiel.make_uniform_random_bot(1, 5)
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        evaluate_bots.evaluate_bots(game.new_initial_state(), [plain, opponent], rng)
    fixed = example.RestartableISMCTSBot(game, evaluator, 2.0, 4, random_state=rng)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [fixed, opponent], rng)
    assert sum(returns) == 0
