"""railspec benchmark: speed of the compiled engine, as ratios against the reference
interpreter measured in the same run. A script, not a test: nothing here asserts a time.

    python bench/benchmark.py [--variant NAME …] [--games 20000] [--quick] [--repeat 3]

Prints the machine, the random generator, and, for every stock variant the engines play
(or the ones named):
  - random playouts at the variant's largest player count up to 4: games/s and
    decisions/s in the batch loop (no GIL) and through the Python API (legal_actions()
    lists, and legal_actions_into() buffers), each as a ratio to the reference;
then a summary line per variant; for each question a mechanic of the variant answers per
player (``Mechanic.queries``: the longest path):
  - its time on end-of-game boards and on the boards the mechanic names as its hard case
    (the longest path's: dense clusters spending a player's every train), mean and worst
    µs per player, against the reference;
and for USA:
  - games of the four scripted playing styles (4 players, one core): games/s and
    decisions/s on each engine; ISMCTS decisions/s at a stated number of iterations;
  - cold and cached compile time of a user spec (a fresh cache folder, separate processes).

Each speed is the best of --repeat runs (as timeit reports): on a shared machine the
slower runs measure the neighbours, not the engine.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from array import array
from pathlib import Path

import railspec
from railspec.compiler import stock_names
from railspec.compiler.base.rng import AGENT_SALT, agent_for
from railspec.playtest import agents
from railspec.playtest.agents.ismcts import IsmctsAgent
from railspec.runtime import reference


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import Cython
    return (f"{cpu}; {os.cpu_count()} cores; Python {platform.python_version()}; Cython {Cython.__version__}; "
            f"{platform.system()} {platform.release()}")


REPEAT = 3


def timed(fn, *args):
    """The best time of REPEAT calls, and the last result."""
    best = float("inf")
    for _ in range(REPEAT):
        start = time.perf_counter()
        result = fn(*args)
        best = min(best, time.perf_counter() - start)
    return best, result


def api_games(v, games: int, players: int, seed: int, engine: str, buffered: bool) -> tuple[float, int]:
    """Random games through the Python API with the documented agent (best of REPEAT runs)."""
    best, decisions = float("inf"), 0
    for _ in range(REPEAT):
        elapsed, decisions = _api_games_once(v, games, players, seed, engine, buffered)
        best = min(best, elapsed)
    return best, decisions


def _api_games_once(v, games: int, players: int, seed: int, engine: str, buffered: bool) -> tuple[float, int]:
    decisions = 0
    buffer = array("i", [0] * len(v.actions))
    start = time.perf_counter()
    for i in range(games):
        g = v.new_game(players=players, seed=seed + i, engine=engine)
        agent = agent_for(seed + i)
        if buffered:
            while not g.is_over:
                n = g.legal_actions_into(buffer)
                g.apply(buffer[agent.below(n)])
                decisions += 1
        else:
            while not g.is_over:
                legal = g.legal_actions()
                g.apply(legal[agent.below(len(legal))])
                decisions += 1
    return time.perf_counter() - start, decisions


def end_boards(v, games: int) -> list[tuple[dict, int]]:
    """End-of-game boards: (state, player) for every player of some random 4-player games."""
    out = []
    for i in range(games):
        g = v.new_game(players=4, seed=500 + i)
        agent = agent_for(500 + i)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[agent.below(len(legal))])
        out += [(g.state(), p) for p in range(4)]
    return out


def hard_boards(v, query, count: int) -> list[tuple[dict, int]]:
    """The query's hard case (``Query.hard_board``): (scoring fields, player 0) for each.
    A board is the routes player 0 owns, or (those routes, the tickets they hold)."""
    out = []
    for i in range(count):
        board = query.hard_board(v.ir, random.Random(9000 + i))
        routes, tickets = board if isinstance(board, tuple) else (board, [])
        chosen = set(routes)
        fields = {"players": 2, "owner": [0 if r.id in chosen else -1 for r in v.routes]}
        if tickets:
            fields["tickets"] = [list(tickets), []]
        out.append((fields, 0))
    return out


def query_report(v, query, label: str, boards, whole_states: bool) -> None:
    """Compiled and reference time of one query, mean and worst, µs per player; a board is
    a whole state (``whole_states``) or the fields scoring reads."""
    module = v.module()
    cars = [sum(r.length for r in v.routes if state["owner"][r.id] == p) for state, p in boards]
    repeat = 20
    compiled, slow = [], []
    for state, player in boards:
        if whole_states:
            fast_game = module.Engine.from_state(state)
            slow_game = reference.ReferenceEngine.from_state(v.ir, state)
        else:
            fast_game, slow_game = module.Engine.for_scoring(state), reference.for_scoring(v.ir, state)
        ask_fast, ask_slow = getattr(fast_game, query.name), getattr(slow_game, query.name)
        seconds, _ = timed(lambda ask=ask_fast, player=player: [ask(player) for _ in range(repeat)])
        compiled.append(seconds / repeat * 1e6)
        slow.append(timed(ask_slow, player)[0] * 1e6)
    print(f"  {label}: {len(boards)} boards, {statistics.fmean(cars):.0f} of the player's cars on average")
    print(f"    compiled  mean {statistics.fmean(compiled):8,.1f} µs   worst {max(compiled):8,.1f} µs")
    print(f"    reference mean {statistics.fmean(slow):8,.1f} µs   worst {max(slow):8,.1f} µs   "
          f"({statistics.fmean(slow) / statistics.fmean(compiled):,.0f}× the compiled mean)")


COMPILE_SNIPPET = textwrap.dedent("""
    import sys, time
    start = time.perf_counter()
    import railspec
    v = railspec.load(sys.argv[1])
    checked = time.perf_counter()
    v.module()
    print(checked - start, time.perf_counter() - checked)
""")


def compile_times(v) -> list[tuple[float, float]]:
    """Cold and cached load of a user spec, each in a fresh process with its own cache:
    (import + parse + check seconds, emit + build or cache-fetch seconds) for each."""
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "my_usa.rail"
        spec.write_text('extends "usa"\nvariant "My USA"\nwithout route Seattle - Portland\n'
                        'route Seattle - Portland 2 red\n', encoding="utf-8")
        env = dict(os.environ, RAILSPEC_CACHE=str(Path(tmp) / "cache"))
        times = []
        for _ in range(2):
            p = subprocess.run([sys.executable, "-c", COMPILE_SNIPPET, str(spec)], env=env,
                               capture_output=True, text=True, check=True)
            load, build = p.stdout.strip().splitlines()[-1].split()
            times.append((float(load), float(build)))
        return times


def playable_variants() -> list[str]:
    """The stock variants the engines play."""
    out = []
    for name in stock_names():
        try:
            railspec.load(name)
        except railspec.UnsupportedMechanicError:
            continue
        out.append(name)
    return out


def playouts(v, games: int, scale: float) -> dict:
    """The playout figures of one variant, printed as a table; returns the summary."""
    players = min(4, v.ir.max_players)
    v.module()
    ref_games = max(5, int(100 * scale))
    t_batch, batch = timed(v.playout, games, players, 1)
    batch_decisions = sum(batch["decisions"])
    t_ref, ref = timed(v.playout, ref_games, players, 1, "reference")
    ref_decisions = sum(ref["decisions"])
    api_n = max(20, int(1000 * scale))
    t_api, api_decisions = api_games(v, api_n, players, 1, "compiled", buffered=False)
    t_buf, buf_decisions = api_games(v, api_n, players, 1, "compiled", buffered=True)
    t_api_ref, api_ref_decisions = api_games(v, ref_games, players, 1, "reference", buffered=False)
    ref_batch = (ref_games / t_ref, ref_decisions / t_ref)
    ref_api = (ref_games / t_api_ref, api_ref_decisions / t_api_ref)
    rows = [  # (label, games/s, decisions/s, the reference figures it is compared with)
        ("compiled, batch loop (no GIL)", games / t_batch, batch_decisions / t_batch, ref_batch),
        ("reference, batch loop", *ref_batch, ref_batch),
        ("compiled, API legal_actions()", api_n / t_api, api_decisions / t_api, ref_api),
        ("compiled, API legal_actions_into()", api_n / t_buf, buf_decisions / t_buf, ref_api),
        ("reference, API legal_actions()", *ref_api, ref_api),
    ]
    print(f"{v.name}, {players} players:")
    print(f"  {'playouts':36} {'games/s':>10} {'decisions/s':>13} {'× reference':>12}")
    for label, gps, dps, (base_gps, _base_dps) in rows:
        print(f"  {label:36} {gps:>10,.0f} {dps:>13,.0f} {gps / base_gps:>11,.0f}×")
    print(f"  (batch: {games} games, {batch_decisions / games:.0f} decisions a game on average; "
          f"one core; each figure the best of {REPEAT} runs)")
    print()
    return dict(name=v.name, players=players, batch=games / t_batch, batch_ratio=(games / t_batch) / ref_batch[0],
                api=api_decisions / t_api, api_ratio=(api_decisions / t_api) / ref_api[1])


def agents_report(v, scale: float) -> None:
    """Scripted agents and ISMCTS on both engines (agents.play is the same loop for both)."""
    styles = ("one-step", "long-route", "route-focus", "destination-hungry")

    def scripted(engine: str, games: int) -> tuple[float, float]:
        def run():
            decisions = 0
            for i in range(games):
                seats = [agents.make(styles[(i + s) % 4], seed=i) for s in range(4)]
                decisions += agents.play(v, seats, seed=i, engine=engine).state()["decisions"]
            return decisions
        seconds, decisions = timed(run)
        return games / seconds, decisions / seconds

    games = max(10, int(200 * scale))
    compiled = scripted("compiled", games)
    reference = scripted("reference", max(4, games // 20))
    print(f"{v.name}, the four scripted styles, 4 players, one core ({games} games):")
    print(f"  compiled:  {compiled[0]:8,.1f} games/s {compiled[1]:10,.0f} decisions/s")
    print(f"  reference: {reference[0]:8,.1f} games/s {reference[1]:10,.0f} decisions/s"
          f"   (compiled {compiled[0] / reference[0]:,.1f}×)")
    defaults = IsmctsAgent()
    speed = {}
    for engine in ("compiled", "reference"):
        g = v.new_game(players=2, seed=3, engine=engine)
        bot = agents.make("ismcts", seed=1)
        rng = random.Random(3)
        decisions = max(3, int(20 * scale)) if engine == "compiled" else 1

        def run(g=g, bot=bot, rng=rng, decisions=decisions):
            made = 0
            while made < decisions and not g.is_over:
                if len(g.legal_actions()) > 1:
                    bot.act(g)
                    made += 1
                g.apply(rng.choice(g.legal_actions()))
            return made
        seconds, made = timed(run)
        speed[engine] = made / seconds
    print(f"  ISMCTS ({defaults.iterations} iterations, depth {defaults.depth}, 2 players): "
          f"{speed['compiled']:8,.2f} decisions/s compiled, {speed['reference']:6,.3f} reference "
          f"({speed['compiled'] / speed['reference']:,.0f}×)")
    print()


def main() -> int:
    global REPEAT
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", help="a variant to measure (again for more); default all")
    parser.add_argument("--games", type=int, default=20000, help="games in the compiled batch loop")
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement; the best counts")
    args = parser.parse_args()
    REPEAT = max(1, args.repeat)
    scale = 0.1 if args.quick else 1.0
    import warnings
    warnings.simplefilter("ignore", railspec.ProvisionalSpecWarning)
    names = args.variant or playable_variants()
    print("railspec benchmark — uniformly random agent")
    print(f"machine: {machine()}")
    print(f"random generator: splitmix64 (docs/engine.md), game seed s+i, agent state (s+i) xor 0x{AGENT_SALT:016X}")
    print()
    summary = [playouts(railspec.load(name), max(100, int(args.games * scale)), scale) for name in names]
    print(f"{'variant':14} {'players':>7} {'batch games/s':>14} {'× reference':>12} {'API decisions/s':>16} "
          f"{'× reference':>12}")
    for row in summary:
        print(f"{row['name']:14} {row['players']:>7} {row['batch']:>14,.0f} {row['batch_ratio']:>11,.0f}× "
              f"{row['api']:>16,.0f} {row['api_ratio']:>11,.0f}×")
    print()
    for name in names:
        v = railspec.load(name)
        for mechanic, _rule in v.ir.present():
            for query in (q for q in mechanic.queries if q.player):
                print(f"{v.name}, {query.name} per player (each compiled time the best of {REPEAT} runs of 20):")
                query_report(v, query, "end-of-game boards of random 4-player games",
                             end_boards(v, max(5, int(50 * scale))), whole_states=True)
                if query.hard_board is not None:
                    query_report(v, query, f"{mechanic.name}'s hard case ({v.ir.trains} trains)",
                                 hard_boards(v, query, max(20, int(200 * scale))), whole_states=False)
                print()
    if "usa" not in names:
        return 0
    v = railspec.load("usa")
    agents_report(v, scale)
    (cold_load, cold_build), (warm_load, warm_build) = compile_times(v)
    print("user spec (extends usa), each load in a new process: import + parse + check, then emit + build")
    print(f"  cold:   {cold_load:.2f} s + {cold_build:.2f} s = {cold_load + cold_build:.2f} s")
    print(f"  cached: {warm_load:.2f} s + {warm_build:.2f} s = {warm_load + warm_build:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
