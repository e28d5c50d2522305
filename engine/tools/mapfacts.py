"""Facts about a variant's map, computed from its checked IR: what ``railspec describe``
prints and what the language server's hovers show.

Every function here is pure: it reads the IR (``railspec.compiler.ir.Variant``) and, for
what only the spec's text says (a route's attributes as written, a ticket's several
destinations), the statements the IR was checked from. Those are found by their spans
(``ir.Route.span`` and ``ir.Ticket.span`` are where the statement was written), so a
caller that holds the parsed files (the language server, with an edited buffer) passes
them as :func:`written`'s ``files``; otherwise the spec is read again from
``ir.spec_path``. When the statements cannot be matched (the file changed since the IR
was made) the facts fall back on the IR alone: no attributes, one destination per ticket.

No mechanic is named: what a mechanic adds is found through the registry the IR was
checked with (``Mechanic.statements``, ``Mechanic.extra_trains``), so a mechanic from
another distribution is described like a stock one.
"""
from __future__ import annotations

import heapq
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, fields, is_dataclass
from functools import lru_cache
from pathlib import Path

from .. import compiler
from ..compiler import ir
from ..compiler.base.errors import RailspecError, Span
from ..compiler.check import merge
from ..compiler.lang import ast
from ..compiler.mechanic import Payments, part

#: How many of the tickets needing the most trains the summary lists.
LONGEST_SHOWN = 5


@dataclass(frozen=True)
class Written:
    """The statements behind an IR: for each route and ticket id its statement (or None
    when it could not be matched), and every statement in force (after ``extends``,
    replacements and ``without``), in order."""

    routes: tuple[ast.Route | None, ...]
    tickets: tuple[ast.Ticket | None, ...]
    statements: tuple[ast.Stmt, ...]


class _Quiet:
    """An error sink for :func:`compiler.check.merge` on a spec that already checked: it
    has nothing to report, and a file changed since is no business of the facts."""

    def __init__(self) -> None:
        self.removed_cities: dict[str, Span] = {}

    def add(self, span: Span, message: str) -> None:
        """Ignore a problem (the spec was checked when its IR was made)."""


@lru_cache(maxsize=256)
def _file_key(file: str) -> str:
    """A span's file as one spelling, so that spans made from two spellings of a path meet."""
    try:
        return str(Path(file).resolve())
    except (OSError, RuntimeError, ValueError):
        return file


def _span_key(span) -> tuple | None:
    return None if span is None else (_file_key(span.file), span.line, span.col)


def written(variant: ir.Variant, files: list[ast.SpecFile] | None = None) -> Written:
    """The statements behind ``variant``'s routes and tickets. ``files`` is the extends
    chain it was checked from, base first (``railspec.compiler.resolve``); without it the
    chain is read again from ``variant.spec_path``, and when that fails (the file is gone
    or no longer parses) nothing is matched."""
    if files is None:
        try:
            files = compiler.resolve(variant.spec_path, variant.registry)
        except (RailspecError, OSError, ValueError):
            files = []
    stmts = tuple(merge(list(files), _Quiet())) if files else ()
    by_span = {}
    for stmt in stmts:
        if isinstance(stmt, (ast.Route, ast.Ticket)):
            by_span[(isinstance(stmt, ast.Route), _span_key(stmt.span))] = stmt

    def match(item, is_route: bool):
        stmt = by_span.get((is_route, _span_key(item.span)))
        if stmt is None:
            return None
        names = {stmt.a.text, stmt.b.text}
        # a stale file may hold another statement at the same place: check its ends
        return stmt if {variant.cities[item.a].name, variant.cities[item.b].name} <= names | _ends(stmt) else None

    return Written(routes=tuple(match(r, True) for r in variant.routes),
                   tickets=tuple(match(t, False) for t in variant.tickets), statements=stmts)


def _ends(stmt) -> set[str]:
    return {name.text for name, _ in stmt.ends()} if isinstance(stmt, ast.Ticket) else set()


def _written(variant: ir.Variant, facts: Written | None) -> Written:
    return facts if facts is not None else written(variant)


# --- the graph ------------------------------------------------------------------------------

def route_trains(variant: ir.Variant, route: ir.Route) -> int:
    """The trains claiming ``route`` takes: one per space and whatever more a mechanic's
    rule asks for (``Mechanic.extra_trains``: a mountain's crossings)."""
    return route.length + sum(part(m, Payments).extra_trains(variant, rule, route) for m, rule in variant.present())


def _adjacency(variant: ir.Variant) -> list[list[tuple[int, int]]]:
    """Per graph node, (neighbouring node, trains) over every route (each track apart)."""
    adjacent: list[list[tuple[int, int]]] = [[] for _ in range(variant.node_count)]
    for r in variant.routes:
        cost = route_trains(variant, r)
        adjacent[r.node_a].append((r.node_b, cost))
        adjacent[r.node_b].append((r.node_a, cost))
    return adjacent


def _nearest(adjacent, sources: set[int], targets: set[int]) -> int | None:
    """Dijkstra from a set of nodes: the least cost to reach any of ``targets``."""
    best = {n: 0 for n in sources}
    heap = [(0, n) for n in sorted(sources)]
    while heap:
        cost, node = heapq.heappop(heap)
        if cost > best.get(node, cost):
            continue
        if node in targets:
            return cost
        for nxt, step in adjacent[node]:
            if cost + step < best.get(nxt, cost + step + 1):
                best[nxt] = cost + step
                heapq.heappush(heap, (cost + step, nxt))
    return None


def destinations(variant: ir.Variant, ticket: int, facts: Written | None = None) -> list[tuple[int, int]]:
    """A ticket's destinations as (place id, points): those its form declares
    (``ast.TicketForm.ends()``: several for a ticket to one of several places), else the
    IR's one (``ir.Ticket.b``)."""
    t = variant.tickets[ticket]
    stmt = _written(variant, facts).tickets[ticket]
    if stmt is None:
        return [(t.b, t.points)]
    ids = {c.name: c.id for c in variant.cities}
    out = [(ids[name.text], num.value) for name, num in stmt.ends() if name.text in ids]
    return out or [(t.b, t.points)]


def fewest_cars(variant: ir.Variant, facts: Written | None = None) -> dict[int, int | None]:
    """For each ticket id, the fewest trains that complete it on the whole map: the
    cheapest chain of routes from its first place to one of its destinations, each route
    costing the trains its claim takes (its length, plus a mechanic's extra trains), over
    the graph's nodes (so no chain passes through a dead-end place). A ticket to one of
    several destinations counts the nearest, as the core understands such a form: joining
    the first place to any destination its form lists (``TicketForm.ends()``; a form that
    scores by another rule would have to say so there first). Every stock form is measured.
    None when no chain of routes joins the first place to any destination: the checker
    refuses such a ticket, so only an IR built some other way has one."""
    facts = _written(variant, facts)
    adjacent = _adjacency(variant)
    out: dict[int, int | None] = {}
    for t in variant.tickets:
        sources = set(variant.city_nodes[t.a])
        targets = {n for place, _ in destinations(variant, t.id, facts) for n in variant.city_nodes[place]}
        out[t.id] = _nearest(adjacent, sources, targets) if targets else None
    return out


# --- one city, one route --------------------------------------------------------------------

def _city(variant: ir.Variant, city) -> ir.City:
    if isinstance(city, ir.City):
        return city
    if isinstance(city, int) and not isinstance(city, bool) and 0 <= city < len(variant.cities):
        return variant.cities[city]
    return variant.city_named(city)  # KeyError naming the variant for an unknown name


def _route(variant: ir.Variant, route) -> ir.Route:
    if isinstance(route, ir.Route):
        return route
    if isinstance(route, int) and not isinstance(route, bool) and 0 <= route < len(variant.routes):
        return variant.routes[route]
    return variant.route_named(route)


def city_facts(variant: ir.Variant, city, facts: Written | None = None) -> dict:
    """A city (its id, name or ``ir.City``): the routes touching it (by name), the cities
    it has routes to, its degree (how many such cities), whether it is a dead-end place
    (a mechanic's kind of place no chain of routes passes through), and the tickets that
    name it, as first place or as one of their destinations."""
    c = _city(variant, city)
    facts = _written(variant, facts)
    routes = [r for r in variant.routes if c.id in (r.a, r.b)]
    neighbours = sorted({variant.cities[r.b if r.a == c.id else r.a].name for r in routes})
    tickets = [t.name for t in variant.tickets
               if t.a == c.id or any(place == c.id for place, _ in destinations(variant, t.id, facts))]
    return {"name": c.name, "id": c.id, "dead_end": c.dead_end, "degree": len(neighbours),
            "neighbours": neighbours, "routes": [r.name for r in routes],
            "tickets": list(dict.fromkeys(tickets))}


def _shown(value):
    """An attribute's value as plain data: True for a bare word, a number, names as text."""
    if isinstance(value, ast.Num):
        return value.value
    if isinstance(value, ast.Name):
        return value.text
    if isinstance(value, (tuple, list)):
        return [_shown(v) for v in value]
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    return str(value)


def _owners(variant: ir.Variant) -> dict[type, object]:
    """Each node class a mechanic of the variant's registry declares, with that mechanic."""
    return {cls: m for m in (variant.registry or ()) for cls in m.statements}


def _owner(owners: dict, node):
    for cls in type(node).__mro__:
        if cls in owners:
            return owners[cls]
    return None


def route_facts(variant: ir.Variant, route, facts: Written | None = None) -> dict:
    """A route (its id, name or ``ir.Route``): its cities, length, colour, the points its
    claim scores (the route points table), the trains it takes, which track of its city
    pair it is, and each attribute written after its colour, named as the spec writes it
    (``RouteAttr.name``) with its value (True for a bare word) and the mechanic it
    belongs to."""
    r = _route(variant, route)
    stmt = _written(variant, facts).routes[r.id]
    owners = _owners(variant)
    attributes = []
    for attr in (stmt.attrs if stmt is not None else ()):
        owner = _owner(owners, attr)
        attributes.append({"name": attr.name, "value": _shown(attr.value),
                           "mechanic": owner.name if owner is not None else None})
    return {"name": r.name, "id": r.id, "a": variant.cities[r.a].name, "b": variant.cities[r.b].name,
            "length": r.length, "colour": r.colour_name, "points": variant.route_points[r.length],
            "trains": route_trains(variant, r), "track": r.track, "tracks": r.tracks, "attributes": attributes}


def ticket_facts(variant: ir.Variant, ticket, facts: Written | None = None,
                 cars: dict[int, int | None] | None = None) -> dict:
    """A ticket (its id or name): its first place, its destinations with their points, its
    deck ("" for the regular one) and the fewest trains that complete it (``cars``, from
    :func:`fewest_cars`, is used when given)."""
    t = variant.tickets[ticket] if isinstance(ticket, int) else variant.ticket_named(ticket)
    facts = _written(variant, facts)
    cars = cars if cars is not None else fewest_cars(variant, facts)
    return {"name": t.name, "id": t.id, "from": variant.cities[t.a].name, "points": t.points, "deck": t.deck,
            "destinations": [{"place": variant.cities[p].name, "points": pts}
                             for p, pts in destinations(variant, t.id, facts)],
            "fewest_cars": cars[t.id]}


# --- the whole map --------------------------------------------------------------------------

def _spread(values: list[int]) -> dict:
    if not values:
        return {"min": None, "median": None, "max": None}
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def _counted(pairs) -> dict:
    """{key: count} in key order."""
    out: dict = {}
    for key in pairs:
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))


def bridges(variant: ir.Variant) -> list[dict]:
    """The connections whose removal splits the map (Tarjan's bridges, on the graph of
    nodes with every track of a city pair as one connection): for each, its two cities, its
    routes and the cities it cuts off (the smaller side). A connection to a place no chain
    passes through (a dead-end place's node of its own) cuts off no city and is left out,
    as is one whose far side holds only such places."""
    edges: dict[tuple[int, int], list[int]] = {}
    for r in variant.routes:
        key = (min(r.node_a, r.node_b), max(r.node_a, r.node_b))
        edges.setdefault(key, []).append(r.id)
    adjacent: list[list[tuple[int, tuple[int, int]]]] = [[] for _ in range(variant.node_count)]
    for (a, b) in edges:
        if a != b:
            adjacent[a].append((b, (a, b)))
            adjacent[b].append((a, (a, b)))
    city_of = {}
    for c in variant.cities:
        if not c.dead_end:
            for n in variant.city_nodes[c.id]:
                city_of[n] = c.id
    order = [-1] * variant.node_count
    low = [0] * variant.node_count
    below: list[set[int]] = [set() for _ in range(variant.node_count)]  # cities in the DFS subtree
    found: list[tuple[tuple[int, int], set[int], set[int]]] = []  # (edge, cities beyond it, its component)
    counter = 0
    for root in range(variant.node_count):
        if order[root] != -1:
            continue
        here: list[tuple[tuple[int, int], set[int]]] = []
        order[root] = low[root] = counter
        counter += 1
        stack: list[tuple[int, tuple[int, int] | None, Iterator[tuple[int, tuple[int, int]]]]] = \
            [(root, None, iter(adjacent[root]))]
        while stack:  # iterative, so a long chain of cities never meets the recursion limit
            node, via, it = stack[-1]
            step = next(it, None)
            if step is None:
                stack.pop()
                if node in city_of:
                    below[node].add(city_of[node])
                if stack:
                    parent = stack[-1][0]
                    low[parent] = min(low[parent], low[node])
                    below[parent] |= below[node]
                    if low[node] > order[parent] and via is not None:  # (only the root has no edge in)
                        here.append((via, below[node]))
                continue
            nxt, edge = step
            if edge == via:
                continue
            if order[nxt] == -1:
                order[nxt] = low[nxt] = counter
                counter += 1
                stack.append((nxt, edge, iter(adjacent[nxt])))
            else:
                low[node] = min(low[node], order[nxt])
        found += [(edge, side, below[root]) for edge, side in here]
    out = []
    for edge, side, component in found:
        rest = component - side
        if not side or not rest:
            continue
        cut = side if len(side) <= len(rest) else rest
        routes = [variant.routes[i] for i in edges[edge]]
        out.append({"a": variant.cities[routes[0].a].name, "b": variant.cities[routes[0].b].name,
                    "routes": [r.name for r in routes],
                    "cuts_off": sorted(variant.cities[c].name for c in cut)})
    return sorted(out, key=lambda b: (b["a"], b["b"]))


def _walk(node):
    """Every ``ast.Node`` in a statement, itself first (its attributes, forms, parts …)."""
    yield node
    if not is_dataclass(node):
        return
    for f in fields(node):
        value = getattr(node, f.name)
        for item in (value if isinstance(value, (tuple, list)) else (value,)):
            if isinstance(item, ast.Node):
                yield from _walk(item)


#: The core's extension points a part may fill, with the word the summary puts before its form.
_PARTS = ((ast.TicketForm, "ticket"), (ast.DealPart, "deal"), (ast.ActionKind, "action"),
          (ast.EndPart, "end when trains <= N"))


def _label(node) -> str:
    """How a spec writes a part: a statement's words, an attribute's name, else the
    extension point it fills and its form (``ticket long CITY - CITY POINTS``)."""
    cls = type(node)
    if isinstance(node, ast.Stmt):
        return cls.words or cls.rule
    if isinstance(node, ast.RouteAttr):
        return cls.name or cls.rule
    form = getattr(cls, "written", "") or cls.form or cls.rule
    point = next((word for base, word in _PARTS if isinstance(node, base)), "")
    return f"{point} {form}" if point and not form.startswith(point) else form


def mechanics_used(variant: ir.Variant, facts: Written | None = None) -> list[dict]:
    """What each mechanic the variant uses adds, in registry order: its name and title, and
    how many times the spec uses each of its statements, route attributes and other parts
    (ticket forms, deal parts, action kinds), counted over the statements in force."""
    facts = _written(variant, facts)
    owners = _owners(variant)
    counts: dict[str, dict[str, dict[str, int]]] = {}
    for stmt in facts.statements:
        for node in _walk(stmt):
            owner = _owner(owners, node)
            if owner is None:
                continue
            part = ("statements" if isinstance(node, ast.Stmt)
                    else "route_attributes" if isinstance(node, ast.RouteAttr) else "other_parts")
            table = counts.setdefault(owner.name, {}).setdefault(part, {})
            table[_label(node)] = table.get(_label(node), 0) + 1
    out = []
    for mechanic, _ in variant.present():
        mine = counts.get(mechanic.name, {})
        out.append({"name": mechanic.name, "title": mechanic.title,
                    "statements": dict(sorted(mine.get("statements", {}).items())),
                    "route_attributes": dict(sorted(mine.get("route_attributes", {}).items())),
                    "other_parts": dict(sorted(mine.get("other_parts", {}).items()))})
    return out


def summary(variant: ir.Variant, facts: Written | None = None) -> dict:
    """Everything ``railspec describe`` shows, as plain data (the fields are listed in
    docs/editors.md): the routes by length and by colour (tracks, connections and cars),
    the cards of each colour against the cars of the routes of that colour, the tickets'
    points and fewest trains, the cities by degree, the cities of degree 1, the bridges
    and what each mechanic adds."""
    facts = _written(variant, facts)
    routes = variant.routes
    groups: dict[int, list[ir.Route]] = {}
    for r in routes:
        groups.setdefault(r.group, []).append(r)

    by_length: dict[int, dict] = {}
    for r in routes:
        row = by_length.setdefault(r.length, {"tracks": 0, "connections": 0})
        row["tracks"] += 1
    for tracks in groups.values():
        for length in {r.length for r in tracks}:
            by_length[length]["connections"] += 1

    colour_names = [c.name for c in variant.colours] + sorted({r.colour_name for r in routes if r.colour == ir.GRAY})
    by_colour = {name: {"tracks": 0, "connections": 0, "cars": 0} for name in colour_names}
    for r in routes:
        row = by_colour.setdefault(r.colour_name, {"tracks": 0, "connections": 0, "cars": 0})
        row["tracks"] += 1
        row["cars"] += r.length
    for tracks in groups.values():
        for name in {r.colour_name for r in tracks}:
            by_colour[name]["connections"] += 1

    cards = [{"colour": c.name, "cards": c.count, "tracks": by_colour[c.name]["tracks"],
              "cars": by_colour[c.name]["cars"]} for c in variant.colours]
    gray_cars = sum(r.length for r in routes if r.colour == ir.GRAY)

    cars = fewest_cars(variant, facts)
    measured = [(fewest, t) for t in variant.tickets if (fewest := cars[t.id]) is not None]
    longest = sorted(measured, key=lambda pair: (-pair[0], pair[1].id))[:LONGEST_SHOWN]
    decks = _counted(t.deck for t in variant.tickets)

    degrees = {c.id: 0 for c in variant.cities}
    neighbours: dict[int, set[int]] = {c.id: set() for c in variant.cities}
    for r in routes:
        neighbours[r.a].add(r.b)
        neighbours[r.b].add(r.a)
    for city, near in neighbours.items():
        degrees[city] = len(near)
    by_degree: dict[int, list[str]] = {}
    for c in variant.cities:
        by_degree.setdefault(degrees[c.id], []).append(c.name)

    return {
        "variant": variant.name, "key": variant.key, "spec_hash": variant.spec_hash,
        "provisional": variant.provisional,
        "players": [variant.min_players, variant.max_players], "trains": variant.trains,
        "cities": len(variant.cities),
        "dead_end_places": [c.name for c in variant.cities if c.dead_end],
        "routes": {"tracks": len(routes), "connections": len(groups), "cars": sum(r.length for r in routes),
                   "by_length": {str(k): v for k, v in sorted(by_length.items())},
                   "by_colour": by_colour},
        "cards": {"colours": cards, "locomotives": variant.locomotives, "gray_cars": gray_cars,
                  "total": variant.card_total},
        "tickets": {"count": len(variant.tickets), "decks": decks,
                    "points": {**_spread([t.points for t in variant.tickets]),
                               "counts": {str(k): v for k, v in _counted(t.points for t in variant.tickets).items()}},
                    "fewest_cars": {**_spread([c for c, _ in measured]),
                                    "unmeasured": len(variant.tickets) - len(measured),
                                    "longest": [{"ticket": t.name, "points": t.points, "cars": c}
                                                for c, t in longest]},
                    "each": [{"ticket": t.name, "points": t.points, "deck": t.deck, "cars": cars[t.id]}
                             for t in variant.tickets]},
        "degrees": {str(k): sorted(v) for k, v in sorted(by_degree.items())},
        "dead_ends": sorted(c.name for c in variant.cities if degrees[c.id] == 1),
        "bridges": bridges(variant),
        "mechanics": mechanics_used(variant, facts),
    }
