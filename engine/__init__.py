"""railspec: a rules compiler and fast game engine for the Ticket to Ride family.

    import railspec
    v = railspec.load("usa")
    g = v.new_game(players=4, seed=7)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    print(g.scores())

See README.md for the tour and docs/ for the language, the engine contract and the rules
decisions.
"""
from __future__ import annotations

from .compiler.base.errors import (
    ArgumentError,
    ArgumentTypeError,
    IllegalActionError,
    MechanicContractError,
    ProvisionalSpecWarning,
    RailspecError,
    Span,
    SpecCheckError,
    SpecError,
    SpecSyntaxError,
    UnsupportedMechanicError,
)
from .runtime.game import Game, Variant, load
from .runtime.position import PositionError
from .runtime.state_format import StateError

__version__ = "0.1.0"


def score(variant: Variant | str, position: dict, tickets: bool = False) -> list[dict]:
    """Score a described position: per player the core's items (routes, tickets,
    tickets_completed), each mechanic's, total and winner; with ``tickets``, also
    ``ticket_results``: each ticket held, completed or not, its points and the place they
    are for (docs/formats.md). ``variant`` is a loaded variant or a stock name or spec path."""
    if not isinstance(variant, Variant):
        variant = load(variant)
    return variant.score(position, tickets=tickets)


__all__ = ["load", "score", "Game", "Variant", "RailspecError", "SpecError", "SpecSyntaxError",
           "SpecCheckError", "UnsupportedMechanicError", "MechanicContractError", "IllegalActionError",
           "ArgumentError", "ArgumentTypeError", "PositionError", "StateError", "ProvisionalSpecWarning",
           "Span", "__version__"]
