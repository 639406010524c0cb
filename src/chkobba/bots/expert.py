"""ExpertBot: ISMCTS for the open deal, exact solutions for its end.

:class:`ExpertBot` thinks in two modes, by how much of the deal is left:

* **Endgame** (two sides, at most ``endgame`` cards left in the hands and the stock,
  by default 6: the last round of a 2-player deal, the last plies of a 4-player one):
  it draws determinizations of the cards it cannot see
  (:func:`~chkobba.bots.sampling.determinize`, consistent with every public fact of
  its view), solves every legal move of each exactly with
  :class:`~chkobba.bots.endgame.Solver` (alpha-beta on the deal's final points
  difference), and plays the move with the best average. With 2 players and an empty
  stock nothing is hidden any more: one sample is the true position, and the move is
  the exact best. Otherwise it takes samples until the solver has expanded ``budget``
  positions (a deterministic stand-in for a time limit: same seed, same move), or
  until its ``seconds`` (a real time limit, if set) are up.
* **Open deal** (earlier, the cut, or more than two sides): single-observer ISMCTS
  exactly as :class:`~chkobba.bots.ISMCTSBot` with the same options.

:meth:`ExpertBot.evaluate` gives every legal move's expected deal points difference
from the mover's side (its side's points minus the other's, for the rest of the deal):
``chkobba analyse`` and ``chkobba play``'s ``hint`` show these numbers.

>>> import random
>>> from chkobba.bots import ExpertBot
>>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
>>> while len(state.stock) > 0:
...     state = apply(state, legal_moves(state)[0])
>>> view, legal = observe(state, state.current_player), legal_moves(state)
>>> bot = ExpertBot(seed=1)
>>> values = bot.evaluate(view, legal)      # exact: nothing is hidden any more
>>> bot.choose(view, legal) == max(values, key=values.__getitem__)
True
"""

from __future__ import annotations

from typing import Any

from chkobba._describe import wrong_type
from chkobba.bots.base import checked_choice, checked_move, int_option, view_fault
from chkobba.bots.endgame import Solver
from chkobba.bots.ismcts import ISMCTSBot
from chkobba.bots.sampling import determinizer
from chkobba.errors import ChkobbaError
from chkobba.moves import Move
from chkobba.state import HAND_SIZE, Phase
from chkobba.views import PlayerView

__all__ = ["DEFAULT_BUDGET", "DEFAULT_ENDGAME", "ExpertBot"]

#: Cards left (hands and stock) at or below which the endgame is solved exactly: the
#: last round of a 2-player deal, the last six plies of a 4-player one.
DEFAULT_ENDGAME = 2 * HAND_SIZE
#: Solver positions per sampled endgame decision (4 players: the hidden hands are drawn
#: and solved until this many are expanded). 2,000 spends about what ISMCTS v1's search
#: spends on the same decision, so ExpertBot takes no more time per move (with 5,000,
#: 30% more at the 90th percentile of a 4-player match's moves: docs/strength.md). With
#: 2 players and an empty stock the one true position is solved whatever the budget.
DEFAULT_BUDGET = 2000


class ExpertBot(ISMCTSBot):
    """ISMCTS in the open deal, determinized exact solving at its end (see the module).

    In the deal's first round it searches, as the ISMCTSBot of the same options and seed:

    >>> import random
    >>> from chkobba.bots import ExpertBot, ISMCTSBot
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> view, legal = observe(state, 1), legal_moves(state)
    >>> bot = ExpertBot(iterations=20, seed=1)
    >>> bot.solves(view)
    False
    >>> bot.choose(view, legal) == ISMCTSBot(iterations=20, seed=1).choose(view, legal)
    True
    >>> ExpertBot(iterations=20, endgame=12, budget=500).spawn(2)
    ExpertBot(iterations=20, ..., endgame=12, budget=500, seed=2)
    """

    name = "expert"

    def __init__(
        self,
        *,
        iterations: int | None = None,
        exploration: float = 0.7,
        epsilon: float = 0.1,
        horizon: int = 6,
        endgame: int = DEFAULT_ENDGAME,
        budget: int = DEFAULT_BUDGET,
        inference: int = 0,
        seconds: float = 0.0,
        seed: int | None = None,
    ) -> None:
        super().__init__(
            iterations=iterations,
            exploration=exploration,
            epsilon=epsilon,
            horizon=horizon,
            inference=inference,
            seconds=seconds,
            seed=seed,
        )
        self.endgame: int = int_option("ExpertBot", "endgame", endgame, 0)
        self.budget: int = int_option("ExpertBot", "budget", budget, 1)

    def options(self) -> dict[str, Any]:
        return {**super().options(), "endgame": self.endgame, "budget": self.budget}

    def pick(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        if not self.solves(view):
            return super().pick(view, legal)
        values = self._endgame_values(view, legal)
        return max(legal, key=values.__getitem__)  # ties: the first in legal order

    def solves(self, view: PlayerView) -> bool:
        """Whether ``view`` is an endgame this bot solves exactly rather than searches."""
        if not isinstance(view, PlayerView):
            raise ChkobbaError(wrong_type("ExpertBot.solves", "a PlayerView", view))
        try:
            cards_left = sum(view.hand_sizes) + view.stock_size
            two_sides = len(view.captured) == 2
        except Exception as error:
            raise view_fault(view, error) from None
        return view.phase is Phase.PLAY and two_sides and cards_left <= self.endgame

    def evaluate(self, view: PlayerView, legal: tuple[Move, ...]) -> dict[Move, float]:
        """Each legal move's expected deal points difference for the mover's side.

        Exact (averaged over samples of the hidden cards) in the endgame, the ISMCTS
        mean reward of the move otherwise (a move the search never tried gets ``-inf``).
        """
        legal = checked_choice(self, view, legal, "evaluate")
        if not self.solves(view):
            return super().evaluate(view, legal)
        try:
            return self._endgame_values(view, legal)
        except ChkobbaError:
            raise
        except Exception as error:
            raise view_fault(view, error) from None

    def value_of(self, view: PlayerView, move: Move) -> float:
        """``move``'s expected deal points difference for the mover's side: exact in the
        endgame (as :meth:`evaluate`), else by a search committed to it
        (:meth:`ISMCTSBot.value_of <chkobba.bots.ISMCTSBot.value_of>`).

        >>> import random
        >>> from chkobba.bots import ExpertBot
        >>> rng, state = random.Random(5), new_match()
        >>> while state.stock or state.phase is not Phase.PLAY:  # to the last round
        ...     move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        ...     state = apply(state, move)
        >>> view = observe(state, state.current_player)   # Q♥ J♥ 5♠ on A♣ K♠: all known
        >>> ExpertBot(seed=1).value_of(view, parse_move("QH", view))
        -4.0
        """
        if not self.solves(view):
            return super().value_of(view, move)
        checked_move(self, view, move, "value_of")
        try:
            return self._endgame_values(view, (move,))[move]
        except ChkobbaError:
            raise
        except Exception as error:
            raise view_fault(view, error) from None

    def _endgame_values(self, view: PlayerView, legal: tuple[Move, ...]) -> dict[Move, float]:
        solver = Solver()
        totals = dict.fromkeys(legal, 0.0)
        samples = 0
        hidden_hands = sum(1 for p, size in enumerate(view.hand_sizes) if size and p != view.player)
        unique = view.stock_size == 0 and hidden_hands <= 1
        # Every sample counts as at least one position: repeated samples are answered from
        # the table without expanding anything, and must not loop for ever.
        sample = determinizer(view)
        deadline = self._deadline()
        while samples == 0 or (
            not unique and solver.nodes + samples < self.budget and not deadline.passed()
        ):
            values = solver.move_values(sample(self.rng))
            # Only the moves asked about: ``legal`` may be a subset of the legal moves (a
            # caller forbidding some); checked_choice made sure each is legal.
            for move in totals:
                totals[move] += values[move]
            samples += 1
        return {move: total / samples for move, total in totals.items()}
