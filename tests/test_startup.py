"""A warm start reads what an earlier process worked out: the checked IR of a spec (the IR
cache) and which engine module a variant's generator and IR build (the engine index), so
a stock or cached variant loads without parsing, checking or rendering. Each shortcut is
taken only when nothing it depends on changed."""
from __future__ import annotations

import pytest

import railspec
from railspec import compiler
from railspec.compiler import build, ir

SPEC = (compiler.stock_path("usa")).read_text(encoding="utf-8")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("RAILSPEC_CACHE", str(folder))
    return folder


def _no_check(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the spec was parsed and checked again")
    monkeypatch.setattr(compiler, "check", refuse)


def test_a_spec_checked_once_is_read_back(tmp_path, cache, monkeypatch):
    spec = tmp_path / "mine.rail"
    spec.write_text(SPEC, encoding="utf-8")
    first = compiler.load_file(spec)
    assert list((cache / "ir").glob("*.pickle"))
    _no_check(monkeypatch)
    second = compiler.load_file(spec)
    assert second is not first and second.spec_hash == first.spec_hash
    assert ir.canonical_json(second) == ir.canonical_json(first)
    assert second.registry is compiler.default_registry() and second.key == first.key
    assert [(w.message, w.span) for w in second.warnings] == [(w.message, w.span) for w in first.warnings]


def test_an_edited_spec_is_checked_again(tmp_path, cache, monkeypatch):
    spec = tmp_path / "mine.rail"
    spec.write_text(SPEC, encoding="utf-8")
    first = compiler.load_file(spec)
    spec.write_text(SPEC.replace("longest path 10", "longest path 12"), encoding="utf-8")
    assert compiler.load_file(spec).spec_hash != first.spec_hash


def test_an_edited_base_is_checked_again(tmp_path, cache):
    base = tmp_path / "base.rail"
    base.write_text(SPEC, encoding="utf-8")
    child = tmp_path / "child.rail"
    child.write_text('extends "base.rail"\nvariant "Child"\n', encoding="utf-8")
    first = compiler.load_file(child)
    base.write_text(SPEC.replace("longest path 10", "longest path 12"), encoding="utf-8")
    second = compiler.load_file(child)
    assert second.spec_hash != first.spec_hash
    assert second.spec_hash == compiler.check_file(child).spec_hash


def test_a_spec_with_errors_is_never_cached(tmp_path, cache):
    spec = tmp_path / "bad.rail"
    spec.write_text(SPEC.replace("longest path 10", "longest path ten"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(railspec.SpecError):
            compiler.load_file(spec)
    assert not list(cache.rglob("*.pickle"))


def test_a_damaged_cache_entry_is_ignored(tmp_path, cache):
    spec = tmp_path / "mine.rail"
    spec.write_text(SPEC, encoding="utf-8")
    first = compiler.load_file(spec)
    for entry in (cache / "ir").glob("*.pickle"):
        entry.write_bytes(b"not a pickle")
    assert compiler.load_file(spec).spec_hash == first.spec_hash


def test_the_key_holds_the_mechanics_code(tmp_path):
    """A registry whose mechanics live in other folders (an outside mechanic) keys its
    entries apart from the default registry's."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "hook.py").write_text("X = 1\n", encoding="utf-8")
    default = compiler.default_registry()
    plain = build.ir_cache_key(tmp_path / "a.rail", b"text", default)
    build._folder_digest.cache_clear()
    assert build.ir_cache_key(tmp_path / "a.rail", b"text", default) == plain
    assert build.ir_cache_key(tmp_path / "a.rail", b"other", default) != plain
    original = build._generator_folders
    try:
        build._generator_folders = lambda registry: original(registry) + [str(outside)]
        assert build.ir_cache_key(tmp_path / "a.rail", b"text", default) != plain
    finally:
        build._generator_folders = original


def test_the_engine_index_skips_the_render(cache):
    """The second load of a variant's engine, in a process that has not rendered it,
    imports the module the index names without rendering the source."""
    usa = railspec.load("usa").ir
    renders = []

    def render():
        renders.append(1)
        from railspec.compiler.emit import emit
        return emit(usa)
    first = build.load_module(usa, render)
    assert renders == [1]
    second = build.load_module(usa, lambda: pytest.fail("rendered again"))
    assert second is first


def test_an_index_entry_for_a_module_that_is_gone_renders_again(cache):
    usa = railspec.load("usa").ir
    key = build.engine_key(usa)
    build._write_index(cache, key, {"source_hash": "0" * 16, "module": "f" * 32})
    rendered = []

    def render():
        rendered.append(1)
        from railspec.compiler.emit import emit
        return emit(usa)
    assert build.load_module(usa, render) is not None and rendered == [1]
