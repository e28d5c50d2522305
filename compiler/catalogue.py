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
from .mechanic import Payments, part


def payment_text(colour_name: str | None, colour_cards: int, locomotives: int,
                 extra: tuple[tuple[int, str], ...] = ()) -> str:
    """A payment as action names write it: ``2red+1loco``, ``3loco``, ``1blue+1ferry``
    (``extra``: the amounts paid in payment columns, each with its column's text)."""
    parts = []
    if colour_cards:
        parts.append(f"{colour_cards}{colour_name}")
    if locomotives:
        parts.append(f"{locomotives}loco")
    parts.extend(f"{amount}{text}" for amount, text in extra if amount)
    return "+".join(parts) if parts else "nothing"


def colour_choices(route: ir.Route, colours) -> list[int]:
    """The colours a route's cards may be: its own, or any one for a gray route."""
    return [route.colour] if route.colour != ir.GRAY else [c.id for c in colours]


def route_shapes(variant: ir.Variant, route: ir.Route, shapers) -> list[ir.PaymentShape]:
    """The shapes of a route's payment blocks: one where every space is paid by cards of
    one colour or locomotives (wild), then reshaped by each mechanic in registry order
    (``shapers``: (mechanic, rule) pairs; ``Mechanic.payment_shapes``)."""
    shapes = [ir.PaymentShape(base_locomotives=0, plain=route.length)]
    for mechanic, rule in shapers:
        shapes = part(mechanic, Payments).payment_shapes(variant, rule, route, shapes)
    return shapes


def route_blocks(variant: ir.Variant, route: ir.Route, shapers):
    """Every way to pay for a route, as blocks of (colour, colour_cards, locomotives), one
    block per shape (see :func:`route_shapes`). Within a block, step k pays k more
    locomotives than the block's least; an all-locomotive payment carries the route's own
    colour (NO_COLOUR for gray) so each payment appears once. Where locomotives are not
    wild, a block has step 0 alone."""
    choices = colour_choices(route, variant.colours)
    all_loco_colour = route.colour if route.colour != ir.GRAY else ir.NO_COLOUR
    blocks = []
    for shape in route_shapes(variant, route, shapers):
        if shape.plain < 0 or shape.base_locomotives < 0:
            raise ValueError(f"{route.name}: a payment shape with {shape.plain} plain spaces and "
                             f"{shape.base_locomotives} locomotives")
        payments: list[tuple[int, int, int]] = []
        for extra in range(shape.plain + 1 if shape.wild else 1):
            cards = shape.plain - extra
            if cards:
                payments.extend((colour, cards, shape.base_locomotives + extra) for colour in choices)
            else:
                payments.append((all_loco_colour, 0, shape.base_locomotives + extra))
        blocks.append((shape, len(choices), payments))
    return blocks


def build(variant: ir.Variant, mechanic_entries: list[dict], shapers) -> tuple[tuple[ir.Action, ...], ir.ClaimLayout]:
    """The whole catalogue, ids assigned in order, and the layout of its claims.

    ``mechanic_entries`` are the mechanics' entries in registry order (each a dict of
    ``ir.Action`` fields without the id); ``shapers`` the (mechanic, rule) pairs that may
    reshape a route's payments."""
    colours = variant.colours
    columns = variant.payment_columns
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
        for shape, choices, payments in route_blocks(variant, r, shapers):
            paid = tuple(shape.amount(c.name) for c in columns)
            extra = tuple((amount, c.text) for amount, c in zip(paid, columns))
            start = len(specs)
            for colour, cards, locos in payments:
                pay = payment_text(colour_name.get(colour), cards, locos, extra)
                specs.append(dict(kind=ir.CLAIM, name=f"claim {r.name} {r.colour_name} {pay}", route=r.id,
                                  colour=colour, colour_cards=cards, locomotives=locos, paid=paid))
            blocks.append(ir.PaymentBlock(route=r.id, start=start, end=len(specs),
                                          base_locomotives=shape.base_locomotives, plain=shape.plain,
                                          choices=choices, paid=paid, wild=shape.wild))
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
    _refuse_twice_named(actions, shapers)
    return actions, ir.ClaimLayout(blocks=tuple(blocks), route_blocks=tuple(route_blocks_index))


def _refuse_twice_named(actions: tuple[ir.Action, ...], shapers) -> None:
    """Every action has its own name (the catalogue's promise): two claims of one name are
    the same payment offered by two payment blocks, a fault of the mechanics' payment
    shapes, which is refused here rather than left for ``action_id`` to settle."""
    seen: dict[str, int] = {}
    for action in actions:
        if action.name in seen:
            reshapers = ", ".join(m.name for m, _ in shapers) or "none"
            raise ValueError(f"two actions are named {action.name!r} (ids {seen[action.name]} and {action.id}): "
                             f"the payment shapes of its route offer one payment twice (mechanics that reshape "
                             f"payments: {reshapers})")
        seen[action.name] = action.id
