"""The ``railspec`` command line.

    railspec check FILE                      check a spec, print located errors
    railspec compile FILE|NAME               check, generate and build its engine
    railspec simulate NAME --players N --games N --seed S
    railspec score NAME position.json        per-player breakdown of a described board
    railspec trace NAME --seed S --players N --out FILE
    railspec verify FILE [--engine compiled|reference]
    railspec conformance FILE|NAME --games N
    railspec perft FILE [--engine compiled|reference|both]

Exit status: 0 success, 1 a check or verification failed, 2 bad usage or input.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from .errors import RailspecError, SpecError


def _load(name: str):
    """A variant; a provisional spec's warning is printed once, as a line of its own."""
    import warnings

    from .errors import ProvisionalSpecWarning
    from .game import load
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ProvisionalSpecWarning)
        variant = load(name)
    for warning in caught[:1]:
        print(f"railspec: {warning.message}", file=sys.stderr)
    return variant


def _progress(total: int, desc: str, enabled: bool):
    """A tqdm bar on a terminal (or when forced), nothing otherwise."""
    if not enabled:
        return None
    from tqdm import tqdm
    return tqdm(total=total, desc=desc, unit="game", file=sys.stderr, dynamic_ncols=True)


def cmd_check(args) -> int:
    from .compiler import check_file
    variant = check_file(args.file)
    mech = ", ".join(sorted(variant.mechanics)) or "base rules only"
    print(f"{args.file}: ok — {variant.name}: {len(variant.cities)} cities, {len(variant.routes)} routes "
          f"({sum(r.length for r in variant.routes)} cars), {len(variant.tickets)} tickets, "
          f"{len(variant.actions)} actions; mechanics: {mech}; spec hash {variant.spec_hash}")
    return 0


def cmd_compile(args) -> int:
    from .compiler.build import build
    from .compiler.emit import emit
    v = _load(args.target)
    start = time.perf_counter()
    source = emit(v.ir)
    if args.emit_only:
        out = Path(args.out or f"{v.key}.pyx")
        out.write_text(source, encoding="utf-8")
        print(f"wrote {out} ({len(source.splitlines())} lines)")
        return 0
    module = build(v.ir, source)
    print(f"{v.name}: engine ready in {time.perf_counter() - start:.2f} s ({module.__file__})")
    return 0


def summarize(v, result: dict, players: int) -> str:
    """The summary table of a batch of random games."""
    games = len(result["totals"])
    lines = [f"{v.name}: {games} random {players}-player games"]
    seat_scores = list(zip(*result["totals"]))
    seat_tickets = list(zip(*result["tickets_completed"]))
    wins = [0.0] * players
    for winners in result["winners"]:
        for p in winners:
            wins[p] += 1 / len(winners)
    lines.append(f"{'seat':>6} {'mean score':>11} {'stdev':>8} {'win rate':>9} {'tickets done':>13}")
    for p in range(players):
        scores = seat_scores[p]
        lines.append(f"{p:>6} {statistics.fmean(scores):>11.1f} {statistics.pstdev(scores):>8.1f} "
                     f"{wins[p] / games:>8.1%} {statistics.fmean(seat_tickets[p]):>13.2f}")
    all_scores = [s for row in result["totals"] for s in row]
    lines.append(f"{'all':>6} {statistics.fmean(all_scores):>11.1f} {statistics.pstdev(all_scores):>8.1f}")
    lines.append(f"game length: {statistics.fmean(result['turns']):.1f} turns "
                 f"(stdev {statistics.pstdev(result['turns']):.1f}), "
                 f"{statistics.fmean(result['decisions']):.1f} decisions")
    stalled = sum(result["stalled"])
    lines.append(f"games ended because nobody could act: {stalled} of {games}")
    return "\n".join(lines)


def cmd_simulate(args) -> int:
    v = _load(args.variant)
    if args.engine == "compiled":
        v.module()  # build or fetch the engine before the clock starts
    players, games = args.players, args.games
    chunk = max(1, min(250, games // 40 or 1))
    bar = _progress(games, f"{v.key} {players}p", not args.quiet)
    merged: dict[str, list] = {}
    start = time.perf_counter()
    done = 0
    while done < games:
        n = min(chunk, games - done)
        part = v.playout(games=n, players=players, seed=args.seed + done, engine=args.engine)
        for key, values in part.items():
            merged.setdefault(key, []).extend(values)
        done += n
        if bar is not None:
            bar.update(n)
    if bar is not None:
        bar.close()
    elapsed = time.perf_counter() - start
    print(summarize(v, merged, players))
    print(f"{games} games in {elapsed:.2f} s ({games / elapsed:,.0f} games/s, "
          f"{sum(merged['decisions']) / elapsed:,.0f} decisions/s, {args.engine} engine)")
    return 0


def cmd_score(args) -> int:
    v = _load(args.variant)
    try:
        position = json.loads(Path(args.position).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        print(f"railspec: cannot read position {args.position}: {err}", file=sys.stderr)
        return 2
    rows = v.score(position)
    items = v.assembly.score_items  # the core's items, the mechanics', total
    keys = [item.name for item in items]
    head = ["player"] + [item.heading for item in items] + [""]
    width = max(8, *(len(h) for h in head))
    print(f"{v.name}: {args.position}")
    print(" ".join(f"{h:>{width}}" for h in head))
    for p, row in enumerate(rows):
        cells = [p] + [row[k] for k in keys] + ["winner" if row["winner"] else ""]
        print(" ".join(f"{c:>{width}}" for c in cells))
    for mechanic, rule in v.assembly.present:
        for line in mechanic.score_notes(v.ir, rule, rows):
            print(line)
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


def cmd_trace(args) -> int:
    from . import trace
    v = _load(args.variant)
    lines = trace.record(v, args.players, args.seed, engine=args.engine)
    text = trace.dumps(lines)
    if args.out and args.out != "-":
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}: {len(lines) - 2} decisions, winners {lines[-1]['winners']}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_verify(args) -> int:
    from . import trace
    try:
        lines = trace.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        print(f"railspec: {args.file}: {err}", file=sys.stderr)
        return 2
    if not lines:
        print(f"railspec: {args.file}: empty trace", file=sys.stderr)
        return 2
    target = args.spec or lines[0].get("variant", "")
    v = _load(target)
    engines = ["compiled", "reference"] if args.engine == "both" else [args.engine]
    failed = False
    for engine in engines:
        verdict = trace.verify(v, lines, engine=engine)
        print(f"{args.file} [{engine}]: {'ok' if verdict.ok else 'DIVERGES'}: {verdict.message}")
        failed = failed or not verdict.ok
    return 1 if failed else 0


def cmd_perft(args) -> int:
    from . import perft
    try:
        lines = perft.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        print(f"railspec: {args.file}: {err}", file=sys.stderr)
        return 2
    if not lines:
        print(f"railspec: {args.file}: empty perft file", file=sys.stderr)
        return 2
    v = _load(args.spec or lines[0].get("variant", ""))
    engines = ["compiled", "reference"] if args.engine == "both" else [args.engine]
    failed = False
    for engine in engines:
        problems = perft.check(v, lines, engine=engine)
        status = "ok" if not problems else "DIFFERS"
        print(f"{args.file} [{engine}]: {status}: {len(lines) - 1} positions"
              + ("" if not problems else "; " + "; ".join(problems[:5])))
        failed = failed or bool(problems)
    return 1 if failed else 0


def cmd_conformance(args) -> int:
    from . import conformance
    v = _load(args.target)
    low, high = v.ir.min_players, v.ir.max_players
    counts = list(range(low, high + 1))
    bar = _progress(args.games, f"conformance {v.key}", not args.quiet)
    start = time.perf_counter()
    report = conformance.run(v, range(args.seed, args.seed + args.games),
                             lambda s: counts[s % len(counts)], api_every=args.api_every,
                             progress=bar.update if bar is not None else None)
    if bar is not None:
        bar.close()
    elapsed = time.perf_counter() - start
    print(f"{v.name}: {report.games} games, {report.decisions} decisions in both engines "
          f"({elapsed:.1f} s), players {low}..{high}, seeds {args.seed}..{args.seed + args.games - 1}")
    if report.ok:
        print("PASS: no difference between the engines, no invariant broken")
        return 0
    for problem in report.problems[:20]:
        print(f"  {problem}")
    print(f"FAIL: {len(report.problems)} problems")
    return 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="railspec", description="Ticket to Ride rules compiler and engine")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("check", help="check a spec file and print located errors")
    p.add_argument("file")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("compile", help="generate and build the engine of a spec or stock variant")
    p.add_argument("target", help="a stock variant name or a .rail file")
    p.add_argument("--emit-only", action="store_true", help="write the generated .pyx and stop")
    p.add_argument("--out", help="where --emit-only writes (default NAME.pyx)")
    p.set_defaults(run=cmd_compile)

    p = sub.add_parser("simulate", help="play random games and summarize them")
    p.add_argument("variant")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--engine", choices=["compiled", "reference"], default="compiled")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser("score", help="score a described position (JSON)")
    p.add_argument("variant")
    p.add_argument("position")
    p.add_argument("--json", action="store_true", help="also print the breakdown as JSON")
    p.set_defaults(run=cmd_score)

    p = sub.add_parser("trace", help="record a seeded random game as JSON Lines")
    p.add_argument("variant")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--out", default="-")
    p.add_argument("--engine", choices=["compiled", "reference"], default="compiled")
    p.set_defaults(run=cmd_trace)

    p = sub.add_parser("verify", help="replay a trace and report the first divergence")
    p.add_argument("file")
    p.add_argument("--engine", choices=["compiled", "reference", "both"], default="compiled")
    p.add_argument("--spec", help="the variant (stock name or .rail) if not the trace's own")
    p.set_defaults(run=cmd_verify)

    p = sub.add_parser("perft", help="check an engine against a perft file (counts of action sequences)")
    p.add_argument("file")
    p.add_argument("--engine", choices=["compiled", "reference", "both"], default="compiled")
    p.add_argument("--spec", help="the variant (stock name or .rail) if not the file's own")
    p.set_defaults(run=cmd_perft)

    p = sub.add_parser("conformance", help="compare the compiled engine with the reference on random games")
    p.add_argument("target", help="a stock variant name or a .rail file")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--api-every", type=int, default=25,
                   help="check clone, JSON and illegal actions every N decisions (0: never)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_conformance)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except SpecError as err:
        print(err.format(), file=sys.stderr)
        return 1 if args.command == "check" else 2
    except RailspecError as err:
        print(f"railspec: {err}", file=sys.stderr)
        return 2
    except ValueError as err:
        print(f"railspec: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
