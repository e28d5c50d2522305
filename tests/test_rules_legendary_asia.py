"""The Legendary Asia rules, one test per rule, each naming where it comes from.

No rulebook of the map is in shared/seeds. The sources (spec/legendary_asia.rail's header):
SUMMARY, the rule summary in thoun/tickettoride modules/maps/legendaryasia/map.php
(rulesDifferences, 100940e); PROFILE, offthechartsgames.com "Game Profile: Ticket To Ride
Asia"; ANNOUNCEMENT, boardgamewikia.com's news of the map collections; MAP, the adaptation's
map data (routes.php, destinations.php, map.php). Where SUMMARY and the adaptation's scoring
disagree (the Asian Explorer's ties), the rule text wins (docs/rules.md). Play tests run on
both engines; scoring tests on described positions, checked in both scorers.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Arranged, names, start_turns

import railspec
from railspec.compiler import check_file
from railspec.compiler.base.errors import PositionError
from railspec.runtime import reference
from railspec.runtime.position import position_fields

MARKET = ("pink", "white", "blue", "orange", "red")  # no locomotive: no market reset in the way


@pytest.fixture(scope="module")
def asia():
    return railspec.load("legendary_asia")


def seat(routes=(), tickets=()) -> dict:
    return {"routes": list(routes), "tickets": list(tickets)}


def score(asia, *seats):
    """Both scorers on a position: the compiled one's rows, checked against the reference."""
    position = {"variant": "legendary_asia", "players": list(seats)}
    rows = railspec.score(asia, position)
    fields = position_fields(asia.ir, position)
    assert reference.score_fields(asia.ir, fields) == [{k: v for k, v in r.items() if k != "winner"} for r in rows]
    return rows


def rid(asia, name: str) -> int:
    return asia.ir.route_named(name).id


def crosses(asia, name: str) -> int:
    return asia.ir.rule("mountains").of(rid(asia, name))


def plain_routes(asia, cars: int, avoid=()) -> list[str]:
    """Routes without mountains, one track of a route at most, of exactly ``cars`` cars
    together (the longest first), none of the groups of the routes in ``avoid``."""
    taken = {asia.ir.route_named(name).group for name in avoid}
    out = []
    for r in sorted(asia.ir.routes, key=lambda r: (-r.length, r.id)):
        if r.group in taken or crosses(asia, r.name) or r.length > cars:
            continue
        out.append(r.name)
        taken.add(r.group)
        cars -= r.length
        if cars == 0:
            return out
    raise AssertionError("no such set of routes")


def claim_game(asia, engine, players=2, seed=1, **hand):
    """Player 0 to move with ``hand`` and a market without locomotives."""
    g = start_turns(asia, players, seed=seed, engine=engine)
    return Arranged(asia, g).hand(0, **hand).faceup(*MARKET)


# --- mountains (SUMMARY: "Mountain routes require discarding 1 Train Car for each X. Each
# discarded Train Car scores 2 points, and you must have enough Train Cars to place and
# discard"; ANNOUNCEMENT: "earning two points for each such train but losing access to them") ---

def test_the_maps_mountains(asia):
    """MAP (routes.php, mountain:): 30 mountain routes, 22 with one X and 8 with two."""
    rule = asia.ir.rule("mountains")
    assert len(rule.crossings) == 30 and sum(n for _, n in rule.crossings) == 38
    assert (crosses(asia, "Agra-Kathmandu"), crosses(asia, "Irkutsk-Ulan Bator")) == (1, 2)
    # a double with one track in the hills
    assert crosses(asia, "Moscow-Perm/1") == 0 and crosses(asia, "Moscow-Perm/2") == 1


@pytest.mark.parametrize("route,colour,cards,left", [("Agra-Kathmandu", "pink", 2, 45 - 2 - 1),
                                                     ("Irkutsk-Ulan Bator", "yellow", 2, 45 - 2 - 2)])
def test_a_mountain_claim_takes_a_train_for_each_cross(asia, engine, route, colour, cards, left):
    """SUMMARY: one more train leaves the supply for each X; the cards paid are the route's
    length, as for any route; the route scores its length's points as usual, the crosses 2
    each in the breakdown (docs/rules.md #35)."""
    g = claim_game(asia, engine, **{colour: cards}).game(engine)
    g.apply_name(f"claim {route} {colour} {cards}{colour}")
    s = g.state()
    assert s["owner"][rid(asia, route)] == 0 and s["trains"][0] == left
    assert s["route_score"][0] == 2 and sum(s["hands"][0]) == 0
    row = g.score_breakdown()[0]
    n = crosses(asia, route)
    assert (row["mountain_routes"], row["mountain_trains"], row["mountain_points"]) == (1, n, 2 * n)
    assert row["total"] == row["routes"] + row["tickets"] + 2 * n + row["explorer"]


def test_a_mountain_claim_needs_the_trains_for_its_crosses(asia, engine):
    """SUMMARY: "you must have enough Train Cars to place and discard": with 3 trains left, a
    2-space route with one X (3 trains) and a plain 3-space route are legal; a 2-space route
    with two X and a 3-space route with one (4 trains each) are not. The crosses leave at
    once and count for the end (docs/rules.md #35)."""
    a = claim_game(asia, engine, pink=2, yellow=3)
    a.own(0, *plain_routes(asia, 42, avoid=("Bombay-Calcutta/1", "Agra-Kathmandu", "Irkutsk-Ulan Bator",
                                            "Kathmandu-Rawalpindi")))
    g = a.game(engine)
    assert g.state()["trains"][0] == 3
    legal = names(g)
    assert "claim Agra-Kathmandu pink 2pink" in legal and "claim Bombay-Calcutta/1 yellow 3yellow" in legal
    assert not any(n.startswith(("claim Irkutsk-Ulan Bator", "claim Kathmandu-Rawalpindi")) for n in legal)
    g.apply_name("claim Agra-Kathmandu pink 2pink")
    s = g.state()
    # no train left: the crossing counts for the end of the game (the last round starts)
    assert s["trains"][0] == 0 and s["final_turns"] >= 0


def test_the_state_counts_the_crossed_trains(asia, engine):
    """SUMMARY (state format): the trains a player has left are 45 less their routes' spaces
    and crosses; a state that forgets the crosses is refused."""
    g = start_turns(asia, 2, engine=engine)
    forgot = Arranged(asia, g).own(0, "Agra-Kathmandu")
    with pytest.raises(railspec.StateError, match="took 3 trains"):
        forgot.game(engine)
    forgot.state["trains"][0] -= 1
    assert forgot.game(engine).state()["trains"][0] == 42


def test_mountain_points_in_a_described_position(asia):
    """SUMMARY: each train left in the Mountain Crossing scores 2: three routes with 1, 2
    and 1 crosses score 8 besides their route points."""
    rows = score(asia, seat(["Agra-Kathmandu", "Kathmandu-Mandalay", "Kathmandu-Lhasa"]), seat())
    assert (rows[0]["mountain_routes"], rows[0]["mountain_trains"], rows[0]["mountain_points"]) == (3, 4, 8)
    assert rows[0]["routes"] == 6 and rows[0]["total"] == 6 + 8 + 10  # and the explorer bonus: 4 cities
    assert rows[1]["mountain_points"] == 0


def test_a_described_position_counts_the_crosses_against_the_trains(asia):
    """SUMMARY: routes of 43 cars and a 2-space route with one X take 46 trains: more than
    the 45 a player has."""
    mine = plain_routes(asia, 43, avoid=("Agra-Kathmandu",)) + ["Agra-Kathmandu"]
    with pytest.raises(PositionError, match="routes of 45 cars that take 46 trains"):
        score(asia, seat(mine), seat())


# --- the Asian Explorer (SUMMARY: "The 10-point Asian Explorer bonus goes to the player or
# players with the largest continuous network of connected cities. Ties are broken by
# completed Destination Tickets, then by Mountain routes traveled"; PROFILE: "a 10 point bonus
# to the player who connects to the most cities") ---

P0_THREE = ["Bombay-Karachi/1", "Karachi-Rawalpindi"]   # Bombay, Karachi, Rawalpindi; one mountain route
P1_THREE = ["Omsk-Perm/1", "Astrakhan-Perm"]            # Omsk, Perm, Astrakhan; none


def test_the_explorer_bonus_goes_to_the_largest_network(asia):
    """SUMMARY, PROFILE: 4 cities against 3: the bonus is 10 and goes to the 4."""
    rows = score(asia, seat(P0_THREE), seat(P1_THREE + ["Astrakhan-Moscow/1"]))
    assert [r["explorer_cities"] for r in rows] == [3, 4]
    assert [r["explorer"] for r in rows] == [0, 10]


def test_the_explorer_counts_cities_of_one_network(asia):
    """SUMMARY: "a single network" (ANNOUNCEMENT): the largest network counts, not all of a
    player's routes; a loop joins no city twice (docs/rules.md #34)."""
    triangle = ["Calcutta-Mandalay/1", "Mandalay-Rangoon", "Calcutta-Rangoon/1"]
    rows = score(asia, seat(triangle + P0_THREE), seat(["Moscow-Perm/1", "Omsk-Perm/1", "Krasnoyarsk-Omsk/1",
                                                        "Astrakhan-Moscow/1"]))
    assert rows[0]["explorer_cities"] == 3  # two networks of 3 cities each
    assert rows[1]["explorer_cities"] == 5 and [r["explorer"] for r in rows] == [0, 10]


def test_explorer_ties_go_to_the_most_completed_tickets(asia):
    """SUMMARY: "Ties are broken by completed Destination Tickets": 3 cities each, one
    completed ticket (Rawalpindi - Bombay) against none. The adaptation's scoring would give
    both the bonus; the rule text wins (docs/rules.md #33)."""
    rows = score(asia, seat(P0_THREE, ["Rawalpindi-Bombay"]), seat(P1_THREE, ["Perm-Tehran"]))
    assert [r["explorer_cities"] for r in rows] == [3, 3]
    assert [r["tickets_completed"] for r in rows] == [1, 0]
    assert [r["explorer"] for r in rows] == [10, 0]


def test_explorer_ties_then_go_to_the_most_mountain_routes(asia):
    """SUMMARY: "… then by Mountain routes traveled": 3 cities and one completed ticket each;
    one mountain route against none (routes owned, not crosses: docs/rules.md #34)."""
    rows = score(asia, seat(P0_THREE, ["Rawalpindi-Bombay"]), seat(P1_THREE, ["Omsk-Astrakhan"]))
    assert [r["tickets_completed"] for r in rows] == [1, 1]
    assert [r["mountain_routes"] for r in rows] == [1, 0]
    assert [r["explorer"] for r in rows] == [10, 0]


def test_explorer_ties_both_keys_leave_all_score(asia):
    """docs/rules.md #33 (the rule text is silent past its two keys): players level on cities,
    completed tickets and mountain routes all score the bonus, as SUMMARY's "the player or
    players" allows."""
    p1 = ["Omsk-Perm/2", "Astrakhan-Perm"]  # Omsk - Perm's track with an X
    rows = score(asia, seat(P0_THREE, ["Rawalpindi-Bombay"]), seat(p1, ["Omsk-Astrakhan"]))
    assert [r["mountain_routes"] for r in rows] == [1, 1]
    assert [r["explorer"] for r in rows] == [10, 10]


def test_nobody_scores_the_explorer_without_a_route(asia):
    """docs/rules.md #34: with no route owned nobody connects a city, and nobody scores it."""
    rows = score(asia, seat(), seat())
    assert [r["explorer"] for r in rows] == [0, 0]


def test_the_explorer_is_the_only_bonus(asia):
    """MAP (map.php: pointsForLongestPath and pointsForGlobetrotter are null): no longest
    path, no Globetrotter; the game's own ties go to the most completed tickets (docs/rules.md
    #35)."""
    keys = set(asia.new_game(players=2, seed=1).score_breakdown()[0])
    assert {"explorer", "mountain_points"} <= keys and not {"longest_bonus", "globetrotter"} & keys
    assert asia.ir.tiebreaks == ("most_tickets",)


# --- the Bombay - Colombo triple (MAP: routes 66-68, 4 red, 4 black, 5 green, each a ferry) ---

def test_the_triple_has_tracks_of_unequal_length(asia):
    """MAP: the three tracks of Bombay - Colombo have 4, 4 and 5 spaces, one locomotive each
    (SUMMARY: "Ferries require a Locomotive card for each Locomotive symbol")."""
    tracks = [asia.ir.route_named(f"Bombay-Colombo/{k}") for k in (1, 2, 3)]
    assert [(r.colour_name, r.length, r.tracks) for r in tracks] == [("red", 4, 3), ("black", 4, 3),
                                                                    ("green", 5, 3)]
    assert len({r.group for r in tracks}) == 1
    assert all(asia.ir.rule("ferries").needs(r.id) == 1 for r in tracks)


def test_the_long_track_of_the_triple_costs_and_scores_its_own_length(asia, engine):
    """MAP: the green track takes 5 trains and scores 10 (the table's 5), paid with 4 green
    and the ferry's locomotive."""
    g = claim_game(asia, engine, players=4, green=4, loco=1).game(engine)
    g.apply_name("claim Bombay-Colombo/3 green 4green+1loco")
    s = g.state()
    assert s["trains"][0] == 40 and s["route_score"][0] == 10


# --- tickets (SUMMARY: "each player receives 1 Long Route ticket and 3 regular tickets, and
# must keep at least 2 tickets. All unchosen initial tickets are discarded") ---

def test_one_long_and_three_regular_tickets_keep_two(asia, engine):
    """SUMMARY; MAP (destinations.php): 6 long tickets (16-18 points) and 30 regular ones;
    each player is offered three regular and one long (the last slot), keeps at least two."""
    g = asia.new_game(players=5, seed=3, engine=engine)
    s = g.state()
    long_ = [t.deck == "long" for t in asia.tickets]
    for offer in s["setup_offer"]:
        assert len(offer) == 4 and [long_[t] for t in offer] == [False, False, False, True]
    assert len(s["long_deck"]) == 1 and len(s["ticket_deck"]) == 30 - 15
    legal = names(g)
    assert len(legal) == 11 and all(n.count(",") >= 1 for n in legal)
    assert sorted(t.points for t in asia.tickets if t.deck == "long") == [16, 16, 17, 17, 18, 18]


def test_set_up_tickets_not_kept_leave_the_game(asia, engine):
    """SUMMARY: "All unchosen initial tickets are discarded" (map.php:
    unusedInitialDestinationsGoToDeckBottom = false): a regular one leaves the game, a long
    one goes back to the box; neither goes under the deck."""
    g = asia.new_game(players=3, seed=5, engine=engine)
    s = g.state()
    deck, box, offers = s["ticket_deck"], s["long_deck"], s["setup_offer"]
    g.apply_name("keep tickets 1,2")
    g.apply_name("keep tickets 2,4")
    g.apply_name("keep tickets 1,2,3,4")
    s = g.state()
    assert s["tickets"] == [offers[0][:2], [offers[1][1], offers[1][3]], offers[2]]
    assert s["tickets_out"] == [offers[0][2], offers[1][0], offers[1][2]]
    assert s["long_deck"] == box + [offers[0][3]] and s["ticket_deck"] == deck


def test_later_draws_keep_one_of_three_the_rest_under_the_deck(asia, engine):
    """MAP (map.php keeps the family's defaults): draw 3, keep at least 1, the others go
    under the deck."""
    g = start_turns(asia, 2, engine=engine)
    deck = g.state()["ticket_deck"]
    g.apply_name("draw tickets")
    assert g.state()["offer"] == deck[:3] and len(names(g)) == 7
    g.apply_name("keep tickets 2")
    s = g.state()
    assert s["tickets"][0][-1] == deck[1] and s["ticket_deck"] == deck[3:] + [deck[0], deck[2]]


# --- the language: what the map asked of it ---------------------------------------------------

def test_a_tie_break_key_may_use_a_mechanics_keyword(tmp_path):
    """'most mountain routes' holds 'mountain', the route attribute's keyword: it is still a
    key, in 'tiebreak' as in 'explorer ties'."""
    path = tmp_path / "asia.rail"
    path.write_text('extends "legendary_asia"\nvariant "Asia, mountains break the game\'s ties"\n'
                    "tiebreak most tickets, most mountain routes\n", encoding="utf-8")
    assert check_file(path).tiebreaks == ("most_tickets", "most_mountain_routes")


def test_tracks_of_one_route_may_differ_in_length(tmp_path):
    """The tracks of one route are counted, never compared: a double of 2 and 3 spaces checks
    (tests/base.rail's Alpha - Beta), each track its own length."""
    text = (Path(__file__).parent / "base.rail").read_text(encoding="utf-8")
    path = tmp_path / "unequal.rail"
    path.write_text(text.replace("route Alpha - Beta 2 blue", "route Alpha - Beta 3 blue"), encoding="utf-8")
    v = check_file(path)
    assert [(r.name, r.length, r.tracks) for r in v.routes[:2]] == [("Alpha-Beta/1", 2, 2), ("Alpha-Beta/2", 3, 2)]
