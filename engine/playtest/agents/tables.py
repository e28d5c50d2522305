"""A variant's map and catalogue as the flat int lists the compiled styles read
(:class:`railspec.agents._policy.Policy`), built once per variant from its IR.

The graph is the IR's: route ends are graph nodes, so a dead-end place stays one. Each
action gets one of the policy's kinds: the core kinds by name, a mechanic's kinds by the
generic rule the mechanic names for them (``Mechanic.agent_play``), anything else
``K_OTHER``; an option a mechanic lists in ``AgentPlay.claims_owned`` gets the rule
``claim_owned`` whatever its kind's.

A route's further owners (a mechanic's ``Field.co_owner`` field: a shared claim) count as
the player's own routes to the styles: the compiled kernel reads those fields from a
compiled engine's state (``co_fields``, their indices among the exported fields), and
:func:`co_owners` reads them from a game's observation for a view the kernel is handed.
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Callable

from ...compiler import ir
from ...compiler.assembly import assemble
from ...compiler.mechanic import AgentRules, part
from .kernel import kernel

#: The parts of a point a claim's worth is counted in (``route_worth``): a quarter point, so
#: a card drawn (half a point to the styles) is a whole number.
WORTH_UNITS = 4

if TYPE_CHECKING:  # the compiled kernel's classes, as its stub declares them
    from ._policy import Policy, Seat


def kind_codes(variant: ir.Variant, plays=None) -> dict[str, int]:
    """Each action kind of the variant, as the policy's kind code (``plays``: each present
    mechanic with its AgentPlay, when the caller has them)."""
    _policy = kernel()
    codes = dict(_policy.CORE_KINDS)
    for mechanic, play in plays or _plays(variant):
        for kind, rule in play.rules.items():
            if rule not in _policy.RULES:
                raise ValueError(f"mechanic {mechanic.name}: no agent rule named {rule!r} for {kind!r} "
                                 f"(the rules are {', '.join(_policy.RULES)})")
            codes[kind] = _policy.RULES[rule]
    return codes


def _plays(variant: ir.Variant) -> list:
    return [(mechanic, part(mechanic, AgentRules).agent_play(variant, rule)) for mechanic, rule in variant.present()]


def policy_tables(variant: ir.Variant) -> dict:
    """The tables of :class:`~railspec.agents._policy.Policy` for ``variant``."""
    routes = variant.routes
    loco = len(variant.colours)
    n_nodes = variant.node_count
    _policy = kernel()
    plays = _plays(variant)
    codes = kind_codes(variant, plays)
    related: dict[int, tuple[int, ...]] = {}
    worth = [0.0] * len(variant.routes)
    claims_owned: set[int] = set()
    for _mechanic, play in plays:
        related.update(play.routes)
        claims_owned.update(play.claims_owned)
        for route, points in play.worth.items():
            worth[route] += points

    def csr(groups):
        start, flat = [0], []
        for group in groups:
            flat.extend(group)
            start.append(len(flat))
        return start, flat

    act_rel_start, act_rel = csr(related.get(a.id, ()) for a in variant.actions)
    # routes an action of the open_route rule may open to claims (a track bed built): the
    # planner counts them as routes to claim later
    opens = _policy.RULES["open_route"]
    openable = {r for a in variant.actions if codes.get(a.kind) == opens for r in related.get(a.id, ())}
    layout = variant.claim_layout
    edges: list[list[tuple[int, int]]] = [[] for _ in range(n_nodes)]
    for r in routes:
        edges[r.node_a].append((r.node_b, r.id))
        edges[r.node_b].append((r.node_a, r.id))
    adj_start, adj = csr(edges)
    city_start, city_node = csr(variant.city_nodes)
    actions = variant.actions
    points = [variant.route_points[r.length] if r.length < len(variant.route_points) else 0 for r in routes]
    return dict(
        n_routes=len(routes), n_nodes=n_nodes, n_cards=loco + 1, n_tickets=len(variant.tickets),
        n_actions=len(actions),
        nobody_join=int(any(play.nobody_routes_join for _mechanic, play in plays)),
        grows=int(any(play.network_grows for _mechanic, play in plays)),
        longest=max((r.length for r in routes), default=0),
        route_len=[r.length for r in routes],
        route_colour=[r.colour if r.colour >= 0 else -1 for r in routes],
        route_points=points,
        # what a claim is worth to the styles, in quarter points: its route points and what a
        # mechanic says it brings besides (AgentPlay.worth); a variant without is its points
        # times 4, so the styles' choices among claims are those of the points alone
        route_worth=[round(WORTH_UNITS * (points[r.id] + worth[r.id])) for r in routes],
        worth_units=WORTH_UNITS,
        route_paid=[int(any(any(b.paid) for b in layout.blocks_of(r.id))) for r in routes],
        route_openable=[int(r.id in openable) for r in routes],
        act_rel_start=act_rel_start, act_rel=act_rel,
        adj_start=adj_start, adj_node=[node for node, _ in adj], adj_route=[route for _, route in adj],
        city_start=city_start, city_node=city_node,
        ticket_a=[t.a for t in variant.tickets], ticket_b=[t.b for t in variant.tickets],
        ticket_points=[t.points for t in variant.tickets],
        act_kind=[_policy.RULES["claim_owned"] if a.id in claims_owned else codes.get(a.kind, _policy.OTHER)
                  for a in actions],
        co_fields=co_fields(variant),
        act_route=[a.route for a in actions],
        act_card=[a.colour if a.colour >= 0 else loco for a in actions],
        act_locos=[a.locomotives for a in actions],
        act_paid=[sum(a.paid) for a in actions],
        act_mask=[a.mask for a in actions],
    )


def co_fields(variant: ir.Variant) -> list[int]:
    """The indices, among the state's exported fields (the engine interface's field table,
    in the schema's order), of the fields naming a route's further owner (``Field.co_owner``)."""
    exported = [f for f in assemble(variant).fields if not f.derived]
    return [k for k, f in enumerate(exported) if f.co_owner]


def co_owners(variant: ir.Variant, game: Any) -> list[int] | None:
    """Each route's further owner in ``game`` (-1: none), from the ``co_owner`` fields of the
    observation of the player about to decide (a public field), for :meth:`Policy.decide` and
    :meth:`Policy.estimate`; None when the variant has no such field (nothing is asked)."""
    names = _entry(variant)[4]
    if not names:
        return None
    observation = game.observation()
    merged = [-1] * len(variant.routes)
    for name in names:
        for route, who in enumerate(observation[name]):
            if who >= 0:
                merged[route] = who
    return merged


#: A mechanic's function of an observation giving route or action ids their worth now. It may
#: carry ``priced``, the ids it can ever give a worth (route ids for ``AgentPlay.worth_now``,
#: action ids for ``option_worth_now``): the agents then ask it only when one of those claims or
#: options is legal. Without it, every claim (every action) may have a worth.
WorthNow = Callable[[dict], dict[int, float]]

#: Per variant: the variant, its policy, its mechanics' worth functions (routes, options) and
#: the names of its fields naming a route's further owner.
_Entry = tuple[ir.Variant, "Policy", tuple[WorthNow, ...], tuple[WorthNow, ...], tuple[str, ...]]
_POLICIES: dict[int, _Entry] = {}

#: No figures: what :func:`worth_now` gives when no legal action is one the figures price.
_NOTHING_NOW: tuple[dict[int, int], dict[int, int]] = ({}, {})

#: Ask the mechanics before every decision, in Python, as the agents did before they asked only
#: where the figures can matter: tests/test_worth_asking.py sets it to check that the choices
#: are the same.
_ask_always = False


def _entry(variant: ir.Variant) -> _Entry:
    entry = _POLICIES.get(id(variant))
    if entry is None or entry[0] is not variant:
        plays = [play for _mechanic, play in _plays(variant)]
        route_functions = tuple(play.worth_now for play in plays if play.worth_now is not None)
        option_functions = tuple(play.option_worth_now for play in plays if play.option_worth_now is not None)
        tables = policy_tables(variant)
        policy = kernel().Policy(tables)
        policy.set_asking(*_asking(tables, route_functions, option_functions))
        entry = _POLICIES[id(variant)] = (
            variant, policy, route_functions, option_functions,
            tuple(f.name for f in assemble(variant).fields if f.co_owner))
    return entry


def _priced(functions: tuple[WorthNow, ...], every: range) -> set[int]:
    """The ids some of ``functions`` may give a worth: each one's ``priced``, else ``every``."""
    ids: set[int] = set()
    for function in functions:
        ids.update(getattr(function, "priced", every))
    return ids


def _asking(tables: dict, route_functions: tuple[WorthNow, ...],
            option_functions: tuple[WorthNow, ...]) -> tuple[list[int], list[int]]:
    """The action ids whose being legal makes the figures matter to a decision: the claims
    of a route some ``route_functions`` may give a worth, and the options some
    ``option_functions`` may price (the styles read a seat's figures at legal ones only)."""
    claim = kernel().CORE_KINDS["claim"]
    routes = _priced(route_functions, range(tables["n_routes"])) if route_functions else set()
    options = _priced(option_functions, range(tables["n_actions"])) if option_functions else set()
    claims = [a for a, (kind, route) in enumerate(zip(tables["act_kind"], tables["act_route"]))
              if kind == claim and route in routes]
    return claims, sorted(options)


def policy_of(variant: ir.Variant) -> Policy:
    """The compiled styles' tables for a variant, built on first use."""
    return _entry(variant)[1]


def worth_now(variant: ir.Variant, game: Any, style: int = -1) -> tuple[dict[int, int], dict[int, int]] | None:
    """What a claim of a route, and taking an option, brings the player about to decide in
    ``game`` now, in worth units: the sums of the present mechanics' ``AgentPlay.worth_now``
    (route id -> worth) and ``option_worth_now`` (action id -> worth, the price paid) of the
    player's observation, for :meth:`Seat.set_worth`; None when no mechanic of the variant
    says (then nothing is asked of the game: a stock variant's decisions cost what they did).
    Each is asked only when a seat of ``style`` (a kernel style code; -1: any) would read
    it at this decision (the kernel's :meth:`Policy.asks`): when some legal action is a claim
    of a route it may price and the style weighs claims by their worth, or an option it may
    price. Otherwise its figures are left empty (the observation, the costly part, is built
    only when one is asked)."""
    _variant, policy, route_functions, option_functions, _co = _entry(variant)
    if not route_functions and not option_functions:
        return None
    k = kernel()
    if _ask_always:
        wanted = k.ASK_CLAIMS | k.ASK_OPTIONS
    elif game.engine == "compiled":
        wanted = policy.asks_compiled(style, game._e)
    else:
        wanted = policy.asks(style, game.legal_actions())
    if not wanted:
        return _NOTHING_NOW
    observation = game.observation()
    return (_units(route_functions, observation) if wanted & k.ASK_CLAIMS else {},
            _units(option_functions, observation) if wanted & k.ASK_OPTIONS else {})


def decide_told(variant: ir.Variant, seat: Seat, game: Any) -> int:
    """The action ``seat``'s style takes in ``game``, the seat told first what claims and
    options bring now (:func:`worth_now`, for its style) where the variant's mechanics say
    and the style reads it: on the compiled engine in one kernel call, which reads the legal
    ids once and asks the mechanics only then (:meth:`Policy.decide_told`). With
    ``_ask_always``, the path the agents took before: asked in Python before every decision."""
    _variant, policy, route_functions, option_functions, _co = _entry(variant)
    compiled = game.engine == "compiled"
    if compiled and not _ask_always:
        if not route_functions and not option_functions:
            return policy.decide_compiled(seat, game._e)
        return policy.decide_told(seat, game._e, partial(_figures, route_functions, option_functions, game))
    worth = worth_now(variant, game, seat.style)
    if worth is not None:
        seat.set_worth(policy, *worth)
    if compiled:
        return policy.decide_compiled(seat, game._e)
    return policy.decide(seat, game.agent_view(), game.legal_actions(), co_owners(variant, game))


def _figures(route_functions: tuple[WorthNow, ...], option_functions: tuple[WorthNow, ...], game: Any,
             wanted: int) -> tuple[dict[int, float], dict[int, float]]:
    """The figures :meth:`Policy.asks`'s bits ``wanted`` name, in points, of the deciding
    player's observation (the other left empty), for :meth:`Seat.set_worth_points`."""
    k = kernel()
    observation = game.observation()
    return (_points(route_functions, observation) if wanted & k.ASK_CLAIMS else {},
            _points(option_functions, observation) if wanted & k.ASK_OPTIONS else {})


def _points(functions: tuple[WorthNow, ...], observation: dict) -> dict[int, float]:
    """The sum of ``functions``' figures of ``observation``, in points, in the functions' order."""
    if len(functions) == 1:
        return functions[0](observation)
    total: dict[int, float] = {}
    for function in functions:
        for key, points in function(observation).items():
            total[key] = total.get(key, 0.0) + points
    return total


def _units(functions: tuple[WorthNow, ...], observation: dict) -> dict[int, int]:
    return {key: round(WORTH_UNITS * points) for key, points in _points(functions, observation).items()}
