"""Stage 1, parse: spec text to a :class:`~railspec.compiler.ast.SpecFile`.

The grammar (grammar.lark) is read with Lark's LALR parser and contextual lexer; a
Transformer turns the tree into AST dataclasses with their spans. Every syntax error is
reported as a located :class:`~railspec.errors.SpecSyntaxError`, never a Lark traceback.
"""
from __future__ import annotations

import difflib
import functools
import re
from importlib import resources

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from ..base.errors import Span, SpecError, SpecSyntaxError
from ..base.limits import MAX_DIGITS, shown
from . import ast

# How a terminal is named in an error message.
_TERMINAL_WORDS = {
    "INT": "a number", "WORD": "a name", "STRING": "a quoted string", "_NL": "end of line",
    "$END": "end of file", "MINUS": "'-'", "COLON": "':'", "COMMA": "','", "SEMICOLON": "';'",
    "PLUS": "'+'", "__ANON_0": "'<='", "__ANON_1": "'..'", "DOUBLE": "'double'", "LONG": "'long'",
}


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")
    # cache=True keeps the LALR tables in a temp file keyed by the grammar's hash, so a
    # second process skips the table construction (about 0.1 s of every load)
    return Lark(grammar, parser="lalr", lexer="contextual", propagate_positions=True,
                maybe_placeholders=False, cache=True)


def _span(path: str, tok) -> Span:
    return Span(path, tok.line, tok.column, tok.end_column if tok.end_line == tok.line else tok.column + 1)


def _unquote(text: str) -> str:
    body = text[1:-1]
    return body.replace('\\"', '"').replace("\\\\", "\\")


class _ToAst(Transformer):
    """Turns each grammar rule into its AST dataclass (one method per rule)."""

    def __init__(self, path: str, text: str):
        super().__init__(visit_tokens=False)
        self.path = path
        self.text = text

    # --- leaves -----------------------------------------------------------
    def _num(self, tok: Token) -> ast.Num:
        digits = len(tok) - tok.startswith("-")
        if digits > MAX_DIGITS:
            # refused before int() is asked (Python refuses over 4,300 digits, slowly)
            span = _span(self.path, tok)
            raise SpecSyntaxError(f"a number of {digits} digits is more than any count or points value may be "
                                  f"(docs/language.md, \"Limits\")", span, _line_at(self.text, tok.start_pos))
        return ast.Num(int(tok), _span(self.path, tok))

    def _meta_span(self, meta) -> Span:
        end = meta.end_column if meta.end_line == meta.line else meta.column + 1
        return Span(self.path, meta.line, meta.column, end)

    @v_args(meta=True)
    def name(self, meta, children):
        if len(children) == 1 and children[0].type == "STRING":
            text = _unquote(str(children[0]))
        else:
            text = " ".join(str(c) for c in children)
        return ast.Name(text, self._meta_span(meta))

    def _word(self, tok: Token) -> ast.Name:
        return ast.Name(str(tok), _span(self.path, tok))

    def range(self, children):
        nums = [self._num(c) for c in children]
        return (nums[0], nums[-1])

    # --- statements -------------------------------------------------------
    @v_args(meta=True)
    def variant(self, meta, c):
        return ast.VariantName(self._meta_span(meta), _unquote(str(c[0])))

    @v_args(meta=True)
    def extends(self, meta, c):
        return ast.Extends(self._meta_span(meta), _unquote(str(c[0])))

    @v_args(meta=True)
    def source(self, meta, c):
        return ast.Source(self._meta_span(meta), _unquote(str(c[0])))

    @v_args(meta=True)
    def provisional(self, meta, c):
        return ast.Provisional(self._meta_span(meta), _unquote(str(c[0])))

    @v_args(meta=True)
    def players(self, meta, c):
        low, high = c[0]
        return ast.Players(self._meta_span(meta), low, high)

    @v_args(meta=True)
    def trains(self, meta, c):
        return ast.Trains(self._meta_span(meta), self._num(c[0]))

    @v_args(meta=True)
    def hand(self, meta, c):
        return ast.Hand(self._meta_span(meta), self._num(c[0]))

    @v_args(meta=True)
    def stations(self, meta, c):
        return ast.Stations(self._meta_span(meta), self._num(c[0]), tuple(self._num(t) for t in c[1:]))

    @v_args(meta=True)
    def ferry_cards(self, meta, c):
        return ast.FerryCards(self._meta_span(meta), self._num(c[0]), self._num(c[1]))

    @v_args(meta=True)
    def card(self, meta, c):
        return ast.Card(self._meta_span(meta), self._word(c[0]), self._num(c[1]))

    @v_args(meta=True)
    def locomotives(self, meta, c):
        return ast.Locomotives(self._meta_span(meta), self._num(c[0]))

    @v_args(meta=True)
    def goods_cards(self, meta, c):
        return ast.GoodsCards(self._meta_span(meta), self._num(c[0]))

    @v_args(meta=True)
    def market(self, meta, c):
        nums = [self._num(t) for t in c]
        return ast.Market(self._meta_span(meta), nums[0], nums[1], nums[2] if len(nums) > 2 else None)

    @v_args(meta=True)
    def deal(self, meta, c):
        nums = [self._num(t) for t in c]
        if len(nums) == 3:
            return ast.Deal(self._meta_span(meta), nums[0], nums[1], nums[2])
        return ast.Deal(self._meta_span(meta), nums[0], None, nums[1])

    def place_bottom(self, _):
        return "bottom"

    def place_shuffled_bottom(self, _):
        return "shuffled_bottom"

    def place_removed(self, _):
        return "removed"

    @v_args(meta=True)
    def returned_tickets(self, meta, c):
        return ast.Returned(self._meta_span(meta), "tickets", c[0])

    @v_args(meta=True)
    def returned_long(self, meta, c):
        return ast.Returned(self._meta_span(meta), "long", c[0])

    @v_args(meta=True)
    def returned_setup(self, meta, c):
        return ast.Returned(self._meta_span(meta), "setup", c[0])

    def act_draw_cards(self, c):
        return ("draw_cards", tuple(self._num(t) for t in c))

    def act_claim_route(self, c):
        return ("claim_route", ())

    def act_draw_tickets(self, c):
        return ("draw_tickets", tuple(self._num(t) for t in c))

    def act_build_station(self, c):
        return ("build_station", ())

    def act_draw_ferry_card(self, c):
        return ("draw_ferry_card", ())

    @v_args(meta=True)
    def action(self, meta, c):
        kind, numbers = c[0]
        return ast.Action(self._meta_span(meta), kind, numbers)

    @v_args(meta=True)
    def tracks_usable(self, meta, c):
        low, high = c[1]
        return ast.TracksUsable(self._meta_span(meta), self._num(c[0]), low, high)

    @v_args(meta=True)
    def city(self, meta, c):
        return ast.City(self._meta_span(meta), c[0], c[1] if len(c) > 1 else None)

    @v_args(meta=True)
    def zone(self, meta, c):
        return ast.Zone(self._meta_span(meta), c[0], c[1] if len(c) > 1 else None)

    @v_args(meta=True)
    def place(self, meta, c):
        return ast.Place(self._num(c[0]), self._num(c[1]), self._meta_span(meta))

    @v_args(meta=True)
    def region(self, meta, c):
        double = any(isinstance(t, Token) and t.type == "DOUBLE" for t in c)
        names = [t for t in c if isinstance(t, ast.Name)]
        return ast.Region(self._meta_span(meta), names[0], double, tuple(names[1:]))

    @v_args(meta=True)
    def attr_tunnel(self, meta, c):
        return ("tunnel", True, self._meta_span(meta))

    @v_args(meta=True)
    def attr_ferry(self, meta, c):
        return ("ferry", self._num(c[0]), self._meta_span(meta))

    @v_args(meta=True)
    def attr_waves(self, meta, c):
        return ("waves", self._num(c[0]), self._meta_span(meta))

    @v_args(meta=True)
    def attr_goods(self, meta, c):
        return ("goods", True, self._meta_span(meta))

    @v_args(meta=True)
    def attr_shares(self, meta, c):
        return ("shares", tuple(c), self._meta_span(meta))

    @v_args(meta=True)
    def route(self, meta, c):
        a, b, length, colour = c[0], c[1], self._num(c[2]), self._word(c[3])
        attrs = {}
        spans = []
        for key, value, span in c[4:]:
            attrs[key] = value
            spans.append((key, span))
        return ast.Route(self._meta_span(meta), a, b, length, colour, attr_spans=tuple(spans), **attrs)

    @v_args(meta=True)
    def ticket(self, meta, c):
        long = any(isinstance(t, Token) and t.type == "LONG" for t in c)
        rest = [t for t in c if not (isinstance(t, Token) and t.type == "LONG")]
        return ast.Ticket(self._meta_span(meta), rest[0], rest[1], self._num(rest[2]), long)

    @v_args(meta=True)
    def without_route(self, meta, c):
        length = self._num(c[2]) if len(c) > 2 else None
        return ast.Without(self._meta_span(meta), "route", (c[0], c[1]), length)

    @v_args(meta=True)
    def without_ticket(self, meta, c):
        return ast.Without(self._meta_span(meta), "ticket", (c[0], c[1]))

    @v_args(meta=True)
    def without_city(self, meta, c):
        return ast.Without(self._meta_span(meta), "city", (c[0],))

    @v_args(meta=True)
    def end_when(self, meta, c):
        return ast.EndWhen(self._meta_span(meta), self._num(c[0]))

    def entry_exact(self, c):
        return ast.TableEntry(self._num(c[0]), self._num(c[1]), False)

    def entry_open(self, c):
        return ast.TableEntry(self._num(c[0]), self._num(c[1]), True)

    def table(self, c):
        return tuple(c)

    @v_args(meta=True)
    def route_points(self, meta, c):
        return ast.RoutePoints(self._meta_span(meta), c[0])

    @v_args(meta=True)
    def region_points(self, meta, c):
        return ast.RegionPoints(self._meta_span(meta), c[0])

    @v_args(meta=True)
    def longest_path(self, meta, c):
        return ast.LongestPath(self._meta_span(meta), self._num(c[0]))

    @v_args(meta=True)
    def station_bonus(self, meta, c):
        return ast.StationBonus(self._meta_span(meta), self._num(c[0]))

    @v_args(meta=True)
    def goods_ranking(self, meta, c):
        return ast.GoodsRanking(self._meta_span(meta), self._num(c[0]), tuple(self._num(t) for t in c[1:]))

    @v_args(meta=True)
    def company(self, meta, c):
        return ast.Company(self._meta_span(meta), c[0], self._num(c[1]), tuple(self._num(t) for t in c[2:]))

    @v_args(meta=True)
    def globetrotter(self, meta, c):
        return ast.Globetrotter(self._meta_span(meta), self._num(c[0]))

    @v_args(meta=True)
    def tunnel_reveal(self, meta, c):
        return ast.TunnelReveal(self._meta_span(meta), self._num(c[0]))

    @v_args(meta=True)
    def ferry_spent_return(self, meta, c):
        return ast.FerrySpent(self._meta_span(meta), "return")

    @v_args(meta=True)
    def ferry_spent_removed(self, meta, c):
        return ast.FerrySpent(self._meta_span(meta), "removed")

    def station_most_points(self, _):
        return "most_points"

    def station_most_tickets(self, _):
        return "most_tickets"

    @v_args(meta=True)
    def station_use(self, meta, c):
        return ast.StationUse(self._meta_span(meta), tuple(c))

    @v_args(meta=True)
    def goods_ties_share(self, meta, c):
        return ast.GoodsTies(self._meta_span(meta), "share")

    @v_args(meta=True)
    def goods_ties_split(self, meta, c):
        return ast.GoodsTies(self._meta_span(meta), "split")

    @v_args(meta=True)
    def goods_without_nothing(self, meta, c):
        return ast.GoodsWithout(self._meta_span(meta), "nothing")

    @v_args(meta=True)
    def goods_without_rank(self, meta, c):
        return ast.GoodsWithout(self._meta_span(meta), "rank")

    @v_args(meta=True)
    def share_ties_lowest(self, meta, c):
        return ast.ShareTies(self._meta_span(meta), "lowest_number")

    @v_args(meta=True)
    def share_ties_shared(self, meta, c):
        return ast.ShareTies(self._meta_span(meta), "shared")

    def neutral_from_route(self, _):
        return "route"

    def neutral_from_any(self, _):
        return "any"

    def round_up(self, _):
        return "up"

    def round_down(self, _):
        return "down"

    @v_args(meta=True)
    def neutral(self, meta, c):
        low, high = c[0]
        return ast.NeutralShareholder(self._meta_span(meta), low, high, c[1], c[2])

    @v_args(meta=True)
    def regions_per_network(self, meta, c):
        return ast.RegionScoring(self._meta_span(meta), "per_network")

    @v_args(meta=True)
    def regions_together(self, meta, c):
        return ast.RegionScoring(self._meta_span(meta), "together")

    @v_args(meta=True)
    def double_regions_every(self, meta, c):
        return ast.DoubleRegions(self._meta_span(meta), "every_city")

    @v_args(meta=True)
    def double_regions_one(self, meta, c):
        return ast.DoubleRegions(self._meta_span(meta), "one_city")

    @v_args(meta=True)
    def tiebreak(self, meta, c):
        return ast.Tiebreak(self._meta_span(meta), tuple(c))

    def start(self, c):
        return tuple(c)


def _describe_expected(expected) -> str:
    words = sorted({_TERMINAL_WORDS.get(t, f"'{t.lower()}'" if t.isupper() and not t.startswith("_") else t)
                    for t in expected if not t.startswith("__ANON") or t in _TERMINAL_WORDS})
    if not words:
        return ""
    if len(words) > 8:
        words = words[:8] + ["…"]
    return ", expected " + (words[0] if len(words) == 1 else "one of " + ", ".join(words))


# The statements, by their first word(s), and how each is written: a syntax error inside a
# statement ends with its form, so the message says what was expected in the spec's own terms.
_FORMS = {
    "variant": 'variant "NAME"', "extends": 'extends "NAME"', "source": 'source "TEXT"',
    "provisional": 'provisional "WHY"',
    "players": "players LOW..HIGH", "trains": "trains N", "hand": "hand N",
    "stations": "stations N cost C1 C2 …", "stations choose": "stations choose most points, most tickets",
    "ferry": "ferry cards N max M | ferry cards spent return|removed", "card": "card COLOUR N",
    "locomotives": "locomotives N", "goods cards": "goods cards N",
    "goods ranking": "goods ranking N players: P1 P2 …", "goods ties": "goods ties share|split",
    "goods without": "goods without cards score nothing | goods without cards rank",
    "tunnels": "tunnels reveal N", "share": "share ties lowest number | share ties shared",
    "neutral": "neutral shareholder for N players takes route companies|any company counts half rounded up|down",
    "regions": "regions scored per network | regions scored together",
    "double": "double regions need every city | double regions need one city",
    "market": "market N reset L locomotives", "deal": "deal tickets N [long L] keep K",
    "returned": "returned tickets|long|setup bottom|shuffled bottom|removed",
    "action": "action draw cards N | claim route | draw tickets N keep K | build station | draw ferry card",
    "tracks": "tracks usable N for LOW..HIGH players", "city": "city NAME", "zone": "zone NAME",
    "region points": "region points N:P N:P … N+:P", "region": "region NAME [double]: CITY, CITY, …",
    "route points": "route points LENGTH:POINTS …",
    "route": "route CITY - CITY LENGTH COLOUR [tunnel] [ferry N] [waves N] [goods] [shares COMPANY, …]",
    "ticket": "ticket [long] CITY - CITY POINTS",
    "without": "without route CITY - CITY [LENGTH] | without ticket CITY - CITY | without city NAME",
    "end": "end when trains <= N", "longest": "longest path N", "station": "station bonus N",
    "company": "company NAME shares N points P1 P2 …", "globetrotter": "globetrotter N",
    "tiebreak": "tiebreak KEY, KEY, … (e.g. most tickets, longest path)",
}
_STATEMENT_WORDS = sorted({key.split()[0] for key in _FORMS})
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


def _unknown_statement(word: str) -> str:
    close = difflib.get_close_matches(word.lower(), _STATEMENT_WORDS, n=1, cutoff=0.6)
    return f"unknown statement {shown(word)!r}" + (f" (did you mean '{close[0]}'?)" if close else "")


def _form_of(stmt: str) -> str | None:
    words = stmt.split()
    for n in (2, 1):
        key = " ".join(words[:n])
        if len(words) >= n and key in _FORMS:
            return _FORMS[key]
    return None


def _stray_semicolon(lines: list[str], line: int, col: int) -> tuple[int, int] | None:
    """Where the last thing before (line, col), blank and comment lines skipped, is a ';'
    (a ';' that ends a line, or a doubled ';;'), or None."""
    for n in range(line, 0, -1):
        text = lines[n - 1][: col - 1] if n == line else lines[n - 1]
        code = _STRIP_COMMENT.sub(lambda m: m.group(1) or "", text).rstrip()
        if code:
            return (n, len(code)) if code.endswith(";") else None
    return None


def _syntax_error(path: str, text: str, err: UnexpectedInput) -> SpecSyntaxError:
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
        char = text[err.pos_in_stream] if err.pos_in_stream < len(text) else "?"
        message = f"unexpected character {char!r}"
        before = text[err.pos_in_stream - 1] if err.pos_in_stream > 0 else ""
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
    message, line, col, width = _explain(lines, err, message, line, col, width)
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    return SpecSyntaxError(message, Span(path, line, col, col + width), source_line)


def _explain(lines: list[str], err: UnexpectedInput, message: str, line: int, col: int, width: int):
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
            return _unknown_statement(word), line, start + 1, end - start
        message = f"unexpected {shown(word)!r}" + message[len(f"unexpected {shown(str(err.token))!r}"):]
        col, width = start + 1, end - start
    starts_statement = col == stmt_col and isinstance(err, UnexpectedToken) \
        and err.token.type not in ("$END", "_NL")
    if starts_statement and expected <= {"SEMICOLON", "_NL", "$END"}:
        # "trains 12;" then a statement on the next line: the ';' expects one on its own line
        semi = _stray_semicolon(lines, line, col)
        if semi:
            return ("a ';' stands between two statements on one line, not at the end of a line "
                    "or twice: remove this ';'"), semi[0], semi[1], 1
    if starts_statement and "ROUTE" in expected and "CITY" in expected:
        # the first word of a statement is not one the language knows
        return _unknown_statement(str(err.token)), line, col, width
    if "MINUS" in expected and first in ("route", "ticket", "without"):
        # route Alpha-Beta 2 red: a dash between letters makes one name (Wilkes-Barre)
        joined = list(_HYPHENATED.finditer(stmt, 0, max(0, col - stmt_col)))
        if joined:
            m = joined[-1]
            what = "route" if first == "without" else first
            return (f"{shown(m.group(0))!r} is read as one name: write a {what} as 'A - B' with spaces "
                    f"around the dash", line, stmt_col + m.start(), len(m.group(0)))
    form = _form_of(stmt)
    if form and col > stmt_col:
        message += f"; the form is: {form}"
    return message, line, col, width


def parse(text: str, path: str = "<spec>") -> ast.SpecFile:
    """Parse spec text into a :class:`SpecFile`; raise :class:`SpecSyntaxError` on bad syntax."""
    if text.startswith("\ufeff"):  # a byte-order mark some editors write: not part of the spec
        text = text[1:]
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        raise _syntax_error(path, text, err) from None
    try:
        statements = _ToAst(path, text).transform(tree)
    except VisitError as err:  # a Transformer method's own SpecError, wrapped by Lark
        if isinstance(err.orig_exc, SpecError):
            raise err.orig_exc from None
        raise
    _check_statement_words(path, text, statements)
    return ast.SpecFile(path, text, statements)


_STATEMENT_WORD = re.compile(r"\w+")


def _line_at(text: str, pos: int) -> str:
    """The line of ``text`` holding offset ``pos`` (without its line end)."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start:end if end != -1 else len(text)].rstrip("\r")


def _check_statement_words(path: str, text: str, statements) -> None:
    """Where a name cannot stand, the lexer takes a keyword out of the front of a longer
    word ('cityx Foo' would declare a city 'x Foo'): a statement's first word must be one
    of the language's, whole.

    The word is matched in place, at the statement's offset in ``text``: the work per
    statement does not grow with the length of its line (a spec may be one line of
    statements joined by ';')."""
    line_starts = [0]
    line_starts.extend(m.end() for m in re.finditer("\n", text))
    for stmt in statements:
        if not 0 < stmt.span.line <= len(line_starts):
            continue
        offset = line_starts[stmt.span.line - 1] + stmt.span.col - 1
        m = _STATEMENT_WORD.match(text, offset)
        if m and m.group(0) not in _STATEMENT_WORDS:
            word = m.group(0)
            raise SpecSyntaxError(_unknown_statement(word),
                                  Span(path, stmt.span.line, stmt.span.col, stmt.span.col + len(word)),
                                  _line_at(text, offset))
