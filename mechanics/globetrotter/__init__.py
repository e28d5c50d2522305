"""The Globetrotter bonus (Pennsylvania).

Pennsylvania rulebook, Calcolare il punteggio: the player or players who completed the
most tickets score the bonus. Written ``globetrotter N``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ast, ir
from ...errors import Span
from .. import Mechanic


@dataclass(frozen=True)
class GlobetrotterRule(ir.Rule):
    mechanic: ClassVar[str] = "globetrotter"
    bonus: int
    span: Span | None = field(default=None, compare=False)


class Globetrotter(Mechanic):
    name = "globetrotter"
    title = "the Globetrotter bonus"
    implemented = False
    rule = GlobetrotterRule

    def check(self, ctx) -> GlobetrotterRule | None:
        stmt = ctx.one(ast.Globetrotter)
        bonus = ctx.positive(stmt.bonus if stmt else None, "the Globetrotter bonus", allow_zero=True)
        return GlobetrotterRule(bonus=bonus, span=stmt.span) if stmt else None

    def actions(self, variant, rule) -> list[dict]:
        return []
