"""Scoring one deal: the categories of the rule profile plus chkobbas, for 2 or 3 sides.

Under the Tunisian profile a side scores, per deal, 1 for more than 20 cards (karta), 1 for
more than 5 diamonds (dinari), 1 for the bermila (more sevens; if equal, more sixes), 1 for
the seven of diamonds (7ayya) and 1 per chkobba. A tied category earns nothing. Other
profiles change the categories (:class:`~chkobba.Rules` fields ``majority``,
``sevens_bermila``, ``seven_of_diamonds``, ``primiera``, ``ties_to_last_capturer``).

The worked example of the rules (side 0 has 22 cards, 6 diamonds, the 7♦, two sevens,
three sixes and one chkobba):

>>> a = cards("7D 7S 6S 6H 6C AD 2D 3D 4D 5D AS AH AC 2S 2H 2C 3S 3H 3C 4S 4H 4C")
>>> b = [c for c in DECK if c not in a]
>>> score = score_deal((a, b), (1, 0))
>>> score.points
(5, 0)
>>> score.cards_winner, score.diamonds_winner, score.bermila_winner
(0, 0, 0)
>>> score.winners["seven_of_diamonds"], score.winners["primiera"]
(0, None)

The same piles under CardRulesPlus (no sevens-and-sixes bermila, the 7♦ still counts):

>>> score_deal((a, b), (1, 0), CARD_RULES_PLUS).points
(4, 0)
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, overload

import attrs

from chkobba._describe import integral, plain_flag
from chkobba._json import document_text, read_document
from chkobba.cards import DECK, Card, Rank, Suit
from chkobba.errors import ChkobbaError, items_of, shown
from chkobba.rules import CATEGORIES, TUNISIAN, Rules, not_a_profile

__all__ = ["CATEGORIES", "PRIMIERA_VALUES", "DealScore", "score_deal"]


def __getattr__(name: str) -> object:
    """``SIDES``, the number of sides of a 2- or 4-player match (2): kept for one release
    for code written before 3-player matches existed, with a :class:`DeprecationWarning`;
    use :attr:`State.sides <chkobba.State.sides>` instead."""
    if name == "SIDES":
        warnings.warn(
            "chkobba.scoring.SIDES is deprecated and stays for one release: use State.sides "
            "(3 in a 3-player match)",
            DeprecationWarning,
            stacklevel=2,
        )
        return 2
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The primiera value of each rank: per suit a side's best card counts.
PRIMIERA_VALUES: Mapping[Rank, int] = MappingProxyType(
    {
        Rank.SEVEN: 21,
        Rank.SIX: 18,
        Rank.ACE: 16,
        Rank.FIVE: 15,
        Rank.FOUR: 14,
        Rank.THREE: 13,
        Rank.TWO: 12,
        Rank.QUEEN: 10,
        Rank.JACK: 10,
        Rank.KING: 10,
    }
)
_DECK_SIZE = len(DECK)
# Shared with chkobba._kernel (not in __all__), like majority, bermila and unique_best.
SEVEN_OF_DIAMONDS = Card(Rank.SEVEN, Suit.DIAMONDS)
_SEVEN_OF_DIAMONDS_ALONE = frozenset((SEVEN_OF_DIAMONDS,))
_DIAMONDS = frozenset(c for c in DECK if c.suit is Suit.DIAMONDS)
_SEVENS = frozenset(c for c in DECK if c.rank is Rank.SEVEN)
_SIXES = frozenset(c for c in DECK if c.rank is Rank.SIX)
# The old names of the winner fields (0.1.0), accepted by DealScore() for one release.
_OLD_NAMES = {name: f"{name}_winner" for name in CATEGORIES[:4]}


# Not slotted, like State: the engine builds one at the end of every deal (and of every
# rollout) by writing its instance dict at once, far cheaper than a frozen slotted
# class's setattr call per field.
@attrs.frozen(init=False, slots=False)
class DealScore:
    """The score of one completed deal, one entry per side in every tuple.

    Each ``*_winner`` field names the side that won the category, or ``None`` when nobody
    did (a tie; with three sides and ``majority="more_than_half"``, no side past half the
    cards or diamonds, 15-13-12 say; a category the profile does not play; or for the 7♦
    a card that went to no side); :attr:`winners` maps the category names to them.
    ``points`` is each side's total for the deal, chkobbas included. The ``*_counts``
    fields keep the tallies behind the categories; ``primiera_sums`` is each side's
    primiera sum (0 for a side missing a suit, which cannot win it).

    ``cards``, ``diamonds``, ``bermila``, ``seven_of_diamonds`` and ``primiera`` are
    aliases of the ``*_winner`` fields: the first four are the 0.1.0 names, kept for one
    release (``DealScore(cards=0, ...)`` meant "side 0 won the cards", not "zero cards"),
    and reading them or passing them to ``DealScore()`` warns with a
    :class:`DeprecationWarning`.

    For example, side 0 takes the spades and diamonds, side 1 the rest and one chkobba:

    >>> a = [c for c in DECK if c.suit in (Suit.SPADES, Suit.DIAMONDS)]
    >>> score = score_deal((a, [c for c in DECK if c not in a]), (0, 1))
    >>> score.card_counts, score.diamond_counts, score.seven_counts, score.six_counts
    ((20, 20), (10, 0), (2, 2), (2, 2))
    >>> score.cards_winner, score.bermila_winner, score.seven_of_diamonds_winner  # ties: None
    (None, None, 0)
    >>> score.points, score.sides
    ((2, 1), 2)
    """

    cards_winner: int | None
    diamonds_winner: int | None
    bermila_winner: int | None
    seven_of_diamonds_winner: int | None
    chkobbas: tuple[int, ...]
    points: tuple[int, ...]
    card_counts: tuple[int, ...]
    diamond_counts: tuple[int, ...]
    seven_counts: tuple[int, ...]
    six_counts: tuple[int, ...]
    primiera_winner: int | None = None
    primiera_sums: tuple[int, ...] = ()

    # The fields as type checkers see them (the attrs signature), then the 0.1.0 names,
    # keyword-only; the one implementation takes both. Without the overloads a checker
    # saw (*args: Any, **fields: Any) and let any call through.
    @overload
    def __init__(
        self,
        cards_winner: int | None,
        diamonds_winner: int | None,
        bermila_winner: int | None,
        seven_of_diamonds_winner: int | None,
        chkobbas: tuple[int, ...],
        points: tuple[int, ...],
        card_counts: tuple[int, ...],
        diamond_counts: tuple[int, ...],
        seven_counts: tuple[int, ...],
        six_counts: tuple[int, ...],
        primiera_winner: int | None = None,
        primiera_sums: tuple[int, ...] = (),
    ) -> None: ...

    @overload
    def __init__(
        self,
        *,
        cards: int | None,
        diamonds: int | None,
        bermila: int | None,
        seven_of_diamonds: int | None,
        chkobbas: tuple[int, ...],
        points: tuple[int, ...],
        card_counts: tuple[int, ...],
        diamond_counts: tuple[int, ...],
        seven_counts: tuple[int, ...],
        six_counts: tuple[int, ...],
        primiera_winner: int | None = None,
        primiera_sums: tuple[int, ...] = (),
    ) -> None: ...

    def __init__(self, *args: Any, **fields: Any) -> None:
        for old, new in _OLD_NAMES.items():
            if old in fields:
                if new in fields:
                    raise ChkobbaError(f"DealScore: {old} is an old name of {new}; give one")
                _deprecated(old, new)
                fields[new] = fields.pop(old)
        self.__attrs_init__(*args, **fields)

    def __setstate__(self, fields: dict[str, Any]) -> None:
        # Read a pickled score, also one pickled by chkobba 0.1.0, whose winners had the old names
        # (``cards``, …: instance entries that the aliases would hide) and which had no primiera.
        given = dict(fields)
        for old, new in _OLD_NAMES.items():
            if old in given:
                given[new] = given.pop(old)
        given.setdefault("primiera_winner", None)
        given.setdefault("primiera_sums", ())
        # In the fields' order, as a score made now holds them: it pickles the same.
        values = {name: given.pop(name) for name in _FIELD_ORDER if name in given}
        object.__setattr__(self, "__dict__", {**values, **given})

    @property
    def winners(self) -> Mapping[str, int | None]:
        """The winning side of each category (:data:`CATEGORIES`), ``None`` for nobody."""
        return {
            "cards": self.cards_winner,
            "diamonds": self.diamonds_winner,
            "bermila": self.bermila_winner,
            "seven_of_diamonds": self.seven_of_diamonds_winner,
            "primiera": self.primiera_winner,
        }

    @property
    def sides(self) -> int:
        """How many sides the deal was scored for."""
        return len(self.points)

    @property
    def cards(self) -> int | None:
        """Alias of :attr:`cards_winner` (the 0.1.0 name, kept for one release; reading
        it warns with a :class:`DeprecationWarning`)."""
        _deprecated("cards", "cards_winner")
        return self.cards_winner

    @property
    def diamonds(self) -> int | None:
        """Alias of :attr:`diamonds_winner` (the 0.1.0 name, kept for one release; reading
        it warns with a :class:`DeprecationWarning`)."""
        _deprecated("diamonds", "diamonds_winner")
        return self.diamonds_winner

    @property
    def bermila(self) -> int | None:
        """Alias of :attr:`bermila_winner` (the 0.1.0 name, kept for one release; reading
        it warns with a :class:`DeprecationWarning`)."""
        _deprecated("bermila", "bermila_winner")
        return self.bermila_winner

    @property
    def seven_of_diamonds(self) -> int | None:
        """Alias of :attr:`seven_of_diamonds_winner` (the 0.1.0 name, kept for one release; reading
        it warns with a :class:`DeprecationWarning`)."""
        _deprecated("seven_of_diamonds", "seven_of_diamonds_winner")
        return self.seven_of_diamonds_winner

    @property
    def primiera(self) -> int | None:
        """Alias of :attr:`primiera_winner`, named like the other categories."""
        return self.primiera_winner

    def to_dict(self) -> dict[str, Any]:
        """The score as JSON-ready data: every field by name, tuples as lists, numbers as
        plain ints (numpy's too). Each of :meth:`State.to_dict
        <chkobba.State.to_dict>`'s ``deal_scores`` is one, and so is a
        :class:`~chkobba.events.MoveOutcome`'s ``deal_score``.

        >>> a = [c for c in DECK if c.suit in (Suit.SPADES, Suit.DIAMONDS)]
        >>> score = score_deal((a, [c for c in DECK if c not in a]), (0, 1))
        >>> data = score.to_dict()
        >>> data["points"], data["cards_winner"], data["seven_of_diamonds_winner"]
        ([2, 1], None, 0)
        >>> DealScore.from_dict(data) == score
        True
        """
        return {name: _plain_number(getattr(self, name)) for name in _FIELD_ORDER}

    @classmethod
    def from_dict(cls, data: object) -> DealScore:
        """The score that :meth:`to_dict` wrote, checked: every field required, and the
        score one a deal can make (2 or 3 sides, winners among them, tallies within the
        deck, points that are the chkobbas plus the categories won). A problem raises
        :class:`~chkobba.ChkobbaError` naming the field.

        >>> a = [c for c in DECK if c.suit in (Suit.SPADES, Suit.DIAMONDS)]
        >>> data = score_deal((a, [c for c in DECK if c not in a]), (0, 1)).to_dict()
        >>> DealScore.from_dict({**data, "cards_winner": 2})
        Traceback (most recent call last):
        ...
        chkobba.errors.ChkobbaError: deal_score.cards_winner must be a side from 0 to 1 or ...
        """
        from chkobba.checks import lone_deal_score_problem  # they import this module
        from chkobba.snapshots import deal_score_in

        score = deal_score_in("deal_score", data)
        problem = lone_deal_score_problem(score)
        if problem is not None:
            raise ChkobbaError(problem)
        return score

    @staticmethod
    def json_schema() -> dict[str, Any]:
        """The JSON Schema of :meth:`to_dict`'s object, shipped in the package as
        ``chkobba/deal_score.schema.json``: the ``deal_score`` definition of the state's
        schema (``chkobba/state.schema.json``, see docs/api.md) as a schema of its own, for
        a client in another language to check a score it is sent.

        >>> schema = DealScore.json_schema()
        >>> schema["$id"], schema["required"][:2]
        ('urn:chkobba:deal-score:1', ['cards_winner', 'diamonds_winner'])
        """
        from chkobba.snapshots import shipped_schema  # it imports this module

        return shipped_schema("deal_score.schema.json")

    def to_json(self, *, compact: bool = False) -> str:
        """:meth:`to_dict`'s object as JSON text, one field a line; ``compact=True``
        writes one line without spaces.

        >>> a = [c for c in DECK if c.suit in (Suit.SPADES, Suit.DIAMONDS)]
        >>> score = score_deal((a, [c for c in DECK if c not in a]), (0, 1))
        >>> DealScore.from_json(score.to_json(compact=True)) == score
        True
        """
        return document_text(self.to_dict(), plain_flag("compact", compact))

    @classmethod
    def from_json(cls, text: str | bytes | bytearray | memoryview) -> DealScore:
        """The score in JSON text (a ``str``, or UTF-8 in ``bytes``, a ``bytearray`` or a
        ``memoryview``) holding :meth:`to_dict`'s object, checked as :meth:`from_dict`
        checks it."""
        return cls.from_dict(read_document(text, "DealScore.from_json", "a deal score"))


def _plain_number(value: Any) -> Any:
    """A field's value as JSON writes it: a tuple as a list, an integer (numpy's, from a
    count that came in an array) as a plain int."""
    if isinstance(value, tuple):
        return [_plain_number(item) for item in value]
    if value is None or type(value) is int or isinstance(value, bool):
        return value  # (a flag is no count: written as it is, and from_dict refuses it)
    try:
        return operator.index(value)
    except TypeError:
        return value  # (not a number: a score built by hand; from_dict refuses it)


def _deprecated(old: str, new: str) -> None:
    """Warn the caller of the alias (or of ``DealScore()``, two frames up) that ``old`` is
    the 0.1.0 name of ``new``."""
    warnings.warn(
        f"DealScore.{old} is the 0.1.0 name of {new}, kept for one release: use {new}",
        DeprecationWarning,
        stacklevel=3,
    )


#: DealScore's fields in their order (a pickle read back keeps it).
_FIELD_ORDER = tuple(field.name for field in attrs.fields(DealScore))


def score_deal(
    captured: Sequence[Sequence[Card]],
    chkobbas: Sequence[int],
    rules: Rules = TUNISIAN,
    *,
    last_capturer_side: int | None = None,
) -> DealScore:
    """Score a deal from each side's captured pile and chkobba count under ``rules``.

    ``last_capturer_side`` is the side of the deal's last capture; it matters only with
    ``rules.ties_to_last_capturer``. Raises :class:`~chkobba.errors.ChkobbaError` for
    inputs that cannot come from a deal: not 2 or 3 sides, a chkobba count per side,
    something that is not a card, a card in two piles, a negative chkobba count.

    A 20-20 split of the cards wins nobody the cards point, unless the profile gives
    ties to the last capturer:

    >>> import attrs
    >>> a = [c for c in DECK if c.suit in (Suit.SPADES, Suit.DIAMONDS)]
    >>> b = [c for c in DECK if c not in a]
    >>> score_deal((a, b), (0, 0)).cards_winner is None
    True
    >>> house = attrs.evolve(TUNISIAN, ties_to_last_capturer=True)
    >>> score_deal((a, b), (0, 0), house, last_capturer_side=1).cards_winner
    1
    >>> score_deal((a, a), (0, 0))
    Traceback (most recent call last):
    ...
    chkobba.errors.ChkobbaError: score_deal: AS is in the piles twice
    """
    if not isinstance(rules, Rules):
        raise ChkobbaError(f"score_deal: {not_a_profile(rules)}")
    piles = tuple(
        items_of(pile, "score_deal: a pile") for pile in items_of(captured, "score_deal: captured")
    )
    # numpy's integers too (a count from an array), kept as the ints they are
    sweeps = tuple(integral(n) for n in items_of(chkobbas, "score_deal: chkobbas"))
    last_capturer_side = integral(last_capturer_side)
    _check(piles, sweeps, last_capturer_side)
    return _score(piles, sweeps, rules, last_capturer_side)


def _score(
    piles: tuple[tuple[Card, ...], ...],
    sweeps: tuple[int, ...],
    rules: Rules,
    last_side: int | None,
) -> DealScore:
    # Set intersections count in C: this runs at the end of every deal of every playout.
    card_counts = tuple(len(pile) for pile in piles)
    diamond_counts = tuple(len(_DIAMONDS.intersection(pile)) for pile in piles)
    seven_counts = tuple(len(_SEVENS.intersection(pile)) for pile in piles)
    six_counts = tuple(len(_SIXES.intersection(pile)) for pile in piles)
    primiera_sums = tuple(_primiera_sum(pile) for pile in piles)
    categories = (
        majority(card_counts, _DECK_SIZE // 2, rules, last_side),
        majority(diamond_counts, len(_DIAMONDS) // 2, rules, last_side),
        bermila(seven_counts, six_counts) if rules.sevens_bermila else None,
        _holder(piles, _SEVEN_OF_DIAMONDS_ALONE) if rules.seven_of_diamonds else None,
        unique_best(primiera_sums) if rules.primiera else None,
    )
    points = tuple(n + categories.count(side) for side, n in enumerate(sweeps))
    return DealScore(
        *categories[:4],
        chkobbas=sweeps,
        points=points,
        card_counts=card_counts,
        diamond_counts=diamond_counts,
        seven_counts=seven_counts,
        six_counts=six_counts,
        primiera_winner=categories[4],
        primiera_sums=primiera_sums,
    )


# majority, bermila and unique_best carry no underscore: chkobba._kernel's packed scorer
# decides the categories with them too. They are internal helpers, not in __all__, and
# say what they do in comments: the API reference shows every public name's docstring.


def majority(counts: tuple[int, ...], half: int, rules: Rules, last_side: int | None) -> int | None:
    # The cards or diamonds category: ``half`` is half of what there is to take. The
    # leaders are counted and found in C (count, index); their list is built only for a
    # tie the last capturer may break (a comprehension costs a frame: 3k instructions).
    best = max(counts)
    if rules.majority == "more_than_half":
        # "More than half" rather than "more than the others": with leftovers that went
        # to nobody, 20-18 cards is still no point. Its only tie is an even split.
        if best > half:
            return counts.index(best)
        tied = best == half and counts.count(best) > 1
    else:
        if counts.count(best) == 1:
            return counts.index(best)
        tied = True
    if (
        tied
        and rules.ties_to_last_capturer
        and last_side in [side for side, n in enumerate(counts) if n == best]
    ):
        return last_side
    return None


def bermila(sevens: tuple[int, ...], sixes: tuple[int, ...]) -> int | None:
    # Most sevens; among the sides tied on sevens, most sixes; else nobody. A single
    # leader, the common case, is found in C (as in majority).
    most = max(sevens)
    if sevens.count(most) == 1:
        return sevens.index(most)
    leaders = [side for side, n in enumerate(sevens) if n == most]
    return unique_best(tuple(sixes[side] if side in leaders else -1 for side in range(len(sixes))))


def unique_best(values: tuple[int, ...]) -> int | None:
    # The side with strictly the highest value, or None when the highest is shared.
    best = max(values)
    if values.count(best) > 1:
        return None
    return values.index(best)


def _holder(piles: tuple[tuple[Card, ...], ...], alone: frozenset[Card]) -> int | None:
    return next((side for side, pile in enumerate(piles) if alone.intersection(pile)), None)


def _primiera_sum(pile: tuple[Card, ...]) -> int:
    """The sum of the best primiera value in each suit; 0 when a suit is missing."""
    best = dict.fromkeys(Suit, 0)
    for c in pile:
        best[c.suit] = max(best[c.suit], PRIMIERA_VALUES[c.rank])
    return 0 if 0 in best.values() else sum(best.values())


def _check(
    piles: tuple[tuple[Card, ...], ...], sweeps: tuple[int, ...], last_side: int | None
) -> None:
    if len(piles) not in (2, 3) or len(sweeps) != len(piles):
        raise ChkobbaError(
            "score_deal needs 2 or 3 piles (one per side) and as many chkobba counts, "
            f"got {len(piles)} and {len(sweeps)}"
        )
    for n in sweeps:
        if type(n) is not int or n < 0:
            raise ChkobbaError(f"score_deal: chkobba count {shown(n)} is not a whole number >= 0")
    if last_side is not None and (type(last_side) is not int or not 0 <= last_side < len(piles)):
        raise ChkobbaError(
            f"score_deal: last_capturer_side must be a side from 0 to {len(piles) - 1} "
            f"or None, not {shown(last_side)}"
        )
    everything = [c for pile in piles for c in pile]
    for c in everything:
        if not isinstance(c, Card):
            raise ChkobbaError(f"score_deal: {shown(c)} in a pile is not a card")
    if len(set(everything)) != len(everything):
        twice = sorted(c for c in set(everything) if everything.count(c) > 1)
        raise ChkobbaError(f"score_deal: {twice[0]} is in the piles twice")
