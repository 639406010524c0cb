"""The grammar of the ``chkobba`` command: its options, each command's, and how values are read.

Every command's arguments are declared by a short function of its own, and
:func:`build_parser` puts them together in the order ``chkobba --help`` lists them. The
parser writes a bad argument as one short line on standard error, with exit status 2.

They live here, not beside each command's ``run_*`` function, so that those stay free of
argparse (tests and callers give them plain values) and so that the shared pieces
(``--players``, ``--rules``, the bot syntax) are written once.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any, NoReturn

import attrs

from chkobba import __version__
from chkobba._describe import one_line
from chkobba.arena import MATCH_LIMIT, WORKER_LIMIT
from chkobba.bots.registry import BotSpec
from chkobba.errors import ChkobbaError, shown, shown_path
from chkobba.rules import PROFILES, TUNISIAN, Rules

__all__ = ["PROGRAM", "build_parser", "read_profile", "subcommand"]

#: The command's name, as its messages and help write it.
PROGRAM = "chkobba"
_NO_COLOUR = "plain text, no colour (also: the NO_COLOR environment variable)"
_BOT_FORM = "a bot is NAME or NAME:KEY=VALUE,... (random, greedy, expert, ismcts:iterations=200)"
_NAMES = ", ".join(sorted(PROFILES))
_DESCRIPTION = (
    "Play and study Chkobba, by the Tunisian rules or another profile (--rules "
    "cardrulesplus, or --rules FILE for a house profile)."
)
_EPILOG = f"Run {PROGRAM} COMMAND --help for a command's options."
_PLAYERS = (
    "2, 3 (each for himself: not under the default tunisian rules, use --rules "
    "cardrulesplus) or 4 in partnerships (default 2); under a profile without 2-player "
    "matches, the fewest it seats"
)


#: The longest error message argparse may write: it quotes unknown arguments in full.
_MESSAGE_LIMIT = 300


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one short line on stderr and exit status 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The parsers of the commands, by name: build_parser keeps them here, as argparse
        # has no public way to find them again.
        self.commands: dict[str, argparse.ArgumentParser] = {}

    def error(self, message: str) -> NoReturn:
        # argparse quotes the arguments as typed: a newline or an escape code among them
        # is written as its escape, so the error stays one line (docs/cli.md).
        message = one_line(message)
        if len(message) > _MESSAGE_LIMIT:
            message = message[: _MESSAGE_LIMIT - 1] + "…"
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        raise SystemExit(2)

    def _print_message(self, message: str, file: Any = None) -> None:
        # argparse ignores a failed write, so --help and --version to a full disk
        # exited 0; like every command, they fail with status 1 (a closed pipe is fine).
        stream = file or sys.stderr  # argparse's default; it always passes one
        try:
            stream.write(message)
            stream.flush()
        except AttributeError:  # no stream at all (None): nothing to tell, as argparse
            pass
        except BrokenPipeError:
            raise SystemExit(0) from None
        except OSError as error:
            sys.stderr.write(
                f"{self.prog}: error: input/output failed: {error.strerror or error}\n"
            )
            raise SystemExit(1) from None


class _CommandParser(_Parser):
    """A command's parser: it refuses the arguments it does not know itself, in its own
    name (argparse leaves them to the top-level parser, whose help does not list them)."""

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``chkobba`` command."""
    parser = _Parser(prog=PROGRAM, description=_DESCRIPTION, epilog=_EPILOG)
    parser.add_argument("--no-colour", "--no-color", action="store_true", help=_NO_COLOUR)
    parser.add_argument("--version", action="version", version=f"{PROGRAM} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_CommandParser)
    commands.required = True
    for name, summary, add_arguments in _COMMANDS:
        # The summary heads the command's own --help too, as a sentence.
        description = f"{summary[0].upper()}{summary[1:]}."
        add_arguments(commands.add_parser(name, help=summary, description=description))
    _everywhere(commands, "--no-colour", "--no-color", action="store_true", help=_NO_COLOUR)
    parser.commands = dict(commands.choices)
    return parser


def subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The parser of command ``name``: its errors name it and point to its --help."""
    if isinstance(parser, _Parser) and parser.commands:
        return parser.commands[name]
    return parser


def _demo_arguments(demo: argparse.ArgumentParser) -> None:
    demo.add_argument(
        "--seed", type=_seed, default=1, metavar="N", help="the match seed (default 1)"
    )
    _players_option(demo)
    demo.add_argument(
        "--bots",
        type=_bot,
        nargs="+",
        action="extend",  # --bots A --bots B: both, as --bots A B
        metavar="BOT",
        default=None,
        help="one bot for every seat, or one per seat (at 4 players, 2 bots are seated as "
        f"partners); {_BOT_FORM} (default: greedy everywhere)",
    )
    demo.add_argument(
        "--delay",
        type=_delay,
        default=0.0,
        metavar="SECONDS",
        help="pause after each move, to follow the match as it is played (default 0)",
    )
    _rules_options(demo)


def _play_arguments(play: argparse.ArgumentParser) -> None:
    _players_option(play)
    play.add_argument(
        "--opponent",
        type=_bot,
        default=BotSpec.parse("greedy"),
        metavar="BOT",
        help=f"the bots you play against; {_BOT_FORM} (default greedy)",
    )
    play.add_argument(
        "--partner",
        type=_bot,
        default=None,
        metavar="BOT",
        help="your partner at 4 players, a bot spec like --opponent (default: the opponent's)",
    )
    play.add_argument(
        "--auto",
        action="store_true",
        help="play your move for you when it is your only legal one (the command auto "
        "turns it on and off during the match)",
    )
    play.add_argument(
        "--seed",
        type=_seed,
        default=None,
        metavar="N",
        help="the match seed (default: a secret one, named when the match ends, since it "
        "deals every hidden card)",
    )
    _rules_options(play)


def _simulate_arguments(simulate: argparse.ArgumentParser) -> None:
    simulate.add_argument("--games", type=_games, required=True, help="matches per pair")
    simulate.add_argument(
        "--bots",
        type=_bot,
        nargs="+",
        action="extend",  # --bots A --bots B: both, as --bots A B
        required=True,
        metavar="BOT",
        help=f"two or more bots; every pair plays --games matches; {_BOT_FORM}",
    )
    _players_option(simulate)
    simulate.add_argument(
        "--workers",
        type=_workers,
        default=1,
        help="worker processes; any number gives the same results (default 1)",
    )
    simulate.add_argument(
        "--seed",
        type=_seed,
        default=0,
        metavar="S",
        help=(
            "the tournament seed: the same seed, the same results, unless a bot plays on a "
            "time limit (default 0)"
        ),
    )
    simulate.add_argument("--json", action="store_true", help="machine-readable output")
    simulate.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="run the matches on the Dask cluster at ADDRESS (needs chkobba[dask])",
    )
    simulate.add_argument(
        "--records",
        metavar="FILE",
        default=None,
        help="write every match's record to FILE, one JSON object per line (an existing "
        "FILE is refused: see --force); - writes them to standard output, and the table "
        "to standard error",
    )
    simulate.add_argument(
        "--force",
        action="store_true",
        help="replace the --records FILE if it exists (its lines go as the first record is "
        "written)",
    )
    _rules_options(simulate)


def _replay_arguments(replay: argparse.ArgumentParser) -> None:
    replay.add_argument("file", help="a record written by chkobba (JSON); - reads standard input")
    _game_option(replay)
    replay.add_argument("--no-boards", action="store_true", help="moves only, no boards")
    replay.add_argument(
        "--deal", type=_positive, default=None, metavar="N", help="show deal N only (from 1)"
    )
    replay.add_argument(
        "--no-step",
        action="store_true",
        help="on a terminal, show everything at once instead of a move per Enter",
    )


def _analyse_arguments(analyse: argparse.ArgumentParser) -> None:
    analyse.add_argument("file", help="a record written by chkobba (JSON); - reads standard input")
    _game_option(analyse)
    analyse.add_argument(
        "--seat", type=_whole, default=None, metavar="N", help="review one player (default all)"
    )
    analyse.add_argument(
        "--bot",
        type=_bot,
        default=BotSpec.parse("expert"),
        metavar="BOT",
        help="the bot that rates the moves, expert or ismcts, as NAME or NAME:KEY=VALUE,... "
        "(expert:iterations=400, ismcts:v1) (default expert)",
    )
    analyse.add_argument(
        "--seed", type=_seed, default=0, metavar="S", help="the bot's seed (default 0)"
    )
    analyse.add_argument(
        "--worst",
        type=_count,
        default=3,
        metavar="N",
        help="flag the N moves that lost the most, among those that lost 0.5 points or more "
        "(default 3; 0 flags none)",
    )
    analyse.add_argument("--json", action="store_true", help="machine-readable output")


def _rules_arguments(rules: argparse.ArgumentParser) -> None:
    rules.add_argument(
        "profile",
        nargs="?",
        # Read after parsing (read_profile): read here, a word meant for an option the
        # command lacks ("rules --players 3": the 3) was blamed instead of the option.
        default=TUNISIAN.name,
        metavar="NAME|FILE",
        help=f"a named profile ({_NAMES}) or a house profile's JSON file, checked "
        f"(default {TUNISIAN.name}); redirect it to a file to start a house profile: "
        f"{PROGRAM} rules {TUNISIAN.name} > house.json",
    )


#: The commands in the order ``chkobba --help`` lists them: name, summary, arguments.
_COMMANDS = (
    ("demo", "watch bots play a whole match, narrated", _demo_arguments),
    ("play", "play against bots in the terminal", _play_arguments),
    ("simulate", "play a tournament between bots and rate them", _simulate_arguments),
    ("replay", "replay a saved record move by move", _replay_arguments),
    ("analyse", "review a record's moves with the strongest bot", _analyse_arguments),
    ("rules", "print a rule profile as JSON, the file --rules reads", _rules_arguments),
)


def _players_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--players",
        type=_whole,
        choices=(2, 3, 4),
        default=None,  # the profile's fewest: known once --rules is read
        metavar="2|3|4",  # as docs/cli.md writes it (argparse would write {2,3,4})
        help=_PLAYERS,
    )


def _game_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--game",
        type=_positive,
        default=None,
        metavar="N",
        help="in a file of one record per line (simulate --records), game N (from 1)",
    )


def _rules_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--rules",
        type=_profile,
        default=TUNISIAN,
        metavar="NAME|FILE",
        help=f"the rule profile: {_NAMES}, or a house profile's JSON file ({PROGRAM} rules "
        f"prints one to start from: see {PROGRAM} rules --help) (default {TUNISIAN.name})",
    )
    command.add_argument(
        "--target",
        type=_target,
        default=None,
        metavar="N",
        help="the match target (default: the profile's, 21 tunisian, 11 cardrulesplus)",
    )


def _everywhere(commands: Any, *names: str, **options: Any) -> None:
    """Give every command an option of the main parser, so it works after the command too
    (``SUPPRESS``: an option given before the command is not reset by its default)."""
    for command in commands.choices.values():
        command.add_argument(*names, default=argparse.SUPPRESS, **options)


# --- how the values are read ---------------------------------------------------------------


def read_profile(parser: argparse.ArgumentParser, text: str) -> Rules:
    """``chkobba rules``' NAME|FILE, read once the command line is parsed; refused as the
    parser refuses an argument (exit status 2)."""
    try:
        return _profile(text)
    except argparse.ArgumentTypeError as error:
        subcommand(parser, "rules").error(f"argument NAME|FILE: {error}")


def _profile(text: str) -> Rules:
    """A profile's name, or else the path of a JSON file holding a profile: a name wins,
    so a file named like a profile is read as ``./tunisian``. A name in other letter
    cases (``CardRulesPlus``, as the rules' sources write it) or with ``_`` or ``-``
    between its words (``CARD_RULES_PLUS``, the Python constant) names the profile too,
    unless a file has that name."""
    if text in PROFILES:
        return PROFILES[text]
    name = shown_path(text)
    if not os.path.exists(text):
        folded = text.lower().replace("_", "").replace("-", "")
        if folded in PROFILES:
            return PROFILES[folded]
        raise argparse.ArgumentTypeError(
            f"{name} is neither a rule profile ({_NAMES}) nor a file: no such file"
        )
    try:
        rules = Rules.load(text)
    except OSError as error:
        raise argparse.ArgumentTypeError(f"cannot read {name}: {error.strerror or error}") from None
    except ChkobbaError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return _own_name(name, rules)


def _own_name(name: str, rules: Rules) -> Rules:
    """A house profile with a named profile's name must be that profile (its target
    aside, as ``--target`` changes): headings, JSON results and records name profiles."""
    # In any letter case and with blanks around: --rules takes the name so, and a
    # heading would show "Tunisian rules" for another game.
    named = PROFILES.get(rules.name.strip().lower())
    if named is None:
        return rules
    ours, theirs = rules.to_dict(), named.to_dict()
    same = ("name", "target")
    changed = [key for key in ours if key not in same and ours[key] != theirs[key]]
    if changed:
        raise argparse.ArgumentTypeError(
            f"{name} is named {shown(rules.name)} but its {changed[0]} differs from that "
            "profile's: give a house profile a name of its own"
        )
    return attrs.evolve(named, target=rules.target)  # the profile, named as it is


def _bot(text: str) -> BotSpec:
    try:
        return BotSpec.parse(text)
    except ChkobbaError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


# The longest text read as a player count or a seat: argparse would echo a longer one in
# full (a 5,000-digit --seat), and no count or seat needs more.
_WHOLE_TEXT_LIMIT = 20


def _whole(text: str) -> int:
    """A player count or seat: a whole number, its text quoted short when it is not one."""
    if len(text) > _WHOLE_TEXT_LIMIT:
        raise argparse.ArgumentTypeError(f"{shown(text)} is too long for a whole number here")
    return _integer(text)


def _integer(text: str) -> int:
    """``text``'s whole number, or argparse's error saying why it is none."""
    try:
        return int(text)
    except ValueError:
        if _DIGITS.fullmatch(text):  # Python reads no integer of more than 4,300 digits
            raise argparse.ArgumentTypeError(f"{shown(text)} has too many digits") from None
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None


#: What int() reads as a whole number, which it refuses only when it is too long.
_DIGITS = re.compile(r"\s*[+-]?\d+(?:_\d+)*\s*")


def _positive(text: str) -> int:
    return _at_least(text, 1)


def _games(text: str) -> int:
    return _at_least(text, 1, most=MATCH_LIMIT)


def _workers(text: str) -> int:
    return _at_least(text, 1, most=WORKER_LIMIT)


def _count(text: str) -> int:
    return _at_least(text, 0)


# The largest target Rules takes: checked here too, so that a target too large is
# reported as one too small is ("argument --target: 100000 must be at most 10000").
_TARGET_LIMIT = 10_000


def _target(text: str) -> int:
    return _at_least(text, 1, most=_TARGET_LIMIT)


def _at_least(text: str, least: int, most: int | None = None) -> int:
    value = _integer(text)
    if value < least:
        raise argparse.ArgumentTypeError(f"{shown(value)} must be at least {least}")
    if most is not None and value > most:
        raise argparse.ArgumentTypeError(f"{shown(value)} must be at most {most}")
    return value


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a number of seconds") from None
    if not 0 <= value <= 60:
        # float() ignores the whitespace around a number, which the one-line error must
        # not repeat: a newline there would split it.
        raise argparse.ArgumentTypeError(f"{text.strip()} must be between 0 and 60 seconds")
    return value


def _seed(text: str) -> int:
    return _integer(text)
