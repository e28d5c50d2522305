"""Returned tickets leaving the game instead of going under the deck (Europe).

Europe rulebook, Inizio della partita: the tickets players do not keep at set-up go back
in the box. The spec says ``returned setup removed`` (or ``returned tickets removed`` for
the tickets returned after a draw): this mechanic's ``grammar.lark`` adds the place
``removed`` to the core's ``returned`` statement. They go to the field ``tickets_out``, in the order
they were returned: hidden, as the box is, their number too. The rulebook puts them back
"senza che nessun altro giocatore possa vederli"; a public count of the regular tickets
boxed would tell the others, set against the tickets a player kept, whether they kept
their long ticket.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.schema import TICKETS, Field, hidden
from ...compiler.hooks import MechanicReference
from ...compiler.lang import ast
from ...compiler.mechanic import Invariants, Mechanic, Sample, Sampled, Tables
from .state_view import RemovedTicketsState

REMOVED = "removed"


@dataclass(frozen=True)
class RemovedTicketsRule(ir.Rule):
    mechanic: ClassVar[str] = "removed_tickets"
    draws: bool  # tickets returned after a ticket draw leave the game
    setup: bool  # tickets returned at set-up leave the game
    span: Span | None = field(default=None, compare=False)

    def removes(self, at_setup: bool) -> bool:
        return self.setup if at_setup else self.draws


class RemovedTicketsReference(MechanicReference[RemovedTicketsState, RemovedTicketsRule]):
    def returned_tickets(self, state: RemovedTicketsState, tickets: list[int], at_setup: bool) -> list[int]:
        if not self.rule.removes(at_setup):
            return tickets
        state.tickets_out.extend(tickets)
        return []


class RemovedTickets(Mechanic[RemovedTicketsRule], Invariants[RemovedTicketsRule], Sampled):
    name = "removed_tickets"
    order = 50
    title = "returned tickets removed from the game"
    sample = Sample(("returned setup removed",))
    rule = RemovedTicketsRule
    state_fields = (
        Field("tickets_out", "tickets returned that left the game, in the order returned", owner="removed_tickets",
              cap="TICKET_CAP", high="N_TICKETS-1", view=hidden(), pile=TICKETS),
    )
    reference = RemovedTicketsReference

    def check(self, ctx) -> RemovedTicketsRule | None:
        draws = ctx.turn.returned["tickets"] == REMOVED
        setup = ctx.turn.returned["setup"] == REMOVED
        if not (draws or setup):
            return None
        span = next((r.span for r in ctx.many(ast.Returned) if r.place == REMOVED and r.deck in ("tickets", "setup")),
                    None)
        return RemovedTicketsRule(draws=draws, setup=setup, span=span)

    def tables(self, variant, rule: RemovedTicketsRule) -> Tables:
        return Tables(constants=[("REMOVE_SETUP_RETURNS", int(rule.setup)),
                                 ("REMOVE_DRAW_RETURNS", int(rule.draws))])

    def state_problems(self, variant, rule: RemovedTicketsRule, state: dict) -> list[str]:
        return []
