"""The language of city markers: ``city markers N cost C``, and its option
``alvin CITY capture N end M``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class CityMarkersStmt(ast.Stmt):
    rule: ClassVar[str] = "city_markers_stmt"
    words: ClassVar[str] = "city markers"
    form: ClassVar[str] = "city markers N cost C"
    merge: ClassVar[str] = ast.SCALAR
    count: ast.Num
    cost: ast.Num


@dataclass(frozen=True)
class AlvinStmt(ast.Stmt):
    """``alvin CITY capture N end M``: Alvin's first city, the points a capture scores and
    those his holder scores at the end (beside ``city markers``)."""

    rule: ClassVar[str] = "alvin_stmt"
    words: ClassVar[str] = "alvin"
    form: ClassVar[str] = "alvin CITY capture N end M"
    merge: ClassVar[str] = ast.SCALAR
    city: ast.Name
    capture: ast.Num
    end: ast.Num
