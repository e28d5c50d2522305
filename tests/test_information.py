"""What a player sees holds nothing the rules hide from them.

For every stock variant: whenever a player makes a hidden choice (which tickets to keep),
the worlds that follow two different choices of the same public size (as many tickets
kept) must look the same to every other player: the same ``observation()`` and the same
RL observation vector. A field or count that leaks the choice (Europe once published the
number of regular tickets boxed at set-up, which told everyone whether each player kept
their long ticket: docs/rules.md #24) makes two worlds differ here.

The other half, that a world drawn by ``resample`` for a player keeps everything that
player sees, is tests/test_agents.py's ``test_resample_keeps_what_the_player_sees``.
"""
from __future__ import annotations

import itertools

import pytest
from conftest import implemented_stock_variants

from railspec.compiler.base.rng import SplitMix64

np = pytest.importorskip("numpy")

VARIANTS = implemented_stock_variants()


def _hidden_choices(g):
    """Pairs of legal actions of the player to move that choose different hidden things of
    the same public size: keep decisions keeping as many tickets."""
    by_size: dict[int, list[int]] = {}
    for a in g.legal_actions():
        action = g.variant.ir.actions[a]
        if action.kind == "keep_tickets":
            by_size.setdefault(bin(action.mask).count("1"), []).append(a)
    return [pair for same in by_size.values() for pair in itertools.combinations(same, 2)]


def _seen_by(g, player: int, size: int):
    vector = np.zeros(size, dtype=np.float32)
    g.observation_into(player, vector)
    return g.observation(player), vector.tobytes()


@pytest.mark.parametrize("v", VARIANTS, ids=[v.key for v in VARIANTS])
@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_another_players_hidden_choice_changes_nothing_a_player_sees(v, engine):
    size = v.observation_spec().size
    compared = 0
    for seed in range(6 if engine == "compiled" else 2):
        players = v.ir.min_players + seed % (v.ir.max_players - v.ir.min_players + 1)
        g = v.new_game(players=players, seed=seed, engine=engine)
        rng = SplitMix64(seed)
        while not g.is_over:
            chooser = g.current_player
            pairs = _hidden_choices(g)
            for first, second in pairs[:: max(1, len(pairs) // 3)]:
                worlds = [g.clone(), g.clone()]
                worlds[0].apply(first)
                worlds[1].apply(second)
                for other in range(players):
                    if other == chooser:
                        continue
                    seen = [_seen_by(w, other, size) for w in worlds]
                    assert seen[0][0] == seen[1][0], (
                        f"player {other} tells apart player {chooser}'s {v.ir.actions[first].name!r} and "
                        f"{v.ir.actions[second].name!r}: " + ", ".join(
                            k for k in seen[0][0] if seen[0][0][k] != seen[1][0][k]))
                    assert seen[0][1] == seen[1][1], f"player {other}'s observation vector differs"
                    compared += 1
            legal = g.legal_actions()
            g.apply(legal[rng.below(len(legal))])
    assert compared >= 10
