"""The fixed action catalogue of a variant: every decision a player can ever face, each
with a stable id and a readable name. Ids are assigned here, in one fixed order, from the
IR's own tables; the state then only decides which ids are legal.

Order: blind draw, face-up draws (one per colour, then locomotive), claims (route by
route, each route's payments in blocks, see :class:`~railspec.compiler.ir.ClaimLayout`),
draw tickets, keep-ticket choices, then each mechanic's entries in registry order, and
pass last.
"""
from __future__ import annotations

from . import ir


def payment_text(colour_name: str | None, colour_cards: int, locomotives: int, ferry_cards: int = 0) -> str:
    """A payment as action names write it: ``2red+1loco``, ``3loco``, ``1blue+1ferry``."""
    parts = []
    if colour_cards:
        parts.append(f"{colour_cards}{colour_name}")
    if locomotives:
        parts.append(f"{locomotives}loco")
    if ferry_cards:
        parts.append(f"{ferry_cards}ferry")
    return "+".join(parts) if parts else "nothing"


def colour_choices(route: ir.Route, colours) -> list[int]:
    """The colours a route's cards may be: its own, or any one for a gray route."""
    return [route.colour] if route.colour != ir.GRAY else [c.id for c in colours]


def route_blocks(route: ir.Route, colours):
    """Every way to pay for a route, as blocks of (colour, colour_cards, locomotives,
    ferry_cards), one block per number of ferry cards.

    Locomotives are wild; a ferry route needs at least ``ferry_locomotives`` of them;
    wave spaces (Italy) are paid by locomotives or by ferry cards, one ferry card
    covering up to two wave spaces. Within a block, step k pays k more locomotives than
    the block's least; an all-locomotive payment carries the route's own colour
    (NO_COLOUR for gray) so each payment appears once."""
    plain = route.length - route.wave_spaces - route.ferry_locomotives
    choices = colour_choices(route, colours)
    all_loco_colour = route.colour if route.colour != ir.GRAY else ir.NO_COLOUR
    blocks = []
    for ferry in range((route.wave_spaces + 1) // 2 + 1):
        base = route.ferry_locomotives + max(0, route.wave_spaces - 2 * ferry)
        payments = []
        for extra in range(plain + 1):
            cards = plain - extra
            if cards:
                payments.extend((colour, cards, base + extra, ferry) for colour in choices)
            else:
                payments.append((all_loco_colour, 0, base + extra, ferry))
        blocks.append((ferry, base, plain, len(choices), payments))
    return blocks


def build(variant: ir.Variant, mechanic_entries: list[dict]) -> tuple[tuple[ir.Action, ...], ir.ClaimLayout]:
    """The whole catalogue, ids assigned in order, and the layout of its claims.

    ``mechanic_entries`` are the mechanics' entries in registry order (each a dict of
    ``ir.Action`` fields without the id)."""
    colours = variant.colours
    specs: list[dict] = []
    colour_name = {c.id: c.name for c in colours}
    colour_name[ir.NO_COLOUR] = "loco"

    specs.append(dict(kind=ir.DRAW_BLIND, name="draw blind"))
    for c in colours:
        specs.append(dict(kind=ir.DRAW_FACEUP, name=f"draw faceup {c.name}", colour=c.id))
    specs.append(dict(kind=ir.DRAW_FACEUP, name="draw faceup loco", colour=ir.NO_COLOUR))

    blocks: list[ir.PaymentBlock] = []
    route_blocks_index: list[tuple[int, int]] = []
    for r in variant.routes:
        first = len(blocks)
        for ferry, base, plain, choices, payments in route_blocks(r, colours):
            start = len(specs)
            for colour, cards, locos, ferry_cards in payments:
                pay = payment_text(colour_name.get(colour), cards, locos, ferry_cards)
                specs.append(dict(kind=ir.CLAIM, name=f"claim {r.name} {r.colour_name} {pay}", route=r.id,
                                  colour=colour, colour_cards=cards, locomotives=locos, ferry_cards=ferry_cards))
            blocks.append(ir.PaymentBlock(route=r.id, start=start, end=len(specs), ferry_cards=ferry,
                                          base_locomotives=base, plain=plain, choices=choices))
        route_blocks_index.append((first, len(blocks)))

    if variant.draw_tickets:
        specs.append(dict(kind=ir.DRAW_TICKETS, name="draw tickets"))
    max_offer = variant.max_offer
    for mask in range(1, 1 << max_offer):
        slots = ",".join(str(i + 1) for i in range(max_offer) if mask >> i & 1)
        specs.append(dict(kind=ir.KEEP_TICKETS, name=f"keep tickets {slots}", mask=mask))

    specs.extend(mechanic_entries)
    specs.append(dict(kind=ir.PASS, name="pass"))
    actions = tuple(ir.Action(id=i, **s) for i, s in enumerate(specs))
    return actions, ir.ClaimLayout(blocks=tuple(blocks), route_blocks=tuple(route_blocks_index))
