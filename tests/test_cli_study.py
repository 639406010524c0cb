"""``chkobba`` as a card player studies it: what typed text means in ``play``, deal
numbers with void deals, messages in the player's words, and analysis units."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable

import pytest

from chkobba.cli import main
from chkobba.cli.commands import ALIASES, HELP, command_of


@pytest.fixture
def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    """``chkobba play ARGS`` in this process, with ``typed`` as its standard input."""

    def run(typed: str, *args: str) -> str:
        monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
        assert main(["play", "--no-colour", *args]) == 0
        return capsys.readouterr().out

    return run


# --- 1. a rank letter is a card, never quit --------------------------------------------


@pytest.mark.parametrize("letter", ["Q", "q", "K", "A", "j"])
def test_a_rank_letter_alone_is_not_a_whole_card(play: Callable[..., str], letter: str) -> None:
    out = play(f"1\n{letter}\n", "--seed", "23")
    assert "You quit the match." not in out
    upper = letter.upper()
    assert f"'{letter}' is not a whole card: a card is a rank and a suit, as in {upper}H" in out


def test_quit_and_exit_still_quit_and_help_lists_the_aliases(
    play: Callable[..., str],
) -> None:
    assert "q" not in ALIASES and command_of("Q") is None
    assert command_of("quit") == command_of("exit") == "quit"
    assert command_of("h") == command_of("?") == "help"
    assert "(also ?, h)" in HELP and "(also exit)" in HELP
    assert "You quit the match." in play("1\nexit\n", "--seed", "23")


# --- 2. a capture without spaces is a move ---------------------------------------------


def test_a_capture_without_spaces_or_digits_is_a_move(play: Callable[..., str]) -> None:
    assert command_of("QSxQD") is None and command_of("qsxqd") is None
    out = play("1\nQSxQD\n", "--seed", "23")
    assert "unknown command" not in out
    assert "you play Q♠ and take Q♦" in out
    with pytest.raises(ValueError, match="unknown command 'banana'"):
        command_of("banana")


# --- 6. messages in the player's words -------------------------------------------------


def test_moves_at_the_wrong_moment_and_bad_numbers_are_told_plainly(
    play: Callable[..., str],
) -> None:
    out = play("QH\n1\nkeep\n-1\n1.5\nQX\n", "--seed", "23")
    assert "now is the cut: keep or expose the top card; you play a card after it" in out
    assert "you can keep or expose only at the cut; now play a card" in out
    assert "-1 is not a move number: choose 1 to 3" in out
    assert "1.5 is not a move number: choose 1 to 3" in out
    assert "'QX' is not a move: 'QX' is not a card: X is not a suit" in out
    assert "not allowed in phase" not in out and "is not a rank" not in out
