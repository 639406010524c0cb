"""The ``chkobba`` command as a person meets it (issue #11): through a pipe, and in a
pseudo-terminal where it matters (Ctrl-C, the thinking indicator, stepping, colour)."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from chkobba import Record
from chkobba.arena import play_match
from chkobba.bots import GreedyBot
from chkobba.cli import main
from chkobba.cli.commands import COMMANDS
from chkobba.moves import Shuffle
from tests.helpers import dates_today
from tests.test_cli import chkobba, no_traceback

SRC = str(Path(__file__).resolve().parent.parent / "src")


class Terminal:
    """``chkobba ARGS`` in a pseudo-terminal: what a person at a real terminal sees."""

    def __init__(self, *args: str, cwd: Path | None = None) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PYTHONPATH")}
        env.update(TERM="xterm-256color", COLUMNS="100", LINES="40", PYTHONPATH=SRC)
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pseudo-terminal is its controlling terminal
            if cwd is not None:
                os.chdir(cwd)
            # As a shell starts a job: Ctrl-C's signal neither blocked nor ignored. Both
            # are inherited through fork and exec, and the test process's own (whatever
            # an earlier test or library left) must not decide whether Ctrl-C arrives.
            signal.pthread_sigmask(signal.SIG_SETMASK, set())
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.execve(sys.executable, [sys.executable, "-m", "chkobba", *args], env)
        self.pid, self.fd = pid, fd
        self.output = ""

    def _read(self, timeout: float) -> bool:
        """Read what is there within ``timeout``; False once the child closed the terminal."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        self.output += data.decode("utf-8", "replace")
        return bool(data)

    def expect(self, text: str, timeout: float = 60, times: int = 1) -> None:
        """Wait until ``text`` has been shown (``times`` times in all)."""
        end = time.monotonic() + timeout
        while self.output.count(text) < times:
            if time.monotonic() > end or not self._read(0.5):
                raise AssertionError(f"{text!r} never shown; the screen had:\n{self.output}")

    def send(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def interrupt(self, answer: str, timeout: float = 60) -> None:
        """Ctrl-C: SIGINT to the command, as the terminal sends it to the foreground job,
        then wait until ``answer`` has been shown.

        Sent directly rather than typed as ``\x03``: on a loaded machine the typed key was
        echoed yet, about once in 20 runs, never reached the child. And a signal that
        lands after the prompt is written but before the child blocks reading its input
        is lost for the test: CPython notes it, but checks for it only when the read is
        interrupted, so the child sleeps on with the signal unseen (about once in 10
        runs on a loaded machine). A person never presses Ctrl-C within microseconds of
        the prompt; the test, when the child sleeps and shows nothing for a second,
        sends the signal again (the two count as one Ctrl-C: the first was not seen).
        """
        os.kill(self.pid, signal.SIGINT)
        end = time.monotonic() + timeout
        quiet_since, shown = time.monotonic(), len(self.output)
        while answer not in self.output:
            if time.monotonic() > end or not self._read(0.5):
                raise AssertionError(f"{answer!r} never shown; the screen had:\n{self.output}")
            if len(self.output) != shown:
                quiet_since, shown = time.monotonic(), len(self.output)
            elif time.monotonic() - quiet_since > 1 and self._sleeping():
                os.kill(self.pid, signal.SIGINT)
                quiet_since = time.monotonic()

    def _sleeping(self) -> bool:
        """Whether the child sleeps (Linux: its state in /proc; elsewhere, never
        assumed)."""
        try:
            stat = Path(f"/proc/{self.pid}/stat").read_text()
        except OSError:
            return False
        return stat.rsplit(")", 1)[1].split()[0] == "S"

    def finish(self, timeout: float = 60) -> int:
        """Read to the end and return the exit status."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and self._read(0.5):
            pass  # until the child closes the terminal
        for _ in range(int(timeout * 10)):
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.1)
        os.kill(self.pid, signal.SIGKILL)
        raise AssertionError(f"the command did not end; the screen had:\n{self.output}")


# --- play: saving -----------------------------------------------------------------------


@pytest.mark.out_of_process
def test_a_failed_save_asks_again_and_an_existing_file_is_only_replaced_when_confirmed(
    tmp_path: Path,
) -> None:
    (tmp_path / "taken.json").write_text("keep me", encoding="utf-8")
    typed = ["1", "quit", "y", "missing/folder/x.json", "taken.json", "n", "taken.json", "y"]
    result = chkobba("play", "--seed", "8", stdin="\n".join(typed) + "\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "could not save 'missing/folder/x.json': No such file or directory" in out
    assert out.count("File name (Enter: chkobba-") == 3
    assert out.count("'taken.json' exists: replace it? [y/N]") == 2
    assert "saved the record to 'taken.json'" in out
    saved = Record.load(tmp_path / "taken.json")
    assert len(saved.moves) >= 2  # the file now holds the match


@pytest.mark.out_of_process
def test_saving_can_be_declined_and_the_default_name_is_dated(tmp_path: Path) -> None:
    declined = chkobba("play", "--seed", "8", stdin="quit\ny\nno\n", cwd=tmp_path)
    assert "not saved" in declined.stdout and not list(tmp_path.iterdir())
    ended = chkobba("play", "--seed", "8", stdin="quit\ny\n", cwd=tmp_path)
    assert ended.stdout.rstrip().endswith("not saved")  # end of input while asking
    chkobba("play", "--seed", "8", stdin="quit\ny\n\n", cwd=tmp_path)
    [saved] = tmp_path.iterdir()
    assert re.fullmatch(r"chkobba-\d{4}-\d\d-\d\d-\d{4}\.json", saved.name)
    assert saved.name[len("chkobba-") :][:10] in dates_today()  # over midnight: yesterday's


@pytest.mark.out_of_process
def test_the_saved_record_tells_who_played_with_which_rules(tmp_path: Path) -> None:
    typed = "1\nquit\ny\nm.json\n"
    args = ("play", "--players", "4", "--seed", "2", "--opponent", "random", "--partner", "greedy")
    assert chkobba(*args, stdin=typed, cwd=tmp_path).returncode == 0
    tags = Record.load(tmp_path / "m.json").tags
    assert tags["player0"] == "human" and tags["player2"] == "greedy"
    assert tags["player1"] == tags["player3"] == "random"
    assert tags["seed"] == "2" and tags["profile"] == "tunisian"
    assert tags["event"] == "chkobba play"
    assert tags["date"] in dates_today()


@pytest.mark.out_of_process
def test_ctrl_c_offers_to_save_and_a_second_ctrl_c_quits(tmp_path: Path) -> None:
    terminal = Terminal("play", "--seed", "5", cwd=tmp_path)
    terminal.expect("your move> ")
    terminal.interrupt("Save the match as a record? [y/N] ")
    assert "Interrupted" in terminal.output
    terminal.send("y\rctrl.json\r")
    terminal.expect("saved the record to 'ctrl.json'")
    assert terminal.finish() == 0
    assert Record.load(tmp_path / "ctrl.json").players == 2

    second = Terminal("play", "--seed", "5", cwd=tmp_path)
    second.expect("your move> ")
    second.interrupt("Save the match as a record? [y/N] ")
    second.interrupt("interrupted")
    assert second.finish() == 130
    assert "interrupted" in second.output and "Traceback" not in second.output


# --- play: commands and moves ---------------------------------------------------------


@pytest.mark.out_of_process
def test_commands_are_told_apart_from_cards_with_a_suggestion() -> None:
    typed = ["kep", "ondo", "banana", "undo", "help", "2", "AS", "bord", "quit", "n"]
    result = chkobba("play", "--seed", "5", stdin="\n".join(typed) + "\n")
    out = result.stdout
    assert "unknown command 'kep' (did you mean keep?)" in out
    assert "unknown command 'ondo' (did you mean undo?)" in out
    assert "unknown command 'banana'; type help for help" in out
    assert "is not a rank" not in out  # never read as a card
    assert "there is nothing to undo" in out
    assert all(f"  {name} " in out for name in COMMANDS)  # help lists every command
    assert "AS is not in your hand" in out and "player 0's hand" not in out
    assert "unknown command 'bord' (did you mean board?)" in out


@pytest.mark.out_of_process
def test_undo_takes_back_the_last_move_and_board_redraws() -> None:
    typed = ["2", "board", "1", "undo", "quit", "n"]
    result = chkobba("play", "--seed", "5", stdin="\n".join(typed) + "\n")
    out = result.stdout
    assert "you cut and expose 6♣" in out and "you play 5♣" in out
    assert "undone: your 5♣ and 1 move after it" in out
    # The bot's answer goes back to its hand, and the message owns up to it.
    bot_card = out.split("player 1 plays ")[1].split()[0]
    assert f"(back in the bots' hands, and seen: {bot_card})" in out
    after_undo = out.split("undone:")[1]
    assert "Hands      player 0 (you): 5♣ 6♠ 7♠" in after_undo  # the card is back
    before_board = out.split("your move> board")
    assert before_board[1].count("Chkobba: 2 players") >= 1  # the board again


@pytest.mark.out_of_process
def test_the_menu_follows_the_hand_order_with_suit_symbols() -> None:
    result = chkobba("play", "--seed", "5", stdin="2\n")
    menu = result.stdout.split("your move> 2")[1]
    items = re.findall(r"^  \d+\. (.+)$", menu, re.M)
    assert items == ["5♣", "6♠ x 6♥", "6♠ x 6♣", "7♠"]
    hand = re.search(r"player 0 \(you\): (.+)", menu)
    assert hand is not None and hand.group(1).split() == ["5♣", "6♠", "7♠"]


@pytest.mark.out_of_process
def test_auto_plays_a_forced_move(tmp_path: Path) -> None:
    result = chkobba("play", "--seed", "3", "--auto", stdin="1\n" * 400, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "your only move: " in result.stdout and "(auto is on)" in result.stdout
    toggled = chkobba("play", "--seed", "3", stdin="auto\nauto\n")
    assert "auto is on" in toggled.stdout and "auto is off" in toggled.stdout


@pytest.mark.out_of_process
def test_four_players_name_every_seat_and_the_partner() -> None:
    args = ("play", "--players", "4", "--seed", "1", "--opponent", "random", "--partner", "greedy")
    result = chkobba(*args, stdin="")
    first = result.stdout.splitlines()[0]
    assert first == (
        "You are player 0; player 1: random, player 2: greedy (your partner), "
        "player 3: random; seed 1."
    )


@pytest.mark.out_of_process
def test_a_thinking_bot_is_shown_on_a_terminal_only() -> None:
    args = ("play", "--seed", "6", "--opponent", "ismcts:iterations=30")
    terminal = Terminal(*args)
    terminal.expect("your move> ")
    terminal.send("1\r")
    terminal.expect("is thinking…")
    # Ctrl-D (end of input) at the next prompt: typed while the bot thinks, it came
    # before Python's line editing took the terminal, which lost it (a flaky wait).
    terminal.expect("your move> ", times=2)
    terminal.send("\x04")
    assert terminal.finish() == 0
    assert "player 1 (ismcts:iterations=30) is thinking…" in terminal.output
    piped = chkobba(*args, stdin="1\n1\n")
    assert "thinking" not in piped.stdout


# --- other commands ---------------------------------------------------------------------


def test_demo_says_how_many_bots_it_takes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--players", "2", "--bots", "greedy", "random", "random"])
    err = capsys.readouterr().err
    assert "give 1 bot (for every seat) or 2 (one per seat) at 2 players, not 3" in err
    with pytest.raises(SystemExit):
        main(["demo", "--players", "4", "--bots", "greedy", "random", "random"])
    assert "2 (one per partnership) or 4 (one per seat) at 4 players, not 3" in (
        capsys.readouterr().err
    )


@pytest.mark.out_of_process
@pytest.mark.parametrize(
    "command", [["demo"], ["simulate", "--games", "1", "--bots", "greedy", "random"]]
)
def test_no_colour_works_after_the_command(command: list[str]) -> None:
    result = chkobba(*command, "--no-colour")
    assert result.returncode == 0, result.stderr


@pytest.mark.out_of_process
def test_no_colour_after_the_command_really_turns_colour_off() -> None:
    pytest.importorskip("rich")
    coloured = Terminal("demo", "--seed", "3")
    assert coloured.finish() == 0
    plain = Terminal("demo", "--seed", "3", "--no-color")
    assert plain.finish() == 0
    assert "\x1b[" in coloured.output
    assert "\x1b[" not in plain.output and "wins the match" in plain.output


@pytest.mark.out_of_process
def test_help_texts_show_defaults_and_the_bot_form() -> None:
    simulate = chkobba("simulate", "--help").stdout
    for option in ("--bots", "--workers", "--seed", "--players"):
        assert option in simulate
    assert "(default 1)" in simulate and "(default 0)" in simulate and "(default 2)" in simulate
    assert "NAME:KEY=VALUE" in simulate
    play = chkobba("play", "--help").stdout
    assert "NAME:KEY=VALUE" in " ".join(play.split()) and "(default greedy)" in play


def _endings(text: str) -> list[str]:
    return [line for line in text.splitlines() if " the match " in line or " won" in line]


@pytest.mark.out_of_process
def test_one_ending_message_in_sides() -> None:
    two = chkobba("demo", "--seed", "3").stdout
    assert _endings(two) == ["player 1 wins the match 12-23 after 10 deals (1 void)"]
    assert two.rstrip().endswith("player 1 wins the match 12-23 after 10 deals (1 void)")
    four = chkobba("demo", "--players", "4", "--seed", "2").stdout
    [ending] = _endings(four)
    assert re.fullmatch(
        r"side \d \(players \d and \d\) wins the match \d+-\d+ after \d+ deals", ending
    )


def test_demo_delay_pauses_after_every_move(monkeypatch: pytest.MonkeyPatch) -> None:
    import chkobba.cli.demo as demo

    pauses: list[float] = []
    monkeypatch.setattr(demo.time, "sleep", pauses.append)
    assert main(["demo", "--seed", "3", "--delay", "0.25"]) == 0
    record = play_match([GreedyBot(seed=30), GreedyBot(seed=31)], seed=3).record
    moves = [m for m in record.moves if not isinstance(m, Shuffle)]
    assert pauses == [0.25] * len(moves)


@pytest.mark.parametrize("delay", ["-1", "soon", "61"])
def test_a_bad_delay_is_refused(delay: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["demo", "--delay", delay])
    assert exit_info.value.code == 2
    assert "--delay" in capsys.readouterr().err


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Record]:
    record = play_match([GreedyBot(seed=1), GreedyBot(seed=2)], seed=11).record
    path = tmp_path_factory.mktemp("replay") / "match.json"
    record.save(path)
    return path, record


@pytest.mark.out_of_process
def test_replay_of_one_deal(saved: tuple[Path, Record]) -> None:
    path, record = saved
    second = record.deals()[1]
    result = chkobba("replay", str(path), "--deal", "2", "--no-boards")
    assert result.returncode == 0, result.stderr
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", result.stdout, re.M)]
    first = second.first_index + 1
    assert numbers == list(range(first, first + len(second.moves)))
    assert result.stdout.rstrip().endswith(
        f"end of deal 2; match {'-'.join(map(str, second.scores))}"
    )
    missing = chkobba("replay", str(path), "--deal", "99")
    assert missing.returncode == 1
    assert f"has {len(record.deals())} deals: there is no deal 99" in missing.stderr


@pytest.mark.out_of_process
def test_replay_ends_once_in_sides(saved: tuple[Path, Record]) -> None:
    out = chkobba("replay", str(path := saved[0]), "--no-boards").stdout
    assert len(_endings(out)) == 1 and "won" not in out
    assert str(path) in out.splitlines()[0]


@pytest.mark.out_of_process
def test_replay_steps_with_enter_on_a_terminal(saved: tuple[Path, Record]) -> None:
    terminal = Terminal("replay", str(saved[0]))
    terminal.expect("-- Enter: next move")
    # One move (the shuffle and the cut: the first pause follows the cut) per Enter.
    assert terminal.output.count("-- Enter") == 1 and "\n3. " not in terminal.output
    terminal.send("\r")
    _wait_for_count(terminal, "-- Enter", 2)
    assert "3. " in terminal.output and "\n4. " not in terminal.output
    terminal.send("d\r")  # to the end of the deal
    _wait_for_count(terminal, "-- Enter", 3)
    assert "deal 1 score:" in terminal.output and "deal 2:" not in terminal.output
    terminal.send("q\r")
    terminal.expect("replay stopped")
    assert terminal.finish() == 0
    assert "the record is complete" not in terminal.output
    piped = chkobba("replay", str(saved[0]))
    assert "-- Enter" not in piped.stdout and "the record is complete" in piped.stdout


def _wait_for_count(terminal: Terminal, text: str, count: int) -> None:
    end = time.monotonic() + 60
    while terminal.output.count(text) < count and time.monotonic() < end:
        terminal._read(0.5)
    assert terminal.output.count(text) >= count, terminal.output


@pytest.mark.out_of_process
def test_replay_names_a_bad_move_text_by_number_and_index(tmp_path: Path) -> None:
    data = json.loads(Record(players=2).to_json())
    data["moves"] = ["shuffle " + " ".join(str(c) for c in _deck()), "keep", "keep", "banana"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = chkobba("replay", str(path))
    no_traceback(result)
    assert "move 4 (index 3): 'banana' is not a move" in result.stderr


def _deck() -> list[object]:
    from chkobba import DECK

    return list(DECK)
