"""City markers (Old West).

The Old West rules (Ticket to Ride Map Collection 6; the rule texts spec/old_west.rail
names): each player has a few city markers. After the set-up tickets, each player in
reverse seat order chooses a starting city by putting one of their markers on a city no
marker holds; the first player then takes the first turn. Every route a player claims
must extend their network from that city: it must touch the start city or a city one of
their routes reaches. After a claim the player may put another marker on an end of that
route no marker holds, for cards of one colour (locomotives wild). Markers never move.
A route's points go, as it is claimed, to the owners of the markers standing on its two
ends (both score; a player holding both ends scores twice); with no marker on either end,
the claimer scores them.

Written ``city markers N cost C``: N markers a player, the first on the start city, each
later one for C cards of one colour.

In both engines (docs/engine.md, "City markers"): ``marker_owner`` holds each city's
marker, ``start_city`` each player's start, ``markers_left`` the markers each player still
has. Set-up ends (hook ``setup_over``) in the phase ``start_city``, from the last seat down
(``start city CITY``). ``route_open`` lets a player claim only routes touching their start
city or a city their routes reach. ``after_claim`` pays the route's points by the markers
standing: the core credits the claimer the printed points (the ``routes`` column and
``route_score``), and the mechanic counts in ``marker_won`` what a player gained by markers
and in ``marker_lost`` what went to the markers instead of the claimer, which the
``city_control`` column adds up (won minus lost). Then, when the player has a marker left,
an end of the route is free and their cards pay, the phase ``city_marker`` offers ``city
marker CITY`` for each free end and ``no city marker``; a city chosen, the phase
``city_marker_pay`` takes the payment (``city marker pay 2red``, ``1red+1loco``,
``2loco``), and the turn ends.

Its option ``alvin CITY capture N end M`` (Old West's Alvin variant: the Old West rules
booklet; thoun/tickettoride modules/maps/oldwest/map.php and States/MoveAlvin.php): Alvin
stands in CITY at the start, where no player may choose a start city. A player whose claim
ends at Alvin's city, when they do not hold him already, captures him: they score N at once
(``alvin_won``) and hold him (``alvin_holder``), and move him to a city holding one of their
markers, after the marker the claim may bring (phase ``alvin``, ``alvin CITY``; with one
such city he goes there without a decision). His holder at the end scores M. The
breakdown's ``alvin`` column adds both. With another mechanic's decision after the claim
(a phase open already), one decision follows a claim: the capture scores and Alvin goes to
the capturer's first marked city (by city id) without a decision.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.limits import MAX_ROUTE_LENGTH, Limit
from ...compiler.base.schema import PH_TURN, Field
from ...compiler.catalogue import payment_text
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import (
    AgentPlay,
    AgentRules,
    Drawing,
    Invariants,
    Looks,
    Mechanic,
    Sample,
    Sampled,
    ScoreItem,
    Tables,
)
from .state_view import CityControlState
from .syntax import AlvinStmt, CityMarkersStmt

START_CITY = "start_city"
CITY_MARKER = "city_marker"
CITY_MARKER_PAY = "city_marker_pay"
PH_START = "start_city"
PH_MARKER = "city_marker"
PH_MARKER_PAY = "city_marker_pay"
ALVIN = "alvin"
PH_ALVIN = "alvin"
#: The most points a capture of Alvin, or holding him at the end, may score.
MOST_ALVIN_POINTS = 100
#: The option's state fields (the variants without it keep the state they had).
ALVIN_FIELDS = ("alvin_city", "alvin_holder", "alvin_pending", "alvin_won")
#: The most markers a player may have (a city each, so a few; the cost of one is cards).
MOST_MARKERS = 10


@dataclass(frozen=True)
class CityMarkersRule(ir.Rule):
    """Markers per player (the first on the start city) and the cards a later one costs."""

    mechanic: ClassVar[str] = "city_control"
    count: int
    cost: int
    #: the Alvin option (``alvin CITY capture N end M``): his first city (-1: no Alvin), the
    #: points of a capture, the points of holding him at the end
    #: (left out of the spec hash at their defaults: Old West's hash stays as it was)
    alvin_city: int = field(default=-1, metadata={ir.OMIT_AT_DEFAULT: True})
    alvin_capture: int = field(default=0, metadata={ir.OMIT_AT_DEFAULT: True})
    alvin_end: int = field(default=0, metadata={ir.OMIT_AT_DEFAULT: True})
    span: Span | None = field(default=None, compare=False)


def payable(hand: list[int], loco: int, cost: int) -> bool:
    """Whether ``cost`` cards of one colour, locomotives wild, can be paid from ``hand``
    (``loco`` is the locomotive's card id, after the colours)."""
    return any(hand[c] + hand[loco] >= cost for c in range(loco))


def reached_cities(variant: ir.Variant, owner: list[int], start: int, player: int) -> set[int]:
    """The cities ``player``'s network reaches: the start city (-1: none) and both ends of
    each route they own."""
    cities = {start} if start >= 0 else set()
    for r in variant.routes:
        if owner[r.id] == player:
            cities.update((r.a, r.b))
    return cities


class CityMarkersReference(MechanicReference[CityControlState, CityMarkersRule]):
    """City markers in plain Python."""

    def __init__(self, rules: Services, rule: CityMarkersRule) -> None:
        super().__init__(rules, rule)
        v = rules.variant
        self.variant = v
        self.loco = rules.loco
        self.start_ids = {a.city: a.id for a in v.actions if a.kind == START_CITY}
        self.marker_ids = {a.city: a.id for a in v.actions if a.kind == CITY_MARKER}  # city -1: no marker
        self.pays = [a for a in v.actions if a.kind == CITY_MARKER_PAY]
        self.alvin_ids = {a.city: a.id for a in v.actions if a.kind == ALVIN}
        self.routes_at: dict[int, list[int]] = {c.id: [] for c in v.cities}
        for r in v.routes:
            self.routes_at[r.a].append(r.id)
            self.routes_at[r.b].append(r.id)

    def reaches(self, state: CityControlState, player: int, city: int) -> bool:
        """Whether ``player``'s network reaches ``city``: their start city, or an end of one
        of their routes."""
        return state.start_city[player] == city or any(state.owner[r] == player for r in self.routes_at[city])

    def setup_over(self, state: CityControlState) -> None:
        """The start cities are chosen before the first turn, from the last seat down."""
        state.current = state.players - 1
        state.phase = PH_START

    def route_open(self, state: CityControlState, route: ir.Route, player: int) -> bool:
        """A claim extends the player's network from the start city."""
        return self.reaches(state, player, route.a) or self.reaches(state, player, route.b)

    def phase_legal(self, state: CityControlState) -> list[int]:
        """A start city no marker holds (not Alvin's first city); a city of the player's
        markers for Alvin; a free end of the route just claimed, or none; the ways to pay
        for the marker."""
        if state.phase == PH_START:
            return [self.start_ids[c] for c in sorted(self.start_ids)
                    if state.marker_owner[c] == -1 and c != self.rule.alvin_city]
        if state.phase == PH_ALVIN:
            return [self.alvin_ids[c] for c in self.alvin_choices(state, state.current)]
        if state.phase == PH_MARKER:
            route = self.variant.routes[state.marker_route]
            ends = [c for c in (route.a, route.b) if state.marker_owner[c] == -1]
            return sorted([self.marker_ids[c] for c in ends] + [self.marker_ids[-1]])
        hand = state.hands[state.current]
        cost = self.rule.cost
        return [a.id for a in self.pays if a.colour_cards + a.locomotives == cost and hand[self.loco] >= a.locomotives
                and (not a.colour_cards or hand[a.colour] >= a.colour_cards)]

    def apply(self, state: CityControlState, action: ir.Action) -> None:
        """A start city, Alvin's new city, a marker's city (or none), or its payment."""
        player = state.current
        if action.kind == START_CITY:
            state.marker_owner[action.city] = player
            state.start_city[player] = action.city
            state.markers_left[player] -= 1
            if player == 0:
                state.phase = PH_TURN  # the first player takes the first turn
            else:
                state.current = player - 1
        elif action.kind == ALVIN:
            state.alvin_city = action.city
            state.alvin_pending = 0
            state.phase = PH_TURN
            self.rules.end_turn(state, passed=False)
        elif action.kind == CITY_MARKER and action.city == -1:
            state.marker_route = -1
            state.phase = PH_TURN
            self.marker_done(state)
        elif action.kind == CITY_MARKER:
            state.marker_city = action.city
            state.phase = PH_MARKER_PAY
        else:
            hand = state.hands[player]
            if action.colour_cards:
                hand[action.colour] -= action.colour_cards
            hand[self.loco] -= action.locomotives
            self.rules.discard_payment(state, action.colour, action.colour_cards, action.locomotives)
            state.marker_owner[state.marker_city] = player
            state.markers_left[player] -= 1
            state.marker_city = -1
            state.marker_route = -1
            state.phase = PH_TURN
            self.marker_done(state)

    def alvin_choices(self, state: CityControlState, player: int) -> list[int]:
        """The cities Alvin may move to: those holding one of ``player``'s markers."""
        return [c for c, who in enumerate(state.marker_owner) if who == player]

    def move_alvin(self, state: CityControlState) -> None:
        """The capturer moves Alvin (a pending move, in phase ``turn``): to their one
        marked city without a decision, else in the phase ``alvin``."""
        choices = self.alvin_choices(state, state.current)
        if len(choices) == 1:
            state.alvin_city = choices[0]
            state.alvin_pending = 0
        else:
            state.phase = PH_ALVIN

    def marker_done(self, state: CityControlState) -> None:
        """The marker after a claim is placed or declined: Alvin's move, if he was captured,
        else the turn ends."""
        if self.rule.alvin_city >= 0 and state.alvin_pending:
            self.move_alvin(state)
        if state.phase == PH_TURN:
            self.rules.end_turn(state, passed=False)

    def after_claim(self, state: CityControlState, route: ir.Route, player: int) -> None:
        """The route's points by the markers standing now; then a marker may follow on a
        free end, when the player has one left and the cards for it (and no other
        mechanic's decision follows the claim); with Alvin, a capture when the route ends
        at his city and the player does not hold him, his move after the marker."""
        owners = [state.marker_owner[c] for c in (route.a, route.b) if state.marker_owner[c] >= 0]
        if owners:
            points = self.variant.route_points[route.length]
            state.marker_lost[player] += points
            for p in owners:
                state.marker_won[p] += points
        free = state.marker_owner[route.a] == -1 or state.marker_owner[route.b] == -1
        # a decision another mechanic opened after this claim (a phase already) goes first,
        # and this claim then gets no marker, nor a move of Alvin: one decision follows a claim
        decided_elsewhere = state.phase != PH_TURN
        if (not decided_elsewhere and free and state.markers_left[player] > 0
                and payable(state.hands[player], self.loco, self.rule.cost)):
            state.marker_route = route.id
            state.phase = PH_MARKER
        if self.rule.alvin_city >= 0 and state.alvin_holder != player and state.alvin_city in (route.a, route.b):
            state.alvin_holder = player
            state.alvin_won[player] += self.rule.alvin_capture
            if decided_elsewhere:  # no decision of his own: to the capturer's first marked city
                state.alvin_city = self.alvin_choices(state, player)[0]
            else:
                state.alvin_pending = 1
                if state.phase == PH_TURN:  # no marker offered: he moves now
                    self.move_alvin(state)

    def score_player(self, state: CityControlState, player: int, row: dict[str, int], network: list[int]) -> None:
        """What the markers moved: points won as a marker's owner less points of the
        player's claims that went to markers; and the markers on the board."""
        row["city_control"] = state.marker_won[player] - state.marker_lost[player]
        row["markers_placed"] = state.marker_owner.count(player)
        if self.rule.alvin_city >= 0:
            row["alvin"] = state.alvin_won[player] + (self.rule.alvin_end if state.alvin_holder == player else 0)


class CityMarkers(Mechanic[CityMarkersRule], Invariants[CityMarkersRule], AgentRules[CityMarkersRule],
                  Drawing[CityMarkersRule], Sampled):
    name = "city_control"
    order = 270
    title = "city markers"
    sample = Sample(("city markers 3 cost 2", "alvin {city0} capture 10 end 10"))
    rule = CityMarkersRule
    statements = (CityMarkersStmt, AlvinStmt)
    state_fields = (
        Field("marker_owner", "each city's marker: the player who put it there (-1: none)", owner="city_control",
              size="N_CITIES", low="-1", high="players-1", initial=-1),
        Field("start_city", "each player's start city (-1: not chosen yet)", owner="city_control", per_player=True,
              low="-1", high="N_CITIES-1", initial=-1, names="city"),
        Field("markers_left", "each player's markers not placed", owner="city_control", per_player=True,
              high="MARKERS", initial="MARKERS"),
        Field("marker_won", "each player's route points from their markers (claims by anyone ending at them)",
              owner="city_control", per_player=True, high="MARKER_POINTS_MOST"),
        Field("marker_lost", "each player's route points of their own claims that went to markers instead",
              owner="city_control", per_player=True, high="ROUTE_SCORE_MAX"),
        Field("marker_route", "the route just claimed, whose free end may get a marker (-1: none)",
              owner="city_control", low="-1", high="N_ROUTES-1", initial=-1, names="route"),
        Field("marker_city", "the city of the marker being paid for (-1: none)", owner="city_control", low="-1",
              high="N_CITIES-1", initial=-1, names="city"),
        # the compiled engine's cache, read by route_open on every turn: the cities each
        # player's network reaches (from start_city and owner)
        Field("marker_reach", "bit c set when the player's start city or one of their routes reaches city c (from "
                              "start_city and owner)", owner="city_control", kind="u64", per_player=True,
              size="MARKER_CITY_WORDS", derived=True),
        # the Alvin option's (ALVIN_FIELDS: only in its variants)
        Field("alvin_city", "the city where Alvin stands", owner="city_control", high="N_CITIES-1",
              initial="ALVIN_START", names="city"),
        Field("alvin_holder", "the player who captured Alvin last (-1: nobody yet)", owner="city_control", low="-1",
              high="players-1", initial=-1),
        Field("alvin_pending", "1 while Alvin's capturer has still to move him (their marker first)",
              owner="city_control", high="1"),
        Field("alvin_won", "each player's points from capturing Alvin", owner="city_control", per_player=True,
              high="ALVIN_WON_MOST"),
    )
    phases = (PH_START, PH_MARKER, PH_MARKER_PAY, PH_ALVIN)
    kinds = (START_CITY, CITY_MARKER, CITY_MARKER_PAY, ALVIN)
    reference = CityMarkersReference
    score_items = (
        ScoreItem("city_control", "route points the player's markers won, less those of the player's claims that "
                                  "went to markers", True, "city_control", label="markers"),
        ScoreItem("markers_placed", "the player's markers on the board (the start city's among them)", False,
                  "city_control", label="placed"),
        ScoreItem("alvin", "the player's points for capturing Alvin, and for holding him at the end (the Alvin "
                           "option)", True, "city_control"),
    )
    limits = (Limit("city markers N cost C", f"N 1 … {MOST_MARKERS}; C 1 … {MAX_ROUTE_LENGTH}",
                    "a marker a city; a marker's price is cards of one colour"),
              Limit("alvin CITY capture N end M", f"N, M 0 … {MOST_ALVIN_POINTS}",
                    "points of one capture and of holding Alvin at the end"))

    def variant_state_fields(self, variant: ir.Variant, rule: CityMarkersRule) -> tuple[Field, ...]:
        """The Alvin option's fields only in its variants."""
        return self.state_fields if rule.alvin_city >= 0 else tuple(f for f in self.state_fields
                                                                    if f.name not in ALVIN_FIELDS)

    def variant_phases(self, variant: ir.Variant, rule: CityMarkersRule) -> tuple[str, ...]:
        """The phase ``alvin`` only in the Alvin option's variants."""
        return self.phases if rule.alvin_city >= 0 else tuple(p for p in self.phases if p != PH_ALVIN)

    def variant_kinds(self, variant: ir.Variant, rule: CityMarkersRule) -> tuple[str, ...]:
        """The kind ``alvin`` only in the Alvin option's variants."""
        return self.kinds if rule.alvin_city >= 0 else tuple(k for k in self.kinds if k != ALVIN)

    def variant_score_items(self, variant: ir.Variant, rule: CityMarkersRule) -> tuple[ScoreItem, ...]:
        """The column ``alvin`` only in the Alvin option's variants."""
        return self.score_items if rule.alvin_city >= 0 else tuple(i for i in self.score_items if i.name != ALVIN)

    def check(self, ctx: Any) -> CityMarkersRule | None:
        stmt = ctx.one(CityMarkersStmt)
        if stmt is None:
            alvin = ctx.one(AlvinStmt)
            if alvin is not None:  # Alvin moves between the players' markers: none, no Alvin
                ctx.errors.add(alvin.span, "'alvin' needs 'city markers N cost C': Alvin moves to a city holding "
                                           "one of his capturer's markers")
            return None
        count = ctx.positive(stmt.count, "the city markers a player has", most=MOST_MARKERS)
        cost = ctx.positive(stmt.cost, "the cards a city marker costs", most=MAX_ROUTE_LENGTH)
        cities = len(ctx.places.cities)
        if count and cities and count > cities:
            ctx.errors.add(stmt.count.span, f"{count} city markers a player, but the map has {cities} places")
        elif cities and ctx.players.high > cities:
            # each player's start city is a place no marker holds: a seat without one could not play
            ctx.errors.add(stmt.span, f"city markers need a start city for each of {ctx.players.high} players, "
                                      f"but the map has {cities} places")
        return self._alvin(ctx, CityMarkersRule(count=count, cost=cost, span=stmt.span))

    @staticmethod
    def _alvin(ctx: Any, rule: CityMarkersRule) -> CityMarkersRule:
        """The rule with the Alvin option of ``alvin CITY capture N end M``, if written: a
        known city, and a start city left for every seat besides his."""
        alvin = ctx.one(AlvinStmt)
        if alvin is None:
            return rule
        city = ctx.places.ref(alvin.city, "alvin")
        capture = ctx.positive(alvin.capture, "the points of capturing Alvin", allow_zero=True,
                               most=MOST_ALVIN_POINTS)
        end = ctx.positive(alvin.end, "the points of holding Alvin at the end", allow_zero=True,
                           most=MOST_ALVIN_POINTS)
        cities = len(ctx.places.cities)
        if city is not None and cities and ctx.players.high > cities - 1:
            ctx.errors.add(alvin.span, f"no start city in Alvin's city: {ctx.players.high} players need "
                                       f"{ctx.players.high} other places, but the map has {cities - 1}")
        if city is None:
            return rule
        return replace(rule, alvin_city=city, alvin_capture=capture, alvin_end=end)

    def actions(self, variant: ir.Variant, rule: CityMarkersRule) -> list[dict]:
        """The start cities, one a city; the marker's city after a claim, one a city, and
        none; the ways to pay for a marker, one colour with locomotives wild."""
        out = [dict(kind=START_CITY, name=f"start city {c.name}", city=c.id) for c in variant.cities]
        out += [dict(kind=CITY_MARKER, name=f"city marker {c.name}", city=c.id) for c in variant.cities]
        out.append(dict(kind=CITY_MARKER, name="no city marker", city=-1))
        cost = rule.cost
        for c in variant.colours:
            for locos in range(cost):
                paid = payment_text(c.name, cost - locos, locos)
                out.append(dict(kind=CITY_MARKER_PAY, name=f"city marker pay {paid}",
                                colour=c.id, colour_cards=cost - locos, locomotives=locos))
        out.append(dict(kind=CITY_MARKER_PAY, name=f"city marker pay {cost}loco", colour=ir.NO_COLOUR,
                        colour_cards=0, locomotives=cost))
        if rule.alvin_city >= 0:  # where the capturer moves Alvin, one a city
            out += [dict(kind=ALVIN, name=f"alvin {c.name}", city=c.id) for c in variant.cities]
        return out

    def dimensions(self, variant: ir.Variant, rule: CityMarkersRule) -> dict[str, int]:
        dims = {"MARKER_CITY_WORDS": (len(variant.cities) + 63) // 64, "MARKERS": rule.count,
                "MARKER_POINTS_MOST": max(1, self._markers_bound(variant))}
        if rule.alvin_city >= 0:
            dims.update(ALVIN_START=rule.alvin_city, ALVIN_WON_MOST=max(1, self._captures_bound(variant, rule)))
        return dims

    def score_bound(self, variant: ir.Variant, rule: CityMarkersRule) -> int:
        """Every route's points twice (a player holding both its ends); with Alvin, a
        capture at every route's claim and his end points."""
        alvin = self._captures_bound(variant, rule) + rule.alvin_end if rule.alvin_city >= 0 else 0
        return self._markers_bound(variant) + alvin

    @staticmethod
    def _markers_bound(variant: ir.Variant) -> int:
        """The most the markers move: every route's points twice."""
        return 2 * sum(variant.route_points[r.length] for r in variant.routes)

    @staticmethod
    def _captures_bound(variant: ir.Variant, rule: CityMarkersRule) -> int:
        """The most one player's captures score: one at each claim."""
        return rule.alvin_capture * len(variant.routes)

    def tables(self, variant: ir.Variant, rule: CityMarkersRule) -> Tables:
        alvin = rule.alvin_city >= 0
        kinds = (START_CITY, CITY_MARKER, CITY_MARKER_PAY) + ((ALVIN,) if alvin else ())
        ids = {kind: [a.id for a in variant.actions if a.kind == kind] for kind in kinds}
        for kind, listed in ids.items():  # the code reads each kind's ids as one block
            assert listed == list(range(listed[0], listed[0] + len(listed))), kind
        constants = [("MARKER_COST", rule.cost), ("ACT_START_FIRST", ids[START_CITY][0]),
                     ("ACT_MARKER_FIRST", ids[CITY_MARKER][0]),
                     ("ACT_MARKER_NONE", ids[CITY_MARKER][-1]),
                     ("ACT_MARKER_PAY_FIRST", ids[CITY_MARKER_PAY][0]),
                     ("ACT_MARKER_PAY_END", ids[CITY_MARKER_PAY][-1] + 1)]
        if alvin:
            constants += [("ALVIN_FIRST_CITY", rule.alvin_city), ("ALVIN_CAPTURE", rule.alvin_capture),
                          ("ALVIN_END", rule.alvin_end), ("ACT_ALVIN_FIRST", ids[ALVIN][0])]
        return Tables(constants=constants,
                      arrays=[("T_MARKER_CITY_A", [r.a for r in variant.routes]),
                              ("T_MARKER_CITY_B", [r.b for r in variant.routes])],
                      context={"alvin": alvin})

    def agent_play(self, variant: ir.Variant, rule: CityMarkersRule) -> AgentPlay:
        """The start city and a marker's city are chosen by the routes at each city that the
        paths planned for the held tickets use (``by_plan``: no marker when none is); the
        plans count every free route away from the player's network as open, since the
        network may grow there (``network_grows``); a marker's payment is paid as any.
        Alvin goes to the marked city whose routes the player holds the most length of
        (``by_routes``): the fewer routes left free there, the fewer ways a rival has to
        capture him."""
        at = {c.id: tuple(r.id for r in variant.routes if c.id in (r.a, r.b)) for c in variant.cities}
        return AgentPlay(rules={START_CITY: "by_plan", CITY_MARKER: "by_plan", CITY_MARKER_PAY: "pay",
                                ALVIN: "by_routes"},
                         routes={a.id: at[a.city] for a in variant.actions
                                 if a.kind in (START_CITY, CITY_MARKER, ALVIN) and a.city >= 0},
                         network_grows=True)

    def looks(self, variant: ir.Variant, rule: CityMarkersRule) -> Looks:
        """A marker in its owner's colour at its city."""
        return Looks(city_markers=("marker_owner",), legend={"city_markers": "a city marker, in its owner's colour"})

    def state_problems(self, variant: ir.Variant, rule: CityMarkersRule, state: dict) -> list[str]:
        """Each player's markers are on the board or left, ``count`` in all; a start city
        holds its player's marker; every route a player owns joins their start city; a
        marker waits exactly in its phases."""
        problems = []
        owner = state["marker_owner"]
        for p in range(state["players"]):
            placed = owner.count(p)
            if placed + state["markers_left"][p] != rule.count:
                problems.append(f"state field 'markers_left[{p}]': player {p} has {placed} markers placed and "
                                f"{state['markers_left'][p]} left, of {rule.count}")
            start = state["start_city"][p]
            if start >= 0 and owner[start] != p:
                problems.append(f"state field 'start_city[{p}]': {variant.cities[start].name} holds no marker of "
                                f"player {p}")
            if start >= 0:
                problems += self._network_problems(variant, state, p, start)
        phase = state["phase"]
        if (state["marker_route"] != -1) != (phase in (PH_MARKER, PH_MARKER_PAY)):
            problems.append(f"state field 'marker_route': {state['marker_route']} in phase {phase!r}")
        if (state["marker_city"] != -1) != (phase == PH_MARKER_PAY):
            problems.append(f"state field 'marker_city': {state['marker_city']} in phase {phase!r}")
        if rule.alvin_city >= 0:
            problems += self._alvin_problems(variant, rule, state)
        return problems

    @staticmethod
    def _alvin_problems(variant: ir.Variant, rule: CityMarkersRule, state: dict) -> list[str]:
        """No start city in Alvin's first city; a move pending only in its capturer's turn,
        while the marker and Alvin's phases last; a holder's points at least one capture,
        nobody else's any before a capture; and, once moved, Alvin in a city his holder
        marked."""
        problems = []
        first = variant.cities[rule.alvin_city].name
        problems += [f"state field 'start_city[{p}]': player {p} starts in {first}, Alvin's city"
                     for p in range(state["players"]) if state["start_city"][p] == rule.alvin_city]
        holder, pending, phase = state["alvin_holder"], state["alvin_pending"], state["phase"]
        if pending and (holder != state["current"] or phase not in (PH_MARKER, PH_MARKER_PAY, PH_ALVIN)):
            problems.append(f"state field 'alvin_pending': a move pending for player {holder} in phase {phase!r} "
                            f"with player {state['current']} to play")
        if phase == PH_ALVIN and not pending:
            problems.append("state field 'alvin_pending': phase 'alvin' with no move pending")
        if holder == -1 and any(state["alvin_won"]):
            problems.append(f"state field 'alvin_won': {state['alvin_won']} with Alvin never captured")
        if holder >= 0 and state["alvin_won"][holder] < rule.alvin_capture:
            problems.append(f"state field 'alvin_won[{holder}]': {state['alvin_won'][holder]}, less than one "
                            f"capture ({rule.alvin_capture})")
        city = state["alvin_city"]
        if holder == -1 and city != rule.alvin_city:
            problems.append(f"state field 'alvin_city': Alvin left {first} with nobody capturing him")
        if holder >= 0 and not pending and state["marker_owner"][city] != holder:
            problems.append(f"state field 'alvin_city': Alvin in {variant.cities[city].name}, where player {holder} "
                            f"who holds him has no marker")
        return problems

    @staticmethod
    def _network_problems(variant: ir.Variant, state: dict, player: int, start: int) -> list[str]:
        """Routes of ``player`` that their start city's network does not join."""
        mine = [r for r in variant.routes if state["owner"][r.id] == player]
        joined = {start}
        grew = True
        while grew:
            grew = False
            for r in mine:
                if (r.a in joined) != (r.b in joined):
                    joined.update((r.a, r.b))
                    grew = True
        return [f"state field 'owner': player {player}'s route {r.name} is not joined to their start city "
                f"{variant.cities[start].name}" for r in mine if r.a not in joined]
