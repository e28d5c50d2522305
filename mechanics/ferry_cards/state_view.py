"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class FerryCardsState(StateView):
    """The state of a game with ferry cards and wave spaces (mechanic ``ferry_cards``) as the type
    checker sees it: the core's fields and the mechanic's own. The object is the reference
    interpreter's ``PlainState``."""

    #: each player's ferry cards (alike: a count, public)
    ferry_cards: list[int]
    #: ferry cards not held
    ferry_pile: int
    #: ferry cards spent and out of the game ('ferry cards spent removed')
    ferry_removed: int
    #: ferry cards paid towards a claim another mechanic holds (a tunnel's): out of the hand, spent when
    #: the claim completes, back in the hand when it is given up (only in variants where a mechanic may
    #: hold a claim)
    ferry_committed: int
