"""Information-set Monte Carlo tree search with determinization (single observer).

Each iteration draws one world consistent with what the searching player sees
(:func:`railspec.determinize.resample`: the deck's order, the opponents' hands and tickets
redrawn), walks the one tree shared by all worlds from the root, choosing among the
actions legal in this world by UCB1 with availability counts, adds one new node, values
it (below), and backs the result up: each node is credited with the reward of the player who chose the action
leading to it. Opponents' decisions are nodes of the same tree, so the search models them
as players of the same kind. The action played is the root's most visited child.

A new node's world is valued by an estimate of the final scores (route points held, and
each ticket's points weighed by how much of its path is laid), optionally after a few
random actions; random play to the end is an
option, but it says little in this game (see :class:`IsmctsAgent`).

The reward of a finished game mixes winning and margin: 0.7 for a win (shared when tied),
plus 0.3 times the score margin over the best opponent mapped from [-50, 50] onto [0, 1],
so searches that cannot find a win still prefer losing by less.
"""
from __future__ import annotations

import math
from array import array

from ..determinize import resample_game
from ..rng import SplitMix64
from .board import UNREACHABLE, board_of
from .catalogue import catalogue_of

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


def estimated_rewards(game) -> list[float]:
    """Each seat's reward for an unfinished world, from an estimate of its final score:
    the route points it has, plus for each ticket it holds its points times
    ``2 * progress - 1``. Progress is 1 for a complete ticket, 0 (so minus the points)
    when its cities can no longer be joined or the trains left cannot join them, and
    otherwise the share of the ticket's path on an empty board that the player has
    already laid. The estimates become rewards as :func:`game_rewards` turns final
    scores into them."""
    state = game.state()
    board = board_of(game.variant.ir)
    owner = state["owner"]
    players = state["players"]
    estimates = []
    for p in range(players):
        usable = board.open_routes(owner, p, players)
        trains = state["trains"][p]
        value = float(state["route_score"][p])
        for t in state["tickets"][p]:
            a, b = board.ticket_ends[t]
            cost = board.cheapest_path(owner, p, usable, a, b).cost
            if cost == 0:
                progress = 1.0
            elif cost >= UNREACHABLE or cost > trains:
                progress = 0.0
            else:
                progress = max(0.0, 1.0 - cost / board.empty_cost(t))
            value += board.ticket_points[t] * (2.0 * progress - 1.0)
        estimates.append(value)
    best = max(estimates)
    winners = [p for p, v in enumerate(estimates) if v == best]
    return game_rewards([round(v) for v in estimates], winners)


def candidates(variant, legal: list[int]) -> list[int]:
    """The actions the search considers: every legal one, except that of the ways to pay
    for one route only the one spending the fewest locomotives (then ferry cards, then
    the lowest id) is kept. Payments differ only in which cards stay in hand, and a tree
    that split on them would spend its iterations telling them apart."""
    cat = catalogue_of(variant)
    kind, route, locomotives, ferry = cat.kind, cat.route, cat.locomotives, cat.ferry_cards
    out: list[int] = []
    best: dict[int, int] = {}
    for a in legal:
        if kind[a] != "claim":
            out.append(a)
            continue
        r = route[a]
        held = best.get(r)
        if held is None or (locomotives[a], ferry[a]) < (locomotives[held], ferry[held]):
            best[r] = a
    return sorted(out + list(best.values())) if best else out


class IsmctsAgent:
    """ISMCTS with ``iterations`` worlds per decision and UCB1 constant ``exploration``.

    ``rollout``: how a new node's world is valued. ``"estimate"`` (the default) plays
    ``depth`` random actions and then estimates the final scores
    (:func:`estimated_rewards`); ``"random"`` plays uniformly random actions to the end
    and uses the real scores — cheap per action, but random players complete almost no
    tickets, so in Ticket to Ride their endings say little about a position."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = 200, exploration: float = 0.7,
                 rollout: str = "estimate", depth: int = 0):
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations must be a positive integer, not {iterations!r}")
        if rollout not in ("estimate", "random", "one-step"):
            raise ValueError(f"rollout must be 'estimate', 'random' or 'one-step', not {rollout!r}")
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise ValueError(f"depth must be a non-negative integer, not {depth!r}")
        self.rng = SplitMix64((int(seed) % 2**64) ^ ISMCTS_SALT)
        self.iterations = iterations
        self.exploration = exploration
        self.rollout = rollout
        self.depth = depth
        self._buffer = None
        self._policy = None

    def act(self, game) -> int:
        """The root action most visited after ``iterations`` determinized searches."""
        legal = candidates(game.variant.ir, game.legal_actions())
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
            if self.rollout == "one-step":
                self._play_out(world, self.depth)
            else:
                self._roll_out(world, None if self.rollout == "random" else self.depth)
            if world.is_over:
                rewards = game_rewards(world.scores(), world.winners())
            else:
                rewards = estimated_rewards(world)
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
            legal = candidates(world.variant.ir, world.legal_actions())
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

    def _play_out(self, world, depth: int) -> None:
        """``depth`` decisions of the one-step style for every seat."""
        if self._policy is None:
            from .scripted import OneStepAgent
            self._policy = OneStepAgent(seed=self.rng.next())
        made = 0
        while not world.is_over and made < depth:
            world.apply(self._policy.act(world))
            made += 1

    def _roll_out(self, world, depth: int | None) -> None:
        """Uniformly random actions: ``depth`` of them, or to the end when None."""
        buffer = self._buffer
        rng = self.rng
        into = world.legal_actions_into
        apply = world.apply
        made = 0
        while not world.is_over and (depth is None or made < depth):
            count = into(buffer)
            apply(buffer[rng.below(count)])
            made += 1
