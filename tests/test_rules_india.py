"""The India rules, one test per rule, each naming where it comes from: the India section of
the Board Game Arena map help (tr.boardgamearena.com/doc/Gamehelptickettoridemaps, "BGA
India" below: Introduction, Destination Tickets, Ferries, End Game Bonuses) and
shared/maps/FAMILY-CENSUS.md section 1 ("census"), which cites thoun/tickettoride
modules/maps/india/map.php. Play tests run on both engines; scoring tests score described
positions in both scorers, or arranged games on each engine.

The map's mechanics have their rules tested beside them (mechanics/NAME/tests/: grand_tour,
ferries, multi_track); this file keeps what is the map's own: its data, its set-up, how its
rules combine.
"""
from __future__ import annotations

import itertools

import pytest
from conftest import names, start_turns

import railspec
from railspec.compiler.base.errors import IllegalActionError
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


