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

Every refusal is a 4xx with ``{"error": "one line"}``, and changes nothing. A body is JSON,
at most :data:`MAX_BODY` bytes. A save holds the whole state (the deck, every hand): it is
written in the saves' folder (:mod:`.saves`) and never sent; the page knows it by name.
"""
from __future__ import annotations

import json
from pathlib import Path

from . import require_extra, sessions
from .saves import DEFAULT_FOLDER, SaveFolder
from .sessions import RequestError

#: The largest request body read (a request is a few fields; a trace may be long).
MAX_BODY = 8 * 1024 * 1024
#: The page's files, by the name the page asks for, and their types.
STATIC = Path(__file__).parent / "static"
FILES = {"play.js": "text/javascript; charset=utf-8", "play.css": "text/css; charset=utf-8"}


async def _body(request) -> dict:
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


def _step(request, replay) -> int:
    text = request.query_params.get("step", "0")
    if not text.isdigit() or len(text) > 9:
        raise RequestError(400, f"a step is a whole number from 0 to {replay.steps}")
    return replay.step_index(int(text))


def create_app(variant, defaults: sessions.Defaults, store: sessions.Store | None = None,
               replay: sessions.ReplaySession | None = None, saves: SaveFolder | None = None):
    """The Starlette app for one variant. ``defaults``: the command line's choices for new
    games; ``replay``: a trace's replay to open the page on (kept however long it is
    idle); ``saves``: where games are saved (default: :data:`~.saves.DEFAULT_FOLDER` in
    the current directory). Without the ``play`` extra:
    :class:`~railspec.tools.web.MissingExtraError`."""
    require_extra()
    # the extra is imported here, as the app is made: the command line loads this module
    # at every start, and Starlette would cost it 70 ms
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Route

    def _error(status: int, message: str):
        return JSONResponse({"error": message}, status_code=status)

    store = store or sessions.Store()
    saves = saves or SaveFolder(DEFAULT_FOLDER, variant)
    facts = sessions.variant_facts(variant)
    if replay is not None:
        store.add(replay)
        replay.pinned = True

    async def locked(session, work):
        """``work()`` in a worker thread with the session's lock held: the engine's calls
        (and an agent's thinking) never block the event loop, and one session is changed
        by one request at a time."""
        def run():
            with session.lock:
                return work()
        return await run_in_threadpool(run)

    async def page(request):
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def static(request):
        name = request.path_params["name"]
        if name not in FILES:
            raise RequestError(404, f"no file {name[:40]!r}")
        return FileResponse(STATIC / name, media_type=FILES[name])

    async def config(request):
        return JSONResponse({"variant": facts, "players": defaults.players, "seat": defaults.seat,
                             "agents": list(defaults.agents), "delay_ms": round(defaults.delay * 1000),
                             "replay": replay.id if replay is not None else None})

    async def new_game(request):
        body = await _body(request)
        session = await run_in_threadpool(sessions.new_play, variant, body, defaults, saves)
        store.add(session)
        return JSONResponse(await locked(session, session.view), status_code=201)

    async def show_game(request):
        session = store.get(request.path_params["id"], "play")
        return JSONResponse(await locked(session, session.view))

    async def game_map(request):
        session = store.get(request.path_params["id"], "play")
        svg = await locked(session, lambda: sessions.map_svg(variant, session.observation()))
        return Response(svg, media_type="image/svg+xml")

    async def act(request):
        session = store.get(request.path_params["id"], "play")
        body = await _body(request)
        if set(body) != {"action"}:
            raise RequestError(400, 'the body is {"action": NAME}, the name of a legal action')

        def work():
            session.act(body["action"])
            return session.view()
        return JSONResponse(await locked(session, work))

    async def agent(request):
        session = store.get(request.path_params["id"], "play")
        await _body(request)  # read (and capped) all the same

        def work():
            session.agent_move()
            return session.view()
        return JSONResponse(await locked(session, work))

    async def undo(request):
        session = store.get(request.path_params["id"], "play")
        await _body(request)

        def work():
            session.take_back()
            return session.view()
        return JSONResponse(await locked(session, work))

    async def save(request):
        session = store.get(request.path_params["id"], "play")
        await _body(request)
        # the state is read under the session's lock, then written: only the name is sent
        text = await locked(session, session.state_json)
        saved = await run_in_threadpool(saves.save, text, session.seat)
        return JSONResponse(saved, status_code=201)

    async def list_saves(request):
        return JSONResponse({"folder": str(saves.path), "saves": await run_in_threadpool(saves.listing)})

    async def new_replay(request):
        body = await _body(request)
        if set(body) != {"trace"}:
            raise RequestError(400, 'the body is {"trace": TEXT}, the text of a trace file')
        session = await run_in_threadpool(sessions.new_replay, variant, body["trace"])
        store.add(session)
        return JSONResponse(await locked(session, lambda: session.view(0)), status_code=201)

    async def show_replay(request):
        session = store.get(request.path_params["id"], "replay")
        step = _step(request, session)
        return JSONResponse(await locked(session, lambda: session.view(step)))

    async def replay_map(request):
        session = store.get(request.path_params["id"], "replay")
        step = _step(request, session)
        svg = await locked(session, lambda: sessions.map_svg(variant, session.observation(step)))
        return Response(svg, media_type="image/svg+xml")

    async def refused(request, err):
        return _error(err.status, err.message)

    async def http_error(request, err):
        words = {404: "no such page", 405: "that method is not allowed here"}.get(err.status_code, err.detail)
        return _error(err.status_code, f"{words}: {request.method} {request.url.path[:80]}")

    async def failed(request, err: Exception):
        # a bug, not the request's fault: one line, no traceback sent
        return _error(500, f"the server failed: {type(err).__name__}")

    routes = [
        Route("/", page), Route("/static/{name}", static), Route("/api/config", config),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{id}", show_game), Route("/api/games/{id}/map", game_map),
        Route("/api/games/{id}/act", act, methods=["POST"]), Route("/api/games/{id}/agent", agent, methods=["POST"]),
        Route("/api/games/{id}/undo", undo, methods=["POST"]), Route("/api/games/{id}/save", save, methods=["POST"]),
        Route("/api/saves", list_saves),
        Route("/api/replays", new_replay, methods=["POST"]),
        Route("/api/replays/{id}", show_replay), Route("/api/replays/{id}/map", replay_map),
    ]
    app = Starlette(routes=routes, exception_handlers={RequestError: refused, HTTPException: http_error,
                                                      Exception: failed})
    app.state.store = store
    app.state.saves = saves
    return app


__all__ = ["FILES", "MAX_BODY", "create_app"]
