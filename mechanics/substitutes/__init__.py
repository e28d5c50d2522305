"""Sets of any cards standing for one card (Nordic Countries).

Nordic Countries rules: on a ferry "you can always use any 3 cards in place of a
locomotive" (boardgames.stackexchange.com question 1849; thoun/tickettoride
nordiccountries/routes.php: ``canPayWithAnySetOfCards = 3`` on every ferry); on the
9-space Murmansk - Lieksa route "you may play any 4 cards (they do not have to match each
other) as a joker substituting for each card of your chosen color you do not have … You
may not play locomotives on this route, except as part of a set of 4" (Dan Blum's rule
summary, onedayofsilence.com; routes.php: ``canPayWithAnySetOfCards: 4``); on tunnels "you
may not use any 3 or 4 cards as a joker". Written ``substitute any N for a required
locomotive`` (every locomotive a route requires: a ferry's symbols) and the route attribute
``substitute any N`` (each card of the colour chosen for the route): ``syntax.py``,
``grammar.lark``.

The payments (docs/engine.md, "Sets of any cards"): the catalogue lays out, for every
route the sets may pay, one payment block per number of sets (:meth:`Substitutes.payment_shapes`):
the block paying ``j`` sets asks ``j`` fewer required locomotives (or ``j`` fewer cards of
the colour) and ``N × j`` cards of any kind, a payment column (``+3any`` in action names).
Which cards those are is not in the catalogue: listing every mix of card kinds would make
thousands of claims of one ferry. The claim takes its colour cards and locomotives, then
holds them (``substitute_held``) while the same player gives the any cards one at a time
(phase ``substitute``, ``substitute CARD``), in card-id order (never a kind below the last
one given, so each mix of cards is one sequence of decisions), a kind the hand holds and
above which enough cards remain; the last one completes the claim (every card held and
given to the discards, the market refilled, the route owned). A block is open to a player
who, after its colour cards and locomotives, holds its number of any cards.

The catalogue's size: a route with ``b`` required locomotives and the statement has ``b + 1``
blocks where it had one; a route with the attribute and ``p`` spaces paid by cards of
one colour has ``p + 1`` (Murmansk - Lieksa: 10 blocks, 73 claims); and one ``substitute``
action per card kind.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.limits import Limit
from ...compiler.base.schema import CARD_COUNTS, PH_TURN, Field
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
from .state_view import SubstitutesState
from .syntax import SubstituteAttr, SubstituteLocomotive

PH_SUBSTITUTE = "substitute"
SUBSTITUTE_CARD = "substitute_card"
#: The payment column of the cards of any kind a claim gives in sets.
COLUMN = ir.PaymentColumn("substitute_cards", "substitutes", "any")
#: The fewest and the most cards of one set: a set of one card would be a wild card.
SET_LEAST, SET_MOST = 2, 12
#: Route attributes on whose routes no set may pay: the Nordic rules' "You may not use any
#: 3 or 4 cards as a joker" on tunnels (whose claim is held for a decision of its own).
NO_SETS_ON = ("tunnel",)


@dataclass(frozen=True)
class SubstitutesRule(ir.Rule):
    mechanic: ClassVar[str] = "substitutes"
    locomotive: int                     # any N cards for each required locomotive (0: none)
    cards: tuple[tuple[int, int], ...]  # (route id, N): any N cards for each card of the colour
    excluded: tuple[int, ...] = ()      # routes no set may pay for (tunnels)
    span: Span | None = field(default=None, compare=False)

    def per_card(self, route: int) -> int:
        return dict(self.cards).get(route, 0)


def _with_amount(paid: tuple, amount: int) -> tuple:
    """A shape's payment columns with ``amount`` more any cards."""
    total = dict(paid).get(COLUMN.name, 0) + amount
    return tuple((name, n) for name, n in paid if name != COLUMN.name) + ((COLUMN.name, total),)


def floor_of(given: list[int]) -> int:
    """The lowest card id the next any card may be: the highest already given (0 for none)."""
    return max((card for card, n in enumerate(given) if n), default=0)


def giveable(hand: list[int], given: list[int], left: int) -> list[int]:
    """The card ids the next any card may be: from the floor up, held, and with at least
    ``left`` cards held of that id and above (so the rest can follow in order)."""
    out, above = [], 0
    suffix = [0] * (len(hand) + 1)
    for card in range(len(hand) - 1, -1, -1):
        above += hand[card]
        suffix[card] = above
    for card in range(floor_of(given), len(hand)):
        if hand[card] > 0 and suffix[card] >= left:
            out.append(card)
    return out


class SubstitutesReference(MechanicReference[SubstitutesState, SubstitutesRule]):
    """Sets of any cards in plain Python."""

    def __init__(self, rules: Services, rule: SubstitutesRule):
        super().__init__(rules, rule)
        self.loco = rules.loco
        self.variant = rules.variant
        self.ids = [a.id for a in rules.variant.actions if a.kind == SUBSTITUTE_CARD]  # by card id

    def payment_ok(self, state: SubstitutesState, block: ir.PaymentBlock, player: int) -> bool:
        """A block paying sets is open to a player holding its any cards besides its colour
        cards and locomotives."""
        amount = self.variant.paid_by_block(block, COLUMN.name)
        return not amount or sum(state.hands[player]) - block.plain - block.base_locomotives >= amount

    def before_claim_completes(self, state: SubstitutesState, action: ir.Action) -> bool:
        """A claim paying sets waits, holding its colour cards and locomotives, for its any cards."""
        amount = self.variant.paid(action, COLUMN.name)
        if not amount:
            return True
        if action.colour_cards:
            state.substitute_held[action.colour] += action.colour_cards
        state.substitute_held[self.loco] += action.locomotives
        state.substitute_route = action.route
        state.substitute_left = amount
        state.phase = PH_SUBSTITUTE
        return False

    def phase_legal(self, state: SubstitutesState) -> list[int]:
        hand = state.hands[state.current]
        return [self.ids[card] for card in giveable(hand, state.substitute_given, state.substitute_left)]

    def apply(self, state: SubstitutesState, action: ir.Action) -> None:
        """One any card given; the last completes the claim."""
        card = self.ids.index(action.id)
        player = state.current
        state.hands[player][card] -= 1
        state.substitute_given[card] += 1
        state.substitute_left -= 1
        if state.substitute_left:
            return
        for card in range(self.loco + 1):
            state.discard[card] += state.substitute_held[card] + state.substitute_given[card]
        state.substitute_held = [0] * (self.loco + 1)
        state.substitute_given = [0] * (self.loco + 1)
        self.rules.refill_market(state)
        route = self.variant.routes[state.substitute_route]
        state.substitute_route = -1
        state.phase = PH_TURN
        self.rules.complete_claim(state, route, player)
        if state.phase == PH_TURN:
            self.rules.end_turn(state, passed=False)


class Substitutes(Mechanic[SubstitutesRule], Payments[SubstitutesRule], Invariants[SubstitutesRule],
                  AgentRules[SubstitutesRule], Drawing[SubstitutesRule], Sampled):
    name = "substitutes"
    order = 200
    title = "sets of any cards standing for one card"
    sample = Sample(route=" substitute any 4")
    rule = SubstitutesRule
    state_fields = (
        Field("substitute_route", "the route whose claim waits for its any cards (-1: none)", owner="substitutes",
              low="-1", high="N_ROUTES-1", initial=-1, pending_claim=True, names="route"),
        Field("substitute_held", "the claim's colour cards and locomotives, a count per card: out of the hand, "
                                 "not yet discarded", owner="substitutes", size="N_CARDS", high="CARD_TOTAL",
              pile=CARD_COUNTS),
        Field("substitute_given", "the any cards given so far for that claim, a count per card",
              owner="substitutes", size="N_CARDS", high="CARD_TOTAL", pile=CARD_COUNTS),
        Field("substitute_left", "the any cards still to give for that claim", owner="substitutes",
              high="SUBSTITUTE_MOST"),
    )
    phases = (PH_SUBSTITUTE,)
    kinds = (SUBSTITUTE_CARD,)
    reference = SubstitutesReference
    statements = (SubstituteLocomotive, SubstituteAttr)
    payment_columns = (COLUMN,)
    limits = (Limit("substitute any N", f"{SET_LEAST} … {SET_MOST}",
                    "a set of one card would be a wild card; a claim's any cards are given one at a time"),)

    def check(self, ctx) -> SubstitutesRule | None:
        stmt = ctx.one(SubstituteLocomotive)
        locomotive = self._set_size(ctx, stmt.count) if stmt else 0
        cards = []
        for route, attr in ctx.routes_with(SubstituteAttr.name):
            size = self._set_size(ctx, attr.value)
            if size:
                cards.append((route.id, size))
        for route_stmt, _length in ctx.board.attributed:
            attr = route_stmt.attr(SubstituteAttr.name)
            blocked = [word for word in NO_SETS_ON if route_stmt.attr(word) is not None]
            if attr is not None and blocked:
                ctx.errors.add(attr.span, f"no set of any cards may pay for a {blocked[0]}")
        if not stmt and not cards:
            return None
        excluded = tuple(route.id for word in NO_SETS_ON for route, _attr in ctx.routes_with(word))
        return SubstitutesRule(locomotive=locomotive, cards=tuple(cards), excluded=excluded,
                               span=stmt.span if stmt else None)

    @staticmethod
    def _set_size(ctx, num) -> int:
        size = ctx.positive(num, "the cards of a set")
        if size and not SET_LEAST <= size <= SET_MOST:
            ctx.errors.add(num.span, f"a set has {SET_LEAST} to {SET_MOST} cards, got {size}")
            return 0
        return size

    def payment_shapes(self, variant, rule: SubstitutesRule, route, shapes):
        """A block per number of sets: ``j`` sets for required locomotives take ``j`` of them
        (the statement), ``k`` sets for the colour take ``k`` of its cards (the attribute).
        Where locomotives are wild and both apply to one route, a set for a colour card
        while a required locomotive is still paid by a locomotive is the same payment as a
        set for that locomotive with the locomotive on the colour space: those blocks are
        left out (``k`` sets only once every required locomotive is a set), so each payment
        is offered once."""
        per_card = rule.per_card(route.id)
        if route.id in rule.excluded:
            return shapes
        out = []
        for s in shapes:
            for j in range(s.base_locomotives + 1 if rule.locomotive else 1):
                for k in range(s.plain + 1 if per_card else 1):
                    if k and s.wild and rule.locomotive and j < s.base_locomotives:
                        continue  # offered by the block of j + 1, k - 1 sets
                    amount = j * rule.locomotive + k * per_card
                    out.append(replace(s, base_locomotives=s.base_locomotives - j, plain=s.plain - k,
                                       paid=_with_amount(s.paid, amount)) if amount else s)
        return out

    def actions(self, variant, rule) -> list[dict]:
        """One decision per card kind: the next any card given."""
        out = [dict(kind=SUBSTITUTE_CARD, name=f"substitute {c.name}", colour=c.id, colour_cards=1)
               for c in variant.colours]
        out.append(dict(kind=SUBSTITUTE_CARD, name="substitute loco", colour=ir.NO_COLOUR, locomotives=1))
        return out

    def dimensions(self, variant, rule) -> dict[str, int]:
        most = max((variant.paid_by_block(b, COLUMN.name) for b in variant.claim_layout.blocks), default=0)
        return {"SUBSTITUTE_MOST": max(1, most)}

    def tables(self, variant: ir.Variant, rule) -> Tables:
        blocks = variant.claim_layout.blocks
        first = next(a.id for a in variant.actions if a.kind == SUBSTITUTE_CARD)
        return Tables(constants=[("ACT_SUBSTITUTE_FIRST", first)],
                      arrays=[("T_ACT_SUBSTITUTE", [variant.paid(a, COLUMN.name) for a in variant.actions]),
                              ("T_BLOCK_SUBSTITUTE", [variant.paid_by_block(b, COLUMN.name) for b in blocks]),
                              ("T_BLOCK_CARDS_PAID", [b.plain + b.base_locomotives for b in blocks])])

    def agent_play(self, variant, rule) -> AgentPlay:
        """The any cards: the fewest locomotives, then the colour held most."""
        return AgentPlay(rules={SUBSTITUTE_CARD: "pay"})

    def looks(self, variant, rule: SubstitutesRule) -> Looks:
        """A route whose colour cards sets may replace: 'any' and the set's size."""
        if not rule.cards:
            return Looks()
        return Looks(badges={route: f"any{n}" for route, n in rule.cards},
                     legend={"badges": "any and a number: that many cards of any kind may stand for each card "
                                       "of the route's colour"})

    def state_problems(self, variant, rule: SubstitutesRule, state: dict) -> list[str]:
        """A claim waits for its any cards exactly in the phase ``substitute``: on a route
        the sets may pay, holding one of its payments' colour cards and locomotives, with
        some any cards still due (their number and those given being that payment's) and a
        hand that can give them in order; nothing is held or given otherwise."""
        route_id, held, given, left = (state["substitute_route"], state["substitute_held"],
                                       state["substitute_given"], state["substitute_left"])
        pending = state["phase"] == PH_SUBSTITUTE
        if (route_id != -1) != pending:
            return [f"state field 'substitute_route': {route_id} in phase {state['phase']!r}, but a claim waits for "
                    f"its any cards (not -1) exactly in the phase {PH_SUBSTITUTE!r}"]
        if not pending:
            problems = []
            if any(held) or any(given):
                problems.append("state field 'substitute_held': cards are held for a claim while none waits for "
                                "its any cards")
            if left:
                problems.append(f"state field 'substitute_left': {left} any cards due while no claim waits for them")
            return problems
        route = variant.routes[route_id]
        loco = len(variant.colours)
        if left < 1:
            return [f"state field 'substitute_left': the claim of {route.name} waits for no any card"]
        colours = [card for card in range(loco) if held[card]]
        matches = [a for a in variant.actions if a.kind == ir.CLAIM and a.route == route_id
                   and variant.paid(a, COLUMN.name) == sum(given) + left and a.locomotives == held[loco]
                   and len(colours) <= 1 and a.colour_cards == (held[colours[0]] if colours else 0)
                   and (not colours or a.colour == colours[0])]
        if not matches:
            return [f"state field 'substitute_held': the cards held and given for {route.name} are not one of its "
                    f"payments"]
        hand = state["hands"][state["current"]]
        if not giveable(hand, given, left):
            return [f"state field 'substitute_left': player {state['current']} cannot give the {left} any cards "
                    f"still due for {route.name} in card order"]
        return []
