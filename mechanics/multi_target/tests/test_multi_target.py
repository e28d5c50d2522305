"""Tickets to one of several destinations (mechanics/multi_target): its statement's errors, and
its rule on the Switzerland map in both scorers and on both engines.

Switzerland's sources are those of tests/test_rules_switzerland.py
(spec/switzerland.rail's header): SHEET, Days of Wonder's rules sheet for the Swiss map;
SUMMARY, Universal Head's rules summary; REVIEW, the islaythedragon.com review; WIKI,
ticket-to-ride.fandom.com/wiki/Switzerland; BGG, boardgamegeek.com thread 750095; MAP,
thoun/tickettoride modules/maps/switzerland.
"""
from __future__ import annotations

import pytest
from conftest import Arranged, add, assert_located_error, bad_spec_params, edit, score_both, start_turns

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError

S, C = SpecSyntaxError, SpecCheckError

@pytest.fixture(scope="module")
def swiss():
    return railspec.load("switzerland")


BERN = "Bern-France|Deutschland|Österreich|Italia"
FRANCE = "France-Deutschland|Österreich|Italia"
# France to Italia through Martigny, Sion and Brig
FRANCE_TO_ITALIA = ["Martigny-France", "Martigny-Sion", "Brig-Sion", "Brig-Italia"]


def score(v, *seats):
    """Both scorers on a position: the compiled one's rows, checked against the reference."""
    return score_both(v, {"variant": "switzerland", "players": list(seats)})


def ticket(v, name: str):
    return v.ir.ticket_named(name)


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("either-one-destination", add(30, "ticket either Alpha - Gamma:5"), S, 30, 30, "expected '|'"),
    ("either-without-a-colon", add(30, "ticket either Alpha - Gamma 5 | Delta:6"), S, 30, 29,
     "unexpected '5', expected ':'"),
    ("either-destination-twice", add(30, "ticket either Alpha - Gamma:5 | Gamma:6"), C, 30, 33,
     "destination 'Gamma' is given twice"),
    ("either-to-itself", add(30, "ticket either Alpha - Gamma:5 | Alpha:6"), C, 30, 1,
     "ticket from 'Alpha' to itself"),
    ("either-unknown-destination", add(30, "ticket either Alpha - Gama:5 | Delta:6"), C, 30, 23,
     "unknown city 'Gama' in ticket (did you mean 'Gamma'?)"),
    ("either-zero-points", add(30, "ticket either Alpha - Gamma:0 | Delta:6"), C, 30, 29,
     "ticket points must be positive, got 0"),
    ("either-unreachable", edit(26, "zone Ozone; route Beta - Ozone 3 gray; route Ozone - Gamma 3 gray; "
                                    "ticket either Alpha - Gamma:5 | Delta:3"), C, 26, 68,
     "ticket Alpha - Gamma | Delta can never be completed: no chain of routes joins Alpha to any of its "
     "destinations (a zone is a dead end: no chain passes through one)"),
    ("either-twice-in-another-order",
     add(30, "ticket either Alpha - Gamma:5 | Delta:6; ticket either Alpha - Delta:6 | Gamma:5"), C, 30, 42,
     "duplicate ticket Alpha - Delta:6 | Gamma:5 (already declared at line 30)"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- tickets to one of several destinations (Switzerland) -------------------------------------

ITALIA = "Italia-France|Deutschland|Österreich"
# Bern to Deutschland (through Solothurn, Olten and Basel) and to Italia (through Interlaken and Brig)
TO_DEUTSCHLAND = ["Bern-Solothurn", "Olten-Solothurn", "Basel-Olten", "Basel-Deutschland"]
TO_ITALIA = ["Bern-Interlaken", "Brig-Interlaken", "Brig-Italia"]


def test_a_ticket_scores_its_best_destination_joined(swiss):
    """BGG: "You score the points of the best connection you make on the ticket"; SHEET: "To
    complete a city-to-country ticket you must connect from the city to any one of the
    countries"; MAP (EndScore.php: the highest completed value): Bern joined to Deutschland
    (6) and Italia (8) scores 8 (docs/rules.md #41)."""
    rows = score(swiss, {"routes": TO_DEUTSCHLAND + TO_ITALIA, "tickets": [BERN]}, {"routes": [], "tickets": []})
    assert rows[0]["tickets"] == 8 and rows[0]["tickets_completed"] == 1
    rows = score(swiss, {"routes": TO_DEUTSCHLAND, "tickets": [BERN]}, {"routes": [], "tickets": []})
    assert rows[0]["tickets"] == 6


def test_an_incomplete_ticket_loses_its_fewest_points(swiss):
    """BGG: "if the ticket is left incomplete, you only lose the minimum amount listed on the
    ticket"; MAP ("If you don't complete any, you will lose the lowest"): Bern's lowest is
    France's 5, Lugano's Italia's 2."""
    lugano = "Lugano-France|Deutschland|Österreich|Italia"
    rows = score(swiss, {"routes": ["Bern-Solothurn"], "tickets": [BERN, lugano]}, {"routes": [], "tickets": []})
    assert rows[0]["tickets"] == -5 - 2 and rows[0]["tickets_completed"] == 0


def test_country_to_country_tickets_and_their_copies(swiss):
    """SHEET and BGG ("you can complete 2 types of tickets … with one path between the two
    countries. Some country-to-country tickets are exactly repeated in the deck"): one path
    from France to Italia completes both copies of France's ticket and Italia's, 11 each."""
    rows = score(swiss, {"routes": FRANCE_TO_ITALIA, "tickets": [FRANCE, FRANCE + "/2", ITALIA]},
                 {"routes": [], "tickets": []})
    assert rows[0]["tickets"] == 33 and rows[0]["tickets_completed"] == 3


def test_several_destination_tickets_in_play(swiss, engine):
    """The same scoring in a game: a player holding only Bern's ticket, whose routes join Bern
    to Italia, scores 8 for it on either engine, and completed_tickets lists it."""
    g = start_turns(swiss, 2, engine=engine, keep="keep tickets 1,2")
    a = Arranged(swiss, g)
    s, bern = a.state, ticket(swiss, BERN).id
    for pile in (s["ticket_deck"], s["tickets_out"], s["tickets"][0], s["tickets"][1]):
        if bern in pile:
            pile.remove(bern)
    s["tickets_out"].extend(s["tickets"][0])
    s["tickets"][0] = [bern]
    g = a.own(0, *TO_ITALIA).game(engine)
    assert g.completed_tickets(0) == [bern]
    row = g.score_breakdown()[0]
    assert (row["tickets"], row["tickets_completed"]) == (8, 1)
