"""The documents that describe the code say what the code does."""
from __future__ import annotations

from pathlib import Path

from railspec.compiler import schema

ROOT = Path(__file__).resolve().parent.parent


def test_the_state_table_of_engine_md_is_the_schema():
    """docs/engine.md lists the state fields the schema defines, in key order, with their
    shapes, bounds, owners and visibility (rewrite it with `make docs`)."""
    written = schema.documented_table((ROOT / "docs" / "engine.md").read_text(encoding="utf-8"))
    assert written == schema.markdown_table(schema.documented_fields()), \
        "docs/engine.md's state table differs from the state schema: run `make docs` and commit"


def test_the_state_table_is_the_key_order_of_a_state(usa):
    """A state's keys are the documented ones of the core and of the variant's mechanics,
    in the table's order."""
    owners = {"core"} | set(usa.ir.mechanics)
    documented = [f.name for f in schema.exported(schema.documented_fields()) if f.owner in owners]
    state = usa.new_game(players=2, seed=1).state()
    assert list(state)[len(schema.HEADER_KEYS):] == documented
