"""Bots that play Chkobba from a :class:`~chkobba.PlayerView`.

Every bot has ``choose(view, legal) -> Move``. Four come built in, each seeded:

* :class:`RandomBot` — a uniformly random legal move;
* :class:`GreedyBot` — a documented one-move heuristic (see :mod:`chkobba.bots.greedy`);
* :class:`ISMCTSBot` — information-set Monte Carlo tree search
  (see :mod:`chkobba.bots.ismcts`);
* :class:`ExpertBot` — ISMCTS for the open deal, exact solving of its end
  (see :mod:`chkobba.bots.expert`).

Drive a whole deal with bots, each seeing only its own seat:

>>> import random
>>> from chkobba.bots import GreedyBot, RandomBot
>>> seats = [GreedyBot(seed=1), RandomBot(seed=2)]
>>> rng = random.Random(0)
>>> state = new_match()
>>> while not state.deal_scores:
...     if state.is_chance:
...         state = apply(state, random_shuffle(rng))
...     else:
...         player = state.current_player
...         move = seats[player].choose(observe(state, player), legal_moves(state))
...         state = apply(state, move)
>>> len(state.deal_scores)
1

See ``docs/bots.md`` for more.
"""

from chkobba.bots.base import Bot, SeededBot
from chkobba.bots.expert import ExpertBot
from chkobba.bots.greedy import GreedyBot
from chkobba.bots.ismcts import ISMCTSBot
from chkobba.bots.policy import BotActions, PolicyBot
from chkobba.bots.random_bot import RandomBot
from chkobba.bots.registry import BOT_TYPES, BotSpec, make_bot
from chkobba.bots.sampling import determinize, determinizer

__all__ = [
    "BOT_TYPES",
    "Bot",
    "BotActions",
    "BotSpec",
    "ExpertBot",
    "GreedyBot",
    "ISMCTSBot",
    "PolicyBot",
    "RandomBot",
    "SeededBot",
    "determinize",
    "determinizer",
    "make_bot",
]
