"""The search bots' time limit, ``seconds``: the search stops when the time is up.

The clock is replaced by one that ticks a second at every reading, so what a limit does
is exact and no test depends on the machine's speed. Without a limit the clock is never
read: such a bot stays a function of its seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest

import chkobba.bots.base
import chkobba.bots.expert
from chkobba import Cut, Phase, PlayerView, State, apply, legal_moves, new_match, observe
from chkobba.bots import BotSpec, ExpertBot, ISMCTSBot, make_bot
from chkobba.bots.base import OPTION_LIMIT, Deadline
from chkobba.bots.endgame import Solver
from chkobba.bots.registry import bot_options
from chkobba.errors import ChkobbaError, shown
from chkobba.moves import random_shuffle


class TickingClock:
    """A clock that reads 0, 1, 2, ... seconds, one more at every reading."""

    def __init__(self) -> None:
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        return float(self.readings - 1)


@pytest.fixture
def ticking(monkeypatch: pytest.MonkeyPatch) -> Iterator[TickingClock]:
    clock = TickingClock()
    monkeypatch.setattr(chkobba.bots.base, "clock", clock)
    yield clock


@pytest.fixture
def no_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    def unreadable() -> float:
        raise AssertionError("a bot without a time limit read the clock")

    monkeypatch.setattr(chkobba.bots.base, "clock", unreadable)


def position(seed: int, cards_left: int) -> State:
    """A 2-player position with a choice, at most ``cards_left`` cards in hands and stock."""
    rng = random.Random(seed)
    while True:
        state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=False))
        while state.phase is Phase.PLAY and (
            sum(map(len, state.hands)) + len(state.stock) > cards_left
            or len(legal_moves(state)) < 2
        ):
            state = apply(state, rng.choice(legal_moves(state)))
        if state.phase is Phase.PLAY:
            return state


def view_of(state: State) -> PlayerView:
    return observe(state, state.current_player)  # type: ignore[arg-type]


def iterations_of(bot: ISMCTSBot, state: State) -> int:
    """How many iterations a search of ``state`` ran (each visits one move of the root)."""
    root = bot.search(view_of(state))
    return sum(child.visits for child in root.children.values())


def test_a_search_stops_once_its_seconds_are_up(ticking: TickingClock) -> None:
    """Read at 0 (the deadline 2.5), then after each iteration at 1, 2 and 3: three."""
    bot = ISMCTSBot(seconds=2.5, seed=1)
    assert iterations_of(bot, position(1, 40)) == 3
    assert ticking.readings == 4


def test_the_iterations_still_cap_a_timed_search(ticking: TickingClock) -> None:
    """Whichever comes first: two iterations, long before 100 seconds."""
    assert iterations_of(ISMCTSBot(iterations=2, seconds=100, seed=1), position(2, 40)) == 2


def test_a_search_whose_time_is_up_at_once_still_runs_one_iteration(
    ticking: TickingClock,
) -> None:
    bot = ISMCTSBot(seconds=1e-9, seed=1)
    state = position(3, 40)
    assert iterations_of(bot, state) == 1
    assert bot.choose(view_of(state), legal_moves(state)) in legal_moves(state)


@pytest.mark.usefixtures("no_clock")
def test_without_a_time_limit_no_bot_reads_the_clock() -> None:
    """The default (``seconds=0``): the search is a function of the seed alone."""
    open_deal, endgame = position(4, 40), position(5, 12)
    for state in (open_deal, endgame):
        for bot in (ISMCTSBot(iterations=20, seed=1), ExpertBot(iterations=20, endgame=12)):
            assert bot.choose(view_of(state), legal_moves(state)) in legal_moves(state)
    assert iterations_of(ISMCTSBot(iterations=20, seed=1), open_deal) == 20
    assert not Deadline(0).passed()


class CountingSolver(Solver):
    samples = 0

    def move_values(self, state: State) -> dict[object, float]:  # type: ignore[override]
        CountingSolver.samples += 1
        return super().move_values(state)  # type: ignore[return-value]


def test_the_expert_endgame_stops_sampling_once_its_seconds_are_up(
    ticking: TickingClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one refill left the endgame samples the hidden cards; the budget is far
    away, so the time limit ends it: a sample, then two more before the clock reads 3."""
    monkeypatch.setattr(chkobba.bots.expert, "Solver", CountingSolver)
    CountingSolver.samples = 0
    state = position(6, 12)
    assert state.stock  # the opponent's hand and the refill are hidden: many samples
    bot = ExpertBot(endgame=12, budget=OPTION_LIMIT, seconds=2.5, seed=1)
    assert bot.solves(view_of(state))
    values = bot.evaluate(view_of(state), legal_moves(state))
    assert set(values) == set(legal_moves(state))
    assert CountingSolver.samples == 3


def test_the_expert_budget_still_caps_a_timed_endgame(
    ticking: TickingClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chkobba.bots.expert, "Solver", CountingSolver)
    CountingSolver.samples = 0
    state = position(6, 12)
    ExpertBot(endgame=12, budget=1, seconds=100, seed=1).evaluate(
        view_of(state), legal_moves(state)
    )
    assert CountingSolver.samples == 1


def test_seconds_alone_lifts_the_iteration_count() -> None:
    assert ISMCTSBot().iterations == 800
    assert ISMCTSBot(seconds=0.5).iterations == OPTION_LIMIT
    assert ISMCTSBot(iterations=50, seconds=0.5).iterations == 50
    assert ExpertBot(seconds=2).iterations == OPTION_LIMIT
    assert ExpertBot(seconds=2).seconds == 2.0


@pytest.mark.parametrize("bot", [ISMCTSBot(seconds=0.25, seed=3), ExpertBot(seconds=1, seed=4)])
def test_a_timed_bot_copies_prints_and_reads_back(bot: ISMCTSBot) -> None:
    copy = bot.spawn(9)
    assert copy.options() == bot.options()
    assert copy.seconds == bot.seconds
    namespace = {"ISMCTSBot": ISMCTSBot, "ExpertBot": ExpertBot}
    again = eval(repr(bot), namespace)  # the repr is code that builds the bot
    assert (type(again), again.options(), again.seed) == (type(bot), bot.options(), bot.seed)


def test_specs_take_a_time_limit() -> None:
    assert "seconds" in bot_options("ismcts")
    assert "seconds" in bot_options("expert")
    bot = make_bot("expert:seconds=0.25", seed=1)
    assert (bot.seconds, bot.iterations) == (0.25, OPTION_LIMIT)  # type: ignore[attr-defined]
    # A preset names its iterations: they stay, and the time limit caps them too.
    timed_v1 = make_bot("ismcts:v1,seconds=1", seed=1)
    assert (timed_v1.seconds, timed_v1.iterations) == (1.0, 800)  # type: ignore[attr-defined]
    assert BotSpec.parse(str(BotSpec.parse("ismcts:seconds=0.5"))).options == (("seconds", 0.5),)


@pytest.mark.parametrize("value", [-1, -0.5, math.nan, math.inf, True, "1", None])
def test_a_bad_time_limit_is_refused_by_name(value: object) -> None:
    for bot_type in (ISMCTSBot, ExpertBot):
        with pytest.raises(ChkobbaError) as raised:
            bot_type(seconds=value)  # type: ignore[arg-type]
        assert str(raised.value) == (
            f"{bot_type.__name__}: seconds must be a finite number >= 0 (0: no time limit), "
            f"not {shown(value)}"
        )
    with pytest.raises(ChkobbaError, match="seconds must be a finite number >= 0"):
        make_bot("ismcts:seconds=-1")


def test_iterations_without_a_time_limit_must_still_be_positive() -> None:
    with pytest.raises(ChkobbaError, match="iterations must be a positive integer, not 0"):
        ISMCTSBot(iterations=0)


def test_a_real_time_limit_gives_a_legal_move() -> None:
    """On the real clock (no assertion on time: this machine's speed varies)."""
    state = position(7, 40)
    for bot in (ISMCTSBot(seconds=0.02, seed=1), ExpertBot(seconds=0.02, seed=1)):
        assert bot.choose(view_of(state), legal_moves(state)) in legal_moves(state)
