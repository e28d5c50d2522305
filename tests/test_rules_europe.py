"""The Europe rules, one test per rule, each naming the rulebook section it comes from
(shared/seeds/000_bb662d8662a85a07.txt, the Italian edition: Gallerie = tunnels,
Traghetti = ferries, Stazione Ferroviaria = train station, European Express = the
longest-path card). Play tests run on both engines; scoring tests on described positions,
checked in both scorers."""
from __future__ import annotations

import pytest
from conftest import Arranged, names, start_turns

import railspec
from railspec.compiler.base.errors import IllegalActionError
from railspec.runtime import reference
from railspec.runtime.position import position_fields
from railspec.runtime.state_format import validate

MARKET = ("pink", "white", "blue", "yellow", "orange")  # no locomotive: no market reset in the way


@pytest.fixture(scope="module")
def europe():
    return railspec.load("europe")


def seat(routes=(), tickets=(), stations=()) -> dict:
    return {"routes": list(routes), "tickets": list(tickets), "stations": list(stations)}


def score(europe, *seats):
    """Both scorers on a position: the compiled one's rows, checked against the reference."""
    position = {"variant": "europe", "players": list(seats)}
    rows = railspec.score(europe, position)
    fields = position_fields(europe.ir, position)
    assert reference.score_fields(europe.ir, fields) == [{k: v for k, v in r.items() if k != "winner"} for r in rows]
    return rows


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


def only_cards(a: Arranged, deck=(), discard=(), holder: int = 1) -> Arranged:
    """Empty the deck and the discards into ``holder``'s hand, then put back exactly these
    cards: ``deck`` bottom to top (the last named is the top card), ``discard`` by name."""
    s = a.state
    hand = s["hands"][holder]
    for c in s["deck"]:
        hand[c] += 1
    s["deck"] = []
    for c, n in enumerate(s["discard"]):
        hand[c] += n
        s["discard"][c] = 0
    for name in deck:
        c = a.card(name)
        hand[c] -= 1
        s["deck"].append(c)
    for name in discard:
        c = a.card(name)
        hand[c] -= 1
        s["discard"][c] += 1
    return a


# --- GALLERIE ------------------------------------------------------------------------------


# --- TRAGHETTI -----------------------------------------------------------------------------


# --- COSTRUIRE UNA STAZIONE FERROVIARIA -----------------------------------------------------------

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


def test_the_european_express_goes_to_every_player_tied(europe):
    """CALCOLO DEI PUNTEGGI: the 10 points of the European Express to the longest continuous
    path, to each player tied for it; loops and cities passed twice allowed."""
    assert europe.ir.rule("longest_path").bonus == 10
    rows = score(europe, seat(["Brest-Paris"]), seat(["Lisboa-Madrid"]), seat(["Amsterdam-Frankfurt"]))
    assert [r["longest_bonus"] for r in rows] == [10, 10, 0]


# --- CALCOLO DEI PUNTEGGI: the tie-breakers ------------------------------------------------------

DISJOINT_TWOS = ["Amsterdam-Frankfurt", "Barcelona-Madrid", "Kharkov-Rostov", "Brindisi-Roma", "Budapest-Zagrab",
                 "Cadiz-Lisboa", "Moskva-Smolensk"]  # 2 cars each, no city shared: longest path 2


def test_tiebreak_keys(europe):
    """CALCOLO DEI PUNTEGGI: ties go to the most tickets completed, then the fewest
    stations, then the European Express."""
    assert europe.ir.tiebreaks == ("most_tickets", "fewest_stations", "longest_path")


def test_tie_most_tickets_first(europe):
    """CALCOLO DEI PUNTEGGI: 'vince il giocatore che ha completato più Biglietti
    Destinazione', before stations and the European Express: player 0 (one ticket, one
    station, no Express) beats player 1 (no ticket, no station, the Express)."""
    p0 = seat(["Essen-Frankfurt", "Essen-Kobenhavn/1", "Brest-Paris", "Lisboa-Madrid", "Athina-Sofia",
               "Kyiv-Smolensk", "Brindisi-Roma"], ["Frankfurt-Kobenhavn"], ["Wien"])
    rows = score(europe, p0, seat(["Budapest-Kyiv"]))
    assert rows[0]["total"] == rows[1]["total"]
    assert rows[0]["tickets_completed"] == 1 and rows[1]["tickets_completed"] == 0
    assert rows[1]["longest_bonus"] == 10 and rows[0]["stations_built"] == 1
    assert [r["winner"] for r in rows] == [True, False]


def test_tie_fewest_stations_second(europe):
    """CALCOLO DEI PUNTEGGI: 'Se la parità permane, vince il giocatore che ha usato il
    minor numero di Stazioni', before the European Express (docs/rules.md #23: stations
    built)."""
    rows = score(europe, seat(["Brest-Paris"], [], ["Wien"]), seat(DISJOINT_TWOS[:5]))
    assert rows[0]["total"] == rows[1]["total"] == 22
    assert rows[0]["longest_bonus"] == 10 and rows[1]["longest_bonus"] == 0
    assert [r["winner"] for r in rows] == [False, True]


def test_tie_european_express_last(europe):
    """CALCOLO DEI PUNTEGGI: 'vince il giocatore che detiene la carta bonus European
    Express'; with that equal too, both win."""
    rows = score(europe, seat(["Brest-Paris"]), seat(DISJOINT_TWOS))
    assert rows[0]["total"] == rows[1]["total"] == 26
    assert [r["winner"] for r in rows] == [True, False]
    rows = score(europe, seat(["Brest-Paris"]), seat(["Lisboa-Madrid"]))
    assert [r["winner"] for r in rows] == [True, True]


# --- CALCOLO DEI PUNTEGGI: the route table; FINE DELLA PARTITA --------------------------------------

@pytest.mark.parametrize("route,length,points", [("Amsterdam-Bruxelles", 1, 1), ("Amsterdam-Frankfurt", 2, 2),
                                                 ("Brest-Paris", 3, 4), ("Athina-Sarajevo", 4, 7),
                                                 ("Budapest-Kyiv", 6, 15), ("Petrograd-Stockholm", 8, 21)])
def test_route_table(europe, route, length, points):
    """CALCOLO DEI PUNTEGGI, Tabella Punteggi delle Linee: 1:1 2:2 3:4 4:7 6:15 8:21."""
    assert europe.ir.route_named(route).length == length and europe.ir.route_points[length] == points
    assert score(europe, seat([route]), seat())[0]["routes"] == points


def test_route_points_scored_at_once(europe, engine):
    """CONTROLLARE UNA LINEA: the route's points are scored at once when it is claimed."""
    g = start_turns(europe, 2, engine=engine)
    g = Arranged(europe, g).hand(0, white=6).game(engine)
    g.apply_name("claim Bucuresti-Sevastopol white 4white")
    s = g.state()
    assert s["route_score"][0] == 7 and s["trains"][0] == 41 and g.current_player == 1


FORTY_TWO = ["Petrograd-Stockholm", "Budapest-Kyiv", "Athina-Sarajevo", "Barcelona-Marseille", "Berlin-Danzig",
             "Brest-Pamplona", "Bucuresti-Kyiv", "Bucuresti-Sevastopol", "Kharkov-Kyiv"]  # 8 + 6 + 7 x 4 cars


@pytest.mark.parametrize("extra,claim", [([], True), (["Amsterdam-Frankfurt"], False)])
def test_fine_della_partita_two_trains_or_fewer(europe, engine, extra, claim):
    """FINE DELLA PARTITA: a player ending a turn with 2 trains or fewer starts the last
    round: every player, that one included, has one more turn. 3 trains and a 1-car route
    claimed: 2 left; or 1 train left and a turn drawing cards: the same."""
    g = start_turns(europe, 2, engine=engine)
    a = Arranged(europe, g).own(0, *FORTY_TWO, *extra)
    g = a.hand(0, black=1).game(engine)
    if claim:
        g.apply_name("claim Amsterdam-Bruxelles black 1black")
    else:
        g.apply_name("draw blind")
        g.apply_name("draw blind")
    assert g.state()["trains"][0] == (2 if claim else 1)
    assert g.state()["final_turns"] == 2 and g.current_player == 1
    g.apply_name("draw blind")
    g.apply_name("draw blind")
    assert not g.is_over and g.current_player == 0  # the triggering player's last turn
    g.apply_name("draw blind")
    g.apply_name("draw blind")
    assert g.is_over


def test_fine_della_partita_three_trains_do_not_end(europe, engine):
    """FINE DELLA PARTITA: 'scende a due vagoni o meno': 3 left is not the end."""
    g = start_turns(europe, 2, engine=engine)
    g = Arranged(europe, g).own(0, *FORTY_TWO[:-1], "Amsterdam-Bruxelles", "Kyiv-Smolensk").game(engine)
    assert g.state()["trains"][0] == 45 - (38 + 1 + 3) == 3
    g.apply_name("draw blind")
    g.apply_name("draw blind")
    assert g.state()["final_turns"] == -1 and not g.is_over
    assert europe.ir.end_trains == 2


# --- PREPARAZIONE DEL GIOCO / INIZIO DELLA PARTITA / PESCARE BIGLIETTI DESTINAZIONE -----------------

def is_long(europe, t: int) -> bool:
    return europe.tickets[t].deck == "long"


def test_preparazione_three_regular_and_one_long_keep_two(europe, engine):
    """PREPARAZIONE DEL GIOCO: each player gets one long ticket (dealt at random; the others
    stay in the box) and three regular ones; INIZIO DELLA PARTITA: keep at least two. The
    long ticket takes the last offer slot (docs/rules.md #22)."""
    g = europe.new_game(players=3, seed=5, engine=engine)
    s = g.state()
    for offer in s["setup_offer"]:
        assert len(offer) == 4 and [is_long(europe, t) for t in offer] == [False, False, False, True]
    assert len(s["long_deck"]) == 6 - 3 and all(is_long(europe, t) for t in s["long_deck"])
    assert len(s["ticket_deck"]) == 40 - 9 and not any(is_long(europe, t) for t in s["ticket_deck"])
    legal = names(g)
    assert len(legal) == 11 and all(n.count(",") >= 1 for n in legal)  # every subset of 2, 3 or 4
    with pytest.raises(IllegalActionError):
        g.apply_name("keep tickets 4")


def test_inizio_tickets_not_kept_leave_the_game(europe, engine):
    """INIZIO DELLA PARTITA: 'Riponete tutti i Biglietti Destinazione scartati nella scatola
    del gioco ... sia linee lunghe che linee regolari': a regular ticket not kept leaves the
    game (tickets_out), a long one goes back to the box of long tickets; neither goes into
    the ticket deck (docs/rules.md #4)."""
    g = europe.new_game(players=3, seed=5, engine=engine)
    s = g.state()
    deck, box, offers = s["ticket_deck"], s["long_deck"], s["setup_offer"]
    g.apply_name("keep tickets 1,2")        # returns a regular (slot 3) and the long one
    g.apply_name("keep tickets 2,4")        # returns two regular ones, keeps the long one
    g.apply_name("keep tickets 1,2,3,4")
    s = g.state()
    assert s["phase"] == "turn" and g.current_player == 0
    assert s["tickets"] == [offers[0][:2], [offers[1][1], offers[1][3]], offers[2]]
    assert s["tickets_out"] == [offers[0][2], offers[1][0], offers[1][2]]
    assert s["long_deck"] == box + [offers[0][3]]
    assert s["ticket_deck"] == deck


def test_pescare_biglietti_draw_three_keep_one_rest_under_the_deck(europe, engine):
    """PESCARE BIGLIETTI DESTINAZIONE: draw three from the top of the (regular) deck, keep
    at least one; 'Ogni Biglietto pescato che non venga tenuto in mano va collocato in fondo
    al mazzo'."""
    g = start_turns(europe, 2, engine=engine)
    s = g.state()
    deck, out, box = s["ticket_deck"], s["tickets_out"], s["long_deck"]
    g.apply_name("draw tickets")
    s = g.state()
    assert s["offer"] == deck[:3] and s["offer_keep"] == 1 and s["phase"] == "keep"
    assert len(names(g)) == 7  # every non-empty subset of 3
    g.apply_name("keep tickets 2")
    s = g.state()
    assert s["tickets"][0][-1] == deck[1] and s["ticket_deck"] == deck[3:] + [deck[0], deck[2]]
    assert s["tickets_out"] == out and s["long_deck"] == box and g.current_player == 1


def test_pescare_biglietti_fewer_than_three_left(europe, engine):
    """PESCARE BIGLIETTI DESTINAZIONE: 'Se nel mazzo rimangono meno di tre Biglietti
    Destinazione, il giocatore pesca solo quelli rimasti'."""
    g = start_turns(europe, 2, engine=engine)
    a = Arranged(europe, g)
    s = a.state
    s["tickets_out"] += s["ticket_deck"][2:]
    s["ticket_deck"] = s["ticket_deck"][:2]
    g = a.game(engine)
    g.apply_name("draw tickets")
    assert len(g.state()["offer"]) == 2 and len(names(g)) == 3


def test_the_validator_accounts_for_every_ticket(europe, engine):
    """PREPARAZIONE DEL GIOCO (state format): every ticket of the 46 is in exactly one pile
    (the deck, a hand, an offer, the box of long tickets, or out of the game); a long ticket
    is never in the regular deck."""
    g = start_turns(europe, 2, engine=engine)
    state = g.state()
    validate(europe.ir, state)
    missing = dict(state, ticket_deck=state["ticket_deck"][1:])
    twice = dict(state, ticket_deck=state["ticket_deck"] + [state["ticket_deck"][0]])
    out_twice = dict(state, tickets_out=state["tickets_out"] + [state["ticket_deck"][0]])
    for bad in (missing, twice, out_twice):
        with pytest.raises(railspec.StateError, match="every ticket"):
            validate(europe.ir, bad)
        with pytest.raises(railspec.StateError):
            europe.game_from_state(bad, engine=engine)
    long_in_deck = dict(state, ticket_deck=state["ticket_deck"] + state["long_deck"][:1],
                        long_deck=state["long_deck"][1:])
    with pytest.raises(railspec.StateError, match="long ticket"):
        validate(europe.ir, long_in_deck)
