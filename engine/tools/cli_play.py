"""The command line's agent commands: ``simulate --agents``, ``balance`` and ``render``.

    railspec simulate NAME --players N --games N --agents random,route-focus,…
    railspec balance NAME --players N --games N --agents … --seed S --out DIR [--workers N | --ray ADDRESS]
    railspec render NAME [--state FILE] --out map.svg

Kept apart from :mod:`railspec.tools.cli` because they play through the agents and write
the report; ``cli`` registers them with :func:`add_commands` and :func:`add_simulate_options`.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from ..compiler.base import files
from ..playtest import balance, report
from ..playtest.balance import DEFAULT_AGENTS
from ..playtest.render import render_svg
from ..playtest.tally import CampaignTally
from .args import (
    UsageError,
    agent_list,
    integer,
    load_variant,
    output_folder,
    output_path,
    progress,
    same_file,
    whole,
    write_text,
)


def _campaign(args, variant, variant_name: str, agents: tuple[str, ...]) -> balance.Campaign:
    """The campaign the options ask for, checked (not started: use it in a with block),
    with a progress bar on a terminal."""
    plan = balance.CampaignPlan(variant=variant_name, players=args.players, games=args.games, agents=agents,
                                seed=args.seed, engine=getattr(args, "engine", "compiled"))
    campaign = balance.Campaign(plan, workers=args.workers, ray_address=getattr(args, "ray", None))
    # the bar starts after the checks: no frame precedes an error
    campaign.bar = progress(args.games, f"{variant_name} {args.players}p", getattr(args, "quiet", False))
    campaign.progress = campaign.bar.update if campaign.bar is not None else None
    return campaign


def _close_bar(campaign: balance.Campaign) -> None:
    if campaign.bar is not None:
        campaign.bar.close()


def agent_summary(records, variant) -> list[str]:
    """Per agent: seats played, win rate (a shared win counts as a fraction), mean score,
    tickets completed per game (``records``: any iterable of campaign records)."""
    return CampaignTally(variant).add_all(records).agent_lines()


def _stopped(command: str, stop: balance.CampaignStopped, what: str) -> int:
    print(f"railspec: {command}: {stop}; {what}", file=sys.stderr)
    return 128 + stop.signum


def cmd_simulate_agents(args, variant) -> int:
    """``simulate --agents``: games of the named agents, summarized per agent (added up
    as they are played: memory does not grow with ``--games``)."""
    campaign = _campaign(args, variant, _source(variant, args.variant), args.agents)
    tally = CampaignTally(variant)
    start = time.perf_counter()
    try:
        with campaign as records:
            for record in records:
                tally.add(record)
    except balance.CampaignStopped as stop:
        return _stopped("simulate", stop, "no summary")
    finally:
        _close_bar(campaign)
    seconds = time.perf_counter() - start
    if args.save_state:
        # game 0 again, in this process: the same seeds make the same game
        first, _ = balance.played_game(variant, campaign.plan, 0)
        write_text(args.save_state, first.to_json())
    print(f"{variant.name}: {tally.games} games of {args.players} players, agents {', '.join(args.agents)}")
    print("\n".join(tally.agent_lines()))
    print(f"{tally.games} games in {seconds:.2f} s ({tally.games / seconds:,.1f} games/s, {campaign.plan.engine} "
          f"engine)")
    if args.save_state:
        print(f"wrote {args.save_state}: the final state of game 0 (railspec render {args.variant} --state "
              f"{args.save_state})")
    return 0


def _source(variant, given: str) -> str:
    """What a worker process loads: the spec file's full path when one was given, else
    the stock name."""
    path = Path(given)
    return str(path.resolve()) if path.is_file() else variant.key


def cmd_balance(args) -> int:
    """``balance``: play the campaign, writing the report folder as the games are played
    (nothing is left of it if the campaign is stopped)."""
    variant = load_variant(args.variant)
    report.require_extra()  # before any game: the report needs pandas and matplotlib
    campaign = _campaign(args, variant, _source(variant, args.variant), args.agents or DEFAULT_AGENTS)
    start = time.perf_counter()
    try:
        with campaign as records, report.ReportWriter(variant, Path(args.out), campaign.plan) as writer:
            for record in records:
                writer.add(record)
            seconds = time.perf_counter() - start
            written = writer.finish(seconds)
    except balance.CampaignStopped as stop:
        return _stopped("balance", stop, f"nothing written to {args.out}")
    finally:
        _close_bar(campaign)
    print("\n".join(writer.tally.agent_lines()))
    print(f"{writer.tally.games} games in {seconds:.2f} s ({writer.tally.games / seconds:,.1f} games/s); wrote "
          + ", ".join(str(p) for p in written))
    return 0


def cmd_render(args) -> int:
    """``render``: the map (and a game's claims and its mechanics' marks) as SVG."""
    variant = load_variant(args.variant)
    state = None
    if args.state and args.out != "-" and same_file(args.state, args.out):
        raise UsageError(f"render: --out {args.out} is the --state file: the picture would overwrite the state")
    if args.state:
        state = variant.game_from_json(files.read_text(args.state, "state file")).state()
    svg = render_svg(variant.ir, state)
    if args.out == "-":
        sys.stdout.write(svg)
    else:
        Path(args.out).write_text(svg, encoding="utf-8")
        print(f"wrote {args.out}")
    return 0


def add_commands(sub, formatter) -> None:
    """Register ``balance`` and ``render`` with the command line's subparsers."""
    variant_help = "a stock variant name (e.g. usa) or a .rail spec file"
    p = sub.add_parser("balance", help="play a campaign of agents and write the balance report",
                       formatter_class=formatter)
    p.add_argument("variant", help=variant_help)
    p.add_argument("--players", type=whole(1), default=4, help="players per game")
    p.add_argument("--games", type=whole(1), default=1000, help="games to play")
    p.add_argument("--agents", type=agent_list, default=None,
                   help="comma-separated agents, rotated through the seats game by game (default: the four "
                        f"playing styles, {', '.join(DEFAULT_AGENTS)})")
    p.add_argument("--seed", type=integer, default=1, help="the campaign seed: same seed, same games")
    p.add_argument("--out", type=output_folder, default="report", help="the report folder")
    p.add_argument("--workers", type=whole(1), default=None, help="processes (default: every core)")
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help="run the games as Ray tasks on the cluster at ADDRESS ('local' starts one here; "
                        "needs railspec[cluster]) (default: processes on this machine)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar (there is none anyway when stderr is not a terminal)")
    p.set_defaults(run=cmd_balance)

    p = sub.add_parser("render", help="draw the map (and a game's claims) as SVG", formatter_class=formatter)
    p.add_argument("variant", help=variant_help)
    p.add_argument("--state", help="a state JSON file (Game.to_json) whose claims and marks to draw "
                                   "(default: the empty map)")
    p.add_argument("--out", type=output_path, default="map.svg", help="the SVG file to write ('-': standard output)")
    p.set_defaults(run=cmd_render)


def add_simulate_options(p) -> None:
    """``simulate``'s agent options."""
    p.add_argument("--agents", type=agent_list, default=None,
                   help="play games of these agents (comma-separated, rotated through the seats) "
                        "(default: the batch of random games inside the engine)")
    p.add_argument("--workers", type=whole(1), default=None,
                   help="processes for --agents (default: every core)")
    p.add_argument("--save-state", metavar="FILE", type=output_path, default=None,
                   help="with --agents: write the final state of the campaign's first game (Game.to_json), "
                        "for `railspec render --state FILE`")


__all__ = ["add_commands", "add_simulate_options", "cmd_simulate_agents", "agent_summary"]
