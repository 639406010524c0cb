"""A game server that keeps its matches as JSON, played by a Hypothesis state machine.

The server holds one or two matches (Tunisian with 2 or 4 players, CardRulesPlus with 2
or 3, short targets so that matches end and new ones start). Each match is stored as the
JSON text of ``State.to_dict``; each seat is sent the JSON text of its ``PlayerView``
and every move's ``MoveOutcome``. The rules interleave persistence with play: deal,
a seat sends a legal move as text (parsed with ``parse_move`` against the view as the
client read it back), a seat sends text that must be refused (another seat's card, a
move out of turn, a shuffle, garbage), the server restarts (reloads its JSON, or a
pickle of its live state) and plays on from the reloaded object, bursts of random moves.

After every step: the stored JSON validates against the shipped ``state.schema.json``
and reads back to a state equal to the live one, with the same hash and the same legal
moves; ``check_state`` passes; every seat's view JSON validates against
``view.schema.json``, reads back to ``observe(live, seat)`` and holds no card hidden
from that seat (other hands, the stock). Every outcome sent to all seats holds no card
hidden from any seat and reads back through ``MoveOutcome.from_dict``.

tests/test_roundtrips.py, tests/test_snapshot_schemas.py and tests/test_views.py check
single random states; this file checks that play continues correctly across reloads.
"""

from __future__ import annotations

import functools
import json
import pickle
import random
import re
from typing import Any

import attrs
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    ChkobbaError,
    Move,
    MoveOutcome,
    Phase,
    Play,
    PlayerView,
    Rules,
    State,
    apply,
    apply_with_outcome,
    check_state,
    legal_moves,
    new_match,
    observe,
    parse_move,
    random_shuffle,
)

CARD_TEXT = re.compile(r"^[A2-7QJK][SHDC]$")

#: (profile, players) pairs the server hosts, with targets short enough to end a match.
TABLES: tuple[tuple[Rules, int], ...] = (
    (attrs.evolve(TUNISIAN, target=3), 2),
    (attrs.evolve(TUNISIAN, target=3), 4),
    (attrs.evolve(CARD_RULES_PLUS, target=3), 2),
    (attrs.evolve(CARD_RULES_PLUS, target=3), 3),
)

GARBAGE = (
    "",
    "   ",
    "hello",
    "QZ",
    "QH x",
    "QH x 2Z",
    "xx 7D",
    "keep keep",
    "shuffle",
    "7D 7D",
    "{}",
    "null",
    "Q" * 2000,
)

seeds = st.integers(0, 2**32 - 1)


@functools.cache
def validator(kind: str) -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    schema = State.json_schema() if kind == "state" else PlayerView.json_schema()
    return jsonschema.Draft202012Validator(schema)


def card_texts(value: Any) -> set[str]:
    """Every string in JSON data that is a card's text."""
    if isinstance(value, str):
        return {value} if CARD_TEXT.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(card_texts(k) | card_texts(v) for k, v in value.items()))
    if isinstance(value, list):
        return set().union(*(card_texts(v) for v in value))
    return set()


def hidden_from(state: State, seat: int) -> set[str]:
    """The cards ``seat`` must not see: other hands and the stock, bar the cut card that
    the cutter looks at."""
    hidden = {c for p, hand in enumerate(state.hands) if p != seat for c in hand}
    hidden.update(state.stock)
    if state.phase is Phase.CUT and seat == state.current_player:
        hidden.discard(state.stock[0])
    return {str(c) for c in hidden}


class Match:
    """One match on the server: the stored JSON, the live state, what each seat got."""

    def __init__(self, rules: Rules, players: int, dealer: int) -> None:
        self.live = new_match(players, dealer=dealer, rules=rules)
        self.stored = ""
        self.sent: list[str] = []
        self.outcomes: list[MoveOutcome] = []
        self.save()

    def save(self) -> None:
        """Store the live state and send every seat its view."""
        self.stored = json.dumps(self.live.to_dict())
        self.sent = [json.dumps(observe(self.live, s).to_dict()) for s in self.seats]

    @property
    def seats(self) -> range:
        return range(self.live.players)

    def client_view(self, seat: int) -> PlayerView:
        return PlayerView.from_dict(json.loads(self.sent[seat]))

    def play(self, move: Move) -> None:
        before = self.live
        after, outcome = apply_with_outcome(before, move)
        assert after == apply(before, move)
        self.broadcast(before, after, outcome)
        self.live = after
        self.save()

    def broadcast(self, before: State, after: State, outcome: MoveOutcome) -> None:
        """Send ``outcome`` to every seat: public facts only, and it reads back."""
        data = json.loads(json.dumps(outcome.to_dict()))
        assert MoveOutcome.from_dict(data) == outcome
        shown = card_texts(data)
        if outcome.void:  # the voided table was face up, then gathered into the stock
            shown -= {str(c) for c in outcome.dealt_table}
        for seat in self.seats:
            leaked = shown & hidden_from(after, seat)
            assert not leaked, f"outcome {outcome!r} shows {leaked} to seat {seat}"
        if outcome.kind == "play":
            assert outcome.player == before.current_player
        self.outcomes.append(outcome)

    def random_move(self, rng: random.Random) -> Move:
        if self.live.is_chance:
            return random_shuffle(rng)
        return rng.choice(legal_moves(self.live))


class ServerMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.matches: list[Match] = []

    @initialize(
        tables=st.lists(
            st.tuples(st.sampled_from(TABLES), st.integers(0, 3)), min_size=1, max_size=2
        )
    )
    def open_matches(self, tables: list[tuple[tuple[Rules, int], int]]) -> None:
        for (rules, players), dealer in tables:
            self.matches.append(Match(rules, players, dealer % players))

    def _pick(self, data: st.DataObject, phases: tuple[Phase, ...]) -> Match:
        candidates = [m for m in self.matches if m.live.phase in phases]
        return data.draw(st.sampled_from(candidates), label="match")

    def _any(self, phase: Phase) -> bool:
        return any(m.live.phase is phase for m in self.matches)

    def _moving(self) -> bool:
        return self._any(Phase.CUT) or self._any(Phase.PLAY)

    # --- play -------------------------------------------------------------------------

    @precondition(lambda self: self._any(Phase.SHUFFLE))
    @rule(data=st.data(), seed=seeds)
    def deal(self, data: st.DataObject, seed: int) -> None:
        match = self._pick(data, (Phase.SHUFFLE,))
        match.play(random_shuffle(random.Random(seed)))

    @precondition(lambda self: self._moving())
    @rule(data=st.data(), short=st.booleans())
    def send_legal_move(self, data: st.DataObject, short: bool) -> None:
        match = self._pick(data, (Phase.CUT, Phase.PLAY))
        seat = match.live.mover
        move = data.draw(st.sampled_from(legal_moves(match.live)), label="move")
        text = str(move)
        if short and isinstance(move, Play):
            alike = [m for m in legal_moves(match.live) if isinstance(m, Play)]
            if [m.card for m in alike].count(move.card) == 1:
                text = str(move.card)  # a card alone names its one legal move
        parsed = parse_move(text, match.client_view(seat))
        assert parsed == move
        assert parse_move(text, match.live) == move
        match.play(parsed)

    @precondition(lambda self: self._moving())
    @rule(data=st.data())
    def send_refused_text(self, data: st.DataObject) -> None:
        match = self._pick(data, (Phase.CUT, Phase.PLAY))
        live, stored, sent = match.live, match.stored, list(match.sent)
        mover = live.mover
        options: list[tuple[int, str]] = [(mover, g) for g in GARBAGE]
        # A card of another hand, sent by the seat to move.
        options += [(mover, str(c)) for p in match.seats if p != mover for c in live.hands[p]]
        # A card of the stock (hidden from everyone).
        options += [(mover, str(c)) for c in live.stock[1:4]]
        # Another seat sending the mover's legal move: not its turn.
        options += [(s, str(m)) for s in match.seats if s != mover for m in legal_moves(live)]
        # A shuffle is never a player's move.
        options.append((mover, str(random_shuffle(random.Random(len(options))))))
        seat, text = data.draw(st.sampled_from(options), label="refused")
        view = match.client_view(seat)
        with pytest.raises(ChkobbaError):
            parse_move(text, view)
        assert match.live is live
        assert match.stored == stored
        assert match.sent == sent
        assert match.client_view(seat) == view

    @precondition(lambda self: self._moving() or self._any(Phase.SHUFFLE))
    @rule(data=st.data(), seed=seeds, length=st.integers(1, 40))
    def burst(self, data: st.DataObject, seed: int, length: int) -> None:
        match = self._pick(data, (Phase.SHUFFLE, Phase.CUT, Phase.PLAY))
        rng = random.Random(seed)
        for _ in range(length):
            if match.live.is_over:
                break
            match.play(match.random_move(rng))

    @precondition(lambda self: self._any(Phase.OVER))
    @rule(data=st.data(), dealer=st.integers(0, 3))
    def rematch(self, data: st.DataObject, dealer: int) -> None:
        match = self._pick(data, (Phase.OVER,))
        winner = match.live.winner
        assert winner is not None and match.live.scores[winner] >= match.live.rules.target
        self.matches[self.matches.index(match)] = Match(
            match.live.rules, match.live.players, dealer % match.live.players
        )

    # --- restarts ---------------------------------------------------------------------

    @rule(data=st.data())
    def restart_from_json(self, data: st.DataObject) -> None:
        match = data.draw(st.sampled_from(self.matches), label="match")
        reloaded = State.from_dict(json.loads(match.stored))
        assert reloaded == match.live
        match.live = reloaded
        match.save()

    @rule(data=st.data())
    def restart_from_pickle(self, data: st.DataObject) -> None:
        match = data.draw(st.sampled_from(self.matches), label="match")
        reloaded = pickle.loads(pickle.dumps(match.live))
        assert isinstance(reloaded, State)
        assert reloaded == match.live
        match.live = reloaded
        match.save()

    # --- invariants -------------------------------------------------------------------

    @invariant()
    def stored_state_is_valid_and_is_the_live_one(self) -> None:
        for match in self.matches:
            data = json.loads(match.stored)
            assert list(validator("state").iter_errors(data)) == []
            reloaded = State.from_dict(data)
            assert reloaded == match.live
            assert hash(reloaded) == hash(match.live)
            assert legal_moves(reloaded) == legal_moves(match.live)
            check_state(match.live)

    @invariant()
    def every_seat_sees_its_view_and_nothing_more(self) -> None:
        for match in self.matches:
            for seat in match.seats:
                data = json.loads(match.sent[seat])
                leaked = card_texts(data) & hidden_from(match.live, seat)
                assert not leaked, f"seat {seat} is sent {leaked}"
                assert list(validator("view").iter_errors(data)) == []
                assert PlayerView.from_dict(data) == observe(match.live, seat)

    @invariant()
    def the_outcomes_so_far_are_public(self) -> None:
        for match in self.matches:
            for outcome in match.outcomes[-3:]:
                text = json.dumps(outcome.to_dict())
                assert MoveOutcome.from_dict(json.loads(text)) == outcome


TestServer = ServerMachine.TestCase
TestServer.settings = settings(
    max_examples=max(5, settings().max_examples // 4), stateful_step_count=30
)


def test_card_texts_finds_nested_cards() -> None:
    data = {"a": ["7D", {"b": ["QH", "tunisian"]}], "7S": None, "n": 3}
    assert card_texts(data) == {"7D", "QH", "7S"}
