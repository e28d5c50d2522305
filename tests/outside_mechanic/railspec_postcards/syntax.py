"""The language of postcards: ``postcards N max M score P``, the action ``buy postcard``
and the route attribute ``scenic N``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from railspec.compiler.lang import ast


@dataclass(frozen=True)
class PostcardsStmt(ast.Stmt):
    rule: ClassVar[str] = "postcards"
    words: ClassVar[str] = "postcards"
    form: ClassVar[str] = "postcards N max M score P"
    merge: ClassVar[str] = ast.SCALAR
    count: ast.Num
    hand_limit: ast.Num
    points: ast.Num


@dataclass(frozen=True)
class BuyPostcard(ast.ActionKind):
    rule: ClassVar[str] = "buy_postcard"
    form: ClassVar[str] = "buy postcard"
    kind: ClassVar[str] = "buy_postcard"


@dataclass(frozen=True)
class ScenicAttr(ast.RouteAttr):
    rule: ClassVar[str] = "scenic_attr"
    form: ClassVar[str] = "scenic N"
    name: ClassVar[str] = "scenic"
