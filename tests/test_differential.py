"""The compiled engine against the reference interpreter, decision by decision, on seeded
random games of every stock variant (docs/engine.md is the contract both follow).

CI plays RAILSPEC_DIFF_GAMES games per variant (default 120, every player count in turn);
`make conformance` plays 2,000 of each."""
from __future__ import annotations

import os

import pytest
from conftest import implemented_stock_variants

from railspec.tools import conformance

GAMES = int(os.environ.get("RAILSPEC_DIFF_GAMES", "120"))


@pytest.mark.parametrize("v", implemented_stock_variants(), ids=lambda v: v.key)
def test_engines_agree_on_seeded_games(v):
    counts = list(range(v.ir.min_players, v.ir.max_players + 1))
    report = conformance.run(v, range(GAMES), lambda s: counts[s % len(counts)], api_every=40)
    assert report.games == GAMES
    assert report.ok, "\n".join(str(p) for p in report.problems[:10])


def test_first_difference_names_the_field():
    a = {"deck": [1, 2, 3], "hands": [[0, 1], [2, 2]]}
    b = {"deck": [1, 2, 3], "hands": [[0, 1], [2, 3]]}
    assert conformance.first_difference(a, b) == "hands[1][1]: 2 != 3"
    assert conformance.first_difference(a, a) is None
