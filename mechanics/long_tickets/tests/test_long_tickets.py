"""Long tickets (mechanics/long_tickets): a second ticket deck, dealt at set-up only. Its
statements and their errors, the state's accounting of the long tickets, and the
determinization keeping them in their places.

Europe rulebook (shared/seeds/000_bb662d8662a85a07.txt, the Italian edition): Preparazione
del gioco. (The maps' set-up with long tickets is tested with each map, in
tests/test_rules_europe.py and tests/test_rules_legendary_asia.py.)
"""
from __future__ import annotations

import pytest
from conftest import (
    add,
    assert_located_error,
    assert_located_warning,
    bad_spec_params,
    checked,
    edit,
    mini,
    start_turns,
    statements,
)

import railspec
from railspec.compiler.base.errors import SpecCheckError, SpecSyntaxError
from railspec.compiler.lang import ast
from railspec.runtime import determinize
from railspec.runtime.state_format import validate

S, C = SpecSyntaxError, SpecCheckError

@pytest.fixture(scope="module")
def europe():
    return railspec.load("europe")


# --- the statements: 'ticket long', 'deal tickets N long L keep K', 'returned long' -----------

def test_long_tickets_europe_setting_up():
    """Europe, 'Preparazione del gioco': 6 long tickets, one dealt to each player with 3
    regular ones; the long ones not dealt go back to the box."""
    longs = "\n".join(f"ticket long Alpha - Zeta {20 + i}" for i in range(6))
    text = mini(longs + "\nreturned long removed", deal="deal tickets 3 long 1 keep 2")
    v = checked(text)
    assert (v.deal_regular, v.deal_parts, v.deal_keep, v.rule("long_tickets").returned) == (3, (("long", 1),), 2,
                                                                                            "removed")
    assert sum(t.deck == "long" for t in v.tickets) == 6 and "long_tickets" in v.mechanics
    assert v.max_offer == 4
    (stmt,) = statements("ticket long Lisboa - Danzig 20", ast.Ticket)
    assert stmt.deck == "long" and (stmt.a.text, stmt.b.text, stmt.points.value) == ("Lisboa", "Danzig", 20)


# (id, spec text, error class, line, col, message fragment), as in tests/test_bad_specs.py
BAD_SPECS = [
    ("returned-long-where", add(11, "returned long sideways"), S, 11, 15,
     "unexpected 'sideways', expected one of 'bottom', 'removed', 'shuffled'"),
    ("ticket-long-without-points", add(30, "ticket long Alpha - Epsilon"), S, 30, 28,
     "expected a number; the form is: ticket [long] [either] CITY - CITY POINTS [copies N]"),
    ("deal-long-without-number", edit(9, "deal tickets 2 long keep 1"), S, 9, 21,
     "unexpected 'keep', expected a number; the form is: deal tickets N [long L] keep K"),
    ("long-dealt-none-declared", edit(9, "deal tickets 2 long 1 keep 1"), C, 9, 1,
     "long tickets are dealt but no 'ticket long' is declared"),
]


@pytest.mark.parametrize("text,kind,line,col,fragment,where", bad_spec_params(BAD_SPECS))
def test_bad_spec(tmp_path, text, kind, line, col, fragment, where):
    assert_located_error(tmp_path, text, kind, line, col, fragment, where)


# (id, spec text, line, col, message fragment): content that checks but does nothing, as in
# tests/test_bad_specs.py
WARNING_CASES = [
    ("long-tickets-never-dealt", add(30, "ticket long Alpha - Epsilon 20"), 30, 1,
     "long tickets are declared but never dealt: add 'long L' to 'deal tickets'"),
]


@pytest.mark.parametrize("text,line,col,fragment", [c[1:] for c in WARNING_CASES],
                         ids=[c[0] for c in WARNING_CASES])
def test_dead_content_is_a_located_warning(tmp_path, text, line, col, fragment):
    """Content that checks but does nothing is a warning: the spec compiles, the warning is
    located like an error, `railspec check` prints it, and `--strict` fails on it."""
    assert_located_warning(tmp_path, text, line, col, fragment)


# --- PREPARAZIONE DEL GIOCO (Europe): the state format ----------------------------------------

def test_the_validator_accounts_for_every_ticket(europe, engine):
    """PREPARAZIONE DEL GIOCO (state format): every ticket of the 46 is in exactly one pile
    (the deck, a hand, an offer, the box of long tickets, or out of the game); a long ticket
    is never in the regular deck."""
    g = start_turns(europe, 2, engine=engine)
    state = g.state()
    validate(europe.ir, state)
    missing = dict(state, ticket_deck=state["ticket_deck"][1:])
    twice = dict(state, ticket_deck=state["ticket_deck"] + [state["ticket_deck"][0]])
    out_twice = dict(state, tickets_out=state["tickets_out"] + [state["ticket_deck"][0]])
    for bad in (missing, twice, out_twice):
        with pytest.raises(railspec.StateError, match="every ticket"):
            validate(europe.ir, bad)
        with pytest.raises(railspec.StateError):
            europe.game_from_state(bad, engine=engine)
    long_in_deck = dict(state, ticket_deck=state["ticket_deck"] + state["long_deck"][:1],
                        long_deck=state["long_deck"][1:])
    with pytest.raises(railspec.StateError, match="long ticket"):
        validate(europe.ir, long_in_deck)


# --- the determinization ----------------------------------------------------------------------

def test_resample_keeps_long_tickets_in_long_places():
    """Europe: a long ticket only goes where a long ticket was, so the long deck still
    holds long tickets only (rulebook: the long tickets are a deck of their own)."""
    v = railspec.load("europe")
    g = v.new_game(players=3, seed=2)
    state = g.state()
    long_ids = {t.id for t in v.tickets if t.deck == "long"}
    for seed in range(20):
        world = determinize.resample(v.ir, state, 1, seed)
        assert set(world["long_deck"]) <= long_ids
        assert sorted(world["long_deck"]) != [] or not state["long_deck"]
