"""Information-set Monte Carlo tree search with determinization (single observer).

Each iteration draws one world consistent with what the searching player sees
(:func:`railspec.determinize.resample`: the deck's order, the opponents' hands and tickets
redrawn), walks the one tree shared by all worlds from the root, choosing among the
actions legal in this world by UCB1 with availability counts, adds one new node, plays
the world out with uniformly random actions inside the compiled engine's API, and backs
the result up: each node is credited with the reward of the player who chose the action
leading to it. Opponents' decisions are nodes of the same tree, so the search models them
as players of the same kind. The action played is the root's most visited child.

The reward of a finished game mixes winning and margin: 0.7 for a win (shared when tied),
plus 0.3 times the score margin over the best opponent mapped from [-50, 50] onto [0, 1],
so searches that cannot find a win still prefer losing by less.
"""
from __future__ import annotations

import math
from array import array

from ..determinize import resample_game
from ..rng import SplitMix64

#: Salts the agent's seed (the worlds it draws and its tree walks share its generator).
ISMCTS_SALT = 0x94D049BB133111EB


class _Node:
    __slots__ = ("children", "visits", "available", "reward", "player")

    def __init__(self, player: int = -1):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.player = player  # who chose the action that leads here


def game_rewards(scores: list[int], winners: list[int]) -> list[float]:
    """Each seat's reward for a finished game (see the module's docstring)."""
    out = []
    for p, score in enumerate(scores):
        best_other = max((s for q, s in enumerate(scores) if q != p), default=score)
        margin = max(-1.0, min(1.0, (score - best_other) / 50.0))
        win = 1.0 / len(winners) if p in winners else 0.0
        out.append(0.7 * win + 0.3 * (margin + 1.0) / 2.0)
    return out


class IsmctsAgent:
    """ISMCTS with ``iterations`` worlds per decision and UCB1 constant ``exploration``."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = 200, exploration: float = 0.7):
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations must be a positive integer, not {iterations!r}")
        self.rng = SplitMix64((int(seed) % 2**64) ^ ISMCTS_SALT)
        self.iterations = iterations
        self.exploration = exploration
        self._buffer = None

    def act(self, game) -> int:
        """The root action most visited after ``iterations`` determinized searches."""
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = game.current_player
        if self._buffer is None or len(self._buffer) < len(game.variant.actions):
            self._buffer = array("i", [0]) * len(game.variant.actions)
        root = _Node()
        rng = self.rng
        for _ in range(self.iterations):
            world = resample_game(game, me, rng.next())
            path = self._descend(root, world)
            self._roll_out(world)
            rewards = game_rewards(world.scores(), world.winners())
            for node in path:
                node.visits += 1
                node.reward += rewards[node.player]
        return max(legal, key=lambda a: (root.children[a].visits if a in root.children else -1, -a))

    def _descend(self, node: _Node, world) -> list[_Node]:
        """Select by UCB1 among the children legal in ``world`` until a new node is added."""
        path = []
        rng = self.rng
        c = self.exploration
        while not world.is_over:
            legal = world.legal_actions()
            children = node.children
            untried = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.available += 1
            chooser = world.current_player
            if untried:
                action = untried[rng.below(len(untried))]
                child = children[action] = _Node(chooser)
                child.available = 1
                world.apply(action)
                path.append(child)
                return path
            best, best_value = -1, -1.0
            for a in legal:
                child = children[a]
                value = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
                if value > best_value:
                    best, best_value = a, value
            node = children[best]
            world.apply(best)
            path.append(node)
        return path

    def _roll_out(self, world) -> None:
        """Uniformly random actions to the end of the game."""
        buffer = self._buffer
        rng = self.rng
        into = world.legal_actions_into
        apply = world.apply
        while not world.is_over:
            count = into(buffer)
            apply(buffer[rng.below(count)])
