"""The search: Smith and Anton's phases, each a run of rounds; each round a race of
candidate changes by successive halving on common seeds, and the survivor kept only when
fresh paired games put its gain outside the noise.

A round (:meth:`Search.round`):

1. draws its moves (:func:`~.changes.round_moves`): the broad ones of the current step
   size not tried yet (a table entry, a group of tickets), and single ones at random;
2. writes each candidate (the current spec with one move made) as a paired overlay, checks
   it and builds its engine (a spec the checker refuses is dropped; the builds run in
   parallel, one process per core);
3. races them: every candidate and the current spec play the same fresh seeds; the better
   half by estimated gain goes on to twice as many games, until one is left (successive
   halving);
4. plays the survivor and the current spec again on fresh seeds, and keeps the change only
   when the whole 95% interval of the gain (a paired bootstrap, :mod:`.stats`) is above
   zero. The survivor was picked as the best of several on the race's games, so its gain
   there is flattering; only the fresh games are trusted.

A failed round marks its moves tried; once every broad move of a step size is tried
without a change, the step shrinks (:data:`~.changes.STEPS`); after the smallest, the
phase ends. Each phase gets an even share of the games left when it starts.
"""
from __future__ import annotations

import hashlib
import math
import multiprocessing
import multiprocessing.connection as mp_connection
import signal
import sys
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...compiler import build as build_stage
from ...compiler.base.rng import SplitMix64
from ...runtime.game import load
from .. import balance
from .changes import PHASES, STEPS, ChangeKind, Move, SpecModel, Tuning, broad_left, overlay, round_moves
from .play import TunePlan
from .stats import Gain, paired_gain, point_gain
from .target import Measures, Outcome, Target, numpy

#: Stream numbers for the seeds a run derives from its own (they never meet).
SEARCH_STREAM, FINAL_STREAM, MOVES_STREAM, BOOTSTRAP_STREAM = 1, 2, 3, 4
#: A rung's games per candidate at the first step size, as a share of a phase's games (a
#: round at the first step size costs about 100 first rungs with 12 candidates, twice that at
#: the next step and four times at the last: some four rounds at each step fit a phase).
RUNG_SHARE = 1 / 1600
#: Candidates per round, by default.
WIDTH = 12
#: The fewest games a rung of a race plays per spec: fewer tell a large change from none
#: no better than chance, and each round also builds its candidates' engines.
LEAST_RUNG = 64


def derived_seed(seed: int, stream: int, index: int) -> int:
    """A 64-bit seed for item ``index`` of ``stream`` of a run seeded with ``seed``."""
    rng = SplitMix64((seed % 2**64) ^ (stream * 0xD1B54A32D192ED03 % 2**64) ^ (index * 0x9E3779B97F4A7C15 % 2**64))
    return rng.next()


@dataclass(frozen=True)
class Candidate:
    """One move tried in a round: the tuning it makes and the spec that says it."""

    move: Move
    tuning: Tuning
    path: str


@dataclass
class Accepted:
    """A change kept: its move, the phase and step it was found at, and what the fresh
    paired games measured (the gain with its interval, the summaries of both sides)."""

    number: int
    phase: int
    level: int
    move: Move
    tuning: Tuning
    gain: Gain
    before: dict[str, Any]
    after: dict[str, Any]

    def note(self) -> str:
        """Why the change was made, for the comment in tuned.rail."""
        styles = sorted(self.before["styles"], key=lambda s: -abs(self.after["styles"][s] - self.before["styles"][s]))
        moved = ", ".join(f"{s} {self.before['styles'][s]:.3f} → {self.after['styles'][s]:.3f}" for s in styles[:2])
        return (f"change {self.number} ({self.move.label}): distance {self.before['distance']:.3f} → "
                f"{self.after['distance']:.3f} on {self.gain.games:,} paired games (gain {self.gain.estimate:.3f}, "
                f"95% interval {self.gain.low:.3f} to {self.gain.high:.3f})" + (f"; {moved}" if moved else ""))

    def as_json(self) -> dict[str, Any]:
        """The change as tune.json records it."""
        return {"number": self.number, "phase": self.phase + 1, "step": STEPS[self.level], "kind": self.move.kind,
                "change": self.move.label, "gain": self.gain.as_json(), "before": self.before, "after": self.after}


@dataclass
class Round:
    """What one round did, for tune.json."""

    phase: int
    level: int
    candidates: list[str]
    refused: list[str] = field(default_factory=list)
    survivor: str | None = None
    race_gain: float | None = None
    gain: Gain | None = None
    games: int = 0

    def as_json(self) -> dict[str, Any]:
        """The round as tune.json records it."""
        verdict = "accepted" if self.gain is not None and self.gain.outside_noise else (
            "refused: within noise" if self.gain is not None else "no candidate gained in the race")
        return {"phase": self.phase + 1, "step": STEPS[self.level], "candidates": self.candidates,
                "refused_by_checker": self.refused, "survivor": self.survivor,
                "race_gain": None if self.race_gain is None else round(self.race_gain, 6),
                "gain": None if self.gain is None else self.gain.as_json(), "verdict": verdict, "games": self.games}


@dataclass
class Settings:
    """What a search plays with: the input (as a worker loads it), the games of its
    budget, the players, the seed, where the games run, the candidates per round, and the
    folder the candidates are written to (with what they write after ``extends``)."""

    spec: str
    budget: int
    players: int
    seed: int
    workers: int
    ray: str | None
    width: int
    folder: Path
    extends: str


class Search:
    """One tuning search (see the module's docstring): :meth:`run` returns the best tuning
    found; the accepted changes, the rounds and the games played are its attributes."""

    def __init__(self, settings: Settings, model: SpecModel, target: Target, measures: Measures,
                 kinds: Sequence[ChangeKind], progress: Callable[[int], None] | None = None,
                 say: Callable[[str], None] | None = None, status: Callable[[str], None] | None = None):
        self.settings, self.model, self.target, self.measures = settings, model, target, measures
        self.kinds = list(kinds)
        self.progress, self.say = progress, say or (lambda line: None)
        self.on_status = status or (lambda text: None)
        self.accepted: list[Accepted] = []
        self.rounds: list[Round] = []
        self.played = 0
        self.built = 0
        self.stopped = "converged"
        self.status = ""
        self.distance: float | None = None  # the current spec's, on the last fresh games
        self._seeds = 0
        self._boot = 0
        self._moves = SplitMix64(derived_seed(settings.seed, MOVES_STREAM, 0))
        self._paths: dict[Tuning, str] = {Tuning(): settings.spec}
        self._tries: Counter[str] = Counter()  # how often each move (by its label) was in a round

    @property
    def tuning(self) -> Tuning:
        """The best tuning so far: the last change kept's."""
        return self.accepted[-1].tuning if self.accepted else Tuning()

    # --- the phases -----------------------------------------------------------------------
    def run(self) -> Tuning:
        """Search until every phase ends, the budget is spent or Ctrl-C; the best tuning."""
        phases = [[k for k in self.kinds if k.kind in phase] for phase in PHASES]
        phases = [p for p in phases if p]
        try:
            for number, kinds in enumerate(phases):
                allotted = (self.settings.budget - self.played) // (len(phases) - number)
                self._phase(number, kinds, self.played + allotted)
                if self.played >= self.settings.budget:
                    break
        except balance.CampaignStopped as stop:  # Ctrl-C or SIGTERM while games were played
            self.stopped = "terminated" if stop.signum == signal.SIGTERM else "interrupted"
        except KeyboardInterrupt:  # Ctrl-C between campaigns (a build, the bootstrap)
            self.stopped = "interrupted"
        return self.tuning

    def _phase(self, number: int, kinds: list[ChangeKind], until: int) -> None:
        rung = self._rung_size(until - self.played)
        level = 0
        tried: set[str] = set()
        while level < len(STEPS):
            width = self.settings.width
            moves = round_moves(self.model, self.tuning, kinds, level, width, self._moves, tried, self._tries)
            scale = 2 ** level
            n0 = rung * scale
            while moves and self.played + round_cost(len(moves), n0) > until and n0 > self._least():
                n0 = max(self._least(), n0 // 2 // len(self.target.agents) * len(self.target.agents))
            if not moves or self.played + round_cost(len(moves), n0) > until:
                if moves:
                    self.stopped = "budget"
                    return
                level, tried = level + 1, set()
                continue
            self.status = f"phase {number + 1} ({', '.join(k.kind for k in kinds)}), step {STEPS[level]:g}"
            known = "" if self.distance is None else f", distance {self.distance:.3f}"
            self.on_status(f"{self.status}{known}, {len(self.accepted)} kept")
            for move in moves:
                self._tries[move.label] += 1
            if self.round(number, level, moves, n0):
                tried = set()
            else:
                tried |= {m.label for m in moves}
                if not broad_left(self.model, self.tuning, kinds, level, tried):
                    level, tried = level + 1, set()

    def _rung_size(self, games: int) -> int:
        k = len(self.target.agents)
        return max(self._least(), int(games * RUNG_SHARE) // k * k)

    def _least(self) -> int:
        """The fewest games a rung plays per spec: :data:`LEAST_RUNG`, a whole number of
        turns of the seating's rotation (each turn seats every style in every seat)."""
        k = len(self.target.agents)
        return max(2 * k, LEAST_RUNG // k * k)

    # --- a round --------------------------------------------------------------------------
    def round(self, phase: int, level: int, moves: list[Move], n0: int) -> bool:
        """One round (the module's docstring); True when it kept a change."""
        log = Round(phase, level, [m.label for m in moves])
        self.rounds.append(log)
        start = self.played
        candidates = self._candidates(moves, log)
        if not candidates:
            return False
        survivor, race_gain, last = self._race(candidates, n0)
        log.survivor, log.race_gain = survivor.move.label, race_gain
        if race_gain <= 0:
            log.games = self.played - start
            return False
        incumbent = self._paths[self.tuning]
        before, after = self._play([incumbent, survivor.path], 2 * last)
        gain = paired_gain(self.measures, before, after, derived_seed(self.settings.seed, BOOTSTRAP_STREAM, self._boot))
        self._boot += 1
        log.gain, log.games = gain, self.played - start
        self.distance = float(self.measures.distance(numpy().asarray(before).sum(axis=0), len(before)))
        if not gain.outside_noise:
            self.say(f"refused: {survivor.move.label}: gain {gain.estimate:+.4f}, 95% interval {gain.low:+.4f} to "
                     f"{gain.high:+.4f} (within the noise of {gain.games:,} paired games)")
            return False
        change = Accepted(len(self.accepted) + 1, phase, level, survivor.move, survivor.tuning, gain,
                          self.measures.summary(before), self.measures.summary(after))
        self.accepted.append(change)  # one step: a Ctrl-C never leaves a change half kept
        self.distance = change.after["distance"]
        self.say(f"kept: {change.note()}")
        return True

    def _candidates(self, moves: list[Move], log: Round) -> list[Candidate]:
        """The moves as checked, built candidates (those the checker refuses are logged)."""
        out: list[Candidate] = []
        seen = {self.tuning}
        for move in moves:
            tuning = self.model.normalised(self.tuning.with_edits(move.edits))
            if tuning in seen:
                continue
            seen.add(tuning)
            out.append(Candidate(move, tuning, self._write(tuning)))
        problems = build_all([c.path for c in out], self.settings.workers)
        kept = []
        for candidate in out:
            problem, compiled = problems[candidate.path]
            self.built += compiled
            if problem is None:
                kept.append(candidate)
                self._paths[candidate.tuning] = candidate.path
            else:
                log.refused.append(f"{candidate.move.label}: {problem}")
        return kept

    def _write(self, tuning: Tuning) -> str:
        """The paired overlay of ``tuning`` in the candidates' folder, named by the input's
        spec hash and the tuning (another run, in any folder, makes the same variant key
        for the same candidate, and so finds its engine in the cache)."""
        known = self._paths.get(tuning)
        if known is not None:
            return known
        text = overlay(self.model, tuning, self.settings.extends, form="paired",
                       header=["a candidate of railspec tune (paired form: ids as in the input)"])
        name = hashlib.sha256(f"{self.model.variant.spec_hash}|{tuning.items!r}".encode()).hexdigest()[:20]
        path = self.settings.folder / f"t{name}.rail"
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        return str(path.resolve())

    def _race(self, candidates: list[Candidate], n0: int) -> tuple[Candidate, float, int]:
        """Successive halving: the survivor, its gain over the race's games, and the games
        per spec of the race's last rung."""
        np = numpy()
        alive = list(candidates)
        incumbent_rows: list[Any] = []
        rows: dict[str, list[Any]] = {c.path: [] for c in candidates}
        games = n0
        while True:
            played = self._play([self._paths[self.tuning]] + [c.path for c in alive], games)
            incumbent_rows.append(played[0])
            for candidate, got in zip(alive, played[1:]):
                rows[candidate.path].append(got)
            before = np.vstack(incumbent_rows)
            gains = {c.path: point_gain(self.measures, before, np.vstack(rows[c.path])) for c in alive}
            self.distance = float(self.measures.distance(before.sum(axis=0), len(before)))
            alive = sorted(alive, key=lambda c: -gains[c.path])[:math.ceil(len(alive) / 2)]
            if len(alive) == 1:
                return alive[0], gains[alive[0].path], games
            games *= 2

    def _play(self, specs: list[str], games: int) -> list[Any]:
        """Each spec's rows for ``games`` games on the same fresh seeds."""
        np = numpy()
        seed = derived_seed(self.settings.seed, SEARCH_STREAM, self._seeds)
        self._seeds += 1
        plan = TunePlan(variant=specs[0], players=self.settings.players, games=games * len(specs),
                        agents=self.target.agents, seed=seed, specs=tuple(specs), per_spec=games,
                        tickets=self.measures.needs_tickets, routes=self.measures.needs_routes)
        outcomes: list[Outcome] = []

        def count(done: int) -> None:
            self.played += done
            if self.progress is not None:
                self.progress(done)
        with balance.Campaign(plan, self.settings.workers, self.settings.ray, count) as stream:
            outcomes.extend(stream)
        return [np.asarray([self.measures.row(o, plan.seats(i)) for i, o in
                            enumerate(outcomes[s * games:(s + 1) * games])]) for s in range(len(specs))]


def round_cost(candidates: int, n0: int) -> int:
    """The games a round of ``candidates`` costs with first rungs of ``n0`` games: the
    rungs of the race (the current spec plays each too) and the fresh paired games."""
    cost, alive, games = 0, candidates, n0
    while True:
        cost += (alive + 1) * games
        alive = math.ceil(alive / 2)
        if alive == 1:
            return cost + 2 * 2 * games
        games *= 2


# --- building the candidates' engines ------------------------------------------------------

def build_all(paths: list[str], workers: int) -> dict[str, tuple[str | None, int]]:
    """Check each spec and build its engine (cached ones are found, not built again):
    ``workers`` at a time, each in a process of its own. For each path: the first line of
    what refused it (None when it loads) and whether its engine was compiled now (1 or 0)."""
    if workers <= 1 or len(paths) <= 1:
        return {path: _build_one(path) for path in paths}
    context: Any = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    results: dict[str, tuple[str | None, int]] = {}
    waiting = list(paths)
    running: dict[Any, tuple[str, Any, Any]] = {}  # sentinel -> (spec, process, our end of its pipe)
    try:
        while waiting or running:
            while waiting and len(running) < workers:
                path = waiting.pop(0)
                ours, theirs = context.Pipe(duplex=False)
                process = context.Process(target=_build_child, args=(path, theirs), daemon=True)
                balance.start_with_signals_held(process)
                theirs.close()
                running[process.sentinel] = (path, process, ours)
            for sentinel in mp_connection.wait(list(running), timeout=0.2):
                path, process, ours = running.pop(sentinel)
                try:
                    results[path] = ours.recv()
                except (EOFError, OSError):
                    results[path] = (f"its build process ended with exit code {process.exitcode}", 0)
                ours.close()
                process.join()
    finally:
        for _, process, ours in running.values():
            process.terminate()
            process.join()
            ours.close()
    return results


def _build_one(path: str) -> tuple[str | None, int]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            load(path).module()
    except Exception as err:  # a spec the checker refuses, or a build that fails: the candidate is dropped
        text = getattr(err, "message", None) or str(err)
        return text.splitlines()[0] if text else type(err).__name__, 0
    return None, int(build_stage.last_build_kind == "compiled")


def _build_child(path: str, connection: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops its children itself
    balance.release_held_signals()
    connection.send(_build_one(path))
    connection.close()
