"""Reading values that an earlier version of chkobba pickled.

A pickle holds a value's fields by name. When a later version adds a field (a rule
profile's ``players``, a tournament's ``rules``), a value pickled before it would come
back without that attribute and fail at its first use, far from the load. The classes
whose fields grew since 0.1.0 read their pickles through :func:`restore`, which gives
a missing field its default, as the class's constructor would.
"""

from __future__ import annotations

from typing import Any

import attrs

from chkobba.errors import ChkobbaError

__all__ = ["fields_of", "restore"]


def fields_of(value: Any) -> dict[str, Any]:
    """What a pickle of the attrs value ``value`` holds: its fields by name."""
    return {field.name: getattr(value, field.name) for field in attrs.fields(type(value))}


def restore(value: Any, fields: dict[str, Any]) -> None:
    """Set the fields of the frozen attrs ``value`` (being unpickled) from ``fields``; a
    field they lack (added by a later version) takes its default. A field without one
    cannot be made up: that pickle is refused, naming it."""
    kind = type(value)
    for field in attrs.fields(kind):
        if field.name in fields:
            item = fields[field.name]
        elif isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]
            item = field.default.factory()
        elif field.default is not attrs.NOTHING:
            item = field.default
        else:
            raise ChkobbaError(
                f"cannot read this pickled {kind.__name__}: it has no {field.name!r}, "
                "and that field has no default"
            )
        object.__setattr__(value, field.name, item)
    if hasattr(kind, "__slots__") and "_attrs_cached_hash" in kind.__slots__:
        object.__setattr__(value, "_attrs_cached_hash", None)  # worked out anew
