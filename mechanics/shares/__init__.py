"""Stock shares and majority scoring (Pennsylvania).

Pennsylvania rulebook, Quote azionistiche and Calcolare il punteggio: after claiming a
route showing company symbols, the player takes the top share of one of those companies;
at the end each company's shareholders are ranked by their shares and score the
company's table. Written ``company NAME shares N points P1 P2 …`` and the route
attribute ``shares CO, CO, …``. Each company's shares form a stack numbered from 1, taken
from the top. Equal share counts: ``share ties lowest number`` (the holder of the lowest
numbered share ranks first; the default, Pennsylvania) or ``share ties shared``. The
2-player neutral shareholder is written, never inferred: ``neutral shareholder for 2
players takes route companies counts half rounded up``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ast, ir
from ...errors import Span
from .. import Mechanic, PositionKey

TAKE_SHARE = "take_share"
NEUTRAL_SHARE = "neutral_share"


@dataclass(frozen=True)
class ShareCompany:
    id: int
    name: str
    shares: int
    points: tuple[int, ...]


@dataclass(frozen=True)
class Neutral:
    """The neutral shareholder: in games of ``low``..``high`` players, each time a player
    takes a share they choose one for it, from one of the claimed route's companies
    (``takes = "route"``) or any company (``"any"``); at the end half of its shares,
    rounded ``rounding``, drawn at random, count in the majorities."""

    low: int
    high: int
    takes: str
    rounding: str


@dataclass(frozen=True)
class SharesRule(ir.Rule):
    mechanic: ClassVar[str] = "shares"
    companies: tuple[ShareCompany, ...]
    ties: str                 # equal share counts: "lowest_number" or "shared"
    neutral: Neutral | None   # the neutral shareholder, when the spec seats one
    span: Span | None = field(default=None, compare=False)


class Shares(Mechanic):
    name = "shares"
    title = "stock shares"
    implemented = False
    position_keys = (PositionKey('shares', 'the shares the player holds, as company and share number'),)
    rule = SharesRule

    def check(self, ctx) -> SharesRule | None:
        ties = ctx.one(ast.ShareTies)
        stmt = ctx.one(ast.NeutralShareholder)
        for given, words in ((ties, "share ties"), (stmt, "neutral shareholder")):
            if given and not ctx.companies:
                ctx.errors.add(given.span, f"'{words}' needs companies: add 'company NAME shares N points …'")
        neutral = None
        if stmt:
            low, high, players = stmt.low.value, stmt.high.value, ctx.players
            if low > high:
                ctx.errors.add(stmt.span, f"player range {low}..{high} is empty")
            elif players.ok and (low < players.low or high > players.high):
                seats = f"{low}" if low == high else f"{low}..{high}"
                ctx.errors.add(stmt.low.span, f"a neutral shareholder for {seats} players, but the game is "
                                              f"for {players.low}..{players.high}")
            neutral = Neutral(low=low, high=high, takes=stmt.takes, rounding=stmt.rounding)
        if not ctx.companies:
            return None
        companies = tuple(ShareCompany(c.id, c.name, c.shares, c.points) for c in ctx.companies)
        return SharesRule(companies=companies, ties=ties.mode if ties else "lowest_number", neutral=neutral,
                          span=ctx.companies[0].span)

    def actions(self, variant, rule: SharesRule) -> list[dict]:
        out = [dict(kind=TAKE_SHARE, name=f"take share {co.name}", company=co.id) for co in rule.companies]
        if rule.neutral is not None:
            out += [dict(kind=NEUTRAL_SHARE, name=f"neutral share {co.name}", company=co.id)
                    for co in rule.companies]
        return out
