"""What the scripted agents know of a map, and the shortest-path planning they share.

A :class:`Board` is built once per variant from its IR: the graph (route ends as graph
nodes, so a zone's dead ends stay dead ends), each route's length, colour and group, and
the points of each length. A :class:`Planner` keeps one player's plan: for each of the
player's tickets the cheapest way to join its cities, counting the player's own routes as
free and open routes at their length. A plan stays valid while it can: another player's
claim only makes other paths dearer, so a path none of whose routes was taken is still a
cheapest one, and a player's own claim on the path makes it only cheaper. The planner
therefore re-plans a ticket only when a route on its path was taken by someone else or
when the player claimed a route off it.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass

from ..compiler import ir

UNREACHABLE = 1 << 30


@dataclass(frozen=True)
class Path:
    """A ticket's plan: ``cost`` trains still to lay (UNREACHABLE when its cities can no
    longer be joined) and the open ``routes`` to claim, as route ids."""

    cost: int
    routes: tuple[int, ...]


class Board:
    """A variant's map, arranged for planning. Built once per variant (:func:`board_of`)."""

    def __init__(self, variant: ir.Variant):
        self.variant = variant
        self.routes = variant.routes
        self.length = [r.length for r in variant.routes]
        self.colour = [r.colour for r in variant.routes]
        self.points = [variant.route_points[r.length] if r.length < len(variant.route_points) else 0
                       for r in variant.routes]
        self.adjacent: list[list[tuple[int, int]]] = [[] for _ in range(variant.node_count)]
        for r in variant.routes:
            self.adjacent[r.node_a].append((r.node_b, r.id))
            self.adjacent[r.node_b].append((r.node_a, r.id))
        self.siblings = [tuple(o.id for o in variant.routes if o.group == r.group and o.id != r.id)
                         for r in variant.routes]
        self.multi_routes = [r for r, others in enumerate(self.siblings) if others]
        rule = variant.rule("multi_track")
        self._usable = rule.usable if rule is not None else (lambda players: 1)
        self.city_nodes = variant.city_nodes
        self.ticket_ends = [(t.a, t.b) for t in variant.tickets]
        self.ticket_points = [t.points for t in variant.tickets]
        self.longest = max(self.length) if self.length else 0
        self._empty_cost: dict[int, int] = {}

    def empty_cost(self, ticket: int) -> int:
        """The cheapest path of a ticket on an empty board, in trains (at least 1)."""
        cost = self._empty_cost.get(ticket)
        if cost is None:
            owner = [-1] * len(self.routes)
            a, b = self.ticket_ends[ticket]
            cost = self.cheapest_path(owner, 0, [True] * len(self.routes), a, b).cost
            cost = self._empty_cost[ticket] = max(1, cost if cost < UNREACHABLE else 1)
        return cost

    def open_routes(self, owner, player: int, players: int) -> list[bool]:
        """Which routes ``player`` could still claim, as far as ownership goes: unowned,
        no sibling track of the player's own, and the group not full at this player count."""
        usable = self._usable(players)
        out = [who == -1 for who in owner]
        siblings = self.siblings
        for r in self.multi_routes:
            if out[r]:
                taken = [owner[s] for s in siblings[r] if owner[s] != -1]
                if taken and (player in taken or len(taken) >= usable):
                    out[r] = False
        return out

    def cheapest_path(self, owner, player: int, usable: list[bool], a: int, b: int) -> Path:
        """The cheapest way to join cities ``a`` and ``b``: own routes are free, usable ones
        cost their length, the rest cannot be used."""
        length = self.length
        adjacent = self.adjacent
        targets = set(self.city_nodes[b])
        dist = {n: 0 for n in self.city_nodes[a]}
        via: dict[int, tuple[int, int]] = {}
        heap = [(0, n) for n in self.city_nodes[a]]
        heapq.heapify(heap)
        while heap:
            d, node = heapq.heappop(heap)
            if d > dist.get(node, UNREACHABLE):
                continue
            if node in targets:
                routes = []
                while node in via:
                    node, route = via[node]
                    if owner[route] != player:
                        routes.append(route)
                return Path(d, tuple(routes))
            for other, route in adjacent[node]:
                if owner[route] == player:
                    step = 0
                elif usable[route]:
                    step = length[route]
                else:
                    continue
                nd = d + step
                if nd < dist.get(other, UNREACHABLE):
                    dist[other] = nd
                    via[other] = (node, route)
                    heapq.heappush(heap, (nd, other))
        return Path(UNREACHABLE, ())


_BOARDS: dict[int, Board] = {}


def board_of(variant: ir.Variant) -> Board:
    """The board of a variant, built on first use."""
    board = _BOARDS.get(id(variant))
    if board is None or board.variant is not variant:
        board = _BOARDS[id(variant)] = Board(variant)
    return board


class Planner:
    """One player's plan for the tickets it holds, re-planned only when it must."""

    def __init__(self, board: Board, player: int):
        self.board = board
        self.player = player
        self.paths: dict[int, Path] = {}
        self._owner: list[int] | None = None
        self._usable: tuple[list[int], int, list[bool]] | None = None

    def usable(self, owner: list[int], players: int) -> list[bool]:
        """The routes open to the player on this board, computed once per board seen."""
        cached = self._usable
        if cached is None or cached[1] != players or cached[0] != owner:
            cached = self._usable = (list(owner), players, self.board.open_routes(owner, self.player, players))
        return cached[2]

    def update(self, owner: list[int], tickets, players: int) -> dict[int, Path]:
        """The plan for ``tickets`` on the board ``owner`` describes."""
        stale = set()
        if self._owner == owner:
            pass
        elif self._owner is not None and len(self._owner) == len(owner):
            for r, (before, now) in enumerate(zip(self._owner, owner)):
                if before == now:
                    continue
                for ticket, path in self.paths.items():
                    if now != self.player and r in path.routes:
                        stale.add(ticket)
                    elif now == self.player and r not in path.routes:
                        stale.add(ticket)
        else:
            stale = set(self.paths)
        self.paths = {t: p for t, p in self.paths.items() if t in tickets and t not in stale}
        missing = [t for t in tickets if t not in self.paths]
        if missing:
            usable = self.usable(owner, players)
            for t in missing:
                a, b = self.board.ticket_ends[t]
                self.paths[t] = self.board.cheapest_path(owner, self.player, usable, a, b)
        if self._owner != owner:
            self._owner = list(owner)
        return self.paths

    def path_for(self, owner, ticket: int, players: int) -> Path:
        """The cheapest path for a ticket not (yet) held, e.g. one offered."""
        usable = self.usable(owner, players)
        a, b = self.board.ticket_ends[ticket]
        return self.board.cheapest_path(owner, self.player, usable, a, b)
