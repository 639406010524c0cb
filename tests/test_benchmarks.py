"""The benchmark scripts' counting mode runs from a fresh process (issue #8)."""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import chkobba
from chkobba.arena import play_match, subseed
from chkobba.bots import BotSpec

PLAYOUTS = Path(__file__).parent.parent / "benchmarks" / "playouts.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    return subprocess.run(
        [sys.executable, str(PLAYOUTS), *args], capture_output=True, text=True, env=env, check=False
    )


def _benchmark(script: str) -> Any:
    """A benchmark script loaded as a module (its ``main`` not run)."""
    spec = importlib.util.spec_from_file_location(
        f"{script}_under_test", PLAYOUTS.parent / f"{script}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Run as scripts, they import their neighbours (_args, playouts): so must the test.
    sys.path.insert(0, str(PLAYOUTS.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(PLAYOUTS.parent))
    return module


@pytest.mark.out_of_process
@pytest.mark.parametrize("kind", ["step", "rollout"])
def test_only_plays_the_workload_silently(kind: str) -> None:
    # What callgrind counts: the workload alone, nothing printed, nothing timed.
    done = _run("--only", kind, "--warmup", "2", "--deals", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


@pytest.mark.out_of_process
def test_only_refuses_an_unknown_workload() -> None:
    done = _run("--only", "walk", "--deals", "1")
    assert done.returncode == 2
    assert "invalid choice: 'walk'" in done.stderr


@pytest.mark.out_of_process
def test_the_lazy_state_prototype_plays_the_engines_deals() -> None:
    # benchmarks/lazy_state.py's figures mean something only if its prototype plays
    # exactly the engine's deals: every final state equal, from the same seed.
    script = PLAYOUTS.parent / "lazy_state.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check", "--deals", "60", "--seed", "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    assert done.stdout == "60 deals, the same final states both ways: True\n"


@pytest.mark.out_of_process
@pytest.mark.parametrize("iterations", ["0", "3"])
def test_the_ismcts_speed_counts_run_as_its_docstring_says(iterations: str) -> None:
    # Its docstring counts instructions per iteration as the difference between a run
    # with K iterations and one with 0 (positions collected, no search): both must run.
    script = PLAYOUTS.parent / "ismcts_speed.py"
    args = [sys.executable, str(script), "--positions", "2", "--iterations", iterations]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    if iterations == "0":  # named as no search, not as a rate of 0 of a one-iteration bot
        assert done.stdout.endswith(": 2 positions and the bot, no search (--iterations 0)\n")
    else:
        assert (
            "ismcts:iterations=3," in done.stdout and " iterations per CPU second (" in done.stdout
        )


@pytest.mark.out_of_process
@pytest.mark.parametrize("kind", ["step", "rollout"])
@pytest.mark.parametrize(("rules", "players"), [("cardrulesplus", "3"), ("tunisian", "4")])
def test_only_plays_any_profile_and_seating(kind: str, rules: str, players: str) -> None:
    # The counting mode measures the other profiles and seatings too (issue: "the fast
    # paths must serve them too"), as silently as the default one.
    done = _run("--only", kind, "--rules", rules, "--players", players, "--deals", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


@pytest.mark.out_of_process
def test_a_seating_the_profile_does_not_allow_is_a_usage_error() -> None:
    done = _run("--only", "step", "--players", "3", "--deals", "1")
    assert done.returncode == 2
    assert "the tunisian profile plays with 2, 4 players, not 3" in done.stderr


def test_the_workloads_start_from_the_chosen_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    # --rules reaches the matches the workloads play (not only the argument parser).
    playouts = _benchmark("playouts")
    started: list[tuple[int, str]] = []

    def recorded(players: int, *, rules: chkobba.Rules) -> chkobba.State:
        started.append((players, rules.name))
        return chkobba.new_match(players, rules=rules)

    monkeypatch.setattr(playouts, "new_match", recorded)
    for kind in ("step", "rollout"):
        playouts.WORKLOADS[kind](1, 0, 3, chkobba.CARD_RULES_PLUS)
    assert started == [(3, "cardrulesplus")] * 2


@pytest.mark.out_of_process
def test_same_play_checks_the_digests_it_wrote(tmp_path: Path) -> None:
    # benchmarks/same_play.py is the differential check behind speed changes: the digests
    # it writes must check out against the same tree, and a wrong size is refused.
    script = PLAYOUTS.parent / "same_play.py"
    saved = tmp_path / "digests.json"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, str(script), "--deals", *args]
        return subprocess.run(command, capture_output=True, text=True, check=False)

    assert run("2", "--write", str(saved)).returncode == 0
    done = run("2", "--check", str(saved))
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.fullmatch(r"(\d+) workloads of 2 deals: \1 the same\n", done.stdout)
    assert run("3", "--check", str(saved)).returncode == 1


# --- benchmarks/strength.py: any profile and seating --------------------------------------

STRENGTH = PLAYOUTS.parent / "strength.py"


def _strength(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(STRENGTH), "--pair", "greedy", "random", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def strength() -> Any:
    return _benchmark("strength")


@pytest.mark.out_of_process
def test_a_three_player_run_logs_rotating_seats_and_resumes(tmp_path: Path) -> None:
    # A alone against two B seats, its seat rotating; the log resumes such a run too.
    log = tmp_path / "crp3.jsonl"
    args = ("--rules", "cardrulesplus", "--players", "3", "--games", "6", "--log", str(log))
    first = _strength(*args)
    assert first.returncode == 0, first.stderr
    matches = [json.loads(line) for line in log.read_text().splitlines()]
    assert [m["game"] for m in matches] == list(range(6))
    assert [m["seats"] for m in matches] == [[0, 1, 1], [1, 0, 1], [1, 1, 0]] * 2
    assert {(m["rules"], m["players"]) for m in matches} == {("cardrulesplus", 3)}
    for m in matches:
        a_seat = m["seats"].index(0)
        b_scores = [s for seat, s in enumerate(m["scores"]) if seat != a_seat]
        assert m["points"] == [m["scores"][a_seat], sum(b_scores) / 2]
        # The winner is an entrant: 0 exactly when A's seat has the (unique) top total.
        assert m["winner"] == (0 if m["scores"][a_seat] > max(b_scores) else 1)
    wins = sum(m["winner"] == 0 for m in matches)
    shown = re.search(r"greedy vs random: (\d+)/6 = ([\d.]+)% \(even: 33\.3%\) ", first.stdout)
    assert shown is not None, first.stdout
    assert int(shown[1]) == wins
    assert float(shown[2]) == pytest.approx(100 * wins / 6, abs=0.05)
    assert first.stdout.startswith("3 players, cardrulesplus, seed 2026, ")
    # Started again on its log, it plays nothing and reports the same matches.
    before = log.read_text()
    again = _strength(*args)
    assert again.returncode == 0, again.stderr
    assert log.read_text() == before
    assert "..." not in again.stderr  # no progress line: no match played
    elapsed = re.compile(r", \d+ s: ")
    assert elapsed.sub(", _ s: ", again.stdout) == elapsed.sub(", _ s: ", first.stdout)


@pytest.mark.parametrize("players", [2, 4])
def test_two_and_four_players_keep_the_tournament_seeding(strength: Any, players: int) -> None:
    # The contract earlier logs and the published ladder rely on, spelled out here as the
    # unchanged code played it: seats alternate, pairs of matches share the shuffles.
    seed, names = 11, ("greedy", "random")
    specs = (BotSpec.parse(names[0]), BotSpec.parse(names[1]))
    for game in range(4):
        first = game % 2
        seats = [first, 1 - first] * (players // 2)
        bot_seed = subseed(seed, first, 1 - first, game)
        bots = [specs[who].build(subseed(bot_seed, seat)) for seat, who in enumerate(seats)]
        expected = play_match(bots, seed=subseed(seed, 0, 1, game // 2), players=players, dealer=0)
        match = strength.play(specs, game, seed, players)
        assert match["seats"] == seats
        assert match["winner"] == seats[expected.winner]
        assert match["points"] == [expected.scores[seats.index(e)] for e in (0, 1)]
        assert match["deals"] == expected.deals


@pytest.mark.out_of_process
def test_three_players_under_a_profile_without_them_is_a_usage_error() -> None:
    # Refused before any match, in playouts.py's words (Tunisian has no 3-player match).
    done = _strength("--players", "3", "--games", "1")
    assert done.returncode == 2
    assert "the tunisian profile plays with 2, 4 players, not 3" in done.stderr


def test_each_group_of_three_matches_shares_its_shuffles(
    strength: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seated = [strength.seating(game, 7, 3) for game in range(6)]
    assert [s.a_seat for s in seated] == [0, 1, 2] * 2
    assert [s.seats for s in seated] == [(0, 1, 1), (1, 0, 1), (1, 1, 0)] * 2
    assert len({s.match_seed for s in seated[:3]}) == len({s.match_seed for s in seated[3:]}) == 1
    assert seated[0].match_seed != seated[3].match_seed
    assert len({s.bot_seed for s in seated}) == 6  # every match's bots their own
    # play() hands that seed and the profile to play_match: the same shuffles, A's seat moving.
    played: list[tuple[int, str, tuple[Any, ...]]] = []

    def recorded(bots: list[Any], **kwargs: Any) -> chkobba.arena.MatchResult:
        result = play_match(bots, **kwargs)
        shuffles = tuple(m for m in result.record.moves if isinstance(m, chkobba.Shuffle))
        played.append((kwargs["seed"], kwargs["rules"].name, shuffles))
        assert len({id(bot) for bot in bots}) == 3  # each seat its own bot
        return result

    monkeypatch.setattr(strength, "play_match", recorded)
    specs = (BotSpec.parse("greedy"), BotSpec.parse("random"))
    for game in range(3):
        strength.play(specs, game, 7, 3, chkobba.CARD_RULES_PLUS)
    assert {(seed, rules) for seed, rules, _ in played} == {(seated[0].match_seed, "cardrulesplus")}
    shortest = min(len(shuffles) for _, _, shuffles in played)
    assert len({shuffles[:shortest] for _, _, shuffles in played}) == 1


def test_the_log_key_names_the_profile_and_old_lines_are_tunisian(
    strength: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    specs = (BotSpec.parse("greedy"), BotSpec.parse("random"))
    log = tmp_path / "old.jsonl"
    strength.run_pair(specs, 2, 5, 2, log)
    # A log written before --rules existed: the same lines without the keys added since.
    old = [json.loads(line) for line in log.read_text().splitlines()]
    new_keys = ("rules", "seats", "scores")
    log.write_text(
        "".join(json.dumps({k: v for k, v in m.items() if k not in new_keys}) + "\n" for m in old)
    )
    calls: list[str] = []
    real = strength.play

    def counted(*args: Any) -> dict[str, Any]:
        calls.append(args[-1].name)
        return real(*args)

    monkeypatch.setattr(strength, "play", counted)
    assert [m["winner"] for m in strength.run_pair(specs, 2, 5, 2, log)] == [
        m["winner"] for m in old
    ]
    assert calls == []  # resumed: the old lines count as Tunisian ones
    strength.run_pair(specs, 2, 5, 2, log, chkobba.CARD_RULES_PLUS)
    assert calls == ["cardrulesplus"] * 2  # another profile's matches are not those


def _estimate_ab() -> Any:
    return _benchmark("estimate_ab")


def _in_git_checkout() -> bool:
    found = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=PLAYOUTS.parent, capture_output=True, check=False
    )
    return found.returncode == 0


@pytest.mark.skipif(not _in_git_checkout(), reason="needs the git history (not an sdist)")
def test_the_estimate_ab_loads_a_revisions_search_beside_this_one() -> None:
    ab = _estimate_ab()
    before = dict(sys.modules)
    old = ab.old_search("HEAD")
    assert old is not chkobba.bots.ISMCTSBot and old.__name__ == "ISMCTSBot"
    # This tree's modules are back in place: the old ones were only seen while loading.
    assert all(sys.modules[name] is module for name, module in before.items())
    # The old search plays legal moves of this tree's states, on its own rollout.
    state = chkobba.apply(
        chkobba.new_match(3, rules=chkobba.CARD_RULES_PLUS),
        chkobba.random_shuffle(random.Random(4)),
    )
    while state.phase is not chkobba.Phase.PLAY:
        state = chkobba.apply(state, chkobba.legal_moves(state)[0])
    legal = chkobba.legal_moves(state)
    view = chkobba.observe(state, state.mover)
    assert old(iterations=20, seed=1).choose(view, legal) in legal
    summary = ab.summary(
        [
            {
                "new_won": True,
                "new_seat": 1,
                "scores": [3, 11, 4],
                "deals": 5,
                "new_times": [0.1],
                "old_times": [0.2, 0.3],
            },
            {
                "new_won": False,
                "new_seat": 2,
                "scores": [11, 2, 5],
                "deals": 4,
                "new_times": [],
                "old_times": [],
            },
        ]
    )
    assert summary.startswith("new won 1/2 = 50.0% (even: 33.3%)")
    # Its side's points, 11 + 5 over 9 deals, against the others' means, 3.5 + 6.5.
    assert "points/deal 1.78 vs 1.11" in summary


def test_compare_gives_the_median_and_spread_of_each_runs_ratio() -> None:
    playouts = _benchmark("playouts")
    # Run by run (this tree against the other): 2x, 4x, 3x; a run without a figure
    # (a revision without rollout) is left out, and none at all is n/a.
    mine = [200.0, 400.0, 330.0, None]
    theirs = [100.0, 100.0, 110.0, 100.0]
    assert playouts.run_ratios(mine, theirs) == "3.00x (2.00-4.00x)"
    assert playouts.run_ratios([None, None], [1.0, 2.0]) == "n/a"


# --- match_odds.py: the points edge a win-rate goal needs (#13) --------------------------


@pytest.fixture(scope="module")
def match_odds() -> Any:
    return _benchmark("match_odds")


def test_the_reweighted_sample_has_the_asked_edge(match_odds: Any) -> None:
    # Deals of (2, 1) and, mirrored, (1, 2): an edge of 0.5 a deal is the +1 deal three
    # times in four.
    model = match_odds.Model([(2, 1)])
    assert model.points == [(2, 1), (1, 2)]
    first, total = model.tilt(0.5)
    assert first / total == pytest.approx(0.75)
    # Untilted, the mirrored sample favours nobody.
    first, total = model.tilt(0.0)
    assert first / total == pytest.approx(0.5)


def test_matches_end_by_the_engines_rule_and_favour_the_edge(match_odds: Any) -> None:
    model = match_odds.Model([(3, 1), (2, 2), (4, 0)])
    rng = random.Random(5)
    even, ahead = model.win_rate(0.0, 4000, rng), model.win_rate(0.8, 4000, rng)
    assert 0.46 < even < 0.54  # 4000 fair matches: within 4 standard errors of a half
    assert ahead > even + 0.1
    # Deals of (11, 0) only: two deals reach 21 and 22 against 0, so every match is won.
    assert match_odds.Model([(11, 0)]).win_rate(10.9, 10, rng) == 1.0
    # With deals of 11 points to one side, a match is the best of three deals: won with
    # chance p * p * (3 - 2p) when p is the chance of each deal, whose edge is 11 (2p - 1).
    # 60% of the matches needs p = 0.5671, an edge of 1.48.
    assert match_odds.Model([(11, 0)]).edge_for(0.6, 20_000, rng) == pytest.approx(1.48, abs=0.1)


def test_deal_points_come_from_real_deals_and_the_seed(match_odds: Any) -> None:
    points = match_odds.deal_points(["greedy", "random"], 6, seed=4)
    assert points == match_odds.deal_points(["greedy", "random"], 6, seed=4)
    assert len(points) == 6
    # Every Tunisian deal awards the 7 of diamonds, so no deal is scoreless.
    assert all(a >= 0 and b >= 0 and a + b >= 1 for a, b in points)


# --- oracle_bound.py: what the oracle knows (#13) -----------------------------------------


@pytest.mark.parametrize("cut", [True, False])
def test_the_oracle_knowing_hands_searches_only_what_it_may_know(cut: bool) -> None:
    # With --knows hands the order of the cards still to be dealt is shuffled in every
    # iteration; at the cut only the cut card, which the cutter sees, stays in place (the
    # whole order would let the oracle choose between two known deals).
    oracle_bound = _benchmark("oracle_bound")
    state = chkobba.apply(chkobba.new_match(), chkobba.random_shuffle(random.Random(3)))
    if not cut:
        state = chkobba.apply(state, chkobba.Cut(keep=True))
    assert state.phase is (chkobba.Phase.CUT if cut else chkobba.Phase.PLAY)
    searched: list[chkobba.State] = []
    oracle = oracle_bound.Oracle(iterations=20, seed=1)
    oracle.stock_known = False
    oracle.truth = state
    oracle._iterate = lambda root, truth, deals: searched.append(truth)
    oracle.search(chkobba.observe(state, state.current_player))
    assert len(searched) == 20
    kept = 1 if cut else 0
    for truth in searched:
        assert truth.stock[:kept] == state.stock[:kept]
        assert sorted(truth.stock) == sorted(state.stock)
        assert truth.hands == state.hands and truth.table == state.table
    assert len({truth.stock for truth in searched}) > 1
    # Knowing every card, it searches the true state itself.
    oracle.stock_known = True
    searched.clear()
    oracle.search(chkobba.observe(state, state.current_player))
    assert searched == [state] * 20


# --- benchmarks/bytecodes.py: where the engine's work goes -------------------------------


def _bytecodes(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(PLAYOUTS.parent))  # it imports playouts, beside it
    return _benchmark("bytecodes")


@pytest.mark.parametrize(
    ("workload", "loop", "entry"),
    [
        ("step", "playouts.play_deals", "engine.apply"),
        ("rollout", "playouts.rollout_deals", "rollouts.rollout"),
    ],
)
def test_bytecodes_counts_the_workloads_functions_and_puts_the_tracer_back(
    monkeypatch: pytest.MonkeyPatch, workload: str, loop: str, entry: str
) -> None:
    # The public functions stay pure Python in the compiled build too, so they are seen
    # whichever build runs; the counting function itself is not part of the work.
    bytecodes = _bytecodes(monkeypatch)
    before = sys.gettrace()
    counts = bytecodes.count_bytecodes(workload, 3, 1, 5, 2, "tunisian", False)
    assert sys.gettrace() is before
    assert counts[loop] > 0
    assert counts[entry] >= (3 * 36 if workload == "step" else 3)  # once a play, or a deal
    assert not any(name.startswith("bytecodes.") for name in counts)
    by_line = bytecodes.count_bytecodes(workload, 1, 0, 5, 2, "tunisian", True)
    assert all(re.fullmatch(r".+\.\S+:(\d+|\(no line\))", name) for name in by_line)


def test_bytecodes_reports_per_deal_and_per_play(monkeypatch: pytest.MonkeyPatch) -> None:
    bytecodes = _bytecodes(monkeypatch)
    counts = collections.Counter({"a.f": 144, "b.g": 72, "c.h": 1})
    assert bytecodes.report(counts, 2, 2) == [
        "2 warm deals: 108 bytecodes a deal, 3.0 a play",
        " per play   share  where",
        "      2.0   66.4%  a.f",
        "      1.0   33.2%  b.g",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "3"], "the tunisian profile plays with 2, 4 players, not 3"),
        (["--deals", "0"], "--deals and --top must be at least 1"),
    ],
)
def test_bytecodes_refuses_what_it_cannot_count(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    bytecodes = _bytecodes(monkeypatch)
    with pytest.raises(SystemExit) as stopped:
        bytecodes.main(args)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def test_step_parts_records_every_play_of_its_deals_with_its_state() -> None:
    # The parts replay only what the deals played: each play legal in its state, 36 a deal.
    step_parts = _benchmark("step_parts")
    plays = step_parts.recorded_plays(2, 5)
    assert len(plays) == 2 * 36
    assert all(move in chkobba.legal_moves(state) for state, move in plays)


@pytest.mark.parametrize(
    "part",
    ["loop", "hand_plays", "play", "apply", "choice", "listed", "copy", "shell", "forget"],
)
def test_each_step_part_does_its_part_alone(part: str, monkeypatch: pytest.MonkeyPatch) -> None:
    step_parts = _benchmark("step_parts")
    plays = step_parts.recorded_plays(1, 5)
    calls: collections.Counter[str] = collections.Counter()
    for name in ("hand_plays", "play", "apply", "legal_moves"):
        real = getattr(step_parts, name)

        def counted(*args: Any, _real: Any = real, _name: str = name) -> Any:
            calls[_name] += 1
            return _real(*args)

        monkeypatch.setattr(step_parts, name, counted)
    step_parts.replay(part, plays, 2, 1)
    expected = {
        "hand_plays": "hand_plays",
        "play": "play",
        "apply": "apply",
        "listed": "legal_moves",
    }.get(part)
    assert calls == (collections.Counter({expected: 2 * len(plays)}) if expected else {})
    listed = [state.__dict__["_legal_plays"] for state, _move in plays]
    assert (None in listed) == (part == "forget")


@pytest.mark.parametrize("part", ["copy", "shell"])
def test_step_parts_copy_and_shell_make_one_new_state_a_play(
    part: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # copy: a new State equal to the one played from; shell: one holding two fields only.
    step_parts = _benchmark("step_parts")
    plays = step_parts.recorded_plays(1, 5)
    made: list[chkobba.State] = []
    real = step_parts.from_fields
    monkeypatch.setattr(step_parts, "from_fields", lambda fields: made.append(real(fields)))
    step_parts.replay(part, plays, 1, 1)
    assert len(made) == len(plays)
    for new, (state, _move) in zip(made, plays, strict=True):
        assert type(new) is chkobba.State and new is not state and new.rules is state.rules
        if part == "copy":
            assert new == state and new.__dict__ is not state.__dict__
        else:
            assert sorted(new.__dict__) == ["_attrs_cached_hash", "_legal_plays", "phase", "rules"]


def test_step_parts_legal_moves_lists_the_forgotten_plays_again() -> None:
    step_parts = _benchmark("step_parts")
    plays = step_parts.recorded_plays(1, 5)
    listed = [state.legal_plays for state, _move in plays]
    step_parts.replay("forget", plays, 1, 1)
    step_parts.replay("legal_moves", plays, 1, 1)
    assert [state.__dict__["_legal_plays"] for state, _move in plays] == listed


# --- benchmarks/env_steps.py: the adapters' steps per second -------------------------------


def _env_steps(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(PLAYOUTS.parent))  # it imports playouts, beside it
    return _benchmark("env_steps")


def test_env_steps_counts_the_steps_each_adapter_asks_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("pettingzoo")
    from chkobba.pettingzoo import raw_env

    env_steps = _env_steps(monkeypatch)
    actions: list[object] = []
    step = raw_env.step

    def counted(self: Any, action: Any) -> None:
        actions.append(action)
        step(self, action)

    monkeypatch.setattr(raw_env, "step", counted)
    env_steps.pettingzoo_decisions(500, 1, 2)  # more than a match: a fresh episode starts
    decided = [a for a in actions if a is not None]
    assert len(decided) == 500 and len(actions) > len(decided)


def test_env_steps_prints_a_median_for_each_installed_adapter(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    env_steps = _env_steps(monkeypatch)
    if not any(map(env_steps.installed, env_steps.ENVS)):
        pytest.skip("no adapter installed (the next test covers that case)")
    env_steps.main(["--steps", "20", "--runs", "2", "--players", "4", "--warmup", "5"])
    lines = capsys.readouterr().out.splitlines()
    for name in reversed(env_steps.ENVS):
        if env_steps.installed(name):
            assert re.fullmatch(rf"{name}: median [\d,]+ steps/s", lines.pop()), name
        else:
            assert f"{name}: not installed (pip install 'chkobba[{name}]')" in lines
    for name in filter(env_steps.installed, env_steps.ENVS):
        env_steps.main(["--only", name, "--warmup", "3", "--steps", "5"])
        assert capsys.readouterr().out == ""  # what callgrind counts: the workload alone


def test_env_steps_without_any_adapter_fails_instead_of_measuring_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # It printed "run 1: " to "run 5: " with nothing after them, and exited 0.
    env_steps = _env_steps(monkeypatch)
    monkeypatch.setattr(env_steps, "installed", lambda name: False)
    with pytest.raises(SystemExit, match=r"^env_steps.py: none of the adapters asked for is"):
        env_steps.main(["--steps", "20", "--runs", "2", "--warmup", "5"])
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        f"{n}: not installed (pip install 'chkobba[{n}]')" for n in sorted(env_steps.ENVS)
    ]


def test_estimate_fit_without_numpy_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)  # what an import finds without numpy
    with pytest.raises(SystemExit, match=r"^estimate_fit.py needs numpy: pip install numpy"):
        _benchmark("estimate_fit")


@pytest.mark.out_of_process
def test_env_steps_compares_with_a_revision_side_by_side(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two runs of each side, alternating: both medians, their ratio and the runs' ratios.
    if not (PLAYOUTS.parent.parent / ".git").exists():
        pytest.skip("--compare checks a revision out: it needs a git checkout, not an sdist")
    if not any(map(_env_steps(monkeypatch).installed, ("pettingzoo", "gymnasium", "openspiel"))):
        # A checkout with the test tools only (pip install -e '.[test]') failed here.
        pytest.skip("no adapter installed (the test of that case is above)")
    script = PLAYOUTS.parent / "env_steps.py"
    env = {**os.environ, "PYTHONPATH": str(PLAYOUTS.parent.parent / "src")}
    args = ["--steps", "30", "--runs", "2", "--warmup", "5", "--compare", "HEAD"]
    done = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    installed = [line.split()[0] for line in lines if line.startswith("  ")]
    assert [line.split(":")[0] for line in lines if line.startswith("run ")] == ["run 1", "run 2"]
    for line in lines:
        if line.startswith("  "):
            assert re.fullmatch(r"  \w+ +[\d,]+ \| +[\d,]+ \| +[\d.]+x \| .+x\)", line), line
    assert "medians of 2 alternating runs (30 steps each, 2 players)" in done.stdout
    assert len(installed) == len({"pettingzoo", "gymnasium", "openspiel"} & set(installed))
    unknown = subprocess.run(
        [sys.executable, str(script), "--compare", "no-such-revision"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert "env_steps.py: error: --compare 'no-such-revision' is not a revision" in unknown.stderr


def test_the_scripts_refuse_counts_below_their_least_and_unknown_bots() -> None:
    # A count of 0 divided by zero, a negative one printed negative speeds, and a bot
    # that does not exist was a traceback: each is now a usage error naming the option.
    args = _benchmark("_args")
    assert (args.positive("3"), args.at_least_zero("0"), args.bot_spec("ismcts:v1")) == (
        3,
        0,
        "ismcts:v1",
    )
    for check, text, said in [
        (args.positive, "0", "0 is less than 1"),
        (args.at_least_zero, "-3", "-3 is less than 0"),
        (args.positive, "two", "'two' is not a whole number"),
        (args.bot_spec, "nosuch", "'nosuch' is not a bot: choose from"),
    ]:
        with pytest.raises(argparse.ArgumentTypeError) as caught:
            check(text)
        assert str(caught.value).startswith(said)


def test_records_speed_reads_back_the_records_it_times(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    records_speed = _benchmark("records_speed")
    lines = records_speed.recorded(2, 5)
    assert [chkobba.Record.from_json(line).tags["seed"] for line in lines] == ["5", "6"]
    assert all("\n" not in line for line in lines)  # one record a line, as simulate's
    monkeypatch.setattr(sys, "argv", ["records_speed.py", "--matches", "2", "--runs", "1"])
    records_speed.main()
    out = capsys.readouterr().out.splitlines()
    moves = sum(len(chkobba.Record.from_json(line).moves) for line in records_speed.recorded(2, 0))
    assert out[0] == f"2 records, {moves:,} moves (median CPU µs a move of 1 runs)"
    assert [line.split()[0] for line in out[1:]] == [
        "from_json(verify=False)",
        "from_json(verify=True)",
        "to_json(compact=True)",
    ]
    assert all(float(line.split()[1]) > 0 for line in out[1:])
