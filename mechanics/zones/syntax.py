"""The statement of zones: ``zone NAME [at X Y]``, a place that is a dead end."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class Zone(ast.PlaceDecl):
    rule: ClassVar[str] = "zone"
    words: ClassVar[str] = "zone"
    form: ClassVar[str] = "zone NAME [at X Y]"
    dead_end: ClassVar[bool] = True
