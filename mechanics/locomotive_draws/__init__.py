"""A face-up locomotive counts as one card (Nordic Countries, Switzerland).

The base game (USA rulebook, Train Car Cards) makes a face-up locomotive the whole draw,
and forbids one as the second card. Nordic Countries rule summary (Dan Blum,
onedayofsilence.com): "locomotives are treated just like colored cards – you may take a
second card (including another locomotive) after taking a face-up locomotive"; thoun's
adaptation (nordiccountries/map.php, switzerland/map.php:
``visibleLocomotivesCountsAsTwoCards = false``); the Swiss map (islaythedragon.com review,
ticket-to-ride.fandom.com): "Drawing a face-up locomotive card counts as only one draw".
Written ``market locomotive counts as one card`` (``syntax.py``, ``grammar.lark``).

No state: its ``faceup_cost`` hook makes a face-up locomotive cost 1 of the draw's 2, so
the core offers the second draw after one and lists a face-up locomotive among the second
draw's cards (docs/engine.md, "A turn").
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.state_view import StateView
from ...compiler.hooks import MechanicReference
from ...compiler.mechanic import Mechanic, Sample, Sampled
from .syntax import MarketLocomotive


@dataclass(frozen=True)
class LocomotiveDrawsRule(ir.Rule):
    mechanic: ClassVar[str] = "locomotive_draws"
    span: Span | None = field(default=None, compare=False)


class LocomotiveDrawsReference(MechanicReference[StateView, LocomotiveDrawsRule]):
    def faceup_cost(self, state: StateView, card: int, cost: int) -> int:
        """A face-up locomotive is one card of the draw."""
        return 1 if card == self.rules.loco else cost


class LocomotiveDraws(Mechanic[LocomotiveDrawsRule], Sampled):
    name = "locomotive_draws"
    order = 190
    title = "a face-up locomotive counts as one card"
    sample = Sample(("market locomotive counts as one card",))
    rule = LocomotiveDrawsRule
    reference = LocomotiveDrawsReference
    statements = (MarketLocomotive,)

    def check(self, ctx) -> LocomotiveDrawsRule | None:
        stmt = ctx.one(MarketLocomotive)
        return LocomotiveDrawsRule(span=stmt.span) if stmt else None
