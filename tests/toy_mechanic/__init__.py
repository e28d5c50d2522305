"""A toy mechanic for tests: postcards. It lives here, outside railspec, to show that a
mechanic reaches both engines, the state, validation, observation and scoring from its
own folder, with no core file edited.

Rule: on a turn, instead of anything else, a player holding fewer than ``limit``
postcards may send one (the action ``send postcard``); it ends the turn. At the end each
postcard scores ``points``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from railspec.compiler import ir
from railspec.compiler.base.schema import Field
from railspec.compiler.mechanic import Mechanic, ScoreItem, Tables

SEND_POSTCARD = "send_postcard"


@dataclass(frozen=True)
class PostcardsRule(ir.Rule):
    mechanic: ClassVar[str] = "postcards"
    limit: int
    points: int


class PostcardsReference:
    def __init__(self, rules, rule: PostcardsRule):
        self.rules = rules
        self.rule = rule
        self.action = next(a.id for a in rules.variant.actions if a.kind == SEND_POSTCARD)
        self.apply = {SEND_POSTCARD: self.send}

    def turn_actions(self, state) -> list[int]:
        return [self.action] if state.postcards[state.current] < self.rule.limit else []

    def send(self, state, action) -> None:
        state.postcards[state.current] += 1
        self.rules.end_turn(state, passed=False)

    def score_player(self, state, player: int, row: dict, network) -> None:
        row["postcard_points"] = self.rule.points * state.postcards[player]


class Postcards(Mechanic):
    name = "postcards"
    title = "postcards (a test mechanic)"
    rule = PostcardsRule
    state_fields = (Field("postcards", "each player's postcards sent", owner="postcards", per_player=True,
                          high="POSTCARD_LIMIT"),)
    phases = ()
    kinds = (SEND_POSTCARD,)
    hooks = frozenset({"turn_actions", "apply", "score_player"})
    reference = PostcardsReference
    score_items = (ScoreItem("postcard_points", "points for postcards sent", True, "postcards"),)
    tiebreaks = ()
    position_keys = ()

    def __init__(self, limit: int = 3, points: int = 2):
        self.limit = limit
        self.points = points

    def check(self, ctx) -> PostcardsRule:
        return PostcardsRule(limit=self.limit, points=self.points)

    def actions(self, variant, rule) -> list[dict]:
        return [dict(kind=SEND_POSTCARD, name="send postcard")]

    def dimensions(self, variant, rule: PostcardsRule) -> dict[str, int]:
        return {"POSTCARD_LIMIT": rule.limit}

    def tables(self, variant, rule: PostcardsRule) -> Tables:
        action = next(a.id for a in variant.actions if a.kind == SEND_POSTCARD)
        return Tables(constants=[("ACT_SEND_POSTCARD", action), ("POSTCARD_POINTS", rule.points)])

    def state_problems(self, variant, rule, state) -> list[str]:
        return []
