"""Fuzzing ``railspec lsp``: random and mutated messages sent to a running server, as an
editor with bugs (or a stream that was never meant for it) would send them.

``python -m fuzz.lsp --messages 1000 --seed 0`` (``make fuzz-lsp``). A session is the real
server (``python -m railspec lsp``) over pipes, initialized, with a copy of the USA spec
and a spec extending tests/base.rail open. Each case is one message, made by
:func:`make_case` from a seeded ``random.Random``:

- valid requests of every method the server answers (positions anywhere, in range or not);
- those requests and the documents' notifications mutated: a value of another type (a
  string for a number, a negative or huge number, null, a list), a field dropped or added,
  the method or the id changed, ``jsonrpc`` wrong, params nested 1,000 deep, strings with
  lone surrogates or NUL;
- frames broken: garbage before a header or instead of one, a length too short or too
  long, a length of no message (10^11), two lengths, line ends of ``\\n`` alone, a body
  that is not UTF-8 or not JSON, random bytes;
- edits of the open documents (random text, a document over the 4 MB limit), documents
  opened and closed, cancellations of random ids, ``shutdown`` and ``exit``.

After each case a probe (a hover on a document the cases never touch) must be answered
with a result. The oracle: every request of the case that can be read as one (a JSON
object with an integer or string id and a method) is answered, with a result or an
error; no answer is an internal error (a bug of ours); the probe is answered; the server
does not die, except on ``exit``, when its status must be 0 after ``shutdown`` and 1
without. After ``shutdown`` or ``exit`` a new session starts.
"""
from __future__ import annotations

import argparse
import json
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from railspec import compiler

HERE = Path(__file__).resolve().parent
#: Seconds a case's answers (and the probe's) may take: a check of the USA spec takes
#: tens of milliseconds; the slowest case (a document of 4 MB, refused unparsed) well
#: under a second.
TIMEOUT = 60.0
#: The requests the server answers, each with the params made for it.
METHODS = ("textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/completion",
           "textDocument/prepareRename", "textDocument/rename", "textDocument/documentSymbol",
           "textDocument/foldingRange", "textDocument/codeAction", "textDocument/formatting")
_ODD = [None, True, -1, -7, 2**31, 2**63, 2**70, 1.5, "5", "", "x" * 300, [], {}, [1], {"a": 1}, "\ud800", "a\u0000b"]


def frame(body: bytes) -> bytes:
    """One message as the protocol frames it."""
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def dumps(value: object) -> bytes:
    """JSON bytes; lone surrogates written as escapes (the server must refuse them, not
    us), a nesting marker (:func:`_nested`) as the brackets it stands for."""
    data = json.dumps(value, ensure_ascii=True).encode("ascii")
    for depth in _DEPTHS:
        data = data.replace(b'"@nest%d@"' % depth, b"[" * depth + b"1" + b"]" * depth)
    return data


_DEPTHS = (50, 199, 1000, 100_000)


@dataclass
class Case:
    """One case: the bytes sent, the ids that must be answered, what kind it is, and
    whether it shuts the server down or exits it."""

    kind: str
    data: bytes
    expect: list = field(default_factory=list)
    shutdown: bool = False  # may shut the server down (a readable shutdown request)
    exit: bool = False  # may end the server (an exit notification)


class Session:
    """A running ``railspec lsp``, initialized, with its documents open; its messages
    read by a thread into a queue."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.log = open(folder / "server.log", "ab")  # noqa: SIM115 - closed in close()
        self.process = subprocess.Popen([sys.executable, "-m", "railspec", "lsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.log)
        self.answers: queue.Queue = queue.Queue()
        self.next_id = 10_000_000
        self.shut_down = False
        self.ended = False  # its output ended
        threading.Thread(target=self._read, daemon=True).start()
        docs = {"usa": folder / "usa.rail", "child": folder / "child.rail", "probe": folder / "probe.rail"}
        self.uris = {name: path.resolve().as_uri() for name, path in docs.items()}
        self.texts = {name: path.read_text(encoding="utf-8") for name, path in docs.items()}
        self.request("initialize", {"processId": None, "rootUri": folder.resolve().as_uri(), "capabilities": {}})
        self.notify("initialized", {})
        for name in docs:
            self.notify("textDocument/didOpen", {"textDocument": {
                "uri": self.uris[name], "languageId": "rail", "version": 1, "text": self.texts[name]}})

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.answers.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.answers.put(json.loads(stream.read(length)))

    def send(self, data: bytes) -> None:
        try:
            self.process.stdin.write(data)
            self.process.stdin.flush()
        except OSError:  # the server has ended: the judge sees it
            pass

    def notify(self, method: str, params: object) -> None:
        self.send(frame(dumps({"jsonrpc": "2.0", "method": method, "params": params})))

    def request(self, method: str, params: object) -> dict:
        """Send a request and wait for its answer (AssertionError without one)."""
        self.next_id += 1
        msg_id = self.next_id
        self.send(frame(dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})))
        found = self.wait([msg_id])
        if msg_id not in found:
            raise AssertionError(f"no answer to {method} in {TIMEOUT:.0f} s")
        return found[msg_id]

    def wait(self, ids: list, timeout: float = TIMEOUT) -> dict:
        """The answers to ``ids`` that arrive within ``timeout`` (fewer when the server
        stops answering or ends)."""
        found: dict = {}
        deadline = time.monotonic() + timeout
        while len(found) < len(ids) and time.monotonic() < deadline:
            try:
                message = self.answers.get(timeout=0.05)
            except queue.Empty:
                continue
            if message is None:
                self.ended = True
                break
            if "method" not in message and message.get("id") in ids:
                found[message["id"]] = message
        return found

    def close(self) -> int | None:
        """End the process (politely if it still listens); its exit status."""
        try:
            if self.process.poll() is None and not self.shut_down:
                self.request("shutdown", None)
            if self.process.poll() is None:
                self.notify("exit", None)
            code = self.process.wait(timeout=10)
        except (OSError, AssertionError, subprocess.TimeoutExpired):
            self.process.kill()
            code = self.process.wait()
        self.log.close()
        return code


# --- the cases ------------------------------------------------------------------------------

def _position(rng: random.Random, text: str) -> dict:
    lines = text.split("\n")
    line = rng.randrange(len(lines) + 3)
    return {"line": line, "character": rng.randrange(len(lines[line]) + 3 if line < len(lines) else 5)}


def valid_request(rng: random.Random, session: Session, msg_id: int) -> dict:
    """A request of a method the server answers, about one of the fuzzed documents."""
    name = rng.choice(["usa", "usa", "child"])
    method = rng.choice(METHODS)
    params: dict = {"textDocument": {"uri": session.uris[name]}}
    position = _position(rng, session.texts[name])
    if method not in ("textDocument/documentSymbol", "textDocument/foldingRange", "textDocument/formatting",
                      "textDocument/codeAction"):
        params["position"] = position
    if method == "textDocument/references":
        params["context"] = {"includeDeclaration": rng.random() < 0.5}
    if method == "textDocument/rename":
        params["newName"] = rng.choice(["Mile High City", "", "x y", '"quoted"', "Omaha", "\u00e9t\u00e9", "#"])
    if method == "textDocument/codeAction":
        params["range"] = {"start": position, "end": _position(rng, session.texts[name])}
        params["context"] = {"diagnostics": []}
    if method == "textDocument/formatting":
        params["options"] = {"tabSize": 4, "insertSpaces": True}
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}


def _leaves(value: object, path: tuple = ()) -> list[tuple]:
    """The paths of every value inside a JSON value (itself included)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _leaves(item, path + (key,))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            found += _leaves(item, path + (k,))
    return found


def _set(value: object, path: tuple, new: object) -> object:
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return copy


def _drop(value: object, path: tuple) -> object:
    if not path:
        return value
    copy = json.loads(json.dumps(value))
    target = copy
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return copy


def mutate(rng: random.Random, message: dict) -> tuple[dict | list, str]:
    """A message with one thing changed, and what."""
    path = rng.choice(_leaves(message)[1:])
    how = rng.randrange(7)
    if how == 0:
        return _set(message, path, rng.choice(_ODD)), f"value at {path}"
    if how == 1:
        return _drop(message, path), f"dropped {path}"
    if how == 2:
        # written as brackets by dumps (json.dumps itself would recurse too deep)
        return _set(message, path, f"@nest{rng.choice(_DEPTHS)}@"), f"nested at {path}"
    if how == 3:
        return dict(message, method=rng.choice(list(METHODS) + ["initialize", "shutdown", "nope", "$/x", ""])), \
            "method"
    if how == 4:
        return dict(message, id=rng.choice([None, 1.5, [1], {"a": 1}, True, 2**70, -1, "", "x" * 1000])), "id"
    if how == 5:
        return dict(message, jsonrpc=rng.choice(["1.0", 2, None])), "jsonrpc"
    if isinstance(message.get("params"), dict) and rng.random() < 0.5:
        return dict(message, params=dict(message["params"], extra=rng.choice(_ODD))), "added field"
    return _set(message, path, {"unexpected": rng.choice(_ODD)}), f"object at {path}"


def _readable_id(value: object) -> object:
    """The id a server must answer, when a message is readable as a request."""
    if isinstance(value, dict) and isinstance(value.get("method"), str) and "id" in value:
        msg_id = value["id"]
        if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool) and not str(msg_id).startswith("@nest"):
            return msg_id
    return None


def broken_frame(rng: random.Random, body: bytes) -> tuple[bytes, str]:
    """A message whose framing is broken, and how."""
    how = rng.randrange(11)
    if how == 0:
        return b"GARBAGE\r\n\r\n" + frame(body), "garbage before a header"
    if how == 1:
        return b"GARBAGE" + frame(body), "garbage glued to a header"
    if how == 2:
        return b"Content-Length: %d\r\n\r\n" % max(0, len(body) - rng.randrange(1, 20)) + body, "length too short"
    if how == 3:
        return b"Content-Length: %d\r\n\r\n" % (len(body) + rng.randrange(1, 20)) + body, "length too long"
    if how == 4:
        return b"Content-Length: 99999999999\r\n\r\n" + body, "a length of no message"
    if how == 5:
        return b"Content-Length: abc\r\n\r\n" + body, "a length that is no number"
    if how == 6:
        return b"Content-Length: 3\r\nContent-Length: %d\r\n\r\n" % len(body) + body, "two lengths"
    if how == 7:
        return b"Content-Length: %d\n\n" % len(body) + body, "line ends of LF alone"
    if how == 8:
        return body + b"\r\n", "a body without a header"
    if how == 9:
        bad = b"\xff\xfe" + body[2:]
        return b"Content-Length: %d\r\n\r\n" % len(bad) + bad, "a body that is not UTF-8"
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))), "random bytes"


def _edit(rng: random.Random, session: Session, name: str) -> tuple[dict, str]:
    text = session.texts[name]
    how = rng.randrange(5)
    if how == 0:
        lines = text.split("\n")
        k = rng.randrange(len(lines))
        lines[k] = "".join(rng.choice("abc -;#\"\u00e9\t0123") for _ in range(rng.randrange(40)))
        new, what = "\n".join(lines), "a line replaced"
    elif how == 1:
        new, what = text + "\nroute Nowhere - Denver 2 red\n", "an unknown city"
    elif how == 2:
        new, what = "x" * (4 * 1024 * 1024 + 1), "a document over 4 MB"
    elif how == 3:
        new, what = "", "emptied"
    else:
        new, what = (HERE.parent / "tests" / "base.rail").read_text(encoding="utf-8") if name == "usa" else text, \
            "another spec"
    change = {"textDocument": {"uri": session.uris[name], "version": rng.randrange(2, 10**6)},
              "contentChanges": [{"text": new}]}
    return {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": change}, what


def notification(rng: random.Random, session: Session) -> tuple[dict, str]:
    """A notification about the fuzzed documents (or about others)."""
    how = rng.randrange(7)
    name = rng.choice(["usa", "child"])
    if how in (0, 1):
        return _edit(rng, session, name)
    if how == 2:
        return {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": rng.randrange(-5, 10**7 + 50)}}, \
            "a cancellation"
    if how == 3:
        uri = rng.choice([session.uris[name], "file:///dev/zero", "file:///nowhere.rail", "untitled:x", "::"])
        return {"jsonrpc": "2.0", "method": rng.choice(["textDocument/didClose", "textDocument/didSave"]),
                "params": {"textDocument": {"uri": uri}}}, "a close or a save"
    if how == 4:
        uri = rng.choice(["file:///dev/zero", (session.folder / "other.rail").as_uri(), "file:///"])
        return {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "rail", "version": 1, "text": rng.choice(["", "variant \"X\"\n", "\x00"])}}}, \
            "another document opened"
    if how == 5:
        return {"jsonrpc": "2.0", "method": "workspace/didChangeWatchedFiles", "params": {"changes": [
            {"uri": rng.choice(["file:///dev/zero", session.uris["usa"], "x"]), "type": 2}]}}, "a file changed"
    return {"jsonrpc": "2.0", "method": rng.choice(["$/unknown", "nope", "textDocument/didChange"]),
            "params": rng.choice(_ODD)}, "an odd notification"


def make_case(rng: random.Random, session: Session, msg_id: int) -> Case:
    """One case of the mix described in the module's docstring."""
    roll = rng.random()
    if roll < 0.01:
        return Case("exit", frame(dumps({"jsonrpc": "2.0", "method": "exit"})), exit=True)
    if roll < 0.02:
        return Case("shutdown", frame(dumps({"jsonrpc": "2.0", "id": msg_id, "method": "shutdown"})), [msg_id],
                    shutdown=True)
    if roll < 0.25:
        return Case("valid request", frame(dumps(valid_request(rng, session, msg_id))), [msg_id])
    if roll < 0.55:
        message, what = mutate(rng, valid_request(rng, session, msg_id))
        expect = [m for m in [_readable_id(message)] if m is not None]
        ends = isinstance(message, dict) and message.get("method") in ("shutdown", "exit") and \
            message.get("jsonrpc") == "2.0"
        return Case(f"mutated request ({what.split(' ')[0]})", frame(dumps(message)), expect,
                    shutdown=ends and message.get("method") == "shutdown" and bool(expect),
                    exit=ends and message.get("method") == "exit")
    if roll < 0.75:
        message, what = notification(rng, session)
        if rng.random() < 0.3:
            message, how = mutate(rng, message)
            what = f"{what}, mutated ({how.split(' ')[0]})"
        expect = [m for m in [_readable_id(message)] if m is not None]
        ends = isinstance(message, dict) and message.get("method") in ("shutdown", "exit") and \
            message.get("jsonrpc") == "2.0"
        return Case(f"notification: {what}", frame(dumps(message)), expect,
                    shutdown=ends and message.get("method") == "shutdown" and bool(expect),
                    exit=ends and message.get("method") == "exit")
    data, what = broken_frame(rng, dumps(valid_request(rng, session, msg_id)))
    # a frame whose JSON is whole is still answered (a length too long is read up to the
    # JSON's end; of two lengths the last counts; LF alone is read), and so is one cut
    # short (its id is found at the top level); the others may lose the request
    readable = what in ("garbage before a header", "garbage glued to a header", "length too long",
                        "line ends of LF alone", "two lengths", "length too short")
    return Case(f"broken frame: {what}", data, [msg_id] if readable else [])


# --- the run --------------------------------------------------------------------------------

@dataclass
class Summary:
    """What a run found: counts per kind of case and outcome, and the failures."""

    counts: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)
    answered_with_result: int = 0
    answered_with_error: int = 0
    sessions: int = 0

    def count(self, kind: str, outcome: str) -> None:
        key = f"{kind.split(':')[0].split(' (')[0]} -> {outcome}"
        self.counts[key] = self.counts.get(key, 0) + 1


def make_folder(folder: Path) -> Path:
    """The documents of a session, written into ``folder``: a copy of the USA spec,
    tests/base.rail with a spec extending it, and the probe's document."""
    shutil.copy(compiler.stock_path("usa"), folder / "usa.rail")
    shutil.copy(HERE.parent / "tests" / "base.rail", folder / "base.rail")
    (folder / "child.rail").write_text('extends "base.rail"\nvariant "Child"\nroute Alpha - Epsilon 4 red\n',
                                       encoding="utf-8")
    shutil.copy(HERE.parent / "tests" / "base.rail", folder / "probe.rail")
    return folder


def _judge(case: Case, session: Session, summary: Summary, probe_id: int) -> tuple[str | None, bool]:
    """Send the case, then the probe: what went wrong (or None), and whether the session
    has ended (exit) or is shut down."""
    session.send(case.data)
    probe = {"jsonrpc": "2.0", "id": probe_id, "method": "textDocument/hover",
             "params": {"textDocument": {"uri": session.uris["probe"]}, "position": {"line": 0, "character": 2}}}
    session.send(frame(dumps(probe)))
    found = session.wait(case.expect + [probe_id])
    if probe_id not in found and session.ended:
        try:
            code = session.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            return "the server's output ended, the process did not", True
        wanted = 0 if session.shut_down else 1
        if not case.exit:
            return f"the server ended (status {code})", True
        return (None if code == wanted else f"exit status {code}, not {wanted}"), True
    for msg_id in case.expect:
        if msg_id not in found:
            return f"no answer to request {msg_id!r}", False
        answer = found[msg_id]
        if "error" in answer:
            summary.answered_with_error += 1
            if answer["error"].get("code") == -32603:
                return f"internal error: {answer['error'].get('message')}", False
        else:
            summary.answered_with_result += 1
            session.shut_down = session.shut_down or case.shutdown
    if probe_id not in found:
        return "the probe was not answered", False
    if session.shut_down:
        return (None if "error" in found[probe_id] else "a request after shutdown was not refused"), True
    if "error" in found[probe_id]:
        return f"the probe was refused: {found[probe_id]['error']}", False
    return None, False


def run(messages: int = 1000, seed: int = 0, log: Callable[[str], None] = print) -> Summary:
    """Send ``messages`` cases (a new session after an exit, a shutdown or a failure)."""
    rng = random.Random(seed)
    summary = Summary()
    folder = make_folder(Path(tempfile.mkdtemp(prefix="railspec-lsp-fuzz-")))
    session = None
    try:
        for index in range(messages):
            if session is None:
                session = Session(folder)
                summary.sessions += 1
            case = make_case(rng, session, 1000 + index)
            problem, ended = _judge(case, session, summary, 5_000_000 + index)
            summary.count(case.kind, "failed" if problem else "ok")
            if problem is not None:
                summary.failures.append({"index": index, "kind": case.kind, "problem": problem,
                                         "sent": case.data[:2000].decode("utf-8", "backslashreplace")})
                log(f"case {index} ({case.kind}): {problem}")
            if problem is not None or ended:
                session.close()
                session = None
    finally:
        if session is not None:
            session.close()
        shutil.rmtree(folder, ignore_errors=True)
    return summary


def main(argv: list[str] | None = None) -> int:
    """The command line: run, print the counts, exit 1 on any failure."""
    parser = argparse.ArgumentParser(prog="python -m fuzz.lsp", description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=1000, help="how many cases (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="the random generator's seed (default 0)")
    parser.add_argument("--report", type=Path, default=HERE / "lsp-report.json", help="where the findings go")
    args = parser.parse_args(argv)
    started = time.monotonic()
    summary = run(args.messages, args.seed)
    for key in sorted(summary.counts):
        print(f"{summary.counts[key]:6d}  {key}")
    print(f"{args.messages} cases, {summary.sessions} sessions, {summary.answered_with_result} requests answered "
          f"with a result and {summary.answered_with_error} with an error, {len(summary.failures)} failures "
          f"({time.monotonic() - started:.0f} s)")
    args.report.write_text(json.dumps({"seed": args.seed, "messages": args.messages, "counts": summary.counts,
                                       "failures": summary.failures}, indent=1), encoding="utf-8")
    return 1 if summary.failures else 0


if __name__ == "__main__":
    sys.exit(main())
