"""railspec variants as PettingZoo AEC environments (the ``pettingzoo`` extra; docs/rl.md).

    import railspec.pettingzoo
    env = railspec.pettingzoo.env("usa", players=4)
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated else my_policy(obs["observation"], obs["action_mask"])
        env.step(action)

Agents are ``player_0`` … ``player_<n-1>``, the seats. Play is turn-based: the agent
selected is the seat to decide, and one turn may be several decisions by the same agent
(a second card, the tickets to keep). Each agent observes a dict: ``observation``, its
float32 vector (``railspec.tensor``: the same layout for every seat, seats relative to
the observer), and ``action_mask``, int8 over the variant's fixed catalogue, all zeros
for an agent that is not to decide.

Rewards come at the end only, when every agent is terminated: ``reward="score"`` (the
default) gives each agent its final score; ``reward="win"`` gives 1 shared among the
winners after the tie-breakers and 0 to the others. A game always ends (the trains run
out, or nobody can act for a full round), so nothing is truncated.

``reset(seed=s)`` deals game ``s``; a reset without a seed deals the next game from the
generator of the last seed given (or of seed 0). ``render()`` returns the position as text
(``render_mode="ansi"``), or the map with the claims drawn as SVG text
(``render_mode="svg"``).
"""
from __future__ import annotations

import warnings

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..compiler.base.errors import RailspecError
from ..compiler.base.rng import SplitMix64
from ..runtime.game import Game
from . import tensor
from .common import check_reward, final_rewards, load_variant, render_game

#: What ``render_mode`` may be.
RENDER_MODES = ("ansi", "svg")


def env(variant, players: int = 2, reward: str = "score", render_mode: str | None = None) -> "RailspecEnv":
    """An AEC environment of ``variant`` (a stock name, a spec path or a loaded
    :class:`railspec.Variant`) at a table of ``players``."""
    return RailspecEnv(variant, players=players, reward=reward, render_mode=render_mode)


class RailspecEnv(AECEnv):
    """One table of a railspec variant as a PettingZoo AEC environment (see the module)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "railspec", "is_parallelizable": False}

    def __init__(self, variant, players: int = 2, reward: str = "score", render_mode: str | None = None):
        super().__init__()
        self.variant = load_variant(variant)
        self.variant.ir.check_players(players)
        check_reward(reward)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise RailspecError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
        self.players = players
        self.reward_kind = reward
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"railspec_{self.variant.key}_v0")
        self.encoder = tensor.ObservationEncoder(self.variant)
        self.spec_layout = self.encoder.spec
        n_actions = len(self.variant.actions)
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape=(self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8),
        })
        self._observation_spaces = {a: space for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._seeds = SplitMix64(0)
        self.game: Game | None = None

    # --- spaces ------------------------------------------------------------------------
    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    # --- the AEC API ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: game ``seed`` when given, else the next from the generator of the
        last seed given."""
        if seed is not None:
            self._seeds = SplitMix64(int(seed) % 2**64)
            game_seed = int(seed)
        else:
            game_seed = self._seeds.next()
        game = self.game = self.variant.new_game(players=self.players, seed=game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[game.current_player]

    def observe(self, agent):
        """``agent``'s observation: its vector and its action mask (zeros unless it is to
        decide)."""
        seat = self._seat[agent]
        game = self._playing
        mask = np.zeros(len(self.variant.actions), dtype=np.int8)
        if not game.is_over and game.current_player == seat:
            self.encoder.action_mask(game, mask)
        return {"observation": self.encoder.encode(game, seat), "action_mask": mask}

    def step(self, action) -> None:
        """Play ``action`` for the selected agent (``None`` once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise RailspecError(f"{agent} is to decide: None is an action only once the game is over")
        self._cumulative_rewards[agent] = 0.0
        game = self._playing
        game.apply(int(action))
        for a in self.agents:
            self.rewards[a] = 0.0
        if game.is_over:
            returns = final_rewards(game, self.reward_kind)
            for p, a in enumerate(self.possible_agents):
                self.rewards[a] = returns[p]
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()

    @property
    def _playing(self) -> Game:
        """The game being played (a RailspecError before reset())."""
        if self.game is None:
            raise RailspecError("there is no game yet: call reset()")
        return self.game

    def render(self):
        """The position as text (``ansi``) or as the SVG map (``svg``); None without a
        render mode."""
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode: pass render_mode='ansi' or 'svg'", stacklevel=2)
            return None
        return render_game(self.game, self.render_mode)

    def close(self) -> None:
        self.game = None

    def action_name(self, action: int) -> str:
        """The readable name of an action id."""
        return self.variant.action_name(int(action))
