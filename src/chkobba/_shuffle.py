"""``random.Random.shuffle`` written out: the same draws and swaps, so the same order for
the same seed, without a method call per item (internal: shuffles are in every deal and
every search sample).

>>> import random
>>> mine, theirs = list(range(10)), list(range(10))
>>> shuffle(mine, random.Random(3)); random.Random(3).shuffle(theirs)
>>> mine == theirs
True
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["shuffle"]

#: By length: the Fisher-Yates steps from the last position down, each (position, bits
#: for a number <= position).
_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def shuffle(items: list[Any], rng: random.Random) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` would."""
    if type(rng) is not random.Random:  # a subclass may draw its numbers otherwise
        rng.shuffle(items)
        return
    steps = _STEPS.get(len(items))
    if steps is None:
        steps = _STEPS[len(items)] = tuple(
            (i, (i + 1).bit_length()) for i in reversed(range(1, len(items)))
        )
    getrandbits = rng.getrandbits
    for i, bits in steps:
        j = getrandbits(bits)
        while j > i:  # rejection sampling of a number below i + 1, as _randbelow does
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]
