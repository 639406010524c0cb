"""A contract audit of the prose of the bot, adapter, cluster and perft pages.

``tests/test_audit_docs_prose.py`` read seven pages of ``docs/`` sentence by sentence; the
four it did not cover are read here the same way: ``docs/bots.md``, ``docs/adapters.md``,
``docs/cluster.md`` and ``docs/perft.md``, tables included. Every checkable promise
(defaults, option ranges, "raises ... naming ...", what a spec means, what the adapters'
observations, actions, rewards and infos hold, seeding, what a bot may read, what a
tournament does on an executor, the perft counts and commands) was looked for in
``tests/``; measurements (win rates, timings, instruction counts) were skipped. The suite
already pinned almost all of them (the arena, bot, adapter, openspiel, distributed and
perft files, the mutation-gap, hardening, stateful and bot-author audits, and the
docstring audits). The tests here are the promises no test pinned, one test per promise,
named after it and grouped by page; each quotes the sentence it checks.

One promise was found false, in two parts, both about PettingZoo's order-enforcing
wrapper around the raw environment (``docs/adapters.md``, "Out of order"): before the
first ``reset()``, ``env().last()`` raises PettingZoo's ``AttributeError``
("agent_selection cannot be accessed before reset"), not the ``AssertionError`` the page
names; and after a refused ``reset()`` (a bad seed), ``env().last()`` and
``env().agent_iter()`` raise a bare ``AttributeError`` ("'raw_env' object has no
attribute 'agent_selection'"), not the raw environment's ``ChkobbaError``: the wrapper's
``last`` and ``agent_iter`` read ``agent_selection`` themselves before reaching the raw
environment. ``step`` and ``observe`` behave as the page says. Both parts were fixed:
the page names each error PettingZoo raises, and the raw environment's missing
``agent_selection`` says to call ``reset()`` first (an ``AttributeError`` still, so that
``hasattr`` keeps working).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from chkobba import (
    ChkobbaError,
    Cut,
    Move,
    Phase,
    Play,
    PlayerView,
    Record,
    RecordError,
    apply,
    legal_moves,
    observe,
)
from chkobba.arena import play_match, tournament
from chkobba.bots import ExpertBot, GreedyBot, ISMCTSBot, RandomBot
from tests.helpers import dealt, stacked_shuffle

ROOT = Path(__file__).resolve().parent.parent

# --- docs/bots.md -----------------------------------------------------------------------


class _Keeper:
    """A bot that keeps every view it is shown (and plays the first legal move)."""

    name = "keeper"

    def __init__(self) -> None:
        self.views: list[PlayerView] = []

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        self.views.append(view)
        return legal[0]


def test_every_choose_call_gets_a_view_of_its_own() -> None:
    # bots.md: "The view is frozen: assigning to a field raises attrs'
    # `FrozenInstanceError` (an `AttributeError`); every call gets a view of its own."
    keeper = _Keeper()
    play_match([keeper, "random"], seed=3)
    assert len(keeper.views) > 20
    assert len({id(view) for view in keeper.views}) == len(keeper.views)


def test_the_built_in_bots_take_the_tables_options_and_defaults() -> None:
    # bots.md, the table of built-in bots: "`RandomBot(seed=None)`", "`GreedyBot(seed=None)`",
    # "`ISMCTSBot(iterations=…, seconds=0, seed=None, …)`", "`ExpertBot(…, endgame=6,
    # budget=2000, seconds=0, seed=None)`"; and "`ISMCTSBot(iterations=800,
    # exploration=0.7, epsilon=0.1, horizon=6, inference=0, seconds=0, seed=None)`";
    # "`ExpertBot` searches the open deal exactly as `ISMCTSBot` does (same options, same
    # defaults)".
    search = {
        "iterations": 800,
        "exploration": 0.7,
        "epsilon": 0.1,
        "horizon": 6,
        "inference": 0,
        "seconds": 0,
    }
    assert ISMCTSBot().options() == search
    assert ExpertBot().options() == {**search, "endgame": 6, "budget": 2000}
    for bot in (RandomBot(), GreedyBot(), ISMCTSBot(), ExpertBot()):
        assert bot.seed is None


def test_the_inference_constants_are_in_the_ismcts_module_with_the_pages_values() -> None:
    # bots.md: "(kept with chance `chkobba.bots.ismcts.SWEEP_DOUBT` = 0.1), and after a lay,
    # the cards that would have captured (`CAPTURE_DOUBT` = 0.3)"; "`exp(score /
    # MODEL_TEMPERATURE)` (0.1), or with chance `MODEL_NOISE` (0.3) any play (both
    # constants, like the two doubts, are in `chkobba.bots.ismcts`)"
    from chkobba.bots import ismcts

    assert (ismcts.SWEEP_DOUBT, ismcts.CAPTURE_DOUBT) == (0.1, 0.3)
    assert (ismcts.MODEL_TEMPERATURE, ismcts.MODEL_NOISE) == (0.1, 0.3)


class _Copier:
    """A bot that answers a fresh move equal to a legal one, never the object given."""

    def __init__(self) -> None:
        self.fresh = 0

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        move = legal[-1]
        copied: Move = (
            Play(move.card, tuple(move.capture)) if isinstance(move, Play) else Cut(move.keep)  # type: ignore[union-attr]
        )
        assert copied == move and all(copied is not given for given in legal)
        self.fresh += 1
        return copied


def test_a_move_equal_to_a_legal_one_is_accepted() -> None:
    # bots.md: "`legal` is a tuple of moves, never empty; return one of them (or a move
    # equal to one: moves are values)."
    copier = _Copier()
    result = play_match([copier, "greedy"], seed=2)
    assert result.winner in (0, 1) and copier.fresh > 20
    assert result.record.replay()[-1].scores == result.scores


# --- docs/cluster.md --------------------------------------------------------------------


class _Unpicklable:
    """A bot whose class lives in a function: it travels to no worker process."""

    def __init__(self) -> None:
        class Local:
            name = "local"

            def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
                return legal[0]

        self.inner = Local()
        self.name = "local"

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        return self.inner.choose(view, legal)


def test_an_executor_given_makes_workers_ignored() -> None:
    # cluster.md: "`executor=` takes any `Executor`: a thread or process pool, or a Dask
    # cluster's. `workers` is then ignored."
    serial = tournament([_Unpicklable(), "random"], games=2, seed=7)
    with ThreadPoolExecutor(max_workers=2) as pool:
        pooled = tournament([_Unpicklable(), "random"], games=2, seed=7, workers=4, executor=pool)
    assert pooled == serial
    # Without the executor the same workers would need the bot to pickle.
    with pytest.raises(ChkobbaError, match="cannot be sent to worker processes"):
        tournament([_Unpicklable(), "random"], games=2, seed=7, workers=4)


class _Fails:
    name = "fails"

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        raise RuntimeError("a bug in choose")


def test_the_executor_stays_open_after_a_failed_match() -> None:
    # cluster.md: "A failing match or an interrupt (Ctrl-C) cancels the matches not yet
    # started, on the local processes as on an `executor` (its futures are cancelled; the
    # executor is yours and stays open)"
    with ThreadPoolExecutor(max_workers=1) as pool:
        with pytest.raises(RuntimeError, match="a bug in choose"):
            tournament([_Fails(), "random"], games=4, seed=1, executor=pool)
        assert pool.submit(sum, (1, 2)).result() == 3


def test_a_record_read_unverified_still_refuses_an_illegal_move_on_replay() -> None:
    # cluster.md: "to build a dataset, load with `Record.from_json(line, verify=False)` and
    # let `replay()` do the one check (an illegal move still raises there)."
    line = Record(players=2, moves=[Cut(keep=True)]).to_json(compact=True)  # no shuffle first
    with pytest.raises(RecordError):
        Record.from_json(line)
    unverified = Record.from_json(line, verify=False)
    assert unverified.moves == (Cut(keep=True),)
    with pytest.raises(RecordError, match=r"\(index 0\) \('keep'\) is not legal: Cut is not"):
        unverified.replay()


# --- docs/adapters.md -------------------------------------------------------------------


@pytest.mark.out_of_process
def test_the_core_and_the_shared_encodings_import_no_toolkit_and_no_numpy() -> None:
    # adapters.md: "The core never imports either toolkit. Both adapters share one action
    # encoding (`chkobba.actions`) and one observation vector (`chkobba.observations`),
    # which need neither toolkit nor numpy."
    code = (
        "import sys, chkobba, chkobba.actions, chkobba.observations, chkobba.features\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'numpy', 'pettingzoo', 'pyspiel', 'open_spiel', 'gymnasium'} "
        "or m in {'chkobba.pettingzoo', 'chkobba.openspiel', 'chkobba.gymnasium'})\n"
        "print(loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""},
    )
    assert done.stdout == "[]\n"


def test_a_table_sum_is_not_capped_at_one() -> None:
    # adapters.md, `table_sum`: "the table cards' values added up / 10, not capped: at most
    # 1 means one card could sweep the table (6C 3H 5H QH gives 2.2 ...)"
    from chkobba.features import feature_vector

    state = dealt(hands=["AS 2S 3S", "KD 4C 5C"], table="6C 3H 5H QH")
    assert state.phase is Phase.PLAY
    features = feature_vector(observe(state, 1), None, legal_moves(state))
    assert features[0] == pytest.approx(2.2)


def test_only_the_aec_environment_is_registered() -> None:
    # adapters.md: "Only the AEC environment is registered (`pettingzoo.make("parallel",
    # ...)` finds no such name)"
    pettingzoo = pytest.importorskip("pettingzoo")
    pytest.importorskip("chkobba.pettingzoo")
    from pettingzoo.env_registry.exceptions import PettingZooRegistryError

    assert pettingzoo.make("aec", "chkobba/chkobba-v0").metadata["is_parallelizable"] is False
    with pytest.raises(PettingZooRegistryError):
        pettingzoo.make("parallel", "chkobba/chkobba-v0")


def test_the_turn_based_wrapper_names_the_next_agent_after_every_step() -> None:
    # adapters.md: "after every `step` each agent's `info["active_agent"]` names who acts
    # next (the wrapper adds it in `step` only: after `reset`, the agent to act is the one
    # whose `action_mask` is not all zeros, or `parallel.aec_env.agent_selection`)."
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from pettingzoo.utils import conversions

    from chkobba.pettingzoo import env

    game = conversions.turn_based_aec_to_parallel(env(players=2, single_deal=True))
    observations, infos = game.reset(seed=6)
    assert all("active_agent" not in info for info in infos.values())
    acting = [agent for agent, seen in observations.items() if seen["action_mask"].any()]
    assert acting == [game.aec_env.agent_selection]
    for _ in range(12):
        actions = {acting[0]: int(np.flatnonzero(observations[acting[0]]["action_mask"])[0])}
        observations, _, _, _, infos = game.step(actions)
        acting = [agent for agent, seen in observations.items() if seen["action_mask"].any()]
        assert len(acting) == 1
        assert {info["active_agent"] for info in infos.values()} == {acting[0]}


def _refused_reset(game: Any) -> Any:
    with pytest.raises(ChkobbaError, match="seed must be None or an integer >= 0"):
        game.reset(seed=-1)
    return game


def test_env_refuses_step_observe_and_agent_iter_before_reset_with_an_assertion_error() -> None:
    # adapters.md: "`env()`'s `OrderEnforcingWrapper` refuses the calls before `reset()`
    # itself, with PettingZoo's own errors: an `AssertionError` for `step`, `observe` and
    # `agent_iter`"
    pytest.importorskip("pettingzoo")
    from chkobba.pettingzoo import env

    game = env()
    with pytest.raises(AssertionError, match="reset"):
        game.step(40)
    with pytest.raises(AssertionError, match="reset"):
        game.observe("player_0")
    with pytest.raises(AssertionError, match="reset"):
        next(iter(game.agent_iter()))


def test_env_refuses_last_before_reset_with_pettingzoos_attribute_error() -> None:
    # adapters.md: "`env()`'s `OrderEnforcingWrapper` refuses the calls before `reset()`
    # itself, with PettingZoo's own errors: ... an `AttributeError` for `last`
    # ("agent_selection cannot be accessed before reset")" (the page said an
    # AssertionError, as for the other calls, until this audit)
    pytest.importorskip("pettingzoo")
    from chkobba.pettingzoo import env

    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        env().last()


def test_after_a_refused_reset_env_answers_step_and_observe_with_the_raw_error() -> None:
    # adapters.md: "it counts a `reset()` that was refused (a bad seed or option) as done,
    # so after one the raw environment's `ChkobbaError` answers instead."
    pytest.importorskip("pettingzoo")
    from chkobba.pettingzoo import env

    game = _refused_reset(env())
    with pytest.raises(ChkobbaError, match=r"^step: no episode has started: call reset"):
        game.step(40)
    with pytest.raises(ChkobbaError, match=r"^observe: no episode has started: call reset"):
        game.observe("player_0")


def test_after_a_refused_reset_env_answers_last_and_agent_iter_saying_to_reset() -> None:
    # adapters.md: "`last` and the first agent of `agent_iter` (the wrapper reads
    # `agent_selection` itself for them) with an `AttributeError` that says to call
    # `reset()` first." (They raised "'raw_env' object has no attribute
    # 'agent_selection'", where the page promised the raw environment's ChkobbaError.)
    pytest.importorskip("pettingzoo")
    from chkobba.pettingzoo import env

    game = _refused_reset(env())
    said = "^agent_selection: no episode has started: call reset"
    with pytest.raises(AttributeError, match=said):
        game.last()
    with pytest.raises(AttributeError, match=said):
        next(iter(game.agent_iter()))
    assert not hasattr(game.unwrapped, "agent_selection")  # still an attribute's error
    with pytest.raises(AttributeError, match="'raw_env' object has no attribute 'nothing'"):
        game.unwrapped.nothing  # noqa: B018
    game.reset(seed=1)
    assert game.last()[1] == 0.0


def test_the_rl_environment_gives_the_information_state_or_the_observation() -> None:
    # adapters.md: "its `info_state` is the 713-float information-state tensor
    # (`observation_type=ObservationType.OBSERVATION` gives the 313-float observation)."
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("chkobba.openspiel")
    from open_spiel.python import rl_environment

    from chkobba.observations import OBSERVATION_SIZE, observation_vector

    game = pyspiel.load_game("python_chkobba", {"single_deal": True})
    sizes = []
    for kind in (None, rl_environment.ObservationType.OBSERVATION):
        extra = {} if kind is None else {"observation_type": kind}
        sampler = rl_environment.ChanceEventSampler(seed=2)
        environment = rl_environment.Environment(game, chance_event_sampler=sampler, **extra)
        step = environment.reset()
        player = step.observations["current_player"]
        seen = step.observations["info_state"][player]
        sizes.append(len(seen))
        if kind is not None:
            state = environment.get_state.match_state
            assert list(seen) == observation_vector(observe(state, player))
    assert sizes == [713, OBSERVATION_SIZE] == [713, 313]


# --- docs/perft.md ----------------------------------------------------------------------


def _perft() -> ModuleType:
    """benchmarks/perft.py, loaded as tests/test_perft.py loads it."""
    script = ROOT / "benchmarks" / "perft.py"
    spec = importlib.util.spec_from_file_location("perft_benchmark_audit", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    sys.path.insert(0, str(script.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(script.parent))
    return module


@pytest.fixture(scope="module")
def perft() -> Iterator[ModuleType]:
    yield _perft()


def test_the_speed_tables_node_counts_are_the_published_leaves_summed(perft: Any) -> None:
    # perft.md: "It prints each depth's row, then the nodes walked (every `apply` at every
    # ply)"; the Speed table: "`deal-2p`, 14 | 48,902", "`crowded-table-2p`, 14 | 54,486",
    # "`last-round-4p`, 12 | 11,258" ("its node count N (the last line of ...)").
    published = {position.name: position.published for position in perft.positions()}
    table = {("deal-2p", 14): 48_902, ("crowded-table-2p", 14): 54_486}
    table[("last-round-4p", 12)] = 11_258
    for (name, depth), count in table.items():
        assert sum(published[name][d].leaves for d in range(1, depth + 1)) == count, name
    position = next(p for p in perft.positions() if p.name == "last-round-4p")
    assert perft.nodes(position.state, 12) == 11_258


def test_a_cut_that_voids_the_deal_ends_its_branch(perft: Any) -> None:
    # perft.md: "A cut that voids the deal (the table dealt would hold three cards of a
    # rank, under the profile's rule) leads to a new shuffle the same way" (as a deal's
    # end: "a branch that reaches it stops there and adds no leaves below it").
    from chkobba import new_match

    order = stacked_shuffle(hands=["AS 2S 3S", "4C 5C 6C"], table="KS KH KD 2C")
    state = apply(new_match(), order)  # the cutter sees KS: exposing it voids the deal
    assert state.phase is Phase.CUT
    exposed, kept = apply(state, Cut(keep=False)), apply(state, Cut(keep=True))
    assert exposed.phase is Phase.SHUFFLE and kept.phase is Phase.PLAY
    assert perft.perft(state, 1).leaves == 2
    for depth in (2, 3):
        assert perft.perft(state, depth) == perft.perft(kept, depth - 1)


def test_the_script_prints_the_rows_then_the_nodes_then_the_divide(
    perft: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # perft.md: "It prints each depth's row, then the nodes walked (every `apply` at every
    # ply) and the nodes per second. `--divide` splits the deepest count by the first
    # move"
    monkeypatch.setattr(sys, "argv", ["perft.py", "--position", "refill-2p", "--depth", "3"])
    perft.main()
    plain = capsys.readouterr().out.splitlines()
    monkeypatch.setattr(sys, "argv", [*sys.argv, "--divide"])
    perft.main()
    divided = capsys.readouterr().out.splitlines()
    dash = "\N{EN DASH}"  # the points column, as on the page
    assert plain[:4] == [
        "refill-2p: depth | leaves | captures | chkobbas | deals | points",
        f"| 1 | 3 | 2 | 0 | 0 | 0 {dash} 0 |",
        f"| 2 | 9 | 6 | 3 | 0 | 0 {dash} 0 |",
        f"| 3 | 18 | 4 | 1 | 0 | 0 {dash} 0 |",
    ]
    assert len(plain) == 5 and plain[4].startswith("  30 nodes to depth 3: ")
    assert plain[4].endswith(" nodes/s") and divided[:4] == plain[:4]
    split = dict(line.strip().rsplit(": ", 1) for line in divided[5:])
    position = next(p for p in perft.positions() if p.name == "refill-2p")
    assert set(split) == {str(move) for move in legal_moves(position.state)}
    assert sum(int(leaves) for leaves in split.values()) == 18


def test_only_walks_a_position_silently(
    perft: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # perft.md: "... PYTHONHASHSEED=0 valgrind --tool=callgrind ... python
    # benchmarks/perft.py --only NAME --depth D minus the same with `--depth 0`" (the
    # script's help: "walk one position silently (callgrind)")
    walked: list[tuple[str, int]] = []
    real = perft.nodes

    def counted(state: Any, depth: int) -> int:
        walked.append((state.phase.name, depth))
        return 0

    monkeypatch.setattr(perft, "nodes", counted)
    for depth in ("2", "0"):
        monkeypatch.setattr(sys, "argv", ["perft.py", "--only", "refill-2p", "--depth", depth])
        perft.main()
    assert capsys.readouterr().out == ""
    assert walked == [("PLAY", 2), ("PLAY", 0)]
    position = next(p for p in perft.positions() if p.name == "refill-2p")
    assert real(position.state, 0) == 0
