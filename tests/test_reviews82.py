"""Findings of stop 82's reviews: the docstrings read as living documentation (and
checked against what the code does), and the command's printed words checked against
what the engine did.

Each test failed on the code before its fix.
"""

from __future__ import annotations

import inspect
import random
import re
from pathlib import Path
from typing import Any

import pytest

from chkobba import (
    CARD_RULES_PLUS,
    ChkobbaError,
    Cut,
    Phase,
    Record,
    Shuffle,
    apply,
    new_match,
    observe,
    random_shuffle,
    render,
)
from chkobba.arena import MatchResult, play_match, subseed
from chkobba.bots import ExpertBot, ISMCTSBot, PolicyBot
from chkobba.errors import shown
from tests.helpers import run_cli

# --- subseed: the seeds of an integer of any integral type, nothing else --------------


def test_subseed_gives_a_numpy_integer_the_seeds_of_the_plain_int() -> None:
    np = pytest.importorskip("numpy")
    # It hashed repr((seed, *parts)): numpy 2 writes np.int64(1), numpy 1 wrote 1.
    assert subseed(np.int64(1), 2) == subseed(1, 2) == subseed(1, np.int32(2))
    assert subseed(np.uint8(7)) == subseed(7)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((True, 2), "subseed: seed must be an integer, not True"),
        ((1.0, 2), "subseed: seed must be an integer, not 1.0"),
        (("1", 2), "subseed: seed must be an integer, not '1'"),
        ((None,), "subseed: seed must be an integer, not None"),
        ((1, 2, "3"), "subseed: parts[1] must be an integer, not '3'"),
        ((1, False), "subseed: parts[0] must be an integer, not False"),
    ],
)
def test_subseed_refuses_what_is_not_an_integer(arguments: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ChkobbaError) as caught:
        subseed(*arguments)
    assert str(caught.value) == message


def test_subseed_of_a_huge_integer_is_refused_by_name() -> None:
    with pytest.raises(ChkobbaError, match=r"^subseed: .*about 5001 digits.* too large"):
        subseed(10**5000)
    with pytest.raises(ChkobbaError, match=r"^play_match: seed .* is too large$"):
        play_match(["random", "random"], seed=10**5000)


def test_subseed_of_plain_ints_is_what_it_always_was() -> None:
    # Records name their bots' seeds: the derivation of plain ints must never change.
    assert subseed(1, 2) == 7777801250388762567
    assert subseed(2026, 1) != subseed(2026, 2)


# --- messages quote a long repr from its start --------------------------------------


def test_a_bot_asked_to_choose_among_nothing_is_named_from_its_start() -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(4))), Cut(keep=False))
    view = observe(state, state.current_player)
    for bot in (ISMCTSBot(iterations=5, seed=1), ExpertBot(seed=1)):
        with pytest.raises(ChkobbaError) as caught:
            bot.choose(view, ())
        text = str(caught.value)
        # reprlib dropped the middle: "ISMCTSBot(iterations=5, explo...erence=0, …".
        assert "..." not in text
        assert text.startswith(f"{type(bot).__name__}(iterations=")
        assert ", exploration=0.7, epsilon=0.1, " in text
        assert text.endswith("… was asked to choose among no legal moves")


def test_a_long_repr_inside_a_container_is_cut_at_its_end() -> None:
    class Long:
        def __repr__(self) -> str:
            return "Long(" + ", ".join(f"f{i}={i}" for i in range(30)) + ")"

    assert shown([Long()]).startswith("[Long(f0=0, f1=1, f2=2, ")
    assert "..." not in shown([Long()]) and "..." not in shown(Long())
    assert len(shown([Long()], 200)) == 62 + 2  # the item cut to 62 characters, in brackets

    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    assert shown([Broken()]) == "[<Broken object>]"


# --- Gymnasium: a reset option of another name is refused --------------------------


def test_a_misspelt_gymnasium_reset_option_is_refused_and_changes_nothing() -> None:
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    env = ChkobbaEnv("random", illegal_action="raise")
    env.reset(seed=1)
    before = env.match_state
    with pytest.raises(ChkobbaError) as caught:
        env.reset(options={"singel_deal": True})
    assert str(caught.value) == (
        "reset: unknown option 'singel_deal' (the options are 'single_deal', 'seat', 'dealer')"
    )
    assert env.match_state == before and env.single_deal is False
    with pytest.raises(ChkobbaError, match=r"^reset: unknown option 3 "):
        env.reset(options={3: True, "seat": 1})
    env.reset(options={"single_deal": True, "seat": 1, "dealer": 0})  # the known ones play
    assert env.single_deal is True and env.learner == 1
    env.reset(options={})  # check_env's reset


# --- PettingZoo: state() says what to use instead -----------------------------------


def test_the_pettingzoo_environment_says_it_has_no_global_state() -> None:
    pytest.importorskip("pettingzoo")
    from chkobba.pettingzoo import env as make_env

    game = make_env()
    game.reset(seed=1)
    with pytest.raises(NotImplementedError, match="match_state"):
        game.unwrapped.state()
    assert "match_state" in (inspect.getdoc(game.unwrapped.state) or "")


# --- docstrings that left out an option that changes behaviour ----------------------


@pytest.mark.parametrize(
    ("documented", "words"),
    [
        (play_match, ("``players``", "partners")),
        (ISMCTSBot, ("``exploration``", "DEFAULT_ITERATIONS", "UCB1")),
        (PolicyBot, ("``name``",)),
        (MatchResult, ("``winner``",)),
    ],
)
def test_a_docstring_names_what_changes_behaviour(documented: object, words: tuple[str]) -> None:
    text = inspect.getdoc(documented) or ""
    for word in words:
        assert word in text


def test_match_result_has_the_fields_its_docstring_names() -> None:
    text = inspect.getdoc(MatchResult) or ""
    import attrs

    for field in attrs.fields(MatchResult):
        assert f"``{field.name}``" in text
    assert "``side``" not in text


def test_the_adapters_docstrings_name_their_options() -> None:
    pytest.importorskip("gymnasium")
    from chkobba.gymnasium import ChkobbaEnv

    assert "``render_mode``" in (inspect.getdoc(ChkobbaEnv) or "")
    pytest.importorskip("pyspiel")
    from chkobba.openspiel import ChkobbaState

    text = inspect.getdoc(ChkobbaState.observation_text) or ""
    assert "private=False" in text and "public=False" in text
    for name in ("current_player", "is_terminal", "chance_outcomes", "returns"):
        doc = getattr(ChkobbaState, name).__doc__ or ""
        assert "pyspiel.State" not in doc and len(doc) > 40, name


def test_a_policy_bot_is_named_as_documented() -> None:
    assert PolicyBot(lambda o, m: 0).name == "policy"
    assert PolicyBot(lambda o, m: 0, name="mine").name == "mine"


# --- the words the command prints against what happened ----------------------------


@pytest.fixture(scope="module")
def voided_record() -> Record:
    """A match whose eighth deal was void (three aces on the table): 10 shuffles, 9
    deals scored."""
    record = play_match(["random", "random"], seed=7).record
    shuffles = sum(isinstance(move, Shuffle) for move in record.moves)
    assert (shuffles, len(record.final().deal_scores)) == (10, 9)
    return record


def test_replay_numbers_the_last_deal_as_its_narration_after_a_void_deal(
    voided_record: Record, tmp_path: Path
) -> None:
    path = tmp_path / "voided.json"
    voided_record.save(path)
    code, out, err = run_cli("replay", str(path), "--no-step", "--no-colour")
    assert code == 0, err
    headed = re.findall(r"^   deal (\d+): player", out, re.MULTILINE)
    boards = re.findall(r"Last deal  deal (\d+):", out)
    assert headed == [str(n) for n in range(1, 11)]
    # Each deal's last board names it; the void 8th's board (after its cut) names the
    # last deal scored, the 7th. Counting scored deals gave 1-7, 8, 8, 9 (the last two
    # one behind the narration).
    assert boards == ["1", "2", "3", "4", "5", "6", "7", "7", "9", "10"]
    code, out, err = run_cli("replay", str(path), "--no-step", "--no-colour", "--deal", "9")
    assert re.findall(r"Last deal  deal (\d+):", out) == ["9"], err


def test_render_numbers_the_last_deal_as_asked(voided_record: Record) -> None:
    state = voided_record.start()
    for move in voided_record.moves:
        state = apply(state, move)
        if state.phase is Phase.SHUFFLE and state.deal_scores:
            break
    assert "Last deal  deal 1: " in render(state)
    assert "Last deal  deal 4: " in render(state, deal=4)
    assert "Last deal  deal 4: " in render(state, 1, deal=4)
    assert "Last deal  deal 4: " in render(observe(state, 0), deal=4)
    for bad in (0, -1, True, 1.5, "2"):
        with pytest.raises(ChkobbaError) as caught:
            render(state, deal=bad)  # type: ignore[arg-type]
        assert str(caught.value) == (
            f"render: deal must be a number from 1, or None, not {shown(bad)}"
        )


def test_replay_shows_the_hands_a_shuffle_deals_without_a_cut(tmp_path: Path) -> None:
    record = play_match(["greedy", "random"], seed=13, rules=CARD_RULES_PLUS).record
    path = tmp_path / "plus.json"
    record.save(path)
    code, out, err = run_cli("replay", str(path), "--no-step", "--no-colour", "--deal", "2")
    assert code == 0, err
    shuffle = out.index(". shuffle\n")
    first_play = re.search(r"^\d+\. [^s]", out[shuffle:], re.MULTILINE)
    assert first_play is not None
    dealt = out[shuffle : shuffle + first_play.start()]  # what the shuffle's entry shows
    assert "Hands      player 0: A♠ 3♦ 6♥" in dealt and "Turn       player 1 to play" in dealt


def test_a_tunisian_shuffle_leaves_the_board_to_the_cut(
    voided_record: Record, tmp_path: Path
) -> None:
    path = tmp_path / "voided.json"
    voided_record.save(path)
    code, out, err = run_cli("replay", str(path), "--no-step", "--no-colour", "--deal", "2")
    assert code == 0, err
    shuffle, cut = (
        out.index(". shuffle\n"),
        out.index(". keep") if ". keep" in out else (out.index(". expose")),
    )
    assert "Chkobba: 2 players" not in out[shuffle:cut]


def test_a_value_rounded_to_zero_has_no_sign() -> None:
    from chkobba.bots.analysis import points_text

    assert points_text(-0.004) == "+0.00 points"
    assert points_text(-0.004, sign="") == "0.00 points"
    assert points_text(-0.0, sign="-") == "0.00 points"
    assert points_text(0.004, sign=" ") == " 0.00 points"
    assert points_text(-0.006) == "-0.01 points"
