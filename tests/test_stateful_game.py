"""``Game`` driven by random sequences of everything a server or a UI does with it.

The example tests in ``test_game.py`` try each method in a few situations; this state
machine interleaves them at random (deals from the game's generator and from others,
plays as moves and as text, with and without the sender's seat, refused moves of every
kind, undos across deals, records, pickles, resumed games) and checks after every step
that the game still is what the pure engine says it is:

- its history is its first state with its moves applied one by one by ``apply``;
- every state is one a match can reach (``check_state``: the 40 cards among stock,
  hands, table and piles, the scores, the phase);
- a refused call raises a ``ValueError`` (a ``ChkobbaError``) and leaves the game as it
  was;
- the game's own generator never deals an order its match holds already, and a game
  rebuilt from its record with its seed deals next what the original would have dealt.
"""

from __future__ import annotations

import copy
import functools
import pickle
import random
from collections.abc import Callable

import attrs
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    ChkobbaError,
    Game,
    IllegalMoveError,
    Move,
    Record,
    Rules,
    Shuffle,
    State,
    apply,
    check_state,
    legal_moves,
    new_match,
    random_shuffle,
)

#: Short matches, so that a run of steps reaches the ends of deals and of the match.
PROFILES = [
    (attrs.evolve(TUNISIAN, target=6), 2),
    (attrs.evolve(TUNISIAN, target=4), 4),
    (attrs.evolve(CARD_RULES_PLUS, target=4), 3),
    (attrs.evolve(CARD_RULES_PLUS, target=3), 2),
]


def _snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.state,
        game.history,
        game.moves,
        game.revision,
        pickle.dumps(game._rng.getstate()),
    )


class GameMachine(RuleBasedStateMachine):
    """A game, and what is known about how its deals were made."""

    def __init__(self) -> None:
        super().__init__()
        self.game = Game()
        self.seed = 0
        self.profile: Rules = TUNISIAN
        # Whether every shuffle so far is the seed's next draw, none undone: then a game
        # rebuilt from the record with the seed must deal what this one deals next.
        self.pristine = True

    @initialize(
        profile=st.sampled_from(PROFILES), dealer=st.integers(0, 3), seed=st.integers(0, 99)
    )
    def start(self, profile: tuple[Rules, int], dealer: int, seed: int) -> None:
        self.profile, players = profile
        self.seed = seed
        self.game = Game(players, dealer % players, seed, rules=self.profile)
        assert self.game.state == new_match(players, dealer=dealer % players, rules=self.profile)

    # --- the chance move ---------------------------------------------------------------

    @precondition(lambda self: self.game.is_chance)
    @rule()
    def deal_from_the_games_generator(self) -> None:
        held = set(move for move in self.game.moves if isinstance(move, Shuffle))
        before = self.game.state
        after = self.game.deal()
        shuffle = self.game.moves[-1]
        assert isinstance(shuffle, Shuffle) and shuffle not in held
        assert after == apply(before, shuffle) == self.game.state

    @precondition(lambda self: self.game.is_chance)
    @rule(seed=st.integers(0, 3))
    def deal_from_another_generator(self, seed: int) -> None:
        before = self.game.state
        self.game.deal(random.Random(seed))
        assert self.game.moves[-1] == random_shuffle(random.Random(seed))
        assert self.game.state == apply(before, self.game.moves[-1])
        self.pristine = False

    # --- plays and cuts ----------------------------------------------------------------

    @precondition(lambda self: self.game.legal_moves != ())
    @rule(
        data=st.data(), as_text=st.booleans(), with_seat=st.booleans(), with_revision=st.booleans()
    )
    def play_a_legal_move(
        self, data: st.DataObject, as_text: bool, with_seat: bool, with_revision: bool
    ) -> None:
        state = self.game.state
        move = data.draw(st.sampled_from(self.game.legal_moves))
        seat = state.current_player if with_seat else None
        revision = self.game.revision if with_revision else None
        played: Move | str = str(move) if as_text else move
        assert self.game.play(played, seat=seat, revision=revision) == apply(state, move)
        assert self.game.moves[-1] == move

    @precondition(lambda self: self.game.legal_moves != ())
    @rule(data=st.data(), count=st.integers(1, 12))
    def play_several_moves(self, data: st.DataObject, count: int) -> None:
        """Hurries the match on, so that runs reach scoring and the match's end."""
        for _ in range(count):
            if not self.game.legal_moves:
                return
            self.game.play(data.draw(st.sampled_from(self.game.legal_moves)))

    @precondition(lambda self: self.game.legal_moves != ())
    @rule(data=st.data())
    def finish_the_deal(self, data: st.DataObject) -> None:
        while self.game.legal_moves:
            self.game.play(data.draw(st.sampled_from(self.game.legal_moves)))
        assert self.game.is_chance or self.game.is_over

    @precondition(lambda self: any(isinstance(move, Shuffle) for move in self.game.moves))
    @rule()
    def deal_the_last_deal_again(self) -> None:
        """Undo back to before the last shuffle and deal anew: the undone order is no
        longer the match's, and the game's generator has gone past it."""
        while not isinstance(self.game.undo(), Shuffle):
            pass
        self.pristine = False
        self.game.deal()

    # --- what is refused changes nothing -------------------------------------------------

    @rule(data=st.data())
    def a_refused_call_changes_nothing(self, data: st.DataObject) -> None:
        game = self.game
        state = game.state
        other_seats = [seat for seat in range(state.players) if seat != state.current_player]
        calls: list[Callable[[], object]] = [
            lambda: game.play("ZZ"),  # not notation
            lambda: game.play("7D x 7D"),  # a card cannot capture itself
            lambda: game.play(42),  # type: ignore[arg-type]
            lambda: game.play("keep", seat=state.players),  # no such seat
            lambda: game.play("keep", seat=data.draw(st.sampled_from(other_seats))),
            lambda: game.deal(random.Random(1)) if not game.is_chance else game.play("keep"),
            lambda: game.deal(rng="seed"),  # type: ignore[arg-type]
        ]
        legal = {str(move) for move in game.legal_moves}
        unplayable = [str(card) for card in state.stock[:3] if str(card) not in legal]
        calls += [functools.partial(game.play, text) for text in unplayable]  # not in the hand
        if state.is_over or state.is_chance:
            calls.append(lambda: game.play("keep", seat=0))
        # A legal move answering another revision: one gone, or one no position had.
        legal_text = str(game.legal_moves[0]) if game.legal_moves else "keep"
        calls.append(lambda: game.play(legal_text, revision=game.revision + 1))
        if game.revision:
            calls.append(lambda: game.play(legal_text, revision=game.revision - 1))
        call = data.draw(st.sampled_from(calls))
        before = _snapshot(game)
        try:
            call()
        except ChkobbaError as error:
            assert isinstance(error, ValueError) and str(error)
        else:
            raise AssertionError("a refused call went through")
        assert _snapshot(game) == before

    @precondition(lambda self: self.game.current_player is not None)
    @rule(data=st.data())
    def a_move_from_the_wrong_seat_is_refused_without_a_word_about_hands(
        self, data: st.DataObject
    ) -> None:
        state = self.game.state
        seat = data.draw(
            st.sampled_from([s for s in range(state.players) if s != state.current_player])
        )
        move = data.draw(st.sampled_from(self.game.legal_moves))
        before = _snapshot(self.game)
        try:
            self.game.play(str(move), seat=seat)
        except IllegalMoveError as error:
            assert str(error) == f"it is player {state.current_player}'s turn, not player {seat}'s"
        else:
            raise AssertionError("a move from the wrong seat went through")
        assert _snapshot(self.game) == before

    # --- undo, records, pickles ----------------------------------------------------------

    @rule()
    def undo(self) -> None:
        moves, history = self.game.moves, self.game.history
        if not moves:
            before = _snapshot(self.game)
            try:
                self.game.undo()
            except ChkobbaError:
                assert _snapshot(self.game) == before
                return
            raise AssertionError("undo at the start went through")
        assert self.game.undo() == moves[-1]
        assert self.game.moves == moves[:-1] and self.game.history == history[:-1]
        if isinstance(moves[-1], Shuffle):
            self.pristine = False

    @rule(go_on_with_it=st.booleans())
    def the_record_rebuilds_the_game(self, go_on_with_it: bool) -> None:
        """A server restarted from the record and the seed, as docs/records.md shows."""
        record = Record.from_json(self.game.record(tags={"seed": str(self.seed)}).to_json())
        rebuilt = Game.from_record(
            record, seed=int(record.tags["seed"]), revision=self.game.revision
        )
        assert rebuilt.history == self.game.history and rebuilt.moves == self.game.moves
        assert rebuilt.revision == self.game.revision  # kept beside the record, passed back
        if self.pristine and self.game.is_chance:
            # Resumed from its seed, it deals what the original deals next.
            assert copy.deepcopy(rebuilt).deal() == copy.deepcopy(self.game).deal()
        if go_on_with_it:  # and its deals still never repeat an order of the match
            self.game = rebuilt

    @rule()
    def a_pickled_game_goes_on_alike(self) -> None:
        copied = pickle.loads(pickle.dumps(self.game))
        assert _snapshot(copied) == _snapshot(self.game)
        if copied.is_chance:
            assert copied.deal() == copy.deepcopy(self.game).deal()

    # --- after every step ----------------------------------------------------------------

    @invariant()
    def the_history_is_the_moves_applied(self) -> None:
        history, moves = self.game.history, self.game.moves
        assert len(history) == len(moves) + 1 and history[-1] == self.game.state
        assert self.game.revision >= len(moves)
        state: State = history[0]
        for move, after in zip(moves, history[1:], strict=True):
            state = apply(state, move)
            assert state == after

    @invariant()
    def the_state_is_one_a_match_can_reach(self) -> None:
        state = check_state(self.game.state)
        assert self.game.legal_moves == legal_moves(state)
        assert state.is_over == (state.winner is not None) == self.game.is_over
        if state.is_over:
            assert max(state.scores) >= state.rules.target


TestGame = GameMachine.TestCase
# Fewer runs than the profile's examples (each is up to 40 steps), as many more under the
# deep profile.
TestGame.settings = settings(
    max_examples=max(10, settings().max_examples * 2 // 5), stateful_step_count=50
)
