"""Sizes a reader can hold: no Python function in compiler/, engine/ or mechanics/ is
longer than ``MAX_LINES`` lines, counted from its ``def`` line to its last line (the
functions nested in it included), as the ast gives them.

A function past the limit is split into named steps, not packed into fewer lines."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The folders of railspec's own Python code the limit holds for.
FOLDERS = ("compiler", "engine", "mechanics")
MAX_LINES = 80
#: Known to be longer, and being split elsewhere: none now (the language server's and the
#: play server's setups, the last two, are split). A function added here must still be long.
KNOWN: set[str] = set()


def long_functions(root: Path = ROOT, most: int = MAX_LINES) -> list[str]:
    """Every function of the folders longer than ``most`` lines, as
    ``path:line name (N lines)``, in path order."""
    found = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines = node.end_lineno - node.lineno + 1
                    if lines > most:
                        found.append(f"{path.relative_to(root).as_posix()}:{node.lineno} {node.name} ({lines} lines)")
    return found


def _key(entry: str) -> str:
    where, name = entry.split(" ")[:2]
    return f"{where.rsplit(':', 1)[0]}:{name}"


def test_no_function_is_longer_than_the_limit():
    offenders = [entry for entry in long_functions() if _key(entry) not in KNOWN]
    assert not offenders, (f"functions longer than {MAX_LINES} lines (split them into named steps):\n"
                           + "\n".join(offenders))


def test_the_known_long_functions_are_still_there():
    """A known entry that is gone (split, renamed) leaves the list: it must not excuse a
    later function of the same name."""
    still = {_key(entry) for entry in long_functions()}
    assert KNOWN <= still, f"no longer long, remove from KNOWN: {sorted(KNOWN - still)}"


def test_a_long_function_is_found(tmp_path):
    """The scan reads the source: a function of MAX_LINES + 1 lines, nested or not, is
    listed with its place and length; one of MAX_LINES is not."""
    folder = tmp_path / "engine"
    folder.mkdir()
    fits = "".join(f"    x{k} = {k}\n" for k in range(MAX_LINES - 1))
    longer = "".join(f"        x{k} = {k}\n" for k in range(MAX_LINES - 2))
    (folder / "m.py").write_text(f"class C:\n    def f(self):\n        def inner():\n            pass\n{longer}\n\n"
                                 f"def fits():\n{fits}", encoding="utf-8")
    assert long_functions(tmp_path) == [f"engine/m.py:2 f ({MAX_LINES + 1} lines)"]
