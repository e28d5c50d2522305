"""``railspec tune``: search a spec's numbers (and, if asked, its routes) for the balance
its author asks for, and write tuned.rail, tune.json and report.html (docs/tuning.md)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..playtest.tune import KINDS, SEATS_EQUAL, STYLES_EQUAL, WIDTH, Request, tune
from .args import integer, load_variant, output_folder, progress, whole


def cmd_tune(args: argparse.Namespace) -> int:
    """``tune``: run the search with a progress bar on a terminal and a line per change
    kept or refused; Ctrl-C keeps the best so far and still writes the outputs."""
    load_variant(args.spec)  # a provisional spec's warning, once, before anything else
    request = Request(spec=args.spec, target=args.target, changes=args.change, games=args.games,
                      players=args.players, seed=args.seed, out=Path(args.out), workers=args.workers, ray=args.ray,
                      width=args.candidates)
    bar = progress(args.games, f"tune {Path(args.spec).stem} {args.players}p", args.quiet)

    def say(line: str) -> None:
        if bar is not None:
            bar.write(line, file=sys.stdout)
        else:
            print(line, flush=True)
    try:
        result = tune(request, progress=bar.update if bar is not None else None, say=say,
                      status=bar.set_postfix_str if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    _report(result.summary, result.written)
    if result.stopped in ("interrupted twice", "terminated"):
        when = "during the final measure" if result.stopped == "interrupted twice" else "by SIGTERM"
        print(f"railspec: tune: stopped {when}: tuned.rail and tune.json are written without the fresh-seed "
              "distances, and no report.html", file=sys.stderr)
        return 130 if result.stopped == "interrupted twice" else 143
    return 0


def _report(summary: dict[str, Any], written: list[Path]) -> None:
    final = summary["final"]
    games = summary["games"]
    print(f"{len(summary['accepted'])} change(s) kept; {games['played']:,} games played of {games['budget']:,} "
          f"({summary['stopped']}); {summary['engines_built']} engines built")
    if final is not None:
        gain = final["gain"]
        print(f"distance to {summary['target']['name']} on {final['games']:,} fresh games a side: "
              f"{final['before']['distance']:.3f} → {final['after']['distance']:.3f} (gain {gain['estimate']:.3f}, "
              f"95% interval {gain['interval'][0]:.3f} to {gain['interval'][1]:.3f})")
        for style, fraction in final["before"]["styles"].items():
            print(f"  {style:20} {fraction:.3f} → {final['after']['styles'][style]:.3f}")
    time = summary["time"]
    print(f"{time['wall_seconds']:.1f} s wall, {time['cpu_seconds']:.1f} s CPU; wrote "
          + ", ".join(str(p) for p in written))


def add_commands(sub: Any, formatter: Any) -> None:
    """Register ``tune`` with the command line's subparsers."""
    p = sub.add_parser("tune", help="search a spec's changes for the balance a target asks for",
                       formatter_class=formatter)
    p.add_argument("spec", help="a stock variant name (e.g. usa) or a .rail spec file")
    p.add_argument("--target", default=STYLES_EQUAL,
                   help=f"{STYLES_EQUAL} (every style wins equally often), {SEATS_EQUAL} (no seat advantage) or "
                        f"a .toml file of desired win fractions and bounds (docs/tuning.md) (default: {STYLES_EQUAL})")
    p.add_argument("--change", default="route-points,tickets",
                   help=f"what may change, comma-separated, of {', '.join(KINDS)}; KIND:NAME|NAME limits a kind to "
                        "named routes, tickets or table lengths (default: route-points,tickets)")
    p.add_argument("--games", type=whole(1), default=50_000,
                   help="games to play in all, the final measure on fresh seeds included")
    p.add_argument("--players", type=whole(1), default=4, help="players per game")
    p.add_argument("--seed", type=integer, default=1, help="the run's seed: same seed, same run")
    p.add_argument("--out", type=output_folder, default="tuned",
                   help="the folder for tuned.rail, tune.json, report.html (and the candidates tried)")
    p.add_argument("--candidates", type=whole(1), default=WIDTH, help="changes tried per round")
    p.add_argument("--workers", type=whole(1), default=None, help="processes (default: every core)")
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help="run the games as Ray tasks on the cluster at ADDRESS ('local' starts one here; needs "
                        "railspec[cluster]; the spec files must be at the same paths on every node)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar (there is none anyway when stderr is not a terminal)")
    p.set_defaults(run=cmd_tune)


__all__ = ["add_commands", "cmd_tune"]
