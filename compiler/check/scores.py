"""The checks made once every stage has run: tie-break keys (the core's and the
mechanics'), and the largest score a player could reach (:func:`score_bound`)."""
from __future__ import annotations

from .. import ir
from ..base import limits
from ..base.errors import Span
from ..lang import ast
from ..mechanic import TieBreak
from .merge import Statements
from .report import Errors, suggest


def resolve_tiebreaks(names, span: Span, registry, errors: Errors) -> list:
    """The tie-break keys written ``names`` (name nodes, in order), as the registry defines
    them: an unknown key or one given twice is an error; whether each key's mechanic is
    used is checked once every mechanic has been (:func:`tiebreaks_available`)."""
    known = registry.tiebreak_words()
    keys: list[TieBreak] = []
    for name in names:
        tb = known.get(name.text)
        if tb is None:
            errors.add(name.span, f"unknown tie-break '{name.text}'{suggest(name.text, known)}; "
                                  f"the keys are {', '.join(sorted(known))}")
            continue
        if any(k.name == tb.name for k in keys):
            errors.add(span, f"tie-break '{tb.words}' is given twice")
            continue
        keys.append(tb)
    return keys


def tiebreaks_available(keys, span: Span, present: set[str], errors: Errors) -> None:
    """A mechanic's key needs the mechanic (``longest path`` the bonus)."""
    for tb in keys:
        if tb.owner != "core" and tb.owner not in present:
            errors.add(span, tb.unavailable)


def check_tiebreaks(spec: Statements, registry, present: set[str]) -> tuple[str, ...]:
    """The tie-break keys in order: each one a key of the core or of a mechanic the variant
    uses; none twice. Without the statement: most tickets."""
    tiebreak = spec.one(ast.Tiebreak)
    if not tiebreak:
        return ("most_tickets",)
    keys = resolve_tiebreaks(tiebreak.keys, tiebreak.span, registry, spec.errors)
    tiebreaks_available(keys, tiebreak.span, present, spec.errors)
    return tuple(tb.name for tb in keys)


def score_bound(variant: ir.Variant) -> list[tuple[str, int]]:
    """The most each part of the score (the core's route points and tickets, then each
    mechanic's items that count in the total) can add to, or take from, one player's total:
    (name, bound) pairs, None as a bound when a mechanic does not say."""
    parts = [("routes", sum(variant.route_points[r.length] for r in variant.routes)),
             ("tickets", sum(t.points for t in variant.tickets))]
    for mechanic, rule in variant.present():
        parts.append((mechanic.name, mechanic.score_bound(variant, rule)))
    return parts


def check_score_bound(spec: Statements, variant: ir.Variant) -> None:
    """No total can wrap: the largest score a player could reach, every route owned, every
    ticket held and every bonus won, fits ``limits.MAX_SCORE`` (scores are C ints)."""
    parts = [(name, bound) for name, bound in score_bound(variant) if bound]
    total = sum(bound for _, bound in parts)
    if total <= limits.MAX_SCORE:
        return
    name, _ = max(parts, key=lambda part: part[1])
    if name == "routes":
        points = spec.one(ast.RoutePoints)
        where = points.span if points else spec.top
    elif name == "tickets":
        where = max(variant.tickets, key=lambda t: t.points).span or spec.top
    else:
        where = getattr(variant.rule(name), "span", None) or spec.top
    spec.errors.add(where, f"the largest score a player could reach is {total:,} "
                           f"({', '.join(f'{n.replace(chr(95), chr(32))} {b:,}' for n, b in parts)}), more than "
                           f"the {limits.MAX_SCORE:,} a score may be: lower the largest points")
