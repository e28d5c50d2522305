"""Ferries, from the Europe rulebook (shared/seeds/000_bb662d8662a85a07.txt, 'Traghetti')
and the Pennsylvania rulebook ('Traghetti'): a ferry needs one locomotive for each
locomotive symbol on it, and the usual set of one colour for its other spaces. Played on
the USA map with one route made a ferry, in both engines."""
from __future__ import annotations

import pytest
from conftest import Arranged, names, start_turns

import railspec
from railspec.compiler.base.errors import IllegalActionError
from railspec.tools import conformance

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
