"""Misuse of the game API (issue 10, point 8): both engines answer a bad argument with the
same named error, a subclass of both RailspecError and ValueError or TypeError, and touch
nothing (no partial write into a buffer, no change to the game)."""
from __future__ import annotations

from array import array

import numpy as np
import pytest
from conftest import implemented_stock_variants

import railspec
from railspec.compiler.base.errors import ArgumentError, ArgumentTypeError, IllegalActionError, RailspecError

ENGINES = ["compiled", "reference"]
VARIANTS = implemented_stock_variants()
IDS = [v.key for v in VARIANTS]


class IntLike:
    """An integer-like object that is not an int (as a numpy integer is)."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


def game(v, engine, players=3):
    return v.new_game(players=players, seed=1, engine=engine)


# (label, call, error class); a call gets the variant and the engine name
MISUSE = [
    ("seed 7.5", lambda v, e: v.new_game(2, 7.5, e), ArgumentTypeError),
    ("seed 7.0", lambda v, e: v.new_game(2, 7.0, e), ArgumentTypeError),
    ("seed '7'", lambda v, e: v.new_game(2, "7", e), ArgumentTypeError),
    ("seed True", lambda v, e: v.new_game(2, True, e), ArgumentTypeError),
    ("seed None", lambda v, e: v.new_game(2, None, e), ArgumentTypeError),
    ("players 2.0", lambda v, e: v.new_game(2.0, 1, e), ArgumentTypeError),
    ("players '2'", lambda v, e: v.new_game("2", 1, e), ArgumentTypeError),
    ("players True", lambda v, e: v.new_game(True, 1, e), ArgumentTypeError),
    ("players 1", lambda v, e: v.new_game(1, 1, e), ArgumentError),
    ("players 99", lambda v, e: v.new_game(99, 1, e), ArgumentError),
    ("engine 'quantum'", lambda v, e: v.new_game(2, 1, "quantum"), ArgumentError),
    ("engine for a state", lambda v, e: v.game_from_json(game(v, e).to_json(), engine="quantum"), ArgumentError),
    ("games -1", lambda v, e: v.playout(-1, 2, 1, e), ArgumentError),
    ("games 2**31", lambda v, e: v.playout(2**31, 2, 1, e), ArgumentError),
    ("games 2**40", lambda v, e: v.playout(2**40, 2, 1, e), ArgumentError),
    ("games 2.0", lambda v, e: v.playout(2.0, 2, 1, e), ArgumentTypeError),
    ("games 2.5", lambda v, e: v.playout(2.5, 2, 1, e), ArgumentTypeError),
    ("games '2'", lambda v, e: v.playout("2", 2, 1, e), ArgumentTypeError),
    ("games True", lambda v, e: v.playout(True, 2, 1, e), ArgumentTypeError),
    ("playout seed 1.5", lambda v, e: v.playout(1, 2, 1.5, e), ArgumentTypeError),
    ("playout players 2.0", lambda v, e: v.playout(1, 2.0, 1, e), ArgumentTypeError),
    ("playout players 99", lambda v, e: v.playout(1, 99, 1, e), ArgumentError),
    ("playout engine", lambda v, e: v.playout(1, 2, 1, "quantum"), ArgumentError),
    ("longest_path 3 of 3", lambda v, e: game(v, e).longest_path(3), ArgumentError),
    ("longest_path -1", lambda v, e: game(v, e).longest_path(-1), ArgumentError),
    ("longest_path 1.0", lambda v, e: game(v, e).longest_path(1.0), ArgumentTypeError),
    ("longest_path True", lambda v, e: game(v, e).longest_path(True), ArgumentTypeError),
    ("longest_path '1'", lambda v, e: game(v, e).longest_path("1"), ArgumentTypeError),
    ("observation 3 of 3", lambda v, e: game(v, e).observation(3), ArgumentError),
    ("observation -1", lambda v, e: game(v, e).observation(-1), ArgumentError),
    ("observation 1.0", lambda v, e: game(v, e).observation(1.0), ArgumentTypeError),
    ("observation '1'", lambda v, e: game(v, e).observation("1"), ArgumentTypeError),
    ("observation True", lambda v, e: game(v, e).observation(True), ArgumentTypeError),
    ("action_name True", lambda v, e: game(v, e).action_name(True), IllegalActionError),
    ("action_name 1.0", lambda v, e: v.action_name(1.0), IllegalActionError),
    ("action_id 5", lambda v, e: v.action_id(5), IllegalActionError),
    ("action_id []", lambda v, e: v.action_id([]), IllegalActionError),
    ("apply True", lambda v, e: game(v, e).apply(True), IllegalActionError),
    ("apply 1.0", lambda v, e: game(v, e).apply(1.0), IllegalActionError),
    ("apply '3'", lambda v, e: game(v, e).apply("3"), IllegalActionError),
    ("apply None", lambda v, e: game(v, e).apply(None), IllegalActionError),
]


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("label,call,error", MISUSE, ids=[m[0] for m in MISUSE])
def test_misuse_is_the_same_named_error_in_both_engines(v, engine, label, call, error):
    with pytest.raises(error) as caught:
        call(v, engine)
    assert isinstance(caught.value, RailspecError)
    assert isinstance(caught.value, ValueError if error is not ArgumentTypeError else TypeError)


@pytest.mark.parametrize("label,call,error", MISUSE, ids=[m[0] for m in MISUSE])
def test_both_engines_give_the_same_message(usa, label, call, error):
    messages = []
    for engine in ENGINES:
        with pytest.raises(error) as caught:
            call(usa, engine)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] and messages[0]


def test_the_error_says_what_was_wrong(usa):
    with pytest.raises(ArgumentTypeError, match=r"seed is an integer.*7\.5"):
        usa.new_game(players=2, seed=7.5)
    with pytest.raises(ArgumentError, match="no player 3 in a 3-player game"):
        usa.new_game(players=3, seed=1).longest_path(3)
    with pytest.raises(ArgumentError, match="games"):
        usa.playout(games=-1, players=2, seed=1)


@pytest.mark.parametrize("engine", ENGINES)
def test_integer_like_arguments_are_accepted(usa, engine):
    """numpy integers and other __index__ objects stand for ints everywhere."""
    a = usa.new_game(players=IntLike(3), seed=np.int64(7), engine=engine)
    b = usa.new_game(players=3, seed=7, engine=engine)
    assert a.to_json() == b.to_json()
    assert a.longest_path(np.int32(2)) == b.longest_path(2)
    assert a.observation(IntLike(1)) == b.observation(1)
    assert usa.action_name(np.int64(5)) == usa.action_name(5)
    assert usa.playout(games=np.int64(2), players=np.int8(2), seed=IntLike(3), engine=engine) == \
        usa.playout(games=2, players=2, seed=3, engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_seeds_are_taken_modulo_two_to_the_64(usa, engine):
    assert usa.new_game(players=2, seed=-1, engine=engine).to_json() == \
        usa.new_game(players=2, seed=2**64 - 1, engine=engine).to_json()
    assert usa.new_game(players=2, seed=2**64 + 5, engine=engine).to_json() == \
        usa.new_game(players=2, seed=5, engine=engine).to_json()


def test_observation_of_a_finished_game_needs_a_player(usa):
    for engine in ENGINES:
        g = usa.new_game(players=2, seed=3, engine=engine)
        while not g.is_over:
            g.apply(g.legal_actions()[0])
        with pytest.raises(ArgumentError, match="over"):
            g.observation()
        assert g.observation(1)["hand"] == g.state()["hands"][1]


# --- legal_actions_into --------------------------------------------------------------------

BAD_BUFFERS = [
    ("list", lambda n: [0] * n, ArgumentTypeError),
    ("None", lambda n: None, ArgumentTypeError),
    ("int", lambda n: 5, ArgumentTypeError),
    ("bytes", lambda n: bytes(4 * n), ArgumentTypeError),
    ("bytearray", lambda n: bytearray(4 * n), ArgumentTypeError),
    ("array d", lambda n: array("d", [0] * n), ArgumentTypeError),
    ("array q", lambda n: array("q", [0] * n), ArgumentTypeError),
    ("array h", lambda n: array("h", [0] * n), ArgumentTypeError),
    ("read-only", lambda n: memoryview(array("i", [0] * n)).toreadonly(), ArgumentTypeError),
    ("numpy read-only", lambda n: _readonly(np.zeros(n, dtype=np.int32)), ArgumentTypeError),
    ("numpy int64", lambda n: np.zeros(n, dtype=np.int64), ArgumentTypeError),
    ("numpy strided", lambda n: np.zeros(2 * n, dtype=np.int32)[::2], ArgumentTypeError),
    ("too short", lambda n: array("i", [-7] * 2), ArgumentError),
    ("empty", lambda n: array("i"), ArgumentError),
]


def _readonly(a):
    a.flags.writeable = False
    return a


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("label,make,error", BAD_BUFFERS, ids=[b[0] for b in BAD_BUFFERS])
def test_bad_buffers_are_refused_without_a_partial_write(v, engine, label, make, error):
    g = game(v, engine)
    assert len(g.legal_actions()) > 2
    buffer = make(len(v.actions))
    before = bytes(memoryview(buffer)) if _is_buffer(buffer) else None
    with pytest.raises(error) as caught:
        g.legal_actions_into(buffer)
    assert "legal_actions_into" in str(caught.value) or "buffer" in str(caught.value)
    if before is not None:
        assert bytes(memoryview(buffer)) == before, "the buffer was written to"


def _is_buffer(obj) -> bool:
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("label,make,error", BAD_BUFFERS, ids=[b[0] for b in BAD_BUFFERS])
def test_bad_buffers_give_the_same_message_in_both_engines(usa, label, make, error):
    messages = []
    for engine in ENGINES:
        with pytest.raises(error) as caught:
            game(usa, engine).legal_actions_into(make(len(usa.actions)))
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


GOOD_BUFFERS = [
    ("array i", lambda n: array("i", [0] * n)),
    ("numpy int32", lambda n: np.zeros(n, dtype=np.int32)),
    ("numpy 2-d", lambda n: np.zeros((2, n), dtype=np.int32)),
    ("memoryview", lambda n: memoryview(array("i", [0] * n))),
    ("just long enough", None),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("label,make", GOOD_BUFFERS, ids=[b[0] for b in GOOD_BUFFERS])
def test_good_buffers_are_filled_alike(usa, engine, label, make):
    g = game(usa, engine)
    legal = g.legal_actions()
    buffer = array("i", [-7] * (len(legal) + 1)) if make is None else make(len(usa.actions))
    n = g.legal_actions_into(buffer)
    flat = memoryview(buffer).cast("B").cast("i")
    assert n == len(legal) and list(flat[:n]) == legal
    if make is None:
        assert flat[n] == -7, "written past the legal actions"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_finished_game_fills_nothing(usa, engine):
    g = usa.new_game(players=2, seed=3, engine=engine)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    assert g.legal_actions_into(array("i")) == 0


def test_the_errors_are_exported():
    assert railspec.ArgumentError is ArgumentError and railspec.ArgumentTypeError is ArgumentTypeError


@pytest.mark.parametrize("text", ["[" * 100_000, '{"rng": ' + "9" * 5000 + "}", '{"rng": NaN}', "{", 5, None])
@pytest.mark.parametrize("engine", ENGINES)
def test_unreadable_state_text_is_a_state_error(usa, engine, text):
    with pytest.raises(railspec.StateError):
        usa.game_from_json(text, engine=engine)
