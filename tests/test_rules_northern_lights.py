"""The Northern Lights rules, one test per rule, each naming where it comes from.

No rulebook of the map is in shared/seeds (its printed rules are in the Nordic languages
only). The sources (spec/northern_lights.rail's header): SUMMARY, the rule summary of
thoun/tickettoride modules/maps/northernlights/map.php (rulesDifferences); MAP, the same
folder's map.php, routes.php, cities.php and destinations.php (stored file index, 100940e);
CASES, the adaptation's own payment cases for the map's ferries (its test of
canPayFerriesWithAnySetOfCards, stored file index id 70068254497); SPELLENGEK, the
spellengek.nl review ("op veerbootverbindingen de verplichte jokers vervangen door twee
kaarten van dezelfde kleur"); BOARDSEYEVIEW, the boardseyeview.net review ("11 different bonus
cards, from which four are selected at random"). Play tests run on both engines; scoring
tests on described positions, checked in both scorers.
"""
from __future__ import annotations

import re
from collections import Counter

import pytest
from conftest import Arranged, names, score_both, start_turns

import railspec
from railspec.compiler import stock_path
from railspec.compiler.mechanic import stock_registry
from railspec.runtime.position import position_of_state
from railspec.runtime.scoring import winners
from railspec.testing import check_mechanic

MARKET = ("pink", "white", "blue", "orange", "black")


@pytest.fixture(scope="module")
def nl():
    return railspec.load("northern_lights")


def claim_game(v, engine, players=2, seed=1, market=MARKET, owned=(), **hand):
    """Player 0 to move with ``hand``, the given market, and player 1 owning ``owned``."""
    g = start_turns(v, players, seed=seed, engine=engine, keep="keep tickets 1,2")
    return Arranged(v, g).hand(0, **hand).faceup(*market).own(1, *owned)


def claims(game, route: str) -> list[str]:
    """The legal claims of ``route`` (its name without a track suffix matches every track)."""
    return [n for n in names(game) if n.startswith(f"claim {route} ") or n.startswith(f"claim {route}/")]


# --- the game's parts -----------------------------------------------------------------------

def test_the_components(nl):
    """MAP: 50 cities, 161 routes (350 cars; lengths 1:55 2:46 3:40 4:17 5:3; 48 doubles and
    2 triples; 53 ferries; 18 draw bonuses +1 x8, +2 x8, +3 x2), 55 tickets of 2 to 19 points;
    SUMMARY: 40 trains, 12 cards of each colour and 18 locomotives, 2 to 5 players, the
    market never flushed (docs/rules.md #45)."""
    v = nl.ir
    assert (len(v.cities), len(v.routes), len(v.tickets)) == (50, 161, 55)
    assert sum(r.length for r in v.routes) == 350
    assert Counter(r.length for r in v.routes) == {1: 55, 2: 46, 3: 40, 4: 17, 5: 3}
    tracks = Counter(Counter(r.group for r in v.routes).values())
    assert tracks == {1: 59, 2: 48, 3: 2}
    assert Counter(n for _, n in v.rule("ferries").locomotives) == {1: 43, 2: 10}
    assert Counter(n for _, n in v.rule("draw_bonus").bonuses) == {1: 8, 2: 8, 3: 2}
    assert min(t.points for t in v.tickets) == 2 and max(t.points for t in v.tickets) == 19
    assert (v.trains, v.locomotives, v.min_players, v.max_players) == (40, 18, 2, 5)
    assert {c.count for c in v.colours} == {12} and len(v.colours) == 8
    assert v.market_reset_locomotives == 0  # "Face-up cards are not replaced when 3 or more Locomotives"


# --- tracks usable by the size of the route -----------------------------------------------------

@pytest.mark.parametrize("players,double,triple", [(2, 1, 1), (3, 1, 2), (4, 2, 3), (5, 2, 3)])
def test_tracks_usable_by_route_size(nl, engine, players, double, triple):
    """SUMMARY: "Double routes are only fully available in 4 and 5-player games. For triple
    routes, only 1 route can be claimed at 2 players, 2 routes at 3 players, and all 3 routes
    at 4 or 5 players" (MAP: maximumPlayerForTripleRoutes = [2=>1, 3=>2, 4=>3, 5=>3])."""
    rule = nl.ir.rule("multi_track")
    assert (min(rule.usable(players, 2), 2), rule.usable(players, 3)) == (double, triple)  # 3: all
    # player 1 owns one track of the triple Karlstad - Stockholm and of the double Oslo - Göteborg
    g = claim_game(nl, engine, players=players, owned=("Karlstad-Stockholm/1", "Göteborg-Oslo/1"),
                   green=1, red=1, blue=3, black=2).game(engine)
    assert bool(claims(g, "Karlstad-Stockholm")) == (triple > 1)
    assert bool(claims(g, "Göteborg-Oslo")) == (double > 1)


def test_one_track_of_a_triple_per_player(nl, engine):
    """SUMMARY: "A player cannot claim more than one route between the same cities"."""
    g = claim_game(nl, engine, players=5, red=1, blue=1).game(engine)
    s = g.state()
    s["owner"][nl.ir.route_named("Karlstad-Stockholm/1").id] = 0
    s["trains"][0] -= 1
    s["route_score"][0] += 1
    g = nl.game_from_state(s, engine=engine)
    assert claims(g, "Karlstad-Stockholm") == []


# --- ferries: a locomotive or a pair of one colour ------------------------------------------------

@pytest.mark.parametrize("route,hand,payable", [
    # CASES [3, 1, RED, [RED, RED, BLUE, BLUE], true] and its neighbours, on Ålborg - Oslo
    # (3 gray, 1 symbol): a pair of any colour, the route's own included
    ("Ålborg-Oslo", dict(red=2, blue=2), True),
    ("Ålborg-Oslo", dict(red=4), True),
    ("Ålborg-Oslo", dict(red=2, blue=1, green=1), False),
    ("Ålborg-Oslo", dict(red=1, blue=2), False),
    # CASES refuses blue, green, yellow pairs for a claim in red; a gray route may be paid in
    # green, with a blue pair: payable
    ("Ålborg-Oslo", dict(blue=2, green=2, yellow=2), True),
    ("Ålborg-Oslo", dict(blue=1, green=1, yellow=2), False),
    ("Ålborg-Oslo", dict(loco=2, blue=2), True),               # CASES [3, 1, 0, [0, 0, BLUE, BLUE]]
    # Åndalsnes - Bergen (4 gray, 2 symbols): two pairs, of two colours or one
    ("Åndalsnes-Bergen", dict(red=2, blue=2, green=2), True),
    ("Åndalsnes-Bergen", dict(red=2, loco=1, blue=2), True),
    ("Åndalsnes-Bergen", dict(red=2, blue=1, green=1, yellow=2), False),
])
def test_a_pair_of_one_colour_for_a_ferry_locomotive(nl, engine, route, hand, payable):
    """SUMMARY: "To claim a ferry route, a player must play: a locomotive card OR a pair of
    train cards of the same color for each locomotive symbol on the route, in addition to a
    set of train cards of any one color for the remaining spaces" (SPELLENGEK agrees); CASES
    says which hands pay."""
    g = claim_game(nl, engine, **hand).game(engine)
    assert bool(claims(g, route)) == payable


def test_the_pair_is_given_after_the_claim(nl, engine):
    """SUMMARY, as test_a_pair_…: the claim pays its colour cards and locomotives, then the
    same player gives each pair (docs/rules.md #46); the last pair completes the claim."""
    g = claim_game(nl, engine, red=2, blue=2, green=2).game(engine)
    legal = claims(g, "Ålborg-Oslo")
    assert "claim Ålborg-Oslo gray 2red+2same" in legal
    assert "claim Ålborg-Oslo gray 2blue+2same" in legal
    g.apply_name("claim Ålborg-Oslo gray 2red+2same")
    assert g.state()["phase"] == "substitute" and g.current_player == 0
    assert names(g) == ["substitute set blue", "substitute set green"]
    g.apply_name("substitute set green")
    s = g.state()
    assert s["owner"][nl.ir.route_named("Ålborg-Oslo").id] == 0
    green = next(c.id for c in nl.ir.colours if c.name == "green")
    assert s["hands"][0][green] == 0 and sum(s["hands"][0]) == 2  # the blue pair kept


# --- the draw bonus ---------------------------------------------------------------------------

def test_the_draw_bonus(nl, engine):
    """SUMMARY: "After claiming a route with a +X drawing bonus, draw X Train Car cards from
    the top of the deck" (MAP: Mo i Rana - Trondheim +3)."""
    g = claim_game(nl, engine, red=3, loco=2).deck_top("white", "yellow", "orange").game(engine)
    before = sum(g.state()["hands"][0])
    g.apply_name("claim Mo i Rana-Trondheim/1 gray 3red+2loco")
    s = g.state()
    assert sum(s["hands"][0]) == before - 5 + 3
    assert s["bonus_drawn"][0] == 3
    assert [s["hands"][0][c] for c in (1, 3, 4)] == [1, 1, 1]  # white, yellow, orange


def test_the_draw_bonus_of_a_claim_held_for_its_pair(nl, engine):
    """SUMMARY, as test_the_draw_bonus; docs/rules.md #47: a claim held while its pairs are
    given draws its bonus as it completes (Åndalsnes - Trondheim +1, paid with a red pair)."""
    g = claim_game(nl, engine, red=2).deck_top("yellow").game(engine)
    g.apply_name("claim Åndalsnes-Trondheim/1 gray 2same")
    assert g.state()["phase"] == "substitute" and g.state()["bonus_drawn"][0] == 0
    g.apply_name("substitute set red")
    s = g.state()
    yellow = next(c.id for c in nl.ir.colours if c.name == "yellow")
    assert s["owner"][nl.ir.route_named("Åndalsnes-Trondheim/1").id] == 0
    assert s["hands"][0][yellow] == 1 and sum(s["hands"][0]) == 1 and s["bonus_drawn"][0] == 1


def test_no_bonus_without_the_mark(nl, engine):
    """MAP: a route without drawingBonus draws nothing (Ålborg - Århus)."""
    g = claim_game(nl, engine, red=1).game(engine)
    g.apply_name("claim Ålborg-Århus/1 red 1red")
    assert sum(g.state()["hands"][0]) == 0 and g.state()["bonus_drawn"][0] == 0


# --- bonus cards ------------------------------------------------------------------------------

def test_four_of_eleven_bonus_cards_dealt(nl, engine):
    """SUMMARY: "At the start, randomly select 4 of the 11 bonus cards" (BOARDSEYEVIEW)."""
    seen = set()
    for seed in range(40):
        dealt = nl.new_game(players=3, seed=seed, engine=engine).state()["bonus_cards"]
        assert len(dealt) == len(set(dealt)) == 4 and all(0 <= c < 11 for c in dealt)
        seen.update(dealt)
    assert seen == set(range(11))


def _position(cards, seats):
    """A described position dealing the bonus cards of these ids (in the spec's order)."""
    titles = [card.title for card in railspec.load("northern_lights").ir.rule("bonus_cards").cards]
    return {"variant": "northern_lights", "players": seats, "bonus_cards": [titles[c] for c in cards]}


def test_every_tied_player_scores_a_bonus_card(nl):
    """SUMMARY: "All players tied for a bonus receive its points"; MAP getBonusCardScores:
    Ferry Master 12 (ferry routes), Small steps strategist 10 (1-space routes), Call of the
    wild 5 (locomotive equivalents held), Cost efficiency 7 (trains left). A card nobody
    has anything of scores for nobody (docs/rules.md #48)."""
    ferry_master, small_steps, call_of_the_wild, cost_efficiency = 9, 3, 0, 2
    # 4 players: both tracks of a double may be used
    seats = [{"routes": ["Ålborg-Göteborg/1"]}, {"routes": ["Ålborg-Göteborg/2"]}, {"routes": ["Boden-Tornio"]},
             {"routes": ["Boden-Rovaniemi"]}]
    rows = score_both(nl, _position([ferry_master, small_steps, call_of_the_wild, cost_efficiency], seats))
    assert [[r[f"bonus_card_{k}"] for k in (1, 2, 3, 4)] for r in rows] == [[1, 1, 0, 39], [1, 1, 0, 39],
                                                                        [0, 1, 0, 39], [0, 1, 0, 39]]
    assert [r["bonus_cards"] for r in rows] == [12 + 10 + 7, 12 + 10 + 7, 10 + 7, 10 + 7]
    assert [r["bonus_cards_won"] for r in rows] == [3, 3, 2, 2]


def test_call_of_the_wild_counts_the_hand(nl):
    """MAP getBonusCardScores: Call of the wild 5 to the most locomotives held, a pair of one
    colour counting as one (the spec's 'counting 2 of one colour as one'). A described
    position gives each seat's hand (its key 'cards_held'), which the card reads: 2 locomotives
    and 3 reds (one pair) make 3, against 3 locomotives."""
    call_of_the_wild = 0
    seats = [{"routes": [], "cards_held": {"loco": 2, "red": 3}}, {"routes": [], "cards_held": {"loco": 3}},
             {"routes": [], "cards_held": {"blue": 1}}]
    rows = score_both(nl, _position([call_of_the_wild, 1, 2, 3], seats))
    assert [r["bonus_card_1"] for r in rows] == [3, 3, 0]
    # and Cost efficiency's 7 to all three (40 trains each); nobody has a capital or a route
    assert [r["bonus_cards"] for r in rows] == [5 + 7, 5 + 7, 7]
    g = start_turns(nl, 2, seed=4, engine="compiled")
    assert position_of_state(nl.ir, g.state())["players"][0]["cards_held"] == {
        name: n for name, n in zip([c.name for c in nl.ir.colours] + ["loco"], g.state()["hands"][0]) if n}


@pytest.mark.parametrize("bad,message", [
    ({"cards_held": {"purple": 1}}, "'cards_held' names no train card of Northern Lights: 'purple'"),
    ({"cards_held": {"loco": 19}}, "'cards_held' holds 0 to 18 loco cards, got 19"),
    ({"cards_held": ["loco"]}, "'cards_held' counts cards by name"),
])
def test_a_bad_hand_is_a_position_error(nl, bad, message):
    with pytest.raises(railspec.PositionError, match=re.escape(message)):
        railspec.score(nl, _position([0, 1, 2, 3], [{"routes": [], **bad}, {"routes": []}]))


def test_the_nordic_express_reads_the_longest_path(nl):
    """MAP getBonusCardScores: Nordic Express 10 to the longest continuous path (the spec
    measures it with 'longest path 0': the map has no longest-path card of its own)."""
    nordic_express = 4
    seats = [{"routes": ["Bergen-Oslo/1", "Kristiansand-Oslo/1"]}, {"routes": ["Boden-Umeå/1"]}]
    rows = score_both(nl, _position([nordic_express, 0, 1, 3], seats))
    assert [r["bonus_card_1"] for r in rows] == [4, 3]
    assert [r["longest_bonus"] for r in rows] == [0, 0]
    assert rows[0]["bonus_cards"] >= 10 and rows[1]["bonus_cards"] < 10


# --- ties -------------------------------------------------------------------------------------

def test_ties_go_to_tickets_then_bonus_cards(nl):
    """docs/rules.md #49: the adaptation's tie score (EndScore.php: 1000 x completed tickets +
    bonus cards won) orders tied players by completed tickets, then by bonus cards won; the map
    has no longest-path card. Players still tied share the win."""
    assert nl.ir.tiebreaks == ("most_tickets", "most_bonus_cards")
    assert winners(nl.ir, [dict(total=50, tickets_completed=3, bonus_cards_won=0),
                           dict(total=50, tickets_completed=2, bonus_cards_won=4)]) == [0]
    assert winners(nl.ir, [dict(total=50, tickets_completed=3, bonus_cards_won=1),
                           dict(total=50, tickets_completed=3, bonus_cards_won=2)]) == [1]
    assert winners(nl.ir, [dict(total=50, tickets_completed=3, bonus_cards_won=2),
                           dict(total=50, tickets_completed=3, bonus_cards_won=2)]) == [0, 1]
    # a described board tied at 30, no ticket: Ferry Master, Small steps strategist and Cost
    # efficiency (1 + 12 + 10 + 7) against 30 route points (5 + 4 + 4 + 3 + 2 spaces)
    ferry_master, small_steps, call_of_the_wild, cost_efficiency = 9, 3, 0, 2
    seats = [{"routes": ["Åndalsnes-Trondheim/1"]},
             {"routes": ["Karlstad-Östersund", "Karlstad-Sundsvall", "Kuopio-Vaasa", "Bergen-Lillehammer",
                         "Apatity-Kemijärvi"]}]
    rows = score_both(nl, _position([ferry_master, small_steps, call_of_the_wild, cost_efficiency], seats))
    assert [r["total"] for r in rows] == [30, 30] and [r["tickets_completed"] for r in rows] == [0, 0]
    assert [r["bonus_cards_won"] for r in rows] == [3, 0]
    assert [r["winner"] for r in rows] == [True, False]


# --- the map under the mechanic contract ------------------------------------------------------

def test_the_map_keeps_the_contract():
    """railspec.testing.check_mechanic on the map itself, for its bonus cards beside the draw
    bonus, sets of one colour and the sized track limits: both engines decision by decision,
    every tenth board described and scored as the game scored it (which found a described
    position without the hands that Call of the wild reads)."""
    report = check_mechanic(stock_registry().by_name["bonus_cards"], stock_path("northern_lights"), games=1)
    assert report.ok and report.decisions > 100
