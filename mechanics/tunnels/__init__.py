"""Tunnels: claiming one may cost more cards than its length (Europe).

Europe rulebook, Gallerie: the player plays the cards for the route's length, then the
top three cards of the deck are revealed; each revealed card of the colour played, and
each revealed locomotive, costs one more card of that colour (or a locomotive). A player
who cannot or will not pay takes the cards back and the turn ends. Written as the route
attribute ``tunnel``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...errors import Span
from .. import Mechanic

TUNNEL_PAY = "tunnel_pay"
TUNNEL_DECLINE = "tunnel_decline"
REVEALED_CARDS = 3


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
        if not tunnels:
            return None
        return TunnelsRule(reveal=REVEALED_CARDS, routes=tuple(r.id for r in tunnels), span=tunnels[0].span)

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
