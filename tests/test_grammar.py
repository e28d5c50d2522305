"""The spec language covers every construct the five rulebooks need.

Each test parses and checks a small spec using one construct, and names the rulebook and
the section it comes from (the rulebooks are in shared/seeds/, see README.md there):

- USA: 002_e4892a60f61bb48a.txt (English)
- Europe: 000_bb662d8662a85a07.txt (Italian)
- Amsterdam: 001_5402fe9f138aeb47.txt (Italian)
- Pennsylvania: 003_dff6463ca3838127.txt (Italian)
- Italy: 004_7923d32833fcf0ff.txt (Portuguese)
"""
from __future__ import annotations

from collections import Counter

import pytest
from conftest import CITIES, checked, mini, statements

from railspec.compiler import check_file, ir, parse, stock_path
from railspec.compiler.check import check
from railspec.compiler.lang import ast


def test_the_mini_variant_is_valid():
    v = checked(mini())
    assert v.name == "Mini" and len(v.cities) == 6 and len(v.routes) == 5 and len(v.tickets) == 30


# --- components ---------------------------------------------------------------------------

def test_card_colours_and_counts_usa_train_car_cards():
    """USA, 'Components' and 'Train Car Cards': 8 colours of 12 cards plus 14 locomotives."""
    colours = "pink white blue yellow orange black red green".split()
    v = checked(mini(cards="\n".join(f"card {c} 12" for c in colours)))
    assert [c.name for c in v.colours] == colours
    assert [c.id for c in v.colours] == list(range(8))
    assert all(c.count == 12 for c in v.colours)
    assert v.card_total == 110


def test_wild_locomotives_amsterdam_contents():
    """Amsterdam, 'Contenuto': 44 cards, 8 jolly (wild) and 6 of each of 6 colours."""
    colours = "pink blue green black red orange".split()
    v = checked(mini(cards="\n".join(f"card {c} 6" for c in colours), locomotives="locomotives 8"))
    assert v.locomotives == 8 and v.card_total == 44


def test_locomotives_may_be_zero():
    v = checked(mini(locomotives="locomotives 0"))
    assert v.locomotives == 0


def test_trains_per_player_usa_and_amsterdam_setting_up():
    """USA, 'Setting up the game': 45 trains each; Amsterdam, 'Contenuto': 16 carts each."""
    assert checked(mini()).trains == 45
    assert checked(mini(trains="trains 16")).trains == 16


def test_players_range_and_single_count():
    """USA, cover: 2-5 players; Amsterdam: 4 scoring markers (2-4); `players 3` is one count."""
    v = checked(mini())
    assert (v.min_players, v.max_players) == (2, 5)
    (stmt,) = statements(mini(players="players 3"), ast.Players)
    assert (stmt.low.value, stmt.high.value) == (3, 3)


# --- the map ---------------------------------------------------------------------------------

def test_cities_usa_board():
    """USA, 'Claiming routes': a route joins two adjacent cities on the board."""
    v = checked(mini())
    assert [c.name for c in v.cities] == CITIES
    assert [c.id for c in v.cities] == list(range(6))
    assert v.city_named("Gamma").dead_end is False


def test_route_length_colour_and_gray_usa_claiming_routes():
    """USA, 'Claiming routes': a route has a length and a colour, or is gray (any one colour)."""
    v = checked(mini("route Alpha - Gamma 3 red\nroute Beta - Delta 4 grey"))
    red, grey = v.route_named("Alpha-Gamma"), v.route_named("Beta-Delta")
    assert (red.length, red.colour, red.colour_name) == (3, v.colours[0].id, "red")
    assert (grey.colour, grey.colour_name) == (ir.GRAY, "gray")
    # a coloured route can be paid in its colour only, a gray one in any colour
    assert {a.colour for a in v.actions if a.kind == ir.CLAIM and a.route == red.id} == {0}
    assert {a.colour for a in v.actions if a.kind == ir.CLAIM and a.route == grey.id} == {-1, 0, 1, 2}


def test_route_attributes_in_any_order():
    v = checked(mini("ferry cards 10 max 2\naction draw ferry card\ngoods cards 4\n"
                     "goods ranking 2 players: 1\ngoods ranking 3 players: 1\ngoods ranking 4 players: 1\n"
                     "goods ranking 5 players: 1\nroute Alpha - Gamma 5 gray waves 2 tunnel goods ferry 1"))
    r = v.route_named("Alpha-Gamma")
    assert (r.id in v.rule("tunnels").routes, r.id in v.rule("goods").routes, v.rule("ferries").needs(r.id),
            v.rule("ferry_cards").wave_spaces(r.id)) == (True, True, 1, 2)
# --- tickets -------------------------------------------------------------------------------------

def test_regular_tickets_usa_destination_tickets():
    """USA, 'Drawing Destination Ticket Cards': two cities and a point value."""
    v = checked(mini())
    t = v.ticket_named("Alpha-Gamma")
    assert (v.cities[t.a].name, v.cities[t.b].name, t.points, t.deck) == ("Alpha", "Gamma", 3, "")
    # the same pair again with other points is a second card, named with a suffix
    assert v.ticket_named("Alpha-Gamma/2").points == 22


# --- set-up and actions -----------------------------------------------------------------------------

def test_hand_and_market_usa_setting_up_and_train_car_cards():
    """USA, 'Setting up the game' (4 cards each, 5 face up) and 'Train Car Cards' (three
    face-up locomotives: discard and redeal); Amsterdam, 'Preparazione': 2 cards each."""
    v = checked(mini())
    assert (v.hand, v.market_size, v.market_reset_locomotives) == (4, 5, 3)
    assert checked(mini(hand="hand 2")).hand == 2


def test_deal_and_keep_per_rulebook():
    """Set-up deals: USA 3 keep 2 ('Setting up the game'), Amsterdam 2 keep 1 ('Preparazione
    del Gioco'), Pennsylvania 5 keep 3 ('Biglietti Destinazione'), Italy 5 keep 3
    ('Preparação')."""
    for deal, expected in [("3 keep 2", (3, 0, 2)), ("2 keep 1", (2, 0, 1)), ("5 keep 3", (5, 0, 3))]:
        v = checked(mini(deal=f"deal tickets {deal}"))
        assert (v.deal_regular, dict(v.deal_parts).get("long", 0), v.deal_keep) == expected


def test_actions_usa_the_game_turn():
    """USA, 'The Game Turn': draw train car cards (2), claim a route, draw destination
    tickets (3, keep at least 1)."""
    v = checked(mini())
    assert (v.draw_cards, v.draw_tickets, v.draw_tickets_keep) == (2, 3, 1)
    kinds = [a.kind for a in v.actions]
    assert kinds[0] == ir.DRAW_BLIND and ir.CLAIM in kinds and ir.DRAW_TICKETS in kinds and kinds[-1] == ir.PASS


def test_draw_tickets_variants_pennsylvania_and_italy():
    """Pennsylvania, 'Biglietti Destinazione', and Italy, 'Comprar Bilhetes de Destino': draw
    4, keep at least 1; Amsterdam, 'Pescare Carte Contratto': draw 2, keep 1."""
    v = checked(mini(actions="action draw cards 2\naction claim route\naction draw tickets 4 keep 1"))
    assert (v.draw_tickets, v.draw_tickets_keep) == (4, 1)
    assert len([a for a in v.actions if a.kind == ir.KEEP_TICKETS]) == 2 ** 4 - 1
    v = checked(mini(actions="action draw cards 2\naction claim route\naction draw tickets 2 keep 1"))
    assert (v.draw_tickets, v.draw_tickets_keep) == (2, 1)


def test_no_ticket_draw_action():
    v = checked(mini(actions="action draw cards 2\naction claim route"))
    assert v.draw_tickets == 0 and ir.DRAW_TICKETS not in [a.kind for a in v.actions]


# --- end and scoring -----------------------------------------------------------------------------

def test_end_when_usa_game_end():
    """USA, 'Game End': 0, 1 or 2 trains left at the end of a turn."""
    assert checked(mini()).end_trains == 2


def test_route_points_usa_route_scoring_table():
    """USA, 'Route Scoring Table' (an image in the rulebook; 1, 2, 4, 7, 10, 15 from the map data)."""
    assert checked(mini()).route_points == (0, 1, 2, 4, 7, 10, 15)


def test_route_points_europe_lengths_6_and_8():
    """Europe, the route table: 1 1, 2 2, 3 4, 4 7, 6 15, 8 21. The language wants no hole,
    so the unused lengths 5 and 7 need an entry too (see docs/language.md)."""
    v = checked(mini("route Alpha - Gamma 8 gray", route_points="route points 1:1 2:2 3:4 4:7 5:10 6:15 7:18 8:21"))
    assert v.route_points[6] == 15 and v.route_points[8] == 21


def test_tiebreak_europe_and_amsterdam():
    """Europe, 'Calcolo dei punteggi': most tickets, then fewest stations, then the European
    Express; Amsterdam: most contracts. Without the statement: most tickets (docs/language.md)."""
    v = checked(mini("stations 3 cost 1 2 3\naction build station\nlongest path 10\n"
                     "tiebreak most tickets, fewest stations, longest path"))
    assert v.tiebreaks == ("most_tickets", "fewest_stations", "longest_path")
    assert checked(mini("tiebreak most tickets")).tiebreaks == ("most_tickets",)
    assert checked(mini("longest path 10")).tiebreaks == ("most_tickets",)
    assert checked(mini("longest path 10\ntiebreak most tickets, longest path")).tiebreaks == \
        ("most_tickets", "longest_path")


# --- extends -------------------------------------------------------------------------------------

def test_extends_usa_with_overrides(tmp_path):
    """A variant built on the stock USA spec: a scalar replaced, a double route and a ticket
    removed, a route added, a city removed with everything that used it."""
    child = tmp_path / "short.rail"
    child.write_text(
        'extends "usa"\n'
        'variant "USA, short"\n'
        "trains 30                                  # replaces 45\n"
        "without route Atlanta - Raleigh            # both tracks of the double\n"
        "without route Denver - Kansas City 4\n"
        "without ticket Denver - El Paso\n"
        "route Denver - Dallas 4 gray\n"
        "without city Miami\n"
        "without route Atlanta - Miami; without route Charleston - Miami; without route Miami - New Orleans\n"
        "without ticket Boston - Miami; without ticket Los Angeles - Miami; without ticket Toronto - Miami\n",
        encoding="utf-8")
    v = check_file(child)
    assert v.name == "USA, short" and v.key == "short" and v.trains == 30
    assert v.hand == 4 and v.route_points == (0, 1, 2, 4, 7, 10, 15)      # inherited
    names = [r.name for r in v.routes]
    assert not any(n.startswith("Atlanta-Raleigh") or n.startswith("Denver-Kansas City") for n in names)
    assert "Denver-Dallas" == names[-1]
    assert len(v.routes) == 100 - 2 - 2 - 3 + 1
    assert len(v.tickets) == 30 - 1 - 3
    assert len(v.cities) == 35 and "Miami" not in [c.name for c in v.cities]


def test_extends_overrides_keyed_statements_in_place(tmp_path):
    """A child spec replaces an inherited action, card count, returned-ticket rule or
    tracks-usable range by giving it again; the card keeps its colour id."""
    (tmp_path / "base.rail").write_text(mini(), encoding="utf-8")
    (tmp_path / "child.rail").write_text(
        'extends "base.rail"\ncard blue 10\naction draw tickets 4 keep 1\nreturned setup removed\n',
        encoding="utf-8")
    v = check_file(tmp_path / "child.rail")
    assert [(c.name, c.count) for c in v.colours] == [("red", 12), ("blue", 10), ("green", 12)]
    assert (v.draw_tickets, v.draw_tickets_keep) == (4, 1)
    assert (v.rule("removed_tickets").setup, v.rule("removed_tickets").draws) == (True, False)
    assert "removed_tickets" in v.mechanics


def test_extends_a_sibling_file(tmp_path):
    (tmp_path / "base.rail").write_text(mini(), encoding="utf-8")
    (tmp_path / "child.rail").write_text('extends "base.rail"\nhand 2\ncard yellow 12\n', encoding="utf-8")
    v = check_file(tmp_path / "child.rail")
    assert v.hand == 2 and [c.name for c in v.colours] == ["red", "blue", "green", "yellow"]


# --- lexical matters ------------------------------------------------------------------------------

def test_comments_and_semicolons():
    """Comments after '#', blank lines, and ';' joining statements on one line change nothing."""
    plain = mini()
    packed = ("# a comment line\n\n" + plain.replace("players 2..5\ntrains 45\nhand 4",
                                                    "players 2..5; trains 45; hand 4   # three in one")
              .replace("card red 12", "card red 12 # twelve"))
    assert packed != plain
    assert checked(packed).spec_hash == checked(plain).spec_hash
    (p, t, h) = parse("players 2..5; trains 45;hand 4", "x.rail").statements
    assert (p.span.col, t.span.col, h.span.col) == (1, 15, 25)


def test_quoted_names_with_spaces_and_slashes_pennsylvania():
    """Pennsylvania's map: 'Scranton / Wilkes Barre'; a quoted name equals the same bare name."""
    text = mini('city "Scranton / Wilkes Barre"\nroute "Scranton / Wilkes Barre" - "Alpha" 3 red\n'
                'ticket Zeta - "Scranton / Wilkes Barre" 9\ncity "Say \\"hi\\""\nroute "Say \\"hi\\"" - Beta 1 gray')
    v = checked(text)
    assert v.route_named("Scranton / Wilkes Barre-Alpha").a == v.city_named("Scranton / Wilkes Barre").id
    assert v.ticket_named("Zeta-Scranton / Wilkes Barre").points == 9
    assert v.city_named('Say "hi"').id == len(v.cities) - 1


def test_multi_word_bare_names_usa():
    """USA board: Salt Lake City, Sault St. Marie, Kansas City."""
    text = mini("city Salt Lake City\ncity Sault St. Marie\nroute Salt Lake City - Sault St. Marie 5 green\n"
                "route Sault St. Marie   -   Alpha 2 gray")
    v = checked(text)
    assert v.route_named("Salt Lake City-Sault St. Marie").length == 5
    assert v.route_named("Sault St. Marie-Alpha").a == v.city_named("Sault St. Marie").id


def test_hyphenated_bare_names():
    """Italy's regions (Emilia-Romagna) and towns like Wilkes-Barre are one word each."""
    v = checked(mini("city Wilkes-Barre\nroute Wilkes-Barre - Alpha 2 gray"))
    assert v.route_named("Wilkes-Barre-Alpha").length == 2


def test_non_ascii_names():
    """USA Montréal, Europe München and Zürich, and København written with its own letters."""
    v = checked(mini("city Montréal\ncity München\ncity Zürich\ncity København\n"
                     "route Montréal - München 3 red\nroute München - Zürich 2 gray\n"
                     "route Zürich - København 4 blue\nroute København - Alpha 1 gray\nticket Montréal - Zürich 7"))
    assert v.route_named("München-Zürich").length == 2
    assert v.ticket_named("Montréal-Zürich").points == 7
    assert "claim Montréal-München red 3red" in [a.name for a in v.actions]


def test_keywords_inside_names():
    """Keywords are lower case and contextual: capitalised names that contain them parse."""
    v = checked(mini("city cityville\nroute cityville - Alpha 3 red\nticket longville - Alpha 4\ncity longville\n"
                     "route longville - Beta 2 gray"))
    assert v.ticket_named("longville-Alpha").deck == "" and v.city_named("cityville").id == 6
    v = checked(mini("city Long Island\ncity Ferry Port\nroute Long Island - Ferry Port 2 gray ferry 1\n"
                     "route Ferry Port - Alpha 1 gray\nticket long Long Island - Alpha 12",
                     deal="deal tickets 3 long 0 keep 2"))
    assert v.rule("ferries").needs(v.route_named("Long Island-Ferry Port").id) == 1
    assert v.ticket_named("Long Island-Alpha").deck == "long"


def test_spans_point_at_the_parts():
    (route,) = statements("route Salt Lake City - Denver 3 red tunnel", ast.Route)
    assert (route.a.span.col, route.a.span.end_col) == (7, 21)
    assert (route.b.span.col, route.length.span.col, route.colour.span.col) == (24, 31, 33)
    assert [a.name for a in route.attrs] == ["tunnel"] and route.attrs[0].span.col == 37


# --- the stock USA spec ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def usa() -> ir.Variant:
    return check_file(stock_path("usa"))


def test_usa_counts(usa):
    """USA rulebook 'Components' (110 train cards: 12 of 8 colours + 14 locomotives; 30
    tickets) and the map data (36 cities, 100 routes, 309 cars)."""
    assert len(usa.cities) == 36
    assert len(usa.routes) == 100
    assert len(usa.tickets) == 30
    assert sum(r.length for r in usa.routes) == 309
    assert usa.card_total == 110
    assert [c.count for c in usa.colours] == [12] * 8 and usa.locomotives == 14
    assert usa.route_points == (0, 1, 2, 4, 7, 10, 15)
    assert (usa.trains, usa.hand, usa.deal_regular, usa.deal_keep, usa.rule("longest_path").bonus) == (45, 4, 3, 2, 10)
    groups = Counter(r.group for r in usa.routes)
    assert len(groups) == 78 and sum(1 for n in groups.values() if n == 2) == 22
    assert sum(1 for r in usa.routes if r.colour == ir.GRAY) == 44


@pytest.mark.parametrize("name", ["usa", "europe", "amsterdam", "pennsylvania", "italy"])
def test_stock_catalogues_have_unique_names_and_dense_ids(name):
    """Every stock variant's action, route and ticket names are unique; ids run 0..n-1."""
    v = check_file(stock_path(name))
    for table in (v.actions, v.routes, v.tickets, v.cities):
        names = [x.name for x in table]
        assert len(names) == len(set(names)), [n for n, k in Counter(names).items() if k > 1]
        assert [x.id for x in table] == list(range(len(names)))


def test_usa_parses_the_same_through_parse_and_check():
    text = stock_path("usa").read_text(encoding="utf-8")
    v = check([parse(text, "usa.rail")], "usa")
    assert v.spec_hash == check_file(stock_path("usa")).spec_hash


# --- rules that live in the language (issue "Mechanics as modules", point 5) -----------------------


def test_every_stock_spec_states_its_rules():
    """The five stock specs write these rules out rather than relying on a default."""
    from railspec.compiler import stock_path
    expect = {"europe": ["tunnels reveal 3", "stations choose most points, most tickets"],
              "italy": ["ferry cards spent return", "regions scored per network", "double regions need every city"],
              "amsterdam": ["goods ties share", "goods without cards score nothing"],
              "pennsylvania": ["share ties lowest number", "neutral shareholder for 2 players takes route companies "
                                                          "counts half rounded up"]}
    for name, lines in expect.items():
        text = stock_path(name).read_text(encoding="utf-8")
        for line in lines:
            assert any(row.split("#")[0].strip() == line for row in text.splitlines()), (name, line)


def test_city_places_draw_the_map_and_leave_the_hash_alone(tmp_path):
    """`city NAME at X Y` (docs/language.md, "The map"): the IR keeps each city's place,
    and a spec with the places removed has the same spec hash (traces stay valid)."""
    import re

    from railspec.compiler import check_file, stock_path
    placed = check_file(stock_path("usa"))
    assert all(c.at is not None for c in placed.cities)
    assert placed.city_named("Atlanta").at == (1395, 726)
    bare_text = re.sub(r"^(city .+?)\s+at\s+-?\d+\s+-?\d+", r"\1", stock_path("usa").read_text(encoding="utf-8"),
                       flags=re.M)
    bare = tmp_path / "usa.rail"
    bare.write_text(bare_text, encoding="utf-8")
    unplaced = check_file(bare)
    assert all(c.at is None for c in unplaced.cities)
    assert unplaced.spec_hash == placed.spec_hash


def test_render_puts_cities_at_their_places():
    import railspec
    from railspec.playtest.render import layout
    v = railspec.load("usa")
    places = layout(v.ir)
    seattle, miami = places[v.ir.city_named("Seattle").id], places[v.ir.city_named("Miami").id]
    assert seattle[0] < miami[0] and seattle[1] < miami[1]  # north-west of Miami, y down
