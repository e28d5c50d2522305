# The planner: the variant's map as C arrays, and each seat's cheapest paths over it
# (included by _policy.pyx; the styles of _styles.pxi plan through it).

cdef struct Plan:
    # One seat's cheapest paths, valid for the owner array and player count they were
    # planned on; a ticket's path is planned on first use.
    int player
    int players
    int valid
    int* owner_seen        # [n_routes]
    char* open_route       # [n_routes]: the view's open flags the plan was made on (Planner.plan_open)
    int* planned           # [n_tickets]: 1 when cost/path below are current
    int* cost              # [n_tickets]: trains still to lay, UNREACHABLE if impossible
    int* path_start        # [n_tickets]: the ticket's open routes, path_routes[start:start+len]
    int* path_len
    int* path_routes       # [n_tickets * n_nodes]
    char* borrowed         # [n_routes]: another player's routes this seat's rescues let it use
    int* seen              # [n_routes]: what this seat learnt of a route an action opens (rule open_route):
                           # SEEN_NOTHING, SEEN_CLOSED (never to be opened) or the card colour it built it in;
                           # of another player's route, SEEN_CLOSED: its shared claim was not offered (claim_owned)
    int claimed_seen       # routes claimed when last planned: fewer means a new game
    int* worth_now         # [n_routes]: what a claim brings now besides its points, in worth units
                           # (AgentPlay.worth_now, set by the seat's owner before a decision; 0s)
    int* option_worth      # [n_actions]: what taking each option brings now, its price paid, in
                           # worth units (AgentPlay.option_worth_now; 0s: none is worth taking)
    int any_option         # 1 when some option_worth entry is above 0


cdef class Planner:
    """One variant's map for the scripted styles, as C arrays: its routes, its graph and its
    tickets; and the cheapest-path search a seat's ``Plan`` is kept with."""

    cdef int n_routes, n_nodes, n_cards, loco, n_tickets, longest
    cdef int nobody_join         # 1: routes taken for no player (owner players) join every network
    cdef int grows               # 1: free routes away from the player's own are closed only until their
                                 # network grows there (AgentPlay.network_grows): plan over them as open
    cdef int* grown_open         # [n_routes]: the open flags the styles plan on when grows
    cdef int* route_len
    cdef int* route_colour     # -1 for gray
    cdef int* route_points
    cdef int* route_paid       # 1 when some payment of the route pays in a payment column
    cdef int* route_openable   # 1 when an action may open the route to claims (rule open_route: a bed built)
    cdef int* adj_start        # edges at node n: adj_node/adj_route[adj_start[n]:adj_start[n+1]]
    cdef int* adj_node
    cdef int* adj_route
    cdef int* city_start       # graph nodes of city c: city_node[city_start[c]:...]
    cdef int* city_node
    cdef int* ticket_a
    cdef int* ticket_b
    cdef int* ticket_points
    # scratch for one search or refresh
    cdef char* mark            # [n_routes]
    cdef int* lost             # [n_routes]: routes a plan's player lost since it was made
    cdef int* dist             # [n_nodes]
    cdef int* via              # [n_nodes]
    cdef long long* heap       # [2 * n_routes + n_nodes + 1]

    def __cinit__(self, tables):
        """``tables``: a dict of int lists (railspec.agents.tables.policy_tables)."""
        self.n_routes = tables["n_routes"]
        self.n_nodes = tables["n_nodes"]
        self.n_cards = tables["n_cards"]
        self.loco = self.n_cards - 1
        self.n_tickets = tables["n_tickets"]
        self.longest = tables["longest"]
        self.nobody_join = tables["nobody_join"]
        self.grows = tables["grows"]
        self.route_len = _array(tables["route_len"])
        self.route_colour = _array(tables["route_colour"])
        self.route_points = _array(tables["route_points"])
        self.route_paid = _array(tables["route_paid"])
        self.route_openable = _array(tables["route_openable"])
        self.adj_start = _array(tables["adj_start"])
        self.adj_node = _array(tables["adj_node"])
        self.adj_route = _array(tables["adj_route"])
        self.city_start = _array(tables["city_start"])
        self.city_node = _array(tables["city_node"])
        self.ticket_a = _array(tables["ticket_a"])
        self.ticket_b = _array(tables["ticket_b"])
        self.ticket_points = _array(tables["ticket_points"])
        self.mark = <char*>calloc(self.n_routes + 1, 1)
        self.lost = <int*>malloc((self.n_routes + 1) * sizeof(int))
        self.dist = <int*>malloc((self.n_nodes + 1) * sizeof(int))
        self.via = <int*>malloc((self.n_nodes + 1) * sizeof(int))
        self.heap = <long long*>malloc((2 * self.n_routes + self.n_nodes + 1) * sizeof(long long))
        self.grown_open = <int*>malloc((self.n_routes + 1) * sizeof(int))
        if not (self.mark and self.lost and self.dist and self.via and self.heap and self.grown_open):
            raise MemoryError()

    def __dealloc__(self):
        cdef int** arrays = [self.route_len, self.route_colour, self.route_points, self.route_paid,
                             self.adj_start, self.adj_node, self.adj_route, self.city_start, self.city_node,
                             self.ticket_a, self.ticket_b, self.ticket_points, self.lost, self.dist, self.via,
                             self.grown_open, self.route_openable]
        cdef int k
        for k in range(17):
            free(arrays[k])
        free(self.mark)
        free(self.heap)

    cdef int cheapest_path(self, const int* owner, int player, int players, const char* open_route,
                           const char* borrowed, int ticket, int* routes_out, int* routes_n) noexcept nogil:
        """The cheapest way to join a ticket's cities (own and borrowed routes free, and the
        routes taken for no player when the variant's mechanics join them into every network;
        open routes at their length, the rest closed): its cost, UNREACHABLE when there is
        none, and the open routes on it from the far end back."""
        cdef int n, k, e, node, other, route, step, nd, d, size = 0, child, parent
        cdef long long item, top
        cdef int a = self.ticket_a[ticket], b = self.ticket_b[ticket]
        cdef int shared = players if self.nobody_join else -2  # the owner of the routes everyone uses
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
                        if owner[route] != player and owner[route] != shared and not borrowed[route]:
                            routes_out[routes_n[0]] = route
                            routes_n[0] += 1
                        node = self.adj_node_other(route, node)
                    return d
            for e in range(self.adj_start[node], self.adj_start[node + 1]):
                other = self.adj_node[e]
                route = self.adj_route[e]
                if owner[route] == player or owner[route] == shared or borrowed[route]:
                    step = 0
                elif open_route[route]:  # a route still to open costs a decision more (2: plan_open)
                    step = self.route_len[route] + (open_route[route] == 2)
                else:
                    continue
                nd = d + step
                if nd < self.dist[other]:
                    self.dist[other] = nd
                    self.via[other] = route
                    size = heap_push(self.heap, size, (<long long>nd << 32) | other)
        return UNREACHABLE

    cdef inline char plan_open(self, const int* owner, const int* open, const int* seen, int r) noexcept nogil:
        # how a plan sees route r: 1 open to the player's claims, 2 free but still to be opened
        # by an action (a track bed to build: a path through it costs a decision more), 0 closed
        # (also a route the seat has seen closed for good: ``seen``, NULL when nothing is known)
        if open[r] != 0:
            return 1
        return 2 if self.route_openable[r] and owner[r] < 0 and (seen == NULL or seen[r] != SEEN_CLOSED) else 0

    cdef inline int adj_node_other(self, int route, int node) noexcept nogil:
        # the node at the other end of ``route`` from ``node``
        cdef int e
        for e in range(self.adj_start[node], self.adj_start[node + 1]):
            if self.adj_route[e] == route:
                return self.adj_node[e]
        return node

    cdef const int* planning_open(self, const int* owner, const int* open, int player) noexcept nogil:
        """The open flags to plan on: the view's, or, when the network grows
        (``AgentPlay.network_grows``), the view's and every free route touching none of the
        player's own routes (closed now only because the network has not reached it; a
        closed route at the network is closed for another reason, as a double's other
        track). ``dist`` is this function's scratch between searches."""
        cdef int r, n, e
        if not self.grows:
            return open
        for n in range(self.n_nodes):
            self.dist[n] = 0
            for e in range(self.adj_start[n], self.adj_start[n + 1]):
                if owner[self.adj_route[e]] == player:
                    self.dist[n] = 1
                    break
        for r in range(self.n_routes):
            self.grown_open[r] = (open[r] != 0 or owner[r] == -1)
        for n in range(self.n_nodes):
            if self.dist[n]:
                for e in range(self.adj_start[n], self.adj_start[n + 1]):
                    r = self.adj_route[e]
                    self.grown_open[r] = open[r] != 0
        return self.grown_open

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
            for r in range(self.n_routes):
                plan.seen[r] = SEEN_NOTHING
        plan.claimed_seen = claimed
        if plan.valid and plan.player == player and plan.players == players and not fresh_game:
            for r in range(self.n_routes):
                if plan.owner_seen[r] == owner[r] and plan.open_route[r] == self.plan_open(owner, open, plan.seen, r):
                    continue
                if ((owner[r] == player and plan.owner_seen[r] != player)
                        or (self.nobody_join and owner[r] == players and plan.owner_seen[r] != players)
                        or (open[r] != 0 and plan.open_route[r] != 1 and owner[r] != player)):
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
                    plan.open_route[r] = self.plan_open(owner, open, plan.seen, r)
                return
        plan.player = player
        plan.players = players
        plan.valid = 1
        memcpy(plan.owner_seen, owner, self.n_routes * sizeof(int))
        for r in range(self.n_routes):
            plan.open_route[r] = self.plan_open(owner, open, plan.seen, r)
        memset(plan.planned, 0, self.n_tickets * sizeof(int))

    cdef int path_cost(self, Plan* plan, int ticket) noexcept nogil:
        """A ticket's cost on the current plan, planning it on first use."""
        cdef int n
        if not plan.planned[ticket]:
            plan.path_start[ticket] = ticket * self.n_nodes
            plan.cost[ticket] = self.cheapest_path(plan.owner_seen, plan.player, plan.players, plan.open_route,
                                                   plan.borrowed, ticket, plan.path_routes + ticket * self.n_nodes,
                                                   &n)
            plan.path_len[ticket] = n
            plan.planned[ticket] = 1
        return plan.cost[ticket]

    cdef inline bint live(self, int cost) noexcept nogil:
        # a ticket still to join, and joinable: neither complete (0) nor out of reach
        return 0 < cost < UNREACHABLE
