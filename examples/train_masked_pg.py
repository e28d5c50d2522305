"""Train a small masked policy-gradient agent for Ticket to Ride USA against random players.

    pip install 'railspec[gymnasium]'
    python examples/train_masked_pg.py --games 2400 --markdown

The learner is an actor-critic written with numpy alone (no deep-learning library): one
hidden layer feeding a policy head over the variant's fixed catalogue of actions and a
value head. Illegal actions are masked out of the softmax with the mask the environment
puts in ``info["action_mask"]``, so the agent never wastes a decision on them. Each
episode is one game through ``railspec.rl.gymnasium``: the learner holds one seat (a random
one each game), random agents hold the others.

The reward is given at the end only: the learner's final score minus the best opponent's,
over 50 (the environment's own reward is the score; the opponents' scores are in
``info``). Updates use the advantage (return minus the value estimate) with an entropy
bonus, and Adam.

It prints the learner's win rate against the random players over ``--eval-games`` games
(a shared win counts as a fraction) before training, when the policy is close to uniform
over the legal actions (a random player), and after, sampling the policy and playing its
most likely legal action. Training is bounded by a number of games (``--games``; the
same seed then gives the same run on any machine, only its time differs) or by time
(``--minutes``). ``--markdown`` ends with the results as the table docs/rl.md shows: the
figures there are this script's output, pasted.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import railspec.rl.gymnasium


class Policy:
    """x -> tanh hidden layer -> (logits over every action, value)."""

    def __init__(self, inputs: int, actions: int, hidden: int, rng: np.random.Generator):
        self.p = {
            "W1": rng.normal(0.0, 1.0 / np.sqrt(inputs), (hidden, inputs)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "W2": rng.normal(0.0, 0.01, (actions, hidden)).astype(np.float32),
            "b2": np.zeros(actions, np.float32),
            "v": np.zeros(hidden, np.float32),
            "c": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(w) for k, w in self.p.items()}
        self.s = {k: np.zeros_like(w) for k, w in self.p.items()}
        self.t = 0

    def forward(self, x: np.ndarray):
        p = self.p
        h = np.tanh(x @ p["W1"].T + p["b1"])
        return h, h @ p["W2"].T + p["b2"], h @ p["v"] + p["c"][0]

    def act(self, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None) -> int:
        """A sampled legal action (the most likely one when ``rng`` is None)."""
        _, z, _ = self.forward(x)
        z = np.where(mask > 0, z, -np.inf)
        if rng is None:
            return int(np.argmax(z))
        e = np.exp(z - z.max())
        return int(rng.choice(len(e), p=e / e.sum()))

    def _heads(self, X, M):
        H, Z, V = self.forward(X)
        Z = np.where(M > 0, Z, -np.inf)
        Z = Z - Z.max(axis=1, keepdims=True)
        E = np.exp(Z)
        P = E / E.sum(axis=1, keepdims=True)
        logP = np.where(M > 0, np.log(np.maximum(P, 1e-12)), 0.0)
        return H, V, P, logP

    def advantages(self, X, M, G):
        """The returns over the value estimates, normalised: held fixed in a step."""
        adv = G - self.forward(X)[2]
        return (adv - adv.mean()) / (adv.std() + 1e-6)

    def objective(self, X, M, A, G, adv, entropy: float, value_weight: float = 0.5) -> float:
        """The loss one step descends: the policy-gradient term for the actions taken,
        minus the entropy bonus, plus the value error (``adv`` held fixed)."""
        _, V, P, logP = self._heads(X, M)
        n = len(A)
        ent = -(P * logP).sum(axis=1)
        return float(-(adv * logP[np.arange(n), A]).mean() - entropy * ent.mean()
                     + value_weight * 0.5 * ((V - G) ** 2).mean())

    def gradients(self, X, M, A, G, adv, entropy: float, value_weight: float = 0.5):
        """The gradient of :meth:`objective` for every parameter, and some statistics."""
        p = self.p
        H, V, P, logP = self._heads(X, M)
        n = len(A)
        ent = -(P * logP).sum(axis=1)
        # d(loss)/d(logits): policy gradient, then the entropy bonus
        dZ = P * adv[:, None]
        dZ[np.arange(n), A] -= adv
        dZ += entropy * P * (logP + ent[:, None])
        dZ = np.where(M > 0, dZ, 0.0) / n
        dV = value_weight * (V - G) / n
        grads = {"W2": dZ.T @ H, "b2": dZ.sum(axis=0), "v": dV @ H, "c": np.array([dV.sum()])}
        dH = dZ @ p["W2"] + dV[:, None] * p["v"][None, :]
        dpre = dH * (1.0 - H * H)
        grads["W1"] = dpre.T @ X
        grads["b1"] = dpre.sum(axis=0)
        return grads, {"entropy": float(ent.mean()), "value_error": float(np.abs(G - V).mean())}

    def update(self, X, M, A, G, lr: float, entropy: float) -> dict:
        """One Adam step on a batch: decisions ``X`` with masks ``M``, the actions taken
        ``A`` and the returns ``G`` that followed."""
        grads, stats = self.gradients(X, M, A, G, self.advantages(X, M, G), entropy)
        p = self.p
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.s[k] = 0.999 * self.s[k] + 0.001 * g * g
            mhat = self.m[k] / (1 - 0.9 ** self.t)
            shat = self.s[k] / (1 - 0.999 ** self.t)
            p[k] -= (lr * mhat / (np.sqrt(shat) + 1e-8)).astype(np.float32)
        return stats


def margin(info: dict, seat: int) -> float:
    """The learner's final score minus the best opponent's."""
    scores = info["scores"]
    return scores[seat] - max(s for p, s in enumerate(scores) if p != seat)


def win_share(info: dict, seat: int) -> float:
    winners = info["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def evaluate(policy: Policy, env, games: int, seed: int, greedy: bool) -> tuple[float, float]:
    """(win rate, mean margin) over ``games`` games, playing the most likely legal action
    (``greedy``) or sampling the policy."""
    wins, margins = 0.0, []
    rng = None if greedy else np.random.default_rng(seed)
    for k in range(games):
        obs, info = env.reset(seed=seed + k)
        while True:
            obs, _, done, _, info = env.step(policy.act(obs, info["action_mask"], rng))
            if done:
                break
        wins += win_share(info, info["seat"])
        margins.append(margin(info, info["seat"]))
    return wins / games, float(np.mean(margins))


def train(args) -> None:
    rng = np.random.default_rng(args.seed)
    opponents = ["random"] * (args.players - 1)
    env = railspec.rl.gymnasium.make(args.variant, players=args.players, opponents=opponents, seat="random")
    test_env = railspec.rl.gymnasium.make(args.variant, players=args.players, opponents=opponents, seat="random")
    policy = Policy(env.observation_space.shape[0], env.action_space.n, args.hidden, rng)
    print(f"{args.variant}, {args.players} players: {env.observation_space.shape[0]} inputs, "
          f"{env.action_space.n} actions, the learner against {args.players - 1} random player(s)")

    # untrained, the policy is close to uniform over the legal actions: a random player
    before = evaluate(policy, test_env, args.eval_games, seed=10**6, greedy=False)
    print(f"before training (sampling): win rate {before[0]:.1%}, mean margin {before[1]:+.1f} "
          f"over {args.eval_games} games (a random player's share: {1 / args.players:.0%})")

    start = time.perf_counter()
    episodes = updates = 0
    recent: list[float] = []
    passed_90 = None  # games played when the win rate over the last 200 first reached 90%
    episode_seed = args.seed * 10**6
    while (episodes < args.games if args.minutes is None else time.perf_counter() - start < args.minutes * 60):
        X, M, A, G = [], [], [], []
        for _ in range(args.batch):
            obs, info = env.reset(seed=episode_seed)
            episode_seed += 1
            steps = 0
            while True:
                mask = info["action_mask"]
                a = policy.act(obs, mask, rng)
                X.append(obs)
                M.append(mask)
                A.append(a)
                steps += 1
                obs, _, done, _, info = env.step(a)
                if done:
                    break
            ret = margin(info, info["seat"]) / 50.0
            G.extend([ret] * steps)
            recent.append(win_share(info, info["seat"]))
            episodes += 1
        stats = policy.update(np.asarray(X, np.float32), np.asarray(M), np.asarray(A), np.asarray(G, np.float32),
                              args.lr, args.entropy)
        updates += 1
        if passed_90 is None and len(recent) >= 200 and np.mean(recent[-200:]) >= 0.9:
            passed_90 = episodes
        if updates % args.report == 0:
            print(f"  {time.perf_counter() - start:6.0f} s  {episodes:6d} games  win rate (last "
                  f"{len(recent[-200:])}) {np.mean(recent[-200:]):.1%}  entropy {stats['entropy']:.2f}")
    elapsed = time.perf_counter() - start
    print(f"trained on {episodes} games in {elapsed:.0f} s ({updates} updates)")
    results = []
    for greedy, how in ((False, "sampling"), (True, "most likely action")):
        after = evaluate(policy, test_env, args.eval_games, seed=10**6, greedy=greedy)
        results.append(after)
        print(f"after training ({how}): win rate {after[0]:.1%}, mean margin {after[1]:+.1f} "
              f"over {args.eval_games} games")
    if args.markdown:
        print()
        print(markdown_table(args, before, results, episodes, elapsed, passed_90))


def markdown_table(args, before, after, episodes: int, seconds: float, passed_90) -> str:
    """The run's results as the table of docs/rl.md."""
    share = f"{1 / args.players:.0%}"
    rows = [f"| | win rate over {args.eval_games:,} games | mean margin |", "|---|---|---|",
            f"| before training (close to uniform over the legal actions) | {before[0]:.1%} (a random "
            f"player's share: {share}) | {_signed(before[1])} |",
            f"| after {episodes:,} games (sampling the policy) | {after[0][0]:.1%} | {_signed(after[0][1])} |",
            f"| after {episodes:,} games (its most likely action) | {after[1][0]:.1%} | {_signed(after[1][1])} |",
            "",
            f"Trained in {seconds:.0f} s; the win rate over the last 200 training games "
            + (f"passed 90% after {passed_90:,} games." if passed_90 is not None else "never passed 90%.")]
    return "\n".join(rows)


def _signed(value: float) -> str:
    return f"{value:+.1f}".replace("-", "\u2212")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="usa")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2400, help="games to train on")
    parser.add_argument("--minutes", type=float, default=None,
                        help="train for this long instead of --games (how many games fit depends on the machine)")
    parser.add_argument("--markdown", action="store_true", help="end with the results as docs/rl.md's table")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--batch", type=int, default=8, help="games per update")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--entropy", type=float, default=0.01, help="weight of the entropy bonus")
    parser.add_argument("--report", type=int, default=25, help="updates between progress lines")
    parser.add_argument("--seed", type=int, default=0)
    train(parser.parse_args(argv))


if __name__ == "__main__":
    main()
