"""The mechanic contract, checked: every installed mechanic, alone and beside every other.

``railspec.testing.check_mechanic`` is the check a mechanic's author runs; here it runs on
every stock mechanic and on the mechanics installed from outside (postcards, the toll
example), on both engines. Two by two, every pair of stock samples that can share a spec
(one route carrying both where both attach to routes) plays on the reference engine with
every state saved and loaded; every sample together plays on both engines, so the
compiled engine is checked against the reference with every mechanic beside every other.
``make contract-pairs`` plays each pair on both engines (a longer run).

And the contract refuses what would fail silently: a capability's part defined without
the capability, a misspelt hook; a mechanic that drops its state from described
positions fails the check, naming the scores that differ.
"""
from __future__ import annotations

import itertools
import os

import pytest

import railspec
from railspec.compiler import stock_path
from railspec.compiler.mechanic import (
    DescribedPositions,
    Mechanic,
    Sampled,
    contract_problems,
    default_registry,
    stock_registry,
)
from railspec.compiler.mechanic.contract import derived_position_fields
from railspec.runtime.position import position_of_state
from railspec.testing import ContractFailure, check_combination, check_mechanic, check_pair, sample_spec

REGISTRY = default_registry()
SAMPLED = [m for m in REGISTRY if isinstance(m, Sampled) and m.sample is not None]
STOCK_SAMPLED = [m for m in stock_registry() if isinstance(m, Sampled) and m.sample is not None]
#: Stock mechanics without a sample, each checked on a stock map that uses it.
ON_A_MAP = {"long_tickets": "europe", "zones": "switzerland"}


def test_every_stock_mechanic_offers_a_sample_or_is_checked_on_a_map():
    assert {m.name for m in stock_registry()} == {m.name for m in STOCK_SAMPLED} | set(ON_A_MAP)


@pytest.mark.parametrize("mechanic", SAMPLED, ids=lambda m: m.name)
def test_every_mechanic_keeps_its_contract(mechanic):
    report = check_mechanic(mechanic, games=4)
    assert report.decisions > 100 and set(report.outcomes) == {
        "contract", "spec", "format", "catalogue", "language_server", "games", "positions", "observation"}


@pytest.mark.parametrize("name", sorted(ON_A_MAP))
def test_a_mechanic_without_a_sample_keeps_its_contract_on_a_map(name):
    report = check_mechanic(stock_registry().by_name[name], stock_path(ON_A_MAP[name]), games=1,
                            checks=("contract", "spec", "catalogue", "language_server", "games", "positions"))
    assert report.games == 1


def test_every_pair_of_samples_plays_and_saves_at_every_decision():
    """The reference engine, every state saved and loaded, every pair; the pairs that
    cannot share a spec are few and named."""
    failures, apart = [], []
    for first, second in itertools.combinations(STOCK_SAMPLED, 2):
        report = check_pair(first, second, games=2, engines=("reference",), raise_on_failure=False)
        if report is None:
            apart.append(f"{first.name}+{second.name}")
        elif not report.ok:
            failures.append(report.summary())
    assert not failures, "\n\n".join(failures)
    assert len(apart) <= 3, apart


def test_every_sample_together_on_both_engines():
    """Every stock sample in one spec (one route carrying as many route attributes as may
    go together): the compiled engine agrees with the reference decision by decision."""
    report = check_combination(STOCK_SAMPLED, games=8, checks=("spec", "games", "positions", "observation"))
    assert report is not None and report.games == 8
    assert "one route carrying several" in report.spec


@pytest.mark.skipif(not os.environ.get("RAILSPEC_CONTRACT_PAIRS"), reason="make contract-pairs plays each pair "
                                                                          "on both engines")
@pytest.mark.parametrize("pair", list(itertools.combinations(STOCK_SAMPLED, 2)),
                         ids=lambda pair: f"{pair[0].name}+{pair[1].name}")
def test_each_pair_on_both_engines(pair):
    check_pair(*pair, games=int(os.environ["RAILSPEC_CONTRACT_PAIRS"]))


# --- what the contract refuses ------------------------------------------------------------------

toll = pytest.importorskip("railspec_toll", reason="make install installs the toll example (examples/toll)")


def test_a_mechanic_that_drops_its_state_from_positions_fails_the_check():
    """It says it describes its positions and writes nothing: the check names the scores."""

    class Forgetful(toll.Toll, DescribedPositions):
        position_keys = ()

        def position(self, variant, rule, player, seat, fields):
            pass

        def seat_position(self, variant, rule, state, player):
            return {}

    with pytest.raises(ContractFailure) as caught:
        check_mechanic(Forgetful, games=4, engines=("reference",), checks=("spec", "games", "positions"))
    message = str(caught.value)
    assert "positions: reference: the described position scores" in message and "'tolls': 0" in message


def test_a_part_without_its_capability_is_refused_at_load(tmp_path):
    """Position parts defined on a class that does not name DescribedPositions would never
    be asked for: loading a spec that uses the mechanic says so, by name."""

    class Undeclared(toll.Toll):
        def seat_position(self, variant, rule, state, player):
            return {"tolls_paid": state["tolls_paid"][player]}

    assert contract_problems(Undeclared) == [
        "it defines seat_position, part of the DescribedPositions capability (its own keys of a described "
        "position), without naming the capability: class Undeclared(Mechanic, DescribedPositions, …)"]
    path = tmp_path / "toll.rail"
    path.write_text(sample_spec(toll.Toll), encoding="utf-8")
    with pytest.raises(railspec.MechanicContractError, match=r"mechanic toll \(.*Undeclared\): it defines "
                                                             r"seat_position"):
        railspec.load(path, registry=REGISTRY.replacing(Undeclared()))


def test_a_misspelt_hook_or_part_is_refused():
    from railspec.compiler.hooks import MechanicReference

    class Typo(MechanicReference):
        def score_players(self, state, player, row, network):
            pass

    class Misspelt(Mechanic):
        name = "misspelt"
        title = "a test"
        reference = Typo

        def seat_positon(self, variant, rule, state, player):
            return {}

    problems = contract_problems(Misspelt)
    assert "it defines seat_positon, which is no part of a mechanic: did you mean seat_position?" in problems
    assert "its reference defines score_players, which is no hook: did you mean score_player?" in problems


def test_an_outside_mechanic_scoring_its_own_state_is_scored_from_a_described_position():
    """The toll example declares no position parts; its scoring reads its own field, so
    described positions carry ``tolls_paid``, derived from the schema, and score as the
    game did (railspec.score, both engines)."""
    assert [f.name for f in derived_position_fields(toll.Toll)] == ["tolls_paid"]
    v = railspec.load(toll.__file__.replace("__init__.py", "toll.rail"))
    for engine in ("compiled", "reference"):
        g = v.new_game(players=3, seed=11, engine=engine)
        while not g.is_over:
            legal = g.legal_actions()
            claims = [a for a in legal if v.ir.actions[a].kind == "claim"]
            g.apply((claims or legal)[-1])
        position = position_of_state(v.ir, g.state())
        assert all("tolls_paid" in seat for seat in position["players"])
        assert any(seat["tolls_paid"] for seat in position["players"]), "some toll was paid"
        scored = railspec.score(v, position)
        assert [row["tolls"] for row in scored] == [row["tolls"] for row in g.score_breakdown()]
        assert [row["total"] for row in scored] == g.scores()
