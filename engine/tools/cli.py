"""The ``railspec`` command line. VARIANT is a stock name (``usa``) or a ``.rail`` file.

    railspec check VARIANT                   check a spec, print located errors
    railspec fmt FILE… [--check] [--diff]    write specs in the canonical layout (--check: list those that are not)
    railspec describe VARIANT [--json]       the map at a glance: routes, cards, tickets, bridges, mechanics
    railspec mechanics [--json]              the mechanics installed and their statements
    railspec compile VARIANT                 check, generate and build its engine
    railspec simulate VARIANT --players N --games N --seed S
    railspec score VARIANT position.json     per-player breakdown of a described board
    railspec trace VARIANT --seed S --players N --out FILE [--save-state FILE [--state-at N]]
    railspec verify FILE [--engine compiled|reference|both] [--spec VARIANT]
    railspec conformance VARIANT --games N
    railspec perft FILE [--engine compiled|reference|both] [--spec VARIANT]
    railspec simulate VARIANT --agents one-step,route-focus,… [--workers N] [--save-state FILE]
    railspec balance VARIANT --players N --games N --agents … --out DIR [--workers N | --ray ADDRESS]
    railspec tune VARIANT --target T --change KINDS --games N --players N --seed S --out DIR [--workers N | --ray A]
    railspec render VARIANT [--state FILE] --out map.svg
    railspec suite export VARIANT --out DIR [--games N] [--seed S]
    railspec test-engine VARIANT [--vectors DIR | --games N] -- COMMAND ARGS…
    railspec export VARIANT [--out FILE]     the variant as JSON for other engines (--schema: its schema)
    railspec play VARIANT [--players N] [--agents A,B,…] [--seat K] [--port P] [--trace FILE]
    railspec lsp                             the language server for editors (stdio; railspec[lsp])

Exit status: 0 success, 1 a check or verification failed, 2 bad usage or input (one line
on stderr, never a traceback). The progress bars are drawn only on a terminal.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from ..compiler import build as build_stage
from ..compiler import check_file
from ..compiler.base import files
from ..compiler.base.errors import PositionError, RailspecError, SpecError
from ..compiler.emit import emit
from ..compiler.mechanic import Drawing, Questions, default_registry, part
from ..runtime.game import spec_path
from ..runtime.position import read
from . import cli_conformance, cli_describe, cli_fmt, cli_lsp, cli_play, cli_tune, cli_web, conformance, perft, trace
from .args import (
    Help,
    Parser,
    UsageError,
    integer,
    load_variant,
    output_path,
    progress,
    same_file,
    stock_or_ask,
    whole,
    write_text,
)


def cmd_check(args) -> int:
    """``check``: the spec's located errors (status 1), or a summary; its warnings (content
    that checks but does nothing) go to stderr, and fail the check with ``--strict``."""
    path, _ = spec_path(args.file)
    variant = check_file(path)
    for warning in variant.warnings:
        print(warning.format(), file=sys.stderr)
    mech = ", ".join(sorted(variant.mechanics)) or "base rules only"
    count = len(variant.warnings)
    noted = f", {count} warning{'s' if count != 1 else ''}" if count else ""
    if count and args.strict:
        print(f"{args.file}: {count} warning{'s' if count != 1 else ''} (--strict)", file=sys.stderr)
        return 1
    print(f"{args.file}: ok{noted} — {variant.name}: {len(variant.cities)} cities, {len(variant.routes)} routes "
          f"({sum(r.length for r in variant.routes)} cars), {len(variant.tickets)} tickets, "
          f"{len(variant.actions)} actions; mechanics: {mech}; spec hash {variant.spec_hash}")
    return 0


def cmd_compile(args) -> int:
    if args.out is not None and not args.emit_only:
        raise UsageError("compile: --out is where --emit-only writes; give --emit-only too")
    v = load_variant(args.target)
    start = time.perf_counter()
    source = emit(v.ir)
    if args.emit_only:
        out = args.out or f"{v.key}.pyx"
        write_text(out, source)
        print(f"wrote {out} ({len(source.splitlines())} lines)")
        return 0
    module = build_stage.build(v.ir, source)
    print(f"{v.name}: engine ready in {time.perf_counter() - start:.2f} s, {_how_built()} ({module.__file__})")
    return 0


#: How build_stage.build got a module (its last_build_kind), and where a compiled one's
#: translation came from (last_translation), as `railspec compile` says them.
_BUILT = {"stock": "the installed stock module", "loaded": "the module already loaded",
          "cache": "from the build cache"}
_TRANSLATED = {"shipped": "the translation of its code installed with railspec",
               "cache": "the translation of its code kept in the build cache",
               "cython": "Cython translated its code (other specs with these mechanics will reuse it)"}


def _how_built() -> str:
    """What the last build did, for a variant author: a spec with a stock variant's mechanics
    needs only the C compiler (compiler/build.py)."""
    if build_stage.last_build_kind in _BUILT:
        return _BUILT[build_stage.last_build_kind]
    return f"compiled: {_TRANSLATED.get(build_stage.last_translation, 'translated')}, then the C compiler"


def cmd_mechanics(args) -> int:
    """``mechanics``: every mechanic installed, railspec's own and those other distributions
    register (the railspec.mechanics entry-point group), with how its statements are
    written and where it is documented."""
    listed: list[dict[str, Any]] = []
    for mechanic in default_registry():
        listed.append({"name": mechanic.name, "title": mechanic.title, "order": mechanic.order,
                       "implemented": mechanic.implemented, "statements": type(mechanic).written_forms(),
                       "hooks": sorted(type(mechanic).filled_hooks()),
                       "queries": [query.name for query in part(mechanic, Questions).queries],
                       "documented": type(mechanic).documentation()})
    if args.json:
        print(json.dumps(listed, indent=2, ensure_ascii=False))
        return 0
    for m in listed:
        print(f"{m['name']}: {m['title']}" + ("" if m["implemented"] else " (not implemented yet)"))
        for form in m["statements"]:
            print(f"    {form}")
        print(f"    hooks: {', '.join(m['hooks']) or 'none'}")
        if m["queries"]:
            print(f"    game methods: {', '.join(m['queries'])}")
        print(f"    documented in {m['documented']}")
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
    v = load_variant(args.variant)
    players, games = v.check_players(args.players), args.games
    if args.agents:
        return cli_play.cmd_simulate_agents(args, v)
    if args.workers is not None or args.save_state is not None:
        option = "--workers" if args.workers is not None else "--save-state"
        raise UsageError(f"simulate: {option} is for games of agents (--agents); random games run in one "
                         "process, inside the engine (`railspec trace --save-state` keeps a random game's state)")
    if args.engine == "compiled":
        v.module()  # build or fetch the engine before the clock starts
    chunk = max(1, min(250, games // 40 or 1))
    bar = progress(games, f"{v.key} {players}p", args.quiet)
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
    elapsed = max(elapsed, 1e-9)
    print(f"{games} games in {elapsed:.2f} s ({games / elapsed:,.0f} games/s, "
          f"{sum(merged['decisions']) / elapsed:,.0f} decisions/s, {args.engine} engine)")
    return 0


def cmd_score(args) -> int:
    v = load_variant(args.variant)
    position = read(args.position)  # its errors name the file
    try:
        rows = v.score(position, tickets=args.tickets)
    except PositionError as err:
        raise PositionError(f"{args.position}: {err}") from None
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
        for line in part(mechanic, Drawing).score_notes(v.ir, rule, rows):
            print(line)
    if args.tickets:
        for p, row in enumerate(rows):
            for result in row["ticket_results"]:
                done = f"completed at {result['place']}" if result["completed"] else "not completed"
                print(f"player {p}: {result['ticket']}: {result['points']:+d} ({done})")
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


def cmd_trace(args) -> int:
    v = load_variant(args.variant)
    if args.state_at is not None and not args.save_state:
        raise UsageError("trace: --state-at says when to save the state: give --save-state FILE too")
    if args.save_state and args.out != "-" and same_file(args.save_state, args.out):
        raise UsageError(f"trace: --save-state {args.save_state} is the --out file")
    saved = {}

    def keep(step, game):
        if step == args.state_at or (args.state_at is None and game.is_over):
            saved["state"] = game.to_json()
    lines = trace.record(v, v.check_players(args.players), args.seed, engine=args.engine,
                         each=keep if args.save_state else None)
    if args.save_state:
        if "state" not in saved:
            raise UsageError(f"trace: the game ended after {len(lines) - 2} decisions, before --state-at "
                             f"{args.state_at}")
        write_text(args.save_state, saved["state"])
    text = trace.dumps(lines)
    if args.out != "-":
        write_text(args.out, text)
        print(f"wrote {args.out}: {len(lines) - 2} decisions, winners {lines[-1]['winners']}")
    else:
        sys.stdout.write(text)
    if args.save_state:
        when = "at the end" if args.state_at is None else f"after {args.state_at} decisions"
        print(f"wrote {args.save_state}: the state {when}", file=sys.stderr if args.out == "-" else sys.stdout)
    return 0


def cmd_verify(args) -> int:
    try:
        lines = trace.loads(files.read_text(args.file, "trace file"))
    except trace.TraceError as err:
        raise trace.TraceError(f"{args.file}: {err}") from None
    header = lines[0]
    v = load_variant(args.spec) if args.spec else stock_or_ask(header["variant"], args.file, "trace")
    hint = ""
    if not args.spec and header["spec_hash"] != v.spec_hash:
        hint = "; if it was recorded from another spec, pass that spec file with --spec FILE.rail"
    engines = ["compiled", "reference"] if args.engine == "both" else [args.engine]
    failed = False
    for engine in engines:
        verdict = trace.verify(v, lines, engine=engine)
        print(f"{args.file} [{engine}]: {'ok' if verdict.ok else 'DIVERGES'}: {verdict.message}"
              + ("" if verdict.ok else hint))
        failed = failed or not verdict.ok
    return 1 if failed else 0


def cmd_perft(args) -> int:
    try:
        lines = perft.loads(files.read_text(args.file, "perft file"))
    except perft.PerftError as err:
        raise perft.PerftError(f"{args.file}: {err}") from None
    v = load_variant(args.spec) if args.spec else stock_or_ask(lines[0]["variant"], args.file, "perft file")
    engines = ["compiled", "reference"] if args.engine == "both" else [args.engine]
    failed = False
    for engine in engines:
        try:
            problems = perft.check(v, lines, engine=engine)
        except perft.PerftError as err:
            raise perft.PerftError(f"{args.file}: {err}") from None
        status = "ok" if not problems else "DIFFERS"
        print(f"{args.file} [{engine}]: {status}: {len(lines) - 1} positions"
              + ("" if not problems else "; " + "; ".join(problems[:5])))
        failed = failed or bool(problems)
    return 1 if failed else 0


def cmd_conformance(args) -> int:
    v = load_variant(args.target)
    low, high = v.ir.min_players, v.ir.max_players
    counts = list(range(low, high + 1))
    bar = progress(args.games, f"conformance {v.key}", args.quiet)
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


#: The help of a command's variant argument, and of its --engine option.
VARIANT_HELP = "a stock variant name (e.g. usa) or a .rail spec file"
ENGINE_HELP = "which engine plays: the compiled one or the reference interpreter"


def build_parser() -> argparse.ArgumentParser:
    """The command line: this module's commands, then those of the cli_* modules."""
    formatter = Help
    parser = Parser(prog="railspec", description="Ticket to Ride rules compiler and engine",
                    formatter_class=formatter)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    _add_spec_commands(sub, formatter)
    _add_game_commands(sub, formatter)
    _add_replay_commands(sub, formatter)
    cli_play.add_commands(sub, formatter)
    cli_tune.add_commands(sub, formatter)
    cli_conformance.add_commands(sub, formatter)
    cli_describe.add_commands(sub, formatter)
    cli_fmt.add_commands(sub, formatter)
    cli_web.add_commands(sub, formatter)
    cli_lsp.add_commands(sub, formatter)
    return parser


def _add_spec_commands(sub, formatter) -> None:
    """check, mechanics and compile: a spec and the language it is written in."""
    p = sub.add_parser("check", help="check a spec file and print located errors", formatter_class=formatter)
    p.add_argument("file", help=VARIANT_HELP)
    p.add_argument("--strict", action="store_true",
                   help="fail (status 1) on warnings too: content that checks but does nothing")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("mechanics", help="list the mechanics installed, with their statements",
                       formatter_class=formatter)
    p.add_argument("--json", action="store_true", help="print them as JSON")
    p.set_defaults(run=cmd_mechanics)

    p = sub.add_parser("compile", help="generate and build the engine of a spec or stock variant",
                       formatter_class=formatter)
    p.add_argument("target", help=VARIANT_HELP)
    p.add_argument("--emit-only", action="store_true", help="write the generated .pyx and stop")
    p.add_argument("--out", type=output_path, help="where --emit-only writes (default: NAME.pyx in this folder)")
    p.set_defaults(run=cmd_compile)


def _add_game_commands(sub, formatter) -> None:
    """simulate, score and trace: games played, a position scored, a game recorded."""
    p = sub.add_parser("simulate", help="play random games and summarize them", formatter_class=formatter)
    p.add_argument("variant", help=VARIANT_HELP)
    p.add_argument("--players", type=whole(1), default=4, help="players per game")
    p.add_argument("--games", type=whole(1), default=1000, help="how many games")
    p.add_argument("--seed", type=integer, default=1, help="game i is played with seed SEED + i (mod 2^64)")
    p.add_argument("--engine", choices=["compiled", "reference"], default="compiled", help=ENGINE_HELP)
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar (there is none anyway when stderr is not a terminal)")
    cli_play.add_simulate_options(p)
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser("score", help="score a described position (JSON)", formatter_class=formatter)
    p.add_argument("variant", help=VARIANT_HELP)
    p.add_argument("position", help="the position file (docs/formats.md)")
    p.add_argument("--json", action="store_true", help="also print the breakdown as JSON")
    p.add_argument("--tickets", action="store_true",
                   help="also say, ticket by ticket, whether it is completed and what it scores")
    p.set_defaults(run=cmd_score)

    p = sub.add_parser("trace", help="record a seeded random game as JSON Lines", formatter_class=formatter)
    p.add_argument("variant", help=VARIANT_HELP)
    p.add_argument("--seed", type=integer, default=1, help="the game's seed (mod 2^64)")
    p.add_argument("--players", type=whole(1), default=4, help="players in the game")
    p.add_argument("--out", type=output_path, default="-", help="the trace file to write; - for standard output")
    p.add_argument("--engine", choices=["compiled", "reference"], default="compiled", help=ENGINE_HELP)
    p.add_argument("--save-state", metavar="FILE", type=output_path, default=None,
                   help="also write the game's state (Game.to_json), for `railspec render --state FILE`")
    p.add_argument("--state-at", metavar="N", type=whole(0), default=None,
                   help="with --save-state: the state after N decisions (default: at the end)")
    p.set_defaults(run=cmd_trace)


def _add_replay_commands(sub, formatter) -> None:
    """verify, perft and conformance: an engine checked against a file, or against the other."""
    p = sub.add_parser("verify", help="replay a trace and report the first divergence", formatter_class=formatter)
    p.add_argument("file", help="the trace file (JSON Lines)")
    p.add_argument("--engine", choices=["compiled", "reference", "both"], default="compiled", help=ENGINE_HELP)
    p.add_argument("--spec", help="the variant (stock name or .rail file) to replay the trace in, needed when "
                                  "the trace's is not a stock one; its spec hash must be the trace's "
                                  "(default: the stock variant the trace names)")
    p.set_defaults(run=cmd_verify)

    p = sub.add_parser("perft", help="check an engine against a perft file (counts of action sequences)",
                       formatter_class=formatter)
    p.add_argument("file", help="the perft file (JSON Lines)")
    p.add_argument("--engine", choices=["compiled", "reference", "both"], default="compiled", help=ENGINE_HELP)
    p.add_argument("--spec", help="the variant (stock name or .rail file), needed when the file's is not a "
                                  "stock one (default: the stock variant the file names)")
    p.set_defaults(run=cmd_perft)

    p = sub.add_parser("conformance", help="compare the compiled engine with the reference on random games",
                       formatter_class=formatter)
    p.add_argument("target", help=VARIANT_HELP)
    p.add_argument("--games", type=whole(1), default=200, help="how many games, one per seed")
    p.add_argument("--seed", type=integer, default=0, help="the first game's seed")
    p.add_argument("--api-every", type=whole(0), default=25,
                   help="check clone, JSON and illegal actions every N decisions (0: never)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar (there is none anyway when stderr is not a terminal)")
    p.set_defaults(run=cmd_conformance)


def main(argv: list[str] | None = None) -> int:
    """Run one command; the exit status is 0 on success, 1 when a check or verification
    fails, 2 on bad usage or input (one line on stderr, no traceback)."""
    argv, engine_command = cli_conformance.split_engine_command(sys.argv[1:] if argv is None else list(argv))
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as done:  # --help, or a usage error already printed on one line
        return done.code if isinstance(done.code, int) else 2
    args.engine_command = engine_command
    try:
        return args.run(args)
    except SpecError as err:
        print(err.format(), file=sys.stderr)
        return 1 if args.command == "check" else 2
    except (RailspecError, ValueError) as err:
        print(f"railspec: {_one_line(err)}", file=sys.stderr)
        return 2
    except OSError as err:
        where = f" {err.filename}" if err.filename else ""
        print(f"railspec: cannot use{where}: {err.strerror or err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split("\n")) or type(err).__name__
    return text if len(text) <= 2000 else text[:2000] + "…"


if __name__ == "__main__":
    sys.exit(main())
