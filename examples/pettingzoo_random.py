"""Play one PettingZoo episode of Chkobba with random (but legal) agents.

    pip install 'chkobba[pettingzoo]'
    python examples/pettingzoo_random.py --players 4 --seed 7
    python examples/pettingzoo_random.py --players 3 --rules cardrulesplus

Each agent samples an action from its action mask. The episode is a whole match (or one
deal with --single-deal); the script prints the final board and every agent's reward.
"""

from __future__ import annotations

import argparse

import pettingzoo

import chkobba
import chkobba.pettingzoo  # registers chkobba/chkobba-v0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--rules", default="tunisian", choices=sorted(chkobba.PROFILES))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--single-deal", action="store_true", help="one deal, not a match")
    args = parser.parse_args()
    seated = chkobba.PROFILES[args.rules].players
    if args.players not in seated:
        parser.error(f"the {args.rules} rules seat {seated} players, not {args.players}")

    env = pettingzoo.make(
        "aec",
        chkobba.pettingzoo.ENV_ID,
        players=args.players,
        render_mode="ansi",
        single_deal=args.single_deal,
        rules=args.rules,
    )
    env.reset(seed=args.seed)
    for agent in env.possible_agents:
        env.action_space(agent).seed(args.seed)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            action = None
        else:
            action = env.action_space(agent).sample(observation["action_mask"])
            steps += 1
        env.step(action)

    state = env.unwrapped.match_state
    print(env.unwrapped.render())
    deals = len(state.deal_scores)
    print(f"{steps} agent steps, {deals} deal{'' if deals == 1 else 's'}, scores {state.scores}")
    for agent, total in rewards.items():
        print(f"{agent}: reward {total:+g}")


if __name__ == "__main__":
    main()
