"""The valid inputs the mutations start from: a small spec, the stock specs, and states,
positions and traces taken from seeded games of every stock variant the engines play.

Everything here is built deterministically (fixed seeds), once per worker process, so a
case is fully determined by its Hypothesis seed and its index in the batch.
"""
from __future__ import annotations

import functools
import random
import warnings
from pathlib import Path

import railspec
from railspec.compiler import stock_names, stock_path
from railspec.runtime.position import position_of_state
from railspec.tools import trace

#: The stock variants the campaign feeds positions, traces and states to.
VARIANTS = ("usa", "europe", "amsterdam", "italy", "pennsylvania")

# A small valid spec (tests/base.rail, the one tests/test_bad_specs.py edits line by line): checked in a
# few milliseconds, so most spec cases start from it; the stock specs are mutated too,
# less often, since checking one takes ten times longer.
BASE_SPEC = (Path(__file__).resolve().parent.parent / "tests" / "base.rail").read_text(encoding="utf-8")


@functools.cache
def variant(name: str):
    """A stock variant, loaded once per process (Amsterdam's provisional warning muted)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return railspec.load(name)


@functools.cache
def stock_spec_texts() -> tuple[str, ...]:
    """The text of every stock spec, those the engines do not play included."""
    return tuple(stock_path(n).read_text(encoding="utf-8") for n in stock_names())


def _games(name: str, count: int = 3):
    """Seeded random games of a variant on the compiled engine: yields (game, step) after
    every decision, the set-up included."""
    v = variant(name)
    counts = list(range(v.ir.min_players, v.ir.max_players + 1))
    for seed in range(1, count + 1):
        rng = random.Random(seed)
        game = v.new_game(players=counts[seed % len(counts)], seed=seed)
        step = 0
        yield game, step
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            step += 1
            yield game, step


@functools.cache
def states(name: str) -> tuple[dict, ...]:
    """States of a variant worth starting from: the first few decisions, every phase other
    than a plain turn (up to a few of each), turns at intervals, and finished games."""
    picked: list[dict] = []
    per_phase: dict[str, int] = {}
    for game, step in _games(name):
        state = game.state()
        phase = state["phase"]
        if step < 3 or game.is_over or step % 37 == 0:
            picked.append(state)
        elif phase != "turn" and per_phase.get(phase, 0) < 4:
            per_phase[phase] = per_phase.get(phase, 0) + 1
            picked.append(state)
    return tuple(picked)


def position_of(name: str, state: dict) -> dict:
    """The described position (docs/formats.md) of a state's board
    (:func:`railspec.runtime.position.position_of_state`)."""
    return position_of_state(variant(name).ir, state)


@functools.cache
def positions(name: str) -> tuple[dict, ...]:
    """Positions of the boards of :func:`states` (every one scores), plus an empty board."""
    v = variant(name)
    empty = {"variant": name, "players": [{"routes": [], "tickets": []} for _ in range(v.ir.min_players)]}
    return (empty,) + tuple(position_of(name, s) for s in states(name) if any(o >= 0 for o in s["owner"]))


@functools.cache
def traces(name: str) -> tuple[tuple[dict, ...], ...]:
    """Recorded traces (``railspec trace``) of two seeded games of a variant."""
    v = variant(name)
    counts = list(range(v.ir.min_players, v.ir.max_players + 1))
    return tuple(tuple(trace.record(v, counts[seed % len(counts)], seed)) for seed in (1, 2))


@functools.cache
def names(name: str) -> tuple[str, ...]:
    """Every name an input of the variant may use: routes, tickets, cities, card colours,
    a few action names, and the decision phases."""
    v = variant(name)
    ir = v.ir
    out = [r.name for r in ir.routes] + [t.name for t in ir.tickets] + [c.name for c in ir.cities]
    out += [c.name for c in ir.colours] + [a.name for a in ir.actions[:: max(1, len(ir.actions) // 40)]]
    out += list(v.assembly.phases)  # a state's phase swapped for another one
    return tuple(out)
