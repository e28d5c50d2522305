"""A tunnel with a wave space paid by a ferry card (docs/rules.md #43): tunnels and ferry
cards in one spec, which no stock map has. Found by a fuzz campaign: such a claim reached
states its own loader refused; now the ferry cards wait with the claim, come back when it
is given up, and are spent when it completes, on both engines."""
from __future__ import annotations

import pytest
from conftest import ENGINES, Arranged, start_turns

import railspec

SPEC = """\
variant "Tunnel ferries"
players 2..2
trains 12
hand 4
card red 12
card blue 12
locomotives 14
market 5 reset 3 locomotives
deal tickets 2 keep 1
returned tickets bottom
action draw cards 2
action claim route
action draw tickets 3 keep 1
end when trains <= 2
route points 1:1 2:2 3:4 4:7
tunnels reveal 3
ferry cards 10 max 2
action draw ferry card
city Alpha
city Beta
city Gamma
route Alpha - Beta 2 gray waves 1 tunnel
route Beta - Gamma 3 red
ticket Alpha - Gamma 5
ticket Alpha - Beta 3
ticket Beta - Gamma 4
ticket Gamma - Alpha 6
"""


@pytest.fixture(scope="module")
def variant(tmp_path_factory):
    path = tmp_path_factory.mktemp("spec") / "tunnel_ferries.rail"
    path.write_text(SPEC, encoding="utf-8")
    return railspec.load(path)


def _tunnel_claim(variant, engine, reds: int = 1):
    """Player 0 to move, holding ``reds`` red cards, three blue ones and a ferry card, with
    three red cards on top of the deck: claiming the tunnel with one red card and the ferry
    card reveals three reds, and 3 more red cards are due."""
    g = start_turns(variant, 2, engine=engine, keep="keep tickets 1")
    arranged = Arranged(variant, g).hand(0, red=reds, blue=3).deck_top("red", "red", "red")
    state = arranged.state
    state["ferry_cards"][0] += 1
    state["ferry_pile"] -= 1
    g = variant.game_from_state(state, engine=engine)
    g.apply_name("claim Alpha-Beta gray 1red+1ferry")
    assert g.state()["phase"] == "tunnel"
    return g


@pytest.mark.parametrize("engine", ENGINES)
def test_the_ferry_card_waits_with_the_claim_and_the_state_loads(variant, engine):
    g = _tunnel_claim(variant, engine)
    state = g.state()
    assert state["ferry_committed"] == 1 and state["ferry_cards"][0] == 0
    assert state["tunnel_committed"][variant.ir.colours[0].id] == 1
    again = variant.game_from_json(g.to_json(), engine=engine)
    assert again.to_json() == g.to_json()


@pytest.mark.parametrize("engine", ENGINES)
def test_giving_the_tunnel_up_gives_the_ferry_card_back(variant, engine):
    g = _tunnel_claim(variant, engine)
    g.apply_name("tunnel decline")
    state = g.state()
    assert state["ferry_cards"][0] == 1 and state["ferry_committed"] == 0 and state["ferry_pile"] == 9
    assert state["hands"][0][variant.ir.colours[0].id] == 1
    assert state["owner"][0] == -1


@pytest.mark.parametrize("engine", ENGINES)
def test_completing_the_tunnel_spends_the_ferry_card(variant, engine):
    g = _tunnel_claim(variant, engine)
    assert [g.action_name(a) for a in g.legal_actions()] == ["tunnel decline"], "3 reds due, none in hand"
    g = _tunnel_claim(variant, engine, reds=4)
    pays = [a for a in g.legal_actions() if g.action_name(a) != "tunnel decline"]
    assert len(pays) == 1
    g.apply(pays[0])
    state = g.state()
    assert state["owner"][0] == 0 and state["ferry_committed"] == 0
    assert state["ferry_cards"][0] == 0 and state["ferry_pile"] == 10, "spent ferry cards return to the pile"


def test_a_spec_without_tunnels_keeps_its_state_as_it_was():
    """Italy has ferry cards and no mechanic holding claims: no ferry_committed field."""
    italy = railspec.load("italy")
    assert "ferry_committed" not in italy.new_game(players=2, seed=1).state()
