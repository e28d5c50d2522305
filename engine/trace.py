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
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from .rng import agent_for

FORMAT = "railspec-trace/1"


def record(variant, players: int, seed: int, engine: str = "compiled") -> list[dict]:
    """Play one seeded random game and return its trace records."""
    seed = int(seed) % 2**64
    game = variant.new_game(players=players, seed=seed, engine=engine)
    agent = agent_for(seed)
    lines: list[dict] = [{"type": "header", "format": FORMAT, "variant": variant.key,
                          "spec_hash": variant.spec_hash, "players": players, "seed": seed}]
    step = 0
    while not game.is_over:
        legal = game.legal_actions()
        action = legal[agent.below(len(legal))]
        lines.append({"step": step, "player": game.current_player, "legal": len(legal),
                      "action": game.action_name(action)})
        game.apply(action)
        step += 1
    lines.append({"type": "result", "breakdown": game.score_breakdown(), "winners": game.winners()})
    return lines


def dumps(lines: list[dict]) -> str:
    """JSON Lines text of a trace."""
    return "".join(json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n" for line in lines)


def loads(text: str) -> list[dict]:
    """Parse JSON Lines text, naming the line of any error."""
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            lines.append(json.loads(raw))
        except json.JSONDecodeError as err:
            raise ValueError(f"trace line {number}: not JSON ({err.msg})") from None
    return lines


@dataclass
class Verdict:
    """What a replay found: ``ok``, the decisions replayed, and the first divergence."""

    ok: bool
    steps: int
    message: str


def verify(variant, lines: list[dict], engine: str = "compiled") -> Verdict:
    """Replay a trace and compare, decision by decision, with what the engine says."""
    if not lines or lines[0].get("type") != "header":
        return Verdict(False, 0, "the trace has no header line")
    header = lines[0]
    if header.get("format") != FORMAT:
        return Verdict(False, 0, f"trace format {header.get('format')!r} is not {FORMAT!r}")
    if header.get("variant") != variant.key:
        return Verdict(False, 0, f"the trace is of variant {header.get('variant')!r}, not {variant.key!r}")
    if header.get("spec_hash") != variant.spec_hash:
        return Verdict(False, 0, f"the trace was made from spec {header.get('spec_hash')}, "
                                 f"this variant is spec {variant.spec_hash}")
    game = variant.new_game(players=header["players"], seed=header["seed"], engine=engine)
    steps = 0
    for line in lines[1:]:
        if line.get("type") == "result":
            got = game.score_breakdown()
            if not game.is_over:
                return Verdict(False, steps, f"after step {steps - 1} the trace ends the game, the engine does not")
            if got != line.get("breakdown"):
                return Verdict(False, steps, f"final breakdown differs: trace {line.get('breakdown')}, "
                                             f"engine {got}")
            if game.winners() != line.get("winners"):
                return Verdict(False, steps, f"winners differ: trace {line.get('winners')}, engine {game.winners()}")
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
        except Exception:  # noqa: BLE001 - any lookup failure is a divergence to report
            return Verdict(False, steps, f"step {step}: no action named {name!r} in {variant.name}")
        if action not in legal:
            return Verdict(False, steps, f"step {step}: {name!r} is not legal in the engine")
        game.apply(action)
        steps += 1
    return Verdict(False, steps, "the trace has no result line")
