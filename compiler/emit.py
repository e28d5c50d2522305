"""Emit: the variant IR rendered into one Cython module, specialised to the variant.

Every decision is taken here, in Python: :func:`tables` computes each table the core
engine needs (route lengths and ends, the claim layout's payment blocks, ticket end nodes,
the action catalogue as flat integer arrays, the deck's first order …), each mechanic the
variant uses adds its own (``Mechanic.tables``), and :func:`state_layout` turns the state
schema into the struct's declarations. The templates under ``templates/`` hold the core's
hand-written rule code; at fixed hook points (``{% hook "after_claim", 4 %}``) they pull
in the fragments of the mechanics the variant uses, in registry order, so a mechanic the
variant lacks leaves no code behind.

No name written in a spec (city, route, ticket, colour, action) reaches the generated
code: the Python layer has the names from the IR, the module only needs ids. The one
spec-derived string that does appear, the variant's key, goes through :func:`c_string`
(a C string of plain characters, or its bytes as numbers) or, in the header comment,
:func:`comment_text`.

Every number that two variants with the same mechanics may not share is defined in the
module's numbers block (templates/tables.pyx.j2, :func:`variant_numbers`) and only named
by the code, so that such variants emit the same code and share its translation by Cython
(compiler/numbers_block.py, compiler/build.py).

The output is deterministic: everything is rendered in id order, sets are sorted, and the
header has no timestamps or paths beyond ``spec/<key>.rail``. Its last header line is a
hash of the text itself (:func:`source_hash`), which is how the build stage recognises
an installed stock module that is still current.

``python -m railspec.compiler.emit`` re-renders every stock spec into generated/.
"""
from __future__ import annotations

import hashlib
import math
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import hooks, ir, numbers_block, observation
from .assembly import Assembly, assemble, refuse_unsupported
from .base import schema
from .base.errors import SpecError, UnsupportedMechanicError
from .base.rng import AGENT_SALT, WORLD_SALT
from .check import check
from .mechanic import Caches, Mechanic, default_registry, part
from .specs import resolve, stock_names, stock_path, variant_key

TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"
#: The core's templates as an emitted module's banners name them: relative to the railspec
#: package, so that the module's text is the same on every machine.
CORE_TEMPLATES = "compiler/templates"
_HASH_PLACEHOLDER = "@SOURCE-HASH@"
_HASH_LINE = re.compile(r"^# source hash: ([0-9a-f]{16})$", re.M)


def py_literal(text: str) -> str:
    """A Python (and Cython) string literal for ``text``: ASCII only, every quote,
    backslash, newline and non-printable character escaped. ``eval`` gives ``text`` back."""
    if not isinstance(text, str):
        raise TypeError(f"py_literal needs a str, got {type(text).__name__}")
    return ascii(text)


def c_string(text: str) -> str:
    """A C initializer of a ``char`` array holding ``text``'s UTF-8 bytes and a final NUL: a
    string literal when every byte is printable ASCII other than a quote, a backslash or a
    question mark (a trigraph), else the bytes as numbers. (No escapes: the text sits in a
    Cython string literal in one form of the module and in a C header in the other.)"""
    data = text.encode("utf-8")
    if all(32 <= byte < 127 and byte not in b'"\\?' for byte in data):
        return f'"{text}"'
    return "{" + ", ".join(str(byte) for byte in data + b"\0") + "}"


def comment_text(text: str) -> str:
    """``text`` made safe to sit inside a ``#`` comment: no line break can end the comment."""
    return ascii(str(text))[1:-1]


# --- templates ------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _environment(folder: Path = TEMPLATE_DIR):
    """The Jinja environment reading one folder of templates: the core's, or a mechanic's.
    (jinja2 is imported here, on first use: loading a variant whose engine is built needs
    no templates.)"""
    import jinja2
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["py_literal"] = py_literal
    return env


@lru_cache(maxsize=None)
def engine_api_declarations() -> str:
    """The Cython declarations of engine_api.h from engine_api.pxd (its one source), without
    the extern block's first line: a generated module puts them under the header's text."""
    lines = (TEMPLATE_DIR / "engine_api.pxd").read_text(encoding="utf-8").splitlines()
    body = lines[lines.index('cdef extern from "engine_api.h":') + 1:]
    return "\n".join(body)


# --- the core's tables ----------------------------------------------------------------------

def _pad(values: list[int]) -> list[int]:
    """C has no empty arrays: an empty table gets one unused zero."""
    return list(values) if values else [0]


def _one_id(actions, kind: str) -> int:
    """The id of the catalogue's only action of ``kind``, or -1."""
    found = [a.id for a in actions if a.kind == kind]
    return found[0] if found else -1


#: A route's row of T_CLAIM: where a hand's Holding keeps the cards that pay it (its colour,
#: or N_COLOURS for a gray route), its first payment block, and that block's ids (start,
#: end), locomotives at step 0, plain spaces and colour choices a step.
CLAIM_ROW_FIELDS = ("HELD", "FIRST_BLOCK", "START", "END", "BASE_LOCOS", "PLAIN", "CHOICES", "SPARE")


def _claim_row(route: ir.Route, block: ir.PaymentBlock, layout: ir.ClaimLayout, colours: int) -> list[int]:
    """``route``'s row of T_CLAIM (CLAIM_ROW_FIELDS), ``block`` its first payment block.
    HELD is where a hand's Holding keeps the cards that pay it: the route's colour, or
    ``colours`` (the most of any one colour) for a gray route."""
    held = route.colour if route.colour >= 0 else colours
    return [held, layout.route_blocks[route.id][0], block.start, block.end, block.base_locomotives,
            block.plain, block.choices, 0]


def check_gray_steps(layout: ir.ClaimLayout, actions, colours: int) -> None:
    """The compiled legal claims find a gray step's payable ids as ``step start + colour``
    (legal.pyx.j2, legal_payments): check that every block of several colour choices lists
    all the colours, in colour order, with the step's number of cards."""
    for block in layout.blocks:
        if block.choices == 1:
            continue
        steps = block.plain + 1 if block.wild else 1
        for k in range(min(steps, block.plain)):  # the all-locomotive step is a single id
            for c in range(block.choices):
                a = block.start + k * block.choices + c
                if a >= block.end:
                    break
                if block.choices != colours or actions[a].colour != c or actions[a].colour_cards != block.plain - k:
                    raise ValueError(f"claim layout: action {a} of route {block.route} is not colour {c} "
                                     f"with {block.plain - k} cards (a gray step lists the colours in order)")


def tables(assembly: Assembly) -> dict:
    """Every number of the core engine, as plain ints and lists of ints: its constants, its
    ``int`` tables (routes, claims, tickets, the deck and the catalogue, in that order) and
    its route bitsets."""
    variant = assembly.variant
    check_gray_steps(variant.claim_layout, variant.actions, len(variant.colours))
    route_arrays, bitsets = _route_tables(assembly)
    return dict(
        constants=_constants(assembly),
        arrays=route_arrays + _claim_tables(variant) + _ticket_tables(variant) + _catalogue_tables(assembly),
        bitsets=bitsets,
        phases=list(assembly.phases),
        score_items=[dict(name=i.name, enum=i.enum, in_total=i.in_total) for i in assembly.score_items],
    )


def _bitset(chosen, words: int) -> list[int]:
    """The route ids of ``chosen`` (routes) as ``words`` words of 64 bits."""
    out = [0] * words
    for r in chosen:
        out[r.id >> 6] |= 1 << (r.id & 63)
    return out


def _route_tables(assembly: Assembly) -> tuple[list, list]:
    """The routes' own tables (length, graph ends, colour, points), and the route bitsets
    (ROUTE_WORDS words of 64 bits) that narrow the claim search to the routes the current
    player can afford: by length, and by colour and cards at hand."""
    variant = assembly.variant
    routes, actions, layout = variant.routes, variant.actions, variant.claim_layout
    words = assembly.dims["ROUTE_WORDS"]
    max_length = max([r.length for r in routes], default=0)
    # the fewest colour cards and locomotives any payment of the route needs
    route_need = [min((a.colour_cards + a.locomotives for b in layout.blocks_of(r.id)
                       for a in actions[b.start:b.end]), default=0) for r in routes]
    len_at_most = []
    for t in range(max_length + 1):
        len_at_most.extend(_bitset((r for r in routes if r.length <= t), words))
    afford = []  # [colour, or N_COLOURS for gray][cards available 0..max_length] -> bitset
    for c in list(range(len(variant.colours))) + [ir.GRAY]:
        for t in range(max_length + 1):
            afford.extend(_bitset((r for r in routes if r.colour == c and route_need[r.id] <= t), words))
    arrays = [
        ("T_ROUTE_LEN", _pad([r.length for r in routes])),
        ("T_ROUTE_NODE_A", _pad([r.node_a for r in routes])),
        ("T_ROUTE_NODE_B", _pad([r.node_b for r in routes])),
        ("T_ROUTE_COLOUR", _pad([r.colour for r in routes])),
        ("T_ROUTE_POINTS", _pad([variant.route_points[r.length] for r in routes])),
    ]
    bitsets = [  # (name, values): `static const unsigned long long NAME[]` tables
        ("T_ALL_ROUTES", _bitset(routes, words)),
        ("T_LEN_AT_MOST", len_at_most),
        ("T_AFFORD", afford),
    ]
    return arrays, bitsets


def _claim_tables(variant: ir.Variant) -> list:
    """Where each route's payments are: its claim row, and the payment blocks by their ids
    in the layout (the payment_ok hook's ``block``). Each route's first block is also in
    T_CLAIM, indexed by route, the fast path of the legal claims; the others ("extra"
    blocks, where a mechanic lays out several: wave spaces paid by ferry cards) are only
    read when some route has them."""
    routes, layout = variant.routes, variant.claim_layout
    first = [layout.blocks_of(r.id)[0] for r in routes]
    extra = len(layout.blocks) - len(routes)
    blocks = layout.blocks if extra else ()
    colours = len(variant.colours)
    return [
        # each route's claim facts in one row of CLAIM_ROW ints (the CR_ offsets): a turn's
        # legal claims read a route's from one place
        ("T_CLAIM", _pad([value for r, b in zip(routes, first) for value in _claim_row(r, b, layout, colours)])),
        ("T_ROUTE_BLOCK_END", _pad([layout.route_blocks[r.id][1] for r in routes] if extra else [])),
        ("T_BLOCK_START", _pad([b.start for b in blocks])),
        ("T_BLOCK_END", _pad([b.end for b in blocks])),
        ("T_BLOCK_BASE_LOCOS", _pad([b.base_locomotives for b in blocks])),
        ("T_BLOCK_PLAIN", _pad([b.plain for b in blocks])),
        ("T_BLOCK_CHOICES", _pad([b.choices for b in blocks])),
    ]


def _ticket_tables(variant: ir.Variant) -> list:
    """Each ticket's end cities and points, each city's graph nodes (a city is one node, a
    dead-end place one node per route end), and the regular deck's tickets."""
    city_nodes: list[int] = []
    city_node_first: list[int] = []
    city_node_end: list[int] = []
    for node_ids in variant.city_nodes:
        city_node_first.append(len(city_nodes))
        city_nodes.extend(node_ids)
        city_node_end.append(len(city_nodes))
    tickets = variant.tickets
    return [
        ("T_TICKET_CITY_A", _pad([t.a for t in tickets])),
        ("T_TICKET_CITY_B", _pad([t.b for t in tickets])),
        ("T_CITY_NODE_FIRST", _pad(city_node_first)),
        ("T_CITY_NODE_END", _pad(city_node_end)),
        ("T_CITY_NODES", _pad(city_nodes)),
        ("T_TICKET_POINTS", _pad([t.points for t in tickets])),
        ("T_REGULAR_TICKETS", _pad([t.id for t in tickets if not t.deck])),
    ]


def _catalogue_tables(assembly: Assembly) -> list:
    """The deck before its first shuffle, and the action catalogue as flat tables: each
    action's kind, route, card, cards, locomotives and keep mask, and each card's face-up
    draw."""
    variant = assembly.variant
    actions = variant.actions
    loco = len(variant.colours)

    def card_of(colour: int) -> int:
        return loco if colour == ir.NO_COLOUR else colour

    # a face-up draw's card; the colour a claim's colour cards are paid in (LOCO when it
    # pays none: the test hand[LOCO] >= 0 then always holds)
    act_card = []
    for a in actions:
        if a.kind == ir.DRAW_FACEUP:
            act_card.append(card_of(a.colour))
        elif a.colour_cards > 0:
            act_card.append(a.colour)
        else:
            act_card.append(loco)
    faceup_action = [-1] * (loco + 1)
    for a in actions:
        if a.kind == ir.DRAW_FACEUP:
            faceup_action[card_of(a.colour)] = a.id
    deck_init = [c.id for c in variant.colours for _ in range(c.count)] + [loco] * variant.locomotives
    return [
        ("T_DECK_INIT", _pad(deck_init)),
        ("T_FACEUP_ACTION", faceup_action),
        ("T_POPCOUNT", [bin(m).count("1") for m in range(1 << variant.max_offer)]),
        ("T_ACT_KIND", [assembly.kind_code(a.kind) for a in actions]),
        ("T_ACT_ROUTE", [a.route for a in actions]),
        ("T_ACT_CARD", act_card),
        ("T_ACT_CARDS", [a.colour_cards for a in actions]),
        ("T_ACT_LOCOS", [a.locomotives for a in actions]),
        ("T_ACT_MASK", [a.mask for a in actions]),
    ]


def _constants(assembly: Assembly) -> list[tuple[str, int]]:
    """The core engine's named constants: its sizes, the variant's numbers, the ids of the
    actions it picks out, the claim row's offsets, the action kinds and the score items."""
    variant = assembly.variant
    dims = assembly.dims
    actions = variant.actions
    keeps = [a.id for a in actions if a.kind == ir.KEEP_TICKETS]
    keep_base, keep_end = (min(keeps), max(keeps) + 1) if keeps else (0, 0)
    constants = [(name, dims[name]) for name in (
        "N_COLOURS", "N_CARDS", "LOCO", "CARD_TOTAL", "DECK_CAP", "N_CITIES", "N_ROUTES", "ROUTE_CAP", "ROUTE_WORDS",
        "N_NODES", "NODE_CAP", "N_TICKETS", "TICKET_CAP", "NP_MIN", "NP_MAX", "MARKET", "MARKET_CAP",
        "MAX_OFFER", "OFFER_CAP", "TRAINS", "ROUTE_SCORE_MAX")]
    constants += [
        ("N_REGULAR", sum(1 for t in variant.tickets if not t.deck)),
        ("RESET_LOCOS", variant.market_reset_locomotives),
        ("HAND", variant.hand),
        ("END_TRAINS", variant.end_trains),
        ("DEAL_REGULAR", variant.deal_regular),
        ("DEAL_KEEP", variant.deal_keep),
        ("DRAW_TICKETS", variant.draw_tickets),
        ("DRAW_TICKETS_KEEP", variant.draw_tickets_keep),
        ("MAX_LENGTH", max([r.length for r in variant.routes], default=0)),
        ("ACT_BLIND", _one_id(actions, ir.DRAW_BLIND)),
        ("ACT_DRAW_TICKETS", _one_id(actions, ir.DRAW_TICKETS)),
        ("ACT_PASS", _one_id(actions, ir.PASS)),
        ("KEEP_BASE", keep_base),
        ("KEEP_END", keep_end),
        ("EXTRA_BLOCKS", len(variant.claim_layout.blocks) - len(variant.routes)),
        ("CLAIM_ROW", len(CLAIM_ROW_FIELDS)),
        ("N_CORE_PHASES", len(schema.CORE_PHASES)),  # the core's phases have the first ids
    ]
    constants += [(f"CR_{name}", k) for k, name in enumerate(CLAIM_ROW_FIELDS)]
    if assembly.kinds[:3] != (ir.DRAW_BLIND, ir.DRAW_FACEUP, ir.CLAIM):
        raise ValueError("action kinds: the core's draws and claim must have ids 0, 1, 2 (apply.pyx.j2 picks them "
                         f"with one comparison), not {assembly.kinds[:3]}")
    constants += [(f"K_{kind.upper()}", code) for code, kind in enumerate(assembly.kinds)]
    constants += [(f"B_{item.enum}", i) for i, item in enumerate(assembly.score_items)]
    constants.append(("B_FIELDS", len(assembly.score_items)))
    return constants


def state_layout(assembly: Assembly) -> list[dict]:
    """The state schema as the templates need it: per field its C declaration(s), its
    shape (``scalar``, ``fixed``, ``list``, each maybe per player), its sizes and bounds as
    C expressions, and its value before set-up."""
    dims = assembly.dims
    out = []
    for f in assembly.fields:
        ctype = "unsigned long long" if f.kind == "u64" else "int"
        seat = "[NP_MAX]" if f.per_player else ""
        # sizes and initial values by name: the numbers block holds their values
        if f.size:
            storage = storage_name(f.size)
        elif f.cap:
            storage = f.cap
        else:
            storage = "0"
        decl = f"{ctype} {f.name}{seat}[{storage}]" if storage != "0" else f"{ctype} {f.name}{seat}"
        initial_value = f.initial if isinstance(f.initial, int) else dims[f.initial]
        if f.is_list and initial_value:
            raise ValueError(f"state field {f.name}: a list starts empty")
        if f.kind == "u64" and not f.is_scalar and not f.derived:
            raise ValueError(f"state field {f.name}: arrays of u64 can only be derived fields")
        out.append(dict(
            name=f.name, kind=f.kind, derived=f.derived, per_player=f.per_player,
            shape="scalar" if f.is_scalar else ("list" if f.is_list else "fixed"),
            decl=decl, count_decl=f"int {f.name}_n{seat}" if f.is_list else None,
            size=f.size, cap=f.cap, storage=storage, initial=str(f.initial),
            # a named initial value is written whatever it is: the code must not depend on it
            has_initial=not isinstance(f.initial, int) or f.initial != 0, pile=f.pile,
            low=schema.bound_c(f.low), high=schema.bound_c(f.high),
            # the same, as the field table of engine_api.h (railspec_field) writes it
            rf_kind=_RF_KINDS[f.kind],
            rf_shape="RF_SCALAR" if f.is_scalar else ("RF_LIST" if f.is_list else "RF_FIXED"),
            rf_pile=_RF_PILES[f.pile], rf_size=(f.cap if f.is_list else f.size) or 0,
            rf_low=_bound_parts(f.low), rf_high=_bound_parts(f.high)))
    return out


def storage_name(size: str) -> str:
    """The constant holding the entries of a state row of ``size`` entries: the size, but
    at least 1 (C has no empty arrays)."""
    return f"STORE_{size}"


def storage_constants(assembly: Assembly) -> list[tuple[str, int]]:
    """The storage constants (:func:`storage_name`) of the state's rows, by size."""
    sizes = sorted({f.size for f in assembly.fields if f.size})
    return [(storage_name(size), max(1, assembly.dims[size])) for size in sizes]


_RF_KINDS = {"int": "RF_INT", "u64": "RF_U64", "phase": "RF_PHASE"}
_RF_PILES = {None: "RF_NO_PILE", schema.CARD_COUNTS: "RF_CARD_COUNTS", schema.CARD_IDS: "RF_CARD_IDS",
             schema.TICKETS: "RF_TICKETS"}


def _bound_parts(expr: str) -> tuple[str, int]:
    """A bound as engine_api.h's field table holds it: a C expression, and 1 when the
    number of players is added to it (a bound ``players`` or ``players-1``)."""
    name, offset = schema.parsed_bound(expr)
    if name == "players":
        return str(offset), 1
    return schema.bound_c(expr), 0


#: Which rows of a pile field a world redraws, by the field's view, as a C condition
#: (determinize.pyx.j2; railspec.runtime.determinize.hidden_rows says the same in Python).
_HIDDEN_WHEN = {"hidden": "True", "decider": "not deciding"}


def world_tables(assembly: Assembly) -> dict:
    """What the compiled determinization needs: the pile fields a player may not see, each
    with the C condition under which a row is hidden from ``player``, and each ticket's
    deck as its rank among the decks' names (the order the pools are shuffled in)."""
    views = {f.name: f.view.kind for f in assembly.fields}
    piles = []
    for f in state_layout(assembly):
        if f["derived"] or f["pile"] is None:
            continue
        view = views[f["name"]]
        if view == "own" and f["per_player"]:
            hidden = "p != player"
        elif view in _HIDDEN_WHEN:
            hidden = _HIDDEN_WHEN[view]
        else:
            continue
        piles.append(dict(f, view=view, hidden=hidden))
    decks = sorted({t.deck for t in assembly.variant.tickets})
    return dict(world_piles=piles, ticket_decks=decks, world_salt=f"0x{WORLD_SALT:016X}",
                ticket_deck_rank=_pad([decks.index(t.deck) for t in assembly.variant.tickets]))


def _c_double(value: float) -> str:
    """A C double literal that reads back as exactly ``value`` (repr is the shortest
    decimal text that round-trips, and C parses it to the nearest double)."""
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"an observation scale must be finite, not {value}")
    text = repr(value)
    return text if any(ch in text for ch in ".e") else text + ".0"


class _ObservationNumbers:
    """The named numbers of the observation's ops, gathered for the module's numbers block:
    ``ints`` (C enum constants), ``doubles`` and ``tables`` (of doubles), each op's named
    ``OBS_<i>_<WHAT>`` (``T_OBS_<i>_<WHAT>`` for a table)."""

    def __init__(self):
        self.ints: list[tuple[str, int]] = []
        self.doubles: list[tuple[str, str]] = []
        self.tables: list[tuple[str, list[str]]] = []

    def number(self, i: int, what: str, value: int) -> str:
        """The name of op ``i``'s int ``what``, whose value is ``value``."""
        self.ints.append((f"OBS_{i}_{what}", value))
        return self.ints[-1][0]

    def scale(self, i: int, what: str, value: float) -> str:
        """The name of op ``i``'s double ``what``."""
        self.doubles.append((f"OBS_{i}_{what}", _c_double(value)))
        return self.doubles[-1][0]

    def table(self, i: int, what: str, values: list) -> str:
        """The name of op ``i``'s table of doubles ``what``."""
        self.tables.append((f"T_OBS_{i}_{what}", [_c_double(x) for x in values]))
        return self.tables[-1][0]


def observation_fill(assembly: Assembly) -> dict:
    """What the template of the compiled observation fill (templates/observe.pyx.j2)
    writes: the layout of :func:`railspec.compiler.observation.assembly_plan`, turned into one op per
    slice, each a few C expressions over the state struct.

    Every op is written the same way: a loop over ``rows`` (the seats, relative to the
    observer, for a per-player field; else one), the seat read being ``q`` = (observer +
    rel) mod players; the slice's values read ``each`` (``n`` entries, the ``k``-th being
    ``item``), or as their ``sum`` or their number (``len``); each value written by an
    ``encode`` rule at ``base`` = start + rel × block: ``number`` (× ``scale``, a constant or
    a table per entry), ``saturating``, ``flagged``, ``onehot`` (the category ``cat`` of the
    value, ``cats`` a row) or ``counts`` (one per category, then × the table ``weights``).
    The encoder's rules (``tensor.py``) decide all of it; the template only spells it, and
    leaves out a loop of one row or one entry and a guard that always holds.

    An op's numbers (start, block, scale, categories …) are named constants of the op
    (``OBS_<i>_START`` …), returned as ``ints``, ``doubles`` and ``tables`` for the module's
    numbers block, so that the op's code is the same whatever the map."""
    fields = {f.name: f for f in assembly.fields}
    numbers = _ObservationNumbers()
    ops, size = [], 0
    for i, e in enumerate(observation.assembly_plan(assembly)):
        f = fields[e["field"]]
        size = e["start"] + e["length"]
        op = _observation_read(i, e, f, numbers)
        _observation_encoding(i, e, f, op, assembly.dims, numbers)
        ops.append(op)
    numbers.ints.append(("OBS_SIZE", size))
    return dict(ops=ops, ints=numbers.ints, doubles=numbers.doubles, tables=numbers.tables, size=size)


def _observation_read(i: int, e: dict, f, numbers: _ObservationNumbers) -> dict:
    """Op ``i`` of the observation plan's entry ``e`` (field ``f``), as far as reading it
    goes: where it is written (start, block, rows: the seats or one), when (``guard``),
    the values read (``item``, ``n`` of them, into ``var``) and how (``read``)."""
    per_player = e["per_player"]
    # the seat a value is read at: each seat in turn, the observer's own, or none
    seat = "[q]" if per_player else ("[player]" if e["source"] == "own" else "")
    if f.is_scalar:
        item, count = f"s.{f.name}{seat}", "1"
    else:
        item = f"s.{f.name}{seat}[k]"
        count = f"s.{f.name}_n{seat}" if f.is_list else f.size
    op = dict(slice=e["slice"], start=numbers.number(i, "START", e["start"]),
              block=numbers.number(i, "BLOCK", e["block"]), rows="s.players" if per_player else "1",
              guard="deciding" if e["source"] == "decider" else "1",
              item=item, n=count, var="u" if f.kind == "u64" else "v",
              scale="0.0", weights=None, cat="v", cats="0")
    if e["source"] == "summary":
        op["read"] = e["summary_of"]
    elif e["shape"] == "length":
        op["read"] = "len"
    else:
        op["read"] = "each"
    return op


def _observation_encoding(i: int, e: dict, f, op: dict, dims: dict, numbers: _ObservationNumbers) -> None:
    """Add to ``op`` how each value it reads is written (``encode``, with its scale, its
    categories or its weights)."""
    encoding = e["encoding"]
    if encoding in ("number", "flagged", "saturating"):
        op["encode"] = encoding
        if encoding == "saturating":
            op["scale"] = numbers.scale(i, "SCALE", e["open_scale"])
        elif isinstance(e["scale"], list):
            # a scale per entry: only a row of fixed size has one (a count per card)
            if op["read"] != "each" or not f.size or len(e["scale"]) != dims[f.size]:
                raise ValueError(f"observation slice {e['slice']}: {len(e['scale'])} scales "
                                 f"do not match its entries")
            op["scale"] = numbers.table(i, "SCALE", e["scale"]) + "[k]"
        else:
            op["scale"] = numbers.scale(i, "SCALE", e["scale"])
        return
    op["encode"] = "counts" if e["shape"] == "counts" else "onehot"
    op["cats"] = numbers.number(i, "CATS", e["categories"])
    if encoding == "seat":
        none = numbers.number(i, "NONE", e["seats"] + e["extras"] if e["none"] else -1)
        seats = numbers.number(i, "SEATS", e["seats"])
        op["cat"] = (f"({none} if v < 0 else (v - player + s.players) % s.players if v < s.players "
                     f"else {seats} + v - s.players)")
    elif encoding == "id" and e["none"]:
        op["cat"] = f"({numbers.number(i, 'NONE', e['ids'])} if v < 0 else v)"
    # a phase is its id; an id without "none" is itself, -1 writing nothing
    if e.get("weights") is not None:
        op["weights"] = numbers.table(i, "WEIGHTS", e["weights"])


def _merge_mechanic_tables(assembly: Assembly, context: dict) -> dict[str, dict]:
    """Add each mechanic's constants and tables to the module's; return each mechanic's own
    template variables. A name given twice is an error: C has one namespace."""
    taken = {name for name, _ in context["constants"]} | {name for name, _ in context["arrays"]} \
        | {name for name, _ in context["bitsets"]}
    own_context = {}
    for mechanic, rule in assembly.present:
        t = mechanic.tables(assembly.variant, rule)
        dims = mechanic.dimensions(assembly.variant, rule)
        for group, items in (("constants", list(dims.items()) + t.constants), ("arrays", t.arrays),
                             ("bitsets", t.bitsets)):
            for name, value in items:
                if name in taken:
                    raise ValueError(f"mechanic {mechanic.name}: the name {name} is already used in the module")
                taken.add(name)
                context[group].append((name, value))
        own_context[mechanic.name] = t.context
    return own_context


INT_MIN, INT_MAX = -2**31, 2**31 - 1


def _check_c_ints(variant: ir.Variant, context: dict) -> None:
    """Every constant and ``int`` table value fits a 32-bit C int. The checker's bounds
    (compiler/limits.py) make it so; a value that does not would wrap silently in C, so
    the emitter stops instead of writing it."""
    for name, value in context["constants"]:
        if not INT_MIN <= value <= INT_MAX:
            raise ValueError(f"{variant.name}: the constant {name} is {value}, which a 32-bit C int cannot hold")
    for name, values in context["arrays"]:
        if values and not (INT_MIN <= min(values) and max(values) <= INT_MAX):
            worst = max(values, key=abs)
            raise ValueError(f"{variant.name}: the table {name} holds {worst}, which a 32-bit C int cannot hold")


def emit(variant: ir.Variant) -> str:
    """The Cython source of the variant's engine module. Raises UnsupportedMechanicError
    when the variant uses a mechanic the engines do not implement yet."""
    refuse_unsupported(variant, "the compiled engine does")
    assembly = assemble(variant)
    context = tables(assembly)
    mechanic_context = _merge_mechanic_tables(assembly, context)
    _check_c_ints(variant, context)
    context.update(
        spec_file=comment_text(f"spec/{variant.key}.rail"),
        spec_hash=variant.spec_hash,
        source_hash=_HASH_PLACEHOLDER,
        mechanics=", ".join(m.name for m, _ in assembly.present) or "none",
        fields=state_layout(assembly),
        exported=[f for f in state_layout(assembly) if not f["derived"]],
        state_format=schema.FORMAT,
        agent_salt=f"0x{AGENT_SALT:016X}",
        observe=observation_fill(assembly),
        **world_tables(assembly),
        engine_api_declarations=engine_api_declarations(),
        core_templates=CORE_TEMPLATES,
    )
    context.update(numbers=variant_numbers(variant, assembly, context), numbers_begin=numbers_block.BEGIN,
                   numbers_end=numbers_block.END)

    engines, methods = [], []
    for mechanic, _rule in assembly.present:
        own = dict(context, **mechanic_context[mechanic.name])
        engines.append(_mechanic_text(mechanic, "engine.pyx.j2", own))
        methods.append(_mechanic_text(mechanic, "methods.pyx.j2", own))
    context["mechanic_engines"] = "\n\n".join(_mechanic_block(m, "engine.pyx.j2", text)
                                              for (m, _rule), text in zip(assembly.present, engines) if text)
    context["mechanic_methods"] = "\n\n".join(_mechanic_block(m, "methods.pyx.j2", text)
                                              for (m, _rule), text in zip(assembly.present, methods) if text)
    # each a method of the variant's games (engine_face.Variant's methods)
    context["mechanic_method_names"] = re.findall(r"^def (\w+)\(", context["mechanic_methods"], re.MULTILINE)
    context["hooks"], context["hooks_filled"] = hook_chains(assembly, engines)
    # shared claims (a claim of an owned route) exist where a field names further owners
    context["co_owner_fields"] = list(assembly.co_owners)
    # legal claims: the bitsets of routes closed to a player (Mechanic.closed_routes), and
    # the other mechanics' route_open, asked route by route
    masked = [m for m, _rule in assembly.present if part(m, Caches).closed_routes and "route_open" in m.filled_hooks()]
    context["closed_route_fields"] = [part(m, Caches).closed_routes for m in masked]
    context["route_open_listing"] = [name for chain in context["hooks"] if chain["name"] == "route_open"
                                     for name in chain["mechanics"] if name not in {m.name for m in masked}]
    text = _environment().get_template("module.pyx.j2").render(**context)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return text.replace(_HASH_PLACEHOLDER, digest)


def variant_numbers(variant: ir.Variant, assembly: Assembly, context: dict) -> dict:
    """Everything the module's numbers block (templates/tables.pyx.j2) defines: ``ints``
    (C enum constants), ``doubles``, ``strings`` and ``tables`` (each a dict of name,
    ctype, values and how they are written). The code names them only
    (compiler/numbers_block.py says why)."""
    observe = context["observe"]
    ints = list(context["constants"]) + [("N_ACTIONS_C", len(variant.actions)),
                                         ("N_TICKET_DECKS", len(context["ticket_decks"]))]
    ints += storage_constants(assembly) + observe["ints"]
    tables = [dict(name=name, ctype="int", values=values, suffix="", per_line=20)
              for name, values in context["arrays"] + [("T_TICKET_DECK_RANK", context["ticket_deck_rank"])]]
    tables += [dict(name=name, ctype="unsigned long long", values=values, suffix="ULL", per_line=4)
               for name, values in context["bitsets"]]
    tables += [dict(name=name, ctype="double", values=values, suffix="", per_line=6)
               for name, values in observe["tables"]]
    strings = [("RS_VARIANT_KEY", c_string(variant.key)), ("RS_SPEC_HASH", c_string(variant.spec_hash)),
               ("RS_SOURCE_HASH", c_string(_HASH_PLACEHOLDER))]
    names = [name for name, _ in ints + observe["doubles"] + strings] + [t["name"] for t in tables]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"{variant.name}: the numbers block defines {', '.join(repeated)} twice (C has one "
                         f"namespace)")
    return dict(ints=ints, doubles=observe["doubles"], strings=strings, tables=tables)


def _mechanic_text(mechanic, name: str, context: dict, indent: int = 0) -> str:
    """A mechanic's template ``name`` (``engine.pyx.j2``: its C functions, its hooks among
    them; ``methods.pyx.j2``: the game's methods it adds), rendered; "" when it has none."""
    folder = mechanic.template_dir()
    if not (folder / name).is_file():
        return ""
    text = _environment(folder).get_template(name).render(**context)
    return "".join((" " * indent + line if line.strip() else "") + "\n" for line in text.splitlines())


def template_source(mechanic, name: str) -> str:
    """Where a mechanic's template ``name`` comes from, as a banner of the emitted module
    names it: the package of the template's folder as a path, relative to railspec for a
    stock mechanic (``mechanics/multi_track/engine.pyx.j2``), from its own top package for
    one from outside (``railspec_toll/engine.pyx.j2`` for a package ``railspec_toll``). A
    module name, never a path of the machine: the emitted text is the same everywhere."""
    folder = mechanic.template_dir()
    for klass in type(mechanic).__mro__:
        module = sys.modules.get(klass.__module__)
        path = Path(getattr(module, "__file__", None) or "")
        if path.name and path.resolve().parent == folder:
            package = klass.__module__ if path.name == "__init__.py" else klass.__module__.rpartition(".")[0]
            parts = package.split(".")
            return "/".join((parts[1:] if parts[0] == "railspec" else parts) + [name])
    return f"{mechanic.name}/{name}"


def _mechanic_block(mechanic, name: str, text: str) -> str:
    """A mechanic's rendered template under a banner naming the mechanic and the template."""
    return comment_text(f"# --- mechanic {mechanic.name} ({template_source(mechanic, name)}) ---") + "\n" + text


def hook_chains(assembly: Assembly, engines: list[str]) -> tuple[list[dict], dict[str, bool]]:
    """What templates/hooks.pyx.j2 writes: per hook its C signature and the mechanics whose
    functions it chains (for a phase or kind hook, with the test that picks the mechanic);
    and per hook whether any mechanic fills it. A mechanic fills the hooks its reference
    class overrides (and ``derive`` when it has derived state fields); its engine text must
    define each one's function, and no other hook function."""
    filled_by: dict[str, list[Mechanic[Any]]] = {h.name: [] for h in hooks.HOOKS}
    for (mechanic, _rule), text in zip(assembly.present, engines):
        filled = mechanic.filled_hooks()
        for h in hooks.HOOKS:
            defined = re.search(rf"\bcdef\b[^\n(]*\b{re.escape(h.function(mechanic.name))}\s*\(", text) is not None
            if defined != (h.name in filled):
                raise ValueError(
                    f"mechanic {mechanic.name}: " + (
                        f"its reference fills the hook {h.name}, but its engine.pyx.j2 defines no "
                        f"{h.function(mechanic.name)}({h.params})" if h.name in filled else
                        f"its engine.pyx.j2 defines {h.function(mechanic.name)} but its reference does not "
                        f"fill {h.name}: the two engines would differ"))
            if defined:
                filled_by[h.name].append(mechanic)
    chains = []
    for h in hooks.HOOKS:
        mechanics: list[dict[str, str]] | list[str]
        if h.protocol in ("phase", "kind"):
            tested = []
            for m in filled_by[h.name]:
                # the variant's phases and kinds only: an option a spec leaves out has no constant
                names = [f"PH_{x.upper()}" for x in m.phases if x in assembly.phases] if h.protocol == "phase" \
                    else [f"K_{x.upper()}" for x in m.kinds if x in assembly.kinds]
                var = "phase" if h.protocol == "phase" else "kind"
                tested.append(dict(name=m.name, test=" or ".join(f"{var} == {n}" for n in names) or "False"))
            mechanics = tested
        else:
            mechanics = [m.name for m in filled_by[h.name]]
        called = [m["name"] if isinstance(m, dict) else m for m in mechanics]
        chains.append(dict(name=h.name, protocol=h.protocol, returns=h.returns, params=h.params, names=h.names,
                           threaded=h.threaded, mechanics=mechanics, called=", ".join(called) or "none"))
    return chains, {h.name: bool(filled_by[h.name]) for h in hooks.HOOKS}


def source_hash(source: str) -> str | None:
    """The hash an emitted module carries of its own text (its ``# source hash:`` line)."""
    m = _HASH_LINE.search(source)
    return m.group(1) if m else None


# --- the stock modules ------------------------------------------------------------------

def regenerate(out_dir: str | Path | None = None, *, quiet: bool = False) -> list[Path]:
    """Re-render every stock spec the compiled engine supports into generated/<key>.pyx."""
    registry = default_registry()
    out = Path(out_dir) if out_dir else Path(__file__).resolve().parent.parent / "generated"
    written = []
    for name in stock_names():
        try:
            path = stock_path(name)
            text = emit(check(resolve(path, registry.language), variant_key(path), registry))
        except UnsupportedMechanicError as err:
            if not quiet:
                print(f"skipped {name}: {err.message}", file=sys.stderr)
            continue
        except SpecError as err:
            print(f"skipped {name}: the spec does not check:\n{err}", file=sys.stderr)
            continue
        target = out / f"{name}.pyx"
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
            if not quiet:
                print(f"wrote {target}", file=sys.stderr)
        written.append(target)
    return written


if __name__ == "__main__":
    regenerate()
