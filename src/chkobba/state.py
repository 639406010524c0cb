"""The match state: one immutable value holding everything about a match.

States are produced by :func:`new_match` and by :func:`chkobba.apply`; nothing changes
one in place. They compare and hash by value, so they can key dicts (transposition
tables) and live in sets.

>>> state = new_match()
>>> state.phase, state.current_player, state.scores
(<Phase.SHUFFLE: 'shuffle'>, None, (0, 0))
>>> new_match(3)
Traceback (most recent call last):
...
chkobba.errors.ChkobbaError: a match has 2 or 4 players, not 3 (the tunisian profile)
>>> three = new_match(3, rules=CARD_RULES_PLUS)
>>> three.sides, three.scores
(3, (0, 0, 0))
"""

from __future__ import annotations

import enum
import operator
import warnings
from collections.abc import Mapping, Sequence, Set
from typing import Any

import attrs

from chkobba._describe import TextEnumType, integral, not_an_int, plain_flag
from chkobba._json import document_text, read_document
from chkobba._plays import hand_plays
from chkobba.cards import DECK, Card
from chkobba.errors import ChkobbaError, items_of, shown
from chkobba.moves import Play
from chkobba.rules import TUNISIAN, Rules, not_a_profile
from chkobba.scoring import DealScore

__all__ = [
    "HAND_SIZE",
    "HELD_SCORE_LIMIT",
    "SCORE_LIMIT",
    "TABLE_SIZE",
    "Phase",
    "State",
    "match_winner",
    "new_match",
]

#: Cards dealt to each hand at every round.
HAND_SIZE = 3


def __getattr__(name: str) -> object:
    """``SIDES`` (2), deprecated: see :mod:`chkobba.scoring`, which warns the same way."""
    if name == "SIDES":
        warnings.warn(
            "chkobba.state.SIDES is deprecated and stays for one release: use State.sides "
            "(3 in a 3-player match)",
            DeprecationWarning,
            stacklevel=2,
        )
        return 2
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Cards laid face up on the table at the start of a deal.
TABLE_SIZE = 4


class Phase(enum.Enum, metaclass=TextEnumType):
    """Where a match stands; it says who acts next and which moves exist.

    >>> [phase.name for phase in Phase]
    ['SHUFFLE', 'CUT', 'PLAY', 'OVER']
    >>> Phase("play") is Phase.PLAY  # read back from its value, as snapshots write it
    True
    >>> Phase("PLAY")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: 'PLAY' is not a phase's value: Phase takes shuffle cut play over
    >>> import random
    >>> rollout(new_match(), random.Random(3), until="match").phase
    <Phase.OVER: 'over'>
    """

    #: A chance node: the dealer shuffles (a :class:`~chkobba.Shuffle` move).
    SHUFFLE = "shuffle"
    #: The cutter looks at the top card and keeps or exposes it (a :class:`~chkobba.Cut`).
    CUT = "cut"
    #: Players play cards in turn (:class:`~chkobba.Play` moves).
    PLAY = "play"
    #: The match has a winner; no move is legal.
    OVER = "over"

    @classmethod
    def _missing_(cls, value: object) -> Phase:
        # Enum's own refusal is a bare ValueError quoting the value whole.
        raise ChkobbaError(f"{shown(value)} is not a phase's value: {_PHASE_LIST}")


_PHASE_LIST = "Phase takes shuffle cut play over"


# phase_code and mover_of are shared with chkobba.views (PlayerView's repr and mover);
# they are not in __all__ (and have comments, not docstrings, which the API reference
# would show). phase_code: a phase as code, ``Phase.PLAY``, how State's and PlayerView's
# reprs write it, so that they evaluate back (the enum's ``<Phase.PLAY: 'play'>`` is not).
def phase_code(phase: object) -> str:
    return f"Phase.{phase.name}" if isinstance(phase, Phase) else repr(phase)


# Not slotted: a frozen slotted class pays a descriptor call per field in __init__, a
# dict-based one writes the instance dict directly, which halves the cost of making the
# state that every move creates, and the engine makes a play's successor from a copy of
# the instance dict (cheaper still). Frozenness is enforced either way. Besides the fields
# an instance dict holds two memos, outside eq, hash and repr: attrs' cached hash and
# ``_legal_plays``; either may be None ("not computed yet").
@attrs.frozen(cache_hash=True, slots=False)
class State:
    """A whole match at one moment.

    Between deals (phase ``SHUFFLE`` after a deal, or ``OVER``) the cards lie where the
    last deal left them, so its piles stay visible; a fresh match, or a voided deal, has
    every card in the ``stock``. In every state the 40 cards are split exactly among
    ``stock``, ``hands``, ``table`` and ``captured``.

    Fields:
        rules: the profile in force.
        phase: the :class:`Phase`.
        players: 2, 3 (each for himself) or 4 in partnerships (sides are ``player % 2``),
            as the profile allows.
        dealer: the dealer of the current (or next) deal.
        current_player: who moves next; ``None`` at the chance node and when it is over.
        hands: each player's cards, by player.
        table: the face-up cards, in the order they were laid.
        stock: the face-down cards still to deal, next card first. In phase ``CUT`` its
            first card is the one the cutter looks at.
        captured: each side's pile for this deal (one per side, see :attr:`sides`).
        chkobbas: each side's chkobbas for this deal.
        scores: each side's match total.
        last_capturer: the player who made the last capture this deal, if any.
        winner: the winning side once the match is over.
        deal_scores: a :class:`~chkobba.DealScore` for every completed deal, oldest first.

    For example, a 4-player match once the cutter has kept the cut card:

    >>> import random
    >>> state = apply(new_match(4, dealer=3), random_shuffle(random.Random(1)))
    >>> state = apply(state, Cut(keep=True))
    >>> state.cutter, state.current_player, state.side_of(2), state.sides
    (0, 0, 0, 2)
    >>> [len(hand) for hand in state.hands], len(state.table), len(state.stock)
    ([3, 3, 3, 3], 4, 24)
    >>> {state: "seen"}[State.from_dict(state.to_dict())]  # equal by value, so hashable
    'seen'
    """

    rules: Rules
    phase: Phase = attrs.field(repr=phase_code)
    players: int
    dealer: int
    current_player: int | None
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    stock: tuple[Card, ...]
    captured: tuple[tuple[Card, ...], ...]
    chkobbas: tuple[int, ...]
    scores: tuple[int, ...]
    last_capturer: int | None
    winner: int | None
    deal_scores: tuple[DealScore, ...]

    @property
    def legal_plays(self) -> tuple[Play, ...]:
        """The legal plays of the player to move (``()`` outside phase ``PLAY``).

        Computed once per state and kept (the state's fields never change), so
        :func:`~chkobba.legal_moves` and :func:`~chkobba.apply` share the work.
        """
        # A memo in the instance dict, outside the attrs fields (so not in eq, hash or
        # repr); cheaper than functools.cached_property, which takes a lock on 3.10/3.11.
        memo = self.__dict__
        plays: tuple[Play, ...] | None = memo.get("_legal_plays")
        if plays is None:
            if self.phase is not Phase.PLAY:
                return ()
            try:  # free unless it fails: a hand-built state can be broken (see check_state)
                hand = self.hands[self.current_player]  # type: ignore[index]
                plays = memo["_legal_plays"] = hand_plays(hand, self.table, self.rules)
            except Exception as error:
                raise _broken(self, error) from None
        return plays

    @property
    def mover(self) -> int:
        """Who moves next, typed ``int``: :attr:`current_player` where someone is to move.

        At the chance node (phase ``SHUFFLE``) and once the match is over nobody is, and
        this raises :class:`~chkobba.ChkobbaError`; ``observe(state, state.mover)`` needs
        no ``None`` check.

        >>> new_match().mover
        Traceback (most recent call last):
        ...
        chkobba.errors.ChkobbaError: nobody is to move in phase SHUFFLE: ...
        """
        return mover_of(self.current_player, self.phase)

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-ready data, versioned (see :mod:`chkobba.snapshots`). A state
        built by hand is checked first (:func:`~chkobba.check_state`): what is written
        reads back."""
        from chkobba.snapshots import state_to_dict  # it imports this module

        return state_to_dict(self)

    @classmethod
    def from_dict(cls, data: object) -> State:
        """The state that :meth:`to_dict` wrote; every field is checked, and a problem
        raises :class:`~chkobba.ChkobbaError` naming it (see :mod:`chkobba.snapshots`)."""
        from chkobba.snapshots import state_from_dict  # it imports this module

        return state_from_dict(data)

    def to_json(self, *, compact: bool = False) -> str:
        """:meth:`to_dict`'s object as JSON text, one field a line; ``compact=True``
        writes one line without spaces (to send). It holds every hidden card: a player is
        sent ``observe(state, seat).to_json()``.

        >>> state = new_match()
        >>> print(state.to_json().splitlines()[1])
          "format": "chkobba-state",
        >>> state.to_json(compact=True)[:37]
        '{"format":"chkobba-state","version":1'
        >>> State.from_json(state.to_json()) == state
        True
        """
        return document_text(self.to_dict(), plain_flag("compact", compact))

    @classmethod
    def from_json(cls, text: str | bytes | bytearray | memoryview) -> State:
        """The state in JSON text holding :meth:`to_dict`'s object, read as
        :meth:`from_dict` reads it. The text is a ``str``, or UTF-8 in ``bytes``, a
        ``bytearray`` or a ``memoryview`` (as a socket gives them); a leading byte-order
        mark is skipped. It is read strictly: a
        key twice in one object, ``NaN``, bytes that are not UTF-8 or text that is not
        JSON raises :class:`~chkobba.ChkobbaError` saying which.

        >>> State.from_json('{"format": "chkobba-state", "format": "chkobba-view"}')
        Traceback (most recent call last):
        ...
        chkobba.errors.ChkobbaError: field 'format' appears twice in one JSON object
        """
        return cls.from_dict(read_document(text, "State.from_json", "a state"))

    @staticmethod
    def json_schema() -> dict[str, Any]:
        """The JSON Schema of :meth:`to_dict`'s format, shipped in the package (see
        docs/snapshots.md).

        >>> State.json_schema()["properties"]["format"]["const"]
        'chkobba-state'
        """
        from chkobba.snapshots import shipped_schema  # it imports this module

        return shipped_schema("state.schema.json")

    @property
    def sides(self) -> int:
        """How many sides play: 2, or 3 in a 3-player match (each for himself)."""
        return sides_of(self.players)

    def side_of(self, player: int) -> int:
        """The side a player belongs to: ``player % sides``; partners share a side."""
        try:  # free unless it fails: a hand-built state can be broken (see check_state)
            if type(player) is int and 0 <= player < self.players:
                return player % self.sides
        except Exception as error:
            raise _broken(self, error) from None
        seat = integral(player)  # numpy's integers too
        if seat is not player:
            return self.side_of(seat)
        raise no_such_player(player, self.players)

    def players_of(self, side: int) -> tuple[int, ...]:
        """The players of ``side``, in seat order: partners at 4 players, one player
        otherwise (what a scoreboard names for a side's points).

        >>> new_match(4).players_of(0), new_match(4).players_of(1), new_match(2).players_of(1)
        ((0, 2), (1, 3), (1,))
        """
        try:  # free unless it fails: a hand-built state can be broken (see check_state)
            return side_players(self.players, side)
        except ChkobbaError:
            raise
        except Exception as error:
            raise _broken(self, error) from None

    @property
    def cutter(self) -> int:
        """The player at the dealer's right: cuts, and leads every round of the deal."""
        try:  # free unless it fails: a hand-built state can be broken (see check_state)
            return (self.dealer + 1) % self.players
        except Exception as error:
            raise _broken(self, error) from None

    @property
    def is_chance(self) -> bool:
        """True at the chance node (phase ``SHUFFLE``)."""
        return self.phase is Phase.SHUFFLE

    @property
    def is_over(self) -> bool:
        """True once the match has a winner."""
        return self.phase is Phase.OVER

    # Pickles hold the fields with the memos empty, so that a state's bytes do not tell
    # what was asked of it (docs/api.md); the empty memos keep them readable by 0.1.0,
    # whose hash reads its memo. Older pickles, memos included, still load: their memos
    # are dropped.
    def __getstate__(self) -> dict[str, Any]:
        fields = self.__dict__
        state = {name: fields[name] for name in _FIELD_NAMES}
        state["_attrs_cached_hash"] = state["_legal_plays"] = None
        return state

    def __setstate__(self, fields: dict[str, Any]) -> None:
        values = {name: fields[name] for name in _FIELD_NAMES}
        values["_attrs_cached_hash"] = None
        values["_legal_plays"] = None
        object.__setattr__(self, "__dict__", values)


_FIELD_NAMES = tuple(field.name for field in attrs.fields(State))


def _broken(state: State, error: Exception) -> Exception:
    """What a property raises when ``error`` escaped it on a hand-built broken state: the
    :class:`~chkobba.ChkobbaError` naming what is wrong (see ``checks.broken_state``)."""
    from chkobba.checks import broken_state  # it imports this module

    return broken_state(state, error)


# Shared with chkobba.views (not in __all__): a State and a PlayerView refuse a seat
# alike (side_of, and observe), and answer mover alike.
def no_such_player(player: object, players: int) -> ChkobbaError:
    """The refusal of ``player`` as a seat of a ``players``-player match: for its type
    when it is no int, else as a seat that is not there.

    >>> from chkobba.state import no_such_player
    >>> no_such_player(2, 2)
    ChkobbaError('there is no player 2 in a 2-player match')
    >>> no_such_player(True, 2)
    ChkobbaError('player must be an int, not True (bool)')
    """
    refusal = not_an_int("player", player)
    if refusal is not None:
        return refusal
    return ChkobbaError(f"there is no player {shown(player)} in a {shown(players)}-player match")


def mover_of(player: int | None, phase: Phase) -> int:
    if player is None:
        why = "the next move is a shuffle" if phase is Phase.SHUFFLE else "the match is over"
        # A hand-built state or view may hold anything as its phase.
        name = phase.name if isinstance(phase, Phase) else shown(phase)
        raise ChkobbaError(f"nobody is to move in phase {name}: {why}")
    return player


def new_match(
    players: int = 2,
    *,
    dealer: int = 0,
    scores: Sequence[int] | None = None,
    rules: Rules = TUNISIAN,
) -> State:
    """A match about to start: phase ``SHUFFLE``, ``dealer`` to shuffle.

    ``players`` is a count the profile ``rules`` deals to (2 or 4 under the default
    Tunisian profile; see :attr:`Rules.players <chkobba.Rules.players>`).
    ``scores`` resumes a match from the given side totals (default zeros): whole
    numbers from 0 to ``SCORE_LIMIT`` (a billion) that do not decide the match
    already. The first dealer is chosen by lot: pass the result of that draw as
    ``dealer``. An argument outside these raises :class:`~chkobba.ChkobbaError`
    naming it.

    >>> resumed = new_match(4, dealer=2, scores=(15, 18))
    >>> resumed.scores, resumed.dealer, resumed.cutter
    ((15, 18), 2, 3)
    >>> new_match(scores=(21, 3))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: scores (21, 3) already decide a match played to 21
    """
    if scores is None and type(players) is int and type(dealer) is int:
        # A fresh match of a seating already seen: a copy of that one (every playout and
        # every search sample starts here; State() and its checks cost twice as much).
        fresh = _FRESH.get((id(rules), players, dealer))
        if fresh is not None and fresh.rules is rules:
            return from_fields(fresh.__dict__.copy())
    if not isinstance(rules, Rules):
        raise ChkobbaError(not_a_profile(rules))
    players, dealer = integral(players), integral(dealer)  # numpy's integers too
    sides = rules.sides(players)  # rejects a player count the profile does not allow
    if type(dealer) is not int or not 0 <= dealer < players:
        refusal = not_an_int("dealer", dealer)
        if refusal is not None:
            raise refusal
        raise ChkobbaError(f"dealer must be a player from 0 to {players - 1}, not {shown(dealer)}")
    totals = _check_scores(scores, rules, sides)
    made = State(
        rules=rules,
        phase=Phase.SHUFFLE,
        players=players,
        dealer=dealer,
        current_player=None,
        hands=((),) * players,
        table=(),
        stock=DECK,
        captured=((),) * sides,
        chkobbas=(0,) * sides,
        scores=totals,
        last_capturer=None,
        winner=None,
        deal_scores=(),
    )
    if scores is None:
        if len(_FRESH) >= _FRESH_LIMIT:  # profiles made on the fly: keep only recent ones
            _FRESH.clear()
        # Keyed by the profile's identity (its hash runs Python code); the state holds the
        # profile, so its id is not reused while the entry lives.
        _FRESH[id(rules), players, dealer] = made
    return made


#: The highest total a match may start from (``new_match``, ``Game``, ``Record``): far
#: past any target (at most 10,000); a total of 4,301 digits made a state that JSON could
#: not write (Python's own int-to-text limit).
SCORE_LIMIT = 10**9

#: The highest total a state may hold: the largest integer every JSON reader holds
#: exactly (2**53 - 1). Level totals decide nothing, so play goes on past
#: ``SCORE_LIMIT`` from a match started there; a deal scores at most a few dozen
#: points, so passing this would take more than 10**14 deals. (A state built or read
#: with totals within a deal of this limit can still play past it, into a state that
#: ``check_state`` refuses; no match started from ``SCORE_LIMIT`` comes near.)
HELD_SCORE_LIMIT = 2**53 - 1

#: Fresh matches by (id of the profile, players, dealer), for new_match.
_FRESH: dict[tuple[int, int, int], State] = {}
_FRESH_LIMIT = 64


def _check_scores(scores: Sequence[int] | None, rules: Rules, sides: int) -> tuple[int, ...]:
    if scores is None:
        return (0,) * sides
    try:  # not tuple(scores): a dict would give its keys, an endless iterator hang
        totals = items_of(scores, "scores", limit=2 * sides)
    except ChkobbaError:
        raise ChkobbaError(f"scores must be {sides} whole numbers, not {shown(scores)}") from None
    totals = tuple(integral(total) for total in totals)
    if len(totals) != sides or not all(type(s) is int and s >= 0 for s in totals):
        raise ChkobbaError(f"scores must be {sides} whole numbers >= 0, not {shown(scores)}")
    if max(totals) > SCORE_LIMIT:
        raise ChkobbaError(f"scores must be at most {SCORE_LIMIT:,}, not {shown(totals)}")
    if match_winner(totals, rules.target) is not None:
        raise ChkobbaError(
            f"scores {shown(totals)} already decide a match played to {rules.target}"
        )
    return totals


def replaced(state: State, **fields: Any) -> State:
    """``state`` with some fields replaced, like :func:`attrs.evolve` but without
    ``State.__init__`` and its checks: for hot paths (sampling bots) that only pass
    values of the documented types. The memos (cached hash, legal plays) start empty.
    """
    values = state.__dict__.copy()
    values.update(fields)
    return from_fields(values)


def from_fields(values: dict[str, Any]) -> State:
    """The State whose instance dict is ``values`` (every field, as a copy of another
    state's dict holds them), its memos reset: the cheapest way to make one, for the
    engine's successors and :func:`replaced`. Nothing is checked."""
    values["_attrs_cached_hash"] = None
    values["_legal_plays"] = None
    made = object.__new__(State)
    object.__setattr__(made, "__dict__", values)
    return made


def side_players(players: int, side: int) -> tuple[int, ...]:
    """The seats of ``side`` in a ``players``-player match (see :meth:`State.players_of`);
    a side that is not there is refused by name."""
    sides = sides_of(players)
    if type(side) is int and 0 <= side < sides:
        return tuple(range(side, players, sides))
    number = integral(side)  # numpy's integers too
    if number is not side:
        return side_players(players, number)
    refusal = not_an_int("side", side)
    if refusal is not None:
        raise refusal
    message = f"there is no side {shown(side)} in a {shown(players)}-player match"
    if sides >= 2:  # a broken state's count of players may make no sides at all
        message += f": the sides are {', '.join(map(str, range(sides - 1)))} and {sides - 1}"
    raise ChkobbaError(message)


def sides_of(players: int) -> int:
    """How many sides ``players`` players form: partnerships of two with 4, else one each."""
    return 2 if players == 4 else players


def match_winner(scores: Sequence[int], target: int) -> int | None:
    """The winning side for these totals, or ``None`` while the match goes on.

    Once any side has reached the target, the unique highest total wins; a highest total
    shared by two or more sides plays on (with two sides: one at the target wins, both at
    it the higher wins, equal totals play on). The totals are a sequence of whole numbers
    (numpy's too, an array of them included); anything else, or no totals, raises
    :class:`~chkobba.ChkobbaError`.

    >>> from chkobba.state import match_winner
    >>> match_winner((21, 18), 21), match_winner((23, 23), 21), match_winner((12, 11, 12), 11)
    (0, None, None)
    """
    if (
        type(scores) is not tuple
        or type(target) is not int
        or not scores
        or not all(type(total) is int for total in scores)
    ):
        scores, target = _totals(scores, target)
    best = max(scores)
    if best < target or scores.count(best) > 1:
        return None
    return scores.index(best)


def _totals(scores: object, target: object) -> tuple[tuple[int, ...], int]:
    """:func:`match_winner`'s arguments as a tuple of ints and an int, or its refusal."""
    try:
        if isinstance(scores, (str, bytes, Mapping, Set)):  # iterable, but no totals
            raise TypeError
        totals = tuple(map(_whole, scores))  # type: ignore[call-overload]
        whole = _whole(target)
    except TypeError:
        totals, whole = (), 0
    if not totals:
        raise ChkobbaError(
            "match_winner: expected a tuple of totals, one per side, and a target, "
            f"got {shown(scores)} and {shown(target)}"
        )
    return totals, whole


def _whole(number: object) -> int:
    if isinstance(number, bool):
        raise TypeError
    return operator.index(number)  # type: ignore[arg-type]
