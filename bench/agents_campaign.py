"""Every agent on every stock variant that loads: GAMES games each, none may make an
illegal move (agents.play raises AgentError on the first one). Prints, per variant, each
agent's win rate and ticket completion against the others, so the styles can be told
apart. A script behind ``make agents-campaign``, not a test.

    python bench/agents_campaign.py [--games 1000] [--ismcts-games 1000] [--ismcts-iterations 20] [--workers N]

Each scripted agent plays GAMES games at the variant's largest player count up to 4,
seated with the other agents in rotation. ISMCTS, far slower, plays --ismcts-games
two-player games against the other agents in turn, at --ismcts-iterations per decision:
enough to walk every kind of decision, far below its playing strength's budget (its
strength is bench/ismcts_match.py's figure).
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings

import railspec
from railspec.compiler import stock_names
from railspec.playtest import balance
from railspec.tools.cli_play import agent_summary

SCRIPTED = ("random", "one-step", "long-route", "route-focus", "destination-hungry", "greedy")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per scripted agent and variant")
    parser.add_argument("--ismcts-games", type=int, default=1000, help="games of ISMCTS per variant")
    parser.add_argument("--ismcts-iterations", type=int, default=20, help="ISMCTS iterations per decision")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    args = parser.parse_args()
    warnings.simplefilter("ignore", railspec.ProvisionalSpecWarning)
    for name in stock_names():
        try:
            v = railspec.load(name)
        except railspec.UnsupportedMechanicError:
            continue
        players = min(4, v.ir.max_players)
        # every scripted agent sits in GAMES games: the campaign has GAMES * agents / players games
        games = -(-args.games * len(SCRIPTED) // players)
        start = time.perf_counter()
        records = balance.run_campaign(balance.CampaignPlan(name, players, games, SCRIPTED, seed=1),
                                       workers=args.workers)
        seconds = time.perf_counter() - start
        print(f"{v.name}: {games} games of {players} players, every scripted agent in {args.games} of them, "
              f"no illegal action ({games / seconds:,.1f} games/s)")
        print("\n".join(agent_summary(records, v)))
        if args.ismcts_games:
            start = time.perf_counter()
            records = []
            for k, opponent in enumerate(SCRIPTED):
                games_each = args.ismcts_games // len(SCRIPTED) + (k < args.ismcts_games % len(SCRIPTED))
                plan = balance.CampaignPlan(name, 2, games_each, ("ismcts", opponent), seed=1 + k,
                                            agent_options={"ismcts": {"iterations": args.ismcts_iterations}})
                records += balance.run_campaign(plan, workers=args.workers)
            print(f"  ISMCTS ({args.ismcts_iterations} iterations) against each other agent in turn, 2 players, "
                  f"{len(records)} games, no illegal action ({time.perf_counter() - start:.0f} s):")
            print("  " + "\n  ".join(agent_summary(records, v)))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
