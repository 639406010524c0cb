"""The command's usability audit: files it must not clobber, errors that name their
command and point to the fix, hints a player can follow, help pages that say what each
command does."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import attrs
import pytest

from chkobba import CARD_RULES_PLUS, TUNISIAN, ChkobbaError, Record
from chkobba.arena import play_match
from chkobba.bots import RandomBot
from chkobba.cli import build_parser, main
from chkobba.cli.arguments import subcommand

DOCS = Path(__file__).resolve().parent.parent / "docs"
SIMULATE = ["simulate", "--games", "2", "--bots", "greedy", "random"]


def _usage_error(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    """The one line a bad argument writes (status 2)."""
    with pytest.raises(SystemExit) as exit:
        main(args)
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


# --- 1. simulate --records does not replace a file unasked ---------------------------------


def test_simulate_refuses_to_replace_a_records_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    kept = tmp_path / "keep.json"
    kept.write_text("a saved game\n", encoding="utf-8")
    err = _usage_error(capsys, [*SIMULATE, "--records", "keep.json"])
    assert err == (
        "chkobba simulate: error: argument --records: 'keep.json' exists: give --force to "
        "replace it, or another file name (see chkobba simulate --help)\n"
    )
    assert kept.read_text(encoding="utf-8") == "a saved game\n"
    assert err.strip() in (DOCS / "cli.md").read_text(encoding="utf-8")


def test_a_refused_records_file_is_told_before_any_cluster_is_reached(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The file is checked first: no wait for a scheduler (or for its missing package).
    monkeypatch.chdir(tmp_path)
    (tmp_path / "keep.json").write_text("a saved game\n", encoding="utf-8")
    args = [*SIMULATE, "--records", "keep.json", "--scheduler", "tcp://127.0.0.1:9"]
    assert "'keep.json' exists: give --force" in _usage_error(capsys, args)


def test_too_many_matches_in_all_is_a_usage_error_naming_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Found by a review: status 1 and a message naming no argument, where --games past
    # the limit alone is status 2 "argument --games: ..."; the records file is untouched.
    kept = tmp_path / "keep.json"
    kept.write_text("a saved game\n", encoding="utf-8")
    args = ["simulate", "--games", "500000", "--bots", "greedy", "random", "expert"]
    err = _usage_error(capsys, [*args, "--records", str(kept), "--force"])
    assert err == (
        "chkobba simulate: error: argument --games: 500,000 games for each of 3 pairs of "
        "bots make 1,500,000 matches, more than a tournament plays (1,000,000; play "
        "several tournaments) (see chkobba simulate --help)\n"
    )
    assert kept.read_text(encoding="utf-8") == "a saved game\n"


def test_simulate_force_replaces_a_records_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "keep.json"
    kept.write_text("a saved game\n", encoding="utf-8")
    assert main([*SIMULATE, "--records", str(kept), "--force"]) == 0
    assert len(Record.load_lines(kept)) == 2


@pytest.mark.skipif(os.name != "posix", reason="/dev/null")
def test_simulate_writes_records_to_a_device_without_force(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Like the shell's noclobber: a device holds nothing to lose.
    assert main([*SIMULATE, "--records", os.devnull]) == 0


# --- 2. every error names its command; statuses as documented --------------------------


@pytest.fixture
def lines(tmp_path: Path) -> Path:
    """A file of two records, one per line, as simulate --records writes it."""
    path = tmp_path / "m.jsonl"
    assert main([*SIMULATE, "--records", str(path)]) == 0
    return path


@pytest.mark.parametrize("command", [["replay", "--no-step"], ["analyse"]])
def test_a_game_past_the_end_names_the_command(
    lines: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main([command[0], str(lines), *command[1:], "--game", "5"]) == 1
    assert capsys.readouterr().err == (
        f"chkobba {command[0]}: error: '{lines}' holds 2 records: there is no game 5\n"
    )


def test_a_deal_past_the_end_names_the_command_and_counts_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played = play_match([RandomBot(seed=1), RandomBot(seed=2)], seed=3).record
    path = tmp_path / "one.json"
    Record(players=2, dealer=played.dealer, moves=played.moves[:1]).save(path)  # a shuffle
    assert main(["replay", str(path), "--deal", "2", "--no-step"]) == 1
    assert capsys.readouterr().err == (
        f"chkobba replay: error: '{path}' has 1 deal: there is no deal 2\n"
    )


def test_a_target_too_large_is_reported_as_one_too_small(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for target, limit in (("0", "at least 1"), ("100000", "at most 10000")):
        assert _usage_error(capsys, ["demo", "--target", target]) == (
            f"chkobba demo: error: argument --target: {target} must be {limit} "
            "(see chkobba demo --help)\n"
        )


def test_the_target_limit_is_the_rules_own() -> None:
    parse = build_parser().parse_args
    assert parse(["demo", "--target", "10000"]).target == 10_000
    assert attrs.evolve(TUNISIAN, target=10_000).target == 10_000
    with pytest.raises(ChkobbaError):
        attrs.evolve(TUNISIAN, target=10_001)


# --- 3. the player count: the profile's own by default, and the way out when refused ----


@pytest.fixture
def only3(tmp_path: Path) -> Path:
    """A house profile of 3-player matches only."""
    path = tmp_path / "only3.json"
    house = attrs.evolve(CARD_RULES_PLUS, name="only3", players=(3,), target=3)
    path.write_text(json.dumps(house.to_dict()), encoding="utf-8")
    return path


def test_without_players_a_house_profile_plays_its_own_count(
    only3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--rules", str(only3)]) == 0
    assert capsys.readouterr().out.startswith("chkobba demo: 3 players (")
    assert main([*SIMULATE, "--rules", str(only3), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == 3


def test_the_default_count_is_still_2_under_the_named_profiles(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for profile in ("tunisian", "cardrulesplus"):
        assert main([*SIMULATE, "--rules", profile, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["players"] == 2


def test_a_count_the_profile_lacks_names_a_profile_that_has_it(
    only3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _usage_error(capsys, ["play", "--players", "3"]).endswith(
        "; for 3 players, use --rules cardrulesplus (see chkobba play --help)\n"
    )
    err = _usage_error(capsys, ["demo", "--rules", str(only3), "--players", "2"])
    assert err.startswith("chkobba demo: error: argument --players: a match has 3 players, not 2")
    assert "for 2 players, use --rules cardrulesplus or tunisian" in err


def test_the_documented_player_count_error_is_the_real_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = _usage_error(capsys, ["play", "--players", "3"])
    assert err.strip() in (DOCS / "cli.md").read_text(encoding="utf-8")


# --- 4. play's hints name only what the player can type now -----------------------------


def _refusals(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str
) -> list[str]:
    """What ``play --seed 5`` answers to each line typed (its first move is the cut)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    assert main(["play", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    return [line for line in out.splitlines() if line.endswith("; type help for help")]


def test_no_hint_asks_the_player_to_type_a_shuffle(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cut, shuffled, play, played = _refusals(
        capsys, monkeypatch, "QH 2D\nshuffle AS\n2\n2D 6S 7H\nshuffle\n"
    )
    assert cut == (
        "'QH 2D' is not a move: now is the cut: type keep, expose or a move number (1 to 2)"
        "; type help for help"
    )
    assert shuffled == (
        "the shuffle is drawn for you, never typed: now is the cut: type keep, expose or a "
        "move number (1 to 2); type help for help"
    )
    assert play.startswith(
        "'2D 6S 7H' is not a move: type a card (QH), a capture (QH x 2D+6S) or a move number"
    )
    assert played.startswith("the shuffle is drawn for you, never typed: type a card (QH)")
    assert not any("40 cards" in line for line in (cut, shuffled, play, played))


def test_a_misspelt_command_is_never_offered_shuffle(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _refusals(capsys, monkeypatch, "shufle\n") == [
        "unknown command 'shufle'; type help for help"
    ]


# --- 5. help pages say what each command does, and which rules --------------------------


def test_every_command_help_opens_with_what_it_does() -> None:
    parser = build_parser()
    for name in ("demo", "play", "simulate", "replay", "analyse", "rules"):
        lines = subcommand(parser, name).format_help().split("\n\n")
        description = lines[1].strip()
        assert description.endswith(".") and description[0].isupper(), (name, description)
        assert len(description.splitlines()) == 1, (name, description)


def test_the_main_help_names_every_kind_of_profile() -> None:
    text = " ".join(build_parser().format_help().split())
    assert "(Tunisian rules)" not in text
    assert "by the Tunisian rules or another profile (--rules cardrulesplus" in text
    assert "--rules FILE for a house profile" in text
