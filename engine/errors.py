"""The error types, at their public path ``railspec.errors``: they live in the bottom layer
(:mod:`railspec.compiler.base.errors`), which every other layer imports."""
from .compiler.base.errors import *  # noqa: F401,F403
from .compiler.base.errors import __all__  # noqa: F401
