"""Player views: exactly what one seat may know, and nothing more.

A :class:`PlayerView` holds the viewer's own hand, the table, every pile, the counts of
cards in the other hands and in the stock, and the public facts of the match. It never
holds a card of another hand or of the stock; the one card a cutter looks at before
deciding to keep it is in the cutter's view alone (``cut_card``). A :class:`PublicView`
holds what every seat knows, and no hand at all: what a spectator is shown.

>>> import random
>>> state = apply(new_match(), random_shuffle(random.Random(3)))
>>> observe(state, 1).cut_card == state.stock[0]   # player 1 cuts and sees the top card
True
>>> observe(state, 0).cut_card is None
True
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import attrs

from chkobba._describe import add_note, integral, plain_flag, twice, wrong_type
from chkobba._json import document_text, read_document
from chkobba.cards import DECK, Card
from chkobba.checks import broken_state, cards_of, check_state, explained
from chkobba.errors import ChkobbaError, shown
from chkobba.rules import PLAYER_COUNTS, Rules, not_a_profile
from chkobba.scoring import DealScore
from chkobba.state import (
    HAND_SIZE,
    Phase,
    State,
    mover_of,
    no_such_player,
    phase_code,
    side_players,
    sides_of,
)

__all__ = [
    "PlayerView",
    "PublicView",
    "check_public_view",
    "check_view",
    "complete_state",
    "observe",
    "public_view",
]


@attrs.frozen
class PlayerView:
    """What ``player`` knows of a match (see :func:`observe`).

    Once the cards are dealt, player 0 sees their own hand, and only counts of the rest:

    >>> import random
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    >>> view = observe(state, 0)
    >>> format_cards(view.hand), view.hand_sizes, view.stock_size
    ('5D 7D QC', (3, 3), 30)
    >>> len(view.unseen()), view.mover  # player 1's 3 cards and the stock's 30 are unseen
    (33, 1)
    """

    rules: Rules
    player: int
    players: int
    phase: Phase = attrs.field(repr=phase_code)
    dealer: int
    current_player: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[Card, ...]
    stock_size: int
    captured: tuple[tuple[Card, ...], ...]
    chkobbas: tuple[int, ...]
    scores: tuple[int, ...]
    last_capturer: int | None
    winner: int | None
    deal_scores: tuple[DealScore, ...]
    #: In phase ``CUT``, the top card the cutter looks at: set in the cutter's view only.
    cut_card: Card | None = None

    @property
    def mover(self) -> int:
        """Who moves next, typed ``int``; raises :class:`~chkobba.ChkobbaError` when nobody
        is (at a shuffle, or once the match is over), like :attr:`State.mover`."""
        return mover_of(self.current_player, self.phase)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data, versioned: what a server sends to this seat (see
        :mod:`chkobba.snapshots`)."""
        from chkobba.snapshots import view_to_dict  # it imports this module

        return view_to_dict(self)

    @classmethod
    def from_dict(cls, data: object) -> PlayerView:
        """The view that :meth:`to_dict` wrote, checked (see :mod:`chkobba.snapshots`)."""
        from chkobba.snapshots import view_from_dict  # it imports this module

        return view_from_dict(data)

    def to_json(self, *, compact: bool = False) -> str:
        """:meth:`to_dict`'s object as JSON text, one field a line; ``compact=True``
        writes one line without spaces: what a server sends to this seat.

        >>> view = observe(new_match(), 1)
        >>> PlayerView.from_json(view.to_json(compact=True)) == view
        True
        """
        return document_text(self.to_dict(), plain_flag("compact", compact))

    @classmethod
    def from_json(cls, text: str | bytes | bytearray | memoryview) -> PlayerView:
        """The view in JSON text holding :meth:`to_dict`'s object (a client reading what
        a server sent), read strictly as :meth:`State.from_json <chkobba.State.from_json>`
        reads a state, and checked as :meth:`from_dict` checks it."""
        return cls.from_dict(read_document(text, "PlayerView.from_json", "a view"))

    @staticmethod
    def json_schema() -> dict[str, Any]:
        """The JSON Schema of :meth:`to_dict`'s format, shipped in the package (see
        docs/snapshots.md).

        >>> PlayerView.json_schema()["properties"]["format"]["const"]
        'chkobba-view'
        """
        from chkobba.snapshots import shipped_schema  # it imports this module

        return shipped_schema("view.schema.json")

    @property
    def sides(self) -> int:
        """How many sides play: 2, or 3 in a 3-player match."""
        return sides_of(self.players)

    @property
    def side(self) -> int:
        """The viewer's side (partners share one)."""
        try:  # free unless it fails: a hand-built view can be broken (see check_view)
            return self.player % self.sides
        except Exception as error:
            raise _broken(self, error) from None

    # The questions a State answers about the seats and the phase, asked of a view: a
    # client that holds only its view asks them the same way.
    def side_of(self, player: int) -> int:
        """The side ``player`` belongs to: ``player % sides``; partners share a side (as
        :meth:`State.side_of <chkobba.State.side_of>`).

        >>> view = observe(new_match(4), 0)
        >>> view.side_of(2), view.side_of(3), view.side_of(view.player) == view.side
        (0, 1, True)
        """
        return _side_of(self, player)

    def players_of(self, side: int) -> tuple[int, ...]:
        """The players of ``side``, in seat order (as :meth:`State.players_of
        <chkobba.State.players_of>`).

        >>> observe(new_match(4), 1).players_of(1)
        (1, 3)
        """
        return _players_of(self, side)

    @property
    def cutter(self) -> int:
        """The player at the dealer's right: cuts, and leads every round of the deal."""
        return _cutter(self)

    @property
    def is_chance(self) -> bool:
        """True at the chance node (phase ``SHUFFLE``): the next move is a shuffle."""
        return self.phase is Phase.SHUFFLE

    @property
    def is_over(self) -> bool:
        """True once the match has a winner.

        >>> observe(new_match(), 0).is_over, observe(new_match(), 0).is_chance
        (False, True)
        """
        return self.phase is Phase.OVER

    def unseen(self) -> tuple[Card, ...]:
        """The cards this player cannot see (other hands and the stock), in deck order.

        In phase ``SHUFFLE`` nothing is in play and this is empty.
        """
        top = () if self.cut_card is None else (self.cut_card,)
        return _unseen(self, self.hand, top)


@attrs.frozen
class PublicView:
    """What every seat knows of a match, and no hand: what a spectator is shown (see
    :func:`public_view`).

    The fields are :class:`PlayerView`'s without the viewer's ``player``, ``hand`` and
    ``cut_card``: the table, every pile, the number of cards in each hand and in the
    stock, and the match's public facts. Every player's view holds it
    (``public_view(observe(state, p)) == public_view(state)`` for every seat ``p``):

    >>> import random
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    >>> seen = public_view(state)
    >>> seen.hand_sizes, seen.stock_size, format_cards(seen.table)
    ((3, 3), 30, '3H 4H 7C JC')
    >>> seen == public_view(observe(state, 0)) == public_view(observe(state, 1))
    True
    >>> len(seen.unseen()), seen.mover  # both hands and the stock: 36 cards
    (36, 1)
    """

    rules: Rules
    players: int
    phase: Phase = attrs.field(repr=phase_code)
    dealer: int
    current_player: int | None
    hand_sizes: tuple[int, ...]
    table: tuple[Card, ...]
    stock_size: int
    captured: tuple[tuple[Card, ...], ...]
    chkobbas: tuple[int, ...]
    scores: tuple[int, ...]
    last_capturer: int | None
    winner: int | None
    deal_scores: tuple[DealScore, ...]

    @property
    def mover(self) -> int:
        """Who moves next, typed ``int``, as :attr:`PlayerView.mover`."""
        return mover_of(self.current_player, self.phase)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data, versioned: what a server sends to a spectator
        (see :mod:`chkobba.snapshots`)."""
        from chkobba.snapshots import public_view_to_dict  # it imports this module

        return public_view_to_dict(self)

    @classmethod
    def from_dict(cls, data: object) -> PublicView:
        """The view that :meth:`to_dict` wrote, checked (see :mod:`chkobba.snapshots`)."""
        from chkobba.snapshots import public_view_from_dict  # it imports this module

        return public_view_from_dict(data)

    def to_json(self, *, compact: bool = False) -> str:
        """:meth:`to_dict`'s object as JSON text, one field a line; ``compact=True``
        writes one line without spaces: what a server sends to a spectator.

        >>> seen = public_view(new_match())
        >>> PublicView.from_json(seen.to_json(compact=True)) == seen
        True
        """
        return document_text(self.to_dict(), plain_flag("compact", compact))

    @classmethod
    def from_json(cls, text: str | bytes | bytearray | memoryview) -> PublicView:
        """The view in JSON text holding :meth:`to_dict`'s object, read strictly as
        :meth:`PlayerView.from_json` reads a player's view, and checked as
        :meth:`from_dict` checks it."""
        return cls.from_dict(read_document(text, "PublicView.from_json", "a public view"))

    @staticmethod
    def json_schema() -> dict[str, Any]:
        """The JSON Schema of :meth:`to_dict`'s format, shipped in the package (see
        docs/snapshots.md).

        >>> PublicView.json_schema()["properties"]["format"]["const"]
        'chkobba-public-view'
        """
        from chkobba.snapshots import shipped_schema  # it imports this module

        return shipped_schema("public_view.schema.json")

    @property
    def sides(self) -> int:
        """How many sides play: 2, or 3 in a 3-player match."""
        return sides_of(self.players)

    def side_of(self, player: int) -> int:
        """The side ``player`` belongs to: ``player % sides`` (as
        :meth:`PlayerView.side_of`)."""
        return _side_of(self, player)

    def players_of(self, side: int) -> tuple[int, ...]:
        """The players of ``side``, in seat order (as :meth:`State.players_of
        <chkobba.State.players_of>`).

        >>> public_view(new_match(4)).players_of(0)
        (0, 2)
        """
        return _players_of(self, side)

    @property
    def cutter(self) -> int:
        """The player at the dealer's right: cuts, and leads every round of the deal."""
        return _cutter(self)

    @property
    def is_chance(self) -> bool:
        """True at the chance node (phase ``SHUFFLE``): the next move is a shuffle."""
        return self.phase is Phase.SHUFFLE

    @property
    def is_over(self) -> bool:
        """True once the match has a winner."""
        return self.phase is Phase.OVER

    def unseen(self) -> tuple[Card, ...]:
        """The cards nobody shows (every hand and the stock), in deck order; empty in
        phase ``SHUFFLE`` and once the match is over, as :meth:`PlayerView.unseen`."""
        return _unseen(self, (), ())


def _unseen(
    view: PlayerView | PublicView, hand: tuple[Card, ...], top: tuple[Card, ...]
) -> tuple[Card, ...]:
    """The cards of the deck that ``view`` does not show: not in ``hand``, ``top`` (the
    cut card its viewer sees), the table or a pile."""
    if view.phase is Phase.SHUFFLE or view.phase is Phase.OVER:
        return ()
    try:  # free unless it fails: a hand-built view can be broken (see check_view)
        seen = {*hand, *top, *view.table}
        for pile in view.captured:
            seen.update(pile)
    except Exception as error:
        raise _broken(view, error) from None
    return tuple(c for c in DECK if c not in seen)


def _side_of(view: PlayerView | PublicView, player: int) -> int:
    try:  # free unless it fails: a hand-built view can be broken (see check_view)
        if type(player) is int and 0 <= player < view.players:
            return player % view.sides
    except Exception as error:
        raise _broken(view, error) from None
    seat = integral(player)  # numpy's integers too
    if seat is not player:
        return _side_of(view, seat)
    raise no_such_player(player, view.players)


def _players_of(view: PlayerView | PublicView, side: int) -> tuple[int, ...]:
    try:  # free unless it fails: a hand-built view can be broken (see check_view)
        return side_players(view.players, side)
    except ChkobbaError:
        raise
    except Exception as error:
        raise _broken(view, error) from None


def _cutter(view: PlayerView | PublicView) -> int:
    try:  # free unless it fails: a hand-built view can be broken (see check_view)
        return (view.dealer + 1) % view.players
    except Exception as error:
        raise _broken(view, error) from None


def observe(state: State, player: int) -> PlayerView:
    """The view of ``state`` from ``player``'s seat.

    >>> import random
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    >>> view = observe(state, 1)
    >>> view.hand == state.hands[1], view.stock_size == len(state.stock)
    (True, True)
    >>> observe(state, 2)
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: there is no player 2 in a 2-player match
    """
    if not isinstance(state, State):
        raise ChkobbaError(wrong_type("observe", "a State", state))
    player = integral(player)  # numpy's integers too
    try:  # a hand-built state can be broken (see check_state)
        if type(player) is not int or not 0 <= player < state.players:
            raise no_such_player(player, state.players)
        return _view(state, player)
    except ChkobbaError:
        raise
    except Exception as error:
        raise broken_state(state, error) from None


def _view(state: State, player: int) -> PlayerView:
    cutting = state.phase is Phase.CUT and player == state.current_player
    return PlayerView(
        rules=state.rules,
        player=player,
        players=state.players,
        phase=state.phase,
        dealer=state.dealer,
        current_player=state.current_player,
        hand=state.hands[player],
        hand_sizes=tuple(len(hand) for hand in state.hands),
        table=state.table,
        stock_size=len(state.stock),
        captured=state.captured,
        chkobbas=state.chkobbas,
        scores=state.scores,
        last_capturer=state.last_capturer,
        winner=state.winner,
        deal_scores=state.deal_scores,
        cut_card=state.stock[0] if cutting else None,
    )


def public_view(state: State | PlayerView) -> PublicView:
    """What every seat knows of ``state`` (a state, or a player's view of it): the
    :class:`PublicView` a server shows a spectator. It holds no card of any hand or of
    the stock, nor the cut card the cutter looks at.

    >>> import random
    >>> state = apply(new_match(4), random_shuffle(random.Random(3)))
    >>> state = apply(state, Cut(keep=False))
    >>> seen = public_view(state)
    >>> seen.hand_sizes, seen.stock_size, "hand" in seen.to_dict()
    ((3, 3, 3, 3), 24, False)
    >>> public_view(observe(state, 2)) == seen
    True
    >>> public_view(seen)
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: public_view: expected a State or a PlayerView, got a PublicView ...
    """
    if isinstance(state, State):
        try:  # a hand-built state can be broken (see check_state)
            seen = _view(state, 0)  # every seat's view holds the public one
        except Exception as error:
            raise broken_state(state, error) from None
    elif isinstance(state, PlayerView):
        seen = state
    else:
        raise ChkobbaError(wrong_type("public_view", "a State or a PlayerView", state))
    fields = attrs.asdict(seen, recurse=False)
    for private in ("player", "hand", "cut_card"):  # the viewer's own
        del fields[private]
    return PublicView(**fields)


def check_view(view: PlayerView) -> PlayerView:
    """Return ``view`` if it is what :func:`observe` gives of a state that
    :func:`~chkobba.check_state` accepts, else raise :class:`~chkobba.ChkobbaError`.

    A view hides cards but not their number, so it can be checked as far as that goes:
    the type of every field; players, sides and seats; the hand sizes (one per player,
    the viewer's own matching ``hand``) and the stock size; the cards it shows each in one
    place, and with the hidden ones making the 40; then, with the hidden cards put back
    anywhere, everything :func:`~chkobba.check_state` checks; last, ``cut_card`` set
    exactly in the cutter's view in phase ``CUT``. :meth:`PlayerView.from_dict` and
    :meth:`PlayerView.to_dict` check their view with it.

    >>> import attrs, random
    >>> view = observe(apply(new_match(), random_shuffle(random.Random(3))), 1)
    >>> check_view(view) == view
    True
    >>> check_view(attrs.evolve(view, stock_size=-5))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: inconsistent view: stock_size must be ... from 0 to 40, not -5
    """
    if not isinstance(view, PlayerView):
        raise ChkobbaError(wrong_type("check_view", "a PlayerView", view))
    _check_shown(view, "view")
    cutting = view.phase is Phase.CUT and view.player == view.current_player
    if (view.cut_card is not None) != cutting:
        cut = view.cut_card
        raise ChkobbaError(
            "inconsistent view: cut_card must be set exactly in the cutter's view in phase "
            f"CUT, not {cut if isinstance(cut, Card) else shown(cut)} in player "
            f"{view.player}'s view in {view.phase.name}"
        )
    return view


def view_fault(view: PlayerView, error: Exception) -> Exception:
    """What to raise when ``error`` escaped code thinking about ``view`` (the bots, the
    action encoding): the :class:`~chkobba.ChkobbaError` naming what :func:`check_view`
    finds wrong with a hand-built view, with a note naming ``error`` (should the view's
    fault not be the whole story: a traceback shows it), else ``error`` itself (a bug,
    not bad input)."""
    fault = explained(view, error, check_view, "view")
    if fault is not error:
        add_note(fault, f"(it surfaced as {type(error).__name__}: {shown(str(error))})")
    return fault


def check_public_view(view: PublicView) -> PublicView:
    """Return ``view`` if it is what :func:`public_view` gives of a state that
    :func:`~chkobba.check_state` accepts, else raise :class:`~chkobba.ChkobbaError`:
    what :func:`check_view` checks, with every hand hidden. :meth:`PublicView.from_dict`
    and :meth:`PublicView.to_dict` check their view with it.

    >>> import attrs
    >>> seen = public_view(new_match())
    >>> check_public_view(seen) == seen
    True
    >>> check_public_view(attrs.evolve(seen, hand_sizes=(3, 3)))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: inconsistent public view: 0 cards shown and 46 hidden ...
    """
    if not isinstance(view, PublicView):
        raise ChkobbaError(wrong_type("check_public_view", "a PublicView", view))
    _check_shown(view, "public view")
    return view


def _check_shown(view: PlayerView | PublicView, noun: str) -> None:
    """Raise the first problem of ``view``, else of a state it could come from."""
    for problem in _view_problems(view):
        raise ChkobbaError(f"inconsistent {noun}: {problem}")
    try:
        check_state(_with_hidden_cards(view))
    except ChkobbaError as error:
        problem = str(error).removeprefix("inconsistent state: ")
        raise ChkobbaError(f"inconsistent {noun}: {problem}") from None


def _broken(view: PlayerView | PublicView, error: Exception) -> Exception:
    """What a method raises when ``error`` escaped it on ``view``: the
    :class:`~chkobba.ChkobbaError` naming what :func:`check_view` (or
    :func:`check_public_view`) finds wrong."""
    if isinstance(view, PublicView):
        return explained(view, error, check_public_view, "public view")
    return explained(view, error, check_view, "view")


def _seat(view: PlayerView | PublicView) -> tuple[bool, Any, tuple[Card, ...], Card | None]:
    """Whether ``view`` is a player's, and its own fields: ``player``, ``hand`` and
    ``cut_card`` (a public view has none: ``None``, no card, no cut card)."""
    if isinstance(view, PlayerView):
        return True, view.player, view.hand, view.cut_card
    return False, None, (), None


def _view_problems(view: PlayerView | PublicView) -> Iterator[str]:
    """The first problem with the fields a state does not have, or with the cards shown."""
    own, player, hand, cut_card = _seat(view)
    if not isinstance(view.rules, Rules):
        yield not_a_profile(view.rules)
        return
    try:
        sides = view.rules.sides(view.players)
    except ChkobbaError as error:
        yield str(error)
        return
    players = view.players
    if own and (type(player) is not int or not 0 <= player < players):
        yield f"player must be a player from 0 to {players - 1}, not {shown(player)}"
        return
    groups = view.captured
    if type(groups) is not tuple or len(groups) != sides:
        yield f"captured must be {sides} card tuples, one per side, not {shown(groups)}"
        return
    shown_places = {"hand": hand, "table": view.table} if own else {"table": view.table}
    shown_places |= {f"captured[{side}]": pile for side, pile in enumerate(groups)}
    for name, group in shown_places.items():
        yield from cards_of(name, group)
    if cut_card is not None and type(cut_card) is not Card:
        yield f"cut_card must be a card or None, not {shown(cut_card)}"
    sizes = view.hand_sizes
    if type(sizes) is not tuple or len(sizes) != players or not all(_size(n) for n in sizes):
        yield (
            f"hand_sizes must have {players} entries from 0 to {HAND_SIZE} (one per player), "
            f"not {shown(sizes)}"
        )
    elif own and sizes[player] != len(hand):
        yield f"hand_sizes[{player}] is {sizes[player]}, but the hand holds {len(hand)}"
    elif type(view.stock_size) is not int or not 0 <= view.stock_size <= len(DECK):
        yield f"stock_size must be a whole number from 0 to 40, not {shown(view.stock_size)}"
    else:
        hidden = sum(sizes) - (sizes[player] if own else 0) + view.stock_size
        yield from _view_cards(shown_places, hidden, view.stock_size, cut_card)


def _size(n: object) -> bool:
    return type(n) is int and 0 <= n <= HAND_SIZE


def _view_cards(
    places: dict[str, tuple[Card, ...]], hidden: int, stock_size: int, cut_card: Card | None
) -> Iterator[str]:
    """Each card shown in one place, and with the ``hidden`` ones 40 in all (the cut card,
    shown to its viewer, is the top of the stock)."""
    if cut_card is not None:
        places = {**places, "cut_card": (cut_card,)}
    found: dict[Card, str] = {}
    for place, group in places.items():
        for one in group:
            if one in found:
                yield twice(one, found[one], place)
                return
            found[one] = place
    if cut_card is not None and not stock_size:
        yield f"cut_card is {cut_card}, the top of the stock, but the stock is empty"
        return
    hidden -= cut_card is not None
    if len(found) + hidden != len(DECK):
        yield (
            f"{len(found)} card{'' if len(found) == 1 else 's'} shown and {hidden} hidden "
            "(hand_sizes, stock_size) make "
            f"{len(found) + hidden}, not 40"
        )


def _with_hidden_cards(view: PlayerView | PublicView) -> State:
    """A state that ``view`` could come from: the hidden cards in deck order, the cut card
    on top of the stock (:func:`_view_problems` found nothing, so they add up)."""
    own, player, hand, cut_card = _seat(view)
    seen = {*hand, *view.table, *(c for pile in view.captured for c in pile)}
    top = () if cut_card is None else (cut_card,)
    hidden = iter([c for c in DECK if c not in seen and c not in top])
    hands = tuple(
        hand if own and p == player else tuple(itertools.islice(hidden, n))
        for p, n in enumerate(view.hand_sizes)
    )
    return complete_state(view, hands, top + tuple(hidden))


def seat_state(view: PlayerView) -> State:
    """A state that knows only what ``view`` knows, enough to judge the viewer's own moves.

    Legality of a cut or a play depends only on the phase, the mover's hand and the
    table, so the engine's checks give the same answers and the same reasons as with the
    full state when the viewer is to move. Other hands and the stock are left empty: the
    engine and :func:`~chkobba.parse_move` use it to judge a move and never return it.
    """
    players = view.players
    if type(players) is not int or players not in PLAYER_COUNTS:  # range() could be endless
        check_view(view)  # names the fault
        raise ChkobbaError(f"seat_state: a view of {shown(players)} players")
    hands = tuple(view.hand if p == view.player else () for p in range(players))
    return complete_state(view, hands, ())


def complete_state(
    view: PlayerView | PublicView, hands: tuple[tuple[Card, ...], ...], stock: tuple[Card, ...]
) -> State:
    """The full :class:`State` with ``view``'s public facts and the given hidden parts.

    The inverse of :func:`observe` once the hidden cards are chosen: searching bots use it
    with sampled ``hands`` and ``stock`` (see :mod:`chkobba.bots.sampling`). The caller
    keeps the view's own hand in ``hands[view.player]`` (a :class:`PublicView` has no
    hand of its own: every hand is a guess); nothing is checked here, so an
    inconsistent guess gives a state the engine may reject; a ``view`` that is no
    :class:`PlayerView` or :class:`PublicView` raises :class:`~chkobba.ChkobbaError`.

    With the true hidden cards it gives the state back; with a guess, a state that
    looks the same from the viewer's seat:

    >>> import random
    >>> from chkobba.views import complete_state
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    >>> view = observe(state, 0)
    >>> complete_state(view, state.hands, state.stock) == state
    True
    >>> hidden = list(view.unseen())
    >>> random.Random(5).shuffle(hidden)
    >>> guess = complete_state(view, (view.hand, tuple(hidden[:3])), tuple(hidden[3:]))
    >>> check_state(guess) == guess, guess == state, observe(guess, 0) == view
    (True, False, True)
    """
    if not isinstance(view, (PlayerView, PublicView)):
        raise ChkobbaError(wrong_type("complete_state", "a PlayerView or a PublicView", view))
    return State(
        rules=view.rules,
        phase=view.phase,
        players=view.players,
        dealer=view.dealer,
        current_player=view.current_player,
        hands=hands,
        table=view.table,
        stock=stock,
        captured=view.captured,
        chkobbas=view.chkobbas,
        scores=view.scores,
        last_capturer=view.last_capturer,
        winner=view.winner,
        deal_scores=view.deal_scores,
    )
