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

import os
import socket
import sys
import time
import warnings
from dataclasses import dataclass, field

from ..compiler.base.errors import IllegalActionError, RailspecError
from ..compiler.base.rng import SplitMix64
from ..runtime.game import load
from . import agents as agents_module

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


def play_game(variant, plan: CampaignPlan, game: int) -> dict:
    """Play game ``game`` of the plan and return its record."""
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


def play_chunk(plan: CampaignPlan, games: list[int]) -> list[dict]:
    """Play the listed games of ``plan`` (in a worker: the variant is loaded once)."""
    variant = _WORKER_VARIANTS.get(plan.variant)
    if variant is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            variant = _WORKER_VARIANTS[plan.variant] = load(plan.variant)
    return [play_game(variant, plan, g) for g in games]


def _chunks(games: int, workers: int) -> list[list[int]]:
    size = max(1, min(50, games // (workers * 8) or 1))
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_campaign(plan: CampaignPlan, workers: int | None = None, ray_address: str | None = None,
                 progress=None) -> list[dict]:
    """Play every game of ``plan`` and return the records in game order.

    ``workers``: processes on this machine (default: every core; 1 plays in this
    process). ``ray_address``: run the chunks as Ray tasks instead (``"local"`` starts a
    Ray instance here); needs ``pip install railspec[cluster]``. ``progress``: called
    with the number of games just finished."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        variant = load(plan.variant)
    check_plan(plan, variant)
    variant.module()  # build (or fetch) the engine once, before any worker needs it
    workers = default_workers() if workers is None else workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, not {workers!r}")
    chunks = _chunks(plan.games, workers)
    results: dict[int, list[dict]] = {}
    if ray_address is not None:
        results = _run_on_ray(plan, chunks, ray_address, progress)
    elif workers == 1:
        _WORKER_VARIANTS[plan.variant] = variant
        for i, chunk in enumerate(chunks):
            results[i] = play_chunk(plan, chunk)
            if progress:
                progress(len(chunk))
    else:
        import concurrent.futures as futures
        import multiprocessing
        context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        with futures.ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            pending = {pool.submit(play_chunk, plan, chunk): i for i, chunk in enumerate(chunks)}
            for done in futures.as_completed(pending):
                i = pending[done]
                results[i] = done.result()
                if progress:
                    progress(len(chunks[i]))
    return [record for i in range(len(chunks)) for record in results[i]]


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


def _run_on_ray(plan: CampaignPlan, chunks, address: str, progress) -> dict[int, list[dict]]:
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
    try:
        task = ray.remote(play_chunk)
        refs = {task.remote(plan, chunk): i for i, chunk in enumerate(chunks)}
        results: dict[int, list[dict]] = {}
        waiting = list(refs)
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            for ref in ready:
                i = refs[ref]
                results[i] = ray.get(ref)
                if progress:
                    progress(len(chunks[i]))
        return results
    finally:
        if started_here:
            ray.shutdown()


def timed_campaign(plan: CampaignPlan, **options) -> tuple[list[dict], float]:
    """:func:`run_campaign` and its wall time in seconds."""
    start = time.perf_counter()
    records = run_campaign(plan, **options)
    return records, time.perf_counter() - start
