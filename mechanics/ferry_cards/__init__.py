"""Ferry cards and wave spaces (Italy).

Italy rulebook, Comprar 1 carta de Balsa and Controlar uma Rota: an action takes one
ferry card (a player holds at most the limit); on a ferry route each space with a wave
is paid by a locomotive, or by ferry cards, one ferry card covering up to two wave
spaces; ferry cards pay nothing else. Written ``ferry cards N max M``, ``action draw
ferry card`` and the route attribute ``waves N``. The rulebook does not say where spent
ferry cards go: ``ferry cards spent return`` (back to the ferry pile, the default) or
``ferry cards spent removed`` (out of the game).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ast, ir
from ...errors import Span
from .. import Mechanic

DRAW_FERRY = "draw_ferry"


@dataclass(frozen=True)
class FerryCardsRule(ir.Rule):
    mechanic: ClassVar[str] = "ferry_cards"
    cards: int       # ferry cards in the game
    hand_limit: int  # the most a player may hold
    spent: str       # where ferry cards go once spent: "return" (to the ferry pile) or "removed"
    span: Span | None = field(default=None, compare=False)


class FerryCards(Mechanic):
    name = "ferry_cards"
    title = "ferry cards and wave spaces"
    implemented = False
    rule = FerryCardsRule

    def check(self, ctx) -> FerryCardsRule | None:
        stmt = ctx.one(ast.FerryCards)
        action = ctx.action("draw_ferry_card")
        if action and not stmt:
            ctx.errors.add(action.span, "'action draw ferry card' needs a 'ferry cards N max M' statement")
        if stmt and not action:
            ctx.errors.add(stmt.span, "ferry cards are declared but no 'action draw ferry card' draws them")
        for route, length in ctx.board.attributed:
            ferry = route.ferry.value if route.ferry else 0
            waves = route.waves.value if route.waves else 0
            if route.waves and not 0 < waves <= length:
                ctx.errors.add(route.waves.span, f"a route of length {length} cannot have {waves} wave spaces")
            elif route.ferry and route.waves and 0 < ferry <= length and ferry + waves > length:
                ctx.errors.add(route.waves.span, f"a route of length {length} cannot have {ferry} ferry "
                                                 f"locomotives and {waves} wave spaces")
            if route.waves and not stmt:
                ctx.errors.add(route.waves.span, "wave spaces need ferry cards: add 'ferry cards N max M'")
        spent = ctx.one(ast.FerrySpent)
        if spent and not stmt:
            ctx.errors.add(spent.span, "'ferry cards spent' needs ferry cards: add 'ferry cards N max M'")
        if not stmt:
            return None
        return FerryCardsRule(cards=ctx.positive(stmt.count, "the number of ferry cards"),
                              hand_limit=ctx.positive(stmt.hand_limit, "the ferry card hand limit"),
                              spent=spent.place if spent else "return", span=stmt.span)

    def actions(self, variant, rule) -> list[dict]:
        return [dict(kind=DRAW_FERRY, name="draw ferry card")]
