"""House profiles on the command line: ``--rules FILE``, ``chkobba rules``, and the records
such a match writes (read back by ``replay`` and ``analyse``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import attrs
import pytest

from chkobba import CARD_RULES_PLUS, TUNISIAN, ChkobbaError, Record, Rules
from chkobba.rules import profile
from tests.helpers import run_cli as run
from tests.helpers import schema_validator

# Observably not the Tunisian profile: a match to 3, no cut card, a primiera point.
HOUSE = attrs.evolve(TUNISIAN, name="house", target=3, cut=False, primiera=True)


@pytest.fixture
def house(tmp_path: Path) -> Path:
    """A house profile's file, written as ``chkobba rules`` prints one."""
    path = tmp_path / "house.json"
    path.write_text(json.dumps(HOUSE.to_dict(), indent=2), encoding="utf-8")
    return path


# --- chkobba rules ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"), [((), TUNISIAN), (("cardrulesplus",), CARD_RULES_PLUS)]
)
def test_rules_prints_a_named_profile_that_reads_back(args: tuple[str, ...], expected: Any) -> None:
    code, text, err = run("rules", *args)
    assert (code, err) == (0, "")
    assert Rules.from_dict(json.loads(text)) == expected
    assert f'  "name": "{expected.name}",\n' in text  # one field per line, to edit
    assert '  "capture_values": [1, 2, 3, 4, 5, 6, 7, ' in text


def test_rules_checks_a_house_file_and_prints_it_back(house: Path, tmp_path: Path) -> None:
    code, text, _ = run("rules", str(house))
    assert code == 0 and Rules.from_dict(json.loads(text)) == HOUSE
    # What it prints is a file --rules reads: the documented way to start a house profile.
    copy = tmp_path / "copy.json"
    copy.write_text(text, encoding="utf-8")
    assert Rules.load(copy) == HOUSE


def test_rules_has_help_that_says_how_to_start_a_house_file() -> None:
    code, text, _ = run("rules", "--help")
    assert code == 0 and "chkobba rules tunisian > house.json" in text
    code, text, _ = run("--help")
    assert code == 0 and "rules" in text and "print a rule profile as JSON" in text


# --- the commands that play: the file's profile is the one played ----------------------


def test_demo_plays_the_house_file(house: Path) -> None:
    code, text, _ = run("demo", "--seed", "3", "--rules", str(house))
    assert code == 0
    assert "rules: house, match to 3" in text
    assert "cuts and" not in text  # cut=False: no cut card
    assert "  primiera" in text  # primiera=True: the deal's score has the category
    # The match ends after the first deal where a side has reached 3, not 21.
    totals = [max(map(int, t.split("-"))) for t in re.findall(r"; match (\d+-\d+)", text)]
    assert totals and max(totals[:-1], default=0) < 3 <= totals[-1] < 21
    assert "wins the match" in text.splitlines()[-1]
    _, tunisian, _ = run("demo", "--seed", "3")
    assert "cuts and" in tunisian and "  primiera" not in tunisian


def test_simulate_plays_the_house_file_and_target_overrides_it(house: Path) -> None:
    args = ("simulate", "--games", "2", "--bots", "greedy", "random", "--json")
    code, text, _ = run(*args, "--rules", str(house))
    assert code == 0
    data = json.loads(text)
    assert (data["rules"], data["target"]) == ("house", 3)
    assert Rules.from_dict(data["profile"]) == Rules.load(house)  # the whole house profile
    code, text, _ = run(*args, "--rules", str(house), "--target", "5")
    assert code == 0
    assert (json.loads(text)["rules"], json.loads(text)["target"]) == ("house", 5)
    code, text, _ = run("simulate", "--games", "2", "--bots", "greedy", "random", "--rules",
                        str(house))  # fmt: skip
    assert code == 0 and "2 matches, 2 players, house rules to 3, seed 0" in text


def test_play_records_the_house_profile_and_replay_and_analyse_read_it(
    house: Path, tmp_path: Path
) -> None:
    saved = tmp_path / "match.json"
    code, text, _ = run(
        "play", "--rules", str(house), "--seed", "4", stdin=f"1\n1\n1\nquit\ny\n{saved}\n"
    )
    assert code == 0, text
    assert "house rules, match to 3" in text and "you cut" not in text
    record = Record.load(saved)
    assert record.rules == HOUSE and record.tags["profile"] == "house"
    assert len(record.moves) > 3  # the shuffle, three of ours and the bot's between
    code, text, _ = run("replay", str(saved), "--no-step")
    assert code == 0 and "house rules, match to 3" in text
    code, text, _ = run("analyse", str(saved), "--seat", "0", "--json")
    assert code == 0 and len(json.loads(text)["moves"]) >= 1


def test_simulate_records_replay_and_analyse_under_the_house_profile(
    house: Path, tmp_path: Path
) -> None:
    lines = tmp_path / "matches.jsonl"
    args = ("simulate", "--games", "2", "--bots", "greedy", "random", "--rules", str(house))
    assert run(*args, "--records", str(lines))[0] == 0
    records = Record.load_lines(lines)
    assert [r.rules for r in records] == [HOUSE, HOUSE]
    assert all(max(r.final().scores) >= 3 for r in records)  # played to the file's target
    code, text, _ = run("replay", str(lines), "--game", "2", "--no-step")
    assert code == 0 and "house rules, match to 3" in text and "cuts and" not in text
    code, text, _ = run("analyse", str(lines), "--game", "1", "--worst", "0", "--json")
    assert code == 0 and json.loads(text)["moves"]


@pytest.mark.out_of_process
def test_worker_processes_play_the_house_profile(house: Path, tmp_path: Path) -> None:
    args = ["simulate", "--games", "2", "--bots", "greedy", "random", "--rules", str(house)]
    lines = tmp_path / "matches.jsonl"
    code, pooled, _ = run(*args, "--workers", "2", "--json", "--records", str(lines))
    assert code == 0
    assert [r.rules for r in Record.load_lines(lines)] == [HOUSE, HOUSE]
    assert json.loads(pooled) == json.loads(run(*args, "--json")[1])


class _FakeDistributed:
    """Stands in for Dask's ``distributed``: its executor is a pool of fresh processes,
    so the jobs (and their profile) are pickled to another interpreter as Dask does."""

    class Client:
        def __init__(self, address: str, timeout: str) -> None:
            self.pool = ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn"))

        def __enter__(self) -> _FakeDistributed.Client:
            return self

        def __exit__(self, *exc: object) -> None:
            self.pool.shutdown()

        def get_executor(self) -> Executor:
            return self.pool


@pytest.mark.out_of_process
def test_a_scheduler_receives_the_house_profile(
    house: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    real = importlib.import_module

    def fake(name: str, *args: Any) -> Any:
        return _FakeDistributed if name == "distributed" else real(name, *args)

    monkeypatch.setattr(importlib, "import_module", fake)
    lines = tmp_path / "matches.jsonl"
    args = ["simulate", "--games", "2", "--bots", "greedy", "random", "--rules", str(house)]
    code, on_cluster, err = run(*args, "--scheduler", "tcp://x:1", "--json", "--records",
                                str(lines))  # fmt: skip
    assert code == 0, err
    assert [r.rules for r in Record.load_lines(lines)] == [HOUSE, HOUSE]
    assert json.loads(on_cluster) == json.loads(run(*args, "--json")[1])


# --- names and files --------------------------------------------------------------------


@contextmanager
def _inside(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with monkeypatch.context() as patch:
        patch.chdir(folder)
        yield


def test_a_profile_name_wins_over_a_file_of_that_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cardrulesplus").write_text(json.dumps(HOUSE.to_dict()), encoding="utf-8")
    args = ("simulate", "--games", "2", "--bots", "greedy", "random", "--json", "--rules")
    with _inside(tmp_path, monkeypatch):
        assert json.loads(run(*args, "cardrulesplus")[1])["rules"] == "cardrulesplus"
        assert json.loads(run(*args, "./cardrulesplus")[1])["rules"] == "house"


def test_a_profile_name_in_other_letter_cases_names_it_unless_a_file_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As the rules' sources write it (CardRulesPlus); a file of that very name is read.
    args = ("simulate", "--games", "2", "--bots", "greedy", "random", "--json", "--rules")
    with _inside(tmp_path, monkeypatch):
        assert json.loads(run(*args, "CardRulesPlus")[1])["rules"] == "cardrulesplus"
        assert json.loads(run(*args, "TUNISIAN")[1])["rules"] == "tunisian"
        # The Python constant's spelling, and words joined by hyphens (review 80B).
        assert json.loads(run(*args, "CARD_RULES_PLUS")[1])["rules"] == "cardrulesplus"
        assert json.loads(run(*args, "card-rules-plus")[1])["rules"] == "cardrulesplus"
        assert json.loads(run("rules", "CardRulesPlus")[1]) == CARD_RULES_PLUS.to_dict()
        (tmp_path / "CardRulesPlus").write_text(json.dumps(HOUSE.to_dict()), encoding="utf-8")
        assert json.loads(run(*args, "CardRulesPlus")[1])["rules"] == "house"
    # The library's names are exact, as JSON writes them; its message points the way.
    with pytest.raises(ChkobbaError, match=r"\(names are in lower case: 'cardrulesplus'\)$"):
        profile("CardRulesPlus")
    with pytest.raises(ChkobbaError, match=r"the profiles are cardrulesplus, tunisian$"):
        profile("house")
    for spelling in ("CARD_RULES_PLUS", "card-rules-plus"):
        with pytest.raises(
            ChkobbaError, match=r"\(names are one word in lower case: 'cardrulesplus'\)$"
        ):
            profile(spelling)


def test_a_file_with_a_named_profiles_name_may_change_only_its_target(tmp_path: Path) -> None:
    same = tmp_path / "t16.json"
    same.write_text(json.dumps(attrs.evolve(TUNISIAN, target=16).to_dict()), encoding="utf-8")
    code, text, _ = run("simulate", "--games", "2", "--bots", "greedy", "random", "--json",
                        "--rules", str(same))  # fmt: skip
    assert code == 0 and json.loads(text)["target"] == 16
    other = tmp_path / "other.json"
    other.write_text(json.dumps(attrs.evolve(HOUSE, name="tunisian").to_dict()), encoding="utf-8")
    code, _, err = run("demo", "--rules", str(other))
    assert code == 2
    assert f"'{other}' is named 'tunisian' but its cut differs from that profile's" in err


@pytest.mark.parametrize("name", ["Tunisian", "TUNISIAN", "tunisian ", " Tunisian"])
def test_a_named_profiles_name_in_any_case_or_blanks_is_that_name(
    tmp_path: Path, name: str
) -> None:
    """Found by a review (stop 72): the check compared names exactly, so a file named
    'Tunisian' played CardRulesPlus with primiera under a "Tunisian rules" heading."""
    fake = tmp_path / "fake.json"
    rules = attrs.evolve(CARD_RULES_PLUS, name=name, target=16, primiera=True)
    fake.write_text(json.dumps(rules.to_dict()), encoding="utf-8")
    code, _, err = run("simulate", "--games", "2", "--bots", "greedy", "random", "--rules",
                       str(fake))  # fmt: skip
    assert code == 2
    assert f"'{fake}' is named {name!r} but its capture_values differs" in err
    # The profile itself under that name (its target aside) is the profile, named as it is.
    same = tmp_path / "same.json"
    same.write_text(json.dumps(attrs.evolve(TUNISIAN, name=name, target=16).to_dict()))
    code, text, _ = run("simulate", "--games", "2", "--bots", "greedy", "random", "--json",
                        "--rules", str(same))  # fmt: skip
    assert code == 0
    assert (json.loads(text)["rules"], json.loads(text)["target"]) == ("tunisian", 16)


def test_a_record_leaving_rules_out_holds_0_1_0s_game_whatever_its_name() -> None:
    """0.1.0 took any profile name, so a record it wrote may bear a later named profile's
    (a review of stop 72 proposed to refuse such records; a review of 0.1.0's own
    records showed that 0.1.0 wrote them, and what they hold is its game)."""
    data = Record(players=2).to_dict()
    swapped = [1, 2, 3, 4, 5, 6, 7, 9, 8, 10]
    data["rules"] = {"name": "CardRulesPlus", "capture_values": swapped, "target": 11}
    rules = Record.from_dict(data).rules
    assert rules == attrs.evolve(
        TUNISIAN, name="CardRulesPlus", capture_values=tuple(swapped), target=11
    )
    assert rules != CARD_RULES_PLUS and _record_schema().is_valid(data)


def _record_schema() -> Any:
    return schema_validator("record")


def test_a_blank_name_is_told_blank() -> None:
    with pytest.raises(ChkobbaError) as caught:
        Rules("   ")
    assert str(caught.value) == (
        "name must be printable text, not blank, of at most 60 characters, got '   '"
    )


def test_the_player_count_is_checked_against_the_house_profile(tmp_path: Path) -> None:
    path = tmp_path / "two.json"
    path.write_text(json.dumps(attrs.evolve(HOUSE, players=(2,)).to_dict()), encoding="utf-8")
    code, _, err = run("demo", "--players", "4", "--rules", str(path))
    assert code == 2
    assert "a match has 2 players, not 4 (the house profile)" in err
    assert err.startswith("chkobba demo: error:")


# --- bad files: one line on stderr, status 2, as any bad argument -------------------------


def _write(folder: Path, name: str, content: str | bytes) -> str:
    path = folder / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def _fields(**changes: Any) -> str:
    return json.dumps({**HOUSE.to_dict(), **changes})


_BAD_FILES = [
    ("bad.json", "{", "is not valid JSON: Expecting property name"),
    ("list.json", "[1, 2]", "must be an object, not [1, 2] (a list)"),
    ("unknown.json", _fields(primera=True), ": unknown field 'primera'"),
    ("value.json", _fields(target=0), ": target must be a positive integer, at most 10000"),
    (
        "values.json",
        _fields(capture_values=[1, 2]),
        ": capture_values must be a tuple of 10 integers from 1 to 1000",
    ),
    ("flag.json", _fields(cut="yes"), ': cut must be true or false, got "yes"'),
    ("twice.json", '{"name": "a", "name": "b"}', ": field 'name' appears twice"),
    ("nan.json", _fields(target=float("nan")), ": a rule profile holds no NaN: it is not standard"),
    ("latin.json", b'{"name": "caf\xe9"}', "is not UTF-8 text: byte 13 is 0xe9"),
    ("marked.json", b'\xef\xbb\xbf{"name": "caf\xe9"}', "is not UTF-8 text: byte 16 is 0xe9"),
    ("huge.json", " " * 70_000 + "{}", "is larger than a rule profile (64 KiB)"),
]


@pytest.mark.parametrize(("name", "content", "message"), _BAD_FILES)
def test_a_bad_file_is_a_one_line_argument_error(
    tmp_path: Path, name: str, content: str | bytes, message: str
) -> None:
    path = _write(tmp_path, name, content)
    code, out, err = run("simulate", "--games", "1", "--bots", "greedy", "random", "--rules", path)
    assert (code, out) == (2, "")
    assert err.startswith(f"chkobba simulate: error: argument --rules: '{path}")
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_missing_field_is_named(tmp_path: Path) -> None:
    data = HOUSE.to_dict()
    del data["primiera"]
    path = _write(tmp_path, "short.json", json.dumps(data))
    code, _, err = run("demo", "--rules", path)
    assert code == 2 and f"'{path}': missing field 'primiera'" in err


@pytest.mark.parametrize("command", [("demo",), ("play",), ("simulate", "--games", "1",
                                     "--bots", "greedy", "random"), ("rules",)])  # fmt: skip
@pytest.mark.parametrize("missing", ["housee", "house.json", "no/such/house.json"])
def test_every_command_says_a_missing_name_is_no_profile_and_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...], missing: str
) -> None:
    option = () if command == ("rules",) else ("--rules",)
    with _inside(tmp_path, monkeypatch):
        code, out, err = run(*command, *option, missing)
    assert (code, out) == (2, "")
    assert (
        f"'{missing}' is neither a rule profile (cardrulesplus, tunisian) nor a file: "
        "no such file" in err
    )
    assert err.startswith(f"chkobba {command[0]}: error:") and err.count("\n") == 1


def test_a_folder_is_no_profile(tmp_path: Path) -> None:
    code, _, err = run("play", "--rules", str(tmp_path))
    assert code == 2 and f"cannot read '{tmp_path}': Is a directory" in err


# --- the library's side: Rules.to_dict, from_dict and load --------------------------------


def test_to_dict_is_the_rules_object_of_snapshots_and_records() -> None:
    record = Record(players=2, rules=HOUSE)
    assert HOUSE.to_dict() == record.to_dict()["rules"]
    assert Rules.from_dict(record.to_dict()["rules"]) == HOUSE
    from chkobba import new_match

    assert new_match(rules=HOUSE).to_dict()["rules"] == HOUSE.to_dict()


def test_load_names_the_file_and_leaves_file_system_errors_to_oserror(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        Rules.load(tmp_path / "none.json")
    with pytest.raises(ChkobbaError, match=r"a file name cannot hold a NUL"):
        Rules.load("a\0b")
    path = _write(tmp_path, "bom.json", "\ufeff" + json.dumps(HOUSE.to_dict()))
    assert Rules.load(path) == HOUSE  # a byte-order mark is allowed, as in records
    with pytest.raises(ChkobbaError, match=r"^rules: missing field 'name'$"):
        Rules.from_dict({})


@pytest.mark.parametrize("content", ["", " \n\n", "\ufeff"])
def test_an_empty_file_is_told_empty_as_a_records_is(tmp_path: Path, content: str) -> None:
    # It was "is not valid JSON: Expecting value: line 1 column 1 (char 0)".
    path = _write(tmp_path, "empty.json", content)
    with pytest.raises(ChkobbaError) as refused:
        Rules.load(path)
    assert str(refused.value) == f"{str(path)!r}: the file is empty, not a rule profile"
    assert (
        "the file is empty, not a rule profile (see chkobba rules --help)"
        in run("rules", str(path))[2]
    )


# --- docs/cli.md: its example file is a profile, and its errors are the command's --------


def test_the_docs_example_file_and_error_lines_are_the_real_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = (Path(__file__).parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    section = page.split("\n## House profiles\n")[1].split("\n## ")[0]
    example = json.loads(section.split("```json\n")[1].split("```")[0])
    assert Rules.from_dict(example).name == "our house"
    _write(tmp_path, "house.json", json.dumps({**example, "primera": True}))
    _write(tmp_path, "tunisian-primiera.json", _fields(name="tunisian", cut=True, target=21))
    sessions = re.findall(r"^\$ (chkobba demo .*)\n(chkobba demo: error: .*)$", section, re.M)
    assert len(sessions) == 3
    with _inside(tmp_path, monkeypatch):
        for typed, written in sessions:
            code, _, err = run(*typed.split()[1:])
            assert (code, err) == (2, written + "\n")


def test_rules_blames_an_option_it_lacks_not_the_word_after_it() -> None:
    # Found by a review: "rules --players 3" said that '3' was neither a profile nor a
    # file, where the mistake is --players, which rules does not take.
    code, out, err = run("rules", "--players", "3")
    assert (code, out) == (2, "")
    assert (
        err
        == "chkobba rules: error: unrecognized arguments: --players (see chkobba rules --help)\n"
    )
