"""The reference interpreter: the rules executed directly from the variant IR, in plain
Python written for reading, not speed.

It is the oracle the compiled engine answers to (see docs/engine.md for the contract both
follow and tests/test_differential.py for the check). It shares no rule code with the
templates: only the IR, the random generator's definition and the error types.
"""
from __future__ import annotations

import operator

from .compiler import ir
from .errors import IllegalActionError, UnsupportedMechanicError
from .rng import SplitMix64
from .scoring import Board, longest_trail, score_board

SUPPORTED = frozenset({"multi_track", "longest_path"})
EMPTY = -1


def require_supported(variant: ir.Variant) -> None:
    """Refuse a variant whose mechanics the engines do not implement yet."""
    missing = sorted(variant.mechanics - SUPPORTED)
    if missing:
        raise UnsupportedMechanicError(
            f"{variant.name}: the engines do not implement {', '.join(missing)} yet")


class ReferenceEngine:
    """One game in progress. Same interface as the compiled module's ``Engine``."""

    def __init__(self, variant: ir.Variant, players: int, seed: int, *, _blank: bool = False):
        require_supported(variant)
        if not variant.min_players <= players <= variant.max_players:
            raise ValueError(f"{variant.name} is for {variant.min_players} to {variant.max_players} players, "
                             f"not {players}")
        self.variant = variant
        self.players = players
        self.loco = len(variant.colours)  # the locomotive's card id
        self.last_market_resets = variant.market_max_resets
        self.other_tracks = {r.id: [s.id for s in variant.routes if s.group == r.group and s.id != r.id]
                             for r in variant.routes}
        self.pass_id = next(a.id for a in variant.actions if a.kind == ir.PASS)
        self.claims_of_route: dict[int, list[ir.Action]] = {r.id: [] for r in variant.routes}
        for a in variant.actions:
            if a.kind == ir.CLAIM:
                self.claims_of_route[a.route].append(a)
        self.non_claims = [a for a in variant.actions if a.kind not in (ir.CLAIM, ir.PASS)]
        keeps = [a for a in variant.actions if a.kind == ir.KEEP_TICKETS]
        # the only kinds of action each decision phase can offer
        self.phase_actions = {"setup_keep": keeps, "keep": keeps,
                              "second_draw": [a for a in variant.actions if a.kind in (ir.DRAW_BLIND, ir.DRAW_FACEUP)]}
        if _blank:
            return
        self.seed = seed % 2**64
        self.rng = SplitMix64(self.seed)
        self.phase = "setup_keep"
        self.current = 0
        self.turn = 0
        self.decisions = 0
        self.final_turns = -1
        self.passes = 0
        self.discard = [0] * (self.loco + 1)
        self.owner = [-1] * len(variant.routes)
        self.hands = [[0] * (self.loco + 1) for _ in range(players)]
        self.trains = [variant.trains] * players
        self.route_score = [0] * players
        self.tickets: list[list[int]] = [[] for _ in range(players)]
        self.offer: list[int] = []
        self.offer_keep = 0

        # Setting up: shuffle the train cards, then the destination tickets.
        self.deck = [c.id for c in variant.colours for _ in range(c.count)] + [self.loco] * variant.locomotives
        self.rng.shuffle(self.deck)
        self.ticket_deck = [t.id for t in variant.tickets if not t.long]
        self.rng.shuffle(self.ticket_deck)
        # Deal each player a starting hand, then turn the market face up.
        for p in range(players):
            for _ in range(variant.hand):
                card = self._draw_from_deck()
                if card != EMPTY:
                    self.hands[p][card] += 1
        self.faceup = [self._draw_from_deck() for _ in range(variant.market_size)]
        self._reset_market_if_needed()
        # Each player is dealt destination tickets and keeps some before the first turn.
        self.setup_offer = [[self.ticket_deck.pop(0) for _ in range(variant.deal_regular)]
                            for _ in range(players)]

    # --- piles ---------------------------------------------------------------
    def _reshuffle_discards(self) -> None:
        """An empty deck takes the discards, thoroughly shuffled (USA: Train Car Cards)."""
        self.deck = [card for card in range(self.loco + 1) for _ in range(self.discard[card])]
        self.discard = [0] * (self.loco + 1)
        self.rng.shuffle(self.deck)

    def _draw_from_deck(self) -> int:
        if not self.deck and any(self.discard):
            self._reshuffle_discards()
        return self.deck.pop() if self.deck else EMPTY

    def _can_draw_blind(self) -> bool:
        return bool(self.deck) or any(self.discard)

    def _reset_market_if_needed(self) -> None:
        """Three face-up locomotives: discard all five and turn five new ones (USA: Train
        Car Cards), at most market_max_resets times in a row."""
        resets = 0
        while (self.faceup.count(self.loco) >= self.variant.market_reset_locomotives
               and resets < self.variant.market_max_resets):
            for card in self.faceup:
                if card != EMPTY:
                    self.discard[card] += 1
            self.faceup = [EMPTY] * self.variant.market_size
            for slot in range(self.variant.market_size):
                self.faceup[slot] = self._draw_from_deck()
            resets += 1
        # not part of the state: lets the conformance suite see why locomotives still show
        self.last_market_resets = resets

    def _take_faceup(self, card: int) -> None:
        slot = self.faceup.index(card)
        self.hands[self.current][card] += 1
        self.faceup[slot] = self._draw_from_deck()
        self._reset_market_if_needed()

    # --- legality --------------------------------------------------------------
    def _route_open_to(self, route: ir.Route, player: int) -> bool:
        if self.owner[route.id] != -1 or self.trains[player] < route.length:
            return False
        others = self.other_tracks[route.id]
        if any(self.owner[r] == player for r in others):
            return False  # never two tracks of one double route
        taken = sum(1 for r in others if self.owner[r] != -1)
        # 2-3 players: once one track of a double is taken the others are closed
        return taken < self.variant.tracks_usable_for(self.players)

    def _claimable(self, action: ir.Action, open_routes: set[int] | None = None) -> bool:
        player = self.current
        if open_routes is not None:
            if action.route not in open_routes:
                return False
        elif not self._route_open_to(self.variant.routes[action.route], player):
            return False
        hand = self.hands[player]
        if hand[self.loco] < action.locomotives:
            return False
        return action.colour_cards == 0 or hand[action.colour] >= action.colour_cards

    def _is_legal(self, action: ir.Action, open_routes: set[int] | None = None) -> bool:
        phase = self.phase
        kind = action.kind
        if phase in ("setup_keep", "keep"):
            offer = self.setup_offer[self.current] if phase == "setup_keep" else self.offer
            keep = self.variant.deal_keep if phase == "setup_keep" else self.offer_keep
            return (kind == ir.KEEP_TICKETS and action.mask < (1 << len(offer))
                    and bin(action.mask).count("1") >= keep)
        if phase == "second_draw":
            if kind == ir.DRAW_BLIND:
                return self._can_draw_blind()
            return kind == ir.DRAW_FACEUP and action.colour != ir.NO_COLOUR and action.colour in self.faceup
        if phase != "turn":
            return False
        if kind == ir.DRAW_BLIND:
            return self._can_draw_blind()
        if kind == ir.DRAW_FACEUP:
            card = self.loco if action.colour == ir.NO_COLOUR else action.colour
            return card in self.faceup
        if kind == ir.CLAIM:
            return self._claimable(action, open_routes)
        if kind == ir.DRAW_TICKETS:
            return bool(self.ticket_deck)
        if kind == ir.PASS:
            return self._legal_except_pass() == []
        return False

    def _legal_except_pass(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.phase != "turn":
            return [a.id for a in self.phase_actions[self.phase] if self._is_legal(a)]
        # which routes the player could take at all, worked out once for all their payments
        open_routes = {r.id for r in self.variant.routes if self._route_open_to(r, self.current)}
        candidates = self.non_claims + [a for route in sorted(open_routes) for a in self.claims_of_route[route]]
        return sorted(a.id for a in candidates if self._is_legal(a, open_routes))

    def legal_actions(self) -> list[int]:
        """Ids of every legal action, ascending. In a turn where nothing else is possible
        the only legal action is to pass."""
        legal = self._legal_except_pass()
        if not legal and self.phase == "turn":
            return [self.pass_id]
        return legal

    # --- transitions -----------------------------------------------------------
    def apply(self, action_id: int) -> None:
        """Play one decision; raise IllegalActionError (state untouched) if it is not legal."""
        actions = self.variant.actions
        try:  # any integer-like id (a numpy integer too), but not a bool
            index = operator.index(action_id) if not isinstance(action_id, bool) else -1
        except TypeError:
            index = -1
        if not 0 <= index < len(actions):
            raise IllegalActionError(action_id, f"no action has id {action_id!r}")
        action_id = index
        if self.phase == "over":
            raise IllegalActionError(action_id, "the game is over")
        action = actions[action_id]
        if not self._is_legal(action):
            raise IllegalActionError(action_id, f"'{action.name}' is not legal now (phase {self.phase})")
        self.decisions += 1
        kind = action.kind
        if kind == ir.KEEP_TICKETS:
            self._keep_tickets(action.mask)
        elif kind == ir.DRAW_BLIND:
            self.hands[self.current][self._draw_from_deck()] += 1
            self._after_card_drawn(locomotive_from_market=False)
        elif kind == ir.DRAW_FACEUP:
            card = self.loco if action.colour == ir.NO_COLOUR else action.colour
            self._take_faceup(card)
            self._after_card_drawn(locomotive_from_market=card == self.loco)
        elif kind == ir.CLAIM:
            self._claim(action)
            self._end_turn(passed=False)
        elif kind == ir.DRAW_TICKETS:
            count = min(self.variant.draw_tickets, len(self.ticket_deck))
            self.offer = [self.ticket_deck.pop(0) for _ in range(count)]
            self.offer_keep = min(self.variant.draw_tickets_keep, count)
            self.phase = "keep"
        elif kind == ir.PASS:
            self._end_turn(passed=True)

    def _after_card_drawn(self, locomotive_from_market: bool) -> None:
        """A face-up locomotive is the whole draw; otherwise a second card follows unless
        it is the second already or no card can be drawn."""
        if self.phase == "second_draw" or locomotive_from_market:
            self._end_turn(passed=False)
            return
        self.phase = "second_draw"
        can_draw_again = self._can_draw_blind() or any(c not in (EMPTY, self.loco) for c in self.faceup)
        if not can_draw_again:
            self._end_turn(passed=False)

    def _claim(self, action: ir.Action) -> None:
        route = self.variant.routes[action.route]
        player = self.current
        hand = self.hands[player]
        if action.colour_cards:
            hand[action.colour] -= action.colour_cards
            self.discard[action.colour] += action.colour_cards
        hand[self.loco] -= action.locomotives
        self.discard[self.loco] += action.locomotives
        self.owner[route.id] = player
        self.trains[player] -= route.length
        self.route_score[player] += self.variant.route_points[route.length]

    def _keep_tickets(self, mask: int) -> None:
        setup = self.phase == "setup_keep"
        offer = self.setup_offer[self.current] if setup else self.offer
        kept = [t for slot, t in enumerate(offer) if mask >> slot & 1]
        returned = [t for slot, t in enumerate(offer) if not mask >> slot & 1]
        self.tickets[self.current].extend(kept)
        place = self.variant.returned_setup if setup else self.variant.returned_tickets
        if place == "shuffled_bottom":
            self.rng.shuffle(returned)
        self.ticket_deck.extend(returned)
        if setup:
            self.setup_offer[self.current] = []
            if self.current + 1 < self.players:
                self.current += 1
            else:
                self.current = 0
                self.phase = "turn"
        else:
            self.offer = []
            self.offer_keep = 0
            self._end_turn(passed=False)

    def _end_turn(self, passed: bool) -> None:
        # An empty market slot is refilled as soon as cards are back.
        if EMPTY in self.faceup:
            filled = False
            for slot, card in enumerate(self.faceup):
                if card == EMPTY:
                    self.faceup[slot] = self._draw_from_deck()
                    filled = filled or self.faceup[slot] != EMPTY
            if filled:
                self._reset_market_if_needed()
        over = False
        # Game End: a player ending a turn with end_trains trains or fewer starts the
        # last round; every player, that one included, gets one more turn.
        if self.final_turns > 0:
            self.final_turns -= 1
            over = self.final_turns == 0
        elif self.final_turns == -1 and self.trains[self.current] <= self.variant.end_trains:
            self.final_turns = self.players
        # Nobody able to act for a whole round ends the game (docs/rules.md).
        self.passes = self.passes + 1 if passed else 0
        if self.passes >= self.players:
            over = True
        self.turn += 1
        if over:
            self.phase = "over"
            self.current = -1
        else:
            self.current = (self.current + 1) % self.players
            self.phase = "turn"

    # --- the public face -------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.current

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def board(self) -> Board:
        return Board(owner=tuple(self.owner), tickets=tuple(tuple(t) for t in self.tickets),
                     players=self.players)

    def longest_path(self, player: int) -> int:
        if not 0 <= player < self.players:
            raise ValueError(f"no player {player} in a {self.players}-player game")
        if not self.variant.longest_path_bonus:
            return 0
        return longest_trail([(r.node_a, r.node_b, r.length) for r in self.variant.routes
                              if self.owner[r.id] == player])

    def score_breakdown(self) -> list[dict]:
        return score_board(self.variant, self.board())

    def export_state(self) -> dict:
        """The state as the plain data of docs/engine.md, "State as JSON"."""
        return {
            "format": "railspec-state/1", "variant": self.variant.key, "spec_hash": self.variant.spec_hash,
            "players": self.players, "seed": self.seed, "rng": self.rng.state, "phase": self.phase,
            "current": self.current, "turn": self.turn, "decisions": self.decisions,
            "final_turns": self.final_turns, "passes": self.passes,
            "deck": list(self.deck), "discard": list(self.discard), "faceup": list(self.faceup),
            "ticket_deck": list(self.ticket_deck), "offer": list(self.offer), "offer_keep": self.offer_keep,
            "owner": list(self.owner), "hands": [list(h) for h in self.hands], "trains": list(self.trains),
            "route_score": list(self.route_score), "tickets": [list(t) for t in self.tickets],
            "setup_offer": [list(o) for o in self.setup_offer],
        }

    @classmethod
    def from_state(cls, variant: ir.Variant, state: dict) -> "ReferenceEngine":
        """Rebuild a game from export_state() data (checked by the caller)."""
        game = cls(variant, state["players"], state["seed"], _blank=True)
        game.seed = state["seed"]
        game.rng = SplitMix64(state["rng"])
        for key in ("phase", "current", "turn", "decisions", "final_turns", "passes", "offer_keep"):
            setattr(game, key, state[key])
        for key in ("deck", "discard", "faceup", "ticket_deck", "offer", "owner", "trains", "route_score"):
            setattr(game, key, list(state[key]))
        game.hands = [list(h) for h in state["hands"]]
        game.tickets = [list(t) for t in state["tickets"]]
        game.setup_offer = [list(o) for o in state["setup_offer"]]
        return game

    def copy(self) -> "ReferenceEngine":
        """An independent game in the same position. The per-variant lookup tables built in
        ``__init__`` never change, so the copy shares them; only the state is copied."""
        twin = object.__new__(ReferenceEngine)
        twin.__dict__.update(self.__dict__)
        twin.rng = SplitMix64(self.rng.state)
        for key in ("deck", "discard", "faceup", "ticket_deck", "offer", "owner", "trains", "route_score"):
            setattr(twin, key, list(getattr(self, key)))
        twin.hands = [list(h) for h in self.hands]
        twin.tickets = [list(t) for t in self.tickets]
        twin.setup_offer = [list(o) for o in self.setup_offer]
        return twin


def playout(variant: ir.Variant, games: int, players: int, seed: int) -> dict:
    """Random games, as docs/engine.md "Random playouts" defines them."""
    out = {"totals": [], "tickets_completed": [], "longest_path": [], "decisions": [], "turns": [],
           "stalled": []}
    for i in range(games):
        game_seed = (seed + i) % 2**64
        game = ReferenceEngine(variant, players, game_seed)
        agent = SplitMix64(game_seed ^ 0xD1B54A32D192ED03)
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[agent.below(len(legal))])
        breakdown = game.score_breakdown()
        out["totals"].append([b["total"] for b in breakdown])
        out["tickets_completed"].append([b["tickets_completed"] for b in breakdown])
        out["longest_path"].append([b["longest_path"] for b in breakdown])
        out["decisions"].append(game.decisions)
        out["turns"].append(game.turn)
        out["stalled"].append(game.passes >= players)
    return out
