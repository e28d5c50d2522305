"""The language of goods cards: ``goods cards N``, ``goods ranking N players: P1 P2 …``,
``goods ties share|split``, ``goods without cards score nothing|rank`` and the route
attribute ``goods``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class GoodsCards(ast.Stmt):
    rule: ClassVar[str] = "goods_cards"
    words: ClassVar[str] = "goods cards"
    form: ClassVar[str] = "goods cards N"
    merge: ClassVar[str] = ast.SCALAR
    count: ast.Num


@dataclass(frozen=True)
class GoodsRanking(ast.Stmt):
    rule: ClassVar[str] = "goods_ranking"
    words: ClassVar[str] = "goods ranking"
    form: ClassVar[str] = "goods ranking N players: P1 P2 …"
    merge: ClassVar[str] = ast.KEYED
    players: ast.Num
    points: tuple[ast.Num, ...]

    @classmethod
    def parsed(cls, span, children):
        return cls(span, children[0], tuple(children[1:]))

    def key(self) -> tuple:
        return ("goods ranking", self.players.value)


@dataclass(frozen=True)
class GoodsTies(ast.Stmt):
    rule: ClassVar[str] = "goods_ties"
    words: ClassVar[str] = "goods ties"
    form: ClassVar[str] = "goods ties share|split"
    merge: ClassVar[str] = ast.SCALAR
    mode: str  # "share" or "split"


@dataclass(frozen=True)
class GoodsWithout(ast.Stmt):
    rule: ClassVar[str] = "goods_without"
    words: ClassVar[str] = "goods without"
    form: ClassVar[str] = "goods without cards score nothing | goods without cards rank"
    merge: ClassVar[str] = ast.SCALAR
    mode: str  # "nothing" or "rank"

    @classmethod
    def parsed(cls, span, children):
        return cls(span, "nothing" if "nothing" in children else "rank")


@dataclass(frozen=True)
class GoodsAttr(ast.RouteAttr):
    rule: ClassVar[str] = "goods_attr"
    form: ClassVar[str] = "goods"
    name: ClassVar[str] = "goods"
