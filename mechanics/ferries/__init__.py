"""Ferries: routes that need some locomotives among the cards paid (Europe, Pennsylvania).

Europe rulebook, Traghetti: one locomotive for each locomotive symbol on the route, the
usual set of one colour for the other spaces. Written as a route attribute, ``ferry N``.
The claim catalogue lays out a ferry's payments with at least N locomotives each (the
payment block's least locomotives), so both engines play ferries with no code of their
own: the mechanic is its checker stage and its place in the contract.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.mechanic import Mechanic, Tables


@dataclass(frozen=True)
class FerriesRule(ir.Rule):
    mechanic: ClassVar[str] = "ferries"
    routes: tuple[int, ...]  # the ferry routes
    span: Span | None = field(default=None, compare=False)


class FerriesReference:
    """Nothing to do: a ferry's payments come from the catalogue like any route's."""

    def __init__(self, rules, rule: FerriesRule):
        self.rule = rule


class Ferries(Mechanic):
    name = "ferries"
    order = 70
    title = "ferries"
    rule = FerriesRule
    state_fields = ()
    phases = ()
    kinds = ()
    hooks = frozenset()
    reference = FerriesReference
    score_items = ()
    tiebreaks = ()
    position_keys = ()

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

    def tables(self, variant, rule) -> Tables:
        return Tables()

    def state_problems(self, variant, rule, state) -> list[str]:
        return []
