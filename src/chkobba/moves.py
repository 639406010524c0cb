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

The constructors take cards, or card text which they read (one rule for every move):

>>> Play("QH", "2D 6S") == Play(card("QH"), cards("2D 6S"))
True
>>> Shuffle(format_cards(DECK)) == Shuffle(DECK)
True

Anything else is refused when the move is built, with a
:class:`~chkobba.NotationError`:

>>> Play(card("QH"), card("2D"))
Traceback (most recent call last):
...
chkobba.errors.NotationError: a capture is text ('2D 6S') or a collection of cards, not card('2D')
>>> Cut(keep="yes")
Traceback (most recent call last):
...
chkobba.errors.NotationError: Cut(keep=...) must be True or False, not 'yes'
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TypeAlias

import attrs

from chkobba._shuffle import shuffle
from chkobba.cards import DECK, Card, card, cards, format_cards
from chkobba.errors import ChkobbaError, NotationError, items_of, shown

__all__ = ["Cut", "Move", "Play", "Shuffle", "random_shuffle"]

_DECK_SET = frozenset(DECK)
# The most items a move's cards are read from: far more than any move holds, far fewer
# than an endless or huge iterable would make a constructor read before it fails.
_MOST_CARDS = 1000
_set = object.__setattr__


def _to_card(played: Card | str) -> Card:
    if type(played) is Card:
        return played
    if isinstance(played, str):
        return card(played)
    raise NotationError(f"a played card is a Card or card text ('QH'), not {shown(played)}")


def _to_cards(order: Iterable[Card | str] | str, what: str, example: str) -> tuple[Card, ...]:
    """Cards from text, or from a collection of cards and card texts (JSON's ``["2D", "6S"]``)."""
    if isinstance(order, str):
        return cards(order)
    if isinstance(order, (Card, bytes, bytearray)) or not isinstance(order, Iterable):
        raise NotationError(
            f"a {what} is text ({example!r}) or a collection of cards, not {shown(order)}"
        )
    found = items_of(order, f"a {what}", _MOST_CARDS, NotationError)
    for item in found:  # a loop, not all(): cheaper for the usual cards only
        if type(item) is not Card:
            return tuple(_item_card(item, what, example) for item in found)
    return found


def _item_card(item: object, what: str, example: str) -> Card:
    if type(item) is Card:
        return item
    if isinstance(item, str):
        try:
            return card(item)
        except NotationError as error:  # said in the move's terms: which move, which card
            raise NotationError(f"in a {what}: {error}") from None
    raise NotationError(
        f"a {what} holds {shown(item)}, which is not a card: give cards or card texts, "
        f"or the whole {what} as text ({example!r})"
    )


def _to_order(order: Iterable[Card | str] | str) -> tuple[Card, ...]:
    if type(order) is tuple and _DECK_SET.issuperset(order):
        return order
    return _to_cards(order, "shuffle", "AS 2S ...")


def _to_capture(capture: Iterable[Card | str] | str) -> frozenset[Card]:
    found = _to_cards(capture, "capture", "2D 6S")
    taken = frozenset(found)
    if len(taken) != len(found):
        twice = next(c for c in found if found.count(c) > 1)
        raise NotationError(f"a capture names each card once; {twice} comes twice")
    return taken


def _check_keep(keep: bool) -> bool:
    if keep is True or keep is False:
        return keep
    raise NotationError(f"Cut(keep=...) must be True or False, not {shown(keep)}")


@attrs.frozen(repr=False)
class Shuffle:
    """The chance move: the full 40-card order after shuffling and cutting, top first.

    The top card is the one the cutter looks at; the rest are dealt from the top.
    Whether the order holds each of the 40 cards once is checked when it is applied:

    >>> Shuffle(DECK).order[0]
    card('AS')
    >>> apply(new_match(), Shuffle(DECK)).stock[0]  # the cut card, first of the stock
    card('AS')
    >>> illegal_reason(new_match(), Shuffle(DECK[:39]))
    'shuffle must order each of the 40 cards once; it lacks KC'
    >>> Shuffle([str(c) for c in DECK]) == Shuffle(DECK)  # card texts, as JSON lists them
    True
    """

    order: tuple[Card, ...] = attrs.field(converter=_to_order)

    def __str__(self) -> str:
        return "shuffle " + " ".join(str(c) for c in self.order)

    def __repr__(self) -> str:
        return f"Shuffle(cards({' '.join(str(c) for c in self.order)!r}))"


@attrs.frozen(repr=False)
class Cut:
    """The cutter's decision: ``keep`` the top card in hand or ``expose`` it on the table.

    >>> import random
    >>> state = apply(new_match(), random_shuffle(random.Random(1)))
    >>> top = state.stock[0]
    >>> top, state.cutter
    (card('6C'), 1)
    >>> top in apply(state, Cut(keep=True)).hands[1], top in apply(state, Cut(keep=False)).table
    (True, True)
    """

    keep: bool = attrs.field(converter=_check_keep)

    def __str__(self) -> str:
        return "keep" if self.keep else "expose"

    def __repr__(self) -> str:
        return f"Cut(keep={self.keep!r})"


@attrs.frozen(repr=False, init=False, eq=False)
class Play:
    """Play ``card`` from hand, taking ``capture`` from the table (empty: lay it down).

    Fields:
        card: the :class:`~chkobba.Card` played from the mover's hand.
        capture: the table cards it takes, a frozenset (text, or any iterable of cards or
            card texts, is accepted and converted); empty when the card is laid on the
            table. The capture's order
            does not matter: ``Play(c, [a, b]) == Play(c, [b, a])``.

    >>> play = Play("QH", "6S 2D")
    >>> play
    Play(card('QH'), cards('2D 6S'))
    >>> play.card, format_cards(play.capture, "+")
    (card('QH'), '2D+6S')
    >>> Play("7D").capture  # nothing taken: the 7D is laid on the table
    frozenset()
    >>> Play("QH", ["2D", "6S"]) == play  # card texts, as JSON lists them
    True
    >>> Play("QH", "2D 2D")
    Traceback (most recent call last):
    ...
    chkobba.errors.NotationError: a capture names each card once; 2D comes twice
    """

    card: Card
    capture: frozenset[Card]

    # Written by hand, not generated: plays are built in the engine's innermost loop, and
    # the common case (a Card and a frozenset of cards) costs two type tests.
    def __init__(self, card: Card | str, capture: Iterable[Card | str] | str = frozenset()) -> None:
        if type(card) is not Card:
            card = _to_card(card)
        if type(capture) is not frozenset or not _DECK_SET.issuperset(capture):
            capture = _to_capture(capture)
        _set(self, "card", card)
        _set(self, "capture", capture)

    # Equality and hash by hand too: apply looks a play up among the legal ones, and the
    # cards are singletons, so comparing them is an identity test.
    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.card is other.card and self.capture == other.capture

    def __ne__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.card is not other.card or self.capture != other.capture

    def __hash__(self) -> int:
        return hash((self.card, self.capture))

    def __str__(self) -> str:
        if not self.capture:
            return str(self.card)
        return f"{self.card} x {format_cards(self.capture, '+')}"

    def __reduce__(self) -> tuple[type[Play], tuple[Card, tuple[Card, ...]]]:
        # The capture in deck order: a frozenset of cards pickles in the order of the
        # cards' addresses, so the same play would give other bytes in another process.
        return (Play, (self.card, tuple(sorted(self.capture))))

    def __repr__(self) -> str:
        if not self.capture:
            return f"Play(card({str(self.card)!r}))"
        return f"Play(card({str(self.card)!r}), cards({format_cards(self.capture)!r}))"


#: Any move: the union of the three move types.
Move: TypeAlias = Shuffle | Cut | Play


def random_shuffle(rng: random.Random) -> Shuffle:
    """A uniformly random :class:`Shuffle` drawn from ``rng`` (no hidden randomness).

    >>> import random
    >>> random_shuffle(random.Random(7)) == random_shuffle(random.Random(7))
    True
    """
    if not isinstance(rng, random.Random):
        raise ChkobbaError(f"random_shuffle: rng must be a random.Random, not {shown(rng)}")
    order = list(DECK)
    shuffle(order, rng)  # exactly rng.shuffle(order), faster
    made = _new(Shuffle)
    _set(made, "order", tuple(order))  # the 40 cards, known good: no converter needed
    return made


_new = object.__new__
