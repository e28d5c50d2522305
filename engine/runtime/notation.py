"""The position notation (docs/conformance.md): a whole game state written with the
spec's names, for engines that are not railspec.

A state (``Game.state()``) holds ids: card 3, ticket 17, route 42. The notation writes the
same state with the names a spec gives (``red``, ``Boston-Miami``, ``Denver-Omaha``), so
an engine written in any language from the spec alone can read and write it. Every part
is there, hidden ones included (the deck's order, hands, tickets, offers, a pending
decision, each mechanic's fields): chance is written down, so an engine that does not
share railspec's random generator can still follow a game. railspec's own generator is
kept under ``generator``, which other engines may ignore.

It is derived from the state schema, field by field, with no knowledge of any mechanic:

- a field's **values** name components when the field says so (``Field.names``: a card,
  a ticket, a route, a city); -1 (none) is written ``null``;
- a field **indexed** by a component (sized ``N_CARDS``, ``N_ROUTES`` or ``N_CITIES``) is
  an object keyed by the component's name, entries at the field's initial value left out
  (an unowned route, a colour not held);
- a per-player field is a list with one such value per seat;
- the phase is its name; u64 fields (the generator) are decimal strings.

Two forms: JSON (:func:`to_position`, :func:`from_position`) and one line of text
(:func:`dumps_line`, :func:`loads_line`), like chess's FEN. Reading either gives a state
that :func:`railspec.runtime.state_format.validate` then checks as it checks any other.
"""
from __future__ import annotations

import functools
import json
import re
from typing import Any

from ..compiler import ir
from ..compiler.assembly import assemble
from ..compiler.base import schema
from ..compiler.base.errors import RailspecError
from ..compiler.base.text import canonical

#: The notation's name and version, written as ``format``.
FORMAT = "railspec-position/1"

#: The dimensions whose entries are components with names: a field of one of these sizes
#: is written as an object keyed by name.
INDEXED_BY = {"N_CARDS": "card", "N_ROUTES": "route", "N_CITIES": "city"}

#: The state fields written under ``generator`` rather than among the others: railspec's
#: random generator, which another engine has no use for.
GENERATOR_FIELDS = ("seed", "rng")


class NotationError(RailspecError, ValueError):
    """A position that cannot be read: the message names the key and the problem."""


@functools.lru_cache(maxsize=64)
def component_names(variant: ir.Variant) -> dict[str, list[str]]:
    """Each kind of named component and its names, by id: cards (the colours, then
    ``loco``), tickets, routes and cities."""
    return {"card": [c.name for c in variant.colours] + ["loco"],
            "ticket": [t.name for t in variant.tickets],
            "route": [r.name for r in variant.routes],
            "city": [c.name for c in variant.cities]}


def value_names(field: schema.Field) -> str | None:
    """What a field's values name (``card``, ``ticket``, ``route``, ``city``), or None for
    numbers."""
    if field.names:
        return field.names
    by_pile: dict[str | None, str] = {schema.TICKETS: "ticket", schema.CARD_IDS: "card"}
    return by_pile.get(field.pile)


@functools.lru_cache(maxsize=64)
def _fields(variant: ir.Variant) -> tuple:
    return tuple(f for f in assemble(variant).exported_fields if f.name != "players")


@functools.lru_cache(maxsize=64)
def _ids(variant: ir.Variant) -> dict[str, dict[str, int]]:
    """Each kind of component's names to their ids (made once per variant)."""
    return {kind: {n: i for i, n in enumerate(table)} for kind, table in component_names(variant).items()}


def _initial(field: schema.Field, dims: dict) -> int:
    return field.initial if isinstance(field.initial, int) else dims[field.initial]


# --- state -> notation ------------------------------------------------------------------

def to_position(variant: ir.Variant, state: dict) -> dict:
    """The notation (JSON form) of a state (``Game.state()``)."""
    names = component_names(variant)
    dims = assemble(variant).dims
    out = {"format": FORMAT, "variant": variant.key, "spec_hash": variant.spec_hash, "players": state["players"]}
    for field in _fields(variant):
        if field.name in GENERATOR_FIELDS:
            continue
        out[field.name] = _write_field(field, state[field.name], names, dims)
    out["generator"] = {name: str(state[name]) for name in GENERATOR_FIELDS}
    return out


def write_value(variant: ir.Variant, field: schema.Field, value):
    """One field's value in the notation: a scalar field's whole value, or one seat's row
    of a per-player field (names for what the field names, an object for an indexed row)."""
    return _write_one(field, value, component_names(variant), assemble(variant).dims)


def read_value(variant: ir.Variant, field: schema.Field, value, where: str):
    """The inverse of :func:`write_value` (:class:`NotationError` naming ``where`` for a
    value of the wrong shape or a name the variant does not have); its range is the state
    check's to test."""
    return _read_one(field, value, _ids(variant), assemble(variant).dims, where)


def _write_field(field, value, names, dims):
    if field.per_player:
        return [_write_one(field, row, names, dims) for row in value]
    return _write_one(field, value, names, dims)


def _write_one(field, value, names, dims):
    if field.kind == "phase":
        return value
    if field.kind == "u64":
        return str(value)
    own = value_names(field)
    table = names[own] if own else None

    def name(v):
        return v if table is None else (None if v < 0 else table[v])
    if field.is_scalar:
        return name(value)
    index = INDEXED_BY.get(field.size)
    if index is not None:
        initial = _initial(field, dims)
        return {names[index][k]: name(v) for k, v in enumerate(value) if v != initial}
    return [name(v) for v in value]


# --- notation -> state ------------------------------------------------------------------

def from_position(variant: ir.Variant, position) -> dict:
    """The state a position (JSON form, as a dict) writes; :class:`NotationError` for a key
    missing or unknown, or a name the variant does not have. The state still has to pass
    ``state_format.validate`` (``Variant.game_from_position`` does both)."""
    if not isinstance(position, dict):
        raise NotationError(f"a position is a JSON object, not {type(position).__name__}")
    if position.get("format") != FORMAT:
        raise NotationError(f"position format {position.get('format')!r} is not {FORMAT!r}")
    if position.get("spec_hash") != variant.spec_hash:
        raise NotationError(f"the position is of spec {position.get('spec_hash')!r}, not {variant.key!r} "
                            f"(spec {variant.spec_hash})")
    ids = _ids(variant)
    assembly = assemble(variant)
    fields = _fields(variant)
    known = {"format", "variant", "spec_hash", "players", "generator"} | {f.name for f in fields}
    unknown = sorted(k for k in position if k not in known)
    if unknown:
        raise NotationError(f"unknown key {unknown[0]!r} (a {variant.key} position has "
                            f"{', '.join(sorted(known))})")
    players = position.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise NotationError(f"'players' is the number of players, not {players!r}")
    state = {"format": schema.FORMAT, "variant": variant.key, "spec_hash": variant.spec_hash, "players": players}
    generator = position.get("generator", {})
    if not isinstance(generator, dict) or set(generator) - set(GENERATOR_FIELDS):
        raise NotationError("'generator' holds 'seed' and 'rng' (decimal strings), or nothing")
    for field in fields:
        if field.name in GENERATOR_FIELDS:
            state[field.name] = _u64(generator.get(field.name, "0"), f"generator {field.name}")
            continue
        if field.name not in position:
            raise NotationError(f"the position has no {field.name!r}")
        state[field.name] = _read_field(field, position[field.name], players, ids, assembly.dims)
    return {k: state[k] for k in assembly.state_keys}


def _u64(text, where: str) -> int:
    if not isinstance(text, str) or not text.isdigit() or len(text) > 20 or int(text) >= 2**64:
        raise NotationError(f"{where}: a decimal string below 2^64, not {text!r}")
    return int(text)


def _read_field(field, value, players, ids, dims):
    if field.per_player:
        if not isinstance(value, list) or len(value) != players:
            raise NotationError(f"{field.name!r}: a list of one entry per player ({players}), not {_show(value)}")
        return [_read_one(field, row, ids, dims, f"{field.name}[{p}]") for p, row in enumerate(value)]
    return _read_one(field, value, ids, dims, field.name)


def _read_one(field, value, ids, dims, where):
    if field.kind == "phase":
        if not isinstance(value, str):
            raise NotationError(f"{where!r}: a phase name, not {_show(value)}")
        return value
    if field.kind == "u64":
        return _u64(value, where)
    own = value_names(field)
    table = ids[own] if own else None

    def number(v):
        if table is None:
            if isinstance(v, bool) or not isinstance(v, int):
                raise NotationError(f"{where!r}: a whole number, not {_show(v)}")
            return v
        if v is None:
            return -1
        v = canonical(v)
        if not isinstance(v, str) or v not in table:
            raise NotationError(f"{where!r}: no {own} named {_show(v)} in this variant")
        return table[v]
    if field.is_scalar:
        return number(value)
    index = INDEXED_BY.get(field.size)
    if index is not None:
        if not isinstance(value, dict):
            raise NotationError(f"{where!r}: an object keyed by {index} name, not {_show(value)}")
        row = [_initial(field, dims)] * len(ids[index])
        for key, v in value.items():
            key = canonical(key)
            if key not in ids[index]:
                raise NotationError(f"{where!r}: no {index} named {_show(key)} in this variant")
            row[ids[index][key]] = number(v)
        return row
    if not isinstance(value, list):
        raise NotationError(f"{where!r}: a list, not {_show(value)}")
    return [number(v) for v in value]


def _show(value) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


# --- the one-line form ------------------------------------------------------------------
#
# FORMAT VARIANT SPEC_HASH key=value … : values as in JSON, written with
#   ,  between list items;  ;  between players;  name:value  for an object's entries;
#   -  for null; nothing for an empty list or object; the phase as it is.
# In names, a space is written _, and the characters the form uses (% _ , ; : = and a
# space) are written as %XX.

_RESERVED = re.compile(r"[%_,;:=\s]")


@functools.lru_cache(maxsize=65536)
def _escape(name: str) -> str:
    if name == "-":  # a lone - is null
        return "%2D"
    return _RESERVED.sub(lambda m: f"%{ord(m.group()):02X}" if m.group() != " " else "_", name)


@functools.lru_cache(maxsize=65536)
def _unescape(text: str) -> str:
    if "%" in text and not re.fullmatch(r"(?:[^%]|%[0-9A-F]{2})*", text):
        raise NotationError(f"a bad escape in {text!r}: % is followed by two capital hex digits")
    text = text.replace("_", " ")
    return re.sub(r"%([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), text)


def _line_value(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        raise TypeError("no booleans in a position")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _escape(value)
    if isinstance(value, dict):
        return ",".join(f"{_escape(k)}:{_line_value(v)}" for k, v in value.items())
    return ",".join(_line_value(v) for v in value)


def dumps_line(variant: ir.Variant, state: dict) -> str:
    """The notation of a state as one line of text."""
    position = to_position(variant, state)
    parts = [FORMAT, _escape(variant.key), variant.spec_hash, f"players={position['players']}"]
    for field in _fields(variant):
        if field.name in GENERATOR_FIELDS:
            continue
        value = position[field.name]
        if field.kind == "phase":  # an identifier, written as it is
            text = value
        elif field.per_player:
            text = ";".join(_line_value(v) for v in value)
        else:
            text = _line_value(value)
        parts.append(f"{field.name}={text}")
    parts.append("generator=" + ",".join(f"{k}:{v}" for k, v in position["generator"].items()))
    return " ".join(parts)


def loads_line(variant: ir.Variant, line: str) -> dict:
    """The state one line of the notation writes (see :func:`dumps_line`)."""
    if not isinstance(line, str):
        raise NotationError("a position line is text")
    words = line.strip().split(" ")
    if len(words) < 3 or words[0] != FORMAT:
        raise NotationError(f"a position line starts with {FORMAT} VARIANT SPEC_HASH")
    position: dict[str, Any] = {"format": FORMAT, "variant": _unescape(words[1]), "spec_hash": words[2]}
    fields = {f.name: f for f in _fields(variant)}
    for word in words[3:]:
        key, eq, text = word.partition("=")
        if not eq:
            raise NotationError(f"{word!r} is not key=value")
        if key in position:
            raise NotationError(f"{key!r} is given twice")
        if key == "players":
            position[key] = _line_int(text, key)
        elif key == "generator":
            position[key] = dict(_pair(item, key) for item in text.split(",")) if text else {}
        elif key in fields:
            field = fields[key]
            if field.per_player:
                position[key] = [_line_one(field, row) for row in text.split(";")]
            else:
                position[key] = _line_one(field, text)
        else:
            raise NotationError(f"unknown key {key!r}")
    return from_position(variant, position)


def _pair(item: str, where: str) -> tuple[str, str]:
    key, colon, value = item.partition(":")
    if not colon:
        raise NotationError(f"{where}: {item!r} is not name:value")
    return _unescape(key), value


def _line_int(text: str, where: str) -> int:
    if not re.fullmatch(r"-?\d{1,20}", text):
        raise NotationError(f"{where}: a whole number, not {text!r}")
    return int(text)


def _line_one(field, text: str):
    own = value_names(field)

    def item(t: str):
        if own is None:
            return _line_int(t, field.name)
        return None if t == "-" else _unescape(t)
    if field.kind == "phase":
        return text
    if field.kind == "u64":
        return text
    if field.is_scalar:
        return item(text)
    if field.size in INDEXED_BY:
        return {k: item(v) for k, v in (_pair(e, field.name) for e in text.split(",") if e)} if text else {}
    return [item(t) for t in text.split(",")] if text else []
