"""The Italy rules, one test per rule, each naming the rulebook section it comes from
(shared/seeds/004_7923d32833fcf0ff.txt, the Portuguese edition; the base game's rules
come from the USA rulebook). Play tests run on both engines; scoring tests on described
positions, checked in both scorers.

The map's mechanics have their rules tested beside them (mechanics/NAME/tests/: ferry_cards,
multi_track, zones, regions); this file keeps what is the map's own: its data, its set-up,
how its rules combine.
"""
from __future__ import annotations

import pytest
from conftest import names, start_turns

import railspec
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


# --- Fim da partida e bônus das regiões -------------------------------------------------------

NORTH = ["Genova-Pisa/1", "Genova-Torino/1", "Genova-Milano/1", "Milano-Parma"]   # 5 regions


def test_no_longest_path_and_no_globetrotter(italy):
    """'Nesta versão, não há o bônus do Andarilho ou do Caminho Contínuo.'"""
    assert italy.assembly.breakdown_keys == ("routes", "tickets", "tickets_completed", "regions", "total")
    rows = score(italy, (NORTH, []), ([], []))
    assert rows[0]["total"] == rows[0]["routes"] + rows[0]["regions"]
