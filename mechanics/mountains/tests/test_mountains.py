"""Mountains (mechanics/mountains): its statements' errors, and its rule on the Legendary Asia
map on both engines and in both scorers (SUMMARY: "Mountain routes require discarding 1
Train Car for each X. Each discarded Train Car scores 2 points, and you must have enough
Train Cars to place and discard"; ANNOUNCEMENT: "earning two points for each such train but
losing access to them").

No rulebook of the map is in shared/seeds: the sources are those of
tests/test_rules_legendary_asia.py (spec/legendary_asia.rail's header): SUMMARY, the rule
summary in thoun/tickettoride modules/maps/legendaryasia/map.php; PROFILE,
offthechartsgames.com "Game Profile: Ticket To Ride Asia"; ANNOUNCEMENT, boardgamewikia.com's
news of the map collections; MAP, the adaptation's map data. Play tests run on both engines;
scoring tests on described positions, checked in both scorers.
"""
from __future__ import annotations

import pytest
from conftest import Arranged, add, assert_located_error, bad_spec_params, edit, names, score_both, start_turns

import railspec
from railspec.compiler.base.errors import PositionError, SpecCheckError

C = SpecCheckError

MARKET = ("pink", "white", "blue", "orange", "red")  # no locomotive: no market reset in the way


@pytest.fixture(scope="module")
def asia():
    return railspec.load("legendary_asia")


def seat(routes=(), tickets=()) -> dict:
    return {"routes": list(routes), "tickets": list(tickets)}


def score(asia, *seats):
    """Both scorers on a position: the compiled one's rows, checked against the reference."""
    return score_both(asia, {"variant": "legendary_asia", "players": list(seats)})


def rid(asia, name: str) -> int:
    return asia.ir.route_named(name).id


def crosses(asia, name: str) -> int:
    return asia.ir.rule("mountains").of(rid(asia, name))


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("mountain-longer-than-route", edit(24, "route Alpha - Beta 2 red mountain 3"), C, 24, 35,
     "a route of length 2 cannot have 3 mountain crosses"),
    ("mountain-zero", edit(24, "route Alpha - Beta 2 red mountain 0"), C, 24, 35,
     "a route of length 2 cannot have 0 mountain crosses"),
    ("mountain-more-than-the-trains",
     edit(27, "route Gamma - Delta 4 blue mountain 2").replace("trains 12", "trains 5"), C, 27, 37,
     "a route of length 4 with 2 mountain crosses takes 6 trains, more than the 5 a player has"),
    ("mountain-points-without-mountain", add(17, "mountain points 2"), C, 17, 1,
     "'mountain points' needs a mountain route: add 'mountain N' to a route"),
    ("mountain-points-negative", add(17, "mountain points -2").replace("route Delta - Epsilon 1 gray",
                                                                        "route Delta - Epsilon 1 gray mountain 1"),
     C, 17, 17, "the points of a mountain crossing must be zero or more, got -2"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- mountains (Legendary Asia) ---------------------------------------------------------------

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
