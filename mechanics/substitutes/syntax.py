"""The language of sets of cards: ``substitute any N for a required locomotive``, ``substitute
N of one colour for a required locomotive`` and the route attribute ``substitute any N``."""
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
class SubstituteMatching(ast.Stmt):
    """``substitute N of one colour for a required locomotive``: sets of N cards of one colour."""

    rule: ClassVar[str] = "substitute_matching"
    words: ClassVar[str] = "substitute N of one colour"
    form: ClassVar[str] = "substitute N of one colour for a required locomotive"
    merge: ClassVar[str] = ast.SCALAR
    count: ast.Num


@dataclass(frozen=True)
class SubstituteAttr(ast.RouteAttr):
    rule: ClassVar[str] = "substitute_attr"
    form: ClassVar[str] = "substitute any N"
    name: ClassVar[str] = "substitute"
