"""The syntax tree of a spec: small frozen dataclasses, one per grammar rule, each with the
span of what it was read from and, where a check may point at it, of its parts.

The tree keeps what was written, unresolved: names stay strings and numbers stay as
given (negative counts included), so that the checker can say precisely what is wrong.

Every node class names the grammar rule it is built from (``rule``) and builds itself
from that rule's span and children (:meth:`Node.parsed`). The core's nodes are here; a
mechanic declares its own the same way, in its folder (``Mechanic.statements``), beside the
grammar fragment that adds their rules. A statement (:class:`Stmt`) also says how a spec
that extends another merges it (``merge``), how messages name it (``words``) and how it is
written (``form``, which ends a syntax error inside it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..base.errors import Span
from ..base.text import canonical

#: How a statement merges along an ``extends`` chain: a scalar is given at most once per
#: file and a later file's replaces it; a keyed statement replaces the inherited one with
#: the same :meth:`Stmt.key`, in place; list statements add up. ``without`` removes.
SCALAR, KEYED, LIST = "scalar", "keyed", "list"


@dataclass(frozen=True)
class Name:
    """A name as written (several bare words joined by single spaces, or a quoted string),
    in Unicode's composed form (NFC): a decomposed ``Zu\u0308rich`` is ``Zürich``."""

    text: str
    span: Span

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", canonical(self.text))


@dataclass(frozen=True)
class Num:
    """An integer literal with its position, so range errors can point at the number."""

    value: int
    span: Span


class Node:
    """What the parser builds from one grammar rule (or one aliased alternative):
    ``rule`` names it; a part of a statement (a route attribute, an action kind …) says
    in ``form`` how it is written, for the form a syntax error ends with. The children
    :meth:`parsed` receives are, in order: numbers as :class:`Num`, names as
    :class:`Name`, quoted text as ``str``, keywords a ``!`` rule keeps as ``str``, ranges
    as (low, high) pairs of Num, tables as tuples of :class:`TableEntry`, places as
    :class:`Place`, and the nodes of sub-rules."""

    rule: ClassVar[str] = ""
    form: ClassVar[str] = ""

    if TYPE_CHECKING:
        # every node is a dataclass whose fields are its span, then its children
        def __init__(self, span: Span, *children: Any) -> None: ...

    @classmethod
    def parsed(cls, span: Span, children: list):
        """The node of one parsed rule: by default its children are its fields, in order."""
        return cls(span, *children)


@dataclass(frozen=True)
class Stmt(Node):
    """A statement. ``words`` is how messages name it (``"tunnels reveal"``), ``form`` how
    it is written (``"tunnels reveal N"``; an extension point's name in braces stands for
    the forms of the parts that fill it: ``{route_attr}``); ``merge`` is :data:`SCALAR`, :data:`KEYED` (with
    :meth:`key`) or :data:`LIST`; a ``required`` statement must be in every spec."""

    span: Span
    words: ClassVar[str] = ""
    form: ClassVar[str] = ""
    merge: ClassVar[str] = LIST
    required: ClassVar[bool] = False

    def key(self) -> tuple:
        """What a later file's statement of a KEYED kind must match to replace this one."""
        raise NotImplementedError(f"{type(self).__name__} is not a keyed statement")

    def texts(self):
        """Every name and quoted text the statement holds (what a message may quote)."""
        for value in vars(self).values():
            if isinstance(value, Name):
                yield value.text
            elif isinstance(value, str):
                yield value
            elif isinstance(value, tuple):
                yield from (v.text for v in value if isinstance(v, Name))


# --- parts of statements ------------------------------------------------------------------

@dataclass(frozen=True)
class TableEntry:
    key: Num
    value: Num
    open_ended: bool  # "15+: 56" covers every key from 15 up


@dataclass(frozen=True)
class Place:
    """``at X Y``: where a map draws a city (drawing units, y down)."""

    x: Num
    y: Num
    span: Span


@dataclass(frozen=True)
class RouteAttr(Node):
    """An attribute written after a route's colour (``tunnel``, ``ferry 2``): its
    ``name``, and its value (True for a bare word, the number or names that follow). An
    attribute whose class sets ``apart`` makes its route a route of its own although its
    city pair has other routes (two border crossings into one country): the core puts it in
    no double or triple with them (``ir.Route.group``)."""

    span: Span
    value: object = True
    name: ClassVar[str] = ""
    apart: ClassVar[bool] = False

    @property
    def value_span(self) -> Span:
        """Where its value is written (a number's own span), else where it is."""
        return self.value.span if isinstance(self.value, Num) else self.span

    def spaces(self) -> int:
        """How many of the route's spaces the attribute takes from the cards of one colour
        (a ferry's locomotives, wave spaces): the core refuses a route whose attributes
        together take more than its length."""
        return 0

    def spaces_text(self) -> str:
        """The spaces taken, as a message says them ("2 ferry locomotives")."""
        return f"{self.spaces()} spaces for '{self.name}'"


@dataclass(frozen=True)
class DealPart(Node):
    """A deck of its own dealt at set-up beside the regular tickets (``long 1``)."""

    span: Span
    count: Num
    deck: ClassVar[str] = ""


@dataclass(frozen=True)
class EndPart(Node):
    """A condition joined to the end trigger with ``and`` (``and bullet trains <= 2``): the
    last round then starts once any player has the trigger's trains or fewer and every
    joined condition holds. The mechanic owning the part reads it (``EndWhen.parts``) and
    fills the ``end_gate`` hook."""

    span: Span


@dataclass(frozen=True)
class ActionKind(Node):
    """What ``action …`` names: a kind of action and its numbers."""

    span: Span
    numbers: tuple[Num, ...] = ()
    kind: ClassVar[str] = ""

    @classmethod
    def parsed(cls, span: Span, children: list):
        return cls(span, tuple(children))


@dataclass(frozen=True)
class TicketForm(Node):
    """What follows ``ticket``: its two ends and points, and the deck it belongs to (the
    core's regular deck, or a mechanic's: ``ticket long A - B 20``). A form whose ticket
    has several destinations, each with its points, says so in :meth:`ends` (the first
    written is ``b``), and writes its whole form in ``written`` (after ``ticket``): the
    core checks every destination and names the ticket after them all, and the mechanic
    that owns the form scores it (the ``ticket_score`` hook)."""

    rule: ClassVar[str] = "ticket_form"
    span: Span
    a: Name
    b: Name
    points: Num
    deck: ClassVar[str] = ""
    written: ClassVar[str] = ""

    def ends(self) -> tuple[tuple[Name, Num], ...]:
        """The ticket's destinations, each with its points, as written: ``b`` alone by default."""
        return ((self.b, self.points),)


# --- the core's statements ------------------------------------------------------------------

@dataclass(frozen=True)
class VariantName(Stmt):
    rule: ClassVar[str] = "variant"
    words: ClassVar[str] = "variant"
    form: ClassVar[str] = 'variant "NAME"'
    merge: ClassVar[str] = SCALAR
    required: ClassVar[bool] = True
    name: str


@dataclass(frozen=True)
class Extends(Stmt):
    rule: ClassVar[str] = "extends"
    words: ClassVar[str] = "extends"
    form: ClassVar[str] = 'extends "NAME"'
    target: str


@dataclass(frozen=True)
class Source(Stmt):
    rule: ClassVar[str] = "source"
    words: ClassVar[str] = "source"
    form: ClassVar[str] = 'source "TEXT"'
    text: str


@dataclass(frozen=True)
class Provisional(Stmt):
    rule: ClassVar[str] = "provisional"
    words: ClassVar[str] = "provisional"
    form: ClassVar[str] = 'provisional "WHY"'
    merge: ClassVar[str] = SCALAR
    text: str


@dataclass(frozen=True)
class Players(Stmt):
    rule: ClassVar[str] = "players"
    words: ClassVar[str] = "players"
    form: ClassVar[str] = "players LOW..HIGH"
    merge: ClassVar[str] = SCALAR
    required: ClassVar[bool] = True
    low: Num
    high: Num

    @classmethod
    def parsed(cls, span, children):
        low, high = children[0]
        return cls(span, low, high)


@dataclass(frozen=True)
class Trains(Stmt):
    rule: ClassVar[str] = "trains"
    words: ClassVar[str] = "trains"
    form: ClassVar[str] = "trains N"
    merge: ClassVar[str] = SCALAR
    required: ClassVar[bool] = True
    count: Num


@dataclass(frozen=True)
class Hand(Stmt):
    rule: ClassVar[str] = "hand"
    words: ClassVar[str] = "hand"
    form: ClassVar[str] = "hand N"
    merge: ClassVar[str] = SCALAR
    required: ClassVar[bool] = True
    count: Num


@dataclass(frozen=True)
class Card(Stmt):
    rule: ClassVar[str] = "card"
    words: ClassVar[str] = "card"
    form: ClassVar[str] = "card COLOUR N"
    merge: ClassVar[str] = KEYED
    colour: Name
    count: Num

    def key(self) -> tuple:
        return ("card", self.colour.text)


@dataclass(frozen=True)
class Locomotives(Stmt):
    rule: ClassVar[str] = "locomotives"
    words: ClassVar[str] = "locomotives"
    form: ClassVar[str] = "locomotives N"
    merge: ClassVar[str] = SCALAR
    required: ClassVar[bool] = True
    count: Num


@dataclass(frozen=True)
class Market(Stmt):
    rule: ClassVar[str] = "market"
    words: ClassVar[str] = "market"
    form: ClassVar[str] = "market N reset L locomotives | market N no reset"
    merge: ClassVar[str] = SCALAR
    required: ClassVar[bool] = True
    size: Num
    reset_locomotives: Num | None  # None: 'no reset', the market is never dealt again
    max_resets: Num | None = None  # a removed cap, kept only to report it

    @classmethod
    def parsed(cls, span: Span, children: list):
        """``market N no reset`` has no reset number."""
        return cls(span, *children) if len(children) > 1 else cls(span, children[0], None)


@dataclass(frozen=True)
class Deal(Stmt):
    rule: ClassVar[str] = "deal"
    words: ClassVar[str] = "deal tickets"
    form: ClassVar[str] = "deal tickets N {deal_part}keep K"
    merge: ClassVar[str] = SCALAR
    required: ClassVar[bool] = True
    regular: Num
    parts: tuple[DealPart, ...]
    keep: Num

    @classmethod
    def parsed(cls, span, children):
        return cls(span, children[0], tuple(children[1:-1]), children[-1])

    def part(self, deck: str) -> DealPart | None:
        """The part dealing ``deck``, or None."""
        return next((p for p in self.parts if p.deck == deck), None)


@dataclass(frozen=True)
class Returned(Stmt):
    rule: ClassVar[str] = "returned"
    words: ClassVar[str] = "returned"
    form: ClassVar[str] = "returned {returned_deck} {return_place}"
    merge: ClassVar[str] = KEYED
    deck: str   # "tickets", "setup", or a mechanic's deck ("long")
    place: str  # "bottom", or a mechanic's place ("shuffled_bottom", "removed")

    def key(self) -> tuple:
        return ("returned", self.deck)


@dataclass(frozen=True)
class Action(Stmt):
    rule: ClassVar[str] = "action"
    words: ClassVar[str] = "action"
    form: ClassVar[str] = "action {action_kind}"
    merge: ClassVar[str] = KEYED
    kind: str  # draw_cards, claim_route, draw_tickets, or a mechanic's kind
    numbers: tuple[Num, ...] = ()

    @classmethod
    def parsed(cls, span, children):
        return cls(span, children[0].kind, children[0].numbers)

    def key(self) -> tuple:
        return ("action", self.kind)


@dataclass(frozen=True)
class DrawCards(ActionKind):
    rule: ClassVar[str] = "draw_cards"
    form: ClassVar[str] = "draw cards N"
    kind: ClassVar[str] = "draw_cards"


@dataclass(frozen=True)
class ClaimRoute(ActionKind):
    rule: ClassVar[str] = "claim_route"
    form: ClassVar[str] = "claim route"
    kind: ClassVar[str] = "claim_route"


@dataclass(frozen=True)
class DrawTickets(ActionKind):
    rule: ClassVar[str] = "draw_tickets"
    form: ClassVar[str] = "draw tickets N keep K"
    kind: ClassVar[str] = "draw_tickets"


@dataclass(frozen=True)
class PlaceDecl(Stmt):
    """A statement declaring a place routes and tickets name: a city, or a mechanic's kind
    of place. A ``dead_end`` place joins nothing: each route ending there ends in a graph
    node of its own, so no chain of routes passes through it (Italy's countries)."""

    name: Name
    place: Place | None = None
    dead_end: ClassVar[bool] = False


@dataclass(frozen=True)
class City(PlaceDecl):
    rule: ClassVar[str] = "city"
    words: ClassVar[str] = "city"
    form: ClassVar[str] = "city NAME [at X Y]"


@dataclass(frozen=True)
class Route(Stmt):
    rule: ClassVar[str] = "route"
    words: ClassVar[str] = "route"
    form: ClassVar[str] = "route CITY - CITY LENGTH COLOUR{route_attr}"
    a: Name
    b: Name
    length: Num
    colour: Name
    attrs: tuple[RouteAttr, ...] = ()

    @classmethod
    def parsed(cls, span, children):
        a, b, length, colour, *attrs = children
        return cls(span, a, b, length, colour, tuple(attrs))

    def attr(self, name: str) -> RouteAttr | None:
        """The attribute ``name`` as written (the first, when given twice), or None."""
        return next((a for a in self.attrs if a.name == name), None)


@dataclass(frozen=True)
class Ticket(Stmt):
    rule: ClassVar[str] = "ticket"
    words: ClassVar[str] = "ticket"
    form: ClassVar[str] = "ticket {ticket_form}CITY - CITY POINTS [copies N]"
    a: Name
    b: Name
    points: Num
    deck: str = ""  # the regular deck, or the mechanic's deck its form names
    form_node: TicketForm | None = None  # what followed ``ticket`` (a mechanic's form keeps its own parts)
    copies: Num | None = None  # ``copies N``: the ticket is printed N times (None: once)

    @classmethod
    def parsed(cls, span, children):
        form = children[0]
        copies = children[1] if len(children) > 1 else None
        return cls(span, form.a, form.b, form.points, form.deck, form, copies)

    def ends(self) -> tuple[tuple[Name, Num], ...]:
        """The ticket's destinations with their points (one, unless its form has several)."""
        return self.form_node.ends() if self.form_node is not None else ((self.b, self.points),)


@dataclass(frozen=True)
class Without(Stmt):
    """``without …``: removes an inherited route, ticket or place."""

    names: tuple[Name, ...]
    length: Num | None = None
    what: ClassVar[str] = ""


@dataclass(frozen=True)
class WithoutRoute(Without):
    rule: ClassVar[str] = "without_route"
    words: ClassVar[str] = "without route"
    form: ClassVar[str] = "without route CITY - CITY [LENGTH]"
    what: ClassVar[str] = "route"

    @classmethod
    def parsed(cls, span, children):
        return cls(span, (children[0], children[1]), children[2] if len(children) > 2 else None)


@dataclass(frozen=True)
class WithoutTicket(Without):
    rule: ClassVar[str] = "without_ticket"
    words: ClassVar[str] = "without ticket"
    form: ClassVar[str] = "without ticket CITY - CITY"
    what: ClassVar[str] = "ticket"

    @classmethod
    def parsed(cls, span, children):
        return cls(span, tuple(children))


@dataclass(frozen=True)
class WithoutCity(Without):
    rule: ClassVar[str] = "without_city"
    words: ClassVar[str] = "without city"
    form: ClassVar[str] = "without city NAME"
    what: ClassVar[str] = "city"

    @classmethod
    def parsed(cls, span, children):
        return cls(span, tuple(children))


@dataclass(frozen=True)
class EndWhen(Stmt):
    rule: ClassVar[str] = "end_when"
    words: ClassVar[str] = "end when"
    form: ClassVar[str] = "end when trains <= N{end_part}"
    merge: ClassVar[str] = SCALAR
    required: ClassVar[bool] = True
    trains_at_most: Num
    parts: tuple[EndPart, ...] = ()  # the conditions joined with "and", as written

    @classmethod
    def parsed(cls, span, children):
        return cls(span, children[0], tuple(children[1:]))

    def part(self, kind: type) -> EndPart | None:
        """The joined condition of class ``kind``, or None."""
        return next((p for p in self.parts if isinstance(p, kind)), None)


@dataclass(frozen=True)
class RoutePoints(Stmt):
    rule: ClassVar[str] = "route_points"
    words: ClassVar[str] = "route points"
    form: ClassVar[str] = "route points LENGTH:POINTS …"
    merge: ClassVar[str] = SCALAR
    required: ClassVar[bool] = True
    entries: tuple[TableEntry, ...]


@dataclass(frozen=True)
class Tiebreak(Stmt):
    rule: ClassVar[str] = "tiebreak"
    words: ClassVar[str] = "tiebreak"
    form: ClassVar[str] = "tiebreak KEY, KEY, … (e.g. most tickets, longest path)"
    merge: ClassVar[str] = SCALAR
    keys: tuple[Name, ...]  # as written: "most tickets", "longest path", …

    @classmethod
    def parsed(cls, span, children):
        return cls(span, tuple(children))


#: The core's node classes, in the order their statements are documented.
CORE_NODES: tuple[type, ...] = (
    VariantName, Extends, Source, Provisional, Players, Trains, Hand, Card, Locomotives, Market, Deal,
    Returned, Action, DrawCards, ClaimRoute, DrawTickets, City, Route, Ticket, TicketForm,
    WithoutRoute, WithoutTicket, WithoutCity, EndWhen, RoutePoints, Tiebreak,
)


@dataclass(frozen=True)
class SpecFile:
    """One parsed file: its path, its text (kept for error carets) and its statements."""

    path: str
    text: str
    statements: tuple[Stmt, ...]
