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

from ...compiler import ir
from ...compiler.base import limits
from ...compiler.base.errors import Span
from ...compiler.base.schema import Field
from ...compiler.lang import ast
from ...compiler.mechanic import Mechanic, Tables

DRAW_FERRY = "draw_ferry"


@dataclass(frozen=True)
class FerryCardsRule(ir.Rule):
    mechanic: ClassVar[str] = "ferry_cards"
    cards: int       # ferry cards in the game
    hand_limit: int  # the most a player may hold
    spent: str       # where ferry cards go once spent: "return" (to the ferry pile) or "removed"
    span: Span | None = field(default=None, compare=False)


class FerryCardsReference:
    """Ferry cards in plain Python: a count per player and a pile (the cards are alike)."""

    def __init__(self, rules, rule: FerryCardsRule):
        self.rules, self.rule = rules, rule
        self.draw = next(a.id for a in rules.variant.actions if a.kind == DRAW_FERRY)
        self.apply = {DRAW_FERRY: self.take}

    def turn_actions(self, state) -> list[int]:
        """Comprar 1 carta de Balsa: while the pile has one and the hand fewer than the limit."""
        if state.ferry_pile > 0 and state.ferry_cards[state.current] < self.rule.hand_limit:
            return [self.draw]
        return []

    def take(self, state, action) -> None:
        state.ferry_pile -= 1
        state.ferry_cards[state.current] += 1
        self.rules.end_turn(state, passed=False)

    def payment_ok(self, state, action, player: int) -> bool:
        return action.ferry_cards <= state.ferry_cards[player]

    def claim_pay(self, state, action) -> None:
        spent = action.ferry_cards
        state.ferry_cards[state.current] -= spent
        if self.rule.spent == "return":
            state.ferry_pile += spent
        else:
            state.ferry_removed += spent


class FerryCards(Mechanic):
    name = "ferry_cards"
    order = 80
    title = "ferry cards and wave spaces"
    rule = FerryCardsRule
    state_fields = (
        Field("ferry_cards", "each player's ferry cards (alike: a count, public)", owner="ferry_cards",
              per_player=True, high="FERRY_HAND_LIMIT"),
        Field("ferry_pile", "ferry cards not held", owner="ferry_cards", high="FERRY_CARDS",
              initial="FERRY_CARDS"),
        Field("ferry_removed", "ferry cards spent and out of the game ('ferry cards spent removed')",
              owner="ferry_cards", high="FERRY_CARDS"),
    )
    phases = ()
    kinds = (DRAW_FERRY,)
    agent_rules = {DRAW_FERRY: "ferry_draw"}
    hooks = frozenset({"definitions", "turn_actions", "apply", "claim_block", "claim_pay"})
    reference = FerryCardsReference
    score_items = ()
    tiebreaks = ()
    position_keys = ()
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
        cards = ctx.positive(stmt.count, "the number of ferry cards", most=limits.MAX_FERRY_CARDS)
        hand_limit = ctx.positive(stmt.hand_limit, "the ferry card hand limit")
        if cards and hand_limit > cards:
            ctx.errors.add(stmt.hand_limit.span, f"a ferry card hand limit of {hand_limit}, but the game has {cards} "
                                                 f"ferry cards")
        return FerryCardsRule(cards=cards, hand_limit=hand_limit,
                              spent=spent.place if spent else "return", span=stmt.span)

    def actions(self, variant, rule) -> list[dict]:
        return [dict(kind=DRAW_FERRY, name="draw ferry card")]

    def dimensions(self, variant, rule: FerryCardsRule) -> dict[str, int]:
        return {"FERRY_CARDS": rule.cards, "FERRY_HAND_LIMIT": rule.hand_limit}

    def tables(self, variant: ir.Variant, rule: FerryCardsRule) -> Tables:
        draw = next(a.id for a in variant.actions if a.kind == DRAW_FERRY)
        return Tables(constants=[("ACT_DRAW_FERRY", draw), ("FERRY_RETURN", int(rule.spent == "return"))],
                      arrays=[("T_ACT_FERRY", [a.ferry_cards for a in variant.actions])])

    def state_problems(self, variant, rule: FerryCardsRule, state: dict) -> list[str]:
        held = sum(state["ferry_cards"])
        if held + state["ferry_pile"] + state["ferry_removed"] != rule.cards:
            return [f"{held} ferry cards held, {state['ferry_pile']} in the pile and {state['ferry_removed']} "
                    f"out of the game: the game has {rule.cards}"]
        if rule.spent == "return" and state["ferry_removed"]:
            return ["ferry cards out of the game, but spent ferry cards return to the pile"]
        return []
