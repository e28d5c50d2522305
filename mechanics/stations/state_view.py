"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class StationsState(StateView):
    """The state of a game with train stations (mechanic ``stations``) as the type checker sees it:
    the core's fields and the mechanic's own. The object is the reference interpreter's
    ``PlainState``."""

    #: each city's station: the player who built it (-1: none)
    station_owner: list[int]
    #: the city of the station being paid for (-1: none)
    station_city: int
