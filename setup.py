"""Builds the stock variants' engines: each committed generated/<variant>.pyx becomes the
extension module railspec.generated.<variant>. Everything else is in pyproject.toml."""
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
modules = [
    Extension(f"railspec.generated.{pyx.stem}", [str(pyx.relative_to(HERE))],
              extra_compile_args=["-O3", "-g0"])
    for pyx in sorted((HERE / "generated").glob("*.pyx"))
]
setup(ext_modules=cythonize(modules, language_level=3, quiet=True,
                            compiler_directives={"boundscheck": False, "wraparound": False,
                                                 "cdivision": True, "initializedcheck": False}))
