# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The longest trail of a player's network: the longest path of the USA and Europe
rulebooks ("may include loops and pass through the same city several times, but a given
train car may never be used twice"), in cars. Compiled once with railspec; every variant
with the longest-path bonus cimports :func:`longest_trail` (its engine.pyx.j2 reads a
player's routes, one connected network at a time, and calls it). The reference
interpreter walks every trail instead (mechanics/longest_path: ``longest_trail``, twelve
lines); the tests check the two against each other, and this module directly on graphs
(tests/test_longest_path.py, through :func:`longest`).

The algorithm. A set of routes is the route set of some trail exactly when it is connected
and at most two of its cities have an odd number of its routes (Euler). So the longest
trail is the network less the lightest set of routes whose removal leaves such a set, and
the search removes routes instead of walking them: removals are few (about half the cities
of odd degree), while a dense network's walks are very many. The methods, cheapest first
(search.pxi holds them, each with its own note):

- a tree (its longest path, by peeling leaves) or a network of two odd cities at most
  (every car) needs no search (``plain_trail``: most end-of-game networks);
- dead ends beyond the two longest at a city are dropped, cities of degree 2 contracted;
- a network with bridges and many odd cities is solved blob by blob over the tree the
  bridges make (``bridged_trail``);
- a part of many odd cities and few cycles is searched by its lightest joins (the routes
  a trail leaves out), over every sum of its cycles or, past a few cycles, by a frontier
  that settles the cities one by one (``join_search``, ``frontier_join``);
- otherwise a part of few cycles walks its trails for a bounded number of steps, and the
  search by removals (``cut_search``) takes what the walk leaves.

The thresholds (``Tuning``; ``DEFAULT_TUNING`` in search.pxi) were measured on every map's
random, dense and adversarial networks (bench/benchmark.py; bench/adversarial_networks.py
hill-climbs on the engine's time for the slowest): walks first on components of at most
6 independent cycles, for at most 1,000 steps; blob by blob from 6 odd cities up (fewer
are quick to search whole: India's dense boards, 25 cities and 11 bridges, went from 2.7
million instructions to 120 thousand); by joins from 4 odd cities and up to 9 cycles
(each join tries every sum of cycles, 2 ** 9 at most), by the frontier above 4 cycles
(India's slowest of 6 cycles: 14.7 µs by the sums, 6.9 by the frontier; at 3 cycles the
sums were faster on USA's).

Why a module, and why two. The search's room is C arrays on the stack, sized by the most
routes a network may have; in a variant's module those were its map's sizes, known when it
was compiled. Compiled once, the module sizes them itself: this one for networks of up to
LP_ROUTES (62) routes, which holds every network of a stock map (45 trains at most), and
trail_large.pyx, the same search (search.pxi) compiled for the language's 1,000 routes,
for the rest. The size does not change the speed (the same instructions; on every map's
adversarial networks the two modules take the same time, within 1%), but it sets the
stack a search needs: gcc -fstack-usage gives join_branch, which recurses, 3.1 KB a level
here and 164 KB in trail_large (lightest_join 8.6 KB and 117 KB; USA's engine, sized by
its map, had 5.1 and 10.8 KB), so that one module of 1,000 routes would ask some 50
levels of join_branch for 8 MB of stack, a whole thread's, on every map. A map's nodes
are numbered as the map numbers them when they fit here (LP_CITIES), as every stock
map's do; otherwise the engine numbers each network's cities afresh, in the same order.
"""

cimport railspec.mechanics.longest_path.trail_large as large

cdef enum:
    LP_END_LENGTH = 4096  # a blob query's end route: longer than any trail (12 cars a route at most)

include "search.pxi"


cdef int longest_trail(int n_routes, const int* ea, const int* eb, const int* el, int n_cities,
                       int best) noexcept nogil:
    """The longest trail of a connected network of ``n_routes`` routes (``ea``, ``eb``: their
    cities, numbers below ``n_cities``, which is at most LP_CITIES, or trail_large's for
    a network of more than LP_ROUTES routes; numbers no route has are passed over; ``el``:
    their lengths, 1 to 12 cars), if longer than ``best``, else ``best``. The search's
    choices follow the cities' numbers and the routes' order (the answer does not): the
    engines keep the map's order of cities and list the routes by id. A network of more
    than LP_ROUTES routes goes to trail_large."""
    cdef Cut c
    if n_routes > LP_ROUTES:
        return large.longest_trail(n_routes, ea, eb, el, n_cities, best)
    return trail_of(&c, n_routes, ea, eb, el, n_cities, best, &DEFAULT_TUNING)
