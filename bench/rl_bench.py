"""railspec RL benchmark: decisions/s through each RL adapter next to the direct game API,
and observations/s of the tensor fill. A script, not a test: nothing here asserts a time.

    python bench/rl_bench.py [--variant usa] [--players 4] [--games 20] [--repeat 3]

Every row plays the same seeded random games (a uniform choice among the legal actions)
through one interface:

- direct API: ``legal_actions_into`` and ``apply`` on the compiled engine (no observation);
- direct API + tensors: the same, plus the mover's observation vector and mask
  (``railspec.tensor``), what a learning agent needs at every decision;
- OpenSpiel: ``state.legal_actions()`` and ``state.apply_action`` (no observation), then
  again with ``observation_tensor`` of the mover;
- PettingZoo: ``env.last()`` (the observation dict: vector and mask) and ``env.step``;
- Gymnasium: ``env.step`` for the learner, the other seats played by random agents inside
  the environment (every decision counted, the learner's and the opponents').

Then the tensor fill alone: observations/s of the compiled fill (``Game.observation_into``
into a reused numpy vector, and through ``ObservationEncoder.encode``), of the Python fill
(from a game, its state export included, and from an exported state), and masks/s. Each
figure is the best of --repeat runs. An adapter whose package is not installed is reported
as missing.
"""
from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import railspec
from railspec.compiler.base.rng import agent_for
from railspec.rl import tensor

REPEAT = 3


def best_of(fn) -> tuple[float, int]:
    """(best seconds, decisions) over REPEAT runs of ``fn`` (which returns decisions)."""
    best, count = float("inf"), 0
    for _ in range(REPEAT):
        start = time.perf_counter()
        count = fn()
        best = min(best, time.perf_counter() - start)
    return best, count


def direct(v, players: int, games: int, seed: int, observe: bool):
    enc = tensor.ObservationEncoder(v)
    out = enc.new_vector()
    mask = np.zeros(len(v.actions), dtype=np.int8)
    buf = np.zeros(len(v.actions), dtype=np.intc)

    def run():
        decisions = 0
        for i in range(games):
            g = v.new_game(players=players, seed=seed + i)
            agent = agent_for(seed + i)
            while not g.is_over:
                if observe:
                    enc.encode(g, g.current_player, out)
                    enc.action_mask(g, mask)
                n = g.legal_actions_into(buf)
                g.apply(int(buf[agent.below(n)]))
                decisions += 1
        return decisions
    return run


def openspiel(v, players: int, games: int, seed: int, observe: bool):
    import pyspiel

    from railspec.rl import openspiel as ros
    ros.register(v)
    game = pyspiel.load_game(ros.game_name(v), {"players": players, "seed": seed})

    def run():
        decisions = 0
        for i in range(games):
            state = game.new_initial_state()
            agent = agent_for(seed + i)
            while not state.is_terminal():
                if observe:
                    state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[agent.below(len(legal))])
                decisions += 1
        return decisions
    return run


def pettingzoo(v, players: int, games: int, seed: int):
    from railspec.rl import pettingzoo as rpz
    env = rpz.env(v, players=players)

    def run():
        decisions = 0
        for i in range(games):
            env.reset(seed=seed + i)
            agent = agent_for(seed + i)
            for _agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[agent.below(len(legal))]))
                decisions += 1
        return decisions
    return run


def gymnasium(v, players: int, games: int, seed: int):
    from railspec.rl import gymnasium as rg
    env = rg.make(v, players=players, opponents=["random"] * (players - 1))

    def run():
        decisions = 0
        for i in range(games):
            obs, info = env.reset(seed=seed + i)
            agent = agent_for(seed + i)
            done = False
            while not done:
                legal = np.flatnonzero(info["action_mask"])
                obs, _, done, _, info = env.step(int(legal[agent.below(len(legal))]))
            decisions += env.game.state()["decisions"]
        return decisions
    return run


def tensor_fill(v, players: int, positions: int, seed: int) -> list[tuple[str, float]]:
    """Observations/s and masks/s on positions met in random games."""
    games = []
    i = 0
    while len(games) < positions:
        g = v.new_game(players=players, seed=seed + i)
        agent = agent_for(seed + i)
        step = 0
        while not g.is_over and len(games) < positions:
            if step % 5 == 0:
                games.append(g.clone())
            legal = g.legal_actions()
            g.apply(legal[agent.below(len(legal))])
            step += 1
        i += 1
    states = [g.state() for g in games]
    enc = tensor.ObservationEncoder(v)
    out = enc.new_vector()
    mask = np.zeros(len(v.actions), dtype=np.int8)
    movers = [max(0, g.current_player) for g in games]
    pairs = list(zip(games, movers))
    rows = []

    def each(call, items) -> int:
        for item in items:
            call(*item)
        return len(items)
    seconds, n = best_of(lambda: each(lambda g, p: g.observation_into(p, out), pairs))
    rows.append(("compiled: Game.observation_into (reused numpy vector)", n / seconds))
    seconds, n = best_of(lambda: each(lambda g, p: enc.encode(g, p, out), pairs))
    rows.append(("compiled: ObservationEncoder.encode (reused vector)", n / seconds))
    seconds, n = best_of(lambda: each(lambda g, p: enc.fill(g.state(), p, out), pairs))
    rows.append(("Python: from a game (state export + fill)", n / seconds))
    seconds, n = best_of(lambda: each(lambda s, p: enc.fill(s, p, out), list(zip(states, movers))))
    rows.append(("Python: from an exported state (fill only)", n / seconds))
    seconds, n = best_of(lambda: each(lambda g: g.state(), [(g,) for g in games]))
    rows.append(("state exports/s (for comparison)", n / seconds))
    seconds, n = best_of(lambda: each(lambda g: g.action_mask_into(mask), [(g,) for g in games]))
    rows.append(("action masks/s (compiled: Game.action_mask_into)", n / seconds))
    seconds, n = best_of(lambda: each(lambda g: enc.action_mask(g, mask), [(g,) for g in games]))
    rows.append(("action masks/s (ObservationEncoder.action_mask)", n / seconds))
    return rows


def main() -> int:
    global REPEAT
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="usa")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20, help="games per measurement")
    parser.add_argument("--positions", type=int, default=2000, help="positions for the tensor fill")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement; the best counts")
    args = parser.parse_args()
    REPEAT = max(1, args.repeat)
    warnings.simplefilter("ignore", railspec.ProvisionalSpecWarning)
    v = railspec.load(args.variant)
    spec = tensor.observation_spec(v)
    print(f"railspec RL benchmark — {v.name}, {args.players} players, {args.games} random games per row "
          f"(best of {REPEAT}); observation: {spec.size} floats in {len(spec)} slices, "
          f"{len(v.actions)} actions")
    rows = [("direct API (legal_actions_into + apply)", lambda: direct(v, args.players, args.games, args.seed, False)),
            ("direct API + observation tensor and mask",
             lambda: direct(v, args.players, args.games, args.seed, True)),
            ("OpenSpiel (legal_actions + apply_action)",
             lambda: openspiel(v, args.players, args.games, args.seed, False)),
            ("OpenSpiel + observation_tensor", lambda: openspiel(v, args.players, args.games, args.seed, True)),
            ("PettingZoo AEC (last + step, observation dict)",
             lambda: pettingzoo(v, args.players, args.games, args.seed)),
            ("Gymnasium (step; opponents random agents)", lambda: gymnasium(v, args.players, args.games, args.seed))]
    base = None
    print(f"{'interface':52} {'decisions/s':>12} {'µs/decision':>12} {'+µs vs direct':>14}")
    for label, make in rows:
        try:
            run = make()
        except ImportError as err:
            print(f"{label:52} {'missing: ' + str(err.name):>40}")
            continue
        seconds, decisions = best_of(run)
        rate = decisions / seconds
        per = 1e6 / rate
        if base is None:
            base = per
        print(f"{label:52} {rate:>12,.0f} {per:>12.1f} {per - base:>+14.1f}")
    print()
    print("tensor fill (observations/s, masks/s):")
    for label, rate in tensor_fill(v, args.players, args.positions, args.seed):
        print(f"  {label:52} {rate:>12,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
