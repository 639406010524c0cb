"""The bots driven by random sequences of what a bot host does with them.

``test_bots.py`` and its neighbours call a bot on one position at a time. This state
machine plays the part of a host (a game server, the arena, a UI's hint) that keeps
bots for a long time and interleaves everything it may do with them: two tables, each
a match of any profile and player count (2 and 4 players under the Tunisian rules, 2
and 3 under CardRulesPlus), advanced by random moves; bots asked to choose for any seat
of either table (a bot moves between seats and matches), among all legal moves or a
subset; views of earlier decisions, earlier deals and finished matches; views of a seat
that is not to move; ``evaluate`` and ``rank_moves`` (the hint); ``spawn``,
``copy.deepcopy`` and ``pickle`` mid-match; the engine's caches emptied. Each bot is a
*group* of objects that must stay interchangeable: two built from the same spec and
seed, plus every copy made of the first one later. Every call is made on every member
and checked:

- the move chosen is one of the ``legal`` given (equal to one of them);
- every member answers alike: the same seed and the same calls give the same choices
  and values (a copy shares no state with its original, a spawn leaves its parent as it
  was, and emptied caches change nothing);
- the choice depends on the view alone: the members after the first get, instead of
  the host's view, an equal view of a *different* state (the hidden cards - the other
  hands and the stock - dealt anew by ``determinize``) or the view sent through JSON
  (``to_dict`` / ``from_dict``, as a server sends it), and must answer alike;
- a call the bot cannot answer (a seat not to move, moves that seat may not make)
  raises ``ChkobbaError`` (a ``ValueError``) naming the method, never a raw
  ``KeyError``/``IndexError``/``AttributeError``/``TypeError``, and, made on one member
  only, leaves it as it was (its twins' later answers still match).
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
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    ChkobbaError,
    Move,
    Phase,
    PlayerView,
    Rules,
    State,
    apply,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.bots import ISMCTSBot, PolicyBot, determinize, make_bot
from chkobba.bots.analysis import rank_moves
from chkobba.bots.greedy import GreedyBot
from chkobba.captures import clear_caches

#: Short matches, so that a run of steps reaches later deals and the end of a match.
PROFILES: list[tuple[Rules, int]] = [
    (attrs.evolve(TUNISIAN, target=4), 2),
    (attrs.evolve(TUNISIAN, target=3), 4),
    (attrs.evolve(CARD_RULES_PLUS, target=3), 3),
    (attrs.evolve(CARD_RULES_PLUS, target=3), 2),
]

#: Every kind of bot, with tiny budgets: the point is the host's interleavings, not
#: strength. ``seconds=60`` never runs out in 5 iterations, so those stay seeded.
SPECS = [
    "random",
    "greedy",
    "ismcts:iterations=5",
    "ismcts:iterations=5,epsilon=1,horizon=0",
    "ismcts:iterations=5,inference=1",
    "ismcts:iterations=5,inference=2",
    "ismcts:iterations=5,seconds=60",
    "expert:iterations=5,budget=60",
    "expert:iterations=5,budget=60,inference=1",
    "expert:iterations=5,budget=60,inference=2,seconds=60",
    "policy",
]

MAX_GROUPS = 4
MAX_MEMBERS = 4
#: How many past decisions (view, legal) the host keeps to show the bots again.
MAX_PAST = 40
#: How the host makes a play: ``decide(state, legal, rng)`` gives the move.
Decide = Callable[[State, tuple[Move, ...], random.Random], Move]


def _policy(observation: Any, mask: Any) -> int:
    """A deterministic policy that reads the whole observation: any change in what it is
    shown changes its answer."""
    allowed = [i for i in range(len(mask)) if mask[i]]
    return allowed[round(float(sum(observation)) * 1000) % len(allowed)]


def build(spec: str, seed: int) -> Any:
    """A bot of ``spec`` (``"policy"``: a :class:`PolicyBot` of :func:`_policy`)."""
    if spec == "policy":
        return PolicyBot(_policy)
    return make_bot(spec, seed=seed)


@attrs.define
class Group:
    """Bots that must answer every call alike: same spec and seed, or copies."""

    spec: str
    seed: int
    members: list[Any]
    #: The last decision the group chose (the view its inference last took in).
    last: tuple[PlayerView, tuple[Move, ...]] | None = None


def _infers_beyond_two(group: Group, view: PlayerView) -> bool:
    """Whether the group's bots refuse to choose for ``view``: their hand inference reads
    the opponent of a 2-player match (stop 73: it played as if off at 3 and 4 players).
    Their values (``evaluate``) are given at any player count."""
    return bool(getattr(group.members[0], "inference", 0)) and view.players != 2


def _mover(state: State) -> int | None:
    return state.current_player if state.phase in (Phase.CUT, Phase.PLAY) else None


class BotHostMachine(RuleBasedStateMachine):
    """A host with two tables, up to four groups of bots, and the decisions it has
    shown them (to show them again)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[State] = []
        self.groups: list[Group] = []
        self.past: list[tuple[PlayerView, tuple[Move, ...]]] = []

    # -- the host's tables ---------------------------------------------------------

    @initialize(
        profiles=st.lists(st.sampled_from(PROFILES), min_size=2, max_size=2),
        spec=st.sampled_from(SPECS),
        seed=st.integers(0, 2**32),
    )
    def start(self, profiles: list[tuple[Rules, int]], spec: str, seed: int) -> None:
        rng = random.Random(seed)
        self.tables = [
            apply(new_match(players, rules=rules), random_shuffle(rng))
            for rules, players in profiles
        ]
        self.add_group(spec, seed)

    def _remember(self, view: PlayerView, legal: tuple[Move, ...]) -> None:
        self.past.append((view, legal))
        del self.past[:-MAX_PAST]

    @rule(
        table=st.integers(0, 1),
        count=st.integers(1, 12) | st.integers(13, 45),
        seed=st.integers(0, 2**32),
        restart=st.sampled_from([None] * 9 + PROFILES),  # now and then
    )
    def advance(self, table: int, count: int, seed: int, restart: tuple[Rules, int] | None) -> None:
        """Random moves and shuffles, as other players and the dealer make them; or a new
        match on the table (maybe of another profile), with the same bots."""
        if restart is not None:
            rules, players = restart
            self.tables[table] = new_match(players, rules=rules)

        def at_random(state: State, legal: tuple[Move, ...], rng: random.Random) -> Move:
            self._remember(observe(state, state.mover), legal)
            return rng.choice(legal)

        self._play_on(table, count, seed, at_random)

    def _play_on(self, table: int, count: int, seed: int, decide: Decide) -> None:
        """``count`` steps of the match at ``table`` (fewer if it ends): the shuffles drawn
        from ``seed``, each play the one ``decide(state, legal, rng)`` makes."""
        rng = random.Random(seed)
        state = self.tables[table]
        for _ in range(count):
            if state.phase is Phase.OVER:
                break
            if state.is_chance:
                state = apply(state, random_shuffle(rng))
                continue
            state = apply(state, decide(state, legal_moves(state), rng))
        self.tables[table] = state

    # -- bots made, spawned and copied ---------------------------------------------

    @precondition(lambda self: len(self.groups) < MAX_GROUPS)
    @rule(spec=st.sampled_from(SPECS), seed=st.integers(0, 2**32))
    def add_group(self, spec: str, seed: int) -> None:
        self.groups.append(Group(spec, seed, [build(spec, seed), build(spec, seed)]))

    @precondition(lambda self: len(self.groups) < MAX_GROUPS)
    @rule(data=st.data(), seed=st.integers(0, 2**32))
    def spawn(self, data: st.DataObject, seed: int) -> None:
        """``spawn`` mid-match, as a tournament does for each match: a fresh bot like
        one built from the spec, and (checked by the later calls) the parent unchanged."""
        group = data.draw(st.sampled_from(self.groups))
        child = group.members[0].spawn(seed)
        fresh = build(group.spec, seed)
        assert type(child) is type(fresh)
        assert repr(child) == repr(fresh)
        self.groups.append(Group(group.spec, seed, [child, fresh]))

    @rule(data=st.data(), how=st.sampled_from(["deepcopy", "pickle"]))
    def copy_bot(self, data: st.DataObject, how: str) -> None:
        """A copy of a bot mid-match (a checkpoint, a worker process): from now on it
        must answer as the original does, and share nothing with it."""
        group = data.draw(st.sampled_from(self.groups))
        original = group.members[0]
        if how == "deepcopy":
            twin = copy.deepcopy(original)
        else:
            twin = pickle.loads(pickle.dumps(original))
        if len(group.members) >= MAX_MEMBERS:
            group.members[-1] = twin
        else:
            group.members.append(twin)
        if isinstance(original, ISMCTSBot) and group.last is not None:
            # The documented promise: a copy evaluates the last view as the original does
            # (with inference, from the memory the copy carries along).
            view, legal = group.last
            values = [bot.evaluate(view, legal) for bot in group.members]
            assert all(v == values[0] for v in values), group.spec

    # -- decisions --------------------------------------------------------------------

    def _views(
        self, data: st.DataObject, group: Group, state: State, player: int
    ) -> list[PlayerView]:
        """The host's view for the first member, and for each other an equal view: the
        same object, one sent through JSON, or one of a state with the hidden cards
        dealt anew (so a choice that read anything but the view would differ)."""
        view = observe(state, player)
        views = [view]
        for _ in range(1, len(group.members)):
            kind = data.draw(st.sampled_from(["same", "json", "hidden"]))
            if kind == "json":
                other = PlayerView.from_dict(view.to_dict())
            elif kind == "hidden":
                seed = data.draw(st.integers(0, 2**32))
                elsewhere = determinize(view, random.Random(seed))
                other = observe(elsewhere, player)
                assert legal_moves(elsewhere) == legal_moves(state)
            else:
                other = view
            assert other == view
            views.append(other)
        return views

    def _pick_group(self, data: st.DataObject) -> Group:
        return data.draw(st.sampled_from(self.groups))

    def _choices(self, group: Group, views: list[PlayerView], legal: tuple[Move, ...]) -> Move:
        if _infers_beyond_two(group, views[0]):
            for bot, view in zip(group.members, views, strict=True):
                with pytest.raises(ChkobbaError, match="follows the opponent of a 2-player"):
                    bot.choose(view, legal)
            return legal[0]  # (the host plays on without it)
        moves: list[Move] = [
            bot.choose(view, legal) for bot, view in zip(group.members, views, strict=True)
        ]
        first = moves[0]
        assert first in legal, (group.spec, first, legal)
        assert all(move == first for move in moves), (group.spec, moves)
        group.last = (views[0], legal)
        return first

    @precondition(lambda self: any(_mover(t) is not None for t in self.tables))
    @rule(data=st.data(), play=st.booleans(), subset=st.booleans(), cold=st.booleans())
    def choose(self, data: st.DataObject, play: bool, subset: bool, cold: bool) -> None:
        """Ask a bot for the move of whoever is to move at a table, among every legal
        move or some (a host forbidding some); maybe play it. ``cold``: the engine's
        caches emptied first, so the first member fills them and the others read them."""
        if cold:
            clear_caches()
        table = data.draw(
            st.sampled_from([i for i, t in enumerate(self.tables) if _mover(t) is not None])
        )
        state = self.tables[table]
        player = state.mover
        group = self._pick_group(data)
        legal = legal_moves(state)
        if subset and len(legal) > 1:
            legal = tuple(data.draw(st.lists(st.sampled_from(legal), min_size=1, unique=True)))
        views = self._views(data, group, state, player)
        move = self._choices(group, views, legal)
        self._remember(views[0], legal)
        if play:
            self.tables[table] = apply(state, move)

    @precondition(lambda self: any(_mover(t) is not None for t in self.tables))
    @rule(data=st.data(), count=st.integers(2, 30), seed=st.integers(0, 2**32))
    def sit(self, data: st.DataObject, count: int, seed: int) -> None:
        """A bot takes the seat of the player to move and plays it for a while, as a
        game server's bot does (the other seats and the shuffles play at random): the
        inference bots then follow their opponent from one view to the next."""
        table = data.draw(
            st.sampled_from([i for i, t in enumerate(self.tables) if _mover(t) is not None])
        )
        seat = self.tables[table].mover
        group = self._pick_group(data)

        def seated(state: State, legal: tuple[Move, ...], rng: random.Random) -> Move:
            if state.mover != seat:
                return rng.choice(legal)
            views = self._views(data, group, state, seat)
            move = self._choices(group, views, legal)
            self._remember(views[0], legal)
            return move

        self._play_on(table, count, seed, seated)

    @precondition(lambda self: bool(self.past))
    @rule(data=st.data())
    def choose_again(self, data: st.DataObject) -> None:
        """A decision shown before (repeated, out of order, of an earlier deal or of the
        other table): a bot that follows the match must not be thrown by it."""
        view, legal = data.draw(st.sampled_from(self.past))
        group = self._pick_group(data)
        self._choices(group, [view] * len(group.members), legal)

    @precondition(lambda self: bool(self.past))
    @rule(data=st.data())
    def choose_with_other_moves(self, data: st.DataObject) -> None:
        """The view of the player to move with the moves of another decision: legal if
        every move is that player's now, else refused (by the first member only: a
        refusal must leave the bot as it was, which its twins' later answers check)."""
        candidates = [t for t in self.tables if _mover(t) is not None]
        if not candidates:
            return
        state = data.draw(st.sampled_from(candidates))
        view = observe(state, state.mover)
        _, legal = data.draw(st.sampled_from(self.past))
        group = self._pick_group(data)
        if set(legal) <= set(legal_moves(state)):
            self._choices(group, [view] * len(group.members), legal)
            return
        bot = group.members[0]
        try:
            bot.choose(view, legal)
        except ChkobbaError as error:
            assert isinstance(error, ValueError)
            assert "choose" in str(error) and "not legal" in str(error), str(error)
        else:
            raise AssertionError(f"{group.spec} chose among moves its view does not allow")

    @rule(data=st.data(), table=st.integers(0, 1))
    def choose_for_a_seat_not_to_move(self, data: st.DataObject, table: int) -> None:
        """A view of a seat that has no decision (another's turn, a shuffle, a match
        over): refused with a ``ChkobbaError``, by the first member only."""
        state = self.tables[table]
        mover = _mover(state)
        seats = [p for p in range(state.players) if p != mover]
        player = data.draw(st.sampled_from(seats))
        if mover is not None:
            legal = legal_moves(state)
        elif self.past:  # a shuffle or a match over: moves of another decision
            legal = data.draw(st.sampled_from(self.past))[1]
        else:
            return
        group = self._pick_group(data)
        try:
            group.members[0].choose(observe(state, player), legal)
        except ChkobbaError as error:
            assert isinstance(error, ValueError)
            assert "choose" in str(error) and f"player {player}" in str(error), str(error)
        else:
            raise AssertionError(f"{group.spec} chose for player {player}, who is not to move")

    @precondition(lambda self: any(_mover(t) is not None for t in self.tables))
    @rule(data=st.data(), ranked=st.booleans())
    def evaluate(self, data: st.DataObject, ranked: bool) -> None:
        """Values of the moves, as ``chkobba analyse`` and the hint ask for them: every
        legal move valued, alike for every member, and ``rank_moves`` best first."""
        state = data.draw(st.sampled_from([t for t in self.tables if _mover(t) is not None]))
        player = state.mover
        group = self._pick_group(data)
        legal = legal_moves(state)
        views = self._views(data, group, state, player)
        bots = group.members
        if isinstance(bots[0], GreedyBot):  # one move's heuristic score, no draws
            scores = [
                [bot.evaluate(view, move) for move in legal]
                for bot, view in zip(bots, views, strict=True)
            ]
            assert all(s == scores[0] for s in scores)
            return
        if not isinstance(bots[0], ISMCTSBot):
            return
        if ranked:
            rankings = [rank_moves(view, legal, bot) for bot, view in zip(bots, views, strict=True)]
            first = rankings[0]
            assert len(first) == len(legal) and {item.move for item in first} == set(legal)
            assert [item.value for item in first] == sorted((i.value for i in first), reverse=True)
            assert all(r == first for r in rankings), group.spec
            return
        values = [bot.evaluate(view, legal) for bot, view in zip(bots, views, strict=True)]
        assert list(values[0]) == list(legal)
        assert all(v == values[0] for v in values), group.spec


TestBotHost = BotHostMachine.TestCase
# Scaled by the profile in force (conftest.py: ci 100, deep 1,500).
TestBotHost.settings = settings(max_examples=settings().max_examples, stateful_step_count=80)
