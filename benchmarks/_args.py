"""Argument types the benchmark scripts share: a bad value is a usage error (status 2)
naming the option, not a traceback or a figure that means nothing."""

from __future__ import annotations

import argparse


def positive(text: str) -> int:
    """A whole number of at least 1 (a count of deals, games, runs…)."""
    return _whole(text, 1)


def at_least_zero(text: str) -> int:
    """A whole number of at least 0 (0: the run of none that callgrind subtracts)."""
    return _whole(text, 0)


def _whole(text: str, least: int) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number < least:
        raise argparse.ArgumentTypeError(f"{number} is less than {least}")
    return number


def bot_spec(text: str) -> str:
    """A bot spec (``greedy``, ``ismcts:iterations=50``), checked and kept as text."""
    # Imported here: the scripts that run another revision's chkobba need no bots.
    from chkobba import ChkobbaError
    from chkobba.bots import BotSpec

    try:
        BotSpec.parse(text)
    except ChkobbaError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text
