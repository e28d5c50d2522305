"""The language of stations: ``stations N cost C1 … CN``, ``station bonus N``, ``stations
choose KEY, KEY`` and the action ``build station``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class Stations(ast.Stmt):
    rule: ClassVar[str] = "stations"
    words: ClassVar[str] = "stations"
    form: ClassVar[str] = "stations N cost C1 C2 …"
    merge: ClassVar[str] = ast.SCALAR
    count: ast.Num
    costs: tuple[ast.Num, ...]

    @classmethod
    def parsed(cls, span, children):
        return cls(span, children[0], tuple(children[1:]))


@dataclass(frozen=True)
class StationBonus(ast.Stmt):
    rule: ClassVar[str] = "station_bonus"
    words: ClassVar[str] = "station bonus"
    form: ClassVar[str] = "station bonus N"
    merge: ClassVar[str] = ast.SCALAR
    points: ast.Num


@dataclass(frozen=True)
class StationUse(ast.Stmt):
    rule: ClassVar[str] = "station_use"
    words: ClassVar[str] = "stations choose"
    form: ClassVar[str] = "stations choose most points, most tickets"
    merge: ClassVar[str] = ast.SCALAR
    keys: tuple[str, ...]  # "most_points", "most_tickets"

    @classmethod
    def parsed(cls, span, children):
        return cls(span, tuple(children))


@dataclass(frozen=True)
class StationKey(ast.Node):
    """One key of ``stations choose``, as ``most_points`` or ``most_tickets``."""

    rule: ClassVar[str] = "station_key"

    @classmethod
    def parsed(cls, span, children):
        return "_".join(children)


@dataclass(frozen=True)
class BuildStation(ast.ActionKind):
    rule: ClassVar[str] = "build_station"
    form: ClassVar[str] = "build station"
    kind: ClassVar[str] = "build_station"
