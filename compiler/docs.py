"""The parts of docs/ that are made from the code, so that they cannot drift from it:
docs/engine.md's state table (from the state schema and the mechanics' fields). ``make
docs`` rewrites them; tests/test_docs.py compares them."""
from __future__ import annotations

from pathlib import Path

from .base.schema import CORE_FIELDS, Field, markdown_table
from .mechanic import Registry, default_registry


def documented_fields(registry: Registry) -> list[Field]:
    """The fields docs/engine.md lists: the core's, then those of every implemented
    mechanic of ``registry``, in registry order."""
    fields = list(CORE_FIELDS)
    for mechanic in registry:
        if mechanic.implemented:
            fields.extend(mechanic.state_fields)
    return fields


_TABLE_START = ("<!-- state table: generated from the state schema (compiler/schema.py markdown_table); "
                "a test compares -->\n")
_TABLE_END = "<!-- end of state table -->"


def documented_table(text: str) -> str:
    """The state table of a docs/engine.md text, as written there."""
    start = text.index(_TABLE_START) + len(_TABLE_START)
    return text[start:text.index(_TABLE_END, start)]


def rewrite_documented_table(text: str, registry: Registry) -> str:
    """docs/engine.md's text with its state table made from the schema."""
    start = text.index(_TABLE_START) + len(_TABLE_START)
    return text[:start] + markdown_table(documented_fields(registry)) + text[text.index(_TABLE_END, start):]



def rewrite(root: Path, registry: Registry) -> list[Path]:
    """Rewrite every generated part of the docs under ``root`` (the repository); return the
    files changed."""
    changed = []
    engine_md = root / "docs" / "engine.md"
    text = engine_md.read_text(encoding="utf-8")
    new = rewrite_documented_table(text, registry)
    if new != text:
        engine_md.write_text(new, encoding="utf-8")
        changed.append(engine_md)
    return changed


if __name__ == "__main__":
    for path in rewrite(Path.cwd(), default_registry()):
        print(f"wrote {path}")
