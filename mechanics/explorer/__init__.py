"""The explorer bonus: the largest network, counted in cities (Legendary Asia's Asian
Explorer).

Legendary Asia's rules (the rule summary in thoun/tickettoride modules/maps/legendaryasia/
map.php, 100940e; offthechartsgames.com and boardgamewikia.com: "the player who connects to
the most cities in a single network"): a 10-point bonus to the player or players whose
continuous network joins the most cities; "ties are broken by completed Destination
Tickets, then by Mountain routes traveled".

Written ``explorer N``, and ``explorer ties KEY, KEY, …`` for the keys that settle a tie
for it, tried in order (any tie-break key that is one column of the score breakdown:
``most tickets``, ``most mountain routes``, …; ``ctx.tiebreaks`` resolves them). Without
keys, or when the keys leave players level, every player still tied scores the bonus, as
ties do for the longest path and the Globetrotter (docs/rules.md). Nobody scores it when
nobody owns a route.

A network is a player's own routes joined at cities (stations do not count: they lend a
route for tickets only); it counts each city it reaches once, a zone too. Score-only: the
``score_player`` hook counts the largest network's cities, ``score_awards`` pays the bonus.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.state_view import StateView
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import CORE_SCORE_ITEMS, HardCases, Mechanic, Sample, Sampled, ScoreItem, Tables
from .syntax import Explorer as ExplorerStmt
from .syntax import ExplorerTies


@dataclass(frozen=True)
class ExplorerRule(ir.Rule):
    mechanic: ClassVar[str] = "explorer"
    bonus: int
    ties: tuple[str, ...] = ()  # tie-break key names (Mechanic.tiebreaks), tried in order
    span: Span | None = field(default=None, compare=False)


def network_cities(variant: ir.Variant, owner: list[int], player: int) -> int:
    """The cities of the player's largest network of their own routes."""
    parent = list(range(variant.node_count))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    mine = [r for r in variant.routes if owner[r.id] == player]
    for r in mine:
        parent[find(r.node_a)] = find(r.node_b)
    cities: dict[int, set[int]] = {}
    for r in mine:
        for city, node in ((r.a, r.node_a), (r.b, r.node_b)):
            cities.setdefault(find(node), set()).add(city)
    return max((len(found) for found in cities.values()), default=0)


def explorer_winners(rows: list[dict], keys) -> list[int]:
    """The seats that score the bonus: the most cities (above 0), then each key (a
    ``TieBreak`` with a column) keeps the highest among those still tied."""
    best = max((row["explorer_cities"] for row in rows), default=0)
    if best == 0:
        return []
    tied = [p for p, row in enumerate(rows) if row["explorer_cities"] == best]
    for tb in keys:
        top = max(tb.sign * rows[p][tb.column] for p in tied)
        tied = [p for p in tied if tb.sign * rows[p][tb.column] == top]
    return tied


class ExplorerReference(MechanicReference[StateView, ExplorerRule]):
    """The explorer bonus in plain Python."""

    def __init__(self, rules: Services, rule: ExplorerRule):
        super().__init__(rules, rule)
        self.keys = [rules.variant.registry.tiebreak(name) for name in rule.ties]

    def score_player(self, state: StateView, player: int, row: dict, network) -> None:
        row["explorer_cities"] = network_cities(self.rules.variant, state.owner, player)

    def score_awards(self, state: StateView, rows: list[dict]) -> None:
        winners = explorer_winners(rows, self.keys)
        for p, row in enumerate(rows):
            row["explorer"] = self.rule.bonus if p in winners else 0


class Explorer(Mechanic[ExplorerRule], HardCases[ExplorerRule], Sampled):
    name = "explorer"
    order = 170
    title = "the explorer bonus (the largest network)"
    sample = Sample(("explorer 10", "explorer ties most tickets"))
    rule = ExplorerRule
    reference = ExplorerReference
    statements = (ExplorerStmt, ExplorerTies)
    score_items = (
        ScoreItem("explorer_cities", "the cities the player's largest network of their own routes joins", False,
                  "explorer", label="cities"),
        ScoreItem("explorer", "the bonus, to every player whose network joins the most cities (above 0), a tie "
                              "settled by the spec's keys", True, "explorer"),
    )

    def check(self, ctx) -> ExplorerRule | None:
        stmt = ctx.one(ExplorerStmt)
        ties_stmt = ctx.one(ExplorerTies)
        ties: tuple[str, ...] = ()
        if ties_stmt:
            keys = ctx.tiebreaks(ties_stmt.keys, ties_stmt.span)
            for tb in keys:
                if not tb.own_column:
                    ctx.errors.add(ties_stmt.span, f"tie-break '{tb.words}' cannot settle the explorer bonus: it is "
                                                   f"not one column of the score breakdown")
            ties = tuple(tb.name for tb in keys)
            if not stmt:
                ctx.errors.add(ties_stmt.span, "'explorer ties' needs the bonus: add 'explorer N'")
        if stmt is None:
            return None
        bonus = ctx.points(stmt.bonus, "the explorer bonus")
        return ExplorerRule(bonus=bonus, ties=ties, span=stmt.span)

    def score_bound(self, variant, rule: ExplorerRule) -> int:
        return rule.bonus

    def tables(self, variant: ir.Variant, rule: ExplorerRule) -> Tables:
        items = {item.name: item for item in CORE_SCORE_ITEMS}
        for mechanic, other in variant.present():
            items.update({item.name: item for item in mechanic.variant_score_items(variant, other)})
        ties = []
        for name in rule.ties:
            tb = variant.registry.tiebreak(name)
            ties.append(dict(words=tb.words, enum=items[tb.column].enum, sign=tb.sign))
        return Tables(constants=[("EXPLORER_BONUS", rule.bonus)], context={"explorer_ties": ties})

    def hard_cases(self, variant, rule: ExplorerRule, state: dict, rows: list[dict]) -> tuple[str, ...]:
        """Players tied for the largest network (the keys then choose), and ties the keys
        leave (every one of them scores)."""
        best = max((row["explorer_cities"] for row in rows), default=0)
        if not best or sum(row["explorer_cities"] == best for row in rows) < 2:
            return ()
        keys = [variant.registry.tiebreak(name) for name in rule.ties]
        labels = ["explorer tied"]
        if len(explorer_winners(rows, keys)) > 1:
            labels.append("explorer tied after its keys")
        return tuple(labels)
