"""The language of tunnels: the route attribute ``tunnel`` and ``tunnels reveal N``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...compiler.lang import ast


@dataclass(frozen=True)
class TunnelAttr(ast.RouteAttr):
    rule: ClassVar[str] = "tunnel_attr"
    form: ClassVar[str] = "tunnel"
    name: ClassVar[str] = "tunnel"


@dataclass(frozen=True)
class TunnelReveal(ast.Stmt):
    rule: ClassVar[str] = "tunnel_reveal"
    words: ClassVar[str] = "tunnels reveal"
    form: ClassVar[str] = "tunnels reveal N"
    merge: ClassVar[str] = ast.SCALAR
    count: ast.Num
