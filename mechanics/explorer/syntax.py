"""The statements of the explorer bonus: ``explorer N`` and ``explorer ties KEY, KEY, …``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class Explorer(ast.Stmt):
    rule: ClassVar[str] = "explorer"
    words: ClassVar[str] = "explorer"
    form: ClassVar[str] = "explorer N"
    merge: ClassVar[str] = ast.SCALAR
    bonus: ast.Num


@dataclass(frozen=True)
class ExplorerTies(ast.Stmt):
    rule: ClassVar[str] = "explorer_ties"
    words: ClassVar[str] = "explorer ties"
    form: ClassVar[str] = "explorer ties KEY, KEY, … (e.g. most tickets, most mountain routes)"
    merge: ClassVar[str] = ast.SCALAR
    keys: tuple[ast.Name, ...]

    @classmethod
    def parsed(cls, span, children):
        return cls(span, tuple(children))
