"""The scoring pipeline's last step, the same for every caller: breakdown rows to winners.

Either engine turns a state into breakdown rows (the core's items, then each mechanic's,
then ``total``; docs/engine.md "Scoring"); :func:`winners` ranks them by total and then by
the variant's tie-break keys, each defined by the core or by a mechanic
(``Mechanic.tiebreaks``). Games, the reference's playouts, ``railspec.score``, the CLI,
traces and the conformance suite all call it. The compiled playout ranks its games the same
way in C from :func:`tiebreak_plan`, the keys as data; a key that is only a function sends
the tied games back here.
"""
from __future__ import annotations

import gc

from ..compiler import ir


def tiebreak_keys(variant: ir.Variant):
    """The variant's tie-break keys, resolved to their definitions, in order."""
    keys = []
    for name in variant.tiebreaks:
        tb = variant.registry.tiebreak(name)
        if tb is None:  # the checker refuses unknown keys: an IR made by other means
            raise ValueError(f"{variant.name}: unknown tie-break key {name!r}")
        keys.append(tb)
    return keys


def winners(variant: ir.Variant, breakdown: list[dict]) -> list[int]:
    """The winning seats: most points, then the variant's tie-breakers in order (among the
    players still tied, those with the highest key stay); players still level share the
    win."""
    candidates = list(range(len(breakdown)))
    keys = [lambda row, rows: row["total"]] + [tb.key for tb in tiebreak_keys(variant)]
    for key in keys:
        if len(candidates) == 1:
            break
        value = {p: key(breakdown[p], breakdown) for p in candidates}
        best = max(value.values())
        candidates = [p for p in candidates if value[p] == best]
    return candidates


def _columns(result: dict, breakdown_keys) -> dict:
    """A playout result's lists by breakdown key (``total`` is its ``totals``)."""
    return {key: result["totals" if key == "total" else key] for key in breakdown_keys}


def _game_rows(columns: dict, game: int, players: int) -> list[dict]:
    return [{key: values[game][p] for key, values in columns.items()} for p in range(players)]


def rows_of_playout(result: dict, breakdown_keys) -> list[list[dict]]:
    """Per game, the breakdown rows of a playout result (whose lists are per item)."""
    columns = _columns(result, breakdown_keys)
    return [_game_rows(columns, g, len(totals)) for g, totals in enumerate(result["totals"])]


def tiebreak_plan(variant: ir.Variant, breakdown_keys) -> tuple[tuple[int, int, bool], ...] | None:
    """The variant's tie-break keys as data the compiled playout reads, one
    ``(breakdown column index, sign, best of all)`` a key (``TieBreak.compiled``), in
    order; None when a key has no such form (a mechanic's function of the rows only), and
    the tied games must then come to :func:`winners`."""
    index = {key: k for k, key in enumerate(breakdown_keys)}
    plan = []
    for tb in tiebreak_keys(variant):
        form = tb.compiled
        if form is None or form[0] not in index:
            return None
        column, sign, best = form
        plan.append((index[column], sign, best))
    return tuple(plan)


def playout_winners(variant: ir.Variant, result: dict, breakdown_keys, at_best=None) -> list[list[int]]:
    """The winners of every game of a playout result. A game whose best total is one
    player's needs no tie-break and no breakdown rows (most games: building the rows of
    every game cost more than the games' own scoring); the others go through
    :func:`winners`. ``at_best``, when the engine gave them (the compiled playout's
    ``winners`` with no tie-break keys: each game's seats at the best total), saves
    finding the best totals."""
    columns = _columns(result, breakdown_keys)
    out = []
    # a list a game, none garbage while they are made: with the cyclic collector running,
    # its passes over the playout's own lists cost as much as the loop (half of it, for
    # 20,000 games)
    collecting = gc.isenabled()
    gc.disable()
    try:
        totals = result["totals"]
        if at_best is None:
            at_best = [[p for p, total in enumerate(row) if total == best] for row in totals for best in (max(row),)]
        for g, seats in enumerate(at_best):
            out.append(seats if len(seats) == 1 else winners(variant, _game_rows(columns, g, len(totals[g]))))
    finally:
        if collecting:
            gc.enable()
    return out
