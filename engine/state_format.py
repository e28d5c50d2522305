"""The state format of docs/engine.md ("State as JSON"): checking a state read from
outside before an engine trusts it, and cutting a player's observation out of it.

Both follow from the state schema (``compiler/schema.py``) assembled for the variant:
every field's shape and bounds are checked the same generic way, then the core's and each
mechanic's invariants (``state_problems``). The compiled engine indexes C arrays with
these numbers, so nothing reaches it unchecked.
"""
from __future__ import annotations

from collections import Counter

from .compiler import ir, schema
from .compiler.assembly import assemble
from .compiler.schema import FORMAT, PH_KEEP, PH_OVER, PH_SETUP_KEEP
from .errors import RailspecError

#: Kept for callers that read the phase names of the core game.
PHASES = schema.CORE_PHASES


class StateError(RailspecError):
    """A state (JSON or dict) that is not a valid position of this variant."""


def _int(value, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise StateError(f"state field {name!r}: expected an integer in {low}..{high}, got {value!r}")
    return value


def _list(value, name: str, length: int | None = None, most: int | None = None) -> list:
    if not isinstance(value, list):
        raise StateError(f"state field {name!r}: expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise StateError(f"state field {name!r}: expected {length} entries, got {len(value)}")
    if most is not None and len(value) > most:
        raise StateError(f"state field {name!r}: at most {most} entries, got {len(value)}")
    return value


def _check_field(field: schema.Field, value, dims: dict, players: int, phases) -> None:
    """One field's shape and the range of each of its values."""
    if field.kind == "phase":
        if value not in phases:
            raise StateError(f"state field 'phase': {value!r} is not one of {', '.join(phases)}")
        return
    if field.kind == "u64":
        low, high = 0, 2**64 - 1
    else:
        low = schema.bound_value(field.low, dims, players)
        high = schema.bound_value(field.high, dims, players)

    def one(v, name: str) -> None:
        if field.is_scalar:
            _int(v, name, low, high)
            return
        if field.size:
            _list(v, name, length=dims[field.size])
        else:
            _list(v, name, most=dims[field.cap])
        if v and not (all(type(x) is int for x in v) and low <= min(v) and max(v) <= high):
            for i, x in enumerate(v):  # name the first entry that is wrong
                _int(x, f"{name}[{i}]", low, high)
    if field.per_player:
        _list(value, field.name, length=players)
        for p, v in enumerate(value):
            one(v, f"{field.name}[{p}]")
    else:
        one(value, field.name)


def pile_contents(fields, state: dict) -> tuple[Counter, list[int]]:
    """Every train card (a count per card id) and every ticket (a list of ids) that the
    state's pile fields hold: the core's and the mechanics' (``Field.pile``)."""
    cards: Counter = Counter()
    tickets: list[int] = []
    for field in fields:
        if field.pile is None:
            continue
        rows = state[field.name] if field.per_player else [state[field.name]]
        for row in rows:
            if field.pile == schema.CARD_COUNTS:
                for card, count in enumerate(row):
                    cards[card] += count
            elif field.pile == schema.CARD_IDS:
                cards.update(c for c in row if c >= 0)
            else:
                tickets.extend(row)
    return cards, tickets


def core_problems(variant: ir.Variant, state: dict, fields=None) -> list[str]:
    """The core game's invariants of a shape-checked state: the phase and the player to
    move agree, every card and ticket is in exactly one pile (``fields``: the variant's
    state fields, whose piles count), trains and route points agree with the routes owned."""
    if fields is None:
        fields = assemble(variant).fields
    problems = []
    players = state["players"]
    over = state["phase"] == PH_OVER
    if over != (state["current"] == -1):
        problems.append("current is -1 exactly when the game is over")
    if state["offer_keep"] > len(state["offer"]):
        problems.append(f"offer_keep {state['offer_keep']} does not fit an offer of {len(state['offer'])}")
    if state["phase"] != PH_KEEP and state["offer"]:
        problems.append(f"an offer of {len(state['offer'])} tickets outside the keep phase")
    for p, offer in enumerate(state["setup_offer"]):
        if len(offer) > variant.deal_regular + variant.deal_long:
            problems.append(f"player {p} holds a set-up offer of {len(offer)} tickets")
    loco = len(variant.colours)
    counted, tickets = pile_contents(fields, state)
    for colour in variant.colours:
        if counted[colour.id] != colour.count:
            problems.append(f"state has {counted[colour.id]} {colour.name} cards, the variant {colour.count}")
    if counted[loco] != variant.locomotives:
        problems.append(f"state has {counted[loco]} locomotives, the variant {variant.locomotives}")
    showing = state["faceup"].count(loco)
    if showing >= variant.market_reset_locomotives:
        outside = len(state["deck"]) + sum(1 for c in state["faceup"] if c >= 0) + sum(state["discard"])
        plain = sum(1 for c in state["deck"] if c != loco) + sum(1 for c in state["faceup"] if 0 <= c != loco) \
            + sum(state["discard"][:loco])
        if min(variant.market_size, outside) - plain < variant.market_reset_locomotives:
            problems.append(f"{showing} face-up locomotives, but the cards outside the hands can make a market "
                            f"with fewer: the market should have been redealt")
    owner = state["owner"]
    for p in range(players):
        mine = [r for r in variant.routes if owner[r.id] == p]
        used = sum(r.length for r in mine)
        if used + state["trains"][p] != variant.trains:
            problems.append(f"player {p} has {state['trains'][p]} trains left but owns routes of {used} cars "
                            f"(of {variant.trains})")
        points = sum(variant.route_points[r.length] for r in mine)
        if state["route_score"][p] != points:
            problems.append(f"player {p} has {state['route_score'][p]} route points but owns routes worth {points}")
    if sorted(tickets) != list(range(len(variant.tickets))):
        problems.append("state does not hold every ticket exactly once")
    return problems


def validate(variant: ir.Variant, state, registry=None) -> None:
    """Raise :class:`StateError` unless ``state`` is a complete, consistent position of
    ``variant``: right shapes and ranges, every card and ticket accounted for once, and
    every mechanic's invariants kept."""
    assembly = assemble(variant, registry)
    if not isinstance(state, dict):
        raise StateError("a state is a JSON object")
    missing = [k for k in assembly.state_keys if k not in state]
    if missing:
        raise StateError(f"state is missing {', '.join(missing)}")
    if state["format"] != FORMAT:
        raise StateError(f"state format {state['format']!r} is not {FORMAT!r}")
    if state["variant"] != variant.key or state["spec_hash"] != variant.spec_hash:
        raise StateError(f"state is of variant {state['variant']!r} (spec {state['spec_hash']}), "
                         f"not {variant.key!r} (spec {variant.spec_hash})")
    players = _int(state["players"], "players", variant.min_players, variant.max_players)
    for field in assembly.exported_fields:
        _check_field(field, state[field.name], assembly.dims, players, assembly.phases)
    problems = core_problems(variant, state, assembly.fields)
    for mechanic, rule in assembly.present:
        problems += mechanic.state_problems(variant, rule, state)
    if problems:
        raise StateError(problems[0])


def observation(variant: ir.Variant, state: dict, player: int, registry=None) -> dict:
    """One player's view, field by field as the schema's views say: public fields as they
    are; hidden ones as their size at most; per-player private ones as the player's own
    entry (under the view's alias) plus everyone's size; an offer being decided on to the
    player deciding only."""
    players = state["players"]
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < players:
        raise ValueError(f"no player {player!r} in a {players}-player game")
    out: dict = {"player": player}
    for field in assemble(variant, registry).exported_fields:
        view = field.view
        value = state[field.name]
        if view.kind == "public":
            out[field.name] = schema.copy_value(field, value)
        elif view.kind == "decider":
            deciding = state["current"] == player and state["phase"] not in (PH_OVER, PH_SETUP_KEEP)
            out[view.alias or field.name] = schema.copy_value(field, value) if deciding else []
        elif view.kind == "own":
            own = value[player]
            out[view.alias or field.name] = list(own) if isinstance(own, list) else own
        if view.summary:
            if field.per_player:
                out[view.summary] = [sum(v) if view.summary_of == "sum" else len(v) for v in value]
            else:
                out[view.summary] = sum(value) if view.summary_of == "sum" else len(value)
    return out
