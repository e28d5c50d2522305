"""Returned tickets leaving the game instead of going under the deck (Europe).

Europe rulebook, Inizio della partita: the tickets players do not keep at set-up go back
in the box. The spec says ``returned setup removed`` (or ``returned tickets removed`` for
the tickets returned after a draw).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ast, ir
from ...errors import Span
from .. import Mechanic

REMOVED = "removed"


@dataclass(frozen=True)
class RemovedTicketsRule(ir.Rule):
    mechanic: ClassVar[str] = "removed_tickets"
    draws: bool  # tickets returned after a ticket draw leave the game
    setup: bool  # tickets returned at set-up leave the game
    span: Span | None = field(default=None, compare=False)


class RemovedTickets(Mechanic):
    name = "removed_tickets"
    title = "returned tickets removed from the game"
    implemented = False
    rule = RemovedTicketsRule

    def check(self, ctx) -> RemovedTicketsRule | None:
        draws = ctx.turn.returned["tickets"] == REMOVED
        setup = ctx.turn.returned["setup"] == REMOVED
        if not (draws or setup):
            return None
        span = next((r.span for r in ctx.many(ast.Returned) if r.place == REMOVED and r.deck != "long"), None)
        return RemovedTicketsRule(draws=draws, setup=setup, span=span)

    def actions(self, variant, rule) -> list[dict]:
        return []
