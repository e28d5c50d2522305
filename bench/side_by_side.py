"""railspec side by side: the speed of two installs of railspec, measured in one run.

    python bench/side_by_side.py --python OLD/.venv/bin/python --label before \\
                                 --python NEW/.venv/bin/python --label after [--rounds 5]

Why: a refactor should leave every variant about as fast as before ("within 5%"), and
figures from two different runs (another hour, other neighbours on the machine, another
CPU clock) cannot show that. Here both installs are measured in the same run, on the same
machine, with the same measurement code, the same sample sizes and the same seeds.

What, for every stock variant (usa, europe, italy, pennsylvania, amsterdam, or the ones
named with --variant), at 2 players and at min(4, the variant's maximum):
  - playout:  ``v.playout(games=, players=, seed=)``, the batch loop in the engine:
              games/s and decisions/s;
  - api:      random games through the Python API (``new_game``, ``legal_actions_into``
              into an ``array('i')``, ``apply``, ``is_over``): decisions/s and games/s;
  - endgame:  on the finished boards of ``--boards`` random games: ``score_breakdown()``,
              µs a call (repeated on one board, then the next: the call's own cost, not
              the cache misses of going round the boards); and where ``longest_path``
              exists and is ever above 0, its mean and worst µs per (board, player), each
              board timed as the best of a few runs;
  - import:   CPU ms of ``import railspec``, ``railspec.load(name)`` and fetching its engine
              module, in a fresh process (the best of every child process of that variant;
              reported, but not in the worst ratio);
and for usa at 4 players, when the agents' module (``make``, ``play``) exists on both
sides: games/s of the four scripted styles seated together and of each style alone.
Only the public API is used, through ``import railspec``; what one side lacks is
reported as skipped there, not as a failure.

How:
  - Each measurement runs in a fresh child process, ``python side_by_side.py --child
    JSON_SPEC``, started with the interpreter of its side: this very file, so both sides
    run identical measurement code, and ``import railspec`` resolves to each
    interpreter's own install. The two sides never share a process.
  - Time is CPU time of the child (``time.process_time``) over the measured calls only,
    with the garbage collector paused as ``timeit`` does: wall-clock time would also
    count whatever else the machine is doing. The children get no PYTHONPATH, the same
    PYTHONHASHSEED, and a bytecode cache of this run (PYTHONPYCACHEPREFIX), so neither
    side pays for compiling its sources and nothing is written into either work tree.
  - Sample sizes are calibrated once, with the first interpreter, to about ``--target``
    CPU seconds per timed run; both sides then play exactly the same games (same
    counts, same seeds, the same random choices). A fingerprint of the games played (the
    decisions, the scores) is compared, so a side that plays other games is flagged.
  - Each child times the same work ``--repeat`` times and keeps its fastest run (the
    first run of a process is often a little slower).
  - Interleaved: each round measures A then B for every measurement (B then A in odd
    rounds, so neither side always goes first), for ``--rounds`` rounds. A side's figure
    is its best over the rounds (the slower rounds measure the neighbours, not the
    code); the longest path takes each board's best before the mean and the worst.
  - Ratios read the same way everywhere: above 1 means B is faster (B/A for speeds, A/B
    for times). The "paired" range is the ratio within each round; with the same code
    on both sides its spread is the noise floor of this machine.

Everything goes to ``--out`` as JSON (default: side_by_side.json beside this script).
Standard library only.
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from array import array
from pathlib import Path

STOCK_VARIANTS = ("usa", "europe", "italy", "pennsylvania", "amsterdam")
STYLES = ("one-step", "long-route", "route-focus", "destination-hungry")
AGENTS_VARIANT, AGENTS_PLAYERS = "usa", 4

#: Each metric: (its label with its unit, True when higher is better).
METRICS = {
    "games_per_s": ("games/s", True),
    "decisions_per_s": ("decisions/s", True),
    "score_breakdown_us": ("score_breakdown() µs", False),
    "longest_path_mean_us": ("longest_path mean µs", False),
    "longest_path_worst_us": ("longest_path worst µs", False),
    "import_ms": ("import + load ms", False),
}
#: Reported, but left out of the worst ratio: a package layout shows in it, the engines do
#: not, and it is the noisiest figure (disk, page faults).
INFORMATIONAL = {"import_ms"}

#: The measurements' titles, in the order of the report.
KINDS = {
    "playout": "batch loop, v.playout()",
    "api": "Python API loop, legal_actions_into() + apply()",
    "endgame": "finished boards, score_breakdown() and longest_path()",
    "agents": f"scripted styles, {AGENTS_VARIANT} {AGENTS_PLAYERS} players, agents.play()",
    "import": "import railspec + load + engine module, CPU, best of every child of the variant "
              "(informational: not in the worst ratio)",
}


# --- the child: one measurement, in the interpreter of one side ---------------------------

def _cpu(fn, repeat: int = 1):
    """(CPU seconds, result) of ``fn()``, the garbage collector paused as timeit does; with
    ``repeat``, the fastest of that many calls (and the last call's result)."""
    best, result = math.inf, None
    for _ in range(repeat):
        gc.collect()
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            start = time.process_time()
            result = fn()
            best = min(best, time.process_time() - start)
        finally:
            if was_enabled:
                gc.enable()
    return best, result


def _calibrated(run, n: int, target: float) -> int:
    """The count for ``run(count) -> seconds`` to take about ``target`` seconds, doubling
    from ``n`` until a run takes a fifth of that."""
    while True:
        seconds = run(n)
        if seconds >= target / 5 or n >= 1_000_000:
            return max(1, min(1_000_000, math.ceil(n * target / max(seconds, 1e-6))))
        n *= 2


def _random_games(v, players: int, seeds, keep: bool):
    """Random games through the API: (decisions, the finished games if ``keep``). The
    choice is ``random.Random(seed)``, drawn the same way on both sides."""
    buffer = array("i", [0] * len(v.actions))
    decisions, games = 0, []
    for seed in seeds:
        g = v.new_game(players=players, seed=seed)
        rand = random.Random(seed).random
        legal_into, apply = g.legal_actions_into, g.apply
        while not g.is_over:
            apply(buffer[int(rand() * legal_into(buffer))])
            decisions += 1
        if keep:
            games.append(g)
    return decisions, games


def child_info(railspec, spec: dict) -> dict:
    """What a side offers: its install, and for each variant whether it loads, its
    player counts, its engine module and its action count."""
    try:
        from importlib import metadata
        version = metadata.version("railspec")
    except Exception:  # noqa: BLE001 - a version is a nicety
        version = "unknown"
    variants = {}
    for name in spec["variants"]:
        try:
            v = railspec.load(name)
            counts = []
            for n in (2, 3, 4):
                try:
                    v.new_game(players=n, seed=0)
                    counts.append(n)
                except Exception:  # noqa: BLE001 - a count the variant is not for
                    pass
            module = getattr(v, "module", None)
            module = module() if callable(module) else None
            variants[name] = {"players": sorted({counts[0], counts[-1]}) if counts else [],
                              "actions": len(v.actions),
                              "module": getattr(module, "__file__", None) or getattr(module, "__name__", None)}
        except Exception as err:  # noqa: BLE001 - reported, the variant skipped
            variants[name] = {"error": f"{type(err).__name__}: {err}"}
    agents = _agents_module(railspec)
    return {"railspec": railspec.__file__, "version": version, "python": sys.version.split()[0],
            "executable": sys.executable, "variants": variants,
            "agents": None if isinstance(agents, str) else sorted(s for s in STYLES if _has_style(agents, s)),
            "agents_missing": agents if isinstance(agents, str) else None}


#: Where the agents live, in the layouts railspec has had: railspec.playtest.agents since
#: the folders were grouped by role, railspec.agents before.
AGENTS_MODULES = ("railspec.playtest.agents", "railspec.agents")


def _agents_module(railspec):
    """The agents' module when it has ``make`` and ``play``; else why not (a string)."""
    import importlib
    errors = []
    for name in AGENTS_MODULES:
        try:
            agents = importlib.import_module(name)
        except ImportError as err:
            errors.append(f"{name}: {err}")
            continue
        missing = [f for f in ("make", "play") if not callable(getattr(agents, f, None))]
        return f"{name} has no {', '.join(missing)}" if missing else agents
    return "no agents module (" + "; ".join(errors) + ")"


def _has_style(agents, style: str) -> bool:
    try:
        agents.make(style, seed=0)
        return True
    except Exception:  # noqa: BLE001 - a style this side lacks
        return False


def child_playout(railspec, v, spec: dict) -> dict:
    players, seed = spec["players"], spec["seed"]
    v.playout(games=20, players=players, seed=seed)          # warm up
    if "calibrate" in spec:
        return {"n": _calibrated(lambda n: _cpu(lambda: v.playout(games=n, players=players, seed=seed))[0],
                                 200, spec["calibrate"])}
    games = spec["n"]
    seconds, result = _cpu(lambda: v.playout(games=games, players=players, seed=seed), spec["repeat"])
    decisions = sum(result["decisions"])
    return {"metrics": {"games_per_s": games / seconds, "decisions_per_s": decisions / seconds},
            "check": [decisions, sum(map(sum, result["totals"]))] if "totals" in result else [decisions],
            "work": {"games": games, "decisions": decisions, "seconds": seconds}}


def child_api(railspec, v, spec: dict) -> dict:
    players, seed = spec["players"], spec["seed"]
    _random_games(v, players, range(seed - 3, seed), keep=False)     # warm up, other seeds
    if "calibrate" in spec:
        return {"n": _calibrated(lambda n: _cpu(lambda: _random_games(v, players, range(seed, seed + n), False))[0],
                                 10, spec["calibrate"])}
    games = spec["n"]
    seconds, (decisions, _) = _cpu(lambda: _random_games(v, players, range(seed, seed + games), False),
                                   spec["repeat"])
    return {"metrics": {"games_per_s": games / seconds, "decisions_per_s": decisions / seconds},
            "check": [decisions], "work": {"games": games, "decisions": decisions, "seconds": seconds}}


def child_endgame(railspec, v, spec: dict) -> dict:
    players, seed = spec["players"], spec["seed"]
    _, games = _random_games(v, players, range(seed, seed + spec["boards"]), keep=True)
    rows = [g.score_breakdown() for g in games]                          # warm up, and the check
    check = [sum(row["total"] for game_rows in rows for row in game_rows)]

    def breakdowns(reps: int, repeat: int = 1):
        # board after board, ``reps`` calls each: the cost of the call on a board in the
        # cache (going round all the boards instead measures cache misses, and those vary
        # with the neighbours on a shared machine, 1.8 to 3 µs in USA)
        def run():
            for g in games:
                for _ in range(reps):
                    g.score_breakdown()
        return _cpu(run, repeat)[0]

    if "calibrate" in spec:
        return {"n": _calibrated(breakdowns, 1, spec["calibrate"] / 2)}
    reps = spec["n"]
    metrics = {"score_breakdown_us": breakdowns(reps, spec["repeat"]) / (reps * len(games)) * 1e6}
    out = {"metrics": metrics, "check": check}
    if not games or not callable(getattr(games[0], "longest_path", None)):
        out["longest_path"] = "no Game.longest_path"
        return out
    boards = [(g, p) for g in games for p in range(players)]
    lengths = [g.longest_path(p) for g, p in boards]
    check.append(sum(lengths))
    if not any(lengths):
        out["longest_path"] = "always 0 (no longest-path bonus)"
        return out
    calls, best_of = spec["lp_calls"], spec["lp_best_of"]
    per_board = []
    for g, p in boards:
        def run(g=g, p=p):
            for _ in range(calls):
                g.longest_path(p)
        per_board.append(_cpu(run, best_of)[0] / calls * 1e6)
    metrics["longest_path_mean_us"] = sum(per_board) / len(per_board)
    metrics["longest_path_worst_us"] = max(per_board)
    out["longest_path_boards_us"] = per_board
    return out


def child_agents(railspec, v, spec: dict) -> dict:
    agents = _agents_module(railspec)
    if isinstance(agents, str):
        return {"skipped": agents}
    style, players, seed = spec["style"], spec["players"], spec["seed"]
    if style != "mixed" and not _has_style(agents, style):
        return {"skipped": f"no agent style {style!r}"}

    def seats(i: int):
        names = [STYLES[(i + s) % len(STYLES)] if style == "mixed" else style for s in range(players)]
        return [agents.make(name, seed=i) for name in names]

    def play(first: int, n: int):
        return [agents.play(v, seats(i), seed=i) for i in range(first, first + n)]

    play(seed - 2, 2)                                                  # warm up, other seeds
    if "calibrate" in spec:
        return {"n": _calibrated(lambda n: _cpu(lambda: play(seed, n))[0], 4, spec["calibrate"])}
    n = spec["n"]
    seconds, games = _cpu(lambda: play(seed, n), spec["repeat"])
    scores = sum(row["total"] for g in games for row in g.score_breakdown())
    out = {"metrics": {"games_per_s": n / seconds}, "check": [scores], "work": {"games": n, "seconds": seconds}}
    try:
        decisions = sum(g.state()["decisions"] for g in games)
        out["metrics"]["decisions_per_s"] = decisions / seconds
        out["check"].append(decisions)
    except Exception:  # noqa: BLE001 - decisions/s is a nicety
        pass
    return out


CHILDREN = {"playout": child_playout, "api": child_api, "endgame": child_endgame, "agents": child_agents}


def child_main(spec_json: str) -> int:
    """Run one measurement and print its result as one JSON line on stdout."""
    spec = json.loads(spec_json)
    import warnings
    warnings.simplefilter("ignore")              # e.g. Amsterdam's provisional-spec warning
    started = time.process_time()
    import railspec
    if spec["kind"] == "info":
        out = child_info(railspec, spec)
    else:
        v = railspec.load(spec["variant"])
        module = getattr(v, "module", None)
        if callable(module):
            module()                             # the engine at hand, as new_game would fetch it
        loaded = time.process_time() - started
        out = CHILDREN[spec["kind"]](railspec, v, spec)
        out["import_ms"] = loaded * 1e3
    out["railspec"] = railspec.__file__
    print(json.dumps(out))
    return 0


# --- the parent: plan, interleave, compare --------------------------------------------------

class Side:
    """One interpreter under comparison."""

    def __init__(self, label: str, python: str):
        # absolute, as the children run in another folder; not resolved: a venv's python
        # is a symbolic link to the base interpreter, and only the link finds the venv
        found = python if os.sep in python else (shutil.which(python) or python)
        self.label, self.python = label, os.path.abspath(found)
        self.info: dict = {}


def child_environment(pycache: str) -> dict:
    """The children's environment: no PYTHONPATH (each side imports its own railspec), the
    same string hashing on both sides, and bytecode cached in ``pycache``, a folder of this
    run: both sides then import from fresh .pyc files alike (an install whose .pyc are
    missing or stale, or PYTHONDONTWRITEBYTECODE, would otherwise compile its sources in
    every child), and nothing is written into either work tree."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONDONTWRITEBYTECODE")}
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONPYCACHEPREFIX"] = pycache
    return env


def run_child(side: Side, spec: dict, timeout: float, env: dict) -> dict:
    """``spec`` measured by a fresh child process of ``side``; {"error": …} when it fails."""
    command = [side.python, "-s", str(Path(__file__).resolve()), "--child", json.dumps(spec)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout,
                              cwd=Path(__file__).resolve().parent)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    except OSError as err:
        return {"error": f"cannot run {side.python}: {err.strerror}"}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": f"exit {done.returncode}: {tail}"}
    return json.loads(lines[-1])


def git_state(path: str | None) -> str | None:
    """The commit and the number of changed files of the work tree holding ``path``."""
    if not path:
        return None
    folder = Path(path).resolve().parent
    try:
        head = subprocess.run(["git", "-C", str(folder), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=20)
        dirty = subprocess.run(["git", "-C", str(folder), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if head.returncode != 0:
        return None
    changed = len(dirty.stdout.splitlines())
    return head.stdout.strip() + (f" + {changed} changed files" if changed else " (clean)")


def plan(sides: list[Side], variants: list[str], kinds: set[str], args) -> tuple[list[dict], list[str]]:
    """The measurements both sides can make (without their sample sizes), and notes on
    what is skipped and why."""
    notes, specs = [], []
    a, b = sides
    for name in variants:
        va, vb = a.info["variants"].get(name, {}), b.info["variants"].get(name, {})
        if "error" in va or "error" in vb:
            for side, info in ((a, va), (b, vb)):
                if "error" in info:
                    notes.append(f"{name}: skipped, it does not load on {side.label}: {info['error']}")
            continue
        players = [n for n in va["players"] if n in vb["players"]]
        if va["players"] != vb["players"]:
            notes.append(f"{name}: player counts differ ({a.label} {va['players']}, {b.label} {vb['players']}); "
                         f"measuring {players}")
        for n in players:
            if "playout" in kinds:
                specs.append({"kind": "playout", "variant": name, "players": n, "seed": 1})
            if "api" in kinds:
                specs.append({"kind": "api", "variant": name, "players": n, "seed": 1000})
            if "endgame" in kinds:
                specs.append({"kind": "endgame", "variant": name, "players": n, "seed": 500,
                              "boards": args.boards, "lp_calls": 100, "lp_best_of": 3})
    agents_playable = all(AGENTS_PLAYERS in s.info["variants"].get(AGENTS_VARIANT, {}).get("players", [])
                          for s in sides)
    if "agents" in kinds and AGENTS_VARIANT in variants and agents_playable:
        missing = [f"{s.label}: {s.info['agents_missing']}" for s in sides if s.info.get("agents") is None]
        if missing:
            notes.append("agents: skipped, " + "; ".join(missing))
        else:
            styles = [s for s in STYLES if all(s in side.info["agents"] for side in sides)]
            for style in ["mixed"] * (len(styles) == len(STYLES)) + styles:
                specs.append({"kind": "agents", "variant": AGENTS_VARIANT, "players": AGENTS_PLAYERS,
                              "seed": 100, "style": style})
            if len(styles) < len(STYLES):
                notes.append(f"agents: styles missing on one side: {sorted(set(STYLES) - set(styles))}")
    return specs, notes


def key(spec: dict) -> str:
    """A measurement's name, e.g. ``playout usa 4p`` or ``agents usa 4p one-step``."""
    return " ".join([spec["kind"], spec["variant"], f"{spec['players']}p"]
                    + ([spec["style"]] if "style" in spec else []))


def best_of(rounds: list[dict]) -> dict:
    """A side's best figure of each metric over its rounds (the longest path: each
    board's best, then the mean and the worst)."""
    ok = [r for r in rounds if "metrics" in r]
    if not ok:
        return {}
    best = {}
    for metric in ok[0]["metrics"]:
        values = [r["metrics"][metric] for r in ok if metric in r["metrics"]]
        best[metric] = max(values) if METRICS[metric][1] else min(values)
    boards = [r["longest_path_boards_us"] for r in ok if "longest_path_boards_us" in r]
    if boards and all(len(b) == len(boards[0]) for b in boards):
        per_board = [min(column) for column in zip(*boards)]
        best["longest_path_mean_us"] = sum(per_board) / len(per_board)
        best["longest_path_worst_us"] = max(per_board)
    return best


def ratio(metric: str, a: float, b: float) -> float:
    """Above 1 when B is faster: B/A for a speed, A/B for a time."""
    return b / a if METRICS[metric][1] else a / b


def compare(sides: list[Side], measurements: dict) -> None:
    """Fill each measurement's best figures, ratios, paired-ratio ranges and checks."""
    a, b = (s.label for s in sides)
    for m in measurements.values():
        ra, rb = m["rounds"][a], m["rounds"][b]
        m["best"] = {a: best_of(ra), b: best_of(rb)}
        m["ratio"], m["paired"] = {}, {}
        for metric in m["best"][a]:
            if metric not in m["best"][b]:
                continue
            m["ratio"][metric] = ratio(metric, m["best"][a][metric], m["best"][b][metric])
            pairs = [ratio(metric, x["metrics"][metric], y["metrics"][metric]) for x, y in zip(ra, rb)
                     if metric in x.get("metrics", {}) and metric in y.get("metrics", {})]
            if pairs:
                m["paired"][metric] = [min(pairs), max(pairs)]
        checks = {json.dumps(r.get("check")) for r in ra + rb if "check" in r}
        m["same_games"] = len(checks) == 1 if checks else None
        why = {r["longest_path"] for r in ra + rb if isinstance(r.get("longest_path"), str)}
        if why:
            m["longest_path"] = "; ".join(sorted(why))
        m["problems"] = sorted({f"{label}: {r.get('error') or r.get('skipped')}" for label, rs in ((a, ra), (b, rb))
                                for r in rs if "error" in r or "skipped" in r})


def import_measurements(sides: list[Side], measurements: dict) -> dict:
    """Per variant, the import + load CPU time: each side's best over all its children of
    that variant, as a measurement of its own (no paired range: it is a best of many)."""
    a, b = (s.label for s in sides)
    out = {}
    for m in measurements.values():
        name = m["spec"]["variant"]
        entry = out.setdefault(f"import {name}", {"spec": {"kind": "import", "variant": name},
                                                  "best": {a: {}, b: {}}, "paired": {}, "problems": []})
        for label in (a, b):
            times = [r["import_ms"] for r in m["rounds"][label] if "import_ms" in r]
            if times:
                current = entry["best"][label].get("import_ms", math.inf)
                entry["best"][label]["import_ms"] = min(current, min(times))
    for entry in out.values():
        if entry["best"][a] and entry["best"][b]:
            entry["ratio"] = {"import_ms": ratio("import_ms", entry["best"][a]["import_ms"],
                                                 entry["best"][b]["import_ms"])}
        else:
            entry["ratio"] = {}
    return out


def fmt(value: float) -> str:
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def report(sides: list[Side], results: dict, threshold: float) -> tuple[float, str]:
    """Print a table per kind of measurement; return the worst ratio and where it is."""
    a, b = (s.label for s in sides)
    worst, where = math.inf, ""
    for kind, title in KINDS.items():
        rows = [(name, m) for name, m in results.items() if m["spec"]["kind"] == kind]
        if not rows:
            continue
        print(f"\n{title}")
        print(f"  {'measurement':28} {'metric':22} {a:>12} {b:>12} {'ratio':>7}  {'paired per round':>16}  note")
        for name, m in rows:
            label = name.split(" ", 1)[1]
            if not m["ratio"]:
                print(f"  {label:28} {'':22} {'':>12} {'':>12} {'':>7}  {'':>16}  skipped: "
                      + ("; ".join(m["problems"]) or "nothing measured"))
                continue
            for i, (metric, r) in enumerate(m["ratio"].items()):
                paired = m["paired"].get(metric)
                notes = []
                if r < threshold and metric not in INFORMATIONAL:
                    notes.append(f"below {threshold:g}")
                if i == 0 and m.get("same_games") is False:
                    notes.append("the sides played different games")
                if i == 0 and m["problems"]:
                    notes.append("; ".join(m["problems"]))
                if i == 0 and m.get("longest_path"):
                    notes.append(f"longest_path: {m['longest_path']}")
                print(f"  {label if i == 0 else '':28} {METRICS[metric][0]:22} "
                      f"{fmt(m['best'][a][metric]):>12} {fmt(m['best'][b][metric]):>12} {r:>7.3f}  "
                      f"{(f'{paired[0]:.3f}..{paired[1]:.3f}' if paired else ''):>16}  {', '.join(notes)}")
                if r < worst and metric not in INFORMATIONAL:
                    worst, where = r, f"{name}, {METRICS[metric][0]}"
    return worst, where


def measure(sides: list[Side], specs: list[dict], args) -> dict:
    """Calibrate the sample sizes with the first side, then the interleaved rounds."""
    a, b = sides
    measurements = {}
    print(f"calibrating {len(specs)} measurements with {a.label} (about {args.target:g} CPU s a run, "
          f"{args.repeat} runs a child) …",
          file=sys.stderr)
    for spec in specs:
        n = run_child(a, dict(spec, calibrate=args.target), args.timeout, args.env)
        if "n" not in n:
            print(f"  {key(spec)}: {n.get('error') or n.get('skipped')}", file=sys.stderr)
        measurements[key(spec)] = {"spec": dict(spec, n=n.get("n", 1), repeat=args.repeat), "calibration": n,
                                   "rounds": {a.label: [], b.label: []}}
    started = time.monotonic()
    for r in range(args.rounds):
        order = (a, b) if r % 2 == 0 else (b, a)
        for _name, m in measurements.items():
            for side in order:
                m["rounds"][side.label].append(run_child(side, m["spec"], args.timeout, args.env))
        elapsed = time.monotonic() - started
        print(f"round {r + 1}/{args.rounds} done ({elapsed:.0f} s, about "
              f"{elapsed / (r + 1) * (args.rounds - r - 1):.0f} s to go)", file=sys.stderr)
    return measurements


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", action="append", default=[], metavar="PATH",
                        help="an interpreter with railspec installed; give exactly two (A, then B)")
    parser.add_argument("--label", action="append", default=[], help="a name for each --python, in order")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; each side's best counts")
    parser.add_argument("--variant", action="append", help="a variant to measure (again for more); "
                        f"default {', '.join(STOCK_VARIANTS)}")
    parser.add_argument("--only", action="append", choices=["playout", "api", "endgame", "agents"],
                        help="only these measurements (again for more); default all")
    parser.add_argument("--target", type=float, default=0.2,
                        help="CPU seconds of one timed run (the sample sizes are calibrated to it)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="timed runs of the same work in each child; the fastest counts")
    parser.add_argument("--boards", type=int, default=50, help="finished games for the endgame measurements")
    parser.add_argument("--threshold", type=float, default=0.95,
                        help="flag ratios below this (B slower than A by more than 1 - threshold)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a ratio is below --threshold")
    parser.add_argument("--timeout", type=float, default=300, help="seconds allowed to one child process")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "side_by_side.json"),
                        help="the JSON file written (default: side_by_side.json beside this script)")
    parser.add_argument("--child", metavar="JSON_SPEC", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        return child_main(args.child)
    if len(args.python) != 2:
        parser.error("give exactly two --python interpreters")
    if args.label and len(args.label) != 2:
        parser.error("give a --label for each --python, or none")
    labels = args.label or ["A", "B"]
    if labels[0] == labels[1]:
        parser.error("the two labels must differ")
    if args.rounds < 1 or args.repeat < 1 or args.target <= 0 or args.boards < 1:
        parser.error("--rounds, --repeat, --target and --boards must be positive")
    with tempfile.TemporaryDirectory(prefix="railspec-side-by-side-pyc-") as pycache:
        args.env = child_environment(pycache)
        return compare_sides(args)


def compare_sides(args) -> int:
    """Everything but the argument checks of :func:`main`."""
    labels = args.label or ["A", "B"]
    sides = [Side(label, python) for label, python in zip(labels, args.python)]
    variants = args.variant or list(STOCK_VARIANTS)

    print(f"railspec side by side: {sides[0].label} vs {sides[1].label}, {args.rounds} interleaved rounds, "
          f"CPU time (process_time) in a child process per measurement; ratio > 1: {sides[1].label} faster")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}")
    for side in sides:
        side.info = run_child(side, {"kind": "info", "variants": variants}, args.timeout, args.env)
        if "error" in side.info:
            print(f"{side.label}: {side.python} cannot import railspec: {side.info['error']}", file=sys.stderr)
            return 2
        side.info["git"] = git_state(side.info.get("railspec"))
        print(f"  {side.label:8} {side.python}\n           railspec {side.info['version']} from "
              f"{side.info['railspec']} ({side.info['git'] or 'not a git work tree'}), Python {side.info['python']}")
    if Path(sides[0].info["railspec"]).resolve() == Path(sides[1].info["railspec"]).resolve():
        print("  note: both interpreters import railspec from the same place")
    if sides[0].info["python"] != sides[1].info["python"]:
        print("  note: the Python versions differ: the ratios measure the interpreters too")
    for name in variants:
        modules = [s.info["variants"].get(name, {}).get("module") for s in sides]
        if all(modules) and any("railspec_engine_" in str(m) for m in modules):
            print(f"  note: {name}: an engine module comes from the build cache (-O1), not the installed "
                  f"stock build: {modules}")

    specs, notes = plan(sides, variants, set(args.only or ["playout", "api", "endgame", "agents"]), args)
    for note in notes:
        print(f"  {note}")
    if not specs:
        print("nothing both sides can measure", file=sys.stderr)
        return 2
    measurements = measure(sides, specs, args)
    compare(sides, measurements)
    results = dict(measurements)
    results.update(import_measurements(sides, measurements))
    worst, where = report(sides, results, args.threshold)

    paired = [p for m in results.values() for metric, p in m["paired"].items() if metric not in INFORMATIONAL]
    spread = (min(p[0] for p in paired), max(p[1] for p in paired)) if paired else None
    print()
    if worst < math.inf:
        verdict = "within" if worst >= args.threshold else "NOT within"
        print(f"worst ratio {sides[1].label}/{sides[0].label}: {worst:.3f} ({where}): {verdict} "
              f"{(1 - args.threshold) * 100:g}% of {sides[0].label} on every measurement")
    if spread:
        print(f"paired per-round ratios span {spread[0]:.3f} .. {spread[1]:.3f} (one round is noisier than the best of "
              f"{args.rounds})")
    mismatched = [name for name, m in results.items() if m.get("same_games") is False]
    if mismatched:
        print(f"the sides played different games in: {', '.join(mismatched)}")
    out = {"when": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "argv": sys.argv[1:],
           "machine": {"machine": platform.machine(), "cores": os.cpu_count(), "system": platform.platform()},
           "sides": [{"label": s.label, "python": s.python, **s.info} for s in sides],
           "rounds": args.rounds, "repeat": args.repeat, "target_cpu_s": args.target, "notes": notes,
           "measurements": results, "worst_ratio": None if worst == math.inf else worst, "worst_where": where,
           "paired_span": spread}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"written: {args.out}")
    return 1 if args.strict and worst < args.threshold else 0


if __name__ == "__main__":
    sys.exit(main())
