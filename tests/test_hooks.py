"""Every hook, in both engines: the inspector mechanic of tests/hooks_mechanic fills all
of them (set-up piles and offers, claim payment, a claim left pending, a phase of its own,
after a claim, a claim taken for no player, the draw rules, end of turn, the end trigger and
a condition joined to the core's, game over, the scoring graph,
one ticket's score, per-player and cross-player scoring, derived fields, engine methods, a
tie-break, a position key) but four the stock mechanics fill, and the compiled engine and
the reference interpreter must agree on every decision of seeded games."""
from __future__ import annotations

import pytest
from hooks_mechanic import INSPECTION, Inspector

import railspec
from railspec.compiler.base.rng import agent_for
from railspec.compiler.base.schema import Field
from railspec.compiler.emit import emit
from railspec.compiler.hooks import HOOK_NAMES
from railspec.compiler.mechanic import Caches, Mechanic, contract_problems, default_registry
from railspec.runtime.state_format import validate
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
                                                          "claim_payable", "claim_routes", "turn_actions",
                                                          "route_colour", "after_draw", "phase_count", "phase_nth",
                                                          "after_shared_claim"}
    # the others are filled by the stock mechanics the USA spec uses and by the postcards of
    # tests/outside_mechanic: shuffled returns, double routes, ferry cards; claim_payable and
    # claim_routes by the sets of one colour (substitutes, Northern Lights); route_colour,
    # after_draw and the playout hooks by track building (France's track beds, played on both
    # engines by tests/test_differential.py, tests/test_api.py's playouts and
    # mechanics/track_building/tests); after_shared_claim, reached only from a phase listing
    # owned routes' claims, by the technologies' Right of Way (the United Kingdom:
    # mechanics/technology/tests)


def test_playout_hooks_come_as_a_pair_for_a_mechanic_with_phases():
    """``Mechanic.playout_hooks`` (compiled only: the random playouts' count and pick in the
    mechanic's phases) are both or neither, of a mechanic with phases; they are filled hooks."""

    class Counter(Mechanic):
        name = "counter"
        phases = ("counting",)
        playout_hooks = ("phase_count", "phase_nth")

    assert {"phase_count", "phase_nth"} <= Counter.filled_hooks()
    assert not [p for p in contract_problems(Counter) if "playout hook" in p]

    class HalfCounter(Counter):
        playout_hooks = ("phase_count",)

    assert any("playout hooks are phase_count: they are phase_count and phase_nth" in p
               for p in contract_problems(HalfCounter))

    class Phaseless(Mechanic):
        name = "phaseless"
        playout_hooks = ("phase_count", "phase_nth")

    assert any("declares no phase" in p for p in contract_problems(Phaseless))


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
    agent = agent_for(11)
    while not g.is_over:
        s = g.state()
        seen_phase |= s["phase"] == INSPECTION
        pending |= s["pending_route"] >= 0
        legal = g.legal_actions()
        g.apply(legal[agent.below(len(legal))])
    s = g.state()
    assert seen_phase and pending and s["game_finished"] == 1 and s["locos_seen"] > 0
    assert s["setup_kept"] >= 2 * 3  # each of the 3 players kept at least 2 of their dealt tickets
    assert sum(s["claims_paid"]) >= sum(1 for o in s["owner"] if o >= 0)
    taken = sum(1 for o in s["owner"] if o == 3)  # 3 players: the owner 3 is nobody
    assert s["taken_for_nobody"] == taken > 0
    assert [g.inspections_of(p) for p in range(3)] == s["inspections"]
    assert g.inspected_total() == sum(s["inspections"])


def test_locomotives_are_not_wild_where_a_mechanic_says(inspected):
    v = inspected.ir
    claims = [a for a in v.actions if a.kind == "claim"]
    three = {a.id for a in claims if v.routes[a.route].length == 3}
    assert three and not any(v.actions[i].locomotives for i in three)
    assert any(a.locomotives for a in claims if v.routes[a.route].length == 2)  # wild elsewhere
    for engine in ("reference", "compiled"):
        g = inspected.new_game(players=2, seed=3, engine=engine)
        agent, offered = agent_for(3), 0
        while not g.is_over:
            legal = g.legal_actions()
            offered += sum(1 for a in legal if a in three)
            g.apply(legal[agent.below(len(legal))])
        assert offered > 0  # the 3-car routes stay claimable with cards of one colour


def test_a_claim_under_way_must_be_one_the_player_may_make(inspected):
    """A ``pending_claim`` field (the inspector's waiting claim) is checked by the core's
    state check with the rules of every mechanic: a route someone took is refused."""
    g = inspected.new_game(players=3, seed=5)
    agent = agent_for(5)
    while g.state()["pending_route"] < 0:
        legal = g.legal_actions()
        g.apply(legal[agent.below(len(legal))])
    state = g.state()
    validate(inspected.ir, state)
    route = inspected.ir.routes[state["pending_route"]]
    other = (state["current"] + 1) % 3
    state["owner"][route.id] = other
    state["trains"][other] -= route.length
    state["route_score"][other] += inspected.ir.route_points[route.length]
    with pytest.raises(railspec.StateError, match="'pending_route'.*not one they may claim"):
        validate(inspected.ir, state)


def test_upkeep_hooks_keep_derived_fields_and_decide_nothing():
    """A mechanic's upkeep hooks (compiled only) are filled with its derived fields, and
    only hooks chained ``each`` may be upkeep: one that decides must be in both engines.
    The contract names what is wrong (``contract_problems``); the filled hooks follow."""
    cache = Field("seen", "a cache", owner="keeper", derived=True)

    class Keeper(Mechanic, Caches):
        name = "keeper"
        state_fields = (cache,)
        upkeep_hooks = ("after_claim",)

    assert Keeper.filled_hooks() == {"derive", "after_claim"}
    assert not [p for p in contract_problems(Keeper) if "upkeep" in p]

    class Decider(Keeper):
        upkeep_hooks = ("route_open",)

    assert any("upkeep hook 'route_open'" in p for p in contract_problems(Decider))

    class Cacheless(Mechanic, Caches):
        name = "cacheless"
        upkeep_hooks = ("after_claim",)

    assert any("declares none" in p for p in contract_problems(Cacheless))

    class Undeclared(Mechanic):
        name = "undeclared"
        state_fields = (cache,)
        upkeep_hooks = ("after_claim",)

    assert any("without naming the capability: class Undeclared(Mechanic, Caches" in p
               for p in contract_problems(Undeclared))


def test_closed_routes_name_a_derived_route_bitset_that_route_open_reads():
    """``Caches.closed_routes``: a derived per-player u64 field of ROUTE_WORDS words, of a
    mechanic that fills route_open; legal claims then drop its routes a word at a time and
    leave its route_open out of the per-route test (the stock double routes do)."""
    from railspec.compiler.hooks import MechanicReference

    class Opens(MechanicReference):
        def route_open(self, state, route, player):
            return True

    closed = Field("shut", "routes closed", owner="gate", kind="u64", per_player=True, size="ROUTE_WORDS",
                   derived=True)

    class Gate(Mechanic, Caches):
        name = "gate"
        state_fields = (closed,)
        closed_routes = "shut"
        reference = Opens

    assert "route_open" in Gate.filled_hooks()
    assert not [p for p in contract_problems(Gate) if "closed_routes" in p]

    class NoRouteOpen(Gate):
        reference = MechanicReference

    assert any("does not fill route_open" in p for p in contract_problems(NoRouteOpen))

    class NotABitset(Gate):
        state_fields = (Field("shut", "a count", owner="gate", derived=True),)

    assert any("not one of its derived state fields" in p for p in contract_problems(NotABitset))

    source = emit(railspec.load("usa").ir)
    listing = source[source.index("cdef inline bint hook_route_open_listing"):]
    assert "~s.tracks_closed[p][w]" in source and "route_open(s, r, p)" not in listing.split("return True")[0]
