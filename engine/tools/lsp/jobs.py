"""Work the language server does off its event loop, each piece in a thread of its own that
the loop can stop at once.

Checking a spec of a few megabytes takes tens of seconds of pure Python (Lark's parser,
then the checker). Run on the event loop, nothing else would be answered meanwhile; run
in a thread that cannot be stopped, a check made stale by the next keystroke would go on
taking the processor from the one that matters. So each :class:`Job` runs in a daemon
thread of its own, and :meth:`Job.stop` raises :class:`Cancelled` inside that thread
(CPython's ``PyThreadState_SetAsyncExc``: the exception arrives at the thread's next
bytecode boundary, between two steps of the parse). The analysis keeps no state that an
interruption could leave half-made (see :class:`.analysis.Analyzer`).

Two rules keep the exception inside the job it was meant for:

- it is sent at most once, and only while the loop has not yet settled the job (the loop
  thread alone sends it and settles jobs, so the two cannot cross);
- the thread does not end before the loop has settled its job: after its work it waits
  for that, catching the one exception that may still be on its way. So the exception
  never reaches the thread's shutdown code, nor another thread that reuses its id.
"""
from __future__ import annotations

import asyncio
import ctypes
import threading
import time
from typing import Any, Callable

#: How often a finished job's thread looks whether the loop has settled it (seconds).
_SETTLE_POLL = 0.0005

_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
_set_async_exc.argtypes = (ctypes.c_ulong, ctypes.py_object)
_set_async_exc.restype = ctypes.c_int


class Cancelled(BaseException):
    """Raised inside a job's thread when the loop stops it. A BaseException, so that no
    ``except Exception`` of the code it interrupts swallows it."""


class Job:
    """One piece of work in a thread of its own. ``future`` (of the loop) gets the work's
    result or its exception; a stopped job's future is cancelled at once, without waiting
    for the thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop, work: Callable[[], Any], name: str) -> None:
        self.loop = loop
        self.work = work
        self.future: asyncio.Future = loop.create_future()
        self._settled = False  # set on the loop's thread (by the job's only once the loop is gone)
        self._stopped = False  # likewise
        self._running = False  # set by the job's thread when it begins
        self._thread = threading.Thread(target=self._main, name=f"railspec-lsp {name}", daemon=True)

    def start(self) -> "Job":
        """Start the thread; the job itself, for chaining."""
        self._thread.start()
        return self

    @property
    def done(self) -> bool:
        """Whether the loop has settled the job (its result in, or stopped)."""
        return self._settled

    def stop(self) -> bool:
        """Stop the job (call on the loop's thread): its future is cancelled now and the
        thread is interrupted if it is at work. Whether it was."""
        if self._settled:
            return False
        # the order matters: the thread reads _stopped after setting _running, this reads
        # _running after setting _stopped, so one of the two sees the other's flag; and the
        # exception is sent before _settled is set, which the thread waits for
        self._stopped = True
        interrupted = self._running
        if interrupted:
            _set_async_exc(self._thread.ident, Cancelled)
        self._settled = True
        if not self.future.done():
            self.future.cancel()
        return interrupted

    # --- the job's thread -------------------------------------------------------------------

    def _main(self) -> None:
        try:
            self._running = True  # from here on stop() interrupts the thread
            if not self._stopped:
                self._run()
        except Cancelled:
            # arrived between the work and the hand-over: the loop has settled the job
            pass
        while True:  # the loop settles the job soon; from then on no exception can come
            try:
                while not self._settled:
                    time.sleep(_SETTLE_POLL)
                return
            except Cancelled:
                continue

    def _run(self) -> None:
        try:
            outcome: tuple[bool, Any] | None = (True, self.work())
        except Cancelled:
            outcome = None
        except BaseException as err:  # noqa: BLE001 - handed to whoever awaits the job
            outcome = (False, err)
        try:
            self.loop.call_soon_threadsafe(self._settle, outcome)
        except RuntimeError:  # the loop is closed: the server is exiting
            self._settled = True

    def _settle(self, outcome: tuple[bool, Any] | None) -> None:
        """On the loop's thread: the work's outcome, unless the job was stopped."""
        if self._settled:
            return
        self._settled = True
        if self.future.done():
            return
        if outcome is None:
            self.future.cancel()
        elif outcome[0]:
            self.future.set_result(outcome[1])
        else:
            self.future.set_exception(outcome[1])
