"""Tests for the gaps a mutation audit of stop 79 found (tools/mutation/README.md).

Like ``tests/test_mutation_gaps.py``: each test fails with a single-point change to the
library (or an example) that the rest of the suite let through. In
``chkobba/checks.py``, the memo of runs of deal scores found sound (keyed by a run's
last score) serves only a run of that very length, not a longer one that merely starts
with it; a run grown by one deal adds that deal's points to the sums it keeps; and it
replaces the run it grew from, so a match checked deal by deal holds one entry. In
``chkobba/arena.py``, a caller's executor already broken before any match ran is named
as what refused the matches, not as a worker that died. In
``chkobba/bots/ismcts.py``, one bot at both seats samples for the seat it did not choose
for last what a bot of that seat alone samples. In ``examples/tcp_server.py``, a lobby
stopped before any match started closes without waiting on an empty set of reports.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import attrs
import pytest

from chkobba import (
    ChkobbaError,
    Phase,
    State,
    check_state,
    legal_moves,
    new_match,
    observe,
    rollout,
)
from chkobba import checks as checks_module
from chkobba.arena import tournament
from chkobba.bots import ISMCTSBot
from tests.helpers import load_script
from tests.test_inference import _greedy_match

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "tcp_server.py"
server_example = load_script(SCRIPT, "tcp_server_stop79")


def _checked_deal_by_deal(seed: int, deals: int | None) -> State:
    """A random 2-player match played deal by deal, each deal's end checked (so the run
    of its scores is remembered), until it holds ``deals`` scores (or is over)."""
    rng = random.Random(seed)
    state = new_match()
    check_state(state)
    while state.phase is not Phase.OVER and (deals is None or len(state.deal_scores) < deals):
        state = rollout(state, rng, until="deal")
        check_state(state)
    return state


# === checks.py: the memo of runs of deal scores ===========================================


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> dict[int, object]:
    """An empty table of sound runs for the test (the shared one is emptied when full:
    another test's entries must not decide which runs are remembered here)."""
    table: dict[int, object] = {}
    monkeypatch.setattr(checks_module, "_SOUND_RUNS", table)
    return table


def test_a_longer_run_starting_with_a_remembered_one_is_checked(runs: dict[int, object]) -> None:
    # The run (s0, s1, s2) was found sound; (s0, s1, bad, s2) ends with the same score
    # and starts with the same two, but is another run, whose bad score must be found.
    # (_sound_run: the length check)
    end = _checked_deal_by_deal(seed=3, deals=3)
    assert len(end.deal_scores) == 3
    s0, s1, s2 = end.deal_scores
    # (attrs' plugin does not see DealScore's custom __init__ as an attrs class's)
    bad = attrs.evolve(s0, points=tuple(map(float, s0.points)))  # type: ignore[misc]
    check_state(end)  # (the run itself is sound, and remembered)
    assert len(runs) == 1
    with pytest.raises(ChkobbaError, match=r"deal_scores\[2\]"):
        check_state(attrs.evolve(end, deal_scores=(s0, s1, bad, s2)))


def test_a_grown_runs_sums_count_its_last_deal(runs: dict[int, object]) -> None:
    # The totals fall short of the deals' points by the last deal's: the sums the memo
    # keeps for the run grown by that deal must hold its points. (_remember_run: earned)
    end = _checked_deal_by_deal(seed=3, deals=3)
    assert len(runs) == 1
    last = end.deal_scores[-1].points
    side = next(side for side in (0, 1) if last[side])
    totals = tuple(total - points for total, points in zip(end.scores, last, strict=True))
    earned = end.scores[side]
    said = f"side {side} scored {earned} in its deals but has a total of {totals[side]}"
    with pytest.raises(ChkobbaError, match=said):
        check_state(attrs.evolve(end, scores=totals))


def test_a_match_checked_deal_by_deal_keeps_one_run(runs: dict[int, object]) -> None:
    # Each run grown by a deal replaces the run it grew from: one entry per match under
    # way, not one per deal. (_remember_run: the pop of the previous run)
    end = _checked_deal_by_deal(seed=5, deals=None)
    assert end.phase is Phase.OVER and len(end.deal_scores) >= 3
    assert len(runs) == 1


# === arena.py: a caller's executor broken before any match ==================================


def _refuse_to_start() -> None:
    raise RuntimeError("this worker will not start")


def test_an_executor_broken_before_any_match_is_named_as_refusing_them() -> None:
    # Submitting to it raises BrokenThreadPool, a BrokenExecutor; but no match ran, so
    # it is the executor given that refused them, not a worker that died. (_collect:
    # submit_next's `started and`)
    pool = ThreadPoolExecutor(1, initializer=_refuse_to_start)
    try:
        broken = pool.submit(int)
        with pytest.raises(RuntimeError):
            broken.result(timeout=30)  # the pool is broken from now on
        with pytest.raises(RuntimeError) as refused:
            tournament(["random", "greedy"], games=2, seed=1, executor=pool)
    finally:
        pool.shutdown()
    notes = getattr(refused.value, "__notes__", [])
    assert notes == ["tournament(executor=...): the executor given refused the matches"]


# === bots/ismcts.py: one bot at both seats ================================================


def test_one_bot_at_both_seats_samples_for_the_seat_it_left_as_that_seats_bot() -> None:
    # After the shared bot chose for seat 1, seat 0's readers are parked: sampling for
    # seat 0's last view must read them, as seat 0's own bot does, not sample uniformly.
    # (ISMCTSBot._readers_of: the parked seat's readers)
    shared = ISMCTSBot(iterations=5, inference=1, seed=1)
    own = {seat: ISMCTSBot(iterations=5, inference=1, seed=1) for seat in (0, 1)}
    compared = differing = 0
    for state, _ in _greedy_match(6, deals=2):  # tests/test_inference.py's deals
        if state.phase is not Phase.PLAY:
            continue
        seat = state.mover
        view, legal = observe(state, seat), legal_moves(state)
        shared.choose(view, legal)
        own[seat].choose(view, legal)
        other = own[1 - seat]._hands  # what the other seat's own bot last read
        if other.view is None or not other.suspicions:
            continue  # (nothing to weigh: both would sample uniformly)
        left = other.view
        draws = [shared.sampler(left)(random.Random(n)) for n in range(4)]
        compared += 1
        differing += draws != [own[1 - seat].sampler(left)(random.Random(n)) for n in range(4)]
    assert compared > 5
    assert differing == 0


# === examples/tcp_server.py: a lobby stopped before any match ===============================


def test_a_lobby_stopped_before_any_match_closes() -> None:
    # No match started, so no report runs: closed() must not wait on an empty set
    # (asyncio.wait refuses one). (Lobby.closed: `if self.reporting:`)
    async def main() -> None:
        lobby = server_example.Lobby(2, 7)
        task = asyncio.create_task(lobby.closed())
        await lobby.stop()
        await task
        assert lobby.started == [] and lobby.reporting == []

    asyncio.run(asyncio.wait_for(main(), timeout=30))
