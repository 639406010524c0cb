"""A PettingZoo AEC environment for Chkobba (the optional extra ``chkobba[pettingzoo]``).

A thin layer over the rules engine: masks come from :func:`~chkobba.legal_moves` through
:mod:`chkobba.actions`, moves go through :func:`~chkobba.apply`, and observations are
built from :func:`~chkobba.observe` by :mod:`chkobba.observations`. ``docs/adapters.md``
describes the action ids, the observation vector and the rewards.

>>> from chkobba.pettingzoo import env
>>> game = env(players=2)
>>> game.reset(seed=7)
>>> game.agent_selection, int(game.action_space("player_0").n)
('player_0', 70)
>>> observation, reward, terminated, truncated, info = game.last()
>>> sorted(observation), observation["action_mask"].nonzero()[0].tolist()  # keep or expose
(['action_mask', 'observation'], [40, 41])
>>> for agent in game.agent_iter():
...     observation, reward, terminated, truncated, info = game.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = game.action_space(agent).sample(observation["action_mask"])
...     game.step(action)
>>> game.agents
[]

Importing this module registers the environment as ``chkobba/chkobba-v0`` in
PettingZoo's registry, so ``pettingzoo.make("aec", "chkobba/chkobba-v0", players=4)``
works once ``chkobba.pettingzoo`` has been imported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from chkobba._copying import CopiesApart
from chkobba._describe import (
    missing_extra,
    plain_flag,
    plain_integer,
    reset_options,
    reset_seed,
)

try:
    import gymnasium
    import numpy as np
    import pettingzoo
    from gymnasium import spaces
    from gymnasium.utils import EzPickle, seeding
    from pettingzoo.utils import wrappers
except ImportError as error:  # say which extra brings the missing package
    raise missing_extra(error, "chkobba.pettingzoo", "pettingzoo") from error

from chkobba.actions import Position, legal_actions, num_actions, render_position, step
from chkobba.cards import DECK
from chkobba.engine import apply
from chkobba.errors import ChkobbaError, shown
from chkobba.gymnasium import deal_info, end_info
from chkobba.moves import Shuffle
from chkobba.observations import (
    deal_reward_option,
    observation_bounds,
    observation_vector,
    player_returns,
)
from chkobba.rules import TUNISIAN, Rules, profile
from chkobba.state import Phase, State, new_match
from chkobba.views import observe

__all__ = ["ENV_ID", "env", "raw_env"]

#: The id under which the environment is registered with PettingZoo.
ENV_ID = "chkobba/chkobba-v0"


def env(
    players: int = 2,
    render_mode: str | None = None,
    single_deal: bool = False,
    rules: Rules | str = TUNISIAN,
    *,
    deal_reward: float = 0.0,
) -> Any:
    """The environment wrapped in PettingZoo's order-enforcing wrapper (the usual entry point).

    No wrapper turns illegal actions into penalties: an illegal id raises
    :class:`~chkobba.IllegalMoveError`.

    >>> from chkobba.pettingzoo import env
    >>> game = env(players=4)
    >>> type(game).__name__, game.possible_agents
    ('OrderEnforcingWrapper', ['player_0', 'player_1', 'player_2', 'player_3'])
    >>> game.reset(seed=1)
    >>> game.step(40)  # player_2, the cutter, keeps the top card (action 40)
    >>> game.step(39)  # and must now play a card of its own
    Traceback (most recent call last):
    ...
    chkobba.errors.IllegalMoveError: KC is not in player 2's hand
    """
    return wrappers.OrderEnforcingWrapper(
        raw_env(players, render_mode, single_deal, rules, deal_reward=deal_reward)
    )


class raw_env(pettingzoo.AECEnv, EzPickle, CopiesApart):
    """Chkobba as an AEC environment: agents ``player_0 …``, one acting at a time.

    ``players`` is 2, 3 (each for himself) or 4 in partnerships (``player_0`` and
    ``player_2`` against ``player_1`` and ``player_3``), as the ``rules`` profile (a
    :class:`~chkobba.Rules` or a name from :data:`~chkobba.PROFILES`) allows. An episode
    is a whole match, or one deal with ``single_deal=True`` (also a :meth:`reset` option).
    ``deal_reward`` shapes whole-match episodes: at the end of every deal each player also
    gets ``deal_reward`` times its side's points minus the mean of the other sides' (the
    single-deal reward, zero-sum), on top of the match's ``+1``/``-1`` at the end.
    The action space has :func:`~chkobba.actions.num_actions` ids for the profile.

    One deal between partnerships, every agent playing its lowest legal action id:

    >>> from chkobba.pettingzoo import raw_env
    >>> game = raw_env(players=4, single_deal=True)
    >>> game.reset(seed=1, options={"dealer": 3})
    >>> game.agent_selection  # the cutter, at the dealer's right, acts first
    'player_0'
    >>> rewards = {}
    >>> for agent in game.agent_iter():
    ...     observation, reward, terminated, truncated, info = game.last()
    ...     if terminated or truncated:
    ...         rewards[agent] = reward
    ...     game.step(None if terminated or truncated else observation["action_mask"].argmax())
    >>> info["deal"]["points"].tolist(), rewards
    ([0, 4], {'player_0': -4.0, 'player_1': 4.0, 'player_2': -4.0, 'player_3': 4.0})
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "chkobba_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        render_mode: str | None = None,
        single_deal: bool = False,
        rules: Rules | str = TUNISIAN,
        *,
        deal_reward: float = 0.0,
    ) -> None:
        self.rules = profile(rules)
        shaping = deal_reward_option(deal_reward)
        one_deal = plain_flag("single_deal", single_deal)
        players = plain_integer(players)  # type: ignore[assignment]  # numpy's integers too
        self.rules.sides(players)  # refuses a player count the profile does not allow
        if render_mode is not None and (
            not isinstance(render_mode, str) or render_mode not in self.metadata["render_modes"]
        ):
            raise ChkobbaError(
                f"render_mode must be None, 'human' or 'ansi', not {shown(render_mode)}"
            )
        super().__init__()
        EzPickle.__init__(self, players, render_mode, single_deal, rules, deal_reward=deal_reward)
        self.players = players
        self.render_mode = render_mode
        self.single_deal = one_deal
        self.deal_reward = shaping
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agents = self.possible_agents[:]
        low, high = observation_bounds(self.rules)
        actions = num_actions(self.rules)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        np.array(low, np.float32), np.array(high, np.float32), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.np_random: np.random.Generator | None = None
        self.np_random_seed: int | None = None
        self.position = Position(new_match(players, rules=self.rules))
        self._episode_single_deal = self.single_deal
        self._started = False  # no agent_selection, rewards… before the first reset()

    def __getstate__(self) -> dict[str, Any]:
        # Pickle and deepcopy keep the episode (EzPickle alone would rebuild a fresh env).
        return self.__dict__.copy()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[self._agent(agent, "observation_space")]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[self._agent(agent, "action_space")]

    def _agent(self, agent: object, function: str) -> str:
        """``agent`` if it is one of ``possible_agents``, else a ChkobbaError listing them."""
        if not isinstance(agent, str) or agent not in self.possible_agents:
            raise ChkobbaError(
                f"{function}: {shown(agent)} is not an agent of this game "
                f"({', '.join(self.possible_agents)})"
            )
        return agent

    @property
    def match_state(self) -> State:
        """The core :class:`~chkobba.State` of the match (everything, hidden cards included)."""
        return self.position.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode. ``seed`` seeds ``self.np_random``, the source of all chance.

        Options: ``single_deal`` (bool) plays one deal instead of a match, in this and
        later episodes (a plain ``reset()`` keeps it); ``dealer``
        (int) sets the first dealer, otherwise drawn by lot from ``np_random``. Other keys
        are ignored. ``seed`` and the options are checked before anything changes: a
        refused reset leaves the episode under way and the generator as they were.
        """
        seed = reset_seed(seed)
        given = reset_options(options)
        single_deal = plain_flag(
            "the single_deal option", given.get("single_deal", self.single_deal)
        )
        dealer: Any = plain_integer(given.get("dealer"))  # numpy's integers too
        match = None if dealer is None else self._new_match(dealer)
        # Everything is checked: from here on the reset commits.
        if seed is not None or self.np_random is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        # single_deal persists: vector envs auto-reset with a plain reset().
        self.single_deal = self._episode_single_deal = single_deal
        if match is None:
            match = self._new_match(int(self.np_random.integers(self.players)))
        self.position = Position(match)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._deal_if_needed()
        self.agent_selection = self._agent_to_act()
        self._started = True

    def _clear_rewards(self) -> None:
        # AECEnv's writes the int 0: every reward here is a float, as after reset().
        for agent in self.rewards:
            self.rewards[agent] = 0.0

    def step(self, action: int | None) -> None:
        """Play action id ``action`` for ``agent_selection`` (``None`` once it is done)."""
        agent = self._selected("step")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:  # PettingZoo's own check raises a plain ValueError
                raise ChkobbaError(
                    f"{agent} is done: its only valid action is None, not {shown(action)}"
                )
            self._was_dead_step(action)
            return
        if action is None:
            raise ChkobbaError(f"{agent} must act: None is only for agents that are done")
        position = step(self.position, action)  # IllegalMoveError leaves the env untouched
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        scored = len(self.position.state.deal_scores)
        self.position = position
        self._report_deal(scored)
        if self._episode_over():
            self._finish()
        else:
            self._deal_if_needed()
            self.agent_selection = self._agent_to_act()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """As PettingZoo's, with a ChkobbaError before the first reset() or once every
        agent is done (instead of an AttributeError or a KeyError)."""
        self._selected("last")
        return super().last(observe)  # type: ignore[no-any-return]

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        """As PettingZoo's (empty once every agent is done), refused before the first
        reset(): there is no agent to select yet."""
        self._check_started("agent_iter")
        return super().agent_iter(max_iter)

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation: its view as a vector, and its action mask."""
        self._check_started("observe")
        player = self.possible_agents.index(self._agent(agent, "observe"))
        view = observe(self.position.state, player)
        mask = np.zeros(num_actions(self.rules), dtype=np.int8)
        if agent == self.agent_selection and not self._episode_over():
            for action in legal_actions(self.position):  # a few ids: cheaper than fancy indexing
                mask[action] = 1
        observed = observation_vector(view, self.position.pending)
        vector = np.fromiter(observed, np.float32, len(observed))  # cheaper than asarray
        return {"observation": vector, "action_mask": mask}

    def render(self) -> str | None:
        """The text board (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        text = render_position(self.position)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (the board is text)."""

    def state(self) -> Any:
        """Not provided: this environment has no global state array (no ``state_space``)
        for centralized training; :attr:`match_state` is the whole match as a
        :class:`~chkobba.State`, hidden cards included. Raises ``NotImplementedError``,
        as PettingZoo's base class does."""
        raise NotImplementedError(
            "chkobba's PettingZoo environment has no global state array; "
            "env.unwrapped.match_state is the whole match as a chkobba.State"
        )

    if not TYPE_CHECKING:  # (a __getattr__ seen by mypy would make every attribute Any)

        def __getattr__(self, name: str) -> Any:
            # Only for names not found. PettingZoo's wrapper reads agent_selection itself
            # in last() and agent_iter, also after a reset() it counted and this refused.
            if name == "agent_selection":
                raise AttributeError("agent_selection: no episode has started: call reset() first")
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # --- internals ---------------------------------------------------------------

    def _check_started(self, function: str) -> None:
        if not self._started:
            raise ChkobbaError(f"{function}: no episode has started: call reset() first")

    def _selected(self, function: str) -> str:
        """``agent_selection``, once an episode is under way (not every agent done)."""
        self._check_started(function)
        if not self.agents:  # the last agent's None step removed it: nothing to select
            raise ChkobbaError(
                f"{function}: the episode is over (every agent is done): call reset()"
            )
        return self.agent_selection

    def _new_match(self, dealer: Any) -> State:
        return new_match(self.players, dealer=dealer, rules=self.rules)

    def _deal_if_needed(self) -> None:
        # The shuffle is the only chance event; it is drawn from np_random, redealing
        # voided deals until a player has a decision.
        rng = self.np_random
        while self.position.state.phase is Phase.SHUFFLE and rng is not None:
            order = [DECK[i] for i in rng.permutation(len(DECK))]
            self.position = Position(apply(self.position.state, Shuffle(order)))

    def _agent_to_act(self) -> str:
        player = self.position.state.current_player
        return self.possible_agents[player if player is not None else 0]

    def _episode_over(self) -> bool:
        state = self.position.state
        return state.is_over or (self._episode_single_deal and bool(state.deal_scores))

    def _report_deal(self, scored: int) -> None:
        # Every agent's info holds the breakdown of a deal just scored, until the next step;
        # in a whole match, deal_reward pays each deal's points difference as it is scored.
        state = self.position.state
        for info in self.infos.values():
            info.pop("deal", None)
            if len(state.deal_scores) > scored:
                info["deal"] = deal_info(state.deal_scores[-1])
        if len(state.deal_scores) > scored and self.deal_reward and not self._episode_single_deal:
            margins = player_returns(state, single_deal=True)
            for player, agent in enumerate(self.possible_agents):
                self.rewards[agent] += self.deal_reward * margins[player]

    def _finish(self) -> None:
        state = self.position.state
        returns = player_returns(state, self._episode_single_deal)
        for player, agent in enumerate(self.possible_agents):
            self.rewards[agent] += returns[player]
            self.infos[agent].update(end_info(state))
        self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[0]


if ENV_ID not in pettingzoo.aec_registry:
    pettingzoo.register("aec", ENV_ID, entry_point="chkobba.pettingzoo:env")
