"""A match server over TCP: the server holds the match, each client only its seat's view.

    python examples/tcp_server.py --players 2 --seed 1                 # a server and two bots
    python examples/tcp_server.py --role serve --players 2 --port 7777  # wait for clients
    python examples/tcp_server.py --role bot --spec greedy --port 7777  # one bot client
    python examples/tcp_server.py --role person --port 7777            # you, at the keyboard
    python examples/tcp_server.py --role serve --move-seconds 30        # with a time limit
    python examples/tcp_server.py --role serve --matches 0 --records games.jsonl  # a lobby
    python examples/tcp_server.py --role serve --watch-port 7778        # spectators too
    python examples/tcp_server.py --role watch --port 7778              # watch a match
    python examples/tcp_server.py --role watch --port 7778 --follow     # and the next ...

``--role demo|serve|bot|person|watch``: ``demo`` (the default) runs a server on a free
loopback port and one bot client per seat in this process; ``serve`` serves on
``--host`` and ``--port``; ``bot`` plays one seat of a match there, and ``person`` lets
you play one: it shows every move, and on your turn the board from your seat and your
moves, numbered; type a number or a move (``quit`` or the end of the input leaves).
``watch`` connects to a server's spectators' port (``--watch-port`` of ``serve``) and
shows every move of a match (``--match K``: match K), with the board as every seat sees
it: no hand; with ``--follow``, then the next match, and so on until the server has no
match left to show or stops. A client with no server there or turned away by it, a bot
whose server went away before the match ended, and a server whose port is taken, say so
in a line and exit with status 1.
``--move-seconds S`` gives every move a time limit (none by default): a seat that has
not moved S seconds after its view was sent is moved for, by a greedy bot playing from
that seat's view alone.

``serve`` seats its clients in order of arrival, ``--players`` a match, and starts each
match as its last seat is taken, alongside those already playing: ``--matches N`` (1 by
default) matches, then it refuses new clients and stops once they are all over;
``--matches 0`` serves until it is stopped (Ctrl-C or SIGTERM: the matches in
play are then stopped, each seat told so). The k-th match is dealt from a seed derived
from ``--seed`` and k (``chkobba.arena.subseed``), so that a match's seed, which its
record gives, tells nothing of another's; without ``--seed`` the server's comes from
the system's secrets, as a real server's must (anyone who knows it knows every hidden
card). A line is printed as each match ends, and with ``--records FILE``
its record is added to FILE as one line of JSON (tagged with its number, its seed, each
seat's address, and how a match that has no winner ended), in the order the matches
end: ``chkobba replay`` replays any of them (docs/cli.md), ``Record.load_lines(FILE)``
reads them all.

The server keeps a :class:`chkobba.Game` and deals the shuffles itself. Every message is
one line of JSON (UTF-8). The server sends:

- ``{"type": "seat", "seat": S, "players": N}`` to a client when it joins (seats in
  order of arrival; the match starts when every seat is taken), and again with its new
  seat if a client ahead of it leaves before the match starts (that seat is freed);
- ``{"type": "outcome", "outcome": {...}}`` to everyone after each move: what the move
  did (``MoveOutcome.to_dict()``, public facts only);
- ``{"type": "view", "view": {...}, "legal": [...], "turn": T}`` to each seat after
  each move: its own view (``observe(state, seat).to_dict()``, no card of another hand
  or of the stock), when it is to move its legal moves as text, and the turn, the
  number of moves played so far; under a time limit, ``"seconds": S`` too, the time
  the seat to move has;
- ``{"type": "error", "message": "..."}`` to a client whose line was refused (a move out
  of turn, an illegal move, a line that is not ``{"move": TEXT, "turn": T}``): the match
  is unchanged, and the message names only what that seat sees;
- ``{"type": "timeout", "seat": S}`` to everyone when seat S ran out of time, just
  before the outcome of the move made for it;
- ``{"type": "stale", "turn": T}`` to a client whose move for turn T came after that
  turn was over (moved for by the time limit): the line is dropped, not played on a
  later turn (a line for any other turn that is over is refused as an error);
- ``{"type": "over", "scores": [...], "winner": SIDE}`` to everyone at the end;
- ``{"type": "left", "seat": S}`` to the others when seat S leaves (its connection
  closes or breaks) after the start and before the end: the match cannot go on, and is
  over for everyone (abandoned);
- ``{"type": "stopped"}`` to everyone in a match not over (or waiting for one to start)
  when the server stops.

A client sends ``{"move": TEXT, "turn": T}``, the move in the notation of
docs/notation.md (``keep``, ``QH x 2D+6S``) and the turn of the view it answers.
Without a time limit ``turn`` may be left out (the move is then played on the turn it
arrives); with one it is required, so that a late move is never taken for the next
turn's. The ``bot`` client reads its view with ``PlayerView.from_dict`` and plays what
a bot of ``--spec`` chooses: a remote bot needs nothing but its view.

A spectator, a client of the ``--watch-port``, is shown a match. It watches the match
that started first of those in play, or else the next one to start; when there is none
(every match has started, and each is over), it is sent ``{"type": "error", ...}`` and
let go. It may send ``{"watch": K}`` to watch match K instead, if K is in play or
waiting for players; otherwise, or for any other line, it is sent ``{"type": "error",
"message": "..."}`` and watches on as before. Its lines are answered at the pace it
reads the answers; a line longer than 64 KiB ends its connection, as a seat's does. Once
its match has ended, what it sends is dropped. The server sends it:

- ``{"type": "watching", "match": K, "players": N}`` as it connects, and as it is moved
  to the match it asked for: the match's number (from 1, as in the records' ``game``
  tag);
- ``{"type": "public", "view": {...}, "turn": T}`` then, if the match has started, and
  after each move that leaves someone to move or ends the match: the public view
  (``public_view(state).to_dict()``, format ``chkobba-public-view``: no card of any hand
  or of the stock), and the number of moves played;
- every ``outcome`` and ``timeout`` the seats are sent, and the message that ends the
  match (``over``, ``left`` or ``stopped``).

While the match is played it never waits for a spectator: one that leaves more than
``SPECTATOR_BACKLOG`` bytes unread is let go, its connection aborted (what it had not
read is lost). At the end the server waits for spectators to close their end as it does
for the seats, at most ``CLOSING_SECONDS``, before it reports the match. A seat does wait
for its client to read what it is told, at most ``DRAIN_SECONDS``: a client that reads
nothing for longer, once what it has not read fills the connection's buffers (a few
megabytes on a local connection, more than a whole match sends a seat), is let go, and
its seat leaves the match. A refused line is answered
once the match is free, so a seat that never reads its refusals holds up only itself.

At the end the server sends its last message and stops writing, then waits (at most
``CLOSING_SECONDS``) for each client to close its end: closing a connection with a
client's line still unread would reset it and lose that last message.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import io
import json
import os
import random
import secrets
import signal
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chkobba import (
    ChkobbaError,
    Game,
    MoveOutcome,
    PlayerView,
    PublicView,
    Record,
    format_cards,
    legal_moves,
    observe,
    public_view,
    render,
)
from chkobba.arena import subseed
from chkobba.bots import GreedyBot, make_bot
from chkobba.cli.narrate import counted
from chkobba.errors import shown

#: How long the server waits, once a match is over, for its clients to close.
CLOSING_SECONDS = 5.0
#: The messages that end a match for a client: it was won, a seat left, or the server
#: stopped.
ENDINGS = ("over", "left", "stopped")
#: The bytes a spectator may leave unread before it is let go: the match never waits for
#: its spectators, and a spectator that stops reading must not grow the server's memory.
SPECTATOR_BACKLOG = 1 << 20
#: How long the server waits for a client to read what it was sent before letting it go
#: (its connection aborted, so a seat leaves its match): a client that stops reading must
#: not hold up its match, whose lock the writes to it hold (the move clock's too).
DRAIN_SECONDS = 10.0


class MatchServer:
    """One match for ``players`` clients, dealt from ``seed``; with ``move_seconds``, a
    seat that does not move in time is moved for. Spectators (:meth:`show_to`) are told
    every move and shown the public view; ``number`` is what they are told it is."""

    def __init__(
        self, players: int, seed: int, move_seconds: float | None = None, number: int = 1
    ) -> None:
        self.seed, self.number = seed, number
        self.game = Game(players=players, seed=seed)
        self.writers: list[asyncio.StreamWriter] = []  # each seat's, in order
        self.spectators: list[asyncio.StreamWriter] = []  # written to, never waited for
        self.started = False  # every seat taken: from then on the seats never change
        self.finished = asyncio.Event()
        # One move at a time, with its messages: the next mover may answer before the
        # last outcome has gone to everyone.
        self.turn = asyncio.Lock()
        self.move_seconds = move_seconds
        # Each seat's own stand-in, so what it plays for one seat depends on no other;
        # seeded apart from the deck (a seed the shuffles share would let a seat that
        # runs out of time read the stock's order in its stand-in's tie-breaks).
        self.stand_ins = [GreedyBot(seed=subseed(seed, -1 - seat)) for seat in range(players)]
        self.moved_for: dict[int, int] = {}  # turn -> the seat its stand-in moved for
        self.clock: asyncio.Task[None] | None = None  # the running move's time limit
        self.connections: set[asyncio.Task[Any]] = set()  # each open one's, to wait for
        self.ending: dict[str, Any] = {}  # the message that ended the match

    async def closed(self) -> None:
        """Wait until the match has ended and every connection is done with: a server
        that stopped sooner would cut off the last messages (Python 3.11's does)."""
        await self.finished.wait()
        running = [*self.connections, *([self.clock] if self.clock else [])]
        if not running:  # (a match stopped as it formed, its clients gone: asyncio.wait
            return  # refuses an empty set)
        _, waiting = await asyncio.wait(running, timeout=CLOSING_SECONDS)
        if waiting:  # clients that keep their end open: close it for them
            for writer in self.writers:
                writer.close()
            for spectator in self.spectators:
                _let_go(spectator)
            await asyncio.gather(*waiting, return_exceptions=True)

    def _track(self) -> None:
        """Note the running connection's task until it ends: :meth:`closed` waits for it."""
        if connection := asyncio.current_task():
            self.connections.add(connection)
            connection.add_done_callback(self.connections.discard)

    async def join(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Seat a new client, then play the lines it sends until the match is over."""
        self._track()
        players = self.game.state.players
        if self.started:
            await _refuse(writer)
            return
        self.writers.append(writer)  # seated, and the match started, before any await:
        self.started = len(self.writers) == players  # a client arriving meanwhile sees it
        await _send(writer, {"type": "seat", "seat": len(self.writers) - 1, "players": players})
        if self.started:
            async with self.turn:
                if not self.finished.is_set():  # (the server may have stopped meanwhile)
                    await self._advance()
        try:
            while line := await reader.readline():
                # A line already read returns without yielding: let the other matches
                # run, or one client flooding lines would hold them all up.
                await asyncio.sleep(0)
                if writer.is_closing():  # let go (it stopped reading): its lines are moot
                    break
                if not self.finished.is_set():
                    await self._play(writer, line)
                # Once the match is over, read the client's last lines until it closes.
        except (ConnectionError, ValueError):  # a dropped connection, a line too long
            pass
        if not self.started:  # gone before the match began: its seat is free again
            if not self.finished.is_set():  # (unless the match was stopped)
                await self._unseat(writer)
        else:  # the match cannot go on without this seat
            await self._left(writer)
        writer.close()

    async def show_to(self, writer: asyncio.StreamWriter) -> None:
        """Show the running connection's spectator the match until it ends, or until
        :meth:`stop_showing`: ``{"type": "watching", ...}``, the public view if the match
        has started, then what every seat is told of each move, with the public view
        after it, and the ending."""
        if connection := asyncio.current_task():  # until stop_showing (the spectator's
            self.connections.add(connection)  # loop always calls it): closed() waits for it
        async with self.turn:  # not in the middle of a move being told
            _write(writer, self._watching())
            if self.finished.is_set():  # (ended while this waited for the lock)
                _write(writer, self.ending)
                with contextlib.suppress(OSError, RuntimeError):
                    writer.write_eof()
            elif self.started:
                _write(writer, self._public())
            self.spectators.append(writer)  # (so that closed() lets it go if it lingers)

    def stop_showing(self, writer: asyncio.StreamWriter) -> None:
        """No more of this match for the running connection's spectator: it left, or
        watches another match."""
        if writer in self.spectators:
            self.spectators.remove(writer)
        if connection := asyncio.current_task():
            self.connections.discard(connection)

    def _watching(self) -> dict[str, Any]:
        players = self.game.state.players
        return {"type": "watching", "match": self.number, "players": players}

    def _public(self) -> dict[str, Any]:
        turn = len(self.game.moves)
        return {"type": "public", "view": public_view(self.game.state).to_dict(), "turn": turn}

    def _show(self, message: dict[str, Any]) -> None:
        """Write to every spectator without waiting for any: one that has left more than
        ``SPECTATOR_BACKLOG`` bytes unread is let go, its connection aborted (closing it
        would wait to send them first, for ever if it never reads again)."""
        for writer in list(self.spectators):
            _write(writer, message)
            if writer.transport.get_write_buffer_size() > SPECTATOR_BACKLOG:
                self.spectators.remove(writer)
                _let_go(writer)

    async def _left(self, writer: asyncio.StreamWriter) -> None:
        # Under the lock: a move being told and the views after it go out first, so
        # that "left" is the last message.
        async with self.turn:
            if not self.finished.is_set():
                await self._end(
                    {"type": "left", "seat": self.writers.index(writer)}, leaving=writer
                )

    async def stop(self) -> None:
        """End the match now if it is not over: ``{"type": "stopped"}`` to every seat."""
        async with self.turn:
            if not self.finished.is_set():
                await self._end({"type": "stopped"})

    async def _unseat(self, writer: asyncio.StreamWriter) -> None:
        """A client gone before the match started: those after it move up a seat, each
        told its new one (all written at once, before a new client can start the match)."""
        gone = self.writers.index(writer)
        del self.writers[gone]
        players = self.game.state.players
        moved = self.writers[gone:]
        for seat, staying in enumerate(moved, start=gone):
            _write(staying, {"type": "seat", "seat": seat, "players": players})
        await asyncio.gather(*(_drain(staying) for staying in moved))

    async def _play(self, writer: asyncio.StreamWriter, line: bytes) -> None:
        async with self.turn:
            if self.finished.is_set():  # the match may have ended while this waited
                return
            reply = await self._play_line(self.writers.index(writer), line)
        # To this seat alone, once the match is free (a seat that does not read its
        # refusals holds up itself only), unless the match ended meanwhile: its seats
        # were told the end, and their connections take no more.
        if reply is not None and not self.finished.is_set():
            await _send(writer, reply)

    async def _play_line(self, seat: int, line: bytes) -> dict[str, Any] | None:
        """Play a seat's line; the refusal to send that seat, if it is refused."""
        try:
            try:
                message = json.loads(line)
            except (ValueError, RecursionError) as error:  # (too deeply nested)
                raise ChkobbaError(f"the line is not JSON: {error}") from None
            if not isinstance(message, dict) or not isinstance(message.get("move"), str):
                raise ChkobbaError('a line must be {"move": TEXT, "turn": T}')
            if not self.started:
                raise ChkobbaError("the match starts when every seat is taken")
            if self._stale(message.get("turn"), seat):
                return {"type": "stale", "turn": message["turn"]}
            self.game.play(message["move"], seat=seat)
        except ChkobbaError as error:
            return {"type": "error", "message": str(error)}
        await self._moved()
        return None

    def _stale(self, turn: object, seat: int) -> bool:
        """Whether a line answers a turn that the time limit made for ``seat``; any other
        turn that is over, or one to come, is refused."""
        now = len(self.game.moves)
        if turn is None and self.move_seconds is None:
            return False
        if type(turn) is not int:
            if self.move_seconds is None:
                raise ChkobbaError(f"a line's turn is a whole number, not {shown(turn)}")
            raise ChkobbaError('with a time limit a line must be {"move": TEXT, "turn": T}')
        if turn < 0:
            raise ChkobbaError(f"there is no turn {shown(turn)}: turns count from 0")
        if turn > now:
            raise ChkobbaError(f"there is no turn {shown(turn)} yet: this is turn {now}")
        if turn < now and self.moved_for.get(turn) != seat:
            raise ChkobbaError(f"turn {turn} is over, and was not yours: this is turn {now}")
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
            self.moved_for[moves_played] = seat
            late = {"type": "timeout", "seat": seat}
            self._show(late)
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
        self._show(self._public())
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
        self._show(message)
        for spectator in self.spectators:
            with contextlib.suppress(OSError, RuntimeError):
                spectator.write_eof()
        staying = [w for w in self.writers if w is not leaving]
        await asyncio.gather(*(_send(w, message) for w in staying), return_exceptions=True)
        for writer in staying:  # nothing more to send; each connection closes once its
            with contextlib.suppress(OSError, RuntimeError):  # client has closed its end
                writer.write_eof()

    async def _tell_everyone(self) -> None:
        what = {"type": "outcome", "outcome": self.game.move_outcome().to_dict()}
        self._show(what)
        await asyncio.gather(*(_send(w, what) for w in self.writers))

    async def _send_views(self) -> None:
        state = self.game.state
        for seat, writer in enumerate(self.writers):
            view = observe(state, seat)
            legal = [str(move) for move in legal_moves(view)]
            turn = len(self.game.moves)
            message = {"type": "view", "view": view.to_dict(), "legal": legal, "turn": turn}
            if self.move_seconds is not None:
                message["seconds"] = self.move_seconds
            await _send(writer, message)


class Lobby:
    """Matches for clients as they come: seated in order of arrival, ``players`` a match,
    each match started when its last seat is taken and played alongside the others. The
    k-th match (from 1) is dealt from ``subseed(seed, k)``: a match's seed (in its record)
    tells nothing of another's. Once ``matches`` have started
    (never with ``None``), new clients are refused. ``ended(k, match)`` is called as the
    k-th match ends."""

    def __init__(
        self,
        players: int,
        seed: int,
        move_seconds: float | None = None,
        matches: int | None = 1,
        ended: Callable[[int, MatchServer], None] | None = None,
    ) -> None:
        self.players, self.seed, self.move_seconds = players, seed, move_seconds
        self.matches, self.ended = matches, ended
        self.forming: MatchServer | None = None  # the match whose seats are being taken
        self.started: list[MatchServer] = []
        self.every_match_started = asyncio.Event()
        self.reporting: list[asyncio.Task[None]] = []

    async def join(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Seat a new client in the match forming, and play it there."""
        match = self._match_to_join()
        if match is None:
            await _refuse(writer)
            return
        await match.join(reader, writer)

    async def watch(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Show a new spectator the match that started first of those in play, else the
        one forming (a new one if none is), and another on its ``{"watch": K}``; refused
        once every match has ended."""
        playing = [match for match in self.started if not match.finished.is_set()]
        match = playing[0] if playing else self._forming()
        if match is None:
            await _refuse(writer, "there is no match to watch")
            return
        try:
            await match.show_to(writer)
            # A line too long ends the connection, as a seat's does.
            with contextlib.suppress(ConnectionError, ValueError):
                while line := await reader.readline():
                    # Its requests are answered at the pace it reads the answers.
                    await writer.drain()
                    if match.finished.is_set():  # it was told the end: nothing more to say
                        continue
                    try:
                        wanted = self._match_numbered(_watch_request(line))
                    except ChkobbaError as error:
                        _write(writer, {"type": "error", "message": str(error)})
                        continue
                    match.stop_showing(writer)
                    match = wanted
                    await match.show_to(writer)
        finally:
            match.stop_showing(writer)  # gone: the match goes on without it
            _let_go(writer)

    def _match_numbered(self, number: int) -> MatchServer:
        """The match ``number`` if it is in play or forming."""
        watchable = [m for m in self.started if not m.finished.is_set()]
        watchable += [self.forming] if self.forming is not None else []
        for match in watchable:
            if match.number == number:
                return match
        numbers = ", ".join(str(match.number) for match in watchable) or "none"
        raise ChkobbaError(
            f"there is no match {number} to watch (in play or waiting for players: {numbers})"
        )

    def _forming(self) -> MatchServer | None:
        """The match whose seats are being taken (a new one if none is); None once every
        match has started."""
        if self.forming is None:
            if self.matches is not None and len(self.started) == self.matches:
                return None
            number = len(self.started) + 1
            seed = subseed(self.seed, number)
            self.forming = MatchServer(self.players, seed, self.move_seconds, number)
        return self.forming

    def _match_to_join(self) -> MatchServer | None:
        """The match a new client sits down in (a new one if none is forming), noted as
        started if this client takes its last seat; None once every match has started."""
        match = self._forming()
        if match is None:
            return None
        # MatchServer.join seats the client before its first await, as this is decided.
        if len(match.writers) + 1 == self.players:
            self.forming = None
            self.started.append(match)
            self.reporting.append(asyncio.create_task(self._report(match.number, match)))
            if len(self.started) == self.matches:
                self.every_match_started.set()
        return match

    async def _report(self, number: int, match: MatchServer) -> None:
        await match.closed()
        if self.ended is not None:
            self.ended(number, match)

    async def closed(self) -> None:
        """Wait until every match has started and ended, its connections done with."""
        await self.every_match_started.wait()
        # asyncio.wait, not gather: a gather cancelled (the server stopped) would cancel
        # the reports too, and stop() could then wait for none of them; the matches'
        # connections would be left to asyncio.run to cancel, their ends and records lost.
        if self.reporting:
            await asyncio.wait(self.reporting)
        await asyncio.gather(*self.reporting)  # (done: raises what a report raised)

    async def stop(self) -> None:
        """Start no more matches, stop those in play and the one forming (each seat told
        ``{"type": "stopped"}``), and return once every connection is done with."""
        self.matches = len(self.started)
        self.every_match_started.set()  # (so closed() returns once they are over)
        forming, self.forming = self.forming, None
        stopping = [*self.started, *([forming] if forming else [])]
        await asyncio.gather(*(match.stop() for match in stopping))
        await asyncio.gather(*self.reporting, *([forming.closed()] if forming else []))


def _stop_on_signals(serving: asyncio.Task[Any] | None) -> None:
    """Have SIGTERM and Ctrl-C cancel ``serving`` once (then :func:`serve` stops the
    lobby; a second signal while it stops changes nothing: that takes at most
    ``CLOSING_SECONDS``). Python's own Ctrl-C would cancel every task at once under 3.10,
    the lobby's too, so no match would be told ended."""
    loop, signalled = asyncio.get_running_loop(), list[bool]()

    def stop() -> None:
        if serving is not None and not signalled:
            signalled.append(True)
            serving.cancel()

    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # none on Windows
            loop.add_signal_handler(signum, stop)


def _watch_request(line: bytes) -> int:
    """The match a spectator's line asks for: ``{"watch": K}``."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as error:  # (too deeply nested)
        raise ChkobbaError(f"the line is not JSON: {error}") from None
    number = message.get("watch") if isinstance(message, dict) else None
    if type(number) is not int:
        raise ChkobbaError("a spectator's line must be {\"watch\": K}, K a match's number")
    return number


def _let_go(writer: asyncio.StreamWriter) -> None:
    """Close a spectator's connection; abort it if it left something unread (closing
    would wait to send it first, for ever if it never reads again)."""
    if writer.transport.get_write_buffer_size():
        writer.transport.abort()
    else:
        writer.close()


def _write(writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
    writer.write(json.dumps(message).encode("utf-8") + b"\n")


async def _drain(writer: asyncio.StreamWriter) -> None:
    """Wait until the client has read enough of what it was sent; one that has not within
    ``DRAIN_SECONDS`` is let go: its reader sees the end and acts on it."""
    transport = writer.transport
    try:
        if transport.get_write_buffer_size() <= transport.get_write_buffer_limits()[0]:
            await writer.drain()  # nothing waits to be read: at once, no task (as before)
        else:
            await asyncio.wait_for(writer.drain(), DRAIN_SECONDS)
    except ConnectionError:
        pass
    except asyncio.TimeoutError:
        transport.abort()


async def _refuse(writer: asyncio.StreamWriter, why: str = "every seat is taken") -> None:
    """Turn a new client away, saying ``why``: by default, no seat is free for it."""
    await _send(writer, {"type": "error", "message": why})
    writer.close()


async def _send(writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
    """Send one message; to a connection that is lost, nothing: its reader sees the end
    and acts on it (the server ends the match, a bot stops)."""
    _write(writer, message)
    await _drain(writer)


async def serve(
    players: int,
    seed: int,
    host: str,
    port: int,
    move_seconds: float | None = None,
    matches: int | None = 1,
    ended: Callable[[int, MatchServer], None] | None = None,
    watch_port: int | None = None,
) -> Lobby:
    """Serve ``matches`` matches (``None``: until stopped) and wait until they are over;
    the lobby, with the matches it started. With ``watch_port``, spectators connect
    there (:meth:`Lobby.watch`). A SIGTERM, as Ctrl-C, stops it: the matches in play
    are stopped (:meth:`Lobby.stop`)."""
    lobby = Lobby(players, seed, move_seconds, matches, ended)
    async with contextlib.AsyncExitStack() as servers:  # (the first closed if the second fails)
        server = await servers.enter_async_context(
            await asyncio.start_server(lobby.join, host, port)
        )
        watched = None
        if watch_port is not None:
            watching = await asyncio.start_server(lobby.watch, host, watch_port)
            watched = await servers.enter_async_context(watching)
        _stop_on_signals(asyncio.current_task())
        bound = server.sockets[0].getsockname()
        served = {1: f"a {players}-player match", None: f"{players}-player matches"}.get(
            matches, f"{matches} matches of {players} players"
        )
        until = " until stopped" if matches is None else ""
        print(f"serving {served} on {bound[0]}:{bound[1]}{until}", flush=True)
        if watched is not None:
            shown = watched.sockets[0].getsockname()
            print(f"spectators watch on {shown[0]}:{shown[1]}", flush=True)
        try:
            await lobby.closed()
        except asyncio.CancelledError:
            # Every connection done with before the server closes (from Python 3.12 on,
            # closing it waits for them), none left to asyncio.run to cancel.
            await lobby.stop()
            raise
    return lobby


async def watch_match(
    host: str,
    port: int,
    say: Callable[[str], None] = print,
    match: int | None = None,
    follow: bool = False,
) -> dict[str, Any]:
    """Watch a match from a server's spectators' port until it ends, telling every move
    with ``say`` and drawing the board (no hand shown) after each; the last message.
    With ``match``, that match (its number, from 1): the server's choice is skipped, and
    a refusal (no such match in play) ends the watch. With ``follow``, a match that ends
    (``over`` or ``left``) is followed by the next one the server shows, and so on until
    it has none left to show (its refusal is told), stops or is gone: the last message is
    then the last match's."""
    last = await _watch_one(host, port, say, match)
    while follow and last.get("type") in ("over", "left"):
        try:
            after = await _watch_one(host, port, say, None)
        except OSError:  # the server is gone
            break
        if after.get("type") == "error":  # no match left to show
            break
        last = after
    return last


async def _watch_one(
    host: str, port: int, say: Callable[[str], None], match: int | None
) -> dict[str, Any]:
    """One connection of :func:`watch_match`: one match watched; its last message."""
    reader, writer = await asyncio.open_connection(host, port)
    message: dict[str, Any] = {}
    skipping = False  # the server's choice, until it shows the match asked for
    try:
        while line := await reader.readline():
            message = json.loads(line)
            kind = message["type"]
            if kind == "watching" and match not in (None, message["match"]):
                await _send(writer, {"watch": match})
                skipping = True
            elif kind == "error":
                say(_message_text(message, None))
                break
            elif kind == "watching":
                skipping = False
                say(
                    _printable(f"watching match {message['match']} of {message['players']} players")
                )
            elif skipping and kind in ENDINGS:  # (the request came too late)
                message = {"type": "error", "message": f"match {match} was not shown"}
                say(f"the server's match ended before match {match} could be shown")
                break
            elif skipping:
                continue
            elif kind in ENDINGS:
                say(_ending_text(message))
                break
            elif kind == "public":
                say(render(PublicView.from_dict(message["view"])))
            else:
                say(_message_text(message, None))
    except ConnectionError:  # the server went away
        pass
    finally:
        writer.close()
    return message


async def play_person(
    host: str,
    port: int,
    typed: asyncio.Queue[str | None],
    say: Callable[[str], None] = print,
    connected: Callable[[], None] = lambda: None,
) -> dict[str, Any]:
    """Play one seat for a person until the match is over; the last message, or
    ``{"type": "quit"}`` if they left.

    Every move is told with ``say``, and on the person's turn the board from their seat
    and their legal moves, numbered. They answer through ``typed``, a line at a time: a
    number or a move's text (``QH x 2D+6S``). A move the server refuses is told, and
    asked again. Lines are used in order, one a turn (typed ahead, they wait for the
    next turn, as a terminal program's prompt reads them), except ``quit`` and ``None``
    (the end of the input): reached, they leave at once, even while the person waits.
    When the person's time runs out, what they type before their next board is shown
    answered the board whose time ran out, and is dropped. ``connected`` is called once
    the connection is made."""
    reader, writer = await asyncio.open_connection(host, port)
    connected()
    person = _Person(say)
    incoming = asyncio.ensure_future(reader.readline())
    reading: asyncio.Future[str | None] | None = asyncio.ensure_future(typed.get())
    leaving = False
    try:
        while not (leaving := person.leaving()):
            if (move := person.typed_move()) is not None:
                await _send(writer, move)
                continue
            waiting = (incoming,) if reading is None else (incoming, reading)
            done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if reading in done:
                text = reading.result()
                person.typed(text)
                reading = None if text is None else asyncio.ensure_future(typed.get())
            if incoming in done:
                line = incoming.result()
                if not line or person.heard(json.loads(line)):
                    break
                incoming = asyncio.ensure_future(reader.readline())
    except ConnectionError:  # the server went away: the match is over for this seat
        pass
    finally:
        for waiting_for in (incoming, reading):
            if waiting_for is not None:
                waiting_for.cancel()
        writer.close()
    return {"type": "quit"} if leaving else person.last


class _Person:
    """What :func:`play_person` knows: the seat, the view to answer, the lines held."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.seat: int | None = None
        self.asking: dict[str, Any] | None = None  # the view to answer now
        self.answered: dict[str, Any] | None = None  # the view of the move sent, till a reply
        self.held: collections.deque[str | None] = collections.deque()  # typed, not yet used
        self.late = False  # the person's time ran out, and their next board is not shown yet
        self.last: dict[str, Any] = {}

    def typed(self, text: str | None) -> None:
        """Hold a line the person typed, unless it answers a turn whose time ran out."""
        if self.late and text is not None and not _leaves(text):
            self.say(f"too late for the turn whose time ran out: {text.strip()!r} dropped")
        else:
            self.held.append(text)

    def leaving(self) -> bool:
        """Whether the next line held is ``quit`` or the end of the input."""
        return bool(self.held) and _leaves(self.held[0])

    def typed_move(self) -> dict[str, Any] | None:
        """The message of the move the next line held makes, on the person's turn."""
        while self.asking is not None and self.held and not self.leaving():
            text = self.held.popleft() or ""
            move = _typed_move(text, self.asking["legal"])
            if move is not None:
                self.answered, self.asking = self.asking, None
                return {"move": move, "turn": self.answered["turn"]}
            self.say(f"type a number from 1 to {len(self.asking['legal'])}, or a move")
        return None

    def heard(self, message: dict[str, Any]) -> bool:
        """Tell the person what ``message`` says; whether it ends the match."""
        self.last, kind = message, message["type"]
        if kind in ENDINGS:
            self.say(_ending_text(message))
            return True
        if kind == "seat":
            self.seat = message["seat"]
            self.say(_printable(f"you are player {self.seat} of {message['players']}"))
        elif kind == "view":
            self.asking, self.answered = (message if message["legal"] else None), None
            if self.asking is not None:
                self.late = False
                self.say(_board_text(self.asking))
        else:
            self.say(_message_text(message, self.seat))
            if kind == "error" and self.answered is not None:  # asked again
                self.asking, self.answered = self.answered, None
                self.say(_moves_text(self.asking))
            elif kind == "timeout" and message["seat"] == self.seat:
                # What the person types now answers the board whose time ran out.
                self.late = True
        return False


def _leaves(text: str | None) -> bool:
    """Whether a line is ``quit``, or ``None`` the end of the input."""
    return text is None or text.strip() == "quit"


def _typed_move(text: str, legal: list[str]) -> str | None:
    """The move a person typed: the legal move of that number, or the text itself (the
    server says what is wrong with it); ``None`` for nothing or a number out of range."""
    text = text.strip()
    if text.isdigit() and text.isascii():
        number = int(text)
        return legal[number - 1] if 1 <= number <= len(legal) else None
    return text or None


def _board_text(asking: dict[str, Any]) -> str:
    """The board from the person's seat, and their moves, numbered."""
    return f"{render(PlayerView.from_dict(asking['view']))}\n{_moves_text(asking)}"


def _moves_text(asking: dict[str, Any]) -> str:
    moves = "  ".join(f"{number}. {move}" for number, move in enumerate(asking["legal"], 1))
    limit = f" ({asking['seconds']:g} seconds)" if "seconds" in asking else ""
    return _printable(f"your move{limit}: {moves}")


def _printable(text: str) -> str:
    """``text`` with each character that would not print (a terminal's escape code, a
    newline, a bidi override) written as its escape: a server's words cannot move the
    person's terminal."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def _message_text(message: dict[str, Any], seat: int | None) -> str:
    """What an outcome, a refusal, a timeout or a stale move tells the person."""
    return _printable(_message_words(message, seat))


def _message_words(message: dict[str, Any], seat: int | None) -> str:
    if message["type"] == "outcome":
        return outcome_text(MoveOutcome.from_dict(message["outcome"]), seat)
    if message["type"] == "error":
        return f"refused: {message['message']}"
    if message["type"] == "timeout":
        if message["seat"] == seat:
            return "your time ran out: a move was made for you"
        return f"player {message['seat']}'s time ran out: a move was made for them"
    if message["type"] == "stale":
        return "too late: that move was made for you"
    return f"the server said: {message}"


def _ending_text(message: dict[str, Any]) -> str:
    return _printable(_ending_words(message))


def _ending_words(message: dict[str, Any]) -> str:
    if message["type"] == "over":
        return f"match over: scores {message['scores']}, side {message['winner']} won"
    if message["type"] == "left":
        return f"match abandoned: player {message['seat']} left"
    return "the server stopped the match"


def outcome_text(outcome: MoveOutcome, you: int | None = None) -> str:
    """A move's public facts in a line, ``you`` (a seat) in the second person.

    >>> from chkobba import card, cards
    >>> outcome_text(MoveOutcome("play", player=1, card=card("QH"), captured=cards("2D 6S")))
    'player 1 plays QH and takes 2D 6S'
    >>> outcome_text(MoveOutcome("cut", player=0, keep=False, exposed=card("5D"),
    ...              dealt_table=cards("5D 3D 7S 7D")), you=0)
    'you expose 5D; the table: 5D 3D 7S 7D'
    """
    you_moved = outcome.player is not None and outcome.player == you
    who = "you" if you_moved else f"player {outcome.player}"

    def verb(word: str) -> str:
        return word if you_moved else word + "s"

    table = " ".join(map(str, outcome.dealt_table))
    if outcome.kind == "shuffle":
        parts = ["the cards are shuffled", *([f"the table: {table}"] if table else [])]
    elif outcome.kind == "cut":
        kept = (
            f"{verb('keep')} the top card"
            if outcome.keep
            else f"{verb('expose')} {outcome.exposed}"
        )
        parts = [f"{who} {kept}", f"the table: {table}"]
    else:
        taken = format_cards(outcome.captured)
        play = f"{who} {verb('play')} {outcome.card}"
        parts = [play + (f" and {verb('take')} {taken}" if taken else "")]
        parts += ["chkobba!"] * outcome.chkobba + ["new hands are dealt"] * outcome.refilled
    if outcome.leftovers:
        taker = "nobody" if outcome.leftovers_side is None else f"side {outcome.leftovers_side}"
        parts.append(f"{taker} gets the cards left: {format_cards(outcome.leftovers)}")
    if outcome.void:
        parts.append("a void deal: the same dealer deals again")
    if outcome.deal_score is not None:
        parts.append(f"the deal is over: points {list(outcome.deal_score.points)}")
    if outcome.winner is not None:
        parts.append(f"side {outcome.winner} wins the match")
    return "; ".join(parts)


async def play_bot(spec: str, seed: int, host: str, port: int) -> dict[str, Any]:
    """Play one seat with a bot of ``spec`` until the match is over; the last message.

    A refusal, of a seat or of a move, stops it (:class:`~chkobba.ChkobbaError`); a move
    that came too late (``stale``: the server moved for its seat) does not. Under a time
    limit a bot slower than the limit falls behind: it answers only the newest view of
    those that came while it thought, and reads every message as it comes, so that the
    end of the match is read even if its last move then finds the connection closed."""
    reader, writer = await asyncio.open_connection(host, port)
    bot = make_bot(spec, seed=seed)
    inbox: asyncio.Queue[bytes] = asyncio.Queue()
    reading = asyncio.create_task(_read_lines(reader, inbox))
    last: dict[str, Any] = {}
    try:
        while True:
            lines = [await inbox.get()]
            while not inbox.empty():
                lines.append(inbox.get_nowait())
            newest_view = None
            for line in lines:
                if not line:  # the connection closed
                    return last
                refused = "a move" if last else "a seat"  # (its first message is its seat)
                last = json.loads(line)
                if last["type"] in ENDINGS:
                    return last
                if last["type"] == "error":
                    raise ChkobbaError(f"the server refused {refused}: {last['message']}")
                if last["type"] == "view":
                    newest_view = last
            if newest_view is not None and newest_view["legal"]:
                view = PlayerView.from_dict(newest_view["view"])
                move = bot.choose(view, legal_moves(view))
                with contextlib.suppress(ConnectionError):  # the end is still read
                    await _send(writer, {"move": str(move), "turn": newest_view["turn"]})
    finally:
        reading.cancel()
        writer.close()


async def _read_lines(reader: asyncio.StreamReader, inbox: asyncio.Queue[bytes]) -> None:
    """Put every line the server sends into ``inbox``, then ``b""`` once it is gone."""
    try:
        while line := await reader.readline():
            inbox.put_nowait(line)
    except ConnectionError:  # the server went away: the match is over for this seat
        pass
    finally:
        inbox.put_nowait(b"")


async def demo(
    players: int, seed: int, spec: str, move_seconds: float | None = None
) -> MatchServer:
    """A server on a free local port and one bot client per seat."""
    lobby = Lobby(players, seed, move_seconds)
    server = await asyncio.start_server(lobby.join, "127.0.0.1", 0)
    async with server:
        port = server.sockets[0].getsockname()[1]
        rng = random.Random(seed)
        bots = [play_bot(spec, rng.randrange(2**32), "127.0.0.1", port) for _ in range(players)]
        await asyncio.gather(*bots)
        await lobby.closed()
    return lobby.started[0]


def summary(number: int, match: MatchServer) -> str:
    """How the ``number``-th match ended, in a line."""
    state, moves = match.game.state, counted(len(match.game.moves), "move")
    if match.ending["type"] == "left":
        return f"match {number} abandoned after {moves}: seat {match.ending['seat']} left"
    if match.ending["type"] == "stopped":
        return f"match {number} stopped after {moves}: the server stopped"
    return (
        f"match {number} over after {moves}: scores {list(state.scores)}, side {state.winner} won"
    )


def match_record(number: int, match: MatchServer) -> Record:
    """The ``number``-th match's record, tagged with its number, its seed, each seat's
    address and, if it did not end with a winner, why."""
    tags = {"game": str(number), "seed": str(match.seed)}
    for seat, writer in enumerate(match.writers):
        host, port = writer.get_extra_info("peername")[:2]
        tags[f"player{seat}"] = f"{host}:{port}"
    if match.ending["type"] == "left":
        tags["ending"] = f"seat {match.ending['seat']} left"
    elif match.ending["type"] == "stopped":
        tags["ending"] = "server stopped"
    return match.game.record(tags)


def _reporter(records: Path | None) -> Callable[[int, MatchServer], None]:
    """What ``serve`` does as each match ends: print its line and, with ``records``, add
    its record to that file as a line of JSON."""

    def ended(number: int, match: MatchServer) -> None:
        print(summary(number, match), flush=True)
        if records is None:
            return
        try:
            with records.open("a", encoding="utf-8") as file:
                file.write(match_record(number, match).to_json(compact=True) + "\n")
        except OSError as error:  # the file went away: say so, and serve on
            print(f"match {number}'s record was not kept: {error}", file=sys.stderr, flush=True)

    return ended


async def _person_at_the_keyboard(host: str, port: int) -> dict[str, Any]:
    """:func:`play_person` with the lines typed on standard input (a thread reads them:
    ``input`` would stop the event loop while it waits)."""
    loop, typed = asyncio.get_running_loop(), asyncio.Queue[str | None]()

    def read() -> None:
        # Once the loop is closed (the match over, the person gone) nobody needs them.
        with contextlib.suppress(RuntimeError):
            for line in sys.stdin:
                loop.call_soon_threadsafe(typed.put_nowait, line)
            loop.call_soon_threadsafe(typed.put_nowait, None)

    # Started once connected: with no server there, nothing reads the input.
    reading = threading.Thread(target=read, daemon=True)
    return await play_person(host, port, typed, connected=reading.start)


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return seconds


def _matches(text: str) -> int | None:
    if not text.isdigit() or not text.isascii():
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of matches (0: no end)")
    return int(text) or None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.splitlines()[0])
    roles = ("demo", "serve", "bot", "person", "watch")
    parser.add_argument("--role", default="demo", choices=roles)
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument(
        "--seed",
        type=int,
        help="the shuffles' and bots' seed (default: from the system's secrets)",
    )
    parser.add_argument("--spec", default="greedy", help="the bots' spec (default greedy)")
    parser.add_argument("--host", default="127.0.0.1", help="the server's (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=7777, help="the server's (default 7777)")
    parser.add_argument(
        "--watch-port",
        type=int,
        help="serve: take spectators on this port too (default none)",
    )
    parser.add_argument(
        "--match",
        type=int,
        help="watch: the match to watch, by number (default: the server's choice)",
    )
    parser.add_argument(
        "--follow",
        action="store_true",
        help="watch: when a match ends, watch the next, until the server has none left",
    )
    parser.add_argument(
        "--move-seconds",
        type=_seconds,
        help="demo and serve: a move's time limit (default none)",
    )
    parser.add_argument(
        "--matches",
        type=_matches,
        default=1,
        help="serve: how many matches (default 1, 0: no end)",
    )
    parser.add_argument(
        "--records",
        type=Path,
        help="serve: add each match's record to this file, a line each",
    )
    args = parser.parse_args(argv)
    if args.seed is None:  # a server's shuffles must not be guessable
        args.seed = secrets.randbits(63)
    if args.role in ("person", "watch", "bot"):
        try:
            failed = _client(args)
        except OSError as error:  # no server there
            parser.exit(1, f"cannot connect to {args.host}:{args.port}: {_reason(error)}\n")
        except ChkobbaError as error:  # the bot refused a seat or a move
            parser.exit(1, f"{error}\n")
        if failed:
            parser.exit(1)
        return
    if args.role == "demo":
        match = asyncio.run(demo(args.players, args.seed, args.spec, args.move_seconds))
        print(summary(1, match))
        return
    if args.records is not None:  # a file it cannot write is refused now, not after a match
        try:
            args.records.open("a", encoding="utf-8").close()
        except OSError as error:
            parser.error(f"cannot write the records to {str(args.records)!r}: {error.strerror}")
    ended = _reporter(args.records)
    served = serve(
        args.players,
        args.seed,
        args.host,
        args.port,
        args.move_seconds,
        args.matches,
        ended,
        args.watch_port,
    )
    try:
        asyncio.run(served)
    except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl-C, or a SIGTERM
        print("server stopped", flush=True)
    except OSError as error:  # a port taken (asyncio's words name it), a host unknown
        parser.exit(1, f"cannot serve on {args.host}: {error.strerror or error}\n")


def _client(args: argparse.Namespace) -> bool:
    """Run the ``person``, ``watch`` or ``bot`` role, and say how the match ended;
    whether it failed: the server turned the client away (the last thing it said, a
    refusal), or went away in the middle of a bot's match."""
    # Each line as it comes, also through a pipe (a spectator's log, a program reading
    # along), where Python would otherwise hold the output back in blocks of 8 KiB.
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)
    if args.role == "person":
        try:
            last = asyncio.run(_person_at_the_keyboard(args.host, args.port))
        except KeyboardInterrupt:  # Ctrl-C: as quit
            last = {"type": "quit"}
        if last["type"] == "quit":
            print("you left the match")
        elif last["type"] not in (*ENDINGS, "error"):  # those were told
            print("the server closed the connection")
    elif args.role == "watch":
        last = {}
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: stop watching
            watching = watch_match(args.host, args.port, match=args.match, follow=args.follow)
            last = asyncio.run(watching)
    else:
        last = asyncio.run(play_bot(args.spec, args.seed, args.host, args.port))
        if last.get("type") not in ENDINGS:  # the server went away
            when = "before the match ended" if last else "without a seat"
            print(f"the server closed the connection {when}")
            return True
        print(_ending_text(last))
    return last.get("type") == "error"


def _reason(error: OSError) -> str:
    """Why a connection or a port failed, in the system's words (asyncio's own message
    wraps them in the address)."""
    if isinstance(error, socket.gaierror) or not error.errno:
        return error.strerror or str(error)
    return os.strerror(error.errno)


if __name__ == "__main__":
    main()
