"""A docstring-contract audit of the public API: what the prose of a docstring promises.

The ``>>>`` examples of the docstrings run as doctests; nothing checked the sentences
around them ("raises ... naming ...", "in the order of ...", "``None`` when ...", "the
same as ...", "nothing is checked here"). Each public name of ``chkobba.__all__`` and of
the public modules (records, views, events, game, snapshots, history, deals, rollouts,
notation, scoring, captures, checks, rules, cards) had its docstring read and each
checkable promise run; most were already pinned by the suite. The tests here are the
promises no test pinned, one test per promise, named after it and grouped by module.

Six promises were found false and the code or the docstring put right (CHANGELOG.md,
"Hardening (#10)"): a combining mark quoted raw in an error message, ``cards`` said to
read commas as ``parse_move`` does, a category won by nobody said to be a tie, a
hand-built ``MoveOutcome`` with a card twice or an exposed card not its table's first,
``Game.deal`` said to lead to a cut under every profile, and totals too long for JSON to
write. Their tests state the promise as it stands now.
"""

from __future__ import annotations

import builtins
import itertools
import json
import random
from collections.abc import Callable, Generator
from pathlib import Path
from typing import IO, Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    Card,
    ChkobbaError,
    Cut,
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    Phase,
    Play,
    Record,
    RecordError,
    Rules,
    Shuffle,
    State,
    apply,
    capture_options,
    card,
    cards,
    check_state,
    format_cards,
    legal_moves,
    new_match,
    observe,
    parse_move,
    random_shuffle,
    rollout,
    score_deal,
)
from chkobba import records as records_module
from chkobba.captures import clear_caches, hand_plays, options_for_card, sum_groups
from chkobba.checks import broken_state
from chkobba.deals import split_deals
from chkobba.events import MoveOutcome, apply_with_outcome
from chkobba.history import PER_CARD, DealHistory
from chkobba.notation import MOVE_TEXT_LIMIT
from chkobba.views import complete_state
from tests.helpers import random_history
from tests.strategies import (
    History,
    distinct_cards,
    examples,
    histories,
    rule_profiles,
    side_piles,
    table_and_card,
)

# --- cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize("invisible", ["\ufe0f", "\u034f"])
def test_card_writes_a_character_that_would_not_show_escaped(invisible: str) -> None:
    with pytest.raises(NotationError) as refused:
        card("7D" + invisible)
    assert invisible not in str(refused.value)


@pytest.mark.parametrize("taken", ["2D,,6S", "2D, ,6S", "2D,6S,"])
def test_cards_reads_commas_like_spaces_where_parse_move_wants_a_card_between(
    taken: str,
) -> None:
    # cards(): "commas read like spaces (two in a row, or one at the end, are spaces too:
    # parse_move is stricter within a move, where an empty place between them is a card
    # missing)".
    assert cards(taken) == cards("2D 6S")
    with pytest.raises(NotationError, match="missing"):
        parse_move("QH x " + taken)


# --- rules ---------------------------------------------------------------------------------


_PROFILE_FIELDS = [field.name for field in attrs.fields(Rules) if field.init]


@pytest.mark.parametrize("missing", _PROFILE_FIELDS)
def test_rules_from_dict_requires_every_field(missing: str) -> None:
    # "with every field required": unlike a record's rules, where 0.1.0's three fields do.
    data = {name: value for name, value in TUNISIAN.to_dict().items() if name != missing}
    with pytest.raises(ChkobbaError) as refused:
        Rules.from_dict(data)
    assert str(refused.value) == f"rules: missing field {missing!r}"


def test_rules_to_dict_is_the_rules_object_of_a_snapshot_and_of_a_record() -> None:
    house = attrs.evolve(CARD_RULES_PLUS, name="house", target=7, primiera=True)
    state = apply(new_match(3, rules=house), random_shuffle(random.Random(2)))
    assert state.to_dict()["rules"] == house.to_dict()
    assert observe(state, 2).to_dict()["rules"] == house.to_dict()
    assert Record(players=3, rules=house).to_dict()["rules"] == house.to_dict()


def test_a_category_played_and_won_by_nobody_is_a_tie_or_nobody_past_half() -> None:
    # Rules.categories and DealScore: None is a tie or, with three sides and "more than
    # half", no side past half (15-13-12); with "most", 15 cards win.
    three = Rules(name="house of three", players=(3,))
    piles = (DECK[:15], DECK[15:28], DECK[28:])
    score = score_deal(piles, (0, 0, 0), three)
    assert "cards" in three.categories and score.cards_winner is None
    assert score.card_counts == (15, 13, 12)
    most = attrs.evolve(three, majority="most")
    assert score_deal(piles, (0, 0, 0), most).cards_winner == 0


# --- captures ------------------------------------------------------------------------------


@settings(max_examples=examples(100), deadline=None)
@given(table_and_card(), rule_profiles())
def test_options_for_card_is_capture_options_on_a_tuple(
    table_and_played: tuple[tuple[Card, ...], Card], rules: Rules
) -> None:
    table, played = table_and_played
    assert options_for_card(tuple(table), played, rules) == capture_options(table, played, rules)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.integers(1, 12), max_size=9).map(tuple), st.integers(1, 40))
def test_sum_groups_are_every_group_of_two_or_more_in_lexicographic_order(
    values: tuple[int, ...], target: int
) -> None:
    every = [
        group
        for size in range(2, len(values) + 1)
        for group in itertools.combinations(range(len(values)), size)
        if sum(values[i] for i in group) == target
    ]
    assert sum_groups(values, target) == tuple(sorted(every))


def test_clear_caches_empties_the_capture_caches() -> None:
    sum_groups((2, 6, 5, 3), 8)
    assert sum_groups.cache_info().currsize > 0
    clear_caches()
    assert sum_groups.cache_info().currsize == 0
    assert sum_groups((2, 6, 5, 3), 8) == ((0, 1), (2, 3))  # and it works cold


@settings(max_examples=examples(100), deadline=None)
@given(distinct_cards(0, 13), rule_profiles())
def test_hand_plays_come_in_capture_options_order_card_by_card_in_hand_order(
    dealt: tuple[Card, ...], rules: Rules
) -> None:
    # hand_plays: "Each card goes with each of its capture options, or alone when it
    # captures nothing ... in the order of capture_options for each card in hand order".
    hand, table = dealt[:3], dealt[3:]
    expected = [
        Play(held, option)
        for held in hand
        for option in capture_options(table, held, rules) or [frozenset()]
    ]
    assert list(hand_plays(hand, table, rules)) == expected


# --- scoring -------------------------------------------------------------------------------


@pytest.mark.parametrize("sides", [2, 3])
def test_a_deal_scores_sides_is_how_many_sides_it_was_scored_for(sides: int) -> None:
    piles = tuple(DECK[side::sides] for side in range(sides))
    score = score_deal(piles, (0,) * sides, CARD_RULES_PLUS)
    assert score.sides == sides == len(score.points) == len(score.card_counts)


@settings(max_examples=examples(100), deadline=None)
@given(st.data(), rule_profiles(players=(2, 3)))
def test_the_last_capturer_matters_only_with_ties_to_the_last_capturer(
    data: st.DataObject, rules: Rules
) -> None:
    sides = data.draw(st.sampled_from((2, 3)))
    piles, sweeps = data.draw(side_piles(sides))
    last = data.draw(st.integers(0, sides - 1))
    untied = attrs.evolve(rules, ties_to_last_capturer=False)
    assert score_deal(piles, sweeps, untied, last_capturer_side=last) == score_deal(
        piles, sweeps, untied
    )


# --- notation ------------------------------------------------------------------------------


def test_the_longest_canonical_move_is_a_shuffle_of_127_characters() -> None:
    # MOVE_TEXT_LIMIT's docstring: "The longest canonical move, a shuffle, has 127
    # characters" (the limit leaves room above it for the forgiving forms).
    assert len(str(random_shuffle(random.Random(3)))) == 127
    # The longest play: a card taking the 39 others.
    greediest = Play(DECK[-1], DECK[:-1])
    assert len(str(greediest)) < 127 < MOVE_TEXT_LIMIT
    assert parse_move(str(greediest)) == greediest


# --- checks --------------------------------------------------------------------------------


def test_broken_state_gives_back_the_error_of_a_sound_state() -> None:
    # "if it finds nothing, ``error`` itself (a bug, not bad input)".
    error = KeyError("a bug")
    assert broken_state(new_match(), error) is error


@pytest.mark.parametrize("state", [new_match(), attrs.evolve(new_match(), dealer=9), "no state"])
def test_broken_state_gives_back_a_memory_error_always(state: object) -> None:
    error = MemoryError()
    assert broken_state(state, error) is error


# --- deals ---------------------------------------------------------------------------------


def test_moves_before_the_first_shuffle_belong_to_no_deal() -> None:
    states, moves = random_history(5, max_moves=120)
    assert sum(isinstance(m, Shuffle) for m in moves) >= 2  # two deals at least
    from_the_cut = split_deals(states[1:], moves[1:])
    whole = split_deals(states, moves)
    assert [[(m.index + 1, m.player, m.move) for m in deal.moves] for deal in from_the_cut] == [
        [(m.index, m.player, m.move) for m in deal.moves] for deal in whole[1:]
    ]
    assert [deal.number for deal in from_the_cut] == list(range(1, len(whole)))
    assert from_the_cut[0].first_index == whole[1].first_index - 1
    assert split_deals(states[1:3], moves[1:2]) == ()


# --- history -------------------------------------------------------------------------------


def test_started_begins_a_new_deals_history_whatever_came_before() -> None:
    old = DealHistory().started(cards("AS 2S 3S 4S"), exposed=card("AS"))
    old = old.played(1, card("5D"), frozenset(cards("AS 4S")))
    new = old.started(cards("KS KH 7D 2C"), exposed=None)
    assert new == DealHistory(frozenset(cards("KS KH 7D 2C")), None, ())
    assert old.plays == ((1, card("5D"), frozenset(cards("AS 4S"))),)  # unchanged


def test_played_by_is_the_seat_offset_from_the_viewer_of_four() -> None:
    # The module docstring: "one-hot seat offset from the viewer (4 entries)".
    history = DealHistory().started(cards("AS 2S 3S 4S"), exposed=None)
    for seat, played in enumerate(cards("5D 5H 5C 5S")):
        history = history.played(seat, played, frozenset())
    for viewer in range(4):
        vector = history.vector(viewer=viewer, players=4)
        for seat, played in enumerate(cards("5D 5H 5C 5S")):
            at = played.index * PER_CARD
            offset = [0.0] * 4
            offset[(seat - viewer) % 4] = 1.0
            assert vector[at : at + 4] == offset
            assert vector[at + 4] == (seat + 1) / 40


# --- events --------------------------------------------------------------------------------


@settings(max_examples=examples(20), deadline=None)
@given(histories(max_moves=120))
def test_an_outcomes_deal_score_is_written_as_a_state_writes_it(history: History) -> None:
    # MoveOutcome.to_dict: "the deal score as State.to_dict writes one"; captures in deck
    # order.
    for before, move, after in zip(
        history.states[:-1], history.moves, history.states[1:], strict=True
    ):
        _, outcome = apply_with_outcome(before, move)
        data = outcome.to_dict()
        if outcome.deal_score is not None:
            assert data["deal_score"] == after.to_dict()["deal_scores"][-1]
        assert data["captured"] == format_cards(outcome.captured).split()


def _an_outcome_ending_a_deal() -> MoveOutcome:
    state, rng = new_match(), random.Random(1)
    while True:
        move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        state, outcome = apply_with_outcome(state, move)
        if outcome.deal_score is not None:
            return outcome


def _deal_score_data(**changed: object) -> dict[str, object]:
    data = _an_outcome_ending_a_deal().to_dict()
    return {**data, "deal_score": {**data["deal_score"], **changed}}


_PLAYED = MoveOutcome("play", player=0, card=card("7D"), captured=cards("2D 5S")).to_dict()


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (  # "exposed: the card a cut exposed (the first card of the table)"
            lambda: MoveOutcome(
                "cut", player=1, keep=False, exposed=card("7D"), dealt_table=cards("2D 3D 4D 5D")
            ),
            "MoveOutcome: exposed 7D is not the first card of dealt_table (2D)",
        ),
        (  # from_dict read ["2D", "2D", "5S"] as 2D 5S without a word
            lambda: MoveOutcome.from_dict({**_PLAYED, "captured": ["2D", "2D", "5S"]}),
            "outcome: MoveOutcome: 2D is twice in captured",
        ),
        (
            lambda: MoveOutcome("play", player=0, card=card("7D"), leftovers=cards("3S 4S 3S")),
            "MoveOutcome: 3S is twice in leftovers",
        ),
        (
            lambda: MoveOutcome("shuffle", dealt_table=cards("2D 2D 4D 5D")),
            "MoveOutcome: 2D is twice in dealt_table",
        ),
        (  # a seat of 4,301 digits made an outcome that JSON could not write
            lambda: MoveOutcome.from_dict({**_PLAYED, "player": 10**4300}),
            "outcome: MoveOutcome: player must be a whole number from 0 to 3 or None, not "
            "an integer of about 4301 digits",
        ),
        (  # a deal score no deal makes: checked as check_state checks a state's
            lambda: MoveOutcome.from_dict(_deal_score_data(points=[10**4300, 0])),
            "outcome: MoveOutcome: deal_score.points (an integer of about 4301 digits, 0) are "
            "not the chkobbas plus the categories won, (1, 4)",
        ),
        (
            lambda: MoveOutcome.from_dict(_deal_score_data(chkobbas=[21, 0], points=[22, 3])),
            "outcome: MoveOutcome: deal_score.chkobbas (21, 0) are more than the 20 a deal can "
            "make (each takes two cards or more)",
        ),
        (
            lambda: MoveOutcome.from_dict(_deal_score_data(points=[1, 2, 3, 4])),
            "outcome: MoveOutcome: deal_score.points must be 2 or 3 whole numbers, one per "
            "side, not (1, 2, 3, 4)",
        ),
    ],
)
def test_an_outcome_whose_fields_contradict_their_meaning_is_refused(
    build: Callable[[], MoveOutcome], message: str
) -> None:
    with pytest.raises(ChkobbaError) as refused:
        build()
    assert str(refused.value) == message


def test_an_outcome_that_ends_a_deal_reads_back_as_it_was_sent() -> None:
    outcome = _an_outcome_ending_a_deal()
    assert MoveOutcome.from_dict(json.loads(json.dumps(outcome.to_dict()))) == outcome


# --- game ----------------------------------------------------------------------------------


def test_after_a_deal_the_cutter_decides_or_without_a_cut_the_first_player_plays() -> None:
    # Game.deal: the cutter decides under a profile with a cut; without one the cards are
    # dealt at once and the first player plays.
    game = Game(seed=1)
    game.deal()
    assert game.phase is Phase.CUT
    assert set(game.legal_moves) == {Cut(keep=True), Cut(keep=False)}
    game = Game(rules=CARD_RULES_PLUS, seed=1)
    game.deal()
    assert game.phase is Phase.PLAY and game.current_player == game.state.cutter
    assert all(isinstance(move, Play) for move in game.legal_moves)


def test_a_game_at_its_end_has_no_move_and_nobody_to_move() -> None:
    # Game.legal_moves: "() at a shuffle and when it is over"; current_player: "None at a
    # shuffle and once the match is over"; winner: "the winning side once the match is over".
    played: list[Move] = []
    end = rollout(new_match(), random.Random(9), until="match", moves=played)
    game = Game.from_record(Record(players=2, moves=played))
    assert game.is_over and game.phase is Phase.OVER and game.state == end
    assert game.legal_moves == () and game.current_player is None
    assert game.winner == end.winner is not None
    with pytest.raises(IllegalMoveError, match="nothing to deal in phase OVER"):
        game.deal()
    assert game.state == end and len(game.moves) == len(played)


# --- records -------------------------------------------------------------------------------


def test_from_states_takes_the_first_legal_move_when_two_give_the_same_state() -> None:
    # "Where two moves give the same state (keep and expose when the deal is void either
    # way), the first legal one is taken": legal_moves lists keep first.
    start = new_match()
    cut = apply(start, random_shuffle(random.Random(92)))
    kept, exposed = apply(cut, Cut(keep=True)), apply(cut, Cut(keep=False))
    assert kept == exposed and kept.phase is Phase.SHUFFLE  # void either way
    assert legal_moves(cut)[0] == Cut(keep=True)
    assert Record.from_states([start, cut, exposed]).moves[1] == Cut(keep=True)


def test_iter_lines_opens_its_file_at_the_first_record_and_closes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "matches.jsonl"
    line = Record(players=2).to_json(compact=True)
    path.write_text(f"{line}\n{line}\n{line}\n", encoding="utf-8")
    opened: list[IO[Any]] = []

    def tracked(*args: Any, **kwargs: Any) -> IO[Any]:
        # Handed to the reader, which closes it (what the test checks).
        file: IO[Any] = builtins.open(*args, **kwargs)  # noqa: SIM115
        opened.append(file)
        return file

    monkeypatch.setattr(records_module, "open", tracked, raising=False)
    missing = Record.iter_lines(tmp_path / "none.jsonl")  # checked, not opened
    with pytest.raises(FileNotFoundError):
        next(missing)
    records = Record.iter_lines(path)
    assert isinstance(records, Generator) and opened == []
    assert next(records) == Record(players=2)
    assert len(opened) == 1 and not opened[0].closed
    records.close()  # closed before its last record
    assert opened[0].closed
    assert list(Record.iter_lines(path)) == [Record(players=2)] * 3
    assert len(opened) == 2 and opened[1].closed  # closed after the last


def test_a_record_that_builds_writes_json_that_loads_again() -> None:
    # Record: building checks its start, "so a saved record always loads again". Totals
    # of 4,301 digits built a record that JSON could not write (a bare ValueError).
    huge = 10**4300
    with pytest.raises(RecordError, match="scores must be at most 1,000,000,000"):
        Record(players=2, scores=(huge, huge))
    record = Record(players=2, scores=(10**9, 10**9))  # level totals past the target
    assert Record.from_json(record.to_json()) == record


# --- state ---------------------------------------------------------------------------------


def test_legal_plays_are_worked_out_once_and_shared_with_legal_moves() -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    assert state.phase is Phase.PLAY
    plays = state.legal_plays
    assert plays and state.legal_plays is plays and legal_moves(state) is plays
    cutting = apply(new_match(), random_shuffle(random.Random(4)))
    assert new_match().legal_plays == () and cutting.legal_plays == ()  # () outside PLAY


# --- views ---------------------------------------------------------------------------------


def test_complete_state_checks_nothing_about_the_guess() -> None:
    # "nothing is checked here, so an inconsistent guess gives a state the engine may
    # reject"
    view = observe(apply(new_match(), random_shuffle(random.Random(6))), 0)
    guessed = complete_state(view, ((), ()), ())
    assert isinstance(guessed, State) and guessed.stock == () and guessed.hands == ((), ())
    with pytest.raises(ChkobbaError, match="inconsistent state"):
        check_state(guessed)
