"""The generic game-API suite, run on every stock variant and both engines (in the spirit
of OpenSpiel's basic tests): whatever the rules, these properties hold."""
from __future__ import annotations

import json
import random
from array import array

import pytest
from conftest import implemented_stock_variants

import railspec
from railspec.compiler.base.errors import IllegalActionError

ENGINES = ["compiled", "reference"]
VARIANTS = implemented_stock_variants()
IDS = [v.key for v in VARIANTS]


def seats(v) -> int:
    """Four players, or the most the variant takes (Nordic Countries and Switzerland: 3)."""
    return min(4, v.ir.max_players)


def play(v, players, seed, engine, rng_seed=0, limit=None):
    g = v.new_game(players=players, seed=seed, engine=engine)
    rng = random.Random(rng_seed)
    steps = 0
    while not g.is_over and (limit is None or steps < limit):
        g.apply(rng.choice(g.legal_actions()))
        steps += 1
    return g


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
@pytest.mark.parametrize("engine", ENGINES)
def test_legal_actions_are_sorted_unique_and_named(v, engine):
    g = v.new_game(players=v.ir.max_players, seed=1, engine=engine)
    rng = random.Random(1)
    while not g.is_over:
        legal = g.legal_actions()
        assert legal == sorted(set(legal)) and legal, "legal actions must be ascending, unique, non-empty"
        assert all(0 <= a < len(v.actions) for a in legal)
        assert all(isinstance(g.action_name(a), str) for a in legal)
        buffer = array("i", [0] * len(v.actions))
        n = g.legal_actions_into(buffer)
        assert list(buffer[:n]) == legal
        g.apply(rng.choice(legal))
    assert g.legal_actions() == [] and g.current_player == -1


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
@pytest.mark.parametrize("engine", ENGINES)
def test_same_seed_and_actions_give_the_same_game(v, engine):
    a = play(v, 3, 11, engine, rng_seed=5)
    b = play(v, 3, 11, engine, rng_seed=5)
    assert a.to_json() == b.to_json()
    c = play(v, 3, 12, engine, rng_seed=5)
    assert c.to_json() != a.to_json()


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
@pytest.mark.parametrize("engine", ENGINES)
def test_clone_is_equal_and_independent(v, engine):
    g = play(v, seats(v), 3, engine, limit=40)
    twin = g.clone()
    assert twin.to_json() == g.to_json()
    before = g.to_json()
    twin.apply(twin.legal_actions()[-1])
    assert g.to_json() == before and twin.to_json() != before


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
@pytest.mark.parametrize("engine", ENGINES)
def test_json_round_trip_mid_game_and_at_the_end(v, engine):
    for limit in (0, 1, 17, None):
        g = play(v, 2, 8, engine, limit=limit)
        text = g.to_json()
        back = v.game_from_json(text, engine=engine)
        assert back.to_json() == text
        assert back.legal_actions() == g.legal_actions()
        other = "reference" if engine == "compiled" else "compiled"
        assert v.game_from_json(text, engine=other).to_json() == text


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
@pytest.mark.parametrize("engine", ENGINES)
def test_illegal_actions_raise_and_change_nothing(v, engine):
    g = play(v, 3, 2, engine, limit=25)
    legal = set(g.legal_actions())
    before = g.to_json()
    bad = [-1, len(v.actions), 10**9, 2**40, "3", None, 1.5]
    bad += [a for a in range(len(v.actions)) if a not in legal][:300]
    for a in bad:
        with pytest.raises(IllegalActionError):
            g.apply(a)
        assert g.to_json() == before
    over = play(v, 2, 2, engine)
    with pytest.raises(IllegalActionError):
        over.apply(0)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_observation_shows_only_the_players_own_hand(v):
    g = play(v, seats(v), 6, "compiled", limit=30)
    state = g.state()
    for p in range(seats(v)):
        obs = g.observation(p)
        assert obs["hand"] == state["hands"][p] and obs["tickets"] == state["tickets"][p]
        assert obs["hand_sizes"] == [sum(h) for h in state["hands"]]
        flat = json.dumps(obs)
        assert '"deck":' not in flat and "ticket_deck\":" not in flat


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_playout_matches_games_played_through_the_api(v):
    """playout() plays the documented random agent: game i of a batch is the game the same
    agent plays through the API (docs/engine.md, Random playouts)."""
    from railspec.compiler.base.rng import SplitMix64
    batch = v.playout(games=3, players=seats(v), seed=40)
    ref = v.playout(games=3, players=seats(v), seed=40, engine="reference")
    assert batch == ref
    for i in range(3):
        g = v.new_game(players=seats(v), seed=40 + i)
        agent = SplitMix64((40 + i) ^ 0xD1B54A32D192ED03)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[agent.below(len(legal))])
        assert g.scores() == batch["totals"][i]
        assert g.state()["decisions"] == batch["decisions"][i]


def keys_reached(v, rows) -> list[int]:
    """How many of these games each tie-break key of ``v`` was asked about (the game still
    tied on the totals and every key before it)."""
    from railspec.runtime.scoring import tiebreak_keys
    keys = tiebreak_keys(v.ir)
    reached = [0] * len(keys)
    for game in rows:
        best = max(row["total"] for row in game)
        tied = [p for p, row in enumerate(game) if row["total"] == best]
        for k, tb in enumerate(keys):
            if len(tied) == 1:
                break
            reached[k] += 1
            value = {p: tb.key(game[p], game) for p in tied}
            tied = [p for p in tied if value[p] == max(value.values())]
    return reached


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_playout_winners_are_each_games_winners(v):
    """playout()'s winners, named by the compiled loop with the variant's tie-breaks, are
    winners() of each game's breakdown rows, tied games included, on both engines."""
    from railspec.runtime.scoring import rows_of_playout, tiebreak_plan, winners
    players = min(4, v.ir.max_players)
    keys = v.assembly.breakdown_keys
    assert tiebreak_plan(v.ir, keys) is not None, "every stock key has a compiled form"
    reached = [0] * len(v.ir.tiebreaks)
    for seed in (11, 50_000):
        result = v.playout(games=1500, players=players, seed=seed)
        rows = rows_of_playout(result, keys)
        assert result["winners"] == [winners(v.ir, game) for game in rows]
        reached = [a + b for a, b in zip(reached, keys_reached(v, rows))]
    assert all(reached), f"a tie-break key no tied game reached: {dict(zip(v.ir.tiebreaks, reached))}"
    ref = v.playout(games=40, players=players, seed=11, engine="reference")
    assert ref["winners"] == [winners(v.ir, game) for game in rows_of_playout(ref, keys)]
    # the loop alone names no winners; with no keys it names the seats at the best total
    assert "winners" not in v.module().playout(3, players, 11)
    raw = v.module().playout(400, players, 11, ties=())
    assert raw["winners"] == [[p for p, x in enumerate(t) if x == max(t)] for t in raw["totals"]]
    assert any(len(w) > 1 for w in raw["winners"]), "no game tied on its best total"


def test_playout_refuses_a_malformed_tiebreak_plan():
    module = railspec.load("usa").module()
    for bad in ([(99, 1, False)], [(0, 2, False)], [(0, -1, True)], [(0, 1)], [0], [(0, 1, 1)]):
        with pytest.raises(ValueError, match="tie-break key"):
            module.playout(2, 2, 1, ties=bad)


def test_playout_gives_the_same_games_whatever_the_workers():
    usa = railspec.load("usa")
    one = usa.playout(games=301, players=3, seed=2**64 - 100)  # the seeds wrap past 2^64
    for workers in (2, 3, 7):
        assert usa.playout(games=301, players=3, seed=2**64 - 100, workers=workers) == one
    assert usa.playout(games=2, players=2, seed=1, workers=8) == usa.playout(games=2, players=2, seed=1)
    assert usa.playout(games=0, players=2, seed=1, workers=4)["totals"] == []
    for bad in (0, -1):
        with pytest.raises(ValueError, match="workers"):
            usa.playout(games=2, players=2, workers=bad)
    with pytest.raises(TypeError):
        usa.playout(games=2, players=2, workers=1.5)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_bad_player_counts_and_engines_are_refused(v):
    with pytest.raises(ValueError):
        v.new_game(players=v.ir.max_players + 1)
    with pytest.raises(ValueError):
        v.new_game(players=1)
    with pytest.raises(ValueError):
        v.new_game(players=2, engine="quantum")


CORRUPTIONS = [
    ("not json", lambda s: "{"),
    ("not an object", lambda s: "[1, 2]"),
    ("missing key", lambda s: json.dumps({k: x for k, x in json.loads(s).items() if k != "deck"})),
    ("other variant", lambda s: json.dumps({**json.loads(s), "variant": "europe", "spec_hash": "0123456789abcdef"})),
    ("card lost", lambda s: json.dumps({**json.loads(s), "deck": json.loads(s)["deck"][1:]})),
    ("card out of range", lambda s: json.dumps({**json.loads(s), "faceup": [99] * 5})),
    ("bad phase", lambda s: json.dumps({**json.loads(s), "phase": "dancing"})),
    ("player out of range", lambda s: json.dumps({**json.loads(s), "current": 7})),
    ("owner out of range", lambda s: json.dumps({**json.loads(s), "owner": [9] * len(json.loads(s)["owner"])})),
    ("ticket twice", lambda s: json.dumps({**json.loads(s), "offer": json.loads(s)["ticket_deck"][:1]})),
    ("trains not conserved", lambda s: json.dumps({**json.loads(s), "trains": [44] * json.loads(s)["players"]})),
    ("wrong type", lambda s: json.dumps({**json.loads(s), "rng": "seven"})),
]


@pytest.mark.parametrize("what,corrupt", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
@pytest.mark.parametrize("engine", ENGINES)
def test_corrupt_states_are_refused_with_a_clear_error(usa, what, corrupt, engine):
    text = play(usa, 3, 4, "reference", limit=20).to_json()
    with pytest.raises(railspec.StateError):
        usa.game_from_json(corrupt(text), engine=engine)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_longest_path_agrees_with_the_breakdown_in_both_engines(v):
    for seed in range(6):
        g = play(v, seats(v), seed, "compiled", rng_seed=seed)
        ref = v.game_from_json(g.to_json(), engine="reference")
        rows = g.score_breakdown()
        expected = [r.get("longest_path", 0) for r in rows]  # 0 in a variant without the bonus
        assert [g.longest_path(p) for p in range(seats(v))] == expected
        assert [ref.longest_path(p) for p in range(seats(v))] == expected
    with pytest.raises(ValueError):
        g.longest_path(seats(v))


@pytest.mark.parametrize("engine", ENGINES)
def test_integer_like_ids_are_accepted_and_bools_refused_alike(usa, engine):
    """Both engines take any integer-like id (e.g. a numpy integer) and refuse a bool."""
    class IntLike:
        def __init__(self, value):
            self.value = value

        def __index__(self):
            return self.value
    g = usa.new_game(players=2, seed=1, engine=engine)
    twin = g.clone()
    first = g.legal_actions()[0]
    g.apply(IntLike(first))
    twin.apply(first)
    assert g.to_json() == twin.to_json()
    for bad in (True, False):
        with pytest.raises(IllegalActionError):
            g.apply(bad)


def test_score_uses_the_compiled_engine_when_its_module_is_at_hand(usa, monkeypatch):
    """railspec.score on a stock variant scores in the compiled engine (its module is
    installed); the reference scorer is not called."""
    from railspec.runtime import reference

    def refuse(*args, **kwargs):
        raise AssertionError("the reference scorer was called")
    monkeypatch.setattr(reference, "score_fields", refuse)
    position = {"variant": "usa", "players": [{"routes": ["Calgary-Helena"], "tickets": ["Calgary-Salt Lake City"]},
                                               {"routes": ["Duluth-Helena"], "tickets": []}]}
    rows = railspec.score("usa", position)
    assert [r["routes"] for r in rows] == [7, 15] and rows[0]["tickets"] == -7
    assert [r["winner"] for r in rows] == [False, True]


def test_both_scorers_agree_on_positions(usa):
    """The compiled and the reference scorer give the same breakdown for the same board."""
    from railspec.runtime import reference
    from railspec.runtime.position import position_fields
    rng = random.Random(4)
    routes = [r.name for r in usa.routes if r.tracks == 1]
    tickets = [t.name for t in usa.tickets]
    for _ in range(20):
        picked, held = rng.sample(routes, 14), rng.sample(tickets, 6)
        position = {"players": [{"routes": picked[:7], "tickets": held[:3]},
                                {"routes": picked[7:], "tickets": held[3:]}]}
        fields = position_fields(usa.ir, position)
        assert usa.module().Engine.for_scoring(fields).score_breakdown() == \
            reference.score_fields(usa.ir, fields)


def test_a_stock_variant_is_read_once_per_process(monkeypatch):
    from railspec import compiler
    first = railspec.load("usa")
    monkeypatch.setattr(compiler, "check_file", lambda *a, **k: pytest.fail("the spec was read again"))
    assert railspec.load("usa") is first
    railspec.score("usa", {"players": [{"routes": []}, {"routes": []}]})


@pytest.mark.parametrize("v", VARIANTS, ids=[v.key for v in VARIANTS])
def test_apply_accepts_exactly_the_legal_actions(v):
    """apply() checks a draw or a claim on its own, without listing every legal action
    (compiled engine): for every action id, at every third decision of two games, what it
    accepts is what legal_actions() lists."""
    ids = range(len(v.actions))
    for seed in range(2):
        g = v.new_game(players=v.ir.max_players if seed else v.ir.min_players, seed=seed)
        rng = random.Random(seed)
        step = 0
        while not g.is_over:
            legal = g.legal_actions()
            if step % 3 == 0:
                listed = set(legal)
                assert [a for a in ids if g._e._accepts(a)] == sorted(listed), (seed, step)
            g.apply(legal[rng.randrange(len(legal))])
            step += 1
        assert not any(g._e._accepts(a) for a in ids)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_claims_agree_with_the_reference_on_rich_hands(v):
    """The compiled claims list a gray step's colours from the hand's colour counts (not
    id by id): on turns where the player holds many cards of several colours, every
    claim id matches the reference interpreter's, and is_legal agrees on each."""
    rng = random.Random(7)
    game = play(v, seats(v), 3, "compiled", limit=12)
    while game.state()["phase"] != "turn":
        game.apply(rng.choice(game.legal_actions()))
    base = game.state()
    tried = listed = 0
    while tried < 60:
        state = json.loads(json.dumps(base))
        p = state["current"]
        rng.shuffle(state["deck"])
        keep = rng.randrange(len(state["deck"]) // 2, len(state["deck"]) + 1)
        for card in state["deck"][keep:]:
            state["hands"][p][card] += 1
        state["deck"] = state["deck"][:keep]
        try:
            compiled = v.game_from_state(state)
        except railspec.RailspecError:
            continue  # a phase this state cannot take cards in
        tried += 1
        reference = v.game_from_state(state, engine="reference")
        assert compiled.legal_actions() == reference.legal_actions()
        claims = [a.id for a in v.actions if a.kind == "claim"]
        legal_claims = [a for a in compiled.legal_actions() if v.actions[a].kind == "claim"]
        assert [a for a in claims if compiled._e._accepts(a)] == legal_claims
        listed += len(legal_claims)
    assert listed > 60 * 10  # rich hands: many payments a turn
