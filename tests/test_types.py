"""The types hold: mypy finds nothing in railspec's packages under the project's
configuration (pyproject.toml, ``[tool.mypy]``), and the stubs of the compiled modules name
what those modules define.

mypy reads a package from the place Python finds it; an editable install maps the
repository's folders into one package (pyproject.toml's package-dir), which it cannot see,
so the sources are copied into the installed layout first, as tests/test_layers.py does for
lint-imports. The generated engines (Cython) and the mechanics' own tests are not checked;
the compiled modules Python code imports are seen through their stubs (``.pyi`` beside the
``.pyx``), which the last tests keep honest.

By hand: ``.venv/bin/python tests/test_types.py`` prints mypy's report (extra arguments go
to mypy).
"""
from __future__ import annotations

import ast
import importlib
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from railspec.compiler import docs
from railspec.compiler.base import schema
from railspec.compiler.mechanic import CAPABILITIES, Mechanic, stock_registry

ROOT = Path(__file__).resolve().parent.parent
#: The repository's folders and where each sits in the installed package (pyproject.toml's
#: package-dir).
LAYOUT = {"engine": "railspec", "compiler": "railspec/compiler", "mechanics": "railspec/mechanics",
          "generated": "railspec/generated"}
#: The packages checked: every one of railspec's but the generated engines.
PACKAGES = ("railspec.compiler", "railspec.runtime", "railspec.playtest", "railspec.rl", "railspec.tools",
            "railspec.testing", "railspec.mechanics")
#: The compiled modules Python code imports, and their stubs.
STUBS = {"railspec.compiler.engine_face": ROOT / "compiler" / "engine_face.pyi",
         "railspec.playtest.agents._policy": ROOT / "engine" / "playtest" / "agents" / "_policy.pyi",
         "railspec.rl._vector": ROOT / "engine" / "rl" / "_vector.pyi"}


def lay_out(target: Path) -> None:
    """Copy the Python sources and stubs into ``target`` as the package is installed,
    without the mechanics' tests (a mechanic's ``tests`` folder)."""
    for folder, place in LAYOUT.items():
        for path in (ROOT / folder).rglob("*.py*"):
            relative = path.relative_to(ROOT / folder)
            if path.suffix not in (".py", ".pyi") or "__pycache__" in relative.parts:
                continue
            if folder == "mechanics" and "tests" in relative.parts:
                continue
            dest = target / place / relative
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)


def _repository_paths(report: str) -> str:
    """mypy's report with the installed layout's paths written as the repository's
    (``railspec/runtime/x.py`` is ``engine/runtime/x.py``)."""
    order = sorted(LAYOUT.items(), key=lambda item: -len(item[1]))
    pattern = re.compile("|".join(re.escape(place + "/") for _, place in order))
    by_place = {place + "/": folder + "/" for folder, place in order}
    return pattern.sub(lambda m: by_place[m.group(0)], report)


def run_mypy(*extra: str, cache_dir: Path | None = None) -> subprocess.CompletedProcess:
    """mypy over :data:`PACKAGES` laid out as installed, under pyproject.toml's configuration;
    its cache in ``cache_dir`` when given (kept for the next run), else thrown away with the layout."""
    with tempfile.TemporaryDirectory() as place:
        lay_out(Path(place))
        args = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                "--cache-dir", str(cache_dir or Path(place) / ".mypy_cache")]
        args += [arg for package in PACKAGES for arg in ("-p", package)]
        done = subprocess.run(args + list(extra), cwd=place, capture_output=True, text=True, timeout=900,
                              check=False)
    done.stdout = _repository_paths(done.stdout)
    return done


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory) -> Path:
    """One mypy cache for this file's two runs: the second (a copy with one wrong function)
    re-reads the unchanged modules and the libraries' stubs from the first run's cache instead
    of checking everything again, which was half of this file's time. mypy re-checks a module
    whose text differs (it compares the source's hash, not its path), so the wrong function
    is still checked and reported."""
    return tmp_path_factory.mktemp("mypy_cache")


def test_mypy_finds_nothing(mypy_cache):
    pytest.importorskip("mypy", reason="mypy is not installed (the test extra brings it)")
    done = run_mypy(cache_dir=mypy_cache)
    assert done.returncode == 0, done.stdout[-12000:] + done.stderr[-2000:]
    assert "Success: no issues found" in done.stdout, done.stdout[-2000:]


def test_a_type_error_is_found(tmp_path, monkeypatch, mypy_cache):
    """The check sees the packages' code: a wrong annotation added to a copy is reported,
    at its repository path."""
    pytest.importorskip("mypy", reason="mypy is not installed (the test extra brings it)")
    copy = tmp_path / "repo"
    for folder in LAYOUT:
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__"))
    shutil.copyfile(ROOT / "pyproject.toml", copy / "pyproject.toml")
    with (copy / "engine" / "runtime" / "scoring.py").open("a", encoding="utf-8") as out:
        out.write("\n\ndef _wrong() -> int:\n    return 'a'\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", copy)
    done = run_mypy(cache_dir=mypy_cache)
    assert done.returncode == 1
    assert "engine/runtime/scoring.py:" in done.stdout and "[return-value]" in done.stdout, done.stdout[-3000:]


def test_the_state_views_are_the_schema():
    """The typed views of the state (the core's and each stock mechanic's ``state_view.py``)
    are what the state schema makes of them (rewrite them with `make docs`), and no mechanic
    keeps a view of fields it no longer has."""
    views = docs.state_views(stock_registry())
    for name, text in views.items():
        path = ROOT / name
        assert path.exists() and path.read_text(encoding="utf-8") == text, \
            f"{name} differs from the state schema: run `make docs` and commit"
    kept = {path.relative_to(ROOT).as_posix() for path in (ROOT / "mechanics").glob("*/state_view.py")}
    assert kept <= set(views), f"state views of no mechanic's fields: {sorted(kept - set(views))}"


def test_a_state_view_declares_each_exported_field_with_its_type():
    """A field's type in the view follows its shape: the phase a name, a number an int, a row
    or a list a list of ints, one per player a list of those."""
    fields = {f.name: f for f in schema.CORE_FIELDS}
    assert [schema.python_type(fields[name]) for name in ("phase", "seed", "owner", "offer", "trains", "hands",
                                                          "tickets")] \
        == ["str", "int", "list[int]", "list[int]", "list[int]", "list[list[int]]", "list[list[int]]"]
    declared = schema.StateView.__annotations__
    assert list(declared) == [f.name for f in schema.exported(schema.CORE_FIELDS)]
    assert "owned" not in declared  # derived: the compiled engine's cache, not the reference's


def test_a_mechanic_adds_capabilities_in_any_order():
    """Mechanic and the capabilities are generic (in the rule's class), and a subclass of a
    mechanic may add any capability: their method resolution order always exists (a class
    of Mechanic alone, then one adding a capability, failed so once)."""
    for capability in CAPABILITIES:
        alone = type("Alone", (Mechanic,), {})
        assert issubclass(type("Added", (alone, capability), {}), capability)
        for other in CAPABILITIES:
            if other is not capability:
                both = type("Both", (Mechanic, capability), {})
                assert issubclass(type("More", (both, other), {}), other)


def stub_names(stub: Path) -> set[str]:
    """The public names a stub defines at its top level: classes, functions, variables."""
    names = set()
    for node in ast.parse(stub.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return {name for name in names if not name.startswith("_")}


def class_members(stub: Path) -> dict[str, set[str]]:
    """For each class of a stub, the public names of its body (methods, properties, attributes)."""
    out = {}
    for node in ast.parse(stub.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members.add(item.target.id)
            out[node.name] = {m for m in members if not m.startswith("_")}
    return out


@pytest.mark.parametrize("module", sorted(STUBS))
def test_a_stub_names_what_its_compiled_module_defines(module):
    """A compiled module's stub declares each public name the module has (the Python
    modules it imports aside), and each public member of its classes; nothing more."""
    compiled = importlib.import_module(module)
    stub = STUBS[module]
    defined = {name for name, value in vars(compiled).items() if not name.startswith("_")
               and not isinstance(value, type(sys)) and getattr(value, "__module__", module) == module}
    assert stub_names(stub) == defined
    for name, members in class_members(stub).items():
        cls = getattr(compiled, name)
        # a mechanic's methods are put in Engine's dict as its variants are loaded
        # (engine_face._MechanicMethod): the stub's __getattr__ stands for them
        own = {m for m, value in vars(cls).items() if not m.startswith("_")
               and type(value).__name__ != "_MechanicMethod"}
        assert members == own, f"{module}.{name}"


if __name__ == "__main__":
    report = run_mypy(*sys.argv[1:])
    print(report.stdout + report.stderr, end="")
    sys.exit(report.returncode)
