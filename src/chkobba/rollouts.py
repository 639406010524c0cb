"""Random playouts at kernel speed: :func:`rollout`.

A rollout plays random moves from any state of a match to the end of the deal (or of the
match) on the compact kernel (cards as numbers, capture options precomputed per table of
values, see :mod:`chkobba._kernel`), and builds a :class:`~chkobba.State` only at the end.
The result is exactly the state that :func:`~chkobba.apply` gives for the same moves;
pass ``moves=[]`` to get them.

>>> import random
>>> from chkobba import apply, new_match
>>> played = []
>>> end = rollout(new_match(), random.Random(5), moves=played)
>>> len(end.deal_scores), end.scores == end.deal_scores[0].points
(1, True)
>>> state = new_match()
>>> for move in played:
...     state = apply(state, move)
>>> state == end
True
>>> rollout(new_match(), random.Random(5)) == end   # same seed, same deal
True
"""

from __future__ import annotations

import random
from typing import Literal

from chkobba._describe import wrong_type
from chkobba._playout import play_deal
from chkobba.checks import broken_state
from chkobba.errors import ChkobbaError, shown
from chkobba.moves import Move
from chkobba.state import Phase, State

__all__ = ["rollout"]

_OVER = Phase.OVER
_UNTIL = ("deal", "match")


def rollout(
    state: State,
    rng: random.Random,
    *,
    until: Literal["deal", "match"] = "deal",
    moves: list[Move] | None = None,
) -> State:
    """Play uniformly random moves from ``state`` to the end of the deal or the match.

    - ``until="deal"``: stop when the current deal is scored (the result has one more
      entry in ``deal_scores``) or the match is over; a voided deal is dealt again.
      Between deals (phase ``SHUFFLE``, the last deal already scored) the current deal
      is the next one, which is shuffled and played: a search that wants the deal just
      ended reads ``state.deal_scores[-1]`` instead of rolling out.
      ``until="match"``: play on to the end of the match.
    - Shuffles are drawn from ``rng``, the cutter keeps or exposes with probability ½ (in
      profiles with a cut), and every play is uniform among :func:`~chkobba.legal_moves`
      of its state (each pair of card and capture is one outcome).
    - The returned state is exactly what :func:`~chkobba.apply` gives for the moves
      played; ``moves``, when given a list, receives them in order.
    - The same ``rng`` state gives the same result. A state that is already over comes
      back unchanged.

    Stable for callers that need speed (search bots): it takes any state, reachable or
    built by hand, and checks nothing about the moves it chooses itself, since it only
    ever chooses legal ones. A broken state that makes it fail raises
    :class:`~chkobba.ChkobbaError` naming the inconsistency (see
    :func:`~chkobba.check_state`), and ``moves`` is left as it was.

    Not to be confused with the search bots' :func:`chkobba.bots.ismcts.rollout`, which
    plays their default policy (the best capture, a cheap lay) and may stop after a
    number of moves; with ``epsilon=1`` and no horizon it plays this.

    >>> import random
    >>> over = rollout(new_match(), random.Random(3), until="match")
    >>> over.phase, over.winner, over.scores, len(over.deal_scores)
    (<Phase.OVER: 'over'>, 0, (21, 17), 9)
    >>> rollout(over, random.Random(0)) == over  # already over: unchanged
    True
    >>> rollout(new_match(), random.Random(3), until="hand")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: rollout: until must be 'deal' or 'match', not 'hand'
    """
    if not isinstance(state, State):
        raise ChkobbaError(wrong_type("rollout", "a State", state))
    if not isinstance(rng, random.Random):
        raise ChkobbaError(f"rollout: rng must be a random.Random, not {shown(rng)}")
    if not isinstance(until, str) or until not in _UNTIL:
        raise ChkobbaError(f"rollout: until must be 'deal' or 'match', not {shown(until)}")
    if moves is not None and not isinstance(moves, list):
        raise ChkobbaError(f"rollout: moves must be a list to append to, not {shown(moves)}")
    if type(state.phase) is not Phase:  # else a broken state would play a whole deal
        raise broken_state(state, ChkobbaError(f"rollout: {shown(state.phase)} is not a Phase"))
    start = state
    played = 0 if moves is None else len(moves)
    try:
        while state.phase is not _OVER:
            state = play_deal(state, rng, moves)
            if until == "deal":
                break
    except Exception as error:  # a hand-built state can be broken (see check_state)
        if moves is not None:
            del moves[played:]  # an error changes nothing
        if isinstance(error, ChkobbaError):  # already says what is wrong
            raise
        raise broken_state(start, error) from None
    return state
