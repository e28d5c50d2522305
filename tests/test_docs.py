"""The documents that describe the code say what the code does."""
from __future__ import annotations

import re
from pathlib import Path

from railspec.compiler import docs
from railspec.compiler.base import schema
from railspec.compiler.mechanic import stock_registry

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
