"""apply_with_outcome and MoveOutcome: what each move did, as a user interface animates it.

The property plays random matches of every profile and player count and checks each
outcome against an independent diff of the states before and after; the examples spell
out a chkobba, a capture with the deal's last card, a refill, leftovers, the match's end
and a void deal under each void rule.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import chain
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import chkobba
from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    Card,
    ChkobbaError,
    Cut,
    IllegalMoveError,
    Move,
    MoveOutcome,
    Phase,
    Play,
    Rank,
    Rules,
    Shuffle,
    State,
    apply,
    apply_with_outcome,
    card,
    cards,
    new_match,
    observe,
)
from tests.helpers import arranged, dealt, random_history, stacked_shuffle
from tests.strategies import rule_profiles, seeds

KINDS = {Shuffle: "shuffle", Cut: "cut", Play: "play"}


@st.composite
def match_setups(draw: st.DrawFn) -> tuple[Rules, int, int, int]:
    """``(rules, players, dealer, seed)``: a named profile or a random one, any player count
    it allows (the match is replayed from them, so a failure prints short)."""
    rules = draw(st.one_of(st.sampled_from((TUNISIAN, CARD_RULES_PLUS)), rule_profiles()))
    players = draw(st.sampled_from(rules.players))
    return rules, players, draw(st.integers(0, players - 1)), draw(seeds())


def _public(state: State) -> set[Card]:
    """The cards everyone sees in a state: the table and the piles."""
    return {*state.table, *chain.from_iterable(state.captured)}


def _dealt_table(before: State, move: Move) -> tuple[Card, ...]:
    """The table a dealing move dealt, recomputed with the deal never void."""
    never = attrs.evolve(before, rules=attrs.evolve(before.rules, void_deal="never"))
    return apply(never, move).table


def _voids(table: tuple[Card, ...], rule: str) -> bool:
    counts = Counter(c.rank for c in table)
    if rule == "three_kings":
        return counts[Rank.KING] >= 3
    return rule == "three_of_a_rank" and max(counts.values()) >= 3


def _cards_written(data: Any) -> set[Card]:
    """Every card text anywhere in an outcome's data (kind and format are not cards)."""
    if isinstance(data, dict):
        return set().union(*(_cards_written(v) for k, v in data.items() if k != "format"))
    if isinstance(data, list):
        return set().union(*(_cards_written(v) for v in data))
    if isinstance(data, str) and data not in ("shuffle", "cut", "play"):
        return {card(data)}
    return set()


def _agrees_with_the_diff(before: State, move: Move, after: State, what: MoveOutcome) -> None:
    assert what.kind == KINDS[type(move)]
    assert what.player == before.current_player
    new_deal = len(after.deal_scores) > len(before.deal_scores)
    assert what.deal_score == (after.deal_scores[-1] if new_deal else None)
    assert what.winner == (after.winner if after.is_over else None)
    deals = isinstance(move, Cut) or (isinstance(move, Shuffle) and not before.rules.cut)
    if deals:
        table = _dealt_table(before, move)
        assert what.dealt_table == table
        assert what.void == (after.phase is Phase.SHUFFLE) == _voids(table, before.rules.void_deal)
        if not what.void:
            assert what.dealt_table == after.table
    else:
        assert (what.dealt_table, what.void) == ((), False)
    if isinstance(move, Cut):
        assert what.keep == move.keep
        assert what.exposed == (None if move.keep else before.stock[0])
    else:
        assert (what.keep, what.exposed) == (None, None)
    if not isinstance(move, Play):
        assert what.card is None and not what.captured and not what.leftovers
        assert not (what.chkobba or what.refilled) and what.leftovers_side is None
        return
    side = before.side_of(before.mover)
    gained = set(chain.from_iterable(after.captured)) - set(chain.from_iterable(before.captured))
    assert what.card == move.card
    assert what.chkobba == (after.chkobbas[side] > before.chkobbas[side])
    assert what.refilled == (sum(map(len, after.hands)) > sum(map(len, before.hands)) - 1)
    # The leftovers: whatever a deal's end left on the table, or moved to a pile besides
    # what the capture took (and the card that took it).
    took = set(move.capture) | ({move.card} if move.capture else set())
    left = set(after.table) | (gained - took) if new_deal else set()
    assert set(what.leftovers) == left and len(what.leftovers) == len(left)
    # Captured: the cards that left the table into a pile, other than the leftovers.
    assert what.captured == (gained & set(before.table)) - left
    if not left or after.table:
        assert what.leftovers_side is None
    else:
        assert after.last_capturer is not None
        assert what.leftovers_side == after.side_of(after.last_capturer)
        pile = after.captured[what.leftovers_side]
        assert left <= set(pile) - set(before.captured[what.leftovers_side])


def _only_public(before: State, move: Move, after: State, what: MoveOutcome) -> None:
    data = what.to_dict()
    written = _cards_written(data)
    seen = _public(before) | _public(after)
    if isinstance(move, Play):
        seen.add(move.card)
    if what.void:  # the dealt table lay face up before it was gathered
        seen.update(_dealt_table(before, move))
    assert written <= seen
    if isinstance(move, Cut) and move.keep:
        assert before.stock[0] not in written
    if isinstance(move, Shuffle) and before.rules.cut:
        assert written == set()


@given(match_setups())
def test_every_outcome_agrees_with_the_states_and_shows_no_hidden_card(
    setup: tuple[Rules, int, int, int],
) -> None:
    rules, players, dealer, seed = setup
    states, moves = random_history(seed, players, dealer=dealer, rules=rules, max_moves=500)
    for before, move, after in zip(states, moves, states[1:], strict=False):
        stepped, what = apply_with_outcome(before, move)
        assert stepped == after
        _agrees_with_the_diff(before, move, after, what)
        _only_public(before, move, after, what)
        assert eval(repr(what), vars(chkobba)) == what  # the public names suffice
        data = json.loads(json.dumps(what.to_dict()))
        assert MoveOutcome.from_dict(data) == what


# --- spelled-out examples ----------------------------------------------------------------


def test_a_chkobba() -> None:
    state = arranged(hands=["2C 3C 4C", "7D 5S 6S"], table="3D 4H")
    after, what = apply_with_outcome(state, Play("7D", "3D 4H"))
    assert what == MoveOutcome(
        "play", player=1, card=card("7D"), captured=cards("3D 4H"), chkobba=True
    )
    assert after.chkobbas == (0, 1)


@pytest.mark.parametrize(("last_card_chkobba", "chkobba"), [(False, False), (True, True)])
def test_a_sweep_with_the_last_card_is_a_chkobba_only_where_the_profile_says(
    last_card_chkobba: bool, chkobba: bool
) -> None:
    rules = attrs.evolve(TUNISIAN, last_card_chkobba=last_card_chkobba)
    state = arranged(hands=["", "7D"], table="3D 4H", stock="", last_capturer=0, rules=rules)
    after, what = apply_with_outcome(state, Play("7D", "3D 4H"))
    assert what.chkobba is chkobba
    assert what.captured == frozenset(cards("3D 4H")) and what.leftovers == ()
    assert what.leftovers_side is None and not what.refilled
    assert what.deal_score is not None and what.deal_score == after.deal_scores[-1]
    assert what.deal_score.chkobbas[1] == int(chkobba)


def test_new_hands_are_dealt_after_the_rounds_last_card() -> None:
    state = arranged(hands=["", "5S"], table="2C", stock="AS 2S 3S 4S 5H 6S", last_capturer=0)
    after, what = apply_with_outcome(state, Play("5S"))
    assert what == MoveOutcome("play", player=1, card=card("5S"), refilled=True)
    assert [len(hand) for hand in after.hands] == [3, 3] and after.stock == ()


def test_the_leftovers_go_to_the_last_capturers_side_and_the_match_ends() -> None:
    # 4 players: player 1 captured last, so side 1 (players 1 and 3) gets the leftovers.
    state = arranged(
        4,
        current=3,
        hands=["", "", "", "5S"],
        table="2C 6D",
        stock="",
        captured=((), ()),
        last_capturer=1,
        scores=(0, 19),
    )
    after, what = apply_with_outcome(state, Play("5S"))
    assert what.leftovers == cards("2C 6D 5S") and what.leftovers_side == 1
    assert what.deal_score == after.deal_scores[-1] and what.winner == 1 == after.winner
    assert repr(what).startswith(
        "MoveOutcome('play', player=3, card=card('5S'), leftovers=cards('2C 6D 5S'), "
        "leftovers_side=1, deal_score=DealScore("
    )
    assert repr(what).endswith("winner=1)")


def test_leftovers_go_to_no_side_when_nobody_captured() -> None:
    # Built by hand: with nobody's capture in the deal the leftovers stay on the table.
    state = arranged(hands=["", "5S"], table="2C", stock="", last_capturer=None)
    after, what = apply_with_outcome(state, Play("5S"))
    assert what.leftovers == cards("2C 5S") and what.leftovers_side is None
    assert after.table == what.leftovers


@pytest.mark.parametrize("keep", [False, True])
def test_a_void_deal_under_the_tunisian_profile(keep: bool) -> None:
    start = new_match()
    shuffle = stacked_shuffle(hands=["AS 2S 3S", "4S 5S 6S"], table="7D 7S 7H QC", keep=keep)
    state, _ = apply_with_outcome(start, shuffle)
    after, what = apply_with_outcome(state, Cut(keep=keep))
    assert what.void and what.dealt_table == cards("7D 7S 7H QC")
    assert what.exposed == (None if keep else card("7D"))
    assert after.phase is Phase.SHUFFLE and after.dealer == 0 and len(after.stock) == 40
    written = json.dumps(what.to_dict())
    assert ('"4S"' in written, '"7D"' in written) == (False, True)  # 4S: the kept card


def test_a_void_deal_under_the_cardrulesplus_profile() -> None:
    start = new_match(3, rules=CARD_RULES_PLUS)
    hands = ["AS 2S 3S", "4S 5S 6S", "AH 2H 3H"]
    kings = stacked_shuffle(3, hands=hands, table="KS QS KH KD", cut=False)
    after, what = apply_with_outcome(start, kings)
    assert what == MoveOutcome("shuffle", dealt_table=cards("KS QS KH KD"), void=True)
    assert after.phase is Phase.SHUFFLE
    # Three queens do not void a deal there: the shuffle deals it.
    queens = stacked_shuffle(3, hands=hands, table="QS QH QD KS", cut=False)
    after, what = apply_with_outcome(start, queens)
    assert what == MoveOutcome("shuffle", dealt_table=cards("QS QH QD KS"))
    assert after.phase is Phase.PLAY and after.table == what.dealt_table


def test_a_shuffle_under_a_profile_with_the_cut_shows_nothing() -> None:
    order = stacked_shuffle(hands=["AS 2S 3S", "4S 5S 6S"], table="7D 7S 7H QC")
    after, what = apply_with_outcome(new_match(), order)
    assert what == MoveOutcome("shuffle") and what.to_dict()["dealt_table"] == []
    assert after.phase is Phase.CUT


def test_a_ui_sends_the_outcome_to_everyone_and_each_seat_its_view() -> None:
    state = dealt(hands=["QH 2C 3C", "JC 5C 6C"], table="2D 6S AS AC")
    after, what = apply_with_outcome(state, Play("5C"))
    assert what.to_dict() == {
        "format": "chkobba-outcome",
        "version": 1,
        "kind": "play",
        "player": 1,
        "keep": None,
        "exposed": None,
        "dealt_table": [],
        "void": False,
        "card": "5C",
        "captured": [],
        "chkobba": False,
        "refilled": False,
        "leftovers": [],
        "leftovers_side": None,
        "deal_score": None,
        "winner": None,
    }
    assert observe(after, 0).hand == after.hands[0]


# --- bad input ---------------------------------------------------------------------------


def test_step_refuses_what_apply_refuses() -> None:
    state = dealt(hands=["QH 2C 3C", "4C 5C 6C"], table="2D 6S AS AC")
    with pytest.raises(IllegalMoveError, match="Cut is not allowed in phase PLAY"):
        apply_with_outcome(state, Cut(keep=True))
    with pytest.raises(IllegalMoveError, match="QH is not in player 1's hand"):
        apply_with_outcome(state, Play("QH", "2D 6S"))
    with pytest.raises(ChkobbaError, match=r"apply: .*a State"):
        apply_with_outcome(observe(state, 1), Play("4C"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"kind": "deal"}, "kind must be one of shuffle, cut, play, not 'deal'"),
        ({"kind": "play", "player": 0}, "a play needs card"),
        ({"kind": "shuffle", "player": 0}, "a shuffle has no player"),
        ({"kind": "play", "player": -1, "card": card("7D")}, "player must be a whole number"),
        ({"kind": "play", "player": 0, "card": "7D"}, "card must be a card or None, not '7D'"),
        ({"kind": "play", "player": 0, "card": card("7D"), "captured": "2D"}, "a set of cards"),
        ({"kind": "play", "player": 0, "card": card("7D"), "winner": 0}, "winner is set without"),
        ({"kind": "cut", "player": 1, "keep": False, "dealt_table": cards("AS")}, "exposed"),
    ],
)
def test_a_hand_built_outcome_is_checked(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ChkobbaError, match=message):
        MoveOutcome(**fields)


def test_from_dict_names_what_is_wrong() -> None:
    good = MoveOutcome("play", player=1, card=card("QH"), captured=cards("2D 6S")).to_dict()
    with pytest.raises(ChkobbaError, match='outcome format must be "chkobba-outcome"'):
        MoveOutcome.from_dict({**good, "format": "chkobba-state"})
    with pytest.raises(ChkobbaError, match="outcome: unknown field 'after'"):
        MoveOutcome.from_dict({**good, "after": {}})
    with pytest.raises(ChkobbaError, match=r"captured\[1\]: '6X' is not a card"):
        MoveOutcome.from_dict({**good, "captured": ["2D", "6X"]})
    with pytest.raises(ChkobbaError, match="kind must be one of"):
        MoveOutcome.from_dict({**good, "kind": "deal"})
    with pytest.raises(ChkobbaError, match="outcome: MoveOutcome: a play has no keep"):
        MoveOutcome.from_dict({**good, "keep": True})
    with pytest.raises(ChkobbaError, match="chkobba must be true or false"):
        MoveOutcome.from_dict({**good, "chkobba": 1})
    with pytest.raises(ChkobbaError, match="an object"):
        MoveOutcome.from_dict([good])


# --- a client that sees only the outcomes ------------------------------------------------


@attrs.define
class _Client:
    """What a user interface keeps of the match from the outcomes alone (plus, for the
    hands, the seat's own view): the table in the order laid, each side's pile size and
    chkobbas this deal, the match totals and the winner."""

    sides: int
    table: tuple[Card, ...] = ()
    piles: list[int] = attrs.field(factory=list)
    chkobbas: list[int] = attrs.field(factory=list)
    scores: list[int] = attrs.field(factory=list)
    winner: int | None = None

    def new_deal(self) -> None:
        self.table, self.piles, self.chkobbas = (), [0] * self.sides, [0] * self.sides

    def take(self, what: MoveOutcome, side: int) -> None:
        """Animate one outcome; ``side`` is the mover's (the client knows the seating)."""
        if what.kind != "play":
            if what.dealt_table or what.void:  # a deal starts (void: gathered again)
                self.new_deal()
                self.table = () if what.void else what.dealt_table
            return
        assert what.card is not None
        if what.captured:
            self.table = tuple(c for c in self.table if c not in what.captured)
            self.piles[side] += len(what.captured) + 1
        else:
            self.table += (what.card,)
        self.chkobbas[side] += what.chkobba
        if what.leftovers:
            self.table = tuple(c for c in self.table if c not in what.leftovers)
            if what.leftovers_side is not None:
                self.piles[what.leftovers_side] += len(what.leftovers)
        if what.deal_score is not None:
            self.scores = [s + p for s, p in zip(self.scores, what.deal_score.points, strict=True)]
        self.winner = what.winner


@given(match_setups())
def test_a_client_rebuilds_the_public_match_from_the_outcomes_alone(
    setup: tuple[Rules, int, int, int],
) -> None:
    """The module's promise: a user interface animates the outcomes and needs to diff no
    states. A client fed only the outcomes keeps the table (in order), the piles, the
    chkobbas, the totals and the winner exactly as the states have them."""
    rules, players, dealer, seed = setup
    states, moves = random_history(seed, players, dealer=dealer, rules=rules, max_moves=500)
    sides = rules.sides(players)
    client = _Client(sides, scores=list(states[0].scores))
    client.new_deal()
    for before, move in zip(states, moves, strict=False):
        after, what = apply_with_outcome(before, move)
        mover = before.mover if isinstance(move, Play) else 0
        client.take(what, before.side_of(mover))
        assert client.table == after.table
        if after.phase is Phase.PLAY or isinstance(move, Play):
            assert client.piles == [len(pile) for pile in after.captured]
            assert client.chkobbas == list(after.chkobbas)
        assert (client.scores, client.winner) == (list(after.scores), after.winner)
