"""Described positions (DESIGN.md, "Positions and traces"): a board written by name, for
scoring without playing to it.

    {"variant": "usa",
     "players": [{"routes": ["Seattle-Portland/1", "Helena-Seattle"], "tickets": ["Seattle-New York"]},
                 {"routes": [], "tickets": []}]}

Route and ticket names are the catalogue's (``A-B``, ``A-B/2`` for the second track of a
double). A seat's ``routes`` and ``tickets`` are the core's keys; each mechanic adds its
own (``Mechanic.position_keys``, e.g. stations); a key of a mechanic the variant does not
use must be empty or absent. A position becomes the state fields that scoring reads, and
an engine scores them.
"""
from __future__ import annotations

import difflib

from .compiler import ir
from .errors import RailspecError


class PositionError(RailspecError):
    """A position file that does not describe a board of its variant."""


#: The keys of a seat that the core reads, and ``name`` (a label, ignored).
CORE_KEYS = ("routes", "tickets", "name")


def _lookup(names: dict[str, int], name, what: str, where: str) -> int:
    if not isinstance(name, str):
        raise PositionError(f"{where}: a {what} is named by a string, got {name!r}")
    if name not in names:
        close = difflib.get_close_matches(name, list(names), n=1, cutoff=0.7)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise PositionError(f"{where}: no {what} named {name!r}{hint}")
    return names[name]


def _names_list(seat: dict, key: str, where: str) -> list:
    value = seat.get(key, [])
    if not isinstance(value, list):
        raise PositionError(f"{where}: '{key}' must be a list of names")
    return value


def position_fields(variant: ir.Variant, position: dict, registry=None) -> dict:
    """The state fields a described position determines (``players``, ``owner``,
    ``tickets``, ``trains``, ``route_score`` and the mechanics' own), rejecting anything
    inconsistent with a :class:`PositionError`."""
    from .mechanics import default_registry
    registry = registry or default_registry()
    if not isinstance(position, dict):
        raise PositionError("a position is a JSON object")
    if position.get("variant") not in (None, variant.key):
        raise PositionError(f"position is for variant {position.get('variant')!r}, not {variant.key!r}")
    seats = position.get("players")
    if not isinstance(seats, list) or not variant.min_players <= len(seats) <= variant.max_players:
        raise PositionError(f"'players' must list {variant.min_players} to {variant.max_players} players")
    present = registry.present(variant)
    mechanic_keys = {key.name: (m, rule) for m, rule in present for key in getattr(m, "position_keys", ())}
    absent_keys = {key.name: m for m in registry for key in getattr(m, "position_keys", ())
                   if key.name not in mechanic_keys}
    route_names = {r.name: r.id for r in variant.routes}
    ticket_names = {t.name: t.id for t in variant.tickets}
    owner = [-1] * len(variant.routes)
    tickets: list[list[int]] = []
    fields: dict = {"players": len(seats)}
    for p, seat in enumerate(seats):
        where = f"player {p}"
        if not isinstance(seat, dict):
            raise PositionError(f"{where}: expected an object with 'routes' and 'tickets'")
        for key in seat:
            if key in CORE_KEYS or key in mechanic_keys:
                continue
            if key in absent_keys:
                if seat[key]:
                    raise PositionError(f"{where}: {variant.name} has no {absent_keys[key].title}")
                continue
            raise PositionError(f"{where}: unknown key {key!r}")
        for name in _names_list(seat, "routes", where):
            rid = _lookup(route_names, name, "route", where)
            if owner[rid] != -1:
                raise PositionError(f"{where}: route {name!r} is already owned by player {owner[rid]}")
            owner[rid] = p
        held = [_lookup(ticket_names, name, "ticket", where) for name in _names_list(seat, "tickets", where)]
        if len(set(held)) != len(held):
            raise PositionError(f"{where}: a ticket is listed twice")
        tickets.append(held)
    all_held = [t for held in tickets for t in held]
    if len(set(all_held)) != len(all_held):
        raise PositionError("a ticket is held by two players")
    trains, route_score = [], []
    for p in range(len(seats)):
        mine = [r for r in variant.routes if owner[r.id] == p]
        used = sum(r.length for r in mine)
        if used > variant.trains:
            raise PositionError(f"player {p}: routes of {used} cars, but a player has only {variant.trains} trains")
        trains.append(variant.trains - used)
        route_score.append(sum(variant.route_points[r.length] for r in mine))
    fields.update(owner=owner, tickets=tickets, trains=trains, route_score=route_score)
    for p, seat in enumerate(seats):
        for m, rule in present:
            if getattr(m, "position_keys", ()):
                m.position(variant, rule, p, seat, fields)
    for m, rule in present:
        m.position_top(variant, rule, position, fields)
    return fields
