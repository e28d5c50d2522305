"""The compiled longest path against the reference's walk of every trail (USA rulebook,
Calculating Scores: "a continuous path … may include loops and pass through the same city
several times, but a given train car may never be used twice in the same path"; Europe,
CALCOLO DEI PUNTEGGI, the European Express, the same words).

The compiled engine does not walk trails on dense networks: it removes the fewest cars
that leave a connected set of routes with at most two odd cities, after contracting
cities of degree 2 (mechanics/longest_path/templates/definitions.pyx.j2). The reference
walks every trail. They must agree on the networks where they differ most: a player's
every train on a tight cluster, chains and loops, several components, parallel routes.
"""
from __future__ import annotations

import random

import pytest

import railspec
from railspec.mechanics.longest_path import dense_network, longest_trail


@pytest.fixture(scope="module", params=["usa", "europe"])
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
