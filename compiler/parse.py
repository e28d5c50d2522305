"""Stage 1, parse: spec text to a :class:`~railspec.compiler.ast.SpecFile`.

The grammar (grammar.lark) is read with Lark's LALR parser and contextual lexer; a
Transformer turns the tree into AST dataclasses with their spans. Every syntax error is
reported as a located :class:`~railspec.errors.SpecSyntaxError`, never a Lark traceback.
"""
from __future__ import annotations

import functools
from importlib import resources

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import Span, SpecSyntaxError
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
    return Lark(grammar, parser="lalr", lexer="contextual", propagate_positions=True,
                maybe_placeholders=False)


def _span(path: str, tok) -> Span:
    return Span(path, tok.line, tok.column, tok.end_column if tok.end_line == tok.line else tok.column + 1)


def _unquote(text: str) -> str:
    body = text[1:-1]
    return body.replace('\\"', '"').replace("\\\\", "\\")


class _ToAst(Transformer):
    """Turns each grammar rule into its AST dataclass (one method per rule)."""

    def __init__(self, path: str):
        super().__init__(visit_tokens=False)
        self.path = path

    # --- leaves -----------------------------------------------------------
    def _num(self, tok: Token) -> ast.Num:
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
        return ast.Market(self._meta_span(meta), *(self._num(t) for t in c))

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
        return ast.City(self._meta_span(meta), c[0])

    @v_args(meta=True)
    def zone(self, meta, c):
        return ast.Zone(self._meta_span(meta), c[0])

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

    def tb_tickets(self, _):
        return "most_tickets"

    def tb_longest_path(self, _):
        return "longest_path"

    def tb_fewest_stations(self, _):
        return "fewest_stations"

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


def _syntax_error(path: str, text: str, err: UnexpectedInput) -> SpecSyntaxError:
    lines = text.splitlines()
    line = max(1, getattr(err, "line", 1) or 1)
    col = max(1, getattr(err, "column", 1) or 1)
    if isinstance(err, UnexpectedToken) and err.token.type == "$END":
        line = len(lines) or 1
        col = len(lines[-1]) + 1 if lines else 1
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    if isinstance(err, UnexpectedCharacters):
        char = text[err.pos_in_stream] if err.pos_in_stream < len(text) else "?"
        message = f"unexpected character {char!r}"
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
            message = f"unexpected {str(tok)!r}"
            width = max(1, len(str(tok)))
        message += _describe_expected(err.accepts or err.expected)
    elif isinstance(err, UnexpectedEOF):
        message = "unexpected end of file" + _describe_expected(err.expected)
        width = 1
    else:  # pragma: no cover - Lark raises only the three kinds above
        message = "syntax error"
        width = 1
    return SpecSyntaxError(message, Span(path, line, col, col + width), source_line)


def parse(text: str, path: str = "<spec>") -> ast.SpecFile:
    """Parse spec text into a :class:`SpecFile`; raise :class:`SpecSyntaxError` on bad syntax."""
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        raise _syntax_error(path, text, err) from None
    return ast.SpecFile(path, text, _ToAst(path).transform(tree))
