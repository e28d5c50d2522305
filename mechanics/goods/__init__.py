"""Goods cards, ranked at the end (Amsterdam).

Amsterdam rulebook, Controllare una linea and Fine della partita: claiming a route with a
cart symbol takes one goods card (one per route, whatever its length); at the end the
players are ranked by their goods cards and score the ranking table for the player
count. Written ``goods cards N``, the route attribute ``goods`` and ``goods ranking N
players: P1 P2 …`` (``syntax.py``, ``grammar.lark``). Ties: ``goods ties share`` (every
tied player scores the place, the places after it are skipped; the default, Amsterdam) or
``goods ties split`` (the tied players split the points of the places they fill, rounded
down). ``goods without cards score nothing`` (the default, Amsterdam) or ``goods without
cards rank``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import PositionError, Span
from ...compiler.base.limits import MAX_PILE, Limit
from ...compiler.base.schema import Field
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import (
    DescribedPositions,
    Drawing,
    HardCases,
    Invariants,
    Looks,
    Mechanic,
    PositionKey,
    Sample,
    Sampled,
    ScoreItem,
    Tables,
)
from .state_view import GoodsState
from .syntax import GoodsAttr, GoodsCards, GoodsRanking, GoodsTies, GoodsWithout


@dataclass(frozen=True)
class GoodsRule(ir.Rule):
    mechanic: ClassVar[str] = "goods"
    cards: int
    ranking: tuple[tuple[int, tuple[int, ...]], ...]  # (players, points by place)
    ties: str      # "share": every tied player scores the place; "split": they split the places' points
    without: str   # a player without goods cards: "nothing" (scores nothing) or "rank" (is ranked)
    routes: tuple[int, ...] = ()  # the routes with the goods symbol
    span: Span | None = field(default=None, compare=False)

    def table(self, players: int) -> tuple[int, ...]:
        """The points by place for this many players."""
        return dict(self.ranking).get(players, ())


def goods_points(rule: GoodsRule, cards: list[int]) -> list[int]:
    """Each player's goods bonus, from everyone's goods cards (Fine della Partita)."""
    table = rule.table(len(cards))
    out = []
    for mine in cards:
        if mine == 0 and rule.without == "nothing":
            out.append(0)
            continue
        place = sum(1 for other in cards if other > mine)  # places taken by those with more
        tied = sum(1 for other in cards if other == mine)
        if rule.ties == "share":
            out.append(table[place] if place < len(table) else 0)
        else:
            out.append(sum(table[place:place + tied]) // tied)
    return out


class GoodsReference(MechanicReference[GoodsState, GoodsRule]):
    def __init__(self, rules: Services, rule: GoodsRule):
        super().__init__(rules, rule)
        self.goods_routes = set(rule.routes)

    def after_claim(self, state: GoodsState, route: ir.Route, player: int) -> None:
        if route.id in self.goods_routes and state.goods_pile > 0:
            state.goods[player] += 1
            state.goods_pile -= 1

    def score_player(self, state: GoodsState, player: int, row: dict, network) -> None:
        row["goods_cards"] = state.goods[player]

    def score_awards(self, state: GoodsState, rows: list[dict]) -> None:
        for row, points in zip(rows, goods_points(self.rule, list(state.goods[:state.players]))):
            row["goods"] = points


class Goods(Mechanic[GoodsRule], DescribedPositions[GoodsRule], Invariants[GoodsRule], Drawing[GoodsRule],
            HardCases[GoodsRule], Sampled):
    name = "goods"
    order = 110
    title = "goods cards"
    sample = Sample(("goods cards 16", "goods ranking 2 players: 8 4", "goods ranking 3 players: 8 5 2",
                     "goods ranking 4 players: 8 6 4 2"), route=" goods")
    rule = GoodsRule
    state_fields = (
        Field("goods", "each player's goods cards (face up: public)", owner="goods", per_player=True,
              high="GOODS_CARDS"),
        Field("goods_pile", "goods cards not yet taken", owner="goods", high="GOODS_CARDS", initial="GOODS_CARDS"),
    )
    reference = GoodsReference
    score_items = (
        ScoreItem("goods_cards", "how many goods cards the player holds", False, "goods"),
        ScoreItem("goods", "the goods bonus: the ranking table's points for the player's place", True, "goods"),
    )
    position_keys = (PositionKey("goods", "how many goods cards the player holds"),)
    statements = (GoodsCards, GoodsRanking, GoodsTies, GoodsWithout, GoodsAttr)
    limits = (Limit("goods cards N", f"1 … {MAX_PILE:,}", "the size of a pile"),
              Limit("goods ranking N players: P…", "at most N places", "places beyond the players are never reached"))

    def check(self, ctx) -> GoodsRule | None:
        stmt = ctx.one(GoodsCards)
        cards = ctx.positive(stmt.count, "the number of goods cards", most=MAX_PILE) if stmt else 0
        for route, _length in ctx.board.attributed:
            if route.attr(GoodsAttr.name) and not stmt:
                ctx.errors.add(route.span, "a goods route needs goods cards: add 'goods cards N'")
        players = ctx.players
        ranking = []
        seen: dict[int, GoodsRanking] = {}
        for gr in ctx.many(GoodsRanking):
            n = gr.players.value
            if n in seen:
                ctx.errors.add(gr.span, f"goods ranking for {n} players is given twice")
                continue
            seen[n] = gr
            if players.ok and not players.low <= n <= players.high:
                ctx.errors.add(gr.players.span, f"goods ranking for {n} players, but the game is for "
                                                f"{players.low}..{players.high}")
            if len(gr.points) > n > 0:
                ctx.errors.add(gr.points[n].span, f"goods ranking for {n} players has {len(gr.points)} places; a place "
                                                  f"beyond the players is never reached")
            ranking.append((n, tuple(ctx.points(p, "a goods ranking entry") for p in gr.points)))
        if seen and not stmt:
            first = min(seen.values(), key=lambda g: (g.span.line, g.span.col))
            ctx.errors.add(first.span, "'goods ranking' needs goods cards: add 'goods cards N'")
        if stmt and players.ok:
            for n in range(players.low, players.high + 1):
                if n not in seen:
                    ctx.errors.add(stmt.span, f"goods cards need a 'goods ranking {n} players: …' table")
        ties = ctx.one(GoodsTies)
        without = ctx.one(GoodsWithout)
        for given, words in ((ties, "goods ties"), (without, "goods without cards")):
            if given and not stmt:
                ctx.errors.add(given.span, f"'{words}' needs goods cards: add 'goods cards N'")
        if not stmt:
            return None
        goods_routes = tuple(route.id for route, _attr in ctx.routes_with(GoodsAttr.name))
        if not goods_routes:
            ctx.warn(stmt.span, "goods cards are declared but no route is a goods route: none is ever taken")
        return GoodsRule(cards=cards, ranking=tuple(sorted(ranking)), ties=ties.mode if ties else "share",
                         without=without.mode if without else "nothing",
                         routes=goods_routes, span=stmt.span)

    def hard_cases(self, variant, rule: GoodsRule, state: dict, rows: list[dict]) -> tuple[str, ...]:
        """Players tied on goods cards, who share or split places of the ranking."""
        goods = [g for g in state["goods"] if g > 0 or rule.without == "rank"]
        return ("a tie in the goods ranking",) if len(goods) != len(set(goods)) else ()

    def looks(self, variant, rule: GoodsRule) -> Looks:
        """A goods route (the cart symbol) carries a ``G`` badge."""
        return Looks(badges={route: "G" for route in rule.routes},
                     legend={"badges": "G: a goods route; claiming it takes a goods card"})

    def dimensions(self, variant, rule: GoodsRule) -> dict[str, int]:
        return {"GOODS_CARDS": rule.cards}

    def score_bound(self, variant, rule: GoodsRule) -> int:
        """One place of one table (a split share is at most the place's points)."""
        return max((p for _, points in rule.ranking for p in points), default=0)

    def tables(self, variant: ir.Variant, rule: GoodsRule) -> Tables:
        places = max(len(points) for _, points in rule.ranking)
        table, counts = [], []
        for players in range(variant.max_players + 1):
            points = rule.table(players)
            table.extend(list(points) + [0] * (places - len(points)))
            counts.append(len(points))
        return Tables(constants=[("GOODS_PLACES", places), ("GOODS_SPLIT", int(rule.ties == "split")),
                                 ("GOODS_RANK_EMPTY", int(rule.without == "rank"))],
                      arrays=[("T_GOODS_POINTS", table), ("T_GOODS_PLACE_COUNT", counts),
                              ("T_ROUTE_GOODS", [int(r.id in rule.routes) for r in variant.routes] or [0])])

    def state_problems(self, variant, rule: GoodsRule, state: dict) -> list[str]:
        held = sum(state["goods"])
        if held + state["goods_pile"] != rule.cards:
            return [f"{held} goods cards held and {state['goods_pile']} left, the game has {rule.cards}"]
        return []

    def seat_position(self, variant, rule: GoodsRule, state: dict, player: int) -> dict:
        return {"goods": state["goods"][player]}

    def position(self, variant, rule: GoodsRule, player: int, seat: dict, fields: dict) -> None:
        count = seat.get("goods", 0)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise PositionError(f"player {player}: 'goods' is a number of goods cards, got {count!r}")
        goods = fields.setdefault("goods", [0] * fields["players"])
        goods[player] = count
        if sum(goods) > rule.cards:
            raise PositionError(f"the players hold {sum(goods)} goods cards, the game has {rule.cards}")
        fields["goods_pile"] = rule.cards - sum(goods)
