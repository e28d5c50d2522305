"""railspec benchmark: speed of the compiled engine, as ratios against the reference
interpreter measured in the same run. A script, not a test: nothing here asserts a time.

    python bench/benchmark.py [--variant NAME …] [--players N] [--games 20000] [--quick] [--repeat 3]
                              [--json OUT] [--compare OLD.json] [--no-instructions]

Prints the machine, the random generator, and, for every stock variant the engines play
(or the ones named):
  - random playouts at the variant's largest player count up to 4 (or --players N, within
    the variant's range: the issue's goals for the family's maps are at 3): games/s and
    decisions/s in the batch loop (no GIL) and through the Python API (legal_actions()
    lists, and legal_actions_into() buffers), each as a ratio to the reference;
then a summary line per variant; for each question a mechanic of the variant answers per
player (``Mechanic.queries``: the longest path):
  - its time on end-of-game boards and on the boards the mechanic names as its hard case
    (the longest path's: dense clusters spending a player's every train), mean and worst
    µs per player, against the reference;
for each mechanic of the variant that names positions it makes slow to score
(``Mechanic.hard_position``: Europe's stations, three of them with many routes to choose
from and most tickets at stake):
  - the whole score breakdown of those positions, and of the positions the hill-climb of
    bench/adversarial_positions.py kept, mean and worst µs per score, against the
    reference and beside the breakdown of end-of-game boards of random games;
and for USA:
  - games of the four scripted playing styles (4 players, one core): games/s and
    decisions/s on each engine; ISMCTS decisions/s at a stated number of iterations;
  - batched games (railspec.rl.vector, 2 players, the observation and mask at every
    decision): decisions per CPU second against the single-game loop, and on 2 and 4
    threads;
  - cold and cached compile time of a user spec (a fresh cache folder, separate processes);
and for Japan, the United Kingdom and Northern Lights (their mechanics tell the scripted agents
what claims and options bring now):
  - scripted games at 3 players, told and untold, games/s and the ratio.

Each speed is the best CPU time of --repeat runs (as timeit reports): on a shared machine
the slower runs, and the wall clock, measure the neighbours, not the engine. Where valgrind
is installed, the batch loop is also counted in instructions per decision (callgrind,
collecting inside the engine's playout call only): the same count for the same build and
games whatever else the machine does, so it is the figure to compare two commits with
(--no-instructions skips it; it takes about 10 s a variant). Every figure
is written to --json (bench/results.json by default) with its goal where the issue "Toward
the limit" set one; a goals table ends the run, and --compare OLD.json prints each figure
against an earlier run's.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import shutil
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
from railspec.compiler.mechanic import HardCases, Questions, part
from railspec.playtest import agents
from railspec.playtest.agents.ismcts import IsmctsAgent
from railspec.runtime import reference
from railspec.runtime.position import position_fields


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

#: Every figure of the run, by name: value, unit, and the goal it is held against (issue
#: "Toward the limit"), written to --json and compared with --compare.
FIGURES: dict[str, dict] = {}


def record(name: str, value: float, unit: str, better: str = "higher", goal: float | None = None) -> None:
    """Keep one figure of the run (``better``: whether a higher or a lower value is better)."""
    FIGURES[name] = {"value": value, "unit": unit, "better": better, "goal": goal}


def goals_report() -> None:
    """Each figure with a goal, against it."""
    rows = [(name, f) for name, f in FIGURES.items() if f["goal"] is not None]
    if not rows:
        return
    print("goals (issue 'Toward the limit'):")
    for name, f in rows:
        met = f["value"] >= f["goal"] if f["better"] == "higher" else f["value"] <= f["goal"]
        sign = "≥" if f["better"] == "higher" else "≤"
        print(f"  {name:52} {f['value']:>12,.3f} {f['unit']:10} goal {sign} {f['goal']:<10,g} "
              f"{'met' if met else 'NOT MET'}")
    print()


def compare_report(old_path: str) -> None:
    """Each figure of this run against the same figure of an earlier run's JSON: the ratio
    new/old, oriented so that above 1 is better."""
    old = json.loads(Path(old_path).read_text(encoding="utf-8")).get("figures", {})
    print(f"against {old_path} (ratio above 1: better now):")
    for name, f in FIGURES.items():
        before = old.get(name)
        if not before or not before.get("value"):
            continue
        ratio = f["value"] / before["value"] if f["better"] == "higher" else before["value"] / f["value"]
        print(f"  {name:52} {before['value']:>12,.3f} -> {f['value']:>12,.3f} {f['unit']:10} {ratio:6.3f}")
    print()


def write_json(path: str) -> None:
    Path(path).write_text(json.dumps({"machine": machine(), "when": time.strftime("%Y-%m-%d %H:%M:%S"),
                                      "repeat": REPEAT, "figures": FIGURES}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")


def timed(fn, *args):
    """The best CPU time of REPEAT calls, and the last result (CPU time: on a shared
    machine the wall clock also measures the neighbours)."""
    best = float("inf")
    for _ in range(REPEAT):
        start = time.process_time()
        result = fn(*args)
        best = min(best, time.process_time() - start)
    return best, result


def timed_together(fns, *args) -> list[tuple[float, object]]:
    """For each of ``fns``, the best CPU time of REPEAT calls and the last result, the
    functions called in turn within each round (so a neighbour's load falls on all alike)."""
    best = [float("inf")] * len(fns)
    results = [None] * len(fns)
    for _ in range(REPEAT):
        for k, fn in enumerate(fns):
            start = time.process_time()
            results[k] = fn(*args)
            best[k] = min(best[k], time.process_time() - start)
    return list(zip(best, results))


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
    start = time.process_time()
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
    return time.process_time() - start, decisions


def end_boards(v, games: int) -> list[tuple[dict, int]]:
    """End-of-game boards: (state, player) for every player of some random games of 4
    players, or of the most the variant takes (Switzerland: 3)."""
    out = []
    players = min(4, v.ir.max_players)
    for i in range(games):
        g = v.new_game(players=players, seed=500 + i)
        agent = agent_for(500 + i)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[agent.below(len(legal))])
        out += [(g.state(), p) for p in range(players)]
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


def adversarial_boards(v, query) -> list[tuple[dict, int]]:
    """The slowest networks a hill-climb on the engine's time found for the query
    (bench/adversarial/KEY-QUERY.json, written by bench/adversarial_networks.py), if any."""
    path = Path(__file__).resolve().parent / "adversarial" / f"{v.key}-{query.name}.json"
    if not path.is_file():
        return []
    by_name = {r.name: r.id for r in v.routes}
    boards = []
    for network in json.loads(path.read_text(encoding="utf-8"))["networks"]:
        owned = {by_name[name] for name in network["routes"] if name in by_name}
        boards.append(({"players": 2, "owner": [0 if r.id in owned else -1 for r in v.routes]}, 0))
    return boards


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
    record(f"{v.key} {query.name} worst, {label.split(' (')[0]}", max(compiled), "µs", "lower", goal=20)
    print(f"  {label}: {len(boards)} boards, {statistics.fmean(cars):.0f} of the player's cars on average")
    print(f"    compiled  mean {statistics.fmean(compiled):8,.1f} µs   worst {max(compiled):8,.1f} µs")
    print(f"    reference mean {statistics.fmean(slow):8,.1f} µs   worst {max(slow):8,.1f} µs   "
          f"({statistics.fmean(slow) / statistics.fmean(compiled):,.0f}× the compiled mean)")


def hard_positions(v, mechanic, rule, count: int) -> list[dict]:
    """The mechanic's slow positions to score (``Mechanic.hard_position``), each drawn with
    its own seeded generator; [] when it names none."""
    out = []
    for i in range(count):
        position = part(mechanic, HardCases).hard_position(v.ir, rule, random.Random(9000 + i))
        if position is None:
            return []
        out.append(position)
    return out


def adversarial_positions(v, mechanic) -> list[dict]:
    """The positions slowest to score that a hill-climb on the engine's time kept for the
    mechanic (bench/adversarial/KEY-MECHANIC-positions.json, written by
    bench/adversarial_positions.py), if any."""
    path = Path(__file__).resolve().parent / "adversarial" / f"{v.key}-{mechanic.name}-positions.json"
    if not path.is_file():
        return []
    return [found["position"] for found in json.loads(path.read_text(encoding="utf-8"))["positions"]]


def scoring_report(v, label: str, states: list[dict], whole_states: bool, figure: str | None = None) -> None:
    """Compiled and reference time of the whole score breakdown, mean and worst µs per
    score, on whole states (``whole_states``) or the fields of described positions; says
    whether both engines gave the same breakdowns. ``figure``: the name to record the worst
    and the mean under, against the goal for one score."""
    module = v.module()
    repeat = 20
    compiled, slow, differ = [], [], 0
    for state in states:
        if whole_states:
            fast_game = module.Engine.from_state(state)
            slow_game = reference.ReferenceEngine.from_state(v.ir, state)
        else:
            fast_game, slow_game = module.Engine.for_scoring(state), reference.for_scoring(v.ir, state)
        seconds, rows = timed(lambda score=fast_game.score_breakdown: [score() for _ in range(repeat)])
        compiled.append(seconds / repeat * 1e6)
        seconds, slow_rows = timed(slow_game.score_breakdown)
        slow.append(seconds * 1e6)
        differ += [dict(row) for row in rows[-1]] != [dict(row) for row in slow_rows]
    if figure:
        record(f"{figure} worst", max(compiled), "µs", "lower", goal=20)
        record(f"{figure} mean", statistics.fmean(compiled), "µs", "lower", goal=20)
    print(f"  {label}: {len(states)} positions, "
          f"{'the same breakdowns on both engines' if not differ else f'{differ} DIFFERENT breakdowns'}")
    print(f"    compiled  mean {statistics.fmean(compiled):8,.1f} µs   worst {max(compiled):8,.1f} µs")
    print(f"    reference mean {statistics.fmean(slow):8,.1f} µs   worst {max(slow):8,.1f} µs   "
          f"({statistics.fmean(slow) / statistics.fmean(compiled):,.0f}× the compiled mean)")


def hard_scoring_report(v, scale: float) -> None:
    """The score breakdown on the positions each mechanic of the variant makes slow to
    score (its own and those bench/adversarial_positions.py kept), beside end-of-game
    boards of random games."""
    for mechanic, rule in v.ir.present():
        drawn = hard_positions(v, mechanic, rule, max(20, int(200 * scale)))
        if not drawn:
            continue
        print(f"{v.name}, the whole score breakdown, µs per score (each compiled time the best of {REPEAT} runs "
              f"of 20):")
        games = [state for state, player in end_boards(v, max(5, int(50 * scale))) if player == 0]
        scoring_report(v, f"end-of-game boards of random {min(4, v.ir.max_players)}-player games", games,
                       whole_states=True)
        scoring_report(v, f"{mechanic.title}, the hard case (Mechanic.hard_position)",
                       [position_fields(v.ir, position) for position in drawn], whole_states=False,
                       figure=f"{v.key} {mechanic.name} scoring, hard case, per score")
        found = adversarial_positions(v, mechanic)
        if found:
            scoring_report(v, "adversarial positions (bench/adversarial_positions.py)",
                           [position_fields(v.ir, position) for position in found], whole_states=False,
                           figure=f"{v.key} {mechanic.name} scoring, adversarial, per score")
        print()


COMPILE_SNIPPET = textwrap.dedent("""
    import resource, sys, time
    def cpu():
        own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    start, start_cpu = time.perf_counter(), cpu()
    import railspec
    from railspec.compiler import build
    v = railspec.load(sys.argv[1])
    checked, checked_cpu = time.perf_counter(), cpu()
    v.module()
    print(checked - start, time.perf_counter() - checked, checked_cpu - start_cpu, cpu() - checked_cpu,
          build.last_translation or "-")
""")

#: The bench's user spec: USA with one route changed (the code of a stock variant: its
#: build takes the installed translation), and the same with a rule whose mechanic no
#: stock variant has with USA's (a new code: Cython runs on its first build).
USER_SPEC = 'extends "usa"\nvariant "My USA"\nwithout route Seattle - Portland\nroute Seattle - Portland 2 red\n'
NEW_CODE_SPEC = USER_SPEC + "returned tickets shuffled bottom\n"


def fresh_process_env(**extra: str) -> dict[str, str]:
    """The environment of the fresh processes whose start-up is timed: this one's, with
    ``extra``, and with Python allowed to write bytecode. An installed railspec has its
    .pyc files (pip writes them at install time); a checkout run with
    PYTHONDONTWRITEBYTECODE set has none, and each fresh process would compile every module
    of railspec from source again: USA's start-up measured 0.31-0.34 s CPU so against 0.19 s
    with bytecode (2026-11-28, same tree). The first, untimed run of each measurement writes
    the bytecode."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def compile_times(spec_text: str, repeat: int) -> dict:
    """Cold and cached load of a user spec, each in a fresh process: for each, the wall
    seconds of import + parse + check and of emit + build (or the cache fetch), the CPU
    seconds of the whole process (its compiler runs included) and where the cold build's
    translation came from. Each the best of ``repeat`` pairs (a new cache folder each), by
    its CPU time."""
    best: dict = {}
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            spec = Path(tmp) / "my_usa.rail"
            spec.write_text(spec_text, encoding="utf-8")
            env = fresh_process_env(RAILSPEC_CACHE=str(Path(tmp) / "cache"))
            runs = []
            for _ in range(2):
                p = subprocess.run([sys.executable, "-c", COMPILE_SNIPPET, str(spec)], env=env,
                                   capture_output=True, text=True, check=True)
                *numbers, translation = p.stdout.strip().splitlines()[-1].split()
                load, build, load_cpu, build_cpu = map(float, numbers)
                runs.append({"load": load, "build": build, "cpu": load_cpu + build_cpu, "translation": translation})
            for kind, run in zip(("cold", "cached"), runs):
                if kind not in best or run["cpu"] < best[kind]["cpu"]:
                    best[kind] = run
    return best


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


def playouts(v, games: int, scale: float, players: int | None = None) -> dict:
    """The playout figures of one variant, printed as a table; returns the summary.
    ``players``: the player count played (default: the variant's largest, up to 4)."""
    players = min(4, v.ir.max_players) if players is None else players
    v.module()
    ref_games = max(5, int(100 * scale))
    # the playout and the raw C loop it calls (module().playout, no winners named), one after
    # the other in each round: the 1-3% between them is less than a busy machine moves
    # either between rounds
    (t_batch, batch), (raw_seconds, _) = timed_together((v.playout, v.module().playout), games, players, 1)
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
    record(f"{v.key} {players}p batch games/s", games / t_batch, "games/s", goal=20000)
    record(f"{v.key} {players}p batch ns/decision", 1e9 * t_batch / batch_decisions, "ns", "lower",
           goal=100 if v.key == "usa" else None)
    record(f"{v.key} {players}p playout over the raw loop", 100 * (t_batch / raw_seconds - 1), "%", "lower", goal=3)
    record(f"{v.key} {players}p batch × reference", (games / t_batch) / ref_batch[0], "×", goal=100)
    record(f"{v.key} {players}p API decisions/s", api_decisions / t_api, "decisions/s")
    return dict(name=v.name, players=players, batch=games / t_batch, batch_ratio=(games / t_batch) / ref_batch[0],
                ns=1e9 * t_batch / batch_decisions,
                api=api_decisions / t_api, api_ratio=(api_decisions / t_api) / ref_api[1])


CALLGRIND_SNIPPET = textwrap.dedent("""
    import sys, warnings
    warnings.simplefilter("ignore")
    import railspec
    result = railspec.load(sys.argv[1]).module().playout(int(sys.argv[2]), int(sys.argv[3]), 1)
    print(sum(result["decisions"]))
""")


def instructions_per_decision(name: str, players: int, games: int) -> float | None:
    """Instructions per decision of the compiled batch loop, counted by callgrind inside the
    engine's playout call only (start-up and import are not counted); None without valgrind."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    with tempfile.TemporaryDirectory() as scratch:
        p = subprocess.run([valgrind, "--tool=callgrind", f"--callgrind-out-file={scratch}/callgrind.out",
                            "--collect-atstart=no", "--toggle-collect=__pyx_pw_*playout",
                            sys.executable, "-c", CALLGRIND_SNIPPET, name, str(games), str(players)],
                           capture_output=True, text=True)
    collected = re.search(r"Collected : (\d+)", p.stderr)
    if p.returncode != 0 or collected is None or not p.stdout.strip():
        print(f"  (callgrind gave no count for {name}: exit {p.returncode})")
        return None
    return int(collected.group(1)) / int(p.stdout.strip().splitlines()[-1])


def vector_report(v, scale: float) -> None:
    """Batched games (railspec.rl.vector, issue 33): USA, 2 players, the mover's observation
    and mask at every decision, per CPU second, against the single-game loop; and the
    threads' scaling (bench/rl_bench.py measures both)."""
    try:
        import rl_bench  # bench/, beside this script
    except ImportError as err:  # numpy, which the batched games need, is an optional extra
        print(f"batched games: skipped ({err})")
        return
    rl_bench.REPEAT = REPEAT
    single = rl_bench.single_loop_rate(v, 2, max(10, int(100 * scale)), 1)
    cpu, wall = rl_bench.batched_rates(v, 2, 256, max(40, int(800 * scale)), 1)
    print(f"batched games, USA 2 players with observation and mask (best of {REPEAT}, CPU time of every thread):")
    print(f"  single-game loop {single:12,.0f} decisions/s; VectorGame, 256 envs {cpu:12,.0f} "
          f"({cpu / single:.1f}×; {wall:,.0f} per wall second)")
    record("usa 2p batched decisions per CPU second, observation and mask", cpu, "decisions/s", goal=1_000_000)
    record("usa 2p batched × the single-game loop, observation and mask", cpu / single, "×", goal=3)
    # a thread's share of the CPU is what the threads cost (waiting for each other at the end
    # of each step); the wall rate shows their scaling only on a machine with its cores free
    for threads in (2, 4):
        t_cpu, t_wall = rl_bench.batched_rates(v, 2, 256, max(40, int(800 * scale)), 1, threads=threads)
        print(f"  {threads} threads: {t_cpu:12,.0f} per CPU second ({t_cpu / cpu:.2f}× one thread's), "
              f"{t_wall:12,.0f} per wall second ({t_wall / wall:.2f}× one thread's)")
        record(f"usa 2p batched, {threads} threads, decisions per CPU second", t_cpu, "decisions/s")
        record(f"usa 2p batched, {threads} threads, decisions per wall second", t_wall, "decisions/s")
    print()


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
    record("usa ISMCTS decisions/s (default budget, compiled)", speed["compiled"], "decisions/s", goal=200)
    print(f"  ISMCTS ({defaults.iterations} iterations, depth {defaults.depth}, rollouts of "
          f"{defaults.horizon if defaults.horizon is not None else 'whole'} decisions, 2 players): "
          f"{speed['compiled']:8,.2f} decisions/s compiled, {speed['reference']:6,.3f} reference "
          f"({speed['compiled'] / speed['reference']:,.0f}×)")
    print()


#: The stock variants a mechanic of which tells the scripted agents what claims and options
#: bring as the game stands (AgentPlay.worth_now, option_worth_now; docs/agents.md).
TOLD_VARIANTS = ("japan", "united_kingdom", "northern_lights")


def told_report(scale: float, names: tuple[str, ...] = TOLD_VARIANTS) -> None:
    """Scripted games (the five styles in turn, 3 players, compiled engine) of the variants
    whose mechanics tell the agents figures, told (the agents' default) and untold
    (``worth_now=False``, as railspec.rl's batched seats play), timed in turn."""
    styles = ("one-step", "long-route", "route-focus", "destination-hungry", "greedy")
    games = max(10, int(200 * scale))
    print(f"scripted games told what claims and options bring now (the five styles, 3 players, {games} games):")
    for name in names:
        v = railspec.load(name)

        def run(told: bool, v=v) -> int:
            decisions = 0
            for i in range(games):
                seats = [agents.make(styles[(i + s) % len(styles)], seed=i, worth_now=told) for s in range(3)]
                decisions += agents.play(v, seats, seed=i).state()["decisions"]
            return decisions
        (told_s, decisions), (untold_s, _) = timed_together([lambda: run(True), lambda: run(False)])
        record(f"{v.key} 3p scripted games/s, told", games / told_s, "games/s")
        record(f"{v.key} 3p scripted games/s, untold", games / untold_s, "games/s")
        record(f"{v.key} 3p scripted, told time / untold", told_s / untold_s, "×", "lower")
        print(f"  {v.name:16} told {games / told_s:8,.1f} games/s, untold {games / untold_s:8,.1f} games/s "
              f"(told takes {told_s / untold_s:.2f}×; {decisions / games:,.0f} decisions a game)")
    print()


def main() -> int:
    global REPEAT
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", help="a variant to measure (again for more); default all")
    parser.add_argument("--games", type=int, default=20000, help="games in the compiled batch loop")
    parser.add_argument("--players", type=int, help="players in the playouts (default: each variant's largest "
                                                    "count up to 4; a variant without it is skipped)")
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement; the best counts")
    parser.add_argument("--json", default="bench/results.json", help="where to write every figure (JSON)")
    parser.add_argument("--compare", metavar="OLD.json", help="an earlier run's JSON to compare every figure with")
    parser.add_argument("--no-instructions", action="store_true", help="skip the callgrind instruction counts")
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
    loaded = [railspec.load(name) for name in names]
    if args.players is not None:  # only the variants that take that many players
        loaded = [v for v in loaded if v.ir.min_players <= args.players <= v.ir.max_players]
        names = [v.key for v in loaded]
    summary = [playouts(v, max(100, int(args.games * scale)), scale, args.players) for v in loaded]
    print(f"{'variant':14} {'players':>7} {'batch games/s':>14} {'× reference':>12} {'API decisions/s':>16} "
          f"{'× reference':>12}")
    for row in summary:
        print(f"{row['name']:14} {row['players']:>7} {row['batch']:>14,.0f} {row['batch_ratio']:>11,.0f}× "
              f"{row['api']:>16,.0f} {row['api_ratio']:>11,.0f}×")
    print()
    if not args.no_instructions:
        print(f"{'variant':14} {'players':>7} {'ns/decision':>12} {'instructions/decision (callgrind)':>34}")
        for name, row in zip(names, summary):
            count = instructions_per_decision(name, row["players"], max(20, int(200 * scale)))
            if count is None:
                continue
            key = railspec.load(name).key
            record(f"{key} {row['players']}p batch instructions/decision", count, "instr", "lower")
            print(f"{row['name']:14} {row['players']:>7} {row['ns']:>12.0f} {count:>34,.0f}")
        print()
    for name in names:
        v = railspec.load(name)
        for mechanic, _rule in v.ir.present():
            for query in (q for q in part(mechanic, Questions).queries if q.player):
                print(f"{v.name}, {query.name} per player (each compiled time the best of {REPEAT} runs of 20):")
                query_report(v, query, f"end-of-game boards of random {min(4, v.ir.max_players)}-player games",
                             end_boards(v, max(5, int(50 * scale))), whole_states=True)
                if query.hard_board is not None:
                    query_report(v, query, f"{mechanic.name}'s hard case ({v.ir.trains} trains)",
                                 hard_boards(v, query, max(20, int(200 * scale))), whole_states=False)
                found = adversarial_boards(v, query)
                if found:
                    query_report(v, query, "adversarial networks (bench/adversarial_networks.py)", found,
                                 whole_states=False)
                print()
        hard_scoring_report(v, scale)
    told = tuple(name for name in TOLD_VARIANTS if name in names)
    if told:
        told_report(scale, told)
    if "usa" in names:
        v = railspec.load("usa")
        agents_report(v, scale)
        vector_report(v, scale)
        times = compile_times(USER_SPEC, REPEAT)
        new_code = compile_times(NEW_CODE_SPEC, REPEAT)["cold"]
        cold, cached = times["cold"], times["cached"]
        print(f"user spec (extends usa), each load in a new process, best of {REPEAT}: "
              "import + parse + check, then emit + build (wall); the whole process's CPU")
        print(f"  cold:   {cold['load']:.2f} s + {cold['build']:.2f} s = {cold['load'] + cold['build']:.2f} s wall, "
              f"{cold['cpu']:.2f} s CPU (translation: {cold['translation']})")
        print(f"  cached: {cached['load']:.2f} s + {cached['build']:.2f} s = {cached['load'] + cached['build']:.2f} s "
              f"wall, {cached['cpu']:.2f} s CPU")
        print(f"  cold, with a mechanic no stock variant has with USA's (a new code): {new_code['cpu']:.2f} s CPU "
              f"(translation: {new_code['translation']})")
        record("user spec cold build, whole process, CPU", cold["cpu"], "s", "lower", goal=2)
        record("user spec cold build (emit + build), wall", cold["build"], "s", "lower")
        record("user spec cold build of a new code (Cython runs), whole process, CPU", new_code["cpu"], "s", "lower")
        record("user spec cached load (all of it), wall", cached["load"] + cached["build"], "s", "lower", goal=0.15)
        # the same load's CPU: on a shared machine its wall time mostly measures the neighbours
        record("user spec cached load, whole process, CPU", cached["cpu"], "s", "lower")
        startup = stock_startup("usa")
        print(f"stock variant in a fresh process (import, load, engine): {startup:.3f} s CPU")
        record("stock usa start-up in a fresh process, CPU", startup, "s", "lower", goal=0.15)
        reads = reading_costs(v)
        print(f"reading: game_from_json {reads['game_from_json']:.1f} µs, railspec.score {reads['score']:.1f} µs "
              f"({reads['score'] / reads['compiled_score']:.0f}× the compiled breakdown)")
        record("usa game_from_json", reads["game_from_json"], "µs", "lower", goal=50)
        record("usa railspec.score × the compiled breakdown", reads["score"] / reads["compiled_score"], "×",
               "lower", goal=10)
        print()
    goals_report()
    if args.compare:
        compare_report(args.compare)
    if args.json:
        write_json(args.json)
    return 0


STARTUP_SNIPPET = textwrap.dedent("""
    import sys, time
    start = time.process_time()
    import railspec
    railspec.load(sys.argv[1]).module()
    print(time.process_time() - start)
""")


def stock_startup(name: str) -> float:
    """CPU seconds to import railspec, load a stock variant and fetch its engine in a fresh
    process (the best of REPEAT, after one run that fills the caches, bytecode included:
    :func:`fresh_process_env`)."""
    runs = []
    for _ in range(REPEAT + 1):
        p = subprocess.run([sys.executable, "-c", STARTUP_SNIPPET, name], env=fresh_process_env(), capture_output=True,
                           text=True, check=True)
        runs.append(float(p.stdout.strip().splitlines()[-1]))
    return min(runs[1:])


def reading_costs(v) -> dict:
    """µs to read a mid-game state (game_from_json), to score a described position
    (railspec.score) and the compiled breakdown of the same fields."""
    g = v.new_game(players=4, seed=3)
    for _ in range(60):
        g.apply(g.legal_actions()[-1])
    text = g.to_json()
    position = {"players": [{"routes": [r.name for r in v.routes if g.state()["owner"][r.id] == p],
                             "tickets": [v.tickets[t].name for t in g.state()["tickets"][p]]} for p in range(4)]}
    fields = position_fields(v.ir, position)
    module = v.module()
    n = 2000

    def per_call(fn) -> float:
        def run():  # each result dropped at once: keeping 2,000 games alive measured the collector
            for _ in range(n):
                fn()
        seconds, _ = timed(run)
        return seconds / n * 1e6
    return {"game_from_json": per_call(lambda: v.game_from_json(text)),
            "score": per_call(lambda: railspec.score(v, position)),
            "compiled_score": per_call(lambda: module.Engine.for_scoring(fields).score_breakdown())}


if __name__ == "__main__":
    sys.exit(main())
