"""A worker process of the campaign: runs batches of cases and tells the campaign about
each one on its standard output.

The campaign writes one batch per line on the worker's standard input, as JSON:
``{"format": "state", "seed": 123, "count": 1000, "skip": 0, "plays": 0}``. The worker runs
the format's Hypothesis strategy under ``@given`` with that seed (no example database, no
shrinking, so a seed always yields the same cases in the same order), skips the first
``skip`` cases without running them (the cases a crashed worker already did), and
answers, one JSON line each:

- ``{"t": "s", "i": k}`` before case k (its input is written to the case file first, so a
  crash or a hang can be reported with the input that caused it);
- ``{"t": "x", "i": k}`` when case k goes on to compile and play a spec (a longer timeout);
- ``{"t": "e", "i": k, "o": outcome, "d": detail, "c": case}``: its outcome (the case and
  the detail only for bad outcomes);
- ``{"t": "done"}`` after the batch.

Anything railspec or the C compiler prints goes to standard error, not to the protocol.

``RAILSPEC_FUZZ_FAULT`` (e.g. ``crash@2,hang@4``) makes the worker die or stall at those
case indices instead of running them: the campaign's own test checks with it that crashes
and hangs are counted and the batch resumed.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import sys
import time
from pathlib import Path

from railspec.playtest import lifeline

from . import targets
from .strategies import STRATEGIES

#: a bad case's input longer than this is sent cut (a long message could outlast the
#: case's timeout)
MAX_SENT = 200_000


def _limit_memory(gigabytes: float) -> None:
    # a case that makes railspec allocate without bound (a deck of 2^32 cards, a spec that
    # extends /dev/zero) ends in MemoryError instead of taking the machine's memory
    if gigabytes > 0:
        limit = int(gigabytes * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _repeatable_generation() -> None:
    """Make a seed give the same cases every time.

    Hypothesis's generation phase is seeded, but it also runs a small mutator that copies
    one part of a generated input over another part drawn by the same strategy, and we
    measured that it does not repeat: two runs of one batch, same seed, same process,
    part ways after about a hundred cases (the choice among equally-labelled parts varies
    from run to run). Without it every run of a batch gives the same cases, which the
    campaign needs to resume a batch after a crash and to rebuild a case from its seed and
    index. Our strategies make their own mutations, so little is lost. This touches a
    Hypothesis internal: if it moves, runs still work, only not exactly repeatably."""
    try:
        from hypothesis.internal.conjecture.engine import ConjectureRunner
    except ImportError:  # pragma: no cover - another Hypothesis layout
        return
    if hasattr(ConjectureRunner, "generate_mutations_from"):
        ConjectureRunner.generate_mutations_from = lambda self, data: None


def _settings(count: int):
    from hypothesis import HealthCheck, Phase, settings
    return settings(max_examples=count, database=None, deadline=None, phases=[Phase.generate], derandomize=False,
                    suppress_health_check=list(HealthCheck), print_blob=False, report_multiple_bugs=False)


def run_batch(fmt: str, seed: int, count: int, skip: int, plays: int, workdir: Path, case_file: Path, send) -> None:
    """Run one batch; ``send(message)`` reports to the campaign."""
    from hypothesis import given
    from hypothesis import seed as hseed


    index = [0]
    budget = [plays]
    faults = {int(at): kind for kind, _, at in (f.partition("@") for f in
                                                 os.environ.get("RAILSPEC_FUZZ_FAULT", "").split(",") if f)}

    _repeatable_generation()

    @_settings(count)
    @hseed(seed)
    @given(STRATEGIES[fmt]())
    def batch(case) -> None:
        k = index[0]
        index[0] += 1
        if k < skip:
            return
        case_file.write_text(json.dumps(case.to_json()), encoding="utf-8")
        send({"t": "s", "i": k})
        fault = faults.get(k)
        if fault == "crash":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif fault == "hang":
            time.sleep(3600)
        play = fmt == "spec" and budget[0] > 0 and case.how.startswith("structured")
        if play:
            # the decision to play needs the check's answer: announce the longer timeout first
            send({"t": "x", "i": k})
        result = targets.run(case, workdir, play=play)
        if result.played:
            budget[0] -= 1
        message = {"t": "e", "i": k, "o": result.outcome}
        if result.played:
            message["p"] = 1
        if result.outcome in targets.BAD:
            message["d"] = result.detail
            kept = case.to_json()
            if len(kept["data"]) > MAX_SENT:
                # the campaign keeps the start; the seed and index rebuild the rest
                kept = dict(kept, data=kept["data"][:2000], cut=True)
            message["c"] = kept
        send(message)

    batch()
    send({"t": "done", "n": index[0]})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--memory-gb", type=float, default=3.0)
    parser.add_argument("--lifeline", type=int, default=None,
                        help="the descriptor of the campaign's lifeline: this worker ends when the campaign does")
    args = parser.parse_args(argv)
    if args.lifeline is not None:
        # a campaign killed outright (SIGKILL) cannot stop its workers: each ends itself
        lifeline.watch(args.lifeline)
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    # the protocol keeps the real standard output; everything else printed goes to stderr
    proto = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    import faulthandler
    faulthandler.enable(file=sys.stderr)
    _limit_memory(args.memory_gb)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))

    def send(message: dict) -> None:
        proto.write(json.dumps(message) + "\n")

    case_file = workdir / "case.json"
    for line in sys.stdin:
        if not line.strip():
            continue
        job = json.loads(line)
        run_batch(job["format"], job["seed"], job["count"], job["skip"], job.get("plays", 0), workdir, case_file,
                  send)
    return 0



class _Found(Exception):
    """Stops a regeneration once the wanted case is drawn."""


def regenerate(fmt: str, seed: int, index: int, count: int):
    """The case at ``index`` of the batch of ``count`` cases with this seed, drawn again
    without running any case. (Hypothesis sizes its early cases by the number it is to
    draw, so ``count`` must be the batch's.)"""
    from hypothesis import given
    from hypothesis import seed as hseed

    _repeatable_generation()
    counter = [0]
    found = []

    @_settings(count)
    @hseed(seed)
    @given(STRATEGIES[fmt]())
    def walk(case) -> None:
        if counter[0] == index:
            found.append(case)
            raise _Found
        counter[0] += 1

    try:
        walk()
    except _Found:
        pass
    return found[0]


if __name__ == "__main__":
    sys.exit(main())
