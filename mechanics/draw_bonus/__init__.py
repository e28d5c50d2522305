"""The draw bonus: routes whose claimer then draws train cards from the deck (Northern
Lights).

Northern Lights' rules (the rule summary in thoun/tickettoride modules/maps/northernlights/
map.php, rulesDifferences: "After claiming a route with a +X drawing bonus, draw X Train Car
cards from the top of the deck"; spellengek.nl's review: a ferry route on Norway's west
coast gives extra train cards). The 18 routes of the Norwegian coast carry +1, +2 or +3
(routes.php ``drawingBonus``).

Written as a route attribute, ``draw N`` (1 to the train cards a deck holds): ``syntax.py``
and ``grammar.lark``. No decision: once the route is owned (``after_claim``, also when a
claim a mechanic held completes), its N cards are drawn one at a time from the top of the
deck into the claimer's hand, unseen by the others, the discards reshuffled into an empty
deck as for any blind draw; cards the piles cannot give are not drawn. A claim's payment
is on the discards by then, so a reshuffle may bring it back. ``bonus_drawn`` counts each
player's bonus cards (the balance report's statistic).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.limits import Limit
from ...compiler.base.schema import Field
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import (
    AgentPlay,
    AgentRules,
    Drawing,
    Looks,
    Mechanic,
    Sample,
    Sampled,
    ScoreItem,
    Tables,
)
from .state_view import DrawBonusState
from .syntax import DrawAttr

#: The most cards one route's bonus draws (more would empty a deck in one claim).
MOST = 10
#: What one card drawn is worth to the scripted styles choosing a claim, in points: the top
#: of what a card in hand was found to bring by the end (0.3 to 0.5 points, docs/agents.md's
#: fit of the value estimate), as the card comes without a turn spent drawing it.
CARD_WORTH = 0.5


@dataclass(frozen=True)
class DrawBonusRule(ir.Rule):
    mechanic: ClassVar[str] = "draw_bonus"
    bonuses: tuple[tuple[int, int], ...]  # (route id, cards drawn), each route with a bonus
    span: Span | None = field(default=None, compare=False)

    def of(self, route: int) -> int:
        """The cards claiming ``route`` draws (0: none)."""
        return dict(self.bonuses).get(route, 0)


class DrawBonusReference(MechanicReference[DrawBonusState, DrawBonusRule]):
    """The draw bonus in plain Python."""

    def __init__(self, rules: Services, rule: DrawBonusRule):
        super().__init__(rules, rule)
        self.bonus = dict(rule.bonuses)

    def after_claim(self, state: DrawBonusState, route: ir.Route, player: int) -> None:
        """The route's cards from the top of the deck, one at a time, while the piles have one."""
        for _ in range(self.bonus.get(route.id, 0)):
            card = self.rules.draw_from_deck(state)
            if card < 0:
                break
            state.hands[player][card] += 1
            state.bonus_drawn[player] += 1

    def score_player(self, state: DrawBonusState, player: int, row: dict[str, int], network: list[int]) -> None:
        """The cards the player drew for draw bonuses (a statistic, no points)."""
        row["bonus_drawn"] = state.bonus_drawn[player]


class DrawBonus(Mechanic[DrawBonusRule], AgentRules[DrawBonusRule], Drawing[DrawBonusRule], Sampled):
    name = "draw_bonus"
    order = 240
    title = "the draw bonus (train cards drawn after a claim)"
    sample = Sample(route=" draw 2")
    rule = DrawBonusRule
    reference = DrawBonusReference
    statements = (DrawAttr,)
    state_fields = (Field("bonus_drawn", "the train cards each player drew for claiming routes with a draw bonus",
                          owner="draw_bonus", per_player=True, high="CARD_TOTAL"),)
    limits = (Limit("route … draw N", f"1 … {MOST}", "the cards one claim draws from the deck"),)
    score_items = (ScoreItem("bonus_drawn", "the train cards the player drew for claiming draw-bonus routes",
                             False, "draw_bonus", label="drawn"),)

    def check(self, ctx) -> DrawBonusRule | None:
        """Each ``draw N`` between 1 and MOST."""
        ok = []
        for route, attr in ctx.routes_with(DrawAttr.name):
            n = attr.value.value
            if not 0 < n <= MOST:
                ctx.errors.add(attr.value_span, f"a route's draw bonus is 1 to {MOST} cards, got {n}")
            else:
                ok.append((route.id, n))
        if not ok:
            return None
        first = next(route for route, _attr in ctx.routes_with(DrawAttr.name))
        return DrawBonusRule(bonuses=tuple(ok), span=first.span)

    def tables(self, variant: ir.Variant, rule: DrawBonusRule) -> Tables:
        bonus = dict(rule.bonuses)
        return Tables(arrays=[("T_ROUTE_DRAW_BONUS", [bonus.get(r.id, 0) for r in variant.routes])])

    def agent_play(self, variant: ir.Variant, rule: DrawBonusRule) -> AgentPlay:
        """No decision of its own; a bonus route's claim is worth its cards besides its points."""
        return AgentPlay(worth={route: CARD_WORTH * n for route, n in rule.bonuses})

    def looks(self, variant: ir.Variant, rule: DrawBonusRule) -> Looks:
        """A bonus route's badge: + and the cards it draws."""
        return Looks(badges={route: f"+{n}" for route, n in rule.bonuses},
                     legend={"badges": "+ and a number: claiming the route draws that many train cards from the "
                                       "deck"})
