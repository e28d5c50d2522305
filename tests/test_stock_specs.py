"""The four stock specs beyond USA (Europe, Pennsylvania, Italy, Amsterdam) check, and hold
the map data's counts.

The expected numbers are those of shared/maps/README.md, which were checked by script
across independent sources; each spec's header says where its own numbers came from. These
tests use only the compiler (parse and check to the IR), and load each spec once: the
engines implement all the mechanics they use (a spec using a mechanic the engines lack is
refused by name, tests/test_mechanics.py).

What "cities" counts: the IR has one entry per `city` and per `zone` statement. The map
JSON files list more entries than that for the maps with neighbouring zones, because they
also list each zone's numbered end-points:

- Pennsylvania: 37 JSON entries = 34 cities + the Ontario zone + its 2 end-points (1001,
  1002); the spec has 35 places (34 cities, 1 zone).
- Italy: 47 JSON entries = 34 cities + 5 countries + their 8 end-points; the spec has 39
  places (34 cities, 5 zones).

In the IR every route end at a zone is a graph node of its own (the zone's own id is not
a node), so the node count is the number of places plus the number of routes into zones.
"""
from __future__ import annotations

from collections import Counter

import pytest

import railspec
from railspec.compiler import check_file, ir, stock_path
from railspec.compiler.base.errors import UnsupportedMechanicError

STOCK = ["europe", "pennsylvania", "italy", "amsterdam", "legendary_asia", "india", "nordic_countries", "switzerland",
         "japan", "united_kingdom"]

# name: (cities, zones, routes, cars, regular tickets, long tickets, doubles, triples, gray)
COUNTS = {
    "europe": (47, 0, 101, 300, 40, 6, 11, 0, 37),
    "pennsylvania": (34, 1, 95, 322, 50, 0, 24, 0, 18),
    "italy": (34, 5, 128, 379, 56, 0, 42, 1, 21),
    "amsterdam": (17, 0, 44, 86, 24, 0, 13, 0, 13),
    "legendary_asia": (39, 0, 101, 270, 30, 6, 29, 1, 27),
    "india": (39, 0, 108, 238, 58, 0, 28, 0, 30),
    "nordic_countries": (39, 0, 81, 207, 46, 0, 14, 0, 11),
    "switzerland": (34, 4, 88, 205, 46, 0, 12, 0, 14),
    "japan": (48, 0, 114, 277, 54, 0, 22, 0, 25),
    "united_kingdom": (47, 1, 125, 274, 57, 0, 19, 0, 40),
}


def load_ir(name: str) -> ir.Variant:
    return check_file(stock_path(name))


@pytest.fixture(scope="module", params=STOCK)
def variant(request):
    return request.param, load_ir(request.param)


def tracks_per_pair(v: ir.Variant) -> Counter:
    """How many pairs of cities have 1, 2 and 3 tracks."""
    return Counter(Counter(r.group for r in v.routes).values())


def names(v: ir.Variant) -> dict[int, str]:
    return {c.id: c.name for c in v.cities}


# --- every spec ---------------------------------------------------------------------------

def test_check_file_succeeds(variant):
    key, v = variant
    assert v.key == key
    assert v.spec_hash and v.sources


def test_counts(variant):
    key, v = variant
    cities, zones, routes, cars, regular, long_, doubles, triples, gray = COUNTS[key]
    assert sum(not c.dead_end for c in v.cities) == cities
    assert sum(c.dead_end for c in v.cities) == zones
    assert len(v.cities) == cities + zones
    assert len(v.routes) == routes
    assert sum(r.length for r in v.routes) == cars
    assert sum(not t.deck for t in v.tickets) == regular
    assert sum(t.deck == "long" for t in v.tickets) == long_
    per_pair = tracks_per_pair(v)
    assert per_pair[2] == doubles and per_pair[3] == triples
    assert set(per_pair) <= {1, 2, 3}
    assert sum(r.colour == ir.GRAY for r in v.routes) == gray
    into_zones = sum(v.cities[r.a].dead_end + v.cities[r.b].dead_end for r in v.routes)
    assert v.node_count == cities + zones + into_zones


def test_every_spec_names_its_sources(variant):
    key, v = variant
    text = stock_path(key).read_text(encoding="utf-8")
    assert "shared/maps/" in text
    # the rulebook in the seeds, or, for a map whose rulebook is not there, a rule text named
    # by a source line
    assert "shared/seeds/" in text or any("rule" in source for source in v.sources)


def test_loading_refuses_exactly_the_mechanics_not_implemented(variant):
    """A stock spec loads when the engines implement all its mechanics; otherwise loading it
    names the mechanics missing (the registry decides which)."""
    from railspec.compiler.mechanic import default_registry
    key, v = variant
    missing = [m.name for m, _ in default_registry().unimplemented(v)]
    if not missing:
        assert railspec.load(key).key == key
        return
    for target in (key, str(stock_path(key))):
        with pytest.raises(UnsupportedMechanicError, match=", ".join(missing)):
            railspec.load(target)


def test_cards_and_market(variant):
    key, v = variant
    if key == "amsterdam":
        assert [c.count for c in v.colours] == [6] * 6 and v.locomotives == 8 and v.card_total == 44
    elif key == "united_kingdom":  # "The UK deck has 6 extra Locomotives" (map.php)
        assert [c.count for c in v.colours] == [12] * 8 and v.locomotives == 20 and v.card_total == 116
    else:
        assert [c.count for c in v.colours] == [12] * 8 and v.locomotives == 14 and v.card_total == 110
    # Nordic Countries' and the United Kingdom's face-up cards are never flushed (docs/rules.md #36)
    assert (v.market_size, v.market_reset_locomotives) == (5, 0 if key in ("nordic_countries", "united_kingdom")
                                                           else 3)
    assert v.end_trains == 2


# --- Europe (000_bb662d8662a85a07.txt) ------------------------------------------------------

def test_europe_tunnels_ferries_stations():
    v = load_ir("europe")
    ferries = v.rule("ferries")
    assert len(v.rule("tunnels").routes) == 18
    assert Counter(n for _, n in ferries.locomotives) == {1: 9, 2: 4}
    assert all(v.routes[r].colour == ir.GRAY for r in ferries.routes)
    stations = v.rule("stations")
    assert (stations.count, stations.costs, stations.bonus) == (3, (1, 2, 3), 4)
    assert (v.deal_regular, v.deal_parts, v.deal_keep) == (3, (("long", 1),), 2)
    assert (v.draw_tickets, v.draw_tickets_keep) == (3, 1)
    assert (v.rule("removed_tickets").setup, v.rule("removed_tickets").draws) == (True, False)
    assert v.rule("shuffled_returns") is None and v.rule("long_tickets").returned == "removed"
    assert v.rule("longest_path").bonus == 10
    assert v.tiebreaks == ("most_tickets", "fewest_stations", "longest_path")
    assert v.rule("multi_track").tracks_usable == ((2, 3, 1),)
    # the rulebook's table; 5 and 7 are filled in (no route has those lengths)
    assert v.route_points == (0, 1, 2, 4, 7, 10, 15, 18, 21)
    assert not {5, 7} & {r.length for r in v.routes}
    assert sum(t.points for t in v.tickets if not t.deck) == 321
    assert sum(t.points for t in v.tickets if t.deck == "long") == 123


# --- Pennsylvania (003_dff6463ca3838127.txt) ------------------------------------------------

def test_pennsylvania_companies_and_shares():
    v = load_ir("pennsylvania")
    companies = v.rule("shares").companies
    tables = {c.shares: c.points for c in companies}
    assert tables == {2: (7, 4), 3: (8, 5), 4: (9, 5), 5: (10, 6, 3), 6: (12, 7, 3), 7: (15, 9, 5),
                      8: (16, 10, 5, 1), 10: (20, 14, 9, 5, 2), 15: (30, 21, 14, 9, 6)}
    assert len(companies) == 9 and sum(c.shares for c in companies) == 60
    assert sum(bool(v.rule("shares").companies_of(r.id)) for r in v.routes) == 87
    assert v.rule("globetrotter").bonus == 15 and v.rule("longest_path") is None
    assert (v.deal_regular, v.deal_keep, v.draw_tickets, v.draw_tickets_keep) == (5, 3, 4, 1)
    assert sum(t.points for t in v.tickets) == 508
    assert v.route_points == (0, 1, 2, 4, 7, 10, 15, 18)


def test_pennsylvania_ontario_ferries():
    v = load_ir("pennsylvania")
    n = names(v)
    ontario = [c for c in v.cities if c.dead_end]
    assert [c.name for c in ontario] == ["Ontario"]
    needs = v.rule("ferries").needs
    ferries = Counter((n[r.a], n[r.b], r.length, needs(r.id)) for r in v.routes if needs(r.id))
    assert ferries == {("Buffalo", "Ontario", 1, 1): 2, ("Erie", "Ontario", 3, 2): 2}
    assert len(v.city_nodes[ontario[0].id]) == 4  # each track into Ontario is a dead end of its own


# --- Italy (004_7923d32833fcf0ff.txt) -------------------------------------------------------

def test_italy_regions_ferries_zones():
    v = load_ir("italy")
    regions = v.rule("regions").regions
    assert len(regions) == 17
    assert sorted(g.name for g in regions if g.counts_double) == ["Puglia", "Sardegna", "Sicilia"]
    in_a_region = {c for g in regions for c in g.cities}
    assert all(c.id in in_a_region for c in v.cities if not c.dead_end)
    assert v.rule("regions").points == ((5, 1, False), (6, 2, False), (7, 4, False), (8, 7, False), (9, 11, False),
                               (10, 16, False), (11, 22, False), (12, 29, False), (13, 37, False),
                               (14, 46, False), (15, 56, True))
    wave_spaces = v.rule("ferry_cards").wave_spaces
    waves = [r for r in v.routes if wave_spaces(r.id)]
    assert len(waves) == 21 and all(r.colour == ir.GRAY for r in waves)
    assert all(wave_spaces(r.id) for r in v.routes if r.colour == ir.GRAY)  # every gray route is a ferry
    assert (v.rule("ferry_cards").cards, v.rule("ferry_cards").hand_limit) == (10, 2)
    assert sorted(c.name for c in v.cities if c.dead_end) == ["Austria", "Croazia", "Francia", "Monaco", "Svizzera"]
    n = names(v)
    triple = [r for r in v.routes if r.tracks == 3]
    assert {(n[r.a], n[r.b]) for r in triple} == {("Napoli", "Roma")}
    assert (v.deal_regular, v.deal_keep, v.draw_tickets, v.draw_tickets_keep) == (5, 3, 4, 1)
    assert (v.rule("shuffled_returns").draws, v.rule("shuffled_returns").setup) == (True, True)
    assert v.rule("longest_path") is None and v.rule("globetrotter") is None
    assert v.rule("multi_track").tracks_usable == ((2, 3, 1),)
    assert v.route_points == (0, 1, 2, 4, 7, 10, 15, 18)
    assert sum(t.points for t in v.tickets) == 677
    # the source's ticket 55 names end-point 1001: the zone Francia
    assert ("Francia", "Austria", 11) in {(n[t.a], n[t.b], t.points) for t in v.tickets}


# --- Amsterdam (001_5402fe9f138aeb47.txt) ---------------------------------------------------

def test_amsterdam_rules():
    v = load_ir("amsterdam")
    assert (v.min_players, v.max_players, v.trains, v.hand) == (2, 4, 16, 2)
    assert (v.deal_regular, v.deal_keep, v.draw_tickets, v.draw_tickets_keep) == (2, 1, 2, 1)
    assert v.rule("goods").cards == 16
    assert v.rule("goods").ranking == ((2, (8, 4)), (3, (8, 5, 2)), (4, (8, 6, 4, 2)))
    assert v.rule("multi_track").tracks_usable == ((2, 2, 1),)
    assert v.tiebreaks == ("most_tickets",)
    assert v.route_points == (0, 1, 2, 4, 7)


def test_amsterdam_provisional_lists_follow_the_stated_rule():
    """The header's rule for the provisional goods routes and contracts, recomputed."""
    v = load_ir("amsterdam")
    assert [r.id in v.rule("goods").routes for r in v.routes] == [r.length >= 3 for r in v.routes]
    n = names(v)
    places = sorted(n.values())
    far = 10 ** 6
    dist = {(a, b): 0 if a == b else far for a in places for b in places}
    for r in v.routes:
        a, b = n[r.a], n[r.b]
        dist[a, b] = dist[b, a] = min(dist[a, b], r.length)
    for k in places:
        for i in places:
            for j in places:
                dist[i, j] = min(dist[i, j], dist[i, k] + dist[k, j])
    direct = {frozenset((n[r.a], n[r.b])) for r in v.routes}
    pairs = [(a, b) for i, a in enumerate(places) for b in places[i + 1:] if frozenset((a, b)) not in direct]
    chosen = []
    for d in range(3, 9):
        band = [p for p in pairs if dist[p] == d]
        chosen += [(*band[(2 * k + 1) * len(band) // 8], d) for k in range(4)]
    assert sorted((n[t.a], n[t.b], t.points) for t in v.tickets) == sorted(chosen)


# --- Legendary Asia (shared/maps/FAMILY-CENSUS.md, section 2) -------------------------------

def test_legendary_asia_mountains_ferries_and_the_triple():
    v = load_ir("legendary_asia")
    n = names(v)
    assert Counter(r.length for r in v.routes) == {1: 13, 2: 38, 3: 31, 4: 8, 5: 10, 6: 1}
    mountains = v.rule("mountains")
    assert len(mountains.crossings) == 30 and Counter(c for _, c in mountains.crossings) == {1: 22, 2: 8}
    assert mountains.points == 2
    ferries = v.rule("ferries")
    assert len(ferries.locomotives) == 15 and {k for _, k in ferries.locomotives} == {1}
    triple = sorted((r.colour_name, r.length, ferries.needs(r.id)) for r in v.routes if r.tracks == 3)
    assert triple == [("black", 4, 1), ("green", 5, 1), ("red", 4, 1)]
    assert {(n[r.a], n[r.b]) for r in v.routes if r.tracks == 3} == {("Bombay", "Colombo")}
    assert (v.deal_regular, v.deal_parts, v.deal_keep) == (3, (("long", 1),), 2)
    assert (v.draw_tickets, v.draw_tickets_keep) == (3, 1)
    assert (v.rule("removed_tickets").setup, v.rule("removed_tickets").draws) == (True, False)
    assert v.rule("long_tickets").returned == "removed"
    assert v.rule("multi_track").tracks_usable == ((2, 3, 1),)
    assert v.rule("longest_path") is None and v.rule("globetrotter") is None
    assert (v.rule("explorer").bonus, v.rule("explorer").ties) == (10, ("most_tickets", "most_mountain_routes"))
    assert v.tiebreaks == ("most_tickets",)
    assert v.route_points == (0, 1, 2, 4, 7, 10, 15)
    assert sorted(t.points for t in v.tickets if t.deck == "long") == [16, 16, 17, 17, 18, 18]
    assert {t.points for t in v.tickets if not t.deck} == set(range(5, 13))
    assert all(c.at is not None for c in v.cities)


# --- India (shared/maps/FAMILY-CENSUS.md, section 1) ----------------------------------------

def test_india_ferries_doubles_and_the_grand_tour():
    v = load_ir("india")
    assert Counter(r.length for r in v.routes) == {1: 31, 2: 47, 3: 17, 4: 9, 6: 3, 8: 1}
    ferries = v.rule("ferries")
    assert Counter(n for _, n in ferries.locomotives) == {1: 4, 2: 4}
    assert all(v.routes[r].colour == ir.GRAY for r in ferries.routes)
    assert (v.min_players, v.max_players, v.trains) == (2, 4, 45)
    assert (v.deal_regular, v.deal_parts, v.deal_keep) == (4, (), 2)
    assert (v.draw_tickets, v.draw_tickets_keep) == (3, 1)
    assert v.rule("removed_tickets") is None and v.rule("shuffled_returns") is None
    assert v.rule("multi_track").tracks_usable == ((2, 3, 1),)
    assert v.rule("longest_path").bonus == 10 and v.rule("globetrotter") is None
    assert v.rule("grand_tour").points == (5, 10, 20, 30, 40)
    assert v.tiebreaks == ("most_tickets", "longest_path")
    # the map's table; 5 and 7 are filled in (no route has those lengths)
    assert v.route_points == (0, 1, 2, 4, 7, 10, 15, 18, 21)
    assert {t.points for t in v.tickets} == set(range(5, 14)) | {17} and sum(t.points for t in v.tickets) == 473
    assert all(c.at is not None for c in v.cities)


# --- Nordic Countries (shared/maps/FAMILY-CENSUS.md, section 3) -----------------------------

def test_nordic_countries_ferries_tunnels_and_the_card_economy():
    v = load_ir("nordic_countries")
    n = names(v)
    assert Counter(r.length for r in v.routes) == {1: 17, 2: 28, 3: 20, 4: 11, 5: 3, 6: 1, 9: 1}
    ferries = v.rule("ferries")
    assert Counter(k for _, k in ferries.locomotives) == {1: 18, 2: 6}
    assert len(v.rule("tunnels").routes) == 10
    unequal = sorted((n[r.a], n[r.b], r.length) for r in v.routes if r.tracks == 2
                     and len({o.length for o in v.routes if o.group == r.group}) == 2)
    assert unequal == [("Kristiansand", "Stavanger", 2), ("Kristiansand", "Stavanger", 3),
                       ("Mo i Rana", "Trondheim", 5), ("Mo i Rana", "Trondheim", 6)]
    assert (v.min_players, v.max_players, v.trains) == (2, 3, 40)
    assert (v.deal_regular, v.deal_parts, v.deal_keep) == (5, (), 2)
    assert (v.draw_tickets, v.draw_tickets_keep) == (3, 1)
    assert (v.rule("removed_tickets").setup, v.rule("removed_tickets").draws) == (True, True)
    assert v.rule("multi_track").tracks_usable == ((2, 2, 1),)
    assert v.rule("longest_path") is None and v.rule("globetrotter").bonus == 10
    assert v.rule("wild_locomotives").attributes == ("tunnel", "ferry")
    assert v.rule("locomotive_draws") is not None
    assert v.rule("substitutes").locomotive == 3
    assert [(n[v.routes[r].a], n[v.routes[r].b], k) for r, k in v.rule("substitutes").cards] == [
        ("Murmansk", "Lieksa", 4)]
    assert v.route_points == (0, 1, 2, 4, 7, 10, 15, 18, 21, 27)
    assert v.tiebreaks == ("most_tickets",)
    assert sorted({t.points for t in v.tickets})[0] == 3 and max(t.points for t in v.tickets) == 24
    assert all(c.at is not None for c in v.cities)


# --- Switzerland (shared/maps/FAMILY-CENSUS.md, section 4) ----------------------------------

def test_switzerland_countries_tunnels_and_its_tickets():
    v = load_ir("switzerland")
    n = names(v)
    assert Counter(r.length for r in v.routes) == {1: 31, 2: 21, 3: 18, 4: 14, 5: 2, 6: 2}
    assert len(v.rule("tunnels").routes) == 42 and v.rule("ferries") is None
    zones = {c.id for c in v.cities if c.dead_end}
    assert sum((r.a in zones) + (r.b in zones) for r in v.routes) == 17
    apart = [r.name for r in v.routes if r.tracks == 2 and sum(o.group == r.group for o in v.routes) == 1]
    assert apart == ["Kreuzlingen-Deutschland/1", "Kreuzlingen-Deutschland/2"]
    assert (v.min_players, v.max_players, v.trains) == (2, 3, 40)
    assert (v.deal_regular, v.deal_parts, v.deal_keep) == (5, (), 2)
    assert (v.draw_tickets, v.draw_tickets_keep) == (3, 1)
    assert (v.rule("removed_tickets").setup, v.rule("removed_tickets").draws) == (True, True)
    assert v.rule("multi_track").tracks_usable == ((2, 2, 1),)
    assert v.rule("longest_path").bonus == 10 and v.rule("globetrotter") is None
    assert v.rule("wild_locomotives").attributes == ("tunnel",) and v.rule("substitutes") is None
    several = dict(v.rule("multi_target").tickets)
    assert len(several) == 12 and Counter(len(t) for t in several.values()) == {3: 8, 4: 4}
    assert Counter(v.tickets[t].name.split("/")[0] for t in several).most_common(1)[0][1] == 2
    assert {n[v.tickets[t].a] for t in several} == {"France", "Deutschland", "Österreich", "Italia", "Bern",
                                                     "Chur", "Zürich", "Lugano"}
    assert v.route_points == (0, 1, 2, 4, 7, 10, 15)
    assert v.tiebreaks == ("most_tickets", "longest_path")
    city_tickets = [t.points for t in v.tickets if t.id not in several]
    assert (min(city_tickets), max(city_tickets), sum(city_tickets)) == (2, 15, 258)
    assert all(c.at is not None for c in v.cities)
