"""Locomotives wild only on some routes (Nordic Countries, Switzerland).

Nordic Countries rule summary (Dan Blum, onedayofsilence.com; thoun/tickettoride
nordiccountries/map.php ``locomotiveUsageRestriction``): "Locomotives can only be used for
tunnels and ferries"; the Swiss map (ticket-to-ride.fandom.com, islaythedragon.com review;
switzerland/map.php): "Locomotive (wild) cards may be used only on tunnel routes". Written
``locomotives wild only on tunnel, ferry`` (``syntax.py``, ``grammar.lark``): the words are
route attributes (any mechanic's, as ``railspec mechanics`` lists them); a route carrying
one of them takes locomotives as before, every other route takes none.

No state and no hook: the mechanic lays out the payments itself
(:meth:`WildLocomotives.payment_shapes`). A route without a named attribute keeps only the
step of its payment blocks that pays no locomotive beyond those the blocks require
(``PaymentShape.wild`` False: cards of one colour for its plain spaces), so the catalogue
lists no claim paying a locomotive there and both engines play it with no code of their
own. The locomotives a route requires are still paid (none on such a route in the two
maps), and other payments (a tunnel's extra cards, sets of any cards) are their mechanics'.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.lang.ast import RouteAttr
from ...compiler.mechanic import Mechanic, Payments, Sample, Sampled
from .syntax import WildOnly


@dataclass(frozen=True)
class WildLocomotivesRule(ir.Rule):
    mechanic: ClassVar[str] = "wild_locomotives"
    attributes: tuple[str, ...]  # the route attributes on whose routes locomotives are wild
    routes: tuple[int, ...]      # those routes
    span: Span | None = field(default=None, compare=False)


class WildLocomotives(Mechanic[WildLocomotivesRule], Payments[WildLocomotivesRule], Sampled):
    name = "wild_locomotives"
    order = 180
    title = "locomotives wild only on some routes"
    sample = Sample(("locomotives wild only on tunnel",), route=" tunnel")
    rule = WildLocomotivesRule
    statements = (WildOnly,)

    def check(self, ctx) -> WildLocomotivesRule | None:
        stmt = ctx.one(WildOnly)
        if stmt is None:
            return None
        known = sorted({node.name for m in (ctx.registry or ()) for node in m.statements
                        if isinstance(node, type) and issubclass(node, RouteAttr) and node.name})
        named: list[str] = []
        for attr in stmt.attributes:
            word = attr.text
            if word in named:
                ctx.errors.add(attr.span, f"route attribute '{word}' is named twice")
            elif word not in known:
                ctx.errors.add(attr.span, f"'{word}' is not a route attribute{ctx.suggest(word, known)}; "
                                          f"the route attributes are {', '.join(known)}")
            else:
                named.append(word)
        routes = sorted({route.id for word in named for route, _attr in ctx.routes_with(word)})
        for word in named:
            if not ctx.routes_with(word):
                ctx.warn(stmt.span, f"locomotives are wild on '{word}' routes, but no route is one")
        return WildLocomotivesRule(attributes=tuple(named), routes=tuple(routes), span=stmt.span)

    def payment_shapes(self, variant, rule: WildLocomotivesRule, route, shapes):
        """Off the named routes a locomotive pays for no plain space."""
        if route.id in rule.routes:
            return shapes
        return [replace(s, wild=False) for s in shapes]
