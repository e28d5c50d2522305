"""The core game and a variant's mechanics, assembled into one description of its engine.

Both engines and the state validator work from an :class:`Assembly`: the state fields
(the core's, then each mechanic's in registry order), the dimensions that size them, the
phases and action kinds (ids in the same order), and the columns of a score breakdown.
Nothing here is per-engine: the emitter turns it into C, the reference interpreter and
``state_format`` read it as it is.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from . import ir
from .base import schema
from .base.errors import MechanicContractError, UnsupportedMechanicError
from .mechanic import CORE_SCORE_ITEMS, SCORE_MEASURES, Payments, ScoreItem, part


@dataclass(frozen=True)
class Assembly:
    variant: ir.Variant
    registry: object
    present: tuple            # (mechanic, rule) for each mechanic the variant uses, registry order
    fields: tuple[schema.Field, ...]
    dims: dict
    phases: tuple[str, ...]
    kinds: tuple[str, ...]    # action kinds; a kind's code is its index
    score_items: tuple        # ScoreItem, the core's then the mechanics', then total
    route_trains: tuple[int, ...] = ()  # per route: the trains its claim takes (length + Mechanic.extra_trains)
    #: whether a mechanic's claims may take routes for no player (the hook takes_for_nobody):
    #: a route's owner may then be ``players``, taken by nobody
    nobody_claims: bool = False

    @cached_property
    def co_owners(self) -> tuple[str, ...]:
        """The state fields naming a route's further owner (``Field.co_owner``): a variant
        with one has shared claims (a claim of a route a player owns already)."""
        return tuple(f.name for f in self.fields if f.co_owner)

    def kind_code(self, kind: str) -> int:
        return self.kinds.index(kind)

    # worked out once: every state read and every breakdown asks for them
    @cached_property
    def exported_fields(self) -> tuple[schema.Field, ...]:
        return tuple(schema.exported(self.fields))

    @cached_property
    def state_keys(self) -> tuple[str, ...]:
        return schema.state_keys(self.fields)

    @cached_property
    def breakdown_keys(self) -> tuple[str, ...]:
        return tuple(item.name for item in self.score_items)


def core_dimensions(variant: ir.Variant) -> dict[str, int]:
    """The sizes of the core's state fields, by the names the schema and the compiled
    module use. A capacity is at least 1 (C has no empty arrays)."""
    colours = len(variant.colours)
    return {
        "N_COLOURS": colours,
        "N_CARDS": colours + 1,
        "LOCO": colours,
        "CARD_TOTAL": variant.card_total,
        "DECK_CAP": max(1, variant.card_total),
        "N_CITIES": len(variant.cities),
        "N_ROUTES": len(variant.routes),
        "ROUTE_CAP": max(1, len(variant.routes)),
        "ROUTE_WORDS": max(1, (len(variant.routes) + 63) // 64),
        "N_NODES": variant.node_count,
        "NODE_CAP": max(1, variant.node_count),
        "N_TICKETS": len(variant.tickets),
        "TICKET_CAP": max(1, len(variant.tickets)),
        "NP_MIN": variant.min_players,
        "NP_MAX": variant.max_players,
        "MARKET": variant.market_size,
        "MARKET_CAP": max(1, variant.market_size),
        "MAX_OFFER": variant.max_offer,
        "OFFER_CAP": max(1, variant.max_offer),
        "TRAINS": variant.trains,
        "ROUTE_SCORE_MAX": sum(variant.route_points[r.length] for r in variant.routes),
    }


def refuse_unsupported(variant: ir.Variant, who: str = "the engines do") -> None:
    """Raise UnsupportedMechanicError naming every mechanic the variant uses that the
    engines do not implement yet (located at the first statement that uses one), or
    MechanicContractError naming every mechanic it uses that breaks its contract, with its
    problems: a mechanic's part missing or misdeclared is refused, never ignored."""
    missing = variant.registry.unimplemented(variant)
    if missing:
        names = ", ".join(m.name for m, _ in missing)
        span = next((getattr(rule, "span", None) for _, rule in missing if getattr(rule, "span", None)), None)
        raise UnsupportedMechanicError(f"{variant.name}: {who} not implement {names} yet", span)
    broken = variant.registry.broken(variant)
    if broken:
        told = "; ".join(f"mechanic {m.name} ({type(m).__module__}.{type(m).__name__}): " + "; ".join(problems)
                         for m, problems in broken)
        raise MechanicContractError(f"{variant.name}: {told} (docs/architecture.md, \"A mechanic's contract\")")


@lru_cache(maxsize=64)
def assemble(variant: ir.Variant) -> Assembly:
    """The assembly of a variant, with the mechanics of its registry (cached per variant)."""
    registry = variant.registry
    present = tuple(registry.present(variant))
    fields = list(schema.CORE_FIELDS)
    dims = core_dimensions(variant)
    phases = list(schema.CORE_PHASES)
    kinds = list(ir.CORE_KINDS)
    items = list(CORE_SCORE_ITEMS)
    for mechanic, rule in present:
        if not mechanic.implemented:
            continue
        fields.extend(mechanic.variant_state_fields(variant, rule))
        dims.update(mechanic.dimensions(variant, rule))
        phases.extend(mechanic.variant_phases(variant, rule))
        kinds.extend(mechanic.variant_kinds(variant, rule))
        items.extend(mechanic.variant_score_items(variant, rule))
    items.append(ScoreItem("total", "the sum of the items that count", False))
    nobody_claims = any("takes_for_nobody" in m.filled_hooks() for m, _ in present if m.implemented)
    if nobody_claims:
        # a route's owner reaches one value beyond the seats, players: taken by nobody (the
        # bound players+k is the schema's way to say "k+1 owners beyond the seats", which
        # the observation encodes as categories of their own)
        fields = [replace(f, high="players+0", doc=f"{f.doc}; players: taken by no player")
                  if f.name == "owner" else f for f in fields]
    if all(m.implemented for m, _ in present):
        stray = sorted({a.kind for a in variant.actions} - set(kinds))
        if stray:
            raise ValueError(f"{variant.name}: the catalogue has actions of kind {', '.join(stray)}, "
                             f"which no mechanic of the registry declares")
    for what, names in (("state field", [f.name for f in fields]), ("phase", phases), ("action kind", kinds),
                        ("score item", [i.name for i in items])):
        if len(set(names)) != len(names):
            raise ValueError(f"{variant.name}: a {what} is declared twice: {sorted(names)}")
    for item in items:
        if item.measure not in SCORE_MEASURES:
            raise ValueError(f"{variant.name}: score item {item.name!r} measures {item.measure!r}, not one of "
                             f"{', '.join(SCORE_MEASURES)}")
    if len({item.enum for item in items}) != len(items):
        raise ValueError(f"{variant.name}: two score items have the same C name")
    payers = [(part(m, Payments), rule) for m, rule in present if m.implemented]
    route_trains = tuple(r.length + sum(m.extra_trains(variant, rule, r) for m, rule in payers) for r in variant.routes)
    return Assembly(variant=variant, registry=registry, present=present, fields=tuple(fields), dims=dims,
                    phases=tuple(phases), kinds=tuple(kinds), score_items=tuple(items), route_trains=route_trains,
                    nobody_claims=nobody_claims)
