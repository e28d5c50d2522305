"""The mechanic registry's contract, and a mechanic added from outside railspec.

Every registered mechanic declares all its parts, and both engines implement every hook
it uses (docs/architecture.md, "Adding a mechanic"). The toy mechanic of tests/toy_mechanic
(postcards: one state field, one action, one scoring item) is registered in a test-only
registry and shown to reach both engines, the state JSON, validation, observation and the
breakdown, without a core file edited.
"""
from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import pytest
from toy_mechanic import SEND_POSTCARD, Postcards

import railspec
from railspec.compiler import ir
from railspec.compiler.base.schema import Field
from railspec.compiler.mechanic import HOOK_NAMES, HOOKS, LANGUAGE_PARTS, PARTS, default_registry
from railspec.tools import conformance

REGISTRY = default_registry()
MECHANICS = list(REGISTRY)


def _declares(cls, part: str) -> bool:
    """Whether the class body of the mechanic (not the base class) defines ``part``."""
    return any(part in vars(klass) for klass in cls.__mro__ if klass.__name__ != "Mechanic" and klass is not object)


@pytest.mark.parametrize("mechanic", MECHANICS, ids=lambda m: m.name)
def test_every_mechanic_declares_its_parts(mechanic):
    cls = type(mechanic)
    needed = PARTS if mechanic.implemented else LANGUAGE_PARTS
    missing = [part for part in needed if not _declares(cls, part)]
    assert not missing, f"{mechanic.name} does not declare {missing}"
    assert dataclasses.is_dataclass(mechanic.rule) and issubclass(mechanic.rule, ir.Rule)
    assert mechanic.rule.mechanic == mechanic.name
    assert mechanic.__doc__ is None or mechanic.title  # a title for messages
    assert type(mechanic).__module__.startswith("railspec.mechanics.")
    assert Path(type(mechanic).folder()).name == mechanic.name, "a mechanic lives in its own folder"


# Specs that between them use every implemented mechanic: the stock specs the engines run,
# and small ones for what no stock spec the engines run uses yet.
EXTRA_SPECS = {
    "shuffled-returns": "extends \"usa\"\nvariant \"USA, shuffled returns\"\nreturned tickets shuffled bottom\n",
    "ferry": "extends \"usa\"\nvariant \"USA, a ferry\"\nwithout route Sault St. Marie - Winnipeg\n"
             "route Sault St. Marie - Winnipeg 6 gray ferry 2\n",
    "zone": "extends \"usa\"\nvariant \"USA, a zone\"\nzone Canada\nroute Seattle - Canada 2 gray\n"
            "route Duluth - Canada 3 gray\nticket Canada - Miami 20\n",
}


@pytest.fixture(scope="module")
def reference_parts(tmp_path_factory):
    """mechanic name -> the reference part the interpreter built for it, from real variants."""
    from railspec.compiler import stock_names
    from railspec.runtime.reference import rules_for
    variants = []
    for name in stock_names():
        try:
            variants.append(railspec.load(name).ir)
        except railspec.UnsupportedMechanicError:
            pass
    folder = tmp_path_factory.mktemp("specs")
    for name, text in EXTRA_SPECS.items():
        (folder / f"{name}.rail").write_text(text, encoding="utf-8")
        variants.append(railspec.load(folder / f"{name}.rail").ir)
    parts = {}
    for variant in variants:
        for mechanic, part in rules_for(variant).parts:
            parts.setdefault(mechanic.name, part)
    return parts


@pytest.mark.parametrize("mechanic", [m for m in MECHANICS if m.implemented], ids=lambda m: m.name)
def test_both_engines_implement_every_hook_a_mechanic_uses(mechanic, reference_parts):
    assert mechanic.hooks <= set(HOOK_NAMES), f"unknown hooks {sorted(mechanic.hooks - set(HOOK_NAMES))}"
    fragments = {p.name[:-len(".pyx.j2")] for p in mechanic.template_dir().glob("*.pyx.j2")}
    assert fragments == set(mechanic.hooks), "one template fragment per hook the mechanic declares, no other"
    assert mechanic.name in reference_parts, \
        f"no spec of this test uses {mechanic.name}: add one to EXTRA_SPECS"
    part = reference_parts[mechanic.name]
    for hook in HOOKS:
        if hook.attribute is None:
            continue
        if hook.name in mechanic.hooks:
            assert hasattr(part, hook.attribute), f"{mechanic.name}: the reference lacks {hook.attribute}"
        else:
            assert not hasattr(part, hook.attribute), \
                f"{mechanic.name}: the reference has {hook.attribute} but the mechanic does not declare {hook.name}"


@pytest.mark.parametrize("mechanic", [m for m in MECHANICS if m.implemented], ids=lambda m: m.name)
def test_what_a_mechanic_adds_is_marked_as_its_own(mechanic):
    assert all(isinstance(f, Field) and f.owner == mechanic.name for f in mechanic.state_fields)
    assert all(item.owner == mechanic.name for item in mechanic.score_items)
    assert all(tb.owner == mechanic.name for tb in mechanic.tiebreaks)


def test_supported_mechanics_follow_from_the_registry():
    """One list says what the engines implement: load refuses the rest, by name."""
    from railspec.mechanics.stations import Stations
    from railspec.mechanics.tunnels import Tunnels

    class DraftTunnels(Tunnels):
        implemented = False

    class DraftStations(Stations):
        implemented = False
    assert all(m.implemented for m in MECHANICS), "every stock mechanic plays"
    drafts = REGISTRY.replacing(DraftTunnels()).replacing(DraftStations())
    with pytest.raises(railspec.UnsupportedMechanicError, match="do not implement tunnels, stations yet"):
        railspec.load("europe", registry=drafts)
    assert railspec.load("usa", registry=drafts).key == "usa"


# --- a mechanic from outside railspec --------------------------------------------------

TOY = REGISTRY.with_mechanics(Postcards())


@pytest.fixture(scope="module")
def toy_usa():
    return railspec.load("usa", registry=TOY)


def test_the_toy_mechanic_is_outside_the_package():
    package = Path(railspec.__file__).resolve().parent
    assert package not in Path(Postcards.folder()).parents
    assert "postcards" not in railspec.load("usa").ir.mechanics


def test_the_toy_reaches_the_catalogue_and_the_state(toy_usa):
    usa = railspec.load("usa")
    names = [a.name for a in toy_usa.actions]
    assert names[-2:] == ["send postcard", "pass"]
    assert names[:-2] == [a.name for a in usa.actions][:-1]  # registry order: before pass
    state = toy_usa.new_game(players=3, seed=2, engine="reference").state()
    assert list(state)[-1] == "postcards" and state["postcards"] == [0, 0, 0]


@pytest.mark.parametrize("engine", ["reference", "compiled"])
def test_the_toy_plays_in_both_engines(toy_usa, engine, tmp_path, monkeypatch):
    monkeypatch.setenv("RAILSPEC_CACHE", str(tmp_path))
    g = toy_usa.new_game(players=2, seed=5, engine=engine)
    while g.state()["phase"] == "setup_keep":
        g.apply(g.legal_actions()[0])
    send = toy_usa.action_id("send postcard")
    for _ in range(3 * 2):
        assert send in g.legal_actions()
        g.apply(send)
    assert g.state()["postcards"] == [3, 3]
    assert send not in g.legal_actions()
    rows = g.score_breakdown()
    assert list(rows[0])[-2:] == ["postcard_points", "total"]
    assert [r["postcard_points"] for r in rows] == [6, 6]
    assert all(r["total"] == r["routes"] + r["tickets"] + r["longest_bonus"] + 6 for r in rows)
    assert g.observation(0)["postcards"] == [3, 3]


def test_both_engines_agree_with_the_toy(toy_usa, tmp_path, monkeypatch):
    """The differential suite, with the validator and the re-derived scores, on the toy."""
    monkeypatch.setenv("RAILSPEC_CACHE", str(tmp_path))
    report = conformance.run(toy_usa, range(12), lambda s: 2 + s % 4, api_every=20)
    assert report.ok, "\n".join(str(p) for p in report.problems[:5])
    assert report.games == 12


def test_the_validator_checks_the_toys_field(toy_usa):
    good = toy_usa.new_game(players=2, seed=1, engine="reference").state()
    for bad in ([4, 0], [-1, 0], [0], "x"):
        state = copy.deepcopy(good)
        state["postcards"] = bad
        with pytest.raises(railspec.StateError, match="postcards"):
            toy_usa.game_from_state(state, engine="reference")
    state = copy.deepcopy(good)
    del state["postcards"]
    with pytest.raises(railspec.StateError, match="missing postcards"):
        toy_usa.game_from_state(state, engine="reference")


def test_positions_score_the_toy_with_the_reference_when_no_module_is_built(toy_usa):
    rows = toy_usa.score({"players": [{"routes": ["Calgary-Helena"], "tickets": []},
                                      {"routes": [], "tickets": []}]})
    assert [r["postcard_points"] for r in rows] == [0, 0] and rows[0]["winner"]


def test_a_kind_the_toy_adds_has_a_code_in_both_engines(toy_usa):
    assert toy_usa.assembly.kinds[-1] == SEND_POSTCARD
    assert toy_usa.assembly.kind_code(ir.PASS) < toy_usa.assembly.kind_code(SEND_POSTCARD)
