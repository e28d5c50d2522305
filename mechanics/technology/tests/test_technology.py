"""Technology cards (mechanics/technology): its statements' errors, and its rules on the
United Kingdom map on both engines.

No rulebook of the map is in shared/seeds: the sources are those of spec/united_kingdom.rail's
header. MAP: thoun/tickettoride modules/maps/uk/map.php (the file index's version 9fdaa6fa:
its settings, canClaimRouteWithTechnology and the rules-differences list); README: a public
"Ticket to Ride - UK" implementation's rule notes (each technology's effect); TABLE: a
second implementation's Players.java (each technology's price and copies); REVIEW:
opinionatedgamers.com's and dailyworkerplacement.com's reviews.
"""
from __future__ import annotations

import random

import pytest
from conftest import Arranged, add, assert_located_error, bad_spec_params, edit, names, start_turns, worth_now_match

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError
from railspec.playtest import agents
from railspec.playtest.agents.kernel import kernel
from railspec.playtest.agents.tables import co_owners, policy_of, policy_tables, worth_now
from railspec.runtime.state_format import StateError

S, C = SpecSyntaxError, SpecCheckError

#: The technologies in the spec's order: bit k of a player's ``technologies``.
TECHS = ["Wales Concession", "Ireland/France Concession", "Scotland Concession", "Mechanical Stoker",
         "Superheated Steam Boiler", "Propellers", "Booster", "Boiler Lagging", "Steam Turbine", "Double Heading"]
#: cities.php's countries other than England.
WALES = {"Aberystwyth", "Cardiff", "Carmarthen", "Holyhead", "Llandrindod Wells"}
IRELAND_FRANCE = {"Belfast", "Cork", "Dublin", "Dundalk", "Galway", "Limerick", "Londonderry", "Rosslare", "Sligo",
                  "Tullamore", "France"}
SCOTLAND = {"Aberdeen", "Dundee", "Edinburgh", "Fort William", "Glasgow", "Inverness", "Stornoway", "Stranraer",
            "Ullapool", "Wick"}
MARKET = ("pink", "white", "blue", "orange", "black")  # no locomotive


@pytest.fixture(scope="module")
def uk():
    return railspec.load("united_kingdom")


def turn(v, engine, players=2, market=MARKET, holding=(), **hand):
    """Player 0 to move with ``hand``, the given market and the technologies ``holding``."""
    g = start_turns(v, players, engine="reference")
    arranged = Arranged(v, g).hand(0, **hand).faceup(*market)
    mask, supply = 0, list(g.state()["technology_supply"])
    for tech in holding:
        mask |= 1 << TECHS.index(tech)
        supply[TECHS.index(tech)] -= 1
    technologies = list(g.state()["technologies"])
    technologies[0] = mask
    return arranged.set(technologies=technologies, technology_supply=supply).game(engine)


def claimed_routes(game) -> set[str]:
    """The routes with a legal claim (a double's tracks by their own names)."""
    v = game.variant.ir
    return {v.routes[v.actions[a].route].name for a in game.legal_actions() if v.actions[a].kind == "claim"}


def buys(game) -> list[str]:
    return [n for n in names(game) if n.startswith("buy technology")]


ALL_CARDS = dict(pink=6, white=6, blue=6, yellow=6, orange=6, black=6, red=6, green=6, loco=3)


# --- what the technologies open ----------------------------------------------------------------

def test_at_the_start_only_short_routes_in_england(uk, engine):
    """MAP: "At the start, players may only claim 1- or 2-space routes in England. Technology
    cards unlock longer routes, ferries, and routes into Wales, Scotland, Ireland, and France";
    "The Southampton–New York route may be claimed without Technology". REVIEW: "limited to
    building only between mainland English destinations and only on routes of one or two
    track length" (docs/rules.md #62)."""
    g = turn(uk, engine, **ALL_CARDS)
    abroad = WALES | IRELAND_FRANCE | SCOTLAND
    ferries = set(next(rule for rule in uk.ir.rules if rule.mechanic == "ferries").routes)
    assert len(ferries) == 30
    expected = {r.name for r in uk.ir.routes if r.length <= 2 and r.id not in ferries
                and not {uk.ir.cities[r.a].name, uk.ir.cities[r.b].name} & abroad} | {"Southampton-New York"}
    assert claimed_routes(g) == expected
    assert "Birmingham-Cardiff/1" not in expected and "Bristol-Plymouth" not in expected
    assert "Barrow-Liverpool" not in expected  # a 1-space ferry: Propellers


def test_a_concession_opens_its_region_and_no_longer_route(uk, engine):
    """MAP (canClaimRouteWithTechnology): a route touching Wales needs the Wales Concession,
    and a route of 3 spaces Mechanical Stoker besides; README: "Wales Concession- allows you
    to claim routes into any of the 5 cities in Wales"."""
    g = turn(uk, engine, holding=["Wales Concession"], **ALL_CARDS)
    routes = claimed_routes(g)
    assert {"Aberystwyth-Carmarthen", "Cardiff-Carmarthen", "Birmingham-Llandrindod Wells"} <= routes
    assert "Birmingham-Cardiff/1" not in routes  # 3 spaces
    g = turn(uk, engine, holding=["Wales Concession", "Mechanical Stoker"], **ALL_CARDS)
    assert {"Birmingham-Cardiff/1", "Birmingham-Cardiff/2", "Bristol-Plymouth"} <= claimed_routes(g)


def test_lengths_and_ferries(uk, engine):
    """README: "Mechanical Stoker- allows you to claim 3 space routes. Superheated Steam
    Boiler- allows you to claim 4, 5, and 6 space routes. Propellers- allows you to claim
    ferry routes"; MAP: 3 needs type 3, 4 and more type 4, a route with locomotives type 5."""
    g = turn(uk, engine, holding=["Mechanical Stoker"], **ALL_CARDS)
    routes = claimed_routes(g)
    assert "Bristol-Plymouth" in routes and "Norwich-Nottingham" not in routes
    g = turn(uk, engine, holding=["Superheated Steam Boiler"], **ALL_CARDS)
    routes = claimed_routes(g)
    assert "Norwich-Nottingham" in routes and "Bristol-Plymouth" not in routes  # 4 spaces, not 3
    assert "Barrow-Liverpool" not in routes
    g = turn(uk, engine, holding=["Propellers"], **ALL_CARDS)
    routes = claimed_routes(g)
    assert "Barrow-Liverpool" in routes and "Penzance-Plymouth/2" not in routes  # a 3-space ferry


def test_southampton_new_york_needs_no_technology(uk, engine):
    """MAP: "The Southampton–New York route may be claimed without Technology" (10 spaces, 3
    locomotives, 40 points: the route table's 10:40)."""
    g = turn(uk, engine, red=7, loco=3)
    assert [n for n in names(g) if "New York" in n] == ["claim Southampton-New York gray 7red+3loco"]
    g.apply_name("claim Southampton-New York gray 7red+3loco")
    s = g.state()
    assert s["route_score"][0] == 40 and s["trains"][0] == 25


# --- buying --------------------------------------------------------------------------------

def test_buying_costs_locomotives_and_the_turn_goes_on(uk, engine):
    """MAP: "Before a regular turn action, a player may buy one Technology card using
    Locomotives"; TABLE: Mechanical Stoker costs 1, Double Heading 4. The purchase does not end
    the turn, and no second one is offered in it (docs/rules.md #61)."""
    g = turn(uk, engine, red=2, loco=1)
    assert "buy technology Mechanical Stoker 1loco" in buys(g)
    assert not any("Double Heading" in n for n in buys(g))  # 4 locomotives
    discards = g.state()["discard"][8]
    g.apply_name("buy technology Mechanical Stoker 1loco")
    s = g.state()
    assert s["current"] == 0 and s["phase"] == "turn" and s["technologies"][0] == 1 << 3
    assert s["hands"][0][8] == 0 and s["discard"][8] == discards + 1 and s["technology_supply"][3] == 3
    assert buys(g) == [] and "draw blind" in names(g)
    g.apply_name("draw blind")
    g.apply_name("draw blind")
    assert g.state()["technology_bought"] == 0 and g.current_player == 1


def test_one_copy_of_each_and_the_supply(uk, engine):
    """TABLE: 4 copies of each basic technology (Right of Way: 1, docs/rules.md #60, #67); a
    player holds one of each (a second copy would do nothing: docs/rules.md #61)."""
    g = turn(uk, engine, holding=["Mechanical Stoker"], loco=2)
    assert not any("Mechanical Stoker" in n for n in buys(g)) and any("Propellers" in n for n in buys(g))
    s = g.state()
    assert s["technology_supply"] == [4, 4, 4, 3, 4, 4, 4, 4, 4, 4, 1]
    # a supply of 0 with no holder breaks the count of copies: the state is refused
    with pytest.raises(StateError, match="0 copies of Propellers left and 0 held, the game has 4"):
        Arranged(uk, g).set(technology_supply=[4, 4, 4, 3, 4, 0, 4, 4, 4, 4, 1]).game(engine)


def test_any_four_cards_for_a_locomotive_and_three_with_booster(uk, engine):
    """MAP: "Any 4 Train Car cards can substitute for a Locomotive, or any 3 with Booster
    technology"; REVIEW: "At any time they can discard four cards to get a locomotive …
    Boosters will allow players to trade three cards for a locomotive rather than four". The
    cards are given one decision at a time, in card order (docs/rules.md #63)."""
    g = turn(uk, engine, blue=2, red=1, green=1)
    assert buys(g) == [n for n in buys(g) if n.endswith("1set")] and "buy technology Mechanical Stoker 1set" in buys(g)
    assert not any("Propellers" in n for n in buys(g))  # 2 locomotives: 8 cards
    g.apply_name("buy technology Mechanical Stoker 1set")
    s = g.state()
    assert s["phase"] == "technology_set" and s["technology_left"] == 4 and s["technology_buying"] == 3
    for card in ["blue", "blue", "red", "green"]:  # pink white blue yellow orange black red green loco
        assert names(g)[0] == f"set {card}"
        g.apply_name(f"set {card}")
    s = g.state()
    assert s["phase"] == "turn" and s["current"] == 0 and sum(s["hands"][0]) == 0 and s["technology_buying"] == -1
    assert s["technologies"][0] == 1 << 3
    g = turn(uk, engine, holding=["Booster"], blue=3)
    g.apply_name("buy technology Mechanical Stoker 1set")
    assert g.state()["technology_left"] == 3


def test_a_set_pays_a_ferry_locomotive(uk, engine):
    """MAP: a set substitutes for a Locomotive, so for a ferry's (Barrow - Liverpool, 1 gray
    space with 1 locomotive symbol, needs Propellers)."""
    g = turn(uk, engine, holding=["Propellers"], red=2, green=2)
    assert [n for n in names(g) if "Barrow-Liverpool" in n] == ["claim Barrow-Liverpool gray 1set"]
    g.apply_name("claim Barrow-Liverpool gray 1set")
    for card in ["red", "red", "green", "green"]:
        g.apply_name(f"set {card}")
    s = g.state()
    assert s["owner"][uk.ir.route_named("Barrow-Liverpool").id] == 0 and s["current"] == 1 and s["trains"][0] == 34


# --- scoring -------------------------------------------------------------------------------

def test_boiler_lagging_and_steam_turbine_score_later_claims(uk, engine):
    """README: "Boiler Lagging- you score 1 extra point for each route that you claim after
    you have this card. Steam Turbines- … 2 extra … for each ferry route"; MAP
    (getAdditionalRoutePoints: +1, and +2 on a route with locomotives); docs/rules.md #64."""
    g = turn(uk, engine, holding=["Propellers", "Boiler Lagging", "Steam Turbine"], loco=1, red=2)
    g.apply_name("claim Barrow-Liverpool gray 1loco")
    assert g.state()["technology_points"][0] == 3
    assert g.score_breakdown()[0]["technology_routes"] == 3


def test_double_heading_scores_each_completed_ticket(uk, engine):
    """MAP (getCompletedTicketBonus): 2 points for each completed ticket; the second
    implementation's note: "At the end of the game, you score 2 points for each Ticket that
    you completed"."""
    g = turn(uk, engine, holding=["Double Heading"])
    row = g.score_breakdown()[0]
    assert row["technology_tickets"] == 2 * row["tickets_completed"]
    leeds_manchester = next(t.id for t in uk.ir.tickets if t.name == "Leeds-Manchester")
    arranged = Arranged(uk, g).own(0, "Leeds-Manchester/1")
    tickets = [list(t) for t in g.state()["tickets"]]
    for seat in tickets:
        if leeds_manchester in seat:
            seat.remove(leeds_manchester)
    deck = [t for t in g.state()["ticket_deck"] if t != leeds_manchester]
    tickets[0].append(leeds_manchester)
    g = arranged.set(tickets=tickets, ticket_deck=deck).game(engine)
    row = g.score_breakdown()[0]
    assert row["tickets_completed"] >= 1 and row["technology_tickets"] == 2 * row["tickets_completed"]


# --- set-up and the market -------------------------------------------------------------------

def test_each_starting_hand_has_a_locomotive(uk, engine):
    """MAP: "Each player starts with 35 trains, 4 Train Car cards, and 1 Locomotive"; REVIEW:
    "Each player receives 35 trains …, 4 train cards, plus a locomotive card" (docs/rules.md
    #65: the topmost locomotive of the shuffled deck)."""
    for players in (2, 3, 4):
        g = uk.new_game(players=players, seed=players, engine=engine)
        s = g.state()
        assert all(sum(hand) == 5 and hand[8] >= 1 for hand in s["hands"])
        assert all(mask == 0 for mask in s["technologies"]) and s["technology_supply"] == [4] * 10 + [1]


def test_three_face_up_locomotives_stay(uk, engine):
    """MAP: "3 face-up Locomotives are not replaced" (resetVisibleCardsWithLocomotives = null);
    docs/rules.md #66."""
    g = turn(uk, engine, market=("loco", "loco", "loco", "red", "blue"), red=1)
    g.apply_name("draw blind")
    g.apply_name("draw blind")
    assert g.state()["faceup"].count(8) == 3


# --- the language ----------------------------------------------------------------------------

#: A technology statement that checks, before the statement a case is about.
STOKER = "technology Stoker costs 1 copies 4 opens length 3"
# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("technology-free-of-charge", add(9, "technology Stoker costs 0 copies 4 opens length 3"), C, 9, 25,
     "a technology's price must be positive, got 0"),
    ("technology-unknown-city", add(9, "technology North costs 1 copies 4 opens cities Omega"), C, 9, 48,
     "unknown"),
    ("technology-opens-no-route", add(9, "technology Diver costs 1 copies 4 opens tunnel"), C, 9, 41,
     "no route has the attribute 'tunnel'"),
    ("technology-set-of-one", add(9, "technology Booster costs 1 copies 4 sets of 1"), C, 9, 45,
     "a set has 2 to 12 cards, got 1"),
    ("technology-city-twice", add(9, "technology North costs 1 copies 4 opens cities Alpha, Alpha"), C, 9, 55,
     "Alpha is opened by North already"),
    ("technology-sets-alone", add(9, "technology sets of 4"), C, 9, 1,
     "'technology sets of' needs at least one 'technology' statement"),
    ("technology-without-copies", add(9, "technology Stoker costs 1 opens length 3"), S, 9, 27,
     "expected 'copies'"),
    ("technology-too-dear", add(9, "technology Stoker costs 13 copies 4 opens length 3"), C, 9, 25,
     "a technology's price must be at most 12, got 13"),
    ("technology-no-copies", add(9, "technology Stoker costs 1 copies 0 opens length 3"), C, 9, 34,
     "a technology's copies must be positive, got 0"),
    ("technology-opens-length-0", add(9, "technology Stoker costs 1 copies 4 opens length 0"), C, 9, 49,
     "a length a technology opens must be positive, got 0"),
    ("technology-scores-no-route", add(9, "technology Turbine costs 1 copies 4 scores 2 per ferry"), C, 9, 50,
     "no route has the attribute 'ferry'"),
    ("technology-sets-of-13", add(9, f"{STOKER}\ntechnology sets of 13"), C, 10, 20, "a set has 2 to 12 cards, got 13"),
    ("technology-sets-twice", add(9, f"{STOKER}\ntechnology sets of 4\ntechnology sets of 3"), C, 11, 1,
     "'technology sets of' is given twice (first at line 10)"),
    ("technology-claims-owned-what", add(9, "technology Right costs 4 copies 1 claims owned"), S, 9, 47,
     "expected 'routes'"),
    ("starting-locomotives-alone", add(9, "starting locomotives 1"), C, 9, 1,
     "'starting locomotives' needs at least one 'technology' statement"),
    ("starting-locomotives-13", add(9, f"{STOKER}\nstarting locomotives 13"), C, 10, 22,
     "the starting locomotives must be at most 12, got 13"),
    ("needs-no-technology-alone", edit(26, "route Beta - Gamma 3 gray needs no technology"), C, 26, 27,
     "'needs no technology' needs at least one 'technology' statement"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- the agents --------------------------------------------------------------------------------

SCRIPTED = ["one-step", "long-route", "route-focus", "destination-hungry", "greedy"]


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_the_styles_buy_technologies_that_open_routes_or_score(uk, engine):
    """The `unlock` rule and the option worth (docs/agents.md): every style buys technologies,
    each one that opens routes still free (a Concession, a length, Propellers: nothing of the
    map opens without them, MAP: "At the start, players may only claim 1- or 2-space routes in
    England") or one whose scoring, as the technology's option_worth_now estimates it when
    bought, outweighs its price (Boiler Lagging, Steam Turbine, Double Heading, Booster); both
    kinds are bought."""
    v = uk.ir
    mechanic = next(m for m, _ in v.present() if m.name == "technology")
    play = mechanic.agent_play(v, v.rule("technology"))
    opens = {a: set(routes) for a, routes in play.routes.items()}
    bought = {name: 0 for name in SCRIPTED}
    scoring = 0
    for seed in range(5 if engine == "compiled" else 2):
        seats = [SCRIPTED[(seed + k) % 5] for k in range(3)]
        players = [agents.make(name, seed=seed * 7 + k) for k, name in enumerate(seats)]
        g = uk.new_game(players=3, seed=seed, engine=engine)
        while not g.is_over:
            p = g.current_player
            action = players[p].act(g)
            if v.actions[action].kind == "buy_technology":
                bought[seats[p]] += 1
                owner = g.state()["owner"]
                if opens[action]:
                    assert any(owner[r] == -1 for r in opens[action]), v.actions[action].name
                elif action not in play.claims_owned:  # Right of Way: the rule claim_owned (tests below)
                    assert play.option_worth_now(g.observation())[action] > 0, v.actions[action].name
                    scoring += 1
            g.apply(action)
    assert all(bought[name] for name in SCRIPTED[:3]) and sum(bought.values()) >= 20, bought
    assert scoring >= 3, scoring


def test_buying_what_the_tickets_need_wins(uk):
    """The same style with and without the `unlock` rule (without it a purchase is taken only
    when nothing else is legal), two players, seats alternating: the one buying technologies
    wins most games (the figure docs/agents.md's rule rests on)."""
    k = kernel()
    tables = policy_tables(uk.ir)
    never = dict(tables, act_kind=[k.OTHER if a.kind == "buy_technology" else kind
                                   for a, kind in zip(uk.ir.actions, tables["act_kind"])])
    using, without = k.Policy(tables), k.Policy(never)
    wins = 0
    for seed in range(20):
        seats = [k.Seat(k.STYLES[SCRIPTED[seed % 5]], seed * 2 + n) for n in range(2)]
        policies = [using, without] if seed % 2 == 0 else [without, using]
        g = uk.new_game(players=2, seed=seed, engine="compiled")
        while not g.is_over:
            p = g.current_player
            g.apply(policies[p].decide_compiled(seats[p], g._e))
        scores = g.scores()
        user = seed % 2
        wins += scores[user] > scores[1 - user]
    assert wins >= 15, wins


def test_ismcts_buys_the_technologies_its_tickets_need(uk):
    """ISMCTS (docs/agents.md: its nodes weigh its portfolio's choices, the styles' `unlock`
    among them) against one-step, two players, seats alternating: it buys technologies in
    every game, each of those that open routes opening one still free, and a Concession among them (the tickets
    of the map mostly leave England: MAP, "At the start, players may only claim 1- or
    2-space routes in England")."""
    v = uk.ir
    mechanic = next(m for m, _ in v.present() if m.name == "technology")
    opens = {a: set(routes) for a, routes in mechanic.agent_play(v, v.rule("technology")).routes.items()}
    for seed in range(3):
        bots = [agents.make("ismcts", seed=seed, iterations=16), agents.make("one-step", seed=seed + 9)]
        seat = seed % 2
        if seat:
            bots.reverse()
        g = uk.new_game(players=2, seed=seed, engine="compiled")
        bought = []
        while not g.is_over:
            p = g.current_player
            action = bots[p].act(g)
            if p == seat and v.actions[action].kind == "buy_technology":
                bought.append(v.actions[action].name)
                if opens[action]:  # the others score (its root portfolio weighs option_worth_now)
                    assert any(g.state()["owner"][r] == -1 for r in opens[action]), v.actions[action].name
            g.apply(action)
        assert len(bought) >= 3 and any("Concession" in name for name in bought), (seed, bought)


# --- Right of Way: a claim of a route another player owns (docs/rules.md #67, #68) ---------------
# GAME: the adaptation's modules/php/States/ChooseAction.php and Game.php (the file index's
# version 100940e3): actBuyTechnologyCard (type 10 offered only when an occupied route can be
# claimed with the hand left), actClaimRoute with RIGHT_OF_WAY_PENDING (only routes claimed by
# another player and not by the buyer; applyClaimRoute: cards, trains, route points, a second
# claimed_routes row the buyer's tickets read), then returnRightOfWay (the card back to the supply).

RIGHT_OF_WAY = "Right of Way"


def right_of_way_turn(v, engine, owned=("Cambridge-Northampton",), mine=(), **hand):
    """Player 0 to move with ``hand`` (4 locomotives more, Right of Way's price), player 1
    owning ``owned`` and player 0 ``mine``; player 0 holds the ticket Birmingham - Cambridge."""
    g = start_turns(v, 2, engine="reference")
    hand = dict(hand)
    hand["loco"] = hand.get("loco", 0) + 4
    arranged = Arranged(v, g).hand(0, **hand).faceup(*MARKET).own(1, *owned).own(0, *mine)
    state = arranged.state
    ticket = next(t.id for t in v.ir.tickets if {v.ir.cities[t.a].name, v.ir.cities[t.b].name}
                  == {"Birmingham", "Cambridge"})
    if ticket not in state["tickets"][0]:  # swap it with player 0's first ticket, wherever it is
        first = state["tickets"][0][0]
        for pile in ("ticket_deck", "offer"):
            if ticket in state[pile]:
                state[pile][state[pile].index(ticket)] = first
        for held in state["tickets"][1:]:
            if ticket in held:
                held[held.index(ticket)] = first
        state["tickets"][0][0] = ticket
    return arranged.game(engine)


def test_right_of_way_is_bought_only_when_an_owned_route_can_be_claimed(uk, engine):
    """GAME actBuyTechnologyCard: type 10 is offered only if claimableRoutes(...,
    opponentRoutesInsteadOfFreeOnes) is not empty with the hand left; TABLE: it costs 4 and
    has 1 copy (docs/rules.md #68)."""
    assert TECHS + [RIGHT_OF_WAY] == [t.name for t in next(
        r for r in uk.ir.rules if r.mechanic == "technology").technologies]
    g = right_of_way_turn(uk, engine, owned=(), orange=1)
    assert not [n for n in buys(g) if RIGHT_OF_WAY in n]
    g = right_of_way_turn(uk, engine, orange=1)  # Cambridge - Northampton is gray: one orange pays it
    assert "buy technology Right of Way 4loco" in buys(g)
    # a route the buyer's technologies keep closed does not count (Wales: the Wales Concession)
    g = right_of_way_turn(uk, engine, owned=("Cardiff-Carmarthen",), red=1)
    assert not [n for n in buys(g) if RIGHT_OF_WAY in n]


def test_right_of_way_claims_an_owned_route_for_both_and_returns(uk, engine):
    """GAME: after the purchase only a claim of an occupied route is legal; the claim is paid
    and placed as any, both players own the route (the buyer's tickets read it), its points
    go to the buyer too, and the card goes back to the supply (docs/rules.md #67)."""
    g = right_of_way_turn(uk, engine, mine=("Birmingham-Northampton/1",), orange=2)
    supply = g.state()["technology_supply"][10]
    g.apply_name("buy technology Right of Way 4loco")
    s = g.state()
    assert s["phase"] == "technology_owned_claim" and s["technologies"][0] >> 10 & 1
    assert s["technology_supply"][10] == supply - 1
    assert names(g) == ["claim Cambridge-Northampton gray 1orange"]
    r = uk.ir.route_named("Cambridge-Northampton").id
    g.apply_name("claim Cambridge-Northampton gray 1orange")
    s = g.state()
    assert s["owner"][r] == 1 and s["technology_shared"][r] == 0
    assert s["trains"] == [35 - 2, 35 - 1] and s["route_score"] == [1, 1]
    assert s["technology_supply"][10] == supply and not s["technologies"][0] >> 10 & 1
    assert s["current"] == 1 and s["phase"] == "turn"
    rows = g.score_breakdown()
    assert rows[0]["technology_shared_routes"] == 1 and rows[1]["technology_shared_routes"] == 0
    ticket = next(t.id for t in uk.ir.tickets if {uk.ir.cities[t.a].name, uk.ir.cities[t.b].name}
                  == {"Birmingham", "Cambridge"})
    assert ticket in g.completed_tickets(0)
    # the state checks count a shared route's trains for its second owner (Field.co_owner)
    state = g.state()
    state["trains"][0] += 1
    with pytest.raises(StateError, match="trains"):
        uk.game_from_state(state, engine=engine)


def test_right_of_way_needs_the_buyers_technologies_and_one_second_owner(uk, engine):
    """GAME: the claim is among claimableRoutes, which canClaimRouteWithTechnology filters; a
    route the buyer owns is not offered. railspec keeps two owners at most (docs/rules.md #67)."""
    g = right_of_way_turn(uk, engine, owned=("Cambridge-Northampton", "Cardiff-Carmarthen"), orange=1, red=1)
    g.apply_name("buy technology Right of Way 4loco")
    # not Cardiff - Carmarthen (red): Wales needs its concession
    assert names(g) == ["claim Cambridge-Northampton gray 1orange", "claim Cambridge-Northampton gray 1red"]
    state = g.state()
    state["technology_shared"][uk.ir.route_named("Cambridge-Northampton").id] = 1  # shared already
    with pytest.raises(StateError):
        uk.game_from_state(state, engine=engine)  # its owner cannot share it as well
    state["technology_shared"][uk.ir.route_named("Cambridge-Northampton").id] = -1
    assert uk.game_from_state(state, engine=engine).legal_actions() == g.legal_actions()


def test_right_of_way_on_a_ferry_paid_with_sets(uk, engine):
    """GAME: the claim of an occupied route is paid as any claim (MAP: "Any 4 Train Car cards
    can substitute for a Locomotive"): a shared claim waits for its set's cards as any other,
    and its state, under way, is one play reaches (docs/rules.md #63, #67)."""
    g = right_of_way_turn(uk, engine, owned=("Barrow-Liverpool",), pink=5)
    state = g.state()
    state["technologies"][0] |= 1 << TECHS.index("Propellers")
    state["technology_supply"][TECHS.index("Propellers")] -= 1
    g = uk.game_from_state(state, engine=engine)
    g.apply_name("buy technology Right of Way 4loco")
    assert names(g) == ["claim Barrow-Liverpool gray 1set"]
    g.apply_name("claim Barrow-Liverpool gray 1set")
    s = g.state()
    assert s["phase"] == "technology_set" and s["technology_route"] == uk.ir.route_named("Barrow-Liverpool").id
    assert uk.game_from_state(s, engine=engine).legal_actions() == g.legal_actions()
    for _ in range(4):
        g.apply_name("set pink")
    s = g.state()
    assert s["technology_shared"][uk.ir.route_named("Barrow-Liverpool").id] == 0 and s["current"] == 1
    assert s["owner"][uk.ir.route_named("Barrow-Liverpool").id] == 1 and s["technology_supply"][10] == 1


def test_right_of_way_with_no_claim_left_passes_and_returns(uk, engine):
    """docs/rules.md #68: the purchase asks for a claim with the hand less the locomotives;
    should the sets' cards given leave none, the phase offers the pass, and the card goes back."""
    g = right_of_way_turn(uk, engine, orange=1)
    state = g.state()
    state["phase"] = "technology_owned_claim"
    state["technologies"][0] |= 1 << 10
    state["technology_supply"][10] -= 1
    moved = Arranged(uk, uk.game_from_state(state, engine="reference")).hand(0).state  # no card left
    g = uk.game_from_state(moved, engine=engine)
    assert names(g) == ["pass"]
    g.apply_name("pass")
    s = g.state()
    assert s["current"] == 1 and s["technology_supply"][10] == 1 and not s["technologies"][0] >> 10 & 1


def test_engines_agree_on_games_that_buy_right_of_way(uk):
    """Right of Way is rare in random play (4 locomotives, 1 copy, a route to share that the
    buyer's technologies open: no shared claim in 30 random 3-player games), so the engines
    are compared here on games whose players buy it whenever it is legal, seldom buy other
    technologies and hoard cards: the legal moves and the whole state after each decision."""
    phases = shared = 0
    for seed in range(6):
        ref = uk.new_game(players=2 + seed % 3, seed=seed, engine="reference")
        fast = uk.new_game(players=2 + seed % 3, seed=seed, engine="compiled")
        rng = random.Random(seed)
        while not ref.is_over:
            legal = ref.legal_actions()
            assert fast.legal_actions() == legal
            named = {ref.action_name(a): a for a in legal}
            chosen = next((a for n, a in named.items() if n.startswith("buy technology Right of Way")), None)
            buys = [a for n, a in named.items() if n.startswith("buy technology")]
            claims = [a for n, a in named.items() if n.startswith("claim")]
            if chosen is None:
                chosen = (rng.choice(buys) if buys and rng.random() < 0.1
                          else rng.choice(claims) if claims and rng.random() < 0.3 else rng.choice(legal))
            phases += ref.state()["phase"] == "technology_owned_claim"
            ref.apply(chosen)
            fast.apply(chosen)
            assert fast.state() == ref.state()
        shared += sum(1 for who in ref.state()["technology_shared"] if who != -1)
        assert fast.score_breakdown() == ref.score_breakdown()
    assert phases and shared


def test_a_scoring_technology_is_worth_what_it_will_score_less_its_price(uk):
    """option_worth_now (docs/agents.md): Boiler Lagging (MAP: 1 point for each route claimed
    afterwards) early is worth the claims the trains left will make, over the map's mean route
    length, less two locomotives (a point each); with 3 trains left it is not worth its price;
    Double Heading (2 points a completed ticket) counts a held ticket not yet completed at half;
    nothing outside a turn's first decision, or once a technology is bought this turn. Once
    held, Boiler Lagging adds its point to every free route's claim (worth_now)."""
    v = uk.ir
    rule = v.rule("technology")
    play = next(m for m, _ in v.present() if m.name == "technology").agent_play(v, rule)
    g = uk.new_game(players=3, seed=2, engine="compiled")
    while g.observation()["phase"] != "turn":
        g.apply(g.legal_actions()[0])
    o = g.observation()
    names = {a: v.actions[a].name for a in play.option_worth_now(o)}
    lagging = next(a for a, name in names.items() if name == "buy technology Boiler Lagging 2loco")
    heading = next(a for a, name in names.items() if name == "buy technology Double Heading 4loco")
    lengths = [r.length for r in v.routes]
    claims = o["trains"][o["player"]] / (sum(lengths) / len(lengths))
    assert play.option_worth_now(o)[lagging] == pytest.approx(claims - 2)
    held = len(o["tickets"])
    assert play.option_worth_now(o)[heading] == pytest.approx(2 * 0.5 * held - 4)
    late = dict(o, trains=[3] * len(o["trains"]))
    assert play.option_worth_now(late)[lagging] < 0
    assert play.option_worth_now(dict(o, technology_bought=1)) == {}
    assert play.option_worth_now(dict(o, phase="second_draw")) == {}
    bit = next(k for k, tech in enumerate(rule.technologies) if tech.name == "Boiler Lagging")
    holding = dict(o, technologies=[1 << bit] * len(o["technologies"]))
    assert play.worth_now(holding) == {r: 1 for r in range(len(v.routes)) if o["owner"][r] == -1}
    assert play.worth_now(o) == {}


def test_buying_what_scores_wins(uk):
    """Route-focus at 4 players, one seat told what the technologies that score or make sets
    cheaper bring (option_worth_now, worth_now), the others not, over 60 seeded games: the
    told seat wins more than the same seat untold on the same seeds (21.5 against 9 when this
    was written; docs/agents.md has the figures of every style and count)."""
    told, untold = worth_now_match(uk, players=4, games=60, styles=("route-focus",))
    assert sum(told) >= sum(untold) + 6, (sum(told), sum(untold))


# --- Right of Way and the scripted styles (the rule claim_owned; docs/agents.md) -----------------

#: The routes at Cambridge (one track of the double route to London: a 2-player game uses one).
CAMBRIDGE = ("Cambridge-Ipswich", "Cambridge-London/1", "Cambridge-Northampton", "Cambridge-Norwich",
             "Cambridge-Nottingham")


def only_ticket(v, game, engine):
    """``game`` (right_of_way_turn's) with player 0 holding Birmingham - Cambridge only: their
    other tickets go to the bottom of the ticket deck."""
    state = game.state()
    ticket = next(t.id for t in v.ir.tickets if {v.ir.cities[t.a].name, v.ir.cities[t.b].name}
                  == {"Birmingham", "Cambridge"})
    others = [t for t in state["tickets"][0] if t != ticket]
    state["tickets"][0] = [ticket]
    state["ticket_deck"] = state["ticket_deck"] + others
    return v.game_from_state(state, engine=engine)


@pytest.mark.parametrize("style", SCRIPTED)
def test_a_style_with_a_stranded_ticket_buys_right_of_way_and_claims_the_blocking_route(uk, engine, style):
    """Every route at Cambridge is player 1's, so player 0's Birmingham - Cambridge is stranded
    but for a shared claim (GAME: Right of Way claims a route another player owns, and the
    buyer's tickets read it); holding 4 locomotives, each style buys Right of Way with them and
    claims Cambridge - Northampton, the route joining Northampton (player 0's) to Cambridge.
    The ticket is then complete, and the styles' view counts the shared route as player 0's
    (the co_owner field): holding 4 locomotives again, they do not buy it again. With
    Cambridge - London free instead, two free routes join the ticket and nobody buys it (one
    train saved is not worth its price)."""
    agent = agents.make(style, seed=3)
    g = only_ticket(uk, right_of_way_turn(uk, "reference", owned=CAMBRIDGE, mine=("Birmingham-Northampton/1",),
                                          orange=2), engine)
    assert g.action_name(agent.act(g)) == "buy technology Right of Way 4loco"
    g.apply_name("buy technology Right of Way 4loco")
    assert g.action_name(agent.act(g)).startswith("claim Cambridge-Northampton gray")
    g.apply(agent.act(g))
    s = g.state()
    assert s["technology_shared"][uk.ir.route_named("Cambridge-Northampton").id] == 0
    assert s["tickets"][0][0] in g.completed_tickets(0)
    again = Arranged(uk, uk.game_from_state(s, engine="reference")).hand(0, orange=2, loco=4).set(current=0)
    again = again.game(engine)
    assert "buy technology Right of Way 4loco" in names(again)  # Cambridge - London is still there to share
    assert not again.action_name(agent.act(again)).startswith("buy technology Right of Way")
    others = tuple(r for r in CAMBRIDGE if r != "Cambridge-London/1")
    free = only_ticket(uk, right_of_way_turn(uk, "reference", owned=others, mine=("Birmingham-Northampton/1",),
                                             orange=2), engine)
    assert "buy technology Right of Way 4loco" in names(free)
    assert not g.action_name(agents.make(style, seed=3).act(free)).startswith("buy technology Right of Way")


def test_the_styles_buy_right_of_way_alike_on_both_engines(uk):
    """A seeded 4-player game of the five styles in which long-route buys Right of Way and
    claims a route of another player is the same game on both engines: the compiled kernel
    reads the shared routes from the engine's state, the reference engine's agents from the
    observation (tables.co_owners)."""
    games = []
    for engine in ("compiled", "reference"):
        seats = [agents.make(SCRIPTED[(8 + k) % 5], seed=8 * 7 + k) for k in range(4)]
        games.append(agents.play(uk, seats, seed=8, engine=engine))
    assert games[0].to_json() == games[1].to_json()
    assert any(who != -1 for who in games[0].state()["technology_shared"])


def right_of_way_campaign(v, players: int, games: int, rule: bool) -> list[tuple[list[int], list[int], int]]:
    """``games`` seeded games of the five styles in turn (seat n of game i plays style i + n),
    every seat told what claims and options bring now (as the scripted agents are), with the
    rule claim_owned or without it (Right of Way's purchase then played by `unlock`, which
    never takes it): each game's scores, Right of Way purchases by seat and shared routes."""
    k = kernel()
    tables = policy_tables(v.ir)
    if not rule:
        owned = k.RULES["claim_owned"]
        tables = dict(tables, act_kind=[k.RULES["unlock"] if kind == owned else kind for kind in tables["act_kind"]])
    policy = k.Policy(tables)
    buys = {a.id for a in v.ir.actions if a.name.startswith(f"buy technology {RIGHT_OF_WAY}")}
    out = []
    for seed in range(games):
        seats = [k.Seat(k.STYLES[SCRIPTED[(seed + n) % 5]], seed * 7 + n) for n in range(players)]
        g = v.new_game(players=players, seed=seed, engine="compiled")
        bought = [0] * players
        while not g.is_over:
            p = g.current_player
            told = worth_now(v.ir, g)
            if told is not None:
                seats[p].set_worth(policy, *told)
            action = policy.decide_compiled(seats[p], g._e)
            bought[p] += action in buys
            g.apply(action)
        out.append((g.scores(), bought, sum(who != -1 for who in g.state()["technology_shared"])))
    return out


def test_right_of_way_campaign(uk):
    """300 seeded 4-player games (docs/agents.md has the figures at 2, 3 and 4 players): the
    styles buy Right of Way in some of them (long-route mostly, which keeps its locomotives),
    every purchase ends in a shared claim, and without the rule nobody buys it. Whether the
    buyers gain is reported, not asserted: a few dozen purchases in 300 games leave it noisy."""
    using = right_of_way_campaign(uk, 4, 300, rule=True)
    without = right_of_way_campaign(uk, 4, 300, rule=False)
    purchases = sum(sum(bought) for _scores, bought, _shared in using)
    assert purchases >= 5, purchases
    assert sum(shared for _scores, _bought, shared in using) == purchases
    assert not any(any(bought) or shared for _scores, bought, shared in without)


def test_the_value_estimate_counts_a_shared_route_as_its_second_owners(uk):
    """Player 0 shares Cambridge - Northampton (technology_shared) and holds Birmingham -
    Cambridge, whose every other way is player 1's: the value estimate counts the ticket one
    free train away (Birmingham - Northampton) rather than stranded, the same from the
    compiled kernel's own reading of the state (a rollout stopped at once) and from the
    views and co_owners of either engine."""
    g = only_ticket(uk, right_of_way_turn(uk, "reference", owned=CAMBRIDGE), "reference")
    state = g.state()
    state["technology_shared"][uk.ir.route_named("Cambridge-Northampton").id] = 0
    state["trains"][0] -= 1  # its trains are on the route too
    policy, k = policy_of(uk.ir), kernel()
    values = {}
    for engine in ("compiled", "reference"):
        game = uk.game_from_state(state, engine=engine)
        views = [game.agent_view(p) for p in range(2)]
        shared = co_owners(uk.ir, game)
        values[engine] = policy.estimate(views, game.scores(), shared)
        assert values[engine][0] > policy.estimate(views, game.scores())[0]
    assert values["compiled"] == values["reference"]
    stopped = uk.game_from_state(state, engine="compiled")
    assert policy.playout(stopped._e, [0, 0], [k.Seat(0, 1), k.Seat(0, 2)], 0) == values["compiled"]
