"""Every agent on every stock variant that loads: GAMES games each, none may make an
illegal move (agents.play raises AgentError on the first one). Prints, per variant, each
agent's win rate and ticket completion against the others, so the styles can be told
apart. A script behind ``make agents-campaign``, not a test.

    python bench/agents_campaign.py [--games 1000] [--ismcts-games 50] [--ismcts-iterations 20] [--workers N]

Each agent plays GAMES games at the variant's largest player count up to 4, seated with
the other agents in rotation (ISMCTS, far slower, plays --ismcts-games against random).
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings

import railspec
from railspec import balance
from railspec.cli_play import agent_summary

SCRIPTED = ("random", "one-step", "long-route", "route-focus", "destination-hungry", "greedy")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per scripted agent and variant")
    parser.add_argument("--ismcts-games", type=int, default=50, help="games of ISMCTS per variant")
    parser.add_argument("--ismcts-iterations", type=int, default=20, help="ISMCTS iterations per decision")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    args = parser.parse_args()
    warnings.simplefilter("ignore", railspec.ProvisionalSpecWarning)
    from railspec.compiler import stock_names
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
        print("\n".join(agent_summary(records)))
        if args.ismcts_games:
            start = time.perf_counter()
            plan = balance.CampaignPlan(name, 2, args.ismcts_games, ("ismcts", "random"), seed=1,
                                        agent_options={"ismcts": {"iterations": args.ismcts_iterations}})
            records = balance.run_campaign(plan, workers=args.workers)
            print(f"  ISMCTS ({args.ismcts_iterations} iterations) against random, 2 players, "
                  f"{args.ismcts_games} games, no illegal action ({time.perf_counter() - start:.0f} s):")
            print("  " + "\n  ".join(agent_summary(records)))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
