"""Tunnels (mechanics/tunnels): its statements, and its rule on the Europe map on both engines.

The rule's tests name the section of the Europe rulebook they come from
(shared/seeds/000_bb662d8662a85a07.txt, the Italian edition: Gallerie = tunnels); the
statements' tests, the section they write; the bad specs edit tests/base.rail as
tests/test_bad_specs.py does.
"""
from __future__ import annotations

import pytest
from conftest import DEFAULTS, Arranged, add, assert_located_error, bad_spec_params, checked, mini, names, start_turns

import railspec
from railspec.compiler.base.errors import IllegalActionError, SpecCheckError, SpecSyntaxError
from railspec.runtime.state_format import validate

S, C = SpecSyntaxError, SpecCheckError
MARKET = ("pink", "white", "blue", "yellow", "orange")  # no locomotive: no market reset in the way


@pytest.fixture(scope="module")
def europe():
    return railspec.load("europe")


def rid(europe, name: str) -> int:
    return europe.ir.route_named(name).id


def card(europe, name: str) -> int:
    return len(europe.colours) if name == "loco" else next(c.id for c in europe.colours if c.name == name)


def counts(europe, **cards) -> list[int]:
    out = [0] * (len(europe.colours) + 1)
    for name, n in cards.items():
        out[card(europe, name)] += n
    return out


def minus(a: list[int], b: list[int]) -> list[int]:
    return [x - y for x, y in zip(a, b)]


def only_cards(a: Arranged, deck=(), discard=(), holder: int = 1) -> Arranged:
    """Empty the deck and the discards into ``holder``'s hand, then put back exactly these
    cards: ``deck`` bottom to top (the last named is the top card), ``discard`` by name."""
    s = a.state
    hand = s["hands"][holder]
    for c in s["deck"]:
        hand[c] += 1
    s["deck"] = []
    for c, n in enumerate(s["discard"]):
        hand[c] += n
        s["discard"][c] = 0
    for name in deck:
        c = a.card(name)
        hand[c] -= 1
        s["deck"].append(c)
    for name in discard:
        c = a.card(name)
        hand[c] -= 1
        s["discard"][c] += 1
    return a


# --- the statements: 'tunnel' on a route, 'tunnels reveal N' ---------------------------------

def test_tunnel_europe_gallerie():
    """Europe, 'Gallerie': Madrid - Pamplona, two tunnels (black and white)."""
    text = mini("route Madrid - Pamplona 3 black tunnel\nroute Madrid - Pamplona 3 white tunnel\n"
                "route Madrid - Alpha 2 gray",
                cards="card black 12\ncard white 12", cities=DEFAULTS["cities"] + "\ncity Madrid\ncity Pamplona")
    v = checked(text)
    assert all(r.id in v.rule("tunnels").routes for r in v.routes if "Pamplona" in r.name)
    assert "tunnels" in v.mechanics
    assert "tunnel decline" in [a.name for a in v.actions]


TUNNEL = "route Alpha - Gamma 3 gray tunnel\n"


def test_tunnels_reveal_europe_gallerie():
    """Europe, 'Gallerie': the top three cards of the deck are revealed; 3 when unsaid."""
    assert checked(mini(TUNNEL)).rule("tunnels").reveal == 3
    assert checked(mini(TUNNEL + "tunnels reveal 2")).rule("tunnels").reveal == 2


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("tunnels-reveal-no-number", add(18, "tunnels reveal"), S, 18, 15,
     "unexpected end of line, expected a number; the form is: tunnels reveal N"),
    ("tunnels-reveal-word", add(18, "tunnels reveal three"), S, 18, 16, "unexpected 'three', expected a number"),
    ("tunnels-misspelt", add(18, "tunnnels reveal 3"), S, 18, 1,
     "unknown statement 'tunnnels' (did you mean 'tunnels'?)"),
    ("tunnels-reveal-without-tunnels", add(18, "tunnels reveal 3"), C, 18, 1,
     "'tunnels reveal' needs a tunnel: add 'tunnel' to a route"),
    ("tunnels-reveal-too-many", add(26, "route Alpha - Gamma 3 gray tunnel; tunnels reveal 9"), C, 26, 51,
     "a tunnel reveals at most 6 cards, got 9"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# --- GALLERIE (Europe) ---------------------------------------------------------------------

def tunnel_game(europe, engine, hand: dict, reveal: tuple, seed: int = 1):
    """Player 0 to move with ``hand``, a market without locomotives, and the deck's top
    cards such that a tunnel reveals ``reveal`` in that order (the first is the top card)."""
    g = start_turns(europe, 2, seed=seed, engine=engine)
    return Arranged(europe, g).hand(0, **hand).faceup(*MARKET).deck_top(*reversed(reveal)).game(engine)


GRAY_TUNNEL = "Angora-Constantinople"   # 2 spaces, gray, tunnel
GREEN_TUNNEL = "Venezia-Zürich"          # 2 spaces, green, tunnel
PINK_TUNNEL = "Marseille-Zürich"         # 2 spaces, pink, tunnel


def test_the_maps_tunnels(europe):
    """GALLERIE: the routes used below are tunnels of the stated colour and length (the
    spec's header: 18 tunnels on the map)."""
    gray, green, pink = (europe.ir.route_named(n) for n in (GRAY_TUNNEL, GREEN_TUNNEL, PINK_TUNNEL))
    assert all(r.id in europe.ir.rule("tunnels").routes and r.length == 2 for r in (gray, green, pink))
    assert gray.colour < 0 and green.colour == card(europe, "green") and pink.colour == card(europe, "pink")
    assert len(europe.ir.rule("tunnels").routes) == 18
    assert europe.ir.rule("tunnels").reveal == 3


@pytest.mark.parametrize("hand,legal", [
    ({"red": 3, "loco": 1}, ["tunnel pay 1colour", "tunnel pay 1loco", "tunnel decline"]),
    ({"red": 3}, ["tunnel pay 1colour", "tunnel decline"]),
    ({"red": 2, "loco": 1}, ["tunnel pay 1loco", "tunnel decline"]),
    ({"red": 2, "green": 3}, ["tunnel decline"]),  # another colour does not pay
])
def test_gallerie_example_1_two_red_one_red_revealed(europe, engine, hand, legal):
    """GALLERIE, Esempio 1: 2 red cards played, 1 red revealed: 1 more red card (or a
    locomotive) is due; a player who cannot pay may only take the cards back (docs/rules.md #20:
    still a decision, with 'tunnel decline' the only legal action)."""
    g = tunnel_game(europe, engine, hand, ("yellow", "red", "blue"))
    g.apply_name(f"claim {GRAY_TUNNEL} gray 2red")
    s = g.state()
    assert s["phase"] == "tunnel" and g.current_player == 0 and s["tunnel_route"] == rid(europe, GRAY_TUNNEL)
    assert s["tunnel_committed"] == counts(europe, red=2)
    assert s["tunnel_revealed"] == [card(europe, c) for c in ("yellow", "red", "blue")]
    assert s["owner"][rid(europe, GRAY_TUNNEL)] == -1
    assert names(g) == legal
    with pytest.raises(IllegalActionError):
        g.apply_name("draw blind")  # the tunnel decision comes first


def test_gallerie_example_2_two_green_one_locomotive_revealed(europe, engine):
    """GALLERIE, Esempio 2: 2 green cards played, 1 locomotive revealed: 1 more green card
    (or a locomotive) is due; revealed cards of other colours cost nothing."""
    g = tunnel_game(europe, engine, {"green": 3, "loco": 1}, ("loco", "red", "blue"))
    g.apply_name(f"claim {GREEN_TUNNEL} green 2green")
    assert g.state()["tunnel_committed"] == counts(europe, green=2)
    assert names(g) == ["tunnel pay 1colour", "tunnel pay 1loco", "tunnel decline"]
    g.apply_name("tunnel pay 1colour")
    s = g.state()
    assert s["owner"][rid(europe, GREEN_TUNNEL)] == 0 and s["hands"][0] == counts(europe, loco=1)


def test_gallerie_a_green_and_a_locomotive_revealed_cost_two(europe, engine):
    """GALLERIE: each revealed card of the colour played and each revealed locomotive costs
    one more card: green + locomotive revealed, 2 due."""
    g = tunnel_game(europe, engine, {"green": 3, "loco": 2}, ("green", "loco", "white"))
    g.apply_name(f"claim {GREEN_TUNNEL} green 2green")
    assert names(g) == ["tunnel pay 1colour+1loco", "tunnel pay 2loco", "tunnel decline"]


@pytest.mark.parametrize("hand", [{"loco": 3, "pink": 2, "red": 2}, {"loco": 3}])
def test_gallerie_example_3_two_locomotives_one_locomotive_revealed(europe, engine, hand):
    """GALLERIE, Esempio 3: 2 locomotives played, 1 locomotive revealed: 1 more locomotive
    is due, and only a locomotive pays it (the route's colour, pink, revealed too, costs
    nothing: only locomotives match locomotives)."""
    g = tunnel_game(europe, engine, hand, ("loco", "pink", "red"))
    g.apply_name(f"claim {PINK_TUNNEL} pink 2loco")
    assert g.state()["tunnel_committed"] == counts(europe, loco=2)
    assert names(g) == ["tunnel pay 1loco", "tunnel decline"]
    g.apply_name("tunnel pay 1loco")
    s = g.state()
    assert s["owner"][rid(europe, PINK_TUNNEL)] == 0 and s["hands"][0][card(europe, "loco")] == 0


def test_gallerie_only_locomotives_played_and_no_locomotive_revealed(europe, engine):
    """GALLERIE: a player crossing with locomotives only pays extra cards only when
    locomotives are revealed: pink (the route's colour) and red revealed, nothing due."""
    g = tunnel_game(europe, engine, {"loco": 2}, ("pink", "red", "pink"))
    g.apply_name(f"claim {PINK_TUNNEL} pink 2loco")
    s = g.state()
    assert s["phase"] == "turn" and g.current_player == 1 and s["owner"][rid(europe, PINK_TUNNEL)] == 0


def test_gallerie_a_mixed_payment_matches_its_colour(europe, engine):
    """GALLERIE: a red card and a locomotive played: revealed red and locomotives count
    (2 due here), green does not; extra cards are red or locomotives."""
    g = tunnel_game(europe, engine, {"red": 3, "loco": 2}, ("red", "loco", "green"))
    g.apply_name(f"claim {GRAY_TUNNEL} gray 1red+1loco")
    assert g.state()["tunnel_committed"] == counts(europe, red=1, loco=1)
    assert names(g) == ["tunnel pay 2colour", "tunnel pay 1colour+1loco", "tunnel decline"]


def test_gallerie_nothing_due_completes_the_claim_at_once(europe, engine):
    """GALLERIE: with no revealed card of the colour played and no locomotive the claim
    completes at once and the turn ends; the revealed cards are discarded at the end of the
    turn, with the payment."""
    g = tunnel_game(europe, engine, {"red": 2}, ("green", "blue", "yellow"))
    before = g.state()
    g.apply_name(f"claim {GRAY_TUNNEL} gray 2red")
    s = g.state()
    assert s["phase"] == "turn" and g.current_player == 1
    assert s["owner"][rid(europe, GRAY_TUNNEL)] == 0 and s["trains"][0] == 43 and s["route_score"][0] == 2
    assert s["tunnel_revealed"] == [] and s["tunnel_route"] == -1 and s["tunnel_committed"] == counts(europe)
    assert minus(s["discard"], before["discard"]) == counts(europe, red=2, green=1, blue=1, yellow=1)
    assert s["deck"] == before["deck"][:-3]


@pytest.mark.parametrize("pay,left,paid", [("tunnel pay 1colour", {"loco": 1}, {"red": 3}),
                                           ("tunnel pay 1loco", {"red": 1}, {"red": 2, "loco": 1})])
def test_gallerie_paying_completes_the_claim(europe, engine, pay, left, paid):
    """GALLERIE: paying the extra cards takes the route (owner, trains, points) and ends the
    turn; the cards played, the extra ones and the three revealed all end in the discards."""
    g = tunnel_game(europe, engine, {"red": 3, "loco": 1}, ("yellow", "red", "blue"))
    before = g.state()
    g.apply_name(f"claim {GRAY_TUNNEL} gray 2red")
    g.apply_name(pay)
    s = g.state()
    assert s["phase"] == "turn" and g.current_player == 1
    assert s["owner"][rid(europe, GRAY_TUNNEL)] == 0 and s["trains"][0] == 43 and s["route_score"][0] == 2
    assert s["hands"][0] == counts(europe, **left)
    assert s["tunnel_revealed"] == [] and s["tunnel_route"] == -1 and s["tunnel_committed"] == counts(europe)
    revealed = counts(europe, yellow=1, red=1, blue=1)
    assert minus(s["discard"], before["discard"]) == [a + b for a, b in zip(counts(europe, **paid), revealed)]


def test_gallerie_declining_takes_the_cards_back_and_ends_the_turn(europe, engine):
    """GALLERIE: 'può riprendere in mano tutte le sue carte e il suo turno termina'; the
    route stays free, the next player moves, and the revealed cards are discarded."""
    g = tunnel_game(europe, engine, {"red": 3, "loco": 1}, ("yellow", "red", "blue"))
    before = g.state()
    g.apply_name(f"claim {GRAY_TUNNEL} gray 2red")
    g.apply_name("tunnel decline")
    s = g.state()
    assert s["phase"] == "turn" and g.current_player == 1 and s["passes"] == 0
    assert s["hands"][0] == counts(europe, red=3, loco=1)
    assert s["owner"][rid(europe, GRAY_TUNNEL)] == -1 and s["trains"][0] == 45 and s["route_score"][0] == 0
    assert s["tunnel_revealed"] == [] and s["tunnel_route"] == -1 and s["tunnel_committed"] == counts(europe)
    assert minus(s["discard"], before["discard"]) == counts(europe, yellow=1, red=1, blue=1)
    assert s["deck"] == before["deck"][:-3]  # the revealed cards do not go back on the deck


def test_gallerie_a_short_deck_reveals_only_the_cards_left(europe, engine):
    """GALLERIE: 'si scoprono solo le carte rimaste disponibili': with 2 cards in the deck
    and no discards, 2 are revealed (here a locomotive and a red: 2 due)."""
    g = start_turns(europe, 2, engine=engine)
    a = Arranged(europe, g).hand(0, red=3, loco=1).faceup(*MARKET)
    g = only_cards(a, deck=("red", "loco")).game(engine)
    g.apply_name(f"claim {GRAY_TUNNEL} gray 2red")
    s = g.state()
    assert s["tunnel_revealed"] == [card(europe, "loco"), card(europe, "red")] and s["deck"] == []
    assert names(g) == ["tunnel pay 1colour+1loco", "tunnel decline"]
    g.apply_name("tunnel decline")
    s = g.state()
    assert s["discard"] == counts(europe, red=1, loco=1) and s["hands"][0] == counts(europe, red=3, loco=1)


def test_gallerie_no_card_left_to_reveal_the_claim_completes(europe, engine):
    """GALLERIE: 'se ... non ne resta alcuna da scoprire, è possibile prendere il controllo
    di una Galleria senza rischiare carte aggiuntive'."""
    g = start_turns(europe, 2, engine=engine)
    a = Arranged(europe, g).hand(0, red=2).faceup(*MARKET)
    g = only_cards(a).game(engine)
    g.apply_name(f"claim {GRAY_TUNNEL} gray 2red")
    s = g.state()
    assert s["phase"] == "turn" and g.current_player == 1 and s["owner"][rid(europe, GRAY_TUNNEL)] == 0
    assert s["tunnel_revealed"] == [] and s["discard"] == counts(europe, red=2)


def test_gallerie_the_discards_are_reshuffled_in_the_middle_of_the_reveal(europe, engine):
    """GALLERIE and PESCARE CARTE TRENO: the deck runs out after the first revealed card;
    the discards (4 yellow) are shuffled into a new deck and the reveal goes on from it. The
    cards played for the tunnel are held apart, not reshuffled: 2 yellow stay in the deck
    (docs/rules.md #21)."""
    g = start_turns(europe, 2, engine=engine)
    a = Arranged(europe, g).hand(0, red=3).faceup(*MARKET)
    g = only_cards(a, deck=("red",), discard=("yellow",) * 4).game(engine)
    g.apply_name(f"claim {GRAY_TUNNEL} gray 2red")
    s = g.state()
    red, yellow = card(europe, "red"), card(europe, "yellow")
    assert s["tunnel_revealed"] == [red, yellow, yellow]
    assert s["deck"] == [yellow, yellow] and s["discard"] == counts(europe)
    assert s["tunnel_committed"] == counts(europe, red=2) and names(g) == ["tunnel pay 1colour", "tunnel decline"]
    g.apply_name("tunnel pay 1colour")
    s = g.state()
    assert s["owner"][rid(europe, GRAY_TUNNEL)] == 0 and s["discard"] == counts(europe, red=4, yellow=2)


def test_gallerie_the_validator_counts_the_committed_cards(europe, engine):
    """GALLERIE (state format): the cards played for a pending tunnel are a pile of their
    own; a state in which one of them is missing is refused."""
    g = tunnel_game(europe, engine, {"red": 3, "loco": 1}, ("yellow", "red", "blue"))
    g.apply_name(f"claim {GRAY_TUNNEL} gray 2red")
    state = g.state()
    validate(europe.ir, state)
    state["tunnel_committed"][card(europe, "red")] -= 1
    with pytest.raises(railspec.StateError, match="red"):
        validate(europe.ir, state)
    with pytest.raises(railspec.StateError):
        europe.game_from_state(state, engine=engine)
