"""The core's stages that read no map: the players, the components (train cards,
locomotives, the market), the turn (actions, the ticket deal, returned tickets), the end
trigger; and the key:value tables several statements write."""
from __future__ import annotations

from dataclasses import dataclass

from .. import ir
from ..base import limits
from ..base.errors import Span
from ..lang import ast
from .merge import Statements
from .report import Errors, line_of

# The bounds these stages check (their reasons are in limits.py and docs/language.md,
# "Limits"); each mechanic checks its own, beside its check.
MAX_PLAYERS = limits.MAX_PLAYERS
MAX_OFFER = limits.MAX_OFFER


@dataclass(frozen=True)
class Players:
    """The player range: its least and greatest number of players."""

    low: int
    high: int
    ok: bool  # checks that depend on the range are skipped when the range itself is wrong


def check_players(spec: Statements) -> Players:
    """The ``players LOW..HIGH`` range: at least 2, at most ``MAX_PLAYERS``, not empty."""
    players = spec.one(ast.Players)
    if not players:
        return Players(2, 2, False)
    low = spec.positive(players.low, "the least number of players")
    high = spec.positive(players.high, "the greatest number of players")
    if low and low < 2:
        spec.errors.add(players.low.span, f"a game needs at least 2 players, got {low}")
    if high > MAX_PLAYERS:
        spec.errors.add(players.high.span, f"at most {MAX_PLAYERS} players are supported, got {high}")
    if low > high:
        spec.errors.add(players.span, f"player range {low}..{high} is empty")
    return Players(low, high, 2 <= low <= high <= MAX_PLAYERS)


@dataclass(frozen=True)
class Components:
    """Trains, hand, card colours (and their ids by name), locomotives and the market."""

    trains: int
    hand: int
    colours: tuple[ir.Colour, ...]
    colour_ids: dict
    locomotives: int
    market_size: int
    reset_locomotives: int


def check_components(spec: Statements, players: Players) -> Components:
    """Trains, hand, card colours, locomotives and the market: each within its bound, and
    a deck big enough for every hand and then the market at the most players."""
    errors = spec.errors
    trains_stmt = spec.one(ast.Trains)
    trains = spec.positive(trains_stmt.count, "trains per player", most=limits.MAX_TRAINS) if trains_stmt else 0
    hand_stmt = spec.one(ast.Hand)
    hand = spec.positive(hand_stmt.count, "the starting hand", allow_zero=True) if hand_stmt else 0

    colours: list[ir.Colour] = []
    colour_ids: dict[str, int] = {}
    counted: list[tuple[ast.Num, int]] = []  # each card and locomotive statement's count
    for card in spec.many(ast.Card):
        name = card.colour.text
        if name in ("gray", "grey", "loco", "locomotive", "ferry"):
            errors.add(card.colour.span, f"'{name}' is reserved and cannot name a card colour")
            continue
        if name in colour_ids:
            errors.add(card.colour.span, f"card colour '{name}' is declared twice "
                                         f"(first at {line_of(colours[colour_ids[name]].span, card.span)})")
            continue
        if len(colours) == limits.MAX_COLOURS:  # still declared, so routes naming it are not errors too
            errors.add(card.colour.span, f"at most {limits.MAX_COLOURS} card colours are supported")
        count = spec.positive(card.count, f"the number of {name} cards", most=limits.MAX_CARDS)
        counted.append((card.count, count))
        colour_ids[name] = len(colours)
        colours.append(ir.Colour(len(colours), name, count, card.colour.span))
    if not spec.many(ast.Card):
        spec.missing.append("'card COLOUR N'")
    elif not colours:
        errors.add(spec.top, "no card colours: declare each with 'card COLOUR COUNT'")
    loco_stmt = spec.one(ast.Locomotives)
    locos = spec.positive(loco_stmt.count, "the number of locomotives", allow_zero=True, most=limits.MAX_CARDS) \
        if loco_stmt else 0
    if loco_stmt:
        counted.append((loco_stmt.count, locos))
    total = sum(c for _, c in counted)
    if total > limits.MAX_CARDS:
        largest = max(counted, key=lambda pair: pair[1])[0]
        errors.add(largest.span, f"the game has {total:,} train cards, more than the {limits.MAX_CARDS:,} "
                                 f"a deck may hold")
    dealt = 0
    if hand_stmt and hand and players.ok and colours and total <= limits.MAX_CARDS:
        dealt = hand * players.high
        if dealt > total:
            errors.add(hand_stmt.count.span, f"a hand of {hand} cards for each of {players.high} players needs "
                                             f"{dealt:,} train cards; the game has {total}")

    market = spec.one(ast.Market)
    market_size = reset_locos = 0
    if market:
        market_size = spec.positive(market.size, "the number of face-up cards", most=limits.MAX_MARKET)
        # 'market N no reset': 0, a market never dealt again (docs/engine.md, "The market")
        reset_locos = spec.positive(market.reset_locomotives, "the face-up locomotive limit")
        if market.max_resets is not None:
            errors.add(market.max_resets.span, "the market has no redeal limit any more: three face-up locomotives "
                                               "always cause a redeal while a market with fewer can be dealt "
                                               "(docs/rules.md); remove 'max N'")
        if market_size and reset_locos > market_size:
            errors.add(market.reset_locomotives.span if market.reset_locomotives else market.span,
                       f"a reset at {reset_locos} locomotives can never happen with {market_size} face-up cards")
        left = total - dealt
        if market_size and colours and players.ok and total <= limits.MAX_CARDS and dealt <= total \
                and market_size > left:
            after = f"once {players.high} players have their hands of {hand}" if dealt else "in the deck"
            errors.add(market.size.span, f"a market of {market_size} cards, but {left} train cards are left {after}")
    return Components(trains=trains, hand=hand, colours=tuple(colours), colour_ids=colour_ids,
                       locomotives=locos, market_size=market_size, reset_locomotives=reset_locos)


@dataclass(frozen=True)
class Turn:
    """What a turn offers and how tickets are dealt, drawn and returned."""

    actions: dict  # action kind -> its ast.Action statement
    draw_cards: int
    draw_tickets: int
    draw_keep: int
    deal_regular: int
    deal_parts: tuple  # (deck, count) of each deck a mechanic deals at set-up, as written
    deal_keep: int
    returned: dict  # deck ("tickets", "setup", a mechanic's) -> "bottom" or a mechanic's place


def check_turn(spec: Statements) -> Turn:
    """The actions a turn offers, the ticket deal and where returned tickets go."""
    errors = spec.errors
    actions_seen: dict[str, ast.Action] = {}
    for act in spec.many(ast.Action):
        if act.kind in actions_seen:
            errors.add(act.span, f"action '{act.kind.replace('_', ' ')}' is given twice "
                                 f"(first at {line_of(actions_seen[act.kind].span, act.span)})")
        actions_seen[act.kind] = act
    for needed in ("draw_cards", "claim_route"):
        if needed not in actions_seen:
            spec.missing.append(f"'action {needed.replace('_', ' ')}'")
    draw_cards = 2
    if "draw_cards" in actions_seen:
        draw_cards = spec.positive(actions_seen["draw_cards"].numbers[0], "the number of cards drawn")
        if draw_cards and draw_cards != 2:
            errors.add(actions_seen["draw_cards"].numbers[0].span,
                       f"drawing {draw_cards} cards is not supported: the family draws 2")
    draw_tickets = draw_keep = 0
    if "draw_tickets" in actions_seen:
        n, k = actions_seen["draw_tickets"].numbers
        draw_tickets = spec.positive(n, "the number of tickets drawn")
        draw_keep = spec.positive(k, "the number of tickets kept")
        if draw_keep > draw_tickets:
            errors.add(k.span, f"cannot keep {draw_keep} of {draw_tickets} drawn tickets")
        if draw_tickets > MAX_OFFER:
            errors.add(n.span, f"at most {MAX_OFFER} tickets can be drawn at once, got {draw_tickets}")
    deal = spec.one(ast.Deal)
    deal_regular = deal_keep = 0
    deal_parts: list[tuple[str, int]] = []
    if deal:
        deal_regular = spec.positive(deal.regular, "the number of tickets dealt")
        for part in deal.parts:
            if any(deck == part.deck for deck, _ in deal_parts):
                errors.add(part.span, f"the {part.deck} tickets are dealt twice")
                continue
            deal_parts.append((part.deck, spec.positive(part.count, f"the number of {part.deck} tickets dealt",
                                                        allow_zero=True)))
        deal_keep = spec.positive(deal.keep, "the number of tickets kept", allow_zero=True)
        dealt = deal_regular + sum(count for _, count in deal_parts)
        if deal_keep > dealt:
            errors.add(deal.keep.span, f"cannot keep {deal_keep} of {dealt} dealt tickets")
        if dealt > MAX_OFFER:
            errors.add(deal.span, f"at most {MAX_OFFER} tickets can be dealt at once")
    returned = {"tickets": "bottom"}
    for ret in spec.many(ast.Returned):
        returned[ret.deck] = ret.place
    returned.setdefault("setup", returned["tickets"])
    return Turn(actions=actions_seen, draw_cards=draw_cards, draw_tickets=draw_tickets, draw_keep=draw_keep,
                 deal_regular=deal_regular, deal_parts=tuple(deal_parts), deal_keep=deal_keep, returned=returned)


def check_end(spec: Statements, parts: Components) -> int:
    """The end trigger: the trains a player may have left when the last round starts."""
    end = spec.one(ast.EndWhen)
    end_trains = spec.positive(end.trains_at_most, "the end trigger", allow_zero=True) if end else 0
    if end and parts.trains and end_trains >= parts.trains:
        spec.errors.add(end.trains_at_most.span,
                        f"the game would end at once: {end_trains} >= {parts.trains} trains")
    # A mechanic reads the first part of its kind (EndWhen.part): a second would be ignored.
    joined = end.parts if end else ()
    for k, part in enumerate(joined):
        if any(type(earlier) is type(part) for earlier in joined[:k]):
            spec.errors.add(part.span, f"the end condition '{getattr(part, 'form', 'and …')}' is joined twice")
    return end_trains


def check_table(entries, what: str, errors: Errors, span: Span, *, open_allowed: bool, from_one: bool = True,
                largest_key: int | None = None, beyond: str = ""):
    """Check a key:value table: keys rising without holes, none above ``largest_key`` (the
    error then says ``beyond``), values from 0 to ``MAX_POINTS``; returns (dict, largest key)."""
    table: dict[int, int] = {}
    for e in entries:
        if e.key.value in table:
            errors.add(e.key.span, f"{what} table gives {e.key.value} twice")
            continue
        if e.key.value <= 0:
            errors.add(e.key.span, f"{what} table keys must be positive, got {limits.shown_number(e.key.value)}")
            continue
        if largest_key is not None and e.key.value > largest_key:
            errors.add(e.key.span, f"{what} table key {limits.shown_number(e.key.value)}: {beyond}")
            continue
        if e.open_ended and not open_allowed:
            errors.add(e.key.span, f"the {what} table cannot have an open-ended entry '{e.key.value}+'")
        if e.value.value < 0:
            errors.add(e.value.span, f"{what} must be zero or more, got {limits.shown_number(e.value.value)}")
        elif e.value.value > limits.MAX_POINTS:
            errors.add(e.value.span, f"{what} must be at most {limits.MAX_POINTS:,}, "
                                     f"got {limits.shown_number(e.value.value)}")
        table[e.key.value] = e.value.value
    if table:
        keys = sorted(table)
        start = 1 if from_one else keys[0]
        for k in range(start, keys[-1] + 1):
            if k not in table:
                after = min((e for e in entries if e.key.value > k), key=lambda e: e.key.value)
                errors.add(after.key.span, f"{what} table has no entry for {k}"
                                           f"{f' (between {k - 1} and {after.key.value})' if k > start else ''}")
                break
        for e in entries:
            if e.open_ended and e.key.value != keys[-1]:
                errors.add(e.key.span, f"the open-ended entry '{e.key.value}+' must have the largest key "
                                       f"in the {what} table")
    return table, (max(table) if table else 0)
