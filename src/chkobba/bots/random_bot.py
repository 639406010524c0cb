"""The baseline: a uniformly random legal move.

>>> import random
>>> from chkobba.bots import RandomBot
>>> state = apply(new_match(), random_shuffle(random.Random(5)))
>>> RandomBot(seed=3).choose(observe(state, 1), legal_moves(state)) in legal_moves(state)
True
"""

from __future__ import annotations

from chkobba.bots.base import SeededBot
from chkobba.moves import Move
from chkobba.views import PlayerView

__all__ = ["RandomBot"]


class RandomBot(SeededBot):
    """Plays a uniformly random legal move (seeded, so reproducible)."""

    name = "random"

    def pick(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        return self.rng.choice(legal)
