"""Search for the positions whose score breakdown the compiled engine is slowest to give,
by hill-climbing on the engine's own time from the positions a mechanic names as hard to
score (``Mechanic.hard_position``), and save them.

    python bench/adversarial_positions.py [--variant europe] [--mechanic NAME] [--rounds 600] [--starts 6]
                                          [--draws 20] [--out bench/adversarial/VARIANT-MECHANIC-positions.json]

A mechanic's own hard positions are built by reasoning about its method, which may miss
what makes it slowest. From each of several of them (each the slowest of --draws), each
step changes one thing: a route changes hands (to another seat, or to nobody; the taker
gives up routes at random if its trains fall short), a held ticket is swapped with
another (held by another seat, or by nobody), or one name a mechanic's position key lists
(a station's city; ``PositionKey.names`` says what kind of name) is replaced by another
of the same kind. A position the rules refuse (``PositionError``: trains, double routes,
a station where one stands) is skipped, and a change is kept when the breakdown got
slower. The slowest positions found are written as JSON (the described position, its
time and the player 0 row of its breakdown) for the benchmark and the tests to read.

Times are CPU times, the best of three runs of --repeat breakdowns; the winner of each
start is timed again with more runs, so one lucky slow sample does not decide.
"""
from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from pathlib import Path

import railspec
from railspec.compiler.base.errors import PositionError
from railspec.compiler.mechanic import HardCases, part
from railspec.runtime.position import describer, position_fields


def timing(module, fields: dict, repeat: int) -> float:
    """The compiled breakdown's best CPU time over three runs of ``repeat``, in µs."""
    score = module.Engine.for_scoring(fields).score_breakdown
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(repeat):
            score()
        best = min(best, (time.process_time() - start) / repeat)
    return best * 1e6


def changed(variant, keys: dict[str, str], position: dict, rng: random.Random) -> dict:
    """The position with one thing changed: a route's owner, a held ticket, or one name in
    a list a mechanic adds to a seat (``keys``: such a key -> the kind of name it lists)."""
    out = copy.deepcopy(position)
    seats = out["players"]
    move = rng.random()
    if move < 0.5:  # a route changes hands; the taker gives up others if its trains fall short
        route = rng.choice(variant.routes)
        for seat in seats:
            if route.name in seat["routes"]:
                seat["routes"].remove(route.name)
        taker = rng.randrange(len(seats) + 1)
        if taker < len(seats):
            mine = seats[taker]["routes"]
            length = {r.name: r.length for r in variant.routes}
            while mine and sum(length[name] for name in mine) + route.length > variant.trains:
                mine.remove(rng.choice(mine))
            mine.append(route.name)
    elif move < 0.75 or not keys:  # a held ticket swapped with another
        holders = [seat for seat in seats if seat["tickets"]]
        if holders:
            seat = rng.choice(holders)
            mine = rng.randrange(len(seat["tickets"]))
            other = rng.choice(variant.tickets).name
            for theirs in seats:
                if other in theirs["tickets"]:
                    theirs["tickets"][theirs["tickets"].index(other)] = seat["tickets"][mine]
                    break
            seat["tickets"][mine] = other
    else:  # one name of a mechanic's key replaced by another of its kind
        key = rng.choice(sorted(keys))
        holders = [seat for seat in seats if seat.get(key)]
        if holders:
            seat = rng.choice(holders)
            pool = {"city": variant.cities, "route": variant.routes, "ticket": variant.tickets}[keys[key]]
            seat[key][rng.randrange(len(seat[key]))] = rng.choice(pool).name
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="europe")
    parser.add_argument("--mechanic", help="a mechanic of the variant that names hard positions (default: the first)")
    parser.add_argument("--rounds", type=int, default=600, help="changes tried from each start")
    parser.add_argument("--starts", type=int, default=6)
    parser.add_argument("--draws", type=int, default=20, help="hard positions drawn for each start, the slowest kept")
    parser.add_argument("--repeat", type=int, default=10, help="breakdowns a timing runs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=int, default=8, help="positions saved")
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    variant = railspec.load(args.variant)
    ir = variant.ir
    offering = [(m, rule) for m, rule in ir.present()
                if part(m, HardCases).hard_position(ir, rule, random.Random(0)) is not None]
    names = [m.name for m, _ in offering]
    if not offering or (args.mechanic is not None and args.mechanic not in names):
        parser.error(f"in {variant.key}, {', '.join(names) or 'no mechanic'} names positions hard to score")
    mechanic, rule = next((m, r) for m, r in offering if args.mechanic in (None, m.name))
    keys = {key.name: key.names for m, _ in ir.present() if (d := describer(m)) is not None
            for key in d.position_keys if key.names}
    module = variant.module()
    rng = random.Random(args.seed)
    found = []
    for start in range(args.starts):
        best, position = -1.0, None
        for _ in range(args.draws):  # the climb starts from the slowest of a few draws
            drawn = part(mechanic, HardCases).hard_position(ir, rule, random.Random(rng.getrandbits(32)))
            t = timing(module, position_fields(ir, drawn), args.repeat)
            if t > best:
                best, position = t, drawn
        first, refused, kept = best, 0, 0
        for step in range(args.rounds):
            candidate = changed(ir, keys, position, rng)
            try:
                fields = position_fields(ir, candidate)
            except PositionError:
                refused += 1
                continue
            t = timing(module, fields, args.repeat)
            if t > best:
                position, best = candidate, t
                kept += 1
            elif step % 100 == 99:  # a lucky slow sample must not stop the climb for good
                best = timing(module, position_fields(ir, position), args.repeat)
        fields = position_fields(ir, position)
        best = timing(module, fields, 10 * args.repeat)
        row = module.Engine.for_scoring(fields).score_breakdown()[0]
        found.append({"us": round(best, 2), "row": dict(row), "position": position})
        print(f"start {start}: {first:7.1f} µs at the start, {best:7.1f} µs found ({kept} changes kept, "
              f"{refused} refused by the rules)", flush=True)
    found.sort(key=lambda f: -f["us"])
    out = Path(args.out or f"bench/adversarial/{variant.key}-{mechanic.name}-positions.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"variant": variant.key, "spec_hash": variant.spec_hash, "mechanic": mechanic.name,
                               "made_by": " ".join(["bench/adversarial_positions.py", *sys.argv[1:]]),
                               "positions": found[:args.keep]}, indent=1, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    print(f"wrote {out}: worst {found[0]['us']:.1f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
