"""The language of track building: ``pieces TABLE``, ``tracks buildable N for LOW..HIGH
players``, ``crossing A - B / C - D`` and the route attribute ``bed``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...compiler.base.errors import Span
from ...compiler.lang import ast


@dataclass(frozen=True)
class TrackPieces(ast.Stmt):
    rule: ClassVar[str] = "track_pieces"
    words: ClassVar[str] = "pieces"
    form: ClassVar[str] = "pieces LENGTH:COUNT …"
    merge: ClassVar[str] = ast.SCALAR
    entries: tuple[ast.TableEntry, ...]


@dataclass(frozen=True)
class TracksBuildable(ast.Stmt):
    rule: ClassVar[str] = "tracks_buildable"
    words: ClassVar[str] = "tracks buildable"
    form: ClassVar[str] = "tracks buildable N for LOW..HIGH players"
    merge: ClassVar[str] = ast.KEYED
    tracks: ast.Num
    low: ast.Num
    high: ast.Num

    @classmethod
    def parsed(cls, span: Span, children: list[Any]) -> TracksBuildable:
        low, high = children[1]
        return cls(span, children[0], low, high)

    def key(self) -> tuple[str, int, int]:
        return ("tracks buildable", self.low.value, self.high.value)


@dataclass(frozen=True)
class Crossing(ast.Stmt):
    rule: ClassVar[str] = "crossing"
    words: ClassVar[str] = "crossing"
    form: ClassVar[str] = "crossing CITY - CITY / CITY - CITY"
    merge: ClassVar[str] = ast.LIST
    a: ast.Name
    b: ast.Name
    c: ast.Name
    d: ast.Name


@dataclass(frozen=True)
class BedAttr(ast.RouteAttr):
    rule: ClassVar[str] = "bed_attr"
    form: ClassVar[str] = "bed"
    name: ClassVar[str] = "bed"
