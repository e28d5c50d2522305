"""What the bonus cards dealt in a game make a claim worth to the scripted agents
(AgentPlay.worth_now; docs/agents.md).

The cards are dealt at set-up, face up, so what favours a route is known only in the game:
the agents ask before each decision, from the player's observation. A card counting routes
(one-space routes, routes touching a group, ferries, routes touching a country) makes each
free route it counts worth its points over the share of those routes a player holds when they
are spread evenly among the players (so a card of few routes makes each of them worth more),
at most its points; a card counting the countries reached makes a route worth that much for
each country at its ends the player has not reached yet. A card the player cannot win any
more (its measure plus every such route still free stays below another player's) makes
nothing. The other cards (locomotives or trains left, tickets completed, the longest path)
measure nothing a single claim decides and make nothing.
"""
from __future__ import annotations

from itertools import compress, count
from operator import itemgetter
from typing import TYPE_CHECKING, Callable

from ...compiler import ir
from ...compiler.base.schema import PH_TURN

if TYPE_CHECKING:
    from . import BonusCardsRule


class BonusWorth:
    """What a claim of each free route brings the observing player now from the bonus cards
    dealt (the module's docstring); called with the player's observation."""

    def __init__(self, variant: ir.Variant, rule: BonusCardsRule):
        self.rule = rule
        #: each route's countries at its ends
        self.route_countries = [frozenset(rule.city_country[c] for c in (route.a, route.b)) - {-1}
                                for route in variant.routes]
        self.countries = len({c for c in rule.city_country if c >= 0})
        #: each route's countries at its ends as bits (country c: bit c), and the routes with
        #: one, in route order, with a function reading their owners at once
        self.country_bits = [sum(1 << c for c in at) for at in self.route_countries]
        self.country_routes = tuple(r for r, at in enumerate(self.route_countries) if at)
        self.country_owners = _owners_of(self.country_routes)
        #: each card's counted routes, with a function reading their owners at once (a card
        #: that counts no route: none)
        self.counted = [(card.routes, _owners_of(card.routes)) for card in rule.cards]
        #: the routes it may give a worth, whichever cards are dealt (the agents ask only when a
        #: claim of one is legal): those a card counts, and those at a country's city
        self.priced = frozenset(r for card in rule.cards if card.kind == "routes" for r in card.routes) | (
            frozenset(r for r, countries in enumerate(self.route_countries) if countries)
            if self.countries and any(card.kind == "countries" for card in rule.cards) else frozenset())

    def __call__(self, observation: dict) -> dict[int, float]:
        if observation["phase"] != PH_TURN:  # claims are made in a turn's first decision only
            return {}
        owner, player, players = observation["owner"], observation["player"], observation["players"]
        worth: dict[int, float] = {}
        for card_id in observation["bonus_cards"]:
            card = self.rule.cards[card_id]
            if card.kind == "routes":
                self._routes(card_id, card.points, owner, player, players, worth)
            elif card.kind == "countries" and self.countries:
                self._countries(card.points, owner, player, players, worth)
        return worth

    def _routes(self, card_id: int, points: int, owner: list[int], player: int, players: int,
                worth: dict[int, float]) -> None:
        counted, owners_of = self.counted[card_id]
        owners = owners_of(owner)
        held = [owners.count(p) for p in range(players)]
        free = [r for r, who in zip(counted, owners) if who == -1]
        if not free or held[player] + len(free) < max(held):
            return  # nothing left to claim, or the card is lost whatever the player claims
        each = min(points, points * players / len(counted))
        for r in free:
            worth[r] = worth.get(r, 0.0) + each

    def _countries(self, points: int, owner: list[int], player: int, players: int,
                   worth: dict[int, float]) -> None:
        bits = self.country_bits
        reached = 0
        for r in compress(count(), map(player.__eq__, owner)):
            reached |= bits[r]
        each = min(points, points * players / self.countries)
        for r, who in zip(self.country_routes, self.country_owners(owner)):
            if who == -1:
                new = (bits[r] & ~reached).bit_count()
                if new:
                    worth[r] = worth.get(r, 0.0) + each * new


def _owners_of(routes: tuple[int, ...]) -> Callable[[list[int]], tuple[int, ...]]:
    """A function reading the owners of ``routes`` from a list of every route's owner."""
    if len(routes) < 2:  # itemgetter of one index gives the item, not a tuple

        def few(owner: list[int]) -> tuple[int, ...]:
            return tuple(owner[route] for route in routes)
        return few
    return itemgetter(*routes)
