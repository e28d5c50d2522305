"""Stage 2, check: the statements of a spec (and of the specs it extends) to the variant IR.

Every problem is collected as a located :class:`SpecError`; when any was found the
stage raises one :class:`SpecCheckError` listing them all, in source order. Nothing here
raises anything else on bad input.
"""
from __future__ import annotations

import difflib
import hashlib
from collections import defaultdict
from dataclasses import dataclass, replace

from . import catalogue, ir
from .base import limits
from .base.errors import Span, SpecCheckError, SpecError, SpecWarning
from .lang import ast
from .mechanic import Payments, Registry, default_registry, part

# The bounds the core's stages check (their reasons are in limits.py and docs/language.md,
# "Limits"); each mechanic checks its own, beside its check.
MAX_PLAYERS = limits.MAX_PLAYERS
MAX_TRACKS = limits.MAX_TRACKS
MAX_OFFER = limits.MAX_OFFER
MAX_ROUTE_LENGTH = limits.MAX_ROUTE_LENGTH


class _Errors:
    """Collects located errors; knows each file's text so it can quote the line.

    Raised, the errors come in source order, at most ``MAX_ERRORS_PER_FILE`` of each file
    followed by a line counting the rest, and with every name longer than ``NAME_SHOWN``
    characters shortened (the caret still marks all of it)."""

    def __init__(self, files: list[ast.SpecFile]):
        # split only on "\n", as the parser counts lines (str.splitlines also splits on
        # form feeds and other separators that can sit inside a line)
        self.lines = {f.path: [ln.rstrip("\r") for ln in f.text.split("\n")] for f in files}
        self.long_names = sorted({text for f in files for stmt in f.statements for text in stmt.texts()
                                  if len(text) > limits.NAME_SHOWN}, key=len, reverse=True)
        self.removed_cities: dict[str, Span] = {}
        self.items: list[SpecError] = []
        self.warnings: list[SpecWarning] = []
        self.per_file: dict[str, int] = defaultdict(int)

    def add(self, span: Span, message: str) -> None:
        lines = self.lines.get(span.file, [])
        line = lines[span.line - 1] if 0 < span.line <= len(lines) else None
        self.items.append(SpecError(message, span, line))
        self.per_file[span.file] += 1

    def warn(self, span: Span, message: str) -> None:
        """A located warning: content that checks but does nothing (see SpecWarning)."""
        lines = self.lines.get(span.file, [])
        line = lines[span.line - 1] if 0 < span.line <= len(lines) else None
        self.warnings.append(SpecWarning(self._shortened(message), span, line))

    def sorted_warnings(self) -> tuple[SpecWarning, ...]:
        return tuple(sorted(self.warnings, key=lambda w: (w.span.file, w.span.line, w.span.col)))

    def full(self, file: str) -> bool:
        """Whether the file has as many errors as are shown: further ones are only counted,
        so work spent on their wording (suggestions) is skipped."""
        return self.per_file[file] >= limits.MAX_ERRORS_PER_FILE

    def _shortened(self, message: str) -> str:
        for name in self.long_names:
            if name in message:
                message = message.replace(name, limits.shown(name))
        return message

    def raise_if_any(self) -> None:
        if not self.items:
            return
        self.items.sort(key=lambda e: (e.span.file, e.span.line, e.span.col) if e.span else ("", 0, 0))
        shown: list[SpecError] = []
        by_file: dict[str, list[SpecError]] = {}
        for e in self.items:
            by_file.setdefault(e.span.file if e.span else "", []).append(e)
        for file, items in by_file.items():
            for e in items[:limits.MAX_ERRORS_PER_FILE]:
                shown.append(SpecError(self._shortened(e.message), e.span, e.source_line))
            rest = len(items) - limits.MAX_ERRORS_PER_FILE
            if rest > 0:
                shown.append(SpecError(f"{file}: {rest} more error{'s' if rest > 1 else ''} not shown "
                                       f"(the first {limits.MAX_ERRORS_PER_FILE} are above)"))
        raise SpecCheckError(shown)


def _suggest(name: str, known) -> str:
    same_but_case = [k for k in known if k.lower() == name.lower()]
    close = same_but_case or difflib.get_close_matches(name, list(known), n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _line_of(earlier: Span, here: Span) -> str:
    """Where an earlier declaration is, from the point of view of a later one: "line 12",
    or "usa.rail:12" when it is in another file of the extends chain."""
    if earlier.file == here.file:
        return f"line {earlier.line}"
    return f"{earlier.file.replace(chr(92), '/').rsplit('/', 1)[-1]}:{earlier.line}"


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def merge(files: list[ast.SpecFile], errors: _Errors) -> list[ast.Stmt]:
    """Flatten an extends chain (base first) into one statement list, as each statement's
    class says (``Stmt.merge``): a scalar given again in a later file replaces the earlier
    value; a keyed statement (an action, a card colour, a returned-ticket rule, a
    mechanic's company or region …) given again for the same key replaces the inherited
    one in place; list statements (cities, routes, tickets) add up; ``without`` removes an
    inherited item.
    """
    merged: list[ast.Stmt] = []
    for spec in files:
        seen_here: dict[type, ast.Stmt] = {}
        for stmt in spec.statements:
            kind = type(stmt)
            if kind.merge == ast.SCALAR:
                if kind in seen_here:
                    errors.add(stmt.span, f"'{kind.words}' is given twice "
                                          f"(first at line {seen_here[kind].span.line})")
                    continue
                seen_here[kind] = stmt
                merged = [s for s in merged if type(s) is not kind]
            elif isinstance(stmt, ast.Without):
                merged = _remove(merged, stmt, errors)
                continue
            elif kind.merge == ast.KEYED:
                key = stmt.key()
                inherited = next((i for i, s in enumerate(merged) if type(s).merge == ast.KEYED
                                  and s.key() == key and s.span.file != stmt.span.file), None)
                if inherited is not None:
                    merged[inherited] = stmt
                    continue
            elif isinstance(stmt, ast.Extends):
                if ast.Extends in seen_here:
                    errors.add(stmt.span, f"'extends' is given twice "
                                          f"(first at line {seen_here[ast.Extends].span.line})")
                seen_here[ast.Extends] = stmt
                continue
            merged.append(stmt)
    return merged


def _remove(merged: list[ast.Stmt], stmt: ast.Without, errors: _Errors) -> list[ast.Stmt]:
    def matches(s: ast.Stmt) -> bool:
        if stmt.what == "city":
            return isinstance(s, ast.PlaceDecl) and s.name.text == stmt.names[0].text
        a, b = stmt.names[0].text, stmt.names[1].text
        if stmt.what == "ticket":
            return isinstance(s, ast.Ticket) and _pair(s.a.text, s.b.text) == _pair(a, b)
        return (isinstance(s, ast.Route) and _pair(s.a.text, s.b.text) == _pair(a, b)
                and (stmt.length is None or s.length.value == stmt.length.value))
    kept = [s for s in merged if not matches(s)]
    if stmt.what == "city" and len(kept) < len(merged):
        errors.removed_cities[stmt.names[0].text] = stmt.span
    if len(kept) == len(merged):
        what = " - ".join(n.text for n in stmt.names)
        errors.add(stmt.span, f"'without {stmt.what} {what}': no such {stmt.what} to remove")
    return kept


class _Statements:
    """The merged statements of a spec, with the lookups every stage uses, and the list
    of required statements found missing (reported together at line 1)."""

    def __init__(self, stmts: list[ast.Stmt], errors: _Errors, main: ast.SpecFile, required: list[type]):
        self.stmts = stmts
        self.errors = errors
        self.main = main
        self.top = Span(main.path, 1, 1, 2)
        self.missing: list[str] = [f"'{kind.words}'" for kind in required if self.one(kind) is None]

    def one(self, kind):
        """The statement of this (scalar) kind in force, or None."""
        found = [s for s in self.stmts if isinstance(s, kind)]
        return found[-1] if found else None

    def many(self, kind) -> list:
        return [s for s in self.stmts if isinstance(s, kind)]

    def positive(self, num: ast.Num | None, what: str, allow_zero: bool = False, most: int | None = None) -> int:
        """The number's value, or 0 after an error when it is negative (or zero, unless
        allowed), or above ``most``."""
        if num is None:
            return 0
        if num.value < 0 or (num.value == 0 and not allow_zero):
            self.errors.add(num.span, f"{what} must be {'zero or more' if allow_zero else 'positive'}, "
                                      f"got {limits.shown_number(num.value)}")
            return 0
        if most is not None and num.value > most:
            self.errors.add(num.span, f"{what} must be at most {most:,}, got {limits.shown_number(num.value)}")
            return 0
        return num.value

    def points(self, num: ast.Num | None, what: str, allow_zero: bool = True) -> int:
        """A points value: zero or more (or positive) and at most ``MAX_POINTS``."""
        return self.positive(num, what, allow_zero=allow_zero, most=limits.MAX_POINTS)


@dataclass(frozen=True)
class _Players:
    low: int
    high: int
    ok: bool  # checks that depend on the range are skipped when the range itself is wrong


def _check_players(spec: _Statements) -> _Players:
    players = spec.one(ast.Players)
    if not players:
        return _Players(2, 2, False)
    low = spec.positive(players.low, "the least number of players")
    high = spec.positive(players.high, "the greatest number of players")
    if low and low < 2:
        spec.errors.add(players.low.span, f"a game needs at least 2 players, got {low}")
    if high > MAX_PLAYERS:
        spec.errors.add(players.high.span, f"at most {MAX_PLAYERS} players are supported, got {high}")
    if low > high:
        spec.errors.add(players.span, f"player range {low}..{high} is empty")
    return _Players(low, high, 2 <= low <= high <= MAX_PLAYERS)


@dataclass(frozen=True)
class _Components:
    trains: int
    hand: int
    colours: tuple[ir.Colour, ...]
    colour_ids: dict
    locomotives: int
    market_size: int
    reset_locomotives: int


def _check_components(spec: _Statements, players: _Players) -> _Components:
    """Trains, hand, card colours, locomotives and the market: each within its bound, and
    a deck big enough for every hand and then the market at the most players."""
    errors = spec.errors
    trains = spec.positive(spec.one(ast.Trains).count, "trains per player", most=limits.MAX_TRAINS) \
        if spec.one(ast.Trains) else 0
    hand_stmt = spec.one(ast.Hand)
    hand = spec.positive(hand_stmt.count, "the starting hand", allow_zero=True) if hand_stmt else 0

    colours: list[ir.Colour] = []
    colour_ids: dict[str, int] = {}
    counted: list[tuple[ast.Num, int]] = []  # each card and locomotive statement's count
    for card in spec.many(ast.Card):
        name = card.colour.text
        if name in ("gray", "grey", "loco", "locomotive", "ferry"):
            errors.add(card.colour.span, f"'{name}' is reserved and cannot name a card colour")
            continue
        if name in colour_ids:
            errors.add(card.colour.span, f"card colour '{name}' is declared twice "
                                         f"(first at {_line_of(colours[colour_ids[name]].span, card.span)})")
            continue
        if len(colours) == limits.MAX_COLOURS:  # still declared, so routes naming it are not errors too
            errors.add(card.colour.span, f"at most {limits.MAX_COLOURS} card colours are supported")
        count = spec.positive(card.count, f"the number of {name} cards", most=limits.MAX_CARDS)
        counted.append((card.count, count))
        colour_ids[name] = len(colours)
        colours.append(ir.Colour(len(colours), name, count, card.colour.span))
    if not spec.many(ast.Card):
        spec.missing.append("'card COLOUR N'")
    elif not colours:
        errors.add(spec.top, "no card colours: declare each with 'card COLOUR COUNT'")
    loco_stmt = spec.one(ast.Locomotives)
    locos = spec.positive(loco_stmt.count, "the number of locomotives", allow_zero=True, most=limits.MAX_CARDS) \
        if loco_stmt else 0
    if loco_stmt:
        counted.append((loco_stmt.count, locos))
    total = sum(c for _, c in counted)
    if total > limits.MAX_CARDS:
        largest = max(counted, key=lambda pair: pair[1])[0]
        errors.add(largest.span, f"the game has {total:,} train cards, more than the {limits.MAX_CARDS:,} "
                                 f"a deck may hold")
    dealt = 0
    if hand_stmt and hand and players.ok and colours and total <= limits.MAX_CARDS:
        dealt = hand * players.high
        if dealt > total:
            errors.add(hand_stmt.count.span, f"a hand of {hand} cards for each of {players.high} players needs "
                                             f"{dealt:,} train cards; the game has {total}")

    market = spec.one(ast.Market)
    market_size = reset_locos = 0
    if market:
        market_size = spec.positive(market.size, "the number of face-up cards", most=limits.MAX_MARKET)
        # 'market N no reset': 0, a market never dealt again (docs/engine.md, "The market")
        reset_locos = spec.positive(market.reset_locomotives, "the face-up locomotive limit")
        if market.max_resets is not None:
            errors.add(market.max_resets.span, "the market has no redeal limit any more: three face-up locomotives "
                                               "always cause a redeal while a market with fewer can be dealt "
                                               "(docs/rules.md); remove 'max N'")
        if market_size and reset_locos > market_size:
            errors.add(market.reset_locomotives.span,
                       f"a reset at {reset_locos} locomotives can never happen with {market_size} face-up cards")
        left = total - dealt
        if market_size and colours and players.ok and total <= limits.MAX_CARDS and dealt <= total \
                and market_size > left:
            after = f"once {players.high} players have their hands of {hand}" if dealt else "in the deck"
            errors.add(market.size.span, f"a market of {market_size} cards, but {left} train cards are left {after}")
    return _Components(trains=trains, hand=hand, colours=tuple(colours), colour_ids=colour_ids,
                       locomotives=locos, market_size=market_size, reset_locomotives=reset_locos)


@dataclass(frozen=True)
class _Turn:
    actions: dict  # action kind -> its ast.Action statement
    draw_cards: int
    draw_tickets: int
    draw_keep: int
    deal_regular: int
    deal_parts: tuple  # (deck, count) of each deck a mechanic deals at set-up, as written
    deal_keep: int
    returned: dict  # deck ("tickets", "setup", a mechanic's) -> "bottom" or a mechanic's place


def _check_turn(spec: _Statements) -> _Turn:
    """The actions a turn offers, the ticket deal and where returned tickets go."""
    errors = spec.errors
    actions_seen: dict[str, ast.Action] = {}
    for act in spec.many(ast.Action):
        if act.kind in actions_seen:
            errors.add(act.span, f"action '{act.kind.replace('_', ' ')}' is given twice "
                                 f"(first at {_line_of(actions_seen[act.kind].span, act.span)})")
        actions_seen[act.kind] = act
    for needed in ("draw_cards", "claim_route"):
        if needed not in actions_seen:
            spec.missing.append(f"'action {needed.replace('_', ' ')}'")
    draw_cards = 2
    if "draw_cards" in actions_seen:
        draw_cards = spec.positive(actions_seen["draw_cards"].numbers[0], "the number of cards drawn")
        if draw_cards and draw_cards != 2:
            errors.add(actions_seen["draw_cards"].numbers[0].span,
                       f"drawing {draw_cards} cards is not supported: the family draws 2")
    draw_tickets = draw_keep = 0
    if "draw_tickets" in actions_seen:
        n, k = actions_seen["draw_tickets"].numbers
        draw_tickets = spec.positive(n, "the number of tickets drawn")
        draw_keep = spec.positive(k, "the number of tickets kept")
        if draw_keep > draw_tickets:
            errors.add(k.span, f"cannot keep {draw_keep} of {draw_tickets} drawn tickets")
        if draw_tickets > MAX_OFFER:
            errors.add(n.span, f"at most {MAX_OFFER} tickets can be drawn at once, got {draw_tickets}")
    deal = spec.one(ast.Deal)
    deal_regular = deal_keep = 0
    deal_parts: list[tuple[str, int]] = []
    if deal:
        deal_regular = spec.positive(deal.regular, "the number of tickets dealt")
        for part in deal.parts:
            if any(deck == part.deck for deck, _ in deal_parts):
                errors.add(part.span, f"the {part.deck} tickets are dealt twice")
                continue
            deal_parts.append((part.deck, spec.positive(part.count, f"the number of {part.deck} tickets dealt",
                                                        allow_zero=True)))
        deal_keep = spec.positive(deal.keep, "the number of tickets kept", allow_zero=True)
        dealt = deal_regular + sum(count for _, count in deal_parts)
        if deal_keep > dealt:
            errors.add(deal.keep.span, f"cannot keep {deal_keep} of {dealt} dealt tickets")
        if dealt > MAX_OFFER:
            errors.add(deal.span, f"at most {MAX_OFFER} tickets can be dealt at once")
    returned = {"tickets": "bottom"}
    for ret in spec.many(ast.Returned):
        returned[ret.deck] = ret.place
    returned.setdefault("setup", returned["tickets"])
    return _Turn(actions=actions_seen, draw_cards=draw_cards, draw_tickets=draw_tickets, draw_keep=draw_keep,
                 deal_regular=deal_regular, deal_parts=tuple(deal_parts), deal_keep=deal_keep, returned=returned)


class _Places:
    """The declared places (cities, and any kind of place a mechanic declares), and name
    lookups that report unknown names."""

    def __init__(self, spec: _Statements):
        self.errors = spec.errors
        self.cities: list[dict] = []
        self.ids: dict[str, int] = {}
        for stmt in spec.stmts:
            if isinstance(stmt, ast.PlaceDecl):
                name = stmt.name.text
                if name in self.ids:
                    first = self.cities[self.ids[name]]["span"]
                    self.errors.add(stmt.name.span, f"city '{name}' is declared twice "
                                                    f"(first at {_line_of(first, stmt.span)})")
                    continue
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
        hint = "" if self.errors.full(name.span.file) else _suggest(name.text, self.ids)
        self.errors.add(name.span, f"unknown city '{name.text}' in {context}{hint}")
        return None


@dataclass(frozen=True)
class _Map:
    routes: tuple[ir.Route, ...]
    node_count: int
    city_nodes: tuple[tuple[int, ...], ...]
    links: tuple[tuple[int, int], ...]  # the city pairs of every route meant, errors or not
    route_points: tuple[int, ...]        # index = length
    # the route statements whose length and colour are valid, with their length: the
    # mechanics check the attributes of these
    attributed: tuple[tuple[ast.Route, int], ...]
    statements: tuple[ast.Route, ...]    # route id -> the statement it was made from (its attributes)


def _check_routes(spec: _Statements, places: _Places, parts: _Components) -> _Map:
    """Routes (doubles and triples as repeated city pairs), the route points table, and
    the graph nodes: one per city, and one per route end at a dead-end place. An attribute
    may be given once per route; the mechanics that own the attributes check their values
    and keep what they mean in their rule records."""
    errors = spec.errors
    route_points_stmt = spec.one(ast.RoutePoints)
    route_points: dict[int, int] = {}
    max_length = 0
    if route_points_stmt:
        route_points, max_length = _table(route_points_stmt.entries, "route points", errors,
                                          route_points_stmt.span, open_allowed=False,
                                          largest_key=MAX_ROUTE_LENGTH,
                                          beyond=f"no route is longer than {MAX_ROUTE_LENGTH}")
    groups: dict[tuple[str, str], list[ast.Route]] = defaultdict(list)
    route_rows = []
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
        given: set[str] = set()
        for attr in stmt.attrs:
            if attr.name in given:
                errors.add(attr.span, f"route attribute '{attr.name}' is given twice")
            given.add(attr.name)
        length = stmt.length.value
        if length <= 0:
            errors.add(stmt.length.span, f"a route length must be positive, got {length}")
            continue
        if length > MAX_ROUTE_LENGTH:
            errors.add(stmt.length.span, f"route length {length} is longer than the longest "
                                         f"supported ({MAX_ROUTE_LENGTH})")
            continue
        if parts.trains and length > parts.trains:
            errors.add(stmt.length.span, f"route length {length} is more than the {parts.trains} trains a player "
                                         f"has: the route could never be claimed")
        if route_points_stmt and length not in route_points:
            errors.add(stmt.length.span, f"route length {length} has no entry in the route points table "
                                         f"({_line_of(route_points_stmt.span, stmt.span)})")
        colour_text = stmt.colour.text
        if colour_text in ("gray", "grey"):
            colour = ir.GRAY
        elif colour_text in parts.colour_ids:
            colour = parts.colour_ids[colour_text]
        else:
            hint = "" if errors.full(stmt.colour.span.file) else _suggest(colour_text, parts.colour_ids)
            errors.add(stmt.colour.span, f"unknown colour '{colour_text}'{hint}; "
                                         f"colours are {', '.join(['gray', *parts.colour_ids])}")
            continue
        attributed.append((stmt, length))
        if a is None or b is None:
            continue
        if a == b:
            errors.add(stmt.span, f"route from '{stmt.a.text}' to itself")
            continue
        key_pair = _pair(stmt.a.text, stmt.b.text)
        earlier = groups[key_pair]
        if earlier:
            # the tracks of one route may differ in length (a printed triple has 4, 4 and 5
            # spaces): the group rules count tracks, never compare lengths
            same = [r for r in earlier if r.colour.text == colour_text and colour != ir.GRAY]
            if same:
                errors.add(stmt.span, f"duplicate route {stmt.a.text} - {stmt.b.text} {colour_text} "
                                      f"(already declared at {_line_of(same[0].span, stmt.span)})")
                continue
            if len(earlier) >= MAX_TRACKS:
                errors.add(stmt.span, f"route {stmt.a.text} - {stmt.b.text} has more than {MAX_TRACKS} tracks")
                continue
        earlier.append(stmt)
        # a route apart (an attribute says so) shares its pair's names but forms no double with it
        apart = any(attr.apart for attr in stmt.attrs)
        route_rows.append(dict(stmt=stmt, a=a, b=b, length=length, colour=colour, pair=key_pair,
                               group=(key_pair, len(route_rows)) if apart else key_pair))

    cities = places.cities
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

    reached = {a for a, _ in links} | {b for _, b in links}
    for i, c in enumerate(cities):
        if i not in reached and links:
            errors.add(c["span"], f"city '{c['name']}' is declared but no route reaches it")
    return _Map(routes=tuple(routes), node_count=node_count, city_nodes=tuple(tuple(n) for n in city_nodes),
                links=tuple(links), route_points=tuple(route_points.get(n, 0) for n in range(max_length + 1)),
                attributed=tuple(attributed), statements=tuple(row["stmt"] for row in route_rows))


def _check_route_spaces(spec: _Statements, board: _Map) -> None:
    """The spaces a route's attributes take from its cards of one colour (a ferry's
    locomotives, wave spaces; ``RouteAttr.spaces``) fit in its length together. (Each alone
    is checked by the mechanic that owns it.)"""
    for stmt, length in board.attributed:
        taken = [attr for attr in stmt.attrs if 0 < attr.spaces() <= length]
        if len(taken) > 1 and sum(attr.spaces() for attr in taken) > length:
            spec.errors.add(taken[-1].value_span, f"a route of length {length} cannot have "
                                            f"{' and '.join(attr.spaces_text() for attr in taken)}")


def _written_copies(stmt: ast.Ticket) -> int:
    """How many tickets a statement writes, for the deck's counts (an error of its own is
    reported where the statement is checked)."""
    return stmt.copies.value if stmt.copies is not None and 0 < stmt.copies.value <= limits.MAX_TICKETS else 1


def _check_tickets(spec: _Statements, places: _Places, links, players: _Players, turn: _Turn) -> list[ir.Ticket]:
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
        refs = [places.ref(name, "ticket") for name, _ in ends]
        worth = [spec.points(num, "ticket points", allow_zero=False) for _, num in ends]
        copies = spec.positive(stmt.copies, "the copies of a ticket", most=limits.MAX_TICKETS) \
            if stmt.copies is not None else 1
        if a is None or None in refs or not copies:
            continue
        if a in refs:
            errors.add(stmt.span, f"ticket from '{stmt.a.text}' to itself")
            continue
        twice = next((name for k, (name, _) in enumerate(ends) if refs.index(refs[k]) != k), None)
        if twice is not None:
            errors.add(twice.span, f"destination '{twice.text}' is given twice")
            continue
        if not any(components[a] & components[b] for b in refs):
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
            continue
        base = f"{stmt.a.text}-{'|'.join(name.text for name, _ in ends)}"
        if len(ends) == 1:
            key = (*_pair(stmt.a.text, stmt.b.text), worth[0], stmt.deck)
            shown = f"{stmt.a.text} - {stmt.b.text} {worth[0]}"
        else:
            key = (stmt.a.text, tuple(sorted((name.text, n) for (name, _), n in zip(ends, worth))), stmt.deck)
            shown = f"{stmt.a.text} - {' | '.join(f'{name.text}:{n}' for (name, _), n in zip(ends, worth))}"
        same = ticket_pairs.get(key)
        if same is not None:
            hint = " (write 'copies N' for a ticket printed several times)" if stmt.copies is None else ""
            errors.add(stmt.span, f"duplicate ticket {shown} (already declared at {_line_of(same.span, stmt.span)})"
                                  f"{hint}")
            continue
        best = max(range(len(ends)), key=lambda k: (worth[k], -k))  # the best destination, the first among equals
        for _copy in range(copies):
            name = base
            if name in ticket_names:
                n = 2
                while f"{base}/{n}" in ticket_names:
                    n += 1
                name = f"{base}/{n}"
            ticket_names[name] = len(tickets)
            tickets.append(ir.Ticket(len(tickets), name, a, refs[best], worth[best], stmt.deck, stmt.span))
        ticket_pairs[key] = tickets[-1]
    declared = spec.many(ast.Ticket)
    written = 0
    for stmt in declared:
        written += _written_copies(stmt)
        if written > limits.MAX_TICKETS:
            errors.add(stmt.span, f"at most {limits.MAX_TICKETS:,} tickets are supported, "
                                  f"got {sum(map(_written_copies, declared)):,}")
            break
    # the deck as written (a ticket with an error of its own still counts, so that one
    # mistake is reported once)
    regular = sum(_written_copies(t) for t in spec.many(ast.Ticket) if not t.deck)
    deal = spec.one(ast.Deal)
    if deal:
        if regular == 0:
            errors.add(deal.span, "tickets are dealt but no ticket is declared")
        elif players.ok and regular < turn.deal_regular * players.high:
            errors.add(deal.span, f"{regular} tickets cannot deal {turn.deal_regular} to each of "
                                  f"{players.high} players")
    return tickets


def _check_end(spec: _Statements, parts: _Components) -> int:
    """The end trigger: the trains a player may have left when the last round starts."""
    end = spec.one(ast.EndWhen)
    end_trains = spec.positive(end.trains_at_most, "the end trigger", allow_zero=True) if end else 0
    if end and parts.trains and end_trains >= parts.trains:
        spec.errors.add(end.trains_at_most.span,
                        f"the game would end at once: {end_trains} >= {parts.trains} trains")
    return end_trains


class CheckContext:
    """What a mechanic's checker stage sees: the merged statements of the spec and what the
    core's stages made of them. A stage reports problems with ``ctx.errors.add(span,
    message)``, and content that checks but does nothing (a statement with no effect) with
    ``ctx.warn(span, message)``; it returns its mechanic's rule record, or None when the
    spec does not use the mechanic."""

    def __init__(self, spec: _Statements, players: _Players, parts: _Components, turn: _Turn,
                 places: _Places, board: _Map, tickets: list[ir.Ticket], registry=None):
        self.errors = spec.errors
        self.registry = registry
        self.tiebreaks_named: list[tuple[list, Span]] = []  # keys a mechanic's statement named, checked at the end
        self.top = spec.top
        self.players = players
        self.parts = parts
        self.turn = turn
        self.places = places
        self.board = board
        self.tickets = tuple(tickets)
        self._spec = spec

    def warn(self, span: Span, message: str) -> None:
        """A located warning: the spec checks, but this part of it does nothing."""
        self.errors.warn(span, message)

    def one(self, kind):
        """The statement of this (scalar) kind in force, or None."""
        return self._spec.one(kind)

    def many(self, kind) -> list:
        """Every statement of this kind, in source order."""
        return self._spec.many(kind)

    def positive(self, num, what: str, allow_zero: bool = False, most: int | None = None) -> int:
        """The number's value, or 0 after an error when it is negative (or zero, unless
        allowed), or above ``most``."""
        return self._spec.positive(num, what, allow_zero, most)

    def points(self, num, what: str, allow_zero: bool = True) -> int:
        """A points value: zero or more (or positive) and at most ``limits.MAX_POINTS``."""
        return self._spec.points(num, what, allow_zero)

    def action(self, kind: str):
        """The ``action KIND`` statement (e.g. ``build_station``), or None."""
        return self.turn.actions.get(kind)

    def dealt(self, deck: str) -> int:
        """How many tickets of a mechanic's ``deck`` each player is dealt at set-up (0 when
        ``deal tickets`` names no such part)."""
        return dict(self.turn.deal_parts).get(deck, 0)

    def routes_with(self, attribute: str) -> list[tuple[ir.Route, ast.RouteAttr]]:
        """The routes whose statement gives ``attribute``, each with the attribute as written."""
        out = []
        for route, stmt in zip(self.board.routes, self.board.statements):
            attr = stmt.attr(attribute)
            if attr is not None:
                out.append((route, attr))
        return out

    def tiebreaks(self, names, span: Span) -> list:
        """Tie-break keys a mechanic's statement names (an award that breaks its own ties,
        ``names`` the name nodes as written), resolved as the ``tiebreak`` statement's are:
        the ``TieBreak`` definitions, in order. Unknown keys and keys given twice are
        reported here; a key whose mechanic the spec does not use, once every mechanic
        has been checked."""
        keys = _resolve_tiebreaks(names, span, self.registry, self.errors)
        self.tiebreaks_named.append((keys, span))
        return keys

    @staticmethod
    def line_of(earlier: Span, here: Span) -> str:
        return _line_of(earlier, here)

    @staticmethod
    def suggest(name: str, known) -> str:
        return _suggest(name, known)

    def table(self, entries, what: str, span: Span, *, open_allowed: bool, from_one: bool = True):
        """Check a key:value table (keys rising without holes); returns (dict, largest key)."""
        return _table(entries, what, self.errors, span, open_allowed=open_allowed, from_one=from_one)


def _resolve_tiebreaks(names, span: Span, registry, errors: _Errors) -> list:
    """The tie-break keys written ``names`` (name nodes, in order), as the registry defines
    them: an unknown key or one given twice is an error; whether each key's mechanic is
    used is checked once every mechanic has been (:func:`_tiebreaks_available`)."""
    known = registry.tiebreak_words()
    keys = []
    for name in names:
        tb = known.get(name.text)
        if tb is None:
            errors.add(name.span, f"unknown tie-break '{name.text}'{_suggest(name.text, known)}; "
                                  f"the keys are {', '.join(sorted(known))}")
            continue
        if any(k.name == tb.name for k in keys):
            errors.add(span, f"tie-break '{tb.words}' is given twice")
            continue
        keys.append(tb)
    return keys


def _tiebreaks_available(keys, span: Span, present: set[str], errors: _Errors) -> None:
    """A mechanic's key needs the mechanic (``longest path`` the bonus)."""
    for tb in keys:
        if tb.owner != "core" and tb.owner not in present:
            errors.add(span, tb.unavailable)


def _check_tiebreaks(spec: _Statements, registry, present: set[str]) -> tuple[str, ...]:
    """The tie-break keys in order: each one a key of the core or of a mechanic the variant
    uses; none twice. Without the statement: most tickets."""
    tiebreak = spec.one(ast.Tiebreak)
    if not tiebreak:
        return ("most_tickets",)
    keys = _resolve_tiebreaks(tiebreak.keys, tiebreak.span, registry, spec.errors)
    _tiebreaks_available(keys, tiebreak.span, present, spec.errors)
    return tuple(tb.name for tb in keys)


def check(files: list[ast.SpecFile], variant_key: str, registry: Registry | None = None) -> ir.Variant:
    """Check the statements of ``files`` (an extends chain, base first) and build the IR,
    bound to ``registry`` (``Variant.registry``; every installed mechanic by default).

    The core's checks run as a chain of small stages over the merged statements, then
    each mechanic's stage of ``registry``, in registry order, each reporting into one
    error list; the IR is built only when none found anything."""
    registry = registry or default_registry()
    errors = _Errors(files)
    required = [cls for cls in registry.language.nodes if issubclass(cls, ast.Stmt) and cls.required]
    spec = _Statements(merge(files, errors), errors, files[-1], required)
    players = _check_players(spec)
    parts = _check_components(spec, players)
    turn = _check_turn(spec)
    places = _Places(spec)
    board = _check_routes(spec, places, parts)
    _check_route_spaces(spec, board)
    tickets = _check_tickets(spec, places, board.links, players, turn)
    end_trains = _check_end(spec, parts)
    ctx = CheckContext(spec, players, parts, turn, places, board, tickets, registry)
    rules = []
    for mechanic in registry:
        rule = mechanic.check(ctx)
        if rule is not None:
            if type(rule) is not mechanic.rule:
                raise TypeError(f"mechanic {mechanic.name}: check() returned a {type(rule).__name__}, "
                                f"not its rule {mechanic.rule.__name__}")
            rules.append(rule)
    tiebreaks = _check_tiebreaks(spec, registry, {r.mechanic for r in rules})
    for keys, span in ctx.tiebreaks_named:
        _tiebreaks_available(keys, span, {r.mechanic for r in rules}, errors)
    if len(spec.missing) == 1:
        errors.add(spec.top, f"missing {spec.missing[0]} statement: every spec needs one")
    elif spec.missing:
        errors.add(spec.top, f"missing statements {', '.join(spec.missing)}: every spec needs each")
    _check_playable(spec, places, board)
    errors.raise_if_any()

    cities = tuple(ir.City(i, c["name"], c["dead_end"], c["span"], c["at"]) for i, c in enumerate(places.cities))
    used = {type(rule) for rule in rules}
    variant = ir.Variant(
        key=variant_key, name=spec.one(ast.VariantName).name, spec_path=spec.main.path, spec_hash="",
        sources=tuple(s.text for s in spec.many(ast.Source)),
        provisional=spec.one(ast.Provisional).text if spec.one(ast.Provisional) else "",
        min_players=players.low, max_players=players.high, trains=parts.trains, hand=parts.hand,
        colours=parts.colours, locomotives=parts.locomotives, market_size=parts.market_size,
        market_reset_locomotives=parts.reset_locomotives,
        deal_regular=turn.deal_regular, deal_parts=turn.deal_parts, deal_keep=turn.deal_keep,
        draw_cards=turn.draw_cards, draw_tickets=turn.draw_tickets, draw_tickets_keep=turn.draw_keep,
        cities=cities, node_count=board.node_count, city_nodes=board.city_nodes, routes=board.routes,
        tickets=tuple(tickets), end_trains=end_trains, route_points=board.route_points, tiebreaks=tiebreaks,
        actions=(), claim_layout=ir.ClaimLayout((), ()), rules=tuple(rules), registry=registry,
        payment_columns=tuple(column for mechanic in registry if mechanic.rule in used
                              for column in part(mechanic, Payments).payment_columns))
    _check_score_bound(spec, variant)
    errors.raise_if_any()
    present = variant.present()
    entries = []
    for mechanic, rule in present:
        entries.extend(mechanic.actions(variant, rule))
    actions, layout = catalogue.build(variant, entries, present)
    return _with_hash(replace(variant, actions=actions, claim_layout=layout, warnings=errors.sorted_warnings()))


def _check_playable(spec: _Statements, places: _Places, board: _Map) -> None:
    """A map a game can be played on: a city, and a route to claim. (Tickets, when dealt,
    are checked with the tickets; a route longer than the trains with the routes.) Run
    after the missing statements are listed, so those come first."""
    if not places.cities:
        spec.errors.add(spec.top, "the map has no city: declare each with 'city NAME'")
    elif not spec.many(ast.Route):
        spec.errors.add(spec.top, "the map has no route: a game needs a route to claim "
                                  "('route CITY - CITY LENGTH COLOUR')")


def score_bound(variant: ir.Variant) -> list[tuple[str, int]]:
    """The most each part of the score (the core's route points and tickets, then each
    mechanic's items that count in the total) can add to, or take from, one player's total:
    (name, bound) pairs, None as a bound when a mechanic does not say."""
    parts = [("routes", sum(variant.route_points[r.length] for r in variant.routes)),
             ("tickets", sum(t.points for t in variant.tickets))]
    for mechanic, rule in variant.present():
        parts.append((mechanic.name, mechanic.score_bound(variant, rule)))
    return parts


def _check_score_bound(spec: _Statements, variant: ir.Variant) -> None:
    """No total can wrap: the largest score a player could reach, every route owned, every
    ticket held and every bonus won, fits ``limits.MAX_SCORE`` (scores are C ints)."""
    parts = [(name, bound) for name, bound in score_bound(variant) if bound]
    total = sum(bound for _, bound in parts)
    if total <= limits.MAX_SCORE:
        return
    name, _ = max(parts, key=lambda part: part[1])
    if name == "routes":
        where = spec.one(ast.RoutePoints).span
    elif name == "tickets":
        where = max(variant.tickets, key=lambda t: t.points).span
    else:
        where = getattr(variant.rule(name), "span", None) or spec.top
    spec.errors.add(where, f"the largest score a player could reach is {total:,} "
                           f"({', '.join(f'{n.replace(chr(95), chr(32))} {b:,}' for n, b in parts)}), more than "
                           f"the {limits.MAX_SCORE:,} a score may be: lower the largest points")


def _table(entries, what: str, errors: _Errors, span: Span, *, open_allowed: bool, from_one: bool = True,
           largest_key: int | None = None, beyond: str = ""):
    """Check a key:value table: keys rising without holes, none above ``largest_key`` (the
    error then says ``beyond``), values from 0 to ``MAX_POINTS``; returns (dict, largest key)."""
    table: dict[int, int] = {}
    for e in entries:
        if e.key.value in table:
            errors.add(e.key.span, f"{what} table gives {e.key.value} twice")
            continue
        if e.key.value <= 0:
            errors.add(e.key.span, f"{what} table keys must be positive, got {limits.shown_number(e.key.value)}")
            continue
        if largest_key is not None and e.key.value > largest_key:
            errors.add(e.key.span, f"{what} table key {limits.shown_number(e.key.value)}: {beyond}")
            continue
        if e.open_ended and not open_allowed:
            errors.add(e.key.span, f"the {what} table cannot have an open-ended entry '{e.key.value}+'")
        if e.value.value < 0:
            errors.add(e.value.span, f"{what} must be zero or more, got {limits.shown_number(e.value.value)}")
        elif e.value.value > limits.MAX_POINTS:
            errors.add(e.value.span, f"{what} must be at most {limits.MAX_POINTS:,}, "
                                     f"got {limits.shown_number(e.value.value)}")
        table[e.key.value] = e.value.value
    if table:
        keys = sorted(table)
        start = 1 if from_one else keys[0]
        for k in range(start, keys[-1] + 1):
            if k not in table:
                after = min((e for e in entries if e.key.value > k), key=lambda e: e.key.value)
                errors.add(after.key.span, f"{what} table has no entry for {k}"
                                           f"{f' (between {k - 1} and {after.key.value})' if k > start else ''}")
                break
        for e in entries:
            if e.open_ended and e.key.value != keys[-1]:
                errors.add(e.key.span, f"the open-ended entry '{e.key.value}+' must have the largest key "
                                       f"in the {what} table")
    return table, (max(table) if table else 0)


def _components(zone: list[bool], links: list[tuple[int, int]]) -> list[set[int]]:
    """For each city, the connected components its graph nodes are in, over the city pairs
    of all routes. A city is one node; a zone is a dead end per route (Italy: two routes
    into one country do not connect), so a zone can be in several components and no path
    goes through it. A ticket can be completed when its two ends share a component."""
    parent = list(range(len(zone)))
    nodes: list[list[int]] = [[i] if not z else [] for i, z in enumerate(zone)]

    def node(city: int) -> int:
        if not zone[city]:
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


def _with_hash(variant: ir.Variant) -> ir.Variant:
    digest = hashlib.sha256(ir.canonical_json(variant).encode("utf-8")).hexdigest()[:16]
    return replace(variant, spec_hash=digest)
