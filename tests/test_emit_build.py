"""The emit and build stages: deterministic, escaped generated source; the committed
generated/*.pyx up to date; the build cache; and a smoke test of the compiled module's own
interface (docs/engine.md). The action-by-action comparison with the reference interpreter
lives in test_differential.py."""
from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import subprocess
import sys
from array import array
from pathlib import Path

import pytest

from railspec.compiler import build as build_stage
from railspec.compiler import check_file, stock_names, stock_path
from railspec.compiler.base.errors import IllegalActionError, RailspecError, UnsupportedMechanicError
from railspec.compiler.build import build
from railspec.compiler.emit import c_string, check_gray_steps, emit, py_literal, source_hash
from railspec.compiler.mechanic import default_registry
from railspec.mechanics.tunnels import Tunnels

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
REGENERATE = "python -m railspec.compiler.emit"

PAYLOAD = "x\"); import os; os.system('echo pwned') #"
TRIPLE = 'back\\slash """ triple\\n'
SNOWMAN = "Dëlta ☃"


def _q(name: str) -> str:
    """A spec's quoted string for ``name`` (the grammar escapes \\ and ")."""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tiny_spec(extra_route_attr: str = "") -> str:
    """Four cities, three of them named to break naive code generation."""
    a, x, t, d = "Alpha", _q(PAYLOAD), _q(TRIPLE), _q(SNOWMAN)
    return f"""# a tiny map whose names try to escape into the generated code
variant "Tiny \\"quoted\\" map"
players 2..4
trains 12
hand 4
card red 12
card blue 12
locomotives 6
market 5 reset 3 locomotives
deal tickets 3 keep 1
action draw cards 2
action claim route
action draw tickets 2 keep 1
tracks usable 1 for 2..3 players
end when trains <= 2
route points 1:1 2:2 3:4 4:7
longest path 10
city {a}
city {x}
city {t}
city {d}
route {a} - {x} 2 red
route {a} - {x} 2 blue
route {x} - {t} 3 gray{extra_route_attr}
route {t} - {d} 4 gray
route {a} - {d} 1 gray
route {a} - {t} 3 blue
ticket {a} - {d} 5
ticket {a} - {t} 6
ticket {x} - {d} 7
ticket {a} - {x} 4
ticket {x} - {t} 3
ticket {t} - {d} 5
ticket {a} - {d} 8
ticket {x} - {a} 2
ticket {d} - {x} 9
ticket {t} - {a} 9
ticket {a} - {t} 11
ticket {d} - {t} 12
"""


@pytest.fixture(scope="module")
def usa():
    return check_file(stock_path("usa"))


@pytest.fixture(scope="module")
def usa_module(usa, tmp_path_factory):
    """The USA engine: the installed stock module when current, else built here."""
    return build(usa, emit(usa), cache_dir=tmp_path_factory.mktemp("usa-cache"))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiny") / "tiny.rail"
    path.write_text(tiny_spec(), encoding="utf-8")
    return check_file(path)


# --- emit ---------------------------------------------------------------------------

def test_emit_is_deterministic(usa):
    assert emit(usa) == emit(usa)
    assert emit(usa) == emit(check_file(stock_path("usa")))


def test_emit_does_not_depend_on_hash_seed():
    code = ("import hashlib; from railspec.compiler import check_file, stock_names, stock_path; "
            "from railspec.compiler.emit import emit; "
            "print(hashlib.sha256(emit(check_file(stock_path('usa'))).encode()).hexdigest())")
    digests = set()
    for seed in ("0", "1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1


def test_header(usa):
    source = emit(usa)
    lines = source.splitlines()
    assert lines[0] == "# generated from spec/usa.rail — do not edit"
    assert lines[1] == f"# spec hash: {usa.spec_hash}"
    assert lines[2] == "# mechanics: multi_track, longest_path"
    assert lines[3] == f"# source hash: {source_hash(source)}"
    assert any(line.startswith("# cython: language_level=3") for line in lines[:6])


def test_source_hash_is_a_hash_of_the_text(usa, tiny):
    """The header's hash changes with any change of the text, and only then."""
    a, b = emit(usa), emit(tiny)
    assert source_hash(a) != source_hash(b)
    assert f'RS_SOURCE_HASH[] = "{source_hash(a)}";' in a
    placeholder = a.replace(source_hash(a), "@SOURCE-HASH@")
    assert hashlib.sha256(placeholder.encode()).hexdigest()[:16] == source_hash(a)


@pytest.mark.parametrize("pyx", sorted(GENERATED.glob("*.pyx")), ids=lambda p: p.stem)
def test_committed_generated_source_is_current(pyx):
    variant = check_file(stock_path(pyx.stem))
    fresh = emit(variant)
    assert pyx.read_text(encoding="utf-8") == fresh, (
        f"generated/{pyx.name} is stale: regenerate it with `{REGENERATE}` and commit it")


@pytest.mark.parametrize("name", stock_names())
def test_every_supported_stock_spec_is_generated(name):
    try:
        emit(check_file(stock_path(name)))
    except UnsupportedMechanicError:
        pytest.skip(f"the compiled engine does not support {name} yet")
    assert (GENERATED / f"{name}.pyx").is_file(), f"generated/{name}.pyx is missing: run `{REGENERATE}`"


def test_py_literal_round_trips():
    for text in (PAYLOAD, TRIPLE, SNOWMAN, "a\nb\r\u2028c", '"""', "'''", "\\", "\U0001F682 emoji"):
        literal = py_literal(text)
        assert literal.isascii() and "\n" not in literal and "\r" not in literal
        assert eval(literal) == text  # noqa: S307 - the point of the test


def test_spec_names_never_reach_the_source(tiny):
    source = emit(tiny)
    for name in (PAYLOAD, TRIPLE, SNOWMAN, "pwned", "Alpha", "Tiny"):
        assert name not in source
    # the variant key reaches it, only as a C string in the numbers block
    assert 'RS_VARIANT_KEY[] = "tiny";' in source


def test_variant_key_is_escaped(tmp_path):
    weird = tmp_path / "we'ird\"key.rail"
    weird.write_text(tiny_spec(), encoding="utf-8")
    variant = check_file(weird)
    source = emit(variant)
    assert source.splitlines()[0] == "# generated from spec/we\\'ird\"key.rail — do not edit"
    assert f"RS_VARIANT_KEY[] = {c_string(variant.key)};" in source
    assert c_string(variant.key) == "{" + ", ".join(str(b) for b in variant.key.encode() + b"\0") + "}"


def test_c_strings_hold_no_escape():
    """A C string of the numbers block sits in a Cython string literal in one form of the
    module and in a C header in the other: it is plain text or a list of bytes."""
    assert c_string("usa_2") == '"usa_2"'
    for text in (PAYLOAD, TRIPLE, SNOWMAN, "a\\b", "what??=", 'say "hi"'):
        assert c_string(text) == "{" + ", ".join(str(b) for b in text.encode("utf-8") + b"\0") + "}"


def test_unsupported_mechanics_are_refused(tmp_path):
    path = tmp_path / "tunnels.rail"
    text = tiny_spec(" tunnel")
    path.write_text(text, encoding="utf-8")
    tunnel_line = next(i for i, line in enumerate(text.splitlines(), 1) if line.endswith(" tunnel"))
    assert "tunnels" in check_file(path).mechanics

    # every stock mechanic is implemented: a registry whose tunnels are still a draft
    class DraftTunnels(Tunnels):
        implemented = False
    variant = check_file(path, default_registry().replacing(DraftTunnels()))
    with pytest.raises(UnsupportedMechanicError, match="the compiled engine does not implement tunnels yet") as err:
        emit(variant)
    assert err.value.span is not None and err.value.span.line == tunnel_line


# --- build --------------------------------------------------------------------------

def test_injection_spec_builds_and_plays(tiny, tmp_path):
    module = build(tiny, emit(tiny), cache_dir=tmp_path)
    assert module.VARIANT_KEY == "tiny" and module.SPEC_HASH == tiny.spec_hash
    assert module.N_ACTIONS == len(tiny.actions)
    result = module.playout(5, 3, 11)
    assert len(result["totals"]) == 5 and all(len(row) == 3 for row in result["totals"])
    game = module.Engine(2, 3)
    rng = random.Random(0)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))


BUILD_SCRIPT = """
import json, sys
from railspec.compiler import check_file
from railspec.compiler import build as stage
from railspec.compiler.emit import emit
v = check_file(sys.argv[1])
m = stage.build(v, emit(v), cache_dir=sys.argv[2])
print(json.dumps([stage.last_build_kind, stage.last_build_was_cached, m.__name__,
                  m.playout(2, 2, 5)["totals"], "Cython" in sys.modules]))
"""


def test_second_build_is_a_cache_hit(tmp_path):
    spec = tmp_path / "cached.rail"
    spec.write_text(tiny_spec(), encoding="utf-8")
    cache = tmp_path / "cache"

    def run():
        out = subprocess.run([sys.executable, "-c", BUILD_SCRIPT, str(spec), str(cache)],
                             capture_output=True, text=True, check=True)
        return json.loads(out.stdout)
    kind1, cached1, name1, totals1, _ = run()
    kind2, cached2, name2, totals2, cython_loaded = run()
    assert (kind1, cached1) == ("compiled", False)
    assert (kind2, cached2) == ("cache", True)
    assert name1 == name2 and totals1 == totals2
    assert not cython_loaded, "a cache hit must not import Cython"
    entries = [p for p in cache.iterdir() if p.name != "translations"]
    assert len(entries) == 1 and not entries[0].name.startswith(".tmp")
    # in the same process, a second build returns the loaded module
    v = check_file(spec)
    first = build(v, emit(v), cache_dir=cache)
    assert build_stage.last_build_was_cached
    assert build(v, emit(v), cache_dir=cache) is first
    assert build_stage.last_build_kind == "loaded"


def test_a_changed_spec_gets_its_own_entry(tmp_path):
    spec = tmp_path / "changed.rail"
    spec.write_text(tiny_spec().replace("longest path 10", "longest path 12"), encoding="utf-8")
    v = check_file(spec)
    from railspec.compiler.build import cache_key
    other = tmp_path / "other.rail"
    other.write_text(tiny_spec(), encoding="utf-8")
    assert cache_key(v, emit(v)) != cache_key(check_file(other), emit(check_file(other)))


def test_compiler_failure_leaves_no_cache_entry(tiny, tmp_path):
    broken = emit(tiny) + "\ncdef int broken = this_name_does_not_exist\n"
    with pytest.raises(RailspecError, match="cython failed"):
        build(tiny, broken, cache_dir=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_stock_module_is_used_when_current(usa):
    try:
        import railspec.generated.usa as stock
    except ImportError:
        pytest.skip("the stock module is not built (pip install -e .)")
    if stock.SOURCE_HASH != source_hash(emit(usa)) or stock.SPEC_HASH != usa.spec_hash:
        pytest.skip("the installed stock module is stale: reinstall with pip install -e .")
    assert build(usa, emit(usa)) is stock
    assert build_stage.last_build_kind == "stock"


# --- the compiled module's interface ------------------------------------------------

STATE_KEYS = ["format", "variant", "spec_hash", "players", "seed", "rng", "phase", "current", "turn",
              "decisions", "final_turns", "passes", "deck", "discard", "faceup", "ticket_deck", "offer",
              "offer_keep", "owner", "hands", "trains", "route_score", "tickets", "setup_offer"]
BREAKDOWN_KEYS = ["routes", "tickets", "tickets_completed", "longest_path", "longest_bonus", "total"]


def test_module_constants(usa, usa_module):
    assert usa_module.VARIANT_KEY == "usa"
    assert usa_module.SPEC_HASH == usa.spec_hash
    assert usa_module.SOURCE_HASH == source_hash(emit(usa))
    assert usa_module.N_ACTIONS == len(usa.actions)


def test_a_whole_random_game(usa, usa_module):
    game = usa_module.Engine(4, 7)
    assert game.players == 4 and game.current_player == 0 and not game.is_over
    state = game.export_state()
    assert list(state) == STATE_KEYS
    assert state["phase"] == "setup_keep" and state["rng"] >= 0 and state["seed"] == 7
    buffer = array("i", [0] * usa_module.N_ACTIONS)
    rng = random.Random(7)
    while not game.is_over:
        legal = game.legal_actions()
        assert legal and legal == sorted(set(legal))
        n = game.legal_actions_into(buffer)
        assert list(buffer[:n]) == legal
        game.apply(rng.choice(legal))
    assert game.current_player == -1 and game.legal_actions() == []
    assert game.export_state()["phase"] == "over"
    breakdown = game.score_breakdown()
    assert len(breakdown) == 4 and all(list(row) == BREAKDOWN_KEYS for row in breakdown)
    for row in breakdown:
        assert row["total"] == row["routes"] + row["tickets"] + row["longest_bonus"]
    json.dumps(game.export_state())


def test_illegal_actions_leave_the_state_alone(usa_module):
    game = usa_module.Engine(3, 99)
    rng = random.Random(3)
    for _ in range(40):
        legal = game.legal_actions()
        before = game.export_state()
        illegal = next(a for a in range(usa_module.N_ACTIONS) if a not in legal)
        for bad in (illegal, -1, usa_module.N_ACTIONS, 10 ** 30, "1", 1.0, True, None):
            with pytest.raises(IllegalActionError):
                game.apply(bad)
            assert game.export_state() == before
        game.apply(rng.choice(legal))


def test_copy_is_independent(usa_module):
    game = usa_module.Engine(4, 5)
    twin = game.copy()
    assert twin.export_state() == game.export_state()
    rng = random.Random(1)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    assert twin.export_state() != game.export_state()
    assert twin.export_state() == usa_module.Engine(4, 5).export_state()
    assert copy.deepcopy(game).export_state() == game.export_state()


def test_from_state_round_trips(usa_module):
    game = usa_module.Engine(5, 2 ** 64 + 3)  # seeds are taken modulo 2^64
    assert game.export_state()["seed"] == 3
    rng = random.Random(2)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    state = game.export_state()
    again = usa_module.Engine.from_state(json.loads(json.dumps(state)))
    assert again.export_state() == state
    assert again.legal_actions() == game.legal_actions()
    a = rng.choice(game.legal_actions())
    game.apply(a)
    again.apply(a)
    assert again.export_state() == game.export_state()


@pytest.mark.parametrize("field, value", [("deck", [0] * 500), ("owner", [9] * 100), ("phase", "lunch"),
                                          ("rng", -1), ("hands", [[0] * 9]), ("spec_hash", "nope")])
def test_from_state_refuses_what_does_not_fit(usa_module, field, value):
    state = usa_module.Engine(4, 1).export_state()
    state[field] = value
    with pytest.raises(ValueError):
        usa_module.Engine.from_state(state)


def test_legal_actions_into_checks_the_buffer(usa_module):
    game = usa_module.Engine(2, 1)
    with pytest.raises(TypeError):
        game.legal_actions_into(array("d", [0.0] * usa_module.N_ACTIONS))
    with pytest.raises((TypeError, BufferError)):
        game.legal_actions_into(b"\0" * 4 * usa_module.N_ACTIONS)
    small = array("i", [0] * 10)
    assert game.legal_actions_into(small) == len(game.legal_actions())


def test_playout_shape_and_determinism(usa_module):
    a = usa_module.playout(20, 4, 1)
    assert list(a) == ["totals", "routes", "tickets", "tickets_completed", "longest_path", "longest_bonus",
                       "decisions", "turns", "stalled"]
    assert a == usa_module.playout(20, 4, 1)
    assert len(a["totals"]) == 20 and all(len(row) == 4 for row in a["totals"])
    assert all(isinstance(s, bool) for s in a["stalled"])
    # game i of a playout is game 0 of a playout seeded seed + i
    b = usa_module.playout(1, 4, 1 + 7)
    assert all(b[key][0] == a[key][7] for key in a)
    # the same game played through the Python interface
    game = usa_module.Engine(4, 8)
    agent = _SplitMix(8 ^ 0xD1B54A32D192ED03)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[agent.below(len(legal))])
    assert [row["total"] for row in game.score_breakdown()] == a["totals"][7]
    assert game.export_state()["decisions"] == a["decisions"][7]
    assert game.export_state()["turn"] == a["turns"][7]


class _SplitMix:
    """docs/engine.md's generator, written out again here."""

    def __init__(self, state):
        self.state = state % 2 ** 64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) % 2 ** 64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2 ** 64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2 ** 64
        return z ^ (z >> 31)

    def below(self, n):
        limit = 2 ** 64 - 2 ** 64 % n
        while True:
            r = self.next()
            if r < limit:
                return r % n


def test_pass_and_stall_counters_reach_the_playout(tiny, tmp_path):
    module = build(tiny, emit(tiny), cache_dir=tmp_path)
    result = module.playout(30, 4, 3)
    # the tiny map runs out of routes long before trains: random games stall
    assert any(result["stalled"])
    assert hashlib.sha256(json.dumps(result).encode()).hexdigest() == \
        hashlib.sha256(json.dumps(module.playout(30, 4, 3)).encode()).hexdigest()


@pytest.mark.parametrize("returns", ["", "returned tickets shuffled bottom\n",
                                     "returned tickets shuffled bottom\nreturned setup bottom\n",
                                     "returned setup shuffled bottom\n"])
def test_tiny_maps_agree_with_the_reference(returns, tmp_path):
    """Paths the USA map rarely takes (stalls, empty decks, shuffled returns), checked
    decision by decision against the reference interpreter."""
    reference = pytest.importorskip("railspec.runtime.reference")
    path = tmp_path / "tinyret.rail"
    path.write_text(tiny_spec() + returns, encoding="utf-8")
    variant = check_file(path)
    module = build(variant, emit(variant), cache_dir=tmp_path / "cache")
    for seed in range(12):
        players = 2 + seed % 3
        game = module.Engine(players, seed)
        ref = reference.ReferenceEngine(variant, players, seed)
        rng = random.Random(seed)
        while True:
            assert game.export_state() == ref.export_state()
            assert game.legal_actions() == ref.legal_actions()
            assert game.score_breakdown() == ref.score_breakdown()
            if game.is_over:
                break
            action = rng.choice(game.legal_actions())
            game.apply(action)
            ref.apply(action)
    assert module.playout(6, 3, 9) == reference.playout(variant, 6, 3, 9)


# --- the claim layout's blocks (a spec with wave spaces: mechanics/ferry_cards/tests/) ---

def test_the_gray_step_layout_is_checked(usa):
    """The compiled claims read a gray step's ids as step start + colour: the emitter
    refuses a layout where the colours are not in that order."""
    layout, actions, colours = usa.claim_layout, usa.actions, len(usa.colours)
    check_gray_steps(layout, actions, colours)
    gray = next(b for b in layout.blocks if b.choices > 1)
    swapped = list(actions)
    swapped[gray.start], swapped[gray.start + 1] = actions[gray.start + 1], actions[gray.start]
    with pytest.raises(ValueError, match="gray step lists the colours in order"):
        check_gray_steps(layout, swapped, colours)
