"""Observation tensors and action masks (railspec.tensor), on every stock variant that loads.

The vector must be a function of the player's observation and nothing else (two worlds
the player cannot tell apart give the same vector), must tell apart positions the player
can tell apart, and must read back to the observation slice by slice.
"""
from __future__ import annotations

import numpy as np
import pytest
from conftest import implemented_stock_variants

import railspec
from railspec.compiler.base import schema
from railspec.compiler.base.rng import SplitMix64
from railspec.rl import tensor
from railspec.tools.perft import rare_phases

VARIANTS = implemented_stock_variants()
IDS = [v.key for v in VARIANTS]


def _positions(v, games: int = 2, every: int = 7):
    """Games of random play, seen every ``every`` decisions (and at the end)."""
    for seed in range(games):
        players = v.ir.max_players - seed % (v.ir.max_players - v.ir.min_players + 1)
        g = v.new_game(players=players, seed=seed)
        rng = SplitMix64(seed + 11)
        step = 0
        while not g.is_over:
            if step % every == 0:
                yield g
            legal = g.legal_actions()
            g.apply(legal[rng.below(len(legal))])
            step += 1
        yield g


def _relative_seat(category: int, observer: int, players: int) -> int:
    return (observer + category) % players


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_spec_covers_the_vector(v):
    """Slices are contiguous, named once, and every field a player sees has one."""
    spec = tensor.observation_spec(v)
    at = 0
    for s in spec:
        assert s.start == at and s.length == int(np.prod(s.shape)) > 0
        assert s.meaning
        at = s.stop
    assert at == spec.size == tensor.ObservationEncoder(v).size
    assert len(set(spec.names)) == len(spec)
    g = v.new_game(players=v.ir.min_players, seed=1)
    observed = set(g.observation(0)) - {"player"}
    assert observed == set(spec.names)
    # the layout depends on the variant only, not on the table size
    assert spec.seats == v.ir.max_players


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_vector_reads_back_to_the_observation(v):
    """The core slices decode to exactly what observation() shows."""
    enc = tensor.ObservationEncoder(v)
    spec = enc.spec
    copies = np.array([c.count for c in v.colours] + [v.ir.locomotives], dtype=float)
    out = enc.new_vector()
    seen = 0
    for g in _positions(v):
        players = g.players
        for p in range(players):
            obs = g.observation(p)
            enc.encode(g, p, out)
            assert out.dtype == np.float32 and out.min() >= 0.0 and out.max() <= 1.0 + 1e-6
            owner = spec.view(out, "owner")
            assert (owner.sum(axis=1) == 1).all()
            # categories: the seats (relative to the observer), the owners beyond them (a
            # route taken for no player: owner == players), then "free"
            free = owner.shape[1] - 1
            for r, o in enumerate(obs["owner"]):
                cat = int(owner[r].argmax())
                assert (o == -1) == (cat == free)
                if 0 <= o < players:
                    assert _relative_seat(cat, p, players) == o
                elif o >= players:
                    assert cat == spec.seats + (o - players) < free
            np.testing.assert_allclose(spec.view(out, "hand") * copies, obs["hand"], atol=1e-4)
            faceup = np.bincount([c for c in obs["faceup"] if c >= 0], minlength=len(copies))
            np.testing.assert_allclose(spec.view(out, "faceup") * copies, faceup, atol=1e-4)
            tickets = spec.view(out, "tickets")
            assert set(np.flatnonzero(tickets)) == set(obs["tickets"])
            offer = spec.view(out, "offer")
            assert [int(row.argmax()) for row in offer[:len(obs["offer"])]] == obs["offer"]
            assert offer[len(obs["offer"]):].sum() == 0
            setup = spec.view(out, "setup_offer")
            assert [int(row.argmax()) for row in setup[:len(obs["setup_offer"])]] == obs["setup_offer"]
            trains = spec.view(out, "trains")
            for rel in range(players):
                assert round(float(trains[rel]) * v.ir.trains) == obs["trains"][(p + rel) % players]
            assert trains[players:].sum() == 0
            sizes = spec.view(out, "hand_sizes") * v.assembly.dims["CARD_TOTAL"]
            assert [round(float(sizes[rel])) for rel in range(players)] == \
                [obs["hand_sizes"][(p + rel) % players] for rel in range(players)]
            current = spec.view(out, "current")
            if obs["current"] == -1:
                assert current.argmax() == spec.seats
            else:
                assert _relative_seat(int(current.argmax()), p, players) == obs["current"]
            assert v.assembly.phases[int(spec.view(out, "phase").argmax())] == obs["phase"]
            seen += 1
    assert seen > 40


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_vector_depends_on_the_observation_only(v):
    """A world drawn for the player (everything hidden redrawn) gives the same vector; a
    position the player can tell apart gives another."""
    enc = tensor.ObservationEncoder(v)
    vectors = {}
    for i, g in enumerate(_positions(v, games=1, every=5)):
        p = max(0, g.current_player)
        world = g.resample(p, seed=i)
        a, b = enc.encode(g, p), enc.encode(world, p)
        np.testing.assert_array_equal(a, b)
        key = repr(sorted(g.observation(p).items()))
        vectors.setdefault(key, a.tobytes())
        # the same observation, the same bytes; another observation, other bytes
        assert vectors[key] == a.tobytes()
    assert len(set(vectors.values())) == len(vectors)


def test_mechanic_fields_reach_the_tensor():
    """Public fields of mechanics get slices with no code of their own: stations and
    tunnels (Europe), shares with the neutral owner (Pennsylvania), ferry cards (Italy)."""
    names = {v.key: set(tensor.observation_spec(v).names) for v in VARIANTS}
    expect = {"europe": {"station_owner", "tunnel_route", "tunnel_revealed"},
              "pennsylvania": {"share_owner", "share_route"},
              "italy": {"ferry_cards", "ferry_pile"},
              "amsterdam": {"goods", "goods_pile"}}
    for key, fields in expect.items():
        if key in names:
            assert fields <= names[key], key
    if "pennsylvania" in names:
        v = railspec.load("pennsylvania")
        spec = tensor.observation_spec(v)
        # seats, the neutral shareholder, the neutral share revealed, none
        assert spec["share_owner"].shape[1] == v.ir.max_players + 3
        # hidden fields leave only their public summary
        assert "deck" not in spec and "ticket_deck" not in spec and "seed" not in spec


def test_station_owner_is_relative():
    """Europe: a station built by the player to move is 'me' in its own vector and
    '+k' in the vector of the player k seats before it."""
    v = railspec.load("europe")
    enc = tensor.ObservationEncoder(v)
    for g in _positions(v, games=3, every=1):
        state = g.state()
        built = [(c, o) for c, o in enumerate(state["station_owner"]) if o >= 0]
        if built:
            city, owner = built[0]
            for p in range(g.players):
                cat = int(enc.spec.view(enc.encode(g, p), "station_owner")[city].argmax())
                assert cat == (owner - p) % g.players
            return
    pytest.fail("no station built in the games tried")


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_action_mask_is_the_legal_actions(v):
    enc = tensor.ObservationEncoder(v)
    for g in _positions(v, games=1, every=3):
        mask = enc.action_mask(g)
        assert mask.dtype == np.int8 and mask.shape == (len(v.actions),)
        if g.is_over:
            assert mask.sum() == 0
        else:
            assert list(np.flatnonzero(mask)) == g.legal_actions()


def test_offer_is_hidden_from_the_other_players():
    """While a player chooses among drawn tickets, only that player's vector shows them."""
    v = railspec.load("usa")
    enc = tensor.ObservationEncoder(v)
    for g in _positions(v, games=4, every=1):
        if g.state()["phase"] == schema.PH_KEEP:
            me = g.current_player
            assert enc.spec.view(enc.encode(g, me), "offer").sum() > 0
            for p in range(g.players):
                if p != me:
                    assert enc.spec.view(enc.encode(g, p), "offer").sum() == 0
            return
    pytest.fail("no ticket draw in the games tried")


def test_reference_engine_gives_the_same_vector():
    v = railspec.load("usa")
    enc = tensor.ObservationEncoder(v)
    a, b = v.new_game(3, 4), v.new_game(3, 4, engine="reference")
    rng = SplitMix64(4)
    for _ in range(60):
        for p in range(3):
            np.testing.assert_array_equal(enc.encode(a, p), enc.encode(b, p))
        legal = a.legal_actions()
        action = legal[rng.below(len(legal))]
        a.apply(action)
        b.apply(action)


def test_bad_requests_are_refused():
    v = railspec.load("usa")
    enc = tensor.ObservationEncoder(v)
    g = v.new_game(2, 1)
    with pytest.raises(tensor.ObservationError):
        enc.encode(g, 2)
    with pytest.raises(tensor.ObservationError):
        enc.encode(g, -1)
    with pytest.raises(tensor.ObservationError):
        enc.encode(g, 0, out=np.zeros(enc.size, dtype=np.float64))
    with pytest.raises(tensor.ObservationError):
        enc.encode(g, 0, out=np.zeros(enc.size + 1, dtype=np.float32))
    other = railspec.load("amsterdam")
    with pytest.raises(tensor.ObservationError):
        enc.fill(other.new_game(2, 1).state(), 0)
    assert isinstance(tensor.ObservationError("x"), railspec.RailspecError)
    with pytest.raises(KeyError):
        enc.spec["no such slice"]


def test_buffer_reuse_clears_the_last_vector():
    v = railspec.load("usa")
    enc = tensor.ObservationEncoder(v)
    g = v.new_game(2, 3)
    out = enc.new_vector()
    first = enc.encode(g, 0, out).copy()
    h = v.new_game(2, 3)
    for _ in range(30):
        h.apply(h.legal_actions()[-1])
    enc.encode(h, 0, out)
    np.testing.assert_array_equal(enc.encode(h, 0), out)
    np.testing.assert_array_equal(enc.encode(g, 0, out), first)
    np.testing.assert_array_equal(tensor.observation_tensor(g, 0), first)
    np.testing.assert_array_equal(tensor.action_mask(g), enc.action_mask(g))


def test_open_counters_stay_below_one():
    """Turns and decisions have no real bound: however long the game, they stay in [0, 1)
    and keep growing."""
    v = railspec.load("usa")
    enc = tensor.ObservationEncoder(v)
    state = v.new_game(2, 1).state()
    seen = []
    for n in (0, 100, 1000, 10**9):
        state["decisions"] = state["turn"] = n
        out = enc.fill(state, 0)
        seen.append(float(enc.spec.view(out, "decisions")[0]))
        assert 0.0 <= out.max() <= 1.0 and seen[-1] < 1.0
    assert seen == sorted(seen) and seen[0] == 0.0 and seen[-1] > 0.99


def test_docs_show_the_usa_layout():
    """docs/rl.md's table of USA's layout is the one observation_spec makes."""
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    start = text.index("<!-- usa observation layout:")
    start = text.index("\n", start) + 1
    written = text[start:text.index("<!-- end of usa observation layout -->")]
    assert written == tensor.observation_spec(railspec.load("usa")).markdown(), \
        "docs/rl.md's USA layout differs from observation_spec(usa).markdown(): paste the new table"


def _fill_from_plan(plan, phases, state, player):
    """A second, plain reading of layout_plan(): what a generated fill must compute."""
    players = state["players"]
    out = np.zeros(plan[-1]["start"] + plan[-1]["length"], dtype=np.float64)
    deciding = state["current"] == player and state["phase"] not in ("over", "setup_keep")
    for e in plan:
        value = state[e["field"]]
        if e["source"] == "decider" and not deciding:
            continue
        if e["source"] == "own":
            value = value[player]
        rows = [value[(player + rel) % players] for rel in range(players)] if e["per_player"] else [value]
        for rel, v in enumerate(rows):
            base = e["start"] + rel * e["block"]
            if e["source"] == "summary":
                v = len(v) if e["summary_of"] == "len" else sum(v)
            if e["shape"] == "length":
                v = len(v)
            enc = e["encoding"]
            if enc in ("number", "saturating", "flagged"):
                entries = v if e["shape"] == "row" else [v]
                for i, x in enumerate(entries):
                    if enc == "saturating":
                        out[base + i] = x / (x + e["open_scale"])
                    elif enc == "flagged":
                        out[base + 2 * i] = 1.0 if x < 0 else 0.0
                        out[base + 2 * i + 1] = 0.0 if x < 0 else x * e["scale"]
                    else:
                        scale = e["scale"][i] if isinstance(e["scale"], list) else e["scale"]
                        out[base + i] = x * scale
                continue

            def category(x, e=e, enc=enc):
                if enc == "phase":
                    return phases.index(x)
                if enc == "seat":
                    if x < 0:
                        return e["seats"] + e["extras"] if e["none"] else None
                    return (x - player) % players if x < players else e["seats"] + x - players
                if x < 0:
                    return e["ids"] if e["none"] else None
                return x
            if e["shape"] == "scalar":
                c = category(v)
                if c is not None:
                    out[base + c] = 1.0
            elif e["shape"] in ("row", "slots"):
                for i, x in enumerate(v):
                    c = category(x)
                    if c is not None:
                        out[base + i * e["categories"] + c] = 1.0
            else:  # counts
                for x in v:
                    c = category(x)
                    if c is not None:
                        out[base + c] += e["weights"][c] if "weights" in e else 1.0
    return out


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_layout_plan_is_the_encoder(v):
    """layout_plan() says everything a generated fill needs: read plainly, it gives the
    encoder's vector at every position."""
    plan = tensor.layout_plan(v)
    spec = tensor.observation_spec(v)
    assert [(e["slice"], e["start"], e["length"]) for e in plan] == [(s.name, s.start, s.length) for s in spec]
    enc = tensor.ObservationEncoder(v)
    for g in _positions(v, games=1, every=11):
        state = g.state()
        for p in range(g.players):
            np.testing.assert_allclose(_fill_from_plan(plan, v.assembly.phases, state, p), enc.fill(state, p),
                                       rtol=1e-6, atol=1e-7)


# --- the compiled fill (Game.observation_into, Game.action_mask_into) ----------------------

def _every_phase(v, every_turn: int = 9):
    """(game, state) at positions of random games at every table size of ``v``: every
    position outside the 'turn' phase (the rarer decisions: keeps, tunnels, stations,
    shares), every ``every_turn``-th turn, and the end."""
    for players in range(v.ir.min_players, v.ir.max_players + 1):
        g = v.new_game(players=players, seed=players)
        rng = SplitMix64(players + 100)
        step = 0
        while True:
            state = g.state()
            if state["phase"] != "turn" or step % every_turn == 0:
                yield g, state
            if g.is_over:
                break
            legal = g.legal_actions()
            g.apply(legal[rng.below(len(legal))])
            step += 1


def _assert_compiled_fill_is_the_python_fill(v) -> set:
    """At every position of _every_phase and every seat, the compiled fill writes the
    Python fill's floats exactly; returns the phases met."""
    enc = tensor.ObservationEncoder(v)
    out = enc.new_vector()
    phases = set()
    for g, state in _every_phase(v):
        assert g.engine == "compiled"
        phases.add(state["phase"])
        _assert_fills_agree(v, enc, out, g, state)
    # a phase random games never reach (the United Kingdom's Right of Way, costing more than
    # random play saves for): its first position in perft's games that seek it out
    for phase, state in rare_phases(v, set(v.assembly.phases) - phases, range(1, 40)).items():
        phases.add(phase)
        _assert_fills_agree(v, enc, out, v.game_from_state(state, engine="compiled"), state)
    return phases


def _assert_fills_agree(v, enc, out, g, state) -> None:
    """The compiled fill of every seat's observation of ``g`` (at ``state``) is the Python
    fill's, float for float."""
    for p in range(g.players):
        out.fill(np.nan)  # nothing of an earlier vector may survive
        assert g.observation_into(p, out) == enc.size
        expected = enc.fill(state, p)
        np.testing.assert_array_equal(out, expected, err_msg=f"{v.key} {state['phase']} player {p}")
        np.testing.assert_array_equal(enc.encode(g, p), expected)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_compiled_fill_is_the_python_fill(v):
    """The C fill generated into the engine module gives bit for bit the floats of
    ObservationEncoder.fill: every phase, every seat as observer, every table size."""
    assert _assert_compiled_fill_is_the_python_fill(v) == set(v.assembly.phases)
    assert v.module().OBSERVATION_SIZE == tensor.observation_spec(v).size


def test_compiled_fill_on_a_spec_compiled_at_run_time(tmp_path):
    """A user's spec gets the fill too: a random map with tunnels, stations and long
    tickets for 2 to 8 players (one test_random_specs builds, so the build cache has it)."""
    from test_random_specs import write_spec
    v = write_spec(tmp_path, 8, False, True, (2, 8))
    assert not v.module().__name__.startswith("railspec.generated.")
    phases = _assert_compiled_fill_is_the_python_fill(v)
    assert {"setup_keep", "turn", "over"} <= phases


@pytest.mark.parametrize("v", VARIANTS[:2], ids=IDS[:2])
def test_both_engines_fill_the_same_vector_and_mask(v):
    """Game.observation_into and Game.action_mask_into answer the same on either engine
    (the reference through the Python fill), and the mask is the legal list."""
    import array
    size = tensor.observation_spec(v).size
    a, b = np.zeros(size, np.float32), array.array("f", [7.0] * (size + 3))
    ma, mb = np.zeros(len(v.actions), np.int8), np.full(len(v.actions) + 2, 5, dtype=np.uint8)
    for g, state in _every_phase(v, every_turn=25):
        ref = v.game_from_state(state, engine="reference")
        for p in range(g.players):
            assert g.observation_into(p, a) == ref.observation_into(p, b) == size
            assert a.tobytes() == b.tobytes()[:4 * size]
            assert list(b[size:]) == [7.0] * 3  # past the vector: untouched
        legal = g.legal_actions()
        assert g.action_mask_into(ma) == ref.action_mask_into(mb) == len(legal)
        assert list(np.flatnonzero(ma)) == legal == list(np.flatnonzero(mb[:len(v.actions)]))
        assert list(mb[len(v.actions):]) == [5, 5]
        if g.is_over:
            assert ma.sum() == 0


def _refusal(call):
    with pytest.raises(railspec.RailspecError) as info:
        call()
    return type(info.value), str(info.value)


def test_buffer_misuse_is_refused_alike_by_both_engines():
    """A buffer the fill cannot write raises what legal_actions_into raises for one
    (ArgumentTypeError for its kind, ArgumentError when too short), the same on both
    engines, and nothing is written."""
    import array
    v = railspec.load("usa")
    size, n = tensor.observation_spec(v).size, len(v.actions)
    games = [v.new_game(3, 5), v.new_game(3, 5, engine="reference")]
    bad_vectors = {
        "a list": ([0.0] * size, railspec.ArgumentTypeError),
        "read-only bytes": (bytes(4 * size), railspec.ArgumentTypeError),
        "float64": (np.zeros(size), railspec.ArgumentTypeError),
        "int32": (np.zeros(size, np.int32), railspec.ArgumentTypeError),
        "strided": (np.zeros(2 * size, np.float32)[::2], railspec.ArgumentTypeError),
        "read-only": (np.zeros(size, np.float32), railspec.ArgumentTypeError),
        "too short": (np.zeros(size - 1, np.float32), railspec.ArgumentError),
        "too short array": (array.array("f", [0.0] * 3), railspec.ArgumentError),
    }
    bad_vectors["read-only"][0].flags.writeable = False
    for what, (buffer, error) in bad_vectors.items():
        answers = [_refusal(lambda g=g, buffer=buffer: g.observation_into(0, buffer)) for g in games]
        assert answers[0] == answers[1] and answers[0][0] is error, what
    for player, error in ((3, railspec.ArgumentError), (-1, railspec.ArgumentError), (1.0, railspec.ArgumentTypeError),
                          ("0", railspec.ArgumentTypeError), (True, railspec.ArgumentTypeError)):
        answers = [_refusal(lambda g=g, player=player: g.observation_into(player, np.zeros(size, np.float32)))
                   for g in games]
        assert answers[0] == answers[1] and answers[0][0] is error, player
    bad_masks = {
        "a list": ([0] * n, railspec.ArgumentTypeError),
        "read-only bytes": (bytes(n), railspec.ArgumentTypeError),
        "int32": (np.zeros(n, np.int32), railspec.ArgumentTypeError),
        "strided": (np.zeros(2 * n, np.int8)[::2], railspec.ArgumentTypeError),
        "too short": (np.zeros(n - 1, np.int8), railspec.ArgumentError),
    }
    for what, (buffer, error) in bad_masks.items():
        before = bytes(memoryview(buffer).cast("B")) if isinstance(buffer, np.ndarray) and buffer.flags.c_contiguous \
            else None
        answers = [_refusal(lambda g=g, buffer=buffer: g.action_mask_into(buffer)) for g in games]
        assert answers[0] == answers[1] and answers[0][0] is error, what
        if before is not None:
            assert bytes(memoryview(buffer).cast("B")) == before
    # a bytearray, a bool vector and an unsigned one are masks too
    for buffer in (bytearray(n), np.zeros(n, np.bool_), np.zeros(n, np.uint8)):
        assert games[0].action_mask_into(buffer) == len(games[0].legal_actions()) > 0


def test_encoder_falls_back_to_the_python_fill_for_a_strided_vector():
    """encode() on a compiled game writes any float32 vector of the right shape: one the
    engine cannot take (a strided view) is filled in Python, with the same floats."""
    v = railspec.load("europe")
    enc = tensor.ObservationEncoder(v)
    g = v.new_game(4, 2)
    for _ in range(40):
        g.apply(g.legal_actions()[0])
    backing = np.full(2 * enc.size, 9.0, dtype=np.float32)
    strided = backing[::2]
    enc.encode(g, 1, strided)
    np.testing.assert_array_equal(strided, enc.fill(g.state(), 1))
    assert (backing[1::2] == 9.0).all()
    mask = np.ones(2 * len(v.actions), dtype=np.int8)[::2]
    assert list(np.flatnonzero(enc.action_mask(g, mask))) == g.legal_actions()


def test_the_layout_and_the_emitter_need_no_numpy():
    """A core install (no numpy) still compiles specs: the emitter reads the layout from
    railspec.tensor, which imports without numpy. A compiled game fills any float32
    buffer then; the reference engine's fill, in Python, says it needs numpy."""
    import subprocess
    import sys
    code = ("import sys, warnings; sys.modules['numpy'] = None; warnings.simplefilter('ignore')\n"
            "import railspec\nfrom railspec.rl import tensor\nfrom railspec.compiler.emit import emit\n"
            "v = railspec.load('usa')\nsource = emit(v.ir)\n"
            "assert 'cdef void fill_observation' in source and tensor.np is None\n"
            "from array import array\nx = array('f', [0.0] * 877)\n"
            "assert v.new_game(2, 1).observation_into(1, x) == 877 and max(x) == 1.0\n"
            "try:\n    v.new_game(2, 1, engine='reference').observation_into(1, x)\n"
            "except ImportError as err:\n    assert err.name == 'numpy'\nelse:\n    raise AssertionError\n"
            "print(len(tensor.layout_plan(v)))")
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == len(tensor.observation_spec(railspec.load("usa")))
