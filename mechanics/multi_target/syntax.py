"""The ticket form of tickets to one of several destinations:
``ticket either A - B:P | C:Q …``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class EitherTicket(ast.TicketForm):
    rule: ClassVar[str] = "either_ticket"
    form: ClassVar[str] = "either"
    written: ClassVar[str] = "either CITY - CITY:POINTS | CITY:POINTS …"
    targets: tuple[tuple[ast.Name, ast.Num], ...] = ()

    @classmethod
    def parsed(cls, span, children):
        a, rest = children[0], children[1:]
        targets = tuple((rest[k], rest[k + 1]) for k in range(0, len(rest), 2))
        return cls(span, a, targets[0][0], targets[0][1], targets)

    def ends(self) -> tuple[tuple[ast.Name, ast.Num], ...]:
        return self.targets
