"""The draw bonus (mechanics/draw_bonus): its route attribute's errors and its rule beside a
held claim. The map's own play tests are in tests/test_rules_northern_lights.py (SUMMARY:
thoun/tickettoride northernlights/map.php rulesDifferences, "After claiming a route with a
+X drawing bonus, draw X Train Car cards from the top of the deck")."""
from __future__ import annotations

import pytest
from conftest import Arranged, assert_located_error, bad_spec_params, checked, edit, start_turns

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError

S, C = SpecSyntaxError, SpecCheckError


def test_the_attribute():
    """``draw N`` on a route: the rule records the route and its cards."""
    v = checked(edit(27, "route Gamma - Delta 4 blue draw 2"))
    route = v.route_named("Gamma-Delta")
    assert v.rule("draw_bonus").of(route.id) == 2 and "draw_bonus" in v.mechanics


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("draw-bonus-zero", edit(27, "route Gamma - Delta 4 blue draw 0"), C, 27, 33,
     "a route's draw bonus is 1 to 10 cards, got 0"),
    ("draw-bonus-too-many", edit(27, "route Gamma - Delta 4 blue draw 11"), C, 27, 33,
     "a route's draw bonus is 1 to 10 cards, got 11"),
    ("draw-bonus-no-number", edit(27, "route Gamma - Delta 4 blue draw"), S, 27, 32,
     "expected a number"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# Northern Lights with one route drawing more cards than its claim pays (the map's own never
# do: each pays at least the cards it draws)
GREEDY = """extends "northern_lights"
variant "Northern Lights, a greedy ferry"
without route Åndalsnes - Trondheim
route Åndalsnes - Trondheim 1 gray ferry 1 draw 3
"""


@pytest.fixture(scope="module")
def greedy(tmp_path_factory):
    path = tmp_path_factory.mktemp("greedy") / "greedy.rail"
    path.write_text(GREEDY, encoding="utf-8")
    return railspec.load(path)


def test_cards_the_piles_cannot_give_are_not_drawn(greedy, engine):
    """docs/rules.md #47: the bonus is drawn once the claim's payment is on the discards, the
    discards reshuffled into an empty deck; cards neither pile holds are not drawn. Every card
    but the claimer's locomotive is in the other player's hand: the claim's locomotive comes
    back, and the other two bonus cards are not drawn."""
    arranged = Arranged(greedy, start_turns(greedy, 2, engine=engine, keep="keep tickets 1,2")).hand(0, loco=1)
    s = arranged.state
    for card in s["deck"]:
        s["hands"][1][card] += 1
    s["deck"] = []
    for card, n in enumerate(s["discard"]):
        s["hands"][1][card] += n
        s["discard"][card] = 0
    g = arranged.game(engine)
    g.apply_name("claim Åndalsnes-Trondheim gray 1loco")
    s = g.state()
    assert s["hands"][0][arranged.loco] == 1 and sum(s["hands"][0]) == 1
    assert s["bonus_drawn"][0] == 1 and s["deck"] == [] and not any(s["discard"])
