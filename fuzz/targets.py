"""Feeding one case to railspec and saying what happened.

Outcomes (crash and hang are decided by the campaign, which watches the worker process):

- ``clear``: refused with an error of railspec's hierarchy (``RailspecError``: SpecError,
  PositionError, StateError, a trace's error, …), or a trace replay's verdict naming a
  divergence;
- ``accepted``: taken as valid, and (states, traces, positions, sampled specs) both engines
  did the same with it;
- ``traceback``: any other exception;
- ``disagreement``: the compiled engine and the reference interpreter did different
  things with an accepted input, or a position reached from it breaks an invariant of
  the conformance suite (``railspec.conformance``), e.g. a live game with no legal action;
  or the checker accepted a spec that the build then refuses.
"""
from __future__ import annotations

import random
import re
import traceback
import warnings
import zlib
from pathlib import Path

import railspec
from railspec.compiler import check_file
from railspec.compiler.base.errors import RailspecError
from railspec.runtime import position, reference
from railspec.runtime.position import position_fields
from railspec.tools import conformance, trace
from railspec.tools.conformance import first_difference

from . import corpus

CLEAR, ACCEPTED, TRACEBACK, CRASH, HANG, DISAGREEMENT = \
    "clear", "accepted", "traceback", "crash", "hang", "disagreement"
OUTCOMES = (CLEAR, ACCEPTED, TRACEBACK, CRASH, HANG, DISAGREEMENT)
BAD = (TRACEBACK, CRASH, HANG, DISAGREEMENT)


def _source_root() -> Path:
    """The folder holding railspec's source folders (engine/, compiler/, …): the checkout of
    an editable install."""
    import importlib.util
    return Path(importlib.util.find_spec("railspec").origin).resolve().parent.parent


ROOT = _source_root()
_PROJECT_DIRS = tuple(str(ROOT / d) for d in ("engine", "compiler", "mechanics", "generated"))


class Disagreement(Exception):
    """Raised inside a target when the engines differ or an invariant breaks."""


class Result:
    """What one case did: its outcome and, when it is bad, what to look at."""

    __slots__ = ("detail", "outcome", "played")

    def __init__(self, outcome: str, detail: dict | None = None, played: bool = False):
        self.outcome = outcome
        self.detail = detail
        self.played = played


def where(exc: BaseException) -> str:
    """The innermost frame of railspec's own code in an exception's traceback (the spot a
    bug report points at): ``engine/game.py:212 in game_from_json``."""
    frames = traceback.extract_tb(exc.__traceback__)
    for frame in reversed(frames):
        name = frame.filename
        if name.startswith(_PROJECT_DIRS) or "/railspec/" in name or name.endswith(".pyx"):
            short = name[len(str(ROOT)) + 1:] if name.startswith(str(ROOT)) else name
            return f"{short}:{frame.lineno} in {frame.name}"
    return f"{frames[-1].filename}:{frames[-1].lineno} in {frames[-1].name}" if frames else "?"


def _traceback(exc: BaseException, stage: str) -> Result:
    message = str(exc)
    return Result(TRACEBACK, {"stage": stage, "type": type(exc).__name__, "where": where(exc),
                              "message": message[:300] + ("…" if len(message) > 300 else ""),
                              "traceback": "".join(traceback.format_exception(exc))[-4000:]})


def _disagreement(what: str, stage: str) -> Result:
    return Result(DISAGREEMENT, {"stage": stage, "message": what[:600]})


def signature(fmt: str, result_outcome: str, detail: dict | None) -> str:
    """A key grouping findings of one cause: the exception and where it was raised, or the
    first words of a disagreement with the numbers taken out."""
    detail = detail or {}
    if result_outcome == TRACEBACK:
        return f"{fmt} {detail.get('stage')}: {detail.get('type')} at {detail.get('where')}"
    if result_outcome == DISAGREEMENT:
        text = re.sub(r"-?\d+", "N", detail.get("message", ""))
        text = re.sub(r"'[^']*'", "'…'", text)
        return f"{fmt} {detail.get('stage')}: {text[:90]}"
    return f"{fmt} {result_outcome}: {detail.get('where', '')}"


def _errors():
    return RailspecError


# --- specs ----------------------------------------------------------------------------

def run_spec(case, workdir: Path, play: bool = False) -> Result:
    """Check the spec as ``railspec check`` does (from a file next to a valid base.rail it
    may extend). With ``play``, an accepted spec is also compiled and played: seeded games
    in both engines side by side (``railspec.conformance.run``), and a recorded trace read
    back and replayed."""
    RailspecError = _errors()
    base = workdir / "base.rail"
    if not base.exists():
        base.write_text(corpus.BASE_SPEC, encoding="utf-8")
    path = workdir / "fuzz.rail"
    path.write_bytes(case.data)
    try:
        check_file(path)
    except RailspecError:
        return Result(CLEAR)
    except Exception as exc:  # noqa: BLE001 - the point of the campaign
        return _traceback(exc, "check")
    if not play:
        return Result(ACCEPTED)
    return _play_spec(path)


def _play_spec(path: Path) -> Result:
    RailspecError = _errors()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = railspec.load(path)
    except RailspecError:  # e.g. a mechanic the engines do not implement: refused by name
        return Result(ACCEPTED, played=False)
    try:
        v.module()
    except RailspecError as err:
        # check said the spec is fine, the build refuses it: a number or size the checker
        # let through that the generated code cannot hold
        return Result(DISAGREEMENT, {"stage": "compile",
                                     "message": f"check accepts the spec, the build fails: {str(err)[-500:]}"},
                      played=True)
    except Exception as exc:  # noqa: BLE001
        result = _traceback(exc, "compile")
        result.played = True
        return result
    try:
        counts = list(range(v.ir.min_players, v.ir.max_players + 1))
        report = conformance.run(v, range(4), lambda s: counts[s % len(counts)], api_every=7, score_every=3)
        if report.problems:
            return Result(DISAGREEMENT, {"stage": "play", "message": str(report.problems[0])[:600]}, played=True)
        # a trace of the spec reads back and replays in both engines
        text = trace.dumps(trace.record(v, counts[-1], 5))
        lines = trace.loads(text)
        for engine in ("compiled", "reference"):
            verdict = trace.verify(v, lines, engine=engine)
            if not verdict.ok:
                return Result(DISAGREEMENT, {"stage": "trace round trip",
                                             "message": f"{engine}: {verdict.message}"[:600]}, played=True)
    except Exception as exc:  # noqa: BLE001
        result = _traceback(exc, "play")
        result.played = True
        return result
    return Result(ACCEPTED, played=True)


# --- positions ------------------------------------------------------------------------

def read_position(text: str):
    """The reading step of ``railspec score`` (``railspec.position.loads``: JSON text to a
    position, every problem a PositionError)."""
    return position.loads(text)


def run_position(case) -> Result:
    """Score the position with ``railspec.score``; an accepted one is also scored by the
    compiled scorer and the reference scorer from the same fields, which must agree."""
    RailspecError = _errors()
    v = corpus.variant(case.variant)
    try:
        position = read_position(case.data)
    except RailspecError:
        return Result(CLEAR)
    except Exception as exc:  # noqa: BLE001
        return _traceback(exc, "read")
    try:
        railspec.score(v, position)
    except RailspecError:
        return Result(CLEAR)
    except Exception as exc:  # noqa: BLE001
        return _traceback(exc, "score")
    try:
        fields = position_fields(v.ir, position)
        compiled = v.module().Engine.for_scoring(fields).score_breakdown()
        plain = reference.score_fields(v.ir, fields)
    except Exception as exc:  # noqa: BLE001
        return _traceback(exc, "both scorers")
    if compiled != plain:
        return _disagreement(f"compiled and reference scorers differ at {first_difference(compiled, plain)}",
                             "both scorers")
    return Result(ACCEPTED)


# --- traces ---------------------------------------------------------------------------

def run_trace(case) -> Result:
    """Read the trace as ``railspec verify`` does and replay it in both engines, against
    the variant of the case (as ``--spec`` would); the two verdicts must be the same."""
    RailspecError = _errors()
    v = corpus.variant(case.variant)
    try:
        lines = trace.loads(case.data)
    except RailspecError:
        return Result(CLEAR)
    except Exception as exc:  # noqa: BLE001
        return _traceback(exc, "read")
    verdicts = {}
    for engine in ("compiled", "reference"):
        try:
            verdict = trace.verify(v, lines, engine=engine)
            verdicts[engine] = (verdict.ok, verdict.steps, verdict.message)
        except RailspecError as err:
            verdicts[engine] = ("error", type(err).__name__, str(err))
        except Exception as exc:  # noqa: BLE001
            return _traceback(exc, f"verify ({engine})")
    if verdicts["compiled"] != verdicts["reference"]:
        return _disagreement(f"verdicts differ: compiled {verdicts['compiled']}, reference {verdicts['reference']}",
                             "verify")
    return Result(ACCEPTED if verdicts["compiled"][0] is True else CLEAR)


# --- states ---------------------------------------------------------------------------

PLAY_STEPS = 12


def run_state(case) -> Result:
    """Load the state in both engines (``v.game_from_json``); an accepted one is checked
    (clone, JSON round trip, illegal actions), then played a few random decisions in
    lockstep, the states, legal actions and invariants compared after each."""
    RailspecError = _errors()
    v = corpus.variant(case.variant)
    games, refused = {}, {}
    for engine in ("compiled", "reference"):
        try:
            games[engine] = v.game_from_json(case.data, engine=engine)
        except RailspecError as err:
            refused[engine] = f"{type(err).__name__}: {err}"
        except Exception as exc:  # noqa: BLE001
            return _traceback(exc, f"load ({engine})")
    if len(refused) == 2:
        return Result(CLEAR)
    if refused:
        return _disagreement(f"only one engine refused the state: {refused}", "load")
    a, b = games["compiled"], games["reference"]
    rng = random.Random(zlib.crc32(case.data.encode("utf-8", "surrogatepass")))
    try:
        for engine, game in games.items():
            for problem in conformance.api_problems(v, game, random.Random(1)):
                raise Disagreement(f"{engine}: {problem}")
        for step in range(PLAY_STEPS + 1):
            sa, sb = a.state(), b.state()
            if sa != sb:
                raise Disagreement(f"step {step}: states differ at {conformance.first_difference(sa, sb)}")
            for problem in conformance.invariant_problems(v.ir, a, sa):
                raise Disagreement(f"step {step}: {problem}")
            if a.is_over or b.is_over:
                if a.is_over != b.is_over:
                    raise Disagreement(f"step {step}: is_over differs")
                break
            la, lb = a.legal_actions(), b.legal_actions()
            if la != lb:
                raise Disagreement(f"step {step}: legal actions differ ({len(la)} vs {len(lb)})")
            if not la:
                raise Disagreement(f"step {step}: no legal action in a live game (phase {sa['phase']})")
            if step < PLAY_STEPS:
                action = la[rng.randrange(len(la))]
                a.apply(action)
                b.apply(action)
    except Disagreement as what:
        return _disagreement(str(what), "play")
    except Exception as exc:  # noqa: BLE001
        return _traceback(exc, "play")
    return Result(ACCEPTED)


def run(case, workdir: Path, play: bool = False) -> Result:
    """Run one case of any format."""
    if case.format == "spec":
        return run_spec(case, workdir, play)
    return {"position": run_position, "trace": run_trace, "state": run_state}[case.format](case)
