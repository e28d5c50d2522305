"""The railspec compiler: spec text to a variant IR to a compiled engine module.

The stages are small functions, each in its own module, run in this order by
:func:`compile`::

    parse (parse.py) → resolve extends (here) → check (check.py) → emit (emit.py) → build (build.py)
"""
from __future__ import annotations

from pathlib import Path

from ..errors import Span, SpecCheckError, SpecError
from . import ast
from .check import check
from .parse import parse

def stock_path(name: str) -> Path:
    """The .rail file of a stock variant (``usa``, ``europe``, …)."""
    from importlib import resources
    return Path(str(resources.files("railspec.spec").joinpath(f"{name}.rail")))


def stock_names() -> list[str]:
    """Names of the stock variants shipped with railspec."""
    from importlib import resources
    return sorted(p.name[:-5] for p in resources.files("railspec.spec").iterdir() if p.name.endswith(".rail"))


def read_spec(path: str | Path) -> ast.SpecFile:
    """Read and parse one spec file (no extends)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError(f"{path}: no such spec file") from None
    except UnicodeDecodeError as err:
        raise SpecError(f"{path}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    except OSError as err:
        raise SpecError(f"{path}: cannot read ({err.strerror})") from None
    return parse(text, str(path))


def resolve(path: str | Path) -> list[ast.SpecFile]:
    """The extends chain of a spec, base first. ``extends "NAME"`` names a stock variant
    or a path relative to the extending file."""
    chain: list[ast.SpecFile] = []
    seen: list[str] = []
    current: Path | None = Path(path)
    via: ast.Extends | None = None
    while current is not None:
        key = str(current.resolve())
        if key in seen:
            raise _located(chain[0], via, f"extends cycle: {' -> '.join(seen + [key])}")
        seen.append(key)
        spec = read_spec(current)
        chain.insert(0, spec)
        ext = next((s for s in spec.statements if isinstance(s, ast.Extends)), None)
        if ext is None:
            break
        via = ext
        target = ext.target
        candidate = current.parent / target
        if not target.endswith(".rail") and not candidate.exists() and stock_path_or_none(target):
            current = stock_path_or_none(target)
        elif candidate.exists():
            current = candidate
        else:
            raise _located(spec, ext, f"extends {target!r}: no stock variant or file of that name")
    return chain


def stock_path_or_none(name: str) -> Path | None:
    try:
        p = stock_path(name)
    except (ModuleNotFoundError, ValueError):
        return None
    return p if p.exists() else None


def _located(spec: ast.SpecFile, stmt: ast.Stmt, message: str) -> SpecCheckError:
    lines = spec.text.split("\n")
    line = lines[stmt.span.line - 1] if stmt.span.line <= len(lines) else None
    return SpecCheckError([SpecError(message, stmt.span, line)])


def variant_key(path: str | Path) -> str:
    """The short name of a variant, from its file name (spec/usa.rail → usa)."""
    return Path(path).stem


def check_file(path: str | Path, registry=None):
    """Parse and check a spec file (with what it extends); return its IR. ``registry``:
    the mechanics whose checker stages run (the stock ones by default)."""
    return check(resolve(path), variant_key(path), registry)


def compile(path: str | Path, *, cache_dir: str | Path | None = None, registry=None):
    """The whole pipeline for one spec file: parse → resolve → check → emit → build.
    Returns (variant IR, compiled module)."""
    from .build import build
    from .emit import emit
    files = resolve(path)                                  # parse each file of the extends chain
    variant = check(files, variant_key(path), registry)    # the IR
    source = emit(variant, registry)                       # the Cython text
    module = build(variant, source, cache_dir=cache_dir)   # the imported module
    return variant, module


__all__ = ["parse", "resolve", "check", "check_file", "compile", "stock_path", "stock_names", "Span"]
