"""Sets of any cards standing for one card (mechanics/substitutes): its statements' errors, and
its rule on the Nordic Countries map on both engines.

No rulebook of the map is in shared/seeds: the sources are those of
tests/test_rules_nordic.py (spec/nordic_countries.rail's header): SUMMARY, Dan Blum's rules
summary (onedayofsilence.com); FERRIES, boardgames.stackexchange.com question 1849; MAP,
thoun/tickettoride modules/maps/nordiccountries.
"""
from __future__ import annotations

import pytest
from conftest import Arranged, add, assert_located_error, bad_spec_params, checked, edit, names, start_turns

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError
from railspec.compiler.mechanic import stock_registry
from railspec.testing import check_mechanic, sample_spec

S, C = SpecSyntaxError, SpecCheckError

@pytest.fixture(scope="module")
def nordic():
    return railspec.load("nordic_countries")

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
    ("substitute-set-of-one", edit(27, "route Gamma - Delta 4 blue substitute any 1"), C, 27, 43,
     "a set has 2 to 12 cards, got 1"),
    ("substitute-set-too-large", add(9, "substitute any 13 for a required locomotive"), C, 9, 16,
     "a set has 2 to 12 cards, got 13"),
    ("substitute-set-of-none", edit(27, "route Gamma - Delta 4 blue substitute any 0"), C, 27, 43,
     "the cards of a set must be positive, got 0"),
    ("substitute-on-a-tunnel", edit(27, "route Gamma - Delta 4 blue tunnel substitute any 4"), C, 27, 35,
     "no set of any cards may pay for a tunnel"),
    ("substitute-without-a-number", add(9, "substitute any for a required locomotive"), S, 9, 16,
     "unexpected 'for', expected a number; the form is: substitute any N for a required locomotive"),
    # substitute N of one colour for a required locomotive (Northern Lights' ferries)
    ("substitute-of-one-colour-too-large", add(9, "substitute 13 of one colour for a required locomotive"), C, 9,
     12, "a set has 2 to 12 cards, got 13"),
    ("substitute-of-one-colour-single", add(9, "substitute 1 of one colour for a required locomotive"), C, 9, 12,
     "a set has 2 to 12 cards, got 1"),
    ("substitute-both-kinds-of-set", add(9, "substitute any 3 for a required locomotive\n"
                                            "substitute 2 of one colour for a required locomotive"), C, 10, 1,
     "a required locomotive takes sets of any cards or sets of one colour, not both"),
    ("substitute-of-one-colour-beside-the-attribute",
     add(9, "substitute 2 of one colour for a required locomotive").replace(
         "route Gamma - Delta 4 blue", "route Gamma - Delta 4 blue substitute any 4"), C, 28, 28,
     "sets of any cards for a route's colour do not go with sets of one colour for a required locomotive"),
    ("substitute-of-a-colour", add(9, "substitute 2 of a colour for a required locomotive"), S, 9, 17,
     "unexpected 'a', expected 'one'; the form is: substitute any N for a required locomotive | "
     "substitute N of one colour for a required locomotive"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- sets of any cards (Nordic Countries) -----------------------------------------------------

def test_any_three_cards_for_a_ferry_locomotive(nordic, engine):
    """FERRIES: "You can always use any 3 cards in place of a locomotive"; MAP (routes.php:
    canPayWithAnySetOfCards = 3 on every ferry). The player gives the 3 cards one at a time,
    in card order, and the last completes the claim (docs/rules.md #37)."""
    g = claim_game(nordic, engine, red=1, blue=2, green=1).game(engine)
    assert claims(g, "Ålborg-Kristiansand") == ["claim Ålborg-Kristiansand red 1red+3any"]
    g.apply_name("claim Ålborg-Kristiansand red 1red+3any")
    s = g.state()
    assert s["phase"] == "substitute" and s["substitute_left"] == 3 and g.current_player == 0
    # blue, blue, green in card order (pink white blue yellow orange black red green loco):
    # a green first would leave the blues below it
    assert names(g) == ["substitute blue"]
    g.apply_name("substitute blue")
    assert names(g) == ["substitute blue"]
    g.apply_name("substitute blue")
    assert names(g) == ["substitute green"]
    discards = list(g.state()["discard"])
    g.apply_name("substitute green")
    s = g.state()
    assert s["owner"][rid(nordic, "Ålborg-Kristiansand")] == 0 and s["current"] == 1 and sum(s["hands"][0]) == 0
    assert s["route_score"][0] == 2 and s["trains"][0] == 38
    paid = [s["discard"][c] - discards[c] for c in range(len(discards))]
    assert sum(paid) == 4 and s["substitute_route"] == -1 and not any(s["substitute_held"])


def test_sets_need_the_cards_they_stand_for(nordic, engine):
    """FERRIES: three cards stand for one locomotive: a hand of a red and two others cannot
    claim the red 2-space ferry; a second set pays for a ferry's second locomotive (Åndalsnes
    - Bergen, 5 black, 2 symbols: 3 black and 6 any cards)."""
    g = claim_game(nordic, engine, red=1, blue=2).game(engine)
    assert claims(g, "Ålborg-Kristiansand") == []
    g = claim_game(nordic, engine, black=3, green=4, pink=2).game(engine)
    assert claims(g, "Åndalsnes-Bergen") == ["claim Åndalsnes-Bergen black 3black+6any"]
    g.apply_name("claim Åndalsnes-Bergen black 3black+6any")
    for card in ["pink", "pink", "green", "green", "green", "green"]:
        assert names(g)[0] == f"substitute {card}"
        g.apply_name(f"substitute {card}")
    assert g.state()["owner"][rid(nordic, "Åndalsnes-Bergen")] == 0


def test_murmansk_lieksa_any_four_cards_for_a_card(nordic, engine):
    """SUMMARY: "When claiming this route, you may play any 4 cards (they do not have to match
    each other) as a joker substituting for each card of your chosen color you do not have …
    You may not play locomotives on this route, except as part of a set of 4"; MAP (routes.php:
    canPayWithAnySetOfCards: 4; the route table's 9:27)."""
    g = claim_game(nordic, engine, blue=8, loco=4).game(engine)
    assert claims(g, "Murmansk-Lieksa") == ["claim Murmansk-Lieksa gray 8blue+4any"]
    g.apply_name("claim Murmansk-Lieksa gray 8blue+4any")
    assert names(g) == ["substitute loco"]
    for _ in range(4):
        g.apply_name("substitute loco")
    s = g.state()
    assert s["owner"][rid(nordic, "Murmansk-Lieksa")] == 0 and s["route_score"][0] == 27 and s["trains"][0] == 31
    catalogue = [a.name for a in nordic.ir.actions if a.kind == "claim" and a.route == rid(nordic, "Murmansk-Lieksa")]
    assert len(catalogue) == 73 and not any("loco" in n for n in catalogue)
    assert "claim Murmansk-Lieksa gray 36any" in catalogue


def test_no_set_pays_for_a_tunnel(nordic, engine):
    """SUMMARY, tunnels: "You may not use any 3 or 4 cards as a joker"."""
    tunnels = nordic.ir.rule("tunnels").routes
    assert not any("any" in a.name for a in nordic.ir.actions if a.kind == "claim" and a.route in tunnels)
    g = claim_game(nordic, engine, yellow=1, pink=3).game(engine)
    assert claims(g, "Åndalsnes-Lillehammer") == []


def test_a_claim_waiting_for_its_any_cards_is_checked(nordic, engine):
    """docs/engine.md, "Sets of any cards": a state whose any cards due do not add up to a
    payment of the route is refused, on either engine."""
    g = claim_game(nordic, engine, red=1, blue=2, green=1).game(engine)
    g.apply_name("claim Ålborg-Kristiansand red 1red+3any")
    state = g.state()
    assert nordic.game_from_state(state, engine=engine).state() == state
    bad = dict(state, substitute_left=2)
    with pytest.raises(railspec.StateError, match="not one of its payments"):
        nordic.game_from_state(bad, engine=engine)


ADAPTATION = """\
extends "{nordic}"
variant "Nordic Countries, any 3 cards for any card of a ferry"
without route Ålborg - Kristiansand
route Ålborg - Kristiansand 2 red ferry 1 substitute any 3
"""


def test_the_adaptations_reading_any_three_cards_for_any_card_of_a_ferry(tmp_path):
    """docs/rules.md #37: thoun/tickettoride lets a set of any 3 cards stand for any card of a
    ferry (routes.php canPayWithAnySetOfCards = 3, "number of any cards you can use to replace
    a color card"), where the rule texts name only the locomotive. A spec says so by giving a
    ferry the route attribute beside the statement. Each payment is offered once (a set for
    the red card while the locomotive is paid by a locomotive is the same claim as a set for
    the locomotive with a locomotive on the red space), and both engines play it alike."""
    path = tmp_path / "nordic_adaptation.rail"
    path.write_text(ADAPTATION.format(nordic=railspec.compiler.stock_path("nordic_countries")), encoding="utf-8")
    v = railspec.load(path)
    claims = [a.name.split(" ", 3)[3] for a in v.ir.actions if a.name.startswith("claim Ålborg-Kristiansand ")]
    assert len(claims) == len(set(claims))
    assert {"1red+1loco", "2loco", "1red+3any", "1loco+3any", "6any"} == set(claims)
    report = railspec.tools.conformance.run(v, range(4), lambda seed: 2 + seed % 2)
    assert report.ok, report.problems[:3]


def test_two_claims_of_one_name_are_refused(tmp_path):
    """Two payment blocks offering one payment would give two actions one name: the
    catalogue refuses it, naming the action (a fault of a mechanic's payment shapes)."""
    from railspec.compiler import catalogue, ir
    from railspec.compiler.mechanic import Payments

    variant = railspec.load("usa").ir
    shapes = [ir.PaymentShape(base_locomotives=0, plain=1), ir.PaymentShape(base_locomotives=0, plain=1)]

    class Twice(Payments):
        name = "twice"

        def payment_shapes(self, variant, rule, route, given):
            return shapes if route.length == 1 else given

    with pytest.raises(ValueError, match=r"two actions are named 'claim .*' .*mechanics that reshape payments: twice"):
        catalogue.build(variant, [], [(Twice(), None)])


# --- sets of one colour (Northern Lights), under the contract ------------------------------------

def test_sets_of_one_colour_keep_the_contract():
    """The contract check (railspec.testing) on the form the sample does not write: the small
    map with a ferry of one symbol on every route, each symbol paid by a locomotive or two
    cards of one colour; both engines, every decision."""
    registry = stock_registry()
    text = sample_spec(registry.by_name["ferries"]) + "substitute 2 of one colour for a required locomotive\n"
    assert checked(text).rule("substitutes").matching
    report = check_mechanic(registry.by_name["substitutes"], spec_text=text, games=4)
    assert report.ok and report.decisions > 100
