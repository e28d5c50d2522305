"""The README's two commands keep their promises: ``make demo`` installs the core alone (no
optional extra: it runs in well under a minute on a fresh machine), and ``make test``
installs what the tests need on top of it. Read from the Makefile itself, with make's own
dry run, so a change to either target is checked without installing anything."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _dry_run(target: str, tmp_path: Path) -> list[str]:
    """The commands ``make TARGET`` would run in a fresh checkout (a venv not made yet)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    done = subprocess.run(["make", "-n", "-B", target, f"VENV={tmp_path / 'venv'}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def _installs(commands: list[str]) -> list[str]:
    return [c for c in commands if re.search(r"\bpip install\b", c) and "--upgrade pip" not in c]


def test_make_demo_installs_the_core_alone(tmp_path):
    installs = _installs(_dry_run("demo", tmp_path))
    assert installs and all("pip install -e . " in c or c.rstrip().endswith("pip install -e .") for c in installs), \
        installs
    assert not any("[" in c for c in installs), f"make demo installs an optional extra: {installs}"


def test_make_test_installs_the_extras_the_tests_cover(tmp_path):
    installs = " ".join(_installs(_dry_run("test", tmp_path)))
    for extra in ("test", "balance", "openspiel", "pettingzoo", "gymnasium"):
        assert re.search(rf"\[[^\]]*\b{extra}\b", installs), extra
    assert "tests/outside_mechanic" in installs
