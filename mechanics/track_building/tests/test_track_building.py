"""Track beds built with track pieces (mechanics/track_building): its statements' errors, and
its rules on the France map on both engines.

Sources (spec/france.rail's header): BOOKLET, the France rule booklet (Days of Wonder, Map
Collection 6, 2017, as stored by scribd.com documents 401889706 and 725371344); MAP,
thoun/tickettoride modules/maps/france/map.php (commit 100940e), whose rule lines are quoted.
"""
from __future__ import annotations

import pytest
from conftest import Arranged, add, assert_located_error, bad_spec_params, edit, names, start_turns

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError

S, C = SpecSyntaxError, SpecCheckError
COLOURS = ("pink", "white", "blue", "yellow", "orange", "black", "red", "green")
PIECES = {2: 3, 3: 3, 4: 1, 5: 1}  # of each colour (spec/france.rail, "pieces")


@pytest.fixture(scope="module")
def france():
    return railspec.load("france")


def rid(v, name: str) -> int:
    return v.ir.route_named(name).id


def arrange(v, players=2, seed=1, engine="reference", beds=(), owned=(), hand=None):
    """A game at player 0's turn with pieces built on ``beds`` ((route name, colour) pairs),
    ``owned`` ((route name, player) pairs, among the built beds or other routes) claimed, and
    player 0 holding ``hand`` (card name -> count)."""
    g = start_turns(v, players, seed=seed, engine="reference")
    a = Arranged(v, g)
    colour = list(a.state["bed_colour"])
    out = list(a.state["pieces_out"])
    width = len(out) // len(v.colours)
    for name, c in beds:
        r = v.ir.route_named(name)
        colour[r.id] = a.card(c)
        out[a.card(c) * width + r.length] += 1
    for name, p in owned:
        r = v.ir.route_named(name)
        a.own(p, name)
        if colour[r.id] >= 0:
            out[colour[r.id] * width + r.length] -= 1  # a claimed bed's piece is back in the supply
    a.set(bed_colour=colour, pieces_out=out)
    if hand is not None:
        a.hand(0, **hand)
    return a.game(engine)


def builds(game) -> list[str]:
    return [n for n in names(game) if n.startswith("build ")]


def claims(game, route: str) -> list[str]:
    return [n for n in names(game) if n.startswith(f"claim {route} ")]


def draw_two(game) -> None:
    game.apply_name("draw blind")
    game.apply_name("draw blind")


# --- the language ------------------------------------------------------------------------------

BAD_SPECS = [
    ("bed-on-a-coloured-route", add(17, "pieces 2:1 3:1 4:1") .replace("route Gamma - Delta 4 blue",
                                                                         "route Gamma - Delta 4 blue bed"),
     C, 28, 28, "a track bed has no colour until a piece is built on it"),
    ("bed-without-pieces", edit(26, "route Beta - Gamma 3 gray bed"), C, 26, 27,
     "a track bed needs track pieces"),
    ("bed-without-a-piece-of-its-length", add(17, "pieces 2:1").replace("route Beta - Gamma 3 gray",
                                                                           "route Beta - Gamma 3 gray bed"),
     C, 27, 27, "no track piece has length 3"),
    ("pieces-without-a-bed", add(17, "pieces 2:1 3:1"), C, 17, 1,
     "track pieces, but no route is a track bed"),
    ("crossing-a-route-that-is-no-bed", add(17, "pieces 3:1").replace(
        "route Beta - Gamma 3 gray", "route Beta - Gamma 3 gray bed") + "crossing Beta - Gamma / Alpha - Beta\n",
     C, 38, 1, "no track bed joins Alpha and Beta"),
    ("crossing-an-unknown-city", add(17, "pieces 3:1").replace(
        "route Beta - Gamma 3 gray", "route Beta - Gamma 3 gray bed") + "crossing Beta - Gamma / Alpha - Omega\n",
     C, 38, 33, "unknown city 'Omega'"),
    ("buildable-outside-the-players", add(17, "pieces 3:1").replace(
        "route Beta - Gamma 3 gray", "route Beta - Gamma 3 gray bed") + "tracks buildable 1 for 2..5 players\n",
     C, 38, 1, "player range 2..5 is outside the game's 2..4"),
    ("buildable-without-beds", add(17, "tracks buildable 1 for 2..3 players"), C, 17, 1,
     "'tracks buildable' needs track beds"),
    ("pieces-without-a-table", add(17, "pieces"), S, 17, 7, "the form is: pieces LENGTH:COUNT"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


def test_the_map_has_its_beds_pieces_and_crossings(france):
    """MAP: 122 track beds, 64 pieces (8 colours × 2:3 3:3 4:1 5:1, BOOKLET "64 Track Pieces"),
    16 entries of blockedTrackBedRoutes, each pair both ways: 10 crossings."""
    rule = france.ir.rule("track_building")
    assert len(rule.beds) == 122
    assert rule.pieces == (0, 0, 3, 3, 1, 1) and sum(rule.pieces) * len(france.ir.colours) == 64
    assert len(rule.crossings) == 10
    assert rule.tracks_buildable(2) == rule.tracks_buildable(3) == 1 and rule.tracks_buildable(4) == 3


# --- the rules, on both engines ----------------------------------------------------------------

def test_a_bed_is_closed_until_built(france, engine):
    """BOOKLET: "most of the Routes are in fact Track Beds and cannot be claimed at the
    beginning of the game. They must first be built"; "the one space Routes and the grey
    Routes … are already built and can be claimed immediately"."""
    g = arrange(france, engine=engine, hand={"red": 6, "loco": 2})
    assert claims(g, "Amiens-Calais") == []
    assert claims(g, "Paris-Rouen") == ["claim Paris-Rouen red 1red", "claim Paris-Rouen red 1loco"]
    assert "claim Avignon-Toulouse gray 6red" in claims(g, "Avignon-Toulouse")


def test_drawing_cards_ends_in_a_build(france, engine):
    """MAP: "After drawing Train Car cards, you must build one route: place an available Track
    Piece on a Track Bed of the same length. The Track Piece determines the route color."
    The same player decides, among every free bed and every colour with a piece of its
    length left; then the turn ends (docs/rules.md #70)."""
    g = arrange(france, engine=engine)
    draw_two(g)
    assert g.state()["phase"] == "track_piece" and g.current_player == 0
    offered = builds(g)
    assert offered == names(g)  # the build is the only decision
    assert len(offered) == 122 * len(COLOURS)
    g.apply_name("build Amiens-Calais red")
    s = g.state()
    assert s["phase"] == "turn" and g.current_player == 1
    assert s["bed_colour"][rid(france, "Amiens-Calais")] == COLOURS.index("red")
    assert sum(s["pieces_out"]) == 1


def test_a_face_up_locomotive_is_a_draw_too(france, engine):
    """MAP: "After drawing Train Car cards": a face-up locomotive, the whole draw, is one
    (docs/rules.md #70)."""
    g = arrange(france, engine=engine)
    a = Arranged(france, g).faceup("loco", "red", "blue", "green", "white")
    g = a.game(engine)
    g.apply_name("draw faceup loco")
    assert g.state()["phase"] == "track_piece" and g.current_player == 0


def test_drawing_tickets_or_claiming_builds_nothing(france, engine):
    """MAP: the build follows a draw of train cards only (docs/rules.md #70)."""
    g = arrange(france, engine=engine, hand={"red": 1})
    g.apply_name("claim Paris-Rouen red 1red")
    assert g.state()["phase"] == "turn" and g.current_player == 1
    g.apply_name("draw tickets")
    g.apply_name(names(g)[-1])
    assert g.state()["phase"] == "turn" and g.current_player == 0


def test_a_built_bed_is_claimed_in_its_colour(france, engine):
    """MAP: "The Track Piece determines the route color. Any player may later claim the
    built route": its colour's cards, with locomotives as wild as anywhere (docs/rules.md
    #71)."""
    g = arrange(france, engine=engine, beds=[("Amiens-Calais", "red")], hand={"red": 1, "blue": 2, "loco": 1})
    assert claims(g, "Amiens-Calais") == ["claim Amiens-Calais gray 1red+1loco"]
    g = arrange(france, engine=engine, beds=[("Amiens-Calais", "red")], hand={"blue": 2, "loco": 2})
    assert claims(g, "Amiens-Calais") == ["claim Amiens-Calais gray 2loco"]
    g.apply_name("claim Amiens-Calais gray 2loco")
    assert g.state()["owner"][rid(france, "Amiens-Calais")] == 0


def test_a_claimed_beds_piece_returns(france, engine):
    """MAP: "When a route is claimed, its Track Piece returns to the supply" (Game.php
    applyClaimRoute). The route keeps its colour, and its crossings stay closed (MAP:
    "Building a crossing route permanently cuts off the crossed routes, even after the built
    route is claimed"; docs/rules.md #72)."""
    g = arrange(france, engine=engine, beds=[("Angers-Rennes", "green")], hand={"green": 2})
    assert sum(g.state()["pieces_out"]) == 1
    g.apply_name("claim Angers-Rennes gray 2green")
    s = g.state()
    assert s["pieces_out"] == [0] * len(s["pieces_out"])
    assert s["bed_colour"][rid(france, "Angers-Rennes")] == COLOURS.index("green")
    g.apply_name("draw blind")
    g.apply_name("draw blind")
    assert not [n for n in builds(g) if n.startswith("build Le Mans-Lorient ")]


def test_crossing_beds_close_each_other(france, engine):
    """BOOKLET: "you can never place a Track Piece on top of or under another Track Piece or
    through a claimed Route"; MAP blockedTrackBedRoutes: Le Mans - Lorient crosses Angers -
    Rennes and Nantes - Rennes (docs/rules.md #73)."""
    g = arrange(france, engine=engine)
    draw_two(g)
    assert "build Le Mans-Lorient red" in builds(g)
    g = arrange(france, engine=engine, beds=[("Nantes-Rennes", "blue")])
    draw_two(g)
    offered = builds(g)
    assert not [n for n in offered if n.startswith("build Le Mans-Lorient ")]
    assert "build Angers-Rennes red" in offered  # Angers - Rennes crosses only Le Mans - Lorient


@pytest.mark.parametrize("players,second_open", [(2, False), (3, False), (4, True), (5, True)])
def test_one_track_of_a_double_is_built_at_two_and_three(france, engine, players, second_open):
    """BOOKLET: "In 2 and 3 Player games, only one Track of the Double or Triple Routes can be
    built. In 4 and 5 player games, when a player builds a Track Piece on a Double or Triple
    Route, he only builds one track of the route … The other routes must be built
    separately" (docs/rules.md #74)."""
    g = arrange(france, players=players, engine=engine, beds=[("Dijon-Paris/1", "white")])
    draw_two(g)
    offered = builds(g)
    assert ("build Dijon-Paris/2 red" in offered) == second_open
    assert ("build Dijon-Paris/3 red" in offered) == second_open


def test_pieces_run_out(france, engine):
    """BOOKLET "64 Track Pieces": 8 colours × (2:3 3:3 4:1 5:1). With the one red 5-piece on
    the board, no other 5-space bed can be built red."""
    g = arrange(france, engine=engine, beds=[("Dijon-Paris/1", "red")])
    draw_two(g)
    offered = builds(g)
    assert "build Bourges-Brive-la-Gaillarde black" in offered
    assert "build Bourges-Brive-la-Gaillarde red" not in offered


def test_no_decision_when_no_piece_fits(france, engine):
    """thoun's States/PlaceTrackPiece.php: the build is skipped when no placement is legal
    (here every piece is on the board; docs/rules.md #70)."""
    v = france
    g = start_turns(v, 4, seed=3, engine="reference")
    a = Arranged(v, g)
    colour, out = list(a.state["bed_colour"]), list(a.state["pieces_out"])
    width = len(out) // len(v.colours)
    left = {(c, length): n for c in range(len(v.colours)) for length, n in PIECES.items()}
    rule = v.ir.rule("track_building")
    closed = set()
    for r in sorted(rule.beds, key=lambda r: -v.ir.routes[r].length):  # the few long pieces first
        route = v.ir.routes[r]
        if r in closed:
            continue
        for c in range(len(v.colours)):
            if left[(c, route.length)]:
                left[(c, route.length)] -= 1
                colour[r] = c
                out[c * width + route.length] += 1
                closed.update(rule.crossing(r))
                break
    assert not any(left.values())  # every piece is out: no bed can be built
    g = a.set(bed_colour=colour, pieces_out=out).game(engine)
    draw_two(g)
    assert g.state()["phase"] == "turn" and g.current_player == 1

