"""Chkobba as an OpenSpiel game, ``python_chkobba`` (the optional extra ``chkobba[openspiel]``).

Importing this module registers the game with ``pyspiel.register_game``. It is a thin
layer over the rules engine: player actions are the ids of :mod:`chkobba.actions`, every
move goes through :func:`~chkobba.apply`, and observations come from
:func:`~chkobba.observe`. ``docs/adapters.md`` describes it in full.

- Explicit stochastic chance: the first dealer is drawn by lot (one chance node), and
  every shuffle is dealt as 40 chance outcomes, one card at a time, uniform over the
  cards left (outcome ``i`` is ``DECK[i]``).
- Imperfect information, zero-sum; 2 players, 3 each for himself, or 4 in partnerships
  (``players``), as the rule profile allows.
- Parameters: ``players`` (2, 3 or 4), ``rules`` (a profile name from
  :data:`~chkobba.PROFILES`, default ``"tunisian"``), ``target`` (the match target; 0,
  the default, keeps the profile's), ``single_deal`` (one deal instead of a match; the
  returns are then the point difference, with 3 sides a side's points minus the mean
  of the others'), ``max_shuffles`` (OpenSpiel needs a bounded game: a match still
  undecided after that many shuffles, voided deals included, stops as a draw; the
  default 50 is far beyond any real match to 21, but a match takes about one deal for
  every two points of its target, so give at least the target for a longer one; at
  most :data:`MAX_SHUFFLES_LIMIT`, a million).

>>> import pyspiel
>>> import chkobba.openspiel
>>> game = pyspiel.load_game("python_chkobba", {"players": 4})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(4, 70, 40)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())  # the lot for the first dealer
(True, 4)
>>> three = pyspiel.load_game("python_chkobba", {"players": 3, "rules": "cardrulesplus"})
>>> three.num_players(), three.num_distinct_actions()
(3, 98)
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from chkobba._copying import CopiesApart
from chkobba._describe import integer_count, integral, missing_extra, plain_flag

try:
    import numpy as np
    import pyspiel
except ImportError as error:  # say which extra brings the missing package
    raise missing_extra(error, "chkobba.openspiel", "openspiel") from error

from chkobba.actions import Position, advance, describe, legal_actions, num_actions
from chkobba.cards import DECK, Card, cards_set_repr, format_cards
from chkobba.engine import apply
from chkobba.errors import ChkobbaError, IllegalMoveError, shown
from chkobba.history import HISTORY_SIZE, DealHistory
from chkobba.moves import Cut, Play, Shuffle
from chkobba.observations import LAYOUT, observation_vector, player_returns
from chkobba.render import board_line, render
from chkobba.rules import PROFILES, Rules, profile
from chkobba.state import Phase, State, new_match
from chkobba.views import PlayerView, observe

__all__ = ["GAME_NAME", "MAX_SHUFFLES_LIMIT", "ChkobbaGame", "ChkobbaObserver", "ChkobbaState"]

#: The short name the game is registered under.
GAME_NAME = "python_chkobba"
_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "rules": "tunisian",
    "target": 0,
    "single_deal": False,
    "max_shuffles": 50,
}
#: Per shuffle: 40 chance cards, the cut, and at most 36 plays each with a capture choice.
_MOVES_PER_SHUFFLE = len(DECK) + 1 + 36 * 2
#: The cards played in a deal: 40 less the 4 first laid on the table.
_PLAYED = len(DECK) - 4

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Chkobba (Tunisian)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _deal_points_bound(rules: Rules, sides: int) -> int:
    """The most points one side can score in a deal: every category, a chkobba per card.

    A side plays ``36 / sides`` cards of a deal (18 with two sides, 12 with three) and
    sweeps at most once per card; each category is worth one point. Under both named
    profiles the bound is reached: the side that leads sweeps the four table cards (say
    A+A+2+2 with a 6), then takes every card played on the empty table with its equal
    (with three sides, the two cards the others lay with their sum), and so takes all 40
    cards; its last sweep is never the deal's last card, which the dealer plays.
    """
    categories = 2 + rules.sevens_bermila + rules.seven_of_diamonds + rules.primiera
    return categories + _PLAYED // sides


def _utility_bounds(rules: Rules, players: int, single_deal: bool) -> tuple[float, float]:
    """The lowest and highest return (:func:`~chkobba.observations.player_returns`)."""
    sides = rules.sides(players)
    if not single_deal:  # a lost match gives each loser -1 / (sides - 1)
        return -1.0 / (sides - 1), 1.0
    # A side's points minus the mean of the others'. The others' points add up to at
    # most the same bound: after a sweep the table is empty, so the next play cannot
    # sweep, and in each round of play the two other sides play one right after the
    # other, so together they sweep at most once a round (12 rounds with 3 sides).
    best = _deal_points_bound(rules, sides)
    return -best / (sides - 1), float(best)


#: The most shuffles a game may allow: far more than any match needs, and a bound on the
#: game's length that OpenSpiel's C++ side can hold (an int: 19 million shuffles did not).
MAX_SHUFFLES_LIMIT = 1_000_000


def _game_info(players: int, rules: Rules, single_deal: bool, max_shuffles: int) -> Any:
    low, high = _utility_bounds(rules, players, single_deal)
    return pyspiel.GameInfo(
        num_distinct_actions=num_actions(rules),
        max_chance_outcomes=len(DECK),
        num_players=players,
        min_utility=low,
        max_utility=high,
        utility_sum=0.0,
        max_game_length=1 + max_shuffles * _MOVES_PER_SHUFFLE,
    )


class ChkobbaGame(pyspiel.Game):
    """The game ``python_chkobba``; load it with ``pyspiel.load_game``.

    >>> import pyspiel
    >>> from chkobba.openspiel import ChkobbaGame
    >>> game = pyspiel.load_game("python_chkobba", {"target": 11})
    >>> isinstance(game, ChkobbaGame), game.rules.name, game.rules.target, game.max_shuffles
    (True, 'tunisian', 11, 50)
    >>> deal = pyspiel.load_game("python_chkobba", {"single_deal": True})
    >>> deal.min_utility(), deal.max_utility()  # a deal's point difference
    (-22.0, 22.0)
    >>> ChkobbaGame({"player": 2})
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: python_chkobba: unknown parameter 'player'; the parameters are ...
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        if params is not None and not isinstance(params, Mapping):
            raise ChkobbaError(f"python_chkobba: params must be a dict, not {shown(params)}")
        unknown = [key for key in params or {} if key not in _DEFAULTS]
        if unknown:
            raise ChkobbaError(
                f"python_chkobba: unknown parameter {shown(unknown[0])}; "
                f"the parameters are {', '.join(_DEFAULTS)}"
            )
        settings = {**_DEFAULTS, **(params or {})}
        # pyspiel.load_game types its parameters; a direct ChkobbaGame(params) is checked here.
        settings["single_deal"] = plain_flag("python_chkobba: single_deal", settings["single_deal"])
        for name in ("players", "max_shuffles", "target"):  # numpy's integers too, as ints:
            settings[name] = integral(settings[name])  # pyspiel keeps only plain ones
        players, single_deal = settings["players"], settings["single_deal"]
        max_shuffles = settings["max_shuffles"]
        rules = _rules(settings["rules"], settings["target"])
        try:
            rules.sides(players)
        except ChkobbaError as error:
            raise ChkobbaError(f"python_chkobba: {error}") from None
        if type(max_shuffles) is not int or not 1 <= max_shuffles <= MAX_SHUFFLES_LIMIT:
            raise ChkobbaError(
                f"python_chkobba: max_shuffles must be from 1 to {MAX_SHUFFLES_LIMIT:,}, "
                f"not {shown(max_shuffles)}"
            )
        info = _game_info(players, rules, single_deal, max_shuffles)
        super().__init__(_GAME_TYPE, info, settings)
        self.players: int = players
        self.rules: Rules = rules
        self.single_deal: bool = single_deal
        self.max_shuffles: int = max_shuffles

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel's own pickling of a game (used by copy.deepcopy too) rebuilds the C++
        # game alone, without the attributes above: rebuild it from its parameters instead.
        return (ChkobbaGame, (dict(self.get_parameters()),))

    def new_match(self, dealer: int = 0) -> State:
        """A new core match of this game's players and rules."""
        return new_match(self.players, dealer=dealer, rules=self.rules)

    def new_initial_state(self) -> ChkobbaState:
        """The state before the lot for the first dealer."""
        return ChkobbaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ChkobbaObserver:
        """An observer: the observation (default) or, with perfect recall, the information state."""
        return ChkobbaObserver(iig_obs_type, params)


def _rules(name: Any, target: Any) -> Rules:
    if isinstance(name, Rules):
        # A game's parameters are plain values (they make its string, its pickle and
        # its serialization), so a profile object could not travel with the game.
        raise ChkobbaError(
            f"python_chkobba: rules must be a profile name ({', '.join(sorted(PROFILES))}), "
            f"not a Rules object (the {name.name} profile): OpenSpiel parameters are plain "
            "values; a house profile plays through chkobba's own API or the PettingZoo and "
            "Gymnasium environments"
        )
    # The profile's own refusal, less the 0 that means the profile's target here.
    refusal = f"target must be 0 (the profile's) or 1 to 10000, got {shown(target)}"
    if type(target) is not int:  # 0.0 or False would pass as 0, and break serialization
        raise ChkobbaError(f"python_chkobba: {refusal}")
    try:
        rules = profile(name)
        if target == 0:  # the default: the profile's own target
            return rules
        return attrs.evolve(rules, target=target)
    except ChkobbaError as error:
        message = str(error)
        if message.startswith("target must be"):
            message = refusal
        raise ChkobbaError(f"python_chkobba: {message}") from None


@attrs.frozen
class _Log:
    """An append-only event list shared between cloned states (a linked list, newest last)."""

    parent: _Log | None
    #: Words joined by spaces when read (formatting is deferred: most events are never read).
    words: tuple[object, ...]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Log:
        return self  # immutable: clones share it

    def __reduce__(self) -> tuple[Any, ...]:
        # Flat, oldest first: pickled node by node, the chain recursed once per event and
        # passed Python's recursion limit late in an ordinary match (about 350 events).
        # As the lines' bytes: pickle writes an object met twice once, so words (strings
        # shared with attribute names, which unpickling interns apart) made a copy's
        # serialize() differ from its original's.
        return (_log_of, ("\n".join(self.lines()).encode("utf-8"),))

    def events(self) -> list[tuple[object, ...]]:
        """Every event's words, oldest first."""
        found: list[tuple[object, ...]] = []
        node: _Log | None = self
        while node is not None:
            found.append(node.words)
            node = node.parent
        return found[::-1]

    def lines(self) -> list[str]:
        return [" ".join(str(word) for word in words) for words in self.events()]


def _log_of(events: bytes | tuple[tuple[object, ...], ...]) -> _Log | None:
    """The :class:`_Log` of these events (oldest first), from its pickled form: its lines'
    text, or (as this version's earlier states were pickled) each event's words."""
    if isinstance(events, bytes):
        events = tuple((line,) for line in events.decode("utf-8").split("\n"))
    log: _Log | None = None
    for words in events:
        log = _Log(log, words)
    return log


@attrs.frozen
class _Capture:
    cards: frozenset[Card] = attrs.field(repr=cards_set_repr)

    def __str__(self) -> str:
        return format_cards(self.cards, "+")

    def __reduce__(self) -> tuple[Any, ...]:
        # In deck order: a frozenset of cards pickles in the order of their addresses,
        # so serialize() would give other bytes for the same state in another process.
        return (_capture, (tuple(sorted(self.cards)),))


def _capture(cards: tuple[Card, ...]) -> _Capture:
    """A :class:`_Capture` from its pickled form."""
    return _Capture(frozenset(cards))


class ChkobbaState(pyspiel.State):
    """A point of a ``python_chkobba`` game: a :class:`~chkobba.actions.Position` plus chance.

    Besides the core position it keeps what OpenSpiel needs and the core does not: the
    cards of a shuffle dealt so far, the number of shuffles, and the public and private
    events of the information states.

    >>> import pyspiel
    >>> import chkobba.openspiel
    >>> state = pyspiel.load_game("python_chkobba").new_initial_state()
    >>> state.match_state is None, state.chance_outcomes()  # the lot: either seat deals
    (True, [(0, 0.5), (1, 0.5)])
    >>> state.apply_action(1)  # player 1 deals
    >>> for index in range(40):  # the shuffle, card by card: outcome i is DECK[i]
    ...     state.apply_action(index)
    >>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
    (0, ['keep', 'expose'])
    >>> state.apply_action(40)  # the cutter keeps the top card, the A♠
    >>> state.observation_string(0)
    'p0 | PLAY dealer p1 turn p0 | table 2D 2C 3S 3H | ... | hand AS AH AC'
    """

    def __init__(self, game: ChkobbaGame) -> None:
        if not _is_a(game, ChkobbaGame):
            # pyspiel.State would take the bad value as it is: None crashed the interpreter.
            raise ChkobbaError(
                f"ChkobbaState needs a python_chkobba game (a ChkobbaGame), not {shown(game)}"
            )
        super().__init__(game)
        # Plain values, no reference to the game: a copy of the state (clone, child,
        # pickle, deserialize) must not depend on a copy of the Python game object.
        self._players = game.players
        self._rules = game.rules
        self._single_deal = game.single_deal
        self._max_shuffles = game.max_shuffles
        self._position: Position | None = None  # None until the lot chose the dealer
        self._order: tuple[int, ...] = ()  # the shuffle so far, as DECK indices
        self._shuffles = 0
        self._public: _Log | None = None
        # Per player, private facts from earlier deals (a kept cut card, a voided cut card).
        self._private: tuple[tuple[str, ...], ...] = ((),) * game.players
        # This deal's kept cut card, known to its cutter alone: (cutter, DECK index).
        self._kept: tuple[int, int] | None = None
        # This deal's public events in order, for the information-state tensor.
        self._history = DealHistory()
        # Cards exposed in voided deals since the last scored deal (public).
        self._voided: frozenset[int] = frozenset()
        # Whether this version's _deal kept the two above (see _restore_history).
        self._history_kept = False
        self._to_move = _CHANCE

    # --- the core position ---------------------------------------------------------

    @property
    def position(self) -> Position | None:
        """The core position (``None`` before the lot)."""
        return self._position

    @property
    def match_state(self) -> State | None:
        """The core :class:`~chkobba.State` (``None`` before the lot)."""
        return None if self._position is None else self._position.state

    # --- OpenSpiel API -----------------------------------------------------------

    def current_player(self) -> int:
        """The player to move, or ``pyspiel.PlayerId.CHANCE`` (the first dealer's lot, a
        shuffle's next card) or ``pyspiel.PlayerId.TERMINAL``."""
        return self._to_move

    def is_terminal(self) -> bool:
        """Whether the match (the deal, with ``single_deal``) is over, or stopped by
        ``max_shuffles``."""
        return self._to_move == _TERMINAL

    def _who_moves(self) -> int:
        # OpenSpiel asks this many times per move: it is computed once, after each action.
        if self._position is None:
            return _CHANCE
        if self._finished():
            return _TERMINAL
        state = self._position.state
        if state.phase is Phase.SHUFFLE:
            return _CHANCE
        return state.current_player  # type: ignore[return-value]

    def _finished(self) -> bool:
        state = self._position.state  # type: ignore[union-attr]
        if state.is_over or (self._single_deal and state.deal_scores):
            return True
        # A match that needs more shuffles than allowed stops here (see max_shuffles).
        return state.phase is Phase.SHUFFLE and self._shuffles >= self._max_shuffles

    def _legal_actions(self, player: int) -> list[int]:
        if self._position is None or self.current_player() != player:
            return []
        return list(legal_actions(self._position))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node, uniform: the first dealer
        by lot, then each shuffle's next card among those not yet placed; ``[]`` at a
        decision or a terminal state."""
        if self._to_move != _CHANCE:  # a decision or a terminal state: no chance outcome
            return []
        if self._position is None:
            return [(dealer, 1.0 / self._players) for dealer in range(self._players)]
        dealt = set(self._order)
        left = [i for i in range(len(DECK)) if i not in dealt]
        return [(i, 1.0 / len(left)) for i in left]

    def _apply_action(self, action: int) -> None:
        # OpenSpiel's own games refuse an action at a terminal state; without this check
        # a finished deal took actions, and a match stopped by max_shuffles dealt again.
        if self._to_move == _TERMINAL:
            raise IllegalMoveError(
                f"action {shown(action)} cannot be applied: the game is over (terminal state)"
            )
        self._apply(action)
        self._to_move = self._who_moves()

    def _apply(self, action: int) -> None:
        if self._position is None:  # the first chance node draws the dealer
            if isinstance(action, int) and not 0 <= action < self._players:
                raise IllegalMoveError(
                    f"chance outcome {shown(action)} is not a dealer: the first chance node "
                    f"draws the dealer, 0 to {self._players - 1}"
                )
            self._position = Position(new_match(self._players, dealer=action, rules=self._rules))
            self._note("dealer", f"p{action}")
        elif self._position.state.phase is Phase.SHUFFLE:
            if not 0 <= action < len(DECK) or action in self._order:
                raise IllegalMoveError(f"chance outcome {action} is not a card left to deal")
            self._order += (action,)
            if len(self._order) == len(DECK):
                self._deal()
        else:
            self._act(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._position is None:
                return f"dealer p{action}"
            return f"deal {DECK[action]}" if 0 <= action < len(DECK) else f"chance {action}"
        return describe(
            self._position or Position(new_match(self._players, rules=self._rules)), action
        )

    def returns(self) -> list[float]:
        """Each player's return, zero-sum (:func:`~chkobba.observations.player_returns`):
        ``0.0`` for all before the end or in a match stopped without a winner; else 1 to
        the winning side's players and ``-1 / (sides - 1)`` to the others, or with
        ``single_deal`` the side's deal points minus the mean of the other sides'."""
        if not self.is_terminal():
            return [0.0] * self._players
        state: State = self._position.state  # type: ignore[union-attr]
        # No winner yet in a match: stopped by max_shuffles, a draw.
        return list(player_returns(state, self._single_deal))

    def __str__(self) -> str:
        if self._position is None:
            return "the first dealer is not drawn yet"
        text = render(self._position.state)
        if self._order:
            text += "\n" + board_line("Shuffle", f"{len(self._order)} of 40 cards dealt")
        if self._position.pending is not None:
            pending = self._position.pending.symbol
            text += "\n" + board_line("Pending", f"{pending} waits for its capture choice")
        return text

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ChkobbaState:
        """A state ``player_id`` cannot tell from this one, hidden cards drawn at random.

        The cards ``player_id`` cannot see (other hands, the stock, a shuffle under way)
        are dealt again uniformly into the same places, from deck order, so the sample
        depends on the sampler's numbers and what the player knows, never on where the
        hidden cards truly are; ``probability_sampler()`` gives
        the uniform numbers, in [0, 1) as OpenSpiel's ``ResampleFromInfostate`` documents
        (1.0 is taken as just below it); anything else is a ChkobbaError. Used by
        OpenSpiel's ISMCTS.
        """
        player_id = self._check_player(player_id, "resample_from_infostate")
        draw = _uniform_draw(probability_sampler)
        clone: ChkobbaState = self.clone()
        if self._order:
            dealt = _shuffled([c.index for c in DECK], draw)
            clone._order = tuple(dealt[: len(self._order)])
        position = self._position
        if position is None or position.state.phase not in (Phase.CUT, Phase.PLAY):
            return clone
        state = position.state
        slots = _hidden_slots(state, player_id, position.pending)
        hidden = [_slot_card(state, slot) for slot in slots]
        # Shuffled from deck order, not from the true places: the same sampler's numbers
        # must give the same sample for every state the player cannot tell apart.
        fresh = _shuffled(sorted(hidden), draw)
        clone._position = attrs.evolve(
            position, state=_with_cards(state, dict(zip(slots, fresh, strict=True)))
        )
        if self._kept is not None and self._kept[0] != player_id:
            cutter, kept = self._kept
            if DECK[kept] in hidden:
                clone._kept = (cutter, fresh[hidden.index(DECK[kept])].index)
        return clone

    # --- moves and events ----------------------------------------------------------

    def _deal(self) -> None:
        position: Position = self._position  # type: ignore[assignment]
        self._close_deal()
        order = [DECK[i] for i in self._order]
        self._position = Position(apply(position.state, Shuffle(order)))
        self._order = ()
        self._shuffles += 1
        self._note("shuffle", self._shuffles)
        state = self._position.state
        self._history = DealHistory()
        self._history_kept = True
        if state.phase is Phase.PLAY:  # no cut under this profile: play begins at once
            self._history = self._history.started(state.table, exposed=None)
        if not position.state.rules.cut:  # dealt at once: the table is public now
            after = self._position.state
            self._note(*(("table", *sorted(after.table)) if after.table else ("void",)))

    def _close_deal(self) -> None:
        # The kept card of the deal that ended becomes a fact of its cutter's past.
        if self._kept is not None:
            cutter, kept = self._kept
            self._remember(cutter, f"kept {DECK[kept]}")
            self._kept = None

    def _restore_history(self) -> None:
        """Replay the actions for this deal's history and voided cards, if they are
        missing. OpenSpiel restores a serialized state by setting the attributes it
        pickled on a fresh state; a state that 0.1.0 serialized kept neither, so after a
        deal it holds the fresh state's, and ``_history_kept`` is still the fresh
        state's False. (A flag, not a sentinel object: a clone, deep copy or pickle of
        such a state keeps a flag's value, not an object's identity.)"""
        if self._shuffles and not self._history_kept:
            replayed = ChkobbaState(self.get_game())
            for action in self.history():
                replayed.apply_action(action)
            self._history, self._voided = replayed._history, replayed._voided
            self._history_kept = True

    def _act(self, action: int) -> None:
        self._restore_history()
        position: Position = self._position  # type: ignore[assignment]
        state, player = position.state, position.current_player
        after, move = advance(position, action)
        if isinstance(move, Cut):
            seen = state.stock[0]
            if move.keep:
                self._note(f"p{player}", "keeps")
            else:
                self._note(f"p{player}", "exposes", seen)
            if after.state.phase is Phase.PLAY:
                self._note("table", *sorted(after.state.table))
                exposed = None if move.keep else seen
                self._history = self._history.started(after.state.table, exposed)
                if move.keep:
                    self._kept = (player, seen.index)  # type: ignore[assignment]
            else:
                self._note("void")
                self._remember(player, f"saw {seen} (void)")  # type: ignore[arg-type]
                if not move.keep:
                    self._voided |= {seen.index}
        elif move is None:
            self._note(f"p{player}", "plays", DECK[action])
        elif position.pending is not None:
            self._note("takes", _Capture(move.capture))  # type: ignore[union-attr]
        else:
            self._note(f"p{player}", move)
        if isinstance(move, Play):
            self._history = self._history.played(player, move.card, move.capture)  # type: ignore[arg-type]
            if len(after.state.deal_scores) > len(state.deal_scores):
                self._voided = frozenset()  # a scored deal: the voided ones before it are past
        self._position = after

    def _note(self, *words: object) -> None:
        self._public = _Log(self._public, words)

    def _remember(self, player: int, text: str) -> None:
        facts = list(self._private)
        facts[player] = (*facts[player], f"shuffle {self._shuffles}: {text}")
        self._private = tuple(facts)

    # --- what a player knows ---------------------------------------------------------

    def _check_player(self, player: object, function: str) -> int:
        """``player`` as an int, once it is a seat of this game (numpy's integers too, as
        the other adapters take them; a bool is no seat)."""
        # Checked here, not left to the core: some of these never ask it about the player.
        seat = integer_count(player)
        if seat is None or not 0 <= seat < self._players:
            raise ChkobbaError(
                f"{function}: player must be 0 to {self._players - 1} in this "
                f"{self._players}-player game, not {shown(player)}"
            )
        return seat

    def view(self, player: int) -> PlayerView | None:
        """``observe(state, player)`` of the core state (``None`` before the lot)."""
        player = self._check_player(player, "view")
        return None if self._position is None else observe(self._position.state, player)

    def history_vector(self, player: int) -> list[float]:
        """This deal's public history seen from ``player`` (:mod:`chkobba.history`)."""
        player = self._check_player(player, "history_vector")
        self._restore_history()
        return self._history.vector(player, self._players)

    def voided_vector(self) -> list[float]:
        """40 bits: the cards exposed in deals voided since the last scored deal (public)."""
        self._restore_history()
        return [1.0 if i in self._voided else 0.0 for i in range(len(DECK))]

    def kept_vector(self, player: int) -> list[float]:
        """40 bits: the card ``player`` kept at this deal's cut, if it did (private)."""
        player = self._check_player(player, "kept_vector")
        bits = [0.0] * len(DECK)
        if self._kept is not None and self._kept[0] == player:
            bits[self._kept[1]] = 1.0
        return bits

    def information_state_text(self, player: int, private: bool = True, public: bool = True) -> str:
        """The player's information state: every public event, its private facts, its hand.

        A player's earlier hands follow from its public plays and its current hand
        (every round it plays all three cards), so this is perfect recall. With
        ``private=False``, the public information state (no private fact, no hand); with
        ``public=False``, the private facts and the hand alone (an observer's
        ``public_info=False``), as the tensor of such an observer holds.
        """
        player = self._check_player(player, "information_state_text")
        private, public = plain_flag("private", private), plain_flag("public", public)
        lines = [f"python_chkobba p{player} of {self._players}"]
        if public and self._public is not None:
            lines += self._public.lines()
        if private:
            lines += list(self._private[player])
            if self._kept is not None and self._kept[0] == player:
                lines.append(f"kept {DECK[self._kept[1]]}")
        if public and self._order:
            lines.append(f"shuffle: {len(self._order)} cards")
        lines.append(self.observation_text(player, private=private, public=public))
        return "\n".join(lines)

    def observation_text(self, player: int, private: bool = True, public: bool = True) -> str:
        """The player's current observation as one line of text: the phase, dealer, turn,
        table, counts and scores, then its hand; ``private=False`` leaves the hand out,
        ``public=False`` the rest (an observer's ``public_info=False``)."""
        player = self._check_player(player, "observation_text")
        private, public = plain_flag("private", private), plain_flag("public", public)
        view = self.view(player)
        if view is None:
            return f"p{player}: the first dealer is not drawn yet"
        parts = [f"p{player}"]
        if public:
            turn = "-" if view.current_player is None else f"p{view.current_player}"
            parts += [
                f"{view.phase.name} dealer p{view.dealer} turn {turn}",
                f"table {format_cards(view.table) or '-'}",
                f"hands {'/'.join(str(n) for n in view.hand_sizes)} stock {view.stock_size}",
                f"piles {'/'.join(str(len(pile)) for pile in view.captured)}",
                f"chkobbas {'/'.join(map(str, view.chkobbas))}",
                f"scores {'-'.join(map(str, view.scores))}",
            ]
            pending = self._position.pending if self._position is not None else None
            if pending is not None:
                parts.append(f"pending {pending}")
            if view.winner is not None:
                parts.append(f"winner side {view.winner}")
        if private:
            parts.append(f"hand {format_cards(view.hand) or '-'}")
            if view.cut_card is not None:
                parts.append(f"cut card {view.cut_card}")
        return " | ".join(parts)


def _uniform_draw(sampler: Any) -> Callable[[int], int]:
    """``draw(n)``: an index below ``n`` from one number of OpenSpiel's ``sampler()``.

    The number is checked: NaN or a negative one would otherwise crash in ``int()`` or
    pick an index from the end, and a broken sampler would skew ISMCTS silently.
    """
    if not callable(sampler):
        raise ChkobbaError(
            "resample_from_infostate: the probability sampler must be a function "
            f"returning a number in [0, 1), not {shown(sampler)}"
        )

    def draw(n: int) -> int:
        # 1.0 lies outside [0, 1) but some uniform generators return it: the last index.
        return min(int(_probability(sampler()) * n), n - 1)

    return draw


def _probability(number: object) -> float:
    """A sampler's number if it is a real in [0, 1] (numpy's too; NaN and a bool not)."""
    if (
        isinstance(number, numbers.Real)
        and not isinstance(number, bool)
        and 0 <= float(number) <= 1
    ):
        return float(number)
    raise ChkobbaError(
        "resample_from_infostate: the probability sampler must return a number in [0, 1), "
        f"not {shown(number)}"
    )


def _shuffled(items: list[Any], draw: Callable[[int], int]) -> list[Any]:
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = draw(i + 1)
        result[i], result[j] = result[j], result[i]
    return result


#: A place a hidden card can be: ``(player, position in hand)`` or ``(-1, stock index)``.
_Slot = tuple[int, int]


def _hidden_slots(state: State, player: int, pending: Card | None) -> list[_Slot]:
    # A pending card is still in its player's hand, but it lies face up: not hidden.
    slots: list[_Slot] = [
        (other, i)
        for other, hand in enumerate(state.hands)
        if other != player
        for i, held in enumerate(hand)
        if held is not pending
    ]
    # In phase CUT the cutter has seen the top card of the stock.
    first = 1 if state.phase is Phase.CUT and state.current_player == player else 0
    return slots + [(-1, i) for i in range(first, len(state.stock))]


def _slot_card(state: State, slot: _Slot) -> Card:
    owner, i = slot
    return state.stock[i] if owner < 0 else state.hands[owner][i]


def _with_cards(state: State, placed: dict[_Slot, Card]) -> State:
    hands = tuple(
        tuple(placed.get((p, i), c) for i, c in enumerate(hand))
        for p, hand in enumerate(state.hands)
    )
    stock = tuple(placed.get((-1, i), c) for i, c in enumerate(state.stock))
    return attrs.evolve(state, hands=hands, stock=stock)


# Markers for the perfect-recall pieces that are not slices of the observation vector.
_HISTORY, _VOIDED, _KEPT = -1, -2, -3


class ChkobbaObserver(CopiesApart):
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``).

    Without perfect recall: the observation vector of :mod:`chkobba.observations` (the
    private pieces, the hand and the cut card, are left out for a public-only observer,
    the public ones for a private-only one). With perfect recall the string is the whole
    information state, and the tensor is the observation followed by this deal's public
    history (:mod:`chkobba.history`) and the cards exposed in deals voided since the last
    scored deal (40 bits), both left out for a private-only observer, then the card the
    player kept at the cut (40 bits, left out for a public-only observer). It is
    egocentric like the observation: with the player, it determines the information
    state of the current deal (earlier scored deals are summed up by the scores, and
    voided deals' exposed cards form a set, their order lost; how many deals were voided,
    and a card kept at a voided deal's cut, are left out: a redeal shuffles afresh, so
    they bear on nothing to come).

    Player 1 deals the deck in order and player 0 keeps the cut card (the A♠, ``DECK[0]``),
    which only player 0's information state holds:

    >>> import pyspiel
    >>> game = pyspiel.load_game("python_chkobba")
    >>> observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    >>> observer.tensor.shape, list(observer.dict)[-3:]
    ((713,), ['history', 'voided', 'kept_card'])
    >>> state = game.new_initial_state()
    >>> for action in [1, *range(40), 40]:
    ...     state.apply_action(action)
    >>> observer.set_from(state, 0)
    >>> observer.dict["kept_card"].nonzero()[0].tolist()
    [0]
    >>> print(observer.string_from(state, 1))
    python_chkobba p1 of 2
    dealer p1
    shuffle 1
    p0 keeps
    table 2D 2C 3S 3H
    p1 | PLAY dealer p1 turn p0 | ... | hand AD 2S 2H
    """

    _PRIVATE = frozenset({"hand", "cut_card"})

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        # None or an empty dict (what OpenSpiel passes); a type test first, since other
        # values may not even have a truth value (a numpy array).
        if params is not None and not (isinstance(params, dict) and not params):
            raise ChkobbaError(f"python_chkobba observers take no parameters, got {shown(params)}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if not isinstance(iig_obs_type, pyspiel.IIGObservationType):
            raise ChkobbaError(
                "a python_chkobba observer's type must be a pyspiel.IIGObservationType "
                f"(or None for the default), not {shown(iig_obs_type)}"
            )
        private_type = iig_obs_type.private_info
        if private_type == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ChkobbaError("python_chkobba observes one player's private cards, not all")
        self.perfect_recall: bool = bool(iig_obs_type.perfect_recall)
        self.private: bool = private_type == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public: bool = bool(iig_obs_type.public_info)
        self._pieces = list(self._chosen_pieces())
        if self.perfect_recall and self.public:
            self._pieces.append(("history", HISTORY_SIZE, _HISTORY))
            self._pieces.append(("voided", len(DECK), _VOIDED))
        if self.perfect_recall and self.private:
            self._pieces.append(("kept_card", len(DECK), _KEPT))
        size = sum(size for _, size, _ in self._pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = self._views()
        #: What set_from copies: (tensor position, source start, width), the observation
        #: pieces that follow each other in both merged into one run (all of them, for
        #: the default observer): a copy per piece cost more than the observation itself.
        self._runs: list[tuple[int, int, int]] = []
        position = 0
        for _, width, start in self._pieces:
            at, source, length = self._runs[-1] if self._runs else (0, _HISTORY, 0)
            if start >= 0 and source >= 0 and source + length == start:
                self._runs[-1] = (at, source, length + width)
            else:
                self._runs.append((position, start, width))
            position += width

    def _views(self) -> dict[str, Any]:
        """``dict``: each piece's name and its slice of ``tensor``, a view that set_from
        fills through the tensor."""
        views, position = {}, 0
        for name, width, _ in self._pieces:
            views[name] = self.tensor[position : position + width]
            position += width
        return views

    def __getstate__(self) -> dict[str, Any]:
        # Without dict: pickle and deepcopy copy each array on its own, so a copied dict
        # would be arrays of their own that set_from never fills. They are views again.
        return {key: value for key, value in self.__dict__.items() if key != "dict"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.dict = self._views()

    def _chosen_pieces(self) -> Iterator[tuple[str, int, int]]:
        start = 0
        for name, width in LAYOUT:
            if self.private if name in self._PRIVATE else self.public:
                yield name, width, start
            start += width

    def set_from(self, state: ChkobbaState, player: int) -> None:
        """Fill ``tensor`` (and its named slices in ``dict``) for ``player``."""
        _check_state(state, "set_from")
        self.tensor.fill(0.0)
        view = state.view(player)
        if view is None or not self._pieces:
            return
        full = observation_vector(view, state.position.pending)  # type: ignore[union-attr]
        for position, start, width in self._runs:
            if start == _HISTORY:
                self.tensor[position : position + width] = state.history_vector(player)
            elif start == _VOIDED:
                self.tensor[position : position + width] = state.voided_vector()
            elif start == _KEPT:
                self.tensor[position : position + width] = state.kept_vector(player)
            else:
                self.tensor[position : position + width] = full[start : start + width]

    def string_from(self, state: ChkobbaState, player: int) -> str:
        """The information state (perfect recall) or the current observation, as text."""
        _check_state(state, "string_from")
        if self.perfect_recall:
            return state.information_state_text(player, private=self.private, public=self.public)
        return state.observation_text(player, private=self.private, public=self.public)


def _is_a(value: object, kind: type) -> bool:
    """``isinstance``, also across a reload of this module (IPython's ``%autoreload``):
    pyspiel keeps the first ``ChkobbaGame`` class registered, and the games it makes are
    no instances of the class the reload defines."""
    return any(
        each.__module__ == kind.__module__ and each.__qualname__ == kind.__qualname__
        for each in type(value).__mro__
    )


def _check_state(state: object, method: str) -> None:
    if not _is_a(state, ChkobbaState):
        raise ChkobbaError(
            f"{method}: the state must be a python_chkobba state (a ChkobbaState), "
            f"not {shown(state)}"
        )


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, ChkobbaGame)
