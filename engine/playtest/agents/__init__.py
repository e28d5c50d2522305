"""Agents: players for any variant that loads.

An agent is any object with ``act(game) -> action id``, called when ``game`` waits on
one of the seats the agent holds; it must return one of ``game.legal_actions()``. The
agents here take a ``seed`` and are deterministic given it, so a seeded game of agents
replays exactly. Make one by name with :func:`make`; seat several with :func:`play`, or
let them play a game under way with :func:`take_turns`.

- ``random``: a uniform choice among the legal actions.
- ``one-step``, ``long-route``, ``route-focus``, ``destination-hungry``: the four
  playing styles of the playtesting studies (:mod:`.scripted`; docs/agents.md).
- ``greedy``: whatever scores most this turn.
- ``ismcts``: information-set Monte Carlo tree search over determinizations
  (:mod:`.ismcts`).
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from ...compiler.base.errors import IllegalActionError, RailspecError
from ...compiler.base.rng import SplitMix64
from .ismcts import IsmctsAgent
from .scripted import DestinationHungryAgent, GreedyAgent, LongRouteAgent, OneStepAgent, RouteFocusAgent, ScriptedAgent

#: Salts the random agent's seed (the documented playout agent uses another salt).
RANDOM_SALT = 0x9FB21C651E98DF25


@runtime_checkable
class Agent(Protocol):
    """What railspec needs of a player: an action id for the game it is asked about."""

    def act(self, game) -> int:
        ...


class RandomAgent:
    """A uniform choice among the legal actions, from the agent's own generator."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = SplitMix64((int(seed) % 2**64) ^ RANDOM_SALT)

    def act(self, game) -> int:
        legal = game.legal_actions()
        return legal[self.rng.below(len(legal))]


#: Every agent by the name the command line and :func:`make` use.
AGENTS = {agent.name: agent for agent in (RandomAgent, OneStepAgent, LongRouteAgent, RouteFocusAgent,
                                          DestinationHungryAgent, GreedyAgent, IsmctsAgent)}


class AgentError(RailspecError, ValueError):
    """An unknown agent name, or an agent that returned an action that is not legal."""


def make(name: str, seed: int = 0, **options) -> Agent:
    """A new agent by name (see :data:`AGENTS`), seeded."""
    try:
        cls = AGENTS[name]
    except KeyError:
        raise AgentError(f"no agent named {name!r}; the agents are {', '.join(AGENTS)}") from None
    return cls(seed=seed, **options)


def play(variant, agents, seed: int = 0, engine: str = "compiled"):
    """Play one game of ``variant`` (a loaded variant), seat ``i`` held by ``agents[i]``,
    from ``seed``; returns the finished game. An agent's illegal choice is an
    :class:`AgentError` naming the agent, the seat and the action."""
    game = variant.new_game(players=len(agents), seed=seed, engine=engine)
    take_turns(game, agents)
    return game


def take_turns(game, agents, until_seat: int | None = None) -> None:
    """Let the agents decide in ``game``, the seat to move's by ``agents[seat]``, until the
    game is over or, with ``until_seat``, until that seat is to decide (its own entry of
    ``agents`` is never asked). An agent's illegal choice is an :class:`AgentError` naming
    the agent, the seat and the action; the game is left as it was before that choice."""
    while not game.is_over and game.current_player != until_seat:
        seat = game.current_player
        agent = agents[seat]
        action = agent.act(game)
        try:
            game.apply(action)
        except IllegalActionError as err:
            raise AgentError(f"agent {getattr(agent, 'name', agent)!r} in seat {seat} chose an illegal "
                             f"action: {err}") from None


__all__ = ["Agent", "AgentError", "AGENTS", "RandomAgent", "ScriptedAgent", "OneStepAgent", "LongRouteAgent",
           "RouteFocusAgent", "DestinationHungryAgent", "GreedyAgent", "IsmctsAgent", "make", "play",
           "take_turns"]
