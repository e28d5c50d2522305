"""The documents that describe the code say what the code does."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from railspec.compiler import docs
from railspec.compiler.base import schema
from railspec.compiler.lang import ast
from railspec.compiler.mechanic import CAPABILITIES, Mechanic, stock_registry

ROOT = Path(__file__).resolve().parent.parent


def test_the_state_table_of_engine_md_is_the_schema():
    """docs/engine.md lists the state fields the schema defines, in key order, with their
    shapes, bounds, owners and visibility (rewrite it with `make docs`)."""
    written = docs.documented_table((ROOT / "docs" / "engine.md").read_text(encoding="utf-8"))
    assert written == schema.markdown_table(docs.documented_fields(stock_registry())), \
        "docs/engine.md's state table differs from the state schema: run `make docs` and commit"


def test_the_state_table_is_the_key_order_of_a_state(usa):
    """A state's keys are the documented ones of the core and of the variant's mechanics,
    in the table's order."""
    owners = {"core"} | set(usa.ir.mechanics)
    documented = [f.name for f in schema.exported(docs.documented_fields(usa.registry)) if f.owner in owners]
    state = usa.new_game(players=2, seed=1).state()
    assert list(state)[len(schema.HEADER_KEYS):] == documented


# Where a developer's machine keeps its files: a path under one of these in a document is
# output copied from someone's run, which no reader will see.
_MACHINE_PATH = re.compile(r"(?<![\w.~-])(?:/(?:work|home|tmp|Users|root|private/var|var/folders|mnt/[a-z])/"
                           r"|[A-Za-z]:\\(?:Users|work|tmp)\\)")


def test_no_document_holds_a_path_of_a_developers_machine():
    """Examples show what any user sees: relative file names, never the absolute paths of
    the machine they were produced on (docs/language.md's error examples once did)."""
    found = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for number, line in enumerate(doc.read_text(encoding="utf-8").split("\n"), 1):
            for _m in _MACHINE_PATH.finditer(line):
                found.append(f"{doc.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "absolute paths of a machine in the docs:\n" + "\n".join(found)


def test_the_machine_path_pattern_finds_what_it_should():
    for text in ("/work/main/.venv/bin/python", "/tmp/langdoc/bad1.rail:10:7", "/home/ada/x.rail",
                 "/Users/ada/maps/x.rail", r"C:\Users\ada\x.rail", "(/tmp/x)"):
        assert _MACHINE_PATH.search(text), text
    for text in ("spec/usa.rail", "docs/language.md", "/dev/zero", "/etc/passwd", "bad1.rail:10:7",
                 "a/tmp/b", "~/work/x"):
        assert not _MACHINE_PATH.search(text), text


@pytest.mark.parametrize("name, rewrite", docs.PARTS, ids=lambda p: getattr(p, "__name__", p))
def test_each_generated_part_of_the_docs_is_current(name, rewrite):
    """The state table, the limits table, the statements by mechanic and the hook table are
    what compiler/docs.py makes from the code (`make docs` rewrites them)."""
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    assert rewrite(text, stock_registry()) == text, f"docs/{name} is out of date: run `make docs` and commit"


def _prose(name: str) -> str:
    """A document without its generated statements table (the prose must say it too)."""
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    return text.replace(docs.between(text, docs.STATEMENTS_START, docs.STATEMENTS_END), "")


@pytest.mark.parametrize("mechanic", list(stock_registry()), ids=lambda m: m.name)
def test_language_md_explains_every_part_of_a_mechanics_language(mechanic):
    """docs/language.md's sections are checked against the mechanics' own statements: each
    statement's words, each route attribute, action, ticket form and deal part a mechanic
    adds begins a piece of code in the prose."""
    prose = _prose("language.md")
    for node in mechanic.statements:
        if issubclass(node, ast.Stmt):
            wanted = node.words
        elif issubclass(node, ast.RouteAttr):
            wanted = node.name
        elif issubclass(node, ast.ActionKind):
            wanted = f"action {node.form}"
        elif issubclass(node, (ast.DealPart, ast.EndPart)):  # inside the deal or the end statement:
            # `deal tickets N [long L] keep K`, `end when trains <= N [and bullet trains <= N]`
            assert node.form in prose, f"docs/language.md does not explain {mechanic.name}'s {node.form!r}"
            continue
        else:  # a ticket form: its words before the cities
            wanted = node.form.split(" CITY")[0]
        assert f"`{wanted}" in prose, f"docs/language.md does not explain {mechanic.name}'s {wanted!r}"


def test_architecture_md_lists_every_part_a_mechanic_declares():
    """The tables of "A mechanic's contract" name every public part of ``Mechanic`` and
    every capability with each of its members (a part added to the contract is documented
    where authors look)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    core = text[text.index("| part | what |"):text.index("| capability | its members | what |")]
    parts = [name for name in vars(Mechanic) if not name.startswith("_")]
    parts += ["name", "title", "rule"]
    internal = {"filled_hooks", "scoring_hooks", "folder", "written_forms", "documentation", "grammar",
                "template_dir"}
    missing = [p for p in parts if p not in internal and f"`{p}" not in core]
    assert not missing, f"docs/architecture.md's parts table lacks {missing}"
    table = text[text.index("| capability | its members | what |"):text.index("A capability is checked")]
    rows = {line.split("|")[1].strip(" `"): line for line in table.splitlines()[2:] if line.startswith("|")}
    assert set(rows) == {c.__name__ for c in CAPABILITIES}
    for capability in CAPABILITIES:
        missing = [m for m in capability.members() if f"`{m}" not in rows[capability.__name__]]
        assert not missing, f"docs/architecture.md's row of {capability.__name__} lacks {missing}"


def test_the_names_a_compiled_template_may_use_are_in_every_module():
    """docs/architecture.md "What a compiled template may use": each name it lists (not
    its placeholders, in capitals like FIELD) is defined in an emitted module."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text[text.index("### What a compiled template may use"):text.index("### A hook's arguments")]
    placeholders = {"FIELD", "FIELD_n", "PH_NAME", "B_ITEM", "State", "Tables", "ScoreItem"}
    placeholders |= {"c_name", "dimensions", "score_graph", "score_player", "score_awards"}  # the prose's parts
    source = (ROOT / "generated" / "usa.pyx").read_text(encoding="utf-8")
    listed = set(re.findall(r"`(?:s\.)?([A-Za-z_][A-Za-z0-9_]*)`", table)) - placeholders
    assert len(listed) > 40
    missing = sorted(name for name in listed if not re.search(rf"\b{name}\b", source))
    assert not missing, f"docs/architecture.md lists names generated/usa.pyx does not define: {missing}"


_TOP = ("engine", "compiler", "mechanics", "generated", "spec", "tests", "bench", "fuzz", "docs", "examples")
_REPO_PATH = re.compile(r"(?<![\w./-])((?:" + "|".join(_TOP) + r")/[\w./-]*[\w])")
_MODULE = re.compile(r"(?<![\w./-])(railspec(?:\.[a-z_][a-z0-9_]*)+)")


def _documents():
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "examples").glob("*.py"))]


def test_every_file_a_document_names_exists():
    """A path into the repository in README.md, docs/ or examples/ names a file or folder
    that is there (the layout moved once; the documents followed)."""
    missing = []
    for doc in _documents():
        for number, line in enumerate(doc.read_text(encoding="utf-8").split("\n"), 1):
            for path in _REPO_PATH.findall(line):
                if any(c in path for c in "<*{") or (ROOT / path).exists():
                    continue
                missing.append(f"{doc.relative_to(ROOT)}:{number}: {path}")
    assert not missing, "documents name files that are not there:\n" + "\n".join(missing)


def test_every_module_a_document_names_imports():
    """``railspec.x.y`` in a document is a module of railspec, or an attribute of one."""
    missing = set()
    for doc in _documents():
        for name in set(_MODULE.findall(doc.read_text(encoding="utf-8"))):
            parts = name.split(".")
            for cut in range(len(parts), 0, -1):
                try:
                    found = importlib.import_module(".".join(parts[:cut]))
                except ImportError:
                    continue
                try:
                    for attribute in parts[cut:]:
                        found = getattr(found, attribute)
                except AttributeError:
                    missing.add(f"{doc.relative_to(ROOT)}: {name}")
                break
    assert not missing, "documents name modules that do not import:\n" + "\n".join(sorted(missing))


_READING = re.compile(r"^\| (\d+) \|", re.M)
_CITATION = re.compile(r"rules\.md\s+#(\d+)")


def test_every_reading_in_rules_md_has_a_test_that_cites_it():
    """Each decision docs/rules.md records is pinned by a test that names it
    (``docs/rules.md #N`` in the test's docstring or a comment), in tests/ or beside a
    mechanic (mechanics/NAME/tests/)."""
    readings = {int(n) for n in _READING.findall((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))}
    cited = set()
    for test in [*(ROOT / "tests").rglob("*.py"), *(ROOT / "mechanics").glob("*/tests/*.py")]:
        cited |= {int(n) for n in _CITATION.findall(test.read_text(encoding="utf-8"))}
    assert len(readings) >= 29
    missing = sorted(readings - cited)
    assert not missing, f"readings of docs/rules.md no test cites (write 'docs/rules.md #N'): {missing}"
