"""The editors' syntax grammar (editors/railspec.tmLanguage.json, made by
railspec.tools.textmate) and editors/language-configuration.json: the committed grammar is
what the generator makes now, it has the TextMate structure, and, read the way a TextMate
engine reads it (here with Python's re, which these patterns keep to), it gives a spec's
comments, strings, numbers, keywords, tie-break keys and colours their scopes, every
mechanic's keywords included."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from railspec.compiler.mechanic import default_registry, stock_registry
from railspec.tools import textmate

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "editors" / "railspec.tmLanguage.json"


def test_the_committed_grammar_is_what_the_generator_makes_now():
    assert GRAMMAR.read_text(encoding="utf-8") == textmate.render(), \
        "stale: make it again with python -m railspec.tools.textmate --out editors/railspec.tmLanguage.json"


def test_it_has_the_textmate_structure():
    data = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    assert data["scopeName"] == "source.railspec" and data["fileTypes"] == ["rail"]
    assert isinstance(data["patterns"], list) and isinstance(data["repository"], dict)
    for include in data["patterns"]:
        assert include["include"].startswith("#") and include["include"][1:] in data["repository"]
    for rule in data["repository"].values():
        assert ("match" in rule) != ("begin" in rule and "end" in rule)
        assert all(name.endswith(".railspec") for name in _names(rule))
        for key in ("match", "begin", "end"):
            if key in rule:
                re.compile(rule[key])


def _names(rule: dict):
    for key, value in rule.items():
        if key == "name":
            yield value
        elif isinstance(value, dict):
            yield from _names(value)
        elif isinstance(value, list):
            for item in value:
                yield from _names(item)


def test_the_language_configuration():
    data = json.loads((ROOT / "editors" / "language-configuration.json").read_text(encoding="utf-8"))
    assert data["comments"] == {"lineComment": "#"}
    assert {"open": '"', "close": '"', "notIn": ["string", "comment"]} in data["autoClosingPairs"]
    words = re.compile(data["wordPattern"])
    assert words.findall('route Wilkes-Barre - "São Paulo" 2..5 St. Gallen:5') == \
        ["route", "Wilkes-Barre", "São", "Paulo", "2", "5", "St.", "Gallen", "5"]


def scopes(line: str, data: dict | None = None) -> list[tuple[str, str]]:
    """(text, scope) for each piece of ``line`` a rule matches, as a TextMate engine scans:
    at each position the earliest match of the top-level rules wins, the first rule on a
    tie; a begin/end rule runs to its end."""
    data = data or json.loads(GRAMMAR.read_text(encoding="utf-8"))
    rules = [data["repository"][p["include"][1:]] for p in data["patterns"]]
    out, pos = [], 0
    while pos < len(line):
        found = [(m.start(), i, m) for i, rule in enumerate(rules)
                 if (m := re.compile(rule.get("match") or rule["begin"]).search(line, pos))]
        if not found:
            break
        _, i, m = min(found, key=lambda f: (f[0], f[1]))
        rule = rules[i]
        if "begin" in rule:
            end = re.compile(rule["end"]).search(line, m.end())
            out.append((line[m.start():end.end()], rule["name"]))
            pos = end.end()
            continue
        if "captures" in rule and "name" not in rule:
            out.append((m.group(1), rule["captures"]["1"]["name"]))
        else:
            out.append((m.group(0), rule["name"]))
        pos = max(m.end(), pos + 1)
    return [(text.strip(), scope.split(".")[0] + "." + scope.split(".")[1]) for text, scope in out]


def test_a_route_line_is_highlighted():
    assert scopes("route Wilkes-Barre - Long Island 3 red tunnel   # the second track") == [
        ("route", "keyword.control"), ("-", "keyword.operator"), ("3", "constant.numeric"),
        ("red", "support.constant"), ("tunnel", "keyword.other"), ("# the second track", "comment.line")]


def test_names_are_not_keywords_and_quoted_text_is_a_string():
    assert scopes('city "Fort tunnel" at 10 -20; city Chaux-de-Fonds') == [
        ("city", "keyword.control"), ('"Fort tunnel"', "string.quoted"), ("at", "keyword.other"),
        ("10", "constant.numeric"), ("-20", "constant.numeric"), (";", "punctuation.separator"),
        ("city", "keyword.control")]
    assert scopes('variant "Bad \\q"') == [("variant", "keyword.control"), ('"Bad \\q"', "string.quoted")]


def test_tables_tiebreak_keys_and_several_destinations():
    assert scopes("route points 1:1 15+:40") == [
        ("route", "keyword.control"), ("points", "keyword.other"), ("1", "constant.numeric"),
        (":", "keyword.operator"), ("1", "constant.numeric"), ("15", "constant.numeric"), ("+", "keyword.operator"),
        (":", "keyword.operator"), ("40", "constant.numeric")]
    assert scopes("tiebreak most tickets, longest path") == [
        ("tiebreak", "keyword.control"), ("most tickets", "constant.language"), (",", "punctuation.separator"),
        ("longest path", "constant.language")]


@pytest.mark.parametrize("registry", [stock_registry(), default_registry()], ids=["stock", "installed"])
def test_every_mechanic_s_keywords_are_highlighted(registry):
    # each word a mechanic's grammar fragment spells out, wherever it stands in a line
    data = textmate.grammar(registry)
    for mechanic in registry:
        for word in set(re.findall(r'"([^\W\d_]+)"', mechanic.grammar())):
            assert (word, "keyword.other") in scopes(f"x {word} 1", data) or \
                scopes(f"{word} 1", data)[0] == (word, "keyword.control"), (mechanic.name, word)
    for statement in registry.language.statement_words:
        assert scopes(f"  {statement} 1", data)[0] == (statement, "keyword.control")
