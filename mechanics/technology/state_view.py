"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations

from ...compiler.base.state_view import StateView


class TechnologyState(StateView):
    """The state of a game with technology cards bought with locomotives (mechanic ``technology``)
    as the type checker sees it: the core's fields and the mechanic's own. The object is the
    reference interpreter's ``PlainState``."""

    #: each player's technologies, a bit per technology (public)
    technologies: list[int]
    #: the copies of each technology left to buy
    technology_supply: list[int]
    #: 1 once the player to move has bought a technology this turn
    technology_bought: int
    #: each player's points from technologies for the routes claimed
    technology_points: list[int]
    #: each route's second owner, who claimed it from its owner (-1: none)
    technology_shared: list[int]
    #: the route whose claim waits for its sets' cards (-1: none)
    technology_route: int
    #: the technology whose purchase waits for its sets' cards (-1: none)
    technology_buying: int
    #: that claim's colour cards and locomotives, a count per card: out of the hand, not yet discarded
    technology_held: list[int]
    #: the sets' cards given so far, a count per card
    technology_given: list[int]
    #: the sets' cards still to give
    technology_left: int
