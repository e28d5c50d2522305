"""Mountains: routes whose claim takes more trains than its spaces (Legendary Asia).

Legendary Asia's rules (the rule summary in thoun/tickettoride modules/maps/legendaryasia/
map.php, 100940e; offthechartsgames.com and boardgamewikia.com describe the same): some
spaces of a mountain route are marked with an X. A player who claims the route pays the
cards for all its spaces as usual, and for each X puts one more train from their supply
in the Mountain Crossing area, out of the game; each such train scores 2 points at the end.
A player must have the trains for the spaces and for the crosses to claim the route.

Written as a route attribute, ``mountain N`` (N crosses, at most the route's length), and
``mountain points N`` (2 when the spec does not say): ``syntax.py`` and ``grammar.lark``.

In both engines (docs/engine.md, "Mountains"): a mountain route's payments are legal only
for a player with length + N trains (``payment_ok``); once the route is owned its N
crossings leave the supply (``after_claim``), so the end of the game is triggered by the
trains left, crossings included; a shared claim of a mountain route (a claim of a route
another player owns, in a variant with shared claims) takes them from the claimer as well
(``after_shared_claim``, docs/rules.md #87). Nothing is stored: scoring counts the
player's mountain routes and their crossings from the routes they own, as owner or
further owner (``score_player``, the core's ``route_owned_by``), and the core's trains
invariant and described positions count the crossings through ``Mechanic.extra_trains``.
``most mountain routes`` is a tie-break key (Legendary Asia's Asian Explorer bonus is
settled by it after completed tickets).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.limits import Limit
from ...compiler.base.state_view import StateView
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import Drawing, Looks, Mechanic, Payments, Sample, Sampled, ScoreItem, Tables, TieBreak
from .syntax import MountainAttr, MountainPoints

#: What each crossing scores when the spec has no 'mountain points' (Legendary Asia).
POINTS = 2


@dataclass(frozen=True)
class MountainsRule(ir.Rule):
    mechanic: ClassVar[str] = "mountains"
    crossings: tuple[tuple[int, int], ...]  # (route id, its crosses), each mountain route
    points: int                             # per crossing
    span: Span | None = field(default=None, compare=False)

    def of(self, route: int) -> int:
        """The crosses of ``route`` (0: not a mountain route)."""
        return dict(self.crossings).get(route, 0)




class MountainsReference(MechanicReference[StateView, MountainsRule]):
    """Mountains in plain Python."""

    def __init__(self, rules: Services, rule: MountainsRule):
        super().__init__(rules, rule)
        crossings = dict(rule.crossings)
        self.crossings = crossings
        self.need = {route: rules.variant.routes[route].length + n for route, n in crossings.items()}

    def payment_ok(self, state: StateView, block: ir.PaymentBlock, player: int) -> bool:
        return state.trains[player] >= self.need.get(block.route, 0)

    def after_claim(self, state: StateView, route: ir.Route, player: int) -> None:
        """The crossings leave the supply once the route is owned."""
        state.trains[player] -= self.crossings.get(route.id, 0)

    def after_shared_claim(self, state: StateView, route: ir.Route, player: int) -> None:
        """A shared claim takes the route's crossings from the claimer too (docs/rules.md #87)."""
        self.after_claim(state, route, player)

    def score_player(self, state: StateView, player: int, row: dict, network) -> None:
        """The player's mountain routes (shared ones too), their crossings, and their points."""
        routes = self.rules.variant.routes
        owned = [n for route, n in self.rule.crossings if self.rules.route_owned_by(state, routes[route], player)]
        row["mountain_routes"] = len(owned)
        row["mountain_trains"] = sum(owned)
        row["mountain_points"] = self.rule.points * sum(owned)


class Mountains(Mechanic[MountainsRule], Payments[MountainsRule], Drawing[MountainsRule], Sampled):
    name = "mountains"
    order = 160
    title = "mountain routes"
    sample = Sample(("mountain points 2",), route=" mountain 1")
    rule = MountainsRule
    reference = MountainsReference
    statements = (MountainAttr, MountainPoints)
    limits = (Limit("route … mountain N", "1 … the route's length; length + N ≤ trains",
                    "each cross is one space's second train: a claim takes length + N trains, which a player "
                    "must have"),)
    score_items = (
        ScoreItem("mountain_routes", "how many mountain routes the player owns", False, "mountains",
                  label="mountains"),
        ScoreItem("mountain_trains", "the trains the player's mountain routes took besides their spaces (their "
                                     "crosses)", False, "mountains", label="crossed"),
        ScoreItem("mountain_points", "the points of those trains", True, "mountains", label="mtn pts"),
    )
    tiebreaks = (
        TieBreak("most_mountain_routes", "most mountain routes", "the most mountain routes owned",
                 owner="mountains",
                 unavailable="tie-break on mountain routes, but the variant has no mountain route",
                 column="mountain_routes"),
    )

    def check(self, ctx) -> MountainsRule | None:
        trains = ctx.parts.trains
        ok = []
        for route, attr in ctx.routes_with(MountainAttr.name):
            n = attr.value.value
            if not 0 < n <= route.length:
                ctx.errors.add(attr.value_span, f"a route of length {route.length} cannot have {n} mountain "
                                                f"crosses: each cross marks one of its spaces")
            elif trains and route.length + n > trains:
                ctx.errors.add(attr.value_span, f"a route of length {route.length} with {n} mountain crosses "
                                                f"takes {route.length + n} trains, more than the {trains} a player "
                                                f"has: the route could never be claimed")
            else:
                ok.append((route.id, n))
        stmt = ctx.one(MountainPoints)
        points = POINTS
        if stmt:
            points = ctx.points(stmt.points, "the points of a mountain crossing")
            if not any(stmt_.attr(MountainAttr.name) for stmt_, _length in ctx.board.attributed):
                ctx.errors.add(stmt.span, "'mountain points' needs a mountain route: add 'mountain N' to a route")
        if not ok:
            return None
        first = next(route for route, _attr in ctx.routes_with(MountainAttr.name))
        return MountainsRule(crossings=tuple(ok), points=points, span=first.span)

    def extra_trains(self, variant, rule: MountainsRule, route) -> int:
        return rule.of(route.id)

    def score_bound(self, variant, rule: MountainsRule) -> int:
        return rule.points * sum(n for _, n in rule.crossings)

    def tables(self, variant: ir.Variant, rule: MountainsRule) -> Tables:
        crossings = dict(rule.crossings)
        need = [variant.routes[b.route].length + crossings[b.route] if b.route in crossings else 0
                for b in variant.claim_layout.blocks]
        return Tables(constants=[("MOUNTAIN_POINTS", rule.points), ("N_MOUNTAIN_ROUTES", len(rule.crossings))],
                      arrays=[("T_ROUTE_MOUNTAIN", [crossings.get(r.id, 0) for r in variant.routes] or [0]),
                              ("T_MOUNTAIN_ROUTES", [route for route, _ in rule.crossings] or [0]),
                              ("T_BLOCK_MOUNTAIN_NEED", need or [0])])

    def looks(self, variant, rule: MountainsRule) -> Looks:
        """A mountain route's badge: M and its crosses."""
        return Looks(badges={route: f"M{n}" for route, n in rule.crossings},
                     legend={"badges": f"M and a number: a mountain route; claiming it takes that many more trains "
                                       f"from the supply, {rule.points} points each"})
