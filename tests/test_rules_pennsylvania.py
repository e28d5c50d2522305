"""The Pennsylvania rules, one test per rule, each naming the rulebook section it comes from
(shared/seeds/003_dff6463ca3838127.txt, the Italian edition: Quote azionistiche = stock
shares, Compagnia Ferroviaria = railroad company, Giocatore Neutrale = the neutral
player). Play tests run on both engines; majority tests on described positions, checked in
both scorers.

The map's mechanics have their rules tested beside them (mechanics/NAME/tests/: shares,
globetrotter, ferries, zones); this file keeps what is the map's own: its data, its set-up,
how its rules combine.
"""
from __future__ import annotations

import pytest
from conftest import names, start_turns

import railspec
from railspec.runtime import reference
from railspec.runtime.position import position_fields


@pytest.fixture(scope="module")
def penn():
    return railspec.load("pennsylvania")


def score(penn, *seats, neutral=None):
    """Both scorers on a position of shares: the compiled one's rows, checked against the
    reference."""
    position = {"variant": "pennsylvania", "players": [{"shares": shares} for shares in seats]}
    if neutral:
        position["neutral_shares"] = neutral
    rows = railspec.score(penn, position)
    fields = position_fields(penn.ir, position)
    assert reference.score_fields(penn.ir, fields) == [{k: v for k, v in r.items() if k != "winner"} for r in rows]
    return rows


# --- Biglietti Destinazione and Traghetti -----------------------------------------------------

def test_five_tickets_keep_three_draw_four_keep_one(penn, engine):
    """Biglietti Destinazione: 5 dealt, keep at least 3; a draw takes 4, keep at least 1;
    those not kept go under the deck (in order: no shuffle)."""
    g = penn.new_game(players=3, seed=2, engine=engine)
    offer = g.state()["setup_offer"][0]
    assert len(offer) == 5 and all(n.count(",") >= 2 for n in names(g))
    g.apply_name("keep tickets 1,3,5")
    assert g.state()["ticket_deck"][-2:] == [offer[1], offer[3]]
    g = start_turns(penn, 2, engine=engine, keep="keep tickets 1,2,3")
    g.apply_name("draw tickets")
    assert len(g.state()["offer"]) == 4 and len(names(g)) == 15


# --- Calcolare il punteggio -------------------------------------------------------------------


def test_no_longest_path(penn):
    """docs/rules.md #25: the rulebook gives no longest-path bonus and the map has none."""
    assert "longest_path" not in penn.assembly.breakdown_keys


@pytest.mark.parametrize("name", ["pennsylvania", "italy"])
def test_ties_go_to_the_most_tickets_then_stay_shared(name):
    """docs/rules.md #27: the Pennsylvania and Italy rulebooks say nothing of ties; the base
    game's first tie-breaker, most tickets completed, is the one left (neither map has a
    longest-path card), and players still tied share the win."""
    from railspec.runtime.scoring import winners
    v = railspec.load(name)
    assert v.ir.tiebreaks == ("most_tickets",)
    rows = [dict(total=60, tickets_completed=3), dict(total=60, tickets_completed=4)]
    assert winners(v.ir, rows) == [1]
    assert winners(v.ir, [dict(total=60, tickets_completed=4), dict(total=60, tickets_completed=4)]) == [0, 1]
