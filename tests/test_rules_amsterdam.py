"""The Amsterdam rules, one test per rule, each naming the rulebook section it comes from
(shared/seeds/001_5402fe9f138aeb47.txt, the Italian edition; its words: carretto = train,
carta Trasporto = train card, jolly = locomotive, carta Contratto = ticket, carta Bonus
Merce = goods card). Every play test runs on both engines. The map's contracts, goods
routes and route table are provisional (spec/amsterdam.rail's header).

The map's mechanics have their rules tested beside them (mechanics/NAME/tests/: goods,
multi_track); this file keeps what is the map's own: its data, its set-up, how its rules
combine.
"""
from __future__ import annotations

import subprocess
import sys
import warnings

import pytest
from conftest import Arranged, names, start_turns

import railspec
from railspec.compiler.base.errors import ProvisionalSpecWarning


@pytest.fixture(scope="module")
def ams():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProvisionalSpecWarning)
        return railspec.load("amsterdam")


# --- Contenuto and Preparazione del Gioco --------------------------------------------------

def test_components_44_transport_cards_16_carts_2_cards_each(ams, engine):
    """Contenuto: 44 transport cards (6 of each of six colours and 8 jolly), 16 carts each;
    Preparazione del Gioco: 2 cards in hand, 5 face up, 2 contracts dealt."""
    assert [c.count for c in ams.colours] == [6] * 6 and ams.ir.locomotives == 8
    g = ams.new_game(players=4, seed=2, engine=engine)
    s = g.state()
    assert [sum(h) for h in s["hands"]] == [2] * 4 and s["trains"] == [16] * 4
    assert len([c for c in s["faceup"] if c >= 0]) == 5 and [len(o) for o in s["setup_offer"]] == [2] * 4
    assert s["goods"] == [0] * 4 and s["goods_pile"] == 16


def test_setup_keep_at_least_one_of_two_contracts(ams, engine):
    """Preparazione del Gioco: each player keeps at least 1 of the 2 contracts dealt; one
    not kept goes under the contract deck."""
    g = ams.new_game(players=2, seed=4, engine=engine)
    assert sorted(names(g)) == ["keep tickets 1", "keep tickets 1,2", "keep tickets 2"]
    offer = g.state()["setup_offer"][0]
    g.apply_name("keep tickets 2")
    assert g.state()["tickets"][0] == [offer[1]] and g.state()["ticket_deck"][-1] == offer[0]


def test_draw_two_contracts_keep_at_least_one_and_the_last_must_be_kept(ams, engine):
    """Pescare Carte Contratto: draw 2, keep at least 1; with 1 left in the deck it is drawn
    and must be kept."""
    g = start_turns(ams, 2, engine=engine, keep="keep tickets 1,2")
    g.apply_name("draw tickets")
    assert sorted(names(g)) == ["keep tickets 1", "keep tickets 1,2", "keep tickets 2"]
    a = Arranged(ams, g)
    s = a.state
    s["tickets"][1].extend(s["ticket_deck"][1:] + s["offer"])
    s["ticket_deck"], s["offer"], s["offer_keep"], s["phase"] = s["ticket_deck"][:1], [], 0, "turn"
    g = a.game(engine)
    g.apply_name("draw tickets")
    assert names(g) == ["keep tickets 1"]


# --- Pescare Carte Trasporto -----------------------------------------------------------------

def test_a_faceup_jolly_taken_first_is_the_only_card(ams, engine):
    """Pescare Carte Trasporto: a face-up jolly taken as the first card is the only card of
    the turn, and cannot be the second card."""
    g = start_turns(ams, 2, engine=engine, keep="keep tickets 1,2")
    g = Arranged(ams, g).faceup("loco", "red", "blue", "green", "pink").game(engine)
    g.apply_name("draw faceup red")
    assert "draw faceup loco" not in names(g)
    g = Arranged(ams, g).faceup("loco", "red", "blue", "green", "pink").set(phase="turn").game(engine)
    g.apply_name("draw faceup loco")
    assert g.current_player == 1


# --- 2 players, the end, the winner ---------------------------------------------------------


def test_last_round_after_two_carts_or_fewer(ams, engine):
    """Fine della Partita: a player ending a turn with 2 carts or fewer gives every player,
    that one included, one last turn."""
    g = start_turns(ams, 2, engine=engine, keep="keep tickets 1,2")
    a = Arranged(ams, g).own(0, "Begijnhof-De drie Hendricken", "Blauwbrug-Montelbaanstoren",
                             "Haringpakkerstoren-Oude Waal").hand(0, pink=2)
    g = a.game(engine)
    assert g.state()["trains"][0] == 4
    g.apply_name("claim Dam-Oude Kerk/2 pink 2pink")
    assert g.state()["final_turns"] == 2


def test_ties_most_contracts_then_shared(ams):
    """Fine della Partita: equal points go to the player with the most contracts completed;
    if still tied the win is shared (docs/rules.md #12)."""
    from railspec.runtime.scoring import winners
    rows = [dict(total=20, tickets_completed=2), dict(total=20, tickets_completed=3)]
    assert winners(ams.ir, rows) == [1]
    rows = [dict(total=20, tickets_completed=3), dict(total=20, tickets_completed=3)]
    assert winners(ams.ir, rows) == [0, 1]


# --- provisional numbers ---------------------------------------------------------------------

def test_loading_the_provisional_map_warns():
    """The spec says its contracts, goods routes and route table are not the printed game's:
    loading it raises a Python warning naming them."""
    with pytest.warns(ProvisionalSpecWarning, match="PROVISIONAL: route points, goods routes"):
        railspec.load("amsterdam")


def test_the_cli_says_provisional_once():
    out = subprocess.run([sys.executable, "-m", "railspec", "simulate", "amsterdam", "--players", "3",
                          "--games", "20", "--quiet"], capture_output=True, text=True, check=True)
    assert out.stderr.count("PROVISIONAL") == 1 and "Amsterdam: 20 random 3-player games" in out.stdout
