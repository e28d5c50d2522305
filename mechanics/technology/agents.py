"""What the technologies are worth to the scripted agents as a game stands (AgentPlay's
``worth_now`` and ``option_worth_now``; docs/agents.md).

The technologies that open routes are bought by the agents' ``unlock`` rule, for the tickets
they join; one that claims owned routes (Right of Way), bought with locomotives, by the rule
``claim_owned`` (``AgentPlay.claims_owned``, from the mechanic's ``agent_play``), for a route of
another player that a held ticket's way needs. The others change scoring or the price of a
set, and are worth what they will score, less what they cost:

- ``scores P per route`` (or per route of an attribute): P for each such route the player
  will still claim, estimated as the claims the trains it will still lay make (its trains, or
  the fewest any player has plus the longest route, whichever is less, over the map's mean
  route length), in the share the free routes of that kind have among all free routes;
- ``scores P per ticket``: P for each held ticket already completed, and half of P for each
  held ticket not yet completed (the playing styles complete about half of what they still
  hold: a late purchase is the surer one);
- ``sets of N``: a card saved for each set of the locomotives the player's still-missing
  technologies cost (a set is how a player short of locomotives pays them).

The price: a locomotive is worth what a face-up locomotive draw forgoes, two cards, and a
card half a point (draw_bonus's CARD_WORTH, the value estimate's fit: about 0.3 to 0.5 a
card). Once held, a technology that scores per route also makes each such claim worth its
points to the styles (``worth_now``).
"""
from __future__ import annotations

from itertools import compress, count
from operator import itemgetter
from typing import TYPE_CHECKING, Callable

from ...compiler import ir
from ...compiler.base.schema import PH_TURN

if TYPE_CHECKING:
    from . import TechnologyRule

#: Points a train card in hand is worth to the styles (as draw_bonus's CARD_WORTH).
CARD_POINTS = 0.5
#: Points a locomotive is worth: the two cards a face-up locomotive draw forgoes.
LOCOMOTIVE_POINTS = 2 * CARD_POINTS
#: The share of a held ticket's points a per-ticket technology counts before it is completed.
OPEN_TICKET_SHARE = 0.5


def completed(variant: ir.Variant, owner: list[int], player: int, tickets: list[int]) -> int:
    """How many of ``tickets`` the player's routes join."""
    parent = list(range(variant.node_count))

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for route in variant.routes:
        if owner[route.id] == player:
            parent[root(route.node_a)] = root(route.node_b)
    done = 0
    for t in tickets:
        ticket = variant.tickets[t]
        ends_a = {root(n) for n in variant.city_nodes[ticket.a]}
        done += any(root(n) in ends_a for n in variant.city_nodes[ticket.b])
    return done


class HeldRouteWorth:
    """Each free route's points from the technologies the observing player holds that score
    per route (AgentPlay.worth_now; called with the player's observation): a claim of it
    scores them besides its route points."""

    def __init__(self, rule: TechnologyRule):
        self.scoring = [(k, tech.route_points) for k, tech in enumerate(rule.technologies) if tech.route_points]
        #: the routes it may give a worth (the agents ask only when a claim of one is legal)
        self.priced = frozenset(route for _k, route_points in self.scoring for route, _points in route_points)

    def __call__(self, observation: dict) -> dict[int, float]:
        if observation["phase"] != PH_TURN:  # claims are made in a turn's first decision only
            return {}
        owned = observation["technologies"][observation["player"]]
        owner = observation["owner"]
        worth: dict[int, float] = {}
        for k, route_points in self.scoring:
            if owned >> k & 1:
                for route, points in route_points:
                    if owner[route] == -1:
                        worth[route] = worth.get(route, 0.0) + points
        return worth


class PurchaseWorth:
    """Each purchase of a technology that scores or makes sets cheaper: what it will score
    (the module's docstring) less its price (AgentPlay.option_worth_now; called with the
    observing player's observation). Purchases of the technologies that open routes are left
    to the ``unlock`` rule."""

    def __init__(self, variant: ir.Variant, rule: TechnologyRule, buy_ids: list[int]):
        self.variant, self.rule = variant, rule
        lengths = [route.length for route in variant.routes]
        self.mean_length = sum(lengths) / len(lengths)
        self.longest = max(lengths)
        self.opening_cost = [(k, tech.cost) for k, tech in enumerate(rule.technologies) if tech.opens]
        #: the purchases this worth is about: (action id, technology, sets paid)
        self.buys = [(action, t, sets) for action, (t, sets) in zip(buy_ids, rule.buys())
                     if not rule.technologies[t].opens and (rule.technologies[t].route_points
                                                            or rule.technologies[t].ticket_points
                                                            or rule.technologies[t].set_size)]
        #: the purchases it may price (the agents ask only when one of them is legal)
        self.priced = frozenset(action for action, _t, _sets in self.buys)
        #: each technology's scoring routes by their points, each group's owners read at once
        #: (the points are ints: counting free routes by group sums them exactly)
        self.point_groups = [[(points, _owners_of([r for r, p in tech.route_points if p == points]))
                              for points in sorted({p for _r, p in tech.route_points})]
                             for tech in rule.technologies]
        self._completed: dict[tuple, int] = {}  # completed() by player, held tickets and routes held

    def claims_left(self, observation: dict) -> float:
        """How many claims the observing player will still make: the trains they will still
        lay (theirs, or the fewest any player has plus the longest route, the game ending
        when a player runs out) over the map's mean route length."""
        trains = observation["trains"]
        return min(trains[observation["player"]], min(trains) + self.longest) / self.mean_length

    def effect(self, t: int, owned: int, observation: dict, free: int, set_now: int) -> float:
        """What technology ``t`` will score for the observing player, holding ``owned``, with
        ``free`` routes nobody holds and sets of ``set_now`` cards (0: none)."""
        tech, player, owner = self.rule.technologies[t], observation["player"], observation["owner"]
        effect = 0.0
        if tech.route_points and free:
            points = sum(points * owners(owner).count(-1) for points, owners in self.point_groups[t])
            effect += self.claims_left(observation) * points / free
        if tech.ticket_points:
            tickets = list(observation["tickets"])
            key = (player, tuple(tickets), tuple(compress(count(), map(player.__eq__, owner))))
            done = self._completed.get(key, -1)
            if done < 0:
                if len(self._completed) > 4096:  # a long campaign: keep the cache small
                    self._completed.clear()
                done = self._completed[key] = completed(self.variant, owner, player, tickets)
            effect += tech.ticket_points * (done + OPEN_TICKET_SHARE * (len(tickets) - done))
        if tech.set_size and set_now and tech.set_size < set_now:
            missing = sum(cost for k, cost in self.opening_cost if not owned >> k & 1)
            effect += CARD_POINTS * (set_now - tech.set_size) * missing
        return effect

    def __call__(self, observation: dict) -> dict[int, float]:
        if observation["phase"] != PH_TURN or observation["technology_bought"]:
            return {}  # a purchase is a turn's first decision, one a turn
        owned = observation["technologies"][observation["player"]]
        supply = observation["technology_supply"]
        buys = [(action, t, sets) for action, t, sets in self.buys if not owned >> t & 1 and supply[t] > 0]
        if not buys:
            return {}
        free = observation["owner"].count(-1)
        effects: dict[int, float] = {}
        set_size = self.rule.set_size_of(owned)
        worth: dict[int, float] = {}
        for action, t, sets in buys:
            if t not in effects:
                effects[t] = self.effect(t, owned, observation, free, set_size)
            if effects[t]:
                tech = self.rule.technologies[t]
                price = LOCOMOTIVE_POINTS * (tech.cost - sets) + CARD_POINTS * (set_size or tech.set_size) * sets
                worth[action] = effects[t] - price
        return worth


def _owners_of(routes: list[int]) -> Callable[[list[int]], tuple[int, ...]]:
    """A function reading the owners of ``routes`` from a list of every route's owner."""
    if len(routes) < 2:  # itemgetter of one index gives the item, not a tuple

        def few(owner: list[int]) -> tuple[int, ...]:
            return tuple(owner[route] for route in routes)
        return few
    return itemgetter(*routes)
