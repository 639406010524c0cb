"""Move reviews: what the strongest bot thinks of every legal move.

:func:`rank_moves` asks a bot with an ``evaluate`` method (by default
:class:`~chkobba.bots.ExpertBot`) for every legal move's expected deal points
difference, from the mover's side, best first. :func:`review_record` does it for every
decision in a record (of one seat or all): every cut, keep or expose, and every play with a
choice, like a chess engine's game review: each :class:`MoveReview` says what was played,
what the best move was and how many points the choice lost. ``chkobba analyse`` prints
these, and ``chkobba play``'s ``hint`` shows :func:`hint_text`.

>>> import random
>>> from chkobba.bots.analysis import rank_moves
>>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
>>> while state.stock:
...     state = apply(state, legal_moves(state)[0])
>>> ranked = rank_moves(observe(state, state.current_player), legal_moves(state))
>>> ranked[0].value >= ranked[-1].value       # exact here: nothing is hidden any more
True
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeGuard, runtime_checkable

import attrs

from chkobba._describe import bot_label, integral, wrong_type
from chkobba.bots.base import SeededBot
from chkobba.bots.expert import ExpertBot
from chkobba.bots.greedy import GreedyBot
from chkobba.bots.ismcts import ISMCTSBot
from chkobba.engine import apply, legal_moves
from chkobba.errors import ChkobbaError, IllegalMoveError, RecordError, items_of, shown
from chkobba.moves import Cut, Move, Play, Shuffle
from chkobba.records import Record
from chkobba.state import Phase
from chkobba.views import PlayerView, observe

__all__ = [
    "RECHECK",
    "Evaluator",
    "MoveReview",
    "MoveValue",
    "hint_text",
    "points_text",
    "rank_moves",
    "review_record",
    "worst",
]


#: A reviewed move (a play or a cut) whose loss the search puts at this or more (deal
#: points), or whose loss it cannot tell (it never tried the move), is searched again: the
#: move and the best one each by a search committed to it (:meth:`ISMCTSBot.value_of
#: <chkobba.bots.ISMCTSBot.value_of>`), and their values are those of these searches.
RECHECK = 0.25


@runtime_checkable
class Evaluator(Protocol):
    """A bot that can score every legal move (``ISMCTSBot``, ``ExpertBot``).

    Any mapping from the moves to numbers will do (read only): a ``dict[Move, float]``,
    or the ``dict[Move, int]`` of :func:`~chkobba.bots.endgame.move_values`.

    For example, an evaluator that knows the whole state (for a puzzle, not for play):

    >>> import random
    >>> from chkobba.bots.analysis import rank_moves
    >>> from chkobba.bots.endgame import move_values
    >>> class Exact:
    ...     def __init__(self, state):
    ...         self.state = state
    ...     def evaluate(self, view, legal):
    ...         return move_values(self.state)
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(8))), Cut(keep=False))
    >>> while state.stock:                       # play to the last round
    ...     state = apply(state, legal_moves(state)[0])
    >>> ranked = rank_moves(observe(state, 1), legal_moves(state), Exact(state))
    >>> [(str(item.move), item.value) for item in ranked]
    [('AD', 2), ('3S', -1), ('6C', -1)]
    """

    def evaluate(self, view: PlayerView, legal: tuple[Move, ...], /) -> Mapping[Move, float]:
        """Each move's expected deal points difference for the mover's side (called
        positionally, so the parameters may have any names)."""
        ...


def _float_code(value: object) -> str:
    """``repr(value)``, but code for a move never tried: ``float('-inf')``, not ``-inf``."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    return repr(value)


def _check_move(owner: str, move: object) -> None:
    if not isinstance(move, (Shuffle, Cut, Play)):
        raise ChkobbaError(f"{owner}: {shown(move)} is not a move")


# Typed as their fields (a type checker reads the constructor from them); any value is
# checked at run time.
def _valued_move(instance: object, attribute: object, move: Move) -> None:
    _check_move("MoveValue", move)


def _reviewed_move(instance: object, attribute: object, move: Move) -> None:
    _check_move("MoveReview", move)


def _number_value(instance: object, attribute: object, value: float) -> None:
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise ChkobbaError(f"MoveValue: value must be a number, not {shown(value)}")
    try:  # a number a float holds: the value is points, and to_dict writes a float
        float(value)
    except (OverflowError, ValueError, TypeError):
        raise ChkobbaError(
            f"MoveValue: value must be a number a float holds, not {shown(value)}"
        ) from None


def _count(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    _check_count("MoveReview", attribute.name, value, 0)


def _ranked(value: Iterable[MoveValue]) -> tuple[MoveValue, ...]:
    return items_of(value, "MoveReview: ranked")


@attrs.frozen
class MoveValue:
    """A legal move and its expected deal points difference for the mover's side.

    >>> from chkobba.bots.analysis import MoveValue
    >>> MoveValue(parse_move("QH x 2D+6S"), 1.5)
    MoveValue(move=Play(card('QH'), cards('2D 6S')), value=1.5)
    >>> MoveValue(parse_move("5C"), float("-inf"))      # a move the search never tried
    MoveValue(move=Play(card('5C')), value=float('-inf'))
    """

    move: Move = attrs.field(validator=_valued_move)
    value: float = attrs.field(repr=_float_code, validator=_number_value)

    def to_dict(self) -> dict[str, Any]:
        """Plain data, ready for :func:`json.dumps` and a browser's ``JSON.parse``: the
        move as text and its value rounded to 3 places, ``None`` (JSON's ``null``) for a
        move the search never tried, whose ``-inf`` JSON cannot write (and for any other
        value that is no finite number, ``inf`` or ``nan``, which no search gives).

        >>> from chkobba import parse_move
        >>> from chkobba.bots.analysis import MoveValue
        >>> MoveValue(parse_move("QH x 2D+6S"), 1.23456).to_dict()
        {'move': 'QH x 2D+6S', 'value': 1.235}
        >>> MoveValue(parse_move("5C"), float("-inf")).to_dict()
        {'move': '5C', 'value': None}
        """
        return {"move": str(self.move), "value": _number(self.value)}


@attrs.frozen
class MoveReview:
    """One reviewed move of a record: a play, or a cut (``Cut(keep=True)`` or
    ``Cut(keep=False)``, ranked with the other).

    ``index`` is the move's position in the record (from 0), ``ranked`` every legal move
    best first, ``loss`` how many expected deal points the played move gave up against
    the best one (0 when the best was played; NaN, unknown, when the search never tried
    the played move: its value is ``-inf``).

    >>> from chkobba.bots.analysis import MoveReview, MoveValue
    >>> take, lay = parse_move("QH x 2D+6S"), parse_move("5C")
    >>> review = MoveReview(2, 1, lay, (MoveValue(take, 1.5), MoveValue(lay, -0.25)))
    >>> print(review.best.move, review.loss)
    QH x 2D+6S 1.75
    >>> MoveReview(2, 1, lay, (MoveValue(take, 1.5), MoveValue(lay, float("-inf")))).loss
    nan
    >>> keep, expose = Cut(keep=True), Cut(keep=False)
    >>> cut = MoveReview(1, 1, keep, (MoveValue(expose, 0.43), MoveValue(keep, 0.3)))
    >>> print(cut.played, cut.best.move, round(cut.loss, 2))
    keep expose 0.13
    """

    index: int = attrs.field(validator=_count)
    player: int = attrs.field(validator=_count)
    played: Move = attrs.field(validator=_reviewed_move)
    ranked: tuple[MoveValue, ...] = attrs.field(converter=_ranked)

    def __attrs_post_init__(self) -> None:
        if not self.ranked:
            raise ChkobbaError("MoveReview: ranked holds no move")
        moves = []
        for item in self.ranked:
            if not isinstance(item, MoveValue):
                raise ChkobbaError(f"MoveReview: ranked holds {shown(item)}, not a MoveValue")
            if item.move in moves:
                raise ChkobbaError(f"MoveReview: ranked holds {item.move} twice")
            moves.append(item.move)
        if self.played not in moves:
            raise ChkobbaError(f"MoveReview: the move played, {self.played}, is not ranked")

    @property
    def best(self) -> MoveValue:
        """The move the bot rates highest."""
        return self.ranked[0]

    @property
    def loss(self) -> float:
        """Expected deal points given up by the played move (>= 0), or NaN when the search
        never tried it (a search of few iterations): no loss is known, so :func:`worst`
        and ``chkobba analyse`` flag none."""
        played = next(item.value for item in self.ranked if item.move == self.played)
        if not math.isfinite(played):
            return math.nan
        return max(0.0, self.best.value - played)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return {  # plain ints and floats, numpy's included (an evaluator's float32)
            "index": int(self.index),
            "player": int(self.player),
            "played": str(self.played),
            "best": str(self.best.move),
            "loss": _number(self.loss),
            "moves": [item.to_dict() for item in self.ranked],
        }


def _number(value: float) -> float | None:
    """Rounded for JSON; ``None`` for a move the search never tried (``-inf``)."""
    return round(float(value), 3) if math.isfinite(value) else None


def rank_moves(
    view: PlayerView,
    legal: tuple[Move, ...],
    evaluator: Evaluator | None = None,
    seed: int | None = 0,
) -> tuple[MoveValue, ...]:
    """Every legal move with its value for the mover, best first (ties in legal order).

    With a quick search as the evaluator (the default is ``ExpertBot(seed=seed)``):

    >>> import random
    >>> from chkobba.bots import GreedyBot, ISMCTSBot
    >>> from chkobba.bots.analysis import rank_moves
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> view, legal = observe(state, 1), legal_moves(state)
    >>> ranked = rank_moves(view, legal, ISMCTSBot(iterations=20, seed=1))
    >>> [(str(item.move), round(item.value, 2)) for item in ranked]
    [('KD x AD+4D+5D', 1.23), ('KC x AD+4D+5D', 1.17), ('7C', 0.72)]
    >>> rank_moves(view, legal, GreedyBot())
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: rank_moves: GreedyBot(seed=None) cannot evaluate moves: ...
    """
    if not isinstance(view, PlayerView):
        raise ChkobbaError(wrong_type("rank_moves", "a PlayerView", view))
    legal = items_of(legal, "rank_moves: legal")
    if not legal:
        raise ChkobbaError("rank_moves: there are no legal moves to rank")
    for at, move in enumerate(legal):
        if not isinstance(move, (Shuffle, Cut, Play)):
            raise ChkobbaError(f"rank_moves: legal holds {shown(move)}, which is not a move")
        if move in legal[:at]:
            raise ChkobbaError(f"rank_moves: legal lists {move} twice")
    _check_evaluator("rank_moves", evaluator)
    bot = evaluator if evaluator is not None else ExpertBot(seed=seed)
    values = bot.evaluate(view, legal)
    try:
        order = sorted(range(len(legal)), key=lambda i: -values[legal[i]])
        # NaN compares false both ways, so it would leave the order arbitrary.
        unordered = any(math.isnan(values[move]) for move in legal)
    except (LookupError, TypeError):  # a home-made evaluator that missed a move
        unordered = True
    if unordered:
        raise ChkobbaError(
            f"rank_moves: {bot_label(bot)}.evaluate must give a number (not NaN) for every "
            "legal move"
        )
    return tuple(MoveValue(legal[i], values[legal[i]]) for i in order)


def _check_evaluator(function: str, evaluator: object) -> None:
    if isinstance(evaluator, type):  # its evaluate is unbound: the call would fail
        raise ChkobbaError(
            f"{function}: {shown(evaluator)} is a class, not an evaluator: pass an "
            f"instance such as {evaluator.__name__}()"
        )
    if evaluator is not None and not callable(getattr(evaluator, "evaluate", None)):
        raise ChkobbaError(
            f"{function}: {shown(evaluator)} cannot evaluate moves: "
            "it has no evaluate(view, legal) method"
        )
    if getattr(type(evaluator), "evaluate", None) is GreedyBot.evaluate:  # a heuristic's score
        raise ChkobbaError(
            f"{function}: {shown(evaluator)} cannot evaluate moves: its evaluate scores one "
            "move by a heuristic, not every legal move in deal points (use ExpertBot or "
            "ISMCTSBot)"
        )


def _check_count(function: str, name: str, count: object, least: int) -> int:
    number = integral(count)  # numpy's integers too
    if not isinstance(number, int) or isinstance(number, bool) or number < least:
        raise ChkobbaError(f"{function}: {name} must be an integer >= {least}, not {shown(count)}")
    return number


def hint_text(
    view: PlayerView,
    legal: tuple[Move, ...],
    evaluator: Evaluator | None = None,
    seed: int | None = 0,
    top: int = 3,
) -> str:
    """The ``top`` best moves with their values, in move notation (``chkobba play``'s
    ``hint`` shows the same ranking with the menu's card symbols): the ranking of
    :func:`rank_moves`, which takes ``evaluator`` and ``seed`` as this does.

    Each value is the expected deal points difference for the mover's side, written
    ``QH x 2D+6S (+0.59 points)``.

    >>> import random
    >>> from chkobba.bots.analysis import hint_text
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> text = hint_text(observe(state, 1), legal_moves(state), seed=1)
    >>> text.count(" (") == min(3, len(legal_moves(state))) and ", then " in text
    True
    """
    top = _check_count("hint_text", "top", top, 1)
    ranked = rank_moves(view, legal, evaluator, seed)[:top]
    texts = [f"{item.move} ({points_text(item.value)})" for item in ranked]
    return texts[0] + (", then " + ", ".join(texts[1:]) if texts[1:] else "")


def points_text(value: float, sign: str = "+") -> str:
    """A value in expected deal points, with its unit: ``+0.59 points``; ``not tried``
    for a move the search never tried (``-inf``), ``unknown`` for no number (NaN).

    >>> from chkobba.bots.analysis import points_text
    >>> points_text(0.594), points_text(-1.0), points_text(2.5, sign="")
    ('+0.59 points', '-1.00 points', '2.50 points')
    >>> points_text(-0.004), points_text(-0.004, sign="")  # a value rounded to zero
    ('+0.00 points', '0.00 points')
    >>> points_text(float("-inf")), points_text(float("nan")), points_text(float("inf"))
    ('not tried', 'unknown', '+inf points')
    """
    if not isinstance(sign, str) or sign not in _SIGNS:  # (an array's ``in`` is no bool)
        raise ChkobbaError(f"points_text: sign must be '+', '-', ' ' or '', not {shown(sign)}")
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise ChkobbaError(wrong_type("points_text", "a number of points", value))
    try:
        number = float(value)
    except OverflowError:  # an integer too large for a float
        raise ChkobbaError(f"points_text: {shown(value)} is too large a number") from None
    if math.isnan(number):
        return "unknown"
    if number == -math.inf:  # the search's mark of a move it never tried
        return "not tried"
    text = f"{number:{sign}.2f}"
    if text.lstrip("+- ") == "0.00":  # -0.004 rounds to zero, which has no sign
        text = f"{0.0:{sign}.2f}"
    return f"{text} points"


#: The signs a number's format takes (another text would be read as a width or a fill).
_SIGNS = ("+", "-", " ", "")


def review_record(
    record: Record,
    *,
    seats: Iterable[int] | None = None,
    evaluator: Evaluator | None = None,
    seed: int | None = 0,
    progress: Callable[[int, int], object] | None = None,
) -> list[MoveReview]:
    """Review the decisions, cuts and plays, of ``seats`` (default: all) in ``record``.

    Every decision is reviewed: each cut (the cutter's choice to keep or expose the top
    card, both ranked) and each play with more than one legal choice; shuffles (chance)
    and forced plays are not. The record's moves are checked before any is
    evaluated: an illegal one raises :class:`~chkobba.IllegalMoveError` naming it as
    :meth:`Record.replay <chkobba.Record.replay>` does (``move 6 (index 5)``).

    Each position is evaluated by a fresh bot seeded with ``seed`` plus the move's index
    (``ExpertBot(seed=seed + index)``: what :func:`rank_moves` gives with that seed, the
    evaluation ``chkobba play``'s ``hint`` shows, but for a play or cut it puts
    :data:`RECHECK` or more below the best, which that bot searches again with the best
    move), so its values depend on the position and the seed alone, not on which seats
    or moves were reviewed before. A seeded ``evaluator`` (one with
    ``spawn``, as every built-in bot has) is spawned the same way from its own seed;
    another is asked as it is.

    ``progress(done, total)``, if given, is called after each of the record's moves
    (``total`` of them, reviewed or not): a review searches every decision, a few seconds
    for a match of an ordinary length, minutes for a long one.

    Player 1's cut and plays in the first moves of a deal, reviewed by a quick search:

    >>> import random
    >>> from chkobba.bots import ISMCTSBot
    >>> from chkobba.bots.analysis import review_record
    >>> moves = [random_shuffle(random.Random(4)), Cut(keep=False)]
    >>> state = apply(apply(new_match(), moves[0]), moves[1])
    >>> for _ in range(4):                       # two plays each: the first legal move
    ...     moves.append(legal_moves(state)[0])
    ...     state = apply(state, moves[-1])
    >>> bot = ISMCTSBot(iterations=20, seed=1)
    >>> reviews = review_record(Record(players=2, moves=moves), seats=[1], evaluator=bot)
    >>> [(review.index, str(review.played), str(review.best.move)) for review in reviews]
    [(1, 'expose', 'expose'), (2, '7C', 'KC x AD+4D+5D'), (4, 'KC x AD+4D+5D', 'KD x AD+4D+5D')]
    >>> [(str(item.move), round(item.value, 2)) for item in reviews[0].ranked]  # the cut
    [('expose', ...), ('keep', ...)]
    """
    if not isinstance(record, Record):
        raise ChkobbaError(wrong_type("review_record", "a Record", record))
    chosen = None if seats is None else _seats(record, seats)
    _check_evaluator("review_record", evaluator)
    seed = integral(seed)  # numpy's integers too
    if seed is not None and type(seed) is not int:
        raise ChkobbaError(f"review_record: seed must be an integer, not {shown(seed)}")
    if progress is not None and not callable(progress):
        raise ChkobbaError(
            f"review_record: progress must be a function or None, not {shown(progress)}"
        )
    _check_moves(record)
    reviews = []
    state = record.start()
    total = len(record.moves)
    for index, move in enumerate(record.moves):
        player = state.current_player
        # A decision: a play, or the cutter's keep or expose (a shuffle is chance).
        if state.phase in _DECISIONS and player is not None and not isinstance(move, Shuffle):
            legal = legal_moves(state)
            if len(legal) > 1 and (chosen is None or player in chosen):
                bot, view = _evaluator_at(evaluator, seed, index), observe(state, player)
                ranked = _rechecked(bot, view, move, rank_moves(view, legal, bot))
                reviews.append(MoveReview(index, player, move, ranked))
        state = apply(state, move)
        if progress is not None:
            progress(index + 1, total)
    return reviews


#: The phases whose moves are a player's choice, and reviewed: the cut (keep or expose) and
#: the plays; a shuffle is chance.
_DECISIONS = (Phase.CUT, Phase.PLAY)


def _rechecked(
    bot: Evaluator, view: PlayerView, played: Move, ranked: tuple[MoveValue, ...]
) -> tuple[MoveValue, ...]:
    """``ranked``, the played move's value and the best's from searches committed to each
    when the search puts the loss at :data:`RECHECK` or more, or cannot tell it.

    A search soon leaves a move it rates lower: its mean then comes from a few dozen
    iterations, a point or more away from seed to seed, which flagged as a mistake a
    move that a longer search rates as good as the best. A cut is no exception: of
    ExpertBot's 800 iterations, an expose it rates a point below the keep may get 16.
    """
    if not _rechecks(bot) or (isinstance(bot, ExpertBot) and bot.solves(view)):
        return ranked  # exact (or another kind of evaluator's own values)
    loss = MoveReview(0, 0, played, ranked).loss
    if loss < RECHECK:  # (False for NaN: a loss not known is rechecked)
        return ranked
    again = {move: bot.value_of(view, move) for move in (played, ranked[0].move)}
    values = [MoveValue(item.move, again.get(item.move, item.value)) for item in ranked]
    return tuple(sorted(values, key=lambda item: -item.value))  # ties: as ranked


def _rechecks(bot: object) -> TypeGuard[ISMCTSBot]:
    """Whether ``bot``'s ``value_of`` values moves as its ``evaluate`` does: a search bot
    whose class defines both (a subclass with an ``evaluate`` of its own, a learned value
    say, keeps its own values, unmixed)."""
    if not isinstance(bot, ISMCTSBot):
        return False
    owner = next(kind for kind in type(bot).__mro__ if "evaluate" in vars(kind))
    return "value_of" in vars(owner)


def _check_moves(record: Record) -> None:
    """Replay the record before any position is evaluated (a search of every earlier
    position would be wasted on an illegal move); ``Record.final`` keeps one state at a
    time and names the move as ``Record.replay`` does."""
    try:
        record.final()
    except RecordError as error:  # an illegal move: what this function's docs promise
        raise IllegalMoveError(f"review_record: {error}") from None


def _evaluator_at(evaluator: Evaluator | None, seed: int | None, index: int) -> Evaluator:
    """The evaluator of the position before move ``index``: a bot of its own, seeded
    from the seed and the index (a shared one's draws would carry over between them)."""
    if evaluator is None:
        return ExpertBot(seed=None if seed is None else seed + index)
    if isinstance(evaluator, SeededBot):
        own = evaluator.seed
        return evaluator.spawn(None if own is None else own + index)
    return evaluator


def _seats(record: Record, seats: Iterable[int]) -> frozenset[int]:
    chosen = tuple(integral(seat) for seat in items_of(seats, "review_record: seats"))
    for seat in chosen:
        if type(seat) is not int or not 0 <= seat < record.players:
            raise ChkobbaError(
                f"review_record: seat {shown(seat)} is not a player of the record "
                f"(0 to {record.players - 1})"
            )
    return frozenset(chosen)


def worst(reviews: Sequence[MoveReview], count: int = 3) -> list[MoveReview]:
    """The ``count`` reviewed moves that lost the most (only those that lost anything:
    not those whose loss is unknown, NaN).

    >>> from chkobba.bots.analysis import MoveReview, MoveValue, worst
    >>> take, lay = parse_move("QH x 2D+6S"), parse_move("5C")
    >>> ranked = (MoveValue(take, 1.5), MoveValue(lay, -0.25))
    >>> reviews = [MoveReview(2, 1, take, ranked), MoveReview(4, 1, lay, ranked)]
    >>> [(review.index, review.loss) for review in worst(reviews)]   # the best lost nothing
    [(4, 1.75)]
    >>> worst(reviews, count=-1)
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: worst: count must be an integer >= 0, not -1
    """
    count = _check_count("worst", "count", count, 0)
    given = items_of(reviews, "worst: reviews")
    for review in given:
        if not isinstance(review, MoveReview):
            raise ChkobbaError(f"worst: {shown(review)} is not a MoveReview")
    losing = [review for review in given if review.loss > 1e-9]
    return sorted(losing, key=lambda review: -review.loss)[:count]
