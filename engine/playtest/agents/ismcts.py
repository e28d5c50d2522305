"""Information-set Monte Carlo search with determinization (single observer).

The searching player's information set is the root. An iteration draws one world
consistent with what the player sees (:func:`railspec.determinize.resample`: the deck's
order, the opponents' hands and tickets redrawn) and plays every root action in that
same world, each followed by a playout (below); the actions are thus
compared on the same hidden cards and the same deck, which removes most of the noise a
rollout carries (common random numbers). With ``depth`` above 0, each root action's
world first walks a tree of the decisions after it (UCB1 with availability counts, one
tree shared by all worlds, each node credited with the reward of the player who chose
it) before the playout. The action played is the root action with the best mean reward
(among those still racing, below).

The actions a node considers are a portfolio: the distinct choices the scripted styles
would make there (:mod:`.scripted`). Ticket to Ride offers hundreds of legal ids, most
of them payments that differ only in which cards stay in hand, and an iteration budget
spread over all of them learns nothing; the styles' choices are few and each is a
sensible plan, so the search spends its worlds telling plans apart. When every style
agrees there is nothing to search and the agent plays that action at once.

A world is played on by the compiled styles: the searching player's seat by
``rollout_style`` (one-step), and each opponent by a style drawn for that world from
``opponent_styles`` (the four playing styles), so the search does not bet on a single
model of the people it plays against; every root action of one world meets the same
opponents. A rollout stops after ``horizon`` decisions (20 by default; None plays to the
end) and the position it reached is judged by a value estimate in C
(:meth:`Policy.estimate <railspec.playtest.agents._policy.Policy.estimate>`): each seat's
total now (open tickets counted lost, as the engine's own scoring counts them), what the
trains it will still lay and the cards in its hand are worth, and for each open ticket
still joinable within those trains, by the cheapest way over its own and free routes, the
swing from losing to completing it times a chance that falls with the trains still to lay.
The weights were fitted to the final scores the styles reach from positions of their own
games. ``rollout="random"`` plays uniformly random actions to the end instead, which in
this game says little: random players complete almost no tickets. The compiled engine
plays a rollout and judges it without leaving C; on the reference engine the same styles
play through the Python API and the same estimate reads every seat's agent view, so both
engines make the same choice.

The reward mixes winning and margin: 0.7 for a win (shared when tied on points; the
variant's tie-breaks are not consulted inside the search), plus 0.3 times the score margin
over the best opponent mapped from [-50, 50] onto [0, 1], so searches that cannot find a
win still prefer losing by less; a rollout stopped early counts its estimates as the
scores.

The root actions race (``confidence``, 2.5 by default): after ``MIN_WORLDS`` worlds, an
action the leading one beats by more than that many standard errors of their paired
differences (both played on the same worlds) gets no more worlds, and the search stops
when one action is left. Each tree node keeps its own portfolio seats, whose cheapest
paths stay planned from world to world (a node's route owners are the same in every world).
"""
from __future__ import annotations

import math
from array import array
from typing import TYPE_CHECKING

from ...compiler.base.rng import SplitMix64
from .kernel import kernel
from .tables import co_owners, policy_of, worth_now

if TYPE_CHECKING:  # the compiled kernel's classes, as its stub declares them
    from ._policy import Policy, Seat

#: Salts the agent's seed (the worlds it draws and its tree walks share its generator).
ISMCTS_SALT = 0x94D049BB133111EB
#: The styles whose choices make up a node's actions, by default.
PORTFOLIO = ("one-step", "long-route", "route-focus", "destination-hungry", "greedy")
#: The styles a playout draws each opponent's from, by default: the four playing styles.
OPPONENT_STYLES = ("one-step", "long-route", "route-focus", "destination-hungry")
#: Decisions a rollout plays before the value estimate judges the position, by default.
HORIZON = 20
#: Standard errors by which the leading root action must beat another to drop it, by default.
CONFIDENCE = 2.5
#: Worlds every root action is played on before any is dropped.
MIN_WORLDS = 8


class _Node:
    __slots__ = ("children", "visits", "available", "reward", "player", "proposers")

    def __init__(self, player: int = -1):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.player = player  # who chose the action that leads here
        # the portfolio's seats asked at this node: the route owners are the same in every
        # world that reaches it, so their cheapest paths stay planned from world to world
        self.proposers: list[Seat] | None = None


def game_rewards(scores: list[int], winners: list[int]) -> list[float]:
    """Each seat's reward for a finished game (see the module's docstring)."""
    out = []
    for p, score in enumerate(scores):
        best_other = max((s for q, s in enumerate(scores) if q != p), default=score)
        margin = max(-1.0, min(1.0, (score - best_other) / 50.0))
        win = 1.0 / len(winners) if p in winners else 0.0
        out.append(0.7 * win + 0.3 * (margin + 1.0) / 2.0)
    return out


class Race:
    """The root actions' rewards on the worlds drawn so far, for dropping the clearly
    beaten: each action's sum and every pair's sum of products, so that the paired
    differences' mean and spread cost nothing to read (every action still racing was
    played on every world)."""

    def __init__(self, actions: list[int]):
        self.worlds = 0
        self.alive = list(actions)
        self.total = dict.fromkeys(actions, 0.0)
        self.cross = {(a, b): 0.0 for a in actions for b in actions if a <= b}

    def add(self, rewards: dict[int, float]) -> None:
        """One world's reward of each action still racing."""
        self.worlds += 1
        total, cross = self.total, self.cross
        for a in self.alive:
            x = rewards[a]
            total[a] += x
            for b in self.alive:
                if a <= b:
                    cross[a, b] += x * rewards[b]

    def leader(self) -> int:
        """The best mean reward, the lowest id among equals."""
        return max(self.alive, key=lambda a: (self.total[a], -a))

    def drop_beaten(self, confidence: float) -> list[int]:
        """Keep the leader and every action it does not beat by more than ``confidence``
        standard errors of their paired differences; the actions still racing."""
        n = self.worlds
        if n < 2:
            return self.alive
        leader = self.leader()
        total, cross = self.total, self.cross
        kept = []
        for a in self.alive:
            if a != leader:
                gap = (total[leader] - total[a]) / n
                products = cross[min(leader, a), max(leader, a)]
                squares = cross[leader, leader] - 2.0 * products + cross[a, a] - n * gap * gap
                spread = math.sqrt(max(0.0, squares) / (n - 1) / n)
                if gap > 0 and gap > confidence * spread:
                    continue  # clearly worse than the leader on the same worlds
            kept.append(a)
        self.alive = kept
        return kept


def _rewards_from_totals(totals: list) -> list[float]:
    """game_rewards with the best totals winning (shared when tied), written for the
    search's inner loop."""
    best = max(totals)
    tied = totals.count(best)
    second = max((t for t in totals if t != best), default=best)
    leader_other = best if tied > 1 else second  # the best total among the others, for a leader
    out = []
    for t in totals:
        if t == best:
            margin, win = (t - leader_other) / 50.0, 1.0 / tied
        else:
            margin, win = (t - best) / 50.0, 0.0
        margin = -1.0 if margin < -1.0 else 1.0 if margin > 1.0 else margin
        out.append(0.7 * win + 0.3 * (margin + 1.0) / 2.0)
    return out


class IsmctsAgent:
    """ISMCTS with at most ``iterations`` playouts per decision (each world drawn is played
    once per root action still racing, so at most ``iterations // actions`` worlds).

    ``portfolio``: the styles whose choices a node considers. ``rollout``: ``"policy"``
    (the default) plays each world with the styles, the player's own seat with
    ``rollout_style`` and each opponent with a style drawn from ``opponent_styles``, for
    ``horizon`` decisions (None: to the end) and then the value estimate;
    ``"random"`` plays uniformly random actions to the end. ``depth``: tree levels
    searched after the root action (UCB1 constant ``exploration``) before the playout; 2
    by default. ``confidence``: standard errors by which a root action must be beaten on
    the same worlds to be dropped (None: every action gets every world)."""

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = 200, exploration: float = 0.7,
                 rollout: str = "policy", rollout_style: str = "one-step", portfolio=PORTFOLIO,
                 depth: int = 2, opponent_styles=OPPONENT_STYLES, horizon: int | None = HORIZON,
                 confidence: float | None = CONFIDENCE):
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
        if horizon is not None and (isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 0):
            raise ValueError(f"horizon must be None or a non-negative integer, not {horizon!r}")
        if confidence is not None and (isinstance(confidence, bool) or not isinstance(confidence, (int, float))
                                       or not confidence > 0):
            raise ValueError(f"confidence must be None or a positive number, not {confidence!r}")
        self.horizon = horizon
        self.confidence = confidence
        self.rng = SplitMix64((int(seed) % 2**64) ^ ISMCTS_SALT)
        self.iterations = iterations
        self.exploration = exploration
        self.rollout = rollout
        self.rollout_style = styles[rollout_style]
        self.opponent_styles = [styles[name] for name in opponent_styles]
        self.depth = depth
        # one seat per portfolio style (their choices), one per game seat (the rollouts)
        self._portfolio_styles = [(styles[s], self.rng.next()) for s in portfolio]
        self._proposers = self._new_proposers()
        self._rollers: list[Seat] = []
        self._buffer: array[int] | None = None
        self._policy: Policy | None = None  # the variant's, looked up by act()
        self._compiled = False

    def act(self, game) -> int:
        """The root action with the best mean reward after ``iterations`` rollouts."""
        # what every node and rollout of this decision asks: looked up once
        self._policy = policy_of(game.variant.ir)
        self._compiled = game.engine == "compiled"
        worth = worth_now(game.variant.ir, game)
        if worth is not None:  # the root's proposers weigh what a mechanic says claims and options bring now
            for seat in self._proposers:
                seat.set_worth(self._policy, *worth)
        root_actions = self._portfolio(game)
        if len(root_actions) == 1:
            return root_actions[0]
        me = game.current_player
        while len(self._rollers) < game.players:
            self._rollers.append(kernel().Seat(0, self.rng.next()))
        root = _Node()
        rng = self.rng
        worlds = max(1, self.iterations // len(root_actions))
        race = Race(root_actions)
        mine: dict[int, float] = {}  # my reward in this world, by root action
        opponents = self.opponent_styles
        for drawn in range(1, worlds + 1):
            world = game.resample(me, rng.next())
            # who the opponents are in this world: a style each, drawn from opponent_styles
            styles = [self.rollout_style if p == me else opponents[rng.below(len(opponents))]
                      for p in range(game.players)]
            # every root action on the same world: they are compared on the same hidden cards
            for action in race.alive:
                trial = world.clone()
                trial.apply(action)
                child = root.children.get(action)
                if child is None:
                    child = root.children[action] = _Node(me)
                if self.depth and not trial.is_over:
                    path = self._descend(child, trial, self._portfolio(trial, child), self.depth)
                    path.append(child)
                else:
                    path = [child]
                rewards = self._play_out(trial, styles)
                mine[action] = rewards[me]
                for node in path:
                    node.visits += 1
                    node.reward += rewards[node.player]
            race.add(mine)
            if self.confidence is not None and MIN_WORLDS <= drawn < worlds:
                if len(race.drop_beaten(self.confidence)) == 1:
                    break
        return race.leader()

    def _new_proposers(self) -> list[Seat]:
        return [kernel().Seat(style, seed) for style, seed in self._portfolio_styles]

    def _portfolio(self, game, node: _Node | None = None) -> list[int]:
        """The distinct actions the portfolio's styles would take in ``game``, ascending
        (asked of ``node``'s own seats when given, else of the root's)."""
        if node is None:
            proposers = self._proposers
        else:
            if node.proposers is None:
                node.proposers = self._new_proposers()
            proposers = node.proposers
        policy = self._policy
        assert policy is not None  # act() looked it up
        if self._compiled:
            return policy.portfolio(proposers, game._e)
        view = game.agent_view()
        legal = game.legal_actions()
        co_owner = co_owners(game.variant.ir, game)
        return sorted({policy.decide(seat, view, legal, co_owner) for seat in proposers})

    def _descend(self, node: _Node, world, actions: list[int], depth: int) -> list[_Node]:
        """Select by UCB1 among the actions available in ``world`` until a new node is added
        or ``depth`` levels are walked."""
        path: list[_Node] = []
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
                actions = self._portfolio(world, node)
        return path

    def _play_out(self, world, styles: list[int]) -> list[float]:
        """Play ``world``, seat p in style ``styles[p]``, to its end or for ``horizon``
        decisions and then the position's value estimate; each seat's reward."""
        if world.is_over:
            return game_rewards(world.scores(), world.winners())
        if self.rollout == "random":
            self._random_to_end(world)
            return game_rewards(world.scores(), world.winners())
        policy = self._policy
        assert policy is not None  # act() looked it up
        horizon = -1 if self.horizon is None else self.horizon
        if self._compiled:
            return _rewards_from_totals(policy.playout(world._e, styles, self._rollers, horizon))
        played = 0
        while not world.is_over and played != horizon:
            seat = self._rollers[world.current_player]
            seat.style = styles[world.current_player]
            view = world.agent_view()
            world.apply(policy.decide(seat, view, world.legal_actions(), co_owners(world.variant.ir, world)))
            played += 1
        if world.is_over:
            return _rewards_from_totals(world.scores())
        views = [world.agent_view(p) for p in range(world.players)]
        return _rewards_from_totals(policy.estimate(views, world.scores(), co_owners(world.variant.ir, world)))

    def _random_to_end(self, world) -> None:
        """Uniformly random actions to the end."""
        if self._buffer is None or len(self._buffer) < len(world.variant.actions):
            self._buffer = array("i", [0]) * len(world.variant.actions)
        buffer: array[int] = self._buffer
        rng = self.rng
        into = world.legal_actions_into
        apply = world.apply
        while not world.is_over:
            count = into(buffer)
            apply(buffer[rng.below(count)])
