"""``railspec play``'s server (docs/play.md), through Starlette's TestClient: whole games
against the agents by the game's own action names, what the person is sent (their own
observation only, checked against worlds that differ only in what they cannot see),
refusals that change nothing, undo (the agents answering as they did), saves kept on the
server's side (saved, listed, loaded by name only; traversal and corrupted saves refused),
trace replays, idle games dropped, and 1,000 random and malformed requests."""
from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path
from xml.sax.saxutils import quoteattr

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")  # what Starlette's TestClient sends requests with

from starlette.testclient import TestClient  # noqa: E402

import railspec  # noqa: E402
from railspec.compiler.base.schema import Field  # noqa: E402
from railspec.tools import trace  # noqa: E402
from railspec.tools.cli import main  # noqa: E402
from railspec.tools.web import guard, sessions  # noqa: E402
from railspec.tools.web.saves import SaveFolder  # noqa: E402
from railspec.tools.web.server import MAX_BODY, create_app  # noqa: E402

#: Where the test client says the server is: one of the names it answers to.
BASE = "http://127.0.0.1:8000"
#: The type a POST body must have.
JSON = {"content-type": "application/json"}


def client(variant: str = "usa", players: int = 2, seed: int = 3, store=None, saves=None, agents=("one-step",)):
    """The app and a test client; ``saves``: the saves' folder (a test that saves gives a
    temporary one)."""
    v = railspec.load(variant)
    folder = SaveFolder(saves, v) if saves is not None else None
    app = create_app(v, sessions.Defaults(players, 0, tuple(agents), seed, 0.0), store=store, saves=folder)
    return v, app, TestClient(app, base_url=BASE)


def person_choice(view: dict, tunnels: set[str], rng: random.Random) -> str:
    """The test's player: a station first, then claims (tunnels first, then the longest),
    else the first listed decision."""
    choices = view["choices"]
    cities = [c for c in choices if c["city"] is not None]
    if cities and not any(e["seat"] == view["seat"] and e["action"].split()[:2] == cities[0]["name"].split()[:2]
                          for e in view["log"]):
        return cities[0]["name"]
    claims = [c for c in choices if c["route"] is not None]
    tunnel = [c for c in claims if c["route"] in tunnels]
    if tunnel:
        return tunnel[0]["name"]
    if claims:
        return max(claims, key=lambda c: (len(c["name"]), rng.random()))["name"]
    return choices[0]["name"]


def other_tickets(game, seat: int) -> set[str]:
    state = game.state()
    names = [t.name for t in game.variant.tickets]
    mine = set(state["tickets"][seat]) | set(state["setup_offer"][seat]) | set(state["offer"])
    held = {t for p in range(game.players) if p != seat for t in state["tickets"][p] + state["setup_offer"][p]}
    return {names[t] for t in held - mine}


def europe_at_a_tunnel(only_decline: bool) -> railspec.Game:
    """A 3-player Europe game at seat 0's tunnel decision, found by seeded random play
    (claims preferred): one where only "tunnel decline" is offered, or one where a
    payment is offered too."""
    v = railspec.load("europe")
    for seed in range(200):
        game, rng = v.new_game(players=3, seed=seed), random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            if game.current_player == 0 and game.observation(0)["phase"] == "tunnel" \
                    and (len(legal) == 1) == only_decline:
                return game
            claims = [a for a in legal if v.actions[a].kind == "claim"]
            game.apply(rng.choice(claims) if claims and rng.random() < 0.7 else rng.choice(legal))
    raise AssertionError("no such game in 200 seeds")


def usa_with_a_full_hand() -> railspec.Game:
    """A 3-player USA game at seat 0's turn with at least 14 cards in hand (many routes to
    claim), found by seeded play that mostly draws."""
    v = railspec.load("usa")
    game, rng = v.new_game(players=3, seed=9), random.Random(3)
    while not (game.current_player == 0 and game.observation(0)["phase"] == "turn"
               and sum(game.observation(0)["hand"]) >= 14):
        legal = game.legal_actions()
        draws = [a for a in legal if v.actions[a].kind in ("draw_blind", "keep_tickets", "keep_setup")]
        game.apply(rng.choice(draws) if draws and rng.random() < 0.9 else rng.choice(legal))
    return game


def saved(folder: Path, game: railspec.Game, seat: int = 0, tag: str = "000000") -> str:
    """``game`` written as a save of ``seat`` in ``folder``; the save's name."""
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{game.variant.key}-20260101-000000-seat{seat}-{tag}.json"
    (folder / name).write_text(game.to_json(), encoding="utf-8")
    return name


def play_through(c, app, v, tunnels=frozenset(), check_every: int = 7) -> tuple[dict, list[str]]:
    """A whole game by the API; at some of the person's decisions the view is compared with
    the view of a world resampled from what the person sees (the same view, or the page
    would be sent something the person cannot see)."""
    view = c.post("/api/games", json={}).json()
    gid, rng, texts, n = view["id"], random.Random(1), [], 0
    session = app.state.store.sessions[gid]
    while not view["over"]:
        if view["yours"]:
            n += 1
            if n % check_every == 0:
                real = session.game
                session.game = real.resample(session.seat, seed=n)
                assert c.get(f"/api/games/{gid}").json() == view
                session.game = real
            response = c.post(f"/api/games/{gid}/act", json={"action": person_choice(view, tunnels, rng)})
        else:
            response = c.post(f"/api/games/{gid}/agent")
        assert response.status_code == 200, response.text
        texts.append(response.text)
        view = response.json()
        assert view["observer"] == 0
        if not view["over"]:
            hidden = other_tickets(session.game, 0)
            assert not any(shows(view, name) for name in hidden)
    return view, texts


def shows(value, name: str, key: str = "") -> bool:
    """Whether the JSON ``value`` shows a ticket's name: as a value, or inside any text but a
    route's name and an action's (a ticket may join the two cities of a route, and share its
    name: the United Kingdom's Bristol-Southampton, Cambridge-London)."""
    if isinstance(value, dict):
        return any(shows(v, name, k) for k, v in value.items())
    if isinstance(value, list):
        return any(shows(v, name, key) for v in value)
    if isinstance(value, str) and key != "route":
        return value == name or (name in value and key not in ("action", "name"))
    return False


def test_a_whole_usa_game_by_action_names():
    v, app, c = client("usa", 2)
    view, _ = play_through(c, app, v)
    assert view["over"] and view["breakdown"]["rows"] and view["winners"]
    keys = [col["key"] for col in view["breakdown"]["columns"]]
    assert keys == [item.name for item in v.assembly.score_items]
    # what each part of the rules added: the columns name their owners
    owners = {col["owner"] for col in view["breakdown"]["columns"]}
    assert "the base game" in owners and len(owners) > 1
    game = app.state.store.sessions[view["id"]].game
    assert [row["cells"][keys.index("total")] for row in view["breakdown"]["rows"]] == game.scores()


def test_a_whole_europe_game_with_a_tunnel_and_a_station():
    v, app, c = client("europe", 3)
    tunnels = {v.routes[r].name for r in railspec.playtest.render.looks(v.ir).dashed}
    view, _ = play_through(c, app, v, tunnels=tunnels)
    mine = [e["action"] for e in view["log"] if e["seat"] == 0]
    kinds = {v.actions[v.action_id(name)].kind for name in mine}
    assert {"build_station", "tunnel_pay"} <= kinds or {"build_station", "tunnel_decline"} <= kinds, kinds
    assert any(v.routes[v.actions[v.action_id(n)].route].name in tunnels for n in mine
               if v.actions[v.action_id(n)].route >= 0)


def test_a_whole_japan_game_with_bullet_routes_taken_for_nobody() -> None:
    """Japan in the browser's API: the person claims Bullet Train routes (preferred, as
    tunnels above), which go to no player; the map draws them as nobody's, never in a seat's
    colour, and the breakdown has the Bullet Train bonus (docs/rules.md #50)."""
    v, app, c = client("japan", 3)
    bullet = {v.routes[r].name for r in railspec.playtest.render.looks(v.ir).badges}
    view, _ = play_through(c, app, v, tunnels=bullet)
    game = app.state.store.sessions[view["id"]].game
    nobody = [r for r, who in enumerate(game.state()["owner"]) if who == game.players]
    mine = [e["action"] for e in view["log"] if e["seat"] == 0]
    assert nobody and any(v.routes[r].name in bullet for r in nobody)
    assert any(v.actions[v.action_id(n)].route in nobody for n in mine)
    svg = c.get(f"/api/games/{view['id']}/map").text
    drawn = {r for r in range(len(v.routes))
             if f'<g class="route claimed nobody" data-route={quoteattr(v.routes[r].name)}' in svg}
    assert drawn == set(nobody)
    keys = [col["key"] for col in view["breakdown"]["columns"]]
    assert "bullet_bonus" in keys
    assert [row["cells"][keys.index("total")] for row in view["breakdown"]["rows"]] == game.scores()


def test_a_whole_northern_lights_game_with_pairs_for_a_ferry_and_bonus_cards():
    """A map whose claims may wait for a decision of the same player (a ferry's pairs of one
    colour, given one at a time), whose claims draw cards unseen by the others (the draw
    bonus), and whose score has columns of its own (the bonus cards dealt)."""
    v, app, c = client("northern_lights", 3)
    view, _ = play_through(c, app, v)
    mine = [e["action"] for e in view["log"] if e["seat"] == 0]
    assert any(v.actions[v.action_id(name)].kind == "substitute_set" for name in mine), mine
    keys = [col["key"] for col in view["breakdown"]["columns"]]
    assert {"bonus_cards", "bonus_card_1", "bonus_card_4", "bonus_drawn"} <= set(keys), keys
    game = app.state.store.sessions[view["id"]].game
    assert [row["cells"][keys.index("total")] for row in view["breakdown"]["rows"]] == game.scores()


def test_a_whole_united_kingdom_game_with_technologies():
    """The United Kingdom's purchases and sets' cards are decisions of the page like any
    other: offered by name under the technology mechanic's title, bought by the agents,
    and the game ends with the technology columns in the breakdown."""
    v, app, c = client("united_kingdom", 3, seed=5)
    view, texts = play_through(c, app, v)
    assert view["over"]
    keys = [col["key"] for col in view["breakdown"]["columns"]]
    assert "technology_routes" in keys and "technology_tickets" in keys
    assert any("buy technology" in entry["action"] for entry in view["log"])


def test_a_built_track_bed_is_drawn_in_its_pieces_colour_and_redraws_the_map() -> None:
    """France's builds own no route, yet change the map (docs/rules.md #70): the page's map
    version follows the route colours a mechanic's state gives (Looks.route_colours), and
    the map draws the built bed, still free, in its piece's colour."""
    v = railspec.load("france")
    game = v.new_game(players=3, seed=2)
    rng = random.Random(2)
    while game.state()["phase"] != "track_piece":
        game.apply(rng.choice(game.legal_actions()))
    before = game.observation(0)
    build = v.actions[game.legal_actions()[0]]
    game.apply(build.id)
    after = game.observation(0)
    assert after["owner"] == before["owner"]
    assert sessions.map_version(v, after) != sessions.map_version(v, before)
    route = v.routes[build.route]
    svg = sessions.map_svg(v, after)
    drawn = svg.split(f"data-route={quoteattr(route.name)}", 1)[1].split("</g>", 1)[0]
    assert f'fill="{railspec.playtest.render.colour_of(v.ir.colours[build.colour].name)}"' in drawn
    assert f'fill="{railspec.playtest.render.colour_of(route.colour_name)}"' not in drawn


def test_the_view_is_the_seats_observation_and_public_facts():
    v, app, c = client("europe", 3)
    view = c.post("/api/games", json={"seat": 1}).json()
    session = app.state.store.sessions[view["id"]]
    assert view["observer"] == 1 and view["seat"] == 1
    assert view["observation"] == session.game.observation(1)
    full = session.game.state()
    text = json.dumps(view)
    # another seat's dealt tickets, and the deck's order, are nowhere in it
    for seat in (0, 2):
        for t in full["setup_offer"][seat]:
            assert v.tickets[t].name not in text
    assert json.dumps(full["deck"][-12:])[1:-1] not in text
    # the legal actions are offered only to the seat deciding
    assert view["choices"] == [] if session.game.current_player != 1 else view["choices"]


def test_only_legal_actions_are_taken_and_a_refusal_changes_nothing():
    v, app, c = client("usa", 2)
    view = c.post("/api/games", json={}).json()
    gid = view["id"]
    session = app.state.store.sessions[gid]
    before = session.game.to_json()
    offered = {choice["name"] for choice in view["choices"]}
    assert offered == {v.action_name(a) for a in session.game.legal_actions()}
    for body, status in [({"action": "draw blind"}, 422), ({"action": "no such action"}, 422),
                         ({"action": 7}, 400), ({"action": None}, 400), ({}, 400), ({"action": "pass", "x": 1}, 400)]:
        response = c.post(f"/api/games/{gid}/act", json=body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["error"]
    assert c.post(f"/api/games/{gid}/agent").status_code == 409  # the person's turn
    assert session.game.to_json() == before and session.log == []


def test_undo_goes_back_to_the_persons_previous_decision():
    v, app, c = client("usa", 2)
    view = c.post("/api/games", json={}).json()
    gid = view["id"]
    session = app.state.store.sessions[gid]
    assert c.post(f"/api/games/{gid}/undo").status_code == 409
    view = c.post(f"/api/games/{gid}/act", json={"action": view["choices"][0]["name"]}).json()
    while not view["yours"]:
        view = c.post(f"/api/games/{gid}/agent").json()
    before, log = session.game.to_json(), len(session.log)
    view = c.post(f"/api/games/{gid}/act", json={"action": view["choices"][0]["name"]}).json()
    while not view["yours"] and not view["over"]:
        view = c.post(f"/api/games/{gid}/agent").json()
    assert len(session.log) > log
    view = c.post(f"/api/games/{gid}/undo").json()
    assert view["yours"] and session.game.to_json() == before and len(view["log"]) == log


def _replies(c, gid: str, action: str) -> list[dict]:
    """The log's entries after the person's ``action``, up to their next decision."""
    view = c.post(f"/api/games/{gid}/act", json={"action": action}).json()
    while not view["yours"] and not view["over"]:
        view = c.post(f"/api/games/{gid}/agent").json()
    return view["log"]


@pytest.mark.parametrize("players, agents, turns", [(4, ("random",), 8), (4, ("one-step", "random", "greedy"), 8),
                                                    (2, ("ismcts",), 3)])
def test_after_an_undo_the_agents_answer_a_move_as_before(players, agents, turns):
    v, app, c = client("europe", players, seed=21, agents=agents)
    gid = c.post("/api/games", json={}).json()["id"]
    session = app.state.store.sessions[gid]
    rng = random.Random(5)
    for turn in range(turns):
        view = c.get(f"/api/games/{gid}").json()
        action = rng.choice(view["choices"])["name"]
        state, first = session.game.to_json(), _replies(c, gid, action)
        assert c.post(f"/api/games/{gid}/undo").status_code == 200 and session.game.to_json() == state
        assert _replies(c, gid, action) == first, turn
        # twice back and forth, and after another move taken back: still the same replies
        c.post(f"/api/games/{gid}/undo")
        other = [ch["name"] for ch in c.get(f"/api/games/{gid}").json()["choices"] if ch["name"] != action]
        if other:
            _replies(c, gid, other[0])
            c.post(f"/api/games/{gid}/undo")
        assert _replies(c, gid, action) == first, turn


def test_an_undo_that_kept_the_agents_as_they_were_would_be_seen():
    """The test above can fail: agents left as they were after an undo (their generators
    moved on) answer differently."""
    v, app, c = client("europe", 4, seed=21, agents=("random",))
    gid = c.post("/api/games", json={}).json()["id"]
    session = app.state.store.sessions[gid]
    session._agents_after = lambda length: session.agents
    rng, differed = random.Random(5), 0
    for _ in range(8):
        action = rng.choice(c.get(f"/api/games/{gid}").json()["choices"])["name"]
        first = _replies(c, gid, action)
        c.post(f"/api/games/{gid}/undo")
        differed += _replies(c, gid, action) != first
    assert differed


def test_save_list_and_load_a_game(tmp_path):
    folder = tmp_path / "saves"
    v, app, c = client("europe", 3, saves=folder)
    assert c.get("/api/saves").json() == {"folder": str(folder), "saves": []} and not folder.exists()
    view = c.post("/api/games", json={"seed": 11, "seat": 1}).json()
    gid = view["id"]
    session = app.state.store.sessions[gid]
    while not view["yours"]:
        view = c.post(f"/api/games/{gid}/agent").json()
    view = c.post(f"/api/games/{gid}/act", json={"action": view["choices"][0]["name"]}).json()
    saved = c.post(f"/api/games/{gid}/save")
    assert saved.status_code == 201 and set(saved.json()) == {"name", "time"}, saved.text
    name = saved.json()["name"]
    assert name.startswith("europe-") and name.endswith(".json") and "-seat1-" in name
    # the page is told a name and a time: nothing of the state
    full = session.game.state()
    assert "deck" not in saved.text and json.dumps(full["deck"][-8:])[1:-1] not in saved.text
    # the whole state, in the documented format, is in the folder (nothing half written beside it)
    assert sorted(os.listdir(folder)) == [name]
    text = (folder / name).read_text(encoding="utf-8")
    assert text == session.game.to_json() and v.game_from_json(text).to_json() == text
    assert main(["render", "europe", "--state", str(folder / name), "--out", str(tmp_path / "map.svg")]) == 0
    listed = c.get("/api/saves").json()["saves"]
    assert listed == [{"name": name, "time": saved.json()["time"], "seat": 1, "decisions": full["decisions"]}]
    # loaded by its name: the same game, the person in the seat saved, the agents the request names
    loaded = c.post("/api/games", json={"save": name, "agents": ["random"]})
    assert loaded.status_code == 201, loaded.text
    lid = loaded.json()["id"]
    assert lid != gid and app.state.store.sessions[lid].game.to_json() == text
    assert loaded.json()["seat"] == 1 and loaded.json()["agents"] == ["random", None, "random"]
    # an undo in the loaded game: its agents, made again from the save, answer as before
    view = loaded.json()
    while not view["yours"]:
        view = c.post(f"/api/games/{lid}/agent").json()
    action = view["choices"][-1]["name"]
    first = _replies(c, lid, action)
    assert len(first) > 1 and c.post(f"/api/games/{lid}/undo").status_code == 200
    assert _replies(c, lid, action) == first
    assert app.state.store.sessions[lid].game.to_json() != text
    # a later save is listed first
    later = app.state.saves.clock() + 61
    app.state.saves.clock = lambda: later
    second = c.post(f"/api/games/{lid}/save").json()["name"]
    assert [e["name"] for e in c.get("/api/saves").json()["saves"]] == [second, name]


def test_only_a_listed_save_is_loaded(tmp_path):
    folder = tmp_path / "saves"
    v, app, c = client("europe", 3, saves=folder)
    gid = c.post("/api/games", json={"seed": 2}).json()["id"]
    name = c.post(f"/api/games/{gid}/save").json()["name"]
    # a file of another variant's key, a link with a save's name, a save outside the folder
    usa_name = "usa-20260101-000000-seat0-abcdef.json"
    (folder / usa_name).write_text(railspec.load("usa").new_game(players=2, seed=1).to_json(), encoding="utf-8")
    outside = tmp_path / "europe-20260101-000000-seat0-012345.json"
    outside.write_text((folder / name).read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "europe-20260101-000000-seat0-0abcde.json").symlink_to(outside)
    assert [e["name"] for e in c.get("/api/saves").json()["saves"]] == [name]
    store = app.state.store
    count = len(store.sessions)
    for bad, status in [
        ("../" + name, 400), (f"../saves/{name}", 400), (str(folder / name), 400), (str(outside), 400),
        ("/etc/passwd", 400), ("..", 400), ("", 400), (name + "\x00", 400), (name.upper(), 400), ("x" * 5000, 400),
        (3, 400), (None, 400), ([name], 400),
        (usa_name, 404), ("europe-20260101-000000-seat0-0abcde.json", 404), (outside.name, 404),
        ("europe-20260101-000000-seat0-ffffff.json", 404),
    ]:
        response = c.post("/api/games", json={"save": bad})
        assert response.status_code == status, (bad, response.text)
        assert response.json()["error"] and "Traceback" not in response.text
    for body in ({"save": name, "seat": 0}, {"save": name, "players": 3}, {"state": "{}"}):
        response = c.post("/api/games", json=body)
        assert response.status_code == 400 and response.json()["error"], body
    assert len(store.sessions) == count


def test_a_corrupted_save_is_refused_with_a_clear_message(tmp_path):
    folder = tmp_path / "saves"
    v, app, c = client("europe", 3, saves=folder)
    gid = c.post("/api/games", json={"seed": 2}).json()["id"]
    good = app.state.store.sessions[gid].game.state()
    broken = {}
    for what, text in [("cut", json.dumps(good)[:200]), ("not-utf8", ""),
                       ("bad-hand", json.dumps({**good, "hands": [[-5] + h[1:] for h in good["hands"]]})),
                       ("usa", railspec.load("usa").new_game(players=2, seed=1).to_json()),
                       ("list", "[1, 2]")]:
        name = c.post(f"/api/games/{gid}/save").json()["name"]
        if what == "not-utf8":
            (folder / name).write_bytes(b"\xff\xfe{")
        else:
            (folder / name).write_text(text, encoding="utf-8")
        broken[name] = what
    listed = {e["name"]: e for e in c.get("/api/saves").json()["saves"]}
    assert set(listed) == set(broken)
    assert all(listed[n]["decisions"] is None for n, w in broken.items() if w != "bad-hand")
    assert all("problem" in listed[n] for n, w in broken.items() if w in ("cut", "not-utf8", "usa", "list"))
    count = len(app.state.store.sessions)
    for name, what in broken.items():
        response = c.post("/api/games", json={"save": name})
        assert response.status_code == 422, (what, response.text)
        message = response.json()["error"]
        assert message.startswith(f"the save {name} is not a state of Europe: ") and "\n" not in message, message
    assert len(app.state.store.sessions) == count
    assert c.get(f"/api/games/{gid}").status_code == 200


def test_saves_in_a_folder_that_is_a_file(tmp_path, capsys):
    blocker = tmp_path / "blocker"
    blocker.write_text("", encoding="utf-8")
    assert main(["play", "usa", "--saves", str(blocker)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"railspec: play: --saves: {blocker} is a file, not a folder for the saved games"
    assert main(["play", "usa", "--saves", str(blocker / "inside")]) == 2
    assert capsys.readouterr().err.strip() == err
    # made a file after the server started: a save says so, and nothing is written
    v, app, c = client("usa", 2, saves=blocker)
    gid = c.post("/api/games", json={}).json()["id"]
    response = c.post(f"/api/games/{gid}/save")
    assert response.status_code == 507 and str(blocker) in response.json()["error"]
    assert c.get("/api/saves").json()["saves"] == [] and blocker.read_text(encoding="utf-8") == ""


def test_a_trace_replays_forward_and_back():
    v, app, c = client("usa", 2)
    lines = trace.record(v, 2, seed=4)
    response = c.post("/api/replays", json={"trace": trace.dumps(lines)})
    assert response.status_code == 201
    first = response.json()
    rid, steps = first["id"], first["steps"]
    assert steps == len(lines) - 2 and first["step"] == 0 and first["next"]["action"] == lines[1]["action"]
    end = c.get(f"/api/replays/{rid}", params={"step": steps}).json()
    assert end["over"] and end["next"] is None
    totals = [row["cells"][-1] for row in end["breakdown"]["rows"]]
    assert totals == [row["total"] for row in lines[-1]["breakdown"]] and end["winners"] == lines[-1]["winners"]
    middle = c.get(f"/api/replays/{rid}", params={"step": steps // 2}).json()
    assert [e["action"] for e in middle["log"]] == [line["action"] for line in lines[1:1 + steps // 2]]
    assert c.get(f"/api/replays/{rid}", params={"step": 0}).json() == first
    assert c.get(f"/api/replays/{rid}/map", params={"step": steps}).text.startswith("<svg")
    for bad in ("-1", str(steps + 1), "x", "1e3"):
        assert c.get(f"/api/replays/{rid}", params={"step": bad}).status_code == 400


def test_a_bad_trace_is_refused():
    v, app, c = client("usa", 2)
    lines = trace.record(v, 2, seed=4)
    other = trace.record(railspec.load("europe"), 2, seed=4)
    broken = [dict(line) for line in lines]
    broken[5]["action"] = "claim Nowhere-Else red 9red"
    short = lines[:10] + lines[-1:]
    for text, words in [("", "not a trace"), ("{}", "not a trace"), (trace.dumps(other), "the trace is of spec"),
                        (trace.dumps(broken), "step 4"), (trace.dumps(short), "ends after 9 decisions")]:
        response = c.post("/api/replays", json={"trace": text})
        assert response.status_code == 400 and words in response.json()["error"], response.text
    assert c.post("/api/replays", json={"trace": 3}).status_code == 400


def test_a_claim_says_which_cards_it_spends() -> None:
    v, app, c = client("usa", 3)
    session = sessions.PlaySession(v, usa_with_a_full_hand(), 0, ["you", "one-step", "one-step"], 1)
    store = app.state.store
    store.add(session)
    view = c.get(f"/api/games/{session.id}").json()
    cards = [colour.name for colour in v.colours] + ["loco"]
    claims = [choice for choice in view["choices"] if choice["route"] is not None]
    assert len(claims) > 40
    for choice in view["choices"]:
        action = v.actions[choice["id"]]
        expected = ([cards[action.colour]] if action.colour_cards else []) + (["loco"] if action.locomotives else [])
        assert choice["cards"] == expected, choice
    assert any(choice["cards"] == ["loco"] for choice in claims) and any(len(ch["cards"]) == 2 for ch in claims)
    assert view["decision"] is None  # the core's turn: nothing to explain


@pytest.mark.parametrize("only_decline", [True, False])
def test_a_tunnel_decision_says_what_it_is_about_and_what_more_cards_would_allow(only_decline: bool) -> None:
    """In the tunnel's phase the view says what the decision is about (the tunnel
    mechanic's fields, in words) and which payments only cards the person lacks would
    allow; with "decline" alone offered, that is why. Nothing hidden is told: the view is
    the same in every world resampled from what the person sees."""
    game = europe_at_a_tunnel(only_decline)
    v = game.variant
    session = sessions.PlaySession(v, game, 0, ["you", "one-step", "one-step"], 1)
    view = session.view()
    offered = [choice["name"] for choice in view["choices"]]
    decision = view["decision"]
    assert decision["title"] == "tunnels" and decision["phase"] == "tunnel"
    facts = {fact["key"]: fact["text"] for fact in decision["facts"]}
    state = game.state()
    names = [colour.name for colour in v.colours] + ["loco"]
    assert facts["tunnel_revealed"] == ", ".join(names[card] for card in state["tunnel_revealed"])
    assert facts["tunnel_route"] == v.routes[state["tunnel_route"]].name
    # what the engine would offer with more cards, and only that
    assert decision["wanting"] and all(name.startswith("tunnel pay ") for name in decision["wanting"])
    assert not set(decision["wanting"]) & set(offered)
    hand = state["hands"][0]
    for name in decision["wanting"]:
        action = v.actions[v.action_id(name)]
        colour = next(card for card in range(len(v.colours)) if state["tunnel_committed"][card]) \
            if action.colour_cards else None
        lacking = (action.locomotives > hand[-1]) or (colour is not None and action.colour_cards > hand[colour])
        assert lacking, (name, hand)
    if only_decline:
        assert offered == ["tunnel decline"]
    else:
        assert len(offered) > 1
    for seed in range(4):
        other = sessions.PlaySession(v, game.resample(0, seed=seed), 0, ["you", "one-step", "one-step"], 1)
        assert other.view() == view


def test_at_the_limit_the_least_recently_used_idle_game_is_dropped() -> None:
    """The 65th game used to be refused for up to an hour (429); now the game used least
    lately makes room, unless a request is using it (its lock held) or it is the pinned
    replay. Only when every game is in use is a new one refused (503), and a request for
    a dropped game says why it is gone."""
    now = [0.0]
    store = sessions.Store(limit=3, clock=lambda: now[0])
    v, app, c = client("usa", 2, store=store)
    replay = store.add(sessions.new_replay(v, trace.dumps(trace.record(v, 2, seed=4))))
    replay.pinned = True
    ids = []
    for seed in range(2):
        now[0] += 1
        ids.append(c.post("/api/games", json={"seed": seed}).json()["id"])
    now[0] += 1
    assert c.get(f"/api/games/{ids[0]}").status_code == 200  # ids[1] is now the least recently used
    now[0] += 1
    third = c.post("/api/games", json={"seed": 7})
    assert third.status_code == 201, third.text
    assert set(store.sessions) == {replay.id, ids[0], third.json()["id"]}
    gone = c.get(f"/api/games/{ids[1]}")
    assert gone.status_code == 404 and "least recently used" in gone.json()["error"]
    # a game in use is not dropped: the other one is
    store.sessions[ids[0]].lock.acquire()
    try:
        now[0] += 1
        fourth = c.post("/api/games", json={}).json()["id"]
        assert ids[0] in store.sessions and third.json()["id"] not in store.sessions
        store.sessions[fourth].lock.acquire()
        try:
            full = c.post("/api/games", json={})
            assert full.status_code == 503 and "in use" in full.json()["error"]
            assert set(store.sessions) == {replay.id, ids[0], fourth}
        finally:
            store.sessions[fourth].lock.release()
    finally:
        store.sessions[ids[0]].lock.release()


def test_sixty_five_games_open_with_the_default_limit() -> None:
    v, app, c = client("usa", 2)
    made = [c.post("/api/games", json={"seed": k}) for k in range(sessions.MAX_SESSIONS + 1)]
    assert [r.status_code for r in made] == [201] * (sessions.MAX_SESSIONS + 1)
    kept = app.state.store.sessions
    assert len(kept) == sessions.MAX_SESSIONS and made[0].json()["id"] not in kept


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.",
                                  "[::1", "a:b:c", "", "127.0.0.1:8000@evil.example"])
def test_a_host_the_server_is_not_served_under_is_refused(host: str) -> None:
    """A DNS-rebinding page reaches the server under its own name: refused before the app
    sees it, for reads and for actions alike, and nothing changes."""
    v, app, c = client("usa", 2)
    gid = c.post("/api/games", json={}).json()["id"]
    before = app.state.store.sessions[gid].game.to_json()
    for method, path, body in [("GET", "/", None), ("GET", "/api/config", None), ("GET", f"/api/games/{gid}", None),
                               ("POST", "/api/games", {}), ("POST", f"/api/games/{gid}/act", {"action": "draw blind"})]:
        response = c.request(method, path, json=body, headers={"host": host})
        assert response.status_code == 421, (host, path, response.text)
        assert "answers to" in response.json()["error"]
    assert len(app.state.store.sessions) == 1 and app.state.store.sessions[gid].game.to_json() == before


def test_the_hosts_a_server_answers_to() -> None:
    local = guard.Hosts.serving("127.0.0.1", 8000)
    for host in ("127.0.0.1:8000", "localhost:8000", "LOCALHOST:8000", "[::1]:8000"):
        assert local.allows(host), host
    for host in ("127.0.0.1:8001", "127.0.0.1", "evil.example:8000", "192.168.1.5:8000", "[::1]", "localhost:80000"):
        assert not local.allows(host), host
    everywhere = guard.Hosts.serving("0.0.0.0", 80, also=["mybox.lan"])
    assert everywhere.allows("192.168.1.5") and everywhere.allows("[fe80::1]:80") and everywhere.allows("mybox.lan")
    assert not everywhere.allows("evil.example") and not everywhere.allows("192.168.1.5:81")
    named = guard.Hosts.serving("mybox.lan", 8000)
    assert named.allows("mybox.lan:8000") and not named.allows("10.0.0.1:8000")
    # an app made outside `railspec play` answers to the local names on any port
    assert guard.LOCAL.allows("localhost:1234") and guard.LOCAL.allows("127.0.0.1") and not guard.LOCAL.allows("x:1")
    assert local.allows_origin("http://localhost:8000") and not local.allows_origin("https://localhost:8000")
    assert not local.allows_origin("null") and not local.allows_origin("http://evil.example:8000")


def test_the_guard_refuses_two_hosts_and_a_rebound_websocket() -> None:
    """Below the HTTP server (which may itself refuse some): two Host headers, and a
    websocket from a foreign host (the app has none; one added later is covered)."""
    async def app(scope: dict, receive: object, send: object) -> None:
        raise AssertionError("reached the app")

    def sent_for(scope: dict) -> list[dict]:
        sent: list[dict] = []

        async def send(message: dict) -> None:
            sent.append(message)
        asyncio.run(guard.Guard(app)(scope, None, send))
        return sent
    two = sent_for({"type": "http", "method": "GET", "path": "/",
                    "headers": [(b"host", b"127.0.0.1:8000"), (b"host", b"evil.example")]})
    assert two[0]["status"] == 400 and json.loads(two[1]["body"])["error"] == "more than one Host header"
    socket_ = sent_for({"type": "websocket", "path": "/ws", "headers": [(b"host", b"evil.example:8000")]})
    assert socket_ == [{"type": "websocket.close", "code": 1008}]


@pytest.mark.parametrize("headers, status", [
    ({"content-type": "text/plain"}, 415), ({"content-type": "application/x-www-form-urlencoded"}, 415),
    ({"content-type": "multipart/form-data; boundary=x"}, 415), ({}, 415), ({"content-type": "application/jsonp"}, 415),
    ({"content-type": "application/json"}, 200), ({"content-type": "Application/JSON; charset=utf-8"}, 200),
    ({"content-type": "application/json", "origin": "http://evil.example"}, 403),
    ({"content-type": "application/json", "origin": "null"}, 403),
    ({"content-type": "application/json", "origin": "http://127.0.0.1:8000"}, 200),
])
def test_a_post_body_must_be_json_from_the_servers_own_page(headers: dict, status: int) -> None:
    """A cross-site form or no-cors fetch can only send a text, form or multipart body,
    and says where it comes from: refused, and the game is as it was."""
    v, app, c = client("usa", 2)
    view = c.post("/api/games", json={}).json()
    session = app.state.store.sessions[view["id"]]
    before = session.game.to_json()
    body = json.dumps({"action": view["choices"][0]["name"]}).encode()
    response = c.post(f"/api/games/{view['id']}/act", content=body, headers=headers)
    assert response.status_code == status, response.text
    if status != 200:
        assert response.json()["error"] and session.game.to_json() == before and session.log == []
    else:
        assert session.log


def test_a_post_without_a_body_needs_no_type() -> None:
    """`curl -X POST .../agent`: no body, no type; but an empty body of another type is
    refused (a form)."""
    v, app, c = client("usa", 2)
    view = c.post("/api/games", json={}).json()
    gid = view["id"]
    view = c.post(f"/api/games/{gid}/act", json={"action": view["choices"][0]["name"]}).json()
    assert c.post(f"/api/games/{gid}/agent").status_code == 200
    assert c.post(f"/api/games/{gid}/undo", headers={"content-type": "application/x-www-form-urlencoded"}
                  ).status_code == 415


def test_games_are_apart_and_an_idle_one_is_dropped():
    now = [0.0]
    store = sessions.Store(idle_seconds=3600, clock=lambda: now[0])
    v, app, c = client("usa", 2, store=store)
    a = c.post("/api/games", json={"seed": 1}).json()["id"]
    b = c.post("/api/games", json={"seed": 2}).json()["id"]
    assert a != b and store.sessions[a].game.to_json() != store.sessions[b].game.to_json()
    now[0] = 3000.0
    assert c.get(f"/api/games/{a}").status_code == 200
    now[0] = 6700.0  # b idle for 6700 s, a for 3700 s
    assert c.get(f"/api/games/{a}").status_code == 404 and c.get(f"/api/games/{b}").status_code == 404
    assert "idle" in c.get(f"/api/games/{b}").json()["error"] and not store.sessions


def test_bad_requests_get_a_clear_error():
    v, app, c = client("usa", 2)
    gid = c.post("/api/games", json={}).json()["id"]
    cases = [
        ("post", "/api/games", {"content": b"[1, 2]"}, 400), ("post", "/api/games", {"content": b"\xff\xfe"}, 400),
        ("post", "/api/games", {"json": {"players": 9}}, 400), ("post", "/api/games", {"json": {"players": "2"}}, 400),
        ("post", "/api/games", {"json": {"seat": 2}}, 400),
        ("post", "/api/games", {"json": {"agents": ["nobody"]}}, 400),
        ("post", "/api/games", {"json": {"agents": "random"}}, 400), ("post", "/api/games", {"json": {"x": 1}}, 400),
        ("post", "/api/games", {"content": b"[" * 100_000}, 400),
        ("post", f"/api/games/{gid}/act", {"content": b"x" * (MAX_BODY + 1)}, 413),
        ("get", "/api/games/nope", {}, 404), ("post", "/api/games/nope/act", {"json": {"action": "pass"}}, 404),
        ("get", f"/api/games/{gid}/act", {}, 405), ("delete", f"/api/games/{gid}", {}, 405),
        ("get", "/static/../sessions.py", {}, 404), ("get", "/api/replays/nope", {}, 404),
        ("post", "/api/games", {"json": {"state": v.new_game(players=2, seed=1).to_json()}}, 400),
        ("get", f"/api/games/{gid}/save", {}, 405), ("post", "/api/saves", {}, 405),
        ("post", "/api/games", {"json": {"save": "../../etc/passwd"}}, 400),
    ]
    for method, path, kwargs, status in cases:
        if "content" in kwargs:  # a body that is not JSON, said to be JSON
            kwargs = {**kwargs, "headers": JSON}
        response = getattr(c, method)(path, **kwargs) if kwargs else getattr(c, method)(path)
        assert response.status_code == status, (path, kwargs, response.text)
        assert response.json()["error"]
    response = c.post("/api/games", content=b"{}", headers={**JSON, "content-length": str(MAX_BODY + 10)})
    assert response.status_code in (400, 413)


def _fuzz_request(rng: random.Random, ids: list[str], names: list[str], saved: list[str]):
    """One random request: a real or a bad path, a method, and a body that is good, of a
    wrong shape, not JSON or not text; a save's name real, made up or leading out of the
    folder."""
    gid = rng.choice(ids * 3 + ["", "x", "0" * 16, "../", "%00", "é"])
    # each path with the method it answers (used most of the time)
    path, right = rng.choice([
        (f"/api/games/{gid}", "GET"), (f"/api/games/{gid}/act", "POST"), (f"/api/games/{gid}/act", "POST"),
        (f"/api/games/{gid}/agent", "POST"), (f"/api/games/{gid}/undo", "POST"), (f"/api/games/{gid}/save", "GET"),
        (f"/api/games/{gid}/map", "GET"), ("/api/games", "POST"), ("/api/games", "POST"),
        (f"/api/games/{gid}/save", "POST"), ("/api/saves", "GET"), ("/api/saves/" + rng.choice(saved), "GET"),
        (f"/api/replays/{gid}", "GET"),
        (f"/api/replays/{gid}?step={rng.choice(['0', '-1', '9' * 20, 'a'])}", "GET"), ("/api/replays", "POST"),
        ("/api/config", "GET"), ("/static/" + rng.choice(["play.js", "x", "..", ""]), "GET"),
        ("/" + "a" * rng.randrange(300), "GET")])
    values = [None, True, 0, -1, 2**70, 1.5, "", "pass", rng.choice(names), [], {}, [1], {"a": 1}, "x" * 500]
    save = rng.choice(saved + ["../" + saved[0], "/etc/passwd", "..", "usa-20260101-000000-seat0-abcdef.json",
                               "usa-20260101-000000-seat9-abcdef.json", saved[0] + "/", rng.choice(values)])
    body = rng.choice([
        None, {"action": rng.choice(values)}, {"action": rng.choice(names)}, {rng.choice(["players", "seat", "seed",
                                                                                     "agents", "state", "trace"]):
                                                                          rng.choice(values)},
        {"players": rng.choice(values), "seat": rng.choice(values), "agents": rng.choice([["random"], ["x"], 3])},
        {"save": save}, {"save": save}, {"save": save, rng.choice(["seat", "agents", "seed"]): rng.choice(values)},
        b"{", b"\x00\xff", b"[]", b"null", b'"x"', b"1e999", b"{" * 2000, b'{"action": "' + b"\xc3" + b'"}',
    ])
    method = right if rng.random() < 0.8 else rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH"])
    return method, path, body


def test_the_server_survives_a_thousand_random_and_malformed_requests(tmp_path):
    folder = tmp_path / "saves"
    v, app, c = client("usa", 2, saves=folder)
    store = app.state.store
    ids = [c.post("/api/games", json={"seed": s}).json()["id"] for s in range(3)]
    names = [a.name for a in v.actions[::37]] + ["draw blind", "keep tickets 1,2", "pass"]
    saved = [c.post(f"/api/games/{gid}/save").json()["name"] for gid in ids[:2]]
    (folder / "usa-20260101-000000-seat9-abcdef.json").write_text("{", encoding="utf-8")  # corrupted
    rng = random.Random(2026)

    def snapshot():
        games = {key: (s.game.to_json(), len(s.log)) for key, s in store.sessions.items() if s.mode == "play"}
        return games, sorted(os.listdir(folder))

    refused = 0
    for _ in range(1000):
        method, path, body = _fuzz_request(rng, ids, names, saved)
        before = snapshot()
        kwargs = {} if body is None else {"json": body} if isinstance(body, dict) else {"content": body,
                                                                                        "headers": JSON}
        response = c.request(method, path, **kwargs)  # a server error would raise here (TestClient's default)
        assert response.status_code < 500, (method, path, body, response.text)
        if response.status_code >= 400:
            refused += 1
            assert response.json()["error"]
            assert snapshot() == before, (method, path, body)
    assert refused > 500


def test_without_the_extra_play_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # an import of it fails, as when it is not installed
    assert main(["play", "usa"]) == 2
    assert capsys.readouterr().err.strip() == "railspec: railspec play needs the play extra: pip install " \
                                               "'railspec[play]'"


def test_play_on_the_command_line_refuses_bad_choices(capsys):
    assert main(["play", "usa", "--players", "9"]) == 2
    assert "--players" in capsys.readouterr().err
    assert main(["play", "usa", "--players", "2", "--seat", "2"]) == 2
    assert "--seat is 0 to 1" in capsys.readouterr().err
    assert main(["play", "usa", "--agents", "nobody"]) == 2
    assert main(["play", "usa", "--trace", "/nonexistent/trace.jsonl"]) == 2
    assert "trace" in capsys.readouterr().err
    # a port past 65535 would be taken modulo 65536 by the socket layer: 99999 served on 34463
    assert main(["play", "usa", "--port", "99999"]) == 2
    assert "99999 is not a port (0 to 65535)" in capsys.readouterr().err


def _raw(address: str, request: bytes, read: bool = True) -> bytes:
    """Send ``request`` as it is to the server at ``address`` (http://HOST:PORT/); its
    answer (or nothing, when not ``read``: the connection is closed at once)."""
    host, port = address[len("http://"):-1].rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(request)
        if not read:
            return b""
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        return answer


def test_play_serves_on_the_address_it_prints_and_logs_one_line_per_event(tmp_path: Path) -> None:
    """The real server: the page at the printed address, and under a name --allow-host
    adds; another name for it refused; and a refused action, a foreign host, a text body
    and a connection closed mid-request each log one line on stderr (a closed connection
    used to print a whole traceback)."""
    proc = subprocess.Popen([sys.executable, "-m", "railspec", "play", "usa", "--port", "0", "--seed", "1",
                             "--allow-host", "board.example"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        line = proc.stdout.readline()
        assert line.startswith("railspec play: USA, 2 players at http://127.0.0.1:"), line
        address = line.split(" at ")[1].split()[0]
        port = address.rsplit(":", 1)[1].rstrip("/")
        with urllib.request.urlopen(address + "api/config", timeout=10) as answer:
            config = json.loads(answer.read())
        assert config["variant"]["name"] == "USA" and config["replay"] is None
        with urllib.request.urlopen(address, timeout=10) as answer:
            assert answer.read().decode("utf-8").startswith("<!doctype html>")
        with urllib.request.urlopen(f"http://localhost:{port}/api/config", timeout=10) as answer:
            assert answer.status == 200
        for host, status in [(f"board.example:{port}", b"200"), ("board.example:1", b"421")]:
            answer = _raw(address, f"GET /api/config HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
            assert answer.startswith(b"HTTP/1.1 " + status), (host, answer[:100])
        new = urllib.request.Request(address + "api/games", data=b"{}", headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(new, timeout=10) as answer:
            gid = json.loads(answer.read())["id"]
        head = f"Host: 127.0.0.1:{port}\r\nConnection: close\r\n"
        refused = _raw(address, (f"POST /api/games/{gid}/act HTTP/1.1\r\n{head}Content-Type: application/json\r\n"
                                 f"Content-Length: 22\r\n\r\n" + '{"action": "nonsense"}').encode())
        assert refused.startswith(b"HTTP/1.1 422 "), refused[:100]
        rebound = _raw(address, f"GET /api/games/{gid} HTTP/1.1\r\nHost: evil.example:{port}\r\n"
                                f"Connection: close\r\n\r\n".encode())
        assert rebound.startswith(b"HTTP/1.1 421 ") and b'"error"' in rebound, rebound[:200]
        text = _raw(address, (f"POST /api/games HTTP/1.1\r\n{head}Content-Type: text/plain\r\n"
                              f"Content-Length: 2\r\n\r\n{{}}").encode())
        assert text.startswith(b"HTTP/1.1 415 "), text[:100]
        _raw(address, (f"POST /api/games/{gid}/act HTTP/1.1\r\n{head}Content-Type: application/json\r\n"
                       f"Content-Length: 100\r\n\r\n{{\"act").encode(), read=False)
        # the server is still there, and answers
        with urllib.request.urlopen(address + "api/config", timeout=10) as answer:
            assert answer.status == 200
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=10)
    assert "Traceback" not in stderr, stderr
    lines = stderr.splitlines()
    assert len(lines) == 5, stderr
    assert lines.pop(0).startswith("railspec play: refused GET /api/config: 421 Host 'board.example:1'")
    assert lines[0] == f"railspec play: refused POST /api/games/{gid}/act: 422 USA has no action named 'nonsense'"
    assert lines[1].startswith(f"railspec play: refused GET /api/games/{gid}: 421 Host 'evil.example:{port}'")
    assert lines[2].startswith("railspec play: refused POST /api/games: 415 ")
    assert lines[3] == (f"railspec play: POST /api/games/{gid}/act: the connection was closed before the request "
                        f"was read")


def test_a_mechanic_from_outside_railspec_is_played_with_no_code_of_its_own(tmp_path, monkeypatch):
    postcards = pytest.importorskip("railspec_postcards", reason="make install installs tests/outside_mechanic")
    monkeypatch.setenv("RAILSPEC_CACHE", str(tmp_path / "cache"))
    v = railspec.load(Path(postcards.__file__).resolve().parent / "postcards.rail")
    mechanic = next(m for m in v.registry if m.name == "postcards")
    session = sessions.new_play(v, {"players": 2, "seed": 3}, sessions.Defaults(2, 0, ("one-step",), 1, 0.0))
    rng, headings, owners = random.Random(2), set(), set()
    while not session.game.is_over:
        view = session.view()
        headings |= {group["label"] for group in view["groups"]}
        owners |= {f["owner"] for f in view["fields"]["board"] + view["fields"]["columns"]}
        if view["yours"]:
            session.act(rng.choice(view["choices"])["name"])
        else:
            session.agent_move()
    # its decisions under its title, its fields and score items labelled by it
    assert mechanic.title in headings and mechanic.title in owners
    columns = session.view()["breakdown"]["columns"]
    assert {c["key"] for c in columns if c["owner"] == mechanic.title} == {
        item.name for item in v.assembly.score_items if item.owner == "postcards"}


def test_a_field_naming_its_mechanics_items_reads_by_name() -> None:
    """A mechanic's field says its values name the mechanic's own items (Field.items, the
    names from Drawing.item_names): the United Kingdom's technologies held read as their
    names (a bit set), the supply as each technology's copies, the purchase waiting as one
    name; Northern Lights' bonus cards dealt as their titles. A field declaring an entry per
    item needs a fixed size."""
    uk = railspec.load("united_kingdom")
    names = sessions.shown_names(uk)
    techs = [t.name for t in uk.ir.rule("technology").technologies]
    assert names["technology"] == techs
    held = next(f for f in uk.assembly.exported_fields if f.name == "technologies")
    assert sessions.read_value(held, 0b101, names, ["you"]) == f"{techs[0]}, {techs[2]}"
    assert sessions.read_value(held, 0, names, ["you"]) is None
    supply = next(f for f in uk.assembly.exported_fields if f.name == "technology_supply")
    assert sessions.read_value(supply, [4, 0] + [0] * (len(techs) - 2), names, ["you"]) == f"{techs[0]}: 4"
    buying = next(f for f in uk.assembly.exported_fields if f.name == "technology_buying")
    assert sessions.read_value(buying, 1, names, ["you"]) == techs[1]
    assert sessions.read_value(buying, -1, names, ["you"]) is None
    nl = railspec.load("northern_lights")
    game = nl.new_game(players=2, seed=3)
    titles = [c.title for c in nl.ir.rule("bonus_cards").cards]
    board = sessions._panels(nl, game.observation(0), ["you", "them"])["board"]
    dealt = next(item["text"] for item in board if item["key"] == "bonus_cards")
    assert dealt == ", ".join(titles[c] for c in game.state()["bonus_cards"])
    with pytest.raises(ValueError):
        Field("x", "a count per thing", owner="m", items="thing", items_as="per_item")
