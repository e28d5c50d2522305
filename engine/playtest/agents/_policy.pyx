# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, nonecheck=False
"""The scripted playing styles, compiled once for every variant (docs/agents.md).

A :class:`Policy` holds one variant's map and catalogue as C arrays (built by
:mod:`railspec.agents.tables` from the IR). A :class:`Seat` is one agent's memory: its
style, its generator and its cached plan. :meth:`Policy.decide` chooses from an agent
view (the ints of engine_api.h: the player's hand, trains, tickets, the offer in front of
them, every route's owner and whether the rules let the player claim it) and the legal
ids, so the styles see what the player sees and nothing else. The view comes from the
compiled engine's own C function, or from the reference engine's ``agent_view()`` (the
player's observation, and the rules' claimable routes); the choice is the same either way.

:meth:`Policy.playout` plays a compiled game with a style in every seat without leaving
C, for the search agents' rollouts: to its end, or for a given number of decisions and then
:meth:`Policy.estimate` judges the position (each seat's final score as the position
promises it). :meth:`Policy.portfolio` asks several seats what they would play in one call.

Every choice breaks ties by a stated key ending in the lowest id, so a seeded game of
agents replays exactly.
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset
from cpython.pycapsule cimport PyCapsule_GetPointer

from engine_api cimport (RAILSPEC_ENGINE_API_NAME, RAILSPEC_ENGINE_API_VERSION, RAILSPEC_ENGINE_STATE_NAME,
                         RV_HEADER, RV_OFFER_N, RV_PLAYER, RV_PLAYERS, RV_TICKETS_N, RV_TRAINS,
                         railspec_engine_api)

# The styles (railspec.agents.scripted names them).
cdef enum:
    ONE_STEP = 0
    LONG_ROUTE = 1
    ROUTE_FOCUS = 2
    DESTINATION_HUNGRY = 3
    GREEDY = 4

# What an action is to the styles: the core kinds, then the generic rules a mechanic's
# kinds are played by (Mechanic.agent_play: docs/agents.md).
cdef enum:
    K_OTHER = 0        # a kind no rule covers: taken only when nothing else is legal
    K_DRAW_BLIND = 1
    K_DRAW_FACEUP = 2
    K_CLAIM = 3
    K_DRAW_TICKETS = 4
    K_KEEP = 5
    K_PASS = 6
    K_PAY = 7          # a payment completing something started: the fewest locomotives
    K_WITHDRAW = 8     # giving up what was started: only when no payment is legal
    K_BY_ROUTES = 9    # a choice among options tied to routes: the one whose routes the player holds most of
    K_PAYMENT_DRAW = 10  # drawing what a claim may pay besides cards: for a wanted route that takes it
    K_RESCUE = 11      # an option letting the player use one of its routes owned by another (a station):
                       # taken when it joins a ticket that can no longer be joined otherwise
    N_KINDS = 12

DEF UNREACHABLE = 1 << 30
DEF MAX_PLAYERS = 16
# The value estimate's weights, fitted (least squares) to the final scores the playing
# styles reach from positions of their own 2-player USA games (bench/fit_value_estimate.py,
# rounded; docs/agents.md): the chance of
# completing an open ticket that fits the trains a seat will still lay is TICKET_SURE for
# one a train away, falling by TICKET_FADE a train, never below TICKET_FLOOR (a long way is
# more often blocked or cut short by the game's end); a train still to lay is worth
# TRAIN_WORTH times the map's route points per train (it also buys the longest-route bonus
# and later tickets), a card in hand HAND_WORTH times.
DEF TICKET_SURE = 0.75
DEF TICKET_FADE = 0.03
DEF TICKET_FLOOR = 0.4
DEF TRAIN_WORTH = 1.45
DEF HAND_WORTH = 0.25

#: The styles by the names the agents go by.
STYLES = {"one-step": ONE_STEP, "long-route": LONG_ROUTE, "route-focus": ROUTE_FOCUS,
          "destination-hungry": DESTINATION_HUNGRY, "greedy": GREEDY}
#: The code of a kind no rule covers.
OTHER = K_OTHER
#: The rule names Mechanic.agent_rules may use, and the core kinds' codes.
RULES = {"pay": K_PAY, "withdraw": K_WITHDRAW, "by_routes": K_BY_ROUTES, "payment_draw": K_PAYMENT_DRAW,
         "rescue": K_RESCUE, "never": K_OTHER}
CORE_KINDS = {"draw_blind": K_DRAW_BLIND, "draw_faceup": K_DRAW_FACEUP, "claim": K_CLAIM,
              "draw_tickets": K_DRAW_TICKETS, "keep_tickets": K_KEEP, "pass": K_PASS}


cdef inline unsigned long long splitmix_next(unsigned long long* state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef unsigned long long z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int below(unsigned long long* state, int n) noexcept nogil:
    return <int>(splitmix_next(state) % <unsigned long long>n)


cdef int* _array(object values) except NULL:
    cdef Py_ssize_t n = len(values), k
    cdef int* out = <int*>malloc((n + 1) * sizeof(int))
    if out == NULL:
        raise MemoryError()
    for k in range(n):
        out[k] = values[k]
    return out


cdef struct Plan:
    # One seat's cheapest paths, valid for the owner array and player count they were
    # planned on; a ticket's path is planned on first use.
    int player
    int players
    int valid
    int* owner_seen        # [n_routes]
    char* open_route       # [n_routes]: the view's open flags the plan was made on
    int* planned           # [n_tickets]: 1 when cost/path below are current
    int* cost              # [n_tickets]: trains still to lay, UNREACHABLE if impossible
    int* path_start        # [n_tickets]: the ticket's open routes, path_routes[start:start+len]
    int* path_len
    int* path_routes       # [n_tickets * n_nodes]
    char* borrowed         # [n_routes]: another player's routes this seat's rescues let it use
    int claimed_seen       # routes claimed when last planned: fewer means a new game


cdef struct Turn:
    # One decision's facts.
    int style
    int player
    int players
    int trains
    const int* hand
    const int* owner
    const int* open            # [n_routes]: 1 where the rules let the player claim (engine_api.h)
    const int* tickets
    int tickets_n
    const int* offer
    int offer_n
    const int* legal
    int n_legal
    int kind_first[N_KINDS]    # the lowest legal id of each kind, or -1
    int kind_count[N_KINDS]
    int claims_ready           # best_pay below is filled
    int faceup[64]             # a card's face-up draw action, or -1 (cards < 64)
    int most_held


cdef class Policy:
    """One variant's map and catalogue for the scripted styles, as C arrays."""

    cdef int n_routes, n_nodes, n_cards, loco, n_tickets, n_actions, longest
    cdef int* route_len
    cdef int* route_colour     # -1 for gray
    cdef int* route_points
    cdef int* route_paid       # 1 when some payment of the route pays in a payment column
    cdef int* adj_start        # edges at node n: adj_node/adj_route[adj_start[n]:adj_start[n+1]]
    cdef int* adj_node
    cdef int* adj_route
    cdef int* city_start       # graph nodes of city c: city_node[city_start[c]:...]
    cdef int* city_node
    cdef int* ticket_a
    cdef int* ticket_b
    cdef int* ticket_points
    cdef int* act_kind
    cdef int* act_route
    cdef int* act_card         # the card an action pays or draws (loco for locomotives only), -1
    cdef int* act_locos
    cdef int* act_paid         # what a claim pays in payment columns, all together
    cdef int* act_mask
    cdef int* act_rel_start    # the routes action a is about (by_routes): act_rel[act_rel_start[a]:...]
    cdef int* act_rel
    # scratch for one decision (a Policy decides one thing at a time)
    cdef int* best_pay         # [n_routes]: the best legal claim of each route, or -1
    cdef int* claimable        # routes with a legal claim, ascending
    cdef int n_claimable
    cdef int* list_a           # [n_routes] route lists
    cdef int* list_b
    cdef int* count            # [n_routes]
    cdef char* mark            # [n_routes]
    cdef int* lost             # [n_routes]: routes a plan's player lost since it was made
    cdef int* dist             # [n_nodes]
    cdef int* via              # [n_nodes]
    cdef long long* heap       # [2 * n_routes + n_nodes + 1]
    cdef int* offer_cost       # [n_tickets]
    cdef int* scratch_legal    # [n_actions]
    cdef int* scratch_view     # [view size]
    cdef int view_cap
    # the value estimate (Policy.estimate)
    cdef double train_value    # route points a train earns, over the whole map
    cdef int* est_views        # [MAX_PLAYERS * view_cap]: each seat's view
    cdef int* est_cost         # [n_tickets]: an open ticket's trains still to lay
    cdef int* est_points
    cdef char* est_open        # [n_routes]
    cdef char* est_borrowed    # [n_routes], all 0: the estimate lends no route

    def __cinit__(self, tables):
        """``tables``: a dict of int lists (railspec.agents.tables.policy_tables)."""
        cdef int k
        self.n_routes = tables["n_routes"]
        self.n_nodes = tables["n_nodes"]
        self.n_cards = tables["n_cards"]
        self.loco = self.n_cards - 1
        self.n_tickets = tables["n_tickets"]
        self.n_actions = tables["n_actions"]
        self.longest = tables["longest"]
        self.route_len = _array(tables["route_len"])
        self.route_colour = _array(tables["route_colour"])
        self.route_points = _array(tables["route_points"])
        self.route_paid = _array(tables["route_paid"])
        self.adj_start = _array(tables["adj_start"])
        self.adj_node = _array(tables["adj_node"])
        self.adj_route = _array(tables["adj_route"])
        self.city_start = _array(tables["city_start"])
        self.city_node = _array(tables["city_node"])
        self.ticket_a = _array(tables["ticket_a"])
        self.ticket_b = _array(tables["ticket_b"])
        self.ticket_points = _array(tables["ticket_points"])
        self.act_kind = _array(tables["act_kind"])
        self.act_route = _array(tables["act_route"])
        self.act_card = _array(tables["act_card"])
        self.act_locos = _array(tables["act_locos"])
        self.act_paid = _array(tables["act_paid"])
        self.act_mask = _array(tables["act_mask"])
        self.act_rel_start = _array(tables["act_rel_start"])
        self.act_rel = _array(tables["act_rel"])
        if self.n_cards > 64:
            raise ValueError(f"{self.n_cards} card kinds; the scripted styles handle at most 64")
        self.view_cap = RV_HEADER + self.n_cards + 2 * self.n_routes + 2 * self.n_tickets + 8
        self.best_pay = <int*>malloc((self.n_routes + 1) * sizeof(int))
        self.claimable = <int*>malloc((self.n_routes + 1) * sizeof(int))
        self.list_a = <int*>malloc((self.n_routes + 1) * sizeof(int))
        self.list_b = <int*>malloc((self.n_routes + 1) * sizeof(int))
        self.count = <int*>calloc(self.n_routes + 1, sizeof(int))
        self.mark = <char*>calloc(self.n_routes + 1, 1)
        self.lost = <int*>malloc((self.n_routes + 1) * sizeof(int))
        self.dist = <int*>malloc((self.n_nodes + 1) * sizeof(int))
        self.via = <int*>malloc((self.n_nodes + 1) * sizeof(int))
        self.heap = <long long*>malloc((2 * self.n_routes + self.n_nodes + 1) * sizeof(long long))
        self.offer_cost = <int*>malloc((self.n_tickets + 1) * sizeof(int))
        self.scratch_legal = <int*>malloc((self.n_actions + 1) * sizeof(int))
        self.scratch_view = <int*>malloc(self.view_cap * sizeof(int))
        self.est_views = <int*>malloc(MAX_PLAYERS * self.view_cap * sizeof(int))
        self.est_cost = <int*>malloc((self.n_tickets + 1) * sizeof(int))
        self.est_points = <int*>malloc((self.n_tickets + 1) * sizeof(int))
        self.est_open = <char*>calloc(self.n_routes + 1, 1)
        self.est_borrowed = <char*>calloc(self.n_routes + 1, 1)
        if not (self.best_pay and self.claimable and self.list_a and self.list_b and self.count and self.mark
                and self.dist and self.via and self.heap and self.offer_cost and self.scratch_legal
                and self.scratch_view and self.est_views and self.est_cost and self.est_points and self.est_open
                and self.est_borrowed and self.lost):
            raise MemoryError()
        length = sum(tables["route_len"])
        self.train_value = sum(tables["route_points"]) / length if length else 0.0
        for k in range(self.n_routes):
            self.best_pay[k] = -1

    def __dealloc__(self):
        cdef int** arrays = [self.route_len, self.route_colour, self.route_points, self.route_paid,
                             self.act_rel_start, self.act_rel, self.adj_start,
                             self.adj_node, self.adj_route, self.city_start, self.city_node, self.ticket_a,
                             self.ticket_b, self.ticket_points, self.act_kind, self.act_route, self.act_card,
                             self.act_locos, self.act_paid, self.act_mask, self.best_pay,
                             self.claimable, self.list_a, self.list_b, self.count, self.dist, self.via,
                             self.offer_cost, self.scratch_legal, self.scratch_view, self.est_views,
                             self.est_cost, self.est_points, self.lost]
        cdef int k
        for k in range(34):
            free(arrays[k])
        free(self.mark)
        free(self.heap)
        free(self.est_open)
        free(self.est_borrowed)

    # --- planning ----------------------------------------------------------------------
    cdef int cheapest_path(self, const int* owner, int player, const char* open_route, const char* borrowed,
                           int ticket, int* routes_out, int* routes_n) noexcept nogil:
        """The cheapest way to join a ticket's cities (own and borrowed routes free, open
        routes at their length, the rest closed): its cost, UNREACHABLE when there is none,
        and the open routes on it from the far end back."""
        cdef int n, k, e, node, other, route, step, nd, d, size = 0, child, parent
        cdef long long item, top
        cdef int a = self.ticket_a[ticket], b = self.ticket_b[ticket]
        routes_n[0] = 0
        for n in range(self.n_nodes):
            self.dist[n] = UNREACHABLE
            self.via[n] = -1
        for k in range(self.city_start[a], self.city_start[a + 1]):
            node = self.city_node[k]
            self.dist[node] = 0
            size = heap_push(self.heap, size, <long long>node)
        while size > 0:
            top = self.heap[0]
            size = heap_pop(self.heap, size)
            d = <int>(top >> 32)
            node = <int>(top & 0xFFFFFFFFLL)
            if d > self.dist[node]:
                continue
            for k in range(self.city_start[b], self.city_start[b + 1]):
                if self.city_node[k] == node:
                    # the path back, keeping the routes still to claim
                    while self.via[node] != -1:
                        route = self.via[node]
                        if owner[route] != player and not borrowed[route]:
                            routes_out[routes_n[0]] = route
                            routes_n[0] += 1
                        node = self.adj_node_other(route, node)
                    return d
            for e in range(self.adj_start[node], self.adj_start[node + 1]):
                other = self.adj_node[e]
                route = self.adj_route[e]
                if owner[route] == player or borrowed[route]:
                    step = 0
                elif open_route[route]:
                    step = self.route_len[route]
                else:
                    continue
                nd = d + step
                if nd < self.dist[other]:
                    self.dist[other] = nd
                    self.via[other] = route
                    size = heap_push(self.heap, size, (<long long>nd << 32) | other)
        return UNREACHABLE

    cdef inline int adj_node_other(self, int route, int node) noexcept nogil:
        # the node at the other end of ``route`` from ``node``
        cdef int e
        for e in range(self.adj_start[node], self.adj_start[node + 1]):
            if self.adj_route[e] == route:
                return self.adj_node[e]
        return node

    cdef void refresh(self, Plan* plan, const int* owner, const int* open, int player, int players) noexcept nogil:
        """Bring the plan up to the board: forget it if the seat changed or a route became
        cheaper for the player (claimed by them, or opened); when routes were only lost to
        them (claimed by another player, or closed), forget just the tickets whose path used
        one. A path that avoids every lost route is still the one a new search finds: every
        other way only got longer, and the search's order among equal keys is by node.
        Forget the borrowed routes too when the board has fewer claims than before (a new
        game)."""
        cdef int r, k, j, ticket, claimed = 0, n_lost = 0
        cdef bint fresh_game
        for r in range(self.n_routes):
            claimed += owner[r] >= 0
        fresh_game = claimed < plan.claimed_seen
        if fresh_game:
            memset(plan.borrowed, 0, self.n_routes)
        plan.claimed_seen = claimed
        if plan.valid and plan.player == player and plan.players == players and not fresh_game:
            for r in range(self.n_routes):
                if plan.owner_seen[r] == owner[r] and plan.open_route[r] == (open[r] != 0):
                    continue
                if ((owner[r] == player and plan.owner_seen[r] != player)
                        or (open[r] != 0 and not plan.open_route[r] and owner[r] != player)):
                    n_lost = -1  # cheaper for the player: any path may change
                    break
                self.lost[n_lost] = r
                n_lost += 1
            if n_lost == 0:
                return
            if n_lost > 0:
                for k in range(n_lost):
                    self.mark[self.lost[k]] = 1
                for ticket in range(self.n_tickets):
                    if not plan.planned[ticket]:
                        continue
                    for j in range(plan.path_start[ticket], plan.path_start[ticket] + plan.path_len[ticket]):
                        if self.mark[plan.path_routes[j]]:
                            plan.planned[ticket] = 0
                            break
                for k in range(n_lost):
                    self.mark[self.lost[k]] = 0
                memcpy(plan.owner_seen, owner, self.n_routes * sizeof(int))
                for r in range(self.n_routes):
                    plan.open_route[r] = open[r] != 0
                return
        plan.player = player
        plan.players = players
        plan.valid = 1
        memcpy(plan.owner_seen, owner, self.n_routes * sizeof(int))
        for r in range(self.n_routes):
            plan.open_route[r] = open[r] != 0
        memset(plan.planned, 0, self.n_tickets * sizeof(int))

    cdef int path_cost(self, Plan* plan, int ticket) noexcept nogil:
        """A ticket's cost on the current plan, planning it on first use."""
        cdef int n
        if not plan.planned[ticket]:
            plan.path_start[ticket] = ticket * self.n_nodes
            plan.cost[ticket] = self.cheapest_path(plan.owner_seen, plan.player, plan.open_route, plan.borrowed,
                                                   ticket, plan.path_routes + ticket * self.n_nodes, &n)
            plan.path_len[ticket] = n
            plan.planned[ticket] = 1
        return plan.cost[ticket]

    # --- one decision's facts ----------------------------------------------------------
    cdef void begin(self, Turn* t, int style, const int* view, const int* legal, int n_legal) noexcept nogil:
        cdef int k, a, kind, c, best
        t.style = style
        t.player = view[RV_PLAYER]
        t.players = view[RV_PLAYERS]
        t.trains = view[RV_TRAINS]
        t.hand = view + RV_HEADER
        t.owner = t.hand + self.n_cards
        t.open = t.owner + self.n_routes
        t.tickets_n = view[RV_TICKETS_N]
        t.tickets = t.open + self.n_routes
        t.offer_n = view[RV_OFFER_N]
        t.offer = t.tickets + t.tickets_n
        t.legal = legal
        t.n_legal = n_legal
        t.claims_ready = 0
        for k in range(N_KINDS):
            t.kind_first[k] = -1
            t.kind_count[k] = 0
        for c in range(self.n_cards):
            t.faceup[c] = -1
        for k in range(n_legal):
            a = legal[k]
            kind = self.act_kind[a]
            if t.kind_first[kind] == -1:
                t.kind_first[kind] = a
            t.kind_count[kind] += 1
            if kind == K_DRAW_FACEUP and self.act_card[a] >= 0:
                t.faceup[self.act_card[a]] = a
        best = 0
        for c in range(1, self.loco):
            if t.hand[c] > t.hand[best]:
                best = c
        t.most_held = best

    cdef inline int hand_of(self, Turn* t, int card) noexcept nogil:
        return t.hand[card] if card >= 0 else t.hand[self.loco]

    cdef void ready_claims(self, Turn* t) noexcept nogil:
        """Each route's best legal claim: the fewest locomotives, then the least paid in
        payment columns (ferry cards), then the colour held most, then the lowest id."""
        cdef int k, a, r, old
        if t.claims_ready:
            return
        for k in range(self.n_claimable):
            self.best_pay[self.claimable[k]] = -1
        self.n_claimable = 0
        for k in range(t.n_legal):
            a = t.legal[k]
            if self.act_kind[a] != K_CLAIM:
                continue
            r = self.act_route[a]
            old = self.best_pay[r]
            if old == -1:
                self.best_pay[r] = a
                self.claimable[self.n_claimable] = r
                self.n_claimable += 1
            elif self.pay_key_less(t, a, old):
                self.best_pay[r] = a
        sort_ints(self.claimable, self.n_claimable)
        t.claims_ready = 1

    cdef inline bint pay_key_less(self, Turn* t, int a, int b) noexcept nogil:
        if self.act_locos[a] != self.act_locos[b]:
            return self.act_locos[a] < self.act_locos[b]
        if self.act_paid[a] != self.act_paid[b]:
            return self.act_paid[a] < self.act_paid[b]
        if self.hand_of(t, self.act_card[a]) != self.hand_of(t, self.act_card[b]):
            return self.hand_of(t, self.act_card[a]) > self.hand_of(t, self.act_card[b])
        return a < b

    cdef inline int claim_of(self, Turn* t, int route) noexcept nogil:
        self.ready_claims(t)
        return self.best_pay[route]

    cdef int longest_claim(self, Turn* t) noexcept nogil:
        """The best payment of the longest claimable route (the lowest id among equals)."""
        cdef int k, r, best = -1
        self.ready_claims(t)
        for k in range(self.n_claimable):
            r = self.claimable[k]
            if best == -1 or self.route_len[r] > self.route_len[best]:
                best = r
        return self.best_pay[best] if best != -1 else -1

    cdef int endgame_claim(self, Turn* t) noexcept nogil:
        """With few trains left, the longest route they still pay for."""
        if t.kind_count[K_CLAIM] == 0:
            return -1
        if t.trains > (6 if 6 > self.longest + 1 else self.longest + 1):
            return -1
        return self.longest_claim(t)

    cdef inline bint live(self, int cost) noexcept nogil:
        return 0 < cost < UNREACHABLE

    cdef int ticket_routes(self, Turn* t, Plan* plan, int* out) noexcept nogil:
        """Open routes on the paths of incomplete, still reachable tickets, each once, in
        ticket order."""
        cdef int k, j, r, n = 0, ticket
        for k in range(t.tickets_n):
            ticket = t.tickets[k]
            if not self.live(self.path_cost(plan, ticket)):
                continue
            for j in range(plan.path_len[ticket]):
                r = plan.path_routes[plan.path_start[ticket] + j]
                if not self.mark[r]:
                    self.mark[r] = 1
                    out[n] = r
                    n += 1
        for k in range(n):
            self.mark[out[k]] = 0
        return n

    cdef void deficit(self, Turn* t, int route, int* missing, int* card) noexcept nogil:
        """Cards still missing to claim ``route``, and the colour to collect for it."""
        cdef int colour = self.route_colour[route]
        if colour < 0:
            colour = t.most_held
        missing[0] = self.route_len[route] - t.hand[colour] - t.hand[self.loco]
        if missing[0] < 0:
            missing[0] = 0
        card[0] = colour

    cdef int draw_towards(self, Turn* t, const int* routes, int n, bint takes_locomotives) noexcept nogil:
        """The face-up card the closest wanted route needs, a locomotive when that is worth
        it, else blind; any draw when nothing is wanted."""
        cdef int k, r, target = -1, key, best_key = 0, missing, card, a, best
        for k in range(n):
            r = routes[k]
            self.deficit(t, r, &missing, &card)
            key = missing if missing > 0 else UNREACHABLE
            if (target == -1 or key < best_key
                    or (key == best_key and (self.route_len[r] > self.route_len[target]
                                             or (self.route_len[r] == self.route_len[target] and r < target)))):
                target = r
                best_key = key
        if target != -1:
            self.deficit(t, target, &missing, &card)
            if t.kind_count[K_PAYMENT_DRAW] and self.route_paid[target] and t.hand[self.loco] < 1:
                return t.kind_first[K_PAYMENT_DRAW]
            if t.faceup[card] != -1:
                return t.faceup[card]
            if takes_locomotives and missing >= 2 and t.faceup[self.loco] != -1:
                return t.faceup[self.loco]
        if t.kind_count[K_DRAW_BLIND]:
            return t.kind_first[K_DRAW_BLIND]
        best = -1
        for k in range(self.n_cards):
            a = t.faceup[k]
            if a != -1 and (best == -1 or t.hand[k] > t.hand[self.act_card[best]]):
                best = a
        if best != -1:
            return best
        if t.kind_count[K_PAYMENT_DRAW]:
            return t.kind_first[K_PAYMENT_DRAW]
        return -1

    # --- the named choices ---------------------------------------------------------------
    cdef int keep_value(self, Turn* t, int ticket, int cost, int budget) noexcept nogil:
        cdef int points = self.ticket_points[ticket]
        if t.style == LONG_ROUTE:
            return -cost
        if t.style == ROUTE_FOCUS:
            return points if cost <= t.trains else -cost
        if t.style == DESTINATION_HUNGRY:
            return points if cost <= budget else -2 * cost
        if t.style == GREEDY:
            return points - cost
        return points - 4 * cost  # one-step

    cdef int keep(self, Turn* t, Plan* plan) noexcept nogil:
        """The keep action whose tickets are worth most to the style: among the smallest
        allowed sets, except for destination-hungry, which looks at every set."""
        cdef int k, j, a, size, fewest = 1 << 30, worth, best = -1, best_worth = 0, budget = t.trains, cost
        cdef bint all_sizes = t.style == DESTINATION_HUNGRY
        if all_sizes:
            for k in range(t.tickets_n):
                cost = self.path_cost(plan, t.tickets[k])
                if cost < UNREACHABLE:
                    budget -= cost
        for j in range(t.offer_n):
            cost = self.path_cost(plan, t.offer[j])
            self.offer_cost[j] = self.keep_value(t, t.offer[j], cost, budget)
        for k in range(t.n_legal):
            a = t.legal[k]
            if self.act_kind[a] == K_KEEP:
                size = popcount(self.act_mask[a])
                if size < fewest:
                    fewest = size
        for k in range(t.n_legal):
            a = t.legal[k]
            if self.act_kind[a] != K_KEEP or (not all_sizes and popcount(self.act_mask[a]) != fewest):
                continue
            worth = 0
            for j in range(t.offer_n):
                if self.act_mask[a] >> j & 1:
                    worth += self.offer_cost[j]
            if best == -1 or worth > best_worth:  # equal worth: the lowest id stays
                best = a
                best_worth = worth
        return best

    cdef int long_routes(self, Turn* t, Plan* plan, int* out) noexcept nogil:
        """The longest open routes the trains left can lay: those of the longest such length
        and of the one below it (3 at least), longest first. Judged on the routes still
        open, not on the map, so a map with a single very long route does not leave the
        style waiting for routes that are gone."""
        cdef int r, n = 0, top = 0, floor, length
        for r in range(self.n_routes):
            if plan.open_route[r] and top < self.route_len[r] <= t.trains:
                top = self.route_len[r]
        if top < 3:
            return 0
        floor = top - 1 if top > 3 else 3
        for length in range(top, floor - 1, -1):
            for r in range(self.n_routes):
                if plan.open_route[r] and self.route_len[r] == length:
                    out[n] = r
                    n += 1
        return n

    cdef int focus(self, Turn* t, Plan* plan, int* out) noexcept nogil:
        """Route focus: the open routes of the most valuable ticket still within the trains
        left, longest first; every ticket's routes when none is."""
        cdef int k, ticket, cost, best = -1, n
        for k in range(t.tickets_n):
            ticket = t.tickets[k]
            cost = self.path_cost(plan, ticket)
            if not self.live(cost) or cost > t.trains:
                continue
            if (best == -1 or self.ticket_points[ticket] > self.ticket_points[best]
                    or (self.ticket_points[ticket] == self.ticket_points[best]
                        and (cost < plan.cost[best] or (cost == plan.cost[best] and ticket < best)))):
                best = ticket
        if best == -1:
            return self.ticket_routes(t, plan, out)
        n = plan.path_len[best]
        memcpy(out, plan.path_routes + plan.path_start[best], n * sizeof(int))
        sort_routes_by_length(out, n, self.route_len)
        return n

    cdef int shared_routes(self, Turn* t, Plan* plan, int* out) noexcept nogil:
        """Destination-hungry: the open routes on its ticket paths, those on the most paths
        first, then the longest."""
        cdef int k, j, r, n = 0, ticket
        for k in range(t.tickets_n):
            ticket = t.tickets[k]
            if not self.live(self.path_cost(plan, ticket)):
                continue
            for j in range(plan.path_len[ticket]):
                r = plan.path_routes[plan.path_start[ticket] + j]
                if self.count[r] == 0:
                    out[n] = r
                    n += 1
                self.count[r] += 1
        sort_routes_by_count(out, n, self.count, self.route_len)
        for k in range(n):
            self.count[out[k]] = 0
        return n

    cdef int wanted(self, Turn* t, Plan* plan, int* out) noexcept nogil:
        """The open routes the style works towards, best first."""
        cdef int n
        if t.style == LONG_ROUTE:
            n = self.long_routes(t, plan, out)
            return n + self.ticket_routes_after(t, plan, out, n)
        if t.style == ROUTE_FOCUS:
            return self.focus(t, plan, out)
        if t.style == DESTINATION_HUNGRY:
            return self.shared_routes(t, plan, out)
        return self.ticket_routes(t, plan, out)

    cdef int ticket_routes_after(self, Turn* t, Plan* plan, int* out, int n) noexcept nogil:
        # ticket routes appended after the n routes already in out (duplicates skipped)
        cdef int k, m
        for k in range(n):
            self.mark[out[k]] = 1
        m = self.ticket_routes(t, plan, self.list_b)
        for k in range(n):
            self.mark[out[k]] = 0
        for k in range(m):
            out[n + k] = self.list_b[k]
        return m

    cdef int claim_by_points(self, Turn* t, Plan* plan) noexcept nogil:
        """One-step: the legal claim of a wanted route scoring most (the earlier wanted
        among equals), else the endgame claim."""
        cdef int n = self.wanted(t, plan, self.list_a), k, r, best = -1
        for k in range(n):
            r = self.list_a[k]
            if self.claim_of(t, r) != -1 and (best == -1 or self.route_points[r] > self.route_points[best]):
                best = r
        if best != -1:
            return self.best_pay[best]
        return self.endgame_claim(t)

    cdef int claim_first_wanted(self, Turn* t, Plan* plan) noexcept nogil:
        cdef int n = self.wanted(t, plan, self.list_a), k
        for k in range(n):
            if self.claim_of(t, self.list_a[k]) != -1:
                return self.best_pay[self.list_a[k]]
        return self.endgame_claim(t)

    cdef int claim(self, Turn* t, Plan* plan) noexcept nogil:
        """The style's claim now, or -1 to draw instead."""
        cdef int n, k, r
        if t.style == LONG_ROUTE:
            n = self.long_routes(t, plan, self.list_a)
            for k in range(n):
                r = self.list_a[k]
                if self.route_len[r] <= t.trains and self.claim_of(t, r) != -1:
                    return self.best_pay[r]
            return self.claim_by_points(t, plan) if t.trains < 15 else self.endgame_claim(t)
        if t.style == ROUTE_FOCUS or t.style == DESTINATION_HUNGRY:
            return self.claim_first_wanted(t, plan)
        if t.style == GREEDY:
            return self.greedy_claim(t, plan)
        return self.claim_by_points(t, plan)

    cdef int greedy_claim(self, Turn* t, Plan* plan) noexcept nogil:
        """Greedy: the claim scoring most now, its route points plus every ticket it
        completes."""
        cdef int k, j, r, gain, best = -1, best_gain = 0, ticket
        self.ready_claims(t)
        for k in range(self.n_claimable):
            r = self.claimable[k]
            gain = self.route_points[r]
            for j in range(t.tickets_n):
                ticket = t.tickets[j]
                if (self.live(self.path_cost(plan, ticket)) and plan.path_len[ticket] == 1
                        and plan.path_routes[plan.path_start[ticket]] == r):
                    gain += self.ticket_points[ticket]
            if best == -1 or gain > best_gain:
                best = r
                best_gain = gain
        return self.best_pay[best] if best != -1 else -1

    cdef bint wants_tickets(self, Turn* t, Plan* plan) noexcept nogil:
        """Whether the style spends this turn drawing tickets."""
        cdef int k, left = 0, cost
        if t.style == ONE_STEP:
            return self.ticket_routes(t, plan, self.list_b) == 0 and t.trains >= 12
        if t.style == ROUTE_FOCUS:
            return self.ticket_routes(t, plan, self.list_b) == 0 and t.trains >= 15
        if t.style == DESTINATION_HUNGRY:
            for k in range(t.tickets_n):
                cost = self.path_cost(plan, t.tickets[k])
                if self.live(cost):
                    left += cost
            return left * 2 <= t.trains and t.trains >= 10
        return 0

    cdef int draw(self, Turn* t, Plan* plan) noexcept nogil:
        """The style's card draw."""
        cdef int n, best, c
        if t.style == GREEDY:
            if t.faceup[self.loco] != -1:
                return t.faceup[self.loco]
            best = -1
            for c in range(self.loco):
                if t.faceup[c] != -1 and (best == -1 or t.hand[c] > t.hand[best]):
                    best = c
            if best != -1 and t.hand[best] > 0:
                return t.faceup[best]
            return self.draw_towards(t, self.list_a, 0, 0)
        n = self.wanted(t, plan, self.list_a)
        return self.draw_towards(t, self.list_a, n, t.style != ROUTE_FOCUS)

    cdef int by_routes_choice(self, Turn* t) noexcept nogil:
        """The option whose routes the player holds the most length of (the first of equals):
        a share of the company whose routes they hold most of."""
        cdef int k, j, r, a, best = -1, held, best_held = 0
        for k in range(t.n_legal):
            a = t.legal[k]
            if self.act_kind[a] != K_BY_ROUTES:
                continue
            held = 0
            for j in range(self.act_rel_start[a], self.act_rel_start[a + 1]):
                r = self.act_rel[j]
                if t.owner[r] == t.player:
                    held += self.route_len[r]
            if best == -1 or held > best_held:
                best = a
                best_held = held
        return best

    cdef int rescue(self, Turn* t, Plan* plan) noexcept nogil:
        """When a held ticket can no longer be joined over the player's own and open routes,
        the legal rescue option (a station) and the route of another player it would let
        the player use (among the routes the option is about) that join the most ticket
        points within the trains left; the route is remembered as borrowed for planning.
        -1 when no ticket is stranded or no option saves one."""
        cdef int k, j, m, a, r, ticket, gain, n, best = -1, best_route = -1, best_gain = 0, stranded = 0
        for k in range(t.tickets_n):  # every ticket planned before any route is lent below
            stranded += self.path_cost(plan, t.tickets[k]) >= UNREACHABLE
        if not stranded:
            return -1
        for k in range(t.n_legal):
            a = t.legal[k]
            if self.act_kind[a] != K_RESCUE:
                continue
            for j in range(self.act_rel_start[a], self.act_rel_start[a + 1]):
                r = self.act_rel[j]
                if t.owner[r] < 0 or t.owner[r] == t.player or plan.borrowed[r]:
                    continue
                plan.borrowed[r] = 1
                gain = 0
                for m in range(t.tickets_n):
                    ticket = t.tickets[m]
                    if (plan.cost[ticket] >= UNREACHABLE
                            and self.cheapest_path(plan.owner_seen, plan.player, plan.open_route, plan.borrowed,
                                                   ticket, self.list_b, &n) <= t.trains):
                        gain += self.ticket_points[ticket]
                plan.borrowed[r] = 0
                if gain > best_gain:  # equal gains: the lowest id, then the first route, stays
                    best, best_route, best_gain = a, r, gain
        if best != -1:
            plan.borrowed[best_route] = 1
            plan.valid = 0  # plan again with the borrowed route
        return best

    cdef int fewest_locomotives(self, Turn* t) noexcept nogil:
        """Of the legal payments, the fewest locomotives, then the colour held most."""
        cdef int k, a, best = -1
        for k in range(t.n_legal):
            a = t.legal[k]
            if self.act_kind[a] != K_PAY:
                continue
            if (best == -1 or self.act_locos[a] < self.act_locos[best]
                    or (self.act_locos[a] == self.act_locos[best]
                        and self.hand_of(t, self.act_card[a]) > self.hand_of(t, self.act_card[best]))):
                best = a
        return best

    cdef int choose(self, int style, Plan* plan, const int* view, const int* legal, int n_legal,
                    unsigned long long* rng) noexcept nogil:
        """The style's action: the turn skeleton every style shares."""
        cdef Turn t
        cdef int choice
        if n_legal == 1:
            return legal[0]
        self.begin(&t, style, view, legal, n_legal)
        self.refresh(plan, t.owner, t.open, t.player, t.players)
        if t.kind_count[K_KEEP]:
            return self.keep(&t, plan)
        if t.kind_count[K_PAY]:
            return self.fewest_locomotives(&t)
        if t.kind_count[K_WITHDRAW]:
            return t.kind_first[K_WITHDRAW]
        if t.kind_count[K_BY_ROUTES]:
            return self.by_routes_choice(&t)
        if t.kind_count[K_RESCUE]:
            choice = self.rescue(&t, plan)
            if choice != -1:
                return choice
        if t.kind_count[K_CLAIM]:
            choice = self.claim(&t, plan)
            if choice != -1:
                return choice
        if t.kind_count[K_DRAW_TICKETS] and self.wants_tickets(&t, plan):
            return t.kind_first[K_DRAW_TICKETS]
        choice = self.draw(&t, plan)
        if choice != -1:
            return choice
        if t.kind_count[K_CLAIM]:  # nothing to draw: any claim beats passing
            return self.longest_claim(&t)
        if t.kind_count[K_DRAW_TICKETS]:
            return t.kind_first[K_DRAW_TICKETS]
        if t.kind_count[K_PASS]:
            return t.kind_first[K_PASS]
        return legal[below(rng, n_legal)]

    cdef void check_view(self, int m, const int* v) except *:
        """Refuse a view whose header does not match its length or whose ids are not this
        variant's: the choices index tables by them."""
        cdef int k, base = RV_HEADER + self.n_cards + 2 * self.n_routes
        if not (0 < v[RV_PLAYERS] <= MAX_PLAYERS and 0 <= v[RV_PLAYER] < v[RV_PLAYERS]):
            raise ValueError(f"an agent view for player {v[RV_PLAYER]} of {v[RV_PLAYERS]}")
        if v[RV_TICKETS_N] < 0 or v[RV_OFFER_N] < 0 or base + v[RV_TICKETS_N] + v[RV_OFFER_N] != m:
            raise ValueError(f"an agent view of {m} ints with {v[RV_TICKETS_N]} tickets and an offer of "
                             f"{v[RV_OFFER_N]} does not fit this variant")
        if v[RV_OFFER_N] > self.n_tickets or v[RV_OFFER_N] > 30:  # keep masks are ints
            raise ValueError(f"an offer of {v[RV_OFFER_N]} tickets")
        for k in range(base, m):
            if not 0 <= v[k] < self.n_tickets:
                raise ValueError(f"no ticket {v[k]} in this variant")
        for k in range(RV_HEADER, RV_HEADER + self.n_cards):
            if v[k] < 0:
                raise ValueError(f"a hand cannot hold {v[k]} cards")
        for k in range(RV_HEADER + self.n_cards + self.n_routes, base):
            if v[k] != 0 and v[k] != 1:
                raise ValueError(f"a route's open flag is 0 or 1, not {v[k]}")

    # --- the value estimate ------------------------------------------------------------------
    cdef double seat_value(self, const int* v, int total, int usable) noexcept nogil:
        """One seat's final score as its position promises it: its total now (open tickets
        counted lost), what the trains it will still lay (``usable``) and the cards in its
        hand are worth, and for
        each open ticket still joinable, cheapest first while those trains cover them, the
        swing from losing to completing it times the chance of completing it."""
        cdef const int* owner = v + RV_HEADER + self.n_cards
        cdef const int* open = owner + self.n_routes
        cdef const int* tickets = open + self.n_routes
        cdef int player = v[RV_PLAYER], r, k, j, m = 0, n, cost, points, budget = usable, cards = 0
        cdef double value, chance
        for k in range(self.n_cards):
            cards += v[RV_HEADER + k]
        value = total + self.train_value * (TRAIN_WORTH * usable + HAND_WORTH * cards)
        for r in range(self.n_routes):
            self.est_open[r] = open[r] != 0
        for k in range(v[RV_TICKETS_N]):
            cost = self.cheapest_path(owner, player, self.est_open, self.est_borrowed, tickets[k], self.list_b, &n)
            if not self.live(cost):
                continue  # complete (already counted) or out of reach (stays lost)
            points = self.ticket_points[tickets[k]]
            j = m  # insert by cost, then the most points
            while j > 0 and (self.est_cost[j - 1] > cost
                             or (self.est_cost[j - 1] == cost and self.est_points[j - 1] < points)):
                self.est_cost[j] = self.est_cost[j - 1]
                self.est_points[j] = self.est_points[j - 1]
                j -= 1
            self.est_cost[j] = cost
            self.est_points[j] = points
            m += 1
        for k in range(m):
            if self.est_cost[k] > budget:
                continue
            budget -= self.est_cost[k]
            chance = TICKET_SURE - TICKET_FADE * (self.est_cost[k] - 1)
            if chance < TICKET_FLOOR:
                chance = TICKET_FLOOR
            value += 2.0 * self.est_points[k] * chance
        return value

    cdef void estimate_views(self, int players, const int* totals, double* out) noexcept nogil:
        """Each seat's value from the views in est_views (seat p's at p * view_cap). A seat
        lays trains until the game ends, which the seat with the fewest trains brings about:
        no more than that seat's trains and the longest route beyond them."""
        cdef int p, fewest = UNREACHABLE, trains, usable
        for p in range(players):
            trains = self.est_views[p * self.view_cap + RV_TRAINS]
            if trains < fewest:
                fewest = trains
        for p in range(players):
            trains = self.est_views[p * self.view_cap + RV_TRAINS]
            usable = trains if trains < fewest + self.longest else fewest + self.longest
            out[p] = self.seat_value(self.est_views + p * self.view_cap, totals[p], usable)

    # --- the Python face -------------------------------------------------------------------
    def estimate(self, views, totals):
        """Each seat's final score as the position promises it, from every seat's agent
        view (``views[p]``: seat p's, as ``game.agent_view(p)`` gives it) and each seat's
        total now (``game.scores()``): see :meth:`seat_value`."""
        cdef int players = len(views), p, k, m
        cdef int totals_c[MAX_PLAYERS]
        cdef double out[MAX_PLAYERS]
        cdef int* v
        if not 0 < players <= MAX_PLAYERS or len(totals) != players:
            raise ValueError(f"{players} views need as many totals, not {len(totals)}")
        for p in range(players):
            view = views[p]
            m = len(view)
            if m > self.view_cap or m < RV_HEADER + self.n_cards + 2 * self.n_routes:
                raise ValueError(f"an agent view of {m} ints does not fit this variant")
            v = self.est_views + p * self.view_cap
            for k in range(m):
                v[k] = view[k]
            self.check_view(m, v)
            if v[RV_PLAYER] != p or v[RV_PLAYERS] != players:
                raise ValueError(f"views[{p}] is player {v[RV_PLAYER]}'s of {v[RV_PLAYERS]}")
            totals_c[p] = totals[p]
        self.estimate_views(players, totals_c, out)
        return [out[p] for p in range(players)]

    def decide(self, Seat seat, view, legal):
        """The action ``seat``'s style takes, from an agent view and the legal ids (both
        int sequences; the legal ids ascending)."""
        cdef int n = len(legal), k, m = len(view)
        if n == 0:
            raise ValueError("no legal action to choose from")
        if m > self.view_cap or m < RV_HEADER + self.n_cards + 2 * self.n_routes:
            raise ValueError(f"an agent view of {m} ints does not fit this variant")
        for k in range(m):
            self.scratch_view[k] = view[k]
        for k in range(n):
            self.scratch_legal[k] = legal[k]
            if not 0 <= self.scratch_legal[k] < self.n_actions or (k and self.scratch_legal[k] <= self.scratch_legal[k - 1]):
                raise ValueError(f"legal ids must be ascending action ids of this variant, not {list(legal)[:8]}…")
        self.check_view(m, self.scratch_view)
        seat.ready(self)
        return self.choose(seat.style, &seat.plan, self.scratch_view, self.scratch_legal, n, &seat.rng)

    def decide_compiled(self, Seat seat, engine):
        """The action ``seat``'s style takes in a compiled game (its Engine), reading the
        view and the legal ids through the engine's C interface."""
        cdef railspec_engine_api* api
        cdef void* state
        cdef int n
        keep = _open(engine, self, &api, &state)
        if api.is_over(state):
            raise ValueError("the game is over: nobody is to move")
        seat.ready(self)
        n = api.legal(state, self.scratch_legal)
        if n <= 0:
            raise ValueError("no legal action to choose from")
        api.view(state, self.scratch_view)
        return self.choose(seat.style, &seat.plan, self.scratch_view, self.scratch_legal, n, &seat.rng)

    def portfolio(self, seats, engine):
        """The distinct actions ``seats`` would take in the compiled game ``engine``,
        ascending: each seat's :meth:`decide_compiled`, the view and legal ids read once."""
        cdef railspec_engine_api* api
        cdef void* state
        cdef int n, k, m = 0, j, action
        cdef int chosen[MAX_PLAYERS]
        cdef Seat seat
        keep = _open(engine, self, &api, &state)
        if api.is_over(state):
            raise ValueError("the game is over: nobody is to move")
        if len(seats) > MAX_PLAYERS:
            raise ValueError(f"at most {MAX_PLAYERS} seats")
        n = api.legal(state, self.scratch_legal)
        if n <= 0:
            raise ValueError("no legal action to choose from")
        api.view(state, self.scratch_view)
        for seat in seats:
            seat.ready(self)
            action = self.choose(seat.style, &seat.plan, self.scratch_view, self.scratch_legal, n, &seat.rng)
            j = m  # kept ascending, each once
            while j > 0 and chosen[j - 1] > action:
                j -= 1
            if j > 0 and chosen[j - 1] == action:
                continue
            for k in range(m, j, -1):
                chosen[k] = chosen[k - 1]
            chosen[j] = action
            m += 1
        return [chosen[k] for k in range(m)]

    def playout(self, engine, styles, seats, int horizon=-1):
        """Play the compiled game ``engine`` (its Engine, changed in place), seat p choosing
        with ``seats[p]`` in style ``styles[p]``: to its end, and return the totals; or, with
        ``horizon`` at 0 or more, for at most that many decisions, and return the totals if
        the game ended, else :meth:`estimate`'s values of the position reached."""
        cdef railspec_engine_api* api
        cdef void* state
        cdef int players, p, n, action, guard = 0, limit = 100000 if horizon < 0 else horizon
        cdef Plan* plans[MAX_PLAYERS]
        cdef unsigned long long* rngs[MAX_PLAYERS]
        cdef int style_of[MAX_PLAYERS]
        cdef int totals[MAX_PLAYERS]
        cdef double values[MAX_PLAYERS]
        cdef bint over
        keep = _open(engine, self, &api, &state)
        players = api.players(state)
        if len(styles) < players or len(seats) < players:
            raise ValueError(f"{players} seats need {players} styles and seats")
        if players > MAX_PLAYERS:
            raise ValueError(f"at most {MAX_PLAYERS} players")
        for p in range(players):
            (<Seat>seats[p]).ready(self)
            plans[p] = &(<Seat>seats[p]).plan
            rngs[p] = &(<Seat>seats[p]).rng
            style_of[p] = styles[p]
        with nogil:
            while not api.is_over(state) and guard < limit:
                n = api.legal(state, self.scratch_legal)
                if n <= 0:
                    break
                api.view(state, self.scratch_view)
                p = api.current(state)
                action = self.choose(style_of[p], plans[p], self.scratch_view, self.scratch_legal, n, rngs[p])
                api.apply(state, action)
                guard += 1
            api.totals(state, totals)
            over = api.is_over(state) or horizon < 0
            if not over:
                for p in range(players):
                    api.seat_view(state, p, self.est_views + p * self.view_cap)
                self.estimate_views(players, totals, values)
        if over:
            return [totals[p] for p in range(players)]
        return [values[p] for p in range(players)]


cdef object _open(object engine, Policy policy, railspec_engine_api** api, void** state):
    """Point ``api`` and ``state`` at a compiled Engine's interface and state; returns the
    capsules, which the caller keeps while it uses the pointers."""
    capsules = engine._c_api()
    api[0] = <railspec_engine_api*>PyCapsule_GetPointer(capsules[0], RAILSPEC_ENGINE_API_NAME)
    state[0] = PyCapsule_GetPointer(capsules[1], RAILSPEC_ENGINE_STATE_NAME)
    if api[0].version != RAILSPEC_ENGINE_API_VERSION:
        raise ValueError(f"the engine speaks interface {api[0].version}, the agents "
                         f"{RAILSPEC_ENGINE_API_VERSION}; rebuild the engine")
    if (api[0].n_cards != policy.n_cards or api[0].n_routes != policy.n_routes
            or api[0].n_actions != policy.n_actions or api[0].view_size > policy.view_cap):
        raise ValueError("this engine is not of the variant the policy was built for")
    return capsules


cdef class Seat:
    """One scripted agent's memory: its style, its generator and its plan."""

    cdef public int style
    cdef unsigned long long rng
    cdef Plan plan
    cdef object policy      # the Policy the plan's arrays are sized for

    def __cinit__(self, int style, unsigned long long seed):
        self.style = style
        self.rng = seed
        memset(&self.plan, 0, sizeof(Plan))
        self.policy = None

    cdef void ready(self, Policy policy) except *:
        """Size the plan for ``policy``'s variant (again if the seat moves to another)."""
        if self.policy is policy:
            return
        self.release()
        self.plan.owner_seen = <int*>malloc((policy.n_routes + 1) * sizeof(int))
        self.plan.open_route = <char*>malloc(policy.n_routes + 1)
        self.plan.planned = <int*>calloc(policy.n_tickets + 1, sizeof(int))
        self.plan.cost = <int*>malloc((policy.n_tickets + 1) * sizeof(int))
        self.plan.path_start = <int*>malloc((policy.n_tickets + 1) * sizeof(int))
        self.plan.path_len = <int*>malloc((policy.n_tickets + 1) * sizeof(int))
        self.plan.path_routes = <int*>malloc((<size_t>policy.n_tickets * policy.n_nodes + 1) * sizeof(int))
        self.plan.borrowed = <char*>calloc(policy.n_routes + 1, 1)
        if not (self.plan.owner_seen and self.plan.open_route and self.plan.planned and self.plan.cost
                and self.plan.path_start and self.plan.path_len and self.plan.path_routes and self.plan.borrowed):
            self.release()
            raise MemoryError()
        self.plan.valid = 0
        self.policy = policy

    cdef void release(self) noexcept:
        free(self.plan.owner_seen)
        free(self.plan.open_route)
        free(self.plan.planned)
        free(self.plan.cost)
        free(self.plan.path_start)
        free(self.plan.path_len)
        free(self.plan.path_routes)
        free(self.plan.borrowed)
        memset(&self.plan, 0, sizeof(Plan))
        self.policy = None

    def forget(self):
        """Drop the cached plan and the borrowed routes (a new game)."""
        self.plan.valid = 0
        if self.policy is not None:
            memset(self.plan.borrowed, 0, (<Policy>self.policy).n_routes)

    def __dealloc__(self):
        self.release()


# --- small sorts and heaps (route lists are short) -----------------------------------------
cdef inline int popcount(int mask) noexcept nogil:
    cdef int n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


cdef int heap_push(long long* heap, int size, long long item) noexcept nogil:
    cdef int child = size, parent
    heap[size] = item
    while child > 0:
        parent = (child - 1) >> 1
        if heap[parent] <= heap[child]:
            break
        heap[parent], heap[child] = heap[child], heap[parent]
        child = parent
    return size + 1


cdef int heap_pop(long long* heap, int size) noexcept nogil:
    cdef int parent = 0, child
    size -= 1
    heap[0] = heap[size]
    while True:
        child = 2 * parent + 1
        if child >= size:
            break
        if child + 1 < size and heap[child + 1] < heap[child]:
            child += 1
        if heap[parent] <= heap[child]:
            break
        heap[parent], heap[child] = heap[child], heap[parent]
        parent = child
    return size


cdef void sort_ints(int* values, int n) noexcept nogil:
    cdef int i, j, v
    for i in range(1, n):
        v = values[i]
        j = i - 1
        while j >= 0 and values[j] > v:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = v


cdef void sort_routes_by_length(int* routes, int n, const int* length) noexcept nogil:
    # longest first, then the lowest id
    cdef int i, j, v
    for i in range(1, n):
        v = routes[i]
        j = i - 1
        while j >= 0 and (length[routes[j]] < length[v] or (length[routes[j]] == length[v] and routes[j] > v)):
            routes[j + 1] = routes[j]
            j -= 1
        routes[j + 1] = v


cdef void sort_routes_by_count(int* routes, int n, const int* count, const int* length) noexcept nogil:
    # on the most paths first, then the longest, then the lowest id
    cdef int i, j, v
    for i in range(1, n):
        v = routes[i]
        j = i - 1
        while j >= 0 and (count[routes[j]] < count[v] or (count[routes[j]] == count[v] and (
                length[routes[j]] < length[v] or (length[routes[j]] == length[v] and routes[j] > v)))):
            routes[j + 1] = routes[j]
            j -= 1
        routes[j + 1] = v
