"""The TextMate grammar editors highlight specs with (editors/railspec.tmLanguage.json, for
VS Code and the editors that read TextMate grammars), made from the language itself:

    python -m railspec.tools.textmate [--installed] [--out FILE]

The keywords are the grammar's: every word the core grammar (compiler/lang/grammar.lark)
and each mechanic's fragment spell out, so a new mechanic's keywords are highlighted once
the file is made again; a statement's first word is marked apart from the others. The
tie-break keys are the registry's, and the colour names are the known words: the card and
route colours of the stock specs and the core's two words for any colour. Comments, quoted
names (with their two escapes) and numbers have their scopes too.

The committed file is made from railspec's own mechanics (the stock registry), so it does
not depend on what else is installed; ``--installed`` makes one with every installed
mechanic (an outside mechanic's keywords too). A test compares the committed file with
what this module makes now, so it never goes stale.
"""
from __future__ import annotations

import argparse
import json
import re
import sys

from lark import Lark
from lark.lexer import PatternStr

from .. import compiler
from ..compiler.lang import ast
from ..compiler.mechanic import Registry, default_registry, stock_registry

SCOPE = "source.railspec"
#: The core's words for a route of any one colour (docs/language.md, "Lexical rules").
ANY_COLOUR = ("gray", "grey")
#: What may not touch a keyword for it to be one: the characters of a bare name (a hyphen
#: joins the words of Wilkes-Barre), as the grammar's WORD spells them.
_BEFORE = r"(?<![\w.'’&-])"
_AFTER = r"(?![\w.'’&]|-[^\W\d])"


def keywords(registry: Registry) -> list[str]:
    """Every word the grammar of ``registry``'s language spells out (its keywords)."""
    lark = Lark(registry.language.grammar, parser="lalr", lexer="contextual")
    return sorted({t.pattern.value for t in lark.terminals
                   if isinstance(t.pattern, PatternStr) and re.fullmatch(r"[^\W\d_]+", t.pattern.value)})


def colours(registry: Registry) -> list[str]:
    """The colour names known without reading a user's spec: the stock specs' card and
    route colours, and the core's words for any colour."""
    found = set(ANY_COLOUR)
    for name in compiler.stock_names():
        spec = compiler.parse(compiler.read_spec_text(compiler.stock_path(name)), f"{name}.rail", registry)
        for stmt in spec.statements:
            if isinstance(stmt, ast.Card | ast.Route):
                found.add(stmt.colour.text)
    return sorted(found)


def _words(words) -> str:
    # longest first, so that an alternative never stops at a shorter word it begins with
    return "|".join(r"\s+".join(re.escape(w) for w in phrase.split())
                    for phrase in sorted(words, key=lambda p: (-len(p), p)))


def grammar(registry: Registry | None = None) -> dict:
    """The TextMate grammar of ``registry``'s language (railspec's own mechanics by default)."""
    registry = registry or stock_registry()
    words = keywords(registry)
    statement = registry.language.statement_words
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "railspec",
        "scopeName": SCOPE,
        "fileTypes": ["rail"],
        "comment": "Made by `python -m railspec.tools.textmate` from railspec's grammar and its mechanics' "
                   "fragments; do not edit (tests/test_textmate.py compares).",
        "patterns": [{"include": f"#{name}"} for name in
                     ("comment", "string", "statement", "tiebreak-key", "keyword", "colour", "number", "operator",
                      "punctuation")],
        "repository": {
            "comment": {"name": "comment.line.number-sign.railspec", "match": "(#).*$",
                        "captures": {"1": {"name": "punctuation.definition.comment.railspec"}}},
            "string": {"name": "string.quoted.double.railspec", "begin": '"', "end": '"|$',
                       "beginCaptures": {"0": {"name": "punctuation.definition.string.begin.railspec"}},
                       "endCaptures": {"0": {"name": "punctuation.definition.string.end.railspec"}},
                       "patterns": [{"name": "constant.character.escape.railspec", "match": r'\\["\\]'},
                                    {"name": "invalid.illegal.unknown-escape.railspec", "match": r"\\."}]},
            "statement": {"match": rf"(?:^|(?<=;))[ \t\f]*({_words(statement)}){_AFTER}",
                          "captures": {"1": {"name": "keyword.control.statement.railspec"}}},
            "tiebreak-key": {"name": "constant.language.tiebreak.railspec",
                             "match": f"{_BEFORE}(?:{_words(registry.tiebreak_words())}){_AFTER}"},
            "keyword": {"name": "keyword.other.railspec", "match": f"{_BEFORE}(?:{_words(words)}){_AFTER}"},
            "colour": {"name": "support.constant.color.railspec",
                       "match": f"{_BEFORE}(?:{_words(colours(registry))}){_AFTER}"},
            "number": {"name": "constant.numeric.integer.railspec", "match": r"(?<![\w.'’&])-?\d+"},
            "operator": {"name": "keyword.operator.railspec", "match": r"\.\.|<=|\+|:|\||(?<![\w.'’&])-(?!\w)"},
            "punctuation": {"name": "punctuation.separator.railspec", "match": "[,;]"},
        },
    }


def render(registry: Registry | None = None) -> str:
    """:func:`grammar` as the committed file's text."""
    return json.dumps(grammar(registry), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the grammar to ``--out`` (standard output by default)."""
    parser = argparse.ArgumentParser(prog="python -m railspec.tools.textmate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--installed", action="store_true",
                        help="every installed mechanic's keywords, not only railspec's own")
    parser.add_argument("--out", help="the file to write (default: standard output)")
    args = parser.parse_args(argv)
    text = render(default_registry() if args.installed else None)
    if args.out:
        with open(args.out, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
