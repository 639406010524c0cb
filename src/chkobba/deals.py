"""A record told deal by deal: who dealt, who played each move, how each deal ended.

A :class:`~chkobba.Record` is a flat list of moves; :meth:`Record.deals
<chkobba.Record.deals>` splits it at every shuffle into :class:`RecordedDeal` values, and
:meth:`Record.players_of_moves <chkobba.Record.players_of_moves>` says who made each
move (``None`` for a shuffle, which is chance).

>>> import random
>>> from chkobba import Game
>>> game = Game(seed=4)
>>> while len(game.state.deal_scores) < 2:
...     _ = game.deal() if game.is_chance else game.play(game.legal_moves[0])
>>> first, second = game.record().deals()[:2]
>>> first.number, first.dealer, first.moves[0].player, first.moves[1].player
(1, 0, None, 1)
>>> first.score.points == game.state.deal_scores[0].points, first.voided
(True, False)
>>> second.dealer, second.first_index == len(first.moves)
(1, True)
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from chkobba.moves import Move, Shuffle
from chkobba.scoring import DealScore
from chkobba.state import Phase, State

__all__ = ["PlayedMove", "RecordedDeal", "players_of_moves", "split_deals"]


@attrs.frozen
class PlayedMove:
    """One move of a record and who made it.

    Fields:
        index: its index in :attr:`Record.moves <chkobba.Record.moves>` (people count
            from 1: it is move ``index + 1``).
        player: the seat that made it; ``None`` for a shuffle (a chance move).
        move: the move.
    """

    index: int
    player: int | None
    move: Move


@attrs.frozen
class RecordedDeal:
    """One deal of a record, from its shuffle to its score (or its end).

    Fields:
        number: 1 for the record's first deal, counting voided deals too.
        dealer: the player who shuffled it.
        first_index: the index of its shuffle in :attr:`Record.moves
            <chkobba.Record.moves>`.
        moves: its moves, shuffle first, each with the player who made it.
        score: its :class:`~chkobba.DealScore` once it was played out; ``None`` when it
            was voided or the record stops before its end.
        voided: True when the deal was void (under the Tunisian rules, three cards of one
            rank on the table after the cut): the same dealer shuffles again, in the next
            deal.
        scores: each side's match total after it.
    """

    number: int
    dealer: int
    first_index: int
    moves: tuple[PlayedMove, ...]
    score: DealScore | None
    voided: bool
    scores: tuple[int, ...]

    @property
    def finished(self) -> bool:
        """True when the deal was scored or voided; False when the record stops inside it."""
        return self.voided or self.score is not None


def players_of_moves(states: Sequence[State]) -> tuple[int | None, ...]:
    """Who made each move between consecutive ``states`` (``None`` for a shuffle)."""
    return tuple(state.current_player for state in states[:-1])


def split_deals(states: Sequence[State], moves: Sequence[Move]) -> tuple[RecordedDeal, ...]:
    """The deals of the match whose ``states`` follow each other by ``moves``."""
    players = players_of_moves(states)
    starts = [index for index, move in enumerate(moves) if isinstance(move, Shuffle)]
    deals = []
    # Each deal ends where the next starts, the last one at the record's end; a record
    # with no shuffle (a match not yet dealt) has no deal, and no end to pair.
    ends = [*starts[1:], len(moves)] if starts else []
    for number, (first, end) in enumerate(zip(starts, ends, strict=True), start=1):
        before, after = states[first], states[end]
        scored = len(after.deal_scores) > len(before.deal_scores)
        deals.append(
            RecordedDeal(
                number=number,
                dealer=before.dealer,
                first_index=first,
                moves=tuple(PlayedMove(i, players[i], moves[i]) for i in range(first, end)),
                score=after.deal_scores[-1] if scored else None,
                # A voided deal goes straight back to the shuffle, unscored.
                voided=not scored and after.phase is Phase.SHUFFLE,
                scores=after.scores,
            )
        )
    return tuple(deals)
