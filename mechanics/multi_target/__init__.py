"""Tickets to one of several destinations (Switzerland).

The Swiss map's rules (vdocuments.site, Days of Wonder's "Swiss Map" rules sheet: "12
Destination Tickets connect either city-to-country or country-to-country. To complete a
city-to-country ticket you must connect from the city to any one of the countries
listed"; boardgamegeek.com thread 750095: "You score the points of the best connection you
make on the ticket … if the ticket is left incomplete, you only lose the minimum amount
listed on the ticket"; thoun/tickettoride switzerland/map.php: "If you complete at least
one, you'll score the highest completed one. If you don't complete any, you will lose the
lowest"). Written ``ticket either Bern - France:5 | Deutschland:6 | Österreich:11 |
Italia:8`` (``syntax.py``, ``grammar.lark``): the first place, then each destination with
its points; a destination may be a city or a zone (a country).

The core checks the ticket (every place known, a destination reachable, none twice) and
makes it a ticket of the regular deck whose ``b`` and ``points`` are its best destination's
(the agents aim there; the score bound counts it). The mechanic keeps every destination
(its rule record) and scores the ticket in both engines with the ``ticket_score`` hook
(docs/engine.md, "Tickets to one of several destinations"): completed when the first
place is joined to any destination on the player's network, worth the most points among
those joined; otherwise minus the fewest points of all its destinations.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.state_view import StateView
from ...compiler.hooks import MechanicReference, Services
from ...compiler.lang import ast
from ...compiler.mechanic import HardCases, Mechanic, Sample, Sampled, Tables
from .syntax import EitherTicket


@dataclass(frozen=True)
class MultiTargetRule(ir.Rule):
    mechanic: ClassVar[str] = "multi_target"
    #: (ticket id, ((destination place id, points), …)) for each ticket of several destinations
    tickets: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]
    span: Span | None = field(default=None, compare=False)

    def targets(self, ticket: int) -> tuple[tuple[int, int], ...]:
        """A ticket's destinations with their points (empty for a ticket of one)."""
        return dict(self.tickets).get(ticket, ())


def ticket_result(targets, joined) -> tuple[int, bool, int | None]:
    """A ticket of several destinations: the most points among those ``joined(place)``
    says are reached (completed), and the place that scores them (the first listed of
    equal worth); else minus the fewest points of all, and no place."""
    reached = [(points, -k, place) for k, (place, points) in enumerate(targets) if joined(place)]
    if reached:
        points, _, place = max(reached)
        return points, True, place
    return -min(points for _, points in targets), False, None


class MultiTargetReference(MechanicReference[StateView, MultiTargetRule]):
    """Tickets of several destinations in plain Python."""

    def __init__(self, rules: Services, rule: MultiTargetRule):
        super().__init__(rules, rule)
        self.targets = dict(rule.tickets)
        self.nodes = rules.variant.city_nodes
        self.origins = {t.id: t.a for t in rules.variant.tickets}

    def ticket_score(self, state: StateView, player: int, ticket: int, network: list[int]):
        targets = self.targets.get(ticket)
        if not targets:
            return None
        start = {network[n] for n in self.nodes[self.origins[ticket]]}  # a zone: a node per route end
        return ticket_result(targets, lambda place: any(network[n] in start for n in self.nodes[place]))


class MultiTarget(Mechanic[MultiTargetRule], HardCases[MultiTargetRule], Sampled):
    name = "multi_target"
    order = 210
    title = "tickets to one of several destinations"
    sample = Sample(("zone Zeta", "route {city1} - Zeta 1 gray", "ticket either {city0} - {city1}:5 | Zeta:8"))
    rule = MultiTargetRule
    reference = MultiTargetReference
    statements = (EitherTicket,)

    def check(self, ctx) -> MultiTargetRule | None:
        written = {stmt.span: stmt for stmt in ctx.many(ast.Ticket) if isinstance(stmt.form_node, EitherTicket)}
        if not written:
            return None
        ids = ctx.places.ids
        tickets = []
        for ticket in ctx.tickets:
            stmt = written.get(ticket.span)
            if stmt is None:
                continue
            targets = tuple((ids[name.text], num.value) for name, num in stmt.ends())
            tickets.append((ticket.id, targets))
        return MultiTargetRule(tickets=tuple(tickets), span=next(iter(written.values())).span)

    def tables(self, variant: ir.Variant, rule: MultiTargetRule) -> Tables:
        first: list[int] = []
        end: list[int] = []
        places: list[int] = []
        points: list[int] = []
        targets = dict(rule.tickets)
        for t in variant.tickets:
            first.append(len(places))
            for place, worth in targets.get(t.id, ()):
                places.append(place)
                points.append(worth)
            end.append(len(places))
        return Tables(arrays=[("T_TICKET_TARGET_FIRST", first or [0]), ("T_TICKET_TARGET_END", end or [0]),
                              ("T_TARGET_PLACE", places or [0]), ("T_TARGET_POINTS", points or [0])])

    def hard_cases(self, variant, rule: MultiTargetRule, state: dict, rows: list[dict]) -> tuple[str, ...]:
        """A held ticket of several destinations with more than one of them joined by its
        holder's own routes: only the best scores."""
        targets = dict(rule.tickets)
        for player, held in enumerate(state["tickets"]):
            parent = list(range(variant.node_count))
            for r in variant.routes:
                if state["owner"][r.id] == player:
                    parent[_find(parent, r.node_a)] = _find(parent, r.node_b)
            for ticket in held:
                start = {_find(parent, n) for n in variant.city_nodes[variant.tickets[ticket].a]}
                joined = [place for place, _ in targets.get(ticket, ())
                          if any(_find(parent, n) in start for n in variant.city_nodes[place])]
                if len(joined) > 1:
                    return ("several destinations joined",)
        return ()


def _find(parent: list[int], x: int) -> int:
    """The root of ``x`` in a union-find (with path halving)."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x
