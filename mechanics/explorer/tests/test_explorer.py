"""The explorer bonus (mechanics/explorer): its statements' errors, and its rule on the
Legendary Asia map in both scorers (SUMMARY: "The 10-point Asian Explorer bonus goes to the
player or players with the largest continuous network of connected cities. Ties are broken
by completed Destination Tickets, then by Mountain routes traveled"; PROFILE: "a 10 point
bonus to the player who connects to the most cities").

No rulebook of the map is in shared/seeds: the sources are those of
tests/test_rules_legendary_asia.py (spec/legendary_asia.rail's header): SUMMARY, the rule
summary in thoun/tickettoride modules/maps/legendaryasia/map.php; PROFILE,
offthechartsgames.com "Game Profile: Ticket To Ride Asia"; ANNOUNCEMENT, boardgamewikia.com's
news of the map collections; MAP, the adaptation's map data. Play tests run on both engines;
scoring tests on described positions, checked in both scorers.
"""
from __future__ import annotations

import pytest
from conftest import add, assert_located_error, bad_spec_params, score_both

import railspec
from railspec.compiler.base.errors import SpecCheckError

C = SpecCheckError


@pytest.fixture(scope="module")
def asia():
    return railspec.load("legendary_asia")


def seat(routes=(), tickets=()) -> dict:
    return {"routes": list(routes), "tickets": list(tickets)}


def score(asia, *seats):
    """Both scorers on a position: the compiled one's rows, checked against the reference."""
    return score_both(asia, {"variant": "legendary_asia", "players": list(seats)})


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("explorer-negative", add(17, "explorer -10"), C, 17, 10, "the explorer bonus must be zero or more, got -10"),
    ("explorer-ties-without-explorer", add(17, "explorer ties most tickets"), C, 17, 1,
     "'explorer ties' needs the bonus: add 'explorer N'"),
    ("explorer-ties-unknown-key", add(17, "explorer 10; explorer ties most tickts"), C, 17, 28,
     "unknown tie-break 'most tickts' (did you mean 'most tickets'?)"),
    ("explorer-ties-key-twice", add(17, "explorer 10; explorer ties most tickets, most tickets"), C, 17, 14,
     "tie-break 'most tickets' is given twice"),
    ("explorer-ties-key-without-its-mechanic", add(17, "explorer 10; explorer ties most mountain routes"), C, 17, 14,
     "tie-break on mountain routes, but the variant has no mountain route"),
    ("explorer-ties-not-a-column", add(17, "explorer 10; explorer ties longest path"), C, 17, 14,
     "tie-break 'longest path' cannot settle the explorer bonus: it is not one column of the score breakdown"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- the Asian Explorer (Legendary Asia) ------------------------------------------------------

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
