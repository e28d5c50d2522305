"""The core's stages that read the map: places, routes (their tracks and graph nodes),
the spaces routes' attributes take, tickets, and whether the map can be played at all."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from .. import ir
from ..base import limits
from ..lang import ast
from .merge import Statements
from .parts import Components, Players, Turn, check_table
from .report import Errors, line_of, pair, suggest

# The bounds these stages check (their reasons are in limits.py and docs/language.md,
# "Limits"); each mechanic checks its own, beside its check.
MAX_TRACKS = limits.MAX_TRACKS
MAX_ROUTE_LENGTH = limits.MAX_ROUTE_LENGTH


class Places:
    """The declared places (cities, and any kind of place a mechanic declares), and name
    lookups that report unknown names."""

    def __init__(self, spec: Statements):
        self.errors = spec.errors
        self.cities: list[dict] = []
        self.ids: dict[str, int] = {}
        for stmt in spec.stmts:
            if isinstance(stmt, ast.PlaceDecl):
                self._declare(stmt)

    def _declare(self, stmt: ast.PlaceDecl) -> None:
        name = stmt.name.text
        if name in self.ids:
            first = self.cities[self.ids[name]]["span"]
            self.errors.add(stmt.name.span, f"city '{name}' is declared twice "
                                            f"(first at {line_of(first, stmt.span)})")
            return
        if len(self.cities) == limits.MAX_CITIES:
            self.errors.add(stmt.name.span, f"at most {limits.MAX_CITIES:,} places (cities and others) "
                                            f"are supported")
        self.ids[name] = len(self.cities)
        place = stmt.place
        at = None
        if place is not None:
            for num in (place.x, place.y):
                if abs(num.value) > limits.MAX_COORDINATE:
                    self.errors.add(num.span, f"a map coordinate is at most {limits.MAX_COORDINATE:,} "
                                              f"either way, not {limits.shown_number(num.value)}")
            at = (place.x.value, place.y.value)
        self.cities.append(dict(name=name, dead_end=stmt.dead_end, words=stmt.words, span=stmt.name.span,
                                at=at, place_span=place.span if place is not None else None))

    def ref(self, name: ast.Name, context: str) -> int | None:
        """The id of a city named in a route, ticket or region; None after an error."""
        if name.text in self.ids:
            return self.ids[name.text]
        removed = self.errors.removed_cities
        if name.text in removed:
            self.errors.add(name.span, f"city '{name.text}' in {context} was removed by 'without city' at "
                                       f"{removed[name.text]}: remove what uses it too")
            return None
        hint = "" if self.errors.full(name.span.file) else suggest(name.text, self.ids)
        self.errors.add(name.span, f"unknown city '{name.text}' in {context}{hint}")
        return None


@dataclass(frozen=True)
class Map:
    """The routes as the IR holds them, the graph's nodes, and what the mechanics' checks
    read of the route statements."""

    routes: tuple[ir.Route, ...]
    node_count: int
    city_nodes: tuple[tuple[int, ...], ...]
    links: tuple[tuple[int, int], ...]  # the city pairs of every route meant, errors or not
    route_points: tuple[int, ...]        # index = length
    # the route statements whose length and colour are valid, with their length: the
    # mechanics check the attributes of these
    attributed: tuple[tuple[ast.Route, int], ...]
    statements: tuple[ast.Route, ...]    # route id -> the statement it was made from (its attributes)


# --- routes ---------------------------------------------------------------------------------

def check_routes(spec: Statements, places: Places, parts: Components) -> Map:
    """Routes (doubles and triples as repeated city pairs), the route points table, and
    the graph nodes: one per city, and one per route end at a dead-end place. An attribute
    may be given once per route; the mechanics that own the attributes check their values
    and keep what they mean in their rule records."""
    errors = spec.errors
    route_points_stmt = spec.one(ast.RoutePoints)
    route_points: dict[int, int] = {}
    max_length = 0
    if route_points_stmt:
        route_points, max_length = check_table(route_points_stmt.entries, "route points", errors,
                                               route_points_stmt.span, open_allowed=False,
                                               largest_key=MAX_ROUTE_LENGTH,
                                               beyond=f"no route is longer than {MAX_ROUTE_LENGTH}")
    groups: dict[tuple[str, str], list[ast.Route]] = defaultdict(list)
    route_rows: list[dict] = []
    attributed = []
    links: list[tuple[int, int]] = []
    declared = spec.many(ast.Route)
    if len(declared) > limits.MAX_ROUTES:
        errors.add(declared[limits.MAX_ROUTES].span, f"at most {limits.MAX_ROUTES:,} routes are supported, "
                                                     f"got {len(declared):,}")
    for stmt in declared:
        a = places.ref(stmt.a, "route")
        b = places.ref(stmt.b, "route")
        if a is not None and b is not None and a != b:
            links.append((a, b))
        _attributes_once(errors, stmt)
        length = _route_length(spec, stmt, parts, route_points_stmt, route_points)
        if length is None:
            continue
        colour = _route_colour(errors, stmt, parts)
        if colour is None:
            continue
        attributed.append((stmt, length))
        if a is None or b is None:
            continue
        if a == b:
            errors.add(stmt.span, f"route from '{stmt.a.text}' to itself")
            continue
        row = _track(errors, stmt, a, b, length, colour, groups, len(route_rows))
        if row is not None:
            route_rows.append(row)
    routes, node_count, city_nodes = _graph_routes(places.cities, route_rows, groups)
    _unreached_cities(errors, places.cities, links)
    return Map(routes=tuple(routes), node_count=node_count, city_nodes=tuple(tuple(n) for n in city_nodes),
               links=tuple(links), route_points=tuple(route_points.get(n, 0) for n in range(max_length + 1)),
               attributed=tuple(attributed), statements=tuple(row["stmt"] for row in route_rows))


def _attributes_once(errors: Errors, stmt: ast.Route) -> None:
    """A route gives each attribute once."""
    given: set[str] = set()
    for attr in stmt.attrs:
        if attr.name in given:
            errors.add(attr.span, f"route attribute '{attr.name}' is given twice")
        given.add(attr.name)


def _route_length(spec: Statements, stmt: ast.Route, parts: Components, route_points_stmt,
                  route_points: dict[int, int]) -> int | None:
    """The route's length; None after an error that leaves the route out (not positive,
    or longer than any route may be). A length more than the trains or missing from the
    route points table is reported and kept."""
    errors = spec.errors
    length = stmt.length.value
    if length <= 0:
        errors.add(stmt.length.span, f"a route length must be positive, got {length}")
        return None
    if length > MAX_ROUTE_LENGTH:
        errors.add(stmt.length.span, f"route length {length} is longer than the longest "
                                     f"supported ({MAX_ROUTE_LENGTH})")
        return None
    if parts.trains and length > parts.trains:
        errors.add(stmt.length.span, f"route length {length} is more than the {parts.trains} trains a player "
                                     f"has: the route could never be claimed")
    if route_points_stmt and length not in route_points:
        errors.add(stmt.length.span, f"route length {length} has no entry in the route points table "
                                     f"({line_of(route_points_stmt.span, stmt.span)})")
    return length


def _route_colour(errors: Errors, stmt: ast.Route, parts: Components) -> int | None:
    """The route's colour id (``ir.GRAY`` for a gray route); None after an unknown colour."""
    colour_text = stmt.colour.text
    if colour_text in ("gray", "grey"):
        return ir.GRAY
    if colour_text in parts.colour_ids:
        return parts.colour_ids[colour_text]
    hint = "" if errors.full(stmt.colour.span.file) else suggest(colour_text, parts.colour_ids)
    errors.add(stmt.colour.span, f"unknown colour '{colour_text}'{hint}; "
                                 f"colours are {', '.join(['gray', *parts.colour_ids])}")
    return None


def _track(errors: Errors, stmt: ast.Route, a: int, b: int, length: int, colour: int,
           groups: dict[tuple[str, str], list[ast.Route]], index: int) -> dict | None:
    """The route as the next track of its city pair (``groups`` holds each pair's tracks so
    far; ``index`` is the route's place among the routes kept); None after an error: a
    second track of the same colour, or more tracks than ``MAX_TRACKS``."""
    key_pair = pair(stmt.a.text, stmt.b.text)
    earlier = groups[key_pair]
    if earlier:
        # the tracks of one route may differ in length (a printed triple has 4, 4 and 5
        # spaces): the group rules count tracks, never compare lengths
        same = [r for r in earlier if r.colour.text == stmt.colour.text and colour != ir.GRAY]
        if same:
            errors.add(stmt.span, f"duplicate route {stmt.a.text} - {stmt.b.text} {stmt.colour.text} "
                                  f"(already declared at {line_of(same[0].span, stmt.span)})")
            return None
        if len(earlier) >= MAX_TRACKS:
            errors.add(stmt.span, f"route {stmt.a.text} - {stmt.b.text} has more than {MAX_TRACKS} tracks")
            return None
    earlier.append(stmt)
    # a route apart (an attribute says so) shares its pair's names but forms no double with it
    apart = any(attr.apart for attr in stmt.attrs)
    return dict(stmt=stmt, a=a, b=b, length=length, colour=colour, pair=key_pair,
                group=(key_pair, index) if apart else key_pair)


def _graph_routes(cities: list[dict], route_rows: list[dict], groups) -> tuple[list[ir.Route], int, list]:
    """The IR's routes, in declaration order, and the graph's nodes: a city is one node, a
    dead-end place one node per route end. Returns the routes, the number of nodes and each
    city's nodes."""
    node_count = len(cities)
    city_nodes: list[list[int]] = [[i] if not c["dead_end"] else [] for i, c in enumerate(cities)]
    routes: list[ir.Route] = []
    group_ids: dict[tuple[str, str], int] = {}
    for row in route_rows:
        stmt = row["stmt"]
        ends = []
        for city in (row["a"], row["b"]):
            if cities[city]["dead_end"]:
                ends.append(node_count)
                city_nodes[city].append(node_count)
                node_count += 1
            else:
                ends.append(city)
        group = group_ids.setdefault(row["group"], len(group_ids))
        tracks = len(groups[row["pair"]])
        track = groups[row["pair"]].index(stmt) + 1
        base = f"{cities[row['a']]['name']}-{cities[row['b']]['name']}"
        name = base if tracks == 1 else f"{base}/{track}"
        routes.append(ir.Route(
            id=len(routes), name=name, a=row["a"], b=row["b"], node_a=ends[0], node_b=ends[1],
            length=row["length"], colour=row["colour"], colour_name=stmt.colour.text if row["colour"] != ir.GRAY
            else "gray", group=group, track=track, tracks=tracks, span=stmt.span))
    return routes, node_count, city_nodes


def _unreached_cities(errors: Errors, cities: list[dict], links: list[tuple[int, int]]) -> None:
    """Every declared city is reached by a route (once the map has any)."""
    reached = {a for a, _ in links} | {b for _, b in links}
    for i, c in enumerate(cities):
        if i not in reached and links:
            errors.add(c["span"], f"city '{c['name']}' is declared but no route reaches it")


def check_route_spaces(spec: Statements, board: Map) -> None:
    """The spaces a route's attributes take from its cards of one colour (a ferry's
    locomotives, wave spaces; ``RouteAttr.spaces``) fit in its length together. (Each alone
    is checked by the mechanic that owns it.)"""
    for stmt, length in board.attributed:
        taken = [attr for attr in stmt.attrs if 0 < attr.spaces() <= length]
        if len(taken) > 1 and sum(attr.spaces() for attr in taken) > length:
            spec.errors.add(taken[-1].value_span, f"a route of length {length} cannot have "
                                                  f"{' and '.join(attr.spaces_text() for attr in taken)}")


def check_playable(spec: Statements, places: Places) -> None:
    """A map a game can be played on: a city, and a route to claim. (Tickets, when dealt,
    are checked with the tickets; a route longer than the trains with the routes.) Run
    after the missing statements are listed, so those come first."""
    if not places.cities:
        spec.errors.add(spec.top, "the map has no city: declare each with 'city NAME'")
    elif not spec.many(ast.Route):
        spec.errors.add(spec.top, "the map has no route: a game needs a route to claim "
                                  "('route CITY - CITY LENGTH COLOUR')")


# --- tickets --------------------------------------------------------------------------------

def check_tickets(spec: Statements, places: Places, links, players: Players, turn: Turn) -> list[ir.Ticket]:
    """Tickets: each must be completable, none twice; the regular deck must be able to deal.
    A ticket of several destinations (a mechanic's form) is completable when one of them
    is, and holds the points of its best one; ``copies N`` makes N tickets of one line."""
    errors = spec.errors
    cities = places.cities
    components = _components([c["dead_end"] for c in cities], list(links))
    through_dead_ends = _components([False] * len(cities), list(links))
    tickets: list[ir.Ticket] = []
    ticket_names: dict[str, int] = {}
    ticket_pairs: dict[tuple, ir.Ticket] = {}
    for stmt in spec.many(ast.Ticket):
        ends = stmt.ends()
        a = places.ref(stmt.a, "ticket")
        maybe_refs = [places.ref(name, "ticket") for name, _ in ends]
        worth = [spec.points(num, "ticket points", allow_zero=False) for _, num in ends]
        copies = spec.positive(stmt.copies, "the copies of a ticket", most=limits.MAX_TICKETS) \
            if stmt.copies is not None else 1
        refs = [ref for ref in maybe_refs if ref is not None]
        if a is None or len(refs) < len(maybe_refs) or not copies or not _ends_differ(errors, stmt, a, refs):
            continue
        if not any(components[a] & components[b] for b in refs):
            _never_completed(errors, stmt, a, refs, cities, through_dead_ends)
            continue
        key, shown = _ticket_key(stmt, worth)
        same = ticket_pairs.get(key)
        if same is not None:
            hint = " (write 'copies N' for a ticket printed several times)" if stmt.copies is None else ""
            errors.add(stmt.span, f"duplicate ticket {shown} (already declared at {line_of(same.span, stmt.span)})"
                                  f"{hint}")
            continue
        best = max(range(len(ends)), key=lambda k: (worth[k], -k))  # the best destination, the first among equals
        base = f"{stmt.a.text}-{'|'.join(name.text for name, _ in ends)}"
        for _copy in range(copies):
            name = _copy_name(base, ticket_names)
            ticket_names[name] = len(tickets)
            tickets.append(ir.Ticket(len(tickets), name, a, refs[best], worth[best], stmt.deck, stmt.span))
        ticket_pairs[key] = tickets[-1]
    _check_deck(spec, players, turn)
    return tickets


def _ends_differ(errors: Errors, stmt: ast.Ticket, a: int, refs: list[int]) -> bool:
    """A ticket joins a city to other cities, each named once; False after an error."""
    if a in refs:
        errors.add(stmt.span, f"ticket from '{stmt.a.text}' to itself")
        return False
    ends = stmt.ends()
    twice = next((name for k, (name, _) in enumerate(ends) if refs.index(refs[k]) != k), None)
    if twice is not None:
        errors.add(twice.span, f"destination '{twice.text}' is given twice")
        return False
    return True


def _never_completed(errors: Errors, stmt: ast.Ticket, a: int, refs: list[int], cities: list[dict],
                     through_dead_ends: list[set[int]]) -> None:
    """The error of a ticket no chain of routes can complete, saying when a dead-end place
    is what stops it."""
    ends = stmt.ends()
    kinds = sorted({c["words"] for c in cities if c["dead_end"]})
    what = f"a {kinds[0]}" if len(kinds) == 1 else "a dead-end place"
    note = f" ({what} is a dead end: no chain passes through one)" \
        if any(through_dead_ends[a] & through_dead_ends[b] for b in refs) else ""
    if len(ends) == 1:
        errors.add(stmt.span, f"ticket {stmt.a.text} - {stmt.b.text} can never be completed: "
                              f"no chain of routes joins the two cities{note}")
    else:
        errors.add(stmt.span, f"ticket {stmt.a.text} - {' | '.join(name.text for name, _ in ends)} can "
                              f"never be completed: no chain of routes joins {stmt.a.text} to any of its "
                              f"destinations{note}")


def _ticket_key(stmt: ast.Ticket, worth: list[int]) -> tuple[tuple, str]:
    """What makes two ticket statements the same ticket (their cities either way round,
    points and deck), and how a message shows it."""
    ends = stmt.ends()
    key: tuple
    if len(ends) == 1:
        key = (*pair(stmt.a.text, stmt.b.text), worth[0], stmt.deck)
        shown = f"{stmt.a.text} - {stmt.b.text} {worth[0]}"
    else:
        key = (stmt.a.text, tuple(sorted((name.text, n) for (name, _), n in zip(ends, worth))), stmt.deck)
        shown = f"{stmt.a.text} - {' | '.join(f'{name.text}:{n}' for (name, _), n in zip(ends, worth))}"
    return key, shown


def _copy_name(base: str, taken: dict[str, int]) -> str:
    """A ticket's name: ``base`` (``A-B``), or ``base/N`` with the first N from 2 not taken."""
    if base not in taken:
        return base
    n = 2
    while f"{base}/{n}" in taken:
        n += 1
    return f"{base}/{n}"


def _written_copies(stmt: ast.Ticket) -> int:
    """How many tickets a statement writes, for the deck's counts (an error of its own is
    reported where the statement is checked)."""
    return stmt.copies.value if stmt.copies is not None and 0 < stmt.copies.value <= limits.MAX_TICKETS else 1


def _check_deck(spec: Statements, players: Players, turn: Turn) -> None:
    """The tickets as written fit ``MAX_TICKETS``, and the regular deck can deal every
    player their tickets. (A ticket with an error of its own still counts, so that one
    mistake is reported once.)"""
    errors = spec.errors
    declared = spec.many(ast.Ticket)
    written = 0
    for stmt in declared:
        written += _written_copies(stmt)
        if written > limits.MAX_TICKETS:
            errors.add(stmt.span, f"at most {limits.MAX_TICKETS:,} tickets are supported, "
                                  f"got {sum(map(_written_copies, declared)):,}")
            break
    regular = sum(_written_copies(t) for t in declared if not t.deck)
    deal = spec.one(ast.Deal)
    if deal:
        if regular == 0:
            errors.add(deal.span, "tickets are dealt but no ticket is declared")
        elif players.ok and regular < turn.deal_regular * players.high:
            errors.add(deal.span, f"{regular} tickets cannot deal {turn.deal_regular} to each of "
                                  f"{players.high} players")


def _components(dead_end: list[bool], links: list[tuple[int, int]]) -> list[set[int]]:
    """For each city, the connected components its graph nodes are in, over the city pairs
    of all routes. A city is one node; a dead-end place is one node per route (Italy: two
    routes into one country do not connect), so it can be in several components and no
    path goes through it. A ticket can be completed when its two ends share a component."""
    parent = list(range(len(dead_end)))
    nodes: list[list[int]] = [[i] if not d else [] for i, d in enumerate(dead_end)]

    def node(city: int) -> int:
        if not dead_end[city]:
            return city
        parent.append(len(parent))
        nodes[city].append(parent[-1])
        return parent[-1]

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for a, b in links:
        parent[find(node(a))] = find(node(b))
    return [{find(n) for n in ns} for ns in nodes]
