"""Bots: legal moves only, views only, reproducible, and the greedy heuristic's choices."""

from __future__ import annotations

import pickle
import random

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chkobba import (
    DECK,
    ChkobbaError,
    Cut,
    Phase,
    Play,
    PlayerView,
    State,
    apply,
    card,
    cards,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.arena import play_match
from chkobba.bots import (
    Bot,
    BotSpec,
    ExpertBot,
    GreedyBot,
    ISMCTSBot,
    RandomBot,
    SeededBot,
    determinize,
    make_bot,
)
from chkobba.bots.evaluation import deal_estimate
from chkobba.bots.ismcts import rollout
from tests.helpers import arranged
from tests.strategies import examples, seeds, states

DECISIONS = (Phase.CUT, Phase.PLAY)


def all_bots(seed: int) -> list[SeededBot]:
    # Tiny search budgets: the point is legality and reproducibility, not strength.
    return [
        RandomBot(seed=seed),
        GreedyBot(seed=seed),
        ISMCTSBot(iterations=6, seed=seed),
        ISMCTSBot(iterations=6, horizon=4, seed=seed),
        ExpertBot(iterations=6, budget=200, seed=seed),
    ]


@settings(max_examples=examples(40))
@given(states(phases=DECISIONS), seeds())
def test_every_bot_returns_a_legal_move(state: State, seed: int) -> None:
    player = state.current_player
    assert player is not None
    legal = legal_moves(state)
    for bot in all_bots(seed):
        assert bot.choose(observe(state, player), legal) in legal


@settings(max_examples=examples(40))
@given(states(phases=DECISIONS), seeds())
def test_determinize_is_consistent_with_the_view(state: State, seed: int) -> None:
    player = state.current_player
    assert player is not None
    view = observe(state, player)
    guess = determinize(view, random.Random(seed))
    assert observe(guess, player) == view
    everywhere = [c for hand in guess.hands for c in hand]
    everywhere += [*guess.table, *guess.stock, *(c for pile in guess.captured for c in pile)]
    assert sorted(everywhere) == list(DECK)
    # Hidden cards go to other hands and the stock, never to a known place.
    others = [p for p in range(state.players) if p != player]
    hidden = sorted(state.stock + sum((state.hands[p] for p in others), ()))
    assert sorted(guess.stock + sum((guess.hands[p] for p in others), ())) == hidden


def test_determinize_keeps_the_cut_card_on_top() -> None:
    state = apply(new_match(), random_shuffle(random.Random(11)))
    view = observe(state, state.cutter)
    for seed in range(5):
        guess = determinize(view, random.Random(seed))
        assert guess.stock[0] is state.stock[0]
        assert sorted(guess.stock) == list(DECK)


def test_determinize_rejects_phases_without_a_decision() -> None:
    with pytest.raises(ChkobbaError, match="nothing to sample"):
        determinize(observe(new_match(), 0), random.Random(0))


def test_determinize_samples_vary_with_the_seed() -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(2))), Cut(keep=False))
    view = observe(state, 1)
    samples = {determinize(view, random.Random(seed)).hands[0] for seed in range(10)}
    assert len(samples) > 1


class Spy:
    """Wraps a bot and records what it was given."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seen: list[object] = []

    def choose(self, view: PlayerView, legal: tuple[object, ...]) -> object:
        self.seen.append(view)
        return self.bot.choose(view, legal)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 4])
def test_bots_in_a_match_only_receive_their_own_view(players: int) -> None:
    spies = [Spy(GreedyBot(seed=p)) for p in range(players)]
    states_seen: list[tuple[State, int]] = []

    def check(before: State, move: object, after: State) -> None:
        if before.current_player is not None:
            states_seen.append((before, before.current_player))

    play_match(spies, seed=5, players=players, on_move=check)  # type: ignore[arg-type]
    received = [view for spy in spies for view in spy.seen]
    assert received and all(isinstance(view, PlayerView) for view in received)
    for seat, spy in enumerate(spies):
        assert all(view.player == seat for view in spy.seen)  # type: ignore[attr-defined]
    expected = sorted((repr(observe(state, player)) for state, player in states_seen), key=str)
    assert sorted(map(repr, received), key=str) == expected


class Cheat:
    def choose(self, view: PlayerView, legal: tuple[object, ...]) -> object:
        return Play(card("7D"), cards("AS AH AC 4S"))


def test_an_illegal_bot_move_is_refused() -> None:
    with pytest.raises(ChkobbaError, match="not legal"):
        play_match([Cheat(), RandomBot(seed=1)], seed=1)  # type: ignore[list-item]


@pytest.mark.parametrize(
    "spec",
    [
        "random",
        "greedy",
        "ismcts:iterations=10",
        "expert:iterations=10,budget=300",
        "expert:iterations=10,budget=300,inference=2",
    ],
)
def test_seeded_bots_are_reproducible(spec: str) -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    rng = random.Random(0)
    history = []
    while state.phase is Phase.PLAY and len(history) < 12:
        history.append(state)
        state = apply(state, rng.choice(legal_moves(state)))

    def choices(bot: SeededBot) -> list[object]:
        return [bot.choose(observe(s, s.current_player), legal_moves(s)) for s in history]  # type: ignore[arg-type]

    first = choices(make_bot(spec, seed=42))
    assert first == choices(make_bot(spec, seed=42))
    assert first == choices(pickle.loads(pickle.dumps(make_bot(spec, seed=42))))
    assert first == choices(make_bot(spec, seed=7).spawn(42))


def test_random_bots_with_other_seeds_differ() -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(3))), Cut(keep=True))
    view, legal = observe(state, 1), legal_moves(state)
    picks = {RandomBot(seed=s).choose(view, legal) for s in range(30)}
    assert len(picks) > 1


def test_bots_refuse_an_empty_choice() -> None:
    with pytest.raises(ChkobbaError, match="no legal moves"):
        GreedyBot(seed=0).choose(observe(new_match(), 0), ())


def test_bot_options_are_checked() -> None:
    with pytest.raises(ChkobbaError, match="iterations"):
        ISMCTSBot(iterations=0)
    with pytest.raises(ChkobbaError, match="seed"):
        RandomBot(seed="x")  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="not a bot"):
        BotSpec.parse("alphazero")
    with pytest.raises(ChkobbaError, match="not key=value"):
        BotSpec.parse("ismcts:iterations")
    with pytest.raises(ChkobbaError, match="not a number"):
        BotSpec.parse("ismcts:iterations=many")
    with pytest.raises(ChkobbaError, match=r"greedy has no option .depth.; it takes no options"):
        BotSpec.parse("greedy:depth=3")


def test_bot_specs_read_and_print() -> None:
    spec = BotSpec.parse(" ISMCTS : iterations=12 , exploration=0.5 ")
    assert str(spec) == "ismcts:iterations=12,exploration=0.5"
    bot = spec.build(seed=1)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.exploration) == (12, 0.5)
    assert pickle.loads(pickle.dumps(spec)) == spec
    assert isinstance(bot, Bot)


# --- the greedy heuristic --------------------------------------------------------------


def greedy_move(state: State) -> object:
    player = state.current_player
    assert player is not None
    return GreedyBot(seed=0).choose(observe(state, player), legal_moves(state))


def test_greedy_takes_a_chkobba() -> None:
    state = arranged(hands=["AS 5S 6H", "QH 3C 4C"], table="2D 6S")
    assert greedy_move(state) == Play(card("QH"), cards("2D 6S"))


def test_greedy_takes_the_seven_of_diamonds() -> None:
    state = arranged(hands=["AS 5S 6H", "7S 2C KC"], table="7D 2H QS JC")
    assert greedy_move(state) == Play(card("7S"), cards("7D"))


def test_greedy_does_not_leave_a_sweepable_table() -> None:
    # Laying 2C leaves 2C+3H (=5: any five sweeps); laying KC leaves 13, which nothing sweeps.
    state = arranged(hands=["AS 5S 6H", "2C KC 4S"], table="3H")
    move = greedy_move(state)
    assert isinstance(move, Play)
    assert move.card != card("2C")


def test_greedy_keeps_a_valuable_cut_card() -> None:
    for seed in range(40):
        state = apply(new_match(), random_shuffle(random.Random(seed)))
        top = state.stock[0]
        choice = greedy_move(state)
        valuable = top.suit.value == "D" or top.rank.value in "67"
        assert choice == Cut(keep=valuable)


# --- search pieces ---------------------------------------------------------------------


@settings(max_examples=examples(25))
@given(seeds())
def test_a_rollout_ends_the_deal(seed: int) -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(seed))), Cut(keep=False))
    assume(state.phase is Phase.PLAY)  # not a voided deal
    end = rollout(state, random.Random(seed))
    assert end.phase in (Phase.SHUFFLE, Phase.OVER)
    assert len(end.deal_scores) == 1


def test_a_rollout_with_a_horizon_stops_early() -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(1))), Cut(keep=False))
    end = rollout(state, random.Random(1), horizon=3)
    assert end.phase is Phase.PLAY
    assert len(end.stock) + sum(map(len, end.hands)) == 30 + 6 - 3


@given(st.integers(0, 20), st.integers(0, 20))
def test_the_deal_estimate_is_antisymmetric(a: int, b: int) -> None:
    piles = (DECK[:a], DECK[a : a + b])
    estimate = deal_estimate(piles, (1, 0))
    assert deal_estimate((piles[1], piles[0]), (0, 1)) == pytest.approx(-estimate)


def test_ismcts_prefers_the_chkobba() -> None:
    state = arranged(hands=["AS 5S 6H", "QH 3C 4C"], table="2D 6S")
    move = ISMCTSBot(iterations=100, horizon=6, seed=1).choose(
        observe(state, 1), legal_moves(state)
    )
    assert move == Play(card("QH"), cards("2D 6S"))


def test_determinize_rejects_an_inconsistent_view() -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(6))), Cut(keep=False))
    view = observe(state, 1)
    broken = attrs.evolve(view, stock_size=view.stock_size + 1)
    with pytest.raises(ChkobbaError, match="inconsistent"):
        determinize(broken, random.Random(0))
