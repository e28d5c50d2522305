"""What a tuning run may change in a spec, and the overlays that say it.

A change is a spec statement: the route points table, a ticket's points, a route's length
or colour, a double's second track. The input spec is read once into a :class:`SpecModel`
(its extends chain merged as the checker merges it, each statement with the text it was
written as); a :class:`Tuning` holds the changes made so far; a :class:`Move` is one step
a round of the search may try. Nothing here names a mechanic: statements are rewritten
from their own text, and a double is the core's tracks of one city pair
(``ir.Route.group``).

:func:`overlay` writes a tuning as a spec that ``extends`` the input, in two forms:

- ``minimal`` (tuned.rail): only the changed statements. A route or ticket is changed by
  removing it (``without``) and declaring it again, so it moves to the end of its list;
  that changes nothing in play (the decks are shuffled), but a game seed then deals other
  tickets than it did before;
- ``paired`` (the candidates the search plays): every route or ticket from the first one
  changed to the end of its list is removed and declared again in its order, so ids stay
  as the input has them and a seed deals the same cards and tickets to both sides of a
  comparison (common random numbers).
"""
from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ...compiler import ir, resolve
from ...compiler.base import limits
from ...compiler.base.errors import RailspecError, Span
from ...compiler.base.rng import SplitMix64
from ...compiler.check.merge import merge
from ...compiler.check.report import Errors
from ...compiler.lang import ast

#: The kinds of change, as ``--change`` names them.
KINDS = ("tickets", "route-points", "lengths", "colours", "doubles")
#: Smith and Anton's phases: the values (tickets, and here the route table) and the double
#: routes first, then the routes' colours and lengths.
PHASES = (("route-points", "tickets", "doubles"), ("lengths", "colours"))
#: The relative size of a numeric step at each level of a phase: coarse first.
STEPS = (0.5, 0.25, 0.1)
#: The colour name a route of any one colour is written with.
GRAY = "gray"


class ChangeError(RailspecError, ValueError):
    """A ``--change`` the spec cannot meet (an unknown kind or name, doubles on a map
    without any): one line, for the command line."""


@dataclass(frozen=True)
class ChangeKind:
    """One kind of change, limited to the named routes, tickets or table lengths (none:
    all of them)."""

    kind: str
    names: tuple[str, ...] = ()


def read_changes(text: str) -> tuple[ChangeKind, ...]:
    """``--change``: kinds separated by commas, each optionally limited to names after a
    colon, separated by ``|`` (``tickets:Boston-Miami|Denver-El Paso,route-points:6``)."""
    out: list[ChangeKind] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        kind, colon, names = part.partition(":")
        kind = kind.strip()
        if kind not in KINDS:
            hint = difflib.get_close_matches(kind, KINDS, n=1)
            raise ChangeError(f"no change kind named {kind!r}" + (f" (did you mean {hint[0]}?)" if hint else "")
                              + f"; the kinds are {', '.join(KINDS)}")
        if any(c.kind == kind for c in out):
            raise ChangeError(f"--change names {kind} twice")
        listed = tuple(n.strip() for n in names.split("|") if n.strip())
        if colon and not listed:
            raise ChangeError(f"--change {kind}: name at least one after the colon")
        out.append(ChangeKind(kind, listed))
    if not out:
        raise ChangeError(f"--change names no kind; the kinds are {', '.join(KINDS)}")
    return tuple(out)


#: A change's value: points or a length (int), a colour (str), a track removed (True).
Value = int | str | bool


@dataclass(frozen=True)
class Tuning:
    """The changes made to the input, as ((what, which), value) pairs, sorted: ``points``
    (a table length: its points), ``ticket`` (a ticket statement's index: its points),
    ``length`` and ``colour`` (a route statement's index: its length, its colour),
    ``removed`` (a route statement's index: True) and ``added`` (a route statement's index:
    the colour of a track added beside it)."""

    items: tuple[tuple[tuple[str, int], Value], ...] = ()

    def get(self, what: str, which: int, default: Value | None = None) -> Value | None:
        """The value of one change, or ``default`` when it is not changed."""
        for key, value in self.items:
            if key == (what, which):
                return value
        return default

    def keys(self, what: str) -> list[int]:
        """The indices changed for ``what``."""
        return [which for (kind, which), _ in self.items if kind == what]

    def with_edits(self, edits: Iterable[tuple[tuple[str, int], Value | None]]) -> Tuning:
        """This tuning with ``edits`` made (a value of None undoes a change)."""
        merged: dict[tuple[str, int], Value] = dict(self.items)
        for key, value in edits:
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = value
        return Tuning(tuple(sorted(merged.items(), key=lambda kv: (kv[0], str(kv[1])))))


@dataclass(frozen=True)
class Move:
    """One step the search may try: its kind, what it does in words, and its edits of a
    tuning (each ((what, which), new value), as :class:`Tuning` holds them). A ``broad``
    move changes many numbers at once (a table entry, a group of tickets)."""

    kind: str
    label: str
    edits: tuple[tuple[tuple[str, int], Value | None], ...]
    broad: bool = False


@dataclass
class SpecModel:
    """The input spec as a tuning run changes it: its merged statements (routes, tickets,
    the route points table), each with the text it was written as, and its IR."""

    path: str        # the spec file, or a stock variant's name
    file: Path       # the spec file
    variant: ir.Variant
    routes: list[ast.Route] = field(default_factory=list)
    tickets: list[ast.Ticket] = field(default_factory=list)
    table: ast.RoutePoints | None = None
    texts: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, given: str, file: Path, variant: ir.Variant) -> SpecModel:
        """The model of the spec ``file`` (``given``: how the user named it) whose IR is
        ``variant``."""
        chain = resolve(file)
        errors = Errors(chain)
        merged = merge(chain, errors)
        model = cls(given, file, variant)
        model.texts = {spec.path: spec.text.split("\n") for spec in chain}
        model.routes = [s for s in merged if isinstance(s, ast.Route)]
        model.tickets = [s for s in merged if isinstance(s, ast.Ticket)]
        tables = [s for s in merged if isinstance(s, ast.RoutePoints)]
        model.table = tables[-1] if tables else None
        if [_where(r.span) for r in model.routes] != [_where(r.span) for r in variant.routes]:
            raise ChangeError(f"{given}: its routes do not read back as its IR's (a route statement the tuner "
                              "cannot rewrite)")
        return model

    # --- the facts a change reads ------------------------------------------------------
    def normalised(self, tuning: Tuning) -> Tuning:
        """``tuning`` without the changes that give a statement its own value back."""
        return Tuning(tuple(item for item in tuning.items if not self._unchanged(*item[0], item[1])))

    def _unchanged(self, what: str, which: int, value: Value) -> bool:
        if what == "points":
            assert self.table is not None
            return any(e.key.value == which and e.value.value == value for e in self.table.entries)
        if what == "ticket":
            return self.tickets[which].points.value == value
        if what == "length":
            return self.routes[which].length.value == value
        if what == "colour":
            return self.routes[which].colour.text == value
        return not value  # removed: False; added: no colour

    def table_points(self, tuning: Tuning) -> dict[int, int]:
        """The route points table, length by length, with the tuning's changes."""
        assert self.table is not None
        return {e.key.value: int(tuning.get("points", e.key.value, e.value.value) or 0) for e in self.table.entries}

    def route_length(self, tuning: Tuning, r: int) -> int:
        """Route statement ``r``'s length with the tuning's changes."""
        return int(tuning.get("length", r, self.routes[r].length.value) or 0)

    def route_colour(self, tuning: Tuning, r: int) -> str:
        """Route statement ``r``'s colour with the tuning's changes."""
        return str(tuning.get("colour", r, self.routes[r].colour.text))

    def ticket_points(self, tuning: Tuning, t: int) -> int:
        """Ticket statement ``t``'s points with the tuning's changes."""
        return int(tuning.get("ticket", t, self.tickets[t].points.value) or 0)

    def tunable_tickets(self) -> list[int]:
        """The ticket statements whose points a change may set: those with one destination
        (a form with several keeps its own points per destination)."""
        return [t for t, stmt in enumerate(self.tickets) if len(stmt.ends()) == 1]

    def ticket_name(self, t: int) -> str:
        """Ticket statement ``t``'s name, as the IR names its (first) ticket."""
        where = _where(self.tickets[t].span)
        return next(x.name for x in self.variant.tickets if x.span is not None and _where(x.span) == where)

    def groups(self) -> list[list[int]]:
        """The route statements grouped by connection (the core's tracks of a city pair,
        ``ir.Route.group``), in the order of their first track."""
        by_group: dict[int, list[int]] = {}
        for route in self.variant.routes:
            by_group.setdefault(route.group, []).append(route.id)
        return sorted(by_group.values())

    def connection_name(self, group: Sequence[int]) -> str:
        """A connection's name: its first track's name without the track suffix."""
        return self.variant.routes[group[0]].name.split("/")[0]

    def colours(self) -> list[str]:
        """The card colours a route may be, and gray."""
        return [c.name for c in self.variant.colours] + [GRAY]

    # --- statements as text --------------------------------------------------------------
    def written(self, span: Span) -> str:
        """The text of one statement, or of one part of it, as written."""
        line = self.texts[span.file][span.line - 1]
        end = span.end_col - 1 if span.end_col > span.col else len(line)
        return line[span.col - 1:end].rstrip()

    def _rewritten(self, stmt: ast.Stmt, swaps: list[tuple[Span, str]]) -> str:
        """Statement ``stmt`` as written, with the parts at ``swaps`` spans replaced."""
        line = self.texts[stmt.span.file][stmt.span.line - 1]
        end = stmt.span.end_col - 1 if stmt.span.end_col > stmt.span.col else len(line)
        text = line[:end]
        for span, new in sorted(swaps, key=lambda s: -s[0].col):
            text = text[:span.col - 1] + new + text[span.end_col - 1:]
        return " ".join(text[stmt.span.col - 1:].split())

    def ticket_text(self, tuning: Tuning, t: int) -> str:
        """Ticket statement ``t`` as it is declared with the tuning's changes."""
        stmt = self.tickets[t]
        points = self.ticket_points(tuning, t)
        swaps = [(stmt.points.span, str(points))] if points != stmt.points.value else []
        return self._rewritten(stmt, swaps)

    def route_text(self, tuning: Tuning, r: int, colour: str | None = None) -> str:
        """Route statement ``r`` with the tuning's changes (``colour``: of a track added
        beside it instead)."""
        stmt = self.routes[r]
        swaps: list[tuple[Span, str]] = []
        length = self.route_length(tuning, r)
        if length != stmt.length.value:
            swaps.append((stmt.length.span, str(length)))
        new_colour = colour if colour is not None else self.route_colour(tuning, r)
        if new_colour != stmt.colour.text:
            swaps.append((stmt.colour.span, new_colour))
        return self._rewritten(stmt, swaps)

    def pair_text(self, stmt: ast.Route | ast.Ticket) -> str:
        """``A - B`` as the statement writes its two places."""
        return f"{self.written(stmt.a.span)} - {self.written(stmt.b.span)}"

    def table_text(self, tuning: Tuning) -> str:
        """The route points statement with the tuning's changes."""
        return "route points " + " ".join(f"{k}:{v}" for k, v in self.table_points(tuning).items())


def _where(span: Span | None) -> tuple[str, int, int]:
    """Where a statement is, whatever path named its file (an IR read from the IR cache
    keeps the spans of the check that wrote it, which may have named the file otherwise)."""
    assert span is not None
    return os.path.realpath(span.file), span.line, span.col


def pair_key(stmt: ast.Route | ast.Ticket) -> tuple[str, str]:
    """A statement's two places, in either order (what ``without`` matches)."""
    a, b = stmt.a.text, stmt.b.text
    return (a, b) if a <= b else (b, a)


# --- the overlays ---------------------------------------------------------------------------

def overlay(model: SpecModel, tuning: Tuning, extends: str, form: str = "minimal",
            notes: dict[tuple[str, int], list[str]] | None = None, header: Sequence[str] = (),
            name: str | None = None, brief: dict[str, str] | None = None) -> str:
    """A spec extending ``extends`` (the input as the overlay's folder reaches it) with the
    changes of ``tuning``; ``form`` is ``minimal`` or ``paired`` (see the module docstring).
    ``notes``: why each change was made (by its key in the tuning), written as comments
    above the statements it changed; ``header``: comment lines at the top; ``name``: the
    variant name to give; ``brief``: a shorter form of a note, written instead of the note
    where it was written in full before (a change to every ticket is explained once)."""
    why = _Why(notes or {}, brief or {})
    lines = [f"# {h}" if h else "#" for h in header]
    lines.append(f'extends "{extends}"')
    if name is not None and '"' not in name and "\\" not in name:
        lines.append(f'variant "{name}"')
    if any(kind == "points" for (kind, _), _ in tuning.items):
        assert model.table is not None
        lines.append("")
        before = " ".join(f"{e.key.value}:{e.value.value}" for e in model.table.entries)
        lines.extend(why.lines([key for key, _ in tuning.items if key[0] == "points"]))
        lines.append(f"{model.table_text(tuning)}  # was: route points {before}")
    ticket_lines = _ticket_lines(model, tuning, form, why)
    route_lines = _route_lines(model, tuning, form, why)
    for block in (ticket_lines, route_lines):
        if block:
            lines.append("")
            lines.extend(block)
    return "\n".join(lines) + "\n"


class _Why:
    """The comments saying why statements changed: each note in full the first time, in
    its brief form (if it has one) after that."""

    def __init__(self, notes: dict[tuple[str, int], list[str]], brief: dict[str, str]):
        self.notes, self.brief = notes, brief
        self.written: set[str] = set()

    def lines(self, keys: Iterable[tuple[str, int]]) -> list[str]:
        """The comment lines above statements holding the changes ``keys``."""
        seen: list[str] = []
        for key in keys:
            for note in self.notes.get(key, []):
                if note not in seen:
                    seen.append(note)
        out = [f"# why: {self.brief[note] if note in self.written and note in self.brief else note}" for note in seen]
        self.written.update(seen)
        return out


class _Block:
    """Lines of changed statements, each with what it was as a trailing comment, and the
    reasons above each run of statements changed for the same reasons (a change to a group
    of tickets is explained once)."""

    def __init__(self, why: _Why):
        self.why = why
        self.lines: list[str] = []
        self.last_reasons: list[str] | None = None

    def add(self, text: str, keys: Sequence[tuple[str, int]] = (), was: str | None = None) -> None:
        """One statement; ``keys``: its changes in the tuning; ``was``: what it was."""
        if keys:
            # the notes themselves decide a run: a statement changed for the same reasons
            # as the one before it gets no comment of its own
            reasons = list(dict.fromkeys(note for key in keys for note in self.why.notes.get(key, [])))
            if reasons and reasons != self.last_reasons:
                self.lines.extend(self.why.lines(keys))
            self.last_reasons = reasons
        self.lines.append(f"{text}  # was: {was}" if was is not None else text)


def _ticket_lines(model: SpecModel, tuning: Tuning, form: str, why: _Why) -> list[str]:
    changed = sorted(set(tuning.keys("ticket")))
    if not changed:
        return []
    tickets = model.tickets
    if form == "paired":
        start = _closed_start(tickets, changed[0])
        redeclared = list(range(start, len(tickets)))
    else:
        pairs = {pair_key(tickets[t]) for t in changed}
        redeclared = [t for t, stmt in enumerate(tickets) if pair_key(stmt) in pairs]
    block = _Block(why)
    seen_pairs: list[tuple[str, str]] = []
    for t in redeclared:
        if pair_key(tickets[t]) not in seen_pairs:
            seen_pairs.append(pair_key(tickets[t]))
            block.add(f"without ticket {model.pair_text(tickets[t])}")
    for t in redeclared:
        if t in changed:
            block.add(model.ticket_text(tuning, t), [("ticket", t)], model.written(tickets[t].span))
        else:
            block.add(model.ticket_text(tuning, t))
    return block.lines


def _closed_start(stmts: Sequence[ast.Route | ast.Ticket], first: int) -> int:
    """The first statement to declare again so that every statement from it on can be
    removed by pair: ``without`` removes every statement of a pair, so a pair met after
    ``first`` pulls the start back to its own first statement."""
    start = first
    while True:
        pairs = {pair_key(s) for s in stmts[start:]}
        earliest = min(i for i, s in enumerate(stmts) if pair_key(s) in pairs)
        if earliest >= start:
            return start
        start = earliest


def _route_lines(model: SpecModel, tuning: Tuning, form: str, why: _Why) -> list[str]:
    touched = sorted(set(tuning.keys("length")) | set(tuning.keys("colour")) | set(tuning.keys("removed")))
    added = sorted(set(tuning.keys("added")))
    if not touched and not added:
        return []
    routes = model.routes
    if form == "paired":
        redeclared = list(range(_closed_start(routes, touched[0]), len(routes))) if touched else []
    else:
        pairs = {pair_key(routes[r]) for r in touched}
        redeclared = [r for r, stmt in enumerate(routes) if pair_key(stmt) in pairs]
    block = _Block(why)
    seen_pairs: list[tuple[str, str]] = []
    for r in redeclared:
        if pair_key(routes[r]) not in seen_pairs:
            seen_pairs.append(pair_key(routes[r]))
            block.add(f"without route {model.pair_text(routes[r])}")
    for r in redeclared:
        keys = [k for k in (("length", r), ("colour", r), ("removed", r)) if tuning.get(*k) is not None]
        was = model.written(routes[r].span) if keys else None
        if tuning.get("removed", r):
            block.add(f"# removed: {model.route_text(tuning, r)}", keys, was)
        else:
            block.add(model.route_text(tuning, r), keys, was)
    for r in added:
        block.add(model.route_text(tuning, r, colour=str(tuning.get("added", r))), [("added", r)],
                  f"no second track beside {model.written(routes[r].span)}")
    return block.lines


def extends_path(input_path: Path, stock: bool, given: str, folder: Path) -> str:
    """What an overlay in ``folder`` writes after ``extends`` to reach the input: a stock
    variant's name, or the input file's path relative to the folder."""
    if stock:
        return given
    target, here = input_path.resolve(), folder.resolve()
    if os.path.commonpath([target, here]) == target.anchor:
        return target.as_posix()  # nothing in common but the root: the full path reads better
    return Path(os.path.relpath(target, here)).as_posix()


# --- the moves -----------------------------------------------------------------------------

def check_kinds(model: SpecModel, kinds: Sequence[ChangeKind]) -> None:
    """A :class:`ChangeError` for a change the spec cannot meet: a name it does not have,
    or a kind with nothing to change."""
    for change in kinds:
        _check_names(model, change)
        if not moves_of(model, Tuning(), change, 0):
            raise ChangeError(_nothing(model, change))


def _nothing(model: SpecModel, change: ChangeKind) -> str:
    what = {"doubles": "no double route (no city pair with two tracks)",
            "tickets": "no ticket with one destination and points to change",
            "lengths": "no route whose length can change (the route points table lists one length)",
            "colours": "no other colour a route could take",
            "route-points": "no entry of the route points table that can change"}[change.kind]
    named = f" among {', '.join(change.names)}" if change.names else ""
    return f"--change {change.kind}: {model.variant.name} has {what}{named}"


def _check_names(model: SpecModel, change: ChangeKind) -> None:
    if not change.names:
        return
    if change.kind == "route-points":
        lengths = {str(k) for k in model.table_points(Tuning())}
        for name in change.names:
            if name not in lengths:
                raise ChangeError(f"--change route-points: no length {name!r} in the route points table "
                                  f"(it lists {', '.join(sorted(lengths, key=int))})")
        return
    known = _ticket_names(model) if change.kind == "tickets" else _route_names(model)
    what = "ticket" if change.kind == "tickets" else "route"
    for name in change.names:
        if _normal(name) not in known:
            hint = difflib.get_close_matches(_normal(name), list(known), n=1)
            raise ChangeError(f"--change {change.kind}: no {what} named {name!r}"
                              + (f" (did you mean {hint[0]}?)" if hint else ""))


def _normal(name: str) -> str:
    """A route or ticket name as typed (``Boston - Miami`` or ``Boston-Miami``) in the IR's
    form (``Boston-Miami``)."""
    return "-".join(part.strip() for part in name.split(" - ")) if " - " in name else name.strip()


def _ticket_names(model: SpecModel) -> dict[str, list[int]]:
    names: dict[str, list[int]] = {}
    for t in range(len(model.tickets)):
        names.setdefault(model.ticket_name(t), []).append(t)
    return names


def _route_names(model: SpecModel) -> dict[str, list[int]]:
    """Each track's name (``A-B/2``) and each connection's (``A-B``): its route statements."""
    names: dict[str, list[int]] = {}
    for group in model.groups():
        names.setdefault(model.connection_name(group), []).extend(group)
        for r in group:
            names.setdefault(model.variant.routes[r].name, []).append(r)
    return names


def _allowed(model: SpecModel, change: ChangeKind) -> set[int] | None:
    """The statements (or table lengths) a kind is limited to, or None for all."""
    if not change.names:
        return None
    if change.kind == "route-points":
        return {int(n) for n in change.names}
    known = _ticket_names(model) if change.kind == "tickets" else _route_names(model)
    return {i for name in change.names for i in known[_normal(name)]}


def _scaled(value: int, step: float, up: bool) -> int:
    """``value`` moved by the relative ``step``, by one at least."""
    if up:
        return min(limits.MAX_POINTS, max(value + 1, round(value * (1 + step))))
    return max(1, min(value - 1, round(value * (1 - step))))


def moves_of(model: SpecModel, tuning: Tuning, change: ChangeKind, level: int) -> list[Move]:
    """Every move of one kind from ``tuning`` at ``level`` (the step size of numbers)."""
    allowed = _allowed(model, change)
    step = STEPS[min(level, len(STEPS) - 1)]
    if change.kind == "route-points":
        return _table_moves(model, tuning, allowed, step)
    if change.kind == "tickets":
        return _ticket_moves(model, tuning, allowed, step)
    if change.kind == "lengths":
        return _length_moves(model, tuning, allowed)
    if change.kind == "colours":
        return _colour_moves(model, tuning, allowed)
    return _double_moves(model, tuning, allowed)


def _table_moves(model: SpecModel, tuning: Tuning, allowed: set[int] | None, step: float) -> list[Move]:
    table = model.table_points(tuning)
    lengths = sorted(table)
    out = []
    for i, length in enumerate(lengths):
        if allowed is not None and length not in allowed:
            continue
        value = table[length]
        low = table[lengths[i - 1]] if i else 1
        high = table[lengths[i + 1]] if i + 1 < len(lengths) else limits.MAX_POINTS
        for up in (False, True):
            new = _scaled(value, step, up)
            # a longer route never scores less than a shorter one
            new = min(max(new, low), high)
            if new != value:
                out.append(Move("route-points", f"route points {length}: {value} → {new}",
                                ((("points", length), new),), broad=True))
    chosen = [k for k in lengths if allowed is None or k in allowed]
    if len(chosen) > 1:
        for up in (False, True):
            new_table = dict(table)
            for k in chosen:
                new_table[k] = _scaled(table[k], step, up)
            if all(new_table[a] <= new_table[b] for a, b in zip(lengths, lengths[1:])) and new_table != table:
                factor = f"×{1 + step:g}" if up else f"×{1 - step:g}"
                out.append(Move("route-points", f"route points {factor} ({model.table_text(tuning)[13:]} → "
                                f"{' '.join(f'{k}:{v}' for k, v in new_table.items())})",
                                tuple((("points", k), new_table[k]) for k in chosen), broad=True))
    return out


def _ticket_moves(model: SpecModel, tuning: Tuning, allowed: set[int] | None, step: float) -> list[Move]:
    tickets = [t for t in model.tunable_tickets() if allowed is None or t in allowed]
    out = []
    for t in tickets:
        value = model.ticket_points(tuning, t)
        for up in (False, True):
            new = _scaled(value, step, up)
            if new != value:
                out.append(Move("tickets", f"ticket {model.ticket_name(t)}: {value} → {new} points",
                                ((("ticket", t), new),)))
    if len(tickets) >= 3:
        by_points = sorted(tickets, key=lambda t: (model.ticket_points(tuning, t), t))
        third = max(1, len(by_points) // 3)
        for label, group in (("every ticket", by_points), ("the longest third of the tickets", by_points[-third:]),
                             ("the shortest third of the tickets", by_points[:third])):
            for up in (False, True):
                edits = tuple((("ticket", t), _scaled(model.ticket_points(tuning, t), step, up)) for t in group)
                out.append(Move("tickets", f"{label} ×{1 + step if up else 1 - step:g}", edits, broad=True))
    return out


def _length_moves(model: SpecModel, tuning: Tuning, allowed: set[int] | None) -> list[Move]:
    lengths = set(model.table_points(tuning))
    out = []
    for group in model.groups():
        if allowed is not None and not allowed.intersection(group):
            continue
        length = model.route_length(tuning, group[0])
        for new in (length - 1, length + 1):
            if new in lengths and new >= 1:
                out.append(Move("lengths", f"route {model.connection_name(group)}: length {length} → {new}",
                                tuple((("length", r), new) for r in group)))
    return out


def _colour_moves(model: SpecModel, tuning: Tuning, allowed: set[int] | None) -> list[Move]:
    colours = model.colours()
    tracks: dict[int, list[int]] = {}
    for route in model.variant.routes:
        tracks.setdefault(route.group, []).append(route.id)
    out = []
    for route in model.variant.routes:
        r = route.id
        if allowed is not None and r not in allowed or tuning.get("removed", r):
            continue
        colour = model.route_colour(tuning, r)
        if colour not in colours and colour != "grey":
            continue  # written as a mechanic's own colour word: left alone
        # two tracks of one pair may not share a colour (but may both be gray)
        beside = {model.route_colour(tuning, other) for other in tracks[route.group] if other != r} - {GRAY, "grey"}
        for new in colours:
            if new != colour and new not in beside and not (colour == "grey" and new == GRAY):
                out.append(Move("colours", f"route {route.name}: {colour} → {new}", ((("colour", r), new),)))
    return out


def _double_moves(model: SpecModel, tuning: Tuning, allowed: set[int] | None) -> list[Move]:
    groups = model.groups()
    if not any(len(g) > 1 for g in groups):
        return []  # the map has no double route: its design has none to move
    used = {c: 0 for c in model.colours()}
    for route in model.variant.routes:
        colour = model.route_colour(tuning, route.id)
        if colour in used:
            used[colour] += model.route_length(tuning, route.id)
    out = []
    for group in groups:
        if allowed is not None and not allowed.intersection(group):
            continue
        name = model.connection_name(group)
        live = [r for r in group if not tuning.get("removed", r)]
        if len(group) > 1 and len(live) > 1:
            last = live[-1]
            out.append(Move("doubles", f"route {name}: its track {model.variant.routes[last].name} removed",
                            ((("removed", last), True),)))
        elif len(group) > 1:
            out.append(Move("doubles", f"route {name}: its second track restored",
                            tuple((("removed", r), None) for r in group)))
        elif tuning.get("added", group[0]) is None:
            first = model.route_colour(tuning, group[0])
            colour = GRAY if first in (GRAY, "grey") else min(
                (c for c in used if c not in (first, GRAY)), key=lambda c: (used[c], c), default=GRAY)
            out.append(Move("doubles", f"route {name}: a second track, {colour}", ((("added", group[0]), colour),)))
        else:
            out.append(Move("doubles", f"route {name}: its added track removed", ((("added", group[0]), None),)))
    return out


def round_moves(model: SpecModel, tuning: Tuning, kinds: Sequence[ChangeKind], level: int, width: int,
                rng: SplitMix64, tried: set[str], tries: Mapping[str, int]) -> list[Move]:
    """The moves a round tries: the broad moves not tried since the last change kept (as
    many as fit in ``width``), the rest of the width filled with single moves; of each
    sort, those tried fewest times in the whole run first (``tries``), at random among
    equals."""
    broad: list[Move] = []
    single: list[Move] = []
    for change in kinds:
        for move in moves_of(model, tuning, change, level):
            (broad if move.broad else single).append(move)
    fresh = [m for m in broad if m.label not in tried]
    for moves in (fresh, single):
        _shuffle(moves, rng)
        moves.sort(key=lambda m: tries.get(m.label, 0))  # a stable sort: the shuffle orders equals
    room_for_single = min(len(single), max(width // 4, width - len(fresh)))
    chosen = fresh[:width - room_for_single] + single[:room_for_single]
    seen: set[str] = set()
    out = []
    for move in chosen:
        if move.label not in seen:
            seen.add(move.label)
            out.append(move)
    return out


def _shuffle(items: list, rng: SplitMix64) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def broad_left(model: SpecModel, tuning: Tuning, kinds: Sequence[ChangeKind], level: int, tried: set[str]) -> bool:
    """Whether some broad move at this level has not been tried since the last change."""
    return any(m.broad and m.label not in tried for change in kinds for m in moves_of(model, tuning, change, level))
