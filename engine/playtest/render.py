"""The map as an SVG picture: cities, routes in their colours with their lengths, and
optionally a game's claims and the marks of its mechanics, or a value per route as a
heat map.

Cities sit at the coordinates the spec gives (``city NAME at X Y``); a spec without them,
or whose places all fall on one point, gets a computed layout, a seeded force-directed one,
so the same spec always draws the same way. Cities closer than a label's height are
nudged apart, each city's name is put at the first of several places around it that
covers no other name and no city (the whole map is drawn larger when some name finds no
such place), and the canvas is fitted to everything drawn, names and legend included.

A route is a row of spaces, one per unit of length, filled with its colour. A claimed
route is a row of cars filled with the owner's colour and framed in the route's colour;
the players' colours are chosen far from every card colour, and the legend lists the
players. Each route's length stands on a badge of the route's fill, in black or white,
whichever reads better on it; the badges of a double route are staggered along it.

What a mechanic adds is drawn as its ``Mechanic.looks`` says, without the renderer knowing
the mechanic: dashed routes (tunnels), a badge after a route's length (a ferry's ``F2``),
rings around named groups of cities (regions), dots beside named groups of routes
(companies), markers on cities in a player's colour (stations); the legend explains each
look in the words the mechanic gives (``Looks.legend``), or by the mechanic's title.
Every name from the spec is escaped: a spec string never becomes markup.
"""
from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from ..compiler import ir
from ..compiler.base.rng import SplitMix64
from ..compiler.mechanic import LEGEND_KEYS, Drawing, Looks, part

#: Fill colours of the card colours the stock specs name; other names get a colour of
#: their own from their name.
CARD_COLOURS = {
    "pink": "#e88bc4", "white": "#f4f4f4", "blue": "#3a6fd8", "yellow": "#f2d022", "orange": "#f08a24",
    "black": "#2b2b2b", "red": "#d8342c", "green": "#3aa650", "gray": "#a8a8a8", "purple": "#8a4fc9",
}
#: The players' colours, seat by seat: cyan, magenta, lime, brown, navy, maroon, olive, deep
#: pink. None is near a card colour (CIE76 distance at least 25 from each of CARD_COLOURS),
#: so a car's fill alone says it is a player's, whatever the colour of the route under it.
PLAYER_COLOURS = ("#00c8e0", "#e000e0", "#a0e000", "#6b3e00", "#1a237e", "#7b1020", "#808000", "#ff1493")
#: The cars of a route a claim took for no player (its owner is the number of players:
#: Japan's bullet routes), white with a dark edge, framed in the route's colour like a
#: player's: claimed, but nobody's.
NOBODY_COLOUR = "#ffffff"

SIZE = 1000.0  # the longer side of the map (city centres), in SVG units, before any enlarging
MARGIN = 40.0  # where the map's first city sits; the canvas is fitted afterwards
PAD = 16.0  # blank border around everything drawn
BACKGROUND = "#fbf8ef"
CITY_FONT = 11.0
ROUTE_FONT = 9.0
LEGEND_FONT = 11.0
TITLE_FONT = 16.0
LINE_HEIGHT = 1.2  # of a font size, between the baselines of wrapped lines
LABEL_WRAP = 170.0  # city names wider than this are wrapped
LEGEND_WRAP = 240.0  # legend texts wider than this are wrapped
CAR_WIDTH = 7.0  # across a route
TRACK_GAP = 10.0  # between the centre lines of the tracks of a double route
CITY_RADIUS = 6.0
MIN_CITY_GAP = 16.0  # cities closer than this are nudged apart
GROW = 1.25  # how much larger the map is drawn when a name found no free place
GROW_TRIES = 7

# Helvetica's advance widths (in thousandths of an em) for the characters that differ from
# the common 556, widened by a tenth (DejaVu Sans, a common sans-serif, is wider): the
# layout needs each name's box, and no font is at hand to measure it.
_NARROW = {**dict.fromkeys("ijl", 222), **dict.fromkeys("ftI ,.:;!/\\[]", 278), **dict.fromkeys("r()-", 333),
           "'": 191, '"': 355, "|": 260, **dict.fromkeys("ckvsxyzJ*", 500), **dict.fromkeys("FTZ", 611),
           **dict.fromkeys("ABEKPSVXY&", 667), **dict.fromkeys("CDHNRUw", 722), **dict.fromkeys("GOQ", 778),
           **dict.fromkeys("mM", 833), "W": 944, "%": 889, "@": 1015}


def text_width(text: str, size: float) -> float:
    """The width the renderer reserves for ``text`` at font ``size``: Helvetica's widths
    widened by a tenth; wide East Asian characters take a full em, other characters
    outside ASCII 0.65 em, combining marks nothing."""
    units = 0.0
    for ch in text:
        if ch in _NARROW:
            units += _NARROW[ch]
        elif ch.isascii():
            units += 556
        elif unicodedata.combining(ch):
            continue
        elif unicodedata.east_asian_width(ch) in "WF":
            units += 1000
        else:
            units += 650
    return units / 1000.0 * 1.1 * size


def wrap(text: str, size: float, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` (at font ``size``): broken at spaces, a word
    wider than a line broken after a hyphen or where it must be. No character is lost: the
    lines hold the text's characters in order, less the spaces they were broken at."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if text_width(candidate, size) <= width or not line and not word:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        while text_width(word, size) > width:  # a word longer than a line: cut it, after a hyphen if one fits
            cut = 1
            while cut < len(word) and text_width(word[:cut + 1], size) <= width:
                cut += 1
            hyphen = word.rfind("-", 0, cut)
            cut = hyphen + 1 if hyphen > 0 else cut
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    lines.append(line)
    return lines


def text_box(x: float, y: float, lines: list[str], size: float, anchor: str = "start") -> tuple:
    """The box (left, top, right, bottom) the renderer reserves for a text whose first
    baseline is at (x, y), in ``lines`` of font ``size``: from a little above the tallest
    letter of the first line to below the descenders of the last."""
    width = max((text_width(line, size) for line in lines), default=0.0)
    left = x - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    return (left, y - 0.95 * size, left + width, y + (len(lines) - 1) * LINE_HEIGHT * size + 0.3 * size)


def colour_of(name: str) -> str:
    """The fill colour of a card colour's name."""
    if name in CARD_COLOURS:
        return CARD_COLOURS[name]
    h = SplitMix64(sum(ord(c) << (i % 24) for i, c in enumerate(name))).next()
    return f"#{h & 0xFFFFFF:06x}"


def luminance(colour: str) -> float:
    """The relative luminance of a ``#rrggbb`` colour (WCAG 2)."""
    channels = [int(colour[i:i + 2], 16) / 255.0 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two ``#rrggbb`` colours, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_colour(fill: str) -> str:
    """Black or white, whichever contrasts more with ``fill`` (for any fill one of them
    reaches a ratio of 4.58 at least)."""
    return "#000000" if contrast("#000000", fill) >= contrast("#ffffff", fill) else "#ffffff"


def computed_layout(variant: ir.Variant, iterations: int = 300) -> list[tuple[float, float]]:
    """A force-directed layout (routes pull their cities together, all cities push apart),
    seeded by the variant's hash so it is the same every time."""
    n = len(variant.cities)
    rng = SplitMix64(int(variant.spec_hash, 16) if variant.spec_hash else 1)
    pos = [[rng.below(1000) / 1000.0, rng.below(1000) / 1000.0] for _ in range(n)]
    if n < 2:
        return [(0.5, 0.5)] * n
    edges = {(min(r.a, r.b), max(r.a, r.b)): r.length for r in variant.routes if r.a != r.b}
    k = math.sqrt(1.0 / n)
    temperature = 0.1
    for _ in range(iterations):
        move = [[0.0, 0.0] for _ in range(n)]
        for i in range(n):
            xi, yi = pos[i]
            for j in range(i + 1, n):
                dx, dy = xi - pos[j][0], yi - pos[j][1]
                d2 = dx * dx + dy * dy or 1e-9
                f = k * k / d2
                move[i][0] += dx * f
                move[i][1] += dy * f
                move[j][0] -= dx * f
                move[j][1] -= dy * f
        for (a, b), length in edges.items():
            dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
            d = math.sqrt(dx * dx + dy * dy) or 1e-9
            f = d / (k * (0.6 + 0.15 * length))
            move[a][0] -= dx * f
            move[a][1] -= dy * f
            move[b][0] += dx * f
            move[b][1] += dy * f
        for i in range(n):
            dx, dy = move[i]
            d = math.sqrt(dx * dx + dy * dy) or 1e-9
            step = min(d, temperature)
            pos[i][0] += dx / d * step
            pos[i][1] += dy / d * step
        temperature *= 0.985
    return [(x, y) for x, y in pos]


def _fill_in(variant: ir.Variant, given: list) -> list[tuple[float, float]]:
    """Places for the cities a spec left without one, among the cities they are joined
    to (a city added to an extended map): each takes the mean place of its placed
    neighbours, nudged aside so it does not sit on a route, repeated until every city
    joined to a placed one has a place; the rest go by the first placed city."""
    places: list[tuple[float, float] | None] = [(float(p[0]), float(p[1])) if p is not None else None
                                                 for p in given]
    neighbours: list[set[int]] = [set() for _ in variant.cities]
    for r in variant.routes:
        neighbours[r.a].add(r.b)
        neighbours[r.b].add(r.a)
    xs = [p[0] for p in places if p is not None]
    nudge = (max(xs) - min(xs)) / 40.0 or 10.0
    while True:
        added = False
        for c, place in enumerate(places):
            if place is not None:
                continue
            known = [p for p in (places[n] for n in sorted(neighbours[c])) if p is not None]
            if known:
                x = sum(p[0] for p in known) / len(known) + nudge
                y = sum(p[1] for p in known) / len(known) + nudge
                places[c] = (x, y)
                added = True
        if not added:
            break
    first = next(p for p in places if p is not None)
    return [p if p is not None else (first[0] + nudge * (i + 1), first[1]) for i, p in enumerate(places)]


def _spread(places: list[tuple[float, float]], gap: float) -> list[tuple[float, float]]:
    """The places with every two at least ``gap`` apart (or nearly: a bounded number of
    rounds): each pair too close is pushed apart along the line joining them, a pair on
    one point along a direction set by their ids, so the result is deterministic."""
    pts = [list(p) for p in places]
    n = len(pts)
    for _ in range(200):
        grid: dict[tuple[int, int], list[int]] = {}
        for i, (x, y) in enumerate(pts):
            grid.setdefault((math.floor(x / gap), math.floor(y / gap)), []).append(i)
        moved = False
        for i in range(n):
            gx, gy = math.floor(pts[i][0] / gap), math.floor(pts[i][1] / gap)
            for cell in ((gx + dx, gy + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
                for j in grid.get(cell, ()):
                    if j <= i:
                        continue
                    dx, dy = pts[j][0] - pts[i][0], pts[j][1] - pts[i][1]
                    d = math.hypot(dx, dy)
                    if d >= gap - 1e-6:
                        continue
                    if d < 1e-6:  # one point: a direction of their own (the golden angle)
                        angle = 2.39996 * (i * 7 + j)
                        dx, dy, d = math.cos(angle), math.sin(angle), 1.0
                        push = gap / 2
                    else:
                        push = (gap - d) / 2 + 0.01
                    pts[i][0] -= dx / d * push
                    pts[i][1] -= dy / d * push
                    pts[j][0] += dx / d * push
                    pts[j][1] += dy / d * push
                    moved = True
        if not moved:
            break
    return [(x, y) for x, y in pts]


def _raw_places(variant: ir.Variant) -> list[tuple[float, float]]:
    """Each city's place in the spec's own units: the spec's (cities left without one
    placed among their neighbours), or the computed layout when no city has one or all
    the places are one point (a spec that drew nothing would be one dot)."""
    given = [getattr(c, "at", None) for c in variant.cities]
    raw: list[tuple[float, float]]
    if all(p is not None for p in given):
        raw = [(float(p[0]), float(p[1])) for p in given if p is not None]
    elif any(p is not None for p in given):
        raw = _fill_in(variant, given)
    else:
        return computed_layout(variant)
    if len(given) > 1 and len(set(raw)) == 1:
        return computed_layout(variant)
    return raw


def layout(variant: ir.Variant, grow: float = 1.0) -> list[tuple[float, float]]:
    """Each city's place in the drawing: the spec's coordinates (cities left without one
    placed among their neighbours), or :func:`computed_layout` when no city has one or they
    all share one point; scaled so the longer side is ``SIZE × grow``, and cities closer
    than MIN_CITY_GAP nudged apart (coincident ones too)."""
    if not variant.cities:
        return []
    raw = _raw_places(variant)
    xs, ys = [p[0] for p in raw], [p[1] for p in raw]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    scale = (SIZE * grow - 2 * MARGIN) / span
    return _spread([(MARGIN + (x - min(xs)) * scale, MARGIN + (y - min(ys)) * scale) for x, y in raw],
                   MIN_CITY_GAP)


def heat_colour(value: float) -> str:
    """A colour from pale yellow (0) to dark red (1)."""
    v = max(0.0, min(1.0, value))
    r = int(255 - 80 * v)
    g = int(240 - 220 * v)
    b = int(160 - 140 * v)
    return f"#{r:02x}{g:02x}{b:02x}"


#: Ring colours of the city groups a mechanic names (Italy's regions), in turn; the dots
#: of route groups (Pennsylvania's companies) take them in turn too.
GROUP_COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45",
                 "#469990", "#9a6324", "#800000", "#808000", "#000075", "#a9a9a9", "#fabed4", "#ffd8b1",
                 "#dcbeff", "#aaffc3")


def looks(variant: ir.Variant) -> Looks:
    """What the variant's mechanics ask a drawn map to show, together: dashed routes,
    route badges (joined by a space), city groups, city markers and route groups, in
    registry order. The legend's words are per mechanic: see :func:`legend_entries`."""
    dashed: set[int] = set()
    badges: dict[int, str] = {}
    groups: list[tuple[str, tuple[int, ...]]] = []
    markers: list[str] = []
    route_groups: list[tuple[str, tuple[int, ...]]] = []
    route_colours: list[str] = []
    for mechanic, rule in variant.present():
        seen = part(mechanic, Drawing).looks(variant, rule)
        dashed |= seen.dashed
        for route, badge in seen.badges.items():
            badges[route] = f"{badges[route]} {badge}" if route in badges else badge
        groups.extend(seen.groups)
        markers.extend(seen.city_markers)
        route_groups.extend(seen.route_groups)
        route_colours.extend(seen.route_colours)
    return Looks(frozenset(dashed), badges, tuple(groups), tuple(markers), tuple(route_groups),
                 tuple(route_colours))


@dataclass(frozen=True)
class LegendEntry:
    """One look a drawn map explains: ``look`` one of ``LEGEND_KEYS``, ``text`` the words
    (the mechanic's ``Looks.legend``, or its title), ``sample`` what is drawn beside them
    (a badge's text), ``names`` the named groups listed under it."""

    look: str
    text: str
    sample: str = ""
    names: tuple = ()


#: What the legend says of dead-end places when no mechanic says more.
DEAD_END_TEXT = "a dead end: the routes into it do not join"


def legend_entries(variant: ir.Variant, state: dict | None = None) -> list[LegendEntry]:
    """The legend's entries for the looks of the variant's mechanics, in registry order:
    one for each look a mechanic gives (city markers only when a state is drawn, since
    only a state has them), in the mechanic's words or under its title; and one for
    dead-end places when the map has any."""
    out = []
    dead_end_texts = []
    for mechanic, rule in variant.present():
        seen = part(mechanic, Drawing).looks(variant, rule)
        words = dict(seen.legend)
        if "dead_ends" in words:
            dead_end_texts.append(words["dead_ends"])
        present = {"dashed": bool(seen.dashed), "badges": bool(seen.badges), "groups": bool(seen.groups),
                   "city_markers": bool(seen.city_markers) and state is not None,
                   "route_groups": bool(seen.route_groups),
                   "route_colours": bool(seen.route_colours) and state is not None}
        for look in LEGEND_KEYS:
            if not present.get(look):
                continue
            text = words.get(look) or mechanic.title
            sample = seen.badges[min(seen.badges)] if look == "badges" else ""
            names = tuple(name for name, _ in (seen.groups if look == "groups" else seen.route_groups
                                               if look == "route_groups" else ()))
            out.append(LegendEntry(look, text, sample, names))
    if any(c.dead_end for c in variant.cities):
        out.append(LegendEntry("dead_ends", "; ".join(dead_end_texts) or DEAD_END_TEXT))
    return out


# --- geometry ---------------------------------------------------------------------------

def _overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _segment_hits(box: tuple, x1: float, y1: float, x2: float, y2: float) -> bool:
    """Whether the segment crosses the box (Liang–Barsky clipping)."""
    dx, dy = x2 - x1, y2 - y1
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x1 - box[0]), (dx, box[2] - x1), (-dy, y1 - box[1]), (dy, box[3] - y1)):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


class _Grid:
    """Boxes filed by the cells of a coarse grid, so that a box meets only its neighbours."""

    CELL = 64.0

    def __init__(self):
        self.cells: dict[tuple[int, int], list] = {}

    def _cells(self, box):
        c = self.CELL
        for gx in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for gy in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                yield gx, gy

    def add(self, box, item=None) -> None:
        entry = (box, item)  # one object in every cell, so near() gives it once
        for cell in self._cells(box):
            self.cells.setdefault(cell, []).append(entry)

    def add_segment(self, x1: float, y1: float, x2: float, y2: float, pad: float, item) -> None:
        """A segment, filed only in the cells along it (its whole bounding box would put a
        long route in most cells of the map)."""
        box = (min(x1, x2) - pad, min(y1, y2) - pad, max(x1, x2) + pad, max(y1, y2) + pad)
        steps = max(1, math.ceil(math.hypot(x2 - x1, y2 - y1) / (self.CELL / 4)))
        cells = set()
        for k in range(steps + 1):
            x, y = x1 + (x2 - x1) * k / steps, y1 + (y2 - y1) * k / steps
            cells.update(self._cells((x - pad, y - pad, x + pad, y + pad)))
        entry = (box, item)
        for cell in sorted(cells):
            self.cells.setdefault(cell, []).append(entry)

    def near(self, box):
        seen = set()
        for cell in self._cells(box):
            for entry in self.cells.get(cell, ()):
                if id(entry) not in seen:
                    seen.add(id(entry))
                    yield entry


@dataclass
class _Track:
    """Where one route is drawn: its centre line between the two cities (shortened to
    their edges), the unit vectors along and across it, its badge."""

    route: ir.Route
    x1: float
    y1: float
    x2: float
    y2: float
    ux: float
    uy: float
    nx: float
    ny: float
    offset: float
    badge_text: str = ""
    badge_box: tuple = (0.0, 0.0, 0.0, 0.0)
    dots: list = field(default_factory=list)  # (x, y, colour, group name)


def _tracks(variant: ir.Variant, places, shown: Looks, city_size) -> list[_Track]:
    """Each route's drawn line, badge and dots."""
    group_colour: dict[int, list[tuple[str, int]]] = {}
    for i, (_, routes) in enumerate(shown.route_groups):
        for r in routes:
            group_colour.setdefault(r, []).append((GROUP_COLOURS[i % len(GROUP_COLOURS)], i))
    out = []
    for r in variant.routes:
        (xa, ya), (xb, yb) = places[r.a], places[r.b]
        dx, dy = xb - xa, yb - ya
        d = math.hypot(dx, dy) or 1.0
        ux, uy = dx / d, dy / d
        nx, ny = -uy, ux
        offset = (r.track - (r.tracks + 1) / 2) * TRACK_GAP
        trim_a, trim_b = city_size[r.a] + 2.0, city_size[r.b] + 2.0
        if trim_a + trim_b > 0.8 * d:  # cities nearly touching: keep some route to draw
            trim_a = trim_b = 0.1 * d
        t = _Track(r, xa + ux * trim_a + nx * offset, ya + uy * trim_a + ny * offset,
                   xb - ux * trim_b + nx * offset, yb - uy * trim_b + ny * offset, ux, uy, nx, ny, offset)
        t.badge_text = str(r.length) + (f" {shown.badges[r.id]}" if r.id in shown.badges else "")
        out.append(t)
    # badges: at the middle of the track, the tracks of one city pair staggered along it
    # until their badges are clear of each other
    by_group: dict[int, list[_Track]] = {}
    for t in out:
        by_group.setdefault(t.route.group, []).append(t)
    for tracks in by_group.values():
        w = max(text_width(t.badge_text, ROUTE_FONT) for t in tracks) + 5.0
        h = ROUTE_FONT + 4.0
        first = tracks[0]
        shift = 0.0
        if len(tracks) > 1:
            length = math.hypot(first.x2 - first.x1, first.y2 - first.y1)
            while shift < length:
                ddx = TRACK_GAP * first.nx + shift * first.ux
                ddy = TRACK_GAP * first.ny + shift * first.uy
                if abs(ddx) >= w + 1.0 or abs(ddy) >= h + 1.0:
                    break
                shift += 0.5
        for t in tracks:
            k = t.route.track - (t.route.tracks + 1) / 2
            mx = (t.x1 + t.x2) / 2 + k * shift * t.ux
            my = (t.y1 + t.y2) / 2 + k * shift * t.uy
            bw = text_width(t.badge_text, ROUTE_FONT) + 5.0
            t.badge_box = (mx - bw / 2, my - h / 2, mx + bw / 2, my + h / 2)
    # dots of route groups: beside the track, on its outer side, from its first city on
    for t in out:
        side = 1.0 if t.offset >= 0 else -1.0
        across = CAR_WIDTH / 2 + 4.5
        for k, (colour, i) in enumerate(group_colour.get(t.route.id, ())):
            along = 4.0 + 6.5 * k
            t.dots.append((t.x1 + t.ux * along + side * t.nx * across, t.y1 + t.uy * along + side * t.ny * across,
                           colour, i))
    return out


def _cars(t: _Track) -> list[list[tuple[float, float]]]:
    """The corners of each space of a track, one per unit of length."""
    n = max(1, t.route.length)
    length = math.hypot(t.x2 - t.x1, t.y2 - t.y1)
    gap = min(2.0, length / n * 0.15)
    car = (length - gap * (n - 1)) / n
    half = CAR_WIDTH / 2
    out = []
    for i in range(n):
        s, e = i * (car + gap), i * (car + gap) + car
        ax, ay = t.x1 + t.ux * s, t.y1 + t.uy * s
        bx, by = t.x1 + t.ux * e, t.y1 + t.uy * e
        out.append([(ax + t.nx * half, ay + t.ny * half), (bx + t.nx * half, by + t.ny * half),
                    (bx - t.nx * half, by - t.ny * half), (ax - t.nx * half, ay - t.ny * half)])
    return out


def _grown(corners, by: float) -> list[tuple[float, float]]:
    """A space's corners pushed out by ``by`` on every side (a car's frame)."""
    cx = sum(p[0] for p in corners) / 4
    cy = sum(p[1] for p in corners) / 4
    (x0, y0), (x1, y1), _, (x3, y3) = corners
    ux, uy = x1 - x0, y1 - y0
    lu = math.hypot(ux, uy) or 1.0
    vx, vy = x3 - x0, y3 - y0
    lv = math.hypot(vx, vy) or 1.0
    su, sv = (lu / 2 + by) / lu, (lv / 2 + by) / lv
    return [(cx + ux * su * a + vx * sv * b, cy + uy * su * a + vy * sv * b)
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]


def _points(corners) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


# --- city names -------------------------------------------------------------------------

#: Where a name may stand around its city, in order of preference (x and y of the side).
_SIDES = ((1, 0), (0.7, -0.7), (0.7, 0.7), (-1, 0), (-0.7, -0.7), (-0.7, 0.7), (0, -1), (0, 1))
#: How far from its city's edge a name may stand, nearest first.
_RINGS = (3.0, 8.0, 15.0, 25.0, 38.0)


@dataclass
class _Label:
    city: int
    lines: list
    box: tuple


def _place_labels(variant: ir.Variant, places, city_size, tracks: list[_Track],
                  reserved: list[tuple]) -> tuple[list[_Label], bool]:
    """A place for each city's name: the first (of rings × sides, nearest and most usual
    first) that covers no other name, no city and nothing ``reserved`` (station markers),
    and, if it can, no route, route badge or dot. Returns the names and whether every one
    found a place clear of names and cities."""
    hard, soft = _Grid(), _Grid()
    for c, (x, y) in enumerate(places):
        s = city_size[c] + 1.0
        hard.add((x - s, y - s, x + s, y + s))
    for box in reserved:
        hard.add(box)
    for t in tracks:
        soft.add(t.badge_box)
        for x, y, _, _ in t.dots:
            soft.add((x - 3, y - 3, x + 3, y + 3))
        soft.add_segment(t.x1, t.y1, t.x2, t.y2, CAR_WIDTH / 2 + 1.0, t)
    crowd = []
    for c, (x, y) in enumerate(places):
        near = sum(1 for d, (x2, y2) in enumerate(places) if d != c and abs(x2 - x) < 80 and abs(y2 - y) < 80) \
            if len(places) <= 300 else 0
        crowd.append((-near, c))
    labels: list[_Label | None] = [None] * len(places)
    clear = True
    for _, c in sorted(crowd):
        x, y = places[c]
        lines = wrap(variant.cities[c].name, CITY_FONT, LABEL_WRAP)
        w = max(text_width(line, CITY_FONT) for line in lines)
        probe = text_box(0.0, 0.0, lines, CITY_FONT)
        h = probe[3] - probe[1]
        best, best_cost = None, math.inf
        for ring_index, ring in enumerate(_RINGS):
            r = city_size[c] + ring
            for side_index, (sx, sy) in enumerate(_SIDES):
                left = x + sx * r - (w if sx < 0 else w / 2 if sx == 0 else 0.0)
                top = y + sy * r - (h if sy < 0 else h / 2 if sy == 0 else 0.0)
                box = (left, top, left + w, top + h)
                cost = ring_index * 6.0 + side_index * 0.5
                if any(_overlap(box, other) for other, _ in hard.near(box)):
                    cost += 1000.0
                for other, track in soft.near(box):
                    if track is None:
                        cost += 8.0 if _overlap(box, other) else 0.0
                    elif _overlap(box, other) and _segment_hits(
                            (box[0] - CAR_WIDTH / 2, box[1] - CAR_WIDTH / 2, box[2] + CAR_WIDTH / 2,
                             box[3] + CAR_WIDTH / 2), track.x1, track.y1, track.x2, track.y2):
                        cost += 4.0
                if cost < best_cost:
                    best, best_cost = box, cost
            if best_cost < 1000.0 and best_cost <= (ring_index + 1) * 6.0:
                break  # nothing further out can be better
        clear = clear and best_cost < 1000.0
        assert best is not None  # every box costs less than infinity
        labels[c] = _Label(c, lines, best)
        hard.add(best)
    return [label for label in labels if label is not None], clear  # every city has one


# --- the picture ------------------------------------------------------------------------

class _Canvas:
    """SVG elements and the box around everything drawn."""

    def __init__(self):
        self.out: list[str] = []
        self.box = [math.inf, math.inf, -math.inf, -math.inf]

    def extend(self, box) -> None:
        self.box = [min(self.box[0], box[0]), min(self.box[1], box[1]),
                    max(self.box[2], box[2]), max(self.box[3], box[3])]

    def point(self, x: float, y: float, r: float = 0.0) -> None:
        self.extend((x - r, y - r, x + r, y + r))

    def text(self, x: float, y: float, lines: list[str], size: float, attrs: str = "") -> tuple:
        """A text of one or more lines (escaped), its first baseline at (x, y)."""
        if len(lines) == 1:
            body = escape(lines[0])
        else:
            body = "".join(f'<tspan x="{x:.1f}" dy="{0 if i == 0 else LINE_HEIGHT * size:.1f}">{escape(line)}</tspan>'
                           for i, line in enumerate(lines))
        self.out.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}"{attrs}>{body}</text>')
        box = text_box(x, y, lines, size)
        self.extend(box)
        return box


def _draw_route(canvas: _Canvas, t: _Track, fill: str, dashed: bool, seat: int | None,
                nobody: bool = False, own_colour: str | None = None) -> None:
    """One route: its spaces in its colour, or, claimed, cars in the owner's colour (white for
    a route taken for no player) framed in the route's colour (``own_colour`` when the state
    gives it one: a built track bed)."""
    r = t.route
    seat_class = f" seat-{seat}" if seat is not None else " nobody" if nobody else ""
    claimed = seat is not None or nobody
    canvas.out.append(f'<g class="route{" claimed" if claimed else ""}{seat_class}" '
                      f'data-route={quoteattr(r.name)}><title>{escape(r.name)} ({r.length}, '
                      f'{escape(r.colour_name)})</title>')
    route_colour = own_colour or colour_of(r.colour_name)
    dash = ' stroke-dasharray="3 2"' if dashed else ""
    for corners in _cars(t):
        if not claimed:
            canvas.out.append(f'<polygon class="space{" dashed" if dashed else ""}" points="{_points(corners)}" '
                              f'fill="{fill}" stroke="#333333" '
                              f'stroke-width="{1.4 if dashed else 0.8}"{dash}/>')
            for x, y in corners:
                canvas.point(x, y, 1.0)
        else:
            # a car in the owner's colour inside a frame of the route's colour, edged dark
            # so that a white route's frame still shows on the pale background
            frame = _grown(corners, 2.2)
            canvas.out.append(f'<polygon class="frame" points="{_points(frame)}" fill="{route_colour}" '
                              f'stroke="#222222" stroke-width="0.8"{dash}/>')
            canvas.out.append(f'<polygon class="car claimed{seat_class}" points="{_points(corners)}" fill="{fill}" '
                              + ('stroke="#222222" stroke-width="0.6"/>' if nobody else 'stroke="none"/>'))
            for x, y in frame:
                canvas.point(x, y, 1.0)
    for x, y, colour, i in t.dots:
        canvas.out.append(f'<circle class="route-group group-{i}" cx="{x:.1f}" cy="{y:.1f}" r="2.6" '
                          f'fill="{colour}" stroke="#333333" stroke-width="0.5"/>')
        canvas.point(x, y, 3.0)
    canvas.out.append("</g>")


def _draw_badge(canvas: _Canvas, t: _Track, fill: str) -> None:
    """A route's length (and its mechanics' badges) on a badge of the route's fill, in a
    layer above every route, so that no later route covers it."""
    b = t.badge_box
    ink = text_colour(fill)
    canvas.out.append(f'<g class="route-label" data-route={quoteattr(t.route.name)}>'
                      f'<rect class="badge" x="{b[0]:.1f}" y="{b[1]:.1f}" width="{b[2] - b[0]:.1f}" '
                      f'height="{b[3] - b[1]:.1f}" rx="2" fill="{fill}" stroke="#333333" stroke-width="0.6"/>')
    baseline = (b[1] + b[3]) / 2 + 0.35 * ROUTE_FONT
    canvas.out.append(f'<text class="length" x="{(b[0] + b[2]) / 2:.1f}" y="{baseline:.1f}" '
                      f'font-size="{ROUTE_FONT:g}" text-anchor="middle" fill="{ink}">{escape(t.badge_text)}</text></g>')
    canvas.extend(b)


class _Legend:
    """The legend as it is drawn, top down from its top left corner (x, y): each entry a
    group of class ``legend-entry`` whose ``data-look`` says which look it explains, its
    sample (if any) beside its text."""

    def __init__(self, canvas: _Canvas, x: float, y: float):
        self.canvas = canvas
        self.x = x
        self.y = y  # where the next entry starts
        self.text_x = x + 34.0
        self.step = LINE_HEIGHT * LEGEND_FONT

    def row(self, look: str, text: str, sample=None, extra: str = "") -> None:
        """One entry: ``sample(cy)`` draws its sample centred on the line ``cy``."""
        canvas, x = self.canvas, self.x
        lines = wrap(text, LEGEND_FONT, LEGEND_WRAP)
        base = self.y + LEGEND_FONT
        canvas.out.append(f'<g class="legend-entry" data-look="{look}"{extra}>')
        if sample is not None:
            canvas.out.append(sample(base - 0.35 * LEGEND_FONT))
        canvas.text(self.text_x if sample is not None else x, base, lines, LEGEND_FONT)
        canvas.out.append("</g>")
        height = max(len(lines) * self.step, 16.0)
        canvas.extend((x, self.y, self.text_x, self.y + height))
        self.y += height + 4.0

    def space(self, fill: str, dashed: bool = False):
        """A sample: one space of a route, in ``fill``."""
        x = self.x
        dash = ' stroke-dasharray="3 2"' if dashed else ""
        return lambda cy: (f'<rect class="legend-sample" x="{x + 2:.1f}" y="{cy - CAR_WIDTH / 2:.1f}" width="24" '
                           f'height="{CAR_WIDTH:g}" fill="{fill}" stroke="#333333" '
                           f'stroke-width="{1.4 if dashed else 0.8}"{dash}/>')

    def car(self, fill: str, frame: str):
        """A sample: one car of a claimed route, in ``fill`` inside a frame of ``frame``."""
        x = self.x
        return lambda cy: (f'<rect class="legend-sample frame" x="{x:.1f}" y="{cy - CAR_WIDTH / 2 - 2.2:.1f}" '
                           f'width="28.4" height="{CAR_WIDTH + 4.4:g}" fill="{frame}" stroke="#222222" '
                           f'stroke-width="0.8"/><rect class="legend-sample car" x="{x + 2.2:.1f}" '
                           f'y="{cy - CAR_WIDTH / 2:.1f}" width="24" height="{CAR_WIDTH:g}" fill="{fill}"/>')

    def players(self, state: dict) -> None:
        """What an unclaimed and a claimed route look like, and each player's colour."""
        seats = int(state.get("players") or 0) or (max(state.get("owner") or [-1]) + 1)
        self.row("unclaimed", "a route: its spaces in its colour", self.space(CARD_COLOURS["gray"]))
        self.row("claimed", "a claimed route: cars in the owner's colour, framed in the route's colour",
                 self.car(PLAYER_COLOURS[0], CARD_COLOURS["gray"]))
        if seats and seats in (state.get("owner") or ()):
            self.row("nobody", "a route taken for no player: white cars, framed in the route's colour",
                     self.car(NOBODY_COLOUR, CARD_COLOURS["gray"]))
        for p in range(seats):
            colour = PLAYER_COLOURS[p % len(PLAYER_COLOURS)]
            self.row("player", f"player {p}", self.car(colour, "#ffffff"), f' data-seat="{p}" data-colour="{colour}"')

    def heat_scale(self, label: str) -> None:
        """The heat map's scale, from 0 to 1, under ``label``."""
        canvas, x = self.canvas, self.x
        canvas.out.append('<g class="legend-entry" data-look="heat">')
        lines = wrap(label, LEGEND_FONT, LEGEND_WRAP)
        canvas.text(x, self.y + LEGEND_FONT, lines, LEGEND_FONT)
        self.y += len(lines) * self.step + 4.0
        for i in range(11):
            canvas.out.append(f'<rect class="heat-scale" x="{x + 16 * i:.1f}" y="{self.y:.1f}" width="16" height="10" '
                              f'fill="{heat_colour(i / 10)}"/>')
        canvas.extend((x, self.y, x + 176, self.y + 10))
        self.y += 10
        canvas.text(x, self.y + LEGEND_FONT, ["0"], LEGEND_FONT)
        canvas.text(x + 176 - text_width("1", LEGEND_FONT), self.y + LEGEND_FONT, ["1"], LEGEND_FONT)
        canvas.out.append("</g>")
        self.y += LEGEND_FONT + 10.0

    def look(self, entry: LegendEntry) -> None:
        """One look of the mechanics, with the sample it is drawn with."""
        x = self.x
        if entry.look == "dashed":
            self.row(entry.look, entry.text, self.space(CARD_COLOURS["gray"], dashed=True))
        elif entry.look == "badges":
            w = text_width(entry.sample, ROUTE_FONT) + 5.0
            self.row(entry.look, entry.text, lambda cy, w=w, s=entry.sample: (
                f'<rect class="legend-sample" x="{x + 2:.1f}" y="{cy - 6.5:.1f}" width="{w:.1f}" height="13" rx="2" '
                f'fill="#ffffff" stroke="#333333" stroke-width="0.6"/><text class="legend-sample" '
                f'x="{x + 2 + w / 2:.1f}" y="{cy + 3.2:.1f}" font-size="{ROUTE_FONT:g}" text-anchor="middle" '
                f'fill="#000000">{escape(s)}</text>'))
            self.canvas.extend((x, self.y, x + 2 + w, self.y))
        elif entry.look == "city_markers":
            self.row(entry.look, entry.text, lambda cy: (f'<path class="legend-sample" d="M{x + 9:.1f},{cy + 3:.1f} '
                                                         f'l5,-6 l5,6 z" fill="#777777"/>'))
        elif entry.look == "route_colours":
            self.row(entry.look, entry.text, self.space(CARD_COLOURS["red"]))
        elif entry.look == "dead_ends":
            self.row(entry.look, entry.text, lambda cy: (f'<rect class="legend-sample" x="{x + 7:.1f}" '
                                                         f'y="{cy - 7:.1f}" width="14" height="14" fill="#dddddd" '
                                                         f'stroke="#333333"/>'))
        else:
            self.named_groups(entry)

    def named_groups(self, entry: LegendEntry) -> None:
        """Groups of cities (rings) or of routes (dots): the look's words, then each group
        by name beside its colour."""
        x = self.x
        self.row(entry.look, entry.text)
        for i, name in enumerate(entry.names):
            colour = GROUP_COLOURS[i % len(GROUP_COLOURS)]
            if entry.look == "groups":
                paint = f'r="5" fill="none" stroke="{colour}" stroke-width="3"'
            else:
                paint = f'r="3" fill="{colour}" stroke="#333333" stroke-width="0.5"'

            def sample(cy, paint=paint):
                return f'<circle class="legend-sample" cx="{x + 14:.1f}" cy="{cy:.1f}" {paint}/>'
            self.row(f"{entry.look}-member", name, sample, f' data-colour="{colour}"')


def _legend(canvas: _Canvas, x: float, y: float, state: dict | None, heat: list | None, heat_label: str,
            entries: list[LegendEntry]) -> None:
    """The legend, its top left corner at (x, y): the players and what a claim looks like
    (when a state is drawn), the heat scale (for a heat map), then each look of the
    mechanics."""
    legend = _Legend(canvas, x, y)
    if state is not None:
        legend.players(state)
    if heat is not None:
        legend.heat_scale(heat_label)
    for entry in entries:
        legend.look(entry)


def render_svg(variant: ir.Variant, state: dict | None = None, heat: list[float] | None = None,
               title: str | None = None, heat_label: str = "fraction of games claimed") -> str:
    """The map as SVG text. ``state``: a game's state (:meth:`Game.state`) whose claims
    (cars in the owner's colour, framed in the route's colour) and the marks mechanics put
    on cities are drawn in the players' colours, with a legend of the players. ``heat``: a
    value in [0, 1] per route id, drawn as a heat map instead of the routes' colours, with
    a scale from 0 to 1 named ``heat_label``. Cities in a group a mechanic names (Italy's
    regions) get a ring of the group's colour, routes of a named group (companies) a dot
    of the group's colour, both listed in the legend with every other look of the
    mechanics. The canvas (viewBox) holds everything drawn."""
    shown = looks(variant)
    ring = {}
    for i, (_, cities) in enumerate(shown.groups):
        for c in cities:
            ring[c] = GROUP_COLOURS[i % len(GROUP_COLOURS)]
    # the half-size of what marks each city: its circle or square, and its ring
    city_size = [11.5 if c.id in ring else 7.0 if c.dead_end else CITY_RADIUS for c in variant.cities]
    places, tracks, labels = _fitted(variant, shown, city_size)
    canvas = _Canvas()
    _draw_routes(canvas, tracks, state, heat, shown, [c.name for c in variant.colours])
    markers = [state[name] for name in shown.city_markers if name in state] if state else []
    for c in variant.cities:
        _draw_city(canvas, c, places[c.id], city_size[c.id], ring.get(c.id), markers)
    for label in labels:
        left, top = label.box[0], label.box[1]
        canvas.text(left, top + 0.95 * CITY_FONT, label.lines, CITY_FONT,
                    f' class="city-label" data-city={quoteattr(variant.cities[label.city].name)} stroke="{BACKGROUND}" '
                    'stroke-width="3" stroke-linejoin="round" paint-order="stroke"')  # a halo: legible over a route
    map_box = list(canvas.box) if variant.cities else [0.0, 0.0, 300.0, 200.0]
    canvas.box = map_box
    _legend(canvas, map_box[2] + 28.0, map_box[1], state, heat, heat_label, legend_entries(variant, state))
    label = title if title is not None else variant.name
    width = max(map_box[2] - map_box[0], 300.0)
    canvas.text(map_box[0], map_box[3] + 10.0 + 0.95 * TITLE_FONT, wrap(label, TITLE_FONT, width), TITLE_FONT,
                ' class="title"')
    return _svg_document(canvas)


def _fitted(variant: ir.Variant, shown: Looks, city_size: list[float]):
    """The places, tracks and name labels of the map, drawn larger (by GROW, at most
    GROW_TRIES times) while a name finds no clear place."""
    n_markers = len(shown.city_markers)
    for attempt in range(GROW_TRIES):
        places = layout(variant, GROW ** attempt)
        tracks = _tracks(variant, places, shown, city_size)
        # room above each city for the markers a state may put there, so that a state
        # moves no name
        reserved = [(x - 6.0, y - 15.0, x - 6.0 + 12.0 * n_markers, y) for x, y in places] if n_markers else []
        labels, clear = _place_labels(variant, places, city_size, tracks, reserved)
        if clear:
            break
    return places, tracks, labels


def _draw_routes(canvas: _Canvas, tracks: list[_Track], state: dict | None, heat: list | None,
                 shown: Looks, colour_names: list[str]) -> None:
    """Every route, in the heat map's colour, its owner's, the colour the state gives it
    (``Looks.route_colours``) or its own; then every route's badge, in a layer above them
    all."""
    owner = state["owner"] if state else None
    nobody_value = _nobody_owner(state)
    held = [state[name] for name in shown.route_colours if name in state] if state else []
    fills = []
    for t in tracks:
        r = t.route
        nobody = owner is not None and owner[r.id] == nobody_value
        seat = owner[r.id] if owner is not None and owner[r.id] >= 0 and not nobody else None
        given = next((colours[r.id] for colours in held if colours[r.id] >= 0), -1)
        if heat is not None:
            fill = heat_colour(heat[r.id])
        elif seat is not None:
            fill = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        elif nobody:
            fill = NOBODY_COLOUR
        elif given >= 0:  # a colour the state gives the route (a built track bed)
            fill = colour_of(colour_names[given])
        else:
            fill = colour_of(r.colour_name)
        fills.append(fill)
        own_colour = colour_of(colour_names[given]) if given >= 0 else None  # a claimed one's frame too
        _draw_route(canvas, t, fill, r.id in shown.dashed, seat, nobody, own_colour)
    for t, fill in zip(tracks, fills):
        _draw_badge(canvas, t, fill)


def _nobody_owner(state: dict | None) -> int | None:
    """The owner value of a route a claim took for no player: the number of players (None
    without a state, or a state that does not say how many play)."""
    players = state.get("players") if state else None
    return players if isinstance(players, int) and players > 0 else None


def _draw_city(canvas: _Canvas, c: ir.City, place: tuple[float, float], size: float, ring: str | None,
               markers: list) -> None:
    """A city: its circle (a square for a dead end), its group's ring, and the markers a
    state puts on it (each a list by city: the seat, or -1)."""
    x, y = place
    canvas.point(x, y, size + 1.5)
    if ring is not None:
        canvas.out.append(f'<circle class="group" cx="{x:.1f}" cy="{y:.1f}" r="10" fill="none" '
                          f'stroke="{ring}" stroke-width="3"/>')
    if c.dead_end:
        canvas.out.append(f'<rect class="city dead-end" data-city={quoteattr(c.name)} x="{x - 7:.1f}" '
                          f'y="{y - 7:.1f}" width="14" height="14" fill="#dddddd" stroke="#333333"/>')
    else:
        canvas.out.append(f'<circle class="city" data-city={quoteattr(c.name)} cx="{x:.1f}" cy="{y:.1f}" '
                          f'r="{CITY_RADIUS:g}" fill="#ffffff" stroke="#333333"/>')
    for k, marker in enumerate(markers):
        if marker[c.id] >= 0:
            player = PLAYER_COLOURS[marker[c.id] % len(PLAYER_COLOURS)]
            canvas.out.append(f'<path class="marker seat-{marker[c.id]}" d="M{x - 5 + 12 * k:.1f},{y - 8:.1f} '
                              f'l5,-6 l5,6 z" fill="{player}" stroke="#222222" stroke-width="0.6"/>')
            canvas.point(x + 12 * k, y - 11, 6.0)


def _svg_document(canvas: _Canvas) -> str:
    """The SVG text of everything drawn, on a background PAD beyond it."""
    x0, y0 = canvas.box[0] - PAD, canvas.box[1] - PAD
    w, h = canvas.box[2] - canvas.box[0] + 2 * PAD, canvas.box[3] - canvas.box[1] + 2 * PAD
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0:.1f} {y0:.1f} {w:.1f} {h:.1f}" '
            f'width="{w:.0f}" height="{h:.0f}" font-family="sans-serif">',
            f'<rect class="background" x="{x0:.1f}" y="{y0:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'fill="{BACKGROUND}"/>']
    return "\n".join(head + canvas.out + ["</svg>"])
