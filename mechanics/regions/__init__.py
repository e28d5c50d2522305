"""Regions and the region bonus (Italy).

Italy rulebook, Fim da partida e bônus das regiões: each player counts the regions their
network connects and scores the region table; Sardegna, Sicilia and Puglia count double. Written
``region NAME [double]: CITY, …`` and ``region points N:P … N+:P``. "If a player has two
(or more) separate networks, they are counted separately": ``regions scored per network``
(the default) or ``regions scored together``; a double region counts double "if all its
cities are connected in the same network": ``double regions need every city`` (the
default) or ``double regions need one city``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ast, ir
from ...errors import Span
from .. import Mechanic


@dataclass(frozen=True)
class Region:
    id: int
    name: str
    cities: tuple[int, ...]
    counts_double: bool


@dataclass(frozen=True)
class RegionsRule(ir.Rule):
    mechanic: ClassVar[str] = "regions"
    regions: tuple[Region, ...]
    points: tuple[tuple[int, int, bool], ...]  # (regions connected, points, open-ended)
    per_network: bool      # each separate network scores on its own
    doubles_whole: bool    # a double region counts double only with every city in the network
    span: Span | None = field(default=None, compare=False)


class Regions(Mechanic):
    name = "regions"
    title = "regions and the region bonus"
    implemented = False
    rule = RegionsRule

    def check(self, ctx) -> RegionsRule | None:
        regions: list[Region] = []
        declared: dict[str, ast.Region] = {}
        region_of: dict[int, int] = {}
        for reg in ctx.many(ast.Region):
            if reg.name.text in declared:
                ctx.errors.add(reg.name.span, f"region '{reg.name.text}' is declared twice "
                                              f"(first at {ctx.line_of(declared[reg.name.text].span, reg.span)})")
                continue
            declared[reg.name.text] = reg
            members = []
            for name in reg.cities:
                cid = ctx.places.ref(name, f"region {reg.name.text}")
                if cid is None:
                    continue
                if cid in region_of:
                    ctx.errors.add(name.span, f"city '{name.text}' is already in region "
                                              f"'{regions[region_of[cid]].name}'")
                    continue
                region_of[cid] = len(regions)
                members.append(cid)
            regions.append(Region(len(regions), reg.name.text, tuple(members), reg.counts_double))
        points_stmt = ctx.one(ast.RegionPoints)
        points: tuple = ()
        if points_stmt:
            ctx.table(points_stmt.entries, "region points", points_stmt.span, open_allowed=True, from_one=False)
            points = tuple((e.key.value, e.value.value, e.open_ended) for e in points_stmt.entries)
            if not regions:
                ctx.errors.add(points_stmt.span, "'region points' needs regions: add 'region NAME: CITY, …'")
        scoring = ctx.one(ast.RegionScoring)
        doubles = ctx.one(ast.DoubleRegions)
        for given, words in ((scoring, "regions scored"), (doubles, "double regions")):
            if given and not regions:
                ctx.errors.add(given.span, f"'{words}' needs regions: add 'region NAME: CITY, …'")
        if not regions:
            return None
        first = ctx.many(ast.Region)[0]
        return RegionsRule(regions=tuple(regions), points=points,
                           per_network=scoring is None or scoring.mode == "per_network",
                           doubles_whole=doubles is None or doubles.mode == "every_city", span=first.name.span)

    def actions(self, variant, rule) -> list[dict]:
        return []
