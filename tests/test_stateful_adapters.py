"""The game-AI adapters driven by random interleavings of everything a trainer does.

The example tests (``test_gymnasium.py``, ``test_pettingzoo.py``, ``test_openspiel.py``)
try each operation in a few situations, and ``test_fuzz_adapters.py`` plays whole deals
with wrong actions mixed in. These state machines interleave at random what those do
not combine: seeded and unseeded resets with options (seat, dealer, ``single_deal``),
refused resets, legal steps (Python and numpy ids), refused steps (masked ids, ids out
of range, things that are no id), steps after the episode ended, renders, and copies
(``copy.deepcopy``, ``pickle``, OpenSpiel's clone and serialization) taken mid-episode
and later replayed with the same actions. After every operation they check the adapter
against the core engine and against a model of what the docs promise:

- the core state is one a match can reach (``check_state``), its 40 cards split among
  stock, hands, table and piles;
- the mask (or OpenSpiel's legal actions) is ``chkobba.actions.legal_actions`` of the
  adapter's position, and the observation is ``observation_vector`` of the actor's view;
- a refused call raises a ``ChkobbaError`` and changes nothing (position, mask, seat,
  generator, rewards, history);
- a seeded reset is the same as a fresh environment's with that seed, the seat rotation
  and the persisting ``single_deal`` option follow the docs, and the rewards of an
  episode add up to what the docs say (points difference, +1/-1, deal rewards);
- a copy taken at any point, left alone while the original plays on, replays the
  original's later results exactly (so the two share no generator, bot or position).

Skipped without the gymnasium, pettingzoo or open_spiel extras.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    ChkobbaError,
    Cut,
    IllegalMoveError,
    Phase,
    Play,
    Rules,
    State,
    check_state,
    legal_moves,
    observe,
)
from chkobba.actions import EXPOSE, FIRST_CAPTURE, KEEP, Position, legal_actions, render_position
from chkobba.observations import OBSERVATION_SIZE, cap_scores, observation_vector
from tests.strategies import examples

np = pytest.importorskip("numpy")

#: Short matches (target 2), so that a run of steps reaches the ends of deals and matches.
SEATINGS = [
    (attrs.evolve(TUNISIAN, target=2), 2),
    (attrs.evolve(TUNISIAN, target=2), 4),
    (attrs.evolve(CARD_RULES_PLUS, target=2), 3),
    (attrs.evolve(CARD_RULES_PLUS, target=2), 2),
]
#: Things that are not an action id at all.
NOT_IDS: list[object] = [None, 1.5, 2.0, "3", True, False, [1], (), b"1"]
#: Seeds and options every reset must refuse (a valid part first, where it matters, so a
#: reset that commits what it checked first is caught).
BAD_RESETS: list[dict[str, Any]] = [
    {"seed": -1},
    {"seed": 1.5},
    {"seed": "3"},
    {"seed": True},
    {"options": "single_deal"},
    {"options": {"single_deal": "no"}},
    {"options": {"single_deal": None}},
    {"options": {"dealer": 9}},
    {"options": {"dealer": -1}},
    {"options": {"dealer": True}},
    {"options": {"dealer": 1.0}},
    {"seed": 5, "options": {"single_deal": True, "dealer": 99}},
    {"seed": 5, "options": {"single_deal": False, "dealer": "0"}},
]
#: Gymnasium's seat option too (PettingZoo ignores unknown keys such as this one).
BAD_GYM_RESETS = [
    *BAD_RESETS,
    {"options": {"seat": 9}},
    {"options": {"seat": -1}},
    {"options": {"seat": True}},
    {"options": {"seat": 1.0}},
    {"seed": 3, "options": {"single_deal": True, "seat": 7}},
]

#: A few examples of many steps each: every step is checked, and most rules act.
MACHINE_SETTINGS = settings(
    max_examples=examples(50), stateful_step_count=50, deadline=None, print_blob=True
)
#: The most points a side scores in a deal (docs/gymnasium.md, ``reward_range``).
DEAL_BOUNDS = {
    ("tunisian", 2): 22,
    ("tunisian", 4): 22,
    ("cardrulesplus", 2): 21,
    ("cardrulesplus", 3): 15,
}


def _reset_options() -> st.SearchStrategy[dict[str, Any] | None]:
    """Reset options as drawn: seats and dealers are taken modulo the player count."""
    flags = st.sampled_from([True, False, 0, 1])
    return st.none() | st.fixed_dictionaries(
        {},
        optional={
            "single_deal": flags,
            "seat": st.integers(0, 3),
            "dealer": st.integers(0, 3),
            "numpy": st.booleans(),  # not an option: says to pass numpy integers
        },
    )


def _fitted(options: dict[str, Any] | None, players: int) -> dict[str, Any] | None:
    """``options`` with the seat and the dealer made seats of this game."""
    if options is None:
        return None
    fitted = dict(options)
    wrap = np.int64 if fitted.pop("numpy", False) else int
    for key in ("seat", "dealer"):
        if key in fitted:
            fitted[key] = wrap(fitted[key] % players)
    return fitted


def _partition(state: State) -> None:
    """The 40 cards are among stock, hands, table and piles, each exactly once."""
    held = [*state.stock, *state.table]
    for hand in state.hands:
        held += hand
    for pile in state.captured:
        held += pile
    assert sorted(held) == sorted(DECK)


def _engine_ids(position: Position) -> list[int]:
    """The legal action ids worked out from the engine's legal moves (docs/adapters.md's
    encoding): a card's index, 40 keep, 41 expose, and while a card waits for its
    capture, one id from 42 per capture option the engine allows it."""
    moves = legal_moves(position.state)
    if position.pending is not None:
        options = [m for m in moves if isinstance(m, Play) and m.card == position.pending]
        return list(range(FIRST_CAPTURE, FIRST_CAPTURE + len(options)))
    ids = set()
    for move in moves:
        if isinstance(move, Cut):
            ids.add(KEEP if move.keep else EXPOSE)
        elif isinstance(move, Play):
            ids.add(move.card.index)
    return sorted(ids)


def _margin(points: tuple[int, ...], side: int) -> float:
    """The learner's deal reward (docs/gymnasium.md): ours minus the best other side's."""
    return float(points[side] - max(p for s, p in enumerate(points) if s != side))


def _plain(value: Any) -> Any:
    """Arrays and dicts as comparable plain values (dtype kept: int8 is not float32)."""
    if isinstance(value, np.ndarray):
        return (str(value.dtype), value.tolist())
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(item) for item in value)
    return value


def _expected_vector(state: State, player: int, pending: Any) -> Any:
    return np.array(observation_vector(observe(state, player), pending), np.float32)


# --- Gymnasium ---------------------------------------------------------------------------


class GymMachine(RuleBasedStateMachine):
    """A ``ChkobbaEnv``, a model of what it must do, and copies of it taken on the way."""

    def __init__(self) -> None:
        super().__init__()
        self.env: Any = None
        self.kwargs: dict[str, Any] = {}
        self.players = 2
        self.single_deal = False  # the persisting option, as the docs say it persists
        self.next_seat = 0  # the "alternate" rotation
        self.started = False
        self.done = True
        self.forfeited = False  # ended by an illegal id under illegal_action="terminate"
        self.learner = 0
        self.total = 0.0  # the rewards of the episode so far
        # Copies taken mid-episode, each with the calls made on the original since and
        # their results: replayed on the copy, they must give the same results.
        self.copies: list[tuple[Any, list[tuple[str, Any, Any]]]] = []

    @initialize(
        seating=st.sampled_from(SEATINGS),
        opponent=st.sampled_from(["random", "greedy"]),
        seat=st.sampled_from(["alternate", 0, 1, 2]),
        single_deal=st.booleans(),
        deal_reward=st.sampled_from([0.0, 0.5, -2.0]),
        features=st.booleans(),
        illegal=st.sampled_from(["raise", "terminate"]),
        render_mode=st.sampled_from([None, "ansi"]),
        start=st.none() | st.integers(0, 2**32),
    )
    def build(
        self,
        seating: tuple[Rules, int],
        opponent: str,
        seat: int | str,
        single_deal: bool,
        deal_reward: float,
        features: bool,
        illegal: str,
        render_mode: str | None,
        start: int | None,
    ) -> None:
        pytest.importorskip("gymnasium")
        from chkobba.gymnasium import ChkobbaEnv

        rules, self.players = seating
        self.kwargs = {
            "opponent": opponent,
            "players": self.players,
            "seat": seat if isinstance(seat, str) else seat % self.players,
            "rules": rules,
            "deal_reward": deal_reward,
            "features": features,
            "illegal_action": illegal,
            "render_mode": render_mode,
        }
        self.single_deal = single_deal
        self.env = ChkobbaEnv(single_deal=single_deal, **self.kwargs)
        if start is not None:  # most runs start at once; the others try calls before it
            self.reset(start, None, 0)

    # --- helpers -------------------------------------------------------------------

    def _snapshot(self, env: Any) -> tuple[Any, ...]:
        """What a refused call must leave as it was (the generator once there is one:
        reading ``np_random`` before a reset would make one)."""
        generator = env.np_random.bit_generator.state if self.started else None
        masks = _plain(env.action_masks()) if self.started else None
        return (
            env.position,
            env.learner,
            env.single_deal,
            env.reward_range,
            masks,
            generator,
            env.render(),
        )

    def _digest(self, result: Any) -> Any:
        return _plain(result)

    def _record(self, kind: str, call: Any, result: Any) -> None:
        for _, calls in self.copies:
            calls.append((kind, call, self._digest(result)))

    def _check_observation(self, observation: Any) -> None:
        env = self.env
        assert observation.dtype == np.float32
        assert env.observation_space.contains(observation)
        state, pending = env.position.state, env.position.pending
        expected = cap_scores(observation_vector(observe(state, env.learner), pending))
        assert observation[:OBSERVATION_SIZE].tolist() == np.array(expected, np.float32).tolist()

    def _check_info(self, info: dict[str, Any]) -> None:
        state = self.env.match_state
        assert info["seat"] == self.learner == self.env.learner
        assert info["side"] == state.side_of(self.learner)
        assert info["action_mask"].dtype == np.int8
        assert info["action_mask"].astype(bool).tolist() == self.env.action_masks().tolist()

    def _expected_end_total(self) -> float:
        """The rewards an episode that ended normally adds up to (docs/gymnasium.md)."""
        state = self.env.match_state
        side = state.side_of(self.learner)
        if self.single_deal:
            return _margin(state.deal_scores[-1].points, side)
        shaped = sum(_margin(score.points, side) for score in state.deal_scores)
        deal_reward: float = self.kwargs["deal_reward"]
        return deal_reward * shaped + (1.0 if state.winner == side else -1.0)

    # --- resets --------------------------------------------------------------------

    @rule(
        seed=st.none() | st.integers(0, 2**40), options=_reset_options(), first=st.integers(0, 99)
    )
    def reset(self, seed: int | None, options: dict[str, Any] | None, first: int) -> None:
        # The first reset is seeded: an unseeded one draws from the OS (not replayable).
        seed = first if seed is None and not self.started else seed
        options = _fitted(options, self.players)
        given = options or {}
        observation, info = self.env.reset(seed=seed, options=options)
        # The model: single_deal persists, a seed restarts the rotation at seat 0, the
        # seat option is for this episode only (the rotation does not move).
        self.single_deal = bool(given.get("single_deal", self.single_deal))
        if seed is not None:
            self.next_seat = 0
        if "seat" in given:
            self.learner = int(given["seat"])
        elif isinstance(self.kwargs["seat"], int):
            self.learner = self.kwargs["seat"]
        else:
            self.learner, self.next_seat = self.next_seat, (self.next_seat + 1) % self.players
        self.started, self.done, self.forfeited, self.total = True, False, False, 0.0
        state = self.env.match_state
        assert self.env.single_deal is self.single_deal
        assert not state.deal_scores  # the learner acts in every deal: none is over yet
        if "dealer" in given:  # a voided deal is dealt again by the same dealer
            assert state.dealer == given["dealer"]
        self._check_observation(observation)
        self._check_info(info)
        assert "deal" not in info and "scores" not in info
        if seed is not None:  # a seeded reset owes nothing to the episodes before it
            from chkobba.gymnasium import ChkobbaEnv

            fresh = ChkobbaEnv(single_deal=self.single_deal, **self.kwargs)
            assert self._digest(fresh.reset(seed=seed, options=options)) == self._digest(
                (observation, info)
            )
        self._record("reset", (seed, options), (observation, info))

    @rule(bad=st.sampled_from(BAD_GYM_RESETS))
    def refused_reset(self, bad: dict[str, Any]) -> None:
        before = self._snapshot(self.env)
        with pytest.raises(ChkobbaError):
            self.env.reset(**bad)
        assert self._snapshot(self.env) == before
        if not self.started:  # still no episode to step
            with pytest.raises(ChkobbaError, match="no episode has started"):
                self.env.step(0)

    # --- steps ---------------------------------------------------------------------

    def _step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        scored = len(self.env.match_state.deal_scores)
        result: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.step(action)
        observation, reward, terminated, truncated, info = result
        state = self.env.match_state
        assert isinstance(reward, float)
        low, high = self.env.reward_range
        assert low <= reward <= high
        assert truncated is False  # a match ends with probability 1: no truncation
        self._check_observation(observation)
        self._check_info(info)
        # info["deal"] exactly at the end of a deal, with that deal's breakdown.
        assert ("deal" in info) == (len(state.deal_scores) > scored)
        if "deal" in info:
            assert info["deal"]["points"].tolist() == list(state.deal_scores[-1].points)
        self.total += reward
        if terminated:
            self.done = True
            assert info["scores"].tolist() == list(state.scores)
            assert info["winner"] == (-1 if state.winner is None else state.winner)
        self._record("step", action, result)
        return result

    @precondition(lambda self: self.started and not self.done)
    @rule(pick=st.integers(0, 100), numpy=st.booleans())
    def step_legal(self, pick: int, numpy: bool) -> None:
        legal = legal_actions(self.env.position)
        action = legal[pick % len(legal)]
        scored = len(self.env.match_state.deal_scores)
        _, reward, terminated, _, _ = self._step(np.int64(action) if numpy else action)
        # The docs' rewards: a single deal pays at its end only; a whole match pays
        # deal_reward x margin at the end of each deal, and +1/-1 at its end.
        state = self.env.match_state
        side = state.side_of(self.learner)
        expected = 0.0
        if len(state.deal_scores) > scored and not self.single_deal:
            expected += self.kwargs["deal_reward"] * _margin(state.deal_scores[-1].points, side)
        if terminated and self.single_deal:
            expected += _margin(state.deal_scores[-1].points, side)
        elif terminated:
            expected += 1.0 if state.winner == side else -1.0
        assert reward == pytest.approx(expected)
        if terminated:
            assert self.total == pytest.approx(self._expected_end_total())
        else:
            assert self.env.match_state.current_player == self.learner

    @precondition(lambda self: self.started and not self.done)
    @rule(seed=st.integers(0, 2**32), count=st.integers(1, 40))
    def play_on(self, seed: int, count: int) -> None:
        """Many legal steps at once, so that runs reach the ends of deals and matches."""
        rng = random.Random(seed)
        for _ in range(count):
            if self.done:
                break
            self.step_legal(rng.randrange(100), rng.random() < 0.5)

    @precondition(lambda self: self.started and not self.done)
    @rule(data=st.data())
    def step_illegal_id(self, data: st.DataObject) -> None:
        mask = self.env.action_masks()
        ruled_out = np.flatnonzero(~mask).tolist()
        action = data.draw(
            st.sampled_from(ruled_out) | st.integers(len(mask), 2**31) | st.integers(-(2**31), -1),
            label="illegal id",
        )
        before = self._snapshot(self.env)
        state = self.env.match_state
        if self.kwargs["illegal_action"] == "raise":
            with pytest.raises(IllegalMoveError):
                self.env.step(action)
            assert self._snapshot(self.env) == before
            return
        # "terminate": the episode ends at the lowest reward, the match untouched.
        _, reward, terminated, _, info = self._step(action)
        assert (terminated, reward, info["illegal_action"]) == (
            True,
            self.env.reward_range[0],
            action,
        )
        assert self.env.match_state == state
        assert not self.env.action_masks().any()
        self.forfeited = True

    @precondition(lambda self: self.started and not self.done)
    @rule(action=st.sampled_from([*NOT_IDS, np.float64(2.0), np.bool_(True)]))
    def step_not_an_id(self, action: object) -> None:
        # Not an integer is the caller's bug in both modes: refused, nothing terminated.
        before = self._snapshot(self.env)
        with pytest.raises(ChkobbaError, match="is not an integer id"):
            self.env.step(action)
        assert self._snapshot(self.env) == before

    @precondition(lambda self: not self.started or self.done)
    @rule(action=st.integers(0, 69))
    def step_without_episode(self, action: int) -> None:
        before = self._snapshot(self.env)
        with pytest.raises(ChkobbaError, match=r"call reset\(\) before step"):
            self.env.step(action)
        assert self._snapshot(self.env) == before

    # --- other calls ---------------------------------------------------------------

    @rule()
    def render(self) -> None:
        before = self._snapshot(self.env)
        assert self.env.render() == render_position(self.env.position)
        assert self._snapshot(self.env) == before

    # A copy may be taken before the first reset too: that reset is always seeded here.
    @rule(how=st.sampled_from(["deepcopy", "pickle"]))
    def take_copy(self, how: str) -> None:
        twin = (
            copy.deepcopy(self.env) if how == "deepcopy" else pickle.loads(pickle.dumps(self.env))
        )
        if self.started:  # its own generator, in the same state
            assert twin.np_random is not self.env.np_random
            assert twin.np_random.bit_generator.state == self.env.np_random.bit_generator.state
        assert self._snapshot(twin) == self._snapshot(self.env)
        self.copies = [*self.copies[-1:], (twin, [])]  # at most two kept

    @precondition(lambda self: bool(self.copies))
    @rule()
    def replay_on_copy(self) -> None:
        """The copy, left alone meanwhile, gives the original's results call by call."""
        twin, calls = self.copies.pop(0)
        for kind, call, digest in calls:
            if kind == "reset":
                seed, options = call
                result = twin.reset(seed=seed, options=options)
            else:
                result = twin.step(call)
            assert self._digest(result) == digest, f"{kind} {call!r} differs on the copy"
        assert self._snapshot(twin) == self._snapshot(self.env)

    # --- invariants ----------------------------------------------------------------

    @invariant()
    def the_match_is_consistent(self) -> None:
        if self.env is None:
            return
        state = check_state(self.env.match_state)
        _partition(state)

    @invariant()
    def the_mask_is_the_engines(self) -> None:
        if self.env is None:
            return
        if not self.started:
            with pytest.raises(ChkobbaError, match="no episode has started"):
                self.env.action_masks()
            return
        mask = self.env.action_masks()
        assert mask.dtype == bool and mask.shape == (self.env.action_space.n,)
        state = self.env.match_state
        bound = DEAL_BOUNDS[(self.kwargs["rules"].name, self.players)]
        widest = 1.0 + abs(self.kwargs["deal_reward"]) * bound
        assert self.env.reward_range == ((-bound, bound) if self.single_deal else (-widest, widest))
        if self.done:
            assert not mask.any()
            assert self.forfeited or state.is_over or (self.single_deal and state.deal_scores)
        else:
            assert np.flatnonzero(mask).tolist() == _engine_ids(self.env.position)
            assert state.current_player == self.learner
            assert state.phase in (Phase.CUT, Phase.PLAY)


TestGymnasiumStateful = GymMachine.TestCase
TestGymnasiumStateful.settings = MACHINE_SETTINGS


# --- PettingZoo --------------------------------------------------------------------------


def _deal_margins(state: State, points: tuple[int, ...]) -> list[float]:
    """Each player's deal reward (docs/adapters.md): its side's points minus the mean of
    the other sides' (the single-deal reward, and the unit of the shaped one)."""
    margins = []
    for player in range(state.players):
        side = state.side_of(player)
        others = [p for s, p in enumerate(points) if s != side]
        margins.append(points[side] - sum(others) / len(others))
    return margins


def _model_returns(state: State, single_deal: bool) -> list[float]:
    """Each player's end-of-episode reward: a deal's margin, or +1 to the winning side and
    -1 / (sides - 1) to each other player (-0.5 with 3 sides)."""
    if single_deal:
        return _deal_margins(state, state.deal_scores[-1].points)
    losing = -1.0 / (state.rules.sides(state.players) - 1)
    return [1.0 if state.winner == state.side_of(p) else losing for p in range(state.players)]


class PettingZooMachine(RuleBasedStateMachine):
    """A ``raw_env`` (the checks the docs give it), its model, and copies of it."""

    def __init__(self) -> None:
        super().__init__()
        self.env: Any = None
        self.kwargs: dict[str, Any] = {}
        self.players = 2
        self.single_deal = False
        self.started = False
        self.totals: list[float] = []  # each agent's rewards this episode
        # Copies, each with the calls made on the original since and its state after each.
        self.copies: list[tuple[Any, list[tuple[Any, Any]]]] = []

    @initialize(
        seating=st.sampled_from(SEATINGS),
        single_deal=st.booleans(),
        deal_reward=st.sampled_from([0.0, 0.5]),
        render_mode=st.sampled_from([None, "ansi"]),
        start=st.none() | st.integers(0, 2**32),
    )
    def build(
        self,
        seating: tuple[Rules, int],
        single_deal: bool,
        deal_reward: float,
        render_mode: str | None,
        start: int | None,
    ) -> None:
        pytest.importorskip("pettingzoo")
        from chkobba.pettingzoo import raw_env

        rules, self.players = seating
        self.kwargs = {
            "players": self.players,
            "rules": rules,
            "deal_reward": deal_reward,
            "render_mode": render_mode,
        }
        self.single_deal = single_deal
        self.env = raw_env(single_deal=single_deal, **self.kwargs)
        if start is not None:  # most runs start at once; the others try calls before it
            self.reset(start, None, 0)

    # --- helpers -------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Every agent terminated (the None steps may still be to take)."""
        return self.started and any(self.env.terminations.values())

    def _snapshot(self, env: Any) -> tuple[Any, ...]:
        if not self.started:
            return (env.position, env.single_deal, env.np_random)
        return (
            env.position,
            env.single_deal,
            env.np_random.bit_generator.state,
            env.agent_selection,
            list(env.agents),
            dict(env.rewards),
            dict(env._cumulative_rewards),
            dict(env.terminations),
            dict(env.truncations),
            _plain(env.infos),
            [_plain(env.observe(agent)) for agent in env.possible_agents],
        )

    def _record(self, call: Any) -> None:
        for _, calls in self.copies:
            calls.append((call, self._snapshot(self.env)))

    # --- resets --------------------------------------------------------------------

    @rule(
        seed=st.none() | st.integers(0, 2**40), options=_reset_options(), first=st.integers(0, 99)
    )
    def reset(self, seed: int | None, options: dict[str, Any] | None, first: int) -> None:
        # The first reset is seeded: an unseeded one draws from the OS (not replayable).
        seed = first if seed is None and not self.started else seed
        options = _fitted(options, self.players)
        given = options or {}
        self.env.reset(seed=seed, options=options)  # "seat" is no option here: ignored
        self.single_deal = bool(given.get("single_deal", self.single_deal))
        self.started = True
        self.totals = [0.0] * self.players
        state = self.env.match_state
        assert self.env.single_deal is self.single_deal
        assert self.env.agents == self.env.possible_agents
        assert not state.deal_scores
        if "dealer" in given:  # a voided deal is dealt again by the same dealer
            assert state.dealer == given["dealer"]
        assert all(reward == 0.0 for reward in self.env.rewards.values())
        if seed is not None:  # a seeded reset owes nothing to the episodes before it
            from chkobba.pettingzoo import raw_env

            fresh = raw_env(single_deal=self.single_deal, **self.kwargs)
            fresh.reset(seed=seed, options=options)
            assert self._snapshot(fresh) == self._snapshot(self.env)
        self._record(("reset", seed, options))

    @rule(bad=st.sampled_from(BAD_RESETS))
    def refused_reset(self, bad: dict[str, Any]) -> None:
        before = self._snapshot(self.env)
        with pytest.raises(ChkobbaError):
            self.env.reset(**bad)
        assert self._snapshot(self.env) == before
        if not self.started:
            with pytest.raises(ChkobbaError, match=r"call reset\(\) first"):
                self.env.last()

    # --- steps ---------------------------------------------------------------------

    @precondition(lambda self: self.started and bool(self.env.agents) and not self.over)
    @rule(pick=st.integers(0, 100), numpy=st.booleans())
    def step_legal(self, pick: int, numpy: bool) -> None:
        env = self.env
        agent = env.agent_selection
        observation, *_ = env.last()
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        action = legal[pick % len(legal)]
        scored = len(env.match_state.deal_scores)
        env.step(np.int64(action) if numpy else action)
        state = env.match_state
        # Rewards are floats, zero-sum at every step; the actor's cumulative reward was
        # handed out by last() and starts again.
        assert all(type(reward) is float for reward in env.rewards.values())
        assert sum(env.rewards.values()) == pytest.approx(0.0, abs=1e-9)
        assert env._cumulative_rewards[agent] == env.rewards[agent]
        for player, name in enumerate(env.possible_agents):
            self.totals[player] += env.rewards[name]
        ended_deal = len(state.deal_scores) > scored
        for name in env.agents:
            info = env.infos[name]
            assert ("deal" in info) == ended_deal
            if ended_deal:
                assert info["deal"]["points"].tolist() == list(state.deal_scores[-1].points)
        if self.over:
            assert all(env.terminations.values())
            assert not any(env.truncations.values())
            assert env.agent_selection == env.possible_agents[0]  # the None steps begin
            self._check_totals()
        elif not ended_deal:  # rewards come only at the end of a deal
            assert all(reward == 0.0 for reward in env.rewards.values())
        self._record(("step", action))

    def _check_totals(self) -> None:
        state = self.env.match_state
        expected = _model_returns(state, self.single_deal)
        if not self.single_deal and self.kwargs["deal_reward"]:
            for score in state.deal_scores:
                margins = _deal_margins(state, score.points)
                expected = [
                    e + self.kwargs["deal_reward"] * m
                    for e, m in zip(expected, margins, strict=True)
                ]
        assert self.totals == pytest.approx(expected)
        for name in self.env.agents:
            info = self.env.infos[name]
            assert info["scores"].tolist() == list(state.scores)
            assert info["winner"] == (-1 if state.winner is None else state.winner)

    @precondition(lambda self: self.started and bool(self.env.agents) and not self.over)
    @rule(seed=st.integers(0, 2**32), count=st.integers(1, 60))
    def play_on(self, seed: int, count: int) -> None:
        rng = random.Random(seed)
        for _ in range(count):
            if self.over:
                break
            self.step_legal(rng.randrange(100), rng.random() < 0.5)

    @precondition(lambda self: self.started and bool(self.env.agents) and not self.over)
    @rule(data=st.data())
    def step_refused(self, data: st.DataObject) -> None:
        observation, *_ = self.env.last()
        mask = observation["action_mask"]
        ruled_out = np.flatnonzero(mask == 0).tolist()
        action = data.draw(
            st.sampled_from(ruled_out)
            | st.integers(len(mask), 2**31)
            | st.integers(-(2**31), -1)
            | st.sampled_from(NOT_IDS),
            label="refused action",
        )
        before = self._snapshot(self.env)
        with pytest.raises(ChkobbaError):
            self.env.step(action)
        assert self._snapshot(self.env) == before

    @precondition(lambda self: self.over and bool(self.env.agents))
    @rule(action=st.integers(0, 69))
    def done_agent_steps_with_an_action(self, action: int) -> None:
        before = self._snapshot(self.env)
        with pytest.raises(ChkobbaError, match="is done: its only valid action is None"):
            self.env.step(action)
        assert self._snapshot(self.env) == before

    @precondition(lambda self: self.over and bool(self.env.agents))
    @rule()
    def done_agent_steps_with_none(self) -> None:
        env = self.env
        agent = env.agent_selection
        observation, _, terminated, truncated, info = env.last()
        assert terminated and not truncated
        assert not observation["action_mask"].any()
        assert "scores" in info
        env.step(None)
        assert agent not in env.agents
        if env.agents:
            assert env.terminations[env.agent_selection]
        self._record(("step", None))

    @precondition(lambda self: self.started and not self.env.agents)
    @rule(action=st.none() | st.integers(0, 69))
    def calls_after_the_episode(self, action: int | None) -> None:
        before = self._snapshot(self.env)
        with pytest.raises(ChkobbaError, match="the episode is over"):
            self.env.step(action)
        with pytest.raises(ChkobbaError, match="the episode is over"):
            self.env.last()
        assert list(self.env.agent_iter()) == []
        for agent in self.env.possible_agents:  # observe still answers, all masked
            assert not self.env.observe(agent)["action_mask"].any()
        assert self._snapshot(self.env) == before

    @precondition(lambda self: not self.started)
    @rule()
    def calls_before_reset(self) -> None:
        env = self.env
        calls: list[Callable[[], object]] = [
            lambda: env.step(0),
            lambda: env.last(),
            lambda: env.observe("player_0"),
            lambda: env.agent_iter(),
        ]
        for call in calls:
            with pytest.raises(ChkobbaError, match=r"call reset\(\) first"):
                call()

    # --- other calls ---------------------------------------------------------------

    @precondition(lambda self: self.started)
    @rule(agent=st.sampled_from(["player_4", "player_-1", 0, None]))
    def observe_a_stranger(self, agent: object) -> None:
        before = self._snapshot(self.env)
        with pytest.raises(ChkobbaError, match="is not an agent of this game"):
            self.env.observe(agent)
        assert self._snapshot(self.env) == before

    @rule()
    def render(self) -> None:
        before = self._snapshot(self.env)
        if self.kwargs["render_mode"] == "ansi":
            assert self.env.render() == render_position(self.env.position)
        else:
            with pytest.warns(UserWarning, match="without a render_mode"):
                assert self.env.render() is None
        assert self._snapshot(self.env) == before

    # A copy may be taken before the first reset too: that reset is always seeded here.
    @rule(how=st.sampled_from(["deepcopy", "pickle"]))
    def take_copy(self, how: str) -> None:
        twin = (
            copy.deepcopy(self.env) if how == "deepcopy" else pickle.loads(pickle.dumps(self.env))
        )
        if self.started:  # its own generator, rewards and infos
            assert twin.np_random is not self.env.np_random
            assert twin.rewards is not self.env.rewards and twin.infos is not self.env.infos
        assert self._snapshot(twin) == self._snapshot(self.env)
        self.copies = [*self.copies[-1:], (twin, [])]

    @precondition(lambda self: bool(self.copies))
    @rule()
    def replay_on_copy(self) -> None:
        twin, calls = self.copies.pop(0)
        for call, snapshot in calls:
            if call[0] == "reset":
                twin.reset(seed=call[1], options=call[2])
            else:
                twin.step(call[1])
            assert self._snapshot(twin) == snapshot, f"{call!r} differs on the copy"

    # --- invariants ----------------------------------------------------------------

    @invariant()
    def the_match_is_consistent(self) -> None:
        if self.env is None:
            return
        _partition(check_state(self.env.match_state))

    @invariant()
    def observations_and_masks_are_the_engines(self) -> None:
        if self.env is None or not self.started:
            return
        env = self.env
        state, pending = env.match_state, env.position.pending
        acting = env.agents and not self.over
        if acting:
            assert env.agent_selection == f"player_{state.current_player}"
        for player, agent in enumerate(env.possible_agents):
            observed = env.observe(agent)
            assert observed["observation"].tolist() == (
                _expected_vector(state, player, pending).tolist()
            )
            assert env.observation_space(agent).contains(observed)
            mask = np.flatnonzero(observed["action_mask"]).tolist()
            # Only the agent to act has a non-zero mask, and it is the engine's.
            if acting and agent == env.agent_selection:
                assert mask == _engine_ids(env.position)
                assert mask
            else:
                assert mask == []
        if env.agents:  # last(): the selected agent's, rewards as floats (the docs)
            observation, reward, terminated, truncated, _ = env.last()
            assert _plain(observation) == _plain(env.observe(env.agent_selection))
            assert type(reward) is float
            assert (terminated, truncated) == (self.over, False)


TestPettingZooStateful = PettingZooMachine.TestCase
TestPettingZooStateful.settings = MACHINE_SETTINGS


# --- OpenSpiel ---------------------------------------------------------------------------


class OpenSpielMachine(RuleBasedStateMachine):
    """A ``python_chkobba`` state, the chance cards dealt so far, and copies of it."""

    def __init__(self) -> None:
        super().__init__()
        self.pyspiel: Any = None
        self.game: Any = None
        self.state: Any = None
        self.params: dict[str, Any] = {}
        self.applied: list[int] = []  # every action taken, chance included
        self.dealt: list[int] = []  # the cards of the shuffle under way
        self.copies: list[tuple[Any, list[int]]] = []

    @initialize(
        seating=st.sampled_from([("tunisian", 2), ("tunisian", 4), ("cardrulesplus", 3)]),
        single_deal=st.booleans(),
    )
    def build(self, seating: tuple[str, int], single_deal: bool) -> None:
        self.pyspiel = pytest.importorskip("pyspiel")
        pytest.importorskip("chkobba.openspiel")  # registers python_chkobba

        rules, players = seating
        # A short match (target 2, at most 3 shuffles), so that runs reach its end.
        self.params = {
            "players": players,
            "rules": rules,
            "single_deal": single_deal,
            "target": 2,
            "max_shuffles": 3,
        }
        self.game = self.pyspiel.load_game("python_chkobba", self.params)
        self.state = self.game.new_initial_state()

    # --- helpers -------------------------------------------------------------------

    def _snapshot(self, state: Any) -> tuple[Any, ...]:
        players = range(self.game.num_players())
        return (
            state.match_state,
            state.position,
            state.current_player(),
            state.history(),
            state.is_terminal(),
            state.returns(),
            state.chance_outcomes(),
            [state.legal_actions(player) for player in players],
            [state.information_state_string(player) for player in players],
            [state.information_state_tensor(player) for player in players],
            str(state),
        )

    def _legal(self) -> list[int]:
        if self.state.is_chance_node():
            return [outcome for outcome, _ in self.state.chance_outcomes()]
        return list(self.state.legal_actions())

    def _apply(self, action: int) -> None:
        at_shuffle = (
            self.state.is_chance_node()
            and self.state.match_state is not None
            and self.state.match_state.phase is Phase.SHUFFLE
        )
        self.state.apply_action(action)
        self.applied.append(action)
        for _, calls in self.copies:
            calls.append(action)
        if at_shuffle:
            self.dealt.append(action)
            if len(self.dealt) == len(DECK):
                self.dealt = []

    # --- actions -------------------------------------------------------------------

    @precondition(lambda self: not self.state.is_terminal())
    @rule(pick=st.integers(0, 100))
    def apply_legal(self, pick: int) -> None:
        legal = self._legal()
        self._apply(legal[pick % len(legal)])

    @precondition(lambda self: not self.state.is_terminal())
    @rule(seed=st.integers(0, 2**32), count=st.integers(1, 120))
    def play_on(self, seed: int, count: int) -> None:
        """Many actions at once (a shuffle alone is 40 chance nodes)."""
        rng = random.Random(seed)
        for _ in range(count):
            if self.state.is_terminal():
                break
            self.apply_legal(rng.randrange(100))

    @precondition(lambda self: not self.state.is_terminal())
    @rule(data=st.data())
    def refused_action(self, data: st.DataObject) -> None:
        legal = self._legal()
        size = max(self.game.num_distinct_actions(), self.game.max_chance_outcomes())
        ruled_out = [action for action in range(size) if action not in legal]
        # -1 is OpenSpiel's kInvalidAction, which its C++ layer refuses first.
        action = data.draw(
            st.sampled_from(ruled_out) | st.integers(size, 2**31 - 1) | st.integers(-(2**31), -2),
            label="refused action",
        )
        before = self._snapshot(self.state)
        with pytest.raises(ChkobbaError):
            self.state.apply_action(action)
        assert self._snapshot(self.state) == before

    @precondition(lambda self: self.state.is_terminal())
    @rule(action=st.integers(0, 69))
    def terminal_takes_no_action(self, action: int) -> None:
        before = self._snapshot(self.state)
        with pytest.raises(IllegalMoveError, match="the game is over"):
            self.state.apply_action(action)
        with pytest.raises(IllegalMoveError, match="the game is over"):
            self.state.child(action)
        assert self._snapshot(self.state) == before

    @precondition(lambda self: not self.state.is_terminal())
    @rule(pick=st.integers(0, 100))
    def child_leaves_the_parent(self, pick: int) -> None:
        legal = self._legal()
        action = legal[pick % len(legal)]
        before = self._snapshot(self.state)
        child = self.state.child(action)
        assert self._snapshot(self.state) == before
        twin = self.state.clone()
        twin.apply_action(action)
        assert self._snapshot(child) == self._snapshot(twin)

    @precondition(lambda self: self.state.match_state is not None)
    @rule(player=st.integers(0, 3), seed=st.integers(0, 2**32), mover=st.booleans())
    def resample(self, player: int, seed: int, mover: bool) -> None:
        # Most resamples come at a chance node or the end; the mover's half the time, so
        # that the check of the mover's legal actions runs (a run once made none).
        current = self.state.current_player()
        player = current if mover and current >= 0 else player % self.game.num_players()
        before = self._snapshot(self.state)
        other = self.state.resample_from_infostate(player, random.Random(seed).random)
        assert self._snapshot(self.state) == before
        # The player cannot tell the two apart; the cards are still all there.
        assert other.information_state_string(player) == self.state.information_state_string(player)
        assert other.observation_tensor(player) == self.state.observation_tensor(player)
        assert other.current_player() == self.state.current_player()
        if self.state.current_player() == player:
            assert other.legal_actions() == self.state.legal_actions()
        _partition(check_state(other.match_state))

    # --- copies --------------------------------------------------------------------

    @rule(how=st.sampled_from(["clone", "deepcopy", "pickle", "serialize"]))
    def take_copy(self, how: str) -> None:
        twin: Any
        if how == "clone":
            twin = self.state.clone()
        elif how == "deepcopy":
            twin = copy.deepcopy(self.state)
        elif how == "pickle":
            twin = pickle.loads(pickle.dumps(self.state))
        else:
            text = self.pyspiel.serialize_game_and_state(self.game, self.state)
            _, twin = self.pyspiel.deserialize_game_and_state(text)
        assert twin is not self.state
        assert self._snapshot(twin) == self._snapshot(self.state)
        self.copies = [*self.copies[-1:], (twin, [])]

    @precondition(lambda self: bool(self.copies))
    @rule()
    def replay_on_copy(self) -> None:
        twin, calls = self.copies.pop(0)
        for action in calls:
            twin.apply_action(action)
        assert self._snapshot(twin) == self._snapshot(self.state)

    # --- invariants ----------------------------------------------------------------

    @invariant()
    def the_state_is_the_engines(self) -> None:
        if self.state is None:
            return
        state = self.state
        assert state.history() == self.applied
        match = state.match_state
        if match is None:  # before the lot: its outcomes are the seats
            assert state.chance_outcomes() == [
                (seat, 1.0 / self.game.num_players()) for seat in range(self.game.num_players())
            ]
            return
        _partition(check_state(match))
        for player in range(self.game.num_players()):
            tensor = state.observation_tensor(player)
            assert tensor == _expected_vector(match, player, state.position.pending).tolist()

    @invariant()
    def actions_and_returns_follow_the_docs(self) -> None:
        if self.state is None:
            return
        state, players = self.state, range(self.game.num_players())
        returns = state.returns()
        assert sum(returns) == pytest.approx(0.0, abs=1e-9)  # zero-sum
        if state.is_terminal():
            assert state.chance_outcomes() == [] and state.legal_actions() == []
            for value in returns:
                assert self.game.min_utility() <= value <= self.game.max_utility()
            return
        assert returns == [0.0] * len(players)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            if state.match_state is not None:  # the cards of the shuffle not dealt yet
                assert [o for o, _ in outcomes] == [
                    i for i in range(len(DECK)) if i not in self.dealt
                ]
            # OpenSpiel answers legal_actions() at a chance node with its outcomes.
            assert state.legal_actions() == [o for o, _ in outcomes]
            return
        actor = state.current_player()
        assert actor == state.match_state.current_player
        assert state.legal_actions() == _engine_ids(state.position)
        assert state.legal_actions()
        assert state.chance_outcomes() == []
        assert all(state.legal_actions(p) == [] for p in players if p != actor)


TestOpenSpielStateful = OpenSpielMachine.TestCase
TestOpenSpielStateful.settings = MACHINE_SETTINGS


def test_the_models_catch_a_broken_adapter() -> None:
    """The machines' checks are not vacuous: an environment whose mask hides a legal id
    fails the mask invariant."""
    pytest.importorskip("gymnasium")
    machine = GymMachine()
    machine.build(SEATINGS[0], "random", "alternate", True, 0.0, False, "raise", None, 1)
    real = machine.env.action_masks

    def hiding() -> Any:
        mask = real()
        mask[np.flatnonzero(mask)[0]] = False
        return mask

    machine.env.action_masks = hiding
    with pytest.raises(AssertionError):
        machine.the_mask_is_the_engines()


class _OwnGenerator:
    """A bot of the caller's, without ``spawn``: it keeps one generator for every episode."""

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def choose(self, view: object, legal: tuple[Any, ...]) -> Any:
        return self.rng.choice(legal)


def _first_legal_episode(env: Any, seed: int) -> list[bytes]:
    """The observations of an episode in which the learner plays its lowest legal id."""
    _, info = env.reset(seed=seed)
    seen = []
    for _ in range(100):
        action = int(np.flatnonzero(info["action_mask"])[0])
        observation, _, terminated, _, info = env.step(action)
        seen.append(observation.tobytes())
        if terminated:
            break
    return seen


@pytest.mark.parametrize(
    "how",
    ["deepcopy", "pickle"],
)
def test_a_copy_replays_the_originals_next_episode_with_its_own_bot(how: str) -> None:
    """docs/gymnasium.md: a copy goes on "with its own copy of the random generator and
    the bots, independently of the original". The state machine's opponents are bot
    specs, re-made at every reset; a bot object of the caller's is played as it is."""
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    env = ChkobbaEnv(_OwnGenerator(), single_deal=True)
    env.reset(seed=1)
    twin = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    # Same seed, same learner actions: the same episode, unless the bot is shared (a
    # deepcopy shared it until stop 55).
    assert twin.opponent(0) is not env.opponent(0)
    assert _first_legal_episode(env, 5) == _first_legal_episode(twin, 5)
