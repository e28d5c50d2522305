"""The statements of double and triple routes: ``tracks usable N for LOW..HIGH players`` and
``tracks usable N of S for LOW..HIGH players``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class TracksUsable(ast.Stmt):
    rule: ClassVar[str] = "tracks_usable"
    words: ClassVar[str] = "tracks usable"
    form: ClassVar[str] = "tracks usable N for LOW..HIGH players"
    merge: ClassVar[str] = ast.KEYED
    tracks: ast.Num
    low: ast.Num
    high: ast.Num

    @classmethod
    def parsed(cls, span, children):
        low, high = children[1]
        return cls(span, children[0], low, high)

    def key(self) -> tuple:
        return ("tracks usable", self.low.value, self.high.value)


@dataclass(frozen=True)
class TracksUsableSized(ast.Stmt):
    """``tracks usable N of S for LOW..HIGH players``: the routes of S tracks only."""

    rule: ClassVar[str] = "tracks_usable_sized"
    words: ClassVar[str] = "tracks usable N of S"
    form: ClassVar[str] = "tracks usable N of S for LOW..HIGH players"
    merge: ClassVar[str] = ast.KEYED
    tracks: ast.Num
    size: ast.Num
    low: ast.Num
    high: ast.Num

    @classmethod
    def parsed(cls, span, children):
        low, high = children[2]
        return cls(span, children[0], children[1], low, high)

    def key(self) -> tuple:
        return ("tracks usable of", self.size.value, self.low.value, self.high.value)


@dataclass(frozen=True)
class ApartAttr(ast.RouteAttr):
    """``apart``: the route is not a track of a double or triple with the other routes of
    its city pair (the core gives it a group of its own: ``RouteAttr.apart``)."""

    rule: ClassVar[str] = "apart_attr"
    form: ClassVar[str] = "apart"
    name: ClassVar[str] = "apart"
    apart: ClassVar[bool] = True
