"""The language of technology cards: ``technology NAME costs N copies K EFFECT``,
``technology sets of N``, ``starting locomotives N`` and the route attribute
``needs no technology``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.base.errors import Span
from ...compiler.lang import ast

#: The effects a technology may have, by their first words.
OPENS_CITIES, OPENS_LENGTH, OPENS_ATTRIBUTE, SETS, SCORES, CLAIMS_OWNED = (
    "opens cities", "opens length", "opens attribute", "sets", "scores", "claims owned routes")


@dataclass(frozen=True)
class TechnologyStmt(ast.Stmt):
    rule: ClassVar[str] = "technology"
    words: ClassVar[str] = "technology"
    form: ClassVar[str] = ("technology NAME costs N copies K opens cities CITY, … | opens length L[+] | "
                           "opens ATTRIBUTE | sets of N | scores P per route|ticket|ATTRIBUTE | claims owned routes")
    merge: ClassVar[str] = ast.KEYED
    name: ast.Name
    cost: ast.Num
    copies: ast.Num
    effect: str                      # one of the effects above
    names: tuple[ast.Name, ...]      # the cities opened; the attribute opened or scored
    number: ast.Num | None           # the length opened, the cards of a set, the points scored
    open_ended: bool                 # "opens length 4+": that length and more
    per: str                         # "route", "ticket" or "attribute" (scores only)

    @classmethod
    def parsed(cls, span: Span, children: list) -> TechnologyStmt:
        """Split the effect's words from its names and numbers."""
        name, cost, copies, *rest = children
        words = [c for c in rest if isinstance(c, str) and c != ","]
        names = tuple(c for c in rest if isinstance(c, ast.Name))
        numbers = [c for c in rest if isinstance(c, ast.Num)]
        number = numbers[0] if numbers else None
        per = ""
        if words[0] == "sets":
            effect = SETS
        elif words[0] == "claims":
            effect = CLAIMS_OWNED
        elif words[0] == "scores":
            effect = SCORES
            per = words[-1] if words[-1] in ("route", "ticket") else "attribute"
        elif len(words) > 1 and words[1] == "cities":
            effect = OPENS_CITIES
        elif len(words) > 1 and words[1] == "length":
            effect = OPENS_LENGTH
        else:
            effect = OPENS_ATTRIBUTE
        return cls(span, name, cost, copies, effect, names, number, "+" in words, per)

    def key(self) -> tuple:
        return ("technology", self.name.text)


@dataclass(frozen=True)
class TechnologySets(ast.Stmt):
    rule: ClassVar[str] = "technology_sets"
    words: ClassVar[str] = "technology sets of"
    form: ClassVar[str] = "technology sets of N"
    merge: ClassVar[str] = ast.SCALAR
    size: ast.Num


@dataclass(frozen=True)
class StartingLocomotives(ast.Stmt):
    rule: ClassVar[str] = "starting_locomotives"
    words: ClassVar[str] = "starting locomotives"
    form: ClassVar[str] = "starting locomotives N"
    merge: ClassVar[str] = ast.SCALAR
    count: ast.Num


@dataclass(frozen=True)
class NoTechnologyAttr(ast.RouteAttr):
    rule: ClassVar[str] = "no_technology_attr"
    form: ClassVar[str] = "needs no technology"
    name: ClassVar[str] = "needs"  # its first word, as the tools count attributes
