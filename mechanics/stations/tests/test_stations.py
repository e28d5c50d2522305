"""Train stations (mechanics/stations): its statements, its rule on the Europe map on both
engines, its scoring, and the agents' play with it.

The rule's tests name the section of the Europe rulebook they come from
(shared/seeds/000_bb662d8662a85a07.txt, the Italian edition: Stazione Ferroviaria = train
station, European Express = the longest-path card). Play tests run on both engines; scoring
tests on described positions, checked in both scorers. (How the engines choose the route a
station uses is tested in tests/test_station_choice.py.)
"""
from __future__ import annotations

import pytest
from conftest import (
    CITIES,
    ENGINES,
    Arranged,
    add,
    assert_located_error,
    bad_spec_params,
    checked,
    edit,
    mini,
    names,
    score_both,
    start_turns,
)

import railspec
from railspec.compiler import check_file, stock_path
from railspec.compiler.base.errors import IllegalActionError, SpecCheckError, SpecSyntaxError
from railspec.compiler.base.rng import SplitMix64
from railspec.mechanics.stations import BUILD_STATION, STATION_PAY
from railspec.playtest import agents
from railspec.runtime import determinize, reference
from railspec.runtime.position import position_fields

S, C = SpecSyntaxError, SpecCheckError

MARKET = ("pink", "white", "blue", "yellow", "orange")  # no locomotive: no market reset in the way
SCRIPTED = ["one-step", "long-route", "route-focus", "destination-hungry", "greedy", "random"]


@pytest.fixture(scope="module")
def europe():
    return railspec.load("europe")


def seat(routes=(), tickets=(), stations=()) -> dict:
    return {"routes": list(routes), "tickets": list(tickets), "stations": list(stations)}


def score(europe, *seats):
    """Both scorers on a position: the compiled one's rows, checked against the reference."""
    return score_both(europe, {"variant": "europe", "players": list(seats)})


def rid(europe, name: str) -> int:
    return europe.ir.route_named(name).id


def cid(europe, name: str) -> int:
    return next(c.id for c in europe.cities if c.name == name)


def card(europe, name: str) -> int:
    return len(europe.colours) if name == "loco" else next(c.id for c in europe.colours if c.name == name)


def counts(europe, **cards) -> list[int]:
    out = [0] * (len(europe.colours) + 1)
    for name, n in cards.items():
        out[card(europe, name)] += n
    return out


def minus(a: list[int], b: list[int]) -> list[int]:
    return [x - y for x, y in zip(a, b)]


def _joined(variant, usable, a, b) -> bool:
    """Whether cities a and b are joined over the routes in ``usable``."""
    reach, frontier = {a}, [a]
    while frontier:
        c = frontier.pop()
        for r in variant.routes:
            if r.id in usable and c in (r.a, r.b):
                other = r.b if c == r.a else r.a
                if other not in reach:
                    reach.add(other)
                    frontier.append(other)
    return b in reach


# --- the statements: 'stations N cost …', 'action build station', 'station bonus N', 'stations choose' ---

def test_stations_with_costs_europe_build_a_station():
    """Europe, 'Costruire una Stazione Ferroviaria': 3 stations costing 1, 2 and 3 cards, and
    'Calcolo dei punteggi': 4 points per unused station."""
    v = checked(mini("stations 3 cost 1 2 3\naction build station\nstation bonus 4"))
    stations = v.rule("stations")
    assert (stations.count, stations.costs, stations.bonus) == (3, (1, 2, 3), 4)
    # two decisions: where, then how to pay (issue "Mechanics as modules", point 6)
    builds = [a.name for a in v.actions if a.kind == BUILD_STATION]
    assert builds == [f"build station {c}" for c in CITIES]
    pays = [a for a in v.actions if a.kind == STATION_PAY]
    assert {a.colour_cards + a.locomotives for a in pays} == {1, 2, 3}
    assert {"station pay 1red", "station pay 2blue+1loco", "station pay 3loco"} <= {a.name for a in pays}
    assert len(pays) == sum(3 * cost + 1 for cost in (1, 2, 3))  # three colours, or all locomotives


def test_europe_catalogue_with_stations_as_two_decisions():
    """Europe's catalogue: 47 station sites and 51 ways to pay instead of 47 × 51 actions."""
    v = check_file(stock_path("europe"))
    assert sum(a.kind == BUILD_STATION for a in v.actions) == 47
    assert sum(a.kind == STATION_PAY for a in v.actions) == 51
    assert len(v.actions) == 1254


def test_station_bonus_europe_calcolo_dei_punteggi():
    """Europe, 'Calcolo dei punteggi': four points for every station kept."""
    assert checked(mini("stations 3 cost 1 2 3\naction build station\nstation bonus 4")).rule("stations").bonus == 4


def test_stations_choose_europe_calcolo_dei_punteggi():
    """Europe, 'Calcolo dei punteggi': a station lets its owner use one route of another
    player; the engine picks the use that scores the most ticket points, then completes the
    most tickets (a tie-break counts them), then the lowest route ids."""
    base = "stations 3 cost 1 2 3\naction build station\n"
    assert checked(mini(base)).rule("stations").choose == ("most_points", "most_tickets")
    v = checked(mini(base + "stations choose most tickets, most points"))
    assert v.rule("stations").choose == ("most_tickets", "most_points")


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("stations-without-cost", add(4, "stations 3 1 2 3"), S, 4, 12,
     "unexpected '1', expected 'cost'; the form is: stations N cost C1 C2 …"),
    ("station-bonus-no-number", add(18, "station bonus"), S, 18, 14, "the form is: station bonus N"),
    ("stations-choose-unknown-key", add(18, "stations choose most routes"), S, 18, 22,
     "unexpected 'routes', expected one of 'points', 'tickets'; the form is: stations choose most points, "
     "most tickets"),
    ("stations-cost-count", add(4, "stations 3 cost 1 2; action build station"), C, 4, 1,
     "3 stations need 3 costs, got 2"),
    ("station-cost-too-big", add(4, "stations 3 cost 1 2 30; action build station"), C, 4, 21,
     "a station cost of 30 cards is more than the supported 12"),
    ("station-bonus-too-large", add(4, "stations 3 cost 1 2 3; action build station; station bonus 1000001"),
     C, 4, 60, "the station bonus must be at most 1,000,000, got 1000001"),
    ("too-many-stations", add(4, "stations 6 cost 1 1 1 1 1 1; action build station"), C, 4, 10,
     "at most 5 stations per player are supported, got 6"),
    ("station-action-without-stations", add(14, "action build station"), C, 14, 1,
     "'action build station' needs a 'stations N cost C…' statement"),
    ("station-bonus-without-stations", add(18, "station bonus 4"), C, 18, 1,
     "'station bonus' needs a 'stations' statement"),
    ("tiebreak-stations-without-stations", edit(18, "tiebreak most tickets, fewest stations"), C, 18, 1,
     "tie-break on stations, but the variant has no stations"),
    ("stations-choose-without-stations", add(18, "stations choose most points, most tickets"), C, 18, 1,
     "'stations choose' needs a 'stations' statement"),
    ("stations-choose-one-key", add(4, "stations 3 cost 1 2 3; action build station; stations choose most points"),
     C, 4, 46, "'stations choose' names 'most points' and 'most tickets', each once, in the order they count"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- COSTRUIRE UNA STAZIONE FERROVIARIA (Europe) ----------------------------------------------

def builds(g) -> list[str]:
    return [n[len("build station "):] for n in names(g) if n.startswith("build station ")]


def station_game(europe, engine, hand: dict, stations: dict | None = None):
    """Player 0 to move with ``hand``; ``stations``: city name -> owner."""
    g = start_turns(europe, 2, engine=engine)
    a = Arranged(europe, g).hand(0, **hand).faceup(*MARKET)
    for city, player in (stations or {}).items():
        a.state["station_owner"][cid(europe, city)] = player
    return a.game(engine)


def test_a_station_may_be_built_when_no_card_can_be_drawn(europe, engine):
    """docs/rules.md #13: with the deck and the discards empty no train card may be drawn,
    face-up ones included; the player may still claim, draw tickets, or build a station
    (COSTRUIRE UNA STAZIONE FERROVIARIA is one of the four actions of a turn)."""
    g = start_turns(europe, 2, engine=engine)
    a = Arranged(europe, g).clear_hands()
    s = a.state
    for card in range(len(europe.colours) + 1):  # every card but two face-up ones in player 1's hand
        s["hands"][1][card] += s["discard"][card] + s["deck"].count(card) + s["faceup"].count(card)
        s["discard"][card] = 0
    s["deck"], s["faceup"] = [], [-1] * 5
    for slot, name in enumerate(("red", "blue")):
        s["hands"][1][a.card(name)] -= 1
        s["faceup"][slot] = a.card(name)
    s["hands"][1][a.card("green")] -= 1
    s["hands"][0][a.card("green")] += 1
    g = a.game(engine)
    legal = names(g)
    assert not any(n.startswith("draw faceup") or n == "draw blind" for n in legal)
    assert any(n.startswith("build station") for n in legal) and "draw tickets" in legal


@pytest.mark.parametrize("hand,pay", [({"green": 1}, ["station pay 1green"]), ({"loco": 1}, ["station pay 1loco"]),
                                      ({"green": 1, "loco": 1}, ["station pay 1green", "station pay 1loco"])])
def test_first_station_costs_one_card(europe, engine, hand, pay):
    """COSTRUIRE UNA STAZIONE FERROVIARIA: the first station costs one train card of any
    colour, placed on any city without a station; the card goes to the discards and the
    turn ends."""
    g = station_game(europe, engine, hand)
    assert builds(g) == [c.name for c in europe.cities]
    before = g.state()
    g.apply_name("build station Berlin")
    s = g.state()
    assert s["phase"] == "station" and s["station_city"] == cid(europe, "Berlin") and g.current_player == 0
    assert names(g) == pay
    g.apply_name(pay[0])
    s = g.state()
    assert s["station_owner"][cid(europe, "Berlin")] == 0 and s["station_city"] == -1
    assert s["phase"] == "turn" and g.current_player == 1
    assert minus(s["discard"], before["discard"]) == counts(europe, **{pay[0].split()[-1][1:]: 1})
    assert sum(s["hands"][0]) == sum(before["hands"][0]) - 1


@pytest.mark.parametrize("hand,pay", [
    ({"red": 1, "blue": 1}, None),  # two cards, but not of one colour
    ({"red": 2}, ["station pay 2red"]),
    ({"red": 1, "loco": 1}, ["station pay 1red+1loco"]),
    ({"red": 2, "blue": 1, "loco": 2}, ["station pay 2red", "station pay 1blue+1loco", "station pay 1red+1loco",
                                   "station pay 2loco"]),
])
def test_second_station_costs_two_of_one_colour(europe, engine, hand, pay):
    """COSTRUIRE UNA STAZIONE FERROVIARIA: the second station costs a pair of cards of one
    colour (locomotives stand in); a player who cannot pay has no build action."""
    g = station_game(europe, engine, hand, {"Wien": 0})
    if pay is None:
        assert builds(g) == []
        return
    g.apply_name("build station Berlin")
    assert sorted(names(g)) == sorted(pay)
    g.apply_name(pay[0])
    s = g.state()
    assert s["station_owner"].count(0) == 2 and sum(s["hands"][0]) == sum(hand.values()) - 2


@pytest.mark.parametrize("hand,pay", [
    ({"red": 2, "blue": 2, "green": 2}, None),
    ({"red": 3}, ["station pay 3red"]),
    ({"red": 2, "loco": 1}, ["station pay 2red+1loco"]),
    ({"loco": 3}, ["station pay 3loco"]),
])
def test_third_station_costs_three_of_one_colour(europe, engine, hand, pay):
    """COSTRUIRE UNA STAZIONE FERROVIARIA: the third station costs three cards of one
    colour (locomotives stand in)."""
    g = station_game(europe, engine, hand, {"Wien": 0, "Roma": 0})
    if pay is None:
        assert builds(g) == []
        return
    g.apply_name("build station Berlin")
    assert names(g) == pay
    g.apply_name(pay[0])
    assert g.state()["station_owner"].count(0) == 3 and g.current_player == 1


def test_at_most_three_stations(europe, engine):
    """COSTRUIRE UNA STAZIONE FERROVIARIA: 'un massimo ... di tre Stazioni nel corso di
    tutta la partita': with three built, no build action, whatever the hand."""
    g = station_game(europe, engine, {"red": 5, "loco": 5}, {"Wien": 0, "Roma": 0, "Paris": 0})
    assert builds(g) == []
    with pytest.raises(IllegalActionError):
        g.apply_name("build station Berlin")
    g = Arranged(europe, g).set(current=1).hand(1, red=1).game(engine)
    assert len(builds(g)) == len(europe.cities) - 3  # player 1 still builds


def test_stations_only_in_free_cities(europe, engine):
    """COSTRUIRE UNA STAZIONE FERROVIARIA: 'Due giocatori non possono mai costruire una
    Stazione nella stessa città': cities with a station (anyone's) cannot take another;
    any other city can, even with no route claimed there."""
    g = station_game(europe, engine, {"red": 2}, {"Wien": 0, "Berlin": 1})
    assert builds(g) == [c.name for c in europe.cities if c.name not in ("Wien", "Berlin")]
    for city in ("Wien", "Berlin"):
        with pytest.raises(IllegalActionError):
            g.apply_name(f"build station {city}")


# --- CALCOLO DEI PUNTEGGI: stations at the end ------------------------------------------------

# Player 1's routes at Frankfurt; player 0 reaches Paris and München-Wien on its own.
AT_FRANKFURT = ["Amsterdam-Frankfurt", "Berlin-Frankfurt/1", "Essen-Frankfurt", "Frankfurt-München"]


def test_a_station_uses_the_route_that_completes_the_ticket(europe):
    """CALCOLO DEI PUNTEGGI / COSTRUIRE UNA STAZIONE FERROVIARIA: a station lets its owner
    use one route of another player at its city; among the four at Frankfurt the one that
    completes Paris - Wien is chosen (not the lowest id, Amsterdam - Frankfurt)."""
    mine = ["Frankfurt-Paris/1", "München-Wien"]
    without = score(europe, seat(mine, ["Paris-Wien"]), seat(AT_FRANKFURT))
    assert without[0]["tickets"] == -8 and without[0]["tickets_completed"] == 0
    rows = score(europe, seat(mine, ["Paris-Wien"], ["Frankfurt"]), seat(AT_FRANKFURT))
    assert rows[0]["tickets"] == 8 and rows[0]["tickets_completed"] == 1
    assert rows[0]["station_1_route"] == rid(europe, "Frankfurt-München")
    assert rows[0]["station_2_route"] == rows[0]["station_3_route"] == -1
    assert rows[1]["tickets"] == 0 and rows[1]["station_1_route"] == -1  # the route's owner is unaffected


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_a_ticket_a_station_joins_is_completed(europe, engine):
    """A game's completed tickets (what the balance report counts) are scoring's: Paris -
    Wien is completed through the station's route at Frankfurt, not without the station."""
    mine = ["Frankfurt-Paris/1", "München-Wien"]
    held = ["Paris-Wien", "Brest-Venezia"]
    for stations, done in ((["Frankfurt"], ["Paris-Wien"]), ([], [])):
        fields = position_fields(europe.ir, {"variant": "europe",
                                             "players": [seat(mine, held, stations), seat(AT_FRANKFURT)]})
        game = (europe.module().Engine.for_scoring(fields) if engine == "compiled"
                else reference.for_scoring(europe.ir, fields))
        assert [europe.ir.tickets[t].name for t in game.completed_tickets(0)] == done
        assert game.completed_tickets(1) == []


def test_one_station_route_serves_several_tickets(europe):
    """CALCOLO DEI PUNTEGGI: 'Se un giocatore usa la stessa Stazione per ... vari Biglietti
    diversi, deve usare la stessa linea ... per tutti quei biglietti': one route, Frankfurt -
    München, completes Paris - Wien and Brest - Venezia."""
    mine = ["Frankfurt-Paris/1", "München-Wien", "Brest-Paris", "München-Venezia"]
    rows = score(europe, seat(mine, ["Paris-Wien", "Brest-Venezia"], ["Frankfurt"]), seat(AT_FRANKFURT))
    assert rows[0]["tickets"] == 16 and rows[0]["tickets_completed"] == 2


def test_a_station_uses_one_route_only(europe):
    """CALCOLO DEI PUNTEGGI: a station uses 'una (e solo una) linea': Paris - Wien needs
    Frankfurt - München, Frankfurt - Kobenhavn needs Essen - Frankfurt; one station at
    Frankfurt completes the better ticket only (8 - 5), a second station at Essen uses
    Essen - Frankfurt and completes both."""
    mine = ["Frankfurt-Paris/1", "München-Wien", "Essen-Kobenhavn/1"]
    tickets = ["Paris-Wien", "Frankfurt-Kobenhavn"]
    rows = score(europe, seat(mine, tickets, ["Frankfurt"]), seat(AT_FRANKFURT))
    assert rows[0]["tickets"] == 3 and rows[0]["tickets_completed"] == 1
    assert rows[0]["station_1_route"] == rid(europe, "Frankfurt-München")
    rows = score(europe, seat(mine, tickets, ["Frankfurt", "Essen"]), seat(AT_FRANKFURT))
    assert rows[0]["tickets"] == 13 and rows[0]["tickets_completed"] == 2
    # stations in city order: Essen before Frankfurt
    assert (rows[0]["station_1_route"], rows[0]["station_2_route"]) == (rid(europe, "Essen-Frankfurt"),
                                                                      rid(europe, "Frankfurt-München"))


def test_station_choice_equal_points_most_tickets(europe):
    """CALCOLO DEI PUNTEGGI (mechanics/stations: most points, then most tickets, then the
    lowest route ids): through Essen - Frankfurt the station completes Cadiz - Stockholm
    (21, one ticket); through Frankfurt - München, Frankfurt - Smolensk and Paris - Wien
    (13 + 8, two tickets). Equal points (0 either way): the two tickets win, although Essen
    - Frankfurt has the lower id."""
    west = ["Frankfurt-Paris/1", "Pamplona-Paris/1", "Madrid-Pamplona/1", "Cadiz-Madrid"]
    north = ["Essen-Kobenhavn/1", "Kobenhavn-Stockholm/1"]
    east = ["München-Wien", "Warszawa-Wien", "Warszawa-Wilno", "Smolensk-Wilno"]
    tickets = ["Cadiz-Stockholm", "Frankfurt-Smolensk", "Paris-Wien"]
    assert rid(europe, "Essen-Frankfurt") < rid(europe, "Frankfurt-München")
    rows = score(europe, seat(west + north + east, tickets, ["Frankfurt"]), seat(AT_FRANKFURT))
    assert rows[0]["tickets"] == 0 and rows[0]["tickets_completed"] == 2
    assert rows[0]["station_1_route"] == rid(europe, "Frankfurt-München")


def test_station_choice_all_equal_lowest_route_id(europe):
    """CALCOLO DEI PUNTEGGI (mechanics/stations): with equal points and tickets, the lowest
    route id: the two tracks of Frankfurt - Paris, owned by two opponents (4 players: both
    tracks usable), serve alike; the station uses track 1, held by the later seat."""
    mine = ["Frankfurt-München", "München-Wien"]
    rows = score(europe, seat(mine, ["Paris-Wien"], ["Frankfurt"]), seat(["Frankfurt-Paris/2"]),
                 seat(["Frankfurt-Paris/1"]), seat())
    assert rows[0]["tickets"] == 8 and rows[0]["station_1_route"] == rid(europe, "Frankfurt-Paris/1")


def test_a_station_that_helps_nothing_uses_no_route(europe):
    """CALCOLO DEI PUNTEGGI (mechanics/stations): when every choice scores the same the
    station uses no route (-1 counts below every route id)."""
    rows = score(europe, seat([], ["Paris-Wien"], ["Roma"]), seat(["Roma-Venezia", "Brindisi-Roma"]))
    assert rows[0]["station_1_route"] == -1 and rows[0]["tickets"] == -8
    rows = score(europe, seat(["Frankfurt-Paris/1"], [], ["Frankfurt"]), seat(AT_FRANKFURT))
    assert rows[0]["station_1_route"] == -1


def test_a_station_cannot_use_a_free_route(europe):
    """COSTRUIRE UNA STAZIONE FERROVIARIA: a station uses a route 'di proprietà di un altro
    giocatore'; a free route at its city is no help."""
    rows = score(europe, seat(["München-Wien"], ["Paris-Wien"], ["Frankfurt"]), seat(["Frankfurt-Paris/1"]))
    assert rows[0]["tickets"] == -8  # Frankfurt - München is free: the station cannot use it


@pytest.mark.parametrize("stations,bonus", [([], 12), (["Roma"], 8), (["Roma", "Wien"], 4),
                                            (["Roma", "Wien", "Berlin"], 0)])
def test_four_points_per_station_not_built(europe, stations, bonus):
    """CALCOLO DEI PUNTEGGI: 'quattro punti per ogni Stazione che non ha messo in gioco'."""
    rows = score(europe, seat(["Brest-Paris"], [], stations), seat())
    assert rows[0]["stations"] == bonus and rows[0]["stations_built"] == len(stations)
    assert rows[0]["total"] == rows[0]["routes"] + rows[0]["longest_bonus"] + bonus


def test_stations_never_count_for_the_european_express(europe):
    """CALCOLO DEI PUNTEGGI: 'Le Stazioni e le linee avversarie a cui esse potrebbero
    consentire l'accesso non devono essere considerate' for the longest path: the station's
    route joins Paris - Frankfurt to München - Wien for the ticket, not for the path."""
    mine = ["Frankfurt-Paris/1", "München-Wien"]
    opponent = ["Frankfurt-München", "Amsterdam-Essen"]
    rows = score(europe, seat(mine, ["Paris-Wien"], ["Frankfurt"]), seat(opponent))
    assert rows[0]["tickets_completed"] == 1
    assert rows[0]["longest_path"] == 3 and rows[1]["longest_path"] == 3
    assert rows[0]["longest_bonus"] == rows[1]["longest_bonus"] == 10  # tied at 3, not 8 for player 0


# --- the agents -------------------------------------------------------------------------------

def test_resample_in_a_station_payment_keeps_the_payment_possible():
    """Europe (rulebook, "Train Stations": a station is paid when built): a world drawn for
    an opponent while a station waits for its payment still lets its builder pay, so it
    is a valid state — the validator checks the builder holds a payment."""
    v = railspec.load("europe")
    found = 0
    for seed in range(40):
        g = v.new_game(players=3, seed=seed)
        rng = SplitMix64(seed)
        while not g.is_over and g.state()["phase"] != "station":
            legal = g.legal_actions()
            g.apply(legal[rng.below(len(legal))])
        if g.is_over:
            continue
        state = g.state()
        observer = (state["current"] + 1) % 3
        for world_seed in range(10):
            world = determinize.resample(v.ir, state, observer, world_seed)
            assert v.game_from_state(world).observation(observer) == g.observation(observer)
        found += 1
        if found == 3:
            break
    assert found == 3


@pytest.mark.parametrize("engine", ENGINES)
def test_the_styles_build_a_station_to_rescue_a_stranded_ticket(engine):
    """Europe's stations (the `rescue` rule, docs/agents.md): no style ever built one, so a
    campaign said nothing of them. A style builds a station only when a ticket it holds can
    no longer be joined over its own and the open routes, and borrowing one route of
    another player at the station's city joins it (checked at each player's first
    station, when nothing is borrowed yet); over a few seeded games every style builds
    some."""
    europe = railspec.load("europe")
    v = europe.ir
    n_cards, n_routes = len(v.colours) + 1, len(v.routes)
    built = {name: 0 for name in SCRIPTED[:4]}
    for seed in range(40):
        seats = [SCRIPTED[(seed + k) % 4] for k in range(3)]
        players = [agents.make(name, seed=seed * 7 + k) for k, name in enumerate(seats)]
        g = europe.new_game(players=3, seed=seed, engine=engine)
        has_station = set()
        while not g.is_over:
            p = g.current_player
            action = players[p].act(g)
            if v.actions[action].kind == "build_station":
                built[seats[p]] += 1
                if p in has_station:  # a later station may rely on what an earlier one lends
                    g.apply(action)
                    continue
                has_station.add(p)
                view = g.agent_view()
                owner = view[8 + n_cards:8 + n_cards + n_routes]
                open_flags = view[8 + n_cards + n_routes:8 + n_cards + 2 * n_routes]
                tickets = view[8 + n_cards + 2 * n_routes:][:view[3]]
                usable = {r for r in range(n_routes) if owner[r] == p or open_flags[r]}
                stranded = [t for t in tickets if not _joined(v, usable, v.tickets[t].a, v.tickets[t].b)]
                assert stranded, f"seed {seed}: a station with every ticket still joinable"
                city = v.actions[action].city
                lent = [r.id for r in v.routes if city in (r.a, r.b) and owner[r.id] not in (-1, p)]
                assert any(_joined(v, usable | {r}, v.tickets[t].a, v.tickets[t].b) for r in lent for t in stranded)
            g.apply(action)
    assert all(built.values()), built
