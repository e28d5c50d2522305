"""Train stations (Europe).

Europe rulebook, Costruire una stazione ferroviaria: a station in a city with none lets
its owner use one route of another player at that city for all their tickets; the first
station costs one card, the second two of one colour, the third three (locomotives
wild); each station not built scores 4. Written ``stations N cost C1 … CN``, ``action
build station`` and ``station bonus N``. At the end the engine picks, for each player,
the use of the stations that scores best by ``stations choose KEY, KEY`` (by default the
most ticket points, then the most tickets completed), then the lowest route ids.

In both engines (docs/engine.md, "Stations"): ``station_owner`` holds each city's station;
``build station CITY`` (a free city, while the player has a station left and can pay its
cost) opens the phase ``station`` with ``station_city`` set, and ``station pay …`` (the
cost of the player's next station) builds it and ends the turn. At scoring, the
``score_graph`` hook picks each player's use of their stations: every assignment of, for
each station in city order, no route or one route of another player at that city; the
best by the ``choose`` keys, then the smallest list of route ids (no route counting as
-1); the chosen routes join the player's network for the tickets only (the longest path
reads the player's own routes).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import ClassVar

from ...compiler import ir
from ...compiler.base import limits
from ...compiler.base.errors import PositionError, Span
from ...compiler.base.limits import MAX_ROUTE_LENGTH, Limit
from ...compiler.base.schema import PH_TURN, Field
from ...compiler.catalogue import payment_text
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import (
    AgentPlay,
    AgentRules,
    DescribedPositions,
    Drawing,
    HardCases,
    Invariants,
    Looks,
    Mechanic,
    PositionKey,
    Sample,
    Sampled,
    ScoreItem,
    Tables,
    TieBreak,
    lookup_name,
    names_in,
)
from .state_view import StationsState
from .syntax import BuildStation, StationBonus, StationKey, StationUse
from .syntax import Stations as StationsStmt

BUILD_STATION = "build_station"
STATION_PAY = "station_pay"
PH_STATION = "station"
NO_ROUTE = -1  # a station that uses no route, in the breakdown and in the choice's order
#: Stations per player: the end of the game tries every use of a player's stations (the
#: compiled choice, choice.pyx, has room for this many: STATIONS_MOST in choice.pxd).
MAX_STATIONS = 5


@dataclass(frozen=True)
class StationsRule(ir.Rule):
    mechanic: ClassVar[str] = "stations"
    count: int                # stations per player
    costs: tuple[int, ...]    # cards the k-th station costs
    bonus: int                # points per station not built
    choose: tuple[str, ...]   # how the best use is picked: "most_points", "most_tickets", in order
    span: Span | None = field(default=None, compare=False)


def route_item(k: int) -> str:
    """The breakdown key of the route the player's k-th station (from 1, city order) uses."""
    return f"station_{k}_route"


def join(labels: list[int], a: int, b: int) -> None:
    """Join the components of nodes ``a`` and ``b`` in a labelling of the nodes."""
    old, new = labels[b], labels[a]
    if old != new:
        for node, label in enumerate(labels):
            if label == old:
                labels[node] = new


def crowded_stations(variant: ir.Variant, count: int, rng) -> dict:
    """A described position on which choosing the use of stations is slow, for the
    benchmark and the tests: player 0 has ``count`` stations in busy cities (drawn among
    the 3 × ``count`` with the most neighbours, so they may be neighbours), every route at
    those cities belongs to the other players (one track of a double route), so each
    station has a route to each neighbour to choose from; player 0's trains are spent on
    separate pieces of network, each grown from one neighbour of a station and touching no
    station's city, so that each route a station may use joins a different piece; and
    player 0 holds all the tickets but two, most of which some use of the stations
    completes. The assignments are then all distinct, and each must score most of the
    tickets: on Europe's map up to 8 × 7 × 7 of them (Paris, Kyiv and Frankfurt)."""
    routes = variant.routes
    players = min(4, variant.max_players)
    near: dict[int, set[int]] = {c.id: set() for c in variant.cities}
    for r in routes:
        near[r.a].add(r.b)
        near[r.b].add(r.a)
    busy = sorted((c.id for c in variant.cities if not c.dead_end), key=lambda c: (-len(near[c]), rng.random()))
    stations = rng.sample(busy[:3 * count], count)
    trains = [variant.trains] * players
    owned: list[list[int]] = [[] for _ in range(players)]
    groups: set[int] = set()
    at_stations = [r for r in routes if r.a in stations or r.b in stations]
    rng.shuffle(at_stations)
    for i, r in enumerate(at_stations):
        for k in range(players - 1):
            p = 1 + (i + k) % (players - 1)
            if r.group not in groups and trains[p] >= r.length:
                owned[p].append(r.id)
                trains[p] -= r.length
                groups.add(r.group)
    seeds = sorted({c for s in stations for c in near[s]} - set(stations))
    rng.shuffle(seeds)
    piece = {c: i for i, c in enumerate(seeds)}
    grew = True
    while grew:  # the pieces grow in turn by a short route that joins no other piece
        grew = False
        for i in range(len(seeds)):
            fits = [r for r in routes if r.group not in groups and r.length <= trains[0]
                    and r.a not in stations and r.b not in stations
                    and sorted((piece.get(r.a, -1), piece.get(r.b, -1))) == [-1, i]]
            if fits:
                shortest = min(r.length for r in fits)
                r = rng.choice([r for r in fits if r.length <= shortest + 1])
                owned[0].append(r.id)
                trains[0] -= r.length
                groups.add(r.group)
                piece.setdefault(r.a, i)
                piece.setdefault(r.b, i)
                grew = True
    tickets = [t.name for t in variant.tickets]
    rng.shuffle(tickets)
    held = [tickets[2:], tickets[:2]] + [[]] * (players - 2)
    seats = [{"routes": [routes[r].name for r in owned[p]], "tickets": held[p]} for p in range(players)]
    seats[0]["stations"] = [variant.cities[c].name for c in sorted(stations)]
    return {"variant": variant.key, "players": seats}


class StationsReference(MechanicReference[StationsState, StationsRule]):
    """Stations in plain Python; the use of stations by trying every assignment."""

    def __init__(self, rules: Services, rule: StationsRule):
        super().__init__(rules, rule)
        self.loco = rules.loco
        v = rules.variant
        self.routes = v.routes
        self.build = {a.city: a.id for a in v.actions if a.kind == BUILD_STATION}
        self.pays = [a for a in v.actions if a.kind == STATION_PAY]
        self.routes_at = {c.id: [r for r in v.routes if c.id in (r.a, r.b)] for c in v.cities}

    def next_cost(self, state: StationsState, player: int) -> int | None:
        """The cost of the player's next station, None when all are built."""
        built = state.station_owner.count(player)
        return self.rule.costs[built] if built < self.rule.count else None

    def turn_actions(self, state: StationsState) -> list[int]:
        """Costruire una Stazione: a free city, a station left, and cards of one colour (or
        locomotives) for its cost."""
        player = state.current
        cost = self.next_cost(state, player)
        hand = state.hands[player]
        if cost is None or not any(hand[c] + hand[self.loco] >= cost for c in range(self.loco)):
            return []
        return [self.build[c] for c in sorted(self.build) if state.station_owner[c] == -1]

    def phase_legal(self, state: StationsState) -> list[int]:
        return self.legal_pay(state)

    def apply(self, state: StationsState, action: ir.Action) -> None:
        (self.choose_city if action.kind == BUILD_STATION else self.pay)(state, action)

    def choose_city(self, state: StationsState, action: ir.Action) -> None:
        state.station_city = action.city
        state.phase = PH_STATION

    def legal_pay(self, state: StationsState) -> list[int]:
        hand = state.hands[state.current]
        cost = self.next_cost(state, state.current)
        return [a.id for a in self.pays if a.colour_cards + a.locomotives == cost and hand[self.loco] >= a.locomotives
                and (not a.colour_cards or hand[a.colour] >= a.colour_cards)]

    def pay(self, state: StationsState, action: ir.Action) -> None:
        hand = state.hands[state.current]
        if action.colour_cards:
            hand[action.colour] -= action.colour_cards
        hand[self.loco] -= action.locomotives
        self.rules.discard_payment(state, action.colour, action.colour_cards, action.locomotives)
        state.station_owner[state.station_city] = state.current
        state.station_city = -1
        state.phase = PH_TURN
        self.rules.end_turn(state, passed=False)

    def options(self, state: StationsState, player: int, city: int) -> list:
        """What one station may use: no route, or a route of another player at its city."""
        return [None] + [r for r in self.routes_at[city] if state.owner[r.id] not in (-1, player)]

    def score_graph(self, state: StationsState, player: int, network: list[int], row: dict) -> None:
        """Calcolo dei punteggi: the use of the player's stations that scores best."""
        cities = [c for c, owner in enumerate(state.station_owner) if owner == player]
        best: tuple[tuple[tuple[int, ...], tuple[int, ...]], list[int]] | None = None
        for choice in product(*(self.options(state, player, c) for c in cities)):
            labels = list(network)
            for route in choice:
                if route is not None:
                    join(labels, route.node_a, route.node_b)
            points, completed = self.rules.ticket_score(state, player, labels)
            value = {"most_points": points, "most_tickets": completed}
            ids = tuple(NO_ROUTE if route is None else route.id for route in choice)
            key = (tuple(-value[k] for k in self.rule.choose), ids)
            if best is None or key < best[0]:
                best = (key, labels)
        assert best is not None  # product() makes at least one choice (none, for no station)
        (_, ids), labels = best
        network[:] = labels
        row["stations"] = self.rule.bonus * (self.rule.count - len(cities))
        row["stations_built"] = len(cities)
        for k in range(self.rule.count):
            row[route_item(k + 1)] = ids[k] if k < len(ids) else NO_ROUTE


class Stations(Mechanic[StationsRule], DescribedPositions[StationsRule], Invariants[StationsRule],
               AgentRules[StationsRule], Drawing[StationsRule], HardCases[StationsRule], Sampled):
    name = "stations"
    order = 100
    title = "train stations"
    sample = Sample(("stations 3 cost 1 2 3", "action build station", "station bonus 4"))
    rule = StationsRule
    state_fields = (
        Field("station_owner", "each city's station: the player who built it (-1: none)", owner="stations",
              size="N_CITIES", low="-1", high="players-1", initial=-1),
        Field("station_city", "the city of the station being paid for (-1: none)", owner="stations", low="-1",
              high="N_CITIES-1", initial=-1, names="city"),
        # the compiled engine's caches, read on every turn: the cities a station may still go
        # to, and each player's stations built (from station_owner)
        Field("station_free", "bit c set while city c may get a station (from station_owner)", owner="stations",
              kind="u64", size="CITY_WORDS", derived=True),
        Field("stations_placed", "each player's stations built (from station_owner)", owner="stations",
              per_player=True, high="STATIONS", derived=True),
    )
    phases = (PH_STATION,)
    kinds = (BUILD_STATION, STATION_PAY)
    reference = StationsReference
    statements = (StationsStmt, StationBonus, StationUse, StationKey, BuildStation)
    limits = (Limit("stations N cost C…", f"N 1 … {MAX_STATIONS}; each C 1 … {MAX_ROUTE_LENGTH}",
                    "the end of the game tries every use of a player's stations: the work grows as a power of N"),)
    score_items = (
        ScoreItem("stations", "the station bonus for each station not built", True, "stations"),
        ScoreItem("stations_built", "how many stations the player built", False, "stations", label="built"),
    )
    position_keys = (PositionKey("stations", "the cities where the player built a station", names="city"),)
    tiebreaks = (
        TieBreak("fewest_stations", "fewest stations", "the fewest stations built",
                 owner="stations",
                 unavailable="tie-break on stations, but the variant has no stations",
                 column="stations_built", sign=-1),
    )

    def check(self, ctx) -> StationsRule | None:
        stmt = ctx.one(StationsStmt)
        count = 0
        costs: tuple[int, ...] = ()
        if stmt:
            count = ctx.positive(stmt.count, "the number of stations")
            if count > MAX_STATIONS:
                ctx.errors.add(stmt.count.span, f"at most {MAX_STATIONS} stations per player are supported, "
                                                f"got {limits.shown_number(count)}")
                count = 0
            costs = tuple(ctx.positive(c, "a station cost") for c in stmt.costs)
            for c in stmt.costs:
                if c.value > MAX_ROUTE_LENGTH:
                    ctx.errors.add(c.span, f"a station cost of {c.value} cards is more than the supported "
                                           f"{MAX_ROUTE_LENGTH}")
            if count and len(costs) != count:
                ctx.errors.add(stmt.span, f"{count} stations need {count} costs, got {len(costs)}")
        action = ctx.action("build_station")
        if action and not stmt:
            ctx.errors.add(action.span, "'action build station' needs a 'stations N cost C…' statement")
        if stmt and not action:
            ctx.errors.add(stmt.span, "stations are declared but no 'action build station' uses them")
        bonus_stmt = ctx.one(StationBonus)
        bonus = ctx.points(bonus_stmt.points if bonus_stmt else None, "the station bonus")
        if bonus_stmt and not stmt:
            ctx.errors.add(bonus_stmt.span, "'station bonus' needs a 'stations' statement")
        choose_stmt = ctx.one(StationUse)
        choose = ("most_points", "most_tickets")
        if choose_stmt:
            if not stmt:
                ctx.errors.add(choose_stmt.span, "'stations choose' needs a 'stations' statement")
            if sorted(choose_stmt.keys) != sorted(choose):
                ctx.errors.add(choose_stmt.span, "'stations choose' names 'most points' and 'most tickets', "
                                                 "each once, in the order they count")
            else:
                choose = choose_stmt.keys
        if not stmt:
            return None
        return StationsRule(count=count, costs=costs, bonus=bonus, choose=choose, span=stmt.span)

    def actions(self, variant: ir.Variant, rule: StationsRule) -> list[dict]:
        """Two decisions: ``build station CITY`` (a city, never a dead end), then the payment,
        ``station pay 2red+1loco``, one id per way to pay any of the costs. One action per
        city and payment would be 47 × 51 ids on Europe's map, most never legal."""
        out = [dict(kind=BUILD_STATION, name=f"build station {city.name}", city=city.id)
               for city in variant.cities if not city.dead_end]
        for cost in sorted(set(rule.costs)):
            for c in variant.colours:
                for locos in range(0, cost):
                    pay = payment_text(c.name, cost - locos, locos)
                    out.append(dict(kind=STATION_PAY, name=f"station pay {pay}", colour=c.id,
                                    colour_cards=cost - locos, locomotives=locos))
            out.append(dict(kind=STATION_PAY, name=f"station pay {cost}loco", colour=ir.NO_COLOUR,
                            colour_cards=0, locomotives=cost))
        return out

    def hard_position(self, variant, rule: StationsRule, rng) -> dict:
        """Player 0's stations where choosing is slowest (``crowded_stations``)."""
        return crowded_stations(variant, rule.count, rng)

    def hard_cases(self, variant, rule, state: dict, rows: list[dict]) -> tuple[str, ...]:
        """A station with two or more routes of other players at its city to choose from."""
        for city, builder in enumerate(state["station_owner"]):
            if builder >= 0 and sum(1 for r in variant.routes if city in (r.a, r.b)
                                    and state["owner"][r.id] not in (-1, builder)) >= 2:
                return ("a station choosing among routes",)
        return ()

    def looks(self, variant, rule) -> Looks:
        """A station: a marker in its owner's colour at its city."""
        return Looks(city_markers=("station_owner",), legend={"city_markers": "a station, in its owner's colour"})

    def agent_play(self, variant, rule) -> AgentPlay:
        # a station lets its owner use one route of another player at its city: the agents
        # build one when that joins a ticket they can no longer join otherwise
        return AgentPlay(rules={STATION_PAY: "pay", BUILD_STATION: "rescue"},
                         routes={a.id: tuple(r.id for r in variant.routes if a.city in (r.a, r.b))
                                 for a in variant.actions if a.kind == BUILD_STATION})

    def variant_score_items(self, variant, rule: StationsRule) -> tuple[ScoreItem, ...]:
        return self.score_items + tuple(
            ScoreItem(route_item(k), f"the route of another player the player's station {k} (in city order) uses "
                                     f"(-1: none)", False, "stations", c_name=f"STATION_ROUTE_{k - 1}",
                      label=f"st{k}", measure="route")
            for k in range(1, rule.count + 1))

    def score_bound(self, variant, rule: StationsRule) -> int:
        return rule.bonus * rule.count

    def dimensions(self, variant, rule: StationsRule) -> dict[str, int]:
        return {"CITY_WORDS": (len(variant.cities) + 63) // 64}

    def tables(self, variant: ir.Variant, rule: StationsRule) -> Tables:
        build = [-1] * len(variant.cities)
        for a in variant.actions:
            if a.kind == BUILD_STATION:
                build[a.city] = a.id
        pays = [a.id for a in variant.actions if a.kind == STATION_PAY]
        city_routes: list[int] = []
        first: list[int] = []
        end: list[int] = []
        for c in variant.cities:
            first.append(len(city_routes))
            city_routes.extend(r.id for r in variant.routes if c.id in (r.a, r.b))
            end.append(len(city_routes))
        city_node = [variant.city_nodes[c.id][0] for c in variant.cities]
        most_routes = max((e - f for f, e in zip(first, end)), default=0)
        return Tables(
            constants=[("STATIONS", rule.count), ("STATION_BONUS", rule.bonus),
                       ("ACT_STATION_PAY_FIRST", pays[0]), ("ACT_STATION_PAY_END", pays[-1] + 1),
                       ("STATION_OPTIONS_CAP", max(1, most_routes)),
                       ("STATION_POINTS_FIRST", int(rule.choose[0] == "most_points"))],
            arrays=[("T_STATION_COST", list(rule.costs)), ("T_CITY_BUILD_ACTION", build or [0]),
                    ("T_ACT_CITY", [a.city for a in variant.actions]),
                    ("T_CITY_ROUTE_FIRST", first or [0]), ("T_CITY_ROUTE_END", end or [0]),
                    ("T_CITY_ROUTES", city_routes or [0]), ("T_CITY_NODE", city_node or [0])])

    def state_problems(self, variant, rule: StationsRule, state: dict) -> list[str]:
        """Stations only in cities (not dead ends), at most ``count`` a player; a station is
        being paid for exactly in the station phase, in a free city, by a player with a
        station left and the cards to pay for it (one colour, locomotives wild: what
        ``build station`` asked before opening the phase)."""
        owner = state["station_owner"]
        problems = []
        for p in range(state["players"]):
            if owner.count(p) > rule.count:
                problems.append(f"state field 'station_owner': player {p} has built {owner.count(p)} stations, "
                                f"of {rule.count}")
        for city in variant.cities:
            if city.dead_end and owner[city.id] != -1:
                problems.append(f"state field 'station_owner': a station stands in {city.name}, a dead end")
        pending = state["station_city"]
        if (pending != -1) != (state["phase"] == PH_STATION):
            problems.append(f"state field 'station_city': {pending} in phase {state['phase']!r}, but a station is "
                            f"being paid for (not -1) exactly in the station phase")
        elif pending != -1:
            player = state["current"]
            built = owner.count(player)
            if owner[pending] != -1 or variant.cities[pending].dead_end:
                problems.append(f"state field 'station_city': a station is being paid for in "
                                f"{variant.cities[pending].name}, where none can be built")
            if built >= rule.count:
                problems.append(f"state field 'station_owner': player {player} pays for a station but has none "
                                f"left")
            else:
                cost, hand, loco = rule.costs[built], state["hands"][player], len(variant.colours)
                if not any(hand[c] + hand[loco] >= cost for c in range(loco)):
                    problems.append(f"state field 'hands[{player}]': player {player} pays for a station of {cost} "
                                    f"cards but holds no {cost} cards of one colour (locomotives wild)")
        return problems

    def position(self, variant, rule: StationsRule, player: int, seat: dict, fields: dict) -> None:
        """``"stations": [city names]``: at most ``count``, a city (not a dead end) each, one
        station a city over all players."""
        where = f"player {player}"
        owner = fields.setdefault("station_owner", [-1] * len(variant.cities))
        names = {c.name: c.id for c in variant.cities}
        cities = names_in(seat, "stations", where)
        if len(cities) > rule.count:
            raise PositionError(f"{where}: {len(cities)} stations, but a player has {rule.count}")
        for name in cities:
            city = lookup_name(names, name, "city", where)
            if variant.cities[city].dead_end:
                raise PositionError(f"{where}: {name!r} is a dead end, where no station can be built")
            if owner[city] != -1:
                who = "already" if owner[city] == player else f"by player {owner[city]}"
                raise PositionError(f"{where}: {name!r} has a station {who}")
            owner[city] = player

    def seat_position(self, variant, rule: StationsRule, state: dict, player: int) -> dict:
        return {"stations": [c.name for c in variant.cities if state["station_owner"][c.id] == player]}

    def score_notes(self, variant, rule: StationsRule, rows: list[dict]) -> list[str]:
        """Which route of another player each station used."""
        lines = []
        for p, row in enumerate(rows):
            used = [variant.routes[row[route_item(k)]].name for k in range(1, rule.count + 1)
                    if row[route_item(k)] != NO_ROUTE]
            built = row["stations_built"]
            if built:
                lines.append(f"player {p}: {built} station{'s' if built > 1 else ''}, using "
                             f"{', '.join(used) if used else 'no route'}")
        return lines
