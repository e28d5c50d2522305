"""The canonical layout of a spec: what ``railspec fmt`` writes and what the language
server answers a formatting request with (docs/language.md, "Layout and railspec fmt").

The layout is made from Lark's tokens, never from the text's words: the spec is parsed
with the language's own grammar (the core's and every installed mechanic's fragment),
keeping every token, and the comments the grammar ignores are collected by a lexer
callback. Nothing here knows a statement, so a new mechanic's statements are laid out by
the same rules as the core's:

- one statement per line, at the start of the line: statements joined by ``;`` are split
  onto lines of their own;
- one space between tokens, except that ``,`` and ``:`` stand against the token before
  them, ``..`` joins its two numbers, ``+`` stands against its number, and a ``:`` between
  a number or a name and a number joins them (table entries ``1:1`` and ``5+:40``,
  ``Deutschland:5``); after a keyword (``players: 8``) or before a name (``Puglia: Bari``)
  a space follows the ``:``;
- names keep the author's quoting (a quoted name stays quoted, a bare one bare); the
  words of a bare name are separated by one space, as the name is stored;
- consecutive statements written alike are aligned in columns: a column lines up over a
  run of statements whose cells up to it are of the same kinds (the same keywords, a name
  where the others have a name, a number where they have a number), so a table of routes
  aligns its cities, lengths, colours and attributes while a statement of another shape
  among them keeps its single spaces; the items of a list (after its first ``,``) are
  not aligned;
- comments stay where they were: a comment on a line of its own stays on a line of its
  own (at the start of the line); a comment after a statement stays after it, and the
  trailing comments of a paragraph start in one column, one space past the widest of
  their statements, except that a statement more than ten columns wider than the next
  narrower one starts a column of its own (a long table among short statements does not
  push their comments far out); a comment's text is kept, less trailing blanks;
- blank lines are kept, a run of them collapsed to one; none at the start or the end; the
  file ends with one line end (``\\n``: Windows line ends become ``\\n``), and a byte
  order mark is dropped.

Formatting never changes what a spec means: the formatted text has the same tokens, in the
same order, as the original, and formatting it again changes nothing; :func:`format_text`
checks both before answering. A spec
that does not parse is never formatted: its located :class:`SpecSyntaxError` is raised.
"""
from __future__ import annotations

import functools
import threading
import unicodedata
from dataclasses import dataclass

from lark import Lark, Token, Tree
from lark.lexer import PatternStr

from .parse import Language, parse

#: The grammar's rules whose tokens make one name: one cell, its words joined by spaces.
_NAME_RULES = ("name", "tiebreak_key")
#: The tokens that stand against the one before them.
_CLOSE_LEFT = (",", ":", "..", "+")

# The comments the lexer passes while one parse runs, per thread: the callback is given
# to the parser once, when it is built, and a parser is shared by every call.
_collected = threading.local()


def _keep_comment(tok: Token) -> Token:
    _collected.comments.append(tok)
    return tok


@functools.lru_cache(maxsize=8)
def _token_parser(grammar: str) -> tuple[Lark, frozenset[str]]:
    """The parser that keeps every token (keywords and punctuation, which the layout
    writes, too), built once per process and grammar; and the names of the terminals the
    grammar spells out (keywords, punctuation), whose tokens are told apart by their text."""
    lark = Lark(grammar, parser="lalr", lexer="contextual", maybe_placeholders=False, keep_all_tokens=True,
                lexer_callbacks={"COMMENT": _keep_comment})
    return lark, frozenset(t.name for t in lark.terminals if isinstance(t.pattern, PatternStr))


def _read(text: str, grammar: str) -> tuple[Tree, list[Token], frozenset[str]]:
    """The parse tree of ``text`` with every token, its comments in order, and the names of
    the grammar's spelt-out terminals."""
    lark, spelt = _token_parser(grammar)
    _collected.comments = []
    try:
        return lark.parse(text), _collected.comments, spelt
    finally:
        _collected.comments = None


def _tokens(tree: Tree) -> list[Token]:
    return list(tree.scan_values(lambda v: isinstance(v, Token)))


@dataclass(frozen=True)
class _Unit:
    """What one cell is made of: a name (its words) or one token, with its kind: a
    spelt-out token's text (``route``, ``:``), else its terminal's name in angle brackets
    (``<INT>``, ``<WORD>``, ``<name>`` for a name)."""

    kind: str
    text: str

    @property
    def value(self) -> bool:
        """A number, a name or a word, not a keyword or punctuation."""
        return self.kind.startswith("<")


def _units(tree: Tree, spelt: frozenset[str]):
    for child in tree.children:
        if isinstance(child, Tree):
            if child.data in _NAME_RULES:
                yield _Unit("<name>", " ".join(str(t) for t in _tokens(child)))
            else:
                yield from _units(child, spelt)
        else:
            yield _Unit(str(child) if child.type in spelt else f"<{child.type}>", str(child))


def _cells(stmt: Tree, spelt: frozenset[str]) -> list[tuple[tuple[str, ...], str]]:
    """A statement's cells, in order: (the kinds of its units, its text). A cell is a run
    of units with no space between them (``2..5``, ``1:1``, ``Puglia:``)."""
    cells: list[tuple[list[str], list[str]]] = []
    units = list(_units(stmt, spelt))
    for i, unit in enumerate(units):
        before = units[i - 1] if i else None
        joined = before is not None and (
            unit.kind in _CLOSE_LEFT or before.kind == ".."
            or (before.kind == ":" and unit.kind == "<INT>" and i >= 2
                and (units[i - 2].value or units[i - 2].kind == "+")))
        if joined:
            cells[-1][0].append(unit.kind)
            cells[-1][1].append(unit.text)
        else:
            cells.append(([unit.kind], [unit.text]))
    return [(tuple(kinds), "".join(texts)) for kinds, texts in cells]


def _width(text: str) -> int:
    """How many columns ``text`` takes in a monospaced editor: a combining mark none, an
    East Asian wide character two."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


def _aligned(rows: list[list[tuple[tuple[str, ...], str]]]) -> list[str]:
    """The statements of one paragraph written with their columns aligned.

    Column j of a statement lines up with column j of the statements of its run: the
    nearest statements before and after it, in the paragraph, whose cells up to j are of
    the same kinds and which have a cell after j. A statement whose cell j is its last, or
    which has no cell j, neither pads it nor breaks the run, unless its cells up to j are
    of other kinds; a run never crosses a break in the runs of the columns before it."""
    # prefix[i][j] stands for the kinds of row i's cells 0..j: equal numbers, equal kinds
    numbers: dict[tuple, int] = {}
    prefix = []
    for row in rows:
        ids, last_id = [], -1
        for kinds_j, _ in row:
            last_id = numbers.setdefault((last_id, kinds_j), len(numbers))
            ids.append(last_id)
        prefix.append(ids)
    groups: list[list[int | None]] = [[None] * len(row) for row in rows]
    previous: list[int | None] = [0] * len(rows)  # each row's run in the column before (one run before column 0)
    for j in range(max((len(row) for row in rows), default=0) - 1):
        last, run = None, -1
        for i, row in enumerate(rows):
            if len(row) <= j:
                continue
            if len(row) == j + 1:  # its last cell: pads nothing, but other kinds end the run
                if last is not None and prefix[i][j] != prefix[last][j]:
                    last = None
                continue
            if last is None or previous[last] != previous[i] or prefix[i][j] != prefix[last][j]:
                run += 1
            groups[i][j] = run
            last = i
        previous = [g[j] if len(g) > j + 1 else None for g in groups]
        widths: dict[int, int] = {}
        for i, row in enumerate(rows):
            run_j = groups[i][j] if len(row) > j + 1 else None
            if run_j is not None:
                widths[run_j] = max(widths.get(run_j, 0), _width(row[j][1]))
        for i, row in enumerate(rows):
            if len(row) > j + 1:
                row_run = groups[i][j]
                assert row_run is not None  # every cell but a row's last is in a run
                groups[i][j] = widths[row_run]  # from here on, the cell's padded width
    lines = []
    for i, row in enumerate(rows):
        # every cell but a row's last has its padded width (``or 0``: a width, never None)
        parts = [text + " " * ((groups[i][j] or 0) - _width(text)) for j, (_, text) in enumerate(row[:-1])]
        lines.append(" ".join(parts + [row[-1][1]]))
    return lines


#: How much wider than the next narrower one a commented statement may be and still have
#: its comment in the same column: past it, a wide statement does not push the comments of
#: the short ones far out (``region points …`` among ``regions scored per network``).
_COMMENT_GAP = 10


def _comment_columns(widths: list[int]) -> dict[int, int]:
    """Where a trailing comment starts, by its statement's width (``widths`` ascending):
    one space past the widest statement of its group, a group being widths no more than
    :data:`_COMMENT_GAP` apart, one after the other."""
    columns: dict[int, int] = {}
    group: list[int] = []
    for w in widths + [None]:
        if group and (w is None or w - group[-1] > _COMMENT_GAP):
            columns.update((g, group[-1] + 1) for g in group)
            group = []
        if w is not None:
            group.append(w)
    return columns


def _paragraph(items: list) -> list[str]:
    """The lines of one paragraph: its statements aligned, its trailing comments in one
    column, its own-line comments as written."""
    rows = [item[0] for item in items if item[0] is not None]
    # a list's items are not aligned: a row is aligned up to its first cell with a ',' and
    # the rest follows with single spaces
    cut = [next((j + 1 for j, (kinds, _) in enumerate(row) if "," in kinds), len(row)) for row in rows]
    written = iter(" ".join([head, *(text for _, text in row[k:])])
                   for head, row, k in zip(_aligned([row[:k] for row, k in zip(rows, cut)]), rows, cut))
    statements = [(next(written), comment) if cells is not None else (None, comment) for cells, comment in items]
    column = _comment_columns(sorted({_width(text) for text, comment in statements
                                      if text is not None and comment is not None}))
    out = []
    for text, comment in statements:
        if text is None:
            out.append(comment)
        elif comment is None:
            out.append(text)
        else:
            out.append(text + " " * (column[_width(text)] - _width(text)) + comment)
    return out


def _kept(statements: list[Tree], comments: list[Token]) -> tuple:
    """What formatting must keep: the tokens of each statement and the comments, in order."""
    return (tuple(tuple((tok.type, str(tok)) for tok in _tokens(stmt)) for stmt in statements),
            tuple(str(tok).rstrip() for tok in comments))


def _layout(text: str, grammar: str) -> tuple[str, tuple]:
    """The canonical layout of ``text`` (which parses), and what it must keep (:func:`_kept`)."""
    tree, comments, spelt = _read(text, grammar)
    statements = [child for child in tree.children if isinstance(child, Tree)]
    on_line: dict[int | None, list[Tree]] = {}
    for stmt in statements:
        on_line.setdefault(_tokens(stmt)[0].line, []).append(stmt)
    comment_on = {tok.line: str(tok).rstrip() for tok in comments}
    # each line: a paragraph break (None), or its items: (cells, trailing comment) for a
    # statement, (None, comment) for a comment on a line of its own
    paragraphs: list[list] = [[]]
    for line in range(1, text.count("\n") + 1):
        if line in on_line:
            stmts = on_line[line]
            for k, stmt in enumerate(stmts):
                paragraphs[-1].append((_cells(stmt, spelt), comment_on.get(line) if k == len(stmts) - 1 else None))
        elif line in comment_on:
            paragraphs[-1].append((None, comment_on[line]))
        elif paragraphs[-1]:
            paragraphs.append([])
    out = "\n\n".join("\n".join(_paragraph(items)) for items in paragraphs if items)
    return (out + "\n" if out else ""), _kept(statements, comments)


def format_text(text: str, path: str, language) -> str:
    """The canonical layout of the spec ``text`` (read from ``path``, for messages) in
    ``language``: a :class:`~railspec.compiler.lang.parse.Language`, or a registry (anything
    with a ``language``, such as :class:`~railspec.compiler.mechanic.Registry`).
    ``railspec.compiler.format_text`` takes every installed mechanic's by default.

    A spec that does not parse raises the located
    :class:`~railspec.compiler.base.errors.SpecSyntaxError` the parser raises; nothing is
    formatted. Formatting is idempotent and keeps every token and comment, so the spec hash
    does not change."""
    language = getattr(language, "language", language)
    if not isinstance(language, Language):
        raise TypeError(f"format_text needs a Language or a registry, not {type(language).__name__}")
    spec = parse(text, path, language)  # the parser's own errors, and its text (no BOM, a last line end)
    formatted, kept = _layout(spec.text, language.grammar)
    # the layout is checked on every call, at the cost of one more parse: the formatted text
    # must read as the same tokens and comments, and be its own layout
    if _layout(formatted, language.grammar) != (formatted, kept):  # pragma: no cover - a bug in the layout
        raise RuntimeError(f"{path}: the formatted spec would not read as the original, or would format "
                           f"again differently (a bug in railspec's formatter: please report it with the spec)")
    return formatted
