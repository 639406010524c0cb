"""A mutable convenience around the pure engine: one match, its history, undo and records.

The engine is pure (a state and a move give a new state); a program that drives one match
(a server, a UI, a notebook) usually wants a single object that remembers where the match
stands. :class:`Game` is that object; it is a thin shell over
:func:`~chkobba.apply`, so everything it does can be done with the pure API too.

>>> game = Game(players=2, dealer=0, seed=7)
>>> game.deal().phase                      # the shuffle, drawn from the game's own seed
<Phase.CUT: 'cut'>
>>> game.play("expose").phase
<Phase.PLAY: 'play'>
>>> len(game.moves), len(game.history)
(2, 3)
>>> game.undo()
Cut(keep=False)
>>> game.state.phase
<Phase.CUT: 'cut'>
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from chkobba._copying import shallow_copy
from chkobba._describe import integral, not_an_int
from chkobba.engine import apply, legal_moves
from chkobba.errors import ChkobbaError, IllegalMoveError, StaleMoveError, shown
from chkobba.events import MoveOutcome, apply_with_outcome
from chkobba.moves import Cut, Move, Play, Shuffle, random_shuffle
from chkobba.notation import parse_move
from chkobba.records import Record
from chkobba.render import render
from chkobba.rules import TUNISIAN, Rules
from chkobba.state import Phase, State, new_match
from chkobba.views import observe

__all__ = ["Game"]


def _is_shuffle(move: object) -> bool:
    """Whether ``move`` is a shuffle, or text that names one (``shuffle ...``)."""
    if isinstance(move, str):
        return move.strip()[:7].lower() == "shuffle"
    return isinstance(move, Shuffle)


class Game:
    """One match in progress: the current state, every state before it, and the moves.

    ``Game(players=2, dealer=0, seed=None)`` starts a new match. ``seed`` seeds the
    game's own :class:`random.Random`, which :meth:`deal` uses for the shuffles when it
    is given no generator (``None``: seeded by the system); it draws nothing else from
    it, one :func:`~chkobba.random_shuffle` per deal. ``scores`` resumes a match from
    given totals and ``rules`` picks the profile, as in :func:`~chkobba.new_match`.
    A copy (``copy.copy`` or ``copy.deepcopy``) goes on apart from the original: its
    list of states and moves and its generator are its own (``copy.copy`` shares a
    subclass's own attributes, as Python's shallow copy does).

    The game's own generator never deals an order already played in the match: a draw
    that repeats one is drawn again (by chance this never happens; it happens when a
    match is replayed into a new game with its original seed, which would otherwise deal
    the first deal again). :meth:`from_record` with a ``seed`` goes further and goes on
    exactly where the recorded match left off (see there).

    A server that reads moves sent by clients passes the sender's seat to
    :meth:`play`: ``game.play(text, seat=sender)``. Every method that changes the game
    either succeeds or raises and leaves the game as it was. A game is not safe to
    change from several threads at once (a move delivered twice, by two threads at the
    same moment, could pass the :attr:`revision` check twice): hold a lock around its
    changes, or give it to one thread or one asyncio task.

    >>> game = Game(seed=7)
    >>> _ = game.deal()
    >>> game.play("keep", seat=0)  # a client moving out of turn
    Traceback (most recent call last):
    ...
    chkobba.errors.IllegalMoveError: it is player 1's turn, not player 0's
    >>> game.play("keep", seat=1).phase
    <Phase.PLAY: 'play'>
    >>> game
    <Game players=2 moves=2 phase=PLAY scores=(0, 0)>
    >>> Game.from_record(game.record()).state == game.state  # saved and resumed
    True
    """

    def __init__(
        self,
        players: int = 2,
        dealer: int = 0,
        seed: int | None = None,
        *,
        scores: Sequence[int] | None = None,
        rules: Rules = TUNISIAN,
    ) -> None:
        seed = integral(seed)  # numpy's integers too
        if seed is not None and type(seed) is not int:
            raise ChkobbaError(f"Game: seed must be a whole number or None, not {shown(seed)}")
        start = new_match(players, dealer=dealer, scores=scores, rules=rules)
        self._states: list[State] = [start]
        self._moves: list[Move] = []
        # The shuffles played, kept as the moves come and go: a deal looks them up
        # instead of going through the whole match's moves.
        self._shuffles: Counter[Shuffle] = Counter()
        self._rng = random.Random(seed)
        # What record() tags the match with by default: the tags of the record the
        # game was read from (from_record), so that a record read and saved keeps them.
        self._tags: Mapping[str, str] = {}
        # Grows with every move played or undone: see revision.
        self._revision = 0

    @classmethod
    def from_record(
        cls, record: Record, seed: int | None = None, *, revision: int | None = None
    ) -> Game:
        """A game at the end of ``record``, with its whole history (to undo or go on).

        With the ``seed`` the match was played from (a record's ``seed`` tag), the game's
        generator does not start again: it replays the draws of the recorded shuffles, so
        the next :meth:`deal` is the one the original game would have dealt. A deal
        undone and dealt again drew one order more: each recorded shuffle is looked for
        among the seed's next thousand draws, and those passed over, deals the players
        may have seen, are never dealt again. A recorded shuffle not among them was
        dealt from another generator: the seed cannot tell where the generator stood,
        and it goes on from the first draw it tried there, still reproducible from the
        seed, while :meth:`deal` passes over any order the match has already played.
        Either way no recorded order is dealt again. (A deal undone after the record's
        last shuffle is not in it: nothing keeps it from coming back.)

        The game keeps the record's tags: :meth:`record` tags the match with them unless
        it is given others.

        Its :attr:`revision` is ``revision``, the one the saved game had (``game.revision``
        when its record was made: keep it beside the record, as the seed), else the
        record's count of moves. Without it, a game that had moves undone goes back to
        revisions its clients saw for other positions, and a move in flight from before
        the restore may answer one of them: pass it, or a revision above any sent. (A
        pickled game keeps its revision.)

        Raises :class:`~chkobba.RecordError` if a move of the record is not legal.
        """
        if not isinstance(record, Record):
            raise ChkobbaError(f"Game.from_record: {shown(record)} is not a Record")
        game = cls(record.players, record.dealer, seed, scores=record.scores, rules=record.rules)
        game._states = list(record.replay())
        game._moves = list(record.moves)
        game._shuffles = _shuffles_in(game._moves)
        game._tags = record.tags
        game._revision = len(game._moves) if revision is None else game._saved(revision)
        if seed is not None:
            game._rng = _resumed(game._rng, game._moves)
        return game

    @property
    def state(self) -> State:
        """The current state."""
        return self._states[-1]

    @property
    def history(self) -> tuple[State, ...]:
        """Every state from the start of the match to the current one (one more than moves).

        A new tuple at each read, as long as the match: read it once and keep it, rather
        than at every move (:attr:`state` is the current state)."""
        return tuple(self._states)

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move played so far, shuffles included; ``history[i+1]`` follows ``moves[i]``.

        A new tuple at each read, as long as the match (as :attr:`history`)."""
        return tuple(self._moves)

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves of the current state (``()`` at a shuffle and when it is over)."""
        return legal_moves(self.state)

    @property
    def phase(self) -> Phase:
        """The phase of the current state."""
        return self.state.phase

    @property
    def current_player(self) -> int | None:
        """Who moves next (``None`` at a shuffle and once the match is over)."""
        return self.state.current_player

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's match total."""
        return self.state.scores

    @property
    def is_chance(self) -> bool:
        """True when the next move is a shuffle (see :meth:`deal`)."""
        return self.state.is_chance

    @property
    def is_over(self) -> bool:
        """True once the match has a winner."""
        return self.state.is_over

    @property
    def winner(self) -> int | None:
        """The winning side once the match is over, else ``None``."""
        return self.state.winner

    def _saved(self, revision: int) -> int:
        """``revision`` checked as a saved game's: a whole number, at least its moves."""
        revision = integral(revision)  # numpy's integers too
        if type(revision) is not int or revision < len(self._moves):
            raise ChkobbaError(
                f"Game.from_record: revision must be a whole number from the record's "
                f"{len(self._moves)} moves up (the saved game's Game.revision), "
                f"not {shown(revision)}"
            )
        return revision

    @property
    def revision(self) -> int:
        """A number that grows with every change of the game, each move played and each
        undone: what a server sends with each view, and a client sends back with its
        move, so that :meth:`play` (``revision=``) refuses a move that answers a
        position already gone. (Not a count of moves: after an undo it is higher than
        ``len(game.moves)``, so that no later position has a revision seen before.)

        >>> game = Game(seed=7)
        >>> _ = game.deal()
        >>> game.revision, len(game.moves)
        (1, 1)
        >>> _ = game.undo()
        >>> game.revision, len(game.moves)
        (2, 0)
        """
        return self._revision

    def play(
        self, move: Move | str, *, seat: int | None = None, revision: int | None = None
    ) -> State:
        """Play a move, given as a move or as text, and return the new state.

        Text goes through :func:`~chkobba.parse_move` with the current state, so the short
        form of a play (``"QH"`` for the one legal move of QH) works. An illegal move
        raises :class:`~chkobba.IllegalMoveError`, bad text
        :class:`~chkobba.NotationError`; the game is then unchanged.

        ``seat`` says who sends the move, for a server that plays what its clients send.
        When it is not that seat's turn (or nobody's: before a deal, once the match is
        over), :class:`~chkobba.IllegalMoveError` is raised before the move is read, with
        a message that says nothing about any hand; otherwise text is read with that
        seat's :class:`~chkobba.PlayerView`, so an error speaks only of what the seat
        sees, and a shuffle is never accepted from it (the game's host deals).

        ``revision`` is the :attr:`revision` of the position the move answers. A move
        sent for a position that is gone (another move was played or undone since) is
        refused with :class:`~chkobba.StaleMoveError`, an ``IllegalMoveError``, before it
        is read: the short form ``"QH"`` could otherwise stand for another capture on the
        new table.

        >>> game = Game(seed=7)
        >>> _ = game.deal()
        >>> sent = game.revision              # with the view the cutter is shown
        >>> _ = game.play("keep", revision=sent)
        >>> game.play("keep", revision=sent)  # the same message, delivered twice
        Traceback (most recent call last):
        ...
        chkobba.errors.StaleMoveError: the move answers revision 1; the game is at revision 2
        """
        if revision is not None:
            self._check_fresh(revision, "Game.play", "the move")
        if seat is not None:
            seat = integral(seat)  # numpy's integers too
            self._check_turn(seat)
            if _is_shuffle(move):  # said as such, not as text a seat's view cannot read
                raise IllegalMoveError(
                    f"player {seat} cannot shuffle: the game deals each deal (Game.deal)"
                )
        if isinstance(move, str):
            move = parse_move(move, self.state if seat is None else observe(self.state, seat))
        elif not isinstance(move, (Shuffle, Cut, Play)):
            raise IllegalMoveError(
                f"{shown(move)} is not a move (expected Shuffle, Cut, Play or text)"
            )
        after = apply(self.state, move)
        self._states.append(after)
        self._moves.append(move)
        self._revision += 1
        if isinstance(move, Shuffle):
            self._shuffles[move] += 1
        return after

    def _check_fresh(self, revision: int, method: str, what: str) -> None:
        revision = integral(revision)  # numpy's integers too
        if type(revision) is not int or revision < 0:
            raise ChkobbaError(
                f"{method}: revision must be a Game.revision, a whole number from 0, "
                f"not {shown(revision)}"
            )
        now = self._revision
        if revision < now:
            raise StaleMoveError(
                f"{what} answers revision {revision}; the game is at revision {now}"
            )
        if revision > now:  # from a client's bug, or from before a game was restored
            raise StaleMoveError(
                f"{what} answers revision {shown(revision)}, ahead of this game's: "
                f"it is at revision {now}"
            )

    def _check_turn(self, seat: int) -> None:
        state = self.state
        if type(seat) is not int or not 0 <= seat < state.players:
            raise ChkobbaError(
                f"Game.play: seat must be a player from 0 to {state.players - 1}, not {shown(seat)}"
            )
        mover = state.current_player
        if mover == seat:
            return
        if state.is_over:
            raise IllegalMoveError(f"player {seat} cannot move: the match is over")
        if mover is None:
            raise IllegalMoveError(
                f"player {seat} cannot move: nobody is to move before the deal "
                "(the shuffle is the game's, Game.deal)"
            )
        raise IllegalMoveError(f"it is player {mover}'s turn, not player {seat}'s")

    def deal(self, rng: random.Random | None = None) -> State:
        """Play the chance move: a random :class:`~chkobba.Shuffle` from ``rng``.

        Without ``rng`` the game's own generator (from ``seed``) shuffles, and never
        deals an order already played in this match (see :class:`Game`). Only legal at a
        shuffle (:attr:`is_chance`). After it, the cutter decides (``keep``/``expose``)
        under a profile with a cut; without one (``CARD_RULES_PLUS``) the cards are dealt
        at once and the first player plays (or, when the table they make voids the deal,
        another shuffle is due).
        """
        if rng is not None and not isinstance(rng, random.Random):
            raise ChkobbaError(f"Game.deal: rng must be a random.Random, not {shown(rng)}")
        if not self.state.is_chance:
            raise IllegalMoveError(
                f"there is nothing to deal in phase {self.state.phase.name}: "
                "a shuffle comes only before a deal"
            )
        if rng is not None:
            return self.play(random_shuffle(rng))
        shuffle = random_shuffle(self._rng)
        while self._shuffles[shuffle]:  # a generator started again: go past what it dealt
            shuffle = random_shuffle(self._rng)
        return self.play(shuffle)

    def __copy__(self) -> Game:
        # A copy that goes on apart: its own lists and generator (the states and moves in
        # them are immutable values, shared).
        clone = shallow_copy(self)  # (a subclass's own attributes shared, as Python's is)
        clone._states, clone._moves = list(self._states), list(self._moves)
        clone._shuffles, clone._rng = Counter(self._shuffles), copy.copy(self._rng)
        return clone

    def __setstate__(self, state: Any) -> None:
        # Read a pickled game, also one pickled before the game kept its shuffles played (they are
        # worked out again from its moves).
        if isinstance(state, tuple):  # a subclass with slots: (its dict, its slots)
            state, slots = state
            for name, value in (slots or {}).items():
                setattr(self, name, value)
        vars(self).update(state or {})
        if "_shuffles" not in vars(self):
            self._shuffles = _shuffles_in(self._moves)
        if "_tags" not in vars(self):  # pickled before a game kept its record's tags
            self._tags = {}
        if "_revision" not in vars(self):  # pickled before a game kept its revision
            self._revision = len(self._moves)

    def undo(self, *, revision: int | None = None) -> Move:
        """Take back the last move and return it; a shuffle is undone like any move.

        ``revision``, as :meth:`play` takes it, is the :attr:`revision` of the position
        the request to undo answers: a request delivered twice, or after another move,
        raises :class:`~chkobba.StaleMoveError` instead of taking back a second move.
        Raises :class:`~chkobba.ChkobbaError` at the game's start (no move to undo)."""
        if revision is not None:
            self._check_fresh(revision, "Game.undo", "the request to undo")
        if not self._moves:
            raise ChkobbaError("there is no move to undo: the game is at its start")
        self._states.pop()
        move = self._moves.pop()
        self._revision += 1
        if isinstance(move, Shuffle):
            # Forgotten at zero: a Counter's -= 1 keeps the key, and a game dealt and taken
            # back again and again would keep every shuffle it took back.
            left = self._shuffles[move] - 1
            if left:
                self._shuffles[move] = left
            else:
                del self._shuffles[move]
        return move

    def move_outcome(self, index: int = -1) -> MoveOutcome:
        """What move ``index`` of :attr:`moves` did (the last by default), as
        :func:`~chkobba.apply_with_outcome` tells it: the public facts a server sends every
        player after a move, beside each seat's ``observe(game.state, seat)``.

        >>> game = Game(players=2, dealer=0, seed=7)
        >>> _ = game.deal(), game.play("expose")
        >>> game.move_outcome()
        MoveOutcome('cut', player=1, keep=False, exposed=card('2H'),
                    dealt_table=cards('2H 6H 3S 3C'))
        >>> game.move_outcome(0)  # the shuffle: under the cut, it shows nothing
        MoveOutcome('shuffle')
        """
        count, index = len(self._moves), integral(index)
        refusal = not_an_int("Game.move_outcome: index", index)  # 1.0 is no move's number
        if refusal is not None:
            raise refusal
        if not -count <= index < count:
            played = f"from 0 to {count - 1} (or -1 to -{count})" if count else "none yet"
            raise ChkobbaError(
                f"Game.move_outcome: no move {shown(index)}: the moves played are {played}"
            )
        index %= count
        return apply_with_outcome(self._states[index], self._moves[index])[1]

    def record(self, tags: Mapping[str, str] | None = None) -> Record:
        """The :class:`~chkobba.Record` of the game so far, with ``tags`` (by default
        those of the record the game was read from, see :meth:`from_record`: none for a
        new game; given ones replace them). The game's seed is not among them: it deals
        every deal still to come, so a server that means to resume the match with it
        (:meth:`from_record`) keeps it, or tags it itself (``tags={"seed": "7"}``).

        >>> game = Game.from_record(Game(seed=7).record(tags={"event": "club night"}))
        >>> game.record().tags
        {'event': 'club night'}
        >>> game.record(tags={}).tags
        {}
        """
        return Record.from_moves(
            self._states[0], self._moves, tags=self._tags if tags is None else tags
        )

    def render(self, player: int | None = None) -> str:
        """The board of the current state as ``player`` sees it, or with ``None`` as
        :func:`~chkobba.render` draws a state: every hand shown. A spectator's board,
        with no hand, is ``render(public_view(game.state))``."""
        return render(self.state, player)

    def __str__(self) -> str:
        return render(self.state)

    def __repr__(self) -> str:
        state = self.state
        return (
            f"<Game players={state.players} moves={len(self._moves)} "
            f"phase={state.phase.name} scores={shown(state.scores)}>"
        )


#: How many of the seed's draws :func:`_resumed` looks through for one recorded shuffle:
#: each deal taken back and dealt again drew one more.
_TAKEN_BACK_DRAWS = 1_000


def _resumed(rng: random.Random, moves: Sequence[Move]) -> random.Random:
    """``rng``, freshly seeded, past the draws of the shuffles in ``moves``, each looked
    for among its next draws: those passed over were deals taken back, which the players
    may have seen, so the generator must not reach them again (a later undo and deal
    would deal one of them once more). At a shuffle not among them (dealt from another
    generator) it stops, past the first draw it tried: still seeded, so still
    reproducible, and deal() passes over the orders already played."""
    for move in moves:
        if not isinstance(move, Shuffle):
            continue
        if random_shuffle(rng) == move:
            continue
        tried = rng.getstate()
        if not any(random_shuffle(rng) == move for _ in range(_TAKEN_BACK_DRAWS - 1)):
            rng.setstate(tried)
            break
    return rng


def _shuffles_in(moves: Sequence[Move]) -> Counter[Shuffle]:
    """The shuffles among ``moves``, each with how often it was played."""
    return Counter(move for move in moves if isinstance(move, Shuffle))
