"""``chkobba simulate``: a tournament between bots, as a table or as JSON.

``--scheduler ADDRESS`` runs the matches on a Dask cluster (the ``chkobba[dask]`` extra)
with the same results as on one core; ``--records FILE`` writes every match's record,
one JSON object per line, in game order.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import ExitStack, contextmanager
from typing import IO, Any

from chkobba.arena import MatchSummary, tournament
from chkobba.bots.registry import BotSpec
from chkobba.cli.narrate import counted
from chkobba.cli.output import Output
from chkobba.cli.replay import CommandError
from chkobba.errors import shown
from chkobba.rules import TUNISIAN, Rules

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
    scheduler: str | None = None,
    records: str | None = None,
    rules: Rules = TUNISIAN,
) -> int:
    """Run the tournament; progress goes to ``err`` (a bar only on a terminal)."""
    total = games * len(specs) * (len(specs) - 1) // 2
    with ExitStack() as stack:
        executor = None if scheduler is None else stack.enter_context(_dask(scheduler))
        on_match = None if records is None else _writer(stack.enter_context(_open(records)))
        advance = stack.enter_context(err.progress(total, "playing matches"))
        result = tournament(
            specs,
            games=games,
            seed=seed,
            players=players,
            workers=workers,
            progress=advance,
            executor=executor,
            records=records is not None,
            on_match=on_match,
            rules=rules,
        )
    if as_json:
        out.line(json.dumps(result.to_dict(), indent=2))
        return 0
    out.line(
        f"{counted(len(result.matches), 'match')}, {players} players{_profile(rules)}, seed {seed} "
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


def _profile(rules: Rules) -> str:
    """How the heading names the rules: nothing for the default profile."""
    return "" if rules == TUNISIAN else f", {rules.name} rules to {rules.target}"


@contextmanager
def _open(path: str) -> Iterator[IO[str]]:
    try:
        stream = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    except OSError as error:
        raise CommandError(
            f"cannot write records to {shown(path, 200)}: {error.strerror}"
        ) from None
    except ValueError:  # open() refuses a name with a NUL
        raise CommandError(
            f"cannot write records to {shown(path, 200)}: a file name cannot hold a NUL character"
        ) from None
    with stream:
        yield stream


def _writer(stream: IO[str]) -> Any:
    def write(summary: MatchSummary) -> None:
        if summary.record is not None:
            stream.write(summary.record.to_json(compact=True) + "\n")

    return write


@contextmanager
def _dask(address: str) -> Iterator[Executor]:
    try:
        # Any: distributed is an optional extra (and only partly typed).
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise CommandError(
            "--scheduler needs Dask's distributed package: pip install 'chkobba[dask]'"
        ) from None
    try:
        client = distributed.Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as error:
        raise CommandError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    with client:
        yield client.get_executor()
