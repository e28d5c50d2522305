"""Pictures that tell the truth (issue 19): the drawn map read back from its SVG.

Ownership: a claimed route is told from an unclaimed one for every player colour against
every route colour. Layout: no two city names overlap on any stock map, every name lies
inside the canvas, a spec whose places are one point is spread out, a 200-character name
fits, Italy has Sicily in the south. Legends: every look a mechanic gives is explained,
the players and the heat scale are listed. Labels: a route's length reads on its badge
(contrast ratio 4.5 at least), the badges of a double route do not overlap.
"""
from __future__ import annotations

import itertools
import math
import random
from xml.etree import ElementTree

import pytest
from conftest import implemented_stock_variants

import railspec
from railspec.compiler.mechanic import LEGEND_KEYS, Drawing, Looks, part
from railspec.playtest.render import (
    CARD_COLOURS,
    CITY_FONT,
    DEAD_END_TEXT,
    PLAYER_COLOURS,
    colour_of,
    contrast,
    heat_colour,
    render_svg,
    text_box,
    text_width,
)

SVG = "{http://www.w3.org/2000/svg}"
STOCK = implemented_stock_variants()


def _tree(text: str):
    return ElementTree.fromstring(text)


def _view(root) -> tuple:
    x, y, w, h = map(float, root.get("viewBox").split())
    return (x, y, x + w, y + h)


def _lines(text_el) -> list[str]:
    spans = text_el.findall(f"{SVG}tspan")
    return [s.text or "" for s in spans] if spans else [text_el.text or ""]


def _box(text_el) -> tuple:
    return text_box(float(text_el.get("x")), float(text_el.get("y")), _lines(text_el),
                    float(text_el.get("font-size")), text_el.get("text-anchor") or "start")


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(box, view) -> bool:
    return view[0] <= box[0] and view[1] <= box[1] and box[2] <= view[2] and box[3] <= view[3]


def _lab(colour: str) -> tuple:
    """CIE L*a*b* of a #rrggbb colour (D65)."""
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    xyz = ((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b,
           (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
    f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in xyz]
    return (116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))


def _delta_e(a: str, b: str) -> float:
    return math.dist(_lab(a), _lab(b))


def _played_state(v, players: int, seed: int = 3, moves: int = 500) -> dict:
    g = v.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g.state()


def _route_colours() -> set[str]:
    return set(CARD_COLOURS.values()) | {colour_of(r.colour_name) for v in STOCK for r in v.routes}


# --- ownership ----------------------------------------------------------------------------

def test_player_colours_are_far_from_every_route_colour():
    """A car's fill alone says it is a player's: each player colour is at least 25 (CIE76)
    from every colour a stock route or a card colour has, and the players' colours are as
    far from each other."""
    for player, route in itertools.product(PLAYER_COLOURS, sorted(_route_colours())):
        assert _delta_e(player, route) >= 25, (player, route)
    for a, b in itertools.combinations(PLAYER_COLOURS, 2):
        assert _delta_e(a, b) >= 25, (a, b)


def _look(group) -> frozenset:
    """What a route group shows: each drawn shape's class and fill."""
    return frozenset((el.tag, el.get("class"), el.get("fill")) for el in group.iter()
                     if el.tag in (f"{SVG}polygon", f"{SVG}rect"))


@pytest.mark.parametrize("v", STOCK, ids=lambda v: v.key)
def test_a_claim_is_told_from_any_unclaimed_route(v):
    """For every seat and every route colour of the map, a route claimed by that seat is
    drawn as cars filled with the seat's colour inside a frame of the route's colour, and
    what it shows equals what no unclaimed route of any colour shows."""
    by_colour = {}
    for r in v.routes:
        by_colour.setdefault(r.colour_name, r)
    unclaimed_looks = {}
    root = _tree(render_svg(v.ir))
    for g in root.findall(f".//{SVG}g[@class='route']"):
        unclaimed_looks.setdefault(_look(g), g.get("data-route"))
    assert len(unclaimed_looks) >= len(by_colour)
    base = v.new_game(players=2, seed=1).state()
    for seat, colour in enumerate(PLAYER_COLOURS):  # every colour, beyond the map's player count too
        state = dict(base, owner=[-1] * len(v.routes), players=len(PLAYER_COLOURS))
        for r in by_colour.values():
            state["owner"][r.id] = seat
        root = _tree(render_svg(v.ir, state))
        claimed = root.findall(f".//{SVG}g[@class='route claimed seat-{seat}']")
        assert sorted(g.get("data-route") for g in claimed) == sorted(r.name for r in by_colour.values())
        for g in claimed:
            r = v.ir.routes[[x.name for x in v.routes].index(g.get("data-route"))]
            cars = g.findall(f"{SVG}polygon[@class='car claimed seat-{seat}']")
            frames = g.findall(f"{SVG}polygon[@class='frame']")
            assert len(cars) == len(frames) == r.length
            assert {c.get("fill") for c in cars} == {colour}
            assert {f.get("fill") for f in frames} == {colour_of(r.colour_name)}
            assert not g.findall(f"{SVG}polygon[@class='space']")
            assert _look(g) not in unclaimed_looks, (seat, r.colour_name, unclaimed_looks.get(_look(g)))
            for route_colour in _route_colours():
                assert _delta_e(colour, route_colour) >= 25
        players = root.findall(f".//{SVG}g[@class='legend-entry'][@data-look='player']")
        assert [(p.get("data-seat"), p.get("data-colour")) for p in players] == \
            [(str(p), c) for p, c in enumerate(PLAYER_COLOURS)]


# --- layout -------------------------------------------------------------------------------

def _city_boxes(root) -> list[tuple]:
    out = []
    for c in root.findall(f".//{SVG}circle[@class='city']"):
        x, y, r = float(c.get("cx")), float(c.get("cy")), float(c.get("r"))
        out.append((x - r, y - r, x + r, y + r))
    for c in root.findall(f".//{SVG}rect[@class='city dead-end']"):
        x, y = float(c.get("x")), float(c.get("y"))
        out.append((x, y, x + float(c.get("width")), y + float(c.get("height"))))
    return out


def _check_labels(root) -> None:
    view = _view(root)
    labels = root.findall(f".//{SVG}text[@class='city-label']")
    boxes = [_box(t) for t in labels]
    for (a, ta), (b, tb) in itertools.combinations(zip(boxes, labels), 2):
        assert not _overlap(a, b), (ta.get("data-city"), tb.get("data-city"))
    for box, t in zip(boxes, labels):
        assert _inside(box, view), (t.get("data-city"), box, view)
        for city in _city_boxes(root):
            assert not _overlap(box, city), t.get("data-city")
    for t in root.iter(f"{SVG}text"):  # legend, title, badges: all inside the canvas
        assert _inside(_box(t), view), _lines(t)


@pytest.mark.parametrize("v", STOCK, ids=lambda v: v.key)
def test_city_names_do_not_overlap_and_fit_the_canvas(v):
    root = _tree(render_svg(v.ir))
    assert len(root.findall(f".//{SVG}text[@class='city-label']")) == len(v.cities)
    _check_labels(root)
    state = _played_state(v, players=3)
    _check_labels(_tree(render_svg(v.ir, state)))
    _check_labels(_tree(render_svg(v.ir, heat=[r.id / len(v.routes) for r in v.routes], title="a heat map")))


def _places(root) -> dict[str, tuple[float, float]]:
    out = {c.get("data-city"): (float(c.get("cx")), float(c.get("cy")))
           for c in root.findall(f".//{SVG}circle[@class='city']")}
    out.update({c.get("data-city"): (float(c.get("x")) + 7, float(c.get("y")) + 7)
                for c in root.findall(f".//{SVG}rect[@class='city dead-end']")})
    return out


def test_italy_has_sicily_in_the_south():
    places = _places(_tree(render_svg(railspec.load("italy").ir)))
    milano = places["Milano"]
    for city in ("Palermo", "Catania", "Agrigento", "Messina", "Siracusa"):
        assert places[city][1] > milano[1] + 300, city  # y grows downwards
    assert places["Torino"][0] < places["Venezia"][0]  # and not mirrored


def _spec(tmp_path, cities: list[tuple[str, str]], name="One point") -> railspec.Variant:
    """A small playable spec with the given cities and places (``""`` for none), routes in
    a ring."""
    lines = [f'variant "{name}"', "players 2..3", "trains 20", "hand 4", "card red 12", "card blue 12",
             "locomotives 14", "market 5 reset 3 locomotives", "deal tickets 2 keep 1", "returned tickets bottom",
             "action draw cards 2", "action claim route", "action draw tickets 2 keep 1", "end when trains <= 2",
             "route points 1:1 2:2 3:4"]
    quoted = [f'"{c}"' for c, _ in cities]
    lines += [f"city {q}{' at ' + at if at else ''}" for q, (_, at) in zip(quoted, cities)]
    for i in range(len(cities)):
        lines.append(f"route {quoted[i]} - {quoted[(i + 1) % len(cities)]} {1 + i % 3} {'red' if i % 2 else 'blue'}")
    lines += [f"ticket {a} - {b} 5" for a, b in itertools.combinations(quoted, 2)]
    path = tmp_path / "spec.rail"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return railspec.load(path)


def test_a_spec_whose_cities_share_one_point_is_spread_out(tmp_path):
    v = _spec(tmp_path, [(f"City {i}", "5 5") for i in range(8)])
    root = _tree(render_svg(v.ir))
    places = list(_places(root).values())
    assert len(places) == 8
    for a, b in itertools.combinations(places, 2):
        assert math.dist(a, b) >= 15
    _check_labels(root)


def test_cities_on_one_point_among_placed_ones_are_nudged_apart(tmp_path):
    v = _spec(tmp_path, [("A", "0 0"), ("B", "0 0"), ("C", "0 0"), ("D", "100 0"), ("E", "100 100"), ("F", "0 100")])
    root = _tree(render_svg(v.ir))
    places = list(_places(root).values())
    for a, b in itertools.combinations(places, 2):
        assert math.dist(a, b) >= 15
    _check_labels(root)


def test_a_200_character_name_is_drawn_whole_inside_the_canvas(tmp_path):
    long = " ".join(["Sankt-Wolfgang-im-Salzkammergut"] * 7)[:200]
    assert len(long) == 200
    v = _spec(tmp_path, [(long, "0 0"), ("B", "100 0"), ("C", "100 100"), ("D", "0 100")],
              name="A very long variant name " * 8)
    root = _tree(render_svg(v.ir))
    label = next(t for t in root.findall(f".//{SVG}text[@class='city-label']") if t.get("data-city") == long)
    assert "".join(_lines(label)).replace(" ", "") == long.replace(" ", "")  # whole, broken at spaces and hyphens
    assert len(_lines(label)) > 1  # wrapped, not one line of 1,300 units
    _check_labels(root)
    # one word of 200 letters is cut where it must be, still whole
    word = "W" * 200
    v = _spec(tmp_path, [(word, ""), ("B", ""), ("C", ""), ("D", "")])
    root = _tree(render_svg(v.ir))
    label = next(t for t in root.findall(f".//{SVG}text[@class='city-label']") if t.get("data-city") == word)
    assert "".join(_lines(label)) == word
    _check_labels(root)


def test_the_drawing_is_the_same_every_time():
    v = railspec.load("europe")
    state = _played_state(v, players=3)
    assert render_svg(v.ir, state) == render_svg(v.ir, state)


def test_text_width_measures_wider_letters_wider():
    assert text_width("WWW", CITY_FONT) > text_width("iii", CITY_FONT)
    assert text_width("東京", CITY_FONT) == pytest.approx(2 * 1.1 * CITY_FONT)


# --- labels on routes ---------------------------------------------------------------------

def _badges(root) -> dict[str, tuple]:
    """Each route's badge: (its box, its fill, its text's colour, its text)."""
    out = {}
    for g in root.findall(f".//{SVG}g[@class='route-label']"):
        rect, text = g.find(f"{SVG}rect[@class='badge']"), g.find(f"{SVG}text[@class='length']")
        x, y = float(rect.get("x")), float(rect.get("y"))
        out[g.get("data-route")] = ((x, y, x + float(rect.get("width")), y + float(rect.get("height"))),
                                    rect.get("fill"), text.get("fill"), text.text)
    return out


@pytest.mark.parametrize("v", STOCK, ids=lambda v: v.key)
def test_lengths_read_on_every_fill(v):
    """Black routes, the heat map's dark red, the players' colours: the length's colour has
    a contrast ratio of at least 4.5 with its badge's fill, which is the route's fill."""
    pictures = [render_svg(v.ir), render_svg(v.ir, _played_state(v, players=3)),
                render_svg(v.ir, heat=[(r.id % 11) / 10 for r in v.routes])]
    for picture in pictures:
        root = _tree(picture)
        for g in root.iter(f"{SVG}g"):
            if (g.get("class") or "").split()[0] == "route":
                shape = g.find(f"{SVG}polygon")
                fill = shape.get("fill") if shape.get("class") != "frame" else \
                    g.find(f"{SVG}polygon[@class='car claimed {g.get('class').split()[-1]}']").get("fill")
                _, badge_fill, ink, _ = _badges(root)[g.get("data-route")]
                assert badge_fill == fill
                assert contrast(ink, badge_fill) >= 4.5, (g.get("data-route"), ink, badge_fill)
    hot = heat_colour(1.0)
    assert contrast("#ffffff", CARD_COLOURS["black"]) >= 4.5 and contrast("#000000", hot) < contrast("#ffffff", hot)


@pytest.mark.parametrize("v", STOCK, ids=lambda v: v.key)
def test_the_badges_of_a_double_route_do_not_overlap(v):
    root = _tree(render_svg(v.ir))
    badges = _badges(root)
    order = [(g.get("class") or "").split()[0] for g in root.iter(f"{SVG}g")]
    assert max(i for i, c in enumerate(order) if c == "route") < order.index("route-label")  # no route covers one
    groups = {}
    for r in v.ir.routes:
        groups.setdefault(r.group, []).append(r)
    doubles = [g for g in groups.values() if len(g) > 1]
    assert doubles or v.key == "none"
    for tracks in doubles:
        for a, b in itertools.combinations(tracks, 2):
            assert not _overlap(badges[a.name][0], badges[b.name][0]), (a.name, b.name)


# --- legends ------------------------------------------------------------------------------

def _legend(root) -> dict[str, list[str]]:
    out = {}
    for g in root.findall(f".//{SVG}g[@class='legend-entry']"):
        text = next(t for t in g.findall(f"{SVG}text") if t.get("class") != "legend-sample")
        out.setdefault(g.get("data-look"), []).append(" ".join(_lines(text)))
    return out


@pytest.mark.parametrize("v", STOCK, ids=lambda v: v.key)
def test_every_look_of_a_mechanic_is_in_the_legend(v):
    """Each look each mechanic of the map gives (a dashed route, a badge, a ring, a dot, a
    station marker when a state is drawn, a dead-end square) has a legend entry in the
    mechanic's words, and each named group of cities or routes is listed."""
    state = _played_state(v, players=3)
    legend = _legend(_tree(render_svg(v.ir, state)))
    expected = 0
    for mechanic, rule in v.ir.present():
        seen = part(mechanic, Drawing).looks(v.ir, rule)
        for look in LEGEND_KEYS:
            present = bool(getattr(seen, look)) if look != "dead_ends" else False
            if present:
                expected += 1
                assert (seen.legend.get(look) or mechanic.title) in legend.get(look, []), (mechanic.name, look)
        assert len(legend.get("groups-member", [])) >= len(seen.groups)
        assert len(legend.get("route_groups-member", [])) >= len(seen.route_groups)
    if any(c.dead_end for c in v.ir.cities):
        expected += 1
        assert legend["dead_ends"] and legend["dead_ends"][0] != DEAD_END_TEXT  # the zones' own words
    mechanic_entries = sum(len(legend.get(look, [])) for look in LEGEND_KEYS)
    assert mechanic_entries == expected
    assert len(legend["player"]) == 3 and legend["claimed"] and legend["unclaimed"]


def test_goods_routes_and_companies_are_drawn():
    amsterdam = railspec.load("amsterdam")
    badges = _badges(_tree(render_svg(amsterdam.ir)))
    goods = {amsterdam.routes[r].name for r in amsterdam.ir.rule("goods").routes}
    assert {name for name, (_, _, _, text) in badges.items() if "G" in text.split()} == goods
    penn = railspec.load("pennsylvania")
    root = _tree(render_svg(penn.ir))
    shares = penn.ir.rule("shares")
    for g in root.findall(f".//{SVG}g[@class='route']"):
        r = next(x for x in penn.ir.routes if x.name == g.get("data-route"))
        dots = [c.get("class") for c in g.findall(f"{SVG}circle")]
        assert dots == [f"route-group group-{c}" for c in sorted(shares.companies_of(r.id))]
    members = _legend(root)["route_groups-member"]
    assert members == [c.name for c in shares.companies]


def test_a_look_without_words_is_listed_under_its_mechanics_title(monkeypatch):
    europe = railspec.load("europe")
    mechanic, rule = next((m, r) for m, r in europe.ir.present() if part(m, Drawing).looks(europe.ir, r).dashed)
    monkeypatch.setattr(type(mechanic), "looks", lambda self, variant, rule: Looks(dashed=frozenset(rule.routes)))
    assert _legend(_tree(render_svg(europe.ir)))["dashed"] == [mechanic.title]
    with pytest.raises(ValueError, match="unknown look 'dotted'"):
        Looks(legend={"dotted": "no such look"})


def test_the_heat_map_has_its_scale():
    v = railspec.load("usa")
    root = _tree(render_svg(v.ir, heat=[0.5] * len(v.routes)))
    assert _legend(root)["heat"] == ["fraction of games claimed"]
    scale = [r.get("fill") for r in root.findall(f".//{SVG}rect[@class='heat-scale']")]
    assert scale[0] == heat_colour(0.0) and scale[-1] == heat_colour(1.0) and len(scale) == 11
    entry = root.find(f".//{SVG}g[@data-look='heat']")
    assert [t.text for t in entry.findall(f"{SVG}text")][1:] == ["0", "1"]
    assert "heat" not in _legend(_tree(render_svg(v.ir)))
