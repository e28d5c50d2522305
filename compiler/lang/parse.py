"""Stage 1, parse: spec text to a :class:`~railspec.compiler.lang.ast.SpecFile`.

The grammar is the core's (grammar.lark) followed by each mechanic's fragment, which joins
the core's extension points with ``%extend``: a :class:`Language` is that text with the
node classes its rules build (``ast.Node.parsed``) and the statements' written forms. It is
read with Lark's LALR parser and contextual lexer; a transformer made from the node
classes turns the tree into AST dataclasses with their spans. Every syntax error is a
located :class:`~railspec.compiler.base.errors.SpecSyntaxError` saying what was expected in
the spec's own terms, never a Lark traceback.
"""
from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, cast

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (
    GrammarError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from ..base.errors import Span, SpecError, SpecSyntaxError
from ..base.limits import MAX_DIGITS, shown
from . import ast

#: How a terminal is named in an error message (a keyword is named by its text).
_TERMINAL_WORDS = {
    "INT": "a number", "WORD": "a name", "STRING": "a quoted string", "_NL": "end of line",
    "$END": "end of file", "MINUS": "'-'", "COLON": "':'", "COMMA": "','", "SEMICOLON": "';'",
    "PLUS": "'+'", "VBAR": "'|'", "_LE": "'<='", "_DOTS": "'..'",
}
#: Terminals an error message never names: the extension points' placeholder.
_UNNAMED = {"_NOTHING"}


def core_grammar() -> str:
    """The core grammar's text (grammar.lark)."""
    return resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")


#: The extension points filled by node classes, and how a form writes what fills them:
#: (the parts' base class, the text around each part's form, the text between parts).
_PART_POINTS = {
    "route_attr": (ast.RouteAttr, " [{}]", ""),
    "ticket_form": (ast.TicketForm, "[{}] ", ""),
    "deal_part": (ast.DealPart, "[{}] ", ""),
    "end_part": (ast.EndPart, " [{}]", ""),
    "action_kind": (ast.ActionKind, "{}", " | "),
}
#: The extension points filled by keywords (a ``!`` rule): a form lists their alternatives.
_KEYWORD_POINTS = ("returned_deck", "return_place")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True, eq=False)
class Language:
    """A grammar and what its rules build: the core's, with each mechanic's fragment and
    node classes added (``Registry.language``). ``owners`` names who added what, for
    messages: the mechanics' names, in order."""

    grammar: str
    nodes: tuple[type[ast.Node], ...]
    owners: tuple[str, ...] = ()
    #: each statement's written form, by the words that begin it ("tunnels reveal": …)
    forms: dict = field(default_factory=dict)

    @property
    def statement_words(self) -> list[str]:
        """The first words a statement may begin with."""
        return sorted({words.split()[0] for words in self.forms})


def language(fragments: list[tuple[str, str]], nodes: list[tuple[str, type[ast.Node]]]) -> Language:
    """The core language with ``fragments`` ((owner, grammar text), appended in order) and
    ``nodes`` ((owner, node class)) added. Two node classes for one rule, or a statement
    without its words and form, are refused here (a ValueError naming the owners), not by
    a traceback from the parser."""
    all_nodes: list[tuple[str, type[ast.Node]]] = [("core", cls) for cls in ast.CORE_NODES] + list(nodes)
    rules: dict[str, str] = {}
    forms: dict[str, str] = {}
    for owner, cls in all_nodes:
        if not (isinstance(cls, type) and issubclass(cls, ast.Node)) or not cls.rule:
            raise ValueError(f"{owner}: {cls!r} is not a node class naming its grammar rule (ast.Node.rule)")
        if cls.rule in rules:
            raise ValueError(f"grammar rule {cls.rule!r} is built by a node of {rules[cls.rule]} and one of {owner}")
        rules[cls.rule] = owner
        if issubclass(cls, ast.Stmt):
            if not cls.words or not cls.form:
                raise ValueError(f"{owner}: statement {cls.__name__} needs its words and form")
            forms[cls.words] = cls.form
    parts = {point: [cls.form for _, cls in all_nodes if issubclass(cls, base) and cls.form]
             for point, (base, _, _) in _PART_POINTS.items()}
    for words, form in forms.items():
        forms[words] = _PLACEHOLDER.sub(lambda m: _parts_text(m.group(1), parts), form)
    text = core_grammar() + "".join(f"\n// --- {owner} ---\n{fragment}\n" for owner, fragment in fragments)
    return Language(text, tuple(cls for _, cls in all_nodes), tuple(dict.fromkeys(o for o, _ in fragments)),
                    forms)


def _parts_text(point: str, parts: dict) -> str:
    """What stands for an extension point in a written form: the forms of the parts that
    fill it (``[tunnel] [ferry N]``), or, for a point filled by keywords, the placeholder
    itself, filled from the grammar when an error needs it (:func:`_keywords`)."""
    if point in _PART_POINTS:
        _, each, between = _PART_POINTS[point]
        return between.join(each.format(form) for form in parts[point])
    return "{" + point + "}"


def _keywords(grammar: str, point: str) -> str:
    """The alternatives of a keyword extension point, as a form writes them: bottom|removed."""
    lark = _parser(grammar)
    words = sorted(" ".join(lark.get_terminal(s.name).pattern.value for s in rule.expansion)
                   for rule in lark.rules if rule.origin.name == point)
    return "|".join(words)


@functools.lru_cache(maxsize=8)
def _parser(grammar: str) -> Lark:
    # cache=True keeps the LALR tables in a temp file keyed by the grammar's hash, so a
    # second process skips the table construction (about 0.1 s of every load)
    try:
        return Lark(grammar, parser="lalr", lexer="contextual", propagate_positions=True,
                    maybe_placeholders=False, cache=True)
    except GrammarError as err:
        # two fragments at odds (one rule defined twice, a conflict the LALR tables cannot
        # resolve): the mechanics' authors need Lark's own words
        raise ValueError(f"the grammar of the installed mechanics does not build: {err}") from None


def _span(path: str, tok) -> Span:
    return Span(path, tok.line, tok.column, tok.end_column if tok.end_line == tok.line else tok.column + 1)


#: The escapes a quoted string may hold, and what each stands for.
_ESCAPES = {'"': '"', "\\": "\\"}


def _unquote(text: str) -> str | int:
    """The text of a quoted string, its escapes resolved; or, for an escape the language
    does not have, the offset of its backslash in ``text``."""
    out, k, body = [], 1, text
    while k < len(body) - 1:
        char = body[k]
        if char == "\\":
            if body[k + 1] not in _ESCAPES:
                return k
            out.append(_ESCAPES[body[k + 1]])
            k += 2
        else:
            out.append(char)
            k += 1
    return "".join(out)


@v_args(meta=True)
class _CoreTransformer(Transformer):
    """The leaves and the helper rules every fragment may use; the node classes' rules are
    added per language (:func:`_transformer`)."""

    def __init__(self, path: str, text: str):
        super().__init__(visit_tokens=True)
        self.path = path
        self.text = text

    def span(self, meta) -> Span:
        end = meta.end_column if meta.end_line == meta.line else meta.column + 1
        return Span(self.path, meta.line, meta.column, end)

    # --- terminals (called with the token alone) ------------------------------------------
    def INT(self, tok: Token) -> ast.Num:
        digits = len(tok) - tok.startswith("-")
        if digits > MAX_DIGITS:
            # refused before int() is asked (Python refuses over 4,300 digits, slowly)
            raise SpecSyntaxError(f"a number of {digits} digits is more than any count or points value may be "
                                  f"(docs/language.md, \"Limits\")", _span(self.path, tok),
                                  _line_at(self.text, tok.start_pos or 0))
        return ast.Num(int(tok), _span(self.path, tok))

    def WORD(self, tok: Token) -> ast.Name:
        return ast.Name(str(tok), _span(self.path, tok))

    def STRING(self, tok: Token) -> str:
        text = _unquote(str(tok))
        if isinstance(text, int):  # an escape the language does not have, at this offset
            escape = str(tok)[text:text + 2]
            at = _span(self.path, tok)
            span = Span(self.path, at.line, at.col + text, at.col + text + len(escape))
            raise SpecSyntaxError(f"unknown escape '{escape}' in a quoted string: the escapes are \\\" (a quote) "
                                  f"and \\\\ (a backslash)", span, _line_at(self.text, tok.start_pos or 0))
        return text

    # --- helper rules -----------------------------------------------------------------------
    def name(self, meta, children):
        if len(children) == 1 and isinstance(children[0], str):
            return ast.Name(children[0], self.span(meta))
        return ast.Name(" ".join(c.text for c in children), self.span(meta))

    def tiebreak_key(self, meta, children):
        return self.name(meta, children)

    def range(self, meta, children):
        return (children[0], children[-1])

    def place(self, meta, children):
        return ast.Place(children[0], children[1], self.span(meta))

    def entry_exact(self, meta, children):
        return ast.TableEntry(children[0], children[1], False)

    def entry_open(self, meta, children):
        return ast.TableEntry(children[0], children[1], True)

    def table(self, meta, children):
        return tuple(children)

    def returned_deck(self, meta, children):
        return "_".join(str(c) for c in children)

    def return_place(self, meta, children):
        return "_".join(str(c) for c in children)

    def start(self, meta, children):
        return tuple(children)


@functools.lru_cache(maxsize=8)
def _transformer(nodes: tuple[type[ast.Node], ...]) -> type[_CoreTransformer]:
    """The transformer class of a language: the core's callbacks, and one per node class,
    which builds the node from the rule's span and children."""
    def callback(cls: type[ast.Node]) -> Callable[[_CoreTransformer, Any, list[Any]], ast.Node]:
        def build(self: _CoreTransformer, meta: Any, children: list[Any]) -> ast.Node:
            return cls.parsed(self.span(meta), [str(c) if isinstance(c, Token) else c for c in children])
        build.__name__ = cls.rule
        return build
    made = type("SpecTransformer", (_CoreTransformer,), {cls.rule: callback(cls) for cls in nodes})
    return cast("type[_CoreTransformer]", v_args(meta=True)(made))  # v_args gives back the class it decorates


def _describe_expected(expected) -> str:
    words = sorted({_TERMINAL_WORDS.get(t, f"'{t.lower()}'" if t.isupper() and not t.startswith("_") else t)
                    for t in expected if t not in _UNNAMED and (not t.startswith("__ANON") or t in _TERMINAL_WORDS)})
    if not words:
        return ""
    if len(words) > 8:
        words = words[:8] + ["…"]
    return ", expected " + (words[0] if len(words) == 1 else "one of " + ", ".join(words))


# Characters that look like spec syntax but are not.
_CHAR_HINTS = {
    "\u2013": "an en dash: use a plain '-' with spaces around it",
    "\u2014": "an em dash: use a plain '-' with spaces around it",
    "\u2212": "a minus sign: use a plain '-'",
    "\u00a0": "a non-breaking space: use a plain space",
    "\u201c": "a curly quote: use a plain '\"'", "\u201d": "a curly quote: use a plain '\"'",
}
_HYPHENATED = re.compile(r"[^\W\d][\w.'’&]*(?:-[^\W\d][\w.'’&]*)+")
_STRIP_COMMENT = re.compile(r'("(?:[^"\\\n]|\\.)*")|#.*')


def _statement_at(line: str, col: int) -> tuple[str, int]:
    """The statement of ``line`` that column ``col`` falls in (its text from the last ';'
    before that column, comments dropped, leading blanks stripped) and its 1-based column."""
    code = _STRIP_COMMENT.sub(lambda m: m.group(1) or "", line)
    start = code.rfind(";", 0, max(0, col - 1)) + 1
    stmt = code[start:].lstrip()
    return stmt, len(code) - len(stmt) + 1


def _unknown_statement(language: Language, word: str) -> str:
    close = difflib.get_close_matches(word.lower(), language.statement_words, n=1, cutoff=0.6)
    if close and close[0] != word:
        return f"unknown statement {shown(word)!r} (did you mean '{close[0]}'?)"
    installed = ", ".join(language.owners) or "none"
    return (f"unknown statement {shown(word)!r}: neither the core language nor an installed mechanic has it "
            f"(installed: {installed}; `railspec mechanics` lists their statements)")


def _begins_with(words: str, tokens: list[str]) -> bool:
    """Whether ``tokens`` begin with a statement's ``words``, in which a word in capitals
    (``N``, ``S``) stands for any one token: ``tracks usable N of S`` begins
    ``tracks usable 1 of 3 for 2..2``."""
    wanted = words.split()
    return len(tokens) >= len(wanted) and all(
        want == token or (want.isalpha() and want.isupper()) for want, token in zip(wanted, tokens))


def _form_of(language: Language, stmt: str) -> str | None:
    """The written form of the statement ``stmt`` begins, by its longest known first words;
    when even its first word is no statement's whole words, every form that word begins."""
    words = stmt.split()
    found = None
    known = [key for key in language.forms if _begins_with(key, words)]
    if known:
        found = language.forms[max(known, key=lambda key: len(key.split()))]
    else:
        same = [form for key, form in language.forms.items() if words and key.split()[0] == words[0]]
        found = " | ".join(same) if same else None
    if found is None:
        return None
    return _PLACEHOLDER.sub(lambda m: _keywords(language.grammar, m.group(1)) if m.group(1) in _KEYWORD_POINTS
                            else m.group(0), found)


def _stray_semicolon(lines: list[str], line: int, col: int) -> tuple[int, int] | None:
    """Where the last thing before (line, col), blank and comment lines skipped, is a ';'
    (a ';' that ends a line, or a doubled ';;'), or None."""
    for n in range(line, 0, -1):
        text = lines[n - 1][: col - 1] if n == line else lines[n - 1]
        code = _STRIP_COMMENT.sub(lambda m: m.group(1) or "", text).rstrip()
        if code:
            return (n, len(code)) if code.endswith(";") else None
    return None


def _syntax_error(language: Language, path: str, text: str, err: UnexpectedInput) -> SpecSyntaxError:
    lines = [ln.rstrip("\r") for ln in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    line = max(1, getattr(err, "line", 1) or 1)
    col = max(1, getattr(err, "column", 1) or 1)
    if isinstance(err, UnexpectedToken) and err.token.type == "$END":
        line = len(lines) or 1
        col = len(lines[-1]) + 1 if lines else 1
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream if err.pos_in_stream is not None else len(text)  # the lexer always sets it
        char = text[pos] if pos < len(text) else "?"
        message = f"unexpected character {char!r}"
        before = text[pos - 1] if pos > 0 else ""
        if char.isdigit() and (before.isalpha() or before == "_"):
            message += ": put a space between a word and a number"
        width = 1
    elif isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "$END":
            message = "unexpected end of file"
            width = 1
        elif tok.type == "_NL":
            message = "unexpected end of line"
            width = 1
        else:
            message = f"unexpected {shown(str(tok))!r}"
            width = max(1, len(str(tok)))
        message += _describe_expected(err.accepts or err.expected)
    elif isinstance(err, UnexpectedEOF):
        message = "unexpected end of file" + _describe_expected(err.expected)
        width = 1
    else:  # pragma: no cover - Lark raises only the three kinds above
        message = "syntax error"
        width = 1
    message, line, col, width = _explain(language, lines, err, message, line, col, width)
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    return SpecSyntaxError(message, Span(path, line, col, col + width), source_line)


def _explain(language: Language, lines: list[str], err: UnexpectedInput, message: str, line: int, col: int,
             width: int):
    """Say what was probably meant, for the mistakes people make: returns the message and
    the position (line, col, width) it should point at."""
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    stmt, stmt_col = _statement_at(source_line, col)
    first = stmt.split()[0] if stmt.split() else ""
    expected = set(getattr(err, "accepts", None) or getattr(err, "expected", None) or ())
    if isinstance(err, UnexpectedCharacters):
        char = source_line[col - 1] if 0 < col <= len(source_line) else ""
        if char == '"':
            return ("unterminated string: a quoted name must end with '\"' on the same line",
                    line, col, max(1, len(source_line) - col + 1))
        if char in _CHAR_HINTS:
            return f"{message}: {_CHAR_HINTS[char]}", line, col, width
    if isinstance(err, UnexpectedToken) and err.token.type not in ("$END", "_NL") and 1 < col <= len(source_line) \
            and re.match(r"\w", source_line[col - 2]) and re.match(r"\w", source_line[col - 1]):
        # the lexer split a word after a keyword it starts with ('costing' read as 'cost' 'ing'):
        # name the whole word as written
        start = col - 1
        while start > 0 and re.match(r"\w", source_line[start - 1]):
            start -= 1
        end = col - 1
        while end < len(source_line) and re.match(r"[\w.'’&]", source_line[end]):
            end += 1
        word = source_line[start:end]
        if start + 1 == stmt_col:
            return _unknown_statement(language, word), line, start + 1, end - start
        message = f"unexpected {shown(word)!r}" + message[len(f"unexpected {shown(str(err.token))!r}"):]
        col, width = start + 1, end - start
    token = err.token if isinstance(err, UnexpectedToken) else None
    starts_statement = col == stmt_col and token is not None and token.type not in ("$END", "_NL")
    if starts_statement and expected <= {"SEMICOLON", "_NL", "$END"}:
        # "trains 12;" then a statement on the next line: the ';' expects one on its own line
        semi = _stray_semicolon(lines, line, col)
        if semi:
            return ("a ';' stands between two statements on one line, not at the end of a line "
                    "or twice: remove this ';'"), semi[0], semi[1], 1
    if starts_statement and "ROUTE" in expected and "CITY" in expected:
        # the first word of a statement is not one the language knows
        return _unknown_statement(language, str(token)), line, col, width
    if "MINUS" in expected and first in ("route", "ticket", "without"):
        # route Alpha-Beta 2 red: a dash between letters makes one name (Wilkes-Barre)
        joined = list(_HYPHENATED.finditer(stmt, 0, max(0, col - stmt_col)))
        if joined:
            m = joined[-1]
            what = "route" if first == "without" else first
            return (f"{shown(m.group(0))!r} is read as one name: write a {what} as 'A - B' with spaces "
                    f"around the dash", line, stmt_col + m.start(), len(m.group(0)))
    form = _form_of(language, stmt)
    if form and col > stmt_col:
        message += f"; the form is: {form}"
    return message, line, col, width


def parse(text: str, path: str, language: Language) -> ast.SpecFile:
    """Parse spec text in ``language`` into a :class:`SpecFile`; raise :class:`SpecSyntaxError`
    on bad syntax."""
    if text.startswith("\ufeff"):  # a byte-order mark some editors write: not part of the spec
        text = text[1:]
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = _parser(language.grammar).parse(text)
    except UnexpectedInput as err:
        raise _syntax_error(language, path, text, err) from None
    try:
        statements = _transformer(language.nodes)(path, text).transform(tree)
    except VisitError as err:  # a Transformer method's own SpecError, wrapped by Lark
        if isinstance(err.orig_exc, SpecError):
            raise err.orig_exc from None
        raise
    _check_statement_words(language, path, text, statements)
    return ast.SpecFile(path, text, statements)


_STATEMENT_WORD = re.compile(r"\w+")


def _line_at(text: str, pos: int) -> str:
    """The line of ``text`` holding offset ``pos`` (without its line end)."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start:end if end != -1 else len(text)].rstrip("\r")


def _check_statement_words(language: Language, path: str, text: str, statements) -> None:
    """Where a name cannot stand, the lexer takes a keyword out of the front of a longer
    word ('cityx Foo' would declare a city 'x Foo'): a statement's first word must be one
    of the language's, whole.

    The word is matched in place, at the statement's offset in ``text``: the work per
    statement does not grow with the length of its line (a spec may be one line of
    statements joined by ';')."""
    words = set(language.statement_words)
    line_starts = [0]
    line_starts.extend(m.end() for m in re.finditer("\n", text))
    for stmt in statements:
        if not 0 < stmt.span.line <= len(line_starts):
            continue
        offset = line_starts[stmt.span.line - 1] + stmt.span.col - 1
        m = _STATEMENT_WORD.match(text, offset)
        if m and m.group(0) not in words:
            word = m.group(0)
            raise SpecSyntaxError(_unknown_statement(language, word),
                                  Span(path, stmt.span.line, stmt.span.col, stmt.span.col + len(word)),
                                  _line_at(text, offset))
