"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class CityControlState(StateView):
    """The state of a game with city markers (mechanic ``city_control``) as the type checker sees
    it: the core's fields and the mechanic's own. The object is the reference interpreter's
    ``PlainState``."""

    #: each city's marker: the player who put it there (-1: none)
    marker_owner: list[int]
    #: each player's start city (-1: not chosen yet)
    start_city: list[int]
    #: each player's markers not placed
    markers_left: list[int]
    #: each player's route points from their markers (claims by anyone ending at them)
    marker_won: list[int]
    #: each player's route points of their own claims that went to markers instead
    marker_lost: list[int]
    #: the route just claimed, whose free end may get a marker (-1: none)
    marker_route: int
    #: the city of the marker being paid for (-1: none)
    marker_city: int
    #: the city where Alvin stands
    alvin_city: int
    #: the player who captured Alvin last (-1: nobody yet)
    alvin_holder: int
    #: 1 while Alvin's capturer has still to move him (their marker first)
    alvin_pending: int
    #: each player's points from capturing Alvin
    alvin_won: list[int]
