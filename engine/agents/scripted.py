"""Scripted agents: four playing styles from the playtesting literature, and a greedy one.

Every style works on any variant that loads, with no per-map code: it plans by cheapest
paths over the variant's graph (:mod:`.board`), reads the action catalogue for what each
legal id does, and sees only its player's observation. The styles share one turn
skeleton (:class:`ScriptedAgent`) and differ in four named choices:

- ``keep``: which offered tickets to keep;
- ``wanted``: which open routes it is working towards, best first;
- ``claim``: which legal claim to make now, if any;
- ``wants_tickets``: whether to spend a turn drawing tickets.

Decisions the styles do not plan (a tunnel's extra cost, a station's payment, which
company's share to take) follow common rules: pay a tunnel with the fewest locomotives,
take the share of the company whose routes the player holds most of, never build a
station. The docs (docs/agents.md) describe each style in a paragraph.
"""
from __future__ import annotations

import bisect

from ..compiler import ir
from ..rng import SplitMix64
from .board import UNREACHABLE, board_of, Planner
from .catalogue import catalogue_of

#: Salts an agent's seed so two agents given the same seed still draw differently.
SCRIPTED_SALT = 0x2545F4914F6CDD1D


class ScriptedAgent:
    """The turn skeleton every scripted style shares. Subclasses override the named
    choices; :meth:`act` is the agent protocol's one method."""

    name = "scripted"
    #: whether a face-up locomotive is worth a whole draw turn to this style
    takes_locomotives = True

    def __init__(self, seed: int = 0):
        self.rng = SplitMix64((int(seed) % 2**64) ^ SCRIPTED_SALT)
        self._planners: dict[tuple[int, int], Planner] = {}
        self._game_key = None
        self._last_turn = 0

    # --- the protocol ------------------------------------------------------------
    def act(self, game) -> int:
        """The action this style takes in ``game`` for the player about to decide."""
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        variant = game.variant.ir
        obs = game.observation()
        cat = catalogue_of(variant)
        planner = self._planner_for(game, variant, obs)
        paths = planner.update(obs["owner"], obs["tickets"], obs["players"])
        turn = _Turn(self, variant, cat, obs, legal, planner, paths)
        kinds = turn.by_kind
        if ir.KEEP_TICKETS in kinds:
            return self.keep(turn, kinds[ir.KEEP_TICKETS])
        if "tunnel_pay" in kinds or "tunnel_decline" in kinds:
            return self.pay_tunnel(turn)
        if "station_pay" in kinds:
            return min(kinds["station_pay"], key=lambda a: (cat.locomotives[a], -turn.hand_of(cat.colour[a])))
        if "take_share" in kinds or "neutral_share" in kinds:
            return self.share(turn, kinds.get("take_share") or kinds["neutral_share"])
        if ir.CLAIM in kinds:
            choice = self.claim(turn, kinds[ir.CLAIM])
            if choice is not None:
                return choice
        if ir.DRAW_TICKETS in kinds and self.wants_tickets(turn):
            return kinds[ir.DRAW_TICKETS][0]
        choice = self.draw(turn)
        if choice is not None:
            return choice
        if ir.CLAIM in kinds:  # nothing to draw: any claim beats passing
            return turn.best_payment(max(turn.claimable, key=lambda r: (turn.board.length[r], -r)))
        if ir.DRAW_TICKETS in kinds:
            return kinds[ir.DRAW_TICKETS][0]
        if ir.PASS in kinds:
            return kinds[ir.PASS][0]
        return legal[self.rng.below(len(legal))]

    def _planner_for(self, game, variant, obs) -> Planner:
        # A new game (or one rewound) starts the plans afresh.
        if self._game_key != id(game) or obs["turn"] < self._last_turn:
            self._planners.clear()
        self._game_key, self._last_turn = id(game), obs["turn"]
        key = (id(variant), obs["player"])
        planner = self._planners.get(key)
        if planner is None:
            planner = self._planners[key] = Planner(board_of(variant), obs["player"])
        return planner

    # --- the named choices (overridden by the styles) --------------------------------
    def keep(self, turn: "_Turn", options: list[int]) -> int:
        """Keep the fewest tickets allowed, the cheapest to complete for their points."""
        return turn.keep_best(options, lambda t, path: -path.cost * 4 + turn.points(t), fewest=True)

    def wanted(self, turn: "_Turn") -> list[int]:
        """Open routes on the paths of the player's incomplete tickets."""
        return turn.ticket_routes()

    def claim(self, turn: "_Turn", claims: list[int]) -> int | None:
        """A legal claim of a wanted route, the one scoring most."""
        for route in sorted(self.wanted(turn), key=lambda r: -turn.board.points[r]):
            if turn.claims_of(route):
                return turn.best_payment(route)
        return turn.endgame_claim()

    def wants_tickets(self, turn: "_Turn") -> bool:
        """Draw tickets once every ticket held is complete or lost, with trains to spare."""
        return not turn.ticket_routes() and turn.trains >= 12

    def draw(self, turn: "_Turn") -> int | None:
        """Draw towards the wanted route closest to being affordable."""
        return turn.draw_towards(self.wanted(turn), self.takes_locomotives)

    def pay_tunnel(self, turn: "_Turn") -> int:
        """Pay a tunnel's extra cost with the fewest locomotives; withdraw if unaffordable."""
        pays = turn.by_kind.get("tunnel_pay")
        if pays:
            return min(pays, key=lambda a: (turn.cat.locomotives[a], a))
        return turn.by_kind["tunnel_decline"][0]

    def share(self, turn: "_Turn", options: list[int]) -> int:
        """The company whose routes the player owns most length of."""
        owned = {}
        for r, who in enumerate(turn.obs["owner"]):
            if who == turn.player:
                for c in turn.variant.routes[r].companies:
                    owned[c] = owned.get(c, 0) + turn.board.length[r]
        return max(options, key=lambda a: (owned.get(turn.cat.company[a], 0), -a))


class _Turn:
    """One decision's facts, computed once and shared by the choices."""

    def __init__(self, agent, variant, cat, obs, legal, planner, paths):
        self.agent = agent
        self.variant = variant
        self.cat = cat
        self.obs = obs
        self.legal = legal
        self.planner = planner
        self.paths = paths
        self.board = planner.board
        self.player = obs["player"]
        self.hand = obs["hand"]
        self.trains = obs["trains"][self.player]
        # The catalogue lays kinds out in runs and each route's claims in one run, so the
        # legal ids of a kind or a route are a slice of the sorted legal list.
        by_kind: dict[str, list[int]] = {}
        first = 0
        kind = cat.kind
        while first < len(legal):
            k = kind[legal[first]]
            end = bisect.bisect_left(legal, cat.kind_end[legal[first]], first)
            by_kind.setdefault(k, []).extend(legal[first:end])
            first = end
        self.by_kind = by_kind
        self._claims = by_kind.get(ir.CLAIM, [])
        self._claim_routes = None
        self._most_held = None

    def claims_of(self, route: int) -> list[int]:
        """The legal claims of ``route`` (empty when it cannot be claimed now)."""
        start, end = self.cat.route_ids[route]
        claims = self._claims
        return claims[bisect.bisect_left(claims, start):bisect.bisect_left(claims, end)]

    @property
    def claimable(self) -> list[int]:
        """Every route with a legal claim now."""
        if self._claim_routes is None:
            route = self.cat.route
            self._claim_routes = sorted({route[a] for a in self._claims})
        return self._claim_routes

    def hand_of(self, colour: int) -> int:
        return self.hand[colour] if colour >= 0 else self.hand[self.cat.locomotive_card]

    def points(self, ticket: int) -> int:
        return self.board.ticket_points[ticket]

    def open_on(self, path) -> list[int]:
        owner = self.obs["owner"]
        return [r for r in path.routes if owner[r] == -1]

    def ticket_routes(self, tickets=None) -> list[int]:
        """Open routes on the paths of incomplete, still reachable tickets (each once)."""
        seen: dict[int, None] = {}
        for t in (self.obs["tickets"] if tickets is None else tickets):
            path = self.paths.get(t)
            if path is None or path.cost == 0 or path.cost >= UNREACHABLE:
                continue
            for r in self.open_on(path):
                seen[r] = None
        return list(seen)

    def best_payment(self, route: int) -> int:
        """Of the legal claims of ``route``, the one spending the fewest locomotives and
        ferry cards, then the colour the player holds most of."""
        cat = self.cat
        return min(self.claims_of(route),
                   key=lambda a: (cat.locomotives[a], cat.ferry_cards[a], -self.hand_of(cat.colour[a]), a))

    def endgame_claim(self) -> int | None:
        """When few trains are left, the longest route they still pay for."""
        if not self._claims or self.trains > max(6, self.board.longest + 1):
            return None
        return self.best_payment(max(self.claimable, key=lambda r: (self.board.length[r], -r)))

    def deficit(self, route: int) -> tuple[int, int]:
        """Cards still missing to claim ``route``, and the colour to collect for it."""
        length = self.board.length[route]
        locos = self.hand[self.cat.locomotive_card]
        colour = self.board.colour[route]
        if colour == ir.GRAY:
            colour = self.most_held
        return max(0, length - self.hand[colour] - locos), colour

    @property
    def most_held(self) -> int:
        """The colour the player holds most cards of (the lowest id among equals)."""
        if self._most_held is None:
            hand = self.hand
            self._most_held = max(range(self.cat.locomotive_card), key=lambda c: (hand[c], -c))
        return self._most_held

    def draw_towards(self, routes: list[int], takes_locomotives: bool) -> int | None:
        """Draw the face-up card the closest wanted route needs, a locomotive when that is
        worth it, else blind; any draw when nothing is wanted."""
        cat = self.cat
        faceups = {cat.colour[a]: a for a in self.by_kind.get(ir.DRAW_FACEUP, ())}
        blind = self.by_kind.get(ir.DRAW_BLIND)
        ferry = self.by_kind.get("draw_ferry")
        target = None
        if routes:
            target = min(routes, key=lambda r: (self.deficit(r)[0] or UNREACHABLE, -self.board.length[r], r))
        if target is not None:
            missing, colour = self.deficit(target)
            if ferry and self.variant.routes[target].wave_spaces and self.hand[cat.locomotive_card] < 1:
                return ferry[0]
            if colour in faceups:
                return faceups[colour]
            if takes_locomotives and missing >= 2 and ir.NO_COLOUR in faceups:
                return faceups[ir.NO_COLOUR]
        if blind:
            return blind[0]
        if faceups:
            return max(faceups.values(), key=lambda a: (self.hand_of(cat.colour[a]), -a))
        if ferry:
            return ferry[0]
        return None

    def keep_best(self, options: list[int], value, fewest: bool) -> int:
        """The keep action whose tickets add up to the most ``value(ticket, path)``:
        among the smallest allowed sets when ``fewest``, else among all."""
        offer = self.obs["offer"] or self.obs["setup_offer"]
        owner = self.obs["owner"]
        players = self.obs["players"]
        paths = [self.planner.path_for(owner, t, players) for t in offer]
        values = [value(t, p) for t, p in zip(offer, paths)]
        masks = {a: self.cat.mask[a] for a in options}
        size = min(bin(m).count("1") for m in masks.values())

        def worth(a):
            m = masks[a]
            return sum(values[i] for i in range(len(offer)) if m >> i & 1), -a

        pool = [a for a in options if not fewest or bin(masks[a]).count("1") == size]
        return max(pool, key=worth)


class OneStepAgent(ScriptedAgent):
    """One-step thinking: the best thing for its tickets this turn, no further."""

    name = "one-step"


class LongRouteAgent(ScriptedAgent):
    """Long route exploitation: the longest routes on the map for their points."""

    name = "long-route"
    takes_locomotives = True

    def _long(self, turn) -> list[int]:
        owner = turn.obs["owner"]
        usable = turn.board.open_routes(owner, turn.player, turn.obs["players"])
        floor = max(3, turn.board.longest - 1)
        return sorted((r for r, ok in enumerate(usable) if ok and turn.board.length[r] >= floor),
                      key=lambda r: (-turn.board.length[r], r))

    def wanted(self, turn) -> list[int]:
        if turn.trains < turn.board.longest - 1:
            return turn.ticket_routes()
        return self._long(turn) + turn.ticket_routes()

    def claim(self, turn, claims) -> int | None:
        for route in self._long(turn):
            if turn.board.length[route] <= turn.trains and turn.claims_of(route):
                return turn.best_payment(route)
        return super().claim(turn, claims) if turn.trains < 15 else turn.endgame_claim()

    def keep(self, turn, options) -> int:
        return turn.keep_best(options, lambda t, path: -path.cost, fewest=True)

    def wants_tickets(self, turn) -> bool:
        return False


class RouteFocusAgent(ScriptedAgent):
    """Route focus: one ticket at a time, the most valuable first."""

    name = "route-focus"
    takes_locomotives = False

    def _focus(self, turn) -> list[int]:
        live = [t for t in turn.obs["tickets"]
                if 0 < turn.paths[t].cost < UNREACHABLE and turn.paths[t].cost <= turn.trains]
        if not live:
            return turn.ticket_routes()
        best = max(live, key=lambda t: (turn.points(t), -turn.paths[t].cost, -t))
        return sorted(turn.open_on(turn.paths[best]), key=lambda r: (-turn.board.length[r], r))

    def wanted(self, turn) -> list[int]:
        return self._focus(turn)

    def claim(self, turn, claims) -> int | None:
        for route in self._focus(turn):  # the longest first: the hardest to get later
            if turn.claims_of(route):
                return turn.best_payment(route)
        return turn.endgame_claim()

    def keep(self, turn, options) -> int:
        trains = turn.trains
        return turn.keep_best(options, lambda t, path: turn.points(t) if path.cost <= trains else -path.cost,
                              fewest=True)

    def wants_tickets(self, turn) -> bool:
        return not turn.ticket_routes() and turn.trains >= 15


class DestinationHungryAgent(ScriptedAgent):
    """Destination hungry: as many tickets as its trains can join, routes shared by most."""

    name = "destination-hungry"

    def wanted(self, turn) -> list[int]:
        counts: dict[int, int] = {}
        for t in turn.obs["tickets"]:
            path = turn.paths[t]
            if 0 < path.cost < UNREACHABLE:
                for r in turn.open_on(path):
                    counts[r] = counts.get(r, 0) + 1
        return sorted(counts, key=lambda r: (-counts[r], -turn.board.length[r], r))

    def claim(self, turn, claims) -> int | None:
        for route in self.wanted(turn):
            if turn.claims_of(route):
                return turn.best_payment(route)
        return turn.endgame_claim()

    def keep(self, turn, options) -> int:
        budget = turn.trains - sum(turn.paths[t].cost for t in turn.obs["tickets"]
                                   if turn.paths[t].cost < UNREACHABLE)
        return turn.keep_best(options, lambda t, path: turn.points(t) if path.cost <= budget else -2 * path.cost,
                              fewest=False)

    def wants_tickets(self, turn) -> bool:
        left = sum(turn.paths[t].cost for t in turn.obs["tickets"] if 0 < turn.paths[t].cost < UNREACHABLE)
        return left * 2 <= turn.trains and turn.trains >= 10


class GreedyAgent(ScriptedAgent):
    """Greedy: whatever scores most this turn."""

    name = "greedy"

    def claim(self, turn, claims) -> int | None:
        gain: dict[int, int] = {}
        for route in turn.claimable:
            points = turn.board.points[route]
            for t in turn.obs["tickets"]:
                path = turn.paths[t]
                if 0 < path.cost < UNREACHABLE and turn.open_on(path) == [route]:
                    points += turn.points(t)
            gain[route] = points
        if not gain:
            return None
        route = max(gain, key=lambda r: (gain[r], -r))
        return turn.best_payment(route)

    def keep(self, turn, options) -> int:
        return turn.keep_best(options, lambda t, path: turn.points(t) - path.cost, fewest=True)

    def wants_tickets(self, turn) -> bool:
        return False

    def draw(self, turn) -> int | None:
        cat = turn.cat
        faceups = {cat.colour[a]: a for a in turn.by_kind.get(ir.DRAW_FACEUP, ())}
        if ir.NO_COLOUR in faceups:
            return faceups[ir.NO_COLOUR]
        if faceups:
            best = max(faceups, key=lambda c: (turn.hand_of(c), -c))
            if turn.hand_of(best) > 0:
                return faceups[best]
        return turn.draw_towards([], False)
