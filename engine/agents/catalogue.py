"""The action catalogue arranged for agents: each id's kind and parameters in flat lists,
built once per variant, so an agent's decision reads lists instead of dataclasses."""
from __future__ import annotations

from ..compiler import ir


class Catalogue:
    """Flat views of a variant's actions (``kind``, ``route``, ``colour``, card counts)."""

    def __init__(self, variant: ir.Variant):
        actions = variant.actions
        self.kind = [a.kind for a in actions]
        self.route = [a.route for a in actions]
        self.colour = [a.colour for a in actions]
        self.colour_cards = [a.colour_cards for a in actions]
        self.locomotives = [a.locomotives for a in actions]
        self.ferry_cards = [a.ferry_cards for a in actions]
        self.mask = [a.mask for a in actions]
        self.company = [a.company for a in actions]
        self.locomotive_card = len(variant.colours)
        # kind_end[a]: the first id after a's run of same-kind actions
        self.kind_end = [0] * len(actions)
        end = len(actions)
        for a in range(len(actions) - 1, -1, -1):
            if a + 1 < len(actions) and actions[a + 1].kind != actions[a].kind:
                end = a + 1
            self.kind_end[a] = end
        # route_ids[r]: the run of ids claiming route r
        layout = variant.claim_layout
        self.route_ids = []
        for first, last in layout.route_blocks:
            blocks = layout.blocks[first:last]
            self.route_ids.append((blocks[0].start, blocks[-1].end) if blocks else (0, 0))


_CATALOGUES: dict[int, Catalogue] = {}
_VARIANTS: dict[int, ir.Variant] = {}


def catalogue_of(variant: ir.Variant) -> Catalogue:
    """The flat catalogue of a variant, built on first use."""
    key = id(variant)
    if _VARIANTS.get(key) is not variant:
        _CATALOGUES[key] = Catalogue(variant)
        _VARIANTS[key] = variant
    return _CATALOGUES[key]
