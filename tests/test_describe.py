"""The map facts (railspec.tools.mapfacts) and ``railspec describe``, checked on every stock
variant against the spec file itself: its route and ticket lines are read here with a few
regular expressions, apart from the compiler, and the counts must be the summary's. The
fewest cars are checked against a plain Floyd–Warshall here and, for a few USA tickets,
against paths worked out by hand on the board."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from railspec import compiler
from railspec.compiler.lang import ast
from railspec.compiler.mechanic import Payments, part
from railspec.tools import mapfacts
from railspec.tools.cli import main

STOCK = ["usa", "europe", "amsterdam", "pennsylvania", "italy", "india", "legendary_asia", "nordic_countries",
         "switzerland", "japan", "northern_lights", "united_kingdom", "old_west", "france"]
_TOKEN = re.compile(r'"[^"]*"|[^\s"]+')


def test_every_stock_variant_is_covered():
    assert sorted(STOCK) == sorted(compiler.stock_names())


def _tokens(line: str) -> list[str]:
    """A line's words (a quoted name one word, quotes kept), its comment left out."""
    out = []
    for token in _TOKEN.findall(line):
        if token.startswith("#"):
            break
        out.append(token)
    return out


def _name(words: list[str]) -> str:
    return " ".join(w.strip('"') for w in words)


def spec_lines(key: str) -> dict:
    """The routes, tickets and places the stock spec file lists, read line by line."""
    routes, tickets, places, lines = [], [], [], []
    for line in compiler.stock_path(key).read_text(encoding="utf-8").splitlines():
        words = _tokens(line)
        if not words:
            continue
        lines.append(words)
        if words[0] in ("city", "zone") and words[1] != "markers":  # not Old West's 'city markers N cost C'
            places.append(_name(words[1:words.index("at")] if "at" in words else words[1:]))
        elif words[0] == "route" and words[1] != "points":
            dash = words.index("-")
            at = next(i for i in range(dash + 1, len(words)) if words[i].isdigit())
            routes.append({"a": _name(words[1:dash]), "b": _name(words[dash + 1:at]), "length": int(words[at]),
                           "colour": words[at + 1], "attrs": words[at + 2:]})
        elif words[0] == "ticket":
            copies = 1
            if len(words) > 2 and words[-2] == "copies":
                copies, words = int(words[-1]), words[:-2]
            start = 2 if words[1] in ("long", "either") else 1
            dash = words.index("-")
            rest = " ".join(words[dash + 1:])
            if "|" in rest:  # either A - B:P | C:Q …: the IR keeps the best destination's points
                ends = [part.strip().rsplit(":", 1) for part in rest.split("|")]
                points = max(int(p) for _, p in ends)
                dests = [d.strip().strip('"') for d, _ in ends]
            else:
                points, dests = int(words[-1]), [_name(words[dash + 1:-1])]
            tickets += [{"a": _name(words[start:dash]), "dests": dests, "points": points}] * copies
    return {"routes": routes, "tickets": tickets, "places": places, "lines": lines}


@pytest.fixture(scope="module")
def variants():
    return {key: compiler.load_file(compiler.stock_path(key)) for key in STOCK}


@pytest.fixture(scope="module")
def summaries(variants):
    return {key: mapfacts.summary(v) for key, v in variants.items()}


def _pair(a, b):
    return (a, b) if a <= b else (b, a)


@pytest.mark.parametrize("key", STOCK)
def test_route_counts_are_the_spec_files(key, summaries, variants):
    listed, facts = spec_lines(key), summaries[key]
    routes = listed["routes"]
    assert facts["cities"] == len(listed["places"]) == len(set(listed["places"]))
    assert facts["routes"]["tracks"] == len(routes)
    assert facts["routes"]["cars"] == sum(r["length"] for r in routes)
    assert {int(k): v["tracks"] for k, v in facts["routes"]["by_length"].items()} == \
        Counter(r["length"] for r in routes)
    assert {k: v["tracks"] for k, v in facts["routes"]["by_colour"].items() if v["tracks"]} == \
        Counter(r["colour"] for r in routes)
    assert {k: v["cars"] for k, v in facts["routes"]["by_colour"].items() if v["tracks"]} == \
        {c: sum(r["length"] for r in routes if r["colour"] == c) for c in {r["colour"] for r in routes}}
    # a connection is a city pair, except a track written apart, which is one of its own
    apart = sum(1 for r in routes if "apart" in r["attrs"])
    assert facts["routes"]["connections"] == len({_pair(r["a"], r["b"]) for r in routes}) + apart
    pairs_of_length = {(_pair(r["a"], r["b"]), r["length"]) for r in routes}
    if not apart:
        assert {int(k): v["connections"] for k, v in facts["routes"]["by_length"].items()} == \
            Counter(length for _, length in pairs_of_length)
    cards = {c["colour"]: c for c in facts["cards"]["colours"]}
    for colour in variants[key].colours:
        assert cards[colour.name]["cards"] == colour.count
        assert cards[colour.name]["cars"] == sum(r["length"] for r in routes if r["colour"] == colour.name)


@pytest.mark.parametrize("key", STOCK)
def test_ticket_counts_are_the_spec_files(key, summaries):
    listed, facts = spec_lines(key), summaries[key]["tickets"]
    tickets = listed["tickets"]
    assert facts["count"] == len(tickets) == sum(facts["decks"].values())
    assert {int(k): v for k, v in facts["points"]["counts"].items()} == Counter(t["points"] for t in tickets)
    points = sorted(t["points"] for t in tickets)
    assert (facts["points"]["min"], facts["points"]["max"]) == (points[0], points[-1])
    assert [e["points"] for e in facts["each"]] == [t["points"] for t in tickets]
    assert facts["fewest_cars"]["unmeasured"] == 0


@pytest.mark.parametrize("key", STOCK)
def test_mechanic_route_attributes_are_counted_as_written(key, summaries):
    """Each attribute word counted per mechanic is the number of route lines carrying it."""
    routes = spec_lines(key)["routes"]
    counted = {}
    for m in summaries[key]["mechanics"]:
        for word, n in m["route_attributes"].items():
            counted[word] = n
    attr_words = {cls.name for mech in compiler.default_registry() for cls in mech.statements
                  if issubclass(cls, ast.RouteAttr)}
    written = Counter(word for r in routes for word in set(r["attrs"]) if word in attr_words)
    assert counted == dict(written)


@pytest.mark.parametrize("key", STOCK)
def test_mechanic_statements_are_counted_as_written(key, summaries, variants):
    """A mechanic's statement is counted once per line that begins with its words (the
    longest words that fit: 'ferry cards spent' is not also 'ferry cards'; a word in
    capitals stands for any one word: 'tracks usable N of S')."""
    words_of = {cls.words: mech.name for mech in compiler.default_registry() for cls in mech.statements
                if issubclass(cls, ast.Stmt) and cls.words}
    written: Counter = Counter()
    for line in spec_lines(key)["lines"]:
        fits = [w for w in words_of if len(line) >= len(w.split()) and all(
            want == word or (want.isalpha() and want.isupper()) for want, word in zip(w.split(), line))]
        if fits:
            written[max(fits, key=lambda w: len(w.split()))] += 1
    counted = {w: n for m in summaries[key]["mechanics"] for w, n in m["statements"].items() if w in words_of}
    assert counted == dict(written)
    assert [m["name"] for m in summaries[key]["mechanics"]] == [m.name for m, _ in variants[key].present()]


def _floyd(variant) -> list[list[float]]:
    """All-pairs fewest trains over the graph's nodes, by Floyd–Warshall (apart from mapfacts)."""
    n = variant.node_count
    inf = float("inf")
    dist = [[0 if i == j else inf for j in range(n)] for i in range(n)]
    present = variant.present()
    for r in variant.routes:
        cost = r.length + sum(part(m, Payments).extra_trains(variant, rule, r) for m, rule in present)
        if cost < dist[r.node_a][r.node_b]:
            dist[r.node_a][r.node_b] = dist[r.node_b][r.node_a] = cost
    for k in range(n):
        dk = dist[k]
        for i in range(n):
            dik = dist[i][k]
            if dik == inf:
                continue
            di = dist[i]
            for j in range(n):
                if dik + dk[j] < di[j]:
                    di[j] = dik + dk[j]
    return dist


@pytest.mark.parametrize("key", STOCK)
def test_fewest_cars_match_floyd_warshall(key, variants):
    variant = variants[key]
    listed = spec_lines(key)["tickets"]
    dist = _floyd(variant)
    cars = mapfacts.fewest_cars(variant)
    ids = {c.name: c.id for c in variant.cities}
    for t, line in zip(variant.tickets, listed):
        expected = min(dist[x][y] for dest in line["dests"] for x in variant.city_nodes[t.a]
                       for y in variant.city_nodes[ids[dest]])
        assert cars[t.id] == expected, t.name


def test_usa_fewest_cars_by_hand(variants):
    """Paths worked out on the USA board (no shorter one exists: Floyd–Warshall above agrees)."""
    v = variants["usa"]
    cars = mapfacts.fewest_cars(v)
    by_name = {t.name: cars[t.id] for t in v.tickets}
    # Los Angeles - Phoenix 3 - Santa Fe 3 - Oklahoma City 3 - Little Rock 2 - Nashville 3 - Pittsburgh 4 - New York 2
    assert by_name["Los Angeles-New York"] == 20
    # Denver - Santa Fe 2 - El Paso 2
    assert by_name["Denver-El Paso"] == 4
    # Seattle - Portland 1 - San Francisco 5 - Los Angeles 3
    assert by_name["Seattle-Los Angeles"] == 9
    facts = mapfacts.summary(v)["tickets"]["fewest_cars"]
    assert (facts["min"], facts["max"]) == (min(cars.values()), max(cars.values())) == (4, 20)


def test_several_destinations_take_the_nearest(variants):
    """A Swiss ticket to one of several countries: its fewest cars are its nearest country's."""
    v = variants["switzerland"]
    facts = mapfacts.written(v)
    cars = mapfacts.fewest_cars(v, facts)
    several = [t for t in v.tickets if len(mapfacts.destinations(v, t.id, facts)) > 1]
    assert len(several) == 12
    dist = _floyd(v)
    for t in several:
        per_destination = [min(dist[x][y] for x in v.city_nodes[t.a] for y in v.city_nodes[place])
                           for place, _ in mapfacts.destinations(v, t.id, facts)]
        assert cars[t.id] == min(per_destination)
    # the IR's one destination (the best paid) is not always the nearest: the facts read them all
    assert any(cars[t.id] < min(dist[x][y] for x in v.city_nodes[t.a] for y in v.city_nodes[t.b]) for t in several)


def _split(variant, without: set[int]) -> bool:
    """Whether the places that are not dead ends fall apart without these routes."""
    nodes = {n for c in variant.cities if not c.dead_end for n in variant.city_nodes[c.id]}
    links: dict[int, set[int]] = {}
    for r in variant.routes:
        if r.id not in without:
            links.setdefault(r.node_a, set()).add(r.node_b)
            links.setdefault(r.node_b, set()).add(r.node_a)
    start = min(nodes)
    seen, todo = {start}, [start]
    while todo:
        for nxt in links.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return not nodes <= seen


@pytest.mark.parametrize("key", STOCK)
def test_bridges_are_exactly_the_connections_that_split_the_map(key, variants, summaries):
    v = variants[key]
    assert not _split(v, set())
    found = {frozenset((b["a"], b["b"])) for b in summaries[key]["bridges"]}
    pairs: dict[frozenset, set[int]] = {}
    for r in v.routes:
        if not (v.cities[r.a].dead_end or v.cities[r.b].dead_end):
            pairs.setdefault(frozenset((v.cities[r.a].name, v.cities[r.b].name)), set()).add(r.id)
    assert found == {pair for pair, ids in pairs.items() if _split(v, ids)}


def test_bridges_and_dead_ends_of_legendary_asia(summaries):
    facts = summaries["legendary_asia"]
    assert facts["dead_ends"] == ["Colombo"]
    assert [(b["a"], b["b"], len(b["routes"]), b["cuts_off"]) for b in facts["bridges"]] == \
        [("Bombay", "Colombo", 3, ["Colombo"])]
    assert summaries["usa"]["bridges"] == [] and summaries["usa"]["dead_ends"] == []


@pytest.mark.parametrize("key", STOCK)
def test_degrees_are_the_neighbours_in_the_spec(key, summaries):
    routes = spec_lines(key)["routes"]
    near: dict[str, set[str]] = {}
    for r in routes:
        near.setdefault(r["a"], set()).add(r["b"])
        near.setdefault(r["b"], set()).add(r["a"])
    by_degree: dict[str, list[str]] = {}
    for city, others in near.items():
        by_degree.setdefault(str(len(others)), []).append(city)
    assert summaries[key]["degrees"] == {k: sorted(v) for k, v in sorted(by_degree.items(), key=lambda kv: int(kv[0]))}
    assert summaries[key]["dead_ends"] == sorted(by_degree.get("1", []))


def test_city_facts(variants):
    v = variants["usa"]
    denver = mapfacts.city_facts(v, "Denver")
    lines = [r for r in spec_lines("usa")["routes"] if "Denver" in (r["a"], r["b"])]
    assert len(denver["routes"]) == len(lines) == 9
    assert denver["degree"] == 7 and "Omaha" in denver["neighbours"]
    assert sorted(denver["tickets"]) == ["Denver-El Paso", "Denver-Pittsburgh"]
    assert mapfacts.city_facts(v, v.city_named("Denver").id) == denver
    with pytest.raises(KeyError):
        mapfacts.city_facts(v, "Atlantis")
    # a country a ticket of several destinations names is one of its destinations
    s = variants["switzerland"]
    italia = mapfacts.city_facts(s, "Italia")
    assert italia["dead_end"] and any("|" in name for name in italia["tickets"])


@pytest.mark.parametrize("key", STOCK)
def test_route_facts_carry_each_attribute_as_written(key, variants):
    v = variants[key]
    facts = mapfacts.written(v)
    attr_words = {cls.name for mech in compiler.default_registry() for cls in mech.statements
                  if issubclass(cls, ast.RouteAttr)}
    written = Counter((_pair(r["a"], r["b"]), r["length"], r["colour"],
                       tuple(sorted(w for w in r["attrs"] if w in attr_words))) for r in spec_lines(key)["routes"])
    described = Counter()
    for r in v.routes:
        f = mapfacts.route_facts(v, r.id, facts)
        assert f["points"] == v.route_points[r.length] and f["trains"] >= f["length"] == r.length
        assert all(a["mechanic"] in v.mechanics for a in f["attributes"])
        described[(_pair(f["a"], f["b"]), f["length"], f["colour"],
                   tuple(sorted(a["name"] for a in f["attributes"])))] += 1
    assert described == written


def test_route_facts_values(variants):
    europe = variants["europe"]
    route = mapfacts.route_facts(europe, "Madrid-Pamplona/1")
    assert (route["length"], route["colour"], route["points"]) == (3, "black", 4)
    assert [(a["name"], a["value"]) for a in route["attributes"]] == [("tunnel", True)]
    ferries = [mapfacts.route_facts(europe, r) for r in europe.routes]
    assert any(a["name"] == "ferry" and isinstance(a["value"], int) and a["value"] >= 1
               for f in ferries for a in f["attributes"])


def test_facts_come_from_the_files_given(tmp_path):
    """The language server passes the files it parsed (an edited buffer): spans match them."""
    path = tmp_path / "small.rail"
    path.write_text(compiler.stock_path("usa").read_text(encoding="utf-8"), encoding="utf-8")
    files = compiler.resolve(path)
    variant = compiler.check(files, "small")
    facts = mapfacts.written(variant, files)
    assert all(stmt is not None for stmt in facts.routes + facts.tickets)
    path.write_text("", encoding="utf-8")  # the file on disk is no longer what was checked
    stale = mapfacts.written(variant)
    assert all(stmt is None for stmt in stale.routes)
    assert mapfacts.fewest_cars(variant, stale) == mapfacts.fewest_cars(variant, facts)


def test_describe_json_round_trip(capsys, summaries):
    assert main(["describe", "usa", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(summaries["usa"]))
    assert printed["routes"]["tracks"] == 100 and printed["tickets"]["count"] == 30


def test_describe_table(capsys):
    assert main(["describe", "switzerland"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Switzerland (switzerland): 38 places, 76 connections (88 tracks, 205 cars), 46 tickets")
    for heading in ("Routes by length", "Routes by colour, against the cards", "Tickets: 46",
                    "fewest cars to complete", "Places by degree", "dead ends (degree 1)", "bridges", "Mechanics"):
        assert heading in out
    assert "tunnel ×42" in out


def test_describe_a_spec_file(tmp_path, capsys):
    path = Path(tmp_path) / "mine.rail"
    path.write_text(compiler.stock_path("usa").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["describe", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["key"] == "mine"


def test_describe_errors_are_one_line(tmp_path, capsys):
    assert main(["describe", "atlantis"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("railspec: no stock variant or spec file named") and err.count("\n") == 1
    bad = tmp_path / "bad.rail"
    bad.write_text(compiler.stock_path("usa").read_text(encoding="utf-8") + "\nroute Denver - Atlantis 3 red\n",
                   encoding="utf-8")
    assert main(["describe", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:" in err and "Atlantis" in err and "^" in err
    assert main(["describe"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_spec_that_extends_another(tmp_path, capsys):
    """The facts follow the merged chain: the base's routes and statements, the child's
    additions, and what ``without`` removed left out. The map is a chain, so every
    connection is a bridge and both ends are dead ends."""
    base = tmp_path / "base.rail"
    base.write_text((Path(__file__).parent / "base.rail").read_text(encoding="utf-8"), encoding="utf-8")
    child = tmp_path / "child.rail"
    child.write_text('extends "base.rail"\nvariant "Child"\nwithout route Delta - Epsilon\ncity Zeta\n'
                     "route Delta - Zeta 2 red\nroute Zeta - Epsilon 3 gray ferry 1\n", encoding="utf-8")
    variant = compiler.check_file(child)
    facts = mapfacts.summary(variant)
    assert (facts["routes"]["tracks"], facts["routes"]["connections"], facts["routes"]["cars"]) == (6, 5, 16)
    assert facts["dead_ends"] == ["Alpha", "Epsilon"]
    assert [(b["a"], b["b"]) for b in facts["bridges"]] == \
        [("Alpha", "Beta"), ("Beta", "Gamma"), ("Delta", "Zeta"), ("Gamma", "Delta"), ("Zeta", "Epsilon")]
    assert next(b for b in facts["bridges"] if b["a"] == "Alpha")["cuts_off"] == ["Alpha"]
    assert next(b for b in facts["bridges"] if b["a"] == "Gamma")["cuts_off"] == ["Delta", "Epsilon", "Zeta"]
    cars = {e["ticket"]: e["cars"] for e in facts["tickets"]["each"]}
    assert cars["Alpha-Epsilon"] == 2 + 3 + 4 + 2 + 3 and cars["Gamma-Delta"] == 4
    used = {m["name"]: m for m in facts["mechanics"]}
    assert used["ferries"]["route_attributes"] == {"ferry": 1}
    assert used["longest_path"]["statements"] == {"longest path": 1}
    ferry = mapfacts.route_facts(variant, "Zeta-Epsilon")
    assert ferry["attributes"] == [{"name": "ferry", "value": 1, "mechanic": "ferries"}]
    ticket = mapfacts.ticket_facts(variant, "Alpha-Epsilon")
    assert (ticket["from"], ticket["destinations"], ticket["fewest_cars"]) == \
        ("Alpha", [{"place": "Epsilon", "points": 10}], 14)
    assert main(["describe", str(child)]) == 0
    assert "Zeta - Epsilon (1 track): cuts off Epsilon" in capsys.readouterr().out
