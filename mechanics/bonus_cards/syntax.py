"""The language of bonus cards: ``bonus cards N``, ``bonus card "TITLE" P for MEASURE`` (or
``by KEY``), ``bonus group NAME: CITY, …`` and ``bonus country NAME: CITY, …``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class BonusDeal(ast.Stmt):
    rule: ClassVar[str] = "bonus_cards"
    words: ClassVar[str] = "bonus cards"
    form: ClassVar[str] = "bonus cards N"
    merge: ClassVar[str] = ast.SCALAR
    dealt: ast.Num


@dataclass(frozen=True)
class BonusCard(ast.Stmt):
    """A bonus card: its title, its points and its measure as written: the words, numbers
    (``ast.Num``) and names (``ast.Name``: the places ``touching`` names) after the points;
    or, for ``by KEY``, ``("by",)`` and the key in ``by`` (a field of its own, so that the
    language server completes tie-break keys there and places after ``touching``)."""

    rule: ClassVar[str] = "bonus_card"
    words: ClassVar[str] = "bonus card"
    form: ClassVar[str] = 'bonus card "TITLE" P for most MEASURE | bonus card "TITLE" P by KEY'
    merge: ClassVar[str] = ast.KEYED
    title: str
    points: ast.Num
    measure: tuple
    by: ast.Name | None = None

    @classmethod
    def parsed(cls, span, children):
        rest = tuple(children[2:])
        if rest[:1] == ("by",):
            return cls(span, children[0], children[1], rest[:1], rest[1])
        return cls(span, children[0], children[1], rest)

    def key(self) -> tuple:
        return ("bonus card", self.title)


@dataclass(frozen=True)
class BonusGroup(ast.Stmt):
    """``bonus group NAME: CITY, …``: places a measure's ``touching`` may name."""

    rule: ClassVar[str] = "bonus_group"
    words: ClassVar[str] = "bonus group"
    form: ClassVar[str] = "bonus group NAME: CITY, CITY, …"
    merge: ClassVar[str] = ast.KEYED
    country: ClassVar[bool] = False
    name: ast.Name
    cities: tuple[ast.Name, ...]

    @classmethod
    def parsed(cls, span, children):
        return cls(span, children[0], tuple(children[1:]))

    def key(self) -> tuple:
        return ("bonus group", self.name.text)  # one namespace with the countries: a country is a group too


@dataclass(frozen=True)
class BonusCountry(BonusGroup):
    """``bonus country NAME: CITY, …``: a group that ``countries reached`` counts as one
    country (a city is in one country at most)."""

    rule: ClassVar[str] = "bonus_country"
    words: ClassVar[str] = "bonus country"
    form: ClassVar[str] = "bonus country NAME: CITY, CITY, …"
    country: ClassVar[bool] = True
