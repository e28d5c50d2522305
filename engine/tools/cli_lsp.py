"""The command line's ``lsp``: the language server for editors, over stdin and stdout.

    railspec lsp

Kept apart from :mod:`railspec.tools.cli`, which registers it with :func:`add_commands`.
The server (:mod:`railspec.tools.lsp.server`) needs the ``lsp`` extra (pygls, lsprotocol),
so it is imported only when the command runs: loading it would slow every start of the
command line, and an install without the extra gets one line saying what to install.
"""
from __future__ import annotations

import importlib.util

from .args import UsageError

#: The packages of the ``lsp`` extra.
EXTRA = ("pygls", "lsprotocol")


def require_extra() -> None:
    """A UsageError naming the extra to install when its packages are missing."""
    missing = [name for name in EXTRA if importlib.util.find_spec(name) is None]
    if missing:
        raise UsageError(f"lsp: the language server needs {' and '.join(missing)}: pip install railspec[lsp]")


def cmd_lsp(args) -> int:
    """``lsp``: serve one editor until it exits the server; 0 when it asked for a
    shutdown first, 1 otherwise."""
    require_extra()
    # imported when the command runs: the lsp extra is optional (tests/test_layers.py, OPTIONAL)
    from .lsp import server

    return server.serve()


def add_commands(sub, formatter) -> None:
    """Register ``lsp`` with the command line's subparsers."""
    p = sub.add_parser("lsp", help="the language server for editors (Language Server Protocol over stdio; "
                                   "needs railspec[lsp])", formatter_class=formatter)
    p.set_defaults(run=cmd_lsp)
