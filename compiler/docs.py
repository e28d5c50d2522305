"""The parts of docs/ that are made from the code, so that they cannot drift from it:
docs/engine.md's state table (from the state schema and the mechanics' fields),
docs/language.md's limits table (the core's bounds and each mechanic's) and its table of
the statements each mechanic adds, docs/architecture.md's hook table (compiler/hooks.py),
and docs/formats.md's table of each stock map's score breakdown.
``make docs`` rewrites them; tests/test_docs.py and tests/test_spec_bounds.py compare them.

It also writes the typed views of the state the type checker reads (:func:`state_views`):
the core's ``compiler/base/state_view.py`` and each stock mechanic's ``state_view.py``;
tests/test_types.py compares them."""
from __future__ import annotations

import textwrap
from pathlib import Path

from . import hooks
from .assembly import assemble
from .base.limits import LIMITS
from .base.schema import CORE_FIELDS, Field, exported, markdown_table, view_source
from .check import check
from .mechanic import STOCK_PACKAGE, Mechanic, Registry, stock_registry
from .specs import resolve, stock_names, stock_path, variant_key


def documented_fields(registry: Registry) -> list[Field]:
    """The fields docs/engine.md lists: the core's, then those of every implemented
    mechanic of ``registry``, in registry order."""
    fields = list(CORE_FIELDS)
    for mechanic in registry:
        if mechanic.implemented:
            fields.extend(mechanic.state_fields)
    return fields


_TABLE_START = ("<!-- state table: generated from the state schema (compiler/base/schema.py markdown_table); "
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


def statements_table(registry: Registry) -> str:
    """docs/language.md's table of what each mechanic adds to the language: its written
    forms (``Mechanic.written_forms``), mechanic by mechanic in registry order."""
    rows = ["| mechanic | adds | written |", "|---|---|---|"]
    for mechanic in registry:
        # a "|" in a form (alternatives) is escaped: it would end the table's cell
        forms = "<br>".join(f"`{form}`".replace("|", "\\|") for form in mechanic.written_forms())
        rows.append(f"| `{mechanic.name}` | {mechanic.title} | {forms} |")
    return "\n".join(rows) + "\n"


def breakdown_table(registry: Registry) -> str:
    """docs/formats.md's table of each stock map's score breakdown: its items in order,
    those that count in ``total`` and those that do not (``total`` and ``winner`` end every
    row of a breakdown and are not listed)."""
    rows = ["| map | items that count in `total` | items that do not |", "|---|---|---|"]
    for name in stock_names():
        path = stock_path(name)
        variant = check(resolve(path, registry.language), variant_key(path), registry)
        items = [item for item in assemble(variant).score_items if item.name != "total"]
        counted = ", ".join(f"`{item.name}`" for item in items if item.in_total)
        shown = ", ".join(f"`{item.name}`" for item in items if not item.in_total) or "none"
        rows.append(f"| {variant.name} | {counted} | {shown} |")
    return "\n".join(rows) + "\n"


def _between(start_marker: str, end_marker: str, make):
    """A rewriter of the text between two marker lines, made by ``make(registry)``."""
    def rewrite_text(text: str, registry: Registry) -> str:
        start = text.index(start_marker) + len(start_marker)
        return text[:start] + make(registry) + text[text.index(end_marker, start):]
    return rewrite_text


def between(text: str, start_marker: str, end_marker: str) -> str:
    """The text between two marker lines, as written."""
    start = text.index(start_marker) + len(start_marker)
    return text[start:text.index(end_marker, start)]


STATEMENTS_START = ("<!-- statements by mechanic: made by compiler/docs.py (statements_table) from the "
                    "mechanics; a test compares -->\n")
STATEMENTS_END = "<!-- end of statements by mechanic -->"
HOOKS_START = "<!-- hook table: made by compiler/docs.py from compiler/hooks.py (HOOKS); a test compares -->\n"
HOOKS_END = "<!-- end of hook table -->"
BREAKDOWN_START = ("<!-- breakdown items by map: made by compiler/docs.py (breakdown_table) from the stock specs; "
                   "a test compares -->\n")
BREAKDOWN_END = "<!-- end of breakdown items -->"

#: Each generated part: (the file under docs/, how its text is rewritten).
PARTS = (
    ("engine.md", rewrite_documented_table),
    ("language.md", rewrite_limits_table),
    ("language.md", _between(STATEMENTS_START, STATEMENTS_END, statements_table)),
    ("architecture.md", _between(HOOKS_START, HOOKS_END, lambda registry: hooks.markdown_table())),
    ("formats.md", _between(BREAKDOWN_START, BREAKDOWN_END, breakdown_table)),
)


_CORE_VIEW_DOC = """The state of a game in the reference interpreter as the type checker sees it: one
attribute per exported field of the core's state schema (compiler/base/schema.py,
``CORE_FIELDS``), of the type ``schema.python_type`` gives. The object is always the
interpreter's ``PlainState``, a subclass whose attributes are set from the variant's schema.

A mechanic's fields are not declared here: each stock mechanic's are in its folder
(``state_view.py``, a subclass of this class), so that the core names no mechanic
(tests/test_naming.py). There is no ``__getattr__`` fallback either, so that a misspelt field
is an error. A reference class that extends ``MechanicReference`` without naming a state view
sees its state untyped (``Any``): a mechanic from elsewhere can write a view of its own with
``schema.view_source``."""


def view_class(mechanic: Mechanic) -> str:
    """The name of a mechanic's state view class: ``TunnelsState`` for ``tunnels``."""
    return "".join(word.title() for word in mechanic.name.split("_")) + "State"


def state_views(registry: Registry) -> dict[str, str]:
    """The typed views of the state, by file under the repository: the core's, and one for
    each stock mechanic of ``registry`` with exported state fields, extending it."""
    views = {"compiler/base/state_view.py": view_source(CORE_FIELDS, "StateView", _CORE_VIEW_DOC)}
    for mechanic in registry:
        if mechanic.__module__.startswith(STOCK_PACKAGE + ".") and exported(mechanic.state_fields):
            doc = textwrap.fill(f"The state of a game with {mechanic.title} (mechanic ``{mechanic.name}``) as the "
                                f"type checker sees it: the core's fields and the mechanic's own. The object is the "
                                f"reference interpreter's ``PlainState``.", 92)
            views[f"mechanics/{mechanic.name}/state_view.py"] = view_source(
                mechanic.state_fields, view_class(mechanic), doc, ("...compiler.base.state_view", "StateView"))
    return views


def rewrite(root: Path, registry: Registry) -> list[Path]:
    """Rewrite every generated part of the docs under ``root`` (the repository), and the
    state views; return the files changed."""
    changed = []
    for name, rewrite_text in PARTS:
        path = root / "docs" / name
        text = path.read_text(encoding="utf-8")
        new = rewrite_text(text, registry)
        if new != text:
            path.write_text(new, encoding="utf-8")
            if path not in changed:
                changed.append(path)
    for name, new in state_views(registry).items():
        path = root / name
        if not path.exists() or path.read_text(encoding="utf-8") != new:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


if __name__ == "__main__":
    for path in rewrite(Path.cwd(), stock_registry()):
        print(f"wrote {path}")
