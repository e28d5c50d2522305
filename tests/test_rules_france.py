"""The France map (spec/france.rail): its counts and its rules outside track building
(mechanics/track_building/tests holds those), on both engines.

Sources (spec/france.rail's header): BOOKLET, the France rule booklet (Days of Wonder, Map
Collection 6, 2017, as stored by scribd.com documents 401889706 and 725371344); MAP,
thoun/tickettoride modules/maps/france (map.php at commit 100940e; cities, routes and
destinations at a31662b); CENSUS, shared/maps/FAMILY-CENSUS.md section 9.
"""
from __future__ import annotations

from collections import Counter

import pytest
from conftest import Arranged, names, score_both, start_turns

import railspec
from railspec.playtest.agents.kernel import kernel
from railspec.playtest.agents.scripted import SCRIPTED_SALT, OneStepAgent
from railspec.playtest.agents.tables import policy_tables


@pytest.fixture(scope="module")
def france():
    return railspec.load("france")


def test_the_map_counts(france):
    """CENSUS: 42 cities, 6 zones, 159 routes (417 spaces; 24 doubles, 9 triples), 58
    tickets; BOOKLET: "58 Destination Ticket cards"."""
    v = france.ir
    zones = [c for c in v.cities if c.dead_end]
    assert len(v.cities) - len(zones) == 42 and len(zones) == 6
    assert len(v.routes) == 159 and sum(r.length for r in v.routes) == 417
    tracks = Counter(Counter(r.group for r in v.routes).values())
    assert tracks[2] == 24 and tracks[3] == 9
    assert len(v.tickets) == 58 and min(t.points for t in v.tickets) == 3 and max(t.points for t in v.tickets) == 18
    assert sum(1 for t in v.tickets if v.cities[t.a].dead_end or v.cities[t.b].dead_end) == 13
    assert Counter(r.length for r in v.routes) == {1: 31, 2: 52, 3: 38, 4: 25, 5: 10, 6: 3}


def test_set_up(france, engine):
    """BOOKLET: 40 trains, "Each player receives 8 Train Car cards", "Deal 5 Destination
    Ticket cards to each player. Each player must keep at least 3"."""
    g = france.new_game(players=5, seed=2, engine=engine)
    s = g.state()
    assert s["trains"] == [40] * 5 and all(sum(hand) == 8 for hand in s["hands"])
    assert all(len(offer) == 5 for offer in s["setup_offer"])
    assert "keep tickets 1,2" not in names(g) and "keep tickets 1,2,3" in names(g)


def test_rejected_set_up_tickets_go_under_the_deck_shuffled(france, engine):
    """BOOKLET: "Shuffle the discarded Ticket cards together and put them under the deck"
    (docs/rules.md #75): the deck's bottom holds every rejected ticket, not in offer order."""
    g = france.new_game(players=5, seed=4, engine=engine)
    rejected = []
    while g.state()["phase"] == "setup_keep":
        s = g.state()
        rejected += s["setup_offer"][s["current"]][3:]
        g.apply_name("keep tickets 1,2,3")
    bottom = g.state()["ticket_deck"][-len(rejected):]
    assert sorted(bottom) == sorted(rejected) and len(rejected) == 10


def test_bonuses_and_ties(france):
    """MAP: "The Longest Continuous Path bonus is worth 10 points and the Globetrotter bonus
    for the most completed tickets is worth 15 points. All players tied for either bonus
    receive its points" (docs/rules.md #76): two players whose longest paths are 5 cars
    and who completed one ticket each both score both bonuses (a 4-player game, so that
    they may hold two tracks of one route)."""
    position = {"variant": "france", "players": [
        {"routes": ["Le Havre-Rouen", "Paris-Rouen", "Orléans-Paris/1", "Orléans-Tours/1", "Bourges-Tours/1"],
         "tickets": ["Le Havre-Bourges"]},
        {"routes": ["Paris-Reims/1", "Orléans-Paris/2", "Orléans-Tours/2", "Bourges-Tours/2"],
         "tickets": ["Reims-Orléans"]},
        {"routes": [], "tickets": []}, {"routes": [], "tickets": []},
    ]}
    rows = score_both(france, position)
    assert [r["longest_path"] for r in rows] == [5, 5, 0, 0]
    assert [r["longest_bonus"] for r in rows] == [10, 10, 0, 0]
    assert [r["globetrotter"] for r in rows] == [15, 15, 0, 0]


# --- the agents --------------------------------------------------------------------------------

def test_an_agent_builds_the_bed_its_ticket_needs_in_the_colour_it_holds(france, engine):
    """The scripted agents play a build by the generic open_route rule (docs/agents.md): the
    bed on the cheapest path of a ticket they hold, in the colour they hold most of. Holding
    Cherbourg - Paris only, the cheapest way is Cherbourg - Le Havre (a 2-space bed), Le Havre
    - Rouen and Rouen - Paris (one-space routes printed in colour)."""
    a = Arranged(france, start_turns(france, 2)).hand(0, blue=4, red=1)
    s = a.state
    ticket = next(t.id for t in france.ir.tickets if t.name == "Cherbourg-Paris")
    s["ticket_deck"] = [t for t in s["ticket_deck"] if t != ticket] + s["tickets"][0]
    s["tickets"][0] = [ticket]
    g = a.game(engine)
    g.apply_name("draw blind")
    g.apply_name("draw blind")
    assert g.state()["phase"] == "track_piece"
    assert g.action_name(OneStepAgent(seed=5).act(g)) == "build Cherbourg-Le Havre blue"


def test_agents_building_toward_their_tickets_beat_agents_building_at_random(france):
    """The same style on both seats, one building by the open_route rule, the other with that
    rule taken away (its builds are then any legal one, at random): in 6 seeded 2-player
    games, seats swapped, the first wins at least 5 and completes more tickets. (Over 40
    games: route-focus 37 wins to 3, 2.95 tickets completed a game to 0.83.)"""
    k = kernel()
    tables = policy_tables(france.ir)
    opens = k.RULES["open_route"]
    smart = k.Policy(tables)
    blind = k.Policy(dict(tables, act_kind=[k.OTHER if kind == opens else kind for kind in tables["act_kind"]]))
    wins, tickets = {smart: 0, blind: 0}, {smart: 0, blind: 0}
    for seed in range(6):
        policies = (smart, blind) if seed % 2 == 0 else (blind, smart)
        seats = [k.Seat(k.STYLES["route-focus"], (2 * seed + p) ^ SCRIPTED_SALT) for p in range(2)]
        g = france.new_game(players=2, seed=seed)
        while not g.is_over:
            p = g.current_player
            g.apply(policies[p].decide(seats[p], g.agent_view(), g.legal_actions()))
        scores, rows = g.scores(), g.score_breakdown()
        wins[policies[scores.index(max(scores))]] += 1
        for p in range(2):
            tickets[policies[p]] += rows[p]["tickets_completed"]
    assert wins[smart] >= 5 and tickets[smart] > tickets[blind], (wins, tickets)


def closed_for_good(v, state: dict, bed: int) -> bool:
    """Whether track bed ``bed`` can never be built (docs/rules.md #73, #74): free and not
    built, and a bed it crosses is built or claimed, or as many tracks of its route as the
    player count allows are built or claimed."""
    from railspec.mechanics.track_building import twin_tracks
    rule = v.ir.rule("track_building")
    colour, owner = state["bed_colour"], state["owner"]

    def taken(r: int) -> bool:
        return colour[r] >= 0 or owner[r] != -1

    if taken(bed):
        return False
    twins = twin_tracks(v.ir, v.ir.routes[bed])
    return (any(taken(o) for o in rule.crossing(bed))
            or sum(taken(o) for o in twins) >= rule.tracks_buildable(state["players"]))


def test_agents_learn_the_beds_closed_for_good_and_the_colours_they_built(france):
    """The planner counts a free bed as a route to open later (open_route) only while it may
    still be built: a build decision that offers other beds of its length but not it shows
    it closed for good (a crossing, or the 2-3 player rule on doubles), and the seat plans
    without it from then on; a bed the seat built is remembered in its piece's colour (the
    agent view shows no bed colours), which its draws then collect. Checked at every
    decision of a seeded 3-player game: what each seat learnt is true of the state."""
    k = kernel()
    policy = k.Policy(policy_tables(france.ir))
    seats = [k.Seat(k.STYLES["route-focus"], p ^ SCRIPTED_SALT) for p in range(3)]
    g = france.new_game(players=3, seed=1)
    learnt_closed, learnt_built = set(), set()
    while not g.is_over:
        p = g.current_player
        g.apply(policy.decide(seats[p], g.agent_view(), g.legal_actions()))
        s = g.state()
        for memory in seats:
            for r, colour in memory.seen().items():
                if colour == k.CLOSED_FOR_GOOD:
                    assert s["owner"][r] != -1 or closed_for_good(france, s, r), france.routes[r].name
                    learnt_closed.add(r)
                else:
                    assert s["bed_colour"][r] == colour, france.routes[r].name
                    learnt_built.add(r)
    assert len(learnt_closed) >= 5 and len(learnt_built) >= 5, (learnt_closed, learnt_built)


def test_an_agent_draws_the_colour_of_the_bed_it_built(france):
    """Holding Cherbourg - Paris with Le Havre - Rouen and Rouen - Paris already its own,
    the agent builds Cherbourg - Le Havre in blue (most held); with red cards only later
    (an arranged hand, the same board), it draws the face-up blue the bed asks for, not
    the red it holds most of (a gray route's colour otherwise)."""
    k = kernel()
    policy = k.Policy(policy_tables(france.ir))
    seat = k.Seat(k.STYLES["one-step"], 5 ^ SCRIPTED_SALT)
    ticket = next(t.id for t in france.ir.tickets if t.name == "Cherbourg-Paris")

    def arranged(**cards) -> Arranged:
        a = Arranged(france, start_turns(france, 2)).hand(0, **cards).faceup("red", "blue", "green", "white", "pink")
        s = a.state
        s["ticket_deck"] = [t for t in s["ticket_deck"] if t != ticket] + s["tickets"][0]
        s["tickets"][0] = [ticket]
        return a

    a = arranged(blue=3, red=1)
    g = a.game("compiled")
    g.apply_name("draw blind")
    g.apply_name("draw blind")
    g.apply(policy.decide(seat, g.agent_view(), g.legal_actions()))
    bed = france.ir.route_named("Cherbourg-Le Havre").id
    assert g.state()["bed_colour"][bed] == a.card("blue")
    assert seat.seen()[bed] == a.card("blue")
    later = arranged(red=4)
    later.state["bed_colour"][bed] = later.card("blue")
    later.state["pieces_out"][later.card("blue") * len(france.ir.rule("track_building").pieces) + 2] += 1
    g = later.own(0, "Le Havre-Rouen", "Paris-Rouen").game("compiled")
    assert g.action_name(policy.decide(seat, g.agent_view(), g.legal_actions())) == "draw faceup blue"
