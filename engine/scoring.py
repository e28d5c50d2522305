"""Scoring a board: route points, destination tickets, the longest continuous path, and the
winner by the variant's tie-breakers. Plain Python, used by the reference interpreter and
by :func:`railspec.score` for described positions (docs/engine.md, "Scoring").
"""
from __future__ import annotations

from dataclasses import dataclass

from .compiler import ir


@dataclass(frozen=True)
class Board:
    """What final scoring looks at: who owns each route and which tickets each player holds."""

    owner: tuple[int, ...]
    tickets: tuple[tuple[int, ...], ...]
    players: int


def _components(node_count: int, edges: list[tuple[int, int]]) -> list[int]:
    parent = list(range(node_count))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for a, b in edges:
        parent[find(a)] = find(b)
    return [find(n) for n in range(node_count)]


def ticket_completed(variant: ir.Variant, component: list[int], ticket: ir.Ticket) -> bool:
    """Whether the player's routes join the ticket's two places (any dead end of a zone)."""
    ends_a = {component[n] for n in variant.city_nodes[ticket.a]}
    return any(component[n] in ends_a for n in variant.city_nodes[ticket.b])


def longest_trail(edges: list[tuple[int, int, int]]) -> int:
    """The longest walk that uses no edge twice (cities may repeat), in train cars.

    USA, Calculating Scores: a continuous path may loop and pass a city several times,
    but no train is used twice. Exhaustive depth-first search from every city; a player's
    network is small enough (45 trains) for this to be quick in plain Python.
    """
    adjacency: dict[int, list[tuple[int, int, int]]] = {}
    for index, (a, b, length) in enumerate(edges):
        adjacency.setdefault(a, []).append((b, length, index))
        adjacency.setdefault(b, []).append((a, length, index))
    used = [False] * len(edges)
    best = 0

    def walk(node: int, length_so_far: int) -> None:
        nonlocal best
        best = max(best, length_so_far)
        for neighbour, length, index in adjacency.get(node, ()):
            if not used[index]:
                used[index] = True
                walk(neighbour, length_so_far + length)
                used[index] = False
    for start in adjacency:
        walk(start, 0)
    return best


def score_board(variant: ir.Variant, board: Board) -> list[dict]:
    """Each player's score breakdown, keys in the documented order."""
    rows = []
    for player in range(board.players):
        mine = [r for r in variant.routes if board.owner[r.id] == player]
        component = _components(variant.node_count, [(r.node_a, r.node_b) for r in mine])
        ticket_points = 0
        completed = 0
        for ticket_id in board.tickets[player]:
            ticket = variant.tickets[ticket_id]
            if ticket_completed(variant, component, ticket):
                ticket_points += ticket.points
                completed += 1
            else:
                ticket_points -= ticket.points
        rows.append({
            "routes": sum(variant.route_points[r.length] for r in mine),
            "tickets": ticket_points,
            "tickets_completed": completed,
            "longest_path": longest_trail([(r.node_a, r.node_b, r.length) for r in mine])
            if variant.longest_path_bonus else 0,
        })
    longest = max((row["longest_path"] for row in rows), default=0)
    for row in rows:
        row["longest_bonus"] = variant.longest_path_bonus if longest > 0 and row["longest_path"] == longest else 0
        row["total"] = row["routes"] + row["tickets"] + row["longest_bonus"]
    return rows


def winners(variant: ir.Variant, breakdown: list[dict]) -> list[int]:
    """The winning seats: most points, then the variant's tie-breakers in order; players
    still level share the win."""
    keys = {"most_tickets": "tickets_completed", "longest_path": "longest_path"}
    candidates = list(range(len(breakdown)))
    for field in ["total"] + [keys[k] for k in variant.tiebreaks if k in keys]:
        best = max(breakdown[p][field] for p in candidates)
        candidates = [p for p in candidates if breakdown[p][field] == best]
        if len(candidates) == 1:
            break
    return candidates
