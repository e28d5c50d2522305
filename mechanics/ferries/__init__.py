"""Ferries: routes that need some locomotives among the cards paid (Europe, Pennsylvania).

Europe rulebook, Traghetti: one locomotive for each locomotive symbol on the route, the
usual set of one colour for the other spaces. Written as a route attribute, ``ferry N``
(``syntax.py``, ``grammar.lark``). The mechanic lays out a ferry's payments itself
(:meth:`Ferries.payment_shapes`): every payment block of the route needs N more
locomotives and has N fewer spaces paid by cards of one colour. Past that the claim is
any claim, so both engines play ferries with no code of their own.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.mechanic import Drawing, Looks, Mechanic, Payments, Sample, Sampled
from .syntax import FerryAttr


@dataclass(frozen=True)
class FerriesRule(ir.Rule):
    mechanic: ClassVar[str] = "ferries"
    locomotives: tuple[tuple[int, int], ...]  # (route id, locomotives it needs), each ferry
    span: Span | None = field(default=None, compare=False)

    @property
    def routes(self) -> tuple[int, ...]:
        """The ferry routes."""
        return tuple(route for route, _ in self.locomotives)

    def needs(self, route: int) -> int:
        """The locomotives a claim of ``route`` must include (0: not a ferry)."""
        return dict(self.locomotives).get(route, 0)


class Ferries(Mechanic[FerriesRule], Payments[FerriesRule], Drawing[FerriesRule], Sampled):
    name = "ferries"
    order = 70
    title = "ferries"
    sample = Sample(route=" ferry 1")
    rule = FerriesRule
    statements = (FerryAttr,)

    def check(self, ctx) -> FerriesRule | None:
        for stmt, length in ctx.board.attributed:
            attr = stmt.attr(FerryAttr.name)
            if attr is not None and not 0 < attr.value.value <= length:
                ctx.errors.add(attr.value_span, f"a ferry of length {length} cannot need {attr.value.value} "
                                                f"locomotives")
        ferries = [(route, attr.value.value) for route, attr in ctx.routes_with(FerryAttr.name)
                   if 0 < attr.value.value <= route.length]
        if not ferries:
            return None
        return FerriesRule(locomotives=tuple((route.id, n) for route, n in ferries), span=ferries[0][0].span)

    def payment_shapes(self, variant, rule: FerriesRule, route, shapes):
        """Traghetti: N of the spaces are paid by locomotives only."""
        n = rule.needs(route.id)
        if not n:
            return shapes
        return [replace(s, base_locomotives=s.base_locomotives + n, plain=s.plain - n) for s in shapes]

    def looks(self, variant, rule: FerriesRule) -> Looks:
        """A ferry's badge: F and its locomotives."""
        return Looks(badges={route: f"F{n}" for route, n in rule.locomotives},
                     legend={"badges": "F and a number: a ferry; that many of its spaces take locomotives"})


