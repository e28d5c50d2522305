"""Double and triple routes (mechanics/multi_track): their statements, the rule on every map
on both engines, in described positions, and in the agents' view.

USA rulebook (shared/seeds/002_e4892a60f61bb48a.txt), Claiming Routes, Double-Routes: one
player never claims two tracks of one route; in 2 or 3 player games only one track of a
double route is used. Each map's rules tests name their source, as the maps' files in
tests/ do (tests/test_rules_<map>.py's docstrings list them).
"""
from __future__ import annotations

import warnings
from collections import Counter

import pytest
from conftest import (
    DEFAULTS,
    ENGINES,
    Arranged,
    add,
    assert_located_error,
    assert_located_warning,
    bad_spec_params,
    checked,
    edit,
    implemented_stock_variants,
    mini,
    names,
    start_turns,
)

import railspec
from railspec.compiler.base.errors import PositionError, ProvisionalSpecWarning, SpecCheckError, SpecSyntaxError
from railspec.compiler.mechanic import stock_registry
from railspec.testing import check_mechanic, sample_spec

S, C = SpecSyntaxError, SpecCheckError

E = {"routes": [], "tickets": []}
VARIANTS = implemented_stock_variants()
IDS = [v.key for v in VARIANTS]
MARKET = ("pink", "white", "blue", "orange", "black")  # no locomotive, no colour of the tests' routes
ASIA_MARKET = ("pink", "white", "blue", "orange", "red")  # no locomotive: no market reset in the way


@pytest.fixture(scope="module")
def ams():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProvisionalSpecWarning)
        return railspec.load("amsterdam")


@pytest.fixture(scope="module")
def india():
    return railspec.load("india")


@pytest.fixture(scope="module")
def italy():
    return railspec.load("italy")


@pytest.fixture(scope="module")
def asia():
    return railspec.load("legendary_asia")


@pytest.fixture(scope="module")
def nordic():
    return railspec.load("nordic_countries")


@pytest.fixture(scope="module")
def swiss():
    return railspec.load("switzerland")


def claim_game(v, engine, players=2, seed=1, market=MARKET, **hand):
    """Player 0 to move with ``hand`` and the given market (Nordic Countries, Switzerland)."""
    g = start_turns(v, players, seed=seed, engine=engine, keep="keep tickets 1,2")
    return Arranged(v, g).hand(0, **hand).faceup(*market)


def asia_claim_game(asia, engine, players=2, seed=1, **hand):
    """Legendary Asia: player 0 to move with ``hand`` and a market without locomotives."""
    g = start_turns(asia, players, seed=seed, engine=engine)
    return Arranged(asia, g).hand(0, **hand).faceup(*ASIA_MARKET)


def claims(game, route: str) -> list[str]:
    """The legal claims of ``route`` (its name without a track suffix matches every track)."""
    return [n for n in names(game) if n.startswith(f"claim {route} ")]


def refused(v, pos, *fragments):
    with pytest.raises(PositionError) as caught:
        v.score(pos)
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, message
    assert len(message.splitlines()) == 1, message
    return message


# --- the statements: a city pair written twice or three times, 'tracks usable', 'apart' -------

def test_double_routes_usa_claiming_routes():
    """USA, 'Claiming routes': double-routes; the same city pair written on two lines."""
    v = checked(mini("route Alpha - Gamma 3 red\nroute Alpha - Gamma 3 blue"))
    t1, t2 = v.route_named("Alpha-Gamma/1"), v.route_named("Alpha-Gamma/2")
    assert (t1.colour_name, t2.colour_name) == ("red", "blue")
    assert t1.group == t2.group and (t1.track, t2.track) == (1, 2) and t1.tracks == t2.tracks == 2
    assert v.route_named("Alpha-Beta").tracks == 1 and v.route_named("Alpha-Beta").track == 1
    assert v.route_named("Alpha-Beta").group != t1.group
    assert "multi_track" in v.mechanics


def test_triple_route_italy_double_and_triple_routes():
    """Italy, opening section: double or triple routes (Napoli - Roma is the triple); written
    in either order, gray tracks may repeat."""
    v = checked(mini("route Napoli - Roma 4 gray\nroute Roma - Napoli 4 gray\nroute Napoli - Roma 4 red\n"
                     "route Roma - Alpha 1 gray", cities=DEFAULTS["cities"] + "\ncity Napoli\ncity Roma"))
    tracks = [r for r in v.routes if {v.cities[r.a].name, v.cities[r.b].name} == {"Napoli", "Roma"}]
    assert [r.name for r in tracks] == ["Napoli-Roma/1", "Roma-Napoli/2", "Napoli-Roma/3"]
    assert [r.track for r in tracks] == [1, 2, 3] and {r.tracks for r in tracks} == {3}
    assert len({r.group for r in tracks}) == 1


def test_tracks_usable_usa_double_routes_note():
    """USA, 'Claiming routes', Important Note: in 2 or 3 player games only one track of a
    double route is used; Amsterdam: only in 2-player games."""
    double = "route Alpha - Beta 2 gray\n"
    v = checked(mini(double + "tracks usable 1 for 2..3 players"))
    assert v.rule("multi_track").tracks_usable == ((2, 3, 1),)
    assert [v.rule("multi_track").usable(n) for n in (2, 3, 4, 5)] == [1, 1, 3, 3]
    v = checked(mini(double + "tracks usable 1 for 2 players", players="players 2..4"))
    assert v.rule("multi_track").tracks_usable == ((2, 2, 1),)
    # the rule belongs to double routes: a map without one has no multi-track rule
    assert checked(mini("tracks usable 1 for 2..3 players")).rule("multi_track") is None


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("tracks-usable-without-for", edit(14, "tracks usable 1 2..3 players"), S, 14, 17,
     "unexpected '2', expected one of 'for', 'of'; the form is: tracks usable N for LOW..HIGH players"),
    ("tracks-misspelt", edit(14, "track usable 1 for 2..3 players"), S, 14, 1,
     "unknown statement 'track' (did you mean 'tracks'?)"),
    ("tracks-usable-outside-players", edit(14, "tracks usable 1 for 2..5 players"), C, 14, 1,
     "player range 2..5 is outside the game's 2..4"),
    ("tracks-usable-four", edit(14, "tracks usable 4 for 2..3 players"), C, 14, 15,
     "4 usable tracks, but a route has at most 3"),
    ("four-tracks", add(26, "route Alpha - Beta 2 gray; route Alpha - Beta 2 gray"), C, 26, 28,
     "route Alpha - Beta has more than 3 tracks"),
    # tracks usable N of S for LOW..HIGH players: the routes of S tracks only
    ("tracks-usable-of-four", add(15, "tracks usable 1 of 4 for 2..3 players"), C, 15, 20,
     "routes of 4 tracks: a double or triple route has 2 or 3 tracks"),
    ("tracks-usable-of-one", add(15, "tracks usable 1 of 1 for 2..3 players"), C, 15, 20,
     "routes of 1 track: a double or triple route has 2 or 3 tracks"),
    ("tracks-usable-of-more-than-its-routes", add(15, "tracks usable 3 of 2 for 2..3 players"), C, 15, 15,
     "3 usable tracks, but these routes have 2"),
    ("tracks-usable-of-none", add(15, "tracks usable 0 of 2 for 2..3 players"), C, 15, 15,
     "the number of usable tracks must be positive, got 0"),
    ("tracks-usable-of-overlapping", add(15, "tracks usable 1 of 2 for 2..3 players; tracks usable 2 of 2 for 3..4 "
                                             "players"), C, 15, 40, "'tracks usable' ranges overlap at 3 players"),
    ("tracks-usable-of-outside-players", add(15, "tracks usable 1 of 2 for 2..5 players"), C, 15, 1,
     "player range 2..5 is outside the game's 2..4"),
    ("tracks-usable-of-without-players", add(15, "tracks usable 1 of 2 for 2..3"), S, 15, 30,
     "unexpected end of line, expected 'players'; the form is: tracks usable N of S for LOW..HIGH players"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# (id, spec text, line, col, message fragment): content that checks but does nothing, as in
# tests/test_bad_specs.py
WARNING_CASES = [
    ("apart-on-a-lone-route", edit(26, "route Beta - Gamma 3 gray apart"), 26, 27,
     "'apart' does nothing here: Beta-Gamma is the only route of its city pair"),
    ("tracks-usable-of-a-size-no-route-has", add(15, "tracks usable 1 of 3 for 2..3 players"), 15, 1,
     "'tracks usable N of 3' does nothing here: no route has 3 tracks"),
]


@pytest.mark.parametrize("text,line,col,fragment", [c[1:] for c in WARNING_CASES],
                         ids=[c[0] for c in WARNING_CASES])
def test_dead_content_is_a_located_warning(tmp_path, text, line, col, fragment):
    """Content that checks but does nothing is a warning: the spec compiles, the warning is
    located like an error, `railspec check` prints it, and `--strict` fails on it."""
    assert_located_warning(tmp_path, text, line, col, fragment)


# --- USA: Claiming Routes, Double-Routes ------------------------------------------------------

def test_never_both_tracks_of_a_double(usa, engine):
    """Claiming Routes, Double-Routes: one player cannot claim both routes between two cities."""
    g = start_turns(usa, 4, engine=engine)
    g = Arranged(usa, g).own(0, "Denver-Kansas City/1").hand(0, orange=4).game(engine)
    assert not any(n.startswith("claim Denver-Kansas City/2") for n in names(g))
    g = Arranged(usa, g).hand(1, orange=4).set(current=1).game(engine)
    assert "claim Denver-Kansas City/2 orange 4orange" in names(g)


@pytest.mark.parametrize("players,open_", [(2, False), (3, False), (4, True), (5, True)])
def test_double_routes_closed_in_two_and_three_player_games(usa, engine, players, open_):
    """Claiming Routes, Important Note: in 2 or 3 player games only one of the Double-Routes is
    used; once a track is claimed the other is closed (docs/rules.md #9)."""
    g = start_turns(usa, players, engine=engine)
    g = Arranged(usa, g).own(0, "Denver-Kansas City/1").hand(1, orange=4).set(current=1).game(engine)
    assert ("claim Denver-Kansas City/2 orange 4orange" in names(g)) is open_


# --- Amsterdam: Controllare una Linea ---------------------------------------------------------

def test_two_players_one_track_of_a_double_closes_the_other(ams, engine):
    """Controllare una Linea, Nota: with 2 players, once one line of a double is taken the
    other is closed; with 3 or 4, a player still never takes both."""
    for players, open_ in ((2, False), (3, True)):
        g = start_turns(ams, players, engine=engine, keep="keep tickets 1,2")
        g = Arranged(ams, g).own(0, "Dam-Oude Kerk/1").hand(1, pink=2).set(current=1).game(engine)
        assert ("claim Dam-Oude Kerk/2 pink 2pink" in names(g)) is open_


# --- India (BGA India: Introduction) ----------------------------------------------------------

@pytest.mark.parametrize("players,open_", [(2, False), (3, False), (4, True)])
def test_both_tracks_of_a_double_only_with_four_players(india, engine, players, open_):
    """BGA India, Introduction: in 4-player games only, players can use both tracks of a double
    route; in 2- and 3-player games, once one track is taken the other is no longer available
    (census: minimumPlayerForDoubleRoutes = 4, one player more than USA's rule)."""
    g = start_turns(india, players, engine=engine)
    g = Arranged(india, g).own(0, "Agra-Bhopal/1").hand(1, red=1).set(current=1).game(engine)
    assert ("claim Agra-Bhopal/2 red 1red" in names(g)) is open_


def test_never_both_tracks_of_a_double_even_with_four(india, engine):
    """The base game's Double-Routes rule, kept at 4 players: one player never claims both
    tracks of a double route."""
    g = start_turns(india, 4, engine=engine)
    g = Arranged(india, g).own(0, "Agra-Bhopal/1").hand(0, red=1).game(engine)
    assert not any(n.startswith("claim Agra-Bhopal/2") for n in names(g))


# --- Italy: Rotas duplas e triplas ------------------------------------------------------------

@pytest.mark.parametrize("players,open_", [(2, False), (3, False), (4, True), (5, True)])
def test_triple_route_napoli_roma(italy, engine, players, open_):
    """Rotas duplas ou triplas: with 4 and 5 players every track can be used, but one player
    never holds two tracks of the same route; with 2 and 3 the first track claimed closes
    the others."""
    g = start_turns(italy, players, engine=engine, keep="keep tickets 1,2,3")
    g = Arranged(italy, g).own(0, "Napoli-Roma/1").hand(0, red=4, loco=4).hand(1, red=4, loco=4).game(engine)
    assert not any(n.startswith("claim Napoli-Roma/") for n in names(g))  # player 0 has a track
    g = Arranged(italy, g).set(current=1).game(engine)
    assert any(n.startswith("claim Napoli-Roma/2") for n in names(g)) is open_


# --- Legendary Asia (SUMMARY; MAP) ------------------------------------------------------------

def test_five_players_use_the_three_tracks_each_one(asia, engine):
    """SUMMARY: double (and triple) routes are all available at 5 players; no player owns
    two tracks of one route (the family's rule)."""
    a = asia_claim_game(asia, engine, players=5, green=4, red=4, loco=2).own(1, "Bombay-Colombo/1")
    a.own(2, "Bombay-Colombo/2")
    legal = names(a.game(engine))
    assert "claim Bombay-Colombo/3 green 4green+1loco" in legal
    a = asia_claim_game(asia, engine, players=5, green=4, red=4, loco=2).own(0, "Bombay-Colombo/1")
    assert not any(n.startswith("claim Bombay-Colombo") for n in names(a.game(engine)))


@pytest.mark.parametrize("players,usable", [(2, False), (3, False), (4, True), (5, True)])
def test_doubles_only_at_four_and_five_players(asia, engine, players, usable):
    """SUMMARY: "Double routes are only available in 4- and 5-player games": with one track
    of Bombay - Karachi taken, the other is open only at 4 and 5 players; the same for the
    triple once one track is taken."""
    a = asia_claim_game(asia, engine, players=players, red=4, loco=2).own(1, "Bombay-Karachi/1", "Bombay-Colombo/3")
    legal = names(a.game(engine))
    assert any(n.startswith("claim Bombay-Karachi/2") for n in legal) == usable
    assert any(n.startswith("claim Bombay-Colombo/1") for n in legal) == usable


# --- Nordic Countries (SUMMARY; MAP) ----------------------------------------------------------

@pytest.mark.parametrize("players,open_", [(2, False), (3, True)])
def test_doubles_only_at_three_players_whatever_their_tracks(nordic, engine, players, open_):
    """SUMMARY: "In a 3-player game, both sides of a double route may be claimed (by different
    players). In a 2-player game, only one side … Note that there are some double routes
    where the two sides are of different lengths and types (e.g., between Stavanger and
    Kristiansand) – these rules still apply to them"; MAP (minimumPlayerForDoubleRoutes = 3)."""
    tunnel, ferry = nordic.ir.route_named("Kristiansand-Stavanger/1"), nordic.ir.route_named("Kristiansand-Stavanger/2")
    assert (tunnel.length, ferry.length, tunnel.group) == (2, 3, ferry.group)
    a = claim_game(nordic, engine, players=players, orange=2, loco=1)
    a.own(1, "Kristiansand-Stavanger/1")
    g = a.game(engine)
    assert (claims(g, "Kristiansand-Stavanger/2") != []) == open_


# --- Switzerland (SHEET; MAP) -----------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3])
def test_kreuzlingens_two_routes_into_deutschland_are_no_double(swiss, engine, players):
    """MAP: the two routes from Kreuzlingen reach Deutschland at two places (end points 2003
    and 2004), so they are two routes, not a double (the rules sheet's doubles are usable
    once at 2 players): with one owned by the other player, the second is still open, and
    one player may own both (docs/rules.md #42)."""
    one, two = swiss.ir.route_named("Kreuzlingen-Deutschland/1"), swiss.ir.route_named("Kreuzlingen-Deutschland/2")
    assert one.group != two.group
    g = claim_game(swiss, engine, players=players, white=1, orange=1).own(1, one.name).game(engine)
    assert claims(g, two.name) == [f"claim {two.name} white 1white"]
    g = claim_game(swiss, engine, players=players, white=1).own(0, one.name).game(engine)
    assert claims(g, two.name) == [f"claim {two.name} white 1white"]


@pytest.mark.parametrize("players,open_", [(2, False), (3, True)])
def test_doubles_only_at_three_players(swiss, engine, players, open_):
    """SHEET: "In 3 Player games, players can use both tracks of the double-routes. In 2
    Player games, once one of the tracks of a double-route is taken, the other one is no
    longer available"."""
    g = claim_game(swiss, engine, players=players, yellow=1).own(1, "Bern-Fribourg/1").game(engine)
    assert (claims(g, "Bern-Fribourg/2") != []) == open_


# --- described positions (docs/formats.md, "Position") ----------------------------------------

def _double(v):
    """The tracks of the variant's first double route: a group of two tracks or more (a
    route written ``apart`` counts its pair's tracks but is a group of its own: Japan's
    Aomori - Hakodate)."""
    size = Counter(r.group for r in v.routes)
    return [r for r in v.routes if r.group == next(r.group for r in v.routes if size[r.group] > 1)]


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_a_player_may_not_own_two_tracks_of_a_route(v):
    first, second = _double(v)[:2]
    for players in range(v.ir.min_players, v.ir.max_players + 1):
        seats = [dict(E) for _ in range(players)]
        seats[1] = {"routes": [first.name, second.name]}
        refused(v, {"players": seats}, "player 1", first.name, second.name)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_both_tracks_are_used_only_where_the_player_count_allows(v):
    """USA rulebook, Double-Routes: in 2 or 3 player games only one track of a double route
    can be used (each spec says at which counts: ``tracks usable``)."""
    from railspec.mechanics.multi_track import MultiTrackRule
    rule = next(r for r in v.ir.rules if isinstance(r, MultiTrackRule))
    first, second = _double(v)[:2]
    for players in range(v.ir.min_players, v.ir.max_players + 1):
        seats = [dict(E) for _ in range(players)]
        seats[0] = {"routes": [first.name]}
        seats[1] = {"routes": [second.name]}
        pos = {"players": seats}
        if rule.usable(players) >= 2:
            rows = v.score(pos)
            assert rows[0]["routes"] == rows[1]["routes"] > 0
        else:
            refused(v, pos, f"{players}-player", first.name, second.name)


def test_usa_double_routes_at_each_player_count(usa):
    def seats(n):
        return [{"routes": ["Portland-Seattle/1"]}, {"routes": ["Portland-Seattle/2"]}] + [E] * (n - 2)
    for n in (2, 3):
        refused(usa, {"players": seats(n)}, f"in a {n}-player game only 1 track")
    for n in (4, 5):
        assert [r["routes"] for r in usa.score({"players": seats(n)})][:2] == [1, 1]


# --- the agents' view -------------------------------------------------------------------------

@pytest.mark.parametrize("engine", ENGINES)
def test_a_full_double_route_is_closed_in_the_view(usa, engine):
    """USA, 2–3 players: once one track of a double route is claimed the other is closed to
    everyone (rulebook, "Double-Routes"); the view's flag says so though the route is free."""
    g = usa.new_game(players=2, seed=4, engine=engine)
    while g.state()["phase"] != "turn":
        g.apply(g.legal_actions()[-1])
    state = g.state()
    twin = next(r for r in usa.ir.routes if sum(o.group == r.group for o in usa.ir.routes) == 2)
    sibling = next(o for o in usa.ir.routes if o.group == twin.group and o.id != twin.id)
    owner = list(state["owner"])
    other = 1 - state["current"]
    owner[twin.id] = other
    state["owner"] = owner
    state["trains"][other] -= twin.length
    state["route_score"][other] += usa.ir.route_points[twin.length]
    g = usa.game_from_state(state, engine=engine)
    front = 8 + len(usa.ir.colours) + 1 + len(usa.ir.routes)
    flags = g.agent_view()[front:front + len(usa.ir.routes)]
    assert flags[sibling.id] == 0 and flags[twin.id] == 0
    assert sum(flags) == sum(1 for o in owner if o == -1) - 1


def test_tracks_usable_by_size_keep_the_contract():
    """The contract check (railspec.testing) on the sized form the sample does not write: the
    small map's double route opens one track at 2 players and both at 3 and 4 (the form
    without a size says one up to 3); both engines, every decision."""
    mechanic = stock_registry().by_name["multi_track"]
    text = sample_spec(mechanic) + "tracks usable 1 of 2 for 2..2 players\ntracks usable 2 of 2 for 3..4 players\n"
    rule = checked(text).rule("multi_track")
    assert [rule.usable(p, 2) for p in (2, 3, 4)] == [1, 2, 2] and rule.usable(3) == 1
    report = check_mechanic(mechanic, spec_text=text, games=4)
    assert report.ok and report.decisions > 100
