"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class BonusCardsState(StateView):
    """The state of a game with bonus cards (end-game awards drawn at set-up) (mechanic
    ``bonus_cards``) as the type checker sees it: the core's fields and the mechanic's own. The
    object is the reference interpreter's ``PlainState``."""

    #: the bonus cards dealt at set-up, face up (ids in the spec's order of 'bonus card' lines)
    bonus_cards: list[int]
