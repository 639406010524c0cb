"""A contract audit of the user documentation's prose: what the running text of the pages
promises.

The ``>>>`` examples of ``docs/*.md`` run as doctests and their shell blocks were checked
by hand; nothing checked the sentences around them. The pages ``docs/rules.md``,
``docs/api.md``, ``docs/notation.md``, ``docs/records.md``, ``docs/snapshots.md``,
``docs/cli.md`` and ``docs/gymnasium.md`` were read sentence by sentence, tables
included, and every checkable promise ("raises ... naming ...", "keyword-only", "is
ignored", "for this episode only", "lines after it are not read", defaults, limits, edge
cases, bad input) was run, through the library or the ``chkobba`` command in this
process. The suite already pinned almost all of them (the clean-room rules model, the
mutation-gap, hardening, stateful and audit files, and the docstring audits
``tests/test_audit_docstrings.py`` and ``tests/test_audit_docstrings_bots.py``). The tests
here are the promises no test pinned, one test per promise, named after it and grouped
by page; each quotes the sentence it checks.

No promise was found false: every test below states a promise that holds.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path
from typing import Any

import attrs
import pytest

from chkobba import (
    CARD_RULES_PLUS,
    DECK,
    TUNISIAN,
    ChkobbaError,
    Cut,
    Phase,
    Play,
    Record,
    RecordError,
    Rules,
    State,
    apply,
    card,
    check_state,
    illegal_reason,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
    render,
    score_deal,
)
from chkobba.events import apply_with_outcome
from tests.helpers import dealt, random_history, run_cli, stacked_shuffle

# --- docs/rules.md ----------------------------------------------------------------------


def test_only_name_capture_values_and_target_may_be_given_by_position() -> None:
    # rules.md: "Only `name`, `capture_values` and `target` may be given by position
    # (`Rules("house", values, 16)`); every other field is keyword-only."
    values = TUNISIAN.capture_values
    house = Rules("house", values, 16)
    assert house == attrs.evolve(TUNISIAN, name="house", target=16)
    with pytest.raises(TypeError):
        Rules("house", values, 16, (2, 4))  # type: ignore[call-arg]


def test_a_three_player_deal_has_four_rounds_of_three_cards() -> None:
    # rules.md (CardRulesPlus): "With 3 players a deal has 4 rounds of 3 cards."
    rng = random.Random(3)
    state = new_match(3, rules=CARD_RULES_PLUS)
    refills = plays = 0
    while not state.deal_scores:
        move = random_shuffle(rng) if state.is_chance else rng.choice(legal_moves(state))
        state, what = apply_with_outcome(state, move)
        refills += what.refilled
        plays += isinstance(move, Play)
    assert (refills + 1, plays) == (4, 36)  # 4 rounds: the deal and 3 refills, 12 x 3 cards


# --- docs/api.md ------------------------------------------------------------------------


def test_new_match_takes_all_but_the_player_count_by_keyword_only() -> None:
    # api.md: "`new_match(players=2, *, dealer=0, scores=None, rules=TUNISIAN)`"
    assert new_match().players == 2 and new_match().dealer == 0
    assert new_match().rules is TUNISIAN and new_match().scores == (0, 0)
    with pytest.raises(TypeError):
        new_match(2, 1)  # type: ignore[call-arg]


def test_score_deal_takes_the_last_capturer_side_by_keyword_only() -> None:
    # api.md: "`score_deal(captured, chkobbas, rules=TUNISIAN, *, last_capturer_side=None)`"
    even = (DECK[:20], DECK[20:])
    assert score_deal(even, (0, 0)) == score_deal(even, (0, 0), TUNISIAN)
    with pytest.raises(TypeError):
        score_deal(even, (0, 0), TUNISIAN, 1)  # type: ignore[call-arg]


def test_a_views_mover_is_the_states_and_raises_when_nobody_is_to_move() -> None:
    # api.md: "`state.mover` (and `view.mover`) is the same seat typed `int`, and raises
    # `ChkobbaError` when nobody is to move"
    state = dealt(hands=["AS 2S 3S", "4S 5S 6S"], table="7C QH JD KS")
    assert [observe(state, seat).mover for seat in (0, 1)] == [state.mover] * 2 == [1, 1]
    fresh = observe(new_match(), 0)
    with pytest.raises(ChkobbaError, match="nobody is to move in phase SHUFFLE"):
        _ = fresh.mover
    # "... `legal_moves(view)` gives its player's legal moves when that player is to move
    # and `()` otherwise, and `illegal_reason(view, move)` ... say whose turn it is."
    assert legal_moves(fresh) == ()
    assert illegal_reason(fresh, Play(card("AS"))) == (
        "player 0 is not to move: the next move is the shuffle, drawn by whoever runs the match"
    )


def test_check_state_refuses_a_cut_phase_under_a_profile_without_the_cut() -> None:
    # api.md: check_state names "what the phase requires (... no `CUT` phase when the
    # profile has no cut)"
    at_the_cut = apply(new_match(), random_shuffle(random.Random(1)))
    assert at_the_cut.phase is Phase.CUT and check_state(at_the_cut) is at_the_cut
    no_cut = attrs.evolve(TUNISIAN, name="no cut", cut=False)
    with pytest.raises(ChkobbaError) as refused:
        check_state(attrs.evolve(at_the_cut, rules=no_cut))
    assert str(refused.value) == (
        "inconsistent state: the no cut profile has no cut (rules.cut is False): no phase CUT"
    )


def test_a_states_pickle_does_not_hold_its_listed_moves_or_its_cached_hash() -> None:
    # api.md: "the same value, made the same way ..., gives the same bytes in every
    # process, whatever was asked of it (a state's listed moves and cached hash are not
    # pickled)"
    states, _moves = random_history(4, max_moves=12)
    for state in states:
        fresh = pickle.dumps(state)
        hash(state)
        legal_moves(state)
        assert pickle.dumps(state) == fresh
        assert pickle.loads(fresh) == state


# --- docs/records.md --------------------------------------------------------------------


def test_a_card_alone_in_a_record_is_laid_without_a_capture_never_resolved() -> None:
    # records.md: "moves may use any form that `parse_move` reads without a state ..., but
    # not the short forms that need a position: a card alone is a card laid without a
    # capture"
    order = stacked_shuffle(hands=["AS 2S 3S", "QH 4C 5C"], table="2D 6D KS KC")
    data = Record(players=2, moves=[order, Cut(keep=False)]).to_dict()
    data["moves"].append("QH")  # the queen's one legal move is QH x 2D+6D
    with pytest.raises(RecordError) as refused:
        Record.from_dict(data)
    assert str(refused.value) == (
        "move 3 (index 2) ('QH') is not legal: QH must capture: it can take 2D+6D"
    )
    data["moves"][-1] = "qh x 6d 2d"  # the forgiving forms of a whole move are read
    assert Record.from_dict(data).moves[-1] == Play(card("QH"), (card("2D"), card("6D")))


def test_a_newer_version_is_reported_as_such_not_as_its_unknown_fields() -> None:
    # records.md: "`format` and `version` are checked first, so a file of a newer version
    # is reported as such (...) rather than as a list of unknown fields"
    newer = {"format": "chkobba-record", "version": 2, "result": "1-0", "clock": [1, 2]}
    with pytest.raises(RecordError) as refused:
        Record.from_json(json.dumps(newer))
    assert str(refused.value) == (
        "version 2 is not supported (newer than this library reads): this library reads 1"
    )


# --- docs/snapshots.md ------------------------------------------------------------------


def test_a_states_rules_object_needs_every_key_a_records_may_leave_out() -> None:
    # snapshots.md: "`rules` is the same object as a record's `rules` ..., except that
    # here every key is required"
    state = dealt(hands=["AS 2S 3S", "QH 4C 5C"], table="2D 6D KS KC")
    data = json.loads(json.dumps(state.to_dict()))
    del data["rules"]["primiera"]
    with pytest.raises(ChkobbaError) as refused:
        State.from_dict(data)
    assert str(refused.value) == "rules: missing field 'primiera'"
    record = Record(players=2).to_dict()
    del record["rules"]["primiera"]
    assert Record.from_dict(record).rules == TUNISIAN  # a record's takes the default


def test_a_hand_written_in_another_order_is_another_state() -> None:
    # snapshots.md: `hands`: "by player, in the order dealt: states compare by it (a hand
    # written in another order is another state, its moves listed in another order), so
    # store it as given"
    state = dealt(hands=["AS 2S 3S", "QH 4C 5C"], table="2D 6D KS KC")
    data = json.loads(json.dumps(state.to_dict()))
    data["hands"][1].reverse()
    other = State.from_dict(data)
    assert other != state and State.from_dict(state.to_dict()) == state
    assert [str(m) for m in legal_moves(state)] == ["QH x 2D+6D", "4C", "5C"]
    assert [str(m) for m in legal_moves(other)] == ["5C", "4C", "QH x 2D+6D"]
    assert render(other) == render(state)  # the board shows hands in deck order


# --- docs/cli.md ------------------------------------------------------------------------


def test_replay_and_analyse_do_not_read_the_lines_after_the_game_chosen(tmp_path: Path) -> None:
    # cli.md: "The records are read one at a time and reading stops at the one chosen,
    # ... and its lines after game 5 are not read (nor checked)."
    _states, moves = random_history(8, max_moves=20)
    path = tmp_path / "matches.jsonl"
    whole = Record(players=2, moves=moves).to_json(compact=True)
    path.write_text(whole + "\n{not a record\n", encoding="utf-8")
    assert run_cli("replay", str(path), "--game", "1", "--no-boards")[0] == 0
    assert run_cli("analyse", str(path), "--game", "1", "--bot", "ismcts:iterations=20")[0] == 0
    code, _out, err = run_cli("replay", str(path), "--game", "2", "--no-boards")
    assert code == 1 and f"'{path}', line 2: the record is not valid JSON" in err


def test_the_partner_is_the_opponents_kind_unless_given() -> None:
    # cli.md: "At 4 players your partner sits in seat 2: the `--partner` bot, or the same
    # kind as the opponents"
    code, out, _err = run_cli("play", "--players", "4", "--opponent", "random", "--seed", "2")
    assert code == 0
    assert out.splitlines()[0] == (
        "You are player 0; player 1: random, player 2: random (your partner), "
        "player 3: random; seed 2."
    )


def test_a_partner_is_refused_at_three_players() -> None:
    # cli.md: "(`--partner` at 2 or 3 players, where nobody has a partner, is refused)"
    args = ("--players", "3", "--rules", "cardrulesplus", "--partner", "random", "--seed", "2")
    assert run_cli("play", *args) == (
        2,
        "",
        "chkobba play: error: argument --partner: a 3-player match has no partners; "
        "--partner needs --players 4 (see chkobba play --help)\n",
    )


def test_analyse_of_one_seat_gives_its_moves_the_values_of_the_full_review(
    tmp_path: Path,
) -> None:
    # cli.md: "each position gets a bot of its own, seeded with the seed plus the move's
    # index, so `--seat` gives a seat's moves the values of the full review."
    _states, moves = random_history(8, max_moves=20)
    path = tmp_path / "r.json"
    Record(players=2, moves=moves).save(path)
    review = ("analyse", str(path), "--bot", "ismcts:iterations=20", "--seed", "3", "--json")
    code, full, _ = run_cli(*review)
    code_one, one, _ = run_cli(*review, "--seat", "1")
    assert code == code_one == 0
    everyone, seat_1 = json.loads(full)["moves"], json.loads(one)["moves"]
    assert seat_1 and len(seat_1) < len(everyone)
    assert seat_1 == [move for move in everyone if move["player"] == 1]


# --- docs/gymnasium.md ------------------------------------------------------------------


def _finish(env: Any, info: dict[str, Any]) -> tuple[float, Any]:
    """Play the lowest legal id until the episode ends: its last reward and info."""
    np = pytest.importorskip("numpy")
    reward, done = 0.0, False
    while not done:
        _, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    return reward, info


def test_the_environments_options_and_their_defaults() -> None:
    # gymnasium.md: "`ChkobbaEnv(opponent="greedy", *, players=2, seat="alternate",
    # rules=TUNISIAN, single_deal=False, deal_reward=0.0, features=False,
    # illegal_action="terminate", render_mode=None)`; `gymnasium.make(...)` takes the same."
    gymnasium = pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ENV_ID, ChkobbaEnv

    for env in (ChkobbaEnv(), gymnasium.make(ENV_ID).unwrapped):
        assert (env.players, env.seat, env.rules) == (2, "alternate", TUNISIAN)
        assert (env.single_deal, env.deal_reward, env.features) == (False, 0.0, False)
        assert (env.illegal_action, env.render_mode) == ("terminate", None)
    with pytest.raises(TypeError):
        ChkobbaEnv("random", 4)  # type: ignore[call-arg]
    # The default opponent plays as "greedy" does: the same seed, the same episode.
    default, greedy = ChkobbaEnv(single_deal=True), ChkobbaEnv("greedy", single_deal=True)
    _, info = default.reset(seed=5)
    _, greedy_info = greedy.reset(seed=5)
    assert _finish(default, info)[0] == _finish(greedy, greedy_info)[0]
    assert default.match_state == greedy.match_state


def test_deal_reward_is_for_whole_matches_only() -> None:
    # gymnasium.md: "`deal_reward` | whole matches only: also `deal_reward x (our points -
    # theirs)` at the end of every deal"
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    rewards = []
    for scale in (0.0, 5.0):
        env = ChkobbaEnv("random", single_deal=True, deal_reward=scale)
        _, info = env.reset(seed=4)
        assert env.reward_range == (-22.0, 22.0)
        reward, info = _finish(env, info)
        points = info["deal"]["points"]
        assert reward == points[info["side"]] - points[1 - info["side"]] != 0  # not a tie
        rewards.append(reward)
    assert rewards[0] == rewards[1]


def test_the_seat_option_holds_for_its_episode_only() -> None:
    # gymnasium.md: "`reset(seed=..., options=...)` accepts the options `single_deal` (it
    # **persists** ...), `seat` (this episode only) and `dealer`"
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    fixed = ChkobbaEnv("random", seat=0)
    assert fixed.reset(seed=1)[1]["seat"] == 0
    assert fixed.reset(options={"seat": 1})[1]["seat"] == 1
    assert fixed.reset()[1]["seat"] == 0
    rotating = ChkobbaEnv("random")
    seats = [rotating.reset(seed=1)[1]["seat"], rotating.reset(options={"seat": 0})[1]["seat"]]
    seats += [rotating.reset()[1]["seat"], rotating.reset()[1]["seat"]]
    assert seats == [0, 0, 1, 0]  # the rotation goes on as if the option were not given


def test_render_without_a_mode_returns_the_referees_board() -> None:
    # gymnasium.md: "`"ansi"` (the text board of every hand: the referee's view) ... With
    # none (`None`, the default) `render()` still returns the text board, as with
    # `"ansi"`."
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    plain, ansi = ChkobbaEnv("random"), ChkobbaEnv("random", render_mode="ansi")
    plain.reset(seed=2)
    ansi.reset(seed=2)
    assert plain.render() == ansi.render() == render(plain.match_state)


def test_a_lambda_opponent_deep_copies_but_does_not_pickle() -> None:
    # gymnasium.md: "An environment whose opponent is a lambda or a function defined inside
    # another deep-copies but does not pickle"
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    env = ChkobbaEnv(lambda observation, mask: int(np.flatnonzero(mask)[0]), single_deal=True)
    _, info = env.reset(seed=0)
    twin = copy.deepcopy(env)
    assert twin.position == env.position
    assert _finish(twin, dict(info))[0] == _finish(copy.deepcopy(env), dict(info))[0]
    with pytest.raises((pickle.PicklingError, AttributeError)):
        pickle.dumps(env)


def test_the_features_cover_the_first_70_ids_under_a_profile_with_more() -> None:
    # gymnasium.md: "The per-action pieces cover the first 70 action ids ...: under a
    # profile with more ids (CardRulesPlus's 98, ...), the capture ids from 70 on have no
    # features"
    pytest.importorskip("gymnasium")
    from chkobba.actions import num_actions
    from chkobba.features import FEATURE_SIZE
    from chkobba.gymnasium import ChkobbaEnv
    from chkobba.observations import OBSERVATION_SIZE

    assert num_actions(CARD_RULES_PLUS) == 98 and FEATURE_SIZE == 141
    env = ChkobbaEnv("random", rules=CARD_RULES_PLUS, features=True)
    observation, info = env.reset(seed=0)
    assert env.action_space.contains(97) and not env.action_space.contains(98)
    assert info["action_mask"].shape == (98,)
    assert observation.shape == (OBSERVATION_SIZE + FEATURE_SIZE,) == (454,)


def test_an_all_zero_mask_samples_action_0() -> None:
    # gymnasium.md: "Sample anything for such a row (`Discrete.sample` with an all-zero
    # mask gives 0)" -- Gymnasium's behaviour, on which the advice rests.
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    env = ChkobbaEnv("random", single_deal=True)
    _, info = env.reset(seed=4)
    _, info = _finish(env, info)
    assert not info["action_mask"].any()
    assert env.action_space.sample(np.zeros(70, dtype=np.int8)) == 0
    assert env.action_space.sample(info["action_mask"]) == 0
