"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class SharesState(StateView):
    """The state of a game with stock shares (mechanic ``shares``) as the type checker sees it: the
    core's fields and the mechanic's own. The object is the reference interpreter's
    ``PlainState``."""

    #: each share's holder, companies in order, numbers from 1: -1 in its stack, a player, the neutral
    #: (players), a neutral share revealed at the end (players+1)
    share_owner: list[int]
    #: the route whose companies a share is being chosen from (-1: none)
    share_route: int
