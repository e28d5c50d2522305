"""The contract check of one mechanic, or of two side by side: round trips first, then play.

:func:`check_mechanic` takes a mechanic and a spec that uses it (by default the mechanic's
own sample, ``Sampled.sample``, added to a small map) and runs these checks, in order:

``contract``
    the class keeps its contract (``railspec.compiler.mechanic.contract``): capabilities
    named with their members, no member defined without its capability, no misspelt part.
``spec``
    the spec checks, and uses the mechanic.
``format``
    the spec, laid out by ``railspec fmt``, lays out to itself and checks to the same IR.
``catalogue``
    the action catalogue and the spec's hash are the same when the spec is checked again,
    and in a fresh process with another string-hash seed (ids are stable).
``language_server``
    the language server hovers over each of the mechanic's statements and route
    attributes in the spec, and completes the first word of each of its statements.
``games``
    seeded random games, decision by decision: both engines agree (legal actions, the
    whole state), every state keeps the invariants (the state check, each mechanic's
    ``state_problems``), and every state saves and loads (``to_json`` →
    ``game_from_json`` gives the same state and the same legal actions), on each engine;
    clone and illegal actions behave.
``positions``
    the board of every tenth state and of every finished game, written as a described
    position (``position_of_state``), scores on each engine (``railspec.score``) to the
    game's own breakdown.
``observation``
    what a player observes (``observation()`` and the RL vector) is the same in a world
    redrawn where only what the rules hide from them changes (``Game.resample``), and
    another player's hidden choice of tickets (two keeps of as many tickets) changes
    nothing they observe.

Problems are gathered, not raised one by one: the report lists them all, and
:class:`ContractFailure` (an ``AssertionError``, so pytest shows it whole) is raised at the
end unless ``raise_on_failure=False``.
"""
from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..compiler import check_file, format_text
from ..compiler.base.errors import RailspecError
from ..compiler.base.rng import agent_for
from ..compiler.lang import ast
from ..compiler.mechanic import Mechanic, Registry, Sampled, contract_problems, default_registry
from ..runtime import game as game_api
from ..runtime.position import position_of_state
from ..tools import conformance
from ..tools.lsp import features
from ..tools.lsp.analysis import Analyzer

#: Every check :func:`check_mechanic` may run, in the order it runs them.
CHECKS = ("contract", "spec", "format", "catalogue", "language_server", "games", "positions", "observation")

#: The engines a check plays on by default.
ENGINES = ("compiled", "reference")

#: The small map a mechanic's sample is added to: five cities, a double route, eight
#: tickets, the core's statements only.
BASE_SPEC = """\
variant "Contract"
players 2..4
trains 12
hand 4
card red 12
card blue 12
locomotives 14
market 5 reset 3 locomotives
deal tickets 2 keep 1
returned tickets bottom
action draw cards 2
action claim route
action draw tickets 3 keep 1
end when trains <= 2
route points 1:1 2:2 3:4 4:7
city Alpha
city Beta
city Gamma
city Delta
city Epsilon
route Alpha - Beta 2 red
route Alpha - Beta 2 blue
route Beta - Gamma 3 gray
route Gamma - Delta 4 blue
route Delta - Epsilon 1 gray
ticket Alpha - Gamma 5
ticket Alpha - Delta 9
ticket Alpha - Epsilon 10
ticket Beta - Gamma 4
ticket Beta - Delta 7
ticket Beta - Epsilon 8
ticket Gamma - Delta 4
ticket Gamma - Epsilon 5
"""
BASE_CITIES = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"]
#: The route the mechanics of a combination that attach to routes all share
#: (:func:`combined_spec`), and the routes that carry the others' attributes one each.
SHARED_ROUTE = "route Alpha - Epsilon 2 gray"
OWN_ROUTES = ("route Beta - Epsilon 2 gray", "route Alpha - Delta 2 gray", "route Beta - Delta 2 gray",
              "route Gamma - Epsilon 2 gray", "route Alpha - Gamma 2 gray", "route Delta - Beta 3 gray")


class ContractFailure(AssertionError):
    """A mechanic broke its contract: the message lists every problem found."""


@dataclass
class ContractReport:
    """What :func:`check_mechanic` found: each check's outcome (``passed``, or why it was
    skipped), the games and decisions played, and the problems."""

    mechanic: str
    spec: str
    outcomes: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    games: int = 0
    decisions: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        """One line per check, then the problems."""
        lines = [f"contract of {self.mechanic} on {self.spec}: {self.games} games, {self.decisions} decisions"]
        lines += [f"  {name}: {outcome}" for name, outcome in self.outcomes.items()]
        lines += [f"  problem: {p}" for p in self.problems]
        return "\n".join(lines)


def _class_of(mechanic: Any) -> type[Mechanic[Any]]:
    cls = mechanic if isinstance(mechanic, type) else type(mechanic)
    if not (isinstance(cls, type) and issubclass(cls, Mechanic)):
        raise TypeError(f"check_mechanic takes a Mechanic subclass or instance, not {mechanic!r}")
    return cls


def _registry_with(mechanics, registry: Registry | None) -> Registry:
    """``registry`` (every installed mechanic by default) with each of ``mechanics`` in it,
    in the place of an installed one of the same name."""
    registry = registry or default_registry()
    for mechanic in mechanics:
        instance = mechanic if isinstance(mechanic, Mechanic) else mechanic()
        known = registry.by_name.get(instance.name)
        if known is None:
            registry = registry.with_mechanics(instance)
        elif type(known) is not type(instance):
            registry = registry.replacing(instance)
    return registry


def _sample_of(mechanic):
    cls = _class_of(mechanic)
    return cls.sample if issubclass(cls, Sampled) else None


def _base_lines(without: tuple[str, ...] = ()) -> list[str]:
    return [line for line in BASE_SPEC.splitlines() if not line.startswith(without)]


def sample_spec(mechanic) -> str | None:
    """The small map of :data:`BASE_SPEC` with the mechanic's sample (``Sampled.sample``):
    its lines, and its route attribute on every route; None for a mechanic without one."""
    sample = _sample_of(mechanic)
    if sample is None:
        return None
    lines = [line + sample.route if line.startswith("route ") and " - " in line else line for line in _base_lines()]
    return "\n".join(lines + sample.written(BASE_CITIES)) + "\n"


def combined_spec(mechanics, shared_route: bool = True, shared: list[str] | None = None) -> str | None:
    """The small map with several mechanics' samples: their lines (each once), the first's
    route attribute on the map's routes, each other's on a route of its own, and, with
    ``shared_route``, the attributes ``shared`` (by default every one) on one more route
    (when two or more attach to routes). None when one of them has no sample."""
    samples = [_sample_of(m) for m in mechanics]
    if any(sample is None for sample in samples):
        return None
    first = samples[0]
    lines = [line + first.route if line.startswith("route ") and " - " in line else line for line in _base_lines()]
    others = [sample.route for sample in samples[1:] if sample.route]
    lines += [OWN_ROUTES[i % len(OWN_ROUTES)] + attr for i, attr in enumerate(others)]
    attrs = list(dict.fromkeys(sample.route for sample in samples if sample.route)) if shared is None else shared
    if shared_route and len(attrs) > 1:
        lines.append(SHARED_ROUTE + "".join(attrs))
    for sample in samples:
        lines += [line for line in sample.written(BASE_CITIES) if line not in lines]
    return "\n".join(lines) + "\n"


def pair_spec(first, second, shared_route: bool = True) -> str | None:
    """:func:`combined_spec` of two mechanics: the first's route attribute on the map's
    routes, the second's on a route of its own, both on one more."""
    return combined_spec([first, second], shared_route)


class _Run:
    """One check's state: the report, the registry, the spec's file and its variant."""

    def __init__(self, report: ContractReport, registry: Registry, path: Path, text: str, engines: tuple[str, ...],
                 wanted: tuple[str, ...]):
        self.report, self.registry, self.path, self.text, self.engines = report, registry, path, text, engines
        self.wanted = wanted
        self.loaded: game_api.Variant | None = None  # once the spec check has loaded it

    @property
    def variant(self) -> game_api.Variant:
        """The spec's variant: the checks after the spec check run only when it loaded."""
        if self.loaded is None:
            raise RuntimeError("the spec is not loaded")
        return self.loaded

    def problem(self, check: str, what: str) -> None:
        self.report.problems.append(f"{check}: {what}")


def check_mechanic(mechanic, spec: str | os.PathLike | None = None, *, spec_text: str | None = None,
                   registry: Registry | None = None, games: int = 6, seed: int = 0,
                   engines: tuple[str, ...] = ENGINES, checks: tuple[str, ...] = CHECKS,
                   raise_on_failure: bool = True) -> ContractReport:
    """Check a mechanic (its class or an instance) against its contract on a spec that uses
    it: ``spec`` (a path) or ``spec_text``, by default :func:`sample_spec`. ``registry``: the
    mechanics the spec is read with (every installed one by default; the mechanic is added,
    or put in the place of the installed one of its name). ``games`` seeded random games
    from ``seed`` on ``engines`` (both by default; the reference alone is much faster to
    start, the compiled engine needs a C compiler). ``checks``: a subset of :data:`CHECKS`.
    Returns the :class:`ContractReport`; raises :class:`ContractFailure` listing every
    problem when there is one, unless ``raise_on_failure`` is False."""
    cls = _class_of(mechanic)
    unknown = sorted(set(checks) - set(CHECKS))
    if unknown or not engines or set(engines) - set(ENGINES):
        raise ValueError(f"checks are among {', '.join(CHECKS)} (got {unknown}); engines among {ENGINES}")
    registry = _registry_with([mechanic], registry)
    with tempfile.TemporaryDirectory(prefix="railspec-contract-") as scratch:
        path, text = _spec_file(cls, spec, spec_text, Path(scratch))
        report = ContractReport(cls.name, str(spec) if spec is not None else "its sample")
        _run_checks(_Run(report, registry, path, text, tuple(engines), tuple(checks)), [cls], games, seed)
    if raise_on_failure and report.problems:
        raise ContractFailure(report.summary())
    return report


def check_pair(first, second, **options) -> ContractReport | None:
    """:func:`check_combination` of two mechanics (their samples in one spec, one route
    carrying both where both attach to routes)."""
    return check_combination([first, second], **options)


def check_combination(mechanics, *, registry: Registry | None = None, games: int = 3, seed: int = 0,
                      engines: tuple[str, ...] = ENGINES, checks: tuple[str, ...] = ("spec", "games", "positions"),
                      raise_on_failure: bool = True) -> ContractReport | None:
    """Play several mechanics in one spec (:func:`combined_spec`: one route carrying each
    route attribute, where they may share one) with ``checks`` (by default saving and
    loading every state, the engines agreeing, the described positions scoring as the
    games). None when their samples cannot share a spec: the combined spec does not check,
    with the shared route or without it."""
    classes = [_class_of(m) for m in mechanics]
    registry = _registry_with(mechanics, registry)
    text = _combined_text(mechanics, registry)
    if text is None:
        return None
    name = " + ".join(cls.name for cls in classes)
    with tempfile.TemporaryDirectory(prefix="railspec-contract-") as scratch:
        path = Path(scratch) / "combined.rail"
        path.write_text(text, encoding="utf-8")
        report = ContractReport(name, "their samples" + (", one route carrying several of their attributes"
                                                         if SHARED_ROUTE in text else ""))
        _run_checks(_Run(report, registry, path, text, tuple(engines), tuple(checks)), classes, games, seed)
    if raise_on_failure and report.problems:
        raise ContractFailure(report.summary())
    return report


def _combined_text(mechanics, registry: Registry) -> str | None:
    """:func:`combined_spec` with every attribute on the shared route, when that checks;
    else with as many as check together there, taken in order; None when the samples do
    not check together even apart."""
    whole = combined_spec(mechanics)
    if whole is None or _checks(whole, registry):
        return whole
    apart = combined_spec(mechanics, shared_route=False)
    if apart is None or not _checks(apart, registry):  # (None only when ``whole`` is)
        return None
    kept: list[str] = []
    for attr in dict.fromkeys(s.route for s in map(_sample_of, mechanics) if s.route):
        with_attr = combined_spec(mechanics, shared=kept + [attr])
        if with_attr is not None and _checks(with_attr, registry):
            kept.append(attr)
    return combined_spec(mechanics, shared=kept) if len(kept) > 1 else apart


def _checks(text: str, registry: Registry) -> bool:
    with tempfile.TemporaryDirectory(prefix="railspec-contract-") as scratch:
        path = Path(scratch) / "try.rail"
        path.write_text(text, encoding="utf-8")
        try:
            check_file(path, registry)
        except RailspecError:
            return False
    return True


def _spec_file(cls: type[Mechanic[Any]], spec: str | os.PathLike | None, spec_text: str | None,
               scratch: Path) -> tuple[Path, str]:
    if spec is not None and spec_text is not None:
        raise ValueError("give the spec as a path or as text, not both")
    if spec is not None:
        path = Path(spec)
        return path, path.read_text(encoding="utf-8")
    text = spec_text if spec_text is not None else sample_spec(cls)
    if text is None:
        raise ValueError(f"mechanic {cls.name} offers no sample (the Sampled capability): give check_mechanic a "
                         f"spec that uses it")
    path = scratch / f"{cls.name}.rail"
    path.write_text(text, encoding="utf-8")
    return path, text


def _run_checks(run: _Run, classes: list[type[Mechanic[Any]]], games: int, seed: int) -> None:
    """Run the wanted checks in :data:`CHECKS` order and record each one's outcome (a check's
    problems begin with its name)."""
    if "spec" not in run.wanted:
        raise ValueError("the spec check loads the spec the others need: keep it among the checks")
    notes: dict[str, str] = {}
    for name in CHECKS:
        if name not in run.wanted:
            continue
        if name not in ("contract", "spec") and run.loaded is None:
            notes[name] = "skipped: the spec did not load"
            continue
        note = _CHECK_FUNCTIONS[name](run, classes, games, seed)
        if note:
            notes[name] = note
    for name in (n for n in CHECKS if n in run.wanted):
        failed = any(p.startswith(f"{name}: ") for p in run.report.problems)
        run.report.outcomes[name] = "failed" if failed else notes.get(name, "passed")


# --- the checks ---------------------------------------------------------------------------------

def _check_contract(run: _Run, classes, games, seed) -> str | None:
    for cls in classes:
        for what in contract_problems(cls):
            run.problem("contract", f"{cls.name}: {what}")
    return None


def _check_spec(run: _Run, classes, games, seed) -> str | None:
    try:
        run.loaded = game_api.load(run.path, registry=run.registry)
    except RailspecError as err:
        run.problem("spec", f"{run.path.name} does not load: {err}")
        return None
    used = set(run.variant.ir.mechanics)
    for cls in classes:
        if cls.name not in used:
            run.problem("spec", f"the spec does not use {cls.name}")
    return None


def _check_format(run: _Run, classes, games, seed) -> str | None:
    try:
        once = format_text(run.text, str(run.path), run.registry)
        twice = format_text(once, str(run.path), run.registry)
    except RailspecError as err:
        run.problem("format", f"railspec fmt refuses the spec: {err}")
        return None
    if twice != once:
        run.problem("format", "the spec laid out by railspec fmt does not lay out to itself")
    laid_out = run.path.with_name(run.path.stem + ".fmt.rail")
    laid_out.write_text(once, encoding="utf-8")
    try:
        again = check_file(laid_out, run.registry)
    except RailspecError as err:
        run.problem("format", f"the spec laid out by railspec fmt no longer checks: {err}")
        return None
    finally:
        laid_out.unlink()
    if again.spec_hash != run.variant.ir.spec_hash:
        run.problem("format", "the spec laid out by railspec fmt checks to another IR")
    return None


_FINGERPRINT = """
import json, sys
from railspec.compiler import check_file
variant = check_file(sys.argv[1])
print(json.dumps({"hash": variant.spec_hash, "actions": [a.name for a in variant.actions]}))
"""


def _check_catalogue(run: _Run, classes, games, seed) -> str | None:
    ir = run.variant.ir
    mine = {"hash": ir.spec_hash, "actions": [a.name for a in ir.actions]}
    again = check_file(run.path, run.registry)
    if {"hash": again.spec_hash, "actions": [a.name for a in again.actions]} != mine:
        run.problem("catalogue", "checking the spec again gives another catalogue or hash")
    installed = default_registry()
    if any(installed.by_name.get(cls.name).__class__ is not cls for cls in classes) or \
            [m.name for m in run.registry] != [m.name for m in installed]:
        return "passed in this process; not in a fresh one (the mechanic is not the installed one)"
    env = dict(os.environ, PYTHONHASHSEED=str(seed * 7919 % 4294967295 + 1))
    done = subprocess.run([sys.executable, "-c", _FINGERPRINT, str(run.path)], capture_output=True, text=True,
                          env=env, timeout=300, check=False)
    if done.returncode != 0:
        run.problem("catalogue", f"a fresh process could not check the spec: {done.stderr.strip()[-400:]}")
    elif json.loads(done.stdout) != mine:
        run.problem("catalogue", "a fresh process with another string-hash seed gives another catalogue or hash: "
                                 "ids depend on the order of a set")
    return None


def _check_language_server(run: _Run, classes, games, seed) -> str | None:
    analyzer = Analyzer(run.registry)
    analysis = analyzer.analyze(str(run.path), run.text)
    nodes = {node for cls in classes for node in cls.statements}
    hovered = 0
    for spec in analysis.files[-1:]:
        for stmt in spec.statements:
            targets = [stmt] if type(stmt) in nodes else []
            targets += [a for a in getattr(stmt, "attrs", ()) if type(a) in nodes]
            for target in targets:
                span = target.span
                found = features.hover(analysis, span.line, span.col)
                if not found or not found[0].strip():
                    run.problem("language_server", f"no hover over {_source(run.text, span)!r} at line {span.line}")
                hovered += 1
    offered = {c.label for c in features.completions(analysis, analyzer.language, len(analysis.lines) + 1, 1)}
    for node in sorted((n for n in nodes if issubclass(n, ast.Stmt)), key=lambda n: n.__name__):
        words = node.words
        if words and words not in offered:
            run.problem("language_server", f"a new line does not offer {words!r} ({node.__name__})")
    return None if hovered or not nodes else "passed (the spec writes none of its statements)"


def _source(text: str, span) -> str:
    lines = text.splitlines()
    return lines[span.line - 1][span.col - 1:span.end_col - 1] if 0 < span.line <= len(lines) else ""


def _check_games(run: _Run, classes, games: int, seed: int) -> str | None:
    v = run.variant
    low, high = v.ir.min_players, v.ir.max_players
    for k in range(games):
        game_seed = seed + k
        _play(run, game_seed, low + k % (high - low + 1))
    if "compiled" in run.engines and any(cls.playout_hooks for cls in classes):
        # the playout hooks pick without the list: the batch loop must play the games the
        # reference's, which lists, plays (docs/engine.md "Random playouts")
        for players in range(low, high + 1):
            batch = v.playout(games=games, players=players, seed=seed)
            listed = v.playout(games=games, players=players, seed=seed, engine="reference")
            if batch != listed:
                run.problem("games", f"{players}p: the compiled playout, through the playout hooks, plays other "
                                     f"games than the reference's (decisions {batch['decisions']} against "
                                     f"{listed['decisions']})")
    return None


def _play(run: _Run, seed: int, players: int) -> None:
    """One seeded random game on every engine of the run, checked at every decision."""
    v, engines, report = run.variant, run.engines, run.report
    played = {e: v.new_game(players=players, seed=seed, engine=e) for e in engines}
    agent, api_rng = agent_for(seed), random.Random(seed)
    step, last = 0, "(set-up)"

    def problem(what: str) -> None:
        run.problem("games", f"seed {seed} ({players}p) step {step} after {last!r}: {what}")

    while True:
        states = {e: g.state() for e, g in played.items()}
        first = played[engines[0]]
        for e in engines[1:]:
            if states[e] != states[engines[0]]:
                return problem(f"the engines' states differ at "
                               f"{conformance.first_difference(states[engines[0]], states[e])}")
        over = first.is_over
        for what in conformance.invariant_problems(v.ir, first, states[engines[0]], scores=over or step % 5 == 0):
            problem(what)
        for e, g in played.items():
            if not _saves_and_loads(v, g, e, problem):
                return None
            if step % 25 == 0:
                for what in conformance.api_problems(v, g, api_rng):
                    problem(f"{e}: {what}")
        _extra_checks(run, played, states, step, over)
        if over:
            break
        legal = {e: g.legal_actions() for e, g in played.items()}
        if any(legal[e] != legal[engines[0]] for e in engines):
            return problem("the engines' legal actions differ")
        if not legal[engines[0]]:
            return problem("no legal action in a live game")
        action = legal[engines[0]][agent.below(len(legal[engines[0]]))]
        last = v.action_name(action)
        for g in played.values():
            g.apply(action)
        step += 1
        report.decisions += 1
    report.games += 1
    return None


def _saves_and_loads(v, g, engine: str, problem) -> bool:
    """Whether the game's state saves and loads (the same state and legal actions back);
    False, after saying why, when it does not load at all."""
    text = g.to_json()
    try:
        back = v.game_from_json(text, engine=engine)
    except RailspecError as err:
        problem(f"{engine}: the state does not load again: {err}")
        return False
    if back.to_json() != text:
        problem(f"{engine}: the state loads as another state")
    elif not g.is_over and back.legal_actions() != g.legal_actions():
        problem(f"{engine}: the state loads with other legal actions")
    return True


def _extra_checks(run: _Run, played: dict, states: dict, step: int, over: bool) -> None:
    """The positions and observation checks, on the states a game of :func:`_play` reaches."""
    if "positions" in run.wanted and (over or step % 10 == 0):
        _check_position(run, played, states)
    if "observation" in run.wanted and (step % 7 == 3 or over):
        _check_observation(run, played, step)


def _check_position(run: _Run, played: dict, states: dict) -> None:
    v = run.variant
    for e, g in played.items():
        position = position_of_state(v.ir, states[e])
        try:
            rows = v.score(position)
        except RailspecError as err:
            run.problem("positions", f"{e}: the described position of a reached state is refused: {err}")
            continue
        for row in rows:
            row.pop("winner")
        breakdown = g.score_breakdown()
        if rows != breakdown:
            run.problem("positions", f"{e}: the described position scores {rows}, the game {breakdown} (at "
                                     f"{conformance.first_difference(breakdown, rows)}); position {position}")


def _check_observation(run: _Run, played: dict, step: int) -> None:
    v = run.variant
    size = v.observation_spec().size
    for e, g in played.items():
        for player in range(g.players):
            seen = _seen_by(g, player, size)
            world = g.resample(player, seed=step * 31 + player)
            if _seen_by(world, player, size) != seen:
                run.problem("observation", f"{e}: player {player}'s observation changes in a world redrawn where "
                                           f"only what is hidden from them changes (step {step})")
        for first_id, second_id in _hidden_choices(g):
            worlds = [g.clone(), g.clone()]
            worlds[0].apply(first_id)
            worlds[1].apply(second_id)
            for other in range(g.players):
                if other != g.current_player and _seen_by(worlds[0], other, size) != \
                        _seen_by(worlds[1], other, size):
                    run.problem("observation", f"{e}: player {other} can tell which tickets player "
                                               f"{g.current_player} kept ({v.action_name(first_id)!r} or "
                                               f"{v.action_name(second_id)!r})")


def _seen_by(g, player: int, size: int) -> tuple:
    vector = array("f", bytes(4 * size))
    g.observation_into(player, vector)
    return g.observation(player), vector.tobytes()


def _hidden_choices(g) -> list[tuple[int, int]]:
    """Two keeps of as many tickets by the player to move (at most one pair per size)."""
    by_size: dict[int, list[int]] = {}
    for a in g.legal_actions():
        action = g.variant.ir.actions[a]
        if action.kind == "keep_tickets":
            by_size.setdefault(bin(action.mask).count("1"), []).append(a)
    return [next(itertools.combinations(same, 2)) for same in by_size.values() if len(same) > 1]


def _games_included(run: _Run, classes, games: int, seed: int) -> str | None:
    """The positions and observation checks run inside the games' loop."""
    if "games" not in run.wanted:
        return _check_games(run, classes, games, seed)
    return None


_CHECK_FUNCTIONS = {"contract": _check_contract, "spec": _check_spec, "format": _check_format,
                    "catalogue": _check_catalogue, "language_server": _check_language_server,
                    "games": _check_games, "positions": _games_included, "observation": _games_included}
