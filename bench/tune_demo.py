"""The tuning demonstration (issue 32, docs/tuning.md; ``make tune-demo``).

USA with six-car routes scoring 40 (examples/tuning/broken.rail), where the long-route
style wins well over half of the four-player games against the three other styles, is
tuned toward even styles by changing only the route points table and the tickets:

    railspec tune examples/tuning/broken.rail --target styles-equal --change route-points,tickets \\
        --games 200000 --players 4 --seed 1 --out tune-demo

It then checks, on the fresh seeds of tune.json's final measure, what the issue asks: the
long-route style's share of the wins falls by at least half its excess over 25%, and the
spread between the styles' shares (the largest less the smallest) by at least 40%; and it
prints the games, the wall and the CPU time (this command and every process it waited for:
the campaign workers, the builds, the C compiler). Status 1 when a check fails.

    python bench/tune_demo.py [--games N] [--out DIR] [--workers N]
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "examples" / "tuning" / "broken.rail"


def main(argv: list[str] | None = None) -> int:
    """Run the demonstration and check its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--out", default="tune-demo")
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args(argv)
    command = [sys.executable, "-m", "railspec", "tune", str(BROKEN), "--target", "styles-equal", "--change",
               "route-points,tickets", "--games", str(args.games), "--players", "4", "--seed", "1", "--out", args.out]
    if args.workers is not None:
        command += ["--workers", str(args.workers)]
    print("$ railspec " + " ".join(command[3:]), flush=True)
    start = time.perf_counter()
    done = subprocess.run(command)
    wall = time.perf_counter() - start
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        return done.returncode
    summary = json.loads((Path(args.out) / "tune.json").read_text(encoding="utf-8"))
    return report(summary, wall, used.ru_utime + used.ru_stime)


def report(summary: dict, wall: float, cpu: float) -> int:
    """Print the figures and the two checks; 1 when one fails."""
    final = summary["final"]
    before, after = final["before"], final["after"]
    excess = before["styles"]["long-route"] - 0.25
    fall = before["styles"]["long-route"] - after["styles"]["long-route"]
    spread_fall = 1 - after["spread"] / before["spread"]
    print(f"games played: {summary['games']['played']:,} (search {summary['games']['search']:,}, final measure "
          f"{summary['games']['final']:,}); {len(summary['accepted'])} changes kept; {summary['engines_built']} "
          f"engines built")
    print(f"wall {wall:.0f} s, CPU {cpu:.0f} s (the run and every process it waited for)")
    print(f"distance on {final['games']:,} fresh games a side: {before['distance']:.3f} → {after['distance']:.3f}")
    for style in before["styles"]:
        print(f"  {style:20} {before['styles'][style]:.3f} → {after['styles'][style]:.3f}")
    checks = [(f"long-route's part of the wins falls by {fall:.3f}, at least half its excess over 25% "
               f"({excess / 2:.3f})",
               fall >= excess / 2),
              (f"the spread falls from {before['spread']:.3f} to {after['spread']:.3f}, by {spread_fall:.0%} "
               "(at least 40%)", spread_fall >= 0.4)]
    for text, ok in checks:
        print(("ok: " if ok else "FAILED: ") + text)
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
