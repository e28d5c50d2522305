"""The games of a tuning run: several specs played on the same seeds in one balance campaign.

A :class:`TunePlan` is a :class:`~railspec.playtest.balance.CampaignPlan` whose games are
those of several specs one after the other: game ``i`` is spec ``i // per_spec``'s game
``i % per_spec``, seeded and seated as that game of a plain campaign (the same seeds for
every spec: common random numbers). A worker sends back each game's :class:`Outcome`, not
its record: who won and, when the target needs them, the tickets and routes. When every
seat holds a scripted style the game is played inside the compiled engine
(``Policy.playout``), the same game the agents play through the API (a test checks it).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

from ...runtime.game import Game, Variant, load
from .. import balance
from ..agents.kernel import kernel
from ..agents.scripted import SCRIPTED_SALT
from ..agents.tables import policy_of
from .target import Outcome


@dataclass(frozen=True)
class TunePlan(balance.CampaignPlan):
    """The games of ``specs`` (stock names or spec paths, as :func:`railspec.load` takes
    them), ``per_spec`` each, on the same seeds; ``variant`` is the first spec (the one
    every other is compared with). ``tickets`` and ``routes``: whether an outcome lists
    the tickets held and completed, and the routes claimed."""

    specs: tuple[str, ...] = ()
    per_spec: int = 0
    tickets: bool = False
    routes: bool = False

    def play(self, variant: Variant, game: int) -> Outcome:
        """The outcome of game ``game`` of the plan (``variant``: the first spec's, loaded
        by the worker; the others are loaded here, once per worker)."""
        spec = self.specs[game // self.per_spec]
        return outcome(_loaded(spec, self.specs), self, game % self.per_spec)


_LOADED: dict[str, Variant] = {}


def _loaded(spec: str, keep: tuple[str, ...]) -> Variant:
    """The variant of ``spec``, loaded once; variants of specs not in ``keep`` (a former
    plan's) are let go, so a process that runs many rounds does not hold them all."""
    variant = _LOADED.get(spec)
    if variant is None:
        for old in [name for name in _LOADED if name not in keep]:
            del _LOADED[old]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            variant = _LOADED[spec] = load(spec)
    return variant


def outcome(variant: Variant, plan: balance.CampaignPlan, game: int) -> Outcome:
    """Play game ``game`` of ``plan`` on ``variant`` and return its outcome."""
    finished = _played(variant, plan, game)
    winners = finished.winners()
    fraction = 1.0 / len(winners)
    wins = tuple(fraction if p in winners else 0.0 for p in range(plan.players))
    want_tickets = getattr(plan, "tickets", False)
    want_routes = getattr(plan, "routes", False)
    if not (want_tickets or want_routes):
        return Outcome(wins)
    state = finished.state()
    held = tuple(tuple(state["tickets"][p]) for p in range(plan.players)) if want_tickets else ()
    done = tuple(tuple(finished.completed_tickets(p)) for p in range(plan.players)) if want_tickets else ()
    claimed = tuple(r for r, owner in enumerate(state["owner"]) if owner >= 0) if want_routes else ()
    return Outcome(wins, held, done, claimed)


def _played(variant: Variant, plan: balance.CampaignPlan, game: int) -> Game:
    """Game ``game`` of ``plan`` played to its end: inside the compiled engine when every
    seat is a scripted style, else through the agents' API."""
    names = plan.seats(game)
    styles = kernel().STYLES
    if plan.engine != "compiled" or not all(name in styles for name in names):
        return balance.played_game(variant, plan, game)[0]
    seed, agent_seeds = plan.game_seeds(game)
    played = variant.new_game(players=plan.players, seed=seed)
    # the seats a ScriptedAgent would make from the same seeds: the same choices
    seats = [kernel().Seat(styles[name], (s % 2**64) ^ SCRIPTED_SALT) for name, s in zip(names, agent_seeds)]
    policy_of(variant.ir).playout(played._e, [styles[name] for name in names], seats)
    return played


def outcome_of_record(record: dict) -> Outcome:
    """The outcome a balance campaign's record holds (what :func:`outcome` computes for
    the same game)."""
    seats = record["seats"]
    winners = [s["seat"] for s in seats if s["winner"]]
    wins = tuple(1.0 / len(winners) if s["winner"] else 0.0 for s in seats)
    return Outcome(wins, tuple(tuple(s["tickets"]) for s in seats), tuple(tuple(s["completed"]) for s in seats),
                   tuple(r for r, owner in enumerate(record["owner"]) if owner >= 0))
