"""Ferries (mechanics/ferries): its statement, and its rule on both engines.

From the Europe rulebook (shared/seeds/000_bb662d8662a85a07.txt, 'Traghetti') and the
Pennsylvania rulebook ('Traghetti'): a ferry needs one locomotive for each locomotive symbol
on it, and the usual set of one colour for its other spaces. Played on the USA map with one
route made a ferry, in both engines; then the same rule on the maps that have ferries
(Europe, India: the Board Game Arena map help's India section, "BGA India"; Pennsylvania).
"""
from __future__ import annotations

import pytest
from conftest import Arranged, assert_located_error, bad_spec_params, checked, edit, mini, names, start_turns

import railspec
from railspec.compiler import ir
from railspec.compiler.base.errors import IllegalActionError, SpecCheckError
from railspec.tools import conformance

C = SpecCheckError

FERRY_SPEC = '''extends "usa"
variant "USA with a ferry"
without route Sault St. Marie - Winnipeg
route Sault St. Marie - Winnipeg 6 gray ferry 2
'''
ROUTE = "Sault St. Marie-Winnipeg"


@pytest.fixture(scope="module")
def ferry(tmp_path_factory):
    path = tmp_path_factory.mktemp("ferry") / "ferry.rail"
    path.write_text(FERRY_SPEC, encoding="utf-8")
    return railspec.load(path)


def claims(game) -> list[str]:
    return [n for n in names(game) if n.startswith(f"claim {ROUTE} ")]


@pytest.fixture(scope="module")
def europe():
    return railspec.load("europe")


@pytest.fixture(scope="module")
def india():
    return railspec.load("india")


@pytest.fixture(scope="module")
def penn():
    return railspec.load("pennsylvania")


# --- the rule on the USA map with a ferry -------------------------------------------------------

def test_a_ferry_needs_a_locomotive_per_symbol(ferry, engine, tmp_path, monkeypatch):
    """Traghetti: 'To claim the Smyrna-Palermo ferry you need four train cards of any one
    colour and two locomotives': a 6-space ferry with 2 locomotive symbols."""
    monkeypatch.setenv("RAILSPEC_CACHE", str(tmp_path))
    g = start_turns(ferry, 4, engine=engine)
    g = Arranged(ferry, g).hand(0, red=5, loco=1).game(engine)
    assert claims(g) == []  # five reds and one locomotive: one locomotive short
    g = Arranged(ferry, g).hand(0, red=4, loco=2).game(engine)
    assert claims(g) == [f"claim {ROUTE} gray 4red+2loco"]
    with pytest.raises(IllegalActionError):
        g.apply_name(f"claim {ROUTE} gray 6red")  # no payment without the locomotives exists
    g.apply_name(f"claim {ROUTE} gray 4red+2loco")
    s = g.state()
    assert s["owner"][ferry.ir.route_named(ROUTE).id] == 0 and s["route_score"][0] == 15


def test_locomotives_may_stand_in_for_the_ferrys_other_spaces(ferry, engine, tmp_path, monkeypatch):
    """Traghetti: locomotives are wild on the ferry's other spaces too."""
    monkeypatch.setenv("RAILSPEC_CACHE", str(tmp_path))
    g = start_turns(ferry, 4, engine=engine)
    g = Arranged(ferry, g).hand(0, blue=2, loco=6).game(engine)
    assert claims(g) == [f"claim {ROUTE} gray 2blue+4loco", f"claim {ROUTE} gray 1blue+5loco",
                         f"claim {ROUTE} gray 6loco"]


def test_a_ferrys_catalogue_has_no_payment_short_of_locomotives(ferry):
    payments = [a for a in ferry.actions if a.name.startswith(f"claim {ROUTE} ")]
    assert payments and all(a.locomotives >= 2 for a in payments)
    assert len(payments) == 4 * len(ferry.colours) + 1  # 4..1 colour cards per colour, or 6 locomotives


def test_both_engines_agree_on_a_map_with_a_ferry(ferry, tmp_path, monkeypatch):
    monkeypatch.setenv("RAILSPEC_CACHE", str(tmp_path))
    report = conformance.run(ferry, range(20), lambda s: 2 + s % 4, api_every=25)
    assert report.ok, "\n".join(str(p) for p in report.problems[:5])


# --- the statement: 'ferry N' on a route ------------------------------------------------------

def test_ferry_locomotives_europe_traghetti():
    """Europe, 'Traghetti': Smirne - Palermo needs two locomotives and four cards of one colour."""
    v = checked(mini("city Smyrna\ncity Palermo\nroute Smyrna - Palermo 6 gray ferry 2\n"
                     "route Palermo - Alpha 1 gray"))
    r = v.route_named("Smyrna-Palermo")
    assert (r.length, v.rule("ferries").needs(r.id)) == (6, 2)
    pays = [a for a in v.actions if a.kind == ir.CLAIM and a.route == r.id]
    assert min(a.locomotives for a in pays) == 2
    assert "claim Smyrna-Palermo gray 4red+2loco" in [a.name for a in pays]


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("ferry-longer-than-route", edit(24, "route Alpha - Beta 2 red ferry 3"), C, 24, 32,
     "a ferry of length 2 cannot need 3 locomotives"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- TRAGHETTI (Europe) -----------------------------------------------------------------------

FERRY = "Palermo-Smyrna"  # 6 spaces, 2 of them locomotive spaces


def ferry_claims(g) -> set[str]:
    return {n for n in names(g) if n.startswith(f"claim {FERRY} ")}


def test_traghetti_smyrna_palermo_in_the_catalogue(europe):
    """TRAGHETTI: 'Per prendere il controllo della Linea Traghetto da Smirna a Palermo
    servono quattro carte Treno di uno stesso colore qualsiasi e due Locomotive': every way
    to pay it has at least 2 locomotives and at most 4 cards of one colour."""
    route = europe.ir.route_named(FERRY)
    assert route.length == 6 and route.colour < 0
    pays = [a for a in europe.actions if a.kind == "claim" and a.route == route.id]
    assert pays and all(a.locomotives >= 2 and a.colour_cards <= 4 and a.colour_cards + a.locomotives == 6
                        for a in pays)
    assert {a.colour for a in pays if a.colour_cards} == {c.id for c in europe.colours}


@pytest.mark.parametrize("hand,legal", [
    ({"red": 4, "loco": 1}, set()),
    ({"red": 5, "loco": 1}, set()),
    ({"red": 4, "loco": 2}, {"4red+2loco"}),
    ({"red": 4, "blue": 4, "loco": 2}, {"4red+2loco", "4blue+2loco"}),
    ({"red": 2, "loco": 4}, {"2red+4loco"}),
    ({"loco": 6}, {"6loco"}),
    ({"red": 4, "loco": 6}, {"4red+2loco", "3red+3loco", "2red+4loco", "1red+5loco", "6loco"}),
])
def test_traghetti_smyrna_palermo_needs_two_locomotives(europe, engine, hand, legal):
    """TRAGHETTI: a locomotive for each locomotive space, the usual cards for the others
    (locomotives may stand in for them too)."""
    g = start_turns(europe, 2, engine=engine)
    g = Arranged(europe, g).hand(0, **hand).game(engine)
    assert ferry_claims(g) == {f"claim {FERRY} gray {p}" for p in legal}


# --- Ferries (BGA India) ----------------------------------------------------------------------

def test_a_ferry_needs_a_locomotive_per_symbol_india(india, engine):
    """BGA India, Ferries: a player plays a locomotive for each locomotive symbol and the usual
    cards for the other spaces. Calcutta - Madras: 8 spaces, 2 symbols (census)."""
    g = start_turns(india, 2, engine=engine)
    g = Arranged(india, g).hand(0, red=7, loco=1).game(engine)
    assert not any(n.startswith("claim Calcutta-Madras ") for n in names(g))
    g = Arranged(india, g).hand(0, red=6, loco=2).game(engine)
    assert [n for n in names(g) if n.startswith("claim Calcutta-Madras ")] == ["claim Calcutta-Madras gray 6red+2loco"]
    g.apply_name("claim Calcutta-Madras gray 6red+2loco")
    s = g.state()
    assert s["owner"][india.ir.route_named("Calcutta-Madras").id] == 0 and s["route_score"][0] == 21


# --- Traghetti (Pennsylvania) -----------------------------------------------------------------

def test_ferries_into_ontario(penn, engine):
    """Traghetti: Erie - Ontario needs 2 locomotives among its 3 cards, Buffalo - Ontario 1."""
    g = start_turns(penn, 4, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(penn, g).hand(0, red=3, loco=1).game(engine)
    claims = [n for n in names(g) if "Ontario" in n]
    assert claims and all(n.startswith("claim Buffalo-Ontario") for n in claims)
    g = Arranged(penn, g).hand(0, red=1, loco=2).game(engine)
    assert "claim Erie-Ontario/1 gray 1red+2loco" in names(g)
