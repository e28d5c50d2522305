"""The USA rules, one test per rule, each naming the rulebook section it comes from
(shared/seeds/002_e4892a60f61bb48a.txt, the 2015 English reprint). Every test runs on
both engines. Decisions where the rulebook is silent cite docs/rules.md instead.

The map's mechanics have their rules tested beside them (mechanics/NAME/tests/: multi_track,
longest_path); this file keeps what is the map's own: its data, its set-up, how its rules
combine.
"""
from __future__ import annotations

import pytest
from conftest import Arranged, names, start_turns

import railspec
from railspec.compiler.base.errors import IllegalActionError
from railspec.compiler.base.rng import SplitMix64

# --- Components and Setting Up the Game -------------------------------------------------

def test_components_110_train_cards(usa, engine):
    """Components: 110 train car cards, 12 of each of 8 colours plus 14 locomotives."""
    g = usa.new_game(players=4, seed=3, engine=engine)
    s = g.state()
    total = len(s["deck"]) + sum(1 for c in s["faceup"] if c >= 0) + sum(map(sum, s["hands"])) + sum(s["discard"])
    assert total == 110
    assert [c.count for c in usa.colours] == [12] * 8 and usa.ir.locomotives == 14


def test_setup_deals_four_cards_five_faceup_and_three_tickets(usa, engine):
    """Setting Up the Game: 4 cards each, 5 cards face up, 3 destination tickets each, 45 trains."""
    g = usa.new_game(players=5, seed=9, engine=engine)
    s = g.state()
    assert [sum(h) for h in s["hands"]] == [4] * 5
    assert all(c >= 0 for c in s["faceup"]) and len(s["faceup"]) == 5
    assert [len(o) for o in s["setup_offer"]] == [3] * 5
    assert s["trains"] == [45] * 5


def test_setup_keep_at_least_two_of_three(usa, engine):
    """Setting Up the Game: a player must keep at least two of the three tickets dealt."""
    g = usa.new_game(players=3, seed=4, engine=engine)
    assert sorted(names(g)) == ["keep tickets 1,2", "keep tickets 1,2,3", "keep tickets 1,3", "keep tickets 2,3"]
    with pytest.raises(IllegalActionError):
        g.apply_name("keep tickets 2")


def test_setup_returned_tickets_go_to_the_bottom(usa, engine):
    """Setting Up the Game: returned tickets are placed on the bottom of the deck; each player
    decides in seat order before the first turn (docs/rules.md #4)."""
    g = usa.new_game(players=2, seed=5, engine=engine)
    offer = g.state()["setup_offer"][0]
    g.apply_name("keep tickets 1,3")
    s = g.state()
    assert s["tickets"][0] == [offer[0], offer[2]]
    assert s["ticket_deck"][-1] == offer[1]
    assert s["current"] == 1 and s["phase"] == "setup_keep"
    g.apply_name("keep tickets 1,2,3")
    assert g.state()["phase"] == "turn" and g.current_player == 0


# --- Draw Train Car Cards ------------------------------------------------------------

def test_draw_two_cards_blind(usa, engine):
    """The Game Turn, Draw Train Car Cards: a blind draw, then a second card, then the turn ends."""
    g = start_turns(usa, 3, engine=engine)
    a = Arranged(usa, g).hand(0).deck_top("red", "blue").game(engine)
    a.apply_name("draw blind")
    assert a.current_player == 0 and a.state()["hands"][0][usa.colours[6].id] == 0
    assert a.state()["phase"] == "second_draw"
    a.apply_name("draw blind")
    assert a.current_player == 1
    hand = a.state()["hands"][0]
    assert sum(hand) == 2 and hand[Arranged(usa, a).card("red")] == 1 and hand[Arranged(usa, a).card("blue")] == 1


def test_faceup_card_is_replaced_from_the_deck(usa, engine):
    """Draw Train Car Cards: a face-up card taken is replaced at once from the top of the deck."""
    g = start_turns(usa, 2, engine=engine)
    a = Arranged(usa, g).faceup("red", "blue", "green", "white", "black").deck_top("yellow")
    g = a.game(engine)
    g.apply_name("draw faceup blue")
    s = g.state()
    yellow = a.card("yellow")
    assert s["faceup"][1] == yellow and s["phase"] == "second_draw"


def test_the_leftmost_of_two_like_cards_is_taken(usa, engine):
    """docs/rules.md #8: with two face-up cards of one colour, the lowest slot's is taken
    and refilled."""
    g = start_turns(usa, 2, engine=engine)
    a = Arranged(usa, g).faceup("red", "blue", "red", "green", "white").deck_top("yellow")
    g = a.game(engine)
    g.apply_name("draw faceup red")
    assert g.state()["faceup"][:3] == [a.card("yellow"), a.card("blue"), a.card("red")]


def test_faceup_locomotive_is_the_whole_draw(usa, engine):
    """Train Car Cards: a locomotive taken from the face-up cards is the only card drawn that turn."""
    g = start_turns(usa, 2, engine=engine)
    g = Arranged(usa, g).faceup("loco", "blue", "green", "white", "black").game(engine)
    g.apply_name("draw faceup loco")
    assert g.current_player == 1 and g.state()["phase"] == "turn"


def test_faceup_locomotive_never_as_second_card(usa, engine):
    """Train Car Cards: after one card is drawn, a face-up locomotive cannot be taken."""
    g = start_turns(usa, 2, engine=engine)
    g = Arranged(usa, g).faceup("loco", "blue", "green", "white", "black").game(engine)
    g.apply_name("draw faceup blue")
    assert "draw faceup loco" not in names(g)
    with pytest.raises(IllegalActionError):
        g.apply_name("draw faceup loco")


def test_blind_locomotive_counts_as_one_card(usa, engine):
    """Train Car Cards, Note: a locomotive from a blind draw counts as one card; a second follows."""
    g = start_turns(usa, 2, engine=engine)
    g = Arranged(usa, g).deck_top("loco").game(engine)
    g.apply_name("draw blind")
    assert g.current_player == 0 and g.state()["phase"] == "second_draw"


def test_three_faceup_locomotives_reset_the_market(usa, engine):
    """Train Car Cards: three locomotives among the five face-up cards: all five are discarded
    and five new ones turned up."""
    g = start_turns(usa, 2, engine=engine)
    a = Arranged(usa, g).faceup("loco", "loco", "blue", "green", "white").deck_top(
        "red", "red", "red", "red", "red", "loco")  # the replacement for the taken blue is a locomotive
    g = a.game(engine)
    discards_before = sum(a.state["discard"])
    g.apply_name("draw faceup blue")
    s = g.state()
    assert s["faceup"] == [a.card("red")] * 5
    assert sum(s["discard"]) == discards_before + 5  # loco, loco, loco, green, white


def test_three_faceup_locomotives_always_cause_a_redeal(usa, engine):
    """Train Car Cards: "If at any time, three of the five face-up cards are Locomotives,
    all five cards are immediately discarded and five new ones are turned face-up": again
    and again, with no limit on redeals in a row (docs/rules.md #1)."""
    g = start_turns(usa, 2, engine=engine)
    a = Arranged(usa, g).clear_hands().faceup("loco", "loco", "blue", "green", "white")
    # draws in order: the blue slot's refill, then four redeals of five cards each; the
    # first three redeals show three locomotives again, the fourth does not
    redeal = ["loco", "loco", "loco", "red", "red"]
    draws = ["loco"] + redeal * 3 + ["red", "black", "red", "black", "red"]
    a.deck_top(*reversed(draws))
    g = a.game(engine)
    g.apply_name("draw faceup blue")
    s = g.state()
    assert s["faceup"] == [a.card(c) for c in ("red", "black", "red", "black", "red")]
    assert s["phase"] == "second_draw"


def test_market_stays_when_no_market_with_fewer_locomotives_can_be_dealt(usa, engine):
    """docs/rules.md #1: when the cards outside the players' hands cannot make a market
    with fewer than three locomotives, the market stays as it is and play goes on."""
    g = start_turns(usa, 2, engine=engine)
    a = Arranged(usa, g).clear_hands().everything_to_discard()
    a.faceup("loco", "loco", "blue", "green", "white")
    s = a.state
    # every other colour card goes to player 1: outside the hands only locomotives and
    # the green and white showing are left, so any market shows three locomotives
    for card in range(len(usa.colours)):
        s["hands"][1][card] += s["discard"][card]
        s["discard"][card] = 0
    g = a.game(engine)
    g.apply_name("draw faceup blue")
    s = g.state()
    assert s["faceup"] == [a.loco, a.loco, a.loco, a.card("green"), a.card("white")]
    assert s["phase"] == "second_draw" and g.current_player == 0


def test_market_is_checked_again_when_cards_return_to_the_discards(usa, engine):
    """Train Car Cards, "at any time": a market stuck with three locomotives is redealt as
    soon as the cards outside the hands allow it, here after a claim pays cards into the
    discards (the check runs at the end of every turn, docs/engine.md)."""
    g = start_turns(usa, 2, engine=engine)
    a = Arranged(usa, g).clear_hands().everything_to_discard()
    a.faceup("loco", "loco", "loco", "green", "white")
    s = a.state
    for card in range(len(usa.colours)):
        s["hands"][1][card] += s["discard"][card]
        s["discard"][card] = 0
    s["hands"][1][a.card("blue")] -= 3  # the claim's payment
    s["hands"][0][a.card("blue")] += 3
    g = a.game(engine)
    assert g.state()["faceup"].count(a.loco) == 3  # nothing better can be dealt yet
    g.apply_name("claim Montréal-New York blue 3blue")
    s = g.state()
    assert s["faceup"].count(a.loco) < 3 and g.current_player == 1


def test_empty_deck_reshuffles_the_discards(usa, engine):
    """Train Car Cards: when the deck is exhausted the discards are shuffled into a new deck
    (docs/rules.md #2)."""
    g = start_turns(usa, 2, engine=engine)
    a = Arranged(usa, g).everything_to_discard()
    in_discard = sum(a.state["discard"])
    g = a.game(engine)
    g.apply_name("draw blind")
    s = g.state()
    assert sum(s["discard"]) == 0 and len(s["deck"]) == in_discard - 1


def test_no_cards_to_draw_means_no_draw_action(usa, engine):
    """Train Car Cards: with no deck and no discards a player cannot draw train cards and may
    only claim a route or draw tickets."""
    g = start_turns(usa, 2, engine=engine)
    a = Arranged(usa, g).clear_hands()
    s = a.state
    for card in range(len(usa.colours) + 1):  # every card into player 1's hand
        s["hands"][1][card] += s["discard"][card] + s["deck"].count(card) + s["faceup"].count(card)
        s["discard"][card] = 0
    s["deck"], s["faceup"] = [], [-1] * 5
    g = a.game(engine)
    assert names(g) == ["draw tickets"]


def _only_these_outside_hands(usa, a, deck=(), faceup=()):
    """Every train card in a hand (player 1's) except ``deck`` (bottom to top) and the
    face-up ``faceup`` (slot order); no discards."""
    s = a.state
    for card in range(len(usa.colours) + 1):
        s["hands"][1][card] += s["discard"][card] + s["deck"].count(card) + s["faceup"].count(card)
        s["discard"][card] = 0
    s["deck"], s["faceup"] = [], [-1] * 5
    for name in deck:
        s["hands"][1][a.card(name)] -= 1
        s["deck"].append(a.card(name))
    for slot, name in enumerate(faceup):
        s["hands"][1][a.card(name)] -= 1
        s["faceup"][slot] = a.card(name)


def test_no_cards_in_deck_or_discards_means_no_draw_even_from_the_faceup_cards(usa, engine):
    """Train Car Cards: "In the unlikely event that there are no cards left in the deck and
    there are no discards …, a player cannot draw Train Car cards. Instead he may only claim
    a route or draw Destination Ticket cards." The cards still face up cannot be taken
    either (docs/rules.md #13)."""
    g = start_turns(usa, 2, engine=engine)
    a = Arranged(usa, g).clear_hands()
    _only_these_outside_hands(usa, a, faceup=("red", "blue", "green"))
    a.state["hands"][0][a.card("blue")] += 2  # enough for a claim, from player 1's hand
    a.state["hands"][1][a.card("blue")] -= 2
    g = a.game(engine)
    legal = names(g)
    assert not any(n.startswith("draw faceup") or n == "draw blind" for n in legal)
    assert "draw tickets" in legal and any(n.startswith("claim ") for n in legal)
    with pytest.raises(IllegalActionError):
        g.apply_name("draw faceup red")


def test_a_slot_with_no_card_to_fill_it_stays_empty_until_cards_return(usa, engine):
    """docs/rules.md #2: with no card in the deck or the discards a face-up slot stays empty;
    once a claim pays cards into the discards, the end of the turn reshuffles them into a
    deck and fills the empty slots."""
    g = start_turns(usa, 2, engine=engine)
    a = Arranged(usa, g).clear_hands()
    _only_these_outside_hands(usa, a, faceup=("red", "blue", "green"))
    a.state["hands"][0][a.card("blue")] += 2  # enough for a claim, from player 1's hand
    a.state["hands"][1][a.card("blue")] -= 2
    g = a.game(engine)
    assert g.state()["faceup"][3:] == [-1, -1]
    g.apply_name(next(n for n in names(g) if n.startswith("claim ") and n.endswith(" 2blue")))
    s = g.state()
    assert s["faceup"] == [a.card(c) for c in ("red", "blue", "green", "blue", "blue")] and g.current_player == 1


def test_tickets_not_kept_go_under_the_deck_in_slot_order(usa, engine):
    """docs/rules.md #5: the tickets a player does not keep go under the deck in the order of
    their offer slots, the first offered first (so it lies above the next)."""
    g = start_turns(usa, 2, engine=engine)
    g.apply_name("draw tickets")
    offer = g.state()["offer"]
    g.apply_name("keep tickets 1")
    assert g.state()["ticket_deck"][-2:] == [offer[1], offer[2]]


def test_second_draw_with_nothing_left_ends_the_turn(usa, engine):
    """docs/rules.md #3: when no second card can be drawn the turn ends with one.
    The player takes the deck's last card blind; with the discards empty no other card may
    be drawn, not even the face-up ones."""
    g = start_turns(usa, 2, engine=engine)
    a = Arranged(usa, g).clear_hands()
    _only_these_outside_hands(usa, a, deck=("yellow",), faceup=("red", "blue"))
    g = a.game(engine)
    g.apply_name("draw blind")
    assert g.current_player == 1 and g.state()["hands"][0][a.card("yellow")] == 1
    assert g.state()["faceup"][:2] == [a.card("red"), a.card("blue")]


# --- Claiming Routes -----------------------------------------------------------------

def test_claim_needs_cards_of_the_route_colour(usa, engine):
    """Claiming Routes: a blue route is claimed with blue cards; locomotives are wild."""
    g = start_turns(usa, 4, engine=engine)
    g = Arranged(usa, g).hand(0, blue=2, loco=1, red=3).game(engine)
    legal = [n for n in names(g) if n.startswith("claim Montréal-New York")]
    assert legal == ["claim Montréal-New York blue 2blue+1loco"]


def test_gray_route_takes_any_one_colour(usa, engine):
    """Claiming Routes: a gray route takes a set of any one colour, never a mix."""
    g = start_turns(usa, 4, engine=engine)
    g = Arranged(usa, g).hand(0, red=2, green=1).game(engine)
    legal = [n for n in names(g) if n.startswith("claim Montréal-Toronto")]
    assert legal == []  # 2 red + 1 green is not a set
    g = Arranged(usa, g).hand(0, red=3, green=1).game(engine)
    legal = [n for n in names(g) if n.startswith("claim Montréal-Toronto")]
    assert legal == ["claim Montréal-Toronto gray 3red"]


def test_claim_pays_cards_places_trains_and_scores(usa, engine):
    """Claiming Routes and the Route Scoring Table: the cards go to the discards, trains are
    placed, points scored at once, and the turn passes."""
    g = start_turns(usa, 4, engine=engine)
    a = Arranged(usa, g).hand(0, blue=2, loco=1)
    g = a.game(engine)
    discard_before = sum(a.state["discard"])
    g.apply_name("claim Montréal-New York blue 2blue+1loco")
    s = g.state()
    assert s["owner"][usa.ir.route_named("Montréal-New York").id] == 0
    assert s["trains"][0] == 42 and s["route_score"][0] == 4 and sum(s["hands"][0]) == 0
    assert sum(s["discard"]) == discard_before + 3
    assert g.current_player == 1


@pytest.mark.parametrize("length,points", [(1, 1), (2, 2), (3, 4), (4, 7), (5, 10), (6, 15)])
def test_route_scoring_table(usa, length, points):
    """Route Scoring Table: 1, 2, 4, 7, 10 and 15 points for routes of 1 to 6 cars."""
    assert usa.ir.route_points[length] == points


def test_claim_needs_enough_trains(usa, engine):
    """Claiming Routes (and Game End): a player without enough trains cannot claim a route."""
    g = start_turns(usa, 2, engine=engine)
    a = Arranged(usa, g).own(0, "Calgary-Winnipeg", "Helena-Seattle", "Duluth-Helena", "Portland-Salt Lake City",
                             "Duluth-Toronto", "Sault St. Marie-Winnipeg", "El Paso-Houston")
    a.hand(0, red=6, loco=0)
    g = a.game(engine)
    assert g.state()["trains"][0] == 3
    claims = [n for n in names(g) if n.startswith("claim ")]
    assert claims and all(usa.ir.routes[usa.actions[usa.action_id(n)].route].length <= 3 for n in claims)


def test_one_route_per_turn(usa, engine):
    """Claiming Routes: at most one route a turn; after a claim the next player decides."""
    g = start_turns(usa, 3, engine=engine)
    g = Arranged(usa, g).hand(0, red=12, loco=6).game(engine)
    g.apply_name("claim Denver-Oklahoma City red 4red")
    assert g.current_player == 1


# --- Drawing Destination Tickets ----------------------------------------------------------

def test_draw_three_tickets_keep_at_least_one(usa, engine):
    """Drawing Destination Tickets: draw 3, keep at least one; the rest go to the bottom."""
    g = start_turns(usa, 2, engine=engine)
    top = g.state()["ticket_deck"][:3]
    g.apply_name("draw tickets")
    assert g.current_player == 0
    assert len(names(g)) == 7 and all(n.startswith("keep tickets") for n in names(g))
    g.apply_name("keep tickets 2")
    s = g.state()
    assert s["tickets"][0][-1] == top[1]
    assert s["ticket_deck"][-2:] == [top[0], top[2]]
    assert g.current_player == 1


def test_fewer_than_three_tickets_left(usa, engine):
    """Drawing Destination Tickets: with fewer than 3 left, only those are drawn; with one left it
    must be kept (docs/rules.md #6)."""
    g = start_turns(usa, 2, engine=engine)
    a = Arranged(usa, g)
    s = a.state
    s["tickets"][1].extend(s["ticket_deck"][1:])
    s["ticket_deck"] = s["ticket_deck"][:1]
    g = a.game(engine)
    g.apply_name("draw tickets")
    assert names(g) == ["keep tickets 1"]
    g.apply_name("keep tickets 1")
    assert "draw tickets" not in names(g)


# --- Game End -----------------------------------------------------------------------

def test_last_round_after_two_or_fewer_trains(usa, engine):
    """Game End: a player ending a turn with 0, 1 or 2 trains gives every player, that one
    included, one final turn."""
    g = start_turns(usa, 3, engine=engine)
    a = Arranged(usa, g).own(0, "Calgary-Winnipeg", "Helena-Seattle", "Duluth-Helena", "Portland-Salt Lake City",
                             "Duluth-Toronto", "Sault St. Marie-Winnipeg", "Helena-Winnipeg")
    a.hand(0, red=3)
    g = a.game(engine)
    assert g.state()["trains"][0] == 5
    g.apply_name("claim Chicago-Duluth red 3red")
    assert g.state()["trains"][0] == 2 and g.state()["final_turns"] == 3
    for _ in range(2):  # players 1 and 2 take their last turns
        g.apply(g.legal_actions()[0])
        while g.state()["phase"] != "turn" and not g.is_over:
            g.apply(g.legal_actions()[0])
    assert not g.is_over and g.current_player == 0
    g.apply_name("draw blind")
    while g.state()["phase"] != "turn" and not g.is_over:
        g.apply(g.legal_actions()[0])
    assert g.is_over and g.current_player == -1 and g.legal_actions() == []


# --- Calculating Scores ----------------------------------------------------------------

def position(*players):
    return {"variant": "usa", "players": [dict(routes=list(r), tickets=list(t)) for r, t in players]}


def test_a_score_before_the_end_scores_the_board_as_it_is(usa, engine):
    """Before the end, scores() scores the board as if the game ended now (docs/rules.md
    #10): held tickets not yet joined count against their holder. With no route on the
    board nobody has a path, and nobody gets the longest-path bonus (docs/rules.md #11)."""
    g = start_turns(usa, 3, engine=engine)
    rows = g.score_breakdown()
    for player, row in enumerate(rows):
        held = sum(usa.ir.tickets[t].points for t in g.state()["tickets"][player])
        assert row["tickets"] == -held and row["longest_path"] == 0 and row["longest_bonus"] == 0
    assert g.scores() == [row["total"] for row in rows] and not g.is_over


def test_completed_ticket_adds_and_failed_ticket_subtracts(usa):
    """Calculating Scores: a ticket whose cities are connected adds its points; otherwise its
    points are deducted."""
    rows = railspec.score(usa, position((["Calgary-Vancouver", "Calgary-Helena"], ["Calgary-Salt Lake City"]),
                                        (["Duluth-Helena"], [])))
    assert rows[0]["tickets"] == -7 and rows[0]["tickets_completed"] == 0
    rows = railspec.score(usa, position((["Calgary-Helena", "Helena-Salt Lake City"], ["Calgary-Salt Lake City"]),
                                        ([], [])))
    assert rows[0]["tickets"] == 7 and rows[0]["tickets_completed"] == 1


def test_winner_ties_broken_by_tickets_then_longest_path(usa):
    """Calculating Scores: equal points go to the player with more completed tickets, then to
    the holder of the Longest Continuous Path card; players still tied all win (docs/rules.md
    #12)."""
    from railspec.runtime.scoring import winners

    def rows(*players):
        return [dict(total=t, tickets_completed=c, longest_path=lp) for t, c, lp in players]
    assert winners(usa.ir, rows((50, 3, 10), (50, 4, 5))) == [1]
    assert winners(usa.ir, rows((50, 4, 10), (50, 4, 5))) == [0]
    assert winners(usa.ir, rows((50, 4, 5), (50, 4, 5))) == [0, 1]


# --- When nobody can act (docs/rules.md) --------------------------------------------------

STALLING_SPEC = """
variant "Stall"
players 2..2
trains 10
hand 1
card red 2
card blue 2
locomotives 0
market 1 reset 1 locomotives
deal tickets 1 keep 1
action draw cards 2
action claim route
action draw tickets 1 keep 1
city A; city B; city C
route A - B 3 red
route B - C 3 blue
ticket A - B 2
ticket B - C 3
end when trains <= 2
route points 1:1 2:2 3:4
"""


def test_nobody_can_act_for_a_round_ends_the_game(tmp_path, engine):
    """docs/rules.md #7: every card in hands, no ticket left and no affordable
    route: a player with no legal action passes, and a full round of passes ends the game."""
    path = tmp_path / "stall.rail"
    path.write_text(STALLING_SPEC)
    v = railspec.load(path)
    g = v.new_game(players=2, seed=3, engine=engine)
    while g.state()["phase"] == "setup_keep":
        g.apply_name("keep tickets 1")
    while not g.is_over:
        legal = names(g)
        if "pass" in legal:
            assert legal == ["pass"]  # passing is legal only when nothing else is
        g.apply(g.legal_actions()[0])
    s = g.state()
    # the 4 cards are in hands or face up: with the deck and discards empty the face-up
    # card cannot be drawn either (docs/rules.md 13)
    in_market = sum(1 for c in s["faceup"] if c >= 0)
    assert s["passes"] == 2 and s["deck"] == [] and sum(s["discard"]) == 0
    assert sum(map(sum, s["hands"])) + in_market == 4
    assert [row["total"] for row in g.score_breakdown()] == [-2, -3] or sorted(
        row["tickets"] for row in g.score_breakdown()) == [-3, -2]


@pytest.mark.parametrize("engine,games", [("compiled", 400), ("reference", 40)])
def test_no_decision_meets_a_market_that_should_have_been_redealt(usa, engine, games):
    """docs/rules.md #29 (and #1): the market is checked after every face-up draw, refill
    and end of turn, and a blind draw never makes a better market possible; so no decision
    of a game ever faces three face-up locomotives while the cards outside the hands could
    make a market with fewer."""
    loco = len(usa.ir.colours)
    stuck = 0
    for seed in range(games):
        g = usa.new_game(players=2 + seed % 4, seed=seed, engine=engine)
        rng = SplitMix64(seed)
        while not g.is_over:
            s = g.state()
            if s["faceup"].count(loco) >= 3:
                stuck += 1
                outside = s["deck"] + [c for c in s["faceup"] if c >= 0]
                plain = sum(1 for c in outside if c != loco) + sum(s["discard"][:loco])
                total = len(outside) + sum(s["discard"])
                assert min(5, total) - plain >= 3, f"seed {seed}, decision {s['decisions']}: a redeal was due"
            legal = g.legal_actions()
            g.apply(legal[rng.below(len(legal))])
    assert stuck > 0  # the games do meet markets that must stay
