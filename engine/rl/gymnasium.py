"""A railspec variant as a single-agent Gymnasium environment (the ``gymnasium`` extra;
docs/rl.md): the learner holds one seat, agents hold the others.

    import railspec.gymnasium
    env = railspec.gymnasium.make("usa", players=4, opponents=["random", "greedy", "one-step"])
    obs, info = env.reset(seed=7)
    while True:
        action = my_policy(obs, info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated:
            break

The observation is the learner's float32 vector (``railspec.tensor``); the legal actions
are ``info["action_mask"]`` (int8 over the variant's fixed catalogue). After the
learner's action the opponents play (through the agent protocol, ``act(game)``) until
the learner is to decide again or the game is over. The reward is 0 until the end, then
the learner's final score (``reward="score"``) or its share of the win
(``reward="win"``).

An action that is not legal (a policy that ignores the mask) is, by ``illegal=``:
``"penalty"`` (the default) refused, the game unchanged, with ``illegal_reward`` and
``info["illegal_action"] = True``; ``"forfeit"`` the end of the episode with
``illegal_reward``; ``"raise"`` an :class:`~railspec.IllegalActionError`.

The module is named after the package it adapts; it imports the real ``gymnasium``
(absolute imports), never itself.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..compiler.base.errors import IllegalActionError, RailspecError
from ..playtest import agents
from ..runtime.game import Game, Variant
from . import tensor
from .common import check_reward, final_rewards, load_variant, render_game, stock_variants
from .vector import VectorGame

#: Values of the ``illegal`` option.
ILLEGAL = ("penalty", "forfeit", "raise")
#: What ``render_mode`` may be.
RENDER_MODES = ("ansi", "svg")


def make(variant, players: int = 2, opponents=None, **options) -> "RailspecEnv":
    """A single-agent environment of ``variant`` (a stock name, a spec path or a loaded
    :class:`railspec.Variant`) at a table of ``players``; ``opponents`` are the agents of
    the other seats (names for :func:`railspec.agents.make`, or agent objects; random
    players by default). Other options: see :class:`RailspecEnv`."""
    return RailspecEnv(variant, players=players, opponents=opponents, **options)


class RailspecEnv(gymnasium.Env):
    """The learner plays seat ``seat`` (an int, or ``"random"``: drawn at each reset)
    against ``opponents``; see the module for rewards and illegal actions."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, variant, players: int = 2, opponents=None, seat=0, reward: str = "score",
                 illegal: str = "penalty", illegal_reward: float = -1.0, render_mode: str | None = None):
        self.variant = load_variant(variant)
        self.variant.ir.check_players(players)
        check_reward(reward)
        if illegal not in ILLEGAL:
            raise RailspecError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise RailspecError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise RailspecError(f"seat must be a seat of the {players}-player table or 'random', not {seat!r}")
        opponents = ["random"] * (players - 1) if opponents is None else list(opponents)
        if len(opponents) != players - 1:
            raise RailspecError(f"a {players}-player table needs {players - 1} opponents, not {len(opponents)}")
        for o in opponents:
            if isinstance(o, str):
                agents.make(o)  # an unknown name fails here, not at the first reset
            elif not callable(getattr(o, "act", None)):
                raise RailspecError(f"an opponent is an agent name or an object with act(game), not {o!r}")
        self.players = players
        self.opponents = opponents
        self.seat_option = seat
        self.reward_kind = reward
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.encoder = tensor.ObservationEncoder(self.variant)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(self.encoder.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(len(self.variant.actions))
        self.game: Game | None = None
        self._done = False  # the episode ended (the game is over, or the learner forfeited)
        self.seat = 0 if seat == "random" else seat
        self._seated: list = []

    # --- the Gymnasium API -------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game: its seed, the opponents' seeds and a random seat all come from the
        environment's generator (seeded by ``seed``)."""
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(rng.integers(0, 2**63))
        if self.seat_option == "random":
            self.seat = int(rng.integers(0, self.players))
        others = [agents.make(o, seed=int(rng.integers(0, 2**63))) if isinstance(o, str) else o
                  for o in self.opponents]
        self._seated = others[:self.seat] + [None] + others[self.seat:]
        self.game = self.variant.new_game(players=self.players, seed=game_seed)
        self._done = False
        self._play_opponents()
        return self._observation(), self._info()

    def step(self, action):
        """Play the learner's ``action``, then the opponents' until the learner is to
        decide again or the game ends."""
        if self.game is None:
            raise RailspecError("step() before reset(): there is no game yet")
        if self._done:
            raise RailspecError("step() after the episode ended: call reset()")
        try:
            self.game.apply(int(action))
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            self._done = self.illegal == "forfeit"
            return self._observation(), self.illegal_reward, self._done, False, self._info(illegal_action=True)
        self._play_opponents()
        over = self._done = self.game.is_over
        reward = self._final_reward() if over else 0.0
        return self._observation(), reward, over, False, self._info()

    def render(self):
        """The position as text (``ansi``) or the SVG map (``svg``); None without a
        render mode."""
        if self.render_mode is None:
            return None
        return render_game(self.game, self.render_mode)

    def close(self) -> None:
        self.game = None

    # --- helpers ---------------------------------------------------------------------------
    def action_mask(self) -> np.ndarray:
        """The learner's legal actions now (int8; zeros when it is not to decide)."""
        mask = np.zeros(len(self.variant.actions), dtype=np.int8)
        if self.game is not None and not self.game.is_over and self.game.current_player == self.seat:
            self.encoder.action_mask(self.game, mask)
        return mask

    def _observation(self) -> np.ndarray:
        return self.encoder.encode(self.game, self.seat)

    def _info(self, illegal_action: bool = False) -> dict:
        info = {"action_mask": self.action_mask(), "seat": self.seat}
        if illegal_action:
            info["illegal_action"] = True
        game = self._playing
        if game.is_over:
            info["scores"] = game.scores()
            info["winners"] = game.winners()
        return info

    @property
    def _playing(self) -> Game:
        """The game being played (a RailspecError before reset())."""
        if self.game is None:
            raise RailspecError("there is no game yet: call reset()")
        return self.game

    def _final_reward(self) -> float:
        return final_rewards(self.game, self.reward_kind)[self.seat]

    def _play_opponents(self) -> None:
        agents.take_turns(self.game, self._seated, until_seat=self.seat)


class RailspecVectorEnv(VectorEnv):
    """Many games of ``variant`` as one Gymnasium vector environment (docs/rl.md "Batched
    games"), stepped in C by :class:`railspec.rl.vector.VectorGame`: in each env the learner
    holds one seat (``seat``: an int, or ``"rotate"``: seat ``(i + k) mod players`` in env
    ``i``'s ``k``-th game) and ``opponents`` (random players or scripted styles, by name)
    the others, played inside the step.

    Gymnasium's conventions: the batched spaces are ``batch_space`` of the single ones;
    ``reset(seed=s)`` starts every env's game 0 of a batch seeded ``s`` (without a seed,
    each env's next game of the same batch, the one under way abandoned); the autoreset mode
    is ``SAME_STEP``: where a game ends, the step returns the reward (the learner's score,
    margin or share of the win), ``terminated`` True, and already the next game's
    observation, the ended game's last observation in
    ``info["final_obs"]`` (and ``info["final_info"]``: its ``scores``), each with its
    ``_``-prefixed mask. ``info["action_mask"]`` (int8 [N, A]) holds the legal actions of
    the observation returned; an action that is not legal raises
    :class:`~railspec.IllegalActionError` naming the env, no game changed. Observations,
    masks and infos are copies the next step does not touch."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, variant: Variant | str, num_envs: int, players: int = 2,
                 opponents: Sequence[str] | None = None, seat: int | str = 0, reward: str = "score",
                 threads: int = 1) -> None:
        self.variant = load_variant(variant)
        if seat != "rotate" and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise RailspecError(f"seat must be a seat of the {players}-player table or 'rotate', not {seat!r}")
        self._options = {"variant": self.variant, "num_envs": num_envs, "players": players,
                         "learner_seats": [0 if seat == "rotate" else seat],
                         "opponents": ["random"] * (players - 1) if opponents is None else list(opponents),
                         "rotate": seat == "rotate", "reward": reward, "threads": threads}
        self.batch = VectorGame(seed=0, **self._options)
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(self.batch.observation_size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.batch.n_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        self._mover = np.zeros(num_envs, dtype=np.intc)
        self._started = False

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Every env's next game (game 0 of a batch seeded ``seed``, when given)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
                raise RailspecError(f"reset(seed=) takes one int for the whole batch, not {seed!r}")
            # Gymnasium's own generator (np_random), seeded as its checks expect (the games
            # draw nothing from it); a seed it refuses changes nothing
            super().reset(seed=int(seed))
            self.batch.close()
            self.batch = VectorGame(seed=int(seed), **self._options)
        obs, mask, to_play = self.batch.reset()
        self._started = True
        self._mover[:] = to_play
        return obs.copy(), self._info(mask, to_play)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The learner's action in every env, then the opponents' until the learner is to
        decide again (the next game's first decision where a game ended)."""
        if not self._started:
            raise RailspecError("step() before reset(): there are no games yet")
        obs, mask, to_play, rewards, done = self.batch.step(actions)
        reward = rewards[np.arange(self.num_envs), self._mover].astype(np.float64)
        terminated = done.copy()
        info = self._info(mask, to_play)
        if terminated.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_info: dict[str, Any] = {"scores": np.zeros((self.num_envs, self.batch.players), dtype=np.int64),
                                "_scores": terminated.copy()}
            for env in np.flatnonzero(terminated):
                final_obs[env] = self.batch.final_obs[env].copy()
                final_info["scores"][env] = self.batch.final_scores[env]
            info.update({"final_obs": final_obs, "_final_obs": terminated.copy(), "final_info": final_info,
                         "_final_info": terminated.copy()})
        self._mover[:] = to_play
        return obs.copy(), reward, terminated, np.zeros(self.num_envs, dtype=np.bool_), info

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the batch's threads."""
        self.batch.close()

    def _info(self, mask: np.ndarray, to_play: np.ndarray) -> dict[str, Any]:
        every = np.ones(self.num_envs, dtype=np.bool_)
        return {"action_mask": mask.copy(), "_action_mask": every, "seat": to_play.astype(np.int64),
                "_seat": every.copy()}


def make_vec(variant: Variant | str, num_envs: int, players: int = 2, opponents: Sequence[str] | None = None,
             **options: Any) -> RailspecVectorEnv:
    """A Gymnasium vector environment of ``num_envs`` games of ``variant`` (see
    :class:`RailspecVectorEnv`)."""
    return RailspecVectorEnv(variant, num_envs, players=players, opponents=opponents, **options)


def register() -> list[str]:
    """Register ``railspec/<key>-v0`` with Gymnasium for every stock variant that loads, so
    ``gymnasium.make("railspec/usa-v0", players=4, opponents=[…])`` works. Returns the ids."""
    ids = []
    for v in stock_variants():
        env_id = f"railspec/{v.key}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=f"{__name__}:make", vector_entry_point=f"{__name__}:make_vec",
                               kwargs={"variant": v.key})
        ids.append(env_id)
    return ids
