"""The campaign: cases of every format run in batches by worker processes, their outcomes
counted, bad ones kept with their inputs.

A batch is (format, seed, count). Its seed is derived from the campaign seed, the format
and the batch number, so a campaign is reproduced by its seed and its case count. A
worker that dies in a case (a crash) or spends too long on one (a hang, then it is killed)
is replaced, and the new worker resumes the batch after that case.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from railspec.playtest import lifeline

from . import targets
from .strategies import Case
from .targets import BAD, CRASH, HANG, OUTCOMES, signature
from .worker import regenerate

FORMATS = ("spec", "position", "trace", "state")
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REPORT = Path(__file__).resolve().parent / "report.json"
#: the most examples kept in the report per kind of finding (the shortest inputs)
EXAMPLES_PER_BUG = 3
#: a kept input longer than this is cut in the report (its seed and index regenerate it)
MAX_KEPT = 200_000


def batch_seed(seed: int, fmt: str, number: int) -> int:
    """The Hypothesis seed of one batch."""
    digest = hashlib.sha256(f"railspec-fuzz/{seed}/{fmt}/{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass
class Batch:
    format: str
    number: int
    seed: int
    count: int
    plays: int
    skip: int = 0
    played: int = 0
    restarts: int = 0


@dataclass
class Finding:
    """Bad cases of one signature: how many, and the shortest few inputs."""

    signature: str
    format: str
    outcome: str
    count: int = 0
    examples: list = field(default_factory=list)

    def add(self, case: dict, detail: dict | None, locator: dict) -> None:
        self.count += 1
        data = case.get("data", "")
        entry = {"case": case, "detail": detail, "locator": locator, "length": len(data)}
        if len(data) > MAX_KEPT and not case.get("cut"):
            entry["case"] = dict(case, data=data[:2000], cut=True)
        self.examples.append(entry)
        self.examples.sort(key=lambda e: e["length"])
        del self.examples[EXAMPLES_PER_BUG:]


@dataclass
class Summary:
    counts: dict
    findings: dict
    harness_errors: list
    elapsed: float
    cases: dict
    played: int = 0
    interrupted: bool = False

    @property
    def bad(self) -> int:
        return sum(n for per in self.counts.values() for o, n in per.items() if o in BAD) + len(self.harness_errors)

    def table(self) -> str:
        """Counts per format and outcome, as an aligned text table."""
        head = ["format", *OUTCOMES, "total"]
        rows = [head]
        for fmt, per in self.counts.items():
            rows.append([fmt, *(str(per.get(o, 0)) for o in OUTCOMES), str(sum(per.values()))])
        widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
        return "\n".join("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
                         for r in rows)


class _Worker:
    """One worker process and what it is doing."""

    def __init__(self, slot: int, workdir: Path, memory_gb: float):
        self.slot = slot
        self.dir = workdir / f"worker{slot}"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.log = self.dir / "stderr.log"
        env = dict(os.environ, RAILSPEC_CACHE=str(workdir / "cache"), PYTHONHASHSEED="0")
        parent = lifeline.worker_end().fileno()  # the worker ends with this process, even one SIGKILLed
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "fuzz.worker", "--workdir", str(self.dir), "--memory-gb", str(memory_gb),
                 "--lifeline", str(parent)],
                cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, env=env,
                start_new_session=True, pass_fds=(parent,))
        self.buffer = b""
        self.batch: Batch | None = None
        self.current: int | None = None
        self.started = time.monotonic()
        self.limit = 0.0
        self.last = time.monotonic()

    def send(self, batch: Batch) -> None:
        self.batch = batch
        self.current = None
        self.last = time.monotonic()
        job = {"format": batch.format, "seed": batch.seed, "count": batch.count, "skip": batch.skip,
               "plays": batch.plays - batch.played}
        self.proc.stdin.write((json.dumps(job) + "\n").encode())
        self.proc.stdin.flush()

    def messages(self) -> tuple[list[dict], bool]:
        """The complete messages waiting, and whether the worker closed its output."""
        chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in lines if line.strip()], not chunk

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def stop(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()

    def case_input(self) -> dict:
        try:
            return json.loads((self.dir / "case.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {"data": "", "how": "(the case file could not be read)"}

    def stderr_tail(self, lines: int = 25) -> str:
        try:
            return "\n".join(self.log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def run(formats=FORMATS, cases: int = 100_000, seed: int = 0, jobs: int = 1, batch_size: int = 1000,
        timeout: float = 10.0, play_timeout: float = 900.0, spec_plays: int = 10, workdir: Path | None = None,
        memory_gb: float = 3.0, log=None, checkpoint=None) -> Summary:
    """Run ``cases`` cases of each format; ``spec_plays`` accepted specs (at most one per
    batch, from the first batches) are also compiled and played. ``log(text)`` is told
    about each finished batch, ``checkpoint(summary)`` gets the counts so far after each.
    Interrupted (Ctrl-C, SIGTERM), it returns what it has, marked ``interrupted``."""
    t0 = time.monotonic()
    own_dir = workdir is None
    workdir = Path(tempfile.mkdtemp(prefix="railspec-fuzz-")) if own_dir else Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    counts = {fmt: {o: 0 for o in OUTCOMES} for fmt in formats}
    findings: dict[str, Finding] = {}
    harness_errors: list[str] = []
    queue: list[Batch] = []
    for fmt in formats:
        batches = max(1, -(-cases // batch_size))
        for number in range(batches):
            count = min(batch_size, cases - number * batch_size)
            if count > 0:
                plays = 1 if fmt == "spec" and number < spec_plays else 0
                queue.append(Batch(fmt, number, batch_seed(seed, fmt, number), count, plays))
    # interleave the formats so that a short run sees all of them
    queue.sort(key=lambda b: (b.number, formats.index(b.format)))

    def record(batch: Batch, outcome: str, case: dict, detail: dict | None, index: int) -> None:
        counts[batch.format][outcome] += 1
        if outcome in BAD:
            key = signature(batch.format, outcome, detail)
            found = findings.setdefault(key, Finding(key, batch.format, outcome))
            found.add(case, detail, {"format": batch.format, "seed": batch.seed, "count": batch.count,
                                     "index": index})

    workers: list[_Worker] = []
    slot_count = max(1, min(jobs, len(queue)))
    for slot in range(slot_count):
        if queue:
            w = _Worker(slot, workdir, memory_gb)
            w.send(queue.pop(0))
            workers.append(w)
    dead: list[tuple[_Worker, bool]] = []
    played = [0]
    interrupted = False

    def summary() -> Summary:
        return Summary(counts, findings, harness_errors, time.monotonic() - t0, {fmt: cases for fmt in formats},
                       played[0], interrupted)

    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        while workers:
            by_fd = {w.proc.stdout.fileno(): w for w in workers}
            ready, _, _ = select.select(list(by_fd), [], [], 1.0)
            now = time.monotonic()
            for fd in ready:
                w = by_fd[fd]
                msgs, closed = w.messages()
                for msg in msgs:
                    w.last = now
                    kind = msg["t"]
                    if kind == "s":
                        w.current, w.started, w.limit = msg["i"], now, timeout
                    elif kind == "x":
                        w.limit = play_timeout
                    elif kind == "e":
                        w.batch.skip = msg["i"] + 1
                        w.batch.played += msg.get("p", 0)
                        played[0] += msg.get("p", 0)
                        record(w.batch, msg["o"], msg.get("c", {}), msg.get("d"), msg["i"])
                        w.current = None
                    elif kind == "done":
                        if log:
                            b = w.batch
                            log(f"{b.format} batch {b.number}: {b.count} cases "
                                f"({time.monotonic() - t0:.0f} s)")
                        w.batch = None
                        if checkpoint:
                            checkpoint(summary())
                        if queue:
                            w.send(queue.pop(0))
                        else:
                            w.stop()
                            workers.remove(w)
                if closed and w in workers:
                    w.proc.wait()
                    dead.append((w, True))
            for w in workers:
                if w.current is not None and now - w.started > w.limit:
                    w.kill()
                    dead.append((w, False))
                elif w.current is None and w.batch is not None and now - w.last > max(600.0, timeout):
                    w.kill()
                    dead.append((w, True))
            for w, crashed in dead:
                workers.remove(w)
                batch = _resume(w, record, harness_errors, crashed)
                if batch is None and queue:
                    batch = queue.pop(0)
                if batch is not None:
                    fresh = _Worker(w.slot, workdir, memory_gb)
                    fresh.send(batch)
                    workers.append(fresh)
            dead.clear()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGTERM, previous)
        for w in workers:
            w.kill()
    return summary()


def _resume(w: _Worker, record, harness_errors: list, crashed: bool) -> Batch | None:
    """A worker died (``crashed``) or was killed in a hang: count the case it was in and
    return its batch, to be resumed after that case (None when there is nothing to
    resume, or the worker keeps dying between cases: a fault of the campaign itself)."""
    batch = w.batch
    if batch is None:
        return None
    if w.current is not None:
        outcome = CRASH if crashed else HANG
        detail = {"stage": "process", "returncode": w.proc.returncode, "stderr": w.stderr_tail()} if crashed \
            else {"stage": "process", "seconds": round(w.limit)}
        record(batch, outcome, w.case_input(), detail, w.current)
        batch.skip = w.current + 1
        return batch
    batch.restarts += 1
    if batch.restarts > 3:
        harness_errors.append(f"{batch.format} batch {batch.number}: the worker keeps failing:\n" + w.stderr_tail())
        return None
    return batch


def write_report(summary: Summary, path: Path, seed: int) -> None:
    """The campaign's findings as JSON: counts, and per kind of finding its count and the
    shortest inputs, each with what to run to see it again."""
    bugs = []
    for f in sorted(summary.findings.values(), key=lambda f: (f.format, f.outcome, -f.count)):
        bugs.append({"signature": f.signature, "format": f.format, "outcome": f.outcome, "count": f.count,
                     "examples": f.examples})
    data = {"seed": seed, "cases_per_format": summary.cases, "elapsed_seconds": round(summary.elapsed, 1),
            "specs_played": summary.played, "interrupted": summary.interrupted, "counts": summary.counts,
            "harness_errors": summary.harness_errors, "bugs": bugs}
    path.write_text(json.dumps(data, indent=1, ensure_ascii=True), encoding="utf-8")


def replay(report: Path, number: int) -> int:
    """Run the shortest example of finding ``number`` of a report here, in this process,
    printing the case and the full outcome (a crash ends this process too)."""
    data = json.loads(report.read_text(encoding="utf-8"))
    bug = data["bugs"][number]
    example = bug["examples"][0]
    case_json = example["case"]
    if case_json.get("cut"):
        loc = example["locator"]
        case = regenerate(loc["format"], loc["seed"], loc["index"], loc["count"])
    else:
        case = Case.from_json(case_json)
    print(f"{bug['signature']}  ({bug['count']} cases)")
    print(f"variant {case.variant}; made by: {case.how}; {len(case.data)} characters")
    print(repr(case.data[:1500]))
    result = targets.run(case, Path(tempfile.mkdtemp(prefix="railspec-replay-")), play=case.format == "spec")
    print(f"outcome: {result.outcome}")
    if result.detail:
        print(result.detail.get("traceback") or json.dumps(result.detail, indent=1))
    return 0 if result.outcome not in BAD else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz",
                                     description="railspec's fuzz campaign over specs, positions, traces and states")
    parser.add_argument("--cases", type=int, default=int(os.environ.get("FUZZ_CASES", "100000")),
                        help="cases per format (default 100000, or $FUZZ_CASES)")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", "0")),
                        help="the campaign's seed (default 0, or $FUZZ_SEED)")
    parser.add_argument("--formats", default=",".join(FORMATS), help="comma-separated (default: all four)")
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("FUZZ_JOBS", "1")),
                        help="worker processes at once (default 1, or $FUZZ_JOBS)")
    parser.add_argument("--batch", type=int, default=1000, help="cases per batch (default 1000)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds before a case is a hang (default 10)")
    parser.add_argument("--play-timeout", type=float, default=900.0,
                        help="seconds for compiling and playing one spec (default 900)")
    parser.add_argument("--spec-plays", type=int, default=int(os.environ.get("FUZZ_SPEC_PLAYS", "10")),
                        help="accepted specs compiled and played, at most one per batch (default 10)")
    parser.add_argument("--memory-gb", type=float, default=3.0, help="address-space limit of a worker (default 3)")
    parser.add_argument("--report", type=Path, default=DEFAULT_REPORT, help="where the findings go (JSON)")
    parser.add_argument("--workdir", type=Path, default=None,
                        help="scratch folder, with the build cache of played specs (default: fuzz/.work)")
    parser.add_argument("--quiet", action="store_true", help="no line per finished batch")
    parser.add_argument("--replay", nargs=2, metavar=("REPORT", "N"),
                        help="run the shortest example of finding N of a report, in this process")
    args = parser.parse_args(argv)
    if args.replay:
        return replay(Path(args.replay[0]), int(args.replay[1]))
    formats = tuple(f.strip() for f in args.formats.split(",") if f.strip())
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or args.cases < 1 or args.jobs < 1 or args.batch < 1:
        parser.error(f"formats are {', '.join(FORMATS)}; --cases, --jobs and --batch are positive")
    workdir = args.workdir or Path(__file__).resolve().parent / ".work"
    log = None if args.quiet else (lambda text: print(text, file=sys.stderr, flush=True))
    summary = run(formats, args.cases, args.seed, args.jobs, args.batch, args.timeout, args.play_timeout,
                  args.spec_plays, workdir, args.memory_gb, log,
                  checkpoint=lambda partial: write_report(partial, args.report, args.seed))
    if summary.interrupted:
        print("interrupted: the counts are those of the cases run so far")
    write_report(summary, args.report, args.seed)
    print(summary.table())
    print(f"{sum(sum(p.values()) for p in summary.counts.values())} cases in {summary.elapsed:.0f} s, "
          f"seed {args.seed}; {summary.played} accepted specs compiled and played; report: {args.report}")
    for f in sorted(summary.findings.values(), key=lambda f: (f.format, f.outcome, -f.count)):
        print(f"  {f.count:6d}  {f.signature}")
    for err in summary.harness_errors:
        print("campaign error: " + err)
    return 1 if summary.bad else (130 if summary.interrupted else 0)
