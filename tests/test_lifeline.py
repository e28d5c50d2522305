"""Worker processes end with the process that started them, even one killed with SIGKILL
(railspec.playtest.lifeline): a program exec'd with the lifeline's descriptor, a worker
forked beside an unrelated forked child (which must not keep the lifeline open), a fuzz
campaign's worker stalled in a case, and an engine under ``test-engine`` that railspec
did not write. (A balance campaign's workers: tests/test_balance.py.)

Each test starts a parent process, lets it start its worker, kills the parent outright
and waits for the worker to end: a bound on waiting, not a timing measure (they end
within milliseconds; without the lifeline they live on for good)."""
from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from railspec.playtest import lifeline

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _gone(pid: int) -> bool:
    """Whether ``pid`` has ended (gone, or a zombie nobody has reaped yet)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def _kill_parent_and_wait(script: str, folder: Path, env: dict | None = None,
                          seconds: float = 30.0) -> tuple[list[int], list[int]]:
    """Run ``script`` (Python, written to a file in ``folder``: a spawned worker imports
    its parent's main module) as a parent process that prints the pids it wants to
    outlive it on its first line, SIGKILL it, and wait up to ``seconds`` for those to
    end. Returns (the pids, those still running); any still running are then killed, with
    every other process left in the parent's session."""
    path = folder / "parent.py"
    path.write_text(textwrap.dedent(script), encoding="utf-8")
    parent = subprocess.Popen([sys.executable, str(path)], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env,
                              start_new_session=True)
    pids: list[int] = []
    try:
        ready, _, _ = select.select([parent.stdout], [], [], 120)
        line = parent.stdout.readline() if ready else ""
        pids = [int(word) for word in line.split()]
        assert pids, f"the parent printed no pid: {line!r}"
        parent.kill()
        parent.wait(timeout=30)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not all(_gone(pid) for pid in pids):
            time.sleep(0.05)
        return pids, [pid for pid in pids if not _gone(pid)]
    finally:
        # The whole session the parent led goes too: a child it started that the test does
        # not watch (one sleeping beside the worker) would otherwise outlive the test.
        try:
            os.killpg(parent.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if parent.poll() is None:
            parent.wait()
        for pid in pids:
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)


def test_an_execd_worker_ends_with_its_parent(tmp_path: Path) -> None:
    """The fuzz campaign's way: the descriptor passed to a program started by subprocess."""
    pids, alive = _kill_parent_and_wait("""
        import subprocess, sys
        from railspec.playtest import lifeline
        end = lifeline.worker_end().fileno()
        worker = subprocess.Popen([sys.executable, "-c", "import sys, time; from railspec.playtest import lifeline; "
                                   "lifeline.watch(int(sys.argv[1])); print('watching', flush=True); time.sleep(600)",
                                   str(end)], pass_fds=(end,), stdout=subprocess.PIPE, text=True)
        assert worker.stdout.readline() == "watching\\n"
        print(worker.pid, flush=True)
        worker.wait()
    """, tmp_path)
    assert alive == [], "the worker outlived its killed parent"


def test_a_forked_worker_ends_though_another_forked_child_lives_on(tmp_path: Path) -> None:
    """A child forked for something else copies the parent's descriptors, the lifeline's
    write end among them; it closes its copy at once, or the worker would never see the
    end. The other child (which watches nothing) is still running when the worker ends."""
    pids, alive = _kill_parent_and_wait("""
        import multiprocessing, time
        from railspec.playtest import lifeline

        def work(end, ready):
            lifeline.watch(end)
            ready.set()
            time.sleep(600)

        if __name__ == "__main__":
            context = multiprocessing.get_context("fork")
            ready = context.Event()
            worker = context.Process(target=work, args=(lifeline.worker_end(), ready))
            worker.start()
            ready.wait()
            other = context.Process(target=time.sleep, args=(600,))
            other.start()
            print(worker.pid, flush=True)
            print(other.pid, flush=True)
            time.sleep(600)
    """, tmp_path)
    worker = pids[0]
    assert worker not in alive, "the worker outlived its killed parent"


def test_a_spawned_worker_ends_with_its_parent(tmp_path: Path) -> None:
    """The way a campaign starts its workers where there is no fork (macOS): the worker's
    end crosses to a fresh interpreter as a pickled connection."""
    pids, alive = _kill_parent_and_wait("""
        import multiprocessing, time
        from railspec.playtest import lifeline

        def work(end, ready):
            lifeline.watch(end)
            ready.set()
            time.sleep(600)

        if __name__ == "__main__":
            context = multiprocessing.get_context("spawn")
            ready = context.Event()
            worker = context.Process(target=work, args=(lifeline.worker_end(), ready))
            worker.start()
            ready.wait()
            print(worker.pid, flush=True)
            time.sleep(600)
    """, tmp_path)
    assert alive == [], "the worker outlived its killed parent"


def test_a_stalled_fuzz_worker_ends_with_its_campaign(tmp_path: Path) -> None:
    """A fuzz worker stalled in a case (as a case that hangs) is killed by its campaign
    after the case's timeout; a campaign killed outright used to leave it stalled for good."""
    env = dict(os.environ, RAILSPEC_FUZZ_FAULT="hang@0")
    pids, alive = _kill_parent_and_wait(f"""
        import os, sys, threading, time
        sys.path.insert(0, {str(ROOT)!r})
        from fuzz import campaign

        def tell():
            while True:
                time.sleep(0.05)
                try:
                    children = open(f"/proc/{{os.getpid()}}/task/{{os.getpid()}}/children").read().split()
                except OSError:
                    continue
                if children and os.path.exists({str(tmp_path / "worker0" / "case.json")!r}):
                    print(children[0], flush=True)
                    return
        threading.Thread(target=tell, daemon=True).start()
        campaign.run(("spec",), cases=3, batch_size=3, timeout=600, spec_plays=0, workdir={str(tmp_path)!r})
    """, tmp_path, env=env)
    assert alive == [], "the fuzz worker outlived its killed campaign"


def test_an_engine_under_test_ends_with_the_driver(tmp_path: Path) -> None:
    """An engine railspec did not write cannot watch a lifeline: on Linux the kernel's
    parent-death signal ends it (here one that never reads its input)."""
    pids, alive = _kill_parent_and_wait("""
        import sys, time
        from railspec.tools.driver import EngineProcess
        engine = EngineProcess([sys.executable, "-c", "import time; time.sleep(600)"])
        print(engine.process.pid, flush=True)
        time.sleep(600)
    """, tmp_path)
    assert alive == [], "the engine outlived its killed driver"


def test_a_worker_end_is_the_read_end_of_one_pipe_per_process() -> None:
    end = lifeline.worker_end()
    assert end is lifeline.worker_end() and end.readable and not end.writable
