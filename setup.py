"""Builds the compiled modules: each committed generated/<variant>.pyx becomes the
extension module railspec.generated.<variant>, and engine/agents/_policy.pyx the scripted
agents' styles. Everything else is in pyproject.toml."""
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
modules = [
    Extension(f"railspec.generated.{pyx.stem}", [str(pyx.relative_to(HERE))],
              extra_compile_args=["-O3", "-g0"])
    for pyx in sorted((HERE / "generated").glob("*.pyx"))
]
# The scripted agents' compiled styles: one module for every variant, speaking to the
# engines through compiler/templates/engine_api.h.
modules.append(Extension("railspec.agents._policy", ["engine/agents/_policy.pyx"],
                         include_dirs=["compiler/templates"], extra_compile_args=["-O3", "-g0"]))
setup(ext_modules=cythonize(modules, language_level=3, quiet=True,
                            compiler_directives={"boundscheck": False, "wraparound": False,
                                                 "cdivision": True, "initializedcheck": False}))
