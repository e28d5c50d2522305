"""The state schema: every field of a game's state, described once.

A :class:`Field` says what one field holds (its shape, the range of its values, its value
before set-up, who may see it, which mechanic owns it). The core's fields are listed
here; each mechanic lists its own (``Mechanic.state_fields``) and the registry appends
them in registry order. Everything else follows from the list:

- the C struct of the compiled engine, its ``export_state`` and ``from_state``
  (``compiler/templates/state.pyx.j2`` and ``engine.pyx.j2`` loop over the fields);
- the reference interpreter's state object, its copy, export and import
  (:class:`PlainState` below);
- the generic part of the state validator (shapes and ranges), and ``observation()``
  (``engine/state_format.py``);
- the state table of docs/engine.md (a test compares it with :func:`markdown_table`);
- the typed view of the state the type checker reads (:func:`view_source`): the core's
  ``compiler/base/state_view.py`` and each mechanic's ``state_view.py`` in its folder.

The key order of ``to_json()`` is the order of this list: the three header keys
(``format``, ``variant``, ``spec_hash``), then every exported field.
"""
from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .state_view import StateView

#: The state format's name, written as the ``format`` key of every state.
FORMAT = "railspec-state/1"

#: Keys written before the fields: the format, and which variant and spec the state is of.
HEADER_KEYS = ("format", "variant", "spec_hash")

#: The phases of the core game, in their id order; mechanics append their own phases.
PH_SETUP_KEEP = "setup_keep"
PH_TURN = "turn"
PH_SECOND_DRAW = "second_draw"
PH_KEEP = "keep"
PH_OVER = "over"
CORE_PHASES = (PH_SETUP_KEEP, PH_TURN, PH_SECOND_DRAW, PH_KEEP, PH_OVER)


# --- who may see a field ------------------------------------------------------------

@dataclass(frozen=True)
class View:
    """How ``observation(player)`` shows a field.

    ``public``: shown as it is. ``hidden``: not shown; ``summary`` names a key that shows
    its length instead. ``own``: a per-player field; the observer's own entry is shown
    under ``alias`` and everyone's ``summary`` (a sum or a length per player) under its
    own key. ``decider``: shown to the player about to decide only (an offer being
    chosen from), else as empty."""

    kind: str
    alias: str | None = None
    summary: str | None = None
    summary_of: str = "len"  # "len" or "sum"


PUBLIC = View("public")
INTERNAL = View("hidden")


def hidden(summary: str | None = None) -> View:
    return View("hidden", summary=summary, summary_of="len")


def own(alias: str, summary: str | None = None, summary_of: str = "len") -> View:
    return View("own", alias=alias, summary=summary, summary_of=summary_of)


DECIDER = View("decider")


# --- fields ---------------------------------------------------------------------------

#: What a pile field holds (``Field.pile``).
CARD_COUNTS = "card_counts"
CARD_IDS = "card_ids"
TICKETS = "tickets"
PILES = (None, CARD_COUNTS, CARD_IDS, TICKETS)

_BOUND = re.compile(r"^(?:(?P<int>-?\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\s*(?P<sign>[+-])\s*(?P<offset>\d+))?)$")


#: How a field's values name its items (:attr:`Field.items_as`).
ITEMS_AS = ("ids", "bits", "per_item")


@dataclass(frozen=True)
class Field:
    """One field of the state.

    Shape: a scalar; or ``size`` entries (a dimension name, e.g. ``N_CARDS``); or a list of
    at most ``cap`` entries whose length is part of the state; ``per_player`` puts one of
    those per seat in front. ``low`` and ``high`` bound every value: an integer, a
    dimension name, or ``players``, with an optional ``+N`` / ``-N``. ``kind`` is ``int``,
    ``u64`` (a 64-bit unsigned integer) or ``phase`` (stored as an id, written as the
    phase's name). ``derived`` fields are caches of the compiled engine, recomputed from
    other fields: never exported, never validated.

    ``pile``: a field holding game components, whose every train card and ticket must be
    in exactly one pile (the conservation checks sum over these fields, the mechanics'
    included): ``card_counts`` (a count per card id), ``card_ids`` (card ids, -1 for an
    empty slot) or ``tickets`` (ticket ids)."""

    name: str
    doc: str
    owner: str = "core"
    kind: str = "int"
    per_player: bool = False
    size: str | None = None
    cap: str | None = None
    low: str = "0"
    high: str = "0"
    initial: int | str = 0  # an integer or a dimension name
    view: View = PUBLIC
    derived: bool = False
    pile: str | None = None
    pending_claim: bool = False
    #: A route's further owner: a field of one value per route (-1: none) naming a player
    #: who owns the route besides ``owner`` (a shared claim, hook ``after_shared_claim``);
    #: their trains are on it, and the state's checks count them.
    co_owner: bool = False
    #: What the values name, for the position notation (docs/conformance.md): ``card``,
    #: ``ticket``, ``route`` or ``city`` (-1 is none); by default a ticket pile's tickets
    #: and a card-id pile's cards, else numbers.
    names: str | None = None
    #: For the tools that show a state in words (the play page): the values name items of the
    #: owner mechanic's own, of this kind (the mechanic's ``Drawing.item_names`` gives their
    #: names by id: a technology, a bonus card); ``items_as`` says how: ``ids`` (each value an
    #: item's id, -1 none), ``bits`` (each value a bit set of items) or ``per_item`` (an entry
    #: per item, in the items' order). The engines and the notation read values as numbers.
    items: str | None = None
    items_as: str = "ids"

    def __post_init__(self) -> None:
        if self.size and self.cap:
            raise ValueError(f"field {self.name}: a field has a fixed size or a capacity, not both")
        for bound in (self.low, self.high):
            if not _BOUND.match(bound):
                raise ValueError(f"field {self.name}: bad bound {bound!r}")
        if self.kind not in ("int", "u64", "phase"):
            raise ValueError(f"field {self.name}: unknown kind {self.kind!r}")
        if self.pile not in PILES:
            raise ValueError(f"field {self.name}: unknown pile {self.pile!r}")
        if self.pile and self.size is None and self.cap is None:
            raise ValueError(f"field {self.name}: a pile is a list or a row, not a number")
        if self.names not in (None, "card", "ticket", "route", "city"):
            raise ValueError(f"field {self.name}: values name a card, ticket, route or city, not {self.names!r}")
        if self.co_owner and (self.size != "N_ROUTES" or self.per_player):
            raise ValueError(f"field {self.name}: a further owner is one value per route (size N_ROUTES)")
        if self.items_as not in ITEMS_AS:
            raise ValueError(f"field {self.name}: items are read as {', '.join(ITEMS_AS)}, not {self.items_as!r}")
        if self.items_as == "per_item" and (self.items is None or self.size is None):
            raise ValueError(f"field {self.name}: an entry per item needs the items and a fixed size")
        if self.pile == CARD_COUNTS and self.size != "N_CARDS":
            raise ValueError(f"field {self.name}: a count per card has the size N_CARDS")

    @property
    def is_list(self) -> bool:
        return self.cap is not None

    @property
    def is_scalar(self) -> bool:
        return self.size is None and self.cap is None

    def shape_text(self) -> str:
        """The shape as docs/engine.md writes it: ``int``, ``[N_CARDS]``, ``[players][≤ TICKET_CAP]``."""
        text = "" if not self.per_player else "[players]"
        if self.size:
            text += f"[{self.size}]"
        elif self.cap:
            text += f"[≤ {self.cap}]"
        base = {"int": "int", "u64": "u64", "phase": "phase"}[self.kind]
        return f"{base}{text}" if text else base


def _bound_match(expr: str) -> re.Match[str]:
    m = _BOUND.match(expr)
    if m is None:  # Field checks its bounds when it is made
        raise ValueError(f"bad bound {expr!r}")
    return m


@functools.cache
def parsed_bound(expr: str) -> tuple[str | None, int]:
    """A bound expression as a name (None for an integer) and a number: the integer, or the
    name's offset."""
    m = _bound_match(expr)
    if m.group("int") is not None:
        return None, int(m.group("int"))
    offset = int(m.group("offset")) * (1 if m.group("sign") == "+" else -1) if m.group("sign") else 0
    return m.group("name"), offset


def bound_value(expr: str, dims: dict[str, int], players: int | None = None) -> int:
    """The value of a bound expression for one variant (and player count)."""
    name, number = parsed_bound(expr)
    if name is None:
        return number
    if name == "players":
        if players is None:
            raise ValueError("this bound depends on the number of players")
        return players + number
    return dims[name] + number


def bound_c(expr: str) -> str:
    """A bound expression as C (dimension names are the module's constants; ``players``
    is a local variable of the loader)."""
    m = _bound_match(expr)
    if m.group("int") is not None:
        return m.group("int")
    text = m.group("name")
    if m.group("sign"):
        text = f"({text} {m.group('sign')} {m.group('offset')})"
    return text


# --- the core's fields ----------------------------------------------------------------

CORE_FIELDS: tuple[Field, ...] = (
    Field("players", "number of players", low="NP_MIN", high="NP_MAX"),
    Field("seed", "the game's seed (mod 2^64)", kind="u64", view=INTERNAL),
    Field("rng", "the state of the game's generator", kind="u64", view=INTERNAL),
    Field("phase", "what the player to move decides (see the phases)", kind="phase"),
    Field("current", "the seat to decide; -1 once the game is over", low="-1", high="players-1"),
    Field("turn", "turns completed", high="1000000000"),
    Field("decisions", "actions applied", high="1000000000"),
    Field("final_turns", "turns left in the last round; -1 before it starts", low="-1", high="players",
          initial=-1),
    Field("passes", "turns in a row that ended with a pass", high="players"),
    Field("deck", "the train deck; the last entry is the top card", cap="DECK_CAP", high="LOCO",
          view=hidden("deck_size"), pile=CARD_IDS),
    Field("discard", "discarded train cards, a count per card", size="N_CARDS", high="CARD_TOTAL",
          pile=CARD_COUNTS),
    Field("faceup", "the face-up market, a card per slot (-1: empty)", size="MARKET", low="-1", high="LOCO",
          initial=-1, pile=CARD_IDS),
    Field("ticket_deck", "the ticket deck; the first entry is the top ticket", cap="TICKET_CAP",
          high="N_TICKETS-1", view=hidden("ticket_deck_size"), pile=TICKETS),
    Field("offer", "tickets drawn and being chosen from", cap="OFFER_CAP", high="N_TICKETS-1", view=DECIDER,
          pile=TICKETS),
    Field("offer_keep", "the least number of offered tickets to keep", high="OFFER_CAP"),
    Field("owner", "each route's owner (-1: unowned)", size="N_ROUTES", low="-1", high="players-1",
          initial=-1),
    Field("hands", "each player's train cards, a count per card", per_player=True, size="N_CARDS",
          high="CARD_TOTAL", view=own("hand", "hand_sizes", "sum"), pile=CARD_COUNTS),
    Field("trains", "each player's trains left", per_player=True, high="TRAINS", initial="TRAINS"),
    Field("route_score", "each player's route points so far", per_player=True, high="ROUTE_SCORE_MAX"),
    Field("tickets", "each player's tickets kept, in the order kept", per_player=True, cap="TICKET_CAP",
          high="N_TICKETS-1", view=own("tickets", "ticket_counts"), pile=TICKETS),
    Field("setup_offer", "each player's dealt tickets not yet decided", per_player=True, cap="OFFER_CAP",
          high="N_TICKETS-1", view=own("setup_offer"), pile=TICKETS),
    Field("unowned", "bit r set while route r is free (from owner)", kind="u64", size="ROUTE_WORDS",
          derived=True),
    Field("owned", "bit r set when the player owns route r (from owner)", kind="u64", per_player=True,
          size="ROUTE_WORDS", derived=True),
)


def exported(fields: Iterable[Field]) -> list[Field]:
    """The fields a state export holds, in key order."""
    return [f for f in fields if not f.derived]


def state_keys(fields: Iterable[Field]) -> tuple[str, ...]:
    """Every key of an exported state, in order."""
    return HEADER_KEYS + tuple(f.name for f in exported(fields))


# --- the plain-Python state (reference interpreter, validator) ------------------------

#: A field's value in the plain-Python state: an int (the phase's name), or lists of ints.
Value = Any


def initial_value(field: Field, dims: dict[str, int], players: int) -> Value:
    """A field's value before set-up: scalars, fixed rows of ``initial`` and empty lists."""
    initial = field.initial if isinstance(field.initial, int) else dims[field.initial]

    def one() -> int | list[int]:
        if field.size is not None:
            return [initial] * dims[field.size]
        if field.is_list:
            return []
        return initial
    if field.per_player:
        return [one() for _ in range(players)]
    return one()


def copy_value(field: Field, value: Value) -> Value:
    """An independent copy of one field's value."""
    if field.is_scalar and not field.per_player:
        return value
    if field.per_player and not field.is_scalar:
        return [list(row) for row in value]
    return list(value)


class PlainState(StateView):
    """A state as plain Python values: one attribute per exported field. The reference
    interpreter plays on it; export, import and copy follow the schema. Its attributes are
    set from the schema; :class:`StateView` declares the core's with their types (and each
    mechanic's ``state_view.py`` its own) for the type checker."""

    def __init__(self, fields: Sequence[Field], values: dict[str, Value]):
        self.__dict__.update(values)
        self._fields = fields

    @classmethod
    def blank(cls, fields: Sequence[Field], dims: dict[str, int], players: int) -> PlainState:
        values = {f.name: initial_value(f, dims, players) for f in exported(fields)}
        values["players"] = players
        return cls(fields, values)

    @classmethod
    def from_export(cls, fields: Sequence[Field], state: dict[str, Value]) -> PlainState:
        return cls(fields, {f.name: copy_value(f, state[f.name]) for f in exported(fields)})

    def export(self, header: dict[str, Value]) -> dict[str, Value]:
        out = dict(header)
        for f in exported(self._fields):
            out[f.name] = copy_value(f, getattr(self, f.name))
        return out

    def copy(self) -> PlainState:
        return PlainState(self._fields, {f.name: copy_value(f, getattr(self, f.name))
                                         for f in exported(self._fields)})


# --- documentation ----------------------------------------------------------------------

def markdown_table(fields: Iterable[Field]) -> str:
    """The state table of docs/engine.md ("State as JSON"), one row per exported field."""
    rows = ["| key | shape | values | owner | visibility | pile | holds |", "|---|---|---|---|---|---|---|"]
    pile_text = {None: "", CARD_COUNTS: "cards (counts)", CARD_IDS: "cards (ids)", TICKETS: "tickets"}
    for f in exported(fields):
        if f.kind == "phase":
            values = "a phase name"
        elif f.kind == "u64":
            values = "0 … 2^64-1"
        else:
            values = f"{f.low} … {f.high}"
        view = f.view.kind
        if f.view.alias and f.view.alias != f.name:
            view += f" as `{f.view.alias}`"
        if f.view.summary:
            view += f", `{f.view.summary}` public"
        rows.append(f"| `{f.name}` | {f.shape_text()} | {values} | {f.owner} | {view} | {pile_text[f.pile]} | "
                    f"{f.doc} |")
    return "\n".join(rows) + "\n"


# --- the typed view of the state ----------------------------------------------------------

def python_type(field: Field) -> str:
    """The type of a field's value in the reference interpreter's state, as Python writes it:
    ``int`` (``str`` for the phase, held by name), a ``list`` of those for a row or a list,
    a list of such lists for one per player."""
    text = "str" if field.kind == "phase" else "int"
    if not field.is_scalar:
        text = f"list[{text}]"
    if field.per_player:
        text = f"list[{text}]"
    return text


def view_source(fields: Iterable[Field], name: str, doc: str, base: tuple[str, str] | None = None) -> str:
    """The text of a module declaring class ``name``: one annotated attribute per exported
    field of ``fields``, its line of documentation above it (``doc``: the class's docstring;
    ``base``: the module and the class it extends, else none). ``make docs`` writes the
    core's and the stock mechanics' (compiler/docs.py)."""
    lines = ['"""The reference interpreter\'s state as the type checker sees it (see the class).',
             "",
             "Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test",
             'compares."""',
             "from __future__ import annotations", ""]
    if base is not None:
        lines += [f"from {base[0]} import {base[1]}", ""]
    lines += ["", f"class {name}{f'({base[1]})' if base else ''}:"]
    body = "\n".join(f"    {line}" if line else "" for line in doc.strip().split("\n"))
    lines += ['    """' + body.lstrip() + '"""', ""]
    for f in exported(fields):
        lines += [f"    #: {line}" for line in textwrap.wrap(f.doc, 100)] + [f"    {f.name}: {python_type(f)}"]
    return "\n".join(lines) + "\n"
