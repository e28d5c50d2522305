"""The resolve stage: spec files read (safely: a spec may come from anywhere) and parsed,
and the chain a spec ``extends`` followed to its base; the stock variants' files."""
from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from .base import files
from .base.errors import SpecCheckError, SpecError
from .base.limits import shown
from .base.text import canonical
from .lang import ast
from .lang.parse import Language, parse


def stock_path(name: str) -> Path:
    """The .rail file of a stock variant (``usa``, ``europe``, …)."""
    return Path(str(resources.files("railspec.spec").joinpath(f"{name}.rail")))


def stock_names() -> list[str]:
    """Names of the stock variants shipped with railspec."""
    return sorted(p.name[:-5] for p in resources.files("railspec.spec").iterdir() if p.name.endswith(".rail"))


def read_spec(path: str | Path, language: Language) -> ast.SpecFile:
    """Read and parse one spec file (no extends): a regular file of at most
    ``limits.MAX_SPEC_BYTES`` (:func:`railspec.compiler.base.files.read_bytes`)."""
    path = Path(path)
    return parse(_read_text(path), str(path), language)


def read_spec_text(path: str | Path) -> str:
    """The text of a spec file, line ends made ``\n``, or a SpecError naming the file and
    why (never its contents)."""
    return _read_text(Path(path))


def _read_text(path: Path) -> str:
    """The text of a spec file, or a SpecError naming the file and why (never its contents)."""
    try:
        return _spec_text(path)
    except files.UnreadableFile as err:
        raise SpecError(str(err)) from None


def _spec_text(path: Path) -> str:
    """A spec file's text, line ends as a text-mode read gives them (\\r\\n and a lone \\r
    are \\n), or UnreadableFile."""
    return files.read_text(path, "spec file").replace("\r\n", "\n").replace("\r", "\n")


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
        if key in seen and via is not None:  # the first file is never seen before
            raise _located(chain[0], via, f"extends cycle: {' -> '.join(seen + [key])}")
        seen.append(key)
        if via is None:
            spec = read_spec(current, language)
        else:
            try:
                text = _spec_text(current)
            except files.UnreadableFile as err:
                raise _located(chain[0], via, f"extends {shown(via.target)!r}: {err.reason}") from None
            spec = parse(text, str(current), language)
        chain.insert(0, spec)
        ext = next((s for s in spec.statements if isinstance(s, ast.Extends)), None)
        if ext is None:
            break
        via = ext
        try:
            current = extends_target(current.parent, ext.target)
        except ExtendsNotFound as err:
            raise _located(spec, ext, str(err)) from None
    return chain


class ExtendsNotFound(Exception):
    """An ``extends`` that names neither a spec file nor a stock variant: the message."""


def extends_target(folder: Path, target: str, present=_present) -> Path:
    """The file ``extends "TARGET"`` names in a spec of ``folder``: a ``.rail`` file there,
    else a stock variant (a stock name is written without ``.rail``). ``present(path)``
    says whether a file is there: on disk by default; the language server also counts the
    editor's unsaved files. Raises :class:`ExtendsNotFound` with the message ``railspec
    check`` shows."""
    candidate = folder / target
    here = present(candidate)
    stock = None if target.endswith(".rail") or here else stock_path_or_none(target)
    if stock is not None:
        return stock
    if here and not target.endswith(".rail"):
        raise ExtendsNotFound(f"extends {shown(target)!r} is not a spec: a spec file's name ends in .rail (and a "
                              f"stock variant is named without it)")
    if here or target.endswith(".rail") and candidate.is_dir():
        return candidate  # read_spec names what is wrong with it (a folder, a pipe …)
    raise ExtendsNotFound(f"extends {shown(target)!r}: no stock variant or file of that name")


def stock_path_or_none(name: str) -> Path | None:
    """The .rail file of the stock variant ``name``, or None when there is none."""
    if name not in stock_names():
        return None
    p = stock_path(name)
    return p if p.exists() else None


_DISPLAY_NAME = re.compile(r'^variant\s+"((?:[^"\\\n]|\\.)*)"', re.M)


def stock_key_of(name: str) -> str | None:
    """The stock variant a name stands for, as a described position names one: its key
    (``usa``) or its display name (``Legendary Asia``), in any case and either Unicode form;
    None when no stock variant has that name."""
    if not isinstance(name, str) or not name:
        return None
    wanted = canonical(name).casefold()
    for key in stock_names():
        if key.casefold() == wanted:
            return key
    for key in stock_names():
        found = _DISPLAY_NAME.search(_read_text(stock_path(key)))
        if found is not None and canonical(found.group(1)).casefold() == wanted:
            return key
    return None


def _located(spec: ast.SpecFile, stmt: ast.Stmt, message: str) -> SpecCheckError:
    lines = spec.text.split("\n")
    line = lines[stmt.span.line - 1] if stmt.span.line <= len(lines) else None
    return SpecCheckError([SpecError(message, stmt.span, line)])


def variant_key(path: str | Path) -> str:
    """The short name of a variant, from its file name (spec/usa.rail → usa)."""
    return Path(path).stem
