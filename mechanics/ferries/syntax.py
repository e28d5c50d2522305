"""The route attribute of ferries: ``ferry N``, the locomotives a claim must include."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class FerryAttr(ast.RouteAttr):
    rule: ClassVar[str] = "ferry_attr"
    form: ClassVar[str] = "ferry N"
    name: ClassVar[str] = "ferry"
    if TYPE_CHECKING:
        value: ast.Num  # its grammar rule always gives the number (the dataclass field is RouteAttr's)

    def spaces(self) -> int:
        return self.value.value

    def spaces_text(self) -> str:
        return f"{self.value.value} ferry locomotives"
