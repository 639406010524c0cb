"""Player views: exactly what one seat may know, and nothing more.

A :class:`PlayerView` holds the viewer's own hand, the table, every pile, the counts of
cards in the other hands and in the stock, and the public facts of the match. It never
holds a card of another hand or of the stock; the one card a cutter looks at before
deciding to keep it is in the cutter's view alone (``cut_card``).

>>> import random
>>> state = apply(new_match(), random_shuffle(random.Random(3)))
>>> observe(state, 1).cut_card == state.stock[0]   # player 1 cuts and sees the top card
True
>>> observe(state, 0).cut_card is None
True
"""

from __future__ import annotations

from typing import Any

import attrs

from chkobba._describe import wrong_type
from chkobba.cards import DECK, Card
from chkobba.checks import broken_state
from chkobba.errors import ChkobbaError, shown
from chkobba.rules import Rules
from chkobba.scoring import DealScore
from chkobba.state import Phase, State, _mover, sides_of

__all__ = ["PlayerView", "complete_state", "observe"]


@attrs.frozen
class PlayerView:
    """What ``player`` knows of a match (see :func:`observe`)."""

    rules: Rules
    player: int
    players: int
    phase: Phase
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
        return _mover(self.current_player, self.phase)

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

    @property
    def sides(self) -> int:
        """How many sides play: 2, or 3 in a 3-player match."""
        return sides_of(self.players)

    @property
    def side(self) -> int:
        """The viewer's side (partners share one)."""
        return self.player % self.sides

    def unseen(self) -> tuple[Card, ...]:
        """The cards this player cannot see (other hands and the stock), in deck order.

        In phase ``SHUFFLE`` nothing is in play and this is empty.
        """
        if self.phase is Phase.SHUFFLE or self.phase is Phase.OVER:
            return ()
        seen = {*self.hand, *self.table}
        if self.cut_card is not None:
            seen.add(self.cut_card)
        for pile in self.captured:
            seen.update(pile)
        return tuple(c for c in DECK if c not in seen)


def observe(state: State, player: int) -> PlayerView:
    """The view of ``state`` from ``player``'s seat."""
    if not isinstance(state, State):
        raise ChkobbaError(wrong_type("observe", "a State", state))
    try:  # a hand-built state can be broken (see check_state)
        if type(player) is not int or not 0 <= player < state.players:
            raise ChkobbaError(
                f"there is no player {shown(player)} in a {state.players}-player match"
            )
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


def complete_state(
    view: PlayerView, hands: tuple[tuple[Card, ...], ...], stock: tuple[Card, ...]
) -> State:
    """The full :class:`State` with ``view``'s public facts and the given hidden parts.

    The inverse of :func:`observe` once the hidden cards are chosen: searching bots use it
    with sampled ``hands`` and ``stock`` (see :mod:`chkobba.bots.sampling`). The caller
    keeps the view's own hand in ``hands[view.player]``; nothing is checked here, so an
    inconsistent guess gives a state the engine may reject.
    """
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
