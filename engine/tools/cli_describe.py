"""The command line's map summary for variant authors (docs/editors.md):

    railspec describe VARIANT [--json]

The routes by length and colour, the cards against the routes that need them, the tickets'
points and the fewest trains each needs, the cities by degree, the dead ends, the bridges
and what each mechanic adds: :func:`railspec.tools.mapfacts.summary`, printed as tables or
as JSON. Only the spec is checked (through the IR cache); no engine is built.

``cli`` registers it with :func:`add_commands`.
"""
from __future__ import annotations

import json

from .. import compiler
from ..runtime.game import spec_path
from . import mapfacts


def _table(headings: list[str], rows: list[list], indent: str = "  ", left: tuple[int, ...] = (0,)) -> list[str]:
    """Rows under their headings: the ``left`` columns (text) left-aligned, the others
    (numbers) right-aligned; None is shown as '-'."""
    cells = [[str(h) for h in headings]] + [["-" if c is None else str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headings))]
    return [indent + "  ".join(cell.ljust(w) if i in left else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
            for row in cells]


def _number(value) -> str:
    """A median as written: a whole number without its '.0'."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "-" if value is None else str(value)


def _names(names: list[str], most: int = 12) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "") if names else "none"


def render(facts: dict) -> str:
    """The summary as the readable tables ``describe`` prints."""
    routes, cards, tickets = facts["routes"], facts["cards"], facts["tickets"]
    low, high = facts["players"]
    out = [f"{facts['variant']} ({facts['key']}): {facts['cities']} places, {routes['connections']} connections "
           f"({routes['tracks']} tracks, {routes['cars']} cars), {tickets['count']} tickets; "
           f"{low}-{high} players, {facts['trains']} trains each; spec hash {facts['spec_hash']}"]
    if facts["provisional"]:
        out.append(f"provisional: {facts['provisional']}")
    if facts["dead_end_places"]:
        out.append(f"places no route passes through: {_names(facts['dead_end_places'])}")

    out += ["", "Routes by length"]
    out += _table(["length", "tracks", "connections"],
                  [[length, row["tracks"], row["connections"]] for length, row in routes["by_length"].items()])

    out += ["", "Routes by colour, against the cards"]
    counts = {c["colour"]: c["cards"] for c in cards["colours"]}
    out += _table(["colour", "cards", "tracks", "connections", "cars"],
                  [[name, counts.get(name), row["tracks"], row["connections"], row["cars"]]
                   for name, row in routes["by_colour"].items()])
    out.append(f"  locomotives: {cards['locomotives']} cards; {cards['total']} train cards in all")

    points, cars = tickets["points"], tickets["fewest_cars"]
    decks = ", ".join(f"{count} {deck or 'regular'}" for deck, count in tickets["decks"].items())
    out += ["", f"Tickets: {tickets['count']} ({decks or 'none'})"]
    if tickets["count"]:
        out.append(f"  points: min {points['min']}, median {_number(points['median'])}, max {points['max']}")
        out.append("  " + "  ".join(f"{p}:{n}" for p, n in points["counts"].items()) + "   (points:tickets)")
        unmeasured = f"; {cars['unmeasured']} not measured" if cars["unmeasured"] else ""
        out.append(f"  fewest cars to complete: min {_number(cars['min'])}, median {_number(cars['median'])}, "
                   f"max {_number(cars['max'])}{unmeasured}")
        out += _table(["the longest", "points", "cars"],
                      [[t["ticket"], t["points"], t["cars"]] for t in cars["longest"]], indent="    ")

    out += ["", "Places by degree (how many places each has routes to)"]
    out += _table(["degree", "places", "which"],
                  [[degree, len(names), _names(names, 8)] for degree, names in facts["degrees"].items()], left=(0, 2))
    out.append(f"  dead ends (degree 1): {_names(facts['dead_ends'])}")
    if facts["bridges"]:
        out.append("  bridges (a connection whose loss splits the map):")
        for bridge in facts["bridges"]:
            out.append(f"    {bridge['a']} - {bridge['b']} ({len(bridge['routes'])} "
                       f"track{'s' if len(bridge['routes']) != 1 else ''}): cuts off {_names(bridge['cuts_off'], 6)}")
    else:
        out.append("  bridges: none (no single connection splits the map)")

    out += ["", "Mechanics"]
    if not facts["mechanics"]:
        out.append("  none: the base rules only")
    for m in facts["mechanics"]:
        used = [f"{label} ×{n}" for part in ("statements", "route_attributes", "other_parts")
                for label, n in m[part].items()]
        out.append(f"  {m['name']}: {m['title']}")
        out.append(f"      {', '.join(used) or 'no statement of its own (the rule follows from the core statements)'}")
    return "\n".join(out)


def describe(name: str) -> dict:
    """The summary of a stock variant or a spec file (checked through the IR cache)."""
    path, _ = spec_path(name)
    return mapfacts.summary(compiler.load_file(path))


def cmd_describe(args) -> int:
    """``describe``: the map summary, as tables or ``--json``."""
    facts = describe(args.variant)
    print(json.dumps(facts, indent=2, ensure_ascii=False) if args.json else render(facts))
    return 0


def add_commands(sub, formatter) -> None:
    """Register ``describe`` with the command line's subparsers."""
    p = sub.add_parser("describe", help="a variant's map at a glance: routes, cards, tickets, degrees, bridges, "
                                        "mechanics", formatter_class=formatter)
    p.add_argument("variant", help="a stock variant name (e.g. usa) or a .rail spec file")
    p.add_argument("--json", action="store_true", help="print the summary as JSON (fields: docs/editors.md)")
    p.set_defaults(run=cmd_describe)
