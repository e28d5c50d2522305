"""Technology cards bought with locomotives (United Kingdom).

The United Kingdom map's rules (Ticket to Ride Map Collection 5; the rule texts
spec/united_kingdom.rail names): at the start a player may claim only routes of 1 or 2
spaces in England; technology cards, bought with locomotives "before taking their turn",
open the other regions, the longer routes and the ferries, change scoring, or make sets
of cards cheaper; "any 4 cards can be used as a Locomotive" (any 3 with the Booster); each
player starts with a locomotive besides the 4 cards of the usual hand.

The statements (``syntax.py``, ``grammar.lark``):

- ``technology NAME costs N copies K EFFECT``: K cards of the technology are in the
  supply; a player buys one for N locomotives and holds at most one of each. Effects:
  ``opens cities A, B, …`` (a route touching one of them needs it), ``opens length L`` or
  ``opens length L+`` (a route of that length, or of that length and more, needs it),
  ``opens ATTRIBUTE`` (a route carrying that route attribute needs it: ``opens ferry``),
  ``sets of N`` (its holder's sets have N cards), ``scores P per route`` (P points for each
  route claimed afterwards), ``scores P per ATTRIBUTE`` (for each such route claimed
  afterwards), ``scores P per ticket`` (P points for each completed ticket at the end) and
  ``claims owned routes`` (its buyer's action this turn is a claim of a route another
  player owns, a shared claim; the card then goes back to the supply). A route needs
  every technology whose effect opens it;
- ``technology sets of N``: any N cards stand for one locomotive that a claim requires (a
  ferry's) or that a technology costs;
- ``starting locomotives N``: each player's starting hand has N locomotives more, taken
  from the shuffled deck (the topmost first);
- the route attribute ``needs no technology`` (Southampton - New York).

The decisions (docs/engine.md, "Technology"): in a turn's first decision a player may buy
one technology (``buy technology NAME 2loco``, or ``1loco+1set`` …: one action per
technology and number of sets); the purchase does not end the turn, and no second one is
legal until the next turn. A purchase or a claim paying sets waits (phase
``technology_set``) while the same player gives the sets' cards one at a time
(``set CARD``), in card-id order, as the sets of the ``substitutes`` mechanic are given;
the last card completes the purchase or the claim. A technology that claims owned routes
opens the phase ``technology_owned_claim`` once paid: its buyer's decision is a claim of a
route another player owns and nobody shares yet (the core's ``route_claims`` service lists
them; its completion is a shared claim, recorded in ``technology_shared``), after which
the card goes back to the supply and the turn ends. Its purchase is legal only when such a
claim is (with the hand less the price's locomotives); should the sets' cards given leave
none, the phase offers the pass, and the card goes back.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.limits import MAX_PILE, MAX_POINTS, Limit
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
    ScoreItem,
    Tables,
)
from . import agents
from .state_view import TechnologyState
from .syntax import (
    CLAIMS_OWNED,
    OPENS_ATTRIBUTE,
    OPENS_CITIES,
    OPENS_LENGTH,
    SETS,
    NoTechnologyAttr,
    StartingLocomotives,
    TechnologySets,
    TechnologyStmt,
)

PH_TECHNOLOGY = "technology_set"
PH_OWNED_CLAIM = "technology_owned_claim"
BUY_TECHNOLOGY = "buy_technology"
TECHNOLOGY_CARD = "technology_card"
#: The payment column of a claim's sets: how many required locomotives sets stand for.
COLUMN = ir.PaymentColumn("technology_sets", "technology", "set")
#: The most technologies a spec may declare: a player's technologies are a bit set.
MOST_TECHNOLOGIES = 30
#: The fewest and the most cards of a set (a set of one card would be a wild card).
SET_LEAST, SET_MOST = 2, 12
#: The most locomotives a technology may cost.
MOST_COST = 12


@dataclass(frozen=True)
class Technology:
    """One technology of the IR: its name, price, copies and effect."""

    name: str
    cost: int
    copies: int
    opens: tuple[int, ...] = ()         # the routes it opens (a route needs every technology opening it)
    set_size: int = 0                   # sets of N for its holder (0: no change)
    route_points: tuple[tuple[int, int], ...] = ()  # (route id, points) scored for each such claim
    ticket_points: int = 0              # points for each completed ticket
    claims_owned: bool = False          # its buyer claims a route another player owns, then returns it


@dataclass(frozen=True)
class TechnologyRule(ir.Rule):
    """The technologies of a spec, its sets, its starting locomotives and the routes
    needing no technology."""

    mechanic: ClassVar[str] = "technology"
    technologies: tuple[Technology, ...]
    set_size: int = 0                   # any N cards for a locomotive (0: no sets)
    starting_locomotives: int = 0
    free: tuple[int, ...] = ()          # routes needing no technology
    groups: tuple[tuple[str, tuple[int, ...]], ...] = ()  # (technology, cities it opens), to draw
    span: Span | None = field(default=None, compare=False)

    def needs(self, route: int) -> int:
        """The technologies a route needs, as a bit set."""
        if route in self.free:
            return 0
        return sum(1 << t for t, tech in enumerate(self.technologies) if route in tech.opens)

    def sets_possible(self) -> bool:
        """Whether any player can ever pay with sets."""
        return bool(self.set_size or any(t.set_size for t in self.technologies))

    def set_size_of(self, owned: int) -> int:
        """The cards of a set for a player holding the technologies ``owned`` (0: none)."""
        sizes = [t.set_size for k, t in enumerate(self.technologies) if t.set_size and owned >> k & 1]
        if self.set_size:
            sizes.append(self.set_size)
        return min(sizes, default=0)

    def buys(self) -> list[tuple[int, int]]:
        """The purchases, in catalogue order: (technology, number of sets) pairs."""
        most = (lambda cost: cost) if self.sets_possible() else (lambda cost: 0)
        return [(t, j) for t, tech in enumerate(self.technologies) for j in range(most(tech.cost) + 1)]


def giveable(hand: list[int], given: list[int], left: int) -> list[int]:
    """The card ids the next set card may be: from the highest already given up, held, and
    with at least ``left`` cards held of that id and above (so the rest can follow in order)."""
    floor = max((card for card, n in enumerate(given) if n), default=0)
    suffix = [0] * (len(hand) + 1)
    for card in range(len(hand) - 1, -1, -1):
        suffix[card] = suffix[card + 1] + hand[card]
    return [card for card in range(floor, len(hand)) if hand[card] > 0 and suffix[card] >= left]


class TechnologyReference(MechanicReference[TechnologyState, TechnologyRule]):
    """Technology cards in plain Python."""

    def __init__(self, rules: Services, rule: TechnologyRule) -> None:
        super().__init__(rules, rule)
        self.loco = rules.loco
        self.variant = rules.variant
        self.buy_ids = [a.id for a in rules.variant.actions if a.kind == BUY_TECHNOLOGY]
        self.buy_of = dict(zip(self.buy_ids, rule.buys()))
        self.card_ids = [a.id for a in rules.variant.actions if a.kind == TECHNOLOGY_CARD]  # by card id
        self.needs = [rule.needs(r.id) for r in rules.variant.routes]
        self.route_points = [dict(t.route_points) for t in rule.technologies]
        self.claimers = sum(1 << t for t, tech in enumerate(rule.technologies) if tech.claims_owned)
        self.pass_id = next(a.id for a in rules.variant.actions if a.kind == ir.PASS)

    def set_size(self, state: TechnologyState, player: int) -> int:
        """The cards of a set for the player now (0: the player cannot pay with sets)."""
        return self.rule.set_size_of(state.technologies[player])

    def setup_piles(self, state: TechnologyState) -> None:
        """The supply holds every copy; each player takes their starting locomotives from
        the top of the shuffled deck down."""
        state.technology_supply = [t.copies for t in self.rule.technologies]
        for player in range(state.players):
            for _ in range(self.rule.starting_locomotives):
                at = next((k for k in range(len(state.deck) - 1, -1, -1) if state.deck[k] == self.loco), -1)
                if at < 0:
                    return
                del state.deck[at]
                state.hands[player][self.loco] += 1

    def route_open(self, state: TechnologyState, route: ir.Route, player: int) -> bool:
        """A route is open to a player holding every technology it needs."""
        return self.needs[route.id] & ~state.technologies[player] == 0

    def payment_ok(self, state: TechnologyState, block: ir.PaymentBlock, player: int) -> bool:
        """A block paying sets: the player's sets have cards (a technology may say how
        many), and the hand holds that many for each besides the block's cards."""
        sets = self.variant.paid_by_block(block, COLUMN.name)
        if not sets:
            return True
        size = self.set_size(state, player)
        return size > 0 and sum(state.hands[player]) - block.plain - block.base_locomotives >= sets * size

    def turn_actions(self, state: TechnologyState) -> list[int]:
        """One purchase a turn: a technology left in the supply that the player lacks, paid
        with its locomotives, some of them as sets of any cards."""
        if state.technology_bought:
            return []
        player = state.current
        hand = state.hands[player]
        owned = state.technologies[player]
        size = self.rule.set_size_of(owned)
        out = []
        for action, (t, sets) in zip(self.buy_ids, self.rule.buys()):
            locos = self.rule.technologies[t].cost - sets
            if (state.technology_supply[t] > 0 and not owned >> t & 1 and hand[self.loco] >= locos
                    and (not sets or (size > 0 and sum(hand) - locos >= sets * size))
                    and (not self.claimers >> t & 1 or self.owned_claim_after(state, player, locos))):
                out.append(action)
        return out

    def owned_claims(self, state: TechnologyState, player: int) -> list[int]:
        """The claims of routes another player owns that nobody shares yet, which the player
        could make now (the core's route_claims: trains, route_open, payments)."""
        out = []
        for route in self.variant.routes:
            owner = state.owner[route.id]
            if 0 <= owner < state.players and owner != player and state.technology_shared[route.id] == -1:
                out.extend(self.rules.route_claims(state, route, player))
        return out

    def owned_claim_after(self, state: TechnologyState, player: int, locos: int) -> bool:
        """Whether a claim of an owned route stays possible once ``locos`` locomotives are paid."""
        state.hands[player][self.loco] -= locos
        possible = bool(self.owned_claims(state, player))
        state.hands[player][self.loco] += locos
        return possible

    def return_claimer(self, state: TechnologyState, player: int) -> None:
        """The technology that claimed an owned route goes back to the supply."""
        held = state.technologies[player] & self.claimers
        for t in range(len(self.rule.technologies)):
            if held >> t & 1:
                state.technology_supply[t] += 1
        state.technologies[player] &= ~self.claimers

    def claim_pay(self, state: TechnologyState, action: ir.Action) -> None:
        """The claim of an owned route uses its technology: it goes back to the supply as the
        claim is paid, and the turn goes on as the claim's (whichever mechanic then holds the
        claim: a tunnel's reveal, a set's cards; docs/rules.md #89)."""
        if state.phase == PH_OWNED_CLAIM:
            self.return_claimer(state, state.current)
            state.phase = PH_TURN

    def before_claim_completes(self, state: TechnologyState, action: ir.Action) -> bool:
        """A claim paying sets waits, holding its colour cards and locomotives, for the
        sets' cards."""
        sets = self.variant.paid(action, COLUMN.name)
        if not sets:
            return True
        if action.colour_cards:
            state.technology_held[action.colour] += action.colour_cards
        state.technology_held[self.loco] += action.locomotives
        state.technology_route = action.route
        state.technology_left = sets * self.set_size(state, state.current)
        state.phase = PH_TECHNOLOGY
        return False

    def phase_legal(self, state: TechnologyState) -> list[int]:
        """The cards the next set card may be; or the claims of owned routes (the pass, when
        the sets' cards given left none)."""
        if state.phase == PH_OWNED_CLAIM:
            return self.owned_claims(state, state.current) or [self.pass_id]
        hand = state.hands[state.current]
        return [self.card_ids[c] for c in giveable(hand, state.technology_given, state.technology_left)]

    def apply(self, state: TechnologyState, action: ir.Action) -> None:
        """A purchase, or a set's card."""
        if action.kind == BUY_TECHNOLOGY:
            self.buy(state, action)
        else:
            self.give(state, action)

    def buy(self, state: TechnologyState, action: ir.Action) -> None:
        """The technology is the player's at once; its locomotives go to the discards; its
        sets' cards follow one at a time. The turn goes on."""
        t, sets = self.buy_of[action.id]
        player = state.current
        size = self.set_size(state, player)  # the sets of the technologies held before this one
        locos = self.rule.technologies[t].cost - sets
        state.hands[player][self.loco] -= locos
        state.technologies[player] |= 1 << t
        state.technology_supply[t] -= 1
        state.technology_bought = 1
        if locos:
            self.rules.discard_payment(state, 0, 0, locos)
        if sets:
            state.technology_buying = t
            state.technology_left = sets * size
            state.phase = PH_TECHNOLOGY
        elif self.claimers >> t & 1:
            state.phase = PH_OWNED_CLAIM

    def give(self, state: TechnologyState, action: ir.Action) -> None:
        """One card of a set given; the last completes the purchase or the claim."""
        card = self.card_ids.index(action.id)
        player = state.current
        state.hands[player][card] -= 1
        state.technology_given[card] += 1
        state.technology_left -= 1
        if state.technology_left:
            return
        for card in range(self.loco + 1):
            state.discard[card] += state.technology_held[card] + state.technology_given[card]
        state.technology_held = [0] * (self.loco + 1)
        state.technology_given = [0] * (self.loco + 1)
        self.rules.refill_market(state)
        state.phase = PH_TURN
        if state.technology_buying != -1:
            if self.claimers >> state.technology_buying & 1:
                state.phase = PH_OWNED_CLAIM
            state.technology_buying = -1
            return
        route = self.variant.routes[state.technology_route]
        state.technology_route = -1
        self.rules.complete_claim(state, route, player)
        if state.phase == PH_TURN:
            self.rules.end_turn(state, passed=False)

    def after_claim(self, state: TechnologyState, route: ir.Route, player: int) -> None:
        """The held technologies' points for a route claimed (Boiler Lagging, Steam Turbines)."""
        owned = state.technologies[player]
        for t, points in enumerate(self.route_points):
            if owned >> t & 1:
                state.technology_points[player] += points.get(route.id, 0)

    def after_shared_claim(self, state: TechnologyState, route: ir.Route, player: int) -> None:
        """The player shares the route (its owner keeps it), and their technologies score it."""
        state.technology_shared[route.id] = player
        self.after_claim(state, route, player)

    def end_of_turn(self, state: TechnologyState) -> None:
        """The next turn may buy again; a technology bought to claim an owned route whose
        turn passed instead goes back to the supply."""
        if state.phase == PH_OWNED_CLAIM:
            self.return_claimer(state, state.current)
        state.technology_bought = 0

    def score_graph(self, state: TechnologyState, player: int, network: list[int], row: dict[str, int]) -> None:
        """The routes the player shares join their network."""
        self.rules.join_routes(network, [r for r in self.variant.routes if state.technology_shared[r.id] == player])

    def score_player(self, state: TechnologyState, player: int, row: dict[str, int], network: list[int]) -> None:
        """The technologies' points for routes claimed, and for completed tickets."""
        owned = state.technologies[player]
        per_ticket = sum(t.ticket_points for k, t in enumerate(self.rule.technologies) if owned >> k & 1)
        row["technology_routes"] = state.technology_points[player]
        row["technology_tickets"] = per_ticket * row["tickets_completed"]
        row["technology_shared_routes"] = sum(self.variant.route_points[r.length] for r in self.variant.routes
                                              if state.technology_shared[r.id] == player)


class TechnologyMechanic(Mechanic[TechnologyRule], Payments[TechnologyRule], Caches,
                         Invariants[TechnologyRule], AgentRules[TechnologyRule], Drawing[TechnologyRule], Sampled):
    name = "technology"
    order = 220
    title = "technology cards bought with locomotives"
    sample = Sample(("technology sets of 4", "starting locomotives 1",
                     "technology Stoker costs 1 copies 2 opens length 3+",
                     "technology North costs 1 copies 2 opens cities {city0}",
                     "technology Lagging costs 1 copies 1 scores 1 per route",
                     "technology Heading costs 2 copies 1 scores 2 per ticket",
                     "technology Booster costs 1 copies 1 sets of 3",
                     "technology Right costs 1 copies 1 claims owned routes"), route=" needs no technology")
    rule = TechnologyRule
    statements = (TechnologyStmt, TechnologySets, StartingLocomotives, NoTechnologyAttr)
    payment_columns = (COLUMN,)
    state_fields = (
        Field("technologies", "each player's technologies, a bit per technology (public)", owner="technology",
              per_player=True, high="TECH_ALL", items="technology", items_as="bits"),
        Field("technology_supply", "the copies of each technology left to buy", owner="technology",
              size="N_TECHS", high="TECH_COPIES_MOST", items="technology", items_as="per_item"),
        Field("technology_bought", "1 once the player to move has bought a technology this turn",
              owner="technology", high="1"),
        Field("technology_points", "each player's points from technologies for the routes claimed",
              owner="technology", per_player=True, high="TECH_POINTS_MOST"),
        Field("technology_shared", "each route's second owner, who claimed it from its owner (-1: none)",
              owner="technology", size="N_ROUTES", low="-1", high="players-1", initial=-1, co_owner=True),
        Field("technology_route", "the route whose claim waits for its sets' cards (-1: none)", owner="technology",
              low="-1", high="N_ROUTES-1", initial=-1, pending_claim=True, names="route"),
        Field("technology_buying", "the technology whose purchase waits for its sets' cards (-1: none)",
              owner="technology", low="-1", high="N_TECHS-1", initial=-1, items="technology"),
        Field("technology_held", "that claim's colour cards and locomotives, a count per card: out of the hand, "
                                 "not yet discarded", owner="technology", size="N_CARDS", high="CARD_TOTAL",
              pile=CARD_COUNTS),
        Field("technology_given", "the sets' cards given so far, a count per card", owner="technology",
              size="N_CARDS", high="CARD_TOTAL", pile=CARD_COUNTS),
        Field("technology_left", "the sets' cards still to give", owner="technology", high="TECH_SET_CARDS_MOST"),
        # the compiled engine's cache: per player, the routes their technologies leave closed
        # (kept at each purchase), so that a turn's legal claims drop them a word at a time
        Field("technology_closed", "bit r set while route r needs a technology the player lacks (from "
                                   "technologies)", owner="technology", kind="u64", per_player=True,
              size="ROUTE_WORDS", derived=True),
    )
    closed_routes = "technology_closed"  # route_open reads only it
    phases = (PH_TECHNOLOGY, PH_OWNED_CLAIM)
    kinds = (BUY_TECHNOLOGY, TECHNOLOGY_CARD)
    reference = TechnologyReference
    score_items = (
        ScoreItem("technology_routes", "points from technologies for the routes claimed while holding them", True,
                  "technology", label="tech"),
        ScoreItem("technology_tickets", "points from technologies for each completed ticket", True, "technology",
                  label="tech tix"),
        ScoreItem("technology_shared_routes", "route points of the routes claimed from their owner", True,
                  "technology", label="shared"),
    )
    limits = (
        Limit("technology NAME costs N copies K", f"N 1 … {MOST_COST}; K 1 … {MAX_PILE:,}; at most "
                                                  f"{MOST_TECHNOLOGIES} technologies",
              "a price in locomotives; a pile; a player's technologies are one bit set"),
        Limit("technology sets of N, … sets of N", f"{SET_LEAST} … {SET_MOST}",
              "a set of one card would be a wild card; a set's cards are given one at a time"),
        Limit("starting locomotives N", "0 … 12", "taken from the deck before the hands are dealt"),
    )

    def check(self, ctx) -> TechnologyRule | None:
        stmts = ctx.many(TechnologyStmt)
        sets_stmt = ctx.one(TechnologySets)
        start = ctx.one(StartingLocomotives)
        free = [route.id for route, _attr in ctx.routes_with(NoTechnologyAttr.name)]
        if not stmts:
            for stmt in (sets_stmt, start):
                if stmt is not None:
                    ctx.errors.add(stmt.span, f"'{stmt.words}' needs at least one 'technology' statement")
            for _route, attr in ctx.routes_with(NoTechnologyAttr.name):
                ctx.errors.add(attr.span, "'needs no technology' needs at least one 'technology' statement")
            return None
        if len(stmts) > MOST_TECHNOLOGIES:
            ctx.errors.add(stmts[MOST_TECHNOLOGIES].span, f"at most {MOST_TECHNOLOGIES} technologies")
            stmts = stmts[:MOST_TECHNOLOGIES]
        techs: list[Technology] = []
        groups: list[tuple[str, tuple[int, ...]]] = []
        opened_by: dict[str, tuple[str, int]] = {}
        for stmt in stmts:
            tech = self._technology(ctx, stmt, opened_by)
            techs.append(tech)
            if stmt.effect == OPENS_CITIES:
                groups.append((tech.name, tuple(opened_by[n.text][1] for n in stmt.names if n.text in opened_by)))
        set_size = self._set_size(ctx, sets_stmt.size) if sets_stmt else 0
        starting = ctx.positive(start.count, "the starting locomotives", allow_zero=True, most=12) if start else 0
        return TechnologyRule(technologies=tuple(techs), set_size=set_size, starting_locomotives=starting,
                              free=tuple(free), groups=tuple(groups), span=stmts[0].span)

    def _technology(self, ctx, stmt: TechnologyStmt, opened_by: dict[str, tuple[str, int]]) -> Technology:
        """One technology statement, checked: its price, copies and effect."""
        cost = ctx.positive(stmt.cost, "a technology's price", most=MOST_COST)
        copies = ctx.positive(stmt.copies, "a technology's copies", most=MAX_PILE)
        name = stmt.name.text
        routes = ctx.board.routes
        tech = Technology(name=name, cost=cost, copies=copies)
        if stmt.effect == OPENS_CITIES:
            cities: set[int] = set()
            for city_name in stmt.names:
                city = ctx.places.ref(city_name, "a technology's city")
                if city is None:
                    continue
                if city_name.text in opened_by:
                    ctx.errors.add(city_name.span, f"{city_name.text} is opened by {opened_by[city_name.text][0]} "
                                                   f"already")
                    continue
                opened_by[city_name.text] = (name, city)
                cities.add(city)
            return replace(tech, opens=tuple(r.id for r in routes if r.a in cities or r.b in cities))
        if stmt.effect == OPENS_LENGTH:
            length = ctx.positive(stmt.number, "a length a technology opens")
            return replace(tech, opens=tuple(r.id for r in routes if r.length == length
                                             or (stmt.open_ended and r.length >= length)))
        if stmt.effect == OPENS_ATTRIBUTE:
            word = stmt.names[0].text
            opened = tuple(route.id for route, _attr in ctx.routes_with(word))
            if not opened:
                ctx.errors.add(stmt.names[0].span, f"no route has the attribute '{word}'")
            return replace(tech, opens=opened)
        if stmt.effect == SETS:
            return replace(tech, set_size=self._set_size(ctx, stmt.number))
        if stmt.effect == CLAIMS_OWNED:
            return replace(tech, claims_owned=True)
        points = ctx.points(stmt.number, "a technology's points")
        if stmt.per == "ticket":
            return replace(tech, ticket_points=points)
        if stmt.per == "route":
            return replace(tech, route_points=tuple((r.id, points) for r in routes))
        word = stmt.names[-1].text
        scored = tuple((route.id, points) for route, _attr in ctx.routes_with(word))
        if not scored:
            ctx.errors.add(stmt.names[-1].span, f"no route has the attribute '{word}'")
        return replace(tech, route_points=scored)

    @staticmethod
    def _set_size(ctx, num) -> int:
        size = ctx.positive(num, "the cards of a set")
        if size and not SET_LEAST <= size <= SET_MOST:
            ctx.errors.add(num.span, f"a set has {SET_LEAST} to {SET_MOST} cards, got {size}")
            return 0
        return size

    def payment_shapes(self, variant, rule: TechnologyRule, route, shapes):
        """A block per number of sets: ``j`` sets stand for ``j`` of the locomotives the
        route requires."""
        if not rule.sets_possible():
            return shapes
        return [replace(s, base_locomotives=s.base_locomotives - j, paid=s.paid + ((COLUMN.name, j),)) if j else s
                for s in shapes for j in range(s.base_locomotives + 1)]

    def actions(self, variant, rule: TechnologyRule) -> list[dict]:
        """The purchases, then one decision per card kind: the next card of a set."""
        out = []
        for t, sets in rule.buys():
            tech = rule.technologies[t]
            locos = tech.cost - sets
            paid = "+".join(part for part in (f"{locos}loco" if locos else "", f"{sets}set" if sets else "") if part)
            out.append(dict(kind=BUY_TECHNOLOGY, name=f"buy technology {tech.name} {paid}", locomotives=locos))
        out += [dict(kind=TECHNOLOGY_CARD, name=f"set {c.name}", colour=c.id, colour_cards=1) for c in variant.colours]
        out.append(dict(kind=TECHNOLOGY_CARD, name="set loco", colour=ir.NO_COLOUR, locomotives=1))
        return out

    def dimensions(self, variant, rule: TechnologyRule) -> dict[str, int]:
        techs = rule.technologies
        biggest = max([rule.set_size] + [t.set_size for t in techs])
        most_sets = max([t.cost for t in techs] + [variant.paid_by_block(b, COLUMN.name)
                                                   for b in variant.claim_layout.blocks])
        return {"N_TECHS": len(techs), "TECH_ALL": (1 << len(techs)) - 1,
                "TECH_COPIES_MOST": max(t.copies for t in techs),
                "TECH_POINTS_MOST": max(1, self.score_bound(variant, rule)),
                "TECH_SET_CARDS_MOST": max(1, biggest * most_sets)}

    def score_bound(self, variant, rule: TechnologyRule) -> int:
        """Every route's points of every technology, and every ticket's."""
        routes = sum(points for t in rule.technologies for _route, points in t.route_points)
        if any(t.claims_owned for t in rule.technologies):  # every route shared
            routes += sum(variant.route_points[r.length] for r in variant.routes)
        return min(MAX_POINTS, routes + sum(t.ticket_points for t in rule.technologies) * len(variant.tickets))

    def tables(self, variant: ir.Variant, rule: TechnologyRule) -> Tables:
        blocks = variant.claim_layout.blocks
        techs = rule.technologies
        buys = rule.buys()
        first_buy = next(a.id for a in variant.actions if a.kind == BUY_TECHNOLOGY)
        first_card = next(a.id for a in variant.actions if a.kind == TECHNOLOGY_CARD)
        route_points = [0] * (len(techs) * len(variant.routes))
        for t, tech in enumerate(techs):
            for route, points in tech.route_points:
                route_points[t * len(variant.routes) + route] = points
        return Tables(constants=[("ACT_BUY_FIRST", first_buy), ("N_BUYS", len(buys)),
                                 ("ACT_SET_FIRST", first_card), ("TECH_SET_SIZE", rule.set_size),
                                 ("TECH_STARTING_LOCOS", rule.starting_locomotives),
                                 ("TECH_CLAIMERS", sum(1 << t for t, tech in enumerate(techs) if tech.claims_owned))],
                      arrays=[("T_ROUTE_NEEDS", [rule.needs(r.id) for r in variant.routes]),
                              ("T_BUY_TECH", [t for t, _ in buys]), ("T_BUY_SETS", [j for _, j in buys]),
                              ("T_TECH_COST", [t.cost for t in techs]), ("T_TECH_COPIES", [t.copies for t in techs]),
                              ("T_TECH_SETS", [t.set_size for t in techs]),
                              ("T_TECH_TICKET_POINTS", [t.ticket_points for t in techs]),
                              ("T_TECH_ROUTE_POINTS", route_points),
                              ("T_ACT_TECH_SETS", [variant.paid(a, COLUMN.name) for a in variant.actions]),
                              ("T_BLOCK_TECH_SETS", [variant.paid_by_block(b, COLUMN.name) for b in blocks]),
                              ("T_BLOCK_TECH_CARDS", [b.plain + b.base_locomotives for b in blocks])])

    def agent_play(self, variant, rule: TechnologyRule) -> AgentPlay:
        """A technology is bought when the routes it opens let the player join held tickets
        (the generic ``unlock`` rule), or, one that scores or makes sets cheaper, when what
        it will score outweighs its price (``option_worth_now``: agents.PurchaseWorth); once
        held, one scoring per route adds its points to those claims (``worth_now``); a set's
        cards are paid as any payment. One that claims owned routes (Right of Way) is bought
        by the rule ``claim_owned`` (``claims_owned``) when a route another player owns would
        join a held ticket or save trains on it, with locomotives only: a set's cards are given
        from the colour held most, the one the claim then wants."""
        buy_ids = [a.id for a in variant.actions if a.kind == BUY_TECHNOLOGY]
        scoring = any(tech.route_points for tech in rule.technologies)
        options = any(tech.route_points or tech.ticket_points or tech.set_size for tech in rule.technologies)
        pairs = list(zip(buy_ids, rule.buys()))
        return AgentPlay(rules={BUY_TECHNOLOGY: "unlock", TECHNOLOGY_CARD: "pay"},
                         routes={a: rule.technologies[t].opens for a, (t, _sets) in pairs},
                         claims_owned=frozenset(a for a, (t, sets) in pairs
                                                if rule.technologies[t].claims_owned and not sets),
                         worth_now=agents.HeldRouteWorth(rule) if scoring else None,
                         option_worth_now=agents.PurchaseWorth(variant, rule, buy_ids) if options else None)

    def item_names(self, variant, rule: TechnologyRule) -> dict[str, list[str]]:
        """The technologies by id, for the fields holding them."""
        return {"technology": [tech.name for tech in rule.technologies]}

    def looks(self, variant, rule: TechnologyRule) -> Looks:
        """The cities each technology opens, ringed; the routes needing no technology, badged."""
        return Looks(groups=rule.groups, badges={route: "free" for route in rule.free},
                     legend={"groups": "the cities a technology opens", "badges": "free: needs no technology"})

    def state_problems(self, variant, rule: TechnologyRule, state: dict) -> list[str]:
        """Every copy of a technology is in the supply or held; a player holds one of each
        at most (a bit set); sets' cards are due exactly in the phase ``technology_set``,
        for one purchase or one claim."""
        problems = []
        for t, tech in enumerate(rule.technologies):
            held = sum(mask >> t & 1 for mask in state["technologies"])
            if held + state["technology_supply"][t] != tech.copies:
                problems.append(f"state field 'technology_supply': {state['technology_supply'][t]} copies of "
                                f"{tech.name} left and {held} held, the game has {tech.copies}")
        claimers = sum(1 << t for t, tech in enumerate(rule.technologies) if tech.claims_owned)
        for r, sharer in enumerate(state["technology_shared"]):
            if sharer != -1 and not (0 <= state["owner"][r] < state["players"] and state["owner"][r] != sharer):
                problems.append(f"state field 'technology_shared': route {r} is shared by player {sharer} but owned "
                                f"by {state['owner'][r]}")
        for p, mask in enumerate(state["technologies"]):
            buying = state["technology_buying"]
            claiming = state["phase"] == PH_OWNED_CLAIM or (state["phase"] == PH_TECHNOLOGY and buying >= 0
                                                            and claimers >> buying & 1)
            if mask & claimers and not (p == state["current"] and claiming):
                problems.append(f"state field 'technologies': player {p} holds a technology that claims owned routes "
                                f"outside the claim it was bought for")
        if state["phase"] == PH_OWNED_CLAIM and not state["technologies"][state["current"]] & claimers:
            problems.append("state field 'phase': a claim of an owned route without its technology")
        pending = state["phase"] == PH_TECHNOLOGY
        waiting = (state["technology_route"] != -1) + (state["technology_buying"] != -1)
        if pending and (waiting != 1 or state["technology_left"] < 1):
            problems.append("state field 'technology_left': the phase 'technology_set' waits for one purchase or "
                            "one claim, with cards still due")
        if not pending and (waiting or state["technology_left"] or any(state["technology_held"])
                            or any(state["technology_given"])):
            problems.append(f"state field 'technology_left': sets' cards are held or due in phase "
                            f"{state['phase']!r}")
        return problems
