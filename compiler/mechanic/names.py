"""Helpers for a mechanic reading its keys of a described position: a list of names, one
name looked up with the closest spelling suggested, and a value's JSON kind for messages.
Each error is a :class:`~railspec.compiler.base.errors.PositionError`."""
from __future__ import annotations

import difflib
import reprlib

from ..base.errors import PositionError
from ..base.text import canonical

_show = reprlib.Repr()
_show.maxstring = _show.maxother = 60
_show.maxlist = _show.maxdict = 4
_show.maxlevel = 2


def kind_of(value) -> str:
    """How JSON would call a value's type, for messages."""
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def names_in(seat: dict, key: str, where: str) -> list:
    """The list of names a seat of a described position holds under ``key`` (empty when
    absent), or a :class:`PositionError` saying what it holds instead."""
    value = seat.get(key, [])
    if not isinstance(value, list):
        raise PositionError(f"{where}: '{key}' must be a list of names, got {kind_of(value)}")
    return value


def lookup_name(names: dict[str, int], name, what: str, where: str) -> int:
    """The id of a name in ``names`` (e.g. the cities a station may be built in), or a
    :class:`PositionError` with the closest spelling."""
    if not isinstance(name, str):
        raise PositionError(f"{where}: a {what} is named by a string, got {_show.repr(name)}")
    name = canonical(name)
    if name not in names:
        close = difflib.get_close_matches(name, list(names), n=1, cutoff=0.7) if len(name) <= 200 else []
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise PositionError(f"{where}: no {what} named {_show.repr(name)}{hint}")
    return names[name]
