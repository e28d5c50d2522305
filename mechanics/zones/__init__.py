"""Zones: places that tickets name but that join nothing (Italy's neighbouring countries,
Pennsylvania's Ontario).

Italy rulebook, Países vizinhos e Monaco: every route leading into a neighbouring country
is a dead end of its own; two routes into the same country are not connected. Written
``zone NAME [at X Y]`` (``syntax.py``, ``grammar.lark``), a kind of place whose statement
says it is a dead end (``ast.PlaceDecl.dead_end``): the core's graph gives each route end
at a dead end a node of its own, and counts a ticket end as joined when any of its nodes
is. So both engines play zones with no code of their own: for tickets, the longest path
and regions alike, no chain of routes passes through a zone.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.mechanic import Drawing, Looks, Mechanic
from .syntax import Zone


@dataclass(frozen=True)
class ZonesRule(ir.Rule):
    mechanic: ClassVar[str] = "zones"
    zones: tuple[int, ...]  # the city ids that are zones
    span: Span | None = field(default=None, compare=False)


class Zones(Mechanic[ZonesRule], Drawing[ZonesRule]):
    name = "zones"
    order = 60
    title = "zones (dead-end places)"
    rule = ZonesRule
    statements = (Zone,)

    def check(self, ctx) -> ZonesRule | None:
        declared = [stmt for stmt in ctx.many(Zone) if stmt.name.text in ctx.places.ids]
        zones = sorted({ctx.places.ids[stmt.name.text] for stmt in declared
                        if ctx.places.cities[ctx.places.ids[stmt.name.text]]["dead_end"]})
        if not zones:
            return None
        return ZonesRule(zones=tuple(zones), span=ctx.places.cities[zones[0]]["span"])

    def looks(self, variant, rule: ZonesRule) -> Looks:
        """The core draws dead-end places as squares; the legend says what a zone is."""
        return Looks(legend={"dead_ends": "a zone: each route into it ends there on its own; "
                                          "two routes into one zone do not join"})
