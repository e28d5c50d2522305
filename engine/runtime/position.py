"""Described positions (DESIGN.md, "Positions and traces"): a board written by name, for
scoring without playing to it.

    {"variant": "usa",
     "players": [{"routes": ["Seattle-Portland/1", "Helena-Seattle"], "tickets": ["Seattle-New York"]},
                 {"routes": [], "tickets": []}]}

Route and ticket names are the catalogue's (``A-B``, ``A-B/2`` for the second track of a
double). A seat's ``routes`` and ``tickets`` are the core's keys; each mechanic adds its
own (the ``DescribedPositions`` capability, e.g. stations); a key of a mechanic the
variant does not use must be empty or absent. A position becomes the state fields that
scoring reads, and an engine scores them.

A mechanic whose scoring hooks may read its own state fields and that does not describe
them itself gets keys derived from the state schema (:class:`SchemaPositions`): one per
field, under the field's name, written as the position notation writes that field (a
seat's row in the seat, a field of no player's at the top). So no part of a board that
scoring reads is dropped from its description.

The variant is named by ``variant`` (its key or display name) and, optionally, pinned by
``spec_hash``: a position carrying the hash of the spec it was written for is valid for
any file holding that spec, whatever the file is called.
"""
from __future__ import annotations

import difflib
import functools
import json
import reprlib
from pathlib import Path
from typing import Any

from ..compiler import ir
from ..compiler.assembly import assemble
from ..compiler.base import files, schema
from ..compiler.base.errors import PositionError
from ..compiler.base.text import canonical
from ..compiler.mechanic import (
    DescribedPositions,
    Invariants,
    Mechanic,
    PositionKey,
    derived_position_fields,
    kind_of,
    names_in,
    part,
)
from . import notation, state_format

#: The keys of a seat that the core reads, and ``name`` (a label, ignored).
CORE_KEYS = ("routes", "tickets", "name")

#: The core's key beside ``players`` listing the routes claims took for no player (a
#: variant whose mechanics take routes for nobody: the hook takes_for_nobody).
NOBODY_KEY = "nobody_routes"

#: Integers in a position count cards, trains and shares: anything longer is a mistake,
#: refused before Python spends time converting it.
MAX_DIGITS = 30

_show = reprlib.Repr()
_show.maxstring = _show.maxother = 60
_show.maxlist = _show.maxdict = 4
_show.maxlevel = 2


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise PositionError(f"a number of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _constant(name: str):
    raise PositionError(f"{name} is not a number a position can hold")


def loads(text: str) -> dict:
    """Parse a position's JSON text (a UTF-8 byte order mark is skipped). Any problem,
    including nesting too deep for the parser and absurdly long numbers, is a
    :class:`PositionError`; the result is checked further when it is scored."""
    if not isinstance(text, str):
        raise PositionError(f"a position is JSON text, got {kind_of(text)}")
    try:
        return json.loads(text.removeprefix("\ufeff"), parse_int=_int, parse_constant=_constant)
    except json.JSONDecodeError as err:
        raise PositionError(f"not JSON ({err.msg} at line {err.lineno} column {err.colno})") from None
    except RecursionError:
        raise PositionError("not a position: JSON nested too deeply") from None


def read(path: str | Path) -> dict:
    """The position in a file (see :func:`loads`); every error names the file."""
    try:
        text = files.read_text(path, "position file")
    except files.UnreadableFile as err:
        raise PositionError(str(err)) from None
    try:
        return loads(text)
    except PositionError as err:
        raise PositionError(f"{path}: {err}") from None


class _Catalogue:
    """The route or ticket names of a variant, and what to suggest for a wrong one: the
    real names joining the same two cities (a reversed pair, a double route named
    without its track), else the closest spellings."""

    def __init__(self, items, cities, what: str):
        self.what = what
        self.ids = {item.name: item.id for item in items}
        self.by_pair: dict[frozenset, list[str]] = {}
        #: A name of several destinations (``A-B|C``) by its start and its set of ends, so
        #: that the same ends in another order are found.
        self.by_ends: dict[tuple[str, frozenset], list[str]] = {}
        for item in items:
            pair = frozenset((cities[item.a].name, cities[item.b].name))
            self.by_pair.setdefault(pair, []).append(item.name)
            start = cities[item.a].name
            bare = _bare(item.name)
            if "|" in bare and bare.startswith(start + "-"):
                ends = frozenset(bare[len(start) + 1:].split("|"))
                self.by_ends.setdefault((start, ends), []).append(item.name)

    def copies_hint(self, name: str) -> str:
        """How to name the other copies of a component printed more than once ("" when it
        is printed once): ``; its other copies are named 'A-B/2'``."""
        others = sorted(n for n in self.ids if n != name and _bare(n) == _bare(name))
        if not others:
            return ""
        return f"; its other cop{'y is' if len(others) == 1 else 'ies are'} named {_either(others)}"

    def lookup(self, name, where: str) -> int:
        if not isinstance(name, str):
            raise PositionError(f"{where}: a {self.what} is named by a string, got {_show.repr(name)}")
        name = canonical(name)
        if name in self.ids:
            return self.ids[name]
        close = self.suggestions(name)
        hint = f" (did you mean {_either(close)}?)" if close else ""
        raise PositionError(f"{where}: no {self.what} named {_show.repr(name)}{hint}")

    def suggestions(self, name: str) -> list[str]:
        if len(name) > 200:
            return []
        bare = name.rsplit("/", 1)[0] if "/" in name else name
        found: list[str] = []
        for text in dict.fromkeys((name, bare)):
            # a city's name may hold a hyphen itself: try every split
            for i, char in enumerate(text):
                if char == "-":
                    found += self.by_pair.get(frozenset((text[:i].strip(), text[i + 1:].strip())), [])
        if not found and "|" in bare:
            # the same destinations in another order
            for i, char in enumerate(bare):
                if char == "-":
                    ends = frozenset(part.strip() for part in bare[i + 1:].split("|"))
                    found += self.by_ends.get((bare[:i].strip(), ends), [])
        if not found:
            # the closest spelling, with the other tracks of its route
            for close in difflib.get_close_matches(name, list(self.ids), n=1, cutoff=0.7):
                found = next((names for names in self.by_pair.values() if close in names), [close])
        return sorted(set(found))


def _bare(name: str) -> str:
    """A name without its copy or track suffix (``A-B/2`` is ``A-B``)."""
    head, slash, tail = name.rpartition("/")
    return head if slash and tail.isdigit() else name


def _either(names: list[str]) -> str:
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def check_variant(variant: ir.Variant, position: dict) -> None:
    """Refuse a position written for another variant. ``spec_hash``, when given, decides
    (a renamed or copied spec file keeps its positions); else ``variant``, when given,
    must be the variant's key or display name (in any case)."""
    given_hash, named = position.get("spec_hash"), position.get("variant")
    if given_hash is not None:
        if not isinstance(given_hash, str):
            raise PositionError(f"'spec_hash' is the spec's hash as a string, got {_show.repr(given_hash)}")
        if given_hash != variant.spec_hash:
            raise PositionError(f"the position is for spec {_show.repr(given_hash)}, {variant.name} is spec "
                                f"{variant.spec_hash!r}")
        return
    if named is None:
        return
    if not isinstance(named, str):
        raise PositionError(f"'variant' is the variant's name, got {_show.repr(named)}")
    if named.casefold() not in (variant.key.casefold(), variant.name.casefold()):
        raise PositionError(f"the position is for variant {_show.repr(named)}, not {variant.name} "
                            f"({variant.key!r}); for a renamed copy of this spec, give its "
                            f"'spec_hash': {variant.spec_hash!r}")


class SchemaPositions:
    """The position parts of a mechanic that does not describe its state itself, derived
    from the state schema: each field of ``derived_position_fields`` is a key under its own
    name, a per-player field's row in each seat and any other field at the top, written as
    the position notation writes it (``notation.write_value``). It offers what
    ``DescribedPositions`` offers, so :func:`describer` can hand out either."""

    def __init__(self, fields: tuple[schema.Field, ...]):
        self.seat_fields = tuple(f for f in fields if f.per_player)
        self.top_fields = tuple(f for f in fields if not f.per_player)
        self.position_keys = tuple(
            PositionKey(f.name, f.doc, names=v if (v := notation.value_names(f)) in ("city", "route", "ticket") else "")
            for f in self.seat_fields)

    def position(self, variant: ir.Variant, rule, player: int, seat: dict, fields: dict) -> None:
        """Read a seat's rows into ``fields`` (absent: the field's value before set-up)."""
        for field in self.seat_fields:
            if field.name in seat:
                rows = fields.setdefault(field.name, _blank(variant, field, fields["players"]))
                rows[player] = _read(variant, field, seat[field.name], f"player {player}: '{field.name}'")

    def position_top(self, variant: ir.Variant, rule, position: dict, fields: dict) -> None:
        """Read the top-level fields into ``fields``, then check every derived field's range."""
        for field in self.top_fields:
            if field.name in position:
                fields[field.name] = _read(variant, field, position[field.name], f"'{field.name}'")
        for field in self.seat_fields + self.top_fields:
            if field.name in fields:
                try:
                    state_format.check_field(variant, field, fields[field.name], fields["players"])
                except state_format.StateError as err:
                    raise PositionError(str(err).replace("state field", "position key", 1)) from None

    def seat_position(self, variant: ir.Variant, rule, state: dict, player: int) -> dict:
        """A seat's rows of the fields, in the notation."""
        return {f.name: notation.write_value(variant, f, state[f.name][player]) for f in self.seat_fields}

    def top_position(self, variant: ir.Variant, rule, state: dict) -> dict:
        """The fields of no player, in the notation."""
        return {f.name: notation.write_value(variant, f, state[f.name]) for f in self.top_fields}


def _blank(variant: ir.Variant, field: schema.Field, players: int):
    return schema.initial_value(field, assemble(variant).dims, players)


def _read(variant: ir.Variant, field: schema.Field, value, where: str):
    try:
        return notation.read_value(variant, field, value, where)
    except notation.NotationError as err:
        raise PositionError(str(err)) from None


_SCHEMA_POSITIONS: dict[type[Mechanic[Any]], SchemaPositions | None] = {}


def _schema_positions(cls: type[Mechanic[Any]]) -> SchemaPositions | None:
    """The keys derived from a mechanic class's state fields (made once per class)."""
    if cls not in _SCHEMA_POSITIONS:
        fields = derived_position_fields(cls)
        _SCHEMA_POSITIONS[cls] = SchemaPositions(fields) if fields else None
    return _SCHEMA_POSITIONS[cls]


def describer(mechanic: Mechanic[Any]) -> DescribedPositions[Any] | SchemaPositions | None:
    """Who writes and reads a mechanic's keys of a described position: the mechanic itself
    when it has the ``DescribedPositions`` capability, else the keys derived from its state
    fields when its scoring may read them (:class:`SchemaPositions`), else None (it adds
    no keys)."""
    if isinstance(mechanic, DescribedPositions):
        return mechanic
    return _schema_positions(type(mechanic))


def position_of_state(variant: ir.Variant, state: dict) -> dict:
    """The described position of a state's board: per player the routes owned, the tickets
    held and each mechanic's keys (:func:`describer`), and a mechanic's keys of no player
    at the top. Scored, it gives the state's own breakdown."""
    describers = [(d, rule) for m, rule in variant.present() if (d := describer(m)) is not None]
    seats = []
    for p in range(state["players"]):
        seat = {"routes": [r.name for r in variant.routes if state["owner"][r.id] == p],
                "tickets": [variant.tickets[t].name for t in state["tickets"][p]]}
        for d, rule in describers:
            seat.update(d.seat_position(variant, rule, state, p))
        seats.append(seat)
    out: dict = {"variant": variant.key, "players": seats}
    if assemble(variant).nobody_claims:
        out[NOBODY_KEY] = [r.name for r in variant.routes if state["owner"][r.id] == state["players"]]
    for d, rule in describers:
        out.update(d.top_position(variant, rule, state))
    return out


@functools.lru_cache(maxsize=64)
def _names_of(variant: ir.Variant, registry):
    """What reading a position of ``variant`` looks names up in, made once per variant and
    registry (a variant hashes by identity): the mechanics present, the position keys of
    those present and of those absent, and the route and ticket names."""
    present = registry.present(variant)
    mechanic_keys = {key.name: (m, rule) for m, rule in present if (d := describer(m)) is not None
                     for key in d.position_keys}
    absent_keys = {key.name: m for m in registry if (d := describer(m)) is not None for key in d.position_keys
                   if key.name not in mechanic_keys}
    return (present, mechanic_keys, absent_keys, _Catalogue(variant.routes, variant.cities, "route"),
            _Catalogue(variant.tickets, variant.cities, "ticket"))


def position_fields(variant: ir.Variant, position: dict) -> dict:
    """The state fields a described position determines (``players``, ``owner``,
    ``tickets``, ``trains``, ``route_score`` and the mechanics' own), rejecting anything
    inconsistent with a :class:`PositionError` (each mechanic's ``position_problems``
    too)."""
    registry = variant.registry
    if not isinstance(position, dict):
        raise PositionError(f"a position is a JSON object, got {kind_of(position)}")
    check_variant(variant, position)
    seats = position.get("players")
    if not isinstance(seats, list) or not variant.min_players <= len(seats) <= variant.max_players:
        got = f"{len(seats)} players" if isinstance(seats, list) else kind_of(seats)
        raise PositionError(f"'players' must list {variant.min_players} to {variant.max_players} players, "
                            f"got {got}")
    present, mechanic_keys, absent_keys, route_names, ticket_names = _names_of(variant, registry)
    owner = [-1] * len(variant.routes)
    tickets: list[list[int]] = []
    fields: dict = {"players": len(seats)}
    for p, seat in enumerate(seats):
        where = f"player {p}"
        if not isinstance(seat, dict):
            raise PositionError(f"{where}: expected an object with 'routes' and 'tickets', got {kind_of(seat)}")
        for key in seat:
            if key in CORE_KEYS or key in mechanic_keys:
                continue
            if key in absent_keys:
                if seat[key]:
                    raise PositionError(f"{where}: {variant.name} has no {absent_keys[key].title}")
                continue
            raise PositionError(f"{where}: unknown key {_show.repr(key)}")
        for name in names_in(seat, "routes", where):
            rid = route_names.lookup(name, where)
            if owner[rid] != -1:
                raise PositionError(f"{where}: route {name!r} is already owned by player {owner[rid]}")
            owner[rid] = p
        held = [ticket_names.lookup(name, where) for name in names_in(seat, "tickets", where)]
        if len(set(held)) != len(held):
            twice = next(t for t in held if held.count(t) > 1)
            raise PositionError(f"{where}: ticket {variant.tickets[twice].name!r} is listed twice"
                                + ticket_names.copies_hint(variant.tickets[twice].name))
        tickets.append(held)
    _nobody_routes(variant, position, route_names, owner, len(seats))
    all_held = [t for held in tickets for t in held]
    if len(set(all_held)) != len(all_held):
        raise PositionError("a ticket is held by two players")
    fields.update(owner=owner, tickets=tickets)
    for m, rule in present:
        problems = part(m, Invariants).position_problems(variant, rule, fields)
        if problems:
            raise PositionError(problems[0])
    describers = [(d, rule) for m, rule in present if (d := describer(m)) is not None]
    for p, seat in enumerate(seats):
        for d, rule in describers:
            d.position(variant, rule, p, seat, fields)
    for d, rule in describers:
        d.position_top(variant, rule, position, fields)
    _trains_and_route_points(variant, fields)
    return fields


def _trains_and_route_points(variant: ir.Variant, fields: dict) -> None:
    """Set ``trains`` and ``route_score`` from the routes each player owns: the owner's
    and, a route's further owners (``co_owner`` fields, read from the mechanics' keys:
    a shared claim) placed its trains too; its points are the sharing mechanic's to score."""
    players = fields["players"]
    taken = assemble(variant).route_trains  # a route's length, and what a mechanic's rule adds
    used, cars, route_score = [0] * players, [0] * players, [0] * players
    owners = [fields["owner"]] + [fields[name] for name in assemble(variant).co_owners if name in fields]
    for at, owner in enumerate(owners):
        for r in variant.routes:  # one pass over the routes, whatever the number of players
            p = owner[r.id]
            if 0 <= p < players:  # a route taken for nobody takes no train and scores no point
                used[p] += taken[r.id]
                cars[p] += r.length
                route_score[p] += 0 if at else variant.route_points[r.length]
    for p in range(players):
        if used[p] > variant.trains:
            what = f"{cars[p]} cars" if cars[p] == used[p] else f"{cars[p]} cars that take {used[p]} trains"
            raise PositionError(f"player {p}: routes of {what}, but a player has only {variant.trains} trains")
    fields.update(trains=[variant.trains - u for u in used], route_score=route_score)


def _nobody_routes(variant: ir.Variant, position: dict, route_names: _Catalogue, owner: list[int],
                   players: int) -> None:
    """Read the routes taken for no player (``nobody_routes``, beside ``players``) into
    ``owner``, as the owner ``players``: only a variant whose mechanics take routes for
    nobody has any, and no such route is a player's too."""
    where = f"'{NOBODY_KEY}'"
    names = names_in(position, NOBODY_KEY, where)
    if names and not assemble(variant).nobody_claims:
        raise PositionError(f"{where}: no claim of {variant.name} takes a route for nobody")
    for name in names:
        rid = route_names.lookup(name, where)
        if owner[rid] != -1:
            who = "taken for nobody already" if owner[rid] == players else f"owned by player {owner[rid]}"
            raise PositionError(f"{where}: route {name!r} is {who}")
        owner[rid] = players
