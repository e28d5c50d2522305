"""Stock shares and majority scoring (mechanics/shares): its statements, its rule on the
Pennsylvania map on both engines, and its scoring.

The rule's tests name the section of the Pennsylvania rulebook they come from
(shared/seeds/003_dff6463ca3838127.txt, the Italian edition: Quote azionistiche = stock
shares, Compagnia Ferroviaria = railroad company, Giocatore Neutrale = the neutral
player). Play tests run on both engines; majority tests on described positions, checked in
both scorers.
"""
from __future__ import annotations

import pytest
from conftest import (
    Arranged,
    add,
    assert_located_error,
    assert_located_warning,
    bad_spec_params,
    checked,
    edit,
    mini,
    names,
    score_both,
    start_turns,
    statements,
)

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError
from railspec.compiler.base.rng import agent_for
from railspec.mechanics.shares.syntax import Company

S, C = SpecSyntaxError, SpecCheckError

@pytest.fixture(scope="module")
def penn():
    return railspec.load("pennsylvania")


def score(penn, *seats, neutral=None):
    """Both scorers on a position of shares: the compiled one's rows, checked against the
    reference."""
    position = {"variant": "pennsylvania", "players": [{"shares": shares} for shares in seats]}
    if neutral:
        position["neutral_shares"] = neutral
    return score_both(penn, position)


# --- the statements: 'company NAME shares N points …', 'shares' on a route, 'share ties', 'neutral shareholder' ---

def test_shares_and_companies_pennsylvania_quote_azionistiche():
    """Pennsylvania, 'Quote Azionistiche' (a route shows the companies whose shares its
    claimer may take) and 'Calcolare il punteggio' (PRR: 15 shares, 30 21 14 9 6)."""
    v = checked(mini("company PRR shares 15 points 30 21 14 9 6\ncompany B&O shares 10 points 20 14 9 5 2\n"
                     'company "Erie Lackawanna" shares 8 points 16 10 5 1\n'
                     'route Alpha - Gamma 4 red shares PRR, B&O, "Erie Lackawanna"'))
    assert [(c.name, c.shares, c.points) for c in v.rule("shares").companies] == [
        ("PRR", 15, (30, 21, 14, 9, 6)), ("B&O", 10, (20, 14, 9, 5, 2)), ("Erie Lackawanna", 8, (16, 10, 5, 1))]
    assert v.rule("shares").companies_of(v.route_named("Alpha-Gamma").id) == (0, 1, 2)
    assert "take share B&O" in [a.name for a in v.actions]
    # 'Regole per 2 giocatori': the neutral player is written out, never inferred from 2..5
    assert "neutral share PRR" not in [a.name for a in v.actions]


def test_company_table_pennsylvania_calcolare_il_punteggio():
    """Pennsylvania, 'Calcolare il punteggio': the PRR card, 15 shares, 30 21 14 9 6."""
    (stmt,) = statements("company PRR shares 15 points 30 21 14 9 6", Company)
    assert (stmt.name.text, stmt.shares.value, [p.value for p in stmt.points]) == ("PRR", 15, [30, 21, 14, 9, 6])


COMPANY = "company PRR shares 15 points 30 21 14 9 6\n"


def test_share_ties_and_neutral_shareholder_pennsylvania():
    """Pennsylvania, 'Calcolare il punteggio': no ties, the lowest-numbered share ranks
    first; 'Regole per 2 giocatori': a neutral shareholder, half of whose shares (rounded
    up) count. The neutral player is written, never inferred from the player count."""
    v = checked(mini(COMPANY))
    assert v.rule("shares").ties == "lowest_number" and v.rule("shares").neutral is None
    assert not any(a.name.startswith("neutral share") for a in v.actions)
    v = checked(mini(COMPANY + "share ties shared\n"
                     "neutral shareholder for 2 players takes route companies counts half rounded up"))
    neutral = v.rule("shares").neutral
    assert v.rule("shares").ties == "shared"
    assert (neutral.low, neutral.high, neutral.takes, neutral.rounding) == (2, 2, "route", "up")
    assert any(a.name == "neutral share PRR" for a in v.actions)
    v = checked(mini(COMPANY + "neutral shareholder for 2..3 players takes any company counts half rounded down"))
    assert (v.rule("shares").neutral.takes, v.rule("shares").neutral.rounding) == ("any", "down")


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("company-without-points", add(19, "company PRR shares 15 30 21"), S, 19, 23,
     "unexpected '30', expected 'points'; the form is: company NAME shares N points P1 P2 …"),
    ("share-ties-how", add(18, "share ties highest number"), S, 18, 12,
     "unexpected 'highest', expected one of 'lowest', 'shared'"),
    ("neutral-takes-what", add(19, "neutral shareholder for 2 players takes everything counts half rounded up"),
     S, 19, 41, "unexpected 'everything', expected one of 'any', 'route'"),
    ("shares-attribute-without-company", edit(26, "route Beta - Gamma 3 gray shares"), S, 26, 33,
     "expected one of a name, a quoted string"),
    ("company-too-many-shares", add(19, "company PRR shares 101 points 30 21"), C, 19, 20,
     "the number of PRR shares must be at most 100, got 101"),
    ("company-too-many-places", add(19, "company PRR shares 15 points 9 8 7 6 5 4"), C, 19, 40,
     "company PRR has 6 places, more than the 5 shareholders a game can have (4 players and a neutral one)"),
    ("share-points-too-large", add(19, "company PRR shares 15 points 30 2000000"), C, 19, 33,
     "a share points entry must be at most 1,000,000, got 2000000"),
    ("unknown-company", edit(26, "route Beta - Gamma 3 gray shares PRR"), C, 26, 34, "unknown company 'PRR'"),
    ("company-twice-on-a-route", add(19, "company PRR shares 15 points 30 21")
     .replace("route Beta - Gamma 3 gray", "route Beta - Gamma 3 gray shares PRR, PRR"), C, 27, 39,
     "company 'PRR' is listed twice on this route"),
    ("company-twice", add(19, "company PRR shares 15 points 30 21; company PRR shares 5 points 1"), C, 19, 45,
     "company 'PRR' is declared twice (first at line 19)"),
    ("company-without-shares", add(19, "company PRR shares 0 points 30"), C, 19, 20,
     "the number of PRR shares must be positive, got 0"),
    ("share-ties-without-companies", add(18, "share ties shared"), C, 18, 1,
     "'share ties' needs companies: add 'company NAME shares N points …'"),
    ("neutral-outside-players", add(19, "company PRR shares 15 points 30 21; "
                                        "neutral shareholder for 5 players takes any company counts half rounded up"),
     C, 19, 61, "a neutral shareholder for 5 players, but the game is for 2..4"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# (id, spec text, line, col, message fragment): content that checks but does nothing, as in
# tests/test_bad_specs.py
WARNING_CASES = [
    ("company-named-by-no-route", add(19, "company PRR shares 15 points 30 21"), 19, 9,
     "company 'PRR' is named by no route: its shares are never taken"),
    ("company-places-beyond-its-shares", add(19, "company PRR shares 2 points 30 21 14")
     .replace("route Beta - Gamma 3 gray", "route Beta - Gamma 3 gray shares PRR"), 19, 9,
     "company 'PRR' has 3 places, but only 2 can be reached: it has 2 shares"),
    ("company-places-beyond-the-players", add(19, "company PRR shares 15 points 30 21 14 9 6")
     .replace("route Beta - Gamma 3 gray", "route Beta - Gamma 3 gray shares PRR"), 19, 9,
     "company 'PRR' has 5 places, but only 4 can be reached: at most 4 shareholders play"),
]


@pytest.mark.parametrize("text,line,col,fragment", [c[1:] for c in WARNING_CASES],
                         ids=[c[0] for c in WARNING_CASES])
def test_dead_content_is_a_located_warning(tmp_path, text, line, col, fragment):
    """Content that checks but does nothing is a warning: the spec compiles, the warning is
    located like an error, `railspec check` prints it, and `--strict` fails on it."""
    assert_located_warning(tmp_path, text, line, col, fragment)


# --- Quote azionistiche, Calcolare il punteggio, Regole per 2 giocatori (Pennsylvania) --------

PRR, BO, READING, JERSEY = ("Pennsylvania Railroad", "Baltimore & Ohio Railroad", "Reading Lines",
                            "Jersey Central Lines")


def share_index(penn, company: str, number: int) -> int:
    rule = penn.ir.rule("shares")
    return rule.first_share(next(c.id for c in rule.companies if c.name == company)) + number - 1


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
