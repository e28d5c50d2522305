"""What `railspec check` guarantees past the syntax: every number within what the engines
hold (no total can wrap), and a game that can be played. The single-line cases are in the
table of tests/test_bad_specs.py; these need a spec of their own."""
from __future__ import annotations

import pytest
from test_bad_specs import BASE

from railspec.compiler import check, check_file, docs, parse
from railspec.compiler.base import limits
from railspec.compiler.base.errors import SpecCheckError
from railspec.compiler.mechanic import stock_registry


def refused(tmp_path, text: str) -> SpecCheckError:
    path = tmp_path / "spec.rail"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecCheckError) as info:
        check_file(path)
    return info.value


def messages(err: SpecCheckError) -> list[str]:
    return [e.message for e in err.errors]


# --- no total can wrap ----------------------------------------------------------------

def test_the_largest_possible_score_must_fit(tmp_path):
    """Each value within its bound, but together more than a score may be: 900 tickets of
    1,000,000 points and 201 routes of 1,000,000 make more than 1,100,000,000."""
    lines = BASE.replace("trains 12", "trains 200").replace("route points 1:1 2:2 3:4 4:7",
                                                             "route points 1:1000000 2:2 3:4 4:7").splitlines()
    cities = [f"K{i}" for i in range(200)]
    lines += [f"city {c}" for c in cities]
    lines += [f"route Alpha - {c} 1 gray" for c in cities]
    lines += [f"ticket Beta - {c} 1000000" for c in cities[:180]]
    lines += [f"ticket Gamma - {c} 1000000" for c in cities[:180]]
    lines += [f"ticket Delta - {c} 1000000" for c in cities[:180]]
    lines += [f"ticket Epsilon - {c} 1000000" for c in cities[:180]]
    lines += [f"ticket Alpha - {c} 1000000" for c in cities[:180]]
    err = refused(tmp_path, "\n".join(lines) + "\n")
    (message,) = [m for m in messages(err) if "largest score" in m]
    assert message.startswith("the largest score a player could reach is 1,101,000,077 (routes 201,000,015, "
                              "tickets 900,000,052, longest path 10)"), message
    assert message.endswith("more than the 1,000,000,000 a score may be: lower the largest points")
    located = next(e for e in err.errors if "largest score" in e.message)
    assert located.span.line == lines.index("ticket Beta - K0 1000000") + 1  # the largest part: a ticket


def test_the_score_bound_counts_every_mechanic(usa):
    """The bound adds the core's parts and each scoring mechanic's; every stock mechanic
    that scores says how much (none leaves it unknown)."""
    from railspec.compiler import stock_names, stock_path
    from railspec.compiler.check import score_bound
    seen = set()
    for name in stock_names():
        v = check_file(stock_path(name))
        parts = dict(score_bound(v))
        assert parts["routes"] == sum(v.route_points[r.length] for r in v.routes)
        assert parts["tickets"] == sum(t.points for t in v.tickets)
        for mechanic, _rule in v.present():
            assert parts[mechanic.name] is not None, f"{mechanic.name} does not bound its score"
            seen.add(mechanic.name)
        assert sum(parts.values()) <= limits.MAX_SCORE
    usa_parts = dict(score_bound(usa.ir))
    assert usa_parts["longest_path"] == 10 and usa_parts["multi_track"] == 0
    assert {"longest_path", "stations", "goods", "shares", "globetrotter", "regions"} <= seen


def test_emitted_constants_fit_a_c_int(usa):
    """Defence in depth: should the checker ever let a number through that a C int cannot
    hold, the emitter stops rather than write a constant that wraps."""
    from dataclasses import replace

    from railspec.compiler import emit
    big = replace(usa.ir, route_points=(0, 1, 2, 4, 7, 10, 2**31))
    with pytest.raises(ValueError, match="ROUTE_SCORE_MAX is 19327353205, which a 32-bit C int cannot hold"):
        emit.emit(big)


# --- games that cannot be played --------------------------------------------------------

def test_a_spec_with_one_city_and_nothing_else_is_refused(tmp_path):
    """It once checked "ok"; its games had no legal action and were never over."""
    text = BASE
    for line in BASE.splitlines():
        if line.startswith(("route Alpha", "route Beta", "route Gamma", "route Delta", "ticket ", "city B",
                            "city G", "city D", "city E")):
            text = text.replace(line + "\n", "")
    text = text.replace("deal tickets 2 keep 1", "deal tickets 1 keep 0")
    err = refused(tmp_path, text)
    assert messages(err) == ["the map has no route: a game needs a route to claim ('route CITY - CITY LENGTH "
                             "COLOUR')", "tickets are dealt but no ticket is declared"]


def test_a_spec_without_cities_is_refused(tmp_path):
    text = "\n".join(line for line in BASE.splitlines()
                     if not line.startswith(("route Alpha", "route Beta", "route Gamma", "route Delta", "ticket ",
                                             "city "))) + "\n"
    err = refused(tmp_path, text)
    assert messages(err)[0] == "the map has no city: declare each with 'city NAME'"
    assert err.errors[0].span.line == 1


def test_the_missing_statements_come_before_the_empty_map(tmp_path):
    err = refused(tmp_path, "# nothing yet\n")
    assert messages(err)[0].startswith("missing statements 'variant', 'players'")
    assert messages(err)[1] == "the map has no city: declare each with 'city NAME'"


def test_tickets_dealt_from_an_empty_deck_are_refused_on_any_map(tmp_path):
    text = "\n".join(line for line in BASE.splitlines() if not line.startswith("ticket ")) + "\n"
    assert "tickets are dealt but no ticket is declared" in messages(refused(tmp_path, text))


def test_a_route_longer_than_the_trains_is_refused_on_every_track(tmp_path):
    err = refused(tmp_path, BASE.replace("trains 12", "trains 3"))
    assert [m for m in messages(err) if "could never be claimed" in m] == [
        "route length 4 is more than the 3 trains a player has: the route could never be claimed"]


def test_map_sizes_are_bounded():
    """More cities, routes or tickets than a state is sized for: one error, at the first
    one beyond the bound."""
    cities = [f"K{i}" for i in range(limits.MAX_CITIES + 5)]
    text = BASE + "".join(f"city {c}\nroute Alpha - {c} 1 gray\n" for c in cities)
    with pytest.raises(SpecCheckError) as info:
        check([parse(text, "big.rail")], "big")
    found = messages(info.value)
    assert "at most 1,000 places (cities and others) are supported" in found
    assert "at most 1,000 routes are supported, got 1,010" in found
    city_error = next(e for e in info.value.errors if "places (cities and others)" in e.message)
    assert city_error.source_line == f"city K{limits.MAX_CITIES - 5}"


# --- the limits as documented ------------------------------------------------------------

def test_language_md_lists_the_limits():
    """docs/language.md's "Limits" table is the one limits.py makes (rewrite it from
    `railspec.compiler.docs.limits_table` when a bound changes)."""
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    assert docs.limits_table(stock_registry()) in text
