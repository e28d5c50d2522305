"""The conformance kit for other engines (docs/conformance.md): the test vectors, their
JSON Schemas, the driver protocol and ``railspec test-engine``.

railspec's own engines behind the protocol (examples/conformance/railspec_engine.py) pass
every check; engines that crash, hang, answer garbage or flood are reported as such within
the timeout; an engine that differs is stopped at its first difference, which is named."""
from __future__ import annotations

import json
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import implemented_stock_variants

import railspec
from railspec.tools import driver, vectors
from railspec.tools.cli import main

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "examples" / "conformance" / "railspec_engine.py"
VARIANTS = implemented_stock_variants()
IDS = [v.key for v in VARIANTS]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Each stock variant's vectors, exported twice with the same arguments."""
    out = {}
    for v in VARIANTS:
        first, second = (tmp_path_factory.mktemp(f"{v.key}{k}") for k in "ab")
        vectors.export(v, first, games=2, seed=5)
        vectors.export(v, second, games=2, seed=5)
        out[v.key] = (first, second)
    return out


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_the_vectors_regenerate_identically(v, exported):
    first, second = exported[v.key]
    names = sorted(str(p.relative_to(first)) for p in first.rglob("*") if p.is_file())
    assert names == ["games.jsonl", "perft.jsonl", "schemas/games.schema.json", "schemas/perft.schema.json",
                     "schemas/position.schema.json", "schemas/scores.schema.json", "schemas/trace.schema.json",
                     "scores.jsonl"]
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


@pytest.mark.parametrize("v", VARIANTS, ids=IDS)
def test_every_exported_line_meets_its_schema(v, exported):
    folder = exported[v.key][0]
    for kind in vectors.KINDS:
        schema = json.loads((folder / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8"))
        validator = jsonschema.Draft202012Validator(schema)
        lines = (folder / f"{kind}.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) > 1, kind
        for number, line in enumerate(lines, 1):
            errors = sorted(validator.iter_errors(json.loads(line)), key=lambda e: list(e.path))
            assert not errors, f"{kind}.jsonl line {number}: {errors[0].message[:300]} at {list(errors[0].path)}"
    # positions on their own, and a wrong one is caught
    position = jsonschema.Draft202012Validator(
        json.loads((folder / "schemas" / "position.schema.json").read_text(encoding="utf-8")))
    start = json.loads((folder / "games.jsonl").read_text(encoding="utf-8").splitlines()[1])["start"]
    assert not list(position.iter_errors(start))
    start["deck"] = start["deck"][:-1] + ["mauve"]
    assert list(position.iter_errors(start))


def test_the_golden_traces_meet_the_trace_schema():
    from railspec.tools import schemas
    for path in sorted((ROOT / "tests" / "golden").glob("*.jsonl")):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
        variant = railspec.load(lines[0]["variant"])
        validator = jsonschema.Draft202012Validator(schemas.trace_schema(variant))
        for number, line in enumerate(lines, 1):
            errors = list(validator.iter_errors(line))
            assert not errors, f"{path.name} line {number}: {errors[0].message[:200]}"


HARD_CASES = {
    "usa": {vectors.TIE_LABEL, "network with two or more cycles", "longest path tied", vectors.ORDER_LABEL},
    "europe": {"a station choosing among routes", "network with two or more cycles", vectors.ORDER_LABEL},
    "amsterdam": {"a tie in the goods ranking"},
    "pennsylvania": {"a tied company majority", "globetrotter tied"},
    "italy": {"a double region reached"},
    "legendary_asia": {"explorer tied", "explorer tied after its keys"},
    "india": {"a grand tour ticket", "network with two or more cycles"},
    "japan": {"a tie on the Bullet Train track", "a player without Bullet Train contribution"},
}
#: Random games scanned for them: a Grand Tour is rare in random play (the first of these
#: seeds comes in the 62nd game scanned).
SCAN = {"india": 80}


@pytest.mark.parametrize("name", sorted(HARD_CASES))
def test_the_vectors_hold_each_mechanics_hard_cases(name):
    """Positions whose scoring is easy to get wrong are kept, labelled by the core (a tie
    the tie-break settles) and by each mechanic's hard_cases hook."""
    found = {r["name"].rsplit(" ", 1)[0]
             for r in vectors.score_records(railspec.load(name), 1, 1, scan=SCAN.get(name, 60))}
    assert HARD_CASES[name] <= found, found


@pytest.mark.parametrize("variant,engine", [("usa", "reference"), ("europe", "compiled"),
                                            ("pennsylvania", "compiled"), ("amsterdam", "reference")])
def test_railspec_behind_the_protocol_passes(variant, engine, capsys):
    status = main(["test-engine", variant, "--games", "2", "--seed", "3", "--",
                   sys.executable, str(ADAPTER), "--engine", engine])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.rstrip().endswith("passed")
    for check in driver.CHECKS:
        assert any(line.startswith(check) and line.split()[-1] == "0" for line in out.splitlines()), (check, out)


def test_test_engine_reads_exported_vectors(tmp_path, capsys):
    vectors.export(railspec.load("italy"), tmp_path, games=1, seed=2)
    assert main(["test-engine", "italy", "--vectors", str(tmp_path), "--", sys.executable, str(ADAPTER)]) == 0


def _fake_engine(tmp_path, body: str) -> list[str]:
    """An engine script: it answers hello as the protocol asks, then does ``body`` on the
    next request."""
    path = tmp_path / "fake.py"
    path.write_text(textwrap.dedent('''
        import json, sys, time
        def answer(obj):
            sys.stdout.write(json.dumps(obj) + "\\n"); sys.stdout.flush()
        hello = json.loads(sys.stdin.readline())
        answer({"ok": True, "protocol": "railspec-driver/1", "engine": "fake",
                "supports": ["legal", "apply", "position", "score", "perft"]})
        request = json.loads(sys.stdin.readline())
    ''') + textwrap.dedent(body), encoding="utf-8")
    return [sys.executable, str(path)]


@pytest.mark.parametrize("body,kind,fragment", [
    ("print('something went wrong', file=sys.stderr); sys.exit(3)", "crashed", "status 3"),
    ("time.sleep(60)", "hung", "no answer to 'position' within 1 s"),
    ("print('hello world'); sys.stdout.flush(); time.sleep(60)", "garbled", "not JSON"),
    ("print('[1, 2]'); sys.stdout.flush(); time.sleep(60)", "garbled", "not an object with 'ok'"),
    ("sys.stdout.write('x' * 3_000_000); sys.stdout.flush(); time.sleep(60)", "flooding", "longer than 1,000,000"),
    ("sys.stdout.write('{\"ok\": true, \"pad\": \"' + 'x' * 50_000_000 + '\"}\\n'); sys.stdout.flush()",
     "flooding", "longer than 1,000,000"),
])
def test_an_engine_that_stops_answering_is_named_and_never_waited_on(tmp_path, body, kind, fragment, capsys):
    command = _fake_engine(tmp_path, body)
    start = time.monotonic()
    status = main(["test-engine", "usa", "--games", "1", "--timeout", "1", "--max-line", "1000000", "--",
                   *command])
    elapsed = time.monotonic() - start
    out = capsys.readouterr().out
    assert status == 1 and f"the engine {kind}: " in out and fragment in out, out
    assert elapsed < 30, "the driver waited on a broken engine"
    if kind == "crashed":
        assert "stderr: something went wrong" in out


def test_an_engine_that_refuses_the_spec_is_reported(tmp_path, capsys):
    path = tmp_path / "refuse.py"
    path.write_text("import json, sys\nsys.stdin.readline()\n"
                    "print(json.dumps({'ok': False, 'error': 'I only play Europe'}), flush=True)\n", encoding="utf-8")
    assert main(["test-engine", "usa", "--games", "1", "--", sys.executable, str(path)]) == 1
    assert "I only play Europe" in capsys.readouterr().out


WRAPPER = '''
import sys
sys.path.insert(0, {folder!r})
import railspec_engine as base

class Wrong(base.Adapter):
{method}

base.Adapter = Wrong
sys.exit(base.main([]))
'''


@pytest.mark.parametrize("method,check,fragment", [
    ("    def legal(self, request):\n        out = super().legal(request)\n"
     "        out['legal'] = [a for a in out['legal'] if a != 'draw blind']\n        return out\n",
     "legal", "also [\"draw blind\"]"),
    ("    def score(self, request):\n        out = super().score(request)\n"
     "        out['breakdown'][0]['total'] += 1\n        return out\n", "score", "score"),
    ("    def perft(self, request):\n        out = super().perft(request)\n"
     "        out['counts'][-1] += 1\n        return out\n", "perft", "perft"),
    ("    def apply(self, request):\n        out = super().apply(request)\n"
     "        self.game = self.variant.game_from_position(self.game.position())\n"
     "        if self.game.state()['turn'] == 3:\n"
     "            p = self.game.position(); p['passes'] = 1\n"
     "            self.game = self.variant.game_from_position(p)\n"
     "        return out\n", "apply", "'passes' differs"),
])
def test_a_difference_is_stopped_at_and_named(tmp_path, method, check, fragment, capsys):
    path = tmp_path / "wrong.py"
    path.write_text(WRAPPER.format(folder=str(ADAPTER.parent), method=method), encoding="utf-8")
    status = main(["test-engine", "usa", "--games", "2", "--seed", "1", "--", sys.executable, str(path)])
    out = capsys.readouterr().out
    assert status == 1 and out.rstrip().endswith("FAILED"), out
    assert f"\n{check}: " in out and fragment in out and "position: railspec-position/1 usa" in out, out


@pytest.mark.parametrize("argv,fragment", [
    (["test-engine", "usa"], "give the engine's command after --"),
    (["test-engine", "usa", "--"], "give the engine's command after --"),
    (["test-engine", "usa", "--checks", "speed", "--", "x"], "the checks are legal, apply, score, perft"),
    (["test-engine", "usa", "--timeout", "0", "--", "x"], "give more than 0"),
    (["test-engine", "usa", "--vectors", "/no/such/folder", "--", "x"], "no such folder"),
    (["suite", "export", "usa"], "--out"),
])
def test_bad_conformance_command_lines_are_one_line(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err, err


def test_a_missing_engine_program_is_reported(capsys):
    assert main(["test-engine", "usa", "--games", "1", "--", "/no/such/engine"]) == 1
    assert "could not be started" in capsys.readouterr().out
