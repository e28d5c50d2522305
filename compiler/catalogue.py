"""The fixed action catalogue of a variant: every decision a player can ever face, each
with a stable id and a readable name. Ids are assigned here, in one fixed order, from the
IR's own tables; the state then only decides which ids are legal.

Order: blind draw, face-up draws (one per colour, then locomotive), claims (route by
route, each route's payments in a fixed order), draw tickets, keep-ticket choices,
station builds, tunnel payments, ferry-card draw, share picks, pass.
"""
from __future__ import annotations

from . import ir


def _payment_text(colour_name: str | None, colour_cards: int, locomotives: int, ferry_cards: int = 0) -> str:
    parts = []
    if colour_cards:
        parts.append(f"{colour_cards}{colour_name}")
    if locomotives:
        parts.append(f"{locomotives}loco")
    if ferry_cards:
        parts.append(f"{ferry_cards}ferry")
    return "+".join(parts) if parts else "nothing"


def route_payments(route: ir.Route, colours: tuple[ir.Colour, ...]):
    """Every way to pay for a route, as (colour, colour_cards, locomotives, ferry_cards).

    Locomotives are wild; a ferry route needs at least ``ferry_locomotives`` of them;
    wave spaces (Italy) are paid by locomotives or by ferry cards, one ferry card
    covering up to two wave spaces. An all-locomotive payment carries the route's own
    colour (NO_COLOUR for gray) so each payment appears once.
    """
    plain = route.length - route.wave_spaces - route.ferry_locomotives
    colour_choices = [route.colour] if route.colour != ir.GRAY else [c.id for c in colours]
    all_loco_colour = route.colour if route.colour != ir.GRAY else ir.NO_COLOUR
    options = []
    for ferry in range((route.wave_spaces + 1) // 2 + 1):
        wave_locos = max(0, route.wave_spaces - 2 * ferry)
        for extra_locos in range(plain + 1):
            locos = route.ferry_locomotives + wave_locos + extra_locos
            cards = plain - extra_locos
            if cards:
                options.extend((colour, cards, locos, ferry) for colour in colour_choices)
            else:
                options.append((all_loco_colour, 0, locos, ferry))
    return options


def build_actions(colours, routes, cities, companies, *, max_offer: int, has_tickets_draw: bool,
                  station_costs: tuple[int, ...], has_tunnels: bool, tunnel_extra: int,
                  has_ferry_cards: bool, has_shares: bool, neutral_shares: bool) -> tuple[ir.Action, ...]:
    """The whole catalogue, ids assigned in order."""
    specs: list[dict] = []
    colour_name = {c.id: c.name for c in colours}
    colour_name[ir.NO_COLOUR] = "loco"

    specs.append(dict(kind=ir.DRAW_BLIND, name="draw blind"))
    for c in colours:
        specs.append(dict(kind=ir.DRAW_FACEUP, name=f"draw faceup {c.name}", colour=c.id))
    specs.append(dict(kind=ir.DRAW_FACEUP, name="draw faceup loco", colour=ir.NO_COLOUR))

    for r in routes:
        for colour, cards, locos, ferry in route_payments(r, colours):
            pay = _payment_text(colour_name.get(colour), cards, locos, ferry)
            specs.append(dict(kind=ir.CLAIM, name=f"claim {r.name} {r.colour_name} {pay}", route=r.id,
                              colour=colour, colour_cards=cards, locomotives=locos, ferry_cards=ferry))

    if has_tickets_draw:
        specs.append(dict(kind=ir.DRAW_TICKETS, name="draw tickets"))
    for mask in range(1, 1 << max_offer):
        slots = ",".join(str(i + 1) for i in range(max_offer) if mask >> i & 1)
        specs.append(dict(kind=ir.KEEP_TICKETS, name=f"keep tickets {slots}", mask=mask))

    for cost in sorted(set(station_costs)):
        for city in cities:
            if city.zone:
                continue
            for c in colours:
                for locos in range(0, cost):
                    pay = _payment_text(c.name, cost - locos, locos)
                    specs.append(dict(kind=ir.BUILD_STATION, name=f"build station {city.name} {pay}",
                                      city=city.id, colour=c.id, colour_cards=cost - locos, locomotives=locos))
            specs.append(dict(kind=ir.BUILD_STATION, name=f"build station {city.name} {cost}loco",
                              city=city.id, colour=ir.NO_COLOUR, colour_cards=0, locomotives=cost))

    if has_tunnels:
        # The extra cards a tunnel asks for are of the colour already played (or locomotives).
        for extra in range(1, tunnel_extra + 1):
            for locos in range(0, extra + 1):
                specs.append(dict(kind=ir.TUNNEL_PAY, name=f"tunnel pay {extra - locos}colour+{locos}loco"
                                  if locos and locos < extra else
                                  (f"tunnel pay {extra}loco" if locos else f"tunnel pay {extra}colour"),
                                  colour_cards=extra - locos, locomotives=locos))
        specs.append(dict(kind=ir.TUNNEL_DECLINE, name="tunnel decline"))

    if has_ferry_cards:
        specs.append(dict(kind=ir.DRAW_FERRY, name="draw ferry card"))

    if has_shares:
        for co in companies:
            specs.append(dict(kind=ir.TAKE_SHARE, name=f"take share {co.name}", company=co.id))
        if neutral_shares:
            for co in companies:
                specs.append(dict(kind=ir.NEUTRAL_SHARE, name=f"neutral share {co.name}", company=co.id))

    specs.append(dict(kind=ir.PASS, name="pass"))
    return tuple(ir.Action(id=i, **s) for i, s in enumerate(specs))
