"""Zones (mechanics/zones): places that tickets name but that join nothing. Its statement,
and the rule on the maps that have zones, in both scorers.

Italy rulebook (shared/seeds/004_7923d32833fcf0ff.txt), Países vizinhos e Monaco;
Pennsylvania rulebook (shared/seeds/003_dff6463ca3838127.txt), Traghetti; Switzerland: the
rules sheet ("SHEET") and thoun/tickettoride's map ("MAP"), as tests/test_rules_switzerland.py
lists them.
"""
from __future__ import annotations

import pytest
from conftest import add, assert_located_error, bad_spec_params, checked, edit, mini, score_both

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError
from railspec.mechanics.stations import BUILD_STATION

S, C = SpecSyntaxError, SpecCheckError

@pytest.fixture(scope="module")
def italy():
    return railspec.load("italy")


def score(italy, *seats):
    """Both scorers on a position: the compiled one's rows, checked against the reference."""
    return score_both(italy, {"variant": "italy", "players": [dict(routes=list(r), tickets=list(t)) for r, t in seats]})


@pytest.fixture(scope="module")
def penn():
    return railspec.load("pennsylvania")


@pytest.fixture(scope="module")
def swiss():
    return railspec.load("switzerland")


def swiss_score(v, *seats):
    """Both scorers on a Swiss position (seats as dicts)."""
    return score_both(v, {"variant": "switzerland", "players": list(seats)})


# --- the statement: 'zone NAME' ---------------------------------------------------------------

def test_zones_are_dead_ends_italy_neighbouring_countries():
    """Italy, 'Países vizinhos e Monaco': every route into a neighbouring country is a dead
    end of its own, so two routes into one zone get different graph nodes."""
    v = checked(mini("zone Svizzera\nroute Alpha - Svizzera 2 gray\nroute Gamma - Svizzera 3 gray\n"
                     "ticket Svizzera - Zeta 9"))
    zone = v.city_named("Svizzera")
    assert zone.dead_end
    r1, r2 = v.route_named("Alpha-Svizzera"), v.route_named("Gamma-Svizzera")
    assert r1.b == r2.b == zone.id                       # the same place …
    assert r1.node_b != r2.node_b                        # … but two separate graph nodes
    assert {r1.node_b, r2.node_b} == set(v.city_nodes[zone.id])
    assert zone.id not in v.city_nodes[zone.id]
    assert r1.node_a == v.city_named("Alpha").id         # ordinary cities are their own node
    assert v.city_nodes[v.city_named("Alpha").id] == (v.city_named("Alpha").id,)
    assert v.node_count == len(v.cities) + 2
    assert "zones" in v.mechanics
    assert v.ticket_named("Svizzera-Zeta").a == zone.id
    # a ticket between two zones is fine as long as some chain joins one route end of each
    v3 = checked(mini("zone Francia\nzone Austria\nroute Francia - Alpha 2 gray\nroute Austria - Zeta 3 gray\n"
                      "ticket Francia - Austria 14"))
    assert v3.ticket_named("Francia-Austria").points == 14
    # a station is never built on a zone
    v2 = checked(mini("zone Svizzera\nroute Alpha - Svizzera 2 gray\nstations 3 cost 1 2 3\naction build station"))
    assert not any("Svizzera" in a.name for a in v2.actions if a.kind == BUILD_STATION)


def test_zone_with_two_end_points_pennsylvania_ferries():
    """Pennsylvania, 'Traghetti': the two ferry routes lead to Ontario and are not connected
    to each other."""
    v = checked(mini("zone Ontario\nroute Alpha - Ontario 3 gray ferry 2\nroute Beta - Ontario 1 gray ferry 1"))
    a, b = v.route_named("Alpha-Ontario"), v.route_named("Beta-Ontario")
    assert a.node_b != b.node_b
    assert (v.rule("ferries").needs(a.id), v.rule("ferries").needs(b.id)) == (2, 1)


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("zone-without-name", add(20, "zone"), S, 20, 5, "the form is: zone NAME [at X Y]"),
    ("city-and-zone", add(20, "zone Alpha"), C, 20, 6, "city 'Alpha' is declared twice (first at line 19)"),
    ("ticket-through-a-zone",
     edit(26, "zone Ozone; route Beta - Ozone 3 gray; route Ozone - Gamma 3 gray"), C, 29, 1,
     "ticket Alpha - Gamma can never be completed: no chain of routes joins the two cities "
     "(a zone is a dead end: no chain passes through one)"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- Países vizinhos e Monaco (Italy) ---------------------------------------------------------

def test_a_ticket_into_a_country_is_reached_through_any_end_point(italy):
    """Países vizinhos e Monaco: a ticket may name a country; each route into it is an end
    of its own, and any of them completes the ticket (Bolzano - Croazia, through Trieste or
    through Ancona)."""
    via_trieste = ["Bolzano-Tarvisio", "Tarvisio-Trieste", "Trieste-Croazia/1"]
    via_ancona = ["Bolzano-Venezia", "Ancona-Venezia", "Ancona-Croazia"]
    for routes in (via_trieste, via_ancona):
        rows = score(italy, (routes, ["Bolzano-Croazia"]), ([], []))
        assert rows[0]["tickets_completed"] == 1 and rows[0]["tickets"] > 0


def test_two_routes_into_one_country_are_not_joined_through_it(italy):
    """Países vizinhos e Monaco: each route leading into a country is a dead end; different
    routes into the same country are not connected (Milano - Svizzera - Bolzano does not join
    Milano to Bolzano)."""
    through_switzerland = ["Milano-Svizzera", "Bolzano-Svizzera", "Bolzano-Tarvisio", "Tarvisio-Trieste"]
    rows = score(italy, (through_switzerland, ["Milano-Trieste"]), ([], []))
    assert rows[0]["tickets_completed"] == 0 and rows[0]["tickets"] < 0
    rows = score(italy, (through_switzerland + ["Bergamo-Milano/1", "Bergamo-Bolzano"], ["Milano-Trieste"]), ([], []))
    assert rows[0]["tickets_completed"] == 1


# --- Traghetti: Ontario (Pennsylvania) --------------------------------------------------------

def test_ontarios_end_points_are_not_connected(penn):
    """Traghetti: the two ferry lines into Ontario are not connected to each other."""
    through_ontario = ["Buffalo-Ontario/1", "Erie-Ontario/1", "Erie-Youngstown/1", "Pittsburgh-Youngstown/1"]
    position = {"players": [{"routes": through_ontario, "tickets": ["Pittsburgh-Buffalo", "Ontario-Warren"]},
                            {"routes": []}]}
    rows = railspec.score(penn, position)
    assert rows[0]["tickets_completed"] == 0
    position["players"][0]["routes"] += ["Buffalo-Erie/1", "Erie-Warren"]
    assert railspec.score(penn, position)[0]["tickets_completed"] == 2


# --- the countries (Switzerland) --------------------------------------------------------------

def test_a_country_is_a_dead_end(swiss):
    """SHEET: routes "connect cities to Switzerland's neighboring countries"; MAP
    (countriesEndPoints): each route into a country ends there on its own, so Schaffhausen and
    St. Gallen are not joined through Deutschland."""
    rows = swiss_score(swiss, {"routes": ["Schaffhausen-Deutschland", "St. Gallen-Deutschland"],
                         "tickets": ["Schaffhausen-St. Gallen"]}, {"routes": [], "tickets": []})
    assert rows[0]["tickets"] == -4 and rows[0]["tickets_completed"] == 0
