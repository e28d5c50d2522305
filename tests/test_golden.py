"""Golden traces: seeded games recorded once (tests/golden/, `make golden`) and replayed in
both engines on every run. A change that alters any decision, legal-move count or score
shows up here as the first divergent step."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import implemented_stock_variants

import railspec
from railspec.tools import trace

GOLDEN = sorted(Path(__file__).parent.joinpath("golden").glob("*.jsonl"))


def test_every_implemented_stock_variant_has_golden_traces():
    for v in implemented_stock_variants():
        assert any(p.name.startswith(f"{v.key}-") for p in GOLDEN), f"no golden trace for {v.key}"


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_golden_trace_replays(path, engine):
    lines = trace.loads(path.read_text(encoding="utf-8"))
    v = railspec.load(lines[0]["variant"])
    verdict = trace.verify(v, lines, engine=engine)
    assert verdict.ok, f"{path.name} [{engine}]: {verdict.message}"


def test_a_tampered_trace_reports_the_first_divergence(usa, tmp_path):
    usa_golden = next(p for p in GOLDEN if p.name.startswith("usa-"))
    lines = trace.loads(usa_golden.read_text(encoding="utf-8"))
    step = 12
    record = lines[1 + step]
    record["legal"] += 1
    verdict = trace.verify(usa, lines)
    assert not verdict.ok and verdict.message.startswith(f"step {step}:")
    lines = trace.loads(usa_golden.read_text(encoding="utf-8"))
    lines[-1]["breakdown"][0]["total"] += 1
    verdict = trace.verify(usa, lines)
    assert not verdict.ok and "final breakdown differs" in verdict.message
    lines = trace.loads(usa_golden.read_text(encoding="utf-8"))
    lines[0]["spec_hash"] = "0" * 16
    assert "spec" in trace.verify(usa, lines).message
