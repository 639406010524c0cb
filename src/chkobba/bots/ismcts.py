"""Information-set Monte Carlo tree search (single-observer ISMCTS).

:class:`ISMCTSBot` searches one tree over *move sequences* from its own seat. Every
iteration:

1. **determinize** — deal the cards it cannot see at random, consistently with its view
   (:func:`~chkobba.bots.sampling.determinize`); with ``inference`` (2 players, off by
   default) the opponent's hand is weighted by what their plays this round suggest:
   ``1`` keeps suspicions (:class:`~chkobba.bots.inference.HandInference`), ``2`` draws
   it from the posterior of an opponent model
   (:class:`~chkobba.bots.inference.OpponentModel`);
2. **select** — walk down the tree along moves legal in that sample, choosing by UCB1
   with availability counts (a child's "parent visits" are the times it was legal), each
   node scored from the side of the player who made its move;
3. **expand** one untried move, then **roll out** with a fast default policy (any
   capture before any lay: the one worth most, counting the played card and the cards
   taken, plus 1 for a sweep, so a rich capture can beat a poorer sweep; otherwise the
   lay of least worth, half a point worse if it leaves a table summing to 10 or less;
   with ``epsilon`` chance a random legal move) for ``horizon`` moves (``0``: to the end
   of the deal), on the compact kernel for deals in play, of two or three sides
   (:mod:`chkobba.bots._policy_rollout`, no ``State`` per move);
4. **back up** the reward: side 0's deal points minus side 1's (negated for side 1),
   divided by ``REWARD_SCALE`` — the real deal points when the rollout ended the deal,
   else :func:`~chkobba.bots.evaluation.deal_estimate` of the position reached, which
   counts the categories the profile plays (three sides: each side's points minus the
   mean of the others', or its :func:`~chkobba.bots.evaluation.side_estimates`). Deal
   points are a proxy for winning the match: every point counts the same towards the
   target.

Short rollouts plus the estimate were measured stronger than rollouts to the end of the
deal at the same time budget (``benchmarks/strength.py``): a whole-deal rollout is slow
and its result is dominated by the luck of cards not yet dealt, so fewer, noisier
samples reach each decision.

It plays the root move visited most. Everything it draws comes from its seeded
``random.Random`` and every collection it iterates is in a fixed order, so the same
seed and the same view give the same move in any process.

>>> import random
>>> from chkobba.bots import ISMCTSBot
>>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
>>> view, legal = observe(state, 1), legal_moves(state)
>>> move = ISMCTSBot(iterations=30, seed=9).choose(view, legal)
>>> move in legal and move == ISMCTSBot(iterations=30, seed=9).choose(view, legal)
True
"""

from __future__ import annotations

import contextvars
import math
import random
from collections.abc import Callable
from typing import Any, cast

from chkobba._describe import finite_number, integral, wrong_type
from chkobba._kernel import tally
from chkobba.bots._policy_rollout import capture_score, lay_score, policy_rewards, side_rewards
from chkobba.bots.base import (
    OPTION_LIMIT,
    Deadline,
    SeededBot,
    checked_choice,
    checked_move,
    int_option,
    real_option,
    require_view,
    seconds_option,
    view_fault,
)
from chkobba.bots.evaluation import tallies_estimates
from chkobba.bots.greedy import WORTH
from chkobba.bots.inference import HandInference, OpponentModel
from chkobba.bots.sampling import determinizer, weighted_determinizer
from chkobba.checks import broken_state
from chkobba.engine import apply, legal_moves
from chkobba.errors import ChkobbaError, shown
from chkobba.moves import Move, Play
from chkobba.rollouts import rollout as kernel_rollout
from chkobba.state import Phase, State
from chkobba.views import PlayerView

__all__ = [
    "DEFAULT_HORIZON",
    "DEFAULT_ITERATIONS",
    "REWARD_SCALE",
    "ISMCTSBot",
    "SearchNode",
    "rollout",
]

#: Iterations per move by default: measured to keep a move under about half a second.
DEFAULT_ITERATIONS = 800
#: Rollout length by default (moves), after which the position is estimated.
DEFAULT_HORIZON = 6
#: Deal-point differences are divided by this so rewards are mostly within [-1, 1].
REWARD_SCALE = 4.0

_IN_DEAL = (Phase.CUT, Phase.PLAY)


class SearchNode:
    """One node of :meth:`ISMCTSBot.search`'s tree: the statistics of one sequence of moves.

    ``children`` maps each move tried from here to its node; ``visits`` counts the
    iterations through the node, ``total`` adds up their rewards (deal points divided by
    :data:`REWARD_SCALE`, from the point of view of ``side``, the side that made the move
    into the node), and ``avail`` counts the iterations that found the move legal since
    the node was made (a move is not legal in every determinization; UCB's "visits of
    the parent"). The root stands for no move: its ``side`` is ``-1`` and its statistics
    stay 0, each iteration counted in the child it went through. Mutable: the search
    grows it; a caller reads it.

    >>> import random
    >>> from chkobba.bots import ISMCTSBot
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> root = ISMCTSBot(iterations=50, seed=1).search(observe(state, state.current_player))
    >>> root.visits, sum(child.visits for child in root.children.values())
    (0, 50)
    >>> root.children[max(root.children, key=lambda move: root.children[move].visits)]
    SearchNode(side=1, visits=22, total=5.651, avail=48, children=19)
    """

    __slots__ = ("avail", "children", "side", "total", "visits")

    def __init__(self, side: int) -> None:
        self.side: int = side
        self.children: dict[Move, SearchNode] = {}
        self.visits: int = 0
        self.total: float = 0.0
        self.avail: int = 0

    def __repr__(self) -> str:
        return (
            f"SearchNode(side={self.side}, visits={self.visits}, total={self.total:.3f},"
            f" avail={self.avail}, children={len(self.children)})"
        )


#: The options of the 0.1.0 ISMCTSBot (its pickles hold these and no others).
_V1_OPTIONS = ("iterations", "exploration", "epsilon", "horizon", "seed")


class ISMCTSBot(SeededBot):
    """Single-observer ISMCTS with ``iterations`` samples per move (see the module).

    ``iterations`` defaults to :data:`DEFAULT_ITERATIONS` (800). ``exploration`` is UCB1's
    constant ``c``: a tried move is scored by its mean reward (deal points / 4) plus
    ``c * sqrt(ln(times legal) / visits)``, so a larger ``c`` tries the less visited moves
    more often. ``epsilon``, ``horizon`` and ``inference`` shape the rollouts and the
    samples (see the module).

    ``seconds`` limits a decision's time (wall time; ``0``, the default: no limit): the
    search stops after ``iterations`` iterations or once ``seconds`` have passed,
    whichever comes first, and with ``seconds`` alone ``iterations`` is
    :data:`~chkobba.bots.base.OPTION_LIMIT`. A bot with a time limit plays by the speed
    of the machine, not by its seed alone.

    :meth:`evaluate` gives each move's mean reward in deal points (``-inf``: never tried):

    >>> import random
    >>> from chkobba.bots import ISMCTSBot
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> view, legal = observe(state, 1), legal_moves(state)
    >>> values = ISMCTSBot(iterations=20, seed=1).evaluate(view, legal)
    >>> {str(move): round(value, 2) for move, value in values.items()}
    {'7C': 0.72, 'KC x AD+4D+5D': 1.17, 'KD x AD+4D+5D': 1.23}
    >>> ISMCTSBot(iterations=2, seed=1).evaluate(view, legal)[legal[2]]
    -inf
    >>> ISMCTSBot(seconds=0.5).iterations      # a time limit alone: no count of its own
    10000000
    """

    name = "ismcts"

    def __init__(
        self,
        *,
        iterations: int | None = None,
        exploration: float = 0.7,
        epsilon: float = 0.1,
        horizon: int = DEFAULT_HORIZON,
        inference: int = 0,
        seconds: float = 0.0,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed=seed)
        bot = type(self).__name__
        self.seconds: float = seconds_option(bot, seconds)
        if iterations is None:  # by default: 800, or as many as the time limit allows
            iterations = OPTION_LIMIT if self.seconds else DEFAULT_ITERATIONS
        iterations = int_option(bot, "iterations", iterations, 1)
        horizon = int_option(bot, "horizon", horizon, 0)
        c = real_option(exploration, 0.0, math.inf)
        if c is None:
            raise ChkobbaError(
                f"{bot}: exploration must be a finite number >= 0, not {shown(exploration)}"
            )
        chance = real_option(epsilon, 0.0, 1.0)
        if chance is None:
            raise ChkobbaError(f"{bot}: epsilon must be between 0 and 1, not {shown(epsilon)}")
        # False and True still mean 0 and 1, as when inference was on or off (code written
        # then may pass them); every other option refuses a bool (docs/bots.md).
        inference = integral(inference)  # numpy's integers too
        if type(inference) not in (int, bool) or inference not in _INFERENCE:
            raise ChkobbaError(f"{bot}: inference must be 0, 1 or 2, not {shown(inference)}")
        self.iterations = iterations
        self.horizon = horizon
        self.inference: int = int(inference)
        self._hands, self._model = _readers()
        # One bot may play both seats (self-play: ``play_match([bot, bot])``): the seat it
        # last chose for reads its opponent with ``_hands`` and ``_model``, the other's
        # readers wait here, or each decision would forget what the other seat read.
        self._seat: int | None = None
        self._parked: dict[int, tuple[HandInference, OpponentModel]] = {}
        self.exploration = c
        self.epsilon = chance

    def __setstate__(self, state: dict[str, Any]) -> None:
        # Read a pickled bot, also one pickled by 0.1.0, which had neither ``inference`` nor
        # ``seconds``: it gets them, and what they need, as a bot made with its options has them
        # (their defaults), and keeps all it has (its generator's state too).
        if "inference" not in state:
            given = {name: state[name] for name in _V1_OPTIONS if name in state}
            state = {**vars(ISMCTSBot(**given)), **state}
        vars(self).update(state)
        vars(self).setdefault("_seat", None)  # a bot pickled before readers per seat
        vars(self).setdefault("_parked", {})

    def options(self) -> dict[str, Any]:
        return {
            "iterations": self.iterations,
            "exploration": self.exploration,
            "epsilon": self.epsilon,
            "horizon": self.horizon,
            "inference": self.inference,
            "seconds": self.seconds,
        }

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        # The decision's time counts from here: reading the opponent's plays and building
        # the samples (inference=2, a few milliseconds at most) are part of it. Kept in a
        # context variable, not on the bot: nothing of it stays after the call (refused or
        # not), in a copy or a pickle of the bot, or in another thread's decision.
        token = _DECISION.set((self, Deadline(self.seconds)))
        try:
            return self._checked_choice(view, legal)
        finally:
            _DECISION.reset(token)

    def _checked_choice(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        legal = checked_choice(self, view, legal)  # before the inference takes the view in
        self._check_inference("choose", view)
        try:
            # Every view, forced moves included, to follow the opponent.
            if self.inference:
                self._take_seat(view.player)
            if self.inference == 1:
                self._hands.observe(view)
            elif self.inference == 2:
                self._model.observe(view)
            return self._choose(view, legal)
        except ChkobbaError:
            raise
        except Exception as error:
            raise view_fault(view, error) from None

    def _take_seat(self, seat: int) -> None:
        """Make ``seat``'s readers of its opponent the current ones (``_hands``,
        ``_model``), parking those of the seat the bot chose for last."""
        if self._seat is None:  # the readers made with the bot serve its first seat
            self._seat = seat
        elif seat != self._seat:
            self._parked[self._seat] = (self._hands, self._model)
            parked = self._parked
            self._hands, self._model = parked.pop(seat) if seat in parked else _readers()
            self._seat = seat

    def _readers_of(self, seat: int) -> tuple[HandInference, OpponentModel] | None:
        """What the bot read of ``seat``'s opponent, if it has chosen for ``seat``."""
        if seat == self._seat:
            return self._hands, self._model
        return self._parked.get(seat)

    def _deadline(self) -> Deadline:
        """The time limit of this bot's decision under way (:meth:`choose`'s), or of a
        search asked for alone (:meth:`search`, :meth:`evaluate`), counted from now."""
        owner, deadline = _DECISION.get()
        return deadline if owner is self and deadline is not None else Deadline(self.seconds)

    def pick(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        root = self.search(view)
        best = max(range(len(legal)), key=lambda i: _visits(root, legal[i]))
        return legal[best]

    def _check_inference(self, method: str, view: PlayerView) -> None:
        """Refuse to play with hand inference outside a 2-player match: it reads the plays
        of the one opponent, and would otherwise be silently off (a bot named
        ``inference=1`` in a table of results must have used it). Valuing moves
        (``evaluate``, a review) is not refused: only the moves chosen feed the inference,
        so it plays no part there at any player count."""
        refusal = inference_refusal(self, view.players)
        if refusal is not None:
            raise ChkobbaError(f"{type(self).__name__}.{method}: {refusal}")

    def search(self, view: PlayerView) -> SearchNode:
        """The search tree of one decision: its root :class:`SearchNode`, whose children
        are the moves tried (what :meth:`evaluate` and :meth:`choose` read)."""
        require_view(f"{type(self).__name__}.search", view)
        root = SearchNode(side=-1)
        self._iterations(view, lambda state, deals: self._iterate(root, state, deals))
        return root

    def _iterations(self, view: PlayerView, step: Callable[[State, int], object]) -> None:
        """``step(determinization, deals scored)`` for each of the bot's iterations, until
        its time is up; a fault of a hand-built view is named as such."""
        try:
            deadline = self._deadline()
            deals = len(view.deal_scores)
            sample = self.sampler(view)
            for _ in range(self.iterations):
                step(sample(self.rng), deals)
                if deadline.passed():
                    break
        except ChkobbaError:
            raise
        except Exception as error:
            raise view_fault(view, error) from None

    def sampler(self, view: PlayerView) -> Callable[[random.Random], State]:
        """The determinizations of ``view`` this bot searches: uniform, or weighted by
        what the opponent's plays say about their hand (``inference``)."""
        require_view(f"{type(self).__name__}.sampler", view)
        readers = self._readers_of(view.player)
        if readers is None:
            return determinizer(view)
        hands, model = readers
        # The inference speaks of the view it last took in. Equal, not identical: a copied
        # or unpickled bot holds a copy of that view, and must search as the original
        # (comparing two views costs a microsecond or two, once per search).
        if self.inference == 1 and hands.view == view and hands.suspicions:
            return _weighted(determinizer(view), hands, 1 - view.player)
        opponent_holds = view.players == 2 and view.hand_sizes[1 - view.player]
        if self.inference == 2 and model.view == view and model.decisions and opponent_holds:
            held, cumulative = model.posterior(view)
            if cumulative[-1] > 0:  # (with the model's noise, every hand weighs something)
                return weighted_determinizer(view, held, cumulative)
        return determinizer(view)

    def evaluate(self, view: PlayerView, legal: tuple[Move, ...]) -> dict[Move, float]:
        """Each legal move's mean search reward, in deal points for the mover's side.

        A move the search never tried gets ``-inf``.
        """
        legal = checked_choice(self, view, legal, "evaluate")
        root = self.search(view)
        values = {}
        for move in legal:
            child = root.children.get(move)
            visited = child is not None and child.visits > 0
            values[move] = child.total / child.visits * REWARD_SCALE if visited else -math.inf  # type: ignore[union-attr]
        return values

    def value_of(self, view: PlayerView, move: Move) -> float:
        """``move``'s expected deal points difference for the mover's side, by a search
        committed to it: each of the bot's iterations plays it first, then searches on.

        Where :meth:`evaluate` gives a move the search soon left a few iterations (its
        mean then moves by a point or more from seed to seed), this gives it all of
        them: what a game review asks of a move it would flag.

        >>> import random
        >>> from chkobba.bots import ISMCTSBot
        >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
        >>> view = observe(state, state.current_player)   # 7♣ K♦ K♣ on Q♠ 4♦ A♦ 5♦
        >>> lay, take = parse_move("7C", view), parse_move("KD", view)
        >>> bot = ISMCTSBot(iterations=200, seed=1)
        >>> round(bot.value_of(view, lay), 2), round(bot.value_of(view, take), 2)
        (-0.18, 1.04)
        """
        checked_move(self, view, move, "value_of")
        committed: list[SearchNode] = []  # the node after the move, from the mover's side
        rewards: list[float] = []

        def step(state: State, deals: int) -> None:
            if not committed:
                committed.append(SearchNode(state.side_of(view.player)))
            node = committed[0]
            rewards.append(self._iterate(node, apply(state, move), deals)[node.side])

        self._iterations(view, step)
        return sum(rewards) / len(rewards) * REWARD_SCALE

    def _iterate(self, root: SearchNode, state: State, deals: int) -> tuple[float, ...]:
        rng, c = self.rng, self.exploration
        node, path = root, []
        while state.phase in _IN_DEAL:
            moves = legal_moves(state)
            children = node.children
            # Each move's child looked up once (hashing a play runs Python code).
            found = [children.get(m) for m in moves]
            untried = [moves[i] for i, child in enumerate(found) if child is None]
            for child in found:
                if child is not None:
                    child.avail += 1
            if untried:
                move = untried[rng.randrange(len(untried))]
                node = children[move] = SearchNode(state.side_of(state.current_player))  # type: ignore[arg-type]
                node.avail = 1
                path.append(node)
                state = apply(state, move)
                break
            tried = cast("list[SearchNode]", found)  # every move has its child here
            at = max(range(len(moves)), key=lambda i: _ucb(tried[i], c))
            node = tried[at]
            path.append(node)
            state = apply(state, moves[at])
        rewards: tuple[float, ...] | None = None
        if self.epsilon < 1.0 or self.horizon:  # (uniform to the end: chkobba.rollout)
            rewards = policy_rewards(state, rng, self.epsilon, self.horizon, REWARD_SCALE)
        if rewards is None:
            rewards = _rewards(_rollout(state, rng, self.epsilon, self.horizon), deals)
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.side]
        return rewards


def inference_refusal(bot: object, players: int) -> str | None:
    """Why ``bot`` cannot play a match of ``players``: its hand inference reads the one
    opponent of a 2-player match (``None``: it can, or it has no inference). The bots'
    ``choose``, the arena and the command line refuse with it before a move is made."""
    level = getattr(bot, "inference", 0)
    if not level or players == 2:
        return None
    return (
        f"inference={level} follows the opponent of a 2-player match, and this match has "
        f"{players} players (use inference=0)"
    )


def _readers() -> tuple[HandInference, OpponentModel]:
    """Fresh readers of an opponent's plays, for ``inference=1`` and ``inference=2``."""
    return (
        HandInference(sweep=SWEEP_DOUBT, capture=CAPTURE_DOUBT),
        OpponentModel(temperature=MODEL_TEMPERATURE, noise=MODEL_NOISE),
    )


#: The ``inference`` levels: none, suspicions (:class:`HandInference`), the opponent
#: model (:class:`OpponentModel`).
#: The bot making a decision in this thread (its :meth:`ISMCTSBot.choose` under way) and
#: the time limit of that decision.
_DECISION: contextvars.ContextVar[tuple[object, Deadline | None]] = contextvars.ContextVar(
    "chkobba_decision", default=(None, None)
)

_INFERENCE = (0, 1, 2)
#: With ``inference=2``: the opponent model's temperature and chance of a random play
#: (see :class:`~chkobba.bots.inference.OpponentModel`).
MODEL_TEMPERATURE = 0.1
MODEL_NOISE = 0.3
#: With ``inference=1``: the chance a player leaves a sweep they could make, and lays a
#: card down when another of theirs would capture (see :mod:`chkobba.bots.inference`).
SWEEP_DOUBT = 0.1
CAPTURE_DOUBT = 0.3
# Rejection sampling gives up after this many draws and keeps the last (a bound on time
# when the suspicions fit few hands).
_TRIES = 30


def _weighted(
    sample: Callable[[random.Random], State], hands: HandInference, opponent: int
) -> Callable[[random.Random], State]:
    """``sample``, keeping each draw with the likelihood of the opponent's sampled hand."""

    def draw(rng: random.Random) -> State:
        for _ in range(_TRIES):
            state = sample(rng)
            weight = hands.weight(state.hands[opponent])
            if weight >= 1.0 or rng.random() < weight:
                break
        return state

    return draw


def _ucb(node: SearchNode, c: float) -> float:
    return node.total / node.visits + c * math.sqrt(math.log(node.avail) / node.visits)


def _visits(root: SearchNode, move: Move) -> int:
    child = root.children.get(move)
    return child.visits if child is not None else -1


def _rewards(state: State, deals: int) -> tuple[float, ...]:
    """Each side's deal points minus the mean of the others' (two sides: side 0's points
    minus side 1's, and its negation), scaled; estimated if the deal goes on (see
    :mod:`chkobba.bots.evaluation`)."""
    sides, rules = state.sides, state.rules
    if state.phase in _IN_DEAL:
        piles = state.captured
        estimates = tallies_estimates(
            [*map(tally, piles)], [*map(len, piles)], state.chkobbas, rules
        )
        return tuple([e / REWARD_SCALE for e in estimates])
    elif len(state.deal_scores) == deals:
        return (0.0,) * sides  # a voided deal
    else:
        points = state.deal_scores[-1].points
    return side_rewards(points, REWARD_SCALE)


def rollout(state: State, rng: random.Random, epsilon: float = 0.1, horizon: int = 0) -> State:
    """Play ``state`` with the fast default policy to the end of its deal, or for at
    most ``horizon`` moves when ``horizon`` is positive. ``epsilon``, from 0 to 1, is the
    chance of a uniformly random legal move instead of the policy's.

    With ``epsilon=1`` and ``horizon=0`` every move is uniformly random to the end of the
    deal: exactly what :func:`chkobba.rollout` plays on the compact kernel, which this
    then calls (several times faster than stepping through ``apply``). The two share a
    name and their first arguments, not their moves: ``chkobba.rollout`` plays uniformly
    at random, this the policy, unless ``epsilon=1``.

    >>> import random
    >>> from chkobba.bots.ismcts import rollout
    >>> state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    >>> later = rollout(state, random.Random(1), horizon=2)     # two moves, one each
    >>> later.phase.name, [len(hand) for hand in later.hands]
    ('PLAY', [2, 2])
    >>> ended = rollout(state, random.Random(1))                # to the end of the deal
    >>> ended.phase.name, ended.deal_scores[-1].points
    ('SHUFFLE', (2, 2))
    >>> rollout(state, random.Random(1), epsilon=2)
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: rollout: epsilon must be between 0 and 1, not 2
    """
    if not isinstance(state, State):
        raise ChkobbaError(wrong_type("rollout", "a State", state))
    if not isinstance(rng, random.Random):
        raise ChkobbaError(wrong_type("rollout", "a random.Random", rng))
    horizon = integral(horizon)  # numpy's integers too
    if type(horizon) is not int:  # (any int: 0 or less plays to the end of the deal)
        raise ChkobbaError(f"rollout: horizon must be an integer, not {shown(horizon)}")
    chance = finite_number("rollout: epsilon", epsilon)
    if not 0.0 <= chance <= 1.0:  # a chance, as the bot's own option
        raise ChkobbaError(f"rollout: epsilon must be between 0 and 1, not {shown(epsilon)}")
    try:  # a hand-built state can be broken (see check_state)
        return _rollout(state, rng, chance, horizon)
    except ChkobbaError:
        raise
    except Exception as error:
        raise broken_state(state, error) from None


def _rollout(state: State, rng: random.Random, epsilon: float, horizon: int) -> State:
    """:func:`rollout`, unchecked (the search's path where the kernel's policy rollout
    does not apply: from a cut, or with uniform moves to the deal's end)."""
    if epsilon >= 1.0 and horizon == 0:
        return kernel_rollout(state, rng) if state.phase in _IN_DEAL else state
    steps = horizon if horizon > 0 else -1
    while state.phase in _IN_DEAL and steps != 0:
        steps -= 1
        moves = legal_moves(state)
        if len(moves) == 1:
            move = moves[0]
        elif rng.random() < epsilon:
            move = moves[rng.randrange(len(moves))]
        else:
            move = _default_move(state, moves, rng)
        state = apply(state, move)
    return state


def _default_move(state: State, moves: tuple[Move, ...], rng: random.Random) -> Move:
    """The capture scoring most (the worth of the played card and the cards taken, plus
    1 for a sweep: see :func:`~chkobba.bots._policy_rollout.capture_score`), else the lay
    of least worth (half a point worse on a table one card could sweep)."""
    values = state.rules.card_values
    table_sum = sum(values[c.index] for c in state.table)
    table_size = len(state.table)
    best: Move = moves[0]
    best_score = -math.inf
    for move in moves:
        if not isinstance(move, Play):
            return moves[rng.randrange(len(moves))]  # a cut: no opinion
        if move.capture:
            taken = [WORTH[c.index] for c in move.capture]
            score = capture_score(WORTH[move.card.index], taken, len(move.capture) == table_size)
        else:
            score = lay_score(WORTH[move.card.index], table_sum + values[move.card.index])
        score += rng.random() * 0.01  # random tie-breaks
        if score > best_score:
            best, best_score = move, score
    return best
