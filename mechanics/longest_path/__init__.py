"""The longest-path bonus: the Longest Continuous Path card (USA), the European Express
(Europe).

USA rulebook, Calculating Scores: the player with the longest continuous path of their
own routes scores the bonus; a path may loop and pass a city several times, but no train
is used twice; tied players all score it. The spec gives the bonus (``longest path N``);
the mechanic is present when the statement is.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.state_view import StateView
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import HardCases, Mechanic, Query, Questions, Sample, Sampled, ScoreItem, Tables, TieBreak
from .syntax import LongestPath as LongestPathStmt

# The compiled engine's search is trail.pyx, compiled once with railspec (its docstring
# says how it searches and which thresholds it uses); engine.pyx.j2 reads a player's
# networks into it.


@dataclass(frozen=True)
class LongestPathRule(ir.Rule):
    mechanic: ClassVar[str] = "longest_path"
    bonus: int
    span: Span | None = field(default=None, compare=False)


def longest_trail(edges: list[tuple[int, int, int]]) -> int:
    """The longest walk that uses no edge twice (cities may repeat), in train cars.

    Exhaustive depth-first search from every city: a player's network is small enough
    (45 trains) for this to be quick in plain Python."""
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


def dense_network(routes, trains: int, rng) -> list[int]:
    """The ids of a worst case for the longest path: one player's ``trains`` spent on a
    tight cluster. From a random city, routes touching the cluster are added, among the
    shortest that fit (more routes, more cycles, more cities of odd degree), one track of
    each double route, until none fits. For the benchmark and the tests."""
    start = rng.choice(sorted({r.a for r in routes}))
    reached, groups = {start}, set()
    chosen: list[int] = []
    while True:
        fits = [r for r in routes
                if r.group not in groups and r.length <= trains and (r.a in reached or r.b in reached)]
        if not fits:
            return chosen
        shortest = min(r.length for r in fits)
        route = rng.choice([r for r in fits if r.length <= shortest + 1])
        chosen.append(route.id)
        groups.add(route.group)
        reached.update((route.a, route.b))
        trains -= route.length


def cycle_rank(routes) -> int:
    """Independent cycles of a set of routes: routes - cities + separate networks."""
    parent = {c: c for r in routes for c in (r.a, r.b)}

    def root(c: int) -> int:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c
    for r in routes:
        parent[root(r.a)] = root(r.b)
    return len(routes) - len(parent) + len({root(c) for c in parent})


class LongestPathReference(MechanicReference[StateView, LongestPathRule]):
    """Scoring the longest path in plain Python."""

    def __init__(self, rules: Services, rule: LongestPathRule):
        super().__init__(rules, rule)
        self.routes = rules.variant.routes

    def methods(self) -> dict:
        return {"longest_path": self.checked_longest_path}

    def longest_path(self, state: StateView, player: int) -> int:
        return longest_trail([(r.node_a, r.node_b, r.length) for r in self.routes if state.owner[r.id] == player])

    def checked_longest_path(self, state: StateView, player: int) -> int:
        """``Engine.longest_path(player)``, as the compiled engine has it."""
        if not isinstance(player, int) or not 0 <= player < state.players:
            raise ValueError(f"no player {player!r} in a {state.players}-player game")
        return self.longest_path(state, player)

    def score_player(self, state: StateView, player: int, row: dict, network) -> None:
        row["longest_path"] = self.longest_path(state, player)

    def score_awards(self, state: StateView, rows: list[dict]) -> None:
        best = max(row["longest_path"] for row in rows)
        for row in rows:
            row["longest_bonus"] = self.rule.bonus if best > 0 and row["longest_path"] == best else 0


class LongestPath(Mechanic[LongestPathRule], Questions, HardCases[LongestPathRule], Sampled):
    name = "longest_path"
    order = 20
    title = "the longest-path bonus"
    sample = Sample(("longest path 10",))
    rule = LongestPathRule
    reference = LongestPathReference
    statements = (LongestPathStmt,)
    queries = (Query("longest_path", "The player's longest continuous path now, in train cars (loops allowed, "
                                     "no route used twice); 0 in a variant without the bonus.", absent=0,
                     hard_board=lambda variant, rng: dense_network(variant.routes, variant.trains, rng)),)
    score_items = (
        ScoreItem("longest_path", "the player's longest continuous path, in train cars", False, "longest_path",
                  label="longest"),
        ScoreItem("longest_bonus", "the bonus, to every player whose path is the longest (above 0)", True,
                  "longest_path", label="bonus"),
    )
    tiebreaks = (
        TieBreak("longest_path", "longest path",
                 "the holder of the Longest Continuous Path card: a player whose path is the longest of all "
                 "players' (above 0); tied players of whom none holds it stay tied",
                 owner="longest_path",
                 unavailable="tie-break on the longest path, but the variant has no 'longest path' bonus",
                 # USA rulebook, Calculating Scores: every player tied for the longest path
                 # scores the bonus, so several players may hold the card
                 column="longest_path", best_of_all=True),
    )

    def hard_cases(self, variant, rule: LongestPathRule, state: dict, rows: list[dict]) -> tuple[str, ...]:
        """Tied longest paths, and networks with two or more cycles (where a walk may turn
        back on itself, and a careless search reuses a route)."""
        labels = []
        best = max((row["longest_path"] for row in rows), default=0)
        if best and sum(row["longest_path"] == best for row in rows) > 1:
            labels.append("longest path tied")
        for player in range(state["players"]):
            owned = [r for r in variant.routes if state["owner"][r.id] == player]
            if cycle_rank(owned) >= 2:
                labels.append("network with two or more cycles")
                break
        return tuple(labels)

    def check(self, ctx) -> LongestPathRule | None:
        longest = ctx.one(LongestPathStmt)
        if longest is None:
            return None
        return LongestPathRule(ctx.points(longest.bonus, "the longest path bonus"), span=longest.span)

    def score_bound(self, variant, rule: LongestPathRule) -> int:
        return rule.bonus

    def tables(self, variant: ir.Variant, rule: LongestPathRule) -> Tables:
        return Tables(constants=[("LONGEST_BONUS", rule.bonus)])

