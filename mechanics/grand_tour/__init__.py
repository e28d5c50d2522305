"""The Grand Tour bonus (India's Mandala).

India rules (Ticket to Ride Map Collection 2, the BGA map help page "India"; thoun's
``india/map.php``, ``mandalaPoints``): a ticket whose two cities are linked by at least two
distinct continuous paths of its owner's trains qualifies for a Grand Tour bonus; the two
paths may cross at cities but share no train. Each player counts their qualifying tickets
and scores a table by that count: 1:5 2:10 3:20 4:30, five or more 40. Written
``grand tour 1:5 2:10 3:20 4:30 5+:40``; the mechanic is present when the statement is.

A ticket qualifies when it is completed (as ticket scoring counts it) and its two cities
are joined by two paths of the player's own routes with no route in common. Two such paths
exist exactly when no single route separates the cities (Menger's theorem), so neither
engine lists trails (the online adaptation lists every trail from the first city, which is
exponential in the loops of a network): the compiled engine runs two augmenting-path
searches on unit capacities, linear in the network; the reference finds one path and tries
removing each of its routes. The two methods are different on purpose, so that the
differential tests compare two derivations of the same rule.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.state_view import StateView
from ...compiler.hooks import MechanicReference
from ...compiler.mechanic import HardCases, Mechanic, Query, Questions, Sample, Sampled, ScoreItem, Tables
from .syntax import GrandTour as GrandTourStmt


@dataclass(frozen=True)
class GrandTourRule(ir.Rule):
    mechanic: ClassVar[str] = "grand_tour"
    points: tuple[int, ...]  # points[k - 1]: the bonus for k qualifying tickets; the last for more
    span: Span | None = field(default=None, compare=False)

    def bonus(self, tours: int) -> int:
        """The bonus for ``tours`` qualifying tickets (0 for none; the last entry for more)."""
        return self.points[min(tours, len(self.points)) - 1] if tours > 0 else 0


def joined_twice(edges: list[tuple[int, int]], sources: set[int], targets: set[int]) -> bool:
    """Whether two paths over ``edges`` (pairs of graph nodes) that share no edge join a node
    of ``sources`` to a node of ``targets``.

    By Menger's theorem they exist exactly when some path joins them and no single edge lies
    on every such path. An edge on every path lies on any one path, so: find one path, then
    remove each of its edges in turn and look for another. Quadratic in the edges at worst,
    which is nothing for a player's few dozen routes, and never a list of trails."""
    path = _path(edges, sources, targets, skip=-1)
    return path is not None and all(_path(edges, sources, targets, skip=e) is not None for e in path)


def _path(edges: list[tuple[int, int]], sources: set[int], targets: set[int], skip: int) -> list[int] | None:
    """The edges of one path from ``sources`` to ``targets`` not using edge ``skip``
    (breadth-first), or None when there is none."""
    adjacency: dict[int, list[tuple[int, int]]] = {}
    for index, (a, b) in enumerate(edges):
        if index != skip:
            adjacency.setdefault(a, []).append((b, index))
            adjacency.setdefault(b, []).append((a, index))
    came_by: dict[int, int] = {node: -1 for node in sources}
    came_from: dict[int, int] = {}
    queue = deque(sorted(sources))
    while queue:
        node = queue.popleft()
        if node in targets:
            path = []
            while came_by[node] >= 0:
                path.append(came_by[node])
                node = came_from[node]
            return path
        for neighbour, index in adjacency.get(node, ()):
            if neighbour not in came_by:
                came_by[neighbour] = index
                came_from[neighbour] = node
                queue.append(neighbour)
    return None


def dense_board(variant: ir.Variant, rng) -> tuple[list[int], list[int]]:
    """A worst case for the Grand Tour: one player's trains spent on a tight cluster full of
    loops, and every ticket of the map with both cities on it. From a random city, routes
    touching the cluster are added, one track of each double route (a player never owns
    two), until none fits: a short route (1 or 2 cars) closing a loop between two cities
    already reached when there is one, else one of the shortest that fit. On India's board
    this makes networks of about 30 routes with 9 to 13 independent loops (routes - cities
    + 1). On one of them the adaptation's method lists 607,633 trails from Ambala for the
    ticket Ambala - Mormugau and then compares the 115,328 that reach Mormugau in pairs;
    the compiled engine answers in about 2 µs. For the benchmark (``Query.hard_board``)
    and the tests."""
    routes, trains = variant.routes, variant.trains
    start = rng.choice(sorted({r.a for r in routes}))
    reached, groups, chosen = {start}, set(), []
    while True:
        fits = [r for r in routes
                if r.group not in groups and r.length <= trains and (r.a in reached or r.b in reached)]
        if not fits:
            break
        closing = [r for r in fits if r.a in reached and r.b in reached and r.length <= 2]
        pool = closing or fits
        shortest = min(r.length for r in pool)
        route = rng.choice([r for r in pool if r.length == shortest])
        chosen.append(route.id)
        groups.add(route.group)
        reached.update((route.a, route.b))
        trains -= route.length
    tickets = [t.id for t in variant.tickets if t.a in reached and t.b in reached]
    return chosen, tickets


class GrandTourReference(MechanicReference[StateView, GrandTourRule]):
    """The Grand Tour in plain Python."""

    def methods(self) -> dict:
        return {"grand_tours": self.checked_grand_tours}

    def tours(self, state: StateView, player: int, network: list[int]) -> int:
        """How many of the player's tickets qualify: completed on ``network`` (the network
        tickets are scored on) and joined twice by the player's own routes."""
        v = self.rules.variant
        edges = [(r.node_a, r.node_b) for r in v.routes if state.owner[r.id] == player]
        count = 0
        for ticket_id in state.tickets[player]:
            if not self.rules.ticket_result(state, player, ticket_id, network)[1]:
                continue
            ticket = v.tickets[ticket_id]
            count += joined_twice(edges, set(v.city_nodes[ticket.a]), set(v.city_nodes[ticket.b]))
        return count

    def checked_grand_tours(self, state: StateView, player: int) -> int:
        """``Engine.grand_tours(player)``, as the compiled engine has it."""
        if not isinstance(player, int) or not 0 <= player < state.players:
            raise ValueError(f"no player {player!r} in a {state.players}-player game")
        row = dict.fromkeys(self.rules.assembly.breakdown_keys, 0)
        return self.tours(state, player, self.rules.ticket_network(state, player, row))

    def score_player(self, state: StateView, player: int, row: dict, network: list[int]) -> None:
        tours = self.tours(state, player, network)
        row["grand_tours"] = tours
        row["grand_tour"] = self.rule.bonus(tours)


class GrandTour(Mechanic[GrandTourRule], Questions, HardCases[GrandTourRule], Sampled):
    name = "grand_tour"
    order = 150
    title = "the Grand Tour bonus"
    sample = Sample(("grand tour 1:5 2:10 3+:20",))
    rule = GrandTourRule
    reference = GrandTourReference
    statements = (GrandTourStmt,)
    queries = (Query("grand_tours", "How many of the player's tickets qualify for the Grand Tour now: completed, "
                                    "and joined by two paths of the player's own routes that share no route; 0 in a "
                                    "variant without the bonus.", absent=0, hard_board=dense_board),)
    score_items = (
        ScoreItem("grand_tours", "the player's completed tickets joined by two paths of their own routes that "
                                 "share no route", False, "grand_tour", label="tours"),
        ScoreItem("grand_tour", "the Grand Tour bonus: the table's points for that many tickets", True, "grand_tour",
                  label="tour bonus"),
    )

    def check(self, ctx) -> GrandTourRule | None:
        """``grand tour N:P … N+:P``: keys from 1 without holes (the core's table checks);
        the last entry open-ended, so that every count scores; each entry worth a point or
        more and none worth less than the one before (a further tour never costs points)."""
        stmt = ctx.one(GrandTourStmt)
        if stmt is None:
            return None
        table, _largest = ctx.table(stmt.entries, "grand tour points", stmt.span, open_allowed=True, from_one=True)
        entries = sorted((e for e in stmt.entries if e.key.value > 0), key=lambda e: e.key.value)
        if entries and not entries[-1].open_ended:
            last = entries[-1]
            ctx.errors.add(last.key.span, f"the grand tour table's last entry must be open-ended "
                                          f"('{last.key.value}+:{last.value.value}'), so that every count of "
                                          f"tickets scores")
        before = None
        for e in entries:
            if e.value.value == 0:
                ctx.errors.add(e.value.span, f"a grand tour of {e.key.value} ticket"
                                             f"{'s' if e.key.value > 1 else ''} must score at least 1 point")
            elif before is not None and e.value.value < before.value.value:
                ctx.errors.add(e.value.span, f"grand tour points must not fall as tickets are added: "
                                             f"{e.key.value} tickets score {e.value.value}, less than the "
                                             f"{before.value.value} of {before.key.value}")
            before = e
        points = tuple(table[k] for k in sorted(table))
        return GrandTourRule(points=points, span=stmt.span)

    def score_bound(self, variant, rule: GrandTourRule) -> int:
        return max(rule.points, default=0)

    def tables(self, variant: ir.Variant, rule: GrandTourRule) -> Tables:
        return Tables(constants=[("GRAND_TOUR_MOST", len(rule.points))],
                      arrays=[("T_GRAND_TOUR_POINTS", [0, *rule.points])])

    def hard_cases(self, variant, rule: GrandTourRule, state: dict, rows: list[dict]) -> tuple[str, ...]:
        """A ticket that qualifies (where a scorer must find two paths sharing no route, and
        must not count a path and a loop elsewhere)."""
        return ("a grand tour ticket",) if any(row["grand_tours"] for row in rows) else ()
