"""The state format of docs/engine.md ("State as JSON"): checking a state read from
outside before an engine trusts it, and cutting a player's observation out of it.

Both follow from the state schema (``compiler/schema.py``) assembled for the variant:
every field's shape and bounds are checked the same generic way, then the core's and each
mechanic's invariants (``state_problems``), and last that the player to move has a legal
action. The compiled engine indexes C arrays with these numbers, so nothing reaches it
unchecked; and since the checks ask for a state play could reach, a state accepted is one
both engines can play on to an end (docs/engine.md, "Checking a state").
"""
from __future__ import annotations

import functools
import itertools
import json
import operator
import re
from collections import Counter

from ..compiler import ir
from ..compiler.assembly import assemble
from ..compiler.base import schema
from ..compiler.base.errors import RailspecError
from ..compiler.base.schema import FORMAT, PH_KEEP, PH_OVER, PH_SECOND_DRAW, PH_SETUP_KEEP, PH_TURN
from ..compiler.mechanic import Invariants, part
from . import reference

#: Kept for callers that read the phase names of the core game.
PHASES = schema.CORE_PHASES


class StateError(RailspecError):
    """A state (JSON or dict) that is not a valid position of this variant."""


#: The most digits an integer of a state's JSON may have: the largest value a field holds
#: (a 64-bit generator state) has 20; far longer ones are refused before Python converts
#: them (it refuses integers over 4,300 digits with a ValueError of its own).
MAX_DIGITS = 100


def _parse_int(digits: str) -> int:
    if len(digits) > MAX_DIGITS:
        raise StateError(f"not a railspec state: an integer of {len(digits.lstrip('-'))} digits "
                         f"(a state's numbers have at most 20)")
    return int(digits)


#: A run of digits longer than any number a state holds.
_LONG_NUMBER = re.compile(r"-?\d{%d,}" % (MAX_DIGITS + 1))
#: Every digit made a zero, so that one substring test finds a long run of digits: a
#: tenth of the regular expression's time, which then only confirms a hit.
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_RUN = b"0" * (MAX_DIGITS + 1)


def _parse_constant(name: str):
    raise StateError(f"not a railspec state: {name} is not a number a state holds")


#: The decoder of state text: made once (json.loads with options makes one per call).
_DECODER = json.JSONDecoder(parse_constant=_parse_constant)

#: The longest state text read. The largest state a spec within the limits of
#: docs/language.md can have is far below it (a USA state is about 2 KB); reading
#: hundreds of megabytes would only take time before the validator refused them.
MAX_STATE_CHARS = 8 * 1024 * 1024


def loads(text: str | bytes) -> dict:
    """A state's JSON text as Python data (a leading byte order mark skipped), or
    :class:`StateError`: text that is not JSON,
    text longer than :data:`MAX_STATE_CHARS`, nesting too deep for the parser, integers
    too long to be any field's value, and ``NaN``/``Infinity`` all are, with a message,
    never another exception. The result is not checked yet: :func:`validate` does that."""
    if isinstance(text, (str, bytes, bytearray)) and len(text) > MAX_STATE_CHARS:
        raise StateError(f"not a railspec state: {len(text):,} characters, more than any state holds "
                         f"({MAX_STATE_CHARS:,} at most)")
    if isinstance(text, str):
        text = text.removeprefix("\ufeff")  # a byte order mark, as every other reader skips it
    # a number too long for any field is refused before the parser converts it; one scan
    # of the text is far cheaper than a hook called for each of a state's integers
    long_number = None
    if isinstance(text, str) and _LONG_RUN in text.encode("utf-8", "surrogatepass").translate(_DIGITS_TO_ZERO):
        long_number = _LONG_NUMBER.search(text)
    if long_number:
        _parse_int(long_number.group())
    try:
        if isinstance(text, str):
            return _DECODER.decode(text)
        return json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant)
    except StateError:
        raise
    except RecursionError:
        raise StateError("not a railspec state: JSON nested too deep") from None
    except (ValueError, TypeError) as err:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise StateError(f"not a railspec state: {err}") from None


def holds_no_booleans(text: str | bytes) -> bool:
    """Whether JSON ``text`` can hold no true or false (it has neither word anywhere): then
    every number read from it is an int, never a bool, and the compiled loader's checks of
    each field are the validator's own (see :func:`validate`'s ``shapes_checked``)."""
    if isinstance(text, str):
        return "true" not in text and "false" not in text
    return b"true" not in text and b"false" not in text


def _show(value) -> str:
    """A value as a message shows it: short, and never by a repr() that cannot finish (an
    integer of thousands of digits, a list nested thousands deep)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return repr(value) if value.bit_length() <= 128 else f"an integer of {value.bit_length()} bits"
    if value is None or isinstance(value, (bool, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40]) + "…"
    if isinstance(value, list):
        if len(value) <= 8 and all(not isinstance(x, (list, dict)) for x in value):
            return "[" + ", ".join(_show(x) for x in value) + "]"
        return f"a list of {len(value)} entries"
    if isinstance(value, dict):
        return f"an object of {len(value)} keys"
    return f"a {type(value).__name__}"


def _int(value, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise StateError(f"state field {name!r}: expected an integer in {low}..{high}, got {_show(value)}")
    return value


def _list(value, name: str, length: int | None = None, most: int | None = None) -> list:
    if not isinstance(value, list):
        raise StateError(f"state field {name!r}: expected a list, got {_show(value)}")
    if length is not None and len(value) != length:
        raise StateError(f"state field {name!r}: expected {length} entries, got {len(value)}")
    if most is not None and len(value) > most:
        raise StateError(f"state field {name!r}: at most {most} entries, got {len(value)}")
    return value


@functools.lru_cache(maxsize=256)
def _field_plan(variant: ir.Variant, players: int) -> tuple:
    """Each exported field with its value range and its length (fixed) or capacity, for
    one variant and player count: worked out once, not at every state read."""
    assembly = assemble(variant)
    dims = assembly.dims
    plan = []
    for field in assembly.exported_fields:
        if field.kind == "u64":
            low, high = 0, 2**64 - 1
        elif field.kind == "phase":
            low = high = 0
        else:
            low = schema.bound_value(field.low, dims, players)
            high = schema.bound_value(field.high, dims, players)
        length = dims[field.size] if field.size else None
        plan.append((field, low, high, length, dims[field.cap] if field.cap else None))
    return tuple(plan)


#: The one type a list of a state's numbers may hold (a bool is not an int here).
_INT_ONLY = frozenset((int,))
_LIST_ONLY = frozenset((list,))


def _check_field(field: schema.Field, value, bounds: tuple, players: int, phases) -> None:
    """One field's shape and the range of each of its values (``bounds``: its low, high,
    length and capacity, from :func:`_field_plan`). The common case (a sound state) is
    tested in a few C-level calls per row; the message-making checks run only on a failure."""
    if field.kind == "phase":
        if not isinstance(value, str) or value not in phases:
            raise StateError(f"state field 'phase': {_show(value)} is not one of {', '.join(phases)}")
        return
    low, high, length, most = bounds
    if field.per_player:
        if type(value) is not list or len(value) != players:
            _list(value, field.name, length=players)
        rows = value
    else:
        rows = (value,)
    if length is None and most is None:  # numbers
        for p, v in enumerate(rows):
            if type(v) is not int or not low <= v <= high:
                _int(v, f"{field.name}[{p}]" if field.per_player else field.name, low, high)
        return
    if _LIST_ONLY.issuperset(map(type, rows)):  # every row checked at once, in C-level passes
        sizes = set(map(len, rows))
        if (length is None or sizes <= {length}) and (most is None or max(sizes, default=0) <= most):
            values = list(itertools.chain.from_iterable(rows)) if field.per_player else value
            if not values or (_INT_ONLY.issuperset(map(type, values)) and low <= min(values) and max(values) <= high):
                return
    for p, v in enumerate(rows):  # something is wrong: find it, row by row, and say what
        if type(v) is not list or (length is not None and len(v) != length) or (most is not None and len(v) > most):
            _list(v, f"{field.name}[{p}]" if field.per_player else field.name, length=length, most=most)
        if v and not (_INT_ONLY.issuperset(map(type, v)) and low <= min(v) and max(v) <= high):
            name = f"{field.name}[{p}]" if field.per_player else field.name
            for i, x in enumerate(v):  # name the first entry that is wrong
                _int(x, f"{name}[{i}]", low, high)


def check_field(variant: ir.Variant, field: schema.Field, value, players: int) -> None:
    """A :class:`StateError` when ``value`` is not a value of ``field`` (its shape, and the
    range of each of its numbers) in a game of ``players``."""
    for planned, low, high, length, most in _field_plan(variant, players):
        if planned.name == field.name:
            _check_field(field, value, (low, high, length, most), players, assemble(variant).phases)
            return
    raise StateError(f"{variant.name} has no state field {field.name!r}")


def pile_contents(fields, state: dict, cards: int) -> tuple[list[int], list[int]]:
    """Every train card (a count per card id, ``cards`` of them) and every ticket (a list of
    ids) that the state's pile fields hold: the core's and the mechanics' (``Field.pile``).
    The fields are shape-checked already, so every card id is below ``cards``."""
    counts = [0] * cards
    tickets: list[int] = []
    for field in fields:
        if field.pile is None:
            continue
        rows = state[field.name] if field.per_player else (state[field.name],)
        for row in rows:
            if field.pile == schema.CARD_COUNTS:
                if len(row) == cards:  # a count per card: added in one C-level pass
                    counts = list(map(operator.add, counts, row))
                else:
                    for card, count in enumerate(row):
                        _add_card(counts, card, count)
            elif field.pile == schema.CARD_IDS:
                for card, count in Counter(row).items():
                    if 0 <= card < cards:
                        counts[card] += count
                    elif card >= 0:  # -1: an empty slot
                        _add_card(counts, card, count)
            else:
                tickets.extend(row)
    return counts, tickets


def _add_card(counts: list[int], card: int, count: int) -> None:
    if card >= len(counts):  # a card the core does not count (a mechanic's own)
        counts.extend([0] * (card + 1 - len(counts)))
    counts[card] += count


def core_problems(variant: ir.Variant, state: dict, fields=None) -> list[str]:
    """The core game's invariants of a shape-checked state: every card and ticket is in
    exactly one pile (``fields``: the variant's state fields, whose piles count), trains
    and route points agree with the routes owned, the phase has what it needs
    (:func:`phase_problems`) and the end of the game is where play would have put it
    (:func:`end_problems`)."""
    if fields is None:
        fields = assemble(variant).fields
    problems = []
    players = state["players"]
    loco = len(variant.colours)
    counted, tickets = pile_contents(fields, state, loco + 1)

    def piles() -> str:
        return ", ".join(f.name for f in fields if f.pile in (schema.CARD_COUNTS, schema.CARD_IDS) and not f.derived)
    for colour in variant.colours:
        if counted[colour.id] != colour.count:
            problems.append(f"train cards: the piles ({piles()}) hold {counted[colour.id]} {colour.name} cards, "
                            f"the variant has {colour.count}")
    if counted[loco] != variant.locomotives:
        problems.append(f"train cards: the piles ({piles()}) hold {counted[loco]} locomotives, the variant has "
                        f"{variant.locomotives}")
    if len(tickets) != len(variant.tickets) or sorted(tickets) != list(range(len(variant.tickets))):
        problems.append("tickets: the ticket piles do not hold every ticket exactly once")
    showing = state["faceup"].count(loco)
    if variant.market_reset_locomotives and showing >= variant.market_reset_locomotives:  # 0: 'no reset'
        outside = len(state["deck"]) + sum(1 for c in state["faceup"] if c >= 0) + sum(state["discard"])
        plain = sum(1 for c in state["deck"] if c != loco) + sum(1 for c in state["faceup"] if 0 <= c != loco) \
            + sum(state["discard"][:loco])
        if min(variant.market_size, outside) - plain < variant.market_reset_locomotives:
            problems.append(f"state field 'faceup': {showing} face-up locomotives, but the cards outside the "
                            f"hands can make a market with fewer: the market should have been redealt")
    owner = state["owner"]
    taken = assemble(variant).route_trains  # a route's length, and what a mechanic's rule adds
    worth = _route_worth(variant)
    used, points = [0] * players, [0] * players
    for who, trains, score in zip(owner, taken, worth):
        if 0 <= who < players:
            used[who] += trains
            points[who] += score
    # a route's further owners (a mechanic's co_owner field, a shared claim) placed their
    # trains on it too; its points are that mechanic's to score
    for field in assemble(variant).fields:
        if field.co_owner:
            for who, trains in zip(state[field.name], taken):
                if 0 <= who < players:
                    used[who] += trains
    for p in range(players):
        if used[p] + state["trains"][p] != variant.trains:
            problems.append(f"state field 'trains[{p}]': player {p} has {state['trains'][p]} trains left but owns "
                            f"routes that took {used[p]} trains (of {variant.trains})")
        if state["route_score"][p] != points[p]:
            problems.append(f"state field 'route_score[{p}]': player {p} has {state['route_score'][p]} route "
                            f"points but owns routes worth {points[p]}")
    return problems + phase_problems(variant, state) + end_problems(variant, state)


@functools.lru_cache(maxsize=64)
def _route_worth(variant: ir.Variant) -> tuple[int, ...]:
    """Each route's points, by route id."""
    return tuple(variant.route_points[r.length] for r in variant.routes)


def phase_problems(variant: ir.Variant, state: dict) -> list[str]:
    """The core's phases against what each needs: the player to move; the tickets offered
    (``offer`` and ``offer_keep`` in ``keep`` only, a draw's worth; ``setup_offer`` in
    ``setup_keep`` only, for the players still to choose, enough to keep); a card to draw in
    ``second_draw``; and during set-up, nothing played yet."""
    problems = []
    phase, current = state["phase"], state["current"]
    if (phase == PH_OVER) != (current == -1):
        problems.append(f"state field 'current': {current} in phase {phase!r}, but it is -1 exactly when the "
                        f"game is over")
    offer, keep = state["offer"], state["offer_keep"]
    if phase == PH_KEEP:
        if not offer:
            problems.append("state field 'offer': the keep phase chooses from drawn tickets, but the offer is empty")
        elif len(offer) > variant.draw_tickets:
            problems.append(f"state field 'offer': {len(offer)} tickets offered, but a ticket draw takes at most "
                            f"{variant.draw_tickets}")
        elif keep != min(variant.draw_tickets_keep, len(offer)):
            problems.append(f"state field 'offer_keep': at least {keep} of {len(offer)} tickets to keep, but the "
                            f"variant keeps at least {min(variant.draw_tickets_keep, len(offer))} of them")
    else:
        if offer:
            problems.append(f"state field 'offer': {len(offer)} tickets offered outside the keep phase (phase "
                            f"{phase!r})")
        if keep:
            problems.append(f"state field 'offer_keep': {keep} tickets to keep outside the keep phase (phase "
                            f"{phase!r})")
    dealt = variant.deal_total
    least = max(1, variant.deal_keep)  # a keep action keeps one ticket at least
    setup = phase == PH_SETUP_KEEP
    for p, dealt_offer in enumerate(state["setup_offer"]):
        to_choose = setup and p >= current
        if len(dealt_offer) > dealt:
            problems.append(f"state field 'setup_offer[{p}]': {len(dealt_offer)} tickets, but the variant deals "
                            f"{dealt}")
        elif to_choose and len(dealt_offer) < least:
            problems.append(f"state field 'setup_offer[{p}]': player {p} is still to choose set-up tickets from "
                            f"{len(dealt_offer)}, fewer than the {least} to keep")
        elif not to_choose and dealt_offer:
            when = f"player {p} has chosen already" if setup else f"set-up is over (phase {phase!r})"
            problems.append(f"state field 'setup_offer[{p}]': {len(dealt_offer)} set-up tickets, but {when}")
        if setup:
            kept = len(state["tickets"][p])
            if p >= current and kept:
                problems.append(f"state field 'tickets[{p}]': player {p} holds {kept} tickets before choosing "
                                f"set-up tickets")
            elif p < current and kept < least:
                problems.append(f"state field 'tickets[{p}]': player {p} has chosen set-up tickets but kept "
                                f"{kept}, fewer than {least}")
    if setup:
        for name in ("turn", "passes"):
            if state[name]:
                problems.append(f"state field {name!r}: {state[name]} during set-up, before the first turn")
        if any(o != -1 for o in state["owner"]):
            problems.append("state field 'owner': routes are owned during set-up, before the first turn")
    if phase == PH_SECOND_DRAW and not state["deck"] and not any(state["discard"]):
        problems.append("state field 'deck': the second draw needs a card to draw, but the deck and the "
                        "discards are empty")
    return problems


def end_problems(variant: ir.Variant, state: dict) -> list[str]:
    """``final_turns`` and ``passes`` against the phase and the trains left (docs/engine.md,
    "The end of a turn"): the game is over exactly when the last round has run out or a
    full round passed; the last round has started exactly when a player ended a turn with
    ``end_trains`` or fewer (the player to move may have just got there)."""
    problems = []
    phase, current, players = state["phase"], state["current"], state["players"]
    final, passes, trains = state["final_turns"], state["passes"], state["trains"]
    if phase == PH_OVER:
        if final != 0 and passes < players:
            problems.append(f"state field 'phase': the game is over, but the last round has not run out "
                            f"(final_turns {final}) and not every player passed (passes {passes} of {players})")
    else:
        if final == 0:
            problems.append(f"state field 'final_turns': 0 turns left in the last round, but the game is not over "
                            f"(phase {phase!r}): -1 before the last round, 1..{players} during it")
        if passes >= players:
            problems.append(f"state field 'passes': {passes} turns in a row passed, a full round of "
                            f"{players}: the game should be over")
    end = variant.end_trains
    if final >= 0 and min(trains) > end and not _mechanic_triggered(variant, state):
        problems.append(f"state field 'final_turns': {final} turns left in the last round, but no player has "
                        f"{end} trains or fewer to have started it")
    if final == -1:
        gate = _end_gate(variant, state)
        if gate is None:
            for p, left in enumerate(trains):
                if left <= end and p != current:
                    problems.append(f"state field 'final_turns': -1 (the last round not started), but player {p} "
                                    f"ended a turn with {left} trains, {end} or fewer")
        elif gate and phase == PH_TURN and state["turn"] > 0 and min(trains) <= end:
            # conditions joined to the trigger: the last turn ended with one player at end_trains
            # or fewer and every condition holding (nothing changes between the two)
            problems.append(f"state field 'final_turns': -1 (the last round not started), but player "
                            f"{trains.index(min(trains))} has {min(trains)} trains, {end} or fewer, and the "
                            f"conditions joined to the end trigger hold")
    return problems


def _end_gate(variant: ir.Variant, state: dict) -> bool | None:
    """Whether the conditions joined to the core's end trigger (the end_gate hooks) hold;
    None when the variant joins none."""
    rules = reference.rules_for(variant)
    if not rules.hooks["end_gate"]:
        return None
    view = schema.PlainState(rules.assembly.fields, {f.name: state[f.name] for f in rules.assembly.exported_fields})
    return all(hook(view) for hook in rules.hooks["end_gate"])


def _mechanic_triggered(variant: ir.Variant, state: dict) -> bool:
    """Whether a mechanic's end trigger (the end_triggered hook) holds for some player."""
    rules = reference.rules_for(variant)
    if not rules.hooks["end_triggered"]:
        return False
    view = schema.PlainState(rules.assembly.fields, {f.name: state[f.name] for f in rules.assembly.exported_fields})
    return any(hook(view, p) for p in range(state["players"]) for hook in rules.hooks["end_triggered"])


def legal_problem(variant: ir.Variant, state: dict) -> str | None:
    """What is wrong when the player to move has no legal action in a game not over (the
    last check: the structural ones name the usual causes first). The reference
    interpreter lists the moves of the phase; in ``turn`` passing is legal when nothing else
    is, so a turn always has one."""
    phase = state["phase"]
    if phase in (PH_OVER, PH_TURN):
        return None
    rules = reference.rules_for(variant)
    view = schema.PlainState(rules.assembly.fields, {f.name: state[f.name] for f in rules.assembly.exported_fields})
    if rules.phase_legal[phase](view):
        return None
    return f"state field 'phase': {phase!r}, but player {state['current']} has no legal action in it"


def pending_claim_problems(variant: ir.Variant, state: dict) -> list[str]:
    """Why a claim under way (a ``pending_claim`` field) is one the player to move could not
    have started: the route taken, closed to them by a mechanic's rule, or longer than
    their trains. In a variant with a further owner's field (``co_owner``), another
    player's route that no rule closes may be under way too: a shared claim."""
    rules = reference.rules_for(variant)
    fields = [f for f in rules.assembly.exported_fields if f.pending_claim and state[f.name] != -1]
    if not fields:
        return []
    view = schema.PlainState(rules.assembly.fields, {f.name: state[f.name] for f in rules.assembly.exported_fields})
    player, problems = state["current"], []
    sharing = any(f.co_owner for f in rules.assembly.fields)  # a mechanic's claims of owned routes
    for field in fields:
        route = variant.routes[state[field.name]]
        need = rules.assembly.route_trains[route.id]  # its length, and what a mechanic's rule adds
        owner = state["owner"][route.id]
        shared = (sharing and 0 <= owner < state["players"] and owner != player
                  and all(hook(view, route, player) for hook in rules.hooks["route_open"]))
        if not (rules.route_claimable(view, route, player) or shared):
            problems.append(f"state field {field.name!r}: player {player}'s claim of {route.name} is under way, "
                            f"but the route is not one they may claim (taken, or closed to them)")
        elif state["trains"][player] < need and not rules.takes_for_nobody(view, route, player):
            problems.append(f"state field 'trains[{player}]': player {player} has {state['trains'][player]} trains "
                            f"left, too few for the claim of {route.name} ({need} trains) under way in "
                            f"{field.name!r}")
    return problems


def validate(variant: ir.Variant, state, shapes_checked: bool = False) -> None:
    """Raise :class:`StateError` unless ``state`` is a complete, consistent position of
    ``variant`` that play could have reached: right keys, shapes and ranges; every card,
    train and ticket accounted for once; the phase with what it needs and the end of the
    game where play puts it; every mechanic's invariants kept; and a legal action for the
    player to move unless the game is over (docs/engine.md, "Checking a state").

    ``shapes_checked``: the caller has had every field's shape and range checked already
    (the compiled engine's loader, on data read from JSON without booleans, checks the same
    bounds), so only the keys and the rules are checked here."""
    assembly = assemble(variant)
    if not isinstance(state, dict):
        raise StateError(f"a state is a JSON object, not {_show(state)}")
    keys = assembly.state_keys
    missing = [k for k in keys if k not in state]
    if missing:
        raise StateError(f"state is missing {', '.join(missing)}")
    if len(state) != len(keys):  # every key is there: any more are unknown
        known = set(keys)
        unknown = [k for k in state if k not in known]
        raise StateError(f"state has unknown key{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(_show(k) for k in unknown[:5])} (a {variant.key} state has "
                         f"{len(keys)} keys, docs/engine.md)")
    if state["format"] != FORMAT:
        raise StateError(f"state format {_show(state['format'])} is not {FORMAT!r}")
    if not isinstance(state["variant"], str) or len(state["variant"]) > 1000:
        raise StateError(f"state field 'variant': the name of a variant, not {_show(state['variant'])}")
    # the spec hash says which game a state is of; a copy of the spec under another file
    # name is the same game (positions and traces match the same way)
    if state["spec_hash"] != variant.spec_hash:
        raise StateError(f"state is of variant {_show(state['variant'])} (spec {_show(state['spec_hash'])}), "
                         f"not {variant.key!r} (spec {variant.spec_hash})")
    players = _int(state["players"], "players", variant.min_players, variant.max_players)
    if not shapes_checked:
        for field, low, high, length, most in _field_plan(variant, players):
            _check_field(field, state[field.name], (low, high, length, most), players, assembly.phases)
    problems = core_problems(variant, state, assembly.fields)
    for mechanic, rule in assembly.present:
        problems += part(mechanic, Invariants).state_problems(variant, rule, state)
    if not problems:  # the rules run on a state that is sound so far
        problems = pending_claim_problems(variant, state)
    if not problems:
        problem = legal_problem(variant, state)
        problems = [problem] if problem else []
    if problems:
        more = f" (and {len(problems) - 1} more problem{'s' if len(problems) > 2 else ''})" \
            if len(problems) > 1 else ""
        raise StateError(problems[0] + more)


#: The views an observation plan tells apart (:func:`_observation_plan`): any other shows only its summary.
_PUBLIC, _DECIDER, _OWN = 1, 2, 3


@functools.lru_cache(maxsize=64)
def _observation_plan(variant: ir.Variant) -> tuple[tuple, ...]:
    """Each exported field's part in an observation, read once per variant (the agents build
    one before many decisions): the field, its name, its view (_PUBLIC, _DECIDER, _OWN or 0),
    the name it is shown under, its summary's name (or ""), whether the summary sums (else
    counts), and whether the field holds an entry per player."""
    kinds = {"public": _PUBLIC, "decider": _DECIDER, "own": _OWN}
    return tuple((field, field.name, kinds.get(field.view.kind, 0),
                  field.name if field.view.kind == "public" else field.view.alias or field.name,
                  field.view.summary or "", field.view.summary_of == "sum", field.per_player)
                 for field in assemble(variant).exported_fields)


def observation(variant: ir.Variant, state: dict, player: int, fresh: bool = False) -> dict:
    """One player's view, field by field as the schema's views say: public fields as they
    are; hidden ones as their size at most; per-player private ones as the player's own
    entry (under the view's alias) plus everyone's size; an offer being decided on to the
    player deciding only. ``fresh``: ``state`` was exported for this call alone, so its
    lists may be handed out as they are instead of copied."""
    players = state["players"]
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < players:
        raise ValueError(f"no player {player!r} in a {players}-player game")
    out: dict = {"player": player}
    copy = schema.copy_value
    deciding = state["current"] == player and state["phase"] not in (PH_OVER, PH_SETUP_KEEP)
    for field, name, view, shown, summary, summed, per_player in _observation_plan(variant):
        value = state[name]
        if view == _PUBLIC:
            out[shown] = value if fresh else copy(field, value)
        elif view == _DECIDER:
            out[shown] = (value if fresh else copy(field, value)) if deciding else []
        elif view == _OWN:
            own = value[player]
            out[shown] = list(own) if isinstance(own, list) and not fresh else own
        if summary:
            if per_player:
                out[summary] = [sum(v) if summed else len(v) for v in value]
            else:
                out[summary] = sum(value) if summed else len(value)
    return out
