"""``railspec test-engine``: drive another engine through the conformance vectors over the
driver protocol (docs/conformance.md, "The driver protocol") and report where it differs.

:class:`EngineProcess` talks to the engine: one JSON object a line each way, every answer
awaited at most ``timeout`` seconds and read at most ``max_line`` bytes, so a crashed,
hung, garbled or flooding engine is reported as such and never stalls or swamps the
driver. :func:`run` plays the cases: every game (set the start, then at each decision
compare the legal actions, apply, compare the position), every scored position and every
perft count; each case stops at its first difference, which is recorded with the position
it happened at. After a shuffle, what it decided is compared loosely (tickets as
collections, the train cards' piles together) and the engine is then given railspec's
position (docs/conformance.md, "Chance").
"""
from __future__ import annotations

import json
import os
import selectors
import subprocess
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import IO, cast

from ..compiler.base.errors import RailspecError
from ..compiler.base.schema import CARD_COUNTS, CARD_IDS
from ..playtest import lifeline
from ..runtime import notation
from ..runtime.game import Variant
from . import schemas
from .vectors import cards_in

PROTOCOL = schemas.DRIVER_PROTOCOL
#: The checks the driver runs, each needing the engine to support it (and ``position``).
CHECKS = schemas.DRIVER_CHECKS
#: The checks each kind of vector file serves: a kind is played when one of them runs.
KIND_CHECKS = {"games": frozenset({"legal", "apply"}), "scores": frozenset({"score"}),
               "perft": frozenset({"perft"})}
#: How long an answer may take by default, in seconds.
TIMEOUT = 10.0
#: The longest answer line read by default, in bytes.
MAX_LINE = 16 * 1024 * 1024
#: Lines of the engine's standard error kept for the report.
STDERR_LINES = 20


class EngineFailure(RailspecError):
    """The engine under test stopped answering as the protocol asks: ``kind`` is
    ``crashed``, ``hung``, ``garbled`` or ``flooding``."""

    def __init__(self, kind: str, message: str, stderr: list[str] | None = None):
        super().__init__(f"the engine {kind}: {message}")
        self.kind = kind
        self.stderr = stderr or []


def _piped(stream: IO[bytes] | None) -> IO[bytes]:
    """A stream of a process started with it piped (never None then)."""
    if stream is None:
        raise ValueError("the stream is not piped")
    return stream


class EngineProcess:
    """An engine started from ``command`` (a list), spoken to over its standard input and
    output. Use it as a ``with`` block: leaving it ends the process."""

    def __init__(self, command: list[str], timeout: float = TIMEOUT, max_line: int = MAX_LINE):
        self.command, self.timeout, self.max_line = list(command), timeout, max_line
        # the engine ends with this process, even one killed outright (on Linux)
        self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, bufsize=0, **lifeline.foreign_options())
        self._stdin, self._stdout, self._stderr = (_piped(self.process.stdin), _piped(self.process.stdout),
                                                   _piped(self.process.stderr))
        for stream in (self._stdout, self._stderr):
            os.set_blocking(stream.fileno(), False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout, selectors.EVENT_READ, "out")
        self._selector.register(self._stderr, selectors.EVENT_READ, "err")
        self._out = bytearray()
        self._err = bytearray()
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_LINES)

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Ask the engine to quit; end it if it does not within a second."""
        if self.process.poll() is None:
            try:
                self._stdin.write(b'{"cmd":"quit"}\n')
                self._stdin.flush()
            except OSError:
                pass
            try:
                self.process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._selector.close()
        for stream in (self._stdin, self._stdout, self._stderr):
            try:
                stream.close()
            except OSError:
                pass

    def _keep_stderr(self, data: bytes) -> None:
        self._err += data
        *lines, rest = self._err.split(b"\n")
        for line in lines:
            self.stderr_tail.append(line.decode("utf-8", "replace")[:500])
        self._err = bytearray(rest[-4096:])  # a line without end is kept to 4 KB

    def _fail(self, kind: str, message: str) -> EngineFailure:
        if self.process.poll() is not None:  # gone: what it wrote last on stderr is the clue
            for _ in range(64):
                try:
                    data = self._stderr.read(65536)
                except OSError:
                    break
                if not data:
                    break
                self._keep_stderr(data)
        if self._err:
            self.stderr_tail.append(self._err.decode("utf-8", "replace")[:500])
            self._err.clear()
        return EngineFailure(kind, message, list(self.stderr_tail))

    def request(self, message: dict, timeout: float | None = None) -> dict:
        """Send one request; return the engine's answer (a JSON object). Raises
        :class:`EngineFailure` when the engine exits, takes longer than the timeout, sends
        a line over ``max_line`` bytes, or a line that is not a JSON object."""
        wait = self.timeout if timeout is None else timeout
        try:
            self._stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            self._stdin.flush()
        except OSError:
            raise self._fail("crashed", f"its input closed (exit status {self.process.wait()})") from None
        deadline = time.monotonic() + wait
        while True:
            end = self._out.find(b"\n")
            if end >= 0:
                line = bytes(self._out[:end])
                del self._out[:end + 1]
                return self._parse(line)
            if len(self._out) > self.max_line:
                raise self._fail("flooding", f"an answer line longer than {self.max_line:,} bytes "
                                             f"(to {message['cmd']!r})")
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail("hung", f"no answer to {message['cmd']!r} within {wait:g} s")
            for key, _ in self._selector.select(timeout=min(left, 0.5)):
                data = cast(IO[bytes], key.fileobj).read(65536)  # one of the two pipes registered
                if key.data == "err":
                    if data:
                        self._keep_stderr(data)
                    continue
                if not data:  # end of file: the engine is gone
                    status = self.process.wait()
                    raise self._fail("crashed", f"it exited (status {status}) before answering {message['cmd']!r}")
                self._out += data

    def _parse(self, line: bytes) -> dict:
        try:
            answer = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            raise self._fail("garbled", f"an answer that is not JSON: {line[:120]!r}") from None
        if not isinstance(answer, dict) or not isinstance(answer.get("ok"), bool):
            raise self._fail("garbled", f"an answer that is not an object with 'ok': {line[:120]!r}")
        return answer


@dataclass
class Divergence:
    """Where a case first differed: the check, the case, the step, the position before,
    what was asked, and what each side said."""

    check: str
    case: str
    step: int | None
    position: str
    request: str
    expected: str
    got: str

    def __str__(self) -> str:
        where = f"{self.case}" + (f", decision {self.step}" if self.step is not None else "")
        return (f"{self.check}: {where}: {self.request}\n  expected: {self.expected}\n  engine:   {self.got}\n"
                f"  position: {self.position}")


@dataclass
class Report:
    """The run: the checks asked for, per check the cases run and passed; the
    divergences; the engine's failure (if it stopped answering) and the checks asked for
    that it does not support (so none of their cases ran)."""

    engine: str = ""
    run: Counter = field(default_factory=Counter)
    passed: Counter = field(default_factory=Counter)
    divergences: list[Divergence] = field(default_factory=list)
    failure: EngineFailure | None = None
    skipped: list[str] = field(default_factory=list)
    asked: tuple[str, ...] = CHECKS

    @property
    def ok(self) -> bool:
        """Whether some case ran, none differed and the engine kept answering."""
        return self.failure is None and not self.divergences and sum(self.run.values()) > 0

    def table(self) -> str:
        """The summary: a row per check: its cases run, passed and failed, or why none ran."""
        rows = [f"{'check':8} {'cases':>7} {'passed':>7} {'failed':>7}"]
        for check in CHECKS:
            if check not in self.asked:
                rows.append(f"{check:8} not asked (--checks)")
            elif check in self.skipped:
                rows.append(f"{check:8} not supported by the engine")
            else:
                rows.append(f"{check:8} {self.run[check]:>7} {self.passed[check]:>7} "
                            f"{self.run[check] - self.passed[check]:>7}")
        return "\n".join(rows)


class _Differs(Exception):
    def __init__(self, divergence: Divergence):
        self.divergence = divergence


def _short(value, limit: int = 300) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text):,} characters)"


def breakdown_difference(expected: list[dict], got: object) -> tuple[str, str] | None:
    """None when the engine's breakdown is railspec's; else what each side says at the
    first difference, naming the seat and the item (``seat 1 'longest_bonus': 10``), or
    the shape that is wrong (not a list of objects, another number of seats, an item
    missing or unknown)."""
    if not isinstance(got, list) or not all(isinstance(row, dict) for row in got):
        return "a breakdown: one object per seat", f"not a list of objects: {_short(got, 100)}"
    if len(got) != len(expected):
        return f"{len(expected)} seats", f"{len(got)} seats"
    for seat, (mine, theirs) in enumerate(zip(expected, got)):
        for item in list(mine) + [k for k in theirs if k not in mine]:
            if item not in theirs:
                return f"seat {seat} {item!r}: {mine[item]}", f"seat {seat}: no {item!r}"
            if item not in mine:
                return f"seat {seat}: no {_short(item, 60)}", \
                    f"seat {seat} {_short(item, 60)}: {_short(theirs[item], 60)}"
            if theirs[item] != mine[item] or type(theirs[item]) is not type(mine[item]):
                return f"seat {seat} {item!r}: {mine[item]}", f"seat {seat} {item!r}: {_short(theirs[item], 60)}"
    return None


def compare_positions(variant, expected: dict, got, shuffled: bool) -> str | None:
    """None when the engine's position reads as the same state as railspec's (the
    generator aside); else what differs, in a line. After a shuffle, lists of tickets are
    compared as collections and the train cards' piles (deck, discards, market, hands, a
    mechanic's) together, as one collection, and each player's by its size: the cards
    drawn after the shuffle in the same decision are the engine's own luck."""
    if not isinstance(got, dict):
        return f"a position is a JSON object, not {_short(got, 60)}"
    try:
        theirs = notation.from_position(variant.ir, got)
    except notation.NotationError as err:
        return f"its position does not read: {err}"
    ours = notation.from_position(variant.ir, expected)
    fields = {f.name: f for f in variant.assembly.exported_fields}
    cards: list[Counter[int]] = [Counter(), Counter()]
    for key, value in ours.items():
        field_ = fields.get(key)
        if shuffled and field_ is not None and field_.pile in (CARD_IDS, CARD_COUNTS):
            (mine, mine_sizes), (other, other_sizes) = cards_in(field_, value), cards_in(field_, theirs[key])
            if field_.per_player and mine_sizes != other_sizes:
                return f"'{key}' differs in size after a shuffle: railspec {mine_sizes}, engine {other_sizes}"
            cards[0] += mine
            cards[1] += other
            continue
        if key in notation.GENERATOR_FIELDS or theirs.get(key) == value:
            continue
        if shuffled and field_ is not None and notation.value_names(field_) in ("card", "ticket"):
            rows = zip(value, theirs[key]) if field_.per_player else [(value, theirs[key])]
            if all(isinstance(b, list) and Counter(a) == Counter(b) for a, b in rows):
                continue
        shown_mine = notation.to_position(variant.ir, ours)[key] if key in expected else value
        return f"'{key}' differs: railspec {_short(shown_mine, 200)}, engine {_short(got.get(key), 200)}"
    if cards[0] != cards[1]:
        names = notation.component_names(variant.ir)["card"]
        more = [{names[c]: n for c, n in sorted((a - b).items())} for a, b in (cards, cards[::-1])]
        return (f"the train cards differ after a shuffle: railspec has more {_short(more[0], 150)}, "
                f"the engine more {_short(more[1], 150)}")
    return None


class _Session:
    """One engine, one report: the requests of the checks."""

    def __init__(self, variant, engine: EngineProcess, report: Report, supports: set[str], perft_timeout: float):
        self.variant, self.engine, self.report, self.supports = variant, engine, report, supports
        self.perft_timeout = perft_timeout

    def ask(self, message: dict, check: str, case: str, step, position: dict, timeout=None) -> dict:
        answer = self.engine.request(message, timeout)
        if not answer["ok"]:
            raise _Differs(Divergence(check, case, step, self.line(position), _short(message, 200),
                                      "ok", f"refused: {_short(answer.get('error', ''), 200)}"))
        return answer

    def line(self, position: dict) -> str:
        try:
            return notation.dumps_line(self.variant.ir, notation.from_position(self.variant.ir, position))
        except notation.NotationError:
            return _short(position)

    def set_position(self, position: dict, check: str, case: str, step) -> None:
        self.ask({"cmd": "position", "position": position}, check, case, step, position)

    def game(self, record: dict) -> None:
        case = f"game {record['game']} ({_short(record.get('name') or 'a random game', 100)}, " \
               f"{record['players']} players, seed {record['seed']})"
        position = record["start"]
        self.set_position(position, "legal", case, 0)
        for step, move in enumerate(record["steps"]):
            if "legal" in self.supports:
                self.report.run["legal"] += 1
                answer = self.ask({"cmd": "legal"}, "legal", case, step, position)
                legal = answer.get("legal")
                if not isinstance(legal, list) or len(set(map(str, legal))) != len(legal):
                    raise _Differs(Divergence("legal", case, step, self.line(position), "legal",
                                              "a list of names, each once", _short(legal, 200)))
                if set(legal) != set(move["legal"]):
                    missing = sorted(set(move["legal"]) - set(legal))
                    extra = sorted(set(legal) - set(move["legal"]))
                    raise _Differs(Divergence("legal", case, step, self.line(position), "legal",
                                              f"also {_short(missing, 200)}" if missing else "nothing more",
                                              f"also {_short(extra, 200)}" if extra else "nothing more"))
                self.report.passed["legal"] += 1
            if "apply" in self.supports:
                self.report.run["apply"] += 1
                self.ask({"cmd": "apply", "action": move["action"]}, "apply", case, step, position)
                got = self.ask({"cmd": "position?"}, "apply", case, step, position).get("position")
                problem = compare_positions(self.variant, move["position"], got, move["chance"])
                if problem:
                    expected = "the position railspec reaches"
                    if move["chance"]:  # cards the engine's own shuffle turned up may decide more
                        expected += (" (a shuffle happened in this decision: if the engine's shuffle turned up "
                                     "other cards that decide the rest of it, such as an extra cost they set, the "
                                     "difference may be luck, not a rule)")
                    raise _Differs(Divergence("apply", case, step, self.line(position), move["action"],
                                              expected, problem))
                self.report.passed["apply"] += 1
            position = move["position"]
            if move["chance"] or "apply" not in self.supports:
                self.set_position(position, "apply", case, step + 1)

    def score(self, record: dict) -> None:
        """One scored position: the breakdown and the winners, the first difference named
        (the seat and the item)."""
        self.report.run["score"] += 1
        case = f"score {record['name']} ({record['source']})"
        self.set_position(record["position"], "score", case, None)
        answer = self.ask({"cmd": "score"}, "score", case, None, record["position"])
        problem = breakdown_difference(record["breakdown"], answer.get("breakdown"))
        if problem is None and answer.get("winners") != record["winners"]:
            problem = (f"winners {_short(record['winners'], 100)}", f"winners {_short(answer.get('winners'), 100)}")
        if problem is not None:
            raise _Differs(Divergence("score", case, None, self.line(record["position"]), "score", *problem))
        self.report.passed["score"] += 1

    def perft(self, record: dict) -> None:
        """One perft count: the counts by depth, then divide."""
        self.report.run["perft"] += 1
        case = f"perft {record['name']}"
        depth = len(record["counts"])
        self.set_position(record["position"], "perft", case, None)
        answer = self.ask({"cmd": "perft", "depth": depth}, "perft", case, None, record["position"],
                          timeout=self.perft_timeout)
        if answer.get("counts") != record["counts"]:
            raise _Differs(Divergence("perft", case, None, self.line(record["position"]), f"perft {depth}",
                                      _short(record["counts"]), _short(answer.get("counts"))))
        divide = answer.get("divide")
        if divide != record["divide"]:
            theirs = divide if isinstance(divide, dict) else {}
            wrong = sorted(k for k in set(record["divide"]) | set(theirs)
                           if record["divide"].get(k) != theirs.get(k))
            raise _Differs(Divergence("perft", case, None, self.line(record["position"]), f"perft {depth} divide",
                                      _short({k: record["divide"].get(k) for k in wrong[:5]}),
                                      _short({k: theirs.get(k) for k in wrong[:5]})))
        self.report.passed["perft"] += 1


def run(variant: Variant, command: list[str], cases: Mapping[str, Iterable[dict]], checks: tuple[str, ...] = CHECKS,
        timeout: float = TIMEOUT, max_line: int = MAX_LINE, perft_timeout: float | None = None,
        progress: Callable[[str], None] | None = None) -> Report:
    """Drive the engine ``command`` through ``cases`` (kind -> iterable of records: games,
    scores, perft, as :mod:`.vectors` makes them) and report. Only the ``checks`` asked
    for that the engine's hello lists under ``supports`` run: a kind of case none of whose
    checks runs is neither sent nor read (its records are never made). ``progress`` is
    called with each case's kind."""
    report = Report(asked=tuple(c for c in CHECKS if c in checks))
    try:
        with EngineProcess(command, timeout, max_line) as engine:
            supports = _hello(variant, engine, report)
            if supports is None:
                return report
            session = _Session(variant, engine, report, supports, perft_timeout or max(timeout, 60.0))
            plan = (("games", session.game), ("scores", session.score), ("perft", session.perft))
            for kind, play in plan:
                if not supports & KIND_CHECKS[kind]:
                    continue
                for record in cases.get(kind, ()):
                    if progress:
                        progress(kind)
                    try:
                        play(record)
                    except _Differs as differs:
                        report.divergences.append(differs.divergence)
    except EngineFailure as failure:
        report.failure = failure
    except OSError as err:
        report.failure = EngineFailure("crashed", f"it could not be started: {err.strerror or err}")
    return report


def _hello(variant: Variant, engine: EngineProcess, report: Report) -> set[str] | None:
    """Say hello; the checks to run (those asked for that the engine supports), or None
    with the report's failure set when the engine refuses or supports no positions."""
    hello = engine.request({"cmd": "hello", "protocol": PROTOCOL, "variant": variant.key,
                            "spec_hash": variant.spec_hash})
    if not hello["ok"]:
        report.failure = EngineFailure("refused", f"it refused the hello: {_short(hello.get('error'), 300)}")
        return None
    report.engine = str(hello.get("engine", "?"))[:200]
    offered = hello.get("supports")
    if not isinstance(offered, list) or "position" not in offered:
        report.failure = EngineFailure("refused", "its hello must list 'position' among what it supports "
                                                  f"(got {_short(json.dumps(offered), 200)})")
        return None
    report.skipped = [c for c in report.asked if c not in offered]
    return {c for c in report.asked if c in offered}
