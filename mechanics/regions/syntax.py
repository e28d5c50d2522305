"""The language of regions: ``region NAME [double]: CITY, …``, ``region points N:P … N+:P``,
``regions scored per network|together`` and ``double regions need every|one city``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class Region(ast.Stmt):
    rule: ClassVar[str] = "region"
    words: ClassVar[str] = "region"
    form: ClassVar[str] = "region NAME [double]: CITY, CITY, …"
    merge: ClassVar[str] = ast.KEYED
    name: ast.Name
    counts_double: bool
    cities: tuple[ast.Name, ...]

    @classmethod
    def parsed(cls, span, children):
        double = "double" in children
        names = [c for c in children if isinstance(c, ast.Name)]
        return cls(span, names[0], double, tuple(names[1:]))

    def key(self) -> tuple:
        return ("region", self.name.text)


@dataclass(frozen=True)
class RegionPoints(ast.Stmt):
    rule: ClassVar[str] = "region_points"
    words: ClassVar[str] = "region points"
    form: ClassVar[str] = "region points N:P N:P … N+:P"
    merge: ClassVar[str] = ast.SCALAR
    entries: tuple[ast.TableEntry, ...]


@dataclass(frozen=True)
class RegionScoring(ast.Stmt):
    rule: ClassVar[str] = "region_scoring"
    words: ClassVar[str] = "regions scored"
    form: ClassVar[str] = "regions scored per network | regions scored together"
    merge: ClassVar[str] = ast.SCALAR
    mode: str  # "per_network" or "together"

    @classmethod
    def parsed(cls, span, children):
        return cls(span, "_".join(children))


@dataclass(frozen=True)
class DoubleRegions(ast.Stmt):
    rule: ClassVar[str] = "double_regions"
    words: ClassVar[str] = "double regions"
    form: ClassVar[str] = "double regions need every city | double regions need one city"
    merge: ClassVar[str] = ast.SCALAR
    mode: str  # "every_city" or "one_city"

    @classmethod
    def parsed(cls, span, children):
        return cls(span, f"{children[0]}_city")
