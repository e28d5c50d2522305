"""City markers (mechanics/city_control): its statement's errors, and its rules on the Old
West map on both engines.

No rulebook of the map is in shared/seeds: the sources are those of spec/old_west.rail's
header. BOOKLET: the Old West rules booklet ("[T2R MC6] Rules OLD WEST", vdocuments.net);
PUBLISHER: gatecitygames.us's description of Map Collection 6; MAP: thoun/tickettoride
modules/maps/oldwest/map.php (rules differences) with BuildingManager.php
(getCityMarkerPlacementCityIds, placeCityMarker, getRoutePointAwards) and
States/ChooseStartingCity.php.
"""
from __future__ import annotations

import pytest
from conftest import Arranged, add, assert_located_error, bad_spec_params, names, start_turns

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError
from railspec.playtest import agents
from railspec.playtest.agents.kernel import kernel
from railspec.playtest.agents.tables import policy_tables

S, C = SpecSyntaxError, SpecCheckError


@pytest.fixture(scope="module")
def old_west():
    return railspec.load("old_west")


def started(v, engine: str, players: int = 3, starts: tuple[str, ...] = ("Seattle", "Santa Fe", "Denver")):
    """Set-up tickets kept, then the start cities ``starts`` chosen from the last seat down
    (``starts[0]`` is the last seat's): player 0 to take the first turn."""
    g = start_turns(v, players, engine=engine)
    for city in starts[:players]:
        g.apply_name(f"start city {city}")
    return g


def arranged(v, engine: str, players: int = 3, **hand) -> Arranged:
    """A started game (start cities Denver for player 0, Santa Fe for 1, Seattle for 2),
    player 0 holding ``hand``, as an Arranged state to edit further."""
    return Arranged(v, started(v, "reference", players)).hand(0, **hand)


def claims(game) -> set[str]:
    """The routes with a legal claim (tracks by their names)."""
    v = game.variant.ir
    return {v.routes[v.actions[a].route].name for a in game.legal_actions() if v.actions[a].kind == "claim"}


def claim(game, route: str) -> None:
    """Claim ``route`` with its first legal payment."""
    name = next(n for n in names(game) if n.startswith(f"claim {route} "))
    game.apply_name(name)


def city(v, name: str) -> int:
    return next(c.id for c in v.ir.cities if c.name == name)


# --- the start city ----------------------------------------------------------------------

def test_start_cities_are_chosen_in_reverse_order_before_the_first_turn(old_west, engine):
    """MAP: "After choosing tickets, players choose a starting city in reverse turn order by
    placing one of their 3 City Markers"; ChooseStartingCity.php: the cities no marker holds,
    and "Reverse selection ends on the first player, who takes the first turn". PUBLISHER:
    "choosing (in reverse player order) a starting location for one of their three city
    pieces" (docs/rules.md #79)."""
    g = start_turns(old_west, 3, engine=engine)
    s = g.state()
    assert s["phase"] == "start_city" and s["current"] == 2
    assert len(names(g)) == 41 and all(n.startswith("start city ") for n in names(g))
    g.apply_name("start city Denver")
    assert g.state()["current"] == 1 and "start city Denver" not in names(g) and len(names(g)) == 40
    g.apply_name("start city Seattle")
    g.apply_name("start city Phoenix")
    s = g.state()
    assert s["phase"] == "turn" and s["current"] == 0
    assert s["start_city"] == [city(old_west, n) for n in ("Phoenix", "Seattle", "Denver")]
    assert s["markers_left"] == [2, 2, 2]
    assert s["marker_owner"][city(old_west, "Denver")] == 2


# --- claims extend the network ---------------------------------------------------------------

def test_a_claim_must_extend_the_players_network(old_west, engine):
    """PUBLISHER: "The first route that a player claims must have this city as one of the
    route's two endpoints, and each subsequent route claimed must connect to that player's
    existing network"; MAP: "Every claimed route must extend their network from that
    city" (docs/rules.md #80)."""
    everything = dict(pink=4, white=4, blue=4, yellow=4, orange=4, black=4, red=4, green=4, loco=4)
    g = arranged(old_west, engine, **everything).game(engine)
    denver = city(old_west, "Denver")
    at_denver = {r.name for r in old_west.ir.routes if denver in (r.a, r.b)}
    assert claims(g) == at_denver
    claim(g, "Denver-Grand Junction")
    g.apply_name("no city marker")
    for _ in range(2):  # the two other players draw
        other = g.state()["current"]
        while g.state()["current"] == other:
            g.apply(next(a for a in g.legal_actions() if g.action_name(a).startswith("draw")))
    junction = city(old_west, "Grand Junction")
    reach = {denver, junction}
    expected = {r.name for r in old_west.ir.routes if (r.a in reach or r.b in reach)
                and g.state()["owner"][r.id] == -1 and r.name != "Denver-Grand Junction"}
    # a double's other track stays closed to its owner (and, at 3 players, to everyone)
    expected -= {r.name for r in old_west.ir.routes if {r.a, r.b} == {denver, junction}}
    assert g.state()["current"] == 0 and claims(g) == expected


# --- a marker after a claim ------------------------------------------------------------------

def test_a_marker_may_follow_a_claim_on_a_free_end_for_two_cards(old_west, engine):
    """MAP: "After claiming a route, you may place a City Marker in either uncontrolled
    endpoint by paying 2 cards of the same color. Locomotives may replace either or both
    cards. City Markers cannot be moved." BuildingManager.php placeCityMarker: the route's
    ends no marker holds; canPayForStation with 2 cards of the colour, locomotives wild
    (docs/rules.md #82)."""
    g = arranged(old_west, engine, red=3, blue=1, loco=1).game(engine)
    claim(g, "Denver-Grand Junction")  # 3 red: Denver is player 0's, Grand Junction free
    assert g.state()["phase"] == "city_marker"
    assert names(g) == ["city marker Grand Junction", "no city marker"]
    g.apply_name("city marker Grand Junction")
    assert names(g) == ["city marker pay 1blue+1loco"]  # no pair of one colour left but blue with the loco
    g.apply_name("city marker pay 1blue+1loco")
    s = g.state()
    assert s["marker_owner"][city(old_west, "Grand Junction")] == 0 and s["markers_left"][0] == 1
    assert s["phase"] == "turn" and s["current"] == 1 and s["hands"][0] == [0] * 9
    assert s["marker_route"] == -1 and s["marker_city"] == -1


def test_no_marker_decision_without_a_pair_or_a_marker_left(old_west, engine):
    """MAP/placeCityMarker: a marker needs a marker left and 2 cards of one colour
    (locomotives wild); else the claim ends the turn as usual."""
    g = arranged(old_west, engine, red=3, blue=1).game(engine)
    claim(g, "Denver-Grand Junction")
    assert g.state()["phase"] == "turn" and g.state()["current"] == 1
    owner = list(g.state()["marker_owner"])  # player 0's three markers placed
    owner[city(old_west, "Cheyenne")] = owner[city(old_west, "Pueblo")] = 0
    g = arranged(old_west, engine, red=5).set(markers_left=[0, 2, 2], marker_owner=owner).game(engine)
    claim(g, "Denver-Grand Junction")
    assert g.state()["phase"] == "turn" and g.state()["current"] == 1


def test_a_marker_goes_only_on_an_end_no_marker_holds(old_west, engine):
    """BuildingManager.php getCityMarkerPlacementCityIds: the route's ends among the cities
    no marker holds; PUBLISHER: "Only one city marker can be in each city"."""
    owner = [-1] * 41
    owner[city(old_west, "Denver")] = 0
    owner[city(old_west, "Santa Fe")] = 1
    owner[city(old_west, "Seattle")] = 2
    owner[city(old_west, "Pueblo")] = 1
    g = arranged(old_west, engine, yellow=4).set(marker_owner=owner, markers_left=[2, 1, 2]).game(engine)
    claim(g, "Denver-Pueblo/2")  # both ends held: no decision follows
    assert g.state()["phase"] == "turn" and g.state()["current"] == 1


# --- route points by the markers -----------------------------------------------------------

def points_after(v, engine: str, route: str, owners: dict[str, int], **hand) -> list[tuple[int, int]]:
    """Each player's (routes, city_control) columns after player 0 claims ``route`` with the
    markers ``owners`` standing (player 0's start city Denver among them)."""
    owner = [-1] * 41
    for name, p in owners.items():
        owner[city(v, name)] = p
    left = [3 - sum(1 for p in owners.values() if p == q) for q in range(3)]
    starts = [city(v, "Denver"), city(v, "Santa Fe"), city(v, "Seattle")]
    g = arranged(v, engine, **hand).set(marker_owner=owner, markers_left=left, start_city=starts).game(engine)
    claim(g, route)
    if g.state()["phase"] == "city_marker":
        g.apply_name("no city marker")
    return [(row["routes"], row["city_control"]) for row in g.score_breakdown()]


BASE_OWNERS = {"Denver": 0, "Santa Fe": 1, "Seattle": 2}


def test_route_points_go_to_the_markers_on_its_ends(old_west, engine):
    """MAP: "Controlled cities determine who scores a claimed route. If both endpoints are
    controlled, both controllers score the route points; a player controlling both scores
    twice." BuildingManager.php getRoutePointAwards; PUBLISHER: "Whenever a player builds a
    route that connects to a city owned by another player, the owner of the city claims the
    points for the route … If both endpoints of the route have cities, then the owner of each
    city scores these points." Denver - Grand Junction: 3 spaces, 4 points (docs/rules.md #81)."""
    # from player 0's Denver into a free Grand Junction: player 0 scores (through Denver)
    assert points_after(old_west, engine, "Denver-Grand Junction", BASE_OWNERS, red=3)[:2] == [(4, 0), (0, 0)]
    # into player 1's Grand Junction: both score 4
    owners = dict(BASE_OWNERS, **{"Grand Junction": 1})
    assert points_after(old_west, engine, "Denver-Grand Junction", owners, red=3)[:2] == [(4, 0), (0, 4)]
    # Denver and Grand Junction both player 1's (player 0 starts elsewhere and reached Denver):
    # player 1 scores twice, player 0 nothing
    owners = {"Santa Fe": 1, "Seattle": 2, "Denver": 1, "Grand Junction": 1, "Pueblo": 0}
    g_points = points_after_reaching(old_west, engine, owners)
    assert g_points[:2] == [(4 + 1, -4), (0, 8)]


def points_after_reaching(v, engine: str, owners: dict[str, int]) -> list[tuple[int, int]]:
    """Player 0 starts in Pueblo, owns Denver - Pueblo already (1 point, paid by the rules to
    player 1's Denver marker: not modelled here, so marker_won/lost start at 0), then claims
    Denver - Grand Junction."""
    owner = [-1] * 41
    for name, p in owners.items():
        owner[city(v, name)] = p
    left = [3 - sum(1 for p in owners.values() if p == q) for q in range(3)]
    starts = [city(v, "Pueblo"), city(v, "Santa Fe"), city(v, "Seattle")]
    g = (arranged(v, engine, red=3).own(0, "Denver-Pueblo/1")
         .set(marker_owner=owner, markers_left=left, start_city=starts).game(engine))
    claim(g, "Denver-Grand Junction")
    if g.state()["phase"] == "city_marker":
        g.apply_name("no city marker")
    return [(row["routes"], row["city_control"]) for row in g.score_breakdown()]


def test_with_no_marker_on_either_end_the_claimer_scores(old_west, engine):
    """MAP/getRoutePointAwards: "return empty($awards) ? [$playerId => $points]": with no
    marker on either end, the claimer scores the route."""
    starts = [city(old_west, "Pueblo"), city(old_west, "Santa Fe"), city(old_west, "Seattle")]
    owner = [-1] * 41
    owner[starts[0]], owner[starts[1]], owner[starts[2]] = 0, 1, 2
    g = (arranged(old_west, engine, red=3).own(0, "Denver-Pueblo/1")
         .set(marker_owner=owner, markers_left=[2, 2, 2], start_city=starts).game(engine))
    claim(g, "Denver-Grand Junction")  # Denver and Grand Junction both free
    if g.state()["phase"] == "city_marker":
        g.apply_name("no city marker")
    rows = g.score_breakdown()
    assert (rows[0]["routes"], rows[0]["city_control"]) == (1 + 4, 0)


def test_points_are_paid_by_the_markers_standing_at_the_claim(old_west, engine):
    """getRoutePointAwards is called as the route is claimed (Game.php applyClaimRoute),
    before a marker may follow: a marker placed afterwards on an end of an earlier route
    earns nothing for it. Player 0 claims from Denver into free Grand Junction, then puts a
    marker there: the route's 4 points stay player 0's through Denver, and no more."""
    g = arranged(old_west, engine, red=3, blue=2).game(engine)
    claim(g, "Denver-Grand Junction")
    g.apply_name("city marker Grand Junction")
    g.apply_name("city marker pay 2blue")
    rows = g.score_breakdown()
    assert (rows[0]["routes"], rows[0]["city_control"], rows[0]["markers_placed"]) == (4, 0, 2)


# --- the statement ---------------------------------------------------------------------------

BAD_SPECS = [
    ("markers-without-cost", add(18, "city markers 3"), S, 18, 15, "the form is: city markers N cost C"),
    ("markers-zero", add(18, "city markers 0 cost 2"), C, 18, 14, "city markers a player"),
    ("markers-too-many", add(18, "city markers 11 cost 2"), C, 18, 14, "city markers a player"),
    ("markers-more-than-places", add(18, "city markers 6 cost 2"), C, 18, 14, "the map has 5 places"),
    ("marker-cost-zero", add(18, "city markers 3 cost 0"), C, 18, 21, "cards a city marker costs"),
    ("markers-more-players-than-places",
     add(18, "city markers 1 cost 2").replace("players 2..4", "players 2..6")
     .replace("deal tickets 2", "deal tickets 1"),
     C, 18, 1,
     "a start city for each of 6 players, but the map has 5 places"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_city_control_statements_are_located(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- the agents ------------------------------------------------------------------------------

SCRIPTED = ["one-step", "long-route", "route-focus", "destination-hungry", "greedy"]


def test_the_styles_start_and_mark_where_their_plans_go_and_win_by_it(old_west):
    """The `by_plan` rule and `network_grows` (docs/agents.md): the same styles against
    themselves without them (a start city or a marker taken only when nothing else is legal,
    plans over the routes open now alone), two players, seats alternating: the ones
    choosing by their tickets' planned paths win most games. Without planning over the routes
    the network will reach, a plan sees only the routes at the start city (PUBLISHER: "each
    subsequent route claimed must connect to that player's existing network")."""
    k = kernel()
    tables = policy_tables(old_west.ir)
    choices = {"start_city", "city_marker"}
    never = dict(tables, grows=0, act_kind=[k.OTHER if a.kind in choices else kind
                                            for a, kind in zip(old_west.ir.actions, tables["act_kind"])])
    using, without = k.Policy(tables), k.Policy(never)
    wins = placed = 0
    for seed in range(20):
        seats = [k.Seat(k.STYLES[SCRIPTED[seed % 5]], seed * 2 + n) for n in range(2)]
        policies = [using, without] if seed % 2 == 0 else [without, using]
        g = old_west.new_game(players=2, seed=seed, engine="compiled")
        while not g.is_over:
            p = g.current_player
            g.apply(policies[p].decide_compiled(seats[p], g._e))
        scores = g.scores()
        user = seed % 2
        wins += scores[user] > scores[1 - user]
        placed += g.score_breakdown()[user]["markers_placed"]
    assert wins >= 13 and placed > 20 + 10, (wins, placed)  # a start city each game, and markers besides


def test_ismcts_plays_the_markers(old_west):
    """ISMCTS (its portfolio is the styles, `by_plan` among their rules) chooses a start city
    and plays a whole game against one-step."""
    bots = [agents.make("ismcts", seed=3, iterations=8), agents.make("one-step", seed=4)]
    g = old_west.new_game(players=2, seed=3, engine="compiled")
    while not g.is_over:
        g.apply(bots[g.current_player].act(g))
    s = g.state()
    assert min(s["start_city"]) >= 0 and g.score_breakdown()[0]["markers_placed"] >= 1
