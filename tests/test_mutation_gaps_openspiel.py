"""Tests for the gaps a mutmut audit of ``openspiel.py`` found: the game's dynamics.

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to ``chkobba/openspiel.py`` that the rest of the suite let through
(tools/mutation/README.md). They pin ``ChkobbaGame.new_match`` (no test called it), the
strings of chance outcomes (the lot, a card dealt, an outcome out of range) and of
player actions before the lot, the chance outcomes of a shuffle under way, every public
event and private fact of the information states (the lot, a shuffle, keep and expose
at the cut, the table, a play, a pending play and its capture, a voided deal; a kept
card remembered once its deal is over), the history of the deal (the first table, the
exposed card, never a kept one) and the cards exposed in voided deals (kept until a deal
is scored), ``max_shuffles`` counted exactly, the full text of the refusals, a pickled
capture, and ``resample_from_infostate`` exactly: with a sampler that always returns 0
each hidden card moves to the hidden place before its own (the first to the last), with
one that always returns 1.0 nothing moves; before the lot, during a shuffle, at the cut
(the cutter has seen the top card) and in play, the kept card followed to its new place.
Every deal here is stacked, so each test is a few hundred actions.
"""

from __future__ import annotations

import pickle
from typing import Any

import attrs
import pytest

pyspiel = pytest.importorskip("pyspiel")

import chkobba.openspiel  # noqa: E402
from chkobba import DECK, Phase, card, cards, new_match  # noqa: E402
from chkobba.actions import EXPOSE, FIRST_CAPTURE, KEEP, Position, describe  # noqa: E402
from chkobba.history import HISTORY_SIZE, PER_CARD  # noqa: E402
from chkobba.rules import profile  # noqa: E402
from tests.helpers import refusal, stacked_shuffle  # noqa: E402

CHANCE = int(pyspiel.PlayerId.CHANCE)
#: The entries of a card in the history vector (chkobba.history): first table, exposed.
FIRST_TABLE, EXPOSED = 6, 7
#: Player 0's hand, player 1's (the cutter's: the dealer is player 0) and the table of
#: the stacked deal most tests use. The queen (8 under the Tunisian profile) takes 2D+6S
#: or 3C+5H, so it waits for its capture choice.
HANDS, TABLE = ("4S 4H KD", "AS QH 7C"), "2D 6S 3C 5H"


def load(**params: Any) -> Any:
    return pyspiel.load_game(chkobba.openspiel.GAME_NAME, params)


def _deal(state: Any, players: int = 2, dealer: int = 0, **stacked: Any) -> None:
    """Deal ``stacked_shuffle(players, dealer=dealer, **stacked)`` card by card."""
    for dealt in stacked_shuffle(players, dealer=dealer, **stacked).order:
        state.apply_action(dealt.index)


def _lines(state: Any, player: int) -> list[str]:
    """The information state's lines less the last, the current observation."""
    text: str = state.information_state_string(player)
    return text.splitlines()[:-1]


def _cut(keep: bool, **params: Any) -> Any:
    """The stacked deal after the lot (player 0 deals) and the cut: AS kept or 2D exposed."""
    state = load(**params).new_initial_state()
    state.apply_action(0)
    _deal(state, hands=HANDS, table=TABLE, keep=keep)
    state.apply_action(KEEP if keep else EXPOSE)
    return state


def _bits(vector: list[float]) -> list[int]:
    return [i for i, bit in enumerate(vector) if bit]


def _entries(vector: list[float], name: str) -> list[float]:
    at = card(name).index * PER_CARD
    return vector[at : at + PER_CARD]


def _flagged(history: list[float], entry: int) -> list[int]:
    """The deck indices of the cards whose ``entry`` is set in the history vector."""
    return [i // PER_CARD for i in range(entry, HISTORY_SIZE, PER_CARD) if history[i]]


# --- the game's new_match ----------------------------------------------------------------


def test_the_games_new_match_is_a_core_match_of_its_players_and_rules() -> None:
    game = load(players=3, rules="cardrulesplus", target=5)
    rules = game.rules
    assert rules.target == 5 and rules.name == "cardrulesplus"
    assert game.new_match() == new_match(3, dealer=0, rules=rules)
    assert game.new_match().dealer == 0
    match = game.new_match(2)
    assert match == new_match(3, dealer=2, rules=rules)
    assert (match.players, match.dealer, match.rules) == (3, 2, rules)
    assert match.phase is Phase.SHUFFLE


# --- chance: the lot and the shuffle -----------------------------------------------------


def test_the_lot_is_an_event_and_a_shuffle_under_way_leaves_the_other_cards() -> None:
    state = load().new_initial_state()
    assert state.history_vector(0) == [0.0] * HISTORY_SIZE
    state.apply_action(1)
    assert state.match_state == new_match(2, dealer=1)
    assert _lines(state, 0) == ["python_chkobba p0 of 2", "dealer p1"]
    assert state.history_vector(1) == [0.0] * HISTORY_SIZE
    size = state.get_game().information_state_tensor_size()
    assert len(state.information_state_tensor(0)) == size
    for dealt in (0, 5):
        state.apply_action(dealt)
    assert state.chance_outcomes() == [(i, 1.0 / 38) for i in range(40) if i not in (0, 5)]
    assert _lines(state, 0)[-1] == "shuffle: 2 cards"


def test_chance_outcomes_are_named() -> None:
    state = load(players=3, rules="cardrulesplus").new_initial_state()
    assert state.action_to_string(CHANCE, 2) == "dealer p2"
    state.apply_action(2)
    assert state.action_to_string(CHANCE, 0) == "deal AS"
    assert state.action_to_string(CHANCE, 1) == "deal AH"
    assert state.action_to_string(CHANCE, 39) == f"deal {DECK[39]}"
    assert state.action_to_string(CHANCE, 40) == "chance 40"
    assert state.action_to_string(CHANCE, -1) == "chance -1"


def test_player_actions_are_named_before_the_lot_under_the_games_rules() -> None:
    state = load().new_initial_state()
    assert state.action_to_string(0, KEEP) == "keep"
    assert state.action_to_string(1, 0) == "play AS"
    assert state.action_to_string(0, 69) == "capture option 27"
    assert state.action_to_string(0, 70) == "action 70"
    # CardRulesPlus allows 56 capture options: ids up to 97.
    three = load(players=3, rules="cardrulesplus").new_initial_state()
    position = Position(new_match(3, rules=profile("cardrulesplus")))
    for action in (0, KEEP, EXPOSE, FIRST_CAPTURE, 80, 97, 98):
        assert three.action_to_string(0, action) == describe(position, action)
    assert three.action_to_string(2, 80) == "capture option 38"
    assert three.action_to_string(2, 98) == "action 98"


# --- the events of a deal ----------------------------------------------------------------


def test_keep_the_table_a_pending_play_its_capture_and_plays_are_events() -> None:
    state = load().new_initial_state()
    state.apply_action(0)
    _deal(state, hands=HANDS, table=TABLE, keep=True)
    assert state.match_state.phase is Phase.CUT
    assert _lines(state, 1) == ["python_chkobba p1 of 2", "dealer p0", "shuffle 1"]
    assert state.history_vector(1) == [0.0] * HISTORY_SIZE
    state.apply_action(KEEP)
    state.apply_action(card("QH").index)
    assert state.position.pending == card("QH")
    state.apply_action(FIRST_CAPTURE)  # 2D+6S
    state.apply_action(card("4S").index)  # laid
    state.apply_action(card("7C").index)  # takes 3C+4S
    public = [
        "dealer p0",
        "shuffle 1",
        "p1 keeps",
        "table 2D 3C 5H 6S",
        "p1 plays QH",
        "takes 2D+6S",
        "p0 4S",
        "p1 7C x 3C+4S",
    ]
    assert _lines(state, 0) == ["python_chkobba p0 of 2", *public]
    assert _lines(state, 1) == ["python_chkobba p1 of 2", *public, "kept AS"]
    assert _bits(state.kept_vector(1)) == [card("AS").index]
    assert _bits(state.kept_vector(0)) == []
    history = state.history_vector(0)
    assert all(_entries(history, name)[FIRST_TABLE] == 1.0 for name in TABLE.split())
    assert _flagged(history, EXPOSED) == []  # kept, not exposed


def test_expose_is_an_event_and_the_exposed_card_is_in_the_history() -> None:
    state = _cut(keep=False)
    assert _lines(state, 0) == [
        "python_chkobba p0 of 2",
        "dealer p0",
        "shuffle 1",
        "p1 exposes 2D",
        "table 2D 3C 5H 6S",
    ]
    history = state.history_vector(0)
    assert _entries(history, "2D")[FIRST_TABLE:] == [1.0, 1.0]
    assert _flagged(history, EXPOSED) == [card("2D").index]
    assert state.kept_vector(1) == [0.0] * len(DECK)
    assert "kept" not in state.information_state_string(1)


def test_a_kept_card_is_remembered_by_its_cutter_once_the_deal_is_over() -> None:
    state = _cut(keep=True)
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    for outcome in range(len(DECK)):  # the next shuffle, in deck order
        state.apply_action(outcome)
    assert state.match_state.phase is Phase.CUT and not state.is_terminal()
    cutter = _lines(state, 1)
    assert "shuffle 1: kept AS" in cutter and "kept AS" not in cutter
    assert cutter[-1] == "shuffle 1: kept AS" and cutter[-2] == "shuffle 2"
    assert not any("kept" in line for line in _lines(state, 0))
    assert state.kept_vector(1) == [0.0] * len(DECK)


def test_deals_voided_at_the_cut_and_the_cards_they_exposed() -> None:
    state = load().new_initial_state()
    state.apply_action(0)
    _deal(state, hands=HANDS, table="5S 5H 5D 2C")  # the cutter exposes 5S: three fives
    state.apply_action(EXPOSE)
    assert state.match_state.phase is Phase.SHUFFLE and state.is_chance_node()
    assert _bits(state.voided_vector()) == [card("5S").index]
    _deal(state, hands=HANDS, table="6S 6H 6D 2C")
    state.apply_action(EXPOSE)
    voided = sorted(c.index for c in cards("5S 6S"))
    assert _bits(state.voided_vector()) == voided
    _deal(state, hands=HANDS, table=TABLE)
    state.apply_action(EXPOSE)
    state.apply_action(card("AS").index)  # laid: the deal goes on, nothing is scored
    assert _bits(state.voided_vector()) == voided
    assert _lines(state, 1) == [
        "python_chkobba p1 of 2",
        "dealer p0",
        "shuffle 1",
        "p1 exposes 5S",
        "void",
        "shuffle 2",
        "p1 exposes 6S",
        "void",
        "shuffle 3",
        "p1 exposes 2D",
        "table 2D 3C 5H 6S",
        "p1 AS",
        "shuffle 1: saw 5S (void)",
        "shuffle 2: saw 6S (void)",
    ]
    assert "saw" not in state.information_state_string(0)


def test_a_deal_without_the_cut_shows_its_table_or_is_void() -> None:
    game = load(rules="cardrulesplus")
    state = game.new_initial_state()
    state.apply_action(1)
    _deal(state, dealer=1, hands=("4S 4H QD", "AS QH 7C"), table="KS KH KD 2C", cut=False)
    voided = state.match_state
    assert voided.phase is Phase.SHUFFLE and state.is_chance_node()
    assert state.history_vector(0) == [0.0] * HISTORY_SIZE
    _deal(state, dealer=1, hands=("4S 4H QD", "AS QH 7C"), table="KS KH 3D 2C", cut=False)
    dealt = state.match_state
    assert dealt.phase is Phase.PLAY
    public = ["dealer p1", "shuffle 1", "void", "shuffle 2", "table 2C 3D KS KH"]
    assert _lines(state, 0) == ["python_chkobba p0 of 2", *public]
    history = state.history_vector(0)
    first = sorted(c.index for c in cards("KS KH 3D 2C"))
    assert _flagged(history, FIRST_TABLE) == first
    assert state.voided_vector() == [0.0] * len(DECK)


# --- the end of the game -----------------------------------------------------------------


def _voided_once(max_shuffles: int) -> Any:
    state = load(rules="cardrulesplus", max_shuffles=max_shuffles).new_initial_state()
    state.apply_action(1)
    _deal(state, dealer=1, hands=("4S 4H QD", "AS QH 7C"), table="KS KH KD 2C", cut=False)
    return state


def test_max_shuffles_stops_the_game_after_exactly_that_many_shuffles() -> None:
    stopped = _voided_once(max_shuffles=1)
    assert stopped.is_terminal() and stopped.returns() == [0.0, 0.0]
    assert stopped.chance_outcomes() == []
    going = _voided_once(max_shuffles=2)
    assert going.is_chance_node() and len(going.chance_outcomes()) == len(DECK)
    state = load(max_shuffles=1).new_initial_state()  # voided at the cut
    state.apply_action(0)
    _deal(state, hands=HANDS, table="5S 5H 5D 2C")
    state.apply_action(EXPOSE)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_a_terminal_state_refuses_an_action_naming_it() -> None:
    state = _voided_once(max_shuffles=1)
    assert refusal(lambda: state.apply_action(7)) == (
        "action 7 cannot be applied: the game is over (terminal state)"
    )


# --- copies ------------------------------------------------------------------------------


def test_a_pickled_or_serialized_state_keeps_its_captures() -> None:
    state = _cut(keep=False)
    state.apply_action(card("QH").index)  # 2D+6S or 3C+5H
    state.apply_action(FIRST_CAPTURE + 1)
    game = state.get_game()
    _, deserialized = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    for copied in (pickle.loads(pickle.dumps(state)), deserialized):
        for player in range(2):
            assert copied.information_state_string(player) == state.information_state_string(player)
        assert _lines(copied, 0)[-2:] == ["p1 plays QH", "takes 3C+5H"]


# --- resample_from_infostate -------------------------------------------------------------


def _zero() -> float:
    return 0.0


def _one() -> float:
    return 1.0


def test_resampling_before_the_lot_gives_the_same_state() -> None:
    state = load(players=4).new_initial_state()
    for sampler in (_zero, _one):
        sample = state.resample_from_infostate(3, sampler)
        assert sample.match_state is None and sample.is_chance_node()
        assert sample.chance_outcomes() == state.chance_outcomes()
        assert sample.information_state_string(3) == state.information_state_string(3)


def test_resampling_a_shuffle_under_way_draws_other_cards() -> None:
    state = load().new_initial_state()
    state.apply_action(0)
    for dealt in (7, 30, 12):
        state.apply_action(dealt)
    # Sampler 0 draws the deck rotated by one (AH AD AC 2S ... AS), 1.0 the deck itself.
    for sampler, drawn in ((_zero, (1, 2, 3)), (_one, (0, 1, 2))):
        sample = state.resample_from_infostate(1, sampler)
        assert sample.chance_outcomes() == [(i, 1.0 / 37) for i in range(40) if i not in drawn]
        assert sample.information_state_string(1) == state.information_state_string(1)
        for outcome, _ in sample.chance_outcomes():
            sample.apply_action(outcome)
        assert sample.match_state.stock[:3] == tuple(DECK[i] for i in drawn)
    assert state.chance_outcomes() == [(i, 1.0 / 37) for i in range(40) if i not in (7, 30, 12)]


def _dealt_in_deck_order(core: Any, player: int, rotated: bool) -> Any:
    """``core`` with the cards ``player`` cannot see dealt again from deck order (rotated
    by one, as sampler 0 draws; as they lie in deck order, as 1.0 draws) into their
    places: the other hands in seat order, then the stock from the top, less a cutter's
    top card at the cut."""
    places = [
        (seat, i)
        for seat, hand in enumerate(core.hands)
        if seat != player
        for i in range(len(hand))
    ]
    first = 1 if core.phase is Phase.CUT and core.current_player == player else 0
    places += [(-1, i) for i in range(first, len(core.stock))]
    held = [core.stock[i] if seat < 0 else core.hands[seat][i] for seat, i in places]
    fresh = sorted(held)
    if rotated:
        fresh = fresh[1:] + fresh[:1]
    placed = dict(zip(places, fresh, strict=True))
    hands = tuple(
        tuple(placed.get((seat, i), c) for i, c in enumerate(hand))
        for seat, hand in enumerate(core.hands)
    )
    stock = tuple(placed.get((-1, i), c) for i, c in enumerate(core.stock))
    return attrs.evolve(core, hands=hands, stock=stock)


def test_resampling_at_the_cut_keeps_the_top_card_for_the_cutter_alone() -> None:
    state = load().new_initial_state()
    state.apply_action(0)
    _deal(state, hands=HANDS, table=TABLE, keep=True)
    core = state.match_state
    stock = core.stock
    assert stock[0] == card("AS") and state.current_player() == 1
    for sampler, rotated in ((_zero, True), (_one, False)):
        cutter = state.resample_from_infostate(1, sampler).match_state
        assert cutter == _dealt_in_deck_order(core, 1, rotated)
        assert cutter.stock[0] == card("AS") and cutter.hands[1] == core.hands[1]
        dealer = state.resample_from_infostate(0, sampler).match_state
        assert dealer == _dealt_in_deck_order(core, 0, rotated)
        assert dealer.hands[0] == core.hands[0]
    # Sampler 0 at the cut (no hands yet) deals the unseen stock in deck order from its
    # second card: the cutter keeps the AS it has seen on top, the dealer does not.
    assert state.resample_from_infostate(1, _zero).match_state.stock[:3] == cards("AS AD AC")
    assert state.resample_from_infostate(0, _zero).match_state.stock[:3] == cards("AH AD AC")


def test_resampling_in_play_moves_every_hidden_card_and_follows_the_kept_one() -> None:
    state = _cut(keep=True)
    core = state.match_state
    assert core.current_player == 1 and core.hands == (cards(HANDS[0]), cards(HANDS[1]))
    # For the cutter (to move): player 0's hand, then the whole stock.
    mover = state.resample_from_infostate(1, _zero)
    assert mover.match_state == _dealt_in_deck_order(core, 1, rotated=True)
    assert mover.match_state.hands[0] == cards("AD AC 2S")  # AH, the lowest, goes last
    assert mover.match_state.table == core.table
    assert mover.kept_vector(1) == state.kept_vector(1)
    assert mover.information_state_string(1) == state.information_state_string(1)
    # For player 0: the cutter's hand first, the kept AS in its first place. The card
    # dealt into that place is the card the cutter kept in that world: AH, after the
    # lowest unseen card AS.
    other = state.resample_from_infostate(0, _zero)
    assert other.match_state == _dealt_in_deck_order(core, 0, rotated=True)
    assert other.match_state.hands[1][0] == card("AH")
    assert _bits(other.kept_vector(1)) == [card("AH").index]
    assert other.information_state_string(1).splitlines()[-2] == "kept AH"
    assert other.information_state_string(0) == state.information_state_string(0)
    for player in range(2):
        same = state.resample_from_infostate(player, _one)
        assert same.match_state == _dealt_in_deck_order(core, player, rotated=False)
        assert same.information_state_string(player) == state.information_state_string(player)


# --- the full text of the refusals -------------------------------------------------------


def test_resampling_refusals_name_the_player_and_the_sampler() -> None:
    state = _cut(keep=False)
    assert refusal(lambda: state.resample_from_infostate(5, _zero)) == (
        "resample_from_infostate: player must be 0 to 1 in this 2-player game, not 5"
    )
    assert refusal(lambda: state.resample_from_infostate(0, 0.5)) == (
        "resample_from_infostate: the probability sampler must be a function returning "
        "a number in [0, 1), not 0.5"
    )
