"""Scripted agents: four playing styles from the playtesting literature, and a greedy one.

Every style works on any variant that loads, with no per-map code. The styles are
compiled once for all variants (:mod:`._policy`, built from the IR by :mod:`.tables`):
they plan by cheapest paths over the variant's graph, read the action catalogue for what
each legal id does, and see only the player's agent view (``game.agent_view()``: the
hand, the trains, the tickets and the offer in front of the player, every route's owner
and which routes the rules let the player claim). Each engine writes the view itself and
the two agree, so the choice is the same on both.

The styles share one turn skeleton and differ in four named choices (docs/agents.md):

- ``keep``: which offered tickets to keep;
- ``wanted``: which open routes it is working towards, best first;
- ``claim``: which legal claim to make now, if any;
- ``wants_tickets``: whether to spend a turn drawing tickets.

A mechanic's own decisions follow the generic rule the mechanic names for each of its
kinds (``Mechanic.agent_play``): pay with the fewest locomotives, withdraw only when
nothing can be paid, choose the option whose routes the player holds most of, draw what
a claim may pay besides cards for a route that takes it, rescue a ticket that can no
longer be joined by borrowing another player's route (a station), unlock routes that join
held tickets (a technology), or never.
"""
from __future__ import annotations

from .kernel import kernel
from .tables import co_owners, decide_told, policy_of

#: Salts an agent's seed so two agents given the same seed still draw differently.
SCRIPTED_SALT = 0x2545F4914F6CDD1D


class ScriptedAgent:
    """A scripted style (``name`` picks it); :meth:`act` is the agent protocol's one method."""

    name = "one-step"

    def __init__(self, seed: int = 0, worth_now: bool = True):
        """``worth_now``: ask the mechanics what claims and options bring as the game stands
        at each decision where the style reads it (AgentPlay.worth_now, docs/agents.md);
        False plays as the compiled seats of railspec.rl's batches do, which nothing asks in
        Python."""
        self.seat = kernel().Seat(kernel().STYLES[self.name], (int(seed) % 2**64) ^ SCRIPTED_SALT)
        self.told = worth_now

    def act(self, game) -> int:
        """The action this style takes in ``game`` for the player about to decide."""
        if self.told:  # a mechanic may say what claims or options bring as the position stands
            return decide_told(game.variant.ir, self.seat, game)
        policy = policy_of(game.variant.ir)
        if game.engine == "compiled":
            return policy.decide_compiled(self.seat, game._e)
        return policy.decide(self.seat, game.agent_view(),
                             game.legal_actions(), co_owners(game.variant.ir, game))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class OneStepAgent(ScriptedAgent):
    """One-step thinking: the best thing for its tickets this turn, no further."""

    name = "one-step"


class LongRouteAgent(ScriptedAgent):
    """Long route exploitation: the longest routes on the map for their points."""

    name = "long-route"


class RouteFocusAgent(ScriptedAgent):
    """Route focus: one ticket at a time, the most valuable first."""

    name = "route-focus"


class DestinationHungryAgent(ScriptedAgent):
    """Destination hungry: as many tickets as its trains can join, routes shared by most."""

    name = "destination-hungry"


class GreedyAgent(ScriptedAgent):
    """Greedy: whatever scores most this turn."""

    name = "greedy"
