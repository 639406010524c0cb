"""Reading moves from text: :func:`parse_move`, the inverse of ``str(move)``.

The canonical text of a move is what ``str(move)`` writes (see ``docs/notation.md``):

* ``QH`` lays the queen of hearts on the table, capturing nothing;
* ``QH x 2D+6S`` plays it and takes 2♦ and 6♠ (captured cards in deck order);
* ``keep`` / ``expose``: the cutter keeps the top card or exposes it on the table;
* ``shuffle`` followed by the 40 cards, top first: the chance move.

:func:`parse_move` reads that text back, and forgiving variants of it: any case, extra
spaces, the suit symbols ``♠ ♥ ♦ ♣``, ``x``, ``X`` or ``:`` for the capture mark,
captured cards in any order separated by ``+``, ``,`` or spaces.

>>> parse_move("QH x 2D+6S")
Play(card('QH'), cards('2D 6S'))
>>> parse_move("  q♥ : 6♠ 2♦ ") == parse_move("QH x 2D+6S")
True
>>> parse_move("Keep"), parse_move("EXPOSE")
(Cut(keep=True), Cut(keep=False))

Given a ``state``, a card alone resolves like a short move in chess notation: ``QH`` is
the one legal move of QH, whatever it captures.
"""

from __future__ import annotations

import re

from chkobba._describe import wrong_type
from chkobba._plays import shared_play
from chkobba.cards import DECK, Card, card, exact_card
from chkobba.engine import illegal_reason, legal_moves
from chkobba.errors import ChkobbaError, IllegalMoveError, NotationError, shown
from chkobba.moves import Cut, Move, Play, Shuffle
from chkobba.state import Phase, State
from chkobba.views import PlayerView, check_view, seat_state

__all__ = ["MOVE_TEXT_LIMIT", "parse_move"]

#: The longest move text :func:`parse_move` reads. The longest canonical move, a shuffle,
#: has 127 characters; the limit leaves room for the forgiving forms (spaces, symbols)
#: while refusing absurd text before any work on it.
MOVE_TEXT_LIMIT = 1000

_CAPTURE_MARK = re.compile("[xX:\u00d7]")  # \u00d7 is the multiplication sign
# Spaces alone, or a + or , with optional spaces around it: "2D+6S", "2D, 6S", "2D 6S".
_CAPTURE_SEPARATORS = re.compile(r"\s*[+,]\s*|\s+")
_SHUFFLE_SEPARATORS = re.compile(r"[\s,]+")
# A comma with no card on one side: at either end, or two with only spaces between.
_LONE_COMMA = re.compile(r"(?:^|,)\s*(?:,|$)")
_CUTS = {"keep": Cut(keep=True), "expose": Cut(keep=False)}
_FORMS = (
    "expected a card (QH), a capture (QH x 2D+6S), keep, expose, "
    "or shuffle followed by the 40 cards"
)


def parse_move(text: str, state: State | PlayerView | None = None) -> Move:
    """Read a move from its text; with a ``state``, only a move legal there.

    Without a ``state`` the text must say the whole move: ``QH`` is a card laid on the
    table that captures nothing. With a ``state`` the result is always a legal move of
    that state, and a card alone names *the* legal move of that card:

    >>> top = cards("2D QH 3C 4C 6C 5C 7C 6S AS AC")   # the cut card, the hands, the table
    >>> state = apply(new_match(), Shuffle(top + tuple(c for c in DECK if c not in top)))
    >>> state = apply(state, parse_move("expose", state))
    >>> format_cards(state.table), format_cards(state.hands[1])
    ('AS AC 2D 6S', '4C 5C QH')
    >>> parse_move("4C", state)      # 4 = 2+1+1: its one capture
    Play(card('4C'), cards('AS AC 2D'))
    >>> parse_move("5C", state)      # it captures nothing: laid on the table
    Play(card('5C'))

    Errors are :class:`ValueError` subclasses that name the text and the reason: a
    :class:`~chkobba.NotationError` for text that is not a move, or for a card alone that
    has several legal moves; with a ``state``, an
    :class:`~chkobba.IllegalMoveError` (the engine's reason) for a move that is well
    written but not legal there.

    >>> parse_move("QH x 2Z")
    Traceback (most recent call last):
    ...
    chkobba.errors.NotationError: 'QH x 2Z' is not a move: '2Z' is not a card: Z is not a suit ...
    >>> parse_move("QH", state)      # Q is worth 8: 2+6 or 1+1+6
    Traceback (most recent call last):
    ...
    chkobba.errors.NotationError: QH is ambiguous here: QH x AS+AC+6S, QH x 2D+6S
    >>> parse_move("QH x 2D", state)
    Traceback (most recent call last):
    ...
    chkobba.errors.IllegalMoveError: QH cannot take 2D: 2D is worth 2, QH 8

    A :class:`~chkobba.PlayerView` works in place of the state, for a program that only
    sees one seat (a human player's prompt, a bot, a server checking what a client sent):
    the moves are judged from that player's hand and the table, only that player may
    move, and a :class:`~chkobba.Shuffle` is always refused (the deck order is drawn by
    whoever runs the match, never chosen by a player).

    >>> parse_move("4C", observe(state, 1))
    Play(card('4C'), cards('AS AC 2D'))
    >>> parse_move("3C", observe(state, 0))
    Traceback (most recent call last):
    ...
    chkobba.errors.IllegalMoveError: it is player 1's turn, not player 0's
    """
    _check_arguments(text, state)
    move, short = _read(text)
    if state is None:
        return move
    if isinstance(state, PlayerView):
        state = _judged_from_view(text, move, state)
    return _legal_move(move, short, state)


def _check_arguments(text: object, state: object) -> None:
    """Refuse, in this order, what is not text, text too long to be a move (before any
    work on it) and a ``state`` that is not a State or a PlayerView."""
    if isinstance(text, (Shuffle, Cut, Play)):
        raise NotationError(f"parse_move() reads text; {shown(text)} is already a move")
    if not isinstance(text, str):
        raise NotationError(f"{shown(text)} is not a move: expected text such as 'QH x 2D+6S'")
    if len(text) > MOVE_TEXT_LIMIT:
        raise _error(text, f"it has {len(text)} characters; a move has at most {MOVE_TEXT_LIMIT}")
    if state is not None and not isinstance(state, (State, PlayerView)):
        raise ChkobbaError(wrong_type("parse_move", "a State or a PlayerView", state))


def _judged_from_view(text: str, move: Move, view: PlayerView) -> State:
    """The state in which to judge ``move`` for the player of ``view``; a shuffle is
    refused first, whoever's turn it is (no player ever chooses the deck order)."""
    if isinstance(move, Shuffle):
        raise IllegalMoveError(
            f"{shown(text)} is not player {view.player}'s to play: a shuffle is the "
            "chance move, drawn by whoever runs the match (Game.deal, random_shuffle), "
            "never by a player"
        )
    return _seat_of(view, move)


def _legal_move(move: Move, short: bool, state: State) -> Move:
    """``move`` if it is legal in ``state``; a card alone (``short``) in the play phase
    is the one legal move of that card, whatever it captures."""
    if short and state.phase is Phase.PLAY:
        return _resolve_short(move, state)
    reason = illegal_reason(state, move)
    if reason is not None:
        raise IllegalMoveError(reason)
    return move


def _read(text: str) -> tuple[Move, bool]:
    """The move the text writes out, and whether it is a card alone (a short form)."""
    written = _as_written(text)
    if written is not None:
        return written
    words = text.split()
    if not words:
        raise _error(text, f"the text is empty; {_FORMS}")
    # Case is forgiven for ASCII letters only, as in cards: "\u212aEEP" (a Kelvin sign)
    # lowers to "keep" but is no keyword.
    first = words[0].lower() if words[0].isascii() else words[0]
    if first in _CUTS:
        if len(words) > 1:
            raise _error(text, f"{first} is a whole move; nothing may follow it")
        return _CUTS[first], False
    if first == "shuffle":
        return _read_shuffle(text, " ".join(words[1:])), False
    marks = _CAPTURE_MARK.findall(text)
    if len(marks) > 1:
        raise _error(text, "it has more than one capture mark; write one, as in QH x 2D+6S")
    if not marks:
        if len(words) > 1:
            _refuse_spaced_card(text, words)
            raise _error(text, f"{_FORMS}; write a capture as QH x 2D+6S")
        return shared_play(_card(text, words[0], "a card"), _NOTHING), True
    played_text, taken_text = _CAPTURE_MARK.split(text)
    played = _card(text, played_text, "the played card")
    taken = _read_capture(text, taken_text, played)
    return shared_play(played, taken), False


_NOTHING: frozenset[Card] = frozenset()


def _refuse_spaced_card(text: str, words: list[str]) -> None:
    """Refuse, naming the space, a rank and a suit written as two words (``Q H``): two
    words, the first no card, that make one together."""
    if len(words) != 2 or not all(words) or _is_card(words[0]):
        return
    try:
        meant = card(words[0] + words[1])
    except NotationError:
        return
    raise _error(text, f"a card is written without spaces inside it ({meant})")


def _is_card(word: str) -> bool:
    try:
        card(word)
    except NotationError:
        return False
    return True


def _as_written(text: str) -> tuple[Move, bool] | None:
    """A lay (``QH``) or a capture of one card (``QH x 2D``) written exactly as ``str``
    writes it, read by look-ups alone; ``None`` for any other text. Most moves of a record
    are such (85% of those of ``chkobba simulate``), and the full reader below gives the
    same move for them, at about three times the cost."""
    if len(text) == 2:
        laid = exact_card(text)
        return None if laid is None else (shared_play(laid, _NOTHING), True)
    if len(text) == 7 and text[2:5] == " x ":
        played, taken = exact_card(text[:2]), exact_card(text[5:])
        if played is not None and taken is not None and taken is not played:
            return shared_play(played, frozenset((taken,))), False
    return None


def _read_capture(text: str, taken_text: str, played: Card) -> frozenset[Card]:
    taken_text = taken_text.strip()
    if not taken_text.strip("+,\t\n\r\f\v "):
        raise _error(text, "no captured card follows the capture mark")
    words = _CAPTURE_SEPARATORS.split(taken_text)
    if len(words) >= len(DECK):
        raise _error(text, f"a capture takes at most {len(DECK) - 1} cards, not {len(words)}")
    taken: set[Card] = set()
    for at, word in enumerate(words):
        if not word:
            raise _error(text, "a captured card is missing next to a + or ,")
        found = exact_card(word)
        if found is None:
            try:
                found = _read_card(text, word, "a captured card")
            except NotationError:
                _refuse_spaced_card(text, words[at : at + 2])  # half a card: 6 H
                raise
        if found is played:
            raise _error(text, f"{played} cannot capture itself")
        if found in taken:
            raise _error(text, f"it captures {found} twice")
        taken.add(found)
    return frozenset(taken)


def _read_shuffle(text: str, rest: str) -> Shuffle:
    if "," in rest and _LONE_COMMA.search(rest.strip()):
        raise _error(text, "a card of the shuffle is missing next to a ,")
    words = [w for w in _SHUFFLE_SEPARATORS.split(rest) if w]
    order = [_card(text, w, "a card of the shuffle") for w in words]
    seen: set[Card] = set()
    for position, dealt in enumerate(order):
        if dealt in seen:
            raise _error(
                text,
                f"a shuffle names each card once; {dealt} comes again as card {position + 1} "
                f"(index {position})",
            )
        seen.add(dealt)
    if len(order) != len(DECK):
        missing = [str(c) for c in DECK if c not in seen]
        listed = " ".join(missing) if len(missing) <= 8 else f"{len(missing)} cards"
        raise _error(
            text, f"a shuffle orders all 40 cards, this one has {len(order)}; missing {listed}"
        )
    return Shuffle(order)


def _card(text: str, word: str, role: str) -> Card:
    word = word.strip()
    found = exact_card(word)  # (a shuffle's 40 words, a capture's: most are written so)
    if found is not None:
        return found
    return _read_card(text, word, role)


def _read_card(text: str, word: str, role: str) -> Card:
    """The card ``word`` (stripped) names, read whole by :func:`card`."""
    if not word:
        raise _error(text, f"{role} is missing; {_FORMS}")
    try:
        return card(word)
    except NotationError as error:
        raise _error(text, str(error)) from None


def _resolve_short(move: Move, state: State) -> Move:
    """The one legal move of a card written alone, like ``QH`` in chess notation."""
    played = move.card if isinstance(move, Play) else None
    candidates = [m for m in legal_moves(state) if isinstance(m, Play) and m.card is played]
    if len(candidates) == 1:
        return candidates[0]
    if len(candidates) > 1:
        candidates.sort(key=lambda m: sorted(c.index for c in m.capture))
        listed = ", ".join(str(m) for m in candidates)
        raise NotationError(f"{played} is ambiguous here: {listed}")
    reason = illegal_reason(state, move)
    raise IllegalMoveError(reason or f"{move} is not legal here")


def _seat_of(view: PlayerView, move: Move) -> State:
    """A state that knows only what ``view`` knows, enough to judge the viewer's ``move``.

    Legality of a cut or a play depends only on the phase, the mover's hand and the
    table, so the engine's own checks give the same answers and the same reasons as with
    the full state. It is never returned: other hands and the stock are left empty.
    """
    check_view(view)  # a hand-built view is named for what is wrong with it, as legal_moves does
    # Not the viewer's turn (someone else's, or nobody's: the shuffle, the match over):
    # the engine's own reason, as illegal_reason gives it for this view.
    reason = illegal_reason(view, move) if view.current_player != view.player else None
    if reason is not None:
        raise IllegalMoveError(reason)
    return seat_state(view)


def _error(text: str, reason: str) -> NotationError:
    return NotationError(f"{shown(text)} is not a move: {reason}")
