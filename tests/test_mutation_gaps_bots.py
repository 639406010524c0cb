"""Tests for the gaps a mutmut audit of the bots (``src/chkobba/bots/``) found.

Like ``tests/test_mutation_gaps.py``: each test here fails with at least one single-point
change to the library that the rest of the suite let through (tools/mutation/README.md,
the audit of 2026-12-04); each docstring names the behaviour it pins.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import ClassVar

import attrs
import pytest

import chkobba.bots.expert
from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    Card,
    ChkobbaError,
    Cut,
    Move,
    Phase,
    Play,
    PlayerView,
    Record,
    State,
    apply,
    card,
    cards,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
)
from chkobba.actions import Position, legal_actions, step
from chkobba.bots import (
    BotActions,
    BotSpec,
    ExpertBot,
    GreedyBot,
    ISMCTSBot,
    RandomBot,
    make_bot,
)
from chkobba.bots._policy_rollout import policy_rewards
from chkobba.bots.analysis import (
    MoveReview,
    MoveValue,
    hint_text,
    points_text,
    rank_moves,
    review_record,
    worst,
)
from chkobba.bots.base import SeededBot
from chkobba.bots.endgame import Solver, deal_difference, move_values, solve
from chkobba.bots.evaluation import tally_estimate
from chkobba.bots.greedy import play_score
from chkobba.bots.inference import HandInference, OpponentModel, Suspicion
from chkobba.bots.ismcts import REWARD_SCALE
from chkobba.bots.ismcts import _rewards as ismcts_rewards
from chkobba.bots.ismcts import rollout as ismcts_rollout
from chkobba.bots.sampling import determinize, weighted_determinizer
from chkobba.captures import options_for_card
from chkobba.cards import DECK
from chkobba.errors import shown
from tests.helpers import random_history
from tests.test_expert import brute_force, endgame

# --- the endgame solver ----------------------------------------------------------------------


def _finished_deal() -> State:
    """A state just after a deal was scored, with unequal points for the two sides."""
    for seed in range(100):
        state = endgame(seed, 2, 1)
        if state is None:
            continue
        while state.phase is Phase.PLAY:
            state = apply(state, legal_moves(state)[0])
        points = state.deal_scores[-1].points
        if points[0] != points[1] and min(points) > 0:
            return state
    raise AssertionError("no deal found")  # pragma: no cover


def test_deal_difference_is_side_0_less_side_1_and_0_for_a_deal_not_scored() -> None:
    """The difference of the deal asked for; no deal scored at that count gives 0 (the
    count equal to the deals scored is the deal still open, or voided)."""
    state = _finished_deal()
    scored = len(state.deal_scores)
    points = state.deal_scores[-1].points
    assert deal_difference(state, scored - 1) == points[0] - points[1]
    assert deal_difference(state, scored) == 0
    assert deal_difference(state, scored + 1) == 0


def test_deal_difference_names_what_it_was_given() -> None:
    with pytest.raises(ChkobbaError) as caught:
        deal_difference("7D", 0)  # type: ignore[arg-type]
    assert str(caught.value) == "deal_difference: expected a State, got '7D' (str)"


def test_the_solver_names_the_sides_it_cannot_solve() -> None:
    state = apply(new_match(3, rules=CARD_RULES_PLUS), random_shuffle(random.Random(1)))
    with pytest.raises(ChkobbaError) as caught:
        solve(state)
    assert str(caught.value) == "the endgame solver plays two sides against each other, not 3"


def test_one_solver_reused_across_many_positions_staysbrute_force() -> None:
    """The transposition table keeps bounds found under narrow windows: reusing one solver
    for positions and their successors (as ExpertBot does for its samples) must never
    take a bound for an exact value."""
    solver = Solver()
    checked = 0
    for seed in range(30):
        state = endgame(seed, 2, 6)
        if state is None:
            continue
        deals = len(state.deal_scores)
        while state.phase is Phase.PLAY:
            assert solver.solve(state) == brute_force(state, deals)
            for move in legal_moves(state):
                after = apply(state, move)
                if after.phase is Phase.PLAY:
                    assert solver.solve(after) == brute_force(after, deals)
                    checked += 1
            state = apply(state, legal_moves(state)[-1])
    assert checked > 100


def _two_forced_plays() -> State:
    """A 2-player position with two plays left, each the mover's only legal play."""
    for seed in range(500):
        state = endgame(seed, 2, 2)
        if state is None or len(legal_moves(state)) != 1:
            continue
        after = apply(state, legal_moves(state)[0])
        if after.phase is Phase.PLAY and len(legal_moves(after)) == 1:
            return state
    raise AssertionError("no position found")  # pragma: no cover


def test_nodes_counts_the_positions_expanded() -> None:
    """Two forced plays: the solver expands the position and the one after it."""
    state = _two_forced_plays()
    solver = Solver()
    assert solver.nodes == 0
    solver.solve(state)
    assert solver.nodes == 2
    solver.solve(apply(state, legal_moves(state)[0]))
    assert solver.nodes == 2  # found in the table


# --- ExpertBot's sampled endgame ---------------------------------------------------------------


class _Recorder(Solver):
    """A solver that keeps what each sample gave, and how many positions it had expanded."""

    calls: ClassVar[list[tuple[dict[Move, int], int]]] = []

    def move_values(self, state: State) -> dict[Move, int]:
        values = super().move_values(state)
        _Recorder.calls.append((values, self.nodes))
        return values


def _samples(
    monkeypatch: pytest.MonkeyPatch, bot: ExpertBot, view: PlayerView
) -> tuple[dict[Move, float], list[tuple[dict[Move, int], int]]]:
    """The bot's endgame values of ``view`` and what each sample it solved gave."""
    monkeypatch.setattr(chkobba.bots.expert, "Solver", _Recorder)
    _Recorder.calls = []
    assert bot.solves(view)
    values = bot.evaluate(view, legal_moves(view))
    return values, list(_Recorder.calls)


def _endgame_view(players: int, cards_left: int, hidden: int | None = None) -> PlayerView:
    """The mover's view of an endgame with cards still hidden from it (in other hands or
    the stock); ``hidden``: exactly that many other hands still hold cards."""
    for seed in range(300):
        state = endgame(seed, players, cards_left)
        if state is None or len(legal_moves(state)) < 2:
            continue
        view = observe(state, state.current_player)  # type: ignore[arg-type]
        others = sum(1 for p, size in enumerate(view.hand_sizes) if size and p != view.player)
        if hidden is None or others == hidden:
            return view
    raise AssertionError("no position found")  # pragma: no cover


@pytest.mark.parametrize(
    ("players", "cards_left", "hidden", "endgame_size"),
    [(4, 6, None, 6), (4, 3, 2, 6), (2, 8, None, 12)],
)
def test_the_endgame_values_are_the_mean_over_the_samples_until_the_budget(
    monkeypatch: pytest.MonkeyPatch,
    players: int,
    cards_left: int,
    hidden: int | None,
    endgame_size: int,
) -> None:
    """With cards hidden (other hands, or the stock), ExpertBot solves samples until the
    solver has expanded ``budget`` positions (each sample counting one at least) and
    gives each move its mean value over them."""
    view = _endgame_view(players, cards_left, hidden)
    budget = 400
    bot = ExpertBot(seed=5, budget=budget, endgame=endgame_size)
    values, calls = _samples(monkeypatch, bot, view)
    assert len(calls) > 1
    for move, value in values.items():
        assert value == pytest.approx(sum(c[0][move] for c in calls) / len(calls))
    if hidden is None:  # (two hidden cards of three may change no value)
        assert len({tuple(sorted(c[0].values())) for c in calls}) > 1  # the samples differ
    # Another sample is drawn exactly while the positions and samples stay under budget.
    *before, (_, last_nodes) = calls
    for count, (_, nodes) in enumerate(before, start=1):
        assert nodes + count < budget
    assert last_nodes + len(calls) >= budget


def test_with_nothing_hidden_the_endgame_is_solved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 2-player deal with an empty stock: the one true position, one solve."""
    view = _endgame_view(2, 4)
    values, calls = _samples(monkeypatch, ExpertBot(seed=5, budget=10**6), view)
    assert view.stock_size == 0 and len(calls) == 1
    assert values == {move: float(value) for move, value in calls[0][0].items()}


def test_expert_messages_name_the_method_and_the_input() -> None:
    bot = ExpertBot(seed=1)
    with pytest.raises(ChkobbaError) as caught:
        bot.solves("view")  # type: ignore[arg-type]
    assert str(caught.value) == "ExpertBot.solves: expected a PlayerView, got 'view' (str)"
    view = _endgame_view(2, 4)
    with pytest.raises(ChkobbaError) as caught:
        bot.evaluate(view, ())
    assert str(caught.value).endswith("was asked to evaluate among no legal moves")
    assert str(caught.value).startswith("ExpertBot(")


# --- determinization ---------------------------------------------------------------------------


def _playing_view(player: int) -> tuple[State, PlayerView]:
    """A 2-player state in phase PLAY with ``player`` to move, and that player's view."""
    rng = random.Random(11)
    state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=True))
    while state.current_player != player or len(state.stock) > 20:
        state = apply(state, rng.choice(legal_moves(state)))
    return state, observe(state, player)


def _hands(view: PlayerView) -> list[tuple[Card, ...]]:
    return list(itertools.combinations(view.unseen(), view.hand_sizes[1 - view.player]))


def test_weighted_determinizations_from_the_second_seat() -> None:
    """Player 1's view: its own hand stays in seat 1, the drawn hand goes to seat 0."""
    state, view = _playing_view(1)
    hands = _hands(view)
    cumulative = [0.0] * (len(hands) - 1) + [1.0]  # all the weight on the last hand
    guess = weighted_determinizer(view, hands, cumulative)(random.Random(2))
    assert guess.hands == (hands[-1], view.hand)
    assert observe(guess, 1) == view
    assert sorted(guess.stock + guess.hands[0]) == sorted(state.stock + state.hands[0])


def test_weighted_determinizer_names_what_it_refuses() -> None:
    _, view = _playing_view(0)
    hands = _hands(view)
    weights = [1.0] * len(hands)
    refusals = [
        (
            ("view", hands, weights),
            "weighted_determinizer: expected a PlayerView, got 'view' (str)",
        ),
        (
            (observe(apply(new_match(), random_shuffle(random.Random(8))), 1), hands, weights),
            "weighted_determinizer: a 2-player view in phase PLAY only",
        ),
        (
            (_endgame_view(4, 6), hands, weights),
            "weighted_determinizer: a 2-player view in phase PLAY only",
        ),
        (
            (view, hands, weights[1:]),
            f"weighted_determinizer: {len(hands)} hands but {len(hands) - 1} cumulative weights",
        ),
        ((view, [], []), "weighted_determinizer: no hand has a positive weight"),
        ((view, hands, [0.0] * len(hands)), "weighted_determinizer: no hand has a positive weight"),
    ]
    for arguments, message in refusals:
        with pytest.raises(ChkobbaError) as caught:
            weighted_determinizer(*arguments)  # type: ignore[arg-type]
        assert str(caught.value) == message


def test_determinize_names_what_it_refuses() -> None:
    _, view = _playing_view(0)
    with pytest.raises(ChkobbaError) as caught:
        determinize(view, 3)  # type: ignore[arg-type]
    assert str(caught.value) == "determinize: expected a random.Random, got 3 (int)"
    with pytest.raises(ChkobbaError) as caught:
        determinize(attrs.evolve(view, player=2), random.Random(1))
    assert str(caught.value) == (
        f"determinize: the view's player 2 has no seat among 2 players with hands {view.hand_sizes}"
    )


# --- GreedyBot's score -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "worth"),
    [("KS", 0.06), ("KD", 0.18), ("6S", 0.18), ("6D", 0.30), ("7S", 0.36), ("7D", 1.28)],
)
def test_a_cards_worth_is_the_sum_of_its_documented_parts(text: str, worth: float) -> None:
    """CARD 0.06, a diamond 0.12 more, a six 0.12, a seven 0.3, the 7D 0.8 more again."""
    assert GreedyBot.worth(card(text)) == pytest.approx(worth)


def test_the_gain_of_a_sweep_and_of_the_last_card() -> None:
    """A sweep adds CHKOBBA (1.0) to the worth taken, except with the deal's last card."""
    table, five = cards("5C"), card("5D")
    taken = frozenset(table)
    assert play_score(table, five, taken, [], 3, TUNISIAN) == pytest.approx(0.18 + 0.06 + 1.0)
    last = play_score(table, five, taken, [], 3, TUNISIAN, last_card=True)
    assert last == pytest.approx(0.18 + 0.06)


def test_the_threat_is_the_expected_best_take_of_the_next_hand() -> None:
    """Laying 2D by 5C with a 7 the only unseen card: the next hand surely sweeps both
    (worth 0.06 + 0.18 + CHKOBBA, and its own 7's 0.36), so the score is the lay's
    -0.5 x 0.18 less 1.60; with the last card, or nobody to play next, no threat."""
    table, two, seven = cards("5C"), card("2D"), cards("7S")
    assert play_score(table, two, frozenset(), seven, 1, TUNISIAN) == pytest.approx(-0.09 - 1.60)
    assert play_score(table, two, frozenset(), seven, 1, TUNISIAN, True) == pytest.approx(-0.09)
    assert play_score(table, two, frozenset(), seven, 0, TUNISIAN) == pytest.approx(-0.09)
    assert play_score(table, two, frozenset(), [], 1, TUNISIAN) == pytest.approx(-0.09)


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_evaluates_a_play_with_the_next_players_hand(players: int) -> None:
    """``evaluate`` is ``play_score`` with the next player's hand size (a fresh hand
    when everyone is out and the stock is not), and ``last_card`` on the deal's last
    play; anything but a play scores 0."""
    bot = GreedyBot(seed=1)
    rng = random.Random(players)
    cut = apply(new_match(players), random_shuffle(rng))
    assert bot.evaluate(observe(cut, cut.current_player), Cut(keep=True)) == 0.0  # type: ignore[arg-type]
    state = apply(cut, Cut(keep=True))
    seen_last = seen_fresh = False
    while state.phase is Phase.PLAY:
        view = observe(state, state.current_player)  # type: ignore[arg-type]
        following = view.hand_sizes[(view.player + 1) % players]
        fresh = following == 0 and view.stock_size > 0
        last = view.stock_size == 0 and sum(view.hand_sizes) == 1
        seen_last, seen_fresh = seen_last or last, seen_fresh or fresh
        for move in legal_moves(state):
            assert isinstance(move, Play)
            expected = play_score(
                view.table,
                move.card,
                move.capture,
                view.unseen(),
                3 if fresh else following,
                view.rules,
                last,
            )
            assert bot.evaluate(view, move) == expected
        state = apply(state, rng.choice(legal_moves(state)))
    assert seen_last and seen_fresh


def test_greedy_messages_name_the_input() -> None:
    with pytest.raises(ChkobbaError) as caught:
        GreedyBot(seed=1).evaluate("view", Cut(keep=True))  # type: ignore[arg-type]
    assert str(caught.value) == "GreedyBot.evaluate: expected a PlayerView, got 'view' (str)"
    with pytest.raises(ChkobbaError) as caught:
        play_score(cards("5C"), "zz", frozenset(["q"]), [], 3, TUNISIAN)  # type: ignore[arg-type]
    assert str(caught.value) == (
        "play_score: cannot score 'zz' on (card('5C'),) taking frozenset({'q'}) (expected "
        "cards, a hand size of at most the unseen cards, and Rules; last_card is True or False)"
    )
    with pytest.raises(ChkobbaError) as caught:
        play_score(cards("5C 2D 3S"), card("7S"), frozenset(cards("5C 2D")), cards("4H"), 3, None)  # type: ignore[arg-type]
    assert str(caught.value).startswith(
        "play_score: cannot score card('7S') on (card('5C'), card('2D'), card('3S')) taking 2D+5C ("
    )


def test_greedy_counts_no_chkobba_for_a_sweep_with_the_deals_last_card() -> None:
    for seed in range(200):
        state = endgame(seed, 2, 1)
        if state is None:
            continue
        sweeps = [
            m
            for m in legal_moves(state)
            if isinstance(m, Play) and m.capture and len(m.capture) == len(state.table)
        ]
        if sweeps:
            break
    else:  # pragma: no cover
        raise AssertionError("no last card that sweeps")
    view = observe(state, state.current_player)  # type: ignore[arg-type]
    worth = sum(GreedyBot.worth(c) for c in (sweeps[0].card, *sweeps[0].capture))
    assert GreedyBot(seed=1).evaluate(view, sweeps[0]) == pytest.approx(worth)


# --- the deal estimate -------------------------------------------------------------------------


def test_tally_estimate_names_every_argument_it_refuses() -> None:
    with pytest.raises(ChkobbaError) as caught:
        tally_estimate("x", 0, 3, 4, (0, 1))  # type: ignore[arg-type]
    assert str(caught.value) == (
        "tally_estimate: no pair of piles has tallies 'x' and 0, sizes 3 and 4 and chkobbas "
        f"(0, 1) (under {shown(TUNISIAN)})"
    )


# --- hand inference ----------------------------------------------------------------------------


def _expected_suspicions(
    earlier: list[Suspicion], faced: tuple[Card, ...], move: Play, inference: HandInference
) -> list[Suspicion]:
    """The module's rules, read off the true states: a suspicion the played card was in
    says nothing; a sweep left (by a card that could not make it) suspects every card
    that could; a card laid down suspects every card that would have captured."""
    kept = [s for s in earlier if move.card not in s.cards]
    swept = bool(move.capture) and len(move.capture) == len(faced)
    if not swept:
        whole = frozenset(faced)
        sweepers = frozenset(
            c for c in DECK if faced and whole in options_for_card(faced, c, TUNISIAN)
        )
        if sweepers and move.card not in sweepers:
            kept.append(Suspicion(sweepers, inference.sweep))
    if not move.capture:
        capturers = frozenset(
            c for c in DECK if c not in faced and options_for_card(faced, c, TUNISIAN)
        )
        if capturers:
            kept.append(Suspicion(capturers, inference.capture))
    return kept


@pytest.mark.parametrize("seat", [0, 1])
def test_hand_inference_keeps_the_documented_suspicions_from_either_seat(seat: int) -> None:
    """Random opponents leave sweeps and lay cards that could capture: each suspicion,
    and the weight of a hand (the product of the chances of the suspicions it meets),
    follows from the true moves, whichever seat the bot has."""
    inference = HandInference(sweep=0.1, capture=0.5)
    rng = random.Random(7 + seat)
    expected: list[Suspicion] = []
    sweeps_left = products = mixed = 0
    for _ in range(3):  # three deals
        state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=False))
        mine: State | None = None  # the state at the bot's last turn in this deal
        while state.phase is Phase.PLAY:
            move = rng.choice(legal_moves(state))
            assert isinstance(move, Play)
            after = apply(state, move)
            if state.current_player == seat:
                inference.observe(observe(state, seat))
                assert inference.suspicions == expected
                hand = {min(s.cards) for s in expected[-2:]}
                met = [s.chance for s in expected if not s.cards.isdisjoint(hand)]
                assert inference.weight(hand) == pytest.approx(math.prod(met))
                products += len(met) > 1
                if expected:  # a hand of one suspected card and two that none names
                    unnamed = [c for c in DECK if all(c not in s.cards for s in expected)]
                    held = [min(expected[-1].cards), *unnamed[:2]]
                    chance = math.prod(s.chance for s in expected if not s.cards.isdisjoint(held))
                    assert inference.weight(held) == pytest.approx(chance)
                    mixed += 1
                mine = state
            elif mine is not None and len(mine.stock) == len(after.stock):
                expected = _expected_suspicions(expected, state.table, move, inference)
                sweeps_left += any(s.chance == inference.sweep for s in expected)
            else:  # the bot has not played yet this deal, or a refill came between
                expected = []
            state = after
        inference.observe(observe(state, seat))
        expected = []
        assert inference.suspicions == []  # a new deal forgets the last one's
    # Each case was met (a final check after the last deal saw no suspicion until stop 82).
    assert sweeps_left > 0 and products > 0 and mixed > 0


def _likelihood(
    seen: Play, hand: tuple[Card, ...], faced: tuple[Card, ...], unseen: list[Card], mine: int
) -> float:
    """The chance the opponent model gives of ``seen`` from ``hand`` and the card played."""

    def score(played: Card, taken: frozenset[Card]) -> float:
        return play_score(faced, played, taken, unseen, mine, TUNISIAN)

    plays = [
        (c, option)
        for c in (*hand, seen.card)
        for option in options_for_card(faced, c, TUNISIAN) or (frozenset(),)
    ]
    share = math.exp(score(seen.card, seen.capture) / 0.3) / math.fsum(
        math.exp(score(c, option) / 0.3) for c, option in plays
    )
    return 0.1 / len(plays) + 0.9 * share


def test_the_opponent_models_weight_is_the_likelihood_of_the_play_seen() -> None:
    """One opponent play seen: a hand's weight is the chance that a player holding it
    (and the card played) chose that play: ``noise`` over the number of their plays,
    plus ``1 - noise`` times the play's share of ``exp(score / temperature)``, the
    scores GreedyBot's, seen from the opponent (who could not see the bot's hand)."""
    model = OpponentModel(temperature=0.3, noise=0.1)
    rng = random.Random(3)
    state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=False))
    checked = multiple = 0
    while checked < 40 or not multiple:
        if state.phase is not Phase.PLAY:  # another deal
            state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=False))
        if state.current_player != 0:
            state = apply(state, rng.choice(legal_moves(state)))
            continue
        before = observe(state, 0)
        mid = apply(state, rng.choice(legal_moves(state)))
        if mid.phase is not Phase.PLAY or len(mid.stock) != len(state.stock):
            state = mid
            continue
        seen = rng.choice(legal_moves(mid))
        assert isinstance(seen, Play)
        state = apply(mid, seen)
        if state.phase is not Phase.PLAY or len(state.stock) != len(mid.stock):
            continue
        after = observe(state, 0)
        model.observe(before)
        model.observe(before)  # (no play between: the record starts afresh)
        model.observe(after)  # one play of the opponent's seen
        unseen = [c for c in DECK if c in {*before.unseen(), *after.hand}]
        size = len(state.hands[1])
        hands = [state.hands[1], *(tuple(rng.sample(after.unseen(), size)) for _ in range(3))]
        # A hand of cards with several captures each: its plays outnumber its cards.
        several = [c for c in after.unseen() if len(options_for_card(mid.table, c, TUNISIAN)) > 1]
        if 0 < size <= len(several):
            hands.append(tuple(several[:size]))
            multiple += 1
        for hand in hands:
            expected = _likelihood(seen, hand, mid.table, unseen, len(after.hand))
            assert model.weight(hand) == pytest.approx(expected)
            checked += 1
    assert checked >= 40 and multiple > 0


@pytest.mark.parametrize("seat", [0, 1])
def test_the_opponent_model_records_the_plays_of_the_current_round(seat: int) -> None:
    """Every opponent play seen since the round began is one decision; a new round
    starts afresh, keeping the opponent's lead when they led it after the bot's last
    card; a new deal starts afresh."""
    model = OpponentModel(temperature=0.3, noise=0.1)
    rng = random.Random(20 + seat)
    counted = 0
    for deal in range(3):
        state = apply(apply(new_match(dealer=deal % 2), random_shuffle(rng)), Cut(keep=False))
        turn = 0  # the bot's turns in this round
        stock = len(state.stock)
        while state.phase is Phase.PLAY:
            if len(state.stock) != stock:  # a refill: a new round
                stock, turn = len(state.stock), 0
            if state.current_player == seat:
                turn += 1
                model.observe(observe(state, seat))
                opponent_led = state.cutter != seat
                first_round = len(state.stock) == 30
                expected = turn if opponent_led and not first_round else turn - 1
                assert len(model.decisions) == expected
                counted += expected > 1
            state = apply(state, rng.choice(legal_moves(state)))
        model.observe(observe(state, seat))
        assert model.decisions == []
    assert counted > 0


def test_the_models_follow_only_one_seat_of_a_2_player_match_in_play() -> None:
    """Views they cannot follow (another seat, 4 players, the bot's own play in
    between) record nothing."""
    rng = random.Random(4)
    state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=False))
    mover = state.current_player
    assert mover is not None
    after = apply(state, legal_moves(state)[0])
    four = apply(apply(new_match(4), random_shuffle(rng)), Cut(keep=False))
    seat = four.current_player
    assert seat is not None
    later = four
    for _ in range(4):
        later = apply(later, rng.choice(legal_moves(later)))
    pairs = [
        (observe(state, mover), observe(after, mover)),  # its own play, not the opponent's
        (observe(state, mover), observe(after, 1 - mover)),  # another seat
        (observe(four, seat), observe(later, seat)),  # 4 players
    ]
    for first, second in pairs:
        hands, model = (
            HandInference(sweep=0.1, capture=0.5),
            OpponentModel(temperature=0.3, noise=0.1),
        )
        for watcher in (hands, model):
            watcher.observe(first)
            watcher.observe(second)
        assert hands.suspicions == [] and model.decisions == []


def test_the_inference_names_a_hand_it_cannot_weigh_and_reads_either_seat() -> None:
    with pytest.raises(ChkobbaError) as caught:
        HandInference(sweep=0.1, capture=0.5).weight(3)  # type: ignore[arg-type]
    assert str(caught.value) == "HandInference.weight: 3 is not a hand"
    state, view = _playing_view(1)
    hands, cumulative = OpponentModel(temperature=0.3, noise=0.1).posterior(view)
    assert {len(hand) for hand in hands} == {len(state.hands[0])}
    assert len(hands) == math.comb(len(view.unseen()), len(state.hands[0]))
    assert cumulative == [float(n) for n in range(1, len(hands) + 1)]


# --- ISMCTS ------------------------------------------------------------------------------------


def _policy_score(state: State, move: Play) -> float:
    """The default rollout policy's documented score of a play (ISMCTS's ``rollout``)."""
    worth = GreedyBot.worth
    if move.capture:
        sweep = 1.0 if len(move.capture) == len(state.table) else 0.0
        return 10.0 + worth(move.card) + sum(map(worth, move.capture)) + sweep
    values = state.rules.card_values
    table_sum = sum(values[c.index] for c in (*state.table, move.card))
    return -worth(move.card) - (0.5 if table_sum <= 10 else 0.0)


def test_the_default_rollout_policy_plays_its_documented_best_move() -> None:
    """With ``epsilon=0`` each rollout move is the capture scoring most (worth taken, a
    point more for a sweep), else the cheapest lay, half a point worse on a table of 10
    or less; ties (within the 0.01 of random tie-breaks) either way."""
    rng = random.Random(9)
    checked = 0
    for _ in range(6):
        state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=False))
        while state.phase is Phase.PLAY:
            moves = legal_moves(state)
            after = ismcts_rollout(state, random.Random(checked), epsilon=0.0, horizon=1)
            (chosen,) = [m for m in moves if apply(state, m) == after]
            assert isinstance(chosen, Play)
            best = max(_policy_score(state, m) for m in moves if isinstance(m, Play))
            assert _policy_score(state, chosen) >= best - 0.01
            checked += len(moves) > 1
            state = apply(state, rng.choice(moves))
    assert checked > 50


def test_ismcts_values_the_deals_last_play_exactly_in_deal_points() -> None:
    """On the deal's last card every rollout ends the deal the same way: each move's
    value is its exact points difference for the mover's side (not a scaled reward)."""
    for seed in range(300):
        state = endgame(seed, 2, 1)
        if state is not None and len(legal_moves(state)) > 1:
            break
    else:  # pragma: no cover
        raise AssertionError("no last card with a choice")
    view, legal = observe(state, state.current_player), legal_moves(state)  # type: ignore[arg-type]
    values = ISMCTSBot(iterations=60, seed=1).evaluate(view, legal)
    exact = move_values(state)
    assert values == {move: pytest.approx(exact[move]) for move in legal}
    assert len(set(exact.values())) > 1 or any(exact.values())


# --- move reviews ------------------------------------------------------------------------------


class _Flat:
    """An evaluator that rates every move alike (cheap: for what a review covers)."""

    def evaluate(self, view: PlayerView, legal: tuple[Move, ...]) -> dict[Move, float]:
        return dict.fromkeys(legal, 0.0)


def _record(seed: int) -> Record:
    """The moves of one random deal (its shuffle, cut and 36 plays)."""
    return Record(players=2, moves=random_history(seed, max_moves=38)[1])


def test_a_review_covers_exactly_the_decisions() -> None:
    """The cut (keep or expose) and the plays with two or more legal moves are reviewed;
    shuffles and forced plays are not; only the seats asked for."""
    record = _record(6)
    expected, two = [], 0
    state = record.start()
    for index, move in enumerate(record.moves):
        if state.phase in (Phase.CUT, Phase.PLAY) and len(legal_moves(state)) > 1:
            expected.append((index, state.current_player))
            two += state.phase is Phase.PLAY and len(legal_moves(state)) == 2
        state = apply(state, move)
    assert two > 0 and expected[0] == (1, record.start().cutter)
    reviews = review_record(record, evaluator=_Flat())
    assert [(r.index, r.player) for r in reviews] == expected
    ones = review_record(record, seats=[1], evaluator=_Flat())
    assert [(r.index, r.player) for r in ones] == [e for e in expected if e[1] == 1]


def test_a_review_as_plain_data() -> None:
    """``to_dict`` (the ``--json`` of ``chkobba analyse``): values to 3 decimals, a
    move never tried as ``null``."""
    a, b, c = Play(card("7D")), Play(card("2S")), Play(card("KC"))
    review = MoveReview(
        4, 1, a, (MoveValue(b, 1.23456), MoveValue(a, 0.5), MoveValue(c, -math.inf))
    )
    assert review.to_dict() == {
        "index": 4,
        "player": 1,
        "played": "7D",
        "best": "2S",
        "loss": 0.735,
        "moves": [
            {"move": "2S", "value": 1.235},
            {"move": "7D", "value": 0.5},
            {"move": "KC", "value": None},
        ],
    }
    assert repr(MoveValue(a, 1.5)) == "MoveValue(move=Play(card('7D')), value=1.5)"
    assert repr(MoveValue(c, -math.inf)).endswith("value=float('-inf'))")


def test_worst_gives_the_three_largest_losses_by_default() -> None:
    a, b = Play(card("7D")), Play(card("2S"))
    reviews = [
        MoveReview(i, 0, b, (MoveValue(a, float(i)), MoveValue(b, 0.0))) for i in range(1, 6)
    ]
    assert [r.index for r in worst(reviews)] == [5, 4, 3]


def test_review_and_ranking_messages_name_the_input() -> None:
    record = _record(6)
    refusals = [
        (lambda: review_record("r"), "review_record: expected a Record, got 'r' (str)"),
        (
            lambda: review_record(record, seats=[2], evaluator=_Flat()),
            "review_record: seat 2 is not a player of the record (0 to 1)",
        ),
        (
            lambda: review_record(record, evaluator=3),
            "review_record: 3 cannot evaluate moves: it has no evaluate(view, legal) method",
        ),
    ]
    _, view = _playing_view(0)
    legal = legal_moves(_playing_view(0)[0])
    refusals += [
        (lambda: rank_moves("v", legal), "rank_moves: expected a PlayerView, got 'v' (str)"),
        (lambda: rank_moves(view, ()), "rank_moves: there are no legal moves to rank"),
    ]
    for call, message in refusals:
        with pytest.raises(ChkobbaError) as caught:
            call()
        assert str(caught.value) == message

    class Broken:
        def evaluate(self, view: PlayerView, legal: tuple[Move, ...]) -> dict[Move, float]:
            return dict.fromkeys(legal, math.nan)

    with pytest.raises(ChkobbaError) as caught:
        rank_moves(view, legal, Broken())
    assert str(caught.value) == (
        "rank_moves: Broken.evaluate must give a number (not NaN) for every legal move"
    )
    # A bot is named as everywhere (its name, else its class), never by its repr.
    named = Broken()
    named.name = "myeval"  # type: ignore[attr-defined]
    with pytest.raises(ChkobbaError, match=r"^rank_moves: myeval\.evaluate must give"):
        rank_moves(view, legal, named)


def test_hints_list_the_three_best_and_join_them() -> None:
    """``hint_text`` shows the top three by default (seed 0), joined by ", then"."""
    for seed in range(300):
        state = endgame(seed, 2, 2)
        if state is not None and len(legal_moves(state)) == 2:
            break
    view, legal = observe(state, state.current_player), legal_moves(state)  # type: ignore[arg-type]
    ranked = rank_moves(view, legal, seed=0)
    texts = [f"{item.move} ({points_text(item.value)})" for item in ranked]
    assert hint_text(view, legal) == f"{texts[0]}, then {texts[1]}"
    assert (
        hint_text(view, legal[:1])
        == f"{legal[0]} ({points_text(rank_moves(view, legal[:1])[0].value)})"
    )
    rng = random.Random(2)
    state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=True))
    while len(legal_moves(state)) <= 3:  # a choice of more than three, in the open deal
        state = apply(state, rng.choice(legal_moves(state)))
    assert state.stock
    view, legal = observe(state, state.current_player), legal_moves(state)  # type: ignore[arg-type]
    assert (
        hint_text(view, legal).count(", then ") == 1
        and hint_text(view, legal).count(" points)") == 3
    )
    assert hint_text(view, legal) == hint_text(view, legal, seed=0)
    assert rank_moves(view, legal) == rank_moves(view, legal, seed=0)


# --- bot specs ---------------------------------------------------------------------------------

_LONG = "x" * 1001


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (3, "3 is not a bot spec: expected text such as 'greedy'"),
        (_LONG, f"{shown(_LONG)} is not a bot spec: it has 1001 characters, at most 1000"),
        (
            "x" * 1000,
            f"{shown('x' * 1000)} is not a bot: choose from expert, greedy, ismcts, random",
        ),
        ("ismcts:v1,v1", "'ismcts:v1,v1': a spec takes one preset at most"),
        ("ismcts:foo", "'ismcts:foo': option 'foo' is not key=value or a preset (v1)"),
        ("greedy:v1", "'greedy:v1': option 'v1' is not key=value"),
        (
            "expert:seed=3",
            "'expert:seed=3': the seed is not a bot option; it comes from the match "
            "(the command's --seed)",
        ),
        (
            "expert:iterations=1,iterations=2",
            "'expert:iterations=1,iterations=2': option 'iterations' is given twice",
        ),
        (
            "expert:iterations=1" + "0" * 18,
            "'expert:iterations=1000000000000000000': option value '1000000000000000000' has "
            "19 digits, at most 18",
        ),
        ("expert:iterations=abc", "'expert:iterations=abc': option value 'abc' is not a number"),
        ("expert:iterations=5=6", "'expert:iterations=5=6': option value '5=6' is not a number"),
        (
            "expert:exploration=inf",
            "'expert:exploration=inf': option value 'inf' is not a finite number",
        ),
        (
            "expert:budget=" + "9" * 18,
            "ExpertBot: budget must be at most 10000000, not " + "9" * 18,
        ),
    ],
)
def test_a_bot_spec_is_refused_with_its_text_and_reason(text: object, message: str) -> None:
    with pytest.raises(ChkobbaError) as caught:
        BotSpec.parse(text)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_specs_read_signs_and_presets() -> None:
    assert BotSpec.parse("expert:iterations=+5") == BotSpec.parse("expert:iterations=5")
    assert (
        str(BotSpec.parse("ismcts:v1"))
        == "ismcts:iterations=800,exploration=0.7,epsilon=0.1,horizon=6"
    )
    with pytest.raises(ChkobbaError) as caught:
        make_bot(3)  # type: ignore[arg-type]
    assert str(caught.value) == "3 is not a bot spec"


def test_the_search_rollout_to_the_deals_end_is_its_steps_one_by_one() -> None:
    """``rollout(..., horizon=0)`` plays the default policy (``epsilon=0``) to the deal's
    end: exactly its one-move rollouts in a row, drawing from the same generator; from
    a cut it cuts; a state between deals stays as it is; its default ``epsilon`` is 0.1."""
    rng = random.Random(8)
    state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=False))
    for _ in range(5):
        state = apply(state, rng.choice(legal_moves(state)))
    whole = ismcts_rollout(state, random.Random(5), epsilon=0.0, horizon=0)
    steps, step_rng = state, random.Random(5)
    while steps.phase is Phase.PLAY:
        steps = ismcts_rollout(steps, step_rng, epsilon=0.0, horizon=1)
    assert whole == steps and whole.phase is not Phase.PLAY
    assert ismcts_rollout(whole, random.Random(1), epsilon=1.0) == whole
    cut = apply(new_match(), random_shuffle(random.Random(3)))
    assert ismcts_rollout(cut, random.Random(1), epsilon=0.0, horizon=1).phase is Phase.PLAY
    assert ismcts_rollout(state, random.Random(2)) == ismcts_rollout(
        state, random.Random(2), epsilon=0.1
    )
    for bad, message in (
        (lambda: ismcts_rollout("s", rng), "rollout: expected a State, got 's' (str)"),  # type: ignore[arg-type]
        (lambda: ismcts_rollout(state, 3), "rollout: expected a random.Random, got 3 (int)"),  # type: ignore[arg-type]
    ):
        with pytest.raises(ChkobbaError) as caught:
            bad()
        assert str(caught.value) == message


@pytest.mark.parametrize(("seat", "inference"), [(0, 1), (1, 1), (1, 2)])
def test_an_inferring_search_samples_states_its_view_allows_from_either_seat(
    seat: int, inference: int
) -> None:
    """With hand inference the searched states are still ones the bot's view allows,
    the opponent's hand weighed in the right seat."""
    bot = ISMCTSBot(iterations=4, inference=inference, seed=3)
    rng = random.Random(seat)
    state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=False))
    weighed = 0
    while state.phase is Phase.PLAY:
        if state.current_player == seat:
            view = observe(state, seat)
            move = bot.choose(view, legal_moves(state))
            sample = bot.sampler(view)
            for _ in range(3):
                assert observe(sample(rng), seat) == view
            weighed += bool(bot._hands.suspicions or bot._model.decisions)
        else:
            move = rng.choice(legal_moves(state))
        state = apply(state, move)
    assert weighed > 0


def test_more_spec_refusals_name_the_input() -> None:
    refusals = [
        (lambda: BotSpec.parse("expert:=5"), "'expert:=5': option '=5' is not key=value"),
        (lambda: BotSpec("expert", options=3), "BotSpec: options must be a collection, not 3"),  # type: ignore[arg-type]
        (
            lambda: BotSpec("expert", options=(("iterations", 10**18),)),
            "BotSpec expert: option 'iterations' must be a finite number with at most 18 "
            "digits, not 1000000000000000000",
        ),
        (
            lambda: BotSpec.parse("expert:iterations=+1" + "0" * 18),
            "'expert:iterations=+1000000000000000000': option value '+1000000000000000000' "
            "has 19 digits, at most 18",
        ),
    ]
    for call, message in refusals:
        with pytest.raises(ChkobbaError) as caught:
            call()
        assert str(caught.value) == message


def test_bot_actions_choose_among_the_pending_cards_captures_only() -> None:
    """At a card someone else selected, every seed's choice is one of its captures."""
    state = apply(apply(new_match(), random_shuffle(random.Random(1))), Cut(keep=True))
    rng = random.Random(2)
    pendings = 0
    while state.phase is Phase.PLAY and pendings < 5:
        position = Position(state)
        for action in legal_actions(position):
            after = step(position, action)
            if after.pending is None:
                continue
            choices = set(legal_actions(after))
            for seed in range(10):
                assert BotActions(RandomBot(seed=seed))(after) in choices
            pendings += 1
        state = apply(state, rng.choice(legal_moves(state)))
    assert pendings > 0
    bot = RandomBot(seed=1)
    with pytest.raises(ChkobbaError) as caught:
        BotActions(3)  # type: ignore[arg-type]
    assert str(caught.value) == "3 is not a bot: it has no choose(view, legal) method"
    with pytest.raises(ChkobbaError) as caught:
        BotActions(bot)(Position(new_match()))
    assert str(caught.value) == f"{shown(bot)} cannot act: nobody is to move (chance or over)"


def test_the_policys_sweep_bonus_decides_between_captures() -> None:
    """Positions where the sweep's extra point changes the default policy's choice: the
    rollout takes the sweep."""
    rng = random.Random(12)
    decided = 0
    while decided < 3:
        state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=False))
        while state.phase is Phase.PLAY:
            plays = [m for m in legal_moves(state) if isinstance(m, Play)]
            scores = {m: _policy_score(state, m) for m in plays}
            best = max(plays, key=scores.__getitem__)
            sweep = bool(best.capture) and len(best.capture) == len(state.table)
            others = [scores[m] for m in plays if m is not best]
            if sweep and others and scores[best] - 1.0 + 0.01 < max(others) < scores[best] - 0.01:
                after = ismcts_rollout(state, random.Random(decided), epsilon=0.0, horizon=1)
                assert after == apply(state, best)
                decided += 1
            state = apply(state, rng.choice(legal_moves(state)))


def test_a_hint_is_the_ranking_of_its_seed_in_full() -> None:
    rng = random.Random(2)
    state = apply(apply(new_match(), random_shuffle(rng)), Cut(keep=True))
    while len(legal_moves(state)) <= 3:
        state = apply(state, rng.choice(legal_moves(state)))
    view, legal = observe(state, state.current_player), legal_moves(state)  # type: ignore[arg-type]
    texts = [f"{i.move} ({points_text(i.value)})" for i in rank_moves(view, legal, seed=1)[:3]]
    assert hint_text(view, legal, seed=1) == f"{texts[0]}, then {texts[1]}, {texts[2]}"


def test_a_review_by_default_is_the_expert_of_seed_0() -> None:
    record = _record(6)
    first = review_record(record, seats=[0])
    assert first == review_record(record, seats=[0], seed=0)
    assert first == review_record(record, seats=[0], evaluator=ExpertBot(seed=0))
    assert first and all(isinstance(r.best.value, float) for r in first)


def test_the_search_names_itself_when_asked_to_evaluate_nothing() -> None:
    bot = ISMCTSBot(iterations=4, seed=1)
    _, view = _playing_view(0)
    with pytest.raises(ChkobbaError) as caught:
        bot.evaluate(view, ())
    assert str(caught.value) == f"{shown(bot)} was asked to evaluate among no legal moves"


def test_a_policy_rollout_whose_horizon_ends_the_deal_gives_the_leftovers() -> None:
    """A horizon reached with the deal's last play: the rewards are the deal's real
    points, the table's leftovers given to the last capturer."""
    checked = 0
    for seed in range(200):
        state = endgame(seed, 2, 6)
        if state is None or state.stock or sum(map(len, state.hands)) != 6:
            continue
        played: list[Play] = []
        rewards = policy_rewards(state, random.Random(seed), 0.1, 6, REWARD_SCALE, moves=played)
        end = state
        for move in played:
            end = apply(end, move)
        assert end.phase is not Phase.PLAY
        assert rewards == ismcts_rewards(end, len(state.deal_scores))
        checked += bool(end.deal_scores[-1].points != (0, 0))
    assert checked > 5


def test_a_seeded_bot_that_does_not_pick_plays_the_first_legal_move() -> None:
    """``SeededBot.pick``'s default, for a subclass that only names itself."""

    class First(SeededBot):
        name = "first"

    state, view = _playing_view(0)
    legal = legal_moves(state)
    assert len(legal) > 1 and First(seed=1).choose(view, legal) == legal[0]


def test_a_review_without_a_seed_builds_unseeded_evaluators() -> None:
    # Each position gets an evaluator of its own, seeded from the seed and the move's
    # index when there is a seed; without one (seed=None), and with an evaluator whose
    # own seed is None, there is nothing to add the index to (found by the mutation audit
    # of 2026-12-05: neither path ran in a test).
    rng = random.Random(3)
    state, moves = new_match(dealer=0), []
    for _ in range(4):
        move = random_shuffle(rng) if state.phase is Phase.SHUFFLE else legal_moves(state)[0]
        moves.append(move)
        state = apply(state, move)
    record = Record(players=2, dealer=0, moves=moves)
    assert len(review_record(record, evaluator=ISMCTSBot(iterations=5))) == 3
    reviews = review_record(record, seed=None)  # ExpertBots without a seed
    assert [review.index for review in reviews] == [1, 2, 3]  # the cut and two plays
    for bad in ("1", 1.0, True):
        with pytest.raises(ChkobbaError) as refused:
            review_record(record, seed=bad)  # type: ignore[arg-type]
        assert str(refused.value) == f"review_record: seed must be an integer, not {bad!r}"
