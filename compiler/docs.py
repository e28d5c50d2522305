"""The parts of docs/ that are made from the code, so that they cannot drift from it:
docs/engine.md's state table (from the state schema and the mechanics' fields) and
docs/language.md's limits table (the core's bounds and each mechanic's). ``make docs``
rewrites them; tests/test_docs.py and tests/test_spec_bounds.py compare them."""
from __future__ import annotations

from pathlib import Path

from .base.limits import LIMITS
from .base.schema import CORE_FIELDS, Field, markdown_table
from .mechanic import Registry, stock_registry


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



def limits_table(registry: Registry) -> str:
    """The limits table of docs/language.md: the core's bounds, then each mechanic's."""
    rows = ["| what | allowed | why |", "|---|---|---|"]
    limits = list(LIMITS) + [limit for mechanic in registry for limit in mechanic.limits]
    rows += [f"| {limit.what} | {limit.range} | {limit.why} |" for limit in limits]
    return "\n".join(rows) + "\n"


_LIMITS_START = "<!-- the table below is made by compiler/docs.py (limits_table); a test compares -->\n"


def rewrite_limits_table(text: str, registry: Registry) -> str:
    """docs/language.md's text with its limits table made from the core's bounds and the
    mechanics'."""
    start = text.index(_LIMITS_START) + len(_LIMITS_START)
    end = start
    while text.startswith("|", end):
        end = text.index("\n", end) + 1
    return text[:start] + limits_table(registry) + text[end:]


def rewrite(root: Path, registry: Registry) -> list[Path]:
    """Rewrite every generated part of the docs under ``root`` (the repository); return the
    files changed."""
    changed = []
    for name, rewrite_text in (("engine.md", rewrite_documented_table), ("language.md", rewrite_limits_table)):
        path = root / "docs" / name
        text = path.read_text(encoding="utf-8")
        new = rewrite_text(text, registry)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


if __name__ == "__main__":
    for path in rewrite(Path.cwd(), stock_registry()):
        print(f"wrote {path}")
