"""The statistical guard: how much closer to the target a change brings the games, with
an interval, from paired games (the same seeds on both sides).

The distance is a function of the column sums of the games' rows, not a mean of one number
per game, so its noise is measured by a paired bootstrap: the games are drawn again with
replacement, the same draw for both sides (a game's two rows stay together, which is what
makes the pairing pay), and the gain is computed on each draw. The interval is the
percentile interval of those gains.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .target import Measures, numpy

#: Bootstrap draws per comparison, and how many are made at once (memory: draws × games).
REPLICATES = 1000
BATCH = 100
#: The interval's coverage.
LEVEL = 0.95


@dataclass(frozen=True)
class Gain:
    """How much smaller the distance is on the second side than on the first: the
    estimate from all the games, and its interval."""

    estimate: float
    low: float
    high: float
    games: int

    @property
    def outside_noise(self) -> bool:
        """Whether the whole interval is a gain: the change is kept only then."""
        return self.low > 0

    def as_json(self) -> dict[str, Any]:
        """The gain as tune.json records it."""
        return {"estimate": round(self.estimate, 6), "interval": [round(self.low, 6), round(self.high, 6)],
                "level": LEVEL, "paired_games": self.games}


def point_gain(measures: Measures, before: Any, after: Any) -> float:
    """The gain of ``after`` over ``before`` (rows of the same games), without an interval."""
    np = numpy()
    before, after = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    n = len(before)
    return float(measures.distance(before.sum(axis=0), n) - measures.distance(after.sum(axis=0), n))


def paired_gain(measures: Measures, before: Any, after: Any, seed: int, replicates: int = REPLICATES) -> Gain:
    """The gain of ``after`` over ``before`` with its bootstrap interval; ``before[i]``
    and ``after[i]`` are the rows of the same game (the same seeds) on either side."""
    np = numpy()
    before, after = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    n = len(before)
    if n == 0 or len(after) != n:
        raise ValueError(f"a paired comparison needs the same games on both sides, not {n} and {len(after)}")
    rng = np.random.default_rng(seed % 2**64)
    weights = np.full(n, 1.0 / n)
    gains = []
    for start in range(0, replicates, BATCH):
        counts = rng.multinomial(n, weights, size=min(BATCH, replicates - start)).astype(float)
        gains.append(measures.distance(counts @ before, n) - measures.distance(counts @ after, n))
    drawn = np.concatenate(gains)
    low, high = np.quantile(drawn, [(1 - LEVEL) / 2, 1 - (1 - LEVEL) / 2])
    return Gain(point_gain(measures, before, after), float(low), float(high), n)
