"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class GoodsState(StateView):
    """The state of a game with goods cards (mechanic ``goods``) as the type checker sees it: the
    core's fields and the mechanic's own. The object is the reference interpreter's
    ``PlainState``."""

    #: each player's goods cards (face up: public)
    goods: list[int]
    #: goods cards not yet taken
    goods_pile: int
