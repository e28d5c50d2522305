"""railspec variants as OpenSpiel games (the openspiel extra), every stock variant that loads.

OpenSpiel's own checks (``random_sim_test``), its Python MCTS and IS-MCTS bots, and the
pieces railspec adds: tensors from the observation layout, determinized resampling,
seeded deals and terminal rewards. The long run (100 IS-MCTS games against random on
USA) is ``RAILSPEC_OPENSPIEL_GAMES=100``; the suite plays 5.
"""
from __future__ import annotations

import os
import pickle
import shutil
import warnings

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from conftest import implemented_stock_variants  # noqa: E402

import railspec  # noqa: E402
from railspec.rl import openspiel as ros
from railspec.rl import tensor

VARIANTS = implemented_stock_variants()
IDS = [v.key for v in VARIANTS]
ros.register()


def _random_play(state, rng, limit=None):
    steps = 0
    while not state.is_terminal() and (limit is None or steps < limit):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randint(len(legal))])
        steps += 1
    return state


def test_register_names_every_stock_variant():
    names = ros.register()
    assert set(names) == {f"railspec_{v.key}" for v in VARIANTS}
    assert set(names) <= set(pyspiel.registered_names())
    assert ros.register(railspec.load("usa")) == ["railspec_usa"]  # again: harmless
    assert ros.register("usa") == ["railspec_usa"]


def test_another_spec_under_a_taken_name_is_refused(tmp_path):
    """A user's spec whose key is taken by a different spec cannot be registered."""
    from railspec.compiler import stock_path
    text = stock_path("usa").read_text(encoding="utf-8")
    path = tmp_path / "usa.rail"
    path.write_text(text.replace("trains 45", "trains 44", 1), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        other = railspec.load(path)
    assert other.spec_hash != railspec.load("usa").spec_hash
    with pytest.raises(railspec.RailspecError, match="registered already"):
        ros.register(other)


def test_a_user_spec_registers_under_its_key(tmp_path):
    from railspec.compiler import stock_path
    path = tmp_path / "usa_small_trains.rail"
    shutil.copy(stock_path("usa"), path)
    text = path.read_text(encoding="utf-8").replace("trains 45", "trains 20", 1)
    path.write_text(text, encoding="utf-8")
    v = railspec.load(path)
    assert ros.register(v) == ["railspec_usa_small_trains"]
    game = pyspiel.load_game("railspec_usa_small_trains", {"players": 3})
    # (no state is dealt: that would compile the spec's engine, seconds of C compiling)
    assert game.get_type().long_name == f"railspec {v.name}" and game.num_players() == 3
    assert ros.registered()["railspec_usa_small_trains"] is v


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_game_type_and_parameters(v):
    name = f"railspec_{v.key}"
    game = pyspiel.load_game(name, {"players": v.ir.max_players})
    gt = game.get_type()
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC  # chance lives in the state
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert gt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (gt.min_num_players, gt.max_num_players) == (v.ir.min_players, v.ir.max_players)
    assert game.num_players() == v.ir.max_players
    assert game.num_distinct_actions() == len(v.actions)
    size = tensor.observation_spec(v).size
    assert game.observation_tensor_shape() == [size] == game.information_state_tensor_shape()
    assert pyspiel.load_game(name).num_players() == v.ir.min_players  # the default table
    with pytest.raises(ValueError, match="players"):
        pyspiel.load_game(name, {"players": v.ir.max_players + 1})
    with pytest.raises(railspec.RailspecError, match="reward"):
        pyspiel.load_game(name, {"reward": "money"})


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_random_sim_test(v):
    """OpenSpiel's own consistency checks over random games, serialization included: the
    game and state are saved and read back along the way and must be the same."""
    game = pyspiel.load_game(f"railspec_{v.key}", {"players": 3, "seed": 5})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_a_checkpoint_plays_on_as_the_original(v):
    """A game and state saved mid-game with pyspiel.serialize_game_and_state (and pickle)
    and read back play on exactly as the original: the state JSON carries the generator,
    so the same actions draw the same cards."""
    game = pyspiel.load_game(f"railspec_{v.key}", {"players": 3, "seed": 11})
    state = game.new_initial_state()
    rng = np.random.default_rng(11)
    for _ in range(60):
        state.apply_action(int(rng.choice(state.legal_actions())))
    copies = [pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
              pickle.loads(pickle.dumps(state))]
    for copy in copies:
        assert copy.history() == state.history() and copy.game.to_json() == state.game.to_json()
    while not state.is_terminal():
        action = int(rng.choice(state.legal_actions()))
        for s in [state, *copies]:
            s.apply_action(action)
    assert all(c.game.to_json() == state.game.to_json() and c.returns() == state.returns() for c in copies)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_tensors_are_the_observation_layout(v):
    game = pyspiel.load_game(f"railspec_{v.key}", {"players": v.ir.min_players + 1, "seed": 2})
    enc = tensor.ObservationEncoder(v)
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    for _ in range(6):
        for p in range(game.num_players()):
            expect = enc.encode(state.game, p)
            np.testing.assert_array_equal(np.asarray(state.observation_tensor(p), dtype=np.float32), expect)
            np.testing.assert_array_equal(np.asarray(state.information_state_tensor(p), dtype=np.float32), expect)
            assert state.observation_string(p) == state.information_state_string(p)
        _random_play(state, rng, limit=9)


def test_public_observer_leaves_out_private_slices():
    from open_spiel.python.observation import make_observation
    v = railspec.load("usa")
    game = pyspiel.load_game("railspec_usa", {"players": 3, "seed": 1})
    state = game.new_initial_state()
    _random_play(state, np.random.RandomState(1), limit=20)
    spec = tensor.observation_spec(v)
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 0)
    names = set(public.dict)
    assert "hand" not in names and "tickets" not in names and "owner" in names and "hand_sizes" in names
    assert names == {s.name for s in spec if not s.private}
    full = tensor.ObservationEncoder(v).encode(state.game, 0)
    np.testing.assert_array_equal(public.dict["owner"].reshape(-1), spec.view(full, "owner").reshape(-1))
    public_part = np.concatenate([full[s.start:s.stop] for s in spec if not s.private])
    np.testing.assert_array_equal(public.tensor, public_part)
    assert "| hand " not in public.string_from(state, 0) and "| hand_sizes " in public.string_from(state, 0)
    with pytest.raises(railspec.RailspecError, match="ALL_PLAYERS"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_returns_are_terminal_scores_within_the_bounds(v):
    for reward in ("score", "win"):
        game = pyspiel.load_game(f"railspec_{v.key}", {"players": v.ir.max_players, "seed": 3, "reward": reward})
        for k in range(2):
            state = game.new_initial_state()
            assert state.returns() == [0.0] * game.num_players()
            _random_play(state, np.random.RandomState(k))
            returns = state.returns()
            assert state.rewards() == returns
            assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
            if reward == "score":
                assert returns == [float(s) for s in state.game.scores()]
            else:
                winners = state.game.winners()
                assert sum(returns) == pytest.approx(1.0)
                assert [p for p, r in enumerate(returns) if r > 0] == winners


def test_seeded_games_and_clones():
    """A seed gives the same sequence of games; clones neither spend a seed nor share the
    engine, and replay the same draws."""
    a = pyspiel.load_game("railspec_usa", {"players": 3, "seed": 9})
    b = pyspiel.load_game("railspec_usa", {"players": 3, "seed": 9})
    first = a.new_initial_state()
    for _ in range(3):
        first.clone()
    second_a = a.new_initial_state()
    b.new_initial_state()
    second_b = b.new_initial_state()
    assert second_a.game.to_json() == second_b.game.to_json()
    assert first.game.to_json() != second_a.game.to_json()
    c = pyspiel.load_game("railspec_usa", {"players": 3, "seed": 10}).new_initial_state()
    assert c.game.to_json() != first.game.to_json()

    state = a.new_initial_state()
    _random_play(state, np.random.RandomState(0), limit=15)
    twin = state.clone()
    assert twin.history() == state.history() and twin.game is not state.game
    rng1, rng2 = np.random.RandomState(4), np.random.RandomState(4)
    _random_play(twin, rng1)
    assert not state.is_terminal()
    _random_play(state, rng2)
    assert twin.game.to_json() == state.game.to_json()


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_resample_from_infostate(v):
    """A resampled state shows the player the same information state, and redraws what
    they cannot see."""
    game = pyspiel.load_game(f"railspec_{v.key}", {"players": v.ir.min_players, "seed": 4})
    state = game.new_initial_state()
    _random_play(state, np.random.RandomState(4), limit=25)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    decks = set()
    for _ in range(6):
        world = state.resample_from_infostate(player, sampler)
        assert isinstance(world, ros.RailspecState)
        assert world.information_state_string(player) == state.information_state_string(player)
        np.testing.assert_array_equal(world.information_state_tensor(player), state.information_state_tensor(player))
        assert world.legal_actions() == state.legal_actions()
        decks.add(tuple(world.game.state()["deck"]))
    assert len(decks) > 1
    # a fixed sampler gives the same world
    draws = iter([0.25, 0.5, 0.75, 0.125] * 2)
    w1 = state.resample_from_infostate(player, lambda: next(draws))
    w2 = state.resample_from_infostate(player, lambda: next(draws))
    assert w1.game.to_json() == w2.game.to_json()


def test_mcts_bot_plays_a_full_game():
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots import uniform_random
    game = pyspiel.load_game("railspec_usa", {"players": 2, "seed": 1, "reward": "win"})
    bots = [mcts.MCTSBot(game, 1.4, 4, ros.RolloutEvaluator(seed=1), solve=False,
                         random_state=np.random.RandomState(1)),
            uniform_random.UniformRandomBot(1, np.random.RandomState(2))]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == pytest.approx(1.0)


def test_ismcts_against_random():
    """IS-MCTS (OpenSpiel's Python bot) against random on USA: every game ends without an
    error. RAILSPEC_OPENSPIEL_GAMES sets how many (100 in the long run, 5 here). Four
    simulations a move keep it affordable; that is too few to play well, so only the
    plumbing is checked."""
    from open_spiel.python.algorithms import ismcts
    from open_spiel.python.bots import uniform_random
    games = int(os.environ.get("RAILSPEC_OPENSPIEL_GAMES", "5"))
    game = pyspiel.load_game("railspec_usa", {"players": 2, "seed": 100, "reward": "win"})
    for k in range(games):
        searcher = ismcts.ISMCTSBot(game, ros.RolloutEvaluator(seed=k), uct_c=1.0, max_simulations=4,
                                    random_state=np.random.RandomState(k))
        seat = k % 2  # the searcher's seat, alternating
        bots = [None, None]
        bots[seat] = searcher
        bots[1 - seat] = uniform_random.UniformRandomBot(1 - seat, np.random.RandomState(1000 + k))
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        returns = state.returns()
        assert sum(returns) == pytest.approx(1.0) and set(returns) <= {0.0, 0.5, 1.0}
        assert state.game.is_over and state.history()  # the whole game went through OpenSpiel


def test_rollout_evaluator():
    game = pyspiel.load_game("railspec_usa", {"players": 2, "seed": 1, "reward": "win"})
    state = game.new_initial_state()
    ev = ros.RolloutEvaluator(rollouts=4, seed=3)
    value = ev.evaluate(state)
    assert value.shape == (2,) and value.sum() == pytest.approx(1.0)
    assert not state.is_terminal() and state.game.state()["decisions"] == 0
    prior = ev.prior(state)
    assert [a for a, _ in prior] == state.legal_actions()
    assert sum(p for _, p in prior) == pytest.approx(1.0)
    again = ros.RolloutEvaluator(rollouts=4, seed=3).evaluate(state)
    np.testing.assert_array_equal(value, again)


def test_observation_text_names_routes_and_tickets():
    game = pyspiel.load_game("railspec_usa", {"players": 2, "seed": 6})
    state = game.new_initial_state()
    _random_play(state, np.random.RandomState(6), limit=80)
    text = state.observation_string(0)
    g = state.game
    obs = g.observation(0)
    for t in obs["tickets"]:
        assert g.variant.tickets[t].name in text
    for r, o in enumerate(obs["owner"]):
        if o >= 0:
            assert f"{g.variant.routes[r].name}:{o}" in text
    assert str(state).startswith("USA") or g.variant.name in str(state)
