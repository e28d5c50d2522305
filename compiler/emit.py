"""Emit: the variant IR rendered into one Cython module, specialised to the variant.

Every decision is taken here, in Python: :func:`emit` computes each table the engine needs
(route lengths and ends, group siblings, ticket end nodes, the action catalogue as flat
integer arrays, the deck's first order …) and hands the templates plain ints and lists of
ints. The templates under ``templates/`` only substitute. No name written in a spec (city,
route, ticket, colour, action) reaches the generated code: the Python layer has the names
from the IR, the module only needs ids. The one spec-derived string that does appear, the
variant's key, goes through :func:`py_literal` (an escaped, ASCII-only Python literal) or,
in the header comment, through :func:`comment_text`.

The output is deterministic: everything is rendered in id order, sets are sorted, and the
header has no timestamps or paths beyond ``spec/<key>.rail``.

``python -m railspec.compiler.emit`` re-renders every stock spec into generated/.
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import jinja2

from ..errors import SpecError, UnsupportedMechanicError
from . import ir

TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"

#: The mechanics the compiled engine implements.
SUPPORTED_MECHANICS = frozenset({"multi_track", "longest_path"})

#: Action kind codes used inside the generated module.
KIND_CODES = {
    ir.DRAW_BLIND: 0,
    ir.DRAW_FACEUP: 1,
    ir.CLAIM: 2,
    ir.DRAW_TICKETS: 3,
    ir.KEEP_TICKETS: 4,
    ir.PASS: 5,
}

#: How returned tickets go back, as the module's constant.
RETURN_CODES = {"bottom": 0, "shuffled_bottom": 1}

PHASES = ("setup_keep", "turn", "second_draw", "keep", "over")


def py_literal(text: str) -> str:
    """A Python (and Cython) string literal for ``text``: ASCII only, every quote,
    backslash, newline and non-printable character escaped. ``eval`` gives ``text`` back."""
    if not isinstance(text, str):
        raise TypeError(f"py_literal needs a str, got {type(text).__name__}")
    return ascii(text)


def comment_text(text: str) -> str:
    """``text`` made safe to sit inside a ``#`` comment: no line break can end the comment."""
    return ascii(str(text))[1:-1]


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["py_literal"] = py_literal
    return env


def template_hash() -> str:
    """A hash of everything besides the IR that decides the generated text: the template
    files and this emitter's own source."""
    digest = hashlib.sha256()
    for path in sorted(TEMPLATE_DIR.glob("*.j2")):
        digest.update(path.name.encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()[:16]


def template_texts() -> list[tuple[str, bytes]]:
    """(name, bytes) of every template and of this emitter, sorted: part of the build key."""
    out = [(p.name, p.read_bytes()) for p in sorted(TEMPLATE_DIR.glob("*.j2"))]
    out.append(("emit.py", Path(__file__).read_bytes()))
    return out


# --- mechanics --------------------------------------------------------------------------

def _mechanic_span(variant: ir.Variant, mechanic: str):
    """The span of the first route or statement that uses ``mechanic``, when the IR has one."""
    route_tests = {
        "tunnels": lambda r: r.tunnel,
        "ferries": lambda r: r.ferry_locomotives > 0,
        "waves": lambda r: r.wave_spaces > 0,
        "goods": lambda r: r.goods,
        "shares": lambda r: bool(r.companies),
    }
    if mechanic in route_tests:
        for r in variant.routes:
            if route_tests[mechanic](r):
                return r.span
    if mechanic == "shares" and variant.companies:
        return variant.companies[0].span
    if mechanic == "zones":
        for c in variant.cities:
            if c.zone:
                return c.span
    if mechanic == "regions" and variant.regions:
        return variant.regions[0].span
    if mechanic == "long_tickets":
        for t in variant.tickets:
            if t.long:
                return t.span
    return None


def check_supported(variant: ir.Variant) -> None:
    """Raise UnsupportedMechanicError for the first mechanic the compiled engine lacks."""
    for mechanic in sorted(variant.mechanics - SUPPORTED_MECHANICS):
        raise UnsupportedMechanicError(f"the compiled engine does not implement {mechanic} yet",
                                       _mechanic_span(variant, mechanic))
    for place in (variant.returned_tickets, variant.returned_setup):
        if place not in RETURN_CODES:
            raise UnsupportedMechanicError(
                f"the compiled engine does not implement returned tickets {place} yet", None)
    if variant.draw_cards != 2:
        raise UnsupportedMechanicError(
            f"the compiled engine does not implement drawing {variant.draw_cards} cards yet", None)
    for city, nodes in enumerate(variant.city_nodes):
        if len(nodes) != 1:
            raise UnsupportedMechanicError("the compiled engine does not implement zones yet",
                                           variant.cities[city].span)
    unknown = sorted({a.kind for a in variant.actions} - set(KIND_CODES))
    if unknown:
        raise UnsupportedMechanicError(f"the compiled engine does not implement {unknown[0]} yet", None)


# --- tables -----------------------------------------------------------------------------

def _pad(values: list[int]) -> list[int]:
    """C has no empty arrays: an empty table gets one unused zero."""
    return list(values) if values else [0]


def tables(variant: ir.Variant) -> dict:
    """Every number the module needs, as plain ints and lists of ints."""
    check_supported(variant)
    colours = len(variant.colours)
    loco = colours
    routes = variant.routes
    tickets = variant.tickets
    actions = variant.actions
    n_actions = len(actions)

    def card_of(colour: int) -> int:
        return loco if colour == ir.NO_COLOUR else colour

    # the action catalogue, flat
    act_kind = [KIND_CODES[a.kind] for a in actions]
    act_route = [a.route for a in actions]
    # the card a face-up draw takes / the card a claim pays colour cards with (0 when it
    # pays none: the comparison hand[0] >= 0 then always holds)
    act_card = []
    for a in actions:
        if a.kind == ir.DRAW_FACEUP:
            act_card.append(card_of(a.colour))
        elif a.kind == ir.CLAIM and a.colour_cards > 0:
            act_card.append(a.colour)
        else:
            act_card.append(0)
    act_cards = [a.colour_cards for a in actions]
    act_locos = [a.locomotives for a in actions]
    act_mask = [a.mask for a in actions]

    def one_id(kind: str) -> int:
        found = [a.id for a in actions if a.kind == kind]
        if len(found) > 1:
            raise AssertionError(f"the catalogue has {len(found)} '{kind}' actions")
        return found[0] if found else -1

    blind_id = one_id(ir.DRAW_BLIND)
    draw_tickets_id = one_id(ir.DRAW_TICKETS)
    pass_id = one_id(ir.PASS)
    if blind_id < 0 or pass_id < 0:
        raise AssertionError("the catalogue lacks draw blind or pass")

    faceup_action = [-1] * (colours + 1)
    for a in actions:
        if a.kind == ir.DRAW_FACEUP:
            faceup_action[card_of(a.colour)] = a.id
    if sorted(faceup_action) != faceup_action or -1 in faceup_action:
        raise AssertionError("face-up draws must exist for every card, in card order")

    keeps = [a for a in actions if a.kind == ir.KEEP_TICKETS]
    max_offer = variant.max_offer
    keep_base = keeps[0].id if keeps else 0
    for i, a in enumerate(keeps):
        if a.mask != i + 1 or a.id != keep_base + i:
            raise AssertionError("keep-ticket actions must be contiguous, mask 1, 2, 3, …")
    if len(keeps) != (1 << max_offer) - 1:
        raise AssertionError("keep-ticket actions must cover every mask of the largest offer")
    popcount = [bin(m).count("1") for m in range(1 << max_offer)]

    # claims: each route's payments are one contiguous, ascending id range
    claim_start = [0] * len(routes)
    claim_end = [0] * len(routes)
    seen_route = set()
    for a in actions:
        if a.kind != ir.CLAIM:
            continue
        if a.route not in seen_route:
            seen_route.add(a.route)
            claim_start[a.route] = a.id
        elif claim_end[a.route] != a.id:
            raise AssertionError("a route's claim actions must be contiguous")
        claim_end[a.route] = a.id + 1
        if a.ferry_cards:
            raise AssertionError("ferry-card payments are not supported")
    if claim_start != sorted(claim_start):
        raise AssertionError("claims must follow route order")
    # the fewest cards any payment of the route needs: a quick test before the payments
    route_need = []
    # the payments of a route come in steps of ``choices`` ids (one per colour it may be
    # paid in), step k paying k locomotives and length - k colour cards, the last step
    # all locomotives: the legal ones then lie between two steps the hand decides
    route_choices = []
    for r in routes:
        pays = [a for a in actions if a.kind == ir.CLAIM and a.route == r.id]
        route_need.append(min(a.colour_cards + a.locomotives for a in pays) if pays else 0)
        choices = 1 if r.colour != ir.GRAY else colours
        for j, a in enumerate(pays):
            step = j // choices
            expected_colour = r.colour if r.colour != ir.GRAY else j % choices
            if (a.locomotives != step or a.colour_cards != r.length - step
                    or (a.colour_cards and a.colour != expected_colour)):
                raise AssertionError(f"route {r.id}: payment {j} is not in step order")
        if len(pays) != r.length * choices + 1:
            raise AssertionError(f"route {r.id}: {len(pays)} payments, expected {r.length * choices + 1}")
        route_choices.append(choices)

    # groups: the other tracks of each route's double or triple route
    max_siblings = 2
    siblings = []
    for r in routes:
        others = [o.id for o in routes if o.group == r.group and o.id != r.id]
        if len(others) > max_siblings:
            raise AssertionError("a route has more than three tracks")
        siblings.extend(others + [-1] * (max_siblings - len(others)))

    # route bitsets (ROUTE_WORDS words of 64 bits) that narrow the claim search to the
    # routes the current player can afford: by length, and by colour and cards at hand
    words = max(1, (len(routes) + 63) // 64)
    max_length = max([r.length for r in routes], default=0)

    def bitset(chosen) -> list[int]:
        out = [0] * words
        for r in chosen:
            out[r.id >> 6] |= 1 << (r.id & 63)
        return out
    len_at_most = []
    for t in range(max_length + 1):
        len_at_most.extend(bitset(r for r in routes if r.length <= t))
    afford = []  # [colour or gray (= N_COLOURS)][cards available 0..max_length] -> bitset
    for c in list(range(colours)) + [ir.GRAY]:
        for t in range(max_length + 1):
            afford.extend(bitset(r for r in routes if r.colour == c and route_need[r.id] <= t))
    full = bitset(routes)

    tracks_usable = [variant.tracks_usable_for(p) if p >= variant.min_players else 0
                     for p in range(variant.max_players + 1)]

    deck_init = [c.id for c in variant.colours for _ in range(c.count)] + [loco] * variant.locomotives
    regular_tickets = [t.id for t in tickets if not t.long]
    ticket_cap = max(1, len(tickets))

    return dict(
        constants=[  # (name, value): become one C enum
            ("N_COLOURS", colours),
            ("N_CARDS", colours + 1),
            ("LOCO", loco),
            ("CARD_TOTAL", len(deck_init)),
            ("DECK_CAP", max(1, len(deck_init))),
            ("N_ROUTES", len(routes)),
            ("ROUTE_CAP", max(1, len(routes))),
            ("N_NODES", variant.node_count),
            ("NODE_CAP", max(1, variant.node_count)),
            ("N_TICKETS", len(tickets)),
            ("TICKET_CAP", ticket_cap),
            ("N_REGULAR", len(regular_tickets)),
            ("NP_MIN", variant.min_players),
            ("NP_MAX", variant.max_players),
            ("MARKET", variant.market_size),
            ("MARKET_CAP", max(1, variant.market_size)),
            ("RESET_LOCOS", variant.market_reset_locomotives),
            ("MAX_RESETS", variant.market_max_resets),
            ("HAND", variant.hand),
            ("TRAINS", variant.trains),
            ("END_TRAINS", variant.end_trains),
            ("DEAL_REGULAR", variant.deal_regular),
            ("DEAL_KEEP", variant.deal_keep),
            ("DRAW_TICKETS", variant.draw_tickets),
            ("DRAW_TICKETS_KEEP", variant.draw_tickets_keep),
            ("MAX_OFFER", max_offer),
            ("OFFER_CAP", max(1, max_offer)),
            ("MAX_SIBLINGS", max_siblings),
            ("ROUTE_WORDS", words),
            ("MAX_LENGTH", max_length),
            ("LONGEST_BONUS", variant.longest_path_bonus),
            ("ACT_BLIND", blind_id),
            ("ACT_DRAW_TICKETS", draw_tickets_id),
            ("ACT_PASS", pass_id),
            ("KEEP_BASE", keep_base),
            ("RETURN_SHUFFLED", RETURN_CODES[variant.returned_tickets]),
            ("SETUP_RETURN_SHUFFLED", RETURN_CODES[variant.returned_setup]),
            ("K_BLIND", KIND_CODES[ir.DRAW_BLIND]),
            ("K_FACEUP", KIND_CODES[ir.DRAW_FACEUP]),
            ("K_CLAIM", KIND_CODES[ir.CLAIM]),
            ("K_DRAW_TICKETS", KIND_CODES[ir.DRAW_TICKETS]),
            ("K_KEEP", KIND_CODES[ir.KEEP_TICKETS]),
            ("K_PASS", KIND_CODES[ir.PASS]),
        ],
        n_actions=n_actions,
        has_draw_tickets=draw_tickets_id >= 0,
        has_longest_path="longest_path" in variant.mechanics and variant.longest_path_bonus > 0,
        has_multi_track="multi_track" in variant.mechanics,
        shuffled_return="shuffled_bottom" in (variant.returned_tickets, variant.returned_setup),
        phases=list(PHASES),
        arrays=[  # (name, values): become `static const int NAME[]` tables
            ("T_ROUTE_LEN", _pad([r.length for r in routes])),
            ("T_ROUTE_NODE_A", _pad([r.node_a for r in routes])),
            ("T_ROUTE_NODE_B", _pad([r.node_b for r in routes])),
            ("T_ROUTE_COLOUR", _pad([r.colour for r in routes])),
            ("T_ROUTE_POINTS", _pad([variant.route_points[r.length] for r in routes])),
            ("T_ROUTE_CHOICES", _pad(route_choices)),
            ("T_ROUTE_SIBLINGS", _pad(siblings)),
            ("T_CLAIM_START", _pad(claim_start)),
            ("T_CLAIM_END", _pad(claim_end)),
            ("T_TICKET_NODE_A", _pad([variant.city_nodes[t.a][0] for t in tickets])),
            ("T_TICKET_NODE_B", _pad([variant.city_nodes[t.b][0] for t in tickets])),
            ("T_TICKET_POINTS", _pad([t.points for t in tickets])),
            ("T_REGULAR_TICKETS", _pad(regular_tickets)),
            ("T_DECK_INIT", _pad(deck_init)),
            ("T_TRACKS_USABLE", tracks_usable),
            ("T_FACEUP_ACTION", faceup_action),
            ("T_POPCOUNT", popcount),
            ("T_ACT_KIND", act_kind),
            ("T_ACT_ROUTE", act_route),
            ("T_ACT_CARD", act_card),
            ("T_ACT_CARDS", act_cards),
            ("T_ACT_LOCOS", act_locos),
            ("T_ACT_MASK", act_mask),
        ],
        bitsets=[  # (name, values): `static const unsigned long long NAME[]` tables
            ("T_ALL_ROUTES", full),
            ("T_LEN_AT_MOST", len_at_most),
            ("T_AFFORD", afford),
        ],
    )


def emit(variant: ir.Variant) -> str:
    """The Cython source of the variant's engine module."""
    context = tables(variant)
    context.update(
        spec_file=comment_text(f"spec/{variant.key}.rail"),
        variant_key=variant.key,
        spec_hash=variant.spec_hash,
        template_hash=template_hash(),
        mechanics=", ".join(sorted(variant.mechanics)) or "none",
    )
    return _environment().get_template("module.pyx.j2").render(**context)


# --- the stock modules ------------------------------------------------------------------

def regenerate(out_dir: str | Path | None = None, *, quiet: bool = False) -> list[Path]:
    """Re-render every stock spec the compiled engine supports into generated/<key>.pyx."""
    from . import check_file, stock_names, stock_path
    out = Path(out_dir) if out_dir else Path(__file__).resolve().parent.parent / "generated"
    written = []
    for name in stock_names():
        try:
            text = emit(check_file(stock_path(name)))
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
