"""Conformance: the compiled engine checked against the reference interpreter, decision by
decision, and both checked against invariants any correct engine keeps.

Used by the test suite on every stock variant and by ``railspec conformance FILE`` on a
user's own spec.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..compiler import ir
from ..compiler.base.errors import IllegalActionError
from ..compiler.base.rng import agent_for
from ..runtime import reference, state_format


@dataclass
class Problem:
    """One finding: which game, which step, what."""

    variant: str
    seed: int
    players: int
    step: int
    action: str
    what: str

    def __str__(self) -> str:
        return (f"{self.variant} seed {self.seed} ({self.players}p) step {self.step} after {self.action!r}: "
                f"{self.what}")


@dataclass
class Report:
    games: int = 0
    decisions: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def first_difference(a, b, path: str = "") -> str | None:
    """The first field where two JSON-like values differ, as a readable path, or None."""
    if type(a) is not type(b):
        return f"{path or 'state'}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}: present in only one"
            found = first_difference(a[key], b[key], f"{path}.{key}" if path else key)
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} entries != {len(b)} entries ({a[:8]!r}… vs {b[:8]!r}…)"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def invariant_problems(variant: ir.Variant, game, state: dict | None = None,
                       scores: bool = True) -> list[str]:
    """Every invariant the position breaks (empty when it keeps them all): the state
    validator's (shapes, ranges, conservation of cards, trains and tickets, and each
    mechanic's ``state_problems``), and, with ``scores``, the engine's breakdown re-derived
    by the reference scorer from the state alone. ``state`` is ``game.state()`` if the
    caller has it."""
    state = game.state() if state is None else state
    try:
        state_format.validate(variant, state)
    except state_format.StateError as err:
        return [f"state invalid: {err}"]
    if not scores:
        return []
    problems = []
    derived = reference.score_fields(variant, {k: v for k, v in state.items()
                                               if k not in ("format", "variant", "spec_hash")})
    reported = game.score_breakdown()
    if derived != reported:
        problems.append(f"score_breakdown {reported} is not what the board gives: {derived}")
    for p, row in enumerate(reported):
        if row["routes"] != state["route_score"][p]:
            problems.append(f"player {p}: route points {row['routes']} but the running score is "
                            f"{state['route_score'][p]}")
    return problems


def api_problems(v, game, rng: random.Random) -> list[str]:
    """clone, JSON round trip and illegal actions on one position."""
    problems = []
    before = game.to_json()
    twin = game.clone()
    if twin.to_json() != before:
        problems.append("clone() differs from its source")
    back = v.game_from_json(before, engine=game.engine)
    if back.to_json() != before:
        problems.append("to_json / game_from_json does not round-trip")
    legal = set(game.legal_actions())
    if not game.is_over and legal:
        twin.apply(sorted(legal)[0])
        if game.to_json() != before:
            problems.append("playing on a clone changed its source")
    illegal = [-1, len(v.actions), 2**31 - 1] + rng.sample(
        [a for a in range(len(v.actions)) if a not in legal], k=min(5, len(v.actions) - len(legal)))
    for a in illegal:
        try:
            game.apply(a)
        except IllegalActionError:
            pass
        else:
            problems.append(f"illegal action {a} was accepted")
            break
        if game.to_json() != before:
            problems.append(f"illegal action {a} changed the state")
            break
    return problems


def run(v, seeds, players_for, *, api_every: int = 25, score_every: int = 5, progress=None) -> Report:
    """Play one random game per seed in both engines side by side and check them.

    ``players_for(seed)`` gives the player count; the agent is that of docs/engine.md.
    Every decision compares legal lists and full states and checks the state's invariants
    on the compiled game; every ``score_every`` decisions and at the end the compiled
    engine's breakdown is also re-derived by the reference scorer (and compared with the
    reference engine's at the end); every ``api_every`` decisions the clone / JSON /
    illegal-action behaviour of both is checked."""
    report = Report()
    for seed in seeds:
        _check_game(v, seed, players_for(seed), api_every, score_every, report)
        report.games += 1
        if progress is not None:
            progress(1)
    return report


def _check_game(v, seed: int, players: int, api_every: int, score_every: int, report: Report) -> None:
    """One seeded game in both engines; problems go into ``report``."""
    variant = v.ir
    compiled = v.new_game(players=players, seed=seed, engine="compiled")
    ref = v.new_game(players=players, seed=seed, engine="reference")
    agent = agent_for(seed)
    check_rng = random.Random(seed)
    step, last = 0, "(set-up)"

    def problem(what: str) -> None:
        report.problems.append(Problem(variant.key, seed, players, step, last, what))

    while True:
        a_state, b_state = compiled.state(), ref.state()
        if a_state != b_state:
            problem(f"states differ (compiled vs reference) at {first_difference(a_state, b_state)}")
            return
        scores = compiled.is_over or (score_every > 0 and step % score_every == 0)
        for what in invariant_problems(variant, compiled, a_state, scores=scores):
            problem(what)
        if compiled.is_over or ref.is_over:
            if compiled.is_over != ref.is_over:
                problem(f"is_over differs: compiled {compiled.is_over}, reference {ref.is_over}")
                return
            break
        la, lb = compiled.legal_actions(), ref.legal_actions()
        if not la:
            problem("no legal action in a live game")
            return
        if la != lb:
            only_a = [v.action_name(x) for x in la if x not in set(lb)][:3]
            only_b = [v.action_name(x) for x in lb if x not in set(la)][:3]
            problem(f"legal actions differ: only compiled {only_a}, only reference {only_b}")
            return
        if api_every and step % api_every == 0:
            for g in (compiled, ref):
                for what in api_problems(v, g, check_rng):
                    problem(f"{g.engine}: {what}")
        action = la[agent.below(len(la))]
        last = v.action_name(action)
        compiled.apply(action)
        ref.apply(action)
        step += 1
        report.decisions += 1
    ba, bb = compiled.score_breakdown(), ref.score_breakdown()
    if ba != bb:
        problem(f"final breakdowns differ: {first_difference(ba, bb)}")
