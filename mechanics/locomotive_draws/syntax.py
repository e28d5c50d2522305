"""The statement of face-up locomotives taken as one card: ``market locomotive counts as one card``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class MarketLocomotive(ast.Stmt):
    rule: ClassVar[str] = "market_locomotive"
    words: ClassVar[str] = "market locomotive counts"
    form: ClassVar[str] = "market locomotive counts as one card"
    merge: ClassVar[str] = ast.SCALAR
