"""The draw bonus (mechanics/draw_bonus): its route attribute's errors and its rule beside a
held claim. The map's own play tests are in tests/test_rules_northern_lights.py (SUMMARY:
thoun/tickettoride northernlights/map.php rulesDifferences, "After claiming a route with a
+X drawing bonus, draw X Train Car cards from the top of the deck")."""
from __future__ import annotations

import pytest
from conftest import Arranged, assert_located_error, bad_spec_params, checked, edit, names, start_turns

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError
from railspec.playtest import agents
from railspec.playtest.agents.tables import policy_tables

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


# --- the agents --------------------------------------------------------------------------

def test_a_claim_with_a_draw_bonus_is_worth_its_cards_to_the_styles():
    """AgentPlay.worth: the policy's worth of a route is its points and half a point a card
    drawn, in quarter points; a stock map's is its points alone."""
    nl = railspec.load("northern_lights")
    worth = policy_tables(nl.ir)["route_worth"]
    coast = nl.ir.route_named("Mo i Rana-Trondheim/1")  # 5 spaces, draw 3
    assert worth[coast.id] == 4 * nl.ir.route_points[5] + 4 * 3 // 2
    plain = nl.ir.route_named("Helsinki-Turku")
    assert worth[plain.id] == 4 * nl.ir.route_points[1]
    usa = railspec.load("usa").ir
    assert policy_tables(usa)["route_worth"] == [4 * p for p in policy_tables(usa)["route_points"]]


def test_greedy_takes_the_claim_drawing_cards_among_equals(engine):
    """A hand of one locomotive pays any 1-space route, each claim scoring 1 point and none
    completing a ticket: greedy took the lowest id (Ålborg-Århus); the draw bonus of
    Åndalsnes-Trondheim (a ferry of one symbol, draw 1) makes it the one taken. The bonus
    cards dealt are ones no claim decides (the cards counting routes or countries would make
    their routes worth more to the styles: bonus_cards/agents.py)."""
    nl = railspec.load("northern_lights")
    titles = [card.title for card in nl.ir.rule("bonus_cards").cards]
    quiet = [titles.index(t) for t in ("Call of the wild", "Cost efficiency", "Nordic Express", "Local network")]
    game = Arranged(nl, start_turns(nl, 2, engine=engine, keep="keep tickets 1,2")).hand(0, loco=1).set(
        bonus_cards=quiet).game(engine)
    assert "claim Ålborg-Århus/1 red 1loco" in names(game)
    choice = agents.make("greedy", seed=1).act(game)
    assert nl.actions[choice].name == "claim Åndalsnes-Trondheim/1 gray 1loco"
