"""Builds the compiled modules: each committed generated/<variant>.pyx becomes the
extension module railspec.generated.<variant>, compiler/engine_face.pyx the Python face they
share, and engine/playtest/agents/_policy.pyx the scripted agents' styles; and lists the
packages, every folder with an ``__init__.py`` under the folders pyproject.toml's
``package-dir`` maps into the import name ``railspec`` (a new mechanic's folder is found,
not listed). Everything else is in pyproject.toml."""
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

HERE = Path(__file__).parent
#: The repository's folders and the packages they hold (as pyproject.toml's package-dir).
ROOTS = {"engine": "railspec", "compiler": "railspec.compiler", "mechanics": "railspec.mechanics",
         "generated": "railspec.generated", "spec": "railspec.spec"}


def packages() -> list[str]:
    """Every package under the mapped folders (a root's own package included)."""
    found = []
    for folder, name in ROOTS.items():
        found.append(name)
        found.extend(f"{name}.{sub}" for sub in find_packages(str(HERE / folder)))
    return sorted(found)


modules = [
    Extension(f"railspec.generated.{pyx.stem}", [str(pyx.relative_to(HERE))],
              extra_compile_args=["-O3", "-g0"])
    for pyx in sorted((HERE / "generated").glob("*.pyx"))
]
# The scripted agents' compiled styles: one module for every variant, speaking to the
# engines through compiler/templates/engine_api.h (declared to Cython by engine_api.pxd).
# The Python face of every engine (its Engine class and playout), compiled once: a variant's
# module subclasses it and binds it to its own functions (compiler/templates/engine.pyx.j2).
modules.append(Extension("railspec.compiler.engine_face", ["compiler/engine_face.pyx"],
                         include_dirs=["compiler/templates"], extra_compile_args=["-O2", "-g0"]))
modules.append(Extension("railspec.playtest.agents._policy", ["engine/playtest/agents/_policy.pyx"],
                         include_dirs=["compiler/templates"], extra_compile_args=["-O3", "-g0"]))
setup(packages=packages(),
      ext_modules=cythonize(modules, language_level=3, quiet=True, include_path=["compiler/templates"],
                            compiler_directives={"boundscheck": False, "wraparound": False,
                                                 "cdivision": True, "initializedcheck": False}))
