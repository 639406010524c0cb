"""The rules profile: capture values and the match target.

There is one profile today, :data:`TUNISIAN` (Q=8, J=9, K=10, play to 21). A profile is a
frozen, hashable value, so it can key caches and travel inside a :class:`~chkobba.State`.

>>> TUNISIAN.value(card("QH")), TUNISIAN.value(card("JH")), TUNISIAN.value(card("KH"))
(8, 9, 10)
>>> TUNISIAN.target
21
"""

from __future__ import annotations

import attrs

from chkobba.cards import DECK, Card, Rank
from chkobba.errors import ChkobbaError

__all__ = ["TUNISIAN", "Rules"]

_TUNISIAN_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)  # A 2 3 4 5 6 7 Q J K


def _check_values(instance: Rules, attribute: object, value: object) -> None:
    if (
        not isinstance(value, tuple)
        or len(value) != len(Rank)
        or not all(type(v) is int and v > 0 for v in value)
    ):
        raise ChkobbaError(
            f"capture_values must be {len(Rank)} positive integers in rank order "
            f"A 2 3 4 5 6 7 Q J K, got {value!r}"
        )


def _check_target(instance: Rules, attribute: object, value: object) -> None:
    if type(value) is not int or value <= 0:
        raise ChkobbaError(f"target must be a positive integer, got {value!r}")


@attrs.frozen(cache_hash=True)
class Rules:
    """A complete rule profile.

    ``capture_values`` gives the capture value of each rank in the order
    ``A 2 3 4 5 6 7 Q J K``; ``target`` is the score that ends the match.
    """

    name: str = "tunisian"
    capture_values: tuple[int, ...] = attrs.field(default=_TUNISIAN_VALUES, validator=_check_values)
    target: int = attrs.field(default=21, validator=_check_target)
    #: Capture value of each card, indexed by :attr:`Card.index` (derived, for speed).
    card_values: tuple[int, ...] = attrs.field(init=False, eq=False, hash=False, repr=False)

    def __attrs_post_init__(self) -> None:
        ranks = tuple(Rank)
        by_card = tuple(self.capture_values[ranks.index(c.rank)] for c in DECK)
        object.__setattr__(self, "card_values", by_card)

    def value(self, played: Card | Rank) -> int:
        """The capture value of a card or a rank."""
        if isinstance(played, Rank):
            return self.capture_values[tuple(Rank).index(played)]
        return self.card_values[played.index]


#: The Tunisian profile, the library's default: Q=8, J=9, K=10; the match is played to 21.
TUNISIAN = Rules()
