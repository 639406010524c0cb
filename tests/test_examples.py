"""The example scripts run end to end (each skipped without its extra)."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

import pytest

from chkobba import Game, Record, new_match
from chkobba.arena import subseed

pytestmark = pytest.mark.out_of_process

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_pettingzoo_random_plays_a_match() -> None:
    pytest.importorskip("pettingzoo")
    out = run("pettingzoo_random.py", "--players", "4", "--seed", "3")
    rewards = [float(r) for r in re.findall(r"player_\d: reward ([-+]\d+)", out)]
    assert len(rewards) == 4 and sorted(rewards) == [-1, -1, 1, 1]
    assert "Winner" in out


def test_pettingzoo_random_plays_one_deal() -> None:
    pytest.importorskip("pettingzoo")
    out = run("pettingzoo_random.py", "--single-deal", "--seed", "1")
    assert ", 1 deal," in out
    rewards = [float(r) for r in re.findall(r"player_\d: reward ([-+]\d+)", out)]
    assert len(rewards) == 2 and sum(rewards) == 0


def test_pettingzoo_random_plays_three_players_under_card_rules_plus() -> None:
    pytest.importorskip("pettingzoo")
    out = run("pettingzoo_random.py", "--players", "3", "--rules", "cardrulesplus", "--seed", "2")
    rewards = sorted(float(r) for r in re.findall(r"player_\d: reward ([-+][\d.]+)", out))
    assert rewards == [-0.5, -0.5, 1.0]
    assert "cardrulesplus rules" in out and "Winner" in out


def test_openspiel_ismcts_evaluates() -> None:
    pytest.importorskip("pyspiel")
    out = run("openspiel_ismcts.py", "--deals", "2", "--simulations", "4", "--players", "4")
    assert "ISMCTS (4 simulations/move) vs random, 4 players" in out
    won, drew, lost = map(int, re.search(r"won (\d+), drew (\d+), lost (\d+)", out).groups())  # type: ignore[union-attr]
    assert won + drew + lost == 2


def test_the_ppo_example_shows_its_help_without_torch_too() -> None:
    """Found by a docs audit: ``--help`` printed only "needs torch" where torch is
    missing, hiding the options docs/gymnasium.md uses."""
    out = run("train_maskable_ppo.py", "--help")
    assert out.startswith("usage: train_maskable_ppo.py")
    for option in ("--random-steps", "--greedy-steps", "--eval-games", "--seed", "--save"):
        assert option in out


def test_the_ppo_example_names_what_it_lacks_in_one_line() -> None:
    pytest.importorskip("chkobba.gymnasium")
    try:
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        done = subprocess.run(
            [sys.executable, str(EXAMPLES / "train_maskable_ppo.py"), "--random-steps", "0"],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 1
        assert re.fullmatch(
            r"train_maskable_ppo\.py needs \w+: pip install -e '\.\[gymnasium\]' sb3-contrib\n",
            done.stderr,
        )
    else:
        pytest.skip("torch and sb3-contrib are installed: the script would train")


@pytest.mark.parametrize(
    ("option", "said"),
    [
        (["--eval-games", "0"], "--eval-games must be from 1 to 1,000,000, not 0"),
        (["--greedy-steps", "-1"], "--random-steps and --greedy-steps must be 0"),
    ],
)
def test_the_ppo_example_checks_its_numbers_before_it_trains(option: list[str], said: str) -> None:
    # Found by a review: --eval-games 0 was refused by tournament after the training,
    # with a traceback, and the model trained for minutes was lost.
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_maskable_ppo.py"), *option],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert said in done.stderr and "Traceback" not in done.stderr


def test_the_tcp_server_demo_plays_a_match_over_loopback() -> None:
    out = run("tcp_server.py", "--players", "4", "--seed", "2", "--spec", "random")
    assert re.fullmatch(r"match 1 over after \d+ moves: scores \[\d+, \d+\], side [01] won\n", out)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _serve(*args: str, served: str = "a 2-player match") -> tuple[subprocess.Popen[str], str]:
    """The TCP example serving on a free loopback port, once it says it serves ``served``."""
    port = str(_free_port())
    command = [sys.executable, str(EXAMPLES / "tcp_server.py"), "--role", "serve"]
    server = subprocess.Popen(
        [*command, "--port", port, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert server.stdout is not None
    assert server.stdout.readline().startswith(f"serving {served} on 127.0.0.1:")
    return server, port


def test_the_tcp_server_serves_separate_bot_processes_and_stops_cleanly() -> None:
    server, port = _serve("--seed", "3")
    client = [sys.executable, str(EXAMPLES / "tcp_server.py"), "--role", "bot", "--port", port]
    bots = [
        subprocess.Popen(
            [*client, "--seed", str(seed), "--spec", spec], stdout=subprocess.PIPE, text=True
        )
        for seed, spec in ((3, "greedy"), (4, "random"))
    ]
    said = [bot.communicate(timeout=120)[0] for bot in bots]
    out, err = server.communicate(timeout=120)
    assert server.returncode == 0
    assert err == ""  # no traceback of a connection cut off when the match ended
    last = re.fullmatch(
        r"match 1 over after \d+ moves: scores (\[\d+, \d+\]), side ([01]) won\n", out
    )
    assert last is not None
    assert said == [f"match over: scores {last[1]}, side {last[2]} won\n"] * 2


@pytest.mark.parametrize(
    ("ending", "said", "status"),
    [
        (None, "the server closed the connection before the match ended\n", 1),
        ({"type": "left", "seat": 1}, "match abandoned: player 1 left\n", 0),
        ({"type": "stopped"}, "the server stopped the match\n", 0),
    ],
)
def test_a_bot_client_says_how_its_match_ended_and_fails_if_the_server_went_away(
    ending: dict[str, Any] | None, said: str, status: int
) -> None:
    # A server gone mid-match was "match abandoned: {...}" (the last message as a dict),
    # status 0, as if the match had come to an end.
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = str(listener.getsockname()[1])
        command = [sys.executable, str(EXAMPLES / "tcp_server.py"), "--role", "bot"]
        bot = subprocess.Popen(
            [*command, "--port", port], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        seat, _ = listener.accept()
        with seat:
            seat.sendall(b'{"type": "seat", "seat": 0, "players": 2}\n')
            if ending is not None:
                seat.sendall(json.dumps(ending).encode() + b"\n")
        out, err = bot.communicate(timeout=60)
    assert (out, err, bot.returncode) == (said, "", status)


def test_the_tcp_server_says_a_match_a_seat_left_was_abandoned() -> None:
    server, port = _serve()
    leaving = socket.create_connection(("127.0.0.1", int(port)))
    staying = socket.create_connection(("127.0.0.1", int(port)))
    with staying, staying.makefile("rb") as lines:
        seat = json.loads(lines.readline())["seat"]
        lines.readline()  # the shuffle's outcome
        leaving.close()
        while (message := json.loads(lines.readline()))["type"] != "left":
            pass
    out, err = server.communicate(timeout=120)
    assert message == {"type": "left", "seat": 1 - seat}
    assert (out, err) == (f"match 1 abandoned after 1 move: seat {1 - seat} left\n", "")


def test_the_tcp_server_serves_several_matches_at_once_and_keeps_their_records(
    tmp_path: Path,
) -> None:
    records = tmp_path / "games.jsonl"
    served = "2 matches of 2 players"
    server, port = _serve("--seed", "5", "--matches", "2", "--records", str(records), served=served)
    client = [sys.executable, str(EXAMPLES / "tcp_server.py"), "--role", "bot", "--port", port]
    bots = [
        subprocess.Popen([*client, "--seed", str(seed)], stdout=subprocess.PIPE, text=True)
        for seed in range(4)
    ]
    said = [bot.communicate(timeout=120)[0] for bot in bots]
    out, err = server.communicate(timeout=120)
    assert (server.returncode, err) == (0, "")
    ended = re.findall(
        r"match ([12]) over after \d+ moves: scores (\[\d+, \d+\]), side [01] won", out
    )
    assert sorted(number for number, _ in ended) == ["1", "2"] and len(out.splitlines()) == 2
    assert all(line.startswith("match over: scores ") for line in said)
    kept = Record.load_lines(records)  # each match's record, in the order they ended
    assert sorted(record.tags["game"] for record in kept) == ["1", "2"]
    for record in kept:
        assert record.tags["seed"] == str(subseed(5, int(record.tags["game"])))
        assert record.final().is_over and record.start() == new_match()
        dealt = Game(seed=int(record.tags["seed"]))  # the seed tagged deals the match
        dealt.deal()
        assert record.moves[0] == dealt.moves[0]
        assert all(record.tags[f"player{seat}"].startswith("127.0.0.1:") for seat in (0, 1))
        scores = dict(ended)[record.tags["game"]]
        assert scores == str(list(record.final().scores))


def test_a_spectator_process_watches_a_match_of_bot_processes_to_its_end() -> None:
    watch_port = str(_free_port())
    server, port = _serve("--seed", "7", "--watch-port", watch_port)
    assert server.stdout is not None
    assert server.stdout.readline() == f"spectators watch on 127.0.0.1:{watch_port}\n"
    script = [sys.executable, str(EXAMPLES / "tcp_server.py")]
    spectator = subprocess.Popen(
        [*script, "--role", "watch", "--port", watch_port], stdout=subprocess.PIPE, text=True
    )
    client = [*script, "--role", "bot", "--port", port]
    bots = [
        subprocess.Popen([*client, "--seed", str(seed)], stdout=subprocess.PIPE, text=True)
        for seed in (1, 2)
    ]
    said = [bot.communicate(timeout=120)[0] for bot in bots]
    watched = spectator.communicate(timeout=120)[0]
    out, err = server.communicate(timeout=120)
    assert (server.returncode, spectator.returncode, err) == (0, 0, "")
    assert out.startswith("match 1 over after ")
    lines = watched.splitlines()
    assert lines[0] == "watching match 1 of 2 players"
    assert lines[-1] == said[0].strip() == said[1].strip()  # match over: scores ..., side S won
    boards = watched.count("(public view)")
    assert boards > 20 and boards == watched.count("\nTurn ")
    # Each hand drawn as a count of cards, never as cards.
    hands = re.findall(r"^Hands +player 0: (.*)\n +player 1: (.*)$", watched, re.MULTILINE)
    assert len(hands) > 20
    assert all(re.fullmatch(r"\d+ cards?", shown) for pair in hands for shown in pair)


def _lines_as_they_come(stream: IO[str]) -> queue.Queue[str]:
    """The lines of ``stream``, put in a queue as a thread reads them ("" at its end), so
    that a test waits for the next one within a time limit instead of for ever."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        while line := stream.readline():
            lines.put(line)
        lines.put("")

    threading.Thread(target=read, daemon=True).start()
    return lines


def test_a_following_spectator_process_watches_two_matches_then_stops() -> None:
    watch_port = str(_free_port())
    args = ("--seed", "8", "--matches", "2", "--watch-port", watch_port)
    server, port = _serve(*args, served="2 matches of 2 players")
    assert server.stdout is not None
    assert server.stdout.readline() == f"spectators watch on 127.0.0.1:{watch_port}\n"
    script = [sys.executable, str(EXAMPLES / "tcp_server.py")]
    # As a fresh shell runs it: its output through a pipe is not unbuffered by the
    # environment (the spectator held "watching match 2" back in a block, and this
    # test, waiting for it before starting match 2, waited for ever).
    plain = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    spectator = subprocess.Popen(
        [*script, "--role", "watch", "--port", watch_port, "--follow"],
        stdout=subprocess.PIPE,
        text=True,
        env=plain,
    )
    assert spectator.stdout is not None
    shown = _lines_as_they_come(spectator.stdout)
    client = [*script, "--role", "bot", "--port", port]
    said, lines = [], []
    for match in (1, 2):
        # Each match's bots once the spectator watches it: a spectator that reads more
        # slowly than bots play (it draws every board) could otherwise find match 2
        # over when it comes back, and nothing left to watch.
        while True:
            try:
                line = shown.get(timeout=120)
            except queue.Empty:
                spectator.kill()
                server.kill()
                raise AssertionError(f"the spectator never showed match {match}") from None
            lines.append(line.rstrip("\n"))
            if not line or line.startswith("watching "):
                break
        bots = [
            subprocess.Popen([*client, "--seed", str(seed)], stdout=subprocess.PIPE, text=True)
            for seed in (match, match + 10)
        ]
        said.append([bot.communicate(timeout=120)[0].strip() for bot in bots])
    spectator.wait(timeout=120)
    while line := shown.get(timeout=120):
        lines.append(line.rstrip("\n"))
    spectator.stdout.close()  # read to its end by the thread above
    server.communicate(timeout=120)
    assert (server.returncode, spectator.returncode) == (0, 0)
    assert lines[0] == "watching match 1 of 2 players"
    assert lines.count("watching match 2 of 2 players") == 1
    ends = [line for line in lines if line.startswith("match over: ")]
    assert ends == [said[0][0], said[1][0]] and said[0][0] == said[0][1]
    # The server has no match left: it refuses the spectator, or has already stopped.
    assert lines[-1] in (said[1][0], "refused: there is no match to watch")


@pytest.mark.parametrize("role", ["bot", "person", "watch"])
def test_a_tcp_client_with_no_server_there_says_so_in_a_line(role: str) -> None:
    port = str(_free_port())  # nothing listens there
    script = [sys.executable, str(EXAMPLES / "tcp_server.py"), "--role", role, "--port", port]
    done = subprocess.run(script, capture_output=True, text=True, timeout=60, input="")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"cannot connect to 127.0.0.1:{port}: Connection refused\n"


@pytest.mark.parametrize(
    ("role", "said"),
    [
        (["--role", "bot"], ("", "the server refused a seat: every seat is taken\n")),
        (["--role", "person"], ("refused: every seat is taken\n", "")),
        (
            ["--role", "watch", "--match", "4"],
            ("refused: there is no match 4 to watch (in play or waiting for players: 1)\n", ""),
        ),
    ],
)
def test_a_tcp_client_the_server_turns_away_says_why_and_exits_1(
    role: list[str], said: tuple[str, str]
) -> None:
    watch_port = str(_free_port())
    server, port = _serve("--watch-port", watch_port)
    seats = [socket.create_connection(("127.0.0.1", int(port))) for _ in range(2)]
    with seats[0].makefile("rb") as lines:
        lines.readline()  # its seat: the match has started, every seat taken
    script = [sys.executable, str(EXAMPLES / "tcp_server.py"), *role]
    client_port = watch_port if "watch" in role else port
    # Standard input left open: a person whose input ended would leave before the refusal.
    client = subprocess.Popen(
        [*script, "--port", client_port],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    returncode = client.wait(timeout=60)
    out, err = client.communicate(timeout=60)
    for seat in seats:
        seat.close()  # the match is abandoned, the server ends
    server.communicate(timeout=60)
    assert (returncode, out, err) == (1, *said)


@pytest.mark.parametrize("taken", ["--port", "--watch-port"])
def test_a_tcp_server_whose_port_is_taken_says_so_in_a_line(taken: str) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = str(holder.getsockname()[1])
        ports = {"--port": str(_free_port()), "--watch-port": str(_free_port()), taken: port}
        script = [sys.executable, str(EXAMPLES / "tcp_server.py"), "--role", "serve"]
        arguments = [item for pair in ports.items() for item in pair]
        done = subprocess.run([*script, *arguments], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (1, "")  # nothing served, not even the seats
    assert done.stderr.startswith("cannot serve on 127.0.0.1: ")
    assert f"('127.0.0.1', {port})" in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("signals", "clients_close"),
    [
        ([signal.SIGTERM], True),
        ([signal.SIGINT], True),  # Ctrl-C: the same (under Python 3.10 too)
        ([signal.SIGTERM, signal.SIGINT], False),  # twice, the clients keeping their end
    ],
)
def test_a_tcp_server_without_end_stops_on_a_signal_telling_every_seat(
    signals: list[signal.Signals], clients_close: bool
) -> None:
    server, port = _serve("--matches", "0", served="2-player matches")
    clients = [socket.create_connection(("127.0.0.1", int(port))) for _ in range(3)]
    lines = [client.makefile("rb") for client in clients]
    for line in lines:  # match 1 starts with the first two; the third waits for match 2
        assert json.loads(line.readline())["type"] == "seat"
    for line in lines[:2]:
        assert json.loads(line.readline())["type"] == "outcome"  # the shuffle
    for signum in signals:
        server.send_signal(signum)
    for client, line in zip(clients, lines, strict=True):
        while json.loads(line.readline())["type"] != "stopped":
            pass  # the views of match 1
        if clients_close:
            assert line.readline() == b""  # nothing after it
            line.close()
            client.close()  # each client closes its end, as the server waits for
    # Clients that keep their end open are closed by the server after CLOSING_SECONDS.
    out, err = server.communicate(timeout=60)
    assert (server.returncode, err) == (0, "")
    assert out == "match 1 stopped after 1 move: the server stopped\nserver stopped\n"
    for client, line in zip(clients, lines, strict=True):
        if not clients_close:
            assert line.readline() == b""
            line.close()
            client.close()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_tcp_server_whose_every_match_started_stops_on_a_signal_with_no_traceback(
    signum: signal.Signals, tmp_path: Path
) -> None:
    # Found by a review: with every match started (--matches 1, the default), a stop
    # cancelled the matches' reports along with the wait for them, so the server stopped
    # before its connections were done: asyncio.run cancelled them, a traceback each
    # ("Exception in callback StreamReaderProtocol..."), and the match's line and record
    # were lost.
    records = tmp_path / "games.jsonl"
    server, port = _serve("--seed", "1", "--records", str(records))
    clients = [socket.create_connection(("127.0.0.1", int(port))) for _ in range(2)]
    lines = [client.makefile("rb") for client in clients]
    for line in lines:
        assert json.loads(line.readline())["type"] == "seat"
        assert json.loads(line.readline())["type"] == "outcome"  # the shuffle: mid-match
    server.send_signal(signum)
    for client, line in zip(clients, lines, strict=True):
        while json.loads(line.readline())["type"] != "stopped":
            pass  # its view
        assert line.readline() == b""
        line.close()
        client.close()
    out, err = server.communicate(timeout=60)
    assert "Traceback" not in err and "Exception in callback" not in err
    assert (server.returncode, err) == (0, "")
    assert out == "match 1 stopped after 1 move: the server stopped\nserver stopped\n"
    (kept,) = Record.load_lines(records)
    assert kept.tags["ending"] == "server stopped" and len(kept.moves) == 1


def test_a_person_at_the_keyboard_plays_a_match_against_a_bot_process() -> None:
    server, port = _serve("--seed", "6")
    client = [sys.executable, str(EXAMPLES / "tcp_server.py"), "--port", port]
    person = subprocess.Popen(
        [*client, "--role", "person"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    bot = subprocess.Popen([*client, "--role", "bot"], stdout=subprocess.PIPE, text=True)
    # The first move every time; the lines wait for the person's turns.
    typed, err = person.communicate("1\n" * 300, timeout=120)
    said = bot.communicate(timeout=120)[0]
    out = server.communicate(timeout=120)[0]
    assert (person.returncode, err) == (0, "")
    ended = re.fullmatch(
        r"match 1 over after \d+ moves: scores (\[\d+, \d+\]), side ([01]) won\n", out
    )
    assert ended is not None
    assert (
        typed.splitlines()[-1]
        == said.strip()
        == f"match over: scores {ended[1]}, side {ended[2]} won"
    )
    assert typed.count("your move: 1. ") > 10 and "(seen by player " in typed
