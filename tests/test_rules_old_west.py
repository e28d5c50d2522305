"""The Old West rules, one test per rule, each naming where it comes from.

No rulebook of the map is in shared/seeds. The sources (spec/old_west.rail's header):
BOOKLET, the Old West rules booklet ("[T2R MC6] Rules OLD WEST", vdocuments.net);
PUBLISHER, gatecitygames.us's description of Map Collection 6; MAP, thoun/tickettoride
modules/maps/oldwest (map.php, cities.php, routes.php, destinations.php). Play tests run on
both engines.

The city markers are tested beside their mechanic
(mechanics/city_control/tests/test_city_control.py); this file keeps what is the map's own:
its data, its set-up and scoring settings, and its player counts.
"""
from __future__ import annotations

from collections import Counter

import pytest
from conftest import start_turns

import railspec


@pytest.fixture(scope="module")
def old_west() -> railspec.Variant:
    return railspec.load("old_west")


def test_the_map_is_the_adaptations_with_51_tickets(old_west):
    """MAP: 41 cities, 139 routes (lengths 1:41 2:38 3:22 4:20 5:10 6:5 7:3, 36 doubles and
    10 triples) and 51 tickets; BOOKLET: "50 Destination Ticket cards" (the census's count
    agrees with the data): all 51 are kept, each once (docs/rules.md #77)."""
    v = old_west.ir
    assert len(v.cities) == 41 and len(v.routes) == 139 and sum(r.length for r in v.routes) == 364
    assert Counter(r.length for r in v.routes) == {1: 41, 2: 38, 3: 22, 4: 20, 5: 10, 6: 5, 7: 3}
    assert Counter(Counter(r.group for r in v.routes).values()) == {1: 37, 2: 36, 3: 10}
    assert len(v.tickets) == 51 and len({(t.a, t.b) for t in v.tickets}) == 51
    assert min(t.points for t in v.tickets) == 4 and max(t.points for t in v.tickets) == 21


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_count_of_the_box_plays(old_west, players, engine):
    """BOOKLET: "This expansion is designed for 2-6 players" (the adaptation stops at 5 for
    want of a sixth colour of pieces: docs/rules.md #78). A game at each count starts with
    the start cities, from the last seat down, and is played to its end."""
    g = start_turns(old_west, players, seed=players, engine=engine)
    assert g.state()["phase"] == "start_city" and g.state()["current"] == players - 1
    choices = 0
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[(choices * 7919) % len(legal)])
        choices += 1
    s = g.state()
    assert all(city >= 0 for city in s["start_city"]) and len(set(s["start_city"])) == players


def test_set_up_draws_and_scoring_settings(old_west):
    """BOOKLET: 40 trains; doubles and triples "In 2 and 3 Player games, only one Route";
    MAP: "Deal 5 Destination Tickets at the start and keep at least 3. Shuffle all rejected
    initial tickets together and place them under the deck. Later, draw 4 tickets and keep at
    least 1; return unchosen tickets to the bottom of the deck", "There is no longest path
    bonus. All players tied for the most completed tickets receive the 15-point Globetrotter
    bonus"; the three 7-space routes score 18 (docs/rules.md #83)."""
    v = old_west.ir
    assert v.trains == 40 and v.hand == 4 and v.min_players == 2 and v.max_players == 6
    assert (v.deal_regular, v.deal_keep, v.draw_tickets, v.draw_tickets_keep) == (5, 3, 4, 1)
    assert v.route_points[7] == 18
    mechanics = {rule.mechanic for rule in v.rules}
    assert {"city_control", "globetrotter", "multi_track", "shuffled_returns"} == mechanics
    assert v.rule("globetrotter").bonus == 15
