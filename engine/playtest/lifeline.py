"""Worker processes that end with the process that started them, however it ends.

A parent killed with SIGKILL (or by the out-of-memory killer) runs no clean-up, so
stopping its workers cannot be left to it: a ``railspec balance`` killed so once left both
its workers playing on for hours, children of init. Each worker therefore watches a
*lifeline*: the read end of a pipe whose write end only the parent holds. When the parent
ends, however it ends, the kernel closes that end; the worker's watching thread reads
end-of-file and ends the worker at once.

Why a pipe rather than Linux's parent-death signal (``prctl(PR_SET_PDEATHSIG)``): the
pipe works on every system (macOS has no such signal), for workers forked, spawned or
exec'd alike; and the signal fires when the *thread* that started the worker ends, not
the process, so a campaign run from a short-lived thread would lose its workers early.
It costs the worker one sleeping thread and the parent two descriptors.

The pipe's one need is that no other process holds the write end, or end-of-file never
comes: a program exec'd by :mod:`subprocess` does not inherit it (``os.pipe`` makes
descriptors that are not inherited), and every process forked from this one closes its
copy at once (:func:`os.register_at_fork`), a worker and anything else alike.

A program railspec did not write (an engine under ``railspec test-engine``) cannot be
made to watch a pipe: :func:`foreign_options` gives it the kernel's parent-death signal
where there is one (Linux), the only way that needs nothing of the program.
"""
from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection

#: The exit status of a worker ended because its parent ended (nobody reads it but init).
ORPHANED = 1

#: This process's lifeline, made when it first starts a worker: (read end, write end).
_pipe: tuple[Connection, Connection] | None = None
_pipe_lock = threading.Lock()


def worker_end() -> Connection:
    """The end a worker of this process watches (give it to :func:`watch` in the worker):
    a read-only connection, passed to a ``multiprocessing.Process`` as an argument (forked
    or spawned), or by its descriptor to a program started by :mod:`subprocess`
    (``pass_fds``). The same one for every worker; it stays open as long as this process."""
    global _pipe
    with _pipe_lock:
        if _pipe is None:
            _pipe = multiprocessing.Pipe(duplex=False)
        return _pipe[0]


def _forked() -> None:
    """In a forked child: close the child's copy of the parent's write end (the parent's
    workers would never see end-of-file while the child lived), and start afresh, so that
    workers of the child's own watch the child."""
    global _pipe, _pipe_lock
    if _pipe is not None:
        _pipe[1].close()
    _pipe = None
    _pipe_lock = threading.Lock()  # a copy of a lock another thread held at the fork stays held


os.register_at_fork(after_in_child=_forked)


def watch(end: Connection | int) -> threading.Thread:
    """In a worker: end this process (status :data:`ORPHANED`, no clean-up: its work is
    nobody's any more) as soon as the parent that gave it ``end`` ends. ``end`` is the
    :func:`worker_end` received as an argument, or its descriptor's number in a program
    the parent exec'd. Returns the watching thread (a daemon)."""
    connection = Connection(end, writable=False) if isinstance(end, int) else end

    def wait_for_the_end() -> None:
        try:
            connection.poll(None)  # nothing is ever written: it returns at end-of-file only
        finally:
            os._exit(ORPHANED)

    thread = threading.Thread(target=wait_for_the_end, name="railspec-lifeline", daemon=True)
    thread.start()
    return thread


#: Linux's prctl() option that asks for a signal when the parent ends.
PR_SET_PDEATHSIG = 1


def _die_with_parent(prctl: Callable[..., int], parent: int) -> None:
    """In a child between fork and exec, on Linux: the kernel is to send SIGKILL when the
    thread that started the child ends; a parent ended already ends the child now."""
    if prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0 or os.getppid() != parent:
        os._exit(ORPHANED)


def foreign_options() -> dict:
    """Options for :class:`subprocess.Popen` starting a program railspec did not write (an
    engine under test), which cannot be made to watch a lifeline: on Linux the kernel's
    parent-death signal ends it (SIGKILL) when the thread that started it ends; elsewhere
    nothing (the end of its input, the driver protocol's, is all it has). The thread's
    caveat is harmless for the driver, which starts and ends the engine in one thread."""
    if not sys.platform.startswith("linux"):
        return {}
    import ctypes  # here: every start of the command line would pay 8 ms for it

    # looked up here, before the fork: the child only calls it
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    return {"preexec_fn": functools.partial(_die_with_parent, prctl, os.getpid())}


__all__ = ["ORPHANED", "foreign_options", "watch", "worker_end"]
