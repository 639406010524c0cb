"""What a move did, for a user interface to animate: :class:`MoveOutcome`.

``apply_with_outcome(state, move)`` applies the move with :func:`chkobba.apply` (so an
illegal move raises :class:`~chkobba.IllegalMoveError`) and returns the new state with a
:class:`MoveOutcome`, the public facts of what happened: who moved, the card played and
what it took, a chkobba, new hands dealt, the end of a deal (the leftovers given to the
last capturer's side and the :class:`~chkobba.DealScore`), the table dealt and whether it
voided the deal, and the match's winner. A user interface animates the outcome and
needs to diff no states.

>>> top = cards("2D QH 3C 4C 6C 5C 7C 6S AS AC")
>>> state = apply(new_match(), Shuffle(top + tuple(c for c in DECK if c not in top)))
>>> state, what = apply_with_outcome(state, Cut(keep=False))
>>> what
MoveOutcome('cut', player=1, keep=False, exposed=card('2D'), dealt_table=cards('2D 6S AS AC'))
>>> state, what = apply_with_outcome(state, Play("QH", "2D 6S"))
>>> what
MoveOutcome('play', player=1, card=card('QH'), captured=cards('2D 6S'))
>>> what.to_dict()["captured"], what.chkobba
(['2D', '6S'], False)

An outcome holds only what every player at the table sees: a shuffle's order and a kept
cut card are never in it, so it (or its :meth:`~MoveOutcome.to_dict`) may be sent to
every player and written to any log. The state returned beside it is the whole match,
every hidden card included: never send it to a player; send each seat
``observe(state, seat)`` (or its ``to_dict()``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any, Literal

import attrs

from chkobba import _kernel
from chkobba._describe import json_choices, plain_flag, twice
from chkobba._json import document_text, read_document
from chkobba.cards import Card, format_cards
from chkobba.checks import SIDE_COUNTS, broken_state, lone_deal_score_problem
from chkobba.engine import apply
from chkobba.errors import ChkobbaError, shown
from chkobba.moves import Cut, Move, Play
from chkobba.rules import PLAYER_COUNTS
from chkobba.scoring import DealScore
from chkobba.snapshots import (
    bad_field,
    cards_in,
    deal_score_in,
    optional_card_in,
    optional_int_in,
    shipped_schema,
    versioned_fields,
)
from chkobba.state import Phase, State

__all__ = ["KINDS", "OUTCOME_FORMAT", "VERSION", "Kind", "MoveOutcome", "apply_with_outcome"]

#: What a move is: the values of :attr:`MoveOutcome.kind`.
Kind = Literal["shuffle", "cut", "play"]
#: Every :data:`Kind`, in the order a deal meets them.
KINDS: tuple[Kind, ...] = ("shuffle", "cut", "play")
#: The ``format`` field of an outcome's data.
OUTCOME_FORMAT = "chkobba-outcome"
#: The version of that format that this library writes and reads.
VERSION = 1


def _checked(test: Callable[[Any], bool], expected: str) -> Any:
    def check(instance: MoveOutcome, attribute: attrs.Attribute[Any], value: object) -> None:
        if not test(value):
            raise ChkobbaError(
                f"MoveOutcome: {attribute.name} must be {expected}, not {shown(value)}"
            )

    return check


def _is_kind(value: object) -> bool:
    # Text first: a numpy array's ``in`` compares item by item, and its truth is an error.
    return isinstance(value, str) and value in KINDS


def _is_seat(value: object) -> bool:
    # A player: below the most players a profile may seat.
    return value is None or (type(value) is int and 0 <= value < max(PLAYER_COUNTS))


# The converters' parameters are typed as the constructor takes them (a type checker reads
# them there); anything else passes through for the validator to name.
def _as_tuple(value: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(value) if isinstance(value, (list, tuple)) else value  # type: ignore[return-value]


def _as_frozenset(value: Collection[Card]) -> frozenset[Card]:
    if isinstance(value, (list, tuple, set, frozenset)):
        try:
            made = frozenset(value)
        except TypeError:  # an unhashable member: left for the validator to name
            return value  # type: ignore[return-value]
        _check_distinct("captured", value)  # a card listed twice: no set of cards
        return made
    return value  # type: ignore[return-value]


def _check_distinct(name: str, values: Iterable[object]) -> None:
    seen: set[object] = set()
    for value in values:
        if value in seen:
            said = value if type(value) is Card else shown(value)
            raise ChkobbaError(f"MoveOutcome: {twice(said, name, name)}")
        seen.add(value)


def _all_cards(value: tuple[object, ...] | frozenset[object]) -> bool:
    return all(type(c) is Card for c in value)


def _is_side(value: object) -> bool:
    # A side: below the most sides a match may have.
    return value is None or (type(value) is int and 0 <= value < max(SIDE_COUNTS))


_SEAT = _checked(_is_seat, f"a whole number from 0 to {max(PLAYER_COUNTS) - 1} or None")
_SIDE = _checked(_is_side, f"a whole number from 0 to {max(SIDE_COUNTS) - 1} or None")
_FLAG = _checked(lambda v: type(v) is bool, "True or False")
_CARD = _checked(lambda v: v is None or type(v) is Card, "a card or None")
_CARDS = _checked(lambda v: type(v) is tuple and _all_cards(v), "a tuple of cards")

#: The fields each kind of move may set (every other field keeps its default).
_FIELDS: dict[str, frozenset[str]] = {
    "shuffle": frozenset({"dealt_table", "void"}),
    "cut": frozenset({"player", "keep", "exposed", "dealt_table", "void"}),
    "play": frozenset(
        {
            "player",
            "card",
            "captured",
            "chkobba",
            "refilled",
            "leftovers",
            "leftovers_side",
            "deal_score",
            "winner",
        }
    ),
}
#: The fields a kind of move must set.
_NEEDED = {"shuffle": (), "cut": ("player", "keep", "dealt_table"), "play": ("player", "card")}


@attrs.frozen(repr=False)
class MoveOutcome:
    """The public facts of one move; a field that does not apply keeps its default.

    Fields:
        kind: ``"shuffle"``, ``"cut"`` or ``"play"`` (see :data:`KINDS`).
        player: who moved: the cutter, or the player who played; ``None`` for a shuffle.
        keep: a cut's decision: ``True`` kept the top card (unseen by the others),
            ``False`` exposed it.
        exposed: the card a cut exposed (the first card of the table).
        dealt_table: the table this move dealt, in dealt order: a cut's, or a shuffle's
            under a profile without the cut (which deals at once); ``()`` otherwise.
        void: the dealt table voided the deal (the profile's ``void_deal`` rule): the
            cards were gathered at once and the same dealer shuffles again, so the
            ``dealt_table`` is in no state.
        card: the card played.
        captured: the table cards it took (empty: it was laid on the table).
        chkobba: the capture swept the table and counts as a chkobba (not with the
            deal's last card, unless the profile's ``last_card_chkobba`` says so).
        refilled: everyone was out of cards and new hands were dealt from the stock.
        leftovers: the cards left on the table after the deal's last play, in table order.
        leftovers_side: the side that got them (the last capturer's); ``None`` when there
            were none, or when nobody captured in the whole deal (they go to no side).
        deal_score: the :class:`~chkobba.DealScore` when this play ended a deal.
        winner: the side that won the match when this play ended it.

    Built by hand, the fields are checked, and a
    :class:`~chkobba.ChkobbaError` names the first one that is wrong:

    >>> MoveOutcome("cut", player=1)
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: MoveOutcome: a cut needs keep
    >>> MoveOutcome("play", player=0, card=card("7D"), keep=True)
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: MoveOutcome: a play has no keep
    """

    kind: Kind = attrs.field(validator=_checked(_is_kind, "one of " + ", ".join(KINDS)))
    player: int | None = attrs.field(default=None, validator=_SEAT)
    keep: bool | None = attrs.field(
        default=None, validator=_checked(lambda v: v is None or type(v) is bool, "a bool or None")
    )
    exposed: Card | None = attrs.field(default=None, validator=_CARD)
    dealt_table: tuple[Card, ...] = attrs.field(default=(), converter=_as_tuple, validator=_CARDS)
    void: bool = attrs.field(default=False, validator=_FLAG)
    card: Card | None = attrs.field(default=None, validator=_CARD)
    captured: frozenset[Card] = attrs.field(
        default=frozenset(),
        converter=_as_frozenset,
        validator=_checked(lambda v: type(v) is frozenset and _all_cards(v), "a set of cards"),
    )
    chkobba: bool = attrs.field(default=False, validator=_FLAG)
    refilled: bool = attrs.field(default=False, validator=_FLAG)
    leftovers: tuple[Card, ...] = attrs.field(default=(), converter=_as_tuple, validator=_CARDS)
    leftovers_side: int | None = attrs.field(default=None, validator=_SIDE)
    deal_score: DealScore | None = attrs.field(
        default=None,
        validator=_checked(lambda v: v is None or isinstance(v, DealScore), "a DealScore or None"),
    )
    winner: int | None = attrs.field(default=None, validator=_SIDE)

    def __reduce__(self) -> tuple[Callable[..., MoveOutcome], tuple[dict[str, Any]]]:
        # The captured cards in deck order: a frozenset of cards pickles in the order of
        # the cards' addresses, so the same outcome would give other bytes in another
        # process (as Play does).
        fields = {field.name: getattr(self, field.name) for field in attrs.fields(MoveOutcome)}
        fields["captured"] = tuple(sorted(self.captured))
        return (_unpickled, (fields,))

    def __attrs_post_init__(self) -> None:
        kind = self.kind
        for field in attrs.fields(MoveOutcome)[1:]:
            value = getattr(self, field.name)
            if field.name not in _FIELDS[kind] and value != field.default:
                raise ChkobbaError(f"MoveOutcome: a {kind} has no {field.name}")
            if field.name in _NEEDED[kind] and value == field.default:
                raise ChkobbaError(f"MoveOutcome: a {kind} needs {field.name}")
        _check_distinct("dealt_table", self.dealt_table)  # each field on its own first
        _check_distinct("leftovers", self.leftovers)
        for name, needs in (
            ("void", "dealt_table"),
            ("chkobba", "captured"),
            ("leftovers_side", "leftovers"),
            ("leftovers", "deal_score"),  # only a deal's last play leaves any
            ("winner", "deal_score"),
        ):
            value = getattr(self, name)
            unset = value is None or value is False or value == ()  # (0 == False)
            if not unset and not getattr(self, needs):
                raise ChkobbaError(f"MoveOutcome: {name} is set without {needs}")
        if self.refilled and self.deal_score is not None:
            raise ChkobbaError(
                "MoveOutcome: refilled is set with deal_score: a deal's last play deals no hands"
            )
        self._check_cards_taken()
        if (self.keep is False) != (self.exposed is not None):
            raise ChkobbaError("MoveOutcome: exposed is the card of a cut with keep=False")
        if self.exposed is not None and self.dealt_table[:1] not in ((), (self.exposed,)):
            raise ChkobbaError(
                f"MoveOutcome: exposed {self.exposed} is not the first card of dealt_table "
                f"({format_cards(self.dealt_table[:1])})"
            )
        if self.deal_score is not None:
            self._check_deal_score(self.deal_score)

    def _check_cards_taken(self) -> None:
        # A card leaves the table once: the card played is not among those it took, and
        # the leftovers are what the captures left.
        if self.card is not None and self.card in self.captured:
            raise ChkobbaError(f"MoveOutcome: {self.card} is the card played and among captured")
        both = self.captured.intersection(self.leftovers)
        if both:
            raise ChkobbaError(f"MoveOutcome: {min(both)} is among captured and leftovers")

    def _check_deal_score(self, score: DealScore) -> None:
        # As check_state checks a state's deal scores: a score that no deal makes (points
        # that are not its chkobbas plus its categories, a total of 4,301 digits that JSON
        # cannot write) is refused here, not at the client that reads it.
        problem = lone_deal_score_problem(score)
        if problem is not None:
            raise ChkobbaError(f"MoveOutcome: {problem}")
        sides = len(score.points)
        for name in ("leftovers_side", "winner"):
            side = getattr(self, name)
            if side is not None and side >= sides:
                raise ChkobbaError(
                    f"MoveOutcome: {name} {side} is not a side from 0 to {sides - 1}"
                )
        self._check_last_play(sides)

    def _check_last_play(self, sides: int) -> None:
        """What the deal's last play (the one with the score) did with the table: a card
        laid stays among the leftovers, and a capture gives them to the capturer's side."""
        player, card = self.player, self.card
        if player is not None and sides == 3 and player >= sides:  # 3 sides: 3 players
            raise ChkobbaError(f"MoveOutcome: player {player} is not a player from 0 to 2")
        if self.chkobba and self.leftovers:
            raise ChkobbaError("MoveOutcome: chkobba is set with leftovers: a sweep leaves none")
        if not self.captured and card not in self.leftovers:
            raise ChkobbaError(
                f"MoveOutcome: {card}, laid by the deal's last play, must be among leftovers"
            )
        if self.captured and card in self.leftovers:
            raise ChkobbaError(f"MoveOutcome: {card} captured, so it cannot be among leftovers")
        side = None if player is None else player % sides
        if self.captured and self.leftovers and self.leftovers_side != side:
            raise ChkobbaError(
                f"MoveOutcome: leftovers_side must be {side}, the side of player {player}, "
                f"who captured last, not {shown(self.leftovers_side)}"
            )

    def __repr__(self) -> str:
        parts = [repr(self.kind)]
        for field in attrs.fields(MoveOutcome)[1:]:
            value = getattr(self, field.name)
            if value != field.default:
                parts.append(f"{field.name}={_code(value)}")
        return f"MoveOutcome({', '.join(parts)})"

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON-ready data, versioned: cards in their notation, a set of
        cards in deck order, the deal score as :meth:`State.to_dict
        <chkobba.State.to_dict>` writes one. It holds public facts only: send it to
        every player.

        >>> MoveOutcome("play", player=0, card=card("7D")).to_dict()["card"]
        '7D'
        """
        data: dict[str, Any] = {"format": OUTCOME_FORMAT, "version": VERSION}
        for field in attrs.fields(MoveOutcome):
            data[field.name] = _plain(getattr(self, field.name))
        return data

    def to_json(self, *, compact: bool = False) -> str:
        """:meth:`to_dict`'s object as JSON text, one field a line; ``compact=True``
        writes one line without spaces: what a server sends every player.

        >>> what = MoveOutcome("play", player=0, card=card("7D"), captured=cards("2D 5S"))
        >>> MoveOutcome.from_json(what.to_json(compact=True)) == what
        True
        """
        return document_text(self.to_dict(), plain_flag("compact", compact))

    @classmethod
    def from_json(cls, text: str | bytes | bytearray | memoryview) -> MoveOutcome:
        """The outcome in JSON text holding :meth:`to_dict`'s object, read strictly as
        :meth:`State.from_json <chkobba.State.from_json>` reads a state, and checked as
        :meth:`from_dict` checks it."""
        return cls.from_dict(read_document(text, "MoveOutcome.from_json", "an outcome"))

    @staticmethod
    def json_schema() -> dict[str, Any]:
        """The JSON Schema of :meth:`to_dict`'s format, shipped in the package as
        ``chkobba/outcome.schema.json`` (see docs/api.md): for a client in another
        language to check what a server sends.

        >>> MoveOutcome.json_schema()["properties"]["format"]["const"]
        'chkobba-outcome'
        """
        return shipped_schema("outcome.schema.json")

    @classmethod
    def from_dict(cls, data: object) -> MoveOutcome:
        """The outcome that :meth:`to_dict` wrote (a client reading what a server sent),
        checked: a problem raises :class:`~chkobba.ChkobbaError` naming the field.

        >>> MoveOutcome.from_dict({"format": "chkobba-outcome", "version": 1})
        Traceback (most recent call last):
        ...
        chkobba.errors.ChkobbaError: outcome: missing field 'kind'
        """
        fields = versioned_fields(data, OUTCOME_FORMAT, tuple(_READ), VERSION)
        values = {name: read(name, fields[name]) for name, read in _READ.items()}
        try:
            return cls(**values)
        except ChkobbaError as error:
            raise ChkobbaError(f"outcome: {error}") from None


def _code(value: object) -> str:
    """A field's value as code that evaluates back to it (cards as ``cards('2D 6S')``)."""
    if isinstance(value, frozenset):
        return f"cards({format_cards(value)!r})"
    if isinstance(value, tuple):
        return f"cards({' '.join(map(str, value))!r})"
    return repr(value)


def _plain(value: object) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, frozenset):
        return [str(c) for c in sorted(value)]
    if isinstance(value, tuple):
        return [str(c) for c in value]
    if isinstance(value, DealScore):
        return value.to_dict()
    return value


def _bool_in(where: str, value: Any) -> bool:
    if type(value) is not bool:
        raise bad_field(where, value, "true or false")
    return value


def _optional_bool_in(where: str, value: Any) -> bool | None:
    return None if value is None else _bool_in(where, value)


def _deal_score_in(where: str, value: Any) -> DealScore | None:
    return None if value is None else deal_score_in(where, value)


def _kind_in(where: str, value: Any) -> str:
    if value not in KINDS:
        raise bad_field(where, value, f"one of {json_choices(KINDS)}")
    return str(value)


_READ: dict[str, Callable[[str, Any], Any]] = {
    "kind": _kind_in,
    "player": optional_int_in,
    "keep": _optional_bool_in,
    "exposed": optional_card_in,
    "dealt_table": cards_in,
    "void": _bool_in,
    "card": optional_card_in,
    "captured": cards_in,
    "chkobba": _bool_in,
    "refilled": _bool_in,
    "leftovers": cards_in,
    "leftovers_side": optional_int_in,
    "deal_score": _deal_score_in,
    "winner": optional_int_in,
}


def apply_with_outcome(state: State, move: Move) -> tuple[State, MoveOutcome]:
    """Apply ``move`` with :func:`chkobba.apply` and tell what it did:
    ``(after, outcome)``.

    One call, not a diff of two states given by the caller: the outcome cannot disagree
    with the state it comes with, and what no state holds (the table of a voided deal) is
    known at the move. The new state comes beside the outcome, not inside it, so that an
    outcome is public through and through (its repr, equality and data never hold a
    hidden card): send it to everyone, and each seat ``observe(after, seat)``, never
    ``after`` itself.
    Everything follows the state's rules profile. An illegal move raises
    :class:`~chkobba.IllegalMoveError` and anything but a state
    :class:`~chkobba.ChkobbaError`, exactly as :func:`~chkobba.apply` does.

    The CardRulesPlus profile has no cut: the shuffle deals, and here three kings void it.

    >>> kings = cards("AS AH AD AC 2S 2H KS KH KD 3S")  # one card at a time, then the table
    >>> match = new_match(rules=CARD_RULES_PLUS)
    >>> order = Shuffle(kings + tuple(c for c in DECK if c not in kings))
    >>> after, what = apply_with_outcome(match, order)
    >>> what
    MoveOutcome('shuffle', dealt_table=cards('KS KH KD 3S'), void=True)
    >>> after.phase, after.dealer
    (<Phase.SHUFFLE: 'shuffle'>, 0)
    """
    after = apply(state, move)  # checks the state and the move
    try:  # apply plays on with some broken hand-built states (see check_state)
        return after, _outcome(state, move, after)
    except ChkobbaError:
        raise
    except Exception as error:
        raise broken_state(state, error) from None


def _outcome(state: State, move: Move, after: State) -> MoveOutcome:
    """What ``move`` did, from ``state`` to ``after`` (see :func:`apply_with_outcome`)."""
    if isinstance(move, Play):
        return _played(state, move, after)
    void = after.phase is Phase.SHUFFLE  # a dealing move that ends between deals voided
    if isinstance(move, Cut):
        top = state.stock[0]
        dealt = _dealt(state, state.stock, move.keep)
        exposed = None if move.keep else top
        return MoveOutcome(
            "cut", state.current_player, move.keep, exposed, dealt_table=dealt, void=void
        )
    if state.rules.cut:  # the cut deals: the shuffle shows nothing
        return MoveOutcome("shuffle")
    return MoveOutcome("shuffle", dealt_table=_dealt(state, move.order, None), void=void)


def _dealt(state: State, order: tuple[Card, ...], keep: bool | None) -> tuple[Card, ...]:
    """The table that ``order`` deals (the cut card first when exposed), in dealt order."""
    return _kernel.deal_hands(order, state.players, state.cutter, keep)[1]


def _played(before: State, move: Play, after: State) -> MoveOutcome:
    player, rules, capture = before.mover, before.rules, move.capture
    table = [c for c in before.table if c not in capture] if capture else [*before.table, move.card]
    round_over = sum(map(len, before.hands)) == 1  # this was the round's last card
    last_card = round_over and not before.stock
    chkobba = bool(capture) and not table and (not last_card or rules.last_card_chkobba)
    facts: dict[str, Any] = {"card": move.card, "captured": capture, "chkobba": chkobba}
    if not last_card:
        return MoveOutcome("play", player, refilled=round_over, **facts)
    capturer = player if capture else before.last_capturer
    side = capturer % before.sides if capturer is not None and table else None
    return MoveOutcome(
        "play",
        player,
        leftovers=tuple(table),
        leftovers_side=side,
        deal_score=after.deal_scores[-1],
        winner=after.winner,
        **facts,
    )


def _unpickled(fields: dict[str, Any]) -> MoveOutcome:
    """A pickled :class:`MoveOutcome` again (see its ``__reduce__``)."""
    return MoveOutcome(**fields)
