"""``copy.copy`` of the library's stateful objects: a copy that goes on apart.

Python's default shallow copy of an object shares every attribute with the original.
For a bot, an environment, an inference model or an observer that means their
generators, lists, caches and arrays, so driving the copy would move the original too,
wholly or in part. The classes that change as they are used inherit
:class:`CopiesApart`: their ``copy.copy`` is their ``copy.deepcopy``, as ``copy.copy``
of a ``random.Random`` is a generator of its own. (Immutable values need none of this:
their copies are alike. :class:`~chkobba.Game` and ``BotActions`` copy themselves, more
cheaply.)
"""

from __future__ import annotations

import copy
import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["CopiesApart", "shallow_copy"]

_T = TypeVar("_T")

#: The objects this thread is deep-copying through their own ``__deepcopy__``, by id.
_copying = threading.local()


def _active() -> set[int]:
    found: set[int] = _copying.__dict__.setdefault("ids", set())
    return found


class CopiesApart:
    """Mixin: ``copy.copy(x)`` is ``copy.deepcopy(x)``, a copy sharing nothing mutable.

    A subclass whose own ``__deepcopy__`` starts from ``copy.copy(self)`` (a common way
    to write one) gets Python's plain shallow copy there, as before, whether the copy
    began with ``copy.copy`` or ``copy.deepcopy``: such a ``__deepcopy__`` is marked
    while it runs.
    """

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("__deepcopy__")
        if own is not None and not getattr(own, "_marks_its_object", False):
            cls.__deepcopy__ = _marking(own)  # type: ignore[attr-defined]

    def __copy__(self: _T) -> _T:
        if id(self) in _active():  # called from this object's own __deepcopy__
            return shallow_copy(self)
        return copy.deepcopy(self)


def _marking(deep: Callable[[Any, dict[int, Any]], Any]) -> Callable[[Any, dict[int, Any]], Any]:
    """``deep`` (a class's ``__deepcopy__``), marking its object while it runs."""

    @functools.wraps(deep)
    def marked(self: Any, memo: dict[int, Any]) -> Any:
        active = _active()
        added = id(self) not in active
        active.add(id(self))
        try:
            return deep(self, memo)
        finally:
            if added:
                active.discard(id(self))

    marked._marks_its_object = True  # type: ignore[attr-defined]
    return marked


def shallow_copy(value: _T) -> _T:
    """What ``copy.copy`` gives an object that does not define ``__copy__``: a new one
    from its reduction, holding the same attributes (the copy module's way, written out;
    ``copyreg``'s table of reducers is not consulted)."""
    reduced: Any = value.__reduce_ex__(4)
    if isinstance(reduced, str):  # a global: the object itself
        return value
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
    if len(reduced) > 3 and reduced[3] is not None:  # a list's items
        clone.extend(reduced[3])
    if len(reduced) > 4 and reduced[4] is not None:  # a dict's items
        for key, item in reduced[4]:
            clone[key] = item
    return clone  # type: ignore[no-any-return]
