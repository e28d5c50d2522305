"""The variant IR: frozen, fully indexed data, the single source of truth for both engines.

Every id is a small integer assigned by the compiler in declaration order; no spec ever
types an id. Spans point back into the spec so later stages can still report locations.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Span

GRAY = -1  # the colour of a route that takes a set of any one colour
NO_COLOUR = -1

# Action kinds. The catalogue is fixed per variant: every id names one of these with
# fixed parameters; the state decides which ids are legal.
DRAW_BLIND = "draw_blind"
DRAW_FACEUP = "draw_faceup"
CLAIM = "claim"
DRAW_TICKETS = "draw_tickets"
KEEP_TICKETS = "keep_tickets"
BUILD_STATION = "build_station"
TUNNEL_PAY = "tunnel_pay"
TUNNEL_DECLINE = "tunnel_decline"
DRAW_FERRY = "draw_ferry"
TAKE_SHARE = "take_share"
NEUTRAL_SHARE = "neutral_share"
PASS = "pass"


@dataclass(frozen=True)
class Colour:
    id: int
    name: str
    count: int
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class City:
    """A named place. A zone (Italy's neighbouring countries) is a city whose every route
    ends in a dead end of its own: see Route.node_a / node_b."""

    id: int
    name: str
    zone: bool = False
    region: int = -1
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Route:
    """One track between two cities. A double or triple route is several Routes sharing
    ``group``; ``track`` numbers them from 1 in spec order."""

    id: int
    name: str
    a: int
    b: int
    node_a: int  # graph nodes: a city's own id, or a fresh dead-end node for a zone
    node_b: int
    length: int
    colour: int  # a Colour id, or GRAY
    colour_name: str
    tunnel: bool
    ferry_locomotives: int
    wave_spaces: int
    goods: bool
    companies: tuple[int, ...]
    group: int
    track: int
    tracks: int
    span: Span | None = field(default=None, compare=False)

    @property
    def cities(self) -> tuple[int, int]:
        return (self.a, self.b)


@dataclass(frozen=True)
class Ticket:
    id: int
    name: str
    a: int
    b: int
    points: int
    long: bool = False
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Region:
    id: int
    name: str
    cities: tuple[int, ...]
    counts_double: bool
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Company:
    id: int
    name: str
    shares: int
    points: tuple[int, ...]
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
    ferry_cards: int = 0
    city: int = -1
    mask: int = 0  # KEEP_TICKETS: which offered tickets are kept (bit i = offer slot i)
    company: int = -1


@dataclass(frozen=True)
class Variant:
    """Everything a game of one variant needs, resolved to ids."""

    key: str
    name: str
    spec_path: str
    spec_hash: str
    sources: tuple[str, ...]
    min_players: int
    max_players: int
    trains: int
    hand: int
    colours: tuple[Colour, ...]
    locomotives: int
    market_size: int
    market_reset_locomotives: int
    market_max_resets: int
    deal_regular: int
    deal_long: int
    deal_keep: int
    returned_tickets: str
    returned_long: str
    returned_setup: str  # where regular tickets returned from the set-up deal go
    draw_cards: int
    draw_tickets: int  # 0 when the variant has no draw-tickets action
    draw_tickets_keep: int
    tracks_usable: tuple[tuple[int, int, int], ...]  # (low, high, tracks usable)
    cities: tuple[City, ...]
    node_count: int
    city_nodes: tuple[tuple[int, ...], ...]  # city id -> its graph nodes
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    regions: tuple[Region, ...]
    companies: tuple[Company, ...]
    end_trains: int
    route_points: tuple[int, ...]  # index = route length; entry 0 unused
    longest_path_bonus: int
    stations: int
    station_costs: tuple[int, ...]
    station_bonus: int
    ferry_cards: int
    ferry_hand_limit: int
    goods_cards: int
    goods_ranking: tuple[tuple[int, tuple[int, ...]], ...]
    globetrotter: int
    region_points: tuple[tuple[int, int, bool], ...]  # (count, points, open-ended)
    tiebreaks: tuple[str, ...]
    actions: tuple[Action, ...]
    mechanics: frozenset[str]

    @property
    def card_total(self) -> int:
        """Train cards in the game: every colour's count plus the locomotives."""
        return sum(c.count for c in self.colours) + self.locomotives

    @property
    def max_offer(self) -> int:
        """The most tickets one keep decision can show."""
        return max(self.deal_regular + self.deal_long, self.draw_tickets)

    def tracks_usable_for(self, players: int) -> int:
        """How many tracks of one multi-track route may be claimed with this many players."""
        for low, high, tracks in self.tracks_usable:
            if low <= players <= high:
                return tracks
        return 3

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
