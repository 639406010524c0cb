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

from chkobba._describe import wrong_type
from chkobba.errors import ChkobbaError, items_of
from chkobba.moves import Cut, Move, Play, Shuffle
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

    >>> import random
    >>> record = Record(players=2, moves=[random_shuffle(random.Random(1)), Cut(keep=False)])
    >>> shuffle, cut = record.deals()[0].moves
    >>> shuffle.player, cut
    (None, PlayedMove(index=1, player=1, move=Cut(keep=False)))
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

    A voided deal, then a deal the record stops inside:

    >>> import random
    >>> record = Record(players=2, moves=[random_shuffle(random.Random(92)), Cut(keep=True),
    ...                                   random_shuffle(random.Random(1)), Cut(keep=False)])
    >>> voided, second = record.deals()
    >>> voided.voided, voided.finished, voided.score, second.dealer  # the same dealer again
    (True, True, None, 0)
    >>> second.number, second.first_index, second.finished, second.score
    (2, 2, False, None)
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
    """Who made each move between consecutive ``states`` (``None`` for a shuffle).

    ``states`` is a sequence of :class:`~chkobba.State` values; anything else raises
    :class:`~chkobba.ChkobbaError` naming it.

    >>> from chkobba.deals import players_of_moves
    >>> game = Game(seed=4)
    >>> _ = game.deal()
    >>> _ = game.play("keep")
    >>> _ = game.play("QS")
    >>> players_of_moves(game.history)  # the shuffle is chance; player 1 cuts, then plays
    (None, 1, 1)
    >>> players_of_moves([new_match(), "keep"])
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: players_of_moves: states[1]: expected a State, got 'keep' (str)
    """
    return _players(_states("players_of_moves", states))


def split_deals(states: Sequence[State], moves: Sequence[Move]) -> tuple[RecordedDeal, ...]:
    """The deals of the match whose ``states`` follow each other by ``moves``.

    ``states`` holds one state more than ``moves``: the start, then the state after each
    move (what :meth:`Record.replay <chkobba.Record.replay>` returns). They are not
    replayed here: :meth:`Record.deals <chkobba.Record.deals>` is the checked way. Moves
    before the first shuffle belong to no deal. Arguments of the wrong type or length
    raise :class:`~chkobba.ChkobbaError` naming the argument.

    >>> import random
    >>> from chkobba.deals import split_deals
    >>> record = Record(players=2, moves=[random_shuffle(random.Random(92)), Cut(keep=True)])
    >>> states = record.replay()
    >>> [(deal.number, deal.dealer, deal.voided) for deal in split_deals(states, record.moves)]
    [(1, 0, True)]
    >>> split_deals(states, record.moves[:1])
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: split_deals: len(states) is 3 and len(moves) 1: states holds ...
    """
    states = _states("split_deals", states)
    moves = _moves(moves)
    if len(states) != len(moves) + 1:
        raise ChkobbaError(
            f"split_deals: len(states) is {len(states)} and len(moves) {len(moves)}: states "
            "holds one more, the start and then the state after each move"
        )
    players = _players(states)
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


def _players(states: tuple[State, ...]) -> tuple[int | None, ...]:
    return tuple(state.current_player for state in states[:-1])


def _states(function: str, states: object) -> tuple[State, ...]:
    """``states`` checked: these functions are public, and a wrong argument must say which,
    not fail on an attribute deep inside."""
    from chkobba.records import MOVE_LIMIT  # it imports this module

    found = items_of(states, f"{function}: states", MOVE_LIMIT + 1)
    for index, state in enumerate(found):
        if not isinstance(state, State):
            raise ChkobbaError(wrong_type(f"{function}: states[{index}]", "a State", state))
    return found


def _moves(moves: object) -> tuple[Move, ...]:
    from chkobba.records import MOVE_LIMIT  # it imports this module

    found = items_of(moves, "split_deals: moves", MOVE_LIMIT)
    for index, move in enumerate(found):
        if not isinstance(move, (Shuffle, Cut, Play)):
            raise ChkobbaError(
                wrong_type(f"split_deals: moves[{index}]", "a move (Shuffle, Cut or Play)", move)
            )
    return found
