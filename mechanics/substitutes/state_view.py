"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class SubstitutesState(StateView):
    """The state of a game with sets of any cards standing for one card (mechanic ``substitutes``)
    as the type checker sees it: the core's fields and the mechanic's own. The object is the
    reference interpreter's ``PlainState``."""

    #: the route whose claim waits for its any cards (-1: none)
    substitute_route: int
    #: the claim's colour cards and locomotives, a count per card: out of the hand, not yet discarded
    substitute_held: list[int]
    #: the any cards given so far for that claim, a count per card
    substitute_given: list[int]
    #: the any cards still to give for that claim
    substitute_left: int
