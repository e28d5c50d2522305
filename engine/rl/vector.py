"""Batched games for learning (docs/rl.md "Batched games"): many games of one variant
stepped together in C, each replayable one by one through the single-game API.

    from railspec.rl.vector import VectorGame
    vg = VectorGame("usa", num_envs=256, players=2, seed=1)
    obs, mask, to_play = vg.reset()
    while training:
        actions = my_policy(obs, mask)                  # int32 [num_envs], legal in each env
        obs, mask, to_play, rewards, done = vg.step(actions)

One call of :meth:`VectorGame.step` plays one decision in every game, without the GIL:
the caller's action, then the seats the caller does not hold (``learner_seats=`` and
``opponents=``: random players or the scripted styles, played in C as the agents of those
names play), and when a game ends its rewards for every seat and the next game of that env
(autoreset). The arrays returned are the batch's own, written again by the next call (or
the caller's, given as ``arrays=``): copy what must outlive a step.

Env ``i``'s ``k``-th game is the game ``v.new_game(players, seed=vg.game_seed(i, k))``:
the same actions give the same masks, observation vectors and scores
(``railspec.playtest.agents.make(name, seed=vg.agent_seed(i, k, p))`` plays seat ``p``'s
opponent the same way).

Needs numpy (the gymnasium extra, or any of the RL extras, brings it).
"""
from __future__ import annotations

import threading
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..compiler.base.errors import ArgumentError, IllegalActionError, RailspecError
from ..playtest.agents import RANDOM_SALT
from ..playtest.agents.kernel import kernel
from ..playtest.agents.scripted import SCRIPTED_SALT
from ..playtest.agents.tables import policy_tables
from ..runtime.game import Variant
from ..runtime.scoring import winners
from . import _vector
from .common import load_variant

#: The rewards a batch gives at the end of a game, per seat: the final score, the score
#: margin over the best other seat, or the share of the win (1 split among the winners after
#: the tie-breakers).
REWARDS = ("score", "margin", "win")
#: What may hold a seat the learner does not: a random player or a scripted style.
OPPONENTS = ("random", "one-step", "long-route", "route-focus", "destination-hungry", "greedy")
#: The arrays :meth:`VectorGame.step` writes, as ``arrays=`` may give them.
ARRAYS = ("obs", "mask", "to_play", "rewards", "done")


class VectorGame:
    """``num_envs`` games of ``variant`` (a stock name, a spec path or a loaded
    :class:`railspec.Variant`) at ``players`` seats, stepped together in C.

    - ``seed``: every game's and opponent's seed derives from it (:meth:`game_seed`,
      :meth:`agent_seed`).
    - ``threads``: threads sharing each step's games (contiguous runs of envs); every game
      is the same whatever the number.
    - ``learner_seats``: the seats whose decisions the caller makes (all of them by default:
      self-play); ``opponents``: who holds each other seat, in seat order (names of
      :data:`OPPONENTS`; random players by default). With ``rotate``, the seating turns by
      one seat each game and each env: in env ``i``'s ``k``-th game, the holder listed for
      seat ``r`` sits at seat ``(r + i + k) mod players``.
    - ``reward``: one of :data:`REWARDS`.
    - ``arrays``: any of :data:`ARRAYS` to write into instead of the batch's own (numpy
      arrays of the shapes and types :meth:`step` returns).
    """

    def __init__(self, variant: Variant | str, num_envs: int, players: int = 2, seed: int = 0, threads: int = 1,
                 learner_seats: Sequence[int] | None = None, opponents: Sequence[str] | None = None,
                 rotate: bool = False, reward: str = "score", arrays: Mapping[str, np.ndarray] | None = None) -> None:
        self.variant = load_variant(variant)
        self.variant.ir.check_players(players)
        for name, value in (("num_envs", num_envs), ("threads", threads)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ArgumentError(f"{name} must be an int of 1 or more, not {value!r}")
        if reward not in REWARDS:
            raise RailspecError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.num_envs = num_envs
        self.players = players
        self.seed = int(seed) % 2**64
        self.threads = min(threads, num_envs)
        self.reward = reward
        self.learner_seats, self.opponents = _seating(players, learner_seats, opponents)
        self.rotate = bool(rotate)
        self.n_actions = len(self.variant.actions)
        engine = self.variant.module().Engine
        self._breakdown_keys: tuple[str, ...] = engine.breakdown_keys
        self._core = self._kernel(engine.capsule)
        self.observation_size = self._core.obs_size
        self._arrays = _arrays(num_envs, self.observation_size, self.n_actions, players, arrays)
        self._rows = np.zeros((num_envs, players, len(self._breakdown_keys)), dtype=np.intc)
        self._games = np.zeros(num_envs, dtype=np.int64)
        self._final_obs = np.zeros((num_envs, self.observation_size), dtype=np.float32)
        self._core.attach(*(self._arrays[name] for name in ARRAYS), self._rows, self._final_obs)
        self._pool = _Pool(self._core.run, self.threads) if self.threads > 1 else None
        self._reset_done = False

    def _kernel(self, capsule: Any) -> Any:
        """The C batch, its seats and its policies (one a thread) made."""
        lib = kernel()
        codes = {"caller": _vector.HOLDERS["caller"], "random": _vector.HOLDERS["random"], **lib.STYLES}
        holders = self.holders()
        seating = [codes[name] for name in holders]
        scripted = [name not in ("caller", "random") for name in holders]
        policies = [lib.Policy(policy_tables(self.variant.ir)) for _ in range(self.threads)] if any(scripted) else []
        seats: list[Any] = []
        for _env in range(self.num_envs):
            for role, name in enumerate(holders):
                if scripted[role]:
                    seat = lib.Seat(lib.STYLES[name], 0)
                    policies[0].bind(seat)
                    seats.append(seat)
                else:
                    seats.append(None)
        # a batch with no scripted seat still hands the kernel a policy slot per thread
        slots: list[Any] = policies or [None] * self.threads
        return _vector.Batch(capsule, self.num_envs, self.players, self.seed, seating, self.rotate, slots, seats,
                             lib.SEAT_DECIDE, lib.SEAT_RENEW, (RANDOM_SALT, SCRIPTED_SALT),
                             self.reward if self.reward != "win" else "none")

    # --- the API -----------------------------------------------------------------------------
    def reset(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start game 0 of every env (at the first reset; at a later one, each env's next
        game, the one under way abandoned): ``(obs float32[N, D], mask int8[N, A], to_play
        int32[N])``, the observation and legal-action mask of each env's player to decide
        (a seat the caller holds) and that seat."""
        self._core.begin_reset(self._reset_done)
        self._run()
        self._reset_done = True
        a = self._arrays
        return a["obs"], a["mask"], a["to_play"]

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play ``actions[i]`` (int, legal in env ``i``) in every env, then the other holders
        until a seat of the caller's is to decide: ``(obs, mask, to_play, rewards
        float32[N, P], done bool[N])``. Where ``done``, the game ended in this step:
        ``rewards`` holds its result for every seat (zeros elsewhere), and obs, mask and
        to_play are the next game's. An action that is not legal raises
        :class:`~railspec.IllegalActionError` naming the env, and no game changes."""
        if not self._reset_done:
            raise RailspecError("step() before reset(): there are no games yet")
        chosen = np.ascontiguousarray(actions, dtype=np.intc)
        if chosen.shape != (self.num_envs,):
            raise ArgumentError(f"step() takes one action an env: {self.num_envs}, not shape {chosen.shape}")
        bad = self._core.begin_step(chosen)
        if bad >= 0:
            action = self._core.action_of(bad)
            raise IllegalActionError(action, f"env {bad} (game {self._core.game_index(bad)}): action {action} "
                                             f"is not legal now; no game was changed")
        self._run()
        a = self._arrays
        if self.reward == "win":
            self._win_rewards()
        return a["obs"], a["mask"], a["to_play"], a["rewards"], a["done"]

    def sample_actions(self, out: np.ndarray | None = None) -> np.ndarray:
        """A uniform choice among each env's legal actions (int32 [N]), drawn in C from the
        batch's own generator (seeded from ``seed``): a random player for benchmarks and
        exploration."""
        target = np.empty(self.num_envs, dtype=np.intc) if out is None else out
        self._core.sample_actions(target)
        return target

    def game_seed(self, env: int, k: int) -> int:
        """The seed of env ``env``'s ``k``-th game (from 0): one splitmix64 step from the
        state ``seed + env * 2^32 + k`` (mod 2^64). ``v.new_game(players, seed=…)`` plays it."""
        return int(_vector.game_seed(self.seed, env, k))

    def agent_seed(self, env: int, k: int, seat: int) -> int:
        """The seed of the agent holding ``seat`` in env ``env``'s ``k``-th game:
        ``game_seed(env, k) + 1 + seat`` (mod 2^64), as ``agents.make(name, seed=…)`` takes it."""
        return (self.game_seed(env, k) + 1 + seat) % 2**64

    def holders(self, env: int = 0, k: int = 0) -> list[str]:
        """Who holds each seat of env ``env``'s ``k``-th game: ``"caller"`` for a seat whose
        decisions :meth:`step` takes, else an opponent's name."""
        listed = ["caller" if p in self.learner_seats else "" for p in range(self.players)]
        others = iter(self.opponents)
        listed = [name or next(others) for name in listed]
        shift = (env + k) % self.players if self.rotate else 0
        return [listed[(p - shift) % self.players] for p in range(self.players)]

    @property
    def games(self) -> np.ndarray:
        """k of the game each env plays now (int64 [N])."""
        self._core.games_into(self._games)
        return self._games

    @property
    def final_scores(self) -> np.ndarray:
        """Where the last step's ``done``, each seat's final score of the game that ended
        (int32 [N, P]; the rest is stale)."""
        return self._rows[:, :, self._breakdown_keys.index("total")]

    @property
    def final_obs(self) -> np.ndarray:
        """Where the last step's ``done``, the last position of the game that ended, as the
        seat that played the step's action sees it (float32 [N, D]; the rest is stale)."""
        return self._final_obs

    def final_breakdown(self, env: int) -> list[dict[str, int]]:
        """The score breakdown of the game env ``env`` ended in the last step (as
        ``game.score_breakdown()`` gives it)."""
        return [dict(zip(self._breakdown_keys, (int(x) for x in row))) for row in self._rows[env]]

    @property
    def decisions(self) -> int:
        """Decisions applied so far in every env, every seat's (the opponents' too)."""
        return int(self._core.decisions)

    def close(self) -> None:
        """Stop the threads (a batch whose threads are stopped steps on one)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def __enter__(self) -> VectorGame:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- helpers -----------------------------------------------------------------------------
    def _run(self) -> None:
        if self._pool is None:
            for part in range(self._core.threads):
                self._core.run(part)
        else:
            self._pool.run()

    def _win_rewards(self) -> None:
        """Each finished game's shares of the win, after the variant's tie-breakers."""
        rewards = self._arrays["rewards"]
        for env in np.flatnonzero(self._arrays["done"]):
            best = winners(self.variant.ir, self.final_breakdown(int(env)))
            rewards[env] = 0.0
            rewards[env, best] = 1.0 / len(best)


def _seating(players: int, learner_seats: Sequence[int] | None,
             opponents: Sequence[str] | None) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The learner's seats and the other seats' holders, checked."""
    seats = tuple(range(players)) if learner_seats is None else tuple(learner_seats)
    if not seats or len(set(seats)) != len(seats) or any(
            isinstance(p, bool) or not isinstance(p, (int, np.integer)) or not 0 <= p < players for p in seats):
        raise ArgumentError(f"learner_seats must be distinct seats of the {players}-player table, not {seats!r}")
    seats = tuple(sorted(int(p) for p in seats))
    others = players - len(seats)
    names = ("random",) * others if opponents is None else tuple(opponents)
    if len(names) != others:
        raise ArgumentError(f"{others} seats are not the learner's: they need {others} opponents, not {len(names)}")
    for name in names:
        if name not in OPPONENTS:
            raise ArgumentError(f"an opponent in a batch is one of {', '.join(OPPONENTS)}, not {name!r}")
    return seats, names


def _arrays(envs: int, size: int, actions: int, players: int,
            given: Mapping[str, np.ndarray] | None) -> dict[str, np.ndarray]:
    """The arrays a step writes: the caller's where given (checked), else new ones."""
    shapes = {"obs": ((envs, size), np.float32), "mask": ((envs, actions), np.int8),
              "to_play": ((envs,), np.intc), "rewards": ((envs, players), np.float32),
              "done": ((envs,), np.bool_)}
    given = dict(given or {})
    unknown = set(given) - set(shapes)
    if unknown:
        raise ArgumentError(f"arrays= takes {', '.join(ARRAYS)}, not {', '.join(sorted(unknown))}")
    out = {}
    for name, (shape, dtype) in shapes.items():
        array = given.get(name)
        if array is None:
            array = np.zeros(shape, dtype=dtype)
        elif (not isinstance(array, np.ndarray) or array.shape != shape or array.dtype != dtype
              or not array.flags.c_contiguous or not array.flags.writeable):
            raise ArgumentError(f"arrays[{name!r}] must be a writable C-contiguous {np.dtype(dtype).name} "
                                f"array of shape {shape}")
        out[name] = array
    return out


class _Pool:
    """Threads that run the parts of a pass: part 0 on the calling thread, part t on worker
    t, all released together and waited for together (each part runs without the GIL)."""

    def __init__(self, run: Any, threads: int) -> None:
        self._gate = threading.Barrier(threads)
        self._state = {"stop": False}
        self._workers = [threading.Thread(target=_work, args=(run, part, self._gate, self._state),
                                          name=f"railspec-vector-{part}", daemon=True)
                         for part in range(1, threads)]
        for worker in self._workers:
            worker.start()
        self._finalizer = weakref.finalize(self, _stop, self._gate, self._state)
        self._run = run

    def run(self) -> None:
        """Every part once: the workers' and this thread's."""
        self._gate.wait()
        try:
            self._run(0)
        finally:
            self._gate.wait()

    def close(self) -> None:
        self._finalizer()


def _work(run: Any, part: int, gate: threading.Barrier, state: dict[str, bool]) -> None:
    """A worker: wait for a pass, run its part, wait for the others; until stopped."""
    while True:
        try:
            gate.wait()
            if state["stop"]:
                return
            run(part)
            gate.wait()
        except threading.BrokenBarrierError:
            return


def _stop(gate: threading.Barrier, state: dict[str, bool]) -> None:
    state["stop"] = True
    gate.abort()
