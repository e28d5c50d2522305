"""The language of stock shares: ``company NAME shares N points P1 P2 …``, ``share ties
lowest number|shared``, ``neutral shareholder for N players takes route companies|any
company counts half rounded up|down`` and the route attribute ``shares COMPANY, …``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class Company(ast.Stmt):
    rule: ClassVar[str] = "company"
    words: ClassVar[str] = "company"
    form: ClassVar[str] = "company NAME shares N points P1 P2 …"
    merge: ClassVar[str] = ast.KEYED
    name: ast.Name
    shares: ast.Num
    points: tuple[ast.Num, ...]

    @classmethod
    def parsed(cls, span, children):
        return cls(span, children[0], children[1], tuple(children[2:]))

    def key(self) -> tuple:
        return ("company", self.name.text)


@dataclass(frozen=True)
class ShareTies(ast.Stmt):
    rule: ClassVar[str] = "share_ties"
    words: ClassVar[str] = "share ties"
    form: ClassVar[str] = "share ties lowest number | share ties shared"
    merge: ClassVar[str] = ast.SCALAR
    mode: str  # "lowest_number" or "shared"

    @classmethod
    def parsed(cls, span, children):
        return cls(span, "_".join(children))


@dataclass(frozen=True)
class NeutralShareholder(ast.Stmt):
    rule: ClassVar[str] = "neutral"
    words: ClassVar[str] = "neutral shareholder"
    form: ClassVar[str] = ("neutral shareholder for N players takes route companies|any company counts half "
                           "rounded up|down")
    merge: ClassVar[str] = ast.SCALAR
    low: ast.Num
    high: ast.Num
    takes: str     # "route" (one of the claimed route's companies) or "any"
    rounding: str  # "up" or "down": how half of its shares is rounded

    @classmethod
    def parsed(cls, span, children):
        (low, high), *words = children
        return cls(span, low, high, "route" if "route" in words else "any", "up" if "up" in words else "down")


@dataclass(frozen=True)
class SharesAttr(ast.RouteAttr):
    rule: ClassVar[str] = "shares_attr"
    form: ClassVar[str] = "shares COMPANY, …"
    name: ClassVar[str] = "shares"

    @classmethod
    def parsed(cls, span, children):
        return cls(span, tuple(children))
