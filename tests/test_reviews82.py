"""Findings of stop 82's reviews: the docstrings read as living documentation (and
checked against what the code does), and the command's printed words checked against
what the engine did.

Each test of a fix failed on the code before it; the few that guard what a fix must
keep say so in a comment.
"""

from __future__ import annotations

import copy
import inspect
import io
import json
import os
import pickle
import random
import re
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
    DealScore,
    Phase,
    PlayerView,
    Rank,
    Record,
    Rules,
    Shuffle,
    State,
    apply,
    legal_moves,
    new_match,
    observe,
    random_shuffle,
    render,
)
from chkobba.arena import MatchResult, play_match, subseed
from chkobba.bots import ExpertBot, ISMCTSBot, PolicyBot
from chkobba.errors import shown
from tests.helpers import load_script, run_cli

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
    with pytest.raises(
        ChkobbaError, match=r"^subseed: an integer of about 5001 digits is too large to derive"
    ):
        subseed(10**5000)
    with pytest.raises(ChkobbaError, match=r"^play_match: seed .* is too large$"):
        play_match(["random", "random"], seed=10**5000)


def test_subseed_of_plain_ints_is_what_it_always_was() -> None:
    # A guard: the fix must keep every seed a record names.
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
    # A guard: what the new docstring says.
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
    assert "Last deal  deal 1000000000: " in render(state, deal=10**9)
    for bad in (0, -1, True, 1.5, "2", 10**9 + 1, 10**5000):
        with pytest.raises(ChkobbaError) as caught:
            render(state, deal=bad)  # type: ignore[arg-type]
        assert str(caught.value) == (
            f"render: deal must be a number from 1 to 1000000000, or None, not {shown(bad)}"
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
    # A guard: the fix shows a shuffle's board only when no cut follows.
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


# --- untrusted input: what a server reads from a client ------------------------------


def _crafted_table_document(king_worth: int) -> str:
    """Review D's 1.4 KB state: every rank worth 1 but the king, all 36 other cards on the
    table, a king in each hand. Every other check passes it."""
    state = apply(apply(new_match(), random_shuffle(random.Random(1))), Cut(keep=True))
    document = state.to_dict()
    document["rules"]["capture_values"] = [1] * 9 + [king_worth]
    kings = [str(c) for c in DECK if c.rank is Rank.KING]
    document.update(
        table=[str(c) for c in DECK if c.rank is not Rank.KING],
        hands=[[kings[0]], [kings[1]]],
        stock=[],
        captured=[[kings[2], kings[3]], []],
        last_capturer=0,
    )
    return json.dumps(document)


def test_a_table_no_play_can_reach_is_refused_before_any_listing() -> None:
    # It let a king worth 6 choose among 1,947,792 groups (17 s, 2.2 GB): now refused.
    document = _crafted_table_document(6)
    with pytest.raises(ChkobbaError) as caught:
        State.from_json(document)
    message = str(caught.value)
    assert message.startswith("inconsistent state: the table AS AH AD AC 2S ")
    assert message.endswith(
        "repeats capture values 35 times: a card whose value is on the table captures, so "
        "only the four dealt can share one (3 repeats at most under the tunisian profile)"
    )
    hidden = json.loads(document)
    state = apply(apply(new_match(), random_shuffle(random.Random(1))), Cut(keep=True))
    view = observe(state, 0).to_dict()  # the same position as player 0 sees it: a view
    view.update(  # carries its own rules
        rules=hidden["rules"],
        table=hidden["table"],
        hand=hidden["hands"][0],
        hand_sizes=[1, 1],
        stock_size=0,
        captured=hidden["captured"],
        last_capturer=0,
    )
    with pytest.raises(ChkobbaError, match="repeats capture values 35 times"):
        PlayerView.from_dict(view)


@pytest.mark.parametrize(
    ("rules", "limit"),
    [
        (TUNISIAN, 2),  # three of a rank void the deal, no two ranks share a value
        (CARD_RULES_PLUS, 3),
        (attrs.evolve(TUNISIAN, capture_values=(1, 2, 3, 4, 5, 6, 7, 8, 9, 9)), 3),
        (attrs.evolve(TUNISIAN, void_deal="never"), 3),
    ],
)
def test_the_table_repeats_only_the_first_deals_values(rules: Rules, limit: int) -> None:
    from chkobba.actions import max_capture_options
    from chkobba.checks import table_repeats_limit

    assert table_repeats_limit(rules) == limit
    # The bound on a card's capture options rests on it, and is unchanged.
    assert max_capture_options(TUNISIAN) == 28 and max_capture_options(CARD_RULES_PLUS) == 56


def test_every_table_of_random_play_repeats_values_within_the_limit() -> None:
    from chkobba.checks import table_repeats_limit

    rng = random.Random(82)
    worst = {TUNISIAN.name: 0, CARD_RULES_PLUS.name: 0}
    for rules in (TUNISIAN, CARD_RULES_PLUS):
        for _ in range(40):
            state = new_match(rules=rules)
            for _step in range(200):
                if state.is_over:
                    break
                legal = legal_moves(state)
                state = apply(state, rng.choice(legal) if legal else random_shuffle(rng))
                table = state.table
                repeats = len(table) - len({rules.value(c.rank) for c in table})
                worst[rules.name] = max(worst[rules.name], repeats)
                assert repeats <= table_repeats_limit(rules)
    assert worst[TUNISIAN.name] >= 1 and worst[CARD_RULES_PLUS.name] >= 1  # (the check ran)


def test_a_sum_of_chkobbas_too_long_to_write_is_named_short() -> None:
    state = apply(apply(new_match(), random_shuffle(random.Random(1))), Cut(keep=True))
    text = state.to_json()
    huge = "9" * 4300
    for chkobbas in (f"[{huge}, {huge}]", f"[{huge}, 0]"):
        with pytest.raises(ChkobbaError) as caught:  # was a raw ValueError for two
            State.from_json(text.replace('"chkobbas": [0, 0]', f'"chkobbas": {chkobbas}'))
        assert len(str(caught.value)) < 200
        assert "integer of about 430" in str(caught.value)


@pytest.mark.skipif(not hasattr(os, "fchmod"), reason="POSIX permissions")
def test_a_private_file_stays_private_while_its_new_copy_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import chkobba._files as files

    target = tmp_path / "private.json"
    target.write_text("{}", encoding="utf-8")
    target.chmod(0o600)
    modes: list[int] = []
    real_open, real_fsync = os.open, os.fsync

    def opening(path: Any, flags: int, mode: int = 0o777) -> int:  # created how open?
        descriptor = real_open(path, flags, mode)
        modes.append(os.fstat(descriptor).st_mode & 0o777)
        return descriptor

    def watching(descriptor: int) -> None:  # the data is written: how open is the file?
        modes.append(os.fstat(descriptor).st_mode & 0o777)
        real_fsync(descriptor)

    monkeypatch.setattr(files.os, "open", opening)
    monkeypatch.setattr(files.os, "fsync", watching)
    Record(players=2).save(target)
    # The umask's 0o644 until stop 82, then 0o600 only once it was written: a descriptor
    # opened in between read every hidden card.
    assert modes == [0o600, 0o600]
    assert target.stat().st_mode & 0o777 == 0o600
    modes.clear()
    fresh = tmp_path / "new.json"  # a new file is as open as the umask lets it be
    Record(players=2).save(fresh)
    umask = os.umask(0o022)
    os.umask(umask)
    assert modes == [0o666 & ~umask] * 2 and fresh.stat().st_mode & 0o777 == 0o666 & ~umask


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="links")
def test_saving_through_a_link_to_nothing_asks_first(tmp_path: Path) -> None:
    from chkobba.cli.output import Output
    from chkobba.cli.saving import offer_save

    planted = tmp_path / "elsewhere" / "planted.json"
    planted.parent.mkdir()
    link = tmp_path / "chkobba-2026-12-08-0058.json"
    link.symlink_to(planted)
    questions: list[str] = []
    answers = ["y", "", "n", "no"]

    def ask(question: str) -> str:
        questions.append(question)
        return answers.pop(0)

    out = Output(io.StringIO(), colour=False)
    assert offer_save(out, ask, Record(players=2), str(link)) is None
    assert questions[2] == f"'{link}' is a link to '{planted}': write there? [y/N] "
    assert not planted.exists()  # it wrote there without a word until stop 82


def test_replay_and_analyse_read_a_text_stream_in_place_of_standard_input(
    voided_record: Record,
) -> None:
    # A program's io.StringIO (docs/cli.md shows it for play) was "closed".
    code, out, err = run_cli("replay", "-", "--no-boards", stdin=voided_record.to_json())
    assert (code, err) == (0, "")
    assert "the record is complete" in out


def test_a_seed_of_too_many_digits_is_said_to_be_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli("simulate", "--games", "1", "--seed", "9" * 5000)
    assert code == 2
    assert "argument --seed: '999" in err and "… has too many digits" in err
    code, _, err = run_cli("simulate", "--games", "1", "--players", "x4")
    assert code == 2 and "'x4' is not a whole number" in err


def test_the_example_client_escapes_what_a_server_says() -> None:
    example = load_script(
        Path(__file__).resolve().parent.parent / "examples" / "tcp_server.py", "tcp_server_82"
    )
    hostile = "\x1b]0;owned\x07\x1b[2J\u202e"
    assert example._message_text({"type": "error", "message": hostile}, 0) == (
        "refused: \\x1b]0;owned\\x07\\x1b[2J\\u202e"
    )
    assert example._moves_text({"legal": ["7D", hostile]}) == (
        "your move: 1. 7D  2. \\x1b]0;owned\\x07\\x1b[2J\\u202e"
    )
    assert "\x1b" not in example._ending_text({"type": "over", "scores": [1], "winner": hostile})
    said: list[str] = []
    person = example._Person(said.append)
    person.heard({"type": "seat", "seat": 0, "players": hostile})
    assert said == ["you are player 0 of \\x1b]0;owned\\x07\\x1b[2J\\u202e"]
    assert example._message_text({"type": "timeout", "seat": 1}, 0) == (
        "player 1's time ran out: a move was made for them"
    )


# --- a client that trusts the JSON Schemas ------------------------------------------


def test_a_name_too_new_for_this_python_reads_back() -> None:
    import unicodedata

    # U+1FAE8 (shaking face) is Unicode 15: Python 3.13 writes such a name, and 3.11's
    # isprintable refused it, so its state, record and profile did not read back.
    newer = "\U0001fae8 club" if unicodedata.unidata_version < "15" else "\U000e0080 club"
    assert unicodedata.category(newer[0]) == "Cn"  # unknown to this Python
    profile = {**TUNISIAN.to_dict(), "name": newer}  # as the newer Python wrote it
    assert Rules.from_json(json.dumps(profile)).name == newer
    assert Rules.from_dict(profile).name == newer
    read = Rules.from_dict(profile)  # a profile read so pickles, to a worker say
    assert pickle.loads(pickle.dumps(read)) == read == copy.deepcopy(read)
    state = {**new_match().to_dict(), "rules": profile}
    assert State.from_json(json.dumps(state)).rules.name == newer
    record = {**Record(2).to_dict(), "rules": profile}
    assert Record.from_dict(record).rules.name == newer
    # Built here, a name holds only what this Python prints: a newer one, which may
    # know the character as a format control (U+13439 became one in Unicode 15), must
    # read everything an older one writes.
    with pytest.raises(ChkobbaError, match=r"^name must be printable text"):
        attrs.evolve(TUNISIAN, name=newer)
    with pytest.raises(ChkobbaError, match=r"^name must be printable text"):
        Rules(name=newer)


@pytest.mark.parametrize(
    "name", ["a\uffff", "a\ufdd0", "a\U0010fffe", "a\ue000", "a\u200d", "a\u00a0b", "a\x1b"]
)
def test_a_name_with_a_character_that_never_prints_is_still_refused(name: str) -> None:
    # A guard: what the reader tolerates now (a character too new) is not these.
    with pytest.raises(ChkobbaError, match=r"^name must be printable text"):
        attrs.evolve(TUNISIAN, name=name)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("points", [2.0, 1], "deal_score.points[0] must be a whole number, not 2.0 (a number)"),
        ("points", "4 1", 'deal_score.points must be a list, not "4 1" (text)'),
        ("chkobbas", True, "deal_score.chkobbas must be a list, not true (a boolean)"),
        (
            "primiera_sums",
            [1, None],
            "deal_score.primiera_sums[1] must be a whole number, not null",
        ),
        (
            "cards_winner",
            0.0,
            "deal_score.cards_winner must be a whole number or null, not 0.0 (a number)",
        ),
        (
            "bermila_winner",
            [0],
            "deal_score.bermila_winner must be a whole number or null, not [0] (a list)",
        ),
    ],
)
def test_a_deal_score_field_is_refused_in_its_own_words(
    field: str, value: object, message: str
) -> None:
    from tests.helpers import spades_and_diamonds_score

    # Each was "must be a whole number, null or a list of whole numbers", a winner too.
    with pytest.raises(ChkobbaError) as caught:
        DealScore.from_dict({**spades_and_diamonds_score().to_dict(), field: value})
    assert str(caught.value) == message


def test_the_deal_score_schema_is_a_file_and_the_state_schemas_definition() -> None:
    from tests.helpers import shipped_schema

    shipped = shipped_schema("deal_score")
    state = shipped_schema("state")
    assert shipped == DealScore.json_schema()
    assert shipped.pop("$id") == "urn:chkobba:deal-score:1"
    assert shipped.pop("title") == "Chkobba deal score, format version 1"
    assert shipped.pop("$schema") == state["$schema"]
    assert shipped == state["$defs"]["deal_score"]
