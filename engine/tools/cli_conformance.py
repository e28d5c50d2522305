"""The command line's conformance kit for other engines (docs/conformance.md):

    railspec suite export VARIANT --out DIR [--games N] [--seed S]
    railspec test-engine VARIANT [--vectors DIR | --games N --seed S] [--checks …] -- COMMAND ARGS…
    railspec export VARIANT [--out FILE] | railspec export --schema

``cli`` registers them with :func:`add_commands`.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import driver, export, schemas, vectors
from .args import UsageError, integer, load_variant, output_folder, output_path, whole, write_text


def cmd_suite_export(args) -> int:
    """``suite export``: the test vectors and their schemas."""
    variant = load_variant(args.variant)
    made_by = f"railspec suite export {args.variant} --games {args.games} --seed {args.seed}"
    written = vectors.export(variant, Path(args.out), games=args.games, seed=args.seed, made_by=made_by)
    for path in written:
        print(f"wrote {path}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """``export``: the variant as JSON (docs/formats.md, "Variant"), or with ``--schema``
    the format's JSON Schema."""
    if args.schema == bool(args.variant):
        raise UsageError("export: give a VARIANT to export, or --schema for the format's schema (not both)")
    document = schemas.variant_schema() if args.schema else export.variant_document(load_variant(args.variant))
    text = json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        write_text(args.out, text)
    return 0


def _cases(args, variant) -> dict:
    if args.vectors:
        folder = Path(args.vectors)
        if not folder.is_dir():
            raise UsageError(f"test-engine: --vectors {args.vectors}: no such folder")
        cases = {}
        for kind in vectors.KINDS:
            path = folder / f"{kind}.jsonl"
            if path.exists():
                _, cases[kind] = vectors.read(path, variant)
        if not cases:
            raise UsageError(f"test-engine: {args.vectors} holds no games.jsonl, scores.jsonl or perft.jsonl")
        return cases
    return {kind: vectors.records(variant, kind, args.games, args.seed) for kind in vectors.KINDS}


def split_engine_command(argv: list[str]) -> tuple[list[str], list[str]]:
    """``test-engine``'s own arguments and, after ``--``, the engine's command (which may
    hold options of its own: they are the engine's, not railspec's)."""
    if "test-engine" in argv and "--" in argv and argv.index("test-engine") < argv.index("--"):
        cut = argv.index("--")
        return argv[:cut], argv[cut + 1:]
    return argv, []


def cmd_test_engine(args) -> int:
    """``test-engine``: drive the engine through the cases; status 0 when every case
    passed, 1 otherwise."""
    command = list(getattr(args, "engine_command", []))
    if not command:
        raise UsageError("test-engine: give the engine's command after --: railspec test-engine usa -- "
                         "python my_engine.py")
    variant = load_variant(args.variant)
    checks = tuple(args.checks) if args.checks else driver.CHECKS
    report = driver.run(variant, command, _cases(args, variant), checks=checks, timeout=args.timeout,
                        max_line=args.max_line)
    print(f"{variant.name} (spec {variant.spec_hash}), engine: {report.engine or ' '.join(command)}")
    for divergence in report.divergences[:args.show]:
        print(divergence)
    if len(report.divergences) > args.show:
        print(f"… and {len(report.divergences) - args.show} more cases that differ")
    if report.failure is not None:
        print(report.failure)
        for line in report.failure.stderr[-10:]:
            print(f"  stderr: {line}")
    print(report.table())
    if report.failure is None and not report.divergences and not sum(report.run.values()):
        print("no case ran: the engine supports none of the checks asked for, or the vectors hold none of their cases")
    print("passed" if report.ok else "FAILED")
    return 0 if report.ok else 1


def _checks(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in driver.CHECKS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"the checks are {', '.join(driver.CHECKS)}, not {text!r}")
    return names


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text} seconds: give more than 0 and at most 3600")
    return value


def add_commands(sub, formatter) -> None:
    """Register ``suite``, ``test-engine`` and ``export`` with the command line's subparsers."""
    variant_help = "a stock variant name (e.g. usa) or a .rail spec file"
    suite = sub.add_parser("suite", help="the conformance kit's files for other engines", formatter_class=formatter)
    actions = suite.add_subparsers(dest="suite_command", required=True, metavar="export",
                                   help="export: write the test vectors and their schemas")
    p = actions.add_parser("export", help="write the test vectors (games, scores, perft) and their JSON Schemas",
                           formatter_class=formatter)
    p.add_argument("variant", help=variant_help)
    p.add_argument("--out", type=output_folder, required=True, help="the folder to write into")
    p.add_argument("--games", type=whole(1), default=10, help="random games (and scored game positions)")
    p.add_argument("--seed", type=integer, default=1, help="game i is seeded SEED + i: same seed, same files")
    p.set_defaults(run=cmd_suite_export)

    p = sub.add_parser("test-engine", help="drive another engine through the vectors over the driver protocol",
                       formatter_class=formatter)
    p.add_argument("variant", help=variant_help)
    p.add_argument("--vectors", metavar="DIR", help="the vectors to run (railspec suite export) "
                                                    "(default: fresh ones from --games and --seed)")
    p.add_argument("--games", type=whole(1), default=10, help="fresh random games, without --vectors")
    p.add_argument("--seed", type=integer, default=1, help="the fresh games' seed, without --vectors")
    p.add_argument("--checks", type=_checks, default=None,
                   help=f"comma-separated, of {', '.join(driver.CHECKS)} (default: all the engine supports)")
    p.add_argument("--timeout", type=_seconds, default=driver.TIMEOUT, help="seconds an answer may take")
    p.add_argument("--max-line", type=whole(1), default=driver.MAX_LINE, help="the longest answer line, in bytes")
    p.add_argument("--show", type=whole(0), default=5, help="divergences printed in full")
    p.epilog = "After the options, -- and the engine's command with its own arguments."
    p.set_defaults(run=cmd_test_engine)

    p = sub.add_parser("export", help="print a variant as JSON (its map, tickets, decks and rules) for other engines",
                       formatter_class=formatter)
    p.add_argument("variant", nargs="?", help=f"{variant_help} (none with --schema)")
    p.add_argument("--out", type=output_path, default="-", help="the file to write ('-': standard output)")
    p.add_argument("--schema", action="store_true", help="print the JSON Schema of the format instead")
    p.set_defaults(run=cmd_export)


__all__ = ["add_commands", "cmd_export", "cmd_suite_export", "cmd_test_engine"]
