"""Train MaskablePPO (sb3-contrib) on Chkobba against RandomBot, then GreedyBot; evaluate.

    pip install -e '.[gymnasium]' sb3-contrib   # in a clone; sb3-contrib brings torch
    python examples/train_maskable_ppo.py --random-steps 100000 --greedy-steps 100000

The learner plays single deals (reward: its side's points minus the opponent's) from
alternating seats with the optional features (table sum, what each action takes); the
masks come from ``env.action_masks()``. Training runs in two stages, first against
``random`` and then against ``greedy``. The trained policy is then wrapped as a
:class:`~chkobba.bots.PolicyBot` and plays whole matches in ``arena.tournament``
(seat swaps, shared shuffles, 95% Wilson intervals) against both bots. Its measured
results are in ``docs/gymnasium.md``. Not run in CI (torch is heavy).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

try:
    import gymnasium
    import numpy as np
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    import chkobba.gymnasium  # registers chkobba/Chkobba-v0
except ImportError as missing:  # said after the arguments are read: --help works anyway
    MISSING: str | None = missing.name
else:
    MISSING = None

from chkobba.arena import tournament
from chkobba.bots import PolicyBot


def make_env(opponent: str, seed: int) -> DummyVecEnv:
    """Four environments against ``opponent`` (single deals, features on)."""

    def one(index: int) -> Any:
        return lambda: gymnasium.make(
            chkobba.gymnasium.ENV_ID, opponent=opponent, single_deal=True, features=True
        )

    env = DummyVecEnv([one(i) for i in range(4)])
    env.seed(seed)
    return env


def evaluate(model: MaskablePPO, opponent: str, games: int, seed: int) -> dict[str, Any]:
    """Whole matches of the trained policy against ``opponent`` (seats swapped in pairs)."""

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    result = tournament(
        [PolicyBot(policy, features=True, name="ppo"), opponent], games=games, seed=seed
    )
    line = result.bots[0]
    return {
        "opponent": opponent,
        "matches": line.games,
        "wins": line.wins,
        "win_rate": round(line.win_rate, 3),
        "wilson_95": [round(line.ci_low, 3), round(line.ci_high, 3)],
        "points_per_deal": round(line.points_per_deal, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    parser.add_argument("--random-steps", type=int, default=100_000)
    parser.add_argument("--greedy-steps", type=int, default=100_000)
    parser.add_argument("--eval-games", type=int, default=200, help="matches per opponent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="save the model to this path")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    args = parser.parse_args()
    # Checked before training, which takes minutes: not after it, with the model lost.
    if not 1 <= args.eval_games <= 1_000_000:
        parser.error(f"--eval-games must be from 1 to 1,000,000, not {args.eval_games}")
    if min(args.random_steps, args.greedy_steps) < 0:
        parser.error("--random-steps and --greedy-steps must be 0 (skip the stage) or more")
    if MISSING is not None:  # a one-line hint, not a traceback
        raise SystemExit(
            f"train_maskable_ppo.py needs {MISSING}: pip install -e '.[gymnasium]' sb3-contrib"
        )
    # A small MLP gains nothing from more threads; on a busy machine they only contend.
    torch.set_num_threads(args.threads)

    model = MaskablePPO(
        "MlpPolicy",
        make_env("random", args.seed),
        seed=args.seed,
        n_steps=512,
        batch_size=256,
        verbose=0,
    )
    report: dict[str, Any] = {"seed": args.seed, "stages": []}
    for opponent, steps in (("random", args.random_steps), ("greedy", args.greedy_steps)):
        if steps <= 0:
            continue
        model.set_env(make_env(opponent, args.seed))
        start = time.perf_counter()
        model.learn(total_timesteps=steps, reset_num_timesteps=False)
        report["stages"].append(
            {"opponent": opponent, "steps": steps, "seconds": round(time.perf_counter() - start)}
        )
        print(json.dumps(report["stages"][-1]), flush=True)
    report["trained_steps"] = int(model.num_timesteps)
    if args.save:
        model.save(args.save)
    report["evaluation"] = [
        evaluate(model, opponent, args.eval_games, seed=args.seed + 1000)
        for opponent in ("random", "greedy")
    ]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
