"""What the RL adapters share (``railspec.openspiel``, ``railspec.pettingzoo``,
``railspec.gymnasium``): the stock variants that load, the rewards at the end of a game,
and a game's position as text. Nothing here imports a third-party package.
"""
from __future__ import annotations

import warnings

from ..compiler import stock_names
from ..compiler.base.errors import ProvisionalSpecWarning, RailspecError, UnsupportedMechanicError
from ..playtest.render import render_svg
from ..runtime.game import Variant, load

#: The rewards an adapter may give at the end of a game: each player's final score, or
#: their share of the win (1 split among the winners after the tie-breakers).
REWARDS = ("score", "win")


def stock_variants() -> list:
    """The stock variants that load (one using a mechanic the engines lack is skipped)."""
    loaded = []
    for name in stock_names():
        try:
            loaded.append(load_variant(name))
        except UnsupportedMechanicError:
            continue
    return loaded


def load_variant(variant):
    """A loaded :class:`railspec.Variant` from itself, a stock name or a spec path
    (provisional specs load without their warning: an adapter is not the place to
    repeat it)."""
    if isinstance(variant, Variant):
        return variant
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ProvisionalSpecWarning)
        return load(variant)


def check_reward(reward: str) -> str:
    """``reward`` when it is one of :data:`REWARDS`, else a RailspecError."""
    if reward not in REWARDS:
        raise RailspecError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def final_rewards(game, reward: str) -> list[float]:
    """Each seat's reward: 0 until ``game`` is over; then the final score
    (``reward="score"``) or the seat's share of the win (``reward="win"``)."""
    if not game.is_over:
        return [0.0] * game.players
    if reward == "score":
        return [float(s) for s in game.scores()]
    winners = game.winners()
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(game.players)]


def render_game(game, mode: str):
    """What an environment's ``render()`` returns for a game in play: the SVG map
    (``svg``) or :func:`position_text` (``ansi``); RailspecError before any game."""
    if game is None:
        raise RailspecError("render() before reset(): there is no game yet")
    if mode == "svg":
        return render_svg(game.variant.ir, game.state())
    return position_text(game)


def position_text(game) -> str:
    """A game's position as a few lines of text: who decides, the market, each seat's
    trains, card and ticket counts, routes and score so far (nothing hidden)."""
    v = game.variant
    state = game.state()
    colours = [c.name for c in v.colours] + ["loco"]
    lines = [f"{v.name}, {game.players} players, turn {state['turn']}: "
             + ("game over" if game.is_over else f"player {game.current_player} to decide ({state['phase']})")]
    market = [colours[c] for c in state["faceup"] if c >= 0]
    lines.append(f"market: {' '.join(market) or '-'}; deck {len(state['deck'])}")
    scores = game.scores()
    for p in range(game.players):
        routes = [v.routes[r].name for r, o in enumerate(state["owner"]) if o == p]
        lines.append(f"player {p}: {state['trains'][p]} trains, {sum(state['hands'][p])} cards, "
                     f"{len(state['tickets'][p])} tickets, score {scores[p]}; routes: {', '.join(routes) or '-'}")
    return "\n".join(lines)
