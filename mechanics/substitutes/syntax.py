"""The language of sets of any cards: ``substitute any N for a required locomotive`` and the
route attribute ``substitute any N``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class SubstituteLocomotive(ast.Stmt):
    rule: ClassVar[str] = "substitute_locomotive"
    words: ClassVar[str] = "substitute any N for a required locomotive"
    form: ClassVar[str] = "substitute any N for a required locomotive"
    merge: ClassVar[str] = ast.SCALAR
    count: ast.Num


@dataclass(frozen=True)
class SubstituteAttr(ast.RouteAttr):
    rule: ClassVar[str] = "substitute_attr"
    form: ClassVar[str] = "substitute any N"
    name: ClassVar[str] = "substitute"
