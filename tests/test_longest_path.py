"""The compiled longest path against the reference's walk of every trail (USA rulebook,
Calculating Scores: "a continuous path … may include loops and pass through the same city
several times, but a given train car may never be used twice in the same path"; Europe,
CALCOLO DEI PUNTEGGI, the European Express, the same words).

The compiled search is railspec.mechanics.longest_path.trail (trail.pyx, search.pxi),
compiled once with railspec; every engine with the bonus reads a player's networks into
it. It answers a tree (its longest path, by peeling leaves) and a network of two odd
cities at most (every car) without a search. Otherwise it keeps only the two longest dead
ends at a city and contracts cities of degree 2. A network with bridges (routes whose
removal splits it) is solved over the tree the bridges make: each blob between them
searched with its children's subtrees folded into one route each. A search of a part with
many odd cities and few cycles is by its lightest joins (the routes to leave out for at
most two odd cities, found over every sum of its cycles, or for a part of many cycles by
a frontier that settles the cities one by one, kept or removed one by one while what is
left falls apart); else it walks the trails of a component of few cycles for a bounded
number of steps, and otherwise (or when the walk runs out of steps) removes the fewest
cars that leave a connected set of routes with at most two odd cities. The reference
walks every trail. They must agree on the networks where they differ most: a player's
every train on a tight cluster (India's are trees of double routes and small loops, many
bridges), chains and loops, several components, parallel routes, dead ends, and the
slowest networks a search found. The module is also tested by itself, on small graphs of
known answers and on random graphs with each of its methods made to search them (its
tuning), in both its sizes (trail: up to 62 routes a network; trail_large: up to 1,000).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import railspec
from railspec.mechanics.longest_path import cycle_rank, dense_network, longest_trail, trail, trail_large


@pytest.fixture(scope="module", params=["usa", "europe", "india"])
def variant(request):
    return railspec.load(request.param)


def compiled_longest(v, player_routes: list[int]) -> int:
    owner = [-1] * len(v.routes)
    for r in player_routes:
        owner[r] = 0
    return v.module().Engine.for_scoring({"players": 2, "owner": owner}).longest_path(0)


def reference_longest(v, player_routes: list[int]) -> int:
    return longest_trail([(v.routes[r].node_a, v.routes[r].node_b, v.routes[r].length) for r in player_routes])


def test_dense_clusters_of_every_train(variant):
    """The worst case of the benchmark: 45 trains on short routes packed together."""
    for seed in range(40):
        routes = dense_network(variant.routes, variant.ir.trains, random.Random(seed))
        assert compiled_longest(variant, routes) == reference_longest(variant, routes), (seed, routes)


def test_random_route_sets_with_several_components(variant):
    """Any routes, any number of pieces; both tracks of a double may be one player's here
    (parallel routes between two cities), which the engine must also walk right."""
    rng = random.Random(7)
    for trial in range(150):
        routes = rng.sample(range(len(variant.routes)), rng.randint(0, 22))
        assert compiled_longest(variant, routes) == reference_longest(variant, routes), (trial, routes)


def test_chains_and_loops():
    """A ring (every city of degree 2: one Euler circuit), the ring with a tail, and a
    figure eight sharing one city, on USA routes."""
    usa = railspec.load("usa")

    def ids(*pairs):
        out = []
        for a, b in pairs:
            out.append(next(r.id for r in usa.routes if {usa.cities[r.a].name, usa.cities[r.b].name} == {a, b}))
        return out
    ring = ids(("Seattle", "Portland"), ("Portland", "Salt Lake City"), ("Salt Lake City", "Helena"),
               ("Helena", "Seattle"))
    tail = ids(("Helena", "Duluth"))
    second_ring = ids(("Helena", "Denver"), ("Denver", "Omaha"), ("Omaha", "Duluth"))
    for routes in (ring, ring + tail, ring + tail + second_ring, second_ring + tail):
        assert compiled_longest(usa, routes) == reference_longest(usa, routes), routes
    # the ring is a circuit: every car of it, 1 + 6 + 3 + 6
    assert compiled_longest(usa, ring) == 16


def test_trees_and_networks_of_two_odd_cities_at_most(variant):
    """What needs no search (the engine's plain_trail): trees, whose longest trail is their
    longest path, found by peeling leaves, and networks whose cities are all even but two
    at most, one trail of every car; and trees with a cycle added, which are neither unless
    their odd cities are few. 300 of them, grown outward from one city, of 1 to 30 routes."""
    rng = random.Random(23)
    routes = variant.routes
    kinds = {"tree": 0, "plain with a cycle": 0, "searched": 0}
    for trial in range(300):
        start = rng.choice(routes).node_a
        reached, chosen, groups, end = {start}, [], set(), start
        size = rng.randint(1, 30)
        chain = trial % 3 == 1  # a chain grows from its last city only
        while len(chosen) < size:
            outward = [r for r in routes if r.group not in groups and (r.node_a in reached) != (r.node_b in reached)
                       and (not chain or end in (r.node_a, r.node_b))]
            if not outward:
                break
            r = rng.choice(outward)
            chosen.append(r.id)
            groups.add(r.group)
            reached.update((r.node_a, r.node_b))
            end = r.node_b if r.node_a == end else r.node_a
        if trial % 3 != 2:  # close a cycle: a route between two cities already reached (a chain: a ring)
            closing = [r for r in routes if r.group not in groups and r.node_a in reached and r.node_b in reached
                       and (not chain or {r.node_a, r.node_b} == {start, end})]
            chosen += [rng.choice(closing).id] if closing else []
        degree: dict[int, int] = {}
        for r in chosen:
            for city in (routes[r].node_a, routes[r].node_b):
                degree[city] = degree.get(city, 0) + 1
        odd = sum(d % 2 for d in degree.values())
        tree = len(chosen) == len(degree) - 1
        kinds["tree" if tree else "plain with a cycle" if odd <= 2 else "searched"] += 1
        answer = reference_longest(variant, chosen)
        assert compiled_longest(variant, chosen) == answer, (trial, chosen)
        if not tree and odd <= 2:
            assert answer == sum(routes[r].length for r in chosen)  # Euler: every car
    assert min(kinds.values()) >= 5, kinds  # each kind met


def test_the_adversarial_networks(variant):
    """The slowest networks a hill-climb on the engine's own time found
    (bench/adversarial_networks.py): many dead ends, and several cycles joined by chains."""
    import json
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "bench" / "adversarial" / f"{variant.key}-longest_path.json"
    networks = json.loads(path.read_text(encoding="utf-8"))["networks"]
    by_name = {r.name: r.id for r in variant.routes}
    for network in networks:
        routes = [by_name[name] for name in network["routes"]]
        assert compiled_longest(variant, routes) == reference_longest(variant, routes) == network["answer"]


def test_many_dead_ends_at_one_city(variant):
    """Every route at a city, each to a city of no other route (a star), and stars joined:
    a trail uses at most two dead ends, the engine keeps only the two longest at a city."""
    rng = random.Random(3)
    by_city: dict[int, list[int]] = {}
    for r in variant.routes:
        by_city.setdefault(r.node_a, []).append(r.id)
        by_city.setdefault(r.node_b, []).append(r.id)
    hubs = sorted(by_city, key=lambda c: -len(by_city[c]))[:8]
    for hub in hubs:
        star = list({variant.routes[r].group: r for r in by_city[hub]}.values())
        assert compiled_longest(variant, star) == reference_longest(variant, star), hub
        plus = sorted(set(star) | set(rng.sample(range(len(variant.routes)), 8)))
        assert compiled_longest(variant, plus) == reference_longest(variant, plus), (hub, plus)


def test_random_connected_networks_rich_in_dead_ends(variant):
    """Networks grown from one city, mostly towards cities not yet reached (trees hanging
    off a few cycles), up to a player's trains: 200 of them."""
    rng = random.Random(11)
    routes = variant.routes
    for trial in range(200):
        reached, chosen, groups, left = {rng.choice(routes).node_a}, [], set(), variant.ir.trains
        while True:
            fits = [r for r in routes if r.group not in groups and r.length <= left
                    and (r.node_a in reached or r.node_b in reached)]
            outward = [r for r in fits if not (r.node_a in reached and r.node_b in reached)]
            if not fits:
                break
            r = rng.choice(outward if outward and rng.random() < 0.8 else fits)
            chosen.append(r.id)
            groups.add(r.group)
            reached.update((r.node_a, r.node_b))
            left -= r.length
        assert compiled_longest(variant, chosen) == reference_longest(variant, chosen), (trial, chosen)


def test_dead_end_networks_on_few_cycles(variant):
    """What the search by joins is for: a player's every train on short routes, most cities
    of odd degree, grown outward and then reshaped by random swaps of one route for another
    that touches the network (as the hill-climb does), sometimes with both tracks of a
    double route and a few routes anywhere: 120 of them."""
    rng = random.Random(23)
    for trial, chosen in enumerate(swapped_networks(variant, rng, 120, doubles=0, steps=200, swap=0.5)):
        extra = rng.sample(range(len(variant.routes)), rng.randint(0, 4)) if rng.random() < 0.3 else []
        network = sorted(set(chosen) | set(extra))
        assert compiled_longest(variant, network) == reference_longest(variant, network), (trial, network)


def swapped_networks(v, rng: random.Random, count: int, doubles: int, steps: int = 150,
                     swap: float = 0.3) -> list[list[int]]:
    """A player's every train on short routes near one city, reshaped by random swaps of a
    route for another touching the network (as the hill-climb; ``swap``: the chance a step
    takes one out, of ``steps``), with both tracks of at most ``doubles`` double routes
    (parallel routes: more cycles; the reference's walk of every trail slows down fast
    with them)."""
    routes = v.routes
    networks = []
    for _ in range(count):
        start = rng.choice(routes).node_a
        chosen, left = [], v.ir.trains
        for _ in range(steps):
            reached = {start} | {c for r in chosen for c in (routes[r].node_a, routes[r].node_b)}
            groups = [routes[r].group for r in chosen]
            both = len(groups) - len(set(groups)) < doubles
            if rng.random() < swap and chosen:  # a swap: one route out
                out = rng.choice(chosen)
                chosen.remove(out)
                left += routes[out].length
                continue
            fits = [r.id for r in routes if r.id not in chosen and (both or r.group not in groups)
                    and r.length <= min(left, 2) and (r.node_a in reached or r.node_b in reached)]
            if not fits:
                if left < 2:
                    break
                continue
            pick = rng.choice(fits)
            chosen.append(pick)
            left -= routes[pick].length
        networks.append(sorted(chosen))
    return networks


def test_networks_of_many_cycles():
    """What the frontier is for: India's short routes packed into one blob of more cycles
    than the sums of cycles take (JOIN_GRAY_CYCLES), and more than JOIN_CYCLES, where only
    the frontier finds the lightest joins; with both tracks of double routes, and cities
    where blobs of cycles meet."""
    india = railspec.load("india")
    networks = swapped_networks(india, random.Random(31), 50, doubles=2)
    networks += swapped_networks(india, random.Random(32), 50, doubles=0)
    ranks = [cycle_rank([india.routes[r] for r in n]) for n in networks]
    assert sum(rank > trail.TUNING["join_gray_cycles"] for rank in ranks) >= 40, ranks
    assert sum(rank > trail.SUMMED_CYCLES for rank in ranks) >= 3, ranks
    for network in networks:
        assert compiled_longest(india, network) == reference_longest(india, network), network


def edges_of(v, network: list[int]) -> list[tuple[int, int, int]]:
    """A network of the map's routes as the module's graph: (node, node, length) each."""
    return [(v.routes[r].node_a, v.routes[r].node_b, v.routes[r].length) for r in network]


@pytest.mark.parametrize("name", ["india", "switzerland"])
def test_the_frontier_on_every_network(name):
    """The lightest joins by the frontier alone (for every part with more than 0 cycles,
    and the search by joins from two odd cities up: the frontier on far more networks than
    the engines give it) agree with the reference on dense clusters, swapped networks with
    and without double routes, dead-end trees and random route sets of several
    components."""
    v = railspec.load(name)
    rng = random.Random(41)
    networks = [dense_network(v.routes, v.ir.trains, random.Random(seed)) for seed in range(20)]
    networks += swapped_networks(v, rng, 40, doubles=2) + swapped_networks(v, rng, 40, doubles=0)
    networks += [rng.sample(range(len(v.routes)), rng.randint(0, 24)) for _ in range(40)]
    for network in networks:
        edges = edges_of(v, network)
        assert trail.longest(edges, join_gray_cycles=0, join_odd_at_least=2) == longest_trail(edges), network


# --- the module by itself ------------------------------------------------------------

#: Small graphs and their longest trails, worked by hand: (label, edges, answer).
KNOWN = [
    ("nothing", [], 0),
    ("one route", [(0, 1, 4)], 4),
    ("a path", [(0, 1, 1), (1, 2, 2), (2, 3, 3)], 6),
    ("a path, routes in any order", [(2, 3, 3), (0, 1, 1), (1, 2, 2)], 6),
    ("a star of four: its two longest arms", [(0, 1, 1), (0, 2, 2), (0, 3, 3), (0, 4, 4)], 7),
    ("a triangle: a circuit, every car", [(0, 1, 2), (1, 2, 3), (2, 0, 4)], 9),
    ("a triangle with a tail: round it, then out", [(0, 1, 2), (1, 2, 3), (2, 0, 4), (2, 3, 5)], 14),
    ("a triangle with two tails: the shorter tail stays out",
     [(0, 1, 2), (1, 2, 3), (2, 0, 4), (2, 3, 5), (0, 4, 1)], 14),
    ("a figure eight: both loops through the shared city",
     [(0, 1, 1), (1, 2, 1), (2, 0, 1), (0, 3, 2), (3, 4, 2), (4, 0, 2)], 9),
    ("two parallel tracks: there and back", [(0, 1, 3), (0, 1, 3)], 6),
    ("three parallel tracks: there, back and there", [(0, 1, 3), (0, 1, 3), (0, 1, 2)], 8),
    ("parallel tracks with a tail each side: four odd cities, the shorter tail stays out",
     [(0, 1, 3), (0, 1, 3), (2, 0, 1), (1, 3, 4)], 10),
    ("a square with both diagonals (K4): four odd cities, one route left out",
     [(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 0, 1), (0, 2, 5), (1, 3, 6)], 14),
    ("two parts: the longer counts", [(0, 1, 2), (1, 2, 2), (5, 6, 6)], 6),
    ("two parts: the loop's every car", [(0, 1, 2), (1, 2, 2), (2, 0, 2), (7, 8, 5)], 6),
    ("two loops joined by a chain (a bridge): loop, chain, loop",
     [(0, 1, 1), (1, 2, 1), (2, 0, 1), (2, 3, 4), (3, 4, 1), (4, 5, 1), (5, 3, 1)], 10),
    ("cities need not be numbered from 0, nor densely", [(100, 7, 3), (7, 4000, 2)], 5),
]

#: Tunings that make each method search what it can: the defaults; nothing answered
#: without a search; the removals alone; the walks alone (as long as they take); the
#: joins by every sum of cycles from two odd cities up; the frontier for every part with
#: a cycle; blob by blob wherever there is a bridge.
TUNINGS = {
    "defaults": {},
    "no plain answers": {"plain": 0},
    "removals": {"plain": 0, "walk_cycles": -1, "join_odd_at_least": 1000, "bridged_odd_at_least": 1000},
    "walks": {"plain": 0, "walk_cycles": 1000, "walk_steps": 10 ** 9, "join_odd_at_least": 1000,
              "bridged_odd_at_least": 1000},
    "joins by sums": {"plain": 0, "join_odd_at_least": 2, "join_gray_cycles": 1000, "bridged_odd_at_least": 1000},
    "joins by the frontier": {"plain": 0, "join_odd_at_least": 2, "join_gray_cycles": 0,
                              "bridged_odd_at_least": 1000},
    "blob by blob": {"plain": 0, "bridged_odd_at_least": 0},
}


@pytest.mark.parametrize("module", [trail, trail_large], ids=["trail", "trail_large"])
@pytest.mark.parametrize("tuning", sorted(TUNINGS))
def test_small_graphs_of_known_answers(module, tuning):
    """Paths, stars, cycles, figure eights, parallel tracks, several parts: the answer
    worked by hand, the reference's, and the module's with each of its methods."""
    for label, edges, answer in KNOWN:
        assert longest_trail(edges) == answer, label  # the hand's answer is the reference's
        assert module.longest(edges, **TUNINGS[tuning]) == answer, label


def random_graph(rng: random.Random, cities: int, routes: int) -> list[tuple[int, int, int]]:
    """``routes`` routes (lengths 1 to 6) among ``cities`` cities: a random tree first
    (connected while routes allow), then routes anywhere, parallel ones included; the
    cities numbered at random, with gaps."""
    names = rng.sample(range(3 * cities), cities)
    edges = []
    for k in range(1, cities):
        if len(edges) < routes:
            edges.append((names[k], names[rng.randrange(k)], rng.randint(1, 6)))
    while len(edges) < routes:
        a, b = rng.sample(names, 2)
        edges.append((a, b, rng.randint(1, 6)))
    rng.shuffle(edges)
    return edges


def test_random_graphs_by_each_method():
    """Random graphs of 2 to 11 cities and up to 14 routes (trees, dense tangles, parallel
    tracks, several parts), each searched by each method in both modules: all agree with
    the reference."""
    rng = random.Random(17)
    for trial in range(150):
        cities = rng.randint(2, 11)
        edges = random_graph(rng, cities, rng.randint(1, min(14, 3 * cities)))
        answer = longest_trail(edges)
        for module in (trail, trail_large):
            for tuning, settings in TUNINGS.items():
                assert module.longest(edges, **settings) == answer, (trial, module.__name__, tuning, edges)


def test_the_modules_sizes():
    """trail searches networks of up to 62 routes (every network a stock map's 45 trains can
    make), trail_large up to the language's 1,000 routes; each refuses more, and both find
    the same trails."""
    from railspec.compiler.base.limits import MAX_ROUTES
    assert trail.ROUTES == 62 and trail_large.ROUTES == MAX_ROUTES
    assert all(trail.ROUTES >= v.ir.trains for v in (railspec.load(n) for n in ("usa", "europe", "india")))
    rng = random.Random(5)
    chain = [(k, k + 1, rng.randint(1, 3)) for k in range(70)] + [(3, 9, 2), (20, 31, 1), (50, 44, 5)]
    with pytest.raises(ValueError):
        trail.longest(chain)
    for tuning in TUNINGS.values():
        assert trail_large.longest(chain, **tuning) == longest_trail(chain)
    assert trail.longest(chain[:60]) == trail_large.longest(chain[:60]) == longest_trail(chain[:60])
    with pytest.raises(ValueError):
        trail.longest([(0, 1, 13)])
    with pytest.raises(TypeError):
        trail.longest([(0, 1, 1)], frontier=3)


def test_an_engine_of_a_large_map(tmp_path):
    """A map of more nodes than the search numbers as they are (its engine numbers each
    network's cities), where a player's network may have more routes than trail holds (the
    engine's search hands it to trail_large): a chain of 80 cities with chords, 1,000
    trains. The engine agrees with the reference on networks of 5 to 85 routes."""
    base = (Path(__file__).resolve().parent / "base.rail").read_text(encoding="utf-8")
    head = base[:base.index("city Alpha")].replace("trains 12", "trains 1000")
    cities = [f"C{k}" for k in range(81)]
    routes = [(k, k + 1) for k in range(80)] + [(k, k + 7) for k in range(0, 70, 9)]
    lines = [f"city {c}" for c in cities]
    lines += [f"route {cities[a]} - {cities[b]} {1 + (a * 7 + b) % 3} gray" for a, b in routes]
    lines += [f"ticket {cities[k]} - {cities[k + 40]} {5 + k}" for k in range(8)]
    spec = tmp_path / "long_chain.rail"
    spec.write_text(head.replace('variant "Base"', 'variant "Long chain"') + "\n".join(lines) + "\n",
                    encoding="utf-8")
    v = railspec.load(spec)
    rng = random.Random(8)
    sizes = []
    for _ in range(30):
        first = rng.randrange(len(v.routes))
        network = sorted({(first + k) % len(v.routes) for k in range(rng.randint(5, 85))})
        sizes.append(len(network))
        assert compiled_longest(v, network) == reference_longest(v, network), network
    assert max(sizes) > trail.ROUTES
