"""The ``chkobba`` command: ``demo``, ``play``, ``simulate``, ``replay`` and ``analyse``.

Run ``chkobba --help`` (or ``python -m chkobba --help``) for the options; ``docs/cli.md``
has examples. Exit status: 0 on success, 2 for bad arguments, 1 for any other failure,
130 when interrupted (Ctrl-C), always with a one-line message and never a traceback.

>>> from chkobba.cli import main
>>> main(["simulate", "--games", "2", "--bots", "greedy", "random", "--json"]) == 0
{
  "players": 2,
...
True
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import attrs

from chkobba import __version__
from chkobba.bots.registry import BotSpec
from chkobba.cli.analyse import UsageError, run_analyse
from chkobba.cli.demo import run_demo
from chkobba.cli.output import Output
from chkobba.cli.play import run_play
from chkobba.cli.replay import CommandError, run_replay
from chkobba.cli.simulate import run_simulate
from chkobba.errors import ChkobbaError, shown
from chkobba.rules import PROFILES, TUNISIAN, Rules

__all__ = ["main"]

PROGRAM = "chkobba"
_PARTNERSHIP = 4  # players in a match of two partnerships
_NO_COLOUR = "plain text, no colour (also: the NO_COLOR environment variable)"
_BOT_FORM = "a bot is NAME or NAME:KEY=VALUE,... (random, greedy, expert, ismcts:iterations=200)"
_PLAYERS = (
    "2, 3 (each for himself: not under the default tunisian rules, use --rules "
    "cardrulesplus) or 4 in partnerships (default 2)"
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
        if len(message) > _MESSAGE_LIMIT:
            message = message[: _MESSAGE_LIMIT - 1] + "…"
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        raise SystemExit(2)


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
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None


def _positive(text: str) -> int:
    return _at_least(text, 1)


def _count(text: str) -> int:
    return _at_least(text, 0)


def _at_least(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{shown(value)} must be at least {least}")
    return value


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a number of seconds") from None
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"{text} must be between 0 and 60 seconds")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a whole number") from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``chkobba`` command."""
    parser = _Parser(prog=PROGRAM, description="Play and study Chkobba (Tunisian rules).")
    parser.add_argument("--no-colour", "--no-color", action="store_true", help=_NO_COLOUR)
    parser.add_argument("--version", action="version", version=f"{PROGRAM} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    demo = commands.add_parser("demo", help="watch bots play a whole match, narrated")
    demo.add_argument("--seed", type=_seed, default=1, help="the match seed (default 1)")
    demo.add_argument(
        "--players",
        type=_whole,
        choices=(2, 3, 4),
        default=2,
        help=_PLAYERS,
    )
    demo.add_argument(
        "--bots",
        type=_bot,
        nargs="+",
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

    play = commands.add_parser("play", help="play against bots in the terminal")
    play.add_argument(
        "--players",
        type=_whole,
        choices=(2, 3, 4),
        default=2,
        help=_PLAYERS,
    )
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
    play.add_argument("--seed", type=_seed, default=None, help="the match seed (default random)")

    simulate = commands.add_parser("simulate", help="a tournament between bots")
    simulate.add_argument("--games", type=_positive, required=True, help="matches per pair")
    simulate.add_argument(
        "--bots",
        type=_bot,
        nargs="+",
        required=True,
        metavar="BOT",
        help=f"two or more bots; every pair plays --games matches; {_BOT_FORM}",
    )
    simulate.add_argument(
        "--players",
        type=_whole,
        choices=(2, 3, 4),
        default=2,
        help=_PLAYERS,
    )
    simulate.add_argument(
        "--workers",
        type=_positive,
        default=1,
        help="worker processes; any number gives the same results (default 1)",
    )
    simulate.add_argument(
        "--seed",
        type=_seed,
        default=0,
        help="the tournament seed: the same seed, the same results (default 0)",
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
        help="write every match's record to FILE, one JSON object per line",
    )

    for command in (demo, play, simulate):
        _rules_options(command)

    replay = commands.add_parser("replay", help="replay a saved record move by move")
    replay.add_argument("file", help="a record written by chkobba (JSON)")
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
    analyse = commands.add_parser("analyse", help="review a record's moves with the best bot")
    analyse.add_argument("file", help="a record written by chkobba (JSON)")
    _game_option(analyse)
    analyse.add_argument(
        "--seat", type=_whole, default=None, help="review one player (default all)"
    )
    analyse.add_argument(
        "--bot",
        type=_bot,
        default=BotSpec.parse("expert"),
        metavar="BOT",
        help="the bot that rates the moves, expert or ismcts, as NAME or NAME:KEY=VALUE,... "
        "(expert:iterations=400, ismcts:v1) (default expert)",
    )
    analyse.add_argument("--seed", type=_seed, default=0, help="the bot's seed (default 0)")
    analyse.add_argument(
        "--worst",
        type=_count,
        default=3,
        metavar="N",
        help="flag the N moves that lost the most, among those that lost 0.5 points or more "
        "(default 3; 0 flags none)",
    )
    analyse.add_argument("--json", action="store_true", help="machine-readable output")
    _everywhere(commands, "--no-colour", "--no-color", action="store_true", help=_NO_COLOUR)
    parser.commands = dict(commands.choices)
    return parser


def _game_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--game",
        type=_positive,
        default=None,
        metavar="N",
        help="in a file of one record per line (simulate --records), game N (from 1)",
    )


def _rules_options(command: argparse.ArgumentParser) -> None:
    names = ", ".join(sorted(PROFILES))
    command.add_argument(
        "--rules",
        choices=sorted(PROFILES),
        default=TUNISIAN.name,
        metavar="NAME",
        help=f"the rule profile: {names} (default {TUNISIAN.name}; see docs/rules.md)",
    )
    command.add_argument(
        "--target",
        type=_positive,
        default=None,
        metavar="N",
        help="the match target (default: the profile's, 21 tunisian, 11 cardrulesplus)",
    )


def _rules(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Rules:
    """The profile of ``--rules`` and ``--target``, checked against ``--players``."""
    rules = PROFILES[args.rules]
    try:
        if args.target is not None:
            rules = attrs.evolve(rules, target=args.target)
        rules.sides(args.players)
    except ChkobbaError as error:
        _subcommand(parser, args.command).error(str(error))
    return rules


def _subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The parser of command ``name``: its errors name it and point to its --help."""
    if isinstance(parser, _Parser) and parser.commands:
        return parser.commands[name]
    return parser


def _everywhere(commands: Any, *names: str, **options: Any) -> None:
    """Give every command an option of the main parser, so it works after the command too
    (``SUPPRESS``: an option given before the command is not reset by its default)."""
    for command in commands.choices.values():
        command.add_argument(*names, default=argparse.SUPPRESS, **options)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    if sys.stdout is None or sys.stderr is None:
        # A closed standard stream (``>&-``): Python sets it to None.
        closed = "output" if sys.stdout is None else "error"
        _complain(f"standard {closed} is closed")
        return 1
    parser = build_parser()
    args = parser.parse_args(argv)
    colour = False if args.no_colour else None
    out = Output(sys.stdout, colour=colour)
    err = Output(sys.stderr, colour=colour)
    try:
        return _dispatch(args, parser, out, err)
    except UsageError as error:
        _subcommand(parser, args.command).error(str(error))
    except (CommandError, ChkobbaError) as error:
        _complain(str(error))
        return 1
    except KeyboardInterrupt:
        _complain("interrupted", prefix="")
        return 130
    except BrokenPipeError:
        return 0
    except UnicodeDecodeError as error:
        _complain(f"standard input is not {error.encoding} text (byte {error.start})")
        return 1
    except UnicodeEncodeError as error:
        _complain(
            f"cannot write {shown(error.object[error.start : error.end])} in {error.encoding}"
        )
        return 1
    except OSError as error:
        _complain(f"input/output failed: {error.strerror or error}")
        return 1


def _complain(message: str, prefix: str = "error: ") -> None:
    """One line on standard error, if there is one to write to."""
    with contextlib.suppress(AttributeError, OSError, ValueError):
        sys.stderr.write(f"{PROGRAM}: {prefix}{message}\n")
        sys.stderr.flush()


def _dispatch(
    args: argparse.Namespace, parser: argparse.ArgumentParser, out: Output, err: Output
) -> int:
    rules = _rules(args, parser) if args.command not in ("replay", "analyse") else TUNISIAN
    if args.command == "demo":
        specs = _seating(parser, args.bots or [BotSpec.parse("greedy")], args.players)
        return run_demo(
            out, seed=args.seed, players=args.players, specs=specs, delay=args.delay, rules=rules
        )
    if args.command == "play":
        if args.partner is not None and args.players != _PARTNERSHIP:
            message = f"argument --partner: a {args.players}-player match has no partners"
            _subcommand(parser, "play").error(f"{message}; --partner needs --players 4")
        if sys.stdin is None:
            raise CommandError("standard input is closed: play reads your moves from it")
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        # A line that is not UTF-8 text is refused and typed again, not the end of the match.
        with contextlib.suppress(AttributeError, ValueError, OSError):
            sys.stdin.reconfigure(errors="surrogateescape")  # type: ignore[union-attr]
        return run_play(
            out,
            sys.stdin,
            players=args.players,
            opponent=args.opponent,
            partner=args.partner,
            seed=seed,
            auto=args.auto,
            rules=rules,
        )
    if args.command == "simulate":
        if len(args.bots) < 2:
            _subcommand(parser, "simulate").error("argument --bots: give at least two bots")
        return run_simulate(
            out,
            err,
            specs=args.bots,
            games=args.games,
            players=args.players,
            workers=args.workers,
            seed=args.seed,
            as_json=args.json,
            scheduler=args.scheduler,
            records=args.records,
            rules=rules,
        )
    if args.command == "analyse":
        return run_analyse(
            out,
            args.file,
            seat=args.seat,
            bot=args.bot,
            seed=args.seed,
            flagged=args.worst,
            as_json=args.json,
            game=args.game,
        )
    return run_replay(
        out,
        args.file,
        boards=not args.no_boards,
        deal=args.deal,
        stdin=None if args.no_step else sys.stdin,
        game=args.game,
    )


def _seating(parser: argparse.ArgumentParser, specs: list[BotSpec], players: int) -> list[BotSpec]:
    """The bot of every seat: one bot everywhere, one per seat, or at 4 players two
    partnerships (seats 0 and 2 get the first, 1 and 3 the second)."""
    if len(specs) == 1:
        return specs * players
    if players == 4 and len(specs) == 2:
        return specs * 2
    if len(specs) != players:
        counts = f"1 bot (for every seat) or {players} (one per seat)"
        if players == 4:
            counts = "1 bot (for every seat), 2 (one per partnership) or 4 (one per seat)"
        message = f"argument --bots: give {counts} at {players} players, not {len(specs)}"
        _subcommand(parser, "demo").error(message)
    return specs
