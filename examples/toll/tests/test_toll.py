"""The toll mechanic's own tests, as its author would keep them: railspec's contract check
first, then the rule on both engines."""
from __future__ import annotations

from pathlib import Path

import pytest
from railspec_toll import Toll

import railspec
from railspec.testing import check_mechanic

SPEC = Path(__file__).resolve().parents[1] / "railspec_toll" / "toll.rail"


def test_toll_keeps_the_contract():
    """Round trips, both engines alike, described positions scored as the games were."""
    report = check_mechanic(Toll, games=4)
    assert report.decisions > 100


def test_toll_keeps_the_contract_on_its_usa_map():
    check_mechanic(Toll, SPEC, games=2, checks=("spec", "games", "positions"))


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_a_toll_is_paid_from_points_already_scored(engine, tmp_path):
    """A toll route is closed to a player without the points to pay it; once claimed, its
    toll comes off the total (tolls_paid, and the breakdown's ``tolls``)."""
    v = railspec.load(SPEC)
    route = next(r for r in v.routes if r.name == "New York-Washington/1")
    g = v.new_game(players=2, seed=3, engine=engine)
    while not g.is_over:
        state = g.state()
        p = state["current"]
        claims = [a for a in g.legal_actions() if v.ir.actions[a].kind == "claim"]
        if state["owner"][route.id] == -1 and state["phase"] == "turn":
            open_now = any(v.ir.actions[a].route == route.id for a in claims)
            if state["route_score"][p] - state["tolls_paid"][p] < 1:
                assert not open_now
        mine = [a for a in claims if v.ir.actions[a].route == route.id]
        g.apply(mine[0] if mine else g.legal_actions()[-1])
    rows = g.score_breakdown()
    paid = g.state()["tolls_paid"]
    assert [row["tolls"] for row in rows] == [-t for t in paid]
    assert any(paid)


def test_a_bad_toll_is_located(tmp_path):
    """A toll is a positive number of points: 0 is an error at its place in the spec."""
    path = tmp_path / "bad_toll.rail"
    path.write_text(SPEC.read_text(encoding="utf-8").replace("toll 3", "toll 0")
                    .replace('extends "usa"', f'extends "{railspec.compiler.stock_path("usa")}"'), encoding="utf-8")
    with pytest.raises(railspec.SpecError) as caught:
        railspec.compiler.check_file(path)
    assert "bad_toll.rail:9:" in str(caught.value) and "a route's toll must be positive, got 0" in str(caught.value)
