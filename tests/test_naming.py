"""Tools ask, never name: no code outside a mechanic's folder names a concrete mechanic or
what it owns.

For every installed mechanic (the stock ones, the postcards of tests/outside_mechanic and
the inspector of tests/hooks_mechanic), the names it declares (its own name, its state
fields, score items, action kinds, phases, payment columns, queries, position keys and
tie-break keys) must not appear as code in the core and the tools: compiler/, engine/,
fuzz/, bench/ and setup.py. Comments and docstrings may name them (a docstring explains
with examples); identifiers and string literals may not. What a tool needs of a mechanic it
gets from the registry (``Mechanic.queries``, ``looks``, ``agent_play``, ``sample``,
``ScoreItem.owner`` …).
"""
from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest
from hooks_mechanic import Inspector

from railspec.compiler.mechanic import DescribedPositions, Payments, Questions, default_registry, part

ROOT = Path(__file__).resolve().parent.parent
#: The core and the tools.
SCANNED = ("compiler", "engine", "fuzz", "bench", "setup.py")
#: Files allowed to name a mechanic's query, and why.
EXEMPT = {
    "bench/side_by_side.py": "compares this install with older ones through the API both have, by name "
                             "(older installs have no Mechanic.queries)",
}
#: Names too common to be a mechanic's own: none today.
COMMON: frozenset[str] = frozenset()
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def owned_names(mechanics) -> dict[str, str]:
    """Each name a mechanic declares, with the mechanic's name."""
    out = {}
    for m in mechanics:
        names = {m.name} | {f.name for f in m.state_fields} | set(m.kinds) | set(m.phases)
        names |= {i.name for i in m.score_items} | {c.name for c in part(m, Payments).payment_columns}
        names |= {q.name for q in part(m, Questions).queries} | {t.name for t in m.tiebreaks}
        names |= {k.name for k in part(m, DescribedPositions).position_keys}
        out.update({name: m.name for name in names if _WORD.fullmatch(name) and name not in COMMON})
    return out


def code_words(path: Path):
    """(line, word) for each identifier and each word of a string literal in ``path``,
    comments and docstrings left out. Python is read with its tokenizer; templates, Cython,
    C and grammars have their comments and triple-quoted strings blanked first."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
        for i, tok in enumerate(tokens):
            if tok.type == tokenize.NAME:
                yield tok.start[0], tok.string
            elif tok.type == tokenize.STRING:
                alone = (i == 0 or tokens[i - 1].type in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT,
                                                          tokenize.DEDENT))
                if alone and tokens[i + 1].type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                    continue  # a docstring
                for word in _WORD.findall(tok.string):
                    yield tok.start[0], word
        return
    text = re.sub(r'"""(?:.|\n)*?"""|/\*(?:.|\n)*?\*/|\{#(?:.|\n)*?#\}',
                  lambda m: "\n" * m.group(0).count("\n"), text)
    text = re.sub(r"(?m)#.*$|//.*$", "", text)
    for number, line in enumerate(text.splitlines(), 1):
        for word in _WORD.findall(line):
            yield number, word


def scanned_files():
    for entry in SCANNED:
        path = ROOT / entry
        files = [path] if path.is_file() else sorted(path.rglob("*"))
        for file in files:
            if file.suffix in (".py", ".pyx", ".pxd", ".j2", ".h", ".lark") and "__pycache__" not in file.parts:
                yield file


def test_no_core_or_tool_code_names_a_mechanic():
    mechanics = list(default_registry()) + [Inspector()]
    assert {"postcards", "inspector", "tunnels", "stations"} <= {m.name for m in mechanics}
    owned = owned_names(mechanics)
    found = []
    for file in scanned_files():
        where = file.relative_to(ROOT).as_posix()
        if where in EXEMPT:
            continue
        found += [f"{where}:{line}: {word} ({owned[word]})" for line, word in code_words(file) if word in owned]
    assert not found, "code outside the mechanics names them:\n" + "\n".join(found[:40])


@pytest.mark.parametrize("source, named", [
    ('x = state["station_owner"]\n', True),
    ("from railspec.mechanics.tunnels import PH_TUNNEL\n", True),
    ('def f():\n    """Stations and tunnels: station_owner."""\n    return 1  # tunnel_route\n', False),
])
def test_the_scan_finds_a_name_in_code_and_not_in_prose(tmp_path, source, named):
    path = tmp_path / "sample.py"
    path.write_text(source, encoding="utf-8")
    owned = owned_names(default_registry())
    assert any(word in owned for _, word in code_words(path)) is named


def test_the_scan_reads_templates_without_their_comments(tmp_path):
    path = tmp_path / "sample.pyx.j2"
    path.write_text('# tunnel_route\ncdef int f():\n    """station_owner"""\n    return s.tunnel_route\n',
                    encoding="utf-8")
    assert [w for _, w in code_words(path) if w in owned_names(default_registry())] == ["tunnel_route"]
