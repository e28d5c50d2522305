"""The railspec compiler: spec text to a variant IR to a compiled engine module.

The stages are small functions, each in its own module, run in this order by
:func:`compile`::

    parse (lang/parse.py) → resolve extends (specs.py) → check (check/) → emit (emit.py) → build (build.py)
"""
from __future__ import annotations

from pathlib import Path

from . import build as _cache
from .base.errors import Span
from .build import build as _build
from .check import check
from .emit import emit as _emit
from .lang import ast
from .lang import format as _format
from .lang import parse as _parse
from .mechanic import Registry, default_registry
from .specs import read_spec, read_spec_text, stock_names, stock_path, stock_path_or_none, variant_key
from .specs import resolve as _resolve


def parse(text: str, path: str = "<spec>", registry: Registry | None = None) -> ast.SpecFile:
    """Parse spec text in the language of ``registry``'s mechanics (every installed one by
    default); a :class:`~railspec.compiler.base.errors.SpecSyntaxError` on bad syntax."""
    return _parse.parse(text, path, (registry or default_registry()).language)


def format_text(text: str, path: str = "<spec>", registry: Registry | None = None) -> str:
    """The canonical layout of spec text (``railspec fmt``), read in the language of
    ``registry``'s mechanics (every installed one by default); the parser's located
    :class:`~railspec.compiler.base.errors.SpecSyntaxError` when the text does not parse."""
    return _format.format_text(text, path, (registry or default_registry()).language)


def resolve(path: str | Path, registry: Registry | None = None) -> list[ast.SpecFile]:
    """The extends chain of a spec file, base first, each parsed in the language of
    ``registry``'s mechanics (every installed one by default)."""
    return _resolve(path, (registry or default_registry()).language)


def check_file(path: str | Path, registry: Registry | None = None):
    """Parse and check a spec file (with what it extends); return its IR. ``registry``:
    the mechanics whose language and checker stages it uses (every installed one by
    default, :func:`~railspec.compiler.mechanic.default_registry`)."""
    registry = registry or default_registry()
    return check(resolve(path, registry), variant_key(path), registry)


def load_file(path: str | Path, registry: Registry | None = None):
    """:func:`check_file` through the IR cache: a spec checked before, by the same compiler
    and mechanics, with the same text and the same files extended, is read back from the
    cache instead of being parsed and checked again (most of a warm start's time). A spec
    with errors is never cached: it is checked, and its errors raised, every time."""
    registry = registry or default_registry()
    path = Path(path)
    key = _cache.ir_cache_key(path, read_spec_text(path).encode("utf-8"), registry)
    variant = _cache.read_checked(key, registry)
    if variant is not None:
        return variant
    chain = resolve(path, registry)
    variant = check(chain, variant_key(path), registry)
    _cache.write_checked(key, variant, [(spec.path, spec.text) for spec in chain[:-1]])
    return variant


def compile(path: str | Path, *, cache_dir: str | Path | None = None, registry: Registry | None = None):
    """The whole pipeline for one spec file: parse → resolve → check → emit → build.
    Returns (variant IR, compiled module)."""
    registry = registry or default_registry()
    files = resolve(path, registry)                                           # parse each file of the chain
    variant = check(files, variant_key(path), registry)                       # the IR
    source = _emit(variant)                                                   # the Cython text
    module = _build(variant, source, cache_dir=cache_dir)                     # the imported module
    return variant, module


# (the stages emit and build are reached as modules: railspec.compiler.emit.emit, …build.build)
__all__ = ["parse", "format_text", "resolve", "read_spec", "check", "check_file", "load_file", "compile", "stock_path",
           "stock_names", "stock_path_or_none", "variant_key", "Span"]
