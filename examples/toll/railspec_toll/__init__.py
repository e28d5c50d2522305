"""Toll routes: a railspec mechanic written outside railspec, the smallest complete example.

The rule: ``route A - B L COLOUR toll N``. Whoever claims a toll route pays N points, taken
from their total at the end; a player whose points so far (route points less the tolls
they have paid) are below N may not claim it.

What it adds, and where (docs/architecture.md, "Adding a mechanic"):

- its language: the route attribute ``toll N`` (``grammar.lark``, ``syntax.py``);
- its record in the IR, made by its checker stage: each toll route and its toll;
- its state: ``tolls_paid``, per player and public, so observations carry it by itself;
- its rules in both engines: the ``route_open`` and ``after_claim`` hooks, and its score
  item ``tolls`` (the ``score_player`` hook), in ``TollReference`` below and in
  ``engine.pyx.j2``;
- nothing for described positions: its scoring reads its own state field, so a described
  position carries ``tolls_paid`` under that name, derived from the state schema;
- its sample, for railspec's contract check (``railspec.testing.check_mechanic``), which
  its tests run.

It imports only documented names: ``railspec.compiler.mechanic`` (the mechanic's API),
``railspec.compiler.ir``, ``railspec.compiler.base.schema``, ``railspec.compiler.base.limits``
and ``railspec.compiler.lang.ast``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from railspec.compiler import ir
from railspec.compiler.base.limits import MAX_POINTS, Limit
from railspec.compiler.base.schema import Field
from railspec.compiler.mechanic import Mechanic, MechanicReference, Sample, Sampled, ScoreItem, Tables

from .syntax import TollAttr


@dataclass(frozen=True)
class TollRule(ir.Rule):
    """Tolls in the IR: (route id, toll) for each toll route."""

    mechanic: ClassVar[str] = "toll"
    tolls: tuple[tuple[int, int], ...]

    def toll(self, route: int) -> int:
        """The toll of a route (0: none)."""
        return dict(self.tolls).get(route, 0)


class TollReference(MechanicReference):
    """Tolls in the reference interpreter: the hooks it fills, as methods. ``route`` is an
    ``ir.Route`` here (an ``int`` route id in the compiled engine)."""

    def route_open(self, state, route: ir.Route, player: int) -> bool:
        toll = self.rule.toll(route.id)
        return toll == 0 or state.route_score[player] - state.tolls_paid[player] >= toll

    def after_claim(self, state, route: ir.Route, player: int) -> None:
        state.tolls_paid[player] += self.rule.toll(route.id)

    def score_player(self, state, player: int, row: dict, network: list[int]) -> None:
        row["tolls"] = -state.tolls_paid[player]


class Toll(Mechanic, Sampled):
    """Toll routes (see the module's docstring)."""

    name = "toll"
    title = "toll routes (an example mechanic from outside railspec)"
    rule = TollRule
    reference = TollReference
    statements = (TollAttr,)
    state_fields = (
        Field("tolls_paid", "the tolls each player has paid (public)", owner="toll", per_player=True,
              high="TOLL_TOTAL"),
    )
    score_items = (ScoreItem("tolls", "minus the tolls the player paid", True, "toll"),)
    limits = (Limit("route … toll N", f"1 ≤ N ≤ {MAX_POINTS:,}", "a points value"),)
    #: A toll road of one space from the map's first city to a town of its own, for the
    #: tools that write specs (the contract check's small map, the fuzzer's).
    sample = Sample(("city Tollgate", "route {city0} - Tollgate 1 gray toll 1"))

    def check(self, ctx) -> TollRule | None:
        tolls = []
        for route, attr in ctx.routes_with(TollAttr.name):
            toll = ctx.positive(attr.value, "a route's toll", most=MAX_POINTS)
            if toll:
                tolls.append((route.id, toll))
        return TollRule(tolls=tuple(tolls)) if tolls else None

    def dimensions(self, variant: ir.Variant, rule: TollRule) -> dict[str, int]:
        return {"TOLL_TOTAL": sum(toll for _, toll in rule.tolls)}

    def score_bound(self, variant: ir.Variant, rule: TollRule) -> int:
        return sum(toll for _, toll in rule.tolls)

    def tables(self, variant: ir.Variant, rule: TollRule) -> Tables:
        return Tables(arrays=[("T_TOLL", [rule.toll(r.id) for r in variant.routes])])
