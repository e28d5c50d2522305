"""Train a masked PPO agent for Ticket to Ride USA (2 players) over batched games.

    pip install 'railspec[gymnasium]'
    python examples/train_vector_ppo.py --cpu-minutes 25 --markdown

The games are stepped in C by :class:`railspec.rl.vector.VectorGame`: ``--envs`` games at
once, the learner in one seat of each (seats alternate from game to game), the scripted
style ``--opponent`` (``one-step`` by default; ``self`` for self-play, where every decision
is the learner's) in the other, played inside the step so that the batch holds the
learner's decisions only.

The learner is written with numpy alone: one tanh hidden layer feeding a policy head over
the 1,079 USA actions (the illegal ones masked out of the softmax with the batch's mask)
and a value head. PPO (Schulman et al. 2017): each update collects ``--steps`` decisions
in every env, computes generalised advantages (GAE) from the value head, and runs
``--epochs`` passes of Adam over minibatches on the clipped surrogate, the value error
and an entropy bonus. The reward comes at a game's end only: the learner's score margin
over its opponent, over 50.

Training is bounded by CPU time (``--cpu-minutes``; the process's, so a busy machine
trains as far as an idle one, only later) or by updates (``--updates``, the same run on
any machine). Then the learner plays ``--eval-games`` games against ``one-step``, half in
each seat, taking its most likely legal action and sampling its policy, and the win rate
is printed (a shared win counts as a fraction); ``--markdown`` prints the table
docs/rl.md shows.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from railspec.rl.vector import VectorGame

VARIANT = "usa"
PLAYERS = 2


class Network:
    """x -> tanh hidden layer -> (logits over every action, value), with Adam."""

    def __init__(self, inputs: int, actions: int, hidden: int, rng: np.random.Generator):
        self.p = {"W1": rng.normal(0.0, 1.0 / np.sqrt(inputs), (inputs, hidden)).astype(np.float32),
                  "b1": np.zeros(hidden, np.float32),
                  "W2": rng.normal(0.0, 0.01, (hidden, actions)).astype(np.float32),
                  "b2": np.zeros(actions, np.float32),
                  "v": rng.normal(0.0, 0.01, hidden).astype(np.float32),
                  "c": np.zeros(1, np.float32)}
        self.m = {k: np.zeros_like(w) for k, w in self.p.items()}
        self.s = {k: np.zeros_like(w) for k, w in self.p.items()}
        self.t = 0

    def forward(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(hidden, probabilities over the legal actions, their logs (0 where illegal), values)."""
        p = self.p
        h = np.tanh(x @ p["W1"] + p["b1"])
        z = h @ p["W2"] + p["b2"]
        z = np.where(mask > 0, z, -np.inf)
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        probs = e / e.sum(axis=1, keepdims=True)
        logp = np.where(mask > 0, np.log(np.maximum(probs, 1e-30)), 0.0).astype(np.float32)
        return h, probs.astype(np.float32), logp, h @ p["v"] + p["c"][0]

    def act(self, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(actions, their log-probabilities, values): sampled, or the most likely legal
        actions when ``rng`` is None."""
        _, probs, logp, values = self.forward(x, mask)
        if rng is None:
            actions = np.argmax(np.where(mask > 0, probs, -1.0), axis=1)
        else:
            cumulative = np.cumsum(probs, axis=1)
            draws = rng.random(len(x))[:, None] * cumulative[:, -1:]
            actions = np.minimum((cumulative < draws).sum(axis=1), probs.shape[1] - 1)
            # a draw landing on a zero-probability tail (rounding) takes the last legal action
            illegal = mask[np.arange(len(x)), actions] == 0
            if illegal.any():
                actions[illegal] = probs.shape[1] - 1 - np.argmax(mask[illegal, ::-1] > 0, axis=1)
        return actions.astype(np.intc), logp[np.arange(len(x)), actions], values

    def gradients(self, x, mask, actions, old_logp, advantages, returns, clip: float, entropy: float,
                  value_weight: float) -> tuple[dict, dict]:
        """The gradient of the PPO loss (clipped surrogate, value error, entropy bonus)."""
        p = self.p
        n = len(x)
        h, probs, logp, values = self.forward(x, mask)
        taken = logp[np.arange(n), actions]
        ratio = np.exp(taken - old_logp)
        clipped = np.clip(ratio, 1.0 - clip, 1.0 + clip)
        # the surrogate's gradient flows where the unclipped term is the smaller
        active = (ratio * advantages) <= (clipped * advantages)
        d_taken = np.where(active, -advantages * ratio, 0.0) / n
        ent = -(probs * logp).sum(axis=1)
        dz = -probs * d_taken[:, None]
        dz[np.arange(n), actions] += d_taken
        dz += entropy * probs * (logp + ent[:, None]) / n
        dz = np.where(mask > 0, dz, 0.0).astype(np.float32)
        dv = (value_weight * (values - returns) / n).astype(np.float32)
        grads = {"W2": h.T @ dz, "b2": dz.sum(axis=0), "v": h.T @ dv, "c": np.array([dv.sum()], np.float32)}
        dh = dz @ p["W2"].T + dv[:, None] * p["v"][None, :]
        dpre = dh * (1.0 - h * h)
        grads["W1"] = x.T @ dpre
        grads["b1"] = dpre.sum(axis=0)
        stats = {"entropy": float(ent.mean()), "clipped": float(1.0 - active.mean()),
                 "value_error": float(np.abs(values - returns).mean())}
        return grads, stats

    def adam(self, grads: dict, lr: float, max_norm: float = 0.5) -> None:
        """One step of Adam on ``grads``, their global norm clipped to ``max_norm`` first."""
        norm = np.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        scale = min(1.0, max_norm / (norm + 1e-8))
        self.t += 1
        for k, g in grads.items():
            g = g * scale
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.s[k] = 0.999 * self.s[k] + 0.001 * g * g
            mhat = self.m[k] / (1 - 0.9 ** self.t)
            shat = self.s[k] / (1 - 0.999 ** self.t)
            self.p[k] -= (lr * mhat / (np.sqrt(shat) + 1e-8)).astype(np.float32)


def batch(envs: int, seed: int, opponent: str, reward: str) -> VectorGame:
    """The training (or evaluation) games: the learner in seat 0 of the listed seating,
    turned one seat each game and env, so that it plays both seats alike."""
    if opponent == "self":
        return VectorGame(VARIANT, envs, players=PLAYERS, seed=seed, reward=reward)
    return VectorGame(VARIANT, envs, players=PLAYERS, seed=seed, learner_seats=[0], opponents=[opponent],
                      rotate=True, reward=reward)


def collect(net: Network, vg: VectorGame, state: dict, steps: int, rng: np.random.Generator) -> dict:
    """``steps`` decisions in every env: the arrays PPO learns from."""
    n, size, actions = vg.num_envs, vg.observation_size, vg.n_actions
    out = {"x": np.zeros((steps, n, size), np.float32), "mask": np.zeros((steps, n, actions), np.int8),
           "a": np.zeros((steps, n), np.intc), "logp": np.zeros((steps, n), np.float32),
           "v": np.zeros((steps, n), np.float32), "r": np.zeros((steps, n), np.float32),
           "done": np.zeros((steps, n), np.bool_)}
    obs, mask, to_play = state["obs"], state["mask"], state["to_play"]
    for t in range(steps):
        out["x"][t], out["mask"][t] = obs, mask
        a, logp, v = net.act(obs, mask, rng)
        out["a"][t], out["logp"][t], out["v"][t] = a, logp, v
        mover = to_play.copy()
        obs, mask, to_play, rewards, done = vg.step(a)
        out["r"][t] = rewards[np.arange(n), mover] / 50.0
        out["done"][t] = done
        state["finished"] += int(done.sum())
        state["won"] += float((rewards[np.arange(n), mover] > 0)[done].sum())
    state["obs"], state["mask"], state["to_play"] = obs, mask, to_play
    # the value of the position each env stopped in, for the last steps' advantages
    out["last_v"] = net.forward(obs, mask)[3]
    return out


def advantages(roll: dict, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """GAE over the learner's own decisions (an opponent's moves are part of the step)."""
    steps = len(roll["r"])
    adv = np.zeros_like(roll["r"])
    running = np.zeros(roll["r"].shape[1], np.float32)
    next_v = roll["last_v"]
    for t in range(steps - 1, -1, -1):
        alive = 1.0 - roll["done"][t]
        delta = roll["r"][t] + gamma * next_v * alive - roll["v"][t]
        running = delta + gamma * lam * alive * running
        adv[t] = running
        next_v = roll["v"][t]
    return adv, adv + roll["v"]


def update(net: Network, roll: dict, args: argparse.Namespace, rng: np.random.Generator) -> dict:
    """PPO's ``--epochs`` passes over the rollout in shuffled minibatches, each advantage
    normalised within its minibatch; the last minibatch's statistics."""
    adv, returns = advantages(roll, args.gamma, args.lam)
    flat = {k: roll[k].reshape(-1, *roll[k].shape[2:]) for k in ("x", "mask", "a", "logp")}
    adv, returns = adv.reshape(-1), returns.reshape(-1)
    stats: dict = {}
    for _ in range(args.epochs):
        order = rng.permutation(len(adv))
        for start in range(0, len(order), args.minibatch):
            pick = order[start:start + args.minibatch]
            a = adv[pick]
            a = (a - a.mean()) / (a.std() + 1e-8)
            grads, stats = net.gradients(flat["x"][pick], flat["mask"][pick], flat["a"][pick], flat["logp"][pick],
                                         a, returns[pick], args.clip, args.entropy, args.value_weight)
            net.adam(grads, args.lr)
    return stats


def evaluate(net: Network, games: int, seed: int, greedy: bool) -> tuple[float, float]:
    """(win rate, mean margin) over ``games`` games against one-step, the learner in seat
    0 of even envs and seat 1 of odd ones, each env's first game counted."""
    vg = batch(games, seed, "one-step", "win")
    obs, mask, to_play = vg.reset()
    rng = None if greedy else np.random.default_rng(seed)
    result = np.full(games, np.nan)
    margins = np.zeros(games)
    while np.isnan(result).any():
        a, _, _ = net.act(obs, mask, rng)
        mover = to_play.copy()
        obs, mask, to_play, rewards, done = vg.step(a)
        for env in np.flatnonzero(done & np.isnan(result)):
            seat = int(mover[env])
            result[env] = rewards[env, seat]
            margins[env] = vg.final_scores[env, seat] - vg.final_scores[env, 1 - seat]
    return float(result.mean()), float(margins.mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cpu-minutes", type=float, default=25.0, help="training budget (the process's CPU time)")
    parser.add_argument("--updates", type=int, default=None, help="a budget of updates instead")
    parser.add_argument("--opponent", default="one-step", help="a scripted style, 'random', or 'self'")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=64, help="decisions per env per update")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--minibatch", type=int, default=1024)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--value-weight", type=float, default=0.5)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report", type=int, default=20, help="updates between progress lines")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    vg = batch(args.envs, args.seed, args.opponent, "margin")
    net = Network(vg.observation_size, vg.n_actions, args.hidden, rng)
    print(f"{VARIANT}, {PLAYERS} players: {vg.observation_size} inputs, {vg.n_actions} actions; "
          f"{args.envs} games at once against {args.opponent}")
    before = evaluate(net, args.eval_games, 10**6, greedy=False)
    print(f"before training (sampling): win rate {before[0]:.1%} against one-step over {args.eval_games} games")
    obs, mask, to_play = vg.reset()
    state = {"obs": obs, "mask": mask, "to_play": to_play, "finished": 0, "won": 0.0}
    cpu0, wall0 = time.process_time(), time.perf_counter()
    updates = 0
    last = (0, 0.0)
    while (updates < args.updates if args.updates is not None
           else time.process_time() - cpu0 < args.cpu_minutes * 60):
        roll = collect(net, vg, state, args.steps, rng)
        stats = update(net, roll, args, rng)
        updates += 1
        if updates % args.report == 0:
            games, won = state["finished"] - last[0], state["won"] - last[1]
            last = (state["finished"], state["won"])
            print(f"  {time.process_time() - cpu0:7.0f} s CPU  {updates:5d} updates  {state['finished']:7d} games  "
                  f"margin > 0 in {won / max(games, 1):.1%} of the last {games}  entropy {stats['entropy']:.2f}  "
                  f"clipped {stats['clipped']:.2f}", flush=True)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print(f"trained: {updates} updates, {state['finished']} games, {updates * args.steps * args.envs:,} decisions "
          f"of the learner in {cpu / 60:.1f} min CPU ({wall / 60:.1f} min wall)")
    greedy = evaluate(net, args.eval_games, 2 * 10**6, greedy=True)
    sampled = evaluate(net, args.eval_games, 3 * 10**6, greedy=False)
    print(f"after training: win rate against one-step over {args.eval_games} games: {greedy[0]:.1%} "
          f"(most likely action, mean margin {greedy[1]:+.1f}), {sampled[0]:.1%} (sampling, {sampled[1]:+.1f})")
    if args.markdown:
        print()
        print(f"| against one-step, {args.eval_games} games | win rate | mean margin |")
        print("|---|---|---|")
        print(f"| before training (sampling: close to uniform over the legal actions) | {before[0]:.1%} | "
              f"{before[1]:+.1f} |")
        print(f"| after {updates} updates, {cpu / 60:.0f} min CPU (most likely action) | {greedy[0]:.1%} | "
              f"{greedy[1]:+.1f} |")
        print(f"| after {updates} updates (sampling) | {sampled[0]:.1%} | {sampled[1]:+.1f} |")
    vg.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
