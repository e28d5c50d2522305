"""The variant IR: frozen, fully indexed data, the single source of truth for both engines.

Every id is a small integer assigned by the compiler in declaration order; no spec ever
types an id. Spans point back into the spec so later stages can still report locations.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from .base.errors import Span

GRAY = -2  # a route's colour when it takes a set of any one colour
NO_COLOUR = -1  # an action's card colour when it pays or takes locomotives only

# The core game's action kinds. The catalogue is fixed per variant: every id names a kind
# with fixed parameters; the state decides which ids are legal. Mechanics add kinds of
# their own (``Mechanic.kinds``).
DRAW_BLIND = "draw_blind"
DRAW_FACEUP = "draw_faceup"
CLAIM = "claim"
DRAW_TICKETS = "draw_tickets"
KEEP_TICKETS = "keep_tickets"
PASS = "pass"
CORE_KINDS = (DRAW_BLIND, DRAW_FACEUP, CLAIM, DRAW_TICKETS, KEEP_TICKETS, PASS)


@dataclass(frozen=True)
class Colour:
    id: int
    name: str
    count: int
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class City:
    """A named place. A dead end (declared by a mechanic's kind of place: Italy's
    countries) joins nothing: every route ending there ends in a graph node of its own,
    see Route.node_a / node_b and Variant.city_nodes."""

    id: int
    name: str
    dead_end: bool = False
    span: Span | None = field(default=None, compare=False)
    # where a map draws the city (``city NAME at X Y``); presentation only, so it is not
    # part of the spec hash and the game never reads it
    at: tuple[int, int] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Route:
    """One track between two cities. A double or triple route is several Routes sharing
    ``group``; ``track`` numbers them from 1 in spec order. ``track`` and ``tracks`` count
    every route of the city pair (names and drawings): a route written apart (an attribute
    with ``RouteAttr.apart``) has a group of its own all the same."""

    id: int
    name: str
    a: int
    b: int
    node_a: int  # graph nodes: a city's own id, or a fresh node for a dead end
    node_b: int
    length: int
    colour: int  # a Colour id, or GRAY
    colour_name: str
    group: int
    track: int
    tracks: int
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Ticket:
    id: int
    name: str
    a: int
    b: int
    points: int
    deck: str = ""  # "" for the regular deck, else the deck of the mechanic its form names
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Action:
    """One entry of the action catalogue. Unused parameters stay at their defaults."""

    id: int
    kind: str
    name: str
    route: int = -1
    colour: int = NO_COLOUR  # the card colour paid or drawn; NO_COLOUR for locomotives only
    colour_cards: int = 0
    locomotives: int = 0
    paid: tuple[int, ...] = ()  # CLAIM: what it pays in each of the variant's payment columns
    city: int = -1
    mask: int = 0  # KEEP_TICKETS: which offered tickets are kept (bit i = offer slot i)
    param: int = -1  # a number a mechanic's action carries (the company a share is taken from)


@dataclass(frozen=True)
class Rule:
    """The base of every mechanic's record in the IR. A subclass is a frozen dataclass
    holding the mechanic's resolved parameters; ``mechanic`` names its owner."""

    mechanic: ClassVar[str] = ""


@dataclass(frozen=True)
class PaymentColumn:
    """Something a claim may pay besides colour cards and locomotives, declared by the
    mechanic that adds it (``Mechanic.payment_columns``): ferry cards for wave spaces.
    ``text`` is how an action's name writes an amount of it (``1blue+1ferry``)."""

    name: str
    owner: str
    text: str


@dataclass(frozen=True)
class PaymentShape:
    """One way to lay out a route's payments, before ids are given (see PaymentBlock):
    the least locomotives, the spaces paid by cards of one colour or locomotives, and the
    amount paid in each payment column (by column name). The catalogue starts every route
    with one shape (no locomotive needed, every space plain) and each mechanic may reshape
    it (``Mechanic.payment_shapes``): a ferry needs locomotives, a wave space may be paid
    by ferry cards instead. ``wild`` says whether locomotives may stand in for the plain
    spaces' cards (a rule may keep them for tunnels and ferries); the ``base_locomotives``
    are paid either way."""

    base_locomotives: int
    plain: int
    paid: tuple[tuple[str, int], ...] = ()
    wild: bool = True

    def amount(self, column: str) -> int:
        return dict(self.paid).get(column, 0)


@dataclass(frozen=True)
class PaymentBlock:
    """A run of claim actions of one route that pay the same in every payment column.

    Its ids run from ``start`` to ``end`` (exclusive) in steps: step ``k`` (0 … ``plain``)
    pays ``base_locomotives + k`` locomotives and ``plain - k`` cards of one colour, one id
    per colour choice (``choices``), except the last step, all locomotives, which has a
    single id. The legal payments for a hand are then a contiguous window of the block.
    ``paid`` holds its amounts in the variant's payment columns, in their order. When
    locomotives are not ``wild`` on the block, it holds step 0 alone (the window is cut
    short by ``end``)."""

    route: int
    start: int
    end: int
    base_locomotives: int
    plain: int
    choices: int
    paid: tuple[int, ...] = ()
    wild: bool = True


@dataclass(frozen=True)
class ClaimLayout:
    """How the catalogue laid out the claim actions: per route, its payment blocks (route
    order, each route's blocks contiguous and ascending). Built by the catalogue, read by
    the emitter and the compiled engine's legal moves; nothing re-derives it."""

    blocks: tuple[PaymentBlock, ...]
    route_blocks: tuple[tuple[int, int], ...]  # route id -> (first block, end block)

    def blocks_of(self, route: int) -> tuple[PaymentBlock, ...]:
        first, end = self.route_blocks[route]
        return self.blocks[first:end]


@dataclass(frozen=True, eq=False)
class Variant:
    """Everything a game of one variant needs, resolved to ids: the core game's facts and
    one rule record per mechanic the spec uses (``rules``, in registry order).

    A variant compares and hashes by identity: the IR of a checked spec is one object,
    used as a key by the caches of the engines (hashing its thousands of parts on every
    look-up would cost more than the look-up saves). Compare ``spec_hash`` for equality
    of content."""

    key: str
    name: str
    spec_path: str
    spec_hash: str
    sources: tuple[str, ...]
    provisional: str  # why some numbers are not the printed game's ("" when they all are)
    min_players: int
    max_players: int
    trains: int
    hand: int
    colours: tuple[Colour, ...]
    locomotives: int
    market_size: int
    market_reset_locomotives: int
    deal_regular: int
    deal_parts: tuple[tuple[str, int], ...]  # (deck, count): a mechanic's deck dealt beside the regular
    deal_keep: int
    draw_cards: int
    draw_tickets: int  # 0 when the variant has no draw-tickets action
    draw_tickets_keep: int
    cities: tuple[City, ...]
    node_count: int
    city_nodes: tuple[tuple[int, ...], ...]  # city id -> its graph nodes
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    end_trains: int
    route_points: tuple[int, ...]  # index = route length; entry 0 unused
    tiebreaks: tuple[str, ...]
    actions: tuple[Action, ...]
    claim_layout: ClaimLayout
    payment_columns: tuple[PaymentColumn, ...]
    rules: tuple[Rule, ...]
    #: The mechanics the spec was checked with (a ``compiler.mechanic.Registry``): every
    #: later stage (the assembly, both engines, the tools) asks this one, so a variant
    #: never meets another set of mechanics than its own. Not part of the spec hash. (Typed
    #: Any: the registry's module is a layer above the IR, which does not import it.)
    registry: Any = field(default=None, compare=False, repr=False)
    #: What the checker found that checks but does nothing (``base.errors.SpecWarning``),
    #: in source order. Not part of the spec hash.
    warnings: tuple = field(default=(), compare=False, repr=False)

    def present(self) -> list[tuple[Any, Rule]]:
        """(mechanic, its rule record) for each mechanic the variant uses, in registry order."""
        return self.registry.present(self)

    @property
    def mechanics(self) -> frozenset[str]:
        """The names of the mechanics the variant uses."""
        return frozenset(r.mechanic for r in self.rules)

    def rule(self, mechanic: str):
        """The rule record of a mechanic, or None when the variant does not use it."""
        for r in self.rules:
            if r.mechanic == mechanic:
                return r
        return None

    @property
    def card_total(self) -> int:
        """Train cards in the game: every colour's count plus the locomotives."""
        return sum(c.count for c in self.colours) + self.locomotives

    @property
    def deal_total(self) -> int:
        """The tickets each player is dealt at set-up: the regular ones and every deal part."""
        return self.deal_regular + sum(count for _, count in self.deal_parts)

    @property
    def max_offer(self) -> int:
        """The most tickets one keep decision can show."""
        return max(self.deal_total, self.draw_tickets)

    def paid(self, action: Action, column: str) -> int:
        """What a claim pays in a payment column (0 when the variant has no such column)."""
        for i, c in enumerate(self.payment_columns):
            if c.name == column:
                return action.paid[i] if action.paid else 0
        return 0

    def paid_by_block(self, block: PaymentBlock, column: str) -> int:
        """What every payment of a block pays in a payment column (0 when there is no such column)."""
        for i, c in enumerate(self.payment_columns):
            if c.name == column:
                return block.paid[i] if block.paid else 0
        return 0

    def check_players(self, players) -> int:
        """``players`` when the variant is for that many players, else ValueError."""
        if isinstance(players, bool) or not isinstance(players, int) \
                or not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players} to {self.max_players} players, "
                             f"not {players!r}")
        return players

    def route_named(self, name: str) -> Route:
        for r in self.routes:
            if r.name == name:
                return r
        raise KeyError(f"no route named {name!r} in {self.name}")

    def ticket_named(self, name: str) -> Ticket:
        for t in self.tickets:
            if t.name == name:
                return t
        raise KeyError(f"no ticket named {name!r} in {self.name}")

    def city_named(self, name: str) -> City:
        for c in self.cities:
            if c.name == name:
                return c
        raise KeyError(f"no city named {name!r} in {self.name}")


#: A rule record's field whose metadata holds this key is left out of the canonical JSON
#: while it keeps its default: a mechanic may give its record a new field (a form of a
#: statement only some maps use) without changing the spec hash, and so the golden traces
#: and perft files, of every spec that does not use it.
OMIT_AT_DEFAULT = "omit_at_default"


def _left_at_default(record: Rule, f) -> bool:
    """Whether ``f`` of ``record`` is an OMIT_AT_DEFAULT field holding its default."""
    return bool(f.metadata.get(OMIT_AT_DEFAULT)) and getattr(record, f.name) == f.default


def canonical_json(variant: Variant) -> str:
    """The IR as deterministic JSON without spans, the file path, the registry or the
    warnings: the spec hash is a hash of it, and the builder's cache key includes it."""
    def strip(obj):
        if isinstance(obj, Rule):
            return {"mechanic": obj.mechanic, **{f.name: strip(getattr(obj, f.name)) for f in fields(obj)
                                                 if f.name != "span" and not _left_at_default(obj, f)}}
        if hasattr(obj, "__dataclass_fields__"):
            return {f.name: strip(getattr(obj, f.name)) for f in fields(obj)
                    if f.name not in ("span", "spec_path", "spec_hash", "key", "at", "registry", "warnings")}
        if isinstance(obj, (list, tuple)):
            return [strip(x) for x in obj]
        if isinstance(obj, frozenset):
            return sorted(obj)
        return obj
    return json.dumps(strip(variant), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
