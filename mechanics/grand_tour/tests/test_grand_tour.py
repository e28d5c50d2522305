"""The Grand Tour bonus (mechanics/grand_tour): its statement's errors, its rule on the India
map in both scorers and on both engines, and its search against a plain definition.

The rule's tests name where it comes from: the India section of the Board Game Arena map
help (tr.boardgamearena.com/doc/Gamehelptickettoridemaps, "BGA India": End Game Bonuses)
and shared/maps/FAMILY-CENSUS.md section 1 ("census"), which cites thoun/tickettoride
modules/maps/india/map.php.
"""
from __future__ import annotations

import itertools
import random

import pytest
from conftest import Arranged, add, assert_located_error, bad_spec_params, score_both, start_turns

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError
from railspec.mechanics.grand_tour import dense_board, joined_twice
from railspec.runtime import reference

S, C = SpecSyntaxError, SpecCheckError

@pytest.fixture(scope="module")
def india():
    return railspec.load("india")


def score(india, *seats):
    """Both scorers on a position (each seat: routes, tickets): the compiled one's rows,
    checked against the reference's."""
    players = [{"routes": list(r), "tickets": list(t)} for r, t in seats]
    return score_both(india, {"variant": "india", "players": players})


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("grand-tour-plural", add(18, "grand tours 1:5 2+:10"), S, 18, 7,
     "unexpected 'tours', expected a number; the form is: grand tour N:P N:P … N+:P"),
    ("grand-tour-without-a-table", add(18, "grand tour"), S, 18, 11, "the form is: grand tour N:P N:P … N+:P"),
    ("grand-tour-without-colon", add(18, "grand tour 1 2"), S, 18, 14, "expected one of '+', ':'"),
    ("grand-tour-falling", add(18, "grand tour 1:10 2:5 3+:20"), C, 18, 19,
     "grand tour points must not fall as tickets are added: 2 tickets score 5, less than the 10 of 1"),
    ("grand-tour-zero-points", add(18, "grand tour 1:0 2:5 3+:20"), C, 18, 14,
     "a grand tour of 1 ticket must score at least 1 point"),
    ("grand-tour-not-open-ended", add(18, "grand tour 1:5 2:10 3:20"), C, 18, 21,
     "the grand tour table's last entry must be open-ended ('3+:20'), so that every count of tickets scores"),
    ("grand-tour-hole", add(18, "grand tour 1:5 3+:20"), C, 18, 16,
     "grand tour points table has no entry for 2 (between 1 and 3)"),
    ("grand-tour-not-from-one", add(18, "grand tour 2:5 3+:10"), C, 18, 12,
     "grand tour points table has no entry for 1"),
    ("grand-tour-key-zero", add(18, "grand tour 0:1 1+:5"), C, 18, 12,
     "grand tour points table keys must be positive, got 0"),
    ("grand-tour-key-twice", add(18, "grand tour 1:5 1:6 2+:7"), C, 18, 16, "grand tour points table gives 1 twice"),
    ("grand-tour-open-entry-not-last", add(18, "grand tour 1:5 2+:10 3+:20"), C, 18, 16,
     "the open-ended entry '2+' must have the largest key in the grand tour points table"),
    ("grand-tour-too-large", add(18, "grand tour 1:5 2+:1000001"), C, 18, 19,
     "grand tour points must be at most 1,000,000, got 1000001"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- the Grand Tour (BGA India, End Game Bonuses; census: the Mandala) ------------------------

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


# --- the Grand Tour's search, against a plain definition --------------------------------------

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
