"""A campaign's records added up as they arrive: what the balance report and the
command line's summary show, in memory that does not grow with the number of games.

A record (:func:`railspec.playtest.balance.play_game`) is read once by :meth:`CampaignTally.add`
and dropped; the tally keeps sums and counts per seat, agent, ticket, route and action
kind, and the distributions (scores, turns, decisions) as counts of each value, which are
bounded by the game's own bounds rather than by the number of games. Pure Python: the
summary of ``railspec simulate --agents`` needs no optional extra.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the tally only reads the variant it is given
    from ..runtime.game import Variant


@dataclass
class Rates:
    """Seats played, wins (a shared win counts as a fraction), and sums per seat."""

    seats: int = 0
    wins: float = 0.0
    score: int = 0
    tickets_held: int = 0
    tickets_done: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    @property
    def mean_score(self) -> float:
        return self.score / self.seats if self.seats else 0.0

    @property
    def ticket_completion(self) -> float:
        """Tickets completed of those held (0 when none was held)."""
        return self.tickets_done / self.tickets_held if self.tickets_held else 0.0


@dataclass
class ItemSum:
    """One score item of one agent over its seats: the sum of an amount; for a route id
    the seats with one; for a place the seats placed and the sum of their places."""

    total: float = 0.0
    seats_with: int = 0


@dataclass
class CampaignTally:
    """Sums and counts of a campaign's records. ``variant`` is the loaded variant
    (:class:`railspec.Variant`); it names the tickets, routes, score items and action kinds."""

    variant: Variant
    games: int = 0
    players: int = 0
    by_seat: dict = field(default_factory=dict)        # seat -> Rates
    by_agent: dict = field(default_factory=dict)       # agent -> Rates
    scores: dict = field(default_factory=dict)         # agent -> Counter(score -> seats)
    turns: Counter = field(default_factory=Counter)
    decisions: Counter = field(default_factory=Counter)
    endings: Counter = field(default_factory=Counter)
    items: dict = field(default_factory=dict)          # agent -> item name -> ItemSum
    actions: dict = field(default_factory=dict)        # agent -> kind -> actions taken
    action_seats: dict = field(default_factory=dict)   # agent -> kind -> seats that took one at least
    ticket_held: list = field(default_factory=list)
    ticket_done: list = field(default_factory=list)
    route_claims: list = field(default_factory=list)   # route id -> games it was claimed in
    group_claims: dict = field(default_factory=dict)   # parallel group -> games one of its tracks was claimed in
    group_full: dict = field(default_factory=dict)     # parallel group -> games all its tracks were claimed in

    def __post_init__(self):
        ir = self.variant.ir
        self.ticket_held = [0] * len(ir.tickets)
        self.ticket_done = [0] * len(ir.tickets)
        self.route_claims = [0] * len(ir.routes)
        self._measure = {item.name: item.measure for item in self.variant.assembly.score_items}
        self._group_of = [parallel_group(r) for r in ir.routes]

    def add(self, record: dict) -> None:
        """Add one game's record."""
        self.games += 1
        self.players = record["players"]
        self.turns[record["turns"]] += 1
        self.decisions[record["decisions"]] += 1
        self.endings[record["ended_by"]] += 1
        claimed_groups: Counter = Counter()
        for route, owner in enumerate(record["owner"]):
            if owner >= 0:
                self.route_claims[route] += 1
                claimed_groups[self._group_of[route]] += 1
        for group, tracks in claimed_groups.items():
            self.group_claims[group] = self.group_claims.get(group, 0) + 1
            if tracks == group[2]:
                self.group_full[group] = self.group_full.get(group, 0) + 1
        winners = sum(1 for s in record["seats"] if s["winner"])
        for s in record["seats"]:
            won = 1.0 / winners if s["winner"] else 0.0
            held, done = len(s["tickets"]), len(s["completed"])
            for rates in (self.by_seat.setdefault(s["seat"], Rates()), self.by_agent.setdefault(s["agent"], Rates())):
                rates.seats += 1
                rates.wins += won
                rates.score += s["score"]
                rates.tickets_held += held
                rates.tickets_done += done
            self.scores.setdefault(s["agent"], Counter())[s["score"]] += 1
            for t in s["tickets"]:
                self.ticket_held[t] += 1
            for t in s["completed"]:
                self.ticket_done[t] += 1
            sums = self.items.setdefault(s["agent"], {})
            for name, value in s["breakdown"].items():
                item = sums.setdefault(name, ItemSum())
                measure = self._measure.get(name, "amount")
                if measure == "amount":
                    item.total += value
                    item.seats_with += 1
                elif measure == "route" and value >= 0 or measure == "place" and value > 0:
                    item.total += value
                    item.seats_with += 1
            taken = self.actions.setdefault(s["agent"], Counter())
            seats_taking = self.action_seats.setdefault(s["agent"], Counter())
            for kind, count in s["actions"].items():
                taken[kind] += count
                if count:
                    seats_taking[kind] += 1

    def add_all(self, records) -> CampaignTally:
        """Add every record of an iterable; returns the tally."""
        for record in records:
            self.add(record)
        return self

    def agent_lines(self) -> list[str]:
        """Per agent: seats played, win rate, mean score, tickets completed per game (the
        summary ``railspec simulate --agents`` and ``balance`` print)."""
        lines = [f"{'agent':20} {'seats':>6} {'win rate':>9} {'mean score':>11} {'tickets/game':>13}"]
        for name, r in sorted(self.by_agent.items()):
            lines.append(f"{name:20} {r.seats:>6} {r.win_rate:>9.3f} {r.mean_score:>11.1f} "
                         f"{r.tickets_done / r.seats:>13.2f}")
        return lines

    def kind_owners(self) -> dict[str, str]:
        """Each action kind of the catalogue that a mechanic adds, with the mechanic's name."""
        in_catalogue = {a.kind for a in self.variant.ir.actions}
        return {kind: mechanic.name for mechanic, _ in self.variant.assembly.present
                for kind in mechanic.kinds if kind in in_catalogue}

    def unused_kinds(self) -> list[tuple[str, str, list[str]]]:
        """The mechanics' action kinds some agents never took in the whole campaign:
        (kind, mechanic, the agents that never took it), in catalogue order."""
        out = []
        for kind, owner in self.kind_owners().items():
            never = [agent for agent in sorted(self.by_agent) if not self.actions.get(agent, {}).get(kind)]
            if never:
                out.append((kind, owner, never))
        return out


def parallel_group(route) -> tuple[int, int, int]:
    """The connection a route is a track of: its two cities (in order) and its number of
    tracks; the tracks of a double or triple route share it."""
    return (min(route.a, route.b), max(route.a, route.b), route.tracks)


def quantiles(counts: Counter, qs=(0.25, 0.5, 0.75)) -> list[float]:
    """The quantiles of the values counted in ``counts`` (linear between neighbours, as
    numpy's default)."""
    n = sum(counts.values())
    if not n:
        return [math.nan] * len(qs)
    values = sorted(counts)
    out = []
    for q in qs:
        position = q * (n - 1)
        low, high = _nth(values, counts, math.floor(position)), _nth(values, counts, math.ceil(position))
        out.append(low + (high - low) * (position - math.floor(position)))
    return out


def _nth(values: list, counts: Counter, k: int):
    seen = 0
    for v in values:
        seen += counts[v]
        if k < seen:
            return v
    return values[-1]


def describe(counts: Counter) -> dict[str, float]:
    """count, mean, std (n-1), min, quartiles and max of the values counted in ``counts``."""
    n = sum(counts.values())
    if not n:
        return {"count": 0}
    mean = sum(v * c for v, c in counts.items()) / n
    var = sum(c * (v - mean) ** 2 for v, c in counts.items()) / (n - 1) if n > 1 else 0.0
    q1, q2, q3 = quantiles(counts)
    return {"count": n, "mean": mean, "std": math.sqrt(var), "min": min(counts), "25%": q1, "50%": q2,
            "75%": q3, "max": max(counts)}
