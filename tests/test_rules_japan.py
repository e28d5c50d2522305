"""The Japan rules, one test per rule, each naming where it comes from.

No rulebook of the map is in shared/seeds. The sources (spec/japan.rail's header): SUMMARY,
the rule summary in thoun/tickettoride modules/maps/japan/map.php (rulesDifferences,
100940e); REVIEW, justpushstart.com's review of Map Collection 7; GUIDE, dicenboard.com's
Ticket to Ride Japan guide; MAP, thoun/tickettoride modules/maps/japan (map.php, cities.php,
routes.php, destinations.php). Play tests run on both engines; scoring tests on described
positions, checked in both scorers.

The Bullet Train rules are tested beside their mechanic
(mechanics/bullet_trains/tests/test_bullet_trains.py), the doubles beside multi_track; this
file keeps what is the map's own: its data, its set-up, how its rules combine, and how the
scripted agents play them.
"""
from __future__ import annotations

from collections import Counter

import pytest
from conftest import Arranged, names, score_both, start_turns

import railspec
from railspec.playtest import agents
from railspec.playtest.agents.kernel import kernel
from railspec.playtest.agents.tables import policy_of, policy_tables

MARKET = ("pink", "white", "blue", "orange", "black")  # no locomotive: no market reset in the way


@pytest.fixture(scope="module")
def japan() -> railspec.Variant:
    return railspec.load("japan")


def claim_game(v: railspec.Variant, engine: str, players: int = 2, seed: int = 1, **hand: int) -> Arranged:
    """Player 0 to move with ``hand`` and a market without locomotives."""
    g = start_turns(v, players, seed=seed, engine=engine, keep="keep tickets 1,2,3,4")
    return Arranged(v, g).hand(0, **hand).faceup(*MARKET)


def claims(game: railspec.Game, route: str) -> list[str]:
    """The legal claims of ``route`` (its name without a track suffix matches every track)."""
    return [n for n in names(game) if n.startswith(f"claim {route}")]


def seat(routes: tuple[str, ...] | list[str] = (), tickets: tuple[str, ...] | list[str] = (), track: int = 0) -> dict:
    return {"routes": list(routes), "tickets": list(tickets), "bullet_track": track}


# --- the game's parts and its set-up -------------------------------------------------------

def test_the_components(japan) -> None:
    """GUIDE: "20 trains each", "16x white Bullet Train miniatures", "54x Destination Ticket
    cards", the base game's train cards; SUMMARY: "All players start with 20 trains instead
    of 45 trains"; 2 to 5 players. MAP: 48 cities, 114 routes of 277 cars (lengths 1:22 2:43
    3:32 4:13 5:3 6:1), 54 tickets of 1 to 19 points (the census's counts)."""
    v = japan.ir
    assert (v.min_players, v.max_players, v.trains, v.hand, v.market_size) == (2, 5, 20, 4, 5)
    assert [c.count for c in v.colours] == [12] * 8 and v.locomotives == 14
    assert (len(v.cities), len(v.routes), len(v.tickets)) == (48, 114, 54)
    assert sum(r.length for r in v.routes) == 277
    assert sorted(Counter(r.length for r in v.routes).items()) == [(1, 22), (2, 43), (3, 32), (4, 13), (5, 3), (6, 1)]
    assert (min(t.points for t in v.tickets), max(t.points for t in v.tickets), sum(t.points for t in v.tickets)) \
        == (1, 19, 402)
    assert v.rule("bullet_trains").pieces == 16


def test_the_bullet_train_routes(japan) -> None:
    """MAP (routes.php bulletTrainSpaceIndex): 23 gray routes, 59 spaces, carry the icon;
    Ginza - Tokyo, in the Tokyo subway inset, does not in the newest version (docs/rules.md
    #53: the census counted 24 from an older one)."""
    v = japan.ir
    bullet = [v.routes[r] for r in v.rule("bullet_trains").routes]
    assert len(bullet) == 23 and sum(r.length for r in bullet) == 59
    assert all(r.colour < 0 for r in bullet)  # gray
    assert v.route_named("Ginza-Tokyo").id not in v.rule("bullet_trains").routes
    assert [r.name for r in v.routes if r.colour < 0 and r not in bullet] == ["Ginza-Tokyo", "Kokura-Matsuyama"]


def test_four_tickets_dealt_keep_two_and_the_others_go_under_the_deck(japan, engine) -> None:
    """MAP (map.php getInitialDestinationPick: 4; the default least kept, 2;
    unusedInitialDestinationsGoToDeckBottom)."""
    g = japan.new_game(players=3, seed=4, engine=engine)
    s = g.state()
    assert [len(o) for o in s["setup_offer"]] == [4, 4, 4]
    legal = names(g)
    assert "keep tickets 1,2" in legal and "keep tickets 1" not in legal and "keep tickets 1,2,3,4" in legal
    returned = s["setup_offer"][0][2:]
    g.apply_name("keep tickets 1,2")
    assert g.state()["ticket_deck"][-2:] == returned


def test_the_route_table_no_longest_path_and_no_globetrotter(japan) -> None:
    """MAP (map.php): route points 1:1 … 6:15; "There is no longest path bonus and no
    Globetrotter bonus" (SUMMARY)."""
    v = japan.ir
    assert [v.route_points[n] for n in range(1, 7)] == [1, 2, 4, 7, 10, 15]
    rows = score_both(japan, {"variant": "japan", "players": [seat(["Kyoto-Tottori"]), seat()]})
    assert set(rows[0]) == {"routes", "tickets", "tickets_completed", "bullet_track", "bullet_bonus", "total",
                            "winner"}
    assert rows[0]["routes"] == 7


def test_ties_go_to_the_most_tickets(japan) -> None:
    """The base game's first key, the map having no longest-path card; players still tied
    share the win (docs/rules.md #54). Player 0: Ikebukuro - Shinjuku and its ticket (4 + 4);
    player 1: two 3-space routes (8); neither placed a Bullet Train (-20 each)."""
    assert japan.ir.tiebreaks == ("most_tickets",)
    rows = score_both(japan, {"variant": "japan", "players": [
        seat(["Ikebukuro-Shinjuku/1"], ["Shinjuku-Ikebukuro"]),
        seat(["Ikebukuro-Ueno/1", "Kumamoto-Miyazaki"])]})
    assert rows[0]["total"] == rows[1]["total"] == -12
    assert [r["winner"] for r in rows] == [True, False]


# --- doubles and the one pair that is no double -----------------------------------------------

def test_doubles_only_with_four_or_five_players(japan, engine) -> None:
    """MAP (the adaptation's default minimumPlayerForDoubleRoutes, 4; the base game's rule):
    with 2 or 3 players one track of a double is claimed at most; with 4, both."""
    for players, open_after in ((2, False), (3, False), (4, True)):
        a = claim_game(japan, engine, players=players, red=1)
        a.own(1, "Hiroshima-Masuda/2")
        assert bool(claims(a.game(engine), "Hiroshima-Masuda/1")) == open_after, players


def test_aomori_hakodate_is_no_double(japan, engine) -> None:
    """SUMMARY: "The Aomori-Hakodate routes are of different length and are not considered a
    double route" (MAP: differentLengthRoutesAreDoubleRoutes = false): with 2 players the
    2-space bullet route stays open beside the 3-space white one, to its owner too."""
    a = claim_game(japan, engine, red=2)
    a.own(0, "Aomori-Hakodate/1")
    g = a.game(engine)
    assert claims(g, "Aomori-Hakodate/2") == ["claim Aomori-Hakodate/2 gray 2red"]
    g.apply_name("claim Aomori-Hakodate/2 gray 2red")
    assert g.state()["owner"][japan.ir.route_named("Aomori-Hakodate/2").id] == 2  # taken for nobody


# --- the agents -------------------------------------------------------------------------------

BULLET_STYLES = ("one-step", "long-route", "route-focus", "destination-hungry")


class RefusesBulletRoutes:
    """A scripted style that never claims a bullet route while pieces are left: it decides
    among the legal actions without those claims."""

    def __init__(self, v: railspec.Variant, style: str, seed: int) -> None:
        self.inner = agents.make(style, seed=seed)
        bullet = v.ir.rule("bullet_trains").routes
        self.refused = {a.id for a in v.ir.actions if a.kind == "claim" and a.route in bullet}

    def act(self, game: railspec.Game) -> int:
        legal = game.legal_actions()
        kept = [a for a in legal if a not in self.refused] if game.state()["bullet_pieces"] > 0 else legal
        if kept and len(kept) < len(legal):
            return policy_of(game.variant.ir).decide(self.inner.seat, game.agent_view(), kept)
        return self.inner.act(game)


@pytest.mark.parametrize("style", BULLET_STYLES)
def test_the_styles_take_bullet_routes_and_win_by_it(japan, style) -> None:
    """SUMMARY's bonus (the ranking, -20 without a piece) and its shared routes, as the agents
    play them: every style places Bullet Trains in every game, and beats the same style
    refusing bullet routes in most of 40 two-player games, seats alternating."""
    won, placed = 0.0, 0
    for i in range(40):
        plain, refusing = agents.make(style, seed=i), RefusesBulletRoutes(japan, style, seed=500 + i)
        me = i % 2
        seats = [plain, refusing] if me == 0 else [refusing, plain]
        g = agents.play(japan, seats, seed=i)
        winners = g.winners()
        won += 1 / len(winners) if me in winners else 0
        placed += g.score_breakdown()[me]["bullet_track"] > 0
    assert placed == 40 and won >= 30, (placed, won)


def test_the_agents_plan_through_routes_taken_for_nobody(japan) -> None:
    """SUMMARY: a bullet route someone else took joins the player's tickets. Player 1 holds
    only Sendai - Aomori, which the bullet routes Aomori - Morioka and Morioka - Sendai join:
    the one-step style sees it completed and draws tickets (it does so once every ticket is
    complete or lost and 12 trains or more remain), where a planner blind to routes taken
    for nobody (AgentPlay.nobody_routes_join off) works towards the ticket instead."""
    g = start_turns(japan, 2, keep="keep tickets 1,2,3,4")
    a = Arranged(japan, g)
    s = a.state
    ticket = next(t.id for t in japan.ir.tickets if t.name == "Sendai-Aomori")
    for p in range(2):
        s["ticket_deck"].extend(s["tickets"][p])
        s["tickets"][p] = []
    s["ticket_deck"].remove(ticket)
    s["tickets"] = [[s["ticket_deck"].pop(0)], [ticket]]
    for name in ("Aomori-Morioka", "Morioka-Sendai"):
        s["owner"][japan.ir.route_named(name).id] = 2
        s["bullet_pieces"] -= 1
        s["bullet_track"][0] += 4
    s["current"] = 1
    for engine in ("reference", "compiled"):
        game = japan.game_from_state(s, engine=engine)
        assert ticket in game.completed_tickets(1)
        view, legal = game.agent_view(), game.legal_actions()
        seeing = kernel().Policy(policy_tables(japan.ir))
        blind = kernel().Policy(dict(policy_tables(japan.ir), nobody_join=0))
        seat_a = kernel().Seat(kernel().STYLES["one-step"], 7)
        seat_b = kernel().Seat(kernel().STYLES["one-step"], 7)
        assert game.action_name(seeing.decide(seat_a, view, legal)) == "draw tickets"
        assert game.action_name(blind.decide(seat_b, view, legal)) != "draw tickets"


def last_turn_without_contribution(japan: railspec.Variant, engine: str) -> railspec.Game:
    """Player 0's last turn of a 2-player game (the last round started: 2 pieces left,
    player 1 at 2 trains), player 0's marker never moved (-20) and player 1's far along;
    player 0 holds 4 red cards, enough for the bullet routes Aomori - Morioka and Kyoto -
    Osaka (still taken for nobody) or a route of their own."""
    g = start_turns(japan, 2, keep="keep tickets 1,2,3,4")
    a = Arranged(japan, g)
    s = a.state
    rule = japan.ir.rule("bullet_trains")
    kept = {japan.ir.route_named(n).id for n in ("Kyoto-Osaka", "Aomori-Morioka")}
    taken = [japan.ir.routes[r] for r in rule.routes if r not in kept][:14]
    for r in taken:
        s["owner"][r.id] = 2
    s["bullet_pieces"] = rule.pieces - len(taken)
    s["bullet_track"] = [0, sum(r.length for r in taken)]
    for p in range(2):
        s["ticket_deck"].extend(s["tickets"][p])
        s["tickets"][p] = []
    plain = [r for r in japan.ir.routes if r.id not in rule.routes and r.length == 3 and "/" not in r.name]
    a.own(1, *[r.name for r in plain[:6]])          # 18 trains: 2 left
    a.own(0, *[r.name for r in plain[6:9]]).hand(0, red=4).faceup(*MARKET)
    s["final_turns"], s["current"] = 1, 0
    return japan.game_from_state(s, engine=engine)


def test_ismcts_places_a_bullet_train_where_its_bonus_pays(japan) -> None:
    """SUMMARY's "-20 without contribution" as the search plays it: on its last turn, a player
    whose marker never moved claims a bullet route (its marker moves, the -20 becomes the
    second place's -10), which beats every route of its own (at most 7 points for 4 cards)
    and every draw. The search judges its choices by the engine's scores, which hold the
    bonus; both engines choose alike."""
    choices = {}
    for engine in ("compiled", "reference"):
        game = last_turn_without_contribution(japan, engine)
        assert game.scores()[0] == game.state()["route_score"][0] - 20
        bot = agents.make("ismcts", seed=3, iterations=12)
        choices[engine] = bot.act(game.clone())
        after = game.clone()
        after.apply(choices[engine])
        assert after.is_over and after.state()["bullet_track"][0] > 0
        finals = {}
        for action in game.legal_actions():
            trial = game.clone()
            trial.apply(action)
            if trial.is_over:  # a draw of one card leaves the second to draw
                finals[action] = trial.scores()[0]
        assert after.scores()[0] == max(finals.values()) == game.scores()[0] + 10
    assert choices["compiled"] == choices["reference"]
    assert japan.ir.actions[choices["compiled"]].route in japan.ir.rule("bullet_trains").routes
