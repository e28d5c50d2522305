"""Seeded game traces (DESIGN.md, "Positions and traces"): record a game as JSON Lines and
replay it against an engine, reporting the first divergence.

A trace is a header line, one line per decision, and a result line::

    {"type": "header", "format": "railspec-trace/1", "variant": "usa", "spec_hash": "…",
     "players": 4, "seed": 7}
    {"step": 0, "player": 0, "legal": 7, "action": "keep tickets 1,2"}
    …
    {"type": "result", "breakdown": [{…}, …], "winners": [2]}

The decisions are those of the random agent of docs/engine.md ("Random playouts"), so a
trace with seed S replays game 0 of ``playout(seed=S)``.

A trace is tied to the spec it was recorded from by ``spec_hash``, not by the file name in
``variant``: a renamed or copied spec file replays the traces of the original.
"""
from __future__ import annotations

import reprlib
from dataclasses import dataclass
from typing import cast

from ..compiler.base.errors import ArgumentError, IllegalActionError, RailspecError
from ..compiler.base.rng import agent_for
from ..runtime.game import _integer
from . import jsonl
from .conformance import first_difference

FORMAT = "railspec-trace/1"

_show = reprlib.Repr()
_show.maxstring = _show.maxother = 60
_show.maxlist = _show.maxdict = 4
_show.maxlevel = 2


class TraceError(RailspecError, ValueError):
    """A file that is not a well-formed railspec trace; the message names the line."""


def record(variant, players: int, seed: int, engine: str = "compiled", each=None) -> list[dict]:
    """Play one seeded random game and return its trace records. ``each``: called as
    ``each(decisions, game)`` before every decision and once at the end (to keep a state)."""
    players, seed = variant.check_players(players), _integer(seed, "a seed") % 2**64
    game = variant.new_game(players=players, seed=seed, engine=engine)
    agent = agent_for(seed)
    lines: list[dict] = [{"type": "header", "format": FORMAT, "variant": variant.key,
                          "spec_hash": variant.spec_hash, "players": players, "seed": seed}]
    step = 0
    while not game.is_over:
        if each is not None:
            each(step, game)
        legal = game.legal_actions()
        action = legal[agent.below(len(legal))]
        lines.append({"step": step, "player": game.current_player, "legal": len(legal),
                      "action": game.action_name(action)})
        game.apply(action)
        step += 1
    if each is not None:
        each(step, game)
    lines.append({"type": "result", "breakdown": game.score_breakdown(), "winners": game.winners()})
    return lines


def dumps(lines: list[dict]) -> str:
    """JSON Lines text of a trace: one record per line, whatever the names hold."""
    return jsonl.dumps(lines)


def loads(text: str) -> list[dict]:
    """Parse a trace's JSON Lines text and check its shape (see :func:`check`). Lines are
    split at "\\n" only (a "\\r" before it is ignored), as :func:`dumps` writes them; a
    UTF-8 byte order mark is skipped; blank lines are ignored. Any problem is a
    :class:`TraceError` naming the line."""
    records = jsonl.loads(text, TraceError, "trace")
    lines = [record for _, record in records]
    check(lines, [number for number, _ in records])
    return cast("list[dict]", lines)  # check() raises unless each record is an object


def _kind(value) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: The fields a trace's lines must have, and what each holds.
_HEADER = {"variant": (str, "the variant's name"), "spec_hash": (str, "the spec's hash"),
           "players": (int, "the number of players"), "seed": (int, "the game's seed, 0 to 2^64-1")}
_DECISION = {"step": (int, "the decision's number from 0"), "player": (int, "the seat to decide"),
             "legal": (int, "the number of legal actions"), "action": (str, "the action's name")}
_RESULT = {"breakdown": (list, "each player's score breakdown"), "winners": (list, "the winning seats")}


def _fields(record: dict, wanted: dict, where: str) -> None:
    for key, (kind, what) in wanted.items():
        if key not in record:
            raise TraceError(f"{where}: no {key!r} ({what})")
        value = record[key]
        if not (_is_int(value) if kind is int else isinstance(value, kind)):
            raise TraceError(f"{where}: {key!r} is {what}, got {_show.repr(value)}")


def check(lines: list, numbers: list[int] | None = None) -> None:
    """Raise a :class:`TraceError` at the first record that does not fit the format: a
    header (``format``, ``variant``, ``spec_hash``, ``players``, ``seed``), decisions
    numbered from 0 (``step``, ``player``, ``legal``, ``action``), and a result
    (``breakdown``, ``winners``) as the last line. ``numbers`` are the records' line
    numbers in the file (by default 1, 2, …)."""
    def at(i: int) -> str:
        return f"line {numbers[i] if numbers else i + 1}"

    if not isinstance(lines, list) or not lines:
        raise TraceError("an empty trace: no header line")
    for i, record in enumerate(lines):
        if not isinstance(record, dict):
            raise TraceError(f"{at(i)}: a trace line is a JSON object, got {_kind(record)}")
    header = lines[0]
    if header.get("type") != "header":
        raise TraceError(f"{at(0)}: the first line is not a header "
                         f"({{\"type\": \"header\", \"format\": \"{FORMAT}\", …}})")
    if header.get("format") != FORMAT:
        raise TraceError(f"{at(0)}: format {_show.repr(header.get('format'))} is not {FORMAT!r}")
    _fields(header, _HEADER, at(0))
    if header["players"] < 1:
        raise TraceError(f"{at(0)}: 'players' is the number of players, got {header['players']}")
    if not 0 <= header["seed"] < 2**64:
        raise TraceError(f"{at(0)}: 'seed' is the game's seed, 0 to 2^64-1, got {header['seed']}")
    for i in range(1, len(lines)):
        record, kind = lines[i], lines[i].get("type")
        if kind == "result":
            _fields(record, _RESULT, at(i))
            if i != len(lines) - 1:
                raise TraceError(f"{at(i + 1)}: a line after the result line ({at(i)})")
            return
        if kind is not None:
            raise TraceError(f"{at(i)}: a line of type {_show.repr(kind)} "
                             f"({'a second header' if kind == 'header' else 'not a decision or the result'})")
        _fields(record, _DECISION, at(i))
        if record["step"] != i - 1:
            raise TraceError(f"{at(i)}: step {record['step']}, but it is decision {i - 1}")
    raise TraceError(f"the trace has no result line (the last, {at(len(lines) - 1)}, is not one)")


@dataclass
class Verdict:
    """What a replay found: ``ok``, the decisions replayed, and the first divergence."""

    ok: bool
    steps: int
    message: str


def verify(variant, lines: list[dict], engine: str = "compiled") -> Verdict:
    """Replay a trace and compare, decision by decision, with what the engine says. The
    trace must be of this variant's spec (the same ``spec_hash``; its file name does not
    matter). A malformed trace raises :class:`TraceError` (see :func:`check`)."""
    check(lines)
    header = lines[0]
    if header["spec_hash"] != variant.spec_hash:
        return Verdict(False, 0, f"the trace was recorded from spec {_show.repr(header['spec_hash'])} "
                                 f"(variant {_show.repr(header['variant'])}), but {variant.name} "
                                 f"({variant.key!r}) is spec {variant.spec_hash!r}")
    try:
        game = variant.new_game(players=header["players"], seed=header["seed"], engine=engine)
    except ArgumentError as err:
        raise TraceError(f"line 1: {err}") from None
    steps = 0
    for line in lines[1:]:
        if line.get("type") == "result":
            got = game.score_breakdown()
            if not game.is_over:
                return Verdict(False, steps, f"after step {steps - 1} the trace ends the game, the engine does not")
            if got != line["breakdown"]:
                return Verdict(False, steps, f"final breakdown differs at "
                                             f"{first_difference(line['breakdown'], got, 'breakdown')} "
                                             f"(trace != engine)")
            if game.winners() != line["winners"]:
                return Verdict(False, steps, f"winners differ: trace {_show.repr(line['winners'])}, "
                                             f"engine {game.winners()}")
            return Verdict(True, steps, f"{steps} decisions and the final scores agree")
        step = line.get("step")
        if game.is_over:
            return Verdict(False, steps, f"step {step}: the engine says the game is over")
        if game.current_player != line.get("player"):
            return Verdict(False, steps, f"step {step}: trace has player {line.get('player')} to decide, "
                                         f"engine has player {game.current_player}")
        legal = game.legal_actions()
        if len(legal) != line.get("legal"):
            return Verdict(False, steps, f"step {step}: trace has {line.get('legal')} legal actions, "
                                         f"engine has {len(legal)}")
        name = line.get("action")
        try:
            action = variant.action_id(name)
        except IllegalActionError:
            return Verdict(False, steps, f"step {step}: no action named {_show.repr(name)} in {variant.name}")
        if action not in legal:
            return Verdict(False, steps, f"step {step}: {name!r} is not legal in the engine")
        game.apply(action)
        steps += 1
    return Verdict(False, steps, "the trace has no result line")
