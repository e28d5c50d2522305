"""The Italy rules, one test per rule, each naming the rulebook section it comes from
(shared/seeds/004_7923d32833fcf0ff.txt, the Portuguese edition; the base game's rules
come from the USA rulebook). Play tests run on both engines; scoring tests on described
positions, checked in both scorers."""
from __future__ import annotations

import pytest
from conftest import Arranged, names, start_turns

import railspec
from railspec.compiler.base.errors import IllegalActionError
from railspec.runtime import reference
from railspec.runtime.position import position_fields


@pytest.fixture(scope="module")
def italy():
    return railspec.load("italy")


def score(italy, *seats):
    """Both scorers on a position: the compiled one's rows, checked against the reference."""
    position = {"variant": "italy", "players": [dict(routes=list(r), tickets=list(t)) for r, t in seats]}
    rows = railspec.score(italy, position)
    fields = position_fields(italy.ir, position)
    assert reference.score_fields(italy.ir, fields) == [{k: v for k, v in r.items() if k != "winner"} for r in rows]
    return rows


# --- Preparação and Comprar Bilhetes de Destino ------------------------------------------------

def test_five_tickets_dealt_keep_at_least_three_returned_ones_shuffled_under(italy, engine):
    """Preparação: 5 destination tickets each, keep at least 3; the ones not kept are
    shuffled and put under the deck."""
    g = italy.new_game(players=2, seed=6, engine=engine)
    offer = g.state()["setup_offer"][0]
    assert len(offer) == 5
    assert all(n.count(",") >= 2 for n in names(g))  # every choice keeps 3, 4 or 5
    g.apply_name("keep tickets 1,2,3")
    deck = g.state()["ticket_deck"]
    assert sorted(deck[-2:]) == sorted(offer[3:]) and g.state()["tickets"][0] == offer[:3]


def test_draw_four_tickets_keep_at_least_one(italy, engine):
    """Comprar Bilhetes de Destino: draw 4 from the top, keep at least 1."""
    g = start_turns(italy, 2, engine=engine, keep="keep tickets 1,2,3")
    top = g.state()["ticket_deck"][:4]
    g.apply_name("draw tickets")
    assert g.state()["offer"] == top and len(names(g)) == 15  # every non-empty subset of 4


# --- Comprar 1 carta de Balsa ----------------------------------------------------------------

def test_taking_a_ferry_card_is_the_whole_turn_and_two_is_the_most(italy, engine):
    """Comprar 1 carta de Balsa: an action takes one ferry card; a player cannot hold more
    than 2, so with 2 the action is not possible."""
    g = start_turns(italy, 2, engine=engine, keep="keep tickets 1,2,3")
    g.apply_name("draw ferry card")
    s = g.state()
    assert s["ferry_cards"] == [1, 0] and s["ferry_pile"] == 9 and g.current_player == 1
    g = Arranged(italy, g).set(current=0, ferry_cards=[2, 0], ferry_pile=8).game(engine)
    assert "draw ferry card" not in names(g)
    with pytest.raises(IllegalActionError):
        g.apply_name("draw ferry card")
    assert g.observation(1)["ferry_cards"] == [2, 0]  # the count is public


# --- Controlar uma Rota: wave spaces --------------------------------------------------------

FERRY = "Ancona-Croazia"  # 4 spaces, 2 of them with a wave


def ferry_claims(game) -> list[str]:
    return [n for n in names(game) if n.startswith(f"claim {FERRY} ")]


def test_wave_spaces_paid_with_locomotives_only(italy, engine):
    """Controlar uma Rota: a wave space takes a locomotive (or ferry cards); the other spaces
    follow the gray-route rules. Locomotives alone pay all four spaces."""
    g = start_turns(italy, 4, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(italy, g).hand(0, loco=4).game(engine)
    assert ferry_claims(g) == [f"claim {FERRY} gray 4loco"]
    g.apply_name(f"claim {FERRY} gray 4loco")
    assert g.state()["owner"][italy.ir.route_named(FERRY).id] == 0


def test_wave_spaces_paid_with_ferry_cards_only(italy, engine):
    """Controlar uma Rota: one ferry card covers up to two wave spaces; a spent ferry card
    goes back to the ferry pile (the spec's rule, docs/rules.md #14)."""
    g = start_turns(italy, 4, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(italy, g).hand(0, red=2).set(ferry_cards=[1, 0, 0, 0], ferry_pile=9).game(engine)
    assert ferry_claims(g) == [f"claim {FERRY} gray 2red+1ferry"]
    g.apply_name(f"claim {FERRY} gray 2red+1ferry")
    s = g.state()
    assert s["ferry_cards"] == [0, 0, 0, 0] and s["ferry_pile"] == 10 and sum(s["hands"][0]) == 0


def test_wave_spaces_paid_with_a_mix(italy, engine):
    """Controlar uma Rota: the payments are every mix: locomotives for the waves, a ferry card
    for them, locomotives standing in on the other spaces."""
    g = start_turns(italy, 4, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(italy, g).hand(0, red=2, loco=2).set(ferry_cards=[1, 0, 0, 0], ferry_pile=9).game(engine)
    assert ferry_claims(g) == [f"claim {FERRY} gray 2red+2loco", f"claim {FERRY} gray 2red+1ferry",
                               f"claim {FERRY} gray 1red+1loco+1ferry", f"claim {FERRY} gray 2loco+1ferry"]


def test_ferry_cards_pay_nothing_but_wave_spaces(italy, engine):
    """Controlar uma Rota: ferry cards cannot be used on normal routes or on a ferry route's
    spaces without a wave: two ferry cards and nothing else claim nothing."""
    g = start_turns(italy, 4, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(italy, g).hand(0).set(ferry_cards=[2, 0, 0, 0], ferry_pile=8).game(engine)
    assert not any(n.startswith("claim ") for n in names(g))
    waves = italy.ir.rule("ferry_cards")
    assert not any(italy.ir.paid(a, "ferry_cards") for a in italy.actions
                   if a.route >= 0 and not waves.wave_spaces(a.route))


# --- Rotas duplas e triplas ------------------------------------------------------------------


# --- Países vizinhos e Monaco ----------------------------------------------------------------

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


# --- Fim da partida e bônus das regiões -------------------------------------------------------

NORTH = ["Genova-Pisa/1", "Genova-Torino/1", "Genova-Milano/1", "Milano-Parma"]   # 5 regions
SOUTH = ["Firenze-Perugia", "Perugia-Roma", "Napoli-Roma/1", "Napoli-Pescara"]    # 5 regions


def test_the_rulebooks_region_example(italy):
    """Fim da partida e bônus das regiões, the rulebook's example: two separate networks of
    5 regions each score 1 + 1 = 2; claiming Firenze - Pisa joins them into one network of 9
    regions (Firenze and Pisa are both in Toscana), which scores 11."""
    rows = score(italy, (NORTH + SOUTH, []), ([], []))
    assert rows[0]["regions"] == 2
    rows = score(italy, (NORTH + SOUTH + ["Firenze-Pisa/1"], []), ([], []))
    assert rows[0]["regions"] == 11


@pytest.mark.parametrize("regions,points", [(4, 0), (5, 1), (6, 2), (9, 11), (14, 46), (15, 56), (17, 56)])
def test_region_table(italy, regions, points):
    """Fim da partida: 5 regions 1, 6 2, 7 4, 8 7, 9 11, …, 14 46, 15 or more 56; fewer
    than 5 score nothing."""
    from railspec.mechanics.regions import points_table
    assert points_table(italy.ir.rule("regions"))[regions] == points


SICILY = ["Agrigento-Catania", "Catania-Messina", "Messina-Palermo/1", "Catania-Siracusa"]
AROUND = ["Messina-Salerno", "Cosenza-Messina/1", "Salerno-Taranto"]  # Campania, Calabria, Puglia


def test_sicilia_counts_double_only_with_all_its_cities(italy):
    """Fim da partida: Sardegna, Sicilia and Puglia count as two regions when all their
    cities are connected in the same network. All five Sicilian cities and three other
    regions make 5 (1 point); without Siracusa they make 4 (nothing)."""
    rows = score(italy, (SICILY + AROUND, []), ([], []))
    assert rows[0]["regions"] == 1
    rows = score(italy, (SICILY[:-1] + AROUND, []), ([], []))
    assert rows[0]["regions"] == 0


def test_no_longest_path_and_no_globetrotter(italy):
    """'Nesta versão, não há o bônus do Andarilho ou do Caminho Contínuo.'"""
    assert italy.assembly.breakdown_keys == ("routes", "tickets", "tickets_completed", "regions", "total")
    rows = score(italy, (NORTH, []), ([], []))
    assert rows[0]["total"] == rows[0]["routes"] + rows[0]["regions"]
