"""The language of city markers: ``city markers N cost C``."""
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
