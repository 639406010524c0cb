"""The bot protocol and the small base class the built-in bots share.

A bot is anything with ``choose(view, legal) -> Move``: it sees the
:class:`~chkobba.PlayerView` of its own seat — never the full state — and the tuple of
legal moves, and returns one of them. The built-in bots also take a ``seed`` and can
:meth:`~SeededBot.spawn` a fresh copy with another seed, which is how the arena gives
every match its own reproducible bots.

>>> from chkobba.bots import RandomBot
>>> from chkobba.bots import Bot
>>> bot = RandomBot(seed=1)
>>> isinstance(bot, Bot)
True
>>> bot
RandomBot(seed=1)
"""

from __future__ import annotations

import math
import numbers
import random
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar, runtime_checkable

from chkobba._copying import CopiesApart
from chkobba._describe import (
    bot_label,
    finite_at_least_zero,
    integral,
    move_number,
    shown_kind,
    wrong_type,
)
from chkobba.captures import hand_plays
from chkobba.engine import illegal_reason, legal_moves
from chkobba.errors import ChkobbaError, shown
from chkobba.moves import Cut, Move, Play, Shuffle
from chkobba.state import Phase, State
from chkobba.views import PlayerView, check_view, seat_state
from chkobba.views import view_fault as view_fault

__all__ = ["OPTION_LIMIT", "Bot", "Deadline", "SeededBot", "checked_choice", "checked_move"]

#: The largest value of a bot's integer options (``iterations``, ``horizon``,
#: ``endgame``, ``budget``): far above any useful setting, far below a search that would
#: never end.
OPTION_LIMIT = 10**7

#: The clock of the bots' time limits (their ``seconds`` option): wall time in seconds.
#: :class:`Deadline` reads it through this module at every check, so a test can put a
#: clock of its own here.
clock: Callable[[], float] = time.perf_counter

_MOVE_TYPES = (Shuffle, Cut, Play)
# What spawn returns: the type of the bot it is called on (typing.Self is Python 3.11+).
_Seeded = TypeVar("_Seeded", bound="SeededBot")


def checked_choice(
    bot: object, view: object, legal: object, method: str = "choose"
) -> tuple[Move, ...]:
    """``legal`` as a tuple, once ``view`` is a :class:`~chkobba.PlayerView` of the player
    to move and ``legal`` a non-empty tuple or list of moves that player may make now (all
    of them or some: a caller may forbid moves); else a :class:`~chkobba.ChkobbaError`.

    What every built-in bot's ``choose`` checks before it thinks (once per decision, so
    its search never meets a wrong argument deep inside).

    >>> import random
    >>> from chkobba.bots import GreedyBot
    >>> from chkobba.bots.base import checked_choice
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> legal = legal_moves(state)            # player 1 is to move
    >>> checked_choice(GreedyBot(), observe(state, 1), list(legal)) == legal
    True
    >>> checked_choice(GreedyBot(), observe(state, 0), legal)
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: GreedyBot.choose: ...: it is player 1's turn, not player 0's
    """
    where = f"{type(bot).__name__}.{method}"
    require_view(where, view)
    moves = moves_of(where, legal)
    if not moves:
        raise ChkobbaError(f"{shown(bot)} was asked to {method} among no legal moves")
    _check_legal(where, view, moves)  # type: ignore[arg-type]  # (require_view checked it)
    return moves


def checked_move(bot: object, view: object, move: object, method: str = "evaluate") -> None:
    """Refuse, as :func:`checked_choice` does, a ``view`` of a player who is not to move
    or a ``move`` that player may not make now: what a bot's method that values one move
    (``GreedyBot.evaluate``) checks.

    >>> import random
    >>> from chkobba.bots import GreedyBot
    >>> from chkobba.bots.base import checked_move
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> view = observe(state, 1)              # holds 7C KC KD
    >>> checked_move(GreedyBot(), view, parse_move("7C", state)) is None
    True
    >>> checked_move(GreedyBot(), view, parse_move("7D"))   # 7D is not theirs
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: GreedyBot.evaluate: ...: 7D is not in player 1's hand
    """
    where = f"{type(bot).__name__}.{method}"
    require_view(where, view)
    if not isinstance(move, _MOVE_TYPES):
        raise ChkobbaError(f"{where}: {shown(move)} is not a move")
    _check_legal(where, view, (move,), single=True)  # type: ignore[arg-type]


def _check_legal(
    where: str, view: PlayerView, moves: tuple[Move, ...], single: bool = False
) -> None:
    """A :class:`~chkobba.ChkobbaError` unless the viewer is to move and may make each of
    ``moves``.

    Cheap next to a bot's thinking (docs/bots.md has the figures): in play, the moves
    allowed are the engine's own list (``hand_plays``, what :func:`~chkobba.legal_moves`
    returns) for the view's hand and table, with no
    :class:`~chkobba.State` built and without :func:`~chkobba.views.check_view` (which
    costs about as much as GreedyBot's whole choice). That check and
    :func:`~chkobba.illegal_reason` run only to explain a refusal.
    """
    if view.current_player != view.player:
        reason = illegal_reason(view, moves[0])  # whose turn it is (or the view's flaw)
        raise ChkobbaError(f"{where}: player {view.player}'s view has no choice: {reason}")
    allowed: tuple[Move, ...]
    try:
        if view.phase is Phase.PLAY:
            allowed = hand_plays(view.hand, view.table, view.rules)
        else:
            allowed = legal_moves(seat_state(view))
    except Exception:  # a hand-built view that observe would not give
        check_view(view)  # names what is wrong with it
        raise ChkobbaError(f"{where}: cannot list the moves of {shown(view)}") from None
    for index, move in enumerate(moves):
        if move not in allowed:
            reason = illegal_reason(view, move)
            named = shown(move) if single else f"{move_number(index)} of legal, {shown(move)},"
            raise ChkobbaError(
                f"{where}: {named} is not legal in player {view.player}'s view: {reason}"
            )


def is_bot(value: object) -> bool:
    """Whether ``value`` can play a seat: it has a ``choose`` method (the :class:`Bot`
    protocol). Numpy's values have a ``choose`` of their own, which is no bot's."""
    return not_a_bot(value) is None


def not_a_bot(value: object) -> str | None:
    """Why ``value`` cannot play a seat (``None`` when it can), for the refusals."""
    if isinstance(value, type):  # its choose is unbound: the first call would fail
        return f"it is a class, not a bot: pass an instance such as {value.__name__}()"
    if any(kind.__module__.partition(".")[0] == "numpy" for kind in type(value).__mro__):
        return "numpy's values have a choose method, but no bot's"
    if not callable(getattr(value, "choose", None)):
        return "it has no choose(view, legal) method"
    return None


def among(move: object, legal: tuple[Move, ...]) -> bool:
    """Whether a bot's answer ``move`` is one of ``legal``. Only a move can be: a value
    whose ``==`` gives an array (numpy's) would make ``in`` raise instead of answer."""
    return isinstance(move, _MOVE_TYPES) and move in legal


def refused_choice(who: str, state: State, move: object, reason: str | None = None) -> str:
    """The message for a bot's answer ``move`` that is not among its legal moves in
    ``state``: ``who`` (the bot and its seat), the move in notation and why it is not
    legal (``reason``, else the engine's, which speaks only of what the seat can see)."""
    chosen = shown(str(move), 200) if isinstance(move, _MOVE_TYPES) else shown(move)
    if reason is None:
        reason = illegal_reason(state, move)  # type: ignore[arg-type]  # (any value)
    return f"{who} chose {chosen}, which is not legal" + (f": {reason}" if reason else "")


def spawned(maker: object, seed: int) -> Bot:
    """``maker.spawn(seed)``, once it is a bot: else a :class:`~chkobba.ChkobbaError`
    naming ``spawn`` (the seat would blame the value, not the method that made it)."""
    bot = maker.spawn(seed)  # type: ignore[attr-defined]
    problem = not_a_bot(bot)
    if problem is not None:
        raise ChkobbaError(
            f"{bot_label(maker)}.spawn({seed}) returned {shown(bot)}, which is not a bot: {problem}"
        )
    return bot  # type: ignore[no-any-return]


def require_view(function: str, view: object) -> PlayerView:
    """``view`` if it is a :class:`~chkobba.PlayerView`, else a
    :class:`~chkobba.ChkobbaError` naming ``function`` (the bots' one check of a view)."""
    if not isinstance(view, PlayerView):
        hint = " (observe(state, player) gives a player's view)" if isinstance(view, State) else ""
        raise ChkobbaError(wrong_type(function, "a PlayerView", view) + hint)
    return view


def moves_of(function: str, legal: object) -> tuple[Move, ...]:
    """``legal`` as a tuple if it is a tuple or list of moves (text is not), else a
    :class:`~chkobba.ChkobbaError` naming ``function``."""
    if not isinstance(legal, (tuple, list)):
        raise ChkobbaError(wrong_type(function, "a tuple of legal moves", legal))
    for index, move in enumerate(legal):
        if not isinstance(move, _MOVE_TYPES):
            raise ChkobbaError(
                f"{function}: {move_number(index)} of legal is {shown_kind(move)}, not a move"
            )
    return tuple(legal)


def int_option(bot: str, name: str, value: object, low: int) -> int:
    """``value`` if it is an integer from ``low`` to :data:`OPTION_LIMIT` (a bool is not),
    else a :class:`~chkobba.ChkobbaError` naming ``bot`` and its option ``name``."""
    value = integral(value)  # numpy's integers too
    if type(value) is not int or value < low:
        wanted = "a positive integer" if low == 1 else f"an integer >= {low}"
        raise ChkobbaError(f"{bot}: {name} must be {wanted}, not {shown(value)}")
    if value > OPTION_LIMIT:
        raise ChkobbaError(f"{bot}: {name} must be at most {OPTION_LIMIT}, not {shown(value)}")
    return value


def seconds_option(bot: str, value: object) -> float:
    """``value`` as a time limit in seconds (``0``: none), else a
    :class:`~chkobba.ChkobbaError` naming ``bot``."""
    seconds = real_option(value, 0.0, math.inf)
    if seconds is None:
        raise ChkobbaError(
            f"{bot}: seconds must be a finite number >= 0 (0: no time limit), not {shown(value)}"
        )
    return seconds


class Deadline:
    """When a decision's time limit is up, counted from the moment this is made.

    ``Deadline(0)`` never passes and never reads the clock: a bot without a time limit
    stays a function of its seed.

    >>> from chkobba.bots.base import Deadline
    >>> Deadline(0).passed()
    False
    >>> Deadline(3600).passed()
    False
    """

    __slots__ = ("_end",)

    def __init__(self, seconds: float) -> None:
        if not finite_at_least_zero(seconds):
            raise ChkobbaError(
                f"Deadline: seconds must be a finite number >= 0 (0: no time limit), "
                f"not {shown(seconds)}"
            )
        self._end = clock() + seconds if seconds else math.inf

    def passed(self) -> bool:
        """Whether the time is up. A search asks after each unit of its work (an
        iteration, a solved sample), so it overruns the limit by at most one."""
        return self._end != math.inf and clock() >= self._end


def real_option(value: object, low: float, high: float) -> float | None:
    """``value`` as a float if it is a real number from ``low`` to ``high`` (``high``
    itself excluded when infinite), numpy's included, else ``None``. A bool is no number
    here: ``True`` is no probability."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer too large for a float: not a usable option
        return None
    if not low <= number <= high or number == math.inf:  # (nan fails the comparison)
        return None
    return number


@runtime_checkable
class Bot(Protocol):
    """The one method every bot has.

    A bot may also have a ``name`` attribute (text): tournaments
    (:func:`~chkobba.arena.tournament`) and the command line show it in their tables; a
    bot without one is shown by its class name. The built-in bots' names are their
    registry names (``"greedy"``).

    Any object with a ``choose`` method is a bot, with no base class to inherit:

    >>> from chkobba.bots import Bot
    >>> class FirstMove:
    ...     def choose(self, view, legal):
    ...         return legal[0]
    >>> isinstance(FirstMove(), Bot), isinstance("greedy", Bot)
    (True, False)
    """

    # Not positional-only: 0.1.0's callers may pass view= and legal= by name, so a type
    # checker that matches names (pyright) wants a bot's choose to use these two.
    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        """Pick one of ``legal`` (never empty) knowing only ``view``."""
        ...


class SeededBot(CopiesApart):
    """Shared plumbing: a name, a seeded ``random.Random`` and :meth:`spawn`.

    Subclasses set :attr:`name` and list their keyword options in :meth:`options`, so a
    bot can be copied with another seed, printed and pickled (to travel to worker
    processes) without any extra code.

    A subclass overrides :meth:`pick` (``choose`` checks its arguments first, and plays a
    single legal move itself):

    >>> import random
    >>> from chkobba.bots import SeededBot
    >>> class Layer(SeededBot):
    ...     name = "layer"
    ...     def pick(self, view, legal):          # lays a card down when it can
    ...         lays = [m for m in legal if isinstance(m, Play) and not m.capture]
    ...         return self.rng.choice(lays or legal)
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> print(Layer(seed=2).choose(observe(state, 1), legal_moves(state)))
    7C
    >>> Layer(seed=2).spawn(5)
    Layer(seed=5)
    """

    #: The registry name (``"random"``, ``"greedy"``, ``"ismcts"``, ``"expert"``).
    name = "bot"

    def __init__(self, *, seed: int | None = None) -> None:
        seed = integral(seed)  # numpy's integers too
        if seed is not None and type(seed) is not int:
            raise ChkobbaError(f"{type(self).__name__}: seed must be an integer, not {shown(seed)}")
        self.seed = seed
        self.rng: random.Random = random.Random(seed)

    def options(self) -> dict[str, Any]:
        """The keyword options (other than ``seed``) this bot was built with."""
        return {}

    def spawn(self: _Seeded, seed: int | None) -> _Seeded:
        """A fresh bot of the same kind and options with another seed (typed as this
        bot's own class: ``GreedyBot().spawn(1)`` is a ``GreedyBot``)."""
        return type(self)(seed=seed, **self.options())

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        """Pick one of ``legal``; raises :class:`~chkobba.ChkobbaError` if it is empty, or
        if ``view`` is not a :class:`~chkobba.PlayerView` or ``legal`` not moves."""
        legal = checked_choice(self, view, legal)
        try:
            return self._choose(view, legal)
        except ChkobbaError:
            raise
        except Exception as error:
            raise view_fault(view, error) from None

    def _choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        """:meth:`choose` once its arguments are checked."""
        if len(legal) == 1:
            return legal[0]
        return self.pick(view, legal)

    def pick(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        """Choose among two or more legal moves (what subclasses override)."""
        return legal[0]

    def __repr__(self) -> str:
        options = ", ".join(f"{key}={_literal(value)}" for key, value in self.options().items())
        seed = f"seed={_literal(self.seed)}"
        return f"{type(self).__name__}({options + ', ' if options else ''}{seed})"


def _literal(value: object) -> str:
    """``repr(value)``, or a description of an integer too long for Python to write (a
    seed may be any integer)."""
    try:
        return repr(value)
    except ValueError:
        return shown(value)
