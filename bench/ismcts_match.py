"""ISMCTS against every scripted agent, two players: the search's strength as a figure.

    python bench/ismcts_match.py [--variant usa] [--games 200] [--iterations 200] [--horizon none]
                                 [--confidence none] [--workers N]

For each scripted agent, GAMES seeded games of ISMCTS against it, the seats alternating
(balance.run_campaign rotates the agents), on every core. Prints ISMCTS's win rate with
its 95% Wilson interval (a shared win counts as half), the mean score margin, and the
search's speed. A script behind ``make ismcts-match``, not a test: it takes minutes.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
import warnings

import railspec
from railspec.playtest import balance
from railspec.playtest.agents.ismcts import IsmctsAgent

OPPONENTS = ("one-step", "long-route", "route-focus", "destination-hungry", "greedy")
_DEFAULT = object()  # an option left to the agent's default


def _optional(kind):
    """An argument type: ``kind``, or None for 'none'."""
    def parse(text: str):
        return None if text.lower() == "none" else kind(text)
    return parse


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="usa")
    parser.add_argument("--games", type=int, default=200, help="games against each scripted agent")
    parser.add_argument("--iterations", type=int, default=200, help="ISMCTS iterations per decision")
    parser.add_argument("--depth", type=int, default=2, help="ISMCTS tree levels after the root action")
    parser.add_argument("--horizon", type=_optional(int), default=_DEFAULT, help="decisions a rollout plays before "
                        "the value estimate ('none': to the end; default: the agent's)")
    parser.add_argument("--confidence", type=_optional(float), default=_DEFAULT, help="standard errors by which a "
                        "root action must be beaten to be dropped ('none': never; default: the agent's)")
    parser.add_argument("--rollout-style", default=None, help="ISMCTS's own style in its playouts")
    parser.add_argument("--opponent-styles", default=None, help="comma-separated styles ISMCTS's playouts "
                        "draw the opponents' from")
    parser.add_argument("--opponents", default=",".join(OPPONENTS), help="comma-separated scripted agents")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None, help="processes (default: every core)")
    args = parser.parse_args()
    warnings.simplefilter("ignore", railspec.ProvisionalSpecWarning)
    options = {"iterations": args.iterations, "depth": args.depth}
    for name in ("horizon", "confidence"):
        if getattr(args, name) is not _DEFAULT:
            options[name] = getattr(args, name)
    shown = IsmctsAgent(**options)
    print(f"{args.variant}, 2 players: ISMCTS ({args.iterations} iterations, depth {args.depth}, horizon "
          f"{shown.horizon}, confidence {shown.confidence}) against each scripted agent, "
          f"{args.games} games each, seats alternating")
    print(f"  {'opponent':20} {'ISMCTS wins':>12} {'win rate':>9} {'95% interval':>15} {'margin':>7} {'s/game':>7}")
    beaten = 0
    if args.rollout_style:
        options["rollout_style"] = args.rollout_style
    if args.opponent_styles:
        options["opponent_styles"] = tuple(args.opponent_styles.split(","))
    opponents = [name for name in args.opponents.split(",") if name]
    for opponent in opponents:
        plan = balance.CampaignPlan(args.variant, 2, args.games, ("ismcts", opponent), seed=args.seed,
                                    agent_options={"ismcts": options})
        start = time.perf_counter()
        records = balance.run_campaign(plan, workers=args.workers)
        seconds = time.perf_counter() - start
        wins = margin = 0.0
        first = [0.0, 0]  # ISMCTS's wins and games in the first seat
        for rec in records:
            seats = rec["seats"]
            mine = next(s for s in seats if s["agent"] == "ismcts")
            theirs = next(s for s in seats if s["agent"] != "ismcts")
            winners = sum(1 for s in seats if s["winner"])
            won = 1.0 / winners if mine["winner"] else 0.0
            wins += won
            margin += mine["score"] - theirs["score"]
            if seats[0] is mine:
                first[0] += won
                first[1] += 1
        low, high = wilson(wins, len(records))
        beaten += low > 0.5
        print(f"  {opponent:20} {wins:>12g} {wins / len(records):>9.3f} {f'[{low:.3f}, {high:.3f}]':>15} "
              f"{margin / len(records):>+7.1f} {seconds / len(records):>7.2f}"
              f"   (first seat {first[0]:g}/{first[1]}, second {wins - first[0]:g}/{len(records) - first[1]})",
              flush=True)
    print(f"ISMCTS wins more than half of its games, the whole 95% interval above one half, against "
          f"{beaten} of {len(opponents)} scripted agents")
    return 0


if __name__ == "__main__":
    sys.exit(main())
