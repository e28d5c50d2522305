"""A face-up locomotive counts as one card (mechanics/locomotive_draws): its statement's
errors, and its rule on the Nordic Countries and Switzerland maps on both engines.

No rulebook of the map is in shared/seeds: the sources are those of
tests/test_rules_nordic.py (spec/nordic_countries.rail's header): SUMMARY, Dan Blum's rules
summary (onedayofsilence.com); FERRIES, boardgames.stackexchange.com question 1849; MAP,
thoun/tickettoride modules/maps/nordiccountries.
Switzerland's sources are those of tests/test_rules_switzerland.py
(spec/switzerland.rail's header): SHEET, Days of Wonder's rules sheet for the Swiss map;
SUMMARY, Universal Head's rules summary; REVIEW, the islaythedragon.com review; WIKI,
ticket-to-ride.fandom.com/wiki/Switzerland; BGG, boardgamegeek.com thread 750095; MAP,
thoun/tickettoride modules/maps/switzerland.
"""
from __future__ import annotations

import pytest
from conftest import Arranged, add, assert_located_error, bad_spec_params, names, start_turns

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError

S, C = SpecSyntaxError, SpecCheckError

@pytest.fixture(scope="module")
def nordic():
    return railspec.load("nordic_countries")


@pytest.fixture(scope="module")
def swiss():
    return railspec.load("switzerland")

MARKET = ("pink", "white", "blue", "orange", "black")  # no locomotive, no colour of the tests' routes


def claim_game(v, engine, players=2, seed=1, market=MARKET, **hand):
    """Player 0 to move with ``hand`` and the given market."""
    g = start_turns(v, players, seed=seed, engine=engine, keep="keep tickets 1,2")
    return Arranged(v, g).hand(0, **hand).faceup(*market)


def claims(game, route: str) -> list[str]:
    """The legal claims of ``route`` (its name without a track suffix matches every track)."""
    return [n for n in names(game) if n.startswith(f"claim {route} ")]


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("market-locomotive-twice", add(9, "market locomotive counts as one card; market locomotive counts as one card"),
     C, 9, 39, "'market locomotive counts' is given twice (first at line 9)"),
    ("market-locomotive-cut-short", add(9, "market locomotive counts as one"), S, 9, 32,
     "unexpected end of line, expected 'card'; the form is: market locomotive counts as one card"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- drawing train cards (Nordic Countries) ---------------------------------------------------

def test_a_faceup_locomotive_is_one_card_of_the_draw(nordic, engine):
    """SUMMARY: "locomotives are treated just like colored cards – you may take a second card
    (including another locomotive) after taking a face-up locomotive"; MAP:
    visibleLocomotivesCountsAsTwoCards = false."""
    g = claim_game(nordic, engine, market=("loco", "pink", "loco", "white", "blue")).game(engine)
    g.apply_name("draw faceup loco")
    assert g.state()["phase"] == "second_draw" and g.current_player == 0
    assert "draw faceup loco" in names(g)  # the other face-up locomotive may be the second card
    g.apply_name("draw faceup loco")
    s = g.state()
    assert s["hands"][0][len(nordic.colours)] == 2 and s["current"] == 1


# --- drawing train cards (Switzerland) --------------------------------------------------------

def test_a_faceup_locomotive_is_one_card_of_the_draw_switzerland(swiss, engine):
    """REVIEW: "Drawing a face-up locomotive card counts as only one draw (instead of two)";
    WIKI: "when a locomotive is face-up, it counts as one card, instead of two"; MAP
    (visibleLocomotivesCountsAsTwoCards = false)."""
    g = claim_game(swiss, engine, market=("loco", "pink", "white", "blue", "orange")).game(engine)
    g.apply_name("draw faceup loco")
    assert g.state()["phase"] == "second_draw" and g.current_player == 0
    g.apply_name("draw blind")
    assert g.current_player == 1
