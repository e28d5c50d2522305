"""The command line's ``play``: a variant played in the browser against the agents, or a
trace replayed (docs/play.md).

    railspec play VARIANT [--players N] [--agents A,B,…] [--seat K] [--port P] [--allow-host NAME]
                          [--trace FILE] [--saves DIR]

Kept apart from :mod:`railspec.tools.cli`, which registers it with :func:`add_commands`;
the web server's libraries (the ``play`` extra) are imported only when the command runs.
"""
from __future__ import annotations

import logging
import socket
import sys

from ..compiler.base import files
from ..compiler.base.errors import RailspecError
from . import trace, web
from .args import UsageError, agent_list, integer, load_variant, port_number, whole
from .web import sessions
from .web.guard import Hosts
from .web.saves import DEFAULT_FOLDER, SaveFolder, SaveFolderError
from .web.server import create_app
from .web.server import log as server_log

DEFAULT_AGENTS = ("one-step",)


def _listening(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` (0: any free port), or the one-line error."""
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(info[0], socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(info[4])
    except OSError as err:
        raise UsageError(f"play: cannot listen on {host}:{port}: {err.strerror or err}") from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def _replay(variant, path: str) -> sessions.ReplaySession:
    try:
        return sessions.new_replay(variant, files.read_text(path, "trace file"))
    except sessions.RequestError as err:
        raise trace.TraceError(f"{path}: {err.message}") from None


def _log_lines() -> None:
    """The server's lines (a refused request, a closed connection: one line each) on
    stderr, each after ``railspec play:``."""
    logger = logging.getLogger(server_log.name)
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("railspec play: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False


def cmd_play(args) -> int:
    """``play``: serve the page until Ctrl-C."""
    web.require_extra()
    # imported when the command runs: the play extra is optional, and loading it would
    # slow every start of the command line
    import uvicorn

    variant = load_variant(args.variant)
    players = args.players if args.players is not None else variant.ir.min_players
    try:
        players = variant.check_players(players)
    except RailspecError as err:
        raise UsageError(f"play: --players: {err}") from None
    if not 0 <= args.seat < players:
        raise UsageError(f"play: --seat is 0 to {players - 1} in a {players}-player game, not {args.seat}")
    if args.delay < 0 or args.delay > 60:
        raise UsageError(f"play: --delay is 0 to 60 seconds, not {args.delay}")
    saves = SaveFolder(args.saves, variant)
    try:
        saves.check()
    except SaveFolderError as err:
        raise UsageError(f"play: --saves: {err}") from None
    replay = _replay(variant, args.trace) if args.trace else None
    defaults = sessions.Defaults(players, args.seat, args.agents or DEFAULT_AGENTS, args.seed, args.delay)
    sock = _listening(args.host, args.port)
    host, port = sock.getsockname()[:2]
    # the names the page may be reached by: where it listens, this machine's local names
    # and those --allow-host adds; any other Host is refused (a DNS-rebinding page's)
    app = create_app(variant, defaults, replay=replay, saves=saves,
                     hosts=Hosts.serving(args.host, port, args.allow_host or ()))
    shown = f"[{host}]" if ":" in host else host
    what = f"the replay of {args.trace}" if replay is not None else f"{variant.name}, {players} players"
    print(f"railspec play: {what} at http://{shown}:{port}/ (Ctrl-C stops)", flush=True)
    _log_lines()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"--delay is a number of seconds, not {text!r}") from None
    if not 0 <= value <= 60:
        raise UsageError(f"--delay is 0 to 60 seconds, not {text}")
    return value


def add_commands(sub, formatter) -> None:
    """Register ``play`` with the command line's subparsers."""
    p = sub.add_parser("play", help="play a variant against the agents, or replay a trace, in the browser",
                       formatter_class=formatter)
    p.add_argument("variant", help="a stock variant name (e.g. usa) or a .rail spec file")
    p.add_argument("--players", type=whole(1), default=None, help="players (default: the fewest the variant takes)")
    p.add_argument("--agents", type=agent_list, default=None,
                   help=f"the agents of the other seats, comma-separated, used in turn (default: "
                        f"{','.join(DEFAULT_AGENTS)})")
    p.add_argument("--seat", type=whole(0), default=0, help="your seat, from 0")
    p.add_argument("--seed", type=integer, default=None, help="the seed of new games (default: a random one each)")
    p.add_argument("--delay", type=_delay, default=0.7, help="seconds the page waits before each agent's decision")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    p.add_argument("--port", type=port_number, default=8000, help="the port to listen on (0: any free port)")
    p.add_argument("--allow-host", metavar="NAME", action="append", default=None,
                   help="a name the page may also be reached by (repeatable); besides it, the server answers "
                        "only to --host, localhost, 127.0.0.1 and [::1] (and any address with --host 0.0.0.0)")
    p.add_argument("--trace", metavar="FILE", default=None,
                   help="open on the replay of this trace (railspec trace) instead of a new game")
    p.add_argument("--saves", metavar="DIR", default=DEFAULT_FOLDER,
                   help="the folder the page's Save writes to and Load reads from, made at the first save "
                        "(a relative one is in the current directory)")
    p.set_defaults(run=cmd_play)


__all__ = ["add_commands", "cmd_play"]
