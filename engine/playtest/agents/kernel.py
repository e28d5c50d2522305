"""The scripted agents' compiled kernel (``_policy.pyx``, built by the package's build),
reached through :func:`kernel` so that a source checkout whose extensions are not built yet
still imports: checking and compiling specs, the reference engine and every command that
plays no scripted agent work without it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ...compiler.base.errors import RailspecError

if TYPE_CHECKING:
    from ._policy import Policy, Seat


class Kernel(Protocol):
    """What the agents use of the kernel module (its stub, ``_policy.pyi``, has the types): a
    protocol, so that the module :func:`kernel` returns is checked against it."""

    STYLES: dict[str, int]
    OTHER: int
    RULES: dict[str, int]
    CORE_KINDS: dict[str, int]
    ASK_CLAIMS: int
    ASK_OPTIONS: int
    SEAT_DECIDE: Any
    SEAT_RENEW: Any
    Policy: type[Policy]
    Seat: type[Seat]


_kernel: Kernel | None
try:
    from . import _policy
    _kernel = _policy
except ImportError:  # the extension is not built: only the scripted agents need it
    _kernel = None


def kernel() -> Kernel:
    """The compiled kernel module, or a :class:`RailspecError` saying how to build it."""
    if _kernel is None:
        raise RailspecError("the scripted agents' compiled kernel (railspec.playtest.agents._policy) is not built "
                            "in this installation: `make install` (or `pip install -e .`) builds it")
    return _kernel
