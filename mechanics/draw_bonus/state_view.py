"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class DrawBonusState(StateView):
    """The state of a game with the draw bonus (train cards drawn after a claim) (mechanic
    ``draw_bonus``) as the type checker sees it: the core's fields and the mechanic's own. The
    object is the reference interpreter's ``PlainState``."""

    #: the train cards each player drew for claiming routes with a draw bonus
    bonus_drawn: list[int]
