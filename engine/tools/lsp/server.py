"""The language server of ``railspec lsp``, on pygls and lsprotocol (the ``lsp`` extra):
the protocol's side of :mod:`.analysis` and :mod:`.features`.

The event loop only passes messages; everything that parses runs off it:

- A reader thread cuts the input into messages (:mod:`.transport`, which skips what is
  not a message up to the next header), and the loop checks each message before pygls
  sees it: one that is not JSON-RPC, or whose params are not of the method's types (a
  negative position, a string for a number), is answered with a JSON-RPC error, so no
  client waits for an answer that never comes.
- A document is checked in a thread of its own (:mod:`.jobs`) a few milliseconds after
  the last change of a burst; a change stops the check of the text it replaces, even in
  the middle of the parse. Diagnostics are published for the checked version, then the
  open documents extending it are checked again. A document over the spec size limit (as
  ``railspec check`` reads a file: 4 MB) is not parsed: its one diagnostic says so.
- Requests (hover, completion …) await the current text's analysis and compute their
  answer in a thread too (:mod:`.handlers`); a cancelled request stops its thread.

``exit`` ends the process with status 0 after ``shutdown``, 1 without; after ``shutdown``
every request but ``exit`` is refused with an InvalidRequest error.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Callable, cast

import cattrs
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcContentModified, JsonRpcException, JsonRpcInvalidParams
from pygls.protocol import JsonRPCResponseMessage, default_converter
from pygls.server import LanguageServer
from pygls.uris import to_fs_path

from ... import __version__
from .analysis import Analysis, Analyzer
from .handlers import NAME, NOTIFICATIONS, REQUESTS, diagnostics
from .jobs import Job
from .places import Places
from .transport import Reader, Skipped, Unreadable, encode

#: How long a burst of changes is waited out before a document is checked (seconds).
DEBOUNCE = 0.01
#: How many times a request waits for a newer check when changes keep replacing the
#: text it was asked about, before it is answered ContentModified.
MAX_WAITS = 3
#: JSON-RPC's error codes.
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR, REQUEST_CANCELLED = \
    -32700, -32600, -32601, -32602, -32603, -32800

logger = logging.getLogger(__name__)


def strict_converter() -> cattrs.Converter:
    """pygls's converter, strict about JSON's types: a string where the protocol has a
    number is refused, not read as the number it spells (cattrs's default), and so are a
    boolean for a number and a fraction for an integer."""
    converter = default_converter()

    def exactly(kind: type, *also: type) -> Callable[[Any, type], Any]:
        def structure(value: Any, _: type) -> Any:
            if type(value) is kind or type(value) in also:
                return kind(value)
            raise TypeError(f"expected {kind.__name__}, got {type(value).__name__}")
        return structure

    converter.register_structure_hook(int, exactly(int))
    converter.register_structure_hook(float, exactly(float, int))
    converter.register_structure_hook(str, exactly(str))
    converter.register_structure_hook(bool, exactly(bool))
    return converter


def _why(err: Exception) -> str:
    """What is wrong with a message's params, in one line."""
    if isinstance(err, cattrs.BaseValidationError):
        found = cattrs.transform_error(err, format_exception=lambda exc, _: str(exc) or type(exc).__name__)
        return "; ".join(found[:5])
    return str(err) or type(err).__name__


@dataclass(eq=False)
class Check:
    """The check of one text of a document: its job, and its analysis once done."""

    text: str
    version: int | None
    job: Job
    dependents: bool
    analysis: Analysis | None = field(default=None)


class _Output:
    """The transport pygls writes to: the standard output (written from the loop only)."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream

    def write(self, data: bytes) -> None:
        self.stream.write(data)
        self.stream.flush()

    def close(self) -> None:
        self.stream.flush()


class RailServer(LanguageServer):
    """The railspec language server: an :class:`Analyzer` over the editor's open texts."""

    def __init__(self) -> None:
        self.converter = strict_converter()
        super().__init__(NAME, __version__, converter_factory=lambda: self.converter)
        self.analyzer = Analyzer()
        #: path -> the editor's text; replaced whole on each change (a check reads the one
        #: it was given while the loop makes the next)
        self.texts: dict[str, str] = {}
        self.checks: dict[str, Check] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.requests: dict[int | str | None, asyncio.Task] = {}
        self.jobs: set[Job] = set()
        self.shut_down = False
        self.exit_code = 1

    # --- documents ------------------------------------------------------------------------

    def path_of(self, uri: str) -> str:
        """The file path of a document's URI (the URI itself when it names no file)."""
        try:
            return to_fs_path(uri) or uri
        except (ValueError, TypeError):
            return uri

    def document_text(self, uri: str) -> str:
        """The editor's text of an open document; InvalidParams for one not open (the
        server never reads a document from disk: its URI could name a device)."""
        document = self.workspace.text_documents.get(uri)
        if document is None:
            raise JsonRpcInvalidParams(f"{NAME}: {uri} is not open")
        return document.source

    def document_changed(self, uri: str) -> None:
        """A document opened or edited: its new text noted, a check scheduled."""
        document = self.workspace.text_documents.get(uri)
        if document is None:  # a change to a document never opened (pygls ignored it)
            return
        self.texts = {**self.texts, self.path_of(uri): document.source}
        self.recheck(uri)

    def document_closed(self, uri: str) -> None:
        """A document closed: its check stopped, its diagnostics cleared; the documents
        extending it read it from disk now."""
        path = self.path_of(uri)
        self.texts = {other: text for other, text in self.texts.items() if other != path}
        self._drop_check(uri, "closed")
        self.analyzer.forget(path)
        self.publish_diagnostics(uri, [])
        for other in list(self.workspace.text_documents):
            self.recheck(other)

    def files_changed(self, paths: list[str]) -> None:
        """Files changed on disk: the open documents reading one as a base are checked again."""
        reading = {doc for path in paths for doc in self.analyzer.dependents(path)}
        for uri in list(self.workspace.text_documents):
            if self.path_of(uri) in reading:
                self.recheck(uri)

    # --- checks -------------------------------------------------------------------------------

    def trace(self, message: str) -> None:
        """A line for the client's trace (``$/logTrace``), when it asked for one
        (``$/setTrace``): which checks start and which are stopped."""
        if self.lsp.trace in (lsp.TraceValues.Messages, lsp.TraceValues.Verbose):
            self.log_trace(f"{NAME}: {message}")

    def _stop(self, uri: str, check: Check, why: str) -> None:
        if check.job.stop():
            self.trace(f"stopped checking {uri} (version {check.version}): {why}")

    def _drop_check(self, uri: str, why: str) -> None:
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        check = self.checks.pop(uri, None)
        if check is not None:
            self._stop(uri, check, why)

    def recheck(self, uri: str) -> None:
        """Check a document soon: a change made meanwhile replaces this check, and the
        check under way for an older text stops now."""
        if uri not in self.workspace.text_documents:
            return
        check = self.checks.get(uri)
        if check is not None and check.text != self.workspace.text_documents[uri].source:
            self._stop(uri, check, "a newer text replaced it")
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        self.timers[uri] = self.loop.call_later(DEBOUNCE, self.start_check, uri)

    def start_check(self, uri: str, dependents: bool = True) -> Check | None:
        """Check a document's current text now, in a thread; the check before it stops.
        Its diagnostics are published when it is done, then (``dependents``) the open
        documents extending it are checked again."""
        self._drop_check(uri, "checked again")
        document = self.workspace.text_documents.get(uri)
        if document is None:
            return None
        path, text, texts = self.path_of(uri), document.source, self.texts

        def work() -> tuple[Analysis, list[lsp.Diagnostic], list[str]]:
            view = self.analyzer.with_texts(texts)
            analysis = view.analyze(path, text)
            return analysis, diagnostics(Places(view), analysis), view.dependents(path)

        check = Check(text, document.version, self._start(work, f"check {path}"), dependents)
        self.checks[uri] = check
        self.trace(f"checking {uri} (version {document.version})")
        check.job.future.add_done_callback(functools.partial(self._checked, uri, check))
        return check

    def _start(self, work: Callable[[], Any], name: str) -> Job:
        job = Job(self.loop, work, name).start()
        self.jobs.add(job)
        job.future.add_done_callback(lambda _: self.jobs.discard(job))
        return job

    def _checked(self, uri: str, check: Check, future: asyncio.Future) -> None:
        """On the loop: a check done. Its diagnostics are published unless a newer text
        replaced it meanwhile."""
        if future.cancelled() or self.checks.get(uri) is not check:
            return
        err = future.exception()
        if err is not None:
            logger.error("checking %s failed", uri, exc_info=(type(err), err, err.__traceback__))
            self.show_message_log(f"{NAME}: checking {uri} failed: {err!r}", lsp.MessageType.Error)
            return
        analysis, found, reading = future.result()
        check.analysis = analysis
        self.publish_diagnostics(uri, found, version=check.version)
        if check.dependents:
            for other in list(self.workspace.text_documents):
                if other != uri and self.path_of(other) in reading:
                    self.start_check(other, dependents=False)

    async def analysis(self, uri: str) -> Analysis:
        """The analysis of a document's current text (awaiting its check, started now if
        it is only scheduled); ContentModified when newer texts keep replacing it."""
        for _ in range(MAX_WAITS):
            text = self.document_text(uri)
            check = self.checks.get(uri)
            if check is None or check.text != text or check.job.future.cancelled():
                check = self.start_check(uri)
            if check is None:  # no longer open
                break
            if check.analysis is not None:
                return check.analysis
            await asyncio.wait({check.job.future})  # a cancelled request stops waiting, not the check
            if not check.job.future.cancelled():
                return check.job.future.result()[0]
        raise JsonRpcContentModified(f"{NAME}: the document changed while it was being checked")

    async def answer(self, work: Callable[[Places], Any], name: str) -> Any:
        """``work(places)`` computed off the loop against the editor's current texts; a
        cancelled request stops it."""
        texts = self.texts
        job = self._start(lambda: work(Places(self.analyzer.with_texts(texts))), name)
        try:
            await asyncio.wait({job.future})
        except asyncio.CancelledError:
            job.stop()
            raise
        return job.future.result()

    # --- messages -------------------------------------------------------------------------------

    def send(self, message: dict) -> None:
        """Write one message to the client (nothing once the session has ended)."""
        if self.lsp.transport is None:
            return
        try:
            self.lsp.transport.write(encode(message))
        except OSError as err:  # the client is gone
            logger.error("%s: writing to the client failed: %s", NAME, err)
            self.loop.stop()

    def reply_error(self, msg_id: int | str | None, code: int, message: str) -> None:
        """Answer a request (or, with no id, a message that could not be read) with an error."""
        self.send({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})

    def receive(self, item: object) -> None:
        """On the loop: one item the reader found (a message, a body that is not JSON, or
        skipped bytes)."""
        if isinstance(item, Skipped):
            logger.warning("%s: skipped %d bytes that were no message", NAME, item.size)
        elif isinstance(item, Unreadable):
            self.reply_error(item.msg_id, INVALID_REQUEST if item.json else PARSE_ERROR,
                             f"{NAME}: a message that cannot be read: {item.why}")
        else:
            try:
                self.dispatch(item)
            except Exception as err:  # noqa: BLE001 - a bug of ours: the request is still answered
                logger.error("%s: a message failed", NAME, exc_info=(type(err), err, err.__traceback__))
                msg_id = item.get("id") if isinstance(item, dict) else None
                if isinstance(item, dict) and isinstance(msg_id, (int, str)) and "method" in item:
                    self.reply_error(msg_id, INTERNAL_ERROR, f"{NAME}: {type(err).__name__}: {err}")

    def _refusal(self, data: object) -> tuple[int | str | None, int, str] | None:
        """What is wrong with a message's envelope (id, error code, message), or None."""
        if not isinstance(data, dict):
            return None, INVALID_REQUEST, f"{NAME}: a message is a JSON object"
        msg_id = data.get("id")
        good_id = isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool)
        answer_to = msg_id if good_id else None
        if data.get("jsonrpc") != "2.0":
            return answer_to, INVALID_REQUEST, f'{NAME}: not a JSON-RPC 2.0 message ("jsonrpc": "2.0")'
        if "method" not in data:
            if good_id and ("result" in data) != ("error" in data):
                return None  # a response to a request of ours
            return answer_to, INVALID_REQUEST, f"{NAME}: neither a request, a notification nor a response"
        if not isinstance(data["method"], str):
            return answer_to, INVALID_REQUEST, f"{NAME}: a method is named by a string"
        if "id" in data and not good_id:
            return None, INVALID_REQUEST, f"{NAME}: a request's id is an integer or a string"
        if good_id and self.shut_down and data["method"] != lsp.EXIT:
            return msg_id, INVALID_REQUEST, f"{NAME}: the server is shut down (only exit is taken)"
        return None

    def dispatch(self, data: object) -> None:
        """Answer, refuse or pass on one parsed message."""
        refusal = self._refusal(data)
        if refusal is not None:
            self.reply_error(*refusal)
            return
        assert isinstance(data, dict)
        method, msg_id = data.get("method"), data.get("id")
        if method is None:
            self._to_pygls(self.converter.structure(
                data, lsp.ResponseErrorMessage if "error" in data else JsonRPCResponseMessage))
            return
        kind = self.lsp.get_message_type(method)
        if kind is None:
            if "id" in data:
                self.reply_error(msg_id, METHOD_NOT_FOUND, f"{NAME}: no method {method!r}")
            return  # a notification the server does not take ($/…): ignored, as the protocol says
        if "id" in data and "id" not in {a.name for a in getattr(kind, "__attrs_attrs__", ())}:
            self.reply_error(msg_id, INVALID_REQUEST, f"{NAME}: {method} is a notification, sent with an id")
            return
        try:
            message = self.converter.structure(data, kind)
        except Exception as err:  # noqa: BLE001 - any reason the params do not fit their types
            if "id" in data:
                self.reply_error(msg_id, INVALID_PARAMS, f"{NAME}: invalid params of {method}: {_why(err)}")
            else:
                logger.warning("%s: ignored %s with invalid params: %s", NAME, method, _why(err))
            return
        self._take(method, msg_id, message)

    def _take(self, method: str, msg_id: int | str | None, message: Any) -> None:
        """A valid message: a request of ours run here, a cancellation of one of ours
        done here, anything else handed to pygls (initialize, shutdown, exit, the
        documents' notifications)."""
        if method in REQUESTS:
            self.run_request(msg_id, method, message.params)
            return
        if method == lsp.CANCEL_REQUEST and message.params.id in self.requests:
            self.requests[message.params.id].cancel()
            return
        if method == lsp.SHUTDOWN:
            self.stop_all()
        self._to_pygls(message)
        if method == lsp.SHUTDOWN:
            self.shut_down = True

    def _to_pygls(self, message: Any) -> None:
        # the step pygls's own data_received takes once it has parsed a message (pygls 1.x,
        # pinned in pyproject.toml): its parsing is replaced by the checks above
        self.lsp._procedure_handler(message)

    def run_request(self, msg_id: int | str | None, method: str, params: Any) -> None:
        """Run one of our requests as a task; its answer is sent when it ends."""
        task = self.loop.create_task(REQUESTS[method][0](self, params))
        self.requests[msg_id] = task
        task.add_done_callback(functools.partial(self._answered, msg_id))

    def _answered(self, msg_id: int | str | None, task: asyncio.Task) -> None:
        if self.requests.get(msg_id) is task:
            del self.requests[msg_id]
        if task.cancelled():
            self.reply_error(msg_id, REQUEST_CANCELLED, f"{NAME}: cancelled")
            return
        err = task.exception()
        if isinstance(err, JsonRpcException):
            self.reply_error(msg_id, err.code, err.message)
        elif err is not None:  # a bug of ours: its traceback in the log, one line to the client
            logger.error("%s: request %s failed", NAME, msg_id, exc_info=(type(err), err, err.__traceback__))
            self.reply_error(msg_id, INTERNAL_ERROR, f"{NAME}: {type(err).__name__}: {err}")
        else:
            self.send({"jsonrpc": "2.0", "id": msg_id, "result": self.converter.unstructure(task.result())})

    def stop_all(self) -> None:
        """Stop every request, check and scheduled check (shutdown, exit)."""
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        for task in list(self.requests.values()):
            task.cancel()
        for job in list(self.jobs):
            job.stop()

    # --- the session ------------------------------------------------------------------------------

    def _read(self, stream: BinaryIO) -> None:
        """The reader thread: each item of the input handed to the loop, then the end."""
        try:
            for item in Reader(stream):
                self.loop.call_soon_threadsafe(self.receive, item)
        except (OSError, ValueError) as err:
            logger.error("%s: reading the input failed: %s", NAME, err)
        except RuntimeError:  # the loop is closed: the server has exited
            return
        try:
            self.loop.call_soon_threadsafe(self._end_of_input)
        except RuntimeError:
            pass

    def _end_of_input(self) -> None:
        # the client is gone without exit: 0 only if it had asked for a shutdown
        self.exit_code = 0 if self.shut_down else 1
        self.loop.stop()

    def run_io(self, stdin: BinaryIO, stdout: BinaryIO) -> int:
        """Serve the client on these streams until ``exit`` or the input's end; the exit
        status (0 after ``shutdown``, 1 otherwise)."""
        self.lsp.connection_made(cast(asyncio.Transport, _Output(stdout)))  # pygls only writes and closes it
        threading.Thread(target=self._read, args=(stdin,), name="railspec-lsp reader", daemon=True).start()
        try:
            self.loop.run_forever()
            code = self.exit_code
        except SystemExit as done:  # pygls's exit handler
            code = done.code if isinstance(done.code, int) else 1
        self.stop_all()
        self.lsp.transport = None  # nothing more is sent: a task ending now has no one to answer
        pending = asyncio.all_tasks(self.loop)
        for task in pending:
            task.cancel()
        if pending:
            self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self.loop.close()
        return code


def build() -> RailServer:
    """The server with every feature registered (which announces its capabilities)."""
    server = RailServer()
    for method, (handler, options) in REQUESTS.items():
        server.feature(method, options)(handler)
    for method, handler in NOTIFICATIONS.items():
        server.feature(method)(handler)
    return server


def serve(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Run the server over stdin and stdout until the client exits it; the exit status."""
    if stdin is None:  # unbuffered: see transport.Reader
        stdin = open(sys.stdin.fileno(), "rb", buffering=0, closefd=False)  # noqa: SIM115 - the process's own
    return build().run_io(stdin, stdout or sys.stdout.buffer)
