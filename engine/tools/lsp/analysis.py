"""One open spec, checked as ``railspec check`` checks it and indexed for an editor.

An :class:`Analyzer` holds the texts the editor has open (unsaved edits included). Its
:meth:`Analyzer.analyze` parses a document, follows its ``extends`` chain (reading a base
from the editor when it is open there, else from disk, as :func:`railspec.compiler.resolve`
would), runs the checker and returns an :class:`Analysis`: every problem located in the
document (a problem in a base is put on the ``extends`` line), the IR when the spec checks,
and an :class:`Index` of the names the chain declares and uses.

A syntax error stops Lark at the first bad statement; since statements are one line each,
the analysis blanks that line and parses again, so that it can report every bad line and
still index the rest of the file.

Positions here are the compiler's: 1-based lines and columns counted in characters
(``Span``); the server turns them into the protocol's.
"""
from __future__ import annotations

import ast as python_ast
import copy
import re
import threading
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path

from ... import compiler
from ...compiler import ir
from ...compiler.base.errors import Span, SpecCheckError, SpecError, SpecSyntaxError
from ...compiler.base.limits import MAX_SPEC_BYTES, shown
from ...compiler.check import check
from ...compiler.lang import ast
from ...compiler.lang.parse import Language, parse
from ...compiler.mechanic import Registry, default_registry
from ...compiler.specs import ExtendsNotFound, extends_target
from .. import mapfacts

#: How many syntax errors one document reports before the rest are left unfound.
MAX_SYNTAX_ERRORS = 20
#: The namespace of places (cities and the places a mechanic declares): they share one.
PLACE = "place"
#: The namespace of card colours (``card COLOUR N`` declares one).
COLOUR = "colour"
#: Words a route may use for its colour without a ``card`` line (any one colour).
ANY_COLOUR = ("gray", "grey")
_HINT = re.compile(r"\(did you mean ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\?\)")

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True)
class Problem:
    """A diagnostic of the document: where (a Span of the document), its message, its
    severity, the text a quick fix puts at the span (a "did you mean" hint), and for a
    problem of a base shown on the ``extends`` line, where it is in the base."""

    span: Span
    message: str
    severity: str = ERROR
    fix: str | None = None
    origin: Span | None = None  # a problem of a base: where it is there


@dataclass(frozen=True)
class Occurrence:
    """One written name: its node (text and span), its namespace (:data:`PLACE`,
    :data:`COLOUR`, or the key word of the keyed statement declaring it), whether it is a
    declaration, and the statement it is in."""

    name: ast.Name
    kind: str
    declares: bool
    stmt: ast.Stmt
    declared_by: str = ""  # a declaration: the declaring statement's words ("city", …)


def names_in(node, owner=None):
    """(the class owning the field, the field's name, the Name) for every name in a node,
    nested nodes and tuples included, each name once."""
    seen = set()

    def walk(value, cls, fname):
        if isinstance(value, ast.Name):
            if id(value) not in seen:
                seen.add(id(value))
                yield cls, fname, value
        elif isinstance(value, (tuple, list)):
            for item in value:
                yield from walk(item, cls, fname)
        elif isinstance(value, ast.Node) and is_dataclass(value):
            for f in fields(value):
                yield from walk(getattr(value, f.name), type(value), f.name)

    yield from walk(node, type(node), "")


def declared_name(stmt: ast.Stmt) -> tuple[str, str, ast.Name] | None:
    """What a statement declares: (namespace, its words, the name), or None. A place
    declaration (``ast.PlaceDecl``: a city, or a mechanic's kind of place) declares a
    place; a keyed statement whose key is (word, name) declares that name in the
    namespace named after the field holding it (``card COLOUR N``: a colour) or, when the
    field is plain ``name``, after the key's word (a group of cities, a company …)."""
    if isinstance(stmt, ast.PlaceDecl):
        return PLACE, type(stmt).words, stmt.name
    if type(stmt).merge != ast.KEYED:
        return None
    try:
        key = stmt.key()
    except NotImplementedError:
        return None
    if len(key) != 2 or not isinstance(key[1], str):
        return None
    for f in fields(stmt):
        value = getattr(stmt, f.name)
        if isinstance(value, ast.Name) and value.text == key[1]:
            return (key[0] if f.name == "name" else f.name), type(stmt).words, value
    return None


#: The core's own fields that name places and colours, for completion where a spec has
#: not used the field yet (a mechanic's fields are learnt from their use: see Index).
CORE_FIELDS = {
    (ast.Route, "a"): PLACE, (ast.Route, "b"): PLACE, (ast.Route, "colour"): COLOUR,
    (ast.Ticket, "a"): PLACE, (ast.Ticket, "b"): PLACE, (ast.TicketForm, "a"): PLACE, (ast.TicketForm, "b"): PLACE,
    (ast.WithoutRoute, "names"): PLACE, (ast.WithoutTicket, "names"): PLACE, (ast.WithoutCity, "names"): PLACE,
}


class Index:
    """The names an extends chain declares and uses. A use is matched to a declaration by
    its text; when a text is declared in two namespaces (a group of cities named like a
    city), the namespace the same field's other names resolve to decides. Which
    namespace each field names (``field_kinds``) is learnt from the spec itself, so a
    mechanic's statements are indexed without the index knowing them."""

    def __init__(self, files: list[ast.SpecFile]):
        self.occurrences: list[Occurrence] = []
        self.declared: dict[str, dict[str, list[Occurrence]]] = {}
        pending = []
        for spec in files:
            for stmt in spec.statements:
                decl = declared_name(stmt)
                for cls, fname, name in names_in(stmt):
                    if decl is not None and name is decl[2]:
                        occ = Occurrence(name, decl[0], True, stmt, decl[1])
                        self.occurrences.append(occ)
                        self.declared.setdefault(decl[0], {}).setdefault(name.text, []).append(occ)
                    else:
                        pending.append((cls, fname, name, stmt))
        votes: dict[tuple, dict[str, int]] = {}
        for cls, fname, name, _ in pending:
            kinds = self.kinds_of(name.text)
            if len(kinds) == 1:
                tally = votes.setdefault((cls, fname), {})
                tally[kinds[0]] = tally.get(kinds[0], 0) + 1
        self.field_kinds = dict(CORE_FIELDS)
        for key, tally in votes.items():
            self.field_kinds[key] = max(sorted(tally), key=lambda kind: tally[kind])
        for cls, fname, name, stmt in pending:
            kinds = self.kinds_of(name.text)
            if not kinds:
                continue
            kind = kinds[0] if len(kinds) == 1 else self.field_kinds.get((cls, fname))
            if kind in kinds:
                self.occurrences.append(Occurrence(name, kind, False, stmt))
        self.occurrences.sort(key=lambda o: (o.name.span.file, o.name.span.line, o.name.span.col))

    def kinds_of(self, text: str) -> list[str]:
        """The namespaces declaring ``text``, in a fixed order."""
        return sorted(kind for kind, names in self.declared.items() if text in names)

    def at(self, file: str, line: int, col: int) -> Occurrence | None:
        """The occurrence under a position of ``file`` (1-based line and column)."""
        for occ in self.occurrences:
            s = occ.name.span
            if s.file == file and s.line == line and s.col <= col <= max(s.end_col, s.col + 1):
                return occ
        return None

    def same(self, occ: Occurrence) -> list[Occurrence]:
        """Every occurrence of the same name in the same namespace, declarations first."""
        found = [o for o in self.occurrences if o.kind == occ.kind and o.name.text == occ.name.text]
        return sorted(found, key=lambda o: not o.declares)

    def names(self, kind: str) -> list[str]:
        """The names declared in a namespace, in declaration order."""
        return list(self.declared.get(kind, {}))


@dataclass
class Analysis:
    """What the server knows of one document: its path and text, the chain it was checked
    with (base first, the document last; statements of lines with a syntax error left
    out), its problems, the IR when it checks, and the index of its names."""

    path: str
    text: str
    files: list[ast.SpecFile]
    problems: list[Problem]
    variant: ir.Variant | None
    index: Index
    chain_paths: tuple[str, ...] = ()
    #: The last analysis of this document that checked, while this one does not: hovers
    #: read its facts (a name or a line that has not changed since is found there).
    previous: "Analysis | None" = field(default=None, repr=False)
    _written: object = field(default=None, repr=False)
    _cars: dict[int, int | None] | None = field(default=None, repr=False)

    @property
    def main(self) -> ast.SpecFile:
        return self.files[-1]

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    def written(self):
        """The statements behind the IR's routes and tickets (``mapfacts.written``), once."""
        if self._written is None and self.variant is not None:
            self._written = mapfacts.written(self.variant, self.files)
        return self._written

    def fewest_cars(self) -> dict[int, int | None]:
        """The fewest trains completing each ticket (``mapfacts.fewest_cars``), once; empty
        while no version of the spec has checked."""
        if self._cars is None and self.variant is not None:
            self._cars = mapfacts.fewest_cars(self.variant, self.written())
        return self._cars or {}

    def statement_at(self, line: int, col: int) -> ast.Stmt | None:
        """The statement of the document written at a position (the nearest one of a line
        holding several joined by ';')."""
        on_line = [s for s in self.main.statements if s.span.line == line]
        if not on_line:
            return None
        inside = [s for s in on_line if s.span.col <= col <= s.span.end_col]
        if inside:
            return inside[0]
        before = [s for s in on_line if s.span.col <= col]
        return before[-1] if before else on_line[0]


def same_file(a: str, b: str) -> bool:
    """Whether two paths name one file."""
    return _key(a) == _key(b)


def _disk_stamp(path: str) -> tuple | None:
    try:
        st = Path(path).stat()
    except (OSError, ValueError):
        return None
    return (st.st_mtime_ns, st.st_size)


def _key(path: str) -> str:
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError, ValueError):
        return path


def fix_of(message: str) -> str | None:
    """The name a "did you mean 'X'?" hint offers, or None."""
    m = _HINT.search(message)
    if not m:
        return None
    try:
        return python_ast.literal_eval(m.group(1))
    except (ValueError, SyntaxError):
        return None


def oversize(text: str) -> str | None:
    """Why a text is too large to check (over the size ``railspec check`` reads a spec
    file at: ``limits.MAX_SPEC_BYTES`` of UTF-8), or None. Parsing such a text would take
    minutes."""
    if len(text) * 4 <= MAX_SPEC_BYTES:  # a character is at most 4 bytes: no need to count
        return None
    size = len(text.encode("utf-8", "surrogatepass"))
    if size <= MAX_SPEC_BYTES:
        return None
    return (f"{size:,} bytes, larger than the {MAX_SPEC_BYTES // (1024 * 1024)} MB a spec file may be: "
            "not checked (railspec check refuses it too)")


class ExtendsRefused(Exception):
    """An ``extends`` that names nothing readable: the message for its line."""


class Analyzer:
    """Checks documents against the editor's texts. ``open_texts`` maps a path to the
    text the editor holds for it; a base that is not open is read from disk (parsed once
    per change of its size and time).

    The server checks documents in threads of their own (:mod:`.jobs`), each through a
    view (:meth:`with_texts`) holding the editor's texts as they were when the check
    began; the views share the caches, which a lock guards. A check may be interrupted
    anywhere: the caches are only ever given whole entries."""

    def __init__(self, registry: Registry | None = None) -> None:
        self.registry = registry or default_registry()
        self.open_texts: dict[str, str] = {}
        self._disk: dict[str, tuple[tuple, ast.SpecFile | SpecError]] = {}
        self._cache: dict[str, tuple[tuple, Analysis]] = {}
        self._lock = threading.Lock()

    def with_texts(self, texts: dict[str, str]) -> "Analyzer":
        """A view of this analyzer reading ``texts`` as the editor's (the caches shared)."""
        view = copy.copy(self)
        view.open_texts = texts
        return view

    @property
    def language(self) -> Language:
        return self.registry.language

    # --- reading ------------------------------------------------------------------------

    def open_text(self, path: str) -> str | None:
        """The editor's text of a file, by any spelling of its path."""
        if path in self.open_texts:
            return self.open_texts[path]
        key = _key(path)
        for other, text in self.open_texts.items():
            if _key(other) == key:
                return text
        return None

    def parse_recovering(self, text: str, path: str) -> tuple[ast.SpecFile, list[SpecSyntaxError]]:
        """The statements of ``text`` and its syntax errors: after each error, its line is
        blanked and the text parsed again (statements are one line each), up to
        :data:`MAX_SYNTAX_ERRORS`."""
        errors: list[SpecSyntaxError] = []
        lines = text.split("\n")
        while True:
            try:
                spec = parse("\n".join(lines), path, self.language)
                return ast.SpecFile(path, text, spec.statements), errors
            except SpecSyntaxError as err:
                errors.append(err)
                line = err.span.line if err.span else 0
                if not 0 < line <= len(lines) or not lines[line - 1].strip() or len(errors) >= MAX_SYNTAX_ERRORS:
                    return ast.SpecFile(path, text, ()), errors
                lines[line - 1] = ""

    def _disk_spec(self, path: Path) -> ast.SpecFile:
        """A base read from disk and parsed (a SpecError when it cannot be)."""
        try:
            st = path.stat()
            stamp = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = None
        with self._lock:
            cached = self._disk.get(str(path))
        if cached is not None and stamp is not None and cached[0] == stamp:
            result = cached[1]
        else:
            try:
                result = parse(compiler.read_spec_text(path), str(path), self.language)
            except SpecError as err:
                result = err
            if stamp is not None:
                with self._lock:
                    self._disk[str(path)] = (stamp, result)
        if isinstance(result, SpecError):
            raise result
        return result

    def base_path(self, spec: ast.SpecFile, ext: ast.Extends) -> Path:
        """The file ``extends`` names, found as :func:`railspec.compiler.resolve` finds it
        (a file open in the editor counts as there); or ExtendsRefused."""
        def present(candidate: Path) -> bool:
            try:
                return self.open_text(str(candidate)) is not None or (candidate.exists() and not candidate.is_dir())
            except (OSError, ValueError):
                return False
        try:
            return extends_target(Path(spec.path).parent, ext.target, present)
        except ExtendsNotFound as why:
            raise ExtendsRefused(str(why)) from None

    # --- analysing ----------------------------------------------------------------------

    def analyze(self, path: str, text: str) -> Analysis:
        """The analysis of the document ``path`` holding ``text`` (cached while neither it
        nor an open base changes)."""
        with self._lock:
            cached = self._cache.get(path)
        if cached is not None and cached[0] == self._stamp(path, text, cached[1].chain_paths):
            return cached[1]
        result = self._analyze(path, text)
        if result.variant is None and cached is not None:
            last = cached[1] if cached[1].variant is not None else cached[1].previous
            result.previous = last
        stamp = self._stamp(path, text, result.chain_paths)
        with self._lock:
            self._cache[path] = (stamp, result)
        return result

    def _stamp(self, path: str, text: str, chain: tuple[str, ...]) -> tuple:
        """What an analysis depends on: the document's text, and each base's text in the
        editor or, for one read from disk, its time and size."""
        return (text,) + tuple(self.open_text(p) or _disk_stamp(p) for p in chain if p != path)

    def forget(self, path: str) -> None:
        """Drop a closed document's analysis."""
        with self._lock:
            self._cache.pop(path, None)

    def dependents(self, path: str) -> list[str]:
        """The analysed documents whose chain reads ``path`` as a base."""
        with self._lock:
            cached = list(self._cache.items())
        return [other for other, (_, analysis) in cached
                if other != path and any(same_file(path, base) for base in analysis.chain_paths[:-1])]

    def _analyze(self, path: str, text: str) -> Analysis:
        if text.startswith("\ufeff"):
            text = text[1:]
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        too_large = oversize(text)
        if too_large is not None:
            empty = ast.SpecFile(path, text, ())
            return Analysis(path, text, [empty], [Problem(Span(path, 1, 1, 1), too_large)], None, Index([empty]),
                            (path,))
        main, syntax = self.parse_recovering(text, path)
        problems: list[Problem] = [self._problem(main, err) for err in syntax]
        files = [main]
        seen = [_key(path)]
        complete = True
        current = main
        while True:
            ext = next((s for s in current.statements if isinstance(s, ast.Extends)), None)
            if ext is None:
                break
            try:
                base = self.base_path(current, ext)
            except ExtendsRefused as why:
                problems.append(self._problem(main, SpecError(str(why), ext.span)))
                complete = False
                break
            if _key(str(base)) in seen:
                problems.append(self._problem(main, SpecError(
                    f"extends cycle: {' -> '.join(seen + [_key(str(base))])}", ext.span)))
                complete = False
                break
            seen.append(_key(str(base)))
            editor = self.open_text(str(base))
            if editor is not None and oversize(editor) is not None:
                problems.append(self._problem(main, SpecError(
                    f"extends {shown(ext.target)!r}: {base}: {oversize(editor)}", ext.span)))
                complete = False
                break
            if editor is not None:
                spec, errors = self.parse_recovering(editor.replace("\r\n", "\n"), str(base))
            else:
                try:
                    spec, errors = self._disk_spec(base), []
                except SpecSyntaxError as err:
                    spec, errors = ast.SpecFile(str(base), "", ()), [err]
                except SpecError as err:
                    problems.append(self._problem(main, SpecError(f"extends {shown(ext.target)!r}: {err.message}",
                                                                  ext.span)))
                    complete = False
                    break
            if errors:
                problems.append(self._problem(main, errors[0]))
                complete = False
            files.insert(0, spec)
            current = spec
        variant = None
        if not syntax and complete:
            try:
                variant = check(files, compiler.variant_key(path), self.registry)
            except SpecCheckError as err:
                problems += [self._problem(main, e) for e in err.errors]
            except SpecError as err:
                problems.append(self._problem(main, err))
            else:
                problems += [self._problem(main, w, WARNING) for w in variant.warnings]
        chain = tuple(spec.path for spec in files)
        return Analysis(path, text, files, problems, variant, Index(files), chain)

    def _problem(self, main: ast.SpecFile, err, severity: str = ERROR) -> Problem:
        """A problem of the document: where the error is when it is in the document; on
        its ``extends`` line (naming the place) when it is in a base; at the top when it has
        no place (a line counting errors not shown)."""
        span = err.span
        fix = fix_of(err.message)
        if span is None:
            return Problem(Span(main.path, 1, 1, 1), err.message, severity)
        if span.file == main.path or same_file(span.file, main.path):
            return Problem(span, err.message, severity, fix)
        ext = next((s for s in main.statements if isinstance(s, ast.Extends)), None)
        where = ext.span if ext is not None else Span(main.path, 1, 1, 1)
        kind = "warning" if severity == WARNING else "error"
        return Problem(where, f"{kind} in {Path(span.file).name}:{span.line}:{span.col}: {err.message}", severity,
                       origin=span)
