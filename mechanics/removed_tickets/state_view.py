"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class RemovedTicketsState(StateView):
    """The state of a game with returned tickets removed from the game (mechanic
    ``removed_tickets``) as the type checker sees it: the core's fields and the mechanic's own.
    The object is the reference interpreter's ``PlainState``."""

    #: tickets returned that left the game, in the order returned
    tickets_out: list[int]
