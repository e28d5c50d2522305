"""The `railspec` command line: each subcommand on good and bad input."""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import railspec
from railspec.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    """Run the real console entry point in a subprocess (what a user types)."""
    return subprocess.run([sys.executable, "-m", "railspec", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


def test_check_accepts_the_usa_spec():
    p = run("check", "spec/usa.rail")
    assert p.returncode == 0 and "36 cities, 100 routes (309 cars), 30 tickets" in p.stdout


def test_compile_says_how_the_engine_was_built(tmp_path, monkeypatch):
    """A spec that changes a stock map is built from the installed translation of the stock
    code, and its second build is a cache hit; `compile` says which."""
    monkeypatch.setenv("RAILSPEC_CACHE", str(tmp_path / "cache"))
    spec = tmp_path / "mine.rail"
    spec.write_text('extends "usa"\nvariant "Mine"\ntrains 40\n', encoding="utf-8")
    first, second = run("compile", str(spec)), run("compile", str(spec))
    assert first.returncode == 0 and "compiled: the translation of its code installed with railspec" in first.stdout
    assert second.returncode == 0 and "Mine: engine ready in" in second.stdout
    assert "from the build cache" in second.stdout
    assert "the installed stock module" in run("compile", "usa").stdout


def test_check_reports_a_located_error_without_a_traceback(tmp_path):
    # the first Portland - Seattle track, however its route table is aligned, goes to Atlantis
    text = re.sub(r"(route Portland +- )Seattle( +1 gray)", r"\1Atlantis\2",
                  (ROOT / "spec/usa.rail").read_text(), count=1)
    bad = tmp_path / "bad.rail"
    bad.write_text(text)
    line, source = next((n, s) for n, s in enumerate(text.splitlines(), 1) if "Atlantis" in s)
    p = run("check", str(bad))
    assert p.returncode == 1
    assert f"{bad}:{line}:{source.index('Atlantis') + 1}: unknown city 'Atlantis'" in p.stderr
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


# --- bad command lines (issue 10, point 7) -------------------------------------------------

USA_POSITION = {"variant": "usa", "players": [{"routes": ["Calgary-Helena"]}, {"routes": []}]}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Input files for the table below, by name."""
    root = tmp_path_factory.mktemp("cli")
    golden = (ROOT / "tests/golden/usa-2p-seed1.jsonl").read_text(encoding="utf-8")
    header = json.loads(golden.split("\n")[0])
    made = {
        "dir": "",
        "not_json": "{",
        "empty": "",
        "bad_route": json.dumps({"players": [{"routes": ["Helena-Calgary"]}, {}]}),
        "two_tracks": json.dumps({"players": [{"routes": ["Portland-Seattle/1", "Portland-Seattle/2"]}, {}]}),
        "deep": "[" * 100_000,
        "bom_position": "\ufeff" + json.dumps(USA_POSITION),
        "trace_no_seed": json.dumps({k: v for k, v in header.items() if k != "seed"}) + "\n",
        "trace_list_line": golden.split("\n")[0] + "\n[1, 2]\n",
        "trace_custom": golden.replace('"variant":"usa"', '"variant":"my-map"', 1),
        "trace_path": golden.replace('"variant":"usa"', '"variant":"/etc/passwd"', 1),
        "perft_custom": (ROOT / "tests/perft/usa.perft").read_text(encoding="utf-8")
        .replace('"variant":"usa"', '"variant":"my-map"', 1),
        "perft_bad": '{"type":"header","format":"railspec-perft/1","variant":"usa","spec_hash":"x"}\n{"name": 5}\n',
    }
    paths = {}
    for name, text in made.items():
        path = root / name
        if name == "dir":
            path.mkdir()
        else:
            path.write_text(text, encoding="utf-8")
        paths[name] = str(path)
    os.mkfifo(root / "fifo")  # a reader that opened it would wait for a writer forever
    paths["fifo"] = str(root / "fifo")
    with open(root / "huge", "wb") as huge:  # sparse: larger than any kind of file read
        huge.truncate(65 * 1024 * 1024)
    paths["huge"] = str(root / "huge")
    paths["missing"] = str(root / "missing.json")
    (root / "state").write_text(railspec.load("usa").new_game(players=2, seed=1).to_json(), encoding="utf-8")
    paths["state"] = str(root / "state")

    paths["no_dir"] = str(root / "no" / "such" / "dir" / "out.jsonl")
    paths["new"] = str(root / "written-by-a-row.json")  # a file a refused command must not write
    return paths


# (arguments, exit status, a fragment of the one-line error); {name} is a file of `files`
BAD_COMMAND_LINES = [
    ([], 2, "the following arguments are required"),
    (["frobnicate"], 2, "invalid choice"),
    (["check"], 2, "required: file"),
    (["check", "atlantis"], 2, "no stock variant or spec file named 'atlantis'"),
    (["check", "{missing}.rail"], 1, "no such spec file"),
    (["compile", "usa", "--out", "x.pyx"], 2, "--emit-only"),
    (["compile", "usa", "--emit-only", "--out", "{no_dir}"], 2, "no directory"),
    (["compile", "usa", "--emit-only", "--out", "{dir}"], 2, "is a directory"),
    (["compile", "atlantis"], 2, "atlantis"),
    (["simulate", "usa", "--games", "0"], 2, "--games: 0 is less than 1"),
    (["simulate", "usa", "--games", "-5"], 2, "--games"),
    (["simulate", "usa", "--games", "many"], 2, "'many' is not a whole number"),
    (["simulate", "usa", "--games", "1.5"], 2, "--games"),
    (["simulate", "usa", "--players", "0"], 2, "--players"),
    (["simulate", "usa", "--players", "9"], 2, "USA is for 2 to 5 players, not 9"),
    (["simulate", "usa", "--players", "x"], 2, "--players"),
    (["simulate", "usa", "--seed", "x"], 2, "--seed"),
    (["simulate", "usa", "--seed", "1.5"], 2, "--seed"),
    (["simulate", "usa", "--engine", "quantum"], 2, "--engine"),
    (["simulate", "atlantis"], 2, "atlantis"),
    (["simulate", "usa", "--frobnicate"], 2, "unrecognized arguments"),
    (["score", "usa", "{missing}"], 2, "{missing}"),
    (["score", "usa", "{not_json}"], 2, "{not_json}: not JSON"),
    (["score", "usa", "{empty}"], 2, "{empty}: not JSON"),
    (["score", "usa", "{deep}"], 2, "{deep}: not a position"),
    (["score", "usa", "{dir}"], 2, "{dir}"),
    (["score", "usa", "/dev/zero"], 2, "/dev/zero: not a regular file (a device)"),
    (["score", "usa", "{fifo}"], 2, "{fifo}: not a regular file (a pipe)"),
    (["score", "usa", "{huge}"], 2, "larger than the 4 MB a position file may be"),
    (["score", "usa", "{bad_route}"], 2, "{bad_route}: player 0: no route named 'Helena-Calgary'"),
    (["score", "usa", "{two_tracks}"], 2, "{two_tracks}: player 0"),
    (["score", "atlantis", "{bad_route}"], 2, "atlantis"),
    (["trace", "usa", "--out", "{no_dir}"], 2, "no directory"),
    (["trace", "usa", "--out", "{dir}"], 2, "is a directory"),
    (["trace", "usa", "--players", "9"], 2, "not 9"),
    (["trace", "usa", "--players", "0"], 2, "--players"),
    (["trace", "usa", "--seed", "seven"], 2, "--seed"),
    (["verify", "{missing}"], 2, "{missing}: no such trace file"),
    (["verify", "/dev/zero"], 2, "/dev/zero: not a regular file (a device)"),
    (["verify", "{fifo}"], 2, "{fifo}: not a regular file (a pipe)"),
    (["verify", "{huge}"], 2, "{huge}: 68,157,440 bytes, larger than the 64 MB a trace file may be"),
    (["verify", "{not_json}"], 2, "{not_json}: line 1: not JSON"),
    (["verify", "{empty}"], 2, "{empty}: an empty trace"),
    (["verify", "{deep}"], 2, "{deep}: line 1"),
    (["verify", "{trace_no_seed}"], 2, "{trace_no_seed}: line 1: no 'seed'"),
    (["verify", "{trace_list_line}"], 2, "{trace_list_line}: line 2"),
    (["verify", "{trace_custom}"], 2, "not a stock variant: pass its spec file with --spec"),
    (["verify", "{trace_path}"], 2, "'/etc/passwd', which is not a stock variant"),
    (["verify", "{trace_custom}", "--spec", "atlantis"], 2, "atlantis"),
    (["verify", "{trace_custom}", "--engine", "quantum"], 2, "--engine"),
    (["perft", "{missing}"], 2, "{missing}: no such perft file"),
    (["perft", "/dev/zero"], 2, "/dev/zero: not a regular file (a device)"),
    (["perft", "{fifo}"], 2, "{fifo}: not a regular file (a pipe)"),
    (["perft", "{not_json}"], 2, "{not_json}: line 1"),
    (["perft", "{perft_bad}"], 2, "{perft_bad}: line 2"),
    (["perft", "{perft_custom}"], 2, "not a stock variant: pass its spec file with --spec"),
    (["conformance", "usa", "--games", "0"], 2, "--games: 0 is less than 1"),
    (["conformance", "usa", "--games", "-3"], 2, "--games"),
    (["conformance", "usa", "--api-every", "-1"], 2, "--api-every: -1 is less than 0"),
    (["conformance", "usa", "--api-every", "often"], 2, "--api-every"),
    (["conformance", "usa", "--seed", "x"], 2, "--seed"),
    (["conformance", "atlantis"], 2, "atlantis"),
    (["simulate", "usa", "--agents", "nobody"], 2, "--agents: no agent named 'nobody'"),
    (["simulate", "usa", "--agents", ","], 2, "--agents: name at least one agent"),
    (["simulate", "usa", "--agents", "random", "--workers", "0"], 2, "--workers: 0 is less than 1"),
    (["balance", "usa", "--games", "0"], 2, "--games: 0 is less than 1"),
    (["balance", "usa", "--players", "9"], 2, "USA is for 2 to 5 players, not 9"),
    (["balance", "usa", "--agents", "greedy,nobody"], 2, "no agent named 'nobody'"),
    (["balance", "usa", "--out", "{empty}"], 2, "exists and is not a folder"),
    (["balance", "usa", "--workers", "-1"], 2, "--workers"),
    (["balance", "atlantis"], 2, "atlantis"),
    (["render", "usa", "--out", "{dir}"], 2, "is a directory"),
    (["render", "usa", "--state", "{missing}"], 2, "{missing}"),
    (["render", "usa", "--state", "{not_json}"], 2, "not a railspec state"),
    (["render", "usa", "--state", "/dev/zero"], 2, "/dev/zero: not a regular file (a device)"),
    (["render", "usa", "--state", "{fifo}"], 2, "{fifo}: not a regular file (a pipe)"),
    (["render", "usa", "--state", "{huge}"], 2, "larger than the 8 MB a state file may be"),
    (["render", "atlantis"], 2, "atlantis"),
    (["render", "usa", "--state", "{state}", "--out", "{state}"], 2,
     "--out {state} is the --state file: the picture would overwrite the state"),
    (["simulate", "usa", "--games", "2", "--workers", "2"], 2, "--workers is for games of agents (--agents)"),
    (["balance", "usa", "--out", ""], 2, "an empty folder name"),
    (["balance", "usa", "--out", "{no_dir}"], 2, "no directory"),
    (["trace", "usa", "--out", ""], 2, "an empty file name"),
    (["simulate", "usa", "--games", "2", "--save-state", "{state}"], 2,
     "--save-state is for games of agents (--agents)"),
    (["trace", "usa", "--state-at", "4"], 2, "--state-at says when to save the state: give --save-state FILE"),
    (["trace", "usa", "--players", "2", "--seed", "3", "--save-state", "{new}", "--state-at", "100000"], 2,
     "before --state-at 100000"),
    (["trace", "usa", "--out", "{new}", "--save-state", "{new}"], 2, "--save-state {new} is the --out file"),
    (["trace", "usa", "--save-state", "{no_dir}"], 2, "no directory"),
]


@pytest.mark.parametrize("argv,status,fragment", BAD_COMMAND_LINES,
                         ids=[" ".join(a) or "(nothing)" for a, _, _ in BAD_COMMAND_LINES])
def test_a_bad_command_line_is_one_line_and_a_status(files, argv, status, fragment, capsys, monkeypatch):
    # a terminal: any progress bar drawn before the error would show up on stderr
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    argv = [a.format(**files) for a in argv]
    assert main(argv) == status
    out, err = capsys.readouterr()
    lines = [line for line in err.split("\n") if line]
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("railspec" if status == 2 else argv[-1]), err  # a spec's errors are file:...
    assert fragment.format(**files) in lines[0]
    assert out == ""


def test_bad_usage_in_a_real_process_is_status_2_without_a_traceback():
    p = run("conformance", "usa", "--games", "0")
    assert p.returncode == 2 and "PASS" not in p.stdout
    assert p.stderr.strip().count("\n") == 0 and "--games" in p.stderr and "Traceback" not in p.stderr


def test_a_spec_named_without_its_extension_gets_a_hint(tmp_path, monkeypatch, capsys):
    """`railspec score fenland` next to fenland.rail: the one-line error says which file was
    meant (a bare name is a stock variant's, so the file is not read unasked)."""
    (tmp_path / "fenland.rail").write_text("# a spec\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["score", "fenland", "position.json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no stock variant or spec file named 'fenland'" in err
    assert "did you mean fenland.rail?" in err


def test_check_takes_a_stock_name(capsys):
    assert main(["check", "usa"]) == 0
    assert "usa: ok — USA: 36 cities" in capsys.readouterr().out


def test_score_reads_a_position_with_a_byte_order_mark(files, capsys):
    assert main(["score", "usa", files["bom_position"]]) == 0
    assert capsys.readouterr().out.splitlines()[2].split()[:2] == ["0", "7"]


def test_score_and_verify_accept_a_renamed_spec(files, tmp_path, capsys):
    """A spec's traces and positions stay valid under another file name: the spec hash
    identifies it."""
    mine = tmp_path / "my-map.rail"
    mine.write_text((ROOT / "spec/usa.rail").read_text(encoding="utf-8"), encoding="utf-8")
    usa = railspec.load("usa")
    position = tmp_path / "pos.json"
    position.write_text(json.dumps({**USA_POSITION, "variant": "my-map", "spec_hash": usa.spec_hash}))
    assert main(["score", str(mine), str(position)]) == 0
    assert main(["score", "usa", str(position)]) == 0
    assert main(["verify", files["trace_custom"], "--spec", str(mine), "--engine", "reference"]) == 0


def test_the_progress_bar_is_drawn_only_on_a_terminal(capsys, monkeypatch):
    assert main(["simulate", "usa", "--players", "2", "--games", "5"]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["simulate", "usa", "--players", "2", "--games", "5"]) == 0
    assert "5/5" in capsys.readouterr().err
    assert main(["simulate", "usa", "--players", "2", "--games", "5", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_no_progress_bar_reaches_a_log():
    p = run("conformance", "usa", "--games", "2", "--api-every", "0")
    assert p.returncode == 0 and p.stderr == "" and "PASS" in p.stdout


def test_help_gives_every_options_default():
    from railspec.tools.cli import build_parser
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in subparsers.choices.items():
        text = " ".join(sub.format_help().split())
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"{name} {action.dest}: no help"
            if action.option_strings:
                default = "(default:" if action.default is None else f"(default: {action.default})"
                assert default in text, f"{name} {action.option_strings[0]}"
        assert "(default: None)" not in text, name


def test_help_exits_0(capsys):
    assert main(["simulate", "--help"]) == 0
    assert "(default: 1000)" in capsys.readouterr().out


def test_render_accepts_a_state_with_a_byte_order_mark_from_a_renamed_spec(tmp_path, capsys):
    """A state file is matched to a spec by its spec hash, as positions and traces are: a
    copy of the USA spec under another name reads a state saved from USA; and a byte order
    mark is skipped, as every other reader skips it."""
    state = railspec.load("usa").new_game(players=2, seed=3).to_json()
    (tmp_path / "state.json").write_text("\ufeff" + state, encoding="utf-8")
    copy = tmp_path / "mine.rail"
    copy.write_text((ROOT / "spec/usa.rail").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "map.svg"
    assert main(["render", str(copy), "--state", str(tmp_path / "state.json"), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<svg")
    game = railspec.load(copy).game_from_json("\ufeff" + state)
    assert game.state()["variant"] == "mine" and game.state()["spec_hash"] == railspec.load("usa").spec_hash


def test_simulate_with_agents_summarizes_each_agent(capsys):
    assert main(["simulate", "usa", "--players", "2", "--games", "4", "--agents", "greedy,random",
                 "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "greedy" in out and "random" in out and "4 games in" in out


def test_balance_writes_the_report_folder(tmp_path, capsys):
    pytest.importorskip("pandas")
    out = tmp_path / "report"
    assert main(["balance", "usa", "--players", "2", "--games", "4", "--agents", "one-step,greedy",
                 "--workers", "1", "--out", str(out)]) == 0
    assert {p.name for p in out.iterdir()} == {"report.html", "games.csv", "seats.csv"}
    assert "wrote" in capsys.readouterr().out


def test_render_draws_a_games_claims(tmp_path, capsys):
    import railspec
    v = railspec.load("europe")
    g = v.new_game(players=3, seed=2)
    while not g.is_over and sum(1 for o in g.state()["owner"] if o >= 0) < 5:
        g.apply(g.legal_actions()[-2])
    state = tmp_path / "state.json"
    state.write_text(g.to_json(), encoding="utf-8")
    svg = tmp_path / "map.svg"
    assert main(["render", "europe", "--state", str(state), "--out", str(svg)]) == 0
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") and text.count('class="route claimed seat-') == 5


def test_check_and_the_reference_engine_work_without_the_agents_kernel(tmp_path):
    """A checkout whose compiled agents' kernel is not built still checks specs and plays
    the reference engine; asking for a scripted agent then says how to build it."""
    script = textwrap.dedent("""
        import sys
        sys.modules["railspec.playtest.agents._policy"] = None  # as if the extension were not built
        from railspec.tools.cli import main
        assert main(["check", "usa"]) == 0
        import railspec
        from railspec.playtest import agents
        g = railspec.load("europe").new_game(players=3, seed=1, engine="reference")
        g.apply(g.legal_actions()[0])
        try:
            agents.make("greedy").act(g)
        except railspec.RailspecError as err:
            print("refused:", err)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "refused: the scripted agents' compiled kernel" in done.stdout


def test_trace_saves_the_state_it_is_asked_for(tmp_path, capsys):
    """`trace --save-state FILE [--state-at N]` keeps a random game's state for `render`
    (the CLI had no way to write a played game's state)."""
    import railspec
    usa = railspec.load("usa")
    state, at_end, trace_file = tmp_path / "at40.json", tmp_path / "end.json", tmp_path / "t.jsonl"
    assert main(["trace", "usa", "--players", "3", "--seed", "5", "--out", str(trace_file),
                 "--save-state", str(state), "--state-at", "40"]) == 0
    assert main(["trace", "usa", "--players", "3", "--seed", "5", "--save-state", str(at_end)]) == 0
    capsys.readouterr()
    middle = usa.game_from_json(state.read_text(encoding="utf-8"))
    assert middle.state()["decisions"] == 40 and not middle.is_over
    end = usa.game_from_json(at_end.read_text(encoding="utf-8"))
    assert end.is_over and end.state()["decisions"] == len(trace_file.read_text().splitlines()) - 2
    svg = tmp_path / "map.svg"
    assert main(["render", "usa", "--state", str(at_end), "--out", str(svg)]) == 0


def test_simulate_with_agents_saves_the_first_games_final_state(tmp_path, capsys):
    import railspec
    from railspec.playtest import balance
    state = tmp_path / "first.json"
    assert main(["simulate", "europe", "--players", "3", "--games", "4", "--agents", "one-step,route-focus",
                 "--workers", "2", "--seed", "9", "--save-state", str(state)]) == 0
    assert f"wrote {state}" in capsys.readouterr().out
    plan = balance.CampaignPlan("europe", 3, 4, ("one-step", "route-focus"), seed=9)
    record = balance.run_campaign(plan, workers=1)[0]
    saved = railspec.load("europe").game_from_json(state.read_text(encoding="utf-8"))
    assert saved.is_over and saved.state()["owner"] == record["owner"]
    assert [row["total"] for row in saved.score_breakdown()] == [s["score"] for s in record["seats"]]
