"""Determinization: one possible world behind what a player sees.

Search agents for games of hidden information (information-set MCTS, determinized
rollouts) need states that agree with everything one player can see and fill in the
rest at random. :func:`resample` makes such a state from a full one, using only the
state schema: a field's view says which of its entries the player cannot see, and its
pile kind says what those entries hold (train cards or tickets). Every hidden card and
ticket is gathered, shuffled with a generator seeded from the caller's seed, and dealt
back into the same hidden places, so every pile keeps its size and the player's
observation is exactly the same. The game's own generator is reseeded too, so the
chance events still to come (blind draws, tunnel reveals) differ between worlds.

Two rules keep each world possible. A ticket goes back only where a ticket of its kind
sat (a long ticket to a place that held a long ticket), so the long deck still holds
long tickets. And the world is consistent with the observation, not with the game's
history: the observation has no memory of which face-up cards an opponent took or which
tickets the player returned to the bottom of the deck, so neither constrains the deal.
"""
from __future__ import annotations

from ..compiler.assembly import assemble
from ..compiler.base import schema
from ..compiler.base.rng import WORLD_SALT, SplitMix64
from .state_format import StateError, validate


def hidden_rows(field: schema.Field, state: dict, player: int) -> list[int] | None:
    """Which rows of ``field`` ``player`` cannot see: the row indexes of a per-player
    field (``[0]`` for a field with one row), or None when every entry is visible."""
    kind = field.view.kind
    rows = range(state["players"]) if field.per_player else range(1)
    if kind == "hidden":
        return list(rows)
    if kind == "own" and field.per_player:
        return [p for p in rows if p != player]
    if kind == "decider":
        deciding = state["current"] == player and state["phase"] not in (schema.PH_OVER, schema.PH_SETUP_KEEP)
        return [] if deciding else list(rows)
    return None


def _copy(value):
    """A deep copy of state data (dicts, lists and numbers), without deepcopy's memo: the
    searches draw a world per iteration, and this is most of a world's cost."""
    if isinstance(value, list):
        return [_copy(v) if isinstance(v, (list, dict)) else v for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) if isinstance(v, (list, dict)) else v for k, v in value.items()}
    return value


def _rows(field: schema.Field, state: dict) -> list:
    return state[field.name] if field.per_player else [state[field.name]]


#: Worlds drawn for a position in a mechanic's phase before the player to move keeps
#: their own hand and tickets (see :func:`resample`).
TRIES = 16


def resample(variant, state: dict, player: int, seed: int) -> dict:
    """A copy of ``state`` (a full :meth:`Game.state`) in which everything ``player``
    cannot see is redrawn at random from ``seed``: the deck's order, the opponents'
    hands and tickets, the ticket decks, and the game's generator. What ``player`` sees
    is unchanged, piece for piece.

    In a mechanic's own phase the player to move is part-way through a turn whose first
    step was legal only for the cards they held (a station is built only by a player who
    can pay for it), so a world must still allow it. Such worlds are drawn again until
    the state validator accepts one; after :data:`TRIES` refusals the player to move
    keeps their own hidden rows, which is always a valid world."""
    players = state["players"]
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
        raise ValueError(f"no player {player!r} in a {players}-player game")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"a seed is an integer, not {seed!r}")
    rng = SplitMix64((seed % 2**64) ^ WORLD_SALT)
    if state["phase"] in schema.CORE_PHASES:
        return _draw_world(variant, state, (player,), rng)
    for _ in range(TRIES):
        world = _draw_world(variant, state, (player,), rng)
        try:
            validate(variant, world)
            return world
        except StateError:
            continue
    return _draw_world(variant, state, (player, state["current"]), rng)


def _draw_world(variant, state: dict, seen_by: tuple[int, ...], rng: SplitMix64) -> dict:
    """One world: every pile entry none of ``seen_by`` can see, redrawn with ``rng``."""
    fields = [f for f in assemble(variant).exported_fields if f.pile is not None]
    world = _copy(state)

    # Gather: every hidden card id, and every hidden ticket by its kind (long or not).
    cards: list[int] = []
    tickets: dict[str, list[int]] = {}  # by deck: the regular one (""), a mechanic's
    hidden = []
    for f in fields:
        rows = [r for r in set.intersection(*(set(hidden_rows(f, state, p) or ()) for p in seen_by))]
        if rows:
            hidden.append((f, sorted(rows)))
    for field, rows in hidden:
        table = _rows(field, world)
        for r in rows:
            row = table[r]
            if field.pile == schema.CARD_COUNTS:
                for card, count in enumerate(row):
                    cards.extend([card] * count)
            elif field.pile == schema.CARD_IDS:
                cards.extend(c for c in row if c >= 0)
            else:
                for t in row:
                    tickets.setdefault(variant.tickets[t].deck, []).append(t)
    rng.shuffle(cards)
    for deck in sorted(tickets):  # the regular deck first
        rng.shuffle(tickets[deck])

    # Deal back into the same places, in field order.
    next_card = iter(cards)
    next_ticket = {kind: iter(pool) for kind, pool in tickets.items()}
    for field, rows in hidden:
        table = _rows(field, world)
        for r in rows:
            row = table[r]
            if field.pile == schema.CARD_COUNTS:
                size = sum(row)
                counts = [0] * len(row)
                for _ in range(size):
                    counts[next(next_card)] += 1
                table[r] = counts
            elif field.pile == schema.CARD_IDS:
                table[r] = [next(next_card) if c >= 0 else c for c in row]
            else:
                table[r] = [next(next_ticket[variant.tickets[t].deck]) for t in row]
        if not field.per_player:
            world[field.name] = table[0]
    world["rng"] = rng.next()
    return world
