"""Bridges between bots and action-id policies (the encoding of :mod:`chkobba.actions`).

- :class:`PolicyBot` wraps a policy ``fn(observation, mask) -> action id`` (a trained
  agent) as a bot, so it plays in :func:`chkobba.arena.tournament` with seat swaps,
  shared shuffles and Wilson intervals. ``observation`` is the vector of
  :mod:`chkobba.observations` (plus :mod:`chkobba.features` with ``features=True``) and
  ``mask`` marks the legal ids, both numpy arrays when numpy is installed (else lists).
  A card with several capture options takes two calls: the card id, then the capture id
  (the second observation has the card as ``pending``).
- :class:`BotActions` goes the other way: it drives a bot through action ids on a
  :class:`~chkobba.actions.Position`, queueing the capture id of a two-step play.

>>> import random
>>> from chkobba.arena import play_match
>>> from chkobba.bots import GreedyBot
>>> from chkobba.bots import BotActions, PolicyBot
>>> def first_legal(observation, mask):
...     return max(range(len(mask)), key=lambda i: mask[i])
>>> result = play_match([PolicyBot(first_legal), GreedyBot(seed=1)], seed=3)
>>> result.winner in (0, 1)
True

>>> from chkobba.actions import Position, step
>>> position = Position(apply(new_match(), random_shuffle(random.Random(1))))
>>> actor = BotActions(GreedyBot(seed=2))
>>> while position.state.phase is not Phase.SHUFFLE:
...     position = step(position, actor(position))
>>> len(position.state.deal_scores)
1
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from chkobba._describe import add_note, bot_label, integral, plain_flag, plain_integer, wrong_type
from chkobba.actions import (
    EXPOSE,
    FIRST_CAPTURE,
    KEEP,
    NUM_ACTIONS,
    Position,
    action_ids,
    num_actions,
    step,
)
from chkobba.bots.base import Bot, among, checked_choice, moves_of, not_a_bot, refused_choice
from chkobba.cards import Card
from chkobba.engine import is_legal, legal_moves
from chkobba.errors import ChkobbaError, IllegalMoveError, shown
from chkobba.features import feature_vector, options_by_card
from chkobba.moves import Cut, Move, Play
from chkobba.observations import cap_scores, observation_vector
from chkobba.views import PlayerView, observe

__all__ = ["BotActions", "Policy", "PolicyBot", "action_mask", "policy_input"]

#: A policy: ``fn(observation, mask) -> action id``.
Policy = Callable[[Any, Any], Any]


def _array(values: Sequence[float], dtype: str) -> Any:
    try:
        import numpy as np
    except ImportError:  # numpy is optional: plain lists then
        return values
    return np.asarray(values, dtype=dtype)


# The largest action space action_mask builds a mask for: far above any profile's.
_SIZE_LIMIT = 100_000


def action_mask(
    legal: Sequence[Move], pending: Card | None = None, size: int = NUM_ACTIONS
) -> list[int]:
    """The mask (one 0/1 per action id) of ``legal`` core moves; ``pending``: its choice ids.

    ``size`` is the action space's (``actions.num_actions(rules)``; 70 under the
    Tunisian profile).

    >>> from chkobba.bots.policy import action_mask
    >>> from chkobba.actions import EXPOSE, KEEP
    >>> action_mask((Cut(keep=True), Cut(keep=False)))[KEEP:EXPOSE + 1]
    [1, 1]
    """
    legal = moves_of("action_mask", legal)
    if pending is not None and not isinstance(pending, Card):
        raise ChkobbaError(wrong_type("action_mask: pending", "a Card or None", pending))
    size = integral(size)  # numpy's integers too
    if type(size) is not int or not FIRST_CAPTURE < size <= _SIZE_LIMIT:
        raise ChkobbaError(
            f"action_mask: size must be the action space's size, an integer from "
            f"{FIRST_CAPTURE + 1} to {_SIZE_LIMIT} (num_actions(rules)), not {shown(size)}"
        )
    mask = [0] * size
    if pending is not None:
        options = options_by_card(legal).get(pending, [])
        if len(options) < 2:  # an all-zero mask would leave a policy no action
            captures = sum(1 for option in options if option)  # (laid alone: no capture)
            raise ChkobbaError(
                f"action_mask: {pending} cannot be pending: the legal moves give it "
                f"{captures or 'no'} capture option{'s' * (captures != 1)}, nothing to choose"
            )
        if FIRST_CAPTURE + len(options) > size:
            raise ChkobbaError(
                f"action_mask: size {size} has no room for the {len(options)} capture "
                f"options of {pending}"
            )
        mask[FIRST_CAPTURE : FIRST_CAPTURE + len(options)] = [1] * len(options)
        return mask
    for move in legal:
        if isinstance(move, Cut):
            mask[KEEP if move.keep else EXPOSE] = 1
        elif isinstance(move, Play):
            mask[move.card.index] = 1
    return mask


def policy_input(
    view: PlayerView, legal: Sequence[Move], pending: Card | None = None, features: bool = False
) -> tuple[Any, Any]:
    """The ``(observation, mask)`` a policy sees for ``view`` (float32 / int8 numpy arrays;
    without numpy, a list of floats and a list of 0s and 1s): the Gymnasium
    environment's, scores capped at :data:`~chkobba.observations.SCORE_CAP`.

    Player 1 holds 7C KC KD (ids 27, 39 and 38: a card's id is its deck index):

    >>> import random
    >>> from chkobba.bots.policy import policy_input
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> observation, mask = policy_input(observe(state, 1), legal_moves(state))
    >>> len(observation), len(mask), [i for i in range(len(mask)) if mask[i]]
    (313, 70, [27, 38, 39])
    >>> len(policy_input(observe(state, 1), legal_moves(state), features=True)[0])
    454
    """
    vector = cap_scores(observation_vector(view, pending))
    if plain_flag("features", features):
        vector += feature_vector(view, pending, legal)
    mask = action_mask(legal, pending, num_actions(view.rules))
    return _array(vector, "float32"), _array(mask, "int8")


class PolicyBot:
    """A bot that asks ``fn(observation, mask)`` for action ids (see the module docstring).

    ``features`` adds :mod:`chkobba.features` to the observation (train and play with
    the same setting). ``name`` is how tournaments, records and messages name the bot
    (default ``"policy"``). An id the mask does not allow, or an answer that is not an integer
    (Python's or numpy's; not ``2.0``, ``40.9`` or ``True``, as the Gymnasium
    environment's ``step``), raises :class:`~chkobba.IllegalMoveError`.
    The bot holds no state of its own: :meth:`spawn` returns it unchanged, so
    :func:`~chkobba.arena.tournament` shares it between matches (it must pickle to go
    to worker processes or a cluster). ``copy.deepcopy`` (of the bot, or of an
    environment that plays against it) copies the policy with it, so that a policy
    carrying its own generator plays on alike in the copy; a function is shared, as
    Python copies functions. To share a policy object between copies instead (a trained
    model: copying one costs its weights, and torch refuses to copy a model that has
    trained), give a function that calls it: ``PolicyBot(lambda o, m: act(model, o, m))``.

    A card with two captures takes two calls: its card id, then a capture id:

    >>> from chkobba.bots import PolicyBot
    >>> asked = []
    >>> def highest(observation, mask):          # the largest id the mask allows
    ...     asked.append([i for i in range(len(mask)) if mask[i]])
    ...     return asked[-1][-1]
    >>> top = cards("2D QH 3C 4C 6C 5C 7C 6S AS AC")   # player 1 holds 4C 5C QH
    >>> state = apply(new_match(), Shuffle(top + tuple(c for c in DECK if c not in top)))
    >>> state = apply(state, Cut(keep=False))          # the table is 2D 6S AS AC
    >>> print(PolicyBot(highest).choose(observe(state, 1), legal_moves(state)), asked)
    QH x 2D+6S [[15, 19, 29], [42, 43]]
    >>> PolicyBot(lambda observation, mask: 0).choose(observe(state, 1), legal_moves(state))
    Traceback (most recent call last):
    ...
    chkobba.errors.IllegalMoveError: PolicyBot(<lambda>): the policy chose action 0, which is masked
    """

    name: str = "policy"

    def __init__(self, fn: Policy, *, features: bool = False, name: str | None = None) -> None:
        if not callable(fn):
            raise ChkobbaError(f"PolicyBot: {shown(fn)} is not callable as fn(observation, mask)")
        self.fn = fn
        self.features: bool = plain_flag("features", features)
        if name is not None and not isinstance(name, str):
            raise ChkobbaError(f"PolicyBot: name must be text, not {shown(name)}")
        if name is not None:
            self.name = name

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        """Ask the policy for an id (and a capture id when the card has several options)."""
        legal = checked_choice(self, view, legal)
        action = self._ask(view, legal, None)
        if action in (KEEP, EXPOSE):
            return Cut(keep=action == KEEP)
        options = options_by_card(legal)
        played = next(card for card in options if card.index == action)
        if len(options[played]) == 1:
            return Play(played, options[played][0])
        choice = self._ask(view, legal, played)
        return Play(played, options[played][choice - FIRST_CAPTURE])

    def spawn(self, seed: int | None) -> PolicyBot:
        """This bot (a policy is deterministic given its inputs, or carries its own rng)."""
        return self

    def _ask(self, view: PlayerView, legal: Sequence[Move], pending: Card | None) -> int:
        observation, mask = policy_input(view, legal, pending, self.features)
        raw = self.fn(observation, mask)
        # An integer (numpy's too), as Gymnasium's step and actions.step take: int(40.9)
        # would play action 40 in silence, and True is no action 1.
        action = plain_integer(raw)
        if type(action) is not int:
            raise IllegalMoveError(
                f"{shown(self)}: the policy returned {shown(raw)}, not an action id (an integer)"
            )
        if not 0 <= action < len(mask) or not mask[action]:
            raise IllegalMoveError(
                f"{shown(self)}: the policy chose action {shown(action)}, which is masked"
            )
        return action

    def __repr__(self) -> str:
        # The call that makes this bot again (given the policy's name), settings included.
        words = [getattr(self.fn, "__name__", type(self.fn).__name__)]
        if self.features:
            words.append("features=True")
        if self.name != PolicyBot.name:
            words.append(f"name={self.name!r}")
        return f"PolicyBot({', '.join(words)})"


class BotActions:
    """Drive ``bot`` through action ids: ``actor(position)`` is the next id to play.

    The bot chooses a core move from the view of the player to act; a move that takes
    two ids (a card with several capture options) returns the card id and queues the
    capture id for the next call (at the same position with the card pending). At a
    pending card it did not select, the bot chooses among that card's captures.

    >>> from chkobba.actions import Position, step
    >>> from chkobba.bots import GreedyBot
    >>> from chkobba.bots import BotActions
    >>> top = cards("2D QH 3C 4C 6C 5C 7C 6S AS AC")   # player 1 holds 4C 5C QH
    >>> state = apply(new_match(), Shuffle(top + tuple(c for c in DECK if c not in top)))
    >>> position = Position(apply(state, Cut(keep=False)))   # the table is 2D 6S AS AC
    >>> actor = BotActions(GreedyBot(seed=0))    # it plays QH x 2D+6S: two ids
    >>> first = actor(position)
    >>> position = step(position, first)
    >>> first, str(position.pending), actor(position)
    (29, 'QH', 43)
    >>> BotActions(GreedyBot)
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: <class '...GreedyBot'> is not a bot: it is a class, not a bot: ...
    """

    def __init__(self, bot: Bot) -> None:
        problem = not_a_bot(bot)
        if problem is not None:
            raise ChkobbaError(f"{shown(bot)} is not a bot: {problem}")
        self.bot = bot
        self._queued: tuple[Position, int] | None = None

    def __copy__(self) -> BotActions:
        # A copy that goes on apart: its own queue and a copy of the bot, made by the bot's
        # own rule (a seeded bot's copy has a generator of its own; a PolicyBot's shares
        # its policy).
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.bot = copy.copy(self.bot)
        return clone

    def __call__(self, position: Position) -> int:
        if not isinstance(position, Position):
            raise ChkobbaError(wrong_type("BotActions", "a Position", position))
        queued, self._queued = self._queued, None
        if queued is not None and position.pending is not None and queued[0] == position:
            return queued[1]
        player = position.current_player
        if player is None:
            raise ChkobbaError(f"{shown(self.bot)} cannot act: nobody is to move (chance or over)")
        legal = legal_moves(position.state)
        if position.pending is not None:  # a card someone else selected: choose its capture
            legal = tuple(m for m in legal if isinstance(m, Play) and m.card is position.pending)
        move = self._choice(position, player, legal)
        ids = action_ids(position, move)
        if len(ids) == 2:
            self._queued = (step(position, ids[0]), ids[1])
        return ids[0]

    def _choice(self, position: Position, player: int, legal: tuple[Move, ...]) -> Move:
        """The bot's move, once it is among ``legal``: else an
        :class:`~chkobba.IllegalMoveError` naming the bot, as the arena's (an id of an
        illegal move would be taken for another move's). An error the bot raises goes
        on, its type unchanged, with a note naming the bot."""
        who = f"bot {bot_label(self.bot)} at seat {player}"
        try:
            move = self.bot.choose(observe(position.state, player), legal)
        except Exception as error:
            add_note(error, f"raised by {who}, choosing an action for BotActions")
            raise
        if among(move, legal):
            return move
        reason = None
        if position.pending is not None and is_legal(position.state, move):
            reason = f"{position.pending} is played already and waits for one of its captures"
        raise IllegalMoveError(refused_choice(who, position.state, move, reason))
