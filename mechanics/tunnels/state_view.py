"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class TunnelsState(StateView):
    """The state of a game with tunnels (mechanic ``tunnels``) as the type checker sees it: the
    core's fields and the mechanic's own. The object is the reference interpreter's
    ``PlainState``."""

    #: the tunnel whose claim waits for a decision (-1: none)
    tunnel_route: int
    #: the cards played for that tunnel, a count per card: out of the hand, not yet discarded
    tunnel_committed: list[int]
    #: the cards revealed for a tunnel this turn, discarded at the end of the turn
    tunnel_revealed: list[int]
