"""Sets of cards standing for one card (Nordic Countries, Northern Lights).

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

Sets of one colour (Northern Lights): "To claim a ferry route, a player must play: a
locomotive card OR a pair of train cards of the same color for each locomotive symbol on
the route, in addition to a set of train cards of any one color for the remaining spaces"
(thoun/tickettoride northernlights/map.php, rulesDifferences; spellengek.nl: "twee kaarten
van dezelfde kleur"). Written ``substitute N of one colour for a required locomotive``. The
blocks are laid out as for any cards, their amount in the payment column
``substitute_matched`` (``+2same``: the cards the sets take, N each). A set's colour is any
colour, the route's chosen colour included (the adaptation's own checks accept
``RED RED BLUE BLUE`` and ``RED RED RED RED`` for a red claim of a 3-space ferry with one
symbol, and two pairs of different colours for two symbols); locomotives are never in a
set (one locomotive pays a symbol alone). Whether the hand can make the sets depends on the
colour the claim pays its spaces with, so each claim is tested (the ``claim_payable``
hook): after its colour cards, the hand must hold that many sets. The claim then holds its
colour cards and locomotives, and the same player gives the sets one decision at a time
(``substitute set COLOUR``, N cards of it), never a colour below the one before. A spec has
either kind of set for a required locomotive, and sets of one colour do not go with the
route attribute (one claim would then owe two kinds of sets).
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
    Caches,
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
from .syntax import SubstituteAttr, SubstituteLocomotive, SubstituteMatching

PH_SUBSTITUTE = "substitute"
SUBSTITUTE_CARD = "substitute_card"
SUBSTITUTE_SET = "substitute_set"
#: The payment column of the cards of any kind a claim gives in sets.
COLUMN = ir.PaymentColumn("substitute_cards", "substitutes", "any")
#: The payment column of the cards a claim gives in sets of one colour.
MATCHED = ir.PaymentColumn("substitute_matched", "substitutes", "same")
#: The compiled engine's cache of each hand's sets of one colour (derived fields).
SETS_AT, SETS = "substitute_sets_at", "substitute_sets"
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
    # the locomotive's sets are of one colour (left out of the spec hash while False)
    matching: bool = field(default=False, metadata={ir.OMIT_AT_DEFAULT: True})

    def per_card(self, route: int) -> int:
        return dict(self.cards).get(route, 0)

    @property
    def column(self) -> ir.PaymentColumn:
        """The payment column its sets are paid in."""
        return MATCHED if self.matching else COLUMN


def _with_amount(paid: tuple, amount: int, column: str) -> tuple:
    """A shape's payment columns with ``amount`` more cards in ``column``."""
    total = dict(paid).get(column, 0) + amount
    return tuple((name, n) for name, n in paid if name != column) + ((column, total),)


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


def sets_from(hand: list[int], size: int, first: int = 0) -> int:
    """The sets of ``size`` cards of one colour the hand makes from colour ``first`` up
    (locomotives, the last card id, are in none)."""
    return sum(n // size for n in hand[first:-1])


def claim_sets(hand: list[int], size: int, colour: int, cards: int) -> int:
    """The sets of one colour the hand makes once a claim's ``cards`` of ``colour`` left it."""
    return sets_from(hand, size) - hand[colour] // size + (hand[colour] - cards) // size \
        if 0 <= colour < len(hand) - 1 else sets_from(hand, size)


def set_colours(hand: list[int], given: list[int], left: int, size: int) -> list[int]:
    """The colours the next set of one colour may be: from the floor up, with ``size``
    cards held, and leaving enough sets of that colour and above for the rest."""
    out = []
    for colour in range(floor_of(given), len(hand) - 1):
        if hand[colour] >= size and sets_from(hand, size, colour) * size >= left:
            out.append(colour)
    return out


class SubstitutesReference(MechanicReference[SubstitutesState, SubstitutesRule]):
    """Sets of any cards in plain Python."""

    def __init__(self, rules: Services, rule: SubstitutesRule):
        super().__init__(rules, rule)
        self.loco = rules.loco
        self.variant = rules.variant
        self.ids = [a.id for a in rules.variant.actions if a.kind == SUBSTITUTE_CARD]  # by card id
        self.set_ids = [a.id for a in rules.variant.actions if a.kind == SUBSTITUTE_SET]  # by colour id
        self.column = rule.column.name
        self.size = rule.locomotive

    def payment_ok(self, state: SubstitutesState, block: ir.PaymentBlock, player: int) -> bool:
        """A block paying any cards is open to a player holding them besides its colour
        cards and locomotives; one paying sets of one colour, to a hand making that many
        (which of its claims, claim_payable says)."""
        amount = self.variant.paid_by_block(block, self.column)
        if not amount:
            return True
        if self.rule.matching:
            return sets_from(state.hands[player], self.size) * self.size >= amount
        return sum(state.hands[player]) - block.plain - block.base_locomotives >= amount

    def claim_payable(self, state: SubstitutesState, action: ir.Action, player: int) -> bool:
        """A claim paying sets of one colour: the hand still makes them without its colour cards."""
        amount = self.variant.paid(action, self.column)
        if not amount or not self.rule.matching:
            return True
        colour = action.colour if action.colour_cards else -1
        return claim_sets(state.hands[player], self.size, colour, action.colour_cards) * self.size >= amount

    def before_claim_completes(self, state: SubstitutesState, action: ir.Action) -> bool:
        """A claim paying sets waits, holding its colour cards and locomotives, for its sets."""
        amount = self.variant.paid(action, self.column)
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
        if self.rule.matching:
            return [self.set_ids[colour] for colour in set_colours(hand, state.substitute_given,
                                                                    state.substitute_left, self.size)]
        return [self.ids[card] for card in giveable(hand, state.substitute_given, state.substitute_left)]

    def apply(self, state: SubstitutesState, action: ir.Action) -> None:
        """One any card, or one set of one colour, given; the last completes the claim."""
        if self.rule.matching:
            card, count = self.set_ids.index(action.id), self.size
        else:
            card, count = self.ids.index(action.id), 1
        player = state.current
        state.hands[player][card] -= count
        state.substitute_given[card] += count
        state.substitute_left -= count
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


class Substitutes(Mechanic[SubstitutesRule], Payments[SubstitutesRule], Caches,
                  Invariants[SubstitutesRule], AgentRules[SubstitutesRule], Drawing[SubstitutesRule], Sampled):
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
        # the compiled engine's count of sets of one colour in each hand, once a decision (only
        # with sets of one colour: variant_state_fields): the legal claims ask it of every block
        # and every claim paying sets, and counting the hand each time was a third of a random
        # game's time; an action moves `decisions` on, and a state loaded or a world drawn is
        # derived, so a count made at another decision is simply made again
        Field(SETS_AT, "the decision (plus 1) at which substitute_sets counted each hand; 0: not counted",
              owner="substitutes", per_player=True, high="1000000001", derived=True),
        Field(SETS, "the sets of one colour the player's hand made at that decision", owner="substitutes",
              per_player=True, high="CARD_TOTAL", derived=True),
    )
    # with sets of one colour, a turn's candidate routes lose those the hand cannot pay (by
    # its count of sets, a derived field): a third of the turns' routes were ferries looked at
    # for nothing (the compiled engine's alone; the reference asks every route)
    upkeep_hooks = ("claim_routes",)
    phases = (PH_SUBSTITUTE,)
    kinds = (SUBSTITUTE_CARD, SUBSTITUTE_SET)
    reference = SubstitutesReference
    statements = (SubstituteLocomotive, SubstituteMatching, SubstituteAttr)
    payment_columns = (COLUMN, MATCHED)
    limits = (Limit("substitute any N", f"{SET_LEAST} … {SET_MOST}",
                    "a set of one card would be a wild card; a claim's any cards are given one at a time"),
              Limit("substitute N of one colour", f"{SET_LEAST} … {SET_MOST}",
                    "a claim's sets are given one at a time, a set of N cards of one colour each"))

    def used_columns(self, rule: SubstitutesRule) -> tuple[ir.PaymentColumn, ...]:
        """One column: the any cards, or the cards of sets of one colour."""
        return (rule.column,)

    def check(self, ctx) -> SubstitutesRule | None:
        stmt = ctx.one(SubstituteLocomotive)
        matching = ctx.one(SubstituteMatching)
        if stmt and matching:
            ctx.errors.add(matching.span, "a required locomotive takes sets of any cards or sets of one colour, "
                                          "not both: keep one 'substitute' statement")
        stmt = stmt or matching
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
        if matching and cards:
            first = next(attr for _route, attr in ctx.routes_with(SubstituteAttr.name))
            ctx.errors.add(first.span, "sets of any cards for a route's colour do not go with sets of one colour "
                                       "for a required locomotive (one claim would owe both)")
        if not stmt and not cards:
            return None
        excluded = tuple(route.id for word in NO_SETS_ON for route, _attr in ctx.routes_with(word))
        return SubstitutesRule(locomotive=locomotive, cards=tuple(cards), excluded=excluded,
                               span=stmt.span if stmt else None, matching=matching is not None)

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
                                       paid=_with_amount(s.paid, amount, rule.column.name)) if amount else s)
        return out

    def actions(self, variant, rule: SubstitutesRule) -> list[dict]:
        """One decision per card kind: the next any card given; or, for sets of one
        colour, one per colour: the next set."""
        if rule.matching:
            return [dict(kind=SUBSTITUTE_SET, name=f"substitute set {c.name}", colour=c.id,
                         colour_cards=rule.locomotive) for c in variant.colours]
        out = [dict(kind=SUBSTITUTE_CARD, name=f"substitute {c.name}", colour=c.id, colour_cards=1)
               for c in variant.colours]
        out.append(dict(kind=SUBSTITUTE_CARD, name="substitute loco", colour=ir.NO_COLOUR, locomotives=1))
        return out

    def variant_state_fields(self, variant, rule: SubstitutesRule) -> tuple[Field, ...]:
        """The count of sets of one colour in each hand only where sets are of one colour: the
        other variants' states are as they were before it existed."""
        return self.state_fields if rule.matching else tuple(f for f in self.state_fields
                                                            if f.name not in (SETS_AT, SETS))

    def dimensions(self, variant, rule) -> dict[str, int]:
        column = rule.column.name
        most = max((variant.paid_by_block(b, column) for b in variant.claim_layout.blocks), default=0)
        return {"SUBSTITUTE_MOST": max(1, most)}

    def tables(self, variant: ir.Variant, rule: SubstitutesRule) -> Tables:
        blocks = variant.claim_layout.blocks
        column = rule.column.name
        first = next(a.id for a in variant.actions if a.kind in (SUBSTITUTE_CARD, SUBSTITUTE_SET))
        constants = [("ACT_SUBSTITUTE_FIRST", first)]
        bitsets = []
        if rule.matching:  # only specs with sets of one colour: the others' numbers stay as they were
            locos, sets, unpayable = self._unpayable(variant, rule)
            constants += [("SUBSTITUTE_MATCHING", 1), ("SUBSTITUTE_SET_SIZE", rule.locomotive),
                          ("SUBSTITUTE_MOST_LOCOS", locos), ("SUBSTITUTE_MOST_SETS", sets)]
            bitsets.append(("T_SUBSTITUTE_UNPAYABLE", unpayable))
        return Tables(constants=constants,
                      arrays=[("T_ACT_SUBSTITUTE", [variant.paid(a, column) for a in variant.actions]),
                              ("T_BLOCK_SUBSTITUTE", [variant.paid_by_block(b, column) for b in blocks]),
                              ("T_BLOCK_CARDS_PAID", [b.plain + b.base_locomotives for b in blocks])],
                      bitsets=bitsets, context={"substitute_matching": rule.matching})

    @staticmethod
    def _unpayable(variant: ir.Variant, rule: SubstitutesRule) -> tuple[int, int, list[int]]:
        """For the claim_routes hook: the most locomotives and the most sets any block of a
        route paying sets asks, and a bitset per (locomotives, sets) held, each capped at
        those: the routes paying sets none of whose blocks a hand holding that many can pay
        (a block asking more locomotives than the hand holds lists no claim, one asking more
        sets is refused by payment_ok). Routes no set pays for are never in it."""
        layout, column = variant.claim_layout, rule.column.name
        paying = [r for r in variant.routes if any(variant.paid_by_block(b, column) for b in layout.blocks_of(r.id))]
        asks = {r.id: [(b.base_locomotives, variant.paid_by_block(b, column) // rule.locomotive)
                       for b in layout.blocks_of(r.id)] for r in paying}
        most_locos = max((locos for needs in asks.values() for locos, _ in needs), default=0)
        most_sets = max((sets for needs in asks.values() for _, sets in needs), default=0)
        words = (len(variant.routes) + 63) // 64
        table = []
        for locos in range(most_locos + 1):
            for sets in range(most_sets + 1):
                row = [0] * words
                for r in paying:
                    if all(need_locos > locos or need_sets > sets for need_locos, need_sets in asks[r.id]):
                        row[r.id >> 6] |= 1 << (r.id & 63)
                table.extend(row)
        return most_locos, most_sets, table

    def agent_play(self, variant, rule) -> AgentPlay:
        """The any cards, and the sets of one colour: the fewest locomotives, then the colour held most."""
        return AgentPlay(rules={SUBSTITUTE_SET if rule.matching else SUBSTITUTE_CARD: "pay"})

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
                   and variant.paid(a, rule.column.name) == sum(given) + left and a.locomotives == held[loco]
                   and len(colours) <= 1 and a.colour_cards == (held[colours[0]] if colours else 0)
                   and (not colours or a.colour == colours[0])]
        if not matches:
            return [f"state field 'substitute_held': the cards held and given for {route.name} are not one of its "
                    f"payments"]
        hand = state["hands"][state["current"]]
        if rule.matching:
            return self._set_problems(rule, route, hand, given, left, state["current"])
        if not giveable(hand, given, left):
            return [f"state field 'substitute_left': player {state['current']} cannot give the {left} any cards "
                    f"still due for {route.name} in card order"]
        return []

    @staticmethod
    def _set_problems(rule: SubstitutesRule, route, hand: list[int], given: list[int], left: int,
                      player: int) -> list[str]:
        """Sets of one colour: whole sets given, of colours only, and the rest still possible."""
        size = rule.locomotive
        if given[-1] or any(n % size for n in given) or left % size:
            return [f"state field 'substitute_given': the sets given for {route.name} are not whole sets of "
                    f"{size} cards of one colour"]
        if not set_colours(hand, given, left, size):
            return [f"state field 'substitute_left': player {player} cannot give the {left // size} sets still due "
                    f"for {route.name} in colour order"]
        return []
