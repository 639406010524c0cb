"""Hand inference (``chkobba.bots.inference``): following the opponent's plays through a
bot's successive views, and suspecting only hands that the plays make unlikely."""

from __future__ import annotations

import copy
import itertools
import math
import pickle
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings

from chkobba import (
    ChkobbaError,
    Move,
    Phase,
    Play,
    State,
    apply,
    legal_moves,
    new_match,
    observe,
)
from chkobba.bots import GreedyBot, ISMCTSBot, make_bot
from chkobba.bots.inference import (
    HandInference,
    OpponentModel,
    Suspicion,
    _opponent_move,
    _opponent_play,
)
from chkobba.bots.sampling import determinizer, weighted_determinizer
from chkobba.captures import options_for_card
from chkobba.cards import DECK
from chkobba.moves import random_shuffle
from chkobba.state import HAND_SIZE
from tests.strategies import examples, seeds


def _eager(state: State, rng: random.Random) -> Move:
    """A player who always sweeps when they can, else always captures when they can."""
    plays = [m for m in legal_moves(state) if isinstance(m, Play)]
    if not plays:
        return rng.choice(legal_moves(state))
    sweeps = [m for m in plays if m.capture and len(m.capture) == len(state.table)]
    captures = [m for m in plays if m.capture]
    return rng.choice(sweeps or captures or plays)


def _match(seed: int) -> list[tuple[State, Move]]:
    """A 2-player match of two eager players: every state with the move made there."""
    rng = random.Random(seed)
    state, history = new_match(), []
    while state.phase is not Phase.OVER and len(history) < 400:
        move = random_shuffle(rng) if state.phase is Phase.SHUFFLE else _eager(state, rng)
        history.append((state, move))
        state = apply(state, move)
    return history


def _two_turns_of_seat_0(
    history: list[tuple[State, Move]],
) -> Iterator[tuple[State, tuple[State, Move], State]]:
    """Seat 0's turns in play with the next one two moves later: (its state, the
    opponent's state and move in between, seat 0's next state)."""
    for index, (state, _) in enumerate(history[:-2]):
        theirs, after = history[index + 1], history[index + 2][0]
        if state.phase is not Phase.PLAY or state.current_player != 0:
            continue
        if after.phase is not Phase.PLAY or after.current_player != 0:
            continue
        yield state, theirs, after


@settings(max_examples=examples(25), deadline=None)
@given(seeds())
def test_the_opponents_play_is_read_from_two_views(seed: int) -> None:
    history = _match(seed)
    followed = 0
    for state, theirs, after in _two_turns_of_seat_0(history):
        play = _opponent_play(observe(state, 0), observe(after, 0))
        if len(after.stock) != len(state.stock):
            assert play is None  # a refill between: the old hands are gone
            continue
        faced, played, swept, laid = play  # type: ignore[misc]
        move = theirs[1]
        assert isinstance(move, Play)
        assert faced == theirs[0].table and played is move.card
        assert laid == (not move.capture)
        assert swept == (bool(move.capture) and not after.table)
        followed += 1
    assert followed > 0


@settings(max_examples=examples(25), deadline=None)
@given(seeds())
def test_an_eager_opponents_hand_is_never_suspected(seed: int) -> None:
    # The eager player sweeps and captures whenever it can: the suspicions (cards it
    # would have used) never hit the hand it really holds.
    inference = HandInference(sweep=0.1, capture=0.3)
    suspected = 0
    for state, _ in _match(seed):
        if state.phase is Phase.PLAY and state.current_player == 0:
            inference.observe(observe(state, 0))
            assert inference.weight(state.hands[1]) == 1.0
            suspected += bool(inference.suspicions)
    assert suspected > 0


def test_a_lay_makes_hands_with_a_capture_unlikely() -> None:
    # Random players: find the opponent laying a card in the middle of a round.
    rng = random.Random(3)
    for _ in range(200):
        state = new_match()
        while state.phase is not Phase.OVER:
            if state.phase is Phase.SHUFFLE:
                state = apply(state, random_shuffle(rng))
                continue
            before = state
            state = apply(state, rng.choice(legal_moves(state)))
            if before.phase is not Phase.PLAY or before.current_player != 0:
                continue
            faced = state.table
            reply = rng.choice(legal_moves(state))
            after = apply(state, reply)
            if reply.capture or after.phase is not Phase.PLAY or after.stock != state.stock:  # type: ignore[union-attr]
                state = after
                continue
            inference = HandInference(sweep=0.1, capture=0.3)
            inference.observe(observe(before, 0))
            inference.observe(observe(after, 0))
            takers = frozenset(
                c for c in DECK if c not in faced and options_for_card(faced, c, state.rules)
            )
            lays = [s for s in inference.suspicions if s.chance == 0.3]
            assert lays == ([Suspicion(takers, 0.3)] if takers else [])
            if takers:
                taker = next(iter(takers))
                assert inference.weight([taker]) <= 0.3
                assert inference.weight([reply.card]) == 1.0  # type: ignore[union-attr]
                return
            state = after
    raise AssertionError("no lay facing a capturable table in 200 random matches")


def test_the_reprs_name_the_settings_and_what_was_read() -> None:
    # They were object's default, with the address, unlike every other public class.
    inference = HandInference(sweep=0.1, capture=0.3)
    inference.suspicions = [Suspicion(frozenset(DECK[:2]), 0.1)]
    assert repr(inference) == "<HandInference sweep=0.1 capture=0.3 suspicions=1>"
    model = OpponentModel(temperature=2.0, noise=0.05)
    assert repr(model) == "<OpponentModel temperature=2.0 noise=0.05 decisions=0>"


def test_a_view_it_cannot_follow_clears_the_suspicions() -> None:
    inference = HandInference(sweep=0.1, capture=0.3)
    state = apply(new_match(), random_shuffle(random.Random(1)))
    state = apply(state, legal_moves(state)[0])
    inference.observe(observe(state, 0))
    assert inference.suspicions == [] and inference.weight(state.hands[1]) == 1.0
    inference.observe(observe(new_match(), 0))  # another match
    assert inference.suspicions == []


def test_inference_is_an_option_and_stays_reproducible() -> None:
    bot = make_bot("ismcts:iterations=40,inference=1", seed=2)
    assert isinstance(bot, ISMCTSBot) and bot.inference and bot.spawn(3).inference
    history = _match(5)
    views = [(observe(s, 0), legal_moves(s)) for s, _ in history if s.phase is Phase.PLAY]
    twin = make_bot("ismcts:iterations=40,inference=1", seed=2)
    for view, legal in views[:30]:
        if view.current_player == 0:
            assert bot.choose(view, legal) == twin.choose(view, legal)


@settings(max_examples=examples(25), deadline=None)
@given(seeds())
def test_a_suspicion_goes_once_the_opponent_plays_a_suspected_card(seed: int) -> None:
    # Random players often decline a sweep or a capture; a card they then play was in
    # their hand all along, so no suspicion may keep it.
    rng = random.Random(seed)
    inference = HandInference(sweep=0.1, capture=0.3)
    state = new_match()
    while state.phase is not Phase.OVER:
        if state.phase is Phase.SHUFFLE:
            state = apply(state, random_shuffle(rng))
            continue
        if state.phase is Phase.PLAY and state.current_player == 0:
            last = inference.view
            inference.observe(observe(state, 0))
            play = _opponent_play(last, observe(state, 0)) if last is not None else None
            if play is not None:
                assert all(play[1] not in s.cards for s in inference.suspicions)
        state = apply(state, rng.choice(legal_moves(state)))


# The opponent model (inference=2): every choice the opponent made this round, scored.


def _greedy_match(seed: int, deals: int = 1) -> list[tuple[State, Move]]:
    """Deals of GreedyBot against GreedyBot: every state with the move made there."""
    rng = random.Random(seed)
    bots = [GreedyBot(seed=seed), GreedyBot(seed=seed + 1)]
    state, history = new_match(), []
    while state.phase is not Phase.OVER and len(state.deal_scores) < deals:
        if state.phase is Phase.SHUFFLE:
            move: Move = random_shuffle(rng)
        else:
            player = state.mover
            move = bots[player].choose(observe(state, player), legal_moves(state))
        history.append((state, move))
        state = apply(state, move)
    return history


@settings(max_examples=examples(25), deadline=None)
@given(seeds())
def test_the_opponents_lead_after_a_refill_is_read_too(seed: int) -> None:
    history = _greedy_match(seed, deals=2)
    across = 0
    for state, theirs, after in _two_turns_of_seat_0(history):
        move = _opponent_move(observe(state, 0), observe(after, 0), across_refill=True)
        opponent_led = len(theirs[0].hands[1]) == HAND_SIZE  # right after the refill
        if len(after.stock) != len(state.stock) and not opponent_led:
            assert move is None  # the opponent played their last card: nothing to learn
            continue
        assert move is not None
        faced, played, capture = move
        made = theirs[1]
        assert isinstance(made, Play)
        assert faced == theirs[0].table and played is made.card
        assert frozenset(capture) == made.capture
        across += len(after.stock) != len(state.stock)
    assert across > 0


def _information(seed: int, model: OpponentModel, deals: int) -> list[float]:
    """For every decision of seat 0 after a play of the opponent (GreedyBot) this round:
    the log of the probability the model gives the opponent's true hand, against the
    uniform one (positive: the model knows more than nothing)."""
    gains = []
    for state, _ in _greedy_match(seed, deals):
        if state.phase is not Phase.PLAY or state.current_player != 0:
            continue
        view = observe(state, 0)
        model.observe(view)
        if not model.decisions or not state.hands[1]:
            continue
        hands, cumulative = model.posterior(view)
        true = tuple(sorted(state.hands[1]))
        assert true in hands  # every hand the view allows, in deck order
        gains.append(math.log(model.weight(true) / cumulative[-1] * len(hands)))
    return gains


def test_the_model_reads_a_greedy_opponents_hand() -> None:
    gains = _information(3, OpponentModel(temperature=0.1, noise=0.3), deals=6)
    assert len(gains) > 30
    assert sum(gains) / len(gains) > 0.1  # about 0.2 nats; 0.03 for the suspicions


def test_with_only_noise_the_model_knows_nothing() -> None:
    # A player who plays uniformly at random: every hand is as likely as any other
    # with as many plays, so the gain is never large either way.
    model = OpponentModel(temperature=0.1, noise=1.0)
    gains = _information(4, model, deals=2)
    assert gains and all(abs(gain) < 1.0 for gain in gains)


def test_a_hand_that_would_have_swept_is_unlikely() -> None:
    # Whenever the opponent laid a card where another card would have swept the table,
    # a hand holding that card weighs much less than one holding a card that captures
    # nothing there instead.
    checked = 0
    for seed in range(6):
        model = OpponentModel(temperature=0.1, noise=0.05)
        for state, _ in _greedy_match(seed, deals=2):
            if state.phase is not Phase.PLAY or state.current_player != 0:
                continue
            last, view = model.view, observe(state, 0)
            model.observe(view)
            move = _opponent_move(last, view, across_refill=True) if last else None
            if move is None or move[2] or not view.hand_sizes[1]:
                continue
            faced, unseen, rules = move[0], view.unseen(), view.rules
            options = {c: options_for_card(faced, c, rules) for c in unseen}
            sweepers = [c for c in unseen if any(len(o) == len(faced) for o in options[c])]
            idle = [c for c in unseen if not options[c]]
            if sweepers and idle:
                rest = [c for c in unseen if c is not sweepers[0] and c is not idle[0]]
                fill = rest[: view.hand_sizes[1] - 1]
                assert model.weight([sweepers[0], *fill]) < 0.5 * model.weight([idle[0], *fill])
                checked += 1
    assert checked > 0


def test_the_model_starts_afresh_when_it_cannot_follow() -> None:
    model = OpponentModel(temperature=0.1, noise=0.3)
    history = _greedy_match(8)
    views = [observe(s, 0) for s, _ in history if s.phase is Phase.PLAY and s.current_player == 0]
    for view in views[:3]:
        model.observe(view)
    model.observe(observe(new_match(), 0))  # another match
    assert model.decisions == [] and model.weight(DECK[:2]) == 1.0


def test_weighted_determinizations_draw_the_opponents_hand_from_the_weights() -> None:
    history = _greedy_match(2)
    state = next(s for s, _ in history if s.phase is Phase.PLAY and s.current_player == 0)
    view = observe(state, 0)
    hands = list(itertools.combinations(view.unseen(), view.hand_sizes[1]))
    chosen = hands[7]
    cumulative = [0.0] * 7 + [1.0] * (len(hands) - 7)  # all the weight on hands[7]
    sample = weighted_determinizer(view, hands, cumulative)
    rng = random.Random(1)
    for _ in range(20):
        guess = sample(rng)
        assert guess.hands[1] == chosen and observe(guess, 0) == view
        assert sorted(guess.stock + guess.hands[1]) == sorted(state.stock + state.hands[1])
    with pytest.raises(ChkobbaError, match="no hand has a positive weight"):
        weighted_determinizer(view, hands, [0.0] * len(hands))
    with pytest.raises(ChkobbaError, match="do not fit"):
        weighted_determinizer(view, [hand[:1] for hand in hands], cumulative)
    seen = view.hand[: view.hand_sizes[1]]  # the bot's own cards: not the opponent's
    with pytest.raises(ChkobbaError, match="do not fit"):
        weighted_determinizer(view, [*hands[:-1], seen], cumulative)


def test_the_model_is_an_inference_level_and_stays_reproducible() -> None:
    bot = make_bot("expert:iterations=40,inference=2", seed=2)
    assert isinstance(bot, ISMCTSBot) and bot.inference == 2 and bot.spawn(3).inference == 2
    twin = make_bot("expert:iterations=40,inference=2", seed=2)
    for state, _ in _greedy_match(6)[:40]:
        if state.phase is Phase.PLAY and state.current_player == 0:
            view, legal = observe(state, 0), legal_moves(state)
            assert bot.choose(view, legal) == twin.choose(view, legal)
    with pytest.raises(ChkobbaError, match="inference must be 0, 1 or 2, not 3"):
        make_bot("ismcts:inference=3")


def test_the_model_checks_its_options_and_survives_a_tiny_temperature() -> None:
    with pytest.raises(ChkobbaError, match="temperature must be a number > 0, not 0"):
        OpponentModel(temperature=0, noise=0.1)
    with pytest.raises(ChkobbaError, match="noise must be between 0 and 1, not 2"):
        OpponentModel(temperature=0.1, noise=2)
    model = OpponentModel(temperature=1e-6, noise=0.0)  # exp() would overflow unclamped
    gains = _information(3, model, deals=2)
    assert gains and all(math.isfinite(gain) for gain in gains)


@pytest.mark.parametrize("name", ["ismcts", "expert"])
@pytest.mark.parametrize("inference", [1, 2])
def test_a_copied_or_unpickled_bot_keeps_its_inference(name: str, inference: int) -> None:
    # The copy holds an equal copy of the view the inference last took in: it must weigh
    # its samples as the original does, not fall back to uniform ones.
    bot = make_bot(f"{name}:iterations=30,inference={inference}", seed=3)
    assert isinstance(bot, ISMCTSBot)
    for state, _ in _greedy_match(6):
        if state.phase is not Phase.PLAY or state.current_player != 0:
            continue
        view, legal = observe(state, 0), legal_moves(state)
        bot.choose(view, legal)
        informed = bot._hands.suspicions if inference == 1 else bot._model.decisions
        if informed and len(legal) > 1 and state.stock:
            break
    else:
        pytest.fail("the inference never learned anything in this match")
    copies = [copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))]
    uniform = copy.deepcopy(bot)
    uniform.inference = 0
    values = bot.evaluate(view, legal)
    assert values != uniform.evaluate(view, legal)  # (the inference matters here)
    for twin in copies:
        assert twin.evaluate(view, legal) == values


@pytest.mark.parametrize("inference", [1, 2])
def test_one_bot_at_both_seats_reads_each_seats_opponent(inference: int) -> None:
    # Self-play with one bot object (``play_match([bot, bot])``) used to forget each
    # seat's reading at the other seat's decision, so inference=1 and 2 played as 0
    # (review 78D). It samples for each seat what a bot of that seat alone samples.
    shared = ISMCTSBot(iterations=5, inference=inference, seed=1)
    own = {seat: ISMCTSBot(iterations=5, inference=inference, seed=1) for seat in (0, 1)}
    weighed = 0
    for state, _ in _greedy_match(6, deals=2):
        if state.phase is not Phase.PLAY:
            continue
        seat = state.current_player
        view, legal = observe(state, seat), legal_moves(state)
        shared.choose(view, legal)
        own[seat].choose(view, legal)
        draws = [shared.sampler(view)(random.Random(n)) for n in range(4)]
        assert draws == [own[seat].sampler(view)(random.Random(n)) for n in range(4)]
        weighed += draws != [determinizer(view)(random.Random(n)) for n in range(4)]
    assert weighed > 5
    # A copy or a pickle keeps both seats' readings.
    for twin in (copy.deepcopy(shared), pickle.loads(pickle.dumps(shared))):
        for seat in (0, 1):
            last = own[seat]._hands.view if inference == 1 else own[seat]._model.view
            assert last is not None
            assert twin.sampler(last)(random.Random(9)) == shared.sampler(last)(random.Random(9))
