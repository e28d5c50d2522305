"""The language of the draw bonus: the route attribute ``draw N``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class DrawAttr(ast.RouteAttr):
    rule: ClassVar[str] = "draw_attr"
    form: ClassVar[str] = "draw N"
    name: ClassVar[str] = "draw"
