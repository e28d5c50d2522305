"""Search for the networks on which a per-player query of the compiled engine is slowest
(the longest path), by hill-climbing on the engine's own time, and save them.

    python bench/adversarial_networks.py [--variant usa] [--query NAME] [--rounds 400] [--starts 6]
                                         [--out bench/adversarial/VARIANT-QUERY.json]

The query is one a mechanic offers per player (``Mechanic.queries``; by default the
variant's first). Random dense clusters (its ``hard_board``) are not the worst case: networks with
many dead-end branches or long chains between cycles can be far slower. From several random
starts, each step swaps one route of the player's network for another that keeps it within
the trains (one track of a double route at most, every route touching the network) and
keeps the swap when the query got slower. The slowest networks found are written as JSON
(route names, the time, and the query's answer) for the benchmark and the tests to read.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import railspec
from railspec.compiler.mechanic import Questions, part


def timing(engine_for, query: str, owned: set[int], repeat: int = 30) -> float:
    """The compiled query's best time over ``repeat`` calls, in µs, on player 0's network."""
    game = engine_for(owned)
    ask = getattr(game, query)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            ask(0)
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1e6


def neighbours(routes, owned: set[int], trains: int, rng: random.Random) -> set[int] | None:
    """A swap: one owned route out, one route in that touches what remains and fits."""
    if not owned:
        return None
    out = rng.choice(sorted(owned))
    kept = owned - {out}
    cities = {c for r in kept for c in (routes[r].a, routes[r].b)} or {routes[out].a}
    groups = {routes[r].group for r in kept}
    left = trains - sum(routes[r].length for r in kept)
    fits = [r.id for r in routes if r.id not in owned and r.group not in groups and r.length <= left
            and (r.a in cities or r.b in cities)]
    if not fits:
        return None
    return kept | {rng.choice(fits)}


def grow(routes, trains: int, rng: random.Random) -> set[int]:
    """A random connected network spending the trains."""
    owned: set[int] = set()
    cities = {rng.choice(routes).a}
    left = trains
    while True:
        groups = {routes[r].group for r in owned}
        fits = [r.id for r in routes if r.id not in owned and r.group not in groups and r.length <= left
                and (r.a in cities or r.b in cities)]
        if not fits:
            return owned
        # the shortest routes first, mostly: more routes, more branches and cycles
        shortest = min(routes[r].length for r in fits)
        pick = routes[rng.choice([r for r in fits if routes[r].length <= shortest + rng.choice((0, 0, 1, 2))])]
        owned.add(pick.id)
        cities.update((pick.a, pick.b))
        left -= pick.length


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="usa")
    parser.add_argument("--query", help="a per-player question a mechanic of the variant answers (default: the first)")
    parser.add_argument("--rounds", type=int, default=400, help="swaps tried from each start")
    parser.add_argument("--starts", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=int, default=8, help="networks saved")
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    variant = railspec.load(args.variant)
    offered = [q.name for mechanic, _ in variant.ir.present() for q in part(mechanic, Questions).queries if q.player]
    if not offered or (args.query is not None and args.query not in offered):
        parser.error(f"{variant.key} answers {', '.join(offered) or 'no per-player question'}")
    args.query = args.query or offered[0]
    routes = list(variant.ir.routes)
    module = variant.module()

    def engine_for(owned):
        return module.Engine.for_scoring({"players": 2, "owner": [0 if r.id in owned else -1 for r in routes]})
    rng = random.Random(args.seed)
    found = []
    for start in range(args.starts):
        owned = grow(routes, variant.ir.trains, rng)
        best = timing(engine_for, args.query, owned)
        for _ in range(args.rounds):
            candidate = neighbours(routes, owned, variant.ir.trains, rng)
            if candidate is None:
                continue
            t = timing(engine_for, args.query, candidate)
            if t > best:
                owned, best = candidate, t
        # time the winner again, so one lucky slow sample does not decide
        best = timing(engine_for, args.query, owned, repeat=100)
        answer = getattr(engine_for(owned), args.query)(0)
        found.append({"routes": sorted(routes[r].name for r in owned), "us": round(best, 2), "answer": answer,
                      "cars": sum(routes[r].length for r in owned)})
        print(f"start {start}: {best:8.1f} µs, {len(owned)} routes, {found[-1]['cars']} cars, answer {answer}",
              flush=True)
    found.sort(key=lambda f: -f["us"])
    out = Path(args.out or f"bench/adversarial/{variant.key}-{args.query}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"variant": variant.key, "spec_hash": variant.spec_hash, "query": args.query,
                               "made_by": " ".join(["bench/adversarial_networks.py", *sys.argv[1:]]),
                               "networks": found[:args.keep]}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}: worst {found[0]['us']:.1f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
