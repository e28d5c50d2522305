"""The Switzerland rules, one test per rule, each naming where it comes from.

No rulebook of the map is in shared/seeds. The sources (spec/switzerland.rail's header):
SHEET, Days of Wonder's rules sheet for the Swiss map (vdocuments.site); SUMMARY, Universal
Head's rules summary v1.1 (pdfslide.us, scribd.com); REVIEW, the islaythedragon.com review
("Locomotive (wild) cards may be used only on tunnel routes. Drawing a face-up locomotive
card counts as only one draw"); WIKI, ticket-to-ride.fandom.com/wiki/Switzerland ("They can
be used to actually place the route, and to pay off any expenses"); BGG, boardgamegeek.com
thread 750095 (the country tickets: "You score the points of the best connection you make
on the ticket … if the ticket is left incomplete, you only lose the minimum amount"); MAP,
thoun/tickettoride modules/maps/switzerland (map.php, routes.php, destinations.php). Play
tests run on both engines; scoring tests on described positions, checked in both scorers.

The map's mechanics have their rules tested beside them (mechanics/NAME/tests/:
locomotive_draws, wild_locomotives, zones, multi_track, multi_target); this file keeps what
is the map's own: its data, its set-up, how its rules combine.
"""
from __future__ import annotations

import pytest
from conftest import Arranged, names, start_turns

import railspec
from railspec.runtime import reference
from railspec.runtime.position import position_fields

MARKET = ("pink", "white", "blue", "orange", "black")  # no locomotive, no colour of the tests' routes
BERN = "Bern-France|Deutschland|Österreich|Italia"
FRANCE = "France-Deutschland|Österreich|Italia"
# France to Italia through Martigny, Sion and Brig
FRANCE_TO_ITALIA = ["Martigny-France", "Martigny-Sion", "Brig-Sion", "Brig-Italia"]


@pytest.fixture(scope="module")
def swiss():
    return railspec.load("switzerland")


def claim_game(v, engine, players=2, seed=1, market=MARKET, **hand):
    """Player 0 to move with ``hand`` and the given market."""
    g = start_turns(v, players, seed=seed, engine=engine, keep="keep tickets 1,2")
    return Arranged(v, g).hand(0, **hand).faceup(*market)


def score(v, *seats):
    """Both scorers on a position: the compiled one's rows, checked against the reference."""
    position = {"variant": "switzerland", "players": list(seats)}
    rows = railspec.score(v, position)
    fields = position_fields(v.ir, position)
    assert reference.score_fields(v.ir, fields) == [{k: x for k, x in r.items() if k != "winner"} for r in rows]
    return rows


def ticket(v, name: str):
    return v.ir.ticket_named(name)


# --- the game's parts and its set-up -------------------------------------------------------

def test_the_components(swiss):
    """SHEET: 2 or 3 players, 40 trains each, the base game's 110 train cards; "3 routes
    leading from Switzerland to Austria, 4 to France, 5 to Italy and 5 to Germany"; "46
    Destination Tickets. 34 … connect city-to-city … 12 … connect either city-to-country or
    country-to-country". MAP: 34 cities, 88 routes, 42 of them tunnels."""
    v = swiss.ir
    assert (v.min_players, v.max_players, v.trains, v.hand, v.market_size) == (2, 3, 40, 4, 5)
    assert [c.count for c in v.colours] == [12] * 8 and v.locomotives == 14
    zones = {c.id: c.name for c in v.cities if c.dead_end}
    assert sorted(zones.values()) == ["Deutschland", "France", "Italia", "Österreich"]
    into = {name: sum(1 for r in v.routes if zones.get(r.b) == name or zones.get(r.a) == name)
            for name in zones.values()}
    assert into == {"Österreich": 3, "France": 4, "Italia": 5, "Deutschland": 5}
    assert (len(v.cities) - len(zones), len(v.routes), len(v.rule("tunnels").routes)) == (34, 88, 42)
    several = v.rule("multi_target").tickets
    assert (len(v.tickets), len(v.tickets) - len(several), len(several)) == (46, 34, 12)


def test_five_tickets_dealt_keep_two_and_the_others_leave_the_game(swiss, engine):
    """SUMMARY: "deal 5 to each player … Each player must keep at least 2 … Any returned cards
    are removed from the game"; REVIEW: drawing tickets, "a player must keep at least one;
    any tickets not kept are removed from the game"."""
    g = swiss.new_game(players=3, seed=4, engine=engine)
    assert len(g.state()["setup_offer"][0]) == 5 and "keep tickets 1" not in names(g)
    g.apply_name("keep tickets 1,2")
    assert len(g.state()["tickets_out"]) == 3
    g = start_turns(swiss, 2, engine=engine, keep="keep tickets 1,2")
    out = len(g.state()["tickets_out"])
    g.apply_name("draw tickets")
    g.apply_name("keep tickets 2")
    assert len(g.state()["tickets_out"]) == out + 2


# --- drawing train cards -------------------------------------------------------------------


def test_three_faceup_locomotives_are_still_flushed(swiss, engine):
    """SHEET: the rules sheet changes how a face-up locomotive is drawn, not the base game's
    flush ("If at any time, three of the five face-up cards are Locomotives, all five cards
    are immediately discarded"); MAP keeps its default reset at three (docs/rules.md #40)."""
    a = claim_game(swiss, engine, market=("loco", "loco", "pink", "white", "blue"))
    g = a.deck_top("red", "green", "yellow", "orange", "black", "loco").game(engine)
    g.apply_name("draw faceup pink")  # the refill shows a third locomotive: the market is dealt again
    loco = len(swiss.colours)
    assert g.state()["faceup"].count(loco) < 3 and g.state()["discard"][loco] >= 3


# --- tickets to one of several destinations --------------------------------------------------

def test_the_country_tickets(swiss):
    """MAP (destinations.php, map.php: two copies of tickets 1 to 4): each country to the
    three others, printed twice, and Bern, Chur, Zürich and Lugano to each country."""
    rule = swiss.ir.rule("multi_target")
    places = {c.id: c.name for c in swiss.ir.cities}
    written = {swiss.ir.tickets[t].name: [(places[p], n) for p, n in targets] for t, targets in rule.tickets}
    assert written[FRANCE] == written[FRANCE + "/2"] == [("Deutschland", 5), ("Österreich", 14), ("Italia", 11)]
    assert written[BERN] == [("France", 5), ("Deutschland", 6), ("Österreich", 11), ("Italia", 8)]
    assert written["Lugano-France|Deutschland|Österreich|Italia"] == [("France", 14), ("Deutschland", 12),
                                                                      ("Österreich", 13), ("Italia", 2)]
    best = ticket(swiss, BERN)
    assert (places[best.b], best.points) == ("Österreich", 11)  # what a tool reading one destination sees


# --- scoring ------------------------------------------------------------------------------

def test_the_longest_path_and_the_ties(swiss):
    """SHEET: "the player with the longest continuous path of routes at the end of the game
    receives a bonus of 10 points"; no Globetrotter (MAP: pointsForGlobetrotter null); ties:
    the base game's keys, the most tickets, then the longest path (docs/rules.md #40)."""
    assert swiss.ir.tiebreaks == ("most_tickets", "longest_path")
    assert swiss.ir.rule("globetrotter") is None
    rows = score(swiss, {"routes": FRANCE_TO_ITALIA, "tickets": []}, {"routes": ["Bern-Solothurn"], "tickets": []})
    assert (rows[0]["longest_path"], rows[0]["longest_bonus"], rows[1]["longest_bonus"]) == (10, 10, 0)
