"""The position notation (docs/conformance.md): every reachable state written with the
spec's names, in JSON and on one line, read back by both engines as the same state.

`make notation-long` runs the round trip over 2,000 random games of every stock
variant on both engines (RAILSPEC_NOTATION_GAMES); the suite plays a few."""
from __future__ import annotations

import json
import os
import re

import pytest
from conftest import ENGINES, implemented_stock_variants
from test_random_specs import write_spec

import railspec
from railspec.compiler.base.rng import SplitMix64
from railspec.runtime import notation
from railspec.runtime.state_format import StateError

VARIANTS = implemented_stock_variants()
IDS = [v.key for v in VARIANTS]
GAMES = int(os.environ.get("RAILSPEC_NOTATION_GAMES", "6"))


def _round_trips(v, games: int, engine: str, engines_every: int = 1) -> int:
    """Play random games of ``v`` on ``engine``; at every decision the position, in both
    forms, reads back as the same state, and every ``engines_every``-th decision (and the
    last) both engines start from it with that state. Returns the positions checked."""
    checked = 0
    counts = list(range(v.ir.min_players, v.ir.max_players + 1))
    for seed in range(games):
        g = v.new_game(players=counts[seed % len(counts)], seed=seed, engine=engine)
        rng = SplitMix64(seed ^ 0x5EED)
        while True:
            state = g.state()
            position, line = g.position(), g.position_line()
            assert json.loads(json.dumps(position)) == position  # plain JSON
            assert "\n" not in line
            assert notation.from_position(v.ir, position) == state
            assert notation.loads_line(v.ir, line) == state
            if checked % engines_every == 0 or g.is_over:
                for reader in ENGINES:
                    assert v.game_from_position(position, engine=reader).state() == state
                    assert v.game_from_position(line, engine=reader).state() == state
            checked += 1
            if g.is_over:
                break
            legal = g.legal_actions()
            g.apply(legal[rng.below(len(legal))])
    return checked


def _round_trips_on_both_engines(v, games: int, engines_every: int = 1) -> int:
    """:func:`_round_trips` with each game played on both engines side by side, the same
    seeds and actions: at every decision each engine writes the position in both forms and
    the two write the same; it reads back as the state both hold, and every
    ``engines_every``-th decision (and the last) both engines start from it with that state.

    One game on each engine per seed, not one run per engine each reading every position
    into both engines again: the two runs played the same games (both engines agree action
    for action, tests/test_differential.py), so every position was read back twice over.
    Returns the positions checked."""
    checked = 0
    counts = list(range(v.ir.min_players, v.ir.max_players + 1))
    for seed in range(games):
        played = [v.new_game(players=counts[seed % len(counts)], seed=seed, engine=engine) for engine in ENGINES]
        rng = SplitMix64(seed ^ 0x5EED)
        while True:
            state = played[0].state()
            position, line = played[0].position(), played[0].position_line()
            for other in played[1:]:
                assert other.state() == state, f"seed {seed}, position {checked}: the engines' states differ"
                assert other.position() == position and other.position_line() == line, \
                    f"seed {seed}, position {checked}: the engines write it differently"
            assert json.loads(json.dumps(position)) == position  # plain JSON
            assert "\n" not in line
            assert notation.from_position(v.ir, position) == state
            assert notation.loads_line(v.ir, line) == state
            over = played[0].is_over
            if checked % engines_every == 0 or over:
                for reader in ENGINES:
                    assert v.game_from_position(position, engine=reader).state() == state
                    assert v.game_from_position(line, engine=reader).state() == state
            checked += 1
            if over:
                break
            legal = played[0].legal_actions()
            action = legal[rng.below(len(legal))]
            for game in played:
                game.apply(action)
    return checked


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_every_reached_position_round_trips(v):
    assert _round_trips_on_both_engines(v, GAMES, engines_every=1 if GAMES <= 10 else 50) > 50 * GAMES


@pytest.mark.parametrize("seed,ferries,europe", [(4, False, False), (12, True, True), (14, False, True)])
def test_positions_of_random_specs_round_trip(tmp_path, seed, ferries, europe):
    v = write_spec(tmp_path, seed, ferries, europe)
    assert _round_trips(v, 2, "compiled") > 0


def test_a_position_uses_names_never_ids():
    usa = railspec.load("usa")
    g = usa.new_game(players=3, seed=2)
    g.apply(g.legal_actions()[0])  # keep tickets at set-up
    position = g.position()
    assert position["format"] == "railspec-position/1" and position["spec_hash"] == usa.spec_hash
    colours = {c.name for c in usa.ir.colours} | {"loco"}
    assert set(position["deck"]) <= colours and set(position["hands"][0]) <= colours
    tickets = {t.name for t in usa.ir.tickets}
    assert set(position["ticket_deck"]) <= tickets and set(position["setup_offer"][1]) <= tickets
    assert position["owner"] == {}  # no route owned yet: nothing written
    assert position["generator"] == {"seed": "2", "rng": str(g.state()["rng"])}
    while not any(o >= 0 for o in g.state()["owner"]):
        g.apply(g.legal_actions()[-1])
    assert set(g.position()["owner"]) <= {r.name for r in usa.ir.routes}


def test_the_generator_may_be_left_out():
    """Another engine need not know railspec's generator: without `generator` the
    position reads with seed and generator state 0, and plays on the same way until
    chance is drawn."""
    usa = railspec.load("usa")
    g = usa.new_game(players=2, seed=7)
    position = g.position()
    del position["generator"]
    other = usa.game_from_position(position)
    assert other.state()["rng"] == 0
    assert other.legal_actions() == g.legal_actions()


@pytest.mark.parametrize("change,message", [
    (lambda p: p.update(format="railspec-position/0"), "is not 'railspec-position/1'"),
    (lambda p: p.update(spec_hash="0" * 16), "not 'usa'"),
    (lambda p: p.update(colour="red"), "unknown key 'colour'"),
    (lambda p: p.pop("deck"), "the position has no 'deck'"),
    (lambda p: p["deck"].append("mauve"), "no card named 'mauve'"),
    (lambda p: p.update(owner={"Seattle-Portland": 0}), "no route named 'Seattle-Portland'"),
    (lambda p: p.update(hands=[{}]), "one entry per player"),
    (lambda p: p.update(players=True), "'players' is the number of players"),
    (lambda p: p.update(turn="3"), "a whole number"),
    (lambda p: p.update(generator={"seed": "x"}), "a decimal string below 2^64"),
    (lambda p: p.update(generator={"state": "1"}), "'generator' holds 'seed' and 'rng'"),
])
def test_a_bad_position_is_one_named_error(change, message):
    usa = railspec.load("usa")
    position = usa.new_game(players=2, seed=1).position()
    change(position)
    with pytest.raises(notation.NotationError, match=re.escape(message)):
        usa.game_from_position(position)


def test_a_position_that_reads_is_still_checked_as_a_state():
    usa = railspec.load("usa")
    position = usa.new_game(players=2, seed=1).position()
    position["deck"] = position["deck"][1:]  # a card lost
    with pytest.raises(StateError, match="card"):
        usa.game_from_position(position)


@pytest.mark.parametrize("line,message", [
    ("", "starts with railspec-position/1"),
    ("railspec-position/1 usa", "starts with railspec-position/1"),
    ("railspec-position/1 usa {hash} players=2 players=2", "'players' is given twice"),
    ("railspec-position/1 usa {hash} players", "is not key=value"),
    ("railspec-position/1 usa {hash} players=two", "a whole number"),
    ("railspec-position/1 usa {hash} colour=red", "unknown key 'colour'"),
    ("railspec-position/1 usa {hash} players=2 owner=Denver%ZZOmaha:0", "a bad escape"),
])
def test_a_bad_position_line_is_one_named_error(line, message):
    usa = railspec.load("usa")
    with pytest.raises(notation.NotationError, match=message):
        usa.game_from_position(line.format(hash=usa.spec_hash))


def test_names_with_the_lines_own_characters_survive(tmp_path):
    """A name may hold a space, an underscore, a comma, a colon or a lone '-': the line
    escapes them, and reads them back."""
    for name in ("New York", "Le_Havre", "Buffalo, Rochester", "A:B", "50% Town", "-"):
        assert notation._unescape(notation._escape(name)) == name
        assert not set(notation._escape(name)) & set(" ,;:=") and notation._escape(name) != "-"
