"""A test mechanic that fills every hook of both engines: inspectors.

No rulebook has it; it exists so that the differential suite checks, before a variant
needs them, that both engines call each hook at the same point of play and in the same
order of random draws. Its rules:

- set-up piles: the inspectors 0 … 4 are shuffled (with the game's generator) into a pile;
- set-up offer: a player whose first dealt ticket has an even id starts with one inspection;
- claim payment: each claim a player pays for is counted; locomotives are not wild on
  3-car routes (their cards must all be of one colour);
- before a claim completes: a claim of a 2-car route waits for an inspection (a phase of
  the mechanic, the payment discarded at once): ``inspect yes`` completes it and counts
  an inspection, ``inspect no`` withdraws it (the cards stay paid);
- after a claim: claiming a 1-car route opens an inspection too (``yes`` counts one);
- taken for nobody: a route whose id is a multiple of 3, claimed by a player with an
  inspection or more, is taken for no player (no trains, no route points), and such claims
  are counted;
- end of turn: the face-up locomotives showing before the refill are counted;
- end trigger: a player with five inspections or more starts the last round; the core's
  trigger also needs an even count of face-up locomotives seen (the end gate);
- draws: a face-up card of the first colour is the whole draw for a player holding three
  inspections or more; the market is not dealt again while a claim waits for its inspection;
- game over: a flag is set;
- scoring graph: every player's network joins the two ends of route 0;
- one ticket: a ticket whose id is a multiple of 7 is worth twice its points, completed or
  not;
- per player: one point per inspection; awards: 3 to the players with the most;
- tie-break ``most inspections``; position key ``inspections``; an engine method
  ``inspections_of``; a derived field (the compiled engine's total of inspections).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from railspec.compiler import ir
from railspec.compiler.base.rng import shuffle_in_state
from railspec.compiler.base.schema import PH_TURN, Field
from railspec.compiler.hooks import MechanicReference
from railspec.compiler.mechanic import (
    DescribedPositions,
    Invariants,
    Mechanic,
    Payments,
    PositionKey,
    Query,
    Questions,
    ScoreItem,
    Tables,
    TieBreak,
)

INSPECT_YES, INSPECT_NO, INSPECTION = "inspect_yes", "inspect_no", "inspection"
INSPECTORS = 5


@dataclass(frozen=True)
class InspectorRule(ir.Rule):
    mechanic: ClassVar[str] = "inspector"
    award: int


class InspectorReference(MechanicReference):
    def __init__(self, rules, rule: InspectorRule):
        super().__init__(rules, rule)
        self.routes = rules.variant.routes
        self.yes = next(a.id for a in rules.variant.actions if a.kind == INSPECT_YES)
        self.no = next(a.id for a in rules.variant.actions if a.kind == INSPECT_NO)

    def methods(self) -> dict:
        return {"inspections_of": lambda state, player: state.inspections[player],
                "inspected_total": lambda state: sum(state.inspections)}

    def phase_legal(self, state) -> list[int]:
        return [self.yes, self.no]

    def apply(self, state, action) -> None:
        self.inspect(state, action.kind == INSPECT_YES)

    def faceup_cost(self, state, card: int, cost: int) -> int:
        return 2 if card == 0 and state.inspections[state.current] >= 3 else cost

    def market_resets(self, state, resets: bool) -> bool:
        return resets and state.pending_route == -1

    def end_triggered(self, state, player: int) -> bool:
        return state.inspections[player] >= 5

    def ticket_score(self, state, player: int, ticket: int, network: list[int]):
        if ticket % 7:
            return None
        t = self.rules.variant.tickets[ticket]
        nodes = self.rules.variant.city_nodes
        done = any(network[n] in {network[m] for m in nodes[t.a]} for n in nodes[t.b])
        return (2 * t.points if done else -2 * t.points), done

    def inspect(self, state, yes: bool) -> None:
        player, route = state.current, state.pending_route
        state.pending_route = -1
        state.phase = PH_TURN
        if yes:
            state.inspections[player] += 1
            if route >= 0:
                self.rules.complete_claim(state, self.routes[route], player)
        elif route >= 0:
            self.rules.withdraw_claim(state, self.routes[route], player)
        if state.phase == PH_TURN:
            self.rules.end_turn(state, passed=False)

    def setup_piles(self, state) -> None:
        state.inspector_pile = list(range(INSPECTORS))
        shuffle_in_state(state, state.inspector_pile)

    def setup_offer(self, state, player: int) -> None:
        if state.setup_offer[player] and state.setup_offer[player][0] % 2 == 0:
            state.inspections[player] += 1

    def claim_pay(self, state, action) -> None:
        state.claims_paid[state.current] += 1

    def claim_withdrawn(self, state, route, player: int) -> None:
        state.claims_paid[player] -= 1

    def before_claim_completes(self, state, action) -> bool:
        if self.routes[action.route].length == 2:
            self.rules.discard_payment(state, action.colour, action.colour_cards, action.locomotives)
            state.pending_route = action.route
            state.phase = INSPECTION
            return False
        return True

    def after_claim(self, state, route, player: int) -> None:
        if route.length == 1:
            state.phase = INSPECTION

    def takes_for_nobody(self, state, route, player: int) -> bool:
        return route.id % 3 == 0 and state.inspections[player] >= 1

    def after_nobody_claim(self, state, route, player: int) -> None:
        state.taken_for_nobody += 1

    def end_gate(self, state) -> bool:
        return state.locos_seen % 2 == 0

    def end_of_turn(self, state) -> None:
        state.locos_seen += state.faceup.count(len(self.rules.variant.colours))

    def game_over(self, state) -> None:
        state.game_finished = 1

    def score_graph(self, state, player: int, network: list[int], row: dict) -> None:
        a, b = network[self.routes[0].node_a], network[self.routes[0].node_b]
        for node, label in enumerate(network):
            if label == b:
                network[node] = a

    def score_player(self, state, player: int, row: dict, network) -> None:
        row["inspection_points"] = state.inspections[player]

    def score_awards(self, state, rows: list[dict]) -> None:
        best = max(state.inspections[:state.players])
        for player, row in enumerate(rows):
            row["inspection_award"] = self.rule.award if best > 0 and state.inspections[player] == best else 0


class Inspector(Mechanic, Payments, DescribedPositions, Invariants, Questions):
    name = "inspector"
    title = "inspectors (a test mechanic filling every hook)"
    rule = InspectorRule
    state_fields = (
        Field("inspector_pile", "the inspectors, shuffled at set-up", owner="inspector", cap="INSPECTORS",
              high="INSPECTORS-1"),
        Field("inspections", "each player's inspections", owner="inspector", per_player=True, high="100000"),
        Field("claims_paid", "each player's claims paid for", owner="inspector", per_player=True, high="100000"),
        Field("pending_route", "a claim waiting for its inspection (-1: none)", owner="inspector", low="-1",
              high="N_ROUTES-1", initial=-1, pending_claim=True),
        Field("locos_seen", "face-up locomotives at the ends of turns, before the refill", owner="inspector",
              high="100000000"),
        Field("game_finished", "1 once the game is over", owner="inspector", high="1"),
        Field("taken_for_nobody", "claims that took a route for no player", owner="inspector", high="100000"),
        Field("inspected_total", "every player's inspections (derived)", owner="inspector", high="100000000",
              derived=True),
    )
    phases = (INSPECTION,)
    kinds = (INSPECT_YES, INSPECT_NO)
    reference = InspectorReference
    score_items = (ScoreItem("inspection_points", "a point per inspection", True, "inspector"),
                   ScoreItem("inspection_award", "to the players with the most inspections", True, "inspector"))
    tiebreaks = (TieBreak("most_inspections", "most inspections", "the most inspections",
                          lambda row, rows: row["inspection_points"], owner="inspector",
                          unavailable="tie-break on inspections, but the variant has no inspectors"),)
    position_keys = (PositionKey("inspections", "how many inspections the player has"),)
    queries = (Query("inspections_of", "The player's inspections."),
               Query("inspected_total", "Every player's inspections.", player=False))

    def check(self, ctx) -> InspectorRule:
        return InspectorRule(award=3)

    def actions(self, variant, rule) -> list[dict]:
        return [dict(kind=INSPECT_YES, name="inspect yes"), dict(kind=INSPECT_NO, name="inspect no")]

    def dimensions(self, variant, rule) -> dict[str, int]:
        return {"INSPECTORS": INSPECTORS}

    def payment_shapes(self, variant, rule, route, shapes):
        return [replace(s, wild=False) for s in shapes] if route.length == 3 else shapes

    def tables(self, variant, rule: InspectorRule) -> Tables:
        ids = {a.kind: a.id for a in variant.actions}
        return Tables(constants=[("ACT_INSPECT_YES", ids[INSPECT_YES]), ("ACT_INSPECT_NO", ids[INSPECT_NO]),
                                 ("INSPECTION_AWARD", rule.award)])

    def state_problems(self, variant, rule, state) -> list[str]:
        if state["pending_route"] != -1 and state["phase"] != INSPECTION:
            return ["a claim waits for an inspection outside the inspection phase"]
        return []

    def position(self, variant, rule, player: int, seat: dict, fields: dict) -> None:
        fields.setdefault("inspections", [0] * fields["players"])[player] = int(seat.get("inspections", 0))

    def seat_position(self, variant, rule, state: dict, player: int) -> dict:
        return {"inspections": state["inspections"][player]}
