"""``railspec play`` in a real headless Chromium (Debian's, driven by Playwright without a
browser download): a whole USA game and a whole Europe game played by clicks against the
agents (a tunnel and a station among the Europe clicks), a trace replayed forward and back,
undo, save and load by their buttons, and the page checked never to hold another seat's
hidden cards or tickets: every API response is inspected as it arrives (against the
game's full state at that moment; a save's and the saves' list too, mid-game), and the
DOM at the end.

The USA game's screenshot, taken mid-game, is docs/img/play.png when
RAILSPEC_RETAKE_SCREENSHOTS=1 (else it goes to a temporary folder).
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from conftest import Arranged, start_turns  # noqa: E402
from test_play_server import europe_at_a_tunnel, saved, usa_with_a_full_hand  # noqa: E402

import railspec  # noqa: E402
from railspec.playtest.render import looks  # noqa: E402
from railspec.tools import trace  # noqa: E402
from railspec.tools.web import sessions  # noqa: E402
from railspec.tools.web.saves import SaveFolder  # noqa: E402
from railspec.tools.web.server import create_app  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install -y chromium)", allow_module_level=True)

SCREENSHOT = Path(__file__).resolve().parent.parent / "docs" / "img" / "play.png"


class Server:
    """The app served by uvicorn on a free port, in a thread."""

    def __init__(self, app):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def hidden_of_others(game, seat: int) -> tuple[set[str], list]:
    """The names of the tickets the other seats hold or are dealt, and their hands."""
    state = game.state()
    names = [t.name for t in game.variant.tickets]
    tickets = {names[t] for p in range(game.players) if p != seat
               for t in state["tickets"][p] + state["setup_offer"][p]}
    if state["current"] != seat:
        tickets |= {names[t] for t in state["offer"]}
    return tickets, [state["hands"][p] for p in range(game.players) if p != seat]


class Watch:
    """Every API response the page receives, checked as it arrives against the game's full
    state: a view is the seat's (its observer, its hand), its ticket lists hold none of
    another seat's tickets; a save's answer and the saves' list hold only names, times,
    seats and counts (no ticket of anyone, not the deck's order); and no response names a
    field only the full state has."""

    def __init__(self, app, seat: int = 0):
        self.app, self.seat, self.views, self.saves, self.problems = app, seat, 0, 0, []

    def __call__(self, route):
        response = route.fetch()
        body = response.text()
        if "/api/" in route.request.url and response.headers.get("content-type", "").startswith("application"):
            self.check_text(body)
            if route.request.url.endswith("/save") or route.request.url.endswith("/api/saves"):
                self.check_save(json.loads(body))
            elif "/api/games" in route.request.url:
                self.check(json.loads(body))
        route.fulfill(response=response, body=body)

    def check_text(self, text: str) -> None:
        for key in ('"deck"', '"hands"', '"ticket_deck"', '"rng"', '"seed"'):
            if key in text:
                self.problems.append(f"a response holds {key}")
        for session in list(self.app.state.store.sessions.values()):
            deck = session.game.state()["deck"] if session.mode == "play" else []
            if len(deck) >= 10:
                order = json.dumps(deck[-10:], separators=(",", ":"))[1:-1]
                if order in text:
                    self.problems.append("a response holds the deck's order")

    def check_save(self, answer: dict) -> None:
        self.saves += 1
        entries = answer.get("saves", [answer])
        allowed = {"name", "time"} if "saves" not in answer else {"name", "time", "seat", "decisions", "problem"}
        names = {t.name for t in self.app.state.saves.variant.tickets}
        text = json.dumps(answer)
        if any(set(e) - allowed for e in entries) or any(f'"{name}"' in text for name in names):
            self.problems.append(f"save answer {self.saves}: more than names and times: {text[:200]}")

    def check(self, view: dict) -> None:
        if "id" not in view:
            return
        self.views += 1
        game = self.app.state.store.sessions[view["id"]].game
        others, hands = hidden_of_others(game, self.seat)
        held = {t["name"] for lst in view["tickets"] for t in lst["tickets"]}
        if view["observer"] != self.seat or held & others:
            self.problems.append(f"view {self.views}: observer {view['observer']}, others' tickets {held & others}")
        mine = game.state()["hands"][self.seat]
        cards = [c.name for c in game.variant.colours] + ["loco"]
        if {h["card"]: h["count"] for h in view["hand"]} != {cards[i]: n for i, n in enumerate(mine) if n}:
            self.problems.append(f"view {self.views}: the hand is not the seat's")
        text = json.dumps(view)
        for key in ('"deck"', '"hands"', '"ticket_deck"', '"rng"', '"seed"'):
            if key in text:
                self.problems.append(f"view {self.views}: {key} sent")


def wait_for_turn(page, before: str | None) -> str:
    """Wait until the page has drawn a new view (``data-ready`` is set again, to another
    value) where the person decides or the game is over; its state."""
    page.wait_for_function(
        "(before) => { const s = document.getElementById('status').dataset.state;"
        " const r = document.body.dataset.ready; return (s === 'yours' || s === 'over') && r && r !== before; }",
        arg=before, timeout=30000)
    return page.get_attribute("#status", "data-state")


def click_a_decision(page, tunnels: set[str], lengths: dict[str, int], done: set[str]) -> str:
    """The test's player, by clicks: a station on a city once, a tunnel once, else the
    longest route it can claim, else the first decision listed that is not drawing
    tickets. Returns what it did."""
    cities = page.locator("#map .city.choosable")
    if cities.count() and "station" not in done:
        cities.first.dispatch_event("click")
        done.add("station")
        page.locator("#decide .picked-choices button.choice").first.click()
        return "city"
    routes = [name for name in page.eval_on_selector_all(
        "#map g.route.choosable", "nodes => nodes.map(n => n.getAttribute('data-route'))")]
    if routes:
        tunnel = [r for r in routes if r in tunnels]
        name = tunnel[0] if tunnel and "tunnel" not in done else max(routes, key=lambda r: lengths[r])
        if name in tunnels:
            done.add("tunnel")
        page.locator(f'#map g.route[data-route="{name}"]').dispatch_event("click")
        page.locator("#decide .picked-choices button.choice").first.click()
        return "route"
    buttons = page.locator("#decide .choices button.choice")
    kinds = buttons.evaluate_all("nodes => nodes.map(n => n.dataset.kind)")
    pick = next((i for i, k in enumerate(kinds) if k == "draw_blind"), None)
    if pick is None:
        pick = next((i for i, k in enumerate(kinds) if k != "draw_tickets"), 0)
    buttons.nth(pick).click()
    return "button"


def save_and_list_by_clicks(page) -> str:
    """Click Save, wait for the name it shows; open the saves' list by Load and close it.
    The name saved. (The name shown before is waited past: taken for the new one, the
    Load click could land while the save was still being made, and a busy page ignores
    it; a loaded machine once showed it.)"""
    before = page.get_attribute("#saved", "data-name")
    page.click("#save")
    page.wait_for_function("(before) => { const name = document.getElementById('saved').dataset.name;"
                           " return name && name !== before; }", arg=before)
    name = page.get_attribute("#saved", "data-name")
    page.click("#load")
    page.wait_for_selector(f'#saves-list button[data-name="{name}"]')
    page.click("#saves-close")
    return name


def play_by_clicks(browser, variant_name: str, players: int, seed: int, saves: Path,
                   screenshot: Path | None = None):
    v = railspec.load(variant_name)
    app = create_app(v, sessions.Defaults(players, 0, ("one-step",), seed, 0.0), saves=SaveFolder(saves, v))
    watch = Watch(app)
    tunnels = {v.routes[r].name for r in looks(v.ir).dashed}
    lengths = {r.name: r.length for r in v.routes}
    done: set[str] = set()
    with Server(app) as server:
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        page.route("**/api/**", watch)
        errors = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(server.url)
        ready, state, clicks = None, wait_for_turn(page, None), 0
        while state != "over":
            ready = page.get_attribute("body", "data-ready")
            if screenshot is not None and clicks == 40:
                page.screenshot(path=str(screenshot))
            if clicks in (10, 30):  # mid-game: what a save and the saves' list send
                assert save_and_list_by_clicks(page) in os.listdir(saves)
            click_a_decision(page, tunnels, lengths, done)
            clicks += 1
            state = wait_for_turn(page, ready)
            assert clicks < 400, "the game does not end"
        session = next(iter(app.state.store.sessions.values()))
        game = session.game
        assert game.is_over and not errors and not watch.problems, (errors, watch.problems[:3])
        assert watch.views > clicks and watch.saves == 4
        # the final breakdown, one row per seat, with the game's totals
        totals = page.eval_on_selector_all("#result table.breakdown tbody tr",
                                           "rows => rows.map(r => r.lastElementChild.textContent)")
        assert totals == [str(t) for t in game.scores()]
        # the DOM's ticket lists hold the seat's own tickets only
        shown = page.eval_on_selector_all("#mine ul.tickets li:not(.empty)", "nodes => nodes.map(n => n.textContent)")
        own = {v.tickets[t].name for t in game.state()["tickets"][0]}
        assert {s.split(" ", 1)[1].rsplit(" (", 1)[0] for s in shown} == own
        others, _ = hidden_of_others(game, 0)
        mine_text = page.inner_text("#mine")
        assert not any(f" {name} (" in mine_text for name in others - own)
        page.close()
    return session, done


def test_a_whole_usa_game_by_clicks(browser, tmp_path):
    shot = tmp_path / "play.png"
    session, _ = play_by_clicks(browser, "usa", 2, seed=5, saves=tmp_path / "saves", screenshot=shot)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("RAILSPEC_RETAKE_SCREENSHOTS") == "1":
        shutil.copyfile(shot, SCREENSHOT)
    assert any(entry["seat"] == 0 for entry in session.log)


def test_a_whole_europe_game_by_clicks_with_a_tunnel_and_a_station(browser, tmp_path):
    session, done = play_by_clicks(browser, "europe", 3, seed=2, saves=tmp_path / "saves")
    v = session.variant
    kinds = {v.actions[v.action_id(e["action"])].kind for e in session.log if e["seat"] == 0}
    assert {"tunnel", "station"} <= done
    assert "build_station" in kinds and ({"tunnel_pay", "tunnel_decline"} & kinds), kinds


def test_a_trace_replayed_forward_and_back(browser):
    v = railspec.load("usa")
    lines = trace.record(v, 2, seed=8)
    replay = sessions.new_replay(v, trace.dumps(lines))
    app = create_app(v, sessions.Defaults(2, 0, ("one-step",), 1, 0.0), replay=replay)
    steps = len(lines) - 2
    with Server(app) as server:
        page = browser.new_page(viewport={"width": 420, "height": 900})  # a narrow window
        page.goto(server.url)
        page.wait_for_function("document.body.dataset.ready === 'replay-0'")
        assert page.inner_text("#decide .next").endswith(lines[1]["action"])

        def go(button: str, step: int):
            page.click(button)
            page.wait_for_function(f"document.body.dataset.ready === 'replay-{step}'")
            assert page.inner_text("#step-text") == f"{step} / {steps}"

        for step in range(1, 6):
            go("#forward", step)
        assert page.locator("#log ol.moves li").count() == 5
        go("#back", 4)
        go("#last", steps)
        totals = page.eval_on_selector_all("#result table.breakdown tbody tr",
                                           "rows => rows.map(r => r.lastElementChild.textContent)")
        assert totals == [str(row["total"]) for row in lines[-1]["breakdown"]]
        owned = page.locator("#map g.route.claimed").count()
        go("#back", steps - 1)
        go("#first", 0)
        assert page.locator("#map g.route.claimed").count() == 0 < owned
        # the page fits a narrow window: nothing wider than the viewport but the scrolled tables
        assert page.evaluate("document.documentElement.scrollWidth") <= 420
        page.close()


def test_undo_save_and_load_by_clicks(browser, tmp_path):
    v = railspec.load("europe")
    folder = tmp_path / "saves"
    app = create_app(v, sessions.Defaults(3, 0, ("random",), 6, 0.0), saves=SaveFolder(folder, v))
    store = app.state.store
    watch = Watch(app)
    with Server(app) as server:
        page = browser.new_page(viewport={"width": 1000, "height": 800})
        page.route("**/api/**", watch)
        page.goto(server.url)
        wait_for_turn(page, None)
        gid = page.evaluate("location.hash").split("=", 1)[1]
        page.locator("#decide .choices button.choice").first.click()  # the tickets to keep
        wait_for_turn(page, "0")  # the agents keep theirs
        ready = page.get_attribute("body", "data-ready")
        before = store.sessions[gid].game.to_json()
        page.locator('#decide button.choice[data-kind="draw_blind"]').click()
        page.wait_for_function(f"document.body.dataset.ready && document.body.dataset.ready !== '{ready}'")
        assert store.sessions[gid].game.to_json() != before
        page.click("#undo")
        page.wait_for_function(f"document.body.dataset.ready === '{ready}'")
        assert store.sessions[gid].game.to_json() == before
        # Save: kept on the server's side, the page shows its name
        page.click("#save")
        page.wait_for_function("document.getElementById('saved').textContent.startsWith('saved as ')")
        name = page.get_attribute("#saved", "data-name")
        assert page.inner_text("#saved") == f"saved as {name}"
        assert os.listdir(folder) == [name] and (folder / name).read_text(encoding="utf-8") == before
        # Load: the list of saves, one picked
        page.click("#load")
        entry = page.locator(f'#saves-list button.save-entry[data-name="{name}"]')
        entry.wait_for()
        assert "player 0" in entry.inner_text() and page.locator("#saves-list li").count() == 1
        entry.click()
        page.wait_for_function(f"!location.hash.endsWith('{gid}') && document.body.dataset.ready === '0'")
        assert page.is_hidden("#saves") and page.inner_text("#saved") == ""
        loaded = page.evaluate("location.hash").split("=", 1)[1]
        assert store.sessions[loaded].game.to_json() == before
        assert not watch.problems and watch.saves == 2, watch.problems[:3]
        page.close()


def open_saved(browser: sync_api.Browser, game: railspec.Game, folder: Path, viewport: dict) -> tuple:
    """A server whose saves' folder holds ``game`` (seat 0), and a page loaded on it; the
    server (a context manager, entered), the page and the game's session."""
    v = game.variant
    name = saved(folder, game)
    app = create_app(v, sessions.Defaults(game.players, 0, ("one-step",), 1, 0.0), saves=SaveFolder(folder, v))
    server = Server(app).__enter__()
    page = browser.new_page(viewport=viewport)
    page.goto(server.url)
    wait_for_turn(page, None)
    first = page.evaluate("location.hash")
    page.evaluate("(name) => newGame({save: name})", name)
    page.wait_for_function("(first) => document.body.dataset.ready === '0' && location.hash !== first", arg=first)
    session = next(s for s in app.state.store.sessions.values() if s.game.to_json() == game.to_json())
    return server, page, session


def test_a_picked_card_marks_the_routes_it_can_claim(browser: sync_api.Browser, tmp_path: Path) -> None:
    """With some 80 routes claimable, outlining them all says nothing: none is outlined
    until a card of the hand is picked; then exactly the routes a claim with that card
    reaches are, and the others fade. Hovering a claimable route names its choices."""
    game = usa_with_a_full_hand()
    v = game.variant
    server, page, session = open_saved(browser, game, tmp_path / "saves", {"width": 1280, "height": 860})
    try:
        legal = [v.actions[a] for a in game.legal_actions()]
        claimable = {v.routes[a.route].name for a in legal if a.route >= 0}
        shown = set(page.eval_on_selector_all("#map g.route.choosable", "ns => ns.map(n => n.dataset.route)"))
        assert shown == claimable and len(claimable) > 40
        # nothing outlined: a claimable route is drawn as one that is not
        width = "(sel) => getComputedStyle(document.querySelector(sel + ' polygon')).strokeWidth"
        plain = next(r.name for r in v.routes if r.name not in claimable and game.state()["owner"][r.id] < 0)
        some = sorted(claimable)[0]
        assert page.evaluate(width, f'#map g.route[data-route="{some}"]') == \
            page.evaluate(width, f'#map g.route[data-route="{plain}"]')
        assert page.locator("#map g.route.for-card").count() == 0
        hint = page.inner_text("#map-hint")
        assert hint.startswith(f"You can claim {len(claimable)} routes now: pick one of your cards")
        cards = [c.name for c in v.colours] + ["loco"]
        for card in ("loco", next(cards[i] for i, n in enumerate(game.observation(0)["hand"][:-1]) if n)):
            page.click(f'#mine li.card[data-card="{card}"] button.card-pick')
            index = cards.index(card)
            reach = {v.routes[a.route].name for a in legal if a.route >= 0 and (
                (index == len(cards) - 1 and a.locomotives) or (a.colour == index and a.colour_cards))}
            marked = set(page.eval_on_selector_all("#map g.route.for-card", "ns => ns.map(n => n.dataset.route)"))
            assert marked == reach and reach, card
            assert page.get_attribute(f'#mine li.card[data-card="{card}"] button', "aria-pressed") == "true"
            assert page.evaluate(width, f'#map g.route[data-route="{sorted(reach)[0]}"]') != \
                page.evaluate(width, f'#map g.route[data-route="{plain}"]')
            faded = page.evaluate("(sel) => getComputedStyle(document.querySelector(sel)).opacity",
                                  f'#map g.route[data-route="{plain}"]')
            assert float(faded) < 1
            assert page.inner_text("#map-hint").startswith(f"{card} can claim {len(reach)} of the {len(claimable)}")
        # the same card again: nothing marked
        page.click(f'#mine li.card[data-card="{card}"] button.card-pick')
        assert page.locator("#map g.route.for-card").count() == 0
        assert "filtering" not in (page.get_attribute("#map", "class") or "")
        # hovering a claimable route names its choices
        page.dispatch_event(f'#map g.route[data-route="{some}"] polygon', "mouseover")
        ways = [a.name for a in legal if a.route >= 0 and v.routes[a.route].name == some]
        text = page.inner_text("#map-hint")
        assert text.startswith(f"{some}: {len(ways)} choice") and ways[0] in text, text
        page.close()
    finally:
        server.__exit__(None, None, None)


def test_a_tunnel_decision_says_why_only_decline_is_offered(browser: sync_api.Browser, tmp_path: Path) -> None:
    game = europe_at_a_tunnel(only_decline=True)
    v = game.variant
    server, page, session = open_saved(browser, game, tmp_path / "saves", {"width": 1280, "height": 860})
    try:
        assert page.eval_on_selector_all("#decide button.choice", "ns => ns.map(n => n.dataset.action)") == [
            "tunnel decline"]
        about = page.inner_text("#decide .about")
        state = game.state()
        names = [c.name for c in v.colours] + ["loco"]
        assert "tunnel revealed" in about and ", ".join(names[c] for c in state["tunnel_revealed"]) in about
        wanting = session.view()["decision"]["wanting"]
        assert wanting and page.inner_text("#decide .about .wanting") == (
            f"Not offered, for want of the cards in your hand: {', '.join(wanting)}.")
        page.close()
    finally:
        server.__exit__(None, None, None)


def test_the_map_fills_its_column_and_nothing_is_cut(browser: sync_api.Browser, tmp_path: Path) -> None:
    """At 1280 x 860: the map takes the width the side column leaves (its legend under it,
    not beside it inside the picture), as tall as the window allows; a station marker is
    read at a glance (it was 6 px); the players' table is whole (it was cut: "ticl…")."""
    game = europe_at_a_tunnel(only_decline=True)  # stations are built by then
    assert max(max(game.state()["station_owner"]), -1) >= 0
    server, page, session = open_saved(browser, game, tmp_path / "saves", {"width": 1280, "height": 860})
    try:
        box = page.evaluate("(() => { const b = document.querySelector('#map svg').getBoundingClientRect();"
                            " return [b.width, b.height]; })()")
        # it was 836 x 426 px, a third of the window: now 889 x 574
        assert box[0] >= 0.68 * 1280 and box[0] * box[1] >= 0.4 * 1280 * 860, box
        assert page.locator("#map g.legend-entry").count() == 0 and page.locator("#legend li").count() >= 4
        markers = page.eval_on_selector_all("#map path.marker", "ns => ns.map(n => n.getBoundingClientRect().width)")
        assert markers and min(markers) >= 14, markers
        widths = page.evaluate("(() => { const s = document.querySelector('#table .scroll');"
                               " return [s.scrollWidth, s.clientWidth]; })()")
        assert widths[0] <= widths[1], widths
        page.close()
    finally:
        server.__exit__(None, None, None)


def test_a_technology_bought_with_a_set_by_clicks(browser: sync_api.Browser, tmp_path: Path) -> None:
    """The United Kingdom's purchase is a button of the turn's decision, its set's cards the
    buttons of the next ones (one card each, docs/language.md, "Technology"); then the turn
    goes on with no second purchase offered, and the players' table shows the technology
    held."""
    v = railspec.load("united_kingdom")
    game = v.new_game(players=2, seed=5)
    bots = [railspec.playtest.agents.make("one-step", seed=seat) for seat in range(2)]
    while game.state()["phase"] != "turn" or game.current_player != 0:
        game.apply(bots[game.current_player].act(game))
    hand = sum(game.state()["hands"][0])
    server, page, session = open_saved(browser, game, tmp_path / "saves", {"width": 1280, "height": 860})
    try:
        ready = page.get_attribute("body", "data-ready")
        page.locator('#decide button.choice[data-action="buy technology Propellers 1loco+1set"]').click()
        for given in range(4):  # a set of 4 cards, given one click at a time
            assert wait_for_turn(page, ready) == "yours"
            ready = page.get_attribute("body", "data-ready")
            kinds = page.eval_on_selector_all("#decide button.choice", "ns => ns.map(n => n.dataset.kind)")
            assert kinds and set(kinds) == {"technology_card"}, (given, kinds)
            page.locator("#decide button.choice").first.click()
        assert wait_for_turn(page, ready) == "yours"
        state = session.game.state()
        propellers = [t.name for t in v.ir.rule("technology").technologies].index("Propellers")
        assert state["technologies"][0] == 1 << propellers and sum(state["hands"][0]) == hand - 5
        assert session.game.current_player == 0 and state["technology_bought"] == 1
        kinds = page.eval_on_selector_all("#decide button.choice", "ns => ns.map(n => n.dataset.kind)")
        assert "buy_technology" not in kinds and "draw_blind" in kinds, kinds
        column = page.eval_on_selector_all("#table table.players thead th", "ns => ns.map(n => n.textContent)")
        assert any("technologies" in text for text in column), column
        # by name (the field names its mechanic's items: Field.items), not a bit set's number
        row = page.eval_on_selector_all("#table table.players tbody tr:first-child td",
                                        "ns => ns.map(n => n.textContent)")
        assert "Propellers" in row and str(1 << propellers) not in row, row
        details = page.inner_text("#details")
        assert "Wales Concession: 4" in details and "Propellers: 3" in details, details
        page.close()
    finally:
        server.__exit__(None, None, None)


def test_northern_lights_by_clicks_names_the_bonus_cards(browser: sync_api.Browser, tmp_path: Path) -> None:
    """A Northern Lights game on the page: the bonus cards dealt are listed by their titles
    (the field names its mechanic's items; SUMMARY: "randomly select 4 of the 11 bonus
    cards"), and a claim of a route with a draw bonus, by clicks on the map and the choice,
    draws its card (SUMMARY: "draw N cards"): a 1-space ferry paid with the one locomotive
    held."""
    v = railspec.load("northern_lights")
    game = Arranged(v, start_turns(v, 2, engine="compiled", keep="keep tickets 1,2")).hand(0, loco=1).game("compiled")
    titles = [card.title for card in v.ir.rule("bonus_cards").cards]
    route = v.ir.route_named("Åndalsnes-Trondheim/1")  # a ferry of one symbol, draw 1
    server, page, session = open_saved(browser, game, tmp_path / "saves", {"width": 1280, "height": 860})
    try:
        details = page.inner_text("#details")
        dealt = [titles[card] for card in game.state()["bonus_cards"]]
        assert all(title in details for title in dealt), (dealt, details)
        ready = page.get_attribute("body", "data-ready")
        page.locator(f'#map g.route[data-route="{route.name}"]').dispatch_event("click")
        page.locator("#decide .picked-choices button.choice").first.click()
        page.wait_for_function("(before) => document.body.dataset.ready !== before", arg=ready)
        state = session.game.state()
        assert state["owner"][route.id] == 0 and state["bonus_drawn"][0] == 1
        assert sum(state["hands"][0]) == 1  # the locomotive paid, one card drawn
        page.close()
    finally:
        server.__exit__(None, None, None)
