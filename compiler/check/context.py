"""What a mechanic's checker stage sees of the spec: :class:`CheckContext`."""
from __future__ import annotations

from .. import ir
from ..base.errors import Span
from ..lang import ast
from .board import Map, Places
from .merge import Statements
from .parts import Components, Players, Turn, check_table
from .report import line_of, suggest
from .scores import resolve_tiebreaks


class CheckContext:
    """What a mechanic's checker stage sees: the merged statements of the spec and what the
    core's stages made of them. A stage reports problems with ``ctx.errors.add(span,
    message)``, and content that checks but does nothing (a statement with no effect) with
    ``ctx.warn(span, message)``; it returns its mechanic's rule record, or None when the
    spec does not use the mechanic."""

    def __init__(self, spec: Statements, players: Players, parts: Components, turn: Turn,
                 places: Places, board: Map, tickets: list[ir.Ticket], registry=None):
        self.errors = spec.errors
        self.registry = registry
        self.tiebreaks_named: list[tuple[list, Span]] = []  # keys a mechanic's statement named, checked at the end
        self.top = spec.top
        self.players = players
        self.parts = parts
        self.turn = turn
        self.places = places
        self.board = board
        self.tickets = tuple(tickets)
        self._spec = spec

    def warn(self, span: Span, message: str) -> None:
        """A located warning: the spec checks, but this part of it does nothing."""
        self.errors.warn(span, message)

    def one(self, kind):
        """The statement of this (scalar) kind in force, or None."""
        return self._spec.one(kind)

    def many(self, kind) -> list:
        """Every statement of this kind, in source order."""
        return self._spec.many(kind)

    def positive(self, num, what: str, allow_zero: bool = False, most: int | None = None) -> int:
        """The number's value, or 0 after an error when it is negative (or zero, unless
        allowed), or above ``most``."""
        return self._spec.positive(num, what, allow_zero, most)

    def points(self, num, what: str, allow_zero: bool = True) -> int:
        """A points value: zero or more (or positive) and at most ``limits.MAX_POINTS``."""
        return self._spec.points(num, what, allow_zero)

    def action(self, kind: str):
        """The ``action KIND`` statement (e.g. ``build_station``), or None."""
        return self.turn.actions.get(kind)

    def dealt(self, deck: str) -> int:
        """How many tickets of a mechanic's ``deck`` each player is dealt at set-up (0 when
        ``deal tickets`` names no such part)."""
        return dict(self.turn.deal_parts).get(deck, 0)

    def routes_with(self, attribute: str) -> list[tuple[ir.Route, ast.RouteAttr]]:
        """The routes whose statement gives ``attribute``, each with the attribute as written."""
        out = []
        for route, stmt in zip(self.board.routes, self.board.statements):
            attr = stmt.attr(attribute)
            if attr is not None:
                out.append((route, attr))
        return out

    def tiebreaks(self, names, span: Span) -> list:
        """Tie-break keys a mechanic's statement names (an award that breaks its own ties,
        ``names`` the name nodes as written), resolved as the ``tiebreak`` statement's are:
        the ``TieBreak`` definitions, in order. Unknown keys and keys given twice are
        reported here; a key whose mechanic the spec does not use, once every mechanic
        has been checked."""
        keys = resolve_tiebreaks(names, span, self.registry, self.errors)
        self.tiebreaks_named.append((keys, span))
        return keys

    @staticmethod
    def line_of(earlier: Span | None, here: Span) -> str:
        """Where an earlier declaration is, seen from a later one ("line 12", "usa.rail:12")."""
        return line_of(earlier, here)

    @staticmethod
    def suggest(name: str, known) -> str:
        """" (did you mean 'X'?)" for the known name closest to ``name``, or ""."""
        return suggest(name, known)

    def table(self, entries, what: str, span: Span, *, open_allowed: bool, from_one: bool = True):
        """Check a key:value table (keys rising without holes); returns (dict, largest key)."""
        return check_table(entries, what, self.errors, span, open_allowed=open_allowed, from_one=from_one)
