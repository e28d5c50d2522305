"""The reference interpreter: the rules executed directly from the variant IR, in plain
Python written for reading, not speed.

It is the oracle the compiled engine answers to (docs/engine.md is the contract both
follow; tests/test_differential.py checks them against each other). It shares no rule
code with the templates: only the IR, the state schema, the random generator's definition
and the error types.

Like a game and its state: :class:`Rules` holds everything about a variant, built once
(its tables, the reference parts of its mechanics, the dispatch by phase and by action
kind); a :class:`ReferenceEngine` is a game, a ``Rules`` and a small
:class:`~railspec.compiler.schema.PlainState` whose fields are the state schema's.
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from ..compiler import ir
from ..compiler.assembly import assemble, refuse_unsupported
from ..compiler.base.errors import IllegalActionError
from ..compiler.base.rng import agent_for, shuffle_in_state
from ..compiler.base.schema import FORMAT, PH_KEEP, PH_OVER, PH_SECOND_DRAW, PH_SETUP_KEEP, PH_TURN, PlainState
from ..compiler.base.state_view import StateView
from ..compiler.hooks import HOOKS

EMPTY = -1


class Rules:
    """The rules of one variant, and the reference parts of its mechanics, built once."""

    def __init__(self, variant: ir.Variant):
        refuse_unsupported(variant)
        self.variant = variant
        self.assembly = assemble(variant)
        self.loco = len(variant.colours)  # the locomotive's card id
        self.actions = variant.actions
        self.pass_id = next(a.id for a in variant.actions if a.kind == ir.PASS)
        self.claims_of_route: dict[int, list[ir.Action]] = {r.id: [] for r in variant.routes}
        for a in variant.actions:
            if a.kind == ir.CLAIM:
                self.claims_of_route[a.route].append(a)
        self.draws = [a for a in variant.actions if a.kind in (ir.DRAW_BLIND, ir.DRAW_FACEUP)]
        self.keeps = [a for a in variant.actions if a.kind == ir.KEEP_TICKETS]
        self.draw_tickets = [a for a in variant.actions if a.kind == ir.DRAW_TICKETS]
        # the mechanics' reference parts, and for each hook the methods that fill it, in
        # registry order (a mechanic fills the hooks its reference class overrides; the
        # compiled engine chains the same ones)
        self.parts = [(mech, mech.reference(self, rule)) for mech, rule in self.assembly.present]
        self.hooks: dict[str, list[Callable[..., Any]]] = {
            hook.name: [getattr(part, hook.name) for mech, part in self.parts if hook.name in mech.filled_hooks()]
            for hook in HOOKS if not hook.compiled_only}
        self.phase_legal: dict[str, Callable[[StateView], list[int]]]
        self.kind_apply: dict[str, Callable[[StateView, ir.Action], None]]
        self.phase_legal = {PH_TURN: self.legal_turn, PH_SECOND_DRAW: self.legal_second_draw,
                            PH_KEEP: self.legal_keep, PH_SETUP_KEEP: self.legal_keep}
        self.kind_apply = {ir.DRAW_BLIND: self.apply_draw_blind, ir.DRAW_FACEUP: self.apply_draw_faceup,
                           ir.CLAIM: self.apply_claim, ir.DRAW_TICKETS: self.apply_draw_tickets,
                           ir.KEEP_TICKETS: self.apply_keep_tickets, ir.PASS: self.apply_pass}
        self.methods: dict[str, Callable[..., Any]] = {}
        for mech, part in self.parts:
            self.phase_legal.update({phase: part.phase_legal for phase in mech.phases})
            self.kind_apply.update({kind: part.apply for kind in mech.kinds})
            self.methods.update(part.methods())

    # --- set-up ----------------------------------------------------------------------
    def new_state(self, players: int, seed: int) -> PlainState:
        """A new game, docs/engine.md "Set-up"."""
        v = self.variant
        state = PlainState.blank(self.assembly.fields, self.assembly.dims, players)
        state.seed = seed % 2**64
        state.rng = state.seed
        state.phase = PH_SETUP_KEEP
        # Shuffle the train cards, then the destination tickets.
        state.deck = [c.id for c in v.colours for _ in range(c.count)] + [self.loco] * v.locomotives
        shuffle_in_state(state, state.deck)
        state.ticket_deck = [t.id for t in v.tickets if not t.deck]
        shuffle_in_state(state, state.ticket_deck)
        for hook in self.hooks["setup_piles"]:
            hook(state)
        # Deal each player a starting hand, then turn the market face up.
        for p in range(players):
            for _ in range(v.hand):
                card = self.draw_from_deck(state)
                if card != EMPTY:
                    state.hands[p][card] += 1
        state.faceup = [self.draw_from_deck(state) for _ in range(v.market_size)]
        self.reset_market_if_needed(state)
        # Each player is dealt destination tickets and keeps some before the first turn.
        for p in range(players):
            count = min(v.deal_regular, len(state.ticket_deck))
            state.setup_offer[p] = [state.ticket_deck.pop(0) for _ in range(count)]
            for hook in self.hooks["setup_offer"]:
                hook(state, p)
        return state

    # --- piles ---------------------------------------------------------------------
    def reshuffle_discards(self, state: StateView) -> None:
        """An empty deck takes the discards, thoroughly shuffled (USA: Train Car Cards)."""
        state.deck = [card for card in range(self.loco + 1) for _ in range(state.discard[card])]
        state.discard = [0] * (self.loco + 1)
        shuffle_in_state(state, state.deck)

    def draw_from_deck(self, state: StateView) -> int:
        if not state.deck and any(state.discard):
            self.reshuffle_discards(state)
        return state.deck.pop() if state.deck else EMPTY

    @staticmethod
    def can_draw_blind(state: StateView) -> bool:
        return bool(state.deck) or any(state.discard)

    def market_can_change(self, state: StateView) -> bool:
        """Whether the cards outside the players' hands (deck, discards, market) can make
        a market with fewer than the reset number of locomotives."""
        outside = state.deck + [c for c in state.faceup if c != EMPTY]
        total = len(outside) + sum(state.discard)
        plain = sum(1 for c in outside if c != self.loco) + sum(state.discard[:self.loco])
        return min(self.variant.market_size, total) - plain < self.variant.market_reset_locomotives

    def market_resets(self, state: StateView) -> bool:
        """Three face-up locomotives, and a market with fewer can be dealt (the mechanics'
        market_resets hooks may say otherwise); never with 'market N no reset' (a reset
        number of 0)."""
        reset = self.variant.market_reset_locomotives
        resets = reset > 0 and state.faceup.count(self.loco) >= reset and self.market_can_change(state)
        for hook in self.hooks["market_resets"]:
            resets = hook(state, resets)
        return resets

    def faceup_cost(self, state: StateView, card: int) -> int:
        """What taking a face-up card costs of a two-card draw: 2 (the whole draw) for a
        locomotive, else 1, as the mechanics' faceup_cost hooks leave it."""
        cost = 2 if card == self.loco else 1
        for hook in self.hooks["faceup_cost"]:
            cost = hook(state, card, cost)
        return cost

    def reset_market_if_needed(self, state: StateView) -> None:
        """Three face-up locomotives: discard all five and turn five new ones (USA: Train
        Car Cards), again and again, unless no market with fewer can be dealt."""
        v = self.variant
        while self.market_resets(state):
            for card in state.faceup:
                if card != EMPTY:
                    state.discard[card] += 1
            state.faceup = [EMPTY] * v.market_size
            for slot in range(v.market_size):
                state.faceup[slot] = self.draw_from_deck(state)

    def refill_market(self, state: StateView) -> None:
        """After cards come back to the discards, and at the end of a turn: empty slots are
        refilled in order, then the reset check (a market stuck with locomotives may change)."""
        for slot, card in enumerate(state.faceup):
            if card == EMPTY:
                state.faceup[slot] = self.draw_from_deck(state)
        self.reset_market_if_needed(state)

    def take_faceup(self, state: StateView, card: int) -> None:
        slot = state.faceup.index(card)
        state.hands[state.current][card] += 1
        state.faceup[slot] = self.draw_from_deck(state)
        self.reset_market_if_needed(state)

    # --- legal actions, by phase ---------------------------------------------------
    def legal(self, state: StateView) -> list[int]:
        """Ids of every legal action, ascending."""
        if state.phase == PH_OVER:
            return []
        return self.phase_legal[state.phase](state)

    def legal_draws(self, state: StateView, second: bool) -> list[int]:
        """USA rulebook, Train Car Cards: with no card in the deck and no discards, "a
        player cannot draw Train Car cards" (face-up ones included, docs/rules.md)."""
        if not self.can_draw_blind(state):
            return []
        out = []
        for a in self.draws:
            if a.kind == ir.DRAW_BLIND:
                if self.can_draw_blind(state):
                    out.append(a.id)
            else:
                card = self.loco if a.colour == ir.NO_COLOUR else a.colour
                if card in state.faceup and not (second and self.faceup_cost(state, card) >= 2):
                    out.append(a.id)
        return out

    def legal_second_draw(self, state: StateView) -> list[int]:
        """The second card: blind, or any face-up card but a locomotive."""
        return self.legal_draws(state, second=True)

    def route_claimable(self, state: StateView, route: ir.Route, player: int) -> bool:
        """A free route that no mechanic closes to the player (whatever their cards and trains)."""
        return state.owner[route.id] == -1 and all(hook(state, route, player) for hook in self.hooks["route_open"])

    def route_open(self, state: StateView, route: ir.Route, player: int) -> bool:
        """A claimable route the player has the trains for, or one a claim would take for no
        player (which needs none of their trains)."""
        return ((state.trains[player] >= route.length or self.takes_for_nobody(state, route, player))
                and self.route_claimable(state, route, player))

    def takes_for_nobody(self, state: StateView, route: ir.Route, player: int) -> bool:
        """Whether ``player``'s claim of ``route`` would take it for no player now (a
        mechanic's takes_for_nobody hook says so)."""
        return any(hook(state, route, player) for hook in self.hooks["takes_for_nobody"])

    def can_pay(self, state: StateView, action: ir.Action, player: int) -> bool:
        hand = state.hands[player]
        if hand[self.loco] < action.locomotives:
            return False
        return not action.colour_cards or hand[action.colour] >= action.colour_cards

    def legal_turn(self, state: StateView) -> list[int]:
        """A turn: draws, claims, the ticket draw, the mechanics' actions; pass when nothing
        else is legal. A claim is legal when its route is open to the player, its payment
        block too (the payment_ok hooks), the hand holds its cards, of the colour the
        route_colour hooks say when the route's colour is held in the state, and the
        claim_payable hooks let it be paid."""
        player = state.current
        out = self.legal_draws(state, second=False)
        for route in self.variant.routes:
            if self.route_open(state, route, player):
                out.extend(self.payments(state, route, player))
        if state.ticket_deck:
            out.extend(a.id for a in self.draw_tickets)
        for hook in self.hooks["turn_actions"]:
            out.extend(hook(state))
        return out or [self.pass_id]

    def payments(self, state: StateView, route: ir.Route, player: int) -> list[int]:
        """The claims of ``route`` whose payment the player can make now: its payment
        blocks the payment_ok hooks allow, the cards at hand, of the colour the
        route_colour hooks say when the route's colour is held in the state, the
        claim_payable hooks."""
        colour = route.colour
        for hook in self.hooks["route_colour"]:
            colour = hook(state, route, colour)
        out: list[int] = []
        for block in self.variant.claim_layout.blocks_of(route.id):
            if all(ok(state, block, player) for ok in self.hooks["payment_ok"]):
                # a colour held in the state: only its cards (or locomotives alone) pay
                out.extend(a.id for a in self.actions[block.start:block.end]
                           if self.can_pay(state, a, player)
                           and (colour == ir.GRAY or not a.colour_cards or a.colour == colour)
                           and all(ok(state, a, player) for ok in self.hooks["claim_payable"]))
        return out

    def route_claims(self, state: StateView, route: ir.Route, player: int) -> list[int]:
        """The claims of ``route`` the player could make now whatever its owner: enough
        trains, every route_open hook, the payments (a service: a mechanic's phase lists
        with it the claims of a route another player owns, a shared claim)."""
        if state.trains[player] < route.length or not all(hook(state, route, player)
                                                           for hook in self.hooks["route_open"]):
            return []
        return self.payments(state, route, player)

    def route_owned_by(self, state: StateView, route: ir.Route, player: int) -> bool:
        """Whether ``player`` owns ``route``: as its owner, or as a further owner (a
        ``co_owner`` state field: a shared claim)."""
        return state.owner[route.id] == player or any(getattr(state, name)[route.id] == player
                                                      for name in self.assembly.co_owners)

    def legal_keep(self, state: StateView) -> list[int]:
        """Keep-ticket choices: every set of offered slots with at least enough tickets."""
        if state.phase == PH_SETUP_KEEP:
            offer, keep = state.setup_offer[state.current], self.variant.deal_keep
        else:
            offer, keep = state.offer, state.offer_keep
        return [a.id for a in self.keeps if a.mask < (1 << len(offer)) and bin(a.mask).count("1") >= keep]

    # --- transitions, by kind ------------------------------------------------------
    def apply(self, state: StateView, action: ir.Action) -> None:
        state.decisions += 1
        self.kind_apply[action.kind](state, action)

    def apply_draw_blind(self, state: StateView, action: ir.Action) -> None:
        state.hands[state.current][self.draw_from_deck(state)] += 1
        self.after_card_drawn(state, locomotive_from_market=False)

    def apply_draw_faceup(self, state: StateView, action: ir.Action) -> None:
        card = self.loco if action.colour == ir.NO_COLOUR else action.colour
        cost = self.faceup_cost(state, card)  # as the market is before the card is taken
        self.take_faceup(state, card)
        self.after_card_drawn(state, locomotive_from_market=cost >= 2)

    def apply_claim(self, state: StateView, action: ir.Action) -> None:
        """Take the payment from the hand, then (unless a mechanic holds the claim pending,
        and the payment with it) discard it and own the route."""
        route = self.variant.routes[action.route]
        player = state.current
        hand = state.hands[player]
        if action.colour_cards:
            hand[action.colour] -= action.colour_cards
        hand[self.loco] -= action.locomotives
        for hook in self.hooks["claim_pay"]:
            hook(state, action)
        if all(hook(state, action) for hook in self.hooks["before_claim_completes"]):
            self.discard_payment(state, action.colour, action.colour_cards, action.locomotives)
            self.complete_claim(state, route, player)
        if state.phase == PH_TURN:
            self.end_turn(state, passed=False)

    def discard_payment(self, state: StateView, colour: int, colour_cards: int, locomotives: int) -> None:
        """Paid cards go to the discards, and the market is refilled at once (a market
        stuck with locomotives may change "at any time")."""
        if colour_cards:
            state.discard[colour] += colour_cards
        state.discard[self.loco] += locomotives
        self.refill_market(state)

    def withdraw_claim(self, state: StateView, route: ir.Route, player: int) -> None:
        """``player`` gives up the claim of ``route`` a mechanic held: the mechanics whose
        payment columns it paid give them back (hook ``claim_withdrawn``)."""
        for hook in self.hooks["claim_withdrawn"]:
            hook(state, route, player)

    def complete_claim(self, state: StateView, route: ir.Route, player: int) -> None:
        """``route`` becomes ``player``'s: trains placed, points scored. A claim a
        mechanic takes for no player (takes_for_nobody) gives the route the owner
        ``players`` instead, and takes no train and scores no point. A claim of a route
        someone owns already (a mechanic's phase offered it) places the player's trains
        and leaves the rest to the after_shared_claim hooks, in registry order (a shared
        claim: the mechanic keeping the further owner's field records the player)."""
        if state.owner[route.id] != -1:  # owned already: a mechanic's phase offered it (route_claims)
            state.trains[player] -= route.length
            for hook in self.hooks["after_shared_claim"]:
                hook(state, route, player)
            return
        if self.takes_for_nobody(state, route, player):
            state.owner[route.id] = state.players
            for hook in self.hooks["after_nobody_claim"]:
                hook(state, route, player)
            return
        state.owner[route.id] = player
        state.trains[player] -= route.length
        state.route_score[player] += self.variant.route_points[route.length]
        for hook in self.hooks["after_claim"]:
            hook(state, route, player)

    def apply_draw_tickets(self, state: StateView, action: ir.Action) -> None:
        count = min(self.variant.draw_tickets, len(state.ticket_deck))
        state.offer = [state.ticket_deck.pop(0) for _ in range(count)]
        state.offer_keep = min(self.variant.draw_tickets_keep, count)
        state.phase = PH_KEEP

    def apply_keep_tickets(self, state: StateView, action: ir.Action) -> None:
        setup = state.phase == PH_SETUP_KEEP
        offer = state.setup_offer[state.current] if setup else state.offer
        state.tickets[state.current].extend(t for slot, t in enumerate(offer) if action.mask >> slot & 1)
        returned = [t for slot, t in enumerate(offer) if not action.mask >> slot & 1]
        for hook in self.hooks["returned_tickets"]:
            returned = hook(state, returned, setup)
        state.ticket_deck.extend(returned)
        if setup:
            state.setup_offer[state.current] = []
            if state.current + 1 < state.players:
                state.current += 1
            else:
                state.current = 0
                state.phase = PH_TURN
                for hook in self.hooks["setup_over"]:  # a mechanic may hold the first turn
                    hook(state)
        else:
            state.offer = []
            state.offer_keep = 0
            self.end_turn(state, passed=False)

    def apply_pass(self, state: StateView, action: ir.Action) -> None:
        self.end_turn(state, passed=True)

    def after_card_drawn(self, state: StateView, locomotive_from_market: bool) -> None:
        """A face-up locomotive is the whole draw; otherwise a second card follows unless
        it is the second already or no card can be drawn."""
        if state.phase == PH_SECOND_DRAW or locomotive_from_market or not self.can_draw_blind(state):
            for hook in self.hooks["after_draw"]:
                hook(state, state.current)
            if state.phase in (PH_TURN, PH_SECOND_DRAW):  # else a mechanic's decision follows, which ends the turn
                self.end_turn(state, passed=False)
            return
        state.phase = PH_SECOND_DRAW

    def end_turn(self, state: StateView, passed: bool) -> None:
        for hook in self.hooks["end_of_turn"]:
            hook(state)
        self.refill_market(state)
        over = False
        # Game End: a player ending a turn with end_trains trains or fewer starts the
        # last round; every player, that one included, gets one more turn. With conditions
        # joined to it (end when trains <= N and …), the last round starts once any player
        # has that few trains and the conditions hold.
        if state.final_turns > 0:
            state.final_turns -= 1
            over = state.final_turns == 0
        elif state.final_turns == -1 and (self.trains_trigger(state)
                                          or any(hook(state, state.current) for hook in self.hooks["end_triggered"])):
            state.final_turns = state.players
        # Nobody able to act for a whole round ends the game (docs/rules.md).
        state.passes = state.passes + 1 if passed else 0
        if state.passes >= state.players:
            over = True
        state.turn += 1
        if over:
            state.phase = PH_OVER
            state.current = -1
            for hook in self.hooks["game_over"]:
                hook(state)
        else:
            state.current = (state.current + 1) % state.players
            state.phase = PH_TURN

    def trains_trigger(self, state: StateView) -> bool:
        """The core's end trigger at the end of a turn: the player to move has end_trains
        trains or fewer; with conditions joined to it (the end_gate hooks), any player has,
        and every condition holds."""
        if not self.hooks["end_gate"]:
            return state.trains[state.current] <= self.variant.end_trains
        return (min(state.trains) <= self.variant.end_trains
                and all(hook(state) for hook in self.hooks["end_gate"]))

    # --- scoring ---------------------------------------------------------------------
    def nobody_routes(self, state: StateView) -> list[int]:
        """The routes claims took for no player (their owner is ``players``), ascending."""
        return [r for r, who in enumerate(state.owner) if who == state.players]

    @staticmethod
    def join_routes(network: list[int], routes: Iterable[ir.Route]) -> None:
        """Join ``routes`` (ir.Route objects) into ``network``, a component label per node,
        relabelling in place: what a mechanic's score_graph does to add routes to a
        player's network."""
        for route in routes:
            a, b = network[route.node_a], network[route.node_b]
            if a != b:
                for node, label in enumerate(network):
                    if label == b:
                        network[node] = a

    def network(self, state: StateView, player: int) -> list[int]:
        """The player's network: for each graph node, the root of its component."""
        parent = list(range(self.variant.node_count))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x
        for r in self.variant.routes:
            if state.owner[r.id] == player:
                parent[find(r.node_a)] = find(r.node_b)
        return [find(n) for n in range(self.variant.node_count)]

    def ticket_result(self, state: StateView, player: int, ticket_id: int, network: list[int]) -> tuple[int, bool]:
        """One of the player's tickets against ``network`` (component labels per node): its
        points (plus when completed, minus when not) and whether it is completed."""
        points, done, _ = self.ticket_detail(state, player, ticket_id, network)
        return points, done

    def ticket_detail(self, state, player: int, ticket_id: int,
                      network: list[int]) -> tuple[int, bool, int | None]:
        """:meth:`ticket_result`, and the place whose points the ticket scores (its
        destination when completed; a mechanic's ticket says, through a third element of
        its ``ticket_score``; else None)."""
        for hook in self.hooks["ticket_score"]:
            scored = hook(state, player, ticket_id, network)
            if scored is not None:  # a mechanic's ticket
                return scored[0], bool(scored[1]), (scored[2] if len(scored) > 2 else None)
        v = self.variant
        ticket = v.tickets[ticket_id]
        ends_a = {network[n] for n in v.city_nodes[ticket.a]}  # a zone: a node per route end
        if any(network[n] in ends_a for n in v.city_nodes[ticket.b]):
            return ticket.points, True, ticket.b
        return -ticket.points, False, None

    def ticket_details(self, state, player: int) -> list[tuple[int, int, bool, int | None]]:
        """Each ticket the player holds, as scoring counts it: (ticket id, points, completed,
        place scored), on the network scoring builds."""
        network = self.ticket_network(state, player, dict.fromkeys(self.assembly.breakdown_keys, 0))
        return [(t, *self.ticket_detail(state, player, t, network)) for t in state.tickets[player]]

    def ticket_score(self, state: StateView, player: int, network: list[int]) -> tuple[int, int]:
        """The player's ticket points against ``network``: plus for each completed ticket,
        minus for each other; and how many are completed."""
        points = completed = 0
        for ticket_id in state.tickets[player]:
            worth, done = self.ticket_result(state, player, ticket_id, network)
            points += worth
            completed += done
        return points, completed

    def ticket_network(self, state: StateView, player: int, row: dict[str, int]) -> list[int]:
        """The network the player's tickets are scored on: their routes' components, joined
        further by the score_graph hooks (which write their items into ``row``)."""
        network = self.network(state, player)  # a fresh list: the hooks may relabel it
        for hook in self.hooks["score_graph"]:
            hook(state, player, network, row)
        return network

    def completed_tickets(self, state: StateView, player: int) -> list[int]:
        """The tickets the player holds that their network completes now, as scoring counts
        them, in the order held."""
        network = self.ticket_network(state, player, dict.fromkeys(self.assembly.breakdown_keys, 0))
        return [t for t in state.tickets[player] if self.ticket_result(state, player, t, network)[1]]

    def score(self, state: StateView) -> list[dict[str, int]]:
        """Each player's breakdown (docs/engine.md "Scoring"), keys as the assembly's items."""
        v = self.variant
        keys = self.assembly.breakdown_keys
        rows = []
        for player in range(state.players):
            row = dict.fromkeys(keys, 0)
            row["routes"] = sum(v.route_points[r.length] for r in v.routes if state.owner[r.id] == player)
            network = self.ticket_network(state, player, row)
            row["tickets"], row["tickets_completed"] = self.ticket_score(state, player, network)
            for hook in self.hooks["score_player"]:
                hook(state, player, row, network)
            rows.append(row)
        for hook in self.hooks["score_awards"]:
            hook(state, rows)
        for row in rows:
            row["total"] = sum(row[item.name] for item in self.assembly.score_items if item.in_total)
        return rows


@lru_cache(maxsize=32)
def rules_for(variant: ir.Variant) -> Rules:
    """The rules of a variant (built once per variant object)."""
    return Rules(variant)


class ReferenceEngine:
    """One game in progress: the variant's rules and a state. Same interface as the
    compiled module's ``Engine``."""

    # _legal caches the legal ids of the state after ``decisions`` decisions: apply()
    # checks an id against the list legal_actions() has just computed
    __slots__ = ("rules", "state", "_legal")
    rules: Rules
    state: PlainState
    _legal: tuple[int, list[int]]

    def __init__(self, variant: ir.Variant, players: int, seed: int):
        rules = rules_for(variant)
        variant.check_players(players)
        self.rules = rules
        self.state = rules.new_state(players, seed)
        self._legal = (-1, [])

    @classmethod
    def from_state(cls, variant: ir.Variant, state: dict) -> "ReferenceEngine":
        """Rebuild a game from export_state() data (checked by the caller)."""
        game = object.__new__(cls)
        game.rules = rules_for(variant)
        game.state = PlainState.from_export(game.rules.assembly.fields, state)
        game._legal = (-1, [])
        return game

    def copy(self) -> "ReferenceEngine":
        """An independent game in the same position (the rules are shared)."""
        twin = object.__new__(ReferenceEngine)
        twin.rules = self.rules
        twin.state = self.state.copy()
        twin._legal = (-1, [])
        return twin

    @property
    def variant(self) -> ir.Variant:
        return self.rules.variant

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def current_player(self) -> int:
        return self.state.current

    @property
    def is_over(self) -> bool:
        return self.state.phase == PH_OVER

    def legal_actions(self) -> list[int]:
        """Ids of every legal action, ascending."""
        decisions, legal = self._legal
        if decisions != self.state.decisions:
            legal = self.rules.legal(self.state)
            self._legal = (self.state.decisions, legal)
        return list(legal)

    def completed_tickets(self, player: int) -> list[int]:
        """As the compiled Engine's: the tickets ``player`` holds that scoring counts completed."""
        if not isinstance(player, int) or not 0 <= player < self.state.players:
            raise ValueError(f"no player {player!r} in a {self.state.players}-player game")
        return self.rules.completed_tickets(self.state, player)

    def agent_view(self, player: int | None = None) -> list[int]:
        """The player to move's agent view (compiler/templates/engine_api.h): their header,
        hand, every route's owner, which routes the rules let them claim (cards and trains
        aside), their tickets and the offer in front of them, as the compiled Engine writes it.
        With ``player``, that seat's view of the same moment (the drawn offer only if it is
        theirs to choose)."""
        state = self.state
        if state.phase == PH_OVER:
            raise ValueError("the game is over: nobody is to move")
        if player is None:
            player = state.current
        if not isinstance(player, int) or not 0 <= player < state.players:
            raise ValueError(f"no player {player!r} in a {state.players}-player game")
        # the drawn offer while its player chooses; in set-up, the player's own offer
        offer = (state.offer if player == state.current and state.phase != PH_SETUP_KEEP and state.offer
                 else state.setup_offer[player])
        tickets = state.tickets[player]
        claimable = self.rules.route_claimable
        return ([player, state.players, state.trains[player], len(tickets), len(offer), 0, 0, 0]
                + list(state.hands[player]) + list(state.owner)
                + [int(claimable(state, route, player)) for route in self.rules.variant.routes]
                + list(tickets) + list(offer))

    def apply(self, action_id: int) -> None:
        """Play one decision; raise IllegalActionError (state untouched) if it is not legal."""
        actions = self.rules.actions
        try:  # any integer-like id (a numpy integer too), but not a bool
            index = operator.index(action_id) if not isinstance(action_id, bool) else -1
        except TypeError:
            index = -1
        if not 0 <= index < len(actions):
            raise IllegalActionError(action_id, f"no action has id {action_id!r}")
        if self.state.phase == PH_OVER:
            raise IllegalActionError(index, "the game is over")
        if index not in self.legal_actions():
            raise IllegalActionError(index, f"'{actions[index].name}' is not legal now (phase {self.state.phase})")
        self.rules.apply(self.state, actions[index])

    def score_breakdown(self) -> list[dict[str, int]]:
        return self.rules.score(self.state)

    def export_state(self) -> dict:
        """The state as the plain data of docs/engine.md, "State as JSON"."""
        v = self.rules.variant
        return self.state.export({"format": FORMAT, "variant": v.key, "spec_hash": v.spec_hash})

    def __getattr__(self, name: str) -> Callable[..., Any]:
        # a mechanic's engine methods (e.g. longest_path), as the compiled Engine has them
        methods = object.__getattribute__(self, "rules").methods
        if name in methods:
            state = object.__getattribute__(self, "state")
            method = methods[name]
            return lambda *args: method(state, *args)
        raise AttributeError(name)


def for_scoring(variant: ir.Variant, fields: dict) -> ReferenceEngine:
    """A game holding only what scoring reads, as the compiled ``Engine.for_scoring``:
    ``players`` and the fields of a described position, every other field at its value
    before set-up. Not a position to play on."""
    game = object.__new__(ReferenceEngine)
    game.rules = rules_for(variant)
    game.state = PlainState.blank(game.rules.assembly.fields, game.rules.assembly.dims, fields["players"])
    for name, value in fields.items():
        setattr(game.state, name, value)
    game._legal = (-1, [])
    return game


def score_fields(variant: ir.Variant, fields: dict) -> list[dict[str, int]]:
    """Score the fields of a described position (``players`` and those scoring reads);
    every other field at its value before set-up."""
    return for_scoring(variant, fields).score_breakdown()


def playout(variant: ir.Variant, games: int, players: int, seed: int) -> dict:
    """Random games, as docs/engine.md "Random playouts" defines them; the same dict as
    the compiled module's ``playout``."""
    rules = rules_for(variant)
    keys = rules.assembly.breakdown_keys
    out: dict[str, list] = {"totals": []}
    out.update({key: [] for key in keys if key != "total"})
    out.update(decisions=[], turns=[], stalled=[])
    for i in range(games):
        game_seed = (seed + i) % 2**64
        game = ReferenceEngine(variant, players, game_seed)
        agent = agent_for(game_seed)
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[agent.below(len(legal))])
        breakdown = game.score_breakdown()
        out["totals"].append([b["total"] for b in breakdown])
        for key in keys:
            if key != "total":
                out[key].append([b[key] for b in breakdown])
        out["decisions"].append(game.state.decisions)
        out["turns"].append(game.state.turn)
        out["stalled"].append(game.state.passes >= players)
    return out


__all__ = ["Rules", "ReferenceEngine", "rules_for", "playout", "score_fields"]
