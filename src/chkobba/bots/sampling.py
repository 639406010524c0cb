"""Determinization: a full :class:`~chkobba.State` consistent with one player's view.

A bot that searches needs whole states, but it may only know its :class:`PlayerView`.
:func:`determinize` deals the cards the viewer cannot see at random — to every other
hand by its size, and the rest to the stock — and copies every public field. The
viewer's own hand (a kept cut card included: it is in the cutter's hand, and only the
cutter sees it) is kept as it is, and in phase ``CUT`` the card the cutter looks at stays
on top of the stock. Every state it returns could be the real one as far as the viewer
knows, and the engine's own ``legal_moves``/``apply`` run on it unchanged.

>>> import random
>>> from chkobba.bots.sampling import determinize
>>> state = apply(apply(new_match(), random_shuffle(random.Random(8))), Cut(keep=True))
>>> view = observe(state, 0)
>>> guess = determinize(view, random.Random(1))
>>> guess.hands[0] == state.hands[0] and guess.table == state.table
True
>>> sorted(guess.hands[1] + guess.stock) == sorted(state.hands[1] + state.stock)
True
>>> observe(guess, 0) == view
True
"""

from __future__ import annotations

import random

from chkobba._random import shuffle
from chkobba.errors import ChkobbaError
from chkobba.state import Phase, State
from chkobba.views import PlayerView, complete_state

__all__ = ["determinize"]


def determinize(view: PlayerView, rng: random.Random) -> State:
    """A random full state that ``view`` cannot tell apart from the real one.

    Raises :class:`~chkobba.ChkobbaError` for a view whose counts do not add up, and in
    phases ``SHUFFLE`` and ``OVER``, where nothing is hidden and there is nothing to
    decide.
    """
    if view.phase is not Phase.PLAY and view.phase is not Phase.CUT:
        raise ChkobbaError(f"determinize: nothing to sample in phase {view.phase.name}")
    pool = list(view.unseen())  # deck order, so the sample depends on the seed alone
    top = view.cut_card if view.phase is Phase.CUT else None  # not among the unseen
    hidden = sum(size for p, size in enumerate(view.hand_sizes) if p != view.player)
    expected_stock = view.stock_size - (1 if top is not None else 0)
    if len(view.hand) != view.hand_sizes[view.player] or len(pool) != hidden + expected_stock:
        raise ChkobbaError(
            f"determinize: the view of player {view.player} is inconsistent: "
            f"{len(pool)} unseen cards for {hidden} in other hands and "
            f"{view.stock_size} in the stock"
        )
    shuffle(pool, rng)  # exactly rng.shuffle(pool), faster
    hands = []
    position = 0
    for p, size in enumerate(view.hand_sizes):
        if p == view.player:
            hands.append(view.hand)
        else:
            hands.append(tuple(pool[position : position + size]))
            position += size
    stock = tuple(pool[position:])
    if top is not None:
        stock = (top, *stock)
    return complete_state(view, tuple(hands), stock)
