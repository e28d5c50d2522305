"""The Nordic Countries rules, one test per rule, each naming where it comes from.

No rulebook of the map is in shared/seeds. The sources (spec/nordic_countries.rail's header):
SUMMARY, Dan Blum's rules summary (onedayofsilence.com, "Ticket to Ride 'Nordic Countries' -
english rules", from boardgamegeek.com); FERRIES, boardgames.stackexchange.com question 1849
("You can always use any 3 cards in place of a locomotive. You can always play an extra
locomotive in place of a coloured card"); BOOKLET, the rule booklet's set-up as
ultraboardgames.com transcribes it; MAP, thoun/tickettoride modules/maps/nordiccountries
(map.php, routes.php, destinations.php). Where SUMMARY and the adaptation disagree (the
market's flush), the rule text wins (docs/rules.md #36). Play tests run on both engines;
scoring tests on described positions, checked in both scorers.
"""
from __future__ import annotations

import pytest
from conftest import Arranged, names, start_turns

import railspec
from railspec.runtime import reference
from railspec.runtime.position import position_fields

MARKET = ("pink", "white", "blue", "orange", "black")  # no locomotive, no colour of the tests' routes


@pytest.fixture(scope="module")
def nordic():
    return railspec.load("nordic_countries")


def rid(v, name: str) -> int:
    return v.ir.route_named(name).id


def claim_game(v, engine, players=2, seed=1, market=MARKET, **hand):
    """Player 0 to move with ``hand`` and the given market."""
    g = start_turns(v, players, seed=seed, engine=engine, keep="keep tickets 1,2")
    return Arranged(v, g).hand(0, **hand).faceup(*market)


def claims(game, route: str) -> list[str]:
    """The legal claims of ``route`` (its name without a track suffix matches every track)."""
    return [n for n in names(game) if n.startswith(f"claim {route} ")]


def score(v, *seats):
    """Both scorers on a position: the compiled one's rows, checked against the reference."""
    position = {"variant": "nordic_countries", "players": list(seats)}
    rows = railspec.score(v, position)
    fields = position_fields(v.ir, position)
    assert reference.score_fields(v.ir, fields) == [{k: x for k, x in r.items() if k != "winner"} for r in rows]
    return rows


# --- the game's parts and its set-up -------------------------------------------------------

def test_the_components(nordic):
    """BOOKLET: 40 trains each, 110 train cards (12 of each colour, 14 locomotives), 4 dealt,
    5 face up; 2 or 3 players. MAP: 39 cities, 81 routes, 46 tickets of 3 to 24 points."""
    v = nordic.ir
    assert (v.min_players, v.max_players, v.trains, v.hand, v.market_size) == (2, 3, 40, 4, 5)
    assert [c.count for c in v.colours] == [12] * 8 and v.locomotives == 14
    assert (len(v.cities), len(v.routes), len(v.tickets)) == (39, 81, 46)
    assert sum(r.length for r in v.routes) == 207
    assert (min(t.points for t in v.tickets), max(t.points for t in v.tickets)) == (3, 24)


def test_five_tickets_dealt_keep_two_and_the_others_leave_the_game(nordic, engine):
    """BOOKLET: "deal 5 cards to each player … A player must keep at least two, but may keep
    all five … Any returned cards are removed from the game"."""
    g = nordic.new_game(players=2, seed=3, engine=engine)
    s = g.state()
    assert len(s["setup_offer"][0]) == 5
    legal = names(g)
    assert "keep tickets 1,2" in legal and "keep tickets 1" not in legal and "keep tickets 1,2,3,4,5" in legal
    deck = len(s["ticket_deck"])
    g.apply_name("keep tickets 1,2")
    s = g.state()
    assert len(s["tickets"][0]) == 2 and len(s["tickets_out"]) == 3 and len(s["ticket_deck"]) == deck


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


# --- drawing train cards -------------------------------------------------------------------

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


def test_the_market_is_never_flushed(nordic, engine):
    """SUMMARY: "The display is not flushed when there are three locomotive cards in it (nor
    at any other time)" (docs/rules.md #36: the adaptation flushes it, the rule text wins):
    five face-up locomotives stay through a draw, a refill and the end of turns."""
    market = ("loco", "loco", "loco", "pink", "loco")
    g = claim_game(nordic, engine, market=market, green=1).deck_top("loco", "loco").game(engine)
    g.apply_name("draw faceup pink")  # refilled with a locomotive: five show
    loco = len(nordic.colours)
    assert g.state()["faceup"] == [loco] * 5
    g.apply_name("draw blind")
    assert g.state()["faceup"] == [loco] * 5 and g.current_player == 1
    g.apply_name("draw faceup loco")
    g.apply_name("draw faceup loco")
    assert g.state()["faceup"].count(loco) >= 3


# --- where locomotives are wild ------------------------------------------------------------

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


# --- sets of any cards -----------------------------------------------------------------------

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


# --- doubles ------------------------------------------------------------------------------


# --- scoring ------------------------------------------------------------------------------

def test_the_route_table_and_the_globetrotter(nordic):
    """MAP (map.php): route points 1:1 2:2 3:4 4:7 5:10 6:15 9:27 (7 and 8 unused: docs/rules.md
    #39), no longest-path bonus, the Globetrotter 10 to the most completed tickets (ties all
    score)."""
    v = nordic.ir
    assert [v.route_points[n] for n in (1, 2, 3, 4, 5, 6, 9)] == [1, 2, 4, 7, 10, 15, 27]
    assert not any(r.length in (7, 8) for r in v.routes)
    oslo_stavanger = ["Kristiansand-Oslo", "Kristiansand-Stavanger/1"]
    rows = score(nordic, {"routes": oslo_stavanger, "tickets": ["Oslo-Stavanger"]},
                 {"routes": ["Murmansk-Lieksa"], "tickets": ["Oslo-København"]})
    assert rows[0]["globetrotter"] == 10 and rows[1]["globetrotter"] == 0
    assert rows[0]["total"] == 2 + 2 + 4 + 10 and rows[1]["total"] == 27 - 4
    assert "longest_path" not in rows[0]


def test_ties_go_to_the_most_tickets(nordic):
    """The base game's first key (USA, Calculating Scores), the map having no longest-path
    card; players still tied share the win (docs/rules.md #39)."""
    assert nordic.ir.tiebreaks == ("most_tickets",)
    rows = score(nordic, {"routes": ["Kristiansand-Oslo", "Kristiansand-Stavanger/1"], "tickets": ["Oslo-Stavanger"]},
                 {"routes": ["Boden-Kiruna/1", "Boden-Umeå/1", "Bergen-Oslo/1", "Boden-Tornio", "Göteborg-Oslo"],
                  "tickets": []})
    assert rows[0]["total"] == rows[1]["total"] == 18
    assert [r["winner"] for r in rows] == [True, False]
