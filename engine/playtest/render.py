"""The map as an SVG picture: cities, routes in their colours with their lengths, and
optionally a game's claims and the marks of its mechanics, or a value per route as a
heat map.

Cities sit at the coordinates the spec gives (``city NAME at X Y``); a spec without them
gets a computed layout, a seeded force-directed one, so the same spec always draws the
same way. Double and triple routes are drawn side by side; dead-end places are squares.
What a mechanic adds is drawn as its ``Mechanic.looks`` says, without the renderer knowing
the mechanic: dashed routes (tunnels), a badge after a route's length (a ferry's ``F2``),
rings around named groups of cities (regions), markers on cities in a player's colour
(stations). Every name from the spec is escaped: a spec string never becomes markup.
"""
from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from ..compiler import ir
from ..compiler.base.rng import SplitMix64
from ..compiler.mechanic import Looks

#: Fill colours of the card colours the stock specs name; other names get a colour of
#: their own from their name.
CARD_COLOURS = {
    "pink": "#e88bc4", "white": "#f4f4f4", "blue": "#3a6fd8", "yellow": "#f2d022", "orange": "#f08a24",
    "black": "#2b2b2b", "red": "#d8342c", "green": "#3aa650", "gray": "#a8a8a8", "purple": "#8a4fc9",
}
#: The players' colours, seat by seat.
PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")

SIZE = 1000.0  # the longer side of the drawing, in SVG units
MARGIN = 40.0


def colour_of(name: str) -> str:
    """The fill colour of a card colour's name."""
    if name in CARD_COLOURS:
        return CARD_COLOURS[name]
    h = SplitMix64(sum(ord(c) << (i % 24) for i, c in enumerate(name))).next()
    return f"#{h & 0xFFFFFF:06x}"


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
    places = [tuple(map(float, p)) if p is not None else None for p in given]
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
            known = [places[n] for n in sorted(neighbours[c]) if places[n] is not None]
            if known:
                x = sum(p[0] for p in known) / len(known) + nudge
                y = sum(p[1] for p in known) / len(known) + nudge
                places[c] = (x, y)
                added = True
        if not added:
            break
    first = next(p for p in places if p is not None)
    return [p if p is not None else (first[0] + nudge * (i + 1), first[1]) for i, p in enumerate(places)]


def layout(variant: ir.Variant) -> list[tuple[float, float]]:
    """Each city's place in the drawing: the spec's coordinates (cities left without one
    placed among their neighbours), or :func:`computed_layout` when no city has one;
    scaled into a SIZE box with a margin."""
    given = [getattr(c, "at", None) for c in variant.cities]
    if not given:
        return []
    if all(p is not None for p in given):
        raw = given
    elif any(p is not None for p in given):
        raw = _fill_in(variant, given)
    else:
        raw = computed_layout(variant)
    xs, ys = [p[0] for p in raw], [p[1] for p in raw]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    scale = (SIZE - 2 * MARGIN) / span
    return [(MARGIN + (x - min(xs)) * scale, MARGIN + (y - min(ys)) * scale) for x, y in raw]


def heat_colour(value: float) -> str:
    """A colour from pale yellow (0) to dark red (1)."""
    v = max(0.0, min(1.0, value))
    r = int(255 - 80 * v)
    g = int(240 - 220 * v)
    b = int(160 - 140 * v)
    return f"#{r:02x}{g:02x}{b:02x}"


#: Ring colours of the city groups a mechanic names (Italy's regions), in turn.
GROUP_COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45",
                 "#469990", "#9a6324", "#800000", "#808000", "#000075", "#a9a9a9", "#fabed4", "#ffd8b1",
                 "#dcbeff", "#aaffc3")


def looks(variant: ir.Variant) -> Looks:
    """What the variant's mechanics ask a drawn map to show, together: dashed routes,
    route badges (joined by a space), city groups and city markers, in registry order."""
    dashed, badges, groups, markers = set(), {}, [], []
    for mechanic, rule in variant.present():
        seen = mechanic.looks(variant, rule)
        dashed |= seen.dashed
        for route, badge in seen.badges.items():
            badges[route] = f"{badges[route]} {badge}" if route in badges else badge
        groups.extend(seen.groups)
        markers.extend(seen.city_markers)
    return Looks(frozenset(dashed), badges, tuple(groups), tuple(markers))


def map_groups(variant: ir.Variant) -> list[tuple[str, tuple[int, ...]]]:
    """The city groups the variant's mechanics ask a map to tell apart."""
    return list(looks(variant).groups)


def render_svg(variant: ir.Variant, state: dict | None = None, heat: list[float] | None = None,
               title: str | None = None) -> str:
    """The map as SVG text. ``state``: a game's state (:meth:`Game.state`) whose claims and
    the marks mechanics put on cities are drawn in the players' colours. ``heat``: a value in [0, 1] per route id,
    drawn as a heat map instead of the routes' colours. Cities in a group a mechanic names
    (Italy's regions) get a ring of the group's colour, listed in a legend."""
    places = layout(variant)
    shown = looks(variant)
    groups = list(shown.groups)
    ring = {}
    for i, (_, cities) in enumerate(groups):
        for c in cities:
            ring[c] = GROUP_COLOURS[i % len(GROUP_COLOURS)]
    map_width = max((x for x, _ in places), default=SIZE) + MARGIN + 60  # labels run right of a city
    width = map_width + (220 if groups else 0)  # room for the legend right of the map
    height = max((y for _, y in places), default=SIZE) + MARGIN
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height + 30:.0f}" '
           f'width="{width:.0f}" height="{height + 30:.0f}" font-family="sans-serif">',
           '<rect width="100%" height="100%" fill="#fbf8ef"/>']
    label = title if title is not None else variant.name
    out.append(f'<text x="{MARGIN}" y="{height + 18:.0f}" font-size="16">{escape(label)}</text>')
    owner = state["owner"] if state else None
    for r in variant.routes:
        (xa, ya), (xb, yb) = places[r.a], places[r.b]
        dx, dy = xb - xa, yb - ya
        d = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / d, dx / d
        offset = (r.track - (r.tracks + 1) / 2) * 7.0  # tracks of a double side by side
        xa2, ya2, xb2, yb2 = xa + nx * offset, ya + ny * offset, xb + nx * offset, yb + ny * offset
        fill = heat_colour(heat[r.id]) if heat is not None else colour_of(r.colour_name)
        dash = ' stroke-dasharray="9 4"' if r.id in shown.dashed else ""
        name = quoteattr(r.name)
        out.append(f'<g class="route" data-route={name}><title>{escape(r.name)} ({r.length}, '
                   f'{escape(r.colour_name)})</title>')
        out.append(f'<line x1="{xa2:.1f}" y1="{ya2:.1f}" x2="{xb2:.1f}" y2="{yb2:.1f}" stroke="#555" '
                   f'stroke-width="7"{dash}/>')
        out.append(f'<line x1="{xa2:.1f}" y1="{ya2:.1f}" x2="{xb2:.1f}" y2="{yb2:.1f}" stroke="{fill}" '
                   f'stroke-width="5"/>')
        if owner is not None and owner[r.id] >= 0:
            player = PLAYER_COLOURS[owner[r.id] % len(PLAYER_COLOURS)]
            out.append(f'<line x1="{xa2:.1f}" y1="{ya2:.1f}" x2="{xb2:.1f}" y2="{yb2:.1f}" stroke="{player}" '
                       f'stroke-width="3" class="claimed"/>')
        mx, my = (xa2 + xb2) / 2, (ya2 + yb2) / 2
        mark = str(r.length)
        if r.id in shown.badges:
            mark += f" {escape(shown.badges[r.id])}"
        out.append(f'<text x="{mx:.1f}" y="{my + 3:.1f}" font-size="9" text-anchor="middle" '
                   f'fill="#111">{mark}</text></g>')
    markers = [state[name] for name in shown.city_markers if name in state] if state else []
    for c in variant.cities:
        x, y = places[c.id]
        if c.id in ring:
            out.append(f'<circle class="group" cx="{x:.1f}" cy="{y:.1f}" r="10" fill="none" '
                       f'stroke="{ring[c.id]}" stroke-width="3"/>')
        if c.dead_end:
            out.append(f'<rect class="city dead-end" x="{x - 7:.1f}" y="{y - 7:.1f}" width="14" height="14" '
                       f'fill="#ddd" stroke="#333"/>')
        else:
            out.append(f'<circle class="city" cx="{x:.1f}" cy="{y:.1f}" r="6" fill="#fff" stroke="#333"/>')
        for k, marker in enumerate(markers):
            if marker[c.id] >= 0:
                player = PLAYER_COLOURS[marker[c.id] % len(PLAYER_COLOURS)]
                out.append(f'<path class="marker" d="M{x - 5 + 12 * k:.1f},{y - 8:.1f} l5,-6 l5,6 z" '
                           f'fill="{player}"/>')
        out.append(f'<text x="{x + 8:.1f}" y="{y - 6:.1f}" font-size="11">{escape(c.name)}</text>')
    for i, (name, _) in enumerate(groups):  # the legend, right of the map
        y = MARGIN + 14 * i
        out.append(f'<circle cx="{map_width + 20:.0f}" cy="{y - 4:.0f}" r="5" fill="none" '
                   f'stroke="{GROUP_COLOURS[i % len(GROUP_COLOURS)]}" stroke-width="3"/>')
        out.append(f'<text x="{map_width + 30:.0f}" y="{y:.0f}" font-size="11">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out)
