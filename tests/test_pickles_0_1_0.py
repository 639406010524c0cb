"""Values pickled by chkobba 0.1.0 read back whole (found in stop 54).

0.1.0 had no JSON form of a state: a server or a training loop that kept states kept
them pickled. Since then ``Rules`` gained eleven fields, ``DealScore`` renamed its
winners (and gained the primiera), ``TournamentResult`` gained ``rules``,
``MatchSummary`` its ``record`` and ``ISMCTSBot`` two options. Before the fix a 0.1.0
pickle loaded without an error and failed at its first use, with an ``AttributeError``
("'Rules' object has no attribute 'players'") or a state taken for a broken one.

``data/pickled_0_1_0.pkl`` was written by 0.1.0 itself (``data/make_pickled_0_1_0.py``
says how). Each value read back is compared with the same value made by this version.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import attrs
import pytest

from chkobba import (
    TUNISIAN,
    ChkobbaError,
    DealScore,
    Record,
    Rules,
    State,
    apply,
    legal_moves,
    new_match,
    observe,
    rollout,
)
from chkobba._compat import fields_of, restore
from chkobba.arena import MatchSummary, TournamentResult, play_match, tournament
from chkobba.bots import GreedyBot, ISMCTSBot, RandomBot
from chkobba.checks import check_state
from chkobba.game import Game

PICKLED = Path(__file__).parent / "data" / "pickled_0_1_0.pkl"


@pytest.fixture(scope="module")
def old() -> dict[str, Any]:
    values: dict[str, Any] = pickle.loads(PICKLED.read_bytes())
    assert values["version"] == "0.1.0"
    return values


def _states_now(record: Record) -> dict[int, State]:
    """The states after each number of the record's moves, made by this version."""
    state = new_match(record.players, dealer=record.dealer)
    states = {0: state}
    for index, move in enumerate(record.moves, start=1):
        state = apply(state, move)
        states[index] = state
    return states


def _as_0_1_0_scored_it(state: State) -> State:
    """``state`` with its deal scores as 0.1.0 made them: without primiera sums, which
    0.1.0 never worked out (nothing else of a 0.1.0 score differs)."""
    scores = tuple(_unsummed(score) for score in state.deal_scores)
    return attrs.evolve(state, deal_scores=scores)


def _unsummed(score: DealScore) -> DealScore:
    return attrs.evolve(score, primiera_sums=())  # type: ignore[misc]


def test_a_profile_reads_back_with_the_fields_added_since(old: dict[str, Any]) -> None:
    rules = old["rules"]
    assert rules == TUNISIAN and hash(rules) == hash(TUNISIAN)
    assert rules.players == (2, 4) and rules.card_values == TUNISIAN.card_values
    assert rules.to_dict() == TUNISIAN.to_dict()


def test_states_read_back_equal_to_the_same_moves_played_now(old: dict[str, Any]) -> None:
    record = Record.from_json(old["record_json"])
    now = _states_now(record)
    assert len(old["states"]) >= 8
    for index, state in old["states"].items():
        check_state(state)
        expected = _as_0_1_0_scored_it(now[index])
        assert state == expected and hash(state) == hash(expected)
        assert legal_moves(state) == legal_moves(now[index])
        assert State.from_dict(state.to_dict()) == state
        assert pickle.loads(pickle.dumps(state)) == state


def test_a_state_of_0_1_0_plays_on_to_the_end_of_the_match(old: dict[str, Any]) -> None:
    record = Record.from_json(old["record_json"])
    index, state = min(old["states"].items(), key=lambda item: abs(item[0] - 120))
    rest = record.moves[index:]
    for move in rest:
        state = apply(state, move)
    assert state.is_over and state.scores == record.final().scores
    assert rollout(old["states"][40], random.Random(1), until="match").is_over


def test_a_deal_score_reads_back_under_its_new_names(old: dict[str, Any]) -> None:
    last = max(old["states"])
    score = old["states"][last].deal_scores[0]
    now = _states_now(Record.from_json(old["record_json"]))[last].deal_scores[0]
    assert score == _unsummed(now)
    assert score.cards_winner == now.cards_winner and score.primiera_winner is None
    assert "cards" not in vars(score)  # under the new name, not hidden by the alias


def test_views_read_back(old: dict[str, Any]) -> None:
    now = _states_now(Record.from_json(old["record_json"]))
    for index, view in old["views"].items():
        state = _as_0_1_0_scored_it(now[index])
        assert view == observe(state, state.current_player)  # type: ignore[arg-type]


def test_match_and_tournament_results_read_back(old: dict[str, Any]) -> None:
    result = old["result"]
    now = play_match([GreedyBot(seed=1), RandomBot(seed=2)], seed=3)
    # The same match; its record is tagged now (docs/upgrading.md), 0.1.0's was not.
    assert result == attrs.evolve(now, record=attrs.evolve(now.record, tags={}))
    table = old["table"]
    assert table.rules == TUNISIAN and all(match.record is None for match in table.matches)
    again = tournament([GreedyBot(seed=1), RandomBot(seed=2)], games=2, seed=1)
    assert table.bots == again.bots and table.to_dict() == again.to_dict()
    assert pickle.loads(pickle.dumps(table)) == table


def test_bots_read_back_and_choose_as_bots_made_now(old: dict[str, Any]) -> None:
    greedy, random_bot, ismcts = old["bots"]
    assert ismcts.options() == ISMCTSBot(iterations=50).options()
    state = _states_now(Record.from_json(old["record_json"]))[41]
    player = state.current_player
    assert player is not None
    legal = legal_moves(state)
    for loaded, made in (
        (greedy, GreedyBot(seed=1)),
        (random_bot, RandomBot(seed=2)),
        (ismcts, ISMCTSBot(iterations=50, seed=3)),
    ):
        assert repr(loaded) == repr(made)
        assert loaded.choose(observe(state, player), legal) == made.choose(
            observe(state, player), legal
        )


# --- the mechanism, without 0.1.0's bytes ---------------------------------------------


def test_a_profile_pickled_with_only_0_1_0s_fields_takes_the_defaults() -> None:
    rules = Rules.__new__(Rules)
    rules.__setstate__({"name": "house", "capture_values": TUNISIAN.capture_values, "target": 16})
    assert rules == Rules(name="house", target=16)


def test_a_pickled_profile_is_checked_as_rules_checks_it() -> None:
    rules = Rules.__new__(Rules)
    with pytest.raises(ChkobbaError, match="target"):
        rules.__setstate__({"name": "house", "target": -1})


def test_a_new_pickle_of_a_profile_holds_its_fields_not_its_derived_table() -> None:
    assert set(TUNISIAN.__getstate__()) == {
        field.name for field in attrs.fields(Rules) if field.init
    }
    assert pickle.loads(pickle.dumps(TUNISIAN)) == TUNISIAN


def test_a_summary_without_a_field_that_has_no_default_is_refused_by_name() -> None:
    summary = MatchSummary.__new__(MatchSummary)
    with pytest.raises(ChkobbaError) as caught:
        summary.__setstate__({"game": 0, "entrants": (0, 1), "winner": 0, "scores": (21, 3)})
    assert str(caught.value) == (
        "cannot read this pickled MatchSummary: it has no 'deals', and that field has no default"
    )


def test_a_tournament_result_pickled_without_rules_is_tunisian() -> None:
    fields: dict[str, Any] = {"players": 2, "seed": 1, "bots": (), "matches": ()}
    table = TournamentResult.__new__(TournamentResult)
    table.__setstate__(fields)
    assert table == TournamentResult(**fields)
    assert hash(table) == hash(TournamentResult(**fields))


def test_a_deal_score_pickled_with_the_old_names_reads_under_the_new() -> None:
    score = DealScore.__new__(DealScore)
    old_names = {"cards": 0, "diamonds": 1, "bermila": None, "seven_of_diamonds": 1}
    counts = ((0, 0), (1, 2), (21, 19), (4, 6), (2, 2), (2, 2))
    names = ("chkobbas", "points", "card_counts", "diamond_counts", "seven_counts", "six_counts")
    score.__setstate__({**old_names, **dict(zip(names, counts, strict=True))})
    made = DealScore(0, 1, None, 1, *counts)
    assert score == made


@attrs.frozen(cache_hash=True)
class _Grown:
    """A value whose fields grew: one with a factory, and a cached hash."""

    kept: int
    added: tuple[int, ...] = attrs.field(factory=lambda: (7,))

    def __getstate__(self) -> dict[str, Any]:
        return fields_of(self)

    def __setstate__(self, fields: dict[str, Any]) -> None:
        restore(self, fields)


def test_restore_makes_a_factorys_default_and_resets_a_cached_hash() -> None:
    grown = _Grown.__new__(_Grown)
    grown.__setstate__({"kept": 3})
    assert grown.added == (7,) and grown == _Grown(3)
    assert hash(grown) == hash(_Grown(3))  # the hash slot was set, then worked out
    again = pickle.loads(pickle.dumps(grown))
    assert again == grown and hash(again) == hash(grown)


# --- values pickled before this version's own additions ---------------------------------


def test_a_game_pickled_before_it_kept_its_shuffles_deals_and_undoes() -> None:
    """Found by the review: ``Game`` now keeps the shuffles played, and a game pickled
    before that had none to read, so its next deal raised ``AttributeError``."""
    game = Game(seed=11)
    game.deal()
    old = pickle.loads(pickle.dumps(game))
    del old.__dict__["_shuffles"]  # as a game pickled before it kept them
    again = pickle.loads(pickle.dumps(old))
    assert again._shuffles == game._shuffles
    game.undo()
    again.undo()
    assert again.deal() == game.deal()


def test_a_deal_score_of_0_1_0_pickles_as_one_made_now(old: dict[str, Any]) -> None:
    score = old["states"][max(old["states"])].deal_scores[0]
    assert list(vars(score)) == [field.name for field in attrs.fields(DealScore)]
    assert pickle.dumps(score) == pickle.dumps(attrs.evolve(score))


def test_an_environment_pickled_before_it_kept_started_steps_on() -> None:
    gymnasium_env = pytest.importorskip("chkobba.gymnasium")
    env = gymnasium_env.ChkobbaEnv("random", seat=0)
    _, info = env.reset(seed=1)
    state = dict(vars(env))
    del state["_started"]  # as an environment pickled before it kept it
    old = gymnasium_env.ChkobbaEnv.__new__(gymnasium_env.ChkobbaEnv)
    old.__setstate__(state)
    action = int(info["action_mask"].nonzero()[0][0])
    assert old.step(action)[1:3] == env.step(action)[1:3]
