"""The public history of the current deal as a fixed-size vector (information-state tensors).

An information state needs the order of events, which the observation vector of
:mod:`chkobba.observations` drops (it shows piles, not who took what when). A deal has
at most 40 plays, so its whole public history fits a fixed size: per card in deck order,

- ``played_by``: one-hot seat offset from the viewer (4 entries) of the player who
  played it;
- ``played_at``: ``(n + 1) / 40`` for the deal's ``n``-th play (0: not played);
- ``taken_at``: ``(n + 1) / 40`` for the play that captured it from the table;
- ``first_table``: 1 if it was on the table when play began;
- ``exposed``: 1 if it was exposed at the cut.

These :data:`HISTORY_SIZE` ``= 40 * 8`` entries determine every play and capture of the
deal in order. Earlier deals are not in it (they enter an information state through the
scores only), so it has perfect recall within a deal, as CFR on single deals needs.

The history knows the table at every point (the first one, plus the cards laid, less the
cards taken), so :meth:`DealHistory.played` refuses a play no deal can have: a card played
twice or from the first table, or a capture of a card not on the table. Only
:meth:`DealHistory.vector` knows the number of players, and refuses a play by a seat
beyond them.

>>> from chkobba.history import HISTORY_SIZE, PER_CARD, DealHistory
>>> history = DealHistory().started(cards("AS 2S 3S 4S"), exposed=None)
>>> history = history.played(1, card("5D"), frozenset(cards("AS 4S")))
>>> vector = history.vector(viewer=0, players=2)
>>> len(vector) == HISTORY_SIZE
True
>>> at = card("5D").index * PER_CARD
>>> vector[at:at + PER_CARD]  # played by the seat at the viewer's right, first play
[0.0, 1.0, 0.0, 0.0, 0.025, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from chkobba._describe import integral
from chkobba.cards import DECK, Card, cards_set_repr, format_cards
from chkobba.errors import ChkobbaError, items_of, shown

__all__ = ["HISTORY_SIZE", "PER_CARD", "DealHistory"]

_SEATS = 4
#: Entries per card: played_by (4), played_at, taken_at, first_table, exposed.
PER_CARD = _SEATS + 4
#: The length of every history vector.
HISTORY_SIZE = len(DECK) * PER_CARD
_MAX_PLAYS = len(DECK)


_Event = tuple[int, Card, frozenset[Card]]


def _plays_repr(plays: tuple[_Event, ...]) -> str:
    """The plays as code, each capture in deck order (see :func:`cards_set_repr`)."""
    events = [f"({p!r}, {c!r}, {cards_set_repr(t)})" for p, c, t in plays]
    return f"({events[0]},)" if len(events) == 1 else f"({', '.join(events)})"


@attrs.frozen
class DealHistory:
    """The current deal's public events: the first table, the exposed card, every play.

    Built with :meth:`started`, then one :meth:`played` per play; it refuses a play that
    cannot follow:

    >>> from chkobba.history import DealHistory
    >>> history = DealHistory().started(cards("AS 2S 3S 4S"), exposed=card("KD"))
    >>> history = history.played(0, card("7H"), frozenset())  # laid on the table
    >>> history = history.played(1, card("7D"), frozenset(cards("7H")))  # and taken
    >>> len(history.plays), history.exposed
    (2, card('KD'))
    >>> history.played(0, card("7S"), frozenset(cards("7H")))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: DealHistory.played: ... 7S taking 7H: 7H is not on the table
    """

    first_table: frozenset[Card] = attrs.field(default=frozenset(), repr=cards_set_repr)
    exposed: Card | None = None
    plays: tuple[_Event, ...] = attrs.field(default=(), repr=_plays_repr)

    def __reduce__(self) -> tuple[Any, ...]:
        # The cards of every set in deck order: a frozenset of cards pickles in the order
        # of the cards' addresses, which would give other bytes in another process.
        plays = tuple((p, c, tuple(sorted(t))) for p, c, t in self.plays)
        return (_history, (tuple(sorted(self.first_table)), self.exposed, plays))

    def started(self, table: Iterable[Card], exposed: Card | None) -> DealHistory:
        """A new deal's history once play begins on ``table``."""
        first = items_of(table, "DealHistory.started: table")
        _check_cards("DealHistory.started: table", first)
        repeated = sorted({c for c in first if first.count(c) > 1})
        if repeated:  # no deal lays a card twice (the frozenset would drop it unseen)
            raise ChkobbaError(
                f"DealHistory.started: the table holds {format_cards(repeated)} twice"
            )
        if exposed is not None and not isinstance(exposed, Card):
            raise ChkobbaError(
                f"DealHistory.started: exposed must be a Card or None, not {shown(exposed)}"
            )
        return DealHistory(frozenset(first), exposed)

    def played(self, player: int, played: Card, capture: frozenset[Card]) -> DealHistory:
        """This history with one more play (``capture``: the table cards it took).

        A play that cannot follow the events recorded raises
        :class:`~chkobba.ChkobbaError`: a card played twice, or from the first table, or
        a capture of a card that is not on the table (the played card itself included).
        """
        player = integral(player)  # numpy's integers too
        if type(player) is not int or not 0 <= player < _SEATS:
            raise ChkobbaError(
                f"DealHistory.played: player must be a seat from 0 to {_SEATS - 1}, "
                f"not {shown(player)}"
            )
        if not isinstance(played, Card):
            raise ChkobbaError(f"DealHistory.played: expected a Card, got {shown(played)}")
        if not isinstance(capture, frozenset):
            raise ChkobbaError(
                f"DealHistory.played: capture must be a frozenset of cards, not {shown(capture)}"
            )
        _check_cards("DealHistory.played: capture", capture)
        problem = self._impossible(played, capture)
        if problem is not None:
            taken = f" taking {format_cards(capture, '+')}" if capture else ""
            raise ChkobbaError(
                f"DealHistory.played: player {player} cannot play {played}{taken}: {problem}"
            )
        return attrs.evolve(self, plays=(*self.plays, (player, played, capture)))

    def _impossible(self, played: Card, capture: frozenset[Card]) -> str | None:
        """Why ``played`` taking ``capture`` cannot come next, or None. The table is the
        first one, plus the cards laid, less the cards taken: the history holds it all.
        (One loop over at most 40 plays, about 2 us at the end of a deal.)"""
        if played in self.first_table:
            return "it was on the table when play began"
        table = set(self.first_table)
        for n, (_, earlier, taken) in enumerate(self.plays):
            if earlier is played:  # (cards are singletons: ``in`` on a list is far slower)
                return f"it was played already (play {n + 1})"
            if taken:
                table -= taken
            else:
                table.add(earlier)
        absent = capture - table
        if absent:
            verb = "is" if len(absent) == 1 else "are"
            return f"{format_cards(absent)} {verb} not on the table"
        return None

    def vector(self, viewer: int, players: int) -> list[float]:
        """The :data:`HISTORY_SIZE` entries seen from ``viewer`` (see the module docstring)."""
        viewer, players = integral(viewer), integral(players)  # numpy's integers too
        if type(players) is not int or not 2 <= players <= _SEATS:
            raise ChkobbaError(
                f"DealHistory.vector: players must be 2 to {_SEATS}, not {shown(players)}"
            )
        if type(viewer) is not int or not 0 <= viewer < players:
            raise ChkobbaError(
                f"DealHistory.vector: viewer must be a player from 0 to {players - 1}, "
                f"not {shown(viewer)}"
            )
        try:
            return self._vector(viewer, players)
        except (AttributeError, TypeError, IndexError) as error:
            # Only a DealHistory built by hand with wrong fields gets here.
            raise ChkobbaError(
                "DealHistory.vector: a field of this history is not what it should be "
                f"({type(error).__name__}); build one with started() and played()"
            ) from None

    def _vector(self, viewer: int, players: int) -> list[float]:
        vector = [0.0] * HISTORY_SIZE
        for c in self.first_table:
            vector[c.index * PER_CARD + _SEATS + 2] = 1.0
        if self.exposed is not None:
            vector[self.exposed.index * PER_CARD + _SEATS + 3] = 1.0
        for n, (player, played, capture) in enumerate(self.plays):
            if player >= players:  # (only here is the number of players known)
                raise ChkobbaError(
                    f"DealHistory.vector: play {n + 1} ({played}) is by player {player}, "
                    f"but only players 0 to {players - 1} play"
                )
            when = (n + 1) / _MAX_PLAYS
            at = played.index * PER_CARD
            vector[at + (player - viewer) % players] = 1.0
            vector[at + _SEATS] = when
            for taken in capture:
                vector[taken.index * PER_CARD + _SEATS + 1] = when
        return vector


def _check_cards(what: str, group: Iterable[object]) -> None:
    for item in group:
        if not isinstance(item, Card):
            raise ChkobbaError(f"{what} must hold cards only, not {shown(item)}")


def _history(
    first_table: tuple[Card, ...],
    exposed: Card | None,
    plays: tuple[tuple[int, Card, tuple[Card, ...]], ...],
) -> DealHistory:
    """A :class:`DealHistory` from its pickled form (see its ``__reduce__``)."""
    events = tuple((p, c, frozenset(t)) for p, c, t in plays)
    return DealHistory(frozenset(first_table), exposed, events)
