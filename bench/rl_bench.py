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

Then batched games (``railspec.rl.vector``, 2 players by default): decisions per CPU second
of the single-game loop with the mover's observation and mask, and of ``VectorGame`` at
several batch sizes and thread counts (per CPU second and per wall second: on a machine
shared with other work only the CPU figure means much; the wall figure shows the threads'
scaling when the cores are free). Then the tensor fill alone: observations/s of the
compiled fill (``Game.observation_into`` into a reused numpy vector, and through
``ObservationEncoder.encode``), of the Python fill (from a game, its state export
included, and from an exported state), and masks/s. Each figure is the best of --repeat
runs. An adapter whose package is not installed is reported as missing.
"""
from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import railspec
from railspec.compiler.base.rng import agent_for
from railspec.rl import tensor
from railspec.rl.vector import VectorGame

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


def single_loop_rate(v, players: int, games: int, seed: int) -> float:
    """Decisions per CPU second of the single-game loop a learner writes with the direct
    API: the mover's observation vector and mask (``observation_into``,
    ``action_mask_into`` into reused numpy arrays), ``legal_actions_into``, a random choice,
    ``apply``; the best of REPEAT runs."""
    out = np.zeros(tensor.observation_spec(v).size, dtype=np.float32)
    mask = np.zeros(len(v.actions), dtype=np.int8)
    buf = np.zeros(len(v.actions), dtype=np.intc)

    def run() -> int:
        decisions = 0
        for i in range(games):
            g = v.new_game(players=players, seed=seed + i)
            agent = agent_for(seed + i)
            while not g.is_over:
                g.observation_into(g.current_player, out)
                g.action_mask_into(mask)
                n = g.legal_actions_into(buf)
                g.apply(int(buf[agent.below(n)]))
                decisions += 1
        return decisions
    best = 0.0
    for _ in range(REPEAT):
        start = time.process_time()
        decisions = run()
        best = max(best, decisions / (time.process_time() - start))
    return best


def batched_rates(v, players: int, envs: int, steps: int, seed: int, threads: int = 1,
                  opponents: list[str] | None = None) -> tuple[float, float]:
    """(decisions per CPU second, per wall second) of ``railspec.rl.vector.VectorGame``:
    ``steps`` steps of ``envs`` games, each step the observation vector and mask of every
    env's mover, the actions a uniform choice drawn in C (``sample_actions``); every
    decision counted (the opponents' too, with ``opponents``). CPU time is the process's,
    every thread's; the best of REPEAT runs each."""
    learners = None if opponents is None else [0]
    best_cpu = best_wall = 0.0
    with VectorGame(v, envs, players=players, seed=seed, threads=threads, learner_seats=learners,
                    opponents=opponents) as vg:
        vg.reset()
        actions = np.zeros(envs, dtype=np.intc)
        for _ in range(REPEAT):
            first = vg.decisions
            cpu, wall = time.process_time(), time.perf_counter()
            for _ in range(steps):
                vg.step(vg.sample_actions(actions))
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            best_cpu = max(best_cpu, (vg.decisions - first) / cpu)
            best_wall = max(best_wall, (vg.decisions - first) / wall)
    return best_cpu, best_wall


def batched_table(v, players: int, seed: int, decisions: int = 200_000) -> list[tuple[str, float, float]]:
    """The batched rows: (label, decisions per CPU second, per wall second)."""
    rows = []
    for envs in (64, 256, 1024):
        cpu, wall = batched_rates(v, players, envs, max(20, decisions // envs), seed)
        rows.append((f"VectorGame, {envs} envs, 1 thread", cpu, wall))
    for threads in (2, 4):
        cpu, wall = batched_rates(v, players, 256, max(20, decisions // 256), seed, threads=threads)
        rows.append((f"VectorGame, 256 envs, {threads} threads", cpu, wall))
    cpu, wall = batched_rates(v, players, 256, max(20, decisions // 512), seed,
                              opponents=["one-step"] * (players - 1))
    rows.append(("VectorGame, 256 envs, one-step opponents inside", cpu, wall))
    return rows


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
    parser.add_argument("--vector-players", type=int, default=2, help="the table of the batched games' rows")
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
    vp = args.vector_players
    single = single_loop_rate(v, vp, args.games, args.seed)
    print(f"batched games ({v.name}, {vp} players; the mover's observation vector and mask at every decision), "
          f"decisions per second of CPU (every thread's) and of wall clock, best of {REPEAT}:")
    print(f"  {'single-game loop (observation_into, action_mask_into, legal_actions_into, apply)':82} "
          f"{single:>12,.0f} CPU")
    for label, cpu, wall in batched_table(v, vp, args.seed):
        print(f"  {label:82} {cpu:>12,.0f} CPU {wall:>12,.0f} wall  ({cpu / single:.1f}× the single loop)")
    print()
    print("tensor fill (observations/s, masks/s):")
    for label, rate in tensor_fill(v, args.players, args.positions, args.seed):
        print(f"  {label:52} {rate:>12,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
