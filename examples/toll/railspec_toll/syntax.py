"""The language of tolls: the route attribute ``toll N``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from railspec.compiler.lang import ast


@dataclass(frozen=True)
class TollAttr(ast.RouteAttr):
    """``toll N`` after a route: the points its claim costs."""

    rule: ClassVar[str] = "toll_attr"   # the grammar rule that builds it
    form: ClassVar[str] = "toll N"      # how it is written (syntax errors and listings show it)
    name: ClassVar[str] = "toll"        # the name a route's statement gives it (Route.attr("toll"))
