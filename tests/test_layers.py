"""The layers the folder tree shows are the layers the imports follow, and the code is
lint-clean.

- import-linter's contracts (pyproject.toml, ``[tool.importlinter]``): tools above rl above
  playtest above runtime above the mechanics above the compiler, whose own stages are
  layered down to the bottom layer (errors, the random generator, the state schema,
  limits), which imports nothing of railspec; the checker's modules are layered too (its
  stages over the merged statements, over the error report); no mechanic imports another.
- No function-level import of railspec's own modules: an import hidden in a function is
  how a cycle gets past the contracts. The optional extras' adapters are the exception:
  they need packages the core install does not have.
- ruff finds nothing.
"""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The repository's folders and where each sits in the installed package (pyproject.toml's
#: package-dir).
LAYOUT = {"engine": "railspec", "compiler": "railspec/compiler", "mechanics": "railspec/mechanics",
          "generated": "railspec/generated", "spec": "railspec/spec"}
#: Where railspec's own Python code lives (the tests and examples import it as users do).
SOURCES = ("engine", "compiler", "mechanics", "fuzz", "bench")
#: Modules imported inside a function because they need an optional extra's packages.
OPTIONAL = {"railspec.rl.openspiel", "railspec.rl.pettingzoo", "railspec.rl.gymnasium",
            "railspec.tools.lsp.server"}
#: Files whose function-level import is what they measure.
MEASURED = {"bench/side_by_side.py": "its child process times `import railspec` itself"}


def code_files(folder: Path) -> list[Path]:
    """The Python files under ``folder`` that are railspec's code: a mechanic's tests
    (mechanics/NAME/tests/) sit beside it but are not part of the package."""
    return sorted(p for p in folder.rglob("*.py") if "tests" not in p.relative_to(folder).parts)


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip(f"{name} is not installed (the test extra brings it)")
    return found


def test_the_import_contracts_hold(tmp_path):
    """lint-imports reads the package from the place Python finds it; an editable install
    maps the repository's folders into one package, which it cannot see, so the sources
    are copied into the installed layout first."""
    for folder, target in LAYOUT.items():
        for path in code_files(ROOT / folder):
            dest = tmp_path / target / path.relative_to(ROOT / folder)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
    done = subprocess.run([_tool("lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Contracts: 4 kept, 0 broken" in done.stdout, done.stdout[-2000:]


def _module_of(path: Path) -> str:
    for folder, target in LAYOUT.items():
        if path.is_relative_to(ROOT / folder):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            return ".".join(target.split("/") + [p for p in parts if p != "__init__"])
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _imported(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """The railspec modules (or names of one) an import statement brings in, relative
    imports resolved: ``from .runtime import game`` in railspec/x.py is railspec.runtime.game."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] in ("railspec", "fuzz")]
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - node.level + 1] + ([node.module] if node.module else [])
        target = ".".join(base)
    else:
        target = node.module or ""
    if target.split(".")[0] not in ("railspec", "fuzz"):
        return []
    return [f"{target}.{a.name}" for a in node.names]


def function_level_imports() -> list[str]:
    """Every import of railspec's own code made inside a function, as ``file:line: module``."""
    found = []
    for source in SOURCES:
        for path in code_files(ROOT / source):
            if str(path.relative_to(ROOT)) in MEASURED:
                continue
            module = _module_of(path)
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for func in ast.walk(tree):
                if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for node in ast.walk(func):
                    if isinstance(node, (ast.Import, ast.ImportFrom)):
                        for name in _imported(node, module, path.name == "__init__.py"):
                            if not any(name == o or name.startswith(o + ".") for o in OPTIONAL):
                                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    return found


def test_no_function_level_imports_of_railspec():
    assert function_level_imports() == []


def test_a_function_level_import_is_found(tmp_path, monkeypatch):
    """The scan above would see one (it reads the source, not a list)."""
    fake = tmp_path / "engine" / "x.py"
    fake.parent.mkdir()
    fake.write_text("def f():\n    from .runtime import game\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "SOURCES", ("engine",))
    assert function_level_imports() == ["engine/x.py:2: railspec.runtime.game"]


def test_ruff_finds_nothing():
    done = subprocess.run([_tool("ruff"), "check", "--no-cache", "--output-format", "concise", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
