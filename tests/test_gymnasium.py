"""A railspec variant as a single-agent Gymnasium environment (the gymnasium extra), every
stock variant that loads: Gymnasium's check_env, and the learner's seat against agents
(names or objects), the mask in info, rewards at the end, illegal actions, seeding."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from conftest import implemented_stock_variants  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import railspec  # noqa: E402
from railspec.playtest import agents
from railspec.rl import gymnasium as rg
from railspec.rl import tensor

VARIANTS = implemented_stock_variants()
IDS = [v.key for v in VARIANTS]


def _episode(env, seed, rng):
    obs, info = env.reset(seed=seed)
    steps, total = 0, 0.0
    while True:
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        steps += 1
        total += reward
        assert not truncated
        if terminated:
            return total, info, steps
        assert reward == 0.0


def test_the_module_is_the_real_gymnasium_underneath():
    """railspec.gymnasium imports the gymnasium package, not itself."""
    assert gymnasium.__name__ == "gymnasium" and rg.gymnasium is gymnasium
    assert issubclass(rg.RailspecEnv, gymnasium.Env)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_check_env(v):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # no spec when not made by gymnasium.make
        check_env(rg.make(v, players=v.ir.max_players, opponents=["random"] * (v.ir.max_players - 1)))


def test_check_env_through_the_registry():
    ids = rg.register()
    assert ids == [f"railspec/{v.key}-v0" for v in VARIANTS] or set(ids) == {f"railspec/{v.key}-v0" for v in VARIANTS}
    env = gymnasium.make("railspec/usa-v0", players=3, opponents=["greedy", "random"], render_mode="ansi")
    check_env(env.unwrapped)  # also renders in every declared mode through the spec
    assert rg.register() == ids  # again: harmless


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_episode_against_agents(v):
    """The observation is the learner's vector; the mask its legal actions; opponents
    play in between; the reward is the learner's score at the end."""
    players = v.ir.min_players + 1
    env = rg.make(v, players=players, opponents=["greedy"] + ["random"] * (players - 2), seat=1)
    enc = tensor.ObservationEncoder(v)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=3)
    while True:
        assert env.game.current_player == 1 == info["seat"]
        np.testing.assert_array_equal(obs, enc.encode(env.game, 1))
        assert list(np.flatnonzero(info["action_mask"])) == env.game.legal_actions()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated:
            break
    assert reward == float(env.game.scores()[1]) == float(info["scores"][1])
    assert info["winners"] == env.game.winners() and info["action_mask"].sum() == 0


def test_agent_objects_and_win_rewards():
    class FirstLegal:
        name = "first-legal"

        def __init__(self):
            self.calls = 0

        def act(self, game):
            self.calls += 1
            return game.legal_actions()[0]

    opponent = FirstLegal()
    env = rg.make("usa", players=2, opponents=[opponent], reward="win", seat="random")
    rng = np.random.default_rng(1)
    seats = set()
    for seed in range(6):
        total, info, _ = _episode(env, seed, rng)
        seats.add(info["seat"])
        winners = env.game.winners()
        assert total == (1.0 / len(winners) if env.seat in winners else 0.0)
    assert opponent.calls > 0 and seats == {0, 1}


def test_seeded_episodes_repeat():
    a = rg.make("usa", players=3, opponents=["one-step", "random"])
    b = rg.make("usa", players=3, opponents=["one-step", "random"])
    ra = _episode(a, 9, np.random.default_rng(2))
    rb = _episode(b, 9, np.random.default_rng(2))
    assert ra[0] == rb[0] and ra[2] == rb[2] and a.game.to_json() == b.game.to_json()
    a.reset(seed=9)
    first = a.game.to_json()
    a.reset()
    assert a.game.to_json() != first


def test_illegal_actions():
    v = railspec.load("usa")
    env = rg.make(v, players=2)
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game.to_json()
    obs2, reward, terminated, truncated, info2 = env.step(bad)
    assert reward == -1.0 and not terminated and info2["illegal_action"]
    assert env.game.to_json() == before
    np.testing.assert_array_equal(obs, obs2)

    env = rg.make(v, players=2, illegal="forfeit", illegal_reward=-50)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(bad)
    assert terminated and reward == -50.0 and info["illegal_action"]
    with pytest.raises(railspec.RailspecError):
        env.step(0)  # the episode is over

    env = rg.make(v, players=2, illegal="raise")
    env.reset(seed=0)
    with pytest.raises(railspec.IllegalActionError):
        env.step(bad)


def test_bad_options():
    with pytest.raises(railspec.RailspecError, match="opponents"):
        rg.make("usa", players=3, opponents=["random"])
    with pytest.raises(agents.AgentError):
        rg.make("usa", players=2, opponents=["no-such-agent"])
    with pytest.raises(railspec.RailspecError):
        rg.make("usa", players=2, opponents=[object()])
    with pytest.raises(railspec.RailspecError):
        rg.make("usa", players=2, seat=2)
    with pytest.raises(railspec.RailspecError):
        rg.make("usa", players=2, illegal="ignore")
    with pytest.raises(railspec.RailspecError):
        rg.make("usa", players=2, reward="money")
    with pytest.raises(railspec.RailspecError):
        rg.make("usa", players=2).step(0)  # before reset


def test_an_illegal_opponent_is_named():
    class Cheater:
        name = "cheater"

        def act(self, game):
            return 10**6

    env = rg.make("usa", players=2, opponents=[Cheater()], seat=1)
    with pytest.raises(railspec.RailspecError, match="cheater"):
        env.reset(seed=0)


def test_render_svg():
    env = rg.make("usa", players=2, render_mode="svg")
    env.reset(seed=1)
    assert env.render().startswith("<svg")
    assert rg.make("usa", players=2).render() is None


def _example():
    """examples/train_masked_pg.py, imported from its file."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "examples" / "train_masked_pg.py"
    spec = importlib.util.spec_from_file_location("train_masked_pg", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_gradients_are_the_objective_s():
    """The training example's hand-written backpropagation against finite differences."""
    pg = _example()
    rng = np.random.default_rng(0)
    policy = pg.Policy(inputs=6, actions=5, hidden=4, rng=rng)
    for k, w in policy.p.items():  # away from zero, so every path carries gradient
        policy.p[k] = rng.normal(0.0, 0.5, w.shape).astype(np.float64)
    X = rng.random((7, 6))
    M = (rng.random((7, 5)) < 0.6).astype(np.int8)
    M[:, 0] = 1
    A = np.array([int(rng.choice(np.flatnonzero(m))) for m in M])
    G = rng.normal(0.0, 1.0, 7)
    adv = policy.advantages(X, M, G)
    grads, _ = policy.gradients(X, M, A, G, adv, entropy=0.05)
    eps = 1e-6
    for k, w in policy.p.items():
        for index in list(np.ndindex(w.shape))[:12]:
            old = w[index]
            w[index] = old + eps
            up = policy.objective(X, M, A, G, adv, entropy=0.05)
            w[index] = old - eps
            down = policy.objective(X, M, A, G, adv, entropy=0.05)
            w[index] = old
            assert grads[k][index] == pytest.approx((up - down) / (2 * eps), rel=1e-4, abs=1e-7), (k, index)


def test_example_runs_and_reports(capsys):
    pg = _example()
    pg.main(["--players", "2", "--minutes", "0.01", "--eval-games", "2", "--batch", "2", "--report", "1"])
    out = capsys.readouterr().out
    assert "before training (sampling): win rate" in out and "after training (most likely action)" in out


def test_the_figures_in_docs_are_the_examples_output(capsys):
    """docs/rl.md's training table is the example's `--markdown` output, pasted: it names
    the command that printed it, and the table has the rows and columns the script prints
    (a short run of the same command here). The figures once went stale (2,464 games in 4
    minutes documented, 9,296 in 1 minute measured): a run bounded by games gives the same
    figures on any machine."""
    import re
    from pathlib import Path
    docs = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    command = re.search(r"`python examples/train_masked_pg\.py ([^`]*)`", docs)
    assert command and "--markdown" in command.group(1).split() and "--games" in command.group(1).split()
    documented = [line for line in docs.split("\n") if line.startswith("| ") and "win rate over" in line]
    assert len(documented) == 1
    table = docs[docs.index(documented[0]):].split("\n")[:5]

    pg = _example()
    pg.main(["--players", "4", "--games", "16", "--eval-games", "4", "--batch", "8", "--report", "100", "--markdown"])
    out = capsys.readouterr().out
    printed = out[out.index("\n", out.index("after training (most likely action)")):].strip().split("\n")

    def shape(lines):  # each row's label, numbers blanked
        return [re.sub(r"[\d,.]+", "N", line.split("|")[1]) for line in lines if line.startswith("|")]
    assert shape(table) == shape(printed)
