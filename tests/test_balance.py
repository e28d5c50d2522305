"""Balance campaigns and their report (the ``balance`` extra: pandas and matplotlib; the
Ray test needs the ``cluster`` extra)."""
from __future__ import annotations

import csv
import dataclasses
import html
import multiprocessing
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

import railspec
from railspec.playtest import balance
from railspec.tools.cli import main

pytest.importorskip("pandas")
pytest.importorskip("matplotlib")
from railspec.playtest import report


def _plan(**kw):
    base = dict(variant="usa", players=3, games=12, seed=7)
    base.update(kw)
    return balance.CampaignPlan(**base)


def test_the_same_seed_gives_the_same_records_whatever_the_workers():
    one = balance.run_campaign(_plan(), workers=1)
    two = balance.run_campaign(_plan(), workers=2)
    assert one == two
    assert [r["game"] for r in one] == list(range(12))


def test_another_seed_gives_other_games():
    assert balance.run_campaign(_plan(games=4), workers=1) != balance.run_campaign(_plan(games=4, seed=8), workers=1)


def test_every_agent_plays_every_seat_equally():
    plan = _plan(players=4, games=8)
    seats = {(g, s): plan.seats(g)[s] for g in range(8) for s in range(4)}
    for agent in plan.agents:
        for seat in range(4):
            assert sum(1 for g in range(8) if seats[(g, seat)] == agent) == 2


def test_records_agree_with_the_games_breakdown():
    """The completed tickets a record lists (from the routes owned) match the engine's count."""
    for rec in balance.run_campaign(_plan(variant="europe", games=6), workers=1):
        for seat in rec["seats"]:
            assert len(seat["completed"]) == seat["breakdown"]["tickets_completed"]
            assert set(seat["completed"]) <= set(seat["tickets"])


@pytest.mark.parametrize("bad, match", [
    (dict(games=0), "games must be a positive integer"),
    (dict(players=9), "players"),
    (dict(agents=("nobody",)), "no agent named 'nobody'"),
    (dict(agents=()), "at least one agent"),
])
def test_bad_plans_are_refused_before_any_game(bad, match):
    with pytest.raises(ValueError, match=match):
        balance.run_campaign(_plan(**bad), workers=1)


class _Structure(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections, self.images, self.svgs, self.tables = [], [], 0, 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section":
            self.sections.append(attrs.get("id"))
        elif tag == "img":
            self.images.append(attrs.get("src", ""))
        elif tag == "svg":
            self.svgs += 1
        elif tag == "table":
            self.tables += 1


@pytest.mark.parametrize("name", ["usa", "europe"])
def test_the_report_has_every_section_and_plot(tmp_path, name):
    plan = _plan(variant=name, games=10)
    records = balance.run_campaign(plan, workers=1)
    written = report.write_report(railspec.load(name), records, tmp_path / "out", plan, seconds=1.0)
    page = _Structure()
    page.feed(written[0].read_text(encoding="utf-8"))
    assert page.sections == [sid for sid, _ in report.SECTIONS]
    assert len(page.images) == 5  # seats, agents, scores, tickets, length
    for src in page.images:  # embedded, so the file stands alone
        assert src.startswith("data:image/png;base64,") and len(src) > 2000
    assert page.svgs == 1 and page.tables >= 6
    text = written[0].read_text(encoding="utf-8")
    mechanics = text[text.index('<section id="mechanics">'):]
    # each mechanic's own score items, named with their mechanic; the core's are not there
    assert "longest_bonus (longest_path)" in mechanics and "<th>routes" not in mechanics
    if name == "europe":
        assert "stations_built (stations)" in mechanics
    with open(written[1], newline="") as f:
        assert len(list(csv.DictReader(f))) == 10
    with open(written[2], newline="") as f:
        assert len(list(csv.DictReader(f))) == 30


BROWSER = next((shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(name)), None)


@pytest.mark.skipif(BROWSER is None, reason="no headless Chromium on this machine")
def test_the_report_renders_in_a_headless_browser(tmp_path):
    """The report opens in a real browser: Chromium, headless, loads it from disk, its DOM
    keeps every section, plot and the map, and a screenshot of it is drawn."""
    plan = _plan(variant="usa", games=10)
    written = report.write_report(railspec.load("usa"), balance.run_campaign(plan, workers=1),
                                  tmp_path / "out", plan, seconds=1.0)
    flags = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    url = written[0].resolve().as_uri()
    dom = subprocess.run(flags + ["--dump-dom", url], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    page = _Structure()
    page.feed(dom.stdout)
    assert page.sections == [sid for sid, _ in report.SECTIONS]
    assert len(page.images) == 5 and page.svgs == 1
    shot = tmp_path / "report.png"
    drawn = subprocess.run(flags + ["--window-size=1200,3000", f"--screenshot={shot}", url],
                           capture_output=True, text=True, timeout=120)
    assert drawn.returncode == 0, drawn.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


def test_wilson_interval():
    low, high = report.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert report.wilson(0, 0) == (0.0, 0.0)


def test_a_local_ray_instance_gives_the_same_records():
    pytest.importorskip("ray")
    plan = _plan(players=2, games=6)
    assert balance.run_campaign(plan, ray_address="local") == balance.run_campaign(plan, workers=1)


def test_the_records_count_the_tickets_scoring_counts():
    """A seat's completed tickets are the game's own (``Game.completed_tickets``, scoring's
    count, a station's borrowed route included): as many as the breakdown says."""
    records = balance.run_campaign(_plan(variant="europe", games=6), workers=1)
    for record in records:
        for seat in record["seats"]:
            assert len(seat["completed"]) == seat["breakdown"]["tickets_completed"]
            assert set(seat["completed"]) <= set(seat["tickets"])


def test_a_campaign_on_the_reference_engine_plays_the_same_games():
    """`simulate --engine reference --agents …` plays on the reference engine (it once
    used the compiled one silently); the records are the same either way."""
    plan = _plan(players=2, games=3, agents=("random", "one-step"))
    compiled = balance.run_campaign(plan, workers=1)
    reference = balance.run_campaign(dataclasses.replace(plan, engine="reference"), workers=1)
    assert reference == compiled


def test_simulate_with_agents_names_the_engine_it_used(capsys):
    assert main(["simulate", "usa", "--players", "2", "--games", "2", "--agents", "random", "--workers", "1",
                 "--engine", "reference"]) == 0
    assert "reference engine" in capsys.readouterr().out


@pytest.mark.parametrize("address,fragment", [
    ("nonsense:1234", "cannot reach the Ray cluster at nonsense:1234"),
    ("127.0.0.1:1", "cannot reach the Ray cluster at 127.0.0.1:1"),
    ("ray://127.0.0.1:1", "cannot reach the Ray cluster at ray://127.0.0.1:1"),
    ("nonsense", "an address is HOST:PORT"),
])
def test_a_cluster_that_does_not_answer_is_one_line_within_seconds(address, fragment):
    """`--ray nonsense:1234` once retried for over 10 minutes: the address is tried first,
    with a timeout, and refused in one line."""
    with pytest.raises(balance.ClusterError, match=re.escape(fragment)):
        balance.reach_cluster(address, timeout=2.0)


def test_the_command_line_refuses_a_bad_cluster_in_one_line(capsys):
    pytest.importorskip("ray")
    assert main(["balance", "usa", "--players", "2", "--games", "2", "--ray", "127.0.0.1:1", "--out",
                 "report-never-written"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot reach the Ray cluster at 127.0.0.1:1" in err


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(k) for k in f.read().split()]
    except OSError:
        return []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("command", ["balance", "simulate"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_campaign_stops_at_once_with_its_workers_reaped(tmp_path, command, signum):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) or SIGTERM to the
    parent alone stops a 2-worker campaign of 200,000 games: it once ran to its end after a
    Ctrl-C (51 s) and left its workers orphaned after a SIGTERM. Now the command ends in one
    line, 128 + the signal's number, its workers are gone and no report is left behind."""
    out = tmp_path / "report"
    argv = [sys.executable, "-m", "railspec", command, "usa", "--players", "2", "--games", "200000",
            "--workers", "2", "--quiet"]
    argv += ["--out", str(out)] if command == "balance" else ["--agents", "one-step,greedy"]
    # started as from a terminal: a background job's ignored Ctrl-C would be inherited
    # (tests/test_tune.py::test_ctrl_c_on_the_command_line says why)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        child = subprocess.Popen(argv, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        waited = 0.0
        while len(_children(child.pid)) < 2 and waited < 60:  # the workers have started
            time.sleep(0.1)
            waited += 0.1
        workers = _children(child.pid)
        assert len(workers) >= 2, "the campaign never started its workers"
        time.sleep(1.0)  # games are being played
        if signum == signal.SIGINT:
            os.killpg(child.pid, signum)
        else:
            child.send_signal(signum)
        stdout, stderr = child.communicate(timeout=30)  # it used to take the whole campaign
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
    assert child.returncode == 128 + signum
    why = "interrupted" if signum == signal.SIGINT else "stopped by SIGTERM"
    assert re.fullmatch(rf"railspec: {command}: {why} after [\d,]+ of 200,000 games; [^\n]+\n", stderr), stderr
    assert "Traceback" not in stderr and stdout == ""
    assert not [pid for pid in workers if os.path.exists(f"/proc/{pid}")], "a worker outlived the campaign"
    assert not out.exists(), "a stopped balance left files behind"


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie nobody has reaped yet)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def _wait_until_gone(pids: list[int], seconds: float = 30.0) -> list[int]:
    """The processes of ``pids`` still running after waiting up to ``seconds`` for them
    to end (a liveness bound, not a timing measure: they end within milliseconds)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not all(_gone(pid) for pid in pids):
        time.sleep(0.05)
    return [pid for pid in pids if not _gone(pid)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_workers_end_when_the_campaign_is_killed_outright(tmp_path: Path) -> None:
    """SIGKILL leaves the parent no chance to stop its workers: a 2-worker balance of
    200,000 games killed so once left both workers playing on, children of init. Now
    each worker watches its lifeline and ends with the parent, in the middle of a chunk."""
    argv = [sys.executable, "-m", "railspec", "balance", "usa", "--players", "2", "--games", "200000",
            "--workers", "2", "--quiet", "--out", str(tmp_path / "report")]
    child = subprocess.Popen(argv, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
            workers = _children(child.pid)
        assert len(workers) >= 2, "the campaign never started its workers"
        time.sleep(0.5)  # games are being played
        child.kill()
        child.wait(timeout=30)
        assert _wait_until_gone(workers) == [], "a worker outlived its killed parent"
    finally:
        for pid in workers:
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)


def _fail_in_worker(plan, games):
    raise ValueError("a bad chunk")


def _die_in_worker(plan, games):
    os._exit(3)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers inherit the patch")
@pytest.mark.parametrize("chunk, error, match", [(_fail_in_worker, ValueError, "a bad chunk"),
                                                 (_die_in_worker, balance.WorkerDied, "exit code 3")])
def test_a_workers_error_or_death_reaches_the_caller_and_no_worker_is_left(monkeypatch, chunk, error, match):
    """An exception in a worker is raised in the parent; a worker that dies without
    answering is a WorkerDied, not a hang; either way every worker is reaped."""
    monkeypatch.setattr(balance, "play_chunk", chunk)
    with pytest.raises(error, match=match):
        with balance.Campaign(_plan(games=40), workers=2) as records:
            for _ in records:
                pass
    assert multiprocessing.active_children() == []


def test_a_stopped_report_leaves_an_existing_folder_as_it_was(tmp_path):
    out = tmp_path / "report"
    out.mkdir()
    (out / "report.html").write_text("the last campaign's")
    plan = _plan(games=3)
    with pytest.raises(RuntimeError):
        with balance.Campaign(plan, workers=1) as records, \
                report.ReportWriter(railspec.load("usa"), out, plan) as writer:
            for record in records:
                writer.add(record)
            raise RuntimeError("stopped")
    assert sorted(p.name for p in out.iterdir()) == ["report.html"]
    assert (out / "report.html").read_text() == "the last campaign's"


def test_the_records_are_handed_on_in_order_from_a_bounded_window():
    """_in_order keeps at most `window` chunks submitted or waiting for an earlier one,
    whatever order they finish in, and hands them on in order."""
    rng = random.Random(5)
    running: dict[int, int] = {}
    most = 0

    def submit(chunk):
        nonlocal most
        handle = len(running) + 1000 * chunk
        running[handle] = chunk
        most = max(most, len(running))
        return handle

    def wait_any(handles):
        done = rng.sample(handles, rng.randint(1, len(handles)))
        return {h: [running.pop(h)] for h in done}
    got = [chunk for batch in balance._in_order(submit, wait_any, range(200), window=6) for chunk in batch]
    assert got == list(range(200))
    assert most <= 6


def _peak_memory_kb(games: int) -> int:
    code = ("import resource, sys\nfrom railspec.tools.cli import main\n"
            f"assert main(['simulate', 'amsterdam', '--players', '2', '--games', '{games}', '--agents', 'greedy', "
            "'--workers', '2', '--quiet']) == 0\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stderr.split()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss is in kB on Linux")
def test_a_campaigns_memory_does_not_grow_with_its_games():
    """The parent holds a bounded window of records, not all of them: 20,000 games peak
    where 2,000 do (holding every record took about 50 MB more for the 18,000 more games;
    a 10M-game campaign grew to 6.5 GB)."""
    small, large = _peak_memory_kb(2000), _peak_memory_kb(20000)
    assert large - small < 8 * 1024, (small, large)


def _section(text: str, sid: str) -> str:
    start = text.index(f'<section id="{sid}">')
    return text[start:text.index("</section>", start)]


def test_the_report_summarizes_each_item_by_what_it_measures(tmp_path):
    """A station's route is a route id and a company's place a rank: the mechanics table
    once averaged route ids (values like -0.86). Tickets never dealt were listed with NaN."""
    plan = _plan(variant="europe", players=3, games=12)
    written = report.write_report(railspec.load("europe"), balance.run_campaign(plan, workers=1),
                                  tmp_path / "out", plan, seconds=1.0)
    text = re.sub(r'src="data:[^"]*"', "", written[0].read_text(encoding="utf-8"))  # the plots' bytes
    assert "NaN" not in text and ">nan<" not in text
    mechanics = _section(text, "mechanics")
    row = mechanics[mechanics.index("<th>station_1_route (stations)</th>"):]
    row = row[:row.index("</tr>")]
    cells = re.findall(r"<td>([^<]*)</td>", row)
    assert cells and all(re.fullmatch(r"in \d+% of games", c) for c in cells), cells
    assert not re.search(r"<td>-\d", mechanics), "a negative mean: an id or a 'none' was averaged"
    # a mechanic's action no agent took is said, by kind and mechanic
    tally = balance_tally(plan)
    for kind, owner, _never in tally.unused_kinds():
        assert f"{kind} ({owner})" in mechanics
    # never-dealt tickets are named apart, not given a rate
    tickets = _section(text, "tickets")
    never_dealt = [t.name for t, held in zip(railspec.load("europe").ir.tickets, tally.ticket_held) if not held]
    assert never_dealt and all(html.escape(name) in tickets.split("Never dealt")[1] for name in never_dealt)


def balance_tally(plan):
    from railspec.playtest.tally import CampaignTally
    return CampaignTally(railspec.load(plan.variant)).add_all(balance.run_campaign(plan, workers=1))


def test_a_double_routes_tracks_count_together_among_rare_connections(tmp_path):
    """At 3 players only one track of a USA double route may be claimed: the other was
    listed as never claimed. A connection is listed only when no track of it was claimed
    in 5% of the games."""
    plan = _plan(players=3, games=30)
    records = balance.run_campaign(plan, workers=1)
    written = report.write_report(railspec.load("usa"), records, tmp_path / "out", plan, seconds=1.0)
    rare = _section(written[0].read_text(encoding="utf-8"), "rare-routes")
    variant = railspec.load("usa").ir
    claimed = {}
    for rec in records:
        for r in {(min(x.a, x.b), max(x.a, x.b)) for x, who in zip(variant.routes, rec["owner"]) if who >= 0}:
            claimed[r] = claimed.get(r, 0) + 1
    for (a, b), games in claimed.items():
        if games >= 0.05 * len(records):
            name = html.escape(f"{variant.cities[a].name}–{variant.cities[b].name}")
            assert f"<td>{name}</td>" not in rare, name
    assert "/2" not in rare
