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

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.limits import Limit
from ...compiler.base.state_view import StateView
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import Drawing, HardCases, Looks, Mechanic, Sample, Sampled, ScoreItem, Tables
from .syntax import DoubleRegions, RegionPoints, RegionScoring
from .syntax import Region as RegionStmt

#: Regions: a network's regions are a 64-bit mask in the compiled engine.
MAX_REGIONS = 64


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


def points_table(rule: RegionsRule) -> list[int]:
    """Points by the number of regions counted, 0 … twice the regions (doubles count twice):
    a count below the table's first key scores 0; above its last key, the last entry's points
    when it is open-ended ('15+'), else 0."""
    exact = {count: points for count, points, _open in rule.points}
    last = max(rule.points, default=(0, 0, False))
    out = []
    for count in range(2 * len(rule.regions) + 1):
        if count in exact:
            out.append(exact[count])
        elif rule.points and count > last[0] and last[2]:
            out.append(last[1])
        else:
            out.append(0)
    return out


class RegionsReference(MechanicReference[StateView, RegionsRule]):
    """The region bonus in plain Python."""

    def __init__(self, rules: Services, rule: RegionsRule):
        super().__init__(rules, rule)
        self.region_of = {city: g.id for g in rule.regions for city in g.cities}
        self.table = points_table(rule)

    def count(self, regions: set[int], has_city) -> int:
        """Regions touched, each double region twice when ``has_city`` holds for all its cities
        (or for any, with 'double regions need one city')."""
        count = 0
        for g in self.rule.regions:
            if g.id in regions:
                count += 1
                if g.counts_double and (not self.rule.doubles_whole or all(has_city(c) for c in g.cities)):
                    count += 1
        return count

    def score_player(self, state: StateView, player: int, row: dict, network) -> None:
        own = self.rules.network(state, player)  # the player's own routes, never joined further
        on_routes = {n for r in self.rules.variant.routes if state.owner[r.id] == player for n in (r.node_a, r.node_b)}
        if self.rule.per_network:
            total = 0
            for label in sorted({own[n] for n in on_routes}):
                nodes = {n for n in on_routes if own[n] == label}
                regions = {self.region_of[n] for n in nodes if n in self.region_of}
                total += self.table[self.count(regions, lambda city, nodes=nodes: city in nodes)]
        else:
            regions = {self.region_of[n] for n in on_routes if n in self.region_of}
            total = self.table[self.count(regions, lambda city: city in on_routes)]
        row["regions"] = total


class Regions(Mechanic[RegionsRule], Drawing[RegionsRule], HardCases[RegionsRule], Sampled):
    name = "regions"
    order = 140
    title = "regions and the region bonus"
    sample = Sample(("region North: {city0}, {city1}", "region points 1:1 2:3"))
    rule = RegionsRule
    reference = RegionsReference
    score_items = (ScoreItem("regions", "the region bonus: the table's points for the regions each network "
                                       "connects", True, "regions"),)
    statements = (RegionStmt, RegionPoints, RegionScoring, DoubleRegions)
    limits = (Limit("region NAME …", f"at most {MAX_REGIONS} regions",
                    "a network's regions are a bit mask in the compiled engine"),)

    def check(self, ctx) -> RegionsRule | None:
        regions: list[Region] = []
        declared: dict[str, RegionStmt] = {}
        region_of: dict[int, int] = {}
        for reg in ctx.many(RegionStmt):
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
        points_stmt = ctx.one(RegionPoints)
        points: tuple = ()
        if points_stmt:
            ctx.table(points_stmt.entries, "region points", points_stmt.span, open_allowed=True, from_one=False)
            points = tuple((e.key.value, e.value.value, e.open_ended) for e in points_stmt.entries)
            if not regions:
                ctx.errors.add(points_stmt.span, "'region points' needs regions: add 'region NAME: CITY, …'")
        scoring = ctx.one(RegionScoring)
        doubles = ctx.one(DoubleRegions)
        for given, words in ((scoring, "regions scored"), (doubles, "double regions")):
            if given and not regions:
                ctx.errors.add(given.span, f"'{words}' needs regions: add 'region NAME: CITY, …'")
        if len(regions) > MAX_REGIONS:
            ctx.errors.add(ctx.many(RegionStmt)[MAX_REGIONS].span, f"at most {MAX_REGIONS} regions are supported")
        if not regions:
            return None
        first = ctx.many(RegionStmt)[0]
        if not points_stmt:
            ctx.warn(first.span, "regions score nothing without a 'region points N:P …' table")
        return RegionsRule(regions=tuple(regions), points=points,
                           per_network=scoring is None or scoring.mode == "per_network",
                           doubles_whole=doubles is None or doubles.mode == "every_city", span=first.name.span)

    def score_bound(self, variant, rule: RegionsRule) -> int:
        """The table's best entry, once per network a player can have: each network holds a
        route, and each route takes a train."""
        best = max(points_table(rule), default=0)
        return best * (min(len(variant.routes), variant.trains) if rule.per_network else 1)

    def tables(self, variant: ir.Variant, rule: RegionsRule) -> Tables:
        region_of = {city: g.id for g in rule.regions for city in g.cities}
        node_region = [-1] * max(1, variant.node_count)
        for city, nodes in enumerate(variant.city_nodes):
            for node in nodes:
                node_region[node] = region_of.get(city, -1)
        cities: list[int] = []
        first: list[int] = []
        end: list[int] = []
        for g in rule.regions:
            first.append(len(cities))
            cities.extend(variant.city_nodes[c][0] for c in g.cities)
            end.append(len(cities))
        table = points_table(rule)
        return Tables(constants=[("N_REGIONS", len(rule.regions)), ("REGION_COUNT_MAX", len(table) - 1),
                                 ("REGIONS_PER_NETWORK", int(rule.per_network)),
                                 ("DOUBLES_WHOLE", int(rule.doubles_whole))],
                      arrays=[("T_NODE_REGION", node_region),
                              ("T_REGION_DOUBLE", [int(g.counts_double) for g in rule.regions]),
                              ("T_REGION_CITY_FIRST", first), ("T_REGION_CITY_END", end),
                              ("T_REGION_CITIES", cities or [0]), ("T_REGION_POINTS", table)])

    def hard_cases(self, variant, rule: RegionsRule, state: dict, rows: list[dict]) -> tuple[str, ...]:
        """A player's routes reaching a region that counts double (whole or in part)."""
        doubles = {c for region in rule.regions if region.counts_double for c in region.cities}
        for r in variant.routes:
            if state["owner"][r.id] >= 0 and (r.a in doubles or r.b in doubles):
                return ("a double region reached",)
        return ()

    def looks(self, variant, rule: RegionsRule) -> Looks:
        """Each region's cities ringed in a colour of their own, named in the legend."""
        return Looks(groups=tuple((region.name + (" (counts double)" if region.counts_double else ""),
                                   tuple(region.cities)) for region in rule.regions),
                     legend={"groups": "regions: each city ringed in its region's colour"})

