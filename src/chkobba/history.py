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

import attrs

from chkobba.cards import DECK, Card

__all__ = ["HISTORY_SIZE", "PER_CARD", "DealHistory"]

_SEATS = 4
#: Entries per card: played_by (4), played_at, taken_at, first_table, exposed.
PER_CARD = _SEATS + 4
#: The length of every history vector.
HISTORY_SIZE = len(DECK) * PER_CARD
_MAX_PLAYS = len(DECK)


@attrs.frozen
class DealHistory:
    """The current deal's public events: the first table, the exposed card, every play."""

    first_table: frozenset[Card] = frozenset()
    exposed: Card | None = None
    plays: tuple[tuple[int, Card, frozenset[Card]], ...] = ()

    def started(self, table: Iterable[Card], exposed: Card | None) -> DealHistory:
        """A new deal's history once play begins on ``table``."""
        return DealHistory(frozenset(table), exposed)

    def played(self, player: int, played: Card, capture: frozenset[Card]) -> DealHistory:
        """This history with one more play."""
        return attrs.evolve(self, plays=(*self.plays, (player, played, capture)))

    def vector(self, viewer: int, players: int) -> list[float]:
        """The :data:`HISTORY_SIZE` entries seen from ``viewer`` (see the module docstring)."""
        vector = [0.0] * HISTORY_SIZE
        for c in self.first_table:
            vector[c.index * PER_CARD + _SEATS + 2] = 1.0
        if self.exposed is not None:
            vector[self.exposed.index * PER_CARD + _SEATS + 3] = 1.0
        for n, (player, played, capture) in enumerate(self.plays):
            when = (n + 1) / _MAX_PLAYS
            at = played.index * PER_CARD
            vector[at + (player - viewer) % players] = 1.0
            vector[at + _SEATS] = when
            for taken in capture:
                vector[taken.index * PER_CARD + _SEATS + 1] = when
        return vector
