"""Exact endgames: alpha-beta on the deal's final points difference.

Once every card is placed, the rest of a deal is a game of perfect information between
two sides. The solver takes a full :class:`~chkobba.State`; a view whose hidden cards are
all known (2 players, the stock empty) becomes that state through
:func:`~chkobba.bots.determinize`, which then has only one way to deal them.
:func:`solve` finds its exact value — side 0's deal points minus side 1's when both
sides play perfectly — by minimax with alpha-beta pruning and a transposition table,
playing every move through the engine's own :func:`~chkobba.apply`, so the value counts
everything the engine scores: every deal-scoring category of the profile, chkobbas, and
the leftovers going to the last capturer. A refill from the stock is no chance event
once the stock's order is fixed, so a state with one refill left is solved the same way
(12 plies with 2 players instead of 6).

:func:`move_values` gives every legal move's exact value from the mover's side — what
the bots play and what ``chkobba analyse`` shows.

>>> import random
>>> from chkobba.bots.endgame import move_values, solve
>>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
>>> while state.stock:                       # play to the last round
...     state = apply(state, legal_moves(state)[0])
>>> values = move_values(state)
>>> best = max(values.values())
>>> sign = 1 if state.side_of(state.current_player) == 0 else -1
>>> solve(state) == sign * best
True

Solving is exponential in the cards left: it is meant for the last round or two of a
2-side deal (at most a few thousand positions), not for a fresh deal.
"""

from __future__ import annotations

import math

from chkobba._copying import CopiesApart
from chkobba._describe import integral, kind_against, wrong_type
from chkobba.bots.greedy import WORTH
from chkobba.checks import broken_state
from chkobba.engine import apply
from chkobba.errors import ChkobbaError, shown
from chkobba.moves import Move, Play
from chkobba.state import Phase, State
from chkobba.views import PlayerView

__all__ = ["Solver", "deal_difference", "move_values", "solve"]

_EXACT, _LOWER, _UPPER = 0, 1, 2


def deal_difference(state: State, deals: int) -> int:
    """Side 0's points minus side 1's in the deal that ended after ``deals`` scored ones.

    ``0`` when no such deal was scored (a voided deal).

    >>> import random
    >>> from chkobba.bots.endgame import deal_difference
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(8))), Cut(keep=False))
    >>> while state.phase is Phase.PLAY:         # play the deal out
    ...     state = apply(state, legal_moves(state)[0])
    >>> state.deal_scores[0].points, deal_difference(state, 0)
    ((1, 3), -2)
    >>> deal_difference(state, 1)                # no second deal scored (yet)
    0
    """
    if not isinstance(state, State):
        raise ChkobbaError(wrong_type("deal_difference", "a State", state))
    deals = integral(deals)  # numpy's integers too
    if type(deals) is not int or deals < 0:
        raise ChkobbaError(
            f"deal_difference: deals must be a count of deals (an integer >= 0), not {shown(deals)}"
        )
    if len(state.captured) != 2:  # a third side's points would be left out unsaid
        raise ChkobbaError(
            f"deal_difference: side 0's points less side 1's need two sides, not "
            f"{len(state.captured)}"
        )
    try:  # a hand-built state can be broken (see check_state)
        return _difference(state, deals)
    except Exception as error:
        raise broken_state(state, error) from None


def _difference(state: State, deals: int) -> int:
    """:func:`deal_difference`, unchecked (the solver's leaves)."""
    if len(state.deal_scores) <= deals:
        return 0
    points = state.deal_scores[deals].points
    return points[0] - points[1]


def _key(state: State) -> tuple[object, ...]:
    """What the rest of the deal depends on, blind to the order cards were laid in: the
    profile too (a solver may be reused for the same cards under another profile) and
    the dealer, whose right leads after a refill."""
    return (
        state.rules,
        state.dealer,
        state.current_player,
        tuple(frozenset(hand) for hand in state.hands),
        frozenset(state.table),
        state.stock,
        tuple(frozenset(pile) for pile in state.captured),
        state.chkobbas,
        state.last_capturer,
    )


def _order(plays: tuple[Play, ...], table_size: int) -> list[Play]:
    """Likely best first (sweeps, rich captures, cheap lays): alpha-beta cuts sooner."""

    def guess(play: Play) -> float:
        if play.capture:
            sweep = 2.0 if len(play.capture) == table_size else 0.0
            # fsum: a frozenset's order follows the cards' addresses, and a float sum in
            # another order can differ in its last bit, which would reorder the search
            # (and so the solver's node count) from one process to the next.
            taken = math.fsum(WORTH[c.index] for c in play.capture)
            return 1.0 + sweep + WORTH[play.card.index] + taken
        return -WORTH[play.card.index]

    return sorted(plays, key=guess, reverse=True)


class Solver(CopiesApart):
    """An alpha-beta searcher with a transposition table kept between calls.

    Reuse one solver for many related positions (the moves of one decision, the
    samples of one search): positions reached twice are solved once. ``nodes`` counts
    the positions expanded.

    >>> import random
    >>> from chkobba.bots.endgame import Solver
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(8))), Cut(keep=False))
    >>> while state.stock:                       # play to the last round
    ...     state = apply(state, legal_moves(state)[0])
    >>> solver = Solver()
    >>> solver.solve(state), solver.nodes
    (-2, 51)
    >>> solver.solve(state), solver.nodes        # answered from the table: nothing expanded
    (-2, 51)
    """

    def __init__(self) -> None:
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}
        self.nodes: int = 0

    def solve(self, state: State) -> int:
        """The exact final deal points difference (side 0 minus side 1) of ``state``."""
        _check(state)
        return self._search(state, len(state.deal_scores), -math.inf, math.inf)

    def move_values(self, state: State) -> dict[Move, int]:
        """Each legal play's exact value from the mover's side (its side minus the other).

        >>> import random
        >>> from chkobba.bots.endgame import Solver
        >>> rng, state = random.Random(5), new_match()
        >>> while state.stock or state.phase is not Phase.PLAY:  # to the last round
        ...     move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        ...     state = apply(state, move)
        >>> {str(play): value for play, value in Solver().move_values(state).items()}
        {'QH': -4, 'JH': -4, '5S': -4}
        """
        _check(state)
        deals = len(state.deal_scores)
        sign = 1 if state.side_of(state.current_player) == 0 else -1  # type: ignore[arg-type]
        return {
            play: sign * self._search(apply(state, play), deals, -math.inf, math.inf)
            for play in state.legal_plays
        }

    def _search(self, state: State, deals: int, alpha: float, beta: float) -> int:
        if state.phase is not Phase.PLAY:
            return _difference(state, deals)
        key = _key(state)
        stored = self.table.get(key)
        if stored is not None:
            value, bound = stored
            if (
                bound == _EXACT
                or (bound == _LOWER and value >= beta)
                or (bound == _UPPER and value <= alpha)
            ):
                return value
        self.nodes += 1
        low, high = alpha, beta
        maximizing = state.side_of(state.current_player) == 0  # type: ignore[arg-type]
        best = -1000 if maximizing else 1000
        for play in _order(state.legal_plays, len(state.table)):
            value = self._search(apply(state, play), deals, alpha, beta)
            if maximizing:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        if best <= low:
            bound = _UPPER
        elif best >= high:
            bound = _LOWER
        else:
            bound = _EXACT
        self.table[key] = (best, bound)
        return best


def _check(state: State) -> None:
    if isinstance(state, PlayerView):
        raise ChkobbaError(
            "the endgame solver needs a State, not a PlayerView (determinize(view, rng), "
            "from chkobba.bots, deals its hidden cards)"
        )
    if not isinstance(state, State):
        raise ChkobbaError(
            f"the endgame solver needs a State, not {kind_against(state, 'a State')}"
        )
    if state.phase is not Phase.PLAY:
        raise ChkobbaError(
            f"the endgame solver needs a state in phase PLAY, not {state.phase.name}"
        )
    if len(state.captured) != 2:
        raise ChkobbaError(
            f"the endgame solver plays two sides against each other, not {len(state.captured)}"
        )


def solve(state: State) -> int:
    """The exact final deal points difference (side 0 minus side 1) of a full ``state``.

    >>> import random
    >>> from chkobba.bots.endgame import solve
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(8))), Cut(keep=False))
    >>> while state.stock:                       # play to the last round
    ...     state = apply(state, legal_moves(state)[0])
    >>> format_cards(state.hands[1]), format_cards(state.table), state.current_player
    ('AD 3S 6C', '4C 5S', 1)
    >>> solve(state)                             # side 1 ends 2 points ahead
    -2
    >>> solve(new_match())
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: the endgame solver needs a state in phase PLAY, not SHUFFLE
    """
    return Solver().solve(state)


def move_values(state: State) -> dict[Move, int]:
    """Each legal play's exact value for the player to move (their side minus the other).

    Player 1 (side 1) to move in the last round, holding AD 3S 6C before 4C 5S:

    >>> import random
    >>> from chkobba.bots.endgame import move_values
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(8))), Cut(keep=False))
    >>> while state.stock:                       # play to the last round
    ...     state = apply(state, legal_moves(state)[0])
    >>> {str(move): value for move, value in move_values(state).items()}
    {'AD': 2, '3S': -1, '6C': -1}
    """
    return Solver().move_values(state)
