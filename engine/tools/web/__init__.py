"""``railspec play``: a variant played against the agents, or a trace replayed, on a local
web page (docs/play.md).

:mod:`.sessions` holds the games and replays and builds what the page is sent, in plain
Python; :mod:`.saves` keeps saved games on the server's side (the page knows them by
name); :mod:`.server` is the Starlette app over them (the ``play`` extra); ``static/`` the
page itself, plain HTML, CSS and JavaScript served as they are.
"""
from __future__ import annotations

from ...compiler.base.errors import RailspecError


class MissingExtraError(RailspecError, ImportError):
    """Starlette or uvicorn is not installed."""


def require_extra() -> None:
    """Return when the ``play`` extra's libraries import; else :class:`MissingExtraError`,
    one line saying what to install."""
    try:
        import starlette  # noqa: F401  (only whether it is there)
        import uvicorn  # noqa: F401
    except ImportError:
        raise MissingExtraError("railspec play needs the play extra: pip install 'railspec[play]'") from None


__all__ = ["MissingExtraError", "require_extra"]
