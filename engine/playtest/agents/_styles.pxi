# The styles: one decision's facts, the turn skeleton every style shares and the named
# choices the styles differ in (included by _policy.pyx, after _planner.pxi).

cdef struct Turn:
    # One decision's facts.
    int style
    int player
    int players
    int trains
    const int* hand
    const int* owner
    const int* open            # [n_routes]: 1 where the rules let the player claim (engine_api.h), or
                               # will once their network grows there (planning_open)
    const int* claimable_now   # [n_routes]: the view's own open flags (the rules' now)
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
    const int* seen            # [n_routes]: the seat's Plan.seen (a bed's colour it built it in)


cdef class Styles(Planner):
    """The scripted styles over a :class:`Planner`'s map: the variant's action catalogue
    as C arrays, and :meth:`choose`, the action a style takes from an agent view."""

    cdef int n_actions
    cdef int* act_kind
    cdef int* act_route
    cdef int* act_card         # the card an action pays or draws (loco for locomotives only), -1
    cdef int* act_locos
    cdef int* act_paid         # what a claim pays in payment columns, all together
    cdef int* act_mask
    cdef int* act_rel_start    # the routes action a is about (by_routes): act_rel[act_rel_start[a]:...]
    cdef int* act_rel
    cdef int* route_worth      # what a claim of each route is worth to the styles, in worth_units a point
    cdef int worth_units
    # a route's further owners (a mechanic's Field.co_owner field: a shared claim)
    cdef int* co_field         # [n_co]: those fields' indices among a compiled engine's exported fields
    cdef int n_co
    cdef int* co_owner         # [n_routes]: each route's further owner this decision (-1: none), when has_co
    cdef int has_co            # 1 when co_owner names a player this decision (set by the Policy's callers)
    # scratch for one decision (a Policy decides one thing at a time)
    cdef int* best_pay         # [n_routes]: the best legal claim of each route, or -1
    cdef int* claimable        # routes with a legal claim, ascending
    cdef int n_claimable
    cdef int* list_a           # [n_routes] route lists
    cdef int* list_b
    cdef int* count            # [n_routes]: 0 but while a route list is made (path_routes)
    cdef int* offer_cost       # [n_tickets]

    def __cinit__(self, tables):
        """``tables``: a dict of int lists (railspec.agents.tables.policy_tables)."""
        cdef int k
        self.n_actions = tables["n_actions"]
        self.act_kind = _array(tables["act_kind"])
        self.act_route = _array(tables["act_route"])
        self.act_card = _array(tables["act_card"])
        self.act_locos = _array(tables["act_locos"])
        self.act_paid = _array(tables["act_paid"])
        self.act_mask = _array(tables["act_mask"])
        self.act_rel_start = _array(tables["act_rel_start"])
        self.act_rel = _array(tables["act_rel"])
        self.route_worth = _array(tables["route_worth"])
        self.worth_units = tables["worth_units"]
        self.co_field = _array(tables["co_fields"])
        self.n_co = len(tables["co_fields"])
        self.has_co = 0
        if self.n_cards > 64:
            raise ValueError(f"{self.n_cards} card kinds; the scripted styles handle at most 64")
        self.best_pay = <int*>malloc((self.n_routes + 1) * sizeof(int))
        self.claimable = <int*>malloc((self.n_routes + 1) * sizeof(int))
        self.list_a = <int*>malloc((self.n_routes + 1) * sizeof(int))
        self.list_b = <int*>malloc((self.n_routes + 1) * sizeof(int))
        self.count = <int*>calloc(self.n_routes + 1, sizeof(int))
        self.offer_cost = <int*>malloc((self.n_tickets + 1) * sizeof(int))
        self.co_owner = <int*>malloc((self.n_routes + 1) * sizeof(int))
        if not (self.best_pay and self.claimable and self.list_a and self.list_b and self.count
                and self.offer_cost and self.co_owner):
            raise MemoryError()
        for k in range(self.n_routes):
            self.best_pay[k] = -1

    def __dealloc__(self):
        cdef int** arrays = [self.act_kind, self.act_route, self.act_card, self.act_locos, self.act_paid,
                             self.act_mask, self.act_rel_start, self.act_rel, self.best_pay, self.claimable,
                             self.list_a, self.list_b, self.count, self.offer_cost, self.route_worth,
                             self.co_field, self.co_owner]
        cdef int k
        for k in range(17):
            free(arrays[k])

    cdef void own_co(self, int* view) noexcept nogil:
        """Write the view's player as the owner of each route ``co_owner`` names them the
        further owner of (a shared claim): the styles' plans, stranded tickets and value
        estimate then count it as theirs, as scoring does."""
        cdef int r, player = view[RV_PLAYER]
        cdef int* owner = view + RV_HEADER + self.n_cards
        if not self.has_co:
            return
        for r in range(self.n_routes):
            if self.co_owner[r] == player:
                owner[r] = player

    # --- one decision's facts ----------------------------------------------------------
    cdef void begin(self, Turn* t, int style, const int* view, const int* legal, int n_legal) noexcept nogil:
        cdef int k, a, kind, c, best
        t.style = style
        t.player = view[RV_PLAYER]
        t.players = view[RV_PLAYERS]
        t.trains = view[RV_TRAINS]
        t.hand = view + RV_HEADER
        t.owner = t.hand + self.n_cards
        t.tickets_n = view[RV_TICKETS_N]
        t.tickets = t.owner + 2 * self.n_routes
        t.claimable_now = t.owner + self.n_routes
        t.open = self.planning_open(t.owner, t.claimable_now, t.player)
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

    cdef int path_routes(self, Turn* t, Plan* plan, int* out) noexcept nogil:
        """Open routes on the paths of the player's incomplete, still reachable tickets, each
        once, in ticket order; ``count[r]`` is left holding how many of those paths route r
        is on. A route whose count is above 0 already is not listed (a caller may mark
        routes to leave out); the caller sets the counts back to 0."""
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
        return n

    cdef int ticket_routes(self, Turn* t, Plan* plan, int* out) noexcept nogil:
        """Open routes on the paths of incomplete, still reachable tickets, each once, in
        ticket order."""
        cdef int k, n = self.path_routes(t, plan, out)
        for k in range(n):
            self.count[out[k]] = 0
        return n

    cdef void deficit(self, Turn* t, int route, int* missing, int* card) noexcept nogil:
        """Cards still missing to claim ``route``, and the colour to collect for it."""
        cdef int colour = self.route_colour[route]
        if colour < 0 and t.seen != NULL and t.seen[route] >= 0:
            colour = t.seen[route]  # a gray route the seat opened in a colour: only it pays
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
        # a network that grows (planning_open) may reach a long route only after many
        # claims: the routes open to the rules now
        cdef const char* open = plan.open_route
        for r in range(self.n_routes):
            if (t.claimable_now[r] if self.grows else open[r]) and top < self.route_len[r] <= t.trains:
                top = self.route_len[r]
        if top < 3:
            return 0
        floor = top - 1 if top > 3 else 3
        for length in range(top, floor - 1, -1):
            for r in range(self.n_routes):
                if (t.claimable_now[r] if self.grows else open[r]) and self.route_len[r] == length:
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
        cdef int k, n = self.path_routes(t, plan, out)
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
            self.count[out[k]] = 1
        m = self.ticket_routes(t, plan, self.list_b)
        for k in range(n):
            self.count[out[k]] = 0
        for k in range(m):
            out[n + k] = self.list_b[k]
        return m

    cdef int claim_by_points(self, Turn* t, Plan* plan) noexcept nogil:
        """One-step: the legal claim of a wanted route worth most (its points and what a
        mechanic says it brings besides, always and now; the earlier wanted among equals), else
        the endgame claim."""
        cdef int n = self.wanted(t, plan, self.list_a), k, r, best = -1
        for k in range(n):
            r = self.list_a[k]
            if self.claim_of(t, r) != -1 and (best == -1 or self.route_worth[r] + plan.worth_now[r]
                                              > self.route_worth[best] + plan.worth_now[best]):
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
        """Greedy: the claim scoring most now, its route's worth (its points and what a
        mechanic says it brings besides, always and now) plus every ticket it completes."""
        cdef int k, j, r, gain, best = -1, best_gain = 0, ticket
        self.ready_claims(t)
        for k in range(self.n_claimable):
            r = self.claimable[k]
            gain = self.route_worth[r] + plan.worth_now[r]
            for j in range(t.tickets_n):
                ticket = t.tickets[j]
                if (self.live(self.path_cost(plan, ticket)) and plan.path_len[ticket] == 1
                        and plan.path_routes[plan.path_start[ticket]] == r):
                    gain += self.worth_units * self.ticket_points[ticket]
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

    cdef int by_plan_choice(self, Turn* t, Plan* plan) noexcept nogil:
        """Among options tied to routes (``AgentPlay.routes``: a city, tied to the routes at
        it), the one whose routes the paths planned for the held tickets still to join use
        most, each route weighed by the points of the tickets whose path uses it (the first
        of equals); when no option's routes are planned, an option tied to no route (one
        declining) if one is legal, else the first."""
        cdef int k, j, m, a, r, ticket, weight, best = -1, best_weight = 0, plain = -1, first = -1
        for m in range(t.tickets_n):  # count[r]: the points of the planned paths using r
            ticket = t.tickets[m]
            if not self.live(self.path_cost(plan, ticket)):
                continue
            for j in range(plan.path_start[ticket], plan.path_start[ticket] + plan.path_len[ticket]):
                self.count[plan.path_routes[j]] += self.ticket_points[ticket]
        for k in range(t.n_legal):
            a = t.legal[k]
            if self.act_kind[a] != K_BY_PLAN:
                continue
            if first == -1:
                first = a
            if self.act_rel_start[a] == self.act_rel_start[a + 1]:
                if plain == -1:
                    plain = a
                continue
            weight = 0
            for j in range(self.act_rel_start[a], self.act_rel_start[a + 1]):
                weight += self.count[self.act_rel[j]]
            if weight > best_weight:
                best, best_weight = a, weight
        for r in range(self.n_routes):
            self.count[r] = 0
        if best != -1:
            return best
        return plain if plain != -1 else first

    cdef void learn_closed(self, Turn* t, Plan* plan) noexcept nogil:
        """At a decision offering options that open routes (track beds to build): a free route
        an option could open, offered by none while another route of its length is offered,
        can never be opened (its pieces are there; a crossing or the player count shut it, for
        the rest of the game): the plan stops counting on it. A length none is offered of says
        nothing (its pieces may all be out)."""
        cdef int k, j, a, r
        cdef char offered_length[LENGTHS_SEEN]
        memset(offered_length, 0, LENGTHS_SEEN)
        for k in range(t.n_legal):
            a = t.legal[k]
            if self.act_kind[a] != K_OPEN_ROUTE:
                continue
            for j in range(self.act_rel_start[a], self.act_rel_start[a + 1]):
                r = self.act_rel[j]
                self.mark[r] = 1
                if self.route_len[r] < LENGTHS_SEEN:
                    offered_length[self.route_len[r]] = 1
        for r in range(self.n_routes):
            if (self.route_openable[r] and not self.mark[r] and t.owner[r] < 0 and not t.open[r]
                    and self.route_len[r] < LENGTHS_SEEN and offered_length[self.route_len[r]]):
                plan.seen[r] = SEEN_CLOSED
            self.mark[r] = 0

    cdef int open_route_choice(self, Turn* t, Plan* plan) noexcept nogil:
        """The option that opens a route the player's tickets want (a track bed on the
        cheapest path of a live ticket, the cheapest ticket first), in the card colour the
        player holds most of; with no wanted route among the options, the colour held most
        (the first of equals). ``count`` marks each wanted route with its ticket's cost
        meanwhile and is cleared after."""
        cdef int k, j, a, r, ticket, cost, want, held, best = -1, best_want = UNREACHABLE, best_held = -1
        for k in range(t.tickets_n):
            ticket = t.tickets[k]
            cost = self.path_cost(plan, ticket)
            if not self.live(cost):
                continue
            for j in range(plan.path_start[ticket], plan.path_start[ticket] + plan.path_len[ticket]):
                r = plan.path_routes[j]
                if self.count[r] == 0 or cost < self.count[r]:
                    self.count[r] = cost
        for k in range(t.n_legal):
            a = t.legal[k]
            if self.act_kind[a] != K_OPEN_ROUTE:
                continue
            want = UNREACHABLE
            for j in range(self.act_rel_start[a], self.act_rel_start[a + 1]):
                r = self.act_rel[j]
                if self.count[r] and self.count[r] < want:
                    want = self.count[r]
            held = self.hand_of(t, self.act_card[a])
            if best == -1 or want < best_want or (want == best_want and held > best_held):
                best, best_want, best_held = a, want, held
        for k in range(t.tickets_n):
            ticket = t.tickets[k]
            if plan.planned[ticket]:
                for j in range(plan.path_start[ticket], plan.path_start[ticket] + plan.path_len[ticket]):
                    self.count[plan.path_routes[j]] = 0
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
                            and self.cheapest_path(plan.owner_seen, plan.player, plan.players, plan.open_route,
                                                   plan.borrowed, ticket, self.list_b, &n) <= t.trains):
                        gain += self.worth_units * self.ticket_points[ticket]
                plan.borrowed[r] = 0
                if gain > best_gain:  # equal gains: the lowest id, then the first route, stays
                    best, best_route, best_gain = a, r, gain
        if best != -1:
            plan.borrowed[best_route] = 1
            plan.valid = 0  # plan again with the borrowed route
        return best

    cdef int unlock(self, Turn* t, Plan* plan) noexcept nogil:
        """Among the legal options that open routes to the player (``AgentPlay.routes``: the
        routes a technology opens), the one whose free routes, counted open, join the most
        points of held tickets within the trains left, then save the most trains on the held
        tickets still to join; -1 when none joins a ticket or saves at least 2 trains. The
        routes count open whatever else they need: an option is judged as if it were the
        last one missing, so a route needing two is worked towards one option at a time."""
        cdef int k, j, m, a, r, ticket, n, after, opened, gain, saved, best = -1, best_gain = 0, best_saved = 1
        for m in range(t.tickets_n):  # each held ticket's cost on the routes open now
            ticket = t.tickets[m]
            self.offer_cost[ticket] = self.path_cost(plan, ticket)
        for k in range(t.n_legal):
            a = t.legal[k]
            if self.act_kind[a] != K_UNLOCK:
                continue
            opened = 0
            for j in range(self.act_rel_start[a], self.act_rel_start[a + 1]):
                r = self.act_rel[j]
                if t.owner[r] < 0 and not plan.open_route[r]:
                    plan.open_route[r] = 1
                    self.list_a[opened] = r
                    opened += 1
            if not opened:
                continue
            gain = 0
            saved = 0
            for m in range(t.tickets_n):
                ticket = t.tickets[m]
                if self.offer_cost[ticket] == 0:
                    continue
                after = self.cheapest_path(plan.owner_seen, plan.player, plan.players, plan.open_route,
                                           plan.borrowed, ticket, self.list_b, &n)
                if self.offer_cost[ticket] > t.trains and after <= t.trains:
                    gain += self.ticket_points[ticket]
                elif self.offer_cost[ticket] <= t.trains and after < self.offer_cost[ticket]:
                    saved += self.offer_cost[ticket] - after
            for j in range(opened):
                plan.open_route[self.list_a[j]] = 0
            if gain > best_gain or (gain == best_gain and saved > best_saved):
                best, best_gain, best_saved = a, gain, saved
        return best

    cdef inline bint shareable(self, Turn* t, Plan* plan, int r) noexcept nogil:
        # a route another player owns that nobody shares yet, the trains left can lay, and that
        # was not refused to the player's shared claims before (owned_claim)
        return (0 <= t.owner[r] < t.players and t.owner[r] != t.player and self.route_len[r] <= t.trains
                and not plan.borrowed[r] and not (self.has_co and self.co_owner[r] >= 0)
                and plan.seen[r] != SEEN_CLOSED)

    cdef int share_gain(self, Turn* t, Plan* plan, int route, int* saved) noexcept nogil:
        """What a claim of ``route`` (another player's; shared once claimed) brings the held
        tickets: the points of those it lets the trains left join (stranded or too long
        without it), and in ``saved`` the trains it saves on the others still to join, less
        the trains the tickets it joins then take. The route counts open at its length: it
        is still claimed with cards and trains. ``offer_cost`` holds each held ticket's cost
        on the plan (:meth:`ticket_costs`)."""
        cdef int m, ticket, n, after, before, gain = 0
        cdef char was = plan.open_route[route]
        saved[0] = 0
        plan.open_route[route] = 1
        for m in range(t.tickets_n):
            ticket = t.tickets[m]
            before = self.offer_cost[ticket]
            if before == 0:
                continue
            after = self.cheapest_path(plan.owner_seen, plan.player, plan.players, plan.open_route,
                                       plan.borrowed, ticket, self.list_b, &n)
            if before > t.trains and after <= t.trains:
                gain += self.ticket_points[ticket]
                saved[0] -= after
            elif before <= t.trains and after < before:
                saved[0] += before - after
        plan.open_route[route] = was
        return gain

    cdef void ticket_costs(self, Turn* t, Plan* plan) noexcept nogil:
        # offer_cost[ticket]: each held ticket's cost on the plan (0 complete, UNREACHABLE stranded)
        cdef int m
        for m in range(t.tickets_n):
            self.offer_cost[t.tickets[m]] = self.path_cost(plan, t.tickets[m])

    cdef bint better_share(self, Turn* t, Plan* plan, int r, int gain, int saved, int best, int best_gain,
                           int best_saved) noexcept nogil:
        # more ticket points joined, then more trains saved, then the claim worth more, then the lowest id
        if best == -1 or gain != best_gain:
            return best == -1 or gain > best_gain
        if saved != best_saved:
            return saved > best_saved
        return self.route_worth[r] + plan.worth_now[r] > self.route_worth[best] + plan.worth_now[best]

    cdef int share_target(self, Turn* t, Plan* plan, int option, int* gain_out, int* saved_out) noexcept nogil:
        """The route of another player whose claim brings the held tickets most
        (:meth:`share_gain`) among those the cheapest way of a ticket uses when every such route
        counts open (a ticket blocked only by them), and, unless ``option`` is -1, whose claim
        the hand still pays for once the option's locomotives are paid: -1 when none brings
        anything."""
        cdef int k, r, n, ticket, opened = 0, best = -1, best_gain = 0, best_saved = 0, gain, saved, colour
        self.ticket_costs(t, plan)
        for r in range(self.n_routes):
            if self.shareable(t, plan, r) and not plan.open_route[r]:
                plan.open_route[r] = 1
                self.list_a[opened] = r
                opened += 1
        for k in range(t.tickets_n):  # the routes of other players on the ways that use them
            ticket = t.tickets[k]
            if self.offer_cost[ticket] == 0:
                continue
            self.cheapest_path(plan.owner_seen, plan.player, plan.players, plan.open_route, plan.borrowed,
                               ticket, self.list_b, &n)
            for r in range(n):
                if self.shareable(t, plan, self.list_b[r]):
                    self.mark[self.list_b[r]] = 1
        for k in range(opened):
            plan.open_route[self.list_a[k]] = 0
        for r in range(self.n_routes):
            if not self.mark[r]:
                continue
            self.mark[r] = 0
            colour = self.route_colour[r] if self.route_colour[r] >= 0 else t.most_held
            if option != -1 and t.hand[colour] + t.hand[self.loco] - self.act_locos[option] < self.route_len[r]:
                continue
            gain = self.share_gain(t, plan, r, &saved)
            if (gain or saved > 0) and self.better_share(t, plan, r, gain, saved, best, best_gain, best_saved):
                best, best_gain, best_saved = r, gain, saved
        gain_out[0] = best_gain
        saved_out[0] = best_saved
        return best

    cdef int claim_owned_choice(self, Turn* t, Plan* plan) noexcept nogil:
        """The rule ``claim_owned``: the first legal option after which the player claims a
        route another player owns, when such a route, its claim still paid for by the hand
        once the option's locomotives are, joins a held ticket the trains left could not join,
        or saves SHARE_SAVES trains or more on one; -1 otherwise."""
        cdef int option = t.kind_first[K_CLAIM_OWNED], gain, saved
        if option == -1 or self.share_target(t, plan, option, &gain, &saved) == -1:
            return -1
        return option if gain > 0 or saved >= SHARE_SAVES else -1

    cdef bint claims_owned_routes(self, Turn* t) noexcept nogil:
        # the decision's claims are of routes other players own (the decision after a claim_owned option)
        cdef int r
        if not t.kind_count[K_CLAIM]:
            return 0
        r = self.act_route[t.kind_first[K_CLAIM]]
        return 0 <= t.owner[r] < t.players and t.owner[r] != t.player

    cdef int owned_claim(self, Turn* t, Plan* plan) noexcept nogil:
        """Among legal claims of routes other players own, the one whose route joins the most
        points of held tickets, then saves the most trains on them (:meth:`share_gain`), then
        is worth most (the lowest id among equals): its best payment. The route the held
        tickets want most (:meth:`share_target`), when it has no legal claim, is refused to the
        player's shared claims (its technologies, a ferry's locomotives): the plan leaves it
        out for the rest of the game, so the option is not taken for it again."""
        cdef int k, r, gain, saved, best = -1, best_gain = 0, best_saved = 0
        self.ready_claims(t)
        r = self.share_target(t, plan, -1, &gain, &saved)
        if r != -1 and self.best_pay[r] == -1:
            plan.seen[r] = SEEN_CLOSED
        self.ticket_costs(t, plan)
        for k in range(self.n_claimable):
            r = self.claimable[k]
            gain = self.share_gain(t, plan, r, &saved)
            if self.better_share(t, plan, r, gain, saved, best, best_gain, best_saved):
                best, best_gain, best_saved = r, gain, saved
        return self.best_pay[best] if best != -1 else -1

    cdef int invest(self, Turn* t, Plan* plan) noexcept nogil:
        """The legal option a mechanic says brings most now, its price paid (AgentPlay.
        option_worth_now: a technology that scores), when that is above 0; -1 otherwise."""
        cdef int k, a, best = -1
        for k in range(t.n_legal):
            a = t.legal[k]
            if plan.option_worth[a] > 0 and (best == -1 or plan.option_worth[a] > plan.option_worth[best]):
                best = a
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
        cdef int choice, j
        if n_legal == 1:
            return legal[0]
        self.begin(&t, style, view, legal, n_legal)
        t.seen = plan.seen
        if t.kind_count[K_OPEN_ROUTE]:
            self.learn_closed(&t, plan)
        self.refresh(plan, t.owner, t.open, t.player, t.players)
        if t.kind_count[K_KEEP]:
            return self.keep(&t, plan)
        if t.kind_count[K_PAY]:
            return self.fewest_locomotives(&t)
        if t.kind_count[K_WITHDRAW]:
            return t.kind_first[K_WITHDRAW]
        if t.kind_count[K_BY_ROUTES]:
            return self.by_routes_choice(&t)
        if t.kind_count[K_BY_PLAN]:
            return self.by_plan_choice(&t, plan)
        if t.kind_count[K_OPEN_ROUTE]:
            choice = self.open_route_choice(&t, plan)
            for j in range(self.act_rel_start[choice], self.act_rel_start[choice + 1]):
                plan.seen[self.act_rel[j]] = self.act_card[choice]  # the colour the seat opens it in
            return choice
        if t.kind_count[K_RESCUE]:
            choice = self.rescue(&t, plan)
            if choice != -1:
                return choice
        if t.kind_count[K_UNLOCK]:
            choice = self.unlock(&t, plan)
            if choice != -1:
                return choice
        if t.kind_count[K_CLAIM_OWNED]:
            choice = self.claim_owned_choice(&t, plan)
            if choice != -1:
                return choice
        if plan.any_option:
            choice = self.invest(&t, plan)
            if choice != -1:
                return choice
        if self.claims_owned_routes(&t):
            return self.owned_claim(&t, plan)
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
