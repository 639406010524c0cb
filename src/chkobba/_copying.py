"""``copy.copy`` of the library's stateful objects: a copy that goes on apart.

Python's default shallow copy of an object shares every attribute with the original.
For a bot, an environment, an inference model or an observer that means their
generators, lists, caches and arrays, so driving the copy would move the original too,
wholly or in part. The classes that change as they are used inherit
:class:`CopiesApart`: their ``copy.copy`` is their ``copy.deepcopy``, as ``copy.copy``
of a ``random.Random`` is a generator of its own. (Immutable values need none of this:
their copies are alike. :class:`~chkobba.Game` copies its lists itself, more cheaply.)
"""

from __future__ import annotations

import copy
import threading
from typing import Any, TypeVar

__all__ = ["CopiesApart"]

_T = TypeVar("_T")

#: The objects this thread is deep-copying through ``copy.copy``, by id.
_copying = threading.local()


class CopiesApart:
    """Mixin: ``copy.copy(x)`` is ``copy.deepcopy(x)``, a copy sharing nothing mutable.

    A subclass whose own ``__deepcopy__`` starts from ``copy.copy(self)`` (a common way
    to write one) gets Python's plain shallow copy there, as before, not an endless
    recursion.
    """

    __slots__ = ()

    def __copy__(self: _T) -> _T:
        active: set[int] = _copying.__dict__.setdefault("ids", set())
        if id(self) in active:  # called from this object's own __deepcopy__
            return _shallow(self)
        active.add(id(self))
        try:
            return copy.deepcopy(self)
        finally:
            active.discard(id(self))


def _shallow(value: _T) -> _T:
    """What ``copy.copy`` gives an object that does not define ``__copy__``: a new one
    from its reduction, holding the same attributes (the copy module's way, written out
    for the plain objects these classes are)."""
    reduced: Any = value.__reduce_ex__(4)
    clone: Any = reduced[0](*reduced[1])
    state = reduced[2] if len(reduced) > 2 else None
    if state is not None:
        if hasattr(clone, "__setstate__"):
            clone.__setstate__(state)
        else:
            slots = None
            if isinstance(state, tuple) and len(state) == 2:
                state, slots = state
            if state:
                clone.__dict__.update(state)
            for name, item in (slots or {}).items():
                setattr(clone, name, item)
    return clone  # type: ignore[no-any-return]
