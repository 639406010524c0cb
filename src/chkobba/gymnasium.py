"""A single-agent Gymnasium environment: the learner plays one seat against a bot.

The optional extra ``chkobba[gymnasium]`` (``gymnasium`` and ``numpy``). The learner
acts with the action ids of :mod:`chkobba.actions`; the other seats are played by the
``opponent`` (a bot, a bot spec such as ``"greedy"`` or ``"ismcts:iterations=50"``, or a
policy ``fn(observation, mask) -> id``) between the learner's steps, and the shuffles
are drawn from ``np_random``. ``docs/gymnasium.md`` describes it in full.

>>> import gymnasium
>>> import chkobba.gymnasium
>>> env = gymnasium.make("chkobba/Chkobba-v0", opponent="random", single_deal=True)
>>> observation, info = env.reset(seed=3)
>>> observation.shape, int(env.action_space.n), sorted(info)[:2]
((313,), 70, ['action_mask', 'seat'])
>>> done = False
>>> while not done:
...     action = env.action_space.sample(info["action_mask"])
...     observation, reward, done, truncated, info = env.step(action)
>>> points = info["deal"]["points"]  # one entry per side
>>> bool(reward == points[info["side"]] - points[1 - info["side"]])
True

Importing this module registers the environment with Gymnasium as ``chkobba/Chkobba-v0``
(entry point ``chkobba.gymnasium:ChkobbaEnv``).
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal

import attrs

from chkobba._copying import CopiesApart
from chkobba._describe import (
    add_note,
    bot_label,
    missing_extra,
    plain_flag,
    plain_integer,
    reset_options,
    reset_seed,
    wrong_type,
)

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from numpy.typing import NDArray
except ImportError as error:  # say which extra brings the missing package
    raise missing_extra(error, "chkobba.gymnasium", "gymnasium") from error

from chkobba.actions import Position, advance, legal_actions, num_actions, render_position
from chkobba.bots.base import Bot, among, is_bot, not_a_bot, refused_choice, spawned
from chkobba.bots.ismcts import inference_refusal
from chkobba.bots.policy import PolicyBot
from chkobba.bots.registry import BotSpec
from chkobba.cards import DECK
from chkobba.checks import broken_state
from chkobba.engine import apply, legal_moves
from chkobba.errors import ChkobbaError, IllegalMoveError, shown
from chkobba.features import feature_bounds, feature_vector
from chkobba.moves import Move, Shuffle
from chkobba.observations import SCORE_CAP as SCORE_CAP
from chkobba.observations import (
    cap_scores,
    deal_reward_option,
    observation_bounds,
    observation_vector,
)
from chkobba.rules import TUNISIAN, Rules, profile
from chkobba.scoring import DealScore
from chkobba.state import Phase, State, new_match
from chkobba.views import observe

__all__ = ["ENV_ID", "SCORE_CAP", "ChkobbaEnv", "Opponent", "deal_info", "end_info"]

#: The id under which the environment is registered with Gymnasium.
ENV_ID = "chkobba/Chkobba-v0"
#: An opponent: a bot, a bot spec (text or :class:`~chkobba.bots.BotSpec`), or a policy.
Opponent = Bot | str | BotSpec | Callable[[Any, Any], Any]
_SEATS = ("alternate",)
_NOBODY = -1
_ILLEGAL = ("raise", "terminate")
_RESET_OPTIONS = ("single_deal", "seat", "dealer")


class _RenderModeError(ChkobbaError, TypeError):
    """A render mode the environment does not have: a ChkobbaError, and a TypeError too.

    Stable-Baselines3's ``make_vec_env(env_id)`` asks every environment for
    ``render_mode="rgb_array"`` and makes it again without one only on a TypeError (as
    numpy's ``AxisError`` is both a ValueError and an IndexError, for the same reason).
    """


class ChkobbaEnv(gymnasium.Env[NDArray[Any], np.int64], CopiesApart):
    """The learner at one seat, ``opponent`` at every other (partner included at 4).

    - ``players``: 2, 3 each for himself (as the profile allows), or 4 in partnerships;
      ``rules``: a :class:`~chkobba.Rules` profile, a named one or a house one, or the
      name of one in :data:`~chkobba.PROFILES` (``"cardrulesplus"``).
    - ``seat``: a seat number, or ``"alternate"`` (seat 0, 1, … in turn; a seeded reset
      starts again at seat 0).
    - ``single_deal``: an episode is one deal (reward: the learner's side's points minus
      the other side's, with 3 players the best other side's) instead of a whole match
      (reward ``+1``/``-1`` at the end). It persists across ``reset()``; the
      ``single_deal`` reset option changes it for this and later episodes.
    - ``deal_reward``: in whole-match episodes, also ``deal_reward * (our points - theirs)``
      at the end of every deal, "theirs" the best other side's (default 0: none).
    - ``features``: append :mod:`chkobba.features` (table sum, what each action takes).
    - ``illegal_action``: ``"terminate"``, the default (the episode ends with the lowest
      reward of :attr:`reward_range`, so forfeiting never beats a legal episode, and
      ``info["illegal_action"]``: what Gymnasium's ``check_env``, which steps unmasked
      actions, and a learner without masks need), or ``"raise"`` (an
      :class:`~chkobba.IllegalMoveError`, the episode unchanged: to catch a bug in a
      masked agent). An action that is not an integer (``None``, ``2.0``, ``True``)
      raises :class:`~chkobba.ChkobbaError` in both modes.
    - ``render_mode``: ``"ansi"`` (:meth:`render` returns the text board of every hand)
      or ``"human"`` (printed after the reset and after each step); with ``None``, the
      default, :meth:`render` still returns the board. Another mode raises a
      :class:`~chkobba.ChkobbaError` that is also a ``TypeError``.

    For example, the learner at seat 1 of a partnership match; action 0 plays the A♠,
    which it does not hold:

    >>> from chkobba.gymnasium import ChkobbaEnv
    >>> env = ChkobbaEnv("greedy", players=4, seat=1, illegal_action="raise")
    >>> observation, info = env.reset(seed=0)
    >>> info["seat"], info["side"], env.match_state.current_player, env.reward_range
    (1, 1, 1, (-1.0, 1.0))
    >>> env.step(0)
    Traceback (most recent call last):
    ...
    chkobba.errors.IllegalMoveError: AS is not in player 1's hand
    >>> forfeit = ChkobbaEnv("random", single_deal=True)
    >>> observation, info = forfeit.reset(seed=1)
    >>> observation, reward, done, truncated, info = forfeit.step(0)
    >>> reward, done, info["illegal_action"], forfeit.reward_range
    (-22.0, True, 0, (-22.0, 22.0))
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012
    # Declared as what they are, so a type checker sees ``action_space.n`` and the box's
    # ``low``, ``high`` and ``shape`` (Gymnasium declares a plain ``Space``).
    observation_space: spaces.Box
    action_space: spaces.Discrete

    def __init__(
        self,
        opponent: Opponent = "greedy",
        *,
        players: int = 2,
        seat: int | Literal["alternate"] = "alternate",
        rules: Rules | str = TUNISIAN,
        single_deal: bool = False,
        deal_reward: float = 0.0,
        features: bool = False,
        illegal_action: Literal["raise", "terminate"] = "terminate",
        render_mode: str | None = None,
    ) -> None:
        players = plain_integer(players)  # type: ignore[assignment]  # numpy's integers too
        if isinstance(rules, str):  # a profile's name, as the other adapters take it
            rules = profile(rules)
        new_match(players, rules=rules)  # checks players and rules with the core's messages
        seat = plain_integer(seat)  # type: ignore[assignment]  # numpy's integers too
        if not (isinstance(seat, str) and seat in _SEATS) and (
            type(seat) is not int or not 0 <= seat < players
        ):
            raise ChkobbaError(f"seat must be 'alternate' or 0 to {players - 1}, not {shown(seat)}")
        if not isinstance(illegal_action, str) or illegal_action not in _ILLEGAL:
            raise ChkobbaError(
                f"illegal_action must be 'raise' or 'terminate', not {shown(illegal_action)}"
            )
        if render_mode is not None and (
            not isinstance(render_mode, str) or render_mode not in self.metadata["render_modes"]
        ):
            raise _RenderModeError(
                f"render_mode must be None, 'ansi' or 'human', not {shown(render_mode)}"
            )
        features = plain_flag("features", features)
        self.opponent = _opponent_maker(opponent, features)
        # A spec's bot built to be asked (a bot of one's own is asked as it is: its spawn
        # is the reset's to call).
        asked = self.opponent(0) if isinstance(opponent, (str, BotSpec)) else opponent
        refusal = inference_refusal(asked, players)
        if refusal is not None:
            raise ChkobbaError(f"opponent {shown(opponent)}: {refusal}")
        self.players, self.seat, self.rules = players, seat, rules
        self.single_deal = plain_flag("single_deal", single_deal)
        self.deal_reward = deal_reward_option(deal_reward)
        self.features = features
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        low, high = _bounds(self.features, rules)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(num_actions(rules))
        self.position = Position(new_match(players, rules=rules))
        self.learner = 0
        self._bots: list[Bot] = []
        #: The generator's state before the current call's first draw (see _undone_on_error).
        self._drawn: Mapping[str, Any] | None = None
        self._deals = 0  # deals scored so far this episode
        self._next_seat = 0
        self._done = True
        self._started = False  # no reset yet: a step is refused as such

    # --- Gymnasium API -------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Start an episode; options ``single_deal`` (persists), ``seat``, ``dealer``.

        Every argument is checked before anything changes: a refused reset leaves the
        episode under way, the generator and the seat rotation as they were. So does a
        reset whose opponent fails while it moves first (it is undone). An option of
        another name is refused: a misspelt ``single_deal`` would otherwise play a match.
        """
        seed = reset_seed(seed)
        given = reset_options(options, known=_RESET_OPTIONS)
        single_deal = plain_flag(
            "the single_deal option", given.get("single_deal", self.single_deal)
        )
        seat = self._seat_option(given.get("seat"))
        dealer: Any = plain_integer(given.get("dealer"))
        match = None if dealer is None else self._new_match(dealer)
        # Everything is checked: from here on the reset commits, unless the opponent fails.
        with self._undone_on_error():
            if self._np_random is not None:  # a reset draws from it at once
                self._drawn = self._np_random.bit_generator.state
            super().reset(seed=seed)
            self.single_deal = single_deal
            if seed is not None:
                self._next_seat = 0
            self.learner = self._next_learner() if seat is None else seat
            if match is None:
                match = self._new_match(int(self.np_random.integers(self.players)))
            self.position = Position(match)
            seeds = self.np_random.integers(2**62, size=self.players)
            self._bots = [self.opponent(int(seed)) for seed in seeds]
            self._done, self._deals = False, 0
            info: dict[str, Any] = {}
            self._play_others(info)
            self._started = True
        if self.render_mode == "human":  # Gymnasium's convention: reset shows it too
            self.render()
        return self._observation(), self._info(info)

    def __setstate__(self, state: dict[str, Any]) -> None:
        # An environment pickled before it kept ``_started`` had one under way or over.
        self.__dict__.update({"_started": True, **state})

    def step(self, action: Any) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play the learner's action id, then the others until the learner acts again.

        If the opponent fails on the way (an illegal move, an error of its own), the whole
        step is undone, the learner's action included, and the error goes on.
        """
        if not self._started:
            raise ChkobbaError("no episode has started: call reset() before step()")
        if self._done:
            raise ChkobbaError("the episode is over: call reset() before step()")
        # Not an integer at all is the caller's bug, whatever illegal_action says.
        number = plain_integer(action)
        if type(number) is not int:
            raise ChkobbaError(
                f"step: action {shown(action)} is not an integer id "
                f"(0 to {num_actions(self.rules) - 1})"
            )
        info: dict[str, Any] = {}
        try:
            position = advance(self.position, number)[0]
        except IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            self._done = True
            info["illegal_action"] = number
            info.update(end_info(self.position.state))  # an episode's end says the scores
            return self._observation(), self.reward_range[0], True, False, self._info(info)
        with self._undone_on_error():
            self.position = position
            reward = self._play_others(info)
        if self.render_mode == "human":
            self.render()  # prints the board itself (and returns None)
        return self._observation(), reward, self._done, False, self._info(info)

    @property
    def reward_range(self) -> tuple[float, float]:
        """The lowest and highest reward one step can give, in the current mode.

        A single deal: ``-bound`` to ``bound``, ``bound`` being the most points a side
        can score in a deal (every category and a chkobba with every card it plays: 22
        under the Tunisian profile with 2 sides). A whole match: ``-1`` to ``1``, widened
        by ``abs(deal_reward) * bound`` for the shaped reward of the deal that ends it. An
        illegal action under ``illegal_action="terminate"`` gets the lowest.
        """
        bound = float(_deal_points_bound(self.rules, self.position.state.sides))
        if self.single_deal:
            return -bound, bound
        widest = 1.0 + abs(self.deal_reward) * bound
        return -widest, widest

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions as booleans (sb3-contrib's ``MaskablePPO`` calls this); all
        ``False`` once the episode is over. Before the first reset there are none to give:
        an all-``False`` mask would only fail later, in the learner's sampling.

        >>> import numpy as np
        >>> from chkobba.gymnasium import ChkobbaEnv
        >>> env = ChkobbaEnv("random")
        >>> _ = env.reset(seed=7)
        >>> np.flatnonzero(env.action_masks()).tolist()   # the cut: keep or expose
        [40, 41]
        """
        if not self._started:
            raise ChkobbaError("no episode has started: call reset() before action_masks()")
        mask = np.zeros(num_actions(self.rules), dtype=bool)
        if not self._done:
            for action in legal_actions(self.position):  # a few ids: cheaper than fancy indexing
                mask[action] = True
        return mask

    def render(self) -> str | None:
        """The referee's text board (every hand); ``ansi`` returns it, ``human`` prints it."""
        text = render_position(self.position)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    @property
    def match_state(self) -> State:
        """The core :class:`~chkobba.State` (everything, hidden cards included)."""
        return self.position.state

    def __deepcopy__(self, memo: dict[int, Any]) -> ChkobbaEnv:
        # Positions are immutable and shared; the generator and the bots are copied, so
        # the copy continues this episode, and the next ones, independently (for search
        # over env copies). The opponent's maker is copied too: a bot without spawn plays
        # every episode, and the memo makes the copy's maker and seats share its copy.
        clone = object.__new__(type(self))  # (copy.copy would come back here)
        clone.__dict__.update(self.__dict__)
        memo[id(self)] = clone  # what refers back to this env (a bot holding it) gets the clone
        clone.__dict__.update(
            {
                key: copy.deepcopy(value, memo)
                for key, value in self.__dict__.items()
                if key != "position"
            }
        )
        return clone

    # --- internals -------------------------------------------------------------------

    def _seat_option(self, requested: Any) -> int | None:
        """The ``seat`` reset option, checked (``None``: the constructor's ``seat``)."""
        requested = plain_integer(requested)
        if requested is not None and (
            type(requested) is not int or not 0 <= requested < self.players
        ):
            raise ChkobbaError(
                f"the seat option must be 0 to {self.players - 1}, not {shown(requested)}"
            )
        return requested

    def _next_learner(self) -> int:
        if isinstance(self.seat, int):
            return self.seat
        seat, self._next_seat = self._next_seat, (self._next_seat + 1) % self.players
        return seat

    def _new_match(self, dealer: Any) -> State:
        return new_match(self.players, dealer=dealer, rules=self.rules)

    def _play_others(self, info: dict[str, Any]) -> float:
        """Shuffle and let the opponents move until the learner acts or the episode ends."""
        reward = 0.0
        while True:
            state = self.position.state
            if len(state.deal_scores) > self._deals:  # the last move ended a deal
                self._deals = len(state.deal_scores)
                reward += self._deal_ended(info)
            if self._episode_over(state):
                return reward + self._finish(info)
            if state.phase is Phase.SHUFFLE:
                if self._drawn is None:  # the generator's state before this call's first draw
                    self._drawn = self.np_random.bit_generator.state
                order = [DECK[i] for i in self.np_random.permutation(len(DECK))]
                self.position = Position(apply(state, Shuffle(order)))
            elif state.current_player == self.learner:
                return reward
            else:
                player: int = state.current_player  # type: ignore[assignment]
                self.position = Position(apply(state, self._opponent_move(state, player)))

    def _opponent_move(self, state: State, player: int) -> Move:
        """The opponent's move at ``player``'s seat, checked.

        Its failure must not pass for the learner's: a move not among the legal ones, or a
        ChkobbaError it raises (a policy's masked id is an IllegalMoveError), becomes a
        plain ChkobbaError naming the opponent, as :mod:`chkobba.arena` names a bot.
        """
        bot, legal = self._bots[player], legal_moves(state)
        who = f"the opponent {bot_label(bot)} at seat {player}"
        try:
            move = bot.choose(observe(state, player), legal)
        except ChkobbaError as error:
            raise ChkobbaError(f"{who} failed: {error}") from error
        except Exception as error:  # the bot's own bug: its type unchanged, a note added
            add_note(error, f"raised by {who}; the environment was left as before the call")
            raise
        if not among(move, legal):
            raise ChkobbaError(refused_choice(who, state, move))
        return move

    @contextlib.contextmanager
    def _undone_on_error(self) -> Iterator[None]:
        """Put every attribute and the generator's state back if the block raises.

        The opponent moves inside ``step()`` and ``reset()``; if it fails, the episode
        must not go on at its seat (showing its hand in the mask, the learner's next step
        playing it), so the call is undone. The bots' own state is theirs, not undone.
        """
        # The generator's state is read only before a draw (see _play_others): a step
        # rarely shuffles, and reading the state costs more than the rest of the undo.
        self._drawn = None
        generator = self._np_random
        saved = dict(self.__dict__)
        try:
            yield
        except BaseException:
            drawn = self._drawn
            self.__dict__.clear()
            self.__dict__.update(saved)
            if generator is not None and drawn is not None:
                generator.bit_generator.state = drawn
            raise

    def _deal_ended(self, info: dict[str, Any]) -> float:
        score = self.position.state.deal_scores[-1]
        info["deal"] = deal_info(score)
        if self.single_deal:
            return 0.0  # the episode's reward comes in _finish
        return self.deal_reward * self._margin(score.points)

    def _margin(self, points: tuple[int, ...]) -> float:
        side = self.position.state.side_of(self.learner)
        return float(points[side] - max(p for s, p in enumerate(points) if s != side))

    def _episode_over(self, state: State) -> bool:
        return state.is_over or (self.single_deal and bool(state.deal_scores))

    def _finish(self, info: dict[str, Any]) -> float:
        self._done = True
        state = self.position.state
        side = state.side_of(self.learner)
        info.update(end_info(state))
        if self.single_deal:
            return self._margin(state.deal_scores[-1].points)
        return 1.0 if state.winner == side else -1.0

    def _observation(self) -> NDArray[np.float32]:
        state, pending = self.position.state, self.position.pending
        view = observe(state, self.learner)
        # The scores capped as PolicyBot caps them (its observation is this one).
        vector = cap_scores(observation_vector(view, pending))
        if self.features:
            legal = () if self._done or state.current_player != self.learner else legal_moves(state)
            vector += feature_vector(view, pending, legal)
        # fromiter: a third cheaper than asarray for a list of floats.
        observation: NDArray[np.float32] = np.fromiter(vector, np.float32, len(vector))
        return observation

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        info["action_mask"] = self.action_masks().astype(np.int8)
        info["seat"] = self.learner
        info["side"] = self.position.state.side_of(self.learner)
        return info


def deal_info(score: DealScore) -> dict[str, Any]:
    """``info["deal"]``: the deal's score breakdown, every field of the
    :class:`~chkobba.DealScore`, numeric so that vector environments stack it: ``-1`` for
    a category nobody won (a stacked array cannot hold ``None``), and each per-side tuple
    (``points``, ``card_counts``, …) as an ``int64`` array, one entry per side.

    Here the cards split 20-20 (nobody wins them) and side 1 holds every 7 and 6:

    >>> from chkobba.gymnasium import deal_info
    >>> info = deal_info(score_deal([DECK[:20], DECK[20:]], [1, 0]))
    >>> info["cards_winner"], info["bermila_winner"], info["points"].tolist()
    (-1, 1, [1, 2])
    >>> info["card_counts"].dtype.name
    'int64'
    """
    if not isinstance(score, DealScore):
        raise ChkobbaError(wrong_type("deal_info", "a DealScore", score))
    fields = attrs.asdict(score, recurse=False)
    return {name: _numeric("deal_info", value) for name, value in fields.items()}


def end_info(state: State) -> dict[str, Any]:
    """What ``info`` adds at the end of an episode: ``scores`` (an ``int64`` array, one
    entry per side) and ``winner`` (the winning side, ``-1`` while nobody has won).

    >>> import random
    >>> from chkobba.gymnasium import end_info
    >>> info = end_info(new_match(2))
    >>> info["scores"].tolist(), info["winner"]
    ([0, 0], -1)
    >>> info = end_info(rollout(new_match(2, dealer=0), random.Random(1), until="match"))
    >>> info["scores"].tolist(), info["winner"]
    ([17, 22], 1)
    """
    if not isinstance(state, State):
        raise ChkobbaError(wrong_type("end_info", "a State", state))
    try:  # a hand-built state can be broken (see check_state)
        return {
            "scores": _numeric("end_info", state.scores),
            "winner": _numeric("end_info", state.winner),
        }
    except ChkobbaError:
        raise
    except Exception as error:
        raise broken_state(state, error) from None


def _numeric(function: str, value: object) -> Any:
    if value is None:
        return _NOBODY
    if isinstance(value, tuple):
        try:
            return np.array(value, np.int64)
        except OverflowError:  # only a hand-built value holds such numbers
            raise ChkobbaError(f"{function}: {shown(value)} do not fit in int64") from None
    return value


def _deal_points_bound(rules: Rules, sides: int) -> int:
    """The most points one side can score in a deal (as in :mod:`chkobba.openspiel`).

    Each category is worth one point, and a side plays ``36 / sides`` cards of a deal (18
    with two sides, 12 with three), each at most one chkobba. Both named profiles reach
    it: the side that leads can sweep with every card it plays and take all 40 cards.
    The learner's reward, its side's points minus the best other side's, lies within
    ``-bound`` and ``bound``.
    """
    categories = 2 + rules.sevens_bermila + rules.seven_of_diamonds + rules.primiera
    return categories + (len(DECK) - 4) // sides


def _bounds(features: bool, rules: Rules) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    low, high = observation_bounds(rules)
    high = [min(bound, SCORE_CAP) for bound in high]
    if features:
        more_low, more_high = feature_bounds(rules)
        low, high = low + more_low, high + more_high
    return np.array(low, np.float32), np.array(high, np.float32)


@attrs.frozen
class _Spawner:
    """A bot with ``spawn``: a fresh one for every seat and episode, checked to be a bot."""

    bot: Bot

    def __call__(self, seed: int) -> Bot:
        return spawned(self.bot, seed)


@attrs.frozen
class _Same:
    """A bot without ``spawn``: the same object at every seat and in every episode."""

    bot: Bot

    def __call__(self, seed: int) -> Bot:
        return self.bot


def _opponent_maker(opponent: Opponent, features: bool) -> Callable[[int], Bot]:
    """A function ``seed -> bot`` for one seat of one episode."""
    if isinstance(opponent, str):
        opponent = BotSpec.parse(opponent)
    if isinstance(opponent, BotSpec):
        return opponent.build
    if isinstance(opponent, type):  # callable, yet neither a bot nor a policy
        raise ChkobbaError(f"opponent {shown(opponent)} is not a bot: {not_a_bot(opponent)}")
    if is_bot(opponent):
        spawns = callable(getattr(opponent, "spawn", None))
        return _Spawner(opponent) if spawns else _Same(opponent)  # type: ignore[arg-type]
    if callable(opponent):
        return _Same(PolicyBot(opponent, features=features))
    raise ChkobbaError(
        f"opponent {shown(opponent)} is not a bot, a bot spec or a policy fn(observation, mask)"
    )


if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point="chkobba.gymnasium:ChkobbaEnv")
