"""Re-record the perft files of every stock variant the engines implement.

Run on purpose only (`make perft`), after a deliberate rules change, and review the diff.
Counted with the reference interpreter, the oracle; the test suite checks both engines.
"""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

import railspec
from railspec.compiler import stock_names
from railspec.compiler.base.errors import ProvisionalSpecWarning, UnsupportedMechanicError
from railspec.tools import perft

HERE = Path(__file__).parent


def main() -> int:
    warnings.simplefilter("ignore", ProvisionalSpecWarning)  # the spec's own warning, known
    for name in stock_names():
        try:
            v = railspec.load(name)
        except UnsupportedMechanicError as err:
            print(f"skipping {name}: {err.message}")
            continue
        lines = perft.record(v)
        path = HERE / f"{name}.perft"
        path.write_text(perft.dumps(lines), encoding="utf-8")
        summary = ", ".join(f"{line['name']} {line['counts']}" for line in lines[1:])
        print(f"wrote {path.relative_to(HERE.parent.parent)}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
