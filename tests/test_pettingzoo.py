"""railspec variants as PettingZoo AEC environments (the pettingzoo extra), every stock
variant that loads: PettingZoo's api_test and seed_test, and what railspec promises on top
(observations from the tensor layout, masks, rewards at the end, seeding, rendering)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")

from conftest import implemented_stock_variants  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import railspec  # noqa: E402
from railspec.rl import pettingzoo as rpz
from railspec.rl import tensor

VARIANTS = implemented_stock_variants()
IDS = [v.key for v in VARIANTS]


def _play(env, seed, rng):
    """One game with random legal actions; the last() of every agent at the end."""
    env.reset(seed=seed)
    finals = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            finals[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return finals


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_api_test(v):
    with warnings.catch_warnings():
        # dict observations make api_test warn (as for PettingZoo's own board games)
        warnings.simplefilter("ignore", UserWarning)
        api_test(rpz.env(v, players=v.ir.max_players), num_cycles=400)


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_seed_test(v):
    seed_test(lambda: rpz.env(v, players=v.ir.min_players), num_cycles=100)


def test_env_by_name_and_spaces():
    env = rpz.env("usa", players=4)
    v = env.variant
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    size = tensor.observation_spec(v).size
    space = env.observation_space("player_2")
    assert space["observation"].shape == (size,) and space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (len(v.actions),) and space["action_mask"].dtype == np.int8
    assert env.action_space("player_0").n == len(v.actions)
    with pytest.raises(ValueError):
        rpz.env("usa", players=6)
    with pytest.raises(railspec.RailspecError):
        rpz.env("usa", players=2, reward="money")
    with pytest.raises(railspec.RailspecError):
        rpz.env("usa", players=2, render_mode="rgb_array")


def test_observations_and_masks():
    """The selected agent sees its vector and its legal actions; the others see their own
    vectors and an empty mask."""
    env = rpz.env("usa", players=3)
    env.reset(seed=4)
    enc = tensor.ObservationEncoder(env.variant)
    rng = np.random.default_rng(4)
    for _ in range(40):
        agent = env.agent_selection
        seat = int(agent.split("_")[1])
        assert seat == env.game.current_player
        for other in env.agents:
            obs = env.observe(other)
            p = int(other.split("_")[1])
            np.testing.assert_array_equal(obs["observation"], enc.encode(env.game, p))
            if other == agent:
                assert list(np.flatnonzero(obs["action_mask"])) == env.game.legal_actions()
            else:
                assert obs["action_mask"].sum() == 0
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


@pytest.mark.parametrize("reward", ["score", "win"])
def test_rewards_come_at_the_end(reward):
    env = rpz.env("usa", players=3, reward=reward)
    rng = np.random.default_rng(1)
    env.reset(seed=1)
    for _agent in env.agent_iter():
        obs, r, terminated, truncated, info = env.last()
        assert not truncated
        if terminated:
            break
        assert r == 0.0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.game
    finals = {a: env._cumulative_rewards[a] for a in env.possible_agents}
    if reward == "score":
        assert [finals[f"player_{p}"] for p in range(3)] == [float(s) for s in game.scores()]
    else:
        assert sum(finals.values()) == pytest.approx(1.0)
        assert [p for p in range(3) if finals[f"player_{p}"] > 0] == game.winners()
    # every agent is told once, then leaves
    seen = set()
    for agent in env.agent_iter():
        obs, r, terminated, truncated, info = env.last()
        assert terminated and r == finals[agent]
        seen.add(agent)
        env.step(None)
    assert seen == set(env.possible_agents) and env.agents == []


def test_seeding():
    """reset(seed=s) deals game s; resets without a seed follow from the last seed."""
    a, b = rpz.env("usa", players=2), rpz.env("usa", players=2)
    a.reset(seed=11)
    assert a.game.to_json() == railspec.load("usa").new_game(players=2, seed=11).to_json()
    b.reset(seed=11)
    a.reset()
    b.reset()
    assert a.game.to_json() == b.game.to_json()
    first = a.game.to_json()
    a.reset()
    assert a.game.to_json() != first
    r1 = _play(rpz.env("usa", players=2), 5, np.random.default_rng(0))
    r2 = _play(rpz.env("usa", players=2), 5, np.random.default_rng(0))
    assert r1 == r2 and len(r1) == 2


def test_render():
    env = rpz.env("usa", players=2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text.startswith("USA, 2 players") and "player 0" in text
    svg = rpz.env("usa", players=2, render_mode="svg")
    svg.reset(seed=2)
    rng = np.random.default_rng(0)
    while not svg.game.is_over and not any(o >= 0 for o in svg.game.state()["owner"]):
        agent = svg.agent_selection
        svg.step(int(rng.choice(np.flatnonzero(svg.observe(agent)["action_mask"]))))
    picture = svg.render()
    assert picture.startswith("<svg") and 'class="route claimed seat-' in picture
    with pytest.warns(UserWarning):
        assert rpz.env("usa", players=2).render() is None
    with pytest.raises(railspec.RailspecError):
        rpz.env("usa", players=2, render_mode="ansi").render()


def test_none_is_only_for_finished_agents():
    env = rpz.env("usa", players=2)
    env.reset(seed=0)
    with pytest.raises(railspec.RailspecError):
        env.step(None)
    with pytest.raises(railspec.IllegalActionError):
        env.step(len(env.variant.actions))
