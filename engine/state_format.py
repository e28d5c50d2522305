"""The state format of docs/engine.md ("State as JSON"): checking a state read from
outside before an engine trusts it, and cutting a player's observation out of it.

The compiled engine indexes C arrays with these numbers, so nothing reaches it unchecked.
"""
from __future__ import annotations

from collections import Counter

from .compiler import ir
from .errors import RailspecError

KEYS = ("format", "variant", "spec_hash", "players", "seed", "rng", "phase", "current", "turn", "decisions",
        "final_turns", "passes", "deck", "discard", "faceup", "ticket_deck", "offer", "offer_keep", "owner",
        "hands", "trains", "route_score", "tickets", "setup_offer")
PHASES = ("setup_keep", "turn", "second_draw", "keep", "over")
FORMAT = "railspec-state/1"


class StateError(RailspecError):
    """A state (JSON or dict) that is not a valid position of this variant."""


def _int(value, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise StateError(f"state field {name!r}: expected an integer in {low}..{high}, got {value!r}")
    return value


def _ints(value, name: str, low: int, high: int, length: int | None = None) -> list[int]:
    if not isinstance(value, list):
        raise StateError(f"state field {name!r}: expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise StateError(f"state field {name!r}: expected {length} entries, got {len(value)}")
    for i, x in enumerate(value):
        _int(x, f"{name}[{i}]", low, high)
    return value


def validate(variant: ir.Variant, state) -> None:
    """Raise :class:`StateError` unless ``state`` is a complete, consistent position of
    ``variant``: right shapes and ranges, every card and ticket accounted for once."""
    if not isinstance(state, dict):
        raise StateError("a state is a JSON object")
    missing = [k for k in KEYS if k not in state]
    if missing:
        raise StateError(f"state is missing {', '.join(missing)}")
    if state["format"] != FORMAT:
        raise StateError(f"state format {state['format']!r} is not {FORMAT!r}")
    if state["variant"] != variant.key or state["spec_hash"] != variant.spec_hash:
        raise StateError(f"state is of variant {state['variant']!r} (spec {state['spec_hash']}), "
                         f"not {variant.key!r} (spec {variant.spec_hash})")
    players = _int(state["players"], "players", variant.min_players, variant.max_players)
    loco = len(variant.colours)
    cards = loco + 1
    n_tickets = len(variant.tickets)
    _int(state["seed"], "seed", 0, 2**64 - 1)
    _int(state["rng"], "rng", 0, 2**64 - 1)
    if state["phase"] not in PHASES:
        raise StateError(f"state field 'phase': {state['phase']!r} is not one of {', '.join(PHASES)}")
    over = state["phase"] == "over"
    _int(state["current"], "current", -1 if over else 0, -1 if over else players - 1)
    _int(state["turn"], "turn", 0, 10**9)
    _int(state["decisions"], "decisions", 0, 10**9)
    _int(state["final_turns"], "final_turns", -1, players)
    _int(state["passes"], "passes", 0, players)
    deck = _ints(state["deck"], "deck", 0, loco)
    discard = _ints(state["discard"], "discard", 0, variant.card_total, cards)
    faceup = _ints(state["faceup"], "faceup", -1, loco, variant.market_size)
    hands = state["hands"]
    if not isinstance(hands, list) or len(hands) != players:
        raise StateError(f"state field 'hands': expected {players} hands")
    for p, hand in enumerate(hands):
        _ints(hand, f"hands[{p}]", 0, variant.card_total, cards)
    counted = Counter(deck) + Counter(c for c in faceup if c >= 0)
    for card in range(cards):
        counted[card] += discard[card] + sum(h[card] for h in hands)
    for colour in variant.colours:
        if counted[colour.id] != colour.count:
            raise StateError(f"state has {counted[colour.id]} {colour.name} cards, the variant {colour.count}")
    if counted[loco] != variant.locomotives:
        raise StateError(f"state has {counted[loco]} locomotives, the variant {variant.locomotives}")
    owner = _ints(state["owner"], "owner", -1, players - 1, len(variant.routes))
    trains = _ints(state["trains"], "trains", 0, variant.trains, players)
    _ints(state["route_score"], "route_score", 0, 10**6, players)
    for p in range(players):
        used = sum(r.length for r in variant.routes if owner[r.id] == p)
        if used + trains[p] != variant.trains:
            raise StateError(f"player {p} has {trains[p]} trains left but owns routes of {used} cars "
                             f"(of {variant.trains})")
    ticket_deck = _ints(state["ticket_deck"], "ticket_deck", 0, n_tickets - 1)
    offer = _ints(state["offer"], "offer", 0, n_tickets - 1)
    _int(state["offer_keep"], "offer_keep", 0, len(offer))
    if len(offer) > variant.max_offer:
        raise StateError(f"state field 'offer': at most {variant.max_offer} tickets")
    held = state["tickets"]
    setup_offer = state["setup_offer"]
    if not isinstance(held, list) or len(held) != players or not isinstance(setup_offer, list) \
            or len(setup_offer) != players:
        raise StateError(f"state fields 'tickets' and 'setup_offer' need {players} lists")
    everywhere = list(ticket_deck) + list(offer)
    for p in range(players):
        everywhere += _ints(held[p], f"tickets[{p}]", 0, n_tickets - 1)
        everywhere += _ints(setup_offer[p], f"setup_offer[{p}]", 0, n_tickets - 1, None)
        if len(setup_offer[p]) > variant.max_offer:
            raise StateError(f"state field 'setup_offer[{p}]': at most {variant.max_offer} tickets")
    regular = sorted(t.id for t in variant.tickets if not t.long)
    if sorted(everywhere) != regular:
        raise StateError("state does not hold every ticket exactly once")


def observation(variant: ir.Variant, state: dict, player: int) -> dict:
    """One player's view: private parts of that player only, public parts of everyone."""
    players = state["players"]
    if not isinstance(player, int) or not 0 <= player < players:
        raise ValueError(f"no player {player!r} in a {players}-player game")
    in_offer = state["phase"] == "keep" and state["current"] == player
    return {
        "player": player,
        "current": state["current"],
        "phase": state["phase"],
        "hand": list(state["hands"][player]),
        "tickets": list(state["tickets"][player]),
        "offer": list(state["setup_offer"][player]) if state["phase"] == "setup_keep"
        else (list(state["offer"]) if in_offer else []),
        "faceup": list(state["faceup"]),
        "owner": list(state["owner"]),
        "trains": list(state["trains"]),
        "route_score": list(state["route_score"]),
        "hand_sizes": [sum(h) for h in state["hands"]],
        "ticket_counts": [len(t) for t in state["tickets"]],
        "deck_size": len(state["deck"]),
        "discard": list(state["discard"]),
        "ticket_deck_size": len(state["ticket_deck"]),
        "final_turns": state["final_turns"],
    }
