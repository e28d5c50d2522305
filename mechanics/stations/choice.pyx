# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The best use of a player's stations at scoring (Europe rulebook, CALCOLO DEI PUNTEGGI;
docs/rules.md 16): each station lets its owner use one route of another player at its
city, the same route for all the owner's tickets, and the engines pick the assignment
scoring the most ticket points, then the most completed tickets (or the other way, as the
spec says), then the lowest route ids. Compiled once with railspec; the stations
mechanic's engine.pyx.j2 cimports it: it reads a player's stations, their routes and
their tickets from the state, and asks this module for the best assignment. The
reference interpreter tries every assignment (mechanics/stations); the tests check both
engines against a brute force of their own, and this module directly
(tests/test_station_choice.py, through :func:`best_use`).

The algorithm. The caller gives each station its options as components of the player's
network: its city's component, and the components its routes lead to (one route per
component, the lowest id: another route to the same component scores the same, and comes
later in the order). The assignments are numbered in the order they are tried (the first
station's choice most significant, no route first, then its options), so the first best
is the one of the lowest route ids. A ticket's result never falls when routes are added,
so the caller leaves out the tickets no assignment can change; of the others:

- a ticket of the core is completed when some node of one city is joined to some node of
  the other, which an assignment does exactly when it holds a path of station routes
  from a component of one end to one of the other, crossing each station at most once
  (:func:`use_joins` says whether one exists). So its gain (from losing its points to
  scoring them: twice its points, and one ticket) is added to a table of the
  assignments, once for each assignment holding such a path (:func:`use_table`), before
  any is tried: a ticket costs a walk of its paths instead of a score on each
  assignment's network. With at most TABLE_CAP assignments (Europe's map gives at most
  8 x 7 x 7 = 392);
- any other ticket (a mechanic's, which its own hook scores and may read other cities),
  and every ticket past TABLE_CAP assignments, is scored on each assignment's network by
  the caller's function (:func:`use_best`'s ``score``).

With nothing left to vary, every assignment ties and the first, no route at all, stands.
"""

from libc.stdlib cimport free, malloc
from libc.string cimport memset


cdef bint can_join(StationUse* u, int x, int target, int used) noexcept nogil:
    """Whether some use of the stations not in ``used`` (a bit per station) joins component
    ``x`` to ``target``: a path through the components that crosses each station at most
    once, either way (from its city's component to an option's, or back)."""
    cdef int k, j
    if x == target:
        return True
    for k in range(u.n):
        if used & (1 << k):
            continue
        if x == u.roots[k]:
            for j in range(u.counts[k]):
                if can_join(u, u.fars[k * u.far_stride + j], target, used | (1 << k)):
                    return True
        else:
            for j in range(u.counts[k]):
                if u.fars[k * u.far_stride + j] == x:
                    if can_join(u, u.roots[k], target, used | (1 << k)):
                        return True
                    break
    return False


cdef void mark(StationUse* u, int k, int index, int ticket, int gain) noexcept nogil:
    """Count a ticket's gain once for each assignment that agrees with ``digit`` on the
    stations it sets (a digit j + 1: the station's j-th option; 0: any choice), from
    station ``k`` on, ``index`` being the assignment's number so far; ``stamp`` keeps a
    ticket (``ticket``) from counting twice where two of its paths meet."""
    cdef int d, first, last
    if k == u.n - 1:  # the last station's choices are consecutive numbers: a loop, not a call each
        first = index + u.digit[k]
        last = index + (u.digit[k] if u.digit[k] else u.counts[k])
        for d in range(first, last + 1):
            if u.stamp[d] != ticket:
                u.stamp[d] = ticket
                u.gains[d] += gain
                u.joins[d] += 1
        return
    if u.digit[k]:
        mark(u, k + 1, index + u.digit[k] * u.strides[k], ticket, gain)
    else:
        for d in range(u.counts[k] + 1):
            mark(u, k + 1, index + d * u.strides[k], ticket, gain)


cdef int paths(StationUse* u, int x, int target, int used, int ticket, int gain) noexcept nogil:
    """Every way the stations not in ``used`` join component ``x`` to ``target`` (the paths
    of :func:`can_join`, each setting the options of the stations it crosses in
    ``digit``), counted for each assignment that holds it (:func:`mark`); returns how many
    ways there are."""
    cdef int k, j, found = 0
    if x == target:
        mark(u, 0, 0, ticket, gain)
        return 1
    for k in range(u.n):
        if used & (1 << k):
            continue
        if x == u.roots[k]:
            for j in range(u.counts[k]):
                u.digit[k] = j + 1
                found += paths(u, u.fars[k * u.far_stride + j], target, used | (1 << k), ticket, gain)
            u.digit[k] = 0
        else:
            for j in range(u.counts[k]):
                if u.fars[k * u.far_stride + j] == x:
                    u.digit[k] = j + 1
                    found += paths(u, u.roots[k], target, used | (1 << k), ticket, gain)
                    u.digit[k] = 0
                    break
    return found


cdef void use_begin(StationUse* u) noexcept nogil:
    """Number the assignments of the stations ``u`` describes (``n``, ``roots``, ``fars``,
    ``far_stride``, ``counts``, filled by the caller): the last station's choice moves
    fastest, no route first; and whether they are few enough to table (``tabled``)."""
    cdef int k
    cdef long long total = 1
    for k in range(u.n - 1, -1, -1):
        u.strides[k] = <int>total if total <= TABLE_CAP else 0
        total *= u.counts[k] + 1
        if total > TABLE_CAP:
            total = TABLE_CAP + 1  # past the table: the number is not needed, and must not wrap
        u.digit[k] = 0
    u.total = <int>total
    u.tabled = total <= TABLE_CAP
    u.n_tabled = 0
    u.joined = 0


cdef bint use_joins(StationUse* u, const int* ends_a, int n_a, const int* ends_b, int n_b) noexcept nogil:
    """Whether some assignment joins one of the components ``ends_a`` (a ticket's first
    city's nodes') to one of ``ends_b``: whether it may change a ticket of the core."""
    cdef int i, j
    for i in range(n_a):
        for j in range(n_b):
            if can_join(u, ends_a[i], ends_b[j], 0):
                return True
    return False


cdef void use_table(StationUse* u, const int* ends_a, int n_a, const int* ends_b, int n_b,
                    int gain) noexcept nogil:
    """A ticket of the core that some assignment may complete (its ends' components
    ``ends_a`` and ``ends_b``, none joined now): ``gain`` and one completed ticket to each
    assignment that joins them. Only when ``tabled``."""
    cdef int i, j
    if u.n_tabled == 0:
        memset(u.gains, 0, u.total * sizeof(int))
        memset(u.joins, 0, u.total * sizeof(int))
        memset(u.stamp, 0, u.total * sizeof(int))
    u.n_tabled += 1
    for i in range(n_a):
        for j in range(n_b):
            u.joined += paths(u, ends_a[i], ends_b[j], 0, u.n_tabled, gain)


cdef inline bint better(bint points_first, int points, int completed, int best_points,
                        int best_completed) noexcept nogil:
    """Whether a use of the stations scores better by the spec's keys (in order)."""
    if points_first:
        return points > best_points or (points == best_points and completed > best_completed)
    return completed > best_completed or (completed == best_completed and points > best_points)


cdef inline void try_all(StationUse* u, int points, int completed, bint points_first, bint scored,
                         TicketsScore score, void* context, int* best) noexcept nogil:
    """Each assignment in order (:func:`use_best`), the first best into ``best``. Inlined
    four times, ``points_first`` and ``scored`` (whether ``score`` is called) constants in
    each, so that neither costs a test per assignment, and the scores stay in registers
    (``score`` writes its own); the last station's choices (consecutive assignments,
    consecutive entries of the table) are an inner loop, the others an odometer."""
    cdef int k, j, p, c, index = 0, best_points = 0, best_completed = 0, more_points, more_completed
    cdef int n = u.n
    cdef int last = u.n - 1
    cdef int last_count = u.counts[u.n - 1]
    cdef const int* counts = u.counts
    cdef const int* gains = u.gains if u.n_tabled else NULL
    cdef const int* joins = u.joins
    cdef int choice[STATIONS_MOST]
    cdef bint first = True
    for k in range(n):
        choice[k] = -1
    while True:
        for j in range(-1, last_count):
            p = points
            c = completed
            if gains != NULL:
                p += gains[index]
                c += joins[index]
            index += 1
            if scored:
                choice[last] = j
                more_points = more_completed = 0
                score(context, choice, &more_points, &more_completed)
                p += more_points
                c += more_completed
            if first or better(points_first, p, c, best_points, best_completed):
                first = False
                best_points = p
                best_completed = c
                choice[last] = j
                for k in range(n):
                    best[k] = choice[k]
        # the next choice of the stations before the last: the later ones move faster
        k = last - 1
        while k >= 0:
            choice[k] += 1
            if choice[k] < counts[k]:
                break
            choice[k] = -1
            k -= 1
        if k < 0:
            return


cdef bint use_best(StationUse* u, int points, int completed, bint points_first, TicketsScore score, void* context,
                   int* best) noexcept nogil:
    """The best assignment into ``best`` (per station, its option, or -1 for none): each
    tried in order, scoring ``points`` and ``completed`` (what the tickets that do not
    vary score), the table's gains and what ``score`` (None when no other ticket varies)
    adds; the first best stands. False, and no route for any station, when nothing
    varies."""
    cdef int k
    for k in range(u.n):
        best[k] = -1
    if u.n == 0 or (score == NULL and u.joined == 0):
        return False  # every assignment scores alike
    if points_first and score == NULL:
        try_all(u, points, completed, True, False, score, context, best)
    elif points_first:
        try_all(u, points, completed, True, True, score, context, best)
    elif score == NULL:
        try_all(u, points, completed, False, False, score, context, best)
    else:
        try_all(u, points, completed, False, True, score, context, best)
    return True


# --- for Python: any problem, for the tests ---------------------------------------------

#: Stations a player may have, and the most assignments tabled.
STATIONS = STATIONS_MOST
TABLE = TABLE_CAP

cdef enum:
    PROBLEM_COMPONENTS = 256  # a problem of best_use: components ...
    PROBLEM_TICKETS = 64      # ... tickets scored on each assignment ...
    PROBLEM_ENDS = 8          # ... and components a ticket's end may have

cdef struct Problem:
    # best_use's tickets scored on each assignment's network, and the stations
    StationUse* u
    int n_components
    int n_tickets
    int ends_a[PROBLEM_TICKETS][PROBLEM_ENDS]
    int ends_b[PROBLEM_TICKETS][PROBLEM_ENDS]
    int n_a[PROBLEM_TICKETS]
    int n_b[PROBLEM_TICKETS]
    int points[PROBLEM_TICKETS]


cdef inline int find(int* parent, int x) noexcept nogil:
    while parent[x] != x:
        x = parent[x]
    return x


cdef void score_problem(void* context, const int* choice, int* points, int* completed) noexcept nogil:
    """best_use's score: the components joined by the chosen routes, then each ticket."""
    cdef Problem* problem = <Problem*>context
    cdef StationUse* u = problem.u
    cdef int parent[PROBLEM_COMPONENTS]
    cdef int i, j, t, k
    cdef bint joined
    for i in range(problem.n_components):
        parent[i] = i
    for k in range(u.n):
        if choice[k] >= 0:
            parent[find(parent, u.roots[k])] = find(parent, u.fars[k * u.far_stride + choice[k]])
    for t in range(problem.n_tickets):
        joined = False
        for i in range(problem.n_a[t]):
            for j in range(problem.n_b[t]):
                joined = joined or find(parent, problem.ends_a[t][i]) == find(parent, problem.ends_b[t][j])
        points[0] += problem.points[t] if joined else -problem.points[t]
        completed[0] += joined


def best_use(stations, tickets, *, points_first=True, table=True):
    """The engines' choice of the stations' routes, on a problem given as components:
    ``stations``, per station ``(its city's component, [the components its options lead
    to])`` (distinct, none its city's); ``tickets``, per ticket ``([its first city's
    components], [its second city's], points)``. A ticket scores its points when an end's
    component is joined to the other's, else loses them. ``table=False`` scores every
    ticket on each assignment (the engines' way for a mechanic's tickets and past TABLE
    assignments). Returns ``(points, completed, choice)``: the best assignment's score and,
    per station, the index of its option, or -1 for none."""
    cdef StationUse* u = <StationUse*>malloc(sizeof(StationUse))
    cdef Problem problem
    cdef int roots[STATIONS_MOST]
    cdef int counts[STATIONS_MOST]
    cdef int best[STATIONS_MOST]
    cdef int ends_a[PROBLEM_ENDS]
    cdef int ends_b[PROBLEM_ENDS]
    cdef int fixed_points = 0, fixed_completed = 0, k, j, p = 0, c = 0
    cdef int* fars
    cdef TicketsScore varying
    if u == NULL:
        raise MemoryError()
    stations = [(root, list(options)) for root, options in stations]
    tickets = [(list(a), list(b), points) for a, b, points in tickets]
    names = sorted({x for root, options in stations for x in (root, *options)}
                   | {x for a, b, _ in tickets for x in (*a, *b)})
    number = {name: i for i, name in enumerate(names)}
    if len(stations) > STATIONS_MOST or len(names) > PROBLEM_COMPONENTS:
        raise ValueError(f"at most {STATIONS_MOST} stations and {PROBLEM_COMPONENTS} components")
    for root, options in stations:
        if len(set(options)) != len(options) or root in options:
            raise ValueError("a station's options lead to distinct components, none its city's")
    stride = max([len(options) for _, options in stations] + [1])
    fars = <int*>malloc(sizeof(int) * stride * STATIONS_MOST)
    if fars == NULL:
        free(u)
        raise MemoryError()
    try:
        u.n = len(stations)
        for k, (root, options) in enumerate(stations):
            roots[k] = number[root]
            counts[k] = len(options)
            for j, far in enumerate(options):
                fars[k * stride + j] = number[far]
        u.roots, u.fars, u.far_stride, u.counts = roots, fars, stride, counts
        use_begin(u)
        problem.u = u
        problem.n_components = len(names)
        problem.n_tickets = 0
        for a, b, points in tickets:
            if not (1 <= len(a) <= PROBLEM_ENDS and 1 <= len(b) <= PROBLEM_ENDS):
                raise ValueError(f"a ticket's end has 1 to {PROBLEM_ENDS} components")
            for j, x in enumerate(a):
                ends_a[j] = number[x]
            for j, x in enumerate(b):
                ends_b[j] = number[x]
            if set(a) & set(b):  # completed whatever the stations do
                fixed_points += points
                fixed_completed += 1
            elif table and u.tabled:
                fixed_points -= points
                use_table(u, ends_a, len(a), ends_b, len(b), 2 * points)
            elif not use_joins(u, ends_a, len(a), ends_b, len(b)):
                fixed_points -= points  # no assignment completes it
            else:
                if problem.n_tickets == PROBLEM_TICKETS:
                    raise ValueError(f"at most {PROBLEM_TICKETS} tickets scored on each assignment")
                t = problem.n_tickets
                problem.n_a[t], problem.n_b[t], problem.points[t] = len(a), len(b), points
                for j in range(len(a)):
                    problem.ends_a[t][j] = ends_a[j]
                for j in range(len(b)):
                    problem.ends_b[t][j] = ends_b[j]
                problem.n_tickets += 1
        varying = NULL
        if problem.n_tickets:
            varying = score_problem
        use_best(u, fixed_points, fixed_completed, points_first, varying, &problem, best)
        choice = tuple(best[k] for k in range(u.n))
        # the choice's score, for the caller to check
        p, c = fixed_points, fixed_completed
        if u.n_tabled:
            index = sum((choice[k] + 1) * u.strides[k] for k in range(u.n))
            p += u.gains[index]
            c += u.joins[index]
        if problem.n_tickets:
            score_problem(&problem, best, &p, &c)
        return p, c, choice
    finally:
        free(fars)
        free(u)
