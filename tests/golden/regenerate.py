"""Re-record the golden traces of every stock variant the engines implement.

Run on purpose only (`make golden`), after a deliberate rules change, and review the diff:
these files pin the rules down, and the test suite replays them in both engines.
Traces are recorded with the reference interpreter, the oracle.
"""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

import railspec
from railspec.compiler import stock_names
from railspec.compiler.base.errors import ProvisionalSpecWarning, UnsupportedMechanicError
from railspec.tools import trace

HERE = Path(__file__).parent
SEEDS = {2: 1, 3: 2, 4: 3, 5: 4}  # one seeded game per player count


def golden_games(v):
    """(players, seed, path) for each golden trace of a variant."""
    for players in range(v.ir.min_players, v.ir.max_players + 1):
        seed = SEEDS.get(players, players)
        yield players, seed, HERE / f"{v.key}-{players}p-seed{seed}.jsonl"


def main() -> int:
    warnings.simplefilter("ignore", ProvisionalSpecWarning)  # the spec's own warning, known
    for name in stock_names():
        try:
            v = railspec.load(name)
        except UnsupportedMechanicError as err:
            print(f"skipping {name}: {err}")
            continue
        for players, seed, path in golden_games(v):
            lines = trace.record(v, players, seed, engine="reference")
            path.write_text(trace.dumps(lines), encoding="utf-8")
            print(f"wrote {path.relative_to(HERE.parent.parent)}: {len(lines) - 2} decisions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
