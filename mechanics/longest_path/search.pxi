# The longest trail of one network, searched: the text of the modules trail.pyx and
# trail_large.pyx, which include it after defining LP_ROUTES (their .pxd), the most routes
# a network they search may have. Stack arrays are sized by it, so each module is this
# search compiled for one size (trail.pyx's docstring says why there are two).

cdef extern from *:
    """
    /* the lowest set bit of a non-zero word */
    #if defined(__GNUC__) || defined(__clang__)
    #define lp_lowest_bit(x) __builtin_ctzll(x)
    #else
    static inline int lp_lowest_bit(unsigned long long x) {
        int n = 0;
        while (!(x & 1ULL)) { x >>= 1; n++; }
        return n;
    }
    #endif
    """
    int lowest_bit "lp_lowest_bit"(unsigned long long x) noexcept nogil

cdef enum:
    LP_EDGE_CAP = LP_ROUTES + 2    # the network's routes, and the two ends a blob's query adds
    LP_NODE_CAP = LP_CITIES        # the numbers of its cities (LP_ROUTES + 3: one more than its routes,
                                   # as it is connected, and those two ends; the caller's numbering may
                                   # leave gaps up to that)
    LP_NODE_CAP1 = LP_NODE_CAP + 1
    LP_EDGE_ENDS_CAP = 2 * LP_EDGE_CAP
    JOIN_CYCLES = 9                # components of at most this many cycles (and enough odd cities): by joins
    JOIN_CYCLE_CAP = JOIN_CYCLES + 4  # ... counting those a double route makes (a join takes one track at most)
    JOIN_KEPT = 1 << 20            # a kept route's weight in a join: more than all routes together
    FRONTIER_CAP = 6               # the frontier's cities at most (its states: a bit each, 64 at most)
    FRONTIER_STATES = 1 << FRONTIER_CAP
    FRONTIER_NONE = 1 << 29        # a frontier state no join reaches: above any join's weight
    FRONTIER_SHIFT = 10            # a route's weight in the frontier: its length << 10, plus 1 (routes < 1024)

cdef unsigned long long FRONTIER_PARITY = 0x6996966996696996ULL  # bit i: whether i has an odd number of bits


cdef struct Tuning:
    # Which method searches which network (trail.pyx's docstring: "the methods"). The
    # engines use DEFAULT_TUNING; the tests change it to run each method on networks the
    # defaults give another (tests/test_longest_path.py).
    int plain                  # trees and networks of two odd cities at most: answered without a search
    int bridged_odd_at_least   # networks with bridges and this many odd cities: blob by blob
    int join_odd_at_least      # components of at most JOIN_CYCLES cycles and this many odd cities: by joins
    int join_gray_cycles       # parts of more cycles than this find their lightest join by a frontier
    int walk_cycles            # components with at most this many independent cycles are walked first ...
    int walk_steps             # ... for at most this many steps, then searched by removals

# The defaults, as measured (trail.pyx's docstring says on what).
cdef Tuning DEFAULT_TUNING = Tuning(plain=1, bridged_odd_at_least=6, join_odd_at_least=4, join_gray_cycles=4,
                                    walk_cycles=6, walk_steps=1000)


# The longest trail (a walk using no route twice) of a player's routes. A set of routes
# is the route set of some trail exactly when it is connected and at most two of its
# cities have an odd number of its routes (Euler). So the longest trail of a component
# is its total length less the lightest set of routes whose removal leaves such a set:
# the search below removes routes instead of walking them. Removals are few (about half
# the cities of odd degree), while the walks of a dense network are many: on a player's
# 45 trains packed into one region this is tens of times faster than trying every walk.
# The reference interpreter walks every trail (mechanics/longest_path): the two are
# checked against each other.

cdef struct Cut:
    int ea[LP_EDGE_CAP]        # the component's routes: ends and lengths
    int eb[LP_EDGE_CAP]
    int el[LP_EDGE_CAP]
    char gone[LP_EDGE_CAP]     # removed
    int adj_start[LP_NODE_CAP1]
    int adj[LP_EDGE_ENDS_CAP]  # per node, its routes, the shortest first
    int degree[LP_NODE_CAP]    # routes still in, per node
    char end[LP_NODE_CAP]      # allowed to keep an odd degree (a trail's two ends)
    char active[LP_NODE_CAP]   # the connected part searched now
    int nodes[LP_NODE_CAP]     # the component's nodes
    int seen[LP_NODE_CAP]      # scratch of piece(): nodes stamped ``stamp`` are reached
    int stack[LP_NODE_CAP]
    int node_count             # nodes are numbered 0 .. node_count - 1
    int stamp
    int n_edges
    int n_nodes
    int best                   # the longest trail found
    Tuning tune                # which method searches what
    int steps                  # steps the walk has taken
    char kept[LP_EDGE_CAP]     # the search by joins: routes the trail must keep
    char joined[LP_EDGE_CAP]   # ... and the routes of the lightest join found
    char ranked                # the nodes are ranked for the frontier (rank, by_rank)
    int rank[LP_NODE_CAP]      # per node, its place in the frontier's order ...
    int by_rank[LP_NODE_CAP]   # ... and per place, its node


cdef int piece(Cut* c, int start, int target) noexcept nogil:
    """Stamp the nodes joined to ``start`` by routes still in and return their length; or
    return -1 as soon as ``target`` is among them (then the stamps are partial)."""
    cdef int k, e, u, w, top = 1, length = 0
    c.stamp += 1
    c.seen[start] = c.stamp
    c.stack[0] = start
    while top > 0:
        top -= 1
        u = c.stack[top]
        for k in range(c.adj_start[u], c.adj_start[u + 1]):
            e = c.adj[k]
            if c.gone[e]:
                continue
            length += c.el[e]
            w = c.ea[e] + c.eb[e] - u
            if w == target:
                return -1
            if c.seen[w] != c.stamp:
                c.seen[w] = c.stamp
                c.stack[top] = w
                top += 1
    return length // 2  # each route was met from both its ends


cdef void cut_search(Cut* c, int length, int ends) noexcept nogil:
    """The active part (connected, ``length`` cars, ``ends`` of its cities chosen as ends):
    fix its odd cities. A city of odd degree that is not an end either becomes one (while
    fewer than two are) or loses one of its routes; a removal that cuts the part in two
    goes on in each half, as a trail lies in one. A branch stops when even the least it
    must still remove leaves no more than the best found: each odd city that will not be
    an end loses a route at least as long as its shortest, and a removed route serves two
    cities at most."""
    cdef int i, k, e, v, a, b, u = -1, shortest, odd_sum = 0, first = 0, second = 0
    cdef int length_a, length_b, half, half_length, half_ends
    cdef bint take_a
    cdef char in_a[LP_NODE_CAP]
    cdef char saved[LP_NODE_CAP]
    for i in range(c.n_nodes):
        v = c.nodes[i]
        if not c.active[v] or c.end[v] or not (c.degree[v] & 1):
            continue
        for k in range(c.adj_start[v], c.adj_start[v + 1]):
            e = c.adj[k]
            if not c.gone[e]:
                shortest = c.el[e]  # the adjacency is sorted: the first route in is the shortest
                break
        odd_sum += shortest
        if shortest > first:
            second = first
            first = shortest
        elif shortest > second:
            second = shortest
        if u == -1 or c.degree[v] < c.degree[u]:
            u = v
    # the cities that may still become ends need not lose a route: leave out the costliest
    if ends == 0:
        odd_sum -= first + second
    elif ends == 1:
        odd_sum -= first
    if length - (odd_sum + 1) // 2 <= c.best:
        return
    if u == -1:
        c.best = length  # connected, at most two odd cities: a trail
        return
    if ends < 2:
        c.end[u] = 1
        cut_search(c, length, ends + 1)
        c.end[u] = 0
    for k in range(c.adj_start[u], c.adj_start[u + 1]):
        e = c.adj[k]
        if c.gone[e]:
            continue
        a = c.ea[e]
        b = c.eb[e]
        c.gone[e] = 1
        c.degree[a] -= 1
        c.degree[b] -= 1
        length_a = piece(c, a, b)
        if length_a < 0:  # still one part (the usual case: found long before a full search)
            cut_search(c, length - c.el[e], ends)
        else:
            # the part falls in two: a's side (stamped) and b's; the longer first
            for i in range(c.n_nodes):
                v = c.nodes[i]
                saved[v] = c.active[v]
                in_a[v] = c.seen[v] == c.stamp
            length_b = length - c.el[e] - length_a
            for half in range(2):
                take_a = (half == 0) == (length_a >= length_b)
                half_length = length_a if take_a else length_b
                if half_length <= c.best:
                    continue
                half_ends = 0
                for i in range(c.n_nodes):
                    v = c.nodes[i]
                    c.active[v] = saved[v] and in_a[v] == take_a
                    if c.active[v] and c.end[v]:
                        half_ends += 1
                cut_search(c, half_length, half_ends)
            for i in range(c.n_nodes):
                c.active[c.nodes[i]] = saved[c.nodes[i]]
        c.degree[a] += 1
        c.degree[b] += 1
        c.gone[e] = 0


cdef void contract_chains(Cut* c) noexcept nogil:
    """Replace the two routes at each city of degree 2 by one route as long as both (unless
    they join the same two cities). A longest trail never needs to stop at such a city:
    it would leave a route there unused that could extend it (or, on a closed trail, start
    elsewhere), so it passes through, using both routes or neither. Fewer cities and
    routes, and no choice between the two halves of a chain, for either search."""
    cdef int v, e, first, second, a, b, last
    for v in range(c.node_count):
        if c.degree[v] != 2:
            continue
        first = second = -1
        for e in range(c.n_edges):
            if c.ea[e] == v or c.eb[e] == v:
                if first == -1:
                    first = e
                else:
                    second = e
        a = c.ea[first] + c.eb[first] - v
        b = c.ea[second] + c.eb[second] - v
        if a == v or b == v or a == b:
            continue
        c.ea[first] = a
        c.eb[first] = b
        c.el[first] += c.el[second]
        c.degree[v] = 0
        last = c.n_edges - 1
        c.ea[second] = c.ea[last]
        c.eb[second] = c.eb[last]
        c.el[second] = c.el[last]
        c.n_edges -= 1


cdef void walk(Cut* c, int node, int length, int limit) noexcept nogil:
    """Every trail from ``node`` over the routes not yet walked (``gone``), until the best
    reaches ``limit`` or the walk has taken ``walk_steps`` steps; for components with few
    cycles, where the trails are usually few."""
    cdef int k, e
    c.steps += 1
    if length > c.best:
        c.best = length
    for k in range(c.adj_start[node], c.adj_start[node + 1]):
        if c.best >= limit or c.steps > c.tune.walk_steps:
            return
        e = c.adj[k]
        if not c.gone[e]:
            c.gone[e] = 1
            walk(c, c.ea[e] + c.eb[e] - node, length + c.el[e], limit)
            c.gone[e] = 0


cdef void prune_pendants(Cut* c) noexcept nogil:
    """Keep at each city only its two longest pendant routes (routes to a city of no other
    route). A trail uses a pendant route only as its first or last, so at most two in all:
    one that uses a shorter pendant at a city can use a longer one left unused there. Dead
    ends are many cities of odd degree, which is what makes the removal search slow."""
    cdef int e, u, leaf, first, second, count, last
    for u in range(c.node_count):
        if c.degree[u] < 3:
            continue
        first = second = -1
        count = 0
        for e in range(c.n_edges):
            leaf = c.ea[e] + c.eb[e] - u
            if (c.ea[e] == u or c.eb[e] == u) and leaf != u and c.degree[leaf] == 1:
                count += 1
                if first == -1 or c.el[e] > c.el[first]:
                    second = first
                    first = e
                elif second == -1 or c.el[e] > c.el[second]:
                    second = e
        if count <= 2:
            continue
        e = 0
        while e < c.n_edges:
            leaf = c.ea[e] + c.eb[e] - u
            if (c.ea[e] == u or c.eb[e] == u) and leaf != u and c.degree[leaf] == 1 and e != first and e != second:
                c.degree[u] -= 1
                c.degree[leaf] = 0
                last = c.n_edges - 1  # the last route takes its place; first and second follow it
                if first == last:
                    first = e
                elif second == last:
                    second = e
                c.ea[e] = c.ea[last]
                c.eb[e] = c.eb[last]
                c.el[e] = c.el[last]
                c.n_edges -= 1
            else:
                e += 1


cdef int solve_edges(Cut* c, int best) noexcept nogil:
    """The longest trail of the routes in ``c`` (``ea``, ``eb``, ``el``, ``n_edges``, on nodes
    0 .. ``node_count`` - 1), if longer than ``best`` (else ``best``)."""
    prepare(c)
    return search(c, best)


cdef void prepare(Cut* c) noexcept nogil:
    """Degrees, the pendant routes pruned and the chains contracted, and each node's routes,
    the shortest first."""
    cdef int e, k, j, node, i
    cdef int fill[LP_NODE_CAP]
    c.n_nodes = 0
    for node in range(c.node_count):
        c.degree[node] = 0
        c.end[node] = 0
        c.active[node] = 1
        c.seen[node] = 0
    for e in range(c.n_edges):
        c.gone[e] = 0
        c.degree[c.ea[e]] += 1
        c.degree[c.eb[e]] += 1
    prune_pendants(c)
    contract_chains(c)
    c.adj_start[0] = 0
    for node in range(c.node_count):
        c.adj_start[node + 1] = c.adj_start[node] + c.degree[node]
        fill[node] = c.adj_start[node]
        if c.degree[node] > 0:
            c.nodes[c.n_nodes] = node
            c.n_nodes += 1
    for e in range(c.n_edges):
        c.adj[fill[c.ea[e]]] = e
        fill[c.ea[e]] += 1
        c.adj[fill[c.eb[e]]] = e
        fill[c.eb[e]] += 1
    # the shortest routes first: the cheapest removals are tried first
    for i in range(c.n_nodes):
        node = c.nodes[i]
        for k in range(c.adj_start[node] + 1, c.adj_start[node + 1]):
            e = c.adj[k]
            j = k
            while j > c.adj_start[node] and c.el[c.adj[j - 1]] > c.el[e]:
                c.adj[j] = c.adj[j - 1]
                j -= 1
            c.adj[j] = e


# --- the search by joins ---------------------------------------------------------------
#
# The routes a trail leaves out make every city of even degree but the trail's two ends:
# they are a "join" of the odd cities less two (a set of routes meeting exactly those
# cities an odd number of times). So the lightest such join bounds what a trail must leave
# out, and when the routes left after removing it are still connected they are a trail, a
# longest one. On a spanning tree a city set's join is unique (a tree route is in it when
# the nodes below it hold an odd number of the cities); every other join is that one
# changed by a sum of the independent cycles, and choosing the two free ends changes it
# along the tree path between them. A part of few cycles tries every sum of cycles, and
# for each the best pair of ends in one pass over the tree; a part of more cycles goes
# city by city instead ("the lightest join by a frontier" below). When the routes left fall
# apart, a route of the join between two pieces is either kept (weighted beyond any join,
# so the next join goes round it) or removed for good, each branch bounded by its own
# lightest join. The bound is tight (on the slowest networks the removal search met, a
# dense tree of dead ends on a few cycles with most cities odd, it is the answer or one
# car off), so a handful of joins settle what took that search thousands of removals.

cdef inline int join_weight(Cut* c, int e) noexcept nogil:
    """A route's weight in a join: its length, or more than all routes for a kept one."""
    return JOIN_KEPT if c.kept[e] else c.el[e]


cdef inline int trailing_zero(int code) noexcept nogil:
    """The lowest set bit of ``code`` (above 0): the cycle a Gray step changes."""
    cdef int k = 0
    while not (code >> k) & 1:
        k += 1
    return k


cdef inline void flip_cycle(Cut* c, int* places, int count, int* chord, char* chord_in, int k, int* signed,
                            int* up, int* weight, int* in_tree, int* kept_in) noexcept nogil:
    """Change a join by cycle ``k``: its route off the tree and its tree routes (``places``)
    in or out, the join's weight, its weight on the tree and its kept tree routes with it."""
    cdef int i, x
    chord_in[k] ^= 1
    weight[0] += join_weight(c, chord[k]) if chord_in[k] else -join_weight(c, chord[k])
    for i in range(count):
        x = places[i]
        signed[x] = -signed[x]
        weight[0] -= signed[x]
        in_tree[0] -= signed[x]
        if c.kept[up[x]]:
            kept_in[0] += 1 if signed[x] < 0 else -1


cdef inline bint is_chord(Cut* c, int e, char* tree, int* place, int* parent, int* signed) noexcept nogil:
    """Whether route ``e`` closes a cycle to try: a route of the part off its spanning tree,
    unless it lies beside a tree route no heavier (some lightest join leaves it out)."""
    cdef int x, y
    if c.gone[e] or tree[e] or c.seen[c.ea[e]] != c.stamp:
        return False
    x = place[c.ea[e]]
    y = place[c.eb[e]]
    return not ((parent[x] == y and join_weight(c, e) >= signed[x]) or
                (parent[y] == x and join_weight(c, e) >= signed[y]))


cdef int lightest_join(Cut* c, int start, int limit) noexcept nogil:
    """The lightest join, over the routes still in joined to ``start`` (its part), of the
    part's odd cities less any two; its routes marked in ``joined`` and the part's nodes
    stamped ``stamp``. Its weight, or -1 when more than ``limit`` cycles are to be tried
    and the frontier cannot take them instead (``c`` not ranked, or too wide a frontier)."""
    cdef int order[LP_NODE_CAP]     # the part's nodes, breadth first: each after its parent
    cdef int place[LP_NODE_CAP]     # per node, where it is in ``order``
    cdef int parent[LP_NODE_CAP]    # per place but the root's: its parent's place ...
    cdef int up[LP_NODE_CAP]        # ... the tree route to it ...
    cdef int signed[LP_NODE_CAP]    # ... and that route's weight, negated while in the join
    cdef int down[LP_NODE_CAP]      # per place: the most a path from it down lightens the join ...
    cdef int down_end[LP_NODE_CAP]  # ... and the place that path ends at
    cdef char parity[LP_NODE_CAP]
    cdef char tree[LP_EDGE_CAP]
    cdef int cycle[JOIN_CYCLE_CAP][LP_NODE_CAP]  # per route off the tree: the places of its cycle's tree routes
    cdef int cycle_len[JOIN_CYCLE_CAP]
    cdef int chord[JOIN_CYCLE_CAP]
    cdef char chord_in[JOIN_CYCLE_CAP]
    cdef int i, k, e, u, w, x, y, p, value, change, code, a, b, last
    cdef int n = 1, cycles = 0, weight = 0, best = -1, best_gray = 0
    cdef int in_tree = 0, kept_in = 0, reach = 0  # the join's weight on the tree, its kept routes there
    c.stamp += 1
    c.seen[start] = c.stamp
    order[0] = start
    place[start] = 0
    parent[0] = -1
    for e in range(c.n_edges):
        tree[e] = 0
    i = 0
    while i < n:  # a spanning tree
        u = order[i]
        for k in range(c.adj_start[u], c.adj_start[u + 1]):
            e = c.adj[k]
            if c.gone[e]:
                continue
            w = c.ea[e] + c.eb[e] - u
            if c.seen[w] != c.stamp:
                c.seen[w] = c.stamp
                place[w] = n
                parent[n] = i
                up[n] = e
                signed[n] = join_weight(c, e)
                tree[e] = 1
                order[n] = w
                n += 1
        i += 1
    for e in range(c.n_edges):  # the cycles to try, counted first
        cycles += is_chord(c, e, tree, place, parent, signed)
    if cycles > c.tune.join_gray_cycles and c.ranked:
        value = frontier_join(c, order, n)
        if value >= 0:
            return value
        c.ranked = 0  # too wide a frontier: only ever at the top (a part's is no wider than its whole's)
    if cycles > limit:
        return -1
    cycles = 0
    for e in range(c.n_edges):  # each route off the tree closes a cycle with the tree path
        if not is_chord(c, e, tree, place, parent, signed):
            continue
        x = place[c.ea[e]]
        y = place[c.eb[e]]
        chord[cycles] = e
        chord_in[cycles] = 0
        k = 0
        while x != y:  # a parent comes before its children: the later place is not above the other
            if x > y:
                cycle[cycles][k] = x
                x = parent[x]
            else:
                cycle[cycles][k] = y
                y = parent[y]
            k += 1
        cycle_len[cycles] = k
        cycles += 1
    for i in range(n):
        parity[i] = c.degree[order[i]] & 1
        down[i] = 0
    for i in range(n - 1, 0, -1):
        # the tree's join of the odd cities, from the leaves up; and the longest tree path
        # of routes not kept: no choice of ends lightens a join without kept routes more
        value = down[i] + (0 if c.kept[up[i]] else signed[i])
        if down[parent[i]] + value > reach:
            reach = down[parent[i]] + value
        if value > down[parent[i]]:
            down[parent[i]] = value
        if parity[i]:
            weight += signed[i]
            in_tree += signed[i]
            kept_in += c.kept[up[i]]
            signed[i] = -signed[i]
            parity[parent[i]] ^= 1
    # two passes over the sums of cycles in Gray order (one cycle changes at each step):
    # forward, the lightest join with no free ends (a bound to beat); back, the two free
    # ends tried only where they could beat it (a join's weight less the most a tree path
    # can take off it)
    last = (1 << cycles) - 1
    for code in range(last + 1):
        if code:
            flip_cycle(c, cycle[trailing_zero(code)], cycle_len[trailing_zero(code)], chord, chord_in,
                       trailing_zero(code), signed, up, &weight, &in_tree, &kept_in)
        if best < 0 or weight < best:
            best = weight
            best_gray = code ^ (code >> 1)
    for code in range(last, -1, -1):
        if kept_in > 0 or weight - (in_tree if in_tree < reach else reach) < best:
            # the two free ends: the tree path whose change lightens this join most
            for i in range(n):
                down[i] = 0
            change = 0
            for i in range(n - 1, 0, -1):
                p = parent[i]
                value = down[i] + signed[i]
                if down[p] + value < change:
                    change = down[p] + value
                if value < down[p]:
                    down[p] = value
            if weight + change < best:
                best = weight + change
                best_gray = code ^ (code >> 1)
        if code:
            flip_cycle(c, cycle[trailing_zero(code)], cycle_len[trailing_zero(code)], chord, chord_in,
                       trailing_zero(code), signed, up, &weight, &in_tree, &kept_in)
    # back at no cycle: to the best sum of cycles, then the path between its ends again
    for k in range(cycles):
        if (best_gray >> k) & 1:
            chord_in[k] ^= 1
            for i in range(cycle_len[k]):
                signed[cycle[k][i]] = -signed[cycle[k][i]]
    for i in range(n):
        down[i] = 0
        down_end[i] = i
    change = 0
    a = b = 0
    for i in range(n - 1, 0, -1):
        p = parent[i]
        value = down[i] + signed[i]
        if down[p] + value < change:
            change = down[p] + value
            a = down_end[p]
            b = down_end[i]
        if value < down[p]:
            down[p] = value
            down_end[p] = down_end[i]
    while a != b:
        if a > b:
            signed[a] = -signed[a]
            a = parent[a]
        else:
            signed[b] = -signed[b]
            b = parent[b]
    for e in range(c.n_edges):
        c.joined[e] = 0
    for i in range(1, n):
        if signed[i] < 0:
            c.joined[up[i]] = 1
    for k in range(cycles):
        if chord_in[k]:
            c.joined[chord[k]] = 1
    return best


# The lightest join by a frontier. The networks of a map are nearly planar and thin: taken
# city by city in a good order, at most four or five cities at a time have routes both
# among those taken and among those still to come (on every map's random and adversarial
# networks). Going through the routes in that order, a join is settled city by city as
# each city's last route passes: its routes in the join must be odd in number at an odd
# city, even at an even one, except at the trail's free ends (two at most). So the
# lightest join of every choice so far is kept per "state" (the join's parity at each
# city of the frontier, and the free ends used): 3 x 2 ** (cities of the frontier) of
# them, whatever the cycles. The sums of cycles above cost 2 ** cycles: this is for parts
# of more cycles than ``join_gray_cycles`` (Tuning).

cdef void rank_nodes(Cut* c) noexcept nogil:
    """Order ``c``'s nodes for the frontier (``rank``, ``by_rank``): from a node of the
    fewest routes, each next the one joined to those ranked that widens the frontier
    least (the nodes ranked with routes to nodes not ranked yet), the most joined first."""
    cdef int rem[LP_NODE_CAP]      # per node: its routes to nodes not ranked yet
    cdef int meet[LP_NODE_CAP]     # scratch: per ranked node, its routes to the candidate
    cdef char done[LP_NODE_CAP]
    cdef int i, k, r, u, w, conn, closes, score, best_score = 0, pick = -1
    for i in range(c.n_nodes):
        u = c.nodes[i]
        rem[u] = c.degree[u]
        meet[u] = 0
        done[u] = 0
        if pick == -1 or c.degree[u] < c.degree[pick]:
            pick = u
    for r in range(c.n_nodes):
        if r > 0:
            pick = -1
            for i in range(c.n_nodes):
                u = c.nodes[i]
                if done[u]:
                    continue
                conn = 0
                for k in range(c.adj_start[u], c.adj_start[u + 1]):
                    w = c.ea[c.adj[k]] + c.eb[c.adj[k]] - u
                    if done[w]:
                        conn += 1
                        meet[w] += 1
                if conn == 0:
                    continue
                closes = 0  # ranked nodes whose last routes to come are the candidate's
                for k in range(c.adj_start[u], c.adj_start[u + 1]):
                    w = c.ea[c.adj[k]] + c.eb[c.adj[k]] - u
                    if done[w] and meet[w] > 0:
                        closes += meet[w] == rem[w]
                        meet[w] = 0
                score = ((c.degree[u] > conn) - closes) * LP_EDGE_CAP - conn
                if pick == -1 or score < best_score:
                    pick = u
                    best_score = score
            if pick == -1:  # not joined to the ranked (not met in a connected part)
                for i in range(c.n_nodes):
                    if not done[c.nodes[i]]:
                        pick = c.nodes[i]
                        break
        c.rank[pick] = r
        c.by_rank[r] = pick
        done[pick] = 1
        for k in range(c.adj_start[pick], c.adj_start[pick + 1]):
            w = c.ea[c.adj[k]] + c.eb[c.adj[k]] - pick
            if done[w] and w != pick:
                rem[w] -= 1
                rem[pick] -= 1


cdef int frontier_join(Cut* c, int* part, int n) noexcept nogil:
    """The lightest join of the part (its ``n`` nodes ``part``, stamped ``stamp``) by the
    frontier, with its routes marked in ``joined``; or -1 when the frontier is wider than
    FRONTIER_CAP. ``c`` is ranked (rank_nodes) over a whole of which the part is a piece.
    Only the states of the cities in the frontier (``used``) are visited, and of them only
    those of the right parity: the join's parities at the frontier sum, with the cities
    settled, to an even number."""
    cdef int route[LP_EDGE_CAP]           # the part's routes, by the rank of their later end
    cdef char slot_a[LP_EDGE_CAP]         # per route: its ends' frontier places
    cdef char slot_b[LP_EDGE_CAP]
    cdef char settled[LP_EDGE_CAP]        # per route: the cities it settles (its ends' last route) ...
    cdef char settled_slot[LP_EDGE_CAP][2]  # ... their places ...
    cdef char settled_odd[LP_EDGE_CAP][2]   # ... and whether they are odd
    cdef unsigned long long took[LP_EDGE_CAP][3]       # per route and free ends: the states that take it
    cdef unsigned long long freed[LP_EDGE_CAP][2][3]   # per city settled: the states where it is a free end
    cdef int last[LP_NODE_CAP]            # per node: its last route
    cdef int slot[LP_NODE_CAP]            # per node of the frontier: its place
    cdef int best[3][FRONTIER_STATES]     # per free ends and state: the lightest join
    cdef int i, j, k, r, e, u, x, f, t, m = 0, weight, keep, other, mask, bit, odd, sub
    cdef int used = 0                     # the frontier's places in use
    cdef int top = 0                      # free ends some state may have used
    cdef int odd_settled = 0              # odd cities settled
    cdef unsigned long long bits
    for r in range(c.n_nodes):  # the routes, each at its later end
        u = c.by_rank[r]
        if c.seen[u] != c.stamp:
            continue
        for k in range(c.adj_start[u], c.adj_start[u + 1]):
            e = c.adj[k]
            if not c.gone[e] and c.rank[c.ea[e] + c.eb[e] - u] < r:
                route[m] = e
                m += 1
    for i in range(n):
        slot[part[i]] = -1
    for k in range(m):
        last[c.ea[route[k]]] = k
        last[c.eb[route[k]]] = k
    best[0][0] = 0
    for k in range(m):
        e = route[k]
        for j in range(2):  # its ends join the frontier (the lowest free place), even
            x = c.eb[e] if j else c.ea[e]
            if slot[x] >= 0:
                continue
            t = lowest_bit(~used)
            if t == FRONTIER_CAP:
                return -1
            slot[x] = t
            bit = 1 << t
            for f in range(top + 1):  # the states with the city odd: none yet
                i = 0
                while True:
                    best[f][i | bit] = FRONTIER_NONE
                    i = (i - used) & used
                    if i == 0:
                        break
            used |= bit
        slot_a[k] = slot[c.ea[e]]
        slot_b[k] = slot[c.eb[e]]
        bit = 1 << slot_a[k]
        mask = bit | (1 << slot_b[k])
        # a kept route is never taken; of joins equally light, the one of the fewest routes
        # (the most left to the trail: fewer pieces to branch on)
        weight = FRONTIER_NONE if c.kept[e] else (c.el[e] << FRONTIER_SHIFT) + 1
        sub = used & ~bit
        for f in range(3):  # the route in the join or not: the parity at both its ends changes
            bits = 0
            if f <= top:
                i = 0
                while True:
                    if ((FRONTIER_PARITY >> i) & 1) == ((odd_settled + f) & 1):
                        keep = best[f][i]
                        other = best[f][i ^ mask]
                        if other + weight < keep:
                            best[f][i] = other + weight
                            bits |= 1ULL << i
                        if keep + weight < other:
                            best[f][i ^ mask] = keep + weight
                            bits |= 1ULL << (i ^ mask)
                    i = (i - sub) & sub
                    if i == 0:
                        break
            took[k][f] = bits
        settled[k] = 0
        for j in range(2):  # the ends whose last route this is leave the frontier, settled
            x = c.eb[e] if j else c.ea[e]
            if last[x] != k:
                continue
            bit = 1 << slot[x]
            odd = c.degree[x] & 1
            settled_slot[k][settled[k]] = slot[x]
            settled_odd[k][settled[k]] = odd
            used &= ~bit
            if top < 2:
                top += 1
                i = 0
                while True:  # the states of one more free end: none yet
                    best[top][i | (bit if odd else 0)] = FRONTIER_NONE
                    i = (i - used) & used
                    if i == 0:
                        break
            odd_settled += odd
            for f in range(2, -1, -1):  # from the most free ends down: f - 1 is read as it was
                bits = 0
                if f <= top:
                    i = 0
                    while True:
                        if ((FRONTIER_PARITY >> i) & 1) == ((odd_settled + f) & 1):
                            keep = best[f][i | (bit if odd else 0)]  # its parity right
                            if f > 0 and best[f - 1][i | (0 if odd else bit)] < keep:  # wrong: a free end
                                keep = best[f - 1][i | (0 if odd else bit)]
                                bits |= 1ULL << i
                            best[f][i] = keep
                        i = (i - used) & used
                        if i == 0:
                            break
                freed[k][settled[k]][f] = bits
            settled[k] += 1
            slot[x] = -1
    # back through the choices, from the lightest join at no city left
    f = 2 if top == 2 and best[2][0] < best[0][0] else 0
    if best[f][0] >= FRONTIER_NONE:
        return JOIN_KEPT  # no join leaves every kept route in
    weight = best[f][0] >> FRONTIER_SHIFT
    i = 0
    for e in range(c.n_edges):
        c.joined[e] = 0
    for k in range(m - 1, -1, -1):
        for j in range(settled[k] - 1, -1, -1):
            bit = 1 << settled_slot[k][j]
            odd = settled_odd[k][j]
            if (freed[k][j][f] >> i) & 1:
                f -= 1
                i |= 0 if odd else bit
            else:
                i |= bit if odd else 0
        if (took[k][f] >> i) & 1:
            c.joined[route[k]] = 1
            i ^= (1 << slot_a[k]) | (1 << slot_b[k])
    return weight

cdef bint join_search(Cut* c, int start, int length, int kept, int limit) noexcept nogil:
    """The part of ``start`` (``length`` cars, connected, ``kept`` routes kept, all in it),
    searched from its lightest join (:func:`join_branch`). False when the part has more
    than ``limit`` cycles to try."""
    cdef int weight = lightest_join(c, start, limit)
    if weight < 0:
        return False
    join_branch(c, start, length, kept, weight)
    return True


cdef inline void take_out(Cut* c, int* out, int first, int end, int back) noexcept nogil:
    """Remove the routes ``out[first:end]`` from the part, or (``back``) put them back."""
    cdef int i, e
    for i in range(first, end):
        e = out[i]
        c.gone[e] = not back
        c.degree[c.ea[e]] += 1 if back else -1
        c.degree[c.eb[e]] += 1 if back else -1


cdef void join_branch(Cut* c, int start, int length, int kept, int weight) noexcept nogil:
    """The part of ``start`` (``length`` cars, connected, ``kept`` routes kept, all in it),
    whose lightest join (``weight``) is marked in ``joined``: the join bounds it, and settles
    it when the routes left are connected. Else the join's routes out of one piece of what
    is left (the piece with the fewest of them: the fewest branches) are taken in turn:
    each is kept (the others before it removed), and then removed, until the part falls in
    two. Each piece, with at most two odd cities, is a trail: the longest is a bound to
    beat. The lightest join of a part less a route of its join is that join less the route
    (any lighter one would give the part a lighter one with the route), so the removals
    change neither the bound nor the pieces: only a kept route needs a new join, and of the
    two halves only one without the join's two free ends (its cities of the wrong parity,
    both in one half when there are any), as the join's rest in a half holding them is the
    half's lightest (a lighter one, with the rest of the join, would be lighter for the
    part). A join without free ends (rare: no network of the tests has one here) leaves
    each half its own join to find. No branch's bound is above its part's: a branch whose
    join leaves it that bound is searched at once (and the others not at all if it reaches
    it); the others' joins are all found first, and they are searched from the highest
    bound down, each stopping at its bound."""
    cdef int i, j, e, u, w, k, x, top, reached, a, b, length_a, length_b, kept_a, count = 0, removed, part, side
    cdef int pieces = 0, branches = 0, ends_in_a = 0, ends = 0
    cdef int bound = length - weight
    cdef int out[LP_EDGE_CAP]  # the join's routes out of the piece
    cdef int crossing[LP_NODE_CAP]  # per piece: the join's routes out of it
    cdef char odd_join[LP_NODE_CAP]  # per city of the part: whether the join meets it an odd number of times
    cdef char half_a[LP_NODE_CAP]  # per city, once the part falls in two: whether it is on a's side
    cdef char join[LP_EDGE_CAP]  # the part's join (``joined`` is the branches' scratch)
    # per branch: the route it keeps (out[kind]), or the half it searches (-1: a's, -2: b's) ...
    cdef int kind[LP_EDGE_CAP + 2]
    cdef int branch_start[LP_EDGE_CAP + 2]  # ... a city of it, its length, routes kept, join's weight
    cdef int branch_length[LP_EDGE_CAP + 2]
    cdef int branch_kept[LP_EDGE_CAP + 2]
    cdef int branch_weight[LP_EDGE_CAP + 2]
    cdef int rank[LP_EDGE_CAP + 2]  # the branches, the highest bound first
    cdef unsigned long long branch_join[LP_EDGE_CAP + 2][(LP_EDGE_CAP + 63) >> 6]  # ... and its join's routes
    if weight >= JOIN_KEPT or bound <= c.best:
        return
    piece(c, start, -1)  # stamp the part
    part = c.stamp
    for e in range(c.n_edges):  # the pieces the routes left make, each stamped its own
        if c.gone[e] or c.joined[e] or c.seen[c.ea[e]] != part:
            continue
        c.stamp += 1
        c.seen[c.ea[e]] = c.stamp
        c.stack[0] = c.ea[e]
        top = 1
        reached = 0
        while top > 0:
            top -= 1
            u = c.stack[top]
            for k in range(c.adj_start[u], c.adj_start[u + 1]):
                x = c.adj[k]
                if c.gone[x] or c.joined[x]:
                    continue
                reached += c.el[x]
                w = c.ea[x] + c.eb[x] - u
                if c.seen[w] != c.stamp:
                    c.seen[w] = c.stamp
                    c.stack[top] = w
                    top += 1
        if pieces == 0 and reached // 2 == length - weight:
            c.best = length - weight  # the routes left are connected: a trail
            return
        if reached // 2 > c.best:  # a piece has at most two odd cities: a trail, a bound to beat
            c.best = reached // 2
        crossing[pieces] = 0
        pieces += 1
    if pieces == 0:
        return
    # the piece with the fewest of the join's routes out of it: the fewest branches
    for i in range(c.n_nodes):
        odd_join[c.nodes[i]] = 0
    for e in range(c.n_edges):
        join[e] = c.joined[e]
        if c.joined[e]:
            odd_join[c.ea[e]] ^= 1
            odd_join[c.eb[e]] ^= 1
            a = c.seen[c.ea[e]] - part - 1
            b = c.seen[c.eb[e]] - part - 1
            if a != b:
                if 0 <= a < pieces:
                    crossing[a] += 1
                if 0 <= b < pieces:
                    crossing[b] += 1
    x = 0
    for i in range(1, pieces):
        if crossing[i] < crossing[x]:
            x = i
    x += part + 1
    # in the routes' order (as the map lists them), not the shortest first: on India's
    # adversarial networks (climbed against either order) the slowest took 24.3 µs sorted,
    # 17.1 in this order; the longest first, the reverse order and the frontier's (either way)
    # were slower too (23 to 32 µs)
    for e in range(c.n_edges):
        if c.joined[e] and (c.seen[c.ea[e]] == x) != (c.seen[c.eb[e]] == x):
            out[count] = e
            count += 1
    for i in range(c.n_nodes):  # the join's free ends
        u = c.nodes[i]
        odd_join[u] = c.seen[u] >= part and odd_join[u] != (c.degree[u] & 1)
        ends += odd_join[u]
    # the halves: remove the routes out until the part falls in two
    removed = 0
    length_a = -1
    while length_a < 0 and removed < count:
        e = out[removed]
        take_out(c, out, removed, removed + 1, False)
        length -= c.el[e]
        removed += 1
        length_a = piece(c, c.ea[e], c.eb[e])
    length_b = length - length_a
    kept_a = 0
    for k in range(c.n_edges):
        if c.kept[k] and c.seen[c.ea[k]] == c.stamp:
            kept_a += 1
    for i in range(c.n_nodes):
        u = c.nodes[i]
        half_a[u] = c.seen[u] == c.stamp
        ends_in_a += odd_join[u] and half_a[u]
    for side in range(2):  # a trail lies in one half: the one holding every kept route
        if side == 0 and not (kept_a == kept and length_a > c.best):
            continue
        if side == 1 and not (kept_a == 0 and length_b > c.best):
            continue
        kind[branches] = -1 - side
        branch_start[branches] = c.ea[e] if half_a[c.ea[e]] == (side == 0) else c.eb[e]
        branch_length[branches] = length_b if side else length_a
        branch_kept[branches] = kept
        if ends > 0 and (ends_in_a > 0) == (side == 0):  # the join's rest in the half: its lightest
            branch_weight[branches] = 0
            for k in range(c.n_edges):
                c.joined[k] = join[k] and not c.gone[k] and half_a[c.ea[k]] == (side == 0)
                if c.joined[k]:
                    branch_weight[branches] += c.el[k]
        else:
            branch_weight[branches] = lightest_join(c, branch_start[branches], JOIN_CYCLE_CAP)
        store_join(c, branch_join[branches])
        if dive(c, branch_start[branches], branch_length[branches], kept, branch_weight[branches], bound):
            branch_weight[branches] = -1  # searched
            if c.best >= bound:
                take_out(c, out, 0, removed, True)
                return
        branches += 1
    take_out(c, out, 0, removed, True)
    length += sum_lengths(c, out, removed)
    for i in range(removed):  # each kept, those before it removed
        e = out[i]
        c.kept[e] = 1
        kind[branches] = i
        branch_start[branches] = c.ea[e]
        branch_length[branches] = length
        branch_kept[branches] = kept + 1
        branch_weight[branches] = lightest_join(c, c.ea[e], JOIN_CYCLE_CAP)
        store_join(c, branch_join[branches])
        if dive(c, c.ea[e], length, kept + 1, branch_weight[branches], bound):
            branch_weight[branches] = -1  # searched
            if c.best >= bound:
                c.kept[e] = 0
                take_out(c, out, 0, i, True)
                return
        branches += 1
        c.kept[e] = 0
        take_out(c, out, i, i + 1, False)
        length -= c.el[e]
    take_out(c, out, 0, removed, True)
    length += sum_lengths(c, out, removed)
    count = 0
    for i in range(branches):  # the highest bound first (a part of too many cycles: not searched)
        if branch_weight[i] < 0 or branch_weight[i] >= JOIN_KEPT:
            continue
        j = count
        while j > 0 and (branch_length[rank[j - 1]] - branch_weight[rank[j - 1]] <
                         branch_length[i] - branch_weight[i]):
            rank[j] = rank[j - 1]
            j -= 1
        rank[j] = i
        count += 1
    for j in range(count):
        i = rank[j]
        if branch_length[i] - branch_weight[i] <= c.best:
            break
        if kind[i] < 0:
            take_out(c, out, 0, removed, False)
        else:
            take_out(c, out, 0, kind[i], False)
            c.kept[out[kind[i]]] = 1
        for k in range(c.n_edges):
            c.joined[k] = (branch_join[i][k >> 6] >> (k & 63)) & 1
        join_branch(c, branch_start[i], branch_length[i], branch_kept[i], branch_weight[i])
        if kind[i] < 0:
            take_out(c, out, 0, removed, True)
        else:
            take_out(c, out, 0, kind[i], True)
            c.kept[out[kind[i]]] = 0


cdef inline bint dive(Cut* c, int start, int length, int kept, int weight, int bound) noexcept nogil:
    """Search a branch at once when its join (in ``joined``) leaves it its part's bound: no
    other can beat it, and what it finds may spare the others their joins. Whether it did."""
    if weight < 0 or weight >= JOIN_KEPT or length - weight != bound:
        return False
    join_branch(c, start, length, kept, weight)
    return True


cdef inline void store_join(Cut* c, unsigned long long* bits) noexcept nogil:
    """Keep the routes marked in ``joined`` as bits."""
    cdef int k
    for k in range((c.n_edges + 63) >> 6):
        bits[k] = 0
    for k in range(c.n_edges):
        bits[k >> 6] |= <unsigned long long>c.joined[k] << (k & 63)


cdef inline int sum_lengths(Cut* c, int* out, int count) noexcept nogil:
    """The length of the routes ``out[:count]``."""
    cdef int i, total = 0
    for i in range(count):
        total += c.el[out[i]]
    return total


cdef int search(Cut* c, int best) noexcept nogil:
    """The longest trail of a prepared, connected ``c``, if longer than ``best`` (else
    ``best``)."""
    cdef int e, i, node, odd = 0, total = 0, cycles = c.n_edges - c.n_nodes + 1
    for e in range(c.n_edges):
        total += c.el[e]
    c.stamp = 0
    c.best = best
    c.steps = 0
    for i in range(c.n_nodes):
        odd += c.degree[c.nodes[i]] & 1
    # many cycles: the frontier finds the lightest joins (the order is the whole's, so no
    # part of it has a wider frontier)
    c.ranked = odd >= c.tune.join_odd_at_least and cycles > c.tune.join_gray_cycles
    if c.ranked:
        rank_nodes(c)
    if odd >= c.tune.join_odd_at_least and (c.ranked or cycles <= JOIN_CYCLE_CAP):
        for e in range(c.n_edges):
            c.kept[e] = 0
        if join_search(c, c.nodes[0], total, 0, JOIN_CYCLES):
            return c.best
    if c.n_edges - c.n_nodes + 1 <= c.tune.walk_cycles:
        # few cycles: walk every trail from the cities of odd degree (a longest trail that
        # is not a whole Euler circuit ends at two of them); with none, the circuit. A walk
        # that runs past its steps (many trails after all) hands over to the removal
        # search, which keeps the best trail the walk found as its bound: neither method
        # alone is fast on every network, and the race bounds the worst case by both.
        for i in range(c.n_nodes):
            node = c.nodes[i]
            if c.degree[node] & 1:
                walk(c, node, 0, total)
        if odd == 0 and total > c.best:
            c.best = total
        if c.steps > c.tune.walk_steps:
            cut_search(c, total, 0)
    else:
        cut_search(c, total, 0)
    return c.best


# --- networks with bridges ---------------------------------------------------------
#
# A bridge is a route whose removal splits a network. A trail crosses a bridge at most
# once and never comes back, so the blobs it passes through (the parts the bridges join,
# each joined by two or more paths) lie on one path of the tree the bridges make, and in
# each blob it is one stretch. So, from the leaves of the tree up, each blob's "arm" (the
# longest trail from its end of the bridge up, going down) is a search of the blob with
# each child's arm folded into one route at the child's bridge end, and a route longer
# than any trail at its own bridge end, which every longest trail must then start with;
# and the trails whose highest blob it is are the same search without that route (they
# use at most two arms, as their ends). Two small searches a blob instead of one search
# over them all, whose removals would try every branch against every other: India's
# dense boards (25 cities, 11 bridges, double routes) go from 2.7 million instructions
# to 120 thousand.

cdef struct Blobs:
    int blob[LP_NODE_CAP]        # per node of the network, its blob
    int count                    # blobs
    int largest                  # the blob of the most routes: the tree's root
    int routes[LP_NODE_CAP]      # per blob, its routes (0: a city alone)
    int bridge[LP_EDGE_CAP]      # per route of the network, whether it is a bridge
    int up_port[LP_NODE_CAP]     # per blob but the root: its end of the bridge to its parent
    int up_route[LP_NODE_CAP]    #   ... that bridge, or -1 for the root
    int order[LP_NODE_CAP]       # blobs, each after its parent
    int arm[LP_NODE_CAP]         # per blob but the root: the longest trail from its up port down


cdef int find_bridges(Cut* c, Blobs* b) noexcept nogil:
    """Mark the bridges among ``c``'s routes (depth-first lowpoints; a double route is two
    routes, so neither of its tracks is a bridge); return how many."""
    cdef int disc[LP_NODE_CAP]
    cdef int low[LP_NODE_CAP]
    cdef int via[LP_NODE_CAP]      # the route a node was reached by
    cdef int next_k[LP_NODE_CAP]   # where a node's scan of its routes stands
    cdef int stack[LP_NODE_CAP]
    cdef int e, k, u, w, top, time = 0, found = 0, start
    for e in range(c.n_edges):
        b.bridge[e] = 0
    for u in range(c.node_count):
        disc[u] = -1
    for start in range(c.node_count):
        if disc[start] != -1 or c.degree[start] == 0:
            continue
        disc[start] = low[start] = time
        time += 1
        via[start] = -1
        next_k[start] = c.adj_start[start]
        stack[0] = start
        top = 1
        while top > 0:
            u = stack[top - 1]
            if next_k[u] < c.adj_start[u + 1]:
                e = c.adj[next_k[u]]
                next_k[u] += 1
                if e == via[u]:
                    continue
                w = c.ea[e] + c.eb[e] - u
                if disc[w] == -1:
                    disc[w] = low[w] = time
                    time += 1
                    via[w] = e
                    next_k[w] = c.adj_start[w]
                    stack[top] = w
                    top += 1
                elif disc[w] < low[u]:
                    low[u] = disc[w]
            else:
                top -= 1
                if top > 0:
                    w = stack[top - 1]
                    if low[u] < low[w]:
                        low[w] = low[u]
                    if low[u] > disc[w]:
                        b.bridge[via[u]] = 1
                        found += 1
    return found


cdef int blob_trail(Cut* net, Blobs* b, Cut* q, int blob, int kids, int* kid_port, int* kid_arm,
                    int forced) noexcept nogil:
    """The longest trail of ``blob``'s routes with each child's arm as a route of its own
    from the child's port (``kid_port``, ``kid_arm``: the bridge's length plus the longest
    trail beyond it), and, with ``forced`` a node of the blob, a trail that starts there."""
    cdef int e, k, node
    cdef int local[LP_NODE_CAP]
    cdef int count = 0
    for node in range(net.node_count):
        local[node] = -1
        if b.blob[node] == blob:
            local[node] = count
            count += 1
    q.n_edges = 0
    for e in range(net.n_edges):
        if not b.bridge[e] and b.blob[net.ea[e]] == blob:
            q.ea[q.n_edges] = local[net.ea[e]]
            q.eb[q.n_edges] = local[net.eb[e]]
            q.el[q.n_edges] = net.el[e]
            q.n_edges += 1
    for k in range(kids):  # a trail uses at most two arms: as its ends
        q.ea[q.n_edges] = local[kid_port[k]]
        q.eb[q.n_edges] = count
        q.el[q.n_edges] = kid_arm[k]
        q.n_edges += 1
        count += 1
    if forced >= 0:  # longer than any trail: every longest trail ends with it
        q.ea[q.n_edges] = local[forced]
        q.eb[q.n_edges] = count
        q.el[q.n_edges] = LP_END_LENGTH
        q.n_edges += 1
        count += 1
    if q.n_edges == 0:
        return 0
    q.node_count = count
    return solve_edges(q, 0) - (LP_END_LENGTH if forced >= 0 else 0)


cdef void split_blobs(Cut* c, Blobs* b) noexcept nogil:
    """Number the blobs (the parts the routes other than bridges join) and find the one of
    the most routes: the tree's root, searched once (the others twice)."""
    cdef int parent[LP_NODE_CAP]
    cdef int* routes = b.routes
    cdef int e, u, x, y, most = 0
    for u in range(c.node_count):
        parent[u] = u
    for e in range(c.n_edges):
        if not b.bridge[e]:
            x = c.ea[e]
            while parent[x] != x:
                x = parent[x]
            y = c.eb[e]
            while parent[y] != y:
                y = parent[y]
            parent[x] = y
    b.count = 0
    for u in range(c.node_count):
        b.blob[u] = -1
    for u in range(c.node_count):
        if c.degree[u] == 0:
            continue
        x = u
        while parent[x] != x:
            x = parent[x]
        if b.blob[x] == -1:
            b.blob[x] = b.count
            b.count += 1
        b.blob[u] = b.blob[x]
    for u in range(b.count):
        routes[u] = 0
    b.largest = 0
    for e in range(c.n_edges):
        if not b.bridge[e]:
            routes[b.blob[c.ea[e]]] += 1
            if routes[b.blob[c.ea[e]]] > most:
                most = routes[b.blob[c.ea[e]]]
                b.largest = b.blob[c.ea[e]]


cdef int bridged_trail(Cut* c, Blobs* b, Cut* q, int best) noexcept nogil:
    """The longest trail of ``c``'s network, whose bridges ``b`` marks, by the tree of its
    blobs (numbered by :func:`split_blobs`); if longer than ``best`` (else ``best``)."""
    cdef int e, i, k, blob, head, tail, port, other, first, second
    cdef int arm_port[LP_NODE_CAP]   # per child of the blob at hand: its port there ...
    cdef int arm_value[LP_NODE_CAP]  # ... and the bridge's length plus the child's arm
    cdef int kids
    # the tree: from the largest blob, each blob after its parent, with the bridge up
    for i in range(b.count):
        b.up_route[i] = -2  # not reached yet
    b.up_route[b.largest] = -1
    b.order[0] = b.largest
    head, tail = 0, 1
    while head < tail:
        blob = b.order[head]
        head += 1
        for e in range(c.n_edges):
            if not b.bridge[e]:
                continue
            if b.blob[c.ea[e]] == blob:
                port, other = c.ea[e], c.eb[e]
            elif b.blob[c.eb[e]] == blob:
                port, other = c.eb[e], c.ea[e]
            else:
                continue
            if b.up_route[b.blob[other]] != -2:
                continue
            b.up_route[b.blob[other]] = e
            b.up_port[b.blob[other]] = other
            b.order[tail] = b.blob[other]
            tail += 1
    # bottom up: each blob's arm (a trail from its up port, down), then the trails whose
    # highest blob it is, each child's subtree folded into one route: two searches a blob
    for i in range(b.count - 1, -1, -1):
        blob = b.order[i]
        kids = 0
        for e in range(c.n_edges):
            if not b.bridge[e] or e == b.up_route[blob]:
                continue
            if b.blob[c.ea[e]] == blob and b.up_route[b.blob[c.eb[e]]] == e:
                arm_port[kids] = c.ea[e]
                arm_value[kids] = c.el[e] + b.arm[b.blob[c.eb[e]]]
                kids += 1
            elif b.blob[c.eb[e]] == blob and b.up_route[b.blob[c.ea[e]]] == e:
                arm_port[kids] = c.eb[e]
                arm_value[kids] = c.el[e] + b.arm[b.blob[c.ea[e]]]
                kids += 1
        if b.routes[blob] == 0:  # a city alone: its arms meet there, no search needed
            first = second = 0
            for k in range(kids):
                if arm_value[k] > first:
                    second = first
                    first = arm_value[k]
                elif arm_value[k] > second:
                    second = arm_value[k]
            b.arm[blob] = first
            best = max(best, first + second)
            continue
        if b.up_route[blob] >= 0:
            b.arm[blob] = blob_trail(c, b, q, blob, kids, arm_port, arm_value, b.up_port[blob])
        best = max(best, blob_trail(c, b, q, blob, kids, arm_port, arm_value, -1))
    return best


cdef int plain_trail(Cut* c, int n_routes, const int* ea, const int* eb, const int* el) noexcept nogil:
    """The longest trail of the connected routes ``ea``, ``eb``, ``el`` (``n_routes`` of
    them: the caller's arrays, not yet copied into ``c``) when it needs no search, else
    -1. A tree's trails are its paths, and its longest is found by peeling leaves: each
    leaf hands its longest branch to its one neighbour, and a branch meeting another at a
    city makes a path. A network whose cities are all even but two at most is one trail,
    every route of it (Euler). Most players' largest networks at the end of a game are one
    or the other (USA, random games: 77% trees, and 7% more of even cities), and this is a
    pass over their routes instead of the search's set-up. It reads and writes
    ``c.degree`` only at the routes' cities."""
    cdef int e, x, y, u, top = 0, cities = 0, odd = 0, total = 0, longest = 0, through
    cdef int incident[LP_NODE_CAP]  # the xor of a city's routes not yet peeled: a leaf's last one
    cdef int reach[LP_NODE_CAP]     # the longest branch peeled into a city so far
    cdef int leaves[LP_NODE_CAP]
    for e in range(n_routes):
        x, y = ea[e], eb[e]
        c.degree[x] = 0
        c.degree[y] = 0
        incident[x] = 0
        incident[y] = 0
        reach[x] = 0
        reach[y] = 0
    for e in range(n_routes):
        x, y = ea[e], eb[e]
        cities += (c.degree[x] == 0) + (c.degree[y] == 0)
        c.degree[x] += 1
        c.degree[y] += 1
        odd += 2 * ((c.degree[x] & 1) + (c.degree[y] & 1)) - 2  # a city turned odd: +1, even: -1
        incident[x] ^= e
        incident[y] ^= e
        total += el[e]
    if n_routes != cities - 1:  # a cycle: one trail of it all, or a search
        return total if odd <= 2 else -1
    for e in range(n_routes):  # a leaf has one route: listed once
        if c.degree[ea[e]] == 1:
            leaves[top] = ea[e]
            top += 1
        if c.degree[eb[e]] == 1:
            leaves[top] = eb[e]
            top += 1
    while top > 0:  # each city is listed once at most: when its degree falls to 1
        top -= 1
        u = leaves[top]
        if c.degree[u] == 0:
            continue  # the last city: its one neighbour peeled it already
        e = incident[u]
        x = eb[e] if ea[e] == u else ea[e]
        through = reach[u] + el[e]
        if reach[x] + through > longest:
            longest = reach[x] + through
        if through > reach[x]:
            reach[x] = through
        c.degree[u] = 0
        c.degree[x] -= 1
        incident[x] ^= e
        if c.degree[x] == 1:
            leaves[top] = x
            top += 1
    return longest


cdef int trail_of(Cut* c, int n_routes, const int* ea, const int* eb, const int* el, int n_cities, int best,
                  const Tuning* tune) noexcept nogil:
    """The longest trail of a connected network of ``n_routes`` routes (``ea``, ``eb``: their
    cities, 0 .. ``n_cities`` - 1; ``el``: their lengths), if longer than ``best`` (else
    ``best``), with ``c`` as the search's room."""
    cdef int k, odd, plain
    cdef Blobs blobs
    cdef Cut query
    if tune.plain:  # most networks: answered from the caller's arrays, nothing copied
        plain = plain_trail(c, n_routes, ea, eb, el)
        if plain >= 0:
            return plain if plain > best else best
    c.tune = tune[0]
    c.n_edges = n_routes
    c.node_count = n_cities
    for k in range(n_routes):
        c.ea[k] = ea[k]
        c.eb[k] = eb[k]
        c.el[k] = el[k]
    prepare(c)
    odd = 0
    for k in range(c.n_nodes):
        odd += c.degree[c.nodes[k]] & 1
    # a network of few odd cities is quick to search whole: the tree would only add its
    # setting up (most end-of-game networks are such)
    if odd >= c.tune.bridged_odd_at_least and find_bridges(c, &blobs) >= 1:
        split_blobs(c, &blobs)
        query.tune = c.tune
        return bridged_trail(c, &blobs, &query, best)
    return search(c, best)


# --- for Python: any graph, for the tests -----------------------------------------------

#: The most routes one connected network may have here, the methods' defaults, and the
#: most cycles of a part searched by every sum of its cycles (past join_gray_cycles, and
#: when the frontier is too wide).
ROUTES = LP_ROUTES
TUNING = DEFAULT_TUNING
SUMMED_CYCLES = JOIN_CYCLES


def longest(edges, **tuning):
    """The longest trail of ``edges``, ``(city, city, length)`` triples of any graph (cities
    are ints, lengths 1 to 12), in cars: each connected part searched as the engines search
    a player's, the longest part first, each told the best so far. ``tuning`` changes the
    methods' thresholds (the fields of ``TUNING``). A ValueError when a part has more than
    ``ROUTES`` routes or a length is out of range."""
    cdef Tuning tune = DEFAULT_TUNING
    cdef Cut c
    cdef int ea[LP_EDGE_CAP]
    cdef int eb[LP_EDGE_CAP]
    cdef int el[LP_EDGE_CAP]
    cdef int best = 0, n
    settings = dict(TUNING)
    for name, value in tuning.items():
        if name not in settings:
            raise TypeError(f"no tuning {name!r}; the tuning is {sorted(settings)}")
        settings[name] = value
    tune = settings
    edges = [(a, b, length) for a, b, length in edges]
    for a, b, length in edges:
        if not 1 <= length <= 12:
            raise ValueError(f"a route's length is 1 to 12, not {length!r}")
    parent = {}

    def root(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x
    for a, b, _ in edges:
        parent[root(a)] = root(b)
    parts = {}
    for edge in edges:
        parts.setdefault(root(edge[0]), []).append(edge)
    for part in sorted(parts.values(), key=lambda p: -sum(e[2] for e in p)):
        if sum(e[2] for e in part) <= best:
            break
        if len(part) > LP_ROUTES:
            raise ValueError(f"a connected part of {len(part)} routes; at most {LP_ROUTES} here")
        local = {city: k for k, city in enumerate(sorted({x for e in part for x in e[:2]}))}
        for n, (a, b, length) in enumerate(part):
            ea[n], eb[n], el[n] = local[a], local[b], length
        best = trail_of(&c, len(part), ea, eb, el, len(local), best, &tune)
    return best
