"""Shared translations: an emitted module's code names the variant's numbers and never
writes them (compiler/numbers_block.py), so specs with the same mechanics have the same
code and share Cython's translation of it (compiler/build.py): a stock variant's is
installed, any other is kept in the cache after its first build."""
from __future__ import annotations

import gzip

import pytest

from railspec.compiler import build as build_stage
from railspec.compiler import check_file, numbers_block, stock_path
from railspec.compiler.emit import emit
from railspec.compiler.numbers_block import LayoutError, split

# A derived spec's text after its 'extends' and 'variant' lines; {a} and {b} are two of the
# map's cities. Each changes numbers only: sizes, tables, the map, the tickets.
SAME_CODE = {
    "map": "city Nowhere\nroute Nowhere - {a} 1 blue\nroute Nowhere - {b} 4 gray\n",
    "sizes": "trains 40\nhand 5\n",
    "players": "players 2..4\n",
    "cards": "card red 10\nlocomotives 12\n",
    "route points": "route points 1:1 2:2 3:4 4:7 5:10 6:15 7:18 8:21 9:27 10:40\n",  # the UK has 10
    "tickets": "ticket {a} - {b} 17\n",
    "no market reset": "market 5 no reset\n",
}
# a mechanic no stock variant has with USA's: returned tickets are shuffled first
NEW_CODE = "returned tickets shuffled bottom\n"
# the variants whose engines the stock modules are (those with a generated module)
VARIANTS = sorted(p.stem for p in (stock_path("usa").parent.parent / "generated").glob("*.pyx"))


def derived(tmp_path, parent: str, body: str, name: str = "derived"):
    """The checked IR of a spec extending ``parent`` with ``body``."""
    a, b = [c.name for c in check_file(stock_path(parent)).cities[:2]]
    path = tmp_path / f"{name}.rail"
    path.write_text(f'extends "{parent}"\nvariant "{name}"\n' + body.format(a=a, b=b), encoding="utf-8")
    return check_file(path)


@pytest.mark.parametrize("parent", VARIANTS)
def test_numbers_never_reach_the_code(parent, tmp_path):
    """Every change of numbers alone leaves the code as it is: only the header differs."""
    code, header = split(emit(check_file(stock_path(parent))))
    for label, body in SAME_CODE.items():
        other_code, other_header = split(emit(derived(tmp_path, parent, body, label.replace(" ", "_"))))
        assert other_code == code, f"{parent}, {label}: the numbers changed the code"
        assert other_header != header


def test_a_mechanic_changes_the_code(tmp_path):
    """A mechanic's rules are code, not numbers."""
    code = split(emit(check_file(stock_path("usa"))))[0]
    assert split(emit(derived(tmp_path, "usa", NEW_CODE)))[0] != code


def test_the_split(tmp_path):
    source = emit(check_file(stock_path("usa")))
    code, header = split(source)
    assert code.startswith("# cython: ")
    assert f'cdef extern from "{numbers_block.HEADER}":\n    pass\n' in code
    assert numbers_block.BEGIN not in code and "N_ROUTES = 100" not in code and "spec hash" not in code
    assert header.startswith("/* generated from spec/usa.rail")
    assert "    N_ROUTES = 100,\n" in header and "static const int T_ROUTE_LEN[100] = {" in header
    # the inline form holds the same C, inside the verbatim string
    assert "        N_ROUTES = 100,\n" in source
    with pytest.raises(LayoutError):
        split(source.replace(numbers_block.BEGIN, "# something else"))
    with pytest.raises(LayoutError):
        split("print('no block')\n")


def test_renaming_keeps_the_name_length():
    old, new = "0" * 32, "f" * 32
    assert numbers_block.renamed(f"PyInit_railspec_engine_{old} 'railspec_engine_{old}.pyx'", old, new) == \
        f"PyInit_railspec_engine_{new} 'railspec_engine_{new}.pyx'"
    for bad in ("0" * 31, "g" * 32, "0" * 33):
        with pytest.raises(ValueError):
            numbers_block.renamed("text", old, bad)


def test_a_copy_of_a_stock_map_plays_as_its_module(tmp_path):
    """A copy of USA builds from USA's installed translation and its numbers in a header,
    and plays the same games as the stock module, whose numbers are inline."""
    copy = derived(tmp_path, "usa", "", "copy_of_usa")
    module = build_stage.build(copy, emit(copy), cache_dir=tmp_path / "cache")
    assert (build_stage.last_build_kind, build_stage.last_translation) == ("compiled", "shipped")
    entry = next(p for p in (tmp_path / "cache").iterdir() if p.name != "translations")
    assert sorted(p.suffix for p in entry.iterdir()) == [".h", ".pyx", ".so"]  # the 1.3 MB of C is not kept
    stock = build_stage.build(check_file(stock_path("usa")), emit(check_file(stock_path("usa"))))
    assert build_stage.last_build_kind in ("stock", "loaded")
    assert module.VARIANT_KEY == "copy_of_usa" and stock.VARIANT_KEY == "usa"
    assert module.OBSERVATION_SIZE == stock.OBSERVATION_SIZE and module.N_ACTIONS == stock.N_ACTIONS
    ours, theirs = module.playout(300, 4, 11), stock.playout(300, 4, 11)
    assert ours["totals"] == theirs["totals"] and ours["decisions"] == theirs["decisions"]


def test_a_new_code_is_translated_once(tmp_path):
    """A code no stock variant has is translated by Cython at its first build and kept: a
    spec with the same code and other numbers uses it; a damaged copy is translated again."""
    cache = tmp_path / "cache"
    first = derived(tmp_path, "usa", NEW_CODE, "first")
    second = derived(tmp_path, "usa", NEW_CODE + "trains 30\n", "second")
    build_stage.build(first, emit(first), cache_dir=cache)
    assert build_stage.last_translation == "cython"
    kept = list((cache / "translations").glob("*.c.gz"))
    assert len(kept) == 1
    module = build_stage.build(second, emit(second), cache_dir=cache)
    assert (build_stage.last_build_kind, build_stage.last_translation) == ("compiled", "cache")
    assert module.playout(20, 2, 3)["totals"] is not None
    kept[0].write_bytes(gzip.compress(b"")[:5])  # a truncated file
    third = derived(tmp_path, "usa", NEW_CODE + "trains 35\n", "third")
    build_stage.build(third, emit(third), cache_dir=cache)
    assert build_stage.last_translation == "cython"
