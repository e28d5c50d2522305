"""Names as people write them: either Unicode form, a variant's display name, a ticket printed
twice, a ticket's destinations in another order; and what railspec.score says of each ticket."""
from __future__ import annotations

import json
import unicodedata

import pytest

import railspec
from railspec.compiler.base.text import canonical
from railspec.runtime.position import position_fields
from railspec.tools.cli import main


@pytest.fixture(scope="module")
def swiss():
    return railspec.load("switzerland")


def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _seats(*seats: dict) -> dict:
    return {"variant": "switzerland", "players": [dict({"routes": [], "tickets": []}, **s) for s in seats]}


def test_a_decomposed_name_is_the_same_name(swiss):
    """'Zu\u0308rich' as some systems paste it names Zürich: in a position's routes and
    tickets, in an action's name."""
    route = next(r.name for r in swiss.routes if "Zürich" in r.name)
    assert _nfd(route) != route
    fields = position_fields(swiss.ir, _seats({"routes": [_nfd(route)]}, {}))
    assert fields["owner"][next(r.id for r in swiss.routes if r.name == route)] == 0
    claim = next(a.name for a in swiss.ir.actions if route in a.name)
    assert swiss.action_id(_nfd(claim)) == swiss.action_id(claim)
    assert canonical(_nfd("Zürich")) == "Zürich" and canonical(7) == 7


def test_a_spec_may_write_a_name_in_either_form(tmp_path):
    """A decomposed name in a spec, bare or quoted, is the composed one: one city, not two."""
    text = (railspec.compiler.stock_path("usa").read_text(encoding="utf-8")
            .replace("Seattle", _nfd("Zu\u0308rich")))
    text = text.replace('city "Zu\u0308rich"', "city Zürich")  # quoted or not, either spelling
    path = tmp_path / "zurich.rail"
    path.write_text(text, encoding="utf-8")
    v = railspec.load(path)
    assert [c.name for c in v.cities if "rich" in c.name] == ["Zürich"]


def test_load_takes_the_names_a_position_takes():
    assert railspec.load("Legendary Asia").key == "legendary_asia"
    assert railspec.load("USA").key == "usa"
    assert railspec.load("nordic COUNTRIES").key == "nordic_countries"
    with pytest.raises(railspec.RailspecError, match="no stock variant or spec file named 'Atlantis'"):
        railspec.load("Atlantis")


def test_a_ticket_listed_twice_says_how_to_name_its_other_copy(swiss):
    ticket = "France-Deutschland|Österreich|Italia"
    with pytest.raises(railspec.PositionError, match=r"ticket 'France-Deutschland\|Österreich\|Italia' is listed "
                                                     r"twice; its other copy is named '.*/2'"):
        swiss.score(_seats({"tickets": [ticket, ticket]}, {}))


def test_a_tickets_destinations_in_another_order_are_suggested(swiss):
    with pytest.raises(railspec.PositionError, match=r"did you mean 'Bern-France\|Deutschland\|Österreich\|Italia'"):
        swiss.score(_seats({"tickets": ["Bern-Italia|Österreich|France|Deutschland"]}, {}))


def test_score_says_what_each_ticket_scored(swiss):
    """A ticket of several destinations scores its best destination reached (Bern to
    France through Neuchâtel: 5 points, docs/rules.md #41); a plain one its destination; an
    uncompleted one minus its points, at no place. The detail adds up to the ``tickets`` item."""
    position = _seats({"routes": ["Bern-Neuchâtel", "La Chaux-de-Fonds-Neuchâtel", "La Chaux-de-Fonds-France"],
                       "tickets": ["Bern-France|Deutschland|Österreich|Italia", "Lugano-Chur"]}, {})
    rows = railspec.score(swiss, position, tickets=True)
    results = rows[0]["ticket_results"]
    assert results == [
        {"ticket": "Bern-France|Deutschland|Österreich|Italia", "completed": True, "points": 5, "place": "France"},
        {"ticket": "Lugano-Chur", "completed": False, "points": -10, "place": None}]
    assert sum(r["points"] for r in results) == rows[0]["tickets"]
    assert rows[1]["ticket_results"] == []
    assert "ticket_results" not in railspec.score(swiss, position)[0]


def test_railspec_score_tickets_prints_each_ticket(tmp_path, capsys, swiss):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(_seats({"routes": ["Bern-Neuchâtel"], "tickets": ["Lugano-Chur"]}, {})),
                    encoding="utf-8")
    assert main(["score", "switzerland", str(path), "--tickets"]) == 0
    assert "player 0: Lugano-Chur: -10 (not completed)" in capsys.readouterr().out
