"""The Legendary Asia rules, one test per rule, each naming where it comes from.

No rulebook of the map is in shared/seeds. The sources (spec/legendary_asia.rail's header):
SUMMARY, the rule summary in thoun/tickettoride modules/maps/legendaryasia/map.php
(rulesDifferences, 100940e); PROFILE, offthechartsgames.com "Game Profile: Ticket To Ride
Asia"; ANNOUNCEMENT, boardgamewikia.com's news of the map collections; MAP, the adaptation's
map data (routes.php, destinations.php, map.php). Where SUMMARY and the adaptation's scoring
disagree (the Asian Explorer's ties), the rule text wins (docs/rules.md). Play tests run on
both engines; scoring tests on described positions, checked in both scorers.

The map's mechanics have their rules tested beside them (mechanics/NAME/tests/: mountains,
explorer, multi_track, removed_tickets); this file keeps what is the map's own: its data,
its set-up, how its rules combine.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Arranged, names, start_turns

import railspec
from railspec.compiler import check_file

MARKET = ("pink", "white", "blue", "orange", "red")  # no locomotive: no market reset in the way


@pytest.fixture(scope="module")
def asia():
    return railspec.load("legendary_asia")


def rid(asia, name: str) -> int:
    return asia.ir.route_named(name).id


def crosses(asia, name: str) -> int:
    return asia.ir.rule("mountains").of(rid(asia, name))


def claim_game(asia, engine, players=2, seed=1, **hand):
    """Player 0 to move with ``hand`` and a market without locomotives."""
    g = start_turns(asia, players, seed=seed, engine=engine)
    return Arranged(asia, g).hand(0, **hand).faceup(*MARKET)


# --- mountains (SUMMARY: "Mountain routes require discarding 1 Train Car for each X. Each
# discarded Train Car scores 2 points, and you must have enough Train Cars to place and
# discard"; ANNOUNCEMENT: "earning two points for each such train but losing access to them") ---

def test_the_maps_mountains(asia):
    """MAP (routes.php, mountain:): 30 mountain routes, 22 with one X and 8 with two."""
    rule = asia.ir.rule("mountains")
    assert len(rule.crossings) == 30 and sum(n for _, n in rule.crossings) == 38
    assert (crosses(asia, "Agra-Kathmandu"), crosses(asia, "Irkutsk-Ulan Bator")) == (1, 2)
    # a double with one track in the hills
    assert crosses(asia, "Moscow-Perm/1") == 0 and crosses(asia, "Moscow-Perm/2") == 1


# --- the Asian Explorer (SUMMARY: "The 10-point Asian Explorer bonus goes to the player or
# players with the largest continuous network of connected cities. Ties are broken by
# completed Destination Tickets, then by Mountain routes traveled"; PROFILE: "a 10 point bonus
# to the player who connects to the most cities") ---


def test_the_explorer_is_the_only_bonus(asia):
    """MAP (map.php: pointsForLongestPath and pointsForGlobetrotter are null): no longest
    path, no Globetrotter; the game's own ties go to the most completed tickets (docs/rules.md
    #35)."""
    keys = set(asia.new_game(players=2, seed=1).score_breakdown()[0])
    assert {"explorer", "mountain_points"} <= keys and not {"longest_bonus", "globetrotter"} & keys
    assert asia.ir.tiebreaks == ("most_tickets",)


# --- the Bombay - Colombo triple (MAP: routes 66-68, 4 red, 4 black, 5 green, each a ferry) ---

def test_the_triple_has_tracks_of_unequal_length(asia):
    """MAP: the three tracks of Bombay - Colombo have 4, 4 and 5 spaces, one locomotive each
    (SUMMARY: "Ferries require a Locomotive card for each Locomotive symbol")."""
    tracks = [asia.ir.route_named(f"Bombay-Colombo/{k}") for k in (1, 2, 3)]
    assert [(r.colour_name, r.length, r.tracks) for r in tracks] == [("red", 4, 3), ("black", 4, 3),
                                                                    ("green", 5, 3)]
    assert len({r.group for r in tracks}) == 1
    assert all(asia.ir.rule("ferries").needs(r.id) == 1 for r in tracks)


def test_the_long_track_of_the_triple_costs_and_scores_its_own_length(asia, engine):
    """MAP: the green track takes 5 trains and scores 10 (the table's 5), paid with 4 green
    and the ferry's locomotive."""
    g = claim_game(asia, engine, players=4, green=4, loco=1).game(engine)
    g.apply_name("claim Bombay-Colombo/3 green 4green+1loco")
    s = g.state()
    assert s["trains"][0] == 40 and s["route_score"][0] == 10


# --- tickets (SUMMARY: "each player receives 1 Long Route ticket and 3 regular tickets, and
# must keep at least 2 tickets. All unchosen initial tickets are discarded") ---

def test_one_long_and_three_regular_tickets_keep_two(asia, engine):
    """SUMMARY; MAP (destinations.php): 6 long tickets (16-18 points) and 30 regular ones;
    each player is offered three regular and one long (the last slot), keeps at least two."""
    g = asia.new_game(players=5, seed=3, engine=engine)
    s = g.state()
    long_ = [t.deck == "long" for t in asia.tickets]
    for offer in s["setup_offer"]:
        assert len(offer) == 4 and [long_[t] for t in offer] == [False, False, False, True]
    assert len(s["long_deck"]) == 1 and len(s["ticket_deck"]) == 30 - 15
    legal = names(g)
    assert len(legal) == 11 and all(n.count(",") >= 1 for n in legal)
    assert sorted(t.points for t in asia.tickets if t.deck == "long") == [16, 16, 17, 17, 18, 18]


def test_later_draws_keep_one_of_three_the_rest_under_the_deck(asia, engine):
    """MAP (map.php keeps the family's defaults): draw 3, keep at least 1, the others go
    under the deck."""
    g = start_turns(asia, 2, engine=engine)
    deck = g.state()["ticket_deck"]
    g.apply_name("draw tickets")
    assert g.state()["offer"] == deck[:3] and len(names(g)) == 7
    g.apply_name("keep tickets 2")
    s = g.state()
    assert s["tickets"][0][-1] == deck[1] and s["ticket_deck"] == deck[3:] + [deck[0], deck[2]]


# --- the language: what the map asked of it ---------------------------------------------------

def test_a_tie_break_key_may_use_a_mechanics_keyword(tmp_path):
    """'most mountain routes' holds 'mountain', the route attribute's keyword: it is still a
    key, in 'tiebreak' as in 'explorer ties'."""
    path = tmp_path / "asia.rail"
    path.write_text('extends "legendary_asia"\nvariant "Asia, mountains break the game\'s ties"\n'
                    "tiebreak most tickets, most mountain routes\n", encoding="utf-8")
    assert check_file(path).tiebreaks == ("most_tickets", "most_mountain_routes")


def test_tracks_of_one_route_may_differ_in_length(tmp_path):
    """The tracks of one route are counted, never compared: a double of 2 and 3 spaces checks
    (tests/base.rail's Alpha - Beta), each track its own length."""
    text = (Path(__file__).parent / "base.rail").read_text(encoding="utf-8")
    path = tmp_path / "unequal.rail"
    path.write_text(text.replace("route Alpha - Beta 2 blue", "route Alpha - Beta 3 blue"), encoding="utf-8")
    v = check_file(path)
    assert [(r.name, r.length, r.tracks) for r in v.routes[:2]] == [("Alpha-Beta/1", 2, 2), ("Alpha-Beta/2", 3, 2)]
