"""Returned tickets leaving the game (mechanics/removed_tickets), on the maps that send them
out: Europe (shared/seeds/000_bb662d8662a85a07.txt, Inizio della partita), Legendary Asia
and Nordic Countries (their sources as tests/test_rules_legendary_asia.py and
tests/test_rules_nordic.py list them: SUMMARY, the maps' rule summaries), on both engines.
"""
from __future__ import annotations

import pytest
from conftest import names, start_turns

import railspec


@pytest.fixture(scope="module")
def europe():
    return railspec.load("europe")


@pytest.fixture(scope="module")
def asia():
    return railspec.load("legendary_asia")


@pytest.fixture(scope="module")
def nordic():
    return railspec.load("nordic_countries")


# --- INIZIO DELLA PARTITA (Europe) ------------------------------------------------------------

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


# --- tickets (Legendary Asia) -----------------------------------------------------------------

def test_set_up_tickets_not_kept_leave_the_game(asia, engine):
    """SUMMARY: "All unchosen initial tickets are discarded" (map.php:
    unusedInitialDestinationsGoToDeckBottom = false): a regular one leaves the game, a long
    one goes back to the box; neither goes under the deck."""
    g = asia.new_game(players=3, seed=5, engine=engine)
    s = g.state()
    deck, box, offers = s["ticket_deck"], s["long_deck"], s["setup_offer"]
    g.apply_name("keep tickets 1,2")
    g.apply_name("keep tickets 2,4")
    g.apply_name("keep tickets 1,2,3,4")
    s = g.state()
    assert s["tickets"] == [offers[0][:2], [offers[1][1], offers[1][3]], offers[2]]
    assert s["tickets_out"] == [offers[0][2], offers[1][0], offers[1][2]]
    assert s["long_deck"] == box + [offers[0][3]] and s["ticket_deck"] == deck


# --- drawing tickets (Nordic Countries) -------------------------------------------------------

def test_three_tickets_drawn_keep_one_and_the_others_leave_the_game(nordic, engine):
    """SUMMARY: "When taking tickets as your turn, you take 3 and must keep at least 1.
    Unwanted tickets are removed from the game, as during setup"."""
    g = start_turns(nordic, 2, engine=engine, keep="keep tickets 1,2")
    out, deck = len(g.state()["tickets_out"]), len(g.state()["ticket_deck"])
    g.apply_name("draw tickets")
    assert "keep tickets 1" in names(g)
    g.apply_name("keep tickets 1")
    s = g.state()
    assert len(s["tickets_out"]) == out + 2 and len(s["ticket_deck"]) == deck - 3
