"""The endgame solver against brute force, and ExpertBot's contract.

The solver is checked against plain minimax (no pruning, no table) on random endgames of
2- and 4-player deals; the bot against the solver where nothing is hidden, and for the
contract every bot keeps: legal moves only, the same move from the same seed and view,
whatever the hidden cards really are.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import (
    PROFILES,
    ChkobbaError,
    Cut,
    IllegalMoveError,
    Move,
    Phase,
    Play,
    PlayerView,
    Record,
    State,
    apply,
    legal_moves,
    new_match,
    observe,
)
from chkobba.bots import BotSpec, ExpertBot, ISMCTSBot, determinize, make_bot
from chkobba.bots.analysis import _rechecked, hint_text, rank_moves, review_record
from chkobba.bots.endgame import Solver, move_values, solve
from chkobba.bots.ismcts import rollout as ismcts_rollout
from chkobba.cli import main
from chkobba.moves import random_shuffle
from chkobba.rollouts import rollout as kernel_rollout
from tests.strategies import examples


def brute_force(state: State, deals: int) -> int:
    """Plain minimax on the deal's final points difference: what the solver must match.

    Its leaves read the scored deal here, not through the solver's own
    ``deal_difference``, so a wrong difference there cannot pass both."""
    if state.phase is not Phase.PLAY:
        if len(state.deal_scores) == deals:
            return 0  # a voided deal
        points = state.deal_scores[deals].points
        return points[0] - points[1]
    values = [brute_force(apply(state, move), deals) for move in legal_moves(state)]
    return max(values) if state.side_of(state.current_player) == 0 else min(values)  # type: ignore[arg-type]


def endgame(seed: int, players: int, cards_left: int) -> State | None:
    """A random position of a deal with at most ``cards_left`` cards in hands and stock."""
    rng = random.Random(seed)
    state = apply(new_match(players=players), random_shuffle(rng))
    state = apply(state, Cut(keep=rng.random() < 0.5))
    if state.phase is not Phase.PLAY:
        return None  # a voided deal
    while sum(map(len, state.hands)) + len(state.stock) > cards_left:
        state = apply(state, rng.choice(legal_moves(state)))
    return state


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 4]), st.integers(1, 6))
def test_the_solver_agrees_with_brute_force(seed: int, players: int, cards_left: int) -> None:
    state = endgame(seed, players, cards_left)
    if state is None:
        return
    deals = len(state.deal_scores)
    assert solve(state) == brute_force(state, deals)
    sign = 1 if state.side_of(state.current_player) == 0 else -1  # type: ignore[arg-type]
    values = move_values(state)
    assert set(values) == set(legal_moves(state))
    for move, value in values.items():
        assert value == sign * brute_force(apply(state, move), deals)


@settings(max_examples=examples(10), deadline=None)
@given(st.integers(0, 10**6))
def test_the_solver_agrees_with_brute_force_across_a_refill(seed: int) -> None:
    # Two plays before the last refill: the stock's order decides the last round.
    state = endgame(seed, 2, 8)
    if state is None:
        return
    assert state.stock
    assert solve(state) == brute_force(state, len(state.deal_scores))


def test_one_solver_gives_the_same_values_twice() -> None:
    state = endgame(3, 2, 12)
    assert state is not None
    solver = Solver()
    first = solver.move_values(state)
    nodes = solver.nodes
    assert solver.move_values(state) == first
    assert solver.nodes == nodes  # the second time every position is in the table


def test_the_solver_rejects_what_it_cannot_solve() -> None:
    with pytest.raises(ChkobbaError, match="phase PLAY"):
        solve(new_match())
    with pytest.raises(ChkobbaError, match="needs a State"):
        solve("7D")  # type: ignore[arg-type]


def test_the_solver_points_a_view_to_determinize() -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(8))), Cut(keep=False))
    while state.stock:
        state = apply(state, legal_moves(state)[0])
    view = observe(state, state.mover)
    with pytest.raises(ChkobbaError, match=r"not a PlayerView \(determinize\(view, rng\)"):
        move_values(view)  # type: ignore[arg-type]
    # With the stock empty the view's hidden cards can lie only one way.
    assert move_values(determinize(view, random.Random(0))) == move_values(state)


# --- ExpertBot ---------------------------------------------------------------------


def small_expert(seed: int) -> ExpertBot:
    return ExpertBot(iterations=8, budget=300, seed=seed)


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 4]), st.integers(1, 40))
def test_the_expert_plays_legal_moves(seed: int, players: int, cards_left: int) -> None:
    state = endgame(seed, players, cards_left)
    if state is None:
        return
    legal = legal_moves(state)
    view = observe(state, state.current_player)  # type: ignore[arg-type]
    assert small_expert(seed).choose(view, legal) in legal


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 6))
def test_with_nothing_hidden_the_expert_plays_a_solved_best_move(seed: int, left: int) -> None:
    state = endgame(seed, 2, left)
    if state is None:
        return
    values = move_values(state)
    view = observe(state, state.current_player)  # type: ignore[arg-type]
    move = small_expert(seed).choose(view, legal_moves(state))
    assert values[move] == max(values.values())
    assert small_expert(seed).evaluate(view, legal_moves(state)) == values


@pytest.mark.parametrize("left", [3, 6, 12])
def test_the_expert_evaluates_and_chooses_among_a_subset_of_the_legal_moves(left: int) -> None:
    # A caller may forbid some moves (a wrapper, a teaching mode): the endgame values the
    # moves it is given, no others, and chooses among them.
    for seed in range(40):
        state = endgame(seed, 2, left)
        if state is not None and len(legal_moves(state)) >= 3:
            break
    assert state is not None
    view, legal = observe(state, state.current_player), legal_moves(state)  # type: ignore[arg-type]
    subset = legal[1:]
    values = small_expert(3).evaluate(view, subset)
    assert list(values) == list(subset)
    assert small_expert(3).choose(view, subset) == max(subset, key=values.__getitem__)
    assert [m.move for m in rank_moves(view, subset)] == sorted(subset, key=lambda m: -values[m])
    if left <= 3:  # nothing hidden: each value is the exact one, as with every move given
        assert values == {move: move_values(state)[move] for move in subset}


@pytest.mark.parametrize("cards_left", [40, 12, 3])
def test_the_expert_reads_only_its_view(cards_left: int) -> None:
    # Deal the hidden cards differently behind the same view: the same seeded bot must
    # choose the same move, so nothing but the view can have informed it.
    state = endgame(8, 2, cards_left)
    assert state is not None
    player = state.current_player
    assert player is not None
    view = observe(state, player)
    legal = legal_moves(state)
    chosen = {small_expert(5).choose(view, legal)}
    for seed in range(4):
        other = determinize(view, random.Random(seed))
        assert observe(other, player) == view
        chosen.add(small_expert(5).choose(observe(other, player), legal_moves(other)))
    assert len(chosen) == 1


def test_the_expert_is_reproducible_from_its_seed() -> None:
    state = endgame(21, 2, 14)
    assert state is not None
    view, legal = observe(state, state.current_player), legal_moves(state)  # type: ignore[arg-type]
    first = make_bot("expert:iterations=8,budget=300", seed=4)
    values = first.evaluate(view, legal)  # type: ignore[attr-defined]
    assert make_bot("expert:iterations=8,budget=300", seed=4).evaluate(view, legal) == values  # type: ignore[attr-defined]
    assert first.spawn(4).evaluate(view, legal) == values  # type: ignore[attr-defined]


def test_the_expert_checks_its_options() -> None:
    with pytest.raises(ChkobbaError, match="endgame"):
        ExpertBot(endgame=-1)
    with pytest.raises(ChkobbaError, match="budget"):
        ExpertBot(budget=0)


def test_the_0_1_0_ismcts_stays_reachable() -> None:
    bot = BotSpec.parse("ismcts:v1").build(seed=1)
    assert isinstance(bot, ISMCTSBot)
    assert bot.options() == {
        "iterations": 800,
        "exploration": 0.7,
        "epsilon": 0.1,
        "horizon": 6,
        "inference": 0,  # (new: off, as in 0.1.0)
        "seconds": 0.0,  # (new: no time limit, as in 0.1.0)
    }


@pytest.mark.parametrize(
    "text", ["ismcts:v1,iterations=50", "ismcts:iterations=50,v1", "ISMCTS: V1 , iterations=50"]
)
def test_options_override_a_preset_wherever_they_stand(text: str) -> None:
    spec = BotSpec.parse(text)
    assert str(spec) == "ismcts:iterations=50,exploration=0.7,epsilon=0.1,horizon=6"
    assert BotSpec.parse(str(spec)) == spec


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("ismcts:v1,v1", "one preset at most"),
        ("ismcts:v2", r"'v2' is not key=value or a preset \(v1\)"),
        ("greedy:v1", "'v1' is not key=value$"),
        ("ismcts:v1,iterations=5,iterations=6", "'iterations' is given twice"),
        ("ismcts:v1,iters=5", "no option 'iters'"),
    ],
)
def test_a_preset_is_named_once_and_for_its_own_bot(text: str, reason: str) -> None:
    with pytest.raises(ChkobbaError, match=reason):
        BotSpec.parse(text)


# --- reviews: chkobba analyse and play's hint ----------------------------------------


def short_record(tmp_path: Path) -> Path:
    from chkobba.arena import play_match

    record = play_match([make_bot("greedy", 1), make_bot("random", 2)], seed=5).record
    # The first deal only: enough to review, quick with a small search.
    end = next(i for i, s in enumerate(record.replay()) if s.deal_scores)
    path = tmp_path / "match.json"
    path.write_text(Record(players=2, dealer=record.dealer, moves=record.moves[:end]).to_json())
    return path


def test_a_review_rates_every_legal_move_and_the_loss_of_the_one_played() -> None:
    state = endgame(4, 2, 6)
    assert state is not None
    values = move_values(state)
    worst_move = min(values, key=values.__getitem__)
    record = Record(players=2, moves=(*record_moves_to(state), worst_move))
    reviews = review_record(record, evaluator=small_expert(0))
    last = reviews[-1]
    assert {item.move for item in last.ranked} == set(values)
    assert [item.value for item in last.ranked] == sorted(values.values(), reverse=True)
    assert last.loss == max(values.values()) - values[worst_move]
    assert all(review.loss >= 0 for review in reviews)


def test_a_positions_review_depends_on_the_position_and_the_seed_alone() -> None:
    # One bot carried through the record gave a position values that depended on every
    # position reviewed before it: --seat changed a seat's verdicts.
    from chkobba.arena import play_match

    record = play_match([make_bot("greedy", 1), make_bot("random", 2)], seed=5).record
    record = Record(players=2, dealer=record.dealer, moves=record.moves[:24])
    everyone = review_record(record, evaluator=small_expert(7))
    seat_0 = review_record(record, seats=(0,), evaluator=small_expert(7))
    assert seat_0 == [review for review in everyone if review.player == 0] != []
    states = record.replay()
    for review in everyone:
        state = states[review.index]
        bot, view = small_expert(7 + review.index), observe(state, review.player)
        alone = _rechecked(bot, view, review.played, rank_moves(view, legal_moves(state), bot))
        assert review.ranked == alone
    assert review_record(record, evaluator=small_expert(7)) == everyone  # reproducible


def test_an_illegal_record_is_refused_by_its_move_before_any_position_is_evaluated() -> None:
    # It was refused only when the replay reached the move, after a search of every
    # position before it, and without the move's number.
    from chkobba.arena import play_match

    moves = list(play_match([make_bot("greedy", 1), make_bot("random", 2)], seed=5).record.moves)
    state = Record(players=2, moves=moves[:7]).final()
    foreign = state.stock[0]  # a card nobody holds yet
    moves[7] = Play(foreign)
    asked: list[int] = []

    class Counting:
        def evaluate(self, view: PlayerView, legal: Sequence[Move]) -> dict[Move, float]:
            asked.append(len(legal))
            return dict.fromkeys(legal, 0.0)

    with pytest.raises(IllegalMoveError) as raised:
        review_record(Record(players=2, moves=moves), evaluator=Counting())
    assert str(raised.value) == (
        f"review_record: move 8 (index 7) ({str(foreign)!r}) is not legal: "
        f"{foreign} is not in player {state.current_player}'s hand"
    )
    assert asked == []
    assert review_record(Record(players=2, moves=moves[:7]), evaluator=Counting())
    assert asked != []


def record_moves_to(state: State) -> tuple[Move, ...]:
    """The moves of ``endgame``'s position, found again by replaying its seed's choices."""
    rng = random.Random(4)
    moves: list[Move] = [random_shuffle(rng)]
    moves.append(Cut(keep=rng.random() < 0.5))
    current = apply(apply(new_match(), moves[0]), moves[1])
    while current != state:
        moves.append(rng.choice(legal_moves(current)))
        current = apply(current, moves[-1])
    return tuple(moves)


def test_chkobba_analyse_prints_a_review_and_json(tmp_path: Path, capsys: Any) -> None:
    path = short_record(tmp_path)
    bot = "expert:iterations=20,budget=200"
    assert main(["analyse", str(path), "--seat", "1", "--bot", bot, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["moves"] and all(move["player"] == 1 for move in data["moves"])
    for move in data["moves"]:
        assert move["loss"] >= 0 and move["played"] in [m["move"] for m in move["moves"]]
    assert main(["analyse", str(path), "--bot", bot]) == 0
    assert "lost the most" in capsys.readouterr().out
    for bad in (["--seat", "7"], ["--bot", "greedy"]):  # bad arguments: exit status 2
        with pytest.raises(SystemExit, match="2"):
            main(["analyse", str(path), *bad])


def test_the_hint_shows_the_three_best_moves_with_values() -> None:
    state = endgame(6, 2, 5)
    assert state is not None
    view = observe(state, state.current_player)  # type: ignore[arg-type]
    text = hint_text(view, legal_moves(state), seed=1)
    ranked = rank_moves(view, legal_moves(state), small_expert(1))
    assert text.startswith(f"{ranked[0].move} ({ranked[0].value:+.2f} points)")
    assert text.count("(") == min(3, len(ranked))


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_the_search_bots_play_every_profile_and_player_count(name: str) -> None:
    rules = PROFILES[name]
    for players in rules.players:
        bots = [ExpertBot(iterations=6, budget=100, seed=players), ISMCTSBot(iterations=6, seed=1)]
        state = apply(new_match(players=players, rules=rules), random_shuffle(random.Random(2)))
        while state.phase in (Phase.CUT, Phase.PLAY):
            player = state.current_player
            assert player is not None
            legal = legal_moves(state)
            move = bots[player % 2].choose(observe(state, player), legal)
            assert move in legal
            state = apply(state, move)


def test_uniform_rollouts_are_the_kernel_rollout() -> None:
    state = endgame(5, 2, 30)
    assert state is not None
    end = ismcts_rollout(state, random.Random(1), epsilon=1.0, horizon=0)
    assert len(end.deal_scores) == len(state.deal_scores) + 1
    assert end == kernel_rollout(state, random.Random(1))
    bot = make_bot("ismcts:iterations=20,epsilon=1,horizon=0", seed=3)
    view, legal = observe(state, state.current_player), legal_moves(state)  # type: ignore[arg-type]
    assert bot.choose(view, legal) in legal
