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
    """Plays a uniformly random legal move (seeded, so reproducible).

    The same seed draws the same moves, one after another:

    >>> import random
    >>> from chkobba.bots import RandomBot
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> view, legal = observe(state, 1), legal_moves(state)
    >>> bot = RandomBot(seed=3)
    >>> [str(bot.choose(view, legal)) for _ in range(3)]
    ['7C', 'KD x AD+4D+5D', 'KD x AD+4D+5D']
    >>> again = RandomBot(seed=3)
    >>> [str(again.choose(view, legal)) for _ in range(3)]
    ['7C', 'KD x AD+4D+5D', 'KD x AD+4D+5D']
    """

    name = "random"

    def pick(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        return self.rng.choice(legal)
