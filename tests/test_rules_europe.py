"""The Europe rules, one test per rule, each naming the rulebook section it comes from
(shared/seeds/000_bb662d8662a85a07.txt, the Italian edition: Gallerie = tunnels,
Traghetti = ferries, Stazione Ferroviaria = train station, European Express = the
longest-path card). Play tests run on both engines; scoring tests on described positions,
checked in both scorers.

The map's mechanics have their rules tested beside them (mechanics/NAME/tests/: tunnels,
ferries, stations, longest_path, long_tickets, removed_tickets); this file keeps what is the
map's own: its data, its set-up, how its rules combine.
"""
from __future__ import annotations

import pytest
from conftest import Arranged, names, start_turns

import railspec
from railspec.compiler.base.errors import IllegalActionError
from railspec.runtime import reference
from railspec.runtime.position import position_fields


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


def card(europe, name: str) -> int:
    return len(europe.colours) if name == "loco" else next(c.id for c in europe.colours if c.name == name)


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
