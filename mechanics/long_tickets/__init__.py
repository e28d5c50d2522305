"""Long tickets: a second ticket deck, dealt at set-up only (Europe).

Europe rulebook, Preparazione del gioco: each player is dealt one long ticket with the
regular ones; the long tickets not dealt go back in the box, and so do those not kept.
The spec declares them with ``ticket long A - B N``, deals them with ``deal tickets N long
L keep K`` and says where long tickets not kept go with ``returned long PLACE``:
``removed`` (back in the box with those never dealt, the default) or ``bottom`` (with the
regular tickets returned beside them, wherever ``returned setup`` / ``returned tickets``
send those). The mechanic's ``grammar.lark`` adds the deck ``long`` to the core's ticket
forms, deal parts and returned decks; a ticket of the deck has ``deck == "long"``.

The box is the field ``long_deck``: shuffled at set-up (after the regular deck), dealt
from its front, after the player's regular tickets (so the long ones take the last offer
slots), and never drawn from during play.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.rng import shuffle_in_state
from ...compiler.base.schema import TICKETS, Field, hidden
from ...compiler.hooks import MechanicReference, Services
from ...compiler.lang import ast
from ...compiler.mechanic import Invariants, Mechanic, Tables
from .state_view import LongTicketsState
from .syntax import DECK, LongDeal, LongTicket

REMOVED = "removed"


@dataclass(frozen=True)
class LongTicketsRule(ir.Rule):
    mechanic: ClassVar[str] = "long_tickets"
    deal: int       # long tickets dealt to each player at set-up
    returned: str   # where long tickets not kept go: "removed" (back in the box) or "bottom"
    span: Span | None = field(default=None, compare=False)


class LongTicketsReference(MechanicReference[LongTicketsState, LongTicketsRule]):
    """The long deck in plain Python."""

    def __init__(self, rules: Services, rule: LongTicketsRule):
        super().__init__(rules, rule)
        self.long = [t.id for t in rules.variant.tickets if t.deck == DECK]
        self.is_long = {t.id: t.deck == DECK for t in rules.variant.tickets}

    def setup_piles(self, state: LongTicketsState) -> None:
        state.long_deck = list(self.long)
        shuffle_in_state(state, state.long_deck)

    def setup_offer(self, state: LongTicketsState, player: int) -> None:
        count = min(self.rule.deal, len(state.long_deck))
        state.setup_offer[player].extend(state.long_deck[:count])
        del state.long_deck[:count]

    def returned_tickets(self, state: LongTicketsState, tickets: list[int], at_setup: bool) -> list[int]:
        if self.rule.returned != REMOVED:
            return tickets
        state.long_deck.extend(t for t in tickets if self.is_long[t])
        return [t for t in tickets if not self.is_long[t]]


class LongTickets(Mechanic[LongTicketsRule], Invariants[LongTicketsRule]):
    name = "long_tickets"
    order = 40
    title = "long tickets"
    rule = LongTicketsRule
    state_fields = (
        Field("long_deck", "long tickets in the box: those not dealt, and those returned when 'returned long "
                           "removed'; the first entry is the next dealt", owner="long_tickets", cap="LONG_CAP",
              high="N_TICKETS-1", view=hidden(), pile=TICKETS),
    )
    reference = LongTicketsReference
    statements = (LongTicket, LongDeal)

    def check(self, ctx) -> LongTicketsRule | None:
        """The long deck must be able to deal ``long`` tickets to each player."""
        long_statements = [t for t in ctx.many(ast.Ticket) if t.deck == DECK]
        deal = ctx.one(ast.Deal)
        players, dealt = ctx.players, ctx.dealt(DECK)
        if deal:
            if dealt and not long_statements:
                ctx.errors.add(deal.span, "long tickets are dealt but no 'ticket long' is declared")
            elif players.ok and len(long_statements) < dealt * players.high:
                ctx.errors.add(deal.span, f"{len(long_statements)} long tickets cannot deal {dealt} to "
                                          f"each of {players.high} players")
        returned = ctx.turn.returned.get(DECK, REMOVED)
        if returned not in (REMOVED, "bottom"):
            stmt = next(r for r in ctx.many(ast.Returned) if r.deck == DECK)
            ctx.errors.add(stmt.span, "long tickets not kept go back in the box ('returned long removed') or "
                                      "with the other tickets returned ('returned long bottom')")
        if not dealt and not long_statements:
            return None
        if long_statements and not dealt:
            ctx.warn(long_statements[0].span, "long tickets are declared but never dealt: add 'long L' to "
                                              "'deal tickets'")
        span = long_statements[0].span if long_statements else deal.span
        return LongTicketsRule(deal=dealt, returned=returned, span=span)

    def dimensions(self, variant, rule) -> dict[str, int]:
        return {"LONG_CAP": max(1, sum(1 for t in variant.tickets if t.deck == DECK))}

    def tables(self, variant: ir.Variant, rule: LongTicketsRule) -> Tables:
        long = [t.id for t in variant.tickets if t.deck == DECK]
        return Tables(constants=[("N_LONG", len(long)), ("DEAL_LONG", rule.deal),
                                 ("LONG_RETURN_REMOVED", int(rule.returned == REMOVED))],
                      arrays=[("T_LONG_TICKETS", long or [0]),
                              ("T_TICKET_LONG", [int(t.deck == DECK) for t in variant.tickets] or [0])])

    def state_problems(self, variant, rule: LongTicketsRule, state: dict) -> list[str]:
        """The box holds long tickets only; no long ticket is in the regular deck unless
        returned long tickets join the others; a set-up offer has at most ``deal`` long ones."""
        long = {t.id for t in variant.tickets if t.deck == DECK}
        problems = []
        if any(t not in long for t in state["long_deck"]):
            problems.append("a regular ticket is in the long deck")
        if rule.returned == REMOVED and any(t in long for t in state["ticket_deck"] + state["offer"]):
            problems.append("a long ticket is in the ticket deck, but long tickets are never returned to it")
        for player, offer in enumerate(state["setup_offer"]):
            if sum(1 for t in offer if t in long) > rule.deal:
                problems.append(f"player {player} is offered more than {rule.deal} long tickets")
        return problems
