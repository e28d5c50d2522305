"""``railspec lsp`` under bad input, driven over raw pipes (a real editor never sends
these, so pytest-lsp's client cannot): broken frames, ill-typed params, requests after
shutdown, exit's status; then a shortened run of the LSP fuzzer (fuzz/lsp.py, ``make
fuzz-lsp`` runs 1,000 cases; ``LSP_FUZZ_MESSAGES`` changes the number here)."""
from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Iterator

import pytest

pytest.importorskip("pygls")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # fuzz/ sits beside tests/

from fuzz import lsp as fuzz_lsp  # noqa: E402
from fuzz.lsp import Session, dumps, frame  # noqa: E402
from railspec.tools.lsp.transport import Reader, Skipped, Unreadable  # noqa: E402

MESSAGES = int(os.environ.get("LSP_FUZZ_MESSAGES", "50"))
INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, PARSE_ERROR = -32600, -32601, -32602, -32700


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    """A running server with the fuzzer's documents open, for the tests that leave it
    running (a server takes a few seconds to start)."""
    started = Session(fuzz_lsp.make_folder(tmp_path_factory.mktemp("shared")))
    yield started
    started.close()


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    """A server of the test's own, for a test that ends it."""
    started = Session(fuzz_lsp.make_folder(tmp_path))
    yield started
    started.close()


def hover(session: Session, msg_id: object, position: object, uri: str | None = None) -> bytes:
    return frame(dumps({"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": uri or session.uris["usa"]}, "position": position}}))


def answer(session: Session, data: bytes, msg_id: object) -> dict:
    session.send(data)
    found = session.wait([msg_id])
    assert msg_id in found, f"no answer to {data[:200]!r}"
    return found[msg_id]


def test_after_garbage_the_server_answers_on(tmp_path: Path) -> None:
    """GARBAGE with a blank line left pygls deaf for good: now what is not a header is
    skipped up to the next one, even glued to it."""
    session = Session(fuzz_lsp.make_folder(tmp_path))
    session.send(b"GARBAGE\r\n\r\n")
    assert answer(session, hover(session, 1, {"line": 0, "character": 0}), 1)["result"] is None
    session.send(b"\x00\xff random bytes with no line end")
    assert "result" in answer(session, hover(session, 2, {"line": 0, "character": 0}), 2)
    assert answer(session, frame(dumps({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})), 3) == \
        {"jsonrpc": "2.0", "id": 3, "result": None}
    session.shut_down = True
    assert session.close() == 0


def test_broken_lengths_are_recovered_from() -> None:
    """The reader on its own: a length too long gives back the next message's start, one
    too short is answered to the id it cut, one of no message (10^11) is not believed."""
    first = dumps({"jsonrpc": "2.0", "id": 1, "method": "x"})
    second = frame(dumps({"jsonrpc": "2.0", "id": 2, "method": "y"}))
    cases = {
        b"Content-Length: %d\r\n\r\n" % (len(first) + 7) + first + second: [1, 2],
        b"Content-Length: %d\r\n\r\n" % (len(first) - 7) + first + second: ["cut 1", 2],
        b"Content-Length: 99999999999\r\n\r\n" + first + second: [2],
        b"Content-Length: %d\n\n" % len(first) + first + second: [1, 2],
        frame(b"[" * 100_000) + second: ["deep", 2],
    }
    for data, wanted in cases.items():
        got = []
        for item in Reader(io.BytesIO(data)):
            if isinstance(item, dict):
                got.append(item["id"])
            elif isinstance(item, Unreadable):
                got.append(f"cut {item.msg_id}" if not item.json else "deep")
            else:
                assert isinstance(item, Skipped)
        assert got == wanted, data[:80]


def test_ill_typed_params_get_an_error(shared: Session) -> None:
    """They went unanswered (pygls logged them): the client waited for ever."""
    cases = [
        ({"line": 0, "character": -7}, "Position.character should be in range"),
        ({"line": 0, "character": "5"}, "expected int, got str"),
        ({"line": True, "character": 1}, "expected int, got bool"),
        ({"line": 0, "character": 1.5}, "expected int, got float"),
        ({"line": 2**40, "character": 0}, "Position.line should be in range"),
        (None, "position"),
    ]
    for k, (params, says) in enumerate(cases):
        found = answer(shared, hover(shared, 100 + k, params), 100 + k)
        assert found["error"]["code"] == INVALID_PARAMS and says in found["error"]["message"], found


def test_every_readable_request_is_answered(shared: Session) -> None:
    session = shared
    cases = [
        (frame(dumps({"jsonrpc": "2.0", "id": 11, "method": "textDocument/nope", "params": {}})), 11,
         METHOD_NOT_FOUND),
        (frame(dumps({"jsonrpc": "1.0", "id": 12, "method": "shutdown"})), 12, INVALID_REQUEST),
        (frame(dumps({"jsonrpc": "2.0", "id": 13, "method": "textDocument/didSave",
                      "params": {"textDocument": {"uri": session.uris["usa"]}}})), 13, INVALID_REQUEST),
        (frame(dumps({"jsonrpc": "2.0", "id": [14], "method": "shutdown"})), None, INVALID_REQUEST),
        (hover(session, 15, {"line": 0, "character": 0}, uri="file:///dev/zero"), 15, INVALID_PARAMS),
        (frame(b'{"jsonrpc": "2.0", "id": 16, "params": ' + b"[" * 100_000), 16, INVALID_REQUEST),
        (frame(b'{"jsonrpc": "2.0", "id": 17, "method": "shutdown"'), 17, PARSE_ERROR),
        (frame(b"\xff\xfe{}"), None, PARSE_ERROR),
        (frame(b"[]"), None, INVALID_REQUEST),
        (frame(b'{"jsonrpc": "2.0", "id": "\\ud800", "method": "nope"}'), "\ud800", METHOD_NOT_FOUND),
    ]
    for data, msg_id, code in cases:
        found = answer(session, data, msg_id)
        assert found["error"]["code"] == code, (data[:100], found)
    # a real request still gets its result
    assert "result" in answer(session, hover(session, 18, {"line": 0, "character": 0}), 18)


def test_after_shutdown_requests_are_refused_and_exit_is_0(session: Session) -> None:
    assert "result" in answer(session, frame(dumps({"jsonrpc": "2.0", "id": 1, "method": "shutdown"})), 1)
    found = answer(session, hover(session, 2, {"line": 0, "character": 0}), 2)
    assert found["error"]["code"] == INVALID_REQUEST and "shut down" in found["error"]["message"]
    session.notify("exit", None)
    assert session.process.wait(timeout=30) == 0
    session.shut_down = True


def test_exit_without_shutdown_is_1(session: Session) -> None:
    session.notify("exit", None)
    assert session.process.wait(timeout=30) == 1
    session.shut_down = True


def test_a_shortened_fuzz_run() -> None:
    """The fuzzer's cases (fuzz/lsp.py): every readable request answered, none with an
    internal error, the probe after each answered, exit's status right."""
    summary = fuzz_lsp.run(MESSAGES, seed=int(os.environ.get("FUZZ_SEED", "0")), log=lambda line: None)
    assert not summary.failures, json.dumps(summary.failures[:3], indent=1)
    kinds = {key.split(" -> ")[0] for key in summary.counts}
    assert {"valid request", "mutated request", "notification", "broken frame"} <= kinds
    assert summary.answered_with_result and summary.answered_with_error
