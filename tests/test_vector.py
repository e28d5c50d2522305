"""Batched games (railspec.rl.vector, issue 33): every env's every game replays exactly
through the single-game API, seat by seat and step by step; illegal actions; threads; and
the Gymnasium vector environment over it against Gymnasium's own vector environment."""
from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from conftest import implemented_stock_variants  # noqa: E402

from railspec import IllegalActionError  # noqa: E402
from railspec.playtest import agents  # noqa: E402
from railspec.rl.vector import VectorGame  # noqa: E402

VARIANTS = implemented_stock_variants()
IDS = [v.key for v in VARIANTS]


class Mirror:
    """Each env's game played again beside the batch through the single-game API: the game
    ``v.new_game(players, seed=vg.game_seed(i, k))``, its opponents
    ``agents.make(name, seed=vg.agent_seed(i, k, p))`` (a scripted style untold, ``worth_now=False``),
    the batch's actions applied to it."""

    def __init__(self, vg: VectorGame):
        self.vg = vg
        self.seated: dict[int, list] = {}
        self.games = [self._start(i, 0) for i in range(vg.num_envs)]
        self.k = [0] * vg.num_envs
        self.obs = np.zeros(vg.observation_size, np.float32)
        self.mask = np.zeros(vg.n_actions, np.int8)
        self.finished = 0

    def _start(self, env: int, k: int):
        vg = self.vg
        game = vg.variant.new_game(players=vg.players, seed=vg.game_seed(env, k))
        # the batch's scripted seats are not told what a mechanic says claims bring now
        # (AgentPlay.worth_now needs Python): the agents of their names, untold
        seated = [None if name == "caller" else agents.make(name, seed=vg.agent_seed(env, k, p), **(
                      {"worth_now": False} if issubclass(agents.AGENTS[name], agents.ScriptedAgent) else {}))
                  for p, name in enumerate(vg.holders(env, k))]
        self.seated[env] = seated
        self._play_others(game, seated)
        return game

    @staticmethod
    def _play_others(game, seated) -> None:
        while not game.is_over and seated[game.current_player] is not None:
            game.apply(seated[game.current_player].act(game))

    def check(self, obs, mask, to_play) -> None:
        """Each env's arrays are its mirror's: the seat to decide, its mask, its vector."""
        for env, game in enumerate(self.games):
            assert not game.is_over
            assert to_play[env] == game.current_player, env
            game.action_mask_into(self.mask)
            np.testing.assert_array_equal(mask[env], self.mask, err_msg=f"env {env} game {self.k[env]}: mask")
            game.observation_into(game.current_player, self.obs)
            np.testing.assert_array_equal(obs[env], self.obs, err_msg=f"env {env} game {self.k[env]}: observation")

    def step(self, actions, rewards, done) -> None:
        """Apply the batch's actions; where a game ended, its scores and rewards, and the
        next game."""
        vg = self.vg
        for env, game in enumerate(self.games):
            mover = game.current_player
            game.apply(int(actions[env]))
            self._play_others(game, self.seated[env])
            assert bool(done[env]) == game.is_over, f"env {env} game {self.k[env]}"
            if not game.is_over:
                assert not rewards[env].any()
                continue
            scores = game.scores()
            assert list(vg.final_scores[env]) == scores
            assert vg.final_breakdown(env) == game.score_breakdown()
            if vg.reward == "score":
                expected = [float(s) for s in scores]
            elif vg.reward == "margin":
                expected = [float(s - max(scores[:p] + scores[p + 1:])) for p, s in enumerate(scores)]
            else:
                best = game.winners()
                expected = [1.0 / len(best) if p in best else 0.0 for p in range(vg.players)]
            assert list(rewards[env]) == pytest.approx(expected)
            game.observation_into(mover, self.obs)
            np.testing.assert_array_equal(vg.final_obs[env], self.obs)
            self.finished += 1
            self.k[env] += 1
            self.games[env] = self._start(env, self.k[env])
        assert list(vg.games) == self.k


def _play(vg: VectorGame, games_each: int, seed: int, max_steps: int = 20000) -> Mirror:
    """Step ``vg`` with random legal actions until every env has finished ``games_each``
    games, checked against the mirror at every step."""
    rng = np.random.default_rng(seed)
    obs, mask, to_play = vg.reset()
    mirror = Mirror(vg)
    for _ in range(max_steps):
        mirror.check(obs, mask, to_play)
        if min(mirror.k) >= games_each:
            return mirror
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int32)
        obs, mask, to_play, rewards, done = vg.step(actions)
        mirror.step(actions, rewards, done)
    raise AssertionError(f"fewer than {games_each} games in every env after {max_steps} steps")


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_every_game_replays_through_the_single_game_api(v, threads):
    """Env i's k-th game is v.new_game(players, seed=game_seed(i, k)): the same masks and
    observation vectors at every step, the same scores and rewards at the end; 5 envs, 2
    games each at least, self-play at the smallest table."""
    with VectorGame(v, 5, players=v.ir.min_players, seed=11 + threads, threads=threads) as vg:
        mirror = _play(vg, 2, seed=threads)
        assert mirror.finished >= 10


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_opponents_inside_the_batch_play_as_the_agents_of_their_names(v, threads):
    """Scripted styles and random players hold the other seats, turned a seat each game
    and env: the batch holds the learner's decisions only, and replays with the agents of
    the same names and seeds (every stock variant seats 3)."""
    assert v.ir.max_players >= 3
    with VectorGame(v, 4, players=3, seed=5 + threads, threads=threads, learner_seats=[1],
                    opponents=["one-step", "random"], rotate=True, reward="win") as vg:
        assert vg.holders(0, 0) == ["one-step", "caller", "random"]
        assert vg.holders(0, 1) == ["random", "one-step", "caller"]
        mirror = _play(vg, 2, seed=3)
        assert mirror.finished >= 8


@pytest.mark.parametrize("opponent", ["one-step", "long-route", "route-focus", "destination-hungry", "greedy"])
def test_each_scripted_style_replays_in_the_batch(usa, opponent):
    """Every scripted style plays in the batch as its agent does in one game (USA, 2
    players, the learner's seat turning, the margin reward)."""
    with VectorGame(usa, 3, players=2, seed=8, learner_seats=[0], opponents=[opponent], rotate=True,
                    reward="margin") as vg:
        _play(vg, 2, seed=4)


def test_threads_change_no_game(usa):
    """The same seed gives the same arrays, step for step, on one thread and on three."""
    one = VectorGame(usa, 7, players=2, seed=3)
    three = VectorGame(usa, 7, players=2, seed=3, threads=3, learner_seats=[0, 1])
    try:
        for a, b in zip(one.reset(), three.reset()):
            np.testing.assert_array_equal(a, b)
        for _ in range(300):
            actions = one.sample_actions()
            np.testing.assert_array_equal(actions, three.sample_actions())
            for a, b in zip(one.step(actions), three.step(actions)):
                np.testing.assert_array_equal(a, b)
        assert one.decisions == three.decisions == 7 * 300
    finally:
        three.close()


def test_an_illegal_action_names_its_env_and_changes_no_game(usa):
    """An action not legal in one env raises IllegalActionError naming that env; no game
    moves, and the batch steps on as one that never saw the call."""
    vg, twin = VectorGame(usa, 4, players=2, seed=2), VectorGame(usa, 4, players=2, seed=2)
    vg.reset()
    twin.reset()
    for _ in range(20):
        actions = vg.sample_actions()
        twin.step(actions.copy())
        obs, mask, to_play, _, _ = vg.step(actions)
    before = [obs.copy(), mask.copy(), to_play.copy(), vg.games.copy()]
    actions = vg.sample_actions()
    twin_actions = actions.copy()
    actions[2] = int(np.flatnonzero(mask[2] == 0)[0])
    with pytest.raises(IllegalActionError, match=r"env 2 \(game 0\): action \d+ is not legal now"):
        vg.step(actions)
    for bad in (-1, usa.ir.actions.__len__()):
        actions[2] = bad
        with pytest.raises(IllegalActionError, match="env 2"):
            vg.step(actions)
    for a, b in zip(before, [obs, mask, to_play, vg.games]):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(vg.step(twin_actions), twin.step(twin_actions)):
        np.testing.assert_array_equal(a, b)


def test_arguments_are_checked(usa):
    """Wrong shapes, seats, opponents and arrays are refused before any game starts."""
    with pytest.raises(ValueError, match="learner_seats"):
        VectorGame(usa, 2, players=2, learner_seats=[2])
    with pytest.raises(ValueError, match="opponents"):
        VectorGame(usa, 2, players=2, learner_seats=[0], opponents=["random", "random"])
    with pytest.raises(ValueError, match="ismcts"):
        VectorGame(usa, 2, players=2, learner_seats=[0], opponents=["ismcts"])
    with pytest.raises(ValueError, match="num_envs"):
        VectorGame(usa, 0)
    with pytest.raises(ValueError, match="arrays"):
        VectorGame(usa, 2, arrays={"obs": np.zeros((2, 3), np.float32)})
    vg = VectorGame(usa, 2)
    with pytest.raises(Exception, match="reset"):
        vg.step([0, 0])
    vg.reset()
    with pytest.raises(ValueError, match="one action an env"):
        vg.step([0, 0, 0])


def test_caller_arrays_are_written_in_place(usa):
    """Arrays given as arrays= are the ones each step writes and returns."""
    mine = {"obs": np.zeros((3, VectorGame(usa, 1).observation_size), np.float32),
            "mask": np.zeros((3, len(usa.actions)), np.int8)}
    vg = VectorGame(usa, 3, arrays=mine)
    obs, mask, _ = vg.reset()
    assert obs is mine["obs"] and mask is mine["mask"] and mask.any()


def test_a_later_reset_starts_each_envs_next_game(usa):
    vg = VectorGame(usa, 3, players=2, seed=9)
    vg.reset()
    vg.step(vg.sample_actions())
    vg.reset()
    assert list(vg.games) == [1, 1, 1]
    _game = usa.new_game(players=2, seed=vg.game_seed(1, 1))
    obs = np.zeros(vg.observation_size, np.float32)
    _game.observation_into(0, obs)
    np.testing.assert_array_equal(vg._arrays["obs"][1], obs)


# --- the Gymnasium vector environment --------------------------------------------------------

def test_the_gymnasium_vector_env_matches_gymnasiums_own(usa):
    """RailspecVectorEnv against gymnasium.vector.SyncVectorEnv (SAME_STEP autoreset) of
    single-game environments playing the same games: equal observations, rewards,
    terminations and infos (final_obs and final_info included) at every step; Gymnasium's
    space checks on its spaces, and its episode statistics wrapper over it."""
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_space_limit, data_equivalence
    from gymnasium.utils.passive_env_checker import check_action_space, check_observation_space
    from gymnasium.vector import AutoresetMode, SyncVectorEnv
    from gymnasium.vector.utils import batch_space

    from railspec.rl import gymnasium as rg

    envs = 4
    env = rg.make_vec(usa, envs, players=2, opponents=["one-step"], seat="rotate", reward="margin")
    check_observation_space(env.single_observation_space)
    check_action_space(env.single_action_space)
    check_space_limit(env.single_observation_space, "observation")
    assert env.observation_space == batch_space(env.single_observation_space, envs)
    assert env.action_space == batch_space(env.single_action_space, envs)
    batch = env.batch

    class OneGame(gymnasium.Env):
        """Env i of the batch as a single-game Gymnasium environment: its k-th game from
        game_seed(i, k), one-step seeded agent_seed(i, k, p), the margin at the end."""

        metadata = {"render_modes": []}

        def __init__(self, i: int):
            self.i, self.k = i, -1
            self.observation_space, self.action_space = env.single_observation_space, env.single_action_space
            self.obs = np.zeros(batch.observation_size, np.float32)

        def _view(self):
            mask = np.zeros(batch.n_actions, np.int8)
            self.game.action_mask_into(mask)
            self.game.observation_into(self.game.current_player, self.obs)
            seat = np.int64(self.game.current_player)
            return self.obs.copy(), {"action_mask": mask, "seat": seat}

        def _others(self):
            while not self.game.is_over and self.seated[self.game.current_player] is not None:
                self.game.apply(self.seated[self.game.current_player].act(self.game))

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            self.k += 1
            self.game = usa.new_game(players=2, seed=batch.game_seed(self.i, self.k))
            self.seated = [None if name == "caller" else agents.make(name, seed=batch.agent_seed(self.i, self.k, p))
                           for p, name in enumerate(batch.holders(self.i, self.k))]
            self._others()
            return self._view()

        def step(self, action):
            mover = self.game.current_player
            self.game.apply(int(action))
            self._others()
            if not self.game.is_over:
                obs, info = self._view()
                return obs, 0.0, False, False, info
            scores = self.game.scores()
            self.game.observation_into(mover, self.obs)
            return self.obs.copy(), float(scores[mover] - scores[1 - mover]), True, False, {
                "scores": np.asarray(scores, np.int64)}

    reference = SyncVectorEnv([lambda i=i: OneGame(i) for i in range(envs)], autoreset_mode=AutoresetMode.SAME_STEP)
    obs, info = env.reset(seed=0)
    ref_obs, ref_info = reference.reset()
    assert data_equivalence(obs, ref_obs) and data_equivalence(info, ref_info)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        step = env.step(actions)
        ref = reference.step(actions)
        for mine, theirs in zip(step, ref):
            assert data_equivalence(mine, theirs, exact=True)
        obs, _, terminated, _, info = step
        ended += int(terminated.sum())
    assert ended >= 4
    # Gymnasium's episode statistics read the autoreset mode from the metadata
    stats = gymnasium.wrappers.vector.RecordEpisodeStatistics(rg.make_vec(usa, 2, players=2, opponents=["random"]))
    obs, info = stats.reset(seed=1)
    episodes = 0
    for _ in range(300):
        actions = np.array([np.flatnonzero(row)[0] for row in info["action_mask"]])
        obs, _, _, _, info = stats.step(actions)
        episodes += int(info.get("_episode", np.zeros(2, bool)).sum())
    assert episodes >= 1
    env.close()
    stats.close()


def test_gymnasiums_checks_pass_on_the_vector_env(usa):
    """Gymnasium's env checker has no vector form; its checks that apply to a vector
    environment run as they are (the spaces, reset's return type, seeding and options),
    and its step checks (determinism after a seeded reset, no data shared between returns)
    as it writes them, with Gymnasium's own comparisons, but legal actions: it samples
    actions from the space, the mask aside, which this environment refuses by design."""
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils import env_checker
    from gymnasium.utils.passive_env_checker import check_action_space, check_obs, check_observation_space

    from railspec.rl import gymnasium as rg

    env = rg.make_vec(usa, 3, players=2, opponents=["greedy"], seat="rotate", reward="win")
    assert isinstance(env, gymnasium.vector.VectorEnv)
    for space, kind in ((env.single_observation_space, "observation"), (env.single_action_space, "action"),
                        (env.observation_space, "observation"), (env.action_space, "action")):
        (check_observation_space if kind == "observation" else check_action_space)(space)
        env_checker.check_space_limit(space, kind)
    env_checker.check_reset_return_type(env)
    env_checker.check_reset_seed_determinism(env)
    env_checker.check_reset_options(env)

    def legal(info: dict, draw: int) -> np.ndarray:
        return np.array([np.flatnonzero(row)[draw % int(row.sum())] for row in info["action_mask"]])

    def steps(seed: int) -> list:
        obs, info = env.reset(seed=seed)
        check_obs(obs, env.observation_space, "reset")
        returned = [(obs, info)]
        for draw in range(60):
            step = env.step(legal(info, draw))
            check_obs(step[0], env.observation_space, "step")
            assert step[1].dtype == np.float64 and step[2].dtype == step[3].dtype == np.bool_
            returned.append(step)
            info = step[-1]
        return returned

    first, second = steps(123), steps(123)
    assert env_checker.data_equivalence(first, second, exact=True)
    outputs = [(r[0], r[-1]) for r in first]
    for i, a in enumerate(outputs):
        for b in outputs[i + 1:]:
            assert not env_checker.data_shares_objects(a, b)
    env.close()


def test_gymnasium_vector_reset_seeds_and_registration(usa):
    """reset(seed=s) gives the same observations for the same s, and gymnasium.make_vec
    makes the registered ids' vector environment."""
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import data_equivalence

    from railspec.rl import gymnasium as rg

    env = rg.make_vec(usa, 3, players=2)
    a = env.reset(seed=4)
    b = env.reset(seed=4)
    c = env.reset(seed=5)
    assert data_equivalence(a, b) and not data_equivalence(a[0], c[0])
    rg.register()
    made = gymnasium.make_vec("railspec/usa-v0", num_envs=2, vectorization_mode="vector_entry_point", players=2)
    assert made.num_envs == 2 and made.reset(seed=1)[0].shape == (2, env.single_observation_space.shape[0])
    made.close()
    env.close()


# --- the example that learns (examples/train_vector_ppo.py) ---------------------------------

def _ppo():
    """examples/train_vector_ppo.py, imported from its file."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "examples" / "train_vector_ppo.py"
    spec = importlib.util.spec_from_file_location("train_vector_ppo", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_ppo_examples_gradient_is_its_losss():
    """The example's hand-written backpropagation against a central difference of the loss
    it stands for (the clipped surrogate, half the weighted squared value error, the
    entropy bonus), along a random direction through every parameter."""
    ppo = _ppo()
    rng = np.random.default_rng(0)
    net = ppo.Network(inputs=6, actions=5, hidden=4, rng=rng)
    for k, w in net.p.items():  # away from zero, so that every path carries gradient
        net.p[k] = rng.normal(0.0, 0.5, w.shape)
    n = 7
    x = rng.random((n, 6))
    mask = (rng.random((n, 5)) < 0.6).astype(np.int8)
    mask[:, 0] = 1
    actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in mask])
    taken = np.arange(n), actions
    old_logp = net.forward(x, mask)[2][taken] + rng.normal(0.0, 0.3, n)
    adv, returns = rng.normal(0.0, 1.0, n), rng.normal(0.0, 1.0, n)
    clip, entropy, value_weight = 0.2, 0.01, 0.5

    def loss() -> float:
        _, probs, logp, values = net.forward(x, mask)
        ratio = np.exp(logp[taken] - old_logp)
        surrogate = np.minimum(ratio * adv, np.clip(ratio, 1 - clip, 1 + clip) * adv)
        return float(-surrogate.mean() + value_weight / 2 * ((values - returns) ** 2).mean()
                     + entropy * (probs * logp).sum(axis=1).mean())

    grads, _ = net.gradients(x, mask, actions, old_logp, adv, returns, clip, entropy, value_weight)
    direction = {k: rng.normal(0.0, 1.0, w.shape) for k, w in net.p.items()}
    analytic = sum(float((grads[k] * direction[k]).sum()) for k in net.p)
    base = {k: w.copy() for k, w in net.p.items()}

    def moved(t: float) -> float:
        for k in net.p:
            net.p[k] = base[k] + t * direction[k]
        return loss()
    eps = 1e-3
    assert analytic == pytest.approx((moved(eps) - moved(-eps)) / (2 * eps), rel=2e-2)


def test_the_ppo_example_runs_and_docs_hold_its_table(capsys):
    """A short run of the example prints the table docs/rl.md shows (the same rows and
    columns), and docs/rl.md names the command that printed its figures."""
    import re
    from pathlib import Path
    ppo = _ppo()
    ppo.main(["--updates", "2", "--envs", "4", "--steps", "8", "--hidden", "8", "--minibatch", "16",
              "--eval-games", "4", "--report", "1", "--markdown"])
    out = capsys.readouterr().out
    assert "after training: win rate against one-step over 4 games" in out
    printed = [line for line in out.split("\n") if line.startswith("|")]
    docs = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    assert re.search(r"`OMP_NUM_THREADS=1 python examples/train_vector_ppo\.py [^`]*--markdown[^`]*`", docs)
    head = next(i for i, line in enumerate(docs.split("\n")) if line.startswith("| against one-step, 400 games"))
    documented = docs.split("\n")[head:head + len(printed)]

    def shape(lines: list[str]) -> list[str]:  # each row's label and its number of cells, figures blanked
        return [re.sub(r"[\d,.]+", "N", line.split("|")[1]) + f" {line.count('|')}" for line in lines]
    assert shape(documented) == shape([p.replace("4 games", "400 games") for p in printed])
