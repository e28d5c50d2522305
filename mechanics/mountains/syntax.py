"""The language of mountains: the route attribute ``mountain N`` and ``mountain points N``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class MountainAttr(ast.RouteAttr):
    rule: ClassVar[str] = "mountain_attr"
    form: ClassVar[str] = "mountain N"
    name: ClassVar[str] = "mountain"


@dataclass(frozen=True)
class MountainPoints(ast.Stmt):
    rule: ClassVar[str] = "mountain_points"
    words: ClassVar[str] = "mountain points"
    form: ClassVar[str] = "mountain points N"
    merge: ClassVar[str] = ast.SCALAR
    points: ast.Num
