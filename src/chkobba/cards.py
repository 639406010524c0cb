"""Cards, the 40-card deck and their text notation.

A card is written rank then suit: ``7D`` is the seven of diamonds, ``QH`` the queen of
hearts. Ranks are ``A 2 3 4 5 6 7 Q J K`` and suits ``S H D C``; on input the symbols
``♠ ♥ ♦ ♣`` are accepted too (followed or not by the variation selector U+FE0F or U+FE0E
that phone keyboards add to them), and letters in either case.

>>> card("7D")
card('7D')
>>> str(card("q♥"))
'QH'
>>> card("7D") is card("7d")  # the 40 cards are singletons
True
>>> cards("2D 6S")
(card('2D'), card('6S'))
>>> len(DECK)
40
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Iterable
from typing import Any

import attrs

from chkobba._describe import TextEnumType
from chkobba.errors import QUOTE_LIMIT, NotationError, items_of, shown

__all__ = ["DECK", "Card", "Rank", "Suit", "card", "cards", "format_cards"]


class Suit(enum.Enum, metaclass=TextEnumType):
    """The four suits; diamonds is the scoring suit.

    >>> Suit("D"), Suit.DIAMONDS.symbol
    (<Suit.DIAMONDS: 'D'>, '♦')
    >>> sum(c.suit is Suit.DIAMONDS for c in DECK)
    10
    >>> Suit("d")  # card() reads small letters and symbols; Suit() only its values
    Traceback (most recent call last):
    ...
    chkobba.errors.NotationError: 'd' is not a suit's value: Suit takes S H D C ...
    """

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        """The suit symbol, ``♠ ♥ ♦ ♣``."""
        return _SUIT_SYMBOLS[self]

    @classmethod
    def _missing_(cls, value: object) -> Suit:
        # Enum's own refusal is a bare ValueError; a suit is notation, as in card().
        raise NotationError(f"{shown(value)} is not a suit's value: {_SUIT_LIST}")


class Rank(enum.Enum, metaclass=TextEnumType):
    """The ten ranks of the 40-card deck, in notation order (8, 9 and 10 are removed).

    A rank's capture value depends on the profile:

    >>> Rank("Q"), len(Rank)
    (<Rank.QUEEN: 'Q'>, 10)
    >>> TUNISIAN.value(Rank.QUEEN), CARD_RULES_PLUS.value(Rank.QUEEN)
    (8, 9)
    >>> Rank("8")
    Traceback (most recent call last):
    ...
    chkobba.errors.NotationError: '8' is not a rank's value: Rank takes A 2 3 4 5 6 7 Q J K ...
    """

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    QUEEN = "Q"
    JACK = "J"
    KING = "K"

    @classmethod
    def _missing_(cls, value: object) -> Rank:
        # Enum's own refusal is a bare ValueError; a rank is notation, as in card().
        raise NotationError(f"{shown(value)} is not a rank's value: {_RANK_LIST}")


_RANK_LIST = "Rank takes A 2 3 4 5 6 7 Q J K (card() also reads small letters)"
_SUIT_LIST = "Suit takes S H D C (card() also reads small letters and ♠ ♥ ♦ ♣)"
_SUIT_SYMBOLS = {
    Suit.SPADES: "♠",
    Suit.HEARTS: "♥",
    Suit.DIAMONDS: "♦",
    Suit.CLUBS: "♣",
}
_RANKS = tuple(Rank)
_SUITS = tuple(Suit)
_INTERNED: dict[tuple[Rank, Suit], Card] = {}


@attrs.frozen(eq=False, repr=False)
class Card:
    """One card, identified by its rank and suit.

    There are exactly 40 card objects: constructing a card returns the existing one, so
    cards compare and hash by identity, which is both correct and fast. Like sets of
    strings, sets of cards iterate in an order that may differ between processes: sort
    them (deck order) wherever order matters.

    >>> Card(Rank.SEVEN, Suit.DIAMONDS) is card("7D")
    True
    >>> card("KC").rank, card("KC").suit
    (<Rank.KING: 'K'>, <Suit.CLUBS: 'C'>)
    >>> sorted(cards("KC 2H AS"))
    [card('AS'), card('2H'), card('KC')]
    """

    rank: Rank
    suit: Suit
    #: Position in :data:`DECK` (rank-major: ``AS AH AD AC 2S …``), the "deck order".
    index: int = attrs.field(init=False)

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        if not isinstance(rank, Rank) or not isinstance(suit, Suit):
            raise NotationError(
                f"Card needs a Rank and a Suit, got {shown(rank)} and {shown(suit)} "
                "(card('7D') reads a card from text)"
            )
        existing = _INTERNED.get((rank, suit))
        if existing is not None:
            return existing
        created = super().__new__(cls)
        _INTERNED[(rank, suit)] = created
        return created

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "index", _RANKS.index(self.rank) * 4 + _SUITS.index(self.suit))

    def __str__(self) -> str:
        return self.rank.value + self.suit.value

    def __repr__(self) -> str:
        return f"card({str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Unpickling and copying go through the constructor, so they keep the singletons.
        return (Card, (self.rank, self.suit))

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, e.g. ``7♦``."""
        return self.rank.value + self.suit.symbol

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index


#: The 40 cards in deck order: by rank ``A 2 3 4 5 6 7 Q J K``, then by suit ``S H D C``.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in _RANKS for suit in _SUITS)

_RANK_TEXT = {rank.value: rank for rank in _RANKS}
_SUIT_TEXT = {suit.value: suit for suit in _SUITS}
_SUIT_TEXT.update({symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()})
_SUIT_TEXT.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS})
_BY_TEXT: dict[str, Card] = {}
# The longest card text that can name a card once stripped: room for spaces around it.
_CARD_TEXT_LIMIT = 200
# What phone keyboards add after a suit symbol: the emoji and the text presentation selectors.
_VARIATION_SELECTORS = ("\ufe0f", "\ufe0e")
for _card in DECK:
    for _suit_text, _suit in _SUIT_TEXT.items():
        if _suit is _card.suit:
            _BY_TEXT[_card.rank.value + _suit_text] = _card
            if len(_suit_text) == 1 and not _suit_text.isascii():  # a symbol: ♦, ♢...
                for _selector in _VARIATION_SELECTORS:
                    _BY_TEXT[_card.rank.value + _suit_text + _selector] = _card
del _card, _suit_text, _suit, _selector


def card(text: str) -> Card:
    """Read one card from its notation (``7D``, ``qh``, ``K♣``).

    Raises :class:`~chkobba.errors.NotationError` naming the text and the reason; a
    character that would not show (a control, a zero-width space) is written escaped.

    >>> card("8D")
    Traceback (most recent call last):
    ...
    chkobba.errors.NotationError: '8D' is not a card: 8 is not a rank of the 40-card deck ...
    >>> card("7D\u200b")
    Traceback (most recent call last):
    ...
    chkobba.errors.NotationError: '7D\u200b' is not a card: 7D is followed by '\u200b'
    """
    if isinstance(text, Card):
        raise NotationError(f"card() reads text; {text!r} is already a Card")
    if not isinstance(text, str):
        raise NotationError(f"{shown(text)} is not a card: expected text such as '7D'")
    if len(text) > _CARD_TEXT_LIMIT:  # no card is longer; spare .upper() a huge text
        raise NotationError(f"{shown(text)} is not a card: it is too long")
    found = _BY_TEXT.get(_upper(text.strip()))
    if found is not None:
        return found
    raise NotationError(f"{shown(text)} is not a card: {_card_problem(text.strip())}")


def exact_card(text: str) -> Card | None:
    """The card ``text`` writes exactly as :func:`card` reads it at once (``QH``, ``Q♥``:
    a known spelling, nothing around it), else ``None``: a quick look-up for readers of
    many moves, which call :func:`card` for anything else (it forgives more, and says why
    text is not a card)."""
    return _BY_TEXT.get(text)


def _card_problem(written: str) -> str:
    """Why ``written`` (stripped, in the case it was typed) is not a card."""
    for end in (3, 2):  # a card (with a selector after its symbol, or not), then more
        found = _BY_TEXT.get(_upper(written[:end]))
        if found is not None and len(written) > end:
            return f"{_upper(written[:2])} is followed by {_quoted(written[end:])}"
    for start in (1, 2):  # invisible characters, then a card
        found = _BY_TEXT.get(_upper(written[start:]))
        if found is not None and _has_invisible(written[:start]):
            return f"{_upper(written[start:])} is preceded by {_quoted(written[:start])}"
    text = _upper(written)
    if not text:
        return "the text is empty"
    joined = "".join(text.split())
    if joined != text and _BY_TEXT.get(joined) is not None:  # 'Q H': a rank, a space, a suit
        return f"a card is written without spaces inside it ({_plain(joined)})"
    if len(text) == 1:
        return "a card is a rank and a suit, e.g. 7D"
    rank_text, suit_text = text[:-1], text[-1]
    if rank_text in _RANK_TEXT:
        return f"{_plain(suit_text)} is not a suit (S H D C or ♠ ♥ ♦ ♣)"
    if suit_text in _SUIT_TEXT:
        return f"{_plain(rank_text)} is not a rank of the 40-card deck (A 2 3 4 5 6 7 Q J K)"
    # Neither end reads as part of a card ('hello', '10', 'cut'): name no piece of it.
    return "a card is a rank (A 2 3 4 5 6 7 Q J K) then a suit (S H D C or ♠ ♥ ♦ ♣)"


# Only the ASCII letters change case: str.upper() also reads the long s (U+017F) as S and the
# dotless i (U+0131) as I, letters that are no card's.
_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _upper(text: str) -> str:
    return text.translate(_ASCII_UPPER)


# Character categories that do not show on their own: controls, formats (zero-width
# spaces...), unassigned, combining marks (variation selectors...) and separators.
_INVISIBLE = ("C", "M", "Z")


def _has_invisible(text: str) -> bool:
    return any(unicodedata.category(ch).startswith(_INVISIBLE) for ch in text)


def _plain(text: str) -> str:
    """``text`` as is when every character shows and it is short, else quoted, with the
    rest escaped, and cut."""
    return _quoted(text) if _has_invisible(text) or len(text) > QUOTE_LIMIT else text


def _quoted(text: str) -> str:
    """``text`` in quotes, each character that would not show written as its escape
    (``'\\u200b'``), cut after about :data:`~chkobba.errors.QUOTE_LIMIT` characters."""
    body = ""
    for position, ch in enumerate(text):
        if len(body) >= QUOTE_LIMIT:
            return f"'{body}…' ({len(text) - position} more characters)"
        body += _escaped(ch)
    return f"'{body}'"


def _escaped(ch: str) -> str:
    if ch in "'\\":
        return "\\" + ch
    if ch == " " or not unicodedata.category(ch).startswith(_INVISIBLE):
        return ch
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces, commas or ``+``, e.g. ``cards("2D 6S QH")``.

    Empty text gives ``()``; commas read like spaces (two in a row, or one at the end,
    are spaces too: :func:`~chkobba.parse_move` is stricter within a move, where an empty
    place between them is a card missing), and so does ``+``, so a capture written by
    :func:`format_cards` (``"2D+6S"``, as error messages and move notation write it)
    reads back:

    >>> cards("7D,QH") == cards("7D, QH") == cards("7D QH") == cards("7D+QH")
    True
    """
    if not isinstance(text, str):
        raise NotationError(f"{shown(text)} is not a list of cards: expected text such as '2D 6S'")
    return tuple(card(word) for word in text.replace(",", " ").replace("+", " ").split())


def cards_set_repr(group: frozenset[Card]) -> str:
    """A frozenset of cards as code, its cards in deck order: ``frozenset(cards('2D 6S'))``.

    The cards hash by identity, so a frozenset's own repr lists them in an order that
    changes from process to process; this one does not (for attrs fields' ``repr=``).

    >>> from chkobba.cards import cards_set_repr
    >>> cards_set_repr(frozenset(cards("6S 2D"))), cards_set_repr(frozenset())
    ("frozenset(cards('2D 6S'))", 'frozenset()')
    """
    return f"frozenset(cards({format_cards(group)!r}))" if group else "frozenset()"


def format_cards(group: Iterable[Card], separator: str = " ") -> str:
    """Write cards in deck order, e.g. ``format_cards(capture, "+") == "2D+6S"``.

    >>> format_cards(cards("QH 6S 2D"))
    '2D 6S QH'
    >>> format_cards(frozenset(cards("6S 2D")), "+")
    '2D+6S'
    >>> format_cards([])
    ''
    >>> format_cards("2D 6S")  # text: read it with cards() first
    Traceback (most recent call last):
    ...
    chkobba.errors.NotationError: format_cards: '2D 6S' is not a collection of cards
    """
    if not isinstance(separator, str):
        raise NotationError(f"format_cards: the separator must be text, not {shown(separator)}")
    if isinstance(group, (str, bytes, bytearray)) or not isinstance(group, Iterable):
        raise NotationError(f"format_cards: {shown(group)} is not a collection of cards")
    # Read with a bound (an endless iterator must not hang): far more than a deck holds.
    found = items_of(group, "format_cards: the group", 1000, NotationError)
    for item in found:
        if not isinstance(item, Card):
            raise NotationError(f"format_cards: {shown(item)} is not a card")
    return separator.join(str(c) for c in sorted(found))
