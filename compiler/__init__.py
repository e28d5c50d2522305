"""The railspec compiler: spec text to a variant IR to a compiled engine module.

The stages are small functions, each in its own module, run in this order by
:func:`compile`::

    parse (lang/parse.py) → resolve extends (specs.py) → check (check.py) → emit (emit.py) → build (build.py)
"""
from __future__ import annotations

from pathlib import Path

from .base.errors import Span
from .build import build as _build
from .check import check
from .emit import emit as _emit
from .lang.parse import parse
from .mechanic import Registry, default_registry
from .specs import read_spec, resolve, stock_names, stock_path, stock_path_or_none, variant_key


def check_file(path: str | Path, registry: Registry | None = None):
    """Parse and check a spec file (with what it extends); return its IR. ``registry``:
    the mechanics whose language and checker stages it uses (every installed one by
    default, :func:`~railspec.compiler.mechanic.default_registry`)."""
    return check(resolve(path), variant_key(path), registry or default_registry())


def compile(path: str | Path, *, cache_dir: str | Path | None = None, registry: Registry | None = None):
    """The whole pipeline for one spec file: parse → resolve → check → emit → build.
    Returns (variant IR, compiled module)."""
    files = resolve(path)                                                     # parse each file of the chain
    variant = check(files, variant_key(path), registry or default_registry())  # the IR
    source = _emit(variant)                                                   # the Cython text
    module = _build(variant, source, cache_dir=cache_dir)                     # the imported module
    return variant, module


# (the stages emit and build are reached as modules: railspec.compiler.emit.emit, …build.build)
__all__ = ["parse", "resolve", "read_spec", "check", "check_file", "compile", "stock_path", "stock_names",
           "stock_path_or_none", "variant_key", "Span"]
