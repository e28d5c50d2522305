"""The syntax tree of a spec: one small frozen dataclass per statement, each with the
span of the statement and, where a check may point at it, of its parts.

The tree keeps what was written, unresolved: names stay strings and numbers stay as
given (negative counts included), so that the checker can say precisely what is wrong.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..base.errors import Span


@dataclass(frozen=True)
class Name:
    """A name as written (several bare words joined by single spaces, or a quoted string)."""

    text: str
    span: Span


@dataclass(frozen=True)
class Num:
    """An integer literal with its position, so range errors can point at the number."""

    value: int
    span: Span


@dataclass(frozen=True)
class Stmt:
    span: Span


@dataclass(frozen=True)
class VariantName(Stmt):
    name: str


@dataclass(frozen=True)
class Extends(Stmt):
    target: str


@dataclass(frozen=True)
class Source(Stmt):
    text: str


@dataclass(frozen=True)
class Provisional(Stmt):
    text: str


@dataclass(frozen=True)
class Players(Stmt):
    low: Num
    high: Num


@dataclass(frozen=True)
class Trains(Stmt):
    count: Num


@dataclass(frozen=True)
class Hand(Stmt):
    count: Num


@dataclass(frozen=True)
class Stations(Stmt):
    count: Num
    costs: tuple[Num, ...]


@dataclass(frozen=True)
class FerryCards(Stmt):
    count: Num
    hand_limit: Num


@dataclass(frozen=True)
class Card(Stmt):
    colour: Name
    count: Num


@dataclass(frozen=True)
class Locomotives(Stmt):
    count: Num


@dataclass(frozen=True)
class GoodsCards(Stmt):
    count: Num


@dataclass(frozen=True)
class Market(Stmt):
    size: Num
    reset_locomotives: Num
    max_resets: Num | None  # a removed cap, kept only to report it


@dataclass(frozen=True)
class Deal(Stmt):
    regular: Num
    long: Num | None
    keep: Num


@dataclass(frozen=True)
class Returned(Stmt):
    deck: str  # "tickets", "long" or "setup"
    place: str  # "bottom", "shuffled_bottom", "removed"


@dataclass(frozen=True)
class Action(Stmt):
    kind: str  # draw_cards, claim_route, draw_tickets, build_station, draw_ferry_card
    numbers: tuple[Num, ...] = ()


@dataclass(frozen=True)
class TracksUsable(Stmt):
    tracks: Num
    low: Num
    high: Num


@dataclass(frozen=True)
class Place:
    """``at X Y``: where a map draws a city (drawing units, y down)."""

    x: Num
    y: Num
    span: Span


@dataclass(frozen=True)
class City(Stmt):
    name: Name
    place: Place | None = None


@dataclass(frozen=True)
class Zone(Stmt):
    name: Name
    place: Place | None = None


@dataclass(frozen=True)
class Region(Stmt):
    name: Name
    counts_double: bool
    cities: tuple[Name, ...]


@dataclass(frozen=True)
class Route(Stmt):
    a: Name
    b: Name
    length: Num
    colour: Name
    tunnel: bool = False
    ferry: Num | None = None
    waves: Num | None = None
    goods: bool = False
    shares: tuple[Name, ...] = ()
    attr_spans: tuple[tuple[str, Span], ...] = field(default=())


@dataclass(frozen=True)
class Ticket(Stmt):
    a: Name
    b: Name
    points: Num
    long: bool = False


@dataclass(frozen=True)
class Without(Stmt):
    what: str  # "route", "ticket" or "city"
    names: tuple[Name, ...]
    length: Num | None = None


@dataclass(frozen=True)
class EndWhen(Stmt):
    trains_at_most: Num


@dataclass(frozen=True)
class TableEntry:
    key: Num
    value: Num
    open_ended: bool  # "15+: 56" covers every key from 15 up


@dataclass(frozen=True)
class RoutePoints(Stmt):
    entries: tuple[TableEntry, ...]


@dataclass(frozen=True)
class LongestPath(Stmt):
    bonus: Num


@dataclass(frozen=True)
class StationBonus(Stmt):
    points: Num


@dataclass(frozen=True)
class GoodsRanking(Stmt):
    players: Num
    points: tuple[Num, ...]


@dataclass(frozen=True)
class Company(Stmt):
    name: Name
    shares: Num
    points: tuple[Num, ...]


@dataclass(frozen=True)
class Globetrotter(Stmt):
    bonus: Num


@dataclass(frozen=True)
class RegionPoints(Stmt):
    entries: tuple[TableEntry, ...]


@dataclass(frozen=True)
class Tiebreak(Stmt):
    keys: tuple[Name, ...]  # as written: "most tickets", "longest path", …


@dataclass(frozen=True)
class TunnelReveal(Stmt):
    count: Num


@dataclass(frozen=True)
class FerrySpent(Stmt):
    place: str  # "return" (to the ferry pile) or "removed"


@dataclass(frozen=True)
class StationUse(Stmt):
    keys: tuple[str, ...]  # "most_points", "most_tickets"


@dataclass(frozen=True)
class GoodsTies(Stmt):
    mode: str  # "share" or "split"


@dataclass(frozen=True)
class GoodsWithout(Stmt):
    mode: str  # "nothing" or "rank"


@dataclass(frozen=True)
class ShareTies(Stmt):
    mode: str  # "lowest_number" or "shared"


@dataclass(frozen=True)
class NeutralShareholder(Stmt):
    low: Num
    high: Num
    takes: str     # "route" (one of the claimed route's companies) or "any"
    rounding: str  # "up" or "down": how half of its shares is rounded


@dataclass(frozen=True)
class RegionScoring(Stmt):
    mode: str  # "per_network" or "together"


@dataclass(frozen=True)
class DoubleRegions(Stmt):
    mode: str  # "every_city" or "one_city"


@dataclass(frozen=True)
class SpecFile:
    """One parsed file: its path, its text (kept for error carets) and its statements."""

    path: str
    text: str
    statements: tuple[Stmt, ...]
