"""Balance campaigns: many seeded games of agents, and the records a report is made of.

A campaign plays ``games`` games of one variant at one player count. Game ``i`` is fully
determined by the campaign's seed and ``i``: its game seed, which agents sit where (the
agent list is rotated one seat per game, so every agent plays every seat equally often)
and each agent's own seed. Games are played in chunks by worker processes, or by Ray
tasks on a cluster, and the records are put back in game order, so the same seed gives
the same records whatever the number of workers or where they ran.

A record is plain data (one dict per game) so it crosses process boundaries cheaply and
the report (:mod:`railspec.report`) can turn it into tables.
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.connection as mp_connection
import os
import signal
import socket
import sys
import threading
import warnings
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, cast

from ..compiler.base.errors import IllegalActionError, RailspecError
from ..compiler.base.rng import SplitMix64
from ..runtime.game import load
from . import agents as agents_module
from . import lifeline

#: Salts the campaign seed when deriving each game's seeds.
CAMPAIGN_SALT = 0xA0761D6478BD642F

#: The agents a campaign seats when none are named: the four playing styles.
DEFAULT_AGENTS = ("one-step", "long-route", "route-focus", "destination-hungry")


@dataclass(frozen=True)
class CampaignPlan:
    """What to play: a variant (a stock name or a spec path, as :func:`railspec.load`
    takes it), a player count, how many games, which agents, the seed, and the engine the
    games run on (the same games on either)."""

    variant: str
    players: int
    games: int
    agents: tuple[str, ...] = DEFAULT_AGENTS
    seed: int = 1
    agent_options: dict = field(default_factory=dict)
    engine: str = "compiled"

    def seats(self, game: int) -> list[str]:
        """The agents of game ``game``, seat by seat."""
        n = len(self.agents)
        return [self.agents[(game + seat) % n] for seat in range(self.players)]

    def game_seeds(self, game: int) -> tuple[int, list[int]]:
        """Game ``game``'s seed and its seats' agent seeds."""
        rng = SplitMix64((self.seed % 2**64) ^ CAMPAIGN_SALT ^ (game * 0x9E3779B97F4A7C15 % 2**64))
        return rng.next(), [rng.next() for _ in range(self.players)]

    def play(self, variant: Any, game: int) -> Any:
        """What a worker sends back for game ``game``: its record (:func:`play_game`). A
        subclass may send something else (a tuning run's short outcome), computed where
        the game is played."""
        return play_game(variant, self, game)


def check_plan(plan: CampaignPlan, variant) -> None:
    """Raise ValueError for a plan that cannot be played (before any process starts)."""
    variant.ir.check_players(plan.players)
    if isinstance(plan.games, bool) or not isinstance(plan.games, int) or plan.games < 1:
        raise ValueError(f"games must be a positive integer, not {plan.games!r}")
    if not plan.agents:
        raise ValueError("a campaign needs at least one agent")
    for name in plan.agents:
        if name not in agents_module.AGENTS:
            raise agents_module.AgentError(f"no agent named {name!r}; the agents are "
                                           f"{', '.join(agents_module.AGENTS)}")


def played_game(variant, plan: CampaignPlan, game: int):
    """Play game ``game`` of the plan to its end; returns the finished game (a
    :class:`railspec.Game`) and each seat's count of actions taken, by kind."""
    seed, agent_seeds = plan.game_seeds(game)
    names = plan.seats(game)
    seated = [agents_module.make(name, seed=s, **plan.agent_options.get(name, {}))
              for name, s in zip(names, agent_seeds)]
    g = variant.new_game(players=plan.players, seed=seed, engine=plan.engine)
    kinds = [a.kind for a in variant.ir.actions]
    taken: list[dict[str, int]] = [{} for _ in range(plan.players)]
    while not g.is_over:
        seat = g.current_player
        action = seated[seat].act(g)
        try:
            g.apply(action)
        except IllegalActionError as err:
            raise agents_module.AgentError(f"game {game}: agent {names[seat]!r} in seat {seat}: {err}") from None
        counts = taken[seat]
        counts[kinds[action]] = counts.get(kinds[action], 0) + 1
    return g, taken


def play_game(variant, plan: CampaignPlan, game: int) -> dict:
    """Play game ``game`` of the plan and return its record."""
    g, taken = played_game(variant, plan, game)
    seed, _ = plan.game_seeds(game)
    names = plan.seats(game)
    state = g.state()
    rows = g.score_breakdown()
    winners = set(g.winners())
    seats = []
    for p, row in enumerate(rows):
        seats.append({"seat": p, "agent": names[p], "winner": p in winners, "score": row["total"],
                      "breakdown": dict(row), "tickets": list(state["tickets"][p]),
                      "completed": g.completed_tickets(p),
                      "actions": taken[p]})
    return {"game": game, "seed": seed, "players": plan.players, "decisions": state["decisions"],
            "turns": state["turn"], "ended_by": "passes" if state["passes"] >= plan.players else "trains",
            "owner": list(state["owner"]), "seats": seats}


_WORKER_VARIANTS: dict[str, object] = {}


def play_chunk(plan: CampaignPlan, games) -> list[dict]:
    """Play the listed games of ``plan`` (a ``range`` or list of game numbers; in a worker
    the variant is loaded once)."""
    variant = _WORKER_VARIANTS.get(plan.variant)
    if variant is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            variant = _WORKER_VARIANTS[plan.variant] = load(plan.variant)
    records = []
    for g in games:
        stop_if_asked()  # in this process only (a worker ignores the signals): between games
        records.append(plan.play(variant, g))
    return records


#: Games in one chunk at most: a chunk is the unit a worker plays and a Ctrl-C may lose.
CHUNK_GAMES = 50
#: Chunks in flight per worker: enough to keep every worker busy, few enough that what the
#: parent holds (pending chunks, records waiting for an earlier chunk) stays bounded.
IN_FLIGHT_PER_WORKER = 3


def _chunk_size(games: int, workers: int) -> int:
    return max(1, min(CHUNK_GAMES, games // (workers * 8) or 1))


def _chunks(games: int, workers: int):
    """The chunks of a campaign, as ranges of game numbers, made as they are needed."""
    size = _chunk_size(games, workers)
    return (range(i, min(games, i + size)) for i in range(0, games, size))


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class CampaignStopped(KeyboardInterrupt):
    """The campaign was stopped (Ctrl-C, or SIGTERM to this process) before its end; the
    workers are stopped and reaped. ``played``: the games whose records were handed on;
    ``signum``: the signal that stopped it (SIGINT for Ctrl-C)."""

    def __init__(self, played: int, games: int, signum: int = signal.SIGINT):
        why = "stopped by SIGTERM" if signum == signal.SIGTERM else "interrupted"
        super().__init__(f"{why} after {played:,} of {games:,} games")
        self.played = played
        self.games = games
        self.signum = int(signum)


def run_campaign(plan: CampaignPlan, workers: int | None = None, ray_address: str | None = None,
                 progress=None) -> list[dict]:
    """Play every game of ``plan`` and return the records in game order.

    ``workers``: processes on this machine (default: every core; 1 plays in this
    process). ``ray_address``: run the chunks as Ray tasks instead (``"local"`` starts a
    Ray instance here); needs ``pip install railspec[cluster]``. ``progress``: called
    with the number of games just finished. A campaign too large to hold in memory is
    read record by record from a :class:`Campaign`."""
    with Campaign(plan, workers, ray_address, progress) as records:
        return list(records)


class Campaign:
    """A campaign being played: iterate it for the records of ``plan``'s games, in game
    order, as they are played. Only a bounded window of chunks is in flight or waiting
    for an earlier one, so memory does not grow with the number of games.

    Use it as a ``with`` block: leaving the block, however it is left, stops the workers
    (terminated and reaped) and ends the Ray tasks; Ctrl-C, or SIGTERM to this process,
    anywhere in the block (while a game is awaited or while the caller handles a record)
    leaves it with :class:`CampaignStopped` within a second. Arguments as
    :func:`run_campaign`; the plan and the workers are checked here, before any process
    starts."""

    #: a command's progress bar (``railspec play`` sets it; None without one)
    bar: Any

    def __init__(self, plan: CampaignPlan, workers: int | None = None, ray_address: str | None = None,
                 progress=None):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.variant = load(plan.variant)
        check_plan(plan, self.variant)
        workers = default_workers() if workers is None else workers
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a positive integer, not {workers!r}")
        self.plan, self.workers, self.ray_address, self.progress = plan, workers, ray_address, progress
        self.played = 0  # records handed on
        self._batches: Generator[list[dict], None, None] | None = None
        self._signals = _terminate_as_interrupt()

    def __enter__(self) -> Campaign:
        self.variant.module()  # build (or fetch) the engine once, before any worker needs it
        self._signals.__enter__()
        plan = self.plan
        if self.ray_address is not None:
            self._batches = _on_ray(plan, self.workers, self.ray_address)
        elif self.workers == 1:
            _WORKER_VARIANTS[plan.variant] = self.variant
            self._batches = (play_chunk(plan, chunk) for chunk in _chunks(plan.games, 1))
        else:
            self._batches = _on_processes(plan, self.workers)
        return self

    def __iter__(self):
        if self._batches is None:
            raise RuntimeError("a Campaign is played inside its with block")
        for batch in self._batches:
            for record in batch:
                stop_if_asked()
                yield record
                self.played += 1
            if self.progress:
                self.progress(len(batch))

    def __exit__(self, kind, value, traceback):
        try:
            if self._batches is not None:
                self._batches.close()  # a generator's close runs its clean-up: the workers are reaped
        finally:
            self._signals.__exit__(kind, value, traceback)
        # a signal noted after the last record was read, or while the workers were reaped
        # (which takes a while on a loaded machine), would be forgotten by the signals' exit:
        # the caller asked to stop, so the campaign ends as stopped all the same
        late = self._signals.noted if kind is None else None
        if kind is not None and issubclass(kind, KeyboardInterrupt) and not issubclass(kind, CampaignStopped):
            signum = signal.SIGTERM if issubclass(kind, _Terminated) else signal.SIGINT
            raise CampaignStopped(self.played, self.plan.games, signum) from None
        if late is not None:
            raise CampaignStopped(self.played, self.plan.games, late)
        return False


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the main thread is, to unwind as Ctrl-C does."""


#: The signal that asked the campaign running in this process to stop, if any.
_STOP_SIGNAL: int | None = None


def stop_if_asked() -> None:
    """Raise where it is safe to (between games, records and waits) what a signal asked
    for: KeyboardInterrupt for Ctrl-C, _Terminated for SIGTERM."""
    if _STOP_SIGNAL is not None:
        raise _Terminated() if _STOP_SIGNAL == signal.SIGTERM else KeyboardInterrupt()


class _terminate_as_interrupt:
    """While a campaign runs in the main thread, Ctrl-C and SIGTERM only note that it is to
    stop; the campaign stops at the next safe point (:func:`stop_if_asked`, at most 0.2 s
    away while it waits for workers) and reaps its workers on the way out. Raising from the
    handler itself could land inside the process pool's own locked code and leave it
    deadlocked (a SIGTERM once hung the parent so)."""

    def __enter__(self):
        global _STOP_SIGNAL
        self.previous = {}
        self.noted: int | None = None  # the signal noted while it ran, set by __exit__
        _STOP_SIGNAL = None
        if threading.current_thread() is threading.main_thread():
            def note(signum, frame):
                global _STOP_SIGNAL
                _STOP_SIGNAL = signum
            for signum in (signal.SIGINT, signal.SIGTERM):
                if signal.getsignal(signum) == signal.SIG_IGN:
                    continue  # ignored by whoever started us (a background job's Ctrl-C): it stays so
                self.previous[signum] = signal.signal(signum, note)
        return self

    def __exit__(self, *exc):
        global _STOP_SIGNAL
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        # read once the previous handlers are back: a signal before this was noted here, one
        # after it is handled as the caller handles it, so none falls between the two
        self.noted = _STOP_SIGNAL
        _STOP_SIGNAL = None
        return False


def _ignore_interrupts() -> None:
    """A worker's start: Ctrl-C reaches the whole process group, but only the parent acts
    on it (it stops the workers itself), so no worker prints a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    release_held_signals()


#: The signals held back while a worker is forked (:func:`start_with_signals_held`).
HELD_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def start_with_signals_held(process: Any) -> None:
    """Start ``process`` with Ctrl-C and SIGTERM held back during the fork. A signal that
    lands inside the fork's callbacks is raised there, where Python prints it and drops it
    (a tune run went on to its end), and one that reaches the child before it set its
    handlers runs the parent's (a worker printed a traceback). Held, each is delivered once
    the fork is over: in the parent where it is, in the child after
    :func:`release_held_signals`."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: spawned processes, no such race
        process.start()
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    try:
        process.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def release_held_signals() -> None:
    """A child's step once its handlers are set: the signals its parent held while forking
    it (:func:`start_with_signals_held`) are delivered now."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD_SIGNALS)


def _in_order(submit, wait_any, chunks, window: int):
    """The results of ``chunks`` in order, with at most ``window`` of them submitted and
    not yet handed on: ``submit(chunk)`` starts one and returns a handle, ``wait_any(handles)``
    returns {handle: result} for at least one finished."""
    pending: dict = {}   # handle -> chunk index
    finished: dict[int, list[dict]] = {}
    chunks = iter(enumerate(chunks))
    next_index, exhausted = 0, False
    while True:
        while not exhausted and len(pending) + len(finished) < window:
            item = next(chunks, None)
            if item is None:
                exhausted = True
                break
            pending[submit(item[1])] = item[0]
        if not pending and not finished:
            return
        if next_index not in finished:
            for handle, result in wait_any(list(pending)).items():
                finished[pending.pop(handle)] = result
        while next_index in finished:
            yield finished.pop(next_index)
            next_index += 1


class WorkerDied(RailspecError):
    """A campaign's worker process ended without returning its chunk (killed, or crashed
    in native code)."""


def _work(connection: mp_connection.Connection, parent: mp_connection.Connection) -> None:
    """A worker's loop: play each chunk sent on ``connection`` and send back its records
    (or the error it raised), until the parent sends None or goes away. ``parent``: the
    parent's lifeline (:mod:`.lifeline`): the worker ends the moment the parent does,
    even in the middle of a chunk and even when the parent was killed with SIGKILL."""
    lifeline.watch(parent)
    _ignore_interrupts()
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        job, plan, chunk = message
        answer: tuple[int, bool, Any]
        try:
            answer = (job, True, play_chunk(plan, chunk))
        except Exception as error:  # handed to the parent, which raises it
            answer = (job, False, error)
        try:
            connection.send(answer)
        except (EOFError, OSError):
            return
        except Exception as error:  # an error that cannot be pickled: send its text
            connection.send((job, False, RuntimeError(f"{type(error).__name__}: {error}")))


class _Workers:
    """Worker processes owned by the campaign, one pipe each, and no thread in the parent.

    concurrent.futures' pool was used before; its manager thread reads results in the
    background, and a worker terminated in the middle of sending a chunk left that thread
    blocked on a half-read message, which the interpreter then joins at exit: a SIGTERM'd
    campaign printed its line and hung (seen once in CI). Here the parent reads a pipe
    only when it is ready and only while the campaign runs; stopping terminates the
    workers and closes the pipes without reading anything more."""

    def __init__(self, count: int):
        context = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else \
            multiprocessing.get_context("spawn")
        self.processes, self.connections = [], []
        self.jobs: dict[int, int] = {}   # job -> worker index, for the jobs sent and not answered
        self.load = [0] * count          # jobs sent to each worker and not answered
        self.next_job = 0
        try:
            for _ in range(count):
                ours, theirs = context.Pipe(duplex=True)
                process = context.Process(target=_work, args=(theirs, lifeline.worker_end()), daemon=True)
                start_with_signals_held(process)
                theirs.close()  # so a worker's death reads as end-of-file on ours
                self.processes.append(process)
                self.connections.append(ours)
        except BaseException:
            self.stop()
            raise

    def submit(self, plan: CampaignPlan, chunk) -> int:
        """Send ``chunk`` to the least busy worker; return the job's number."""
        worker = min(range(len(self.processes)), key=self.load.__getitem__)
        job = self.next_job
        self.next_job += 1
        try:
            self.connections[worker].send((job, plan, chunk))
        except OSError:  # the worker is gone
            self._died(worker)
        self.jobs[job] = worker
        self.load[worker] += 1
        return job

    def wait_any(self, jobs) -> dict:
        """{job: records} for at least one of ``jobs`` finished; a short wait at a time so
        Ctrl-C and SIGTERM are acted on promptly."""
        wanted = set(jobs)
        done: dict = {}
        while not done:
            stop_if_asked()
            busy = {self.jobs[job] for job in wanted if job in self.jobs}
            watched = [self.connections[w] for w in busy] + [self.processes[w].sentinel for w in busy]
            for ready in mp_connection.wait(watched, timeout=0.2):
                if isinstance(ready, int):  # a sentinel: the process ended; its pipe may still hold an answer
                    worker = next(w for w in busy if self.processes[w].sentinel == ready)
                    try:
                        answered = self.connections[worker].poll()
                    except OSError:
                        answered = False
                    if not answered:
                        self._died(worker)
                    continue
                pipe = cast(mp_connection.Connection, ready)  # not a sentinel: one of our pipes
                try:
                    job, ok, result = pipe.recv()
                except (EOFError, OSError):
                    self._died(self.connections.index(pipe))
                worker = self.jobs.pop(job)
                self.load[worker] -= 1
                if not ok:
                    raise result
                if job in wanted:
                    done[job] = result
        return done

    def _died(self, worker: int) -> None:
        process = self.processes[worker]
        process.join(timeout=1)
        raise WorkerDied(f"a campaign worker ended without its games (exit code {process.exitcode})")

    def close(self) -> None:
        """Every chunk was answered: let the workers end on their own."""
        for connection in self.connections:
            try:
                connection.send(None)
            except OSError:
                pass
        for process in self.processes:
            process.join(timeout=5)
        self.stop()

    def stop(self) -> None:
        """Terminate and reap every worker and close the pipes; nothing is read any more."""
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join()
        for connection in self.connections:
            connection.close()
        self.processes, self.connections = [], []


def _on_processes(plan: CampaignPlan, workers: int):
    pool = _Workers(workers)
    try:
        yield from _in_order(lambda chunk: pool.submit(plan, chunk), pool.wait_any,
                             _chunks(plan.games, workers), workers * IN_FLIGHT_PER_WORKER)
        pool.close()
    finally:
        pool.stop()  # stopped early (or an error): no chunk is worth waiting for


class ClusterError(RailspecError):
    """A Ray cluster that cannot be reached or used (``railspec balance --ray ADDRESS``)."""


#: How long to wait for a cluster's address to answer before saying it cannot be reached
#: (Ray itself retries for minutes).
CONNECT_TIMEOUT = 5.0


def reach_cluster(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Raise :class:`ClusterError` unless ``address`` (``HOST:PORT`` or ``ray://HOST:PORT``;
    ``auto`` is left to Ray) accepts a connection within ``timeout`` seconds."""
    if address == "auto":
        return
    hostport = address.split("://", 1)[1] if "://" in address else address
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ClusterError(f"cannot use the Ray cluster at {address!r}: an address is HOST:PORT, "
                           f"ray://HOST:PORT or auto")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as err:
        why = "no answer" if isinstance(err, TimeoutError) else (err.strerror or str(err))
        raise ClusterError(f"cannot reach the Ray cluster at {address}: {why} (waited at most {timeout:g} s)") \
            from None


def _on_ray(plan: CampaignPlan, workers: int, address: str):
    """The chunks as Ray tasks, results in order (see :func:`_in_order`)."""
    try:
        import ray
    except ImportError:
        raise ImportError("running on Ray needs the cluster extra: pip install 'railspec[cluster]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        if address == "local":  # a Ray instance of this machine, reachable from it alone
            ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False,
                     _node_ip_address="127.0.0.1")
        else:
            reach_cluster(address)
            try:
                ray.init(address=address, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as err:
                raise ClusterError(f"cannot use the Ray cluster at {address}: {str(err).splitlines()[0]}") from None
    task = ray.remote(play_chunk)
    in_flight: list = []

    def submit(chunk):
        ref = task.remote(plan, chunk)
        in_flight.append(ref)
        return ref

    def wait_any(refs):
        ready: list = []
        while not ready:
            stop_if_asked()
            ready, _ = ray.wait(refs, num_returns=1, timeout=0.2)
        for ref in ready:
            in_flight.remove(ref)
        return {ref: ray.get(ref) for ref in ready}
    width = max(workers, int(ray.cluster_resources().get("CPU", workers)))
    finished = False
    try:
        yield from _in_order(submit, wait_any, _chunks(plan.games, width), width * IN_FLIGHT_PER_WORKER)
        finished = True
    finally:
        if not finished:
            for ref in in_flight:
                ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()
