"""The scripted agents' compiled kernel (``_policy.pyx``, built by the package's build),
reached through :func:`kernel` so that a source checkout whose extensions are not built yet
still imports: checking and compiling specs, the reference engine and every command that
plays no scripted agent work without it."""
from __future__ import annotations

from ...compiler.base.errors import RailspecError

try:
    from . import _policy
except ImportError:  # the extension is not built: only the scripted agents need it
    _policy = None


def kernel():
    """The compiled kernel module, or a :class:`RailspecError` saying how to build it."""
    if _policy is None:
        raise RailspecError("the scripted agents' compiled kernel (railspec.playtest.agents._policy) is not built "
                            "in this installation: `make install` (or `pip install -e .`) builds it")
    return _policy
