"""docs/upgrading.md, "Upgrading from 0.1.0": every claim of the page, one test each.

The page tells a 0.1.0 user what may break or behave differently. Each of its items (a
bullet starting with a bold lead) is listed in ``PAGE`` below with the tests that pin it,
and the last test checks that the page and ``PAGE`` list the same sections and items, so
neither can change without the other.

The tests assert this version's behaviour. Where a claim is a difference from 0.1.0,
what 0.1.0 did was measured once by running the same call against the release's
sources (``git worktree add /tmp/v010 3ecc727``, then ``PYTHONPATH=/tmp/v010/src``), and
is pinned here as a constant next to the test, or read from the files 0.1.0 wrote
(``tests/data/text_0_1_0/``, ``tests/data/pickled_0_1_0.pkl``).
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
import re
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import attrs
import pytest

import chkobba
from chkobba import (
    CARD_RULES_PLUS,
    TUNISIAN,
    ChkobbaError,
    Cut,
    DealScore,
    Game,
    IllegalMoveError,
    MoveOutcome,
    NotationError,
    Phase,
    Play,
    PlayerView,
    Rank,
    Record,
    RecordError,
    Rules,
    Shuffle,
    State,
    Suit,
    apply,
    apply_with_outcome,
    capture_options,
    card,
    cards,
    check_state,
    check_view,
    legal_moves,
    new_match,
    observe,
    parse_move,
    random_shuffle,
    render,
    rollout,
    score_deal,
)
from chkobba.arena import play_match, subseed, tournament
from chkobba.bots import GreedyBot, ISMCTSBot, RandomBot, determinize, make_bot
from chkobba.observations import LAYOUT, OBSERVATION_SIZE, observation_vector
from tests.helpers import run_cli

ROOT = Path(__file__).resolve().parent.parent
PAGE_PATH = ROOT / "docs" / "upgrading.md"
DATA = Path(__file__).parent / "data"
RECORDS_0_1_0 = DATA / "text_0_1_0" / "records"
#: The 0.1.0 records whose profile is out of this version's range.
OUT_OF_RANGE_0_1_0 = {
    "edge_rules_big_target.json": "target",
    "edge_rules_big_value.json": "capture_values",
    "edge_rules_empty_name.json": "name",
    "edge_rules_long_name.json": "name",
    "edge_rules_tab_in_name.json": "name",
}


def _record_0_1_0(name: str) -> Record:
    return Record.load(RECORDS_0_1_0 / name)


def _state_after(record: Record, moves: int) -> State:
    state = new_match(record.players, dealer=record.dealer)
    for move in record.moves[:moves]:
        state = apply(state, move)
    return state


def _mid_deal() -> State:
    """A state where player 1 is to play (after the cut), from a record 0.1.0 wrote."""
    state = _state_after(_record_0_1_0("arena_2p.json"), 20)
    assert state.phase is Phase.PLAY and state.current_player == 1
    return state


def _score() -> DealScore:
    return score_deal([cards("7D 7C 7H 6S 2D"), cards("AS")], [1, 0])


# --- New in this release -------------------------------------------------------------------


def test_new_rule_profiles_and_three_players() -> None:
    assert set(chkobba.PROFILES) >= {"tunisian", "cardrulesplus"}
    assert CARD_RULES_PLUS.players == (2, 3, 4)
    assert new_match(3, rules=CARD_RULES_PLUS).sides == 3
    assert Rules.from_dict(TUNISIAN.to_dict()) == TUNISIAN
    code, out, _ = run_cli("rules", "cardrulesplus")
    assert code == 0 and Rules.from_dict(json.loads(out)) == CARD_RULES_PLUS


def test_new_rollout_plays_to_the_end_of_the_deal() -> None:
    end = rollout(new_match(), random.Random(1))
    assert len(end.deal_scores) >= 1


def test_new_states_and_views_round_trip_through_json() -> None:
    state = _mid_deal()
    assert State.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    view = observe(state, 1)
    assert PlayerView.from_dict(json.loads(json.dumps(view.to_dict()))) == view
    assert State.from_json(state.to_json()) == state
    assert PlayerView.from_json(view.to_json(compact=True)) == view


def test_new_apply_with_outcome_says_what_a_move_did() -> None:
    state = _mid_deal()
    after, outcome = apply_with_outcome(state, legal_moves(state)[0])
    assert after == apply(state, legal_moves(state)[0])
    assert outcome.player == 1
    assert MoveOutcome.from_json(outcome.to_json()) == outcome
    assert MoveOutcome.json_schema()["$id"] == "urn:chkobba:outcome:1"
    game = Game(seed=1)
    game.deal()
    assert game.move_outcome() == apply_with_outcome(new_match(), game.moves[0])[1]


def test_new_check_state_and_check_view() -> None:
    state = _mid_deal()
    assert check_state(state) is state
    assert check_view(observe(state, 0)) == observe(state, 0)


def test_new_gymnasium_environment_and_policy_bridges() -> None:
    pytest.importorskip("gymnasium")
    pytest.importorskip("numpy")
    from chkobba.bots import BotActions, PolicyBot
    from chkobba.gymnasium import ChkobbaEnv

    env = ChkobbaEnv(opponent="random")
    _, info = env.reset(seed=1)
    assert "action_mask" in info
    assert callable(PolicyBot) and callable(BotActions)


def test_new_expert_bot_reviews_and_time_limits() -> None:
    from chkobba.bots import ExpertBot
    from chkobba.bots.analysis import rank_moves, review_record
    from chkobba.bots.endgame import solve

    assert isinstance(make_bot("expert", seed=1), ExpertBot)
    assert callable(rank_moves) and callable(review_record) and callable(solve)
    timed = make_bot("ismcts:seconds=0.5", seed=1)
    assert isinstance(timed, ISMCTSBot) and timed.seconds == 0.5
    code, out, _ = run_cli("analyse", "--help")
    assert code == 0 and "--worst" in out


def test_new_tournament_datasets_and_ratings(tmp_path: Path) -> None:
    from chkobba.ratings import bradley_terry

    result = tournament(["random", "greedy"], games=2, seed=1, records=True)
    assert len(result.head_to_head()) == 2 and callable(bradley_terry)
    streamed: list[Record] = []
    with ThreadPoolExecutor(1) as executor:
        alike = tournament(
            ["random", "greedy"],
            games=2,
            seed=1,
            executor=executor,
            records="stream",
            on_match=lambda match: streamed.append(match.record) if match.record else None,
        )
    assert alike.bots == result.bots
    assert streamed == [match.record for match in result.matches]
    path = tmp_path / "matches.jsonl"
    records = [match.record for match in result.matches]
    path.write_text("".join(r.to_json(compact=True) + "\n" for r in records if r), "utf-8")
    assert len(Record.load_lines(path)) == 2 and len(list(Record.iter_lines(path))) == 2


# --- Deprecated names ----------------------------------------------------------------------

OLD_WINNER_NAMES = {
    "cards": "cards_winner",
    "diamonds": "diamonds_winner",
    "bermila": "bermila_winner",
    "seven_of_diamonds": "seven_of_diamonds_winner",
}


@pytest.mark.parametrize("old", sorted(OLD_WINNER_NAMES))
def test_deal_score_old_winner_names_still_read_and_warn_at_the_callers_line(old: str) -> None:
    score = _score()
    with pytest.warns(DeprecationWarning, match=rf"DealScore\.{old} is the 0\.1\.0 name") as w:
        value = getattr(score, old)
    assert value == getattr(score, OLD_WINNER_NAMES[old])
    assert [warning.filename for warning in w] == [__file__]


def test_deal_score_old_keywords_still_build_a_score_and_warn() -> None:
    fields: dict[str, Any] = {
        "chkobbas": (1, 0),
        "points": (5, 0),
        "card_counts": (21, 19),
        "diamond_counts": (6, 4),
        "seven_counts": (3, 1),
        "six_counts": (2, 2),
    }
    with pytest.warns(DeprecationWarning) as w:
        old = DealScore(cards=0, diamonds=0, bermila=0, seven_of_diamonds=0, **fields)
    assert len(w) == 4 and {warning.filename for warning in w} == {__file__}
    new = DealScore(
        cards_winner=0, diamonds_winner=0, bermila_winner=0, seven_of_diamonds_winner=0, **fields
    )
    assert old == new


def test_deal_score_repr_shows_the_new_names() -> None:
    text = repr(_score())
    assert text.startswith("DealScore(cards_winner=None, diamonds_winner=None, bermila_winner=0,")
    assert "cards=" not in text.replace("cards_winner=", "")


def test_deal_score_asdict_gives_the_new_names_and_two_more_fields() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning: attrs reads the fields themselves
        fields = attrs.asdict(_score())
        assert len(attrs.astuple(_score())) == 12  # 0.1.0: 10
    assert {"cards_winner", "primiera_winner", "primiera_sums"} <= set(fields)
    assert not {"cards", "diamonds", "bermila", "seven_of_diamonds"} & set(fields)
    assert len(fields) == len(attrs.fields(DealScore)) == 12


def test_evolve_with_an_old_winner_name_is_refused() -> None:
    score = _score()
    with pytest.raises(ChkobbaError, match="cards is an old name of cards_winner; give one"):
        attrs.evolve(score, cards=1)  # type: ignore[misc]
    assert attrs.evolve(score, cards_winner=1).cards_winner == 1  # type: ignore[misc]


def test_sides_constant_still_reads_2_warns_and_left_all() -> None:
    import chkobba.scoring
    import chkobba.state

    for module in (chkobba.state, chkobba.scoring):
        with pytest.warns(DeprecationWarning, match="SIDES is deprecated") as w:
            assert module.SIDES == 2
        assert [warning.filename for warning in w] == [__file__]
    assert "SIDES" not in chkobba.state.__all__
    namespace: dict[str, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exec("from chkobba.state import *", namespace)
    assert "SIDES" not in namespace


def test_state_sides_replaces_the_sides_constant() -> None:
    assert new_match().sides == 2 and new_match(4).sides == 2
    assert new_match(3, rules=CARD_RULES_PLUS).sides == 3
    assert observe(new_match(3, rules=CARD_RULES_PLUS), 0).sides == 3


def test_render_position_keyword_still_works_and_warns() -> None:
    state = new_match()
    with pytest.warns(DeprecationWarning, match=r"render\(position=\.\.\.\) is deprecated") as w:
        board = render(position=state)
    assert [warning.filename for warning in w] == [__file__]
    assert board == render(state) == render(state=state)


#: Names 0.1.0's modules held only by importing them, and where each is defined now.
IMPORTED_0_1_0 = {
    ("chkobba.engine", "score_deal"): ("chkobba", "score_deal"),
    ("chkobba.engine", "match_winner"): ("chkobba.state", "match_winner"),
    ("chkobba.engine", "options_for_value"): ("chkobba.captures", "options_for_value"),
    ("chkobba.engine", "HAND_SIZE"): ("chkobba.state", "HAND_SIZE"),
    ("chkobba.engine", "TABLE_SIZE"): ("chkobba.state", "TABLE_SIZE"),
    ("chkobba.engine", "SIDES"): ("chkobba.state", "sides_of"),
    ("chkobba.arena", "SIDES"): ("chkobba.state", "sides_of"),
    ("chkobba.captures", "Play"): ("chkobba", "Play"),
    ("chkobba.openspiel", "NUM_ACTIONS"): ("chkobba.actions", "NUM_ACTIONS"),
    ("chkobba.pettingzoo", "NUM_ACTIONS"): ("chkobba.actions", "NUM_ACTIONS"),
    ("chkobba.pettingzoo", "render_board"): ("chkobba.render", "render"),
}


def test_names_a_module_only_imported_are_gone_and_live_in_their_own_modules() -> None:
    import importlib

    for (old, name), (new, now) in IMPORTED_0_1_0.items():
        if old in ("chkobba.openspiel", "chkobba.pettingzoo"):
            pytest.importorskip("pyspiel" if old == "chkobba.openspiel" else "pettingzoo")
        assert not hasattr(importlib.import_module(old), name), (old, name)
        assert hasattr(importlib.import_module(new), now), (new, now)
    import chkobba.state as state_module

    assert state_module.HAND_SIZE == 3 and state_module.TABLE_SIZE == 4


def test_render_refuses_state_and_position_together() -> None:
    state = new_match()
    with pytest.raises(ChkobbaError, match="give the board's state once"):
        render(state, position=state)  # type: ignore[call-overload]


# --- Now refused ---------------------------------------------------------------------------


def test_wrong_types_raise_chkobba_error_not_type_or_attribute_error() -> None:
    # 0.1.0: AttributeError ('State' object has no attribute 'stock_size') and TypeError
    # ('NoneType' object is not iterable).
    state = _mid_deal()
    with pytest.raises(ChkobbaError, match="expected a PlayerView, got a State"):
        GreedyBot(seed=1).choose(state, legal_moves(state))  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="not None"):
        Play(card("QH"), None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"target": 10_001}, "target"),
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "x" * 61}, "name"),
        ({"name": "club\trules"}, "name"),
        ({"capture_values": (1, 2, 3, 4, 5, 6, 7, 8, 9, 1001)}, "capture_values"),
    ],
)
def test_rule_profiles_out_of_range_are_refused(change: dict[str, Any], field: str) -> None:
    # 0.1.0 took any positive target, any name and any positive capture values.
    with pytest.raises(ChkobbaError, match=rf"^{field} must be"):
        attrs.evolve(TUNISIAN, **change)
    assert attrs.evolve(TUNISIAN, target=10_000, name="x" * 60).target == 10_000


def test_record_paths_must_be_str_or_pathlike(tmp_path: Path) -> None:
    # 0.1.0 read file descriptor 3 for Record.load(3), and took bytes.
    path = tmp_path / "r.json"
    record = _record_0_1_0("arena_2p.json")
    record.save(path)
    descriptor = os.open(path, os.O_RDONLY)
    try:
        for wrong in (descriptor, os.fsencode(path)):
            with pytest.raises(RecordError, match=r"named by a str or an os\.PathLike, not"):
                Record.load(wrong)  # type: ignore[arg-type]
            with pytest.raises(RecordError, match=r"named by a str or an os\.PathLike, not"):
                record.save(wrong)  # type: ignore[arg-type]
    finally:
        os.close(descriptor)
    assert Record.load(path) == Record.load(str(path)) == record


def test_an_open_file_is_read_through_from_json(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    record = _record_0_1_0("arena_2p.json")
    record.save(path)
    descriptor = os.open(path, os.O_RDONLY)
    with open(descriptor, encoding="utf-8") as file:
        assert Record.from_json(file.read()) == record


def test_moves_built_from_the_wrong_things_are_refused() -> None:
    # 0.1.0: TypeError for None or a lone card, a mapping's keys read as cards, Cut(keep=1).
    for capture in (None, card("2D"), {card("2D"): 1}):
        with pytest.raises(NotationError, match="a capture"):
            Play(card("QH"), capture)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match=r"Cut\(keep=\.\.\.\) must be True or False, not 1"):
        Cut(keep=1)  # type: ignore[arg-type]


def test_play_reads_its_capture_text() -> None:
    # 0.1.0 built Play(card('QH'), cards('  2 6 D S')) from the characters of the text.
    assert Play("QH", "2D 6S") == Play(card("QH"), cards("2D 6S"))


def test_a_subclass_of_cut_or_play_is_refused_and_of_shuffle_played() -> None:
    # 0.1.0 played a subclass's cut, which legal_moves never lists (stop 81).
    class MyCut(Cut):
        pass

    class MyShuffle(Shuffle):
        pass

    shuffle = random_shuffle(random.Random(1))
    state = apply(new_match(), MyShuffle(shuffle.order))  # chance: played as before
    assert state == apply(new_match(), shuffle)
    with pytest.raises(IllegalMoveError, match=r"a MyCut of .* is a subclass of Cut, not a move"):
        apply(state, MyCut(keep=True))
    assert apply(state, Cut(keep=True)).phase is Phase.PLAY


def test_parse_move_refuses_a_shuffle_against_a_view() -> None:
    state = new_match()
    text = str(random_shuffle(random.Random(1)))
    with pytest.raises(IllegalMoveError, match="a shuffle is the chance move"):
        parse_move(text, observe(state, 1))
    assert parse_move(text, state) == parse_move(text) == random_shuffle(random.Random(1))


def test_bots_check_their_view_and_legal_moves() -> None:
    # 0.1.0's RandomBot chose from another player's view, and a character of a string.
    state = _mid_deal()
    legal = legal_moves(state)
    for bot in (RandomBot(seed=1), GreedyBot(seed=1)):
        with pytest.raises(ChkobbaError, match="player 0's view has no choice"):
            bot.choose(observe(state, 0), legal)
        with pytest.raises(ChkobbaError, match="expected a tuple of legal moves, got 'abc'"):
            bot.choose(observe(state, 1), "abc")  # type: ignore[arg-type]
        with pytest.raises(ChkobbaError, match="not in player 1's hand"):
            bot.choose(observe(state, 1), (Play(state.hands[0][0]),))
        assert bot.choose(observe(state, 1), legal) in legal


@pytest.mark.parametrize(
    "options",
    [
        {"exploration": True},
        {"exploration": float("nan")},
        {"exploration": float("inf")},
        {"epsilon": True},
        {"iterations": 10_000_001},
        {"horizon": 10_000_001},
    ],
)
def test_ismcts_options_are_checked(options: dict[str, Any]) -> None:
    # 0.1.0 built each of these bots.
    with pytest.raises(ChkobbaError, match=r"^ISMCTSBot: "):
        ISMCTSBot(**options)
    assert ISMCTSBot(iterations=10_000_000).iterations == 10_000_000


@pytest.mark.parametrize("seed", [None, "7", 7.0])
def test_arena_seeds_must_be_integers(seed: object) -> None:
    # 0.1.0 played a match for each of these seeds.
    with pytest.raises(ChkobbaError, match="play_match: seed must be an integer"):
        play_match([RandomBot(seed=1), RandomBot(seed=2)], seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="tournament: seed must be an integer"):
        tournament(["random", "greedy"], games=2, seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match="subseed: seed must be an integer"):
        subseed(seed, 1)  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"subseed: parts\[0\] must be an integer"):
        subseed(1, seed)  # type: ignore[arg-type]


def test_mappings_and_non_bool_flags_are_refused(tmp_path: Path) -> None:
    # 0.1.0: new_match started at 0-1 (the dict's keys); Record took both mappings;
    # verify=None turned the replay off.
    with pytest.raises(ChkobbaError, match="scores must be"):
        new_match(scores={0: 5, 1: 7})  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="scores must be"):
        Record(players=2, scores={0: 1, 1: 2})  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="moves must be a sequence of moves"):
        Record(players=2, moves={})
    path = tmp_path / "r.json"
    _record_0_1_0("arena_2p.json").save(path)
    with pytest.raises(ChkobbaError, match="verify must be True or False, not None") as caught:
        Record.load(path, verify=None)  # type: ignore[arg-type]
    assert not isinstance(caught.value, RecordError)  # the argument is wrong, not the file


def test_random_generators_must_be_random_random() -> None:
    # 0.1.0's random_shuffle and determinize took anything with a shuffle method.
    class Shuffler:
        def shuffle(self, items: list[Any]) -> None:
            random.Random(1).shuffle(items)

    with pytest.raises(ChkobbaError, match=r"^random_shuffle: rng must be a random\.Random"):
        random_shuffle(Shuffler())  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"^determinize: expected a random\.Random"):
        determinize(observe(_mid_deal(), 1), Shuffler())  # type: ignore[arg-type]
    with pytest.raises(ChkobbaError, match=r"^rollout: rng must be a random\.Random"):
        rollout(new_match(), Shuffler())  # type: ignore[arg-type]

    class Seeded(random.Random):  # a subclass is a random.Random
        pass

    assert random_shuffle(Seeded(42)) == random_shuffle(random.Random(42))


def test_capture_options_refuses_an_impossible_table() -> None:
    # 0.1.0 listed 2D+3C twice, and 5D taking itself.
    with pytest.raises(ChkobbaError, match="the table holds 2D twice"):
        capture_options(cards("2D 3C 2D"), card("5D"))
    with pytest.raises(ChkobbaError, match="5D cannot be both played and on the table"):
        capture_options(cards("5D 2C 3C"), card("5D"))
    assert capture_options(cards("2D 3C"), card("5D")) == (frozenset(cards("2D 3C")),)


def _pyspiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    import chkobba.openspiel  # noqa: F401 (registers python_chkobba)

    return pyspiel


def test_openspiel_refuses_actions_on_a_terminal_state() -> None:
    pyspiel = _pyspiel()
    state = pyspiel.load_game("python_chkobba", {"single_deal": True}).new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.apply_action(0)
    assert state.is_terminal()


#: ``chkobba play --seed 1``'s first menu under 0.1.0 (``--no-colour``), in another order.
MENU_0_1_0 = ["3C x 3H", "KH x 2H+3H+5H", "KH x 2H+QH", "JS x AH+3H+5H", "JS x AH+QH"]


def test_play_reads_q_as_the_queen_and_lists_moves_in_hand_order() -> None:
    code, out, _ = run_cli("play", "--seed", "1", "--no-colour", stdin="Q\nquit\nn\n")
    assert code == 0
    assert "'Q' is not a whole card" in out
    assert out.index("'Q' is not a whole card") < out.index("You quit the match.")
    menu = re.findall(r"^ +\d+\. (.+)$", out.split("your move>")[0], re.M)
    assert menu[0] == "3♣ x 3♥"  # 0.1.0 wrote the menu's cards in letters
    shown = [m.translate(str.maketrans("♠♥♦♣", "SHDC")) for m in menu]
    assert sorted(shown) == sorted(MENU_0_1_0) and shown != MENU_0_1_0
    assert shown == ["3C x 3H", "JS x AH+3H+5H", "JS x AH+QH", "KH x 2H+3H+5H", "KH x 2H+QH"]


# --- Behaves differently -------------------------------------------------------------------

#: 0.1.0's observation layout (``chkobba.observations.LAYOUT``), 269 entries.
LAYOUT_0_1_0 = (
    ("hand", 40),
    ("table", 40),
    ("our_pile", 40),
    ("their_pile", 40),
    ("cut_card", 40),
    ("pending", 40),
    ("phase", 4),
    ("choosing_capture", 1),
    ("four_players", 1),
    ("current_player", 4),
    ("dealer", 4),
    ("last_capturer", 4),
    ("hand_sizes", 4),
    ("stock_size", 1),
    ("chkobbas", 2),
    ("scores", 2),
    ("winner", 2),
)


def test_observation_vector_has_313_entries_and_keeps_0_1_0s_offsets() -> None:
    assert sum(size for _, size in LAYOUT_0_1_0) == 269
    assert OBSERVATION_SIZE == 313 == sum(size for _, size in LAYOUT)
    assert tuple(LAYOUT)[: len(LAYOUT_0_1_0)] == LAYOUT_0_1_0
    assert len(observation_vector(observe(new_match(), 0))) == 313
    assert len(observation_vector(observe(_mid_deal(), 1))) == 313


#: sha256 of the first 269 entries (packed as float32) of both players' observation
#: vectors at every state of ``play_match([GreedyBot(seed=1), RandomBot(seed=2)], seed=8)``
#: (608 views), as 0.1.0 computed them.
VIEWS_DIGEST_0_1_0 = "cf8be2df8887ab6a0f34856e37a60244f74eb8cc3dde2862ddf78c2be2babcdb"


def test_observation_vectors_first_269_entries_are_0_1_0s() -> None:
    import hashlib
    import struct

    record = play_match([GreedyBot(seed=1), RandomBot(seed=2)], seed=8).record
    digest, views, state = hashlib.sha256(), 0, record.start()
    for move in record.moves:  # every state before a move
        for player in range(state.players):
            vector = observation_vector(observe(state, player))
            digest.update(struct.pack("<269f", *vector[:269]))
            views += 1
        state = apply(state, move)
    assert (views, digest.hexdigest()) == (608, VIEWS_DIGEST_0_1_0)


def test_the_adapters_observations_grow_alike() -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("numpy")
    from chkobba.pettingzoo import raw_env

    env = raw_env()
    env.reset(seed=1)
    assert env.observation_space(env.agents[0])["observation"].shape == (313,)
    pyspiel = _pyspiel()
    assert pyspiel.load_game("python_chkobba").observation_tensor_size() == 313


def test_piece_returns_python_floats() -> None:
    np = pytest.importorskip("numpy")
    from chkobba.observations import piece

    vector = np.asarray(observation_vector(observe(_mid_deal(), 1)), dtype=np.float32)
    hand = piece(vector, "hand")
    assert len(hand) == 40 and {type(x) for x in hand} == {float}  # 0.1.0: numpy.float32
    json.dumps(hand)


def test_copy_copy_of_a_game_is_independent() -> None:
    # 0.1.0's copy shared the game's history: driving the copy moved the original.
    game = Game(seed=1)
    game.deal()
    state = game.state
    duplicate = copy.copy(game)
    duplicate.play(legal_moves(duplicate.state)[0])
    assert game.state == state and len(game.history) == len(duplicate.history) - 1


def test_copy_copy_of_a_bot_is_independent() -> None:
    # 0.1.0's copy shared the bot's random generator.
    state = _mid_deal()
    view, legal = observe(state, 1), legal_moves(state)
    for bot in (RandomBot(seed=5), ISMCTSBot(iterations=5, seed=5)):
        duplicate = copy.copy(bot)
        assert [duplicate.choose(view, legal) for _ in range(4)] == [
            bot.choose(view, legal) for _ in range(4)
        ]


def test_pettingzoo_copies_keep_the_episode() -> None:
    # 0.1.0's copy.copy, deepcopy and pickle gave back a fresh raw_env, not reset.
    pytest.importorskip("pettingzoo")
    np = pytest.importorskip("numpy")
    from chkobba.pettingzoo import raw_env

    env = raw_env()
    env.reset(seed=3)
    for _ in range(3):
        observation, *_ = env.last()
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    before = env.agent_selection, env.observe(env.agent_selection)["observation"].copy()
    for duplicate in (copy.copy(env), copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert duplicate.agent_selection == before[0]
        observation, *_ = duplicate.last()
        assert np.array_equal(observation["observation"], before[1])
        duplicate.step(int(np.flatnonzero(observation["action_mask"])[0]))
        assert env.agent_selection == before[0]
        assert np.array_equal(env.observe(before[0])["observation"], before[1])


def _whole_deal(game: Game, rng: random.Random) -> None:
    game.deal()
    while game.state.phase is not Phase.SHUFFLE:
        game.play(rng.choice(legal_moves(game.state)))


def test_play_match_records_are_tagged_and_games_keep_tags() -> None:
    record = play_match([RandomBot(seed=5), GreedyBot(seed=6)], seed=8).record
    assert dict(record.tags) == {"seed": "8", "player0": "random", "player1": "greedy"}
    untagged = Record.from_moves(record.start(), record.moves)
    assert record != untagged and attrs.evolve(record, tags={}) == untagged
    assert Game.from_record(record).record() == record  # 0.1.0 dropped the tags


def test_game_from_record_deals_on_from_the_seeds_draws() -> None:
    # 0.1.0 started the seed's generator again: the resumed game's second deal was its
    # first deal's order.
    game = Game(seed=5)
    _whole_deal(game, random.Random(0))
    resumed = Game.from_record(game.record(), seed=5)
    assert resumed.deal() == game.deal()
    shuffles = [move for move in resumed.record().moves if isinstance(move, chkobba.Shuffle)]
    assert len(shuffles) == 2 and shuffles[0] != shuffles[1]


def _single_deal_ending(env: Any, np: Any) -> dict[str, Any]:
    """Play ``env`` to its end with its first legal actions; the last info seen."""
    final: dict[str, Any] = {}
    while env.agents:
        observation, reward, terminated, truncated, info = env.last()
        assert type(reward) is float
        if terminated or truncated:
            final = info
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        assert {type(r) for r in env.rewards.values()} <= {float}
    return final


def test_pettingzoo_infos_rewards_and_reset_options() -> None:
    pytest.importorskip("pettingzoo")
    np = pytest.importorskip("numpy")
    from chkobba.pettingzoo import raw_env

    fresh = raw_env()
    with pytest.raises(ChkobbaError, match="no episode has started"):
        fresh.step(0)  # 0.1.0: AttributeError
    with pytest.raises(ChkobbaError, match="seed must be None or an integer >= 0, not -1"):
        fresh.reset(seed=-1)  # 0.1.0: gymnasium.error.Error
    env = raw_env(single_deal=True)
    env.reset(seed=1)
    info = _single_deal_ending(env, np)
    assert isinstance(info["scores"], np.ndarray) and info["scores"].dtype == np.int64
    assert info["winner"] == -1  # 0.1.0: a tuple of scores, and winner None
    persistent = raw_env()
    persistent.reset(seed=1, options={"single_deal": True})
    persistent.reset(seed=2)  # 0.1.0: back to whole matches
    ending = _single_deal_ending(persistent, np)
    assert "deal" in ending and ending["winner"] == -1


def test_openspiel_single_deal_utility_bounds_are_exact() -> None:
    pyspiel = _pyspiel()
    game = pyspiel.load_game("python_chkobba", {"single_deal": True})
    assert (game.min_utility(), game.max_utility()) == (-22.0, 22.0)  # 0.1.0: -39, 39
    match = pyspiel.load_game("python_chkobba")
    assert (match.min_utility(), match.max_utility()) == (-1.0, 1.0)


def test_record_errors_count_moves_from_one() -> None:
    data = _record_0_1_0("arena_2p.json").to_dict()
    data["moves"][5] = "AS x 2D"
    with pytest.raises(RecordError, match=r"^move 6 \(index 5\) \('AS x 2D'\) is not legal"):
        Record.from_dict(data)  # 0.1.0: "moves[5] ('AS x 2D') is not legal: ..."


def test_rank_and_suit_raise_notation_error_still_a_value_error() -> None:
    for make, text in ((Rank, "8"), (Suit, "X")):
        with pytest.raises(NotationError) as caught:
            make(text)
        assert isinstance(caught.value, ValueError)
    for error in (NotationError, IllegalMoveError, RecordError):
        assert issubclass(error, ChkobbaError) and issubclass(error, ValueError)


def test_state_repr_writes_the_phase_and_the_whole_profile() -> None:
    text = repr(new_match())
    assert "phase=Phase.SHUFFLE" in text and "<Phase." not in text
    assert "players=(2, 4), cut=True" in text
    assert eval(text, vars(chkobba) | {"Phase": Phase}) == new_match()


def test_command_line_errors_name_the_subcommand() -> None:
    code, _, err = run_cli("demo", "--bogus")
    assert code == 2  # as in 0.1.0, which wrote "chkobba: error: ... (see chkobba --help)"
    assert err.strip().endswith(
        "chkobba demo: error: unrecognized arguments: --bogus (see chkobba demo --help)"
    )


#: ``chkobba simulate --games 4 --bots random greedy --json --seed 1`` under 0.1.0.
SIMULATE_0_1_0 = {
    "bots": [
        {
            "name": "random",
            "games": 4,
            "wins": 0,
            "win_rate": 0.0,
            "ci_low": 0.0,
            "ci_high": 0.48990002040399916,
            "points": 29,
            "deals": 30,
            "points_per_deal": 0.9666666666666667,
        },
        {
            "name": "greedy",
            "games": 4,
            "wins": 4,
            "win_rate": 1.0,
            "ci_low": 0.5100999795960008,
            "ci_high": 1.0,
            "points": 89,
            "deals": 30,
            "points_per_deal": 2.966666666666667,
        },
    ],
    "games": 4,
    "players": 2,
    "seed": 1,
}


def test_replay_steps_on_a_terminal_and_no_step_prints_all() -> None:
    code, out, _ = run_cli("replay", "--help")
    assert code == 0 and "--no-step" in out
    assert "show everything at once" in " ".join(out.split())


def test_hint_shows_the_three_best_moves_with_their_values() -> None:
    code, out, _ = run_cli("play", "--seed", "1", "--no-colour", stdin="hint\nquit\nn\n")
    assert code == 0
    (hint,) = re.findall(r"^ *hint: (.+)$", out, re.M)
    valued = re.findall(r"\(([+-]\d+\.\d\d) points\)", hint)
    assert len(valued) == 3 and hint.count(", then ") == 2, hint
    assert [float(v) for v in valued] == sorted(map(float, valued), reverse=True)


def test_narration_counts_a_voided_deal() -> None:
    # 0.1.0 said "deal 3" again after the voided deal 3 of this demo.
    code, out, _ = run_cli("--no-colour", "demo", "--seed", "3")
    assert code == 0
    assert "the deal is void" in out
    assert "deal 4: player 0 deals (scores 2-5)" in out


def test_simulate_json_keeps_every_0_1_0_key_and_value() -> None:
    args = ("simulate", "--games", "4", "--bots", "random", "greedy", "--json", "--seed", "1")
    code, out, _ = run_cli(*args)
    assert code == 0
    data = json.loads(out)
    assert {key: data[key] for key in SIMULATE_0_1_0} == SIMULATE_0_1_0
    assert set(data) > set(SIMULATE_0_1_0)


# --- Data and files ------------------------------------------------------------------------


def test_records_carry_the_whole_profile_in_format_version_1() -> None:
    data = json.loads(_record_0_1_0("arena_2p.json").to_json())
    assert (data["format"], data["version"]) == ("chkobba-record", 1)
    assert data["rules"] == TUNISIAN.to_dict()
    # 0.1.0 knew these three only, and refused any other field of rules ("unknown field
    # 'courts_capture_sums' in rules", the first of the others in alphabetical order).
    assert set(data["rules"]) > {"name", "capture_values", "target"}
    assert min(set(data["rules"]) - {"name", "capture_values", "target"}) == "courts_capture_sums"


def _expected_0_1_0() -> dict[str, Any]:
    expected: dict[str, Any] = json.loads((DATA / "text_0_1_0" / "expected.json").read_text())
    assert expected["version"] == "0.1.0"
    return expected


def test_0_1_0_records_still_load_and_replay_to_0_1_0s_results() -> None:
    expected = _expected_0_1_0()
    names = sorted(p.name for p in RECORDS_0_1_0.glob("*.json"))
    assert len(names) >= 20
    for name in names:
        if name in OUT_OF_RANGE_0_1_0:
            continue
        record = _record_0_1_0(name)
        final = expected["records"][expected["sources"][name]]["final"]
        state = record.final()
        assert (list(state.scores), state.winner) == (final["scores"], final["winner"]), name
    tunisian = _record_0_1_0("arena_2p.json").to_dict()
    tunisian["rules"] = {"name": "tunisian", "capture_values": list(range(1, 11)), "target": 21}
    assert Record.from_dict(tunisian).rules == TUNISIAN
    del tunisian["rules"]
    assert Record.from_dict(tunisian).rules == TUNISIAN


@pytest.mark.parametrize(("name", "field"), sorted(OUT_OF_RANGE_0_1_0.items()))
def test_0_1_0_records_out_of_range_are_refused_naming_the_field(name: str, field: str) -> None:
    with pytest.raises(RecordError, match=rf"rules: {field} must be"):
        _record_0_1_0(name)


def test_a_refused_0_1_0_record_loads_once_its_rules_are_edited() -> None:
    data = json.loads((RECORDS_0_1_0 / "edge_rules_big_target.json").read_text("utf-8"))
    with pytest.raises(RecordError, match="target must be a positive integer, at most 10000"):
        Record.from_dict(data)
    data["rules"]["target"] = 10_000
    record = Record.from_dict(data)
    assert record.rules.target == 10_000 and record.final().winner is None


def test_a_pickled_profile_out_of_range_is_refused_as_a_pickle() -> None:
    # What 0.1.0 pickled for Rules(name="long", target=50_000): its fields (stop 72).
    fields = {"name": "long", "capture_values": tuple(range(1, 11)), "target": 50_000}
    made = Rules.__new__(Rules)
    with pytest.raises(ChkobbaError) as caught:
        made.__setstate__(fields)
    assert str(caught.value) == (
        "cannot read a pickled rule profile: target must be a positive integer, at most "
        "10000, got 50000"
    )


def test_0_1_0_pickles_load_and_play_on() -> None:
    values: dict[str, Any] = pickle.loads((DATA / "pickled_0_1_0.pkl").read_bytes())
    assert values["version"] == "0.1.0" and values["rules"] == TUNISIAN
    last = max(values["states"])
    state = values["states"][last]
    record = Record.from_json(values["record_json"])
    now = _state_after(record, last)
    unsummed = tuple(
        attrs.evolve(score, primiera_sums=())  # type: ignore[misc]
        for score in now.deal_scores
    )
    assert state == attrs.evolve(now, deal_scores=unsummed) != now
    assert {score.primiera_sums for score in state.deal_scores} == {()}
    played_on = values["states"][40]
    for move in record.moves[40:]:
        played_on = apply(played_on, move)
    end = record.final()
    assert (played_on.scores, played_on.winner) == (end.scores, end.winner)
    view = next(iter(values["views"].values()))
    assert legal_moves(view) and isinstance(values["bots"][0], GreedyBot)


def test_profile_pickles_hold_fields_not_the_derived_table() -> None:
    # 0.1.0 pickled the derived card_values table, and its Rules needs it: a profile (and so
    # a state) pickled now loads under 0.1.0 and fails there with an AttributeError.
    data = pickle.dumps(TUNISIAN)
    assert b"capture_values" in data and b"card_values" not in data
    assert pickle.loads(data) == TUNISIAN


def test_openspiel_game_string_names_the_rules_and_the_target() -> None:
    # 0.1.0's game had neither parameter, so it cannot load a state serialized now.
    pyspiel = _pyspiel()
    game = pyspiel.load_game("python_chkobba")
    assert {"rules", "target"} <= set(game.get_parameters())
    assert "rules=" in str(game) and "target=" in str(game)


def test_openspiel_states_serialized_by_0_1_0_play_on() -> None:
    pyspiel = _pyspiel()
    games: list[dict[str, Any]] = json.loads(
        (DATA / "text_0_1_0" / "openspiel.json").read_text("utf-8")
    )
    game = games[0]
    point = next(p for p in game["points"] if "game_and_state" in p)
    _, loaded = pyspiel.deserialize_game_and_state(point["game_and_state"])
    replayed = pyspiel.load_game(game["game"]).new_initial_state()
    for action in game["actions"][: point["step"]]:
        replayed.apply_action(action)
    assert loaded.history() == replayed.history() and str(loaded) == str(replayed)
    for action in game["actions"][point["step"] :]:
        loaded.apply_action(action)
        replayed.apply_action(action)
    assert loaded.is_terminal() and loaded.returns() == replayed.returns()


# --- Bots and seeds ------------------------------------------------------------------------

#: ``str(random_shuffle(random.Random(42)))`` and ``Game(seed=5)``'s first deal, under 0.1.0.
SHUFFLE_42_0_1_0 = (
    "shuffle 3H AC 3D KS 7H 7S QD 3C 2S JS 6H QS 6C 5D 4S JD JC 7D 4H 6D 6S QC KH QH 5C 5S "
    "KC JH AD AS KD 7C 2H 2D 3S 4D 4C 5H AH 2C"
)
GAME_5_0_1_0 = (
    "shuffle 6C 7S 2S 5C KD 6S JD QC 6H 3H 4D JC KH QS AD 7H 2H 3S 4H 2D AS 7D 5D QD 5H 4S "
    "2C 7C KS 3C JS 3D AC 4C QH AH JH 6D 5S KC"
)
#: ``determinize`` of player 1's view after 20 moves of ``arena_2p.json``, with
#: ``random.Random(3)``, under 0.1.0: player 0's hand, then the stock.
DETERMINIZED_0_1_0 = ("7C 7S 4D", "7D KH AS 4S AD 4C KS 4H 2H 6S 6C 3S")


def test_shuffles_deals_and_determinizations_draw_as_in_0_1_0() -> None:
    assert str(random_shuffle(random.Random(42))) == SHUFFLE_42_0_1_0
    game = Game(seed=5)
    game.deal()
    assert str(game.record().moves[0]) == GAME_5_0_1_0
    sample = determinize(observe(_mid_deal(), 1), random.Random(3))
    found = (" ".join(map(str, sample.hands[0])), " ".join(map(str, sample.stock)))
    assert found == DETERMINIZED_0_1_0


def test_random_and_greedy_matches_replay_0_1_0s_records() -> None:
    # tests/data/make_text_0_1_0.py played these under 0.1.0.
    two = play_match([RandomBot(seed=5), GreedyBot(seed=6)], seed=8).record
    assert two.moves == _record_0_1_0("arena_2p.json").moves
    bots = [GreedyBot(seed=1), RandomBot(seed=2)]
    four = play_match(bots, seed=3, players=4).record
    old = _record_0_1_0("arena_4p.json")
    assert (four.moves, dict(old.tags)) == (old.moves, {})
    assert dict(four.tags) == {"seed": "3"} | {
        f"player{seat}": ("greedy", "random")[seat % 2] for seat in range(4)
    }
    assert json.loads(four.to_json())["rules"] == TUNISIAN.to_dict()


def test_ismcts_defaults_are_0_1_0s_and_v1_names_them() -> None:
    bot = ISMCTSBot(seed=1)
    assert (bot.iterations, bot.exploration, bot.epsilon, bot.horizon) == (800, 0.7, 0.1, 6)
    assert (bot.inference, bot.seconds) == (0, 0.0)
    assert (
        repr(make_bot("ismcts:v1", seed=1))
        == repr(bot)
        == (
            "ISMCTSBot(iterations=800, exploration=0.7, epsilon=0.1, horizon=6, inference=0, "
            "seconds=0.0, seed=1)"
        )
    )  # 0.1.0: ISMCTSBot(iterations=800, exploration=0.7, epsilon=0.1, horizon=6, seed=1)


#: The first 18 moves of ``play_match([ISMCTSBot(iterations=20, seed=1), GreedyBot(seed=2)],
#: seed=3)`` under 0.1.0: the same shuffle and 16 plays, then another choice at move 18.
ISMCTS_MATCH_0_1_0 = [
    "shuffle 5C 4H 2H KC AC 3C QS 4D 5D KS 3H AD AH 7S 3D JH 7C QC 6H QH KD 6S 4S 7D 7H JS 4C "
    "6D 2D 2C 5H 5S JC AS 2S QD 6C 3S JD KH",
    "expose",
    "4H x 4D",
    "2H",
    "KC x KS",
    "AC",
    "3C x AC+2H",
    "QS",
    "3H",
    "JH",
    "3D x 3H",
    "AD",
    "AH x AD",
    "7S",
    "7C x 7S",
    "QC x QS",
    "KD x 5D+5C",
    "6S",
]


def test_ismcts_same_seed_plays_other_moves_than_0_1_0() -> None:
    def moves() -> list[str]:
        bots = [ISMCTSBot(iterations=20, seed=1), GreedyBot(seed=2)]
        return [str(move) for move in play_match(bots, seed=3).record.moves[:18]]

    now = moves()
    assert now == moves()  # the same seed, the same moves, run to run
    assert now[:17] == ISMCTS_MATCH_0_1_0[:17] and now[17] != ISMCTS_MATCH_0_1_0[17]


def test_the_uniform_search_rollout_deals_otherwise_than_0_1_0() -> None:
    # 0.1.0 gave (4, 0) and piles of 33 and 7 cards for the first, (5, 0) and 31 and 9
    # for the second (found by a review of 0.1.0 compatibility, stop 72).
    from chkobba.bots.ismcts import rollout

    start = apply(apply(new_match(), random_shuffle(random.Random(0))), Cut(keep=False))
    uniform = rollout(start, random.Random(0), epsilon=1.0, horizon=0)
    assert (uniform.scores, [len(pile) for pile in uniform.captured]) != ((4, 0), [33, 7])
    assert uniform == chkobba.rollout(start, random.Random(0))  # the kernel's deal
    mixed = rollout(start, random.Random(0), epsilon=0.5, horizon=0)
    assert (mixed.scores, [len(pile) for pile in mixed.captured]) == ((5, 0), [31, 9])


def test_odd_tournaments_of_three_bots_play_other_matches() -> None:
    # 0.1.0 played (22, 11) as the fifth match of this tournament; with games=4, or two
    # bots, the matches are 0.1.0's (its first four scores were these).
    odd = tournament(["random", "greedy", "random"], games=3, seed=5, records=True)
    assert [m.scores for m in odd.matches[:4]] == [(1, 21), (24, 19), (15, 24), (22, 9)]
    assert odd.matches[4].scores != (22, 11)
    shuffles = [m.record.moves[0] for m in odd.matches if m.record is not None]
    assert shuffles[3] == shuffles[4]  # a pair's matches 2k and 2k + 1 share their shuffles
    even = tournament(["random", "greedy", "random"], games=4, seed=5)
    assert [m.scores for m in even.matches[:4]] == [(1, 21), (24, 19), (15, 24), (23, 10)]


def test_two_bot_and_even_tournaments_play_0_1_0s_matches() -> None:
    # Scores 0.1.0 gave for the same calls.
    two = tournament(["random", "greedy"], games=3, seed=5)
    assert [m.scores for m in two.matches] == [(1, 21), (24, 19), (15, 24)]
    four = tournament(["random", "greedy", "random"], games=2, seed=7, players=4)
    scores = [(13, 23), (23, 4), (21, 20), (12, 22), (25, 9), (5, 24)]
    assert [m.scores for m in four.matches] == scores


# --- Python and dependencies ---------------------------------------------------------------


def test_python_and_dependencies_are_unchanged() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^requires-python = ">=3\.10"$', pyproject, re.M)  # as in 0.1.0
    assert re.search(r'^dependencies = \["attrs>=23\.1"\]$', pyproject, re.M)  # as in 0.1.0
    for version in ("3.10", "3.11", "3.12", "3.13", "3.14", "3.15"):
        assert f'"Programming Language :: Python :: {version}"' in pyproject


def test_new_extras_and_all_installs_gymnasium_and_dask() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    extras = re.findall(r"^(\w+) = \[", pyproject.split("[project.optional-dependencies]")[1], re.M)
    assert {"gymnasium", "dask", "docs"} <= set(extras)
    assert re.search(r'^all = \["chkobba\[[^\]]*gymnasium[^\]]*dask[^\]]*\]"\]$', pyproject, re.M)


# --- The page and its tests stay together --------------------------------------------------

#: Each section of docs/upgrading.md, each item's bold lead in it, and the tests of the item.
PAGE: dict[str, dict[str, list[str]]] = {
    "New in this release": {
        "Rule profiles.": ["test_new_rule_profiles_and_three_players"],
        "Fast random playouts.": ["test_new_rollout_plays_to_the_end_of_the_deal"],
        "States and views as JSON.": ["test_new_states_and_views_round_trip_through_json"],
        "What a move did.": ["test_new_apply_with_outcome_says_what_a_move_did"],
        "Checking hand-built states.": ["test_new_check_state_and_check_view"],
        "A Gymnasium environment": ["test_new_gymnasium_environment_and_policy_bridges"],
        "A stronger bot and game reviews.": ["test_new_expert_bot_reviews_and_time_limits"],
        "Tournaments and datasets.": ["test_new_tournament_datasets_and_ratings"],
    },
    "Deprecated names": {
        "`DealScore`'s winners.": [
            "test_deal_score_old_winner_names_still_read_and_warn_at_the_callers_line",
            "test_deal_score_old_keywords_still_build_a_score_and_warn",
            "test_deal_score_repr_shows_the_new_names",
            "test_evolve_with_an_old_winner_name_is_refused",
            "test_deal_score_asdict_gives_the_new_names_and_two_more_fields",
        ],
        "`chkobba.state.SIDES`": [
            "test_sides_constant_still_reads_2_warns_and_left_all",
            "test_state_sides_replaces_the_sides_constant",
        ],
        "`render(position=...)`": [
            "test_render_position_keyword_still_works_and_warns",
            "test_render_refuses_state_and_position_together",
        ],
    },
    "Names gone without a warning": {
        "Names a module only imported.": [
            "test_names_a_module_only_imported_are_gone_and_live_in_their_own_modules"
        ],
    },
    "Now refused": {
        "Wrong types.": ["test_wrong_types_raise_chkobba_error_not_type_or_attribute_error"],
        "Rule profiles out of range.": ["test_rule_profiles_out_of_range_are_refused"],
        "`Record.load` and `Record.save` paths.": [
            "test_record_paths_must_be_str_or_pathlike",
            "test_an_open_file_is_read_through_from_json",
        ],
        "Moves built from the wrong things.": [
            "test_moves_built_from_the_wrong_things_are_refused",
            "test_play_reads_its_capture_text",
        ],
        "Moves of a subclass of `Cut` or `Play`.": [
            "test_a_subclass_of_cut_or_play_is_refused_and_of_shuffle_played",
        ],
        "Shuffles read against a view.": ["test_parse_move_refuses_a_shuffle_against_a_view"],
        "Bots check what they are given.": [
            "test_bots_check_their_view_and_legal_moves",
            "test_ismcts_options_are_checked",
        ],
        "Seeds and collections.": [
            "test_arena_seeds_must_be_integers",
            "test_mappings_and_non_bool_flags_are_refused",
        ],
        "Random generators.": ["test_random_generators_must_be_random_random"],
        "`capture_options` of an impossible table": [
            "test_capture_options_refuses_an_impossible_table"
        ],
        "OpenSpiel: acting on a finished game.": [
            "test_openspiel_refuses_actions_on_a_terminal_state"
        ],
        "`chkobba play`: `Q` is the queen.": [
            "test_play_reads_q_as_the_queen_and_lists_moves_in_hand_order"
        ],
    },
    "Behaves differently": {
        "The observation vector has 313 entries": [
            "test_observation_vector_has_313_entries_and_keeps_0_1_0s_offsets",
            "test_observation_vectors_first_269_entries_are_0_1_0s",
            "test_the_adapters_observations_grow_alike",
        ],
        "`observations.piece` returns Python floats": ["test_piece_returns_python_floats"],
        "`copy.copy` makes an independent copy": [
            "test_copy_copy_of_a_game_is_independent",
            "test_copy_copy_of_a_bot_is_independent",
            "test_pettingzoo_copies_keep_the_episode",
        ],
        "`Game.from_record(record, seed=s)` deals on": [
            "test_game_from_record_deals_on_from_the_seeds_draws"
        ],
        "PettingZoo's infos and rewards.": ["test_pettingzoo_infos_rewards_and_reset_options"],
        "Records carry tags.": ["test_play_match_records_are_tagged_and_games_keep_tags"],
        "OpenSpiel's utility bounds are exact": [
            "test_openspiel_single_deal_utility_bounds_are_exact"
        ],
        "Messages and reprs.": [
            "test_record_errors_count_moves_from_one",
            "test_rank_and_suit_raise_notation_error_still_a_value_error",
            "test_state_repr_writes_the_phase_and_the_whole_profile",
        ],
        "The command line.": [
            "test_command_line_errors_name_the_subcommand",
            "test_simulate_json_keeps_every_0_1_0_key_and_value",
            "test_replay_steps_on_a_terminal_and_no_step_prints_all",
            "test_hint_shows_the_three_best_moves_with_their_values",
            "test_narration_counts_a_voided_deal",
        ],
    },
    "Data and files": {
        "Records carry the whole profile.": [
            "test_records_carry_the_whole_profile_in_format_version_1"
        ],
        "0.1.0's records still load": [
            "test_0_1_0_records_still_load_and_replay_to_0_1_0s_results",
            "test_0_1_0_records_out_of_range_are_refused_naming_the_field",
            "test_a_refused_0_1_0_record_loads_once_its_rules_are_edited",
        ],
        "Pickles go one way.": [
            "test_0_1_0_pickles_load_and_play_on",
            "test_profile_pickles_hold_fields_not_the_derived_table",
            "test_a_pickled_profile_out_of_range_is_refused_as_a_pickle",
        ],
        "OpenSpiel states serialized by 0.1.0": [
            "test_openspiel_states_serialized_by_0_1_0_play_on",
            "test_openspiel_game_string_names_the_rules_and_the_target",
        ],
    },
    "Bots and seeds": {
        "The same seed gives the same match": [
            "test_shuffles_deals_and_determinizations_draw_as_in_0_1_0",
            "test_random_and_greedy_matches_replay_0_1_0s_records",
        ],
        "`ISMCTSBot` plays other moves for the same seed.": [
            "test_ismcts_defaults_are_0_1_0s_and_v1_names_them",
            "test_ismcts_same_seed_plays_other_moves_than_0_1_0",
        ],
        "`chkobba.bots.ismcts.rollout(state, rng, epsilon=1.0, horizon=0)`": [
            "test_the_uniform_search_rollout_deals_otherwise_than_0_1_0",
        ],
        "Tournaments with an odd `games` and three or more bots": [
            "test_odd_tournaments_of_three_bots_play_other_matches",
            "test_two_bot_and_even_tournaments_play_0_1_0s_matches",
        ],
    },
    "Python and dependencies": {
        "Unchanged:": ["test_python_and_dependencies_are_unchanged"],
        "Extras:": ["test_new_extras_and_all_installs_gymnasium_and_dask"],
    },
}


def _page_items() -> dict[str, list[str]]:
    """The page's ``##`` sections, each with the bold leads of its items, in order."""
    items: dict[str, list[str]] = {}
    section = None
    for line in PAGE_PATH.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            items[section] = []
        elif section is not None and (lead := re.match(r"^- \*\*(.+?)\*\*", line)):
            items[section].append(lead.group(1))
    return items


def test_every_section_and_item_of_the_page_has_its_tests() -> None:
    assert _page_items() == {section: list(leads) for section, leads in PAGE.items()}
    named = [name for leads in PAGE.values() for names in leads.values() for name in names]
    assert all(names for leads in PAGE.values() for names in leads.values())
    assert len(named) == len(set(named))
    assert [name for name in named if not callable(globals().get(name))] == []
    defined = {name for name, value in globals().items() if name.startswith("test_")}
    assert defined - set(named) == {
        "test_every_section_and_item_of_the_page_has_its_tests",
        "test_the_pages_links_point_at_pages_and_headings_that_exist",
        "test_the_pages_examples_run_as_doctests",
    }


def test_the_pages_links_point_at_pages_and_headings_that_exist() -> None:
    text = PAGE_PATH.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links
    for link in links:
        page, _, anchor = link.partition("#")
        target = PAGE_PATH if not page else PAGE_PATH.parent / page
        assert target.is_file(), link
        if anchor:
            headings = re.findall(r"^#+ (.+)$", target.read_text(encoding="utf-8"), re.M)
            assert anchor in {_slug(heading) for heading in headings}, link


def _slug(heading: str) -> str:
    """The anchor MkDocs' ``toc`` extension gives a heading (its default ``slugify``)."""
    text = re.sub(r"[^\w\s-]", "", heading.replace("`", "")).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def test_the_pages_examples_run_as_doctests() -> None:
    # They run with the docs' doctests too; here the file checks its page on its own, and
    # that no block lost its prompts (docs/index.md lists the blocks without them).
    import doctest

    text = PAGE_PATH.read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    assert len(blocks) >= 4 and all(">>> " in block for block in blocks)
    names = {name: getattr(chkobba, name) for name in chkobba.__all__}
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the page shows no old name
        failed, tried = doctest.testfile(
            str(PAGE_PATH), module_relative=False, globs=names, optionflags=flags, report=False
        )
    assert (failed, tried) == (0, tried) and tried >= 10
