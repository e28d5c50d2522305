"""The command line's agent commands: ``simulate --agents``, ``balance`` and ``render``.

    railspec simulate NAME --players N --games N --agents random,route-focus,…
    railspec balance NAME --players N --games N --agents … --seed S --out DIR [--workers N | --ray ADDRESS]
    railspec render NAME [--state FILE] --out map.svg

Kept apart from :mod:`railspec.cli` because they play through the agents and write the
report; ``cli`` registers them with :func:`add_commands`.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def agent_list(text: str) -> tuple[str, ...]:
    """``--agents``: comma-separated agent names, each one known."""
    from .agents import AGENTS
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise argparse.ArgumentTypeError("name at least one agent")
    unknown = [n for n in names if n not in AGENTS]
    if unknown:
        raise argparse.ArgumentTypeError(f"no agent named {unknown[0]!r}; the agents are {', '.join(AGENTS)}")
    return names


def positive(text: str) -> int:
    """A whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _bar(total: int, desc: str, quiet: bool):
    """A progress bar with games/s and an ETA, on a terminal only."""
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm
    return tqdm(total=total, desc=desc, unit="game", file=sys.stderr, dynamic_ncols=True)


def _campaign(args, variant_name: str, agents: tuple[str, ...]):
    from . import balance
    plan = balance.CampaignPlan(variant=variant_name, players=args.players, games=args.games, agents=agents,
                                seed=args.seed)
    bar = _bar(args.games, f"{variant_name} {args.players}p", getattr(args, "quiet", False))
    start = time.perf_counter()
    try:
        records = balance.run_campaign(plan, workers=args.workers, ray_address=getattr(args, "ray", None),
                                       progress=bar.update if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    return plan, records, time.perf_counter() - start


def agent_summary(records: list[dict]) -> list[str]:
    """Per agent: seats played, win rate (a shared win counts as a fraction), mean score,
    tickets completed per game."""
    table: dict[str, list[float]] = {}
    for rec in records:
        winners = sum(1 for s in rec["seats"] if s["winner"])
        for s in rec["seats"]:
            row = table.setdefault(s["agent"], [0, 0.0, 0.0, 0.0])
            row[0] += 1
            row[1] += 1.0 / winners if s["winner"] else 0.0
            row[2] += s["score"]
            row[3] += len(s["completed"])
    lines = [f"{'agent':20} {'seats':>6} {'win rate':>9} {'mean score':>11} {'tickets/game':>13}"]
    for name, (n, wins, score, tickets) in sorted(table.items()):
        lines.append(f"{name:20} {n:>6} {wins / n:>9.3f} {score / n:>11.1f} {tickets / n:>13.2f}")
    return lines


def cmd_simulate_agents(args, variant) -> int:
    """``simulate --agents``: games of the named agents, summarized per agent."""
    plan, records, seconds = _campaign(args, _source(variant, args.variant), args.agents)
    print(f"{variant.name}: {len(records)} games of {args.players} players, agents {', '.join(args.agents)}")
    print("\n".join(agent_summary(records)))
    print(f"{len(records)} games in {seconds:.2f} s ({len(records) / seconds:,.1f} games/s)")
    return 0


def _source(variant, given: str) -> str:
    """What a worker process loads: the spec file's full path when one was given, else
    the stock name."""
    path = Path(given)
    return str(path.resolve()) if path.is_file() else variant.key


def cmd_balance(args) -> int:
    """``balance``: play the campaign and write the report folder."""
    from .cli import _load
    variant = _load(args.variant)
    try:
        from . import report
        report._need()
    except ImportError as err:
        print(f"railspec: {err}", file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"railspec: --out {out} exists and is not a folder", file=sys.stderr)
        return 2
    plan, records, seconds = _campaign(args, _source(variant, args.variant), args.agents)
    written = report.write_report(variant, records, out, plan, seconds)
    print("\n".join(agent_summary(records)))
    print(f"{len(records)} games in {seconds:.2f} s ({len(records) / seconds:,.1f} games/s); wrote "
          + ", ".join(str(p) for p in written))
    return 0


def cmd_render(args) -> int:
    """``render``: the map (and a game's claims) as SVG."""
    from .cli import _load
    from .render import render_svg
    variant = _load(args.variant)
    state = None
    if args.state:
        try:
            game = variant.game_from_json(Path(args.state).read_text(encoding="utf-8"))
        except OSError as err:
            print(f"railspec: cannot read state {args.state}: {err.strerror}", file=sys.stderr)
            return 2
        state = game.state()
    svg = render_svg(variant.ir, state)
    if args.out == "-":
        sys.stdout.write(svg)
        return 0
    try:
        Path(args.out).write_text(svg, encoding="utf-8")
    except OSError as err:
        print(f"railspec: cannot write {args.out}: {err.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}")
    return 0


def add_commands(sub, defaults_formatter=argparse.ArgumentDefaultsHelpFormatter) -> None:
    """Register ``balance`` and ``render`` with the command line's subparsers."""
    from .balance import DEFAULT_AGENTS
    p = sub.add_parser("balance", help="play a campaign of agents and write the balance report",
                       formatter_class=defaults_formatter)
    p.add_argument("variant", help="a stock variant name or a .rail file")
    p.add_argument("--players", type=positive, default=4, help="players per game")
    p.add_argument("--games", type=positive, default=1000, help="games to play")
    p.add_argument("--agents", type=agent_list, default=DEFAULT_AGENTS,
                   help="comma-separated agents, rotated through the seats game by game")
    p.add_argument("--seed", type=int, default=1, help="the campaign seed: same seed, same games")
    p.add_argument("--out", default="report", help="the report folder")
    p.add_argument("--workers", type=positive, default=None, help="processes (default: every core)")
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help="run on a Ray cluster ('local' starts one here; needs railspec[cluster])")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_balance)

    p = sub.add_parser("render", help="draw the map (and a game's claims) as SVG", formatter_class=defaults_formatter)
    p.add_argument("variant", help="a stock variant name or a .rail file")
    p.add_argument("--state", help="a state JSON file (Game.to_json) whose claims and stations to draw")
    p.add_argument("--out", default="map.svg", help="the SVG file to write ('-': standard output)")
    p.set_defaults(run=cmd_render)


def add_simulate_options(p) -> None:
    """``simulate``'s agent options."""
    p.add_argument("--agents", type=agent_list, default=None,
                   help="play these agents (comma-separated) instead of the batch of random games")
    p.add_argument("--workers", type=positive, default=None, help="processes for --agents (default: every core)")


__all__ = ["add_commands", "add_simulate_options", "cmd_simulate_agents", "agent_summary"]
