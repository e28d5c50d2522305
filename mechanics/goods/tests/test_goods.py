"""Goods cards, ranked at the end (mechanics/goods): its statements, and its rule on the
Amsterdam map on both engines and in both scorers.

The rule's tests name the section of the Amsterdam rulebook they come from
(shared/seeds/001_5402fe9f138aeb47.txt, the Italian edition: carta Bonus Merce = goods
card). The map's goods routes and tables are provisional (spec/amsterdam.rail's header).
"""
from __future__ import annotations

import warnings

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
    start_turns,
    statements,
)

import railspec
from railspec.compiler.base.errors import ProvisionalSpecWarning, SpecCheckError, SpecSyntaxError
from railspec.mechanics.goods.syntax import GoodsRanking
from railspec.runtime import reference
from railspec.runtime.position import position_fields

S, C = SpecSyntaxError, SpecCheckError

@pytest.fixture(scope="module")
def ams():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProvisionalSpecWarning)
        return railspec.load("amsterdam")


# --- the statements: 'goods cards N', 'goods' on a route, 'goods ranking', 'goods ties', 'goods without cards' ---

def test_goods_routes_and_ranking_amsterdam():
    """Amsterdam, 'Controllare una Linea' (cart symbol: take a goods card) and 'Fine della
    Partita e Calcolo dei Punteggi': the ranking table per player count (2: 8 4; 3: 8 5 2;
    4: 8 6 4 2)."""
    v = checked(mini("goods cards 16\nroute Alpha - Gamma 3 red goods\n"
                     "goods ranking 2 players: 8 4\ngoods ranking 3 players: 8 5 2\n"
                     "goods ranking 4 players: 8 6 4 2", players="players 2..4"))
    assert v.rule("goods").cards == 16 and v.route_named("Alpha-Gamma").id in v.rule("goods").routes
    assert v.rule("goods").ranking == ((2, (8, 4)), (3, (8, 5, 2)), (4, (8, 6, 4, 2)))
    assert "goods" in v.mechanics


def test_goods_ranking_per_player_count_amsterdam():
    """Amsterdam, 'Fine della Partita e Calcolo dei Punteggi': `goods ranking 4 players: 8 6 4 2`."""
    (stmt,) = statements("goods ranking 4 players: 8 6 4 2", GoodsRanking)
    assert stmt.players.value == 4 and [p.value for p in stmt.points] == [8, 6, 4, 2]


GOODS = "goods cards 16\n" + "\n".join(f"goods ranking {n} players: {' '.join('8 6 4 2 1'.split()[:n])}"
                                       for n in range(2, 6)) + "\n"


def test_goods_ties_and_players_without_goods_amsterdam():
    """Amsterdam, 'Fine della Partita': tied players all score their place and the next is
    skipped; a player without goods cards scores nothing. The alternatives are spelt too."""
    v = checked(mini(GOODS))
    assert (v.rule("goods").ties, v.rule("goods").without) == ("share", "nothing")
    v = checked(mini(GOODS + "goods ties split\ngoods without cards rank"))
    assert (v.rule("goods").ties, v.rule("goods").without) == ("split", "rank")


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("goods-cards-no-number", add(24, "goods cards"), S, 24, 12, "the form is: goods cards N"),
    ("goods-ranking-without-colon", add(24, "goods ranking 2 players 8 4"), S, 24, 25,
     "unexpected '8', expected ':'; the form is: goods ranking N players: P1 P2 …"),
    ("goods-ties-how", add(18, "goods ties evenly"), S, 18, 12,
     "unexpected 'evenly', expected one of 'share', 'split'"),
    ("goods-without-cards-how", add(18, "goods without cards score zero"), S, 18, 27,
     "unexpected 'zero', expected 'nothing'"),
    ("goods-cards-too-many", add(24, "goods cards 1001; goods ranking 2 players: 8 4; goods ranking 3 players: 8 5 2; "
                                     "goods ranking 4 players: 8 6 4 2"), C, 24, 13,
     "the number of goods cards must be at most 1,000, got 1001"),
    ("goods-ranking-more-places-than-players",
     add(24, "goods cards 16; goods ranking 2 players: 8 4 2; goods ranking 3 players: 8 5 2; "
             "goods ranking 4 players: 8 6 4 2"), C, 24, 46,
     "goods ranking for 2 players has 3 places; a place beyond the players is never reached"),
    ("goods-route-without-goods-cards", edit(26, "route Beta - Gamma 3 gray goods"), C, 26, 1,
     "a goods route needs goods cards: add 'goods cards N'"),
    ("goods-ties-without-goods", add(18, "goods ties split"), C, 18, 1,
     "'goods ties' needs goods cards: add 'goods cards N'"),
    ("goods-ranking-missing-count",
     add(24, "goods cards 16; goods ranking 2 players: 8 4; goods ranking 3 players: 8 5 2"), C, 24, 1,
     "goods cards need a 'goods ranking 4 players: …' table"),
    ("goods-ranking-outside-players",
     add(24, "goods cards 16; goods ranking 2 players: 8 4; goods ranking 3 players: 8 5 2; "
             "goods ranking 4 players: 8 6 4 2; goods ranking 5 players: 8 6 4 2 1"), C, 24, 127,
     "goods ranking for 5 players, but the game is for 2..4"),
    ("goods-ranking-without-goods", add(24, "goods ranking 2 players: 8 4"), C, 24, 1,
     "'goods ranking' needs goods cards: add 'goods cards N'"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# (id, spec text, line, col, message fragment): content that checks but does nothing, as in
# tests/test_bad_specs.py
WARNING_CASES = [
    ("goods-cards-without-goods-routes", add(24, "goods cards 16; goods ranking 2 players: 8 4; "
                                                  "goods ranking 3 players: 8 5 2; goods ranking 4 players: 8 6 4 2"),
     24, 1, "goods cards are declared but no route is a goods route: none is ever taken"),
]


@pytest.mark.parametrize("text,line,col,fragment", [c[1:] for c in WARNING_CASES],
                         ids=[c[0] for c in WARNING_CASES])
def test_dead_content_is_a_located_warning(tmp_path, text, line, col, fragment):
    """Content that checks but does nothing is a warning: the spec compiles, the warning is
    located like an error, `railspec check` prints it, and `--strict` fails on it."""
    assert_located_warning(tmp_path, text, line, col, fragment)


# --- Controllare una Linea and Fine della Partita (Amsterdam) ---------------------------------

GOODS_ROUTE = "Dam-Oost-Indisch Huis/1"   # 3 black, a cart symbol (provisional)
PLAIN_ROUTE = "Dam-Oude Kerk/1"           # 2 orange, none


def test_a_goods_route_gives_one_goods_card(ams, engine):
    """Controllare una Linea: claiming a route with the cart symbol gives 1 goods card,
    face up (everyone sees how many each has), whatever the route's length."""
    g = start_turns(ams, 3, engine=engine, keep="keep tickets 1,2")
    g = Arranged(ams, g).hand(0, black=3, orange=2).game(engine)
    g.apply_name(f"claim {GOODS_ROUTE} black 3black")
    s = g.state()
    assert s["goods"] == [1, 0, 0] and s["goods_pile"] == 15
    assert g.observation(2)["goods"] == [1, 0, 0]
    g = Arranged(ams, g).hand(1, orange=2).game(engine)
    g.apply_name(f"claim {PLAIN_ROUTE} orange 2orange")
    assert g.state()["goods"] == [1, 0, 0]


def test_no_goods_card_once_the_pile_is_empty(ams, engine):
    """Controllare una Linea: the card comes from the goods deck; with none left, none."""
    g = start_turns(ams, 2, engine=engine, keep="keep tickets 1,2")
    g = Arranged(ams, g).hand(0, black=3).set(goods=[9, 7], goods_pile=0).game(engine)
    g.apply_name(f"claim {GOODS_ROUTE} black 3black")
    assert g.state()["goods"] == [9, 7] and g.state()["goods_pile"] == 0


def position(goods):
    return {"variant": "amsterdam", "players": [{"routes": [], "tickets": [], "goods": n} for n in goods]}


@pytest.mark.parametrize("goods,points", [
    ([5, 3, 2, 1], [8, 6, 4, 2]),     # 4 players: 8, 6, 4, 2
    ([3, 2, 1], [8, 5, 2]),           # 3 players: 8, 5, 2
    ([4, 1], [8, 4]),                 # 2 players: 8, 4
    ([3, 3, 1, 2], [8, 8, 2, 4]),     # a tie for first: both score 8, the next scores third place
    ([3, 2, 2, 1], [8, 6, 6, 2]),     # a tie for second: 6 each, the next scores fourth place
    ([2, 2, 2, 1], [8, 8, 8, 2]),     # three tied: each place the tie fills is skipped (docs/rules.md #28)
    ([1, 1, 1, 1], [8, 8, 8, 8]),
    ([2, 0, 0, 1], [8, 0, 0, 6]),     # no goods card, no bonus
    ([0, 0], [0, 0]),
])
def test_goods_ranking_fine_della_partita(ams, goods, points):
    """Fine della Partita: players ranked by goods cards score the table for their count
    (4 players 8, 6, 4, 2; 3 players 8, 5, 2; 2 players 8, 4); tied players all score their
    place and the next place is skipped; a player with no goods card scores nothing."""
    rows = railspec.score(ams, position(goods))
    assert [r["goods"] for r in rows] == points and [r["goods_cards"] for r in rows] == goods
    assert all(r["total"] == r["routes"] + r["tickets"] + r["goods"] for r in rows)


def test_both_scorers_rank_goods_alike(ams):
    for goods in ([3, 3, 1, 2], [1, 1, 1, 1], [0, 2, 2], [4, 0]):
        fields = position_fields(ams.ir, position(goods))
        assert ams.module().Engine.for_scoring(fields).score_breakdown() == reference.score_fields(ams.ir, fields)


def test_positions_with_too_many_goods_cards_are_refused(ams):
    with pytest.raises(railspec.PositionError, match="16"):
        railspec.score(ams, position([10, 7]))
    with pytest.raises(railspec.PositionError, match="goods"):
        railspec.score(ams, position([-1, 0]))
