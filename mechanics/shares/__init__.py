"""Stock shares and majority scoring (Pennsylvania).

Pennsylvania rulebook, Quote azionistiche and Calcolare il punteggio: after claiming a
route showing company symbols, the player takes the top share of one of those companies;
at the end each company's shareholders are ranked by their shares and score the
company's table. Written ``company NAME shares N points P1 P2 …`` and the route
attribute ``shares CO, CO, …``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
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
class SharesRule(ir.Rule):
    mechanic: ClassVar[str] = "shares"
    companies: tuple[ShareCompany, ...]
    neutral: bool  # 2-player games seat a neutral shareholder
    span: Span | None = field(default=None, compare=False)


class Shares(Mechanic):
    name = "shares"
    title = "stock shares"
    implemented = False
    position_keys = (PositionKey('shares', 'the shares the player holds, as company and share number'),)
    rule = SharesRule

    def check(self, ctx) -> SharesRule | None:
        if not ctx.companies:
            return None
        companies = tuple(ShareCompany(c.id, c.name, c.shares, c.points) for c in ctx.companies)
        return SharesRule(companies=companies, neutral=ctx.players.low == 2, span=ctx.companies[0].span)

    def actions(self, variant, rule: SharesRule) -> list[dict]:
        out = [dict(kind=TAKE_SHARE, name=f"take share {co.name}", company=co.id) for co in rule.companies]
        if rule.neutral:
            out += [dict(kind=NEUTRAL_SHARE, name=f"neutral share {co.name}", company=co.id)
                    for co in rule.companies]
        return out
