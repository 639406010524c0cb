"""A match server over TCP: the server holds the match, each client only its seat's view.

    python examples/tcp_server.py --players 2 --seed 1                 # a server and two bots
    python examples/tcp_server.py --role serve --players 2 --port 7777  # wait for clients
    python examples/tcp_server.py --role bot --spec greedy --port 7777  # one bot client
    python examples/tcp_server.py --role serve --move-seconds 30        # with a time limit

``--role demo|serve|bot``: ``demo`` (the default) runs a server on a free loopback port
and one bot client per seat in this process; ``serve`` serves one match on ``--host``
and ``--port``; ``bot`` plays one seat of it. ``--move-seconds S`` gives every move a
time limit (none by default): a seat that has not moved S seconds after its view was
sent is moved for, by a greedy bot playing from that seat's view alone.

The server keeps a :class:`chkobba.Game` and deals the shuffles itself. Every message is
one line of JSON (UTF-8). The server sends:

- ``{"type": "seat", "seat": S, "players": N}`` to a client when it joins (seats in
  order of arrival; the match starts when every seat is taken);
- ``{"type": "outcome", "outcome": {...}}`` to everyone after each move: what the move
  did (``MoveOutcome.to_dict()``, public facts only);
- ``{"type": "view", "view": {...}, "legal": [...], "turn": T}`` to each seat after
  each move: its own view (``observe(state, seat).to_dict()``, no card of another hand
  or of the stock), when it is to move its legal moves as text, and the turn, the
  number of moves played so far;
- ``{"type": "error", "message": "..."}`` to a client whose line was refused (a move out
  of turn, an illegal move, a line that is not ``{"move": TEXT, "turn": T}``): the match
  is unchanged, and the message names only what that seat sees;
- ``{"type": "timeout", "seat": S}`` to everyone when seat S ran out of time, just
  before the outcome of the move made for it;
- ``{"type": "stale", "turn": T}`` to a client whose move for turn T came after that
  turn was over (moved for by the time limit): the line is dropped, not played on a
  later turn;
- ``{"type": "over", "scores": [...], "winner": SIDE}`` to everyone at the end;
- ``{"type": "left", "seat": S}`` to the others when seat S leaves (its connection
  closes or breaks) before the end: the match cannot go on, and the server stops.

A client sends ``{"move": TEXT, "turn": T}``, the move in the notation of
docs/notation.md (``keep``, ``QH x 2D+6S``) and the turn of the view it answers.
Without a time limit ``turn`` may be left out (the move is then played on the turn it
arrives); with one it is required, so that a late move is never taken for the next
turn's. The ``bot`` client reads its view with ``PlayerView.from_dict`` and plays what
a bot of ``--spec`` chooses: a remote bot needs nothing but its view.

At the end the server sends its last message and stops writing, then waits (at most
``CLOSING_SECONDS``) for each client to close its end: closing a connection with a
client's line still unread would reset it and lose that last message.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
from typing import Any

from chkobba import ChkobbaError, Game, PlayerView, legal_moves, observe
from chkobba.bots import GreedyBot, make_bot

#: How long the server waits, once a match is over, for its clients to close.
CLOSING_SECONDS = 5.0


class MatchServer:
    """One match for ``players`` clients, dealt from ``seed``; with ``move_seconds``, a
    seat that does not move in time is moved for."""

    def __init__(self, players: int, seed: int, move_seconds: float | None = None) -> None:
        self.game = Game(players=players, seed=seed)
        self.writers: list[asyncio.StreamWriter] = []
        self.finished = asyncio.Event()
        # One move at a time, with its messages: the next mover may answer before the
        # last outcome has gone to everyone.
        self.turn = asyncio.Lock()
        self.move_seconds = move_seconds
        # Each seat's own stand-in, so what it plays for one seat depends on no other.
        self.stand_ins = [GreedyBot(seed=seed + seat) for seat in range(players)]
        self.clock: asyncio.Task[None] | None = None  # the running move's time limit
        self.connections: list[asyncio.Task[Any]] = []  # each client's, to wait for
        self.ending: dict[str, Any] = {}  # the message that ended the match

    async def closed(self) -> None:
        """Wait until the match has ended and every connection is done with: a server
        that stopped sooner would cut off the last messages (Python 3.11's does)."""
        await self.finished.wait()
        running = [*self.connections, *([self.clock] if self.clock else [])]
        _, waiting = await asyncio.wait(running, timeout=CLOSING_SECONDS)
        if waiting:  # clients that keep their end open: close it for them
            for writer in self.writers:
                writer.close()
            await asyncio.gather(*waiting, return_exceptions=True)

    async def join(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Seat a new client, then play the lines it sends until the match is over."""
        if connection := asyncio.current_task():
            self.connections.append(connection)
        players = self.game.state.players
        if len(self.writers) == players:
            await _send(writer, {"type": "error", "message": "every seat is taken"})
            writer.close()
            return
        seat = len(self.writers)
        self.writers.append(writer)
        await _send(writer, {"type": "seat", "seat": seat, "players": players})
        if len(self.writers) == players:
            async with self.turn:
                await self._advance()
        try:
            while line := await reader.readline():
                if not self.finished.is_set():
                    await self._play(seat, line)
                # Once the match is over, read the client's last lines until it closes.
        except (ConnectionError, ValueError):  # a dropped connection, a line too long
            pass
        if not self.finished.is_set():  # the match cannot go on without this seat
            await self._end({"type": "left", "seat": seat}, leaving=writer)
        writer.close()

    async def _play(self, seat: int, line: bytes) -> None:
        async with self.turn:
            if not self.finished.is_set():  # the match may have ended while this waited
                await self._play_line(seat, line)

    async def _play_line(self, seat: int, line: bytes) -> None:
        try:
            try:
                message = json.loads(line)
            except ValueError as error:
                raise ChkobbaError(f"the line is not JSON: {error}") from None
            if not isinstance(message, dict) or not isinstance(message.get("move"), str):
                raise ChkobbaError('a line must be {"move": TEXT, "turn": T}')
            if len(self.writers) < self.game.state.players:
                raise ChkobbaError("the match starts when every seat is taken")
            if self._stale(message.get("turn")):
                await _send(self.writers[seat], {"type": "stale", "turn": message["turn"]})
                return
            self.game.play(message["move"], seat=seat)
        except ChkobbaError as error:
            await _send(self.writers[seat], {"type": "error", "message": str(error)})
            return
        await self._moved()

    def _stale(self, turn: object) -> bool:
        """Whether a line answers a turn that is over; a turn to come is refused."""
        now = len(self.game.moves)
        if turn is None and self.move_seconds is None:
            return False
        if type(turn) is not int:
            raise ChkobbaError('with a time limit a line must be {"move": TEXT, "turn": T}')
        if turn > now:
            raise ChkobbaError(f"there is no turn {turn} yet: this is turn {now}")
        return turn < now

    def _start_clock(self) -> None:
        if self.move_seconds is not None and not self.finished.is_set():
            expiry = self._expire(self.move_seconds, len(self.game.moves))
            self.clock = asyncio.create_task(expiry, name="move clock")

    def _stop_clock(self) -> None:
        # Never the running task: a move made for a late seat may end the match.
        if self.clock is not None and self.clock is not asyncio.current_task():
            self.clock.cancel()

    async def _expire(self, seconds: float, moves_played: int) -> None:
        """When the time is up and the seat to move has not moved, move for it."""
        await asyncio.sleep(seconds)
        async with self.turn:
            seat = self.game.current_player
            # The seat may have moved while this waited for the lock.
            if self.finished.is_set() or len(self.game.moves) != moves_played or seat is None:
                return
            view = observe(self.game.state, seat)
            move = self.stand_ins[seat].choose(view, legal_moves(view))
            late = {"type": "timeout", "seat": seat}
            await asyncio.gather(*(_send(writer, late) for writer in self.writers))
            self.game.play(move, seat=seat)
            await self._moved()

    async def _moved(self) -> None:
        """After a move, made by its seat or for it: its clock stopped, its outcome to
        everyone, and the match on to the next move."""
        self._stop_clock()
        await self._tell_everyone()
        await self._advance()

    async def _advance(self) -> None:
        """Deal while a shuffle is due, then tell each seat where the match stands."""
        while self.game.is_chance:
            self.game.deal()
            await self._tell_everyone()
        if self.game.is_over:
            state = self.game.state
            await self._end({"type": "over", "scores": list(state.scores), "winner": state.winner})
            return
        await self._send_views()
        self._start_clock()

    async def _end(
        self, message: dict[str, Any], leaving: asyncio.StreamWriter | None = None
    ) -> None:
        """Tell the seats still there how the match ended, then stop writing to them:
        each connection closes once its client has closed its end (:meth:`join`)."""
        self.finished.set()
        self.ending = message
        self._stop_clock()
        staying = [w for w in self.writers if w is not leaving]
        await asyncio.gather(*(_send(w, message) for w in staying), return_exceptions=True)
        for writer in staying:  # nothing more to send; each connection closes once its
            with contextlib.suppress(OSError, RuntimeError):  # client has closed its end
                writer.write_eof()

    async def _tell_everyone(self) -> None:
        what = {"type": "outcome", "outcome": self.game.move_outcome().to_dict()}
        await asyncio.gather(*(_send(w, what) for w in self.writers))

    async def _send_views(self) -> None:
        state = self.game.state
        for seat, writer in enumerate(self.writers):
            view = observe(state, seat)
            legal = [str(move) for move in legal_moves(view)]
            turn = len(self.game.moves)
            await _send(
                writer, {"type": "view", "view": view.to_dict(), "legal": legal, "turn": turn}
            )


async def _send(writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
    """Send one message; to a connection that is lost, nothing: its reader sees the end
    and acts on it (the server ends the match, a bot stops)."""
    writer.write(json.dumps(message).encode("utf-8") + b"\n")
    with contextlib.suppress(ConnectionError):
        await writer.drain()


async def serve(
    players: int, seed: int, host: str, port: int, move_seconds: float | None = None
) -> MatchServer:
    """Serve one match until it is over; the server, with the game it played."""
    match = MatchServer(players, seed, move_seconds)
    server = await asyncio.start_server(match.join, host, port)
    async with server:
        bound = server.sockets[0].getsockname()
        print(f"serving a {players}-player match on {bound[0]}:{bound[1]}", flush=True)
        await match.closed()
    return match


async def play_bot(spec: str, seed: int, host: str, port: int) -> dict[str, Any]:
    """Play one seat with a bot of ``spec`` until the match is over; the last message.

    A refusal stops it; a move that came too late (``stale``: the server moved for its
    seat) does not."""
    reader, writer = await asyncio.open_connection(host, port)
    bot = make_bot(spec, seed=seed)
    message: dict[str, Any] = {}
    try:
        while line := await reader.readline():
            message = json.loads(line)
            if message["type"] in ("over", "left"):
                break
            if message["type"] == "error":
                raise ChkobbaError(f"the server refused a move: {message['message']}")
            if message["type"] == "view" and message["legal"]:
                view = PlayerView.from_dict(message["view"])
                move = bot.choose(view, legal_moves(view))
                await _send(writer, {"move": str(move), "turn": message["turn"]})
    except ConnectionError:  # the server went away: the match is over for this seat
        pass
    finally:
        writer.close()
    return message


async def demo(
    players: int, seed: int, spec: str, move_seconds: float | None = None
) -> MatchServer:
    """A server on a free local port and one bot client per seat."""
    match = MatchServer(players, seed, move_seconds)
    server = await asyncio.start_server(match.join, "127.0.0.1", 0)
    async with server:
        port = server.sockets[0].getsockname()[1]
        rng = random.Random(seed)
        bots = [play_bot(spec, rng.randrange(2**32), "127.0.0.1", port) for _ in range(players)]
        await asyncio.gather(*bots)
        await match.closed()
    return match


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--role", default="demo", choices=("demo", "serve", "bot"))
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--seed", type=int, default=0, help="the shuffles' and bots' seed")
    parser.add_argument("--spec", default="greedy", help="the bots' spec (default greedy)")
    parser.add_argument("--host", default="127.0.0.1", help="serve and bot (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=7777, help="serve and bot (default 7777)")
    parser.add_argument(
        "--move-seconds", type=_seconds, help="demo and serve: a move's time limit (default none)"
    )
    args = parser.parse_args(argv)
    if args.role == "bot":
        last = asyncio.run(play_bot(args.spec, args.seed, args.host, args.port))
        if last.get("type") == "over":
            print(f"match over: scores {last['scores']}, side {last['winner']} won")
        else:
            print(f"match abandoned: {last}")
        return
    if args.role == "demo":
        match = asyncio.run(demo(args.players, args.seed, args.spec, args.move_seconds))
    else:
        match = asyncio.run(serve(args.players, args.seed, args.host, args.port, args.move_seconds))
    state, moves = match.game.state, len(match.game.moves)
    if match.ending["type"] == "left":
        print(f"match abandoned after {moves} moves: seat {match.ending['seat']} left")
    else:
        print(f"match over after {moves} moves: scores {list(state.scores)}, "
              f"side {state.winner} won")  # fmt: skip


if __name__ == "__main__":
    main()
