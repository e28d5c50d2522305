"""Returned tickets shuffled before they go under the ticket deck.

Italy rulebook, Preparação: the tickets players do not keep at set-up are shuffled and
placed under the deck. The spec says which returns are shuffled: ``returned tickets
shuffled bottom`` (after a ticket draw) and ``returned setup shuffled bottom`` (at
set-up; by default set-up returns go where draw returns go). The mechanic is present when
either is.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.rng import shuffle_in_state
from ...compiler.base.state_view import StateView
from ...compiler.hooks import MechanicReference
from ...compiler.mechanic import Mechanic, Sample, Sampled, Tables

SHUFFLED = "shuffled_bottom"


@dataclass(frozen=True)
class ShuffledReturnsRule(ir.Rule):
    mechanic: ClassVar[str] = "shuffled_returns"
    draws: bool  # tickets returned after a ticket draw are shuffled
    setup: bool  # tickets returned at set-up are shuffled


class ShuffledReturnsReference(MechanicReference[StateView, ShuffledReturnsRule]):
    def returned_tickets(self, state: StateView, tickets: list[int], at_setup: bool) -> list[int]:
        if self.rule.setup if at_setup else self.rule.draws:
            shuffle_in_state(state, tickets)
        return tickets


class ShuffledReturns(Mechanic[ShuffledReturnsRule], Sampled):
    name = "shuffled_returns"
    order = 30
    title = "returned tickets shuffled under the deck"
    sample = Sample(("returned tickets shuffled bottom",))
    rule = ShuffledReturnsRule
    reference = ShuffledReturnsReference

    def check(self, ctx) -> ShuffledReturnsRule | None:
        draws = ctx.turn.returned["tickets"] == SHUFFLED
        setup = ctx.turn.returned["setup"] == SHUFFLED
        return ShuffledReturnsRule(draws=draws, setup=setup) if draws or setup else None

    def tables(self, variant, rule: ShuffledReturnsRule) -> Tables:
        return Tables(constants=[("SHUFFLE_DRAW_RETURNS", int(rule.draws)),
                                 ("SHUFFLE_SETUP_RETURNS", int(rule.setup))])

