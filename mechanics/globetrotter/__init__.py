"""The Globetrotter bonus (Pennsylvania).

Pennsylvania rulebook, Calcolare il punteggio: a bonus "to the player or players who
completed the most Destination Tickets at the end of the game"; tied players each score
it, and tickets not completed do not count. Written ``globetrotter N``. When nobody has
completed a ticket nobody has completed the most, and nobody scores it (docs/rules.md 17).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.state_view import StateView
from ...compiler.hooks import MechanicReference
from ...compiler.mechanic import HardCases, Mechanic, Sample, Sampled, ScoreItem, Tables
from .syntax import Globetrotter as GlobetrotterStmt


@dataclass(frozen=True)
class GlobetrotterRule(ir.Rule):
    mechanic: ClassVar[str] = "globetrotter"
    bonus: int
    span: Span | None = field(default=None, compare=False)


def globetrotter_bonus(rule: GlobetrotterRule, completed: list[int]) -> list[int]:
    """Each player's bonus, from everyone's completed tickets."""
    best = max(completed, default=0)
    return [rule.bonus if best > 0 and n == best else 0 for n in completed]


class GlobetrotterReference(MechanicReference[StateView, GlobetrotterRule]):
    def score_awards(self, state: StateView, rows: list[dict]) -> None:
        for row, bonus in zip(rows, globetrotter_bonus(self.rule, [r["tickets_completed"] for r in rows])):
            row["globetrotter"] = bonus


class Globetrotter(Mechanic[GlobetrotterRule], HardCases[GlobetrotterRule], Sampled):
    name = "globetrotter"
    order = 130
    title = "the Globetrotter bonus"
    sample = Sample(("globetrotter 15",))
    rule = GlobetrotterRule
    reference = GlobetrotterReference
    statements = (GlobetrotterStmt,)
    score_items = (ScoreItem("globetrotter", "the bonus, to every player with the most tickets completed (above 0)",
                             True, "globetrotter"),)

    def hard_cases(self, variant, rule: GlobetrotterRule, state: dict, rows: list[dict]) -> tuple[str, ...]:
        """Players tied on the most tickets completed (each scores the bonus)."""
        best = max((row["tickets_completed"] for row in rows), default=0)
        return ("globetrotter tied",) if best and sum(row["tickets_completed"] == best for row in rows) > 1 else ()

    def check(self, ctx) -> GlobetrotterRule | None:
        stmt = ctx.one(GlobetrotterStmt)
        bonus = ctx.points(stmt.bonus if stmt else None, "the Globetrotter bonus")
        return GlobetrotterRule(bonus=bonus, span=stmt.span) if stmt else None

    def score_bound(self, variant, rule: GlobetrotterRule) -> int:
        return rule.bonus

    def tables(self, variant, rule: GlobetrotterRule) -> Tables:
        return Tables(constants=[("GLOBETROTTER_BONUS", rule.bonus)])

