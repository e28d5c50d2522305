"""The differential check can fail: a rule changed in a generated module only (the
reference interpreter untouched) must be reported, naming the field that differs."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest

from railspec.compiler.build import build
from railspec.compiler.emit import emit
from railspec.runtime.game import Variant
from railspec.tools import conformance


def _mutate_route_points(source: str) -> str:
    """Every length-4 route scores 8 instead of 7 (Route Scoring Table, USA)."""
    block = re.search(r"T_ROUTE_POINTS\[\d+\] = \{(.*?)\}", source, re.S)
    assert block, "the generated module has no route points table"
    mutated = re.sub(r"\b7\b", "8", block.group(1))
    assert mutated != block.group(1)
    return source[:block.start(1)] + mutated + source[block.end(1):]


def _mutate_reset_rule(source: str) -> str:
    """The market resets at four face-up locomotives instead of three (Train Car Cards, USA)."""
    assert "RESET_LOCOS = 3" in source
    return source.replace("RESET_LOCOS = 3", "RESET_LOCOS = 4", 1)


@pytest.mark.parametrize("mutate,field", [(_mutate_route_points, "route_score"), (_mutate_reset_rule, "")],
                         ids=["route-table-entry", "faceup-locomotive-rule"])
def test_differential_reports_a_rule_mutated_in_the_generated_module(usa, tmp_path, mutate, field):
    # A key of its own keeps the installed stock module out of the way.
    mutant_ir = replace(usa.ir, key="usa_mutant")
    module = build(mutant_ir, mutate(emit(mutant_ir)), cache_dir=tmp_path)
    mutant = Variant(mutant_ir, module=module)
    report = conformance.run(mutant, range(40), lambda s: 4, api_every=0)
    assert not report.ok, "the mutation went unnoticed"
    first = report.problems[0]
    assert first.variant == "usa_mutant" and first.step >= 0 and first.action
    assert "differ" in first.what and field in first.what
    # and the unmutated source, built the same way, passes the same games
    clean = Variant(mutant_ir, module=build(mutant_ir, emit(mutant_ir), cache_dir=tmp_path))
    assert conformance.run(clean, range(5), lambda s: 4, api_every=0).ok
