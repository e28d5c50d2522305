"""The `railspec` command line: each subcommand on good and bad input."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import railspec
from railspec.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    """Run the real console entry point in a subprocess (what a user types)."""
    return subprocess.run([sys.executable, "-m", "railspec", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


def test_check_accepts_the_usa_spec():
    p = run("check", "spec/usa.rail")
    assert p.returncode == 0 and "36 cities, 100 routes (309 cars), 30 tickets" in p.stdout


def test_check_reports_a_located_error_without_a_traceback(tmp_path):
    text = (ROOT / "spec/usa.rail").read_text().replace("route Portland - Seattle 1 gray",
                                                       "route Portland - Atlantis 1 gray", 1)
    bad = tmp_path / "bad.rail"
    bad.write_text(text)
    line = text.splitlines().index("route Portland - Atlantis 1 gray") + 1
    p = run("check", str(bad))
    assert p.returncode == 1
    assert f"{bad}:{line}:18: unknown city 'Atlantis'" in p.stderr
    assert "Traceback" not in p.stderr and "^" in p.stderr


def test_check_of_a_missing_file_is_an_error_not_a_traceback(tmp_path):
    p = run("check", str(tmp_path / "nope.rail"))
    assert p.returncode != 0 and "no such spec file" in p.stderr and "Traceback" not in p.stderr


def test_simulate_prints_the_summary(capsys):
    assert main(["simulate", "usa", "--players", "3", "--games", "30", "--seed", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "30 random 3-player games" in out and "win rate" in out and "game length" in out


def _playable_counts():
    from conftest import implemented_stock_variants
    return [(v.key, n) for v in implemented_stock_variants() for n in range(v.ir.min_players, v.ir.max_players + 1)]


@pytest.mark.parametrize("variant,players", _playable_counts())
def test_simulate_runs_every_playable_variant_at_every_player_count(variant, players, capsys):
    """The compiled engine plays every stock variant it implements at every player count."""
    assert main(["simulate", variant, "--players", str(players), "--games", "40", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"40 random {players}-player games" in out and "compiled engine" in out


def test_score_prints_each_players_breakdown(tmp_path, capsys):
    position = {"variant": "usa", "players": [
        {"routes": ["Calgary-Helena", "Helena-Salt Lake City"], "tickets": ["Calgary-Salt Lake City"]},
        {"routes": ["Duluth-Helena"], "tickets": []}]}
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position))
    assert main(["score", "usa", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    row0 = out[2].split()
    assert row0[:7] == ["0", "11", "7", "1", "7", "10", "28"] and row0[7] == "winner"


def test_score_names_the_route_each_station_uses(tmp_path, capsys):
    """Europe: a station in Paris lets player 0 use player 1's Marseille-Paris for the
    Brest-Marseille ticket; the table shows the route's id, the line under it its name."""
    position = {"variant": "europe", "players": [
        {"routes": ["Brest-Paris"], "tickets": ["Brest-Marseille"], "stations": ["Paris"]},
        {"routes": ["Marseille-Paris"], "tickets": []}]}
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position))
    assert main(["score", "europe", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[:11] == ["player", "routes", "tickets", "done", "longest", "bonus", "stations", "built",
                                   "st1", "st2", "st3"]
    used = railspec.load("europe").ir.route_named("Marseille-Paris").id
    assert out[2].split()[2:4] == ["7", "1"] and out[2].split()[6:9] == ["8", "1", str(used)]
    assert "player 0: 1 station, using Marseille-Paris" in out


def test_score_rejects_an_unknown_route(tmp_path, capsys):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"variant": "usa", "players": [{"routes": ["Calgary-Helenaa"]}, {}]}))
    assert main(["score", "usa", str(path)]) == 2
    assert "did you mean 'Calgary-Helena'" in capsys.readouterr().err


def test_trace_then_verify_in_both_engines(tmp_path, capsys):
    out = tmp_path / "game.jsonl"
    assert main(["trace", "usa", "--seed", "9", "--players", "3", "--out", str(out)]) == 0
    assert main(["verify", str(out), "--engine", "both"]) == 0
    lines = out.read_text().splitlines()
    record = json.loads(lines[5])
    record["action"] = "pass"
    lines[5] = json.dumps(record)
    out.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["verify", str(out)]) == 1
    assert "step 4" in capsys.readouterr().out


def test_conformance_passes_on_a_few_games(capsys):
    assert main(["conformance", "spec/usa.rail", "--games", "4", "--quiet"]) == 0
    assert "PASS" in capsys.readouterr().out


@pytest.mark.parametrize("args", [["simulate", "usa", "--players", "9"], ["simulate", "atlantis"],
                                  ["score", "usa", "/nonexistent.json"]])
def test_bad_usage_is_a_message_not_a_traceback(args, capsys):
    assert main(args) == 2
    assert "railspec:" in capsys.readouterr().err
