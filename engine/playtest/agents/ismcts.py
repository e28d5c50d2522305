"""Information-set Monte Carlo search with determinization (single observer).

The searching player's information set is the root. An iteration draws one world
consistent with what the player sees (:func:`railspec.determinize.resample`: the deck's
order, the opponents' hands and tickets redrawn) and plays every root action in that
same world, each followed by a playout to the end of the game; the actions are thus
compared on the same hidden cards and the same deck, which removes most of the noise a
rollout carries (common random numbers). With ``depth`` above 0, each root action's
world first walks a tree of the decisions after it (UCB1 with availability counts, one
tree shared by all worlds, each node credited with the reward of the player who chose
it) before the playout. The action played is the root action with the best mean reward.

The actions a node considers are a portfolio: the distinct choices the scripted styles
would make there (:mod:`.scripted`). Ticket to Ride offers hundreds of legal ids, most
of them payments that differ only in which cards stay in hand, and an iteration budget
spread over all of them learns nothing; the styles' choices are few and each is a
sensible plan, so the search spends its worlds telling plans apart. When every style
agrees there is nothing to search and the agent plays that action at once.

A world is played to its end by the compiled styles: the searching player's seat by
``rollout_style`` (one-step), and each opponent by a style drawn for that world from
``opponent_styles`` (the four playing styles), so the search does not bet on a single
model of the people it plays against; every root action of one world meets the same
opponents. ``rollout="random"`` plays uniformly random actions instead, which in this
game says little: random players complete almost no tickets. The compiled engine plays a
rollout without leaving C; on the reference engine the same styles play through the
Python API.

The reward of a finished game mixes winning and margin: 0.7 for a win (shared when tied
on points; the variant's tie-breaks are not consulted inside the search), plus 0.3 times
the score margin over the best opponent mapped from [-50, 50] onto [0, 1], so searches
that cannot find a win still prefer losing by less.
"""
from __future__ import annotations

import math
from array import array

from ...compiler.base.rng import SplitMix64
from .kernel import kernel
from .tables import policy_of

#: Salts the agent's seed (the worlds it draws and its tree walks share its generator).
ISMCTS_SALT = 0x94D049BB133111EB
#: The styles whose choices make up a node's actions, by default.
PORTFOLIO = ("one-step", "long-route", "route-focus", "destination-hungry", "greedy")
#: The styles a playout draws each opponent's from, by default: the four playing styles.
OPPONENT_STYLES = ("one-step", "long-route", "route-focus", "destination-hungry")


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


def _rewards_from_totals(totals: list[int]) -> list[float]:
    best = max(totals)
    return game_rewards(totals, [p for p, t in enumerate(totals) if t == best])


class IsmctsAgent:
    """ISMCTS with about ``iterations`` playouts per decision (each world drawn is played
    once per root action, so ``iterations // actions`` worlds).

    ``portfolio``: the styles whose choices a node considers. ``rollout``: ``"policy"``
    (the default) plays each world to the end, the player's own seat with
    ``rollout_style`` and each opponent with a style drawn from ``opponent_styles``;
    ``"random"`` plays uniformly random actions. ``depth``: tree levels searched after
    the root action (UCB1 constant ``exploration``) before the playout; 2 by default."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = 200, exploration: float = 0.7,
                 rollout: str = "policy", rollout_style: str = "one-step", portfolio=PORTFOLIO,
                 depth: int = 2, opponent_styles=OPPONENT_STYLES):
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations must be a positive integer, not {iterations!r}")
        if rollout not in ("policy", "random"):
            raise ValueError(f"rollout must be 'policy' or 'random', not {rollout!r}")
        opponent_styles = tuple(opponent_styles)
        if not opponent_styles:
            raise ValueError("opponent_styles needs at least one style")
        styles = kernel().STYLES
        for style in (rollout_style, *portfolio, *opponent_styles):
            if style not in styles:
                raise ValueError(f"no scripted style named {style!r}; the styles are {', '.join(styles)}")
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise ValueError(f"depth must be a non-negative integer, not {depth!r}")
        if not portfolio:
            raise ValueError("the portfolio needs at least one style")
        self.rng = SplitMix64((int(seed) % 2**64) ^ ISMCTS_SALT)
        self.iterations = iterations
        self.exploration = exploration
        self.rollout = rollout
        self.rollout_style = styles[rollout_style]
        self.opponent_styles = [styles[name] for name in opponent_styles]
        self.depth = depth
        # one seat per portfolio style (their choices), one per game seat (the rollouts)
        self._proposers = [kernel().Seat(styles[s], self.rng.next()) for s in portfolio]
        self._rollers: list = []
        self._buffer = None

    def act(self, game) -> int:
        """The root action with the best mean reward after ``iterations`` rollouts."""
        root_actions = self._portfolio(game)
        if len(root_actions) == 1:
            return root_actions[0]
        me = game.current_player
        while len(self._rollers) < game.players:
            self._rollers.append(kernel().Seat(0, self.rng.next()))
        root = _Node()
        rng = self.rng
        worlds = max(1, self.iterations // len(root_actions))
        for _ in range(worlds):
            world = game.resample(me, rng.next())
            # who the opponents are in this world: a style each, drawn from opponent_styles
            styles = [self.rollout_style if p == me else
                      self.opponent_styles[rng.below(len(self.opponent_styles))] for p in range(game.players)]
            # every root action on the same world: they are compared on the same hidden cards
            for action in root_actions:
                trial = world.clone()
                trial.apply(action)
                child = root.children.get(action)
                if child is None:
                    child = root.children[action] = _Node(me)
                path = [child]
                if self.depth and not trial.is_over:
                    path += self._descend(child, trial, self._portfolio(trial), self.depth)
                rewards = self._play_out(trial, styles)
                for node in path:
                    node.visits += 1
                    node.reward += rewards[node.player]
        return max(root_actions, key=lambda a: (root.children[a].reward / root.children[a].visits, -a))

    def _portfolio(self, game) -> list[int]:
        """The distinct actions the portfolio's styles would take in ``game``, ascending."""
        policy = policy_of(game.variant.ir)
        if game.engine == "compiled":
            return sorted({policy.decide_compiled(seat, game._e) for seat in self._proposers})
        view = game.agent_view()
        legal = game.legal_actions()
        return sorted({policy.decide(seat, view, legal) for seat in self._proposers})

    def _descend(self, node: _Node, world, actions: list[int], depth: int) -> list[_Node]:
        """Select by UCB1 among the actions available in ``world`` until a new node is added
        or ``depth`` levels are walked."""
        path = []
        rng = self.rng
        c = self.exploration
        while not world.is_over and len(path) < depth:
            children = node.children
            untried = []
            for a in actions:
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
            for a in actions:
                child = children[a]
                value = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
                if value > best_value:
                    best, best_value = a, value
            node = children[best]
            world.apply(best)
            path.append(node)
            if not world.is_over:
                actions = self._portfolio(world)
        return path

    def _play_out(self, world, styles: list[int]) -> list[float]:
        """Play ``world`` to its end, seat p in style ``styles[p]``; each seat's reward."""
        if world.is_over:
            return game_rewards(world.scores(), world.winners())
        if self.rollout == "random":
            self._random_to_end(world)
            return game_rewards(world.scores(), world.winners())
        policy = policy_of(world.variant.ir)
        if world.engine == "compiled":
            return _rewards_from_totals(policy.playout(world._e, styles, self._rollers))
        while not world.is_over:
            seat = self._rollers[world.current_player]
            seat.style = styles[world.current_player]
            view = world.agent_view()
            world.apply(policy.decide(seat, view, world.legal_actions()))
        return _rewards_from_totals(world.scores())

    def _random_to_end(self, world) -> None:
        """Uniformly random actions to the end."""
        if self._buffer is None or len(self._buffer) < len(world.variant.actions):
            self._buffer = array("i", [0]) * len(world.variant.actions)
        buffer = self._buffer
        rng = self.rng
        into = world.legal_actions_into
        apply = world.apply
        while not world.is_over:
            count = into(buffer)
            apply(buffer[rng.below(count)])
