"""``railspec export VARIANT``: a variant as one JSON document, so that an engine in any
language knows the map and the numbers of the rules without parsing ``.rail`` files
(docs/conformance.md, "The variant as JSON"; the format is docs/formats.md's "Variant").

What the core holds is written with names: the cards, the cities, every route with the
attributes its line writes (as :mod:`.mapfacts` reads them from the spec), the tickets
with their destinations, the ticket decks and the core's rule parameters. Each mechanic's
rule record is written generically, field by field (``dataclasses.fields``): numbers,
text and truth values as they are, tuples as lists, a record inside as an object of its
fields (anything else as its text). A number in a rule record that stands for a route, a city, a ticket or a card is
its id, the index of that entry in the document's ``routes``, ``cities``, ``tickets`` or
``cards`` (each entry also carries it as ``id``): the record says what it holds in its
mechanic's section of docs/engine.md, and the attributes of the routes say the same with
names. No mechanic is named here.

:func:`variant_document` makes the document; the JSON Schema of the format is
:func:`railspec.tools.schemas.variant_schema`.
"""
from __future__ import annotations

import math
from dataclasses import fields, is_dataclass

from ..compiler import ir
from ..runtime import notation
from ..runtime.game import Variant
from . import mapfacts

#: The format's name, written as the document's ``format``.
FORMAT = "railspec-variant/1"
#: The name under which the regular ticket deck is listed in ``decks`` (its tickets' ``deck`` is "").
REGULAR_DECK = "regular"


def plain(value: object) -> object:
    """A rule record's value as JSON data: a dataclass as an object of its compared fields
    (a span or a drawing position is no part of the rules), a tuple or list as a list, a
    set as a sorted list, a mapping as an object with text keys; whole and finite numbers,
    text, truth values and null as they are; anything else (a mechanic from outside may
    hold what it likes) as its text."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value) if f.compare}
    if isinstance(value, (set, frozenset)):
        try:
            items = sorted(value)
        except TypeError:  # items of several kinds: their text gives a stable order
            items = sorted(value, key=repr)
        return [plain(item) for item in items]
    if isinstance(value, (tuple, list)):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if value is None or isinstance(value, (bool, int, str)) or (isinstance(value, float) and math.isfinite(value)):
        return value
    return str(value)


def _game(ir_variant: ir.Variant) -> dict:
    """The core's rule parameters, under the IR's names."""
    return {"trains": ir_variant.trains, "hand": ir_variant.hand, "market_size": ir_variant.market_size,
            "market_reset_locomotives": ir_variant.market_reset_locomotives,
            "deal_regular": ir_variant.deal_regular,
            "deal_parts": [{"deck": deck, "count": count} for deck, count in ir_variant.deal_parts],
            "deal_keep": ir_variant.deal_keep, "draw_cards": ir_variant.draw_cards,
            "draw_tickets": ir_variant.draw_tickets, "draw_tickets_keep": ir_variant.draw_tickets_keep,
            "end_trains": ir_variant.end_trains, "route_points": list(ir_variant.route_points),
            "tiebreaks": list(ir_variant.tiebreaks)}


def _cards(ir_variant: ir.Variant) -> list[dict]:
    """The train cards by id: each colour in spec order, then the locomotive."""
    names = notation.component_names(ir_variant)["card"]
    counts = [c.count for c in ir_variant.colours] + [ir_variant.locomotives]
    return [{"id": card, "name": name, "count": count, "locomotive": card == len(ir_variant.colours)}
            for card, (name, count) in enumerate(zip(names, counts))]


def _routes(ir_variant: ir.Variant, facts: mapfacts.Written) -> list[dict]:
    """Every route (each track of a double apart), with its attributes as written."""
    out = []
    for route in ir_variant.routes:
        described = mapfacts.route_facts(ir_variant, route, facts)
        out.append({"id": route.id, "name": route.name, "a": described["a"], "b": described["b"],
                    "length": route.length, "colour": route.colour_name, "gray": route.colour < 0,
                    "points": described["points"], "trains": described["trains"], "group": route.group,
                    "track": route.track, "tracks": route.tracks, "attributes": described["attributes"]})
    return out


def _tickets(ir_variant: ir.Variant, facts: mapfacts.Written) -> list[dict]:
    """Every ticket, with each destination its form lists (one for a plain ticket)."""
    cities = ir_variant.cities
    return [{"id": t.id, "name": t.name, "from": cities[t.a].name, "to": cities[t.b].name, "points": t.points,
             "deck": t.deck,
             "destinations": [{"place": cities[place].name, "points": points}
                              for place, points in mapfacts.destinations(ir_variant, t.id, facts)]}
            for t in ir_variant.tickets]


def _decks(ir_variant: ir.Variant) -> dict:
    """The train deck's size and each ticket deck's tickets (by name, in id order)."""
    tickets: dict[str, list[str]] = {}
    for t in ir_variant.tickets:
        tickets.setdefault(t.deck or REGULAR_DECK, []).append(t.name)
    return {"train_cards": ir_variant.card_total, "tickets": tickets}


def variant_document(variant: Variant) -> dict:
    """The variant (a loaded ``railspec.Variant``) as the document of docs/formats.md,
    "Variant": the same spec gives the same document."""
    ir_variant = variant.ir
    facts = mapfacts.written(ir_variant)
    assembly = variant.assembly
    return {
        "format": FORMAT, "variant": ir_variant.key, "name": ir_variant.name, "spec_hash": ir_variant.spec_hash,
        "sources": list(ir_variant.sources), "provisional": ir_variant.provisional,
        "players": {"min": ir_variant.min_players, "max": ir_variant.max_players},
        "game": _game(ir_variant),
        "cards": _cards(ir_variant),
        "cities": [{"id": c.id, "name": c.name, "dead_end": c.dead_end} for c in ir_variant.cities],
        "routes": _routes(ir_variant, facts),
        "tickets": _tickets(ir_variant, facts),
        "decks": _decks(ir_variant),
        "payment_columns": [{"name": c.name, "mechanic": c.owner, "text": c.text}
                            for c in ir_variant.payment_columns],
        "phases": list(assembly.phases),
        "breakdown": list(assembly.breakdown_keys),
        "mechanics": [{"name": mechanic.name, "title": mechanic.title, "rule": plain(rule)}
                      for mechanic, rule in ir_variant.present()],
    }


__all__ = ["FORMAT", "REGULAR_DECK", "plain", "variant_document"]
