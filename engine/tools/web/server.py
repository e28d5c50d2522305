"""The ASGI app of ``railspec play`` (Starlette; the ``play`` extra): the page, its files,
and a JSON API over :mod:`.sessions`.

    GET  /                              the page
    GET  /static/NAME                   its script and style sheet
    GET  /api/config                    the variant's public facts, the command line's choices
    POST /api/games                     a new game {players, seat, agents, seed}, or a saved one {save: NAME}
    GET  /api/games/ID                  the game as the person sees it
    GET  /api/games/ID/map              its map, SVG
    POST /api/games/ID/act              the person's decision {"action": NAME}
    POST /api/games/ID/agent            one decision of the agent to move
    POST /api/games/ID/undo             back to the person's previous decision
    POST /api/games/ID/save             the game saved on the server's side: the save's name and time
    GET  /api/saves                     the saves of this variant: name, time, seat, decisions
    POST /api/replays                   a replay of a trace {"trace": TEXT}
    GET  /api/replays/ID?step=K         the replay at step K
    GET  /api/replays/ID/map?step=K     its map at step K

Every refusal is a 4xx with ``{"error": "one line"}``, and changes nothing. Before the app
sees a request, :mod:`.guard` refuses a ``Host`` the server is not served under and a POST
body that is not ``application/json``. A body is at most :data:`MAX_BODY` bytes. A save
holds the whole state (the deck, every hand): it is written in the saves' folder
(:mod:`.saves`) and never sent; the page knows it by name.

What the server logs (the ``railspec.play`` logger; ``railspec play`` prints it on
stderr): one line for each refused request and each connection closed before its request
was read; a traceback only for a failure of the server itself (a 500).

The handlers (:class:`PlayApp`) are plain Python over a request's few parts; only
:func:`create_app` touches Starlette, imported as the app is made (the command line loads
this module at every start, and Starlette would cost it 70 ms).
"""
from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ...runtime.game import Variant
from . import require_extra, sessions
from .guard import LOCAL, Guard, Hosts
from .saves import DEFAULT_FOLDER, SaveFolder
from .sessions import RequestError

#: The largest request body read (a request is a few fields; a trace may be long).
MAX_BODY = 8 * 1024 * 1024
#: The page's files, by the name the page asks for, and their types.
STATIC = Path(__file__).parent / "static"
FILES = {"play.js": "text/javascript; charset=utf-8", "play.css": "text/css; charset=utf-8"}
#: Where the server's lines go.
log = logging.getLogger("railspec.play")

T = TypeVar("T")
#: Runs a blocking function off the event loop (Starlette's ``run_in_threadpool``).
Offload = Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class Reply:
    """What a handler answers: ``data`` as JSON, or ``text`` (an SVG), or the page's
    ``file``, with its status and media type."""

    data: Any = None
    status: int = 200
    text: str | None = None
    file: Path | None = None
    media_type: str = "application/json"


async def read_body(request: Any) -> dict:
    """The request's JSON object, read up to :data:`MAX_BODY` bytes."""
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise RequestError(400, "a bad Content-Length header")
        if int(length) > MAX_BODY:
            raise RequestError(413, f"a body of {int(length):,} bytes; at most {MAX_BODY:,}")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise RequestError(413, f"a body of more than {MAX_BODY:,} bytes")
    if not data:
        return {}
    try:
        value = json.loads(bytes(data).decode("utf-8"))
    except UnicodeDecodeError:
        raise RequestError(400, "the body is not UTF-8 text") from None
    except (ValueError, RecursionError):
        raise RequestError(400, "the body is not JSON") from None
    if not isinstance(value, dict):
        raise RequestError(400, f"the body is a JSON object, not {type(value).__name__}")
    return value


def step_of(request: Any, replay: sessions.ReplaySession) -> int:
    """The ``step`` query parameter, checked against ``replay``."""
    text = request.query_params.get("step", "0")
    if not text.isdigit() or len(text) > 9:
        raise RequestError(400, f"a step is a whole number from 0 to {replay.steps}")
    return replay.step_index(int(text))


def where(request: Any) -> str:
    """A request's method and path, cut, for a log line or a message."""
    return f"{request.method} {request.url.path[:80]}"


class PlayApp:
    """The handlers of one variant's app: each takes a request and returns a
    :class:`Reply` (or raises :class:`RequestError`). ``offload`` runs the engine's work
    off the event loop."""

    def __init__(self, variant: Variant, defaults: sessions.Defaults, store: sessions.Store, saves: SaveFolder,
                 replay: sessions.ReplaySession | None, offload: Offload) -> None:
        self.variant, self.defaults, self.store, self.saves = variant, defaults, store, saves
        self.replay, self.offload = replay, offload
        self.facts = sessions.variant_facts(variant)
        if replay is not None:
            store.add(replay)
            replay.pinned = True

    def routes(self) -> list[tuple[str, str, Callable[[Any], Awaitable[Reply]]]]:
        """Each path, its method and its handler."""
        return [
            ("/", "GET", self.page), ("/static/{name}", "GET", self.static), ("/api/config", "GET", self.config),
            ("/api/games", "POST", self.new_game), ("/api/games/{id}", "GET", self.show_game),
            ("/api/games/{id}/map", "GET", self.game_map), ("/api/games/{id}/act", "POST", self.act),
            ("/api/games/{id}/agent", "POST", self.agent), ("/api/games/{id}/undo", "POST", self.undo),
            ("/api/games/{id}/save", "POST", self.save), ("/api/saves", "GET", self.list_saves),
            ("/api/replays", "POST", self.new_replay), ("/api/replays/{id}", "GET", self.show_replay),
            ("/api/replays/{id}/map", "GET", self.replay_map),
        ]

    async def locked(self, session: Any, work: Callable[[], T]) -> T:
        """``work()`` in a worker thread with the session's lock held: the engine's calls
        (and an agent's thinking) never block the event loop, and one session is changed
        by one request at a time."""
        def run() -> T:
            with session.lock:
                return work()
        return await self.offload(run)

    async def page(self, request: Any) -> Reply:
        """The page."""
        return Reply(file=STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def static(self, request: Any) -> Reply:
        """The page's script or style sheet."""
        name = request.path_params["name"]
        if name not in FILES:
            raise RequestError(404, f"no file {name[:40]!r}")
        return Reply(file=STATIC / name, media_type=FILES[name])

    async def config(self, request: Any) -> Reply:
        """The variant's public facts and the command line's choices."""
        d = self.defaults
        return Reply({"variant": self.facts, "players": d.players, "seat": d.seat, "agents": list(d.agents),
                      "delay_ms": round(d.delay * 1000), "replay": self.replay.id if self.replay else None})

    async def new_game(self, request: Any) -> Reply:
        """A new game, or a saved one."""
        body = await read_body(request)
        session = await self.offload(sessions.new_play, self.variant, body, self.defaults, self.saves)
        self.store.add(session)
        return Reply(await self.locked(session, session.view), status=201)

    async def show_game(self, request: Any) -> Reply:
        """The game as the person sees it."""
        session = self.store.get(request.path_params["id"], "play")
        return Reply(await self.locked(session, session.view))

    async def game_map(self, request: Any) -> Reply:
        """The game's map, SVG."""
        session = self.store.get(request.path_params["id"], "play")
        svg = await self.locked(session, lambda: sessions.map_svg(self.variant, session.observation()))
        return Reply(text=svg, media_type="image/svg+xml")

    async def _decided(self, request: Any, decide: Callable[[Any], None]) -> Reply:
        """``decide(session)`` on the request's game (its body read and capped all the
        same), then the game's view."""
        session = self.store.get(request.path_params["id"], "play")
        await read_body(request)

        def work() -> dict:
            decide(session)
            return session.view()
        return Reply(await self.locked(session, work))

    async def act(self, request: Any) -> Reply:
        """The person's decision, by its action name."""
        session = self.store.get(request.path_params["id"], "play")
        body = await read_body(request)
        if set(body) != {"action"}:
            raise RequestError(400, 'the body is {"action": NAME}, the name of a legal action')

        def work() -> dict:
            session.act(body["action"])
            return session.view()
        return Reply(await self.locked(session, work))

    async def agent(self, request: Any) -> Reply:
        """One decision of the agent to move."""
        return await self._decided(request, lambda session: session.agent_move())

    async def undo(self, request: Any) -> Reply:
        """Back to the person's previous decision."""
        return await self._decided(request, lambda session: session.take_back())

    async def save(self, request: Any) -> Reply:
        """The game saved on the server's side: its name and time only."""
        session = self.store.get(request.path_params["id"], "play")
        await read_body(request)
        # the state is read under the session's lock, then written: only the name is sent
        text = await self.locked(session, session.state_json)
        return Reply(await self.offload(self.saves.save, text, session.seat), status=201)

    async def list_saves(self, request: Any) -> Reply:
        """The saves of this variant."""
        return Reply({"folder": str(self.saves.path), "saves": await self.offload(self.saves.listing)})

    async def new_replay(self, request: Any) -> Reply:
        """A replay of a trace."""
        body = await read_body(request)
        if set(body) != {"trace"}:
            raise RequestError(400, 'the body is {"trace": TEXT}, the text of a trace file')
        session = await self.offload(sessions.new_replay, self.variant, body["trace"])
        self.store.add(session)
        return Reply(await self.locked(session, lambda: session.view(0)), status=201)

    async def show_replay(self, request: Any) -> Reply:
        """A replay at a step."""
        session = self.store.get(request.path_params["id"], "replay")
        step = step_of(request, session)
        return Reply(await self.locked(session, lambda: session.view(step)))

    async def replay_map(self, request: Any) -> Reply:
        """A replay's map at a step, SVG."""
        session = self.store.get(request.path_params["id"], "replay")
        step = step_of(request, session)
        svg = await self.locked(session, lambda: sessions.map_svg(self.variant, session.observation(step)))
        return Reply(text=svg, media_type="image/svg+xml")


def refused_line(request: Any, status: int, message: str) -> str:
    """The log line of a refused request."""
    return f"refused {where(request)}: {status} {message[:200]}"


def create_app(variant: Variant, defaults: sessions.Defaults, store: sessions.Store | None = None,
               replay: sessions.ReplaySession | None = None, saves: SaveFolder | None = None,
               hosts: Hosts = LOCAL) -> Any:
    """The Starlette app for one variant. ``defaults``: the command line's choices for new
    games; ``replay``: a trace's replay to open the page on (kept however long it is
    idle); ``saves``: where games are saved (default: :data:`~.saves.DEFAULT_FOLDER` in
    the current directory); ``hosts``: the names it answers to (default: this machine's
    local names, any port). Without the ``play`` extra:
    :class:`~railspec.tools.web.MissingExtraError`."""
    require_extra()
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.requests import ClientDisconnect
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Route

    handlers = PlayApp(variant, defaults, store or sessions.Store(), saves or SaveFolder(DEFAULT_FOLDER, variant),
                       replay, run_in_threadpool)

    def respond(reply: Reply) -> Response:
        if reply.file is not None:
            return FileResponse(reply.file, media_type=reply.media_type)
        if reply.text is not None:
            return Response(reply.text, status_code=reply.status, media_type=reply.media_type)
        return JSONResponse(reply.data, status_code=reply.status)

    def endpoint(handler: Callable[[Any], Awaitable[Reply]]) -> Callable[[Any], Awaitable[Response]]:
        async def run(request: Any) -> Response:
            return respond(await handler(request))
        return run

    def error(request: Any, status: int, message: str) -> Response:
        log.info(refused_line(request, status, message))
        return JSONResponse({"error": message}, status_code=status)

    async def ordinary(request: Any, err: Exception) -> Response:
        # a refusal, or a connection closed before its request was read: one line each
        if isinstance(err, RequestError):
            return error(request, err.status, err.message)
        if isinstance(err, HTTPException):
            words = {404: "no such page", 405: "that method is not allowed here"}.get(err.status_code, err.detail)
            return error(request, err.status_code, f"{words}: {where(request)}")
        log.info(f"{where(request)}: the connection was closed before the request was read")
        return Response(status_code=400)  # nobody is left to read it

    async def failed(request: Any, err: Exception) -> Response:
        # a bug, not the request's fault: one line sent, no traceback (the server logs it)
        return JSONResponse({"error": f"the server failed: {type(err).__name__}"}, status_code=500)

    routes = [Route(path, endpoint(handler), methods=[method]) for path, method, handler in handlers.routes()]
    app = Starlette(routes=routes, middleware=[Middleware(Guard, hosts=hosts)],
                    exception_handlers={RequestError: ordinary, HTTPException: ordinary, ClientDisconnect: ordinary,
                                        Exception: failed})
    app.state.store = handlers.store
    app.state.saves = handlers.saves
    return app


__all__ = ["FILES", "MAX_BODY", "PlayApp", "Reply", "create_app", "read_body", "refused_line", "step_of", "where"]
