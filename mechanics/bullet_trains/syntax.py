"""The language of Bullet Trains: ``bullet trains N``, ``bullet ranking N players: P1 P2 …``,
``bullet without contribution score P``, the route attribute ``bullet`` and the end
condition ``end when trains <= N and bullet trains <= M``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class BulletPieces(ast.Stmt):
    rule: ClassVar[str] = "bullet_trains"
    words: ClassVar[str] = "bullet trains"
    form: ClassVar[str] = "bullet trains N"
    merge: ClassVar[str] = ast.SCALAR
    count: ast.Num


@dataclass(frozen=True)
class BulletRanking(ast.Stmt):
    rule: ClassVar[str] = "bullet_ranking"
    words: ClassVar[str] = "bullet ranking"
    form: ClassVar[str] = "bullet ranking N players: P1 P2 …"
    merge: ClassVar[str] = ast.KEYED
    players: ast.Num
    points: tuple[ast.Num, ...]

    @classmethod
    def parsed(cls, span, children):
        return cls(span, children[0], tuple(children[1:]))

    def key(self) -> tuple:
        return ("bullet ranking", self.players.value)


@dataclass(frozen=True)
class BulletWithout(ast.Stmt):
    rule: ClassVar[str] = "bullet_without"
    words: ClassVar[str] = "bullet without"
    form: ClassVar[str] = "bullet without contribution score P"
    merge: ClassVar[str] = ast.SCALAR
    points: ast.Num


@dataclass(frozen=True)
class BulletAttr(ast.RouteAttr):
    rule: ClassVar[str] = "bullet_attr"
    form: ClassVar[str] = "bullet"
    name: ClassVar[str] = "bullet"


@dataclass(frozen=True)
class BulletEnd(ast.EndPart):
    rule: ClassVar[str] = "bullet_end"
    form: ClassVar[str] = "and bullet trains <= N"
    pieces_at_most: ast.Num
