"""Described positions (DESIGN.md, "Positions and traces"): a board written by name, for
scoring without playing to it.

    {"variant": "usa",
     "players": [{"routes": ["Seattle-Portland/1", "Helena-Seattle"], "tickets": ["Seattle-New York"]},
                 {"routes": [], "tickets": []}]}

Route and ticket names are the catalogue's (``A-B``, ``A-B/2`` for the second track of a
double). Keys a variant does not score (stations, goods, shares) must be empty or absent.
"""
from __future__ import annotations

import difflib

from .compiler import ir
from .errors import RailspecError
from .scoring import Board, score_board, winners


class PositionError(RailspecError):
    """A position file that does not describe a board of its variant."""


_KNOWN_KEYS = {"routes", "tickets", "stations", "goods", "shares", "name"}


def _lookup(names: dict[str, int], name, what: str, where: str) -> int:
    if not isinstance(name, str):
        raise PositionError(f"{where}: a {what} is named by a string, got {name!r}")
    if name not in names:
        close = difflib.get_close_matches(name, list(names), n=1, cutoff=0.7)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise PositionError(f"{where}: no {what} named {name!r}{hint}")
    return names[name]


def board_from_position(variant: ir.Variant, position: dict) -> Board:
    """Resolve a described position to a :class:`Board`, rejecting anything inconsistent."""
    if not isinstance(position, dict):
        raise PositionError("a position is a JSON object")
    if position.get("variant") not in (None, variant.key):
        raise PositionError(f"position is for variant {position.get('variant')!r}, not {variant.key!r}")
    seats = position.get("players")
    if not isinstance(seats, list) or not variant.min_players <= len(seats) <= variant.max_players:
        raise PositionError(f"'players' must list {variant.min_players} to {variant.max_players} players")
    route_names = {r.name: r.id for r in variant.routes}
    ticket_names = {t.name: t.id for t in variant.tickets}
    owner = [-1] * len(variant.routes)
    tickets: list[tuple[int, ...]] = []
    for p, seat in enumerate(seats):
        where = f"player {p}"
        if not isinstance(seat, dict):
            raise PositionError(f"{where}: expected an object with 'routes' and 'tickets'")
        unknown = set(seat) - _KNOWN_KEYS
        if unknown:
            raise PositionError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
        for key in ("stations", "goods", "shares"):
            if seat.get(key) and key not in variant.mechanics:
                raise PositionError(f"{where}: {variant.name} has no {key}")
        for name in seat.get("routes", []):
            rid = _lookup(route_names, name, "route", where)
            if owner[rid] != -1:
                raise PositionError(f"{where}: route {name!r} is already owned by player {owner[rid]}")
            owner[rid] = p
        held = tuple(_lookup(ticket_names, name, "ticket", where) for name in seat.get("tickets", []))
        if len(set(held)) != len(held):
            raise PositionError(f"{where}: a ticket is listed twice")
        tickets.append(held)
    all_held = [t for held in tickets for t in held]
    if len(set(all_held)) != len(all_held):
        raise PositionError("a ticket is held by two players")
    for p in range(len(seats)):
        used = sum(r.length for r in variant.routes if owner[r.id] == p)
        if used > variant.trains:
            raise PositionError(f"player {p}: routes of {used} cars, but a player has only {variant.trains} trains")
    return Board(owner=tuple(owner), tickets=tuple(tickets), players=len(seats))


def score_position(variant: ir.Variant, position: dict) -> list[dict]:
    """Each player's breakdown for a described position, plus ``winner`` (bool)."""
    rows = score_board(variant, board_from_position(variant, position))
    best = set(winners(variant, rows))
    for p, row in enumerate(rows):
        row["winner"] = p in best
    return rows
