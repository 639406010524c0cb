"""The OpenSpiel game python_chkobba (chkobba.openspiel); skipped without the openspiel extra."""

from __future__ import annotations

import copy
import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr  # noqa: E402

import chkobba  # noqa: E402
import chkobba.openspiel  # noqa: E402
from chkobba import DECK, IllegalMoveError, Phase, observe  # noqa: E402
from chkobba.actions import EXPOSE, KEEP, NUM_ACTIONS, legal_actions  # noqa: E402
from chkobba.history import HISTORY_SIZE  # noqa: E402
from chkobba.observations import OBSERVATION_SIZE, observation_vector  # noqa: E402
from tests.helpers import MOVE_LIMIT  # noqa: E402


def load(**params: Any) -> Any:
    return pyspiel.load_game(chkobba.openspiel.GAME_NAME, params)


def play_randomly(state: Any, rng: random.Random, until: Any = None) -> Any:
    """Advance ``state`` with uniform chance and uniform random actions (at most
    MOVE_LIMIT actions: a game that never ends fails the caller's checks, not hangs)."""
    for _ in range(MOVE_LIMIT):
        if state.is_terminal() or (until and until(state)):
            return state
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError(f"the game did not end in {MOVE_LIMIT} actions")


def decision_states(players: int, seed: int, count: int) -> list[Any]:
    """``count`` player decision states from one random single-deal game (clones)."""
    rng = random.Random(seed)
    state = load(players=players, single_deal=True).new_initial_state()
    found = []
    while not state.is_terminal() and len(found) < count:
        play_randomly(state, rng, until=lambda s: not s.is_chance_node())
        if state.is_terminal():
            break
        found.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_random_sim_test_single_deal(players: int) -> None:
    pyspiel.random_sim_test(
        load(players=players, single_deal=True), num_sims=4, serialize=True, verbose=False
    )


@pytest.mark.parametrize("players", [2, 4])
def test_random_sim_test_whole_match(players: int) -> None:
    pyspiel.random_sim_test(load(players=players), num_sims=1, serialize=True, verbose=False)


def test_game_parameters_and_info() -> None:
    game = load(players=4)
    assert game.num_players() == 4
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_chance_outcomes() == len(DECK)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert load(single_deal=True).max_utility() == 22.0
    with pytest.raises(ValueError, match="2 or 4 players, not 3"):
        load(players=3)
    with pytest.raises(ValueError, match="max_shuffles"):
        load(max_shuffles=0)


def test_the_lot_then_a_shuffle_dealt_card_by_card() -> None:
    state = load(players=2).new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "dealer p1"
    with pytest.raises(ValueError, match=r"chance outcome 2 is not a dealer: .* 0 to 1"):
        state.apply_action(2)
    state.apply_action(1)
    for wrong in (40, 99):
        with pytest.raises(IllegalMoveError, match="not a card left to deal"):
            state.apply_action(wrong)
    order = list(range(len(DECK)))
    random.Random(3).shuffle(order)
    for dealt, card_id in enumerate(order):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == len(DECK) - dealt
        assert all(p == pytest.approx(1 / (len(DECK) - dealt)) for _, p in outcomes)
        assert card_id in dict(outcomes)
        state.apply_action(card_id)
        if dealt == 5:
            with pytest.raises(IllegalMoveError, match=f"outcome {card_id} is not a card left"):
                state.apply_action(card_id)
    core = state.match_state
    assert core.phase is Phase.CUT and core.dealer == 1 and core.current_player == 0
    assert core.stock == tuple(DECK[i] for i in order)  # the first card drawn is on top
    assert state.legal_actions() == [KEEP, EXPOSE]
    assert state.action_to_string(0, KEEP) == "keep"


def test_legal_actions_and_illegal_ids() -> None:
    for state in decision_states(4, seed=1, count=40):
        assert state.legal_actions() == list(legal_actions(state.position))
        for other in range(4):
            if other != state.current_player():
                assert state.legal_actions(other) == []
        illegal = next(a for a in range(NUM_ACTIONS) if a not in state.legal_actions())
        before = str(state), state.history()
        with pytest.raises(IllegalMoveError):
            state.apply_action(illegal)
        assert (str(state), state.history()) == before


def test_returns_single_deal_are_point_differences_and_zero_sum() -> None:
    for players, seed in ((2, 1), (4, 2)):
        state = play_randomly(
            load(players=players, single_deal=True).new_initial_state(), random.Random(seed)
        )
        points = state.match_state.deal_scores[0].points
        assert state.returns() == [points[p % 2] - points[1 - p % 2] for p in range(players)]
        assert sum(state.returns()) == 0


def test_returns_whole_match() -> None:
    state = play_randomly(load(players=2).new_initial_state(), random.Random(4))
    core = state.match_state
    assert core.phase is Phase.OVER
    assert state.returns() == [1.0 if p == core.winner else -1.0 for p in range(2)]


def test_max_shuffles_stops_an_undecided_match_as_a_draw() -> None:
    state = play_randomly(load(players=2, max_shuffles=1).new_initial_state(), random.Random(5))
    assert state.is_terminal() and state.match_state.phase is Phase.SHUFFLE
    assert state.returns() == [0.0, 0.0]


@pytest.mark.parametrize("params", [{"single_deal": True}, {"max_shuffles": 1}])
def test_a_terminal_state_takes_no_action(params: dict[str, Any]) -> None:
    # The audit's case: a finished deal took apply_action(0), and a match stopped by
    # max_shuffles took 40 more chance actions, dealt again and was no longer terminal.
    state = play_randomly(load(players=2, **params).new_initial_state(), random.Random(1))
    assert state.is_terminal()
    if "max_shuffles" in params:  # stopped undecided, at the next shuffle
        assert state.match_state.phase is Phase.SHUFFLE and state.returns() == [0.0, 0.0]
    before = str(state), state.history(), state.returns(), state.match_state
    assert state.legal_actions() == [] and state.chance_outcomes() == []
    for action in (0, KEEP, 39):
        with pytest.raises(IllegalMoveError, match="the game is over"):
            state.apply_action(action)
        with pytest.raises(IllegalMoveError, match="the game is over"):
            state.child(action)
    assert (str(state), state.history(), state.returns(), state.match_state) == before
    assert state.is_terminal()


def test_observation_tensor_is_the_view_vector() -> None:
    for state in decision_states(2, seed=6, count=30):
        for player in range(2):
            view = observe(state.match_state, player)
            expected = observation_vector(view, state.position.pending)
            assert state.observation_tensor(player) == pytest.approx(expected)
            assert len(state.observation_tensor(player)) == OBSERVATION_SIZE


_CARD = re.compile(r"\b[A2-7QJK][SHDC]\b")
_SHUFFLE = re.compile(r"^shuffle \d+$", re.MULTILINE)


def test_public_observers_show_no_private_card() -> None:
    game = load(players=2)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    public_recall = pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    private_only = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
    )
    observers = [game.make_py_observer(kind) for kind in (public, public_recall, private_only)]
    assert observers[0].tensor.size == OBSERVATION_SIZE - 80  # no hand, no cut card
    assert observers[1].tensor.size == OBSERVATION_SIZE - 80 + HISTORY_SIZE + 40  # + history
    assert set(observers[2].dict) == {"hand", "cut_card"}
    for state in decision_states(2, seed=14, count=20):
        hands = [{str(c) for c in hand} for hand in state.match_state.hands]
        for player in range(2):
            texts = [observer.string_from(state, player) for observer in observers[:2]]
            for text in texts:
                assert "hand " not in text and "kept" not in text
                assert texts[0] == texts[1].splitlines()[-1]
            observers[2].set_from(state, player)
            held = {str(DECK[i]) for i in np.flatnonzero(observers[2].dict["hand"])}
            assert held == hands[player]
    with pytest.raises(ValueError, match="not all"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False,
                public_info=True,
                private_info=pyspiel.PrivateInfoType.ALL_PLAYERS,
            )
        )


def test_strings_never_show_another_players_hidden_cards() -> None:
    named_somewhere = set()
    for state in decision_states(4, seed=7, count=60) + decision_states(2, seed=3, count=60):
        core, pending = state.match_state, state.position.pending
        for player in range(core.players):
            hidden = {c for p, hand in enumerate(core.hands) if p != player for c in hand}
            hidden |= set(core.stock)
            if core.phase is Phase.CUT and player == core.current_player:
                hidden.discard(core.stock[0])
            hidden.discard(pending)  # played face up, its capture still to choose
            hidden_text = {str(c) for c in hidden}
            info = state.information_state_string(player)
            # Earlier deals' cards were gathered up: read from this deal's shuffle on.
            this_deal = info[[m.start() for m in _SHUFFLE.finditer(info)][-1] :]
            for text in (state.observation_string(player), this_deal):
                named = set(_CARD.findall(text))
                assert not named & hidden_text, (player, text)
                named_somewhere |= named
    assert len(named_somewhere) == len(DECK)


def test_resampling_keeps_the_information_state() -> None:
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for state in decision_states(2, seed=8, count=25) + decision_states(4, seed=9, count=25):
        player = state.current_player()
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        core, other = state.match_state, sample.match_state
        assert sorted(core.stock + sum(core.hands, ())) == sorted(
            other.stock + sum(other.hands, ())
        )
        assert other.hands[player] == core.hands[player]
        changed += other.stock != core.stock
        play_randomly(sample, random.Random(0))  # the sampled world plays on legally
    assert changed > 40


def test_a_resample_depends_on_what_the_player_knows_not_on_the_true_cards() -> None:
    """Two states the player cannot tell apart, resampled with the same numbers, give
    the same sample: the hidden cards are shuffled from deck order, not from their true
    places (review 78A: with a sampler that always draws just below 1 the resample was
    the true state itself, and equal information states gave different samples)."""
    differed = 0
    states = decision_states(2, seed=21, count=20) + decision_states(4, seed=22, count=20)
    for number, state in enumerate(states):
        player = state.current_player()
        twin = state.resample_from_infostate(player, random.Random(number).random)
        assert twin.information_state_string(player) == state.information_state_string(player)
        differed += twin.match_state != state.match_state
        ours = state.resample_from_infostate(player, random.Random(99).random)
        theirs = twin.resample_from_infostate(player, random.Random(99).random)
        assert ours.match_state == theirs.match_state
        assert ours.information_state_string(player) == theirs.information_state_string(player)
        for other in range(state.match_state.players):  # the kept card followed its slot
            assert ours.information_state_string(other) == theirs.information_state_string(other)
    assert differed > 30
    top = states[5].resample_from_infostate(states[5].current_player(), lambda: 0.999999)
    assert top.match_state != states[5].match_state


def test_resampling_for_a_watching_player_keeps_a_pending_card() -> None:
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    pending = [s for s in decision_states(2, seed=12, count=200) if s.position.pending]
    pending += [s for s in decision_states(4, seed=13, count=200) if s.position.pending]
    assert pending
    for state in pending:
        mover = state.current_player()
        for player in range(state.match_state.players):
            sample = state.resample_from_infostate(player, sampler)
            assert sample.position.pending in sample.match_state.hands[mover]
            assert sample.information_state_string(player) == state.information_state_string(player)
            play_randomly(sample, random.Random(player))


def test_clone_is_independent_and_states_pickle() -> None:
    state = decision_states(2, seed=10, count=12)[-1]
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history() and str(copy) == str(state)
    for player in range(2):
        assert copy.information_state_string(player) == state.information_state_string(player)
    mid_shuffle = load().new_initial_state()
    for action in (0, 5, 7, 9):
        mid_shuffle.apply_action(action)
    assert (
        pickle.loads(pickle.dumps(mid_shuffle)).chance_outcomes() == mid_shuffle.chance_outcomes()
    )


def test_ismcts_plays_a_deal() -> None:
    game = load(players=2, single_deal=True)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)
    state = game.new_initial_state()
    chooser = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            play_randomly(state, chooser, until=lambda s: not s.is_chance_node())
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(chooser.choice(state.legal_actions()))
    assert sum(state.returns()) == 0


def test_outcome_sampling_mccfr_iterates() -> None:
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(load(players=2, single_deal=True))
    for _ in range(5):
        solver.iteration()
    policy = solver.average_policy()
    state = decision_states(2, seed=11, count=1)[0]
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())


# --- bad input (hardening) ---------------------------------------------------------------


def _dealt_state() -> Any:
    state = load().new_initial_state()
    state.apply_action(0)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


@pytest.mark.parametrize(
    "method",
    ["information_state_text", "observation_text", "history_vector", "kept_vector", "view"],
)
@pytest.mark.parametrize("player", [9, -1, True, "0"])
def test_a_player_outside_the_game_is_named(method: str, player: object) -> None:
    state = _dealt_state()
    with pytest.raises(chkobba.ChkobbaError, match=f"{method}: player must be 0 to 1"):
        getattr(state, method)(player)


def test_a_game_built_directly_checks_its_single_deal_flag() -> None:
    # pyspiel.load_game types its parameters; ChkobbaGame(params) read "no" as True.
    with pytest.raises(chkobba.ChkobbaError, match="single_deal must be True or False, not 'no'"):
        chkobba.openspiel.ChkobbaGame({"single_deal": "no"})
    game = chkobba.openspiel.ChkobbaGame({"single_deal": 1})
    assert game.single_deal is True and game.get_parameters()["single_deal"] is True


@pytest.mark.parametrize("target", [0.0, -0.0, False, True, 21.0, 1.5])
def test_a_game_built_directly_refuses_a_target_that_is_no_int(target: object) -> None:
    # 0.0 and False passed as the profile's target and the game kept them: OpenSpiel's
    # load_game(str(game)) and deserialization of its states then failed.
    with pytest.raises(chkobba.ChkobbaError) as caught:
        chkobba.openspiel.ChkobbaGame({"target": target})
    assert str(caught.value) == (
        f"python_chkobba: target must be 0 (the profile's) or 1 to 10000, got {target!r}"
    )


def test_a_game_built_directly_takes_numpys_integers_as_ints() -> None:
    # pybind could not take numpy's int64 for target (a bare TypeError), and players and
    # max_shuffles refused it, where the library takes numpy's integers everywhere else.
    params = {"target": np.int64(11), "players": np.int64(4), "max_shuffles": np.int32(3)}
    game = chkobba.openspiel.ChkobbaGame(params)
    assert game.get_parameters() == {
        "max_shuffles": 3, "players": 4, "rules": "tunisian", "single_deal": False, "target": 11
    }  # fmt: skip
    assert {type(value) for value in game.get_parameters().values()} == {int, str, bool}
    state = game.new_initial_state()
    state.apply_action(0)
    again, copied = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert str(again) == str(game) == str(pyspiel.load_game(str(game)))
    assert copied.history() == state.history()


@pytest.mark.parametrize(("game", "named"), [(None, "None"), (1, "1"), ("kuhn", "'kuhn'")])
def test_a_state_built_directly_needs_a_chkobba_game(game: object, named: str) -> None:
    # pyspiel.State took the value as it was: None crashed the interpreter.
    with pytest.raises(chkobba.ChkobbaError) as caught:
        chkobba.openspiel.ChkobbaState(game)  # type: ignore[arg-type]
    assert str(caught.value) == (
        f"ChkobbaState needs a python_chkobba game (a ChkobbaGame), not {named}"
    )
    with pytest.raises(chkobba.ChkobbaError, match="ChkobbaState needs"):
        chkobba.openspiel.ChkobbaState(pyspiel.load_game("kuhn_poker"))


@pytest.mark.parametrize(("kind", "named"), [(True, "True"), (False, "False"), ("x", "'x'")])
def test_an_observer_type_must_be_an_iig_observation_type(kind: object, named: str) -> None:
    message = (
        "a python_chkobba observer's type must be a pyspiel.IIGObservationType "
        f"(or None for the default), not {named}"
    )
    for make in (load().make_py_observer, lambda k: chkobba.openspiel.ChkobbaObserver(k, None)):
        with pytest.raises(chkobba.ChkobbaError) as caught:
            make(kind)
        assert str(caught.value) == message


@pytest.mark.parametrize("method", ["set_from", "string_from"])
@pytest.mark.parametrize(("state", "named"), [(None, "None"), ("state", "'state'")])
def test_an_observer_reads_only_chkobba_states(method: str, state: object, named: str) -> None:
    observer = load().make_py_observer()
    with pytest.raises(chkobba.ChkobbaError) as caught:
        getattr(observer, method)(state, 0)
    assert str(caught.value) == (
        f"{method}: the state must be a python_chkobba state (a ChkobbaState), not {named}"
    )
    with pytest.raises(chkobba.ChkobbaError, match=f"^{method}: the state must be"):
        getattr(observer, method)(np.int64(0), 0)


def test_unknown_game_parameters_are_refused_with_the_known_ones() -> None:
    with pytest.raises(chkobba.ChkobbaError, match=r"unknown parameter 'nope'.*max_shuffles"):
        chkobba.openspiel.ChkobbaGame({"nope": 1})
    with pytest.raises(chkobba.ChkobbaError, match="params must be a dict"):
        chkobba.openspiel.ChkobbaGame([1])  # type: ignore[arg-type]


def test_the_documented_information_state_tensor_size_is_the_real_one() -> None:
    docs = (Path(__file__).parent.parent / "docs" / "adapters.md").read_text(encoding="utf-8")
    found = re.search(r"\(`information_state_tensor`, (\d+) floats\)", docs)
    assert found is not None
    for players in (2, 4):
        assert int(found[1]) == load(players=players).information_state_tensor_size()


#: Every game the parameters allow: (players, profile) by profile, each single deal or not.
_EVERY_GAME = [
    {"players": players, "rules": rules, "single_deal": single_deal}
    for players, rules in [
        (2, "tunisian"),
        (4, "tunisian"),
        (2, "cardrulesplus"),
        (3, "cardrulesplus"),
        (4, "cardrulesplus"),
    ]
    for single_deal in (True, False)
]


def _copies(game: Any, state: Any) -> list[tuple[str, Any]]:
    """Every way OpenSpiel and Python copy a state, each as an independent state."""
    _, deserialized = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    return [
        ("clone", state.clone()),
        ("pickle", pickle.loads(pickle.dumps(state))),
        ("deserialize", deserialized),
        ("deepcopy", copy.deepcopy(state)),
    ]


def _same_playout(first: Any, second: Any, seed: int) -> None:
    """Both states take the same actions to the end and agree all the way."""
    rng = random.Random(seed)
    for _ in range(MOVE_LIMIT):
        if first.is_terminal():
            break
        assert second.history() == first.history() and str(second) == str(first)
        if first.is_chance_node():
            assert second.chance_outcomes() == first.chance_outcomes()
            outcomes, weights = zip(*first.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, weights)[0]
        else:
            assert second.legal_actions() == first.legal_actions()
            action = rng.choice(first.legal_actions())
        first.apply_action(action)
        second.apply_action(action)
    assert second.is_terminal() and second.returns() == first.returns()


@pytest.mark.parametrize("params", _EVERY_GAME, ids=lambda p: "-".join(map(str, p.values())))
def test_copies_of_the_first_state_and_later_ones_play_on(params: dict[str, Any]) -> None:
    # The state used to keep the game's bound new_match, and a copied game lost its
    # Python attributes: a copy made before the lot failed at its first action.
    game = load(**params, max_shuffles=2)
    first = game.new_initial_state()
    for name, copied in _copies(game, first):
        assert copied.chance_outcomes() == first.chance_outcomes(), name
        assert copied.action_to_string(copied.legal_actions()[0]) == first.action_to_string(
            first.legal_actions()[0]
        ), name
        _same_playout(game.new_initial_state(), copied, seed=len(name))
    children = [first.child(action) for action in first.legal_actions()]
    assert [child.match_state.dealer for child in children] == list(range(game.num_players()))
    later = play_randomly(
        game.new_initial_state(), random.Random(5), until=lambda s: s.move_number() > 60
    )
    for name, copied in _copies(game, later):
        reference = later.clone()
        _same_playout(reference, copied, seed=len(name))
    if not later.is_terminal():
        assert later.child(later.legal_actions()[0]).history()[:-1] == later.history()


@pytest.mark.parametrize("players", [2, 4])
def test_a_state_late_in_a_long_match_copies_every_way(players: int) -> None:
    # The public events were pickled node by node, one recursion per event: late in an
    # ordinary match (past about 350 events) pickle, deepcopy and serialize failed.
    game = load(players=players, target=10000)
    state = play_randomly(
        game.new_initial_state(), random.Random(players), until=lambda s: s.move_number() > 1500
    )
    assert len(state.information_state_string(0).splitlines()) > 500  # a long log indeed
    for name, copied in _copies(game, state):
        assert copied.history() == state.history(), name
        for player in range(players):
            assert copied.information_state_string(player) == state.information_state_string(
                player
            ), name
        copied.apply_action(copied.legal_actions()[0])  # and it plays on


@pytest.mark.parametrize("params", _EVERY_GAME, ids=lambda p: "-".join(map(str, p.values())))
def test_open_spiels_sample_some_states_runs(params: dict[str, Any]) -> None:
    from open_spiel.python.algorithms import sample_some_states

    game = load(**params, max_shuffles=2)
    states = sample_some_states.sample_some_states(game, max_states=30)
    assert len(states) == 30 and states[0].is_chance_node()


@pytest.mark.parametrize("params", _EVERY_GAME, ids=lambda p: "-".join(map(str, p.values())))
def test_a_copied_or_pickled_game_keeps_its_parameters(params: dict[str, Any]) -> None:
    game = load(**params)
    for copied in (copy.deepcopy(game), copy.copy(game), pickle.loads(pickle.dumps(game))):
        assert isinstance(copied, chkobba.openspiel.ChkobbaGame)
        assert copied.get_parameters() == game.get_parameters()
        assert (copied.players, copied.rules, copied.single_deal, copied.max_shuffles) == (
            game.players,
            game.rules,
            game.single_deal,
            game.max_shuffles,
        )
        _same_playout(game.new_initial_state(), copied.new_initial_state(), seed=1)


def _sweeping_deal(sides: int, rules: Any) -> tuple[list[Any], list[Any]]:
    """The table and the 36 plays of a deal in which the leading side sweeps every time.

    Two sides: A+A+2+2 taken by a 6, then each card laid on the empty table taken by its
    equal. Three sides: four aces taken by a 4, then the two cards the others lay taken
    by their sum. The leading side ends with all 40 cards.
    """
    value_of = dict(zip("A234567QJK", rules.capture_values, strict=True))
    pool = {rank: [f"{rank}{suit}" for suit in "SHDC"] for rank in "A234567QJK"}

    def take(*wanted: str) -> list[Any]:
        return [chkobba.card(pool[rank].pop(0)) for rank in wanted]

    def rank(value: int) -> str:
        return next(r for r, v in value_of.items() if v == value)

    if sides == 2:
        table, plays = take("A", "A", "2", "2"), take("6")
        for letter in "A234567QJK":
            while len(pool[letter]) >= 2:
                plays += take(letter, letter)  # laid, then taken with its equal
        plays += take(*(letter for letter in pool for _ in pool[letter]))
        return table, plays
    table, plays = take("A", "A", "A", "A"), take("4")
    sums = [(2, 5)] + [(2, 6)] * 3 + [(3, 6)] + [(3, 7)] * 3 + [(4, 5)] * 3
    for first, second in sums:
        plays += take(rank(first), rank(second), rank(first + second))
    plays += take(*(letter for letter in pool for _ in pool[letter]))  # a J and a K
    return table, plays


@pytest.mark.parametrize(
    ("players", "rules", "bounds"),
    [
        (2, "tunisian", (-22.0, 22.0)),
        (4, "tunisian", (-22.0, 22.0)),
        (2, "cardrulesplus", (-21.0, 21.0)),
        (3, "cardrulesplus", (-7.5, 15.0)),
        (4, "cardrulesplus", (-21.0, 21.0)),
    ],
)
def test_single_deal_utilities_are_the_exact_bounds(
    players: int, rules: str, bounds: tuple[float, float]
) -> None:
    # The bounds were 39 (38 under CardRulesPlus): 35 chkobbas, but a side plays only
    # 36 / sides cards of a deal. A deal that reaches them: the leading side sweeps with
    # every card it plays and takes every card and every category.
    from chkobba import Play, legal_moves
    from chkobba.actions import action_ids
    from tests.helpers import round_order, stacked_shuffle

    game = load(players=players, rules=rules, single_deal=True)
    assert (game.min_utility(), game.max_utility()) == bounds
    core_rules = game.rules
    sides, dealer = core_rules.sides(players), 0
    cutter = (dealer + 1) % players
    table, plays = _sweeping_deal(sides, core_rules)
    assert sorted(table + plays) == sorted(DECK)
    rounds: list[list[list[Any]]] = [[[] for _ in range(players)] for _ in range(12 // players)]
    for turn, played in enumerate(plays):
        rounds[turn // (3 * players)][(cutter + turn) % players].append(played)
    stock = [c for hands in rounds[1:] for c in round_order(players, dealer, hands)]
    shuffle = stacked_shuffle(
        players, dealer=dealer, hands=rounds[0], table=table, stock=stock, cut=core_rules.cut
    )
    state = game.new_initial_state()
    state.apply_action(dealer)
    for dealt_card in shuffle.order:
        state.apply_action(dealt_card.index)
    if core_rules.cut:
        state.apply_action(EXPOSE)
    for played in plays:
        position = state.position
        table_now = frozenset(position.state.table)
        options = [
            m for m in legal_moves(position.state) if isinstance(m, Play) and m.card == played
        ]
        sweeps = [m for m in options if table_now and m.capture == table_now]
        assert sweeps or len(options) == 1, played
        for action in action_ids(position, (sweeps or options)[0]):
            state.apply_action(action)
    assert state.is_terminal()
    score = state.match_state.deal_scores[-1]
    lead = cutter % sides
    assert score.chkobbas[lead] == 36 // sides and score.card_counts[lead] == 40
    low, high = bounds
    assert state.returns() == [high if p % sides == lead else low for p in range(players)]


def test_open_spiels_rl_environment_plays_seeded_deals() -> None:
    # The environment of OpenSpiel's RL agents (DQN, NFSP, policy gradients) gives the
    # information-state tensor; a seeded chance sampler replays the deal.
    game = load(single_deal=True)

    def episode(seed: int) -> tuple[list[Any], list[float]]:
        sampler = rl_environment.ChanceEventSampler(seed=seed)
        env = rl_environment.Environment(game, chance_event_sampler=sampler)
        assert env.observation_spec()["info_state"] == (game.information_state_tensor_size(),)
        assert env.action_spec()["num_actions"] == NUM_ACTIONS
        step = env.reset()
        trace: list[Any] = []
        while not step.last():
            player = step.observations["current_player"]
            action = step.observations["legal_actions"][player][0]
            trace.append((action, tuple(step.observations["info_state"][player])))
            step = env.step([action])
        return trace, step.rewards

    first, rewards = episode(3)
    assert episode(3) == (first, rewards) and sum(rewards) == 0


@pytest.mark.parametrize("player", [5, 2, -1, True, None])
def test_resampling_for_a_player_not_in_the_game_is_refused(player: object) -> None:
    state = decision_states(2, seed=8, count=3)[-1]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    with pytest.raises(chkobba.ChkobbaError, match="resample_from_infostate: player must be 0"):
        state.resample_from_infostate(player, sampler)


@pytest.mark.parametrize(
    ("number", "shown"),
    [(float("nan"), "nan"), (-0.1, "-0.1"), (1.5, "1.5"), ("x", "'x'"), (None, "None")],
)
def test_a_sampler_number_outside_zero_to_one_is_refused(number: object, shown: str) -> None:
    # OpenSpiel's ResampleFromInfostate wants numbers in [0, 1): NaN crashed in int(),
    # a negative number silently picked a card from the end.
    state = decision_states(2, seed=8, count=3)[-1]
    before = (state.serialize(), state.information_state_string(1), state.match_state)
    with pytest.raises(
        chkobba.ChkobbaError,
        match=rf"probability sampler must return a number in \[0, 1\), not {re.escape(shown)}$",
    ):
        state.resample_from_infostate(0, lambda: number)
    assert (state.serialize(), state.information_state_string(1), state.match_state) == before


def test_a_sampler_that_is_no_function_is_refused() -> None:
    state = decision_states(2, seed=8, count=3)[-1]
    with pytest.raises(chkobba.ChkobbaError, match="probability sampler must be a function"):
        state.resample_from_infostate(0, 0.5)


def test_a_sampler_may_return_zero_one_and_numpy_numbers() -> None:
    # 1.0 is outside [0, 1), but some uniform generators return it: it means the last card.
    state = decision_states(2, seed=8, count=3)[-1]
    for number in (0.0, 1.0, np.float64(0.5), 0):
        sample = state.resample_from_infostate(0, lambda number=number: number)
        assert sample.information_state_string(0) == state.information_state_string(0)


def test_the_tensor_leaves_out_a_voided_deal_that_bears_on_nothing_to_come() -> None:
    # docs/adapters.md: how many deals were voided, and a card kept at a voided deal's
    # cut, are in the information-state string but not in the tensor (found by the
    # information-set audit of stop 52). The lot draws dealer 1, so player 0 cuts.
    game = pyspiel.load_game("python_chkobba", {"players": 2, "single_deal": True})

    def order(table: str) -> list[int]:  # a keep deals order[6:10] to the table
        laid = chkobba.cards(table)
        rest = [c.index for c in DECK if c not in laid]
        return rest[:6] + [c.index for c in laid] + rest[6:]

    dealt = [1, *order("3S 4H 5D 6C")]
    redealt = [1, *order("AS AH AD 2S"), KEEP, *order("3S 4H 5D 6C")]  # three aces: void
    first, second = (game.new_initial_state() for _ in range(2))
    for state, history in ((first, dealt), (second, redealt)):
        for action in history:
            state.apply_action(action)
    assert first.current_player() == second.current_player() == 0
    assert first.legal_actions() == second.legal_actions() == [KEEP, EXPOSE]
    for player in (0, 1):
        assert first.information_state_tensor(player) == second.information_state_tensor(player)
        assert first.information_state_string(player) != second.information_state_string(player)
    assert "void" in second.information_state_string(0)


@pytest.mark.parametrize(
    ("private", "public", "recall", "size"),
    [
        ("SINGLE_PLAYER", True, False, OBSERVATION_SIZE),
        ("SINGLE_PLAYER", True, True, OBSERVATION_SIZE + HISTORY_SIZE + 40 + 40),
        ("NONE", True, False, OBSERVATION_SIZE - 80),
        ("NONE", True, True, OBSERVATION_SIZE - 80 + HISTORY_SIZE + 40),
        ("SINGLE_PLAYER", False, False, 80),
        ("SINGLE_PLAYER", False, True, 80 + 40),
        ("NONE", False, False, 0),
        ("NONE", False, True, 0),
    ],
)
def test_every_observer_has_the_tensor_size_the_docs_give(
    private: str, public: bool, recall: bool, size: int
) -> None:
    """docs/adapters.md's table of observers (the audit of 0.1.0's suite found the public
    perfect-recall tensor, empty in 0.1.0, named nowhere)."""
    kind = pyspiel.IIGObservationType(
        perfect_recall=recall,
        public_info=public,
        private_info=getattr(pyspiel.PrivateInfoType, private),
    )
    observer = load(players=2).make_py_observer(kind)
    assert observer.tensor.size == size
    table = Path(__file__).resolve().parent.parent.joinpath("docs", "adapters.md").read_text()
    row = f"| `{private}` | {public} |"
    assert row in table and f" {size} " in table.split(row)[1].splitlines()[0]


# --- what an observation leaves out, as docs/adapters.md says (a review, 2026-12-06) -----


def _decisions(game: Any, actions: list[int]) -> tuple[Any, list[Any]]:
    """The state after ``actions`` and a copy at each decision (not a chance node) on the way."""
    state, seen = game.new_initial_state(), []
    for action in actions:
        state.apply_action(action)
        if state.match_state is not None and not state.is_chance_node():
            seen.append(state.clone())
    return state, seen


def test_an_observation_does_not_say_how_the_cut_went_the_information_state_does() -> None:
    """Dealer 0; the cutter keeps card ``c[0]`` (history A) or exposes ``c[6]`` (B), the
    shuffles arranged so that both deal the same hands and table. The dealer's every
    observation is the same; its information state is not."""
    game = pyspiel.load_game("python_chkobba", {"single_deal": True})
    c = list(range(40))
    random.Random(7).shuffle(c)
    kept = [0, *c, KEEP]
    exposed = [0, c[6], c[0], c[2], c[1], c[4], c[3], c[5], *c[7:10], *c[10:], EXPOSE]
    a, seen_a = _decisions(game, kept)
    b, seen_b = _decisions(game, exposed)
    assert sorted(a.match_state.table) == sorted(b.match_state.table)
    assert [set(hand) for hand in a.match_state.hands] == [set(h) for h in b.match_state.hands]
    assert [s.observation_string(0) for s in seen_a] == [s.observation_string(0) for s in seen_b]
    assert [s.observation_tensor(0) for s in seen_a] == [s.observation_tensor(0) for s in seen_b]
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_tensor(0) != b.information_state_tensor(0)
    assert "p1 keeps" in a.information_state_string(0)
    assert f"p1 exposes {DECK[c[6]]}" in b.information_state_string(0)


def test_a_resampled_state_keeps_the_history_of_the_true_deal() -> None:
    game = pyspiel.load_game("python_chkobba")
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node() or state.match_state.phase is not Phase.PLAY:
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0] if outcomes else KEEP)
    player = state.current_player()
    resampled = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(5, 0, 1))
    other = 1 - player
    assert resampled.information_state_string(player) == state.information_state_string(player)
    assert resampled.match_state.hands[other] != state.match_state.hands[other]
    assert resampled.history() == state.history()
    replayed = game.new_initial_state()
    for action in resampled.history():
        replayed.apply_action(action)
    assert replayed.match_state == state.match_state != resampled.match_state
    restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, resampled))
    assert restored[1].match_state == resampled.match_state


def test_a_long_target_needs_max_shuffles_of_about_the_target() -> None:
    # docs/adapters.md: with the default 50 "a match to 151 nearly always" ends as a draw;
    # "give max_shuffles at least the target" (review 78B).
    ended = []
    for max_shuffles in (50, 151):
        game = load(target=151, max_shuffles=max_shuffles)
        state = game.new_initial_state()
        for _ in range(400):  # until the match ends: long for play_randomly's limit
            try:
                state = play_randomly(state, random.Random(5))
                break
            except AssertionError:
                continue
        ended.append((state.is_terminal(), state.returns(), max(state.match_state.scores)))
    (short, short_returns, short_top), (whole, returns, top) = ended
    assert short and short_returns == [0.0, 0.0] and short_top < 151  # stopped: a draw
    assert whole and sorted(returns) == [-1.0, 1.0] and top >= 151
