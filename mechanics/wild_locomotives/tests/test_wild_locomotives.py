"""Locomotives wild only on some routes (mechanics/wild_locomotives): its statement's errors
and warning, and its rule on the Nordic Countries and Switzerland maps on both engines.

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
from conftest import (
    Arranged,
    add,
    assert_located_error,
    assert_located_warning,
    bad_spec_params,
    edit,
    names,
    start_turns,
)

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


def rid(v, name: str) -> int:
    return v.ir.route_named(name).id


def claim_game(v, engine, players=2, seed=1, market=MARKET, **hand):
    """Player 0 to move with ``hand`` and the given market."""
    g = start_turns(v, players, seed=seed, engine=engine, keep="keep tickets 1,2")
    return Arranged(v, g).hand(0, **hand).faceup(*market)


def claims(game, route: str) -> list[str]:
    """The legal claims of ``route`` (its name without a track suffix matches every track)."""
    return [n for n in names(game) if n.startswith(f"claim {route} ")]


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("wild-unknown-attribute", edit(27, "route Gamma - Delta 4 blue tunnel; locomotives wild only on tunel"),
     C, 27, 61, "'tunel' is not a route attribute (did you mean 'tunnel'?); the route attributes are"),
    ("wild-attribute-twice", edit(27, "route Gamma - Delta 4 blue tunnel; locomotives wild only on tunnel, tunnel"),
     C, 27, 69, "route attribute 'tunnel' is named twice"),
    ("wild-no-attribute", add(9, "locomotives wild only on"), S, 9, 25,
     "expected one of a name, a quoted string; the form is: locomotives wild only on ATTRIBUTE"),
    ("wild-given-twice", add(9, "locomotives wild only on tunnel; locomotives wild only on ferry"), C, 9, 34,
     "'locomotives wild only' is given twice (first at line 9)"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# (id, spec text, line, col, message fragment): content that checks but does nothing, as in
# tests/test_bad_specs.py
WARNING_CASES = [
    ("wild-on-an-attribute-no-route-has",
     add(9, "locomotives wild only on tunnel, ferry").replace("route Gamma - Delta 4 blue",
                                                              "route Gamma - Delta 4 blue tunnel"),
     9, 1, "locomotives are wild on 'ferry' routes, but no route is one"),
]


@pytest.mark.parametrize("text,line,col,fragment", [c[1:] for c in WARNING_CASES],
                         ids=[c[0] for c in WARNING_CASES])
def test_dead_content_is_a_located_warning(tmp_path, text, line, col, fragment):
    """Content that checks but does nothing is a warning: the spec compiles, the warning is
    located like an error, `railspec check` prints it, and `--strict` fails on it."""
    assert_located_warning(tmp_path, text, line, col, fragment)


# --- where locomotives are wild (Nordic Countries) --------------------------------------------

def test_locomotives_are_not_wild_on_plain_routes(nordic, engine):
    """SUMMARY, MAP (locomotiveUsageRestriction: tunnels and ferries): "Locomotives can only be
    used for tunnels and ferries": Göteborg - Oslo (2 orange) and Göteborg - Norrköping (3
    gray) take cards of one colour only."""
    g = claim_game(nordic, engine, orange=1, red=3, loco=3).game(engine)
    assert claims(g, "Göteborg-Oslo") == [] and claims(g, "Göteborg-Norrköping") == ["claim Göteborg-Norrköping gray "
                                                                                     "3red"]
    wild = set(nordic.ir.rule("tunnels").routes) | set(nordic.ir.rule("ferries").routes)
    paying = {nordic.ir.actions[a].route for a in g.legal_actions() if nordic.ir.actions[a].locomotives}
    assert paying and paying <= wild
    catalogue = [a.name for a in nordic.ir.actions if a.kind == "claim" and a.route == rid(nordic, "Göteborg-Oslo")]
    assert catalogue == ["claim Göteborg-Oslo orange 2orange"]


def test_locomotives_are_wild_on_tunnels_and_pay_their_extra_cards(nordic, engine):
    """SUMMARY: "When claiming a tunnel, you may use locomotives as jokers, substituting them
    for cards of the correct color"; Europe's tunnels (3 cards revealed), whose extra cards a
    locomotive may pay."""
    a = claim_game(nordic, engine, yellow=1, loco=2).deck_top("yellow", "pink", "white")
    g = a.game(engine)
    assert claims(g, "Åndalsnes-Lillehammer") == ["claim Åndalsnes-Lillehammer yellow 1yellow+1loco",
                                                  "claim Åndalsnes-Lillehammer yellow 2loco"]
    g.apply_name("claim Åndalsnes-Lillehammer yellow 1yellow+1loco")
    assert g.state()["phase"] == "tunnel" and "tunnel pay 1loco" in names(g)
    g.apply_name("tunnel pay 1loco")
    assert g.state()["owner"][rid(nordic, "Åndalsnes-Lillehammer")] == 0


def test_a_ferry_takes_its_locomotives_and_more_for_its_coloured_spaces(nordic, engine):
    """SUMMARY and FERRIES: a ferry needs a locomotive for each symbol; "You can always play
    an extra locomotive in place of a coloured card" (docs/rules.md #38)."""
    g = claim_game(nordic, engine, red=1, loco=2).game(engine)
    assert claims(g, "Ålborg-Kristiansand") == ["claim Ålborg-Kristiansand red 1red+1loco",
                                                "claim Ålborg-Kristiansand red 2loco"]
    g = claim_game(nordic, engine, red=2).game(engine)
    assert claims(g, "Ålborg-Kristiansand") == []  # a locomotive, or any 3 cards, for the symbol


# --- where locomotives are wild (Switzerland) -------------------------------------------------

def test_locomotives_only_on_tunnels(swiss, engine):
    """REVIEW, MAP (locomotiveUsageRestriction: tunnels): Olten - Zürich (3 white) and Bern -
    Luzern (4 gray) take cards of one colour only; Basel - Olten (2 orange tunnel) takes
    locomotives."""
    g = claim_game(swiss, engine, white=2, red=4, orange=1, loco=3).game(engine)
    assert claims(g, "Olten-Zürich") == []
    assert claims(g, "Bern-Luzern/1") == ["claim Bern-Luzern/1 gray 4red"]
    assert claims(g, "Basel-Olten") == ["claim Basel-Olten orange 1orange+1loco", "claim Basel-Olten orange 2loco"]
    tunnels = set(swiss.ir.rule("tunnels").routes)
    assert all(swiss.ir.actions[a].route in tunnels for a in g.legal_actions() if swiss.ir.actions[a].locomotives)


def test_locomotives_pay_a_tunnels_extra_cards(swiss, engine):
    """WIKI: locomotives "can be used to actually place the route, and to pay off any
    expenses"; SUMMARY: "Any Locomotive card drawn automatically matches the color of the
    cards played on the route, and forces the player to add a card of matching color, or a
    Locomotive"."""
    a = claim_game(swiss, engine, orange=2, loco=2).deck_top("orange", "loco", "pink")
    g = a.game(engine)
    g.apply_name("claim Basel-Olten orange 2orange")
    assert g.state()["phase"] == "tunnel" and "tunnel pay 2loco" in names(g)
    g.apply_name("tunnel pay 2loco")
    s = g.state()
    assert s["owner"][rid(swiss, "Basel-Olten")] == 0 and sum(s["hands"][0]) == 0
