"""The ``chkobba`` command end to end, each command in a subprocess."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from chkobba import Record
from chkobba.arena import play_match
from chkobba.bots import RandomBot
from chkobba.cli import main
from chkobba.cli.output import Output


def chkobba(
    *args: str, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chkobba", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        cwd=cwd,
    )


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout


# --- demo ------------------------------------------------------------------------------


@pytest.mark.out_of_process
def test_demo_narrates_a_whole_match_reproducibly() -> None:
    first = chkobba("demo", "--seed", "3")
    assert first.returncode == 0, first.stderr
    text = first.stdout
    assert "deal 1: player" in text
    assert "cuts and" in text and " plays " in text and " and takes " in text
    assert "deal 1 score:" in text and "bermila" in text and "7♦" in text
    assert "wins the match" in text
    assert chkobba("demo", "--seed", "3").stdout == text
    assert chkobba("demo", "--seed", "4").stdout != text


@pytest.mark.out_of_process
def test_demo_with_four_players_and_chosen_bots() -> None:
    result = chkobba("demo", "--players", "4", "--seed", "2", "--bots", "random", "greedy")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "chkobba demo: 4 players (player 0: random, player 1: greedy, player 2: random, "
        "player 3: greedy), seed 2"
    )
    assert "player 3 plays" in result.stdout
    # Seed 2 always plays the same match: the partners of players 1 and 3 win it.
    assert lines[-1] == "side 1 (players 1 and 3) wins the match 12-21 after 7 deals"
    assert "side 0 (players 0 and 2) takes the last cards: 2♥ 3♦ 4♥ 5♠ K♠" in lines


# --- simulate --------------------------------------------------------------------------


@pytest.mark.out_of_process
def test_simulate_prints_a_results_table() -> None:
    result = chkobba("simulate", "--games", "4", "--bots", "greedy", "random", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert "win rate" in result.stdout and "95% CI" in result.stdout
    assert "greedy" in result.stdout and "random" in result.stdout


@pytest.mark.out_of_process
def test_simulate_json_is_machine_readable_and_reproducible() -> None:
    args = ("simulate", "--games", "4", "--bots", "greedy", "random", "--seed", "7", "--json")
    result = chkobba(*args, "--workers", "2")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 4 and data["players"] == 2 and data["seed"] == 7
    names = [bot["name"] for bot in data["bots"]]
    assert names == ["greedy", "random"]
    assert sum(bot["wins"] for bot in data["bots"]) == 4
    for bot in data["bots"]:
        assert bot["ci_low"] <= bot["win_rate"] <= bot["ci_high"]
        assert bot["points_per_deal"] >= 0
    assert json.loads(chkobba(*args).stdout) == data  # one worker, same results


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("simulate", "--games", "x", "--bots", "greedy", "random"), "not a whole number"),
        (("simulate", "--games", "2", "--bots", "greedy", "deep-blue"), "not a bot"),
        (("simulate", "--games", "2", "--bots", "greedy"), "at least two bots"),
        (("simulate", "--games", "0", "--bots", "greedy", "random"), "at least 1"),
        (("simulate", "--bots", "greedy", "random"), "required"),
        (("demo", "--players", "3"), "2 or 4 players, not 3 (the tunisian profile)"),
        (("demo", "--players", "5"), "invalid choice"),
        (("play", "--opponent", "genius"), "not a bot"),
        (("dance",), "invalid choice"),
        ((), "required"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # In-process for speed; the subprocess test below checks the real exit status.
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.out_of_process
def test_a_bad_argument_in_a_subprocess() -> None:
    result = chkobba("simulate", "--games", "x", "--bots", "greedy", "random")
    assert result.returncode == 2
    no_traceback(result)
    assert result.stderr.startswith("chkobba simulate: error: argument --games")


# --- replay ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record() -> Record:
    return play_match([RandomBot(seed=1), RandomBot(seed=2)], seed=11).record


@pytest.mark.out_of_process
def test_replay_shows_every_move_and_the_board(record: Record, tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    record.save(path)
    result = chkobba("replay", str(path))
    assert result.returncode == 0, result.stderr
    assert f"{len(record.moves)}. " in result.stdout
    assert "Table" in result.stdout and "Scores" in result.stdout
    assert "the record is complete" in result.stdout


@pytest.mark.out_of_process
def test_replay_reports_the_first_illegal_move(record: Record, tmp_path: Path) -> None:
    data = json.loads(record.to_json())
    cut_index = data["moves"].index(next(m for m in data["moves"] if m in ("keep", "expose")))
    play_index = cut_index + 1
    # A card that is certainly not in the mover's hand: one that is on the table.
    state = record.replay()[play_index]
    data["moves"][play_index] = str(state.table[0])
    path = tmp_path / "corrupt.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = chkobba("replay", str(path))
    assert result.returncode == 1
    no_traceback(result)
    named = f"move {play_index + 1} (index {play_index}) ('{state.table[0]}') is not legal"
    assert named in result.stderr
    assert f"is not in player {state.current_player}'s hand" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert f"{play_index}. " in result.stdout  # the moves before it were shown


@pytest.mark.out_of_process
@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("this is not json", "not valid JSON"),
        ('{"format": "chkobba-record", "version": 1, "players": 2}', "not a valid record"),
        ('{"format": "chess", "version": 1}', "format must be"),
    ],
)
def test_replay_rejects_broken_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content, encoding="utf-8")
    result = chkobba("replay", str(path))
    assert result.returncode == 1
    no_traceback(result)
    assert message in result.stderr


@pytest.mark.out_of_process
def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    result = chkobba("replay", str(tmp_path / "nothing.json"))
    assert result.returncode == 1
    no_traceback(result)
    assert "cannot read" in result.stderr


# --- play ------------------------------------------------------------------------------


@pytest.mark.out_of_process
def test_play_through_a_pipe_with_junk_help_hint_and_end_of_input() -> None:
    typed = "\n".join(["banana", "99", "0", "QH x", "help", "hint", "1", "", "7X"]) + "\n"
    result = chkobba("play", "--seed", "5", stdin=typed)
    assert result.returncode == 0, result.stderr
    no_traceback(result)
    out = result.stdout
    assert "You are player 0" in out
    assert "1. " in out and "Table" in out  # the board and the numbered moves
    assert "unknown command 'banana'; type help for help" in out
    assert "99 is not a move number" in out
    assert "Type the number of a move" in out  # help
    assert "hint: " in out
    assert "you cut and keep" in out  # the move typed as "1"
    assert "'7X' is not a move" in out
    assert out.rstrip().endswith("End of input: goodbye.")


@pytest.mark.out_of_process
def test_play_accepts_move_text(tmp_path: Path) -> None:
    result = chkobba("play", "--seed", "5", stdin="expose\n")
    assert result.returncode == 0, result.stderr
    assert "you cut and expose" in result.stdout


@pytest.mark.out_of_process
def test_play_quit_offers_to_save_a_record(tmp_path: Path) -> None:
    result = chkobba("play", "--seed", "8", stdin="keep\nquit\ny\nmine.json\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "You quit the match." in result.stdout
    assert "saved the record to 'mine.json'" in result.stdout
    saved = Record.from_json((tmp_path / "mine.json").read_text(encoding="utf-8"))
    assert saved.players == 2 and len(saved.moves) >= 2


@pytest.mark.out_of_process
def test_play_a_whole_match_through_a_pipe(tmp_path: Path) -> None:
    # Always the first listed move; the match ends, then end of input declines to save.
    result = chkobba("play", "--seed", "3", "--opponent", "random", stdin="1\n" * 400, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    ending = r"\n(you win|player 1 wins) the match \d+-\d+ after \d+ deals\n"
    assert re.search(ending, result.stdout) is not None
    assert "Save the match as a record?" in result.stdout
    assert not list(tmp_path.iterdir())


@pytest.mark.out_of_process
def test_play_four_players() -> None:
    result = chkobba("play", "--players", "4", "--seed", "1", stdin="1\n1\n1\n")
    assert result.returncode == 0, result.stderr
    assert "player 2: greedy (your partner)" in result.stdout


# --- output without colour or without rich -----------------------------------------------


@pytest.mark.out_of_process
def test_the_core_never_imports_rich() -> None:
    code = "import sys, chkobba, chkobba.bots, chkobba.arena; print('rich' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False"


def test_output_falls_back_to_plain_text_without_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rich.console", None)  # makes the import fail
    stream = io.StringIO()
    out = Output(stream, colour=True)
    assert out.rich is None
    out.line("hello", style="bold")
    out.table(["bot", "wins"], [["greedy", "3"]])
    with out.progress(2, "x") as advance:
        advance(1, 2)
    assert stream.getvalue() == "hello\nbot     wins\ngreedy  3\n"


@pytest.mark.out_of_process
def test_the_cli_runs_without_rich() -> None:
    code = (
        "import sys; sys.modules['rich'] = None; sys.modules['rich.console'] = None; "
        "from chkobba.cli import main; "
        "raise SystemExit(main(['simulate', '--games', '2', '--bots', 'greedy', 'random']))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "win rate" in result.stdout


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith("chkobba ")


def test_main_returns_a_commands_status_and_raises_argparses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # What main's docstring says of the two ways it ends (a program calling it must know).
    assert main(["rules", "tunisian"]) == 0
    with pytest.raises(SystemExit) as exit_info:
        main(["rules", "no-such-profile"])
    assert exit_info.value.code == 2
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    capsys.readouterr()
