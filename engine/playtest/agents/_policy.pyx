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

One module, in three parts compiled together: ``_planner.pxi`` (the map as C arrays and
each seat's cheapest paths over it: :class:`Planner`), ``_styles.pxi`` (one decision's
facts, the turn skeleton the styles share and the choices they differ in: :class:`Styles`)
and this file (:class:`Policy`, which adds the value estimate and what Python calls; the
seats; small sorts and heaps).
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset
from libc.math cimport rint
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_New

from engine_api cimport (RAILSPEC_ENGINE_API_NAME, RAILSPEC_ENGINE_API_VERSION, RAILSPEC_ENGINE_STATE_NAME,
                         RF_FIXED, RF_INT, RV_HEADER, RV_OFFER_N, RV_PLAYER, RV_PLAYERS, RV_TICKETS_N, RV_TRAINS,
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
    K_UNLOCK = 12      # an option opening routes closed to the player (a technology): taken when the
                       # routes it opens join held tickets, or save trains on them
    K_BY_PLAN = 13     # a choice among options tied to routes: the one whose routes the held tickets'
                       # planned paths use most (a start city, a city to mark), else one declining
    K_OPEN_ROUTE = 14  # an option opening one of its routes to claims (a track bed built): a route the
                       # player's tickets want, in the colour the player holds most of
    K_CLAIM_OWNED = 15  # an option after which the player claims a route another player owns (AgentPlay.
                        # claims_owned: Right of Way): taken when such a route on a held ticket's way
                        # joins it or saves trains on it
    N_KINDS = 16

DEF UNREACHABLE = 1 << 30
DEF SEEN_NOTHING = -1  # Plan.seen: nothing learnt of the route
DEF SEEN_CLOSED = -2   # Plan.seen: a build decision showed the route can never be opened
DEF LENGTHS_SEEN = 64  # route lengths a decision's scratch tells apart (the language allows 1 … 12)
DEF MAX_PLAYERS = 16
DEF SHARE_SAVES = 6  # trains a claim of another player's route must save on a ticket to buy the option
                     # letting the player claim it (rule claim_owned), when it joins no ticket
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

# Policy.asks's bits: the figures of claims (Seat.set_worth's ``worth``), of options, are read
cdef enum:
    READS_CLAIMS = 1
    READS_OPTIONS = 2
ASK_CLAIMS = READS_CLAIMS
ASK_OPTIONS = READS_OPTIONS


cdef inline bint reads_claim_worth(int style) noexcept nogil:
    """Whether a style weighs a legal claim by what it brings now (plan.worth_now): all but
    route-focus and destination-hungry, which claim the first wanted route they can
    (Styles.claim); a new style counts as one that does."""
    return style != ROUTE_FOCUS and style != DESTINATION_HUNGRY


#: The styles by the names the agents go by.
STYLES = {"one-step": ONE_STEP, "long-route": LONG_ROUTE, "route-focus": ROUTE_FOCUS,
          "destination-hungry": DESTINATION_HUNGRY, "greedy": GREEDY}
#: Seat.seen's value for a route never to be opened.
CLOSED_FOR_GOOD = SEEN_CLOSED
#: The code of a kind no rule covers.
OTHER = K_OTHER
#: The rule names Mechanic.agent_rules may use, and the core kinds' codes.
RULES = {"pay": K_PAY, "withdraw": K_WITHDRAW, "by_routes": K_BY_ROUTES, "payment_draw": K_PAYMENT_DRAW,
         "rescue": K_RESCUE, "unlock": K_UNLOCK, "by_plan": K_BY_PLAN, "open_route": K_OPEN_ROUTE,
         "claim_owned": K_CLAIM_OWNED, "never": K_OTHER}
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


include "_planner.pxi"
include "_styles.pxi"


cdef class Policy(Styles):
    """One variant's map and catalogue for the scripted styles, as C arrays (the planner's
    and the styles'), with what a caller needs: the value estimate, and the styles asked
    from Python or played in a compiled game."""

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
    cdef char* asking          # [n_actions]: ASK_CLAIMS/ASK_OPTIONS where a legal action makes figures matter
    cdef int asking_any        # the bits some action has

    def __cinit__(self, tables):
        """``tables``: a dict of int lists (railspec.agents.tables.policy_tables)."""
        self.view_cap = RV_HEADER + self.n_cards + 2 * self.n_routes + 2 * self.n_tickets + 8
        self.scratch_legal = <int*>malloc((self.n_actions + 1) * sizeof(int))
        self.scratch_view = <int*>malloc(self.view_cap * sizeof(int))
        self.est_views = <int*>malloc(MAX_PLAYERS * self.view_cap * sizeof(int))
        self.est_cost = <int*>malloc((self.n_tickets + 1) * sizeof(int))
        self.est_points = <int*>malloc((self.n_tickets + 1) * sizeof(int))
        self.est_open = <char*>calloc(self.n_routes + 1, 1)
        self.est_borrowed = <char*>calloc(self.n_routes + 1, 1)
        self.asking = <char*>calloc(self.n_actions + 1, 1)
        if not (self.scratch_legal and self.scratch_view and self.est_views and self.est_cost and self.est_points
                and self.est_open and self.est_borrowed and self.asking):
            raise MemoryError()
        length = sum(tables["route_len"])
        self.train_value = sum(tables["route_points"]) / length if length else 0.0

    def __dealloc__(self):
        free(self.scratch_legal)
        free(self.scratch_view)
        free(self.est_views)
        free(self.est_cost)
        free(self.est_points)
        free(self.est_open)
        free(self.est_borrowed)
        free(self.asking)

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
        cdef const int* tickets = owner + 2 * self.n_routes
        cdef int player = v[RV_PLAYER], r, k, j, m = 0, n, cost, points, budget = usable, cards = 0
        cdef const int* open = self.planning_open(owner, owner + self.n_routes, player)
        cdef double value, chance
        for k in range(self.n_cards):
            cards += v[RV_HEADER + k]
        value = total + self.train_value * (TRAIN_WORTH * usable + HAND_WORTH * cards)
        for r in range(self.n_routes):
            self.est_open[r] = self.plan_open(owner, open, NULL, r)
        for k in range(v[RV_TICKETS_N]):
            cost = self.cheapest_path(owner, player, v[RV_PLAYERS], self.est_open, self.est_borrowed, tickets[k],
                                      self.list_b, &n)
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

    # --- a route's further owners (Field.co_owner) ------------------------------------------
    cdef void read_co(self, railspec_engine_api* api, void* state) noexcept nogil:
        """Each route's further owner in a compiled engine's state, from its co_owner fields
        (their rows of ints, one a route: _open checked the field table)."""
        cdef int j, r
        cdef const int* values
        self.has_co = 0
        if self.n_co == 0:
            return
        for r in range(self.n_routes):
            self.co_owner[r] = -1
        for j in range(self.n_co):
            values = <const int*>(<const char*>state + api.fields[self.co_field[j]].offset)
            for r in range(self.n_routes):
                if values[r] >= 0:
                    self.co_owner[r] = values[r]
                    self.has_co = 1

    cdef void set_co(self, object co_owner) except *:
        """Each route's further owner as Python gives it (None: nobody's)."""
        cdef int r
        self.has_co = 0
        if co_owner is None:
            return
        if len(co_owner) != self.n_routes:
            raise ValueError(f"co_owner names an owner for {len(co_owner)} routes, not {self.n_routes}")
        for r in range(self.n_routes):
            self.co_owner[r] = co_owner[r]
            self.has_co |= self.co_owner[r] >= 0

    # --- the Python face -------------------------------------------------------------------
    def estimate(self, views, totals, co_owner=None):
        """Each seat's final score as the position promises it, from every seat's agent
        view (``views[p]``: seat p's, as ``game.agent_view(p)`` gives it) and each seat's
        total now (``game.scores()``): see :meth:`seat_value`. ``co_owner``: each route's
        further owner (-1: none; ``tables.co_owners``), whose routes count as theirs."""
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
        self.set_co(co_owner)
        for p in range(players):
            self.own_co(self.est_views + p * self.view_cap)
        self.estimate_views(players, totals_c, out)
        return [out[p] for p in range(players)]

    def decide(self, Seat seat, view, legal, co_owner=None):
        """The action ``seat``'s style takes, from an agent view and the legal ids (both
        int sequences; the legal ids ascending). ``co_owner``: each route's further owner
        (-1: none; ``tables.co_owners``), whose routes the view's player counts as theirs."""
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
        self.set_co(co_owner)
        self.own_co(self.scratch_view)
        return self.choose(seat.style, &seat.plan, self.scratch_view, self.scratch_legal, n, &seat.rng)

    def bind(self, Seat seat):
        """Size ``seat``'s plan for this policy's variant, so that compiled code may decide
        for it through :data:`SEAT_DECIDE` (any policy of the same variant may then decide
        for it: a policy lends only its scratch arrays to a decision)."""
        seat.ready(self)

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
        self.read_co(api, state)
        self.own_co(self.scratch_view)
        return self.choose(seat.style, &seat.plan, self.scratch_view, self.scratch_legal, n, &seat.rng)

    def set_asking(self, claims, options):
        """Mark the action ids whose being legal makes what a mechanic says claims and options
        bring now (:meth:`Seat.set_worth`) matter to a decision: ``claims``, those of the
        routes it may give a worth, and ``options``, the options it may price (the styles read
        a seat's figures only at legal claims and options). :meth:`asks` and
        :meth:`asks_compiled` read the marks."""
        cdef int a
        memset(self.asking, 0, self.n_actions)
        for mark, ids in ((READS_CLAIMS, claims), (READS_OPTIONS, options)):
            for a in ids:
                if not 0 <= a < self.n_actions:
                    raise ValueError(f"no action {a} in this variant")
                self.asking[a] |= mark
        self.asking_any = 0
        for a in range(self.n_actions):
            self.asking_any |= self.asking[a]

    cdef int asked(self, int style, const int* legal, int n) noexcept nogil:
        """Which figures a seat of ``style`` reads at a decision with the ``n`` legal ids:
        READS_CLAIMS when some is a marked claim and the style weighs claims by their worth,
        READS_OPTIONS when some is a marked option."""
        cdef int k, found = 0, wanted = self.asking_any
        if style >= 0 and not reads_claim_worth(style):
            wanted &= ~READS_CLAIMS
        for k in range(n):
            found |= self.asking[legal[k]] & wanted
            if found == wanted:
                break
        return found

    def asks(self, int style, legal):
        """Which figures (ASK_CLAIMS, ASK_OPTIONS bits; 0: none) a seat of ``style`` (-1:
        any style) reads at a decision with the legal ids ``legal`` (the marks of
        :meth:`set_asking`)."""
        cdef int n = 0, a
        for a in legal:
            if not 0 <= a < self.n_actions:
                raise ValueError(f"no action {a} in this variant")
            if n == self.n_actions:
                raise ValueError("more legal ids than actions")
            self.scratch_legal[n] = a
            n += 1
        return self.asked(style, self.scratch_legal, n)

    def asks_compiled(self, int style, engine):
        """:meth:`asks` of the compiled game ``engine``'s (its Engine) legal ids, read through
        the engine's C interface: no list built."""
        cdef railspec_engine_api* api
        cdef void* state
        keep = _open(engine, self, &api, &state)
        if api.is_over(state):
            return 0
        return self.asked(style, self.scratch_legal, api.legal(state, self.scratch_legal))

    def decide_told(self, Seat seat, engine, ask):
        """:meth:`decide_compiled`, the seat told first what claims and options bring now
        where its style reads it: ``ask(wanted)`` (``wanted``: :meth:`asks`'s bits) gives the
        figures in points, (route id -> points, action id -> points) as
        :meth:`Seat.set_worth_points` takes them, only when some is wanted; otherwise the seat
        holds none. The legal ids are read once for both (no list built)."""
        cdef railspec_engine_api* api
        cdef void* state
        cdef int n, wanted
        keep = _open(engine, self, &api, &state)
        if api.is_over(state):
            raise ValueError("the game is over: nobody is to move")
        seat.ready(self)
        n = api.legal(state, self.scratch_legal)
        if n <= 0:
            raise ValueError("no legal action to choose from")
        wanted = self.asked(seat.style, self.scratch_legal, n)
        if wanted:
            seat.set_worth_points(self, *ask(wanted))
            n = api.legal(state, self.scratch_legal)  # ask ran Python: read them again rather than trust it
        else:
            seat.clear_worth()
        api.view(state, self.scratch_view)
        self.read_co(api, state)
        self.own_co(self.scratch_view)
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
        self.read_co(api, state)
        self.own_co(self.scratch_view)
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
                self.read_co(api, state)
                self.own_co(self.scratch_view)
                p = api.current(state)
                action = self.choose(style_of[p], plans[p], self.scratch_view, self.scratch_legal, n, rngs[p])
                api.apply(state, action)
                guard += 1
            api.totals(state, totals)
            over = api.is_over(state) or horizon < 0
            if not over:
                self.read_co(api, state)
                for p in range(players):
                    api.seat_view(state, p, self.est_views + p * self.view_cap)
                    self.own_co(self.est_views + p * self.view_cap)
                self.estimate_views(players, totals, values)
        if over:
            return [totals[p] for p in range(players)]
        return [values[p] for p in range(players)]


cdef object _open(object engine, Policy policy, railspec_engine_api** api, void** state):
    """Point ``api`` and ``state`` at a compiled Engine's interface and state; returns the
    capsules, which the caller keeps while it uses the pointers."""
    cdef int j, k
    capsules = engine._c_api()
    api[0] = <railspec_engine_api*>PyCapsule_GetPointer(capsules[0], RAILSPEC_ENGINE_API_NAME)
    state[0] = PyCapsule_GetPointer(capsules[1], RAILSPEC_ENGINE_STATE_NAME)
    if api[0].version != RAILSPEC_ENGINE_API_VERSION:
        raise ValueError(f"the engine speaks interface {api[0].version}, the agents "
                         f"{RAILSPEC_ENGINE_API_VERSION}; rebuild the engine")
    if (api[0].n_cards != policy.n_cards or api[0].n_routes != policy.n_routes
            or api[0].n_actions != policy.n_actions or api[0].view_size > policy.view_cap):
        raise ValueError("this engine is not of the variant the policy was built for")
    for j in range(policy.n_co):  # read_co reads these as one int a route
        k = policy.co_field[j]
        if not (0 <= k < api[0].n_fields and api[0].fields[k].kind == RF_INT and api[0].fields[k].shape == RF_FIXED
                and not api[0].fields[k].per_player and api[0].fields[k].size >= policy.n_routes):
            raise ValueError(f"the engine's field {k} is not a row of one int a route (a co_owner field)")
    return capsules


cdef class Seat:
    """One scripted agent's memory: its style, its generator and its plan."""

    cdef public int style
    cdef unsigned long long rng
    cdef Plan plan
    cdef object policy      # the Policy the plan's arrays are sized for
    cdef int n_routes       # its routes (the borrowed flags' length), 0 while unbound
    cdef int n_actions      # its actions (the option worths' length), 0 while unbound

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
        self.plan.seen = <int*>malloc((policy.n_routes + 1) * sizeof(int))
        self.plan.worth_now = <int*>calloc(policy.n_routes + 1, sizeof(int))
        self.plan.option_worth = <int*>calloc(policy.n_actions + 1, sizeof(int))
        self.plan.any_option = 0
        self.n_actions = policy.n_actions
        if not (self.plan.owner_seen and self.plan.open_route and self.plan.planned and self.plan.cost
                and self.plan.path_start and self.plan.path_len and self.plan.path_routes and self.plan.borrowed
                and self.plan.seen and self.plan.worth_now and self.plan.option_worth):
            self.release()
            raise MemoryError()
        forget_seen(&self.plan, policy.n_routes)
        self.plan.valid = 0
        self.policy = policy
        self.n_routes = policy.n_routes

    cdef void release(self) noexcept:
        free(self.plan.owner_seen)
        free(self.plan.open_route)
        free(self.plan.planned)
        free(self.plan.cost)
        free(self.plan.path_start)
        free(self.plan.path_len)
        free(self.plan.path_routes)
        free(self.plan.borrowed)
        free(self.plan.seen)
        free(self.plan.worth_now)
        free(self.plan.option_worth)
        memset(&self.plan, 0, sizeof(Plan))
        self.policy = None
        self.n_routes = 0
        self.n_actions = 0

    def seen(self) -> dict:
        """What the seat learnt of the routes an action opens (rule open_route), by route id:
        the card colour it built the route in, or CLOSED_FOR_GOOD (a build decision showed
        the route can never be opened; of another player's route, that a claim of it was not
        offered after an option of the rule claim_owned). Empty before the seat has decided
        in a game."""
        if self.policy is None:
            return {}
        return {r: self.plan.seen[r] for r in range(self.n_routes) if self.plan.seen[r] != SEEN_NOTHING}

    def forget(self):
        """Drop the cached plan, the borrowed routes, what was learnt of the routes and the
        claims' worth now (a new game)."""
        self.plan.valid = 0
        if self.policy is not None:
            memset(self.plan.borrowed, 0, (<Policy>self.policy).n_routes)
            forget_seen(&self.plan, (<Policy>self.policy).n_routes)
            memset(self.plan.worth_now, 0, self.n_routes * sizeof(int))
            memset(self.plan.option_worth, 0, self.n_actions * sizeof(int))
            self.plan.any_option = 0

    cdef void clear_worth(self) noexcept:
        """No figure of what a claim or an option brings now (as set_worth with none)."""
        if self.policy is not None:
            memset(self.plan.worth_now, 0, self.n_routes * sizeof(int))
            memset(self.plan.option_worth, 0, self.n_actions * sizeof(int))
            self.plan.any_option = 0

    def set_worth(self, Policy policy, worth, options=None):
        """For the decisions until the next call: what a claim of a route brings now besides
        its points (``worth``, route id -> worth; AgentPlay.worth_now) and what taking an
        option brings now, its price paid (``options``, action id -> worth; AgentPlay.
        option_worth_now); ints in the policy's worth units (docs/agents.md), 0 for every id
        not given. The seat is sized for ``policy``'s variant first."""
        cdef int r, a
        self.ready(policy)
        memset(self.plan.worth_now, 0, self.n_routes * sizeof(int))
        for r, value in worth.items():
            if not 0 <= r < self.n_routes:
                raise ValueError(f"no route {r} in this variant")
            self.plan.worth_now[r] = value
        memset(self.plan.option_worth, 0, self.n_actions * sizeof(int))
        self.plan.any_option = 0
        for a, value in (options or {}).items():
            if not 0 <= a < self.n_actions:
                raise ValueError(f"no action {a} in this variant")
            self.plan.option_worth[a] = value
            self.plan.any_option |= value > 0

    def set_worth_points(self, Policy policy, worth, options):
        """:meth:`set_worth` from figures in points (floats): each times the policy's worth
        units and rounded to the nearest int, half to even, as Python's ``round`` does (what
        the agents' tables.worth_now gives set_worth), without a dict of ints made first."""
        cdef int r, a
        cdef double units = policy.worth_units
        self.ready(policy)
        memset(self.plan.worth_now, 0, self.n_routes * sizeof(int))
        for r, value in worth.items():
            if not 0 <= r < self.n_routes:
                raise ValueError(f"no route {r} in this variant")
            self.plan.worth_now[r] = <int>rint(units * <double>value)
        memset(self.plan.option_worth, 0, self.n_actions * sizeof(int))
        self.plan.any_option = 0
        for a, value in options.items():
            if not 0 <= a < self.n_actions:
                raise ValueError(f"no action {a} in this variant")
            self.plan.option_worth[a] = <int>rint(units * <double>value)
            self.plan.any_option |= self.plan.option_worth[a] > 0

    def __dealloc__(self):
        self.release()


# --- deciding from compiled code (railspec.rl's batched games) ----------------------------
# A batch of games holds its seats' Seat objects and one Policy per thread, and asks for a
# seat's action without the GIL through these two functions (their capsules below): the same
# choice Policy.decide_compiled makes, so a seat played in a batch plays as the agent of the
# same style and seed plays one game.

cdef int seat_decide(void* policy, void* seat, const int* view, const int* legal, int n) noexcept nogil:
    """The action the Seat at ``seat`` takes from an agent view and the legal ids (ascending,
    ``n`` >= 1), with the scratch arrays of the Policy at ``policy`` (bound to the seat's
    variant by :meth:`Policy.bind`; one thread at a time per policy)."""
    (<Policy>policy).has_co = 0  # a batch's view is the engine's own: no further owner is read
    return (<Policy>policy).choose((<Seat>seat).style, &(<Seat>seat).plan, view, legal, n, &(<Seat>seat).rng)


cdef void seat_renew(void* seat, unsigned long long rng) noexcept nogil:
    """Make the (bound) Seat at ``seat`` what a new Seat of its style seeded with ``rng``
    (the seed already salted) is: the generator reset, no plan, no borrowed route, no worth
    now."""
    (<Seat>seat).rng = rng
    (<Seat>seat).plan.valid = 0
    (<Seat>seat).plan.claimed_seen = 0
    memset((<Seat>seat).plan.borrowed, 0, (<Seat>seat).n_routes)
    forget_seen(&(<Seat>seat).plan, (<Seat>seat).n_routes)
    memset((<Seat>seat).plan.worth_now, 0, (<Seat>seat).n_routes * sizeof(int))
    memset((<Seat>seat).plan.option_worth, 0, (<Seat>seat).n_actions * sizeof(int))
    (<Seat>seat).plan.any_option = 0


cdef inline void forget_seen(Plan* plan, int n_routes) noexcept nogil:
    """Nothing learnt of any route (a new game)."""
    cdef int r
    for r in range(n_routes):
        plan.seen[r] = SEEN_NOTHING


#: Capsules of :func:`seat_decide` and :func:`seat_renew`, for compiled code that plays seats.
SEAT_DECIDE = PyCapsule_New(<void*>seat_decide, b"railspec.agents.seat_decide", NULL)
SEAT_RENEW = PyCapsule_New(<void*>seat_renew, b"railspec.agents.seat_renew", NULL)


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
