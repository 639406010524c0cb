"""Tournaments on any executor (a Dask cluster included), and match records as JSON lines."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from chkobba import CARD_RULES_PLUS, TUNISIAN, ChkobbaError, Record, Rules
from chkobba.arena import MatchSummary, play_match, tournament
from chkobba.bots import BotSpec, RandomBot
from chkobba.cli import main
from tests.helpers import local_cluster


def test_any_executor_gives_the_serial_result() -> None:
    serial = tournament(["greedy", "random", "ismcts:iterations=4"], games=2, seed=5)
    with ThreadPoolExecutor(max_workers=3) as pool:
        pooled = tournament(
            ["greedy", "random", "ismcts:iterations=4"], games=2, seed=5, executor=pool
        )
    assert pooled == serial
    with pytest.raises(ChkobbaError, match="Executor"):
        tournament(["greedy", "random"], games=2, seed=5, executor="dask")  # type: ignore[arg-type]


def test_records_are_kept_tagged_and_replay_to_the_result() -> None:
    result = tournament(["greedy", "random"], games=4, seed=2, records=True)
    for match in result.matches:
        record = match.record
        assert record is not None
        final = record.final()
        assert final.scores == match.scores and len(final.deal_scores) == match.deals
        seats = [record.tags[f"player{seat}"] for seat in range(2)]
        assert seats == [["greedy", "random"][entrant] for entrant in match.entrants]
        assert record.tags["game"] == str(match.game)
        # The seat tags are the ones docs/records.md suggests, as `chkobba play` writes;
        # the seeds play the match again (see the next test).
        assert set(record.tags) == {
            "game",
            "seed",
            "player0",
            "player0_seed",
            "player1",
            "player1_seed",
        }
    without = tournament(["greedy", "random"], games=4, seed=2)
    assert all(match.record is None for match in without.matches)
    assert without.bots == result.bots


class _FirstLegal:
    """A bot without ``spawn``: the tournament plays a copy of it, built from no seed."""

    name = "first"

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


@pytest.mark.parametrize(("players", "rules"), [(2, TUNISIAN), (4, TUNISIAN), (3, CARD_RULES_PLUS)])
def test_a_tournament_match_plays_again_from_its_records_tags(players: int, rules: Rules) -> None:
    """A record's ``seed`` and ``playerN_seed`` tags play its match again with
    ``play_match``: a spec built with its seed, a bot instance spawned with it, and a
    bot the tournament copies (no seed tag) as it is."""
    spawned = RandomBot(seed=9)
    bots: list[Any] = ["ismcts:iterations=6", spawned, _FirstLegal()]
    result = tournament(bots, games=1, seed=8, records=True, players=players, rules=rules)
    makers: dict[str, Callable[[int], Any]] = {
        "ismcts:iterations=6": BotSpec.parse("ismcts:iterations=6").build
    }
    makers[result.bots[1].name] = spawned.spawn
    for match in result.matches:
        record = match.record
        assert record is not None
        tags = record.tags
        seated: list[Any] = []
        for seat in range(players):
            name = tags[f"player{seat}"]
            if name == "first":
                assert f"player{seat}_seed" not in tags
                seated.append(_FirstLegal())
            else:
                seated.append(makers[name](int(tags[f"player{seat}_seed"])))
        again = play_match(
            seated, seed=int(tags["seed"]), players=players, dealer=record.dealer, rules=rules
        )
        assert again.record.moves == record.moves, tags


def test_on_match_sees_every_match_in_game_order_from_any_executor() -> None:
    seen: list[int] = []
    with ThreadPoolExecutor(max_workers=4) as pool:
        tournament(
            ["greedy", "random", "random"],
            games=4,
            seed=1,
            executor=pool,
            on_match=lambda summary: seen.append(summary.game),
        )
    assert seen == list(range(12))


def test_simulate_writes_every_record_as_a_json_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "matches.jsonl"
    simulate = ["simulate", "--games", "3", "--bots", "greedy", "random", "--records"]
    assert main([*simulate, str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    records = [Record.from_json(line) for line in lines]
    assert [r.tags["game"] for r in records] == ["0", "1", "2"]
    assert all(json.loads(line)["players"] == 2 for line in lines)
    assert "3 matches" in capsys.readouterr().out
    bad = tmp_path / "missing" / "x.jsonl"
    assert main([*simulate, str(bad)]) == 1
    assert "cannot write records" in capsys.readouterr().err


# --- a real Dask cluster: two local worker processes ---------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    distributed = pytest.importorskip("distributed")
    with local_cluster(distributed) as local:
        yield local


@pytest.mark.out_of_process
def test_a_dask_cluster_gives_the_result_of_one_worker(cluster: Any) -> None:
    from distributed import Client

    specs = ["greedy", "random", "ismcts:iterations=4"]
    with Client(cluster) as client:
        executor = client.get_executor()
        on_cluster = tournament(specs, games=2, seed=9, executor=executor, records=True)
        assert len(client.run(lambda: 1)) == 2  # two worker processes answered
    assert on_cluster == tournament(specs, games=2, seed=9, workers=1, records=True)


@pytest.mark.out_of_process
def test_simulate_runs_on_a_scheduler(cluster: Any, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--games", "4", "--bots", "greedy", "random", "--json", "--seed", "3"]
    assert main([*args, "--scheduler", cluster.scheduler_address]) == 0
    on_cluster = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert on_cluster == json.loads(capsys.readouterr().out)


def test_summaries_travel_as_plain_values() -> None:
    # What a cluster sends back: attrs values that pickle (records included).
    import pickle

    match = tournament(["greedy", "random"], games=1, seed=0, records=True).matches[0]
    assert isinstance(match, MatchSummary) and pickle.loads(pickle.dumps(match)) == match


def test_simulate_scheduler_without_dask_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib

    real = importlib.import_module

    def no_distributed(name: str, *args: Any) -> Any:
        if name == "distributed":
            raise ImportError("No module named 'distributed'")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_distributed)
    args = ["simulate", "--games", "1", "--bots", "greedy", "random", "--scheduler", "tcp://x:1"]
    assert main(args) == 1
    assert "install chkobba[dask] (in a clone of chkobba: pip install -e '.[dask]')" in (
        capsys.readouterr().err
    )
