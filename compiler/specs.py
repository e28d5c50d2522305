"""The resolve stage: spec files read (safely: a spec may come from anywhere) and parsed,
and the chain a spec ``extends`` followed to its base; the stock variants' files."""
from __future__ import annotations

import os
import stat
from importlib import resources
from pathlib import Path

from .base import limits
from .base.errors import SpecCheckError, SpecError
from .base.limits import shown
from .lang import ast
from .lang.parse import Language, parse


def stock_path(name: str) -> Path:
    """The .rail file of a stock variant (``usa``, ``europe``, …)."""
    return Path(str(resources.files("railspec.spec").joinpath(f"{name}.rail")))


def stock_names() -> list[str]:
    """Names of the stock variants shipped with railspec."""
    return sorted(p.name[:-5] for p in resources.files("railspec.spec").iterdir() if p.name.endswith(".rail"))


class _Unreadable(Exception):
    """Why a spec file cannot be read (its name is added by the caller)."""


def read_spec(path: str | Path, language: Language) -> ast.SpecFile:
    """Read and parse one spec file (no extends). Only a regular file of at most
    ``limits.MAX_SPEC_BYTES`` is read: a pipe or a device could block the reader or never
    end."""
    path = Path(path)
    try:
        text = _read_text(path)
    except _Unreadable as err:
        raise SpecError(f"{path}: {err}") from None
    return parse(text, str(path), language)


def _read_text(path: Path) -> str:
    """The text of a spec file; raises _Unreadable saying why not (never with its contents)."""
    try:
        # O_NONBLOCK: opening a named pipe must not wait for a writer; the checks below
        # are made on the file actually opened, not on the name
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise _Unreadable("no such spec file") from None
    except IsADirectoryError:
        raise _Unreadable("not a regular file (a folder)") from None
    except OSError as err:
        raise _Unreadable(f"cannot read ({err.strerror})") from None
    except ValueError:  # a NUL character in the name
        raise _Unreadable("cannot read (the name holds a NUL character)") from None
    limit = limits.MAX_SPEC_BYTES
    too_big = f"larger than the {limit // (1024 * 1024)} MB a spec file may be"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = ("a folder" if stat.S_ISDIR(info.st_mode) else "a pipe" if stat.S_ISFIFO(info.st_mode)
                    else "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
                    else "a socket" if stat.S_ISSOCK(info.st_mode) else "a special file")
            raise _Unreadable(f"not a regular file ({kind})")
        if info.st_size > limit:
            raise _Unreadable(f"{info.st_size:,} bytes, {too_big}")
        chunks, size = [], 0
        while size <= limit:  # a file growing while it is read stops at the limit too
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise _Unreadable(too_big)
    except OSError as err:
        raise _Unreadable(f"cannot read ({err.strerror})") from None
    finally:
        os.close(fd)
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as err:
        raise _Unreadable(f"not UTF-8 text ({err.reason} at byte {err.start})") from None
    # line ends as a text-mode read gives them: \r\n and a lone \r are \n
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _present(path: Path) -> bool:
    """Whether something other than a folder (a file, a pipe, a dangling link) has this
    name: a folder named like a stock variant does not hide it."""
    try:
        return (path.exists() and not path.is_dir()) or path.is_symlink()
    except (OSError, ValueError):
        return False


def resolve(path: str | Path, language: Language) -> list[ast.SpecFile]:
    """The extends chain of a spec, base first. ``extends "NAME"`` names a ``.rail`` file,
    relative to the extending file, or a stock variant. A file whose name does not end in
    ``.rail`` is refused unread, so that no other file's text can show in an error."""
    chain: list[ast.SpecFile] = []
    seen: list[str] = []
    current: Path | None = Path(path)
    via: ast.Extends | None = None
    while current is not None:
        try:
            key = str(current.resolve())
        except (OSError, RuntimeError, ValueError):
            key = str(current.absolute())
        if key in seen:
            raise _located(chain[0], via, f"extends cycle: {' -> '.join(seen + [key])}")
        seen.append(key)
        if via is None:
            spec = read_spec(current, language)
        else:
            try:
                text = _read_text(current)
            except _Unreadable as err:
                raise _located(chain[0], via, f"extends {shown(via.target)!r}: {err}") from None
            spec = parse(text, str(current), language)
        chain.insert(0, spec)
        ext = next((s for s in spec.statements if isinstance(s, ast.Extends)), None)
        if ext is None:
            break
        via = ext
        target = ext.target
        candidate = current.parent / target
        stock = None if target.endswith(".rail") or _present(candidate) else stock_path_or_none(target)
        if stock is not None:
            current = stock
        elif _present(candidate) and not target.endswith(".rail"):
            raise _located(spec, ext, f"extends {shown(target)!r} is not a spec: a spec file's name ends in "
                                      f".rail (and a stock variant is named without it)")
        elif _present(candidate) or target.endswith(".rail") and candidate.is_dir():
            current = candidate  # read_spec names what is wrong with it (a folder, a pipe …)
        else:
            raise _located(spec, ext, f"extends {shown(target)!r}: no stock variant or file of that name")
    return chain


def stock_path_or_none(name: str) -> Path | None:
    """The .rail file of the stock variant ``name``, or None when there is none."""
    if name not in stock_names():
        return None
    p = stock_path(name)
    return p if p.exists() else None


def _located(spec: ast.SpecFile, stmt: ast.Stmt, message: str) -> SpecCheckError:
    lines = spec.text.split("\n")
    line = lines[stmt.span.line - 1] if stmt.span.line <= len(lines) else None
    return SpecCheckError([SpecError(message, stmt.span, line)])


def variant_key(path: str | Path) -> str:
    """The short name of a variant, from its file name (spec/usa.rail → usa)."""
    return Path(path).stem
