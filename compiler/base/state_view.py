"""The reference interpreter's state as the type checker sees it (see the class).

Made by ``make docs`` (compiler/docs.py) from the state schema: do not edit; a test
compares."""
from __future__ import annotations


class StateView:
    """The state of a game in the reference interpreter as the type checker sees it: one
    attribute per exported field of the core's state schema (compiler/base/schema.py,
    ``CORE_FIELDS``), of the type ``schema.python_type`` gives. The object is always the
    interpreter's ``PlainState``, a subclass whose attributes are set from the variant's schema.

    A mechanic's fields are not declared here: each stock mechanic's are in its folder
    (``state_view.py``, a subclass of this class), so that the core names no mechanic
    (tests/test_naming.py). There is no ``__getattr__`` fallback either, so that a misspelt field
    is an error. A reference class that extends ``MechanicReference`` without naming a state view
    sees its state untyped (``Any``): a mechanic from elsewhere can write a view of its own with
    ``schema.view_source``."""

    #: number of players
    players: int
    #: the game's seed (mod 2^64)
    seed: int
    #: the state of the game's generator
    rng: int
    #: what the player to move decides (see the phases)
    phase: str
    #: the seat to decide; -1 once the game is over
    current: int
    #: turns completed
    turn: int
    #: actions applied
    decisions: int
    #: turns left in the last round; -1 before it starts
    final_turns: int
    #: turns in a row that ended with a pass
    passes: int
    #: the train deck; the last entry is the top card
    deck: list[int]
    #: discarded train cards, a count per card
    discard: list[int]
    #: the face-up market, a card per slot (-1: empty)
    faceup: list[int]
    #: the ticket deck; the first entry is the top ticket
    ticket_deck: list[int]
    #: tickets drawn and being chosen from
    offer: list[int]
    #: the least number of offered tickets to keep
    offer_keep: int
    #: each route's owner (-1: unowned)
    owner: list[int]
    #: each player's train cards, a count per card
    hands: list[list[int]]
    #: each player's trains left
    trains: list[int]
    #: each player's route points so far
    route_score: list[int]
    #: each player's tickets kept, in the order kept
    tickets: list[list[int]]
    #: each player's dealt tickets not yet decided
    setup_offer: list[list[int]]
