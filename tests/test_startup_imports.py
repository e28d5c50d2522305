"""What a fresh process's start-up imports, checked by name, never by time (make bench times
it: "stock usa start-up in a fresh process, CPU").

- A stock variant loaded from a warm cache (its IR from ``ir/``, its engine named by the
  engine index) renders nothing and builds nothing: the template engine, Cython and
  setuptools stay out of the process, and so do railspec's layers above the runtime (the
  agents, the tools, the RL adapters, the test kit) and the documentation writer.
- The first, cold load of the same process pair does render (the engine index is empty),
  which shows that the check reads the process's modules rather than a list.
- make bench times fresh processes with bytecode allowed: without it, a checkout run with
  PYTHONDONTWRITEBYTECODE compiles every module from source in each process, which no
  installed railspec does (bench/benchmark.py, fresh_process_env).
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: What a warm stock load must not import (a module, or a package and everything in it).
NOT_AT_START_UP = ("jinja2", "Cython", "setuptools", "railspec.playtest", "railspec.tools", "railspec.rl",
                   "railspec.testing", "railspec.compiler.docs")

LOAD_AND_LIST = """
import json, sys
import railspec
railspec.load("usa").new_game(2, seed=1)
print(json.dumps(sorted(sys.modules)))
"""


def modules_after_a_stock_load(cache: Path) -> set[str]:
    """The modules of a fresh process that imported railspec and played USA's set-up, its
    caches in ``cache``."""
    env = dict(os.environ, RAILSPEC_CACHE=str(cache))
    done = subprocess.run([sys.executable, "-c", LOAD_AND_LIST], env=env, capture_output=True, text=True,
                          timeout=300, check=True)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def found(modules: set[str], names: tuple[str, ...]) -> list[str]:
    """The names of ``names`` that ``modules`` holds, themselves or a submodule."""
    return [name for name in names if any(m == name or m.startswith(name + ".") for m in modules)]


def test_a_warm_stock_load_renders_and_builds_nothing(tmp_path):
    cold = modules_after_a_stock_load(tmp_path / "cache")
    warm = modules_after_a_stock_load(tmp_path / "cache")
    assert "jinja2" in cold, "the cold load renders the engine once to fill the engine index"
    assert found(warm, NOT_AT_START_UP) == []


def test_the_bench_times_fresh_processes_with_bytecode(monkeypatch):
    spec = importlib.util.spec_from_file_location("railspec_bench", ROOT / "bench" / "benchmark.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    env = bench.fresh_process_env(RAILSPEC_CACHE="/somewhere")
    assert "PYTHONDONTWRITEBYTECODE" not in env
    assert env["RAILSPEC_CACHE"] == "/somewhere"
    assert env["PATH"] == os.environ["PATH"]
