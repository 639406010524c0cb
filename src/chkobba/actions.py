"""One integer action encoding shared by the game-AI adapters (PettingZoo, OpenSpiel).

Reinforcement-learning and game-theory tools want a fixed, finite set of action ids.
Chkobba's moves are mapped onto :data:`NUM_ACTIONS` ids:

=====================  =============================================================
id                     meaning
=====================  =============================================================
``0 … 39``             play the card ``DECK[id]`` (``card.index``: ``AS AH AD AC 2S …``)
``40`` (:data:`KEEP`)   the cutter keeps the top card
``41`` (:data:`EXPOSE`) the cutter exposes the top card on the table
``42 … 69``            choose capture option ``id - 42`` of the card just played
=====================  =============================================================

That is the Tunisian profile's space. Another profile may allow more capture options
(a table that may start with three of a rank, a free choice between an equal card and
a sum, house capture values): its space is :func:`num_actions` ids, the capture ids
running to ``FIRST_CAPTURE + max_capture_options(rules) - 1``; the other ids are the same.

A play takes one or two steps. When the card has at most one capture option the card
id alone is the whole move. When it has several, the card id only *selects* the card: the
same player then picks one option with a capture id (options listed by
:func:`capture_choices`, in deck order, so the numbering is the same in every process).
The in-between point is a :class:`Position` with ``pending`` set.

Every rule is the core's: legal ids come from :func:`~chkobba.legal_moves`, and a step
goes through :func:`~chkobba.apply`, so an illegal id raises
:class:`~chkobba.IllegalMoveError` and is never mapped to some other move.

>>> import random
>>> import attrs
>>> from chkobba.actions import EXPOSE, FIRST_CAPTURE, KEEP, Position, describe, legal_actions, step
>>> position = Position(apply(new_match(), random_shuffle(random.Random(1))))
>>> legal_actions(position)
(40, 41)
>>> position = step(position, EXPOSE)
>>> position.state.phase
<Phase.PLAY: 'play'>
>>> step(position, KEEP)
Traceback (most recent call last):
...
chkobba.errors.IllegalMoveError: Cut is not allowed in phase PLAY

A card with two capture options takes two steps (the worked example's table plus 3♣ 5♥):

>>> position.current_player
1
>>> position = Position(attrs.evolve(position.state, table=cards("2D 6S 3C 5H"),
...                                  hands=(position.state.hands[0], cards("QH 7C 7S"))))
>>> [describe(position, a) for a in legal_actions(position)]
['play 7S', 'play 7C', 'play QH']
>>> position = step(position, card("QH").index)
>>> position.pending, [describe(position, a) for a in legal_actions(position)]
(card('QH'), ['QH x 2D+6S', 'QH x 3C+5H'])
>>> step(position, FIRST_CAPTURE).state.captured[1]
(card('QH'), card('2D'), card('6S'))
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import attrs

from chkobba._describe import integer_count, wrong_type
from chkobba.captures import capture_options
from chkobba.cards import DECK, Card, format_cards
from chkobba.checks import broken_state, table_repeats_limit
from chkobba.engine import apply, illegal_reason, legal_moves
from chkobba.errors import ChkobbaError, IllegalMoveError, shown
from chkobba.moves import Cut, Move, Play, Shuffle
from chkobba.render import board_line, render
from chkobba.rules import TUNISIAN, Rules, not_a_profile
from chkobba.state import Phase, State
from chkobba.views import PlayerView, view_fault

__all__ = [
    "EXPOSE",
    "FIRST_CAPTURE",
    "KEEP",
    "MAX_CAPTURE_OPTIONS",
    "NUM_ACTIONS",
    "NUM_CARD_ACTIONS",
    "Position",
    "action_ids",
    "advance",
    "capture_choices",
    "describe",
    "legal_actions",
    "max_capture_options",
    "move_for",
    "num_actions",
    "render_position",
    "step",
]

#: Ids ``0 … 39`` play a card: the id is the card's position in :data:`~chkobba.DECK`.
NUM_CARD_ACTIONS = len(DECK)
#: The cutter keeps the top card.
KEEP = NUM_CARD_ACTIONS
#: The cutter exposes the top card on the table.
EXPOSE = NUM_CARD_ACTIONS + 1
#: The first capture-choice id: ``FIRST_CAPTURE + k`` picks option ``k``.
FIRST_CAPTURE = NUM_CARD_ACTIONS + 2
#: The most capture options a played card can have under the Tunisian profile.
#:
#: A card is laid without capturing only when no table card has its value, so a value is
#: on the table at most twice, and only the first four table cards can pair up: at worst
#: the table holds one card of every value 1-9 plus two repeats. A king (10) then has
#: 28 groups to choose from (with repeated aces and twos); ``tests/test_actions.py``
#: recomputes this bound.
MAX_CAPTURE_OPTIONS = 28
#: The size of the action space (under the Tunisian profile: see :func:`num_actions`).
NUM_ACTIONS = FIRST_CAPTURE + MAX_CAPTURE_OPTIONS
# The initial table is the only place where a capture value can repeat (a card whose value
# is on the table always captures, so it is never laid): 4 cards, at most 3 repeats.
_INITIAL_TABLE = 4


def max_capture_options(rules: Rules = TUNISIAN) -> int:
    """The most capture options a played card can have under ``rules`` (28 for Tunisian).

    A bound over every table play can reach: each capture value at most once, except the
    repeats the first four table cards bring (two at most, each value at most twice,
    when three of a rank void the deal and no two ranks share a value; three otherwise).

    >>> from chkobba.actions import max_capture_options
    >>> max_capture_options(TUNISIAN), max_capture_options(CARD_RULES_PLUS)
    (28, 56)
    """
    return _max_capture_options(_checked_rules(rules, "max_capture_options"))


def _checked_rules(rules: object, function: str) -> Rules:
    # Checked before the cache, which would first try to hash it.
    if not isinstance(rules, Rules):
        raise ChkobbaError(f"{function}: {not_a_profile(rules)}")
    return rules


@functools.lru_cache(maxsize=64)
def _max_capture_options(rules: Rules) -> int:
    values = sorted(set(rules.capture_values))
    repeats = table_repeats_limit(rules)  # two pairs, or three repeats of one value
    copies = 2 if repeats < _INITIAL_TABLE - 1 else _INITIAL_TABLE
    worst = 0
    for extra in _repeats(values, repeats, copies - 1):
        table = sorted([*values, *extra])
        for value in values:
            singles = table.count(value)
            groups = _groups(tuple(v for v in table if v < value), value)
            worst = max(
                worst, max(singles, groups) if rules.equal_single_first else singles + groups
            )
    return worst


def _repeats(values: list[int], most: int, per_value: int) -> list[tuple[int, ...]]:
    """Every multiset of at most ``most`` repeated values, each value at most ``per_value``."""
    found = []
    for size in range(most + 1):
        for extra in itertools.combinations_with_replacement(values, size):
            if all(extra.count(v) <= per_value for v in extra):
                found.append(extra)
    return found


def _groups(values: tuple[int, ...], target: int) -> int:
    """How many groups of the cards with these ``values`` sum to ``target`` (by counting)."""
    ways = {0: 1}
    for v in values:
        for total, n in list(ways.items()):
            if total + v <= target:
                ways[total + v] = ways.get(total + v, 0) + n
    return ways.get(target, 0)


def num_actions(rules: Rules = TUNISIAN) -> int:
    """The size of the action space under ``rules`` (:data:`NUM_ACTIONS` for Tunisian).

    >>> from chkobba.actions import NUM_ACTIONS, num_actions
    >>> num_actions(TUNISIAN) == NUM_ACTIONS
    True
    """
    return FIRST_CAPTURE + _max_capture_options(_checked_rules(rules, "num_actions"))


@attrs.frozen
class Position:
    """A decision point: a core :class:`~chkobba.State` and, between the two steps of a
    play, the ``pending`` card whose capture its player must still choose.

    Positions are immutable, so copying one (``copy.deepcopy`` included) returns it.

    Player 1 to play on AD 4D 5D 6D, where KC takes AD+4D+5D or 4D+6D:

    >>> import copy, random
    >>> from chkobba.actions import Position
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=True))
    >>> position = Position(state, pending=card("KC"))
    >>> position.pending, position.current_player, copy.deepcopy(position) is position
    (card('KC'), 1, True)
    >>> Position(state, pending=card("7C"))  # 7C takes AD+6D only
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: ... 7C has 1 capture option, nothing to choose
    """

    state: State = attrs.field(validator=lambda _, __, value: _check_state(value))
    pending: Card | None = attrs.field(
        default=None, validator=lambda _, __, value: _check_pending(value)
    )

    def __attrs_post_init__(self) -> None:
        if self.pending is not None:
            _check_pending_play(self.state, self.pending)

    @property
    def current_player(self) -> int | None:
        """Who acts next (the core's current player; a pending card does not change it)."""
        return self.state.current_player

    def __copy__(self) -> Position:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self


def _check_state(state: object, function: str = "Position") -> None:
    if not isinstance(state, State):
        raise ChkobbaError(wrong_type(function, "a State", state))


def _check_pending(pending: object) -> None:
    if pending is not None and not isinstance(pending, Card):
        raise ChkobbaError(f"Position: pending must be a Card or None, not {shown(pending)}")


def _check_pending_play(state: State, pending: Card) -> None:
    """Refuse a pending card that :func:`advance` could not have left: one the mover may
    not play now, or one without a choice of captures."""
    choices = _choices(state, pending)
    reason = illegal_reason(state, Play(pending, choices[0] if choices else frozenset()))
    if reason is None and len(choices) < 2:
        reason = f"{pending} has {len(choices) or 'no'} capture option, nothing to choose"
    if reason is not None:
        raise ChkobbaError(f"Position: {pending} cannot be pending: {reason}")


def _check_position(position: object, function: str) -> None:
    if not isinstance(position, Position):
        message = wrong_type(function, "a Position", position)
        if isinstance(position, State):  # the likeliest slip: say how to make one
            message += " (Position(state) is the position of a State)"
        raise ChkobbaError(message)


def _deck_order(option: frozenset[Card]) -> list[int]:
    return sorted(c.index for c in option)


def capture_choices(state: State | PlayerView, played: Card) -> tuple[frozenset[Card], ...]:
    """The capture options of ``played`` on ``state``'s table, in deck order.

    Options are sorted by their cards' deck positions (each option read in deck order),
    which does not depend on the table's order or on set iteration order. Only the table
    and the rules are read, so a player's :class:`~chkobba.PlayerView` does as well as a
    state (a user interface that holds only its view). A card on the table has none:
    it is in no hand.

    >>> import attrs
    >>> from chkobba.actions import capture_choices
    >>> state = attrs.evolve(new_match(), table=cards("6S 2D 3C 5H"))
    >>> [format_cards(o, "+") for o in capture_choices(state, card("QH"))]
    ['2D+6S', '3C+5H']
    """
    if not isinstance(state, (State, PlayerView)):
        raise ChkobbaError(wrong_type("capture_choices", "a State or a PlayerView", state))
    if not isinstance(played, Card):
        raise ChkobbaError(f"capture_choices: expected a Card, got {shown(played)}")
    return _choices(state, played)


def _choices(state: State | PlayerView, played: Card) -> tuple[frozenset[Card], ...]:
    """:func:`capture_choices` without the checks of its arguments' types (the
    encoding's own calls); a hand-built broken state or view raises the
    :class:`~chkobba.ChkobbaError` that names its fault."""
    try:
        table = state.table
        if type(table) is not tuple:  # ``in`` on an endless iterable would never return
            raise TypeError(f"the table is {shown(table)}, not a tuple")
        if played in table:  # in no hand, so it takes nothing
            return ()
        options = _listed_captures(state, played)
        if options is None:
            options = capture_options(table, played, state.rules)
        return options if len(options) < 2 else tuple(sorted(options, key=_deck_order))
    except ChkobbaError:
        raise
    except Exception as error:
        if isinstance(state, PlayerView):
            raise view_fault(state, error) from None
        raise broken_state(state, error) from None


def _listed_captures(state: State | PlayerView, played: Card) -> tuple[frozenset[Card], ...] | None:
    """The captures of ``played`` among the state's legal plays, or ``None`` where they
    do not tell (a view, another phase, a card not in the mover's hand, a broken state).

    A state lists its plays once and keeps them, and :func:`~chkobba.apply` reads the
    same list: an adapter's step (mask, then action, then move) finds each card's
    captures there instead of working them out again.
    """
    if not isinstance(state, State) or state.phase is not Phase.PLAY:
        return None
    try:
        plays = state.legal_plays
    except ChkobbaError:  # a hand-built state: capture_options still answers
        return None
    captures = tuple(play.capture for play in plays if play.card is played)
    if not captures:  # not in the mover's hand
        return None
    return captures if captures[0] else ()  # a lay: the card's only play captures nothing


def legal_actions(position: Position) -> tuple[int, ...]:
    """The legal action ids at ``position``, ascending; ``()`` at a chance node or the end.

    >>> import random
    >>> from chkobba.actions import Position, legal_actions
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=True))
    >>> [DECK[a] for a in legal_actions(Position(state))]  # a card's id is its deck index
    [card('7C'), card('QS'), card('KC')]
    >>> legal_actions(Position(state, pending=card("KC")))  # KC's two capture options
    (42, 43)
    >>> legal_actions(Position(new_match()))  # the shuffle is chance: no id
    ()
    """
    _check_position(position, "legal_actions")
    if position.pending is not None:
        count = len(_choices(position.state, position.pending))
        return tuple(range(FIRST_CAPTURE, FIRST_CAPTURE + count))
    return tuple(sorted({_first_id(move) for move in legal_moves(position.state)}))


def _first_id(move: Move) -> int:
    if isinstance(move, Cut):
        return KEEP if move.keep else EXPOSE
    if isinstance(move, Play):
        return move.card.index
    raise IllegalMoveError(f"{move} has no action id: the shuffle is a chance event")


def action_ids(position: Position, move: Move) -> tuple[int, ...]:
    """The ids that make ``move`` at ``position``: one, or a card then a capture choice.

    Only the ids are computed; :func:`step` decides whether they are legal.

    >>> import attrs
    >>> from chkobba.actions import Position, action_ids
    >>> state = attrs.evolve(new_match(), table=cards("6S 2D 3C 5H"))
    >>> action_ids(Position(state), Play(card("QH"), cards("3C 5H")))
    (29, 43)
    """
    _check_position(position, "action_ids")
    if not isinstance(move, (Shuffle, Cut, Play)):
        raise ChkobbaError(f"action_ids: expected a Move, got {shown(move)}")
    pending = position.pending
    if pending is not None:
        # Only the capture of the pending card is left to choose.
        choices = _choices(position.state, pending)
        if isinstance(move, Play) and move.card is pending and move.capture in choices:
            return (FIRST_CAPTURE + choices.index(move.capture),)
        raise IllegalMoveError(f"{move} cannot be made: {pending} waits for its capture")
    first = _first_id(move)
    if isinstance(move, Play):
        choices = _choices(position.state, move.card)
        if len(choices) > 1 and move.capture in choices:
            return (first, FIRST_CAPTURE + choices.index(move.capture))
    return (first,)


def step(position: Position, action: int) -> Position:
    """The position after action id ``action``; raises :class:`~chkobba.IllegalMoveError`.

    ``action`` may be any integer type (``numpy.int64`` included). The input is unchanged.

    >>> import random
    >>> from chkobba.actions import Position, step
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=True))
    >>> after = step(Position(state), card("7C").index)  # 7C has one option: AD+6D
    >>> after.state.captured[1], after.current_player
    ((card('7C'), card('AD'), card('6D')), 0)
    >>> step(Position(state), card("KC").index).pending  # KC has two: chosen next
    card('KC')
    >>> step(Position(state), 70)
    Traceback (most recent call last):
    ...
    chkobba.errors.IllegalMoveError: action 70 is not an id from 0 to 69
    """
    _check_position(position, "step")
    return advance(position, action)[0]


def advance(position: Position, action: int) -> tuple[Position, Move | None]:
    """:func:`step`, also returning the core move made (``None`` when a card is pending).

    >>> import random
    >>> from chkobba.actions import KEEP, Position, advance
    >>> position = Position(apply(new_match(), random_shuffle(random.Random(1))))
    >>> advance(position, KEEP)[1]
    Cut(keep=True)
    """
    _check_position(position, "advance")
    move = move_for(position, action)
    if move is not None:
        return Position(apply(position.state, move)), move
    # A card with several options: committed only if the core accepts it with one of them.
    state = position.state
    played = DECK[_as_id(action, num_actions(state.rules))]
    choices = _choices(state, played)
    reason = illegal_reason(state, Play(played, choices[0]))
    if reason is not None:
        raise IllegalMoveError(reason)
    most = max_capture_options(state.rules)
    if len(choices) > most:
        # Unreachable in a real deal (see max_capture_options); a hand-built table could.
        raise ChkobbaError(
            f"{played} has {len(choices)} capture options; the action encoding numbers at "
            f"most {most}"
        )
    return Position(state, pending=played), None


def move_for(position: Position, action: int) -> Move | None:
    """The core move that action id ``action`` completes at ``position``, unchecked.

    ``None`` when the id selects a card that has several capture options (its capture is
    chosen next). Raises :class:`~chkobba.IllegalMoveError` only for an id that names no
    move here (out of range, or a capture choice with nothing to choose); whether the
    move is legal is :func:`~chkobba.apply`'s decision.

    >>> from chkobba.actions import EXPOSE, Position, move_for
    >>> move_for(Position(new_match()), EXPOSE)
    Cut(keep=False)
    """
    _check_position(position, "move_for")
    state, pending = position.state, position.pending
    action = _as_id(action, num_actions(state.rules))
    if pending is not None:
        return Play(pending, _chosen(state, pending, action))
    if action in (KEEP, EXPOSE):
        return Cut(keep=action == KEEP)
    if action >= FIRST_CAPTURE:
        raise IllegalMoveError(
            f"action {action} chooses a capture, but no card is waiting for one "
            f"(phase {state.phase.name})"
        )
    played = DECK[action]
    choices = _choices(state, played) if state.phase is Phase.PLAY else ()
    if len(choices) > 1:
        return None
    return Play(played, choices[0] if choices else frozenset())


def _as_id(action: int, limit: int | None = NUM_ACTIONS) -> int:
    # A bool is an int to Python (and numpy's has an __index__ before numpy 2.3), but True
    # as "action 1" is a caller's mistake.
    value = integer_count(action)
    if value is None:
        raise IllegalMoveError(f"action {shown(action)} is not an integer id")
    if limit is not None and not 0 <= value < limit:
        raise IllegalMoveError(f"action {shown(value)} is not an id from 0 to {limit - 1}")
    return value


def _chosen(state: State, pending: Card, action: int) -> frozenset[Card]:
    choices = _choices(state, pending)
    k = action - FIRST_CAPTURE
    if not 0 <= k < len(choices):
        first, last = FIRST_CAPTURE, FIRST_CAPTURE + len(choices) - 1
        raise IllegalMoveError(
            f"action {action}: {pending} was played and its capture must be chosen "
            f"with an id from {first} to {last}"
        )
    return choices[k]


def describe(position: Position, action: int) -> str:
    """A short text for action id ``action`` at ``position`` (never raises for an id).

    >>> from chkobba.actions import KEEP, Position, describe
    >>> describe(Position(new_match()), KEEP), describe(Position(new_match()), 44)
    ('keep', 'capture option 2')
    """
    _check_position(position, "describe")
    action = _as_id(action, limit=None)
    if action == KEEP:
        return "keep"
    if action == EXPOSE:
        return "expose"
    if 0 <= action < NUM_CARD_ACTIONS:
        return f"play {DECK[action]}"
    k = action - FIRST_CAPTURE
    pending = position.pending
    if pending is not None and k >= 0:
        choices = _choices(position.state, pending)
        if k < len(choices):
            return f"{pending} x {format_cards(choices[k], '+')}"
    most = max_capture_options(position.state.rules)
    return f"capture option {k}" if 0 <= k < most else f"action {shown(action)}"


def render_position(position: Position) -> str:
    """The text board of :func:`~chkobba.render` plus the pending card, if any.

    >>> import random
    >>> from chkobba.actions import Position, render_position
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=True))
    >>> render_position(Position(state)) == render(state)
    True
    >>> print(render_position(Position(state, pending=card("KC"))).splitlines()[-1])
    Pending    K♣ waits for its capture choice
    """
    _check_position(position, "render_position")
    text = render(position.state)
    if position.pending is not None:
        pending = position.pending.symbol
        text += "\n" + board_line("Pending", f"{pending} waits for its capture choice")
    return text
