"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class BulletTrainsState(StateView):
    """The state of a game with Bullet Train routes (mechanic ``bullet_trains``) as the type
    checker sees it: the core's fields and the mechanic's own. The object is the reference
    interpreter's ``PlainState``."""

    #: the shared Bullet Train pieces left
    bullet_pieces: int
    #: each player's place on the Bullet Train track: the cards they paid for bullet routes taken for
    #: nobody
    bullet_track: list[int]
