"""Goods cards, ranked at the end (Amsterdam).

Amsterdam rulebook, Controllare una linea and Fine della partita: claiming a route with a
cart symbol takes one goods card (one per route, whatever its length); at the end the
players are ranked by their goods cards and score the ranking table for the player
count. Written ``goods cards N``, the route attribute ``goods`` and ``goods ranking N
players: P1 P2 …``. Ties: ``goods ties share`` (every tied player scores the place, the
places after it are skipped; the default, Amsterdam) or ``goods ties split`` (the tied
players split the points of the places they fill, rounded down). ``goods without cards
score nothing`` (the default, Amsterdam) or ``goods without cards rank``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ast, ir
from ...errors import Span
from .. import Mechanic, PositionKey


@dataclass(frozen=True)
class GoodsRule(ir.Rule):
    mechanic: ClassVar[str] = "goods"
    cards: int
    ranking: tuple[tuple[int, tuple[int, ...]], ...]  # (players, points by place)
    ties: str      # "share": every tied player scores the place; "split": they split the places' points
    without: str   # a player without goods cards: "nothing" (scores nothing) or "rank" (is ranked)
    span: Span | None = field(default=None, compare=False)


class Goods(Mechanic):
    name = "goods"
    title = "goods cards"
    implemented = False
    position_keys = (PositionKey('goods', 'how many goods cards the player holds'),)
    rule = GoodsRule

    def check(self, ctx) -> GoodsRule | None:
        stmt = ctx.one(ast.GoodsCards)
        cards = ctx.positive(stmt.count, "the number of goods cards") if stmt else 0
        for route, _length in ctx.board.attributed:
            if route.goods and not stmt:
                ctx.errors.add(route.span, "a goods route needs goods cards: add 'goods cards N'")
        players = ctx.players
        ranking = []
        seen: dict[int, ast.GoodsRanking] = {}
        for gr in ctx.many(ast.GoodsRanking):
            n = gr.players.value
            if n in seen:
                ctx.errors.add(gr.span, f"goods ranking for {n} players is given twice")
                continue
            seen[n] = gr
            if players.ok and not players.low <= n <= players.high:
                ctx.errors.add(gr.players.span, f"goods ranking for {n} players, but the game is for "
                                                f"{players.low}..{players.high}")
            ranking.append((n, tuple(ctx.positive(p, "a goods ranking entry", allow_zero=True) for p in gr.points)))
        if seen and not stmt:
            first = min(seen.values(), key=lambda g: (g.span.line, g.span.col))
            ctx.errors.add(first.span, "'goods ranking' needs goods cards: add 'goods cards N'")
        if stmt and players.ok:
            for n in range(players.low, players.high + 1):
                if n not in seen:
                    ctx.errors.add(stmt.span, f"goods cards need a 'goods ranking {n} players: …' table")
        ties = ctx.one(ast.GoodsTies)
        without = ctx.one(ast.GoodsWithout)
        for given, words in ((ties, "goods ties"), (without, "goods without cards")):
            if given and not stmt:
                ctx.errors.add(given.span, f"'{words}' needs goods cards: add 'goods cards N'")
        if not stmt:
            return None
        return GoodsRule(cards=cards, ranking=tuple(sorted(ranking)), ties=ties.mode if ties else "share",
                         without=without.mode if without else "nothing", span=stmt.span)

    def actions(self, variant, rule) -> list[dict]:
        return []
