"""Rule profiles: every rule that differs between houses, as one frozen value.

Two named profiles ship with the library: :data:`TUNISIAN` (the default, Q=8 J=9 K=10,
play to 21) and :data:`CARD_RULES_PLUS` (J=8 Q=9 K=10, no cut card, play to 11). A house
rule is one field away: ``attrs.evolve(TUNISIAN, target=16)``. A profile is frozen and
hashable, so it can key caches and travel inside a :class:`~chkobba.State`.

>>> TUNISIAN.value(card("QH")), TUNISIAN.value(card("JH")), TUNISIAN.value(card("KH"))
(8, 9, 10)
>>> TUNISIAN.target
21
>>> CARD_RULES_PLUS.value(card("QH")), CARD_RULES_PLUS.value(card("JH"))
(9, 8)
>>> sorted(PROFILES)
['cardrulesplus', 'tunisian']
>>> Rules(players=(5,))
Traceback (most recent call last):
...
chkobba.errors.ChkobbaError: players must be a tuple of the player counts ...; got (5,)
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import unicodedata
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, Literal

import attrs

from chkobba._describe import int_converter, integral, not_an_int, plain_flag
from chkobba._files import write_atomically
from chkobba._json import bad_byte, document_text, file_name, read_document, strict_loads, utf8_text
from chkobba.cards import DECK, Card, Rank
from chkobba.errors import ChkobbaError, shown_path
from chkobba.errors import shown as _shown

__all__ = [
    "CAPTURE_VALUE_LIMIT",
    "CARD_RULES_PLUS",
    "MAJORITIES",
    "PLAYER_COUNTS",
    "PROFILES",
    "TUNISIAN",
    "VOID_DEALS",
    "Majority",
    "Rules",
    "VoidDeal",
    "not_a_profile",
    "profile",
]

_TUNISIAN_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)  # A 2 3 4 5 6 7 Q J K
#: The player counts a profile may allow: 2 (two sides), 3 (three sides), 4 (partnerships).
PLAYER_COUNTS = (2, 3, 4)
_NAME_LIMIT = 60
# The largest file Rules.load reads: a profile is well under a kilobyte, and the limit
# keeps a wrong path (a device, a log) from being read whole.
_FILE_LIMIT = 64 * 1024

#: The type of :attr:`Rules.void_deal`: text from user input narrows to it with
#: ``if text in VOID_DEALS``, for a type checker too.
VoidDeal = Literal["three_of_a_rank", "three_kings", "never"]
#: The type of :attr:`Rules.majority` (``if text in MAJORITIES`` narrows to it).
Majority = Literal["more_than_half", "most"]
#: The values of :attr:`Rules.void_deal`.
VOID_DEALS: tuple[VoidDeal, ...] = ("three_of_a_rank", "three_kings", "never")
#: The values of :attr:`Rules.majority`.
MAJORITIES: tuple[Majority, ...] = ("more_than_half", "most")


def _check_name(instance: Rules, attribute: object, value: object) -> None:
    if (
        type(value) is not str
        or not value.strip()
        or len(value) > _NAME_LIMIT
        or not all(_printable(character, _READING.get()) for character in value)
    ):
        raise ChkobbaError(
            f"name must be printable text, not blank, of at most {_NAME_LIMIT} characters, "
            f"got {_shown(value)}"
        )


def _printable(character: str, reading: bool) -> bool:
    """Whether a name may hold ``character``: printable (``str.isprintable``), or, in a
    document being read, a character this Python's Unicode tables do not know yet.

    A newer Python knows more (Python 3.13's 🫨, Unicode 15): a name it writes must read
    back under an older one. A name built here holds only what this Python can print,
    so that a newer one, which may know such a character as a format control, reads it
    too. A noncharacter (U+FFFF and its kind) is never assigned, and is refused."""
    if character.isprintable():
        return True
    point = ord(character)
    noncharacter = 0xFDD0 <= point <= 0xFDEF or point & 0xFFFE == 0xFFFE
    return reading and unicodedata.category(character) == "Cn" and not noncharacter


#: True while a document is read (:func:`reading_a_document`).
_READING: contextvars.ContextVar[bool] = contextvars.ContextVar("_READING", default=False)


@contextlib.contextmanager
def reading_a_document() -> Iterator[None]:
    """The profiles built inside come from a document (JSON, a record): their names may
    hold characters too new for this Python (see :func:`_printable`)."""
    token = _READING.set(True)
    try:
        yield
    finally:
        _READING.reset(token)


#: The largest capture value: the 40 cards' values then sum to at most 40,000, which the
#: adapters' float32 observations hold exactly.
CAPTURE_VALUE_LIMIT = 1000


def _to_ints(value: tuple[int, ...]) -> tuple[int, ...]:
    """A tuple's integers of other integral types as ints; anything else as it is."""
    return tuple(integral(item) for item in value) if isinstance(value, tuple) else value


def _check_values(instance: Rules, attribute: object, value: object) -> None:
    if (
        not isinstance(value, tuple)
        or len(value) != len(Rank)
        or not all(type(v) is int and 0 < v <= CAPTURE_VALUE_LIMIT for v in value)
    ):
        raise ChkobbaError(
            f"capture_values must be a tuple of {len(Rank)} integers from 1 to "
            f"{CAPTURE_VALUE_LIMIT} in rank order A 2 3 4 5 6 7 Q J K (a list in JSON), "
            f"got {_shown(value)}"
        )


def _check_target(instance: Rules, attribute: object, value: object) -> None:
    if type(value) is not int or not 0 < value <= 10_000:
        raise ChkobbaError(f"target must be a positive integer, at most 10000, got {_shown(value)}")


def _check_players(instance: Rules, attribute: object, value: object) -> None:
    if (
        not isinstance(value, tuple)
        or not value
        or not all(type(n) is int and n in PLAYER_COUNTS for n in value)
        or list(value) != sorted(set(value))
    ):
        raise ChkobbaError(  # says the whole rule: (4, 2) or (2, 2) are counts from 2, 3, 4
            "players must be a tuple of the player counts a match may have, each of 2, 3 or 4 "
            f"at most once, in increasing order: (2, 4), or [2, 4] in JSON; got {_shown(value)}"
        )


def _check_bool(instance: Rules, attribute: attrs.Attribute[Any], value: object) -> None:
    if type(value) is not bool:
        raise ChkobbaError(f"{attribute.name} must be True or False, got {_shown(value)}")


def _one_of(choices: tuple[str, ...]) -> Any:
    def check(instance: Rules, attribute: attrs.Attribute[Any], value: object) -> None:
        if type(value) is not str or value not in choices:
            raise ChkobbaError(
                f"{attribute.name} must be one of {', '.join(map(repr, choices))}, "
                f"got {_shown(value)}"
            )

    return check


@attrs.frozen(cache_hash=True)
class Rules:
    """A complete rule profile (see ``docs/rules.md`` for every field and who plays it).

    Fields, with the :data:`TUNISIAN` defaults:

    - ``name`` (``"tunisian"``): the profile's name.
    - ``capture_values`` (``(1, …, 10)``): the value of each rank in the order
      ``A 2 3 4 5 6 7 Q J K``, each from 1 to :data:`CAPTURE_VALUE_LIMIT` (1000).
    - ``target`` (21): after a deal, if any side has reached it, the unique highest total
      wins; a shared highest total plays another deal.
    - ``players`` (``(2, 4)``): the allowed player counts, from 2, 3 (three sides, each
      for himself) and 4 (partnerships, side ``player % 2``).
    - ``cut`` (True): the cutter keeps or exposes the top card. False: no ``CUT`` phase;
      after the shuffle one card at a time goes to each player from the dealer's right
      until every hand holds 3, then 4 to the table.
    - ``void_deal`` (``"three_of_a_rank"``): which table voids the deal:
      ``"three_of_a_rank"`` (3 or 4 cards of one rank), ``"three_kings"`` or ``"never"``.
    - ``equal_single_first`` (True): an equal single must be taken before any sum. False:
      any equal single or any sum group.
    - ``courts_capture_sums`` (True): False: a played Q, J or K takes only an equal single.
    - ``last_card_chkobba`` (False): True: a sweep with the deal's very last card counts.
    - ``majority`` (``"more_than_half"``): cards and diamonds points go to the side with
      more than half (> 20 cards, > 5 diamonds), or with ``"most"``, strictly the most.
    - ``sevens_bermila`` (True): a point for most sevens, equal sevens broken by sixes.
    - ``seven_of_diamonds`` (True): a point for the 7♦.
    - ``primiera`` (False): the Italian primiera point.
    - ``ties_to_last_capturer`` (False): a tied cards or diamonds category goes to the
      deal's last capturer when that side is among the tied leaders.

    A house profile is a named profile with some fields changed; a match plays under it:

    >>> import attrs
    >>> house = attrs.evolve(TUNISIAN, name="house", target=16, primiera=True)
    >>> Rules() == TUNISIAN, house == TUNISIAN
    (True, False)
    >>> new_match(rules=house).rules.target
    16
    >>> Rules(majority="all")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: majority must be one of 'more_than_half', 'most', got 'all'
    """

    name: str = attrs.field(default="tunisian", validator=_check_name)
    capture_values: tuple[int, ...] = attrs.field(
        default=_TUNISIAN_VALUES, converter=_to_ints, validator=_check_values
    )
    target: int = attrs.field(default=21, converter=int_converter, validator=_check_target)
    players: tuple[int, ...] = attrs.field(
        default=(2, 4), converter=_to_ints, validator=_check_players, kw_only=True
    )
    # Each keyword-only field is an attrs.field call written out: type checkers (mypy's
    # attrs plugin, pyright's dataclass_transform) see kw_only only there, and a helper
    # returning the field would show them the flags as positional parameters.
    cut: bool = attrs.field(default=True, validator=_check_bool, kw_only=True)
    void_deal: VoidDeal = attrs.field(
        default="three_of_a_rank", validator=_one_of(VOID_DEALS), kw_only=True
    )
    equal_single_first: bool = attrs.field(default=True, validator=_check_bool, kw_only=True)
    courts_capture_sums: bool = attrs.field(default=True, validator=_check_bool, kw_only=True)
    last_card_chkobba: bool = attrs.field(default=False, validator=_check_bool, kw_only=True)
    majority: Majority = attrs.field(
        default="more_than_half", validator=_one_of(MAJORITIES), kw_only=True
    )
    sevens_bermila: bool = attrs.field(default=True, validator=_check_bool, kw_only=True)
    seven_of_diamonds: bool = attrs.field(default=True, validator=_check_bool, kw_only=True)
    primiera: bool = attrs.field(default=False, validator=_check_bool, kw_only=True)
    ties_to_last_capturer: bool = attrs.field(default=False, validator=_check_bool, kw_only=True)
    #: Capture value of each card, indexed by :attr:`Card.index` (derived, for speed).
    card_values: tuple[int, ...] = attrs.field(init=False, eq=False, hash=False, repr=False)

    def __attrs_post_init__(self) -> None:
        ranks = tuple(Rank)
        by_card = tuple(self.capture_values[ranks.index(c.rank)] for c in DECK)
        object.__setattr__(self, "card_values", by_card)

    def __copy__(self) -> Rules:
        return self  # immutable: a copy would only be another object to compare

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        # Itself, as a State's copy is: a deep copy of an object holding a profile twice
        # (an OpenSpiel state's own and its position's) keeps it once, so the copy
        # pickles (serializes) to the same bytes as the original.
        return self

    def __getstate__(self) -> dict[str, Any]:
        # What a pickle holds: the profile's fields (its derived table is worked out again when it
        # is read).
        return {name: getattr(self, name) for name in _PROFILE_FIELDS}

    def __setstate__(self, fields: dict[str, Any]) -> None:
        # Read a pickled profile, also one pickled by an earlier version: chkobba 0.1.0's profile
        # had only ``name``, ``capture_values`` and ``target``, and a field a pickle lacks takes its
        # default (the Tunisian profile's, the only one 0.1.0 played). The fields are checked as
        # ``Rules(...)`` checks them.
        try:
            with reading_a_document():  # (a pickle is one: it may come from a newer Python)
                made = Rules(**{name: fields[name] for name in _PROFILE_FIELDS if name in fields})
        except ChkobbaError as error:  # (a 0.1.0 profile out of today's range, say)
            raise ChkobbaError(f"cannot read a pickled rule profile: {error}") from None
        for name in _ALL_FIELDS:
            object.__setattr__(self, name, getattr(made, name))
        object.__setattr__(self, "_attrs_cached_hash", None)  # (cache_hash: worked out anew)

    @property
    def categories(self) -> tuple[str, ...]:
        """The deal-scoring categories this profile plays, in the order of
        :data:`~chkobba.scoring.CATEGORIES` (and of :attr:`DealScore.winners
        <chkobba.DealScore.winners>`): a winner of ``None`` in a category listed here means
        nobody won it (a tie; with three sides and ``majority="more_than_half"``, no side
        past half; for the 7♦, a card no side took); one not listed is never played.

        >>> TUNISIAN.categories
        ('cards', 'diamonds', 'bermila', 'seven_of_diamonds')
        >>> CARD_RULES_PLUS.categories
        ('cards', 'diamonds', 'seven_of_diamonds')
        """
        played = {
            "bermila": self.sevens_bermila,
            "seven_of_diamonds": self.seven_of_diamonds,
            "primiera": self.primiera,
        }
        return tuple(name for name in CATEGORIES if played.get(name, True))

    def value(self, played: Card | Rank) -> int:
        """The capture value of a card or a rank."""
        if isinstance(played, Rank):
            return self.capture_values[tuple(Rank).index(played)]
        if not isinstance(played, Card):
            raise ChkobbaError(f"value: {_shown(played)} is not a card or a rank")
        return self.card_values[played.index]

    def sides(self, players: int) -> int:
        """How many sides a match of ``players`` has: 2 with partnerships, else one each.

        A player count the profile does not deal to raises
        :class:`~chkobba.ChkobbaError`:

        >>> TUNISIAN.sides(2), TUNISIAN.sides(4), CARD_RULES_PLUS.sides(3)
        (2, 2, 3)
        >>> TUNISIAN.sides(3)
        Traceback (most recent call last):
        ...
        chkobba.errors.ChkobbaError: a match has 2 or 4 players, not 3 (the tunisian profile)
        """
        if type(players) is not int or players not in self.players:
            refusal = not_an_int("players", players)
            if refusal is not None:
                raise refusal
            counts = [str(n) for n in self.players]
            allowed = " or ".join([", ".join(counts[:-1]), counts[-1]] if counts[:-1] else counts)
            raise ChkobbaError(
                f"a match has {allowed} players, not {_shown(players)} (the {self.name} profile)"
            )
        return 2 if players == 4 else players

    def to_dict(self) -> dict[str, Any]:
        """The profile as JSON-ready data: every field by name, tuples as lists.

        It is the ``rules`` object of a state snapshot and of a record, and what a house
        profile's file holds (``chkobba rules NAME`` prints it; ``--rules FILE`` reads it).

        >>> import attrs
        >>> data = attrs.evolve(TUNISIAN, name="house", target=16).to_dict()
        >>> data["name"], data["target"], data["capture_values"][7:]
        ('house', 16, [8, 9, 10])
        >>> Rules.from_dict(data) == attrs.evolve(TUNISIAN, name="house", target=16)
        True
        """
        from chkobba.snapshots import attrs_out  # it imports this module

        return attrs_out(self)

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """The profile that :meth:`to_dict` wrote, with every field required and checked.

        A problem raises :class:`~chkobba.ChkobbaError` naming the field: an unknown or
        missing one, or a value the profile refuses.

        >>> Rules.from_dict({**TUNISIAN.to_dict(), "target": 0})
        Traceback (most recent call last):
        ...
        chkobba.errors.ChkobbaError: rules: target must be a positive integer, at most 10000, got 0
        >>> Rules.from_dict({**TUNISIAN.to_dict(), "primera": True})
        Traceback (most recent call last):
        ...
        chkobba.errors.ChkobbaError: rules: unknown field 'primera'
        """
        from chkobba.snapshots import attrs_in  # it imports this module

        read: Rules = attrs_in(cls)("rules", data)
        return read

    @staticmethod
    def json_schema() -> dict[str, Any]:
        """The JSON Schema of :meth:`to_dict`'s object, the file of a house profile,
        shipped in the package as ``chkobba/rules.schema.json`` (see docs/rules.md): for an
        editor, or a program in another language, to check a profile file before it is
        read.

        >>> Rules.json_schema()["$id"], Rules.json_schema()["required"][:3]
        ('urn:chkobba:rules:1', ['name', 'capture_values', 'target'])
        """
        from chkobba.snapshots import shipped_schema  # it imports this module

        return shipped_schema("rules.schema.json")

    def to_json(self, *, compact: bool = False) -> str:
        """The profile as JSON text, one field per line (lists on theirs), to read and
        edit: what ``chkobba rules NAME`` prints, :meth:`save` writes and :meth:`load`
        and :meth:`from_json` read; ``compact=True`` writes one line without spaces.

        >>> print(TUNISIAN.to_json().splitlines()[2])
          "capture_values": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        >>> Rules.from_json(CARD_RULES_PLUS.to_json()) == CARD_RULES_PLUS
        True
        """
        return document_text(self.to_dict(), plain_flag("compact", compact))

    @classmethod
    def from_json(cls, text: str | bytes | bytearray | memoryview) -> Rules:
        """The profile in JSON text (a ``str``, or UTF-8 in ``bytes``, a ``bytearray`` or a
        ``memoryview``) holding :meth:`to_dict`'s object, checked as :meth:`from_dict`
        checks it; text that is not such JSON raises :class:`~chkobba.ChkobbaError` saying
        why.

        >>> Rules.from_json('{"name": "house"}')
        Traceback (most recent call last):
        ...
        chkobba.errors.ChkobbaError: rules: missing field 'capture_values'
        """
        return cls.from_dict(read_document(text, "Rules.from_json", "a rule profile"))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the profile to a file as UTF-8 JSON (:meth:`to_json`), atomically, as
        :meth:`Record.save <chkobba.Record.save>` writes a record: a failure leaves the
        old file as it was, and a device or a pipe is written to. :meth:`load` reads it
        back, and so does ``--rules FILE``.

        ``path`` is a ``str`` or an :class:`os.PathLike`; errors of the file system are
        :class:`OSError`, as with :func:`open`.

        >>> import attrs, pathlib, tempfile
        >>> house = attrs.evolve(TUNISIAN, name="house", target=31)
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = pathlib.Path(folder) / "house.json"
        ...     house.save(path)
        ...     Rules.load(path) == house
        True
        """
        path = file_name(path, ChkobbaError, "a rule profile's file")
        write_atomically(path, (self.to_json() + "\n").encode("utf-8"))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Rules:
        """The profile in a JSON file holding :meth:`to_dict`'s object (a house profile).

        The file is UTF-8 text (a byte-order mark allowed) of at most 64 KiB. A file that
        cannot be opened raises :class:`OSError` (``FileNotFoundError``,
        ``IsADirectoryError`` …), as :func:`open` does; a file that is no profile raises
        :class:`~chkobba.ChkobbaError` naming the file and what is wrong with it (not
        JSON, a field twice, or what :meth:`from_dict` refuses).
        """
        path = file_name(path, ChkobbaError, "a rule profile's file")
        name = shown_path(path)
        text = _file_text(path, name)
        if not text.strip():  # as Record.load says it
            raise ChkobbaError(f"{name}: the file is empty, not a rule profile")
        try:
            data = strict_loads(text, ChkobbaError, "a rule profile")
        except ChkobbaError as error:
            raise ChkobbaError(f"{name}: {error}") from None
        except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
            kind = _kind_of(text.split("\n", 1)[0])  # a file of records, one a line
            if kind is not None:
                raise ChkobbaError(
                    f"{name} holds {_shown(kind)} lines, not a rule profile"
                ) from None
            raise ChkobbaError(f"{name} is not valid JSON: {error}") from None
        kind = _kind_of(data)
        if kind is not None:  # a record, a state…
            raise ChkobbaError(f"{name} is a {_shown(kind)} file, not a rule profile")
        from chkobba.snapshots import attrs_in  # it imports this module

        read: Rules = attrs_in(cls)(name, data)
        return read


def _kind_of(data: object) -> str | None:
    """The ``format`` of another of the library's JSON documents (``chkobba-record``…),
    given as its data or as one line of JSON text; ``None`` for anything else."""
    if isinstance(data, str):
        try:
            data = strict_loads(data, ChkobbaError, "a line")
        except (ValueError, RecursionError):
            return None
    kind = data.get("format") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) and kind.startswith("chkobba-") else None


def _file_text(path: str | os.PathLike[str], name: str) -> str:
    """The text of a profile's file: UTF-8, at most :data:`_FILE_LIMIT` bytes."""
    with open(path, "rb") as file:
        raw = file.read(_FILE_LIMIT + 1)
    if len(raw) > _FILE_LIMIT:
        raise ChkobbaError(f"{name} is larger than a rule profile ({_FILE_LIMIT // 1024} KiB)")
    try:
        return utf8_text(raw)
    except UnicodeDecodeError as error:
        raise ChkobbaError(f"{name} is not UTF-8 text: {bad_byte(error)}") from None


#: The deal-scoring categories, in the order :attr:`DealScore.winners
#: <chkobba.DealScore.winners>` lists them (re-exported by :mod:`chkobba.scoring`).
CATEGORIES = ("cards", "diamonds", "bermila", "seven_of_diamonds", "primiera")

#: A profile's own fields (what ``Rules(...)`` takes), then every field it holds.
_PROFILE_FIELDS = tuple(field.name for field in attrs.fields(Rules) if field.init)
_ALL_FIELDS = tuple(field.name for field in attrs.fields(Rules))

#: The Tunisian profile, the library's default: Q=8, J=9, K=10; the match is played to 21.
TUNISIAN = Rules()

#: The "CardRulesPlus" summary (docs/rules.md, "The CardRulesPlus profile"): J=8, Q=9,
#: K=10, no cut card, redeal on three kings only, cards and diamonds to the side with the
#: most, the 7♦ as the bermila, 2, 3 or 4 players, play to 11
#: (``attrs.evolve(CARD_RULES_PLUS, target=21)`` for a long match).
CARD_RULES_PLUS = Rules(
    name="cardrulesplus",
    capture_values=(1, 2, 3, 4, 5, 6, 7, 9, 8, 10),
    target=11,
    players=(2, 3, 4),
    cut=False,
    void_deal="three_kings",
    majority="most",
    sevens_bermila=False,
    seven_of_diamonds=True,
)

#: The named profiles by name.
PROFILES: Mapping[str, Rules] = MappingProxyType(
    {TUNISIAN.name: TUNISIAN, CARD_RULES_PLUS.name: CARD_RULES_PLUS}
)


def not_a_profile(value: object) -> str:
    """Why ``value`` cannot stand where a :class:`Rules` profile is asked: the core takes
    only the profile itself, so a profile's name gets a pointer to it (the adapters and
    the command line also take names, through :func:`profile`).

    >>> from chkobba.rules import not_a_profile
    >>> not_a_profile("cardrulesplus")
    "rules must be a Rules profile, not 'cardrulesplus' (that profile is PROFILES['cardrulesplus'])"
    >>> not_a_profile(None)
    'rules must be a Rules profile, not None'
    """
    reason = f"rules must be a Rules profile, not {_shown(value)}"
    if type(value) is str and value in PROFILES:
        return f"{reason} (that profile is PROFILES[{value!r}])"
    return reason


def profile(rules: Rules | str) -> Rules:
    """A profile given as itself or by its name in :data:`PROFILES` (for adapters and CLIs).

    >>> from chkobba.rules import profile
    >>> profile("cardrulesplus") is CARD_RULES_PLUS, profile(TUNISIAN) is TUNISIAN
    (True, True)
    >>> profile("house")
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: no rule profile is named 'house': the profiles are ...
    """
    if isinstance(rules, Rules):
        return rules
    if type(rules) is str and rules in PROFILES:
        return PROFILES[rules]
    # Names are exact, as a JSON file writes them; other cases (CARD_RULES_PLUS) get a pointer.
    hint = ""
    if type(rules) is str:
        folded = rules.lower().replace("_", "").replace("-", "")
        if rules.lower() in PROFILES:
            hint = f" (names are in lower case: {folded!r})"
        elif folded in PROFILES:
            hint = f" (names are one word in lower case: {folded!r})"
    raise ChkobbaError(
        f"no rule profile is named {_shown(rules)}: the profiles are {', '.join(sorted(PROFILES))}"
        + hint
    )
