"""Ferry cards and wave spaces (mechanics/ferry_cards): its statements, its rule on the Italy
map on both engines, and a spec with wave spaces compiled and played.

The rule's tests name the section of the Italy rulebook they come from
(shared/seeds/004_7923d32833fcf0ff.txt, the Portuguese edition: Comprar 1 carta de Balsa,
Controlar uma Rota).
"""
from __future__ import annotations

import pytest
from conftest import (
    Arranged,
    add,
    assert_located_error,
    bad_spec_params,
    checked,
    edit,
    mini,
    names,
    start_turns,
)

import railspec
from railspec.compiler import ir
from railspec.compiler.base.errors import IllegalActionError, SpecCheckError, SpecSyntaxError
from railspec.compiler.emit import emit
from railspec.mechanics.ferry_cards import DRAW_FERRY

S, C = SpecSyntaxError, SpecCheckError

@pytest.fixture(scope="module")
def italy():
    return railspec.load("italy")


# --- the statements: 'ferry cards N max M', 'action draw ferry card', 'waves N', 'ferry cards spent' ---

def test_ferry_cards_italy_new_components_and_special_rules():
    """Italy, 'Novos componentes' (10 ferry cards) and 'Comprar 1 carta de Balsa' (at most 2
    in hand): `ferry cards 10 max 2` and `action draw ferry card`."""
    v = checked(mini("ferry cards 10 max 2\naction draw ferry card"))
    assert (v.rule("ferry_cards").cards, v.rule("ferry_cards").hand_limit) == (10, 2)
    assert "ferry_cards" in v.mechanics
    assert [a.name for a in v.actions if a.kind == DRAW_FERRY] == ["draw ferry card"]


def test_wave_spaces_italy_controlar_uma_rota():
    """Italy, 'Controlar uma Rota': wave spaces are paid with locomotives or ferry cards,
    one ferry card covering up to two of them."""
    v = checked(mini("ferry cards 10 max 2\naction draw ferry card\nroute Alpha - Gamma 4 gray waves 2"))
    r = v.route_named("Alpha-Gamma")
    assert v.rule("ferry_cards").wave_spaces(r.id) == 2 and "ferry_cards" in v.mechanics
    pays = [a for a in v.actions if a.kind == ir.CLAIM and a.route == r.id]
    assert any(v.paid(a, "ferry_cards") == 1 and a.colour_cards == 2 and a.locomotives == 0 for a in pays)


def test_ferry_cards_spent_italy():
    """Italy: the rulebook does not say where spent ferry cards go; the spec does
    (docs/rules.md): back to the ferry pile by default, or out of the game."""
    base = "ferry cards 10 max 2\naction draw ferry card\n"
    assert checked(mini(base)).rule("ferry_cards").spent == "return"
    assert checked(mini(base + "ferry cards spent removed")).rule("ferry_cards").spent == "removed"


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("ferry-cards-without-max", add(14, "ferry cards 10 2"), S, 14, 16,
     "unexpected '2', expected 'max'; the form is: ferry cards N max M"),
    ("ferry-cards-spent-where", add(18, "ferry cards spent burned"), S, 18, 19,
     "unexpected 'burned', expected one of 'removed', 'return'; the form is: ferry cards spent return|removed"),
    ("ferry-card-action-plural", add(14, "action draw ferry cards"), S, 14, 19,
     "unexpected 'cards', expected one of ';'"),
    ("waves-without-number", edit(26, "route Beta - Gamma 3 gray waves"), S, 26, 32,
     "unexpected end of line, expected a number; the form is: route CITY - CITY LENGTH COLOUR"),
    ("ferry-hand-limit-above-the-cards", add(14, "ferry cards 2 max 3; action draw ferry card"), C, 14, 19,
     "a ferry card hand limit of 3, but the game has 2 ferry cards"),
    ("ferry-action-without-ferry-cards", add(14, "action draw ferry card"), C, 14, 1,
     "'action draw ferry card' needs a 'ferry cards N max M' statement"),
    ("waves-without-ferry-cards", edit(26, "route Beta - Gamma 3 gray waves 2"), C, 26, 33,
     "wave spaces need ferry cards: add 'ferry cards N max M'"),
    ("ferry-and-waves-too-many", edit(26, "route Beta - Gamma 3 gray ferry 2 waves 2"), C, 26, 41,
     "a route of length 3 cannot have 2 ferry locomotives and 2 wave spaces"),
    ("ferry-spent-without-ferry-cards", add(18, "ferry cards spent removed"), C, 18, 1,
     "'ferry cards spent' needs ferry cards: add 'ferry cards N max M'"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- Comprar 1 carta de Balsa (Italy) ---------------------------------------------------------

def test_taking_a_ferry_card_is_the_whole_turn_and_two_is_the_most(italy, engine):
    """Comprar 1 carta de Balsa: an action takes one ferry card; a player cannot hold more
    than 2, so with 2 the action is not possible."""
    g = start_turns(italy, 2, engine=engine, keep="keep tickets 1,2,3")
    g.apply_name("draw ferry card")
    s = g.state()
    assert s["ferry_cards"] == [1, 0] and s["ferry_pile"] == 9 and g.current_player == 1
    g = Arranged(italy, g).set(current=0, ferry_cards=[2, 0], ferry_pile=8).game(engine)
    assert "draw ferry card" not in names(g)
    with pytest.raises(IllegalActionError):
        g.apply_name("draw ferry card")
    assert g.observation(1)["ferry_cards"] == [2, 0]  # the count is public


# --- Controlar uma Rota: wave spaces (Italy) --------------------------------------------------

FERRY = "Ancona-Croazia"  # 4 spaces, 2 of them with a wave


def ferry_claims(game) -> list[str]:
    return [n for n in names(game) if n.startswith(f"claim {FERRY} ")]


def test_wave_spaces_paid_with_locomotives_only(italy, engine):
    """Controlar uma Rota: a wave space takes a locomotive (or ferry cards); the other spaces
    follow the gray-route rules. Locomotives alone pay all four spaces."""
    g = start_turns(italy, 4, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(italy, g).hand(0, loco=4).game(engine)
    assert ferry_claims(g) == [f"claim {FERRY} gray 4loco"]
    g.apply_name(f"claim {FERRY} gray 4loco")
    assert g.state()["owner"][italy.ir.route_named(FERRY).id] == 0


def test_wave_spaces_paid_with_ferry_cards_only(italy, engine):
    """Controlar uma Rota: one ferry card covers up to two wave spaces; a spent ferry card
    goes back to the ferry pile (the spec's rule, docs/rules.md #14)."""
    g = start_turns(italy, 4, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(italy, g).hand(0, red=2).set(ferry_cards=[1, 0, 0, 0], ferry_pile=9).game(engine)
    assert ferry_claims(g) == [f"claim {FERRY} gray 2red+1ferry"]
    g.apply_name(f"claim {FERRY} gray 2red+1ferry")
    s = g.state()
    assert s["ferry_cards"] == [0, 0, 0, 0] and s["ferry_pile"] == 10 and sum(s["hands"][0]) == 0


def test_wave_spaces_paid_with_a_mix(italy, engine):
    """Controlar uma Rota: the payments are every mix: locomotives for the waves, a ferry card
    for them, locomotives standing in on the other spaces."""
    g = start_turns(italy, 4, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(italy, g).hand(0, red=2, loco=2).set(ferry_cards=[1, 0, 0, 0], ferry_pile=9).game(engine)
    assert ferry_claims(g) == [f"claim {FERRY} gray 2red+2loco", f"claim {FERRY} gray 2red+1ferry",
                               f"claim {FERRY} gray 1red+1loco+1ferry", f"claim {FERRY} gray 2loco+1ferry"]


def test_ferry_cards_pay_nothing_but_wave_spaces(italy, engine):
    """Controlar uma Rota: ferry cards cannot be used on normal routes or on a ferry route's
    spaces without a wave: two ferry cards and nothing else claim nothing."""
    g = start_turns(italy, 4, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(italy, g).hand(0).set(ferry_cards=[2, 0, 0, 0], ferry_pile=8).game(engine)
    assert not any(n.startswith("claim ") for n in names(g))
    waves = italy.ir.rule("ferry_cards")
    assert not any(italy.ir.paid(a, "ferry_cards") for a in italy.actions
                   if a.route >= 0 and not waves.wave_spaces(a.route))


# --- wave spaces compiled: payments in blocks of ferry cards (tests/test_emit_build.py) -------

WAVES = '''extends "usa"
variant "USA with waves"
ferry cards 10 max 2
action draw ferry card
without route Sault St. Marie - Winnipeg
route Sault St. Marie - Winnipeg 6 gray waves 3
without route Duluth - Toronto
route Duluth - Toronto 6 pink ferry 1 waves 2
'''


def test_a_spec_with_wave_spaces_compiles_and_plays(tmp_path, monkeypatch):
    """The claim layout's blocks paying ferry cards reach the compiled legal moves: a spec
    with wave spaces is emitted, compiled and played, and both engines list the same
    payments."""
    import railspec
    from railspec.tools import conformance

    monkeypatch.setenv("RAILSPEC_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "waves.rail"
    path.write_text(WAVES, encoding="utf-8")
    v = railspec.load(path)
    route = v.ir.route_named("Sault St. Marie-Winnipeg")
    blocks = v.ir.claim_layout.blocks_of(route.id)
    assert [v.ir.paid_by_block(b, "ferry_cards") for b in blocks] == [0, 1, 2]
    assert [b.base_locomotives for b in blocks] == [3, 1, 0]
    source = emit(v.ir)
    assert "EXTRA_BLOCKS = 3" in source  # two on the 3-wave route, one on the 2-wave route
    g = v.new_game(players=2, seed=3)
    while g.state()["phase"] == "setup_keep":
        g.apply(g.legal_actions()[0])
    g = Arranged(v, g).hand(0, red=3).set(ferry_cards=[2, 0], ferry_pile=8).game("compiled")
    ferry_payments = [n for n in names(g) if n.startswith("claim Sault St. Marie-Winnipeg")]
    assert ferry_payments == ["claim Sault St. Marie-Winnipeg gray 3red+2ferry"]
    report = conformance.run(v, range(12), lambda s: 2 + s % 4, api_every=0)
    assert report.ok, "\n".join(str(p) for p in report.problems[:5])
