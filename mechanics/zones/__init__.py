"""Zones: places that tickets name but that join nothing (Italy's neighbouring countries,
Pennsylvania's Ontario).

Italy rulebook, Países vizinhos e Monaco: every route into a neighbouring country is a
dead end of its own; two routes into the same country are not connected. The core gives
each route end at a zone a graph node of its own; a ticket to a zone is complete when
any of those nodes is joined to the other end.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...errors import Span
from .. import Mechanic


@dataclass(frozen=True)
class ZonesRule(ir.Rule):
    mechanic: ClassVar[str] = "zones"
    zones: tuple[int, ...]  # the city ids that are zones
    span: Span | None = field(default=None, compare=False)


class Zones(Mechanic):
    name = "zones"
    title = "zones (dead-end places)"
    implemented = False
    rule = ZonesRule

    def check(self, ctx) -> ZonesRule | None:
        zones = [i for i, c in enumerate(ctx.places.cities) if c["zone"]]
        if not zones:
            return None
        return ZonesRule(zones=tuple(zones), span=ctx.places.cities[zones[0]]["span"])

    def actions(self, variant, rule) -> list[dict]:
        return []
