"""The ``chkobba`` command: ``demo``, ``play``, ``simulate`` and ``replay``.

Run ``chkobba --help`` (or ``python -m chkobba --help``) for the options; ``docs/cli.md``
has examples. Exit status: 0 on success, 2 for bad arguments, 1 for any other failure,
always with a one-line message and never a traceback.

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
from typing import NoReturn

from chkobba import __version__
from chkobba.bots.registry import BotSpec
from chkobba.cli.demo import run_demo
from chkobba.cli.output import Output
from chkobba.cli.play import run_play
from chkobba.cli.replay import CommandError, run_replay
from chkobba.cli.simulate import run_simulate
from chkobba.errors import ChkobbaError, shown

__all__ = ["main"]

PROGRAM = "chkobba"


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        raise SystemExit(2)


def _bot(text: str) -> BotSpec:
    try:
        return BotSpec.parse(text)
    except ChkobbaError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be at least 1")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``chkobba`` command."""
    parser = _Parser(prog=PROGRAM, description="Play and study Chkobba (Tunisian rules).")
    parser.add_argument("--no-colour", "--no-color", action="store_true", help="plain text")
    parser.add_argument("--version", action="version", version=f"{PROGRAM} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    demo = commands.add_parser("demo", help="watch bots play a whole match, narrated")
    demo.add_argument("--seed", type=_seed, default=1, help="the match seed (default 1)")
    demo.add_argument("--players", type=int, choices=(2, 4), default=2)
    demo.add_argument(
        "--bots",
        type=_bot,
        nargs="+",
        metavar="BOT",
        default=None,
        help="bots per seat (default: greedy everywhere); 2 bots at 4 players are partners",
    )

    play = commands.add_parser("play", help="play against bots in the terminal")
    play.add_argument("--players", type=int, choices=(2, 4), default=2)
    play.add_argument(
        "--opponent",
        type=_bot,
        default=BotSpec.parse("greedy"),
        metavar="BOT",
        help="random, greedy or ismcts (default greedy); at 4 players also your partner",
    )
    play.add_argument("--seed", type=_seed, default=None, help="the match seed (default random)")

    simulate = commands.add_parser("simulate", help="a tournament between bots")
    simulate.add_argument("--games", type=_positive, required=True, help="matches per pair")
    simulate.add_argument("--bots", type=_bot, nargs="+", required=True, metavar="BOT")
    simulate.add_argument("--players", type=int, choices=(2, 4), default=2)
    simulate.add_argument("--workers", type=_positive, default=1)
    simulate.add_argument("--seed", type=_seed, default=0)
    simulate.add_argument("--json", action="store_true", help="machine-readable output")

    replay = commands.add_parser("replay", help="replay a saved record move by move")
    replay.add_argument("file", help="a record written by chkobba (JSON)")
    replay.add_argument("--no-boards", action="store_true", help="moves only, no boards")
    return parser


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
    if args.command == "demo":
        specs = args.bots or [BotSpec.parse("greedy")] * args.players
        if len(specs) == 1:
            specs = specs * args.players
        if args.players == 4 and len(specs) == 2:
            specs = specs * 2
        if len(specs) != args.players:
            parser.error(f"demo --bots: give 1, 2 or {args.players} bots, not {len(specs)}")
        return run_demo(out, seed=args.seed, players=args.players, specs=specs)
    if args.command == "play":
        if sys.stdin is None:
            raise CommandError("standard input is closed: play reads your moves from it")
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        return run_play(out, sys.stdin, players=args.players, opponent=args.opponent, seed=seed)
    if args.command == "simulate":
        if len(args.bots) < 2:
            parser.error("simulate --bots: give at least two bots")
        return run_simulate(
            out,
            err,
            specs=args.bots,
            games=args.games,
            players=args.players,
            workers=args.workers,
            seed=args.seed,
            as_json=args.json,
        )
    return run_replay(out, args.file, boards=not args.no_boards)
