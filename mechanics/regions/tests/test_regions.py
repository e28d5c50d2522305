"""Regions and the region bonus (mechanics/regions): its statements, its scoring on the Italy
map in both scorers, and its score bound.

The rule's tests name the section of the Italy rulebook they come from
(shared/seeds/004_7923d32833fcf0ff.txt, the Portuguese edition: Fim da partida e bônus das
regiões).
"""
from __future__ import annotations

import pytest
from conftest import add, assert_located_error, assert_located_warning, bad_spec_params, checked, mini, score_both

import railspec
from railspec.compiler import check_file, stock_path
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError

S, C = SpecSyntaxError, SpecCheckError

@pytest.fixture(scope="module")
def italy():
    return railspec.load("italy")


def score(italy, *seats):
    """Both scorers on a position: the compiled one's rows, checked against the reference."""
    return score_both(italy, {"variant": "italy", "players": [dict(routes=list(r), tickets=list(t)) for r, t in seats]})


NORTH = ["Genova-Pisa/1", "Genova-Torino/1", "Genova-Milano/1", "Milano-Parma"]   # 5 regions


# --- the statements: 'region NAME [double]: …', 'region points', 'regions scored', 'double regions' ---

def test_regions_and_double_count_regions_italy_region_bonus():
    """Italy, 'Fim da partida e bônus das regiões': 17 regions, each city in one; Sardegna,
    Sicilia and Puglia count twice when all their cities are connected."""
    text = mini("city Palermo\ncity Messina\ncity Catania\ncity Bari\n"
                "route Palermo - Messina 3 gray\nroute Messina - Catania 1 gray\nroute Catania - Alpha 4 gray\n"
                "route Bari - Alpha 2 gray\n"
                "region Sicilia double: Palermo, Messina, Catania\n"
                "region Puglia double: Bari\n"
                "region Emilia-Romagna: Alpha, Beta\n"
                'region "Friuli-Venezia Giulia": Gamma\n'
                "region Trentino-Alto Adige: Delta, Epsilon, Zeta\n"
                "region points 5:1 6:2 7:4 8:7 9:11 10:16 11:22 12:29 13:37 14:46 15+:56")
    v = checked(text)
    regions = {r.name: r for r in v.rule("regions").regions}
    assert list(regions) == ["Sicilia", "Puglia", "Emilia-Romagna", "Friuli-Venezia Giulia", "Trentino-Alto Adige"]
    sicilia = regions["Sicilia"]
    assert sicilia.counts_double and not regions["Emilia-Romagna"].counts_double
    assert [v.cities[c].name for c in sicilia.cities] == ["Palermo", "Messina", "Catania"]
    assert v.city_named("Messina").id in sicilia.cities
    assert v.city_named("Gamma").id in regions["Friuli-Venezia Giulia"].cities
    assert "regions" in v.mechanics


def test_region_points_table_italy_open_ended():
    """Italy, 'Fim da partida e bônus das regiões': 5 regions 1 point … 15 or more 56."""
    v = checked(mini("region Sicilia double: Alpha, Beta\n"
                     "region points 5:1 6:2 7:4 8:7 9:11 10:16 11:22 12:29 13:37 14:46 15+:56"))
    points = v.rule("regions").points
    assert points[0] == (5, 1, False)
    assert points[-1] == (15, 56, True)
    assert len(points) == 11


def test_regions_per_network_and_double_regions_italy():
    """Italy, 'Fim da partida e bônus das regiões': separate networks are counted separately;
    a special region counts double if all its cities are connected in the same network."""
    base = "region Sicilia double: Alpha, Beta\n"
    rule = checked(mini(base)).rule("regions")
    assert rule.per_network and rule.doubles_whole
    rule = checked(mini(base + "regions scored together\ndouble regions need one city")).rule("regions")
    assert not rule.per_network and not rule.doubles_whole


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("region-without-colon", add(24, "region North Alpha, Beta"), S, 24, 19,
     "unexpected ',', expected one of ':', 'double'; the form is: region NAME [double]: CITY, CITY, …"),
    ("region-points-without-colon", add(24, "region North: Alpha; region points 1 2"), S, 24, 38,
     "expected one of '+', ':'; the form is: region points N:P N:P … N+:P"),
    ("regions-scored-how", add(18, "regions scored apart"), S, 18, 16,
     "unexpected 'apart', expected one of 'per', 'together'"),
    ("double-regions-how", add(18, "double regions need two cities"), S, 18, 21,
     "unexpected 'two', expected one of 'every', 'one'"),
    ("region-points-too-large", add(24, "region North: Alpha, Beta; region points 1:1 2:1000001"), C, 24, 48,
     "region points must be at most 1,000,000, got 1000001"),
    ("region-unknown-city", add(24, "region North: Alpha, Betta"), C, 24, 22,
     "unknown city 'Betta' in region North (did you mean 'Beta'?)"),
    ("city-in-two-regions", add(24, "region North: Alpha, Beta; region South: Beta, Gamma"), C, 24, 42,
     "city 'Beta' is already in region 'North'"),
    ("region-twice", add(24, "region North: Alpha; region North: Beta"), C, 24, 29,
     "region 'North' is declared twice (first at line 24)"),
    ("regions-scored-without-regions", add(18, "regions scored together"), C, 18, 1,
     "'regions scored' needs regions: add 'region NAME: CITY, …'"),
    ("double-regions-without-regions", add(18, "double regions need one city"), C, 18, 1,
     "'double regions' needs regions: add 'region NAME: CITY, …'"),
    ("region-points-without-regions", add(24, "region points 5:1 6:2"), C, 24, 1,
     "'region points' needs regions: add 'region NAME: CITY, …'"),
    ("region-points-open-entry-not-last", add(24, "region North: Alpha, Beta; region points 5:1 6+:2 7:4"),
     C, 24, 46, "the open-ended entry '6+' must have the largest key in the region points table"),
    ("region-points-hole", add(24, "region North: Alpha, Beta; region points 5:1 7:2"), C, 24, 46,
     "region points table has no entry for 6 (between 5 and 7)"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# (id, spec text, line, col, message fragment): content that checks but does nothing, as in
# tests/test_bad_specs.py
WARNING_CASES = [
    ("regions-without-points", add(24, "region North: Alpha, Beta"), 24, 1,
     "regions score nothing without a 'region points N:P …' table"),
]


@pytest.mark.parametrize("text,line,col,fragment", [c[1:] for c in WARNING_CASES],
                         ids=[c[0] for c in WARNING_CASES])
def test_dead_content_is_a_located_warning(tmp_path, text, line, col, fragment):
    """Content that checks but does nothing is a warning: the spec compiles, the warning is
    located like an error, `railspec check` prints it, and `--strict` fails on it."""
    assert_located_warning(tmp_path, text, line, col, fragment)


# --- the score bound (tests/test_spec_bounds.py) ----------------------------------------------

def test_region_points_per_network_count_once_per_network():
    from railspec.compiler.check import score_bound
    italy = check_file(stock_path("italy"))
    parts = dict(score_bound(italy))
    assert parts["regions"] == 56 * min(len(italy.routes), italy.trains)


# --- Fim da partida e bônus das regiões (Italy) -----------------------------------------------

SOUTH = ["Firenze-Perugia", "Perugia-Roma", "Napoli-Roma/1", "Napoli-Pescara"]    # 5 regions


def test_the_rulebooks_region_example(italy):
    """Fim da partida e bônus das regiões, the rulebook's example: two separate networks of
    5 regions each score 1 + 1 = 2; claiming Firenze - Pisa joins them into one network of 9
    regions (Firenze and Pisa are both in Toscana), which scores 11."""
    rows = score(italy, (NORTH + SOUTH, []), ([], []))
    assert rows[0]["regions"] == 2
    rows = score(italy, (NORTH + SOUTH + ["Firenze-Pisa/1"], []), ([], []))
    assert rows[0]["regions"] == 11


@pytest.mark.parametrize("regions,points", [(4, 0), (5, 1), (6, 2), (9, 11), (14, 46), (15, 56), (17, 56)])
def test_region_table(italy, regions, points):
    """Fim da partida: 5 regions 1, 6 2, 7 4, 8 7, 9 11, …, 14 46, 15 or more 56; fewer
    than 5 score nothing."""
    from railspec.mechanics.regions import points_table
    assert points_table(italy.ir.rule("regions"))[regions] == points


SICILY = ["Agrigento-Catania", "Catania-Messina", "Messina-Palermo/1", "Catania-Siracusa"]
AROUND = ["Messina-Salerno", "Cosenza-Messina/1", "Salerno-Taranto"]  # Campania, Calabria, Puglia


def test_sicilia_counts_double_only_with_all_its_cities(italy):
    """Fim da partida: Sardegna, Sicilia and Puglia count as two regions when all their
    cities are connected in the same network. All five Sicilian cities and three other
    regions make 5 (1 point); without Siracusa they make 4 (nothing)."""
    rows = score(italy, (SICILY + AROUND, []), ([], []))
    assert rows[0]["regions"] == 1
    rows = score(italy, (SICILY[:-1] + AROUND, []), ([], []))
    assert rows[0]["regions"] == 0
