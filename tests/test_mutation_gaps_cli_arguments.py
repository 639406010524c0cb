"""Tests for the gaps a mutmut audit of ``chkobba/cli/arguments.py`` found.

Like ``tests/test_mutation_gaps.py``: each test fails with at least one single-point
change to ``chkobba/cli/arguments.py`` that the rest of the suite let through
(tools/mutation/README.md). They pin the ``chkobba`` command's grammar: docs/cli.md holds,
in each command's section, the table of every option (option strings, metavar, help text),
rebuilt here from the parser's own actions (not from the formatted ``--help``, which
differs across Python versions); each command's summary and description; the values and
defaults every option parses to (``--no-colour`` before or after the command, the bots
parsed as specs, ``--auto`` taking no value); the required options; and the one-line
refusals of the value readers (whole numbers at most 20 characters long, counts,
``--workers 1``, ``--delay`` from 0 to 60 seconds, its refusal one line even when the
number typed ends with a newline, a long ``--rules`` path quoted up to 200 characters),
and of the parser itself, cut to 300 characters.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from chkobba.bots.registry import BotSpec
from chkobba.cli.arguments import build_parser, subcommand
from chkobba.rules import CARD_RULES_PLUS, TUNISIAN

CLI_DOCS = Path(__file__).resolve().parent.parent / "docs" / "cli.md"
COMMANDS = ("demo", "play", "simulate", "replay", "analyse", "rules")


# --- docs/cli.md holds the table of every option, as the parser declares them -------------


def _arguments(action: argparse.Action) -> str:
    """What follows an option string, as ``--help`` writes it: its metavar, by nargs."""
    if action.nargs == 0:
        return ""
    if action.metavar is not None:
        name = str(action.metavar)
    elif action.choices is not None:
        name = "|".join(str(choice) for choice in action.choices)
    elif action.option_strings:
        name = action.dest.upper()
    else:
        name = action.dest
    if action.nargs == "?":
        return f"[{name}]"
    if action.nargs == "+":
        return f"{name} [{name} ...]"
    assert action.nargs is None, action.nargs
    return name


def _cell(text: str) -> str:
    """Text in a Markdown table cell, escaped: a pipe would end the cell (and is left
    as written inside a code span by Python-Markdown, hence no code spans for options)."""
    return text.replace("|", "\\|")


def _options_table(parser: argparse.ArgumentParser) -> list[str]:
    """The table of a parser's options, as docs/cli.md writes it: every option and
    positional argument (not the commands), with its help text, ``%(default)s`` and the
    like expanded as argparse expands them."""
    rows = ["| option | what it does |", "| --- | --- |"]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        strings = ", ".join(action.option_strings) or ""
        spelled = " ".join(part for part in (strings, _arguments(action)) if part)
        help_text = action.help or ""
        if "%" in help_text:
            help_text = help_text % {**vars(action), "prog": parser.prog}
        rows.append(f"| {_cell(spelled)} | {_cell(help_text)} |")
    return rows


def _commands_table(parser: argparse.ArgumentParser) -> list[str]:
    """The table of the commands, with the summary ``chkobba --help`` gives each."""
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    rows = ["| command | what it does |", "| --- | --- |"]
    for choice in commands._choices_actions:
        rows.append(f"| `{choice.dest}` | {_cell(choice.help or '')} |")
    return rows


def _sections() -> dict[str, str]:
    """docs/cli.md by section: ``chkobba`` for the text before the first ``##``
    heading, each command's name for the section headed ``## `chkobba NAME ...```."""
    page = CLI_DOCS.read_text(encoding="utf-8")
    first, *others = re.split(r"^## ", page, flags=re.MULTILINE)
    sections = {"chkobba": first}
    for section in others:
        found = re.match(r"`chkobba (\w+)", section)
        if found:
            sections[found.group(1)] = section
    return sections


def _tables(section: str) -> list[list[str]]:
    """The Markdown tables of a section, each as its lines."""
    tables: list[list[str]] = []
    table: list[str] = []
    for line in [*section.splitlines(), ""]:
        if line.startswith("|"):
            table.append(line)
        elif table:
            tables.append(table)
            table = []
    return tables


def test_the_docs_list_every_option_of_the_main_command() -> None:
    parser = build_parser()
    tables = _tables(_sections()["chkobba"])
    assert tables == [_commands_table(parser), _options_table(parser)]


@pytest.mark.parametrize("name", COMMANDS)
def test_the_docs_list_every_option_of_each_command(name: str) -> None:
    tables = _tables(_sections()[name])
    options = [table for table in tables if table[0] == "| option | what it does |"]
    assert options == [_options_table(subcommand(build_parser(), name))]


def test_the_docs_tables_say_what_the_help_says_of_the_main_options() -> None:
    # The table builder itself, checked by hand on the main parser: argparse's --help and
    # --version, which take no value, and --no-colour with its two spellings.
    assert _options_table(build_parser())[2:] == [
        "| -h, --help | show this help message and exit |",
        "| --no-colour, --no-color | plain text, no colour (also: the NO_COLOR "
        "environment variable) |",
        "| --version | show program's version number and exit |",
    ]


def test_each_command_s_help_opens_with_its_summary_as_a_sentence() -> None:
    parser = build_parser()
    descriptions = {name: subcommand(parser, name).description for name in COMMANDS}
    assert descriptions == {
        "demo": "Watch bots play a whole match, narrated.",
        "play": "Play against bots in the terminal.",
        "simulate": "Play a tournament between bots and rate them.",
        "replay": "Replay a saved record move by move.",
        "analyse": "Review a record's moves with the strongest bot.",
        "rules": "Print a rule profile as JSON, the file --rules reads.",
    }


def test_the_main_help_ends_pointing_to_each_command_s_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit:
        build_parser().parse_args(["--help"])
    assert exit.value.code == 0
    assert capsys.readouterr().out.endswith(
        "\nRun chkobba COMMAND --help for a command's options.\n"
    )


# --- what the options parse to, by default and when given --------------------------------


def _parsed(*args: str) -> dict[str, object]:
    return vars(build_parser().parse_args(list(args)))


def test_the_defaults_of_demo_and_play() -> None:
    assert _parsed("demo") == {
        "no_colour": False,
        "command": "demo",
        "seed": 1,
        "players": None,
        "bots": None,
        "delay": 0.0,
        "rules": TUNISIAN,
        "target": None,
    }
    assert _parsed("play") == {
        "no_colour": False,
        "command": "play",
        "players": None,
        "opponent": BotSpec.parse("greedy"),
        "partner": None,
        "auto": False,
        "seed": None,
        "rules": TUNISIAN,
        "target": None,
    }


def test_the_defaults_of_simulate_replay_analyse_and_rules() -> None:
    assert _parsed("simulate", "--games", "3", "--bots", "greedy", "random") == {
        "no_colour": False,
        "command": "simulate",
        "games": 3,
        "bots": [BotSpec.parse("greedy"), BotSpec.parse("random")],
        "players": None,
        "workers": 1,
        "seed": 0,
        "json": False,
        "scheduler": None,
        "records": None,
        "force": False,
        "rules": TUNISIAN,
        "target": None,
    }
    assert _parsed("replay", "m.json") == {
        "no_colour": False,
        "command": "replay",
        "file": "m.json",
        "game": None,
        "no_boards": False,
        "deal": None,
        "no_step": False,
    }
    assert _parsed("analyse", "m.json") == {
        "no_colour": False,
        "command": "analyse",
        "file": "m.json",
        "game": None,
        "seat": None,
        "bot": BotSpec.parse("expert"),
        "seed": 0,
        "worst": 3,
        "json": False,
    }
    assert _parsed("rules") == {
        "no_colour": False,
        "command": "rules",
        "profile": TUNISIAN.name,
    }  # read after parsing


def test_given_values_are_parsed_to_numbers_specs_and_flags() -> None:
    play = _parsed("play", "--players", "4", "--partner", "expert", "--auto", "--seed", "-7")
    assert (play["players"], play["partner"], play["auto"], play["seed"]) == (
        4,
        BotSpec.parse("expert"),
        True,
        -7,
    )
    analyse = _parsed("analyse", "m.json", "--seed", "12", "--seat", "1", "--worst", "0")
    assert (analyse["seed"], analyse["seat"], analyse["worst"]) == (12, 1, 0)
    demo = _parsed("demo", "--bots", "random", "expert", "--rules", "cardrulesplus")
    assert demo["bots"] == [BotSpec.parse("random"), BotSpec.parse("expert")]
    assert demo["rules"] == CARD_RULES_PLUS
    simulate = _parsed("simulate", "--games", "1", "--bots", "greedy", "random", "--workers", "1")
    assert simulate["workers"] == 1


@pytest.mark.parametrize(
    "args",
    [
        ["--no-colour", "rules"],
        ["--no-color", "rules"],
        ["rules", "--no-colour"],
        ["rules", "--no-color"],
        ["--no-colour", "rules", "--no-colour"],
    ],
)
def test_no_colour_is_taken_before_or_after_the_command(args: list[str]) -> None:
    # Given before the command, it is not reset by the command's own --no-colour.
    assert _parsed(*args) == {"no_colour": True, "command": "rules", "profile": TUNISIAN.name}


def test_a_delay_is_taken_from_0_to_60_seconds() -> None:
    assert [_parsed("demo", "--delay", text)["delay"] for text in ("0", "0.5", "60")] == [
        0.0,
        0.5,
        60.0,
    ]


def test_a_whole_number_of_20_characters_is_read() -> None:
    assert _parsed("demo", "--players", "0" * 19 + "4")["players"] == 4
    assert _parsed("analyse", "m.json", "--seat", "0" * 19 + "1")["seat"] == 1


def test_a_parser_without_commands_is_its_own_subcommand() -> None:
    # subcommand() falls back to the parser it is given (one not built by build_parser).
    plain = argparse.ArgumentParser(prog="other")
    assert subcommand(plain, "demo") is plain
    demo = subcommand(build_parser(), "demo")
    assert subcommand(demo, "demo") is demo


# --- refusals: one line on standard error, exit status 2 ----------------------------------


def _refusal(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """What the parser writes for a bad argument, which must be all it writes, with
    status 2 (parsed only: a mutant that lets it through runs no command)."""
    with pytest.raises(SystemExit) as exit:
        build_parser().parse_args(list(args))
    assert exit.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    return err


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ([], "chkobba: error: the following arguments are required: COMMAND"),
        (
            ["simulate", "--games", "2"],
            "chkobba simulate: error: the following arguments are required: --bots",
        ),
        (
            ["simulate", "--bots", "greedy", "random"],
            "chkobba simulate: error: the following arguments are required: --games",
        ),
        (
            ["play", "--partner", "nobot"],
            "chkobba play: error: argument --partner: 'nobot' is not a bot: choose from "
            "expert, greedy, ismcts, random",
        ),
        (
            ["play", "--seed", "soon"],
            "chkobba play: error: argument --seed: 'soon' is not a whole number",
        ),
        (
            ["analyse", "m.json", "--seed", "x"],
            "chkobba analyse: error: argument --seed: 'x' is not a whole number",
        ),
        (
            ["simulate", "--games", "x", "--bots", "greedy", "random"],
            "chkobba simulate: error: argument --games: 'x' is not a whole number",
        ),
        (
            ["simulate", "--games", "1", "--bots", "greedy", "random", "--workers", "0"],
            "chkobba simulate: error: argument --workers: 0 must be at least 1",
        ),
        (
            ["demo", "--delay", "soon"],
            "chkobba demo: error: argument --delay: 'soon' is not a number of seconds",
        ),
        (
            ["demo", "--delay", "60.5"],
            "chkobba demo: error: argument --delay: 60.5 must be between 0 and 60 seconds",
        ),
        (
            ["demo", "--delay", "-0.1"],
            "chkobba demo: error: argument --delay: -0.1 must be between 0 and 60 seconds",
        ),
        (  # float() reads " 61\n" as 61: the error stays one line
            ["demo", "--delay", " 61\n"],
            "chkobba demo: error: argument --delay: 61 must be between 0 and 60 seconds",
        ),
        (
            ["demo", "--players", "0" * 20 + "4"],
            "chkobba demo: error: argument --players: '000000000000000000004' is too long "
            "for a whole number here",
        ),
    ],
)
def test_a_bad_argument_is_one_line_naming_it(
    capsys: pytest.CaptureFixture[str], args: list[str], error: str
) -> None:
    program = " ".join(["chkobba", *args[:1]])
    assert _refusal(capsys, *args) == f"{error} (see {program} --help)\n"


def test_a_long_rules_path_is_quoted_up_to_200_characters(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = "h" * 250
    quoted = "'" + "h" * 198 + "…"
    assert len(quoted) == 200
    assert _refusal(capsys, "demo", "--rules", path) == (
        f"chkobba demo: error: argument --rules: {quoted} is neither a rule profile "
        "(cardrulesplus, tunisian) nor a file: no such file (see chkobba demo --help)\n"
    )


@pytest.mark.parametrize(
    ("extra", "written"),
    [
        ("y" * 276, "y" * 276),  # the message is 300 characters: written whole
        ("y" * 277, "y" * 275 + "…"),  # 301: cut to 300, the last an ellipsis
        ("y" * 5000, "y" * 275 + "…"),
    ],
)
def test_an_error_message_is_cut_to_300_characters(
    capsys: pytest.CaptureFixture[str], extra: str, written: str
) -> None:
    message = f"unrecognized arguments: {written}"
    assert len(message) == 300
    assert _refusal(capsys, "rules", "tunisian", extra) == (
        f"chkobba rules: error: {message} (see chkobba rules --help)\n"
    )


@pytest.mark.parametrize(
    ("arguments", "refusal"),
    [
        (["demo", "--bogus"], "chkobba demo: error: unrecognized arguments: --bogus"),
        (["replay", "x.json", "extra"], "chkobba replay: error: unrecognized arguments: extra"),
        (["play", "--seat", "1"], "chkobba play: error: unrecognized arguments: --seat 1"),
        (["--bogus", "demo"], "chkobba: error: unrecognized arguments: --bogus"),
    ],
)
def test_an_unknown_argument_is_refused_by_the_command_it_follows(
    capsys: pytest.CaptureFixture[str], arguments: list[str], refusal: str
) -> None:
    # docs/cli.md: a bad argument is reported by the command it belongs to, pointing to
    # the help that lists its options (argparse left them to the top-level parser).
    command = refusal.split(":")[0]
    assert _refusal(capsys, *arguments) == f"{refusal} (see {command} --help)\n"
