"""The statement of the Grand Tour bonus: ``grand tour N:P N:P … N+:P``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class GrandTour(ast.Stmt):
    rule: ClassVar[str] = "grand_tour"
    words: ClassVar[str] = "grand tour"
    form: ClassVar[str] = "grand tour N:P N:P … N+:P"
    merge: ClassVar[str] = ast.SCALAR
    entries: tuple[ast.TableEntry, ...]
