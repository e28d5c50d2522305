"""Stage 2, check: the statements of a spec (and of the specs it extends) to the variant IR.

Every problem is collected as a located :class:`SpecError`; when any was found the
stage raises one :class:`SpecCheckError` listing them all, in source order. Nothing here
raises anything else on bad input.

The stage's parts, each a module of this package:

- ``report``: the error list (:class:`Errors`) and the wording helpers;
- ``merge``: an extends chain flattened into one statement list (``without`` removes),
  read through :class:`Statements`;
- ``parts``: the core's stages that read no map (players, components, turn, the end);
- ``board``: those that read it (places, routes, tickets, a playable map);
- ``context``: :class:`CheckContext`, what a mechanic's stage sees;
- ``scores``: tie-break keys and the largest score a player could reach.
"""
from __future__ import annotations

import hashlib
from dataclasses import replace

from .. import catalogue, ir
from ..lang import ast
from ..mechanic import Payments, Registry, default_registry, part
from .board import Map, Places, check_playable, check_route_spaces, check_routes, check_tickets
from .context import CheckContext
from .merge import Statements, merge
from .parts import Components, Players, Turn, check_components, check_end, check_players, check_turn
from .report import Errors
from .scores import check_score_bound, check_tiebreaks, score_bound, tiebreaks_available

__all__ = ["check", "merge", "score_bound", "CheckContext"]


def check(files: list[ast.SpecFile], variant_key: str, registry: Registry | None = None) -> ir.Variant:
    """Check the statements of ``files`` (an extends chain, base first) and build the IR,
    bound to ``registry`` (``Variant.registry``; every installed mechanic by default).

    The core's checks run as a chain of small stages over the merged statements, then
    each mechanic's stage of ``registry``, in registry order, each reporting into one
    error list; the IR is built only when none found anything."""
    registry = registry or default_registry()
    errors = Errors(files)
    required = [cls for cls in registry.language.nodes if issubclass(cls, ast.Stmt) and cls.required]
    spec = Statements(merge(files, errors), errors, files[-1], required)
    players = check_players(spec)
    parts = check_components(spec, players)
    turn = check_turn(spec)
    places = Places(spec)
    board = check_routes(spec, places, parts)
    check_route_spaces(spec, board)
    tickets = check_tickets(spec, places, board.links, players, turn)
    end_trains = check_end(spec, parts)
    ctx = CheckContext(spec, players, parts, turn, places, board, tickets, registry)
    rules = _mechanic_rules(registry, ctx)
    tiebreaks = check_tiebreaks(spec, registry, {r.mechanic for r in rules})
    for keys, span in ctx.tiebreaks_named:
        tiebreaks_available(keys, span, {r.mechanic for r in rules}, errors)
    _report_missing(spec)
    check_playable(spec, places)
    errors.raise_if_any()

    variant = _variant(spec, variant_key, registry, rules, players, parts, turn, places, board, tickets,
                       end_trains, tiebreaks)
    check_score_bound(spec, variant)
    _warn_if_trains_outlast_the_map(spec, variant)
    errors.raise_if_any()
    present = variant.present()
    entries = []
    for mechanic, rule in present:
        entries.extend(mechanic.actions(variant, rule))
    actions, layout = catalogue.build(variant, entries, present)
    return _with_hash(replace(variant, actions=actions, claim_layout=layout, warnings=errors.sorted_warnings()))


def _warn_if_trains_outlast_the_map(spec: Statements, variant: ir.Variant) -> None:
    """A warning when, from some player count on, the players bring more trains than the
    map's routes hold before the last round can start: the trigger (a player's trains at
    most the end number) then needs one player to take an outsized share of the map, and
    most games end instead with nobody able to act (docs/rules.md)."""
    cars = sum(route.length for route in variant.routes)
    placed = variant.trains - variant.end_trains  # what one player places before the last round
    crowded = [n for n in range(variant.min_players, variant.max_players + 1) if n * placed > cars]
    stmt = spec.one(ast.Trains)
    if not crowded or stmt is None or placed <= 0:
        return
    n = crowded[0]
    who = f"{n} players" if n == variant.max_players else f"{n} players or more"
    spec.errors.warn(stmt.span, f"with {who} the map's routes hold {cars} cars, fewer than the {n} x {placed} trains "
                                f"the players place before the last round can start: most games will end with "
                                f"nobody able to act, not by the end trigger")


def _mechanic_rules(registry: Registry, ctx: CheckContext) -> list[ir.Rule]:
    """Each mechanic's stage, in registry order: the rule records of those the spec uses."""
    rules: list[ir.Rule] = []
    for mechanic in registry:
        rule = mechanic.check(ctx)
        if rule is not None:
            if type(rule) is not mechanic.rule or not isinstance(rule, ir.Rule):
                raise TypeError(f"mechanic {mechanic.name}: check() returned a {type(rule).__name__}, "
                                f"not its rule {mechanic.rule.__name__}")
            rules.append(rule)
    return rules


def _report_missing(spec: Statements) -> None:
    """The required statements the spec lacks, in one error at its first line."""
    if len(spec.missing) == 1:
        spec.errors.add(spec.top, f"missing {spec.missing[0]} statement: every spec needs one")
    elif spec.missing:
        spec.errors.add(spec.top, f"missing statements {', '.join(spec.missing)}: every spec needs each")


def _variant(spec: Statements, variant_key: str, registry: Registry, rules: list, players: Players,
             parts: Components, turn: Turn, places: Places, board: Map, tickets: list[ir.Ticket],
             end_trains: int, tiebreaks: tuple[str, ...]) -> ir.Variant:
    """The IR of a spec that checked, before its action catalogue and hash."""
    cities = tuple(ir.City(i, c["name"], c["dead_end"], c["span"], c["at"]) for i, c in enumerate(places.cities))
    used = {type(rule): rule for rule in rules}
    variant_name, provisional = spec.one(ast.VariantName), spec.one(ast.Provisional)
    assert variant_name is not None  # a required statement: its absence stops the check before here
    return ir.Variant(
        key=variant_key, name=variant_name.name, spec_path=spec.main.path, spec_hash="",
        sources=tuple(s.text for s in spec.many(ast.Source)),
        provisional=provisional.text if provisional else "",
        min_players=players.low, max_players=players.high, trains=parts.trains, hand=parts.hand,
        colours=parts.colours, locomotives=parts.locomotives, market_size=parts.market_size,
        market_reset_locomotives=parts.reset_locomotives,
        deal_regular=turn.deal_regular, deal_parts=turn.deal_parts, deal_keep=turn.deal_keep,
        draw_cards=turn.draw_cards, draw_tickets=turn.draw_tickets, draw_tickets_keep=turn.draw_keep,
        cities=cities, node_count=board.node_count, city_nodes=board.city_nodes, routes=board.routes,
        tickets=tuple(tickets), end_trains=end_trains, route_points=board.route_points, tiebreaks=tiebreaks,
        actions=(), claim_layout=ir.ClaimLayout((), ()), rules=tuple(rules), registry=registry,
        payment_columns=tuple(column for mechanic in registry if mechanic.rule in used
                              for column in part(mechanic, Payments).used_columns(used[mechanic.rule])))


def _with_hash(variant: ir.Variant) -> ir.Variant:
    digest = hashlib.sha256(ir.canonical_json(variant).encode("utf-8")).hexdigest()[:16]
    return replace(variant, spec_hash=digest)
