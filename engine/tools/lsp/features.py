"""What the language server answers, computed from an :class:`~.analysis.Analysis`: hovers,
definitions and references, completions, renames, the outline, folding ranges and quick
fixes. Plain Python: positions are the compiler's (1-based lines and character columns)
and answers are small dataclasses, which the server turns into the protocol's types.

Nothing here knows a mechanic. Which names a field holds is the index's (learnt from the
spec); which words may come next is the grammar's (Lark's interactive parser, on the
language with every mechanic's fragment); what a statement means is docs/language.md's
(:mod:`.keywords`); which mechanic owns a statement is the registry's.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from lark import Lark, Token
from lark.exceptions import LarkError
from lark.lexer import PatternStr

from ... import compiler
from ...compiler.base.errors import Span, SpecError
from ...compiler.lang import ast
from ...compiler.lang.parse import Language, parse
from .. import mapfacts
from . import keywords
from .analysis import (
    ANY_COLOUR,
    COLOUR,
    PLACE,
    Analysis,
    Analyzer,
    ExtendsRefused,
    Occurrence,
    Problem,
    names_in,
    same_file,
)

#: A word standing for the name being completed while the grammar finishes the statement.
_SENTINEL = "Zqxsentinelqz"
_NAME_CHARS = re.compile(r"[^\W\d][\w.'’&]*(?:-[^\W\d][\w.'’&]*)*")


@dataclass(frozen=True)
class Range:
    """A stretch of one file: 1-based lines, 1-based columns, the end exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    @staticmethod
    def of(span: Span) -> "Range":
        return Range(span.file, span.line, span.col, span.line, max(span.end_col, span.col))


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str               # "statement", "keyword" or a namespace (PLACE, COLOUR, …)
    detail: str = ""
    documentation: str = ""
    insert: str = ""
    replace: Range | None = None


@dataclass
class Symbol:
    name: str
    kind: str               # "group", "place", "route", "ticket", "declaration", "statement"
    range: Range
    selection: Range
    detail: str = ""
    children: list = field(default_factory=list)


class RenameRefused(Exception):
    """A rename that cannot be made: the message says why."""


# --- the grammar, asked what may come next ----------------------------------------------------

@functools.lru_cache(maxsize=4)
def _lark(grammar: str) -> Lark:
    # the options parse.py uses, so Lark's table cache on disk is shared
    return Lark(grammar, parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=False,
                cache=True)


def _literal(lark: Lark, terminal: str) -> str | None:
    """The text of a terminal that is a fixed string (a keyword, a '-'), else None."""
    try:
        pattern = lark.get_terminal(terminal).pattern
    except KeyError:
        return None
    return pattern.value if isinstance(pattern, PatternStr) else None


def _interactive(language: Language, before: str):
    """Lark's interactive parser fed ``before`` (a statement's start), or None when it does
    not parse."""
    try:
        ip = _lark(language.grammar).parse_interactive(before)
        ip.exhaust_lexer()
        return ip
    except LarkError:
        return None


def _finish(language: Language, ip) -> list[str] | None:
    """Tokens that end the statement the parser is in (the shortest way the grammar
    allows, preferring fixed words), or None when none is found in a few steps."""
    lark = _lark(language.grammar)
    out: list[str] = []
    for _ in range(40):
        accepts = ip.accepts()
        if "_NL" in accepts or "$END" in accepts:
            return out
        literals = {t: text for t in accepts if (text := _literal(lark, t)) is not None}
        fixed = sorted(literals)
        if fixed:
            name, value = fixed[0], literals[fixed[0]]
        elif "INT" in accepts:
            name, value = "INT", "1"
        elif "STRING" in accepts:
            name, value = "STRING", '"x"'
        elif "WORD" in accepts:
            name, value = "WORD", "x"
        else:
            return None
        try:
            ip.feed_token(Token(name, value))
        except LarkError:
            return None
        out.append(value)
    return None


def expected_field(language: Language, before: str) -> tuple[type, str] | None:
    """The field of a statement that a name written after ``before`` would fill: (the
    node class, the field), found by writing a stand-in name there, finishing the
    statement as the grammar allows and parsing it. None where no name can come."""
    ip = _interactive(language, before)
    if ip is None or "WORD" not in ip.accepts():
        return None
    try:
        ip.feed_token(Token("WORD", _SENTINEL))
    except LarkError:
        return None
    rest = _finish(language, ip)
    if rest is None:
        return None
    try:
        spec = parse(" ".join([before.strip(), _SENTINEL] + rest), "<completion>", language)
    except SpecError:
        return None
    for stmt in spec.statements:
        for cls, fname, name in names_in(stmt):
            if _SENTINEL in name.text:
                return cls, fname
    return None


def expected_keywords(language: Language, before: str) -> list[str]:
    """The fixed words the grammar accepts after ``before``."""
    ip = _interactive(language, before)
    if ip is None:
        return []
    lark = _lark(language.grammar)
    words = {_literal(lark, t) for t in ip.accepts()}
    return sorted(w for w in words if w and w[0].isalpha())


# --- names as a spec writes them --------------------------------------------------------------

def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@functools.lru_cache(maxsize=4096)
def written_name(text: str, language: Language | None = None) -> str:
    """How to write a name: bare when it is words a bare name may be and, given the
    language, the parser reads them back as that name where a city is declared and where a
    route names it (a keyword among the words would end the name); else quoted."""
    words = text.split(" ")
    if not text or not all(_NAME_CHARS.fullmatch(w) for w in words):
        return quoted(text)
    if language is not None:
        try:
            spec = parse(f"city {text}\nroute {text} - {text} 1 x\n", "<name>", language)
        except SpecError:
            return quoted(text)
        names = [name.text for stmt in spec.statements for _, fname, name in names_in(stmt) if fname != "colour"]
        if names != [text] * 3:
            return quoted(text)
    return text


# --- hovers -----------------------------------------------------------------------------------

def _source(analysis: Analysis, span: Span) -> str:
    lines = analysis.lines
    if not 0 < span.line <= len(lines):
        return ""
    line = lines[span.line - 1]
    return line[span.col - 1:span.end_col - 1] if span.end_col > span.col else line[span.col - 1:]


def _statement_text(analysis: Analysis, stmt: ast.Stmt) -> str:
    return re.sub(r"\s+#.*$", "", _source(analysis, stmt.span)).strip()


def _listed(names: list[str], most: int = 12) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "") if names else "none"


def _where(span: Span, analysis: Analysis) -> str:
    if same_file(span.file, analysis.path):
        return f"line {span.line}"
    return f"{Path(span.file).name}:{span.line}"


def _checked(analysis: Analysis) -> Analysis | None:
    """The analysis whose IR the facts come from: this one's, else the last that checked."""
    return analysis if analysis.variant is not None else analysis.previous


def _stale(analysis: Analysis, facts: Analysis | None) -> str:
    return "" if facts is None or facts is analysis else "\n\n*(as the last version that checked had it)*"


def _name_hover(analysis: Analysis, occ: Occurrence) -> str:
    index, checked = analysis.index, _checked(analysis)
    variant = checked.variant if checked is not None else None
    same = index.same(occ)
    decl = [o for o in same if o.declares]
    what = decl[0].declared_by if decl else occ.kind
    head = f"**{what} {occ.name.text}**"
    uses = len(same) - len(decl)
    where = f"declared at {', '.join(_where(o.name.span, analysis) for o in decl)}; " if decl else ""
    out = [head, f"{where}used {uses} time{'s' if uses != 1 else ''}"]
    if variant is not None and checked is not None and occ.kind == PLACE:
        try:
            facts = mapfacts.city_facts(variant, occ.name.text, checked.written())
        except KeyError:
            facts = None
        if facts is not None:
            if facts["dead_end"]:
                out.append("a dead end: no chain of routes passes through it")
            out.append(f"routes ({len(facts['routes'])}): {_listed(facts['routes'])}")
            out.append(f"to ({facts['degree']}): {_listed(facts['neighbours'])}")
            out.append(f"tickets naming it ({len(facts['tickets'])}): {_listed(facts['tickets'])}"
                       + _stale(analysis, checked))
    elif variant is not None and occ.kind == COLOUR:
        colour = next((c for c in variant.colours if c.name == occ.name.text), None)
        if colour is not None:
            routes = [r for r in variant.routes if r.colour == colour.id]
            out.append(f"{colour.count} cards; {len(routes)} routes of this colour "
                       f"({sum(r.length for r in routes)} cars)" + _stale(analysis, checked))
    elif decl:
        lines = [_source_line(analysis, o.name.span) for o in decl]
        out.append("```\n" + "\n".join(line.strip() for line in lines if line) + "\n```")
    return "\n\n".join(out)


def _source_line(analysis: Analysis, span: Span) -> str:
    for spec in analysis.files:
        if spec.path == span.file:
            lines = spec.text.split("\n")
            return lines[span.line - 1] if 0 < span.line <= len(lines) else ""
    return ""


def _route_hover(analysis: Analysis, stmt: ast.Route) -> str | None:
    checked = _checked(analysis)
    variant = checked.variant if checked is not None else None
    if checked is None or variant is None:
        return None
    route = next((r for r in variant.routes if r.span == stmt.span), None)
    if route is None or {variant.cities[route.a].name, variant.cities[route.b].name} != {stmt.a.text, stmt.b.text}:
        return None
    facts = mapfacts.route_facts(variant, route, checked.written())
    track = f" (track {facts['track']} of {facts['tracks']})" if facts["tracks"] > 1 else ""
    out = [f"**route {facts['name']}**{track}",
           f"length {facts['length']}, {facts['colour']}, {facts['points']} points, {facts['trains']} trains"]
    for attr in facts["attributes"]:
        value = "" if attr["value"] is True else f" {attr['value']}"
        owner = f" ({attr['mechanic']})" if attr["mechanic"] else ""
        out.append(f"- {attr['name']}{value}{owner}")
    return "\n\n".join(out) + _stale(analysis, checked)


def _ticket_hover(analysis: Analysis, stmt: ast.Ticket) -> str | None:
    checked = _checked(analysis)
    variant = checked.variant if checked is not None else None
    if checked is None or variant is None:
        return None
    tickets = [t for t in variant.tickets if t.span == stmt.span]
    if not tickets or variant.cities[tickets[0].a].name != stmt.a.text:
        return None
    cars = checked.fewest_cars()
    facts = mapfacts.ticket_facts(variant, tickets[0].id, checked.written(), cars)
    copies = f" ({len(tickets)} copies)" if len(tickets) > 1 else ""
    out = [f"**ticket {facts['name']}**{copies}", f"{facts['points']} points"
           + (f", {facts['deck']} deck" if facts["deck"] else "")]
    if len(facts["destinations"]) > 1:
        out.append("destinations: " + ", ".join(f"{d['place']} ({d['points']})" for d in facts["destinations"]))
    fewest = facts["fewest_cars"]
    out.append(f"fewest cars to complete it: {fewest if fewest is not None else 'not measured'}")
    return "\n\n".join(out) + _stale(analysis, checked)


def _leading_words_end(analysis: Analysis, stmt: ast.Stmt) -> int:
    """The column just after the words a statement begins with (``route points``)."""
    line = analysis.lines[stmt.span.line - 1] if 0 < stmt.span.line <= len(analysis.lines) else ""
    col = stmt.span.col - 1
    for word in (type(stmt).words or "").split():
        m = re.compile(r"\s*" + re.escape(word)).match(line, col)
        if not m:
            break
        col = m.end()
    return col + 1


def _form_fallback(analysis: Analysis, node) -> str:
    owner = _owner(analysis, type(node))
    form = getattr(type(node), "written", "") or type(node).form
    return f"`{form}`" + (f"\n\n{owner.title} ({owner.name})" if owner is not None else "")


@functools.lru_cache(maxsize=4)
def _owners(registry) -> dict:
    """Each node class a mechanic of ``registry`` declares, with that mechanic."""
    return {c: m for m in registry for c in m.statements}


def _owner(analysis: Analysis, cls: type):
    """The mechanic owning a node class (through its bases), or None for the core's."""
    owners = _owners(_registry(analysis))
    for klass in cls.__mro__:
        if klass in owners:
            return owners[klass]
    return None


def hover(analysis: Analysis, line: int, col: int) -> tuple[str, Span] | None:
    """The hover at a position of the document: a name's facts (a place's routes and
    tickets, a colour's cards), a route's or ticket's facts, or the docs of the statement
    or route attribute under the cursor."""
    occ = analysis.index.at(analysis.path, line, col)
    if occ is not None:
        return _name_hover(analysis, occ), occ.name.span
    stmt = analysis.statement_at(line, col)
    if stmt is None:
        return None
    if isinstance(stmt, ast.Route):
        for attr in stmt.attrs:
            if attr.span.col <= col < max(attr.span.end_col, attr.span.col + 1):
                doc = keywords.documentation(_source(analysis, attr.span)) or _form_fallback(analysis, attr)
                return doc, attr.span
    on_words = stmt.span.col <= col < _leading_words_end(analysis, stmt)
    if not on_words:
        facts = None
        if isinstance(stmt, ast.Route):
            facts = _route_hover(analysis, stmt)
        elif isinstance(stmt, ast.Ticket):
            facts = _ticket_hover(analysis, stmt)
        if facts is not None:
            return facts, stmt.span
    doc = keywords.documentation(_statement_text(analysis, stmt)) or _form_fallback(analysis, stmt)
    return doc, stmt.span


# --- definitions and references ----------------------------------------------------------------

def definition(analyzer: Analyzer, analysis: Analysis, line: int, col: int) -> list[Range]:
    """Where the name under the cursor is declared; on an ``extends`` line, the base spec."""
    occ = analysis.index.at(analysis.path, line, col)
    if occ is not None:
        return [Range.of(o.name.span) for o in analysis.index.same(occ) if o.declares]
    stmt = analysis.statement_at(line, col)
    if isinstance(stmt, ast.Extends):
        try:
            base = analyzer.base_path(analysis.main, stmt)
        except ExtendsRefused:  # no such base: its diagnostic says so
            return []
        return [Range(str(base), 1, 1, 1, 1)]
    return []


def references(analysis: Analysis, line: int, col: int, declaration: bool = True) -> list[Range]:
    """Every place the name under the cursor is written, in every file of the chain."""
    occ = analysis.index.at(analysis.path, line, col)
    if occ is None:
        return []
    return [Range.of(o.name.span) for o in analysis.index.same(occ) if declaration or not o.declares]


# --- completion -------------------------------------------------------------------------------

@functools.lru_cache(maxsize=4)
def _statement_items(language: Language) -> tuple[Completion, ...]:
    items = {}
    for cls in language.nodes:
        if issubclass(cls, ast.Stmt) and cls.words and cls.words not in items:
            doc = keywords.documentation(cls.form.replace("{", "").replace("}", "")) or ""
            items[cls.words] = Completion(cls.words, "statement", cls.form, doc, cls.words + " ")
    return tuple(sorted(items.values(), key=lambda c: c.label))


#: The namespace of tie-break keys, which the core and the mechanics define (not the spec).
TIEBREAK = "tie-break key"


def _registry(analysis: Analysis):
    registry = analysis.variant.registry if analysis.variant is not None else None
    return registry or compiler.default_registry()


def _namespace(analysis: Analysis, found: tuple[type, str] | None) -> str | None:
    """The namespace of the names a field holds: the index's; or tie-break keys, for the
    ``tiebreak`` statement and any field whose names in the spec are at least half keys (a
    mechanic's statement naming keys; the line being written may hold a key half typed,
    which is no key yet: beside one other use, half)."""
    if found is None:
        return None
    kind = analysis.index.field_kinds.get(found)
    if kind is not None:
        return kind
    keys = _registry(analysis).tiebreak_words()
    used = [name.text for spec in analysis.files for stmt in spec.statements
            for cls, fname, name in names_in(stmt) if (cls, fname) == found]
    if found == (ast.Tiebreak, "keys") or (used and sum(text in keys for text in used) * 2 >= len(used)):
        return TIEBREAK
    return None


def _names(analysis: Analysis, kind: str) -> list[str]:
    if kind == TIEBREAK:
        return sorted(_registry(analysis).tiebreak_words())
    return analysis.index.names(kind) + (list(ANY_COLOUR) if kind == COLOUR else [])


def completions(analysis: Analysis, language: Language, line: int, col: int) -> list[Completion]:
    """What may be written at a position: a statement's words at the start of a statement;
    the names a field holds (places, colours, or any namespace the spec declares, learnt
    from the field's other uses) where the grammar expects a name; the keywords the
    grammar accepts next."""
    text = analysis.lines[line - 1] if 0 < line <= len(analysis.lines) else ""
    prefix = text[:col - 1]
    if "#" in prefix.replace('"#', ""):
        return []
    start = prefix.rfind(";") + 1
    stmt = prefix[start:]
    if not stmt.strip() or re.fullmatch(r"\s*[a-z]+", stmt):
        partial = stmt.strip()
        where = Range(analysis.path, line, col - len(partial), line, col)
        return [Completion(c.label, c.kind, c.detail, c.documentation, c.insert, where)
                for c in _statement_items(language) if c.label.startswith(partial)]
    # the name being written may be several words long: try the longest that matches
    words = list(re.finditer(r"[^\s;]+", stmt))
    trailing_space = stmt[-1:].isspace()
    for k in range(min(4, len(words)), -1, -1):
        if trailing_space and k:
            continue
        cut = words[-k].start() if k else len(stmt)
        before, partial = stmt[:cut], stmt[cut:]
        kind = _namespace(analysis, expected_field(language, before))
        if kind is None:
            continue
        bare = partial.strip('"').lower()
        matched = [n for n in _names(analysis, kind) if n.lower().startswith(bare)]
        if matched or k == 0:
            where = Range(analysis.path, line, start + cut + 1, line, col)
            return [Completion(n, kind, kind, insert=n if kind == TIEBREAK else written_name(n, language),
                               replace=where) for n in matched]
    partial = words[-1].group(0) if words and not trailing_space else ""
    before = stmt[:len(stmt) - len(partial)]
    where = Range(analysis.path, line, col - len(partial), line, col)
    return [Completion(w, "keyword", insert=w, replace=where)
            for w in expected_keywords(language, before) if w.startswith(partial)]


# --- rename -----------------------------------------------------------------------------------

def rename(analyzer: Analyzer, analysis: Analysis, line: int, col: int, new: str) -> dict[str, list]:
    """The edits renaming the name under the cursor everywhere it is written in the
    chain, by file: {path: [(Range, text)]}. RenameRefused when there is no name there,
    the new name is taken or cannot be written, or a use is in a stock variant's file."""
    occ = analysis.index.at(analysis.path, line, col)
    if occ is None:
        raise RenameRefused("no declared name here to rename")
    new = " ".join(new.split())
    if not new:
        raise RenameRefused("a name cannot be empty")
    if new != occ.name.text and new in analysis.index.declared.get(occ.kind, {}):
        raise RenameRefused(f"{occ.kind} {new!r} is declared already")
    stock = Path(compiler.stock_path("usa")).resolve().parent
    spans = [o.name.span for o in analysis.index.same(occ)]
    for span in spans:
        if not same_file(span.file, analysis.path) and Path(span.file).resolve().parent == stock:
            raise RenameRefused(f"{occ.name.text!r} is declared or used in the stock variant "
                                f"{Path(span.file).name}, which cannot be edited here")
    for text in dict.fromkeys([written_name(new, analyzer.language), quoted(new)]):
        edits: dict[str, list] = {}
        for span in spans:
            edits.setdefault(span.file, []).append((Range.of(span), text))
        if _reads_back(analyzer, analysis, edits, new):
            return edits
    raise RenameRefused(f"{new!r} cannot be written as a name here")


def apply_edits(text: str, edits) -> str:
    """``text`` with (Range, new text) edits made, each on one line."""
    lines = text.split("\n")
    for where, new in sorted(edits, key=lambda e: (e[0].line, e[0].col), reverse=True):
        row = lines[where.line - 1]
        lines[where.line - 1] = row[:where.col - 1] + new + row[where.end_col - 1:]
    return "\n".join(lines)


def _reads_back(analyzer: Analyzer, analysis: Analysis, edits: dict, new: str) -> bool:
    """Whether every edited file still parses as well as it did, with the new name read
    at each edit."""
    for path, changes in edits.items():
        spec = next((s for s in analysis.files if s.path == path), None)
        if spec is None:
            return False
        _, before = analyzer.parse_recovering(spec.text, path)
        edited, after = analyzer.parse_recovering(apply_edits(spec.text, changes), path)
        if len(after) > len(before):
            return False
        count = sum(1 for stmt in edited.statements for _, _, name in names_in(stmt) if name.text == new)
        if count < len(changes):
            return False
    return True


# --- the outline and folding ------------------------------------------------------------------

def _rest(analysis: Analysis, stmt: ast.Stmt, after: Span) -> str:
    line = analysis.lines[stmt.span.line - 1]
    return re.sub(r"\s+#.*$", "", line[after.end_col - 1:stmt.span.end_col - 1]).strip()


def _symbol(analysis: Analysis, stmt: ast.Stmt) -> Symbol:
    whole = Range.of(stmt.span)
    if isinstance(stmt, ast.PlaceDecl):
        return Symbol(stmt.name.text, "place", whole, Range.of(stmt.name.span), type(stmt).words)
    if isinstance(stmt, (ast.Route, ast.Ticket)):
        kind = "route" if isinstance(stmt, ast.Route) else "ticket"
        detail = _rest(analysis, stmt, stmt.b.span) if isinstance(stmt, ast.Route) else \
            _statement_text(analysis, stmt)[len(type(stmt).words):].strip()
        select = Range(stmt.span.file, stmt.a.span.line, stmt.a.span.col, stmt.a.span.line, stmt.a.span.end_col)
        return Symbol(f"{stmt.a.text} - {stmt.b.text}", kind, whole, select, detail)
    decl = None
    try:
        from_key = stmt.key() if type(stmt).merge == ast.KEYED else None
    except NotImplementedError:
        from_key = None
    if from_key is not None:
        decl = next((n for _, _, n in names_in(stmt) if len(from_key) == 2 and n.text == from_key[1]), None)
    text = _statement_text(analysis, stmt)
    if decl is not None:
        return Symbol(f"{type(stmt).words} {decl.text}", "declaration", whole, Range.of(decl.span),
                      text[len(type(stmt).words):].strip())
    return Symbol(text or type(stmt).words, "statement", whole, whole)


def _group(name: str, children: list[Symbol]) -> Symbol:
    first = min(children, key=lambda s: (s.range.line, s.range.col)).range
    last = max(children, key=lambda s: (s.range.end_line, s.range.end_col)).range
    whole = Range(first.file, first.line, first.col, last.end_line, last.end_col)
    return Symbol(name, "group", whole, Range(first.file, first.line, first.col, first.line, first.col),
                  f"{len(children)}", children)


def symbols(analysis: Analysis) -> list[Symbol]:
    """The document's outline: its core statements (components, set-up, scoring), its
    places, routes and tickets, and each mechanic's statements under the mechanic's title."""
    groups: dict[str, list[Symbol]] = {}
    order = ["components", "cities", "routes", "tickets"]
    for stmt in analysis.main.statements:
        owner = _owner(analysis, type(stmt))
        if isinstance(stmt, ast.PlaceDecl):
            name = "cities"
        elif isinstance(stmt, ast.Route):
            name = "routes"
        elif isinstance(stmt, ast.Ticket):
            name = "tickets"
        elif owner is not None:
            name = owner.title
            if name not in order:
                order.append(name)
        else:
            name = "components"
        groups.setdefault(name, []).append(_symbol(analysis, stmt))
    return [_group(name, groups[name]) for name in order if groups.get(name)]


def folding(analysis: Analysis) -> list[tuple[int, int, str]]:
    """Folding ranges (first line, last line, "comment" or "region"): blocks of two or more
    comment lines, and runs of statements of one kind (routes, tickets, cities …) with
    nothing but blank and comment lines between them."""
    out = []
    lines = analysis.lines
    start = None
    for number, text in enumerate(lines + [""], 1):
        if text.lstrip().startswith("#"):
            start = start or number
            continue
        if start is not None and number - 1 > start:
            out.append((start, number - 1, "comment"))
        start = None
    first_on_line: dict[int, ast.Stmt] = {}
    for stmt in analysis.main.statements:
        first_on_line.setdefault(stmt.span.line, stmt)
    run: list[ast.Stmt] = []
    for first in [*first_on_line.values(), None]:
        if run and (first is None or type(first) is not type(run[0])):
            if run[-1].span.line > run[0].span.line:
                out.append((run[0].span.line, run[-1].span.line, "region"))
            run = []
        if first is not None:
            run.append(first)
    return sorted(out)


# --- quick fixes ------------------------------------------------------------------------------

def quick_fixes(analysis: Analysis, line: int, end_line: int,
                language: Language | None = None) -> list[tuple[str, Range, str, Problem]]:
    """(title, range, new text, the problem) for each problem between two lines whose
    message offers a "did you mean" hint."""
    out = []
    for problem in analysis.problems:
        span = problem.span
        if problem.fix is None or not line <= span.line <= end_line or not same_file(span.file, analysis.path):
            continue
        new = problem.fix if re.fullmatch(r"[a-z]+", problem.fix) else written_name(problem.fix, language)
        out.append((f"Change to {problem.fix!r}", Range.of(span), new, problem))
    return out
