"""Ferries: routes that need some locomotives among the cards paid (Europe, Pennsylvania).

Europe rulebook, Traghetti: one locomotive for each locomotive symbol on the route, the
usual set of one colour for the other spaces. Written as a route attribute, ``ferry N``.
The claim catalogue already lays out a ferry's payments (every payment has at least N
locomotives), so the compiled engine's legal moves need nothing more.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...errors import Span
from .. import Mechanic


@dataclass(frozen=True)
class FerriesRule(ir.Rule):
    mechanic: ClassVar[str] = "ferries"
    routes: tuple[int, ...]  # the ferry routes
    span: Span | None = field(default=None, compare=False)


class Ferries(Mechanic):
    name = "ferries"
    title = "ferries"
    implemented = False
    rule = FerriesRule

    def check(self, ctx) -> FerriesRule | None:
        for stmt, length in ctx.board.attributed:
            ferry = stmt.ferry.value if stmt.ferry else 0
            if stmt.ferry and not 0 < ferry <= length:
                ctx.errors.add(stmt.ferry.span, f"a ferry of length {length} cannot need {ferry} locomotives")
        ferries = [r for r in ctx.board.routes if r.ferry_locomotives]
        if not ferries:
            return None
        return FerriesRule(routes=tuple(r.id for r in ferries), span=ferries[0].span)

    def actions(self, variant, rule) -> list[dict]:
        return []
