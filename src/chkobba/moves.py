"""Moves: the chance move :class:`Shuffle`, the cutter's :class:`Cut`, and :class:`Play`.

Moves are small frozen values that compare and hash by value. ``str(move)`` is the
canonical notation (see ``docs/notation.md``):

>>> str(Play(card("QH"), cards("6S 2D")))
'QH x 2D+6S'
>>> str(Play(card("7D")))
'7D'
>>> str(Cut(keep=True)), str(Cut(keep=False))
('keep', 'expose')
>>> Play(card("QH"), cards("2D 6S")) == Play(card("QH"), cards("6S 2D"))
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TypeAlias

import attrs

from chkobba.cards import DECK, Card, format_cards

__all__ = ["Cut", "Move", "Play", "Shuffle", "random_shuffle"]


def _to_cards(order: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(order)


def _to_capture(capture: Iterable[Card]) -> frozenset[Card]:
    return capture if type(capture) is frozenset else frozenset(capture)


@attrs.frozen(repr=False)
class Shuffle:
    """The chance move: the full 40-card order after shuffling and cutting, top first.

    The top card is the one the cutter looks at; the rest are dealt from the top.
    """

    order: tuple[Card, ...] = attrs.field(converter=_to_cards)

    def __str__(self) -> str:
        return "shuffle " + " ".join(str(c) for c in self.order)

    def __repr__(self) -> str:
        return f"Shuffle(cards({' '.join(str(c) for c in self.order)!r}))"


@attrs.frozen(repr=False)
class Cut:
    """The cutter's decision: ``keep`` the top card in hand or ``expose`` it on the table."""

    keep: bool

    def __str__(self) -> str:
        return "keep" if self.keep else "expose"

    def __repr__(self) -> str:
        return f"Cut(keep={self.keep!r})"


@attrs.frozen(repr=False)
class Play:
    """Play ``card`` from hand, taking ``capture`` from the table (empty: lay it down)."""

    card: Card
    capture: frozenset[Card] = attrs.field(default=frozenset(), converter=_to_capture)

    def __str__(self) -> str:
        if not self.capture:
            return str(self.card)
        return f"{self.card} x {format_cards(self.capture, '+')}"

    def __repr__(self) -> str:
        if not self.capture:
            return f"Play(card({str(self.card)!r}))"
        return f"Play(card({str(self.card)!r}), cards({format_cards(self.capture)!r}))"


#: Any move: the union of the three move types.
Move: TypeAlias = Shuffle | Cut | Play


def random_shuffle(rng: random.Random) -> Shuffle:
    """A uniformly random :class:`Shuffle` drawn from ``rng`` (no hidden randomness).

    >>> random_shuffle(random.Random(7)) == random_shuffle(random.Random(7))
    True
    """
    order = list(DECK)
    rng.shuffle(order)
    return Shuffle(order)
