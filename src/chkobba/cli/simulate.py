"""``chkobba simulate``: a tournament between bots, as a table or as JSON."""

from __future__ import annotations

import json

from chkobba.arena import tournament
from chkobba.bots.registry import BotSpec
from chkobba.cli.output import Output

__all__ = ["run_simulate"]


def run_simulate(
    out: Output,
    err: Output,
    *,
    specs: list[BotSpec],
    games: int,
    players: int,
    workers: int,
    seed: int,
    as_json: bool,
) -> int:
    """Run the tournament; progress goes to ``err`` (a bar only on a terminal)."""
    with err.progress(games * len(specs) * (len(specs) - 1) // 2, "playing matches") as advance:
        result = tournament(
            specs, games=games, seed=seed, players=players, workers=workers, progress=advance
        )
    if as_json:
        out.line(json.dumps(result.to_dict(), indent=2))
        return 0
    out.line(
        f"{len(result.matches)} matches, {players} players, seed {seed} "
        "(win rates with 95% Wilson intervals)",
        style="bold",
    )
    rows = [
        [
            bot.name,
            str(bot.games),
            str(bot.wins),
            f"{bot.win_rate:.1%}",
            f"{bot.ci_low:.1%} - {bot.ci_high:.1%}",
            f"{bot.points_per_deal:.2f}",
        ]
        for bot in result.bots
    ]
    out.table(["bot", "games", "wins", "win rate", "95% CI", "points/deal"], rows)
    return 0
