"""The longest-path bonus (mechanics/longest_path): its statement and its errors, its rule on
the USA and Europe maps in both scorers and on both engines, and the compiled search against
an exhaustive one.

USA rulebook (shared/seeds/002_e4892a60f61bb48a.txt), Calculating Scores: the Longest
Continuous Path card; Europe rulebook (shared/seeds/000_bb662d8662a85a07.txt), Calcolo dei
punteggi: the European Express. (The search itself is tested in tests/test_longest_path.py.)
"""
from __future__ import annotations

import random

import pytest
from conftest import Arranged, assert_located_error, bad_spec_params, checked, edit, mini, score_both, start_turns

import railspec
from railspec.compiler import check_file, stock_path
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError
from railspec.compiler.build import build
from railspec.compiler.emit import emit

S, C = SpecSyntaxError, SpecCheckError

@pytest.fixture(scope="module")
def europe():
    return railspec.load("europe")


@pytest.fixture(scope="module")
def usa_ir():
    """The USA spec, checked (the compiler's variant, as tests/test_emit_build.py's ``usa``)."""
    return check_file(stock_path("usa"))


@pytest.fixture(scope="module")
def usa_module(usa_ir, tmp_path_factory):
    """The USA engine: the installed stock module when current, else built here."""
    return build(usa_ir, emit(usa_ir), cache_dir=tmp_path_factory.mktemp("usa-cache"))


def position(*players):
    return {"variant": "usa", "players": [dict(routes=list(r), tickets=list(t)) for r, t in players]}


def seat(routes=(), tickets=(), stations=()) -> dict:
    return {"routes": list(routes), "tickets": list(tickets), "stations": list(stations)}


def score(europe, *seats):
    """Both scorers on a position: the compiled one's rows, checked against the reference."""
    return score_both(europe, {"variant": "europe", "players": list(seats)})


# --- the statement: 'longest path N' ----------------------------------------------------------

def test_longest_path_usa_calculating_scores():
    """USA, 'Calculating Scores': the Longest Continuous Path bonus of 10 points."""
    v = checked(mini("longest path 10"))
    assert v.rule("longest_path").bonus == 10 and "longest_path" in v.mechanics
    assert checked(mini()).rule("longest_path") is None


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("longest-path-plural", edit(17, "longest paths 10"), S, 17, 9,
     "unexpected 'paths', expected a number; the form is: longest path N"),
    ("longest-path-beyond-a-long", edit(17, "longest path 9223372036854775808"), C, 17, 14,
     "the longest path bonus must be at most 1,000,000, got 9223372036854775808"),
    ("longest-path-negative", edit(17, "longest path -10"), C, 17, 14,
     "the longest path bonus must be zero or more, got -10"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- Calculating Scores (USA) -----------------------------------------------------------------

def test_longest_path_bonus_shared_by_tied_players(usa):
    """Calculating Scores: the longest continuous path scores 10; tied players all score it."""
    rows = railspec.score(usa, position((["Calgary-Helena"], []), (["Denver-Helena"], []),
                                        (["Seattle-Vancouver/1"], [])))
    assert [r["longest_bonus"] for r in rows] == [10, 10, 0]


def test_longest_path_may_loop_but_uses_each_train_once(usa):
    """Calculating Scores: a continuous path may include loops and pass a city several times,
    but no train is used twice."""
    triangle = ["Calgary-Seattle", "Calgary-Vancouver", "Seattle-Vancouver/1"]
    rows = railspec.score(usa, position((triangle + ["Calgary-Helena"], []), ([], [])))
    assert rows[0]["longest_path"] == 4 + 3 + 1 + 4  # around the loop and out to Helena
    figure_eight = triangle + ["Calgary-Helena", "Helena-Seattle"]
    rows = railspec.score(usa, position((figure_eight, []), ([], [])))
    assert rows[0]["longest_path"] == 4 + 3 + 1 + 4 + 6


def test_longest_path_tie_break_is_the_card_not_the_longer_path(usa):
    """Calculating Scores: "the player with the Longest Continuous Path card wins". When the
    tied players are still tied after tickets and a third player holds the card, none of
    them holds it: they stay tied, whatever their own paths."""
    from railspec.runtime.scoring import winners

    def rows(*players):
        return [dict(total=t, tickets_completed=c, longest_path=lp) for t, c, lp in players]
    # players 0 and 1 tie; player 2 holds the card: 0 and 1 share the win
    assert winners(usa.ir, rows((60, 2, 4), (60, 2, 5), (40, 1, 9))) == [0, 1]
    # player 1 holds the card (ties for the longest count as holding it)
    assert winners(usa.ir, rows((60, 2, 4), (60, 2, 9), (40, 1, 9))) == [1]
    assert winners(usa.ir, rows((60, 2, 9), (60, 2, 9), (40, 1, 3))) == [0, 1]
    # nobody has a path: nobody holds the card
    assert winners(usa.ir, rows((0, 0, 0), (0, 0, 0))) == [0, 1]


def _disjoint_routes(v, lengths: list[int], taken: set[str]) -> list[str]:
    """Single-track routes of these lengths, none in ``taken`` (which they join), sharing
    no city with each other: the longest path among them is the longest route."""
    cities, out = set(), []
    for length in lengths:
        r = next(r for r in v.routes
                 if r.length == length and r.tracks == 1 and r.name not in taken and not {r.a, r.b} & cities)
        cities |= {r.a, r.b}
        out.append(r.name)
    taken.update(out)
    return out


def test_longest_path_card_decides_ties_in_both_engines(usa, engine):
    """Calculating Scores, the same rule on a played board: players 0 and 1 tie on points
    (26) and tickets (none); player 1's path (5) is longer than player 0's (4), but player
    2's single 6-car route holds the card (15 + 10 = 25 points): 0 and 1 share the win."""
    g = start_turns(usa, 3, engine=engine)
    a = Arranged(usa, g)
    s = a.state
    for held in s["tickets"]:  # no tickets: only routes and the bonus count
        s["ticket_deck"].extend(held)
        held.clear()
    taken: set[str] = set()
    (six,) = _disjoint_routes(usa, [6], taken)
    p0 = _disjoint_routes(usa, [4, 4, 4, 3, 1], taken)  # 7+7+7+4+1 = 26, longest 4
    p1 = _disjoint_routes(usa, [5, 4, 4, 2], taken)     # 10+7+7+2 = 26, longest 5
    a.own(0, *p0).own(1, *p1).own(2, six)
    g = a.game(engine)
    rows = g.score_breakdown()
    assert [r["total"] for r in rows] == [26, 26, 25]
    assert [r["longest_path"] for r in rows] == [4, 5, 6] and rows[2]["longest_bonus"] == 10
    assert g.winners() == [0, 1]


# --- CALCOLO DEI PUNTEGGI (Europe) ------------------------------------------------------------

def test_the_european_express_goes_to_every_player_tied(europe):
    """CALCOLO DEI PUNTEGGI: the 10 points of the European Express to the longest continuous
    path, to each player tied for it; loops and cities passed twice allowed."""
    assert europe.ir.rule("longest_path").bonus == 10
    rows = score(europe, seat(["Brest-Paris"]), seat(["Lisboa-Madrid"]), seat(["Amsterdam-Frankfurt"]))
    assert [r["longest_bonus"] for r in rows] == [10, 10, 0]


# --- the compiled search against an exhaustive one (tests/test_emit_build.py) -----------------

def _longest_trail(edges):
    """Brute force: the longest walk using no edge twice, from every node."""
    best = 0
    used = [False] * len(edges)

    def walk(node, length):
        nonlocal best
        best = max(best, length)
        for i, (a, b, w) in enumerate(edges):
            if not used[i] and node in (a, b):
                used[i] = True
                walk(b if node == a else a, length + w)
                used[i] = False
    for node in {n for a, b, _ in edges for n in (a, b)}:
        walk(node, 0)
    return best


def test_longest_path_matches_brute_force(usa_ir, usa_module):
    """The compiled search starts only at odd-degree cities; check it against a plain
    exhaustive search on random boards (including cycles and shared cities)."""
    rng = random.Random(5)
    base = usa_module.Engine(2, 1).export_state()
    for trial in range(150):
        owned = rng.sample(range(len(usa_ir.routes)), rng.randint(0, 14))
        state = dict(base)
        state["owner"] = [-1] * len(usa_ir.routes)
        for r in owned:
            state["owner"][r] = rng.randrange(2)
        breakdown = usa_module.Engine.from_state(state).score_breakdown()
        for p in range(2):
            edges = [(usa_ir.routes[r].a, usa_ir.routes[r].b, usa_ir.routes[r].length)
                     for r in owned if state["owner"][r] == p]
            assert breakdown[p]["longest_path"] == _longest_trail(edges), (trial, p, edges)
            assert breakdown[p]["routes"] == sum(usa_ir.route_points[usa_ir.routes[r].length]
                                                 for r in owned if state["owner"][r] == p)
