"""Long tickets: a second ticket deck, dealt at set-up only (Europe).

Europe rulebook, Preparazione del gioco: each player is dealt one long ticket with the
regular ones; the long tickets not dealt go back in the box, and so do those not kept.
The spec deals them with ``deal tickets N long L keep K`` and says where long tickets not
kept go with ``returned long PLACE`` (``removed`` by default).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ast, ir
from ...errors import Span
from .. import Mechanic


@dataclass(frozen=True)
class LongTicketsRule(ir.Rule):
    mechanic: ClassVar[str] = "long_tickets"
    deal: int       # long tickets dealt to each player at set-up
    returned: str   # where long tickets not kept go: "removed", "bottom", "shuffled_bottom"
    span: Span | None = field(default=None, compare=False)


class LongTickets(Mechanic):
    name = "long_tickets"
    title = "long tickets"
    implemented = False
    rule = LongTicketsRule

    def check(self, ctx) -> LongTicketsRule | None:
        """The long deck must be able to deal ``long`` tickets to each player."""
        long_statements = [t for t in ctx.many(ast.Ticket) if t.long]
        deal = ctx.one(ast.Deal)
        players, turn = ctx.players, ctx.turn
        if deal and ctx.board.links:
            if turn.deal_long and not long_statements:
                ctx.errors.add(deal.span, "long tickets are dealt but no 'ticket long' is declared")
            elif players.ok and len(long_statements) < turn.deal_long * players.high:
                ctx.errors.add(deal.span, f"{len(long_statements)} long tickets cannot deal {turn.deal_long} to "
                                          f"each of {players.high} players")
        if not turn.deal_long and not long_statements:
            return None
        span = long_statements[0].span if long_statements else deal.span
        return LongTicketsRule(deal=turn.deal_long, returned=turn.returned["long"], span=span)

    def actions(self, variant, rule) -> list[dict]:
        return []
