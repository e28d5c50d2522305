"""Every hook, in both engines: the inspector mechanic of tests/hooks_mechanic fills all
of them (set-up piles and offers, claim payment, a claim left pending, a phase of its own,
after a claim, the draw rules, end of turn, the end trigger, game over, the scoring graph,
one ticket's score, per-player and cross-player scoring, derived fields, engine methods, a
tie-break, a position key) but four the stock mechanics fill, and the compiled engine and
the reference interpreter must agree on every decision of seeded games."""
from __future__ import annotations

import pytest
from hooks_mechanic import INSPECTION, Inspector

import railspec
from railspec.compiler.hooks import HOOK_NAMES
from railspec.compiler.mechanic import default_registry
from railspec.tools import conformance

REGISTRY = default_registry().with_mechanics(Inspector())


@pytest.fixture(scope="module")
def inspected(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAILSPEC_CACHE", str(tmp_path_factory.mktemp("cache")))
        v = railspec.load("usa", registry=REGISTRY)
        v.module()  # built here, into the test's own cache
        yield v


def test_the_inspector_fills_every_hook():
    assert Inspector.filled_hooks() == set(HOOK_NAMES) - {"returned_tickets", "route_open", "payment_ok",
                                                          "turn_actions"}
    # the four others are filled by the stock mechanics the USA spec uses and by the
    # postcards of tests/outside_mechanic: shuffled returns, double routes, ferry cards


def test_both_engines_agree_on_every_hook(inspected):
    report = conformance.run(inspected, range(60), lambda s: 2 + s % 4, api_every=15)
    assert report.ok, "\n".join(str(p) for p in report.problems[:5])
    assert report.decisions > 5000


@pytest.mark.parametrize("engine", ["reference", "compiled"])
def test_the_hooks_leave_their_marks(inspected, engine):
    g = inspected.new_game(players=3, seed=11, engine=engine)
    s = g.state()
    assert sorted(s["inspector_pile"]) == [0, 1, 2, 3, 4] and s["inspector_pile"] != [0, 1, 2, 3, 4]
    assert s["inspections"] == [1 if offer[0] % 2 == 0 else 0 for offer in s["setup_offer"]]
    seen_phase = pending = False
    from railspec.compiler.base.rng import agent_for
    agent = agent_for(11)
    while not g.is_over:
        s = g.state()
        seen_phase |= s["phase"] == INSPECTION
        pending |= s["pending_route"] >= 0
        legal = g.legal_actions()
        g.apply(legal[agent.below(len(legal))])
    s = g.state()
    assert seen_phase and pending and s["finished"] == 1 and s["locos_seen"] > 0
    assert sum(s["payments"]) >= sum(1 for o in s["owner"] if o >= 0)
    assert [g._e.inspections_of(p) for p in range(3)] == s["inspections"]
    assert g._e.inspected_total() == sum(s["inspections"])
    assert inspected.game_from_state(s, engine=engine)._e.inspected_total() == sum(s["inspections"])
    rows = g.score_breakdown()
    assert [r["inspection_points"] for r in rows] == s["inspections"]
    assert list(rows[0])[-3:] == ["inspection_points", "inspection_award", "total"]


def test_the_scoring_graph_counts_for_tickets_not_for_the_longest_path(inspected):
    """The inspector joins route 0's ends (Atlanta, Charleston) in every network: player 0's
    New York-Atlanta ticket is completed through Charleston, though Atlanta-Charleston is
    not theirs; the longest path counts the player's own routes only."""
    assert inspected.routes[0].name == "Atlanta-Charleston"
    own = ["Charleston-Raleigh", "Raleigh-Washington/1", "New York-Washington/1"]
    position = {"players": [{"routes": own, "tickets": ["New York-Atlanta"], "inspections": 2},
                            {"routes": ["Atlanta-Raleigh/1"], "tickets": [], "inspections": 1}]}
    rows = inspected.score(position)
    assert rows[0]["tickets_completed"] == 1 and rows[0]["longest_path"] == 6
    assert rows[1]["longest_path"] == 2 and [r["inspection_award"] for r in rows] == [3, 0]
    from railspec.runtime import reference
    from railspec.runtime.position import position_fields
    assert reference.score_fields(inspected.ir, position_fields(inspected.ir, position)) == \
        [{k: v for k, v in row.items() if k != "winner"} for row in rows]


def test_the_mechanics_tie_break(inspected):
    from dataclasses import replace

    from railspec.runtime.scoring import winners
    ir = replace(inspected.ir, tiebreaks=("most_tickets", "most_inspections"))
    rows = [dict(total=10, tickets_completed=1, inspection_points=1), dict(total=10, tickets_completed=1,
                                                                          inspection_points=2)]
    assert winners(ir, rows) == [1]
