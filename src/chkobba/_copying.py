"""``copy.copy`` of the library's stateful objects: a copy that goes on apart.

Python's default shallow copy of an object shares every attribute with the original.
For a game, a bot, an environment or an observer that means their lists, generators,
caches and arrays, so driving the copy would move the original too, wholly or in part.
The classes that change as they are used inherit :class:`CopiesApart`: their
``copy.copy`` is their ``copy.deepcopy``, as ``copy.copy`` of a ``random.Random`` is a
generator of its own. (Immutable values need none of this: their copies are alike.)
"""

from __future__ import annotations

import copy
from typing import TypeVar

__all__ = ["CopiesApart"]

_T = TypeVar("_T")


class CopiesApart:
    """Mixin: ``copy.copy(x)`` is ``copy.deepcopy(x)``, a copy sharing nothing mutable."""

    __slots__ = ()

    def __copy__(self: _T) -> _T:
        return copy.deepcopy(self)
