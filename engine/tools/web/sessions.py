"""The games and replays ``railspec play`` serves, and what the page is sent of them.

A :class:`PlaySession` is one game: a person in one seat, agents in the others. What the
page receives of it is built by :func:`play_view` from the person's observation alone
(``Game.observation(seat)``) and the variant's public facts: never another seat's hand or
tickets, nor the deck's order. The page names every decision by the game's own action
name; the session checks it against ``legal_actions()`` before anything changes.

A :class:`ReplaySession` is a recorded trace (docs/formats.md), replayed once when it is
loaded; the page steps through it forward and back.

Nothing here knows a mechanic: fields are shown as the state schema describes them
(their ``names``, sizes and views), actions are grouped by what they are about (a route,
a city) or by the mechanic that declares their kind, score items are labelled from the
mechanic that adds them. Errors are :class:`RequestError`: an HTTP status and one line.
"""
from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ...compiler import ir
from ...compiler.base import schema
from ...compiler.base.errors import IllegalActionError, RailspecError
from ...compiler.mechanic import Drawing, Mechanic, part
from ...playtest import agents as agent_kinds
from ...playtest.render import CARD_COLOURS, PLAYER_COLOURS, colour_of, looks, render_svg
from ...runtime.game import Game, Variant
from ...runtime.notation import component_names, value_names
from .. import trace

#: A game or replay nobody asked about for this long is dropped.
IDLE_SECONDS = 3600.0
#: The most games and replays kept at once; a new one beyond it drops the least recently
#: used of those not in use.
MAX_SESSIONS = 64
#: The ids of dropped sessions remembered, so that a request for one says why it is gone.
REMEMBERED_DROPS = 1024
#: The core fields the page draws in panels of their own (the map, the market, the hand,
#: the tickets); every other field is listed generically.
DRAWN_APART = frozenset({"players", "phase", "current", "turn", "decisions", "owner", "faceup", "hands",
                         "tickets", "offer", "setup_offer", "offer_keep"})
#: The fields the page shows of the person's own tickets.
TICKET_PANELS = ("tickets", "offer", "setup_offer")


class RequestError(RailspecError, ValueError):
    """A request the server refuses: ``status`` (a 4xx) and a one-line message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


# --- the variant's public facts ------------------------------------------------------

def _words(key: str) -> str:
    return key.replace("_", " ")


def kind_groups(variant) -> dict[str, tuple[str, str]]:
    """Each action kind of ``variant``: the key and heading of the group the page lists it
    in. A mechanic's kinds share one group under the mechanic's title; the core's are a
    group each, named by the kind."""
    groups = {}
    for mechanic, _ in variant.assembly.present:
        for kind in mechanic.kinds:
            groups[kind] = (mechanic.name, mechanic.title)
    return {kind: groups.get(kind, (kind, _words(kind))) for kind in variant.assembly.kinds}


def owner_titles(variant) -> dict[str, str]:
    """The heading of what each owner adds: ``core`` and each mechanic's title."""
    titles = {"core": "the base game"}
    for mechanic, _ in variant.assembly.present:
        titles[mechanic.name] = mechanic.title
    return titles


def variant_facts(variant) -> dict:
    """What every player of ``variant`` knows before a game starts: the map, the cards, the
    player counts and the players' colours."""
    names = component_names(variant.ir)
    return {
        "name": variant.name, "key": variant.key, "spec_hash": variant.spec_hash,
        "players": [variant.ir.min_players, variant.ir.max_players],
        "cards": names["card"],
        "card_colours": [CARD_COLOURS.get(name) or colour_of(name) for name in names["card"]],
        "player_colours": list(PLAYER_COLOURS),
        "cities": names["city"],
        "routes": [{"name": r.name, "cities": [variant.ir.cities[r.a].name, variant.ir.cities[r.b].name],
                    "length": r.length, "colour": r.colour_name} for r in variant.ir.routes],
        "agents": sorted(agent_kinds.AGENTS),
    }


# --- how a field's value reads -------------------------------------------------------

def _exported(variant) -> list[schema.Field]:
    return list(variant.assembly.exported_fields)


def _index_names(field: schema.Field, names: dict) -> list[str] | None:
    """The names of a fixed-size field's entries, when they are the cards, routes or
    cities."""
    return {"N_CARDS": names["card"], "N_ROUTES": names["route"], "N_CITIES": names["city"]}.get(field.size or "")


def _seat_word(seat: int, who: list[str]) -> str:
    return who[seat] if 0 <= seat < len(who) else f"player {seat}"


def shown_names(variant) -> dict[str, list[str]]:
    """Each kind of named thing a field's values may name, by id: the components (cards,
    tickets, routes, cities) and the present mechanics' own items (``Drawing.item_names``:
    technologies, bonus cards)."""
    names = component_names(variant.ir)
    for mechanic, rule in variant.assembly.present:
        names.update(part(mechanic, Drawing).item_names(variant.ir, rule))
    return names


def _read_items(field: schema.Field, value, items: list[str]) -> str | None:
    """A value of a field naming its mechanic's items (``Field.items``) in words."""
    def named(item: int) -> str:
        return items[item] if 0 <= item < len(items) else str(item)
    if field.items_as == "bits":
        values = value if isinstance(value, list) else [value]
        shown = [", ".join(named(k) for k in range(max(len(items), v.bit_length())) if v >> k & 1) for v in values]
        return "; ".join(text for text in shown if text) or None
    if field.items_as == "per_item":
        return ", ".join(f"{named(k)}: {v}" for k, v in enumerate(value) if v) or None
    values = value if isinstance(value, list) else [value]
    return ", ".join(named(v) for v in values if v >= 0) or None


def read_value(field: schema.Field, value, names: dict, who: list[str]) -> str | None:
    """One entry of ``field`` (a seat's entry of a per-player field) as words, or None
    when it holds nothing worth showing (-1, an empty list, all zeros)."""
    if field.items is not None and field.items in names:
        return _read_items(field, value, names[field.items])
    kind = value_names(field)
    if isinstance(value, list):
        if field.pile == schema.CARD_COUNTS:
            shown = [f"{n} {names['card'][i]}" for i, n in enumerate(value) if n]
            return ", ".join(shown) or None
        index = _index_names(field, names)
        if index is not None:
            # an entry per card, route or city: those that hold something, by name
            shown = [f"{index[i]}: {_seat_word(v, who) if v >= 0 else v}" for i, v in enumerate(value)
                     if v not in (-1, 0)]
            return ", ".join(shown) or None
        if kind is not None:
            shown = [names[kind][v] for v in value if 0 <= v < len(names[kind])]
            return ", ".join(shown) or None
        return ", ".join(str(v) for v in value) or None
    if kind is not None:
        return names[kind][value] if 0 <= value < len(names[kind]) else None
    return str(value)


# --- a game and its view -------------------------------------------------------------

class PlaySession:
    """One game: the person in ``seat``, agents (by name) in the other seats."""

    mode = "play"

    def __init__(self, variant, game, seat: int, agent_names: list[str], seed: int):
        self.variant = variant
        self.game = game
        self.seat = seat
        self.agent_names = agent_names
        self.seed = seed
        #: the game as it began (new or loaded): undo replays the agents from it
        self.start = game.clone()
        self.agents = self._new_agents()
        self.who = ["you" if s == seat else f"{agent_names[s]} (player {s})" for s in range(game.players)]
        self.log: list[dict] = []
        #: the game and the log's length before each of the person's decisions, for undo
        self.undo: list[tuple] = []
        self.lock = threading.Lock()
        self.id = ""
        self.last_used = 0.0

    def yours(self) -> bool:
        """Whether the person decides next."""
        return not self.game.is_over and self.game.current_player == self.seat

    def act(self, name) -> None:
        """Play the person's decision named ``name``; refused (nothing changes) unless it is
        one of the legal actions now."""
        if not isinstance(name, str):
            raise RequestError(400, f"'action' is an action's name (a string), not {type(name).__name__}")
        if self.game.is_over:
            raise RequestError(409, "the game is over: no decision is left to take")
        if not self.yours():
            raise RequestError(409, f"it is {self.who[self.game.current_player]}'s turn, not yours")
        try:
            action = self.variant.action_id(name)
        except IllegalActionError:
            raise RequestError(422, f"{self.variant.name} has no action named {name[:80]!r}") from None
        if action not in self.game.legal_actions():
            phase = self.game.observation(self.seat)["phase"]
            raise RequestError(422, f"{name[:80]!r} is not legal now (phase {phase})")
        self.undo.append((self.game.clone(), len(self.log)))
        self._apply(action)

    def agent_move(self) -> None:
        """Let the agent of the seat to move take one decision."""
        if self.game.is_over:
            raise RequestError(409, "the game is over: no decision is left to take")
        if self.yours():
            raise RequestError(409, "it is your turn: an agent does not decide for you")
        agent = self.agents[self.game.current_player]
        action = agent.act(self.game)
        if action not in self.game.legal_actions():
            raise RequestError(409, f"agent {self.who[self.game.current_player]} chose an illegal action")
        self._apply(action)

    def take_back(self) -> None:
        """Back to the person's previous decision: the game as it was then, the log cut
        there."""
        if not self.undo:
            raise RequestError(409, "nothing to undo: you have taken no decision yet")
        game, length = self.undo[-1]
        agents = self._agents_after(length)
        self.undo.pop()
        self.game, self.agents = game, agents
        del self.log[length:]

    def _new_agents(self) -> list:
        return [None if s == self.seat else agent_kinds.make(self.agent_names[s], seed=self.seed + s)
                for s in range(self.game.players)]

    def _agents_after(self, length: int) -> list:
        """The agents as they were after the log's first ``length`` decisions: made again
        from their seeds and asked again each decision they took, on the same games. An
        agent's memory (its generator, a scripted style's plan) lives partly in compiled
        code that cannot be copied; asked the same questions in the same order it ends in
        the same memory, so after an undo the agents answer a move as they did before."""
        agents, game = self._new_agents(), self.start.clone()
        for entry in self.log[:length]:
            action = self.variant.action_id(entry["action"])
            if entry["seat"] != self.seat:
                agents[entry["seat"]].act(game)
            game.apply(action)
        return agents

    def _apply(self, action: int) -> None:
        seat = self.game.current_player
        self.game.apply(action)
        self.log.append({"step": len(self.log), "seat": seat, "action": self.variant.action_name(action)})

    def state_json(self) -> str:
        """The whole state as JSON (``Game.to_json``): for the server's saves only, never
        the page."""
        return self.game.to_json()

    def observation(self) -> dict:
        return self.game.observation(self.seat)

    def view(self) -> dict:
        """What the page is sent: see :func:`play_view`."""
        return play_view(self)


def _choices(variant, game) -> tuple[list[dict], list[dict]]:
    """The legal actions as the page offers them, and the groups they fall in (in the
    catalogue's order): about a route, about a city, else by kind."""
    names = component_names(variant.ir)
    groups = kind_groups(variant)
    choices: list[dict] = []
    order: dict[str, str] = {}
    for action_id in game.legal_actions():
        action = variant.actions[action_id]
        if action.route >= 0:
            key, heading = "route", "about a route: click one on the map, or pick it here"
        elif action.city >= 0:
            key, heading = "city", "about a city: click one on the map, or pick it here"
        else:
            key, heading = groups.get(action.kind, (action.kind, _words(action.kind)))
        order.setdefault(key, heading)
        choices.append({"id": action_id, "name": action.name, "kind": action.kind, "group": key,
                        "route": names["route"][action.route] if action.route >= 0 else None,
                        "city": names["city"][action.city] if action.city >= 0 else None,
                        "cards": spent_cards(action, names["card"])})
    return choices, [{"key": key, "label": heading} for key, heading in order.items()]


def spent_cards(action: ir.Action, cards: list[str]) -> list[str]:
    """The names of the train cards ``action`` pays with, as the catalogue records them:
    its colour's when it pays cards of a colour, the locomotive's (the last card) when it
    pays locomotives. The page marks the routes a card the person picks can claim."""
    spent = []
    if action.colour_cards and 0 <= action.colour < len(cards) - 1:
        spent.append(cards[action.colour])
    if action.locomotives:
        spent.append(cards[-1])
    return spent


def _mechanic_of_phase(variant: Variant, phase: str) -> Mechanic | None:
    """The mechanic that declares ``phase`` (None for the core's phases)."""
    return next((mechanic for mechanic, _ in variant.assembly.present if phase in mechanic.phases), None)


def wanting_cards(variant: Variant, game: Game, seat: int) -> list[str]:
    """The decisions that would be offered now if ``seat`` held every train card it cannot
    see (the deck's, the other hands'), and are not: what only cards it lacks would
    allow. Asked of the engine itself, on a copy of the state where those cards are moved
    into the seat's hand; which cards those are, the seat can count from what it sees, so
    the answer tells it nothing hidden. Empty when the copy is not a valid state."""
    state = json.loads(game.to_json())
    hand = state["hands"][seat]
    for field in _exported(variant):
        if field.pile not in (schema.CARD_COUNTS, schema.CARD_IDS) or field.name == "hands":
            continue
        entries: list[tuple[Any, Any]]  # (a dict and its key, or a list and its index)
        if field.view.kind == "hidden":
            entries = [(state, field.name)]
        elif field.view.kind == "own" and field.per_player:
            entries = [(state[field.name], p) for p in range(game.players) if p != seat]
        else:
            continue
        for holder, key in entries:
            pile = holder[key]
            if field.pile == schema.CARD_COUNTS:
                for card, count in enumerate(pile):
                    hand[card] += count
                holder[key] = [0] * len(pile)
            else:
                for card in pile:
                    if card >= 0:
                        hand[card] += 1
                holder[key] = [-1] * len(pile) if field.size else []
    try:
        richer = variant.game_from_json(json.dumps(state), engine=game.engine)
    except (RailspecError, ValueError):
        return []
    now = set(game.legal_actions())
    return [variant.action_name(a) for a in sorted(set(richer.legal_actions()) - now)]


def decision_context(variant: Variant, game: Game, seat: int, observation: dict, who: list[str]) -> dict | None:
    """What a decision of a mechanic's own phase is about (None in the core's phases): the
    mechanic's title, the fields it declares that hold something now (labelled, in
    words), and the decisions only cards the person lacks would allow
    (:func:`wanting_cards`), so that a decision offering only "decline" says why."""
    mechanic = _mechanic_of_phase(variant, observation["phase"])
    if mechanic is None:
        return None
    names = shown_names(variant)
    facts = []
    for field in _exported(variant):
        key = field.view.alias or field.name
        if field.owner != mechanic.name or field.view.kind == "hidden" or key not in observation:
            continue
        value = observation[key]
        if field.per_player:
            value = value[seat] if field.view.kind == "public" else value
        text = read_value(field, value, names, who)
        if text is not None:
            facts.append({"key": key, "label": _words(key), "doc": field.doc, "text": text})
    return {"title": mechanic.title, "phase": observation["phase"], "facts": facts,
            "wanting": wanting_cards(variant, game, seat)}


def _panels(variant, observation: dict, who: list[str]) -> dict:
    """The observation's fields as the page lists them: per seat (a column of the players'
    table each), the person's own, and the board's; each with its key, a label, the
    schema's words for it and the owner's title."""
    names = shown_names(variant)
    titles = owner_titles(variant)
    columns: list[dict] = []
    own: list[dict] = []
    board: list[dict] = []
    players = observation["players"]
    for field in _exported(variant):
        view = field.view
        owner = titles.get(field.owner, field.owner)
        if view.summary and view.summary in observation:
            # a hidden or private field's public size: per seat, or one number
            value = observation[view.summary]
            entry = {"key": view.summary, "label": _words(view.summary), "doc": f"how many: {field.doc}",
                     "owner": owner}
            if field.per_player:
                columns.append({**entry, "values": [str(v) for v in value]})
            else:
                board.append({**entry, "text": str(value)})
        if field.name in DRAWN_APART or view.kind == "hidden":
            continue
        key = view.alias or field.name
        if key not in observation:
            continue
        value = observation[key]
        entry = {"key": key, "label": _words(key), "doc": field.doc, "owner": owner}
        if view.kind == "public" and field.per_player:
            columns.append({**entry, "values": [read_value(field, value[p], names, who) or "–"
                                                for p in range(players)]})
            continue
        text = read_value(field, value, names, who)
        if text is None:
            continue
        (own if view.kind in ("own", "decider") else board).append({**entry, "text": text})
    return {"columns": columns, "own": own, "board": board}


def _tickets(variant, observation: dict, done: set[int]) -> list[dict]:
    """The person's ticket lists: those kept (each with whether it is completed), and the
    offers being decided on, in slot order (``keep tickets 1,3`` names the slots)."""
    out = []
    for key in TICKET_PANELS:
        ids = observation.get(key) or []
        if not ids and key != "tickets":
            continue
        rows = [{"slot": i + 1, "name": variant.ir.tickets[t].name, "points": variant.ir.tickets[t].points,
                 "done": t in done} for i, t in enumerate(ids)]
        out.append({"key": key, "label": _words(key), "tickets": rows})
    return out


def map_version(variant, observation: dict) -> str:
    """A short digest of what the drawn map shows of a game (each route's owner, each
    mechanic's city marks and the route colours the state gives, ``Looks.route_colours``):
    the page fetches the map again when it changes."""
    shown = looks(variant.ir)
    marks = [observation.get(name) for name in shown.city_markers]
    colours = [observation.get(name) for name in shown.route_colours]
    text = json.dumps([observation["owner"], marks, colours, observation["players"]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def map_svg(variant, observation: dict) -> str:
    """The map with the claims and marks of a game, drawn from one seat's observation (the
    renderer reads only public fields of it: the owners, the mechanics' city marks and the
    route colours a mechanic's state gives)."""
    return render_svg(variant.ir, observation)


def breakdown(variant, rows: list[dict], who: list[str]) -> dict:
    """Score breakdown rows (``Game.score_breakdown``) as the page's table: a column per
    score item, labelled, with the title of what adds it (the base game or a mechanic);
    an item naming a route shows the route's name."""
    titles = owner_titles(variant)
    names = component_names(variant.ir)
    columns = [{"key": item.name, "label": item.heading.replace("_", " "), "doc": item.doc,
                "owner": titles.get(item.owner, item.owner)} for item in variant.assembly.score_items]
    measures = {item.name: item.measure for item in variant.assembly.score_items}
    out_rows = []
    for seat, row in enumerate(rows):
        cells = []
        for column in columns:
            value = row.get(column["key"])
            if measures[column["key"]] == "route":
                value = names["route"][value] if isinstance(value, int) and 0 <= value < len(names["route"]) else "–"
            cells.append(value)
        out_rows.append({"seat": seat, "who": _seat_word(seat, who), "cells": cells})
    return {"columns": columns, "rows": out_rows}


def _common(variant, game, observation: dict, who: list[str]) -> dict:
    """What a play view and a replay view share: whose turn, the phase, the market, the
    players' table, the fields."""
    names = component_names(variant.ir)
    return {
        "variant": variant.name, "players": game.players, "who": who,
        "to_move": game.current_player, "over": game.is_over, "phase": observation["phase"],
        "turn": observation["turn"], "observer": observation["player"],
        "market": [names["card"][c] if c >= 0 else None for c in observation["faceup"]],
        "hand": [{"card": names["card"][i], "count": n} for i, n in enumerate(observation["hand"]) if n],
        "offer_keep": observation.get("offer_keep", 0),
        "fields": _panels(variant, observation, who),
        "map_version": map_version(variant, observation),
        # the observation itself (docs/engine.md), for a script using the API
        "observation": observation,
    }


def play_view(session: PlaySession) -> dict:
    """What the page is sent of a game: built from the person's observation and the public
    log only. The legal actions when the person decides, the score breakdown once the game
    is over."""
    variant, game = session.variant, session.game
    observation = session.observation()
    done = set(game.completed_tickets(session.seat))
    choices, groups = _choices(variant, game) if session.yours() else ([], [])
    context = decision_context(variant, game, session.seat, observation, session.who) if session.yours() else None
    view = {"id": session.id, "mode": "play", "seat": session.seat, "yours": session.yours(),
            **_common(variant, game, observation, session.who),
            "tickets": _tickets(variant, observation, done),
            "choices": choices, "groups": groups, "decision": context,
            "log": session.log, "can_undo": bool(session.undo),
            "agents": [None if s == session.seat else session.agent_names[s] for s in range(game.players)]}
    if game.is_over:
        view["breakdown"] = breakdown(variant, game.score_breakdown(), session.who)
        view["winners"] = game.winners()
    return view


# --- a replay ------------------------------------------------------------------------

class ReplaySession:
    """A trace's game, replayed once when it is loaded: the game before each decision and
    after the last."""

    mode = "replay"

    def __init__(self, variant, lines: list[dict]):
        trace.check(lines)
        header = lines[0]
        if header["spec_hash"] != variant.spec_hash:
            raise RequestError(400, f"the trace is of spec {header['spec_hash']} ({header['variant']!r}), "
                                    f"not of {variant.name} ({variant.spec_hash})")
        try:
            game = variant.new_game(players=header["players"], seed=header["seed"])
        except RailspecError as err:
            raise RequestError(400, f"the trace's header: {err}") from None
        self.variant = variant
        self.decisions = [line for line in lines[1:] if line.get("type") is None]
        self.games = [game.clone()]
        for line in self.decisions:
            if game.is_over or line["player"] != game.current_player:
                raise RequestError(400, f"step {line['step']}: the trace has seat {line['player']} deciding, the "
                                        f"game {'is over' if game.is_over else f'waits on seat {game.current_player}'}")
            try:
                game.apply_name(line["action"])
            except IllegalActionError:
                raise RequestError(400, f"step {line['step']}: {line['action'][:80]!r} is not legal there") from None
            self.games.append(game.clone())
        if not game.is_over:
            raise RequestError(400, f"the trace ends after {len(self.decisions)} decisions, before the game does")
        self.who = [f"player {s}" for s in range(game.players)]
        self.lock = threading.Lock()
        self.id = ""
        self.last_used = 0.0
        self.pinned = False

    @property
    def steps(self) -> int:
        """The number of decisions: the steps are 0 (before the first) to this (the end)."""
        return len(self.decisions)

    def step_index(self, step) -> int:
        """``step`` as a checked step number."""
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= self.steps:
            raise RequestError(400, f"a step is a whole number from 0 to {self.steps}")
        return step

    def observation(self, step: int) -> dict:
        game = self.games[step]
        return game.observation(0 if game.is_over else game.current_player)

    def view(self, step: int) -> dict:
        """The game before decision ``step`` (after the last at ``steps``), seen by the seat
        deciding there: the map, the board, the breakdown as if the game ended then, the
        decisions so far and the one taken next."""
        game = self.games[step]
        observation = self.observation(step)
        log = [{"step": line["step"], "seat": line["player"], "action": line["action"]}
               for line in self.decisions[:step]]
        nxt = self.decisions[step] if step < self.steps else None
        return {"id": self.id, "mode": "replay", "step": step, "steps": self.steps,
                **_common(self.variant, game, observation, self.who),
                "tickets": _tickets(self.variant, observation, set(game.completed_tickets(observation["player"]))),
                "next": None if nxt is None else {"seat": nxt["player"], "action": nxt["action"]},
                "log": log, "breakdown": breakdown(self.variant, game.score_breakdown(), self.who),
                "winners": game.winners() if game.is_over else []}


# --- the store -----------------------------------------------------------------------

class Store:
    """The games and replays in play, by id: each a random token. One idle for
    ``idle_seconds`` is dropped at the next request; when ``limit`` are kept, a new one
    drops the least recently used of those not in use (a pinned one, the replay of
    ``--trace``, stays)."""

    def __init__(self, idle_seconds: float = IDLE_SECONDS, limit: int = MAX_SESSIONS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.idle_seconds = idle_seconds
        self.limit = limit
        self.clock = clock
        self.sessions: dict[str, PlaySession | ReplaySession] = {}
        #: the ids dropped lately, and why: a request for one is told
        self.dropped: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def _drop(self, key: str, why: str) -> None:
        """Forget session ``key`` (the store's lock held), remembering why."""
        del self.sessions[key]
        self.dropped[key] = why
        while len(self.dropped) > REMEMBERED_DROPS:
            self.dropped.popitem(last=False)

    def sweep(self) -> None:
        """Drop the sessions idle too long (a pinned one stays)."""
        now = self.clock()
        with self._lock:
            for key in [k for k, s in self.sessions.items()
                        if not getattr(s, "pinned", False) and now - s.last_used > self.idle_seconds]:
                self._drop(key, f"idle for more than {self.idle_seconds / 60:g} minutes")

    def _make_room(self) -> None:
        """With the store full (its lock held): drop the least recently used session that is
        neither pinned nor in use (a request holds its lock); a 503 when every one is."""
        free = [s for s in self.sessions.values() if not getattr(s, "pinned", False) and not s.lock.locked()]
        if not free:
            raise RequestError(503, f"{len(self.sessions)} games are open and every one is in use: try again")
        oldest = min(free, key=lambda s: s.last_used)
        self._drop(oldest.id, f"the least recently used of {self.limit} open games, to make room for a new one")

    def add(self, session: Any) -> Any:
        """Keep ``session`` under a new id (the least recently used one not in use makes
        room for it when the store is full)."""
        self.sweep()
        with self._lock:
            while len(self.sessions) >= self.limit:
                self._make_room()
            session.id = secrets.token_hex(8)
            session.last_used = self.clock()
            self.sessions[session.id] = session
        return session

    def get(self, key: object, mode: str) -> Any:
        """The session of id ``key`` of this ``mode``, or a 404 (saying why, when it was
        dropped)."""
        self.sweep()
        with self._lock:
            session = self.sessions.get(key) if isinstance(key, str) else None
            if session is None or session.mode != mode:
                what = "game" if mode == "play" else "replay"
                why = self.dropped.get(key) if isinstance(key, str) else None
                raise RequestError(404, f"no {what} with id {str(key)[:40]!r}" + (
                    f": it was dropped, {why}" if why else f" (a {what} idle for {self.idle_seconds / 60:g} minutes, "
                                                         f"or the least recently used of {self.limit}, is dropped)"))
            session.last_used = self.clock()
        return session


# --- making sessions from requests ---------------------------------------------------

def _whole(body: dict, key: str, default, low: int, high: int) -> int:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RequestError(400, f"{key!r} is a whole number from {low} to {high}, not {json.dumps(value)[:40]}")
    return value


class Defaults:
    """The command line's choices, used where a request leaves them out."""

    def __init__(self, players: int, seat: int, agents: tuple[str, ...], seed: int | None, delay: float):
        self.players, self.seat, self.agents, self.seed, self.delay = players, seat, agents, seed, delay


def new_play(variant, body: dict, defaults: Defaults, saves=None) -> PlaySession:
    """A game from a request's fields: ``players``, ``seat`` (from 0), ``agents`` (names,
    used in turn for the other seats), ``seed``; or ``save``, the name of a save in
    ``saves`` (a :class:`~railspec.tools.web.saves.SaveFolder`), which gives the players
    and the person's seat."""
    unknown = sorted(set(body) - {"players", "seat", "agents", "seed", "save"})
    if unknown:
        raise RequestError(400, f"unknown field {unknown[0][:40]!r} (players, seat, agents, seed, save)")
    low, high = variant.ir.min_players, variant.ir.max_players
    seed = _whole(body, "seed", defaults.seed if defaults.seed is not None else secrets.randbits(48), 0, 2**64 - 1)
    agents = body.get("agents", list(defaults.agents))
    if (not isinstance(agents, list) or not agents or len(agents) > 16
            or not all(isinstance(a, str) and a in agent_kinds.AGENTS for a in agents)):
        raise RequestError(400, f"'agents' is a list of agent names ({', '.join(sorted(agent_kinds.AGENTS))})")
    if "save" in body:
        if "players" in body or "seat" in body:
            raise RequestError(400, "a saved game gives the players and your seat: 'save' goes without them")
        if saves is None:
            raise RequestError(404, "this server keeps no saves")
        game, seat = saves.load(body["save"])
        players = game.players
    else:
        players = _whole(body, "players", min(max(defaults.players, low), high), low, high)
        seat = _whole(body, "seat", min(defaults.seat, players - 1), 0, players - 1)
        game = None
    others = [s for s in range(players) if s != seat]
    names = [""] * players
    for i, s in enumerate(others):
        names[s] = agents[i % len(agents)]
    names[seat] = "you"
    if game is None:
        game = variant.new_game(players=players, seed=seed)
    return PlaySession(variant, game, seat, names, seed)


def new_replay(variant, text) -> ReplaySession:
    """A replay from a trace's JSON Lines text."""
    if not isinstance(text, str):
        raise RequestError(400, f"'trace' is the text of a trace file (JSON Lines), not {type(text).__name__}")
    try:
        lines = trace.loads(text)
    except (RailspecError, ValueError, RecursionError) as err:
        raise RequestError(400, f"not a trace: {str(err)[:300]}") from None
    return ReplaySession(variant, lines)


__all__ = ["Defaults", "IDLE_SECONDS", "MAX_SESSIONS", "PlaySession", "REMEMBERED_DROPS", "ReplaySession",
           "RequestError", "Store", "breakdown", "decision_context", "kind_groups", "map_svg", "map_version",
           "new_play", "new_replay", "play_view", "read_value", "spent_cards", "variant_facts", "wanting_cards"]
