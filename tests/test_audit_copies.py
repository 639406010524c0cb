"""An audit of the copy semantics of the library's stateful public objects.

What was audited. Every public class whose instances change as they are used or carry a
random generator: :class:`~chkobba.Game`; the bots (``RandomBot``, ``GreedyBot``,
``ISMCTSBot``, ``ExpertBot`` as ``make_bot`` builds them, ``PolicyBot``, ``BotActions``)
and the stateful pieces they are built of (``HandInference``, ``OpponentModel``, the
endgame ``Solver`` and its transposition table); the Gymnasium environment, raw and as
``gymnasium.make`` wraps it; the PettingZoo AEC environment, raw and wrapped (the package
has no parallel environment: ``is_parallelizable`` is False); OpenSpiel's game, state
and observer. The arena's, ratings', events' and history's classes are frozen values
(``tests/test_audit_value_types.py`` audits their copies).

How. Each object was taken at several points of a match (fresh, at a cut, mid-deal,
after a void deal, at the end; for the environments after a reset, mid-episode, at a
terminal step and once every agent is done) and copied with ``copy.copy``,
``copy.deepcopy``, ``pickle`` and the framework's own copies (OpenSpiel's ``clone``,
``child``, ``serialize_game_and_state``, ``resample_from_infostate``). The copy and the
original were then given the same inputs and compared on everything they show (legal
moves and actions, observations, rewards, infos, renders, reprs, records, the bots'
choices, the generators' next draws), and each was driven alone to check the other did
not move. What other suites already check is not repeated here: bots' deep copies and
pickles in ``test_stateful_bots.py``, the environments' deep copies and pickles
mid-episode in ``test_stateful_adapters.py``, ``test_gymnasium.py`` and
``test_pettingzoo_research.py``, OpenSpiel's clone, deepcopy, pickle and serialization
in ``test_openspiel.py`` and ``test_stateful_adapters.py``, a ``Game``'s pickle in
``test_stateful_game.py``.

What holds (the passing tests): a ``Game``'s deep copy and pickle at every point; a
``BotActions`` copied between the two ids of a two-step play; a ``PolicyBot`` whose
policy carries its own generator; the inference models and the solver; the Gymnasium
environment made by ``gymnasium.make``, at a terminal step and after a forfeit too; the
PettingZoo environment with shaped rewards in flight, at a terminal step and once every
agent is done; OpenSpiel's ``copy.copy`` of a state at every point (a void deal
included) and every copy of a resampled state; a Gymnasium environment whose opponent
is a lambda deep-copies and refuses to pickle with Python's own error, as
docs/gymnasium.md says.

What was found, and mended (each test below failed before):

* ``copy.deepcopy`` and ``pickle`` of an OpenSpiel observer (``ChkobbaObserver``) break
  its ``dict``: in the original each entry is a view into ``tensor``, which
  ``set_from`` fills; numpy copies each array on its own, so in the copy the entries
  are separate arrays that ``set_from`` never writes: ``copy.dict["hand"]`` stays what
  it was when copied (zeros for a fresh observer) while ``copy.tensor`` holds the new
  observation. The same aliasing-by-identity kind of fault as the one that started this
  audit.
* No stateful class defines ``__copy__``, so ``copy.copy`` is Python's default shallow
  copy, which shares every mutable attribute with the original. Driving the copy then
  moves the original, wholly or, worse, in part:

  - ``Game``: the copy shares the list of states, the moves and the generator:
    ``copy.copy(game).deal()`` deals in the original too;
  - every ``SeededBot`` (random, greedy, ismcts, expert): the copy shares the
    ``random.Random`` (``copy.copy`` of a ``random.Random`` itself gives an
    independent generator), so each choice of the copy changes the original's next
    ones;
  - ``OpponentModel``: the copy's ``observe`` appends to the list of decisions it
    shares, while the original's ``view`` stays: the original's ``weight`` changes;
  - ``Solver``: the copy fills the shared transposition table, so the original's later
    ``solve`` expands fewer positions (its ``nodes`` count, documented, differs);
  - ``ChkobbaEnv``: the copy's own position moves alone, but it shares the
    ``np_random`` generator and the opponent bots: the original's next shuffles and
    opponent moves change, a hybrid of two episodes;
  - PettingZoo's ``raw_env``: the copy's position moves alone, but ``agents``,
    ``rewards``, ``terminations`` and ``infos`` are dicts and lists mutated in place:
    after the copy finishes its episode the original, still mid-deal, has no agents
    left and refuses ``last()``;
  - ``ChkobbaObserver``: the copy shares ``tensor``, so ``set_from`` on either
    overwrites the other's observation.

  (Gymnasium's and PettingZoo's own wrappers share the wrapped environment on
  ``copy.copy`` too; that is theirs, and not tested here.)

The mends: the observer pickles and deep-copies without its ``dict`` and makes the views
again when read back; ``Game.__copy__`` copies the game's lists and generator (sharing
its immutable states); and the other classes (with ``BotActions``, but not
``PolicyBot``, which holds no state of its own and shares its policy) inherit
``chkobba._copying.CopiesApart``, whose ``copy.copy`` is their ``copy.deepcopy``, a copy
that goes on apart from its original, as ``copy.copy`` of a ``random.Random`` is a
generator of its own. A review then found that a subclass whose ``__deepcopy__`` starts
from ``copy.copy(self)`` recursed without end: ``copy.copy`` called from the object's
own deep copy is Python's shallow copy again (the last tests).

Each passing test was seen to fail: sixteen faults planted one at a time in a scratch
copy of the package (a ``Game`` whose deep copy shares its generator or whose pickle
reseeds it; a bot's deep copy sharing its ``random.Random``; a ``PolicyBot`` pickled
without its own policy; ``BotActions`` matching its queue by identity; an
``OpponentModel`` deep copy sharing its decisions; a ``HandInference`` pickle
forgetting its suspicions; a ``Solver`` deep copy sharing its table; the Gymnasium
environment's deep copy sharing ``np_random``, its pickle forgetting the seat rotation
or silently replacing a lambda opponent; PettingZoo's copies dropping the rewards in
flight or counting as started before a reset; ``copy.copy`` of an OpenSpiel state
returning the state itself; pickled event logs losing an event; an observer's deep
copy returning itself) each turned at least one of them red.
"""

from __future__ import annotations

import concurrent.futures
import copy
import pickle
import random
import threading
from collections.abc import Callable
from typing import Any

import pytest

from chkobba import (
    Cut,
    Game,
    IllegalMoveError,
    Phase,
    PlayerView,
    Shuffle,
    apply,
    cards,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.actions import Position, step
from chkobba.bots import ISMCTSBot, PolicyBot, RandomBot, make_bot
from chkobba.bots.endgame import Solver
from chkobba.bots.inference import HandInference, OpponentModel
from chkobba.bots.policy import BotActions
from chkobba.cards import DECK
from chkobba.errors import ChkobbaError
from chkobba.moves import Move

Copier = Callable[[Any], Any]


def _pickled(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value))


#: The deep copies every stateful object promises (docs/records.md, docs/bots.md,
#: docs/gymnasium.md, docs/adapters.md).
DEEP: dict[str, Copier] = {"deepcopy": copy.deepcopy, "pickle": _pickled}

#: A seed whose game's first deal is void when the cutter keeps (found by a scan).
VOID_SEED = 92

BOT_SPECS = [
    "random",
    "greedy",
    "ismcts:iterations=10",
    "ismcts:iterations=10,inference=1",
    "ismcts:iterations=10,inference=2",
    "expert:iterations=10,budget=100",
]


# --- Game ---------------------------------------------------------------------------------


def _game_at(point: str) -> Game:
    """A game at one of the points the audit copies it."""
    if point == "void":
        game = Game(seed=VOID_SEED)
        game.deal()
        game.play(Cut(keep=True))
        assert game.phase is Phase.SHUFFLE and len(game.moves) == 2  # voided, redeal due
        return game
    game = Game(seed=3)
    if point == "fresh":
        return game
    game.deal()
    if point == "cut":
        assert game.phase is Phase.CUT
        return game
    _drive_game(game, random.Random(1), 8 if point == "mid" else 10_000)
    assert game.is_over if point == "end" else game.phase is Phase.PLAY
    return game


def _drive_game(game: Game, rng: random.Random, steps: int) -> list[object]:
    """Deal from the game's own generator, play moves drawn from ``rng``; what it saw."""
    seen: list[object] = []
    for _ in range(steps):
        if game.is_over:
            break
        if game.is_chance:
            game.deal()
        else:
            game.play(rng.choice(game.legal_moves))
        seen.append(_game_snapshot(game))
    return seen


def _game_snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.state,
        game.history,
        game.moves,
        game.legal_moves,
        game.current_player,
        game.scores,
        game.winner,
        repr(game),
        str(game),
        game.render(0),
        game.record(tags={"seed": "3"}).to_json(),
        game._rng.getstate(),
    )


@pytest.mark.parametrize("how", list(DEEP))
@pytest.mark.parametrize("point", ["fresh", "cut", "mid", "void", "end"])
def test_a_copied_game_goes_on_as_the_original_and_apart_from_it(point: str, how: str) -> None:
    original = _game_at(point)
    before = _game_snapshot(original)
    twin = DEEP[how](original)
    assert _game_snapshot(twin) == before
    # The copy driven alone: the original does not move (nor its generator).
    path = _drive_game(twin, random.Random(5), 60)
    assert _game_snapshot(original) == before
    # The original driven alone, from a copy made before: that copy does not move.
    spare = DEEP[how](original)
    assert _drive_game(original, random.Random(5), 60) == path
    assert _game_snapshot(spare) == before
    # Undoing on a copy leaves the original; a copy of a finished game refuses alike.
    after = _game_snapshot(original)
    third = DEEP[how](original)
    third.undo()
    assert _game_snapshot(original) == after and third.moves == original.moves[:-1]
    if original.is_over:
        with pytest.raises(IllegalMoveError, match="nothing to deal"):
            DEEP[how](original).deal()


# --- bots and their parts -----------------------------------------------------------------


def _views(seed: int, count: int) -> list[tuple[PlayerView, tuple[Move, ...]]]:
    """Decisions of a 2-player match played at random (views of the player to move)."""
    rng, state = random.Random(seed), new_match()
    found: list[tuple[PlayerView, tuple[Move, ...]]] = []
    while len(found) < count and not state.is_over:
        if state.is_chance:
            state = apply(state, random_shuffle(rng))
            continue
        legal = legal_moves(state)
        found.append((observe(state, state.current_player), legal))  # type: ignore[arg-type]
        state = apply(state, rng.choice(legal))
    return found


class _NoisyPolicy:
    """A policy that carries its own generator: a random allowed id."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, observation: Any, mask: Any) -> int:
        return self.rng.choice([i for i in range(len(mask)) if mask[i]])


@pytest.mark.parametrize("how", list(DEEP))
def test_a_policy_bots_copy_carries_its_own_copy_of_the_policys_generator(how: str) -> None:
    decisions = _views(2, 12)
    bot = PolicyBot(_NoisyPolicy(4), name="noisy")
    for view, legal in decisions[:3]:
        bot.choose(view, legal)
    twin = DEEP[how](bot)
    assert repr(twin) == repr(bot) == "PolicyBot(_NoisyPolicy, name='noisy')"
    assert twin.fn is not bot.fn and twin.spawn(1) is twin  # spawn: the bot itself
    reference = copy.deepcopy(bot)
    theirs = [twin.choose(view, legal) for view, legal in decisions[3:]]
    assert [bot.choose(view, legal) for view, legal in decisions[3:]] == theirs
    assert [reference.choose(view, legal) for view, legal in decisions[3:]] == theirs


def _two_step_position() -> Position:
    """Player 1 to play on 2D 6S AS AC holding 4C 5C QH, where QH has two captures (the
    BotActions docstring's position: GreedyBot plays QH x 2D+6S, two ids)."""
    top = cards("2D QH 3C 4C 6C 5C 7C 6S AS AC")
    state = apply(new_match(), Shuffle(top + tuple(c for c in DECK if c not in top)))
    return Position(apply(state, Cut(keep=False)))


@pytest.mark.parametrize("how", list(DEEP))
def test_a_bot_actions_copy_between_the_two_ids_of_a_play_gives_the_queued_id(how: str) -> None:
    position = _two_step_position()
    actor = BotActions(make_bot("random", seed=1))  # it plays QH, which takes two ids
    first = actor(position)
    pending = step(position, first)
    assert pending.pending is not None
    # The queued id is found by the position's equality, not its identity: a copy of
    # the actor given a copy of the position (a worker's, a checkpoint's) answers from
    # its queue, drawing nothing (the bot is not asked again).
    twin = DEEP[how](actor)
    drawn = twin.bot.rng.getstate()
    expected = copy.deepcopy(actor)(pending)
    assert twin(DEEP[how](pending)) == expected == actor(pending)
    assert twin.bot.rng.getstate() == drawn
    assert step(pending, expected).pending is None


def _inference_views() -> list[PlayerView]:
    """Player 1's successive views in a 2-player deal where GreedyBot plays both seats."""
    rng = random.Random(3)
    state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=False))
    bot, views = make_bot("greedy", seed=1), list[PlayerView]()
    while len(views) < 6:
        if state.current_player == 1:
            views.append(observe(state, 1))
        state = apply(state, bot.choose(observe(state, state.current_player), legal_moves(state)))  # type: ignore[arg-type]
    return views


def _model_weights(model: HandInference | OpponentModel) -> list[float]:
    hands = [cards(text) for text in ("7D 2S", "5D 5S", "KC QH", "AS 3C")]
    return [model.weight(hand) for hand in hands]


@pytest.mark.parametrize("how", list(DEEP))
@pytest.mark.parametrize("kind", ["hands", "model"])
def test_inference_models_copy_alike_and_apart(kind: str, how: str) -> None:
    views = _inference_views()
    model: HandInference | OpponentModel = (
        HandInference(sweep=0.1, capture=0.3)
        if kind == "hands"
        else OpponentModel(temperature=0.1, noise=0.3)
    )
    # Copied where it suspects something (a copy has it to keep), and for the model
    # mid-round (the copy's next view adds to the round's decisions).
    cut = 3 if kind == "hands" else 2
    for view in views[:cut]:
        model.observe(view)
    before = _model_weights(model)
    assert before != [1.0] * len(before)
    twin = DEEP[how](model)
    assert _model_weights(twin) == before
    for view in views[cut:]:
        twin.observe(view)
    assert _model_weights(model) == before
    for view in views[cut:]:
        model.observe(view)
    assert _model_weights(model) == _model_weights(twin)


def _endgame(seed: int = 8) -> tuple[Any, Any]:
    """A last-round state (from Solver's docstring) and another one a play later."""
    state = apply(apply(new_match(), random_shuffle(random.Random(seed))), Cut(keep=False))
    while state.stock:
        state = apply(state, legal_moves(state)[0])
    return state, apply(state, legal_moves(state)[1])


@pytest.mark.parametrize("how", list(DEEP))
def test_a_solvers_copy_keeps_its_table_and_count_and_fills_its_own(how: str) -> None:
    state, later = _endgame()
    solver = Solver()
    value = solver.solve(state)
    twin = DEEP[how](solver)
    assert (twin.nodes, twin.table) == (solver.nodes, solver.table)
    assert twin.solve(state) == value and twin.nodes == solver.nodes  # from the table
    nodes, size = solver.nodes, len(solver.table)
    twin.solve(apply(later, legal_moves(later)[0]))
    assert (solver.nodes, len(solver.table)) == (nodes, size)


# --- copy.copy: the shallow copies --------------------------------------------------------


def _shallow_game() -> None:
    game = _game_at("void")
    before = _game_snapshot(game)
    copy.copy(game).deal()
    assert _game_snapshot(game) == before


def _shallow_bot(spec: str) -> Callable[[], None]:
    def check() -> None:
        decisions = _views(1, 10)
        bot = make_bot(spec, seed=4)
        for view, legal in decisions[:3]:
            bot.choose(view, legal)
        reference = copy.deepcopy(bot)
        twin = copy.copy(bot)
        assert repr(twin) == repr(bot)
        for view, legal in decisions[3:]:
            twin.choose(view, legal)
        mine = [bot.choose(view, legal) for view, legal in decisions[3:]]
        assert mine == [reference.choose(view, legal) for view, legal in decisions[3:]]

    return check


def _shallow_model() -> None:
    views = _inference_views()
    model = OpponentModel(temperature=0.1, noise=0.3)
    model.observe(views[0])
    model.observe(views[1])
    before = _model_weights(model)
    copy.copy(model).observe(views[2])  # the same round: appended to the shared list
    assert _model_weights(model) == before


def _shallow_solver() -> None:
    state, _ = _endgame()
    other, _ = _endgame(seed=9)  # another deal: nothing of it in the table yet
    solver = Solver()
    solver.solve(state)
    reference = copy.deepcopy(solver)
    copy.copy(solver).solve(other)
    assert solver.solve(other) == reference.solve(other)  # the values are exact either way
    assert solver.nodes == reference.nodes


SHALLOW: dict[str, Callable[[], None]] = {
    "Game": _shallow_game,
    **{spec.partition(":")[0]: _shallow_bot(spec) for spec in BOT_SPECS[::5] + BOT_SPECS[1:3]},
    "OpponentModel": _shallow_model,
    "Solver": _shallow_solver,
}


@pytest.mark.parametrize("name", list(SHALLOW))
def test_a_shallow_copy_goes_on_apart_from_its_original(name: str) -> None:
    SHALLOW[name]()


def test_a_games_shallow_copy_shares_its_immutable_states_not_its_lists() -> None:
    # Game copies its lists itself: the states are values, so the copy costs a list's
    # copy, not a copy of every state (a deep copy of a long match took 10 ms).
    game = Game(seed=3)
    game.deal()
    game.play(game.legal_moves[0])
    twin = copy.copy(game)
    assert twin.state is game.state and twin.moves == game.moves
    twin.play(twin.legal_moves[0])
    assert len(twin.moves) == len(game.moves) + 1


def test_a_shallow_copy_of_a_policy_bot_shares_its_policy() -> None:
    # A PolicyBot holds no state of its own (spawn returns the bot itself): its copy
    # shares the policy, which may hold a model that cannot or should not be copied.
    policy = _NoisyPolicy(4)
    bot = PolicyBot(policy, name="noisy")
    assert copy.copy(bot).fn is policy


def test_a_shallow_copy_of_bot_actions_draws_from_a_generator_of_its_own() -> None:
    position = _two_step_position()
    actor = BotActions(make_bot("random", seed=1))
    before = actor.bot.rng.getstate()  # type: ignore[attr-defined]
    twin = copy.copy(actor)
    twin(position)
    assert twin.bot is not actor.bot
    assert actor.bot.rng.getstate() == before  # type: ignore[attr-defined]


class _Remembering(RandomBot):
    """A user's bot whose __deepcopy__ starts from copy.copy(self), a common way."""

    def __init__(self, *, seed: int | None = None) -> None:
        super().__init__(seed=seed)
        self.seen: list[int] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Remembering:
        clone = copy.copy(self)
        clone.seen = list(self.seen)
        clone.rng = copy.deepcopy(self.rng, memo)
        return clone


class _RememberingSearch(ISMCTSBot):
    """The same, over a class that reads its pickled state with __setstate__."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _RememberingSearch:
        clone = copy.copy(self)
        clone.rng = copy.deepcopy(self.rng, memo)
        return clone


class _Slotted(RandomBot):
    """The same, with an attribute in a slot."""

    __slots__ = ("extra",)
    extra: list[int]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Slotted:
        clone = copy.copy(self)
        clone.rng = copy.deepcopy(self.rng, memo)
        return clone


@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy], ids=["copy", "deepcopy"])
def test_a_subclass_whose_deepcopy_starts_from_copy_copy_still_copies(
    how: Callable[[Any], Any],
) -> None:
    # copy.copy is a deep copy for the bots: called from the bot's own __deepcopy__ it
    # is Python's shallow copy again, as before, not an endless recursion.
    decisions = _views(1, 6)
    bots: list[Any] = [
        _Remembering(seed=2),
        _RememberingSearch(seed=2, iterations=20),
        _Slotted(seed=2),
    ]
    for bot in bots:
        if isinstance(bot, _Remembering):
            bot.seen.append(1)
        if isinstance(bot, _Slotted):
            bot.extra = [3]
        bot.choose(*decisions[0])
        reference = copy.deepcopy(bot)
        twin = how(bot)
        assert type(twin) is type(bot) and repr(twin) == repr(bot)
        assert twin.rng is not bot.rng and twin.rng.getstate() == bot.rng.getstate()
        if isinstance(bot, _Remembering):
            twin.seen.append(2)
            assert bot.seen == [1] and twin.seen == [1, 2]
        if isinstance(bot, _Slotted):
            assert twin.extra == [3]
        theirs = [twin.choose(view, legal) for view, legal in decisions[1:]]
        assert theirs == [reference.choose(view, legal) for view, legal in decisions[1:]]
        assert theirs == [bot.choose(view, legal) for view, legal in decisions[1:]]


class _Listing(list[int]):
    """A list subclass: its items come in the reduction's fourth part."""


class _Mapping(dict[str, int]):
    """A dict subclass: its items come in the reduction's fifth part."""


class _SharingMemo(RandomBot):
    """A __deepcopy__ that copies the clone's attributes through the memo (a second
    review's case: the same method on a plain class keeps what the copy shares)."""

    calls = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> _SharingMemo:
        _SharingMemo.calls += 1
        clone = copy.copy(self)
        memo[id(self)] = clone
        for key, value in vars(clone).items():
            setattr(clone, key, copy.deepcopy(value, memo))
        return clone


@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy], ids=["copy", "deepcopy"])
def test_a_subclasss_deepcopy_runs_once_and_keeps_the_memos_sharing(
    how: Callable[[Any], Any],
) -> None:
    bot = _SharingMemo(seed=1)
    _SharingMemo.calls = 0
    twin = how(bot)
    assert _SharingMemo.calls == 1 and twin.rng is not bot.rng
    _SharingMemo.calls = 0
    pair: list[Any] = copy.deepcopy([bot, bot.rng])
    assert _SharingMemo.calls == 1 and pair[0].rng is pair[1]


def test_bot_actions_copy_its_bot_by_the_bots_own_rule() -> None:
    # A seeded bot's copy has a generator of its own; a PolicyBot's shares its policy
    # (a model that cannot, or should not, be copied).
    policy: Any = _NoisyPolicy(4)
    policy.lock = threading.Lock()  # no deep copy of this
    shared = copy.copy(BotActions(PolicyBot(policy)))
    assert shared.bot.fn is policy  # type: ignore[attr-defined]
    seeded = BotActions(make_bot("random", seed=1))
    assert copy.copy(seeded).bot.rng is not seeded.bot.rng  # type: ignore[attr-defined]


class _SlottedGame(Game):
    __slots__ = ("tag",)
    tag: str


@pytest.mark.parametrize(
    "how", [copy.copy, copy.deepcopy, _pickled], ids=["copy", "deepcopy", "pickle"]
)
def test_a_game_subclass_with_slots_keeps_them_in_its_copies(how: Callable[[Any], Any]) -> None:
    game = _SlottedGame(seed=2)
    game.tag = "club"
    game.deal()
    twin = how(game)
    assert type(twin) is _SlottedGame and twin.tag == "club" and twin.state == game.state
    twin.play(twin.legal_moves[0])
    assert len(game.moves) == 1


@pytest.mark.parametrize(
    "value",
    [min, [1, 2], {"a": 1}, _Listing([1, 2]), _Mapping(a=1)],
    ids=["a global", "a list", "a dict", "a list subclass", "a dict subclass"],
)
def test_the_shallow_copy_of_the_guard_is_pythons(value: Any) -> None:
    from chkobba._copying import shallow_copy

    made = shallow_copy(value)
    expected = copy.copy(value)
    assert type(made) is type(expected) and made == expected
    assert (made is value) == (expected is value)
    if isinstance(value, (list, dict)):
        assert made is not value


def test_a_bot_copied_twice_or_in_a_new_thread_is_copied_apart_each_time() -> None:
    # The guard against a __deepcopy__'s own copy.copy forgets each object once copied,
    # and holds per thread (a new thread starts with none).
    decisions = _views(1, 6)
    bot: Any = make_bot("random", seed=5)
    reference = copy.deepcopy(bot)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        twins = [copy.copy(bot), copy.copy(bot), pool.submit(copy.copy, bot).result()]
    expected = [reference.choose(view, legal) for view, legal in decisions]
    for twin in twins:
        assert twin.rng is not bot.rng
        assert [twin.choose(view, legal) for view, legal in decisions] == expected
    assert [bot.choose(view, legal) for view, legal in decisions] == expected


# --- Gymnasium ----------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """An info or an observation as comparable Python values (arrays as lists)."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in sorted(value.items())}
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    if hasattr(value, "tolist"):
        return (str(getattr(value, "dtype", "")), value.tolist())
    return value


def _gym_run(env: Any, info: dict[str, Any], seed: int, steps: int) -> list[object]:
    """Random legal actions from ``rng``, a plain reset after each episode; what it saw."""
    rng, seen = random.Random(seed), list[object]()
    for _ in range(steps):
        mask = info.get("action_mask")
        if mask is None or not mask.any():  # over (a forfeit's mask is empty too)
            observation, info = env.reset()
            seen.append(("reset", _plain(observation), _plain(info)))
            continue
        action = rng.choice([i for i in range(len(mask)) if mask[i]])
        observation, reward, done, truncated, info = env.step(action)
        seen.append((_plain(observation), reward, done, truncated, _plain(info), env.render()))
        if done:
            info = {**info, "action_mask": info["action_mask"] * 0}
    return seen


def _gym_at(point: str) -> tuple[Any, dict[str, Any]]:
    import gymnasium

    import chkobba.gymnasium  # noqa: F401  (registers the environment)

    env = gymnasium.make(
        "chkobba/Chkobba-v0",
        opponent="ismcts:iterations=5",
        single_deal=True,
        deal_reward=0.0,
        illegal_action="terminate",
        render_mode="ansi",
        disable_env_checker=True,
    )
    _, info = env.reset(seed=4)
    if point == "forfeit":
        illegal = next(i for i in range(len(info["action_mask"])) if not info["action_mask"][i])
        *_, done, _, info = env.step(illegal)
        assert done and "illegal_action" in info
        return env, {**info, "action_mask": info["action_mask"] * 0}
    steps = {"reset": 0, "mid": 3, "done": 10_000}[point]
    for _ in range(steps):
        *_, done, _, info = env.step(int(info["action_mask"].argmax()))
        if done:
            return env, {**info, "action_mask": info["action_mask"] * 0}
    return env, info


def _gym_snapshot(env: Any) -> tuple[object, ...]:
    inner = env.unwrapped
    return (
        inner.position,
        inner.learner,
        inner._done,
        inner._next_seat,
        inner.single_deal,
        _plain(inner.np_random.bit_generator.state),
        env.render(),
    )


@pytest.mark.parametrize("how", list(DEEP))
@pytest.mark.parametrize("point", ["reset", "mid", "done", "forfeit"])
def test_a_made_gymnasium_env_copies_alike_and_apart(point: str, how: str) -> None:
    pytest.importorskip("gymnasium")
    env, info = _gym_at(point)
    before = _gym_snapshot(env)
    twin = DEEP[how](env)
    assert type(twin) is type(env) and twin.unwrapped is not env.unwrapped
    assert _gym_snapshot(twin) == before
    if point in ("done", "forfeit"):
        for each in (env, twin):
            with pytest.raises(ChkobbaError, match="episode is over"):
                each.step(0)
    path = _gym_run(twin, info, seed=7, steps=25)
    assert _gym_snapshot(env) == before
    spare = DEEP[how](env)
    assert _gym_run(env, info, seed=7, steps=25) == path
    assert _gym_snapshot(spare) == before


def _first_id(observation: Any, mask: Any) -> int:
    return int(mask.argmax())


def test_a_lambda_opponent_deep_copies_but_does_not_pickle_as_documented() -> None:
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    def nested(observation: Any, mask: Any) -> int:
        return int(mask.argmax())

    # docs/gymnasium.md: "An environment whose opponent is a lambda or a function defined
    # inside another deep-copies but does not pickle ... give a policy defined at a
    # module's top level".
    for policy in (lambda observation, mask: int(mask.argmax()), nested):
        env = ChkobbaEnv(policy, single_deal=True)
        _, info = env.reset(seed=2)
        twin = copy.deepcopy(env)
        action = int(info["action_mask"].argmax())
        assert _plain(twin.step(action)) == _plain(env.step(action))
        with pytest.raises((pickle.PicklingError, AttributeError), match=r"lambda|nested"):
            pickle.dumps(env)
    top = ChkobbaEnv(_first_id, single_deal=True)
    _, info = top.reset(seed=2)
    action = int(info["action_mask"].argmax())
    assert _plain(_pickled(top).step(action)) == _plain(top.step(action))


def test_a_shallow_copy_of_the_gymnasium_env_goes_on_apart() -> None:
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    env = ChkobbaEnv("random", single_deal=True)
    _, info = env.reset(seed=4)
    before = _gym_snapshot(env)
    _gym_run(copy.copy(env), info, seed=7, steps=25)
    assert _gym_snapshot(env) == before


# --- PettingZoo ---------------------------------------------------------------------------


def _pz_at(point: str, wrapped: bool) -> Any:
    from chkobba.pettingzoo import env as wrapped_env
    from chkobba.pettingzoo import raw_env

    maker = wrapped_env if wrapped else raw_env
    single = point in ("terminated", "over")
    game = maker(players=2, render_mode="ansi", single_deal=single, deal_reward=0.5)
    game.reset(seed=3)
    if point == "reset":
        return game
    for _ in range(10_000):
        _, _, terminated, _, info = game.last()
        if (
            point == "mid"
            and game.unwrapped.position.state.stock
            and len(game.unwrapped.position.state.stock) < 25
        ):
            return game
        if point == "deal" and "deal" in info:
            return game  # a deal just scored: shaped rewards and the breakdown in flight
        if point == "terminated" and terminated:
            return game  # every agent done, none stepped out yet
        game.step(
            None if terminated else int(game.observe(game.agent_selection)["action_mask"].argmax())
        )
        if point == "over" and not game.agents:
            return game
    raise AssertionError(point)


def _pz_snapshot(game: Any) -> tuple[object, ...]:
    inner = game.unwrapped
    observed = (
        [_plain(inner.observe(agent)) for agent in inner.possible_agents] if inner.agents else []
    )
    return (
        inner.position,
        list(inner.agents),
        getattr(inner, "agent_selection", None),
        dict(inner.rewards),
        dict(inner._cumulative_rewards),
        dict(inner.terminations),
        dict(inner.truncations),
        _plain(inner.infos),
        observed,
        game.render(),
        _plain(inner.np_random.bit_generator.state),
    )


def _pz_run(game: Any, seed: int) -> list[object]:
    rng, seen = random.Random(seed), list[object]()
    for _ in range(80):
        if not game.agents:
            with pytest.raises(ChkobbaError, match="every agent is done"):
                game.unwrapped.last()  # (PettingZoo's wrapper reads its dicts itself)
            game.reset()
        observation, reward, terminated, truncated, info = game.last()
        seen.append((_plain(observation), reward, terminated, truncated, _plain(info)))
        if terminated or truncated:
            game.step(None)
        else:
            mask = observation["action_mask"]
            game.step(rng.choice([i for i in range(len(mask)) if mask[i]]))
        seen.append(_pz_snapshot(game))
    return seen


@pytest.mark.parametrize("how", list(DEEP))
@pytest.mark.parametrize("wrapped", [False, True], ids=["raw", "wrapped"])
@pytest.mark.parametrize("point", ["reset", "mid", "deal", "terminated", "over"])
def test_a_pettingzoo_env_copies_alike_and_apart(point: str, wrapped: bool, how: str) -> None:
    pytest.importorskip("pettingzoo")
    game = _pz_at(point, wrapped)
    before = _pz_snapshot(game)
    twin = DEEP[how](game)
    assert type(twin) is type(game) and twin.unwrapped is not game.unwrapped
    assert _pz_snapshot(twin) == before
    path = _pz_run(twin, seed=11)
    assert _pz_snapshot(game) == before
    spare = DEEP[how](game)
    assert _pz_run(game, seed=11) == path
    assert _pz_snapshot(spare) == before


def test_a_pettingzoo_env_copied_before_its_first_reset_refuses_alike() -> None:
    pytest.importorskip("pettingzoo")
    from chkobba.pettingzoo import raw_env

    for how in DEEP.values():
        game = how(raw_env(render_mode="ansi"))
        for name, arguments in (("last", ()), ("step", (0,)), ("observe", ("player_0",))):
            with pytest.raises(ChkobbaError, match="no episode has started"):
                getattr(game, name)(*arguments)
        game.reset(seed=1)
        fresh = raw_env(render_mode="ansi")
        fresh.reset(seed=1)
        assert _pz_snapshot(game) == _pz_snapshot(fresh)


def test_a_shallow_copy_of_the_pettingzoo_env_goes_on_apart() -> None:
    pytest.importorskip("pettingzoo")
    game = _pz_at("mid", wrapped=False)
    game.single_deal = game._episode_single_deal = True
    before = _pz_snapshot(game)
    twin = copy.copy(game)
    while twin.agents:
        _, _, terminated, _, _ = twin.last()
        twin.step(
            None if terminated else int(twin.observe(twin.agent_selection)["action_mask"].argmax())
        )
    assert game.position == before[0]  # its own position stays, but not what goes with it:
    assert game.agents == before[1]
    assert _pz_snapshot(game) == before


# --- OpenSpiel ----------------------------------------------------------------------------


def _void_actions() -> list[int]:
    """The lot (player 0 deals), a shuffle whose kept cut card voids the deal, the keep."""
    game = Game(seed=VOID_SEED)
    game.deal()
    order = game.moves[0].order  # type: ignore[union-attr]
    return [0, *(card.index for card in order), 40]


def _spiel_at(point: str, players: int = 2) -> tuple[Any, Any]:
    pyspiel = pytest.importorskip("pyspiel")
    import chkobba.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_chkobba", {"players": players})
    state = game.new_initial_state()
    if point == "lot":
        return game, state
    if point == "void":
        assert players == 2
        for action in _void_actions():
            state.apply_action(action)
        assert state.is_chance_node() and state.match_state.phase is Phase.SHUFFLE
        return game, state
    length = {"shuffle": 20, "cut": 41, "mid": 60, "end": 10**6}[point]
    _spiel_play(state, random.Random(players), length)
    return game, state


def _spiel_play(state: Any, rng: random.Random, length: int) -> list[int]:
    taken = []
    while not state.is_terminal() and len(state.history()) < length:
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, weights)[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        taken.append(action)
    return taken


def _spiel_snapshot(state: Any, players: int) -> tuple[object, ...]:
    everyone = range(players)
    return (
        state.history(),
        str(state),
        state.current_player(),
        state.is_terminal(),
        state.legal_actions(),
        state.chance_outcomes(),
        state.returns(),
        state.match_state,
        state.position,
        [state.information_state_string(p) for p in everyone],
        [state.information_state_tensor(p) for p in everyone],
        [state.observation_tensor(p) for p in everyone],
    )


@pytest.mark.parametrize("point", ["lot", "shuffle", "cut", "void", "mid", "end"])
def test_a_shallow_copy_of_an_openspiel_state_plays_on_alike_and_apart(point: str) -> None:
    game, state = _spiel_at(point)
    players = game.num_players()
    before = _spiel_snapshot(state, players)
    twin = copy.copy(state)
    assert _spiel_snapshot(twin, players) == before
    if state.is_terminal():
        with pytest.raises(IllegalMoveError, match="game is over"):
            twin.apply_action(0)
        return
    taken = _spiel_play(twin, random.Random(9), 10**6)
    assert _spiel_snapshot(state, players) == before
    reference = state.clone()
    for action in taken:
        reference.apply_action(action)
    assert _spiel_snapshot(reference, players) == _spiel_snapshot(twin, players)


@pytest.mark.parametrize(
    ("point", "players"),
    [("shuffle", 2), ("shuffle", 4), ("cut", 2), ("cut", 4), ("void", 2), ("mid", 2), ("mid", 4)],
)
def test_every_copy_of_a_resampled_state_is_that_state(point: str, players: int) -> None:
    # A resampled state's core position and chance cards differ from its own history
    # (the cards are dealt again): a copy must keep what was resampled, not replay the
    # history.
    pyspiel = pytest.importorskip("pyspiel")
    game, state = _spiel_at(point, players)
    viewer = state.current_player() if state.current_player() >= 0 else 0
    sampled = state.resample_from_infostate(viewer, random.Random(1).random)
    text = pyspiel.serialize_game_and_state(game, sampled)
    copies = {
        "clone": sampled.clone(),
        "copy": copy.copy(sampled),
        "deepcopy": copy.deepcopy(sampled),
        "pickle": _pickled(sampled),
        "serialize": pyspiel.deserialize_game_and_state(text)[1],
    }
    before = _spiel_snapshot(sampled, players)
    for name, twin in copies.items():
        assert _spiel_snapshot(twin, players) == before, name
        taken = _spiel_play(twin, random.Random(4), 200)
        reference = sampled.clone()
        for action in taken:
            reference.apply_action(action)
        assert _spiel_snapshot(reference, players) == _spiel_snapshot(twin, players), name
    # child() of the resampled state: its clone with the action applied.
    action = (sampled.legal_actions() or [sampled.chance_outcomes()[0][0]])[0]
    reference = sampled.clone()
    reference.apply_action(action)
    assert _spiel_snapshot(sampled.child(action), players) == _spiel_snapshot(reference, players)
    assert _spiel_snapshot(sampled, players) == before


def _observer(perfect_recall: bool) -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    import chkobba.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_chkobba")
    kind = pyspiel.IIGObservationType(perfect_recall=perfect_recall)
    return game.make_py_observer(kind)


@pytest.mark.parametrize("how", list(DEEP))
@pytest.mark.parametrize("perfect_recall", [False, True], ids=["observation", "recall"])
def test_a_copied_observer_fills_its_dict_as_the_original(perfect_recall: bool, how: str) -> None:
    _, state = _spiel_at("mid")
    np = pytest.importorskip("numpy")
    observer = _observer(perfect_recall)
    twin = DEEP[how](observer)
    observer.set_from(state, 0)
    twin.set_from(state, 0)
    assert np.array_equal(twin.tensor, observer.tensor)
    for name, piece in observer.dict.items():
        assert np.array_equal(twin.dict[name], piece), name


def test_a_copied_observers_tensor_is_filled_as_the_original() -> None:
    # What holds of the copies above: their tensor (not their dict) is right and their own.
    _, state = _spiel_at("mid")
    np = pytest.importorskip("numpy")
    for perfect_recall in (False, True):
        observer = _observer(perfect_recall)
        for how in DEEP.values():
            twin = how(observer)
            observer.set_from(state, 0)
            twin.set_from(state, 1)
            reference = _observer(perfect_recall)
            reference.set_from(state, 1)
            assert np.array_equal(twin.tensor, reference.tensor)
            assert not np.shares_memory(twin.tensor, observer.tensor)
            assert twin.string_from(state, 1) == observer.string_from(state, 1)


def test_a_shallow_copy_of_an_observer_fills_its_own_tensor() -> None:
    _, state = _spiel_at("mid")
    np = pytest.importorskip("numpy")
    observer = _observer(False)
    observer.set_from(state, 0)
    before = observer.tensor.copy()
    copy.copy(observer).set_from(state, 1)
    assert np.array_equal(observer.tensor, before)
