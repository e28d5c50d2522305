"""Shared claims beside other mechanics: the United Kingdom's Right of Way (docs/rules.md
#67) in specs that also have mountain routes (Legendary Asia's, #35), ferry cards and wave
spaces (Italy's, #14) or tunnels (Europe's), which no map combines. A shared claim is a claim of the route: it
takes what any claim of it takes (a mountain's crossings, docs/rules.md #87; ferry cards,
#88), and the other mechanics count its second owner (the core's ``route_owned_by``). Every
step runs on both engines, which must agree on the whole state, and every state loads."""
from __future__ import annotations

import pytest
from conftest import ENGINES, Arranged, score_both, start_turns

import railspec
from railspec.compiler.mechanic import stock_registry
from railspec.runtime.position import position_fields, position_of_state
from railspec.runtime.state_format import StateError
from railspec.testing import check_pair

HEAD = """\
variant "{name}"
players 2..2
trains 10
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
technology "Right of Way" costs 4 copies 1 claims owned routes
city Alpha
city Beta
city Gamma
city Delta
ticket Alpha - Gamma 5
ticket Alpha - Beta 3
ticket Beta - Gamma 4
ticket Gamma - Delta 6
"""

MOUNTAINS = HEAD.format(name="Shared mountains") + """\
route Alpha - Beta 2 gray mountain 1
route Beta - Gamma 3 red
route Gamma - Delta 4 blue
route Delta - Alpha 4 red
"""

FERRIES = HEAD.format(name="Shared ferries") + """\
technology sets of 4
ferry cards 10 max 2
action draw ferry card
route Alpha - Beta 3 gray waves 3
route Beta - Gamma 3 red
route Gamma - Delta 2 blue
"""

MARKET = ("red", "blue", "red", "blue", "red")  # no locomotive: no market reset in the way


def load(tmp_path_factory, name: str, text: str):
    path = tmp_path_factory.mktemp("spec") / f"{name}.rail"
    path.write_text(text, encoding="utf-8")
    return railspec.load(path)


@pytest.fixture(scope="module")
def mountains(tmp_path_factory):
    return load(tmp_path_factory, "shared_mountains", MOUNTAINS)


@pytest.fixture(scope="module")
def ferries(tmp_path_factory):
    return load(tmp_path_factory, "shared_ferries", FERRIES)


def arranged(v, mine=(), theirs=("Alpha-Beta",), ferry_cards=0, **hand) -> dict:
    """Player 0 to move with ``hand`` and ``ferry_cards``, owning ``mine``; player 1 owning
    ``theirs``; each player's trains those their routes leave (crossings included)."""
    g = start_turns(v, 2, keep="keep tickets 1")
    state = Arranged(v, g).hand(0, **hand).hand(1).faceup(*MARKET).own(0, *mine).own(1, *theirs).state
    crossings = dict(next((r.crossings for r in v.ir.rules if r.mechanic == "mountains"), ()))
    for player, routes in enumerate((mine, theirs)):
        state["trains"][player] -= sum(crossings.get(v.ir.route_named(name).id, 0) for name in routes)
    if ferry_cards:
        state["ferry_cards"][0] += ferry_cards
        state["ferry_pile"] -= ferry_cards
    return state


def play(v, state: dict, *moves: str) -> dict:
    """The moves from ``state`` on both engines, which agree on the legal moves and the
    state at every step (each state loading again); the compiled engine's game at the end."""
    games = [v.game_from_state(state, engine=engine) for engine in ENGINES]
    for move in moves:
        legal = [[g.action_name(a) for a in g.legal_actions()] for g in games]
        assert legal[0] == legal[1] and move in legal[0], (move, legal)
        for g in games:
            g.apply_name(move)
        states = [g.state() for g in games]
        assert states[0] == states[1]
        for engine in ENGINES:
            assert v.game_from_state(states[0], engine=engine).state() == states[0]
    assert games[0].score_breakdown() == games[1].score_breakdown()
    return {engine: g for engine, g in zip(ENGINES, games)}


def claims(v, state: dict, engine: str) -> list[str]:
    g = v.game_from_state(state, engine=engine)
    return [g.action_name(a) for a in g.legal_actions()]


# --- mountains --------------------------------------------------------------------------------

def test_a_shared_mountain_route_takes_its_crossings_from_the_second_owner(mountains):
    """docs/rules.md #87: Right of Way's claim is paid and placed as any claim of the route
    (#67), and a claim of a mountain route puts one more train out of the game per cross,
    each scoring 2 at the end (#35); the route is a mountain route of both its owners."""
    v = mountains
    r = v.ir.route_named("Alpha-Beta").id
    state = arranged(v, loco=4, red=2)
    games = play(v, state, "buy technology Right of Way 4loco", "claim Alpha-Beta gray 2red")
    s = games["compiled"].state()
    assert s["owner"][r] == 1 and s["technology_shared"][r] == 0
    assert s["trains"] == [10 - 2 - 1, 10 - 2 - 1] and s["current"] == 1
    rows = games["compiled"].score_breakdown()
    for row in rows:
        assert (row["mountain_routes"], row["mountain_trains"], row["mountain_points"]) == (1, 1, 2)
    assert rows[0]["technology_shared_routes"] == 2 and rows[0]["routes"] == 0
    # the trains check counts the crossings for the second owner too
    broken = dict(s, trains=[s["trains"][0] + 1, s["trains"][1]])
    for engine in ENGINES:
        with pytest.raises(StateError, match="trains"):
            v.game_from_state(broken, engine=engine)


def test_a_shared_mountain_route_needs_the_trains_for_its_crossings(mountains):
    """docs/rules.md #87, #35 ("you must have enough Train Cars to place and discard"): with
    3 trains left the route of 2 spaces and 1 cross may be shared (Right of Way is bought only
    when such a claim is possible, #68); with 2 left it may not, and Right of Way is not
    offered."""
    v = mountains
    enough = arranged(v, mine=("Beta-Gamma", "Gamma-Delta"), loco=4, red=2)
    short = arranged(v, mine=("Gamma-Delta", "Delta-Alpha"), loco=4, red=2)
    assert (enough["trains"][0], short["trains"][0]) == (3, 2)
    for engine in ENGINES:
        assert "buy technology Right of Way 4loco" in claims(v, enough, engine)
        assert not [n for n in claims(v, short, engine) if "Right of Way" in n]
    games = play(v, enough, "buy technology Right of Way 4loco", "claim Alpha-Beta gray 2red")
    assert games["reference"].state()["trains"][0] == 0


def test_a_described_position_counts_a_shared_routes_trains(mountains):
    """docs/formats.md's positions: a shared route (technology_shared) takes its trains and
    crossings from its second owner too, and scores its crossings for both (#87); the
    position of the state scores as the state does, in both scorers."""
    v = mountains
    games = play(v, arranged(v, loco=4, red=2), "buy technology Right of Way 4loco", "claim Alpha-Beta gray 2red")
    state = games["compiled"].state()
    position = position_of_state(v.ir, state)
    assert position_fields(v.ir, position)["trains"] == state["trains"]
    rows = score_both(v, position)
    assert [{k: x for k, x in row.items() if k != "winner"} for row in rows] == [
        {k: x for k, x in row.items() if k != "winner"} for row in games["compiled"].score_breakdown()]


# --- ferry cards ------------------------------------------------------------------------------

def test_a_shared_ferry_claim_spends_its_ferry_cards(ferries):
    """docs/rules.md #88: a shared claim of a route with wave spaces is paid as any claim of
    it (#67), a ferry card covering two wave spaces (Italy, Controlar uma Rota), and the ferry
    cards spent go back to the ferry pile (#14) as the claim completes."""
    v = ferries
    r = v.ir.route_named("Alpha-Beta").id
    state = arranged(v, ferry_cards=2, loco=4)
    games = play(v, state, "buy technology Right of Way 4loco", "claim Alpha-Beta gray 2ferry")
    s = games["reference"].state()
    assert s["owner"][r] == 1 and s["technology_shared"][r] == 0 and s["trains"][0] == 10 - 3
    assert s["ferry_cards"][0] == 0 and s["ferry_committed"] == 0 and s["ferry_pile"] == 10


def test_a_shared_ferry_claim_held_for_its_sets_spends_its_ferry_cards_as_it_completes(ferries):
    """docs/rules.md #88, #63: a shared claim paying a set for a wave space's locomotive waits
    in the phase technology_set for the set's cards, the ferry card it paid held with it
    (ferry_committed, as a tunnel holds one, #43); the set's last card completes the claim on
    the owned route, and the ferry card is spent then."""
    v = ferries
    r = v.ir.route_named("Alpha-Beta").id
    state = arranged(v, ferry_cards=1, loco=4, blue=4)
    games = play(v, state, "buy technology Right of Way 4loco", "claim Alpha-Beta gray 1ferry+1set")
    s = games["reference"].state()
    assert s["phase"] == "technology_set" and s["technology_route"] == r
    assert s["ferry_committed"] == 1 and s["ferry_cards"][0] == 0 and s["ferry_pile"] == 9
    games = play(v, s, *["set blue"] * 4)
    s = games["compiled"].state()
    assert s["owner"][r] == 1 and s["technology_shared"][r] == 0 and s["current"] == 1
    assert s["ferry_committed"] == 0 and s["ferry_pile"] == 10 and s["trains"][0] == 10 - 3


# --- tunnels ------------------------------------------------------------------------------------

TUNNELS = HEAD.format(name="Shared tunnels") + """\
tunnels reveal 3
route Alpha - Beta 2 red tunnel
route Beta - Gamma 3 red
route Gamma - Delta 2 blue
"""


@pytest.fixture(scope="module")
def tunnels(tmp_path_factory):
    return load(tmp_path_factory, "shared_tunnels", TUNNELS)


def tunnel_claim(v, reds: int) -> dict:
    """Player 0 buys Right of Way and claims player 1's tunnel with 2 red cards, holding
    ``reds`` more; the three cards revealed are red: 3 more are due."""
    g = start_turns(v, 2, keep="keep tickets 1")
    state = (Arranged(v, g).hand(0, loco=4, red=2 + reds).hand(1).faceup(*MARKET).deck_top("red", "red", "red")
             .own(1, "Alpha-Beta").state)
    games = play(v, state, "buy technology Right of Way 4loco", "claim Alpha-Beta red 2red")
    s = games["reference"].state()
    assert s["phase"] == "tunnel" and s["technology_supply"] == [1] and s["technologies"] == [0, 0]
    return s


def test_a_shared_tunnel_claim_given_up_returns_right_of_way_and_ends_the_turn(tunnels):
    """docs/rules.md #89: the tunnel holds a shared claim as it holds any (Europe, Tunnels),
    and Right of Way goes back to the supply as the claim is paid (#67); given up, the turn
    ends, the cards go back to the hand and no route is shared."""
    v = tunnels
    games = play(v, tunnel_claim(v, reds=0), "tunnel decline")
    s = games["compiled"].state()
    assert s["current"] == 1 and s["phase"] == "turn" and s["technology_shared"] == [-1, -1, -1]
    assert s["hands"][0][v.ir.colours[0].id] == 2 and s["technology_supply"] == [1]


def test_a_shared_tunnel_claim_paid_completes_onto_the_owned_route(tunnels):
    """docs/rules.md #89, #67: the tunnel's extra cards paid, the held claim completes as a
    shared claim: the owner keeps the route, the buyer shares it with their trains."""
    v = tunnels
    r = v.ir.route_named("Alpha-Beta").id
    s = tunnel_claim(v, reds=3)
    pay = next(n for n in claims(v, s, "reference") if n != "tunnel decline")
    games = play(v, s, pay)
    s = games["compiled"].state()
    assert s["owner"][r] == 1 and s["technology_shared"][r] == 0 and s["trains"] == [10 - 2, 10 - 2]
    assert s["current"] == 1 and s["technology_supply"] == [1]


# --- the contract's pair checks ---------------------------------------------------------------

@pytest.mark.parametrize("other", ["mountains", "ferry_cards", "tunnels", "substitutes"])
def test_the_pair_checks_combine_shared_claims_on_both_engines(other):
    """technology's sample has its effect 'claims owned routes': its pairs with mountains,
    ferry cards, tunnels and substitutes (which hold claims, docs/rules.md #89) play on both
    engines, which agree decision by decision, every state saved and loaded, every position
    scored as its state."""
    registry = stock_registry()
    report = check_pair(registry.by_name["technology"], registry.by_name[other], games=3,
                        engines=("reference", "compiled"))
    assert report is not None and report.ok and report.games >= 3
