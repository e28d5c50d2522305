"""The India rules, one test per rule, each naming where it comes from: the India section of
the Board Game Arena map help (tr.boardgamearena.com/doc/Gamehelptickettoridemaps, "BGA
India" below: Introduction, Destination Tickets, Ferries, End Game Bonuses) and
shared/maps/FAMILY-CENSUS.md section 1 ("census"), which cites thoun/tickettoride
modules/maps/india/map.php. Play tests run on both engines; scoring tests score described
positions in both scorers, or arranged games on each engine."""
from __future__ import annotations

import itertools
import random

import pytest
from conftest import Arranged, names, start_turns

import railspec
from railspec.compiler.base.errors import IllegalActionError
from railspec.mechanics.grand_tour import dense_board, joined_twice
from railspec.runtime import reference
from railspec.runtime.position import position_fields


@pytest.fixture(scope="module")
def india():
    return railspec.load("india")


def score(india, *seats):
    """Both scorers on a position (each seat: routes, tickets): the compiled one's rows,
    checked against the reference's."""
    position = {"variant": "india", "players": [{"routes": list(r), "tickets": list(t)} for r, t in seats]}
    rows = railspec.score(india, position)
    fields = position_fields(india.ir, position)
    assert reference.score_fields(india.ir, fields) == [{k: v for k, v in r.items() if k != "winner"} for r in rows]
    return rows


def holding(india, engine, routes, tickets, players=2):
    """A game on ``engine`` in which player 0 owns ``routes`` and holds exactly ``tickets``
    (moved from wherever they were; the tickets player 0 held go under the deck)."""
    g = start_turns(india, players, engine=engine)
    a = Arranged(india, g).own(0, *routes)
    s = a.state
    wanted = [india.ir.ticket_named(t).id for t in tickets]
    s["ticket_deck"] = [t for t in s["ticket_deck"] if t not in wanted]
    for p in range(1, players):
        s["tickets"][p] = [t for t in s["tickets"][p] if t not in wanted]
    s["ticket_deck"] += [t for t in s["tickets"][0] if t not in wanted]
    s["tickets"][0] = wanted
    return a.game(engine)


# --- the map and the set-up (census: map.php; BGA India: Introduction, Destination Tickets) ------

def test_the_maps_numbers(india):
    """Census section 1 "Data": 39 cities, 108 routes (238 spaces; lengths 1:31 2:47 3:17 4:9
    6:3 8:1; 28 double pairs; 30 gray), 58 tickets of 5 to 17 points."""
    routes = india.routes
    assert len(india.cities) == 39 and len(routes) == 108 and len(india.tickets) == 58
    assert sum(r.length for r in routes) == 238
    lengths = {n: sum(r.length == n for r in routes) for n in range(1, 9)}
    assert lengths == {1: 31, 2: 47, 3: 17, 4: 9, 5: 0, 6: 3, 7: 0, 8: 1}
    assert sum(r.tracks == 2 and r.track == 1 for r in routes) == 28 and max(r.tracks for r in routes) == 2
    assert sum(r.colour < 0 for r in routes) == 30
    assert {t.points for t in india.tickets} <= set(range(5, 18)) and max(t.points for t in india.tickets) == 17


def test_two_to_four_players_with_45_trains(india, engine):
    """BGA India, Introduction: designed for 2 to 4 players; census: 45 trains (map.php)."""
    assert (india.ir.min_players, india.ir.max_players) == (2, 4)
    assert india.new_game(players=4, seed=1, engine=engine).state()["trains"] == [45] * 4
    with pytest.raises(ValueError):
        india.new_game(players=5, seed=1, engine=engine)


def test_four_tickets_dealt_keep_at_least_two(india, engine):
    """BGA India, Destination Tickets: each player is dealt 4 tickets and keeps at least 2."""
    g = india.new_game(players=3, seed=4, engine=engine)
    assert [len(o) for o in g.state()["setup_offer"]] == [4] * 3
    keeps = sorted(names(g))
    assert keeps == sorted("keep tickets " + ",".join(map(str, c))
                           for k in (2, 3, 4) for c in itertools.combinations(range(1, 5), k))
    with pytest.raises(IllegalActionError):
        g.apply_name("keep tickets 3")


def test_tickets_not_kept_at_the_start_go_to_the_bottom(india, engine):
    """BGA India, Destination Tickets: tickets not kept at the game's start go to the bottom of
    the deck (census: map.php unusedInitialDestinationsGoToDeckBottom), in slot order
    (docs/rules.md #5)."""
    g = india.new_game(players=2, seed=5, engine=engine)
    offer = g.state()["setup_offer"][0]
    g.apply_name("keep tickets 1,3")
    s = g.state()
    assert s["tickets"][0] == [offer[0], offer[2]] and s["ticket_deck"][-2:] == [offer[1], offer[3]]


def test_draw_three_tickets_keep_at_least_one(india, engine):
    """BGA India, Destination Tickets: a player drawing tickets draws 3 and keeps at least 1;
    the others go to the bottom of the deck."""
    g = start_turns(india, 2, engine=engine)
    g.apply_name("draw tickets")
    offer = g.state()["offer"]
    assert len(offer) == 3 and "keep tickets 1" in names(g) and len(names(g)) == 7
    g.apply_name("keep tickets 2")
    assert g.state()["ticket_deck"][-2:] == [offer[0], offer[2]]


# --- routes (BGA India: Introduction, Ferries; census: map.php) ----------------------------------


def test_the_ferries(india):
    """Census section 1: 8 ferries, 4 of them with 2 locomotive symbols; every claim of one
    pays its locomotives."""
    ferries = dict(india.ir.rule("ferries").locomotives)
    assert sorted(india.routes[r].name for r in ferries) == [
        "Bombay-Calicut", "Bombay-Karachi/1", "Bombay-Karachi/2", "Calcutta-Chittagong/1",
        "Calcutta-Chittagong/2", "Calcutta-Madras", "Calicut-Quilon/1", "Calicut-Quilon/2"]
    assert sorted(ferries.values()) == [1, 1, 1, 1, 2, 2, 2, 2]
    for action in india.actions:
        if action.kind == "claim" and action.route in ferries:
            assert action.locomotives >= ferries[action.route]


@pytest.mark.parametrize("length,points", [(1, 1), (2, 2), (3, 4), (4, 7), (6, 15), (8, 21)])
def test_the_route_table_has_no_five(india, length, points):
    """Census: the route table is 1:1 2:2 3:4 4:7 6:15 8:21 (map.php, 5 left out): no India
    route has length 5 or 7, so the entries the language needs for them (spec header,
    docs/rules.md #32) never score."""
    assert india.ir.route_points[length] == points
    assert not any(r.length in (5, 7) for r in india.routes)


def test_the_end_bonuses(india):
    """BGA India, End Game Bonuses: the Indian Express (longest path) scores 10; no
    Globetrotter (census: pointsForGlobetrotter null); the Grand Tour table is map.php's
    mandalaPoints."""
    assert india.ir.rule("longest_path").bonus == 10
    assert india.ir.rule("globetrotter") is None
    assert india.ir.rule("grand_tour").points == (5, 10, 20, 30, 40)


def test_ties_go_to_the_most_tickets_then_the_longest_path(india):
    """docs/rules.md #32: the rule sheet names no tie-breaker, so the base game's: the most
    tickets completed, then the holder of the Indian Express (longest path) card."""
    assert india.ir.tiebreaks == ("most_tickets", "longest_path")
    # 28 each (both paths 9 cars long, both bonuses); player 0 completed Karachi - Ahmadabad
    rows = score(india, (["Jodhpur-Karachi", "Ahmadabad-Jodhpur/1", "Karachi-Rohri"], ["Karachi-Ahmadabad"]),
                 (["Bombay-Mormugau", "Guntakal-Mormugau", "Bombay-Karachi/1"], []))
    assert [(r["total"], r["tickets_completed"], r["winner"]) for r in rows] == [(28, 1, True), (28, 0, False)]
    # 31 each, no ticket: player 0's 8-car path holds the card, player 1's routes are apart
    rows = score(india, (["Calcutta-Madras"], []),
                 (["Bombay-Calicut", "Jacobabad-Karachi", "Ambala-Lahore", "Dhubri-Patna/1"], []))
    assert [(r["total"], r["longest_bonus"], r["winner"]) for r in rows] == [(31, 10, True), (31, 0, False)]


# --- the Grand Tour (BGA India, End Game Bonuses; census: the Mandala) ----------------------------

TWO_PATHS = ["Ambala-Lahore", "Ambala-Delhi/1", "Bhatinda-Lahore/1", "Bhatinda-Delhi"]
# Lahore - Ambala - Delhi, and Lahore - Bhatinda - Ambala - Bareilly - Delhi: both through Ambala
CROSSING = ["Ambala-Lahore", "Ambala-Delhi/1", "Bhatinda-Lahore/1", "Ambala-Bhatinda/1", "Ambala-Bareilly",
            "Bareilly-Delhi"]
# one path Lahore - Ambala - Delhi, and a loop Delhi - Bareilly - Lucknow - Delhi at its end
LOOP_AT_THE_END = ["Ambala-Lahore", "Ambala-Delhi/1", "Bareilly-Delhi", "Bareilly-Lucknow", "Delhi-Lucknow"]
# Lahore - Bhatinda alone, then a loop Bhatinda - Ambala - Delhi - Bhatinda
LOOP_ON_THE_WAY = ["Bhatinda-Lahore/1", "Ambala-Bhatinda/1", "Ambala-Delhi/1", "Bhatinda-Delhi"]


def test_two_paths_that_share_no_city_make_a_grand_tour(india):
    """BGA India, End Game Bonuses: a ticket whose two cities are linked by at least 2 distinct
    continuous paths of its owner's trains qualifies: 5 points for one (docs/rules.md #30)."""
    [row, _] = score(india, (TWO_PATHS, ["Lahore-Delhi"]), ([], []))
    assert (row["tickets"], row["grand_tours"], row["grand_tour"]) == (5, 1, 5)


def test_paths_may_cross_at_a_city(india):
    """BGA India, End Game Bonuses: "These 2 paths may intersect, but cannot share trains":
    two paths through Ambala, with no route in common, count (docs/rules.md #30)."""
    [row, _] = score(india, (CROSSING, ["Lahore-Delhi"]), ([], []))
    assert (row["grand_tours"], row["grand_tour"]) == (1, 5)


@pytest.mark.parametrize("routes", [LOOP_AT_THE_END, LOOP_ON_THE_WAY], ids=["loop at the end", "loop on the way"])
def test_one_path_and_a_loop_elsewhere_is_no_grand_tour(india, routes):
    """BGA India, End Game Bonuses: the 2 paths cannot share trains. One path and a loop: the
    ticket is completed (its points count) but every way between its cities uses the same
    route somewhere (Lahore - Ambala, or Lahore - Bhatinda), so it does not qualify, however
    many trails a loop makes."""
    [row, _] = score(india, (routes, ["Lahore-Delhi"]), ([], []))
    assert (row["tickets"], row["tickets_completed"], row["grand_tours"], row["grand_tour"]) == (5, 1, 0, 0)


def test_only_the_owners_routes_count(india):
    """BGA India, End Game Bonuses: the paths are of the ticket's owner's trains: another
    player's routes closing the loop do not help."""
    [row, _] = score(india, (TWO_PATHS[:2], ["Lahore-Delhi"]), (TWO_PATHS[2:], []))
    assert (row["tickets_completed"], row["grand_tours"], row["grand_tour"]) == (1, 0, 0)


def test_a_loop_scores_only_for_a_ticket_held(india):
    """Census: the bonus counts completed tickets; a loop joining the cities of a ticket the
    player does not hold scores nothing."""
    [row, _] = score(india, (TWO_PATHS, ["Jaipur-Patna"]), ([], []))
    assert (row["grand_tours"], row["grand_tour"]) == (0, 0)


# A loop of 45 cars round the map (23 routes); 26 tickets have both cities on it, each joined
# both ways round.
RING = ["Calcutta-Patna", "Bilaspur-Calcutta", "Bilaspur-Raipur/1", "Raipur-Waltair/1", "Bezwada-Waltair/1",
        "Bezwada-Madras", "Erode-Madras/1", "Erode-Quilon", "Calicut-Quilon/1", "Calicut-Mangalore/1",
        "Guntakal-Mangalore", "Guntakal-Mormugau", "Bombay-Mormugau", "Bombay-Manmad", "Khandwa-Manmad",
        "Ahmadabad-Khandwa", "Ahmadabad-Jodhpur/1", "Bhatinda-Jodhpur", "Bhatinda-Delhi", "Bareilly-Delhi",
        "Bareilly-Lucknow", "Katni-Lucknow/1", "Katni-Patna/1"]
ON_THE_RING = ["Jodhpur-Khandwa", "Katni-Khandwa", "Katni-Waltair", "Raipur-Manmad", "Bombay-Quilon",
               "Waltair-Mangalore", "Calcutta-Erode"]


# A loop of 17 cars by Karachi, Bombay and Jaipur, and the three tickets it joins twice.
SMALL_RING = ["Manmad-Poona", "Bombay-Poona", "Bombay-Karachi/1", "Jodhpur-Karachi", "Jaipur-Jodhpur",
              "Jaipur-Ratiam/1", "Khandwa-Ratiam", "Khandwa-Manmad"]
SMALL_RING_TICKETS = ["Jaipur-Poona", "Jodhpur-Khandwa", "Karachi-Poona"]


@pytest.mark.parametrize("held,bonus", [(0, 0), (1, 5), (2, 10), (3, 20), (4, 30), (5, 40), (6, 40), (7, 40)])
def test_the_table_and_its_cap(india, held, bonus):
    """Census: mandalaPoints 1:5 2:10 3:20 4:30 5:40, the count capped at 5 (EndScore.php):
    written 'grand tour 1:5 2:10 3:20 4:30 5+:40' (docs/rules.md #31)."""
    [row, _] = score(india, (RING, ON_THE_RING[:held]), ([], []))
    assert sum(india.routes[india.ir.route_named(n).id].length for n in RING) == 45
    assert (row["tickets_completed"], row["grand_tours"], row["grand_tour"]) == (held, held, bonus)


def test_each_player_counts_their_own(india):
    """BGA India, End Game Bonuses: each player may earn Grand Tour bonuses: counted per player."""
    rows = score(india, (SMALL_RING, SMALL_RING_TICKETS), (TWO_PATHS, ["Lahore-Delhi"]))
    assert [(r["grand_tours"], r["grand_tour"]) for r in rows] == [(3, 20), (1, 5)]


@pytest.mark.parametrize("routes,tickets,tours", [
    (TWO_PATHS, ["Lahore-Delhi"], 1), (CROSSING, ["Lahore-Delhi"], 1), (LOOP_AT_THE_END, ["Lahore-Delhi"], 0),
    (RING, ON_THE_RING[:6], 6)])
def test_the_grand_tour_in_a_game_on_each_engine(india, engine, routes, tickets, tours):
    """The same rule in a game on each engine: the breakdown at the end of a turn, and
    game.grand_tours(player), the question both engines answer."""
    g = holding(india, engine, routes, tickets)
    row = g.score_breakdown()[0]
    assert (row["grand_tours"], row["grand_tour"]) == (tours, india.ir.rule("grand_tour").bonus(tours))
    assert g.grand_tours(0) == tours and g.grand_tours(1) == 0
    assert row["total"] == sum(row[k] for k in ("routes", "tickets", "longest_bonus", "grand_tour"))


# --- the Grand Tour's search, against a plain definition -------------------------------------------

def _two_paths_by_listing(edges, a, b) -> bool:
    """Two paths from a to b with no edge in common, by listing every simple path (small
    graphs only: the definition, for checking the engines' linear searches)."""
    adjacency: dict[int, list[tuple[int, int]]] = {}
    for i, (x, y) in enumerate(edges):
        adjacency.setdefault(x, []).append((y, i))
        adjacency.setdefault(y, []).append((x, i))
    paths = []

    def walk(node, seen, used):
        if node == b:
            paths.append(frozenset(used))
            return
        for w, i in adjacency.get(node, ()):
            if w not in seen:
                walk(w, seen | {w}, used + [i])
    walk(a, {a}, [])
    return any(not p & q for p, q in itertools.combinations(paths, 2))


def test_both_engines_and_the_definition_agree_on_random_networks(india):
    """Random parts of dense networks, random tickets held: the compiled engine's augmenting
    paths, the reference's cut test and a listing of every path (on networks small enough to
    list) give the same count."""
    module = india.module()
    rng = random.Random(24)
    listed = 0
    for trial in range(150):
        routes, _ = dense_board(india.ir, random.Random(trial))
        owned = {r for r in routes if rng.random() < 0.6}
        held = rng.sample(range(len(india.tickets)), 8)
        fields = {"players": 2, "owner": [0 if r.id in owned else -1 for r in india.routes], "tickets": [held, []]}
        compiled = module.Engine.for_scoring(fields).grand_tours(0)
        assert reference.for_scoring(india.ir, fields).grand_tours(0) == compiled
        edges = [(r.a, r.b) for r in india.routes if r.id in owned]
        if len(edges) <= 20:
            listed += 1
            ends = [(india.tickets[t].a, india.tickets[t].b) for t in held]
            assert sum(_two_paths_by_listing(edges, a, b) for a, b in ends) == compiled
            assert [joined_twice(edges, {a}, {b}) for a, b in ends] == [_two_paths_by_listing(edges, a, b)
                                                                        for a, b in ends]
    assert listed >= 30


def test_dense_networks_are_scored(india):
    """The benchmark's hard case (Query.hard_board): one player's 45 trains packed into some
    30 routes with many independent loops (up to 13), and every ticket on them; both engines
    agree."""
    module = india.module()
    loops = []
    for seed in range(9000, 9010):
        routes, tickets = dense_board(india.ir, random.Random(seed))
        cities = {c for r in routes for c in (india.routes[r].a, india.routes[r].b)}
        assert sum(india.routes[r].length for r in routes) <= 45
        loops.append(len(routes) - len(cities) + 1)
        fields = {"players": 2, "owner": [0 if r.id in set(routes) else -1 for r in india.routes],
                  "tickets": [tickets, []]}
        compiled = module.Engine.for_scoring(fields).grand_tours(0)
        assert compiled == reference.for_scoring(india.ir, fields).grand_tours(0)
    assert min(loops) >= 7 and max(loops) == 13
