"""Shared fixtures: the USA variant, both engines, and a way to arrange a position.

Rule tests build exact situations by editing a real game's state (moving cards between
piles so every card stays accounted for) and loading it with ``game_from_state``, which
checks the state first: a test cannot build an impossible position by accident.
"""
from __future__ import annotations

import copy
import os

import pytest
from hypothesis import HealthCheck, settings

import railspec

# Hypothesis profiles for the property-based tests (tests/test_stateful.py): "ci", few
# and short runs, the same examples every time; "long", many more
# (RAILSPEC_HYPOTHESIS_PROFILE=long). No example database is kept in either.
settings.register_profile("ci", max_examples=5, stateful_step_count=12, deadline=None, database=None,
                          derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=200, stateful_step_count=60, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("RAILSPEC_HYPOTHESIS_PROFILE", "ci"))

ENGINES = ["reference", "compiled"]


def implemented_stock_variants() -> list:
    """The stock variants whose mechanics the engines implement (the others are refused at
    load with UnsupportedMechanicError and are covered by the checker's tests only)."""
    from railspec.compiler import stock_names
    loaded = []
    for name in stock_names():
        try:
            loaded.append(railspec.load(name))
        except railspec.UnsupportedMechanicError:
            continue
    return loaded


@pytest.fixture(scope="session")
def usa():
    return railspec.load("usa")


@pytest.fixture(params=ENGINES)
def engine(request):
    return request.param


def names(game) -> list[str]:
    return [game.action_name(a) for a in game.legal_actions()]


def start_turns(v, players: int, seed: int = 1, engine: str = "reference", keep: str = "keep tickets 1,2,3"):
    """A new game with every player's dealt tickets kept: the first turn is next."""
    g = v.new_game(players=players, seed=seed, engine=engine)
    while g.state()["phase"] == "setup_keep":
        g.apply_name(keep)
    return g


class Arranged:
    """Edits a state while keeping every card where exactly one pile holds it."""

    def __init__(self, v, game):
        self.v = v
        self.state = copy.deepcopy(game.state())
        self.loco = len(v.colours)

    def card(self, name: str) -> int:
        if name == "loco":
            return self.loco
        return next(c.id for c in self.v.colours if c.name == name)

    def _take(self, card: int) -> None:
        """Remove one card of this kind from the deck, else the discards, else a face-up slot."""
        s = self.state
        if card in s["deck"]:
            s["deck"].remove(card)
        elif s["discard"][card]:
            s["discard"][card] -= 1
        elif card in s["faceup"]:
            s["faceup"][s["faceup"].index(card)] = -1
        else:
            for hand in s["hands"]:
                if hand[card]:
                    hand[card] -= 1
                    return
            raise AssertionError(f"no card {card} left to move")

    def clear_hands(self) -> "Arranged":
        for hand in self.state["hands"]:
            for card, n in enumerate(hand):
                self.state["discard"][card] += n
                hand[card] = 0
        return self

    def hand(self, player: int, **cards) -> "Arranged":
        """Give ``player`` exactly these cards (the rest of their hand goes to the discards)."""
        s = self.state
        for card, n in enumerate(s["hands"][player]):
            s["discard"][card] += n
            s["hands"][player][card] = 0
        for name, n in cards.items():
            cid = self.card(name)
            for _ in range(n):
                self._take(cid)
                s["hands"][player][cid] += 1
        return self

    def faceup(self, *names_: str) -> "Arranged":
        s = self.state
        for card in s["faceup"]:
            if card >= 0:
                s["discard"][card] += 1
        s["faceup"] = [-1] * len(s["faceup"])
        for slot, name in enumerate(names_):
            cid = self.card(name)
            self._take(cid)
            s["faceup"][slot] = cid
        return self

    def deck_top(self, *names_: str) -> "Arranged":
        """Put these cards on top of the deck, the last named on the very top."""
        for name in names_:
            cid = self.card(name)
            self._take(cid)
            self.state["deck"].append(cid)
        return self

    def everything_to_discard(self) -> "Arranged":
        s = self.state
        for card in s["deck"]:
            s["discard"][card] += 1
        s["deck"] = []
        return self

    def own(self, player: int, *route_names: str) -> "Arranged":
        s = self.state
        for name in route_names:
            r = self.v.ir.route_named(name)
            s["owner"][r.id] = player
            s["trains"][player] -= r.length
            s["route_score"][player] += self.v.ir.route_points[r.length]
        return self

    def set(self, **fields) -> "Arranged":
        self.state.update(fields)
        return self

    def game(self, engine: str):
        return self.v.game_from_state(self.state, engine=engine)
