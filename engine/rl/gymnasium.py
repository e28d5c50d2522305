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

import gymnasium
import numpy as np
from gymnasium import spaces

from ..compiler.base.errors import IllegalActionError, RailspecError
from ..playtest import agents
from ..runtime.game import Game
from . import tensor
from .common import check_reward, final_rewards, load_variant, render_game, stock_variants

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


def register() -> list[str]:
    """Register ``railspec/<key>-v0`` with Gymnasium for every stock variant that loads, so
    ``gymnasium.make("railspec/usa-v0", players=4, opponents=[…])`` works. Returns the ids."""
    ids = []
    for v in stock_variants():
        env_id = f"railspec/{v.key}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=f"{__name__}:make", kwargs={"variant": v.key})
        ids.append(env_id)
    return ids
