"""The exception tree of the library.

Every error a user can provoke with bad input is a :class:`ValueError`, so callers that
only care about "bad input" catch that; callers that care about *why* catch the subclass.
Malformed text and illegal moves are kept apart: ``"8D"`` is not a card at all
(:class:`NotationError`), while playing ``7D`` from a hand that lacks it is a well-formed
move that the rules forbid (:class:`IllegalMoveError`).
"""

from __future__ import annotations

__all__ = ["ChkobbaError", "IllegalMoveError", "NotationError", "RecordError"]


class ChkobbaError(ValueError):
    """Base class of every error raised by the library for bad input."""


class NotationError(ChkobbaError):
    """Text that is not a card, a list of cards or a move in the notation."""


class IllegalMoveError(ChkobbaError):
    """A move that the rules do not allow in the given state."""


class RecordError(ChkobbaError):
    """A game record that cannot be read, or that holds a move that is not legal."""
