"""Fixed-size observation vectors for learning agents, built from a :class:`~chkobba.PlayerView`.

The vector only ever holds what the viewer may know: it is computed from
:func:`~chkobba.observe` (plus the pending card of a two-step play, which is face up).
It is *egocentric*: seats are counted from the viewer (offset 0 is the viewer, 1 the
player at their right, …) and sides as "ours", "theirs" (the next side: the player at
our right, or with 4 players the other partnership) and, with 3 players, "third" (the
side after that), so one policy can play any seat. Every entry is a float; card sets are
40 bits in deck order (``card.index``).

>>> import random
>>> from chkobba.observations import LAYOUT, OBSERVATION_SIZE, observation_vector, piece
>>> state = apply(new_match(), random_shuffle(random.Random(1)))
>>> vector = observation_vector(observe(state, 1))
>>> len(vector) == OBSERVATION_SIZE
True
>>> [name for name, _ in LAYOUT][:6]
['hand', 'table', 'our_pile', 'their_pile', 'cut_card', 'pending']
>>> piece(vector, "cut_card").index(1.0) == state.stock[0].index  # the cutter sees it
True
>>> sum(piece(observation_vector(observe(state, 0)), "cut_card"))  # the dealer does not
0.0
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any, Protocol, SupportsFloat

from chkobba._describe import finite_number, wrong_type
from chkobba.captures import capture_options
from chkobba.cards import DECK, Card
from chkobba.checks import broken_state
from chkobba.errors import ChkobbaError, shown
from chkobba.rules import TUNISIAN, Rules, not_a_profile
from chkobba.state import HAND_SIZE, TABLE_SIZE, Phase, State
from chkobba.views import PlayerView, check_view

__all__ = [
    "DEAL_REWARD_LIMIT",
    "LAYOUT",
    "OBSERVATION_SIZE",
    "SCORE_CAP",
    "cap_scores",
    "observation_bounds",
    "observation_vector",
    "piece",
    "player_returns",
]

_CARDS = len(DECK)
_SEATS = 4  # room for the largest table; unused seats stay 0 with fewer players
_PHASES = tuple(Phase)
#: Chkobba counts are divided by this. A side plays 36/sides cards a deal, so it makes at
#: most 18 chkobbas (12 with three sides); observation_bounds keeps its looser bound, all
#: 36 plays (35 chkobbas, 36 where a sweep with the last card counts), as it was, so that
#: a saved model's observation space still matches.
CHKOBBA_SCALE = 10.0
_PLAYS_PER_DEAL = len(DECK) - TABLE_SIZE

#: The pieces of the vector, in order: ``(name, size)``.
#:
#: - ``hand``, ``table``, ``our_pile``, ``their_pile``: card sets (the piles of this deal,
#:   or of the last deal between deals);
#: - ``cut_card``: the card the cutter looks at (the cutter's own view only);
#: - ``pending``: a card played whose capture is still being chosen;
#: - ``phase``: one-hot over ``SHUFFLE CUT PLAY OVER``; ``choosing_capture``: 1 while a
#:   card is pending; ``four_players``: 1 in a partnership match;
#: - ``current_player``, ``dealer``, ``last_capturer``: one-hot seat offsets from the
#:   viewer (all zero when nobody);
#: - ``hand_sizes``: cards in each seat's hand / 3; ``stock_size``: cards in the stock / 40;
#: - ``chkobbas``: ours, theirs this deal / 10; ``scores``: ours, theirs / the target;
#: - ``winner``: (we won, they won);
#: - ``three_players``: 1 in a 3-player match; ``third_pile``, ``third_chkobbas``,
#:   ``third_score``, ``third_won``: the third side's pile, chkobbas, score and win, as
#:   above (all 0 unless 3 players).
LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", _CARDS),
    ("table", _CARDS),
    ("our_pile", _CARDS),
    ("their_pile", _CARDS),
    ("cut_card", _CARDS),
    ("pending", _CARDS),
    ("phase", len(_PHASES)),
    ("choosing_capture", 1),
    ("four_players", 1),
    ("current_player", _SEATS),
    ("dealer", _SEATS),
    ("last_capturer", _SEATS),
    ("hand_sizes", _SEATS),
    ("stock_size", 1),
    ("chkobbas", 2),
    ("scores", 2),
    ("winner", 2),
    ("three_players", 1),
    ("third_pile", _CARDS),
    ("third_chkobbas", 1),
    ("third_score", 1),
    ("third_won", 1),
)
#: The length of every observation vector.
OBSERVATION_SIZE = sum(size for _, size in LAYOUT)
_OFFSETS: dict[str, tuple[int, int]] = {}
_start = 0
for _name, _size in LAYOUT:
    _OFFSETS[_name] = (_start, _start + _size)
    _start += _size
del _start, _name, _size
# Where each piece starts, for _observation_vector.
_HAND, _TABLE, _OUR_PILE, _THEIR_PILE, _CUT_CARD, _PENDING, _PHASE = (
    _OFFSETS[name][0]
    for name in ("hand", "table", "our_pile", "their_pile", "cut_card", "pending", "phase")
)
_CHOOSING_CAPTURE, _FOUR_PLAYERS, _CURRENT_PLAYER, _DEALER, _LAST_CAPTURER = (
    _OFFSETS[name][0]
    for name in ("choosing_capture", "four_players", "current_player", "dealer", "last_capturer")
)
_HAND_SIZES, _STOCK_SIZE, _CHKOBBAS, _SCORES, _WINNER = (
    _OFFSETS[name][0] for name in ("hand_sizes", "stock_size", "chkobbas", "scores", "winner")
)
_THREE_PLAYERS, _THIRD_PILE, _THIRD_CHKOBBAS, _THIRD_SCORE, _THIRD_WON = (
    _OFFSETS[name][0]
    for name in ("three_players", "third_pile", "third_chkobbas", "third_score", "third_won")
)


class _Vector(Protocol):
    """What :func:`piece` slices: a list of numbers, or a numpy array (the adapters')."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: slice, /) -> Iterable[SupportsFloat]: ...


def piece(vector: _Vector, name: str) -> list[float]:
    """The slice of ``vector`` holding the piece ``name`` of :data:`LAYOUT`, as floats.

    ``vector`` may be longer than :data:`OBSERVATION_SIZE` (features appended), not
    shorter. It may be a numpy array, as the adapters' observations are; the entries
    come back as Python floats all the same (``json`` writes them).

    The positions of a piece are the slice of the vector's indexes:

    >>> from chkobba.observations import OBSERVATION_SIZE, piece
    >>> piece(range(OBSERVATION_SIZE), "phase")
    [240.0, 241.0, 242.0, 243.0]
    >>> piece([0.0] * OBSERVATION_SIZE, "score")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: 'score' is not an observation piece: hand, table, ..., third_won
    """
    if not isinstance(name, str) or name not in _OFFSETS:
        raise ChkobbaError(f"{shown(name)} is not an observation piece: {', '.join(_OFFSETS)}")
    try:
        size = len(vector)
    except TypeError:
        size = None
    if size is None or isinstance(vector, (str, bytes)):
        raise ChkobbaError(f"piece: expected an observation vector, got {shown(vector)}")
    if size < OBSERVATION_SIZE:
        raise ChkobbaError(
            f"piece: an observation vector has {OBSERVATION_SIZE} entries, not {size}"
        )
    start, end = _OFFSETS[name]
    entries: Any = vector[start:end]
    if hasattr(entries, "tolist"):  # a numpy array: its items as Python's, at once
        entries = entries.tolist()
    elif not isinstance(entries, list):  # a range, a tuple, ...
        entries = list(entries)
    found = [entry for entry in entries if type(entry) is float]  # the common case, at once
    if len(found) == len(entries):
        return found
    if all(type(entry) in _NUMBER_TYPES for entry in entries):  # ints, numpy's scalars
        try:
            return [float(entry) for entry in entries]
        except (TypeError, ValueError, OverflowError):  # one that is no number after all
            pass
    return [entry if type(entry) is float else _number(entry, name) for entry in entries]


#: The types whose values piece has taken as numbers (numpy's scalars join once seen).
_NUMBER_TYPES: set[type] = {float, int, bool}


def _number(entry: object, name: str) -> float:
    """``entry`` of the piece ``name`` as a float: a real number (numpy's included, its
    booleans too), not text, a complex number or an array."""
    refused = isinstance(entry, (str, bytes, bytearray)) or (
        isinstance(entry, numbers.Complex) and not isinstance(entry, numbers.Real)
    )
    if not refused and hasattr(type(entry), "__float__"):
        try:
            number = float(entry)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):  # an array of several, 10**400
            pass
        else:
            _NUMBER_TYPES.add(type(entry))
            return number
    raise ChkobbaError(f"piece: the {name} piece holds {shown(entry)}, not a number")


def observation_bounds(rules: Rules = TUNISIAN) -> tuple[list[float], list[float]]:
    """Per-entry lower and upper bounds of :func:`observation_vector` under ``rules``.

    Every entry is at least 0. Scores have no upper bound (``inf``): with equal totals at
    or past the target the match goes on. Everything else is at most 1, except chkobbas:
    their bound is 3.5 (3.6 where a sweep with the last card counts), looser than the 18
    a side can make in a deal (1.8), and kept so that a saved model's space still matches.

    >>> import attrs
    >>> from chkobba.observations import OBSERVATION_SIZE, observation_bounds, piece
    >>> low, high = observation_bounds()
    >>> len(low) == len(high) == OBSERVATION_SIZE, max(low)
    (True, 0.0)
    >>> piece(high, "chkobbas"), piece(high, "scores"), piece(high, "stock_size")
    ([3.5, 3.5], [inf, inf], [1.0])
    >>> piece(observation_bounds(attrs.evolve(TUNISIAN, last_card_chkobba=True))[1], "chkobbas")
    [3.6, 3.6]
    """
    if not isinstance(rules, Rules):
        raise ChkobbaError(f"observation_bounds: {not_a_profile(rules)}")
    most = _PLAYS_PER_DEAL - (0 if rules.last_card_chkobba else 1)
    high = [1.0] * OBSERVATION_SIZE
    for name in ("chkobbas", "scores", "third_chkobbas", "third_score"):
        start, end = _OFFSETS[name]
        bound = float("inf") if name.endswith("score") or name == "scores" else most / CHKOBBA_SCALE
        high[start:end] = [bound] * (end - start)
    return [0.0] * OBSERVATION_SIZE, high


#: Scores enter the Gymnasium observation (and :class:`~chkobba.bots.policy.PolicyBot`'s)
#: divided by the target and capped here (4 targets: 84 points at 21), so its observation
#: space is finite; no real match comes near it.
SCORE_CAP = 4.0
_SCORE_ENTRIES = (_SCORES, _SCORES + 1, _THIRD_SCORE)

#: The adapters' ``deal_reward`` lies from ``-DEAL_REWARD_LIMIT`` to ``DEAL_REWARD_LIMIT``:
#: times a deal's points difference (at most a few dozen), every reward stays finite.
DEAL_REWARD_LIMIT = 1e6


def deal_reward_option(value: object) -> float:
    """The adapters' ``deal_reward`` option as a float, checked (shared by Gymnasium and
    PettingZoo): a finite number within :data:`DEAL_REWARD_LIMIT`."""
    number = finite_number("deal_reward", value)
    if abs(number) > DEAL_REWARD_LIMIT:
        raise ChkobbaError(
            f"deal_reward must be from -{DEAL_REWARD_LIMIT:,.0f} to {DEAL_REWARD_LIMIT:,.0f} "
            f"(the rewards must stay finite), not {shown(value)}"
        )
    return number


def cap_scores(vector: list[float]) -> list[float]:
    """``vector`` (an observation, features may follow) with its scores capped at
    :data:`SCORE_CAP`, changed in place and returned: the Gymnasium observation.

    >>> from chkobba.observations import OBSERVATION_SIZE, cap_scores, piece
    >>> vector = cap_scores([9.0] * OBSERVATION_SIZE)
    >>> piece(vector, "scores"), piece(vector, "third_score"), piece(vector, "stock_size")
    ([4.0, 4.0], [4.0], [9.0])
    """
    try:
        # A list or a numpy array (the Gymnasium observation); text is no observation.
        if isinstance(vector, (str, bytes)) or len(vector) < OBSERVATION_SIZE:
            raise TypeError("not an observation")
        for entry in _SCORE_ENTRIES:
            if vector[entry] > SCORE_CAP:
                vector[entry] = SCORE_CAP
    except TypeError:  # an entry that is no number compares with nothing either
        raise ChkobbaError(
            f"cap_scores: expected an observation, a list of at least {OBSERVATION_SIZE} "
            f"numbers, not {shown(vector)}"
        ) from None
    return vector


def observation_vector(view: PlayerView, pending: Card | None = None) -> list[float]:
    """The observation of ``view`` (plus a ``pending`` card) as :data:`OBSERVATION_SIZE` floats.

    Player 0's observation once play begins, player 1 to move:

    >>> import random
    >>> from chkobba.observations import observation_vector, piece
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    >>> vector = observation_vector(observe(state, 0))
    >>> [DECK[i] for i, bit in enumerate(piece(vector, "hand")) if bit]
    [card('5D'), card('7D'), card('QC')]
    >>> piece(vector, "phase"), piece(vector, "current_player")  # PLAY; the seat at our right
    ([0.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0])
    >>> piece(vector, "hand_sizes"), piece(vector, "stock_size")  # 3 of 3 cards each, 30 of 40
    ([1.0, 1.0, 0.0, 0.0], [0.75])
    """
    if not isinstance(view, PlayerView):
        raise ChkobbaError(wrong_type("observation_vector", "a PlayerView", view))
    if pending is not None and not isinstance(pending, Card):
        raise ChkobbaError(
            f"observation_vector: pending must be a Card or None, not {shown(pending)}"
        )
    check_pending("observation_vector", view, pending)
    try:
        return _observation_vector(view, pending)
    except (
        AttributeError,
        TypeError,
        IndexError,
        KeyError,
        ValueError,
        ZeroDivisionError,
        OverflowError,  # a count too large for a float
    ) as error:
        raise broken_view("observation_vector", view, error) from None


# Shared with chkobba.features and chkobba.bots.policy (not in __all__), which take a
# pending card beside a view alike.
def check_pending(function: str, view: PlayerView, pending: Card | None) -> None:
    """Refuse a ``pending`` card that no position seen as ``view`` can have, as
    :class:`~chkobba.actions.Position` refuses it: the mover's card (in ``view.hand`` when
    the viewer moves, else not), on the table or in no pile, with a choice of captures.

    >>> import random
    >>> from chkobba.observations import check_pending
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=True))
    >>> check_pending("f", observe(state, 1), card("KC"))  # AD+4D+5D or 4D+6D
    >>> check_pending("f", observe(state, 1), card("AD"))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: f: AD cannot be pending: it lies on the table
    """
    if pending is None:
        return
    try:
        reason = _pending_problem(view, pending)
    except Exception as error:  # a view built by hand can be broken (see check_view)
        raise broken_view(function, view, error) from None
    if reason is not None:
        raise ChkobbaError(f"{function}: {pending} cannot be pending: {reason}")


def _pending_problem(view: PlayerView, pending: Card) -> str | None:
    mover = view.current_player
    if view.phase is not Phase.PLAY or mover is None:
        return f"nothing is played in phase {view.phase.name}"
    if pending in view.table:
        return "it lies on the table"
    if any(pending in pile for pile in view.captured):
        return "it lies in a pile"
    if view.player == mover and pending not in view.hand:
        return f"it is not in the hand of player {mover}, who moves"
    if view.player != mover and pending in view.hand:
        return f"it is in player {view.player}'s hand, and player {mover} moves"
    options = len(capture_options(view.table, pending, view.rules))
    if options < 2:
        return f"it has {options or 'no'} capture option{'s' * (options != 1)}, nothing to choose"
    return None


def broken_view(function: str, view: PlayerView, error: Exception) -> ChkobbaError:
    """The error ``function`` raises when ``error`` escaped it on a hand-built view: what
    :func:`~chkobba.check_view` finds wrong with it, as ``broken_state`` does for states."""
    try:
        check_view(view)
        problem = type(error).__name__  # check_view passes it: say what escaped
    except ChkobbaError as found:
        problem = str(found).removeprefix("inconsistent view: ")
    except Exception:  # a view too broken even to check: say so, never fail here
        problem = type(error).__name__
    return ChkobbaError(f"{function}: the view is inconsistent: {problem} (see check_view)")


def _observation_vector(view: PlayerView, pending: Card | None) -> list[float]:
    # Written out with each piece's start as a constant (no helper calls, no lookups by
    # name): every step of every adapter builds one, often more.
    vector = [0.0] * OBSERVATION_SIZE
    me, players, ours, sides = view.player, view.players, view.side, view.sides
    # Sides from ours on: ours, theirs (the next side) and, with 3 players, the third.
    theirs, third = (ours + 1) % sides, (ours + 2) % sides
    captured = view.captured
    for start, group in (
        (_HAND, view.hand),
        (_TABLE, view.table),
        (_OUR_PILE, captured[ours]),
        (_THEIR_PILE, captured[theirs]),
    ):
        for c in group:
            vector[start + c.index] = 1.0
    if view.cut_card is not None:
        vector[_CUT_CARD + view.cut_card.index] = 1.0
    phase = view.phase
    vector[_PHASE + _PHASES.index(phase)] = 1.0
    if pending is not None:
        vector[_PENDING + pending.index] = 1.0
        if phase is Phase.PLAY:
            vector[_CHOOSING_CAPTURE] = 1.0
    if players == 4:
        vector[_FOUR_PLAYERS] = 1.0
    for start, player in (
        (_CURRENT_PLAYER, view.current_player),
        (_DEALER, view.dealer),
        (_LAST_CAPTURER, view.last_capturer),
    ):
        if player is not None:
            vector[start + (player - me) % players] = 1.0
    for player, size in enumerate(view.hand_sizes):
        vector[_HAND_SIZES + (player - me) % players] = size / HAND_SIZE
    vector[_STOCK_SIZE] = view.stock_size / _CARDS
    chkobbas, scores, target, winner = view.chkobbas, view.scores, view.rules.target, view.winner
    vector[_CHKOBBAS] = chkobbas[ours] / CHKOBBA_SCALE
    vector[_CHKOBBAS + 1] = chkobbas[theirs] / CHKOBBA_SCALE
    vector[_SCORES] = scores[ours] / target
    vector[_SCORES + 1] = scores[theirs] / target
    vector[_WINNER] = float(winner == ours)
    vector[_WINNER + 1] = float(winner == theirs)
    if sides == 3:
        vector[_THREE_PLAYERS] = 1.0
        for c in captured[third]:
            vector[_THIRD_PILE + c.index] = 1.0
        vector[_THIRD_CHKOBBAS] = chkobbas[third] / CHKOBBA_SCALE
        vector[_THIRD_SCORE] = scores[third] / target
        vector[_THIRD_WON] = float(winner == third)
    return vector


def player_returns(state: State, single_deal: bool = False) -> tuple[float, ...]:
    """Each player's zero-sum reward at the end of an episode (the adapters' returns).

    A match: 1 to the winning side's players, ``-1 / (sides - 1)`` to the others (``-1``
    with two sides), 0 to all while there is no winner. One deal (``single_deal``): the
    side's points minus the mean of the other sides' points, so the point difference with
    two sides. Partners get their side's reward.

    >>> import attrs
    >>> from chkobba.observations import player_returns
    >>> three = attrs.evolve(new_match(3, rules=CARD_RULES_PLUS), winner=1)
    >>> player_returns(three)
    (-0.5, 1.0, -0.5)
    """
    if not isinstance(state, State):
        raise ChkobbaError(wrong_type("player_returns", "a State", state))
    if single_deal is not True and single_deal is not False:
        raise ChkobbaError(
            f"player_returns: single_deal must be True or False, not {shown(single_deal)}"
        )
    try:  # free unless it fails: a hand-built state can be broken (see check_state)
        return _returns(state, single_deal)
    except Exception as error:
        raise broken_state(state, error) from None


def _returns(state: State, single_deal: bool) -> tuple[float, ...]:
    # The profile's count of sides, not State.sides: it refuses a player count the profile
    # does not deal to, before anything is sized by it.
    sides = state.rules.sides(state.players)
    if single_deal and state.deal_scores:
        points = state.deal_scores[-1].points
        total = sum(points)
        by_side = [p - (total - p) / (sides - 1) for p in points]
    elif state.winner is None:
        by_side = [0.0] * sides
    else:
        by_side = [1.0 if s == state.winner else -1.0 / (sides - 1) for s in range(sides)]
    return tuple(float(by_side[p % sides]) for p in range(state.players))
