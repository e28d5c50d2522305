"""The statement of the Globetrotter bonus: ``globetrotter N``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class Globetrotter(ast.Stmt):
    rule: ClassVar[str] = "globetrotter"
    words: ClassVar[str] = "globetrotter"
    form: ClassVar[str] = "globetrotter N"
    merge: ClassVar[str] = ast.SCALAR
    bonus: ast.Num
