"""Ferry cards and wave spaces (Italy).

Italy rulebook, Comprar 1 carta de Balsa and Controlar uma Rota: an action takes one
ferry card (a player holds at most the limit); on a ferry route each space with a wave
is paid by a locomotive, or by ferry cards, one ferry card covering up to two wave
spaces; ferry cards pay nothing else. Written ``ferry cards N max M``, ``action draw
ferry card`` and the route attribute ``waves N`` (``syntax.py``, ``grammar.lark``). The
rulebook does not say where spent ferry cards go: ``ferry cards spent return`` (back to
the ferry pile, the default) or ``ferry cards spent removed`` (out of the game).

Ferry cards are a payment column of claims (``ferry_cards``, written ``+1ferry`` in action
names): a route with wave spaces has one payment block per number of ferry cards it may
take (:meth:`FerryCards.payment_shapes`), and a block is open to a player who holds that
many (the ``payment_ok`` hook, per block in both engines). A shared claim (of a route
another player owns, in a variant with shared claims) is paid the same way, and spends the
ferry cards committed to it as any claim does (``after_shared_claim``, docs/rules.md #88).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from ...compiler import ir
from ...compiler.assembly import assemble
from ...compiler.base.errors import Span
from ...compiler.base.limits import MAX_PILE, Limit
from ...compiler.base.schema import Field
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import (
    AgentPlay,
    AgentRules,
    Drawing,
    Invariants,
    Looks,
    Mechanic,
    Payments,
    Sample,
    Sampled,
    Tables,
)
from .state_view import FerryCardsState
from .syntax import DrawFerryCard, FerrySpent, WavesAttr
from .syntax import FerryCards as FerryCardsStmt

DRAW_FERRY = "draw_ferry"
#: The field of ferry cards paid towards a claim held pending.
COMMITTED = "ferry_committed"


def claims_held(variant: ir.Variant) -> bool:
    """Whether a mechanic of the variant may hold a claim pending (it fills
    ``before_claim_completes``): then ferry cards paid towards a claim wait in
    ``ferry_committed`` until the claim completes or is given up."""
    return any("before_claim_completes" in m.filled_hooks() for m, _ in variant.present())
#: The payment column of ferry cards.
FERRY_COLUMN = ir.PaymentColumn("ferry_cards", "ferry_cards", "ferry")


@dataclass(frozen=True)
class FerryCardsRule(ir.Rule):
    mechanic: ClassVar[str] = "ferry_cards"
    cards: int       # ferry cards in the game
    hand_limit: int  # the most a player may hold
    spent: str       # where ferry cards go once spent: "return" (to the ferry pile) or "removed"
    waves: tuple[tuple[int, int], ...] = ()  # (route id, wave spaces), each route with waves
    span: Span | None = field(default=None, compare=False)

    def wave_spaces(self, route: int) -> int:
        return dict(self.waves).get(route, 0)


class FerryCardsReference(MechanicReference[FerryCardsState, FerryCardsRule]):
    """Ferry cards in plain Python: a count per player and a pile (the cards are alike)."""

    def __init__(self, rules: Services, rule: FerryCardsRule):
        super().__init__(rules, rule)
        self.draw = next(a.id for a in rules.variant.actions if a.kind == DRAW_FERRY)
        self.held = claims_held(rules.variant)

    def turn_actions(self, state: FerryCardsState) -> list[int]:
        """Comprar 1 carta de Balsa: while the pile has one and the hand fewer than the limit."""
        if state.ferry_pile > 0 and state.ferry_cards[state.current] < self.rule.hand_limit:
            return [self.draw]
        return []

    def apply(self, state: FerryCardsState, action: ir.Action) -> None:
        """Comprar 1 carta de Balsa: the whole turn."""
        state.ferry_pile -= 1
        state.ferry_cards[state.current] += 1
        self.rules.end_turn(state, passed=False)

    def payment_ok(self, state: FerryCardsState, block: ir.PaymentBlock, player: int) -> bool:
        """A payment block paying ferry cards is open to a player holding that many."""
        return self.rules.variant.paid_by_block(block, FERRY_COLUMN.name) <= state.ferry_cards[player]

    def claim_pay(self, state: FerryCardsState, action: ir.Action) -> None:
        """The claim's ferry cards leave the hand: spent at once, or, where a mechanic may
        hold the claim, committed until it completes or is given up."""
        spent = self.rules.variant.paid(action, FERRY_COLUMN.name)
        state.ferry_cards[state.current] -= spent
        if self.held:
            state.ferry_committed += spent
        else:
            self.spend(state, spent)

    def spend(self, state: FerryCardsState, spent: int) -> None:
        """Spent ferry cards go back to the pile, or out of the game ('ferry cards spent')."""
        if self.rule.spent == "return":
            state.ferry_pile += spent
        else:
            state.ferry_removed += spent

    def after_claim(self, state: FerryCardsState, route: ir.Route, player: int) -> None:
        """The claim completed: the ferry cards committed to it are spent."""
        if self.held and state.ferry_committed:
            self.spend(state, state.ferry_committed)
            state.ferry_committed = 0

    def after_nobody_claim(self, state: FerryCardsState, route: ir.Route, player: int) -> None:
        """The claim completed, taking its route for no player (a mechanic's
        takes_for_nobody): the ferry cards committed to it are spent all the same."""
        self.after_claim(state, route, player)

    def after_shared_claim(self, state: FerryCardsState, route: ir.Route, player: int) -> None:
        """The claim completed as a shared claim (of a route another player owns): the ferry
        cards committed to it are spent as for any claim (docs/rules.md #88)."""
        self.after_claim(state, route, player)

    def claim_withdrawn(self, state: FerryCardsState, route: ir.Route, player: int) -> None:
        """The claim was given up: the ferry cards committed to it go back to the hand."""
        if self.held:
            state.ferry_cards[player] += state.ferry_committed
            state.ferry_committed = 0


class FerryCards(Mechanic[FerryCardsRule], Payments[FerryCardsRule], Invariants[FerryCardsRule],
                 AgentRules[FerryCardsRule], Drawing[FerryCardsRule], Sampled):
    name = "ferry_cards"
    order = 80
    title = "ferry cards and wave spaces"
    sample = Sample(("ferry cards 10 max 2", "action draw ferry card"), route=" waves 1")
    rule = FerryCardsRule
    state_fields = (
        Field("ferry_cards", "each player's ferry cards (alike: a count, public)", owner="ferry_cards",
              per_player=True, high="FERRY_HAND_LIMIT"),
        Field("ferry_pile", "ferry cards not held", owner="ferry_cards", high="FERRY_CARDS",
              initial="FERRY_CARDS"),
        Field("ferry_removed", "ferry cards spent and out of the game ('ferry cards spent removed')",
              owner="ferry_cards", high="FERRY_CARDS"),
        Field(COMMITTED, "ferry cards paid towards a claim another mechanic holds (a tunnel's): out of the hand, "
              "spent when the claim completes, back in the hand when it is given up (only in variants where "
              "a mechanic may hold a claim)", owner="ferry_cards", high="FERRY_HAND_LIMIT"),
    )
    kinds = (DRAW_FERRY,)
    reference = FerryCardsReference
    statements = (FerryCardsStmt, FerrySpent, DrawFerryCard, WavesAttr)
    payment_columns = (FERRY_COLUMN,)
    limits = (Limit("ferry cards N max M", f"1 ≤ M ≤ N ≤ {MAX_PILE:,}", "the size of a pile"),)

    def check(self, ctx) -> FerryCardsRule | None:
        stmt = ctx.one(FerryCardsStmt)
        action = ctx.action("draw_ferry_card")
        if action and not stmt:
            ctx.errors.add(action.span, "'action draw ferry card' needs a 'ferry cards N max M' statement")
        if stmt and not action:
            ctx.errors.add(stmt.span, "ferry cards are declared but no 'action draw ferry card' draws them")
        for route, length in ctx.board.attributed:
            waves = route.attr(WavesAttr.name)
            if waves is not None and not 0 < waves.value.value <= length:
                ctx.errors.add(waves.value_span, f"a route of length {length} cannot have {waves.value.value} wave "
                                                 f"spaces")
            if waves is not None and not stmt:
                ctx.errors.add(waves.value_span, "wave spaces need ferry cards: add 'ferry cards N max M'")
        spent = ctx.one(FerrySpent)
        if spent and not stmt:
            ctx.errors.add(spent.span, "'ferry cards spent' needs ferry cards: add 'ferry cards N max M'")
        if not stmt:
            return None
        cards = ctx.positive(stmt.count, "the number of ferry cards", most=MAX_PILE)
        hand_limit = ctx.positive(stmt.hand_limit, "the ferry card hand limit")
        if cards and hand_limit > cards:
            ctx.errors.add(stmt.hand_limit.span, f"a ferry card hand limit of {hand_limit}, but the game has {cards} "
                                                 f"ferry cards")
        waves = tuple((route.id, attr.value.value) for route, attr in ctx.routes_with(WavesAttr.name)
                      if 0 < attr.value.value <= route.length)
        return FerryCardsRule(cards=cards, hand_limit=hand_limit, spent=spent.place if spent else "return",
                              waves=waves, span=stmt.span)

    def payment_shapes(self, variant, rule: FerryCardsRule, route, shapes):
        """Controlar uma Rota: each wave space is paid by a locomotive, or by ferry cards, one
        covering up to two wave spaces: a block for each number of ferry cards, 0 first."""
        waves = rule.wave_spaces(route.id)
        if not waves:
            return shapes
        return [replace(s, base_locomotives=s.base_locomotives + max(0, waves - 2 * ferry), plain=s.plain - waves,
                        paid=s.paid + ((FERRY_COLUMN.name, ferry),))
                for s in shapes for ferry in range((waves + 1) // 2 + 1)]

    def actions(self, variant, rule) -> list[dict]:
        return [dict(kind=DRAW_FERRY, name="draw ferry card")]

    def looks(self, variant, rule: FerryCardsRule) -> Looks:
        """A route with wave spaces: F and their number."""
        return Looks(badges={route: f"F{n}" for route, n in rule.waves},
                     legend={"badges": "F and a number: wave spaces; each takes a locomotive, "
                                       "or a ferry card covers two"})

    def agent_play(self, variant, rule) -> AgentPlay:
        """A ferry card is drawn for a wanted route that takes ferry cards."""
        return AgentPlay(rules={DRAW_FERRY: "payment_draw"})

    def dimensions(self, variant, rule: FerryCardsRule) -> dict[str, int]:
        return {"FERRY_CARDS": rule.cards, "FERRY_HAND_LIMIT": rule.hand_limit}

    def tables(self, variant: ir.Variant, rule: FerryCardsRule) -> Tables:
        draw = next(a.id for a in variant.actions if a.kind == DRAW_FERRY)
        blocks = variant.claim_layout.blocks
        return Tables(constants=[("ACT_DRAW_FERRY", draw), ("FERRY_RETURN", int(rule.spent == "return"))],
                      context={"ferry_committed": claims_held(variant)},
                      arrays=[("T_ACT_FERRY", [variant.paid(a, FERRY_COLUMN.name) for a in variant.actions]),
                              ("T_BLOCK_FERRY", [variant.paid_by_block(b, FERRY_COLUMN.name) for b in blocks])])

    def variant_state_fields(self, variant, rule: FerryCardsRule) -> tuple[Field, ...]:
        """``ferry_committed`` only where a mechanic may hold a claim (:func:`claims_held`):
        the other variants' states are as they were before it existed."""
        return self.state_fields if claims_held(variant) else tuple(f for f in self.state_fields
                                                                    if f.name != COMMITTED)

    def state_problems(self, variant, rule: FerryCardsRule, state: dict) -> list[str]:
        held = sum(state["ferry_cards"])
        committed = state.get(COMMITTED, 0)
        if held + committed + state["ferry_pile"] + state["ferry_removed"] != rule.cards:
            return [f"{held} ferry cards held, {committed} committed to a claim, {state['ferry_pile']} in the pile "
                    f"and {state['ferry_removed']} out of the game: the game has {rule.cards}"]
        if rule.spent == "return" and state["ferry_removed"]:
            return ["ferry cards out of the game, but spent ferry cards return to the pile"]
        pending = [f.name for f in assemble(variant).fields if f.pending_claim and state[f.name] != -1]
        if committed and not pending:
            return [f"state field {COMMITTED!r}: {committed} ferry cards are committed, but no claim is under way"]
        mover = state["current"]
        if committed and committed + state["ferry_cards"][mover] > rule.hand_limit:
            return [f"state field {COMMITTED!r}: player {mover} holds {state['ferry_cards'][mover]} ferry cards and "
                    f"committed {committed}, more than the hand limit of {rule.hand_limit}"]
        return []
