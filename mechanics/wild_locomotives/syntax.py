"""The statement of where locomotives are wild: ``locomotives wild only on ATTR, …``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class WildOnly(ast.Stmt):
    rule: ClassVar[str] = "wild_only"
    words: ClassVar[str] = "locomotives wild only"
    form: ClassVar[str] = "locomotives wild only on ATTRIBUTE, ATTRIBUTE, … (e.g. tunnel, ferry)"
    merge: ClassVar[str] = ast.SCALAR
    attributes: tuple[ast.Name, ...]

    @classmethod
    def parsed(cls, span, children):
        return cls(span, tuple(children))
