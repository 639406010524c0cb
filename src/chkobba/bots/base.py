"""The bot protocol and the small base class the built-in bots share.

A bot is anything with ``choose(view, legal) -> Move``: it sees the
:class:`~chkobba.PlayerView` of its own seat — never the full state — and the tuple of
legal moves, and returns one of them. The built-in bots also take a ``seed`` and can
:meth:`~SeededBot.spawn` a fresh copy with another seed, which is how the arena gives
every match its own reproducible bots.

>>> from chkobba.bots import RandomBot
>>> bot = RandomBot(seed=1)
>>> isinstance(bot, Bot)
True
>>> bot
RandomBot(seed=1)
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from chkobba.errors import ChkobbaError, shown
from chkobba.moves import Move
from chkobba.views import PlayerView

__all__ = ["Bot", "SeededBot"]


@runtime_checkable
class Bot(Protocol):
    """The one method every bot has.

    A bot may also have a ``name`` attribute (text): tournaments
    (:func:`~chkobba.arena.tournament`) and the command line show it in their tables; a
    bot without one is shown by its class name. The built-in bots' names are their
    registry names (``"greedy"``).
    """

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        """Pick one of ``legal`` (never empty) knowing only ``view``."""
        ...


class SeededBot:
    """Shared plumbing: a name, a seeded ``random.Random`` and :meth:`spawn`.

    Subclasses set :attr:`name` and list their keyword options in :meth:`options`, so a
    bot can be copied with another seed, printed and pickled (to travel to worker
    processes) without any extra code.
    """

    #: The registry name (``"random"``, ``"greedy"``, ``"ismcts"``).
    name = "bot"

    def __init__(self, *, seed: int | None = None) -> None:
        if seed is not None and type(seed) is not int:
            raise ChkobbaError(f"{type(self).__name__}: seed must be an integer, not {shown(seed)}")
        self.seed = seed
        self.rng = random.Random(seed)

    def options(self) -> dict[str, Any]:
        """The keyword options (other than ``seed``) this bot was built with."""
        return {}

    def spawn(self, seed: int | None) -> SeededBot:
        """A fresh bot of the same kind and options with another seed."""
        return type(self)(seed=seed, **self.options())

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        """Pick one of ``legal``; raises :class:`~chkobba.ChkobbaError` if it is empty."""
        if not legal:
            raise ChkobbaError(f"{shown(self)} was asked to choose among no legal moves")
        if len(legal) == 1:
            return legal[0]
        return self.pick(view, legal)

    def pick(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        """Choose among two or more legal moves (what subclasses override)."""
        return legal[0]

    def __repr__(self) -> str:
        shown = ", ".join(f"{key}={value!r}" for key, value in self.options().items())
        seed = f"seed={self.seed!r}"
        return f"{type(self).__name__}({shown + ', ' if shown else ''}{seed})"
