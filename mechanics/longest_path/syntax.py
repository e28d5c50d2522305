"""The statement of the longest-path bonus: ``longest path N``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class LongestPath(ast.Stmt):
    rule: ClassVar[str] = "longest_path"
    words: ClassVar[str] = "longest path"
    form: ClassVar[str] = "longest path N"
    merge: ClassVar[str] = ast.SCALAR
    bonus: ast.Num
