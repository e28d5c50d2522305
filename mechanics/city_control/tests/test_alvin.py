"""The Alvin option of city markers (``alvin CITY capture N end M``): its statement's errors,
and its rules on Old West with Alvin (examples/alvin/old_west_alvin.rail) on both engines.

Sources (examples/alvin/old_west_alvin.rail's header): TEXT, the booklet's variant as the
product page and its copies quote it ("No player can start the game in Roswell, and the
first player who builds a route into Roswell scores 10 points, then places the Alvin marker
in any city that they control. The next player to connect to this city scores 10 points,
then moves Alvin as before. Whoever controls Alvin at the end of the game scores 10 bonus
points"); MAP, thoun/tickettoride modules/maps/oldwest/map.php (onClaimRoute,
getStateAfterRouteClaim, getEndGameBonuses); MOVE, its States/MoveAlvin.php.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Arranged, add, assert_located_error, bad_spec_params, names, start_turns

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError
from railspec.compiler.mechanic import Invariants, part
from railspec.playtest import agents

S, C = SpecSyntaxError, SpecCheckError
SPEC = Path(__file__).resolve().parents[3] / "examples" / "alvin" / "old_west_alvin.rail"


@pytest.fixture(scope="module")
def alvin_west():
    return railspec.load(SPEC)


def city(v, name: str) -> int:
    return next(c.id for c in v.ir.cities if c.name == name)


def started(v, engine: str, starts: tuple[str, ...] = ("Seattle", "Denver", "Santa Fe")):
    """Three players' set-up tickets kept, then the start cities ``starts`` chosen from the
    last seat down: player 0 starts in Santa Fe, 1 in Denver, 2 in Seattle."""
    g = start_turns(v, 3, engine=engine)
    for name in starts:
        g.apply_name(f"start city {name}")
    return g


def arranged(v, engine: str, **hand) -> Arranged:
    """A started game, player 0 (in Santa Fe, next to Roswell) to play holding ``hand``."""
    return Arranged(v, started(v, "reference")).hand(0, **hand)


def claim(game, route: str) -> None:
    """Claim ``route`` with its first legal payment."""
    game.apply_name(next(n for n in names(game) if n.startswith(f"claim {route} ")))


def alvin_columns(game) -> list[int]:
    return [row["alvin"] for row in game.score_breakdown()]


def test_the_variant_is_old_west_and_one_statement(alvin_west):
    """The spec extends the stock Old West: same map, Alvin in Roswell, 10 and 10."""
    plain = railspec.load("old_west").ir
    v = alvin_west.ir
    assert (len(v.cities), len(v.routes), len(v.tickets)) == (len(plain.cities), len(plain.routes),
                                                              len(plain.tickets))
    rule = next(r for r in v.rules if r.mechanic == "city_control")
    assert (rule.alvin_city, rule.alvin_capture, rule.alvin_end) == (city(alvin_west, "Roswell"), 10, 10)
    assert "alvin" in alvin_west.assembly.phases and "alvin" not in railspec.load("old_west").assembly.phases


def test_no_player_starts_in_alvins_city(alvin_west, engine):
    """TEXT: "No player can start the game in Roswell" (docs/rules.md #84): 40 start cities
    of 41; a marker after a claim may go there (the adaptation's wider bar is not followed)."""
    g = start_turns(alvin_west, 3, engine=engine)
    assert len(names(g)) == 40 and "start city Roswell" not in names(g)
    assert g.state()["alvin_city"] == city(alvin_west, "Roswell") and g.state()["alvin_holder"] == -1
    g = arranged(alvin_west, engine, yellow=3, red=2).game(engine)
    claim(g, "Roswell-Santa Fe")
    assert names(g) == ["city marker Roswell", "no city marker"]


def test_a_capture_scores_and_alvin_goes_to_the_one_marked_city(alvin_west, engine):
    """TEXT: "the first player who builds a route into Roswell scores 10 points, then places
    the Alvin marker in any city that they control"; MOVE: with one city, at once (docs/rules.md #85).
    Player 0 has no pair left for a marker: Alvin goes to Santa Fe, the turn passes; at the
    end the holder scores 10 more (docs/rules.md #86)."""
    g = arranged(alvin_west, engine, yellow=3, blue=1).game(engine)
    assert alvin_columns(g) == [0, 0, 0]  # nobody holds him: nobody scores for him
    claim(g, "Roswell-Santa Fe")
    s = g.state()
    assert (s["phase"], s["current"]) == ("turn", 1)
    assert (s["alvin_holder"], s["alvin_city"], s["alvin_won"]) == (0, city(alvin_west, "Santa Fe"), [10, 0, 0])
    assert alvin_columns(g) == [20, 0, 0]


def test_alvin_moves_after_the_marker_and_may_go_to_it(alvin_west, engine):
    """MAP getStateAfterRouteClaim: the City Marker's state comes first, then MoveAlvin;
    MOVE: the cities holding the capturer's markers (#85). Player 0 marks Roswell, then
    chooses between Roswell and Santa Fe."""
    g = arranged(alvin_west, engine, yellow=3, red=2).game(engine)
    claim(g, "Roswell-Santa Fe")
    assert g.state()["alvin_pending"] == 1 and g.state()["phase"] == "city_marker"
    g.apply_name("city marker Roswell")
    g.apply_name("city marker pay 2red")
    assert g.state()["phase"] == "alvin" and names(g) == ["alvin Roswell", "alvin Santa Fe"]
    g.apply_name("alvin Roswell")
    s = g.state()
    assert (s["phase"], s["current"], s["alvin_pending"]) == ("turn", 1, 0)
    assert (s["alvin_holder"], s["alvin_city"]) == (0, city(alvin_west, "Roswell"))


def test_a_declined_marker_leaves_one_city_to_move_to(alvin_west, engine):
    """With a pair in hand the marker is offered first; declined, Santa Fe is the one city
    player 0 marks, and Alvin goes there without a decision (#85)."""
    g = arranged(alvin_west, engine, yellow=3, red=2).game(engine)
    claim(g, "Roswell-Santa Fe")
    g.apply_name("no city marker")
    s = g.state()
    assert (s["phase"], s["current"], s["alvin_city"]) == ("turn", 1, city(alvin_west, "Santa Fe"))


def holding(v, engine: str, holder: int, player: int, **hand):
    """Alvin in Santa Fe (player 0's start city), held by ``holder`` with one capture,
    ``player`` to play holding ``hand``; player 1 starts in Albuquerque instead."""
    starts = [city(v, "Santa Fe"), city(v, "Albuquerque"), city(v, "Seattle")]
    owner = [-1] * len(v.ir.cities)
    for p, c in enumerate(starts):
        owner[c] = p
    won = [10 if p == holder else 0 for p in range(3)]
    arranged_state = (Arranged(v, started(v, "reference")).hand(player, **hand)
                      .set(marker_owner=owner, start_city=starts, current=player,
                           alvin_city=starts[0], alvin_holder=holder, alvin_won=won))
    return arranged_state.game(engine)


def test_the_next_player_into_his_city_captures_him(alvin_west, engine):
    """TEXT: "The next player to connect to this city scores 10 points, then moves Alvin as
    before"; MAP onClaimRoute: any claimer but his holder (docs/rules.md #85). Player 1 builds from
    Albuquerque into player 0's Santa Fe, where Alvin stands: 10 for player 1, who moves him
    to Albuquerque, their one marked city; player 0 keeps their 10 of the first capture."""
    g = holding(alvin_west, engine, holder=0, player=1, green=1)
    claim(g, "Albuquerque-Santa Fe/1")
    s = g.state()
    assert (s["alvin_holder"], s["alvin_city"], s["alvin_won"]) == (1, city(alvin_west, "Albuquerque"), [10, 10, 0])
    assert alvin_columns(g) == [10, 20, 0]


def test_his_holder_captures_nothing(alvin_west, engine):
    """MAP onClaimRoute returns when "$alvin['playerId'] === $playerId": player 0, holding
    him in Santa Fe, builds into Santa Fe again and scores nothing more (#85)."""
    g = holding(alvin_west, engine, holder=0, player=0, green=1)
    claim(g, "Albuquerque-Santa Fe/1")
    s = g.state()
    assert (s["alvin_holder"], s["alvin_won"], s["phase"], s["current"]) == (0, [10, 0, 0], "turn", 1)


def test_the_invariants_catch_a_start_in_alvins_city_and_a_stray_alvin(alvin_west):
    """The checks of the state (Invariants): no start city in Alvin's first city; Alvin,
    once moved, in a city his holder marked."""
    g = holding(alvin_west, "reference", holder=0, player=0)
    mechanic = next(m for m, _ in alvin_west.assembly.present if m.name == "city_control")
    rule = next(r for r in alvin_west.ir.rules if r.mechanic == "city_control")
    check = part(mechanic, Invariants).state_problems
    assert check(alvin_west.ir, rule, g.state()) == []
    stray = dict(g.state(), alvin_city=city(alvin_west, "Seattle"))
    assert any("'alvin_city'" in p for p in check(alvin_west.ir, rule, stray))
    starts = list(g.state()["start_city"])
    starts[2] = city(alvin_west, "Roswell")
    assert any("Alvin's city" in p for p in check(alvin_west.ir, rule, dict(g.state(), start_city=starts)))


# --- the statement ---------------------------------------------------------------------------

MARKERS = "city markers 1 cost 2"
BAD_SPECS = [
    ("alvin-without-markers", add(18, "alvin Alpha capture 10 end 10"), C, 18, 1, "'alvin' needs 'city markers"),
    ("alvin-without-end", add(18, MARKERS).replace(MARKERS, MARKERS + "\nalvin Alpha capture 10"), S, 19, 23,
     "the form is: alvin CITY capture N end M"),
    ("alvin-unknown-city", add(18, MARKERS + "\nalvin Omega capture 10 end 10"), C, 19, 7, "unknown city 'Omega'"),
    ("alvin-capture-too-many", add(18, MARKERS + "\nalvin Alpha capture 101 end 10"), C, 19, 21,
     "points of capturing Alvin"),
    ("alvin-no-start-left",
     add(18, MARKERS + "\nalvin Alpha capture 10 end 10").replace("players 2..4", "players 2..5")
     .replace("deal tickets 2", "deal tickets 1"), C, 19, 1,
     "5 players need 5 other places, but the map has 4"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_alvin_statements_are_located(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- the agents ------------------------------------------------------------------------------

def test_the_styles_capture_and_move_alvin(alvin_west):
    """The ``by_routes`` rule for Alvin's move (docs/agents.md): over scripted games Alvin
    is captured and moved to a city of his holder's, and the capture points reach the
    breakdown."""
    captured = 0
    for seed in range(6):
        bots = [agents.make(style, seed=seed * 3 + n)
                for n, style in enumerate(["greedy", "route-focus", "one-step"])]
        g = alvin_west.new_game(players=3, seed=seed, engine="compiled")
        while not g.is_over:
            g.apply(bots[g.current_player].act(g))
        s = g.state()
        if s["alvin_holder"] >= 0:
            captured += 1
            assert s["marker_owner"][s["alvin_city"]] == s["alvin_holder"]
            assert g.score_breakdown()[s["alvin_holder"]]["alvin"] >= 20
    assert captured >= 1


def test_ismcts_plays_alvin(alvin_west):
    """ISMCTS (its portfolio is the styles) plays a whole game with Alvin against one-step."""
    bots = [agents.make("ismcts", seed=3, iterations=8), agents.make("one-step", seed=4)]
    g = alvin_west.new_game(players=2, seed=3, engine="compiled")
    while not g.is_over:
        g.apply(bots[g.current_player].act(g))
    assert g.state()["start_city"][0] != city(alvin_west, "Roswell")
