"""The mechanics' contract: what every registered mechanic declares, and that both engines
fill the same hooks for it (docs/architecture.md, "Adding a mechanic").

A mechanic is one folder: its class (the parts it adds, each defaulting to nothing), its
rule record, its language (``statements`` and ``grammar.lark``), its reference class (a
``MechanicReference`` subclass: the hooks it overrides are the hooks it fills) and its
``engine.pyx.j2`` (one C function per hook it fills, named after it and the hook).
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from conftest import implemented_stock_variants

import railspec
from railspec.compiler import ir
from railspec.compiler.base.schema import Field
from railspec.compiler.hooks import HOOKS, MechanicReference
from railspec.compiler.lang import ast
from railspec.compiler.mechanic import Payments, Questions, Sampled, default_registry, part, stock_registry
from railspec.runtime.reference import rules_for

REGISTRY = default_registry()
MECHANICS = list(REGISTRY)
SAMPLED = [m for m in MECHANICS if part(m, Sampled).sample is not None]


@pytest.mark.parametrize("mechanic", MECHANICS, ids=lambda m: m.name)
def test_every_mechanic_declares_what_it_is(mechanic):
    assert dataclasses.is_dataclass(mechanic.rule) and issubclass(mechanic.rule, ir.Rule)
    assert mechanic.rule.mechanic == mechanic.name
    assert mechanic.title
    assert issubclass(mechanic.reference, MechanicReference)
    assert all(isinstance(node, type) and issubclass(node, ast.Node) and node.rule for node in mechanic.statements)
    assert not mechanic.statements or type(mechanic).grammar(), "node classes come with their grammar rules"


@pytest.mark.parametrize("mechanic", list(stock_registry()), ids=lambda m: m.name)
def test_a_stock_mechanic_lives_in_its_own_folder(mechanic):
    assert type(mechanic).__module__ == f"railspec.mechanics.{mechanic.name}"
    assert Path(type(mechanic).folder()).name == mechanic.name


@pytest.mark.parametrize("mechanic", [m for m in MECHANICS if m.implemented], ids=lambda m: m.name)
def test_both_engines_fill_the_same_hooks(mechanic):
    """The reference class's overrides are the hooks; the engine text defines exactly their
    functions (the emitter refuses anything else, with a message naming the hook)."""
    engine = mechanic.template_dir() / "engine.pyx.j2"
    text = engine.read_text(encoding="utf-8") if engine.is_file() else ""
    defined = {h.name for h in HOOKS if re.search(rf"\bcdef\b[^\n(]*\b{h.function(mechanic.name)}\s*\(", text)}
    assert defined == set(mechanic.filled_hooks())
    if mechanic.phases:
        assert "phase_legal" in defined, "a mechanic with phases of its own says what is legal in them"
    if mechanic.kinds:
        assert "apply" in defined, "a mechanic with action kinds of its own plays them"


def test_the_emitter_names_a_hook_function_that_is_missing(tmp_path):
    from railspec.compiler import check_file
    from railspec.compiler.emit import emit
    from railspec.mechanics.multi_track import MultiTrack, MultiTrackReference

    class Closing(MultiTrackReference):
        def end_of_turn(self, state) -> None:
            pass

    class Half(MultiTrack):
        reference = Closing
    variant = check_file(railspec.compiler.stock_path("usa"), REGISTRY.replacing(Half()))
    with pytest.raises(ValueError, match="multi_track: its reference fills the hook end_of_turn, but its "
                                         "engine.pyx.j2 defines no multi_track_end_of_turn"):
        emit(variant)


@pytest.mark.parametrize("mechanic", [m for m in MECHANICS if m.implemented], ids=lambda m: m.name)
def test_what_a_mechanic_adds_is_marked_as_its_own(mechanic):
    assert all(isinstance(f, Field) and f.owner == mechanic.name for f in mechanic.state_fields)
    assert all(item.owner == mechanic.name for item in mechanic.score_items)
    assert all(tb.owner == mechanic.name for tb in mechanic.tiebreaks)
    assert all(c.owner == mechanic.name for c in part(mechanic, Payments).payment_columns)


def test_supported_mechanics_follow_from_the_registry():
    """One list says what the engines implement: load refuses the rest, by name."""
    from railspec.mechanics.stations import Stations
    from railspec.mechanics.tunnels import Tunnels

    class DraftTunnels(Tunnels):
        implemented = False

    class DraftStations(Stations):
        implemented = False
    assert all(m.implemented for m in MECHANICS), "every installed mechanic plays"
    drafts = REGISTRY.replacing(DraftTunnels()).replacing(DraftStations())
    with pytest.raises(railspec.UnsupportedMechanicError, match="do not implement tunnels, stations yet"):
        railspec.load("europe", registry=drafts)
    assert railspec.load("usa", registry=drafts).key == "usa"


def test_the_order_of_the_stock_mechanics_is_fixed():
    """Catalogue ids, state keys and hook calls follow the registry's order: the stock
    mechanics keep theirs whatever else is installed (an installed one comes after)."""
    assert [m.name for m in stock_registry()] == [
        "multi_track", "longest_path", "shuffled_returns", "long_tickets", "removed_tickets", "zones", "ferries",
        "ferry_cards", "tunnels", "stations", "goods", "shares", "globetrotter", "regions", "grand_tour",
        "mountains", "explorer", "wild_locomotives", "locomotive_draws", "substitutes", "multi_target", "bullet_trains",
        "technology", "draw_bonus", "bonus_cards", "track_building", "city_control"]
    stock = [m.name for m in stock_registry()]
    assert [m.name for m in REGISTRY if m.name in stock] == stock


def test_a_game_answers_each_mechanics_queries_on_both_engines():
    """Each query a stock mechanic declares is a method of its reference class's
    ``methods()`` and of the compiled Engine, and ``Game`` offers it: the same answer on
    both engines where the variant uses the mechanic, the stated one where it does not."""
    asked = 0
    for variant in implemented_stock_variants():
        compiled = variant.new_game(players=variant.ir.min_players, seed=1)
        for _ in range(60):  # into the game, so that answers differ from a blank board's
            compiled.apply(compiled.legal_actions()[-1])
        reference = variant.game_from_state(compiled.state(), engine="reference")
        present = {m.name for m, _ in variant.ir.present()}
        for mechanic in MECHANICS:
            for query in part(mechanic, Questions).queries:
                args = (0,) if query.player else ()
                answers = [getattr(g, query.name)(*args) for g in (compiled, reference)]
                if mechanic.name in present:
                    methods = mechanic.reference(rules_for(variant.ir), variant.ir.rule(mechanic.name)).methods()
                    assert query.name in methods and hasattr(variant.module().Engine, query.name)
                    assert answers[0] == answers[1]
                else:
                    assert answers == [query.absent, query.absent]
                assert query.name in dir(compiled)
                asked += 1
    assert asked >= 5
    with pytest.raises(AttributeError):
        compiled.no_such_query  # noqa: B018


def test_most_stock_mechanics_offer_a_sample():
    """Each sample is played alone and beside every other by tests/test_contract.py."""
    assert len(SAMPLED) >= 12
