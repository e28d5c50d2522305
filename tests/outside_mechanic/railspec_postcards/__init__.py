"""Postcards: a mechanic that lives outside railspec, in a distribution of its own.

No rulebook has it; it exists to show that a new rule needs no edit of railspec: a
statement, an action, a route attribute, a payment column, state fields, hooks in both
engines, a score item, a tie-break key, a position key, the agents' play and the map's
marks, all from this folder. railspec finds it through the ``railspec.mechanics``
entry-point group (this distribution's pyproject.toml).

The rules:

- ``postcards N max M score P``: N postcards wait at the post office; a player holds at
  most M of them; at the end each postcard a player still holds scores P;
- ``action buy postcard``: a turn may buy one from the post office (the whole turn), while
  it has one and the player holds fewer than M;
- ``route A - B L COLOUR scenic K``: up to K of a scenic route's spaces may be paid with
  postcards instead of cards, one postcard a space (a payment column: ``claim … 1red+1post``);
  postcards paid go back to the post office;
- ``tiebreak most postcards``: among tied players, those holding the most postcards.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from railspec.compiler import ir
from railspec.compiler.base.errors import PositionError, Span
from railspec.compiler.base.limits import MAX_PILE, MAX_POINTS, Limit
from railspec.compiler.base.schema import Field
from railspec.compiler.hooks import MechanicReference
from railspec.compiler.mechanic import (
    AgentPlay,
    AgentRules,
    DescribedPositions,
    Drawing,
    Invariants,
    Looks,
    Mechanic,
    Payments,
    PositionKey,
    Sample,
    Sampled,
    ScoreItem,
    Tables,
    TieBreak,
)

from .syntax import BuyPostcard, PostcardsStmt, ScenicAttr

BUY_POSTCARD = "buy_postcard"
#: The payment column: postcards paid for a scenic route's spaces.
POSTCARD_COLUMN = ir.PaymentColumn("postcards", "postcards", "post")


@dataclass(frozen=True)
class PostcardsRule(ir.Rule):
    mechanic: ClassVar[str] = "postcards"
    count: int       # postcards at the post office at the start
    hand_limit: int  # the most a player holds
    points: int      # what each postcard held at the end scores
    scenic: tuple[tuple[int, int], ...] = ()  # (route id, spaces postcards may pay)
    span: Span | None = field(default=None, compare=False)

    def spaces(self, route: int) -> int:
        return dict(self.scenic).get(route, 0)


class PostcardsReference(MechanicReference):
    """Postcards in the reference interpreter."""

    def __init__(self, rules, rule: PostcardsRule):
        super().__init__(rules, rule)
        self.buy = next(a.id for a in rules.variant.actions if a.kind == BUY_POSTCARD)

    def turn_actions(self, state) -> list[int]:
        if state.post_office > 0 and state.postcards[state.current] < self.rule.hand_limit:
            return [self.buy]
        return []

    def apply(self, state, action) -> None:
        state.post_office -= 1
        state.postcards[state.current] += 1
        self.rules.end_turn(state, passed=False)

    def payment_ok(self, state, block, player: int) -> bool:
        return self.rules.variant.paid_by_block(block, POSTCARD_COLUMN.name) <= state.postcards[player]

    def claim_pay(self, state, action) -> None:
        paid = self.rules.variant.paid(action, POSTCARD_COLUMN.name)
        state.postcards[state.current] -= paid
        state.post_office += paid

    def score_player(self, state, player: int, row: dict, network) -> None:
        row["postcards_held"] = state.postcards[player]
        row["postcard_points"] = self.rule.points * state.postcards[player]


class Postcards(Mechanic, Payments, DescribedPositions, Invariants, AgentRules, Drawing, Sampled):
    name = "postcards"
    title = "postcards (a mechanic from outside railspec)"
    sample = Sample(("postcards 12 max 3 score 2", "action buy postcard"), route=" scenic 1")
    rule = PostcardsRule
    statements = (PostcardsStmt, BuyPostcard, ScenicAttr)
    payment_columns = (POSTCARD_COLUMN,)
    state_fields = (
        Field("postcards", "each player's postcards (public)", owner="postcards", per_player=True,
              high="POSTCARD_LIMIT"),
        Field("post_office", "postcards not held", owner="postcards", high="POSTCARD_COUNT",
              initial="POSTCARD_COUNT"),
    )
    kinds = (BUY_POSTCARD,)
    reference = PostcardsReference
    score_items = (
        ScoreItem("postcards_held", "how many postcards the player holds", False, "postcards", label="cards"),
        ScoreItem("postcard_points", "the points of the postcards the player holds", True, "postcards",
                  label="post"),
    )
    tiebreaks = (TieBreak("most_postcards", "most postcards", "the most postcards held",
                          lambda row, rows: row["postcards_held"], owner="postcards",
                          unavailable="tie-break on postcards, but the variant has no postcards"),)
    position_keys = (PositionKey("postcards", "how many postcards the player holds"),)
    limits = (Limit("postcards N max M score P", f"1 ≤ M ≤ N ≤ {MAX_PILE:,}; P 0 … {MAX_POINTS:,}",
                    "the size of a pile; a points value"),)

    def check(self, ctx) -> PostcardsRule | None:
        stmt = ctx.one(PostcardsStmt)
        action = ctx.action(BUY_POSTCARD)
        if action and not stmt:
            ctx.errors.add(action.span, "'action buy postcard' needs a 'postcards N max M score P' statement")
        if stmt and not action:
            ctx.errors.add(stmt.span, "postcards are declared but no 'action buy postcard' buys them")
        for route, length in ctx.board.attributed:
            scenic = route.attr(ScenicAttr.name)
            if scenic is None:
                continue
            if not 0 < scenic.value.value <= length:
                ctx.errors.add(scenic.value_span, f"a scenic route of length {length} cannot take "
                                                  f"{scenic.value.value} postcards")
            if not stmt:
                ctx.errors.add(scenic.span, "a scenic route needs postcards: add 'postcards N max M score P'")
        if not stmt:
            return None
        count = ctx.positive(stmt.count, "the number of postcards", most=MAX_PILE)
        hand_limit = ctx.positive(stmt.hand_limit, "the postcard hand limit")
        if count and hand_limit > count:
            ctx.errors.add(stmt.hand_limit.span, f"a postcard hand limit of {hand_limit}, but there are {count} "
                                                 f"postcards")
        points = ctx.points(stmt.points, "the points of a postcard")
        scenic = tuple((route.id, attr.value.value) for route, attr in ctx.routes_with(ScenicAttr.name)
                       if 0 < attr.value.value <= route.length)
        return PostcardsRule(count=count, hand_limit=hand_limit, points=points, scenic=scenic, span=stmt.span)

    def payment_shapes(self, variant, rule: PostcardsRule, route, shapes):
        """A scenic route: one payment block more for each space paid by a postcard."""
        spaces = rule.spaces(route.id)
        return [replace(s, plain=s.plain - k, paid=s.paid + ((POSTCARD_COLUMN.name, k),))
                for s in shapes for k in range(min(spaces, s.plain) + 1)] if spaces else shapes

    def actions(self, variant, rule) -> list[dict]:
        return [dict(kind=BUY_POSTCARD, name="buy postcard")]

    def dimensions(self, variant, rule: PostcardsRule) -> dict[str, int]:
        return {"POSTCARD_COUNT": rule.count, "POSTCARD_LIMIT": rule.hand_limit}

    def score_bound(self, variant, rule: PostcardsRule) -> int:
        return rule.points * rule.hand_limit

    def tables(self, variant, rule: PostcardsRule) -> Tables:
        buy = next(a.id for a in variant.actions if a.kind == BUY_POSTCARD)
        return Tables(constants=[("ACT_BUY_POSTCARD", buy), ("POSTCARD_POINTS", rule.points)],
                      arrays=[("T_ACT_POSTCARDS", [variant.paid(a, POSTCARD_COLUMN.name) for a in variant.actions]),
                              ("T_BLOCK_POSTCARDS", [variant.paid_by_block(b, POSTCARD_COLUMN.name)
                                                     for b in variant.claim_layout.blocks])])

    def state_problems(self, variant, rule: PostcardsRule, state: dict) -> list[str]:
        held = sum(state["postcards"])
        if held + state["post_office"] != rule.count:
            return [f"{held} postcards held and {state['post_office']} at the post office: the game has "
                    f"{rule.count}"]
        return []

    def agent_play(self, variant, rule) -> AgentPlay:
        """A postcard is bought for a wanted route that takes postcards."""
        return AgentPlay(rules={BUY_POSTCARD: "payment_draw"})

    def looks(self, variant, rule: PostcardsRule) -> Looks:
        """A scenic route's badge: P and the spaces postcards may pay."""
        return Looks(badges={route: f"P{n}" for route, n in rule.scenic})

    def position(self, variant, rule: PostcardsRule, player: int, seat: dict, fields: dict) -> None:
        count = seat.get("postcards", 0)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= rule.hand_limit:
            raise PositionError(f"player {player}: 'postcards' is a number of postcards, 0 to {rule.hand_limit}, "
                                f"got {count!r}")
        held = fields.setdefault("postcards", [0] * fields["players"])
        held[player] = count
        if sum(held) > rule.count:
            raise PositionError(f"the players hold {sum(held)} postcards, the game has {rule.count}")
        fields["post_office"] = rule.count - sum(held)

    def seat_position(self, variant, rule, state: dict, player: int) -> dict:
        return {"postcards": state["postcards"][player]}
