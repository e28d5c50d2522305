"""Tunnels: claiming one may cost more cards than its length (Europe).

Europe rulebook, Gallerie: the player plays the cards for the route's length, then the
top three cards of the deck are revealed; each revealed card of the colour played, and
each revealed locomotive, costs one more card of that colour (or a locomotive). A player
who cannot or will not pay takes the cards back and the turn ends. Written as the route
attribute ``tunnel``; ``tunnels reveal N`` says how many cards are revealed (3 when the
spec does not say): ``syntax.py`` and ``grammar.lark``.

In both engines (docs/engine.md, "Tunnels"): the claim's payment leaves the hand, then
the cards are revealed one by one from the deck (``draw_card``: the discards are
reshuffled into an empty deck; fewer cards when fewer exist) into ``tunnel_revealed``.
The extra cards due are the revealed cards of the colour played, and the revealed
locomotives (only the locomotives when only locomotives were played). With none due the
claim completes as any other. Otherwise the payment waits in ``tunnel_committed``, the
claimed route in ``tunnel_route``, and the same player decides (phase ``tunnel``):
``tunnel pay …`` (exactly the cards due, of the colour played or locomotives) completes
the claim; ``tunnel decline`` gives the committed cards back and ends the turn. The
revealed cards are discarded at the end of the turn, before the market is refilled.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ...compiler import ir
from ...compiler.base.errors import Span
from ...compiler.base.limits import Limit
from ...compiler.base.schema import CARD_COUNTS, CARD_IDS, CORE_PHASES, PH_TURN, Field
from ...compiler.hooks import MechanicReference, Services
from ...compiler.mechanic import AgentPlay, AgentRules, Drawing, Invariants, Looks, Mechanic, Sample, Sampled, Tables
from .state_view import TunnelsState
from .syntax import TunnelAttr, TunnelReveal

TUNNEL_PAY = "tunnel_pay"
TUNNEL_DECLINE = "tunnel_decline"
PH_TUNNEL = "tunnel"
REVEALED_CARDS = 3  # the default of 'tunnels reveal N' (Europe, Gallerie)
#: The most cards a tunnel may reveal: the catalogue has a payment per extra card count.
MAX_REVEALED = 6


@dataclass(frozen=True)
class TunnelsRule(ir.Rule):
    mechanic: ClassVar[str] = "tunnels"
    reveal: int               # cards revealed from the deck for a tunnel
    routes: tuple[int, ...]   # the tunnel routes
    span: Span | None = field(default=None, compare=False)


def committed_colour(committed: list[int], loco: int) -> int:
    """The card kind a tunnel's extra cards must match: the colour played, or the
    locomotive when only locomotives were played."""
    return next((card for card in range(loco) if committed[card]), loco)


def extra_due(revealed: list[int], colour: int, loco: int) -> int:
    """Gallerie: one more card for each revealed card of the colour played and each
    revealed locomotive (only the locomotives when ``colour`` is the locomotive)."""
    return sum(1 for card in revealed if card == colour or card == loco)


def _is_payment_of(variant: ir.Variant, route: ir.Route, committed: list[int]) -> bool:
    """Whether the cards ``committed`` (a count per card) are one of the route's payments in
    the catalogue: so many cards of one colour it accepts and so many locomotives."""
    loco = len(variant.colours)
    colours = [card for card in range(loco) if committed[card]]
    if len(colours) > 1:
        return False
    for a in variant.actions[variant.claim_layout.blocks_of(route.id)[0].start:
                             variant.claim_layout.blocks_of(route.id)[-1].end]:
        if a.locomotives == committed[loco] and (
                (a.colour_cards == 0 and not colours) or (colours and a.colour == colours[0]
                                                          and a.colour_cards == committed[colours[0]])):
            return True
    return False


class TunnelsReference(MechanicReference[TunnelsState, TunnelsRule]):
    """Tunnels in plain Python."""

    def __init__(self, rules: Services, rule: TunnelsRule):
        super().__init__(rules, rule)
        self.loco = rules.loco
        actions = rules.variant.actions
        self.tunnels = set(rule.routes)
        self.pays = [a for a in actions if a.kind == TUNNEL_PAY]
        self.decline = next(a.id for a in actions if a.kind == TUNNEL_DECLINE)

    def before_claim_completes(self, state: TunnelsState, action: ir.Action) -> bool:
        route = self.rules.variant.routes[action.route]
        if route.id not in self.tunnels:
            return True
        for _ in range(self.rule.reveal):
            card = self.rules.draw_from_deck(state)
            if card == -1:
                break
            state.tunnel_revealed.append(card)
        colour = action.colour if action.colour_cards else self.loco
        if extra_due(state.tunnel_revealed, colour, self.loco) == 0:
            return True
        if action.colour_cards:
            state.tunnel_committed[action.colour] += action.colour_cards
        state.tunnel_committed[self.loco] += action.locomotives
        state.tunnel_route = route.id
        state.phase = PH_TUNNEL
        return False

    def phase_legal(self, state: TunnelsState) -> list[int]:
        return self.legal_tunnel(state)

    def apply(self, state: TunnelsState, action: ir.Action) -> None:
        (self.pay if action.kind == TUNNEL_PAY else self.withdraw)(state, action)

    def legal_tunnel(self, state: TunnelsState) -> list[int]:
        hand = state.hands[state.current]
        colour = committed_colour(state.tunnel_committed, self.loco)
        due = extra_due(state.tunnel_revealed, colour, self.loco)
        out = []
        for a in self.pays:
            if a.colour_cards + a.locomotives != due or hand[self.loco] < a.locomotives:
                continue
            if a.colour_cards and (colour == self.loco or hand[colour] < a.colour_cards):
                continue
            out.append(a.id)
        return out + [self.decline]

    def pay(self, state: TunnelsState, action: ir.Action) -> None:
        player = state.current
        colour = committed_colour(state.tunnel_committed, self.loco)
        hand = state.hands[player]
        hand[colour] -= action.colour_cards
        hand[self.loco] -= action.locomotives
        for card, count in enumerate(state.tunnel_committed):
            state.discard[card] += count
        state.tunnel_committed = [0] * (self.loco + 1)
        self.rules.discard_payment(state, colour, action.colour_cards, action.locomotives)
        route = self.rules.variant.routes[state.tunnel_route]
        state.tunnel_route = -1
        state.phase = PH_TURN
        self.rules.complete_claim(state, route, player)
        if state.phase == PH_TURN:
            self.rules.end_turn(state, passed=False)

    def withdraw(self, state: TunnelsState, action: ir.Action) -> None:
        """The committed cards go back to the hand, and so does what the claim paid in other
        mechanics' columns (a ferry card for a wave space: ``withdraw_claim``)."""
        hand = state.hands[state.current]
        for card, count in enumerate(state.tunnel_committed):
            hand[card] += count
        state.tunnel_committed = [0] * (self.loco + 1)
        route = self.rules.variant.routes[state.tunnel_route]
        state.tunnel_route = -1
        state.phase = PH_TURN
        self.rules.withdraw_claim(state, route, state.current)
        self.rules.end_turn(state, passed=False)

    def end_of_turn(self, state: TunnelsState) -> None:
        """Alla fine del turno, le tre carte scoperte per la Galleria vengono scartate."""
        for card in state.tunnel_revealed:
            state.discard[card] += 1
        state.tunnel_revealed = []


class Tunnels(Mechanic[TunnelsRule], Invariants[TunnelsRule], AgentRules[TunnelsRule], Drawing[TunnelsRule], Sampled):
    name = "tunnels"
    order = 90
    title = "tunnels"
    sample = Sample(("tunnels reveal 3",), route=" tunnel")
    rule = TunnelsRule
    state_fields = (
        Field("tunnel_route", "the tunnel whose claim waits for a decision (-1: none)", owner="tunnels",
              low="-1", high="N_ROUTES-1", initial=-1, pending_claim=True, names="route"),
        Field("tunnel_committed", "the cards played for that tunnel, a count per card: out of the hand, not yet "
                                  "discarded", owner="tunnels", size="N_CARDS", high="CARD_TOTAL", pile=CARD_COUNTS),
        Field("tunnel_revealed", "the cards revealed for a tunnel this turn, discarded at the end of the turn",
              owner="tunnels", cap="TUNNEL_REVEAL", high="LOCO", pile=CARD_IDS),
    )
    phases = (PH_TUNNEL,)
    kinds = (TUNNEL_PAY, TUNNEL_DECLINE)
    reference = TunnelsReference
    statements = (TunnelAttr, TunnelReveal)
    limits = (Limit("tunnels reveal N", f"1 … {MAX_REVEALED}",
                    "a tunnel's extra payment is one action per card count"),)

    def check(self, ctx) -> TunnelsRule | None:
        tunnels = [route for route, _attr in ctx.routes_with(TunnelAttr.name)]
        stmt = ctx.one(TunnelReveal)
        reveal = REVEALED_CARDS
        if stmt:
            reveal = ctx.positive(stmt.count, "the number of cards a tunnel reveals")
            if reveal > MAX_REVEALED:
                ctx.errors.add(stmt.count.span, f"a tunnel reveals at most {MAX_REVEALED} cards, got {reveal}")
            if not any(route.attr(TunnelAttr.name) for route, _length in ctx.board.attributed):
                ctx.errors.add(stmt.span, "'tunnels reveal' needs a tunnel: add 'tunnel' to a route")
        if not tunnels:
            return None
        return TunnelsRule(reveal=reveal, routes=tuple(r.id for r in tunnels), span=tunnels[0].span)

    def actions(self, variant, rule: TunnelsRule) -> list[dict]:
        """The extra cards a tunnel asks for are of the colour already played (or locomotives)."""
        out = []
        for extra in range(1, rule.reveal + 1):
            for locos in range(0, extra + 1):
                if locos and locos < extra:
                    name = f"tunnel pay {extra - locos}colour+{locos}loco"
                else:
                    name = f"tunnel pay {extra}loco" if locos else f"tunnel pay {extra}colour"
                out.append(dict(kind=TUNNEL_PAY, name=name, colour_cards=extra - locos, locomotives=locos))
        out.append(dict(kind=TUNNEL_DECLINE, name="tunnel decline"))
        return out

    def looks(self, variant, rule: TunnelsRule) -> Looks:
        """Tunnels are drawn dashed."""
        return Looks(dashed=frozenset(rule.routes),
                     legend={"dashed": f"tunnel: claiming it may cost up to {rule.reveal} more cards"})

    def agent_play(self, variant, rule) -> AgentPlay:
        return AgentPlay(rules={TUNNEL_PAY: "pay", TUNNEL_DECLINE: "withdraw"})

    def dimensions(self, variant, rule: TunnelsRule) -> dict[str, int]:
        return {"TUNNEL_REVEAL": rule.reveal}

    def tables(self, variant: ir.Variant, rule: TunnelsRule) -> Tables:
        pays = [a.id for a in variant.actions if a.kind == TUNNEL_PAY]
        decline = next(a.id for a in variant.actions if a.kind == TUNNEL_DECLINE)
        return Tables(constants=[("ACT_TUNNEL_PAY_FIRST", pays[0]), ("ACT_TUNNEL_PAY_END", pays[-1] + 1),
                                 ("ACT_TUNNEL_DECLINE", decline)],
                      arrays=[("T_ROUTE_TUNNEL", [int(r.id in rule.routes) for r in variant.routes] or [0])])

    def state_problems(self, variant, rule: TunnelsRule, state: dict) -> list[str]:
        """A tunnel decision is pending exactly in the tunnel phase, on a free tunnel, with
        the route's length committed in one colour (or locomotives) and something extra
        due, by a player who could claim it (trains, double routes); revealed cards lie out
        only in the turn of a tunnel claim. (Declining is always legal: a pending tunnel
        never leaves the player without a move.)"""
        loco = len(variant.colours)
        route_id, committed, revealed = state["tunnel_route"], state["tunnel_committed"], state["tunnel_revealed"]
        pending = state["phase"] == PH_TUNNEL
        if (route_id != -1) != pending:
            return [(f"state field 'tunnel_route': {route_id} in phase {state['phase']!r}, but a tunnel claim is "
                     f"pending (not -1) exactly in the tunnel phase")]
        if not pending:
            problems = []
            if any(committed):
                problems.append("state field 'tunnel_committed': cards are committed to a tunnel while none is "
                                "being claimed")
            if revealed and state["phase"] in CORE_PHASES:
                problems.append("state field 'tunnel_revealed': tunnel cards lie revealed outside the turn of a "
                                "tunnel claim")
            return problems
        route = variant.routes[route_id]
        problems = []
        # that the player may claim it at all is the core's check (a pending claim field)
        if route_id not in rule.routes:
            problems.append(f"state field 'tunnel_route': the pending tunnel claim is on {route.name}, which is "
                            f"not a tunnel")
        # the cards committed are a claim's colour cards and locomotives: with wave spaces
        # paid in another mechanic's column (ferry cards), fewer than the route's length
        if sum(committed) > route.length:
            problems.append(f"state field 'tunnel_committed': {sum(committed)} cards are committed to {route.name}, "
                            f"of length {route.length}")
        elif not _is_payment_of(variant, route, committed):
            problems.append(f"state field 'tunnel_committed': the cards committed to {route.name} are not a way "
                            f"to pay for it")
        if not extra_due(revealed, committed_colour(committed, loco), loco):
            problems.append(f"state field 'tunnel_revealed': nothing extra is due for {route.name}, but its claim "
                            f"is pending")
        return problems
