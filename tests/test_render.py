"""railspec render: the map as SVG (issue "Agents and the balance report", the map)."""
from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from conftest import implemented_stock_variants

import railspec
from railspec.playtest.render import render_svg

SVG = "{http://www.w3.org/2000/svg}"


def _tree(text: str):
    return ElementTree.fromstring(text)  # well-formed XML, or this raises


@pytest.mark.parametrize("v", implemented_stock_variants(), ids=lambda v: v.key)
def test_every_route_and_city_is_drawn(v):
    root = _tree(render_svg(v.ir))
    routes = root.findall(f".//{SVG}g[@class='route']")
    assert [g.get("data-route") for g in routes] == [r.name for r in v.routes]
    cities = root.findall(f".//{SVG}circle[@class='city']") + root.findall(f".//{SVG}rect[@class='city dead-end']")
    assert len(cities) == len(v.cities)
    assert len(root.findall(f".//{SVG}rect[@class='city dead-end']")) == sum(c.dead_end for c in v.cities)


def test_tunnels_ferries_and_regions_are_told_apart():
    europe = railspec.load("europe")
    root = _tree(render_svg(europe.ir))
    dashed = [g.get("data-route") for g in root.findall(f".//{SVG}g[@class='route']")
              if g.find(f"{SVG}polygon[@class='space dashed']") is not None]
    assert dashed == [europe.routes[r].name for r in europe.ir.rule("tunnels").routes]
    badges = [t.text for t in root.findall(f".//{SVG}text[@class='length']")]
    assert sum(" F" in b for b in badges) == len(europe.ir.rule("ferries").routes)
    italy = railspec.load("italy")
    root = _tree(render_svg(italy.ir))
    regions = italy.ir.rule("regions").regions
    assert len(root.findall(f".//{SVG}circle[@class='group']")) == sum(len(r.cities) for r in regions)


def test_claims_and_stations_take_the_players_colours():
    v = railspec.load("europe")
    g = v.new_game(players=2, seed=1)
    state = g.state()
    state["owner"][0], state["owner"][5] = 0, 1
    state["station_owner"][3] = 1
    root = _tree(render_svg(v.ir, state))
    for seat, route in ((0, 0), (1, 5)):
        claimed = root.findall(f".//{SVG}g[@class='route claimed seat-{seat}']")
        assert [g.get("data-route") for g in claimed] == [v.routes[route].name]
    assert len(root.findall(f".//{SVG}path[@class='marker seat-1']")) == 1


def test_a_route_taken_for_nobody_is_drawn_as_nobodys():
    """A route whose owner is the number of players (a claim took it for no player: Japan's
    bullet routes) is drawn claimed, in white cars, in no seat's colour; the legend says so."""
    v = railspec.load("japan")
    g = v.new_game(players=2, seed=1)
    state = g.state()
    route = v.ir.route_named("Aomori-Morioka").id
    state["owner"][route], state["owner"][0] = 2, 1
    root = _tree(render_svg(v.ir, state))
    nobody = root.findall(f".//{SVG}g[@class='route claimed nobody']")
    assert [g.get("data-route") for g in nobody] == ["Aomori-Morioka"]
    assert {p.get("fill") for p in nobody[0].findall(f"{SVG}polygon[@class='car claimed nobody']")} == {"#ffffff"}
    assert [g.get("data-route") for g in root.findall(f".//{SVG}g[@class='route claimed seat-1']")] == \
        [v.routes[0].name]
    assert root.find(f".//{SVG}g[@data-look='nobody']") is not None
    assert root.find(f".//{SVG}g[@class='route claimed seat-2']") is None


def test_names_from_the_spec_are_escaped(tmp_path):
    spec = tmp_path / "evil.rail"
    # every Atlanta of the spec renamed, whatever the spaces around it (its route table is aligned)
    spec.write_text(re.sub(r"\bAtlanta\b", '"<script>alert(1)</script> & Atlanta"',
                           railspec.compiler.stock_path("usa").read_text(encoding="utf-8")), encoding="utf-8")
    v = railspec.load(spec)
    text = render_svg(v.ir)
    _tree(text)
    assert "<script>" not in text and "&lt;script&gt;" in text


def test_a_heat_map_replaces_the_route_colours():
    v = railspec.load("usa")
    def fills(text):
        return {p.get("fill") for p in _tree(text).findall(f".//{SVG}polygon[@class='space']")}
    cold = render_svg(v.ir, heat=[0.0] * len(v.routes))
    hot = render_svg(v.ir, heat=[1.0] * len(v.routes))
    assert fills(cold) == {"#fff0a0"} and fills(hot) == {"#af1414"}


def test_a_city_added_to_a_placed_map_is_drawn_among_its_neighbours(tmp_path):
    spec = tmp_path / "more.rail"
    spec.write_text('extends "%s"\nvariant "More"\ncity Flagstaff\nroute Flagstaff - Phoenix 2 gray\n'
                    'route Flagstaff - Las Vegas 2 gray\n' % railspec.compiler.stock_path("usa").as_posix(),
                    encoding="utf-8")
    v = railspec.load(spec)
    from railspec.playtest.render import layout
    places = layout(v.ir)
    flagstaff = places[v.ir.city_named("Flagstaff").id]
    phoenix, vegas = places[v.ir.city_named("Phoenix").id], places[v.ir.city_named("Las Vegas").id]
    assert min(phoenix[0], vegas[0]) - 60 < flagstaff[0] < max(phoenix[0], vegas[0]) + 60
    _tree(render_svg(v.ir))
