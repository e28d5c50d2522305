"""The language of ferry cards: ``ferry cards N max M``, ``ferry cards spent return|removed``,
the action ``draw ferry card`` and the route attribute ``waves N``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class FerryCards(ast.Stmt):
    rule: ClassVar[str] = "ferry_cards"
    words: ClassVar[str] = "ferry cards"
    form: ClassVar[str] = "ferry cards N max M"
    merge: ClassVar[str] = ast.SCALAR
    count: ast.Num
    hand_limit: ast.Num


@dataclass(frozen=True)
class FerrySpent(ast.Stmt):
    rule: ClassVar[str] = "ferry_spent"
    words: ClassVar[str] = "ferry cards spent"
    form: ClassVar[str] = "ferry cards spent return|removed"
    merge: ClassVar[str] = ast.SCALAR
    place: str  # "return" (to the ferry pile) or "removed"


@dataclass(frozen=True)
class DrawFerryCard(ast.ActionKind):
    rule: ClassVar[str] = "draw_ferry_card"
    form: ClassVar[str] = "draw ferry card"
    kind: ClassVar[str] = "draw_ferry_card"


@dataclass(frozen=True)
class WavesAttr(ast.RouteAttr):
    rule: ClassVar[str] = "waves_attr"
    form: ClassVar[str] = "waves N"
    name: ClassVar[str] = "waves"
    if TYPE_CHECKING:
        value: ast.Num  # its grammar rule always gives the number (the dataclass field is RouteAttr's)

    def spaces(self) -> int:
        return self.value.value

    def spaces_text(self) -> str:
        return f"{self.value.value} wave spaces"
