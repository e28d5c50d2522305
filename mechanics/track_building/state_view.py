"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class TrackBuildingState(StateView):
    """The state of a game with track beds built with track pieces (mechanic ``track_building``) as
    the type checker sees it: the core's fields and the mechanic's own. The object is the
    reference interpreter's ``PlainState``."""

    #: the colour of the piece built on each track bed (-1: none yet; kept once claimed)
    bed_colour: list[int]
    #: track pieces on the board, by colour and length (colour × PIECE_LENGTHS + length)
    pieces_out: list[int]
