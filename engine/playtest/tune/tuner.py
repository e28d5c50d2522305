"""A tuning run from end to end: read the input, the target and the changes; search; write
tuned.rail; measure the input and the tuned spec on fresh seeds with the balance campaign
(full records: the report is drawn from them); write tune.json and report.html."""
from __future__ import annotations

import resource
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...runtime.game import Variant, load, spec_path
from .. import balance, report
from ..tally import CampaignTally
from .changes import ChangeKind, SpecModel, Tuning, check_kinds, extends_path, overlay, read_changes
from .outputs import intro_html, side_by_side, write_atomically, write_json
from .play import outcome_of_record
from .search import FINAL_STREAM, LEAST_RUNG, WIDTH, Search, Settings, derived_seed, round_cost
from .stats import paired_gain
from .target import Measures, Target, TargetError, numpy, read_target

#: The share of the games budget kept for the final measure (half on each side).
FINAL_SHARE = 0.1
#: The final measure's games per side at most (enough for shares within half a point).
FINAL_MOST = 20_000


@dataclass
class Request:
    """What to tune: the input (a stock name or a spec path), the target and the changes
    (as the command line gives them), the games budget, the players, the seed, the output
    folder, where the games run and the candidates per round."""

    spec: str
    target: str | Target
    changes: str | Sequence[ChangeKind]
    games: int
    players: int = 4
    seed: int = 1
    out: Path = Path("tuned")
    workers: int | None = None
    ray: str | None = None
    width: int = WIDTH


@dataclass
class Result:
    """What a run did: tune.json's content, the files written, whether it was stopped, and
    its times (wall and CPU, this process and the ones it waited for)."""

    summary: dict[str, Any]
    written: list[Path] = field(default_factory=list)
    stopped: str = "converged"
    wall: float = 0.0
    cpu: float = 0.0


def _cpu() -> float:
    """CPU seconds of this process and of the children it has waited for (the campaign
    workers, the build processes and the C compiler)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class Run:
    """One tuning run (see the module's docstring). ``progress`` is called with the games
    just played; ``say`` with a line worth printing (a change kept or refused)."""

    def __init__(self, request: Request, progress: Callable[[int], None] | None = None,
                 say: Callable[[str], None] | None = None, status: Callable[[str], None] | None = None):
        self.request, self.progress, self.say = request, progress, say or (lambda line: None)
        self.status = status
        self.start_wall, self.start_cpu = time.perf_counter(), _cpu()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.variant: Variant = load(request.spec)
        file, self.stock = spec_path(request.spec)
        self.file = file if not self.stock else Path(file)
        players = self.variant.ir.check_players(request.players)
        self.target = request.target if isinstance(request.target, Target) else read_target(request.target, players)
        numpy()  # the extra the measures need, before any game
        report.require_extra()
        kinds = read_changes(request.changes) if isinstance(request.changes, str) else tuple(request.changes)
        self.model = SpecModel.read(request.spec, self.file, self.variant.ir)
        check_kinds(self.model, kinds)
        self.kinds = kinds
        self.measures = Measures(self.target, self.variant.ir, players)
        k = len(self.target.agents)
        self.final_games = max(4 * k, min(FINAL_MOST, int(request.games * FINAL_SHARE / 2)) // k * k)
        least = round_cost(1, max(2 * k, LEAST_RUNG // k * k)) + 2 * self.final_games
        if request.games < least:
            raise TargetError(f"--games {request.games:,} is too few for one round and the final measure: "
                              f"give {least:,} at least")
        self.out = Path(request.out)
        self.source = request.spec if self.stock else str(self.file.resolve())

    def search(self) -> Search:
        """Make the search (not run yet)."""
        folder = self.out / "candidates"
        folder.mkdir(parents=True, exist_ok=True)
        workers = self.request.workers if self.request.workers is not None else balance.default_workers()
        settings = Settings(self.source, self.request.games - 2 * self.final_games, self.request.players,
                            self.request.seed, workers, self.request.ray, self.request.width, folder,
                            extends_path(self.file, self.stock, self.request.spec, folder))
        return Search(settings, self.model, self.target, self.measures, self.kinds, self.progress, self.say,
                      self.status)

    def run(self) -> Result:
        """Search, then write the outputs; Ctrl-C during the search keeps the best so far,
        a second Ctrl-C (during the final measure) writes what is known without it."""
        search = self.search()
        tuning = search.run()
        if search.stopped == "interrupted":
            self.say(f"stopped after {search.played:,} games: measuring the best so far on fresh seeds "
                     "(Ctrl-C again to skip)")
        tuned = self.out / "tuned.rail"
        write_atomically(tuned, self.tuned_text(search, tuning, None))
        final, sides = None, None
        if search.stopped != "terminated":  # SIGTERM: write what is known and end at once
            try:
                final, sides = self.final_measure(tuned)
            except KeyboardInterrupt:
                search.stopped = "interrupted twice"
        summary = self.summary(search, final)
        if final is not None:
            write_atomically(tuned, self.tuned_text(search, tuning, final))
        written = [tuned, self.out / "tune.json"]
        if sides is not None:
            page = side_by_side(f"railspec tune: {self.variant.ir.name}", intro_html(summary), sides)
            write_atomically(self.out / "report.html", page)
            written.append(self.out / "report.html")
        summary["time"] = {"wall_seconds": round(time.perf_counter() - self.start_wall, 1),
                           "cpu_seconds": round(_cpu() - self.start_cpu, 1)}
        write_json(self.out / "tune.json", summary)
        return Result(summary, written, search.stopped, summary["time"]["wall_seconds"],
                      summary["time"]["cpu_seconds"])

    def tuned_text(self, search: Search, tuning: Tuning, final: dict[str, Any] | None) -> str:
        """tuned.rail: the changes kept, each statement with what it was and why."""
        notes: dict[tuple[str, int], list[str]] = {}
        brief: dict[str, str] = {}
        for change in search.accepted:
            note = change.note()
            brief[note] = f"change {change.number} ({change.move.label}), as above"
            for key, _ in change.move.edits:
                notes.setdefault(key, []).append(note)
        req = self.request
        header = [f"Tuned by railspec tune: target {self.target.name}, changes "
                  f"{','.join(k.kind for k in self.kinds)}, {req.players} players, seed {req.seed}, "
                  f"{search.played:,} games searched ({search.stopped}).",
                  f"{len(search.accepted)} change(s) kept, each only when fresh paired games put its gain "
                  "outside the noise (tune.json)."]
        if final is not None:
            header.append(f"Distance to the target on {final['games']:,} fresh games a side: "
                          f"{final['before']['distance']:.3f} before, {final['after']['distance']:.3f} after.")
        header.append("Changed statements only; a changed route or ticket is removed and declared again.")
        extends = extends_path(self.file, self.stock, req.spec, self.out)
        return overlay(self.model, tuning, extends, "minimal", notes, header, f"{self.variant.ir.name} (tuned)",
                       brief)

    def final_measure(self, tuned: Path) -> tuple[dict[str, Any], list[tuple[str, Any, CampaignTally, Any]]]:
        """The input and tuned.rail on the same fresh seeds, as balance campaigns: the
        distances, the gain with its interval, and each side's tally for the report."""
        seed = derived_seed(self.request.seed, FINAL_STREAM, 0)
        rows, sides = [], []
        for label, spec in (("before: " + self.request.spec, self.source), ("after: tuned.rail", str(tuned.resolve()))):
            plan = balance.CampaignPlan(variant=spec, players=self.request.players, games=self.final_games,
                                        agents=self.target.agents, seed=seed)
            campaign = balance.Campaign(plan, self.request.workers, self.request.ray, self.progress)
            tally = CampaignTally(campaign.variant)
            side: list[list[float]] = []
            with campaign as records:
                for record in records:
                    tally.add(record)
                    side.append(self.measures.row(outcome_of_record(record), plan.seats(record["game"])))
            rows.append(numpy().asarray(side))
            sides.append((label, campaign.variant, tally, plan))
        gain = paired_gain(self.measures, rows[0], rows[1], derived_seed(self.request.seed, FINAL_STREAM, 1))
        final = {"games": self.final_games, "seed": seed, "before": self.measures.summary(rows[0]),
                 "after": self.measures.summary(rows[1]), "gain": gain.as_json()}
        return final, sides

    def summary(self, search: Search, final: dict[str, Any] | None) -> dict[str, Any]:
        """tune.json's content."""
        req = self.request
        played = search.played + (2 * self.final_games if final is not None else 0)
        return {"spec": req.spec, "tuned": "tuned.rail", "players": req.players, "seed": req.seed,
                "target": self.target.as_json(),
                "changes": [{"kind": k.kind, "names": list(k.names)} for k in self.kinds],
                "final": final, "accepted": [c.as_json() for c in search.accepted],
                "games": {"budget": req.games, "search": search.played,
                          "final": 2 * self.final_games if final is not None else 0, "played": played},
                "stopped": search.stopped, "engines_built": search.built,
                "rounds": [r.as_json() for r in search.rounds]}


def tune(request: Request, progress: Callable[[int], None] | None = None,
         say: Callable[[str], None] | None = None, status: Callable[[str], None] | None = None) -> Result:
    """Tune ``request.spec`` toward ``request.target`` and write tuned.rail, tune.json and
    report.html into ``request.out`` (docs/tuning.md). ``progress``: called with the games
    just played; ``say``: with a line worth printing (a change kept or refused); ``status``:
    with where the search is (its phase and step, the distance, the changes kept)."""
    return Run(request, progress, say, status).run()
