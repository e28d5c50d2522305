"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class LongTicketsState(StateView):
    """The state of a game with long tickets (mechanic ``long_tickets``) as the type checker sees
    it: the core's fields and the mechanic's own. The object is the reference interpreter's
    ``PlainState``."""

    #: long tickets in the box: those not dealt, and those returned when 'returned long removed'; the first
    #: entry is the next dealt
    long_deck: list[int]
