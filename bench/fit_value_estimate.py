"""Fit the weights of ISMCTS's value estimate (docs/agents.md, "Truncated rollouts").

    python bench/fit_value_estimate.py [--variant usa] [--games 9500] [--seed 2]

Plays 2-player games between the four playing styles, stops each at a random decision,
and from there plays the same styles to the end three times. For each seat it regresses
the points still to come (final total minus the total now) on the estimate's terms: the
trains the seat will still lay, the cards in its hand, and the swing (twice the points)
of its open tickets that fit those trains, grouped by how many trains each still needs,
plus the swing of those that do not fit. Prints the coefficients by least squares and
the error of the estimate's margin between the two seats. The compiled estimate
(engine/playtest/agents/_policy.pyx) uses rounded values of these: a train worth
TRAIN_WORTH times the map's route points per train, a card HAND_WORTH times, and a
ticket's chance falling from TICKET_SURE by TICKET_FADE a train to TICKET_FLOOR.
"""
from __future__ import annotations

import argparse
import heapq
import math
import random
import sys
import warnings

import railspec
from railspec.playtest.agents.kernel import kernel
from railspec.playtest.agents.tables import policy_of, policy_tables

BUCKETS = ((1, 3), (4, 6), (7, 9), (10, 13), (14, 18), (19, 10**6))
NAMES = (["constant", "trains", "cards"]
         + [f"swing {lo}-{hi}" if hi < 10**6 else f"swing {lo}+" for lo, hi in BUCKETS] + ["swing beyond"])


class Board:
    """The variant's graph and tickets, from the policy's tables."""

    def __init__(self, v):
        t = policy_tables(v.ir)
        self.t = t
        self.n_cards, self.n_routes = t["n_cards"], t["n_routes"]
        self.adj = [[(t["adj_node"][e], t["adj_route"][e]) for e in range(t["adj_start"][n], t["adj_start"][n + 1])]
                    for n in range(t["n_nodes"])]
        starts = t["city_start"]
        self.cities = [t["city_node"][starts[c]:starts[c + 1]] for c in range(len(starts) - 1)]
        self.longest = t["longest"]

    def cost(self, view: list[int], ticket: int) -> int | None:
        """Trains still to lay to join a ticket over the seat's own and open routes."""
        t, player = self.t, view[0]
        owner = view[8 + self.n_cards: 8 + self.n_cards + self.n_routes]
        open_ = view[8 + self.n_cards + self.n_routes: 8 + self.n_cards + 2 * self.n_routes]
        goal = set(self.cities[t["ticket_b"][ticket]])
        queue = [(0, n) for n in self.cities[t["ticket_a"][ticket]]]
        done = set()
        while queue:
            d, n = heapq.heappop(queue)
            if n in done:
                continue
            done.add(n)
            if n in goal:
                return d
            for m, r in self.adj[n]:
                if owner[r] == player:
                    heapq.heappush(queue, (d, m))
                elif open_[r]:
                    heapq.heappush(queue, (d + t["route_len"][r], m))
        return None

    def terms(self, views: list[list[int]]) -> list[list[float]]:
        """Each seat's regression terms."""
        fewest = min(view[2] for view in views)
        rows = []
        for view in views:
            usable = min(view[2], fewest + self.longest)
            tickets = view[8 + self.n_cards + 2 * self.n_routes:][:view[3]]
            open_tickets = []
            for ticket in tickets:
                c = self.cost(view, ticket)
                if c:
                    open_tickets.append((c, -self.t["ticket_points"][ticket]))
            swings = [0.0] * (len(BUCKETS) + 1)
            budget = usable
            for c, minus_points in sorted(open_tickets):
                if c <= budget:
                    budget -= c
                    swings[next(i for i, (lo, hi) in enumerate(BUCKETS) if lo <= c <= hi)] += -2 * minus_points
                else:
                    swings[-1] += -2 * minus_points
            rows.append([1.0, float(usable), float(sum(view[8:8 + self.n_cards]))] + swings)
        return rows


def least_squares(x: list[list[float]], y: list[float]) -> list[float]:
    """The coefficients minimising the squared error (normal equations, Gaussian elimination)."""
    k = len(x[0])
    a = [[sum(row[i] * row[j] for row in x) for j in range(k)] + [sum(row[i] * t for row, t in zip(x, y))]
         for i in range(k)]
    for i in range(k):
        pivot = max(range(i, k), key=lambda r: abs(a[r][i]))
        a[i], a[pivot] = a[pivot], a[i]
        if abs(a[i][i]) < 1e-12:
            continue
        for r in range(k):
            if r != i:
                f = a[r][i] / a[i][i]
                a[r] = [u - f * w for u, w in zip(a[r], a[i])]
    return [a[i][k] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(k)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="usa")
    parser.add_argument("--games", type=int, default=9500)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    warnings.simplefilter("ignore", railspec.ProvisionalSpecWarning)
    v = railspec.load(args.variant)
    board, policy, seat = Board(v), policy_of(v.ir), kernel().Seat
    playing = [kernel().STYLES[name] for name in ("one-step", "long-route", "route-focus", "destination-hungry")]
    rng = random.Random(args.seed)
    x, y, margins = [], [], []
    for _ in range(args.games):
        styles = [rng.choice(playing), rng.choice(playing)]
        g = v.new_game(players=2, seed=rng.randrange(1 << 30))
        policy.playout(g._e, styles, [seat(s, rng.randrange(1 << 30)) for s in styles], rng.randrange(10, 200))
        if g.is_over:
            continue
        terms, now = board.terms([g.agent_view(p) for p in range(2)]), g.scores()
        for _ in range(3):
            final = policy.playout(g.clone()._e, styles, [seat(s, rng.randrange(1 << 30)) for s in styles])
            x += terms
            y += [final[p] - now[p] for p in range(2)]
            margins.append((len(x) - 2, final[0] - now[0] - final[1] + now[1]))
    coef = least_squares(x, y)
    for name, c in zip(NAMES, coef):
        print(f"  {name:14} {c:8.3f}")
    fit = [sum(c * u for c, u in zip(coef, row)) for row in x]
    error = math.sqrt(sum((fit[i] - fit[i + 1] - m) ** 2 for i, m in margins) / len(margins))
    spread = math.sqrt(sum(m * m for _, m in margins) / len(margins))
    print(f"{len(margins)} continuations: margin error {error:.1f} points (the margins' own spread {spread:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
