"""The agents ask a mechanic what claims and options bring now (AgentPlay.worth_now,
option_worth_now; docs/agents.md) only at the decisions where some legal claim or option is
one it may price (railspec.playtest.agents.tables.worth_now): asking before every decision,
as they once did, must choose the same actions. Every action of seeded games is compared,
the mechanics asked everywhere (``tables._ask_always``) and only where they may matter, on
the stock variants whose mechanics give figures, on both engines, for the scripted styles
and ISMCTS's root. The games are also played untold, to show that the figures change some
choices in them (else the comparison could not tell a path that never asks from one that
asks where it should).
"""
from __future__ import annotations

import pytest

import railspec
from railspec.playtest import agents
from railspec.playtest.agents import tables
from railspec.playtest.agents.ismcts import IsmctsAgent

#: The stock variants a mechanic of which gives figures: bullet trains, technologies, bonus cards.
TOLD = ("japan", "united_kingdom", "northern_lights")
STYLES = ("one-step", "greedy", "long-route", "route-focus", "destination-hungry")


def _actions(v, players: int, seed: int, engine: str, told: bool) -> list[int]:
    """Every action of one seeded game, seat s playing style ``STYLES[(seed + s) % 5]``."""
    seats = [agents.make(STYLES[(seed + s) % len(STYLES)], seed=seed * 7 + s, worth_now=told) for s in range(players)]
    g = v.new_game(players=players, seed=seed, engine=engine)
    actions = []
    while not g.is_over:
        action = seats[g.current_player].act(g)
        actions.append(action)
        g.apply(action)
    return actions


def _both_paths(monkeypatch, play):
    """``play()`` with the mechanics asked before every decision, then only where they may matter."""
    monkeypatch.setattr(tables, "_ask_always", True)
    always = play()
    monkeypatch.setattr(tables, "_ask_always", False)
    return always, play()


@pytest.mark.parametrize("engine", ["compiled", "reference"])
@pytest.mark.parametrize("name", TOLD)
def test_scripted_choices_are_those_of_asking_always(monkeypatch, name, engine):
    """Seeded games at every player count from 2 to 4 (the five styles in turn across the
    seats), every action the same whether the mechanics are asked before each decision or
    only where a legal claim or option is one they may price; and some game's actions differ
    untold, so the figures were read in these games."""
    v = railspec.load(name)
    games = 10 if engine == "compiled" else 2
    differ = 0
    for players in range(max(2, v.ir.min_players), min(4, v.ir.max_players) + 1):
        for seed in range(games):
            always, asked = _both_paths(monkeypatch, lambda players=players, seed=seed:
                                        _actions(v, players, seed, engine, told=True))
            assert asked == always, f"{name}, {players} players, seed {seed}"
            differ += _actions(v, players, seed, engine, told=False) != asked
    assert differ > 0, f"{name}: the figures changed no choice in these games"


@pytest.mark.parametrize("name", TOLD)
def test_ismcts_root_choices_are_those_of_asking_always(monkeypatch, name):
    """ISMCTS tells its root's portfolio the same figures: along a seeded game played by the
    scripted styles, its choice at every fifth decision is the same either way."""
    v = railspec.load(name)
    g = v.new_game(players=3, seed=5)
    seats = [agents.make(STYLES[s], seed=s) for s in range(3)]
    compared = 0
    while not g.is_over and compared < 12:
        if len(g.legal_actions()) > 1 and g.state()["decisions"] % 5 == 0:
            always, asked = _both_paths(monkeypatch, lambda seed=compared: IsmctsAgent(seed=seed, iterations=12).act(g))
            assert asked == always
            compared += 1
        g.apply(seats[g.current_player].act(g))
    assert compared == 12
