"""A typed analysis script: rule profiles, records, snapshots and outcomes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import attrs
from typing_extensions import assert_type

from chkobba import (
    CARD_RULES_PLUS,
    PROFILES,
    TUNISIAN,
    DealScore,
    Move,
    MoveOutcome,
    Record,
    RecordError,
    Rules,
    State,
    apply_with_outcome,
    card,
    cards,
    check_state,
    legal_moves,
    new_match,
    random_shuffle,
    rollout,
)
from chkobba.events import KINDS, Kind
from chkobba.rules import MAJORITIES, VOID_DEALS, Majority, VoidDeal

VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


def house_profiles(path: Path) -> list[Rules]:
    short = attrs.evolve(TUNISIAN, name="short", target=11)
    assert_type(short, Rules)
    no_cut = Rules(name="no-cut", cut=False, void_deal="never", majority="most")
    loaded = Rules.load(path)
    assert_type(PROFILES["tunisian"], Rules)
    # Only name, capture_values and target are positional (the flags are keyword-only).
    Rules("mine", VALUES, 21, False)  # type: ignore[call-arg, arg-type]
    return [short, no_cut, loaded, Rules.from_dict(short.to_dict()), CARD_RULES_PLUS]


def from_the_command_line(void: str, majority: str) -> Rules:
    # Text narrows to the Literal types by membership: no cast.
    if void not in VOID_DEALS or majority not in MAJORITIES:
        raise SystemExit(f"unknown rule: {void!r} or {majority!r}")
    assert_type(void, VoidDeal)
    assert_type(majority, Majority)
    return attrs.evolve(TUNISIAN, name="house", void_deal=void, majority=majority)


def first_deal(seed: int) -> Record:
    rng = random.Random(seed)
    state = new_match()
    moves: list[Move] = []
    while not state.deal_scores:
        move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        state, outcome = apply_with_outcome(state, move)
        assert_type(outcome, MoveOutcome)
        kind: Kind = outcome.kind
        assert kind in KINDS
        moves.append(move)
    return Record(players=2, dealer=0, moves=moves, tags={"event": "typed"})


def study(path: Path) -> list[tuple[int, ...]]:
    try:
        record = Record.load(path)
    except RecordError as error:
        print(error)
        return []
    states = record.replay()
    assert_type(states, tuple[State, ...])
    assert_type(record.moves, tuple[Move, ...])
    assert_type(record.players_of_moves(), tuple[int | None, ...])
    record.save(path.with_suffix(".copy.json"))
    return [deal.score.points for deal in record.deals() if deal.score is not None]


def a_scored_deal_for_a_user_interface_test() -> DealScore:
    score = DealScore(0, None, 1, 0, (0, 0), (2, 1), (21, 19), (5, 5), (1, 3), (2, 2))
    old_names = DealScore(
        cards=0,
        diamonds=None,
        bermila=1,
        seven_of_diamonds=0,
        chkobbas=(0, 0),
        points=(2, 1),
        card_counts=(21, 19),
        diamond_counts=(5, 5),
        seven_counts=(1, 3),
        six_counts=(2, 2),
    )
    assert old_names == score
    DealScore(nonsense=1)  # type: ignore[call-overload]
    return score


def snapshot(state: State) -> State:
    data = json.loads(json.dumps(state.to_dict()))
    return check_state(State.from_dict(data))


def random_deal(state: State, seed: int) -> State:
    played: list[Move] = []
    end = rollout(state, random.Random(seed), until="deal", moves=played)
    assert_type(end, State)
    return end


def an_outcome_for_a_user_interface_test() -> MoveOutcome:
    """An outcome built by hand from lists, as the constructor takes them (and not 42)."""
    table = list(cards("5D 3D 7S 7D"))
    MoveOutcome("cut", player=1, keep=False, exposed=card("5D"), dealt_table=table)
    MoveOutcome("play", player=0, card=card("QH"), captured=42)  # type: ignore[arg-type]
    return MoveOutcome("play", player=0, card=card("QH"), captured=[card("2D"), card("6S")])
