"""An extends chain flattened into one list of statements (``merge``, ``without``), and
the lookups every stage reads that list with (:class:`Statements`)."""
from __future__ import annotations

from typing import Protocol, TypeVar

from ..base import limits
from ..base.errors import Span
from ..lang import ast
from .report import Errors, pair

#: A kind of statement.
S = TypeVar("S", bound=ast.Stmt)


class Problems(Protocol):
    """Where merging reports: the checker's :class:`Errors`, or a sink that ignores what
    it is told (a tool reading a spec that checked already)."""

    removed_cities: dict[str, Span]

    def add(self, span: Span, message: str) -> None: ...


def merge(files: list[ast.SpecFile], errors: Problems) -> list[ast.Stmt]:
    """Flatten an extends chain (base first) into one statement list, as each statement's
    class says (``Stmt.merge``): a scalar given again in a later file replaces the earlier
    value; a keyed statement (an action, a card colour, a returned-ticket rule, a
    mechanic's company or region …) given again for the same key replaces the inherited
    one in place; list statements (cities, routes, tickets) add up; ``without`` removes an
    inherited item.
    """
    merged: list[ast.Stmt] = []
    for spec in files:
        seen_here: dict[type, ast.Stmt] = {}
        for stmt in spec.statements:
            kind = type(stmt)
            if kind.merge == ast.SCALAR:
                if kind in seen_here:
                    errors.add(stmt.span, f"'{kind.words}' is given twice "
                                          f"(first at line {seen_here[kind].span.line})")
                    continue
                seen_here[kind] = stmt
                merged = [s for s in merged if type(s) is not kind]
            elif isinstance(stmt, ast.Without):
                merged = _remove(merged, stmt, errors)
                continue
            elif kind.merge == ast.KEYED:
                key = stmt.key()
                inherited = next((i for i, s in enumerate(merged) if type(s).merge == ast.KEYED
                                  and s.key() == key and s.span.file != stmt.span.file), None)
                if inherited is not None:
                    merged[inherited] = stmt
                    continue
            elif isinstance(stmt, ast.Extends):
                if ast.Extends in seen_here:
                    errors.add(stmt.span, f"'extends' is given twice "
                                          f"(first at line {seen_here[ast.Extends].span.line})")
                seen_here[ast.Extends] = stmt
                continue
            merged.append(stmt)
    return merged


def _remove(merged: list[ast.Stmt], stmt: ast.Without, errors: Problems) -> list[ast.Stmt]:
    def matches(s: ast.Stmt) -> bool:
        if stmt.what == "city":
            return isinstance(s, ast.PlaceDecl) and s.name.text == stmt.names[0].text
        a, b = stmt.names[0].text, stmt.names[1].text
        if stmt.what == "ticket":
            return isinstance(s, ast.Ticket) and pair(s.a.text, s.b.text) == pair(a, b)
        return (isinstance(s, ast.Route) and pair(s.a.text, s.b.text) == pair(a, b)
                and (stmt.length is None or s.length.value == stmt.length.value))
    kept = [s for s in merged if not matches(s)]
    if stmt.what == "city" and len(kept) < len(merged):
        errors.removed_cities[stmt.names[0].text] = stmt.span
    if len(kept) == len(merged):
        what = " - ".join(n.text for n in stmt.names)
        errors.add(stmt.span, f"'without {stmt.what} {what}': no such {stmt.what} to remove")
    return kept


class Statements:
    """The merged statements of a spec, with the lookups every stage uses, and the list
    of required statements found missing (reported together at line 1)."""

    def __init__(self, stmts: list[ast.Stmt], errors: Errors, main: ast.SpecFile, required: list[type[ast.Stmt]]):
        self.stmts = stmts
        self.errors = errors
        self.main = main
        self.top = Span(main.path, 1, 1, 2)
        self.missing: list[str] = [f"'{kind.words}'" for kind in required if self.one(kind) is None]

    def one(self, kind: type[S]) -> S | None:
        """The statement of this (scalar) kind in force, or None."""
        found = [s for s in self.stmts if isinstance(s, kind)]
        return found[-1] if found else None

    def many(self, kind: type[S]) -> list[S]:
        """Every statement of this kind, in source order."""
        return [s for s in self.stmts if isinstance(s, kind)]

    def positive(self, num: ast.Num | None, what: str, allow_zero: bool = False, most: int | None = None) -> int:
        """The number's value, or 0 after an error when it is negative (or zero, unless
        allowed), or above ``most``."""
        if num is None:
            return 0
        if num.value < 0 or (num.value == 0 and not allow_zero):
            self.errors.add(num.span, f"{what} must be {'zero or more' if allow_zero else 'positive'}, "
                                      f"got {limits.shown_number(num.value)}")
            return 0
        if most is not None and num.value > most:
            self.errors.add(num.span, f"{what} must be at most {most:,}, got {limits.shown_number(num.value)}")
            return 0
        return num.value

    def points(self, num: ast.Num | None, what: str, allow_zero: bool = True) -> int:
        """A points value: zero or more (or positive) and at most ``MAX_POINTS``."""
        return self.positive(num, what, allow_zero=allow_zero, most=limits.MAX_POINTS)
