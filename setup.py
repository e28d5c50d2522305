"""Builds the compiled modules: each committed generated/<variant>.pyx becomes the
extension module railspec.generated.<variant> (and the Cython translation of its code is
kept in generated/translations/ for builds of specs with the same mechanics),
compiler/engine_face.pyx the Python face they share, engine/playtest/agents/_policy.pyx
(with the .pxi parts it includes) the scripted agents' styles, engine/rl/_vector.pyx the
batched games, and each mechanic's own compiled modules (every mechanics/<name>/*.pyx
becomes railspec.mechanics.<name>.<stem>: the algorithms its engine.pyx.j2 cimports, such
as the longest path's search); and lists the packages, every folder with an
``__init__.py`` under the folders pyproject.toml's ``package-dir`` maps into the import
name ``railspec`` (a new mechanic's folder is found, not listed).
Everything else is in pyproject.toml."""
import gzip
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import Cython
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

HERE = Path(__file__).parent
#: The repository's folders and the packages they hold (as pyproject.toml's package-dir).
ROOTS = {"engine": "railspec", "compiler": "railspec.compiler", "mechanics": "railspec.mechanics",
         "generated": "railspec.generated", "spec": "railspec.spec"}
#: A mechanic's tests sit in its folder (mechanics/NAME/tests/), outside the package.
TESTS = ["tests", "*.tests", "*.tests.*"]


def packages() -> list[str]:
    """Every package under the mapped folders (a root's own package included), a
    mechanic's tests (mechanics/NAME/tests/) left out: they are not part of railspec."""
    found = []
    for folder, name in ROOTS.items():
        found.append(name)
        found.extend(f"{name}.{sub}" for sub in find_packages(str(HERE / folder), exclude=TESTS))
    return sorted(found)


def _numbers_block():
    """compiler/numbers_block.py, loaded by path (railspec is not installed yet; the module
    imports nothing of it)."""
    spec = importlib.util.spec_from_file_location("_railspec_numbers_block", HERE / "compiler" / "numbers_block.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mechanic_pxds() -> dict[str, Path]:
    """Each mechanic's .pxd files (the C interface of its compiled modules) by the dotted
    name of their module: mechanics/<name>/<stem>.pxd is railspec.mechanics.<name>.<stem>."""
    return {f"{ROOTS['mechanics']}.{pxd.parent.name}.{pxd.stem}": pxd
            for pxd in sorted((HERE / "mechanics").glob("*/*.pxd"))}


def place_pxds(folder: Path, names) -> None:
    """Copy the .pxd of each module ``names`` lists that a mechanic ships into ``folder``,
    at its package's path (railspec/mechanics/<name>/<stem>.pxd), where Cython looks for a
    cimported module's declarations: the source tree's folders are not the package's.
    Copies keep their times, so cythonize translates again only what changed."""
    pxds = mechanic_pxds()
    for name in names:
        if name in pxds:
            target = folder.joinpath(*name.split(".")).with_suffix(".pxd")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(pxds[name], target)


def write_translations() -> None:
    """generated/translations/<key>.c.gz: Cython's translation of each stock variant's code
    (its module without its numbers), which a build of a spec with the same mechanics uses
    instead of running Cython (compiler/build.py). Translations already there are kept, old
    ones removed; the Cython runs go two at a time."""
    numbers_block = _numbers_block()
    folder = HERE / "generated" / "translations"
    folder.mkdir(exist_ok=True)
    codes = {}
    pxds = mechanic_pxds()
    for pyx in sorted((HERE / "generated").glob("*.pyx")):
        code, _header = numbers_block.split(pyx.read_text(encoding="utf-8"))
        cimported = tuple(pxds[name].read_text(encoding="utf-8") for name in numbers_block.cimports(code)
                          if name in pxds)
        codes[numbers_block.code_key(code, Cython.__version__, cimported)] = code
    for old in folder.glob("*.c.gz"):
        if old.name[:-len(".c.gz")] not in codes:
            old.unlink()
    missing = [key for key in sorted(codes) if not (folder / f"{key}.c.gz").is_file()]
    with tempfile.TemporaryDirectory() as tmp:
        running = []
        for key in missing:
            name = numbers_block.module_name(key)
            (Path(tmp) / f"{name}.pyx").write_text(codes[key], encoding="utf-8")
            place_pxds(Path(tmp), numbers_block.cimports(codes[key]))
            running.append((key, subprocess.Popen(numbers_block.cython_command(sys.executable, f"{name}.pyx",
                                                                               f"{name}.c"), cwd=tmp)))
            if len(running) == 2 or key == missing[-1]:
                for done, process in running:
                    if process.wait() != 0:
                        raise SystemExit(f"Cython failed on the code of a stock variant ({done})")
                    c_text = (Path(tmp) / f"{numbers_block.module_name(done)}.c").read_bytes()
                    (folder / f"{done}.c.gz").write_bytes(gzip.compress(c_text, compresslevel=9, mtime=0))
                running = []


write_translations()
# The mechanics' .pxd files where Cython finds them when it translates the modules that
# cimport them (the generated engines, a mechanic's modules cimporting each other).
_pxd_folder = tempfile.TemporaryDirectory()
place_pxds(Path(_pxd_folder.name), mechanic_pxds())
modules = [
    Extension(f"railspec.generated.{pyx.stem}", [str(pyx.relative_to(HERE))],
              extra_compile_args=["-O3", "-g0"])
    for pyx in sorted((HERE / "generated").glob("*.pyx"))
]
# The scripted agents' compiled styles: one module for every variant (_policy.pyx and the
# _planner.pxi and _styles.pxi it includes), speaking to the engines through
# compiler/templates/engine_api.h (declared to Cython by engine_api.pxd).
# The Python face of every engine (its Engine class and playout), compiled once: a variant's
# module subclasses it and binds it to its own functions (compiler/templates/engine.pyx.j2).
modules.append(Extension("railspec.compiler.engine_face", ["compiler/engine_face.pyx"],
                         include_dirs=["compiler/templates"], extra_compile_args=["-O2", "-g0"]))
modules.append(Extension("railspec.playtest.agents._policy", ["engine/playtest/agents/_policy.pyx"],
                         include_dirs=["compiler/templates"], extra_compile_args=["-O3", "-g0"]))
# Each mechanic's compiled modules: the algorithms a variant's engine cimports, compiled
# once here rather than in every variant (so a user's spec compiles only its own code).
modules += [Extension(f"{ROOTS['mechanics']}.{pyx.parent.name}.{pyx.stem}", [str(pyx.relative_to(HERE))],
                      extra_compile_args=["-O3", "-g0"])
            for pyx in sorted((HERE / "mechanics").glob("*/*.pyx"))]
# The batched games of railspec.rl.vector: many games of any variant stepped in C, through
# the same engine interface.
modules.append(Extension("railspec.rl._vector", ["engine/rl/_vector.pyx"],
                         include_dirs=["compiler/templates"], extra_compile_args=["-O3", "-g0"]))
setup(packages=packages(),
      ext_modules=cythonize(modules, language_level=3, quiet=True,
                            include_path=["compiler/templates", _pxd_folder.name],
                            compiler_directives={"boundscheck": False, "wraparound": False,
                                                 "cdivision": True, "initializedcheck": False}))
