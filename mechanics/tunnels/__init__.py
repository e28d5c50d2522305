"""Tunnels: claiming one may cost more cards than its length (Europe).

Europe rulebook, Gallerie: the player plays the cards for the route's length, then the
top three cards of the deck are revealed; each revealed card of the colour played, and
each revealed locomotive, costs one more card of that colour (or a locomotive). A player
who cannot or will not pay takes the cards back and the turn ends. Written as the route
attribute ``tunnel``; ``tunnels reveal N`` says how many cards are revealed (3 when the
spec does not say).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ast, ir
from ...errors import Span
from .. import Mechanic

TUNNEL_PAY = "tunnel_pay"
TUNNEL_DECLINE = "tunnel_decline"
REVEALED_CARDS = 3  # the default of 'tunnels reveal N' (Europe, Gallerie)
MAX_REVEALED = 6    # the catalogue has a payment per extra card count: keep it small


@dataclass(frozen=True)
class TunnelsRule(ir.Rule):
    mechanic: ClassVar[str] = "tunnels"
    reveal: int               # cards revealed from the deck for a tunnel
    routes: tuple[int, ...]   # the tunnel routes
    span: Span | None = field(default=None, compare=False)


class Tunnels(Mechanic):
    name = "tunnels"
    title = "tunnels"
    implemented = False
    rule = TunnelsRule

    def check(self, ctx) -> TunnelsRule | None:
        tunnels = [r for r in ctx.board.routes if r.tunnel]
        stmt = ctx.one(ast.TunnelReveal)
        reveal = REVEALED_CARDS
        if stmt:
            reveal = ctx.positive(stmt.count, "the number of cards a tunnel reveals")
            if reveal > MAX_REVEALED:
                ctx.errors.add(stmt.count.span, f"a tunnel reveals at most {MAX_REVEALED} cards, got {reveal}")
            if not any(route.tunnel for route, _length in ctx.board.attributed):
                ctx.errors.add(stmt.span, "'tunnels reveal' needs a tunnel: add 'tunnel' to a route")
        if not tunnels:
            return None
        return TunnelsRule(reveal=reveal, routes=tuple(r.id for r in tunnels), span=tunnels[0].span)

    def actions(self, variant, rule: TunnelsRule) -> list[dict]:
        """The extra cards a tunnel asks for are of the colour already played (or locomotives)."""
        out = []
        for extra in range(1, rule.reveal + 1):
            for locos in range(0, extra + 1):
                if locos and locos < extra:
                    name = f"tunnel pay {extra - locos}colour+{locos}loco"
                else:
                    name = f"tunnel pay {extra}loco" if locos else f"tunnel pay {extra}colour"
                out.append(dict(kind=TUNNEL_PAY, name=name, colour_cards=extra - locos, locomotives=locos))
        out.append(dict(kind=TUNNEL_DECLINE, name="tunnel decline"))
        return out
