"""The Pennsylvania rules, one test per rule, each naming the rulebook section it comes from
(shared/seeds/003_dff6463ca3838127.txt, the Italian edition: Quote azionistiche = stock
shares, Compagnia Ferroviaria = railroad company, Giocatore Neutrale = the neutral
player). Play tests run on both engines; majority tests on described positions, checked in
both scorers."""
from __future__ import annotations

import pytest
from conftest import Arranged, names, start_turns

import railspec
from railspec.compiler.base.rng import agent_for
from railspec.runtime import reference
from railspec.runtime.position import position_fields

PRR, BO, READING, JERSEY = ("Pennsylvania Railroad", "Baltimore & Ohio Railroad", "Reading Lines",
                            "Jersey Central Lines")


@pytest.fixture(scope="module")
def penn():
    return railspec.load("pennsylvania")


def share_index(penn, company: str, number: int) -> int:
    rule = penn.ir.rule("shares")
    return rule.first_share(next(c.id for c in rule.companies if c.name == company)) + number - 1


def score(penn, *seats, neutral=None):
    """Both scorers on a position of shares: the compiled one's rows, checked against the
    reference."""
    position = {"variant": "pennsylvania", "players": [{"shares": shares} for shares in seats]}
    if neutral:
        position["neutral_shares"] = neutral
    rows = railspec.score(penn, position)
    fields = position_fields(penn.ir, position)
    assert reference.score_fields(penn.ir, fields) == [{k: v for k, v in r.items() if k != "winner"} for r in rows]
    return rows


# --- Biglietti Destinazione and Traghetti -----------------------------------------------------

def test_five_tickets_keep_three_draw_four_keep_one(penn, engine):
    """Biglietti Destinazione: 5 dealt, keep at least 3; a draw takes 4, keep at least 1;
    those not kept go under the deck (in order: no shuffle)."""
    g = penn.new_game(players=3, seed=2, engine=engine)
    offer = g.state()["setup_offer"][0]
    assert len(offer) == 5 and all(n.count(",") >= 2 for n in names(g))
    g.apply_name("keep tickets 1,3,5")
    assert g.state()["ticket_deck"][-2:] == [offer[1], offer[3]]
    g = start_turns(penn, 2, engine=engine, keep="keep tickets 1,2,3")
    g.apply_name("draw tickets")
    assert len(g.state()["offer"]) == 4 and len(names(g)) == 15


def test_ontarios_end_points_are_not_connected(penn):
    """Traghetti: the two ferry lines into Ontario are not connected to each other."""
    through_ontario = ["Buffalo-Ontario/1", "Erie-Ontario/1", "Erie-Youngstown/1", "Pittsburgh-Youngstown/1"]
    position = {"players": [{"routes": through_ontario, "tickets": ["Pittsburgh-Buffalo", "Ontario-Warren"]},
                            {"routes": []}]}
    rows = railspec.score(penn, position)
    assert rows[0]["tickets_completed"] == 0
    position["players"][0]["routes"] += ["Buffalo-Erie/1", "Erie-Warren"]
    assert railspec.score(penn, position)[0]["tickets_completed"] == 2


# --- Quote azionistiche --------------------------------------------------------------------

def test_a_claim_takes_the_top_share_of_a_company_on_the_route(penn, engine):
    """Quote azionistiche: a player who claims a route may take the top share of a company
    shown on it; the shares of a company are stacked in number order, #1 on top."""
    g = start_turns(penn, 3, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(penn, g).hand(0, green=2).game(engine)
    g.apply_name("claim Allentown-Reading green 2green")
    assert g.state()["phase"] == "share" and g.current_player == 0
    assert names(g) == [f"take share {READING}", "take no share"]
    g.apply_name(f"take share {READING}")
    s = g.state()
    assert s["share_owner"][share_index(penn, READING, 1)] == 0 and g.current_player == 1
    g = Arranged(penn, g).hand(1, black=3).game(engine)
    g.apply_name("claim Allentown-Philadelphia/1 black 3black")
    assert names(g) == [f"take share {PRR}", f"take share {READING}", "take no share"]  # the route shows both
    g.apply_name(f"take share {READING}")
    assert g.state()["share_owner"][share_index(penn, READING, 2)] == 1


def test_an_exhausted_company_cannot_be_chosen(penn, engine):
    """Quote azionistiche: when all of a company's shares are gone, the player must choose
    another company shown on the route; with none left, no share is taken."""
    g = start_turns(penn, 3, engine=engine, keep="keep tickets 1,2,3")
    a = Arranged(penn, g).hand(0, black=3, green=2)
    owner = a.state["share_owner"]
    for number in range(1, 8):  # Reading Lines has 7 shares, all taken by player 2
        owner[share_index(penn, READING, number)] = 2
    g = a.game(engine)
    g.apply_name("claim Allentown-Philadelphia/1 black 3black")
    assert names(g) == [f"take share {PRR}", "take no share"]
    g = Arranged(penn, g).set(phase="turn", share_route=-1, current=0).game(engine)
    g.apply_name("claim Allentown-Reading green 2green")  # Reading only: no share left
    assert g.state()["phase"] == "turn" and g.current_player == 1


def test_a_route_without_companies_gives_no_share(penn, engine):
    """Quote azionistiche: 'those lines give no share': the turn ends with the claim."""
    g = start_turns(penn, 3, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(penn, g).hand(0, pink=6).game(engine)
    g.apply_name("claim Albany-Binghamton pink 6pink")
    assert g.state()["phase"] == "turn" and g.current_player == 1


@pytest.mark.parametrize("players", [2, 3])
def test_a_share_may_be_declined(penn, engine, players):
    """Quote azionistiche: a player who claims a route with company symbols "può anche
    prendere" (may also take) a share: ``take no share`` is offered beside the shares at
    every player count (docs/rules.md #18); it takes none, and with 2 players the neutral
    shareholder takes none either (Regole per 2 giocatori: "Ogni volta che un giocatore prende
    una Quota Azionistica, sceglie una Quota Azionistica per il Giocatore Neutrale")."""
    g = start_turns(penn, players, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(penn, g).hand(0, black=3).game(engine)
    before = g.state()["share_owner"]
    g.apply_name("claim Allentown-Philadelphia/1 black 3black")
    assert names(g)[-1] == "take no share"
    g.apply_name("take no share")
    s = g.state()
    assert s["share_owner"] == before and s["share_route"] == -1
    assert s["phase"] == "turn" and g.current_player == 1
    assert s["owner"][penn.ir.route_named("Allentown-Philadelphia/1").id] == 0


# --- Calcolare il punteggio -------------------------------------------------------------------

def test_majorities_pay_the_companys_table(penn):
    """Calcolare il punteggio: the holder of the most shares of a company scores the highest
    value of its table, the next the second, …; no share, no points."""
    rows = score(penn, {PRR: [1, 2, 3]}, {PRR: [4, 5]}, {})
    assert [r["shares"] for r in rows] == [30, 21, 0]
    assert [r[f"{PRR} place"] for r in rows] == [1, 2, 0]


def test_equal_shares_go_to_the_lowest_numbered_share(penn):
    """Calcolare il punteggio: no ties: with equal shares, the player with the lowest
    numbered share ranks first, having invested in the company first."""
    rows = score(penn, {PRR: [2, 3]}, {PRR: [1, 4]})
    assert [r["shares"] for r in rows] == [21, 30]


def test_places_beyond_the_table_score_nothing(penn):
    """Calcolare il punteggio: when more players hold shares than the table has places, those
    with the fewest score nothing (Jersey Central Lines: 3 shares, a table of 8, 5)."""
    rows = score(penn, {JERSEY: [1]}, {JERSEY: [2]}, {JERSEY: [3]})
    assert [r["shares"] for r in rows] == [8, 5, 0] and [r[f"{JERSEY} place"] for r in rows] == [1, 2, 3]


def test_the_rulebooks_neutral_example(penn):
    """Regole per 2 giocatori, the rulebook's example: Baltimore & Ohio, Mario holds 3 shares,
    the neutral player 2 and Christian 1: Mario scores 20 and Christian 9; the neutral player
    ranks but scores nothing."""
    rows = score(penn, {BO: [1, 2, 3]}, {BO: [6]}, neutral={BO: [4, 5]})
    assert [r["shares"] for r in rows] == [20, 9] and [r[f"{BO} place"] for r in rows] == [1, 3]


@pytest.mark.parametrize("completed,bonus", [([2, 2, 1], [15, 15, 0]), ([0, 3], [0, 15]), ([0, 0], [0, 0])])
def test_globetrotter(penn, completed, bonus):
    """Calcolare il punteggio: the Globetrotter bonus, 15, to the player or players who
    completed the most tickets; nobody completed one, nobody scores it (docs/rules.md #17)."""
    from railspec.mechanics.globetrotter import globetrotter_bonus
    assert globetrotter_bonus(penn.ir.rule("globetrotter"), completed) == bonus


def test_no_longest_path(penn):
    """docs/rules.md #25: the rulebook gives no longest-path bonus and the map has none."""
    assert "longest_path" not in penn.assembly.breakdown_keys


@pytest.mark.parametrize("name", ["pennsylvania", "italy"])
def test_ties_go_to_the_most_tickets_then_stay_shared(name):
    """docs/rules.md #27: the Pennsylvania and Italy rulebooks say nothing of ties; the base
    game's first tie-breaker, most tickets completed, is the one left (neither map has a
    longest-path card), and players still tied share the win."""
    from railspec.runtime.scoring import winners
    v = railspec.load(name)
    assert v.ir.tiebreaks == ("most_tickets",)
    rows = [dict(total=60, tickets_completed=3), dict(total=60, tickets_completed=4)]
    assert winners(v.ir, rows) == [1]
    assert winners(v.ir, [dict(total=60, tickets_completed=4), dict(total=60, tickets_completed=4)]) == [0, 1]


def test_the_neutral_takes_no_share_when_the_route_has_none_left(penn, engine):
    """docs/rules.md #26: Regole per 2 giocatori, "Ogni volta che un giocatore prende una
    Quota Azionistica, sceglie una Quota Azionistica per il Giocatore Neutrale", read as
    "when one is left to choose": a player who takes the last share of the only company on
    the route chooses none for the neutral (takes route companies), and the turn ends."""
    g = start_turns(penn, 2, engine=engine, keep="keep tickets 1,2,3")
    a = Arranged(penn, g).hand(0, green=2)
    owner = a.state["share_owner"]
    for number in range(1, 7):  # Reading Lines: 7 shares, 6 taken by player 1
        owner[share_index(penn, READING, number)] = 1
    g = a.game(engine)
    g.apply_name("claim Allentown-Reading green 2green")
    g.apply_name(f"take share {READING}")
    s = g.state()
    assert s["share_owner"][share_index(penn, READING, 7)] == 0
    assert s["phase"] == "turn" and g.current_player == 1 and 2 not in s["share_owner"]


# --- Regole per 2 giocatori ------------------------------------------------------------------

def test_two_players_choose_a_share_for_the_neutral_too(penn, engine):
    """Regole per 2 giocatori: each time a player takes a share, they choose one for the
    neutral player (here among the route's companies, docs/rules.md #15)."""
    g = start_turns(penn, 2, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(penn, g).hand(0, black=3).game(engine)
    g.apply_name("claim Allentown-Philadelphia/1 black 3black")
    g.apply_name(f"take share {PRR}")
    assert g.state()["phase"] == "neutral_share" and g.current_player == 0
    assert names(g) == [f"neutral share {PRR}", f"neutral share {READING}"]
    g.apply_name(f"neutral share {READING}")
    s = g.state()
    assert s["share_owner"][share_index(penn, PRR, 1)] == 0 and s["share_owner"][share_index(penn, READING, 1)] == 2
    assert g.current_player == 1


def test_half_the_neutral_shares_rounded_up_are_revealed_at_the_end(penn, engine):
    """Regole per 2 giocatori: at the end the neutral's shares are shuffled and half of them,
    rounded up, are revealed; the draw is the game's generator's and is kept in the state
    (docs/rules.md #19)."""
    g = penn.new_game(players=2, seed=9, engine=engine)
    agent = agent_for(9)
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[agent.below(len(legal))])
    owner = g.state()["share_owner"]
    neutral = sum(1 for o in owner if o >= 2)
    assert neutral > 0 and sum(1 for o in owner if o == 3) == (neutral + 1) // 2


def test_positions_name_bad_shares(penn):
    """A position's shares: an unknown company, a number beyond the company's size, or a
    share held twice is an error naming it."""
    for shares, message in (({"Atlantis Railway": [1]}, "Atlantis"), ({JERSEY: [4]}, "shares 1 to 3"),
                            ({JERSEY: [1, 1]}, "held twice")):
        with pytest.raises(railspec.PositionError, match=message):
            railspec.score(penn, {"players": [{"shares": shares}, {}]})
    with pytest.raises(railspec.PositionError, match="no neutral"):
        railspec.score(penn, {"players": [{}, {}, {}], "neutral_shares": {PRR: [1]}})
