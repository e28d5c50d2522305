"""The Nordic Countries rules, one test per rule, each naming where it comes from.

No rulebook of the map is in shared/seeds. The sources (spec/nordic_countries.rail's header):
SUMMARY, Dan Blum's rules summary (onedayofsilence.com, "Ticket to Ride 'Nordic Countries' -
english rules", from boardgamegeek.com); FERRIES, boardgames.stackexchange.com question 1849
("You can always use any 3 cards in place of a locomotive. You can always play an extra
locomotive in place of a coloured card"); BOOKLET, the rule booklet's set-up as
ultraboardgames.com transcribes it; MAP, thoun/tickettoride modules/maps/nordiccountries
(map.php, routes.php, destinations.php). Where SUMMARY and the adaptation disagree (the
market's flush), the rule text wins (docs/rules.md #36). Play tests run on both engines;
scoring tests on described positions, checked in both scorers.

The map's mechanics have their rules tested beside them (mechanics/NAME/tests/:
locomotive_draws, wild_locomotives, substitutes, multi_track, removed_tickets); this file
keeps what is the map's own: its data, its set-up, how its rules combine.
"""
from __future__ import annotations

import pytest
from conftest import Arranged, names, start_turns

import railspec
from railspec.runtime import reference
from railspec.runtime.position import position_fields

MARKET = ("pink", "white", "blue", "orange", "black")  # no locomotive, no colour of the tests' routes


@pytest.fixture(scope="module")
def nordic():
    return railspec.load("nordic_countries")


def claim_game(v, engine, players=2, seed=1, market=MARKET, **hand):
    """Player 0 to move with ``hand`` and the given market."""
    g = start_turns(v, players, seed=seed, engine=engine, keep="keep tickets 1,2")
    return Arranged(v, g).hand(0, **hand).faceup(*market)


def claims(game, route: str) -> list[str]:
    """The legal claims of ``route`` (its name without a track suffix matches every track)."""
    return [n for n in names(game) if n.startswith(f"claim {route} ")]


def score(v, *seats):
    """Both scorers on a position: the compiled one's rows, checked against the reference."""
    position = {"variant": "nordic_countries", "players": list(seats)}
    rows = railspec.score(v, position)
    fields = position_fields(v.ir, position)
    assert reference.score_fields(v.ir, fields) == [{k: x for k, x in r.items() if k != "winner"} for r in rows]
    return rows


# --- the game's parts and its set-up -------------------------------------------------------

def test_the_components(nordic):
    """BOOKLET: 40 trains each, 110 train cards (12 of each colour, 14 locomotives), 4 dealt,
    5 face up; 2 or 3 players. MAP: 39 cities, 81 routes, 46 tickets of 3 to 24 points."""
    v = nordic.ir
    assert (v.min_players, v.max_players, v.trains, v.hand, v.market_size) == (2, 3, 40, 4, 5)
    assert [c.count for c in v.colours] == [12] * 8 and v.locomotives == 14
    assert (len(v.cities), len(v.routes), len(v.tickets)) == (39, 81, 46)
    assert sum(r.length for r in v.routes) == 207
    assert (min(t.points for t in v.tickets), max(t.points for t in v.tickets)) == (3, 24)


def test_five_tickets_dealt_keep_two_and_the_others_leave_the_game(nordic, engine):
    """BOOKLET: "deal 5 cards to each player … A player must keep at least two, but may keep
    all five … Any returned cards are removed from the game"."""
    g = nordic.new_game(players=2, seed=3, engine=engine)
    s = g.state()
    assert len(s["setup_offer"][0]) == 5
    legal = names(g)
    assert "keep tickets 1,2" in legal and "keep tickets 1" not in legal and "keep tickets 1,2,3,4,5" in legal
    deck = len(s["ticket_deck"])
    g.apply_name("keep tickets 1,2")
    s = g.state()
    assert len(s["tickets"][0]) == 2 and len(s["tickets_out"]) == 3 and len(s["ticket_deck"]) == deck


# --- drawing train cards -------------------------------------------------------------------


def test_the_market_is_never_flushed(nordic, engine):
    """SUMMARY: "The display is not flushed when there are three locomotive cards in it (nor
    at any other time)" (docs/rules.md #36: the adaptation flushes it, the rule text wins):
    five face-up locomotives stay through a draw, a refill and the end of turns."""
    market = ("loco", "loco", "loco", "pink", "loco")
    g = claim_game(nordic, engine, market=market, green=1).deck_top("loco", "loco").game(engine)
    g.apply_name("draw faceup pink")  # refilled with a locomotive: five show
    loco = len(nordic.colours)
    assert g.state()["faceup"] == [loco] * 5
    g.apply_name("draw blind")
    assert g.state()["faceup"] == [loco] * 5 and g.current_player == 1
    g.apply_name("draw faceup loco")
    g.apply_name("draw faceup loco")
    assert g.state()["faceup"].count(loco) >= 3


# --- scoring ------------------------------------------------------------------------------

def test_the_route_table_and_the_globetrotter(nordic):
    """MAP (map.php): route points 1:1 2:2 3:4 4:7 5:10 6:15 9:27 (7 and 8 unused: docs/rules.md
    #39), no longest-path bonus, the Globetrotter 10 to the most completed tickets (ties all
    score)."""
    v = nordic.ir
    assert [v.route_points[n] for n in (1, 2, 3, 4, 5, 6, 9)] == [1, 2, 4, 7, 10, 15, 27]
    assert not any(r.length in (7, 8) for r in v.routes)
    oslo_stavanger = ["Kristiansand-Oslo", "Kristiansand-Stavanger/1"]
    rows = score(nordic, {"routes": oslo_stavanger, "tickets": ["Oslo-Stavanger"]},
                 {"routes": ["Murmansk-Lieksa"], "tickets": ["Oslo-København"]})
    assert rows[0]["globetrotter"] == 10 and rows[1]["globetrotter"] == 0
    assert rows[0]["total"] == 2 + 2 + 4 + 10 and rows[1]["total"] == 27 - 4
    assert "longest_path" not in rows[0]


def test_ties_go_to_the_most_tickets(nordic):
    """The base game's first key (USA, Calculating Scores), the map having no longest-path
    card; players still tied share the win (docs/rules.md #39)."""
    assert nordic.ir.tiebreaks == ("most_tickets",)
    rows = score(nordic, {"routes": ["Kristiansand-Oslo", "Kristiansand-Stavanger/1"], "tickets": ["Oslo-Stavanger"]},
                 {"routes": ["Boden-Kiruna/1", "Boden-Umeå/1", "Bergen-Oslo/1", "Boden-Tornio", "Göteborg-Oslo"],
                  "tickets": []})
    assert rows[0]["total"] == rows[1]["total"] == 18
    assert [r["winner"] for r in rows] == [True, False]
