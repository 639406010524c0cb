"""Hand inference (``chkobba.bots.inference``): following the opponent's plays through a
bot's successive views, and suspecting only hands that the plays make unlikely."""

from __future__ import annotations

import random

from hypothesis import given, settings

from chkobba import Move, Phase, Play, State, apply, legal_moves, new_match, observe
from chkobba.bots import ISMCTSBot, make_bot
from chkobba.bots.inference import HandInference, Suspicion, _opponent_play
from chkobba.captures import options_for_card
from chkobba.cards import DECK
from chkobba.moves import random_shuffle
from tests.strategies import seeds


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


@settings(max_examples=25, deadline=None)
@given(seeds())
def test_the_opponents_play_is_read_from_two_views(seed: int) -> None:
    history = _match(seed)
    followed = 0
    for index, (state, _) in enumerate(history[:-2]):
        if state.phase is not Phase.PLAY or state.current_player != 0:
            continue
        theirs, after = history[index + 1], history[index + 2][0]
        if after.phase is not Phase.PLAY or after.current_player != 0:
            continue
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


@settings(max_examples=25, deadline=None)
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


@settings(max_examples=25, deadline=None)
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
